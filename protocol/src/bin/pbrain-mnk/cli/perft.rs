//! `pbrain-mnk perft`: move-sequence counts from the command line.
//!
//! Output (stdout): with `--divide` one line `x,y: N` per root move in cell order, then
//! `time_ms T nps R`, then `nodes N` as the last line.

use std::io::Write;
use std::time::Instant;

use mnk_engine::board::Board;
use mnk_engine::perft::{NodeCount, divide_parallel};
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::with_game;

use super::{CliError, UsageError};
use crate::explain::game_of_moves;
use mnk_engine::storage::Storage;

/// `perft`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: N (3, or 5 to 22) or WxH (each from 5 to 22).
    #[arg(long)]
    pub(crate) size: BoardSize,
    /// Plies to count.
    #[arg(long)]
    pub(crate) depth: u32,
    /// Rule: freestyle, standard, renju, caro or caro-exact.
    #[arg(long, default_value_t)]
    pub(crate) rule: Rule,
    /// The position: moves as x,y pairs ("7,7 8,8") or in pos notation ("h8i9").
    #[arg(long, default_value = "")]
    pub(crate) moves: String,
    /// One line "x,y: N" per root move first.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Threads sharing the root moves.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) threads: u16,
}

/// Move sequences one thread counts in a second, roughly (5×5 at depth 9: 4.8 × 10⁹; 15×15
/// at depth 4: 1.2 × 10¹⁰), for the note on long counts.
const SEQUENCES_PER_SECOND: f64 = 5e9;
/// Counts that may take longer than this, in seconds, get a note on stderr first.
const NOTE_AFTER_SECONDS: f64 = 60.0;

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = game_of_moves(args.size, args.rule, &args.moves).map_err(UsageError::Moves)?;
    let threads = usize::from(args.threads);
    with_game!(&game, board => count(board, args.depth, threads, args.divide, out))
}

fn count<B: Storage>(
    board: &Board<B>,
    depth: u32,
    threads: usize,
    show_divide: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let max = board.geometry().cells() as u32;
    if depth > max {
        return Err(UsageError::DepthBeyondBoard { max }.into());
    }
    let empty = u128::from(board.empty_cells().count());
    let Some(bound) = (0..u128::from(depth))
        .try_fold(1u128, |n, i| n.checked_mul(empty.saturating_sub(i).max(1)))
    else {
        return Err(UsageError::CountTooLarge { depth }.into());
    };
    let seconds = bound as f64 / (SEQUENCES_PER_SECOND * threads as f64);
    if seconds > NOTE_AFTER_SECONDS {
        eprintln!(
            "pbrain-mnk: note: up to {bound:.2e} move sequences, which could take up to {} \
             on {threads} thread{}; Ctrl-C stops the count",
            human_duration(seconds),
            if threads == 1 { "" } else { "s" }
        );
    }
    let start = Instant::now();
    let split = divide_parallel(board, depth, threads);
    let nodes: NodeCount = if depth == 0 { 1 } else { split.iter().map(|&(_, n)| n).sum() };
    let elapsed = start.elapsed();
    if show_divide {
        for (cell, n) in &split {
            writeln!(out, "{}: {n}", board.geometry().format_xy(*cell))?;
        }
    }
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 { (nodes as f64 / secs) as u128 } else { 0 };
    writeln!(out, "time_ms {} nps {nps}", elapsed.as_millis())?;
    writeln!(out, "nodes {nodes}")?;
    Ok(())
}

/// `seconds` as a rough human duration: "40 min", "3.5 h", "12 days", "2.1e5 years".
fn human_duration(seconds: f64) -> String {
    const UNITS: [(&str, f64); 4] =
        [("years", 365.25 * 86_400.0), ("days", 86_400.0), ("h", 3_600.0), ("min", 60.0)];
    let (unit, length) =
        UNITS.into_iter().find(|&(_, length)| seconds >= length).unwrap_or(("s", 1.0));
    let amount = seconds / length;
    if amount >= 1e4 { format!("{amount:.1e} {unit}") } else { format!("{amount:.1} {unit}") }
}

#[cfg(test)]
mod tests {
    use super::human_duration;

    #[test]
    fn durations_read_in_the_largest_unit_that_fits() {
        assert_eq!(human_duration(30.0), "30.0 s");
        assert_eq!(human_duration(90.0), "1.5 min");
        assert_eq!(human_duration(5.0 * 3_600.0), "5.0 h");
        assert_eq!(human_duration(3.0 * 86_400.0), "3.0 days");
        assert_eq!(human_duration(2e9 * 365.25 * 86_400.0), "2.0e9 years");
    }
}
