//! `pbrain-mnk play`: a game in the terminal.
//!
//! Each side is a `human` (moves typed as `h8` or `x,y`), the `engine` (mnk's search with
//! `--time-move` per move) or `random` (a random legal move, from `--seed`). Humans may
//! also type `undo` (takes back their last move and any reply since), `board` (shows the
//! board again), `help` and `quit`. Bad input is explained and asked again; end of input
//! ends the session quietly.

use std::io::{BufRead, Write};
use std::time::Duration;

use mnk_engine::bitboard::Bitboard;
use mnk_engine::color::Color;
use mnk_engine::notation::format_pos;
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::score::format_score;
use mnk_engine::search::{SearchLimits, search};
use mnk_engine::size::BoardSize;
use mnk_engine::tt::TranspositionTable;

use mnk_engine::game::Game;
use mnk_engine::with_game;
use mnk_protocol::command::{Point, parse_point};

use super::CliError;
use super::args::Options;

pub(crate) const USAGE: &str = "pbrain-mnk play [--size 3|5|15] [--rule NAME] [--black human|engine|random] \
[--white human|engine|random] [--time-move MS] [--seed S]";

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Player {
    Human,
    Engine,
    Random,
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine),
            "random" => Ok(Player::Random),
            other => Err(format!("'{other}' is not human, engine or random")),
        }
    }
}

/// Runs the subcommand: options from `args`, the human's lines from `input`.
pub(crate) fn run(
    args: &[String],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let opts = Options::parse(args, &["size", "rule", "black", "white", "time-move", "seed"], &[])?;
    let size: BoardSize = opts.get("size")?.unwrap_or(BoardSize::Fifteen);
    let rule: Rule = opts.get("rule")?.unwrap_or_default();
    let players = [
        opts.get::<Player>("black")?.unwrap_or(Player::Human),
        opts.get::<Player>("white")?.unwrap_or(Player::Engine),
    ];
    let move_time = Duration::from_millis(opts.get("time-move")?.unwrap_or(1_000));
    let mut rng = SplitMix64::new(opts.get("seed")?.unwrap_or(1));
    let mut game = Game::new(size, rule);
    let mut tt = TranspositionTable::with_bytes(64 << 20);
    writeln!(
        out,
        "mnk: {size} {rule}; black (X): {:?}, white (O): {:?}. Type 'help' for help.",
        players[0], players[1]
    )?;
    write!(out, "{game}")?;
    while game.outcome() == Outcome::Ongoing {
        let color = game.side_to_move();
        let name = colour_name(color);
        let point = match players[color.index()] {
            Player::Human => match ask(&game, name, input, out)? {
                Action::Move(point) => point,
                Action::Quit => return Ok(()),
                Action::Undo => {
                    // Back to this player's previous turn: its last move and every reply.
                    let mut undone = 0;
                    while game.undo().is_some() {
                        undone += 1;
                        if game.side_to_move() == color {
                            break;
                        }
                    }
                    writeln!(out, "took back {undone} move(s)")?;
                    write!(out, "{game}")?;
                    continue;
                }
            },
            Player::Engine => {
                let (point, summary) = engine_move(&game, &mut tt, move_time);
                writeln!(out, "{name} (engine) plays {} — {summary}", format_point(point))?;
                point
            }
            Player::Random => {
                let legal = legal_points(&game);
                let point = legal[rng.below(legal.len())];
                writeln!(out, "{name} (random) plays {}", format_point(point))?;
                point
            }
        };
        game.try_play(point).expect("moves are checked before they are played");
        write!(out, "{game}")?;
    }
    let result = match game.outcome() {
        Outcome::Win(color) => format!("{} wins", colour_name(color)),
        _ => "draw (full board)".to_string(),
    };
    writeln!(out, "result: {result} after {} moves", game.move_count())?;
    Ok(())
}

fn colour_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    }
}

fn format_point((x, y): Point) -> String {
    format!("{} ({x},{y})", format_pos((x, y)))
}

fn legal_points(game: &Game) -> Vec<Point> {
    with_game!(game, b => {
        b.legal_moves().iter().map(|c| b.geometry().xy(c)).collect()
    })
}

fn engine_move(game: &Game, tt: &mut TranspositionTable, time: Duration) -> (Point, String) {
    with_game!(game, b => {
        let limits = SearchLimits { time: Some(time), ..SearchLimits::default() };
        let result = search(b, tt, limits, &mut |_| {});
        let cell = result.best_move.expect("an undecided board has a move");
        let summary = format!(
            "depth {}, score {}, {} nodes, {} ms",
            result.depth,
            format_score(result.score()),
            result.nodes + result.vcf_nodes,
            result.time.as_millis()
        );
        (b.geometry().xy(cell), summary)
    })
}

/// What a human asked for.
enum Action {
    Move(Point),
    Undo,
    Quit,
}

/// Asks the human until it gives a legal move, `undo` (with something to undo) or `quit`;
/// end of input quits.
fn ask(
    game: &Game,
    name: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Action, CliError> {
    loop {
        write!(out, "{name} to move> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Action::Quit);
        }
        let text = line.trim().to_ascii_lowercase();
        match text.as_str() {
            "" => continue,
            "quit" | "exit" => return Ok(Action::Quit),
            "help" => {
                writeln!(
                    out,
                    "moves: h8 (column letter, row from 1) or 7,7 (x,y from 0); undo; board; quit"
                )?;
                continue;
            }
            "board" => {
                write!(out, "{game}")?;
                continue;
            }
            "undo" if game.move_count() == 0 => {
                writeln!(out, "nothing to undo")?;
                continue;
            }
            "undo" => return Ok(Action::Undo),
            _ => {}
        }
        let point = match parse_move_text(&text) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "not a move: {e} (type 'help')")?;
                continue;
            }
        };
        let mut copy = game.clone();
        match copy.try_play(point) {
            Ok(_) => return Ok(Action::Move(point)),
            Err(e) => writeln!(out, "illegal: {e}")?,
        }
    }
}

fn parse_move_text(text: &str) -> Result<Point, String> {
    if text.contains(',') {
        return parse_point(text);
    }
    match mnk_engine::notation::parse_moves(text) {
        Ok(points) if points.len() == 1 => Ok(points[0]),
        Ok(_) => Err("one move, please".to_string()),
        Err(e) => Err(e.to_string()),
    }
}
