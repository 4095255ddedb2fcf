//! The storage classes: what a bitboard type brings to the boards stored in it, in one
//! place — its cells, their geometry and set operations ([`crate::bitboard`]), the
//! incremental pattern state its boards keep, its win-line table and its renju forbidden
//! points ([`Storage`]). A run-time board size ([`crate::size::BoardSize`]) chooses its
//! storage class in one place: a [`crate::game::Game`] of that size. Within a class the
//! width and height are values ([`crate::geometry::Geometry`]), kept by each board.
//!
//! | sizes                 | storage     | pattern state |
//! |-----------------------|-------------|---------------|
//! | 3×3                   | [`Bits16`]  | none          |
//! | 5×5                   | [`Bits32`]  | none          |
//! | others up to 15×15    | [`Bits256`] | [`LineKeys`]  |
//! | the others, to 22×22  | [`Bits512`] | [`LineKeys`]  |

use std::sync::LazyLock;

use crate::bitboard::{Bitboard, Bits16, Bits32, Bits256, Bits512};
use crate::lines::LineTable;
use crate::pattern::keys::{LineKeys, NoPatterns, PatternState};

/// A storage class: the bitboard type of a board, with what the boards stored in it keep
/// besides their stones. Board code is generic over it: `Board<B: Storage>`.
pub trait Storage: Bitboard {
    /// The incremental pattern state boards of this class keep: line keys on the gomoku
    /// boards, nothing on the small boards, whose lines span the board and need no patterns.
    type Patterns: PatternState<Self>;

    /// The generated win-line table of the type's largest board (read where lines span the
    /// board, whose only board that is).
    fn line_table() -> &'static LineTable<Self>;

    /// Black's renju-forbidden cells among the empty `candidates`, read off the pattern state
    /// `lines` of the position with `black` and `white` stones: none on boards without line
    /// patterns.
    #[inline(always)]
    fn renju_forbidden(
        _lines: &Self::Patterns,
        _black: Self,
        _white: Self,
        _candidates: Self,
    ) -> Self {
        Self::EMPTY
    }

    /// The renju foul black would commit on the empty `cell`: none on boards without line
    /// patterns.
    #[inline(always)]
    fn renju_foul(
        _lines: &Self::Patterns,
        _black: Self,
        _white: Self,
        _cell: crate::geometry::Cell,
    ) -> Option<crate::renju::Foul> {
        None
    }
}

impl Storage for Bits16 {
    type Patterns = NoPatterns;

    fn line_table() -> &'static LineTable<Self> {
        static TABLE: LazyLock<LineTable<Bits16>> = LazyLock::new(LineTable::generate);
        &TABLE
    }
}

impl Storage for Bits32 {
    type Patterns = NoPatterns;

    fn line_table() -> &'static LineTable<Self> {
        static TABLE: LazyLock<LineTable<Bits32>> = LazyLock::new(LineTable::generate);
        &TABLE
    }
}

/// The storage classes whose boards keep line keys, with the keys' slot count (the type's
/// bits).
macro_rules! keyed_storage {
    ($type:ty, $slots:expr) => {
        impl Storage for $type {
            type Patterns = LineKeys<$type, $slots>;

            fn line_table() -> &'static LineTable<Self> {
                static TABLE: LazyLock<LineTable<$type>> = LazyLock::new(LineTable::generate);
                &TABLE
            }

            #[inline]
            fn renju_forbidden(
                lines: &Self::Patterns,
                black: Self,
                white: Self,
                candidates: Self,
            ) -> Self {
                crate::renju::forbidden_among(lines, black, white, candidates)
            }

            fn renju_foul(
                lines: &Self::Patterns,
                black: Self,
                white: Self,
                cell: crate::geometry::Cell,
            ) -> Option<crate::renju::Foul> {
                crate::renju::foul_at(lines, black, white, cell)
            }
        }
    };
}

keyed_storage!(Bits256, 256);
keyed_storage!(Bits512, 512);
