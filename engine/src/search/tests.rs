//! Tests of the iterations and the node: stopped searches, caro's double blocks.

use super::*;
use crate::bitboard::Bitboard;
use crate::bitboard::{Bits16, Bits256};
use crate::rules::Rule;

/// Black h6 i7 j8 k9 with white f4 two cells below: `o.xxxx..`, two fives to make. Under
/// freestyle white has lost; under caro its l10 stops both (g5 would then make
/// `oxxxxxo`), and the search plays it without a loss.
#[test]
fn under_caro_the_search_stops_two_fives_with_one_stone() {
    let g = Bits256::GEOMETRY;
    for (rule, lost) in [(Rule::Freestyle, true), (Rule::Caro, false)] {
        let board = Board::<Bits256>::from_notation(rule, "h6,f4,i7,a1,j8,a3,k9").expect("legal");
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let limits = Limits::depth(3);
        let result = search(&board, &mut tt, limits, &mut |_| {});
        let loss = score::mate_plies(result.score()).is_some_and(|plies| plies < 0);
        assert_eq!(loss, lost, "{rule}: score {}", result.score());
        if !lost {
            assert_eq!(result.best_move.map(|c| g.format_pos(c)).as_deref(), Some("l10"));
        }
    }
}

#[test]
fn a_search_stopped_in_its_first_line_keeps_a_root_move_proven_better_there() {
    // Whenever the best move changes between depth d and d + 1, a search stopped one
    // node before depth d + 1 completes has already searched the new move to depth d + 1
    // (unless it only rose in a later aspiration attempt): it plays that move.
    let board = Board::<Bits256>::from_notation(Rule::Standard, "h8,h9,i8,j8").expect("legal");
    let run = |limits: Limits| {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        search(&board, &mut tt, limits, &mut |_| {})
    };
    let mut adopted = 0;
    for d in 2..8 {
        let shallow = run(Limits::depth(d));
        let deep = run(Limits::depth(d + 1));
        if shallow.best_move == deep.best_move {
            continue;
        }
        let nodes = Some(deep.nodes - 1);
        let stopped = run(Limits { nodes, ..Limits::default() });
        assert_eq!(stopped.depth, d, "the last completed iteration");
        let line = &stopped.lines[0];
        assert_eq!(stopped.best_move, line.pv.first().copied());
        if line.depth == d + 1 {
            assert_eq!(stopped.best_move, deep.best_move, "depth {d}");
            assert_eq!(line.score, deep.score(), "depth {d}");
            adopted += 1;
        } else {
            assert_eq!(stopped.best_move, shallow.best_move, "depth {d}");
        }
    }
    assert!(adopted >= 2, "only {adopted} stopped searches kept the deeper move");
}

#[test]
fn a_search_stopped_after_proving_its_last_best_move_lost_plays_one_not_proven_lost() {
    // Some iteration d prefers a move that iteration d + 1 proves lost before another root
    // move raises alpha (a classroom game's position, black to move; with today's prunings
    // d is found below). The checks of the best move refute such moves by white threat
    // sequences, so this search of the stop goes without them.
    let moves = "g6,j10,g10,j9,f7,j11,j12,k8,e8,j7,j8,h5";
    let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
    let run = |limits: Limits| {
        let mut tt = TranspositionTable::with_bytes(1 << 22);
        let mut searcher = Searcher::new(board.clone(), &mut tt, limits);
        searcher.best_move_checks = BestMoveChecks::off();
        let result = searcher.search_alone(&mut |_| {});
        (result, searcher.root_lost, searcher.root_interrupted)
    };
    let (d, shallow, deep, refuted) = (4..12)
        .find_map(|d| {
            let (shallow, ..) = run(Limits::depth(d));
            let (deep, lost, _) = run(Limits::depth(d + 1));
            let best = shallow.best_move?;
            (lost.contains(best) && deep.best_move != Some(best))
                .then_some((d, shallow, deep, best))
        })
        .expect("an iteration proves the last one's best move lost");
    let mut replaced = 0;
    for step in 1..20 {
        let nodes = shallow.nodes + (deep.nodes - shallow.nodes) * step / 20;
        let (stopped, lost, interrupted) = run(Limits::nodes(nodes));
        assert_eq!(stopped.depth, d);
        let best = stopped.best_move.expect("a move");
        assert_eq!(stopped.pv().first(), Some(&best));
        if lost.contains(best) {
            assert!(interrupted.is_none_or(|cell| lost.contains(cell)), "{nodes} nodes");
        }
        if lost.contains(refuted) && stopped.lines[0].pv == [best] {
            assert_eq!(Some(best), interrupted);
            assert_eq!(stopped.score(), shallow.score());
            replaced += 1;
        }
    }
    assert!(replaced >= 2, "only {replaced} stopped searches replaced the lost move");
}

/// Runs `board` to `depth` with `blocked` left out, in `lines` lines on `threads` threads.
fn search_blocked(
    board: &Board<Bits256>,
    blocked: &[&str],
    depth: u32,
    lines: usize,
    threads: usize,
) -> SearchResult {
    let g = Bits256::GEOMETRY;
    let blocked = blocked.iter().map(|pos| g.parse_pos(pos)).fold(Bits256::EMPTY, Bits256::with);
    let mut tt = TranspositionTable::with_bytes(1 << 22);
    let limits = Limits::depth(depth);
    Searcher::new(board.clone(), &mut tt, limits)
        .with_multipv(lines)
        .with_threads(threads)
        .with_blocked(blocked)
        .run(&mut |_| {})
}

#[test]
fn a_blocked_winning_move_is_not_played_and_not_scored_as_a_win() {
    // Black's open four h8-k8 wins at g8 or l8.
    let board =
        Board::<Bits256>::from_notation(Rule::Freestyle, "h8,a1,i8,a3,j8,a5,k8,a7").expect("legal");
    let g = Bits256::GEOMETRY;
    let pos = |result: &SearchResult| result.best_move.map(|cell| g.format_pos(cell));
    let one_left = search_blocked(&board, &["g8"], 4, 1, 1);
    assert_eq!(pos(&one_left).as_deref(), Some("l8"));
    assert_eq!(score::mate_plies(one_left.score()), Some(1));
    let none_left = search_blocked(&board, &["g8", "l8"], 4, 1, 1);
    let best = pos(&none_left).expect("a move");
    assert!(best != "g8" && best != "l8", "played blocked {best}");
    assert_ne!(score::mate_plies(none_left.score()), Some(1), "a blocked five scored");
}

#[test]
fn no_line_starts_with_a_blocked_move_on_one_thread_or_two() {
    let board = Board::<Bits256>::from_notation(Rule::Standard, "h8,i9,i8").expect("legal");
    let free = search_blocked(&board, &[], 5, 4, 1);
    let favourites: Vec<String> =
        free.lines.iter().map(|line| Bits256::GEOMETRY.format_pos(line.pv[0])).collect();
    let blocked: Vec<&str> = favourites.iter().map(String::as_str).collect();
    for threads in [1, 2] {
        let result = search_blocked(&board, &blocked, 5, 4, threads);
        assert_eq!(result.lines.len(), 4, "{threads} threads");
        for line in &result.lines {
            let first = Bits256::GEOMETRY.format_pos(line.pv[0]);
            assert!(!blocked.contains(&first.as_str()), "{threads} threads: line at {first}");
        }
        let best = result.best_move.expect("a move");
        assert!(!blocked.contains(&Bits256::GEOMETRY.format_pos(best).as_str()));
    }
}

#[test]
fn blocking_every_legal_move_blocks_none() {
    let board = Board::<Bits16>::from_notation(Rule::Freestyle, "b2,a1").expect("legal");
    let mut tt = TranspositionTable::with_bytes(1 << 20);
    let limits = Limits::depth(9);
    let result = Searcher::new(board.clone(), &mut tt, limits)
        .with_blocked(board.legal_moves())
        .run(&mut |_| {});
    assert!(result.best_move.is_some_and(|cell| board.legal_moves().contains(cell)));
}

#[test]
fn with_every_stop_of_a_four_blocked_the_line_is_the_move_played() {
    // White to move against black's open four h8-k8, both stops (g8, l8) blocked: every
    // move loses at once, and the line still names the move played.
    let board =
        Board::<Bits256>::from_notation(Rule::Freestyle, "h8,a1,i8,a3,j8,a5,k8").expect("legal");
    for lines in [1, 2] {
        let result = search_blocked(&board, &["g8", "l8"], 3, lines, 1);
        let best = result.best_move.expect("a move");
        assert_eq!(result.lines.len(), 1);
        assert_eq!(result.lines[0].pv.first(), Some(&best), "{lines} lines");
        let pos = Bits256::GEOMETRY.format_pos(best);
        assert!(pos != "g8" && pos != "l8", "played blocked {pos}");
        assert_eq!(score::mate_plies(result.score()), Some(-2));
    }
}

/// Renju, black to move against two white fives (i4 and n4), one of them (i4) a forbidden
/// point for black: lost either way, and the move played is the legal stop, not the
/// forbidden one (a position from `pbrain-mnk datagen`, where the search once played i4).
#[test]
fn a_lost_renju_black_plays_a_legal_stop_of_two_fives() {
    let moves = "j9,i10,g7,k10,h10,k11,k9,j10,l10,i9,l12,l9,j11,k8,m11,j8,i8,m8,n12,o13,k12,\
                 m12,h7,n7,o6,j7,i6,k7,f5,g6,l7,m5,l6,n8,l8,m6,m7,n6,n5,k4,l5,l4,o7,k5,k6,j6,\
                 i7,j4,j5,m4";
    let board = Board::<Bits256>::from_notation(Rule::Renju, moves).expect("legal");
    let g = Bits256::GEOMETRY;
    assert!(!board.legal_moves().contains(g.cell(8, 3).expect("i4")));
    for depth in [1, 3] {
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let limits = Limits::depth(depth);
        let result = search(&board, &mut tt, limits, &mut |_| {});
        let best = result.best_move.expect("a move");
        assert!(board.legal_moves().contains(best), "played {}", g.format_pos(best));
        assert_eq!(score::mate_plies(result.score()), Some(-2));
    }
}

/// Renju's black is restricted, and no player breaks it: mnk's search and the classroom
/// program never play a forbidden point on the positions of the renju data file that have
/// one, and with only forbidden points left they answer no move. Those are games that filled
/// all but one cell, a forbidden point for black, with black to move: no legal move and the
/// game not over (black has lost: any move is a foul). One is from mnk black against Rapfi at
/// 1 s, one from `pbrain-mnk datagen` (seed 1009, game 2), where the search answered the
/// forbidden point. A search returns only legal moves, so there none, at any depth or node
/// count, on one thread or two.
#[test]
fn no_player_plays_a_renju_forbidden_point() {
    let text = include_str!("../../../tests/data/renju-forbid-dev.txt");
    let mut checked = 0;
    for entry in text.lines().filter(|l| l.starts_with("moves=")).take(60) {
        let moves = entry.split_whitespace().next().unwrap().trim_start_matches("moves=");
        let board = Board::<Bits256>::from_notation(Rule::Renju, moves).expect("legal");
        let forbidden = board.forbidden_among(board.empty_cells());
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let mnk = search(&board, &mut tt, Limits::depth(2), &mut |_| {}).best_move;
        let classroom = crate::classroom::search(&board, 2, &crate::limits::Stop::default());
        for (player, cell) in [("mnk", mnk), ("classroom", classroom.best_move)] {
            let cell = cell.expect("a move");
            let g = Bits256::GEOMETRY;
            assert!(!forbidden.contains(cell), "{moves}: {player} played {}", g.format_pos(cell));
        }
        checked += usize::from(!forbidden.is_empty() && board.restricted_to_move());
    }
    assert!(checked >= 15, "positions with forbidden points for black to move: {checked}");
    let games = [
        include_str!("../../../tests/data/renju-black-forbidden-only-rapfi.txt"),
        include_str!("../../../tests/data/renju-black-forbidden-only-datagen.txt"),
    ];
    for moves in games {
        let board = Board::<Bits256>::from_notation(Rule::Renju, moves.trim()).expect("legal");
        assert!(board.legal_moves().is_empty() && board.only_forbidden_moves_left());
        assert_eq!(board.empty_cells().count(), 1);
        let limits = [
            Limits::depth(3),
            Limits::nodes(10_000),
            Limits::time(std::time::Duration::from_millis(20)),
        ];
        for (limits, threads) in limits.into_iter().zip([1, 1, 2]) {
            let mut tt = TranspositionTable::with_bytes(1 << 20);
            let result = Searcher::new(board.clone(), &mut tt, limits)
                .with_threads(threads)
                .run(&mut |_| {});
            assert_eq!(result.best_move, None);
            assert!(result.lines.is_empty());
        }
        let classroom = crate::classroom::search(&board, 2, &crate::limits::Stop::default());
        assert_eq!(classroom.best_move, None);
    }
}

/// On 22×22, 64 stones three cells apart leave over 400 candidates: every move list of the
/// search (root, node, threat solver) holds more than 256 moves, and the search, and the
/// classroom player's, still answer with a legal move under every rule.
#[test]
fn a_search_with_hundreds_of_candidates_on_twenty_two_by_twenty_two_plays_a_legal_move() {
    use crate::bitboard::Bits512;
    let g = crate::size::BoardSize::new(22, 22).expect("a size").geometry();
    let points: Vec<crate::notation::Point> =
        (0..8).flat_map(|y| (0..8).map(move |x| (3 * x, 3 * y).into())).collect();
    for rule in Rule::ALL {
        let board = Board::<Bits512>::from_points_on(g, rule, &points).expect("no five");
        assert!(crate::movegen::candidates(&board).count() > 256);
        let mut tt = TranspositionTable::with_bytes(1 << 20);
        let limits = Limits::nodes(3_000);
        let best = search(&board, &mut tt, limits, &mut |_| {}).best_move.expect("a move");
        assert!(board.legal_moves().contains(best), "{rule}");
        let classroom = crate::classroom::search(&board, 1, &crate::limits::Stop::default())
            .best_move
            .expect("a move");
        assert!(board.legal_moves().contains(classroom), "{rule}");
    }
}

/// The tunables moved into `SearchParams` from the search's constants reach the search: a
/// fixed-depth search of a middle game changes when any one of them changes, and the
/// defaults give the search of `SearchParams::DEFAULT`.
#[test]
fn the_tunables_of_every_area_reach_the_search() {
    let board =
        Board::<Bits256>::from_notation(Rule::Freestyle, "h8,i9,g9,h10,h9,i10,j9").expect("legal");
    let nodes = |params: SearchParams| {
        let mut tt = TranspositionTable::with_bytes(1 << 22);
        let searcher = Searcher::new(board.clone(), &mut tt, Limits::depth(7));
        let result = searcher.with_params(params).run(&mut |_| {});
        (result.nodes, result.vcf_nodes)
    };
    let defaults = nodes(SearchParams::DEFAULT);
    assert_eq!(defaults, nodes(SearchParams::default()));
    for (name, value) in [
        ("aspiration_min_depth", 1),
        ("history_scale", 1),
        ("correction_limit", 20),
        ("root_vct_nodes", 0),
        ("correction_depth_divisor", 1),
    ] {
        let mut params = SearchParams::DEFAULT;
        params.set(name, value).expect("in range");
        assert_ne!(nodes(params), defaults, "{name} = {value} changes nothing");
    }
}
