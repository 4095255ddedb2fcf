//! What ends work early, in one vocabulary for every search-like loop (the search, the
//! threat solver, the defence and balance checks, the swap2 opening, the small-board solve,
//! the prover, perft, the classroom program):
//!
//! - [`Limits`]: what one job may spend — depth, nodes, a deadline and the time it aims at
//!   within it — and its stop flag. Every door of the engine that searches, counts or
//!   proves takes one ([`crate::engine::Engine`]).
//! - [`StopFlag`]: a flag another thread raises (the protocol's `YXSTOP` and `END`, the end
//!   of a ponder, a helper thread's end, Ctrl-C);
//! - [`Stop`]: a deadline and a stop flag, either optional, and the one check of "stopped
//!   from outside or past the deadline" ([`Stop::is_due`]), which the loops inside a job
//!   ask every so many nodes.
//!
//! A job made of many searches (the defence check, the balance and the swap2 opening) spends
//! `nodes` on each of them, and the deadline and the flag bound the whole job; the prover
//! spends `nodes` node expansions on each run. Times are instants, fixed when the limits are
//! made (a move's time counts from when its command came in, not from when the search
//! starts).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::time::MoveTime;

/// A flag that stops work when another thread raises it. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not raised yet.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises the flag: the work it was given to stops soon.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What stops work from outside: a deadline, a stop flag, both or neither (`default()`:
/// nothing does). Loops ask [`Stop::is_due`] every so many nodes.
///
/// ```
/// use std::time::{Duration, Instant};
/// use mnk_engine::limits::{Stop, StopFlag};
/// let flag = StopFlag::new();
/// let stop = Stop { deadline: None, flag: Some(flag.clone()) };
/// assert!(!stop.is_due());
/// flag.raise();
/// assert!(stop.is_due());
/// assert!(Stop { deadline: Some(Instant::now()), flag: None }.is_due());
/// let later = Instant::now() + Duration::from_secs(60);
/// assert!(!Stop { deadline: Some(later), flag: None }.is_due());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop {
    /// The instant past which the work stops.
    pub deadline: Option<Instant>,
    /// The flag that stops the work when raised.
    pub flag: Option<StopFlag>,
}

impl Stop {
    /// Stops when `flag` is raised.
    pub fn on(flag: StopFlag) -> Stop {
        Stop { deadline: None, flag: Some(flag) }
    }

    /// Whether the work must stop now: the flag is raised or the deadline has passed.
    #[inline]
    pub fn is_due(&self) -> bool {
        self.flag_raised() || self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Whether the flag is raised (the deadline aside).
    #[inline]
    pub fn flag_raised(&self) -> bool {
        self.flag.as_ref().is_some_and(StopFlag::is_raised)
    }
}

/// What one search may spend; every field is optional (`default()`: search to the maximum
/// depth, until stopped).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes to stop after (exact: equal limits give equal searches).
    pub nodes: Option<u64>,
    /// The instant the search never passes.
    pub deadline: Option<Instant>,
    /// The instant it aims at, if before the deadline (a game clock's share of one move,
    /// see [`MoveTime`]): iterations start only within a share of the time until then,
    /// which the search stretches towards the deadline while its best move is unsettled
    /// and shrinks on a forced move. `None`: the deadline is the aim as well. The root
    /// threat searches take their share of the aim.
    pub target: Option<Instant>,
    /// The flag that stops it from outside.
    pub stop: Option<StopFlag>,
}

impl Limits {
    /// A search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A search of `nodes` nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// A search of `time` from now.
    pub fn time(time: Duration) -> Limits {
        Limits { deadline: Instant::now().checked_add(time), ..Limits::default() }
    }

    /// A search of the move time `time` counted from `since` (when the request came in):
    /// its limit as the deadline, its target as the aim (`Duration::MAX`: none).
    pub fn move_time(time: MoveTime, since: Instant) -> Limits {
        let at = |duration: Duration| {
            (duration != Duration::MAX).then(|| since.checked_add(duration)).flatten()
        };
        Limits { deadline: at(time.limit), target: at(time.target), ..Limits::default() }
    }

    /// Stopped by `flag` alone.
    pub fn until_stopped(flag: StopFlag) -> Limits {
        Limits::default().with_stop(flag)
    }

    /// These limits, stopped also by `flag`.
    #[must_use]
    pub fn with_stop(mut self, flag: StopFlag) -> Limits {
        self.stop = Some(flag);
        self
    }

    /// These limits with `nodes` nodes if they set none.
    #[must_use]
    pub fn nodes_or(mut self, nodes: u64) -> Limits {
        self.nodes.get_or_insert(nodes);
        self
    }

    /// The limits of one search of a job made of many (see the module docs): the nodes, the
    /// deadline and the flag, with no depth or aim.
    pub fn each_search(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            deadline: self.deadline,
            stop: self.stop.clone(),
            ..Limits::default()
        }
    }

    /// What stops the search from outside: the deadline and the flag.
    pub fn stop(&self) -> Stop {
        Stop { deadline: self.deadline, flag: self.stop.clone() }
    }

    /// Whether nothing limits the search but its depth and the stop flag, which no search
    /// can foresee: a small board searched so is being solved.
    pub fn exhaustive(&self) -> bool {
        self.nodes.is_none() && self.deadline.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_time_counts_from_the_request_and_max_is_no_limit() {
        let since = Instant::now();
        let ms = Duration::from_millis;
        let limits = Limits::move_time(MoveTime { target: ms(100), limit: ms(300) }, since);
        assert_eq!(
            (limits.target, limits.deadline),
            (Some(since + ms(100)), Some(since + ms(300)))
        );
        let none =
            Limits::move_time(MoveTime { target: Duration::MAX, limit: Duration::MAX }, since);
        assert_eq!((none.target, none.deadline), (None, None));
        assert!(none.exhaustive() && !limits.exhaustive());
        assert!(Limits::until_stopped(StopFlag::new()).exhaustive());
    }

    #[test]
    fn a_stop_with_a_new_deadline_keeps_its_flag() {
        let flag = StopFlag::new();
        let stop = Limits::default().with_stop(flag.clone()).stop();
        let later = Stop { deadline: Some(Instant::now() + Duration::from_secs(60)), ..stop };
        assert!(!later.is_due());
        flag.raise();
        assert!(later.is_due() && later.flag_raised());
        assert!(!Stop::default().is_due());
    }
}
