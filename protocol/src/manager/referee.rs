//! One refereed game. Both engines are started and asked `ABOUT`, `START` and the `INFO`
//! settings; the opening stones are placed. Then, as Gomocup managers do, each engine's
//! first move is asked for with `BEGIN` on an empty board or the position as a `BOARD`
//! block, and every later one with `TURN` and the opponent's last move. The referee is
//! mnk's own board under the chosen rule: a five (by the rule) wins and a full board draws.
//!
//! The referee is as lenient as managers are: while it waits for a move, progress lines
//! (`MESSAGE`, `DEBUG`) and lines that are neither a move nor a known reply (some engines
//! print stray bytes of their progress lines) are ignored and logged. A game is forfeited
//! only by an answer shaped like a move that is illegal (occupied, off the board, or — in
//! renju — forbidden: a foul), by a known reply that is not a move (`ERROR`, `UNKNOWN`,
//! `OK`, `SWAP`: a refusal), by a late answer or by a crash. Every result carries its
//! reason ([`GameEnd`]).

use std::fmt;
use std::time::{Duration, Instant};

use mnk_engine::color::Color;
use mnk_engine::game::Game;
use mnk_engine::notation::Point;
use mnk_engine::outcome::Outcome;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

use super::MatchError;
use super::openings::OpeningError;
use super::process::{EngineCommand, EngineError, EngineProcess};
use super::record::{GameEnd, GameRecord, GameResult};
use crate::command::{BoardStone, Command, Field, Setting};
use crate::response::Response;

/// How long an engine may take to answer `ABOUT` and `START`.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Settings of every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Board size.
    pub size: BoardSize,
    /// Rule.
    pub rule: Rule,
    /// Time per move (ms), sent as `timeout_turn`.
    pub turn_ms: u64,
    /// Time per game and player (ms), sent as `timeout_match`; 0 = none.
    pub game_ms: u64,
    /// Time the game clock gains after each move (ms), sent as `time_increment`.
    pub increment_ms: u64,
    /// Extra time granted before an answer counts as late (ms).
    pub tolerance_ms: u64,
    /// `max_memory` sent to the engines (bytes).
    pub max_memory: u64,
    /// Adjudicate a draw after this many stones, if set.
    pub max_moves: Option<usize>,
}

/// One side of a match: how to start the engine, and `INFO` settings for it alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line.
    pub command: EngineCommand,
    /// `INFO` lines sent after the game's own settings (so they can override them, for
    /// example `timeout_turn` for time odds), in order.
    pub info: Vec<Command>,
}

impl EngineSpec {
    /// An engine started by `command`, with no settings of its own.
    pub fn new(command: EngineCommand) -> EngineSpec {
        EngineSpec { command, info: Vec::new() }
    }
}

/// Why a list of `INFO` settings cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoListError {
    /// An item without `=`.
    NotKeyValue(String),
    /// A key that is not letters, digits and `_`.
    BadKey(String),
    /// A value with a line break (it would end the `INFO` line and start another command).
    LineBreak(String),
}

impl fmt::Display for InfoListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfoListError::NotKeyValue(item) => write!(f, "'{item}' is not key=value"),
            InfoListError::BadKey(key) => {
                write!(f, "bad INFO key '{key}' (letters, digits and _ only)")
            }
            InfoListError::LineBreak(key) => write!(f, "the value of {key} holds a line break"),
        }
    }
}

impl std::error::Error for InfoListError {}

/// Parses a list of `INFO` settings written `key=value,key=value` (for example
/// `thread_num=2,max_depth=12`) into the `INFO` commands to send. A key is letters, digits
/// and `_`; a value is anything but a comma or a line break (empty included).
pub fn parse_info_list(text: &str) -> Result<Vec<Command>, InfoListError> {
    text.split(',')
        .map(|item| {
            let (key, value) =
                item.split_once('=').ok_or_else(|| InfoListError::NotKeyValue(item.to_string()))?;
            let key = key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(InfoListError::BadKey(key.to_string()));
            }
            if value.contains(['\n', '\r']) {
                return Err(InfoListError::LineBreak(key.to_string()));
            }
            Ok(Command::info(key, value.trim()))
        })
        .collect()
}

fn lost(color: Color, reason: GameEnd) -> GameResult {
    GameResult { winner: Some(color.opponent()), reason }
}

/// Starts an engine and sends it the game's settings, then its own; a failure is a loss of
/// `color`.
fn prepare(
    spec: &EngineSpec,
    settings: &GameSettings,
    color: Color,
) -> Result<Result<EngineProcess, GameResult>, MatchError> {
    let mut engine = EngineProcess::spawn(&spec.command).map_err(MatchError::EngineStart)?;
    let setup = (|| -> Result<Option<GameEnd>, EngineError> {
        engine.identify(STARTUP_TIMEOUT)?;
        let (width, height) = (settings.size.width(), settings.size.height());
        engine.send(&Command::Start { width, height })?;
        let answer = engine.answer(STARTUP_TIMEOUT)?;
        if answer != "OK" {
            return Ok(Some(GameEnd::StartRefused(answer)));
        }
        let mut info = vec![
            Setting::TimeoutTurn(settings.turn_ms),
            Setting::TimeoutMatch(settings.game_ms),
            Setting::TimeIncrement(settings.increment_ms),
            Setting::MaxMemory(settings.max_memory),
            Setting::Rule(settings.rule.protocol_code()),
            Setting::Ignored("game_type".into(), "1".into()),
        ];
        // (No increment is the protocol's default: engines that predate the key never see
        // it then.)
        info.retain(|setting| *setting != Setting::TimeIncrement(0));
        for setting in info {
            engine.send(&Command::Info(setting))?;
        }
        for command in &spec.info {
            engine.send(command)?;
        }
        Ok(None)
    })();
    Ok(match setup {
        Ok(None) => Ok(engine),
        Ok(Some(refusal)) => Err(lost(color, refusal)),
        Err(e) => Err(lost(color, GameEnd::StartFailed(e))),
    })
}

/// Plays one game from `opening`; `engines[0]` plays black. An engine that cannot be
/// started ([`MatchError::EngineStart`]) or does not get through the set-up — exits,
/// answers `START` with anything but `OK` ([`MatchError::SetupFailed`]) — plays no game.
pub fn play_game(
    engines: [&EngineSpec; 2],
    settings: &GameSettings,
    opening: &[Point],
) -> Result<GameRecord, MatchError> {
    let game = Game::from_points(settings.size, settings.rule, opening)
        .map_err(|e| MatchError::BadOpening(OpeningError::Illegal(e.to_string())))?;
    if game.outcome().is_decided() {
        return Err(MatchError::BadOpening(OpeningError::Decided));
    }
    let mut game = game;
    let mut moves: Vec<(Point, u64)> = opening.iter().map(|&p| (p, 0)).collect();
    let black = prepare(engines[0], settings, Color::Black)?;
    let white = prepare(engines[1], settings, Color::White)?;
    let mut processes = match (black, white) {
        (Ok(b), Ok(w)) => vec![b, w],
        (black, white) => {
            // An engine that cannot get through the set-up plays no game: the match stops
            // instead of scoring forfeits that say nothing about its play.
            let color = if black.is_err() { Color::Black } else { Color::White };
            let engine = engines[color.index()].command.program_name();
            let mut reason = None;
            for prepared in [black, white] {
                match prepared {
                    Ok(process) => process.quit(),
                    Err(result) => {
                        reason.get_or_insert(result.reason);
                    }
                }
            }
            let reason = reason.expect("one engine failed");
            return Err(MatchError::SetupFailed { engine, reason });
        }
    };
    let names = [processes[0].name.clone(), processes[1].name.clone()];
    let result = referee(&mut processes, settings, &mut game, &mut moves);
    for engine in processes {
        engine.quit();
    }
    Ok(GameRecord { names, moves, opening_len: opening.len(), rule: settings.rule, result })
}

fn referee(
    engines: &mut [EngineProcess],
    settings: &GameSettings,
    game: &mut Game,
    moves: &mut Vec<(Point, u64)>,
) -> GameResult {
    let mut clock_ms = [settings.game_ms as i64; 2];
    // How many of the moves each engine has been told (its first request tells it all).
    let mut told = [None::<usize>; 2];
    let crashed = || GameEnd::Crashed(EngineError::Crashed);
    loop {
        match game.outcome() {
            Outcome::Win(color) => {
                return GameResult { winner: Some(color), reason: GameEnd::Five };
            }
            Outcome::Draw => return GameResult { winner: None, reason: GameEnd::FullBoard },
            Outcome::Ongoing => {}
        }
        if settings.max_moves.is_some_and(|m| game.move_count() >= m) {
            return GameResult { winner: None, reason: GameEnd::MoveLimit };
        }
        let color = game.side_to_move();
        let engine = &mut engines[color.index()];
        let mut allowed = settings.turn_ms;
        if settings.game_ms > 0 {
            let left = clock_ms[color.index()].max(0);
            allowed = allowed.min(left.unsigned_abs());
            if engine.send(&Command::Info(Setting::TimeLeft(left))).is_err() {
                return lost(color, crashed());
            }
        }
        let request = move_request(moves, color, told[color.index()]);
        if engine.send(&request).is_err() {
            return lost(color, crashed());
        }
        let sent = Instant::now();
        let timeout = allowed + settings.tolerance_ms;
        let answer = read_move(engine, Duration::from_millis(timeout));
        let took = sent.elapsed().as_millis() as u64;
        let point = match answer {
            Ok(MoveReply::Move(Ok(point))) => point,
            Ok(MoveReply::Move(Err(text))) => {
                return lost(color, GameEnd::OffAnyBoard(truncate(&text)));
            }
            Ok(MoveReply::Refusal(text)) => return lost(color, GameEnd::Refused(truncate(&text))),
            Ok(MoveReply::Noise) => unreachable!("read_move skips noise"),
            Err(EngineError::Timeout) => return lost(color, GameEnd::Timeout { ms: timeout }),
            Err(e) => return lost(color, GameEnd::Crashed(e)),
        };
        if let Err(error) = game.try_play(point) {
            return lost(color, GameEnd::IllegalMove { point, error });
        }
        moves.push((point, took));
        told[color.index()] = Some(moves.len());
        if settings.game_ms > 0 {
            clock_ms[color.index()] -= took as i64;
            if clock_ms[color.index()] < -(settings.tolerance_ms as i64) {
                return lost(color, GameEnd::ClockRanOut);
            }
            clock_ms[color.index()] += settings.increment_ms as i64;
        }
    }
}

/// An engine seated at a board that changes between its moves (the web board): started when
/// first asked, kept running while the board and rule stay the same, and asked each move
/// with the whole position (`BEGIN` on an empty board, else `BOARD`). Each answer is refereed
/// as in a match: a late, illegal or refused answer forfeits, and the process is stopped so
/// that the next request starts it again.
pub struct Seat {
    spec: EngineSpec,
    running: Option<(EngineProcess, GameSettings)>,
}

/// A seated engine's move and the milliseconds it took.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SeatMove {
    /// The move (legal in the position asked about).
    pub point: Point,
    /// Milliseconds from the request to the answer.
    pub ms: u64,
}

impl Seat {
    /// A seat for the engine `spec` starts; nothing is started yet.
    pub fn new(spec: EngineSpec) -> Seat {
        Seat { spec, running: None }
    }

    /// The engine's `ABOUT` name once it has been started.
    pub fn name(&self) -> Option<&str> {
        self.running.as_ref().map(|(process, _)| process.name.as_str())
    }

    /// The engine's move in `game` (whose side to move it plays) within `turn_ms`, with
    /// `tolerance_ms` more before the answer is late. An `Err` is why it forfeits.
    pub fn play(
        &mut self,
        game: &Game,
        turn_ms: u64,
        tolerance_ms: u64,
    ) -> Result<SeatMove, GameEnd> {
        let settings = GameSettings {
            size: game.size(),
            rule: game.rule(),
            turn_ms,
            game_ms: 0,
            increment_ms: 0,
            tolerance_ms,
            max_memory: 367_001_600,
            max_moves: None,
        };
        let color = game.side_to_move();
        let same = |s: &GameSettings| {
            (s.size, s.rule, s.turn_ms, s.tolerance_ms)
                == (game.size(), game.rule(), turn_ms, tolerance_ms)
        };
        if self.running.as_ref().is_some_and(|(_, s)| !same(s)) {
            self.stop();
        }
        if self.running.is_none() {
            let process = match prepare(&self.spec, &settings, color) {
                Ok(Ok(process)) => process,
                Ok(Err(result)) => return Err(result.reason),
                Err(MatchError::EngineStart(e)) => return Err(GameEnd::StartFailed(e)),
                Err(MatchError::BadOpening(_) | MatchError::SetupFailed { .. }) => {
                    unreachable!("prepare places no opening and scores a failed set-up")
                }
            };
            self.running = Some((process, settings.clone()));
        }
        let (process, _) = self.running.as_mut().expect("started above");
        let moves: Vec<(Point, u64)> = game.history().into_iter().map(|p| (p, 0)).collect();
        let answer = process.send(&move_request(&moves, color, None)).and_then(|()| {
            let sent = Instant::now();
            let reply = read_move(process, Duration::from_millis(turn_ms + tolerance_ms));
            reply.map(|reply| (reply, sent.elapsed().as_millis() as u64))
        });
        let refereed = match answer {
            Ok((MoveReply::Move(Ok(point)), ms)) => match game.clone().try_play(point) {
                Ok(_) => Ok(SeatMove { point, ms }),
                Err(error) => Err(GameEnd::IllegalMove { point, error }),
            },
            Ok((MoveReply::Move(Err(text)), _)) => Err(GameEnd::OffAnyBoard(truncate(&text))),
            Ok((MoveReply::Refusal(text), _)) => Err(GameEnd::Refused(truncate(&text))),
            Ok((MoveReply::Noise, _)) => unreachable!("read_move skips noise"),
            Err(EngineError::Timeout) => Err(GameEnd::Timeout { ms: turn_ms + tolerance_ms }),
            Err(e) => Err(GameEnd::Crashed(e)),
        };
        if refereed.is_err() {
            self.stop();
        }
        refereed
    }

    /// Ends the engine's process, if one runs.
    pub fn stop(&mut self) {
        if let Some((process, _)) = self.running.take() {
            process.quit();
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The command that asks the engine of `color` for a move, as a manager asks: `BEGIN` on
/// an empty board, `TURN` with the opponent's move when that is all the engine has not
/// been told (`told`: how many of the moves it knows, `None` before its first move), and
/// otherwise the whole position as a `BOARD` block.
fn move_request(moves: &[(Point, u64)], color: Color, told: Option<usize>) -> Command {
    match moves.last() {
        None => Command::Begin,
        Some(&(last, _)) if told == Some(moves.len() - 1) => Command::Turn(last),
        Some(_) => Command::Board(
            moves
                .iter()
                .enumerate()
                .map(|(i, &(point, _))| {
                    let own = (i % 2 == 0) == (color == Color::Black);
                    BoardStone { point, field: if own { Field::Own } else { Field::Opponent } }
                })
                .collect(),
        ),
    }
}

/// What a line means to a referee waiting for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
enum MoveReply {
    /// A line shaped like a move, `x,y`: the point, or the text if its numbers cannot be a
    /// cell of any board (negative or huge).
    Move(Result<Point, String>),
    /// A known reply that is not a move: `OK`, `ERROR …`, `UNKNOWN …`, `SWAP`.
    Refusal(String),
    /// Anything else (a progress line's stray bytes, say): ignored.
    Noise,
}

impl MoveReply {
    /// Classifies one answer line (already trimmed, not a `MESSAGE`/`DEBUG` line).
    fn of(line: &str) -> MoveReply {
        // (Leniently: `7 , 8` too.)
        if let Ok(point) = line.parse::<Point>() {
            return MoveReply::Move(Ok(point));
        }
        match line.parse::<Response>() {
            Ok(Response::Move(point)) => MoveReply::Move(Ok(point)),
            Ok(Response::Ok | Response::Error(_) | Response::Unknown(_) | Response::Swap) => {
                MoveReply::Refusal(line.to_string())
            }
            Ok(_) => MoveReply::Noise,
            // Two integers, one negative or too large for any board.
            Err(_) => {
                let number = |s: &str| {
                    let digits = s.trim().strip_prefix('-').unwrap_or(s.trim());
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                };
                match line.split_once(',') {
                    Some((x, y)) if number(x) && number(y) => {
                        MoveReply::Move(Err(line.to_string()))
                    }
                    _ => MoveReply::Noise,
                }
            }
        }
    }
}

/// The engine's answer to a move request within `timeout`, ignoring (and logging) the lines
/// that are neither a move nor a known reply.
fn read_move(engine: &mut EngineProcess, timeout: Duration) -> Result<MoveReply, EngineError> {
    let deadline = Instant::now() + timeout;
    loop {
        let line = engine.answer(deadline.saturating_duration_since(Instant::now()))?;
        match MoveReply::of(&line) {
            MoveReply::Noise => log::warn!("{}: ignored {:?}", engine.name, truncate(&line)),
            reply => return Ok(reply),
        }
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_moves_refusals_or_noise() {
        assert_eq!(MoveReply::of("7,8"), MoveReply::Move(Ok(Point::new(7, 8))));
        assert_eq!(MoveReply::of("7 , 8"), MoveReply::Move(Ok(Point::new(7, 8))));
        assert_eq!(MoveReply::of("-1,3"), MoveReply::Move(Err("-1,3".into())));
        assert_eq!(MoveReply::of("99999,3"), MoveReply::Move(Err("99999,3".into())));
        assert_eq!(MoveReply::of("ERROR bad board"), MoveReply::Refusal("ERROR bad board".into()));
        assert_eq!(MoveReply::of("SWAP"), MoveReply::Refusal("SWAP".into()));
        // PentaZen's progress line split by its raw depth byte, and other stray text.
        for noise in ["-\u{10} ev -40 nd 33k", "hello there", "7,8,9", "7,x", "depth 3"] {
            assert_eq!(MoveReply::of(noise), MoveReply::Noise, "{noise:?}");
        }
    }

    #[test]
    fn engines_are_asked_as_managers_ask() {
        let p = Point::new;
        let moves = [(p(7, 7), 0), (p(8, 8), 0), (p(9, 9), 10)];
        assert_eq!(move_request(&[], Color::Black, None).to_string(), "BEGIN");
        assert_eq!(
            move_request(&moves, Color::White, None).to_string(),
            "BOARD\n7,7,2\n8,8,1\n9,9,2\nDONE"
        );
        assert_eq!(move_request(&moves, Color::White, Some(2)).to_string(), "TURN 9,9");
    }

    #[test]
    fn info_lists_parse_into_ordered_settings_and_bad_ones_are_refused() {
        let sent: Vec<String> =
            parse_info_list("thread_num=2, max_depth = 12,folder=/tmp/a b,evaluate=")
                .unwrap()
                .iter()
                .map(Command::to_string)
                .collect();
        assert_eq!(
            sent,
            ["INFO thread_num 2", "INFO max_depth 12", "INFO folder /tmp/a b", "INFO evaluate"]
        );
        for bad in ["", "thread_num", "=2", "thread num=2", "a=1,,b=2", "key=a\nSTART 5"] {
            assert!(parse_info_list(bad).is_err(), "{bad:?}");
        }
    }
}
