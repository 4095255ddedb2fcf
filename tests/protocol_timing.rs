//! Time management under a fake manager: no move is ever late, and the clock is spent where
//! it should be.
//!
//! Each answer is timed twice: by the engine's own clock (the `tm` of the `MESSAGE answer`
//! line before it, milliseconds from the command coming in to the answer), which the
//! bounds of the time control apply to exactly, and by the wall clock here, which a loaded
//! machine can stretch and which is held only to a bound `NOISE` above them. The tests run
//! one at a time (`ONE_AT_A_TIME`), so that their measurements do not disturb each other.

mod harness;

use std::time::{Duration, Instant};

use harness::{Engine, parse_move};
use mnk_engine::notation::Point;
use mnk_engine::rng::SplitMix64;

/// How much later than the engine's own bound an answer may arrive here: the time for the
/// line to travel the pipe and for this process to be scheduled, on a busy machine.
const NOISE: Duration = Duration::from_secs(2);

/// An answer and its two times: the engine's own and the wall clock's.
struct Timed {
    answer: String,
    engine_ms: u64,
    wall: Duration,
}

/// Sends `line` (the last line of a request) and reads the answer with its `MESSAGE answer`
/// line.
fn timed_answer(e: &mut Engine, line: &str) -> Timed {
    let sent = Instant::now();
    e.send(line);
    let mut engine_ms = None;
    loop {
        let line = e.line_within(Duration::from_secs(60)).expect("an answer within a minute");
        if let Some(summary) = line.strip_prefix("MESSAGE answer ") {
            let tm = summary.split_once(" tm ").map(|(_, tm)| tm.parse::<u64>());
            engine_ms = Some(tm.and_then(Result::ok).expect("tm in the answer line"));
        } else if !line.starts_with("MESSAGE ") {
            let engine_ms = match engine_ms {
                Some(ms) => ms,
                // (An error has no search behind it.)
                None if line.starts_with("ERROR") => 0,
                None => panic!("no MESSAGE answer line before {line:?}"),
            };
            return Timed { answer: line, engine_ms, wall: sent.elapsed() };
        }
    }
}

/// A fake manager's opponent: a random empty cell next to the last moves (or anywhere).
fn opponent_move(rng: &mut SplitMix64, occupied: &[Point]) -> Point {
    loop {
        let (x, y) = match occupied.last() {
            Some(last) if rng.below(4) != 0 => {
                let dx = rng.below(5) as i64 - 2;
                let dy = rng.below(5) as i64 - 2;
                let near = |c: usize, d: i64| (c as i64 + d).clamp(0, 14) as usize;
                (near(last.x, dx), near(last.y, dy))
            }
            _ => (rng.below(15), rng.below(15)),
        };
        let point = Point::new(x, y);
        if !occupied.contains(&point) {
            return point;
        }
    }
}

/// A new engine in a 15×15 game with progress lines off (the answer line stays on).
fn engine(rule: u32, infos: &[String]) -> Engine {
    let mut e = Engine::start();
    assert_eq!(e.ask("START 15"), "OK");
    e.send(&format!("INFO rule {rule}"));
    for info in infos {
        e.send(&format!("INFO {info}"));
    }
    e
}

/// The worst answer times of a game under a fake manager.
#[derive(Debug, Default)]
struct Worst {
    engine_ms: u64,
    wall: Duration,
}

/// Plays `moves` engine moves under protocol rule `rule`, restarting games as needed, and
/// returns the worst answer times. `clock_ms`: a game clock the manager counts down by the
/// engine's own times, sending it as `time_left` before every move if `send_left` (else the
/// engine has only `timeout_match` to go by). The first move is asked for at once after
/// `START` and `INFO`.
fn worst_answer_time(
    rule: u32,
    turn_ms: u64,
    moves: usize,
    clock_ms: Option<u64>,
    send_left: bool,
) -> Worst {
    let mut rng = SplitMix64::new(turn_ms);
    let mut infos = vec![format!("timeout_turn {turn_ms}")];
    infos.extend(clock_ms.map(|ms| format!("timeout_match {ms}")));
    let mut e = engine(rule, &infos);
    let mut worst = Worst::default();
    let mut occupied: Vec<Point> = Vec::new();
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
        let timed = timed_answer(&mut e, &format!("TURN {mv}"));
        if timed.answer.starts_with("ERROR") {
            // The opponent's random move ended the game: start a new one.
            assert_eq!(e.ask("RESTART"), "OK");
            occupied.clear();
            left = clock_ms;
            continue;
        }
        occupied.push(parse_move(&timed.answer));
        worst.engine_ms = worst.engine_ms.max(timed.engine_ms);
        worst.wall = worst.wall.max(timed.wall);
        if let Some(ms) = left.as_mut() {
            let used = timed.engine_ms;
            assert!(used < *ms, "the game clock ran out: {used} ms used with {ms} ms left");
            *ms -= used;
        }
    }
    worst
}

/// Asserts that the worst answer stayed within `bound_ms` by the engine's clock, and within
/// it and [`NOISE`] by the wall clock.
fn assert_within(worst: &Worst, bound_ms: u64, what: &str) {
    println!("{what}: worst {worst:?}");
    assert!(worst.engine_ms < bound_ms, "{what}: the engine took {} ms", worst.engine_ms);
    let wall_bound = Duration::from_millis(bound_ms) + NOISE;
    assert!(worst.wall < wall_bound, "{what}: an answer came after {:?}", worst.wall);
}

/// The tests here measure answer times: they run one at a time (on two cores a second
/// engine searching beside one doubles its answer times).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn no_move_is_late_with_a_turn_time() {
    let _alone = alone();
    assert_within(&worst_answer_time(0, 100, 50, None, true), 100, "timeout_turn 100");
}

/// A short turn is used, not given away to a fixed margin: at 30 ms some move thinks for
/// over half of it (with a 25 ms margin none could think 5 ms), and none is late.
#[test]
fn a_short_turn_is_used_and_never_late() {
    let _alone = alone();
    let worst = worst_answer_time(0, 30, 40, None, true);
    assert_within(&worst, 30, "timeout_turn 30");
    assert!(worst.engine_ms >= 15, "the longest move thought {} ms of 30", worst.engine_ms);
}

#[test]
fn a_turn_time_of_zero_is_answered_at_once() {
    let _alone = alone();
    assert_within(&worst_answer_time(0, 0, 20, None, true), 50, "timeout_turn 0");
}

/// A small game clock: the engine must spread it over the game. A move may take up to three
/// shares of 1/16 of the clock left (562 ms of 3,000), when its best move is unsettled.
#[test]
fn a_small_game_clock_is_spread_over_the_game() {
    let _alone = alone();
    let worst = worst_answer_time(0, 10_000, 40, Some(3_000), true);
    assert_within(&worst, 600, "time_left 3000");
}

/// The same clock never sent as `time_left`: the engine counts its own time down from
/// `timeout_match` (it must not take the whole turn time, 10 s, and lose on the clock).
#[test]
fn a_game_clock_never_sent_is_counted_down_by_the_engine() {
    let _alone = alone();
    let worst = worst_answer_time(0, 10_000, 40, Some(3_000), false);
    assert_within(&worst, 600, "timeout_match 3000 alone");
}

/// The pattern tables are built into the binary, so no rule's first move pays for them.
/// Standard, renju, caro.
#[test]
fn the_first_move_under_each_rule_is_on_time() {
    let _alone = alone();
    for rule in [1, 4, 8] {
        let worst = worst_answer_time(rule, 100, 6, None, true);
        assert_within(&worst, 100, &format!("rule {rule}, timeout_turn 100"));
    }
}

/// An opening, black (the engine) to move, nothing threatened: with time on the clock the
/// search aims at the clock's share.
const OPENING: [(usize, usize, u8); 4] = [(7, 7, 1), (8, 8, 1), (8, 7, 2), (6, 8, 2)];

/// The game clock of [`clock_engine`]: its share for one move is 1/16 of it, 1 s.
const CLOCK_MS: u64 = 16_000;

/// The answer to `BOARD` with `stones` (x, y, field) … `DONE`.
fn board_answer(e: &mut Engine, stones: &[(usize, usize, u8)]) -> Timed {
    e.send("BOARD");
    for (x, y, field) in stones {
        e.send(&format!("{x},{y},{field}"));
    }
    timed_answer(e, "DONE")
}

/// A new engine in a 15×15 game under a game clock of [`CLOCK_MS`] with 30 s a turn (as
/// Gomocup's 180 s and 30 s, scaled down), `left_ms` of it left.
fn clock_engine(left_ms: u64) -> Engine {
    let infos = ["timeout_turn 30000", &format!("timeout_match {CLOCK_MS}")];
    let mut e = engine(0, &infos.map(str::to_string));
    e.send(&format!("INFO time_left {left_ms}"));
    e
}

#[test]
fn a_game_clock_is_saved_on_a_forced_block_and_spent_on_open_play() {
    let _alone = alone();
    // Black (the engine, 1) h8 i8 j8 b5; white (2) a1 a2 a3 a4: a5 is the only move.
    let forced = [(7, 7, 1), (8, 7, 1), (9, 7, 1), (1, 4, 1), (0, 0, 2), (0, 1, 2), (0, 2, 2)];
    let timed = board_answer(&mut clock_engine(CLOCK_MS), &[&forced[..], &[(0, 3, 2)]].concat());
    println!("forced block: {} in {} ms", timed.answer, timed.engine_ms);
    assert_eq!(timed.answer, "0,4");
    assert!(timed.engine_ms < 250, "a forced block took {} ms", timed.engine_ms);
    // An opening: the search aims at the share (1 s less the margin).
    let timed = board_answer(&mut clock_engine(CLOCK_MS), &OPENING);
    println!("open play: {} in {} ms", timed.answer, timed.engine_ms);
    assert!(timed.engine_ms > 400, "an open position took only {} ms", timed.engine_ms);
}

#[test]
fn a_new_game_starts_with_a_full_clock() {
    let _alone = alone();
    // With 100 ms left on the clock, the opening is answered within it.
    let mut e = clock_engine(100);
    let timed = board_answer(&mut e, &OPENING);
    println!("100 ms left: {} ms", timed.engine_ms);
    assert!(timed.engine_ms < 100, "with 100 ms left a move took {} ms", timed.engine_ms);
    // A new game with no time_left yet: its clock is timeout_match, not the 100 ms left, and
    // the opening's search aims at its share, as in the test above.
    for new_game in ["RESTART", "START 15"] {
        assert_eq!(e.ask(new_game), "OK");
        let timed = board_answer(&mut e, &OPENING);
        println!("after {new_game}: {} ms", timed.engine_ms);
        assert!(timed.engine_ms > 400, "after {new_game} a move took only {} ms", timed.engine_ms);
        e.send("INFO time_left 100");
    }
}
