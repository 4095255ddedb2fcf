//! Pattern codes: what one stone on an empty cell makes over its four directions together,
//! as one number — the multiset of the four directions' [`Pattern`]s (the order of the
//! directions does not matter: a four across and a three down is a four-three either way).
//!
//! There are [`PCODES`] = 3,060 multisets of four of the 15 patterns. A value per code can
//! price how directions combine — a four with a three, two threes, a three with a strong
//! two — which a sum of per-direction values cannot; the evaluation gives each code its worth
//! that way and has the pattern state sum them ([`CodeValues`]).
//!
//! The fast path: the pattern state keeps, per cell, both colours' four patterns as nibbles
//! (black's direction `d` at bits `4d`, white's at `16 + 4d`: a [`cell key`](cell_key)), changed
//! by one XOR when a direction's pattern changes; a table shared by every rule maps a
//! colour's 16-bit half to its code, and a [`CodeValues`] table maps the code to its values,
//! packed as the sums are (see [`sum_shift`]).

use std::sync::LazyLock;

use super::Pattern;
use super::pair::PatternPair;
use crate::color::Color;

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

/// What the pattern state sums over the empty cells as stones come and go: two values
/// (value 0 and value 1) for every pattern code of each colour, packed so that make adds a
/// cell's values for both colours with one addition (see [`sum_shift`]). The pattern layer
/// does not know what the values mean; the evaluation makes one table per rule (its worths
/// for the side to move and for the waiting side) and hands it to the boards it evaluates.
pub struct CodeValues {
    by_key: &'static [u16; 1 << 16],
    /// By colour and code: both values, packed as that colour's half of the sums (value 0 in
    /// the low 32 bits, value 1 in the high 32).
    packed: Box<[[u64; PCODES]; 2]>,
}

impl std::fmt::Debug for CodeValues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeValues")
    }
}

/// Where the sum of value `i` (0 or 1) of `color`'s codes sits in the packed sums: 32 bits
/// each, at bit `32 · (2 · colour + i)` (so each colour's two sums are one 64-bit half).
#[inline(always)]
pub const fn sum_shift(color: Color, i: usize) -> u32 {
    32 * (2 * color as u32 + i as u32)
}

/// Sum `i` (0 or 1) of `color` in packed sums: every term is at least 0, so each sum is
/// exactly its 32-bit field.
#[inline(always)]
pub const fn unpack_sum(sums: i128, color: Color, i: usize) -> i32 {
    (sums >> sum_shift(color, i)) as u32 as i32
}

impl CodeValues {
    /// The table whose values for `color`'s code `pcode` are `value(color, pcode)`.
    ///
    /// # Panics
    /// If a value is negative or so large that a board's sum could overflow 31 bits (a
    /// value above 2³¹ / 512).
    pub fn new(value: impl Fn(Color, u16) -> [i32; 2]) -> CodeValues {
        const MAX_VALUE: i32 = i32::MAX / 512;
        let mut packed: Box<[[u64; PCODES]; 2]> =
            vec![[0; PCODES]; 2].into_boxed_slice().try_into().expect("two colours");
        for color in [Color::Black, Color::White] {
            for (pcode, cell) in packed[color.index()].iter_mut().enumerate() {
                for (i, v) in value(color, pcode as u16).into_iter().enumerate() {
                    assert!((0..=MAX_VALUE).contains(&v), "a code value of {v} for {color:?}");
                    *cell |= (v as u64) << (sum_shift(color, i) - sum_shift(color, 0));
                }
            }
        }
        CodeValues { by_key: &CODES.by_key, packed }
    }

    /// The table of zeros: what a pattern state that was handed no table sums (nothing).
    pub fn zeros() -> &'static CodeValues {
        static ZEROS: LazyLock<CodeValues> = LazyLock::new(|| CodeValues::new(|_, _| [0, 0]));
        &ZEROS
    }

    /// The packed values of both colours' codes of a cell whose key (black's half low,
    /// white's high; see [`key_change`]) is `key`.
    #[inline(always)]
    pub fn of_key(&self, key: u32) -> i128 {
        let black = self.packed[0][usize::from(self.by_key[(key & 0xFFFF) as usize])];
        let white = self.packed[1][usize::from(self.by_key[(key >> 16) as usize])];
        let black = u128::from(black) << sum_shift(Color::Black, 0);
        let white = u128::from(white) << sum_shift(Color::White, 0);
        (black | white) as i128
    }
}

/// The cell key of both colours (black's half low, white's high) of a cell whose patterns
/// are `black` and `white` (the direct definition; the pattern state keeps keys up to date
/// with [`key_change`]).
pub fn both_cell_key(black: [Pattern; 4], white: [Pattern; 4]) -> u32 {
    cell_key(black) | cell_key(white) << 16
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
    fn a_values_table_gives_every_cell_its_codes_values() {
        let value = |color: Color, pcode: u16| [i32::from(pcode) * 3 + color as i32, 7];
        let table = CodeValues::new(value);
        let n = Pattern::ALL.len();
        for i in (0..n.pow(4)).step_by(7) {
            let black = [0, 1, 2, 3].map(|d| Pattern::ALL[i / n.pow(d) % n]);
            let white = [0, 1, 2, 3].map(|d| Pattern::ALL[(i / n.pow(d) + 3 * d as usize) % n]);
            let packed = table.of_key(both_cell_key(black, white));
            for (color, patterns) in [(Color::Black, black), (Color::White, white)] {
                let direct = value(color, pcode_of(patterns));
                for (v, direct) in direct.into_iter().enumerate() {
                    assert_eq!(unpack_sum(packed, color, v), direct, "{black:?} / {white:?}");
                }
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
        let key = both_cell_key(before, white);
        assert_eq!(key ^ key_change(old, new, 2), both_cell_key(after, white_after));
    }
}
