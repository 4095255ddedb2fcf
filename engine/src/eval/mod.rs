//! Static evaluation, from the side to move's point of view, for depth-limited leaves.
//!
//! * On the gomoku boards it is a linear form over the pattern codes of the empty cells
//!   (see [`code_terms`]): for each colour, the sum over the empty cells of what a stone there
//!   would make along each line and in combination ([`worth::code_worth`]), the side to
//!   move's counted with its own worths and the opponent's with the waiting side's, plus a
//!   learned worth of the two sides' threat flags ([`flags`]). The board keeps the sums
//!   incrementally once [`prepare`] has handed it the rule's worths, so nothing is computed at
//!   the leaf but a difference; on a board that was not prepared the same sums are taken cell
//!   by cell (the slow reference the tests hold the fast path to).
//! * On the small boards (3×3, 5×5), whose lines span the board, it counts windows: every
//!   line that holds stones of only one colour is worth [`WINDOW_WEIGHT`]`[n]` to its owner,
//!   n being its stones, so the live lines and how far along they are.
//!
//! Both add [`TEMPO`] for the side to move.
//!
//! The room: [`weights`] (the prior weights and which learned table a rule uses),
//! [`learned`] (the tables `examples/train_eval.rs` writes), [`worth`] (what each term is
//! worth, and the tables of values boards sum), [`flags`] (the threat flags). It reads the
//! board and the line patterns; nothing below it imports it.

pub mod flags;
pub mod learned;
pub mod weights;
pub mod worth;

use crate::board::Board;
use crate::color::Color;
use crate::pattern::code::pcode_of;
use crate::pattern::keys::PatternState;
use crate::rules::Rule;
use crate::score::{MAX_EVAL, Score};
use crate::storage::Storage;
use weights::{POTENTIAL_SCALE, Role};
use worth::{code_values, code_worth, fifteen_lead, flags_worth, lead};

/// Worth of a window holding n stones of one colour and none of the other, n = 0..=5.
/// A window with k stones never reaches evaluation (the game is over).
pub const WINDOW_WEIGHT: [Score; 6] = [0, 1, 6, 40, 300, 0];

/// Bonus for having the move, in the same units (on the gomoku boards the side to move's
/// own weights count most of it: about 350 on an empty board, less as it fills; see
/// [`weights::PATTERN_POTENTIAL`]).
pub const TEMPO: Score = 8;

/// Hands `board` the worths of its rule's pattern codes, so that it keeps their sums as
/// stones come and go and [`evaluate`] reads them instead of summing the cells (see
/// [`Board::sum_code_values`]). Searches prepare their board once; a board prepared
/// already, or one without patterns, is left as it is.
pub fn prepare<B: Storage>(board: &mut Board<B>) {
    if board.patterns().keeps_patterns() {
        board.sum_code_values(code_values(board.rule()));
    }
}

/// Builds what evaluating under `rule` needs (the code values and the 15×15 lead), so the
/// first search does not: for idle time.
pub fn build_tables(rule: Rule) {
    code_values(rule);
    fifteen_lead(rule);
}

/// The evaluation of `board` for the side to move. On the gomoku boards it is the difference of the
/// two sides' code sums, the side to move's counted with its own worths and the opponent's
/// with the waiting side's ([`code_terms`]), and the worth of the two sides' threat flags; on
/// the small boards it counts windows.
///
/// Most of the worth of having the move is in the side to move's own worths, which count
/// every empty cell's codes higher, so on a board larger than 15×15 (where the weights were
/// fitted) the side to move's lead grows with the area although a move is worth no more
/// there: the evaluation takes off what the empty board's lead has beyond the empty 15×15
/// board's ([`size_lead`]). Far from the stones the larger board only adds empty cells, so
/// the correction holds through the game. A smaller board's lead is left as it is: a 15×15
/// board with stones on it has as few empty cells.
pub fn evaluate<B: Storage>(board: &Board<B>) -> Score {
    let side = board.side_to_move();
    let lines = board.patterns();
    let codes = match (lines.code_sums(side), lines.code_sums(side.opponent())) {
        (Some(me), Some(them)) => {
            let empty = |color| lines.empty_board_code_sums(color).expect("kept with the sums");
            let empty_lead = lead(empty(Color::Black), empty(Color::White));
            lead(me, them) - (empty_lead - fifteen_lead(board.rule())).max(0)
        }
        _ if lines.keeps_patterns() => codes_from_scratch(board),
        _ => return window_evaluation(board),
    };
    (TEMPO + codes / POTENTIAL_SCALE + flags_worth(board)).clamp(-MAX_EVAL, MAX_EVAL)
}

/// The terms of the codes' part of the evaluation of a gomoku board: for every empty cell,
/// the side to move's pattern code there with its to-move worth counted `+1`, and the
/// opponent's with its waiting worth counted `−1`; `term(color, role, pcode, sign)` gets each.
/// The evaluation is the sum of `sign · code_worth(rule, color, role, pcode)`, less the
/// [`size_lead`], over [`POTENTIAL_SCALE`], plus [`TEMPO`] and the threat flags' worth: the
/// trainer (`examples/train_eval.rs`) fits the worths through these terms. Nothing on a board
/// without patterns.
pub fn code_terms<B: Storage>(board: &Board<B>, mut term: impl FnMut(Color, Role, u16, i32)) {
    let side = board.side_to_move();
    let lines = board.patterns();
    for cell in board.empty_cells().iter() {
        for (color, role, sign) in [(side, Role::ToMove, 1), (side.opponent(), Role::Waiting, -1)] {
            let Some(patterns) = lines.cell_patterns(cell, color) else { return };
            term(color, role, pcode_of(patterns), sign);
        }
    }
}

/// How much more black leads by in the code sums on the empty board of `board`'s size than
/// on the empty 15×15 board (0 if not more), in potential units: what the evaluation takes
/// off on larger boards. Its terms are those of the two empty boards ([`code_terms`]).
pub fn size_lead<B: Storage>(board: &Board<B>) -> i32 {
    let empty = Board::<B>::with_geometry(board.geometry(), board.rule());
    (terms_sum(&empty) - fifteen_lead(board.rule())).max(0)
}

/// The sum of `board`'s [`code_terms`], each term worth its [`code_worth`].
fn terms_sum<B: Storage>(board: &Board<B>) -> i32 {
    let rule = board.rule();
    let mut sum = 0;
    code_terms(board, |color, role, pcode, sign| {
        sum += sign * code_worth(rule, color, role, pcode);
    });
    sum
}

/// The codes' part of the evaluation summed cell by cell, in potential units: what the
/// incremental sums hold on a prepared board.
fn codes_from_scratch<B: Storage>(board: &Board<B>) -> i32 {
    terms_sum(board) - size_lead(board)
}

/// The small boards' evaluation: windows held by one colour.
fn window_evaluation<B: Storage>(board: &Board<B>) -> Score {
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
    use crate::bitboard::{Bitboard, Bits32, Bits256};

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
        use crate::bitboard::Bits512;
        use crate::geometry::Geometry;
        fn empty_of<B: Storage>(w: usize, h: usize, rule: Rule) -> (Score, i32) {
            let geometry = Geometry::rect(w, h, 5, B::GEOMETRY.stride());
            let mut board = Board::<B>::with_geometry(geometry, rule);
            let slow = evaluate(&board);
            prepare(&mut board);
            assert_eq!(evaluate(&board), slow, "{rule} {w}×{h}");
            (slow, size_lead(&board))
        }
        for rule in Rule::ALL {
            let empty = |w: usize, h: usize| {
                if w <= 15 && h <= 15 {
                    empty_of::<Bits256>(w, h, rule)
                } else {
                    empty_of::<Bits512>(w, h, rule)
                }
            };
            let fifteen = empty(15, 15);
            assert_eq!(fifteen.1, 0, "{rule}");
            // The 15×15 lead the size correction is measured from is the empty board's.
            assert_eq!(fifteen_lead(rule), terms_sum(&Board::<Bits256>::new(rule)), "{rule}");
            for (w, h) in [(20, 20), (22, 22), (16, 16), (22, 14)] {
                let (eval, size_lead) = empty(w, h);
                assert_eq!(eval, fifteen.0, "{rule} {w}×{h}");
                assert!(size_lead > 0, "{rule} {w}×{h}");
            }
            // Smaller boards keep their own, smaller lead (the fit saw as few empty cells).
            for (w, h) in [(11, 11), (9, 6), (16, 9)] {
                let (eval, size_lead) = empty(w, h);
                assert_eq!(size_lead, 0, "{rule} {w}×{h}");
                assert!(eval < fifteen.0, "{rule} {w}×{h}");
            }
        }
    }

    /// The sums a prepared board keeps through make and unmake are the direct sums over its
    /// empty cells of each code's worth, and its evaluation is the one taken cell by cell,
    /// on random games under every rule, on 15×15 and on a larger, oblong board.
    #[test]
    fn the_incremental_sums_are_the_cell_by_cell_sums_through_make_and_unmake() {
        use crate::bitboard::Bits512;
        use crate::geometry::Geometry;
        use crate::rng::SplitMix64;
        fn check<B: Storage>(board: &Board<B>) {
            let rule = board.rule();
            let lines = board.patterns();
            for color in [Color::Black, Color::White] {
                let direct = [Role::ToMove, Role::Waiting].map(|role| {
                    board
                        .empty_cells()
                        .iter()
                        .map(|cell| {
                            let patterns = lines.cell_patterns(cell, color).expect("patterns");
                            code_worth(rule, color, role, pcode_of(patterns))
                        })
                        .sum::<i32>()
                });
                assert_eq!(lines.code_sums(color), Some(direct), "{rule}\n{board}");
            }
            let mut unprepared = Board::<B>::with_geometry(board.geometry(), rule);
            for (cell, _) in board.stones_in_order() {
                unprepared.play(cell);
            }
            assert_eq!(unprepared.patterns().code_sums(Color::Black), None);
            assert_eq!(evaluate(board), evaluate(&unprepared), "{rule}\n{board}");
        }
        fn walk<B: Storage>(geometry: Geometry, rng: &mut SplitMix64) {
            for rule in Rule::ALL {
                let mut board = Board::<B>::with_geometry(geometry, rule);
                prepare(&mut board);
                for step in 0..90 {
                    if board.outcome().is_decided() || (step % 5 == 4 && board.move_count() > 0) {
                        board.undo();
                    } else {
                        let moves: Vec<_> = board.legal_moves().iter().collect();
                        board.play(moves[rng.below(moves.len())]);
                    }
                    check(&board);
                }
            }
        }
        let mut rng = SplitMix64::new(91);
        walk::<Bits256>(Bits256::GEOMETRY, &mut rng);
        walk::<Bits512>(Geometry::rect(20, 17, 5, 21), &mut rng);
    }

    #[test]
    fn preparing_a_board_in_the_middle_of_a_game_keeps_its_history_and_undo() {
        let mut board = Board::<Bits256>::from_notation(Rule::Renju, "h8,i9,h9,h10,j7").unwrap();
        let before = evaluate(&board);
        prepare(&mut board);
        assert_eq!(evaluate(&board), before);
        assert!(board.is_consistent());
        board.undo();
        board.undo();
        let replayed = Board::<Bits256>::from_notation(Rule::Renju, "h8,i9,h9").unwrap();
        assert_eq!(evaluate(&board), evaluate(&replayed));
        assert!(board.is_consistent());
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
