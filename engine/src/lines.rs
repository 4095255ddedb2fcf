//! Win-line masks: every window of `k` consecutive cells along a row, column or diagonal,
//! and for each cell the windows through it. Generated from the geometry, never typed in.
//!
//! | board | k | windows |
//! |-------|---|---------|
//! | 3×3   | 3 | 8       |
//! | 5×5   | 5 | 12      |
//! | 15×15 | 5 | 572     |
//!
//! These tables are the readable reference for "k in a row"; the rules module's fast
//! win test is checked against them.

use crate::bitboard::Bitboard;
use crate::geometry::{Cell, Direction};

/// One window of `k` consecutive cells.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Line<B> {
    /// The cells of the window as a set.
    pub mask: B,
    /// The first cell (lowest index) of the window.
    pub start: Cell,
    /// The direction the window runs in from `start`.
    pub direction: Direction,
}

/// All win windows of one board size, and the windows through each cell.
#[derive(Debug)]
pub struct LineTable<B> {
    lines: Vec<Line<B>>,
    /// `through_masks[through_start[i]..through_start[i + 1]]` are the masks of the windows
    /// through the cell with bit index `i` (empty for guard indices).
    through_masks: Vec<B>,
    through_start: Vec<u16>,
}

impl<B: Bitboard> LineTable<B> {
    /// Generates the table from `B::GEOMETRY`: the windows of each whole line of the board
    /// ([`crate::geometry::Geometry::whole_lines`]), by direction, then by first cell.
    pub fn generate() -> Self {
        let g = B::GEOMETRY;
        let mut lines: Vec<Line<B>> = g
            .whole_lines()
            .flat_map(|(direction, cells)| {
                cells
                    .windows(g.k())
                    .map(|window| Line {
                        mask: window.iter().fold(B::EMPTY, |mask, &cell| mask.with(cell)),
                        start: window[0],
                        direction,
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        lines.sort_by_key(|line| (line.direction as usize, line.start.index()));
        let slots = g.slots() as u16;
        let mut through_masks = Vec::new();
        let mut through_start = Vec::with_capacity(slots as usize + 1);
        for index in 0..slots {
            through_start.push(through_masks.len() as u16);
            let cell = Cell::from_index(index);
            if g.is_on_board(cell) {
                through_masks
                    .extend(lines.iter().filter(|l| l.mask.contains(cell)).map(|l| l.mask));
            }
        }
        through_start.push(through_masks.len() as u16);
        LineTable { lines, through_masks, through_start }
    }

    /// Every window.
    #[inline]
    pub fn lines(&self) -> &[Line<B>] {
        &self.lines
    }

    /// The masks of the windows through `cell`.
    #[inline(always)]
    pub fn through(&self, cell: Cell) -> &[B] {
        let i = cell.index();
        let (lo, hi) = (self.through_start[i] as usize, self.through_start[i + 1] as usize);
        &self.through_masks[lo..hi]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bits16, Bits32, Bits256};
    use crate::storage::Storage;
    use std::collections::BTreeSet;

    /// Naive scan: from every cell, walk k cells in each of the 8 compass directions and keep
    /// the windows that stay on the board, as sorted (x, y) lists, duplicates merged.
    fn naive_windows(side: i32, k: i32) -> BTreeSet<Vec<(i32, i32)>> {
        let mut set = BTreeSet::new();
        for y in 0..side {
            for x in 0..side {
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if (dx, dy) == (0, 0) {
                            continue;
                        }
                        let mut w: Vec<(i32, i32)> =
                            (0..k).map(|i| (x + dx * i, y + dy * i)).collect();
                        if w.iter().all(|&(a, b)| (0..side).contains(&a) && (0..side).contains(&b))
                        {
                            w.sort_unstable();
                            set.insert(w);
                        }
                    }
                }
            }
        }
        set
    }

    fn table_matches_naive_scan<B: Storage>(expected_count: usize) {
        let g = B::GEOMETRY;
        let table = B::line_table();
        assert_eq!(table.lines().len(), expected_count);
        let generated: BTreeSet<Vec<(i32, i32)>> = table
            .lines()
            .iter()
            .map(|l| {
                let mut w: Vec<(i32, i32)> = l
                    .mask
                    .iter()
                    .map(|c| {
                        let (x, y) = g.xy(c);
                        (x as i32, y as i32)
                    })
                    .collect();
                w.sort_unstable();
                w
            })
            .collect();
        assert_eq!(generated.len(), expected_count, "no duplicate windows");
        assert_eq!(generated, naive_windows(g.width() as i32, g.k() as i32));
        for cell in g.all_cells() {
            let naive: Vec<B> =
                table.lines().iter().filter(|l| l.mask.contains(cell)).map(|l| l.mask).collect();
            assert_eq!(table.through(cell), &naive[..]);
            assert!(!naive.is_empty());
        }
    }

    #[test]
    fn tic_tac_toe_has_8_lines() {
        table_matches_naive_scan::<Bits16>(8);
    }

    #[test]
    fn five_by_five_has_12_lines() {
        table_matches_naive_scan::<Bits32>(12);
    }

    #[test]
    fn gomoku_has_572_five_windows() {
        table_matches_naive_scan::<Bits256>(572);
        let by_dir = |d| {
            <Bits256 as Storage>::line_table().lines().iter().filter(|l| l.direction == d).count()
        };
        assert_eq!(by_dir(Direction::East), 165);
        assert_eq!(by_dir(Direction::South), 165);
        assert_eq!(by_dir(Direction::SouthEast), 121);
        assert_eq!(by_dir(Direction::SouthWest), 121);
        // A centre cell lies in 5 windows per direction.
        let centre = Bits256::GEOMETRY.cell(7, 7).unwrap();
        assert_eq!(Bits256::line_table().through(centre).len(), 20);
    }
}
