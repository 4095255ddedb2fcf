//! `pbrain-mnk solve`: the exact value of a 3×3 or 5×5 position.
//!
//! `--no-pairing` proves the value without pairing strategies (plain alpha-beta with the
//! table, threats and live-line draws), for comparison.
//!
//! Output (stdout): `value win|draw|loss` (for the side to move), `best x,y` (`best none` on
//! a decided board), `nodes N`, `time_ms T nps R`.

use std::io::Write;

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::outcome::Outcome;
use mnk_engine::report::nodes_per_second;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::solve::GameValue;

use super::{CliError, UsageError};

/// `solve`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: 3 or 5.
    #[arg(long)]
    size: BoardSize,
    /// Rule: freestyle, standard, renju, caro or caro-exact (all the same on these boards).
    #[arg(long, default_value_t)]
    rule: Rule,
    /// The position: moves as x,y pairs ("1,1 0,0") or in pos notation ("b2a1").
    #[arg(long, default_value = "")]
    moves: String,
    /// Transposition-table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash_mb: u32,
    /// Prove the value by plain alpha-beta, without pairing strategies (for comparison).
    #[arg(long = "no-pairing")]
    no_pairing: bool,
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if !args.size.is_small() {
        return Err(UsageError::UnsolvableSize.into());
    }
    let game = Game::from_notation(args.size, args.rule, &args.moves).map_err(UsageError::Moves)?;
    let mut engine = Engine::with_hash_bytes((args.hash_mb as usize) << 20);
    let solution = engine.solve(&game, !args.no_pairing).expect("a small board");
    let value = match game.outcome() {
        Outcome::Ongoing => solution.value(),
        Outcome::Draw => GameValue::Draw,
        // The side to move did not make the last move, so it lost.
        Outcome::Win(_) => GameValue::Loss,
    };
    writeln!(out, "value {value}")?;
    match solution.best() {
        Some(cell) => writeln!(out, "best {}", game.point(cell))?,
        None => writeln!(out, "best none")?,
    }
    let search = &solution.search;
    writeln!(out, "nodes {}", search.nodes)?;
    writeln!(
        out,
        "time_ms {:.3} nps {}",
        search.time.as_secs_f64() * 1000.0,
        nodes_per_second(search.nodes, search.time)
    )?;
    Ok(())
}
