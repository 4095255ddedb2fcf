//! Bitboards: one set-of-cells vocabulary, four storage types (classes of boards).
//!
//! | boards            | type        | largest board | bits used  | stride |
//! |-------------------|-------------|---------------|------------|--------|
//! | 3×3               | [`Bits16`]  | 3×3           | 12 of 16   | 4      |
//! | 5×5               | [`Bits32`]  | 5×5           | 30 of 32   | 6      |
//! | up to 15×15       | [`Bits256`] | 15×15         | 240 of 256 | 16     |
//! | up to 22×22       | [`Bits512`] | 22×22         | 506 of 512 | 23     |
//!
//! Every row is stored with at least one *guard column* on its right: cell (x, y) is bit
//! `y * stride + x`, the stride being the type's (one more than its largest board's width).
//! A smaller board of the same type ([`crate::geometry::Geometry::within`]) keeps the
//! stride, so the columns past its width act as more guard columns. **Invariant: guard
//! bits and the bits past the last row are always zero** in every bitboard that describes
//! cells (stones, masks, move sets): the operators keep it (`!a` is the complement within
//! the type's largest board, `a - b` the cells of `a` not in `b`); on a smaller board the
//! board's own cells ([`Bitboard::cells_of`], kept by the board) bound every set of moves.
//! Because of the guard column, shifting a set by one step in any of the four line
//! directions never wraps a stone onto the opposite edge — it lands on a guard bit instead —
//! so a k-in-a-row test is the same shift-and in all directions with no edge masks.
//! `docs/bitboards.md` draws the layouts.
//!
//! A bitboard type is the set vocabulary of one storage class of boards and knows only its
//! layout; what else the class brings (the pattern state its boards keep, its win-line table)
//! is in [`crate::storage`].

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::geometry::{Cell, Direction, Geometry};

mod limbs;

pub use limbs::{Bits256, Bits512};

/// A set of cells of one board size, stored in the guard-column layout.
///
/// Implemented by [`Bits16`] (3×3), [`Bits32`] (5×5), [`Bits256`] (boards up to 15×15) and
/// [`Bits512`] (up to 22×22).
///
/// ```
/// use mnk_engine::bitboard::{Bitboard, Bits32};
/// use mnk_engine::geometry::Direction;
///
/// let g = Bits32::GEOMETRY; // 5×5
/// let centre = Bits32::from_cell(g.cell(2, 2).unwrap());
/// let east = centre.shift(Direction::East, 1);
/// assert!(east.contains(g.cell(3, 2).unwrap()));
/// // Two steps east of the last column fall off the board instead of wrapping.
/// let edge = Bits32::from_cell(g.cell(4, 2).unwrap());
/// assert!(edge.shift(Direction::East, 1).is_empty());
/// // The operators stay on the board.
/// assert_eq!(!Bits32::EMPTY, Bits32::FULL);
/// assert_eq!((Bits32::FULL - centre).count(), 24);
/// ```
pub trait Bitboard:
    Copy
    + Eq
    + Hash
    + Default
    + fmt::Debug
    + fmt::Display
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Sub<Output = Self>
    + Not<Output = Self>
{
    /// The largest board of this storage type: its width, height, win length and the
    /// type's stride.
    const GEOMETRY: Geometry;
    /// The empty set.
    const EMPTY: Self;
    /// Every cell of the largest board (guard bits clear).
    const FULL: Self;
    /// Number of storage bits (16, 32, 256 or 512).
    const STORAGE_BITS: u32;

    /// The set holding only `cell`. `cell` must be a valid index for this size.
    fn from_cell(cell: Cell) -> Self;
    /// Number of cells in the set.
    fn count(self) -> u32;
    /// Whether the set holds no cell.
    fn is_empty(self) -> bool;
    /// Whether `cell` is in the set.
    fn contains(self, cell: Cell) -> bool;
    /// Adds `index` to the set if it is not in it, else removes it (`index` below
    /// `STORAGE_BITS`).
    #[inline(always)]
    fn toggle(&mut self, index: usize) {
        *self ^= Self::from_cell(Cell::from_index(index as u16));
    }
    /// Raw left shift of the storage by `n` bits (`n < STORAGE_BITS`); may set guard bits.
    fn shl(self, n: u32) -> Self;
    /// Raw right shift of the storage by `n` bits (`n < STORAGE_BITS`); may set guard bits.
    fn shr(self, n: u32) -> Self;
    /// The cell with the lowest index, if any.
    fn lowest(self) -> Option<Cell>;
    /// Removes and returns the cell with the lowest index.
    fn pop_lowest(&mut self) -> Option<Cell>;

    /// `self` with `cell` added.
    #[inline]
    #[must_use]
    fn with(self, cell: Cell) -> Self {
        self | Self::from_cell(cell)
    }

    /// Every cell moved `steps` steps along `dir` (negative: backwards); cells leaving the
    /// board are dropped. Each step is masked on its own, because a longer jump could carry a
    /// stone across the guard column onto the next row.
    #[inline]
    #[must_use]
    fn shift(self, dir: Direction, steps: i32) -> Self {
        let offset = dir.bit_offset(Self::GEOMETRY.stride());
        let mut set = self;
        for _ in 0..steps.unsigned_abs() {
            set = if steps >= 0 { set.shl(offset) } else { set.shr(offset) } & Self::FULL;
        }
        set
    }

    /// The cells of a board of geometry `g` stored in this type (`g` within
    /// [`Bitboard::GEOMETRY`], the type's largest board, with its stride).
    fn cells_of(g: Geometry) -> Self {
        debug_assert!(g.stride() == Self::GEOMETRY.stride());
        g.all_cells().fold(Self::EMPTY, Self::with)
    }

    /// Iterates over the cells in increasing index order.
    #[inline]
    fn iter(self) -> Cells<Self> {
        Cells { rest: self }
    }

    /// Builds a set from a picture: one text row per board row, `x` or `X` for a member,
    /// `.` for a non-member; spaces are ignored. Returns `None` on a malformed picture (the
    /// inverse of `Display`; for a picture written in the source, see the types' `literal`).
    ///
    /// ```
    /// use mnk_engine::bitboard::{Bitboard, Bits16};
    /// let diagonal = Bits16::from_picture("x . .\n. x .\n. . x").unwrap();
    /// assert_eq!(diagonal.count(), 3);
    /// assert_eq!(diagonal.to_string(), "x . .\n. x .\n. . x\n");
    /// ```
    fn from_picture(picture: &str) -> Option<Self> {
        let geometry = Self::GEOMETRY;
        let rows: Vec<&str> = picture.lines().filter(|l| !l.trim().is_empty()).collect();
        if rows.len() != geometry.height() {
            return None;
        }
        let mut set = Self::EMPTY;
        for (y, row) in rows.iter().enumerate() {
            let marks: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if marks.len() != geometry.width() {
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

/// Writes `set` as a picture, one text row per board row (`x` a member, `.` not).
fn write_picture<B: Bitboard>(set: B, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let geometry = B::GEOMETRY;
    for y in 0..geometry.height() {
        for x in 0..geometry.width() {
            if x > 0 {
                f.write_str(" ")?;
            }
            let cell = geometry.cell(x, y).expect("x and y are below the side");
            f.write_str(if set.contains(cell) { "x" } else { "." })?;
        }
        writeln!(f)?;
    }
    Ok(())
}

/// The bits of a picture written in the source (see the types' `literal`), as limbs of 64
/// bits: evaluated at compile time, where a malformed picture fails the build.
const fn picture_limbs<const L: usize>(picture: &str, geometry: Geometry) -> [u64; L] {
    let bytes = picture.as_bytes();
    let mut limbs = [0u64; L];
    let (mut x, mut y, mut i) = (0, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' => {}
            b'\n' | b'/' => {
                if x != 0 {
                    assert!(x == geometry.width(), "a picture row has the wrong length");
                    x = 0;
                    y += 1;
                }
            }
            mark => {
                assert!(mark == b'x' || mark == b'X' || mark == b'.', "a picture holds x and .");
                assert!(x < geometry.width() && y < geometry.height(), "the picture is too large");
                if mark != b'.' {
                    let bit = y * geometry.stride() + x;
                    limbs[bit / 64] |= 1 << (bit % 64);
                }
                x += 1;
            }
        }
        i += 1;
    }
    assert!(x == 0 || x == geometry.width(), "a picture row has the wrong length");
    let rows = if x == 0 { y } else { y + 1 };
    assert!(rows == geometry.height(), "a picture has one row per board row");
    limbs
}

/// Defines a bitboard of one machine word, `$name($raw)`, for a board of side `$side` and
/// win length `$k`.
macro_rules! word_bitboard {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $side:expr, $k:expr) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $raw);

        impl $name {
            /// The set drawn by `picture`, rows separated by line breaks or `/` (`x` a member,
            /// `.` not), built at compile time in a `const`.
            pub const fn literal(picture: &str) -> $name {
                $name(picture_limbs::<1>(picture, <$name as Bitboard>::GEOMETRY)[0] as $raw)
            }
        }

        impl Bitboard for $name {
            const GEOMETRY: Geometry = Geometry::new($side, $k);
            const EMPTY: Self = $name(0);
            const FULL: Self = {
                let g = Self::GEOMETRY;
                let mut full: $raw = 0;
                let mut y = 0;
                while y < g.height() {
                    let mut x = 0;
                    while x < g.width() {
                        full |= 1 << (y * g.stride() + x);
                        x += 1;
                    }
                    y += 1;
                }
                $name(full)
            };
            const STORAGE_BITS: u32 = <$raw>::BITS;

            #[inline]
            fn from_cell(cell: Cell) -> Self {
                $name(1 << cell.index())
            }
            #[inline]
            fn count(self) -> u32 {
                self.0.count_ones()
            }
            #[inline]
            fn is_empty(self) -> bool {
                self.0 == 0
            }
            #[inline]
            fn contains(self, cell: Cell) -> bool {
                (self.0 >> cell.index()) & 1 != 0
            }
            #[inline]
            fn shl(self, n: u32) -> Self {
                $name(self.0 << n)
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                $name(self.0 >> n)
            }
            #[inline]
            fn lowest(self) -> Option<Cell> {
                if self.0 == 0 {
                    None
                } else {
                    Some(Cell::from_index(self.0.trailing_zeros() as u16))
                }
            }
            #[inline]
            fn pop_lowest(&mut self) -> Option<Cell> {
                let cell = self.lowest()?;
                self.0 &= self.0 - 1;
                Some(cell)
            }
        }

        word_bitboard!(@op $name, BitAnd, bitand, &, BitAndAssign, bitand_assign);
        word_bitboard!(@op $name, BitOr, bitor, |, BitOrAssign, bitor_assign);
        word_bitboard!(@op $name, BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

        impl Sub for $name {
            type Output = $name;
            /// The cells of `self` not in `rhs`.
            #[inline]
            fn sub(self, rhs: $name) -> $name {
                $name(self.0 & !rhs.0)
            }
        }

        impl Not for $name {
            type Output = $name;
            /// The cells of the board not in the set.
            #[inline]
            fn not(self) -> $name {
                $name(<$name as Bitboard>::FULL.0 ^ self.0)
            }
        }

        impl fmt::Display for $name {
            /// The set as a picture (see [`Bitboard::from_picture`]).
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_picture(*self, f)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:#x})", stringify!($name), self.0)
            }
        }
    };
    (@op $name:ident, $trait:ident, $method:ident, $op:tt, $assign_trait:ident, $assign_method:ident) => {
        impl $trait for $name {
            type Output = $name;
            #[inline(always)]
            fn $method(self, rhs: $name) -> $name {
                $name(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for $name {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: $name) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

word_bitboard!(
    /// The 3×3 bitboard (tic-tac-toe): 12 bits of a `u16`, stride 4.
    Bits16, u16, 3, 3
);
word_bitboard!(
    /// The 5×5 bitboard (five in a row): 30 bits of a `u32`, stride 6.
    Bits32, u32, 5, 5
);

const _: () = assert!(Bits16::FULL.0 == 0b0111_0111_0111);
const _: () = assert!(Bits32::FULL.0.count_ones() == 25);
const _: () = assert!(Bits32::FULL.0 < 1 << 30);
const _: () = assert!(Bits16::literal("x x x / x x x / x x x").0 == Bits16::FULL.0);

#[cfg(test)]
mod tests {
    use super::*;

    fn every_cell<B: Bitboard>() -> Vec<Cell> {
        let g = B::GEOMETRY;
        g.all_cells().collect()
    }

    fn set_vocabulary_works<B: Bitboard>() {
        let cells = every_cell::<B>();
        assert_eq!(B::FULL.count() as usize, cells.len());
        assert_eq!(B::FULL.iter().collect::<Vec<_>>(), cells);
        assert_eq!(B::FULL.iter().len(), cells.len());
        assert!(B::EMPTY.is_empty());
        assert_eq!(!B::EMPTY, B::FULL);
        assert_eq!(!B::FULL, B::EMPTY);
        for &c in &cells {
            let one = B::from_cell(c);
            assert_eq!(one.count(), 1);
            assert!(one.contains(c));
            assert_eq!(one.lowest(), Some(c));
            assert_eq!((B::FULL - one).count() as usize, cells.len() - 1);
            assert!(!(B::FULL - one).contains(c));
            assert_eq!(!one, B::FULL - one);
            assert_eq!(B::EMPTY.with(c), one);
        }
    }

    fn direction_shifts_match_coordinates<B: Bitboard>() {
        let g = B::GEOMETRY;
        for c in every_cell::<B>() {
            let (x, y) = g.xy(c);
            for dir in Direction::ALL {
                let (dx, dy) = dir.delta();
                for steps in -(g.width() as i32 - 1)..(g.width() as i32) {
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
        assert_eq!(B::from_picture(&set.to_string()), Some(set));
        assert_eq!(B::from_picture("x"), None);
    }

    #[test]
    fn every_size_has_the_set_vocabulary() {
        set_vocabulary_works::<Bits16>();
        set_vocabulary_works::<Bits32>();
        set_vocabulary_works::<Bits256>();
        set_vocabulary_works::<Bits512>();
    }

    #[test]
    fn shifts_move_cells_along_directions_without_wrapping() {
        direction_shifts_match_coordinates::<Bits16>();
        direction_shifts_match_coordinates::<Bits32>();
        direction_shifts_match_coordinates::<Bits256>();
        direction_shifts_match_coordinates::<Bits512>();
    }

    #[test]
    fn pictures_parse_and_print() {
        pictures_round_trip::<Bits16>();
        pictures_round_trip::<Bits32>();
        pictures_round_trip::<Bits256>();
        pictures_round_trip::<Bits512>();
    }

    #[test]
    fn literals_are_the_pictures_they_draw() {
        const CORNERS: Bits16 = Bits16::literal("x . x / . . . / x . x");
        assert_eq!(Bits16::from_picture("x . x\n. . .\nx . x"), Some(CORNERS));
        const CROSS: Bits32 = Bits32::literal(
            "
            . . x . .
            . . x . .
            x x x x x
            . . x . .
            . . x . .
            ",
        );
        assert_eq!(CROSS.count(), 9);
        assert_eq!(CROSS.to_string(), ". . x . .\n. . x . .\nx x x x x\n. . x . .\n. . x . .\n");
    }

    #[test]
    fn guard_layout_matches_the_documented_masks() {
        assert_eq!(Bits16::FULL.to_string(), "x x x\nx x x\nx x x\n");
        // Bit 3 of a 3×3 board is the guard of row 0, bit 4 is (0, 1).
        assert_eq!(Bits16::FULL.0 & (1 << 3), 0);
        assert_eq!(Bits16::GEOMETRY.cell(0, 1).unwrap().index(), 4);
        assert_eq!(Bits32::GEOMETRY.cell(4, 4).unwrap().index(), 28);
        assert_eq!(Bits256::GEOMETRY.cell(14, 14).unwrap().index(), 238);
        // A set with a guard bit set (which no board holds) loses it under `-`.
        let guard = Bits16(1 << 3);
        assert_eq!((Bits16::FULL | guard) - Bits16::FULL, guard);
    }
}
