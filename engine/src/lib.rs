//! `mnk-engine`: a bitboard engine for m,n,k-games — tic-tac-toe (3×3, three in a row),
//! 5×5 five in a row, and 15×15 gomoku.
//!
//! The library does no I/O, keeps no global mutable state and prints nothing. Board code is
//! generic over the bitboard type, which fixes the size: `u16` is 3×3, `u32` is 5×5 and
//! [`bitboard::Bits256`] is 15×15 (see [`bitboard`] for the layout). Front ends pick a size
//! once, at the edge, with [`BoardSize`] and [`with_board_size!`].
//!
//! Module map:
//! * [`bitboard`], [`geometry`], [`lines`]: cell sets, coordinates, win-line masks;
//! * [`board`], [`rules`], [`zobrist`], [`notation`]: positions, win tests, hashing, move
//!   lists;
//! * [`perft`]: move-sequence counts, the correctness oracle;
//! * [`search`], [`tt`], [`eval`], [`movegen`]: iterative-deepening PVS with a
//!   transposition table ([`prefetch`]: the cache hint for its probes); [`solve`]: exact
//!   values of the small boards;
//! * [`rng`]: a small deterministic random generator;
//! * [`classroom`]: the classroom program this project grew from (depth-6 α-β with pattern
//!   scores per line), a sparring partner for measuring strength.

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod classroom;
pub mod color;
pub mod eval;
pub mod geometry;
pub mod lines;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod pattern;
pub mod perft;
pub mod prefetch;
pub mod renju;
pub mod report;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod solve;
pub mod time;
pub mod tt;
pub mod zobrist;

use std::fmt;
use std::str::FromStr;

/// The board sizes mnk plays, for choosing a bitboard type at run time.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum BoardSize {
    /// 3×3, three in a row (`u16`).
    Three,
    /// 5×5, five in a row (`u32`).
    Five,
    /// 15×15, five in a row (`Bits256`).
    Fifteen,
}

impl BoardSize {
    /// Every size, smallest first.
    pub const ALL: [BoardSize; 3] = [BoardSize::Three, BoardSize::Five, BoardSize::Fifteen];

    /// The size with `side` cells per row, if mnk plays it.
    pub const fn from_side(side: usize) -> Option<BoardSize> {
        match side {
            3 => Some(BoardSize::Three),
            5 => Some(BoardSize::Five),
            15 => Some(BoardSize::Fifteen),
            _ => None,
        }
    }

    /// Cells per row.
    pub const fn side(self) -> usize {
        match self {
            BoardSize::Three => 3,
            BoardSize::Five => 5,
            BoardSize::Fifteen => 15,
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// A board side that mnk does not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedSize(pub String);

impl fmt::Display for UnsupportedSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unsupported board size '{}' (expected 3, 5 or 15)", self.0)
    }
}

impl std::error::Error for UnsupportedSize {}

impl FromStr for BoardSize {
    type Err = UnsupportedSize;

    fn from_str(s: &str) -> Result<BoardSize, UnsupportedSize> {
        s.trim()
            .parse::<usize>()
            .ok()
            .and_then(BoardSize::from_side)
            .ok_or_else(|| UnsupportedSize(s.to_string()))
    }
}

/// Runs `$body` with the type alias `$B` bound to the bitboard type of `$size`: the one
/// place where a run-time size becomes a type.
///
/// ```
/// use mnk_engine::{with_board_size, BoardSize, bitboard::Bitboard};
/// let cells = with_board_size!(BoardSize::Five, B => B::GEOMETRY.cells());
/// assert_eq!(cells, 25);
/// ```
#[macro_export]
macro_rules! with_board_size {
    ($size:expr, $B:ident => $body:expr) => {
        match $size {
            $crate::BoardSize::Three => {
                type $B = u16;
                $body
            }
            $crate::BoardSize::Five => {
                type $B = u32;
                $body
            }
            $crate::BoardSize::Fifteen => {
                type $B = $crate::bitboard::Bits256;
                $body
            }
        }
    };
}
