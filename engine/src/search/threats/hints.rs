//! Hints: a won solve guiding the solves of positions like it (see [`Hints`]).

use std::collections::HashMap;

use super::table::ThreatTable;

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
    firsts: HashMap<u64, u16, ahash::RandomState>,
    /// Attacking moves the win took: guided solves start deepening there.
    pub(super) depth: u32,
}

impl Hints {
    /// The wins in `table` as hints: read right after a solve that found a win in `plies`
    /// plies, whose proof's positions are then in the table (but for a few that its later
    /// nodes overwrote: the table always replaces).
    pub(super) fn learn(table: &ThreatTable, plies: usize) -> Hints {
        // (Fixed seeds: no randomness is needed, and none is at hand without ahash's
        // runtime-rng feature.)
        let mut firsts = HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
        firsts.extend(
            table
                .entries
                .iter()
                .filter(|entry| entry.win && entry.key != 0)
                .map(|entry| (entry.key, entry.first)),
        );
        // A VCT's last attacking move wins in three plies (see `attack`): 2 · depth + 1.
        let depth = u32::try_from(plies.saturating_sub(1) / 2).unwrap_or(u32::MAX).max(1);
        Hints { firsts, depth }
    }

    /// The winning move of the position whose table key was `key` in the won solve.
    pub(super) fn first(&self, key: u64) -> Option<u16> {
        self.firsts.get(&key).copied()
    }
}
