//! The evaluation's prior weights: what each line pattern and each combination class on an
//! empty cell is worth to the colour that could play there, by [`Role`]; a pattern code's
//! prior worth is the sum of its four patterns' and its class's ([`super::worth`]). Also
//! which learned table prices a rule's and colour's codes ([`eval_table`]).
//!
//! Fitted to self-play results with Texel's method (`examples/eval_fit.rs`; see
//! `docs/patterns.md`): the squared error of `σ(eval / 600)` against the result minimised
//! with every weight kept at 0 or more, then rounded, the fours capped at 1200.

use crate::color::Color;
use crate::pattern::Pattern;
use crate::pattern::combo::COMBOS;
use crate::rules::Rule;

/// Whose weights a colour's potential is summed with: the evaluation counts the side to
/// move's patterns with the first row of [`PATTERN_POTENTIAL`] and the opponent's with the
/// second (a three of the side to move becomes a four with its next stone; the opponent's
/// must wait a move, and can be blocked first). `Role as usize` is the index of the value
/// the pattern state sums (see [`crate::pattern::code::CodeValues`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Role {
    /// The side to move.
    ToMove = 0,
    /// The side that moves next.
    Waiting = 1,
}

/// Worth of one direction's pattern on an empty cell, for the colour that could play there,
/// by [`Role`] and `Pattern as usize`, in quarter evaluation units (see
/// [`POTENTIAL_SCALE`]); the evaluation sums these over every empty cell. The side to move's
/// row also orders moves (see `search::threats::threat_value`). Fitted together with
/// [`COMBO_POTENTIAL`] on 138,918 positions of 4,700 games.
pub const PATTERN_POTENTIAL: [[i32; Pattern::ALL.len()]; 2] = [
    // Dead, Overline, B1, F1, B2, F2, F2A, F2B, B3, F3, F3S, B4, F4, DoubleFour, Five
    [0, 0, 0, 3, 15, 38, 38, 38, 105, 301, 301, 407, 1200, 1200, 1200], // to move
    [0, 0, 0, 1, 14, 35, 35, 35, 88, 201, 201, 390, 1200, 1200, 1200],  // waiting
];

/// [`PATTERN_POTENTIAL`] is in units of 1 / `POTENTIAL_SCALE` of the evaluation: fine enough
/// for the small weights, which count hundreds of times on a board.
pub const POTENTIAL_SCALE: i32 = 4;

/// Worth of a cell's combination class for the colour that could play there, by [`Role`] and
/// `Combo as usize` (see [`crate::pattern::combo`]), in the units of [`PATTERN_POTENTIAL`] and
/// added to the same sums. Fitted with them; the double four and four-three capped at 1200 like the fours, the waiting side's double four
/// (too rare to fit) set equal to its four-three.
pub const COMBO_POTENTIAL: [[i32; COMBOS]; 2] = [
    // DoubleFour, FourThree, DoubleThree, FourTwo, ThreeTwo, DoubleTwo
    [1200, 1200, 223, 861, 297, 81], // to move
    [1200, 1200, 458, 693, 249, 49], // waiting
];

/// Number of learned evaluation tables: freestyle, standard, renju's black, renju's white
/// (see [`eval_table`]).
pub const EVAL_TABLES: usize = 4;

/// The learned table that prices `color`'s codes under `rule`: one per rule where the
/// colours play by the same rules, one per colour under renju; `None` under caro, which keeps
/// the prior worths.
pub const fn eval_table(rule: Rule, color: Color) -> Option<usize> {
    match (rule, color) {
        (Rule::Freestyle, _) => Some(0),
        (Rule::Standard, _) => Some(1),
        (Rule::Renju, Color::Black) => Some(2),
        (Rule::Renju, Color::White) => Some(3),
        (Rule::Caro | Rule::CaroExact, _) => None,
    }
}
