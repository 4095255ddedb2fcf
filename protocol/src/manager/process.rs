//! A pbrain engine as a child process, driven from the manager's side: the match runner's
//! referee and the end-to-end tests both talk to engines through it, sending [`Command`]s
//! and reading [`Response`]s (raw lines too, for tests of malformed input).
//!
//! A reader thread turns the engine's output into lines, decoding it leniently (invalid
//! UTF-8 replaced, a trailing CR dropped: some engines print raw bytes), so no output can
//! stop the reading; an engine counts as crashed only when its output closes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::command::Command;
use crate::response::Response;

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

/// How to start an engine: a command line, as a shell or c-gomoku-cli's `cmd=` takes it —
/// the program and its arguments, separated by spaces, where quotes (`'…'`, `"…"`) and a
/// backslash keep spaces inside a word (`"./my engines/e.sh" --config x`). A line that names
/// an existing file as a whole (`./my engines/e.sh`, unquoted) is that program alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    /// The line as given.
    line: String,
    /// The program, then its arguments.
    words: Vec<String>,
}

/// A command line that cannot be split into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandLineError {
    /// Nothing but spaces.
    Empty,
    /// A quote that is not closed.
    UnclosedQuote(char),
    /// A backslash at the end of the line.
    TrailingBackslash,
}

impl std::fmt::Display for CommandLineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandLineError::Empty => f.write_str("an empty command"),
            CommandLineError::UnclosedQuote(quote) => write!(f, "an unclosed {quote}"),
            CommandLineError::TrailingBackslash => f.write_str("a backslash at the end"),
        }
    }
}

impl std::error::Error for CommandLineError {}

impl std::str::FromStr for EngineCommand {
    type Err = CommandLineError;

    fn from_str(line: &str) -> Result<EngineCommand, CommandLineError> {
        let whole = line.trim();
        let words = if !whole.is_empty() && std::path::Path::new(whole).is_file() {
            vec![whole.to_string()]
        } else {
            split_words(whole)?
        };
        if words.is_empty() {
            return Err(CommandLineError::Empty);
        }
        Ok(EngineCommand { line: line.to_string(), words })
    }
}

impl EngineCommand {
    /// The program's file name (`pbrain-rapfi` for `/opt/engines/pbrain-rapfi --x`): the
    /// engine's name where it gives none.
    pub fn program_name(&self) -> String {
        let program = &self.words[0];
        let path = std::path::Path::new(program);
        path.file_name().map_or_else(|| program.clone(), |name| name.to_string_lossy().into())
    }

    /// The same command with `args` appended (each one word, whatever it holds).
    pub fn with_args(&self, args: &[String]) -> EngineCommand {
        let mut command = self.clone();
        for arg in args {
            command.line.push(' ');
            command.line.push('\'');
            command.line.push_str(&arg.replace('\'', r"'\''"));
            command.line.push('\'');
            command.words.push(arg.clone());
        }
        command
    }
}

impl std::fmt::Display for EngineCommand {
    /// The line as given.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line)
    }
}

/// The words of a command line: spaces separate them; inside single quotes every character
/// is itself, inside double quotes and outside quotes a backslash takes the next one as it
/// is.
fn split_words(line: &str) -> Result<Vec<String>, CommandLineError> {
    let (mut words, mut word, mut in_word) = (Vec::new(), String::new(), false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                continue;
            }
            '\\' => word.push(chars.next().ok_or(CommandLineError::TrailingBackslash)?),
            '\'' | '"' => loop {
                match chars.next() {
                    None => return Err(CommandLineError::UnclosedQuote(c)),
                    Some(end) if end == c => break,
                    Some('\\') if c == '"' => {
                        word.push(chars.next().ok_or(CommandLineError::UnclosedQuote(c))?);
                    }
                    Some(inside) => word.push(inside),
                }
            },
            c => word.push(c),
        }
        in_word = true;
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The engine's name from `ABOUT`, or its program's file name.
    pub name: String,
}

impl EngineProcess {
    /// Starts `command`, its diagnostics (stderr) discarded.
    pub fn spawn(command: &EngineCommand) -> Result<EngineProcess, EngineError> {
        let (program, arguments) =
            command.words.split_first().expect("a command line has a program");
        let mut process = std::process::Command::new(program);
        process.args(arguments).stderr(Stdio::null());
        let mut engine = EngineProcess::spawn_command(process, &command.line)?;
        engine.name = command.program_name();
        Ok(engine)
    }

    /// Starts `command` as it is set up (arguments, environment, stderr), with its input and
    /// output piped here; `name` stands for it until `ABOUT` gives another.
    pub fn spawn_command(
        mut command: std::process::Command,
        name: &str,
    ) -> Result<EngineProcess, EngineError> {
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

    /// Sends one line as it is (for input that is no [`Command`]).
    pub fn send_line(&mut self, line: &str) -> Result<(), EngineError> {
        self.send_raw(format!("{line}\n").as_bytes())
    }

    /// Sends `command` (a block as its lines).
    pub fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        self.send_line(&command.to_string())
    }

    /// The next line of output, whatever it is, within `timeout`.
    pub fn line(&mut self, timeout: Duration) -> Result<String, EngineError> {
        self.lines.recv_timeout(timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => EngineError::Timeout,
            RecvTimeoutError::Disconnected => EngineError::Crashed,
        })
    }

    /// The next line that is not progress (`MESSAGE`/`DEBUG`) or empty, trimmed, within
    /// `timeout`, as it is: for the referee, which judges what an engine answers, and for
    /// tests.
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

    /// The next answer within `timeout`, as a [`Response`] (`Err(line)` for a line that
    /// is none).
    pub fn response(&mut self, timeout: Duration) -> Result<Result<Response, String>, EngineError> {
        let line = self.answer(timeout)?;
        Ok(line.parse::<Response>().map_err(|_| line))
    }

    /// Asks `ABOUT` and keeps the `name` field if the engine gives one.
    pub fn identify(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(&Command::About)?;
        if let Ok(Response::About(about)) = self.response(timeout)?
            && let Some(name) = about.get("name").filter(|name| !name.is_empty())
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
        let _ = self.send(&Command::End);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Result<Vec<String>, CommandLineError> {
        line.parse::<EngineCommand>().map(|command| command.words)
    }

    #[test]
    fn command_lines_split_at_spaces_but_not_inside_quotes_or_after_a_backslash() {
        assert_eq!(
            words("  rapfi --config x "),
            Ok(vec!["rapfi".into(), "--config".into(), "x".into()])
        );
        assert_eq!(
            words(r#""./my engines/e.sh" -v"#),
            Ok(vec!["./my engines/e.sh".into(), "-v".into()])
        );
        assert_eq!(
            words(r"./my\ engines/e.sh 'a b'c"),
            Ok(vec!["./my engines/e.sh".into(), "a bc".into()])
        );
        assert_eq!(
            words(r#"e "say \"hi\"" '\x'"#),
            Ok(vec!["e".into(), r#"say "hi""#.into(), r"\x".into()])
        );
        assert_eq!(words(r#"e """#), Ok(vec!["e".into(), String::new()]));
        assert_eq!(words("  "), Err(CommandLineError::Empty));
        assert_eq!(words("e 'a"), Err(CommandLineError::UnclosedQuote('\'')));
        assert_eq!(words("e a\\"), Err(CommandLineError::TrailingBackslash));
    }

    #[test]
    fn an_existing_file_is_the_program_whatever_its_name_holds() {
        let dir = std::env::temp_dir().join(format!("mnk-command {}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let program = dir.join("my engine");
        std::fs::write(&program, "").unwrap();
        let line = program.to_str().unwrap();
        assert_eq!(words(line), Ok(vec![line.to_string()]));
        assert_eq!(line.parse::<EngineCommand>().unwrap().to_string(), line);
        assert_eq!(line.parse::<EngineCommand>().unwrap().program_name(), "my engine");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_engine_is_named_by_its_program_file_without_the_path_or_arguments() {
        let name = |line: &str| line.parse::<EngineCommand>().unwrap().program_name();
        assert_eq!(name("/opt/engines/pbrain-rapfi --config x.toml"), "pbrain-rapfi");
        assert_eq!(name("./mnk"), "mnk");
        assert_eq!(name("engine"), "engine");
    }
}
