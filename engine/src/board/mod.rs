//! The board: stones of both colours, side to move, Zobrist hash, undo stack, game outcome.
//!
//! Invariants (checked from scratch by [`Board::is_consistent`], asserted after every
//! make/unmake in debug builds):
//! * the two stone sets are disjoint and hold only on-board cells;
//! * the history lists every stone exactly once, black first, colours alternating, so the
//!   side to move is black when the counts are equal;
//! * the hash is the XOR of the Zobrist keys of all stones;
//! * the outcome is the one the last move produced (`Ongoing` with no history).
//!
//! Only the last move can decide a game, because no move is allowed on a decided board.
//!
//! Three ways to play a move: [`Board::play`] (panics with a message: tools and tests),
//! [`Board::try_play`] (returns [`IllegalMove`]: external input), [`Board::play_unchecked`]
//! (no checks beyond debug assertions: search and perft).

use std::fmt;

use arrayvec::ArrayVec;

use crate::color::Color;
use crate::geometry::{Cell, Geometry};
use crate::notation;
use crate::outcome::Outcome;
use crate::pattern::code::CodeValues;
use crate::pattern::keys::PatternState;
use crate::rules::Rule;
use crate::storage::Storage;
use crate::zobrist;

mod error;

pub use error::{IllegalMove, PositionError};

/// Capacity of the undo stack: the cell count of the largest board (22 × 22).
pub const MAX_HISTORY: usize = 484;

/// An m,n,k-game position on the board size `B` stands for, under one [`Rule`].
#[derive(Clone, Debug)]
pub struct Board<B: Storage> {
    stones: [B; 2],
    side_to_move: Color,
    rule: Rule,
    hash: u64,
    outcome: Outcome,
    history: ArrayVec<Cell, MAX_HISTORY>,
    /// Where the side to move passed (see [`Board::pass`]): the number of moves played
    /// before the pass. At most one pass stands at a time.
    passed_at: Option<usize>,
    /// The incremental pattern state of the lines (line keys on the gomoku boards).
    patterns: B::Patterns,
    /// The board's size, within the type's largest board ([`crate::bitboard::Bitboard::GEOMETRY`]).
    geometry: Geometry,
    /// The board's cells (all of the type's largest board, or fewer).
    cells: B,
}

impl<B: Storage> Board<B> {
    /// The empty board of the type's largest size (3×3, 5×5, 15×15 or 22×22), black to move.
    pub fn new(rule: Rule) -> Self {
        Board::with_geometry(B::GEOMETRY, rule)
    }

    /// The empty board of `geometry`, black to move.
    ///
    /// # Panics
    /// If the board does not fit the type (see [`Geometry::within`]); [`crate::size::BoardSize`]
    /// chooses the type that fits.
    pub fn with_geometry(geometry: Geometry, rule: Rule) -> Self {
        let geometry = geometry.within(B::GEOMETRY).expect("the board fits its bitboard type");
        Board {
            geometry,
            cells: B::cells_of(geometry),
            stones: [B::EMPTY; 2],
            side_to_move: Color::Black,
            rule,
            hash: 0,
            outcome: Outcome::Ongoing,
            history: ArrayVec::new(),
            passed_at: None,
            patterns: B::Patterns::new(rule, geometry),
        }
    }

    /// The position after playing `moves` (coordinates) from the empty board.
    pub fn from_points(rule: Rule, moves: &[notation::Point]) -> Result<Self, PositionError> {
        Board::from_points_on(B::GEOMETRY, rule, moves)
    }

    /// The position after playing `moves` (coordinates) from the empty board of `geometry`.
    pub fn from_points_on(
        geometry: Geometry,
        rule: Rule,
        moves: &[notation::Point],
    ) -> Result<Self, PositionError> {
        let mut board = Board::with_geometry(geometry, rule);
        for (index, &point) in moves.iter().enumerate() {
            let played = board.try_play_at(point.x, point.y);
            played.map_err(|reason| PositionError::Illegal { index, reason })?;
        }
        Ok(board)
    }

    /// The position after a move list in `x,y` or pos notation (see [`crate::notation`]).
    ///
    /// ```
    /// use mnk_engine::board::Board;
    /// use mnk_engine::color::Color;
    /// use mnk_engine::bitboard::Bits256;
    /// use mnk_engine::rules::Rule;
    ///
    /// let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8i9").unwrap();
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// assert_eq!(board.move_count(), 2);
    /// assert!(Board::<Bits256>::from_notation(Rule::Freestyle, "h8h8").is_err());
    /// ```
    pub fn from_notation(rule: Rule, text: &str) -> Result<Self, PositionError> {
        Board::from_points(rule, &notation::parse_moves(text)?)
    }

    /// The geometry of the board.
    #[inline(always)]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The board's cells.
    #[inline(always)]
    pub fn cells(&self) -> B {
        self.cells
    }

    /// The rule in force.
    #[inline(always)]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The colour to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The stones of `color`.
    #[inline(always)]
    pub fn stones(&self, color: Color) -> B {
        self.stones[color.index()]
    }

    /// All stones of both colours.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.stones[0] | self.stones[1]
    }

    /// The empty cells.
    #[inline(always)]
    pub fn empty_cells(&self) -> B {
        self.cells - self.occupied()
    }

    /// The cells the side to move may play: every empty cell while the game is on (minus
    /// black's forbidden points under renju), none once it is decided.
    #[inline]
    pub fn legal_moves(&self) -> B {
        if self.outcome.is_decided() {
            B::EMPTY
        } else {
            self.without_forbidden(self.empty_cells())
        }
    }

    /// Whether the game goes on but the side to move has no legal move: renju's black with
    /// only forbidden points left, who has lost, since any move it makes is a foul. (The
    /// outcome does not say so: finding out takes the forbidden points of every empty cell,
    /// which make and unmake do not spend; front ends ask here when a search finds no move.)
    pub fn only_forbidden_moves_left(&self) -> bool {
        !self.outcome.is_decided() && self.legal_moves().is_empty()
    }

    /// `cells` without those the side to move may not play: renju's forbidden points when
    /// black is to move, none otherwise.
    #[inline]
    pub fn without_forbidden(&self, cells: B) -> B {
        if self.restricted_to_move() { cells - self.forbidden_among(cells) } else { cells }
    }

    /// Whether the side to move is restricted by the rule (renju's black), so forbidden
    /// points apply.
    #[inline(always)]
    pub fn restricted_to_move(&self) -> bool {
        self.rule.restricts(self.side_to_move)
    }

    /// Black's renju-forbidden cells among the empty `candidates` (regardless of whose turn
    /// it is; none under other rules or on the small boards).
    pub fn forbidden_among(&self, candidates: B) -> B {
        if !self.rule.has_forbidden_points() {
            return B::EMPTY;
        }
        B::renju_forbidden(
            &self.patterns,
            self.stones[0],
            self.stones[1],
            candidates & self.empty_cells(),
        )
    }

    /// The renju foul black would commit on `cell` (regardless of whose turn it is; none
    /// under other rules, on the small boards, or on an occupied cell).
    pub fn foul_at(&self, cell: Cell) -> Option<crate::renju::Foul> {
        if !self.rule.has_forbidden_points() {
            return None;
        }
        B::renju_foul(&self.patterns, self.stones[0], self.stones[1], cell)
    }

    /// The empty cells where a stone of `color` would win now (its "fives"): from the
    /// incremental line patterns where the board keeps them, else computed by the rule.
    #[inline]
    pub fn winning_cells(&self, color: Color) -> B {
        match self.patterns.five_cells(color) {
            Some(fives) => fives & self.empty_cells(),
            None => {
                self.rule.winning_cells(self.stones(color), self.stones(color.opponent()), color)
                    & self.cells
            }
        }
    }

    /// A copy for counting (perft): without the incremental pattern state, which only the
    /// search and renju's forbidden points need, make and unmake are several times faster.
    /// Under renju the state is kept.
    pub fn for_counting(&self) -> Self {
        let mut copy = self.clone();
        if !self.rule.has_forbidden_points() {
            copy.patterns.deactivate();
        }
        copy
    }

    /// The incremental pattern state of the lines (line keys on the gomoku boards).
    #[inline(always)]
    pub fn patterns(&self) -> &B::Patterns {
        &self.patterns
    }

    /// Has the pattern state sum `values` over the empty cells from now on (see
    /// [`PatternState::sum_code_values`]; the evaluation asks this of the boards it reads).
    /// Rebuilds the state by placing the stones again, unless it sums these values already;
    /// on the small boards, which keep no patterns, nothing.
    pub fn sum_code_values(&mut self, values: &'static CodeValues) {
        let (rule, geometry) = (self.rule, self.geometry);
        let stones = self.stones_in_order();
        self.patterns.sum_code_values(rule, geometry, values, stones.into_iter());
    }

    /// Whether the moves played from now on keep the code sums up to date; returns the
    /// setting before (see [`PatternState::keep_sums`]: a search that never evaluates turns
    /// them off, and on again once its moves are taken back).
    #[inline(always)]
    pub fn keep_code_sums(&mut self, on: bool) -> bool {
        self.patterns.keep_sums(on)
    }

    /// The stones in the order they were played, each with its colour (black first, the
    /// colours alternating but for a pass, see [`Board::pass`]).
    pub fn stones_in_order(&self) -> ArrayVec<(Cell, Color), MAX_HISTORY> {
        let mut color = Color::Black;
        let mut stones = ArrayVec::new();
        for (index, &cell) in self.history.iter().enumerate() {
            if self.passed_at == Some(index) {
                color = color.opponent();
            }
            stones.push((cell, color));
            color = color.opponent();
        }
        stones
    }

    /// The Zobrist hash of the stones.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash after the side to move plays on `cell` (for prefetching).
    #[inline]
    pub fn hash_after(&self, cell: Cell) -> u64 {
        self.hash ^ zobrist::key(self.side_to_move, cell)
    }

    /// The state of the game.
    #[inline(always)]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Number of stones on the board.
    #[inline(always)]
    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// The moves played so far, first move first.
    #[inline]
    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    /// The last move played, if any.
    #[inline]
    pub fn last_move(&self) -> Option<Cell> {
        self.history.last().copied()
    }

    /// The colour of the stone on `cell`, if any.
    #[inline]
    pub fn stone_at(&self, cell: Cell) -> Option<Color> {
        if self.stones[0].contains(cell) {
            Some(Color::Black)
        } else if self.stones[1].contains(cell) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Checks a move without playing it.
    pub fn check_move(&self, cell: Cell) -> Result<(), IllegalMove> {
        let g = self.geometry;
        if !g.is_on_board(cell) {
            let (x, y) = g.xy(cell);
            return Err(IllegalMove::OffBoard { x, y });
        }
        if self.outcome.is_decided() {
            return Err(IllegalMove::GameOver);
        }
        if self.occupied().contains(cell) {
            let (x, y) = g.xy(cell);
            return Err(IllegalMove::Occupied { x, y });
        }
        if self.restricted_to_move() && !self.forbidden_among(B::from_cell(cell)).is_empty() {
            let (x, y) = g.xy(cell);
            return Err(IllegalMove::Forbidden { x, y });
        }
        Ok(())
    }

    /// Plays `cell` for the side to move if it is legal; the board is unchanged otherwise.
    pub fn try_play(&mut self, cell: Cell) -> Result<Outcome, IllegalMove> {
        self.check_move(cell)?;
        Ok(self.play_unchecked(cell))
    }

    /// [`Board::try_play`] at column `x`, row `y`.
    pub fn try_play_at(&mut self, x: usize, y: usize) -> Result<Outcome, IllegalMove> {
        let cell = self.geometry.cell(x, y).ok_or(IllegalMove::OffBoard { x, y })?;
        self.try_play(cell)
    }

    /// Plays `cell` for the side to move.
    ///
    /// # Panics
    /// If the move is illegal; use [`Board::try_play`] for input from outside.
    #[track_caller]
    pub fn play(&mut self, cell: Cell) -> Outcome {
        match self.try_play(cell) {
            Ok(outcome) => outcome,
            Err(e) => panic!("Board::play({}): {e}", self.geometry.format_xy(cell)),
        }
    }

    /// Plays `cell` for the side to move without checking legality (the caller guarantees an
    /// empty on-board cell and an undecided game). Returns the new outcome.
    #[inline(always)]
    pub fn play_unchecked(&mut self, cell: Cell) -> Outcome {
        debug_assert!(self.check_move(cell).is_ok(), "play_unchecked: {:?}", self.check_move(cell));
        let side = self.side_to_move;
        // Where the pattern state keeps the five cells, they tell whether the move wins.
        let wins_by_pattern = self.patterns.five_cells(side).map(|fives| fives.contains(cell));
        let own = self.stones[side.index()] | B::from_cell(cell);
        self.stones[side.index()] = own;
        self.hash ^= zobrist::key(side, cell);
        self.history.push(cell);
        self.patterns.place(cell, side);
        self.side_to_move = side.opponent();
        let opp = self.stones[side.opponent().index()];
        let wins =
            wins_by_pattern.unwrap_or_else(|| self.rule.is_win_through(own, opp, cell, side));
        self.outcome = if wins {
            Outcome::Win(side)
        } else if self.history.len() == self.geometry.cells() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
        debug_assert!(self.debug_check(), "inconsistent after play\n{self}");
        self.outcome
    }

    /// The side to move passes: the opponent moves next, on the same stones. Not a move of
    /// the game but a search device (the defence filter asks what the opponent could do with
    /// a free move). The hash changes by [`zobrist::PASS`], so the positions after a pass never
    /// share table entries with the game's. At most one pass stands at a time, in an
    /// undecided game; [`Board::undo_pass`] takes it back once the moves played after it are.
    pub fn pass(&mut self) {
        debug_assert!(self.passed_at.is_none(), "one pass at a time");
        debug_assert!(!self.outcome.is_decided(), "no pass in a decided game");
        self.passed_at = Some(self.history.len());
        self.side_to_move = self.side_to_move.opponent();
        self.hash ^= zobrist::PASS;
    }

    /// Takes back the pass (see [`Board::pass`]).
    pub fn undo_pass(&mut self) {
        debug_assert_eq!(self.passed_at, Some(self.history.len()), "the pass is the last step");
        self.passed_at = None;
        self.side_to_move = self.side_to_move.opponent();
        self.hash ^= zobrist::PASS;
    }

    /// Takes back the last move and returns it (`None` on the empty board).
    #[inline]
    pub fn undo(&mut self) -> Option<Cell> {
        if self.history.is_empty() { None } else { Some(self.undo_unchecked()) }
    }

    /// Takes back the last move; the caller guarantees there is one.
    #[inline(always)]
    pub fn undo_unchecked(&mut self) -> Cell {
        let cell = self.history.pop().expect("undo_unchecked needs a move to take back");
        debug_assert!(self.passed_at.is_none_or(|at| at <= self.history.len()), "pass first");
        let side = self.side_to_move.opponent();
        self.side_to_move = side;
        self.stones[side.index()] ^= B::from_cell(cell);
        self.hash ^= zobrist::key(side, cell);
        self.patterns.remove(cell);
        // A move was played from the previous position, so it was undecided.
        self.outcome = Outcome::Ongoing;
        debug_assert!(self.debug_check(), "inconsistent after undo\n{self}");
        cell
    }

    /// The check debug builds run after every make and unmake: everything but the line
    /// keys always, and the full [`Board::is_consistent`] (which rebuilds the line keys) on a
    /// deterministic sample of one position in `FULL_CHECK_SAMPLE`, chosen by hash, so
    /// search-heavy debug runs stay fast while every kind of position gets checked.
    fn debug_check(&self) -> bool {
        const FULL_CHECK_SAMPLE: u64 = 64;
        if self.hash.is_multiple_of(FULL_CHECK_SAMPLE) {
            self.is_consistent()
        } else {
            self.is_consistent_except_patterns()
        }
    }

    /// Recomputes everything from the history and compares it with the incremental state.
    pub fn is_consistent(&self) -> bool {
        self.is_consistent_except_patterns()
            && self.cells == B::cells_of(self.geometry)
            && self.patterns.matches(self.rule, self.geometry, self.stones[0], self.stones[1])
    }

    /// [`Board::is_consistent`] without rebuilding the line keys.
    fn is_consistent_except_patterns(&self) -> bool {
        let g = self.geometry;
        let [black, white] = self.stones;
        if !(black & white).is_empty()
            || !((black | white) - self.cells).is_empty()
            || (black | white).count() as usize != self.history.len()
        {
            return false;
        }
        let mut hash = if self.passed_at.is_some() { zobrist::PASS } else { 0 };
        for (cell, color) in self.stones_in_order() {
            if !g.is_on_board(cell) || !self.stones[color.index()].contains(cell) {
                return false;
            }
            hash ^= zobrist::key(color, cell);
        }
        // The colour to move: black after an even number of stones, the other after a pass.
        let mut color =
            if self.history.len().is_multiple_of(2) { Color::Black } else { Color::White };
        if self.passed_at.is_some_and(|at| at < self.history.len()) {
            color = color.opponent();
        }
        match self.passed_at {
            Some(at) if at == self.history.len() => color = color.opponent(),
            Some(at) if at > self.history.len() => return false,
            _ => {}
        }
        if hash != self.hash || color != self.side_to_move {
            return false;
        }
        let expected = match self.history.last() {
            None => Outcome::Ongoing,
            Some(&last) => {
                // (The last stone's colour: after a pass it is the side to move's.)
                let mover = self.stone_at(last).unwrap_or(self.side_to_move.opponent());
                let (own, opp) =
                    (self.stones[mover.index()], self.stones[mover.opponent().index()]);
                if self.rule.is_win_through(own, opp, last, mover) {
                    Outcome::Win(mover)
                } else if self.history.len() == g.cells() {
                    Outcome::Draw
                } else {
                    Outcome::Ongoing
                }
            }
        };
        expected == self.outcome
    }
}

impl<B: Storage> fmt::Display for Board<B> {
    /// The board as text: columns lettered `a..`, rows numbered from 1 (pos notation), `X`
    /// for black, `O` for white, `.` for empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry;
        write!(f, "   ")?;
        for x in 0..g.width() {
            write!(f, " {}", (b'a' + x as u8) as char)?;
        }
        writeln!(f)?;
        for y in 0..g.height() {
            write!(f, "{:>3}", y + 1)?;
            for x in 0..g.width() {
                let cell = g.cell(x, y).expect("coordinates are on the board");
                let mark = match self.stone_at(cell) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, " {mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
