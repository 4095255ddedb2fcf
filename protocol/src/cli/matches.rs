//! `pbrain-mnk match`: games between two pbrain engines, refereed by mnk.
//!
//! Each opening is played twice, the engines swapping colours. A live progress line per
//! finished game goes to stderr; the summary goes to stdout:
//!
//! ```text
//! games 20
//! W-D-L 11-2-7
//! score 0.6000
//! elo 70.4 [-85.7, 244.0]
//! clock used engine1 81.3% engine2 64.0%    (with --time-game)
//! sprt llr 0.84 [-2.94, 2.94] continue      (with --sprt)
//! ```
//!
//! The counts are engine 1's. An engine that cannot be started ends the match with a message
//! (exit code 1), after the summary of the games already played if any were.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use mnk_engine::color::Color;
use mnk_engine::limits::StopFlag;
use mnk_engine::rng::SplitMix64;
use mnk_engine::size::BoardSize;

use mnk_engine::notation::Point;
use mnk_protocol::gamefile::{write_psq, write_sgf};
use mnk_protocol::manager::MatchError;
use mnk_protocol::manager::openings::{parse_opening, random_opening};
use mnk_protocol::manager::process::EngineCommand;
use mnk_protocol::manager::record::GameRecord;
use mnk_protocol::manager::referee::{EngineSpec, GameSettings, parse_info_list, play_game};
use mnk_protocol::manager::stats::{SprtVerdict, Tally, sprt_bounds, sprt_verdict};

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

    let mut tally = Tally::default();
    // Each engine's thinking time and what its game clocks allowed it, over all games.
    let mut clock_use = [ClockUse::default(); 2];
    let mut failure = None;
    let mut finished = 0;
    for (index, first_is_black, record) in rx {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                stop.raise();
                failure.get_or_insert(e);
                continue;
            }
        };
        finished += 1;
        let first_color = if first_is_black { Color::Black } else { Color::White };
        for (engine, color) in [(0, first_color), (1, first_color.opponent())] {
            clock_use[engine].add(&record, color, &settings);
        }
        let outcome = match record.result.winner {
            None => {
                tally.draws += 1;
                "1/2-1/2"
            }
            Some(c) if c == first_color => {
                tally.wins += 1;
                "1-0"
            }
            Some(_) => {
                tally.losses += 1;
                "0-1"
            }
        };
        eprintln!(
            "game {}/{games}: {} (black) vs {} (white): engine1 {outcome} ({}) | W-D-L {}-{}-{} score {:.1}%",
            index + 1,
            record.names[0],
            record.names[1],
            record.result.reason,
            tally.wins,
            tally.draws,
            tally.losses,
            tally.score() * 100.0
        );
        let game_file = record.to_game_file(size);
        if let Some(file) = sgf.as_mut() {
            file.write_all(write_sgf(&game_file).as_bytes())?;
        }
        if let Some(dir) = &psq_dir {
            std::fs::write(dir.join(format!("game-{:04}.psq", index + 1)), write_psq(&game_file))?;
        }
        if let Some((elo0, elo1)) = sprt
            && sprt_verdict(tally.llr(elo0, elo1)) != SprtVerdict::Continue
        {
            stop.raise();
        }
    }
    for worker in workers {
        let _ = worker.join();
    }

    if finished == 0
        && let Some(e) = failure
    {
        // Nothing was played: no summary, only the error.
        return Err(CliError::Match(e));
    }
    writeln!(out, "games {finished}")?;
    writeln!(out, "W-D-L {}-{}-{}", tally.wins, tally.draws, tally.losses)?;
    writeln!(out, "score {:.4}", tally.score())?;
    // Adding 0.0 turns a negative zero into 0.0 for printing.
    let (elo, low, high) = tally.elo();
    writeln!(out, "elo {:.1} [{:.1}, {:.1}]", elo + 0.0, low + 0.0, high + 0.0)?;
    if settings.game_ms > 0 {
        let [first, second] = clock_use.map(ClockUse::percent);
        writeln!(out, "clock used engine1 {first:.1}% engine2 {second:.1}%")?;
    }
    if let Some((elo0, elo1)) = sprt {
        let llr = tally.llr(elo0, elo1);
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        let verdict = match sprt_verdict(llr) {
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::Continue => "continue",
        };
        writeln!(out, "sprt llr {llr:.2} [{lower:.2}, {upper:.2}] {verdict}")?;
    }
    match failure {
        Some(e) => Err(CliError::Match(e)),
        None => Ok(()),
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

/// The file at `path`, opened to append to.
fn open_append(path: &Path) -> Result<File, UsageError> {
    OpenOptions::new().create(true).append(true).open(path).map_err(|error| UsageError::File {
        option: "sgf",
        path: path.to_path_buf(),
        error,
    })
}
