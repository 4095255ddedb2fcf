//! Time management: how long to think about one move.
//!
//! A move gets a [`MoveTime`]: a **target**, the time to aim for, and a **limit**, the time
//! the search may never pass ([`crate::limits::Limits::move_time`] makes them instants).
//!
//! - With a turn time only, both are the turn time minus a safety margin that covers the
//!   search's reaction time, the answer's trip through the pipe and the manager's own
//!   overhead.
//! - With a game clock, the target is the clock's share for one move, `time left / expected
//!   moves left` (at most `max_moves_left`, or `increment_moves_left` with an increment)
//!   plus the increment each move adds to the clock, and the limit is `max_stretch` shares,
//!   both at most the turn time and both less the margin. The increment comes after the
//!   move, so a share is at most a quarter of the clock left and the limit at most half of
//!   it (bounds that only an increment large against the clock reaches). The search stops
//!   early on a forced move and goes on past the target while its best move is unsettled
//!   (see `search`), so the time saved on easy moves goes to hard ones.
//!
//! The numbers are tunables ([`TimeTuning`], made by
//! `crate::search::params::SearchParams::time_tuning` from the `time_*` tunables), whose
//! defaults are these, with the reasons for them:
//!
//! - the margin: 25 ms, but at most 20 % of a short time and never below 2 ms, plus 4 % of
//!   the time. The margin covers the stop's reaction (a node-count check, the root threat
//!   searches' own checks), the answer's trip through the pipe and the manager's overhead,
//!   which take about a millisecond here, so a 30 ms turn keeps 6 ms (and thinks about
//!   23 ms, not 3.5 ms), a 50 ms one 10 ms; from a 125 ms turn up the 25 ms hold.
//! - 10 to 16 moves expected left: a move's share of the game clock is at least 1/16 of what
//!   is left. Games between strong players are mostly decided within 20 to 40 moves a side,
//!   and the share is of the time left, so a long game still gets time (with 16: about half
//!   the clock is left after 15 moves, a quarter after 30, a tenth after 50, counting the
//!   moves that end before their target). 12 and 24 played no better in self-play under a
//!   game clock (see `docs/search.md`).
//! - 8 with an increment: the increment is a floor under every later share, so a long game
//!   is never starved, and the clock left at the end is time the game allowed and no move
//!   used: a search spends about 0.7 of its target on average (it starts no iteration past
//!   0.65 of it and stops forced moves early). Over 40 self-play games under 10 s + 100 ms a
//!   move, 16 expected moves used 70 % of what the games allowed, 10 used 79 %, 8 used 83 %
//!   with no forfeit (the closest clock 265 ms) and scored 52.5 % against 16.
//! - a limit of 3 shares, a share at most a quarter of the clock left, a limit at most half.
//!
//! A turn time of 0 means "answer at once".

use std::time::Duration;

/// The numbers of time management (see the module docs for what each does and why its
/// default is what it is).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeTuning {
    /// Fixed part of the safety margin, in milliseconds ...
    pub margin_ms: u64,
    /// ... but at most this share of a short time, in percent ...
    pub margin_short_percent: u64,
    /// ... and never below this, in milliseconds.
    pub min_margin_ms: u64,
    /// Proportional part of the safety margin, in percent of the raw time.
    pub margin_percent: u64,
    /// Fewest moves the engine expects still to play.
    pub min_moves_left: u64,
    /// Most moves the engine expects still to play.
    pub max_moves_left: u64,
    /// Most moves the engine expects still to play when each move adds an increment.
    pub increment_moves_left: u64,
    /// With a game clock, the limit of one move in shares.
    pub max_stretch: u64,
    /// A move's share of the game clock is at most the clock left divided by this.
    pub share_of_left_divisor: u64,
    /// A move's limit is at most the clock left divided by this.
    pub limit_of_left_divisor: u64,
}

/// The clock as the manager describes it (all times in milliseconds; `None` = no limit).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per move (`timeout_turn`); `Some(0)` = answer at once.
    pub turn_ms: Option<u64>,
    /// Time left on the game clock (`time_left`), if the game has a clock.
    pub left_ms: Option<u64>,
    /// Time the game clock gains after each move (`time_increment`).
    pub increment_ms: u64,
}

/// How long to think about one move (`Duration::MAX` = no limit).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// The time to aim for (at most `limit`).
    pub target: Duration,
    /// The time never to pass.
    pub limit: Duration,
}

impl TimeControl {
    /// The time for a move with `empty_cells` empty cells left on the board, by the numbers
    /// of `tuning`.
    ///
    /// ```
    /// use mnk_engine::search::SearchParams;
    /// use mnk_engine::time::{MoveTime, TimeControl};
    /// use std::time::Duration;
    /// let ms = Duration::from_millis;
    /// let tuning = &SearchParams::DEFAULT.time_tuning();
    /// // A turn time only: target and limit are the turn time less 25 ms and 4 %.
    /// let tc = TimeControl { turn_ms: Some(1000), left_ms: None, increment_ms: 0 };
    /// assert_eq!(tc.move_time(200, tuning), MoveTime { target: ms(1000 - 25 - 40), limit: ms(935) });
    /// // A game clock: 1/16 of it as the target, three times that as the limit.
    /// let tc = TimeControl { turn_ms: Some(30_000), left_ms: Some(160_000), increment_ms: 0 };
    /// assert_eq!(tc.move_time(200, tuning), MoveTime { target: ms(10_000 - 425), limit: ms(30_000 - 1225) });
    /// let at_once = TimeControl { turn_ms: Some(0), left_ms: Some(60_000), increment_ms: 0 };
    /// assert_eq!(at_once.move_time(200, tuning).limit, Duration::ZERO);
    /// // An increment adds to each share, and the clock is spent over 8 moves, not 16,
    /// // but a move never takes over half the clock.
    /// let tc = TimeControl { turn_ms: None, left_ms: Some(16_000), increment_ms: 500 };
    /// assert_eq!(tc.move_time(200, tuning), MoveTime { target: ms(2_500 - 125), limit: ms(7_500 - 325) });
    /// let tc = TimeControl { turn_ms: None, left_ms: Some(1_000), increment_ms: 500 };
    /// assert_eq!(tc.move_time(200, tuning), MoveTime { target: ms(250 - 35), limit: ms(500 - 45) });
    /// ```
    pub fn move_time(&self, empty_cells: usize, tuning: &TimeTuning) -> MoveTime {
        let t = tuning;
        // Each side plays about half of the remaining cells.
        let most = if self.increment_ms > 0 { t.increment_moves_left } else { t.max_moves_left };
        let moves_left = (empty_cells as u64 / 2).clamp(t.min_moves_left.min(most), most).max(1);
        let turn = self.turn_ms.unwrap_or(u64::MAX);
        let (target, limit) = match self.left_ms {
            Some(left) => {
                let share = (left / moves_left)
                    .saturating_add(self.increment_ms)
                    .min(left / t.share_of_left_divisor.max(1));
                let limit =
                    share.saturating_mul(t.max_stretch).min(left / t.limit_of_left_divisor.max(1));
                (turn.min(share), turn.min(limit))
            }
            None if self.turn_ms.is_some() => (turn, turn),
            None => return MoveTime { target: Duration::MAX, limit: Duration::MAX },
        };
        MoveTime { target: t.less_margin(target), limit: t.less_margin(limit) }
    }
}

impl TimeTuning {
    /// `raw` milliseconds less the safety margin.
    fn less_margin(&self, raw: u64) -> Duration {
        let percent = |p: u64| raw / 100 * p + raw % 100 * p / 100;
        let fixed = percent(self.margin_short_percent).min(self.margin_ms).max(self.min_margin_ms);
        let margin = fixed + percent(self.margin_percent);
        Duration::from_millis(raw.saturating_sub(margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchParams;

    const TUNING: &TimeTuning = &SearchParams::DEFAULT.time_tuning();

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_game_clock_sets_the_target_and_three_shares_the_limit() {
        let tc = TimeControl { turn_ms: Some(5_000), left_ms: Some(32_000), increment_ms: 0 };
        // 200 empty cells: 16 moves expected (capped), 2,000 ms each, less 25 + 80.
        assert_eq!(
            tc.move_time(200, TUNING),
            MoveTime { target: ms(1_895), limit: ms(5_000 - 25 - 200) }
        );
        // Few cells left: at least 10 moves are assumed.
        let tc = TimeControl { turn_ms: None, left_ms: Some(20_000), increment_ms: 0 };
        assert_eq!(tc.move_time(4, TUNING).target, ms(2_000 - 25 - 80));
        assert_eq!(tc.move_time(4, TUNING).limit, ms(6_000 - 25 - 240));
    }

    #[test]
    fn the_turn_time_caps_target_and_limit() {
        let tc = TimeControl { turn_ms: Some(1_000), left_ms: Some(1_000_000), increment_ms: 0 };
        assert_eq!(tc.move_time(200, TUNING), MoveTime { target: ms(935), limit: ms(935) });
    }

    #[test]
    fn tiny_move_times_never_go_negative() {
        for turn_ms in 0..=2 {
            let tc = TimeControl { turn_ms: Some(turn_ms), left_ms: None, increment_ms: 0 };
            assert_eq!(tc.move_time(100, TUNING), MoveTime { target: ms(0), limit: ms(0) });
        }
        let tc = TimeControl { turn_ms: None, left_ms: Some(10), increment_ms: 0 };
        assert_eq!(tc.move_time(100, TUNING), MoveTime { target: ms(0), limit: ms(0) });
    }

    /// A short turn keeps a fifth of itself (at least 2 ms) and 4 % as its margin, not the
    /// 25 ms that would leave it almost nothing; from 125 ms up the margin is as before.
    #[test]
    fn a_short_turn_keeps_a_margin_in_proportion() {
        let turn = |turn_ms| TimeControl { turn_ms: Some(turn_ms), left_ms: None, increment_ms: 0 };
        assert_eq!(turn(10).move_time(100, TUNING).limit, ms(10 - 2));
        assert_eq!(turn(30).move_time(100, TUNING).limit, ms(30 - 6 - 1));
        assert_eq!(turn(50).move_time(100, TUNING).limit, ms(50 - 10 - 2));
        assert_eq!(turn(125).move_time(100, TUNING).limit, ms(125 - 25 - 5));
        assert_eq!(turn(200).move_time(100, TUNING).limit, ms(200 - 25 - 8));
        for turn_ms in 0..2_000 {
            let thinking = turn(turn_ms).move_time(100, TUNING).limit.as_millis() as u64;
            assert!(thinking <= turn_ms.saturating_sub(2), "{turn_ms} ms");
        }
    }

    #[test]
    fn an_increment_adds_to_each_share_but_never_spends_the_clock() {
        // Whatever the increment, a move never takes more than half the clock left, so a
        // game of any length keeps time in hand.
        for increment_ms in [0, 10, 100, 1_000, 100_000] {
            let mut left = 10_000u64;
            for _ in 0..500 {
                let tc = TimeControl { turn_ms: None, left_ms: Some(left), increment_ms };
                let limit = tc.move_time(200, TUNING).limit.as_millis() as u64;
                assert!(limit <= left / 2, "{increment_ms} ms: {limit} of {left}");
                left = left - limit + increment_ms;
            }
            assert!(left > 0);
        }
    }

    #[test]
    fn no_limits_means_no_move_time_limit() {
        let tc = TimeControl { turn_ms: None, left_ms: None, increment_ms: 0 };
        assert_eq!(
            tc.move_time(100, TUNING),
            MoveTime { target: Duration::MAX, limit: Duration::MAX }
        );
    }

    #[test]
    fn the_margin_is_exact_for_huge_clocks() {
        // No overflow: 4 % of three shares of u64::MAX is computed by hundreds.
        let tc = TimeControl { turn_ms: None, left_ms: Some(u64::MAX), increment_ms: 0 };
        assert!(tc.move_time(200, TUNING).limit > ms(u64::MAX / 8));
    }
}
