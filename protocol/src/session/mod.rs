//! The session: a pure state machine from [`Command`]s to [`Response`]s.
//!
//! It holds the game, the manager's settings and the transposition table, and never touches
//! stdin, stdout or threads. A command that needs thinking returns a [`SearchJob`]; whoever
//! drives the session runs it (on a thread, with a stop flag, in the driver; inline in
//! tests) and hands the [`JobOutcome`] back to [`Session::finish`], which plays the move and
//! returns the answer. Every invalid command is answered with `ERROR`/`UNKNOWN` and leaves
//! the state as it was.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use mnk_engine::bitboard::Bitboard;
use mnk_engine::color::Color;
use mnk_engine::eval;
use mnk_engine::outcome::Outcome;
use mnk_engine::pattern::table::PatternTable;
use mnk_engine::rules::Rule;
use mnk_engine::score::format_score;
use mnk_engine::search::{MAX_THREADS, SearchLimits};
use mnk_engine::size::BoardSize;
use mnk_engine::solve::solve;
use mnk_engine::tt::TranspositionTable;

use crate::command::{BoardStone, Command, Point, echo};
use crate::framing::BlockKind;
use crate::player::Player;
use crate::response::Response;
use mnk_engine::game::Game;
use mnk_engine::with_game;

mod job;
mod settings;

pub use job::{
    Job, JobOutcome, PerftJob, PerftOutcome, Purpose, SearchJob, SearchOutcome,
    format_answer_summary, format_info, format_nbest_line,
};
pub use settings::{
    DEFAULT_HASH_BYTES, DEFAULT_TURN_MS, MEMORY_RESERVE_BYTES, MIN_HASH_BYTES, Settings,
    TABLE_MOVES, TABLE_NODES_PER_SECOND, THREAD_RESERVE_BYTES,
};

/// Bytes of a fresh table [`Session::prepare`] has the system back with memory per
/// call: a huge page, about 2 ms here, so a command that comes in meanwhile waits no longer.
pub const TOUCH_STEP_BYTES: usize = 2 << 20;
/// Deepest `PERFT` the protocol runs on each size: about a second of counting at most, on
/// one thread (`YXSTOP` and `END` end it at once). Deeper runs belong to `pbrain-mnk
/// perft`.
pub const fn max_protocol_perft_depth(size: BoardSize) -> u32 {
    match size {
        BoardSize::Three => 9,
        BoardSize::Five => 7,
        BoardSize::Fifteen => 4,
    }
}

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
    /// Allocated at the first search or while idle before it (START stays cheap); `None`
    /// while a job holds it.
    tt: Option<TranspositionTable>,
    /// The board size and rule the table's entries belong to.
    tt_context: Option<(BoardSize, Rule)>,
    /// The bytes the table was asked for (the system may have granted less).
    tt_wanted: usize,
    /// How many bytes of a table no search has used yet are backed by memory (see
    /// [`Session::prepare`]); `None` before the first table and once a search has had it.
    tt_touched: Option<usize>,
    /// The rule whose pattern table [`Session::prepare`] has built.
    prepared_rule: Option<Rule>,
    player: Player,
}

impl Session {
    /// A session before `START`.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session before `START` whose moves `player` chooses.
    pub fn with_player(player: Player) -> Session {
        Session { player, ..Session::default() }
    }

    /// The current game, if one was started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Work for idle time, one step per call, that the game's first search would otherwise
    /// do in its own time: unpacking the pattern table of the rule the settings ask for (on
    /// 15×15, well under a millisecond), then making the transposition table that search
    /// will want and having the system back it with memory, [`TOUCH_STEP_BYTES`] a step
    /// (see [`TranspositionTable::touch`]: a fresh table's pages are mapped at their first
    /// writes, about 30 ms of a 167 ms budget here for 32 MiB). Returns whether any of it is
    /// left: the driver calls it again while no command is waiting, so a command waits for
    /// one step at most (and its time counts from when it came in). Settings that change the
    /// table's size, board size or rule make it anew, and the work starts again.
    pub fn prepare(&mut self) -> bool {
        let Some(game) = &self.game else { return false };
        // (An unsupported rule is reported at the move request.)
        let rule = self.settings.rule().unwrap_or(game.rule());
        let size = game.size();
        if size == BoardSize::Fifteen && self.prepared_rule != Some(rule) {
            PatternTable::of(rule);
            self.prepared_rule = Some(rule);
            return true;
        }
        let context = Some((size, rule));
        let mut tt = self.table_for(context);
        let Some(touched) = self.tt_touched else {
            // Kept from a search: its pages are mapped where it wrote.
            self.tt = Some(tt);
            return false;
        };
        let next = tt.touch(touched, TOUCH_STEP_BYTES);
        let left = next < tt.storage_bytes();
        self.tt = Some(tt);
        self.tt_touched = Some(next);
        left
    }

    /// The table the next search of a game of `context` uses: the one kept, if it has the
    /// size the settings want and entries of that context, else a new one (taking
    /// `self.tt`).
    fn table_for(&mut self, context: Option<(BoardSize, Rule)>) -> TranspositionTable {
        // Zobrist keys are shared by bit index across sizes and results differ by rule, so a
        // table is reused only for the same size and rule, and only at the wanted size.
        // (The classroom program searches without one: it gets the smallest.)
        let wanted = match self.player {
            Player::Mnk => self.settings.hash_bytes(),
            Player::Classroom => MIN_HASH_BYTES,
        };
        // (Asked for, not granted: a table the system cut short is not made again and
        // again.)
        match self.tt.take() {
            Some(tt) if self.tt_wanted == wanted && self.tt_context == context => tt,
            _ => {
                self.tt_context = context;
                self.tt_wanted = wanted;
                self.tt_touched = Some(0);
                TranspositionTable::with_bytes(wanted)
            }
        }
    }

    /// Handles one command, which came in just now.
    pub fn handle(&mut self, command: Command) -> Reaction {
        self.handle_received(command, Instant::now())
    }

    /// Handles one command that came in at `received`: a move's time is counted from then,
    /// as the manager's clock is (the driver reads input on a thread of its own, so a
    /// command may wait while the session is busy).
    pub fn handle_received(&mut self, command: Command, received: Instant) -> Reaction {
        use Reaction::Reply;
        match command {
            Command::Start { width, height } => Reply(vec![self.start(width, height)]),
            Command::Restart => Reply(vec![match &self.game {
                Some(game) => {
                    self.new_game(game.size(), game.rule());
                    Response::Ok
                }
                None => no_game(),
            }]),
            Command::Begin => self.move_request(Purpose::Move, received, |game| {
                if game.move_count() == 0 {
                    Ok(())
                } else {
                    Err("BEGIN needs an empty board (use BOARD for a position)".to_string())
                }
            }),
            Command::Turn(point) => {
                self.move_request(Purpose::Move, received, |game| match game.try_play(point) {
                    Ok(Outcome::Ongoing) => Ok(()),
                    Ok(_) => Err(format!("TURN {},{} ends the game", point.0, point.1)),
                    Err(e) => Err(format!("TURN {},{}: {e}", point.0, point.1)),
                })
            }
            Command::Board(stones) => self.move_request(Purpose::Move, received, |game| {
                *game = position_from_stones(BlockKind::Board, game.size(), game.rule(), &stones)?;
                Ok(())
            }),
            Command::YxBoard(stones) => Reply(self.set_position(&stones)),
            Command::Play(point) => self.play_forced(point),
            Command::Takeback(point) => Reply(vec![self.takeback(point)]),
            Command::Info { key, value } => {
                self.info(&key, &value);
                Reply(vec![])
            }
            Command::End => Reaction::Quit,
            Command::About => Reply(vec![Response::About(self.player)]),
            // Only meaningful while thinking, which the driver handles; ignored when idle.
            Command::Stop => Reply(vec![]),
            Command::YxNbest(n) => self.move_request(Purpose::NBest(n), received, |_| Ok(())),
            Command::YxShowForbid => Reply(vec![match &self.game {
                Some(game) => Response::Forbid(game.forbidden_points()),
                None => no_game(),
            }]),
            Command::Swap2Board(points) => self.swap2(points, received),
            Command::Perft(depth) => self.perft(depth),
            Command::Show => Reply(self.show()),
            Command::Eval => Reply(vec![self.eval()]),
            Command::Solve => Reply(vec![self.solve()]),
            Command::Invalid { command, reason } => {
                Reply(vec![Response::Error(format!("{command}: {reason}"))])
            }
            Command::Unknown(text) => Reply(vec![Response::Unknown(text)]),
        }
    }

    fn start(&mut self, width: usize, height: usize) -> Response {
        let size = (width == height).then(|| BoardSize::from_side(width)).flatten();
        let Some(size) = size else {
            return if width == height {
                Response::Error(format!("unsupported board size {width}"))
            } else {
                Response::Error(format!(
                    "unsupported board size {width}x{height} (square 3, 5 or 15 only)"
                ))
            };
        };
        // An unsupported rule is reported at the next move request; start freestyle meanwhile.
        let rule = self.settings.rule().unwrap_or(Rule::Freestyle);
        self.new_game(size, rule);
        Response::Ok
    }

    /// A new, empty game (`START`, `RESTART`). Its clock is full again, so the last game's
    /// `time_left` and thinking time no longer count.
    fn new_game(&mut self, size: BoardSize, rule: Rule) {
        self.game = Some(Game::new(size, rule));
        self.settings.time_left_ms = None;
        self.settings.spent_ms = 0;
    }

    fn info(&mut self, key: &str, value: &str) {
        let number = value.trim().parse::<u64>().ok();
        let mut bad = false;
        let mut set = |field: &mut u64| match number {
            Some(v) => *field = v,
            None => bad = true,
        };
        match key {
            "timeout_turn" => set(&mut self.settings.turn_ms),
            "timeout_match" => set(&mut self.settings.match_ms),
            "max_memory" => set(&mut self.settings.max_memory),
            "time_left" => {
                // Some managers send a negative time_left once the clock has run out.
                match value.trim().parse::<i64>() {
                    Ok(v) => {
                        self.settings.time_left_ms = Some(v.max(0) as u64);
                        self.settings.spent_ms = 0;
                    }
                    Err(_) => bad = true,
                }
            }
            "rule" => match number.and_then(|v| u32::try_from(v).ok()) {
                Some(v) => self.settings.rule_code = v,
                None => bad = true,
            },
            "max_depth" => match number {
                Some(v) => self.settings.max_depth = (v > 0).then(|| v.min(255) as u32),
                None => bad = true,
            },
            "max_node" => match number {
                Some(v) => self.settings.max_nodes = (v > 0).then_some(v),
                None => bad = true,
            },
            "thread_num" => match number {
                Some(v) => self.settings.threads = v.clamp(1, MAX_THREADS as u64) as usize,
                None => bad = true,
            },
            "messages" => match value.trim() {
                "0" => self.settings.messages = false,
                "1" => self.settings.messages = true,
                _ => bad = true,
            },
            // Accepted and not needed: game_type, folder, evaluate (a debugging
            // hint that must never print) and any unknown key.
            _ => {}
        }
        if bad {
            self.deferred.push(format!("INFO {key}: ignored bad value '{}'", echo(value.trim())));
        }
    }

    /// Brings the game under the rule the settings ask for (replaying its moves).
    fn apply_rule(&mut self) -> Result<(), String> {
        let rule = self.settings.rule()?;
        if let Some(game) = &mut self.game
            && game.rule() != rule
        {
            *game = game
                .with_rule(rule)
                .map_err(|e| format!("the position is illegal under rule {}: {e}", rule))?;
        }
        Ok(())
    }

    /// A request to move after `change` updates the position (on a copy; errors leave the
    /// session unchanged).
    fn move_request(
        &mut self,
        purpose: Purpose,
        received: Instant,
        change: impl FnOnce(&mut Game) -> Result<(), String>,
    ) -> Reaction {
        // The manager's clock runs from the command: whatever is done before the search
        // (replaying the game under a new rule, building a pattern table) comes out of the
        // search's time.
        if self.game.is_none() {
            return Reaction::Reply(vec![no_game()]);
        }
        if let Err(e) = self.apply_rule() {
            return Reaction::Reply(vec![Response::Error(e)]);
        }
        let mut game = self.game.clone().expect("checked above");
        if let Err(e) = change(&mut game) {
            return Reaction::Reply(vec![Response::Error(e)]);
        }
        if game.outcome().is_decided() {
            return Reaction::Reply(vec![Response::Error(
                "the game is already decided".to_string(),
            )]);
        }
        self.game = Some(game);
        self.think(purpose, received)
    }

    /// Starts the search for `purpose`, within the time left of the move's budget counted
    /// from `received`, when the request came in.
    fn think(&mut self, purpose: Purpose, received: Instant) -> Reaction {
        let game = self.game.clone().expect("a game is running");
        let tt = self.table_for(Some((game.size(), game.rule())));
        // A table a search has had is not fresh: nothing to prepare while idle.
        self.tt_touched = None;
        let budget = self.settings.time_control().budget(game.empty_count());
        // Both counted from when the request came in.
        let elapsed = received.elapsed();
        let from_request = |time: std::time::Duration| {
            (time != std::time::Duration::MAX).then(|| time.saturating_sub(elapsed))
        };
        let limits = SearchLimits {
            depth: self.settings.max_depth,
            nodes: self.settings.max_nodes,
            time: from_request(budget.limit),
            target: from_request(budget.target),
            stop: None,
        };
        Reaction::Think(Box::new(Job::Search(SearchJob {
            game,
            limits,
            threads: self.settings.threads,
            tt,
            purpose,
            messages: self.settings.messages,
            started: received,
            player: self.player,
        })))
    }

    /// Runs a job inline (for tests and single-threaded drivers) and finishes it.
    pub fn think_inline(&mut self, job: Box<Job>) -> Vec<Response> {
        let mut lines = Vec::new();
        let outcome = job.run(Arc::new(AtomicBool::new(false)), &mut |r| lines.push(r));
        lines.extend(self.finish(outcome));
        lines
    }

    /// Takes back a finished job and returns its answer.
    pub fn finish(&mut self, outcome: JobOutcome) -> Vec<Response> {
        match outcome {
            JobOutcome::Search(outcome) => self.finish_search(outcome),
            JobOutcome::Perft(outcome) => finish_perft(&outcome),
        }
    }

    /// Takes back a finished search: keeps its table, plays its move, returns the answer.
    fn finish_search(&mut self, outcome: SearchOutcome) -> Vec<Response> {
        self.tt = Some(outcome.tt);
        let thought = outcome.started.elapsed();
        let thought_ms = u64::try_from(thought.as_millis()).unwrap_or(u64::MAX);
        self.settings.spent_ms = self.settings.spent_ms.saturating_add(thought_ms);
        let mut lines: Vec<Response> = self.deferred.drain(..).map(Response::Message).collect();
        let Some(game) = &mut self.game else {
            lines.push(no_game());
            return lines;
        };
        let Some(best) = outcome.best else {
            lines.push(Response::Error("no legal move".to_string()));
            return lines;
        };
        log::debug!(
            "search done in {} ms: {:?} score {}",
            thought.as_millis(),
            best,
            outcome.result.score()
        );
        if let Purpose::NBest(n) = outcome.purpose {
            let size = game.size();
            for (index, line) in outcome.result.lines.iter().enumerate() {
                lines.push(Response::Message(format_nbest_line(index + 1, n, line, size)));
            }
        }
        if outcome.messages {
            lines.push(Response::Message(format_answer_summary(&outcome.result, thought_ms)));
        }
        // In a swap2 opening the side to move is white in both positions (3 or 5 stones):
        // keep white when its score is not worse than SWAP2_MARGIN, otherwise swap.
        let swap =
            matches!(outcome.purpose, Purpose::Swap2(_)) && outcome.result.score() < -SWAP2_MARGIN;
        lines.push(if swap {
            Response::Swap
        } else {
            Response::Move(play_or_fallback(game, best))
        });
        lines
    }

    fn set_position(&mut self, stones: &[BoardStone]) -> Vec<Response> {
        let Some(game) = &self.game else { return vec![no_game()] };
        let rule = match self.settings.rule() {
            Ok(rule) => rule,
            Err(e) => return vec![Response::Error(e)],
        };
        match position_from_stones(BlockKind::YxBoard, game.size(), rule, stones) {
            Ok(game) => {
                self.game = Some(game);
                vec![]
            }
            Err(e) => vec![Response::Error(e)],
        }
    }

    fn play_forced(&mut self, point: Point) -> Reaction {
        let Some(game) = &mut self.game else { return Reaction::Reply(vec![no_game()]) };
        let mut copy = game.clone();
        match copy.try_play(point) {
            Ok(_) => {
                *game = copy;
                Reaction::Reply(vec![Response::Move(point)])
            }
            Err(e) => {
                Reaction::Reply(vec![Response::Error(format!("PLAY {},{}: {e}", point.0, point.1))])
            }
        }
    }

    fn takeback(&mut self, point: Point) -> Response {
        let Some(game) = &mut self.game else { return no_game() };
        match game.last_move() {
            Some(last) if last == point => {
                game.undo();
                Response::Ok
            }
            Some(last) => Response::Error(format!(
                "TAKEBACK {},{}: the last move is {},{}",
                point.0, point.1, last.0, last.1
            )),
            None => {
                Response::Error(format!("TAKEBACK {},{}: the board is empty", point.0, point.1))
            }
        }
    }

    fn swap2(&mut self, points: Vec<Point>, received: Instant) -> Reaction {
        let Some(game) = &self.game else { return Reaction::Reply(vec![no_game()]) };
        if let Err(e) = self.settings.rule() {
            return Reaction::Reply(vec![Response::Error(e)]);
        }
        if game.size() != BoardSize::Fifteen {
            return Reaction::Reply(vec![Response::Error(
                "SWAP2BOARD needs a 15x15 board".to_string(),
            )]);
        }
        if points.is_empty() {
            let opening = swap2_opening();
            let rule = game.rule();
            let mut fresh = Game::new(BoardSize::Fifteen, rule);
            for &p in &opening {
                fresh.try_play(p).expect("the fixed opening is legal");
            }
            self.game = Some(fresh);
            return Reaction::Reply(vec![Response::Moves(opening.to_vec())]);
        }
        let mut fresh = Game::new(BoardSize::Fifteen, game.rule());
        for &p in &points {
            if let Err(e) = fresh.try_play(p) {
                return Reaction::Reply(vec![Response::Error(format!(
                    "SWAP2BOARD {},{}: {e}",
                    p.0, p.1
                ))]);
            }
        }
        if fresh.outcome().is_decided() {
            return Reaction::Reply(vec![Response::Error(
                "the game is already decided".to_string(),
            )]);
        }
        self.game = Some(fresh);
        self.think(Purpose::Swap2(points.len()), received)
    }

    fn perft(&self, depth: u32) -> Reaction {
        let Some(game) = &self.game else { return Reaction::Reply(vec![no_game()]) };
        let max_depth = max_protocol_perft_depth(game.size());
        if depth > max_depth {
            return Reaction::Reply(vec![Response::Error(format!(
                "PERFT: depth {depth} is above {max_depth} on this board (use pbrain-mnk perft)"
            ))]);
        }
        Reaction::Think(Box::new(Job::Perft(PerftJob { game: game.clone(), depth })))
    }

    fn show(&self) -> Vec<Response> {
        let Some(game) = &self.game else { return vec![no_game()] };
        let mut lines: Vec<Response> =
            game.to_string().lines().map(|l| Response::Message(l.to_string())).collect();
        let to_move = match game.side_to_move() {
            Color::Black => "black (X)",
            Color::White => "white (O)",
        };
        lines.push(Response::Message(format!(
            "rule {} moves {} to move {} outcome {:?}",
            game.rule(),
            game.move_count(),
            to_move,
            game.outcome()
        )));
        lines
    }

    fn eval(&self) -> Response {
        let Some(game) = &self.game else { return no_game() };
        let score = with_game!(game, b => eval::evaluate(b));
        Response::Message(format!("eval {score}"))
    }

    fn solve(&self) -> Response {
        let Some(game) = &self.game else { return no_game() };
        if game.size() == BoardSize::Fifteen {
            return Response::Error("SOLVE: only 3x3 and 5x5 boards can be solved".to_string());
        }
        if game.outcome().is_decided() {
            return Response::Error("the game is already decided".to_string());
        }
        // A private table: solving must not mix with (or spoil) the game's table.
        let mut tt = TranspositionTable::with_bytes(MIN_HASH_BYTES * 16);
        let line = with_game!(game, b => {
            let s = solve(b, &mut tt);
            let best = s.best().map_or("none".to_string(), |c| {
                let (x, y) = b.geometry().xy(c);
                format!("{x},{y}")
            });
            let score = format_score(s.score());
            format!("value {} best {best} score {score} nodes {}", s.value(), s.search.nodes)
        });
        Response::Message(line)
    }
}

/// The answer to a finished `PERFT`: its time and count, or that it was stopped.
fn finish_perft(outcome: &PerftOutcome) -> Vec<Response> {
    let (depth, ms) = (outcome.depth, outcome.elapsed.as_millis());
    match outcome.nodes {
        Some(nodes) => vec![
            Response::Message(format!("perft depth {depth} time_ms {ms}")),
            Response::Nodes(nodes),
        ],
        None => vec![Response::Error(format!("PERFT: depth {depth} stopped after {ms} ms"))],
    }
}

/// Plays `best`; should the search ever return an illegal move (a bug), plays the first
/// legal move instead and logs it — a weak move loses less than a forfeit.
fn play_or_fallback(game: &mut Game, best: Point) -> Point {
    if game.try_play(best).is_ok() {
        return best;
    }
    log::error!("the search returned the illegal move {},{}; playing a legal one", best.0, best.1);
    let fallback = with_game!(&*game, b => b.legal_moves().lowest())
        .map(|c| game.point(c))
        .expect("an undecided game has a legal move");
    game.try_play(fallback).expect("a legal move plays");
    fallback
}

/// Score below which white gives up its side in swap2 (evaluation units).
pub const SWAP2_MARGIN: i32 = 30;

/// The fixed swap2 proposal (0 stones): black h8, white i8, black h10 — a quiet, roughly
/// balanced start: black's two stones are not on one line with a free neighbour, white
/// touches the centre.
pub fn swap2_opening() -> [Point; 3] {
    [(7, 7), (8, 7), (7, 9)]
}

fn no_game() -> Response {
    Response::Error("no game started (send START first)".to_string())
}

/// A position rebuilt from `BOARD` stones: field 1 the engine's, 2 the opponent's, 3
/// ignored. Colours follow from the counts: equal counts make the engine black (to move),
/// one more opponent stone makes it white. Stones keep their order within each colour and the
/// colours alternate, black first. A cell listed twice is named before the counts are
/// judged: a repeated line would otherwise read as a bad count. Errors start with the command
/// word of `kind` (`BOARD` or `YXBOARD`), so the manager sees which command failed.
pub fn position_from_stones(
    kind: BlockKind,
    size: BoardSize,
    rule: Rule,
    stones: &[BoardStone],
) -> Result<Game, String> {
    let word = kind.word();
    let placed = stones.iter().filter(|s| s.field != 3).map(|s| s.point);
    for (i, point) in placed.clone().enumerate() {
        if placed.clone().take(i).any(|earlier| earlier == point) {
            return Err(format!(
                "{word} {},{}: {},{} is listed twice",
                point.0, point.1, point.0, point.1
            ));
        }
    }
    let own: Vec<Point> = stones.iter().filter(|s| s.field == 1).map(|s| s.point).collect();
    let opp: Vec<Point> = stones.iter().filter(|s| s.field == 2).map(|s| s.point).collect();
    let (black, white) = if own.len() == opp.len() {
        (&own, &opp)
    } else if opp.len() == own.len() + 1 {
        (&opp, &own)
    } else {
        return Err(format!(
            "{word}: {} own and {} opponent stones cannot be a position with the engine to move",
            own.len(),
            opp.len()
        ));
    };
    let mut game = Game::new(size, rule);
    for (i, &b) in black.iter().enumerate() {
        for point in [Some(b), white.get(i).copied()].into_iter().flatten() {
            game.try_play(point).map_err(|e| format!("{word} {},{}: {e}", point.0, point.1))?;
        }
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::tt::BUCKET_BYTES;

    fn reply(session: &mut Session, command: Command) -> Vec<Response> {
        match session.handle(command) {
            Reaction::Reply(lines) => lines,
            Reaction::Think(job) => session.think_inline(job),
            Reaction::Quit => vec![],
        }
    }

    /// The search a reaction hands out.
    fn search_job(reaction: Reaction) -> SearchJob {
        match reaction {
            Reaction::Think(job) => match *job {
                Job::Search(job) => job,
                other => panic!("not a search: {other:?}"),
            },
            other => panic!("not a job: {other:?}"),
        }
    }

    fn started(size: usize) -> Session {
        let mut s = Session::new();
        assert_eq!(reply(&mut s, Command::Start { width: size, height: size }), vec![Response::Ok]);
        s.handle(Command::Info { key: "timeout_turn".into(), value: "50".into() });
        s.handle(Command::Info { key: "messages".into(), value: "0".into() });
        s
    }

    #[test]
    fn turn_plays_the_opponent_move_and_answers_with_a_legal_move() {
        let mut s = started(15);
        let lines = reply(&mut s, Command::Turn((7, 7)));
        assert_eq!(lines.len(), 1);
        let Response::Move(p) = lines[0] else { panic!("{lines:?}") };
        assert_ne!(p, (7, 7));
        assert_eq!(s.game().unwrap().move_count(), 2);
    }

    /// With a turn time alone the search aims at exactly its limit, so it is never stretched
    /// or shrunk (a forced move too has the whole turn); a game clock's share aims below it.
    #[test]
    fn a_turn_time_alone_is_the_aim_and_the_limit() {
        let mut s = started(15);
        let limits = |s: &mut Session| {
            let job = search_job(s.handle(Command::Turn((7, 7))));
            (job.limits.target, job.limits.time)
        };
        s.handle(Command::Info { key: "timeout_turn".into(), value: "1000".into() });
        let (target, time) = limits(&mut s);
        assert!(time.is_some_and(|t| t.as_millis() > 900), "{time:?}");
        assert_eq!(target, time);
        let mut s = started(15);
        s.handle(Command::Info { key: "timeout_turn".into(), value: "1000".into() });
        s.handle(Command::Info { key: "timeout_match".into(), value: "4000".into() });
        let (target, time) = limits(&mut s);
        assert!(target < time, "{target:?} {time:?}");
    }

    /// A game clock with no `time_left` counts down from `timeout_match` by the time each
    /// answer took; `time_left` replaces the count, and a new game (`RESTART`, `START`)
    /// starts again from a full `timeout_match`, not from the last game's `time_left`.
    #[test]
    fn the_game_clock_counts_the_thinking_time_between_time_lefts() {
        let info = |s: &mut Session, key: &str, value: &str| {
            s.handle(Command::Info { key: key.into(), value: value.into() });
        };
        let left = |s: &Session| s.settings().time_control().left_ms;
        let mut s = started(15);
        assert_eq!(left(&s), None, "no timeout_match: no game clock");
        info(&mut s, "timeout_match", "3000");
        assert_eq!(left(&s), Some(3000));
        reply(&mut s, Command::Turn((7, 7)));
        let after_one = left(&s).expect("a clock");
        assert!(after_one < 3000, "the answer's time is taken off: {after_one}");
        info(&mut s, "time_left", "2500");
        assert_eq!(left(&s), Some(2500));
        reply(&mut s, Command::Turn((7, 9)));
        assert!(left(&s).expect("a clock") < 2500);
        reply(&mut s, Command::Restart);
        assert_eq!(left(&s), Some(3000), "a new game's clock is full");
        info(&mut s, "time_left", "1200");
        reply(&mut s, Command::Start { width: 15, height: 15 });
        assert_eq!(left(&s), Some(3000), "so is the clock after START");
        info(&mut s, "time_left", "2147483647");
        assert_eq!(left(&s), None, "2147483647 means no game clock");
    }

    /// mnk's table has the size the settings ask for; the classroom program, which uses
    /// none, gets the smallest.
    #[test]
    fn only_mnk_gets_the_table_the_settings_ask_for() {
        for (player, bytes) in
            [(Player::Mnk, DEFAULT_HASH_BYTES), (Player::Classroom, MIN_HASH_BYTES)]
        {
            let mut s = Session::with_player(player);
            reply(&mut s, Command::Start { width: 15, height: 15 });
            s.handle(Command::Info { key: "max_depth".into(), value: "2".into() });
            let lines = reply(&mut s, Command::Turn((7, 7)));
            assert!(matches!(lines.last(), Some(Response::Move(_))), "{player:?}: {lines:?}");
            let kept = s.tt.as_ref().map(TranspositionTable::bytes);
            assert_eq!(kept, Some(TranspositionTable::bytes_for(bytes)), "{player:?}");
        }
    }

    #[test]
    fn illegal_turns_leave_the_position_unchanged() {
        let mut s = started(15);
        reply(&mut s, Command::Turn((7, 7)));
        let before = s.game().unwrap().history();
        for bad in [(7, 7), (15, 0), (0, 99)] {
            let lines = reply(&mut s, Command::Turn(bad));
            assert!(matches!(&lines[..], [Response::Error(_)]), "{lines:?}");
            assert_eq!(s.game().unwrap().history(), before);
        }
    }

    #[test]
    fn board_infers_colours_from_counts() {
        let mut s = started(15);
        let stones = [
            BoardStone { point: (7, 7), field: 2 },
            BoardStone { point: (8, 8), field: 1 },
            BoardStone { point: (9, 9), field: 2 },
        ];
        let lines = reply(&mut s, Command::Board(stones.to_vec()));
        assert!(matches!(lines[..], [Response::Move(_)]), "{lines:?}");
        let history = s.game().unwrap().history();
        assert_eq!(&history[..3], &[(7, 7), (8, 8), (9, 9)]);
        let bad = [BoardStone { point: (7, 7), field: 1 }, BoardStone { point: (8, 8), field: 1 }];
        assert!(matches!(&reply(&mut s, Command::Board(bad.to_vec()))[..], [Response::Error(_)]));
        assert_eq!(s.game().unwrap().move_count(), 4, "unchanged after the bad BOARD");
    }

    #[test]
    fn unsupported_sizes_and_rules_are_errors() {
        let mut s = Session::new();
        assert_eq!(
            reply(&mut s, Command::Start { width: 20, height: 20 }),
            vec![Response::Error("unsupported board size 20".into())]
        );
        assert!(matches!(&reply(&mut s, Command::Begin)[..], [Response::Error(_)]));
        reply(&mut s, Command::Start { width: 15, height: 15 });
        reply(&mut s, Command::Info { key: "rule".into(), value: "3".into() });
        let lines = reply(&mut s, Command::Begin);
        assert!(
            matches!(&lines[..], [Response::Error(e)] if e.contains("unsupported rule 3")),
            "{lines:?}"
        );
    }

    #[test]
    fn takeback_undoes_only_the_last_move() {
        let mut s = started(5);
        reply(&mut s, Command::Turn((2, 2)));
        let last = s.game().unwrap().last_move().unwrap();
        assert!(matches!(&reply(&mut s, Command::Takeback((2, 2)))[..], [Response::Error(_)]));
        assert_eq!(reply(&mut s, Command::Takeback(last)), vec![Response::Ok]);
        assert_eq!(reply(&mut s, Command::Takeback((2, 2))), vec![Response::Ok]);
        assert!(matches!(&reply(&mut s, Command::Takeback((2, 2)))[..], [Response::Error(_)]));
    }

    #[test]
    fn bad_info_values_are_reported_with_the_next_move() {
        let mut s = started(3);
        reply(&mut s, Command::Info { key: "timeout_turn".into(), value: "soon".into() });
        let lines = reply(&mut s, Command::Begin);
        assert!(
            matches!(&lines[0], Response::Message(m) if m.contains("timeout_turn")),
            "{lines:?}"
        );
        assert!(matches!(lines.last(), Some(Response::Move(_))));
        assert_eq!(s.settings().turn_ms, 50, "the old value stays");
    }

    /// `thread_num` sets the search threads (clamped), keeps memory back for each extra one,
    /// and a game played with several threads still gets legal moves.
    #[test]
    fn thread_num_sets_the_threads_and_their_memory() {
        let mut s = started(15);
        let info = |s: &mut Session, value: &str| {
            s.handle(Command::Info { key: "thread_num".into(), value: value.into() });
        };
        s.handle(Command::Info { key: "max_memory".into(), value: "367001600".into() });
        // A time control under which the memory limit, not the time, sizes the table.
        let turn_ms = std::mem::replace(&mut s.settings.turn_ms, 30_000);
        let one_thread = s.settings().hash_bytes();
        for (value, threads) in [("4", 4), ("0", 1), ("100000", MAX_THREADS), ("2", 2)] {
            info(&mut s, value);
            assert_eq!(s.settings().threads, threads, "thread_num {value}");
        }
        assert_eq!(s.settings().hash_bytes(), one_thread - THREAD_RESERVE_BYTES);
        s.settings.turn_ms = turn_ms;
        info(&mut s, "many");
        assert_eq!(s.settings().threads, 2, "the old value stays");
        let mut lines = reply(&mut s, Command::Turn((7, 7)));
        assert!(matches!(&lines[0], Response::Message(m) if m.contains("thread_num")), "{lines:?}");
        for _ in 0..3 {
            let Some(&Response::Move(p)) = lines.last() else { panic!("{lines:?}") };
            let game = s.game().unwrap();
            assert_eq!(game.last_move(), Some(p));
            let history = game.history();
            let free = (0..15).flat_map(|x| (0..15).map(move |y| (x, y)));
            let next = free.filter(|q| !history.contains(q)).nth(3).unwrap();
            lines = reply(&mut s, Command::Turn(next));
        }
        assert!(matches!(lines.last(), Some(Response::Move(_))), "{lines:?}");
    }

    /// A short time control gets a table its searches can fill rather than all of
    /// `max_memory`; a long one still gets what the memory limit allows.
    #[test]
    fn the_table_is_no_larger_than_the_time_control_can_fill() {
        const MIB: usize = 1 << 20;
        let mut s = started(15);
        let info = |s: &mut Session, key: &str, value: &str| {
            s.handle(Command::Info { key: key.into(), value: value.into() });
        };
        info(&mut s, "max_memory", "367001600");
        let all_memory = 367_001_600 - MEMORY_RESERVE_BYTES;
        // 200 ms a move: at most 167 ms, 4 M nodes a second, two moves' worth of 16-byte
        // entries = 21.4 MB, rounded up to 32 MiB.
        for (turn, match_ms, threads, bytes) in [
            ("200", "0", "1", 32 * MIB),
            ("200", "0", "2", 64 * MIB),
            ("1000", "0", "1", 128 * MIB),
            // The game clock's first moves get up to 3 × 1/16 of it: 1,500 ms of 8 s.
            ("30000", "8000", "1", 256 * MIB),
            ("30000", "180000", "1", all_memory),
            ("0", "0", "1", MIN_HASH_BYTES),
        ] {
            info(&mut s, "timeout_turn", turn);
            info(&mut s, "timeout_match", match_ms);
            info(&mut s, "thread_num", threads);
            assert_eq!(s.settings().hash_bytes(), bytes, "{turn} {match_ms} {threads}");
        }
        info(&mut s, "timeout_turn", "200");
        info(&mut s, "max_memory", "20000000");
        assert_eq!(s.settings().hash_bytes(), MIN_HASH_BYTES, "the memory limit still rules");
        info(&mut s, "max_memory", "0");
        assert_eq!(s.settings().hash_bytes(), 32 * MIB, "below the 64 MiB default table");
        // The size holds through the game: time_left does not change it.
        info(&mut s, "time_left", "100");
        assert_eq!(s.settings().hash_bytes(), 32 * MIB);
    }

    #[test]
    fn small_board_extensions_solve_and_perft() {
        let mut s = started(3);
        let lines = reply(&mut s, Command::Perft(2));
        assert!(
            matches!(&lines[0], Response::Message(m) if m.starts_with("perft depth 2 time_ms"))
        );
        assert_eq!(lines[1], Response::Nodes(72));
        let solved = reply(&mut s, Command::Solve);
        assert!(matches!(&solved[..], [Response::Message(m)] if m.starts_with("value draw best")));
        let mut big = started(15);
        assert!(matches!(&reply(&mut big, Command::Solve)[..], [Response::Error(_)]));
        assert!(matches!(&reply(&mut big, Command::Perft(5))[..], [Response::Error(_)]));
    }

    #[test]
    fn yxnbest_reports_distinct_best_moves_then_plays_the_first() {
        let mut s = started(15);
        reply(&mut s, Command::Turn((7, 7)));
        let before = s.game().unwrap().move_count();
        let lines = reply(&mut s, Command::YxNbest(3));
        let [Response::Message(a), Response::Message(b), Response::Message(c), Response::Move(p)] =
            &lines[..]
        else {
            panic!("{lines:?}")
        };
        let mut roots = Vec::new();
        for (k, text) in [a, b, c].into_iter().enumerate() {
            assert!(text.starts_with(&format!("nbest {}/3 depth ", k + 1)), "{text}");
            let pv = text.split(" pv ").nth(1).expect("a pv");
            let root = pv.split(' ').next().expect("a move").to_string();
            assert!(!roots.contains(&root), "{lines:?}");
            roots.push(root);
        }
        let moves = mnk_engine::notation::parse_moves(&roots[0]).unwrap();
        assert_eq!(moves, vec![*p], "the move played is the first line's");
        let game = s.game().unwrap();
        assert_eq!((game.move_count(), game.last_move()), (before + 1, Some(*p)));

        let mut idle = Session::new();
        assert!(matches!(&reply(&mut idle, Command::YxNbest(2))[..], [Response::Error(_)]));
    }

    #[test]
    fn yxnbest_keeps_a_threat_sequence_win_as_one_of_its_lines() {
        // Black (to move) has an open three h8 i8 j8: a VCF wins before the main search.
        let mut s = started(15);
        let stone = |x, y, field| BoardStone { point: (x, y), field };
        let stones = [(7, 7, 1), (0, 0, 2), (8, 7, 1), (0, 14, 2), (9, 7, 1), (14, 0, 2)];
        let stones: Vec<BoardStone> = stones.iter().map(|&(x, y, f)| stone(x, y, f)).collect();
        assert!(reply(&mut s, Command::YxBoard(stones)).is_empty());
        let lines = reply(&mut s, Command::YxNbest(3));
        let texts: Vec<&String> = lines
            .iter()
            .filter_map(|r| match r {
                Response::Message(m) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(texts.len(), 3, "{lines:?}");
        assert!(
            texts[0].starts_with("nbest 1/3 depth ") && texts[0].contains(" ev +M"),
            "{lines:?}"
        );
        assert!(matches!(lines.last(), Some(Response::Move(_))), "{lines:?}");
    }

    #[test]
    fn an_illegal_search_move_is_replaced_by_a_legal_one() {
        let mut s = started(5);
        reply(&mut s, Command::Turn((2, 2)));
        let history = s.game().unwrap().history();
        let occupied = history[0];
        let free = (0..5)
            .flat_map(|y| (0..5).map(move |x| (x, y)))
            .find(|p| !history.contains(p))
            .unwrap();
        let job = search_job(s.handle(Command::Turn(free)));
        let mut outcome = job.run(Arc::new(AtomicBool::new(true)), &mut |_| {});
        outcome.best = Some(occupied);
        let lines = s.finish(JobOutcome::Search(outcome));
        let Some(Response::Move(played)) = lines.last() else { panic!("{lines:?}") };
        assert_ne!(*played, occupied);
        assert_eq!(s.game().unwrap().last_move(), Some(*played));
    }

    /// Idle steps until `prepare` has nothing left: how many said more was left.
    fn prepare_all(s: &mut Session) -> usize {
        let steps = std::iter::repeat_with(|| s.prepare()).take_while(|&more| more).count();
        assert!(steps < 10_000, "preparing ends");
        steps
    }

    #[test]
    fn idle_time_prepares_the_first_search_table_and_a_search_takes_it() {
        let mut s = Session::new();
        assert!(!s.prepare(), "nothing to prepare before START");
        reply(&mut s, Command::Start { width: 15, height: 15 });
        reply(&mut s, Command::Info { key: "rule".into(), value: "1".into() });
        reply(&mut s, Command::Info { key: "timeout_turn".into(), value: "200".into() });
        // The steps that leave more to do: the pattern table's, then the table's (its
        // entries and a spare bucket, 2 MiB a step) but the last.
        let touch_steps = |table: usize| (table + BUCKET_BYTES).div_ceil(TOUCH_STEP_BYTES) - 1;
        let steps = prepare_all(&mut s);
        let table = s.settings().hash_bytes();
        assert_eq!(table, 32 << 20);
        assert_eq!(steps, 1 + touch_steps(table));
        assert_eq!(s.tt_context, Some((BoardSize::Fifteen, Rule::Standard)));
        let storage = s.tt.as_ref().map(TranspositionTable::storage_bytes);
        assert_eq!(s.tt_touched, storage);
        assert!(!s.prepare(), "done");
        // New settings: a new table, prepared again.
        reply(&mut s, Command::Info { key: "timeout_turn".into(), value: "1000".into() });
        // (1 s a move asks for 128 MiB; with no max_memory the 64 MiB default caps it.)
        assert_eq!(s.settings().hash_bytes(), DEFAULT_HASH_BYTES);
        assert_eq!(prepare_all(&mut s), touch_steps(DEFAULT_HASH_BYTES));
        // The search takes the prepared table (the same size and context) and keeps it.
        let job = search_job(s.handle(Command::Turn((7, 7))));
        assert_eq!(job.tt.bytes(), DEFAULT_HASH_BYTES);
        assert_eq!(s.tt_touched, None);
        s.finish(JobOutcome::Search(job.run(Arc::new(AtomicBool::new(true)), &mut |_| {})));
        assert!(!s.prepare(), "a table a search has had is not fresh");
        assert_eq!(s.tt_context, Some((BoardSize::Fifteen, Rule::Standard)));
    }

    #[test]
    fn a_move_counts_its_time_from_when_the_command_came_in() {
        let mut s = started(15);
        let came_in = Instant::now() - std::time::Duration::from_millis(20);
        let job = search_job(s.handle_received(Command::Turn((7, 7)), came_in));
        let limit = job.limits.time.expect("a time limit");
        // 50 ms a move less the margin, less the 20 ms the command waited.
        assert!(limit <= std::time::Duration::from_millis(50 - 25 - 2 - 20), "{limit:?}");
        assert_eq!(job.started, came_in);
    }

    #[test]
    fn the_table_is_fresh_after_a_size_or_rule_change() {
        let mut s = started(3);
        reply(&mut s, Command::Begin);
        assert_eq!(s.tt_context, Some((BoardSize::Three, Rule::Freestyle)));
        reply(&mut s, Command::Start { width: 5, height: 5 });
        reply(&mut s, Command::Info { key: "rule".into(), value: "1".into() });
        reply(&mut s, Command::Begin);
        assert_eq!(s.tt_context, Some((BoardSize::Five, Rule::Standard)));
    }
}
