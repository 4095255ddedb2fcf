//! The bitboard engine against the naive array board of `reference/`: stones, outcomes and
//! perft on seeded random positions of every kind of size (square, rectangular, the types' largest
//! and smaller) under every rule.

mod reference;

use mnk_engine::bitboard::{Bitboard, Bits16, Bits32, Bits256, Bits512};
use mnk_engine::board::Board;
use mnk_engine::color::Color;
use mnk_engine::geometry::Geometry;
use mnk_engine::notation::Point;
use mnk_engine::outcome::Outcome;
use mnk_engine::perft::perft;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::{size::BoardSize, storage::Storage};
use reference::{NaiveBoard, NaiveOutcome, NaiveRule};

fn naive_outcome(outcome: Outcome) -> NaiveOutcome {
    match outcome {
        Outcome::Ongoing => NaiveOutcome::Ongoing,
        Outcome::Win(Color::Black) => NaiveOutcome::Win(0),
        Outcome::Win(Color::White) => NaiveOutcome::Win(1),
        Outcome::Draw => NaiveOutcome::Draw,
    }
}

fn assert_same<B: Storage>(board: &Board<B>, naive: &NaiveBoard) {
    let g = board.geometry();
    assert!(board.is_consistent());
    assert_eq!(naive_outcome(board.outcome()), naive.outcome, "outcome after {:?}", naive.moves);
    for y in 0..g.height() {
        for x in 0..g.width() {
            let stone = board.stone_at(g.cell(x, y).unwrap()).map(|c| c.index() as u8);
            assert_eq!(stone, naive.cells[y][x], "({x},{y}) after {:?}", naive.moves);
        }
    }
}

/// Plays a random game on both boards, comparing after every move, and returns the positions
/// seen (as move lists), on a board of geometry `g`. Moves stay inside a `window`×`window`
/// square (at most the board) so lines and overlines happen often.
fn random_game<B: Storage>(
    rng: &mut SplitMix64,
    g: Geometry,
    rule: Rule,
    window: usize,
) -> Vec<Vec<(usize, usize)>> {
    let mut board = Board::<B>::with_geometry(g, rule);
    let mut naive = NaiveBoard::new(g.width(), g.height(), g.k(), NaiveRule::of(rule));
    let (wx, wy) = (window.min(g.width()), window.min(g.height()));
    let (ox, oy) = (rng.below(g.width() - wx + 1), rng.below(g.height() - wy + 1));
    let mut seen = Vec::new();
    while naive.outcome == NaiveOutcome::Ongoing {
        let mut candidates: Vec<(usize, usize)> = naive
            .empty_cells()
            .into_iter()
            .filter(|&(x, y)| x >= ox && x < ox + wx && y >= oy && y < oy + wy)
            .collect();
        // Draw moves until one is legal; every forbidden one must be refused by both boards.
        let mut chosen = None;
        while !candidates.is_empty() {
            let (x, y) = candidates.swap_remove(rng.below(candidates.len()));
            let forbidden = rule == Rule::Renju
                && naive.to_move() == 0
                && !g.lines_span_board()
                && naive.forbidden(x, y, 8);
            if forbidden {
                let refused = board.try_play_at(x, y);
                assert!(
                    matches!(refused, Err(mnk_engine::board::IllegalMove::Forbidden { .. })),
                    "({x},{y}) is forbidden after {:?} but the engine says {refused:?}",
                    naive.moves
                );
                continue;
            }
            chosen = Some((x, y));
            break;
        }
        let Some((x, y)) = chosen else { break };
        board.try_play_at(x, y).expect("the naive board found the move legal");
        naive.play(x, y);
        assert_same(&board, &naive);
        seen.push(naive.moves.clone());
    }
    // Unwind on both boards, still in agreement.
    while let Some(cell) = board.undo() {
        naive.undo();
        let (x, y) = g.xy(cell);
        assert!(naive.cells[y][x].is_none());
        assert_same(&board, &naive);
    }
    seen
}

fn boards_agree_on_random_games<B: Storage>(g: Geometry, games: usize, window: usize) -> usize {
    let mut rng = SplitMix64::new(0xC0FFEE ^ (g.width() * 32 + g.height()) as u64);
    let mut positions = 0;
    for rule in Rule::ALL {
        for _ in 0..games {
            positions += random_game::<B>(&mut rng, g, rule, window).len();
        }
    }
    positions
}

#[test]
fn reference_and_bitboard_boards_agree_on_thousands_of_positions() {
    let mut positions = boards_agree_on_random_games::<Bits16>(Bits16::GEOMETRY, 300, 3);
    positions += boards_agree_on_random_games::<Bits32>(Bits32::GEOMETRY, 200, 5);
    positions += boards_agree_on_random_games::<Bits256>(Bits256::GEOMETRY, 40, 7);
    positions += boards_agree_on_random_games::<Bits256>(Bits256::GEOMETRY, 10, 15);
    assert!(positions > 5_000, "only {positions} positions compared");
}

/// Boards of both gomoku types, their largest (22×22) and smaller ones, square and not:
/// random games (whole-board ones put the edges and corners in play) under every rule agree with the reference move by move, and
/// every incremental structure with its recomputation (`assert_same` checks
/// `Board::is_consistent`, which rebuilds the line keys).
#[test]
fn reference_and_bitboard_boards_agree_on_every_kind_of_size() {
    let mut positions = 0;
    for (width, height) in [(6, 6), (11, 11), (7, 5), (5, 13), (15, 9), (12, 14)] {
        let g = BoardSize::new(width, height).unwrap().geometry();
        positions += boards_agree_on_random_games::<Bits256>(g, 6, 15);
    }
    for (width, height) in [(22, 22), (20, 20), (20, 15), (16, 9), (5, 22)] {
        let g = BoardSize::new(width, height).unwrap().geometry();
        // Games in a 9×9 window (lines and overlines come soon), and whole-board ones.
        positions += boards_agree_on_random_games::<Bits512>(g, 4, 9);
        positions += boards_agree_on_random_games::<Bits512>(g, 1, 22);
    }
    assert!(positions > 2_000, "only {positions} positions compared");
}

/// Perft of the engine and of the naive board on `count` random positions of `B`, where the
/// position after a random prefix of a random game has at most `max_empty` empty cells in play.
fn perft_agrees<B: Storage>(
    g: Geometry,
    rule: Rule,
    seed: u64,
    count: usize,
    window: usize,
    depth: u32,
) {
    let mut rng = SplitMix64::new(seed);
    let mut checked = 0;
    while checked < count {
        let games = random_game::<B>(&mut rng, g, rule, window);
        let Some(moves) = games.get(rng.below(games.len().max(1))) else {
            continue;
        };
        let points: Vec<Point> = moves.iter().map(|&xy| xy.into()).collect();
        let mut board = Board::<B>::from_points_on(g, rule, &points).unwrap();
        let mut naive = NaiveBoard::new(g.width(), g.height(), g.k(), NaiveRule::of(rule));
        for &(x, y) in moves {
            naive.play(x, y);
        }
        for d in 1..=depth {
            assert_eq!(perft(&mut board, d), naive.perft(d), "{rule} perft({d}) after {moves:?}");
        }
        checked += 1;
    }
}

#[test]
fn perft_agrees_with_the_reference_on_small_boards() {
    for rule in Rule::ALL {
        perft_agrees::<Bits16>(Bits16::GEOMETRY, rule, 1, 200, 3, 4);
        perft_agrees::<Bits32>(Bits32::GEOMETRY, rule, 2, 60, 5, 3);
    }
}

#[test]
fn perft_agrees_with_the_reference_on_gomoku_mid_game_positions() {
    for rule in Rule::ALL {
        perft_agrees::<Bits256>(Bits256::GEOMETRY, rule, 3, 12, 15, 2);
    }
}

/// Late positions of whole-board games on small and rectangular boards, where wins along
/// the edges and in the corners, overlines and blocked fives are near.
#[test]
fn perft_agrees_with_the_reference_on_small_and_rectangular_boards() {
    for (width, height) in [(6, 6), (11, 11), (9, 5), (6, 13)] {
        let g = BoardSize::new(width, height).unwrap().geometry();
        for rule in Rule::ALL {
            perft_agrees::<Bits256>(g, rule, (width * height) as u64, 4, 15, 2);
        }
    }
    for (width, height) in [(16, 6), (7, 17), (22, 22)] {
        let g = BoardSize::new(width, height).unwrap().geometry();
        for rule in Rule::ALL {
            perft_agrees::<Bits512>(g, rule, (width * height) as u64, 2, 9, 2);
        }
    }
}

/// Positions (found by seeded search over random dense games) where an overline, a renju
/// forbidden point or a blocked caro five is one or two moves away, so perft under that rule
/// differs from freestyle; every count is cross-checked by the reference.
#[test]
fn perft_under_each_rule_differs_from_freestyle_where_it_should() {
    let mut rng = SplitMix64::new(0x00e7_11e5);
    let mut differing = [0usize; 5];
    let mut tried = 0;
    while differing[Rule::Standard.index()] < 4
        || differing[Rule::Renju.index()] < 4
        || differing[Rule::Caro.index()] < 2
    {
        tried += 1;
        assert!(tried < 600, "too few differing positions: {differing:?}");
        let games = random_game::<Bits256>(&mut rng, Bits256::GEOMETRY, Rule::Freestyle, 7);
        // Late positions of a dense game differ most often.
        let Some(moves) = games.iter().rev().nth(1 + rng.below(4)) else { continue };
        let mut counts = [None; 5];
        for rule in Rule::ALL {
            // The moves may be illegal or decide the game earlier under another rule.
            let points: Vec<Point> = moves.iter().map(|&xy| xy.into()).collect();
            let Ok(mut board) = Board::<Bits256>::from_points(rule, &points) else { continue };
            if board.outcome().is_decided() {
                continue;
            }
            let mut naive = NaiveBoard::new(15, 15, 5, NaiveRule::of(rule));
            for &(x, y) in moves {
                naive.play(x, y);
            }
            let depth = 2;
            let engine = perft(&mut board, depth);
            assert_eq!(engine, naive.perft(depth), "{rule} perft({depth}) after {moves:?}");
            counts[rule.index()] = Some(engine);
        }
        let Some(free) = counts[Rule::Freestyle.index()] else { continue };
        for rule in Rule::ALL {
            if counts[rule.index()].is_some_and(|n| n != free) {
                differing[rule.index()] += 1;
            }
        }
    }
}
