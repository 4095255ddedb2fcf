//! `pbrain-mnk datagen`: training positions from mnk's own self-play, for the learned move
//! scores and evaluation (see `docs/learning.md` and `engine/examples/train_eval.rs`).
//!
//! Each game starts from a random opening (as `openings` makes them: `--stones` stones near
//! the centre) that a short search finds balanced, then mnk plays both sides, every move a
//! search of `--nodes` nodes with one thread and a table of its own cleared at the start of
//! the game. Every position from the end of the opening to the last move gives one line:
//!
//! ```text
//! GAME SIZE RULE MOVES SCORE BEST RESULT
//! 7 15 renju h8,i9,g7,j10 -35 k11 0.5
//! ```
//!
//! `GAME` numbers the games from 0; `MOVES` are the moves so far in pos notation; `SCORE`
//! is the search's score for the side to move (mate scores as the engine keeps them, beyond
//! ±30,000), `BEST` the move it chose, which was played; `RESULT` is the game's result for
//! the side to move (1, 0.5 or 0); renju's black with only forbidden points left has lost
//! (any move it could make is a foul). Games cycle through `--rules` and then `--sizes`. The
//! same arguments always give the same file (for the same build), whatever `--threads`: each
//! game depends only on the seed and its number, and the games are written in order.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use mnk_engine::color::Color;
use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::format_pos;
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::score::Score;
use mnk_engine::size::BoardSize;

use mnk_engine::notation::Point;
use mnk_protocol::driver::panic_message;
use mnk_protocol::manager::openings::{opening_score, random_opening};

use super::{CliError, UsageError};

/// `datagen`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Rules, comma-separated: the games cycle through them.
    #[arg(long, value_delimiter = ',', default_value = "freestyle,standard,renju")]
    rules: Vec<Rule>,
    /// Board sizes (N or WxH, not 3 or 5: the tables learn line patterns), comma-separated: the games cycle through them, each
    /// size for a round of the rules.
    #[arg(long, value_delimiter = ',', default_value = "15")]
    sizes: Vec<BoardSize>,
    /// Nodes of the search of each move; its score and move label the position.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Stones of each random opening, near the centre.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    stones: u32,
    /// Nodes of the search that judges an opening.
    #[arg(long = "opening-nodes", default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    opening_nodes: u64,
    /// Largest score, for the side to move, of an opening played; after 20 openings
    /// outside it, the closest is played.
    #[arg(long = "max-score", default_value_t = 100, value_parser = clap::value_parser!(i32).range(0..))]
    max_score: Score,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Sets a tunable of the games' searches (repeatable; pbrain-mnk help params lists
    /// them), for example threat_nodes_percent=5: at a few thousand nodes a move, full root
    /// threat searches take most of the time.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = super::parse_param)]
    set: Vec<String>,
}

/// Random openings judged per game before the closest to balanced is taken (`--max-score`'s
/// help says 20).
const TRIES_PER_GAME: usize = 20;
/// Transposition table of each thread's searches, in bytes.
const TABLE_BYTES: usize = 16 << 20;

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(small) = args.sizes.iter().find(|s| s.is_small()) {
        return Err(UsageError::DatagenSize(*small).into());
    }
    let rules: Vec<String> = args.rules.iter().map(ToString::to_string).collect();
    let sizes: Vec<String> = args.sizes.iter().map(|s| s.arg()).collect();
    writeln!(
        out,
        "# pbrain-mnk datagen --games {} --rules {} --sizes {} --nodes {} --stones {} \
         --opening-nodes {} --max-score {} --seed {}{}",
        args.games,
        rules.join(","),
        sizes.join(","),
        args.nodes,
        args.stones,
        args.opening_nodes,
        args.max_score,
        args.seed,
        args.set.iter().map(|s| format!(" --set {s}")).collect::<String>()
    )?;
    let params = super::search_params(&args.set).expect("--set was checked as it was parsed");
    writeln!(out, "# GAME SIZE RULE MOVES SCORE BEST RESULT")?;
    let games = args.games as usize;
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Result<String, String>)>();
    let failed = std::thread::scope(|scope| -> Result<usize, CliError> {
        for _ in 0..args.threads {
            let (sender, next) = (sender.clone(), &next);
            scope.spawn(move || {
                let mut engine = Engine::with_hash_bytes(TABLE_BYTES);
                engine.set_params(params);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    // A game that fails (a bug: the panic is printed as it happens) is
                    // reported and left out; the run goes on.
                    let played = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        play_game(args, game, &mut engine)
                    }));
                    let lines = played.map_err(|payload| panic_message(payload.as_ref()));
                    if sender.send((game, lines)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Written in game order, whichever thread finishes first, each game as soon as the
        // ones before it are out.
        let mut pending = BTreeMap::new();
        let (mut written, mut positions, mut failed) = (0, 0, 0);
        for (game, lines) in receiver {
            pending.insert(game, lines);
            while let Some(lines) = pending.remove(&written) {
                match lines {
                    Ok(lines) => {
                        positions += lines.lines().count();
                        out.write_all(lines.as_bytes())?;
                        out.flush()?;
                    }
                    Err(message) => {
                        failed += 1;
                        eprintln!("game {written} failed and is left out: {message}");
                    }
                }
                written += 1;
                if written % 100 == 0 || written == games {
                    eprintln!("{written} of {games} games, {positions} positions");
                }
            }
        }
        Ok(failed)
    })?;
    match failed {
        0 => Ok(()),
        failed => Err(CliError::GamesFailed { failed, games }),
    }
}

/// The rule and size of game number `game`.
fn game_setting(args: &Args, game: usize) -> (Rule, BoardSize) {
    let rule = args.rules[game % args.rules.len()];
    let size = args.sizes[(game / args.rules.len()) % args.sizes.len()];
    (rule, size)
}

/// Plays game number `game` and returns its lines.
fn play_game(args: &Args, game: usize, engine: &mut Engine) -> String {
    let (rule, size) = game_setting(args, game);
    let mut rng = SplitMix64::stream(args.seed, game as u64);
    let opening = balanced_opening(args, &mut rng, size, rule);
    let board =
        Game::from_points(size, rule, &opening).expect("random openings are made of legal moves");
    engine.clear_hash();
    let (positions, winner) = play_out(board, args.nodes, engine);
    let mut lines = String::new();
    for position in positions {
        let result = match winner {
            None => "0.5",
            Some(colour) if colour == position.side => "1",
            Some(_) => "0",
        };
        let moves: Vec<String> = position.moves.iter().map(|&p| format_pos(p)).collect();
        lines.push_str(&format!(
            "{game} {} {rule} {} {} {} {result}\n",
            size.arg(),
            moves.join(","),
            position.score,
            format_pos(position.best)
        ));
    }
    lines
}

/// One position of a game and the search's verdict on it.
#[derive(Debug)]
struct Labelled {
    /// The moves that led to it.
    moves: Vec<Point>,
    /// The side to move.
    side: Color,
    /// The search's score for the side to move, and its move, which was played.
    score: Score,
    best: Point,
}

/// Plays `board` to its end (see [`Game::result`]: renju's black with only forbidden points
/// left has lost), each move a search of `nodes` nodes by `engine`: every position with its
/// label, and the winner (`None`: a draw).
fn play_out(mut board: Game, nodes: u64, engine: &mut Engine) -> (Vec<Labelled>, Option<Color>) {
    let mut positions = Vec::new();
    let limits = Limits::nodes(nodes);
    while board.result() == Outcome::Ongoing {
        let result = engine.go(&board, limits.clone(), &mut |_| {});
        let cell = result.best_move.expect("a search finds a move while one is legal");
        let (best, side) = (board.point(cell), board.side_to_move());
        positions.push(Labelled { moves: board.history(), side, score: result.score(), best });
        board.try_play(best).expect("the search plays legal moves");
    }
    let winner = match board.result() {
        Outcome::Win(colour) => Some(colour),
        Outcome::Ongoing | Outcome::Draw => None,
    };
    (positions, winner)
}

/// A random opening whose score is within `--max-score`, or the closest of
/// [`TRIES_PER_GAME`] tried.
fn balanced_opening(args: &Args, rng: &mut SplitMix64, size: BoardSize, rule: Rule) -> Vec<Point> {
    let mut closest: Option<(Score, Vec<Point>)> = None;
    for _ in 0..TRIES_PER_GAME {
        let opening = random_opening(rng, size, rule, args.stones as usize);
        let score = opening_score(size, rule, &opening, args.opening_nodes)
            .expect("random openings are made of legal moves")
            .abs();
        if score <= args.max_score {
            return opening;
        }
        if closest.as_ref().is_none_or(|(best, _)| score < *best) {
            closest = Some((score, opening));
        }
    }
    closest.expect("at least one opening was tried").1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A renju game that `datagen` once broke off with a panic (seed 1009, game 2): with two
    /// cells left white takes one, and black, to move, has only a forbidden point left. The
    /// game ends there, won by white.
    #[test]
    fn a_renju_game_ends_when_black_has_only_forbidden_points_left() {
        let stuck =
            include_str!("../../../../../tests/data/renju-black-forbidden-only-datagen.txt");
        let mut moves = mnk_engine::notation::parse_moves(stuck.trim()).expect("pos notation");
        let last = moves.pop().expect("a move");
        let board = Game::from_points(BoardSize::FIFTEEN, Rule::Renju, &moves).expect("legal");
        assert_eq!(board.empty_count(), 2);
        let mut engine = Engine::with_hash_bytes(1 << 20);
        let (positions, winner) = play_out(board, 1_000, &mut engine);
        assert_eq!(winner, Some(Color::White));
        let [only] = &positions[..] else { panic!("{positions:?}") };
        assert_eq!((only.side, only.best, only.moves.len()), (Color::White, last, moves.len()));
    }
}
