//! What a board size brings, in one place: its bitboard type (the cells, their geometry and
//! set operations: [`crate::bitboard`]), the incremental line state its boards keep, its
//! win-line table and its renju forbidden points ([`Size`]); the sizes mnk plays, chosen at
//! run time ([`BoardSize`]). A run-time size becomes a type in one place: a
//! [`crate::game::Game`] of that size.
//!
//! | size  | type        | line state | lines |
//! |-------|-------------|------------|-------|
//! | 3×3   | [`Bits16`]  | none       | 8     |
//! | 5×5   | [`Bits32`]  | none       | 12    |
//! | 15×15 | [`Bits256`] | [`LineKeys`] | 572 |

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use crate::bitboard::{Bitboard, Bits16, Bits32, Bits256};
use crate::geometry::Geometry;
use crate::lines::LineTable;
use crate::pattern::keys::{LineKeys, LineState, NoLines};

/// The bitboard type of a board size, with what boards of that size keep besides their
/// stones. Board code is generic over it: `Board<B: Size>`.
pub trait Size: Bitboard {
    /// The incremental line state boards of this size keep: line keys on 15×15, nothing on
    /// the small boards, whose lines span the board and need no patterns.
    type Lines: LineState<Self>;

    /// The generated win-line table of this size.
    fn line_table() -> &'static LineTable<Self>;

    /// Black's renju-forbidden cells among the empty `candidates`, read off the line state
    /// `lines` of the position with `black` and `white` stones: none on boards without line
    /// patterns.
    #[inline(always)]
    fn renju_forbidden(
        _lines: &Self::Lines,
        _black: Self,
        _white: Self,
        _candidates: Self,
    ) -> Self {
        Self::EMPTY
    }
}

impl Size for Bits16 {
    type Lines = NoLines;

    fn line_table() -> &'static LineTable<Self> {
        static TABLE: LazyLock<LineTable<Bits16>> = LazyLock::new(LineTable::generate);
        &TABLE
    }
}

impl Size for Bits32 {
    type Lines = NoLines;

    fn line_table() -> &'static LineTable<Self> {
        static TABLE: LazyLock<LineTable<Bits32>> = LazyLock::new(LineTable::generate);
        &TABLE
    }
}

impl Size for Bits256 {
    type Lines = LineKeys;

    fn line_table() -> &'static LineTable<Self> {
        static TABLE: LazyLock<LineTable<Bits256>> = LazyLock::new(LineTable::generate);
        &TABLE
    }

    #[inline]
    fn renju_forbidden(lines: &LineKeys, black: Self, white: Self, candidates: Self) -> Self {
        crate::renju::forbidden_among(lines, black, white, candidates)
    }
}

/// The board sizes mnk plays, for choosing a bitboard type at run time.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum BoardSize {
    /// 3×3, three in a row ([`Bits16`]).
    Three,
    /// 5×5, five in a row ([`Bits32`]).
    Five,
    /// 15×15, five in a row ([`Bits256`]).
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

    /// The geometry of the size (side, win length, stride).
    pub const fn geometry(self) -> Geometry {
        match self {
            BoardSize::Three => Bits16::GEOMETRY,
            BoardSize::Five => Bits32::GEOMETRY,
            BoardSize::Fifteen => Bits256::GEOMETRY,
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
