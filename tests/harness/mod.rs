//! Drives a real `pbrain-mnk` process over its pipes, as a manager would.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// Generous limit for an answer that should come at once (CI machines can be slow).
pub const PROMPT: Duration = Duration::from_secs(10);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Starts the binary with `args` (`["classroom"]`: the protocol, played by the classroom
    /// program).
    pub fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines }
    }

    /// Sends raw text (no newline added).
    pub fn send_raw(&mut self, text: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(text).expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next output line, or `None` after `timeout`.
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next line that is not a `MESSAGE`/`DEBUG` line; panics after `timeout`.
    pub fn answer_within(&mut self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line =
                self.line_within(left).unwrap_or_else(|| panic!("no answer within {timeout:?}"));
            if !line.starts_with("MESSAGE ") && !line.starts_with("DEBUG ") {
                return line;
            }
        }
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
            assert!(line.starts_with("MESSAGE "), "unexpected output {line:?}");
        }
    }

    /// Closes stdin.
    pub fn close_input(&mut self) {
        self.stdin.take();
    }

    /// Waits for the process to exit, at most `timeout`; returns its status and how long it
    /// took.
    pub fn wait_exit(&mut self, timeout: Duration) -> (ExitStatus, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return (status, start.elapsed());
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("the engine did not exit within {timeout:?}");
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// What the engine wrote to stderr (after it exited).
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
        }
        text
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
