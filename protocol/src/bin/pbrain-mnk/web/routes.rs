//! The web board's routes. Every body is JSON; every refusal is `{"error": "..."}` with a
//! 4xx status, and leaves nothing changed (the server keeps no game).
//!
//! | route | body | answer |
//! |---|---|---|
//! | `GET /`, `/board.js`, `/board.css` | | the page |
//! | `GET /api/config` | | rules, engines to seat, limits |
//! | `POST /api/position` | size, rule, moves | side to move, result, forbidden points, the winning five |
//! | `POST /api/think` | position, seat, level, time_ms or nodes, nbest | the seat's move (mnk's with its analysis) or why it forfeits |
//! | `GET /api/progress` | | mnk's search under way: its position and last completed iteration |
//! | `POST /api/stop` | | stops mnk's searches under way or queued: each answers its best move so far |
//! | `POST /api/load` | text (SGF or PSQ), game (of a collection) | size, rule, moves, names, game, games |
//! | `POST /api/save` | position, format (`sgf` or `psq`), names | text, file name |
//!
//! A position is `size` (`"15"` or `"20x15"`), `rule` (`"renju"`) and `moves` (a move list
//! in either notation, `"h8 i9"`); the answers write moves in pos notation (`h8`).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Json, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use mnk_engine::board::PositionError;
use mnk_engine::color::Color;
use mnk_engine::engine::MAX_NBEST;
use mnk_engine::game::Game;
use mnk_engine::limits::{Limits, StopFlag};
use mnk_engine::notation::{Point, format_pos, parse_moves};
use mnk_engine::outcome::Outcome;
use mnk_engine::report::SearchInfo;
use mnk_engine::rules::Rule;
use mnk_engine::score::format_score;
use mnk_engine::size::BoardSize;
use mnk_engine::strength::{Level, Strength};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{AppState, lock};
use crate::analysis::{Analysis, duration_ms, win_chance};
use crate::explain::illegal_in_list;
use mnk_protocol::gamefile::{self, GameFile};

/// The name of mnk's own seat.
pub(crate) const MNK: &str = "mnk";
/// The longest search a request may ask for, in milliseconds.
const MAX_TIME_MS: u64 = 60_000;
/// [`MAX_TIME_MS`] as a duration.
const MAX_TIME: Duration = Duration::from_millis(MAX_TIME_MS);
/// The most nodes a request may ask for.
const MAX_NODES: u64 = 100_000_000;
/// Milliseconds a seated engine may answer late before it forfeits.
const TOLERANCE_MS: u64 = 1_000;

const INDEX_HTML: &str = include_str!("assets/index.html");
const BOARD_JS: &str = include_str!("assets/board.js");
const BOARD_CSS: &str = include_str!("assets/board.css");

/// The routes (state and the origin check are added by the caller).
pub(crate) fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| async { page("text/html; charset=utf-8", INDEX_HTML) }))
        .route("/board.js", get(|| async { page("text/javascript; charset=utf-8", BOARD_JS) }))
        .route("/board.css", get(|| async { page("text/css; charset=utf-8", BOARD_CSS) }))
        .route("/api/config", get(config))
        .route("/api/position", post(position))
        .route("/api/think", post(think))
        .route("/api/progress", get(progress))
        .route("/api/stop", post(stop))
        .route("/api/load", post(load))
        .route("/api/save", post(save))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or route".into()) })
        .method_not_allowed_fallback(|| async {
            error(StatusCode::METHOD_NOT_ALLOWED, "this route does not take that method".into())
        })
}

fn page(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
        .into_response()
}

/// A refusal: `{"error": message}` with `status`.
pub(crate) fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// Why a request is refused.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }

    fn unplayable(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::UNPROCESSABLE_ENTITY, message: message.into() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.status, self.message)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError { status: rejection.status(), message: rejection.body_text() }
    }
}

/// The body of a request, or why it is refused.
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(value)| value).map_err(ApiError::from)
}

/// A position as requests name it.
#[derive(Debug, Deserialize)]
struct PositionArgs {
    size: String,
    rule: String,
    #[serde(default)]
    moves: String,
}

impl PositionArgs {
    /// The position, or why it is none: a bad size, rule or move list (400) or an illegal
    /// move (422, renju fouls named).
    fn game(&self) -> Result<Game, ApiError> {
        let size: BoardSize = self.size.parse().map_err(|e| ApiError::bad(format!("{e}")))?;
        let rule: Rule = self.rule.parse().map_err(|e| ApiError::bad(format!("{e}")))?;
        if size == BoardSize::THREE && rule != Rule::Freestyle {
            return Err(ApiError::bad(format!(
                "3x3 is three in a row: rule freestyle only, not {rule}"
            )));
        }
        let points =
            parse_moves(&self.moves).map_err(|e| ApiError::bad(format!("bad move list: {e}")))?;
        Game::from_points(size, rule, &points).map_err(|e| match e {
            PositionError::Syntax(e) => ApiError::bad(format!("bad move list: {e}")),
            PositionError::Illegal { index, reason } => {
                ApiError::unplayable(illegal_in_list(size, rule, &points, index, &reason))
            }
        })
    }
}

fn colour(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `ongoing`, the winner's colour, or `draw`.
fn result(game: &Game) -> &'static str {
    match game.result() {
        Outcome::Ongoing => "ongoing",
        Outcome::Win(color) => colour(color),
        Outcome::Draw => "draw",
    }
}

fn pos_list(points: impl IntoIterator<Item = Point>) -> Vec<String> {
    points.into_iter().map(format_pos).collect()
}

async fn config(State(state): State<Arc<AppState>>) -> Response {
    let mut engines = vec![MNK.to_string()];
    engines.extend(state.seats.keys().cloned());
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "rules": Rule::ALL.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "engines": engines,
        "max_nbest": MAX_NBEST,
        "max_time_ms": MAX_TIME_MS,
        "max_level": Strength::FULL,
    }))
    .into_response()
}

/// The answer to `/api/position`.
#[derive(Serialize)]
struct PositionReply {
    size: String,
    width: usize,
    height: usize,
    rule: String,
    moves: Vec<String>,
    to_move: &'static str,
    result: &'static str,
    /// Black's forbidden points while black is to move under renju.
    forbidden: Vec<String>,
    /// The stones of the winning line, once the game is won.
    five: Vec<String>,
}

fn describe(game: &Game) -> PositionReply {
    let renju_black =
        game.rule().restricts(game.side_to_move()) && game.result() == Outcome::Ongoing;
    PositionReply {
        size: game.size().arg(),
        width: game.size().width(),
        height: game.size().height(),
        rule: game.rule().to_string(),
        moves: pos_list(game.history()),
        to_move: colour(game.side_to_move()),
        result: result(game),
        forbidden: if renju_black { pos_list(game.forbidden_points()) } else { Vec::new() },
        five: pos_list(game.winning_stones()),
    }
}

async fn position(
    request: Result<Json<PositionArgs>, JsonRejection>,
) -> Result<Response, ApiError> {
    let game = body(request)?.game()?;
    Ok(Json(describe(&game)).into_response())
}

/// `/api/think`'s body.
#[derive(Debug, Deserialize)]
struct ThinkArgs {
    #[serde(flatten)]
    position: PositionArgs,
    /// `mnk` or the name of an engine given at start.
    #[serde(default = "mnk_seat")]
    seat: String,
    /// mnk's strength, 0 to 100.
    #[serde(default = "full_level")]
    level: u32,
    /// Milliseconds for the move.
    #[serde(default = "default_time_ms")]
    time_ms: u64,
    /// Nodes for mnk's search instead of a time.
    nodes: Option<u64>,
    /// How many of mnk's best lines to report.
    #[serde(default = "one")]
    nbest: usize,
}

fn mnk_seat() -> String {
    MNK.to_string()
}
fn full_level() -> u32 {
    Strength::FULL
}
fn default_time_ms() -> u64 {
    1_000
}
fn one() -> usize {
    1
}

/// The answer to `/api/think`.
#[derive(Serialize)]
struct ThinkReply {
    /// The seat's move, `None` when it forfeits.
    #[serde(rename = "move")]
    chosen: Option<String>,
    /// The engine's name (`ABOUT`'s, for a seated engine).
    engine: String,
    /// Milliseconds the move took.
    time_ms: u64,
    /// mnk's lines (none for a seated engine).
    analysis: Option<Analysis>,
    /// Why the seat forfeits, as a match reports it.
    forfeit: Option<String>,
    /// Whether mnk's search was stopped (`/api/stop`) before its limit: the move is its best
    /// so far.
    stopped: bool,
}

async fn think(
    State(state): State<Arc<AppState>>,
    request: Result<Json<ThinkArgs>, JsonRejection>,
) -> Result<Response, ApiError> {
    let args = body(request)?;
    let game = args.position.game()?;
    if game.result() != Outcome::Ongoing {
        return Err(ApiError::unplayable("the game is over"));
    }
    if game.legal_points().is_empty() {
        return Err(ApiError::unplayable("black has only forbidden points left"));
    }
    if !(1..=MAX_TIME_MS).contains(&args.time_ms) {
        return Err(ApiError::bad(format!("time_ms must be 1..={MAX_TIME_MS}")));
    }
    if args.nodes.is_some_and(|n| !(1..=MAX_NODES).contains(&n)) {
        return Err(ApiError::bad(format!("nodes must be 1..={MAX_NODES}")));
    }
    if !(1..=MAX_NBEST).contains(&args.nbest) {
        return Err(ApiError::bad(format!("nbest must be 1..={MAX_NBEST}")));
    }
    let strength = Strength::new(args.level)
        .ok_or_else(|| ApiError::bad(format!("level must be 0..={}", Strength::FULL)))?;
    if args.seat != MNK && !state.seats.contains_key(&args.seat) {
        return Err(ApiError::bad(format!("no engine named {:?} was given at start", args.seat)));
    }
    // Raised when this request ends, answered or dropped with its client.
    let ticket = ThinkTicket::new(state.clone());
    let flag = ticket.flag.clone();
    let reply = tokio::task::spawn_blocking(move || {
        if args.seat == MNK {
            mnk_move(&state, &game, strength, &args, flag)
        } else {
            seat_move(&state, &game, &args)
        }
    })
    .await
    .map_err(|e| ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: e.to_string() })?;
    drop(ticket);
    Ok(Json(reply).into_response())
}

/// A search request's stop flag, listed in [`AppState::thinking`] while the request lives.
/// Dropped — the answer sent, or the request dropped because its client went away — it
/// raises the flag, so a search still queued or running for nobody stops.
struct ThinkTicket {
    state: Arc<AppState>,
    number: u64,
    flag: StopFlag,
}

impl ThinkTicket {
    fn new(state: Arc<AppState>) -> ThinkTicket {
        let flag = StopFlag::new();
        let number = lock(&state.thinking).add(flag.clone());
        ThinkTicket { state, number, flag }
    }
}

impl Drop for ThinkTicket {
    fn drop(&mut self) {
        self.flag.raise();
        lock(&self.state.thinking).remove(self.number);
    }
}

/// Stops every search of mnk's under way or queued; each answers its best move so far
/// (flagged `stopped`). A seated engine's move is not stopped: the referee waits for it.
async fn stop(State(state): State<Arc<AppState>>) -> Response {
    Json(json!({ "stopped": lock(&state.thinking).stop_all() })).into_response()
}

/// The last completed iteration of mnk's search (the best line's, in a multi-line search).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Progress {
    /// The position searched, in pos notation.
    moves: String,
    /// Whether the search has ended.
    done: bool,
    depth: u32,
    score_text: String,
    win_chance: f64,
    nodes: u64,
    time_ms: u64,
    pv: Vec<String>,
}

async fn progress(State(state): State<Arc<AppState>>) -> Response {
    let progress = lock(&state.progress);
    Json(json!({ "progress": *progress })).into_response()
}

/// mnk's move and analysis. The time counts from when the search gets the engine, which
/// may be after a search queued before it; `flag` stops it early.
fn mnk_move(
    state: &AppState,
    game: &Game,
    strength: Strength,
    args: &ThinkArgs,
    flag: StopFlag,
) -> ThinkReply {
    let seed = {
        let mut searches = lock(&state.searches);
        *searches += 1;
        *searches
    };
    let mut engine = lock(&state.engine);
    // A search of nodes still ends within the longest time a request may ask.
    let limits = match args.nodes {
        Some(nodes) => Limits { nodes: Some(nodes), ..Limits::time(MAX_TIME) },
        None => Limits::time(Duration::from_millis(args.time_ms)),
    }
    .with_stop(flag.clone());
    engine.set_level(Level { strength, seed });
    engine.new_game(game.size(), game.rule());
    let moves = pos_list(game.history()).join(" ");
    let report = |info: &SearchInfo, done: bool| {
        let progress = Progress {
            moves: moves.clone(),
            done,
            depth: info.depth,
            score_text: format_score(info.score),
            win_chance: win_chance(info.score),
            nodes: info.nodes,
            time_ms: duration_ms(info.time),
            pv: info.pv.iter().map(|&c| format_pos(game.point(c))).collect(),
        };
        *lock(&state.progress) = Some(progress);
    };
    *lock(&state.progress) = None;
    let mut on_info = |info: &SearchInfo| {
        if info.line.unwrap_or(1) == 1 {
            report(info, false);
        }
    };
    let result = if args.nbest > 1 {
        engine.go_nbest(game, limits, args.nbest, &mut on_info)
    } else {
        engine.go(game, limits, &mut on_info)
    };
    let last = SearchInfo {
        depth: result.depth,
        seldepth: result.seldepth,
        score: result.score(),
        nodes: result.nodes + result.vcf_nodes,
        nps: 0,
        time: result.time,
        pv: result.pv().to_vec(),
        line: None,
    };
    report(&last, true);
    ThinkReply {
        stopped: flag.is_raised(),
        chosen: result.best_move.map(|cell| format_pos(game.point(cell))),
        engine: format!("mnk {}", env!("CARGO_PKG_VERSION")),
        time_ms: duration_ms(result.time),
        analysis: Some(Analysis::of(game, &result)),
        forfeit: None,
    }
}

/// A seated engine's move, refereed.
fn seat_move(state: &AppState, game: &Game, args: &ThinkArgs) -> ThinkReply {
    let mut seat = lock(&state.seats[&args.seat]);
    let played = seat.play(game, args.time_ms, TOLERANCE_MS);
    let engine = seat.name().unwrap_or(&args.seat).to_string();
    match played {
        Ok(played) => ThinkReply {
            chosen: Some(format_pos(played.point)),
            engine,
            time_ms: played.ms,
            analysis: None,
            forfeit: None,
            stopped: false,
        },
        Err(reason) => ThinkReply {
            chosen: None,
            engine,
            time_ms: 0,
            analysis: None,
            forfeit: Some(reason.to_string()),
            stopped: false,
        },
    }
}

/// `/api/load`'s body.
#[derive(Debug, Deserialize)]
struct LoadArgs {
    /// An SGF or PSQ file's text.
    text: String,
    /// The rule to use when the file names none.
    rule: Option<String>,
    /// Which game of an SGF collection, from 1.
    #[serde(default = "one")]
    game: usize,
}

async fn load(request: Result<Json<LoadArgs>, JsonRejection>) -> Result<Response, ApiError> {
    let args = body(request)?;
    let (file, games) =
        gamefile::read_game(&args.text, args.game).map_err(|e| ApiError::bad(e.to_string()))?;
    let fallback = match &args.rule {
        Some(rule) => rule.parse::<Rule>().map_err(|e| ApiError::bad(e.to_string()))?,
        None => Rule::default(),
    };
    let position = PositionArgs {
        size: file.size.arg(),
        rule: file.rule.unwrap_or(fallback).to_string(),
        moves: pos_list(file.points()).join(" "),
    };
    let game = position.game()?;
    Ok(Json(json!({
        "position": describe(&game),
        "names": file.names,
        "game": args.game,
        "games": games,
    }))
    .into_response())
}

/// `/api/save`'s body.
#[derive(Debug, Deserialize)]
struct SaveArgs {
    #[serde(flatten)]
    position: PositionArgs,
    /// `sgf` or `psq`.
    format: String,
    /// Black's name and white's.
    #[serde(default)]
    names: [Option<String>; 2],
}

async fn save(request: Result<Json<SaveArgs>, JsonRejection>) -> Result<Response, ApiError> {
    let args = body(request)?;
    let game = args.position.game()?;
    let mut file = GameFile::new(game.size(), Some(game.rule()), &game.history());
    file.names = args.names.clone();
    file.result = match game.result() {
        Outcome::Win(Color::Black) => Some("B+".into()),
        Outcome::Win(Color::White) => Some("W+".into()),
        Outcome::Draw => Some("0".into()),
        Outcome::Ongoing => None,
    };
    let text = match args.format.as_str() {
        "sgf" => gamefile::write_sgf(&file),
        "psq" => gamefile::write_psq(&file),
        other => return Err(ApiError::bad(format!("format {other:?}: sgf or psq"))),
    };
    let filename = format!("mnk-{}-{}.{}", game.rule(), game.move_count(), args.format);
    Ok(Json(json!({ "text": text, "filename": filename })).into_response())
}
