//! The search's clock: its running check of its [`Limits`] (nodes, the [`Stop`] of its
//! deadline and stop flag, and the time it aims at, stretched while the best move is
//! unsettled), and the stability of its best move that sets the stretch.

use std::time::{Duration, Instant};

use super::SearchParams;
use crate::geometry::Cell;
use crate::limits::{Limits, Stop};
use crate::score::Score;

/// How often (in nodes) the clock and the stop flag are read: often enough that even a slow
/// node rate reacts within a millisecond or so.
pub const CHECK_INTERVAL_NODES: u64 = 128;

/// The running check of a search's [`Limits`].
#[derive(Debug)]
pub(crate) struct SearchClock {
    start: Instant,
    node_limit: u64,
    /// The deadline (shrunk on a forced move) and the stop flag.
    stop: Stop,
    /// The time aimed at (the target, else the limit), from the start.
    aim: Option<Duration>,
    /// How far past the aim iterations may start, when the limit leaves room (see
    /// [`SearchClock::set_stretch`]).
    stretch: f64,
    /// The deadline, from the start.
    limit: Option<Duration>,
    stopped: bool,
}

impl SearchClock {
    pub(crate) fn new(limits: &Limits) -> SearchClock {
        let start = Instant::now();
        let from_start = |at: Instant| at.saturating_duration_since(start);
        let limit = limits.deadline.map(from_start);
        SearchClock {
            start,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            stop: limits.stop(),
            aim: match (limits.target.map(from_start), limit) {
                (Some(target), Some(limit)) => Some(target.min(limit)),
                (target, limit) => target.or(limit),
            },
            stretch: 1.0,
            limit,
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
            self.stopped = self.stop.is_due();
        }
        self.stopped
    }

    /// Whether a stop was triggered.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether there is time for another iteration: less than `new_iteration_percent` of
    /// the aim, as stretched, is spent.
    pub(crate) fn may_start_iteration(&mut self, params: &SearchParams) -> bool {
        let fraction = percent(params.new_iteration_percent);
        if self.stop.flag_raised() {
            self.stopped = true;
        }
        !self.stopped
            && self
                .stretched_aim()
                .is_none_or(|aim| self.start.elapsed().as_secs_f64() < aim * fraction)
    }

    /// Scales the time aimed at by `stretch` for the decisions to start iterations, within
    /// the limit: above 1 while the best move is unsettled, below on a forced move — which
    /// then also stops at the shrunken aim. Only a target below the limit (a game clock's
    /// share, see [`Limits::target`]) is stretched: a turn time alone saves nothing for
    /// later moves, so its aim stays.
    pub(crate) fn set_stretch(&mut self, stretch: f64) {
        self.stretch = stretch;
        if stretch < 1.0
            && let Some(aim) = self.stretched_aim()
        {
            let shrunk = self.start + Duration::from_secs_f64(aim);
            self.stop.deadline = self.stop.deadline.map(|d| d.min(shrunk));
        }
    }

    /// The aim in seconds, stretched (see [`SearchClock::set_stretch`]).
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
        self.aim.map(|aim| self.start + aim.mul_f64(fraction))
    }

    /// Whether more than `fraction` of the time aimed at is spent (never, without a time
    /// limit), or a stop was requested.
    pub(crate) fn spent(&mut self, fraction: f64) -> bool {
        if self.stop.flag_raised() {
            self.stopped = true;
        }
        self.stopped
            || self
                .aim
                .is_some_and(|b| self.start.elapsed().as_secs_f64() > b.as_secs_f64() * fraction)
    }
}

/// How settled a search's best move is, iteration by iteration, as a stretch of the time
/// aimed at (see [`SearchClock::set_stretch`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stability {
    /// The last iteration's best move and score.
    last: Option<(Cell, Score)>,
    /// Whether the last iteration changed the best move.
    changed: bool,
}

impl Stability {
    /// The stretch after an iteration whose best move is `best` with `score`; `forced`: the
    /// root has a single move to search. The stretches are `params`' `*_stretch_percent`.
    pub(crate) fn stretch_after(
        &mut self,
        best: Cell,
        score: Score,
        forced: bool,
        params: &SearchParams,
    ) -> f64 {
        let before = self.last.replace((best, score));
        let settling = std::mem::replace(&mut self.changed, false);
        let Some((last_best, last_score)) = before else {
            return if forced { percent(params.forced_stretch_percent) } else { 1.0 };
        };
        self.changed = best != last_best;
        percent(if forced {
            params.forced_stretch_percent
        } else if self.changed {
            params.unsettled_stretch_percent
        } else if last_score - score >= params.falling_score {
            params.falling_stretch_percent
        } else if settling {
            params.settling_stretch_percent
        } else {
            100
        })
    }
}

/// `value` percent as a fraction.
pub(crate) fn percent(value: i32) -> f64 {
    f64::from(value) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: SearchParams = SearchParams::DEFAULT;
    const FORCED_STRETCH: f64 = 0.1;
    const UNSETTLED_STRETCH: f64 = 2.0;

    fn check(target_ms: u64, limit_ms: u64) -> SearchClock {
        let now = Instant::now();
        SearchClock::new(&Limits {
            deadline: Some(now + Duration::from_millis(limit_ms)),
            target: Some(now + Duration::from_millis(target_ms)),
            ..Limits::default()
        })
    }

    /// Durations measured from the clock's start differ from those asked for by the
    /// microseconds between making the limits and starting the clock.
    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-3)
    }

    #[test]
    fn a_target_below_the_limit_is_stretched_up_to_the_limit() {
        let mut c = check(100, 250);
        let deadline = c.stop.deadline.unwrap();
        assert!(close(c.stretched_aim(), 0.1));
        c.set_stretch(2.0);
        assert!(close(c.stretched_aim(), 0.2));
        c.set_stretch(4.0);
        assert!(close(c.stretched_aim(), 0.25));
        assert_eq!(c.stop.deadline, Some(deadline));
        // A forced move stops at its shrunken aim.
        c.set_stretch(FORCED_STRETCH);
        assert!(close(c.stretched_aim(), 0.01));
        let shrunk = c.stop.deadline.unwrap().saturating_duration_since(c.start);
        assert!((shrunk.as_secs_f64() - 0.01).abs() < 1e-3, "{shrunk:?}");
        // The root threat searches' share is of the target, unstretched.
        assert_eq!(c.deadline_at(0.5), Some(c.start + c.aim.unwrap().mul_f64(0.5)));
    }

    #[test]
    fn a_turn_time_alone_is_never_stretched() {
        let mut c = SearchClock::new(&Limits::time(Duration::from_millis(100)));
        let deadline = c.stop.deadline;
        for stretch in [FORCED_STRETCH, 1.0, UNSETTLED_STRETCH] {
            c.set_stretch(stretch);
            assert!(close(c.stretched_aim(), 0.1));
            assert_eq!(c.stop.deadline, deadline);
        }
        // A target above the limit is the limit.
        assert!(close(check(500, 100).stretched_aim(), 0.1));
    }

    #[test]
    fn a_new_best_move_or_a_falling_score_stretches_the_aim() {
        let (a, b) = (Cell::from_index(1), Cell::from_index(2));
        let mut s = Stability::default();
        assert_eq!(s.stretch_after(a, 50, false, &P), 1.0);
        assert_eq!(s.stretch_after(a, 40, false, &P), 1.0);
        assert_eq!(s.stretch_after(a, 40 - P.falling_score, false, &P), 1.5, "falling");
        assert_eq!(s.stretch_after(b, 0, false, &P), UNSETTLED_STRETCH);
        assert_eq!(s.stretch_after(b, 0, false, &P), 1.4, "settling");
        assert_eq!(s.stretch_after(b, 0, false, &P), 1.0);
        assert_eq!(s.stretch_after(a, 0, true, &P), FORCED_STRETCH);
        let mut forced = Stability::default();
        assert_eq!(forced.stretch_after(a, 0, true, &P), FORCED_STRETCH);
    }
}
