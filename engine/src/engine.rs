//! The engine's front door: an [`Engine`] owns what searches share from one move to the
//! next — the transposition table and the game it holds entries of, the idle-time warm-up,
//! the threads, the playing level, the moves a GUI blocked and who plays (mnk or the
//! classroom program) — and answers every question a front end asks of a position:
//!
//! | ask                                          | for                                    |
//! |----------------------------------------------|----------------------------------------|
//! | [`Engine::go`], [`Engine::go_nbest`]         | a move, or the n best (`YXNBEST`)      |
//! | [`Engine::ponder`]                           | a search on the opponent's time        |
//! | [`Engine::defences`]                         | every move's verdict (`YXSEARCHDEFEND`) |
//! | [`Engine::balance`], [`Engine::swap2_opening`] | balanced placements and openings     |
//! | [`Engine::solve`]                            | the exact value of a board up to 8×8   |
//! | [`Engine::perft`]                            | the number of move sequences           |
//!
//! Front ends (the protocol session, the command-line tools) keep their own state and hand
//! the engine a [`Game`] and [`Limits`] — every door that searches, counts or proves takes
//! them, so a front end stops any of them the same way (a deadline, a node count, a
//! [`crate::limits::StopFlag`]); results come back as values ([`SearchResult`],
//! [`SearchInfo`] through a callback) in cells, which [`Game::point`] turns into points.
//! The engine prints nothing and reads no clock but the limits'.

use crate::bitboard::Bitboard;
use crate::classroom;
use crate::eval;
use crate::game::Game;
use crate::limits::{Limits, Stop};
use crate::movegen;
use crate::notation::Point;
use crate::outcome::Outcome;
use crate::pattern::table::PatternTable;
use crate::perft::{self, NodeCount};
use crate::prove::{self, Proof};
use crate::report::{SearchInfo, SearchResult};
use crate::rules::Rule;
use crate::score::Score;
use crate::search::balance;
use crate::search::defend;
use crate::search::{SearchParams, Searcher};
use crate::size::BoardSize;
use crate::solve::{self, GameValue, Solution};
use crate::strength::Level;
use crate::tt::{self, TranspositionTable};
use crate::with_game;

/// The smallest transposition table, in bytes (the classroom program, which keeps none,
/// gets it).
pub const MIN_HASH_BYTES: usize = 1 << 20;
/// The largest transposition table, in bytes.
pub const MAX_HASH_BYTES: usize = tt::MAX_BYTES;
/// The table an engine asks for until told otherwise, in bytes.
pub const DEFAULT_HASH_BYTES: usize = 64 << 20;
/// Bytes of a fresh table [`Engine::prepare`] has the system back with memory per step: a
/// huge page, about 2 ms here, so a command that comes in meanwhile waits no longer.
pub const TOUCH_STEP_BYTES: usize = 2 << 20;

/// Most best moves [`Engine::go_nbest`] finds.
pub use crate::search::MAX_MULTIPV as MAX_NBEST;
/// Most threads a search runs.
pub use crate::search::MAX_THREADS;

pub use crate::search::balance::Balance;
pub use crate::search::defend::{Defence, Verdict};

/// A program that chooses moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Player {
    /// mnk's own search.
    #[default]
    Mnk,
    /// The classroom program ([`crate::classroom`]), a sparring partner: depth 6 α-β, no
    /// clock (it ignores the time limits; a depth limit sets its depth, and only the stop
    /// flag ends it early) and no table.
    Classroom,
}

/// The transposition table and what it holds.
#[derive(Debug)]
struct Table {
    tt: TranspositionTable,
    /// The board size and rule its entries belong to.
    game: (BoardSize, Rule),
    /// The bytes it was asked for (the system may have granted less).
    wanted: usize,
    /// How many bytes of its storage are backed by memory, while no search has used it
    /// (see [`Engine::prepare`]); `None` once one has.
    touched: Option<usize>,
}

/// The engine: see the module docs.
#[derive(Debug)]
pub struct Engine {
    player: Player,
    threads: usize,
    level: Level,
    /// The main search's tunables.
    params: SearchParams,
    /// Root moves the searches must not play (cells off a board are left out).
    blocked: Vec<Point>,
    /// The table size asked for.
    hash_bytes: usize,
    /// Made at the first search or warm-up.
    table: Option<Table>,
    /// The game the coming searches are of (see [`Engine::new_game`]).
    game: Option<(BoardSize, Rule)>,
    /// The rule whose pattern table the warm-up has built.
    prepared_rule: Option<Rule>,
}

impl Engine {
    /// An engine whose moves `player` chooses: one thread, full strength, nothing blocked,
    /// a table of [`DEFAULT_HASH_BYTES`] made when first needed.
    pub fn new(player: Player) -> Engine {
        Engine {
            player,
            threads: 1,
            level: Level::FULL,
            params: SearchParams::DEFAULT,
            blocked: Vec::new(),
            hash_bytes: DEFAULT_HASH_BYTES,
            table: None,
            game: None,
            prepared_rule: None,
        }
    }

    /// An mnk engine with a table of `bytes` (see [`Engine::set_hash_bytes`]).
    pub fn with_hash_bytes(bytes: usize) -> Engine {
        let mut engine = Engine::new(Player::Mnk);
        engine.set_hash_bytes(bytes);
        engine
    }

    /// The table size to search with, in bytes (at least [`MIN_HASH_BYTES`]): a table of
    /// another size is made anew, empty, at the next search or warm-up.
    pub fn set_hash_bytes(&mut self, bytes: usize) {
        self.hash_bytes = bytes.clamp(MIN_HASH_BYTES, MAX_HASH_BYTES);
    }

    /// Searches with `threads` threads (see [`Searcher::with_threads`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Plays at `level` (see [`crate::strength`]).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// Searches for moves with the tunables `params` (see [`crate::search::params`]).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// The root moves the searches must not play (`YXBLOCK`), until set again.
    pub fn set_blocked(&mut self, points: &[Point]) {
        self.blocked = points.to_vec();
    }

    /// The bytes of a table with room for `entries` entries, rounded up to a power of two
    /// (for sizing a table to the searches it will hold).
    pub fn hash_bytes_for_entries(entries: u128) -> usize {
        let bytes = entries * (tt::BUCKET_BYTES / tt::BUCKET_ENTRIES) as u128;
        usize::try_from(bytes)
            .map_or(usize::MAX, |b| b.checked_next_power_of_two().unwrap_or(usize::MAX))
    }

    /// The game the coming searches are of (at `START` and `RESTART`, or when the rule
    /// changes): the warm-up prepares for it, and a table of another size or rule is made
    /// anew at the next search (Zobrist keys are shared by bit index across sizes, and
    /// results differ by rule). The same game again changes nothing.
    pub fn new_game(&mut self, size: BoardSize, rule: Rule) {
        self.game = Some((size, rule));
    }

    /// Empties the table, so the next search learns nothing from the ones before.
    pub fn clear_hash(&mut self) {
        if let Some(table) = &mut self.table {
            table.tt.clear();
        }
    }

    /// The bytes of the table the engine holds (0 before it made one).
    pub fn hash_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, |table| table.tt.bytes())
    }

    /// How full the table is, in permille of a sample of its entries written by the last
    /// search (0 before it made one).
    pub fn hashfull(&self) -> u32 {
        self.table.as_ref().map_or(0, |table| table.tt.hashfull())
    }

    /// The playing level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Work for idle time, one step per call, that the game's first search (see
    /// [`Engine::new_game`]) would otherwise do in its own time: unpacking the pattern table
    /// of the rule and building its evaluation tables (on 15×15, about a millisecond), then making the transposition table
    /// and having the system back it with memory, [`TOUCH_STEP_BYTES`] a step (see
    /// [`TranspositionTable::touch`]: a fresh table's pages are mapped at their first
    /// writes, about 30 ms of a 167 ms budget here for 32 MiB). Returns whether any of it is
    /// left: call it again while idle, so that a command waits for one step at most.
    pub fn prepare(&mut self) -> bool {
        let Some((size, rule)) = self.game else { return false };
        if !size.is_small() && self.prepared_rule != Some(rule) {
            PatternTable::of(rule);
            eval::build_tables(rule);
            self.prepared_rule = Some(rule);
            return true;
        }
        let table = self.table_for((size, rule));
        let Some(touched) = table.touched else {
            // Kept from a search: its pages are mapped where it wrote.
            return false;
        };
        let next = table.tt.touch(touched, TOUCH_STEP_BYTES);
        table.touched = Some(next);
        next < table.tt.storage_bytes()
    }

    /// The best move of `game` within `limits`, each completed iteration reported to
    /// `on_info`. `None` for a move when none is legal (see [`SearchResult::best_move`]).
    pub fn go(
        &mut self,
        game: &Game,
        limits: Limits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search(game, limits, 1, self.level, on_info)
    }

    /// The `n` best moves of `game` within `limits` (multi-PV, see
    /// [`Searcher::with_multipv`]), each line reported to `on_info` as it completes; the
    /// result's best move is the first line's.
    pub fn go_nbest(
        &mut self,
        game: &Game,
        limits: Limits,
        n: usize,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search(game, limits, n, self.level, on_info)
    }

    /// Searches `game` within `limits` (normally until their flag is raised), at full
    /// strength and with nothing blocked, only to fill the table for the next search (on the
    /// opponent's time). The classroom program keeps no table: for it, nothing.
    pub fn ponder(&mut self, game: &Game, limits: Limits) {
        if self.player == Player::Mnk {
            let blocked = std::mem::take(&mut self.blocked);
            self.search(game, limits, 1, Level::FULL, &mut |_| {});
            self.blocked = blocked;
        }
    }

    /// The verdict on every legal move of `game`'s side to move against the opponent's
    /// threat sequences, within `limits`: their nodes for each move (the tunable
    /// `defence_vct_nodes` if they set none, as the root's defence check gets), their
    /// deadline and flag for the whole check (see [`defend::defences`]).
    pub fn defences(&self, game: &Game, limits: &Limits) -> Vec<Defence> {
        with_game!(game, board => defend::defences(board, limits, &self.params))
    }

    /// The placement of `stones` stones (1 or 2) after which the score is closest to
    /// `target`, each candidate searched on the engine's table with the nodes of `limits`
    /// (the tunable `balance_nodes` if they set none), until their deadline or flag (see
    /// [`balance::balance`]).
    pub fn balance(
        &mut self,
        game: &Game,
        stones: usize,
        target: Score,
        limits: &Limits,
    ) -> Option<Balance> {
        let params = self.params;
        let tt = &mut self.table_for((game.size(), game.rule())).tt;
        with_game!(game, board => balance::balance(board, stones, target, tt, limits, &params))
    }

    /// A swap2 opening to propose on `game`'s board under its rule, white within `margin` of
    /// even by searches with the nodes of `limits` (the tunable `swap2_nodes` if they set
    /// none), until their deadline or flag (see [`balance::swap2_opening`]).
    pub fn swap2_opening(&self, game: &Game, margin: Score, limits: &Limits) -> Balance {
        let empty = Game::new(game.size(), game.rule());
        with_game!(&empty, board => balance::swap2_opening(board, margin, limits, &self.params))
    }

    /// The search's tunables (see [`crate::search::params`]).
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Whether [`Engine::solve`] takes boards of `game`'s size and rule: 3×3 and 5×5, and
    /// under freestyle every board from 6 to 8 a side.
    pub fn solvable(game: &Game) -> bool {
        game.size().is_small() || prove::Position::of_game(game).is_some()
    }

    /// The exact value of `game`'s position and an optimal move, within `limits` (`None`
    /// when they stop it first, or when no board of this size and rule can be solved here):
    /// the small boards (3×3, 5×5) by the full-depth search with the engine's table
    /// (`pairing`: whether it may use pairing strategies), the boards from 6 to 8 a side
    /// under freestyle by the prover ([`crate::prove`], two df-pn questions, its table as
    /// large as the engine's; `limits.nodes` bounds each question).
    pub fn solve(&mut self, game: &Game, pairing: bool, limits: &Limits) -> Option<Solution> {
        if game.size().is_small() {
            let tt = &mut self.table_for((game.size(), game.rule())).tt;
            return with_game!(game, board => solve::solve_with(board, tt, pairing, limits));
        }
        let position = prove::Position::of_game(game)?;
        let started = std::time::Instant::now();
        if game.outcome().is_decided() {
            // The side to move did not make the last move: a win is the other side's.
            let value = match game.outcome() {
                Outcome::Draw => GameValue::Draw,
                _ => GameValue::Loss,
            };
            return Some(Solution {
                value,
                best: None,
                score: None,
                nodes: 0,
                time: started.elapsed(),
            });
        }
        let mut proof = Proof::new(position);
        proof.set_max_positions(prove::search::positions_in(self.hash_bytes));
        let outcome = proof.run(limits, &mut |_, _| {})?;
        let geometry = game.geometry();
        let best = outcome.best.map(prove::cell_point).and_then(|p| geometry.cell(p.x, p.y));
        let time = started.elapsed();
        Some(Solution { value: outcome.value, best, score: None, nodes: proof.nodes(), time })
    }

    /// The static evaluation of `game`'s position for the side to move.
    pub fn evaluate(game: &Game) -> Score {
        with_game!(game, board => eval::evaluate(board))
    }

    /// The number of move sequences of `depth` moves from `game`'s position (see
    /// [`crate::perft`]), or `None` if the deadline or the flag of `limits` came first.
    pub fn perft(game: &Game, depth: u32, limits: &Limits) -> Option<NodeCount> {
        let mut game = game.clone();
        with_game!(&mut game, board => perft::perft_until(board, depth, &limits.stop()))
    }

    /// A legal move of `game` next to the stones (the first candidate), with no search: the
    /// answer when a search failed. `None` when no move is legal.
    pub fn quick_move(game: &Game) -> Option<Point> {
        with_game!(game, board => movegen::candidates(board).lowest()).map(|cell| game.point(cell))
    }

    /// The search behind [`Engine::go`]: the `multipv` best moves at `level`.
    fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        multipv: usize,
        level: Level,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let (player, threads, params) = (self.player, self.threads, self.params);
        let blocked = self.blocked.clone();
        let table = self.table_for((game.size(), game.rule()));
        // A table a search has had is not fresh: nothing left to warm up.
        table.touched = None;
        let tt = &mut table.tt;
        with_game!(game, board => {
            match player {
                Player::Mnk => {
                    let geometry = board.geometry();
                    let blocked = blocked
                        .iter()
                        .filter_map(|point| geometry.cell(point.x, point.y))
                        .fold(Bitboard::EMPTY, Bitboard::with);
                    Searcher::new(board.clone(), tt, limits)
                        .with_params(params)
                        .with_multipv(multipv)
                        .with_threads(threads)
                        .with_blocked(blocked)
                        .with_level(level)
                        .run(on_info)
                }
                Player::Classroom => {
                    let depth = limits.depth.unwrap_or(classroom::DEPTH);
                    classroom::search(board, depth, &Stop { deadline: None, flag: limits.stop })
                }
            }
        })
    }

    /// The table for a search of a game of `game`: the one held, if it has the size asked
    /// for and entries of that game, else a new one.
    fn table_for(&mut self, game: (BoardSize, Rule)) -> &mut Table {
        // (The classroom program searches without one: it gets the smallest.)
        let wanted = match self.player {
            Player::Mnk => self.hash_bytes,
            Player::Classroom => MIN_HASH_BYTES,
        };
        // (Asked for, not granted: a table the system cut short is not made again and
        // again.)
        let kept = self.table.take().filter(|table| table.wanted == wanted && table.game == game);
        self.table.insert(kept.unwrap_or_else(|| Table {
            tt: TranspositionTable::with_bytes(wanted),
            game,
            wanted,
            touched: Some(0),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_kept_for_the_same_game_and_size_and_made_anew_otherwise() {
        let mut engine = Engine::with_hash_bytes(MIN_HASH_BYTES);
        let position = |rule, moves| Game::from_notation(BoardSize::FIFTEEN, rule, moves).unwrap();
        let knows = |engine: &Engine, game: &Game| {
            let hash = with_game!(game, board => board.hash());
            engine.table.as_ref().is_some_and(|table| table.tt.probe(hash).is_some())
        };
        let (centre, corner) = (position(Rule::Freestyle, "h8"), position(Rule::Freestyle, "a1"));
        engine.go(&centre, Limits::nodes(2_000), &mut |_| {});
        assert!(knows(&engine, &centre));
        // The same game: the table and what it learned are kept.
        engine.go(&corner, Limits::nodes(100), &mut |_| {});
        assert!(knows(&engine, &centre) && knows(&engine, &corner));
        // Another rule: a fresh table.
        engine.go(&position(Rule::Renju, "a1"), Limits::nodes(100), &mut |_| {});
        assert!(!knows(&engine, &centre));
        assert_eq!(engine.hash_bytes(), MIN_HASH_BYTES);
        engine.set_hash_bytes(2 * MIN_HASH_BYTES);
        engine.go(&corner, Limits::nodes(100), &mut |_| {});
        assert_eq!(engine.hash_bytes(), 2 * MIN_HASH_BYTES);
    }

    #[test]
    fn the_warm_up_builds_the_patterns_then_backs_the_table_step_by_step() {
        let mut engine = Engine::with_hash_bytes(4 * TOUCH_STEP_BYTES);
        assert!(!engine.prepare(), "nothing before a game");
        engine.new_game(BoardSize::FIFTEEN, Rule::Standard);
        let steps = std::iter::repeat_with(|| engine.prepare()).take_while(|&more| more).count();
        // The pattern table's step, then the table's but the last (a spare bucket spills).
        assert_eq!(steps, 1 + 4);
        assert!(!engine.prepare(), "done");
        let game = Game::new(BoardSize::FIFTEEN, Rule::Standard);
        engine.go(&game, Limits::nodes(100), &mut |_| {});
        assert!(!engine.prepare(), "a table a search has had is not fresh");
    }

    #[test]
    fn blocked_moves_are_not_played_and_pondering_leaves_them_blocked() {
        let mut engine = Engine::with_hash_bytes(MIN_HASH_BYTES);
        let game = Game::from_notation(BoardSize::FIFTEEN, Rule::Freestyle, "h8,i9,h9").unwrap();
        let best = |engine: &mut Engine| {
            let cell = engine.go(&game, Limits::depth(3), &mut |_| {}).best_move.unwrap();
            game.point(cell)
        };
        let first = best(&mut engine);
        engine.set_blocked(&[first]);
        let second = best(&mut engine);
        assert_ne!(second, first);
        let stop = crate::limits::StopFlag::new();
        stop.raise();
        engine.ponder(&game, Limits::until_stopped(stop));
        assert_ne!(best(&mut engine), first);
    }

    #[test]
    fn solve_answers_the_boards_up_to_eight_and_stops_with_its_flag() {
        use crate::solve::GameValue;
        let mut engine = Engine::with_hash_bytes(MIN_HASH_BYTES);
        let unlimited = Limits::default();
        let three = Game::new(BoardSize::THREE, Rule::Freestyle);
        let solution = engine.solve(&three, true, &unlimited).expect("a small board");
        assert_eq!(solution.value, GameValue::Draw);
        // 6×6 goes to the prover: a draw, with a move that keeps it.
        let six = Game::new(BoardSize::from_side(6).expect("a size"), Rule::Freestyle);
        let solution = engine.solve(&six, true, &unlimited).expect("the prover's board");
        assert_eq!((solution.value, solution.score), (GameValue::Draw, None));
        assert!(solution.best.is_some() && solution.nodes > 0);
        // A raised flag stops both.
        let stop = crate::limits::StopFlag::new();
        stop.raise();
        let five = Game::from_notation(BoardSize::FIVE, Rule::Freestyle, "c3").unwrap();
        assert!(engine.solve(&five, false, &Limits::until_stopped(stop.clone())).is_none());
        let seven = Game::new(BoardSize::from_side(7).expect("a size"), Rule::Freestyle);
        assert!(engine.solve(&seven, true, &Limits::until_stopped(stop)).is_none());
        // Neither solves 15×15, nor 7×7 under another rule.
        assert!(
            engine
                .solve(&Game::new(BoardSize::FIFTEEN, Rule::Freestyle), true, &unlimited)
                .is_none()
        );
        let standard = Game::new(BoardSize::from_side(7).expect("a size"), Rule::Standard);
        assert!(engine.solve(&standard, true, &unlimited).is_none());
        assert!(Engine::solvable(&three) && Engine::solvable(&six) && Engine::solvable(&seven));
        assert!(!Engine::solvable(&standard));
    }
}
