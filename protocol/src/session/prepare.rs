//! Idle-time warm-up: work the game's first search would otherwise do in its own time.

use mnk_engine::pattern::table::PatternTable;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::tt::TranspositionTable;

use super::Session;
use super::settings::MIN_HASH_BYTES;
use crate::player::Player;

/// Bytes of a fresh table [`Session::prepare`] has the system back with memory per
/// call: a huge page, about 2 ms here, so a command that comes in meanwhile waits no longer.
pub const TOUCH_STEP_BYTES: usize = 2 << 20;

impl Session {
    /// Work for idle time, one step per call, that the game's first search would otherwise
    /// do in its own time: unpacking the pattern table of the rule the settings ask for (on
    /// 15×15, well under a millisecond), then making the transposition table that search
    /// will want and having the system back it with memory, [`TOUCH_STEP_BYTES`] a step
    /// (see [`TranspositionTable::touch`]: a fresh table's pages are mapped at their first
    /// writes, about 30 ms of a 167 ms budget here for 32 MiB). Returns whether any of it is
    /// left: the driver calls it again while no command is waiting, so a command waits for
    /// one step at most (and its time counts from when it came in). Settings that change the
    /// table's size, board size or rule make it anew, and the work starts again.
    pub fn prepare(&mut self) -> bool {
        let Some(game) = &self.game else { return false };
        // (An unsupported rule is reported at the move request.)
        let rule = self.settings.rule().unwrap_or(game.rule());
        let size = game.size();
        if !size.is_small() && self.prepared_rule != Some(rule) {
            PatternTable::of(rule);
            self.prepared_rule = Some(rule);
            return true;
        }
        let context = Some((size, rule));
        let mut tt = self.table_for(context);
        let Some(touched) = self.tt_touched else {
            // Kept from a search: its pages are mapped where it wrote.
            self.tt = Some(tt);
            return false;
        };
        let next = tt.touch(touched, TOUCH_STEP_BYTES);
        let left = next < tt.storage_bytes();
        self.tt = Some(tt);
        self.tt_touched = Some(next);
        left
    }

    /// The table the next search of a game of `context` uses: the one kept, if it has the
    /// size the settings want and entries of that context, else a new one (taking
    /// `self.tt`).
    pub(super) fn table_for(&mut self, context: Option<(BoardSize, Rule)>) -> TranspositionTable {
        // Zobrist keys are shared by bit index across sizes and results differ by rule, so a
        // table is reused only for the same size and rule, and only at the wanted size.
        // (The classroom program searches without one: it gets the smallest.)
        let wanted = match self.player {
            Player::Mnk => self.settings.hash_bytes(),
            Player::Classroom => MIN_HASH_BYTES,
        };
        // (Asked for, not granted: a table the system cut short is not made again and
        // again.)
        match self.tt.take() {
            Some(tt) if self.tt_wanted == wanted && self.tt_context == context => tt,
            _ => {
                self.tt_context = context;
                self.tt_wanted = wanted;
                self.tt_touched = Some(0);
                TranspositionTable::with_bytes(wanted)
            }
        }
    }
}
