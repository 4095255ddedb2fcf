//! Work handed out by the session: a search or a perft count, the job that runs away from
//! it (on the driver's worker thread, stoppable, or inline in tests), what it hands back,
//! and the progress lines it writes.

use std::time::{Duration, Instant};

use mnk_engine::limits::{Limits, Stop, StopFlag};
use mnk_engine::perft::{NodeCount, perft_until};

use mnk_engine::geometry::Cell;
use mnk_engine::report::{PvLine, SearchInfo, SearchResult};
use mnk_engine::score::{Score, format_score};
use mnk_engine::search::balance::{balance, swap2_opening};
use mnk_engine::search::defend::{Verdict, defences};
use mnk_engine::size::BoardSize;
use mnk_engine::strength::Strength;
use mnk_engine::tt::TranspositionTable;

use crate::command::Point;
use crate::player::{Player, SearchOptions};
use crate::response::Response;
use mnk_engine::game::Game;
use mnk_engine::with_game;

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

impl Purpose {
    /// How many lines (best moves) the search looks for.
    fn lines(self) -> usize {
        match self {
            Purpose::NBest(n) => n,
            Purpose::Move | Purpose::Swap2(_) | Purpose::Ponder => 1,
        }
    }
}

/// Work to run away from the session, which a stop flag ends early.
#[derive(Debug)]
pub enum Job {
    /// A search for a move (or several lines).
    Search(SearchJob),
    /// A perft count (`PERFT`).
    Perft(PerftJob),
    /// Every move's verdict against the opponent's threats (`YXSEARCHDEFEND`).
    Defend(DefendJob),
    /// A balanced placement (`YXBALANCEONE`, `YXBALANCETWO`).
    Balance(BalanceJob),
    /// A swap2 opening to propose (`SWAP2BOARD` with no stones).
    Swap2Opening(Swap2OpeningJob),
}

/// What a finished [`Job`] hands back.
#[derive(Debug)]
pub enum JobOutcome {
    /// A search's.
    Search(SearchOutcome),
    /// A perft count's.
    Perft(PerftOutcome),
    /// The verdicts of a `DefendJob`.
    Defend(DefendOutcome),
    /// The placement a `BalanceJob` found.
    Balance(BalanceOutcome),
    /// The opening a `Swap2OpeningJob` chose: the stones, and white's score after them.
    Swap2Opening(Vec<Point>, Score),
}

impl Job {
    /// What the job is for, kept by the driver in case the job fails (see
    /// [`crate::session::Session::fail`]).
    pub fn purpose(&self) -> Option<Purpose> {
        match self {
            Job::Search(job) => Some(job.purpose),
            Job::Perft(_) | Job::Defend(_) | Job::Balance(_) | Job::Swap2Opening(_) => None,
        }
    }

    /// Runs the job; `stop` ends it early, `on_line` receives the progress lines.
    pub fn run(self: Box<Self>, stop: StopFlag, on_line: &mut dyn FnMut(Response)) -> JobOutcome {
        match *self {
            Job::Search(job) => JobOutcome::Search(job.run(stop, on_line)),
            Job::Perft(job) => JobOutcome::Perft(job.run(&Stop::on(stop))),
            Job::Defend(job) => JobOutcome::Defend(job.run(stop)),
            Job::Balance(job) => JobOutcome::Balance(job.run(stop)),
            Job::Swap2Opening(job) => {
                let (stones, score) = job.run(stop);
                JobOutcome::Swap2Opening(stones, score)
            }
        }
    }
}

/// A perft count of the game's position.
#[derive(Debug)]
pub struct PerftJob {
    pub(super) game: Game,
    pub(super) depth: u32,
}

/// What a finished [`PerftJob`] hands back.
#[derive(Debug)]
pub struct PerftOutcome {
    pub(super) depth: u32,
    /// The count, or `None` if the job was stopped.
    pub(super) nodes: Option<NodeCount>,
    pub(super) elapsed: Duration,
}

impl PerftJob {
    fn run(mut self, stop: &Stop) -> PerftOutcome {
        let started = Instant::now();
        let nodes = with_game!(&mut self.game, b => perft_until(b, self.depth, stop));
        PerftOutcome { depth: self.depth, nodes, elapsed: started.elapsed() }
    }
}

/// The verdict on every legal move of the game's side to move (see
/// [`mnk_engine::search::defend::defences`]): `nodes` for the opponent's threat search after
/// each, until `deadline`.
#[derive(Debug)]
pub struct DefendJob {
    pub(super) game: Game,
    pub(super) nodes: u64,
    pub(super) deadline: Option<Instant>,
}

/// What a finished [`DefendJob`] hands back: each move with its verdict, in the order of
/// `defences`, and the opponent's first attacking move where it wins, as points.
#[derive(Debug)]
pub struct DefendOutcome {
    pub(super) verdicts: Vec<(Point, Verdict, Option<Point>)>,
}

impl DefendJob {
    fn run(self, flag: StopFlag) -> DefendOutcome {
        let geometry = self.game.geometry();
        let stop = Stop { deadline: self.deadline, flag: Some(flag) };
        let defences = with_game!(&self.game, b => defences(b, self.nodes, &stop));
        let verdicts = defences
            .into_iter()
            .map(|defence| {
                let reply = match defence.verdict {
                    Verdict::Loses { reply, .. } => Some(geometry.xy(reply)),
                    _ => None,
                };
                (geometry.xy(defence.cell), defence.verdict, reply)
            })
            .collect();
        DefendOutcome { verdicts }
    }
}

/// The placement of `stones` stones closest to `target` (see
/// [`mnk_engine::search::balance::balance`]), each candidate searched with `nodes`, until
/// `deadline`.
#[derive(Debug)]
pub struct BalanceJob {
    pub(super) game: Game,
    pub(super) stones: usize,
    pub(super) target: Score,
    pub(super) tt: TranspositionTable,
    pub(super) nodes: u64,
    pub(super) deadline: Option<Instant>,
}

/// What a finished [`BalanceJob`] hands back: the table, and the stones with their score.
#[derive(Debug)]
pub struct BalanceOutcome {
    pub(super) tt: TranspositionTable,
    pub(super) found: Option<(Vec<Point>, Score)>,
}

impl BalanceJob {
    fn run(mut self, flag: StopFlag) -> BalanceOutcome {
        let geometry = self.game.geometry();
        let (stones, target, nodes) = (self.stones, self.target, self.nodes);
        let stop = Stop { deadline: self.deadline, flag: Some(flag) };
        let tt = &mut self.tt;
        let found = with_game!(&self.game, b => balance(b, stones, target, tt, nodes, &stop));
        let found = found.map(|found| {
            (found.moves.iter().map(|&cell| geometry.xy(cell)).collect(), found.score)
        });
        BalanceOutcome { tt: self.tt, found }
    }
}

/// A swap2 opening to propose on the empty board of `game` (see
/// [`mnk_engine::search::balance::swap2_opening`]): white within `margin` of even by
/// searches of `nodes` nodes, until `deadline`.
#[derive(Debug)]
pub struct Swap2OpeningJob {
    pub(super) game: Game,
    pub(super) margin: Score,
    pub(super) nodes: u64,
    pub(super) deadline: Option<Instant>,
}

impl Swap2OpeningJob {
    fn run(self, flag: StopFlag) -> (Vec<Point>, Score) {
        let geometry = self.game.geometry();
        let (margin, nodes) = (self.margin, self.nodes);
        let stop = Stop { deadline: self.deadline, flag: Some(flag) };
        let found = with_game!(&self.game, b => swap2_opening(b, margin, nodes, &stop));
        (found.moves.iter().map(|&cell| geometry.xy(cell)).collect(), found.score)
    }
}

/// A search to run away from the session.
#[derive(Debug)]
pub struct SearchJob {
    pub(super) game: Game,
    pub(super) limits: Limits,
    pub(super) threads: usize,
    pub(super) tt: TranspositionTable,
    pub(super) purpose: Purpose,
    pub(super) messages: bool,
    pub(super) started: Instant,
    pub(super) player: Player,
    /// Root moves the search must not play.
    pub(super) blocked: Vec<Point>,
    /// The playing strength and the seed of its draw.
    pub(super) strength: (Strength, u64),
}

/// What a finished [`SearchJob`] hands back.
#[derive(Debug)]
pub struct SearchOutcome {
    pub(super) tt: TranspositionTable,
    pub(super) result: SearchResult,
    pub(super) best: Option<Point>,
    pub(super) purpose: Purpose,
    pub(super) started: Instant,
    /// Whether the answer comes with its summary line (see [`format_answer_summary`]).
    pub(super) messages: bool,
}

impl SearchJob {
    /// Runs the search; `stop` ends it early, `on_line` receives the progress lines.
    pub fn run(self, stop: StopFlag, on_line: &mut dyn FnMut(Response)) -> SearchOutcome {
        let mut job = self;
        let limits = job.limits.clone().with_stop(stop);
        let messages = job.messages;
        let size = job.game.size();
        let mut report = |info: &SearchInfo| {
            if messages {
                on_line(Response::Message(format_info(info, size)));
            }
        };
        let lines = job.purpose.lines();
        let player = job.player;
        let options = SearchOptions {
            lines,
            threads: job.threads,
            blocked: &job.blocked,
            strength: job.strength,
        };
        let result = with_game!(&job.game, b => {
            player.search(b, &mut job.tt, limits, &options, &mut report)
        });
        let best = result.best_move.map(|c| job.game.point(c));
        SearchOutcome {
            tt: job.tt,
            result,
            best,
            purpose: job.purpose,
            started: job.started,
            messages: job.messages,
        }
    }
}

/// One progress line in the Rapfi/Embryo convention:
/// `depth 12-19 ev 134 n 1520k n/ms 610 tm 2490 pv h8 i9 j10`.
pub fn format_info(info: &SearchInfo, size: BoardSize) -> String {
    let line = info.line.map(|k| format!(" multipv {k}")).unwrap_or_default();
    format!(
        "depth {}-{}{line} ev {} n {}k n/ms {} tm {} pv {}",
        info.depth,
        info.seldepth,
        format_score(info.score),
        info.nodes / 1000,
        info.nps / 1000,
        info.time.as_millis(),
        format_pv(&info.pv, size)
    )
}

/// The line before an answer: the search's depth, score and nodes, and `tm`, the
/// milliseconds from the command coming in to the answer, by the engine's own clock:
/// `answer depth 11 ev 34 n 412k tm 187`.
pub fn format_answer_summary(result: &SearchResult, answer_ms: u64) -> String {
    format!(
        "answer depth {} ev {} n {}k tm {answer_ms}",
        result.depth,
        format_score(result.score()),
        result.nodes / 1000
    )
}

/// One line of a `YXNBEST` answer: `nbest 2/3 depth 9 ev 134 pv h8 i9 j10` (line 2 of the 3
/// asked for, from the iteration of depth 9).
pub fn format_nbest_line(index: usize, asked: usize, line: &PvLine, size: BoardSize) -> String {
    format!(
        "nbest {index}/{asked} depth {} ev {} pv {}",
        line.depth,
        format_score(line.score),
        format_pv(&line.pv, size)
    )
}

/// A principal variation in "pos" notation, space separated.
fn format_pv(pv: &[Cell], size: BoardSize) -> String {
    let moves: Vec<String> = pv.iter().map(|&c| size.geometry().format_pos(c)).collect();
    moves.join(" ")
}
