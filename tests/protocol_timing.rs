//! Time management under a fake manager: no move is ever late, and the clock is spent where
//! it should be. The tests run one at a time (`ONE_AT_A_TIME`), so that their measurements
//! are not disturbed by one another.

mod harness;

use std::time::{Duration, Instant};

use harness::{Engine, parse_move};
use mnk_engine::rng::SplitMix64;

/// A fake manager's opponent: a random empty cell next to the last moves (or anywhere).
fn opponent_move(rng: &mut SplitMix64, occupied: &[(usize, usize)]) -> (usize, usize) {
    loop {
        let (x, y) = match occupied.last() {
            Some(&(lx, ly)) if rng.below(4) != 0 => {
                let dx = rng.below(5) as i64 - 2;
                let dy = rng.below(5) as i64 - 2;
                ((lx as i64 + dx).clamp(0, 14) as usize, (ly as i64 + dy).clamp(0, 14) as usize)
            }
            _ => (rng.below(15), rng.below(15)),
        };
        if !occupied.contains(&(x, y)) {
            return (x, y);
        }
    }
}

/// Plays `moves` engine moves under protocol rule `rule`, restarting games as needed;
/// returns the worst time from command to answer. `clock_ms`: a game clock the manager
/// counts down, sending it as `time_left` before every move if `send_left` (else the engine
/// has only `timeout_match` to go by). The first move is asked for at once after `START` and
/// `INFO`.
fn worst_answer_time(
    rule: u32,
    turn_ms: u64,
    moves: usize,
    clock_ms: Option<u64>,
    send_left: bool,
) -> Duration {
    let mut rng = SplitMix64::new(turn_ms);
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    e.send(&format!("INFO rule {rule}"));
    e.send(&format!("INFO timeout_turn {turn_ms}"));
    e.send("INFO messages 0");
    if let Some(clock) = clock_ms {
        e.send(&format!("INFO timeout_match {clock}"));
    }
    let mut worst = Duration::ZERO;
    let mut occupied: Vec<(usize, usize)> = Vec::new();
    let mut left = clock_ms;
    for _ in 0..moves {
        if occupied.len() > 150 {
            assert_eq!(e.ask("RESTART"), "OK");
            occupied.clear();
            left = clock_ms;
        }
        if let Some(ms) = left
            && send_left
        {
            e.send(&format!("INFO time_left {ms}"));
        }
        let mv = opponent_move(&mut rng, &occupied);
        occupied.push(mv);
        let sent = Instant::now();
        e.send(&format!("TURN {},{}", mv.0, mv.1));
        let answer = e.answer_within(Duration::from_secs(10));
        let took = sent.elapsed();
        if answer.starts_with("ERROR") {
            // The opponent's random move ended the game: start a new one.
            assert_eq!(e.ask("RESTART"), "OK");
            occupied.clear();
            left = clock_ms;
            continue;
        }
        occupied.push(parse_move(&answer));
        worst = worst.max(took);
        if let Some(ms) = left.as_mut() {
            let used = took.as_millis() as u64;
            assert!(used < *ms, "the game clock ran out: {used} ms used with {ms} ms left");
            *ms -= used;
        }
    }
    worst
}

/// The tests here measure wall-clock answers: they run one at a time (on two cores a
/// second engine searching beside one doubles its answer times).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn no_move_is_late_under_a_fake_manager() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let worst = worst_answer_time(0, 100, 200, None, true);
    println!("timeout_turn 100: worst {worst:?}");
    assert!(worst < Duration::from_millis(100), "worst answer {worst:?}");

    // A small game clock: the engine must spread it over the game. A move may take up to
    // three shares of 1/16 of the clock left (562 ms of 3,000), when its best move is
    // unsettled.
    let worst = worst_answer_time(0, 10_000, 60, Some(3_000), true);
    println!("time_left 3000: worst {worst:?}");
    assert!(worst < Duration::from_millis(600), "worst answer {worst:?}");
    // The same clock never sent as time_left: the engine counts its own time down from
    // timeout_match (it used to take the whole turn time, 10 s, and lose on the clock).
    let worst = worst_answer_time(0, 10_000, 60, Some(3_000), false);
    println!("timeout_match 3000 alone: worst {worst:?}");
    assert!(worst < Duration::from_millis(600), "worst answer {worst:?}");

    // timeout_turn 0: answer at once.
    let worst = worst_answer_time(0, 0, 20, None, true);
    println!("timeout_turn 0: worst {worst:?}");
    assert!(worst < Duration::from_millis(50), "worst answer {worst:?}");
}

#[test]
fn the_first_move_under_each_rule_is_on_time() {
    // Each rule's pattern table used to be built at its first move, before the search
    // started its clock: the first standard move at timeout_turn 100 took 115 ms (test
    // build) and a first renju move at timeout_turn 50 121 ms (release). Later the time
    // counted from the command, and now the tables are built into the binary. Standard,
    // renju, caro.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for rule in [1, 4, 8] {
        let worst = worst_answer_time(rule, 100, 6, None, true);
        println!("rule {rule}, timeout_turn 100: worst {worst:?}");
        assert!(worst < Duration::from_millis(100), "rule {rule}: worst answer {worst:?}");
    }
}

/// An opening, black (the engine) to move, nothing threatened: with time on the clock the
/// search aims at the clock's share.
const OPENING: [(usize, usize, u8); 4] = [(7, 7, 1), (8, 8, 1), (8, 7, 2), (6, 8, 2)];

/// The answer to `BOARD` with `stones` (x, y, field) … `DONE`, and the time from `DONE` to it.
fn board_answer(e: &mut Engine, stones: &[(usize, usize, u8)]) -> (String, Duration) {
    e.send("BOARD");
    for (x, y, field) in stones {
        e.send(&format!("{x},{y},{field}"));
    }
    let sent = Instant::now();
    e.send("DONE");
    let answer = e.answer_within(Duration::from_secs(30));
    (answer, sent.elapsed())
}

/// A new engine in a 15×15 game under a game clock of 60 s with 30 s a turn (as Gomocup's
/// 180 s and 30 s, scaled down), `left_ms` of it left.
fn clock_engine(left_ms: u64) -> Engine {
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    for info in ["timeout_turn 30000", "timeout_match 60000", "messages 0"] {
        e.send(&format!("INFO {info}"));
    }
    e.send(&format!("INFO time_left {left_ms}"));
    e
}

/// [`board_answer`] in a new engine with the whole game clock left.
fn clock_answer(stones: &[(usize, usize, u8)]) -> (String, Duration) {
    board_answer(&mut clock_engine(60_000), stones)
}

#[test]
fn a_game_clock_is_saved_on_a_forced_block_and_spent_on_open_play() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // The clock's share for one move is 60 s / 16 = 3.75 s, less the margin.
    // Black (the engine, 1) h8 i8 j8 b5; white (2) a1 a2 a3 a4: a5 is the only move.
    let forced = [(7, 7, 1), (8, 7, 1), (9, 7, 1), (1, 4, 1), (0, 0, 2), (0, 1, 2), (0, 2, 2)];
    let (answer, took) = clock_answer(&[&forced[..], &[(0, 3, 2)]].concat());
    println!("forced block: {answer} in {took:?}");
    assert_eq!(answer, "0,4");
    assert!(took < Duration::from_millis(1_000), "a forced block took {took:?}");
    // An opening: the search aims at the share.
    let (answer, took) = clock_answer(&OPENING);
    println!("open play: {answer} in {took:?}");
    assert!(took > Duration::from_millis(1_500), "an open position took only {took:?}");
}

#[test]
fn a_new_game_starts_with_a_full_clock() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // The opening's search aims at the share (60 s / 16, less the margin), as in the test
    // above, when the clock has time.
    let mut e = clock_engine(100);
    let (_, took) = board_answer(&mut e, &OPENING);
    println!("100 ms left: {took:?}");
    assert!(took < Duration::from_millis(1_000), "with 100 ms left a move took {took:?}");
    // A new game with no time_left yet: its clock is timeout_match, not the 100 ms left.
    for new_game in ["RESTART", "START 15"] {
        assert_eq!(e.ask(new_game), "OK");
        let (_, took) = board_answer(&mut e, &OPENING);
        println!("after {new_game}: {took:?}");
        assert!(took > Duration::from_millis(1_500), "after {new_game} a move took only {took:?}");
        e.send("INFO time_left 100");
    }
}
