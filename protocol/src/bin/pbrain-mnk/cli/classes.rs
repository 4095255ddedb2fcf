//! `pbrain-mnk solve --size 8 --classes RECORD`: the (8,8,5) proof one class of black's
//! first move at a time, kept in a record file that later runs continue from.
//!
//! Black's question (can black force a five?) is refuted when each of the ten classes of
//! black's first move up to symmetry (a1 b1 c1 d1 b2 c2 d2 c3 d3 d4: 64 moves) is refuted;
//! white's (can white force five, black moving first?) when one first move of black's
//! holds (d4 is tried first). Each class is its own proof with its own state file in
//! `--work-dir` (resumed, saved every `--save-every` seconds, removed once the class is
//! recorded); a settled class's certificate is written there, checked by `solve --verify`'s
//! checker, and recorded with its size and SHA-256, the nodes and seconds it took, the
//! move that refutes it and the command that makes it again. `--check` ([`check`]) checks
//! the recorded certificates against the record instead of proving.
//!
//! Record lines (after `#` comments):
//!
//! ```text
//! black a1 refuted d4 nodes 31516811 seconds 612.4 certificate 9113 2741114 sha256 <hex> command <...>
//! ```
//!
//! `black a1 refuted d4`: black cannot force a five after black a1, white's reply d4
//! refutes it (`wins -` where the attacker can). Output: one `class ...` line per class
//! settled in this run, then `black refuted N/64 (classes ...)`, `white refuted yes|no`
//! and `value draw|unknown` (or `value win` if a class of black's wins).

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mnk_engine::notation::{Point, format_pos};
use mnk_engine::prove::search::{Answer, positions_in};
use mnk_engine::prove::{Position, Proof, Question, cell_point, verify};
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use sha2::{Digest, Sha256};

use super::proof_run::{Budget, attacker_name, drive, file_error, resume, write_whole};
use super::{CliError, UsageError};
use crate::explain::game_of_moves;

/// Black's first move on a `side`×`side` board up to its eight symmetries: the cells (x, y)
/// with y ≤ x in the lower left quarter (row by row: a1 b1 c1 d1 b2 c2 d2 c3 d3 d4 on
/// 8×8), each with how many cells it stands for.
pub(crate) fn classes(side: usize) -> Vec<(String, u32)> {
    let half = side.div_ceil(2);
    let mut found = Vec::new();
    for y in 0..half {
        for x in y..half {
            let (far_x, far_y) = (side - 1 - x, side - 1 - y);
            let mut images = vec![
                (x, y),
                (far_x, y),
                (x, far_y),
                (far_x, far_y),
                (y, x),
                (far_y, x),
                (y, far_x),
                (far_y, far_x),
            ];
            images.sort_unstable();
            images.dedup();
            found.push((format_pos(Point { x, y }), images.len() as u32));
        }
    }
    found
}

/// One settled class.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Settled {
    /// The side asked whether it can force a five ("black" or "white").
    pub(crate) attacker: String,
    /// Black's first move (the class).
    pub(crate) class: String,
    /// The attacker cannot force a five.
    pub(crate) refuted: bool,
    /// The rest of the line as written (key move, figures, command).
    pub(crate) rest: String,
}

/// Reads a record of a `side`×`side` board; an unreadable line is an error naming it.
pub(crate) fn parse_record(text: &str, side: usize) -> Result<Vec<Settled>, String> {
    let classes = classes(side);
    let mut settled = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("line {}: {why}: {line}", n + 1);
        let mut words = line.splitn(4, ' ');
        let attacker = words.next().unwrap_or_default();
        let class = words.next().unwrap_or_default();
        let answer = words.next().unwrap_or_default();
        if attacker != "black" && attacker != "white" {
            return Err(bad("the first word is not black or white"));
        }
        if !classes.iter().any(|(c, _)| c == class) {
            let names: Vec<&str> = classes.iter().map(|(c, _)| c.as_str()).collect();
            return Err(bad(&format!("not one of the classes {}", names.join(" "))));
        }
        let refuted = match answer {
            "refuted" => true,
            "wins" => false,
            _ => return Err(bad("the answer is not refuted or wins")),
        };
        if settled.iter().any(|s: &Settled| s.attacker == attacker && s.class == class) {
            return Err(bad("the class is recorded twice"));
        }
        let rest = words.next().unwrap_or_default().to_string();
        settled.push(Settled { attacker: attacker.into(), class: class.into(), refuted, rest });
    }
    Ok(settled)
}

const HEADER: &str = "\
# A proof of the empty board, class by class: `pbrain-mnk solve --size N --classes THIS_FILE
# --work-dir DIR` goes on from here (see docs/proving.md). One line per settled class:
#   <attacker> <black's first move> refuted|wins <key move> nodes N seconds S
#   certificate <positions> <bytes> sha256 <hex> command <the command that makes it again>
# black: can black force five after this first move? white: can white force five after it?
";

/// The options class mode takes from `solve`.
pub(crate) struct ClassArgs<'a> {
    pub(crate) side: usize,
    /// Prove this class only (`--class`), so that several runs can share one record.
    pub(crate) only: Option<&'a str>,
    pub(crate) record: &'a Path,
    pub(crate) work_dir: &'a Path,
    pub(crate) hash_mb: usize,
    pub(crate) budget: Budget,
}

/// Proves the classes the record does not hold yet, within the budget.
pub(crate) fn run(args: &ClassArgs<'_>, out: &mut dyn Write) -> Result<(), CliError> {
    let classes = classes(args.side);
    if let Some(only) = args.only
        && !classes.iter().any(|(c, _)| c == only)
    {
        let names: Vec<&str> = classes.iter().map(|(c, _)| c.as_str()).collect();
        let why = format!("--class {only}: the classes are {}", names.join(" "));
        return Err(UsageError::Classes(why).into());
    }
    let mut settled = read_record(args.record, args.side)?;
    std::fs::create_dir_all(args.work_dir).map_err(|e| file_error("work-dir", args.work_dir, e))?;
    let start = Instant::now();
    // Classes another run is proving (their lock files exist): left to it.
    let mut busy: Vec<Settled> = Vec::new();
    loop {
        let known: Vec<Settled> = settled.iter().chain(&busy).cloned().collect();
        let next = match args.only {
            None => next_class(&classes, &known),
            Some(only) => next_for(only, &classes, &known),
        };
        let Some((attacker, class)) = next else { break };
        let mut budget = Budget { stop: args.budget.stop.clone(), ..args.budget };
        if let Some(time) = budget.time {
            budget.time = Some(time.saturating_sub(start.elapsed()));
            if budget.time == Some(Duration::ZERO) {
                break;
            }
        }
        match prove_class(args, attacker, &class, &budget, out)? {
            Proved::Settled(line) => settled = add_to_record(args.record, args.side, line)?,
            Proved::Unfinished => break,
            Proved::Busy(lock) if args.only.is_none() => {
                eprintln!("solve: class {class}: another run holds {}; skipped", lock.display());
                let (attacker, refuted, rest) = (attacker.to_string(), true, String::new());
                busy.push(Settled { attacker, class, refuted, rest });
            }
            Proved::Busy(lock) => {
                let why = format!(
                    "another run is proving class {class} (remove {} if none is)",
                    lock.display()
                );
                return Err(UsageError::Classes(why).into());
            }
        }
    }
    // The record as it is now: runs beside this one may have settled classes since it read it.
    let settled = read_record(args.record, args.side)?;
    summary(&classes, &settled, out)?;
    if args.budget.stop.is_raised() && next_class(&classes, &settled).is_some() {
        return Err(CliError::ProofInterrupted { state: Some(args.work_dir.to_path_buf()) });
    }
    Ok(())
}

/// The question to ask of one class: black's if it is open, else white's while no class
/// has settled white's yet.
fn next_for(
    class: &str,
    classes: &[(String, u32)],
    settled: &[Settled],
) -> Option<(&'static str, String)> {
    if settled.iter().any(|s| s.attacker == "black" && !s.refuted) {
        return None;
    }
    if open_in(settled, "black", class) {
        return Some(("black", class.to_string()));
    }
    let black_done = classes.iter().all(|(c, _)| !open_in(settled, "black", c));
    let white_done = settled.iter().any(|s| s.attacker == "white" && s.refuted);
    (black_done && !white_done && open_in(settled, "white", class))
        .then(|| ("white", class.to_string()))
}

/// Whether the record lacks `attacker`'s question for `class`.
fn open_in(settled: &[Settled], attacker: &str, class: &str) -> bool {
    !settled.iter().any(|s| s.attacker == attacker && s.class == class)
}

/// The record's settled classes (none if the file does not exist yet).
fn read_record(path: &Path, side: usize) -> Result<Vec<Settled>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(file_error("classes", path, e)),
    };
    parse_record(&text, side).map_err(|e| UsageError::Record(path.to_path_buf(), e).into())
}

/// Adds a settled class to the record as it is on disk now (another run may have added
/// classes since this one read it) and returns the record.
fn add_to_record(path: &Path, side: usize, line: Settled) -> Result<Vec<Settled>, CliError> {
    let mut settled = read_record(path, side)?;
    if !settled.iter().any(|s| s.attacker == line.attacker && s.class == line.class) {
        settled.push(line);
    }
    write_record(path, &settled)?;
    Ok(settled)
}

/// The next class to prove: black's first (every class, unless one wins), then white's
/// until one of black's first moves holds (the centre's class first).
fn next_class(classes: &[(String, u32)], settled: &[Settled]) -> Option<(&'static str, String)> {
    if settled.iter().any(|s| s.attacker == "black" && !s.refuted) {
        return None;
    }
    if let Some((class, _)) = classes.iter().find(|(c, _)| open_in(settled, "black", c)) {
        return Some(("black", class.clone()));
    }
    if settled.iter().any(|s| s.attacker == "white" && s.refuted) {
        return None;
    }
    classes
        .iter()
        .rev()
        .find(|(c, _)| open_in(settled, "white", c))
        .map(|(c, _)| ("white", c.clone()))
}

/// How a run on one class ended.
enum Proved {
    /// Settled: the record line.
    Settled(Settled),
    /// The budget ran out first (the state is kept).
    Unfinished,
    /// Another run holds the class's lock file (this path).
    Busy(PathBuf),
}

/// A class's lock file, made when a run takes the class and removed when it lets go.
struct Lock(PathBuf);

impl Lock {
    /// Takes the lock, or `None` if the file exists already.
    fn take(path: PathBuf) -> Result<Option<Lock>, CliError> {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(_) => Ok(Some(Lock(path))),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(file_error("work-dir", &path, e)),
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The position after black's first move `class`, white to move.
fn class_position(side: usize, class: &str) -> Result<Position, UsageError> {
    let size = BoardSize::from_side(side).expect("a square board the prover takes");
    let game = game_of_moves(size, Rule::Freestyle, class).map_err(UsageError::Moves)?;
    Ok(Position::of_game(&game).expect("a freestyle board from 5 to 8"))
}

/// The name a class's files in the work directory share (`8x8-black-a1`), before `.state`,
/// `.seconds`, `.lock` or `.cert`.
fn stem(side: usize, attacker: &str, class: &str) -> String {
    format!("{side}x{side}-{attacker}-{class}")
}

/// Proves one class, holding its lock file meanwhile.
fn prove_class(
    args: &ClassArgs<'_>,
    attacker: &str,
    class: &str,
    budget: &Budget,
    out: &mut dyn Write,
) -> Result<Proved, CliError> {
    let side = args.side;
    let position = class_position(side, class)?;
    let question = Question::BOTH
        .into_iter()
        .find(|&q| attacker_name(position.black_to_move, q) == attacker)
        .expect("each side asks one question");
    let stem = stem(side, attacker, class);
    let lock_path = args.work_dir.join(format!("{stem}.lock"));
    let Some(_lock) = Lock::take(lock_path.clone())? else {
        return Ok(Proved::Busy(lock_path));
    };
    let state = args.work_dir.join(format!("{stem}.state"));
    let mut proof = if state.exists() {
        resume(&state, &position, &[question])?
    } else {
        Proof::of(position, &[question])
    };
    proof.set_max_positions(positions_in(args.hash_mb << 20));
    eprintln!("solve: class {class}: can {attacker} force five after black {class}?");
    // Seconds spent on the class in earlier runs, kept beside its state.
    let clock = args.work_dir.join(format!("{stem}.seconds"));
    let before: f64 = std::fs::read_to_string(&clock)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
        .unwrap_or(0.0);
    let started = Instant::now();
    let driven = drive(&mut proof, Some(&state), budget);
    let seconds = before + started.elapsed().as_secs_f64();
    std::fs::write(&clock, format!("{seconds:.1}\n"))
        .map_err(|e| file_error("work-dir", &clock, e))?;
    driven?;
    let Some(answer) = proof.answer(question) else {
        return Ok(Proved::Unfinished);
    };
    let refuted = answer == Answer::Disproved;
    let key = if refuted { proof.key_move(question) } else { None };
    let key = key.map_or("-".to_string(), |c| format_pos(cell_point(c)));
    let mut rest = format!("{key} nodes {} seconds {seconds:.1}", proof.nodes());
    let command = format!(
        "pbrain-mnk solve --size {side} --moves {class} --can-win {attacker}{}",
        if refuted { format!(" --certificate {stem}.cert") } else { String::new() }
    );
    if refuted {
        let path = args.work_dir.join(format!("{stem}.cert"));
        let text = proof.certificate().map_err(UsageError::Certificate)?;
        verify::check(&text).map_err(|e| CliError::CertificateRejected(path.clone(), e))?;
        std::fs::write(&path, &text).map_err(|e| file_error("certificate", &path, e))?;
        let positions = positions_in_certificate(&text);
        let hash = hex(&Sha256::digest(text.as_bytes()));
        let _ = write!(rest, " certificate {positions} {} sha256 {hash}", text.len());
    }
    let _ = write!(rest, " command {command}");
    let answer = if refuted { "refuted" } else { "wins" };
    writeln!(out, "class {attacker} {class} {answer} {rest}")?;
    // The record holds the result; the tables are not needed again.
    let _ = std::fs::remove_file(&state);
    let _ = std::fs::remove_file(&clock);
    Ok(Proved::Settled(Settled { attacker: attacker.into(), class: class.into(), refuted, rest }))
}

/// `--check`: checks every recorded class against its certificate in `work_dir` instead of
/// proving: the file's size and SHA-256 as recorded, the built-in checker's verdict, and
/// that it refutes the recorded side from the class's position. Prints one `checked ...`
/// line per class, then what the record proves; the first certificate that is missing or
/// does not match is an error (exit code 1) naming the class and the command that makes it
/// again.
pub(crate) fn check(
    side: usize,
    record: &Path,
    work_dir: &Path,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let classes = classes(side);
    if !record.exists() {
        // Proving starts a record; checking needs one.
        return Err(UsageError::Record(record.to_path_buf(), "no such file".into()).into());
    }
    let settled = read_record(record, side)?;
    for s in &settled {
        if !s.refuted {
            writeln!(out, "unchecked {} {} wins (a win has no certificate)", s.attacker, s.class)?;
            continue;
        }
        let stem = stem(side, &s.attacker, &s.class);
        let path = work_dir.join(format!("{stem}.cert"));
        let positions = check_class(side, s, &path)
            .map_err(|why| CliError::RecordUnchecked(path.clone(), why))?;
        writeln!(
            out,
            "checked {} {} refuted certificate {stem}.cert positions {positions} sha256 ok",
            s.attacker, s.class
        )?;
    }
    summary(&classes, &settled, out)
}

/// Checks one refuted class's certificate at `path`; the positions it holds, or why not.
fn check_class(side: usize, s: &Settled, path: &Path) -> Result<usize, String> {
    let words: Vec<&str> = s.rest.split_whitespace().collect();
    let after = |name: &str, skip: usize| {
        let at = words.iter().position(|&w| w == name)?;
        words.get(at + 1 + skip).copied()
    };
    let command = s.rest.split_once(" command ").map_or("", |(_, c)| c);
    let (Some(positions), Some(bytes), Some(hash)) =
        (after("certificate", 0), after("certificate", 1), after("sha256", 0))
    else {
        return Err("the record names no certificate (positions, bytes, sha256)".into());
    };
    let text = std::fs::read(path)
        .map_err(|e| format!("cannot read it ({e}); make it with: {command}"))?;
    if text.len().to_string() != bytes {
        return Err(format!("{} bytes, the record says {bytes}", text.len()));
    }
    let digest = hex(&Sha256::digest(&text));
    if digest != hash {
        return Err(format!("its SHA-256 is {digest}, the record says {hash}"));
    }
    let text = String::from_utf8(text).map_err(|_| "not text".to_string())?;
    let checked =
        verify::check(&text).map_err(|e| format!("the certificate does not hold: {e}"))?;
    let root = class_position(side, &s.class).map_err(|e| e.to_string())?;
    let [section] = checked.sections.as_slice() else {
        return Err(format!("{} sections, a class has one", checked.sections.len()));
    };
    let claims = (section.refutes_black, section.black, section.white, section.black_to_move);
    let wanted = (s.attacker == "black", root.black, root.white, root.black_to_move);
    if claims != wanted {
        return Err(format!(
            "it proves another claim than the record's (refutes {}, black {:x}, white {:x})",
            if section.refutes_black { "black" } else { "white" },
            section.black,
            section.white
        ));
    }
    let counted = positions_in_certificate(&text);
    if counted.to_string() != positions {
        return Err(format!("{counted} positions, the record says {positions}"));
    }
    Ok(counted)
}

/// The positions a certificate gives a strategy for (its `R` and `P` records).
fn positions_in_certificate(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("R ") || l.starts_with("P ")).count()
}

/// Lower-case hexadecimal of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut h, b| {
        let _ = write!(h, "{b:02x}");
        h
    })
}

/// Writes the record beside and renames it over the old one.
fn write_record(path: &Path, settled: &[Settled]) -> Result<(), CliError> {
    let mut text = HEADER.to_string();
    for s in settled {
        let answer = if s.refuted { "refuted" } else { "wins" };
        let _ = writeln!(text, "{} {} {answer} {}", s.attacker, s.class, s.rest);
    }
    write_whole(path, text.as_bytes(), "classes")
}

/// What the record proves so far.
fn summary(
    classes: &[(String, u32)],
    settled: &[Settled],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let black: Vec<&Settled> = settled.iter().filter(|s| s.attacker == "black").collect();
    let weight = |class: &str| classes.iter().find(|(c, _)| c == class).map_or(0, |&(_, w)| w);
    let cells: u32 = classes.iter().map(|&(_, w)| w).sum();
    let refuted: u32 = black.iter().filter(|s| s.refuted).map(|s| weight(&s.class)).sum();
    let names: Vec<&str> = classes
        .iter()
        .map(|(c, _)| c.as_str())
        .filter(|&c| black.iter().any(|s| s.refuted && s.class == c))
        .collect();
    writeln!(out, "black refuted {refuted}/{cells} (classes {})", names.join(" "))?;
    let holds = settled.iter().find(|s| s.attacker == "white" && s.refuted);
    match holds {
        Some(s) => writeln!(out, "white refuted yes (black {} holds)", s.class)?,
        None => writeln!(out, "white refuted no")?,
    }
    let value = if black.iter().any(|s| !s.refuted) {
        "win"
    } else if refuted == cells && holds.is_some() {
        "draw"
    } else {
        "unknown"
    };
    writeln!(out, "value {value}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_cover_the_board_once() {
        for side in 5..=8 {
            assert_eq!(classes(side).iter().map(|&(_, w)| w).sum::<u32>(), (side * side) as u32);
        }
        let names: Vec<String> = classes(8).into_iter().map(|(c, _)| c).collect();
        assert_eq!(names.join(" "), "a1 b1 c1 d1 b2 c2 d2 c3 d3 d4");
        assert_eq!(classes(7).last(), Some(&("d4".to_string(), 1)));
    }

    #[test]
    fn a_record_reads_and_its_errors_name_the_line() {
        let text = format!("{HEADER}black a1 refuted d4 nodes 5 seconds 1.0 command x\n");
        let settled = parse_record(&text, 8).unwrap();
        assert_eq!(settled.len(), 1);
        assert!(settled[0].refuted && settled[0].class == "a1");
        assert_eq!(next_class(&classes(8), &settled), Some(("black", "b1".to_string())));
        let twice = format!("{text}black a1 refuted d4\n");
        assert!(parse_record(&twice, 8).unwrap_err().contains("twice"));
        assert!(parse_record("black e5 refuted d4\n", 8).unwrap_err().contains("line 1"));
        assert!(parse_record("grey a1 refuted d4\n", 8).is_err());
        assert!(parse_record("black a1 maybe d4\n", 8).is_err());
    }

    #[test]
    fn white_is_asked_once_black_is_refuted_everywhere() {
        let all: Vec<Settled> = classes(8)
            .into_iter()
            .map(|(c, _)| Settled {
                attacker: "black".into(),
                class: c,
                refuted: true,
                rest: String::new(),
            })
            .collect();
        assert_eq!(next_class(&classes(8), &all), Some(("white", "d4".to_string())));
        let mut done = all.clone();
        done.push(Settled {
            attacker: "white".into(),
            class: "d4".into(),
            refuted: true,
            rest: String::new(),
        });
        assert_eq!(next_class(&classes(8), &done), None);
        let mut out = Vec::new();
        summary(&classes(8), &done, &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("value draw"));
    }
}
