//! The evaluation's weights: what each line pattern and each combination class on an empty
//! cell is worth to the colour that could play there, by [`Role`]. The pattern state sums them
//! over the empty cells as stones come and go ([`super::keys`]); the evaluation reads the
//! sums ([`crate::eval`]).
//!
//! Fitted to self-play results with Texel's method (`examples/eval_fit.rs`; see
//! `docs/patterns.md`): the squared error of `σ(eval / 600)` against the result minimised
//! with every weight kept at 0 or more, then rounded, the fours capped at 1200.

use super::Pattern;
use crate::color::Color;

/// Whose weights a colour's potential is summed with: the evaluation counts the side to
/// move's patterns with the first row of [`PATTERN_POTENTIAL`] and the opponent's with the
/// second (a three of the side to move becomes a four with its next stone; the opponent's
/// must wait a move, and can be blocked first).
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

/// Where the sum of `color` with `role`'s weights sits in a packed potential: 32 bits each,
/// at bit `32 · (2 · colour + role)` (so each colour's two sums are one 64-bit half).
#[inline(always)]
pub const fn potential_shift(color: Color, role: Role) -> u32 {
    32 * (2 * color as u32 + role as u32)
}

/// Worth of a cell's combination class for the colour that could play there, by [`Role`] and
/// `Combo as usize` (see [`super::combo`]), in the units of [`PATTERN_POTENTIAL`] and added
/// to the same sums. Fitted with them; the double four and four-three capped at 1200 like the fours, the waiting side's double four
/// (too rare to fit) set equal to its four-three.
pub const COMBO_POTENTIAL: [[i32; 6]; 2] = [
    // DoubleFour, FourThree, DoubleThree, FourTwo, ThreeTwo, DoubleTwo
    [1200, 1200, 223, 861, 297, 81], // to move
    [1200, 1200, 458, 693, 249, 49], // waiting
];
