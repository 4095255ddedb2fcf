//! Time management: how long to think about one move.
//!
//! The budget is `min(turn time, time left / expected moves left)` minus a safety margin
//! that covers the search's reaction time, the answer's trip through the pipe and the
//! manager's own overhead. A turn time of 0 means "answer at once".

use std::time::Duration;

/// Fixed part of the safety margin, in milliseconds.
pub const MARGIN_MS: u64 = 25;
/// Proportional part of the safety margin, in percent of the raw budget.
pub const MARGIN_PERCENT: u64 = 4;
/// Fewest moves the engine expects still to play (so the clock is never spent at once).
pub const MIN_MOVES_LEFT: u64 = 10;
/// Most moves the engine expects still to play.
pub const MAX_MOVES_LEFT: u64 = 40;

/// The clock as the manager describes it (all times in milliseconds; `None` = no limit).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per move (`timeout_turn`); `Some(0)` = answer at once.
    pub turn_ms: Option<u64>,
    /// Time left on the game clock (`time_left`), if the game has a clock.
    pub left_ms: Option<u64>,
}

impl TimeControl {
    /// The thinking budget for a move with `empty_cells` empty cells left on the board.
    ///
    /// ```
    /// use mnk_engine::time::TimeControl;
    /// use std::time::Duration;
    /// let tc = TimeControl { turn_ms: Some(1000), left_ms: None };
    /// assert_eq!(tc.budget(200), Duration::from_millis(1000 - 25 - 40));
    /// let at_once = TimeControl { turn_ms: Some(0), left_ms: Some(60_000) };
    /// assert_eq!(at_once.budget(200), Duration::ZERO);
    /// ```
    pub fn budget(&self, empty_cells: usize) -> Duration {
        // Each side plays about half of the remaining cells.
        let moves_left = (empty_cells as u64 / 2).clamp(MIN_MOVES_LEFT, MAX_MOVES_LEFT);
        let per_move_share = self.left_ms.map(|left| left / moves_left);
        let raw = match (self.turn_ms, per_move_share) {
            (Some(turn), Some(share)) => turn.min(share),
            (Some(turn), None) => turn,
            (None, Some(share)) => share,
            (None, None) => return Duration::MAX,
        };
        let margin = MARGIN_MS + raw * MARGIN_PERCENT / 100;
        Duration::from_millis(raw.saturating_sub(margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_clock_limits_the_turn_time() {
        let tc = TimeControl { turn_ms: Some(5_000), left_ms: Some(20_000) };
        // 200 empty cells: 40 moves expected (capped), 500 ms each, minus 25 + 20.
        assert_eq!(tc.budget(200), Duration::from_millis(455));
        // Few cells left: at least 10 moves are assumed.
        assert_eq!(tc.budget(4), Duration::from_millis(2_000 - 25 - 80));
    }

    #[test]
    fn tiny_budgets_never_go_negative() {
        let tc = TimeControl { turn_ms: Some(10), left_ms: None };
        assert_eq!(tc.budget(100), Duration::ZERO);
        let tc = TimeControl { turn_ms: None, left_ms: Some(50) };
        assert_eq!(tc.budget(100), Duration::ZERO);
    }

    #[test]
    fn no_limits_means_no_budget_limit() {
        let tc = TimeControl { turn_ms: None, left_ms: None };
        assert_eq!(tc.budget(100), Duration::MAX);
    }
}
