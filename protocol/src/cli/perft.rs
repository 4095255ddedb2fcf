//! `pbrain-mnk perft`: move-sequence counts from the command line.
//!
//! Output (stdout): with `--divide` one line `x,y: N` per root move in cell order, then
//! `time_ms T nps R`, then `nodes N` as the last line.

use std::io::Write;
use std::time::Instant;

use mnk_engine::board::Board;
use mnk_engine::game::Game;
use mnk_engine::perft::{NodeCount, divide_parallel};
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::with_game;

use super::CliError;
use super::args::{Options, UsageError};
use mnk_engine::size::Size;

pub(crate) const USAGE: &str = "pbrain-mnk perft --size 3|5|15 --depth D [--rule freestyle|standard|renju|caro|caro-exact] \
[--moves \"<moves>\"] [--divide] [--threads N]";

/// Move sequences one thread counts in a second, roughly (5×5 at depth 9: 4.8 × 10⁹; 15×15
/// at depth 4: 1.2 × 10¹⁰), for the note on long counts.
const SEQUENCES_PER_SECOND: f64 = 5e9;
/// Counts that may take longer than this, in seconds, get a note on stderr first.
const NOTE_AFTER_SECONDS: f64 = 60.0;

/// Runs the subcommand with its arguments.
pub(crate) fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    let opts = Options::parse(args, &["size", "depth", "rule", "moves", "threads"], &["divide"])?;
    let size: BoardSize = opts.require("size")?;
    let depth: u32 = opts.require("depth")?;
    let rule: Rule = opts.get("rule")?.unwrap_or_default();
    let threads: usize = opts.get("threads")?.unwrap_or(1);
    if threads == 0 || threads > 256 {
        return Err(UsageError(format!("--threads must be 1..256, not {threads}")).into());
    }
    let moves = opts.raw("moves").unwrap_or("");
    let game = Game::from_notation(size, rule, moves)
        .map_err(|e| UsageError(format!("bad --moves: {e}")))?;
    with_game!(&game, board => count(board, depth, threads, opts.flag("divide"), out))
}

fn count<B: Size>(
    board: &Board<B>,
    depth: u32,
    threads: usize,
    show_divide: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let max_depth = B::GEOMETRY.cells() as u32;
    if depth > max_depth {
        return Err(UsageError(format!("--depth must be 0..={max_depth} on this board")).into());
    }
    let empty = u128::from(board.empty_cells().count());
    let Some(bound) = (0..u128::from(depth))
        .try_fold(1u128, |n, i| n.checked_mul(empty.saturating_sub(i).max(1)))
    else {
        return Err(UsageError(format!(
            "--depth {depth} from this position can have more move sequences than a 128-bit \
             count holds"
        ))
        .into());
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
            writeln!(out, "{}: {n}", B::GEOMETRY.format_xy(*cell))?;
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
