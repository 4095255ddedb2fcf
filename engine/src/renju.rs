//! Renju forbidden points (black only; boards with line keys, larger than 5×5).
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
//! come from the board's incremental [`LineKeys`]; the recursion adds its stones on top of
//! them without changing them (the keys are sums of stone weights, so a line's key with a
//! few more stones is its key plus their weights).
//!
//! Most candidates cannot be forbidden at all, so they are first narrowed by sets (see
//! `suspects`): a forbidden cell is one where black makes a four or an open three (both
//! kept as threat-cell sets by the pattern state) or an overline (found by shifts).

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
#[cfg(test)]
use crate::bitboard::Bits256;
use crate::color::Color;
use crate::geometry::{Cell, Direction};
use crate::pattern::Pattern;
use crate::pattern::keys::{KeyedBitboard, LineKeys};
use crate::pattern::pair::ThreatKind;
use crate::pattern::table::HALF;

/// How deep the "is the completing move itself forbidden?" recursion goes.
pub const MAX_RECURSION: u32 = 6;

/// Candidate counts up to which every candidate's patterns are read directly: narrowing by
/// sets costs a few dozen shifts, more than reading a handful of cells.
const DIRECT_CHECK_MAX: u32 = 4;

/// Which rule a forbidden black move breaks (what a referee or a person is told).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more real open threes at once.
    DoubleThree,
}

impl std::fmt::Display for Foul {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        })
    }
}

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
    let threes = (0..4).filter(|&d| patterns[d].is_open_three()).fold(0u8, |acc, d| acc | 1 << d);
    if threes.count_ones() >= 2 { Verdict::Threes(threes) } else { Verdict::Allowed }
}

/// A superset of the empty cells where black would make six or more in a row: such a cell
/// has five black stones beside it along one line, so three in a row on one side.
fn overline_suspects<B: Bitboard>(black: B) -> B {
    let mut suspects = B::EMPTY;
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
fn suspects<B: KeyedBitboard, const S: usize>(keys: &LineKeys<B, S>, black: B) -> B {
    keys.kind_cells(Color::Black, ThreatKind::Four)
        | keys.kind_cells(Color::Black, ThreatKind::Three)
        | overline_suspects(black)
}

/// The position with black stones added for the recursion, read from the line keys without
/// changing them (see [`LineKeys::black_pattern_with`]): no copy of the keys to make.
struct Overlay<'k, B: KeyedBitboard, const S: usize> {
    keys: &'k LineKeys<B, S>,
    /// The black stones added, in order: the cell checked, then one per level of the
    /// recursion below it (levels `MAX_RECURSION - 1` down to 0), so at most
    /// `MAX_RECURSION + 1`.
    added: ArrayVec<Cell, { MAX_RECURSION as usize + 1 }>,
    black: B,
    occupied: B,
}

impl<B: KeyedBitboard, const S: usize> Overlay<'_, B, S> {
    fn new(keys: &LineKeys<B, S>, black: B, occupied: B) -> Overlay<'_, B, S> {
        Overlay { keys, added: ArrayVec::new(), black, occupied }
    }

    /// Black's pattern on the empty `cell` along `dir`, with the added stones.
    fn pattern(&self, cell: Cell, dir: usize) -> Pattern {
        if self.added.is_empty() {
            self.keys.pattern(cell, dir, Color::Black)
        } else {
            self.keys.black_pattern_with(cell, dir, &self.added)
        }
    }

    fn place(&mut self, cell: Cell) {
        self.added.push(cell);
        self.black = self.black.with(cell);
        self.occupied = self.occupied.with(cell);
    }

    fn remove(&mut self) {
        let cell = self.added.pop().expect("a stone to remove");
        self.black = self.black - B::from_cell(cell);
        self.occupied = self.occupied - B::from_cell(cell);
    }

    /// The forbidden cells among the empty `cells`, each checked on its own.
    fn forbidden_of(&mut self, cells: B) -> B {
        cells.iter().filter(|&c| self.is_forbidden(c, MAX_RECURSION)).fold(B::EMPTY, Bitboard::with)
    }

    fn is_forbidden(&mut self, cell: Cell, depth: u32) -> bool {
        match verdict(&std::array::from_fn(|d| self.pattern(cell, d))) {
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
        self.remove();
        real >= 2
    }

    /// With black on `cell`, whether its three along `dir` can become a straight four
    /// through `cell` by a move that is not forbidden.
    fn is_real_three(&mut self, cell: Cell, dir: usize, depth: u32) -> bool {
        let line = self.keys.line_cells(cell, dir);
        for i in 1..2 * HALF {
            let Some(e) = line[i] else { continue };
            if i == HALF || self.occupied.contains(e) {
                continue;
            }
            if self.pattern(e, dir) != Pattern::F4 {
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
pub fn forbidden_among<B: KeyedBitboard, const S: usize>(
    keys: &LineKeys<B, S>,
    black: B,
    white: B,
    candidates: B,
) -> B {
    let occupied = black | white;
    let mut cells = candidates - occupied;
    if cells.count() > DIRECT_CHECK_MAX {
        cells &= suspects(keys, black);
    }
    Overlay::new(keys, black, occupied).forbidden_of(cells)
}

/// The foul black would commit on the empty `cell` (`None` if the move is allowed): an
/// overline before a double four before a double three when it makes more than one. Slower
/// than [`forbidden_among`] per cell, for telling people why a move is refused.
pub fn foul_at<B: KeyedBitboard, const S: usize>(
    keys: &LineKeys<B, S>,
    black: B,
    white: B,
    cell: Cell,
) -> Option<Foul> {
    let occupied = black | white;
    if occupied.contains(cell) {
        return None;
    }
    let mut overlay = Overlay::new(keys, black, occupied);
    let patterns: [Pattern; 4] = std::array::from_fn(|d| overlay.pattern(cell, d));
    match verdict(&patterns) {
        Verdict::Allowed => None,
        Verdict::Forbidden if patterns.contains(&Pattern::Overline) => Some(Foul::Overline),
        Verdict::Forbidden => Some(Foul::DoubleFour),
        Verdict::Threes(directions) => overlay
            .double_three_is_real(cell, directions, MAX_RECURSION)
            .then_some(Foul::DoubleThree),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::pattern::keys::PatternState;
    use crate::rng::SplitMix64;
    use crate::rules::Rule;

    /// Every empty cell checked on its own, without narrowing: the reference for
    /// [`forbidden_among`].
    fn forbidden_cell_by_cell(board: &Board<Bits256>) -> Bits256 {
        let black = board.stones(Color::Black);
        Overlay::new(board.patterns(), black, board.occupied()).forbidden_of(board.empty_cells())
    }

    /// The overlay's patterns are those of the line keys with the stones placed: after every
    /// move of random games, up to three black stones are added near the last move, and every
    /// empty cell's four patterns are compared with a copy of the keys that places them.
    #[test]
    fn added_stones_read_like_placed_ones() {
        let g = Bits256::GEOMETRY;
        let mut rng = SplitMix64::new(77);
        let mut compared = 0;
        for _ in 0..20 {
            let mut board = Board::<Bits256>::new(Rule::Renju);
            while !board.outcome().is_decided() && board.move_count() < 40 {
                let near: Vec<Cell> = crate::movegen::candidates(&board).iter().collect();
                board.play(near[rng.below(near.len())]);
                let mut placed = board.patterns().clone();
                let mut overlay = Overlay::new(board.patterns(), Bits256::EMPTY, board.occupied());
                let empty: Vec<Cell> = board.empty_cells().iter().collect();
                for _ in 0..1 + rng.below(3) {
                    let cell = empty[rng.below(empty.len())];
                    if !overlay.occupied.contains(cell) {
                        overlay.place(cell);
                        placed.place(cell, Color::Black);
                    }
                }
                for cell in g.all_cells().filter(|&c| !overlay.occupied.contains(c)) {
                    for d in 0..4 {
                        assert_eq!(overlay.pattern(cell, d), placed.pattern(cell, d, Color::Black));
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 100_000, "{compared} patterns compared");
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
                    let patterns = board.patterns().patterns(cell, Color::Black);
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
