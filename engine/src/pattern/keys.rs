//! Incremental line keys: for every cell and direction, the two-bit codes of the five cells
//! on each side (see [`super::table`] for the layout), updated by make and unmake.
//!
//! Placing a stone on `p` changes, for each direction, the keys of the up to ten cells
//! that see `p` within five steps — forty two-bit updates, found in a precomputed neighbour
//! table. Off-board cells are walls, written once when the keys are created.
//!
//! The state is an associated type of the bitboard ([`crate::bitboard::Bitboard::Lines`]):
//! 15×15 boards keep [`LineKeys`]; the small boards, whose lines span the board and need no
//! patterns, keep [`NoLines`], which costs nothing.

use std::sync::LazyLock;

use super::Pattern;
use super::table::{CODE_BLACK, CODE_WALL, CODE_WHITE, HALF, PatternTable, slot};
use crate::bitboard::{Bitboard, Bits256};
use crate::board::Color;
use crate::geometry::{Cell, Direction};
use crate::rules::Rule;

/// Per-board incremental line state, maintained by [`crate::board::Board`].
pub trait LineState<B: Bitboard>: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The state of an empty board under `rule`.
    fn new(rule: Rule) -> Self;
    /// A stone of `color` was placed on `cell`.
    fn place(&mut self, cell: Cell, color: Color);
    /// The stone on `cell` was removed.
    fn remove(&mut self, cell: Cell);
    /// Whether the state equals the one recomputed from the stones (the checker).
    fn matches(&self, rule: Rule, black: B, white: B) -> bool;
    /// Black's renju-forbidden cells among the empty `candidates` (none on boards without
    /// line patterns).
    fn renju_forbidden(&self, black: B, white: B, candidates: B) -> B;
}

/// No line state (boards whose lines span the board).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct NoLines;

impl<B: Bitboard> LineState<B> for NoLines {
    #[inline(always)]
    fn new(_: Rule) -> Self {
        NoLines
    }
    #[inline(always)]
    fn place(&mut self, _: Cell, _: Color) {}
    #[inline(always)]
    fn remove(&mut self, _: Cell) {}
    fn matches(&self, _: Rule, _: B, _: B) -> bool {
        true
    }
    #[inline(always)]
    fn renju_forbidden(&self, _: B, _: B, _: B) -> B {
        B::EMPTY
    }
}

/// Cell slots of the 15×15 storage (bit indices 0..240).
const SLOTS: usize = 240;
/// "No neighbour" in the neighbour table.
const NONE: u8 = u8::MAX;

/// For each cell, direction and line index `i` (0..11, 5 = the cell): the cell at that
/// position of the line, or `NONE` off the board.
struct Neighbours {
    cells: Vec<[[u8; 2 * HALF + 1]; 4]>,
}

static NEIGHBOURS: LazyLock<Neighbours> = LazyLock::new(|| {
    let g = Bits256::GEOMETRY;
    let mut cells = vec![[[NONE; 2 * HALF + 1]; 4]; SLOTS];
    for cell in g.all_cells() {
        let (x, y) = g.xy(cell);
        for (d, dir) in Direction::ALL.into_iter().enumerate() {
            let (dx, dy) = dir.delta();
            for (i, slot) in cells[cell.index()][d].iter_mut().enumerate() {
                let k = i as i32 - HALF as i32;
                if let Some(c) = g.cell_i32(x as i32 + dx * k, y as i32 + dy * k) {
                    *slot = c.index() as u8;
                }
            }
        }
    }
    Neighbours { cells }
});

/// The line keys of a 15×15 board.
#[derive(Clone)]
pub struct LineKeys {
    /// `keys[cell][direction]`.
    keys: Box<[[u32; 4]; SLOTS]>,
    table: &'static PatternTable,
}

impl std::fmt::Debug for LineKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineKeys")
    }
}

impl LineKeys {
    /// The key of `cell` along direction number `dir` (index into [`Direction::ALL`]).
    #[inline(always)]
    pub fn key(&self, cell: Cell, dir: usize) -> u32 {
        self.keys[cell.index()][dir]
    }

    /// The pattern a stone of `color` on the empty `cell` makes along direction `dir`.
    #[inline(always)]
    pub fn pattern(&self, cell: Cell, dir: usize, color: Color) -> Pattern {
        self.table.get(self.keys[cell.index()][dir], color)
    }

    /// The four patterns (one per direction) of `color` on `cell`.
    #[inline(always)]
    pub fn patterns(&self, cell: Cell, color: Color) -> [Pattern; 4] {
        let k = &self.keys[cell.index()];
        [
            self.table.get(k[0], color),
            self.table.get(k[1], color),
            self.table.get(k[2], color),
            self.table.get(k[3], color),
        ]
    }

    /// The cells of the line through `cell` along `dir`, by line index (5 = `cell`).
    #[inline]
    pub fn line_cells(cell: Cell, dir: usize) -> [Option<Cell>; 2 * HALF + 1] {
        NEIGHBOURS.cells[cell.index()][dir].map(|c| (c != NONE).then(|| Cell::from_index(c)))
    }

    fn empty_keys() -> Box<[[u32; 4]; SLOTS]> {
        let mut keys = Box::new([[0u32; 4]; SLOTS]);
        let g = Bits256::GEOMETRY;
        for cell in g.all_cells() {
            for d in 0..4 {
                let line = &NEIGHBOURS.cells[cell.index()][d];
                for (i, &c) in line.iter().enumerate() {
                    if i != HALF && c == NONE {
                        keys[cell.index()][d] |= CODE_WALL << (2 * slot(i));
                    }
                }
            }
        }
        keys
    }

    #[inline(always)]
    fn update(&mut self, cell: Cell, code: Option<u32>) {
        let lines = &NEIGHBOURS.cells[cell.index()];
        for (d, line) in lines.iter().enumerate() {
            for (i, &seer) in line.iter().enumerate() {
                if i == HALF || seer == NONE {
                    continue;
                }
                // `cell` is at line index 10 − i of `seer`'s line in this direction.
                let shift = 2 * slot(2 * HALF - i);
                let key = &mut self.keys[seer as usize][d];
                match code {
                    Some(c) => *key |= c << shift,
                    None => *key &= !(3 << shift),
                }
            }
        }
    }
}

impl LineState<Bits256> for LineKeys {
    fn new(rule: Rule) -> Self {
        LineKeys { keys: LineKeys::empty_keys(), table: PatternTable::of(rule) }
    }

    #[inline]
    fn place(&mut self, cell: Cell, color: Color) {
        let code = match color {
            Color::Black => CODE_BLACK,
            Color::White => CODE_WHITE,
        };
        self.update(cell, Some(code));
    }

    #[inline]
    fn remove(&mut self, cell: Cell) {
        self.update(cell, None);
    }

    fn matches(&self, rule: Rule, black: Bits256, white: Bits256) -> bool {
        let mut fresh = LineKeys::new(rule);
        for c in black.iter() {
            fresh.place(c, Color::Black);
        }
        for c in white.iter() {
            fresh.place(c, Color::White);
        }
        fresh.keys == self.keys && std::ptr::eq(fresh.table, self.table)
    }

    fn renju_forbidden(&self, black: Bits256, white: Bits256, candidates: Bits256) -> Bits256 {
        crate::renju::forbidden_among(self, black, white, candidates)
    }
}
