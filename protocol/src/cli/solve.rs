//! `pbrain-mnk solve`: the exact value of a 3×3 or 5×5 position.
//!
//! `--no-pairing` proves the value without pairing strategies (plain alpha-beta with the
//! table, threats and live-line draws), for comparison.
//!
//! Output (stdout): `value win|draw|loss` (for the side to move), `best x,y` (`best none` on
//! a decided board), `nodes N`, `time_ms T nps R`.

use std::io::Write;

use mnk_engine::board::Board;
use mnk_engine::game::Game;
use mnk_engine::outcome::Outcome;
use mnk_engine::report::nodes_per_second;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::solve::{GameValue, solve_with};
use mnk_engine::tt::TranspositionTable;
use mnk_engine::with_game;

use super::CliError;
use super::args::{Options, UsageError};
use mnk_engine::size::Size;

pub(crate) const USAGE: &str = "pbrain-mnk solve --size 3|5 [--rule freestyle|standard] [--moves \"<moves>\"] [--hash-mb M] [--no-pairing]";

/// Default transposition-table size in MiB.
const DEFAULT_HASH_MB: usize = 16;

/// Runs the subcommand with its arguments.
pub(crate) fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let opts = Options::parse(args, &["size", "rule", "moves", "hash-mb"], &["no-pairing"])?;
    let size: BoardSize = opts.require("size")?;
    if size == BoardSize::Fifteen {
        return Err(UsageError("solve supports --size 3 and 5 only".to_string()).into());
    }
    let rule: Rule = opts.get("rule")?.unwrap_or_default();
    let hash_mb: usize = opts.get("hash-mb")?.unwrap_or(DEFAULT_HASH_MB);
    if hash_mb == 0 || hash_mb > 65_536 {
        return Err(UsageError(format!("--hash-mb must be 1..65536, not {hash_mb}")).into());
    }
    let moves = opts.raw("moves").unwrap_or("");
    let pairing = !opts.flag("no-pairing");
    let game = Game::from_notation(size, rule, moves)
        .map_err(|e| UsageError(format!("bad --moves: {e}")))?;
    with_game!(&game, board => run_solve(board, hash_mb, pairing, out))
}

fn run_solve<B: Size>(
    board: &Board<B>,
    hash_mb: usize,
    pairing: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut tt = TranspositionTable::with_bytes(hash_mb << 20);
    let solution = solve_with(board, &mut tt, pairing);
    let value = match board.outcome() {
        Outcome::Ongoing => solution.value(),
        Outcome::Draw => GameValue::Draw,
        // The side to move did not make the last move, so it lost.
        Outcome::Win(_) => GameValue::Loss,
    };
    writeln!(out, "value {value}")?;
    match solution.best() {
        Some(cell) => writeln!(out, "best {}", B::GEOMETRY.format_xy(cell))?,
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
