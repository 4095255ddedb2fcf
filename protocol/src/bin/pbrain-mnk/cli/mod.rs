//! The command line of `pbrain-mnk`, on `clap`: with no subcommand (or `classroom`) the
//! protocol loop, else one of the tools. `--help`, `SUBCOMMAND --help` and `--version` print
//! to stdout and exit 0; a bad argument exits 2 with the usage on stderr, and so does an
//! argument that parses but cannot be used ([`UsageError`]). Other failures exit 1.

pub(crate) mod analyze;
pub(crate) mod bench;
pub(crate) mod classes;
pub(crate) mod datagen;
pub(crate) mod gui;
pub(crate) mod matches;
pub(crate) mod openings;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod proof_run;
pub(crate) mod solve;
pub(crate) mod tune;

use std::fmt;
use std::io;
use std::path::PathBuf;

use crate::tuner::spsa::StateError;
use clap::{CommandFactory, Parser, Subcommand};
use mnk_engine::limits::StopFlag;
use mnk_engine::rules::Rule;
use mnk_engine::search::{MAX_THREADS, PARAMS, ParamError, SearchParams};
use mnk_engine::size::BoardSize;
use mnk_protocol::manager::MatchError;
use mnk_protocol::manager::openings::OpeningError;
use mnk_protocol::manager::referee::InfoListError;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "pbrain-mnk",
    version,
    // Our own `help` subcommand, which (unlike clap's) takes `--help` too.
    disable_help_subcommand = true,
    about = "mnk, a bitboard engine for m,n,k-games (tic-tac-toe, 5x5, gomoku and renju \
             up to 22x22) that speaks the Gomocup protocol",
    long_about = "mnk, a bitboard engine for m,n,k-games (tic-tac-toe, 5x5, gomoku and \
                  renju on every board up to 22x22). Without a subcommand it speaks the Gomocup (pbrain) protocol on \
                  stdin/stdout: give its path to a manager. The subcommands are tools: \
                  counts, proofs, benchmarks, matches, openings, training data and a game in the \
                  terminal."
)]
pub(crate) struct Cli {
    /// Search threads of the protocol loop, until a manager's INFO thread_num says otherwise.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub(crate) threads: Option<u16>,
    /// Sets a tunable of the main search for the protocol loop (repeatable; `pbrain-mnk help
    /// params` lists them): what the tuner plays its perturbed engines with.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub(crate) set: Vec<String>,
    #[command(subcommand)]
    pub(crate) command: Option<Tool>,
}

/// A flag a thread of its own raises at Ctrl-C (SIGINT) or SIGTERM: long tools (a match, a
/// proof) stop with it and report what they have.
pub(crate) fn interrupt_flag() -> StopFlag {
    let flag = StopFlag::new();
    let raised = flag.clone();
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
            return;
        };
        runtime.block_on(crate::signals::stop_requested());
        raised.raise();
    });
    flag
}

/// A `--set` assignment, checked against the tunables' names and ranges.
pub(crate) fn parse_param(assignment: &str) -> Result<String, ParamError> {
    SearchParams::default().assign(assignment).map(|()| assignment.to_string())
}

/// The tunables of the `--set` assignments, the defaults for the rest.
pub(crate) fn search_params(assignments: &[String]) -> Result<SearchParams, ParamError> {
    let mut params = SearchParams::default();
    for assignment in assignments {
        params.assign(assignment)?;
    }
    Ok(params)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Tool {
    /// Counts the move sequences of a given length (the correctness oracle).
    Perft(perft::Args),
    /// Proves the exact value of a position: 3x3, and k = 5 on boards from 5x5 to 8x8.
    Solve(solve::Args),
    /// Prints the bench signature, or measures the speed of the hot paths.
    Bench(bench::Args),
    /// Shows the engine's best lines for a position (moves or an SGF/PSQ file).
    Analyze(Box<analyze::Args>),
    /// Plays refereed games between two pbrain engines.
    Match(Box<matches::Args>),
    /// Writes balanced openings for matches.
    Openings(openings::Args),
    /// Writes training positions from self-play, labelled by mnk's searches.
    Datagen(datagen::Args),
    /// Plays a game in the terminal.
    Play(play::Args),
    /// Serves the web board: play, analyse and watch engines in a browser.
    Gui(gui::Args),
    /// Tunes the search's tunables by SPSA over fixed-node game pairs (resumable).
    Tune(Box<tune::Args>),
    /// The protocol loop, played by the classroom program (a sparring partner).
    Classroom,
    /// Prints this message or the help of the given subcommand.
    Help(HelpArgs),
}

/// `help`'s argument.
#[derive(Debug, clap::Args)]
pub(crate) struct HelpArgs {
    /// The subcommand whose options to print (all subcommands if none is given), or
    /// params for the search's tunables.
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

impl HelpArgs {
    /// Prints the help of the subcommand named, or of the whole command line.
    pub(crate) fn run(&self, out: &mut dyn io::Write) -> Result<(), CliError> {
        let mut command = Cli::command();
        command.build();
        let help = match &self.command {
            Some(name) if name == "params" => {
                writeln!(
                    out,
                    "Every constant that changes how mnk plays, by area (pbrain-mnk --set NAME=VALUE;\n\
                     name, default, range, meaning):"
                )?;
                let width = PARAMS.iter().map(|spec| spec.name.len()).max().unwrap_or(0);
                let mut area = "";
                for spec in PARAMS {
                    if spec.area != area {
                        area = spec.area;
                        writeln!(out, "\n{area}:")?;
                    }
                    let range = format!("{}..={}", spec.min, spec.max);
                    writeln!(
                        out,
                        "  {:<width$} {:>8}  {range:<16} {}",
                        spec.name, spec.default, spec.doc
                    )?;
                }
                return Ok(());
            }
            None => command.render_long_help(),
            Some(name) => match command.find_subcommand_mut(name) {
                Some(sub) => sub.render_long_help(),
                None => return Err(UsageError::UnknownSubcommand(name.clone()).into()),
            },
        };
        write!(out, "{help}")?;
        Ok(())
    }
}

impl Tool {
    /// The subcommand's name on the command line.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Tool::Perft(_) => "perft",
            Tool::Solve(_) => "solve",
            Tool::Bench(_) => "bench",
            Tool::Analyze(_) => "analyze",
            Tool::Match(_) => "match",
            Tool::Openings(_) => "openings",
            Tool::Datagen(_) => "datagen",
            Tool::Play(_) => "play",
            Tool::Gui(_) => "gui",
            Tool::Tune(_) => "tune",
            Tool::Classroom => "classroom",
            Tool::Help(_) => "help",
        }
    }
}

/// The board and rule of the games a subcommand plays (`match`, `openings`, `play`).
#[derive(Debug, clap::Args)]
pub(crate) struct GameArgs {
    /// Board size: N (3, or 5 to 22) or WxH (each from 5 to 22).
    #[arg(long, default_value = "15")]
    pub(crate) size: BoardSize,
    /// Rule: freestyle, standard, renju, caro or caro-exact.
    #[arg(long, default_value_t)]
    pub(crate) rule: Rule,
}

/// An argument that parsed but cannot be used: the binary prints it with the usage and
/// exits with code 2.
#[derive(Debug)]
pub(crate) enum UsageError {
    /// `--moves` is not a legal position (why, in a person's words: see
    /// [`crate::explain::game_of_moves`]).
    Moves(String),
    /// `--depth` beyond the board (a sequence stops when the board is full).
    DepthBeyondBoard {
        /// The deepest meaningful depth.
        max: u32,
    },
    /// `--depth` whose count could overflow 128 bits.
    CountTooLarge {
        /// The depth asked for.
        depth: u32,
    },
    /// `solve` on a board too large to solve.
    UnsolvableSize,
    /// `solve` with the prover under a rule other than freestyle.
    ProverRule(Rule),
    /// `solve --time-limit` not a positive number of seconds.
    TimeLimit,
    /// `solve --state` names a file that is not this proof's state.
    ProofState(PathBuf, String),
    /// `solve --certificate` for a value that has none (a win or a loss).
    Certificate(String),
    /// `solve --classes` names a record that cannot be read as one.
    Record(PathBuf, String),
    /// `solve --classes` with an option or a board it does not take.
    Classes(String),
    /// A file named by an option cannot be read or written.
    File {
        /// The option, without dashes.
        option: &'static str,
        /// The path.
        path: PathBuf,
        /// Why not.
        error: io::Error,
    },
    /// A line of an openings file is not an opening.
    Opening {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: OpeningError,
    },
    /// An openings file with no opening.
    NoOpenings(PathBuf),
    /// `--sprt` with ELO0 not below ELO1.
    SprtOrder,
    /// `--info1` or `--info2` not a list of `key=value`.
    InfoList {
        /// The option, without dashes.
        option: &'static str,
        /// What is wrong.
        error: InfoListError,
    },
    /// `openings --stones` that leave no cell to play.
    TooManyStones {
        /// The board's cells.
        cells: usize,
    },
    /// `help` with a name that is no subcommand.
    UnknownSubcommand(String),
    /// `datagen --sizes` with a board whose lines span it (3×3, 5×5): it keeps no line
    /// patterns to learn from.
    DatagenSize(BoardSize),
    /// `tune --state` names a file that is not a tuning state.
    TuneState(PathBuf, StateError),
    /// `tune --params` names a tunable the search does not have.
    Param(ParamError),
    /// `gui --engine` names that cannot be told apart.
    EngineName(String),
    /// `gui --port` that cannot be listened on.
    Port {
        /// The port.
        port: u16,
        /// Why not.
        error: String,
    },
    /// A game file (`--file`) that cannot be read as a game, or lacks the position asked for.
    GameFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: String,
    },
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsageError::Moves(e) => write!(f, "bad --moves: {e}"),
            UsageError::DepthBeyondBoard { max } => {
                write!(f, "--depth must be 0..={max} on this board")
            }
            UsageError::CountTooLarge { depth } => write!(
                f,
                "--depth {depth} from this position can have more move sequences than a \
                 128-bit count holds"
            ),
            UsageError::UnsolvableSize => {
                f.write_str("solve supports --size 3, and 5 to 8 (WxH: each side 5 to 8)")
            }
            UsageError::ProverRule(rule) => write!(
                f,
                "--rule {rule}: boards above 5x5 are proved under freestyle (five or more wins)"
            ),
            UsageError::TimeLimit => {
                f.write_str("--time-limit must be a positive number of seconds")
            }
            UsageError::ProofState(path, e) => write!(f, "--state {}: {e}", path.display()),
            UsageError::Certificate(e) => write!(f, "--certificate: {e}"),
            UsageError::Record(path, e) => write!(f, "--classes {}: {e}", path.display()),
            UsageError::Classes(e) => write!(f, "--classes: {e}"),
            UsageError::File { option, path, error } => {
                write!(f, "--{option} {}: {error}", path.display())
            }
            UsageError::Opening { path, error } => {
                write!(f, "--openings {}: {error}", path.display())
            }
            UsageError::NoOpenings(path) => {
                write!(f, "--openings {}: the file holds no opening", path.display())
            }
            UsageError::SprtOrder => f.write_str("--sprt needs ELO0 < ELO1"),
            UsageError::InfoList { option, error } => write!(f, "--{option}: {error}"),
            UsageError::TooManyStones { cells } => write!(f, "--stones must be below {cells}"),
            UsageError::UnknownSubcommand(name) => write!(f, "no subcommand '{name}'"),
            UsageError::DatagenSize(size) => write!(
                f,
                "--sizes {}: datagen plays boards with line patterns (6 to 22 wide and high, \
                 or 5 by more)",
                size.arg()
            ),
            UsageError::TuneState(path, error) => write!(f, "--state {}: {error}", path.display()),
            UsageError::Param(error) => write!(f, "--params: {error}"),
            UsageError::EngineName(error) => write!(f, "--engine: {error}"),
            UsageError::Port { port, error } => write!(f, "--port {port}: {error}"),
            UsageError::GameFile { path, error } => write!(f, "--file {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for UsageError {}

/// Why a subcommand failed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// An argument that cannot be used (exit code 2).
    Usage(UsageError),
    /// Writing the output failed (exit code 1).
    Io(io::Error),
    /// A match could not go on (exit code 1).
    Match(MatchError),
    /// Fewer balanced openings were found than asked for (exit code 1).
    Openings(openings::Shortfall),
    /// A match ended by Ctrl-C, after its summary (exit code 130).
    Interrupted {
        /// Games finished and counted.
        finished: usize,
        /// Games the match was to play.
        games: usize,
    },
    /// A proof stopped by Ctrl-C, after its summary and the state's last save (exit code
    /// 130).
    ProofInterrupted {
        /// Where the state was saved, if anywhere.
        state: Option<PathBuf>,
    },
    /// `solve --verify`: the certificate was read and does not prove what it claims (exit
    /// code 1).
    CertificateRejected(PathBuf, String),
    /// `solve --classes --check`: a recorded class's certificate is missing or does not
    /// match the record (exit code 1).
    RecordUnchecked(PathBuf, String),
    /// `datagen` games that failed (a bug; each was reported and left out; exit code 1).
    GamesFailed {
        /// Games that failed.
        failed: usize,
        /// Games played.
        games: usize,
    },
}

impl CliError {
    /// The process exit code for this error.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Interrupted { .. } | CliError::ProofInterrupted { .. } => 130,
            CliError::Io(_)
            | CliError::CertificateRejected(..)
            | CliError::RecordUnchecked(..)
            | CliError::Match(_)
            | CliError::Openings(_)
            | CliError::GamesFailed { .. } => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(e) => fmt::Display::fmt(e, f),
            CliError::Io(e) => write!(f, "output error: {e}"),
            CliError::Match(e) => write!(f, "match stopped: {e}"),
            CliError::Openings(e) => write!(f, "openings: {e}"),
            CliError::CertificateRejected(path, e) => {
                write!(f, "--verify {}: the certificate does not hold: {e}", path.display())
            }
            CliError::RecordUnchecked(path, e) => write!(f, "--check {}: {e}", path.display()),
            CliError::Interrupted { finished, games } => write!(
                f,
                "interrupted after {finished} of {games} games (games in progress are not counted)"
            ),
            CliError::ProofInterrupted { state: Some(path) } => {
                write!(
                    f,
                    "interrupted; the proof goes on from its state: --state {}",
                    path.display()
                )
            }
            CliError::ProofInterrupted { state: None } => {
                f.write_str("interrupted (without --state the work is not kept)")
            }
            CliError::GamesFailed { failed, games } => {
                write!(f, "{failed} of {games} games failed and were left out")
            }
        }
    }
}

impl std::error::Error for CliError {}

impl From<UsageError> for CliError {
    fn from(e: UsageError) -> Self {
        CliError::Usage(e)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn set_takes_known_tunables_in_range_and_refuses_others() {
        let cli =
            Cli::try_parse_from(["pbrain-mnk", "--set", "rfp_margin=55", "--set", "lmp_base=5"])
                .expect("known tunables in range");
        let params = search_params(&cli.set).expect("checked");
        assert_eq!((params.rfp_margin, params.lmp_base), (55, 5));
        for bad in ["nonsense=1", "rfp_margin=100000", "rfp_margin", "rfp_margin=x"] {
            assert!(Cli::try_parse_from(["pbrain-mnk", "--set", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn options_parse_into_their_types() {
        let cli = Cli::try_parse_from(["pbrain-mnk", "--threads", "4"]).unwrap();
        assert_eq!((cli.threads, cli.command.is_none()), (Some(4), true));
        let cli = Cli::try_parse_from(["pbrain-mnk", "perft", "--size=5", "--depth", "3"]);
        let Some(Tool::Perft(args)) = cli.unwrap().command else { panic!("perft") };
        assert_eq!((args.size.width(), args.depth, args.divide), (5, 3, false));
        for bad in [
            &["pbrain-mnk", "--threads", "0"][..],
            &["pbrain-mnk", "perft", "--size", "4", "--depth", "1"],
            &["pbrain-mnk", "perft", "--size", "3"],
            &["pbrain-mnk", "match", "--engine1", "a", "--engine2", "b", "--sprt", "5"],
            &["pbrain-mnk", "frobnicate"],
        ] {
            let error = Cli::try_parse_from(bad).unwrap_err();
            assert_eq!(error.exit_code(), 2, "{bad:?}");
        }
    }
}
