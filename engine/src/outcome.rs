//! The state of a game: on, won by a colour, or drawn.

use crate::color::Color;

/// The state of a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// Moves remain and nobody has won.
    Ongoing,
    /// The colour made a winning line.
    Win(Color),
    /// The board is full without a winning line.
    Draw,
}

impl Outcome {
    /// Whether the game is over.
    #[inline(always)]
    pub const fn is_decided(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }
}
