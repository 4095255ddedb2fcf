//! Lazy SMP: helper threads that run the same iterative deepening as the main thread on
//! copies of the board, sharing only the transposition table and a stop flag (see
//! `Searcher::with_threads`).

use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;

use super::{PvLine, SearchInfo, SearchResult, Searcher};
use crate::limits::{Limits, StopFlag};
use crate::score::{MAX_PLY, is_decisive};
use crate::storage::Storage;

/// Most threads a search runs (see [`Searcher::with_threads`]).
pub const MAX_THREADS: usize = 64;
/// Stack of each helper thread of a parallel search: the main search's recursion, with room
/// to spare (the frames of a gomoku-board line of [`MAX_PLY`] plies take a few MiB at most).
pub const HELPER_STACK_BYTES: usize = 16 << 20;

impl<B: Storage> Searcher<'_, B> {
    /// [`Searcher::search_alone`] on this thread while `helpers` more threads search the same root
    /// (see [`Searcher::with_threads`]) from the start until this thread is done. A helper
    /// that cannot be started is done without.
    pub(super) fn search_with_helpers(
        &mut self,
        helpers: usize,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let stop = StopFlag::new();
        let last = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let limits = Limits {
            depth: Some(last),
            nodes: None,
            deadline: self.limits.deadline,
            target: self.limits.target,
            stop: Some(stop.clone()),
        };
        let tt = self.tt;
        std::thread::scope(|scope| {
            let mut running = Vec::new();
            for id in 1..=helpers {
                let mut helper = Searcher::sharing(self.board.clone(), tt, limits.clone());
                helper.helper_nodes = Arc::clone(&self.helper_nodes);
                helper.set_params(self.params);
                (helper.blocked, helper.excluded) = (self.blocked, self.blocked);
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
            stop.raise();
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
                && !self.blocked.contains(line.pv[0])
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
    pub(super) fn count_nodes(&self, result: &mut SearchResult) {
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
            if self.clock.stopped() {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::bitboard::Bits256;
    use crate::board::Board;
    use crate::rules::Rule;
    use crate::tt::TranspositionTable;

    fn search_with(board: &Board<Bits256>, limits: Limits, threads: usize) -> SearchResult {
        let mut tt = TranspositionTable::with_bytes(1 << 22);
        Searcher::new(board.clone(), &mut tt, limits).with_threads(threads).run(&mut |_| {})
    }

    /// A node-limited search runs on one thread whatever it is given, so it stays
    /// reproducible.
    #[test]
    fn node_limited_searches_leave_the_helpers_out() {
        let board =
            Board::<Bits256>::from_notation(Rule::Freestyle, "h8,i9,h9,h10").expect("legal");
        let nodes = Limits::nodes(30_000);
        let (one, two) = (search_with(&board, nodes.clone(), 1), search_with(&board, nodes, 2));
        assert_eq!(
            (one.best_move, one.score(), one.nodes, one.vcf_nodes),
            (two.best_move, two.score(), two.nodes, two.vcf_nodes)
        );
        assert!(one.nodes >= 30_000 && !one.proven, "the limit stopped it: {one:?}");
    }

    /// With helpers, the move still comes from the root the defence filter left: here k10
    /// alone, while the helpers search every candidate from the start.
    #[test]
    fn helper_threads_play_only_a_move_the_defence_filter_kept() {
        let moves = "i8,i6,j10,g8,i10,h10,h11,i11,j9,k8,j12,j11,i12,k12,h7";
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let helped = search_with(&board, Limits::depth(5), 2);
        assert_eq!(helped.best_move, Some(Bits256::GEOMETRY.parse_pos("k10")));
        assert_eq!(helped.depth, 5);
    }
}
