//! Perft against the reference counts of `tests/data/perft.txt` (size, rule, depth, count,
//! position): the engine on every line, and the naive array board of `reference/` on the
//! lines small enough for it. Counts of [`DEEP`] sequences and more take minutes and run
//! only with `--ignored`.

mod reference;

use mnk_engine::game::Game;
use mnk_engine::perft::perft_parallel;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::with_game;
use reference::{NaiveBoard, NaiveRule};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/perft.txt");

/// Counts from which a line runs only with `--ignored`.
const DEEP: u128 = 100_000_000;
/// Counts up to which the naive reference counts the line too (depth 2 on 22×22).
const NAIVE_MAX: u128 = 250_000;
/// Threads of the engine's counts.
const THREADS: usize = 2;

/// One line of the data file.
#[derive(Debug)]
struct Case {
    size: BoardSize,
    rule: Rule,
    depth: u32,
    count: u128,
    moves: String,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(DATA).unwrap_or_else(|e| panic!("cannot read {DATA}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [size, rule, depth, count, moves] = fields[..] else {
                panic!("not five fields: {line}")
            };
            Case {
                size: size.parse().expect("a size"),
                rule: rule.parse().expect("a rule"),
                depth: depth.parse().expect("a depth"),
                count: count.parse().expect("a count"),
                moves: if moves == "-" { String::new() } else { moves.to_string() },
            }
        })
        .collect()
}

/// The engine's count of `case`, and the reference's where it is small.
fn check(case: &Case) {
    let game = Game::from_notation(case.size, case.rule, &case.moves)
        .unwrap_or_else(|e| panic!("{case:?}: {e}"));
    with_game!(&game, board => {
        assert_eq!(perft_parallel(board, case.depth, THREADS), case.count, "engine: {case:?}");
        if case.count <= NAIVE_MAX {
            let g = board.geometry();
            let mut naive = NaiveBoard::new(g.width(), g.height(), g.k(), NaiveRule::of(case.rule));
            for &cell in board.history() {
                let (x, y) = g.xy(cell);
                naive.play(x, y);
            }
            assert_eq!(naive.perft(case.depth), case.count, "reference: {case:?}");
        }
    });
}

#[test]
fn perft_matches_the_reference_counts() {
    let cases = cases();
    assert!(cases.len() >= 50, "{} lines", cases.len());
    let mut checked_by_both = 0;
    for case in cases.iter().filter(|case| case.count < DEEP) {
        check(case);
        checked_by_both += usize::from(case.count <= NAIVE_MAX);
    }
    assert!(checked_by_both >= 30, "{checked_by_both} lines counted by the reference");
    // Every rule and kind of size has lines of its own: the three types' largest boards, a
    // smaller square and a rectangle.
    let sizes =
        ["3", "5", "15", "11", "9x6", "20", "22", "20x15"].map(|s| s.parse::<BoardSize>().unwrap());
    for size in sizes {
        assert!(cases.iter().any(|case| case.size == size && case.count < DEEP), "{size}");
    }
    for rule in Rule::ALL {
        assert!(cases.iter().any(|case| case.rule == rule && case.size == BoardSize::FIFTEEN));
    }
}

#[test]
#[ignore = "billions of sequences: minutes of counting"]
fn deep_perft_matches_the_reference_counts() {
    for case in cases().iter().filter(|case| case.count >= DEEP) {
        check(case);
    }
}
