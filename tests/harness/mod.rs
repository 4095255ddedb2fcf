//! Drives a real `pbrain-mnk` process over its pipes, as a manager would: the manager's own
//! [`EngineProcess`], with the assertions a test wants (every failure panics with what
//! went wrong).

#![allow(dead_code, unreachable_pub)]

use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mnk_protocol::manager::engine::{EngineProcess, is_chatter};

/// Generous limit for an answer that should come at once (CI machines can be slow).
pub const PROMPT: Duration = Duration::from_secs(10);

/// A running engine.
pub struct Engine(EngineProcess);

impl Engine {
    /// Starts the binary with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts the binary with `args` (`["classroom"]`: the protocol, played by the classroom
    /// program), its stderr kept for [`Engine::stderr`].
    pub fn start_with(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"));
        command.args(args).stderr(Stdio::piped()).env_remove("RUST_LOG");
        Engine(EngineProcess::spawn_command(command, "pbrain-mnk").expect("the engine starts"))
    }

    /// Sends raw text (no newline added).
    pub fn send_raw(&mut self, text: &[u8]) {
        self.0.send_raw(text).expect("the engine reads its input");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.0.send(line).expect("the engine reads its input");
    }

    /// The next output line, or `None` after `timeout` (or once the output closed).
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        self.0.line(timeout).ok()
    }

    /// The next line that is not a `MESSAGE`/`DEBUG` line; panics after `timeout`.
    pub fn answer_within(&mut self, timeout: Duration) -> String {
        self.0.answer(timeout).unwrap_or_else(|e| panic!("no answer within {timeout:?}: {e}"))
    }

    /// [`Engine::answer_within`] with [`PROMPT`].
    pub fn answer(&mut self) -> String {
        self.answer_within(PROMPT)
    }

    /// Sends a command and returns its answer.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// Asserts that nothing (apart from MESSAGE lines) arrives within `wait`.
    pub fn assert_silent(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some(line) = self.line_within(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(is_chatter(&line), "unexpected output {line:?}");
        }
    }

    /// Closes stdin.
    pub fn close_input(&mut self) {
        self.0.close_input();
    }

    /// Waits for the process to exit, at most `timeout`; returns its status and how long it
    /// took.
    pub fn wait_exit(&mut self, timeout: Duration) -> (ExitStatus, Duration) {
        self.0
            .wait_exit(timeout)
            .unwrap_or_else(|| panic!("the engine did not exit within {timeout:?}"))
    }

    /// What the engine wrote to stderr (after it exited).
    pub fn stderr(&mut self) -> String {
        self.0.stderr()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.0.pid()
    }
}

/// Parses an `x,y` answer.
pub fn parse_move(answer: &str) -> (usize, usize) {
    let (x, y) = answer.split_once(',').unwrap_or_else(|| panic!("not a move: {answer:?}"));
    (
        x.parse().unwrap_or_else(|_| panic!("not a move: {answer:?}")),
        y.parse().unwrap_or_else(|_| panic!("not a move: {answer:?}")),
    )
}

/// Whether `line` is a well-formed protocol output line.
pub fn well_formed(line: &str) -> bool {
    let is_move = |s: &str| {
        s.split_once(',').is_some_and(|(x, y)| {
            !x.is_empty()
                && !y.is_empty()
                && x.bytes().all(|b| b.is_ascii_digit())
                && y.bytes().all(|b| b.is_ascii_digit())
        })
    };
    line == "OK"
        || line == "SWAP"
        || is_move(line)
        || (line.contains(' ') && line.split(' ').all(is_move))
        || line.starts_with("ERROR ")
        || line.starts_with("UNKNOWN ")
        || line.starts_with("MESSAGE ")
        || line.starts_with("name=\"mnk\"")
        || (line.starts_with("FORBID ") && line.ends_with('.'))
        || line.strip_prefix("nodes ").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
}
