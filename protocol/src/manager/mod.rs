//! The manager side of the protocol: playing refereed games between two pbrain engines.
//!
//! A game: both engines are started and asked `ABOUT`, `START` and the `INFO` settings; the
//! opening stones are placed. Then, as Gomocup managers do, each engine's first move is asked
//! for with `BEGIN` on an empty board or the position as a `BOARD` block, and every later one
//! with `TURN` and the opponent's last move. The referee is mnk's own board under the chosen
//! rule: a five (by the rule) wins and a full board draws.
//!
//! The referee is as lenient as managers are: while it waits for a move, progress lines
//! (`MESSAGE`, `DEBUG`) and lines that are neither a move nor a known reply (some engines
//! print stray bytes of their progress lines) are ignored and logged. A game is forfeited
//! only by an answer shaped like a move that is illegal (occupied, off the board, or — in
//! renju — forbidden: a foul), by a known reply that is not a move (`ERROR`, `UNKNOWN`,
//! `OK`, `SWAP`: a refusal), by a late answer or by a crash. Every result carries its reason.

pub mod engine;
pub mod stats;

use std::fmt;
use std::time::{Duration, Instant};

use mnk_engine::board::IllegalMove;
use mnk_engine::color::Color;
use mnk_engine::limits::Limits;
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::score::Score;
use mnk_engine::search;
use mnk_engine::size::BoardSize;
use mnk_engine::tt::TranspositionTable;

use crate::command::{Point, parse_point};
use engine::{EngineCommand, EngineError, EngineProcess};
use mnk_engine::game::Game;

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

impl GameSettings {
    /// The protocol's `rule` code.
    pub fn rule_code(&self) -> u32 {
        match self.rule {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why, in words (`five`, `full board`, `timeout`, `illegal move 7,7: ...`, ...).
    pub reason: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Black's name (from `ABOUT`) and white's.
    pub names: [String; 2],
    /// The opening stones, then the moves with the time each took (0 for the opening).
    pub moves: Vec<(Point, u64)>,
    /// Stones of the opening at the start of `moves`.
    pub opening_len: usize,
    /// The result.
    pub result: GameResult,
}

/// A problem that stops the whole match (not just one game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// An engine could not be started.
    EngineStart(String),
    /// An opening is not a legal position.
    BadOpening(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::EngineStart(e) => write!(f, "engine failed to start: {e}"),
            MatchError::BadOpening(e) => write!(f, "bad opening: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

fn lost(color: Color, reason: impl Into<String>) -> GameResult {
    GameResult { winner: Some(color.opponent()), reason: reason.into() }
}

/// One side of a match: how to start the engine, and `INFO` settings for it alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line.
    pub command: EngineCommand,
    /// `INFO key value` lines sent after the game's own settings (so they can override
    /// them, for example `timeout_turn` for time odds), in order.
    pub info: Vec<(String, String)>,
}

impl EngineSpec {
    /// An engine started by `command`, with no settings of its own.
    pub fn new(command: EngineCommand) -> EngineSpec {
        EngineSpec { command, info: Vec::new() }
    }
}

/// Parses a list of `INFO` settings written `key=value,key=value` (for example
/// `thread_num=2,max_depth=12`). A key is letters, digits and `_`; a value is anything
/// but a comma or a line break (empty included).
pub fn parse_info_list(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(|item| {
            let (key, value) =
                item.split_once('=').ok_or_else(|| format!("'{item}' is not key=value"))?;
            let key = key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("bad INFO key '{key}' (letters, digits and _ only)"));
            }
            if value.contains(['\n', '\r']) {
                return Err(format!("the value of {key} holds a line break"));
            }
            Ok((key.to_string(), value.trim().to_string()))
        })
        .collect()
}

/// Starts an engine and sends it the game's settings, then its own; a failure is a loss of
/// `color`.
fn prepare(
    spec: &EngineSpec,
    settings: &GameSettings,
    color: Color,
) -> Result<Result<EngineProcess, GameResult>, MatchError> {
    let mut engine =
        EngineProcess::spawn(&spec.command).map_err(|e| MatchError::EngineStart(e.to_string()))?;
    let setup = (|| -> Result<Option<String>, EngineError> {
        engine.identify(STARTUP_TIMEOUT)?;
        let size = settings.size;
        engine.send(&if size.is_square() {
            format!("START {}", size.width())
        } else {
            format!("RECTSTART {},{}", size.width(), size.height())
        })?;
        let answer = engine.answer(STARTUP_TIMEOUT)?;
        if answer != "OK" {
            return Ok(Some(format!("START answered {answer:?}")));
        }
        for (key, value) in [
            ("timeout_turn", settings.turn_ms),
            ("timeout_match", settings.game_ms),
            ("time_increment", settings.increment_ms),
            ("max_memory", settings.max_memory),
            ("rule", u64::from(settings.rule_code())),
            ("game_type", 1),
        ] {
            // (No increment is the protocol's default: engines that predate the key never
            // see it then.)
            if key != "time_increment" || value > 0 {
                engine.send(&format!("INFO {key} {value}"))?;
            }
        }
        for (key, value) in &spec.info {
            engine.send(&format!("INFO {key} {value}"))?;
        }
        Ok(None)
    })();
    Ok(match setup {
        Ok(None) => Ok(engine),
        Ok(Some(refusal)) => Err(lost(color, refusal)),
        Err(e) => Err(lost(color, format!("start-up: {e}"))),
    })
}

/// Plays one game; `engines[0]` plays black.
pub fn play_game(
    engines: [&EngineSpec; 2],
    settings: &GameSettings,
    opening: &[Point],
) -> Result<GameRecord, MatchError> {
    let mut game = Game::new(settings.size, settings.rule);
    for &p in opening {
        game.try_play(p).map_err(|e| MatchError::BadOpening(format!("{},{}: {e}", p.0, p.1)))?;
    }
    if game.outcome().is_decided() {
        return Err(MatchError::BadOpening("the opening already decides the game".to_string()));
    }
    let mut moves: Vec<(Point, u64)> = opening.iter().map(|&p| (p, 0)).collect();
    let black = prepare(engines[0], settings, Color::Black)?;
    let white = prepare(engines[1], settings, Color::White)?;
    let mut names = engines.map(|spec| spec.command.to_string());
    let mut engines = Vec::new();
    let early = match (black, white) {
        (Ok(b), Ok(w)) => {
            names = [b.name.clone(), w.name.clone()];
            engines.push(b);
            engines.push(w);
            None
        }
        (Err(result), _) | (_, Err(result)) => Some(result),
    };
    let result = match early {
        Some(result) => result,
        None => referee(&mut engines, settings, &mut game, &mut moves),
    };
    for engine in engines {
        engine.quit();
    }
    Ok(GameRecord { names, moves, opening_len: opening.len(), result })
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
    loop {
        match game.outcome() {
            Outcome::Win(color) => {
                return GameResult { winner: Some(color), reason: "five".to_string() };
            }
            Outcome::Draw => return GameResult { winner: None, reason: "full board".to_string() },
            Outcome::Ongoing => {}
        }
        if settings.max_moves.is_some_and(|m| game.move_count() >= m) {
            return GameResult { winner: None, reason: "adjudicated: move limit".to_string() };
        }
        let color = game.side_to_move();
        let engine = &mut engines[color.index()];
        let mut allowed = settings.turn_ms;
        if settings.game_ms > 0 {
            let left = clock_ms[color.index()].max(0) as u64;
            allowed = allowed.min(left);
            if engine.send(&format!("INFO time_left {left}")).is_err() {
                return lost(color, "crash: the engine exited");
            }
        }
        let request = move_request(moves, color, told[color.index()]);
        if request.iter().any(|line| engine.send(line).is_err()) {
            return lost(color, "crash: the engine exited");
        }
        let sent = Instant::now();
        let timeout = allowed + settings.tolerance_ms;
        let answer = read_move(engine, Duration::from_millis(timeout));
        let took = sent.elapsed().as_millis() as u64;
        let point = match answer {
            Ok(MoveReply::Move(Ok(point))) => point,
            Ok(MoveReply::Move(Err(text))) => {
                return lost(color, format!("illegal move {}: off the board", truncate(&text)));
            }
            Ok(MoveReply::Refusal(text)) => {
                return lost(color, format!("refused: answered {:?}", truncate(&text)));
            }
            Ok(MoveReply::Noise) => unreachable!("read_move skips noise"),
            Err(EngineError::Timeout) => {
                return lost(color, format!("timeout: no move within {timeout} ms"));
            }
            Err(e) => return lost(color, format!("crash: {e}")),
        };
        if let Err(e) = game.try_play(point) {
            let foul = matches!(e, mnk_engine::board::IllegalMove::Forbidden { .. });
            let kind = if foul { "foul" } else { "illegal move" };
            return lost(color, format!("{kind} {},{}: {e}", point.0, point.1));
        }
        moves.push((point, took));
        told[color.index()] = Some(moves.len());
        if settings.game_ms > 0 {
            clock_ms[color.index()] -= took as i64;
            if clock_ms[color.index()] < -(settings.tolerance_ms as i64) {
                return lost(color, "time forfeit: the game clock ran out");
            }
            clock_ms[color.index()] += settings.increment_ms as i64;
        }
    }
}

/// The lines that ask the engine of `color` for a move, as a manager asks: `BEGIN` on an
/// empty board, `TURN` with the opponent's move when that is all the engine has not been
/// told (`told`: how many of the moves it knows, `None` before its first move), and
/// otherwise the whole position as a `BOARD` block.
fn move_request(moves: &[(Point, u64)], color: Color, told: Option<usize>) -> Vec<String> {
    if moves.is_empty() {
        return vec!["BEGIN".to_string()];
    }
    if told == Some(moves.len() - 1) {
        let (x, y) = moves[moves.len() - 1].0;
        return vec![format!("TURN {x},{y}")];
    }
    let mut request = vec!["BOARD".to_string()];
    for (i, (p, _)) in moves.iter().enumerate() {
        let own = (i % 2 == 0) == (color == Color::Black);
        request.push(format!("{},{},{}", p.0, p.1, if own { 1 } else { 2 }));
    }
    request.push("DONE".to_string());
    request
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
        let number = |s: &str| {
            let digits = s.trim().strip_prefix('-').unwrap_or(s.trim());
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        };
        if let Some((x, y)) = line.split_once(',')
            && number(x)
            && number(y)
        {
            return MoveReply::Move(parse_point(line).map_err(|_| line.to_string()));
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if ["OK", "ERROR", "UNKNOWN", "SWAP"].contains(&word) {
            MoveReply::Refusal(line.to_string())
        } else {
            MoveReply::Noise
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

/// Parses an opening line: "pos" notation (`h8i9j8`) or offsets from the centre
/// (`0,0, 1,0, 0,1`, black first).
pub fn parse_opening(line: &str, size: BoardSize) -> Result<Vec<Point>, String> {
    if line.chars().any(|c| c.is_ascii_alphabetic()) {
        return mnk_engine::notation::parse_moves(line).map_err(|e| e.to_string());
    }
    let numbers: Result<Vec<i64>, _> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::parse::<i64>)
        .collect();
    let numbers = numbers.map_err(|_| format!("not an opening: {line:?}"))?;
    if numbers.len() % 2 != 0 {
        return Err(format!("odd number of offsets: {line:?}"));
    }
    let centre = ((size.width() / 2) as i64, (size.height() / 2) as i64);
    numbers
        .chunks_exact(2)
        .map(|p| {
            let (x, y) = (centre.0 + p[0], centre.1 + p[1]);
            if x < 0 || y < 0 {
                Err(format!("offset {},{} leaves the board", p[0], p[1]))
            } else {
                Ok((x as usize, y as usize))
            }
        })
        .collect()
}

/// A random opening of `stones` stones within two cells of the centre (on 3×3: anywhere),
/// one that decides nothing and leaves no immediate win; deterministic for a seed.
pub fn random_opening(
    rng: &mut SplitMix64,
    size: BoardSize,
    rule: Rule,
    stones: usize,
) -> Vec<Point> {
    let (width, height) = (size.width(), size.height());
    let (rx, ry) = (width.min(5), height.min(5));
    let (low_x, low_y) = ((width - rx) / 2, (height - ry) / 2);
    loop {
        let mut game = Game::new(size, rule);
        let mut points = Vec::new();
        while points.len() < stones {
            let p = (low_x + rng.below(rx), low_y + rng.below(ry));
            if game.try_play(p).is_ok() {
                points.push(p);
            }
        }
        if game.outcome() == Outcome::Ongoing && points.len() < width * height {
            return points;
        }
    }
}

/// Transposition-table size of [`opening_score`]'s searches, in bytes.
pub const OPENING_SCORE_TABLE_BYTES: usize = 16 << 20;

/// mnk's score of the position after `opening`, for the side to move: a search limited to
/// `nodes`, with one thread and a fresh table, so the same opening always gets the same score.
/// A balanced opening is one whose score is near 0. Fails if a move of `opening` is illegal.
pub fn opening_score(
    size: BoardSize,
    rule: Rule,
    opening: &[Point],
    nodes: u64,
) -> Result<Score, IllegalMove> {
    let mut game = Game::new(size, rule);
    for &point in opening {
        game.try_play(point)?;
    }
    let mut tt = TranspositionTable::with_bytes(OPENING_SCORE_TABLE_BYTES);
    let limits = Limits::nodes(nodes);
    Ok(mnk_engine::with_game!(&game, b => search::search(b, &mut tt, limits, &mut |_| {}).score()))
}

/// The game in SGF (`GM[4]`), moves as `B[hh]` with letters for x then y.
pub fn to_sgf(record: &GameRecord, size: BoardSize) -> String {
    let result = match record.result.winner {
        Some(Color::Black) => "B+".to_string(),
        Some(Color::White) => "W+".to_string(),
        None => "0".to_string(),
    };
    let board = if size.is_square() {
        size.width().to_string()
    } else {
        format!("{}:{}", size.width(), size.height())
    };
    let mut sgf = format!(
        "(;GM[4]FF[4]SZ[{board}]PB[{}]PW[{}]RE[{}]C[{}]",
        escape(&record.names[0]),
        escape(&record.names[1]),
        result,
        escape(&record.result.reason)
    );
    for (i, ((x, y), _)) in record.moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        sgf.push_str(&format!(
            ";{colour}[{}{}]",
            (b'a' + *x as u8) as char,
            (b'a' + *y as u8) as char
        ));
    }
    sgf.push_str(")\n");
    sgf
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// The game in Piskvork's PSQ format: a header, then `x,y,time_ms` per move, 1-based.
pub fn to_psq(record: &GameRecord, size: BoardSize) -> String {
    let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", size.width(), size.height());
    for ((x, y), ms) in &record.moves {
        psq.push_str(&format!("{},{},{}\n", x + 1, y + 1, ms));
    }
    psq.push_str(&format!("{}\n{}\n", record.names[0], record.names[1]));
    psq
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::score::is_decisive;

    #[test]
    fn answers_are_moves_refusals_or_noise() {
        assert_eq!(MoveReply::of("7,8"), MoveReply::Move(Ok((7, 8))));
        assert_eq!(MoveReply::of("7 , 8"), MoveReply::Move(Ok((7, 8))));
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
        let moves = [((7, 7), 0), ((8, 8), 0), ((9, 9), 10)];
        assert_eq!(move_request(&[], Color::Black, None), ["BEGIN"]);
        assert_eq!(
            move_request(&moves, Color::White, None),
            ["BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE"]
        );
        assert_eq!(move_request(&moves, Color::White, Some(2)), ["TURN 9,9"]);
    }

    #[test]
    fn openings_parse_in_both_notations() {
        assert_eq!(parse_opening("h8i9j8", BoardSize::FIFTEEN), Ok(vec![(7, 7), (8, 8), (9, 7)]));
        assert_eq!(
            parse_opening("0,0, 1,0, -1,1", BoardSize::FIFTEEN),
            Ok(vec![(7, 7), (8, 7), (6, 8)])
        );
        assert!(parse_opening("0,0, 1", BoardSize::FIFTEEN).is_err());
        assert!(parse_opening("-9,0", BoardSize::FIFTEEN).is_err());
    }

    #[test]
    fn info_lists_parse_into_ordered_pairs_and_bad_ones_are_refused() {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(
            parse_info_list("thread_num=2, max_depth = 12,folder=/tmp/a b,evaluate="),
            Ok(vec![
                pair("thread_num", "2"),
                pair("max_depth", "12"),
                pair("folder", "/tmp/a b"),
                pair("evaluate", "")
            ])
        );
        for bad in ["", "thread_num", "=2", "thread num=2", "a=1,,b=2", "key=a\nSTART 5"] {
            assert!(parse_info_list(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn random_openings_are_deterministic_and_open() {
        let mut a = SplitMix64::new(5);
        let mut b = SplitMix64::new(5);
        for _ in 0..20 {
            let o = random_opening(&mut a, BoardSize::FIFTEEN, Rule::Renju, 3);
            assert_eq!(o, random_opening(&mut b, BoardSize::FIFTEEN, Rule::Renju, 3));
            assert!(o.iter().all(|&(x, y)| (5..10).contains(&x) && (5..10).contains(&y)));
        }
        let small = random_opening(&mut a, BoardSize::THREE, Rule::Freestyle, 1);
        assert_eq!(small.len(), 1);
    }

    #[test]
    fn opening_scores_repeat_and_see_who_is_ahead() {
        let score = |moves: &str| {
            let points = parse_opening(moves, BoardSize::FIFTEEN).unwrap();
            opening_score(BoardSize::FIFTEEN, Rule::Freestyle, &points, 20_000).unwrap()
        };
        // Black to move with an open three (white's stones far away): a win.
        let ahead = score("h8a1i8a15j8a14");
        assert!(is_decisive(ahead) && ahead > 0, "{ahead}");
        // A quiet opening: the same score every time, and no win for either side.
        let quiet = score("h8i9j8");
        assert_eq!(quiet, score("h8i9j8"));
        assert!(!is_decisive(quiet), "{quiet}");
        let illegal = parse_opening("h8h8", BoardSize::FIFTEEN).unwrap();
        assert!(opening_score(BoardSize::FIFTEEN, Rule::Freestyle, &illegal, 1_000).is_err());
    }

    #[test]
    fn records_print_as_sgf_and_psq() {
        let record = GameRecord {
            names: ["mnk".into(), "other]".into()],
            moves: vec![((7, 7), 0), ((8, 8), 12)],
            opening_len: 1,
            result: GameResult { winner: Some(Color::White), reason: "timeout".into() },
        };
        assert_eq!(
            to_sgf(&record, BoardSize::FIFTEEN),
            "(;GM[4]FF[4]SZ[15]PB[mnk]PW[other\\]]RE[W+]C[timeout];B[hh];W[ii])\n"
        );
        assert_eq!(
            to_psq(&record, BoardSize::FIFTEEN),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\nmnk\nother]\n"
        );
    }
}
