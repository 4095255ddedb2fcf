//! Renju forbidden points (black only, 15×15).
//!
//! A black move is forbidden when it does not make five and makes, counting over the four
//! lines through it:
//!
//! * an **overline** (six or more) in any line;
//! * a **double four**: two or more fours (a one-line double four such as `x.xXx.x` counts
//!   as two);
//! * a **double three**: two or more *real* open threes. A three is real only if it can
//!   become a straight four by a move that is itself not forbidden — a recursive
//!   definition, followed here to [`MAX_RECURSION`] levels.
//!
//! Five takes precedence: a move making exactly five is never forbidden. The line patterns
//! come from the board's incremental [`LineKeys`]; the recursion places stones on a scratch
//! copy of them.

use crate::bitboard::{Bitboard, Bits256};
use crate::board::Color;
use crate::geometry::Cell;
use crate::pattern::Pattern;
use crate::pattern::keys::LineKeys;
use crate::pattern::keys::LineState;
use crate::pattern::table::HALF;

/// How deep the "is the completing move itself forbidden?" recursion goes.
pub const MAX_RECURSION: u32 = 6;

/// Whether the four patterns of a black move could make it forbidden (cheap filter).
#[inline]
fn maybe_forbidden(patterns: &[Pattern; 4]) -> bool {
    if patterns.contains(&Pattern::Five) {
        return false;
    }
    let strong = patterns.iter().filter(|&&p| p >= Pattern::F3).count();
    let fours: u32 = patterns.iter().map(|p| p.four_count()).sum();
    patterns.contains(&Pattern::Overline) || fours >= 2 || strong >= 2
}

/// Scratch state for the recursion: line keys and black stones, changed and restored.
struct Scratch {
    keys: LineKeys,
    black: Bits256,
    occupied: Bits256,
}

impl Scratch {
    fn place(&mut self, cell: Cell) {
        self.keys.place(cell, Color::Black);
        self.black = self.black.with(cell);
        self.occupied = self.occupied.with(cell);
    }

    fn remove(&mut self, cell: Cell) {
        self.keys.remove(cell);
        self.black = self.black.without(Bits256::from_cell(cell));
        self.occupied = self.occupied.without(Bits256::from_cell(cell));
    }

    fn is_forbidden(&mut self, cell: Cell, depth: u32) -> bool {
        let patterns = self.keys.patterns(cell, Color::Black);
        if !maybe_forbidden(&patterns) {
            return false;
        }
        if patterns.contains(&Pattern::Overline) {
            return true;
        }
        let fours: u32 = patterns.iter().map(|p| p.four_count()).sum();
        if fours >= 2 {
            return true;
        }
        let three_dirs: Vec<usize> = (0..4).filter(|&d| patterns[d] == Pattern::F3).collect();
        if three_dirs.len() < 2 {
            return false;
        }
        self.place(cell);
        let mut real = 0;
        for &d in &three_dirs {
            if self.is_real_three(cell, d, depth) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.remove(cell);
        real >= 2
    }

    /// With black on `cell`, whether its three along `dir` can become a straight four
    /// through `cell` by a move that is not forbidden.
    fn is_real_three(&mut self, cell: Cell, dir: usize, depth: u32) -> bool {
        let line = LineKeys::line_cells(cell, dir);
        for i in 1..2 * HALF {
            let Some(e) = line[i] else { continue };
            if i == HALF || self.occupied.contains(e) {
                continue;
            }
            if self.keys.pattern(e, dir, Color::Black) != Pattern::F4 {
                continue;
            }
            // The straight four must contain `cell`: every cell between them is black.
            let (lo, hi) = if i < HALF { (i + 1, HALF) } else { (HALF + 1, i) };
            let connected = (lo..hi).all(|j| line[j].is_some_and(|c| self.black.contains(c)));
            if !connected {
                continue;
            }
            if depth == 0 || !self.is_forbidden(e, depth - 1) {
                return true;
            }
        }
        false
    }
}

/// Black's forbidden cells among the empty `candidates`, in the position given by the line
/// keys and the stones.
pub fn forbidden_among(
    keys: &LineKeys,
    black: Bits256,
    white: Bits256,
    candidates: Bits256,
) -> Bits256 {
    let occupied = black | white;
    let suspects: Vec<Cell> = candidates
        .without(occupied)
        .iter()
        .filter(|&c| maybe_forbidden(&keys.patterns(c, Color::Black)))
        .collect();
    if suspects.is_empty() {
        return Bits256::EMPTY;
    }
    let mut scratch = Scratch { keys: keys.scratch_copy(), black, occupied };
    suspects
        .into_iter()
        .filter(|&c| scratch.is_forbidden(c, MAX_RECURSION))
        .fold(Bits256::EMPTY, Bitboard::with)
}
