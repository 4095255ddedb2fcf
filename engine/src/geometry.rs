//! Board geometry: sizes, cells and coordinates, line directions, the 8 symmetries.
//!
//! Coordinates follow the Gomocup protocol: `x` is the column and `y` the row, both 0-based,
//! origin top-left. A [`Cell`] is the bit index of a square in the guard-column layout,
//! `y * stride + x` (see [`crate::bitboard`]). Only a [`Geometry`] turns coordinates into
//! cells, so a `Cell` built through it is always on its board.

use std::fmt;

/// One square of a board: its bit index in the guard-column layout.
///
/// The index is meaningful only together with the board size it was made for.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(u16);

impl Cell {
    /// The cell with bit index `index`. No check: prefer [`Geometry::cell`].
    #[inline(always)]
    pub const fn from_index(index: u16) -> Cell {
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

/// Size facts of one board: width and height, win length `k`, row stride.
///
/// The stride is the storage class's (see [`crate::bitboard`]): every board of one
/// bitboard type shares it, so shifts by a line step are the same constant on all of them;
/// the cells of a row past the board's width, like the guard column, never hold a stone.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
    k: u8,
    stride: u8,
}

impl Geometry {
    /// A square board of `side` cells per row where `k` in a row wins, with one guard
    /// column (stride `side + 1`).
    pub const fn new(side: usize, k: usize) -> Geometry {
        Geometry::rect(side, side, k, side + 1)
    }

    /// A `width` × `height` board where `k` in a row wins, stored with rows `stride` bits
    /// apart (`stride > width`: at least one guard column).
    pub const fn rect(width: usize, height: usize, k: usize, stride: usize) -> Geometry {
        assert!(width >= 1 && height >= 1 && k >= 1 && k <= width && k <= height);
        assert!(stride > width && stride * height <= 1024);
        Geometry { width: width as u8, height: height as u8, k: k as u8, stride: stride as u8 }
    }

    /// This board's size stored in `layout`'s class: its stride, and a board that fits in
    /// `layout` (the class's largest board).
    pub const fn within(self, layout: Geometry) -> Option<Geometry> {
        if self.width <= layout.width && self.height <= layout.height {
            Some(Geometry { stride: layout.stride, ..self })
        } else {
            None
        }
    }

    /// Cells per row.
    #[inline(always)]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Rows.
    #[inline(always)]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Whether the board is square (all 8 symmetries map it onto itself, not only 4).
    #[inline(always)]
    pub const fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Stones in a row that win (`k`).
    #[inline(always)]
    pub const fn k(self) -> usize {
        self.k as usize
    }

    /// Bit distance between vertically adjacent cells (at least `width + 1`: one guard
    /// column).
    #[inline(always)]
    pub const fn stride(self) -> usize {
        self.stride as usize
    }

    /// Storage bits the rows take: `stride · height`.
    #[inline(always)]
    pub const fn slots(self) -> usize {
        self.stride() * self.height()
    }

    /// Whether every line of the board is exactly `k` long (3×3 and 5×5): then no overline
    /// exists and every win line is one of the few full rows, columns or diagonals, which
    /// small-board code (win test, live lines, pairing strategies) relies on.
    #[inline(always)]
    pub const fn lines_span_board(self) -> bool {
        self.width == self.k && self.height == self.k
    }

    /// Number of cells on the board.
    #[inline(always)]
    pub const fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// The cell at column `x`, row `y`, or `None` off the board.
    #[inline]
    pub const fn cell(self, x: usize, y: usize) -> Option<Cell> {
        if x < self.width() && y < self.height() {
            Some(Cell((y * self.stride() + x) as u16))
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
        x < self.width() && y < self.height()
    }

    /// All on-board cells in increasing index order (row by row).
    pub fn all_cells(self) -> impl Iterator<Item = Cell> {
        (0..self.height()).flat_map(move |y| {
            (0..self.width()).map(move |x| self.cell(x, y).expect("coordinates are on the board"))
        })
    }

    /// Every whole line of the board — each row, column and diagonal, in each of the four
    /// directions — with its direction and its cells from the first (where a step back
    /// leaves the board) on; lines of every length, one cell long included. Lines come by
    /// direction, then by their first cell.
    pub fn whole_lines(self) -> impl Iterator<Item = (Direction, Vec<Cell>)> {
        Direction::ALL.into_iter().flat_map(move |dir| {
            let (dx, dy) = dir.delta();
            self.all_cells().filter_map(move |start| {
                let (x, y) = self.xy(start);
                let (x, y) = (x as i32, y as i32);
                let first = self.cell_i32(x - dx, y - dy).is_none();
                first.then(|| {
                    (dir, (0..).map_while(|i| self.cell_i32(x + i * dx, y + i * dy)).collect())
                })
            })
        })
    }

    /// The image of `cell` under `symmetry`, one of the board's [`Geometry::symmetries`].
    #[inline]
    pub const fn transform(self, symmetry: Symmetry, cell: Cell) -> Cell {
        let (x, y) = self.xy(cell);
        let (tx, ty) = symmetry.apply(x, y, self.width(), self.height());
        Cell((ty * self.stride() + tx) as u16)
    }

    /// The symmetries that map the board onto itself: all 8 of a square, the 4 that keep
    /// rows rows ([`Symmetry::RECTANGLE`]) otherwise.
    pub const fn symmetries(self) -> &'static [Symmetry] {
        if self.is_square() { &Symmetry::ALL } else { &Symmetry::RECTANGLE }
    }

    /// The cell written as the protocol writes it: `x,y` (see [`crate::notation::Point`]).
    pub fn format_xy(self, cell: Cell) -> String {
        crate::notation::Point::from(self.xy(cell)).to_string()
    }

    /// The cell in "pos" notation: column letter (`a` = 0) then row number (`y + 1`).
    pub fn format_pos(self, cell: Cell) -> String {
        crate::notation::format_pos(self.xy(cell).into())
    }

    /// The cell written `text` in "pos" notation (the inverse of [`Geometry::format_pos`], for
    /// tests: panics unless `text` is one cell on the board).
    #[cfg(test)]
    pub(crate) fn parse_pos(self, text: &str) -> Cell {
        match crate::notation::parse_moves(text).as_deref() {
            Ok(&[point]) => self.cell(point.x, point.y).expect("a cell on the board"),
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

    /// The symmetries of a board that is not square: those that keep rows rows.
    pub const RECTANGLE: [Symmetry; 4] =
        [Symmetry::Identity, Symmetry::Rotate180, Symmetry::FlipHorizontal, Symmetry::FlipVertical];

    /// Applies the symmetry to (x, y) on a board `width` × `height` (square for the
    /// symmetries that swap rows and columns).
    #[inline]
    pub const fn apply(self, x: usize, y: usize, width: usize, height: usize) -> (usize, usize) {
        let (rx, ry) = (width - 1 - x, height - 1 - y);
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
            assert_eq!(g.cell(g.width(), 0), None);
            assert_eq!(g.cell(0, g.height()), None);
            assert_eq!(g.cell_i32(-1, 0), None);
            // The guard bit of row 0 is not a cell.
            assert!(!g.is_on_board(Cell::from_index(g.width() as u16)));
        }
    }

    #[test]
    fn a_smaller_board_keeps_its_types_stride() {
        let layout = Geometry::new(15, 5);
        let g = Geometry::rect(11, 7, 5, 12).within(layout).unwrap();
        assert_eq!((g.width(), g.height(), g.stride(), g.cells(), g.slots()), (11, 7, 16, 77, 112));
        assert_eq!(g.cell(10, 6).map(Cell::index), Some(6 * 16 + 10));
        assert_eq!(g.cell(11, 0), None);
        assert_eq!(g.cell(0, 7), None);
        assert!(!g.is_on_board(Cell::from_index(11)), "past the width: a guard column");
        assert_eq!(g.all_cells().count(), 77);
        assert!(Geometry::new(16, 5).within(layout).is_none());
        assert!(!g.is_square() && !g.lines_span_board());
        // A rectangle maps onto itself under the four symmetries that keep rows rows.
        for &s in g.symmetries() {
            for cell in g.all_cells() {
                assert!(g.is_on_board(g.transform(s, cell)), "{s}");
                assert_eq!(g.transform(s.inverse(), g.transform(s, cell)), cell);
            }
        }
        assert_eq!(g.symmetries().len(), 4);
        assert_eq!(layout.symmetries().len(), 8);
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
            .map(|s| points.iter().map(|&(x, y)| s.apply(x, y, n, n)).collect())
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
                let (tx, ty) = s.apply(x, y, n, n);
                assert_eq!(s.inverse().apply(tx, ty, n, n), (x, y), "{s} inverse");
            }
        }
        // Four quarter turns are the identity.
        let (mut x, mut y) = (1, 0);
        for _ in 0..4 {
            (x, y) = Symmetry::Rotate90.apply(x, y, n, n);
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

    /// Each direction's whole lines cover every cell once, in order along the direction:
    /// a rectangle has `height` rows, `width` columns and `width + height − 1` diagonals of
    /// each kind.
    #[test]
    fn whole_lines_cover_each_cell_once_per_direction() {
        let g = Geometry::rect(7, 4, 3, 8);
        for dir in Direction::ALL {
            let lines: Vec<Vec<Cell>> =
                g.whole_lines().filter(|(d, _)| *d == dir).map(|(_, cells)| cells).collect();
            let expected = match dir {
                Direction::East => 4,
                Direction::South => 7,
                _ => 7 + 4 - 1,
            };
            assert_eq!(lines.len(), expected, "{dir:?}");
            let mut seen: Vec<Cell> = lines.iter().flatten().copied().collect();
            seen.sort();
            assert_eq!(seen, g.all_cells().collect::<Vec<_>>(), "{dir:?}");
            let (dx, dy) = dir.delta();
            for line in &lines {
                for pair in line.windows(2) {
                    let ((x0, y0), (x1, y1)) = (g.xy(pair[0]), g.xy(pair[1]));
                    assert_eq!((x1 as i32 - x0 as i32, y1 as i32 - y0 as i32), (dx, dy));
                }
            }
        }
    }
}
