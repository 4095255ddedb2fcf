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
//! copy of them, made only when a double three has to be looked into.
//!
//! Most candidates cannot be forbidden at all, so they are first narrowed by sets (see
//! [`suspects`]): a forbidden cell is one where black makes a four or an open three (both
//! kept as threat-cell sets by the line state) or an overline (found by shifts).

use crate::bitboard::{Bitboard, Bits256};
use crate::board::Color;
use crate::geometry::{Cell, Direction};
use crate::pattern::Pattern;
use crate::pattern::keys::LineKeys;
use crate::pattern::keys::LineState;
use crate::pattern::keys::ThreatKind;
use crate::pattern::table::HALF;

/// How deep the "is the completing move itself forbidden?" recursion goes.
pub const MAX_RECURSION: u32 = 6;

/// Candidate counts up to which every candidate's patterns are read directly: narrowing by
/// sets costs a few dozen shifts, more than reading a handful of cells.
const DIRECT_CHECK_MAX: u32 = 4;

/// What a black move's four patterns say about it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// Not forbidden, whatever the threes.
    Allowed,
    /// Forbidden: an overline or a double four, without five.
    Forbidden,
    /// Two or more open threes (the directions, one bit each) and nothing else that
    /// decides: forbidden if at least two of them are real.
    Threes(u8),
}

/// Reads the verdict off the four patterns of a black move.
#[inline]
fn verdict(patterns: &[Pattern; 4]) -> Verdict {
    if patterns.contains(&Pattern::Five) {
        return Verdict::Allowed;
    }
    let fours: u32 = patterns.iter().map(|p| p.four_count()).sum();
    if fours >= 2 || patterns.contains(&Pattern::Overline) {
        return Verdict::Forbidden;
    }
    let threes = (0..4).filter(|&d| patterns[d] == Pattern::F3).fold(0u8, |acc, d| acc | 1 << d);
    if threes.count_ones() >= 2 { Verdict::Threes(threes) } else { Verdict::Allowed }
}

/// A superset of the empty cells where black would make six or more in a row: such a cell
/// has five black stones beside it along one line, so three in a row on one side.
fn overline_suspects(black: Bits256) -> Bits256 {
    let mut suspects = Bits256::EMPTY;
    for &d in &Direction::ALL {
        // The last cells of three black stones in a row along `d`.
        let behind = black.shift(d, 1);
        let runs = black & behind & behind.shift(d, 1);
        if !runs.is_empty() {
            suspects |= runs.shift(d, 1) | runs.shift(d, -3);
        }
    }
    suspects
}

/// A superset of black's forbidden cells: where black makes a four, an open three or an
/// overline. (A forbidden cell has two fours, two threes or an overline.)
fn suspects(keys: &LineKeys, black: Bits256) -> Bits256 {
    keys.kind_cells(Color::Black, ThreatKind::Four)
        | keys.kind_cells(Color::Black, ThreatKind::Three)
        | overline_suspects(black)
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
        match verdict(&self.keys.patterns(cell, Color::Black)) {
            Verdict::Allowed => false,
            Verdict::Forbidden => true,
            Verdict::Threes(directions) => self.double_three_is_real(cell, directions, depth),
        }
    }

    /// Whether at least two of the open threes black makes on `cell` (along `directions`)
    /// are real.
    fn double_three_is_real(&mut self, cell: Cell, directions: u8, depth: u32) -> bool {
        self.place(cell);
        let mut real = 0;
        for d in (0..4).filter(|&d| directions & 1 << d != 0) {
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
    let mut cells = candidates.without(occupied);
    if cells.count() > DIRECT_CHECK_MAX {
        cells &= suspects(keys, black);
    }
    let mut scratch: Option<Scratch> = None;
    let mut forbidden = Bits256::EMPTY;
    for cell in cells.iter() {
        let is_forbidden = match verdict(&keys.patterns(cell, Color::Black)) {
            Verdict::Allowed => false,
            Verdict::Forbidden => true,
            Verdict::Threes(directions) => scratch
                .get_or_insert_with(|| Scratch { keys: keys.scratch_copy(), black, occupied })
                .double_three_is_real(cell, directions, MAX_RECURSION),
        };
        if is_forbidden {
            forbidden = forbidden.with(cell);
        }
    }
    forbidden
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rng::SplitMix64;
    use crate::rules::Rule;

    /// Every empty cell checked on its own, without narrowing: the reference for
    /// [`forbidden_among`].
    fn forbidden_cell_by_cell(board: &Board<Bits256>) -> Bits256 {
        let black = board.stones(Color::Black);
        let keys = board.lines().scratch_copy();
        let mut scratch = Scratch { keys, black, occupied: board.occupied() };
        board
            .empty_cells()
            .iter()
            .filter(|&c| scratch.is_forbidden(c, MAX_RECURSION))
            .fold(Bits256::EMPTY, Bitboard::with)
    }

    /// Random renju games crowded into the centre (7×7), so that black soon has fours,
    /// double threes and overline points; after every move, the forbidden cells found with
    /// narrowing (over all empty cells and one cell at a time) are those found cell by cell.
    #[test]
    fn narrowing_by_sets_finds_every_forbidden_cell() {
        let g = Bits256::GEOMETRY;
        let centre = (4..11)
            .flat_map(|y| (4..11).filter_map(move |x| g.cell(x, y)))
            .fold(Bits256::EMPTY, Bitboard::with);
        let mut rng = SplitMix64::new(2026);
        let (mut forbidden_seen, mut overlines_seen) = (0, 0);
        for _ in 0..60 {
            let mut board = Board::<Bits256>::new(Rule::Renju);
            while !board.outcome().is_decided() {
                let moves: Vec<Cell> = (board.legal_moves() & centre).iter().collect();
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.below(moves.len())]);
                let expected = forbidden_cell_by_cell(&board);
                assert_eq!(board.forbidden_among(board.empty_cells()), expected);
                for cell in board.empty_cells().iter() {
                    let alone = board.forbidden_among(Bits256::from_cell(cell));
                    assert_eq!(alone.contains(cell), expected.contains(cell));
                    let patterns = board.lines().patterns(cell, Color::Black);
                    if patterns.contains(&Pattern::Overline) {
                        assert!(overline_suspects(board.stones(Color::Black)).contains(cell));
                        overlines_seen += 1;
                    }
                }
                forbidden_seen += expected.count();
            }
        }
        // The games must reach what the narrowing is about.
        assert!(forbidden_seen > 100, "{forbidden_seen} forbidden cells");
        assert!(overlines_seen > 20, "{overlines_seen} overline cells");
    }
}
