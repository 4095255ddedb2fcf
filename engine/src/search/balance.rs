//! Balanced positions (`YXBALANCEONE`, `YXBALANCETWO`): the stone of the side to move, or
//! that stone and a reply of the opponent's, after which the position scores as close to a
//! target as mnk can find — the tool GUIs use to make fair openings.
//!
//! Every candidate placement (each candidate move, or each candidate move and candidate
//! reply) is scored by the static evaluation; the [`BALANCE_REFINED`] placements closest
//! to the target are searched with a node limit, and the one whose search score is closest
//! wins (ties to the statically closer).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{SearchLimits, search};
use crate::board::Board;
use crate::eval::evaluate;
use crate::geometry::Cell;
use crate::movegen;
use crate::outcome::Outcome;
use crate::score::Score;
use crate::size::Size;
use crate::tt::TranspositionTable;

/// Placements closest to the target by the static evaluation that are searched.
pub const BALANCE_REFINED: usize = 48;

/// A placement and its score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balance {
    /// The stones, in the order they are played (the side to move's first).
    pub moves: Vec<Cell>,
    /// The search's score after them, for the side to move then.
    pub score: Score,
}

/// The placement of `stones` stones (1: the side to move's; 2: that and the opponent's
/// reply) after which the position's score, for the side to move then, is closest to
/// `target`: each of the [`BALANCE_REFINED`] statically closest placements searched with
/// `nodes` and `tt`, until `deadline` or `stop` (at least one is always searched). `None`
/// if no placement leaves the game undecided.
pub fn balance<B: Size>(
    board: &Board<B>,
    stones: usize,
    target: Score,
    tt: &mut TranspositionTable,
    nodes: u64,
    (deadline, stop): (Option<Instant>, Option<Arc<AtomicBool>>),
) -> Option<Balance> {
    let mut board = board.clone();
    let distance = |score: Score| (i64::from(score) - i64::from(target)).abs();
    let mut placements: Vec<(i64, Vec<Cell>)> = Vec::new();
    for first in movegen::candidates(&board).iter() {
        if board.play_unchecked(first) == Outcome::Ongoing {
            if stones == 1 {
                placements.push((distance(evaluate(&board)), vec![first]));
            } else {
                for reply in movegen::candidates(&board).iter() {
                    if board.play_unchecked(reply) == Outcome::Ongoing {
                        placements.push((distance(evaluate(&board)), vec![first, reply]));
                    }
                    board.undo_unchecked();
                }
            }
        }
        board.undo_unchecked();
    }
    placements.sort_by_key(|(distance, moves)| {
        (*distance, moves.iter().map(|cell| cell.index()).collect::<Vec<_>>())
    });
    let mut best: Option<Balance> = None;
    for (_, moves) in placements.into_iter().take(BALANCE_REFINED) {
        let now = Instant::now();
        if best.is_some() && deadline.is_some_and(|d| now >= d) {
            break;
        }
        for &cell in &moves {
            board.play_unchecked(cell);
        }
        let limits = SearchLimits {
            nodes: Some(nodes),
            time: deadline.map(|d| d.saturating_duration_since(now)),
            stop: stop.clone(),
            ..SearchLimits::default()
        };
        let result = search(&board, tt, limits, &mut |_| {});
        for _ in &moves {
            board.undo_unchecked();
        }
        let score = result.score();
        if best.as_ref().is_none_or(|b| distance(score) < distance(b.score)) {
            best = Some(Balance { moves, score });
        }
        if stop.as_ref().is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits256};
    use crate::rules::Rule;

    fn run(moves: &str, stones: usize, target: Score) -> (Board<Bits256>, Balance) {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let mut tt = TranspositionTable::with_bytes(1 << 22);
        let found = balance(&board, stones, target, &mut tt, 5_000, (None, None)).expect("a move");
        (board, found)
    }

    #[test]
    fn one_stone_is_a_legal_move_closer_to_the_target_than_the_static_extremes() {
        let (board, even) = run("h8,i9,h9", 1, 0);
        assert_eq!(even.moves.len(), 1);
        assert!(board.legal_moves().contains(even.moves[0]));
        let (_, lopsided) = run("h8,i9,h9", 1, 2_000);
        assert!(
            even.score.abs() < (lopsided.score - 2_000).abs(),
            "even {} lopsided {}",
            even.score,
            lopsided.score
        );
        assert!(lopsided.score > even.score, "a higher target, a higher score");
    }

    #[test]
    fn two_stones_are_the_side_to_move_then_its_opponent() {
        let (board, found) = run("h8", 2, 0);
        let [first, reply] = found.moves[..] else { panic!("{found:?}") };
        let mut after = board.clone();
        assert_eq!(after.play_unchecked(first), Outcome::Ongoing);
        assert!(after.legal_moves().contains(reply));
        assert!(found.score.abs() < 200, "near even: {}", found.score);
    }
}
