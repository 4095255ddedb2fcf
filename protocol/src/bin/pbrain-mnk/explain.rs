//! Refused moves explained to people (the web board, `play`, the subcommands' `--moves`): the
//! point as they wrote it, and which renju foul a forbidden point would be.

use mnk_engine::board::{IllegalMove, PositionError};
use mnk_engine::game::Game;
use mnk_engine::notation::{Point, format_pos, parse_moves};
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

/// The game of the move list `text` (either notation) on `size` under `rule`, or why there is
/// none in a person's words: `move 2 (h8) is illegal: h8 is taken`, renju fouls named.
pub(crate) fn game_of_moves(size: BoardSize, rule: Rule, text: &str) -> Result<Game, String> {
    let points = parse_moves(text).map_err(|e| format!("bad move list: {e}"))?;
    game_of_points(size, rule, &points)
}

/// [`game_of_moves`] for a list of points.
pub(crate) fn game_of_points(
    size: BoardSize,
    rule: Rule,
    points: &[Point],
) -> Result<Game, String> {
    Game::from_points(size, rule, points).map_err(|error| match error {
        PositionError::Syntax(e) => format!("bad move list: {e}"),
        PositionError::Illegal { index, reason } => {
            let why = illegal_in_list(size, rule, points, index, &reason);
            format!("move {} ({}) is illegal: {why}", index + 1, format_pos(points[index]))
        }
    })
}

/// Why move `index` of `points` (illegal for `reason`, the moves before it legal) cannot be
/// played, the point in pos notation: `h8 is taken`.
pub(crate) fn illegal_in_list(
    size: BoardSize,
    rule: Rule,
    points: &[Point],
    index: usize,
    reason: &IllegalMove,
) -> String {
    let before = Game::from_points(size, rule, &points[..index]).expect("a legal prefix");
    illegal_move(&before, points[index], reason, &format_pos(points[index]))
}

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

    #[test]
    fn a_refused_move_list_names_the_move_its_point_and_the_foul() {
        let game = |rule, text| game_of_moves(BoardSize::FIFTEEN, rule, text).err();
        assert_eq!(
            game(Rule::Freestyle, "7,7 8,8 7,7"),
            Some("move 3 (h8) is illegal: h8 is taken".to_string())
        );
        assert_eq!(
            game(Rule::Renju, "h8a1i8a15g9o1g10o15g8"),
            Some("move 9 (g8) is illegal: g8 is forbidden for black in renju: double three".into())
        );
        assert!(game(Rule::Freestyle, "h8 zz").unwrap().starts_with("bad move list"));
        assert_eq!(game(Rule::Freestyle, "h8 i9"), None);
    }
}
