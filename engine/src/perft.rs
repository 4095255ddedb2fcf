//! Perft: the number of move sequences of a given length from a position.
//!
//! A sequence stops at the first decided position (a winning line, or a full board): a
//! decided position has no children, so `perft(d)` counts the sequences of exactly `d` legal
//! moves none of whose proper prefixes ends the game. `perft(0)` is 1.
//!
//! The last ply is *bulk counted*: at depth 1 the count is the number of legal moves, without
//! playing them. Counting runs on [`Board::for_counting`] copies, which skip the incremental
//! pattern state (kept only under renju, whose forbidden points need it). Counts are `u128` because deep counts overflow `u64` (15×15 perft(9)).
//! [`perft_parallel`] splits the root moves over threads; the sum does not depend on the
//! thread count.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::Board;
use crate::geometry::Cell;
use crate::limits::Stop;
use crate::outcome::Outcome;
use crate::storage::Storage;

/// A perft node count.
pub type NodeCount = u128;

/// Counts the move sequences of length `depth` from `board`.
///
/// ```
/// use mnk_engine::{bitboard::Bits16, board::Board, perft::perft, rules::Rule};
/// let mut ttt = Board::<Bits16>::new(Rule::Freestyle);
/// assert_eq!(perft(&mut ttt, 9), 127_872);
/// ```
pub fn perft<B: Storage>(board: &mut Board<B>, depth: u32) -> NodeCount {
    if depth == 0 {
        return 1;
    }
    perft_inner(&mut board.for_counting(), depth, None)
}

/// [`perft`] that gives up as soon as `stop` is due (it looks at every node three or more
/// plies from the leaves: well within a millisecond): `None` if it was stopped.
///
/// ```
/// use mnk_engine::{bitboard::Bits16, board::Board, perft::perft_until, rules::Rule};
/// use mnk_engine::limits::{Stop, StopFlag};
/// let mut ttt = Board::<Bits16>::new(Rule::Freestyle);
/// let flag = StopFlag::new();
/// assert_eq!(perft_until(&mut ttt, 9, &Stop::on(flag.clone())), Some(127_872));
/// flag.raise();
/// assert_eq!(perft_until(&mut ttt, 9, &Stop::on(flag)), None);
/// ```
pub fn perft_until<B: Storage>(board: &mut Board<B>, depth: u32, stop: &Stop) -> Option<NodeCount> {
    let count =
        if depth == 0 { 1 } else { perft_inner(&mut board.for_counting(), depth, Some(stop)) };
    (!stop.is_due()).then_some(count)
}

/// The perft count of every legal root move, in cell-index order.
pub fn divide<B: Storage>(board: &mut Board<B>, depth: u32) -> Vec<(Cell, NodeCount)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut counting = board.for_counting();
    board
        .legal_moves()
        .iter()
        .map(|cell| (cell, count_after(&mut counting, cell, depth - 1)))
        .collect()
}

/// [`divide`] with the root moves shared among `threads` worker threads (at least one).
pub fn divide_parallel<B: Storage>(
    board: &Board<B>,
    depth: u32,
    threads: usize,
) -> Vec<(Cell, NodeCount)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Cell> = board.legal_moves().iter().collect();
    let next = AtomicUsize::new(0);
    let mut counts: Vec<(Cell, NodeCount)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let mut local = board.for_counting();
                let (moves, next) = (&moves, &next);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&cell) = moves.get(i) else {
                            break done;
                        };
                        done.push((cell, count_after(&mut local, cell, depth - 1)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("perft worker threads do not panic"))
            .collect()
    });
    counts.sort_unstable_by_key(|&(cell, _)| cell);
    counts
}

/// [`perft`] with the root moves shared among `threads` worker threads.
pub fn perft_parallel<B: Storage>(board: &Board<B>, depth: u32, threads: usize) -> NodeCount {
    if depth == 0 {
        return 1;
    }
    divide_parallel(board, depth, threads).iter().map(|&(_, n)| n).sum()
}

/// Sequences of length `1 + depth` that start with `cell`.
fn count_after<B: Storage>(board: &mut Board<B>, cell: Cell, depth: u32) -> NodeCount {
    let outcome = board.play_unchecked(cell);
    let n = if depth == 0 {
        1
    } else if outcome == Outcome::Ongoing {
        perft_inner(board, depth, None)
    } else {
        0
    };
    board.undo_unchecked();
    n
}

/// `depth >= 1`. Returns early, with a partial count, once `stop` is set.
fn perft_inner<B: Storage>(board: &mut Board<B>, depth: u32, stop: Option<&Stop>) -> NodeCount {
    let moves = board.legal_moves();
    if depth == 1 {
        return NodeCount::from(moves.count());
    }
    let mut nodes = 0;
    if depth == 2 {
        // The last ply, bulk counted inline: children are counted, not played.
        let mut leaves: u64 = 0;
        for cell in moves.iter() {
            if board.play_unchecked(cell) == Outcome::Ongoing {
                leaves += u64::from(board.legal_moves().count());
            }
            board.undo_unchecked();
        }
        return NodeCount::from(leaves);
    }
    if stop.is_some_and(Stop::is_due) {
        return nodes;
    }
    for cell in moves.iter() {
        if board.play_unchecked(cell) == Outcome::Ongoing {
            nodes += perft_inner(board, depth - 1, stop);
        }
        board.undo_unchecked();
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bits16, Bits32};
    use crate::rules::Rule;

    #[test]
    fn divide_sums_to_perft_and_parallel_agrees() {
        let mut board = Board::<Bits32>::from_notation(Rule::Standard, "2,2 1,1").unwrap();
        let split = divide(&mut board, 3);
        assert_eq!(split.len(), 23);
        let total: NodeCount = split.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, perft(&mut board, 3));
        assert_eq!(divide_parallel(&board, 3, 3), split);
        assert_eq!(perft_parallel(&board, 3, 4), total);
    }

    #[test]
    fn a_decided_position_has_no_children() {
        let mut won = Board::<Bits16>::from_notation(Rule::Freestyle, "a1b1a2b2a3").unwrap();
        assert!(won.outcome().is_decided());
        assert_eq!(perft(&mut won, 0), 1);
        assert_eq!(perft(&mut won, 1), 0);
        assert_eq!(perft(&mut won, 3), 0);
        assert!(divide(&mut won, 2).is_empty());
    }

    #[test]
    fn tic_tac_toe_games_ending_at_ply_five_are_1440() {
        // perft(5) counts 15,120 sequences; 1,440 of them are X wins, which have no children:
        // perft(6) = (15,120 − 1,440) · 4.
        let mut board = Board::<Bits16>::new(Rule::Freestyle);
        assert_eq!(perft(&mut board, 6), (15_120 - 1_440) * 4);
        assert_eq!(perft(&mut board, 10), 0, "no sequence is longer than the board");
    }
}
