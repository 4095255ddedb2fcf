//! Yixin-Board's analysis dialect beyond the moves: what the engine supports
//! (`YXSHOWINFO`), emptying the table (`YXHASHCLEAR`) and the moves that hold
//! (`YXSEARCHDEFEND`).

use std::time::Instant;

use mnk_engine::engine::{MAX_HASH_BYTES, MAX_THREADS, Verdict};
use mnk_engine::limits::Limits;
use mnk_engine::notation::{Point, format_pos};
use mnk_engine::rules::Rule;
use mnk_engine::score::{Score, format_score, loss_in, win_in};
use mnk_engine::size::BoardSize;

use super::job::{BalanceTask, DefendTask, Task};
use super::{Reaction, Session};
use crate::error::SessionError;
use crate::response::{ABOUT, Response};

impl Session {
    /// `YXSHOWINFO`: `MESSAGE` lines that tell a GUI what mnk supports — its name and
    /// version, the most threads, the largest table (as Yixin-Board reads it: log2 of its
    /// size in KB), the rules (their `INFO rule` codes) and the board sizes.
    pub(super) fn show_info(&self) -> Vec<Response> {
        let rules: Vec<String> = Rule::PROTOCOL_CODES.iter().map(u32::to_string).collect();
        let sizes: Vec<String> =
            BoardSize::squares().map(|size| size.width().to_string()).collect();
        let max_hash_log2_kb = (MAX_HASH_BYTES / 1024).ilog2();
        [
            ABOUT.to_string(),
            format!("INFO MAX_THREAD_NUM {MAX_THREADS}"),
            format!("INFO MAX_HASH_SIZE {max_hash_log2_kb}"),
            format!("INFO RULES {}", rules.join(" ")),
            format!("INFO BOARD_SIZES {}", sizes.join(" ")),
        ]
        .into_iter()
        .map(Response::Message)
        .collect()
    }

    /// `YXHASHCLEAR`: the transposition table emptied, so the next search learns nothing from
    /// the ones before.
    pub(super) fn clear_hash(&mut self) -> Response {
        if let Some(engine) = &mut self.engine {
            engine.clear_hash();
        }
        Response::Message("transposition table cleared".to_string())
    }

    /// `YXSEARCHDEFEND` (boards larger than 5×5): a job that checks every legal move of the side to move
    /// for a threat-sequence win of the opponent after it (the engine's tunable
    /// `defence_vct_nodes` a move), within the turn's time counted from `received`.
    pub(super) fn search_defend(&mut self, received: Instant) -> Result<Reaction, SessionError> {
        let game = self.game()?;
        if game.size().is_small() {
            return Err(SessionError::NeedsGomokuBoard("YXSEARCHDEFEND"));
        }
        if game.outcome().is_decided() {
            return Err(SessionError::GameDecided);
        }
        let deadline = self.turn_limits(game, received).deadline;
        let limits = Limits { deadline, ..Limits::default() };
        let task = DefendTask { game: game.clone(), limits };
        Ok(self.job(Task::Defend(task)))
    }
}

impl Session {
    /// `YXBALANCEONE`/`YXBALANCETWO`: a job that finds the placement of `stones` stones
    /// after which the score is closest to `target` (the engine's tunable `balance_nodes`
    /// for each placement it searches), within the turn's time counted from `received`.
    pub(super) fn balance(
        &mut self,
        stones: usize,
        target: Score,
        received: Instant,
    ) -> Result<Reaction, SessionError> {
        let game = self.game()?.clone();
        if game.outcome().is_decided() {
            return Err(SessionError::GameDecided);
        }
        let deadline = self.turn_limits(&game, received).deadline;
        let limits = Limits { deadline, ..Limits::default() };
        let task = BalanceTask { game, stones, target, limits };
        Ok(self.job(Task::Balance(task)))
    }

    /// Takes back a finished balance job: plays its stones and answers `MESSAGE balance ev
    /// E pv …` and the stones (`x,y` or `x1,y1 x2,y2`).
    pub(super) fn finish_balance(&mut self, found: Option<(Vec<Point>, Score)>) -> Vec<Response> {
        let Some(game) = self.game.as_mut() else {
            return vec![SessionError::NoGame.into()];
        };
        let Some((stones, score)) = found else {
            return vec![SessionError::NoLegalMove.into()];
        };
        let pv: Vec<String> = stones.iter().map(|&stone| format_pos(stone)).collect();
        for &stone in &stones {
            if game.try_play(stone).is_err() {
                return vec![SessionError::NoLegalMove.into()];
            }
        }
        vec![
            Response::Message(format!("balance ev {} pv {}", format_score(score), pv.join(" "))),
            Response::Moves(stones),
        ]
    }
}

/// The answer to `YXSEARCHDEFEND`: a line per legal move, `defend K/N ev E pv M [R]` —
/// `+M1` for a five; for a move the opponent's threat sequence refutes, `-Mn` (plies to
/// its five, the move included) and its first move `R`; for one that holds, the static
/// evaluation after it; `?` for one left unchecked — then `defend done H hold L lose U
/// unchecked`.
pub(super) fn finish_defend(verdicts: &[(Point, Verdict, Option<Point>)]) -> Vec<Response> {
    let pos = format_pos;
    let total = verdicts.len();
    let (mut hold, mut lose, mut unchecked) = (0, 0, 0);
    let mut lines: Vec<Response> = verdicts
        .iter()
        .enumerate()
        .map(|(index, &(point, verdict, reply))| {
            let ev = match verdict {
                Verdict::Wins => format_score(win_in(1)),
                Verdict::Holds(eval) => format_score(eval),
                Verdict::Loses { plies, .. } => format_score(loss_in(plies)),
                Verdict::Unchecked => "?".to_string(),
            };
            match verdict {
                Verdict::Wins | Verdict::Holds(_) => hold += 1,
                Verdict::Loses { .. } => lose += 1,
                Verdict::Unchecked => unchecked += 1,
            }
            let reply = reply.map(|r| format!(" {}", pos(r))).unwrap_or_default();
            Response::Message(format!(
                "defend {}/{total} ev {ev} pv {}{reply}",
                index + 1,
                pos(point)
            ))
        })
        .collect();
    lines.push(Response::Message(format!(
        "defend done {hold} hold {lose} lose {unchecked} unchecked"
    )));
    lines
}
