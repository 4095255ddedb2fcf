//! The scripting extensions: `PERFT` (a count, run as a job), `SHOW`, `EVAL` and `SOLVE`.

use mnk_engine::color::Color;
use mnk_engine::eval;
use mnk_engine::score::format_score;
use mnk_engine::size::BoardSize;
use mnk_engine::solve::solve;
use mnk_engine::tt::TranspositionTable;
use mnk_engine::with_game;

use super::job::{Job, PerftJob, PerftOutcome};
use super::settings::MIN_HASH_BYTES;
use super::{Reaction, Session};
use crate::error::SessionError;
use crate::response::Response;

/// Deepest `PERFT` the protocol runs on each size: about a second of counting at most, on
/// one thread (`YXSTOP` and `END` end it at once): depth 4 up to 256 cells (15×15: 0.4 s,
/// 15×16: 0.6 s), 3 on larger boards (22×22 depth 4 takes 5.7 s, depth 3 14 ms). Deeper
/// runs belong to `pbrain-mnk perft`.
pub const fn max_protocol_perft_depth(size: BoardSize) -> u32 {
    match size {
        BoardSize::THREE => 9,
        BoardSize::FIVE => 7,
        _ if size.width() * size.height() <= 256 => 4,
        _ => 3,
    }
}

impl Session {
    /// `PERFT`: a count of the position's move sequences, as a job.
    pub(super) fn perft(&self, depth: u32) -> Result<Reaction, SessionError> {
        let game = self.game()?;
        let max = max_protocol_perft_depth(game.size());
        if depth > max {
            return Err(SessionError::PerftTooDeep { depth, max });
        }
        Ok(Reaction::Think(Box::new(Job::Perft(PerftJob { game: game.clone(), depth }))))
    }

    /// `SHOW`: the board and the state of the game, as `MESSAGE` lines.
    pub(super) fn show(&self) -> Result<Vec<Response>, SessionError> {
        let game = self.game()?;
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
        Ok(lines)
    }

    /// `EVAL`: the static evaluation for the side to move.
    pub(super) fn eval(&self) -> Result<Response, SessionError> {
        let game = self.game()?;
        let score = with_game!(game, b => eval::evaluate(b));
        Ok(Response::Message(format!("eval {score}")))
    }

    /// `SOLVE`: the exact value of a small board's position and an optimal move.
    pub(super) fn solve(&self) -> Result<Response, SessionError> {
        let game = self.game()?;
        if !game.size().is_small() {
            return Err(SessionError::SolveNeedsASmallBoard);
        }
        if game.outcome().is_decided() {
            return Err(SessionError::GameDecided);
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
        Ok(Response::Message(line))
    }
}

/// The answer to a finished `PERFT`: its time and count, or that it was stopped.
pub(super) fn finish_perft(outcome: &PerftOutcome) -> Vec<Response> {
    let (depth, ms) = (outcome.depth, outcome.elapsed.as_millis());
    match outcome.nodes {
        Some(nodes) => vec![
            Response::Message(format!("perft depth {depth} time_ms {ms}")),
            Response::Nodes(nodes),
        ],
        None => vec![Response::Error(SessionError::PerftStopped { depth, ms })],
    }
}
