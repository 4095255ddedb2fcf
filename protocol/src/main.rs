//! `pbrain-mnk`: the mnk engine's binary.
//!
//! Without arguments it speaks the Gomocup protocol on stdin/stdout (see `docs/protocol.md`);
//! `--threads N` does the same with N search threads until `INFO thread_num` says otherwise.
//! Subcommands: `perft` (move-sequence counts), `solve` (exact small-board values), `bench`
//! (the node-count signature), `match` (games between engines), `openings` (balanced openings
//! for matches), `play` (a game at the terminal), `classroom` (the protocol, with the
//! classroom program choosing the moves). Run `pbrain-mnk help` for usage,
//! `pbrain-mnk SUBCOMMAND --help` for one subcommand's.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use cli::{CliError, UsageError};
use mnk_engine::search::MAX_THREADS;
use mnk_protocol::command::Command;
use mnk_protocol::driver;
use mnk_protocol::player::Player;
use mnk_protocol::session::Session;

const USAGE_HEADER: &str = "usage:";

fn usage() -> String {
    let lines = [
        "pbrain-mnk [--threads N]    (the Gomocup protocol on stdin/stdout, N search threads: 1..64, default 1)",
    ]
    .into_iter()
    .chain(SUBCOMMANDS.iter().filter_map(|&name| subcommand_usage(name)))
    .chain(["pbrain-mnk help | --help | --version"]);
    format!("{USAGE_HEADER}\n  {}", lines.collect::<Vec<_>>().join("\n  "))
}

/// The subcommands, in the order `usage` lists them.
const SUBCOMMANDS: [&str; 7] =
    ["perft", "solve", "bench", "match", "openings", "play", "classroom"];

/// The usage line of `classroom`, which takes no options.
const CLASSROOM_USAGE: &str = "pbrain-mnk classroom        (the protocol, played by the classroom program: a sparring partner)";

/// The usage line of subcommand `name`, if it is one.
fn subcommand_usage(name: &str) -> Option<&'static str> {
    Some(match name {
        "perft" => cli::perft::USAGE,
        "solve" => cli::solve::USAGE,
        "bench" => cli::bench::USAGE,
        "match" => cli::matches::USAGE,
        "openings" => cli::openings::USAGE,
        "play" => cli::play::USAGE,
        "classroom" => CLASSROOM_USAGE,
        _ => return None,
    })
}

/// Runs the subcommand `args[0]` with the options after it.
fn run_subcommand(args: &[String], out: &mut dyn Write) -> Result<(), CliError> {
    match args[0].as_str() {
        "perft" => cli::perft::run(&args[1..], out),
        "solve" => cli::solve::run(&args[1..], out),
        "bench" => cli::bench::run(&args[1..], out),
        "match" => cli::matches::run(&args[1..], out),
        "openings" => cli::openings::run(&args[1..], out),
        "play" => cli::play::run(&args[1..], &mut io::stdin().lock(), out),
        "help" | "--help" | "-h" => writeln!(out, "{}", usage()).map_err(CliError::from),
        "--version" | "-V" => {
            writeln!(out, "pbrain-mnk {}", env!("CARGO_PKG_VERSION")).map_err(CliError::from)
        }
        "classroom" => Err(UsageError("classroom takes no arguments".to_string()).into()),
        other => Err(UsageError(format!("unknown subcommand '{other}'")).into()),
    }
}

fn main() -> ExitCode {
    // Diagnostics go to stderr, and only when asked for: Piskvork merges stderr into the
    // engine's answers.
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::Builder::from_default_env().target(env_logger::Target::Stderr).init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let protocol = match args.as_slice() {
        [] => Some((Player::Mnk, None)),
        [flag, count] if flag == "--threads" => match count.parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => Some((Player::Mnk, Some(count))),
            _ => {
                eprintln!("pbrain-mnk: error: --threads takes 1 to {MAX_THREADS}, not '{count}'");
                eprintln!("{}", usage());
                return ExitCode::from(2);
            }
        },
        [only] if only == "classroom" => Some((Player::Classroom, None)),
        _ => None,
    };
    if let Some((player, threads)) = protocol {
        let mut session = Session::with_player(player);
        if let Some(count) = threads {
            // The setting a manager's `INFO thread_num` would make (and can still change).
            session.handle(Command::info("thread_num", count));
        }
        let code = match driver::run_session(session, io::stdin(), io::stdout()) {
            Ok(()) => 0,
            Err(e) => {
                log::error!("protocol loop: {e}");
                1
            }
        };
        // Ends a search thread that may still be running.
        std::process::exit(code);
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // `pbrain-mnk SUBCOMMAND ... --help` asks for that subcommand's usage, not a run.
    let help =
        subcommand_usage(&args[0]).filter(|_| args[1..].iter().any(|a| a == "--help" || a == "-h"));
    let result = match help {
        Some(line) => writeln!(out, "{USAGE_HEADER}\n  {line}").map_err(CliError::from),
        None => run_subcommand(&args, &mut out),
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
