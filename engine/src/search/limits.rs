//! What may stop a search: a depth, a node count, a time limit (and the time aimed at
//! within it), or a shared stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::geometry::Cell;
use crate::score::Score;

/// How often (in nodes) the clock and the stop flag are read: often enough that even a slow
/// node rate reacts within a millisecond or so.
pub const CHECK_INTERVAL_NODES: u64 = 128;

/// Iterative deepening starts no new iteration once this fraction of the time aimed at is
/// spent: the next iteration would most likely not finish.
pub const NEW_ITERATION_FRACTION: f64 = 0.65;

/// Stretch of the time aimed at (see `StopCheck::set_stretch`) after an iteration that
/// changed the best move ...
pub const UNSETTLED_STRETCH: f64 = 2.0;
/// ... after one whose iteration before changed it ...
pub const SETTLING_STRETCH: f64 = 1.4;
/// ... after one whose score fell by [`FALLING_SCORE`] or more ...
pub const FALLING_STRETCH: f64 = 1.5;
/// ... (evaluation units: about 5 % of the expected result) ...
pub const FALLING_SCORE: Score = 30;
/// ... and with a single move to search at the root (a forced block): its iterations are
/// quick, and the time is worth more at the next move.
pub const FORCED_STRETCH: f64 = 0.1;

/// Limits of one search; every field is optional (`default()` = search to the maximum
/// depth).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Stop after this many nodes (exact: equal limits give equal searches).
    pub nodes: Option<u64>,
    /// Stop when this much time has passed since the search started.
    pub time: Option<Duration>,
    /// The time to aim for, if less than `time` (a game clock's share of one move, see
    /// [`crate::time::Budget`]): iterations start only within a share of it, which the
    /// search stretches towards `time` while its best move is unsettled and shrinks on a
    /// forced move (see `StopCheck::set_stretch`). `None`: `time` is the aim as well. The
    /// root threat searches take their share of the aim.
    pub target: Option<Duration>,
    /// Stop as soon as another thread sets this flag.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The running check of [`SearchLimits`].
#[derive(Debug)]
pub(crate) struct StopCheck {
    start: Instant,
    node_limit: u64,
    deadline: Option<Instant>,
    /// The time aimed at (the target, else the limit).
    aim: Option<Duration>,
    /// How far past the aim iterations may start, when the limit leaves room (see
    /// [`StopCheck::set_stretch`]).
    stretch: f64,
    limit: Option<Duration>,
    flag: Option<Arc<AtomicBool>>,
    stopped: bool,
}

impl StopCheck {
    pub(crate) fn new(limits: &SearchLimits) -> StopCheck {
        let start = Instant::now();
        StopCheck {
            start,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| start + t),
            aim: match (limits.target, limits.time) {
                (Some(target), Some(limit)) => Some(target.min(limit)),
                (target, limit) => target.or(limit),
            },
            stretch: 1.0,
            limit: limits.time,
            flag: limits.stop.clone(),
            stopped: false,
        }
    }

    /// Whether the search must stop now, given the node count so far. Sticky.
    #[inline]
    pub(crate) fn should_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if nodes >= self.node_limit {
            self.stopped = true;
        } else if nodes.is_multiple_of(CHECK_INTERVAL_NODES) {
            self.stopped = self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.stopped
    }

    /// Whether a stop was triggered.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether there is time for another iteration: less than [`NEW_ITERATION_FRACTION`] of
    /// the aim, as stretched, is spent.
    pub(crate) fn may_start_iteration(&mut self) -> bool {
        if self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        !self.stopped
            && self
                .stretched_aim()
                .is_none_or(|aim| self.start.elapsed().as_secs_f64() < aim * NEW_ITERATION_FRACTION)
    }

    /// Scales the time aimed at by `stretch` for the decisions to start iterations, within
    /// the limit: above 1 while the best move is unsettled, below on a forced move — which
    /// then also stops at the shrunken aim. Only a target below the limit (a game clock's
    /// share, see [`SearchLimits::target`]) is stretched: a turn time alone saves nothing
    /// for later moves, so its aim stays.
    pub(crate) fn set_stretch(&mut self, stretch: f64) {
        self.stretch = stretch;
        if stretch < 1.0
            && let Some(aim) = self.stretched_aim()
        {
            let shrunk = self.start + Duration::from_secs_f64(aim);
            self.deadline = self.deadline.map(|d| d.min(shrunk));
        }
    }

    /// The aim in seconds, stretched (see [`StopCheck::set_stretch`]).
    fn stretched_aim(&self) -> Option<f64> {
        let aim = self.aim?.as_secs_f64();
        Some(match self.limit {
            Some(limit) if aim < limit.as_secs_f64() => {
                (aim * self.stretch).min(limit.as_secs_f64())
            }
            _ => aim,
        })
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time aimed at (`None` without a time limit).
    pub(crate) fn aim(&self) -> Option<Duration> {
        self.aim
    }

    /// When `fraction` of the time aimed at will be spent (`None` without a time limit).
    pub(crate) fn deadline_at(&self, fraction: f64) -> Option<Instant> {
        self.aim.map(|b| self.start + b.mul_f64(fraction))
    }

    /// Whether more than `fraction` of the time aimed at is spent (never, without a time
    /// limit), or a stop was requested.
    pub(crate) fn spent(&mut self, fraction: f64) -> bool {
        if self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        self.stopped
            || self
                .aim
                .is_some_and(|b| self.start.elapsed().as_secs_f64() > b.as_secs_f64() * fraction)
    }
}

/// How settled a search's best move is, iteration by iteration, as a stretch of the time
/// aimed at (see [`StopCheck::set_stretch`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stability {
    /// The last iteration's best move and score.
    last: Option<(Cell, Score)>,
    /// Whether the last iteration changed the best move.
    changed: bool,
}

impl Stability {
    /// The stretch after an iteration whose best move is `best` with `score`; `forced`: the
    /// root has a single move to search.
    pub(crate) fn stretch_after(&mut self, best: Cell, score: Score, forced: bool) -> f64 {
        let before = self.last.replace((best, score));
        let settling = std::mem::replace(&mut self.changed, false);
        let Some((last_best, last_score)) = before else {
            return if forced { FORCED_STRETCH } else { 1.0 };
        };
        self.changed = best != last_best;
        if forced {
            FORCED_STRETCH
        } else if self.changed {
            UNSETTLED_STRETCH
        } else if last_score - score >= FALLING_SCORE {
            FALLING_STRETCH
        } else if settling {
            SETTLING_STRETCH
        } else {
            1.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(target_ms: u64, limit_ms: u64) -> StopCheck {
        StopCheck::new(&SearchLimits {
            time: Some(Duration::from_millis(limit_ms)),
            target: Some(Duration::from_millis(target_ms)),
            ..SearchLimits::default()
        })
    }

    #[test]
    fn a_target_below_the_limit_is_stretched_up_to_the_limit() {
        let mut c = check(100, 250);
        assert_eq!(c.stretched_aim(), Some(0.1));
        c.set_stretch(2.0);
        assert_eq!(c.stretched_aim(), Some(0.2));
        c.set_stretch(4.0);
        assert_eq!(c.stretched_aim(), Some(0.25));
        assert_eq!(c.deadline, Some(c.start + Duration::from_millis(250)));
        // A forced move stops at its shrunken aim.
        c.set_stretch(FORCED_STRETCH);
        assert!((c.stretched_aim().unwrap() - 0.01).abs() < 1e-9);
        assert_eq!(c.deadline, Some(c.start + Duration::from_millis(10)));
        // The root threat searches' share is of the target, unstretched.
        assert_eq!(c.deadline_at(0.5), Some(c.start + Duration::from_millis(50)));
    }

    #[test]
    fn a_turn_time_alone_is_never_stretched() {
        let mut c = StopCheck::new(&SearchLimits {
            time: Some(Duration::from_millis(100)),
            ..SearchLimits::default()
        });
        for stretch in [FORCED_STRETCH, 1.0, UNSETTLED_STRETCH] {
            c.set_stretch(stretch);
            assert_eq!(c.stretched_aim(), Some(0.1));
            assert_eq!(c.deadline, Some(c.start + Duration::from_millis(100)));
        }
        // A target above the limit is the limit.
        assert_eq!(check(500, 100).stretched_aim(), Some(0.1));
    }

    #[test]
    fn a_new_best_move_or_a_falling_score_stretches_the_aim() {
        let (a, b) = (Cell::from_index(1), Cell::from_index(2));
        let mut s = Stability::default();
        assert_eq!(s.stretch_after(a, 50, false), 1.0);
        assert_eq!(s.stretch_after(a, 40, false), 1.0);
        assert_eq!(s.stretch_after(a, 40 - FALLING_SCORE, false), FALLING_STRETCH);
        assert_eq!(s.stretch_after(b, 0, false), UNSETTLED_STRETCH);
        assert_eq!(s.stretch_after(b, 0, false), SETTLING_STRETCH);
        assert_eq!(s.stretch_after(b, 0, false), 1.0);
        assert_eq!(s.stretch_after(a, 0, true), FORCED_STRETCH);
        let mut forced = Stability::default();
        assert_eq!(forced.stretch_after(a, 0, true), FORCED_STRETCH);
    }
}
