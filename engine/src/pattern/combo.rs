//! Combinations: what one stone on an empty cell makes over its four directions together
//! (a four-three, a double three, ...), on top of each direction's [`Pattern`].
//!
//! The evaluation sums every empty cell's four patterns (see
//! [`super::weights::PATTERN_POTENTIAL`]). A sum cannot tell one cell where a stone makes two
//! threes at once — the opponent blocks only one of them — from two cells with one three
//! each. The combination classes add that, with one more weight per class and role
//! ([`COMBO_POTENTIAL`]), fitted with the pattern weights.
//!
//! A cell has at most one class, the first that fits, counting its directions' patterns
//! (a *two* here is a closed three or an open two: one more stone makes a three):
//!
//! | class | patterns |
//! |---|---|
//! | `DoubleFour` | two fours |
//! | `FourThree` | a four and an open three |
//! | `DoubleThree` | two open threes |
//! | `FourTwo` | a four and a two |
//! | `ThreeTwo` | an open three and a two |
//! | `DoubleTwo` | two twos |
//!
//! (`docs/patterns.md` draws an example of each.)
//!
//! A cell whose stone makes five, an open four or a one-line double four in some direction
//! has no class: that pattern decides alone. For black under renju a double four, a double
//! three and an overline are forbidden, so those cells have no class either.
//!
//! The fast path: each pattern adds a digit (`combo_digit`) to a per-colour index, the sum
//! over the four directions; a per-rule table ([`ComboTable`], kept in the rule's
//! [`super::table::PatternTable`]) maps the index to the worth of its class, packed like the
//! pattern potentials.

use super::Pattern;
use super::pair::PatternPair;
use super::weights::{COMBO_POTENTIAL, Role, potential_shift};
use crate::color::Color;
use crate::rules::Rule;

/// The combination classes, strongest first.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Combo {
    /// Two fours.
    DoubleFour = 0,
    /// A four and an open three.
    FourThree = 1,
    /// Two open threes.
    DoubleThree = 2,
    /// A four and a closed three or open two.
    FourTwo = 3,
    /// An open three and a closed three or open two.
    ThreeTwo = 4,
    /// Two closed threes or open twos.
    DoubleTwo = 5,
}

/// Number of [`Combo`] classes.
pub const COMBOS: usize = 6;

const _: () = assert!(COMBO_POTENTIAL[0].len() == COMBOS && COMBO_POTENTIAL[1].len() == COMBOS);

/// Whether a stone of `color` may not make a double four, a double three or an overline under
/// `rule` (renju's black).
#[inline]
pub const fn forbids_doubles(rule: Rule, color: Color) -> bool {
    matches!((rule, color), (Rule::Renju, Color::Black))
}

/// The combination class of a cell whose four directions make `patterns` for a colour, if it
/// has one; `forbidden_doubles` for renju's black (see [`forbids_doubles`]). The direct
/// definition; make and unmake use [`ComboTable`].
pub fn combo_of(patterns: [Pattern; 4], forbidden_doubles: bool) -> Option<Combo> {
    let count = |wanted: &[Pattern]| patterns.iter().filter(|p| wanted.contains(p)).count();
    let decisive = count(&[Pattern::F4, Pattern::DoubleFour, Pattern::Five]);
    let overlines = count(&[Pattern::Overline]);
    let threes = count(&[Pattern::F3, Pattern::F3S]);
    let (fours, twos) =
        (count(&[Pattern::B4]), count(&[Pattern::B3, Pattern::F2, Pattern::F2A, Pattern::F2B]));
    if decisive > 0 || (forbidden_doubles && (overlines > 0 || fours >= 2 || threes >= 2)) {
        return None;
    }
    match () {
        _ if fours >= 2 => Some(Combo::DoubleFour),
        _ if fours >= 1 && threes >= 1 => Some(Combo::FourThree),
        _ if threes >= 2 => Some(Combo::DoubleThree),
        _ if fours >= 1 && twos >= 1 => Some(Combo::FourTwo),
        _ if threes >= 1 && twos >= 1 => Some(Combo::ThreeTwo),
        _ if twos >= 2 => Some(Combo::DoubleTwo),
        _ => None,
    }
}

/// Base of the digits of a combination index: a count of four directions is at most 4.
const BASE: u32 = 5;
/// Values of one colour's combination index: four base-5 digits summed over four directions
/// reach at most 4 · 125 = 500, so 512 entries hold them all (and an index masked to 9 bits
/// needs no bounds check).
const INDICES: usize = 512;

/// What one direction's pattern adds to a colour's combination index: the index counts, in
/// base 5, the decisive patterns (and renju black's overlines), the fours, the open threes and
/// the closed threes and open twos.
const fn combo_digit(p: Pattern, forbidden_doubles: bool) -> u32 {
    match p {
        Pattern::F4 | Pattern::DoubleFour | Pattern::Five => BASE * BASE * BASE,
        Pattern::Overline if forbidden_doubles => BASE * BASE * BASE,
        Pattern::B4 => BASE * BASE,
        Pattern::F3 | Pattern::F3S => BASE,
        Pattern::B3 | Pattern::F2 | Pattern::F2A | Pattern::F2B => 1,
        _ => 0,
    }
}

/// The combination worths of one rule, for make and unmake.
pub struct ComboTable {
    /// By the pattern bits of a pair (`pair & 0xFF`): black's digit in the low 16 bits,
    /// white's in the high 16 (see [`combo_digit`]). The sum over a cell's four pairs is
    /// both colours' indices, with no carry between them.
    digits: [u32; 256],
    /// By colour and index: the class's worth for both roles, packed as that colour's half
    /// of a packed potential (see [`potential_shift`]): the side to move's in the low 32
    /// bits, the waiting side's in the high 32.
    worth: [[u64; INDICES]; 2],
}

impl ComboTable {
    /// The table of `rule` (kept with the rule's [`super::table::PatternTable`]).
    pub(super) fn generate(rule: Rule) -> ComboTable {
        let mut digits = [0; 256];
        for (bits, digit) in digits.iter_mut().enumerate() {
            let black = Pattern::from_u8((bits & 15) as u8);
            let white = Pattern::from_u8((bits >> 4) as u8);
            *digit = combo_digit(black, forbids_doubles(rule, Color::Black))
                | combo_digit(white, forbids_doubles(rule, Color::White)) << 16;
        }
        let mut worth = [[0; INDICES]; 2];
        for color in [Color::Black, Color::White] {
            let forbidden = forbids_doubles(rule, color);
            for (index, packed) in worth[color.index()].iter_mut().enumerate() {
                // The class depends only on the counts, so any patterns with these counts
                // stand for the index.
                let digit = |place: u32| index as u32 / BASE.pow(place) % BASE;
                let counts = [
                    (digit(3), Pattern::Five),
                    (digit(2), Pattern::B4),
                    (digit(1), Pattern::F3),
                    (digit(0), Pattern::F2),
                ];
                if counts.iter().map(|&(n, _)| n).sum::<u32>() > 4 {
                    continue; // more directions than a cell has: no cell has this index
                }
                let mut patterns = [Pattern::Dead; 4];
                let mut slots = patterns.iter_mut();
                for (n, p) in counts {
                    for slot in slots.by_ref().take(n as usize) {
                        *slot = p;
                    }
                }
                if let Some(combo) = combo_of(patterns, forbidden) {
                    for role in [Role::ToMove, Role::Waiting] {
                        let w = u64::try_from(COMBO_POTENTIAL[role as usize][combo as usize])
                            .expect("combination weights are at least 0");
                        *packed += w
                            << (potential_shift(color, role)
                                - potential_shift(color, Role::ToMove));
                    }
                }
            }
        }
        ComboTable { digits, worth }
    }

    /// Both colours' combination indices of a pair's pattern (summed over a cell's four).
    #[inline(always)]
    pub fn digits(&self, pair: PatternPair) -> u32 {
        self.digits[usize::from(pair & 0xFF)]
    }

    /// The packed worth of both colours' classes, from the sum of a cell's four
    /// [`ComboTable::digits`].
    #[inline(always)]
    pub fn worth(&self, indices: u32) -> i128 {
        let (black, white) = ((indices & 0xFFFF) as usize, (indices >> 16) as usize);
        let (black, white) = (black & (INDICES - 1), white & (INDICES - 1));
        let black = u128::from(self.worth[0][black]) << potential_shift(Color::Black, Role::ToMove);
        let white = u128::from(self.worth[1][white]) << potential_shift(Color::White, Role::ToMove);
        (black | white) as i128
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::pair::pack_pair;
    use crate::pattern::table::PatternTable;
    use crate::pattern::weights::potential_shift;

    /// The packed worth of the classes of black's and white's patterns, by the direct
    /// definition.
    fn slow_worth(rule: Rule, black: [Pattern; 4], white: [Pattern; 4]) -> i128 {
        let mut packed = 0;
        for (color, patterns) in [(Color::Black, black), (Color::White, white)] {
            if let Some(combo) = combo_of(patterns, forbids_doubles(rule, color)) {
                for role in [Role::ToMove, Role::Waiting] {
                    let w = COMBO_POTENTIAL[role as usize][combo as usize];
                    packed += i128::from(w) << potential_shift(color, role);
                }
            }
        }
        packed
    }

    #[test]
    fn the_table_gives_every_combination_of_patterns_its_class_worth() {
        for rule in Rule::ALL {
            let table = PatternTable::of(rule).combos();
            // Every combination of four patterns for black, with white's patterns a rotation
            // of the list (so both colours' fields are checked together).
            let n_all = Pattern::ALL.len();
            for n in 0..n_all.pow(4) {
                let black = [0, 1, 2, 3].map(|i| Pattern::ALL[n / n_all.pow(i) % n_all]);
                let white =
                    [0, 1, 2, 3].map(|i| Pattern::ALL[(n / n_all.pow(i) + 5 * i as usize) % n_all]);
                let pairs = [0, 1, 2, 3].map(|i| pack_pair(black[i], white[i]));
                let indices = pairs.iter().map(|&pair| table.digits(pair)).sum();
                assert_eq!(
                    table.worth(indices),
                    slow_worth(rule, black, white),
                    "{rule}: black {black:?}, white {white:?}"
                );
            }
        }
    }

    #[test]
    fn classes_follow_the_legend() {
        use Pattern::*;
        let class = |p: [Pattern; 4]| combo_of(p, false);
        assert_eq!(class([B4, B4, Dead, Dead]), Some(Combo::DoubleFour));
        assert_eq!(class([B4, F3, F3, Dead]), Some(Combo::FourThree));
        assert_eq!(class([F3, Dead, F3, B1]), Some(Combo::DoubleThree));
        assert_eq!(class([B4, B3, Dead, Dead]), Some(Combo::FourTwo));
        assert_eq!(class([F2, F3, Dead, Dead]), Some(Combo::ThreeTwo));
        assert_eq!(class([F2, B3, F1, B2]), Some(Combo::DoubleTwo));
        assert_eq!(class([F2, F1, B2, B1]), None);
        // A decisive pattern has no class; renju's black may not make doubles or overlines.
        assert_eq!(class([F4, F3, F3, Dead]), None);
        assert_eq!(combo_of([B4, B4, Dead, Dead], true), None);
        assert_eq!(combo_of([F3, F3, Dead, Dead], true), None);
        assert_eq!(combo_of([Overline, F3, F2, Dead], true), None);
        assert_eq!(combo_of([Overline, F3, F2, Dead], false), Some(Combo::ThreeTwo));
        assert_eq!(combo_of([B4, F3, Dead, Dead], true), Some(Combo::FourThree));
    }
}
