//! Positions the manager sets: from the stones of a `BOARD` or `YXBOARD` block, and the
//! swap2 opening negotiation (`SWAP2BOARD`).

use std::time::Instant;

use mnk_engine::game::Game;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

use super::job::Purpose;
use super::{Reaction, Session};
use crate::command::{BoardStone, Field, Point};
use crate::error::SessionError;
use crate::framing::BlockKind;
use crate::response::Response;

/// Score below which white gives up its side in swap2 (evaluation units).
pub const SWAP2_MARGIN: i32 = 30;

/// The fixed swap2 proposal (0 stones): black h8, white i8, black h10 — a quiet, roughly
/// balanced start: black's two stones are not on one line with a free neighbour, white
/// touches the centre.
pub fn swap2_opening(size: BoardSize) -> [Point; 3] {
    let (x, y) = (size.width() / 2, size.height() / 2);
    [(x, y), (x + 1, y), (x, y + 2)]
}

impl Session {
    /// `SWAP2BOARD`: with no stones, propose the fixed opening; with 3 or 5, decide (a job:
    /// keep white and move, or swap).
    pub(super) fn swap2(
        &mut self,
        points: Vec<Point>,
        received: Instant,
    ) -> Result<Reaction, SessionError> {
        let game = self.game()?;
        self.settings.rule()?;
        let size = game.size();
        if size.is_small() {
            return Err(SessionError::NeedsGomokuBoard("SWAP2BOARD"));
        }
        let mut fresh = Game::new(size, game.rule());
        if points.is_empty() {
            let opening = swap2_opening(size);
            for &p in &opening {
                fresh.try_play(p).expect("the fixed opening is legal");
            }
            self.game = Some(fresh);
            return Ok(Reaction::Reply(vec![Response::Moves(opening.to_vec())]));
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
