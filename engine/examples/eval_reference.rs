//! Judges an evaluation by the moves it leads the search to, before any game is played:
//! move agreement and regret on a committed set of positions with long-search references
//! (`engine/training/reference/`; see `docs/learning.md`).
//!
//! ```text
//! cargo run --release -p mnk-engine --example eval_reference -- make --nodes N --per-rule K GAMES... > REF
//! cargo run --release -p mnk-engine --example eval_reference -- choose --nodes M [--set NAME=VALUE]... REF > CHOICES
//! cargo run --release -p mnk-engine --example eval_reference -- score --nodes N REF CHOICES...
//! ```
//!
//! * `make` takes one position from each held-out 15×15 game of the kept self-play (the
//!   games `train_eval fit` never trains on: the same distinct games, one in ten), up to `K`
//!   per rule: the searched position [`FIRST`] + (game number · 7 mod [`STAGES`]), or the
//!   first after it where neither side can make five and the game's search saw no forced
//!   result, so that the set spans the opening and the middle game. Each gets the move of an
//!   `N`-node search by this build. A line per position: `SIZE RULE MOVES BEST`.
//! * `choose` writes the move this build's `M`-node search plays in each position, a line
//!   each: `MOVES CHOICE`. Build it with the evaluation to judge.
//! * `score` prints, per rule and choices file, how often the choice is the reference move
//!   (agreement) and the mean regret: what the choice loses against the reference move,
//!   each judged by an `N`-node search of the position after it, in evaluation units,
//!   decided results counted as ±[`DECIDED`], never below 0, and the blunders (regrets of
//!   [`BLUNDER`] or more). Run it with the reference's build and nodes.
//!
//! Every search has one thread and a table cleared before it, so the same build and
//! arguments give the same output; the positions are shared among two threads.

use std::io::Write;

#[path = "shared/games.rs"]
mod games;
use games::{Distinct, fail, game_key, is_held_out, is_quiet, open, parse_game};
#[path = "shared/searches.rs"]
mod searches;
use searches::{map_parallel, search};

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::notation::{Point, format_pos, parse_moves};
use mnk_engine::outcome::Outcome;
use mnk_engine::rules::Rule;
use mnk_engine::score::{Score, is_decisive};
use mnk_engine::search::params::SearchParams;
use mnk_engine::size::BoardSize;

/// The rules with learned tables.
const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];
/// The first searched position of a game that may be taken (the opening's stones come
/// before).
const FIRST: usize = 2;
/// How many searched positions from [`FIRST`] on may be taken.
const STAGES: usize = 30;
/// What a decided result counts as in a regret.
const DECIDED: Score = 2000;
/// A regret this large is a blunder: a move that gives up about a winning chance's worth
/// (`σ(300 / 600)` is 62 %).
const BLUNDER: Score = 300;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("make") => make(&args[1..]),
        Some("choose") => choose(&args[1..]),
        Some("score") => score(&args[1..]),
        _ => fail(
            "usage: eval_reference make --nodes N --per-rule K GAMES... | choose --nodes M \
             [--set NAME=VALUE]... REF | score --nodes N REF CHOICES...",
        ),
    }
}

/// The options and the other arguments: `--nodes N`, `--per-rule K`, `--set NAME=VALUE`.
struct Options {
    nodes: u64,
    per_rule: usize,
    params: SearchParams,
    rest: Vec<String>,
}

fn options(args: &[String]) -> Options {
    let mut options =
        Options { nodes: 0, per_rule: 200, params: SearchParams::default(), rest: Vec::new() };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| -> &String {
            it.next().unwrap_or_else(|| fail(&format!("{name} needs a value")))
        };
        let number = |name: &str, v: &str| -> u64 {
            v.parse().unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
        };
        match arg.as_str() {
            "--nodes" => options.nodes = number("--nodes", value("--nodes")),
            "--per-rule" => options.per_rule = number("--per-rule", value("--per-rule")) as usize,
            "--set" => {
                let setting = value("--set");
                let (name, v) = setting
                    .split_once('=')
                    .unwrap_or_else(|| fail(&format!("--set {setting}: not NAME=VALUE")));
                let v =
                    v.parse().unwrap_or_else(|_| fail(&format!("--set {setting}: not a number")));
                options.params.set(name, v).unwrap_or_else(|e| fail(&format!("--set: {e}")));
            }
            _ if arg.starts_with("--") => fail(&format!("unknown option {arg}")),
            _ => options.rest.push(arg.clone()),
        }
    }
    if options.nodes == 0 {
        fail("--nodes is needed");
    }
    options
}

/// One reference position: the game so far and the reference move.
#[derive(Clone)]
struct Position {
    size: BoardSize,
    rule: Rule,
    moves: Vec<Point>,
    best: Point,
}

impl Position {
    fn game(&self) -> Game {
        Game::from_points(self.size, self.rule, &self.moves)
            .unwrap_or_else(|_| fail(&format!("an illegal position: {}", moves_text(&self.moves))))
    }
}

fn moves_text(moves: &[Point]) -> String {
    moves.iter().map(|&p| format_pos(p)).collect::<Vec<_>>().join(",")
}

/// `make`: the reference positions of the held-out games, with their reference moves.
fn make(args: &[String]) {
    let options = options(args);
    let mut distinct = Distinct::default();
    let (mut game_index, mut taken) = (0usize, [0usize; 3]);
    let mut positions = Vec::new();
    let lines = options.rest.iter().flat_map(|path| open(path).map(move |l| (path.clone(), l)));
    for (path, line) in lines.filter(|(_, l)| !l.starts_with('#')) {
        if !distinct.first_time(&line) {
            continue;
        }
        let parsed = parse_game(&line).unwrap_or_else(|e| fail(&format!("{path}: {e}: {line}")));
        let Some(rule_index) = RULES.iter().position(|&r| r == parsed.rule) else { continue };
        let held_out = is_held_out(&game_key(&line));
        game_index += 1;
        if !held_out || parsed.size != BoardSize::FIFTEEN {
            continue;
        }
        let mut game = Game::from_notation(parsed.size, parsed.rule, &parsed.opening)
            .unwrap_or_else(|_| fail(&format!("{path}: a bad opening: {line}")));
        let from = FIRST + (game_index * 7) % STAGES;
        for (ply, &(point, score)) in parsed.moves.iter().enumerate() {
            if ply >= from
                && is_quiet(&game)
                && !is_decisive(score as Score)
                && taken[rule_index] < options.per_rule
            {
                taken[rule_index] += 1;
                let moves = game.history();
                positions.push(Position {
                    size: parsed.size,
                    rule: parsed.rule,
                    moves,
                    best: point,
                });
                break;
            }
            if game.try_play(point).is_err() {
                fail(&format!("{path}: an illegal move: {line}"));
            }
        }
    }
    eprintln!("{} positions ({taken:?} by rule) from {game_index} games", positions.len());
    let best = map_parallel(&positions, options.params, |engine, p| {
        search(engine, &p.game(), options.nodes).0
    });
    let mut out = std::io::stdout().lock();
    let mut write = |text: String| {
        out.write_all(text.as_bytes()).unwrap_or_else(|e| fail(&format!("writing: {e}")));
    };
    write(format!("# eval_reference make {}\n# SIZE RULE MOVES BEST\n", args.join(" ")));
    for (p, best) in positions.iter().zip(best) {
        write(format!(
            "{} {} {} {}\n",
            p.size.arg(),
            p.rule,
            moves_text(&p.moves),
            format_pos(best)
        ));
    }
}

/// The positions of a reference file.
fn read_reference(path: &str) -> Vec<Position> {
    open(path)
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let bad = || fail(&format!("{path}: not a reference line: {line}"));
            let fields: Vec<&str> = line.split(' ').collect();
            let [size, rule, moves, best] = fields[..] else { bad() };
            Position {
                size: size.parse().unwrap_or_else(|_| bad()),
                rule: rule.parse().unwrap_or_else(|_| bad()),
                moves: parse_moves(moves).unwrap_or_else(|_| bad()),
                best: parse_moves(best)
                    .ok()
                    .and_then(|p| p.first().copied())
                    .unwrap_or_else(|| bad()),
            }
        })
        .collect()
}

/// `choose`: this build's move in every reference position.
fn choose(args: &[String]) {
    let options = options(args);
    let [reference] = &options.rest[..] else { fail("choose takes one reference file") };
    let positions = read_reference(reference);
    let choices = map_parallel(&positions, options.params, |engine, p| {
        search(engine, &p.game(), options.nodes).0
    });
    let mut out = std::io::stdout().lock();
    let mut text = format!("# eval_reference choose {}\n# MOVES CHOICE\n", args.join(" "));
    for (p, choice) in positions.iter().zip(choices) {
        text += &format!("{} {}\n", moves_text(&p.moves), format_pos(choice));
    }
    out.write_all(text.as_bytes()).unwrap_or_else(|e| fail(&format!("writing: {e}")));
}

/// What playing `mv` in `game` is worth to the side playing it, by an `nodes`-node search of
/// the position after it, within ±[`DECIDED`].
fn move_value(engine: &mut Engine, game: &Game, mv: Point, nodes: u64) -> Score {
    let mut after = game.clone();
    match after.try_play(mv) {
        Ok(Outcome::Win(_)) => DECIDED,
        Ok(Outcome::Draw) => 0,
        Ok(Outcome::Ongoing) => {
            let score = -search(engine, &after, nodes).1;
            if is_decisive(score) {
                DECIDED * score.signum()
            } else {
                score.clamp(-DECIDED, DECIDED)
            }
        }
        Err(_) => fail(&format!(
            "an illegal choice {} after {}",
            format_pos(mv),
            moves_text(&game.history())
        )),
    }
}

/// `score`: agreement and regret of each choices file against the reference.
fn score(args: &[String]) {
    let options = options(args);
    let Some((reference, choice_files)) = options.rest.split_first() else {
        fail("score takes a reference file and choices files")
    };
    let positions = read_reference(reference);
    let best_values = map_parallel(&positions, options.params, |engine, p| {
        move_value(engine, &p.game(), p.best, options.nodes)
    });
    for path in choice_files {
        let choices: Vec<Point> = open(path)
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|line| {
                let choice = line.split(' ').nth(1).and_then(|c| parse_moves(c).ok());
                choice
                    .and_then(|c| c.first().copied())
                    .unwrap_or_else(|| fail(&format!("{path}: not a choice line: {line}")))
            })
            .collect();
        if choices.len() != positions.len() {
            fail(&format!("{path}: {} choices for {} positions", choices.len(), positions.len()));
        }
        let work: Vec<(usize, &Position, Point)> =
            positions.iter().zip(choices).enumerate().map(|(i, (p, c))| (i, p, c)).collect();
        let regrets = map_parallel(&work, options.params, |engine, &(i, p, choice)| {
            if choice == p.best {
                return (true, 0);
            }
            let value = move_value(engine, &p.game(), choice, options.nodes);
            (false, (best_values[i] - value).max(0))
        });
        let mut line = format!("{path}:");
        for rule in RULES {
            let mine: Vec<(bool, Score)> = work
                .iter()
                .zip(&regrets)
                .filter(|((_, p, _), _)| p.rule == rule)
                .map(|(_, &r)| r)
                .collect();
            let n = mine.len().max(1) as f64;
            let agree = mine.iter().filter(|(same, _)| *same).count() as f64 / n;
            let regret = mine.iter().map(|&(_, r)| f64::from(r)).sum::<f64>() / n;
            let blunders = mine.iter().filter(|&&(_, r)| r >= BLUNDER).count();
            line += &format!(
                " {rule} {:.1} % agree, regret {regret:.1}, {blunders} blunders;",
                100.0 * agree
            );
        }
        println!("{line} ({} positions)", positions.len());
    }
}
