//! Renju forbidden points against `tests/data/renju-forbid-dev.txt`: every position, every
//! point, exactly; the naive reference agrees too.

mod reference;

use mnk_engine::bitboard::{Bitboard, Bits256, Bits512};
use mnk_engine::board::Board;
use mnk_engine::color::Color;
use mnk_engine::notation::{Point, parse_moves};
use mnk_engine::rules::Rule;
use mnk_engine::{size::BoardSize, storage::Storage};
use reference::{NaiveBoard, NaiveRule};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/renju-forbid-dev.txt");

struct Case {
    moves: String,
    forbidden: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("cannot read {DATA}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut moves = None;
            let mut forbidden = None;
            for field in line.split_whitespace() {
                if let Some(m) = field.strip_prefix("moves=") {
                    moves = Some(m.to_string());
                } else if let Some(f) = field.strip_prefix("forbid=") {
                    forbidden = Some(if f == "-" {
                        vec![]
                    } else {
                        f.split(',').map(str::to_string).collect()
                    });
                }
            }
            Case { moves: moves.expect("moves="), forbidden: forbidden.expect("forbid=") }
        })
        .collect()
}

/// Points as the file writes them: sorted by column, then row.
fn names(cells: impl Iterator<Item = (usize, usize)>) -> Vec<String> {
    let mut points: Vec<(usize, usize)> = cells.collect();
    points.sort_unstable();
    points.iter().map(|&(x, y)| format!("{}{}", (b'a' + x as u8) as char, y + 1)).collect()
}

#[test]
fn engine_forbidden_points_match_every_position_of_the_data_file() {
    let cases = cases();
    assert!(cases.len() >= 500, "{} positions", cases.len());
    let g = Bits256::GEOMETRY;
    let mut with_points = 0;
    for case in &cases {
        let board = Board::<Bits256>::from_notation(Rule::Renju, &case.moves)
            .unwrap_or_else(|e| panic!("{}: {e}", case.moves));
        assert_eq!(board.side_to_move(), Color::Black);
        let forbidden = board.forbidden_among(board.empty_cells());
        let got = names(forbidden.iter().map(|c| g.xy(c)));
        assert_eq!(got, case.forbidden, "moves={}", case.moves);
        // Legal moves are exactly the empty cells that are not forbidden.
        assert_eq!(board.legal_moves(), board.empty_cells() - forbidden);
        with_points += usize::from(!got.is_empty());
    }
    assert!(with_points > 250, "{with_points} positions have forbidden points");
}

#[test]
fn the_naive_reference_agrees_with_the_data_file() {
    for case in cases().iter().step_by(5) {
        let mut naive = NaiveBoard::new(15, 15, 5, NaiveRule::Renju);
        for point in parse_moves(&case.moves).unwrap() {
            naive.play(point.x, point.y);
        }
        let empty = naive.empty_cells();
        let forbidden = empty.into_iter().filter(|&(x, y)| naive.forbidden(x, y, 8));
        assert_eq!(names(forbidden), case.forbidden, "moves={}", case.moves);
    }
}

/// Black's forbidden points on every empty cell of `board`, reached by `moves`, are those
/// of the naive reference on a board of the same size.
fn assert_forbidden_points_are_the_references<B: Storage>(board: &Board<B>, moves: &[Point]) {
    let g = board.geometry();
    let mut naive = NaiveBoard::new(g.width(), g.height(), 5, NaiveRule::Renju);
    for point in moves {
        naive.play(point.x, point.y);
    }
    let expected = naive.empty_cells().into_iter().filter(|&(x, y)| naive.forbidden(x, y, 8));
    let got = board.forbidden_among(board.empty_cells()).iter().map(|c| g.xy(c));
    let (width, height) = (g.width(), g.height());
    assert_eq!(names(got), names(expected), "{width}x{height} moves={moves:?}");
}

/// The data file's positions moved into the top left corner of the smallest board (square or
/// not, at least 5×5) that holds them with one free row and column: the board's edges now
/// block fours and threes, and black's forbidden points on every empty cell must be the
/// naive reference's on the same board.
#[test]
fn forbidden_points_near_the_edges_of_smaller_boards_match_the_reference() {
    let mut compared = 0;
    for case in cases().iter().step_by(4) {
        let points = parse_moves(&case.moves).unwrap();
        let (min_x, min_y) =
            points.iter().fold((usize::MAX, usize::MAX), |(a, b), p| (a.min(p.x), b.min(p.y)));
        let moved: Vec<Point> =
            points.iter().map(|p| Point::new(p.x - min_x, p.y - min_y)).collect();
        let width = moved.iter().map(|p| p.x + 2).max().unwrap_or(5).clamp(5, 15);
        let height = moved.iter().map(|p| p.y + 2).max().unwrap_or(5).clamp(5, 15);
        let size = BoardSize::new(width, height).expect("5 to 15 wide and high");
        let g = size.geometry();
        // (5×5 has no line patterns, and no renju forbidden points.)
        if g.lines_span_board() {
            continue;
        }
        // The moves stay legal: edges only take fours and threes away.
        let Ok(board) = Board::<Bits256>::from_points_on(g, Rule::Renju, &moved) else {
            continue;
        };
        assert_forbidden_points_are_the_references(&board, &moved);
        compared += 1;
    }
    assert!(compared > 100, "{compared} positions compared");
}

/// The data file's positions on 20×20, moved so that their stones touch the right and
/// bottom edges (the last column and row of the 512-bit storage's rows) or stay in the
/// middle: black's forbidden points on every empty cell against the naive reference.
#[test]
fn forbidden_points_on_twenty_by_twenty_match_the_reference() {
    let g = BoardSize::new(20, 20).unwrap().geometry();
    let mut compared = 0;
    for (i, case) in cases().iter().enumerate().step_by(5) {
        let points = parse_moves(&case.moves).unwrap();
        let (max_x, max_y) = points.iter().fold((0, 0), |(a, b), p| (a.max(p.x), b.max(p.y)));
        // Every other position to the bottom right corner, the rest moved by (2, 3).
        let (dx, dy) = if i % 10 == 0 { (19 - max_x, 19 - max_y) } else { (2, 3) };
        let moved: Vec<Point> = points.iter().map(|p| Point::new(p.x + dx, p.y + dy)).collect();
        let Ok(board) = Board::<Bits512>::from_points_on(g, Rule::Renju, &moved) else {
            continue;
        };
        assert_forbidden_points_are_the_references(&board, &moved);
        compared += 1;
    }
    assert!(compared > 80, "{compared} positions compared");
}

/// Black's stones and white's, alternating from black, for a position with black to move.
fn renju_position(black: &[(usize, usize)], white: &[(usize, usize)]) -> mnk_engine::game::Game {
    assert_eq!(black.len(), white.len());
    let moves: Vec<Point> =
        black.iter().zip(white).flat_map(|(&b, &w)| [Point::from(b), Point::from(w)]).collect();
    mnk_engine::game::Game::from_points(BoardSize::FIFTEEN, Rule::Renju, &moves).expect("legal")
}

#[test]
fn renju_fouls_are_named_overline_double_four_and_double_three() {
    use mnk_engine::renju::Foul;
    let white = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)];
    //  . . . . . . . . .       row 7: X X X . X X  -> the gap makes six
    let overline = renju_position(&[(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)], &white);
    assert_eq!(overline.foul(Point::new(6, 7)), Some(Foul::Overline));
    //  two lines of three meeting at (8,7): a four each way
    let fours = renju_position(
        &[(5, 7), (6, 7), (7, 7), (8, 4), (8, 5), (8, 6)],
        &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)],
    );
    assert_eq!(fours.foul(Point::new(8, 7)), Some(Foul::DoubleFour));
    //  two lines of two meeting at (8,7): an open three each way
    let threes = renju_position(&[(6, 7), (7, 7), (8, 5), (8, 6)], &white[..4]);
    assert_eq!(threes.foul(Point::new(8, 7)), Some(Foul::DoubleThree));
    // Allowed points, occupied points and other rules name no foul.
    assert_eq!(threes.foul(Point::new(9, 9)), None);
    assert_eq!(threes.foul(Point::new(6, 7)), None);
    let freestyle = threes.with_rule(Rule::Freestyle).expect("same moves");
    assert_eq!(freestyle.foul(Point::new(8, 7)), None);
}

#[test]
fn every_forbidden_point_of_the_data_file_has_a_foul_and_no_other_point_does() {
    for case in cases() {
        let game =
            mnk_engine::game::Game::from_notation(BoardSize::FIFTEEN, Rule::Renju, &case.moves)
                .expect("legal");
        let named: Vec<String> = names(
            (0..15)
                .flat_map(|x| (0..15).map(move |y| (x, y)))
                .filter(|&(x, y)| game.foul(Point::new(x, y)).is_some()),
        );
        assert_eq!(named, case.forbidden, "{}", case.moves);
    }
}
