//! The scripting extensions: `PERFT` (a count, run as a job), `SHOW`, `EVAL` and `SOLVE` (a
//! proof, run as a job).

use mnk_engine::color::Color;
use mnk_engine::engine::Engine;
use mnk_engine::score::format_score;
use mnk_engine::size::BoardSize;

use super::job::{PerftOutcome, SolveOutcome, SolveTask, Task};
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
    pub(super) fn perft(&mut self, depth: u32) -> Result<Reaction, SessionError> {
        let game = self.game()?;
        let max = max_protocol_perft_depth(game.size());
        if depth > max {
            return Err(SessionError::PerftTooDeep { depth, max });
        }
        let task = Task::Perft(game.clone(), depth);
        Ok(self.job(task))
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
        let score = Engine::evaluate(self.game()?);
        Ok(Response::Message(format!("eval {score}")))
    }

    /// `SOLVE`: the exact value of the position and an optimal move, as a job (`YXSTOP` and
    /// `END` stop it): the small boards by the search, boards from 6 to 8 a side under
    /// freestyle by the prover, with a table the size of the game's.
    pub(super) fn solve(&mut self) -> Result<Reaction, SessionError> {
        let game = self.game()?;
        if !Engine::solvable(game) {
            return Err(SessionError::CannotSolve);
        }
        if game.outcome().is_decided() {
            return Err(SessionError::GameDecided);
        }
        let task = SolveTask { game: game.clone(), hash_bytes: self.settings.hash_bytes() };
        Ok(self.job(Task::Solve(task)))
    }
}

/// The answer to a finished `SOLVE`: `value V best x,y [score S] nodes N time_ms T`, or
/// that it was stopped.
pub(super) fn finish_solve(outcome: &SolveOutcome) -> Vec<Response> {
    let ms = outcome.elapsed.as_millis();
    let Some(solution) = &outcome.solution else {
        return vec![SessionError::SolveStopped { ms }.into()];
    };
    let best = outcome.best.map_or("none".to_string(), |point| point.to_string());
    let score = solution.score.map_or(String::new(), |s| format!(" score {}", format_score(s)));
    let (value, nodes) = (solution.value, solution.nodes);
    vec![Response::Message(format!("value {value} best {best}{score} nodes {nodes} time_ms {ms}"))]
}

/// The answer to a finished `PERFT`: its time and count, or that it was stopped.
pub(super) fn finish_perft(outcome: &PerftOutcome) -> Vec<Response> {
    let (depth, ms) = (outcome.depth, outcome.elapsed.as_millis());
    match outcome.nodes {
        Some(nodes) => vec![
            Response::Message(format!("perft depth {depth} time_ms {ms}")),
            Response::Nodes(nodes),
        ],
        None => vec![SessionError::PerftStopped { depth, ms }.into()],
    }
}
