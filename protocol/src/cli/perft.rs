//! `pbrain-mnk perft`: move-sequence counts from the command line.
//!
//! Output (stdout): with `--divide` one line `x,y: N` per root move in cell order, then
//! `time_ms T nps R`, then `nodes N` as the last line.

use std::io::Write;
use std::time::Instant;

use mnk_engine::bitboard::Bitboard;
use mnk_engine::board::Board;
use mnk_engine::perft::{NodeCount, divide_parallel};
use mnk_engine::rules::Rule;
use mnk_engine::{BoardSize, with_board_size};

use super::CliError;
use super::args::{Options, UsageError};

pub(crate) const USAGE: &str = "pbrain-mnk perft --size 3|5|15 --depth D [--rule freestyle|standard|renju|caro|caro-exact] \
[--moves \"<moves>\"] [--divide] [--threads N]";

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
    with_board_size!(size, B => count::<B>(rule, moves, depth, threads, opts.flag("divide"), out))
}

fn count<B: Bitboard>(
    rule: Rule,
    moves: &str,
    depth: u32,
    threads: usize,
    show_divide: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let board = Board::<B>::from_notation(rule, moves)
        .map_err(|e| UsageError(format!("bad --moves: {e}")))?;
    let max_depth = B::GEOMETRY.cells() as u32;
    if depth > max_depth {
        return Err(UsageError(format!("--depth must be 0..={max_depth} on this board")).into());
    }
    let start = Instant::now();
    let split = divide_parallel(&board, depth, threads);
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
