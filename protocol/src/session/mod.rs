//! The session: a pure state machine from [`Command`]s to [`Response`]s.
//!
//! It holds the game, the manager's settings and the protocol's own state (blocked moves,
//! the position to ponder), and never touches stdin, stdout or threads; the engine
//! ([`Engine`], the front door to the search) holds the rest. A command that needs thinking
//! returns a [`Job`] (a search, a `PERFT` count, an analysis) with the engine it needs;
//! whoever drives the session runs it (on a thread, with a stop flag, in the driver; inline
//! in tests) and hands the [`JobOutcome`] back to [`Session::finish`], which takes the
//! engine back, plays the move and returns the answer. Every invalid command is answered
//! with `ERROR` ([`SessionError`]) or `UNKNOWN` and leaves the state as it was.
//!
//! Beside this dispatch: the settings (`settings.rs`), the jobs (`job.rs`), positions from
//! `BOARD` blocks and the swap2 opening (`position.rs`), Yixin-Board's analysis commands
//! (`yixin.rs`), and the scripting extensions `PERFT`, `SHOW`, `EVAL`, `SOLVE`
//! (`extensions.rs`).

use std::time::Instant;

use mnk_engine::board::IllegalMove;
use mnk_engine::engine::{Engine, Player};
use mnk_engine::game::Game;
use mnk_engine::limits::{Limits, StopFlag};
use mnk_engine::outcome::Outcome;
use mnk_engine::rules::Rule;
use mnk_engine::search::SearchParams;
use mnk_engine::size::BoardSize;
use mnk_engine::strength::Level;

use crate::command::{BoardStone, Command, Point};
use crate::error::SessionError;
use crate::framing::BlockKind;
use crate::progress::Progress;
use crate::response::{About, Response};

mod extensions;
mod job;
mod position;
mod settings;
#[cfg(test)]
mod tests;
mod yixin;

pub use extensions::max_protocol_perft_depth;
pub use job::{
    BalanceTask, DefendTask, Job, JobOutcome, PerftOutcome, Purpose, SearchOutcome, SearchTask,
    Swap2OpeningTask, Task, TaskResult,
};
pub use position::{SWAP2_MARGIN, position_from_stones};
pub use settings::{
    DEFAULT_TURN_MS, MAX_DEPTH, MEMORY_RESERVE_BYTES, Settings, TABLE_MOVES,
    TABLE_NODES_PER_SECOND, THREAD_RESERVE_BYTES,
};

/// What the session wants done after a command.
#[derive(Debug)]
pub enum Reaction {
    /// Write these lines (possibly none).
    Reply(Vec<Response>),
    /// Run this job (a search or a count), then pass its outcome to [`Session::finish`].
    Think(Box<Job>),
    /// Exit.
    Quit,
}

/// The protocol state machine.
#[derive(Debug, Default)]
pub struct Session {
    game: Option<Game>,
    settings: Settings,
    /// INFO problems, reported (as MESSAGE lines) with the next move.
    deferred: Vec<String>,
    /// The engine; `None` while a job holds it (and after a job that failed, until the next
    /// one makes another).
    engine: Option<Engine>,
    player: Player,
    /// Root moves the searches must not play (`YXBLOCK`), until `YXBLOCKRESET`: kept across
    /// games, since Yixin-Board starts a game before every analysis.
    blocked: Vec<Point>,
    /// The position to search on the opponent's time (see [`Session::ponder`]), from the
    /// last answer until the next command.
    ponder_next: Option<Game>,
    /// The main search's tunables (`pbrain-mnk --set`).
    params: SearchParams,
    /// The seed of the draws among moves below full strength (from the clock at start-up,
    /// so that games differ).
    seed: u64,
}

impl Session {
    /// A session before `START`.
    pub fn new() -> Session {
        Session::with_player(Player::default())
    }

    /// A session before `START` whose moves `player` chooses.
    pub fn with_player(player: Player) -> Session {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos() as u64);
        Session { player, seed, ..Session::default() }
    }

    /// Searches with the tunables `params` from the next search on (`pbrain-mnk --set`).
    pub fn set_search_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Adds `points` to the cells the search must not play (`YXBLOCK`): all of them, or,
    /// if one is off the current board, none.
    fn block(&mut self, points: &[Point]) -> Result<(), SessionError> {
        if let Some(game) = &self.game {
            let geometry = game.geometry();
            if let Some(&point) = points.iter().find(|p| geometry.cell(p.x, p.y).is_none()) {
                let error = IllegalMove::OffBoard { x: point.x, y: point.y };
                return Err(SessionError::IllegalMove { command: "YXBLOCK", point, error });
            }
        }
        for &point in points {
            if !self.blocked.contains(&point) {
                self.blocked.push(point);
            }
        }
        Ok(())
    }

    /// The current game, if one was started.
    pub fn game(&self) -> Result<&Game, SessionError> {
        self.game.as_ref().ok_or(SessionError::NoGame)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Handles one command, which came in just now.
    pub fn handle(&mut self, command: Command) -> Reaction {
        self.handle_received(command, Instant::now())
    }

    /// Handles one command that came in at `received`: a move's time is counted from then,
    /// as the manager's clock is (the driver reads input on a thread of its own, so a
    /// command may wait while the session is busy).
    pub fn handle_received(&mut self, command: Command, received: Instant) -> Reaction {
        // Any command ends the time to ponder the last answer.
        self.ponder_next = None;
        let reaction = match command {
            Command::Start { width, height } => self.start(width, height).map(|()| ok()),
            Command::Restart => self.restart().map(|()| ok()),
            Command::Begin => self.move_request(Purpose::Move, received, |game| {
                if game.move_count() == 0 {
                    Ok(())
                } else {
                    Err(SessionError::BeginNeedsAnEmptyBoard)
                }
            }),
            Command::Turn(point) => {
                self.move_request(Purpose::Move, received, |game| match game.try_play(point) {
                    Ok(Outcome::Ongoing) => Ok(()),
                    Ok(_) => Err(SessionError::TurnEndsTheGame(point)),
                    Err(error) => Err(SessionError::IllegalMove { command: "TURN", point, error }),
                })
            }
            Command::Board(stones) => self.move_request(Purpose::Move, received, |game| {
                *game = position_from_stones(BlockKind::Board, game.size(), game.rule(), &stones)?;
                Ok(())
            }),
            Command::YxBoard(stones) => self.set_position(&stones).map(|()| reply(vec![])),
            Command::Play(point) => {
                self.play_forced(point).map(|()| reply(vec![Response::Move(point)]))
            }
            Command::Takeback(point) => self.takeback(point).map(|()| ok()),
            Command::Info(setting) => {
                self.settings.apply(&setting);
                Ok(reply(vec![]))
            }
            Command::BadInfo(bad) => {
                self.deferred.push(bad.to_string());
                Ok(reply(vec![]))
            }
            Command::End => Ok(Reaction::Quit),
            Command::About => Ok(reply(vec![Response::About(About::of(self.player))])),
            // Only meaningful while thinking, which the driver handles; ignored when idle.
            Command::Stop => Ok(reply(vec![])),
            Command::YxNbest(n) => self.move_request(Purpose::NBest(n), received, |_| Ok(())),
            Command::YxBlock(points) => self.block(&points).map(|()| reply(vec![])),
            Command::YxBlockUndo(points) => {
                self.blocked.retain(|p| !points.contains(p));
                Ok(reply(vec![]))
            }
            Command::YxBlockReset => {
                self.blocked.clear();
                Ok(reply(vec![]))
            }
            Command::YxShowInfo => Ok(reply(self.show_info())),
            Command::YxHashClear => Ok(reply(vec![self.clear_hash()])),
            Command::YxSearchDefend => self.search_defend(received),
            Command::YxBalance { stones, target } => self.balance(stones, target, received),
            Command::YxShowForbid => self.show_forbid().map(|points| reply(vec![points])),
            Command::Swap2Board(points) => self.swap2(points, received),
            Command::Perft(depth) => self.perft(depth),
            Command::Show => self.show().map(reply),
            Command::Eval => self.eval().map(|line| reply(vec![line])),
            Command::Solve => self.solve(),
            Command::Invalid(invalid) => Err(SessionError::Invalid(invalid)),
            Command::Unknown(text) => Ok(reply(vec![Response::Unknown(text)])),
        };
        reaction.unwrap_or_else(|e| reply(vec![e.into()]))
    }

    fn start(&mut self, width: usize, height: usize) -> Result<(), SessionError> {
        let size = BoardSize::new(width, height);
        let size = size.ok_or(SessionError::UnsupportedSize { width, height })?;
        // An unsupported rule is reported at the next move request; start freestyle meanwhile.
        let rule = self.settings.rule().unwrap_or(Rule::Freestyle);
        self.new_game(size, rule);
        Ok(())
    }

    fn restart(&mut self) -> Result<(), SessionError> {
        let game = self.game()?;
        self.new_game(game.size(), game.rule());
        Ok(())
    }

    /// A new, empty game (`START`, `RESTART`). Its clock is full again, so the last game's
    /// `time_left` and thinking time no longer count.
    fn new_game(&mut self, size: BoardSize, rule: Rule) {
        self.game = Some(Game::new(size, rule));
        self.settings.time_left_ms = None;
        (self.settings.spent_ms, self.settings.earned_ms) = (0, 0);
    }

    /// Brings the game under the rule the settings ask for (replaying its moves).
    fn apply_rule(&mut self) -> Result<(), SessionError> {
        let rule = self.settings.rule()?;
        if let Some(game) = &mut self.game
            && game.rule() != rule
        {
            *game = game
                .with_rule(rule)
                .map_err(|error| SessionError::IllegalUnderRule { rule, error })?;
        }
        Ok(())
    }

    /// A request to move after `change` updates the position (on a copy; errors leave the
    /// session unchanged).
    fn move_request(
        &mut self,
        purpose: Purpose,
        received: Instant,
        change: impl FnOnce(&mut Game) -> Result<(), SessionError>,
    ) -> Result<Reaction, SessionError> {
        // The manager's clock runs from the command: whatever is done before the search
        // (replaying the game under a new rule, building a pattern table) comes out of the
        // search's time.
        self.game()?;
        self.apply_rule()?;
        let mut game = self.game()?.clone();
        change(&mut game)?;
        if game.outcome().is_decided() {
            return Err(SessionError::GameDecided);
        }
        self.game = Some(game);
        Ok(self.think(purpose, received))
    }

    /// Starts the search for `purpose`, within the time left of the move's budget counted
    /// from `received`, when the request came in.
    fn think(&mut self, purpose: Purpose, received: Instant) -> Reaction {
        let game = self.game.clone().expect("a game is running");
        let limits = Limits {
            depth: self.settings.max_depth,
            nodes: self.settings.max_nodes,
            ..self.turn_limits(&game, received)
        };
        let messages = self.settings.messages;
        let search = SearchTask { game, limits, purpose, messages, started: received };
        self.job(Task::Search(search))
    }

    /// The time limits of a move in `game` requested at `received`: the turn's time counted
    /// from when the request came in, as the manager's clock counts it.
    fn turn_limits(&self, game: &Game, received: Instant) -> Limits {
        let tuning = self.params.time_tuning();
        let move_time = self.settings.time_control().move_time(game.empty_count(), &tuning);
        Limits::move_time(move_time, received)
    }

    /// The engine as the settings want it, taken out for a job (made anew if a job that
    /// failed took it down).
    fn take_engine(&mut self) -> Engine {
        let mut engine = self.engine.take().unwrap_or_else(|| Engine::new(self.player));
        self.configure(&mut engine);
        engine
    }

    /// Brings `engine` in line with the settings and the protocol's state.
    fn configure(&self, engine: &mut Engine) {
        engine.set_hash_bytes(self.settings.hash_bytes());
        engine.set_threads(self.settings.threads);
        engine.set_level(Level { strength: self.settings.strength, seed: self.seed });
        engine.set_blocked(&self.blocked);
        engine.set_params(self.params);
    }

    /// A job for `task`, with the engine if the task needs one.
    fn job(&mut self, task: Task) -> Reaction {
        let engine = match task {
            Task::Perft(..) | Task::Solve(..) => None,
            _ => Some(self.take_engine()),
        };
        Reaction::Think(Box::new(Job { engine, task }))
    }

    /// Work for idle time, one step per call, that the game's first search would otherwise
    /// do in its own time (see [`Engine::prepare`]), for the game's board under the rule the
    /// settings ask for. Returns whether any of it is left: the driver calls it again while
    /// no command is waiting, so a command waits for one step at most (and its time counts
    /// from when it came in). Settings that change the table's size, board size or rule
    /// start it again.
    pub fn prepare(&mut self) -> bool {
        let Some(game) = &self.game else { return false };
        // (An unsupported rule is reported at the move request.)
        let (size, rule) = (game.size(), self.settings.rule().unwrap_or(game.rule()));
        let mut engine = self.take_engine();
        engine.new_game(size, rule);
        let left = engine.prepare();
        self.engine = Some(engine);
        left
    }

    /// Runs a job inline (for tests and single-threaded drivers) and finishes it.
    pub fn think_inline(&mut self, job: Box<Job>) -> Vec<Response> {
        let mut lines = Vec::new();
        let outcome = job.run(StopFlag::new(), &mut |r| lines.push(r));
        lines.extend(self.finish(outcome));
        lines
    }

    /// The answer to a job that failed inside the engine (a panic: a bug, which the message
    /// names) instead of finishing, `purpose` being the search's (`None`: another job). A
    /// move request is still answered with a legal move — a candidate next to the stones —
    /// so that a bug costs a weak move rather than the game; a ponder search is dropped; any
    /// other job is answered `ERROR`. The engine went down with it: the next job makes a new
    /// one.
    pub fn fail(&mut self, purpose: Option<Purpose>, message: &str) -> Vec<Response> {
        log::error!("a job failed: {message}");
        let error = SessionError::Internal(message.to_string());
        match (purpose, &mut self.game) {
            (Some(Purpose::Ponder), _) => Vec::new(),
            (Some(_), Some(game)) if !game.outcome().is_decided() => {
                let mut lines = vec![Response::Message(error.to_string())];
                match Engine::quick_move(game) {
                    Some(point) => lines.push(Response::Move(play_or_fallback(game, point))),
                    None => lines.extend(no_move_answer(game)),
                }
                lines
            }
            _ => vec![error.into()],
        }
    }

    /// Takes back a finished job, and its engine, and returns its answer.
    pub fn finish(&mut self, outcome: JobOutcome) -> Vec<Response> {
        if let Some(engine) = outcome.engine {
            self.engine = Some(engine);
        }
        match outcome.result {
            TaskResult::Search(outcome) => self.finish_search(outcome),
            TaskResult::Perft(outcome) => extensions::finish_perft(&outcome),
            TaskResult::Solve(outcome) => extensions::finish_solve(&outcome),
            TaskResult::Defend(verdicts) => yixin::finish_defend(&verdicts),
            TaskResult::Balance(found) => self.finish_balance(found),
            TaskResult::Swap2Opening(stones, score) => self.finish_swap2_opening(stones, score),
        }
    }

    /// With `INFO pondering 1`, the search to run on the opponent's time once an answer is
    /// out and no command waits (the driver's idle time): the position after the reply the
    /// answer's line expects, or, without one, the position the opponent has. It runs until
    /// any command stops it, answers nothing and leaves its table to the next search.
    pub fn ponder(&mut self) -> Option<Box<Job>> {
        let game = self.ponder_next.take()?;
        let purpose = Purpose::Ponder;
        let (limits, started) = (Limits::default(), Instant::now());
        let search = SearchTask { game, limits, purpose, messages: false, started };
        match self.job(Task::Search(search)) {
            Reaction::Think(job) => Some(job),
            _ => unreachable!("a search task is a job"),
        }
    }

    /// The position [`Session::ponder`] searches after `game` (our answer played), given
    /// the answer's line `pv` (its first move ours): after the reply it expects, if legal
    /// and the game goes on, else `game` itself; none if the game is over.
    fn ponder_position(game: &Game, pv: &[Point]) -> Option<Game> {
        if game.outcome().is_decided() {
            return None;
        }
        let mut after_reply = game.clone();
        match pv.get(1).map(|&reply| after_reply.try_play(reply)) {
            Some(Ok(Outcome::Ongoing)) => Some(after_reply),
            _ => Some(game.clone()),
        }
    }

    /// Takes back a finished search: plays its move, returns the answer.
    fn finish_search(&mut self, outcome: SearchOutcome) -> Vec<Response> {
        if outcome.purpose == Purpose::Ponder {
            return Vec::new();
        }
        let thought = outcome.started.elapsed();
        let thought_ms = u64::try_from(thought.as_millis()).unwrap_or(u64::MAX);
        self.settings.count_move(thought_ms);
        let mut lines: Vec<Response> = self.deferred.drain(..).map(Response::Message).collect();
        let Some(game) = &mut self.game else {
            lines.push(SessionError::NoGame.into());
            return lines;
        };
        let Some(best) = outcome.best else {
            lines.extend(no_move_answer(game));
            return lines;
        };
        log::debug!(
            "search done in {} ms (root threats {} ms, best-move checks {} ms, depth {}): {:?} \
             score {}",
            thought.as_millis(),
            outcome.result.root_threat_time.as_millis(),
            outcome.result.check_time.as_millis(),
            outcome.result.depth,
            best,
            outcome.result.score()
        );
        if let Purpose::NBest(n) = outcome.purpose {
            for (index, line) in outcome.result.lines.iter().enumerate() {
                lines.push(Response::Info(Progress::nbest(index + 1, n, line, game)));
            }
        }
        if outcome.messages {
            lines.push(Response::Info(Progress::answer(&outcome.result, thought_ms)));
        }
        // In a swap2 opening the side to move is white in both positions (3 or 5 stones):
        // keep white when its score is not worse than SWAP2_MARGIN, otherwise swap.
        let swap =
            matches!(outcome.purpose, Purpose::Swap2(_)) && outcome.result.score() < -SWAP2_MARGIN;
        if swap {
            lines.push(Response::Swap);
            return lines;
        }
        let played = play_or_fallback(game, best);
        lines.push(Response::Move(played));
        // (Below full strength the search is a few nodes: nothing to ponder.)
        if self.settings.pondering && self.player == Player::Mnk && self.settings.strength.is_full()
        {
            let pv: Vec<Point> = outcome.result.pv().iter().map(|&cell| game.point(cell)).collect();
            // (The line is the move played's only if the search's move was legal.)
            let pv = if pv.first() == Some(&played) { pv } else { vec![played] };
            self.ponder_next = Session::ponder_position(game, &pv);
        }
        lines
    }

    /// `YXSHOWFORBID`: black's forbidden points under the rule the settings ask for now
    /// (the game is brought under it, as a move request would).
    fn show_forbid(&mut self) -> Result<Response, SessionError> {
        self.game()?;
        self.apply_rule()?;
        Ok(Response::Forbid(self.game()?.forbidden_points()))
    }

    /// `YXBOARD`: the position, without a move.
    fn set_position(&mut self, stones: &[BoardStone]) -> Result<(), SessionError> {
        let size = self.game()?.size();
        let rule = self.settings.rule()?;
        self.game = Some(position_from_stones(BlockKind::YxBoard, size, rule, stones)?);
        Ok(())
    }

    /// `PLAY`: the engine's move, chosen by the manager.
    fn play_forced(&mut self, point: Point) -> Result<(), SessionError> {
        let mut game = self.game()?.clone();
        game.try_play(point).map_err(|error| SessionError::IllegalMove {
            command: "PLAY",
            point,
            error,
        })?;
        self.game = Some(game);
        Ok(())
    }

    fn takeback(&mut self, point: Point) -> Result<(), SessionError> {
        match self.game()?.last_move() {
            Some(last) if last == point => {
                self.game.as_mut().expect("a game, checked above").undo();
                Ok(())
            }
            Some(last) => Err(SessionError::TakebackNotLast { point, last }),
            None => Err(SessionError::TakebackOnEmpty(point)),
        }
    }
}

fn reply(lines: Vec<Response>) -> Reaction {
    Reaction::Reply(lines)
}

fn ok() -> Reaction {
    reply(vec![Response::Ok])
}

/// Plays `best`; should the search ever return an illegal move (a bug), plays the first
/// legal move instead and logs it — a weak move loses less than a forfeit.
fn play_or_fallback(game: &mut Game, best: Point) -> Point {
    if game.try_play(best).is_ok() {
        return best;
    }
    let fallback = game
        .legal_points()
        .first()
        .copied()
        .expect("the search finds a move only while one is legal");
    log::error!("the search returned the illegal move {best}; playing a legal one");
    game.try_play(fallback).expect("a legal move plays");
    fallback
}

/// The answer when the search finds no move in `game`. On an undecided game that is
/// renju's black with only forbidden points left, who has lost: any answer is a foul, and
/// answering the first forbidden point ends the game at once for the manager (an error or
/// silence would too, less cleanly). The game, which cannot take it, stays as it is.
fn no_move_answer(game: &Game) -> Vec<Response> {
    match game.forbidden_points().first() {
        Some(&point) if game.only_forbidden_moves_left() => vec![
            Response::Message("black has only forbidden points left: any move is a foul".into()),
            Response::Move(point),
        ],
        _ => vec![SessionError::NoLegalMove.into()],
    }
}
