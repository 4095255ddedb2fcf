//! Transcript tests: the real `pbrain-mnk` binary spoken to as Piskvork, GomocupJudge,
//! c-gomoku-cli and Yixin-Board do.

mod harness;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use harness::{Engine, PROMPT, parse_move, well_formed};
use mnk_engine::notation::Point;
use mnk_protocol::command::{Command, Setting};
use mnk_protocol::response::Response;

fn p(x: usize, y: usize) -> Point {
    Point::new(x, y)
}

fn started(size: usize, turn_ms: u64) -> Engine {
    let mut e = Engine::start();
    assert_eq!(e.ask_command(&Command::Start { width: size, height: size }), Response::Ok);
    e.send_command(&Command::Info(Setting::TimeoutTurn(turn_ms)));
    e.send_command(&Command::Info(Setting::Messages(false)));
    e
}

#[test]
fn about_answers_first_and_nothing_is_printed_before_it() {
    let mut e = Engine::start();
    e.assert_silent(Duration::from_millis(200));
    let about = e.ask("ABOUT");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        about,
        format!("name=\"mnk\", version=\"{version}\", author=\"The mnk developers\"")
    );
    e.send("END");
    let (status, _) = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    assert_eq!(e.stderr(), "", "nothing on stderr without RUST_LOG");
}

#[test]
fn lower_case_and_crlf_input_is_understood() {
    let mut e = Engine::start();
    e.send_raw(b"start 15\r\n");
    assert_eq!(e.answer(), "OK");
    e.send_raw(b"info timeout_turn 100\r\ninfo messages 0\r\n\r\nbegin\r\n");
    let Point { x, y } = parse_move(&e.answer());
    assert!(x < 15 && y < 15);
    e.send_raw(b"turn 0,0\r\n");
    parse_move(&e.answer());
}

#[test]
fn start_forms_sizes_and_errors() {
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    assert_eq!(e.ask("START 15"), "OK", "START may repeat in one process");
    assert_eq!(e.ask("start 5 5"), "OK", "Yixin-Board form");
    assert_eq!(e.ask("RECTSTART 3,3"), "OK");
    assert_eq!(e.ask("START 23"), "ERROR unsupported board size 23");
    assert_eq!(e.ask("START 4"), "ERROR unsupported board size 4");
    assert!(e.ask("RECTSTART 15,4").starts_with("ERROR unsupported board size 15x4"));
    assert!(e.ask("RECTSTART 3,5").starts_with("ERROR unsupported board size"));
    assert!(e.ask("START").starts_with("ERROR"));
    // The last good START (3×3) is still in force.
    e.send("INFO messages 0");
    let Point { x, y } = parse_move(&e.ask("BEGIN"));
    assert!(x < 3 && y < 3);
    assert_eq!(e.ask("RESTART"), "OK");
    parse_move(&e.ask("BEGIN"));
}

/// Every size from 5 to 22, square or not: `START N`, `START W H` and `RECTSTART W,H`; the
/// answers stay on the board, and a move off it is refused with the game unchanged.
#[test]
fn smaller_and_rectangular_boards_are_played() {
    let mut e = Engine::start();
    e.send("INFO timeout_turn 100");
    e.send("INFO messages 0");
    for (start, width, height) in [
        ("START 20", 20, 20),
        ("RECTSTART 20,15", 20, 15),
        ("START 11", 11, 11),
        ("START 6 9", 6, 9),
        ("RECTSTART 15,7", 15, 7),
        ("START 22", 22, 22),
        ("START 5", 5, 5),
    ] {
        assert_eq!(e.ask(start), "OK", "{start}");
        let Point { x, y } = parse_move(&e.ask("BEGIN"));
        assert!(x < width && y < height, "{start}: {x},{y}");
        let off = format!("TURN {},{}", width, height - 1);
        assert!(e.ask(&off).starts_with("ERROR"), "{start}: {off}");
        let mut played = vec![p(x, y)];
        for _ in 0..3 {
            let reply = (0..width)
                .flat_map(|x| (0..height).map(move |y| p(x, y)))
                .find(|q| !played.contains(q))
                .unwrap();
            played.push(reply);
            let answer = parse_move(&e.ask(&format!("TURN {reply}")));
            assert!(answer.x < width && answer.y < height, "{start}: {answer}");
            assert!(!played.contains(&answer), "{start}: {answer}");
            played.push(answer);
        }
    }
}

#[test]
fn turn_may_be_the_first_command_after_start() {
    let mut e = started(15, 100);
    let answer = parse_move(&e.ask("TURN 7,7"));
    assert_ne!(answer, p(7, 7));
}

#[test]
fn a_full_board_every_move_without_restart() {
    // c-gomoku-cli -sendbyboard and Yixin-Board: the whole position before every move.
    let mut e = started(15, 60);
    let mut own: Vec<Point> = Vec::new();
    let mut opp: Vec<Point> = Vec::new();
    // (Four answers: the engine cannot make five and end the game, whatever it plays.)
    let opponent_moves = [p(7, 7), p(8, 8), p(6, 6), p(9, 5), p(5, 9)];
    for &mv in &opponent_moves {
        opp.push(mv);
        e.send("BOARD");
        // Stones in play order: opponent (black) first, then alternating.
        for (i, o) in opp.iter().enumerate() {
            e.send(&format!("{o},2"));
            if let Some(o) = own.get(i) {
                e.send(&format!("{o},1"));
            }
        }
        e.send("DONE");
        let answer = parse_move(&e.answer());
        assert!(!own.contains(&answer) && !opp.contains(&answer), "{answer:?} is occupied");
        own.push(answer);
        if opponent_moves.contains(&answer) {
            break;
        }
    }
}

#[test]
fn an_empty_board_means_the_engine_starts() {
    let mut e = started(15, 100);
    e.send("BOARD");
    e.send("DONE");
    let Point { x, y } = parse_move(&e.answer());
    assert!(x < 15 && y < 15);
}

#[test]
fn board_with_own_and_opponent_stones_and_bad_counts() {
    let mut e = started(15, 100);
    e.send("BOARD\n7,7,2\n8,8,1\n7,8,2\nDONE");
    let answer = parse_move(&e.answer());
    assert!(![p(7, 7), p(8, 8), p(7, 8)].contains(&answer));
    e.send("BOARD\n7,7,1\n8,8,1\nDONE");
    assert!(e.answer().starts_with("ERROR"), "two own stones, none of the opponent's");
    e.send("BOARD\n7,7,1\n7,7,2\nDONE");
    assert_eq!(e.answer(), "ERROR BOARD 7,7: 7,7 is listed twice");
    // A repeated line of one colour is named too, not taken for a bad count.
    e.send("BOARD\n7,7,1\n7,7,1\n8,8,2\nDONE");
    assert_eq!(e.answer(), "ERROR BOARD 7,7: 7,7 is listed twice");
    e.send("BOARD\n7,7,1\n99,7,2\nDONE");
    assert!(e.answer().starts_with("ERROR"), "off the board");
    e.send("BOARD\n7,7\nDONE");
    assert!(e.answer().starts_with("ERROR"), "missing field");
    // The position from the last good BOARD is unchanged: its cells are still occupied.
    assert!(e.ask("TURN 7,8").starts_with("ERROR"));
    parse_move(&e.ask("TURN 0,0"));
}

#[test]
fn takeback_and_play() {
    let mut e = started(5, 50);
    let first = parse_move(&e.ask("BEGIN"));
    let reply = parse_move(&e.ask("TURN 0,0"));
    assert_eq!(e.ask(&format!("TAKEBACK {}", reply)), "OK");
    assert_eq!(e.ask("TAKEBACK 0,0"), "OK");
    assert!(e.ask("TAKEBACK 0,0").starts_with("ERROR"), "0,0 is no longer the last move");
    assert_eq!(e.ask(&format!("TAKEBACK {}", first)), "OK");
    assert!(e.ask("TAKEBACK 1,1").starts_with("ERROR"), "the board is empty");
    assert_eq!(e.ask("PLAY 2,2"), "2,2");
    assert!(e.ask("PLAY 2,2").starts_with("ERROR"));
}

/// Sends `request` (a long search), YXSTOP 300 ms later, and returns the move, which must
/// come within 500 ms of the YXSTOP.
fn stopped_mid_search(e: &mut Engine, request: &str) -> Point {
    e.send(request);
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("YXSTOP");
    let answer = parse_move(&e.answer_within(Duration::from_secs(2)));
    assert!(asked.elapsed() < Duration::from_millis(500), "took {:?}", asked.elapsed());
    answer
}

#[test]
fn yxstop_answers_at_once_with_the_best_move_so_far() {
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 60000");
    e.send("INFO messages 0");
    let answer = stopped_mid_search(&mut e, "TURN 7,7");
    assert_ne!(answer, p(7, 7));
    // STOP when idle is ignored.
    e.send("STOP");
    e.assert_silent(Duration::from_millis(200));
}

/// Several search threads, from `--threads` or `INFO thread_num`: moves within the turn
/// time, YXSTOP answered at once, and the helpers end with the search.
#[test]
fn several_threads_answer_in_time_and_stop_at_once() {
    let mut e = Engine::start_with(&["--threads", "2"]);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 300");
    e.send("INFO messages 0");
    let asked = Instant::now();
    let answer = parse_move(&e.ask(&format!("BOARD\n{}DONE", board_lines("h8,i9,i8,g8,h10,j10"))));
    assert!(asked.elapsed() < Duration::from_millis(300), "took {:?}", asked.elapsed());
    assert!(answer.x < 15 && answer.y < 15);
    e.send("INFO thread_num 4");
    e.send("INFO timeout_turn 60000");
    stopped_mid_search(&mut e, "TURN 4,4");
    e.send("END");
    let (status, _) = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    for bad in ["0", "65", "x"] {
        let mut refused = Engine::start_with(&["--threads", bad]);
        let (status, _) = refused.wait_exit(Duration::from_secs(5));
        assert_eq!(status.code(), Some(2), "--threads {bad}");
        let err = refused.stderr();
        assert!(err.contains("invalid value") && err.contains("'--threads <N>'"), "{bad}: {err}");
    }
}

#[test]
fn end_exits_promptly_also_mid_search_and_on_end_of_input() {
    let mut idle = started(15, 100);
    idle.send("END");
    let (status, took) = idle.wait_exit(Duration::from_secs(5));
    assert!(status.success() && took < Duration::from_millis(100), "{took:?}");

    let mut busy = started(15, 60_000);
    busy.send("BEGIN");
    assert_ends_promptly(busy, |e| e.send("END"));
    let mut eof = started(15, 60_000);
    eof.send("BEGIN");
    assert_ends_promptly(eof, Engine::close_input);
}

/// After a 200 ms head start on the work under way, `end` ends the engine `e`, with success,
/// within 100 ms.
fn assert_ends_promptly(mut e: Engine, end: impl FnOnce(&mut Engine)) {
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    end(&mut e);
    let (status, _) = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
    assert!(sent.elapsed() < Duration::from_millis(100), "{:?}", sent.elapsed());
}

#[test]
fn every_kind_of_bad_input_is_answered_and_changes_nothing() {
    let mut e = Engine::start();
    assert!(e.ask("BEGIN").starts_with("ERROR"), "before START");
    assert!(e.ask("TURN 1,1").starts_with("ERROR"), "before START");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO messages 0");
    e.send("INFO timeout_turn 50");
    let first = parse_move(&e.ask("TURN 7,7"));
    let cases = [
        "TURN 7,7",
        &format!("TURN {}", first),
        "TURN 15,0",
        "TURN 0,15",
        "TURN -1,0",
        "TURN 1",
        "TURN a,b",
        "TURN 99999999999999999999,1",
        "TAKEBACK 3,3",
        "PERFT x",
        "BEGIN",
    ];
    for bad in cases {
        let answer = e.ask(bad);
        assert!(answer.starts_with("ERROR "), "{bad:?} -> {answer:?}");
    }
    assert!(e.ask("FROBNICATE 1 2").starts_with("UNKNOWN "));
    assert!(e.ask("\u{1}\u{2}\u{3}").starts_with("UNKNOWN "));
    e.send_raw(&[0xff, 0xfe, b'Z', b'\n']);
    assert!(e.answer().starts_with("UNKNOWN "), "invalid UTF-8");
    let long = "TURN ".to_string() + &"9".repeat(100_000);
    assert!(e.ask(&long).starts_with("UNKNOWN "), "overlong line");
    // Unknown and malformed INFO is silent.
    e.send("INFO no_such_key 12");
    e.send("INFO evaluate 3,3");
    e.assert_silent(Duration::from_millis(100));
    // Nothing changed: the game goes on from the same two stones (the next opponent move
    // is any free cell near them).
    let mine = if first == p(8, 8) { p(6, 6) } else { p(8, 8) };
    let next = parse_move(&e.ask(&format!("TURN {}", mine)));
    assert!(![p(7, 7), mine, first].contains(&next));
}

#[test]
fn renju_and_caro_are_played_and_unknown_rules_refused() {
    let mut e = started(15, 50);
    e.send("INFO rule 3");
    assert!(e.ask("BEGIN").starts_with("ERROR unsupported rule 3"));
    for rule in [4, 2, 8, 9, 1, 0] {
        e.send(&format!("INFO rule {rule}"));
        assert_eq!(e.ask("RESTART"), "OK");
        parse_move(&e.ask("BEGIN"));
    }
}

#[test]
fn renju_forbidden_points_are_shown_and_refused() {
    // From the renju data: black to move, forbidden at j8 and j10 (x 9, y 7 and y 9).
    let moves = "h9,g9,j9,f11,i10,h11,j11,k12,i8,e11,i11,i7,k10,f10,h8,c13";
    let mut e = started(15, 50);
    e.send("INFO rule 4");
    e.send("YXBOARD");
    for (i, Point { x, y }) in
        mnk_engine::notation::parse_moves(moves).unwrap().into_iter().enumerate()
    {
        // The engine will be black (to move): black stones are its own.
        e.send(&format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    e.send("DONE");
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID 09070909.");
    // As black the engine never plays there.
    let answer = parse_move(&e.ask(&format!("BOARD\n{}DONE", board_lines(moves))));
    assert!(answer != p(9, 7) && answer != p(9, 9), "{answer:?}");
    // Under freestyle nothing is forbidden.
    e.send("INFO rule 0");
    e.send("YXBOARD\nDONE");
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID .");
}

/// BOARD lines (black = the engine's own, field 1) for a move list with black to move.
fn board_lines(moves: &str) -> String {
    mnk_engine::notation::parse_moves(moves)
        .unwrap()
        .into_iter()
        .enumerate()
        .map(|(i, point)| format!("{point},{}\n", if i % 2 == 0 { 1 } else { 2 }))
        .collect()
}

#[test]
fn yxboard_sets_a_position_without_moving_and_showforbid_answers() {
    let mut e = started(15, 50);
    e.send("YXBOARD\n7,7,1\n8,8,2\nDONE");
    e.assert_silent(Duration::from_millis(150));
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID .");
    assert!(e.ask("TURN 8,8").starts_with("ERROR"), "8,8 holds a stone");
    // Its errors name YXBOARD, and the position stays as it was.
    assert_eq!(e.ask("YXBOARD\n7,7,1\n7,7,2\nDONE"), "ERROR YXBOARD 7,7: 7,7 is listed twice");
    assert_eq!(
        e.ask("YXBOARD\n7,7,1\n8,8,1\nDONE"),
        "ERROR YXBOARD: 2 own and 0 opponent stones cannot be a position with the engine to move"
    );
    assert!(e.ask("TURN 8,8").starts_with("ERROR"), "8,8 still holds a stone");
}

#[test]
fn yxnbest_reports_the_best_moves_then_plays_the_first() {
    let mut e = started(15, 300);
    e.send(&format!("yxboard\n{}done", board_lines("h8i9h9h10")));
    e.send("yxnbest 3");
    let mut roots = Vec::new();
    for k in 1..=3 {
        let line = e.line_within(Duration::from_secs(5)).expect("an nbest line");
        let text = line.strip_prefix(&format!("MESSAGE nbest {k}/3 depth ")).expect(&line);
        assert!(text.contains(" ev ") && text.contains(" pv "), "{line}");
        let root = text.split(" pv ").nth(1).unwrap().split(' ').next().unwrap().to_string();
        assert!(!roots.contains(&root), "{line}");
        roots.push(root);
    }
    let played = parse_move(&e.line_within(Duration::from_secs(5)).expect("the move"));
    assert_eq!(mnk_engine::notation::parse_moves(&roots[0]).unwrap(), vec![played]);
    let Point { x, y } = played;
    assert!(e.ask(&format!("TURN {x},{y}")).starts_with("ERROR"), "the move was played");
    for bad in ["YXNBEST 0", "YXNBEST 33", "YXNBEST many"] {
        assert!(e.ask(bad).starts_with("ERROR YXNBEST"), "{bad}");
    }
}

#[test]
fn swap2_proposes_and_decides() {
    let mut e = started(15, 100);
    e.send("SWAP2BOARD\nDONE");
    let proposal = e.answer();
    let moves: Vec<Point> = proposal.split(' ').map(parse_move).collect();
    assert_eq!(moves.len(), 3);
    assert_eq!(moves.iter().collect::<HashSet<_>>().len(), 3);
    e.send("SWAP2BOARD\n7,7\n8,7\n7,9\nDONE");
    let decision = e.answer();
    assert!(decision == "SWAP" || parse_move(&decision).x < 15, "{decision}");
    e.send("SWAP2BOARD\n7,7\n8,7\n7,9\n8,9\n6,8\nDONE");
    let decision = e.answer();
    assert!(decision == "SWAP" || parse_move(&decision).x < 15, "{decision}");
    e.send("SWAP2BOARD\n7,7\nDONE");
    assert!(e.answer().starts_with("ERROR"));
}

/// The swap2 opening mnk proposes is one its own swap decision keeps white in (the fixed
/// proposal of old scored about −400 for white, and mnk swapped it): on 15×15 under each
/// rule, the one `docs/protocol.md` shows, judged by its decision with the proposal's node
/// budget within the swap margin (±30).
#[test]
fn the_swap2_opening_proposed_is_one_mnk_keeps_white_in() {
    // (Renju's is the closest of its list, +33 for white: kept, though not within ±30.)
    for (rule, opening, bound) in
        [(0, "7,7 8,8 2,9", 30), (1, "7,7 8,7 5,3", 30), (4, "7,7 8,7 3,7", 33)]
    {
        let mut e = Engine::start();
        assert_eq!(e.ask_command(&Command::Start { width: 15, height: 15 }), Response::Ok);
        e.send_command(&Command::Info(Setting::Rule(rule)));
        e.send_command(&Command::Info(Setting::MaxNode(Some(200_000))));
        let proposal = e.ask_command(&Command::Swap2Board(vec![]));
        assert_eq!(proposal.to_string(), opening, "rule {rule}");
        let Response::Moves(stones) = proposal else { panic!("{proposal:?}") };
        e.send_command(&Command::Swap2Board(stones));
        let mut summary = None;
        let decision = loop {
            let line = e.line_within(PROMPT).expect("an answer");
            if let Some(rest) = line.strip_prefix("MESSAGE answer ") {
                summary = Some(rest.to_string());
            } else if !line.starts_with("MESSAGE") {
                break line;
            }
        };
        assert_ne!(decision, "SWAP", "rule {rule}");
        let summary = summary.expect("the answer's summary");
        let ev: i32 =
            summary.split(' ').skip_while(|w| *w != "ev").nth(1).unwrap().parse().unwrap();
        assert!(ev.abs() <= bound, "rule {rule}: {summary}");
    }
}

#[test]
fn scripting_extensions() {
    let mut e = started(3, 50);
    e.send("PERFT 9");
    let mut lines = Vec::new();
    loop {
        let line = e.line_within(Duration::from_secs(10)).expect("perft output");
        let last = line.starts_with("nodes ");
        lines.push(line);
        if last {
            break;
        }
    }
    assert_eq!(lines.last().unwrap(), "nodes 127872");
    e.send("SHOW");
    let first = e.line_within(Duration::from_secs(5)).unwrap();
    assert_eq!(first, "MESSAGE     a b c");
    for _ in 0..4 {
        assert!(e.line_within(Duration::from_secs(5)).unwrap().starts_with("MESSAGE "));
    }
    e.send("SOLVE");
    assert!(e.line_within(Duration::from_secs(5)).unwrap().starts_with("MESSAGE value draw best "));
    e.send("EVAL");
    assert!(e.line_within(Duration::from_secs(5)).unwrap().starts_with("MESSAGE eval "));
}

/// `PERFT` counts on the worker thread: `YXSTOP` ends it at once with an error, `END`
/// ends the engine at once.
#[test]
fn a_long_perft_stops_at_once() {
    let mut e = started(15, 50);
    e.send("PERFT 4");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    let answer = e.ask("YXSTOP");
    assert!(answer.starts_with("ERROR PERFT: depth 4 stopped after "), "{answer}");
    assert!(sent.elapsed() < Duration::from_millis(100), "{:?}", sent.elapsed());
    // The engine goes on as before.
    assert_eq!(e.ask("PERFT 1"), "nodes 225");
    e.send("PERFT 4");
    assert_ends_promptly(e, |e| e.send("END"));
}

/// `SOLVE` proves on the worker thread: 6×6 by the prover (a draw), and an 8×8 proof, far
/// too long to finish, ends at `YXSTOP` with an error and at `END` with the engine, at once.
#[test]
fn a_proof_answers_or_stops_at_once() {
    let mut e = started(6, 50);
    e.send("SOLVE");
    let answer = e.line_within(Duration::from_secs(30)).expect("a proof of 6x6");
    assert!(answer.starts_with("MESSAGE value draw best "), "{answer}");
    assert!(!answer.contains(" score "), "the prover proves values, not scores: {answer}");
    let mut e = started(8, 50);
    e.send("SOLVE");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    let answer = e.ask("YXSTOP");
    assert!(answer.starts_with("ERROR SOLVE: stopped after "), "{answer}");
    assert!(sent.elapsed() < Duration::from_millis(200), "{:?}", sent.elapsed());
    assert_eq!(e.ask("PERFT 1"), "nodes 64");
    e.send("SOLVE");
    assert_ends_promptly(e, |e| e.send("END"));
}

/// Text a command brings in is echoed with its control characters replaced, whatever
/// answer echoes it.
#[test]
fn echoed_input_never_carries_control_characters() {
    let mut e = started(5, 50);
    e.send("INFO max_memory 12\u{1b}[2J34");
    e.send("BEGIN");
    // (Progress lines are off: the report, then the move.)
    let lines: Vec<String> =
        std::iter::from_fn(|| e.line_within(Duration::from_secs(5))).take(2).collect();
    assert_eq!(lines[0], "MESSAGE INFO max_memory: ignored bad value '12?[2J34'");
    parse_move(&lines[1]);
    assert!(lines.iter().all(|l| !l.chars().any(char::is_control)), "{lines:?}");
    for bad in ["TURN 1,\u{1b}[2J", "FOO \u{1b}[2J", "YXNBEST \u{7}"] {
        let answer = e.ask(bad);
        assert!(!answer.chars().any(char::is_control), "{bad:?} -> {answer:?}");
    }
}

#[test]
fn progress_messages_follow_the_convention_and_can_be_turned_off() {
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 200");
    e.send("BEGIN");
    let (mut saw_message, mut summary_seen) = (false, false);
    loop {
        let line = e.line_within(Duration::from_secs(5)).expect("output");
        if let Some(text) = line.strip_prefix("MESSAGE ") {
            if let Some(summary) = text.strip_prefix("answer ") {
                // The last line before the move: the search and the time it took.
                assert!(summary.starts_with("depth ") && summary.contains(" tm "), "{text}");
                summary_seen = true;
            } else {
                assert!(
                    text.starts_with("depth ") && text.contains(" ev ") && text.contains(" pv "),
                    "{text}"
                );
                assert!(!summary_seen, "the summary comes last: {text}");
                saw_message = true;
            }
        } else {
            parse_move(&line);
            break;
        }
    }
    assert!(saw_message && summary_seen);
    e.send("INFO messages 0");
    e.send("TURN 0,0");
    let line = e.line_within(Duration::from_secs(5)).unwrap();
    parse_move(&line);
}

#[test]
fn every_output_line_is_well_formed() {
    let mut e = started(5, 30);
    e.send("INFO messages 1");
    let commands = [
        "BEGIN",
        "TURN 0,0",
        "YXNBEST 3",
        "SHOW",
        "EVAL",
        "PERFT 2",
        "YXSHOWFORBID",
        "ABOUT",
        "BOGUS",
    ];
    for cmd in commands {
        e.send(cmd);
    }
    e.send("END");
    e.wait_exit(Duration::from_secs(10));
    while let Some(line) = e.line_within(Duration::from_millis(100)) {
        assert!(well_formed(&line), "{line:?}");
    }
}

#[test]
fn the_classroom_player_speaks_the_protocol_and_blocks_a_four() {
    let mut e = Engine::start_with(&["classroom"]);
    let about = e.ask("ABOUT");
    assert!(about.starts_with("name=\"mnk-classroom\", version=\""), "{about}");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO messages 0");
    assert_eq!(parse_move(&e.ask("BEGIN")), p(7, 7), "the centre on an empty board");
    // White (the opponent) has four in row 1, a1–d1; black must block at e1.
    let answer = e.ask(&format!("BOARD\n{}DONE", board_lines("h8,a1,i9,b1,j10,c1,h10,d1")));
    assert_eq!(parse_move(&answer), p(4, 0));
    assert!(e.ask("TURN 99,99").starts_with("ERROR"), "bad input is refused as in mnk");
    e.send("END");
    let (status, _) = e.wait_exit(Duration::from_secs(5));
    assert!(status.success());
}

/// Yixin-Board's `YXSHOWINFO` (what mnk supports) and `YXHASHCLEAR`, before and during a
/// game.
#[test]
fn yixin_board_show_info_and_hash_clear() {
    let mut e = Engine::start();
    e.send("YXSHOWINFO");
    let lines: Vec<String> =
        std::iter::from_fn(|| e.line_within(Duration::from_secs(5))).take(5).collect();
    assert!(lines.iter().all(|l| l.starts_with("MESSAGE ")), "{lines:?}");
    assert!(lines[0].starts_with("MESSAGE name=\"mnk\""), "{lines:?}");
    assert!(lines.contains(&"MESSAGE INFO MAX_THREAD_NUM 64".to_string()), "{lines:?}");
    let mut e = started(15, 50);
    e.send("INFO hash_size 4096");
    parse_move(&e.ask("TURN 7,7"));
    e.send("YXHASHCLEAR");
    let cleared = e.line_within(Duration::from_secs(5)).expect("an answer");
    assert_eq!(cleared, "MESSAGE transposition table cleared");
    parse_move(&e.ask("TURN 0,0"));
}

/// Yixin-Board's `YXBLOCK`: the engine does not answer with a blocked cell, even one that
/// wins, until `YXBLOCKUNDO` or `YXBLOCKRESET` takes it back; an off-board cell is refused.
#[test]
fn yixin_board_blocks_cells_until_they_are_taken_back() {
    let mut e = started(15, 200);
    let four = board_lines("h8a1i8a3j8a5k8a7");
    let (g8, l8) = (p(6, 7), p(11, 7));
    assert_eq!(parse_move(&e.ask(&format!("BOARD\n{four}DONE"))), g8, "the first five");
    e.send("YXBLOCK\n6,7\n11,7\nDONE");
    e.assert_silent(Duration::from_millis(100));
    assert_eq!(e.ask("YXBLOCK\n3,3\n7,15\nDONE"), "ERROR YXBLOCK 7,15: 7,15 is off the board");
    let answer = parse_move(&e.ask(&format!("BOARD\n{four}DONE")));
    assert!(answer != g8 && answer != l8, "{answer:?} is blocked");
    e.send("YXBLOCKUNDO\n11,7\nDONE");
    assert_eq!(parse_move(&e.ask(&format!("BOARD\n{four}DONE"))), l8);
    e.send("YXBLOCKRESET");
    assert_eq!(parse_move(&e.ask(&format!("BOARD\n{four}DONE"))), g8);
}

/// A `YXNBEST n` answer: the first move of each line, then the move played.
fn nbest(e: &mut Engine, n: usize) -> (Vec<Point>, Point) {
    e.send(&format!("YXNBEST {n}"));
    let mut roots = Vec::new();
    loop {
        let line = e.line_within(Duration::from_secs(10)).expect("an answer");
        let Some(text) = line.strip_prefix("MESSAGE nbest ") else {
            return (roots, parse_move(&line));
        };
        let pv = text.split(" pv ").nth(1).expect("a pv");
        let first = pv.split(' ').next().expect("a move");
        roots.push(mnk_engine::notation::parse_moves(first).unwrap()[0]);
    }
}

/// The `YXBLOCK` acceptance check, about 20 seconds: 200 positions (the 120 tactics, with
/// their winning or holding moves blocked, and 80 renju positions, with the unblocked
/// answer and its neighbours blocked), each asked for three lines at 200 ms: no answer and
/// no line starts with a blocked cell.
#[test]
#[ignore = "about 20 s: run with --ignored --release"]
fn blocked_cells_are_never_played_over_200_positions() {
    let data = |name: &str| -> Vec<String> {
        let path = format!("{}/../tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(String::from)
            .collect()
    };
    let field = |line: &str, name: &str| {
        let value = line.split_whitespace().find_map(|f| f.strip_prefix(name));
        value.unwrap_or_else(|| panic!("{name} missing in {line}")).to_string()
    };
    let cells = |list: &str| mnk_engine::notation::parse_moves(&list.replace(',', "")).unwrap();
    let mut cases = Vec::new();
    for line in data("tactics-15-dev.txt") {
        let rule = if field(&line, "rule=") == "freestyle" { 0 } else { 1 };
        let alts = field(&line, "alts=");
        let good = format!("{}{}", field(&line, "best="), alts.replace('-', ""));
        cases.push((rule, field(&line, "moves="), cells(&good)));
    }
    for line in data("renju-forbid-dev.txt").into_iter().take(80) {
        cases.push((4, field(&line, "moves="), Vec::new()));
    }
    assert_eq!(cases.len(), 200);
    let mut e = started(15, 200);
    let (mut answers, mut lines) = (0, 0);
    for (rule, moves, mut blocked) in cases {
        let stones = cells(&moves);
        let to_move = stones.len() % 2;
        let position: String = stones
            .iter()
            .enumerate()
            .map(|(i, point)| format!("{point},{}\n", if i % 2 == to_move { 1 } else { 2 }))
            .collect();
        e.send(&format!("INFO rule {rule}"));
        if blocked.is_empty() {
            e.send(&format!("YXBOARD\n{position}DONE"));
            let (_, Point { x, y }) = nbest(&mut e, 1);
            let near = |v: usize| v.saturating_sub(1)..=(v + 1).min(14);
            blocked = near(x).flat_map(|bx| near(y).map(move |by| p(bx, by))).collect();
        }
        let list: String = blocked.iter().map(|point| format!("{point}\n")).collect();
        e.send(&format!("YXBLOCK\n{list}DONE"));
        e.send(&format!("YXBOARD\n{position}DONE"));
        let (roots, played) = nbest(&mut e, 3);
        assert!(!blocked.contains(&played), "{moves}: played blocked {played:?}");
        for root in &roots {
            assert!(!blocked.contains(root), "{moves}: a line at blocked {root:?}");
        }
        e.send("YXBLOCKRESET");
        (answers, lines) = (answers + 1, lines + roots.len());
    }
    eprintln!("{answers} answers and {lines} lines, none at a blocked cell");
}

/// The CPU seconds the process has used (Linux: `/proc/PID/stat`).
#[cfg(target_os = "linux")]
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the process's stat");
    let fields: Vec<&str> =
        stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
    // utime and stime, fields 14 and 15 of the line (11 and 12 after the name), in ticks;
    // Linux reports them at 100 ticks a second.
    let ticks = |i: usize| fields[i].parse::<f64>().expect("a tick count");
    (ticks(11) + ticks(12)) / 100.0
}

/// `INFO pondering 1`: after each answer mnk searches on the opponent's time (it is busy
/// while idle from the manager's view), prints nothing while it does, and any command
/// stops it at once: a query answers within milliseconds, the next move within its time,
/// `YXSTOP` brings no answer, `END` exits promptly. Off (the default) it stays idle.
#[test]
fn pondering_searches_on_the_opponents_time_and_any_command_stops_it() {
    let mut e = started(15, 200);
    parse_move(&e.ask("TURN 7,7"));
    #[cfg(target_os = "linux")]
    {
        let before = cpu_seconds(e.pid());
        e.assert_silent(Duration::from_millis(300));
        assert!(cpu_seconds(e.pid()) - before < 0.1, "idle without pondering");
    }
    e.send("INFO pondering 1");
    parse_move(&e.ask("TURN 9,9"));
    #[cfg(target_os = "linux")]
    {
        // A fifth of a second of CPU, within three seconds of silence: on a loaded machine
        // the pondering thread gets less than its core.
        let before = cpu_seconds(e.pid());
        let started = Instant::now();
        while cpu_seconds(e.pid()) - before < 0.2 && started.elapsed() < Duration::from_secs(3) {
            e.assert_silent(Duration::from_millis(100));
        }
        assert!(cpu_seconds(e.pid()) - before >= 0.2, "pondering searches");
    }
    let sent = Instant::now();
    assert!(e.ask("ABOUT").starts_with("name=\"mnk\""));
    assert!(sent.elapsed() < Duration::from_millis(100), "{:?}", sent.elapsed());
    let sent = Instant::now();
    parse_move(&e.ask("TURN 5,5"));
    assert!(sent.elapsed() < Duration::from_millis(400), "{:?}", sent.elapsed());
    std::thread::sleep(Duration::from_millis(200));
    e.send("YXSTOP");
    e.assert_silent(Duration::from_millis(200));
    parse_move(&e.ask("TURN 5,9"));
    e.send("INFO pondering on\nTURN 9,5");
    let reported = e.line_within(Duration::from_secs(5)).expect("a report");
    assert_eq!(reported, "MESSAGE INFO pondering: ignored bad value 'on'");
    parse_move(&e.answer());
    assert_ends_promptly(e, |e| e.send("END"));
}

/// Yixin-Board's opening and analysis tools: `YXBALANCEONE`/`YXBALANCETWO` answer the
/// stones they place (then played), `YXSEARCHDEFEND` a line per legal move and the
/// counts; bad arguments are refused and change nothing.
#[test]
fn yixin_board_balance_and_search_defend() {
    let mut e = started(15, 1000);
    e.send(&format!("YXBOARD\n{}DONE", board_lines("h8i9")));
    e.send("YXBALANCEONE 0");
    let text = e.line_within(Duration::from_secs(5)).expect("a balance line");
    assert!(text.starts_with("MESSAGE balance ev "), "{text}");
    let placed = parse_move(&e.answer());
    assert!(e.ask(&format!("TURN {}", placed)).starts_with("ERROR"), "played");
    e.send(&format!("YXBOARD\n{}DONE", board_lines("h8i9")));
    e.send("YXBALANCETWO -20");
    e.line_within(Duration::from_secs(5)).expect("a balance line");
    let answer = e.answer();
    let stones: Vec<Point> = answer.split(' ').map(parse_move).collect();
    assert_eq!(stones.len(), 2, "{answer}");
    assert_eq!(
        e.ask("YXBALANCEONE lots"),
        "ERROR YXBALANCEONE: expected a score from -29743 to 29743, got 'lots'"
    );
    // White (own, field 1) to move against black's open three h8 i8 j8.
    e.send("YXBOARD\n7,7,2\n0,0,1\n8,7,2\n0,14,1\n9,7,2\nDONE");
    e.send("YXSEARCHDEFEND");
    let lines: Vec<String> =
        std::iter::from_fn(|| e.line_within(Duration::from_secs(5))).take(221).collect();
    assert!(lines[0].starts_with("MESSAGE defend 1/220 ev "), "{}", lines[0]);
    assert!(lines[220].starts_with("MESSAGE defend done "), "{}", lines[220]);
    assert!(lines.iter().all(|l| well_formed(l)), "{lines:?}");
    e.send("START 5");
    assert_eq!(e.answer(), "OK");
    assert_eq!(e.ask("YXSEARCHDEFEND"), "ERROR YXSEARCHDEFEND needs a board larger than 5x5");
}
