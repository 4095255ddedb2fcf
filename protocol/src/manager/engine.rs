//! A pbrain engine as a child process, driven from the manager's side: the match runner's
//! referee and the end-to-end tests both talk to engines through it.
//!
//! A reader thread turns the engine's output into lines, decoding it leniently (invalid
//! UTF-8 replaced, a trailing CR dropped: some engines print raw bytes), so no output can
//! stop the reading; an engine counts as crashed only when its output closes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
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
    /// Starts `command` (words separated by spaces; the first is the program), its
    /// diagnostics (stderr) discarded.
    pub fn spawn(command: &str) -> Result<EngineProcess, EngineError> {
        let mut words = command.split_whitespace();
        let program =
            words.next().ok_or_else(|| EngineError::Spawn("empty command".to_string()))?;
        let mut process = Command::new(program);
        process.args(words).stderr(Stdio::null());
        EngineProcess::spawn_command(process, command)
    }

    /// Starts `command` as it is set up (arguments, environment, stderr), with its input and
    /// output piped here; `name` stands for it until `ABOUT` gives another.
    pub fn spawn_command(mut command: Command, name: &str) -> Result<EngineProcess, EngineError> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{name}: {e}")))?;
        let stdout =
            child.stdout.take().ok_or_else(|| EngineError::Spawn("no stdout".to_string()))?;
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let text = String::from_utf8_lossy(&bytes);
                let line = text.strip_suffix('\n').unwrap_or(&text);
                let line = line.strip_suffix('\r').unwrap_or(line);
                if tx.send(line.to_string()).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(EngineProcess { child, stdin, lines, name: name.to_string() })
    }

    /// Sends raw bytes (no newline added); an engine that closed its input counts as
    /// crashed.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Result<(), EngineError> {
        let stdin = self.stdin.as_mut().ok_or(EngineError::Crashed)?;
        stdin.write_all(bytes).and_then(|()| stdin.flush()).map_err(|_| EngineError::Crashed)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// The next line of output, whatever it is, within `timeout`.
    pub fn line(&mut self, timeout: Duration) -> Result<String, EngineError> {
        self.lines.recv_timeout(timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => EngineError::Timeout,
            RecvTimeoutError::Disconnected => EngineError::Crashed,
        })
    }

    /// The next line that is not `MESSAGE`/`DEBUG` or empty, trimmed, within `timeout`.
    pub fn answer(&mut self, timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.line(deadline.saturating_duration_since(Instant::now()))?;
            let line = line.trim();
            if !is_chatter(line) {
                return Ok(line.to_string());
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

    /// Closes the engine's input (its end of input).
    pub fn close_input(&mut self) {
        self.stdin.take();
    }

    /// Waits at most `timeout` for the process to exit; returns its status and how long
    /// the wait took, or `None` if it is still running.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<(ExitStatus, Duration)> {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some((status, start.elapsed()));
            }
            if start.elapsed() > timeout {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// What the engine wrote on stderr, if it was piped (read to its end: call it after the
    /// engine exited).
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = Read::read_to_string(&mut err, &mut text);
        }
        text
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Asks the engine to quit and gives it a moment, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("END");
        self.close_input();
        let _ = self.wait_exit(Duration::from_millis(500));
    }
}

/// Whether `line` is progress an engine prints beside its answers (`MESSAGE`, `DEBUG`, or
/// nothing at all), never an answer itself.
pub fn is_chatter(line: &str) -> bool {
    line.is_empty() || line.starts_with("MESSAGE") || line.starts_with("DEBUG")
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
