//! Playing strength below full (`INFO strength N`, `pbrain-mnk play --level N`): a level
//! from 0 to 100 that makes mnk play like a weaker player rather than a blundering one.
//!
//! Below 100 a level does three things:
//!
//! - **A smaller search.** The main search gets [`MIN_NODES`] nodes a move at level 0,
//!   twice as many every [`LEVELS_PER_DOUBLING`] levels (about 1,800 at 25, 15,000 at 50,
//!   140,000 at 75, 1.1 million at 99), whatever the time allowed. Each doubling of a
//!   search's nodes is worth about the same in strength at these sizes, so the levels are
//!   spaced evenly in nodes' logarithm.
//! - **Fewer threat searches.** The root's threat-sequence budgets (the own VCF and VCT,
//!   the check of the opponent's threats after each root move, the checks of the best move)
//!   are scaled by `(level / 100)²`: none at level 0, a sixteenth at 25, a quarter at 50.
//! - **A choice among good moves.** The search finds [`CHOICE_MULTIPV`] lines, and the move
//!   is drawn among those scoring within a margin of the best (at most [`MAX_MARGIN`], at
//!   level 0, shrinking to 0 at 100), each weighted by `exp((score − best) / t)` with `t`
//!   falling from [`MAX_TEMPERATURE`] likewise. A forced win is always played, and a move
//!   proven lost is never drawn while another is not, so the moves are a weaker player's
//!   choices, not random blunders.
//!
//! At level 100 (the default) nothing changes.

use crate::geometry::Cell;
use crate::report::PvLine;
use crate::rng::SplitMix64;
use crate::score::{Score, mate_plies};

/// Main-search nodes a move at level 0.
pub const MIN_NODES: u64 = 200;
/// Levels over which the node budget doubles.
pub const LEVELS_PER_DOUBLING: u32 = 8;
/// Lines searched to choose among below full strength.
pub const CHOICE_MULTIPV: usize = 4;
/// How far below the best line's score a move may be drawn at level 0.
pub const MAX_MARGIN: Score = 120;
/// The temperature of the draw at level 0, in evaluation units.
pub const MAX_TEMPERATURE: f64 = 60.0;

/// A playing strength: a level from 0 to [`Strength::FULL`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength(u32);

impl Default for Strength {
    fn default() -> Self {
        Strength::full()
    }
}

impl Strength {
    /// The level of full strength (the default).
    pub const FULL: u32 = 100;

    /// Full strength.
    pub const fn full() -> Strength {
        Strength(Strength::FULL)
    }

    /// The strength of `level`, if it is at most [`Strength::FULL`].
    pub const fn new(level: u32) -> Option<Strength> {
        if level <= Strength::FULL { Some(Strength(level)) } else { None }
    }

    /// The level.
    pub const fn level(self) -> u32 {
        self.0
    }

    /// Whether this is full strength, which changes nothing.
    pub const fn is_full(self) -> bool {
        self.0 == Strength::FULL
    }

    /// Main-search nodes a move may use; `None` at full strength.
    pub fn nodes(self) -> Option<u64> {
        (!self.is_full()).then(|| {
            let doublings = f64::from(self.0) / f64::from(LEVELS_PER_DOUBLING);
            (MIN_NODES as f64 * doublings.exp2()).round() as u64
        })
    }

    /// The share of the root's threat-search budgets: `(level / 100)²`.
    pub fn threat_share(self) -> f64 {
        let fraction = f64::from(self.0) / f64::from(Strength::FULL);
        fraction * fraction
    }

    /// Lines the search finds to choose among.
    pub fn multipv(self) -> usize {
        if self.is_full() { 1 } else { CHOICE_MULTIPV }
    }

    /// How far below the best score a drawn move may be.
    pub fn margin(self) -> Score {
        MAX_MARGIN * (Strength::FULL - self.0) as Score / Strength::FULL as Score
    }

    /// The draw's temperature.
    pub fn temperature(self) -> f64 {
        MAX_TEMPERATURE * f64::from(Strength::FULL - self.0) / f64::from(Strength::FULL)
    }

    /// The root move to play among `lines` (best score first), drawn with `rng`: the best
    /// at full strength or when it is a forced win; otherwise one within [`Strength::margin`]
    /// of the best and not proven lost unless the best is, weighted by
    /// `exp((score − best) / temperature)`. `None` without lines.
    pub fn choose(self, lines: &[PvLine], rng: &mut SplitMix64) -> Option<Cell> {
        let best = lines.first()?;
        let first = *best.pv.first()?;
        let won = mate_plies(best.score).is_some_and(|plies| plies > 0);
        let temperature = self.temperature();
        if self.is_full() || won || temperature <= 0.0 {
            return Some(first);
        }
        let lost = |line: &PvLine| mate_plies(line.score).is_some_and(|plies| plies < 0);
        let eligible: Vec<(Cell, f64)> = lines
            .iter()
            .filter(|line| best.score - line.score <= self.margin())
            .filter(|line| lost(best) || !lost(line))
            .filter_map(|line| {
                let weight = (f64::from(line.score - best.score) / temperature).exp();
                line.pv.first().map(|&cell| (cell, weight))
            })
            .collect();
        let total: f64 = eligible.iter().map(|&(_, weight)| weight).sum();
        let mut draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for &(cell, weight) in &eligible {
            if draw < weight {
                return Some(cell);
            }
            draw -= weight;
        }
        Some(first)
    }
}

/// A playing level: a strength and the seed of its draw among moves (see
/// [`Strength::choose`]; the draw also depends on the position, so games differ move by
/// move).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The strength.
    pub strength: Strength,
    /// The seed of the draws below full strength.
    pub seed: u64,
}

impl Level {
    /// Full strength, which draws nothing.
    pub const FULL: Level = Level { strength: Strength::full(), seed: 0 };
}

impl Default for Level {
    fn default() -> Self {
        Level::FULL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{loss_in, win_in};

    fn line(index: u16, score: Score) -> PvLine {
        PvLine { depth: 5, score, pv: vec![Cell::from_index(index)] }
    }

    fn counts(strength: Strength, lines: &[PvLine]) -> Vec<usize> {
        let mut rng = SplitMix64::new(7);
        let mut counts = vec![0; lines.len()];
        for _ in 0..4_000 {
            let cell = strength.choose(lines, &mut rng).expect("a move");
            counts[lines.iter().position(|l| l.pv[0] == cell).expect("a line's move")] += 1;
        }
        counts
    }

    #[test]
    fn levels_are_even_steps_in_nodes_and_full_strength_changes_nothing() {
        let nodes: Vec<u64> = [0, 25, 50, 75, 99]
            .iter()
            .map(|&level| Strength::new(level).unwrap().nodes().unwrap())
            .collect();
        assert_eq!(nodes[0], MIN_NODES);
        for pair in nodes.windows(2) {
            let ratio = pair[1] as f64 / pair[0] as f64;
            assert!((7.0..=9.5).contains(&ratio), "{nodes:?}");
        }
        let full = Strength::default();
        assert!(full.is_full() && full.nodes().is_none());
        assert_eq!((full.multipv(), full.threat_share(), full.margin()), (1, 1.0, 0));
        assert_eq!(Strength::new(0).unwrap().threat_share(), 0.0);
        assert_eq!(Strength::new(101), None);
    }

    #[test]
    fn a_weak_level_draws_among_close_moves_never_a_far_worse_or_lost_one() {
        let lines = [line(1, 40), line(2, 30), line(3, -200), line(4, loss_in(6))];
        let weak = counts(Strength::new(0).unwrap(), &lines);
        assert!(weak[0] > weak[1] && weak[1] > 400, "both close moves drawn: {weak:?}");
        assert_eq!((weak[2], weak[3]), (0, 0), "not the far worse nor the lost: {weak:?}");
        let stronger = counts(Strength::new(75).unwrap(), &lines);
        assert!(stronger[1] < weak[1], "fewer second choices higher up: {stronger:?}");
        assert_eq!(counts(Strength::full(), &lines), vec![4_000, 0, 0, 0]);
    }

    #[test]
    fn a_forced_win_is_always_played_and_a_lost_position_still_gets_a_move() {
        let won = [line(1, win_in(5)), line(2, 300)];
        assert_eq!(counts(Strength::new(0).unwrap(), &won), vec![4_000, 0]);
        let lost = [line(1, loss_in(8)), line(2, loss_in(6))];
        assert_eq!(counts(Strength::new(0).unwrap(), &lost).iter().sum::<usize>(), 4_000);
        assert_eq!(Strength::new(10).unwrap().choose(&[], &mut SplitMix64::new(1)), None);
    }
}
