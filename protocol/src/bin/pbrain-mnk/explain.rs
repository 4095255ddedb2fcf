//! Refused moves explained to people (the web board, `play`): the point as they wrote it,
//! and which renju foul a forbidden point would be.

use mnk_engine::board::IllegalMove;
use mnk_engine::game::Game;
use mnk_engine::notation::Point;

/// Why `point` (written `written`, as the person typed it) cannot be played in `game`.
pub(crate) fn illegal_move(
    game: &Game,
    point: Point,
    reason: &IllegalMove,
    written: &str,
) -> String {
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

#[cfg(test)]
mod tests {
    use mnk_engine::rules::Rule;
    use mnk_engine::size::BoardSize;

    use super::*;

    #[test]
    fn a_refused_move_is_named_as_written_with_its_renju_foul() {
        let game = Game::from_notation(BoardSize::FIFTEEN, Rule::Freestyle, "h8").unwrap();
        let taken = IllegalMove::Occupied { x: 7, y: 7 };
        assert_eq!(illegal_move(&game, Point::new(7, 7), &taken, "h8"), "h8 is taken");
        let off = IllegalMove::OffBoard { x: 15, y: 0 };
        assert_eq!(illegal_move(&game, Point::new(15, 0), &off, "p1"), "p1 is off the 15x15 board");
        // Black h8 i8 g9 g10 (white far away): g8 would make two open threes.
        let renju =
            Game::from_notation(BoardSize::FIFTEEN, Rule::Renju, "h8a1i8a15g9o1g10o15").unwrap();
        let forbidden = IllegalMove::Forbidden { x: 6, y: 7 };
        let said = illegal_move(&renju, Point::new(6, 7), &forbidden, "g8");
        assert_eq!(said, "g8 is forbidden for black in renju: double three");
    }
}
