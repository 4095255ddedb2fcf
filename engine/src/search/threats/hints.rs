//! Hints: a won solve guiding the solves of positions like it (see [`Hints`]).

use std::collections::HashMap;
use std::time::Instant;

use super::solver::{ThreatSearch, Threats};
use crate::board::Board;
use crate::geometry::Cell;
use crate::size::Size;

/// What a won solve tells the solves of positions that differ from its position by the same
/// stones throughout (the defence filter: the opponent's win after a pass guides its solves
/// after each root move, whose hashes differ by the pass and the root stone). A root stone
/// away from the fight leaves the win as it was, and a solve that tries the known winning
/// move first at every attacking turn, from the known depth on, proves it in a fraction of
/// the nodes. The hints only order moves and choose where deepening starts: a win found with
/// them is proven like any other, and a stone that spoils the win costs at most the
/// unhelpful first tries.
#[derive(Clone)]
pub(crate) struct Hints {
    /// Table key of a position on the win → the cell index of its winning move.
    pub(super) firsts: HashMap<u64, u8, ahash::RandomState>,
    /// Attacking moves the win took: guided solves start deepening there.
    pub(super) depth: u32,
}

impl ThreatSearch {
    /// Keeps the wins in the table as [`Hints`] for [`ThreatSearch::solve_guided`]: call it
    /// right after a solve that found a win in `plies` plies, whose proof's positions are then
    /// in the table (but for a few that its later nodes overwrote: the table always
    /// replaces).
    pub(crate) fn learn_hints(&mut self, plies: usize) {
        // (Fixed seeds: no randomness is needed, and none is at hand without ahash's
        // runtime-rng feature.)
        let mut firsts = HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
        firsts.extend(
            self.table
                .entries
                .iter()
                .filter(|entry| entry.win && entry.key != 0)
                .map(|entry| (entry.key, entry.first)),
        );
        // A VCT's last attacking move wins in three plies (see `attack`): 2 · depth + 1.
        let depth = u32::try_from(plies.saturating_sub(1) / 2).unwrap_or(u32::MAX).max(1);
        self.hints = Some(Hints { firsts, depth });
    }

    /// Drops the hints kept by [`ThreatSearch::learn_hints`].
    pub(crate) fn forget_hints(&mut self) {
        self.hints = None;
    }

    /// [`ThreatSearch::solve`], guided by the hints kept (if any) when given `delta`: the
    /// position being solved, and every one reached from it, has the hash of the
    /// corresponding position of the hints' solve xor `delta`.
    pub(crate) fn solve_guided<B: Size>(
        &mut self,
        board: &mut Board<B>,
        threats: Threats,
        max_threats: u32,
        budget: (u64, Option<Instant>),
        delta: Option<u64>,
        first: &mut Option<Cell>,
    ) -> Option<usize> {
        self.hint_delta = delta.filter(|_| self.hints.is_some());
        let win = self.solve(board, threats, max_threats, budget, first);
        self.hint_delta = None;
        win
    }

    /// The winning move the hints know for the position with table key `key`, if the solve
    /// is guided.
    pub(super) fn hinted_move(&self, key: u64) -> Option<u8> {
        let (hints, delta) = (self.hints.as_ref()?, self.hint_delta?);
        hints.firsts.get(&(key ^ delta)).copied()
    }
}
