//! Positions the manager sets: from the stones of a `BOARD` or `YXBOARD` block, and the
//! swap2 opening negotiation (`SWAP2BOARD`).

use std::time::Instant;

use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::rules::Rule;
use mnk_engine::score::{Score, format_score};
use mnk_engine::size::BoardSize;

use super::job::{Purpose, Swap2OpeningTask, Task};
use super::{Reaction, Session};
use crate::command::{BoardStone, Field, Point};
use crate::error::SessionError;
use crate::framing::BlockKind;
use crate::response::Response;

/// Score below which white gives up its side in swap2 (evaluation units); a swap2 opening
/// mnk proposes leaves white within it of even.
pub const SWAP2_MARGIN: i32 = 30;

impl Session {
    /// `SWAP2BOARD`: with no stones, propose an opening mnk judges balanced (a job, within
    /// the turn's limit); with 3 or 5, decide (a job: keep white and move, or swap).
    pub(super) fn swap2(
        &mut self,
        points: Vec<Point>,
        received: Instant,
    ) -> Result<Reaction, SessionError> {
        let size = self.game()?.size();
        // (The rule INFO asks for now: the game's is that of its last move.)
        let rule = self.settings.rule()?;
        if size.is_small() {
            return Err(SessionError::NeedsGomokuBoard("SWAP2BOARD"));
        }
        let mut fresh = Game::new(size, rule);
        if points.is_empty() {
            let deadline = self.turn_limits(&fresh, received).deadline;
            // (The engine's tunable `swap2_nodes` for each search.)
            let limits = Limits { deadline, ..Limits::default() };
            let task = Swap2OpeningTask { game: fresh, margin: SWAP2_MARGIN, limits };
            return Ok(self.job(Task::Swap2Opening(task)));
        }
        for &point in &points {
            fresh.try_play(point).map_err(|error| SessionError::IllegalMove {
                command: "SWAP2BOARD",
                point,
                error,
            })?;
        }
        if fresh.outcome().is_decided() {
            return Err(SessionError::GameDecided);
        }
        self.game = Some(fresh);
        Ok(self.think(Purpose::Swap2(points.len()), received))
    }

    /// Takes back a proposed swap2 opening: the game is its position, and the answer
    /// `MESSAGE swap2 opening ev E` (white's score) and the stones.
    pub(super) fn finish_swap2_opening(
        &mut self,
        stones: Vec<Point>,
        score: Score,
    ) -> Vec<Response> {
        let Some(game) = &self.game else { return vec![SessionError::NoGame.into()] };
        let opening = Game::from_points(game.size(), game.rule(), &stones)
            .expect("the swap2 opening is a legal position");
        self.game = Some(opening);
        vec![
            Response::Message(format!("swap2 opening ev {}", format_score(score))),
            Response::Moves(stones),
        ]
    }
}

/// A position rebuilt from `BOARD` stones: [`Field::Own`] the engine's, [`Field::Opponent`]
/// the opponent's, [`Field::Continuous`] ignored. Colours follow from the counts: equal
/// counts make the engine black (to move), one more opponent stone makes it white. Stones
/// keep their order within each colour and the colours alternate, black first. A cell listed
/// twice is named before the counts are judged: a repeated line would otherwise read as a
/// bad count. Errors name the command of `kind` (`BOARD` or `YXBOARD`), so the manager sees
/// which command failed.
pub fn position_from_stones(
    kind: BlockKind,
    size: BoardSize,
    rule: Rule,
    stones: &[BoardStone],
) -> Result<Game, SessionError> {
    let placed = stones.iter().filter(|s| s.field != Field::Continuous).map(|s| s.point);
    for (i, point) in placed.clone().enumerate() {
        if placed.clone().take(i).any(|earlier| earlier == point) {
            return Err(SessionError::ListedTwice { kind, point });
        }
    }
    let of = |field| stones.iter().filter(|s| s.field == field).map(|s| s.point).collect();
    let (own, opp): (Vec<Point>, Vec<Point>) = (of(Field::Own), of(Field::Opponent));
    let (black, white) = if own.len() == opp.len() {
        (&own, &opp)
    } else if opp.len() == own.len() + 1 {
        (&opp, &own)
    } else {
        return Err(SessionError::StoneCounts { kind, own: own.len(), opponent: opp.len() });
    };
    let mut game = Game::new(size, rule);
    let command = kind.word();
    for (i, &b) in black.iter().enumerate() {
        for point in [Some(b), white.get(i).copied()].into_iter().flatten() {
            game.try_play(point).map_err(|error| SessionError::IllegalMove {
                command,
                point,
                error,
            })?;
        }
    }
    Ok(game)
}
