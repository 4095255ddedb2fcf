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
//! sprt llr 0.84 [-2.94, 2.94] continue      (with --sprt)
//! ```
//!
//! The counts are engine 1's. An engine that cannot be started ends the match with a message
//! (exit code 1) after the summary of the games already played.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use mnk_engine::color::Color;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

use mnk_protocol::command::Point;
use mnk_protocol::manager::stats::{SprtVerdict, Tally, sprt_bounds, sprt_verdict};
use mnk_protocol::manager::{
    EngineSpec, GameRecord, GameSettings, MatchError, parse_info_list, parse_opening, play_game,
    random_opening, to_psq, to_sgf,
};

use super::CliError;
use super::args::{Options, UsageError};

pub(crate) const USAGE: &str = "pbrain-mnk match --engine1 CMD --engine2 CMD \
[--info1 KEY=VALUE,...] [--info2 KEY=VALUE,...] [--size 3|5|15] [--rule NAME] [--games N] \
[--time-move MS] [--time-game MS] [--tolerance MS] [--max-memory BYTES] \
[--openings FILE | --opening-stones K] [--max-moves N] [--concurrency N] [--seed S] \
[--sgf FILE] [--psq DIR] [--sprt ELO0 ELO1]";

/// Runs the subcommand with its arguments.
pub(crate) fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let (args, sprt) = take_sprt(args)?;
    let opts = Options::parse(
        &args,
        &[
            "engine1",
            "engine2",
            "info1",
            "info2",
            "size",
            "rule",
            "games",
            "time-move",
            "time-game",
            "tolerance",
            "max-memory",
            "openings",
            "opening-stones",
            "max-moves",
            "concurrency",
            "seed",
            "sgf",
            "psq",
        ],
        &[],
    )?;
    let spec = |engine: &str, info: &str| -> Result<EngineSpec, UsageError> {
        let mut spec = EngineSpec::new(opts.require::<String>(engine)?);
        if let Some(list) = opts.raw(info) {
            spec.info = parse_info_list(list).map_err(|e| UsageError(format!("--{info}: {e}")))?;
        }
        Ok(spec)
    };
    let engines = [spec("engine1", "info1")?, spec("engine2", "info2")?];
    let size: BoardSize = opts.get("size")?.unwrap_or(BoardSize::Fifteen);
    let rule: Rule = opts.get("rule")?.unwrap_or_default();
    let games: usize = opts.get("games")?.unwrap_or(2);
    let concurrency: usize = opts.get("concurrency")?.unwrap_or(1);
    if games == 0 || concurrency == 0 || concurrency > 64 {
        return Err(
            UsageError("--games must be at least 1 and --concurrency 1..64".to_string()).into()
        );
    }
    let settings = GameSettings {
        size,
        rule,
        turn_ms: opts.get("time-move")?.unwrap_or(1_000),
        game_ms: opts.get("time-game")?.unwrap_or(0),
        tolerance_ms: opts.get("tolerance")?.unwrap_or(1_000),
        max_memory: opts.get("max-memory")?.unwrap_or(367_001_600),
        max_moves: opts.get("max-moves")?,
    };
    let seed: u64 = opts.get("seed")?.unwrap_or(1);
    let stones: usize =
        opts.get("opening-stones")?.unwrap_or(if size == BoardSize::Three { 0 } else { 3 });
    let openings = match opts.raw("openings") {
        Some(path) => read_openings(path, size)?,
        None => {
            let mut rng = SplitMix64::new(seed);
            (0..games.div_ceil(2)).map(|_| random_opening(&mut rng, size, rule, stones)).collect()
        }
    };
    if openings.is_empty() {
        return Err(UsageError("the openings file holds no opening".to_string()).into());
    }
    let mut sgf = open_append(opts.raw("sgf"))?;
    let psq_dir = opts.raw("psq").map(std::path::PathBuf::from);
    if let Some(dir) = &psq_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("--psq {}: {e}", dir.display())))?;
    }

    // Game i: opening i / 2; engine 1 is black in even games.
    let schedule: Vec<(Vec<Point>, bool)> =
        (0..games).map(|i| (openings[(i / 2) % openings.len()].clone(), i % 2 == 0)).collect();
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
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
                if stop.load(Ordering::Relaxed) {
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
    let mut failure = None;
    let mut finished = 0;
    for (index, first_is_black, record) in rx {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
                continue;
            }
        };
        finished += 1;
        let first_color = if first_is_black { Color::Black } else { Color::White };
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
        if let Some(file) = sgf.as_mut() {
            file.write_all(to_sgf(&record, size).as_bytes())?;
        }
        if let Some(dir) = &psq_dir {
            std::fs::write(dir.join(format!("game-{:04}.psq", index + 1)), to_psq(&record, size))?;
        }
        if let Some((elo0, elo1)) = sprt
            && sprt_verdict(tally.llr(elo0, elo1)) != SprtVerdict::Continue
        {
            stop.store(true, Ordering::Relaxed);
        }
    }
    for worker in workers {
        let _ = worker.join();
    }

    writeln!(out, "games {finished}")?;
    writeln!(out, "W-D-L {}-{}-{}", tally.wins, tally.draws, tally.losses)?;
    writeln!(out, "score {:.4}", tally.score())?;
    // Adding 0.0 turns a negative zero into 0.0 for printing.
    let (elo, low, high) = tally.elo();
    writeln!(out, "elo {:.1} [{:.1}, {:.1}]", elo + 0.0, low + 0.0, high + 0.0)?;
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
        Some(e) => Err(CliError::Match(e.to_string())),
        None => Ok(()),
    }
}

/// The SPRT hypotheses: Elo of H0 and of H1.
type SprtElos = (f64, f64);

/// Removes `--sprt ELO0 ELO1` (two values) from the arguments.
fn take_sprt(args: &[String]) -> Result<(Vec<String>, Option<SprtElos>), UsageError> {
    let Some(i) = args.iter().position(|a| a == "--sprt") else { return Ok((args.to_vec(), None)) };
    let value = |j: usize| {
        args.get(j)
            .and_then(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
            .ok_or_else(|| UsageError("--sprt needs two numbers: ELO0 ELO1".to_string()))
    };
    let (elo0, elo1) = (value(i + 1)?, value(i + 2)?);
    if elo1 <= elo0 {
        return Err(UsageError("--sprt needs ELO0 < ELO1".to_string()));
    }
    let rest = args
        .iter()
        .enumerate()
        .filter(|&(j, _)| j < i || j > i + 2)
        .map(|(_, a)| a.clone())
        .collect();
    Ok((rest, Some((elo0, elo1))))
}

fn read_openings(path: &str, size: BoardSize) -> Result<Vec<Vec<Point>>, UsageError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| UsageError(format!("--openings {path}: {e}")))?;
    // Everything from a `#` on is a comment (`openings` writes each score so).
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(|l| parse_opening(l, size).map_err(|e| UsageError(format!("--openings {path}: {e}"))))
        .collect()
}

fn open_append(path: Option<&str>) -> Result<Option<File>, UsageError> {
    path.map(|p| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .map_err(|e| UsageError(format!("--sgf {p}: {e}")))
    })
    .transpose()
}
