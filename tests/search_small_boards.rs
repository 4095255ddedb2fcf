//! The search on 3×3 and 5×5: exact values against a plain minimax, unbeatable play against
//! every opponent on 3×3 and against random and shallow players on 5×5, determinism.

mod reference;

use std::time::Duration;

use mnk_engine::bitboard::{Bitboard, Bits16, Bits32};
use mnk_engine::board::Board;
use mnk_engine::color::Color;
use mnk_engine::geometry::Cell;
use mnk_engine::limits::Limits;
use mnk_engine::notation::Point;
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::search::{Searcher, search};
use mnk_engine::solve::{GameValue, Solution, solve, solve_with};
use mnk_engine::storage::Storage;
use mnk_engine::tt::TranspositionTable;
use reference::{NaiveBoard, NaiveOutcome, NaiveRule, WIN};

/// The per-move budget the engine must be unbeatable with.
const MOVE_TIME: Duration = Duration::from_millis(10);

fn naive_of<B: Storage>(moves: &[(usize, usize)]) -> NaiveBoard {
    let g = B::GEOMETRY;
    let mut naive = NaiveBoard::new(g.width(), g.height(), g.k(), NaiveRule::Freestyle);
    for &(x, y) in moves {
        naive.play(x, y);
    }
    naive
}

/// The exact score, for the side that plays it, of the move (x, y) in `naive` (distance
/// encoded like the engine's: a win now is `WIN - 1`); `naive` is left as it was.
fn exact_score_of_move(naive: &mut NaiveBoard, x: usize, y: usize) -> i32 {
    naive.play(x, y);
    let score = match naive.outcome {
        NaiveOutcome::Win(_) => WIN - 1,
        NaiveOutcome::Draw => 0,
        NaiveOutcome::Ongoing => {
            let child = naive.exact_score();
            -(child - child.signum())
        }
    };
    naive.undo();
    score
}

fn engine_move<B: Storage>(board: &Board<B>, tt: &mut TranspositionTable, limits: &Limits) -> Cell {
    let result = search(board, tt, limits.clone(), &mut |_| {});
    let cell = result.best_move.expect("an undecided board has a move");
    assert!(board.legal_moves().contains(cell), "illegal move {cell:?}");
    cell
}

/// The exact solve by plain alpha-beta, without pairing strategies, with no limit.
fn solve_without_pairing<B: mnk_engine::storage::Storage>(
    board: &Board<B>,
    tt: &mut TranspositionTable,
) -> Solution {
    solve_with(board, tt, false, &Limits::default()).expect("no limit: proven")
}
#[test]
fn tic_tac_toe_every_reachable_position_gets_the_exact_score_and_an_optimal_move() {
    let positions = NaiveBoard::new(3, 3, 3, NaiveRule::Freestyle).reachable_positions();
    assert_eq!(positions.len(), 5_478);
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let mut plain_tt = TranspositionTable::with_bytes(1 << 20);
    let mut ongoing = 0;
    for moves in &positions {
        let points: Vec<Point> = moves.iter().map(|&xy| xy.into()).collect();
        let board = Board::<Bits16>::from_points(Rule::Freestyle, &points).unwrap();
        let mut naive = naive_of::<Bits16>(moves);
        let solution = solve(&board, &mut tt);
        let plain = solve_without_pairing(&board, &mut plain_tt);
        assert_eq!(plain.score, solution.score, "without pairing after {moves:?}");
        if naive.outcome != NaiveOutcome::Ongoing {
            assert_eq!(solution.best, None, "decided board {moves:?}");
            continue;
        }
        ongoing += 1;
        let expected = naive.exact_score();
        assert_eq!(solution.score, Some(expected), "score after {moves:?}");
        // The move keeps the value (and the distance): the child's exact score mirrors it.
        let best = solution.best.expect("a move");
        let (x, y) = Bits16::GEOMETRY.xy(best);
        let after = exact_score_of_move(&mut naive, x, y);
        assert_eq!(after, expected, "move {x},{y} after {moves:?}");
    }
    assert_eq!(ongoing, 4_520);
}

#[test]
fn tic_tac_toe_multi_pv_lines_are_distinct_moves_with_exact_scores() {
    let positions = NaiveBoard::new(3, 3, 3, NaiveRule::Freestyle).reachable_positions();
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let mut several_lines = 0;
    for moves in &positions {
        let points: Vec<Point> = moves.iter().map(|&xy| xy.into()).collect();
        let board = Board::<Bits16>::from_points(Rule::Freestyle, &points).unwrap();
        let mut naive = naive_of::<Bits16>(moves);
        if naive.outcome != NaiveOutcome::Ongoing {
            continue;
        }
        let legal = board.legal_moves().count() as usize;
        let result = Searcher::new(board.clone(), &mut tt, Limits::default())
            .with_multipv(9)
            .run(&mut |_| {});
        let lines = &result.lines;
        assert!(!lines.is_empty() && lines.len() <= legal, "{} lines after {moves:?}", lines.len());
        assert_eq!(
            (lines[0].score, lines[0].pv.first()),
            (result.score(), result.best_move.as_ref())
        );
        assert_eq!(result.score(), naive.exact_score(), "best score after {moves:?}");
        let mut seen = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            let root = *line.pv.first().expect("every line starts with a move");
            assert!(board.legal_moves().contains(root) && !seen.contains(&root), "{moves:?}");
            seen.push(root);
            assert!(index == 0 || line.score <= lines[index - 1].score, "order after {moves:?}");
            // Each line's score is the exact value of its move.
            let (x, y) = Bits16::GEOMETRY.xy(root);
            let expected = exact_score_of_move(&mut naive, x, y);
            assert_eq!(line.score, expected, "line {} ({x},{y}) after {moves:?}", index + 1);
        }
        // Fewer lines than moves only when the opponent threatens a five: past an own win,
        // only the blocks are searched (the other moves lose at once).
        if lines.len() < legal {
            let threats = board.winning_cells(board.side_to_move().opponent());
            assert!(!threats.is_empty(), "after {moves:?}");
        }
        several_lines += usize::from(lines.len() > 1);
    }
    assert!(several_lines > 2_000, "{several_lines}");
}

#[test]
fn small_board_values_from_the_empty_board_are_draws() {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    for rule in Rule::ALL {
        assert_eq!(solve(&Board::<Bits16>::new(rule), &mut tt).value, GameValue::Draw);
        assert_eq!(solve(&Board::<Bits32>::new(rule), &mut tt).value, GameValue::Draw);
    }
}

/// Plays every possible opponent sequence against the engine; returns (games, engine wins).
fn adversary<B: Storage>(
    board: &mut Board<B>,
    engine: Color,
    tt: &mut TranspositionTable,
) -> (u64, u64) {
    match board.outcome() {
        Outcome::Win(c) => {
            assert_eq!(c, engine, "the engine lost: {:?}", board.history());
            return (1, 1);
        }
        Outcome::Draw => return (1, 0),
        Outcome::Ongoing => {}
    }
    if board.side_to_move() == engine {
        let limits = Limits::time(MOVE_TIME);
        let cell = engine_move(board, tt, &limits);
        board.play(cell);
        let r = adversary(board, engine, tt);
        board.undo();
        r
    } else {
        let mut total = (0, 0);
        for cell in board.legal_moves().iter() {
            board.play(cell);
            let (g, w) = adversary(board, engine, tt);
            board.undo();
            total = (total.0 + g, total.1 + w);
        }
        total
    }
}

#[test]
fn tic_tac_toe_engine_never_loses_against_any_sequence_of_replies() {
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    for engine in [Color::Black, Color::White] {
        let mut board = Board::<Bits16>::new(Rule::Freestyle);
        let (games, wins) = adversary(&mut board, engine, &mut tt);
        assert!(games > 50 && wins > 0, "{engine:?}: {games} games, {wins} wins");
    }
}

#[test]
fn five_by_five_solver_matches_plain_alpha_beta_on_random_late_positions() {
    let mut rng = SplitMix64::new(0x5_5);
    let mut tt = TranspositionTable::with_bytes(1 << 22);
    let mut values = [0usize; 3];
    let mut checked = 0;
    while checked < 150 {
        // A random game prefix of 15 to 17 stones (8 to 10 empty cells).
        let stones = 15 + rng.below(3);
        let mut board = Board::<Bits32>::new(Rule::Freestyle);
        let mut moves = Vec::new();
        while moves.len() < stones && !board.outcome().is_decided() {
            let legal: Vec<Cell> = board.legal_moves().iter().collect();
            let cell = legal[rng.below(legal.len())];
            board.play(cell);
            moves.push(Bits32::GEOMETRY.xy(cell));
        }
        if board.outcome().is_decided() {
            continue;
        }
        let expected = naive_of::<Bits32>(&moves).exact_score();
        let solution = solve(&board, &mut tt);
        assert_eq!(solution.score, Some(expected), "after {moves:?}");
        let plain = solve_without_pairing(&board, &mut tt);
        assert_eq!(plain.score, Some(expected), "without pairing after {moves:?}");
        values[match solution.value {
            GameValue::Win => 0,
            GameValue::Draw => 1,
            GameValue::Loss => 2,
        }] += 1;
        checked += 1;
    }
    assert!(values.iter().all(|&n| n > 0), "wins, draws and losses all occur: {values:?}");
}

/// Opponents for the 5×5 games.
#[derive(Copy, Clone, Debug)]
enum Opponent {
    Random,
    /// The engine's own search at depth 2 with a random opening move.
    Shallow,
}

/// Plays one 5×5 game and checks: the engine never loses, and once it holds a won position
/// it wins. Returns the outcome.
fn five_by_five_game(
    rng: &mut SplitMix64,
    engine: Color,
    opponent: Opponent,
    tt: &mut TranspositionTable,
) -> Outcome {
    let mut board = Board::<Bits32>::new(Rule::Freestyle);
    let mut oracle = TranspositionTable::with_bytes(1 << 20);
    let mut had_win = false;
    let engine_limits = Limits::time(MOVE_TIME);
    let shallow = Limits::depth(2);
    while !board.outcome().is_decided() {
        let cell = if board.side_to_move() == engine {
            if !had_win && solve(&board, &mut oracle).value == GameValue::Win {
                had_win = true;
            }
            engine_move(&board, tt, &engine_limits)
        } else {
            let legal: Vec<Cell> = board.legal_moves().iter().collect();
            match opponent {
                Opponent::Shallow if board.move_count() > 1 => {
                    engine_move(&board, &mut oracle, &shallow)
                }
                _ => legal[rng.below(legal.len())],
            }
        };
        board.play(cell);
    }
    let outcome = board.outcome();
    assert_ne!(outcome, Outcome::Win(engine.opponent()), "lost: {:?}", board.history());
    if had_win {
        assert_eq!(
            outcome,
            Outcome::Win(engine),
            "a won position was not converted: {:?}",
            board.history()
        );
    }
    outcome
}

#[test]
fn five_by_five_engine_never_loses_and_converts_every_won_position() {
    let mut rng = SplitMix64::new(2026);
    let mut tt = TranspositionTable::with_bytes(1 << 22);
    let mut wins = 0;
    let mut games = 0;
    for opponent in [Opponent::Random, Opponent::Shallow] {
        for i in 0..600 {
            let engine = if i % 2 == 0 { Color::Black } else { Color::White };
            if five_by_five_game(&mut rng, engine, opponent, &mut tt) == Outcome::Win(engine) {
                wins += 1;
            }
            games += 1;
        }
    }
    assert!(wins > games / 4, "the engine wins games against weak play: {wins}/{games}");
}

#[test]
fn search_with_a_node_limit_is_deterministic() {
    let board = Board::<Bits32>::from_notation(Rule::Freestyle, "c3b2").unwrap();
    let run = || {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let limits = Limits::nodes(3_000);
        search(&board, &mut tt, limits, &mut |_| {})
    };
    let (a, b) = (run(), run());
    assert_eq!(
        (a.nodes, a.best_move, a.score(), a.depth),
        (b.nodes, b.best_move, b.score(), b.depth)
    );
    assert!(a.nodes <= 3_000);
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let board =
        Board::<mnk_engine::bitboard::Bits256>::from_notation(Rule::Freestyle, "h8i9h9").unwrap();
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    for nodes in [1, 2, 10, 100] {
        let limits = Limits::nodes(nodes);
        let result = search(&board, &mut tt, limits, &mut |_| {});
        let cell = result.best_move.expect("a move");
        assert!(board.legal_moves().contains(cell));
    }
}
