//! Refused moves explained to people (the web board, `play`): the point as they wrote it,
//! and which renju foul a forbidden point would be.

use mnk_engine::board::IllegalMove;
use mnk_engine::game::Game;
use mnk_engine::notation::Point;

/// Why `point` (written `written`, as the person typed it) cannot be played in `game`.
///
/// ```
/// use mnk_engine::board::IllegalMove;
/// use mnk_engine::game::Game;
/// use mnk_engine::notation::Point;
/// use mnk_engine::rules::Rule;
/// use mnk_engine::size::BoardSize;
/// use mnk_protocol::explain::illegal_move;
/// let game = Game::from_notation(BoardSize::FIFTEEN, Rule::Freestyle, "h8").unwrap();
/// let taken = IllegalMove::Occupied { x: 7, y: 7 };
/// assert_eq!(illegal_move(&game, Point::new(7, 7), &taken, "h8"), "h8 is taken");
/// ```
pub fn illegal_move(game: &Game, point: Point, reason: &IllegalMove, written: &str) -> String {
    match reason {
        IllegalMove::OffBoard { .. } => format!("{written} is off the {} board", game.size()),
        IllegalMove::Occupied { .. } => format!("{written} is taken"),
        IllegalMove::GameOver => "the game is over".to_string(),
        IllegalMove::Forbidden { .. } => match game.foul(point) {
            Some(foul) => format!("{written} is forbidden for black in renju: {foul}"),
            None => format!("{written} is forbidden for black in renju"),
        },
    }
}
