//! The prover (`mnk_engine::prove`) on 5×5 to 7×7: the known values of the empty boards,
//! certificates that the separate checker accepts and tampered ones it refutes, a proof
//! stopped, saved and resumed, and values of positions cross-checked against plain
//! alpha-beta (the naive reference board, every empty cell, no table, no threat logic), and
//! relevance zones checked by a plain game-tree search: stones given to the attacker outside
//! a disproof's zone never let it force a five.

mod reference;

use std::collections::HashMap;

use mnk_engine::limits::Limits;
use mnk_engine::prove::grid::{Grid, bit};
use mnk_engine::prove::search::{Answer, Prover};
use mnk_engine::prove::{Outcome, Position, Proof, verify};
use mnk_engine::rng::SplitMix64;
use mnk_engine::solve::GameValue;
use reference::{NaiveBoard, NaiveOutcome, NaiveRule};

fn position(width: u8, height: u8, moves: &[(usize, usize)]) -> Position {
    let grid = Grid::new(width, height).expect("a board the prover takes");
    let (mut black, mut white) = (0, 0);
    for (i, &(x, y)) in moves.iter().enumerate() {
        let b = bit(x as u8, y as u8);
        if i.is_multiple_of(2) { black |= b } else { white |= b }
    }
    Position { grid, black, white, black_to_move: moves.len().is_multiple_of(2) }
}

fn prove(position: Position) -> (Proof, Outcome) {
    let mut proof = Proof::new(position);
    let outcome = proof.run(&Limits::default(), &mut |_, _| {}).expect("no budget: decided");
    (proof, outcome)
}

#[test]
fn the_empty_boards_from_5x5_to_7x7_are_draws() {
    for (w, h) in [(5, 5), (6, 5), (5, 8), (6, 6), (7, 6), (7, 7)] {
        let (_, outcome) = prove(position(w, h, &[]));
        assert_eq!(outcome.value, GameValue::Draw, "{w}x{h}");
        assert!(outcome.best.is_some());
    }
}

#[test]
fn a_draw_certificate_is_checked_and_a_tampered_one_refused() {
    let (mut proof, outcome) = prove(position(6, 6, &[]));
    assert_eq!(outcome.value, GameValue::Draw);
    let text = proof.certificate().expect("a draw has a certificate");
    let checked = verify::check(&text).expect("the checker accepts it");
    assert_eq!((checked.width, checked.height), (6, 6));
    assert_eq!(checked.sections.len(), 2);
    assert!(checked.sections.iter().all(|s| s.positions > 0));

    // Drop the defender's answer to one attacker move: the checker finds the hole.
    let lines: Vec<&str> = text.lines().collect();
    let reply = lines.iter().position(|l| l.starts_with("R ")).expect("a reply line");
    let without: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != reply)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let error = verify::check(&without).expect_err("a missing reply");
    assert!(error.contains("no defender's move"), "{error}");

    // Break a pairing: pair a cell with itself's neighbour outside every line it must hold.
    let pairing = lines.iter().position(|l| l.starts_with("P ")).expect("a pairing line");
    let mut fields: Vec<String> = lines[pairing].split_whitespace().map(String::from).collect();
    fields.truncate(fields.len() - 1);
    let broken: String = lines
        .iter()
        .enumerate()
        .map(
            |(i, l)| {
                if i == pairing { format!("{}\n", fields.join(" ")) } else { format!("{l}\n") }
            },
        )
        .collect();
    let error = verify::check(&broken).expect_err("a pairing with a pair missing");
    assert!(error.contains("leaves a line open"), "{error}");

    // A reply that is not a legal move, and a file cut short.
    let bad_reply = text.replacen(&lines[reply][lines[reply].rfind(' ').unwrap()..], " z9", 1);
    assert!(verify::check(&bad_reply).is_err());
    assert!(verify::check(&text[..text.len() - 4]).unwrap_err().contains("cut short"));
    assert!(verify::check("mnk-certificate 1\nboard 9x9\nend\n").is_err());
}

#[test]
fn a_win_has_no_certificate() {
    // Black has four in a row on the top row with the end open: black to move wins.
    let moves = [(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (3, 0), (5, 4)];
    let (mut proof, outcome) = prove(position(6, 6, &moves));
    assert_eq!(outcome.value, GameValue::Win);
    assert_eq!(outcome.best, Some(4));
    assert!(proof.certificate().is_err());
}

#[test]
fn a_stopped_proof_resumes_from_its_saved_state() {
    let mut proof = Proof::new(position(7, 7, &[]));
    let budget = Limits::nodes(2_000);
    assert!(proof.run(&budget, &mut |_, _| {}).is_none(), "2,000 nodes do not prove 7x7");
    let saved = proof.save_state();
    let mut resumed = Proof::restore(&saved).expect("its own state reads back");
    assert_eq!(resumed.nodes(), proof.nodes());
    let outcome = resumed.run(&Limits::default(), &mut |_, _| {}).expect("decided");
    assert_eq!(outcome.value, GameValue::Draw);
    assert!(Proof::restore(&saved[..saved.len() - 3]).is_err());
    assert!(Proof::restore(b"not a state").is_err());
}

/// Random games on `w`×`h` stopped with `empty` cells left and nobody won: the positions.
fn random_positions(
    w: usize,
    h: usize,
    empty: usize,
    count: usize,
    seed: u64,
) -> Vec<Vec<(usize, usize)>> {
    let mut rng = SplitMix64::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = NaiveBoard::new(w, h, 5, NaiveRule::Freestyle);
        while board.outcome == NaiveOutcome::Ongoing && board.empty_cells().len() > empty {
            let cells = board.empty_cells();
            let (x, y) = cells[rng.below(cells.len())];
            board.play(x, y);
        }
        if board.outcome == NaiveOutcome::Ongoing {
            found.push(board.moves.clone());
        }
    }
    found
}

fn value_of_score(score: i32) -> GameValue {
    match score {
        s if s > 0 => GameValue::Win,
        0 => GameValue::Draw,
        _ => GameValue::Loss,
    }
}

/// Proves each of `count` random positions with `empty` cells left on each board and checks
/// its value against plain alpha-beta; returns the values.
fn cross_check(boards: &[(usize, usize, u64)], empty: usize, count: usize) -> Vec<GameValue> {
    let mut values = Vec::new();
    for &(w, h, seed) in boards {
        for moves in random_positions(w, h, empty, count, seed) {
            let mut naive = NaiveBoard::new(w, h, 5, NaiveRule::Freestyle);
            for &(x, y) in &moves {
                naive.play(x, y);
            }
            let expected = value_of_score(naive.exact_score());
            let (_, outcome) = prove(position(w as u8, h as u8, &moves));
            assert_eq!(outcome.value, expected, "{w}x{h} {moves:?}");
            values.push(expected);
        }
    }
    values
}

#[test]
fn values_agree_with_plain_alpha_beta_on_6x6_and_7x7() {
    let values = cross_check(&[(6, 6, 11), (7, 7, 12), (7, 6, 13)], 10, 5);
    // The sample holds more than one kind of value.
    assert!(
        values.contains(&GameValue::Draw) && values.iter().any(|&v| v != GameValue::Draw),
        "{values:?}"
    );
}

/// The same cross-check on 900 positions with 11 empty cells (about a minute):
/// `cargo test --release -p mnk-engine --test prove -- --ignored`.
#[test]
#[ignore = "a minute; run by hand"]
fn many_values_agree_with_plain_alpha_beta() {
    let values = cross_check(&[(6, 6, 21), (7, 7, 22), (8, 6, 23)], 11, 300);
    let count = |v| values.iter().filter(|&&x| x == v).count();
    eprintln!(
        "win {} draw {} loss {}",
        count(GameValue::Win),
        count(GameValue::Draw),
        count(GameValue::Loss)
    );
}

/// Whether `own` holds five in a row: walks every cell and direction on the board (its own
/// line test, not the prover's line masks).
fn holds_five(w: u8, h: u8, own: u64) -> bool {
    let at = |x: i32, y: i32| {
        x >= 0 && y >= 0 && x < i32::from(w) && y < i32::from(h) && own & 1 << (8 * y + x) != 0
    };
    (0..i32::from(h)).any(|y| {
        (0..i32::from(w)).any(|x| {
            [(1, 0), (0, 1), (1, 1), (1, -1)]
                .iter()
                .any(|&(dx, dy)| (0..5).all(|i| at(x + i * dx, y + i * dy)))
        })
    })
}

/// Whether the attacker can force five in a row (a plain search over every empty cell,
/// memoised on the position; a five of the defender's ends the game).
fn attacker_forces_five(
    w: u8,
    h: u8,
    (a, d): (u64, u64),
    attacker_to_move: bool,
    memo: &mut HashMap<(u64, u64, bool), bool>,
) -> bool {
    if holds_five(w, h, a) {
        return true;
    }
    if holds_five(w, h, d) {
        return false;
    }
    if let Some(&known) = memo.get(&(a, d, attacker_to_move)) {
        return known;
    }
    let all = Grid::new(w, h).expect("a board").all();
    let empty: Vec<u64> = (0..64).map(|c| 1u64 << c).filter(|&b| all & !(a | d) & b != 0).collect();
    let result = if attacker_to_move {
        empty.iter().any(|&b| attacker_forces_five(w, h, (a | b, d), false, memo))
    } else {
        !empty.is_empty()
            && empty.iter().all(|&b| attacker_forces_five(w, h, (a, d | b), true, memo))
    };
    memo.insert((a, d, attacker_to_move), result);
    result
}

#[test]
fn stones_outside_a_disproofs_zone_never_help_the_attacker() {
    let (mut disproofs, mut checked) = (0, 0);
    for (w, h, seed) in [(6u8, 6u8, 31u64), (7, 6, 32), (7, 7, 33)] {
        for moves in random_positions(usize::from(w), usize::from(h), 10, 8, seed) {
            let p = position(w, h, &moves);
            let (mover, other) =
                if p.black_to_move { (p.black, p.white) } else { (p.white, p.black) };
            for (a, d, or) in [(mover, other, true), (other, mover, false)] {
                let mut prover = Prover::new(&p.grid, a, d, or);
                if prover.run(&mut |_| {}) != Answer::Disproved {
                    continue;
                }
                disproofs += 1;
                let (zone, _) = prover.disproof(a, d).expect("a disproved root has a zone");
                let empty = p.grid.all() & !(a | d);
                assert_eq!(zone & !empty, 0, "the zone holds only empty cells");
                let outside: Vec<u64> =
                    (0..64).map(|c| 1u64 << c).filter(|&b| empty & !zone & b != 0).collect();
                let mut memo = HashMap::new();
                // Every one and two stones outside the zone, and all of them at once.
                let mut sets: Vec<u64> = outside.clone();
                for (i, &x) in outside.iter().enumerate() {
                    sets.extend(outside[i + 1..].iter().map(|&y| x | y));
                }
                sets.push(empty & !zone);
                for extra in sets {
                    checked += 1;
                    assert!(
                        !attacker_forces_five(w, h, (a | extra, d), or, &mut memo),
                        "{w}x{h} {moves:?} attacker to move {or}: zone {zone:x}, extra {extra:x}"
                    );
                }
            }
        }
    }
    assert!(disproofs >= 10 && checked >= 50, "{disproofs} disproofs, {checked} sets");
}
