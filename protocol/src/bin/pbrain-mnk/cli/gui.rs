//! `pbrain-mnk gui`: the web board (see [`crate::web`]). Prints `listening on
//! http://127.0.0.1:PORT/` on stdout once the port is bound, then serves until Ctrl-C.
//!
//! `--engine NAME=COMMAND` (repeatable) names a pbrain engine a person may seat on either
//! side; the page shows it as NAME beside `mnk` and `human`.

use std::io::Write;

use crate::web::{self, ServerConfig};
use mnk_protocol::manager::process::EngineCommand;

use super::{CliError, UsageError};

/// `gui`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The port on 127.0.0.1 (0: any free port; the line printed names it).
    #[arg(long, default_value_t = 8_080)]
    port: u16,
    /// An engine a person may seat: NAME=COMMAND (repeatable), for example
    /// rapfi="./pbrain-rapfi". NAME is letters, digits, '-' and '_'.
    #[arg(long = "engine", value_name = "NAME=COMMAND", value_parser = parse_engine)]
    engines: Vec<(String, EngineCommand)>,
    /// mnk's transposition-table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash_mb: u32,
}

/// A `--engine NAME=COMMAND`.
fn parse_engine(text: &str) -> Result<(String, EngineCommand), String> {
    let (name, command) =
        text.split_once('=').ok_or_else(|| format!("'{text}' is not NAME=COMMAND"))?;
    let name = name.trim();
    let good = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || !name.chars().all(good) {
        return Err(format!("engine name '{name}': letters, digits, '-' and '_' only"));
    }
    if name == "mnk" || name == "human" {
        return Err(format!("engine name '{name}' is taken by the board's own seats"));
    }
    let command: EngineCommand = command.parse().map_err(|e| format!("{e}"))?;
    Ok((name.to_string(), command))
}

/// Runs the subcommand: serves until Ctrl-C.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut names: Vec<&str> = args.engines.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    if let Some(twice) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(UsageError::EngineName(format!("two engines are named '{}'", twice[0])).into());
    }
    let config = ServerConfig {
        port: args.port,
        engines: args.engines.clone(),
        hash_bytes: (args.hash_mb as usize) << 20,
    };
    let mut printed = Ok(());
    let served = web::serve(config, |address| {
        printed = writeln!(out, "listening on http://{address}/").and_then(|()| out.flush());
    });
    printed?;
    served.map_err(|error| match error.kind() {
        std::io::ErrorKind::AddrInUse | std::io::ErrorKind::PermissionDenied => {
            UsageError::Port { port: args.port, error: error.to_string() }.into()
        }
        _ => CliError::Io(error),
    })
}
