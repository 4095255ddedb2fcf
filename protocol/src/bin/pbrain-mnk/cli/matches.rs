//! `pbrain-mnk match`: games between two pbrain engines, refereed by mnk.
//!
//! Each opening is played twice, the engines swapping colours. A live progress line per
//! finished game goes to stderr (with the time left to go); the summary goes to stdout:
//!
//! ```text
//! games 20
//! engine1 mnk 0.1.0
//! engine2 Rapfi 2024
//! W-D-L 11-2-7
//! score 0.6000
//! elo 70.4 [-29.3, 183.5]                   (from the pairs; from the games before one)
//! los 0.8145
//! draw_ratio 0.1000
//! pentanomial 0 2 3 4 1                     (pairs scoring 0, ½, 1, 1½, 2)
//! forfeits engine1 none
//! forfeits engine2 timeout 1
//! clock used engine1 81.3% engine2 64.0%    (with --time-game)
//! sprt llr 0.25 [-2.94, 2.94] continue      (with --sprt: from the pairs)
//! ```
//!
//! The counts are engine 1's. Every opening is played with both colours, so the Elo interval
//! and the SPRT are taken over the pairs (see `mnk_protocol::manager::stats`): their opening
//! bias cancels, the interval is narrower, and the SPRT (the generalized SPRT over the
//! pentanomial) decides with fewer games; it is checked as each pair completes, so a match
//! stops between pairs. A bound the pairs leave open prints as `inf`. The names are the
//! engines' `ABOUT` names (numbered when they are the same) unless `--name1`/`--name2` give
//! others; they are also the SGF's `PB`/`PW`, beside its rule, date, event and each move's
//! time; an engine's name where it gives none is its program's file name. An engine that
//! cannot be started or does not get through a game's set-up (it exits, or refuses the board)
//! ends the match with a message (exit code 1), after the summary of the games already played
//! if any were. Ctrl-C ends it too: the summary of the finished games, then exit code 130.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use mnk_engine::color::Color;
use mnk_engine::limits::StopFlag;
use mnk_engine::rng::SplitMix64;
use mnk_engine::size::BoardSize;

use mnk_engine::notation::Point;
use mnk_protocol::gamefile::{today, write_psq, write_sgf};
use mnk_protocol::manager::MatchError;
use mnk_protocol::manager::openings::{parse_opening, random_opening};
use mnk_protocol::manager::process::EngineCommand;
use mnk_protocol::manager::record::GameRecord;
use mnk_protocol::manager::referee::{EngineSpec, GameSettings, parse_info_list, play_game};
use mnk_protocol::manager::stats::{Pentanomial, SprtVerdict, Tally, sprt_bounds, sprt_verdict};

use super::{CliError, GameArgs, UsageError};

/// `match`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The first engine's command line: the program and its arguments, separated by spaces
    /// (quotes and backslashes keep spaces in a word); a path to a file alone may hold spaces.
    #[arg(long, value_name = "CMD")]
    engine1: EngineCommand,
    /// The second engine's command.
    #[arg(long, value_name = "CMD")]
    engine2: EngineCommand,
    /// INFO settings for the first engine alone, sent after the match's (key=value,...).
    #[arg(long, value_name = "KEY=VALUE,...")]
    info1: Option<String>,
    /// INFO settings for the second engine alone.
    #[arg(long, value_name = "KEY=VALUE,...")]
    info2: Option<String>,
    #[command(flatten)]
    game: GameArgs,
    /// Games to play (each opening with both colours).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Milliseconds a move (timeout_turn).
    #[arg(long = "time-move", value_name = "MS", default_value_t = 1_000)]
    time_move: u64,
    /// Milliseconds a game and player (timeout_match; 0: no game clock).
    #[arg(long = "time-game", value_name = "MS", default_value_t = 0)]
    time_game: u64,
    /// Milliseconds the game clock gains after each move (time_increment).
    #[arg(long, value_name = "MS", default_value_t = 0, requires = "time_game")]
    increment: u64,
    /// Milliseconds past the time allowed before an answer is late.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    tolerance: u64,
    /// max_memory sent to the engines, in bytes.
    #[arg(long = "max-memory", value_name = "BYTES", default_value_t = 367_001_600)]
    max_memory: u64,
    /// A file of openings, one a line (pos notation or offsets; # starts a comment).
    #[arg(long, value_name = "FILE", conflicts_with = "opening_stones")]
    openings: Option<PathBuf>,
    /// Stones of the random openings near the centre (default 3; 0 on 3x3).
    #[arg(long = "opening-stones", value_name = "K")]
    opening_stones: Option<usize>,
    /// Adjudicate a draw after this many stones.
    #[arg(long = "max-moves", value_name = "N")]
    max_moves: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    concurrency: u16,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append every game to this SGF file.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Write every game in Piskvork's PSQ format into this folder.
    #[arg(long, value_name = "DIR")]
    psq: Option<PathBuf>,
    /// Stop as soon as the sequential probability ratio test of ELO0 against ELO1 decides.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The first engine's name in the report and the SGF (default: its ABOUT name).
    #[arg(long, value_name = "NAME")]
    name1: Option<String>,
    /// The second engine's name.
    #[arg(long, value_name = "NAME")]
    name2: Option<String>,
    /// The event the SGF names (default: "NAME1 vs NAME2").
    #[arg(long, value_name = "TEXT")]
    event: Option<String>,
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let sprt = match args.sprt.as_deref() {
        Some(&[elo0, elo1]) if elo0 < elo1 => Some((elo0, elo1)),
        Some(_) => return Err(UsageError::SprtOrder.into()),
        None => None,
    };
    let spec = |command: &EngineCommand, info: &Option<String>, option| {
        let mut spec = EngineSpec::new(command.clone());
        if let Some(list) = info {
            spec.info =
                parse_info_list(list).map_err(|error| UsageError::InfoList { option, error })?;
        }
        Ok::<_, UsageError>(spec)
    };
    let engines =
        [spec(&args.engine1, &args.info1, "info1")?, spec(&args.engine2, &args.info2, "info2")?];
    let (size, rule) = (args.game.size, args.game.rule);
    let games = args.games as usize;
    let concurrency = usize::from(args.concurrency);
    let settings = GameSettings {
        size,
        rule,
        turn_ms: args.time_move,
        game_ms: args.time_game,
        increment_ms: args.increment,
        tolerance_ms: args.tolerance,
        max_memory: args.max_memory,
        max_moves: args.max_moves,
    };
    let stones = args.opening_stones.unwrap_or(if size == BoardSize::THREE { 0 } else { 3 });
    let openings = match &args.openings {
        Some(path) => read_openings(path, size)?,
        None => {
            let mut rng = SplitMix64::new(args.seed);
            (0..games.div_ceil(2)).map(|_| random_opening(&mut rng, size, rule, stones)).collect()
        }
    };
    let mut sgf = args.sgf.as_deref().map(open_append).transpose()?;
    let psq_dir = args.psq.clone();
    if let Some(dir) = &psq_dir {
        std::fs::create_dir_all(dir).map_err(|error| UsageError::File {
            option: "psq",
            path: dir.clone(),
            error,
        })?;
    }

    // Game i: opening i / 2; engine 1 is black in even games.
    let schedule: Vec<(Vec<Point>, bool)> =
        (0..games).map(|i| (openings[(i / 2) % openings.len()].clone(), i % 2 == 0)).collect();
    let next = Arc::new(AtomicUsize::new(0));
    let stop = StopFlag::new();
    let (tx, rx) = mpsc::channel::<(usize, bool, Result<GameRecord, MatchError>)>();
    let schedule = Arc::new(schedule);
    let mut workers = Vec::new();
    for _ in 0..concurrency.min(games) {
        let (next, stop, tx, schedule, settings, engines) = (
            next.clone(),
            stop.clone(),
            tx.clone(),
            schedule.clone(),
            settings.clone(),
            engines.clone(),
        );
        workers.push(std::thread::spawn(move || {
            loop {
                if stop.is_raised() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((opening, first_is_black)) = schedule.get(i) else { break };
                let sides = if *first_is_black {
                    [&engines[0], &engines[1]]
                } else {
                    [&engines[1], &engines[0]]
                };
                let record = play_game(sides, &settings, opening);
                if tx.send((i, *first_is_black, record)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    let interrupted = super::interrupt_flag();
    let started = Instant::now();
    let mut report = Report::new([args.name1.clone(), args.name2.clone()]);
    let mut failure = None;
    loop {
        let (index, first_is_black, record) = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) if interrupted.is_raised() => {
                // Games in progress end when their engines read the end of their input.
                stop.raise();
                break;
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if interrupted.is_raised() {
            // Ended by the interrupt: not counted (after Ctrl-C its engines got the signal too).
            stop.raise();
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                stop.raise();
                failure.get_or_insert(e);
                continue;
            }
        };
        let first_color = if first_is_black { Color::Black } else { Color::White };
        let outcome = report.add(index, first_color, &record, &settings);
        let names = report.names();
        let [black, white] =
            if first_is_black { names.clone() } else { [names[1].clone(), names[0].clone()] };
        let eta =
            started.elapsed().mul_f64((games - report.finished) as f64 / report.finished as f64);
        let tally = report.tally;
        eprintln!(
            "game {}/{games}: {black} (black) vs {white} (white): {} {outcome} ({}) | W-D-L {}-{}-{} score {:.1}% | eta {}",
            index + 1,
            names[0],
            record.result.reason,
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score() * 100.0,
            format_duration(eta),
        );
        let mut game_file = record.to_game_file(size);
        game_file.names = [Some(black.clone()), Some(white.clone())];
        game_file.date = Some(today());
        game_file.event =
            Some(args.event.clone().unwrap_or_else(|| format!("{} vs {}", names[0], names[1])));
        if let Some(file) = sgf.as_mut() {
            file.write_all(write_sgf(&game_file).as_bytes())?;
        }
        if let Some(dir) = &psq_dir {
            std::fs::write(dir.join(format!("game-{:04}.psq", index + 1)), write_psq(&game_file))?;
        }
        if let Some((elo0, elo1)) = sprt
            && sprt_verdict(report.pentanomial.llr(elo0, elo1)) != SprtVerdict::Continue
        {
            stop.raise();
        }
    }
    let interrupted = interrupted.is_raised();
    if !interrupted {
        for worker in workers {
            let _ = worker.join();
        }
    }

    if report.finished == 0
        && let Some(e) = failure
    {
        // Nothing was played: no summary, only the error.
        return Err(CliError::Match(e));
    }
    if !(interrupted && report.finished == 0) {
        report.summary(out, &settings, sprt)?;
    }
    if interrupted {
        out.flush()?;
        return Err(CliError::Interrupted { finished: report.finished, games });
    }
    match failure {
        Some(e) => Err(CliError::Match(e)),
        None => Ok(()),
    }
}

/// `1h02m`, `3m05s` or `42s`.
fn format_duration(time: Duration) -> String {
    let seconds = time.as_secs();
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3_600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3_600, seconds % 3_600 / 60),
    }
}

/// What the match has counted so far, engine 1's view.
struct Report {
    /// The names given on the command line; the engines' `ABOUT` names fill the rest at
    /// the first finished game.
    names: [Option<String>; 2],
    tally: Tally,
    /// Engine 1's score in each game of an opening's pair, until both are in.
    pairs: HashMap<usize, [Option<f64>; 2]>,
    pentanomial: Pentanomial,
    /// Each engine's forfeits by kind.
    forfeits: [BTreeMap<&'static str, u32>; 2],
    /// Each engine's thinking time and what its game clocks allowed it, over all games.
    clock_use: [ClockUse; 2],
    finished: usize,
}

impl Report {
    fn new(names: [Option<String>; 2]) -> Report {
        Report {
            names,
            tally: Tally::default(),
            pairs: HashMap::new(),
            pentanomial: Pentanomial::default(),
            forfeits: [BTreeMap::new(), BTreeMap::new()],
            clock_use: [ClockUse::default(); 2],
            finished: 0,
        }
    }

    /// The engines' names (engine 1, engine 2).
    fn names(&self) -> [String; 2] {
        [0, 1].map(|i| self.names[i].clone().unwrap_or_else(|| format!("engine{}", i + 1)))
    }

    /// Counts game `index`, in which engine 1 played `first_color`; engine 1's result
    /// (`1-0`, `1/2-1/2`, `0-1`).
    fn add(
        &mut self,
        index: usize,
        first_color: Color,
        record: &GameRecord,
        settings: &GameSettings,
    ) -> &'static str {
        if self.names.iter().any(Option::is_none) {
            let about = |color: Color| record.names[color.index()].clone();
            let mut found = [about(first_color), about(first_color.opponent())];
            if found[0] == found[1] {
                found = [format!("{} (1)", found[0]), format!("{} (2)", found[1])];
            }
            for (name, about) in self.names.iter_mut().zip(found) {
                name.get_or_insert(about);
            }
        }
        self.finished += 1;
        for (engine, color) in [(0, first_color), (1, first_color.opponent())] {
            self.clock_use[engine].add(record, color, settings);
        }
        let (score, outcome) = match record.result.winner {
            None => {
                self.tally.draws += 1;
                (0.5, "1/2-1/2")
            }
            Some(c) if c == first_color => {
                self.tally.wins += 1;
                (1.0, "1-0")
            }
            Some(_) => {
                self.tally.losses += 1;
                (0.0, "0-1")
            }
        };
        if let (Some(kind), Some(winner)) = (record.result.reason.forfeit(), record.result.winner) {
            let loser = usize::from(winner == first_color);
            *self.forfeits[loser].entry(kind).or_default() += 1;
        }
        let pair = self.pairs.entry(index / 2).or_default();
        pair[index % 2] = Some(score);
        if let [Some(a), Some(b)] = *pair {
            self.pentanomial.add(a, b);
            self.pairs.remove(&(index / 2));
        }
        outcome
    }

    fn summary(
        &self,
        out: &mut dyn Write,
        settings: &GameSettings,
        sprt: Option<(f64, f64)>,
    ) -> Result<(), CliError> {
        let tally = self.tally;
        let names = self.names();
        writeln!(out, "games {}", self.finished)?;
        writeln!(out, "engine1 {}", names[0])?;
        writeln!(out, "engine2 {}", names[1])?;
        writeln!(out, "W-D-L {}-{}-{}", tally.wins, tally.draws, tally.losses)?;
        writeln!(out, "score {:.4}", tally.score())?;
        // Adding 0.0 turns a negative zero into 0.0 for printing.
        let (elo, low, high) =
            if self.pentanomial.pairs() > 0 { self.pentanomial.elo() } else { tally.elo() };
        writeln!(out, "elo {:.1} [{:.1}, {:.1}]", elo + 0.0, low + 0.0, high + 0.0)?;
        writeln!(out, "los {:.4}", tally.los())?;
        writeln!(out, "draw_ratio {:.4}", tally.draw_ratio())?;
        if self.pentanomial.pairs() > 0 {
            let counts = self.pentanomial.0.map(|n| n.to_string());
            writeln!(out, "pentanomial {}", counts.join(" "))?;
        }
        for (i, forfeits) in self.forfeits.iter().enumerate() {
            let kinds: Vec<String> = forfeits.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let kinds = if kinds.is_empty() { "none".to_string() } else { kinds.join(", ") };
            writeln!(out, "forfeits engine{} {kinds}", i + 1)?;
        }
        if settings.game_ms > 0 {
            let [first, second] = self.clock_use.map(ClockUse::percent);
            writeln!(out, "clock used engine1 {first:.1}% engine2 {second:.1}%")?;
        }
        if let Some((elo0, elo1)) = sprt {
            let llr = self.pentanomial.llr(elo0, elo1);
            let (lower, upper) = sprt_bounds(0.05, 0.05);
            let verdict = match sprt_verdict(llr) {
                SprtVerdict::H0 => "H0 accepted",
                SprtVerdict::H1 => "H1 accepted",
                SprtVerdict::Continue => "continue",
            };
            writeln!(out, "sprt llr {llr:.2} [{lower:.2}, {upper:.2}] {verdict}")?;
        }
        Ok(())
    }
}

/// An engine's thinking time against what its game clocks allowed it: `timeout_match` a
/// game and the increment for each of its moves.
#[derive(Copy, Clone, Debug, Default)]
struct ClockUse {
    used_ms: u64,
    allowed_ms: u64,
}

impl ClockUse {
    /// Adds the moves `color` played in `record`.
    fn add(&mut self, record: &GameRecord, color: Color, settings: &GameSettings) {
        let own = (record.opening_len..record.moves.len())
            .filter(|&i| (i % 2 == 0) == (color == Color::Black));
        let (mut moves, mut used) = (0, 0);
        for i in own {
            (moves, used) = (moves + 1, used + record.moves[i].1);
        }
        self.used_ms += used;
        self.allowed_ms += settings.game_ms + moves * settings.increment_ms;
    }

    /// The share of the allowed time used, in percent.
    fn percent(self) -> f64 {
        100.0 * self.used_ms as f64 / self.allowed_ms.max(1) as f64
    }
}

/// The openings of the file at `path`, one a line; everything from a `#` on is a comment
/// (`openings` writes each score so).
pub(crate) fn read_openings(path: &Path, size: BoardSize) -> Result<Vec<Vec<Point>>, UsageError> {
    let text = std::fs::read_to_string(path).map_err(|error| UsageError::File {
        option: "openings",
        path: path.to_path_buf(),
        error,
    })?;
    let openings: Vec<Vec<Point>> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            parse_opening(l, size)
                .map_err(|error| UsageError::Opening { path: path.to_path_buf(), error })
        })
        .collect::<Result<_, _>>()?;
    if openings.is_empty() {
        return Err(UsageError::NoOpenings(path.to_path_buf()));
    }
    Ok(openings)
}

/// The file at `path`, opened to append to (saying so on stderr when it already holds
/// something: a match's games join the file, they do not replace it).
fn open_append(path: &Path) -> Result<File, UsageError> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        eprintln!("appending the games to {}, which already holds some", path.display());
    }
    OpenOptions::new().create(true).append(true).open(path).map_err(|error| UsageError::File {
        option: "sgf",
        path: path.to_path_buf(),
        error,
    })
}
