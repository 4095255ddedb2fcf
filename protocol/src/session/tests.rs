//! Tests of the session: commands in, answers out, searches run inline.

use std::time::Instant;

use mnk_engine::engine::{DEFAULT_HASH_BYTES, MAX_THREADS, MIN_HASH_BYTES, TOUCH_STEP_BYTES};
use mnk_engine::limits::StopFlag;
use mnk_engine::strength::Strength;

use super::*;
use crate::command::Field;

fn p(x: usize, y: usize) -> Point {
    Point::new(x, y)
}

/// A stop flag already raised: a job given it stops at once.
fn raised() -> StopFlag {
    let flag = StopFlag::new();
    flag.raise();
    flag
}

fn reply(session: &mut Session, command: Command) -> Vec<Response> {
    match session.handle(command) {
        Reaction::Reply(lines) => lines,
        Reaction::Think(job) => session.think_inline(job),
        Reaction::Quit => vec![],
    }
}

/// The job a reaction hands out.
fn job(reaction: Reaction) -> Box<Job> {
    match reaction {
        Reaction::Think(job) => job,
        other => panic!("not a job: {other:?}"),
    }
}

/// The search a reaction hands out.
fn search_job(reaction: Reaction) -> SearchTask {
    match job(reaction).task {
        Task::Search(search) => search,
        other => panic!("not a search: {other:?}"),
    }
}

/// The stones of `moves` (pos notation) for a `BOARD`/`YXBOARD` block, the side to move's
/// as the engine's own.
fn position(moves: &str) -> Vec<BoardStone> {
    let moves = mnk_engine::notation::parse_moves(moves).expect("pos notation");
    let to_move = moves.len() % 2;
    moves
        .iter()
        .enumerate()
        .map(|(i, &point)| BoardStone {
            point,
            field: if i % 2 == to_move { Field::Own } else { Field::Opponent },
        })
        .collect()
}

fn started(size: usize) -> Session {
    let mut s = Session::new();
    assert_eq!(reply(&mut s, Command::Start { width: size, height: size }), vec![Response::Ok]);
    s.handle(Command::info("timeout_turn", "50"));
    s.handle(Command::info("messages", "0"));
    s
}

#[test]
fn turn_plays_the_opponent_move_and_answers_with_a_legal_move() {
    let mut s = started(15);
    let lines = reply(&mut s, Command::Turn(p(7, 7)));
    assert_eq!(lines.len(), 1);
    let Response::Move(point) = lines[0] else { panic!("{lines:?}") };
    assert_ne!(point, p(7, 7));
    assert_eq!(s.game().unwrap().move_count(), 2);
}

/// With a turn time alone the search aims at exactly its limit, so it is never stretched
/// or shrunk (a forced move too has the whole turn); a game clock's share aims below it.
#[test]
fn a_turn_time_alone_is_the_aim_and_the_limit() {
    let mut s = started(15);
    let limits = |s: &mut Session| {
        let job = search_job(s.handle(Command::Turn(p(7, 7))));
        (job.limits.target, job.limits.deadline)
    };
    s.handle(Command::info("timeout_turn", "1000"));
    let (target, time) = limits(&mut s);
    let from_now = time.map(|t| t.saturating_duration_since(Instant::now()));
    assert!(from_now.is_some_and(|t| t.as_millis() > 900), "{time:?}");
    assert_eq!(target, time);
    let mut s = started(15);
    s.handle(Command::info("timeout_turn", "1000"));
    s.handle(Command::info("timeout_match", "4000"));
    let (target, time) = limits(&mut s);
    assert!(target < time, "{target:?} {time:?}");
}

/// A game clock with no `time_left` counts down from `timeout_match` by the time each
/// answer took; `time_left` replaces the count, and a new game (`RESTART`, `START`)
/// starts again from a full `timeout_match`, not from the last game's `time_left`.
#[test]
fn the_game_clock_counts_the_thinking_time_between_time_lefts() {
    let info = |s: &mut Session, key: &str, value: &str| {
        s.handle(Command::info(key, value));
    };
    let left = |s: &Session| s.settings().time_control().left_ms;
    let mut s = started(15);
    assert_eq!(left(&s), None, "no timeout_match: no game clock");
    info(&mut s, "timeout_match", "3000");
    assert_eq!(left(&s), Some(3000));
    reply(&mut s, Command::Turn(p(7, 7)));
    let after_one = left(&s).expect("a clock");
    assert!(after_one < 3000, "the answer's time is taken off: {after_one}");
    info(&mut s, "time_left", "2500");
    assert_eq!(left(&s), Some(2500));
    reply(&mut s, Command::Turn(p(7, 9)));
    assert!(left(&s).expect("a clock") < 2500);
    reply(&mut s, Command::Restart);
    assert_eq!(left(&s), Some(3000), "a new game's clock is full");
    info(&mut s, "time_left", "1200");
    reply(&mut s, Command::Start { width: 15, height: 15 });
    assert_eq!(left(&s), Some(3000), "so is the clock after START");
    info(&mut s, "time_left", "2147483647");
    assert_eq!(left(&s), None, "2147483647 means no game clock");
}

/// `time_increment` adds to the clock after each answer (counted without `time_left`),
/// to the share of each move, and to the next `time_left` only from then on.
#[test]
fn the_increment_is_earned_after_each_answer_and_counted_in_the_budget() {
    let clocked = |increment: &str| {
        let mut s = started(15);
        s.handle(Command::info("timeout_turn", "100000"));
        s.handle(Command::info("timeout_match", "3000"));
        s.handle(Command::info("time_increment", increment));
        s
    };
    let budget = |mut s: Session| search_job(s.handle(Command::Turn(p(7, 7)))).limits.target;
    let (without, with) = (budget(clocked("0")), budget(clocked("400")));
    assert!(with > without, "{with:?} is not above {without:?}");
    let mut s = clocked("400");
    let tc = s.settings().time_control();
    assert_eq!((tc.left_ms, tc.increment_ms), (Some(3000), 400));
    s.handle(Command::info("timeout_turn", "100"));
    reply(&mut s, Command::Turn(p(7, 7)));
    let left = s.settings().time_control().left_ms.expect("a clock");
    assert!(left > 3200 && left < 3400, "the answer took its time and earned 400: {left}");
    s.handle(Command::info("time_left", "2000"));
    assert_eq!(s.settings().time_control().left_ms, Some(2000));
    assert!(
        matches!(s.handle(Command::info("time_increment", "-5")), Reaction::Reply(l) if l.is_empty())
    );
    assert_eq!(s.settings().time_control().increment_ms, 400, "a bad value changes nothing");
}

/// mnk's table has the size the settings ask for; the classroom program, which uses
/// none, gets the smallest.
#[test]
fn only_mnk_gets_the_table_the_settings_ask_for() {
    for (player, bytes) in [(Player::Mnk, DEFAULT_HASH_BYTES), (Player::Classroom, MIN_HASH_BYTES)]
    {
        let mut s = Session::with_player(player);
        reply(&mut s, Command::Start { width: 15, height: 15 });
        s.handle(Command::info("max_depth", "2"));
        let lines = reply(&mut s, Command::Turn(p(7, 7)));
        assert!(matches!(lines.last(), Some(Response::Move(_))), "{player:?}: {lines:?}");
        assert_eq!(s.engine.as_ref().map(Engine::hash_bytes), Some(bytes), "{player:?}");
    }
}

#[test]
fn illegal_turns_leave_the_position_unchanged() {
    let mut s = started(15);
    reply(&mut s, Command::Turn(p(7, 7)));
    let before = s.game().unwrap().history();
    for bad in [p(7, 7), p(15, 0), p(0, 99)] {
        let lines = reply(&mut s, Command::Turn(bad));
        assert!(matches!(&lines[..], [Response::Error(_)]), "{lines:?}");
        assert_eq!(s.game().unwrap().history(), before);
    }
}

#[test]
fn board_infers_colours_from_counts() {
    let mut s = started(15);
    let stones = [
        BoardStone { point: p(7, 7), field: Field::Opponent },
        BoardStone { point: p(8, 8), field: Field::Own },
        BoardStone { point: p(9, 9), field: Field::Opponent },
    ];
    let lines = reply(&mut s, Command::Board(stones.to_vec()));
    assert!(matches!(lines[..], [Response::Move(_)]), "{lines:?}");
    let history = s.game().unwrap().history();
    assert_eq!(&history[..3], &[p(7, 7), p(8, 8), p(9, 9)]);
    let bad = [
        BoardStone { point: p(7, 7), field: Field::Own },
        BoardStone { point: p(8, 8), field: Field::Own },
    ];
    assert!(matches!(&reply(&mut s, Command::Board(bad.to_vec()))[..], [Response::Error(_)]));
    assert_eq!(s.game().unwrap().move_count(), 4, "unchanged after the bad BOARD");
}

/// Renju, black to move with one empty cell left, a forbidden point (see the engine's
/// `renju_black_with_only_forbidden_points_left_gets_no_move`): the search finds no legal
/// move, and the answer is that cell, not a panic, an error or silence (a manager would
/// count any of them as a loss all the same, but not always cleanly).
#[test]
fn renju_black_with_only_a_forbidden_point_left_answers_it() {
    let moves = include_str!("../../../tests/data/renju-black-forbidden-only-rapfi.txt").trim();
    let mut s = started(15);
    s.handle(Command::info("rule", "4"));
    let lines = reply(&mut s, Command::Board(position(moves)));
    let Some(Response::Move(played)) = lines.last() else { panic!("{lines:?}") };
    let game = s.game().unwrap();
    assert_eq!(game.forbidden_points(), vec![*played]);
    assert_eq!(game.move_count(), 224, "the game cannot take the forbidden point");
    assert!(lines.iter().any(|l| l.to_string().contains("only forbidden points")), "{lines:?}");
}

#[test]
fn unsupported_sizes_and_rules_are_errors() {
    let mut s = Session::new();
    assert_eq!(
        reply(&mut s, Command::Start { width: 23, height: 23 }),
        vec![SessionError::UnsupportedSize { width: 23, height: 23 }.into()]
    );
    assert!(matches!(&reply(&mut s, Command::Begin)[..], [Response::Error(_)]));
    reply(&mut s, Command::Start { width: 15, height: 15 });
    reply(&mut s, Command::info("rule", "3"));
    let lines = reply(&mut s, Command::Begin);
    assert!(
        matches!(&lines[..], [Response::Error(e)] if e.to_string().contains("unsupported rule 3")),
        "{lines:?}"
    );
}

#[test]
fn takeback_undoes_only_the_last_move() {
    let mut s = started(5);
    reply(&mut s, Command::Turn(p(2, 2)));
    let last = s.game().unwrap().last_move().unwrap();
    assert!(matches!(&reply(&mut s, Command::Takeback(p(2, 2)))[..], [Response::Error(_)]));
    assert_eq!(reply(&mut s, Command::Takeback(last)), vec![Response::Ok]);
    assert_eq!(reply(&mut s, Command::Takeback(p(2, 2))), vec![Response::Ok]);
    assert!(matches!(&reply(&mut s, Command::Takeback(p(2, 2)))[..], [Response::Error(_)]));
}

#[test]
fn bad_info_values_are_reported_with_the_next_move() {
    let mut s = started(3);
    reply(&mut s, Command::info("timeout_turn", "soon"));
    let lines = reply(&mut s, Command::Begin);
    assert!(matches!(&lines[0], Response::Message(m) if m.contains("timeout_turn")), "{lines:?}");
    assert!(matches!(lines.last(), Some(Response::Move(_))));
    assert_eq!(s.settings().turn_ms, 50, "the old value stays");
}

/// `thread_num` sets the search threads (clamped), keeps memory back for each extra one,
/// and a game played with several threads still gets legal moves.
#[test]
fn thread_num_sets_the_threads_and_their_memory() {
    let mut s = started(15);
    let info = |s: &mut Session, value: &str| {
        s.handle(Command::info("thread_num", value));
    };
    s.handle(Command::info("max_memory", "367001600"));
    // A time control under which the memory limit, not the time, sizes the table.
    let turn_ms = std::mem::replace(&mut s.settings.turn_ms, 30_000);
    let one_thread = s.settings().hash_bytes();
    for (value, threads) in [("4", 4), ("0", 1), ("100000", MAX_THREADS), ("2", 2)] {
        info(&mut s, value);
        assert_eq!(s.settings().threads, threads, "thread_num {value}");
    }
    assert_eq!(s.settings().hash_bytes(), one_thread - THREAD_RESERVE_BYTES);
    s.settings.turn_ms = turn_ms;
    info(&mut s, "many");
    assert_eq!(s.settings().threads, 2, "the old value stays");
    let mut lines = reply(&mut s, Command::Turn(p(7, 7)));
    assert!(matches!(&lines[0], Response::Message(m) if m.contains("thread_num")), "{lines:?}");
    for _ in 0..3 {
        let Some(&Response::Move(point)) = lines.last() else { panic!("{lines:?}") };
        let game = s.game().unwrap();
        assert_eq!(game.last_move(), Some(point));
        let history = game.history();
        let free = (0..15).flat_map(|x| (0..15).map(move |y| p(x, y)));
        let next = free.filter(|q| !history.contains(q)).nth(3).unwrap();
        lines = reply(&mut s, Command::Turn(next));
    }
    assert!(matches!(lines.last(), Some(Response::Move(_))), "{lines:?}");
}

/// A short time control gets a table its searches can fill rather than all of
/// `max_memory`; a long one still gets what the memory limit allows.
#[test]
fn the_table_is_no_larger_than_the_time_control_can_fill() {
    const MIB: usize = 1 << 20;
    let mut s = started(15);
    let info = |s: &mut Session, key: &str, value: &str| {
        s.handle(Command::info(key, value));
    };
    info(&mut s, "max_memory", "367001600");
    let all_memory = 367_001_600 - MEMORY_RESERVE_BYTES;
    // 200 ms a move: at most 167 ms, 4 M nodes a second, two moves' worth of 16-byte
    // entries = 21.4 MB, rounded up to 32 MiB.
    for (turn, match_ms, threads, bytes) in [
        ("200", "0", "1", 32 * MIB),
        ("200", "0", "2", 64 * MIB),
        ("1000", "0", "1", 128 * MIB),
        // The game clock's first moves get up to 3 × 1/16 of it: 1,500 ms of 8 s.
        ("30000", "8000", "1", 256 * MIB),
        ("30000", "180000", "1", all_memory),
        ("0", "0", "1", MIN_HASH_BYTES),
    ] {
        info(&mut s, "timeout_turn", turn);
        info(&mut s, "timeout_match", match_ms);
        info(&mut s, "thread_num", threads);
        assert_eq!(s.settings().hash_bytes(), bytes, "{turn} {match_ms} {threads}");
    }
    info(&mut s, "timeout_turn", "200");
    info(&mut s, "max_memory", "20000000");
    assert_eq!(s.settings().hash_bytes(), MIN_HASH_BYTES, "the memory limit still rules");
    info(&mut s, "max_memory", "0");
    assert_eq!(s.settings().hash_bytes(), 32 * MIB, "below the 64 MiB default table");
    // The size holds through the game: time_left does not change it.
    info(&mut s, "time_left", "100");
    assert_eq!(s.settings().hash_bytes(), 32 * MIB);
}

#[test]
fn small_board_extensions_solve_and_perft() {
    let mut s = started(3);
    let lines = reply(&mut s, Command::Perft(2));
    assert!(matches!(&lines[0], Response::Message(m) if m.starts_with("perft depth 2 time_ms")));
    assert_eq!(lines[1], Response::Nodes(72));
    let solved = reply(&mut s, Command::Solve);
    assert!(matches!(&solved[..], [Response::Message(m)] if m.starts_with("value draw best")));
    let mut big = started(15);
    assert!(matches!(&reply(&mut big, Command::Solve)[..], [Response::Error(_)]));
    assert!(matches!(&reply(&mut big, Command::Perft(5))[..], [Response::Error(_)]));
    // Larger boards count a ply less, so that a PERFT stays about a second.
    let mut large = started(20);
    let refused = reply(&mut large, Command::Perft(4));
    assert_eq!(refused, vec![SessionError::PerftTooDeep { depth: 4, max: 3 }.into()]);
    assert_eq!(reply(&mut large, Command::Perft(3))[1], Response::Nodes(63_520_800));
}

#[test]
fn yxnbest_reports_distinct_best_moves_then_plays_the_first() {
    let mut s = started(15);
    reply(&mut s, Command::Turn(p(7, 7)));
    let before = s.game().unwrap().move_count();
    let lines = reply(&mut s, Command::YxNbest(3));
    let [Response::Info(a), Response::Info(b), Response::Info(c), Response::Move(played)] =
        &lines[..]
    else {
        panic!("{lines:?}")
    };
    let mut roots = Vec::new();
    for (k, progress) in [a, b, c].into_iter().enumerate() {
        let Progress::NBest(line) = progress else { panic!("{progress:?}") };
        assert_eq!((line.index, line.asked), (k + 1, 3), "{progress}");
        let root = line.pv[0];
        assert!(!roots.contains(&root), "{lines:?}");
        roots.push(root);
    }
    assert_eq!(roots[0], *played, "the move played is the first line's");
    let game = s.game().unwrap();
    assert_eq!((game.move_count(), game.last_move()), (before + 1, Some(*played)));

    let mut idle = Session::new();
    assert!(matches!(&reply(&mut idle, Command::YxNbest(2))[..], [Response::Error(_)]));
}

#[test]
fn yxnbest_keeps_a_threat_sequence_win_as_one_of_its_lines() {
    // Black (to move) has an open three h8 i8 j8: a VCF wins before the main search.
    let mut s = started(15);
    let stone = |x, y, field| BoardStone { point: p(x, y), field };
    let (own, opp) = (Field::Own, Field::Opponent);
    let stones = [(7, 7, own), (0, 0, opp), (8, 7, own), (0, 14, opp), (9, 7, own), (14, 0, opp)];
    let stones: Vec<BoardStone> = stones.iter().map(|&(x, y, f)| stone(x, y, f)).collect();
    assert!(reply(&mut s, Command::YxBoard(stones)).is_empty());
    let lines = reply(&mut s, Command::YxNbest(3));
    let texts: Vec<String> = lines
        .iter()
        .filter_map(|r| match r {
            Response::Info(progress) => Some(progress.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(texts.len(), 3, "{lines:?}");
    assert!(texts[0].starts_with("nbest 1/3 depth ") && texts[0].contains(" ev +M"), "{lines:?}");
    assert!(matches!(lines.last(), Some(Response::Move(_))), "{lines:?}");
}

#[test]
fn an_illegal_search_move_is_replaced_by_a_legal_one() {
    let mut s = started(5);
    reply(&mut s, Command::Turn(p(2, 2)));
    let history = s.game().unwrap().history();
    let occupied = history[0];
    let free =
        (0..5).flat_map(|y| (0..5).map(move |x| p(x, y))).find(|q| !history.contains(q)).unwrap();
    let mut outcome = job(s.handle(Command::Turn(free))).run(raised(), &mut |_| {});
    let TaskResult::Search(search) = &mut outcome.result else { panic!("a search") };
    search.best = Some(occupied);
    let lines = s.finish(outcome);
    let Some(Response::Move(played)) = lines.last() else { panic!("{lines:?}") };
    assert_ne!(*played, occupied);
    assert_eq!(s.game().unwrap().last_move(), Some(*played));
}

/// Idle steps until `prepare` has nothing left: how many said more was left.
fn prepare_all(s: &mut Session) -> usize {
    let steps = std::iter::repeat_with(|| s.prepare()).take_while(|&more| more).count();
    assert!(steps < 10_000, "preparing ends");
    steps
}

#[test]
fn idle_time_prepares_the_first_search_table_and_a_search_takes_it() {
    let mut s = Session::new();
    assert!(!s.prepare(), "nothing to prepare before START");
    reply(&mut s, Command::Start { width: 15, height: 15 });
    reply(&mut s, Command::info("rule", "1"));
    reply(&mut s, Command::info("timeout_turn", "200"));
    // The steps that leave more to do: the pattern table's, then the table's (its
    // entries and a spare 64-byte bucket, 2 MiB a step) but the last.
    let touch_steps = |table: usize| (table + 64).div_ceil(TOUCH_STEP_BYTES) - 1;
    let steps = prepare_all(&mut s);
    let table = s.settings().hash_bytes();
    assert_eq!(table, 32 << 20);
    assert_eq!(steps, 1 + touch_steps(table));
    assert_eq!(s.engine.as_ref().map(Engine::hash_bytes), Some(table));
    assert!(!s.prepare(), "done");
    // New settings: a new table, prepared again.
    reply(&mut s, Command::info("timeout_turn", "1000"));
    // (1 s a move asks for 128 MiB; with no max_memory the 64 MiB default caps it.)
    assert_eq!(s.settings().hash_bytes(), DEFAULT_HASH_BYTES);
    assert_eq!(prepare_all(&mut s), touch_steps(DEFAULT_HASH_BYTES));
    // The search takes the prepared table (the same size and game) and keeps it.
    let job = job(s.handle(Command::Turn(p(7, 7))));
    assert_eq!(job.engine.as_ref().map(Engine::hash_bytes), Some(DEFAULT_HASH_BYTES));
    assert!(s.engine.is_none(), "the job has it");
    s.finish(job.run(raised(), &mut |_| {}));
    assert!(!s.prepare(), "a table a search has had is not fresh");
    assert_eq!(s.engine.as_ref().map(Engine::hash_bytes), Some(DEFAULT_HASH_BYTES));
}

#[test]
fn a_move_counts_its_time_from_when_the_command_came_in() {
    let mut s = started(15);
    let came_in = Instant::now() - std::time::Duration::from_millis(20);
    let job = search_job(s.handle_received(Command::Turn(p(7, 7)), came_in));
    let deadline = job.limits.deadline.expect("a time limit");
    // 50 ms a move less the margin (a fifth of a short turn and 4 %), counted from when
    // the command came in.
    assert_eq!(deadline, came_in + std::time::Duration::from_millis(50 - 10 - 2));
    assert_eq!(job.started, came_in);
}

/// `INFO hash_size` (KB) sizes the table, within what `max_memory` allows, and 0 gives the
/// sizing back to the memory limit and the time control.
#[test]
fn hash_size_sets_the_table_within_the_memory_limit() {
    const MIB: usize = 1 << 20;
    let mut s = started(15);
    let default = s.settings().hash_bytes();
    s.handle(Command::info("hash_size", "262144"));
    assert_eq!(s.settings().hash_bytes(), 256 * MIB, "no time-control cap on an asked size");
    s.handle(Command::info("max_memory", "134217728"));
    assert_eq!(s.settings().hash_bytes(), 128 * MIB - MEMORY_RESERVE_BYTES);
    s.handle(Command::info("hash_size", "0"));
    s.handle(Command::info("max_memory", "0"));
    assert_eq!(s.settings().hash_bytes(), default);
    assert!(
        matches!(s.handle(Command::info("hash_size", "-1")), Reaction::Reply(l) if l.is_empty())
    );
    assert_eq!(s.settings().hash_kb, None, "a bad value changes nothing");
}

/// `YXHASHCLEAR` empties the table a search filled; `YXSHOWINFO` says what mnk supports.
#[test]
fn yixin_hash_clear_and_show_info() {
    let mut s = started(15);
    // A small table, so that even a short first search (a loaded machine's) fills the part
    // of it `hashfull` samples.
    s.handle(Command::info("hash_size", "64"));
    reply(&mut s, Command::Turn(p(7, 7)));
    let full = |s: &Session| s.engine.as_ref().map_or(0, Engine::hashfull);
    assert!(full(&s) > 0, "the search stored entries");
    let lines = reply(&mut s, Command::YxHashClear);
    assert!(matches!(&lines[..], [Response::Message(m)] if m.contains("cleared")), "{lines:?}");
    assert_eq!(full(&s), 0);
    let info = reply(&mut s, Command::YxShowInfo);
    let texts: Vec<String> = info.iter().map(ToString::to_string).collect();
    assert!(texts[0].starts_with("MESSAGE name=\"mnk\""), "{texts:?}");
    assert!(texts.contains(&format!("MESSAGE INFO MAX_THREAD_NUM {MAX_THREADS}")), "{texts:?}");
    assert!(texts.contains(&"MESSAGE INFO RULES 0 1 2 4 8 9".to_string()), "{texts:?}");
    let sizes = "MESSAGE INFO BOARD_SIZES 3 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22";
    assert!(texts.contains(&sizes.to_string()), "{texts:?}");
}

/// `YXBLOCK` cells stay out of every answer and line until `YXBLOCKUNDO` or
/// `YXBLOCKRESET` takes them back, across games; an off-board cell changes nothing.
#[test]
fn blocked_cells_stay_out_of_answers_until_taken_back() {
    let mut s = started(15);
    reply(&mut s, Command::Turn(p(7, 7)));
    reply(&mut s, Command::Restart);
    let blocked = vec![p(6, 6), p(7, 6), p(8, 6), p(6, 7), p(8, 7), p(6, 8), p(7, 8), p(8, 8)];
    assert!(reply(&mut s, Command::YxBlock(blocked.clone())).is_empty());
    let lines = reply(&mut s, Command::YxBlock(vec![p(3, 3), p(15, 2)]));
    assert!(
        matches!(&lines[..], [Response::Error(e)] if e.to_string().contains("15,2")),
        "{lines:?}"
    );
    let lines = reply(&mut s, Command::Turn(p(7, 7)));
    let [Response::Move(played)] = lines[..] else { panic!("{lines:?}") };
    assert!(!blocked.contains(&played), "played blocked {played}");
    let lines = reply(&mut s, Command::YxNbest(4));
    for line in &lines {
        if let Response::Info(Progress::NBest(nbest)) = line {
            assert!(!blocked.contains(&nbest.pv[0]), "{line}");
        }
    }
    assert_eq!(s.blocked, blocked, "no 3,3: the refused block added nothing");
    reply(&mut s, Command::YxBlockUndo(vec![p(6, 6), p(8, 8)]));
    assert_eq!(s.blocked, blocked[1..7].to_vec());
    reply(&mut s, Command::YxBlockReset);
    assert_eq!(s.blocked, vec![]);
}

/// With pondering on, each answer leaves the search for the opponent's time: the
/// position after the reply its line expects, else the opponent's; any command takes it
/// away; its end answers nothing and changes no position. Off, or for the classroom
/// player, there is none.
#[test]
fn pondering_follows_an_answer_until_the_next_command() {
    let mut s = started(15);
    reply(&mut s, Command::Turn(p(7, 7)));
    assert!(s.ponder().is_none(), "off by default");
    s.handle(Command::info("pondering", "1"));
    assert!(s.ponder().is_none(), "the INFO line took the chance");
    reply(&mut s, Command::Turn(p(9, 9)));
    let played = s.game().unwrap().move_count();
    let job = s.ponder().expect("a ponder search");
    let Task::Search(search) = &job.task else { panic!("{job:?}") };
    assert_eq!(search.purpose, Purpose::Ponder);
    assert!(search.limits.deadline.is_none() && search.limits.nodes.is_none(), "until stopped");
    assert!([played, played + 1].contains(&search.game.move_count()));
    assert!(s.ponder().is_none(), "one search an answer");
    let outcome = job.run(raised(), &mut |_| {});
    assert!(s.finish(outcome).is_empty(), "a ponder search answers nothing");
    assert_eq!(s.game().unwrap().move_count(), played);
    reply(&mut s, Command::Turn(p(5, 5)));
    s.handle(Command::About);
    assert!(s.ponder().is_none(), "a command ends the time to ponder");

    let mut classroom = Session::with_player(Player::Classroom);
    reply(&mut classroom, Command::Start { width: 15, height: 15 });
    classroom.handle(Command::info("pondering", "1"));
    reply(&mut classroom, Command::Turn(p(7, 7)));
    assert!(classroom.ponder().is_none());
}

/// `YXSEARCHDEFEND` gives every legal move a line, the moves that hold first, and ends
/// with the counts; it needs a 15×15 game that is not over.
#[test]
fn search_defend_lists_every_legal_move_holding_moves_first() {
    let mut s = started(15);
    // White to move against black's open three h8 i8 j8.
    assert!(reply(&mut s, Command::YxBoard(position("h8a1i8a15j8"))).is_empty());
    s.handle(Command::info("timeout_turn", "5000"));
    let lines: Vec<String> =
        reply(&mut s, Command::YxSearchDefend).iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 225 - 5 + 1, "a line per empty cell and the counts");
    let done = lines.last().unwrap();
    let hold: usize = done.split(' ').nth(3).unwrap().parse().unwrap();
    assert!((2..=6).contains(&hold), "{done}");
    assert!(done.ends_with(" 0 unchecked"), "{done}");
    for (k, line) in lines[..hold].iter().enumerate() {
        assert!(line.starts_with(&format!("MESSAGE defend {}/220 ev ", k + 1)), "{line}");
        assert!(!line.contains(" ev -M"), "{line}");
    }
    assert!(lines[hold].contains(" ev -M"), "then the losses: {}", lines[hold]);
    assert_eq!(s.game().unwrap().move_count(), 5, "no move played");

    let mut small = started(5);
    let lines = reply(&mut small, Command::YxSearchDefend);
    assert_eq!(lines, vec![SessionError::NeedsGomokuBoard("YXSEARCHDEFEND").into()]);
}

/// `YXBALANCEONE` places one stone of the side to move, `YXBALANCETWO` that and a reply,
/// each answered with a `balance` line and the stones, which are played; a decided game
/// or no game is refused.
#[test]
fn balance_places_and_plays_one_or_two_stones() {
    let mut s = started(15);
    s.handle(Command::info("timeout_turn", "1000"));
    reply(&mut s, Command::YxBoard(position("h8i9")));
    for stones in [1, 2] {
        let before = s.game().unwrap().move_count();
        let lines = reply(&mut s, Command::YxBalance { stones, target: 0 });
        let [Response::Message(text), Response::Moves(points)] = &lines[..] else {
            panic!("{lines:?}")
        };
        assert!(text.starts_with("balance ev "), "{text}");
        let ev: i32 = text.split(' ').nth(2).unwrap().parse().expect("a plain score");
        assert!(ev.abs() < 300, "near even: {text}");
        assert_eq!(points.len(), stones);
        let game = s.game().unwrap();
        assert_eq!(game.move_count(), before + stones, "the stones are played");
        assert_eq!(game.last_move(), points.last().copied());
    }
    let mut idle = Session::new();
    let lines = reply(&mut idle, Command::YxBalance { stones: 1, target: 0 });
    assert_eq!(lines, vec![SessionError::NoGame.into()]);
}

/// `INFO strength N` reaches the search (and a bad value changes nothing); at level 0 a
/// move is a few hundred nodes, legal, and no blunder of a five.
#[test]
fn strength_sets_the_searches_level() {
    let mut s = started(15);
    s.handle(Command::info("strength", "0"));
    let job = job(s.handle(Command::Turn(p(7, 7))));
    let level = job.engine.as_ref().map(|engine| engine.level().strength);
    assert_eq!(level, Strength::new(0));
    let lines = s.think_inline(job);
    assert!(matches!(lines[..], [Response::Move(_)]), "{lines:?}");
    // Black's open four h8-k8 facing white at level 0: the five is always taken.
    reply(&mut s, Command::YxBoard(position("h8a1i8a3j8a5k8a7")));
    let lines = reply(&mut s, Command::YxNbest(1));
    let Some(Response::Move(played)) = lines.last() else { panic!("{lines:?}") };
    assert!([p(6, 7), p(11, 7)].contains(played), "{played}");
    s.handle(Command::info("strength", "101"));
    assert_eq!(s.settings().strength.level(), 0, "a bad value changes nothing");
}

/// A job that fails inside the engine (a panic, caught by the driver) still answers a move
/// request with a legal move next to the stones, which is played; a ponder search is
/// dropped; any other job is answered `ERROR internal error: …`.
#[test]
fn a_failed_job_still_answers_a_move_request() {
    let mut s = started(20);
    reply(&mut s, Command::Turn(p(10, 10)));
    let stones = s.game().unwrap().history();
    let before = stones.len();
    let lines = s.fail(Some(Purpose::Move), "index out of bounds");
    let [Response::Message(message), Response::Move(point)] = &lines[..] else {
        panic!("{lines:?}")
    };
    assert_eq!(message, "internal error: index out of bounds");
    assert_eq!(s.game().unwrap().move_count(), before + 1, "the move is played");
    let near = |stone: &Point| point.x.abs_diff(stone.x) <= 2 && point.y.abs_diff(stone.y) <= 2;
    assert!(stones.iter().any(near), "next to the stones {stones:?}: {point:?}");
    assert_eq!(s.fail(Some(Purpose::Ponder), "boom"), vec![]);
    let lines = s.fail(None, "boom");
    assert_eq!(lines, vec![SessionError::Internal("boom".into()).into()]);
    assert_eq!(s.game().unwrap().move_count(), before + 1, "nothing else played");
}

/// `YXSHOWFORBID` answers under the rule `INFO rule` asks for now, not the one of the last
/// move (renju's forbidden points once stayed after `INFO rule 0` until the next move).
#[test]
fn showforbid_follows_the_rule_the_settings_ask_for() {
    let mut s = started(15);
    s.handle(Command::info("rule", "4"));
    // Black to move; j8 makes two open threes (h8 i8 and j9 j10).
    reply(&mut s, Command::YxBoard(position("h8,a1,i8,a3,j9,a5,j10,a7")));
    assert_eq!(reply(&mut s, Command::YxShowForbid), vec![Response::Forbid(vec![p(9, 7)])]);
    s.handle(Command::info("rule", "0"));
    assert_eq!(reply(&mut s, Command::YxShowForbid), vec![Response::Forbid(vec![])]);
    s.handle(Command::info("rule", "4"));
    assert_eq!(reply(&mut s, Command::YxShowForbid), vec![Response::Forbid(vec![p(9, 7)])]);
    s.handle(Command::info("rule", "3"));
    let refused = reply(&mut s, Command::YxShowForbid);
    assert_eq!(
        refused,
        vec![SessionError::UnsupportedRule(crate::error::UnsupportedRule(3)).into()]
    );
}
