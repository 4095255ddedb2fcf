//! `pbrain-mnk`: the mnk engine's binary.
//!
//! Subcommands: `perft` (move-sequence counts), `solve` (exact small-board values). Run `pbrain-mnk help` for usage.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use cli::{CliError, UsageError};

const USAGE_HEADER: &str = "usage:";

fn usage() -> String {
    let lines = [cli::perft::USAGE, cli::solve::USAGE, "pbrain-mnk help | --help | --version"];
    format!("{USAGE_HEADER}\n  {}", lines.join("\n  "))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match args.first().map(String::as_str) {
        Some("perft") => cli::perft::run(&args[1..], &mut out),
        Some("solve") => cli::solve::run(&args[1..], &mut out),
        Some("help" | "--help" | "-h") => writeln!(out, "{}", usage()).map_err(CliError::from),
        Some("--version" | "-V") => {
            writeln!(out, "pbrain-mnk {}", env!("CARGO_PKG_VERSION")).map_err(CliError::from)
        }
        Some(other) => Err(UsageError(format!("unknown subcommand '{other}'")).into()),
        None => Err(UsageError("a subcommand is required".to_string()).into()),
    };
    match result.and_then(|()| out.flush().map_err(CliError::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbrain-mnk: error: {e}");
            if matches!(e, CliError::Usage(_)) {
                eprintln!("{}", usage());
            }
            ExitCode::from(e.exit_code())
        }
    }
}
