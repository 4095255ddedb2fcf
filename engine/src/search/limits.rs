//! What may stop a search: a depth, a node count, a time budget, or a shared stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often (in nodes) the clock and the stop flag are read: often enough that even a slow
/// node rate reacts within a millisecond or so.
pub const CHECK_INTERVAL_NODES: u64 = 128;

/// Iterative deepening starts no new iteration once this fraction of the time budget is
/// spent: the next iteration would most likely not finish.
pub const NEW_ITERATION_FRACTION: f64 = 0.65;

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
    /// Stop as soon as another thread sets this flag.
    pub stop: Option<Arc<AtomicBool>>,
}

/// The running check of [`SearchLimits`].
#[derive(Debug)]
pub(crate) struct StopCheck {
    start: Instant,
    node_limit: u64,
    deadline: Option<Instant>,
    budget: Option<Duration>,
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
            budget: limits.time,
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

    /// Whether there is time for another iteration.
    pub(crate) fn may_start_iteration(&mut self) -> bool {
        if self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        !self.stopped
            && self.budget.is_none_or(|b| {
                self.start.elapsed().as_secs_f64() < b.as_secs_f64() * NEW_ITERATION_FRACTION
            })
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When `fraction` of the time budget will be spent (`None` without a budget).
    pub(crate) fn deadline_at(&self, fraction: f64) -> Option<Instant> {
        self.budget.map(|b| self.start + b.mul_f64(fraction))
    }

    /// Whether more than `fraction` of the time budget is spent (never, without a budget),
    /// or a stop was requested.
    pub(crate) fn spent(&mut self, fraction: f64) -> bool {
        if self.flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        self.stopped
            || self
                .budget
                .is_some_and(|b| self.start.elapsed().as_secs_f64() > b.as_secs_f64() * fraction)
    }
}
