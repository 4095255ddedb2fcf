//! Pattern codes: what one stone on an empty cell makes over its four directions together,
//! as one number — the multiset of the four directions' [`Pattern`]s (the order of the
//! directions does not matter: a four across and a three down is a four-three either way).
//!
//! There are [`PCODES`] = 3,060 multisets of four of the 15 patterns. The evaluation gives
//! each code a worth per rule, colour and [`Role`] ([`CodeTable`]), so it can price how
//! directions combine — a four with a three, two threes, a three with a strong two — which a
//! sum of per-direction worths cannot.
//!
//! The fast path: the pattern state keeps, per cell, both colours' four patterns as nibbles
//! (black's direction `d` at bits `4d`, white's at `16 + 4d`: a [`cell key`](cell_key)), changed
//! by one XOR when a direction's pattern changes; a table shared by every rule maps a
//! colour's 16-bit half to its code, and the rule's table maps the code to its worth, packed
//! like the potentials (see [`super::weights::potential_shift`]).

use std::sync::LazyLock;

use super::Pattern;
use super::combo::{combo_of, forbids_doubles};
use super::learned;
use super::pair::PatternPair;
use super::weights::{COMBO_POTENTIAL, PATTERN_POTENTIAL, Role, potential_shift};
use crate::color::Color;
use crate::rules::Rule;

/// Number of pattern codes: multisets of four of the [`Pattern::ALL`] patterns,
/// C(15 + 3, 4).
pub const PCODES: usize = 3060;

const _: () = assert!(Pattern::ALL.len() == 15, "PCODES counts multisets of 15 patterns");

/// The pattern code of a cell whose four directions make `patterns` (in any order): the rank
/// of the multiset, sorted, in the combinatorial number system. The direct definition; the
/// pattern state looks codes up by [`cell key`](cell_key) instead.
pub fn pcode_of(patterns: [Pattern; 4]) -> u16 {
    let mut sorted = patterns.map(|p| p as usize);
    sorted.sort_unstable();
    // A multiset a ≤ b ≤ c ≤ d is the set a < b + 1 < c + 2 < d + 3 of 0..18, ranked as
    // C(a, 1) + C(b + 1, 2) + C(c + 2, 3) + C(d + 3, 4).
    let rank: usize = sorted.iter().enumerate().map(|(i, &p)| binomial(p + i, i + 1)).sum();
    rank as u16
}

/// The binomial coefficient C(n, k), for the small numbers of [`pcode_of`].
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let (mut result, mut i) = (1, 0);
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// A cell's key half for one colour: its four directions' patterns as nibbles, direction `d`
/// at bits `4d`.
pub fn cell_key(patterns: [Pattern; 4]) -> u32 {
    patterns.iter().enumerate().map(|(d, &p)| (p as u32) << (4 * d)).sum()
}

/// What the cell key of both colours (black in the low 16 bits, white in the high 16)
/// changes by, as an XOR, when direction `dir`'s pattern pair goes from `old` to `new`.
#[inline(always)]
pub fn key_change(old: PatternPair, new: PatternPair, dir: usize) -> u32 {
    let changed = u32::from((old ^ new) & 0xFF);
    ((changed & 15) | (changed >> 4) << 16) << (4 * dir)
}

/// The codes and patterns shared by every rule.
struct Codes {
    /// By one colour's 16-bit cell key: its pattern code.
    by_key: Box<[u16; 1 << 16]>,
    /// By pattern code: the four patterns, strongest first.
    patterns: Vec<[Pattern; 4]>,
}

static CODES: LazyLock<Codes> = LazyLock::new(|| {
    let mut by_key: Box<[u16; 1 << 16]> =
        vec![0; 1 << 16].into_boxed_slice().try_into().expect("2^16 entries");
    let mut patterns = vec![[Pattern::Dead; 4]; PCODES];
    for (key, code) in by_key.iter_mut().enumerate() {
        // A nibble of 15 never occurs in a table entry; it reads as `Dead`.
        let four = [0, 1, 2, 3].map(|d| Pattern::from_u8((key >> (4 * d) & 15) as u8));
        *code = pcode_of(four);
        let mut strongest_first = four;
        strongest_first.sort_unstable_by(|a, b| b.cmp(a));
        patterns[usize::from(*code)] = strongest_first;
    }
    Codes { by_key, patterns }
});

/// The four patterns of a pattern code, strongest first.
pub fn patterns_of(pcode: u16) -> [Pattern; 4] {
    CODES.patterns[usize::from(pcode)]
}

/// Number of learned evaluation tables: freestyle, standard, renju's black, renju's white
/// (see [`eval_table`]).
pub const EVAL_TABLES: usize = 4;

/// The learned table that prices `color`'s codes under `rule`: one per rule where the
/// colours play by the same rules, one per colour under renju; `None` under caro, which keeps
/// the [`prior_worth`].
pub const fn eval_table(rule: Rule, color: Color) -> Option<usize> {
    match (rule, color) {
        (Rule::Freestyle, _) => Some(0),
        (Rule::Standard, _) => Some(1),
        (Rule::Renju, Color::Black) => Some(2),
        (Rule::Renju, Color::White) => Some(3),
        (Rule::Caro | Rule::CaroExact, _) => None,
    }
}

/// What a pattern code is worth for `color` under `rule` with `role`'s weights, in potential
/// units: the learned table's value ([`super::learned`]) where there is one, else the
/// [`prior_worth`]. At least 0.
pub fn code_worth(rule: Rule, color: Color, role: Role, pcode: u16) -> i32 {
    match eval_table(rule, color) {
        Some(table) => match learned::TABLES[table] {
            Some(worths) => worths[role as usize][usize::from(pcode)],
            None => prior_worth(rule, color, role, pcode),
        },
        None => prior_worth(rule, color, role, pcode),
    }
}

/// What a pattern code was worth before the learned tables, and what the trainer pulls them
/// towards, in potential units: the sum of its patterns' [`PATTERN_POTENTIAL`] and of its
/// combination class's [`COMBO_POTENTIAL`] (see [`super::combo`]). At least 0.
pub fn prior_worth(rule: Rule, color: Color, role: Role, pcode: u16) -> i32 {
    let patterns = patterns_of(pcode);
    let lines: i32 = patterns.iter().map(|&p| PATTERN_POTENTIAL[role as usize][p as usize]).sum();
    let combo = combo_of(patterns, forbids_doubles(rule, color))
        .map_or(0, |c| COMBO_POTENTIAL[role as usize][c as usize]);
    lines + combo
}

/// The worths of every pattern code under one rule, for make and unmake.
pub struct CodeTable {
    by_key: &'static [u16; 1 << 16],
    /// By colour and code: the worth for both roles, packed as that colour's half of a packed
    /// potential (see [`potential_shift`]): the side to move's in the low 32 bits, the
    /// waiting side's in the high 32.
    worth: Box<[[u64; PCODES]; 2]>,
}

impl CodeTable {
    /// The table of `rule` (kept with the rule's [`super::table::PatternTable`]).
    pub(super) fn generate(rule: Rule) -> CodeTable {
        let mut worth: Box<[[u64; PCODES]; 2]> =
            vec![[0; PCODES]; 2].into_boxed_slice().try_into().expect("two colours");
        for color in [Color::Black, Color::White] {
            for (pcode, packed) in worth[color.index()].iter_mut().enumerate() {
                for role in [Role::ToMove, Role::Waiting] {
                    let w = u64::try_from(code_worth(rule, color, role, pcode as u16))
                        .expect("code worths are at least 0");
                    *packed |=
                        w << (potential_shift(color, role) - potential_shift(color, Role::ToMove));
                }
            }
        }
        CodeTable { by_key: &CODES.by_key, worth }
    }

    /// The packed worth of both colours' codes of a cell whose key (black's half low, white's
    /// high; see [`key_change`]) is `key`.
    #[inline(always)]
    pub fn worth(&self, key: u32) -> i128 {
        let black = self.worth[0][usize::from(self.by_key[(key & 0xFFFF) as usize])];
        let white = self.worth[1][usize::from(self.by_key[(key >> 16) as usize])];
        let black = u128::from(black) << potential_shift(Color::Black, Role::ToMove);
        let white = u128::from(white) << potential_shift(Color::White, Role::ToMove);
        (black | white) as i128
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_number_the_multisets_of_four_patterns() {
        let mut seen = vec![false; PCODES];
        let all = Pattern::ALL;
        for (a, &pa) in all.iter().enumerate() {
            for (b, &pb) in all.iter().enumerate().skip(a) {
                for (c, &pc) in all.iter().enumerate().skip(b) {
                    for &pd in all.iter().skip(c) {
                        let code = usize::from(pcode_of([pa, pb, pc, pd]));
                        assert!(code < PCODES && !seen[code], "{pa:?} {pb:?} {pc:?} {pd:?}");
                        seen[code] = true;
                        // Any order gives the same code, and the code gives the patterns.
                        assert_eq!(pcode_of([pd, pb, pa, pc]), code as u16);
                        assert_eq!(patterns_of(code as u16), [pd, pc, pb, pa]);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every code below PCODES is a multiset");
    }

    #[test]
    fn the_table_gives_every_cell_its_codes_worth() {
        let n = Pattern::ALL.len();
        for rule in Rule::ALL {
            let table = CodeTable::generate(rule);
            for i in (0..n.pow(4)).step_by(7) {
                let black = [0, 1, 2, 3].map(|d| Pattern::ALL[i / n.pow(d) % n]);
                let white = [0, 1, 2, 3].map(|d| Pattern::ALL[(i / n.pow(d) + 3 * d as usize) % n]);
                let key = cell_key(black) | cell_key(white) << 16;
                let mut direct = 0i128;
                for (color, patterns) in [(Color::Black, black), (Color::White, white)] {
                    for role in [Role::ToMove, Role::Waiting] {
                        let w = code_worth(rule, color, role, pcode_of(patterns));
                        direct += i128::from(w) << potential_shift(color, role);
                    }
                }
                assert_eq!(table.worth(key), direct, "{rule}: {black:?} / {white:?}");
            }
        }
    }

    #[test]
    fn a_pair_change_flips_its_directions_nibbles() {
        use super::super::pair::pack_pair;
        let before = [Pattern::F1, Pattern::B3, Pattern::Dead, Pattern::F3S];
        let after = [Pattern::F1, Pattern::B3, Pattern::B4, Pattern::F3S];
        let white = [Pattern::B1, Pattern::F2A, Pattern::F2, Pattern::Dead];
        let white_after = [Pattern::B1, Pattern::F2A, Pattern::B1, Pattern::Dead];
        let old = pack_pair(before[2], white[2]);
        let new = pack_pair(after[2], white_after[2]);
        let key = cell_key(before) | cell_key(white) << 16;
        assert_eq!(key ^ key_change(old, new, 2), cell_key(after) | cell_key(white_after) << 16);
    }
}
