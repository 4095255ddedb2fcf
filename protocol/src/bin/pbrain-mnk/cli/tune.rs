//! `pbrain-mnk tune`: SPSA over the search's tunables (see `crate::tuner::spsa`),
//! by fixed-node game pairs between two copies of an engine given `--set` values either side
//! of the current ones. The state is written back to `--state` after every batch of pairs,
//! so the run can be stopped at any time and resumed by the same command.
//!
//! Progress goes to stderr, a line a pair:
//!
//! ```text
//! iteration 37: +1.0 | rfp_margin 41.2 lmr_divisor_x100 148.7
//! ```
//!
//! The final values go to stdout as `--set` arguments.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::tuner::spsa::{Perturbation, SpsaState};
use mnk_engine::notation::Point;
use mnk_engine::rng::SplitMix64;
use mnk_engine::size::BoardSize;
use mnk_protocol::command::Command;
use mnk_protocol::manager::openings::random_opening;
use mnk_protocol::manager::process::EngineCommand;
use mnk_protocol::manager::referee::{EngineSpec, GameSettings, play_game};

use super::{CliError, GameArgs, UsageError};

/// The tunables a new run tunes unless `--params` names others: those of the prunings and
/// reductions, whose best values depend on each other.
const DEFAULT_PARAMS: &str = "lmr_divisor_x100,lmr_cut_node,lmr_not_improving,lmp_base,\
lmp_scale_x10,lmp_not_improving_percent,futility_max_depth,futility_margin,rfp_margin,\
razor_margin,leaf_vcf_nodes,aspiration_window,se_margin";

/// `tune`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The state file: read if it exists (the run resumes), written after every batch.
    #[arg(long, value_name = "FILE")]
    state: PathBuf,
    /// Game pairs to play in this run.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// The engine tuned (its command line; `--set` arguments are appended). Default: this
    /// program.
    #[arg(long, value_name = "CMD")]
    engine: Option<EngineCommand>,
    /// A new run's tunables, by name, comma-separated (`pbrain-mnk help params`).
    #[arg(long, value_name = "NAMES", default_value = DEFAULT_PARAMS)]
    params: String,
    /// A new run's seed (perturbations and openings).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A new run's learning rate (the share of a step a won pair moves a value by, at first).
    #[arg(long, default_value_t = 0.5)]
    rate: f64,
    /// Nodes a move (INFO max_node): fixed-node games, free of clock noise.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    #[command(flatten)]
    game: GameArgs,
    /// A file of openings (one a line, as `match` reads them): iteration k plays the
    /// (k mod count)-th, so the pairs go round the file. Without it, random openings.
    #[arg(long, value_name = "FILE", conflicts_with = "opening_stones")]
    openings: Option<PathBuf>,
    /// Stones of the random openings near the centre.
    #[arg(long = "opening-stones", value_name = "K", default_value_t = 4)]
    opening_stones: usize,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    concurrency: u16,
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut state = load_or_start(args)?;
    let openings = match &args.openings {
        Some(path) => Some(super::matches::read_openings(path, args.game.size)?),
        None => None,
    };
    let engine = match &args.engine {
        Some(command) => command.clone(),
        None => this_program()?,
    };
    let settings = GameSettings {
        size: args.game.size,
        rule: args.game.rule,
        // The node limit decides; the turn time only catches an engine that hangs.
        turn_ms: 60_000,
        game_ms: 0,
        increment_ms: 0,
        tolerance_ms: 5_000,
        max_memory: 64 << 20,
        max_moves: None,
    };
    let nodes = Command::info("max_node", &args.nodes.to_string());
    let concurrency = u64::from(args.concurrency);
    let end = state.iteration + args.iterations;
    while state.iteration < end {
        let batch: Vec<Perturbation> = (state.iteration..end.min(state.iteration + concurrency))
            .map(|k| state.perturbation(k))
            .collect();
        let results: Vec<Result<f64, CliError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .iter()
                .map(|p| {
                    let opening = match &openings {
                        Some(list) => list[(p.iteration % list.len() as u64) as usize].clone(),
                        None => random(args, state.seed, p.iteration),
                    };
                    let spec = |set: &[String]| EngineSpec {
                        command: engine.with_args(&set_arguments(set)),
                        info: vec![nodes.clone()],
                    };
                    let (plus, minus) = (spec(&p.plus), spec(&p.minus));
                    let settings = &settings;
                    scope.spawn(move || play_pair(&plus, &minus, settings, &opening))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a game pair does not panic")).collect()
        });
        for (p, result) in batch.iter().zip(results) {
            let result = result?;
            state.update(p, result);
            let values: Vec<String> = state
                .values
                .iter()
                .map(|(spec, value)| format!("{} {value:.1}", spec.name))
                .collect();
            eprintln!("iteration {}: {result:+.1} | {}", state.iteration, values.join(" "));
        }
        save(&args.state, &state)?;
    }
    writeln!(out, "{}", set_arguments(&state.assignments()).join(" "))?;
    Ok(())
}

/// The state in `args.state`, or a new run's if there is no such file.
fn load_or_start(args: &Args) -> Result<SpsaState, CliError> {
    match std::fs::read_to_string(&args.state) {
        Ok(text) => {
            text.parse().map_err(|error| UsageError::TuneState(args.state.clone(), error).into())
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let names: Vec<&str> = args.params.split(',').map(str::trim).collect();
            SpsaState::new(&names, args.seed, args.rate).map_err(|e| UsageError::Param(e).into())
        }
        Err(error) => {
            Err(UsageError::File { option: "state", path: args.state.clone(), error }.into())
        }
    }
}

/// Writes `state` to `path` through a temporary file, so an interrupted write leaves the
/// last state whole.
fn save(path: &Path, state: &SpsaState) -> Result<(), CliError> {
    let temporary = path.with_extension("tmp");
    std::fs::write(&temporary, state.to_string())?;
    std::fs::rename(&temporary, path)?;
    Ok(())
}

/// This program as an engine command.
fn this_program() -> Result<EngineCommand, CliError> {
    let path = std::env::current_exe()?;
    // (A path to a file is one word, whatever it holds.)
    path.to_string_lossy()
        .parse()
        .map_err(|_| CliError::Io(std::io::Error::other("this program's path is not a command")))
}

/// `--set NAME=VALUE` for each assignment.
fn set_arguments(assignments: &[String]) -> Vec<String> {
    assignments.iter().flat_map(|a| ["--set".to_string(), a.clone()]).collect()
}

/// Iteration `iteration`'s random opening, from the run's seed and the iteration.
fn random(args: &Args, seed: u64, iteration: u64) -> Vec<Point> {
    let mut rng = SplitMix64::stream(seed, iteration);
    let stones = if args.game.size == BoardSize::THREE { 0 } else { args.opening_stones };
    random_opening(&mut rng, args.game.size, args.game.rule, stones)
}

/// Two games from `opening`, each engine black once: the plus engine's points minus the
/// minus engine's (−2..=2).
fn play_pair(
    plus: &EngineSpec,
    minus: &EngineSpec,
    settings: &GameSettings,
    opening: &[Point],
) -> Result<f64, CliError> {
    let mut result = 0.0;
    for (black, plus_color) in [
        ([plus, minus], mnk_engine::color::Color::Black),
        ([minus, plus], mnk_engine::color::Color::White),
    ] {
        let record = play_game(black, settings, opening).map_err(CliError::Match)?;
        result += match record.result.winner {
            None => 0.0,
            Some(color) if color == plus_color => 1.0,
            Some(_) => -1.0,
        };
    }
    Ok(result)
}
