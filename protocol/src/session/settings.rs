//! The manager's settings (`INFO`) as typed values, and what follows from them: the rule,
//! the clock for the next move, and the transposition table's size.

use mnk_engine::engine::{DEFAULT_HASH_BYTES, Engine, MAX_THREADS, MIN_HASH_BYTES};
use mnk_engine::rules::Rule;
use mnk_engine::search::SearchParams;
use mnk_engine::strength::Strength;
use mnk_engine::time::TimeControl;

use crate::command::Setting;
use crate::error::UnsupportedRule;

/// Deepest `max_depth` the search takes, in plies.
pub const MAX_DEPTH: u64 = 255;
/// Turn time when the manager sends none, in milliseconds.
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Memory kept back from `max_memory` for everything but the transposition table: code,
/// stacks, the search's own tables, allocator slack.
pub const MEMORY_RESERVE_BYTES: usize = 24 << 20;
/// Memory kept back from `max_memory` for each search thread beyond the first: its board,
/// solver table and search tables, and the part of its stack it touches.
pub const THREAD_RESERVE_BYTES: usize = 8 << 20;
/// Main-search nodes a second one search thread is assumed to reach when the table is sized
/// for the time control: well above the 2.5 M measured here (`bench --speed`), so a faster
/// machine still finds room.
pub const TABLE_NODES_PER_SECOND: u64 = 4_000_000;
/// Moves' worth of search (each as long as one move may take) the table is sized for when
/// the time control, not `max_memory`, is the smaller bound.
pub const TABLE_MOVES: u64 = 2;

/// The manager's settings (`INFO`).
#[derive(Clone, Debug)]
pub struct Settings {
    /// `timeout_turn` in ms.
    pub turn_ms: u64,
    /// `timeout_match` in ms (0 = no game clock).
    pub match_ms: u64,
    /// `time_left` in ms, if sent in this game.
    pub time_left_ms: Option<u64>,
    /// `time_increment` in ms: what the game clock gains after each move.
    pub increment_ms: u64,
    /// Our thinking time in ms since the last `time_left` (or, if none came in this game,
    /// since `START` or `RESTART`): the game clock is `time_left` — or `timeout_match`
    /// before any — less this plus [`Settings::earned_ms`], so a manager that sends
    /// `time_left` seldom or never still has it kept.
    pub spent_ms: u64,
    /// The increments our moves earned over the same span.
    pub earned_ms: u64,
    /// `max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// `hash_size` in KB, if a GUI set the table's size (0 or none: sized by `max_memory`
    /// and the time control).
    pub hash_kb: Option<u64>,
    /// `rule` as sent.
    pub rule_code: u32,
    /// `max_depth`, if sent.
    pub max_depth: Option<u32>,
    /// `max_node`, if sent.
    pub max_nodes: Option<u64>,
    /// Search threads (`thread_num`, clamped to 1..=`MAX_THREADS`; 1 if not sent).
    pub threads: usize,
    /// Whether search progress is sent as `MESSAGE` lines (`INFO messages 0|1`).
    pub messages: bool,
    /// Whether mnk searches on the opponent's time (`INFO pondering 0|1`; off by default).
    pub pondering: bool,
    /// The playing strength (`INFO strength 0..100`; 100, full, by default).
    pub strength: Strength,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            turn_ms: DEFAULT_TURN_MS,
            match_ms: 0,
            time_left_ms: None,
            increment_ms: 0,
            spent_ms: 0,
            earned_ms: 0,
            max_memory: 0,
            hash_kb: None,
            rule_code: 0,
            max_depth: None,
            max_nodes: None,
            threads: 1,
            messages: true,
            pondering: false,
            strength: Strength::full(),
        }
    }
}

impl Settings {
    /// Takes the setting of one `INFO` line. A `time_left` restarts the count of the
    /// engine's own thinking time (see [`Settings::spent_ms`]); `thread_num` is clamped to
    /// 1..=[`MAX_THREADS`].
    pub fn apply(&mut self, setting: &Setting) {
        match *setting {
            Setting::TimeoutTurn(ms) => self.turn_ms = ms,
            Setting::TimeoutMatch(ms) => self.match_ms = ms,
            Setting::TimeLeft(ms) => {
                self.time_left_ms = Some(ms.max(0).unsigned_abs());
                (self.spent_ms, self.earned_ms) = (0, 0);
            }
            Setting::TimeIncrement(ms) => self.increment_ms = ms,
            Setting::MaxMemory(bytes) => self.max_memory = bytes,
            Setting::HashSizeKb(kb) => self.hash_kb = (kb > 0).then_some(kb),
            Setting::Rule(code) => self.rule_code = code,
            Setting::MaxDepth(depth) => {
                self.max_depth =
                    depth.map(|d| u32::try_from(d.min(MAX_DEPTH)).expect("at most 255"));
            }
            Setting::MaxNode(nodes) => self.max_nodes = nodes,
            Setting::ThreadNum(n) => {
                self.threads = usize::try_from(n.clamp(1, MAX_THREADS as u64)).unwrap_or(1);
            }
            Setting::Messages(on) => self.messages = on,
            Setting::Pondering(on) => self.pondering = on,
            Setting::Strength(strength) => self.strength = strength,
            // Accepted and not needed: game_type, folder, evaluate (a debugging hint that
            // must never print) and any unknown key.
            Setting::Ignored(..) => {}
        }
    }

    /// The rule the `rule` code stands for, if mnk plays it.
    pub fn rule(&self) -> Result<Rule, UnsupportedRule> {
        Rule::from_protocol(self.rule_code).ok_or(UnsupportedRule(self.rule_code))
    }

    /// The clock for the next move: `timeout_turn`, and the game clock (see
    /// [`Settings::spent_ms`]) with its increment unless `timeout_match` is 0 or `time_left`
    /// is 2147483647.
    pub fn time_control(&self) -> TimeControl {
        let unlimited_game = self.match_ms == 0 || self.time_left_ms == Some(i32::MAX as u64);
        let left_ms = self
            .time_left_ms
            .unwrap_or(self.match_ms)
            .saturating_add(self.earned_ms)
            .saturating_sub(self.spent_ms);
        TimeControl {
            turn_ms: Some(self.turn_ms),
            left_ms: (!unlimited_game).then_some(left_ms),
            increment_ms: self.increment_ms,
        }
    }

    /// Counts a move we answered after `thought_ms`: the time it took off the game clock
    /// and the increment it earned.
    pub fn count_move(&mut self, thought_ms: u64) {
        self.spent_ms = self.spent_ms.saturating_add(thought_ms);
        self.earned_ms = self.earned_ms.saturating_add(self.increment_ms);
    }

    /// Transposition-table bytes: the `hash_size` a GUI asked for, if it did, else what the
    /// time control can fill (see [`Settings::hash_bytes_for_time`]; at most
    /// [`DEFAULT_HASH_BYTES`] without a memory limit); either way within what `max_memory`
    /// allows, and at least [`MIN_HASH_BYTES`].
    pub fn hash_bytes(&self) -> usize {
        let asked = match self.hash_kb {
            Some(kb) => usize::try_from(kb.saturating_mul(1024)).unwrap_or(usize::MAX),
            None if self.max_memory == 0 => self.hash_bytes_for_time().min(DEFAULT_HASH_BYTES),
            None => self.hash_bytes_for_time(),
        };
        asked.min(self.memory_for_table()).max(MIN_HASH_BYTES)
    }

    /// Bytes `max_memory` leaves the table (all of it but the reserves), unlimited if it is 0.
    fn memory_for_table(&self) -> usize {
        if self.max_memory == 0 {
            return usize::MAX;
        }
        let limit = usize::try_from(self.max_memory).unwrap_or(usize::MAX);
        limit.saturating_sub(MEMORY_RESERVE_BYTES + (self.threads - 1) * THREAD_RESERVE_BYTES)
    }

    /// Bytes [`TABLE_MOVES`] searches as long as one move may take (by `timeout_turn` and
    /// `timeout_match`, not `time_left`, so the size holds for the whole game) can fill at
    /// [`TABLE_NODES_PER_SECOND`] a thread, rounded up to a power of two.
    ///
    /// Memory the search cannot fill is not free: the system hands the table out lazily and
    /// the searches pay for each first touch of a page. On the 2-core virtual machine here
    /// a 350 MB table took 0.1 to 0.7 s of page faults, so with 200 ms a move the first
    /// moves of a game were searched 3 to 6 plies deep instead of 11.
    pub fn hash_bytes_for_time(&self) -> usize {
        let game_clock = (self.match_ms > 0).then_some(self.match_ms);
        let at_the_start = TimeControl {
            turn_ms: Some(self.turn_ms),
            left_ms: game_clock,
            increment_ms: self.increment_ms,
        };
        // (The default time tunables: the table is sized before any search.)
        let tuning = SearchParams::DEFAULT.time_tuning();
        let longest_move = at_the_start.move_time(usize::MAX, &tuning).limit;
        let nodes = u128::from(TABLE_NODES_PER_SECOND) * longest_move.as_millis() / 1000
            * (self.threads as u128)
            * u128::from(TABLE_MOVES);
        Engine::hash_bytes_for_entries(nodes)
    }
}
