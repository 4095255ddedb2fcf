//! The threat searches at the root of a gomoku-board search, before the iterations: the side to
//! move's own VCF and VCT, and the defence filter, which drops the root moves after which the
//! opponent's VCT wins (see "Threat search at the root" in `docs/search.md`). Also the move
//! played when no iteration completes.

use std::time::{Duration, Instant};

use super::clock::percent;
use super::threats::{self, Threats};
use super::{PvLine, SearchInfo, SearchResult, Searcher};
use crate::geometry::Cell;
use crate::movegen;
use crate::outcome::Outcome;
use crate::pattern::Pattern;
use crate::pattern::keys::PatternState;
use crate::score::{Score, is_decisive, win_in};
use crate::storage::Storage;

/// The state of the checks of the iterations' best moves (see
/// `Searcher::refutes_best_move`).
#[derive(Clone, Debug)]
pub(super) struct BestMoveChecks {
    /// Whether the defence filter found the opponent winning by a threat sequence if the
    /// side to move passed: only then are the best moves checked.
    opponent_attacks: bool,
    /// The last move checked and the nodes of its next check (0: no more checks).
    last: Option<(Cell, u64)>,
    /// Time the checks took so far.
    pub(super) time: Duration,
    /// The threat search's speed, nodes per second: measured by the root threat searches,
    /// then by each check (`assumed_threat_nps` until then).
    speed: Option<f64>,
    /// Whether the checks run (always but in tests).
    on: bool,
}

impl Default for BestMoveChecks {
    fn default() -> Self {
        BestMoveChecks {
            opponent_attacks: false,
            last: None,
            time: Duration::ZERO,
            speed: None,
            on: true,
        }
    }
}

impl BestMoveChecks {
    /// Takes `nodes` of threat search in `took` as the solver's speed, if they are enough
    /// to tell (`enough`: a defence-filter solve's worth or more).
    fn measure_speed(&mut self, nodes: u64, took: Duration, enough: u64) {
        if nodes >= enough && !took.is_zero() {
            self.speed = Some(nodes as f64 / took.as_secs_f64());
        }
    }
}

#[cfg(test)]
impl BestMoveChecks {
    /// No checks: for tests of what the iterations do without them.
    pub(super) fn off() -> Self {
        BestMoveChecks { on: false, ..BestMoveChecks::default() }
    }
}

/// Nodes for each step of the line of a win the root threat searches found (see
/// `ThreatSearch::principal_line`): the steps mostly hit the table the solve filled.
const ROOT_LINE_NODES: u64 = 20_000;

/// The deadline of one of `remaining` solves (this one included) that share the time from
/// `now` until `end` equally: each gets what the ones before left over, divided evenly. Once
/// `end` has passed, `now` (such a solve stops at its first look at the clock).
fn slice_deadline(now: Instant, end: Instant, remaining: usize) -> Instant {
    let share = u32::try_from(remaining.max(1)).unwrap_or(u32::MAX);
    now + end.saturating_duration_since(now) / share
}

impl<B: Storage> Searcher<'_, B> {
    /// The share of the turn the root's threat searches may take (`threat_time_percent`).
    fn threat_time_fraction(&self) -> f64 {
        percent(self.params.threat_time_percent)
    }

    /// A node count among the tunables (whose ranges start at 0).
    fn param_nodes(value: i32) -> u64 {
        u64::try_from(value).expect("node budgets are at least 0")
    }

    /// Takes `nodes` of threat search in `took` as the solver's speed, if they are enough to
    /// tell.
    fn measure_threat_speed(&mut self, nodes: u64, took: Duration) {
        let enough = Self::param_nodes(self.params.defence_vct_nodes);
        self.best_move_checks.measure_speed(nodes, took, enough);
    }

    /// Gomoku boards, before the iterations: the side to move's own threat sequences (a VCF, then a
    /// VCT, within the share `threat_time_percent` of the time between them), then the defence
    /// filter (see [`Searcher::safe_root_moves`]). A win found is reported and put in
    /// `result`; it ends a single-line search (returns true), while with several lines it is
    /// one and the main search looks for the others.
    pub(super) fn root_threat_searches(
        &mut self,
        result: &mut SearchResult,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> bool {
        let p = self.params;
        let (vcf_nodes, vct_nodes) = (
            self.threat_budget(Self::param_nodes(p.root_vcf_nodes)),
            self.threat_budget(Self::param_nodes(p.root_vct_nodes)),
        );
        let mut win = None;
        if vcf_nodes > 0 {
            let deadline = self.clock.deadline_at(self.threat_time_fraction() / 3.0);
            let (board, fours) = (&mut self.board, Threats::Fours);
            let max = p.root_vcf_fours as u32;
            win =
                self.threat.solve(board, fours, max, vcf_nodes, deadline).map(|w| (w, fours, max));
        }
        if win.is_none() && vct_nodes > 0 && !self.clock.spent(self.threat_time_fraction() / 3.0) {
            let deadline = self.clock.deadline_at(self.threat_time_fraction() / 2.0);
            let (board, threats) = (&mut self.board, Threats::FoursAndThrees);
            let max = p.vct_threats as u32;
            win = self
                .threat
                .solve(board, threats, max, vct_nodes, deadline)
                .map(|w| (w, threats, max));
        }
        // (A win that starts with a blocked move is not one the search may play.)
        if let Some((win, threats, max)) = win.filter(|(win, ..)| !self.blocked.contains(win.first))
        {
            let best = win.first;
            // The whole line to the five, for people to read (the search plays its first move).
            let plies = usize::from(win.plies);
            let mut pv = self.threat.principal_line(
                &mut self.board,
                threats,
                max,
                win,
                ROOT_LINE_NODES,
                plies,
            );
            if pv.first() != Some(&best) {
                pv = vec![best];
            }
            let line = PvLine { depth: 1, score: win_in(plies), pv };
            on_info(&self.info(1, line.score, &line.pv, (self.multipv > 1).then_some(1)));
            result.best_move = Some(best);
            result.depth = 1;
            result.lines = vec![line.clone()];
            result.vcf_nodes = self.threat.nodes;
            result.time = self.clock.elapsed();
            result.root_threat_time = result.time;
            if self.multipv == 1 {
                return true;
            }
            // Several lines: the win is one; the main search looks for the others.
            self.threat_line = Some(line);
        }
        self.root_moves = self.safe_root_moves();
        result.root_threat_time = self.clock.elapsed();
        self.measure_threat_speed(self.threat.nodes, result.root_threat_time);
        false
    }

    /// Gomoku boards: if the opponent could make an open three or better with its next stone, the
    /// root moves after which it has no winning threat sequence (VCT), as far as the solver
    /// can tell within its budget; `None` when there is no such threat, nothing is safe, or
    /// time is short.
    ///
    /// First the opponent's VCT is run as if the side to move passed, with
    /// `defence_vct_nodes`: if it finds no win even with that free move, no candidate is
    /// checked. Otherwise every candidate gets `defence_vct_nodes` — and, with a time limit,
    /// an equal share of the time left until the root threat searches' share
    /// (the share `threat_time_percent`) is spent, so that a short turn checks every candidate with
    /// fewer nodes rather than the first few with all of them (a solve cut short refutes
    /// nothing), while a long one, where every solve fits, loses none. If that refutes some
    /// but leaves a few (two to `defence_deeper_moves`), the opponent has real threats and a
    /// longer solve may refute more: the survivors are searched again with four times the
    /// nodes, up to `defence_vct_max_nodes`, while two or more survive. A round that refutes
    /// them all changes nothing (every move loses to some threat sequence; the main search chooses
    /// among the last survivors).
    fn safe_root_moves(&mut self) -> Option<B> {
        let me = self.board.side_to_move();
        let them = me.opponent();
        let candidates = movegen::candidates(&self.board);
        let lines = self.board.patterns();
        let opponent_threatens = candidates.iter().any(|c| {
            lines
                .cell_patterns(c, them)
                .is_some_and(|p| p.iter().any(|&q| q >= Pattern::F3 && q != Pattern::Overline))
        });
        // A free move is worth at least as much to the opponent as any root move of ours (our
        // stone only takes a cell from its lines), so if the solver finds no win for it even
        // with one, the first round would find none after a root move either. (Under renju a
        // black stone can also make a black defence forbidden; this overlooks that.)
        let nodes = self.threat_budget(Self::param_nodes(self.params.defence_vct_nodes));
        if nodes == 0 || !opponent_threatens || !self.opponent_wins_with_a_free_move(nodes) {
            return None;
        }
        self.best_move_checks.opponent_attacks = true;
        // The free move's win guides the solves after each root move (see `Hints`).
        let safe = self.refute_root_moves(candidates, nodes);
        self.threat.forget_hints();
        safe
    }

    /// After a completed iteration of a single-line search (gomoku boards) whose best move is
    /// `best` with `score`: whether the opponent's VCT wins after `best` after all, in which
    /// case `best` leaves the root moves and the iteration must be searched again without it.
    ///
    /// The defence filter gave every root move the same few nodes; the iterations single out
    /// the move to play, and that one deserves a longer look. Only when the filter found the
    /// opponent winning with a free move (so it has threats to chain), from
    /// `verify_min_depth` on, for a score that proves nothing, and until
    /// `verify_time_percent` of the time is spent. The first check of a move gets
    /// `verify_vct_nodes`, each later one twice the last, up to `verify_vct_max_nodes`;
    /// a solve that ends within its budget (not stopped by the clock) has searched every
    /// sequence the solver can, so that move is not checked again. With a time limit the
    /// checks share `verify_time_share_percent` of the aim, and one is started only if it should
    /// end within what is left of it at the solver's speed so far: a check stopped by the
    /// clock proves nothing, so at short turns none runs. A refutation that would leave the
    /// root without a move is ignored (every move loses to some sequence).
    pub(super) fn refutes_best_move(&mut self, best: Cell, depth: u32, score: Score) -> bool {
        if !self.best_move_checks.opponent_attacks
            || !self.best_move_checks.on
            || self.multipv > 1
            || depth < self.params.verify_min_depth as u32
            || is_decisive(score)
            || self.clock.spent(percent(self.params.verify_time_percent))
        {
            return false;
        }
        let p = self.params;
        let nodes = match self.best_move_checks.last {
            Some((cell, next)) if cell == best => next,
            _ => self.threat_budget(Self::param_nodes(p.verify_vct_nodes)),
        };
        if nodes == 0 || nodes > self.threat_budget(Self::param_nodes(p.verify_vct_max_nodes)) {
            return false;
        }
        let started = Instant::now();
        let deadline = match self.clock.aim() {
            Some(aim) => {
                let share = percent(p.verify_time_share_percent);
                let left = aim.mul_f64(share).saturating_sub(self.best_move_checks.time);
                let speed = self.best_move_checks.speed.unwrap_or(f64::from(p.assumed_threat_nps));
                if left.as_secs_f64() * speed < nodes as f64 {
                    return false;
                }
                Some(started + left)
            }
            None => None,
        };
        let before = self.threat.nodes;
        let refuted = self.opponent_wins_after(best, nodes, deadline);
        let (used, took) = (self.threat.nodes - before, started.elapsed());
        self.best_move_checks.time += took;
        self.measure_threat_speed(used, took);
        if !refuted {
            let exhausted = !self.threat.cut_short();
            self.best_move_checks.last = Some((best, if exhausted { 0 } else { 2 * nodes }));
            return false;
        }
        let kept = self.root_moves;
        let allowed = kept.unwrap_or_else(|| movegen::candidates(&self.board));
        self.root_moves = Some(allowed - B::from_cell(best));
        if self.candidates(B::EMPTY, true).contains(best) {
            // Nothing else is left: the filter would step aside and let `best` back in.
            self.root_moves = kept;
            self.best_move_checks.last = Some((best, 0));
            return false;
        }
        self.best_move_checks.last = None;
        true
    }

    /// [`Searcher::safe_root_moves`] once the opponent is known to win with a free move,
    /// `first_nodes` for each first solve.
    fn refute_root_moves(&mut self, candidates: B, first_nodes: u64) -> Option<B> {
        let ordered = self.ordering.order(&self.board, candidates, 0, None);
        let (mut safe, refuted) = self.refuted_among(ordered.iter().copied(), first_nodes, true);
        if (safe | refuted) != candidates {
            // Out of time: keep what was proven safe, or give up the filter.
            return (!safe.is_empty()).then_some(safe);
        }
        // Two or more survivors, but few, and at least one move refuted.
        let deeper = usize::try_from(self.params.defence_deeper_moves).expect("at least 2");
        let few = 2..=deeper.min(ordered.len().saturating_sub(1));
        let mut nodes = first_nodes;
        while few.contains(&(safe.count() as usize))
            && nodes < self.threat_budget(Self::param_nodes(self.params.defence_vct_max_nodes))
            && !self.clock.spent(self.threat_time_fraction())
        {
            nodes *= 4;
            // (Moves the clock left unchecked stay.)
            let still_safe = safe - self.refuted_among(safe.iter(), nodes, false).1;
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
        let threat_deadline = self.clock.deadline_at(self.threat_time_fraction());
        let count = cells.len();
        for (index, cell) in cells.enumerate() {
            if self.clock.spent(self.threat_time_fraction()) {
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
        let win = self.vct(nodes, self.clock.deadline_at(self.threat_time_fraction()), None);
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
        let (board, threats) = (&mut self.board, Threats::FoursAndThrees);
        let deep = self.params.vct_threats as u32;
        let win = self.threat.solve_guided(board, threats, deep, nodes, deadline, hint_delta);
        win.map(|win| usize::from(win.plies))
    }

    /// A legal move to play if no iteration completes: a win now, else the block of the
    /// opponent's threat, else the first of the root's candidates (see
    /// [`Searcher::candidates`]) in the static ordering. Called only with a legal move
    /// left (see [`Searcher::search_alone`]), so the candidates are never empty.
    pub(super) fn fallback_move(&mut self) -> Cell {
        let color = self.board.side_to_move();
        let own_wins = self.board.winning_cells(color);
        // The stones that stop the opponent's fives, or its fives if none does.
        let fives = self.board.winning_cells(color.opponent());
        let threats = match threats::five_blocks(&mut self.board, color.opponent(), fives) {
            blocks if blocks.is_empty() => fives,
            blocks => blocks,
        } & self.board.legal_moves();
        // The first that is not blocked, or, if every one is, the first.
        [self.blocked, B::EMPTY]
            .into_iter()
            .find_map(|blocked| {
                (own_wins - blocked).lowest().or_else(|| (threats - blocked).lowest()).or_else(
                    || {
                        let candidates = self.candidates(blocked, true);
                        self.ordering.order(&self.board, candidates, 0, None).first().copied()
                    },
                )
            })
            .expect("a root with a legal move has a candidate")
    }

    /// Whether the root has a single move to search: the one block of a five the opponent
    /// threatens (the search finds an own five first; two fives are lost anyway), or a
    /// single candidate.
    pub(super) fn root_is_forced(&mut self) -> bool {
        let color = self.board.side_to_move();
        if !self.board.winning_cells(color).is_empty() {
            return false;
        }
        let fives = self.board.winning_cells(color.opponent());
        if fives.is_empty() {
            return self.candidates(self.blocked, true).count() == 1;
        }
        threats::five_blocks(&mut self.board, color.opponent(), fives).count() <= 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::bitboard::Bits256;
    use crate::board::Board;
    use crate::limits::Limits;
    use crate::rules::Rule;
    use crate::search::SearchParams;
    use crate::search::search;
    use crate::tt::TranspositionTable;

    const P: SearchParams = SearchParams::DEFAULT;
    const DEFENCE_VCT_NODES: u64 = P.defence_vct_nodes as u64;
    const DEFENCE_VCT_MAX_NODES: u64 = P.defence_vct_max_nodes as u64;
    const VERIFY_MIN_DEPTH: u32 = P.verify_min_depth as u32;

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
        let mut searcher = Searcher::new(board.clone(), &mut tt, Limits::default());
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
        let mut searcher = Searcher::new(board.clone(), &mut tt, Limits::default());
        assert!(searcher.opponent_wins_with_a_free_move(DEFENCE_VCT_NODES));
        let safe = searcher.safe_root_moves().expect("white threatens");
        let candidates = movegen::candidates(&board);
        let first = searcher.ordering.order(&board, candidates, 0, None)[0];
        assert!(!safe.contains(first), "f8 is refuted");

        let limits = Limits { nodes: Some(1), ..Limits::default() };
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
            let mut searcher = Searcher::new(board.clone(), &mut tt, Limits::default());
            assert!(!searcher.opponent_wins_after(cell, DEFENCE_VCT_NODES, None));
            let mut fresh = Searcher::new(board.clone(), &mut tt, Limits::default());
            let refuted = fresh.opponent_wins_after(cell, DEFENCE_VCT_MAX_NODES, None);
            assert_eq!(refuted, refuted_deeper);
        }
        let mut searcher = Searcher::new(board, &mut tt, Limits::default());
        let safe = searcher.safe_root_moves().expect("black threatens");
        assert_eq!(safe.iter().map(|c| g.format_pos(c)).collect::<Vec<_>>(), ["k10"]);
    }

    /// Freestyle j6,f9,h8,g9,i9,g7, black to move: after h10 white wins by a 25-ply threat
    /// sequence that takes the solver about 346,000 nodes, more than the defence filter's
    /// 20,000, so h10 survives the filter; the checks of h10 as the iterations' best move
    /// (160,000 nodes, then 320,000) refute it at the second — the solver's table keeps what
    /// the check before completed — and drop it from the root. g6 is safe: its
    /// check ends within budget and it is not checked again.
    #[test]
    fn the_best_move_checks_drop_a_move_a_longer_threat_sequence_refutes() {
        let board =
            Board::<Bits256>::from_notation(Rule::Freestyle, "j6,f9,h8,g9,i9,g7").expect("legal");
        let g = Bits256::GEOMETRY;
        let (h10, g6) = (g.parse_pos("h10"), g.parse_pos("g6"));
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let mut searcher = Searcher::new(board, &mut tt, Limits::default());
        let safe = searcher.safe_root_moves().expect("white threatens");
        assert!(safe.contains(h10) && safe.contains(g6));
        assert!(!searcher.refutes_best_move(h10, VERIFY_MIN_DEPTH - 1, 0), "too shallow");
        assert_eq!(searcher.best_move_checks.last, None);
        let mut checks = 0;
        while !searcher.refutes_best_move(h10, VERIFY_MIN_DEPTH, 0) {
            checks += 1;
            assert!(checks < 2, "h10 is refuted by the second check");
        }
        assert_eq!(checks, 1);
        assert!(!searcher.candidates(Bits256::EMPTY, true).contains(h10));
        assert!(!searcher.refutes_best_move(g6, VERIFY_MIN_DEPTH, 0));
        assert_eq!(searcher.best_move_checks.last, Some((g6, 0)), "settled");
        assert!(searcher.candidates(Bits256::EMPTY, true).contains(g6));
    }
}
