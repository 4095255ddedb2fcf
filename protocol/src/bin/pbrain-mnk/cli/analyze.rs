//! `pbrain-mnk analyze`: the engine's best lines for one position.
//!
//! The position is `--moves` on `--size` under `--rule`, or a game file (`--file`, SGF or
//! PSQ; `--game N` of an SGF collection) up to `--move-number`. The search runs for
//! `--time-move` milliseconds or `--nodes` nodes and keeps the `--nbest` best lines. Output
//! (stdout), one fact a line:
//!
//! ```text
//! position 15x15 freestyle moves 3 to_move white
//! line 1 move i9 score 34 win 51.4% depth 11 pv i9 g7 j10 f6
//! line 2 move g9 score 12 win 50.5% depth 11 pv g9 i9 f10
//! searched depth 11 nodes 412345 time_ms 1000
//! ```
//!
//! `--json` prints the same as one JSON object (the fields of
//! [`crate::analysis::Analysis`] with the position's). While a search runs longer than
//! a second, a progress line a second goes to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::analysis::{Analysis, analyse};
use mnk_engine::engine::{Engine, MAX_NBEST};
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::format_pos;
use mnk_engine::outcome::Outcome;
use mnk_engine::rules::Rule;
use mnk_engine::score::format_score;
use mnk_engine::size::BoardSize;
use mnk_protocol::gamefile;
use serde::Serialize;

use super::{CliError, UsageError};
use crate::explain::{game_of_moves, game_of_points};

/// `analyze`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: N (3, or 5 to 22) or WxH (default 15, or the file's).
    #[arg(long)]
    size: Option<BoardSize>,
    /// Rule: freestyle, standard, renju, caro or caro-exact (default freestyle, or the file's).
    #[arg(long)]
    rule: Option<Rule>,
    /// The position: moves as x,y pairs ("7,7 8,8") or in pos notation ("h8i9").
    #[arg(long, conflicts_with = "file")]
    moves: Option<String>,
    /// A game file (SGF or PSQ) whose position to analyse.
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// With --file: which game of an SGF collection, from 1.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "file",
          value_parser = clap::value_parser!(u32).range(1..))]
    game: u32,
    /// With --file: the position after this many moves (default: the last).
    #[arg(long = "move-number", value_name = "N", requires = "file")]
    move_number: Option<usize>,
    /// Milliseconds to search.
    #[arg(long = "time-move", value_name = "MS", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    time_move: u64,
    /// Nodes to search instead of a time (reproducible on any machine).
    #[arg(long, value_name = "N", conflicts_with = "time_move",
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// How many best lines to show.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=MAX_NBEST as i64))]
    nbest: u32,
    /// Transposition-table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash_mb: u32,
    /// Prints one JSON object instead of lines.
    #[arg(long)]
    json: bool,
}

/// What `--json` prints.
#[derive(Serialize)]
struct Report<'a> {
    /// As `--size` and the web board take it: `15`, or `20x15` for a rectangle.
    size: String,
    rule: String,
    moves: Vec<String>,
    to_move: &'static str,
    /// `ongoing`, `black`, `white` (the winner) or `draw`.
    result: &'static str,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

/// The position the options name.
fn position(args: &Args) -> Result<Game, UsageError> {
    let Some(path) = &args.file else {
        let size = args.size.unwrap_or(BoardSize::FIFTEEN);
        let moves = args.moves.as_deref().unwrap_or_default();
        return game_of_moves(size, args.rule.unwrap_or_default(), moves)
            .map_err(UsageError::Moves);
    };
    let text = std::fs::read_to_string(path).map_err(|error| UsageError::File {
        option: "file",
        path: path.clone(),
        error,
    })?;
    let (file, _) = gamefile::read_game(&text, args.game as usize)
        .map_err(|error| UsageError::GameFile { path: path.clone(), error: error.to_string() })?;
    let size = args.size.unwrap_or(file.size);
    if size != file.size {
        return Err(UsageError::GameFile {
            path: path.clone(),
            error: format!("the file's board is {}, not {}", file.size.arg(), size.arg()),
        });
    }
    let mut points = file.points();
    if let Some(n) = args.move_number {
        if n > points.len() {
            return Err(UsageError::GameFile {
                path: path.clone(),
                error: format!("--move-number {n}: the game has {} moves", points.len()),
            });
        }
        points.truncate(n);
    }
    let rule = args.rule.or(file.rule).unwrap_or_default();
    game_of_points(size, rule, &points)
        .map_err(|error| UsageError::GameFile { path: path.clone(), error })
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = position(args)?;
    let limits = match args.nodes {
        Some(nodes) => Limits::nodes(nodes),
        None => Limits::time(Duration::from_millis(args.time_move)),
    };
    let mut engine = Engine::with_hash_bytes((args.hash_mb as usize) << 20);
    engine.new_game(game.size(), game.rule());
    let started = Instant::now();
    let mut reported = Duration::ZERO;
    let mut progress = |info: &mnk_engine::report::SearchInfo| {
        let elapsed = started.elapsed();
        if info.line.unwrap_or(1) != 1 || elapsed < reported + Duration::from_secs(1) {
            return;
        }
        reported = elapsed;
        let pv: Vec<String> = info.pv.iter().map(|&c| format_pos(game.point(c))).collect();
        eprintln!(
            "analyze: depth {} score {} nodes {} time_ms {} pv {}",
            info.depth,
            format_score(info.score),
            info.nodes,
            elapsed.as_millis(),
            pv.join(" ")
        );
    };
    let analysis = if game.result() == Outcome::Ongoing {
        analyse(&mut engine, &game, limits, args.nbest as usize, &mut progress)
    } else {
        Analysis { lines: Vec::new(), depth: 0, nodes: 0, time_ms: 0, proven: true }
    };
    let to_move = match game.side_to_move() {
        mnk_engine::color::Color::Black => "black",
        mnk_engine::color::Color::White => "white",
    };
    let result = match game.result() {
        Outcome::Ongoing => "ongoing",
        Outcome::Win(mnk_engine::color::Color::Black) => "black",
        Outcome::Win(mnk_engine::color::Color::White) => "white",
        Outcome::Draw => "draw",
    };
    let moves: Vec<String> = game.history().into_iter().map(format_pos).collect();
    if args.json {
        let report = Report {
            size: game.size().arg(),
            rule: game.rule().to_string(),
            moves,
            to_move,
            result,
            analysis: &analysis,
        };
        let json = serde_json::to_string(&report).expect("plain data serialises");
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "position {} {} moves {} to_move {to_move}",
        game.size(),
        game.rule(),
        moves.len()
    )?;
    if result != "ongoing" {
        writeln!(out, "result {result}")?;
        return Ok(());
    }
    for line in &analysis.lines {
        writeln!(
            out,
            "line {} move {} score {} win {:.1}% depth {} pv {}",
            line.rank,
            line.first,
            line.score_text,
            line.win_chance * 100.0,
            line.depth,
            line.pv.join(" ")
        )?;
    }
    writeln!(
        out,
        "searched depth {} nodes {} time_ms {}{}",
        analysis.depth,
        analysis.nodes,
        analysis.time_ms,
        if analysis.proven { " proven" } else { "" }
    )?;
    Ok(())
}
