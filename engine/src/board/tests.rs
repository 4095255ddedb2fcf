//! Tests of the board: make and unmake against recomputation, hashing, passes, the
//! incremental pattern state under every rule.

use super::*;
use crate::bitboard::{Bitboard, Bits16, Bits32, Bits256};
use crate::pattern::Pattern;
use crate::pattern::code::{CodeValues, both_cell_key, unpack_sum};
use crate::pattern::pair::ThreatKind;
use crate::rng::SplitMix64;

fn random_game<B: Storage>(rng: &mut SplitMix64, rule: Rule) -> Board<B> {
    let mut board = Board::<B>::new(rule);
    while !board.outcome().is_decided() {
        let moves: Vec<Cell> = board.legal_moves().iter().collect();
        board.play(moves[rng.below(moves.len())]);
    }
    board
}

#[test]
fn moves_alternate_and_undo_restores_everything() {
    let mut board = Board::<Bits256>::new(Rule::Freestyle);
    let g = Bits256::GEOMETRY;
    let h8 = g.cell(7, 7).unwrap();
    board.play(h8);
    assert_eq!(board.stone_at(h8), Some(Color::Black));
    assert_eq!(board.side_to_move(), Color::White);
    assert_ne!(board.hash(), 0);
    assert_eq!(board.undo(), Some(h8));
    assert_eq!(board.hash(), 0);
    assert_eq!(board.undo(), None);
    assert!(board.is_consistent());
}

#[test]
fn illegal_moves_leave_the_board_unchanged() {
    let mut board = Board::<Bits32>::from_notation(Rule::Freestyle, "1,1").unwrap();
    let before = board.clone();
    assert_eq!(board.try_play_at(1, 1), Err(IllegalMove::Occupied { x: 1, y: 1 }));
    assert_eq!(board.try_play_at(5, 0), Err(IllegalMove::OffBoard { x: 5, y: 0 }));
    assert_eq!(
        board.try_play(Cell::from_index(5)),
        Err(IllegalMove::OffBoard { x: 5, y: 0 }),
        "a guard index is off the board"
    );
    assert_eq!(board.history(), before.history());
    assert_eq!(board.hash(), before.hash());
}

#[test]
fn the_last_move_can_win_and_then_nothing_is_legal() {
    // X: top row; O: middle row (two stones).
    let mut board = Board::<Bits16>::from_notation(Rule::Freestyle, "0,0 0,1 1,0 1,1").unwrap();
    assert_eq!(board.try_play_at(2, 0), Ok(Outcome::Win(Color::Black)));
    assert!(board.legal_moves().is_empty());
    assert_eq!(board.try_play_at(2, 1), Err(IllegalMove::GameOver));
    board.undo();
    assert_eq!(board.outcome(), Outcome::Ongoing);
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    // X O X / X O O / O X X
    let board =
        Board::<Bits16>::from_notation(Rule::Standard, "0,0 1,0 2,0 1,1 0,1 2,1 1,2 0,2 2,2");
    assert_eq!(board.unwrap().outcome(), Outcome::Draw);
}

#[test]
fn hash_after_make_and_unmake_equals_the_recomputed_hash() {
    let mut rng = SplitMix64::new(99);
    for _ in 0..200 {
        let mut board = random_game::<Bits32>(&mut rng, Rule::Freestyle);
        assert!(board.is_consistent());
        while board.undo().is_some() {
            assert!(board.is_consistent());
        }
        assert_eq!(board.hash(), 0);
    }
    for _ in 0..20 {
        let board = random_game::<Bits256>(&mut rng, Rule::Standard);
        assert!(board.is_consistent());
    }
}

#[test]
fn hash_after_predicts_the_hash_of_every_move() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..10 {
        let mut board = Board::<Bits256>::new(Rule::Renju);
        while !board.outcome().is_decided() && board.move_count() < 60 {
            let moves = board.legal_moves();
            for cell in moves.iter() {
                let predicted = board.hash_after(cell);
                board.play_unchecked(cell);
                assert_eq!(board.hash(), predicted);
                board.undo_unchecked();
            }
            let pick = rng.below(moves.count() as usize);
            board.play_unchecked(moves.iter().nth(pick).expect("a legal move"));
        }
    }
}

/// Values for the code sums that tell every code and colour apart (the evaluation's own
/// worths are tested in `crate::eval`).
fn test_values() -> &'static CodeValues {
    static VALUES: std::sync::LazyLock<CodeValues> = std::sync::LazyLock::new(|| {
        CodeValues::new(|color, pcode| [i32::from(pcode), 3 * i32::from(pcode) + color as i32])
    });
    &VALUES
}

#[test]
fn incremental_threat_sets_and_code_sums_match_the_patterns_and_the_rule_on_random_games() {
    let mut rng = SplitMix64::new(31);
    for rule in Rule::ALL {
        for _ in 0..6 {
            let mut board = Board::<Bits256>::new(rule);
            board.sum_code_values(test_values());
            while !board.outcome().is_decided() && board.move_count() < 120 {
                for color in [Color::Black, Color::White] {
                    let (own, opp) = (board.stones(color), board.stones(color.opponent()));
                    assert_eq!(
                        board.winning_cells(color),
                        rule.winning_cells(own, opp, color),
                        "{rule}"
                    );
                    // The four and three sets hold exactly the cells whose patterns say so.
                    let empty = board.empty_cells();
                    let lines = board.patterns();
                    let fours = lines.threat_cells(color, ThreatKind::Four).unwrap() & empty;
                    let threes = lines.threat_cells(color, ThreatKind::Three).unwrap() & empty;
                    // Each code sum (kept packed, both colours and values in one
                    // integer) is the direct sum over the empty cells.
                    let direct = [0, 1].map(|i| {
                        let values = test_values();
                        empty
                            .iter()
                            .map(|cell| {
                                let black = lines.cell_patterns(cell, Color::Black).unwrap();
                                let white = lines.cell_patterns(cell, Color::White).unwrap();
                                unpack_sum(values.of_key(both_cell_key(black, white)), color, i)
                            })
                            .sum::<i32>()
                    });
                    assert_eq!(lines.code_sums(color), Some(direct), "{rule}");
                    // The reach of the open-four points (and of the fives): up to five
                    // steps along each direction whose pattern is an open four or a
                    // one-line double four (a five).
                    let g = Bits256::GEOMETRY;
                    for (kind, shapes) in [
                        (ThreatKind::OpenFour, &[Pattern::F4, Pattern::DoubleFour][..]),
                        (ThreatKind::Five, &[Pattern::Five][..]),
                    ] {
                        let points = lines.threat_cells(color, kind).unwrap() & empty;
                        let mut reach = Bits256::EMPTY;
                        for cell in points.iter() {
                            let p = lines.cell_patterns(cell, color).unwrap();
                            let (x, y) = g.xy(cell);
                            for (d, dir) in crate::geometry::Direction::ALL.into_iter().enumerate()
                            {
                                if shapes.contains(&p[d]) {
                                    let (dx, dy) = dir.delta();
                                    reach |= (-5..=5)
                                        .filter_map(|k| {
                                            g.cell_i32(x as i32 + dx * k, y as i32 + dy * k)
                                        })
                                        .fold(Bits256::EMPTY, Bitboard::with);
                                }
                            }
                        }
                        assert_eq!(lines.threat_reach(color, kind, points), Some(reach));
                    }
                    for cell in empty.iter() {
                        let p = lines.cell_patterns(cell, color).unwrap();
                        assert_eq!(fours.contains(cell), p.iter().any(|q| q.is_four()), "{rule}");
                        assert_eq!(
                            threes.contains(cell),
                            p.iter().any(|q| q.is_open_three()),
                            "{rule}"
                        );
                    }
                }
                let moves: Vec<Cell> = board.legal_moves().iter().collect();
                board.play(moves[rng.below(moves.len())]);
            }
            assert!(board.is_consistent());
        }
    }
}

#[test]
fn line_state_after_random_makes_and_unmakes_matches_a_rebuild_under_every_rule() {
    // Unmake restores recorded pattern pairs rather than recomputing them: walk random
    // games forward and back, comparing with a from-scratch rebuild at every step.
    let mut rng = SplitMix64::new(57);
    for rule in Rule::ALL {
        for _ in 0..4 {
            let mut board = Board::<Bits256>::new(rule);
            board.sum_code_values(test_values());
            for _ in 0..160 {
                let back = board.move_count() > 0 && rng.below(3) == 0;
                if back || board.outcome().is_decided() {
                    for _ in 0..=rng.below(3) {
                        board.undo();
                    }
                } else {
                    let moves: Vec<Cell> = board.legal_moves().iter().collect();
                    board.play(moves[rng.below(moves.len())]);
                }
                assert!(board.is_consistent(), "{rule} after {}", board.move_count());
            }
            while board.undo().is_some() {}
            assert_eq!(board.hash(), 0);
            assert!(board.is_consistent());
        }
    }
}

#[test]
fn moves_played_without_the_code_sums_leave_them_as_they_were() {
    // The threat search turns the sums off, plays and takes back its moves, and turns
    // them on again: the sums must then be the position's, and every other part of the
    // pattern state must have been kept all along.
    let mut rng = SplitMix64::new(83);
    let sums = |board: &Board<Bits256>| {
        [Color::Black, Color::White].map(|c| board.patterns().code_sums(c).expect("summed"))
    };
    for rule in Rule::ALL {
        let mut board = Board::<Bits256>::new(rule);
        board.sum_code_values(test_values());
        while !board.outcome().is_decided() && board.move_count() < 100 {
            let before = sums(&board);
            assert!(board.keep_code_sums(false));
            let start = board.move_count();
            for _ in 0..=rng.below(6) {
                if board.outcome().is_decided() {
                    break;
                }
                let moves: Vec<Cell> = board.legal_moves().iter().collect();
                board.play(moves[rng.below(moves.len())]);
                assert!(board.is_consistent(), "{rule} after {}", board.move_count());
            }
            while board.move_count() > start {
                board.undo();
            }
            assert!(!board.keep_code_sums(true));
            assert_eq!(sums(&board), before, "{rule} after {}", board.move_count());
            assert!(board.is_consistent());
            let moves: Vec<Cell> = board.legal_moves().iter().collect();
            board.play(moves[rng.below(moves.len())]);
        }
    }
}

/// After a pass the opponent moves on the same stones, under a hash of its own; moves
/// played after it keep the board consistent (pattern state included), and taking them and
/// the pass back restores it, under every rule.
#[test]
fn a_pass_hands_the_move_over_and_taking_it_back_restores_the_board() {
    for rule in Rule::ALL {
        let mut board = Board::<Bits256>::from_notation(rule, "h8,i9,h9").unwrap();
        let (hash, black) = (board.hash(), board.stones(Color::Black));
        board.pass();
        assert_eq!(board.side_to_move(), Color::Black);
        assert_eq!(board.hash(), hash ^ zobrist::PASS);
        assert!(board.is_consistent(), "{rule}: after the pass");
        let h10 = Bits256::GEOMETRY.parse_pos("h10");
        assert_eq!(board.play(h10), Outcome::Ongoing);
        assert_eq!(board.stones(Color::Black), black.with(h10));
        assert_eq!(board.side_to_move(), Color::White);
        assert!(board.is_consistent(), "{rule}: a move after the pass");
        assert_eq!(board.undo(), Some(h10));
        board.undo_pass();
        assert_eq!(board.side_to_move(), Color::White);
        assert_eq!(board.hash(), hash);
        assert!(board.is_consistent(), "{rule}: the pass taken back");
    }
}

#[test]
fn same_stones_in_another_order_hash_the_same() {
    let a = Board::<Bits256>::from_notation(Rule::Freestyle, "h8i9j8k9").unwrap();
    let b = Board::<Bits256>::from_notation(Rule::Freestyle, "j8k9h8i9").unwrap();
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn display_draws_the_board() {
    let board = Board::<Bits16>::from_notation(Rule::Freestyle, "b2a1").unwrap();
    assert_eq!(board.to_string(), "    a b c\n  1 O . .\n  2 . X .\n  3 . . .\n");
}
