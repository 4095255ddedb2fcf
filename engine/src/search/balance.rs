//! Balanced positions (`YXBALANCEONE`, `YXBALANCETWO`): the stone of the side to move, or
//! that stone and a reply of the opponent's, after which the position scores as close to a
//! target as mnk can find — the tool GUIs use to make fair openings.
//!
//! Every candidate placement (each candidate move, or each candidate move and candidate
//! reply) is scored by the static evaluation; the `balance_refined` placements closest to
//! the target are searched with a node limit, and the one whose search score is closest
//! wins (ties to the statically closer).

use super::{SearchParams, Searcher};
use crate::board::Board;
use crate::eval::{self, evaluate};
use crate::geometry::Cell;
use crate::limits::Limits;
use crate::movegen;
use crate::outcome::Outcome;
use crate::rules::Rule;
use crate::score::Score;
use crate::storage::Storage;
use crate::tt::TranspositionTable;

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
/// `target`: each of the `params.balance_refined` statically closest placements searched
/// with `params`, `tt` and the nodes of `limits` (`params.balance_nodes` if they set none),
/// until their deadline or flag (at least one is always searched). `None` if no placement
/// leaves the game undecided.
pub fn balance<B: Storage>(
    board: &Board<B>,
    stones: usize,
    target: Score,
    tt: &mut TranspositionTable,
    limits: &Limits,
    params: &SearchParams,
) -> Option<Balance> {
    let limits = limits.clone().nodes_or(u64::try_from(params.balance_nodes).expect("above 0"));
    let stop = limits.stop();
    let mut board = board.clone();
    eval::prepare(&mut board);
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
    let refined = usize::try_from(params.balance_refined).expect("at least 1");
    for (_, moves) in placements.into_iter().take(refined) {
        if best.is_some() && stop.is_due() {
            break;
        }
        for &cell in &moves {
            board.play_unchecked(cell);
        }
        let searcher = Searcher::new(board.clone(), tt, limits.each_search());
        let result = searcher.with_params(*params).run(&mut |_| {});
        for _ in &moves {
            board.undo_unchecked();
        }
        let score = result.score();
        if best.as_ref().is_none_or(|b| distance(score) < distance(b.score)) {
            best = Some(Balance { moves, score });
        }
        if stop.flag_raised() {
            break;
        }
    }
    best
}

/// A swap2 opening's shape: the offsets from the centre of white's stone and of black's
/// second (black's first is the centre).
pub type Swap2Shape = [(i32, i32); 2];

/// The swap2 openings [`swap2_opening`] tries under `rule`, in order: on 15×15 the first
/// few scored within about ±30 for white in mnk's searches of 200,000 nodes (standard h8
/// i8 f4 also at 3 million nodes and in its 1 s and 3 s swap decisions before the prunings
/// of issue 70; freestyle h8 i9 c10 came first after them, when h8 i9 l5 fell to −33, and
/// renju h8 i8 d8, +33, when h8 i8 e11 rose to +41), the next less evenly; the last two fit every
/// board from 5 wide or high.
pub fn swap2_shapes(rule: Rule) -> &'static [Swap2Shape] {
    match rule {
        Rule::Freestyle | Rule::Caro => &[
            [(1, 1), (-5, 2)],
            [(1, 1), (4, -3)],
            [(1, 0), (-2, -4)],
            [(1, 1), (-2, 4)],
            [(1, 0), (-3, 3)],
            [(1, 0), (-2, -3)],
            [(1, 0), (-3, -2)],
        ],
        Rule::Standard | Rule::CaroExact => &[
            [(1, 0), (-2, -4)],
            [(1, 1), (1, 5)],
            [(1, 0), (5, 0)],
            [(1, 0), (-3, 3)],
            [(1, 0), (-2, -3)],
            [(1, 0), (-3, -2)],
        ],
        Rule::Renju => &[
            [(1, 0), (-4, 0)],
            [(1, 0), (-3, 3)],
            [(1, 0), (-3, -3)],
            [(1, 1), (4, -2)],
            [(1, 1), (3, -3)],
            [(1, 0), (-2, -3)],
            [(1, 0), (-3, -2)],
        ],
    }
}

/// Transposition-table bytes of each search of [`swap2_opening`] (a fresh table for each,
/// so the opening does not depend on what was searched before).
pub const SWAP2_TABLE_BYTES: usize = 16 << 20;

/// A swap2 opening to propose on `board` (empty): three stones, black, white, black, after
/// which white, to move, scores within `margin` of even by a search with `params` of the
/// nodes of `limits` (`params.swap2_nodes` if they set none) — the first of the rule's
/// [`swap2_shapes`] on the board that does, else the closest, until their deadline or flag
/// (at least one is searched), with its score for white.
pub fn swap2_opening<B: Storage>(
    board: &Board<B>,
    margin: Score,
    limits: &Limits,
    params: &SearchParams,
) -> Balance {
    let limits = limits.clone().nodes_or(u64::try_from(params.swap2_nodes).expect("above 0"));
    let stop = limits.stop();
    let g = board.geometry();
    let centre = ((g.width() / 2) as i32, (g.height() / 2) as i32);
    let shape_cells = |shape: &Swap2Shape| -> Option<Vec<Cell>> {
        let mut cells = vec![g.cell(centre.0 as usize, centre.1 as usize)?];
        for &(dx, dy) in shape {
            let (x, y) =
                (usize::try_from(centre.0 + dx).ok()?, usize::try_from(centre.1 + dy).ok()?);
            cells.push(g.cell(x, y)?);
        }
        Some(cells)
    };
    // (Every gomoku board has a shape that fits: the last two fit from 5 wide or high and 6
    // the other way.)
    let shapes = swap2_shapes(board.rule()).iter().filter_map(shape_cells);
    let mut best: Option<Balance> = None;
    for moves in shapes {
        if best.is_some() && stop.is_due() {
            break;
        }
        let mut opening = board.clone();
        for &cell in &moves {
            opening.play_unchecked(cell);
        }
        let mut tt = TranspositionTable::with_bytes(SWAP2_TABLE_BYTES);
        let searcher = Searcher::new(opening, &mut tt, limits.each_search());
        let score = searcher.with_params(*params).run(&mut |_| {}).score();
        if best.as_ref().is_none_or(|b| score.abs() < b.score.abs()) {
            best = Some(Balance { moves, score });
        }
        if score.abs() <= margin || stop.flag_raised() {
            break;
        }
    }
    best.expect("one shape at least was searched")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits256};
    use crate::rules::Rule;

    fn run(moves: &str, stones: usize, target: Score) -> (Board<Bits256>, Balance) {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let mut tt = TranspositionTable::with_bytes(1 << 22);
        let found =
            balance(&board, stones, target, &mut tt, &Limits::nodes(5_000), &SearchParams::DEFAULT)
                .expect("a move");
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

#[cfg(test)]
mod swap2_tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits256};

    /// The swap2 openings proposed on 15×15: the first shape of each rule's, judged within
    /// the margin by the same search.
    #[test]
    fn the_swap2_opening_is_balanced_by_the_search_that_chose_it() {
        let g = Bits256::GEOMETRY;
        // (No renju shape of the list is within ±30 at 200,000 nodes: the closest.)
        for (rule, expected, bound) in [
            (Rule::Freestyle, ["h8", "i9", "c10"], 30),
            (Rule::Standard, ["h8", "i8", "f4"], 30),
            (Rule::Renju, ["h8", "i8", "d8"], 33),
        ] {
            let board = Board::<Bits256>::new(rule);
            let found = swap2_opening(&board, 30, &Limits::nodes(200_000), &SearchParams::DEFAULT);
            let pos: Vec<String> = found.moves.iter().map(|&c| g.format_pos(c)).collect();
            assert_eq!(pos, expected, "{rule}");
            assert!(found.score.abs() <= bound, "{rule}: {}", found.score);
        }
    }

    /// Every gomoku board, however narrow, gets an opening; when none is within the
    /// margin, the closest of those that fit.
    #[test]
    fn every_board_gets_an_opening_and_without_a_balanced_one_the_closest() {
        for (width, height) in [(5, 6), (6, 5), (5, 15), (15, 6)] {
            let g = crate::size::BoardSize::new(width, height).unwrap().geometry();
            let board = Board::<Bits256>::with_geometry(g, Rule::Freestyle);
            let found = swap2_opening(&board, 30, &Limits::nodes(1_000), &SearchParams::DEFAULT);
            let mut opening = board.clone();
            for &cell in &found.moves {
                assert_eq!(opening.try_play(cell), Ok(crate::outcome::Outcome::Ongoing));
            }
            assert_eq!(found.moves.len(), 3, "{width}x{height}");
        }
        let board = Board::<Bits256>::new(Rule::Freestyle);
        let closest = swap2_opening(&board, -1, &Limits::nodes(2_000), &SearchParams::DEFAULT);
        let first = swap2_opening(&board, 30, &Limits::nodes(2_000), &SearchParams::DEFAULT);
        assert!(closest.score.abs() <= first.score.abs(), "{closest:?} {first:?}");
    }
}
