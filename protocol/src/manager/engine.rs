//! A pbrain engine as a child process, driven from the manager's side.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The command could not be started.
    Spawn(String),
    /// No answer within the allowed time.
    Timeout,
    /// The process closed its output (crashed or exited).
    Crashed,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::Timeout => write!(f, "no answer in time"),
            EngineError::Crashed => write!(f, "the engine exited"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The engine's name from `ABOUT`, or the command.
    pub name: String,
}

impl EngineProcess {
    /// Starts `command` (words separated by spaces; the first is the program).
    pub fn spawn(command: &str) -> Result<EngineProcess, EngineError> {
        let mut words = command.split_whitespace();
        let program =
            words.next().ok_or_else(|| EngineError::Spawn("empty command".to_string()))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{command}: {e}")))?;
        let stdout =
            child.stdout.take().ok_or_else(|| EngineError::Spawn("no stdout".to_string()))?;
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
        Ok(EngineProcess { child, stdin, lines, name: command.to_string() })
    }

    /// Sends one line; an engine that closed its input counts as crashed.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Crashed)?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    /// The next line that is not `MESSAGE`/`DEBUG`, within `timeout`.
    pub fn answer(&mut self, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if !line.starts_with("MESSAGE")
                        && !line.starts_with("DEBUG")
                        && !line.is_empty()
                    {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crashed),
            }
        }
    }

    /// Asks `ABOUT` and keeps the `name` field if the engine gives one.
    pub fn identify(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ABOUT")?;
        let about = self.answer(timeout)?;
        if let Some(rest) = about.split("name=\"").nth(1)
            && let Some(name) = rest.split('"').next()
            && !name.is_empty()
        {
            self.name = name.to_string();
        }
        Ok(())
    }

    /// Asks the engine to quit and gives it a moment, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("END");
        self.stdin.take();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
