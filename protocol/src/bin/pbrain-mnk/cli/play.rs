//! `pbrain-mnk play`: a game in the terminal.
//!
//! Each side is a `human` (moves typed as `h8` or `x,y`), the `engine` (mnk's search with
//! `--time-move` per move, at `--level` strength), the `classroom` program or `random` (a
//! random legal move, from `--seed`). Humans may also type `undo` (takes back their last
//! move and any reply since), `hint` (mnk's best move for them, at full strength), `save
//! FILE` (the game so far as SGF), `board` (shows the board again), `help` and `quit`. Bad
//! input is explained in words (a renju foul by name) and asked again; end of input ends the
//! session quietly.
//!
//! The board is shown once a turn: before each human move (with a person playing), after
//! each move (without). The last move is in brackets, `[X]`, and while black is to move
//! under renju its forbidden points show as `*`.

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::analysis::analyse;
use crate::explain::illegal_move;
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
use mnk_protocol::gamefile::{GameFile, write_sgf};

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
    // Full strength, for hints.
    let mut adviser: Option<Engine> = None;
    let person_plays = seats.contains(&Seat::Human);
    writeln!(
        out,
        "mnk: {size} {rule}; black (X): {}, white (O): {}. Type 'help' for help.",
        seats[0].name(),
        seats[1].name()
    )?;
    while game.result() == Outcome::Ongoing {
        let color = game.side_to_move();
        let name = colour_name(color);
        let (point, written) = match seats[color.index()] {
            Seat::Human => {
                draw(&game, out)?;
                let asked = Asked { game: &game, name, seats, move_time };
                match ask(&asked, &mut adviser, input, out)? {
                    Action::Move(point, written) => (point, written),
                    Action::Quit => return Ok(()),
                    Action::Undo => {
                        // Back to this player's previous turn: its last move and every reply.
                        let mut undone = Vec::new();
                        while let Some(point) = game.undo() {
                            undone.push(format_pos(point));
                            if game.side_to_move() == color {
                                break;
                            }
                        }
                        writeln!(out, "took back {}", undone.join(" and "))?;
                        continue;
                    }
                }
            }
            Seat::Engine | Seat::Classroom => {
                let engine = engines[color.index()].as_mut().expect("a program's seat");
                let (point, summary) = program_move(engine, &game, move_time);
                let who = seats[color.index()].name();
                writeln!(out, "{name} ({who}) plays {} — {summary}", format_pos(point))?;
                (point, String::new())
            }
            Seat::Random => {
                let legal = game.legal_points();
                let point = legal[rng.below(legal.len())];
                writeln!(out, "{name} (random) plays {}", format_pos(point))?;
                (point, String::new())
            }
        };
        game.try_play(point).expect("moves are checked before they are played");
        if !written.is_empty() {
            writeln!(out, "{name} plays {written}")?;
        }
        if !person_plays {
            draw(&game, out)?;
        }
    }
    if person_plays {
        draw(&game, out)?;
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

/// The board with the last move in brackets and, while black is to move under renju, its
/// forbidden points as `*`.
fn draw(game: &Game, out: &mut dyn Write) -> Result<(), CliError> {
    let size = game.size();
    let stones: Vec<Point> = game.history();
    let last = game.last_move();
    let forbidden = if game.rule().restricts(game.side_to_move()) {
        game.forbidden_points()
    } else {
        Vec::new()
    };
    let mut text = String::from("   ");
    for x in 0..size.width() {
        text.push(' ');
        text.push(char::from(b'a' + x as u8));
    }
    text.push('\n');
    for y in 0..size.height() {
        text.push_str(&format!("{:>3}", y + 1));
        let mut previous_last = false;
        for x in 0..size.width() {
            let point = Point::new(x, y);
            let mark = match stones.iter().position(|&p| p == point) {
                Some(i) if i % 2 == 0 => 'X',
                Some(_) => 'O',
                None if forbidden.contains(&point) => '*',
                None => '.',
            };
            let is_last = last == Some(point);
            text.push(if is_last {
                '['
            } else if previous_last {
                ']'
            } else {
                ' '
            });
            text.push(mark);
            previous_last = is_last;
        }
        if previous_last {
            text.push(']');
        }
        text.push('\n');
    }
    if !forbidden.is_empty() {
        text.push_str("    * black's forbidden points (renju)\n");
    }
    write!(out, "{text}")?;
    Ok(())
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
    /// A legal move, and how the person wrote it.
    Move(Point, String),
    Undo,
    Quit,
}

/// What `ask` needs to know of the game.
struct Asked<'a> {
    game: &'a Game,
    name: &'static str,
    seats: [Seat; 2],
    move_time: Duration,
}

/// Asks the human until it gives a legal move, `undo` (with something to undo) or `quit`;
/// end of input quits. `hint` and `save` are answered here.
fn ask(
    asked: &Asked<'_>,
    adviser: &mut Option<Engine>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Action, CliError> {
    let game = asked.game;
    loop {
        write!(out, "{} to move> ", asked.name)?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Action::Quit);
        }
        let text = line.trim().to_ascii_lowercase();
        let (word, rest) = text.split_once(' ').unwrap_or((&text, ""));
        match word {
            "" => continue,
            "quit" | "exit" => return Ok(Action::Quit),
            "help" => {
                writeln!(
                    out,
                    "moves: h8 (column letter, row from 1) or 7,7 (x,y from 0); undo; hint; \
                     save FILE (SGF); board; quit"
                )?;
                continue;
            }
            "board" => {
                draw(game, out)?;
                continue;
            }
            "undo" if game.move_count() == 0 => {
                writeln!(out, "nothing to undo")?;
                continue;
            }
            "undo" => return Ok(Action::Undo),
            "hint" => {
                let engine = adviser.get_or_insert_with(|| Engine::new(Player::Mnk));
                engine.new_game(game.size(), game.rule());
                let limits = Limits::time(asked.move_time);
                let analysis = analyse(engine, game, limits, 1, &mut |_| {});
                match analysis.lines.first() {
                    Some(line) => writeln!(
                        out,
                        "hint: {} (score {}, win chance {:.0}%, depth {}; line {})",
                        line.first,
                        line.score_text,
                        line.win_chance * 100.0,
                        line.depth,
                        line.pv.join(" ")
                    )?,
                    None => writeln!(out, "hint: no move to suggest")?,
                }
                continue;
            }
            "save" if rest.trim().is_empty() => {
                writeln!(out, "save needs a file name: save game.sgf")?;
                continue;
            }
            "save" => {
                // The name as typed, not lower-cased.
                let path = line.trim()[4..].trim();
                let mut file = GameFile::new(game.size(), Some(game.rule()), &game.history());
                file.names = asked.seats.map(|seat| Some(seat.name().to_string()));
                match std::fs::write(path, write_sgf(&file)) {
                    Ok(()) => writeln!(out, "saved {} moves to {path}", game.move_count())?,
                    Err(e) => writeln!(out, "cannot save to {path}: {e}")?,
                }
                continue;
            }
            _ => {}
        }
        let point = match parse_move_text(&text) {
            Ok(p) => p,
            Err(()) => {
                writeln!(
                    out,
                    "'{}' is not a move: type a column letter and a row number (h8), x,y from 0 \
                     (7,7), or 'help'",
                    line.trim()
                )?;
                continue;
            }
        };
        let mut copy = game.clone();
        match copy.try_play(point) {
            Ok(_) => return Ok(Action::Move(point, text)),
            Err(e) => writeln!(out, "illegal: {}", illegal_move(game, point, &e, &text))?,
        }
    }
}

/// One move in pos notation (`h8`) or as `x,y`.
fn parse_move_text(text: &str) -> Result<Point, ()> {
    if text.contains(',') {
        return parse_point(text).map_err(|_| ());
    }
    match mnk_engine::notation::parse_moves(text) {
        Ok(points) if points.len() == 1 => Ok(points[0]),
        _ => Err(()),
    }
}
