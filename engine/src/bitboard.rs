//! Bitboards: one set-of-cells vocabulary, three storage types.
//!
//! | board | type      | bits used | stride |
//! |-------|-----------|-----------|--------|
//! | 3×3   | `u16`     | 12 of 16  | 4      |
//! | 5×5   | `u32`     | 30 of 32  | 6      |
//! | 15×15 | [`Bits256`] | 240 of 256 | 16  |
//!
//! Every row is stored with one extra *guard column* on its right: cell (x, y) is bit
//! `y * (side + 1) + x`. **Invariant: guard bits and the bits past the last row are always
//! zero** in every bitboard that describes cells (stones, masks, move sets). Because of the
//! guard column, shifting a set by one step in any of the four line directions never wraps a
//! stone onto the opposite edge — it lands on a guard bit instead — so a k-in-a-row test is
//! the same shift-and in all directions with no edge masks. `docs/bitboards.md` draws the
//! layouts.
//!
//! The storage type fixes the board: `u16` *is* 3×3, `u32` *is* 5×5 and [`Bits256`] *is*
//! 15×15, so board code is generic over one type parameter `B: Bitboard`.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

use crate::geometry::{Cell, Direction, Geometry};
use crate::lines::LineTable;
use crate::pattern::keys::{LineState, NoLines};

mod bits256;

pub use bits256::Bits256;

/// A set of cells of one board size, stored in the guard-column layout.
///
/// Implemented by `u16` (3×3), `u32` (5×5) and [`Bits256`] (15×15).
///
/// ```
/// use mnk_engine::bitboard::Bitboard;
/// use mnk_engine::geometry::Direction;
///
/// let g = <u32 as Bitboard>::GEOMETRY; // 5×5
/// let centre = u32::from_cell(g.cell(2, 2).unwrap());
/// let east = centre.shift(Direction::East, 1);
/// assert!(east.contains(g.cell(3, 2).unwrap()));
/// // Two steps east of the last column fall off the board instead of wrapping.
/// let edge = u32::from_cell(g.cell(4, 2).unwrap());
/// assert!(edge.shift(Direction::East, 1).is_empty());
/// ```
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// Board side, win length and stride of this storage type.
    const GEOMETRY: Geometry;
    /// The empty set.
    const EMPTY: Self;
    /// Every on-board cell (guard bits clear).
    const FULL: Self;
    /// Number of storage bits (16, 32 or 256).
    const STORAGE_BITS: u32;
    /// The incremental line state boards of this size keep (line keys on 15×15, nothing on
    /// the small boards).
    type Lines: LineState<Self>;

    /// The set holding only `cell`. `cell` must be a valid index for this size.
    fn from_cell(cell: Cell) -> Self;
    /// Number of cells in the set.
    fn count(self) -> u32;
    /// Whether the set holds no cell.
    fn is_empty(self) -> bool;
    /// Whether `cell` is in the set.
    fn contains(self, cell: Cell) -> bool;
    /// Raw left shift of the storage by `n` bits (`n < STORAGE_BITS`); may set guard bits.
    fn shl(self, n: u32) -> Self;
    /// Raw right shift of the storage by `n` bits (`n < STORAGE_BITS`); may set guard bits.
    fn shr(self, n: u32) -> Self;
    /// The cell with the lowest index, if any.
    fn lowest(self) -> Option<Cell>;
    /// Removes and returns the cell with the lowest index.
    fn pop_lowest(&mut self) -> Option<Cell>;
    /// The generated win-line table of this board size.
    fn line_table() -> &'static LineTable<Self>;

    /// The cells of the board not in the set.
    #[inline]
    fn complement(self) -> Self {
        Self::FULL ^ self
    }

    /// The cells of `self` that are not in `other`.
    #[inline]
    fn without(self, other: Self) -> Self {
        self & other.complement()
    }

    /// `self` with `cell` added.
    #[inline]
    fn with(self, cell: Cell) -> Self {
        self | Self::from_cell(cell)
    }

    /// Every cell moved `steps` steps along `dir` (negative: backwards); cells leaving the
    /// board are dropped. Each step is masked on its own, because a longer jump could carry a
    /// stone across the guard column onto the next row.
    #[inline]
    fn shift(self, dir: Direction, steps: i32) -> Self {
        let offset = dir.bit_offset(Self::GEOMETRY.stride());
        let mut set = self;
        for _ in 0..steps.unsigned_abs() {
            set = if steps >= 0 { set.shl(offset) } else { set.shr(offset) } & Self::FULL;
        }
        set
    }

    /// Iterates over the cells in increasing index order.
    #[inline]
    fn iter(self) -> Cells<Self> {
        Cells { rest: self }
    }

    /// Builds a set from a picture: one text row per board row, `x` or `X` for a member,
    /// `.` for a non-member; spaces are ignored. Returns `None` on a malformed picture.
    ///
    /// ```
    /// use mnk_engine::bitboard::Bitboard;
    /// let diagonal = u16::from_picture("x . .\n. x .\n. . x").unwrap();
    /// assert_eq!(diagonal.count(), 3);
    /// assert_eq!(diagonal.picture(), "x . .\n. x .\n. . x\n");
    /// ```
    fn from_picture(picture: &str) -> Option<Self> {
        let geometry = Self::GEOMETRY;
        let rows: Vec<&str> = picture.lines().filter(|l| !l.trim().is_empty()).collect();
        if rows.len() != geometry.side() {
            return None;
        }
        let mut set = Self::EMPTY;
        for (y, row) in rows.iter().enumerate() {
            let marks: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if marks.len() != geometry.side() {
                return None;
            }
            for (x, mark) in marks.into_iter().enumerate() {
                match mark {
                    'x' | 'X' => set = set.with(geometry.cell(x, y)?),
                    '.' => {}
                    _ => return None,
                }
            }
        }
        Some(set)
    }

    /// The set drawn as a picture (the inverse of [`Bitboard::from_picture`]).
    fn picture(self) -> String {
        let geometry = Self::GEOMETRY;
        let mut out = String::new();
        for y in 0..geometry.side() {
            for x in 0..geometry.side() {
                if x > 0 {
                    out.push(' ');
                }
                let cell = geometry.cell(x, y).expect("x and y are below the side");
                out.push(if self.contains(cell) { 'x' } else { '.' });
            }
            out.push('\n');
        }
        out
    }
}

/// Iterator over the cells of a bitboard, lowest index first.
#[derive(Clone, Debug)]
pub struct Cells<B> {
    rest: B,
}

impl<B: Bitboard> Iterator for Cells<B> {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        self.rest.pop_lowest()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> ExactSizeIterator for Cells<B> {}

/// Implements [`Bitboard`] for a primitive unsigned integer of the given board side.
macro_rules! primitive_bitboard {
    ($ty:ty, $side:expr, $k:expr) => {
        impl Bitboard for $ty {
            const GEOMETRY: Geometry = Geometry::new($side, $k);
            const EMPTY: Self = 0;
            const FULL: Self = {
                let g = Self::GEOMETRY;
                let mut full: $ty = 0;
                let mut y = 0;
                while y < g.side() {
                    let mut x = 0;
                    while x < g.side() {
                        full |= 1 << (y * g.stride() + x);
                        x += 1;
                    }
                    y += 1;
                }
                full
            };
            const STORAGE_BITS: u32 = <$ty>::BITS;
            type Lines = NoLines;

            #[inline]
            fn from_cell(cell: Cell) -> Self {
                1 << cell.index()
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn contains(self, cell: Cell) -> bool {
                (self >> cell.index()) & 1 != 0
            }
            #[inline]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline]
            fn lowest(self) -> Option<Cell> {
                if self == 0 { None } else { Some(Cell::from_index(self.trailing_zeros() as u8)) }
            }
            #[inline]
            fn pop_lowest(&mut self) -> Option<Cell> {
                let cell = self.lowest()?;
                *self &= *self - 1;
                Some(cell)
            }
            fn line_table() -> &'static LineTable<Self> {
                static TABLE: std::sync::LazyLock<LineTable<$ty>> =
                    std::sync::LazyLock::new(LineTable::generate);
                &TABLE
            }
        }
    };
}

primitive_bitboard!(u16, 3, 3);
primitive_bitboard!(u32, 5, 5);

const _: () = assert!(<u16 as Bitboard>::FULL == 0b0111_0111_0111);
const _: () = assert!(<u32 as Bitboard>::FULL.count_ones() == 25);
const _: () = assert!(<u32 as Bitboard>::FULL < 1 << 30);

#[cfg(test)]
mod tests {
    use super::*;

    fn every_cell<B: Bitboard>() -> Vec<Cell> {
        let g = B::GEOMETRY;
        (0..g.side()).flat_map(|y| (0..g.side()).map(move |x| g.cell(x, y).unwrap())).collect()
    }

    fn set_vocabulary_works<B: Bitboard>() {
        let cells = every_cell::<B>();
        assert_eq!(B::FULL.count() as usize, cells.len());
        assert_eq!(B::FULL.iter().collect::<Vec<_>>(), cells);
        assert_eq!(B::FULL.iter().len(), cells.len());
        assert!(B::EMPTY.is_empty());
        assert_eq!(B::EMPTY.complement(), B::FULL);
        for &c in &cells {
            let one = B::from_cell(c);
            assert_eq!(one.count(), 1);
            assert!(one.contains(c));
            assert_eq!(one.lowest(), Some(c));
            assert_eq!(B::FULL.without(one).count() as usize, cells.len() - 1);
            assert!(!B::FULL.without(one).contains(c));
            assert_eq!(B::EMPTY.with(c), one);
        }
    }

    fn direction_shifts_match_coordinates<B: Bitboard>() {
        let g = B::GEOMETRY;
        for c in every_cell::<B>() {
            let (x, y) = g.xy(c);
            for dir in Direction::ALL {
                let (dx, dy) = dir.delta();
                for steps in -(g.side() as i32 - 1)..(g.side() as i32) {
                    let got = B::from_cell(c).shift(dir, steps);
                    let (nx, ny) = (x as i32 + dx * steps, y as i32 + dy * steps);
                    let expected = g.cell_i32(nx, ny).map_or(B::EMPTY, B::from_cell);
                    assert_eq!(got, expected, "{dir:?} x{steps} from ({x},{y})");
                }
            }
        }
    }

    fn pictures_round_trip<B: Bitboard>() {
        let mut set = B::EMPTY;
        for (i, c) in B::FULL.iter().enumerate() {
            if i % 3 == 0 {
                set = set.with(c);
            }
        }
        assert_eq!(B::from_picture(&set.picture()), Some(set));
        assert_eq!(B::from_picture("x"), None);
    }

    #[test]
    fn small_boards_have_the_set_vocabulary() {
        set_vocabulary_works::<u16>();
        set_vocabulary_works::<u32>();
        set_vocabulary_works::<Bits256>();
    }

    #[test]
    fn shifts_move_cells_along_directions_without_wrapping() {
        direction_shifts_match_coordinates::<u16>();
        direction_shifts_match_coordinates::<u32>();
        direction_shifts_match_coordinates::<Bits256>();
    }

    #[test]
    fn pictures_parse_and_print() {
        pictures_round_trip::<u16>();
        pictures_round_trip::<u32>();
        pictures_round_trip::<Bits256>();
    }

    #[test]
    fn guard_layout_matches_the_documented_masks() {
        assert_eq!(<u16 as Bitboard>::FULL.picture(), "x x x\nx x x\nx x x\n");
        // Bit 3 of a 3×3 board is the guard of row 0, bit 4 is (0, 1).
        assert_eq!(<u16 as Bitboard>::FULL & (1 << 3), 0);
        assert_eq!(<u16 as Bitboard>::GEOMETRY.cell(0, 1).unwrap().index(), 4);
        assert_eq!(<u32 as Bitboard>::GEOMETRY.cell(4, 4).unwrap().index(), 28);
        assert_eq!(<Bits256 as Bitboard>::GEOMETRY.cell(14, 14).unwrap().index(), 238);
    }
}
