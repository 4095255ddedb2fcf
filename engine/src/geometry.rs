//! Board geometry: sizes, cells and coordinates, line directions, the 8 symmetries.
//!
//! Coordinates follow the Gomocup protocol: `x` is the column and `y` the row, both 0-based,
//! origin top-left. A [`Cell`] is the bit index of a square in the guard-column layout,
//! `y * (side + 1) + x` (see [`crate::bitboard`]). Only a [`Geometry`] turns coordinates into
//! cells, so a `Cell` built through it is always on its board.

use std::fmt;

/// One square of a board: its bit index in the guard-column layout.
///
/// The index is meaningful only together with the board size it was made for.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u8);

impl Cell {
    /// The cell with bit index `index`. No check: prefer [`Geometry::cell`].
    #[inline(always)]
    pub const fn from_index(index: u8) -> Cell {
        Cell(index)
    }

    /// The bit index of the cell.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The four line directions. `delta` is the (dx, dy) of one step; each line direction also
/// covers its opposite (a negative number of steps).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Direction {
    /// Along a row: (+1, 0).
    East,
    /// Along a column: (0, +1).
    South,
    /// The main diagonal: (+1, +1).
    SouthEast,
    /// The anti-diagonal: (−1, +1).
    SouthWest,
}

impl Direction {
    /// All four line directions.
    pub const ALL: [Direction; 4] =
        [Direction::East, Direction::South, Direction::SouthEast, Direction::SouthWest];

    /// The (dx, dy) of one step.
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::South => (0, 1),
            Direction::SouthEast => (1, 1),
            Direction::SouthWest => (-1, 1),
        }
    }

    /// How many bit positions one step moves a cell, for a row stride of `stride`.
    #[inline]
    pub const fn bit_offset(self, stride: usize) -> u32 {
        match self {
            Direction::East => 1,
            Direction::South => stride as u32,
            Direction::SouthEast => stride as u32 + 1,
            Direction::SouthWest => stride as u32 - 1,
        }
    }
}

/// Size facts of one board: side length, win length `k`, row stride.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Geometry {
    side: usize,
    k: usize,
}

impl Geometry {
    /// A square board of `side` cells per row where `k` in a row wins.
    pub const fn new(side: usize, k: usize) -> Geometry {
        assert!(side >= 1 && k >= 1 && k <= side);
        Geometry { side, k }
    }

    /// Cells per row and per column.
    #[inline(always)]
    pub const fn side(self) -> usize {
        self.side
    }

    /// Stones in a row that win (`k`).
    #[inline(always)]
    pub const fn k(self) -> usize {
        self.k
    }

    /// Bit distance between vertically adjacent cells (`side + 1`, one guard column).
    #[inline(always)]
    pub const fn stride(self) -> usize {
        self.side + 1
    }

    /// Whether every line of the board is exactly `k` long (3×3 and 5×5): then no overline
    /// exists and every win line is one of the few full rows, columns or diagonals, which
    /// small-board code (win test, live lines, pairing strategies) relies on.
    #[inline(always)]
    pub const fn lines_span_board(self) -> bool {
        self.side == self.k
    }

    /// Number of cells on the board.
    #[inline(always)]
    pub const fn cells(self) -> usize {
        self.side * self.side
    }

    /// The cell at column `x`, row `y`, or `None` off the board.
    #[inline]
    pub const fn cell(self, x: usize, y: usize) -> Option<Cell> {
        if x < self.side && y < self.side {
            Some(Cell((y * self.stride() + x) as u8))
        } else {
            None
        }
    }

    /// [`Geometry::cell`] for signed coordinates (handy when stepping along lines).
    #[inline]
    pub const fn cell_i32(self, x: i32, y: i32) -> Option<Cell> {
        if x < 0 || y < 0 { None } else { self.cell(x as usize, y as usize) }
    }

    /// The (x, y) of a cell of this board.
    #[inline]
    pub const fn xy(self, cell: Cell) -> (usize, usize) {
        (cell.index() % self.stride(), cell.index() / self.stride())
    }

    /// Whether `cell` is an on-board index for this geometry (not a guard bit, not past the
    /// last row).
    #[inline]
    pub const fn is_on_board(self, cell: Cell) -> bool {
        let (x, y) = self.xy(cell);
        x < self.side && y < self.side
    }

    /// All on-board cells in increasing index order (row by row).
    pub fn all_cells(self) -> impl Iterator<Item = Cell> {
        (0..self.side).flat_map(move |y| {
            (0..self.side).map(move |x| self.cell(x, y).expect("coordinates are on the board"))
        })
    }

    /// The image of `cell` under `symmetry`.
    #[inline]
    pub const fn transform(self, symmetry: Symmetry, cell: Cell) -> Cell {
        let (x, y) = self.xy(cell);
        let (tx, ty) = symmetry.apply(x, y, self.side);
        Cell((ty * self.stride() + tx) as u8)
    }

    /// The cell written as the protocol writes it: `x,y`.
    pub fn format_xy(self, cell: Cell) -> String {
        let (x, y) = self.xy(cell);
        format!("{x},{y}")
    }

    /// The cell in "pos" notation: column letter (`a` = 0) then row number (`y + 1`).
    pub fn format_pos(self, cell: Cell) -> String {
        crate::notation::format_pos(self.xy(cell))
    }

    /// The cell written `text` in "pos" notation (the inverse of [`Geometry::format_pos`], for
    /// tests: panics unless `text` is one cell on the board).
    #[cfg(test)]
    pub(crate) fn parse_pos(self, text: &str) -> Cell {
        match crate::notation::parse_moves(text).as_deref() {
            Ok(&[(x, y)]) => self.cell(x, y).expect("a cell on the board"),
            other => panic!("not one cell: {text:?} ({other:?})"),
        }
    }
}

/// The 8 symmetries of a square board (the dihedral group D4).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Symmetry {
    /// (x, y) → (x, y).
    Identity,
    /// Quarter turn clockwise: (x, y) → (n−1−y, x).
    Rotate90,
    /// Half turn: (x, y) → (n−1−x, n−1−y).
    Rotate180,
    /// Quarter turn anticlockwise: (x, y) → (y, n−1−x).
    Rotate270,
    /// Mirror left–right: (x, y) → (n−1−x, y).
    FlipHorizontal,
    /// Mirror top–bottom: (x, y) → (x, n−1−y).
    FlipVertical,
    /// Mirror in the main diagonal: (x, y) → (y, x).
    Transpose,
    /// Mirror in the anti-diagonal: (x, y) → (n−1−y, n−1−x).
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Applies the symmetry to (x, y) on a board of side `n`.
    #[inline]
    pub const fn apply(self, x: usize, y: usize, n: usize) -> (usize, usize) {
        let (rx, ry) = (n - 1 - x, n - 1 - y);
        match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (ry, x),
            Symmetry::Rotate180 => (rx, ry),
            Symmetry::Rotate270 => (y, rx),
            Symmetry::FlipHorizontal => (rx, y),
            Symmetry::FlipVertical => (x, ry),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (ry, rx),
        }
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip_on_every_size() {
        for g in [Geometry::new(3, 3), Geometry::new(5, 5), Geometry::new(15, 5)] {
            let cells: Vec<Cell> = g.all_cells().collect();
            assert_eq!(cells.len(), g.cells());
            for c in cells {
                let (x, y) = g.xy(c);
                assert_eq!(g.cell(x, y), Some(c));
                assert!(g.is_on_board(c));
            }
            assert_eq!(g.cell(g.side(), 0), None);
            assert_eq!(g.cell(0, g.side()), None);
            assert_eq!(g.cell_i32(-1, 0), None);
            // The guard bit of row 0 is not a cell.
            assert!(!g.is_on_board(Cell::from_index(g.side() as u8)));
        }
    }

    #[test]
    fn pos_notation_names_columns_by_letter_and_rows_from_one() {
        let g = Geometry::new(15, 5);
        let h8 = g.cell(7, 7).unwrap();
        assert_eq!(g.format_pos(h8), "h8");
        assert_eq!(g.format_xy(h8), "7,7");
    }

    #[test]
    fn symmetries_form_the_dihedral_group() {
        let n = 5;
        let points: Vec<(usize, usize)> =
            (0..n).flat_map(|y| (0..n).map(move |x| (x, y))).collect();
        let images: Vec<Vec<(usize, usize)>> = Symmetry::ALL
            .iter()
            .map(|s| points.iter().map(|&(x, y)| s.apply(x, y, n)).collect())
            .collect();
        // All 8 are distinct permutations of the board.
        for (i, a) in images.iter().enumerate() {
            let mut sorted = a.clone();
            sorted.sort_unstable();
            let mut all = points.clone();
            all.sort_unstable();
            assert_eq!(sorted, all, "{:?} is a permutation", Symmetry::ALL[i]);
            for b in &images[i + 1..] {
                assert_ne!(a, b);
            }
        }
        for s in Symmetry::ALL {
            for &(x, y) in &points {
                let (tx, ty) = s.apply(x, y, n);
                assert_eq!(s.inverse().apply(tx, ty, n), (x, y), "{s} inverse");
            }
        }
        // Four quarter turns are the identity.
        let (mut x, mut y) = (1, 0);
        for _ in 0..4 {
            (x, y) = Symmetry::Rotate90.apply(x, y, n);
        }
        assert_eq!((x, y), (1, 0));
    }

    #[test]
    fn symmetries_map_lines_to_lines() {
        // A row maps to a row, column or diagonal: still k collinear, contiguous cells.
        let g = Geometry::new(5, 5);
        for s in Symmetry::ALL {
            let row: Vec<(usize, usize)> =
                (0..5).map(|x| g.xy(g.transform(s, g.cell(x, 1).unwrap()))).collect();
            let (dx, dy) = (row[1].0 as i32 - row[0].0 as i32, row[1].1 as i32 - row[0].1 as i32);
            for w in row.windows(2) {
                assert_eq!(
                    (w[1].0 as i32 - w[0].0 as i32, w[1].1 as i32 - w[0].1 as i32),
                    (dx, dy)
                );
            }
        }
    }
}
