//! Iterative-deepening principal-variation search (negamax alpha-beta) with a
//! transposition table.
//!
//! ```text
//! run ── iterative deepening: depth 1, 2, ... until a limit, a proof, or max depth
//!   └─ aspiration window around the last score (widened on failure)
//!        └─ pvs(depth, ply, alpha, beta), numbered steps:
//!             1. mate-distance pruning
//!             2. immediate win (a cell completing a line)           → win now
//!             3. opponent fives: none can be stopped (two, or caro) → lost
//!             4. small boards: live-line / pairing-strategy bounds   → draw bounds
//!             5. transposition table: cutoff, or a move to try first
//!             6. depth exhausted, no five threatened                 → VCF, else evaluation
//!                (on 15×15 corrected by the correction history, as in the shallow prunings)
//!             7. moves: the single block if the opponent threatens (no depth spent),
//!                else the candidates, ordered (TT move, killers, history, cell priority)
//!             8. PVS loop: first move full window, others null window (late quiet moves
//!                on 15×15 reduced by a ply first, or at shallow null-window nodes skipped
//!                if they make or stop no three or four), re-search on success
//!             9. store the result in the transposition table, and on 15×15 what the
//!                evaluation missed in the correction history
//! ```
//!
//! Scores are from the side to move; see [`score`]. On the small boards the TT key is the
//! symmetry-canonical hash, so the 8 images of a position share an entry; a search of depth ≥
//! the number of empty cells is exact there, and such results are stored as proven.
//!
//! The search never prints: progress goes to a callback as [`SearchInfo`].

pub mod limits;
pub mod report;
pub mod score;

mod correction;
mod ordering;
mod symmetry;
pub mod threats;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::bitboard::Bitboard;
use crate::board::{Board, Color, Outcome};
use crate::eval;
use crate::geometry::{Cell, Symmetry};
use crate::movegen;
use crate::pattern::Pattern;
use crate::pattern::keys::{LineState, ThreatKind};
use crate::solve;
use crate::tt::{Bound, PROVEN_DEPTH, TranspositionTable, TtEntry, score_from_tt, score_to_tt};

pub use limits::SearchLimits;
pub use report::{PvLine, SearchInfo, SearchResult};

use correction::CorrectionHistory;
use limits::{Stability, StopCheck};
use ordering::{MovePicker, Ordering};
use score::{INFINITY, MATE_BOUND, MAX_EVAL, MAX_PLY, Score, is_decisive, loss_in, win_in};
use symmetry::SymmetricHash;
use threats::{ThreatSearch, Threats};

/// Half-width of the first aspiration window, in evaluation units.
pub const ASPIRATION_WINDOW: Score = 40;
/// Depth from which iterations use an aspiration window.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Late-move reductions: from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... moves from this index in the ordering are first searched shallower: by one ply if
/// they make or stop a three or a four, else by [`lmr_reduction`] plies.
pub const LMR_MIN_INDEX: usize = 4;
/// Divides `ln(depth) · ln(index)` in [`lmr_reduction`] (smaller: deeper reductions).
pub const LMR_DIVISOR: f64 = 1.8;

/// How many plies a late quiet move's first search is reduced by: one, more for later moves
/// at greater depths (the product of their logarithms), one less at PV nodes (at least one).
fn lmr_reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    let r = usize::try_from(depth)
        .ok()
        .and_then(|d| LMR_TABLE.get(d))
        .and_then(|row| row.get(index))
        .map_or_else(|| lmr_base_reduction(depth, index), |&r| i32::from(r));
    (r - i32::from(pv_node)).max(1)
}

/// `ln(depth) · ln(index) / LMR_DIVISOR`, rounded down: the reduction before the PV node's
/// ply and the floor of one.
fn lmr_base_reduction(depth: i32, index: usize) -> i32 {
    (f64::from(depth).ln() * (index as f64).ln() / LMR_DIVISOR) as i32
}

/// [`lmr_base_reduction`] for every depth below 64 and move index below 256 (a 15×15 board
/// has 225 cells), computed once: the two logarithms cost more than the rest of a late
/// move's bookkeeping. Other arguments fall back to the formula.
static LMR_TABLE: LazyLock<Box<[[u8; 256]; 64]>> = LazyLock::new(|| {
    let mut table = Box::new([[0u8; 256]; 64]);
    for (depth, row) in (0i32..).zip(table.iter_mut()) {
        for (index, r) in row.iter_mut().enumerate() {
            *r = u8::try_from(lmr_base_reduction(depth, index).max(0)).unwrap_or(u8::MAX);
        }
    }
    table
});

/// Late-move pruning: at null-window nodes with at most this much depth left ...
pub const LMP_MAX_DEPTH: i32 = 4;
/// ... moves after the first `LMP_BASE + LMP_SCALE · depth²` that make or stop no three or
/// four (for either side) are not searched.
pub const LMP_BASE: usize = 3;
/// See [`LMP_BASE`].
pub const LMP_SCALE: usize = 2;

/// Internal iterative reduction: the depth left from which [`internal_reduction`] applies.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Internal iterative reduction (15×15, below the root): a node the table knows no move for
/// is searched a ply shallower once [`IIR_MIN_DEPTH`] plies are left. With no move from an
/// earlier search, the ordering is a guess and the node was probably not on a line worth
/// searching before; its re-search in the next iteration has the move and the full depth.
fn internal_reduction(depth: i32, tt_move: Option<Cell>) -> i32 {
    if tt_move.is_none() && depth >= IIR_MIN_DEPTH { depth - 1 } else { depth }
}

/// Singular extension (15×15, below the root): from this remaining depth ...
pub const SE_MIN_DEPTH: i32 = 6;
/// ... a table move whose lower bound (or exact score) comes from at most this many plies
/// shallower ...
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// ... is searched a ply deeper when every other move, searched to half the depth, stays
/// this much per ply of depth below its score (see [`singular_beta`]).
pub const SE_MARGIN: Score = 4;

/// Singular extension (15×15, below the root): the null window's upper edge that every move
/// but the table move is tested against, searched to half the depth, or `None` where the test
/// does not apply — the table's score must be a lower bound (or exact), from a search at most
/// [`SE_TT_DEPTH_SLACK`] plies shallower, and no proven win or loss. If they all stay below
/// it, the table move is searched a ply deeper.
fn singular_beta(depth: i32, entry: &TtEntry, ply: usize) -> Option<Score> {
    let score = score_from_tt(entry.score, ply);
    (depth >= SE_MIN_DEPTH
        && entry.bound != Bound::Upper
        && i32::from(entry.depth) >= depth - SE_TT_DEPTH_SLACK
        && !is_decisive(score))
    .then(|| score - SE_MARGIN * depth)
}

/// Reverse futility pruning: at null-window nodes with at most this much depth left ...
pub const RFP_MAX_DEPTH: i32 = 3;
/// ... where the opponent cannot make an open four, a static evaluation this much per ply
/// of depth above beta ends the node.
pub const RFP_MARGIN: Score = 40;
/// Razoring: at null-window nodes with at most this much depth left ...
pub const RAZOR_MAX_DEPTH: i32 = 2;
/// ... where neither side can make an open four, a static evaluation this much per ply of
/// depth below alpha has the node searched as a leaf, which ends it if it fails low there.
pub const RAZOR_MARGIN: Score = 200;
/// VCF nodes allowed at the root, before the main search.
pub const ROOT_VCF_NODES: u64 = 20_000;
/// Attacking fours the root VCF may chain.
pub const ROOT_VCF_FOURS: u32 = 24;
/// VCF nodes allowed at each leaf of the main search.
pub const LEAF_VCF_NODES: u64 = 12;
/// Attacking fours a leaf VCF may chain.
pub const LEAF_VCF_FOURS: u32 = 6;
/// VCT nodes allowed for the side to move's own attack at the root.
pub const ROOT_VCT_NODES: u64 = 300_000;
/// VCT nodes allowed per root move when checking the opponent's threats after it (and for the
/// check with a free move that comes first).
pub const DEFENCE_VCT_NODES: u64 = 20_000;
/// The most root moves the defence filter searches again with more nodes (see
/// `Searcher::safe_root_moves`) ...
pub const DEFENCE_DEEPER_MOVES: usize = 4;
/// ... and the most VCT nodes one of them may get.
pub const DEFENCE_VCT_MAX_NODES: u64 = 1_280_000;
/// Threats (fours and threes) a VCT may chain.
pub const VCT_THREATS: u32 = 12;
/// Share of the time budget the root threat searches may use before the main search.
pub const THREAT_TIME_FRACTION: f64 = 0.3;

/// The deadline of one of `remaining` solves (this one included) that share the time from
/// `now` until `end` equally: each gets what the ones before left over, divided evenly. Once
/// `end` has passed, `now` (such a solve stops at its first look at the clock).
fn slice_deadline(now: Instant, end: Instant, remaining: usize) -> Instant {
    let share = u32::try_from(remaining.max(1)).unwrap_or(u32::MAX);
    now + end.saturating_duration_since(now) / share
}

/// Most lines a multi-PV search reports (see [`Searcher::with_lines`]).
pub const MAX_LINES: usize = 32;
/// Most threads a search runs (see [`Searcher::with_threads`]).
pub const MAX_THREADS: usize = 64;
/// Stack of each helper thread of a parallel search: the main search's recursion, with room
/// to spare (the frames of a 15×15 line of [`MAX_PLY`] plies take a few MiB at most).
pub const HELPER_STACK_BYTES: usize = 16 << 20;

/// Searches `board` within `limits`, reporting each completed iteration to `on_info`.
pub fn search<B: Bitboard>(
    board: &Board<B>,
    tt: &mut TranspositionTable,
    limits: SearchLimits,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(board.clone(), tt, limits).run(on_info)
}

/// One search: the board it changes in place, its table, its limits and its statistics.
pub struct Searcher<'t, B: Bitboard> {
    board: Board<B>,
    /// Shared with the helper threads, if any (its probes and stores take `&self`).
    tt: &'t TranspositionTable,
    limits: SearchLimits,
    check: StopCheck,
    ordering: Ordering,
    /// What the static evaluation missed so far, by the last two moves (15×15).
    correction: CorrectionHistory,
    /// Symmetric hashes along the current line (small boards only).
    sym: ArrayVec<SymmetricHash, { MAX_PLY + 1 }>,
    nodes: u64,
    seldepth: usize,
    /// The threat-sequence solver (VCF and VCT) and its own node count.
    threat: ThreatSearch,
    /// Root moves the main search may play (15×15 after the threat checks).
    root_moves: Option<B>,
    /// Lines (best root moves) each iteration finds, 1..=`MAX_LINES`.
    lines: usize,
    /// Root moves of the lines already found in this iteration, which the next line skips.
    excluded: B,
    /// Per ply, the table move a singular-extension test searches the node without.
    singular_excluded: Box<[Option<Cell>; MAX_PLY]>,
    /// Multi-PV on 15×15: the root move a threat sequence proved to win before the main
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
}

impl<'t, B: Bitboard> Searcher<'t, B> {
    /// Prepares a search of `board`; entries `tt` holds from earlier searches age by one.
    pub fn new(board: Board<B>, tt: &'t mut TranspositionTable, limits: SearchLimits) -> Self {
        tt.new_search();
        Searcher::sharing(board, tt, limits)
    }

    /// A search of `board` with a table other searches may be using at the same time.
    fn sharing(board: Board<B>, tt: &'t TranspositionTable, limits: SearchLimits) -> Self {
        let mut sym = ArrayVec::new();
        if B::GEOMETRY.lines_span_board() {
            sym.push(SymmetricHash::from_board(&board));
        }
        let stop = limits.stop.clone();
        Searcher {
            board,
            tt,
            check: StopCheck::new(&limits),
            limits,
            ordering: Ordering::new(),
            correction: CorrectionHistory::new(),
            sym,
            nodes: 0,
            seldepth: 0,
            threat: ThreatSearch::new(stop),
            root_moves: None,
            lines: 1,
            excluded: B::EMPTY,
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
        }
    }

    /// Searches with `threads` threads (clamped to 1..=[`MAX_THREADS`]; 1 by default): the
    /// main one and helpers that run the same iterative deepening on copies of the board, with
    /// nothing shared but the transposition table and a stop flag (lazy SMP). What the
    /// helpers store lets the main thread cut off and order its moves sooner; the move played
    /// is the main thread's unless a helper completed a deeper iteration (and the main
    /// thread proved nothing). Helpers join only 15×15 searches for one line without a node
    /// limit: the small boards' exact solves and a node-limited search stay reproducible on
    /// one thread. They start at once: while the main thread runs the root threat searches,
    /// they already search every root candidate (the defence filter has not spoken yet), so a
    /// helper's move is played only if the filter kept it.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.clamp(1, MAX_THREADS);
        self
    }

    /// Turns the pairing-strategy bounds of step 4 on or off (on by default). Off, the small
    /// boards are proven by plain alpha-beta with the table, threats and live-line draws:
    /// slower, but a useful cross-check and baseline.
    #[must_use]
    pub fn with_pairing(mut self, pairing: bool) -> Self {
        self.pairing = pairing;
        self
    }

    /// Searches for the best `lines` root moves (multi-PV; clamped to 1..=[`MAX_LINES`]; 1 by
    /// default): each iteration searches the root once per line, skipping the moves of the
    /// lines before, and reports each line. The result's best move is its first line's (see
    /// [`SearchResult::lines`]).
    #[must_use]
    pub fn with_lines(mut self, lines: usize) -> Self {
        self.lines = lines.clamp(1, MAX_LINES);
        self
    }

    /// Runs iterative deepening and returns the best move of the last completed iteration,
    /// or of the iteration a limit cut short if a root move there beat the last best.
    pub fn run(mut self, on_info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let small = B::GEOMETRY.lines_span_board();
        let alone = small || self.lines > 1 || self.limits.nodes.is_some();
        if alone || self.threads == 1 || self.board.outcome().is_decided() {
            self.search_alone(on_info)
        } else {
            self.search_with_helpers(self.threads - 1, on_info)
        }
    }

    /// The search on this thread: the root threat searches (15×15), then the iterations.
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
        };
        if self.board.outcome().is_decided() {
            return result;
        }
        // 15×15: a win by continuous fours needs no main search.
        if !small {
            let mut first = None;
            let (board, threat) = (&mut self.board, &mut self.threat);
            let vcf_budget = (ROOT_VCF_NODES, self.check.deadline_at(THREAT_TIME_FRACTION / 3.0));
            let mut win =
                threat.solve(board, Threats::Fours, ROOT_VCF_FOURS, vcf_budget, &mut first);
            if win.is_none() && !self.check.spent(THREAT_TIME_FRACTION / 3.0) {
                let vct_budget =
                    (ROOT_VCT_NODES, self.check.deadline_at(THREAT_TIME_FRACTION / 2.0));
                win = threat.solve(
                    board,
                    Threats::FoursAndThrees,
                    VCT_THREATS,
                    vct_budget,
                    &mut first,
                );
            }
            if let Some(plies) = win {
                let best = first.expect("a threat sequence starts with a move");
                let line = PvLine { depth: 1, score: win_in(plies), pv: vec![best] };
                on_info(&self.info(1, line.score, &line.pv, (self.lines > 1).then_some(1)));
                result.best_move = Some(best);
                result.depth = 1;
                result.lines = vec![line.clone()];
                result.vcf_nodes = self.threat.nodes;
                result.time = self.check.elapsed();
                result.root_threat_time = result.time;
                if self.lines == 1 {
                    return result;
                }
                // Several lines: the win is one; the main search looks for the others.
                self.threat_line = Some(line);
            }
            self.root_moves = self.safe_root_moves();
            result.root_threat_time = self.check.elapsed();
        }
        result.best_move = Some(match &self.threat_line {
            Some(line) => line.pv[0],
            None => self.fallback_move(),
        });

        let max_depth =
            self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        // A small board searched without any limit is being solved: shallower iterations
        // would be heuristic work about as costly as the proof, so go straight to full depth.
        let unlimited =
            self.limits.time.is_none() && self.limits.nodes.is_none() && self.limits.stop.is_none();
        let first_depth = if small && unlimited && max_depth >= empties { empties } else { 1 };
        self.deepen(first_depth..=max_depth, &mut result, on_info);
        result.stopped = self.check.stopped();
        self.count_nodes(&mut result);
        result.seldepth = self.seldepth as u32;
        result.time = self.check.elapsed();
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
        for depth in depths {
            if depth > first_depth && !self.check.may_start_iteration() {
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
                if lines.len() < self.lines && lines.iter().all(|l| l.pv.first() != old.pv.first())
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
            if let Some(best) = result.best_move {
                self.check.set_stretch(stability.stretch_after(best, score, forced));
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
        }
    }

    /// [`Searcher::search_alone`] on this thread while `helpers` more threads search the same root
    /// (see [`Searcher::with_threads`]) from the start until this thread is done. A helper
    /// that cannot be started is done without.
    fn search_with_helpers(
        &mut self,
        helpers: usize,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let stop = Arc::new(AtomicBool::new(false));
        let last = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let limits = SearchLimits {
            depth: Some(last),
            nodes: None,
            time: self.limits.time,
            target: self.limits.target,
            stop: Some(Arc::clone(&stop)),
        };
        let tt = self.tt;
        std::thread::scope(|scope| {
            let mut running = Vec::new();
            for id in 1..=helpers {
                let mut helper = Searcher::sharing(self.board.clone(), tt, limits.clone());
                helper.helper_nodes = Arc::clone(&self.helper_nodes);
                // Every other helper starts a ply deeper, so the threads spread over depths.
                let first = (1 + (id % 2) as u32).min(last);
                let thread = std::thread::Builder::new()
                    .name(format!("helper {id}"))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || helper.help(first..=last));
                match thread {
                    Ok(handle) => running.push(handle),
                    Err(_) => break,
                }
            }
            let mut result = self.search_alone(on_info);
            stop.store(true, AtomicOrdering::Relaxed);
            let deepest = running
                .into_iter()
                .filter_map(|handle| handle.join().expect("helper threads do not panic"))
                .max_by_key(|line| line.depth);
            // A helper that completed a deeper iteration than this thread has the better
            // move, if the defence filter kept it (and unless this thread's result is already
            // a proof: a win found by the root threat search ends it at depth 1).
            if let Some(line) = deepest
                && line.depth > result.depth
                && !is_decisive(result.score())
                && self.root_moves.is_none_or(|safe| safe.contains(line.pv[0]))
            {
                on_info(&self.info(line.depth, line.score, &line.pv, None));
                result.best_move = Some(line.pv[0]);
                result.depth = line.depth;
                result.lines = vec![line];
            }
            // (The helpers' last counts come in as they end.)
            self.count_nodes(&mut result);
            result
        })
    }

    /// Puts this thread's node counts, with those the helpers have added so far, into
    /// `result`.
    fn count_nodes(&self, result: &mut SearchResult) {
        let [helper_nodes, helper_vcf_nodes] = self.helper_nodes.as_ref();
        result.nodes = self.nodes + helper_nodes.load(AtomicOrdering::Relaxed);
        result.vcf_nodes = self.threat.nodes + helper_vcf_nodes.load(AtomicOrdering::Relaxed);
    }

    /// A helper thread's search: iterative deepening over `depths` of the root as it is,
    /// until the stop flag, the clock or the last depth. It reports nothing but its node
    /// counts as it goes, and returns its last completed iteration's line.
    fn help(mut self, depths: std::ops::RangeInclusive<u32>) -> Option<PvLine> {
        let mut previous = 0;
        let mut published = [0, 0];
        let mut completed = None;
        for depth in depths {
            let score = self.aspiration(depth, previous);
            for (i, count) in [self.nodes, self.threat.nodes].into_iter().enumerate() {
                self.helper_nodes[i].fetch_add(count - published[i], AtomicOrdering::Relaxed);
                published[i] = count;
            }
            if self.check.stopped() {
                break;
            }
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            if !pv.is_empty() {
                completed = Some(PvLine { depth, score, pv });
            }
            previous = score;
        }
        completed
    }

    /// 15×15: if the opponent could make an open three or better with its next stone, the
    /// root moves after which it has no winning threat sequence (VCT), as far as the solver
    /// can tell within its budget; `None` when there is no such threat, nothing is safe, or
    /// time is short.
    ///
    /// First the opponent's VCT is run as if the side to move passed, with
    /// [`DEFENCE_VCT_NODES`]: if it finds no win even with that free move, no candidate is
    /// checked. Otherwise every candidate gets [`DEFENCE_VCT_NODES`] — and, with a time limit,
    /// an equal share of the time left until the root threat searches' share
    /// ([`THREAT_TIME_FRACTION`]) is spent, so that a short turn checks every candidate with
    /// fewer nodes rather than the first few with all of them (a solve cut short refutes
    /// nothing), while a long one, where every solve fits, loses none. If that refutes some
    /// but leaves a few (two to [`DEFENCE_DEEPER_MOVES`]), the opponent has real threats and a
    /// longer solve may refute more: the survivors are searched again with four times the
    /// nodes, up to [`DEFENCE_VCT_MAX_NODES`], while two or more survive. A round that refutes
    /// them all changes nothing (every move loses to some threat sequence; the main search chooses
    /// among the last survivors).
    fn safe_root_moves(&mut self) -> Option<B> {
        let me = self.board.side_to_move();
        let them = me.opponent();
        let candidates = movegen::candidates(&self.board);
        let lines = self.board.lines();
        let opponent_threatens = candidates.iter().any(|c| {
            lines
                .cell_patterns(c, them)
                .is_some_and(|p| p.iter().any(|&q| q >= Pattern::F3 && q != Pattern::Overline))
        });
        // A free move is worth at least as much to the opponent as any root move of ours (our
        // stone only takes a cell from its lines), so if the solver finds no win for it even
        // with one, the first round would find none after a root move either. (Under renju a
        // black stone can also make a black defence forbidden; this overlooks that.)
        if !opponent_threatens || !self.opponent_wins_with_a_free_move(DEFENCE_VCT_NODES) {
            return None;
        }
        // The free move's win guides the solves after each root move (see `Hints`).
        let safe = self.refute_root_moves(candidates);
        self.threat.forget_hints();
        safe
    }

    /// [`Searcher::safe_root_moves`] once the opponent is known to win with a free move.
    fn refute_root_moves(&mut self, candidates: B) -> Option<B> {
        let ordered = self.ordering.order(&self.board, candidates, 0, None);
        let (mut safe, refuted) =
            self.refuted_among(ordered.iter().copied(), DEFENCE_VCT_NODES, true);
        if (safe | refuted) != candidates {
            // Out of time: keep what was proven safe, or give up the filter.
            return (!safe.is_empty()).then_some(safe);
        }
        // Two or more survivors, but few, and at least one move refuted.
        let few = 2..=DEFENCE_DEEPER_MOVES.min(ordered.len().saturating_sub(1));
        let mut nodes = DEFENCE_VCT_NODES;
        while few.contains(&(safe.count() as usize))
            && nodes < DEFENCE_VCT_MAX_NODES
            && !self.check.spent(THREAT_TIME_FRACTION)
        {
            nodes *= 4;
            // (Moves the clock left unchecked stay.)
            let still_safe = safe.without(self.refuted_among(safe.iter(), nodes, false).1);
            if still_safe.is_empty() {
                break;
            }
            safe = still_safe;
        }
        (!safe.is_empty()).then_some(safe)
    }

    /// The defence filter's pass over `cells`, in their order, with `nodes` per opponent VCT:
    /// the cells it keeps and those it refutes (see [`Searcher::opponent_wins_after`]). Each
    /// solve may run until the root threat searches' share of the time is spent, or with
    /// `share_time`, only for an equal share of the time left until then (see
    /// [`slice_deadline`]). Stops when that share is spent: the cells not reached are in
    /// neither set.
    fn refuted_among(
        &mut self,
        cells: impl ExactSizeIterator<Item = Cell>,
        nodes: u64,
        share_time: bool,
    ) -> (B, B) {
        let (mut kept, mut refuted) = (B::EMPTY, B::EMPTY);
        let threat_deadline = self.check.deadline_at(THREAT_TIME_FRACTION);
        let count = cells.len();
        for (index, cell) in cells.enumerate() {
            if self.check.spent(THREAT_TIME_FRACTION) {
                break;
            }
            let deadline = match threat_deadline {
                Some(end) if share_time => Some(slice_deadline(Instant::now(), end, count - index)),
                _ => threat_deadline,
            };
            if self.opponent_wins_after(cell, nodes, deadline) {
                refuted = refuted.with(cell);
            } else {
                kept = kept.with(cell);
            }
        }
        (kept, refuted)
    }

    /// Whether the opponent's VCT, with `nodes` and `deadline`, wins after the side to move
    /// plays `cell` (see [`Searcher::safe_root_moves`]).
    fn opponent_wins_after(&mut self, cell: Cell, nodes: u64, deadline: Option<Instant>) -> bool {
        // The positions after `cell` differ from those after a pass by the pass and `cell`.
        let delta = crate::zobrist::key(self.board.side_to_move(), cell) ^ crate::zobrist::PASS;
        let refuted = match self.board.play_unchecked(cell) {
            Outcome::Ongoing => self.vct(nodes, deadline, Some(delta)).is_some(),
            _ => false,
        };
        self.board.undo_unchecked();
        refuted
    }

    /// Whether the opponent's VCT, with `nodes` and the root threat searches' deadline, wins
    /// if the side to move passes; if it does, the solver keeps the win as hints for the
    /// defence filter's solves (see `Hints`).
    fn opponent_wins_with_a_free_move(&mut self, nodes: u64) -> bool {
        self.board.pass();
        let win = self.vct(nodes, self.check.deadline_at(THREAT_TIME_FRACTION), None);
        self.board.undo_pass();
        if let Some(plies) = win {
            self.threat.learn_hints(plies);
        }
        win.is_some()
    }

    /// Plies to the side to move's VCT win within `nodes` and `deadline`, if it finds one;
    /// with `hint_delta`, guided by the solver's hints (see `ThreatSearch::solve_guided`).
    fn vct(
        &mut self,
        nodes: u64,
        deadline: Option<Instant>,
        hint_delta: Option<u64>,
    ) -> Option<usize> {
        let (mut first, threats) = (None, Threats::FoursAndThrees);
        let (board, budget) = (&mut self.board, (nodes, deadline));
        self.threat.solve_guided(board, threats, VCT_THREATS, budget, hint_delta, &mut first)
    }

    /// A legal move to play if no iteration completes: a win now, else the block of the
    /// opponent's threat, else the first of the root's candidates (see
    /// [`Searcher::candidates`]) in the static ordering.
    fn fallback_move(&mut self) -> Cell {
        let color = self.board.side_to_move();
        let own_wins = self.board.winning_cells(color);
        // The stones that stop the opponent's fives, or its fives if none does.
        let fives = self.board.winning_cells(color.opponent());
        let threats = match threats::five_blocks(&mut self.board, color.opponent(), fives) {
            blocks if blocks.is_empty() => fives,
            blocks => blocks,
        } & self.board.legal_moves();
        own_wins
            .lowest()
            .or_else(|| threats.lowest())
            .or_else(|| {
                let candidates = self.candidates(B::EMPTY, true);
                self.ordering.order(&self.board, candidates, 0, None).first().copied()
            })
            .expect("an undecided board has an empty cell")
    }

    /// Whether the root has a single move to search: the one block of a five the opponent
    /// threatens (the search finds an own five first; two fives are lost anyway), or a
    /// single candidate.
    fn root_is_forced(&mut self) -> bool {
        let color = self.board.side_to_move();
        if !self.board.winning_cells(color).is_empty() {
            return false;
        }
        let fives = self.board.winning_cells(color.opponent());
        if fives.is_empty() {
            return self.candidates(B::EMPTY, true).count() == 1;
        }
        threats::five_blocks(&mut self.board, color.opponent(), fives).count() <= 1
    }

    /// The moves searched in a position without a five to block, but `excluded`: the
    /// candidates near the stones; against an open three only its defences and our own
    /// fours; and at the `root` only those that survive the opponent's threat sequences
    /// (the defence filter), unless none does.
    fn candidates(&self, excluded: B, root: bool) -> B {
        let mut candidates = movegen::candidates(&self.board).without(excluded);
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
        self.excluded = lines.iter().fold(B::EMPTY, |set, line| set.with(line.pv[0]));
        for index in lines.len()..self.lines {
            let score = self.aspiration(depth, previous.get(index).copied().unwrap_or(0));
            if self.check.stopped() {
                complete = false;
                break;
            }
            let pv: Vec<Cell> = self.pv[0][..self.pv_len[0]].to_vec();
            if index > 0 && pv.is_empty() {
                break;
            }
            on_info(&self.info(depth, score, &pv, (self.lines > 1).then_some(index + 1)));
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
        (self.lines == 1 && self.check.stopped() && !pv.is_empty()).then(|| PvLine {
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
        (self.lines == 1 && self.root_lost.contains(best) && !self.root_lost.contains(interrupted))
            .then(|| PvLine { depth: result.depth, score: result.score(), pv: vec![interrupted] })
    }

    /// The static evaluation with the correction history's adjustment (the shallow prunings
    /// and the leaves use it), still short of a proof's score. Only 15×15 nodes update the
    /// history, so on the small boards this is the evaluation itself.
    #[inline]
    fn corrected_eval(&self) -> Score {
        let corrected = eval::evaluate(&self.board) + self.correction.correction(&self.board);
        corrected.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Reverse futility pruning, at a shallow null-window node with no five threatened: if
    /// the static evaluation is at least [`RFP_MARGIN`] per ply of `depth` (at most
    /// [`RFP_MAX_DEPTH`]) above `beta`, the node fails high with it unsearched — unless the
    /// opponent can make an open four (from an open three), a win a search this shallow
    /// could miss behind a move of the side to move.
    fn reverse_futility(&self, depth: i32, beta: Score) -> Option<Score> {
        if !(1..=RFP_MAX_DEPTH).contains(&depth) {
            return None;
        }
        if self.may_make_open_four(self.board.side_to_move().opponent()) {
            return None;
        }
        let static_eval = self.corrected_eval();
        (static_eval - RFP_MARGIN * depth >= beta).then_some(static_eval)
    }

    /// Razoring, at a shallow null-window node with no five threatened: whether the static
    /// evaluation is at least [`RAZOR_MARGIN`] per ply of `depth` (at most
    /// [`RAZOR_MAX_DEPTH`]) below `alpha` while neither side can make an open four. The node
    /// is then searched as a leaf first (the leaf VCF and the double-three test): a move or
    /// two would most likely not make up the gap, and the quick wins they could find, an
    /// open three of either side becoming an open four, are excluded.
    fn razor(&self, depth: i32, alpha: Score) -> bool {
        if !(1..=RAZOR_MAX_DEPTH).contains(&depth) {
            return false;
        }
        if [Color::Black, Color::White].into_iter().any(|color| self.may_make_open_four(color)) {
            return false;
        }
        self.corrected_eval() + RAZOR_MARGIN * depth <= alpha
    }

    /// Whether `color` has an empty cell where its stone makes an open four (it has an open
    /// three) — assumed so on a board that keeps no patterns, which the shallow prunings
    /// asking it then leave alone.
    fn may_make_open_four(&self, color: Color) -> bool {
        self.board
            .lines()
            .threat_cells(color, ThreatKind::OpenFour)
            .is_none_or(|cells| !(cells & self.board.empty_cells()).is_empty())
    }

    fn info(&self, depth: u32, score: Score, pv: &[Cell], line: Option<usize>) -> SearchInfo {
        let time = self.check.elapsed();
        let nodes = self.nodes + self.helper_nodes[0].load(AtomicOrdering::Relaxed);
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            score,
            nodes,
            nps: report::nodes_per_second(nodes, time),
            time,
            pv: pv.to_vec(),
            line,
        }
    }

    /// One iteration, with a window around `previous` that widens until the score is inside.
    fn aspiration(&mut self, depth: u32, previous: Score) -> Score {
        if depth < ASPIRATION_MIN_DEPTH || is_decisive(previous) {
            return self.pvs(depth as i32, 0, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.pvs(depth as i32, 0, alpha, beta);
            if self.check.stopped() {
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
    /// its canonical image (identity on 15×15).
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
            // 15×15: the child's table key is its hash; its bucket loads during the make, and
            // so does, for a leaf, the solver's slot that its VCF probes first.
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

    fn set_pv(&mut self, ply: usize, cell: Cell) {
        self.pv[ply][ply] = cell;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// 15×15: the cells where a stone of neither side would make a three or a four (quiet
    /// moves, for late-move pruning); none without patterns.
    fn quiet_cells(&self) -> B {
        let lines = self.board.lines();
        let mut tactical = B::EMPTY;
        for color in [Color::Black, Color::White] {
            for kind in [ThreatKind::Four, ThreatKind::Three] {
                match lines.threat_cells(color, kind) {
                    Some(cells) => tactical |= cells,
                    None => return B::EMPTY,
                }
            }
        }
        B::FULL.without(tactical)
    }

    /// The principal-variation search of the current position (see the module docs).
    fn pvs(&mut self, depth: i32, ply: usize, mut alpha: Score, mut beta: Score) -> Score {
        self.pv_len[ply] = ply;
        self.pv_len[ply + 1] = ply + 1;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check.should_stop(self.nodes) {
            return 0;
        }
        let root = ply == 0;
        if root {
            self.root_interrupted = None;
        }
        // Root moves of better lines (multi-PV), which this line must not play; below the
        // root, the table move a singular-extension test leaves out.
        let singular_test = !root && self.singular_excluded[ply].is_some();
        let excluded = match self.singular_excluded[ply] {
            _ if root => self.excluded,
            Some(cell) => B::from_cell(cell),
            None => B::EMPTY,
        };
        let g = B::GEOMETRY;
        let small = g.lines_span_board();

        // 1. Mate-distance pruning: nothing beats winning with the next move, and the
        //    opponent cannot win before its next move.
        alpha = alpha.max(loss_in(ply + 2));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let color = self.board.side_to_move();
        let empty = self.board.empty_cells();

        // 2. Immediate win (a five is never forbidden).
        if let Some(win) = self.board.winning_cells(color).without(excluded).lowest() {
            self.pv[ply][ply] = win;
            self.pv_len[ply] = ply + 1;
            return win_in(ply + 1);
        }

        // 3. Opponent threats: the moves are the stones that stop every five (see
        //    `threats::five_blocks`): none for two (but under caro, where capping an end
        //    stops a five and one stone can stop two), and none on a forbidden point.
        let mut threats = self.board.winning_cells(color.opponent());
        if !threats.is_empty() {
            let fives = threats;
            threats = threats::five_blocks(&mut self.board, color.opponent(), fives);
            if threats.is_empty() {
                if let Some(five) = fives.without(excluded).lowest() {
                    self.pv[ply][ply] = five;
                    self.pv_len[ply] = ply + 1;
                }
                return loss_in(ply + 2);
            }
            if self.board.renju_black_to_move() {
                threats = threats.without(self.board.forbidden_among(threats));
                if threats.is_empty() {
                    return loss_in(ply + 2);
                }
            }
        }

        // 4. Small boards: proven draw bounds.
        let (mut lower, mut upper) = (-INFINITY, INFINITY);
        if small && !root {
            let bounds = solve::draw_bounds(&self.board, self.pairing);
            if bounds.cannot_win {
                upper = 0;
            }
            if bounds.cannot_lose {
                lower = 0;
            }
            if lower >= beta || upper <= alpha || lower == upper {
                return if lower >= beta { lower } else { upper };
            }
        }

        // 5. Transposition table.
        let (key, sym) = self.key();
        let proven_depth = small && depth >= empty.count() as i32;
        let mut tt_move = None;
        let tt_entry = if singular_test { None } else { self.tt.probe(key) };
        if let Some(entry) = tt_entry {
            tt_move = entry
                .best_move
                .map(|m| g.transform(sym.inverse(), m))
                .filter(|&m| empty.contains(m) && !excluded.contains(m));
            if !root && (entry.depth == PROVEN_DEPTH || i32::from(entry.depth) >= depth) {
                let score = score_from_tt(entry.score, ply);
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff {
                    self.heuristic |= entry.depth != PROVEN_DEPTH;
                    return score;
                }
            }
        }

        // 5b. Internal iterative reduction.
        let depth =
            if small || root || singular_test { depth } else { internal_reduction(depth, tt_move) };

        // 6. Reverse futility pruning.
        let pv_node = beta - alpha > 1;
        if !root
            && !small
            && !pv_node
            && !singular_test
            && threats.is_empty()
            && let Some(score) = self.reverse_futility(depth, beta)
        {
            self.heuristic = true;
            return score;
        }

        // 6b. Razoring: far below alpha, the node is searched as a leaf first, and ends if
        //     it fails low there.
        if !root
            && !small
            && !pv_node
            && !singular_test
            && threats.is_empty()
            && self.razor(depth, alpha)
        {
            let s = self.pvs(0, ply, alpha, alpha + 1);
            if self.check.stopped() {
                return 0;
            }
            if s <= alpha {
                self.heuristic = true;
                return s;
            }
        }

        // 7. Leaf (a threatened five is blocked first: the forced reply costs no depth).
        if depth <= 0 && threats.is_empty() {
            self.heuristic = true;
            // Stand pat: a win the VCF could find would only raise a score that fails high.
            let static_eval = self.corrected_eval().clamp(lower, upper);
            if static_eval >= beta {
                return static_eval;
            }
            if !small {
                let mut first = None;
                let (board, threat) = (&mut self.board, &mut self.threat);
                let budget = (LEAF_VCF_NODES, None);
                if let Some(plies) =
                    threat.solve(board, Threats::Fours, LEAF_VCF_FOURS, budget, &mut first)
                {
                    return win_in(ply + plies);
                }
                if threats::double_three_wins(&self.board) {
                    return win_in(ply + 5);
                }
            }
            return static_eval;
        }

        // 8. Moves.
        let mut moves = MovePicker::new();
        let child_depth = if threats.is_empty() {
            let candidates = self.candidates(excluded, root);
            self.ordering.stage(&mut moves, candidates, ply, tt_move);
            depth - 1
        } else {
            // The single block, searched without spending depth.
            moves.add_in_cell_order(threats.without(excluded));
            depth
        };

        // 8b. Singular extension: does the node hang on its table move alone?
        let mut singular = None;
        if let (Some(cell), Some(singular_beta)) =
            (tt_move, tt_entry.and_then(|entry| singular_beta(depth, &entry, ply)))
            && !root
            && !small
            && threats.is_empty()
        {
            self.singular_excluded[ply] = Some(cell);
            let s = self.pvs((depth - 1) / 2, ply, singular_beta - 1, singular_beta);
            self.singular_excluded[ply] = None;
            // (The test's line is no line of this node.)
            self.pv_len[ply] = ply;
            if self.check.stopped() {
                return 0;
            }
            if s < singular_beta {
                singular = Some(cell);
            } else if singular_beta >= beta {
                // Multi-cut: another move reaches beta too, even searched to half the depth.
                return singular_beta;
            }
        }

        // 9. PVS loop.
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut tried = 0;
        // The moves that make or stop no three or four: reduced more than others, and past
        // `lmp_index` at shallow null-window nodes not searched at all (late-move pruning).
        let quiet = if small { B::EMPTY } else { self.quiet_cells() };
        let prunable = if !root && !pv_node && depth <= LMP_MAX_DEPTH { quiet } else { B::EMPTY };
        let lmp_index = LMP_BASE + LMP_SCALE * (depth.max(0) as usize).pow(2);
        while let Some(cell) = moves.next(&self.board, &self.ordering) {
            let i = tried;
            tried += 1;
            if i >= lmp_index && prunable.contains(cell) {
                continue;
            }
            self.pv_len[ply + 1] = ply + 1;
            let extension = i32::from(singular == Some(cell));
            let score = match self.make(cell, child_depth <= 0) {
                Outcome::Win(_) => win_in(ply + 1),
                Outcome::Draw => 0,
                Outcome::Ongoing if i == 0 => {
                    -self.pvs(child_depth + extension, ply + 1, -beta, -alpha)
                }
                Outcome::Ongoing => {
                    // Late-move reduction (15×15 only: the small boards stay exact): a late
                    // move is first searched shallower, a quiet one by more plies (never
                    // straight to a leaf), one that makes or stops a three or four by one.
                    let reduce = !small
                        && depth >= LMR_MIN_DEPTH
                        && i >= LMR_MIN_INDEX
                        && Some(cell) != tt_move
                        && threats.is_empty();
                    let mut s = if reduce {
                        let r = if quiet.contains(cell) {
                            lmr_reduction(depth, i, pv_node).min(child_depth - 1)
                        } else {
                            1
                        };
                        -self.pvs(child_depth - r, ply + 1, -alpha - 1, -alpha)
                    } else {
                        alpha + 1
                    };
                    // (No re-search once stopped: the result is discarded anyway, and entering
                    // the search would count nodes past a node limit.)
                    if s > alpha && !self.check.stopped() {
                        s = -self.pvs(child_depth, ply + 1, -alpha - 1, -alpha);
                    }
                    if s > alpha && s < beta && !self.check.stopped() {
                        -self.pvs(child_depth, ply + 1, -beta, -alpha)
                    } else {
                        s
                    }
                }
            };
            self.unmake();
            if self.check.stopped() {
                if root {
                    self.root_interrupted = Some(cell);
                }
                return 0;
            }
            if root && score <= -MATE_BOUND {
                self.root_lost = self.root_lost.with(cell);
            }
            if score > best {
                best = score;
                best_move = Some(cell);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, cell);
                    if root {
                        self.root_best = score;
                    }
                    if alpha >= beta {
                        self.ordering.record_cutoff(color, cell, ply, depth);
                        break;
                    }
                }
            }
        }
        let best = best.clamp(lower, upper);

        // 10. Store.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_depth = if proven_depth { PROVEN_DEPTH } else { depth.clamp(0, 254) as u8 };
        let entry = TtEntry {
            score: score_to_tt(best, ply),
            best_move: best_move.map(|m| g.transform(sym, m)),
            depth: stored_depth,
            bound,
        };
        // (A node searched without some moves has no value of its own to keep.)
        if excluded.is_empty() {
            self.tt.store(key, entry);
            // 11. What the static evaluation missed, for the correction history.
            if !root && !small && threats.is_empty() && depth >= 1 && !is_decisive(best) {
                let static_eval = self.corrected_eval();
                let informative = match bound {
                    Bound::Lower => best > static_eval,
                    Bound::Upper => best < static_eval,
                    Bound::Exact => true,
                };
                if informative {
                    self.correction.update(&self.board, depth, best - static_eval);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits256;
    use crate::rules::Rule;

    /// The singular-extension test needs depth, a lower bound or exact score from a search
    /// at most a few plies shallower, and no proven result.
    #[test]
    fn only_deep_nodes_with_a_recent_lower_bound_test_their_table_move_for_singularity() {
        let entry = |score, depth: i32, bound| TtEntry {
            score,
            best_move: None,
            depth: depth as u8,
            bound,
        };
        let d = SE_MIN_DEPTH;
        let oldest = d + 2 - SE_TT_DEPTH_SLACK;
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Lower), 3), Some(100 - SE_MARGIN * d));
        let exact = entry(-50, oldest, Bound::Exact);
        assert_eq!(singular_beta(d + 2, &exact, 3), Some(-50 - SE_MARGIN * (d + 2)));
        assert_eq!(singular_beta(d + 3, &exact, 3), None, "too shallow a table search");
        assert_eq!(singular_beta(d - 1, &entry(100, d, Bound::Lower), 3), None, "too shallow");
        assert_eq!(singular_beta(d, &entry(100, d, Bound::Upper), 3), None, "an upper bound");
        let win = score_to_tt(win_in(9), 3);
        assert_eq!(singular_beta(d, &entry(win, d, Bound::Lower), 3), None, "a proven win");
    }

    #[test]
    fn only_deep_nodes_without_a_table_move_are_reduced_internally() {
        let cell = Bits256::GEOMETRY.parse_pos("h8");
        for depth in -1..IIR_MIN_DEPTH {
            assert_eq!(internal_reduction(depth, None), depth);
        }
        for depth in IIR_MIN_DEPTH..20 {
            assert_eq!(internal_reduction(depth, None), depth - 1);
            assert_eq!(internal_reduction(depth, Some(cell)), depth);
        }
    }

    /// Late-move reductions: at least one ply, growing with the depth and the move's index,
    /// one less at PV nodes (while above one).
    #[test]
    fn late_move_reductions_grow_with_depth_and_index() {
        for pv_node in [false, true] {
            for depth in LMR_MIN_DEPTH..40 {
                for index in LMR_MIN_INDEX..200 {
                    let r = lmr_reduction(depth, index, pv_node);
                    assert!(r >= 1);
                    assert!(lmr_reduction(depth + 1, index, pv_node) >= r);
                    assert!(lmr_reduction(depth, index + 1, pv_node) >= r);
                    if pv_node {
                        let null_window = lmr_reduction(depth, index, false);
                        assert_eq!(r, (null_window - 1).max(1));
                    }
                }
            }
        }
        // The table gives what the formula gives, wherever a search can look it up.
        for depth in 1..80 {
            for index in 1..300 {
                let from_table = lmr_reduction(depth, index, false);
                assert_eq!(from_table, lmr_base_reduction(depth, index).max(1), "{depth} {index}");
            }
        }
        assert_eq!(lmr_reduction(3, LMR_MIN_INDEX, false), 1);
        assert_eq!(lmr_reduction(10, 20, false), 3);
        assert_eq!(lmr_reduction(10, 20, true), 2);
    }

    /// Black h6 i7 j8 k9 with white f4 two cells below: `o.xxxx..`, two fives to make. Under
    /// freestyle white has lost; under caro its l10 stops both (g5 would then make
    /// `oxxxxxo`), and the search plays it without a loss.
    #[test]
    fn under_caro_the_search_stops_two_fives_with_one_stone() {
        let g = Bits256::GEOMETRY;
        for (rule, lost) in [(Rule::Freestyle, true), (Rule::Caro, false)] {
            let board =
                Board::<Bits256>::from_notation(rule, "h6,f4,i7,a1,j8,a3,k9").expect("legal");
            let mut tt = TranspositionTable::with_bytes(1 << 20);
            let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
            let result = search(&board, &mut tt, limits, &mut |_| {});
            let loss = score::mate_plies(result.score()).is_some_and(|plies| plies < 0);
            assert_eq!(loss, lost, "{rule}: score {}", result.score());
            if !lost {
                assert_eq!(result.best_move.map(|c| g.format_pos(c)).as_deref(), Some("l10"));
            }
        }
    }

    #[test]
    fn the_defence_filters_solves_share_the_time_left_equally() {
        let now = Instant::now();
        let ms = std::time::Duration::from_millis;
        assert_eq!(slice_deadline(now, now + ms(40), 4), now + ms(10));
        assert_eq!(slice_deadline(now, now + ms(40), 1), now + ms(40), "the last gets the rest");
        assert_eq!(slice_deadline(now, now + ms(40), 0), now + ms(40));
        assert_eq!(slice_deadline(now + ms(50), now + ms(40), 3), now + ms(50), "past the end");
    }

    /// Black could make an open three (h8 h9 and h7 or h10), but two stones and a free move
    /// win nothing: the defence filter checks no root move and keeps them all.
    #[test]
    fn the_defence_filter_checks_nothing_when_a_free_move_would_not_win() {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8,i9,h9").expect("legal");
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let mut searcher = Searcher::new(board.clone(), &mut tt, SearchLimits::default());
        assert!(!searcher.opponent_wins_with_a_free_move(DEFENCE_VCT_NODES));
        assert_eq!(searcher.safe_root_moves(), None);
        assert_eq!(searcher.board.hash(), board.hash(), "the pass is taken back");
        assert_eq!(searcher.board.side_to_move(), board.side_to_move());
    }

    /// A search stopped before its first iteration completes plays its fallback move, which
    /// must be one the defence filter keeps. Standard f7,i6,f10,g6,g8,i7,f9, black to move:
    /// the first candidate of the static ordering, f8, is refuted by a white threat sequence.
    #[test]
    fn the_fallback_move_is_one_the_defence_filter_keeps() {
        let moves = "f7,i6,f10,g6,g8,i7,f9";
        let board = Board::<Bits256>::from_notation(Rule::Standard, moves).expect("legal");
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let mut searcher = Searcher::new(board.clone(), &mut tt, SearchLimits::default());
        assert!(searcher.opponent_wins_with_a_free_move(DEFENCE_VCT_NODES));
        let safe = searcher.safe_root_moves().expect("white threatens");
        let candidates = movegen::candidates(&board);
        let first = searcher.ordering.order(&board, candidates, 0, None)[0];
        assert!(!safe.contains(first), "f8 is refuted");

        let limits = SearchLimits { nodes: Some(1), ..SearchLimits::default() };
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let result = search(&board, &mut tt, limits, &mut |_| {});
        assert!(result.lines.is_empty(), "no iteration completes in one node");
        assert!(safe.contains(result.best_move.expect("a move")));
    }

    #[test]
    fn the_defence_filter_searches_a_few_survivors_again_with_more_nodes() {
        // From the tactics data: two moves, g6 and k10, survive the first pass (20,000 nodes
        // each); black's win after g6 is a 21-ply threat sequence that takes the solver about
        // 300,000 nodes, so only the deeper passes drop g6 and keep k10, the one defence.
        let moves = "i8,i6,j10,g8,i10,h10,h11,i11,j9,k8,j12,j11,i12,k12,h7";
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let g = Bits256::GEOMETRY;
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        for (cell, refuted_deeper) in [("g6", true), ("k10", false)] {
            let cell = g.parse_pos(cell);
            let mut searcher = Searcher::new(board.clone(), &mut tt, SearchLimits::default());
            assert!(!searcher.opponent_wins_after(cell, DEFENCE_VCT_NODES, None));
            let mut fresh = Searcher::new(board.clone(), &mut tt, SearchLimits::default());
            let refuted = fresh.opponent_wins_after(cell, DEFENCE_VCT_MAX_NODES, None);
            assert_eq!(refuted, refuted_deeper);
        }
        let mut searcher = Searcher::new(board, &mut tt, SearchLimits::default());
        let safe = searcher.safe_root_moves().expect("black threatens");
        assert_eq!(safe.iter().map(|c| g.format_pos(c)).collect::<Vec<_>>(), ["k10"]);
    }

    /// A node-limited search runs on one thread whatever it is given, so it stays
    /// reproducible; with helpers, the move still comes from the root the defence filter
    /// left (here k10 alone, see the test above).
    #[test]
    fn helper_threads_search_the_filtered_root_and_leave_node_limited_searches_alone() {
        let moves = "i8,i6,j10,g8,i10,h10,h11,i11,j9,k8,j12,j11,i12,k12,h7";
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let run = |limits: SearchLimits, threads| {
            let mut tt = TranspositionTable::with_bytes(1 << 22);
            Searcher::new(board.clone(), &mut tt, limits).with_threads(threads).run(&mut |_| {})
        };
        let nodes = SearchLimits { nodes: Some(30_000), ..SearchLimits::default() };
        let (one, two) = (run(nodes.clone(), 1), run(nodes, 2));
        assert_eq!(
            (one.best_move, one.score(), one.nodes),
            (two.best_move, two.score(), two.nodes)
        );
        let depth = SearchLimits { depth: Some(7), ..SearchLimits::default() };
        let alone = run(depth.clone(), 1);
        let helped = run(depth, 4);
        assert_eq!(helped.best_move, Some(Bits256::GEOMETRY.parse_pos("k10")));
        assert_eq!((helped.depth, alone.depth), (7, 7));
    }

    #[test]
    fn a_search_stopped_in_its_first_line_keeps_a_root_move_proven_better_there() {
        // Whenever the best move changes between depth d and d + 1, a search stopped one
        // node before depth d + 1 completes has already searched the new move to depth d + 1
        // (unless it only rose in a later aspiration attempt): it plays that move.
        let board = Board::<Bits256>::from_notation(Rule::Standard, "h8,h9,i8,j8").expect("legal");
        let run = |limits: SearchLimits| {
            let mut tt = TranspositionTable::with_bytes(1 << 20);
            search(&board, &mut tt, limits, &mut |_| {})
        };
        let mut adopted = 0;
        for d in 2..8 {
            let shallow = run(SearchLimits { depth: Some(d), ..SearchLimits::default() });
            let deep = run(SearchLimits { depth: Some(d + 1), ..SearchLimits::default() });
            if shallow.best_move == deep.best_move {
                continue;
            }
            let nodes = Some(deep.nodes - 1);
            let stopped = run(SearchLimits { nodes, ..SearchLimits::default() });
            assert_eq!(stopped.depth, d, "the last completed iteration");
            let line = &stopped.lines[0];
            assert_eq!(stopped.best_move, line.pv.first().copied());
            if line.depth == d + 1 {
                assert_eq!(stopped.best_move, deep.best_move, "depth {d}");
                assert_eq!(line.score, deep.score(), "depth {d}");
                adopted += 1;
            } else {
                assert_eq!(stopped.best_move, shallow.best_move, "depth {d}");
            }
        }
        assert!(adopted >= 2, "only {adopted} stopped searches kept the deeper move");
    }

    #[test]
    fn a_search_stopped_after_proving_its_last_best_move_lost_plays_one_not_proven_lost() {
        // Depth 8 prefers l9, which iteration 9 proves lost before another root move raises
        // alpha (a classroom game's position, black to move).
        let moves = "g6,j10,g10,j9,f7,j11,j12,k8,e8,j7,j8,h5";
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let run = |limits: SearchLimits| {
            let mut tt = TranspositionTable::with_bytes(1 << 22);
            let mut searcher = Searcher::new(board.clone(), &mut tt, limits);
            let result = searcher.search_alone(&mut |_| {});
            (result, searcher.root_lost, searcher.root_interrupted)
        };
        let (shallow, ..) = run(SearchLimits { depth: Some(8), ..SearchLimits::default() });
        let (deep, lost, _) = run(SearchLimits { depth: Some(9), ..SearchLimits::default() });
        let l9 = Bits256::GEOMETRY.parse_pos("l9");
        assert_eq!(shallow.best_move, Some(l9));
        assert!(lost.contains(l9) && deep.best_move != Some(l9));
        let mut replaced = 0;
        for step in 1..20 {
            let nodes = shallow.nodes + (deep.nodes - shallow.nodes) * step / 20;
            let (stopped, lost, interrupted) =
                run(SearchLimits { nodes: Some(nodes), ..SearchLimits::default() });
            assert_eq!(stopped.depth, 8);
            let best = stopped.best_move.expect("a move");
            assert_eq!(stopped.pv().first(), Some(&best));
            if lost.contains(best) {
                assert!(interrupted.is_none_or(|cell| lost.contains(cell)), "{nodes} nodes");
            }
            if lost.contains(l9) && stopped.lines[0].pv == [best] {
                assert_eq!(Some(best), interrupted);
                assert_eq!(stopped.score(), shallow.score());
                replaced += 1;
            }
        }
        assert!(replaced >= 2, "only {replaced} stopped searches replaced the lost move");
    }

    /// For the shallow prunings' tests: black (to move) has two in a row, white two corner
    /// stones ...
    const QUIET: &str = "h8,a1,i8,a15";
    /// ... black (to move) has the open three h8-i8-j8 ...
    const OPEN_THREE_TO_MOVE: &str = "h8,a1,i8,a15,j8,o1";
    /// ... and white, waiting, has it.
    const OPEN_THREE_WAITING: &str = "a1,h8,a15,i8,o1,j8";

    /// A searcher of the freestyle 15×15 position `moves`, and that position's evaluation.
    fn searcher_of<'t>(
        tt: &'t mut TranspositionTable,
        moves: &str,
    ) -> (Searcher<'t, Bits256>, Score) {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let eval = eval::evaluate(&board);
        (Searcher::new(board, tt, SearchLimits::default()), eval)
    }

    #[test]
    fn reverse_futility_needs_the_margin_a_shallow_depth_and_no_open_three_against() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let (searcher, eval) = searcher_of(&mut tt, QUIET);
        for depth in 1..=RFP_MAX_DEPTH {
            let beta = eval - RFP_MARGIN * depth;
            assert_eq!(searcher.reverse_futility(depth, beta), Some(eval), "depth {depth}");
            assert_eq!(searcher.reverse_futility(depth, beta + 1), None, "depth {depth}");
        }
        for depth in [0, RFP_MAX_DEPTH + 1] {
            assert_eq!(searcher.reverse_futility(depth, -INFINITY), None);
        }
        // White's open three h8-i8-j8 could become an open four: never pruned.
        let (searcher, _) = searcher_of(&mut tt, OPEN_THREE_WAITING);
        let threatened = &searcher.board;
        let open_fours = threatened.lines().threat_cells(Color::White, ThreatKind::OpenFour);
        assert!(open_fours.is_some_and(|cells| !(cells & threatened.empty_cells()).is_empty()));
        assert_eq!(searcher.reverse_futility(1, -INFINITY), None);
    }

    #[test]
    fn razoring_needs_the_margin_a_shallow_depth_and_no_open_three_on_either_side() {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let (searcher, eval) = searcher_of(&mut tt, QUIET);
        for depth in 1..=RAZOR_MAX_DEPTH {
            let alpha = eval + RAZOR_MARGIN * depth;
            assert!(searcher.razor(depth, alpha), "depth {depth}");
            assert!(!searcher.razor(depth, alpha - 1), "depth {depth}");
        }
        for depth in [0, RAZOR_MAX_DEPTH + 1] {
            assert!(!searcher.razor(depth, INFINITY));
        }
        // An open three of the side to move or of the opponent: never razored.
        for moves in [OPEN_THREE_TO_MOVE, OPEN_THREE_WAITING] {
            let (searcher, _) = searcher_of(&mut tt, moves);
            assert!(!searcher.razor(1, INFINITY), "{moves}");
        }
    }
}
