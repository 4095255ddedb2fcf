//! Iterative-deepening principal-variation search (negamax alpha-beta) with a
//! transposition table.
//!
//! ```text
//! run ── root threat searches (gomoku: VCF, VCT, the defence filter)      → root.rs
//!   └─ iterative deepening: depth 1, 2, ... until a limit, a proof, or max depth
//!        └─ aspiration window around the last score (widened on failure)
//!             └─ pvs(depth, ply, alpha, beta), numbered steps              → pvs.rs
//!                  1. mate-distance pruning
//!                  2. immediate win (a cell completing a line)            → win now
//!                  3. opponent fives: none can be stopped (two, or caro)  → lost
//!                  4. small boards: live-line / pairing-strategy bounds    → draw bounds
//!                  5. transposition table: a cutoff, or a move to try first
//!                  6. internal iterative reduction (no table move: a ply less)
//!                  7. reverse futility pruning (far above beta, shallow)  → fail high
//!                  8. razoring (far below alpha, shallow: a leaf first)   → fail low
//!                  9. leaf (depth exhausted, no five threatened)          → VCF, else the
//!                     evaluation corrected by the correction history
//!                 10. moves: the single block if the opponent threatens (no depth spent),
//!                     else the candidates, ordered (TT move, killers, history, priority)
//!                 11. singular extension of the table move, or a multi-cut
//!                 12. PVS loop: first move full window, others null window (late moves
//!                     on gomoku boards reduced first, quiet ones at shallow null-window nodes
//!                     skipped), re-searched when they beat alpha
//!                 13. store in the table, and on gomoku boards what the evaluation missed in the
//!                     correction history
//! ```
//!
//! Scores are from the side to move; see [`crate::score`]. On the small boards the TT key is
//! the symmetry-canonical hash, so the 8 images of a position share an entry; a search of
//! depth ≥ the number of empty cells is exact there, and such results are stored as proven.
//!
//! The search never prints: progress goes to a callback as [`SearchInfo`].
//!
//! This module holds the searcher and its iterations; the node's steps are in `pvs`, its
//! reductions and prunings, with their tunables, in `pruning`, the threat searches at the
//! root of a gomoku-board search in `root`, and the helper threads of a parallel search in
//! `parallel`.

pub mod balance;
pub mod clock;
mod correction;
pub mod defend;
mod keyed;
mod ordering;
mod parallel;
pub mod params;
mod pruning;
mod pvs;
mod root;
mod symmetry;
pub mod threats;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

use arrayvec::ArrayVec;

use crate::board::Board;
use crate::eval;
use crate::geometry::{Cell, Symmetry};
use crate::movegen;
use crate::outcome::Outcome;
use crate::tt::TranspositionTable;

pub use crate::report::{PvLine, SearchInfo, SearchResult};
pub use parallel::{HELPER_STACK_BYTES, MAX_THREADS};
pub use params::{PARAMS, ParamError, ParamSpec, SearchParams};

use crate::limits::Limits;
use crate::rng::SplitMix64;
use crate::score::{self, INFINITY, MATE_BOUND, MAX_EVAL, MAX_PLY, Score, is_decisive};
use crate::storage::Storage;
use crate::strength::Level;
use clock::{SearchClock, Stability};
use correction::CorrectionHistory;
use ordering::Ordering;
use root::BestMoveChecks;
use symmetry::SymmetricHash;
use threats::ThreatSearch;

/// A ply's static evaluation where its node has none (see `Searcher::static_evals`).
const NO_EVAL: Score = Score::MIN;

/// The fewest plies a reported line is carried to from the table (see
/// `Searcher::extend_line`), where the search reached less.
const SHOWN_LINE_PLIES: usize = 8;

/// Most best moves (lines) a multi-PV search reports (see [`Searcher::with_multipv`]).
pub const MAX_MULTIPV: usize = 32;

/// Searches `board` within `limits`, reporting each completed iteration to `on_info`.
pub fn search<B: Storage>(
    board: &Board<B>,
    tt: &mut TranspositionTable,
    limits: Limits,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(board.clone(), tt, limits).run(on_info)
}

/// One search: the board it changes in place, its table, its limits and its statistics.
pub struct Searcher<'t, B: Storage> {
    board: Board<B>,
    /// Shared with the helper threads, if any (its probes and stores take `&self`).
    tt: &'t TranspositionTable,
    limits: Limits,
    /// The tunables (see [`params`]).
    params: SearchParams,
    clock: SearchClock,
    ordering: Ordering,
    /// What the static evaluation missed so far, by the last two moves (gomoku boards).
    correction: CorrectionHistory,
    /// Symmetric hashes along the current line (small boards only).
    sym: ArrayVec<SymmetricHash, { MAX_PLY + 1 }>,
    nodes: u64,
    seldepth: usize,
    /// The threat-sequence solver (VCF and VCT) and its own node count.
    threat: ThreatSearch,
    /// Root moves the main search may play (gomoku boards, after the threat checks).
    root_moves: Option<B>,
    /// The checks of the iterations' best moves against the opponent's threat sequences
    /// (see [`Searcher::refutes_best_move`]).
    best_move_checks: BestMoveChecks,
    /// How many best root moves (lines) each iteration finds, 1..=`MAX_MULTIPV`.
    multipv: usize,
    /// Root moves of the lines already found in this iteration, which the next line skips,
    /// and the blocked ones.
    excluded: B,
    /// Root moves the search must not play (see [`Searcher::with_blocked`]).
    blocked: B,
    /// Per ply, the corrected static evaluation of the node there, or [`NO_EVAL`].
    static_evals: Box<[Score; MAX_PLY + 1]>,
    /// Per ply, the table move a singular-extension test searches the node without.
    singular_excluded: Box<[Option<Cell>; MAX_PLY]>,
    /// Multi-PV on the gomoku boards: the root move a threat sequence proved to win before the main
    /// search, kept as a line of every iteration while the main search finds the others.
    threat_line: Option<PvLine>,
    /// Whether step 4 may use pairing strategies (live-line draws are always used).
    pairing: bool,
    /// Whether the current iteration used anything inexact: a static evaluation or a table
    /// cutoff from an unproven entry. A small-board iteration without either is exact.
    heuristic: bool,
    /// Triangular principal-variation table: `pv[ply][ply..pv_len[ply]]`.
    pv: Box<[[Cell; MAX_PLY]; MAX_PLY]>,
    pv_len: Box<[usize; MAX_PLY + 1]>,
    /// The score of `pv[0]`'s root move, while the root search under way has one (the last
    /// root move that raised alpha): what a search stopped in mid-iteration still knows.
    root_best: Score,
    /// Root moves the current iteration proved lost: each scored a loss, exactly or as an
    /// upper bound.
    root_lost: B,
    /// The root move whose search a limit stopped, if one did.
    root_interrupted: Option<Cell>,
    /// Threads to search with, the main one included (see [`Searcher::with_threads`]).
    threads: usize,
    /// The helper threads' main-search and threat-search nodes so far, added as they go.
    helper_nodes: Arc<[AtomicU64; 2]>,
    /// The playing level (see [`Searcher::with_level`]).
    level: Level,
    /// The share of the root's threat-search budgets the strength allows (1 at full).
    threat_share: f64,
}

impl<'t, B: Storage> Searcher<'t, B> {
    /// Prepares a search of `board`; entries `tt` holds from earlier searches age by one.
    pub fn new(board: Board<B>, tt: &'t mut TranspositionTable, limits: Limits) -> Self {
        tt.new_search();
        Searcher::sharing(board, tt, limits)
    }

    /// A search of `board` with a table other searches may be using at the same time.
    fn sharing(mut board: Board<B>, tt: &'t TranspositionTable, limits: Limits) -> Self {
        // The board keeps the evaluation's sums from here on (a helper's copy has them).
        eval::prepare(&mut board);
        let mut sym = ArrayVec::new();
        if B::GEOMETRY.lines_span_board() {
            sym.push(SymmetricHash::from_board(&board));
        }
        let threat = ThreatSearch::new(&limits);
        Searcher {
            board,
            tt,
            clock: SearchClock::new(&limits),
            limits,
            params: SearchParams::DEFAULT,
            ordering: Ordering::new(&SearchParams::DEFAULT),
            correction: CorrectionHistory::new(&SearchParams::DEFAULT),
            sym,
            nodes: 0,
            seldepth: 0,
            threat,
            root_moves: None,
            best_move_checks: BestMoveChecks::default(),
            multipv: 1,
            excluded: B::EMPTY,
            blocked: B::EMPTY,
            static_evals: Box::new([NO_EVAL; MAX_PLY + 1]),
            singular_excluded: Box::new([None; MAX_PLY]),
            threat_line: None,
            pairing: true,
            heuristic: false,
            pv: Box::new([[Cell::from_index(0); MAX_PLY]; MAX_PLY]),
            pv_len: Box::new([0; MAX_PLY + 1]),
            root_best: 0,
            root_lost: B::EMPTY,
            root_interrupted: None,
            threads: 1,
            helper_nodes: Arc::new([AtomicU64::new(0), AtomicU64::new(0)]),
            level: Level::FULL,
            threat_share: 1.0,
        }
    }

    /// Searches with `threads` threads (clamped to 1..=[`MAX_THREADS`]; 1 by default): the
    /// main one and helpers that run the same iterative deepening on copies of the board, with
    /// nothing shared but the transposition table and a stop flag (lazy SMP). What the
    /// helpers store lets the main thread cut off and order its moves sooner; the move played
    /// is the main thread's unless a helper completed a deeper iteration (and the main
    /// thread proved nothing). Helpers join only gomoku-board searches for one line without a node
    /// limit: the small boards' exact solves and a node-limited search stay reproducible on
    /// one thread. They start at once: while the main thread runs the root threat searches,
    /// they already search every root candidate (the defence filter has not spoken yet), so a
    /// helper's move is played only if the filter kept it.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.clamp(1, MAX_THREADS);
        self
    }

    /// Searches with the tunables `params` (the defaults unless set).
    #[must_use]
    pub fn with_params(mut self, params: SearchParams) -> Self {
        self.set_params(params);
        self
    }

    /// Searches with the tunables `params` from now on: the search's own and those its move
    /// ordering and correction history keep.
    fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        self.ordering.set_params(&params);
        self.correction.set_params(&params);
    }

    /// Turns the pairing-strategy bounds of step 4 on or off (on by default). Off, the small
    /// boards are proven by plain alpha-beta with the table, threats and live-line draws:
    /// slower, but a useful cross-check and baseline.
    #[must_use]
    pub fn with_pairing(mut self, pairing: bool) -> Self {
        self.pairing = pairing;
        self
    }

    /// Searches for the `multipv` best root moves (clamped to 1..=[`MAX_MULTIPV`]; 1 by
    /// default), each with its line: each iteration searches the root once per line, skipping the moves of the
    /// lines before, and reports each line. The result's best move is its first line's (see
    /// [`SearchResult::lines`]).
    #[must_use]
    pub fn with_multipv(mut self, multipv: usize) -> Self {
        self.multipv = multipv.clamp(1, MAX_MULTIPV);
        self
    }

    /// Leaves the root moves in `cells` out (a GUI's `YXBLOCK`): the search does not play
    /// them, nor report them as lines. Ignored if they are every legal move.
    #[must_use]
    pub fn with_blocked(mut self, cells: B) -> Self {
        let legal = self.board.legal_moves();
        self.blocked = if (legal - cells).is_empty() { B::EMPTY } else { cells & legal };
        self
    }

    /// Plays at `level` (see [`crate::strength`]): below full strength, at most its nodes
    /// (and the limits' own), its share of the root's threat searches, and a move drawn among
    /// its lines with a generator seeded by its seed and the position. Call it after
    /// [`Searcher::with_multipv`], which it raises to the strength's count.
    #[must_use]
    pub fn with_level(mut self, level: Level) -> Self {
        let Some(nodes) = level.strength.nodes() else { return self };
        self.limits.nodes = Some(self.limits.nodes.map_or(nodes, |limit| limit.min(nodes)));
        self.clock = SearchClock::new(&self.limits);
        self.multipv = self.multipv.max(level.strength.multipv());
        self.threat_share = level.strength.threat_share();
        self.level = level;
        self
    }

    /// `nodes` of a root threat-search budget, scaled by the strength's share (see
    /// [`Searcher::with_level`]) and by `threat_nodes_percent`.
    fn threat_budget(&self, nodes: u64) -> u64 {
        let percent = f64::from(self.params.threat_nodes_percent) / 100.0;
        (nodes as f64 * self.threat_share * percent) as u64
    }

    /// Runs iterative deepening and returns the best move of the last completed iteration,
    /// or of the iteration a limit cut short if a root move there beat the last best.
    pub fn run(mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let small = B::GEOMETRY.lines_span_board();
        let alone = small || self.multipv > 1 || self.limits.nodes.is_some();
        let no_move = self.board.legal_moves().is_empty();
        let mut result = if alone || self.threads == 1 || no_move {
            self.search_alone(on_info)
        } else {
            self.search_with_helpers(self.threads - 1, on_info)
        };
        let Level { strength, seed } = self.level;
        if !strength.is_full() {
            let mut rng = SplitMix64::new(seed ^ self.board.hash());
            if let Some(cell) = strength.choose(&result.lines, &mut rng) {
                result.best_move = Some(cell);
            }
        }
        result
    }

    /// The search on this thread: the root threat searches (gomoku boards), then the
    /// iterations. Without a legal move (a decided board, or renju's black with only
    /// forbidden points left) there is nothing to search and no move.
    fn search_alone(&mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let empties = self.board.empty_cells().count();
        let small = B::GEOMETRY.lines_span_board();
        let mut result = SearchResult {
            best_move: None,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Default::default(),
            lines: Vec::new(),
            proven: self.board.outcome().is_decided(),
            stopped: false,
            vcf_nodes: 0,
            root_threat_time: Default::default(),
            check_time: Default::default(),
        };
        if self.board.legal_moves().is_empty() {
            return result;
        }
        // Gomoku boards: a win by continuous fours needs no main search.
        if !small && self.root_threat_searches(&mut result, on_info) {
            return result;
        }
        result.best_move = Some(match &self.threat_line {
            Some(line) => line.pv[0],
            None => self.fallback_move(),
        });

        let max_depth =
            self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        // A small board searched without a node or time limit is being solved: shallower
        // iterations would be heuristic work about as costly as the proof, so go straight to
        // full depth.
        let solving = small && self.limits.exhaustive() && max_depth >= empties;
        let first_depth = if solving { empties } else { 1 };
        self.deepen(first_depth..=max_depth, &mut result, on_info);
        result.stopped = self.clock.stopped();
        self.count_nodes(&mut result);
        result.seldepth = self.seldepth as u32;
        result.time = self.clock.elapsed();
        result.check_time = self.best_move_checks.time;
        debug_assert!(result.best_move.is_some_and(|m| self.board.legal_moves().contains(m)));
        result
    }

    /// The iterations of `depths`, each reported to `on_info` and kept in `result`, until a
    /// limit, a proof or the last depth.
    fn deepen(
        &mut self,
        depths: std::ops::RangeInclusive<u32>,
        result: &mut SearchResult,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) {
        let (first_depth, empties) = (*depths.start(), self.board.empty_cells().count());
        let small = B::GEOMETRY.lines_span_board();
        let mut previous: Vec<Score> = Vec::new();
        let (forced, mut stability) = (self.root_is_forced(), Stability::default());
        let (mut depth, last_depth) = depths.into_inner();
        while depth <= last_depth {
            if depth > first_depth && !self.clock.may_start_iteration(&self.params) {
                break;
            }
            self.heuristic = false;
            let (mut lines, complete) = self.iteration(depth, &previous, on_info);
            if lines.is_empty() {
                // Stopped in the first line: a root move that beat the first one there was
                // searched to the full depth, deeper than the last iteration's best. It is
                // reported like a completed line, since it is the move played. If no root
                // move raised alpha but the last iteration's best was proved lost, the move
                // searched when the limit came is played: it is not, so far.
                let replacement = match self.unfinished_line(depth) {
                    Some(line) => (line.pv.first() != result.pv().first()).then_some(line),
                    None => self.unrefuted_line(result),
                };
                if let Some(line) = replacement {
                    on_info(&self.info(line.depth, line.score, &line.pv, None));
                    result.best_move = line.pv.first().copied();
                    result.lines = vec![line];
                }
                break;
            }
            // Lines of the iteration before whose moves this one did not reach keep their place.
            for old in std::mem::take(&mut result.lines) {
                if lines.len() < self.multipv
                    && lines.iter().all(|l| l.pv.first() != old.pv.first())
                {
                    lines.push(old);
                }
            }
            previous = lines.iter().map(|line| line.score).collect();
            let score = lines[0].score;
            result.best_move = lines[0].pv.first().copied().or(result.best_move);
            result.depth = depth;
            result.lines = lines;
            if !complete {
                break;
            }
            if let Some(best) = result.best_move
                && self.refutes_best_move(best, depth, score)
            {
                // The opponent's threat sequence wins after that move: this depth again
                // without it, and until an iteration completes, the first remaining root move
                // in the ordering, with the best estimate at hand.
                let replacement = self.fallback_move();
                result.best_move = Some(replacement);
                result.lines = vec![PvLine { depth, score, pv: vec![replacement] }];
                let stretch = stability.stretch_after(replacement, score, forced, &self.params);
                self.clock.set_stretch(stretch);
                continue;
            }
            if let Some(best) = result.best_move {
                self.clock.set_stretch(stability.stretch_after(best, score, forced, &self.params));
            }
            // Every line counts: a search for several lines goes on while one is unsettled.
            let decisive = result.lines.iter().all(|line| is_decisive(line.score));
            result.proven = small && (depth >= empties || decisive || !self.heuristic);
            // A win or loss seen within the full-width horizon does not change with depth.
            let mate_within_horizon = result.lines.iter().all(|line| {
                score::mate_plies(line.score).is_some_and(|n| n.unsigned_abs() <= depth)
            });
            if result.proven || mate_within_horizon {
                break;
            }
            depth += 1;
        }
    }

    /// The moves searched in a position without a five to block, but `excluded`: the
    /// candidates near the stones; against an open three only its defences and our own
    /// fours; and at the `root` only those that survive the opponent's threat sequences
    /// (the defence filter), unless none does.
    fn candidates(&self, excluded: B, root: bool) -> B {
        let mut candidates = movegen::candidates(&self.board) - excluded;
        if let Some(defences) = threats::defences_against_three(&self.board, candidates)
            && !defences.is_empty()
        {
            candidates = defences;
        }
        if root
            && let Some(safe) = self.root_moves
            && !(candidates & safe).is_empty()
        {
            candidates &= safe;
        }
        candidates
    }

    /// One iteration: the root searched once per line, each time without the root moves of
    /// the lines before, each line reported as it completes. Returns the completed lines,
    /// best score first (search instability can make a later line score higher), and
    /// whether the iteration completed (false: a limit stopped it). Fewer lines when no
    /// move is left to search.
    fn iteration(
        &mut self,
        depth: u32,
        previous: &[Score],
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<PvLine>, bool) {
        let mut lines: Vec<PvLine> = self.threat_line.iter().cloned().collect();
        let mut complete = true;
        self.root_lost = B::EMPTY;
        self.excluded = lines.iter().fold(self.blocked, |set, line| set.with(line.pv[0]));
        for index in lines.len()..self.multipv {
            let score = self.aspiration(depth, previous.get(index).copied().unwrap_or(0));
            if self.clock.stopped() {
                complete = false;
                break;
            }
            let mut pv: Vec<Cell> = self.pv[0][..self.pv_len[0]].to_vec();
            if index > 0 && pv.is_empty() {
                break;
            }
            if pv.is_empty() {
                // No root move rose above losing at once (every stop of the opponent's
                // five is blocked or forbidden): the line is the move played instead.
                pv.push(self.fallback_move());
            }
            self.extend_line(&mut pv, depth as usize);
            on_info(&self.info(depth, score, &pv, (self.multipv > 1).then_some(index + 1)));
            let root_move = pv.first().copied();
            lines.push(PvLine { depth, score, pv });
            match root_move {
                Some(cell) => self.excluded = self.excluded.with(cell),
                None => break,
            }
        }
        self.excluded = B::EMPTY;
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        (lines, complete)
    }

    /// After a stop in the first line of an iteration (one line searched): the root move
    /// that raised alpha last, if some move did, with its full-depth score and variation.
    /// The first root move (the last iteration's best) only raises alpha if it scored inside
    /// the aspiration window; a later one only after its full-window re-search completed,
    /// so it is better than the first. `None` for multi-PV searches, whose other lines it
    /// would lose.
    fn unfinished_line(&self, depth: u32) -> Option<PvLine> {
        let pv = &self.pv[0][..self.pv_len[0]];
        (self.multipv == 1 && self.clock.stopped() && !pv.is_empty()).then(|| PvLine {
            depth,
            score: self.root_best,
            pv: pv.to_vec(),
        })
    }

    /// After a stop in the first line of an iteration in which no root move raised alpha:
    /// if that iteration proved the move of `result` (the last completed iteration's) lost,
    /// the root move under search when the limit came, when it is not proved lost too. Its
    /// line is that move alone, with the last completed iteration's depth and score, the
    /// best estimate left: that iteration searched it only against a bound. `None` for
    /// multi-PV searches.
    fn unrefuted_line(&self, result: &SearchResult) -> Option<PvLine> {
        let best = result.best_move?;
        let interrupted = self.root_interrupted?;
        (self.multipv == 1
            && self.root_lost.contains(best)
            && !self.root_lost.contains(interrupted))
        .then(|| PvLine { depth: result.depth, score: result.score(), pv: vec![interrupted] })
    }

    /// The static evaluation with the correction history's adjustment (the shallow prunings
    /// and the leaves use it), still short of a proof's score. Only gomoku-board nodes update the
    /// history, so on the small boards this is the evaluation itself.
    #[inline]
    fn corrected_eval(&self) -> Score {
        let corrected = eval::evaluate(&self.board) + self.correction.correction(&self.board);
        corrected.clamp(-MAX_EVAL, MAX_EVAL)
    }

    fn info(&self, depth: u32, score: Score, pv: &[Cell], line: Option<usize>) -> SearchInfo {
        let time = self.clock.elapsed();
        let nodes = self.nodes + self.helper_nodes[0].load(AtomicOrdering::Relaxed);
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            score,
            nodes,
            nps: crate::report::nodes_per_second(nodes, time),
            time,
            pv: pv.to_vec(),
            line,
        }
    }

    /// One iteration, with a window around `previous` that widens until the score is inside.
    fn aspiration(&mut self, depth: u32, previous: Score) -> Score {
        if depth < self.params.aspiration_min_depth as u32 || is_decisive(previous) {
            return self.pvs(depth as i32, 0, -INFINITY, INFINITY, false);
        }
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.pvs(depth as i32, 0, alpha, beta, false);
            if self.clock.stopped() {
                return score;
            }
            // Widening below, the window stops at the losses first: a move then fails low
            // as soon as it is lost, however slowly, and a move that is not lost fails high.
            // Only when every root move is lost (a fail-soft loss) does the window open down
            // to find the slowest loss. (A root with no move to search, as a multi-PV line
            // may be, scores -INFINITY: at the window's edge there is nothing left to widen.)
            if score <= alpha && alpha > -INFINITY {
                alpha =
                    if score <= -MATE_BOUND { -INFINITY } else { (alpha - delta).max(-MATE_BOUND) };
            } else if score >= beta && beta < INFINITY {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 4;
            if delta > 2_000 {
                (alpha, beta) = (alpha.min(-MATE_BOUND), INFINITY);
            }
        }
    }

    /// The transposition-table key of the current position and the symmetry that maps it to
    /// its canonical image (identity on the gomoku boards).
    #[inline]
    fn key(&self) -> (u64, Symmetry) {
        match self.sym.last() {
            Some(sym) => sym.canonical(),
            None => (self.board.hash(), Symmetry::Identity),
        }
    }

    /// Plays `cell` in the search; `leaf_child`: the child will be a leaf (searched with
    /// depth 0 or less).
    #[inline]
    fn make(&mut self, cell: Cell, leaf_child: bool) -> Outcome {
        if let Some(&top) = self.sym.last() {
            let mut next = top;
            next.toggle::<B>(self.board.side_to_move(), cell);
            self.sym.push(next);
        } else {
            // Gomoku boards: the child's table key is its hash; its bucket loads during the
            // make, and so does, for a leaf, the solver's slot that its VCF probes first.
            let hash = self.board.hash_after(cell);
            self.tt.prefetch(hash);
            if leaf_child {
                self.threat.prefetch_leaf(hash);
            }
        }
        let outcome = self.board.play_unchecked(cell);
        debug_assert!(self.sym.last().is_none_or(|s| *s == SymmetricHash::from_board(&self.board)));
        outcome
    }

    #[inline]
    fn unmake(&mut self) {
        self.board.undo_unchecked();
        if !self.sym.is_empty() {
            self.sym.pop();
        }
    }

    /// `pv` carried on by the table's best moves where the search's own line ends short of
    /// `depth` plies (at least [`SHOWN_LINE_PLIES`]): a table cutoff — the second search of a
    /// position, a proof found before — ends the search's line there. For people reading the
    /// line; the search plays only its first move. Legal moves only, to the game's end.
    fn extend_line(&mut self, pv: &mut Vec<Cell>, depth: usize) {
        let goal = depth.clamp(SHOWN_LINE_PLIES, MAX_PLY);
        let mut played = 0;
        let mut ongoing = true;
        for &cell in pv.iter() {
            if !self.board.empty_cells().contains(cell) {
                ongoing = false;
                break;
            }
            played += 1;
            if self.make(cell, false) != Outcome::Ongoing {
                ongoing = false;
                break;
            }
        }
        while ongoing && pv.len() < goal {
            let (key, sym) = self.key();
            let Some(cell) = self
                .tt
                .probe(key)
                .and_then(|entry| entry.best_move)
                .map(|cell| B::GEOMETRY.transform(sym.inverse(), cell))
                .filter(|&cell| self.board.empty_cells().contains(cell))
                .filter(|&cell| {
                    self.board.without_forbidden(B::from_cell(cell)) == B::from_cell(cell)
                })
            else {
                break;
            };
            pv.push(cell);
            played += 1;
            ongoing = self.make(cell, false) == Outcome::Ongoing;
        }
        for _ in 0..played {
            self.unmake();
        }
    }

    fn set_pv(&mut self, ply: usize, cell: Cell) {
        self.pv[ply][ply] = cell;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

#[cfg(test)]
mod tests;
