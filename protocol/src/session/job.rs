//! Work handed out by the session: a search, a count or an analysis, run away from it (on
//! the driver's worker thread, stoppable, or inline in tests) with the engine it needs, and
//! what it hands back.

use std::time::{Duration, Instant};

use mnk_engine::engine::{Engine, Verdict};
use mnk_engine::game::Game;
use mnk_engine::limits::{Limits, StopFlag};
use mnk_engine::notation::Point;
use mnk_engine::perft::NodeCount;
use mnk_engine::report::SearchResult;
use mnk_engine::score::Score;
use mnk_engine::solve::Solution;

use crate::progress::Progress;
use crate::response::Response;

/// Why an engine task has its engine.
const ENGINE_HERE: &str = "the session gives an engine with this task";

/// Why a search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Answer with a move (`BEGIN`, `TURN`, `BOARD`).
    Move,
    /// Decide a swap2 opening with this many stones on the board (3 or 5).
    Swap2(usize),
    /// Report this many best moves, then answer with the best (`YXNBEST`).
    NBest(usize),
    /// Search on the opponent's time until stopped, to fill the table; no answer.
    Ponder,
}

/// Work to run away from the session, which a stop flag ends early.
#[derive(Debug)]
pub struct Job {
    /// The engine, for the tasks that need one (the session has none meanwhile).
    pub(super) engine: Option<Engine>,
    pub(super) task: Task,
}

/// What a [`Job`] does.
#[derive(Debug)]
pub enum Task {
    /// A search for a move (or several lines).
    Search(SearchTask),
    /// A perft count (`PERFT`) of the position, to this depth.
    Perft(Game, u32),
    /// Every move's verdict against the opponent's threats (`YXSEARCHDEFEND`).
    Defend(DefendTask),
    /// A balanced placement (`YXBALANCEONE`, `YXBALANCETWO`).
    Balance(BalanceTask),
    /// A swap2 opening to propose (`SWAP2BOARD` with no stones).
    Swap2Opening(Swap2OpeningTask),
    /// The exact value of the position (`SOLVE`), with an engine of its own.
    Solve(SolveTask),
}

/// What a finished [`Job`] hands back: the engine it took, and the task's result.
#[derive(Debug)]
pub struct JobOutcome {
    pub(super) engine: Option<Engine>,
    pub(super) result: TaskResult,
}

/// The result of a [`Task`].
#[derive(Debug)]
pub enum TaskResult {
    /// A search's.
    Search(SearchOutcome),
    /// A perft count's.
    Perft(PerftOutcome),
    /// The verdicts of a defence check: each move with its verdict, in the order of
    /// [`Engine::defences`], and the opponent's first attacking move where it wins.
    Defend(Vec<(Point, Verdict, Option<Point>)>),
    /// The placement a balance task found, with its score.
    Balance(Option<(Vec<Point>, Score)>),
    /// The opening a swap2 task chose: the stones, and white's score after them.
    Swap2Opening(Vec<Point>, Score),
    /// A solve's.
    Solve(SolveOutcome),
}

impl Job {
    /// What the job is for if it is a search, kept by the driver in case the job fails (see
    /// [`crate::session::Session::fail`]).
    pub fn purpose(&self) -> Option<Purpose> {
        match &self.task {
            Task::Search(search) => Some(search.purpose),
            _ => None,
        }
    }

    /// Runs the job; `stop` ends it early, `on_line` receives the progress lines.
    pub fn run(self: Box<Self>, stop: StopFlag, on_line: &mut dyn FnMut(Response)) -> JobOutcome {
        let Job { mut engine, task } = *self;
        let result = match task {
            Task::Search(search) => {
                let engine = engine.as_mut().expect(ENGINE_HERE);
                TaskResult::Search(search.run(engine, stop, on_line))
            }
            Task::Perft(game, depth) => {
                let started = Instant::now();
                let nodes = Engine::perft(&game, depth, &Limits::until_stopped(stop));
                TaskResult::Perft(PerftOutcome { depth, nodes, elapsed: started.elapsed() })
            }
            Task::Solve(solve) => TaskResult::Solve(solve.run(stop)),
            Task::Defend(defend) => {
                let engine = engine.as_ref().expect(ENGINE_HERE);
                TaskResult::Defend(defend.run(engine, stop))
            }
            Task::Balance(balance) => {
                let engine = engine.as_mut().expect(ENGINE_HERE);
                TaskResult::Balance(balance.run(engine, stop))
            }
            Task::Swap2Opening(opening) => {
                let engine = engine.as_ref().expect(ENGINE_HERE);
                let (stones, score) = opening.run(engine, stop);
                TaskResult::Swap2Opening(stones, score)
            }
        };
        JobOutcome { engine, result }
    }
}

/// What a finished perft count hands back.
#[derive(Debug)]
pub struct PerftOutcome {
    pub(super) depth: u32,
    /// The count, or `None` if the job was stopped.
    pub(super) nodes: Option<NodeCount>,
    pub(super) elapsed: Duration,
}

/// The verdict on every legal move of the game's side to move within `limits` (see
/// [`Engine::defences`]).
#[derive(Debug)]
pub struct DefendTask {
    pub(super) game: Game,
    pub(super) limits: Limits,
}

impl DefendTask {
    fn run(self, engine: &Engine, flag: StopFlag) -> Vec<(Point, Verdict, Option<Point>)> {
        let game = &self.game;
        let defences = engine.defences(game, &self.limits.with_stop(flag));
        defences
            .into_iter()
            .map(|defence| {
                let reply = match defence.verdict {
                    Verdict::Loses { reply, .. } => Some(game.point(reply)),
                    _ => None,
                };
                (game.point(defence.cell), defence.verdict, reply)
            })
            .collect()
    }
}

/// The placement of `stones` stones closest to `target` within `limits` (see
/// [`Engine::balance`]).
#[derive(Debug)]
pub struct BalanceTask {
    pub(super) game: Game,
    pub(super) stones: usize,
    pub(super) target: Score,
    pub(super) limits: Limits,
}

impl BalanceTask {
    fn run(self, engine: &mut Engine, flag: StopFlag) -> Option<(Vec<Point>, Score)> {
        let limits = self.limits.with_stop(flag);
        let found = engine.balance(&self.game, self.stones, self.target, &limits)?;
        Some((found.moves.iter().map(|&cell| self.game.point(cell)).collect(), found.score))
    }
}

/// A swap2 opening to propose on the empty board of `game` (see
/// [`Engine::swap2_opening`]): white within `margin` of even, within `limits`.
#[derive(Debug)]
pub struct Swap2OpeningTask {
    pub(super) game: Game,
    pub(super) margin: Score,
    pub(super) limits: Limits,
}

impl Swap2OpeningTask {
    fn run(self, engine: &Engine, flag: StopFlag) -> (Vec<Point>, Score) {
        let limits = self.limits.with_stop(flag);
        let found = engine.swap2_opening(&self.game, self.margin, &limits);
        (found.moves.iter().map(|&cell| self.game.point(cell)).collect(), found.score)
    }
}

/// A search to run away from the session.
#[derive(Debug)]
pub struct SearchTask {
    pub(super) game: Game,
    pub(super) limits: Limits,
    pub(super) purpose: Purpose,
    pub(super) messages: bool,
    pub(super) started: Instant,
}

/// What a finished search hands back.
#[derive(Debug)]
pub struct SearchOutcome {
    pub(super) result: SearchResult,
    pub(super) best: Option<Point>,
    pub(super) purpose: Purpose,
    pub(super) started: Instant,
    /// Whether the answer comes with its summary line (see [`Progress::Answer`]).
    pub(super) messages: bool,
}

impl SearchTask {
    /// Runs the search with `engine`; `stop` ends it early, `on_line` receives the progress
    /// lines.
    fn run(
        self,
        engine: &mut Engine,
        stop: StopFlag,
        on_line: &mut dyn FnMut(Response),
    ) -> SearchOutcome {
        let limits = self.limits.with_stop(stop.clone());
        let (game, messages) = (&self.game, self.messages);
        let mut report = |info: &mnk_engine::report::SearchInfo| {
            if messages {
                on_line(Response::Info(Progress::iteration(info, game)));
            }
        };
        let result = match self.purpose {
            Purpose::Ponder => {
                engine.ponder(game, limits);
                SearchResult::default()
            }
            Purpose::NBest(n) => engine.go_nbest(game, limits, n, &mut report),
            Purpose::Move | Purpose::Swap2(_) => engine.go(game, limits, &mut report),
        };
        let best = result.best_move.map(|cell| game.point(cell));
        SearchOutcome {
            result,
            best,
            purpose: self.purpose,
            started: self.started,
            messages: self.messages,
        }
    }
}

/// The exact value of `game`'s position (see [`Engine::solve`]), with an engine of its own
/// (a table of `hash_bytes`), so that solving neither mixes with nor spoils the game's
/// table; only the stop flag ends it.
#[derive(Debug)]
pub struct SolveTask {
    pub(super) game: Game,
    pub(super) hash_bytes: usize,
}

/// What a finished solve hands back: the solution, or `None` if it was stopped, and its
/// best move as a point.
#[derive(Debug)]
pub struct SolveOutcome {
    pub(super) solution: Option<Solution>,
    pub(super) best: Option<Point>,
    pub(super) elapsed: Duration,
}

impl SolveTask {
    fn run(self, stop: StopFlag) -> SolveOutcome {
        let started = Instant::now();
        let mut engine = Engine::with_hash_bytes(self.hash_bytes);
        let solution = engine.solve(&self.game, true, &Limits::until_stopped(stop));
        let best = solution.as_ref().and_then(|s| s.best).map(|cell| self.game.point(cell));
        SolveOutcome { solution, best, elapsed: started.elapsed() }
    }
}
