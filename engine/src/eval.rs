//! Static evaluation, from the side to move's point of view, for depth-limited leaves.
//!
//! * On the gomoku boards it reads the pattern potentials the pattern state keeps
//!   incrementally: for each colour, the sum over the empty cells of what a stone there
//!   would make along each line and in combination (weights in
//!   [`crate::pattern::weights`]), the side to move's counted with its own weights and the
//!   opponent's with the waiting side's. Nothing is computed at the leaf but a difference.
//! * On the small boards (3×3, 5×5), whose lines span the board, it counts windows: every
//!   line that holds stones of only one colour is worth [`WINDOW_WEIGHT`]`[n]` to its owner,
//!   n being its stones, so the live lines and how far along they are.
//!
//! Both add [`TEMPO`] for the side to move.

use crate::board::Board;
use crate::pattern::flags::flags_worth;
use crate::pattern::keys::PatternState;
use crate::pattern::weights::{POTENTIAL_SCALE, Role};
use crate::score::{MAX_EVAL, Score};
use crate::storage::Storage;

/// Worth of a window holding n stones of one colour and none of the other, n = 0..=5.
/// A window with k stones never reaches evaluation (the game is over).
pub const WINDOW_WEIGHT: [Score; 6] = [0, 1, 6, 40, 300, 0];

/// Bonus for having the move, in the same units (on the gomoku boards the side to move's
/// own weights count most of it: about 350 on an empty board, less as it fills; see
/// [`crate::pattern::weights::PATTERN_POTENTIAL`]).
pub const TEMPO: Score = 8;

/// The evaluation of `board` for the side to move. On the gomoku boards it is the difference of the
/// two sides' pattern potentials, the side to move's counted with its own weights and the
/// opponent's with the waiting side's, kept incrementally by the line keys
/// ([`crate::pattern::code::CodeTable`]); on the small boards it counts windows.
///
/// Most of the worth of having the move is in the side to move's own weights, which count
/// every empty cell's codes higher, so on a board larger than 15×15 (where the weights were
/// fitted) the side to move's lead grows with the area although a move is worth no more
/// there: the evaluation takes off what the empty board's lead has beyond the empty 15×15
/// board's ([`PatternState::size_lead`]). Far from the stones the larger board only adds
/// empty cells, so the correction holds through the game. A smaller board's lead is left as
/// it is: a 15×15 board with stones on it has as few empty cells.
pub fn evaluate<B: Storage>(board: &Board<B>) -> Score {
    let side = board.side_to_move();
    let lines = board.patterns();
    if let (Some(me), Some(them), Some(lead)) = (
        lines.potential(side, Role::ToMove),
        lines.potential(side.opponent(), Role::Waiting),
        lines.size_lead(),
    ) {
        let codes = (me - them - lead) / POTENTIAL_SCALE;
        return (TEMPO + codes + flags_worth(board)).clamp(-MAX_EVAL, MAX_EVAL);
    }
    let me = board.stones(board.side_to_move());
    let them = board.stones(board.side_to_move().opponent());
    let mut score = TEMPO;
    for line in B::line_table().lines() {
        let (mine, theirs) = (line.mask & me, line.mask & them);
        match (mine.is_empty(), theirs.is_empty()) {
            (false, true) => score += WINDOW_WEIGHT[mine.count() as usize],
            (true, false) => score -= WINDOW_WEIGHT[theirs.count() as usize],
            _ => {}
        }
    }
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bits32, Bits256};
    use crate::color::Color;
    use crate::rules::Rule;

    #[test]
    fn the_empty_board_favours_the_side_to_move() {
        assert_eq!(evaluate(&Board::<Bits32>::new(Rule::Freestyle)), TEMPO);
        // On the gomoku boards the side to move's own weights count the same empty lines
        // higher than the waiting side's. The weights are fitted so that σ(eval / 600)
        // predicts the result: 360 here, a 65 % chance for black on the empty board, and far
        // from a win.
        let empty = evaluate(&Board::<Bits256>::new(Rule::Freestyle));
        assert!((200..400).contains(&empty), "{empty}");
    }

    #[test]
    fn gomoku_evaluation_favours_the_side_with_the_open_three() {
        // Black h8 i8 j8 (an open three), white two scattered stones, white to move.
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8a1i8a15j8").unwrap();
        assert!(evaluate(&board) < -100, "{}", evaluate(&board));
    }

    #[test]
    fn the_side_to_move_leads_by_as_much_on_every_empty_board_larger_than_fifteen() {
        use crate::game::Game;
        use crate::size::BoardSize;
        fn size_lead<B: Storage>(board: &Board<B>) -> Option<i32> {
            board.patterns().size_lead()
        }
        for rule in Rule::ALL {
            let empty = |w, h| {
                let game = Game::new(BoardSize::new(w, h).expect("a size mnk plays"), rule);
                let size_lead = crate::with_game!(&game, b => size_lead(b));
                (crate::with_game!(&game, b => evaluate(b)), size_lead)
            };
            let fifteen = empty(15, 15);
            assert_eq!(fifteen.1, Some(0), "{rule}");
            // The 15×15 lead the size correction is measured from is the empty board's.
            let board = Board::<Bits256>::new(rule);
            let lines = board.patterns();
            let (me, them) = (
                lines.potential(Color::Black, Role::ToMove),
                lines.potential(Color::White, Role::Waiting),
            );
            let fifteen_lead = crate::pattern::keys::fifteen_lead(rule);
            assert_eq!(Some(fifteen_lead), me.zip(them).map(|(m, t)| m - t), "{rule}");
            for (w, h) in [(20, 20), (22, 22), (16, 16), (22, 14)] {
                let (eval, size_lead) = empty(w, h);
                assert_eq!(eval, fifteen.0, "{rule} {w}×{h}");
                assert!(size_lead > Some(0), "{rule} {w}×{h}");
            }
            // Smaller boards keep their own, smaller lead (the fit saw as few empty cells).
            for (w, h) in [(11, 11), (9, 6), (16, 9)] {
                let (eval, size_lead) = empty(w, h);
                assert_eq!(size_lead, Some(0), "{rule} {w}×{h}");
                assert!(eval < fifteen.0, "{rule} {w}×{h}");
            }
        }
    }

    #[test]
    fn the_centre_stone_is_worth_more_than_a_corner() {
        // After black's move it is white's turn, so lower is better for black.
        let centre = Board::<Bits256>::from_notation(Rule::Freestyle, "h8").unwrap();
        let corner = Board::<Bits256>::from_notation(Rule::Freestyle, "a1").unwrap();
        assert!(evaluate(&centre) < evaluate(&corner));
    }

    #[test]
    fn only_windows_without_enemy_stones_count() {
        // 5×5, X a1, O b1, X to move: X keeps column a and the long diagonal (1 + 1), O keeps
        // column b (1); row 1 is dead for both.
        let b = Board::<Bits32>::from_notation(Rule::Freestyle, "a1b1").unwrap();
        assert_eq!(evaluate(&b), TEMPO + 2 - 1);
    }
}
