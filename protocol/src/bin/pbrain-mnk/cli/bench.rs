//! `pbrain-mnk bench`: the bench signature (see `mnk_engine::bench`).
//!
//! Output: one line per position (`position I size S rule R depth D nodes N time_ms T`),
//! then `bench N nodes T ms R nps`.
//!
//! `pbrain-mnk bench --speed` instead measures the 15×15 hot paths (with `--size 20`, the
//! same middle games on 20×20; see `mnk_engine::bench::speed`): `make_unmake M moves T ms R per_s`, one `search position I
//! depth D nodes N threat_nodes V time_ms T nps R total_nps Q main_nps P` line per middle
//! game, then `speed nodes N threat_nodes V time_ms T nps R total_nps Q main_nps P`. `nps`
//! is main-search nodes over the whole time, `total_nps` counts the threat solver's nodes
//! too, and `main_nps` is main-search nodes over the main search's own time (without the
//! threat searches before it).

use std::io::Write;

use clap::builder::TypedValueParser;
use mnk_engine::bench;
use mnk_engine::report::nodes_per_second;

use super::CliError;

/// `bench`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Measure the 15x15 hot paths (make/unmake, middle-game searches) instead.
    #[arg(long)]
    speed: bool,
    /// With --speed: the board of the middle games, 15 or 20.
    #[arg(long, value_name = "N", default_value_t = 15, requires = "speed",
          value_parser = clap::builder::PossibleValuesParser::new(["15", "20"])
              .map(|s| s.parse::<u32>().expect("a listed number")))]
    size: u32,
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.speed {
        return speed(args.size == 20, out);
    }
    let mut index = 0;
    let mut error = None;
    let lines = bench::run(&mut |line| {
        index += 1;
        let p = line.position;
        let written = writeln!(
            out,
            "position {index} size {} rule {} depth {} nodes {} time_ms {}",
            p.size.arg(),
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

/// `bench --speed`: make/unmake and middle-game search speed.
fn speed(twenty: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let mut error = None;
    let report = bench::speed(twenty, &mut |s| {
        let written = writeln!(
            out,
            "search position {} depth {} nodes {} threat_nodes {} time_ms {} nps {} total_nps {} \
             main_nps {}",
            s.position + 1,
            s.depth,
            s.nodes,
            s.threat_nodes,
            s.time.as_millis(),
            nodes_per_second(s.nodes, s.time),
            nodes_per_second(s.nodes + s.threat_nodes, s.time),
            nodes_per_second(s.nodes, s.time.saturating_sub(s.root_threat_time))
        );
        if let Err(e) = written {
            error.get_or_insert(e);
        }
    });
    if let Some(e) = error {
        return Err(e.into());
    }
    let (made, time) = report.make_unmake;
    writeln!(
        out,
        "make_unmake {made} moves {} ms {} per_s",
        time.as_millis(),
        nodes_per_second(made, time)
    )?;
    let nodes: u64 = report.searches.iter().map(|s| s.nodes).sum();
    let threat: u64 = report.searches.iter().map(|s| s.threat_nodes).sum();
    let time: std::time::Duration = report.searches.iter().map(|s| s.time).sum();
    let root_threats: std::time::Duration =
        report.searches.iter().map(|s| s.root_threat_time).sum();
    writeln!(
        out,
        "speed nodes {nodes} threat_nodes {threat} time_ms {} nps {} total_nps {} main_nps {}",
        time.as_millis(),
        nodes_per_second(nodes, time),
        nodes_per_second(nodes + threat, time),
        nodes_per_second(nodes, time.saturating_sub(root_threats))
    )?;
    Ok(())
}
