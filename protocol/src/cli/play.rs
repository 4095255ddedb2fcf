//! `pbrain-mnk play`: a game in the terminal.
//!
//! Each side is a `human` (moves typed as `h8` or `x,y`), the `engine` (mnk's search with
//! `--time-move` per move, at `--level` strength), the `classroom` program or `random` (a
//! random legal move, from `--seed`). Humans may
//! also type `undo` (takes back their last move and any reply since), `board` (shows the
//! board again), `help` and `quit`. Bad input is explained and asked again; end of input
//! ends the session quietly.

use std::io::{BufRead, Write};
use std::time::Duration;

use mnk_engine::color::Color;
use mnk_engine::engine::{Engine, Player};
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::{Point, format_pos};
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::score::format_score;
use mnk_engine::strength::{Level, Strength};
use mnk_protocol::command::parse_point;

use super::{CliError, GameArgs};

/// `play`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Who plays black.
    #[arg(long, value_enum, default_value_t = Seat::Human)]
    black: Seat,
    /// Who plays white.
    #[arg(long, value_enum, default_value_t = Seat::Engine)]
    white: Seat,
    /// Milliseconds a move for the engine.
    #[arg(long = "time-move", value_name = "MS", default_value_t = 1_000)]
    time_move: u64,
    /// The engine's strength, 0 (weakest) to 100 (full).
    #[arg(long, value_name = "N", default_value_t = Strength::FULL,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(Strength::FULL)))]
    level: u32,
    /// Seed of the random player and of the engine's draws below full strength.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Who sits at a side of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Seat {
    /// A person typing moves.
    Human,
    /// mnk's search.
    Engine,
    /// The classroom program.
    Classroom,
    /// A random legal move each turn.
    Random,
}

impl Seat {
    /// The program that plays the seat, if one does.
    fn player(self) -> Option<Player> {
        match self {
            Seat::Engine => Some(Player::Mnk),
            Seat::Classroom => Some(Player::Classroom),
            Seat::Human | Seat::Random => None,
        }
    }

    /// The seat's name on the command line.
    fn name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Engine => "engine",
            Seat::Classroom => "classroom",
            Seat::Random => "random",
        }
    }
}

/// Runs the subcommand: the human's lines come from `input`.
pub(crate) fn run(
    args: &Args,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (size, rule) = (args.game.size, args.game.rule);
    let seats = [args.black, args.white];
    let move_time = Duration::from_millis(args.time_move);
    let mut rng = SplitMix64::new(args.seed);
    let mut game = Game::new(size, rule);
    let strength = Strength::new(args.level).expect("clap checks the range");
    // An engine for each side a program plays.
    let mut engines = seats.map(|seat| {
        seat.player().map(|player| {
            let mut engine = Engine::new(player);
            engine.set_level(Level { strength, seed: args.seed });
            engine.new_game(size, rule);
            engine
        })
    });
    writeln!(
        out,
        "mnk: {size} {rule}; black (X): {}, white (O): {}. Type 'help' for help.",
        seats[0].name(),
        seats[1].name()
    )?;
    write!(out, "{game}")?;
    while game.result() == Outcome::Ongoing {
        let color = game.side_to_move();
        let name = colour_name(color);
        let point = match seats[color.index()] {
            Seat::Human => match ask(&game, name, input, out)? {
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
            Seat::Engine | Seat::Classroom => {
                let engine = engines[color.index()].as_mut().expect("a program's seat");
                let (point, summary) = program_move(engine, &game, move_time);
                let who = seats[color.index()].name();
                writeln!(out, "{name} ({who}) plays {} — {summary}", format_point(point))?;
                point
            }
            Seat::Random => {
                let legal = game.legal_points();
                let point = legal[rng.below(legal.len())];
                writeln!(out, "{name} (random) plays {}", format_point(point))?;
                point
            }
        };
        game.try_play(point).expect("moves are checked before they are played");
        write!(out, "{game}")?;
    }
    let result = match game.result() {
        // Renju's black with only forbidden points left: any move would be a foul.
        Outcome::Win(color) if game.only_forbidden_moves_left() => {
            format!("{} wins (black has only forbidden points left)", colour_name(color))
        }
        Outcome::Win(color) => format!("{} wins", colour_name(color)),
        Outcome::Ongoing | Outcome::Draw => "draw (full board)".to_string(),
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

fn format_point(point: Point) -> String {
    format!("{} ({point})", format_pos(point))
}

/// The move `engine` chooses in `game` within `time`, and a summary of its search.
fn program_move(engine: &mut Engine, game: &Game, time: Duration) -> (Point, String) {
    let result = engine.go(game, Limits::time(time), &mut |_| {});
    let cell = result.best_move.expect("a search finds a move while one is legal");
    let summary = format!(
        "depth {}, score {}, {} nodes, {} ms",
        result.depth,
        format_score(result.score()),
        result.nodes + result.vcf_nodes,
        result.time.as_millis()
    );
    (game.point(cell), summary)
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
        return parse_point(text).map_err(|e| e.to_string());
    }
    match mnk_engine::notation::parse_moves(text) {
        Ok(points) if points.len() == 1 => Ok(points[0]),
        Ok(_) => Err("one move, please".to_string()),
        Err(e) => Err(e.to_string()),
    }
}
