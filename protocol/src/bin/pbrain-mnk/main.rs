//! `pbrain-mnk`: the mnk engine's binary.
//!
//! Without arguments it speaks the Gomocup protocol on stdin/stdout (see `docs/protocol.md`)
//! through the protocol library (`mnk_protocol`); `--threads N` does the same with N search
//! threads until `INFO thread_num` says otherwise, and `classroom` with the classroom
//! program choosing the moves. The subcommands are tools (see [`cli`]): `perft`, `solve`,
//! `bench`, `analyze`, `gui`, `match`, `openings`, `datagen`, `play`, `tune`.
//! `pbrain-mnk --help` lists them, `pbrain-mnk SUBCOMMAND --help` gives one's options.
//!
//! The binary's rooms, for people and scripts: [`cli`] (the command line and the
//! subcommands), [`web`] (the web board), [`tuner`] (SPSA over the search's tunables), and
//! what the tools show people: [`analysis`] (best lines with win chances) and [`explain`]
//! (refused moves in words). The match manager they seat engines with is the library's
//! (`mnk_protocol::manager`).

mod analysis;
mod cli;
mod explain;
mod signals;
mod tuner;
mod web;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use cli::{Cli, CliError, Tool};
use mnk_engine::engine::Player;
use mnk_engine::search::SearchParams;
use mnk_protocol::command::Command;
use mnk_protocol::driver;
use mnk_protocol::session::Session;

fn main() -> ExitCode {
    // Diagnostics go to stderr, and only when asked for: Piskvork merges stderr into the
    // engine's answers.
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::Builder::from_default_env().target(env_logger::Target::Stderr).init();
    }
    let cli = parse_arguments();
    let params = cli::search_params(&cli.set).expect("--set was checked as it was parsed");
    let tool = match cli.command {
        None => protocol(Player::Mnk, cli.threads, params),
        Some(Tool::Classroom) => protocol(Player::Classroom, cli.threads, params),
        Some(_) if cli.threads.is_some() || !cli.set.is_empty() => {
            let option = if cli.threads.is_some() { "--threads" } else { "--set" };
            Cli::command()
                .error(
                    ErrorKind::ArgumentConflict,
                    format!("{option} is an option of the protocol loop"),
                )
                .exit()
        }
        Some(tool) => tool,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match &tool {
        Tool::Perft(args) => cli::perft::run(args, &mut out),
        Tool::Solve(args) => cli::solve::run(args, &mut out),
        Tool::Bench(args) => cli::bench::run(args, &mut out),
        Tool::Analyze(args) => cli::analyze::run(args, &mut out),
        Tool::Match(args) => cli::matches::run(args, &mut out),
        Tool::Openings(args) => cli::openings::run(args, &mut out),
        Tool::Datagen(args) => cli::datagen::run(args, &mut out),
        Tool::Play(args) => cli::play::run(args, &mut io::stdin().lock(), &mut out),
        Tool::Gui(args) => cli::gui::run(args, &mut out),
        Tool::Tune(args) => cli::tune::run(args, &mut out),
        Tool::Help(args) => args.run(&mut out),
        Tool::Classroom => unreachable!("the protocol loop ran"),
    };
    match result.and_then(|()| out.flush().map_err(CliError::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(e)) => {
            // Exits with code 2 after the subcommand's usage.
            let mut command = Cli::command();
            command.build();
            let name = tool.name();
            let sub = command.find_subcommand_mut(name).expect("every tool is a subcommand");
            sub.error(ErrorKind::ValueValidation, e).exit()
        }
        Err(e) => {
            eprintln!("pbrain-mnk: error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// The command line, or the exit: --help and --version print on stdout and exit with 0;
/// bad arguments print the error and the usage (of the subcommand they are given to) on
/// stderr and exit with 2.
fn parse_arguments() -> Cli {
    let error = match Cli::try_parse() {
        Ok(cli) => return cli,
        Err(error) if error.exit_code() == 0 => error.exit(),
        Err(error) => error,
    };
    let rendered = error.render().to_string();
    eprint!("{rendered}");
    if !rendered.contains("Usage:") {
        let mut command = Cli::command();
        command.build();
        let named = std::env::args().nth(1);
        let usage = match named.and_then(|name| command.find_subcommand_mut(&name).cloned()) {
            Some(mut sub) => sub.render_usage(),
            None => command.render_usage(),
        };
        eprintln!("\n{usage}");
    }
    std::process::exit(2)
}

/// Runs the protocol loop with `player` choosing the moves (and `threads` search threads,
/// as if a manager had sent `INFO thread_num`, and the search's tunables `params`) until
/// `END` or end of input, then exits.
fn protocol(player: Player, threads: Option<u16>, params: SearchParams) -> ! {
    let mut session = Session::with_player(player);
    session.set_search_params(params);
    if let Some(count) = threads {
        session.handle(Command::info("thread_num", &count.to_string()));
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
