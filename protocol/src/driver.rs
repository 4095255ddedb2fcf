//! The driver: threads around the pure [`Session`].
//!
//! * a reader thread turns stdin into lines (capped at `MAX_LINE_BYTES`, invalid UTF-8
//!   replaced) and sends them to the main loop;
//! * the main loop frames and parses them, feeds the session and writes every response
//!   (one writer, flushed after each line);
//! * a worker thread runs each [`crate::session::Job`] (a search, or a `PERFT` count) with a
//!   stop flag, sending its progress lines and its outcome back through the same channel.
//!
//! While a job runs, `YXSTOP`/`STOP` set the stop flag (the answer follows at once),
//! `END` and end of input return immediately (the caller exits the process, ending the
//! worker thread), and every other command waits until the answer has been written.
//!
//! With pondering on, an answer out and no command waiting, the worker searches on the
//! opponent's time ([`Session::ponder`]); the first line of any command sets its stop flag,
//! and the command is handled once the search has handed its table back.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Sender, TryRecvError};
use std::thread;
use std::time::Instant;

use mnk_engine::limits::StopFlag;

use crate::command::Command;
use crate::framing::{Framer, MAX_LINE_BYTES};
use crate::response::Response;
use crate::session::{JobOutcome, Reaction, Session};

/// Stack of the worker thread: deep small-board solves recurse up to 225 plies.
const SEARCH_STACK_BYTES: usize = 64 << 20;

enum Event {
    /// A line of input, and when it was read.
    Line(String, Instant),
    Eof,
    Progress(Box<Response>),
    Done(Box<JobOutcome>),
    /// The job panicked, with this message.
    Failed(String),
}

/// Runs the protocol on `input` and `output` until `END` or end of input.
pub fn run<R: Read + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    run_session(Session::new(), input, output)
}

/// [`run`] from `session` (for example one whose moves the classroom player chooses).
pub fn run_session<R: Read + Send + 'static, W: Write>(
    mut session: Session,
    input: R,
    output: W,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::Builder::new().name("stdin".into()).spawn(move || read_lines(input, &reader_tx))?;

    let mut out = output;
    let mut framer = Framer::new();
    let mut queue: VecDeque<(Command, Instant)> = VecDeque::new();
    let mut thinking: Option<StopFlag> = None;
    // What the job running is for (see `Session::fail`).
    let mut purpose = None;
    // Whether the job running is a ponder search, which any input stops.
    let mut pondering = false;
    loop {
        while thinking.is_none() {
            let Some((command, received)) = queue.pop_front() else { break };
            match session.handle_received(command, received) {
                Reaction::Reply(lines) => write_lines(&mut out, &lines)?,
                Reaction::Think(job) => {
                    purpose = job.purpose();
                    thinking = Some(spawn_job(job, &tx)?);
                }
                Reaction::Quit => return Ok(()),
            }
        }
        if thinking.is_none()
            && let Some(job) = session.ponder()
        {
            purpose = job.purpose();
            thinking = Some(spawn_job(job, &tx)?);
            pondering = true;
        }
        // Idle with nothing waiting: prepare the game's first search a step at a time.
        let event = match rx.try_recv() {
            Ok(event) => event,
            Err(TryRecvError::Disconnected) => return Ok(()),
            Err(TryRecvError::Empty) if thinking.is_none() && session.prepare() => continue,
            Err(TryRecvError::Empty) => {
                let Ok(event) = rx.recv() else { return Ok(()) };
                event
            }
        };
        match event {
            Event::Line(line, received) => {
                if let Some(stop) = thinking.as_ref().filter(|_| pondering) {
                    stop.raise();
                }
                let Some(frame) = framer.push(&line) else { continue };
                let command = Command::parse(&frame);
                log::debug!("command {command:?}");
                match (&thinking, command) {
                    (Some(stop), Command::Stop) => stop.raise(),
                    (Some(_), Command::End) => return Ok(()),
                    (_, command) => queue.push_back((command, received)),
                }
            }
            Event::Eof => return Ok(()),
            Event::Progress(line) => write_lines(&mut out, &[*line])?,
            Event::Done(outcome) => {
                (thinking, pondering) = (None, false);
                write_lines(&mut out, &session.finish(*outcome))?;
            }
            Event::Failed(message) => {
                (thinking, pondering) = (None, false);
                write_lines(&mut out, &session.fail(purpose, &message))?;
            }
        }
    }
}

fn spawn_job(job: Box<crate::session::Job>, tx: &Sender<Event>) -> io::Result<StopFlag> {
    let stop = StopFlag::new();
    let (flag, tx) = (stop.clone(), tx.clone());
    thread::Builder::new().name("worker".into()).stack_size(SEARCH_STACK_BYTES).spawn(
        move || {
            // A panic in the job is a bug; it must not leave the manager without an answer.
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                job.run(flag, &mut |line| {
                    let _ = tx.send(Event::Progress(Box::new(line)));
                })
            }));
            let _ = tx.send(match run {
                Ok(outcome) => Event::Done(Box::new(outcome)),
                Err(payload) => Event::Failed(panic_message(payload.as_ref())),
            });
        },
    )?;
    Ok(stop)
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => (*text).to_string(),
        (_, Some(text)) => text.clone(),
        _ => "a panic".to_string(),
    }
}

fn write_lines<W: Write>(out: &mut W, lines: &[Response]) -> io::Result<()> {
    for line in lines {
        log::debug!("answer {line}");
        writeln!(out, "{line}")?;
        out.flush()?;
    }
    Ok(())
}

/// Reads lines until end of input, keeping at most `MAX_LINE_BYTES + 1` bytes of each (so an
/// overlong line is still recognised as one).
fn read_lines<R: Read>(input: R, tx: &Sender<Event>) {
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_capped_line(&mut reader, &mut line) {
            Ok(0) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).into_owned();
                if tx.send(Event::Line(text, Instant::now())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let _ = tx.send(Event::Eof);
}

/// Reads one line into `line` (without the newline), keeping at most `MAX_LINE_BYTES + 1`
/// bytes. Returns the number of bytes consumed (0 at end of input).
fn read_capped_line<R: BufRead>(reader: &mut R, line: &mut Vec<u8>) -> io::Result<usize> {
    let mut consumed = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1),
            None => (available, available.len()),
        };
        let room = (MAX_LINE_BYTES + 1).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let newline = done > chunk.len();
        reader.consume(done);
        consumed += done;
        if newline {
            return Ok(consumed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_capped_but_consumed_whole() {
        let long = "x".repeat(MAX_LINE_BYTES * 3);
        let input = format!("{long}\nABOUT\n");
        let mut reader = io::Cursor::new(input.into_bytes());
        let mut line = Vec::new();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), MAX_LINE_BYTES * 3 + 1);
        assert_eq!(line.len(), MAX_LINE_BYTES + 1);
        line.clear();
        read_capped_line(&mut reader, &mut line).unwrap();
        assert_eq!(line, b"ABOUT");
        line.clear();
        assert_eq!(read_capped_line(&mut reader, &mut line).unwrap(), 0);
    }
}
