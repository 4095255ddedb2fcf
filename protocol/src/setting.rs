//! The settings a manager sends with `INFO key value`, typed ([`Setting`]): parsed as
//! leniently as managers send them (keys in any case), kept as sent (a value mnk clamps is
//! clamped where it is used), and printed back as `key value`.

use std::fmt;

use mnk_engine::strength::Strength;

/// A setting the manager sends with `INFO key value`, its value typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `timeout_turn`: milliseconds a move (0: answer at once).
    TimeoutTurn(u64),
    /// `timeout_match`: milliseconds a game (0: no game clock).
    TimeoutMatch(u64),
    /// `time_left`: milliseconds left on the game clock (a negative value, which some
    /// managers send once the clock has run out, counts as 0).
    TimeLeft(i64),
    /// `time_increment` (Yixin-Board, Rapfi): milliseconds the game clock gains after each
    /// move.
    TimeIncrement(u64),
    /// `max_memory`: bytes the engine may use (0: no limit).
    MaxMemory(u64),
    /// `hash_size` (Yixin-Board): the transposition table's size in KB, within what
    /// `max_memory` allows (0: sized by `max_memory` and the time control again).
    HashSizeKb(u64),
    /// `rule`: the Gomocup rule code (0, 1, 2, 4, 8, 9; others are refused at the next move).
    Rule(u32),
    /// `max_depth`: the deepest iteration (`None`: 0, no limit; mnk searches at most 255
    /// plies deep).
    MaxDepth(Option<u64>),
    /// `max_node`: the most nodes a search may visit (`None`: 0, no limit).
    MaxNode(Option<u64>),
    /// `thread_num`: search threads (the session clamps it to what it supports).
    ThreadNum(u64),
    /// `pondering` (Yixin-Board, Rapfi): 1 keeps searching on the opponent's time.
    Pondering(bool),
    /// `strength` (mnk): the playing strength, 0 to 100 (full).
    Strength(Strength),
    /// `messages` (mnk's own): whether progress lines are sent.
    Messages(bool),
    /// Any other key (`game_type`, `folder`, `evaluate`, ...) and its value: accepted and
    /// not needed.
    Ignored(String, String),
}

impl fmt::Display for Setting {
    /// `key value`, as after `INFO`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flag = |on: bool| u8::from(on);
        match self {
            Setting::TimeoutTurn(ms) => write!(f, "timeout_turn {ms}"),
            Setting::TimeoutMatch(ms) => write!(f, "timeout_match {ms}"),
            Setting::TimeLeft(ms) => write!(f, "time_left {ms}"),
            Setting::TimeIncrement(ms) => write!(f, "time_increment {ms}"),
            Setting::MaxMemory(bytes) => write!(f, "max_memory {bytes}"),
            Setting::HashSizeKb(kb) => write!(f, "hash_size {kb}"),
            Setting::Rule(code) => write!(f, "rule {code}"),
            Setting::MaxDepth(depth) => write!(f, "max_depth {}", depth.unwrap_or(0)),
            Setting::MaxNode(nodes) => write!(f, "max_node {}", nodes.unwrap_or(0)),
            Setting::ThreadNum(n) => write!(f, "thread_num {n}"),
            Setting::Pondering(on) => write!(f, "pondering {}", flag(*on)),
            Setting::Strength(strength) => write!(f, "strength {}", strength.level()),
            Setting::Messages(on) => write!(f, "messages {}", flag(*on)),
            Setting::Ignored(key, value) if value.is_empty() => f.write_str(key),
            Setting::Ignored(key, value) => write!(f, "{key} {value}"),
        }
    }
}

impl Setting {
    /// The typed value of `INFO key value` (`key` lower case), or `None` if it does not
    /// fit the key.
    pub fn parse(key: &str, value: &str) -> Option<Setting> {
        let number = || value.parse::<u64>().ok();
        let flag = || match value {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        Some(match key {
            "timeout_turn" => Setting::TimeoutTurn(number()?),
            "timeout_match" => Setting::TimeoutMatch(number()?),
            "time_left" => Setting::TimeLeft(value.parse::<i64>().ok()?),
            "time_increment" => Setting::TimeIncrement(number()?),
            "max_memory" => Setting::MaxMemory(number()?),
            "hash_size" => Setting::HashSizeKb(number()?),
            "rule" => Setting::Rule(u32::try_from(number()?).ok()?),
            "max_depth" => Setting::MaxDepth(Some(number()?).filter(|&depth| depth > 0)),
            "max_node" => Setting::MaxNode(Some(number()?).filter(|&n| n > 0)),
            "thread_num" => Setting::ThreadNum(number()?),
            "messages" => Setting::Messages(flag()?),
            "pondering" => Setting::Pondering(flag()?),
            "strength" => Setting::Strength(Strength::new(u32::try_from(number()?).ok()?)?),
            other => Setting::Ignored(other.to_string(), value.to_string()),
        })
    }
}
