//! `pbrain-mnk bench`: the bench signature (see `mnk_engine::bench`).
//!
//! Output: one line per position (`position I size S rule R depth D nodes N time_ms T`),
//! then `bench N nodes T ms R nps`.

use std::io::Write;

use mnk_engine::bench;
use mnk_engine::search::report::nodes_per_second;

use super::CliError;
use super::args::Options;

pub(crate) const USAGE: &str = "pbrain-mnk bench";

/// Runs the subcommand with its arguments (none).
pub(crate) fn run(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    Options::parse(args, &[], &[])?;
    let mut index = 0;
    let mut error = None;
    let lines = bench::run(&mut |line| {
        index += 1;
        let p = line.position;
        let written = writeln!(
            out,
            "position {index} size {} rule {} depth {} nodes {} time_ms {}",
            p.size.side(),
            p.rule,
            p.depth,
            line.nodes,
            line.time.as_millis()
        );
        if let Err(e) = written {
            error.get_or_insert(e);
        }
    });
    if let Some(e) = error {
        return Err(e.into());
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let time: std::time::Duration = lines.iter().map(|l| l.time).sum();
    writeln!(
        out,
        "bench {nodes} nodes {} ms {} nps",
        time.as_millis(),
        nodes_per_second(nodes, time)
    )?;
    Ok(())
}
