//! Drives a real `pbrain-mnk` process over its pipes, as a manager would: the manager's own
//! [`EngineProcess`], with the assertions a test wants (every failure panics with what
//! went wrong). Tests send [`Command`]s and read [`Response`]s, or, to test the wire itself
//! (transcripts, malformed input), raw lines.

#![allow(dead_code, unreachable_pub)]

use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use mnk_engine::notation::Point;
use mnk_protocol::command::Command;
use mnk_protocol::manager::process::{EngineProcess, is_chatter};
use mnk_protocol::response::Response;

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
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"));
        command.args(args).stderr(Stdio::piped()).env_remove("RUST_LOG");
        Engine(EngineProcess::spawn_command(command, "pbrain-mnk").expect("the engine starts"))
    }

    /// Sends raw text (no newline added).
    pub fn send_raw(&mut self, text: &[u8]) {
        self.0.send_raw(text).expect("the engine reads its input");
    }

    /// Sends one line as it is.
    pub fn send(&mut self, line: &str) {
        self.0.send_line(line).expect("the engine reads its input");
    }

    /// Sends `command`.
    pub fn send_command(&mut self, command: &Command) {
        self.0.send(command).expect("the engine reads its input");
    }

    /// Sends `command` and returns its answer (the next response that is not progress).
    pub fn ask_command(&mut self, command: &Command) -> Response {
        self.send_command(command);
        let answer = self.answer();
        answer.parse().unwrap_or_else(|_| panic!("not a response: {answer:?}"))
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

/// The point of an `x,y` answer (panics on anything else).
pub fn parse_move(answer: &str) -> Point {
    match answer.parse::<Response>() {
        Ok(Response::Move(point)) => point,
        _ => panic!("not a move: {answer:?}"),
    }
}

/// Whether `line` is a well-formed protocol output line: a [`Response`], written exactly
/// as the type writes it (mnk's ABOUT line, not another engine's).
pub fn well_formed(line: &str) -> bool {
    line.parse::<Response>().is_ok_and(|response| {
        response.to_string() == line
            && !matches!(&response, Response::About(about) if !about.get("name").is_some_and(|n| n.starts_with("mnk")))
    })
}
