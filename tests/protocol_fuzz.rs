//! Seeded fuzz-style tests: many thousands of random and mutated lines through the protocol
//! layers in process, and a few thousand through the real binary. No panic, no hang, every
//! answer well-formed.

mod harness;

use std::time::Duration;

use harness::{Engine, well_formed};
use mnk_engine::limits::StopFlag;
use mnk_engine::rng::SplitMix64;
use mnk_protocol::command::Command;
use mnk_protocol::framing::Framer;
use mnk_protocol::session::{Reaction, Session};

/// Valid commands to mutate. No INFO that could make a search long, no END.
const CORPUS: &[&str] = &[
    "START 15",
    "START 5",
    "START 3",
    "start 15 15",
    "RECTSTART 15,15",
    "RESTART",
    "BEGIN",
    "TURN 7,7",
    "TURN 0,0",
    "TURN 2,2",
    "TURN 14,14",
    "TURN 4,1",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "DONE",
    "1,1,1",
    "2,2,2",
    "3,3,1",
    "7,7",
    "8,7",
    "7,9",
    "0,0,3",
    "TAKEBACK 7,7",
    "PLAY 3,3",
    "ABOUT",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXNBEST 2",
    "YXNBEST 40",
    "INFO rule 1",
    "INFO rule 0",
    "INFO rule 4",
    "INFO game_type 1",
    "INFO folder /tmp",
    "INFO thread_num 2",
    "INFO evaluate 3,3",
    "INFO messages 0",
    "INFO messages 1",
    "PERFT 1",
    "PERFT 2",
    "SHOW",
    "EVAL",
    "SOLVE",
    "",
    "   ",
    "\r",
];

fn mutate(rng: &mut SplitMix64, line: &str) -> String {
    let mut bytes = line.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(7) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = rng.next_u64() as u8;
            }
            1 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes.truncate(i);
            }
            2 => {
                let i = rng.below(bytes.len() + 1);
                bytes.insert(i, b" ,0123456789-xX\t"[rng.below(16)]);
            }
            3 => bytes = bytes.to_ascii_lowercase(),
            4 => {
                let extra: Vec<u8> = (0..rng.below(8)).map(|_| rng.next_u64() as u8).collect();
                bytes.extend(extra);
            }
            5 => {
                let digits = format!("{}", rng.next_u64() % 100_000);
                bytes.extend_from_slice(format!(" {digits},{digits}").as_bytes());
            }
            _ => {}
        }
    }
    // The line reader splits on newlines; keep one line per string.
    bytes.retain(|&b| b != b'\n');
    String::from_utf8_lossy(&bytes).into_owned()
}

fn random_line(rng: &mut SplitMix64) -> String {
    let line = match rng.below(10) {
        0..=5 => {
            let base = CORPUS[rng.below(CORPUS.len())];
            mutate(rng, base)
        }
        6..=8 => CORPUS[rng.below(CORPUS.len())].to_string(),
        _ => {
            let len = rng.below(40);
            let bytes: Vec<u8> =
                (0..len).map(|_| rng.next_u64() as u8).filter(|&b| b != b'\n').collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    if line.trim().to_ascii_uppercase().starts_with("END") { "ABOUT".to_string() } else { line }
}

#[test]
fn thousands_of_random_lines_through_the_session_never_panic() {
    let mut rng = SplitMix64::new(0xF022);
    let mut framer = Framer::new();
    let mut session = Session::new();
    let stopped = StopFlag::new();
    stopped.raise();
    let mut answers = 0;
    for _ in 0..30_000 {
        let line = random_line(&mut rng);
        let Some(frame) = framer.push(&line) else { continue };
        let lines = match session.handle(Command::parse(&frame)) {
            Reaction::Reply(lines) => lines,
            // A stopped search returns at once with its fallback move.
            Reaction::Think(job) => {
                let outcome = job.run(stopped.clone(), &mut |_| {});
                session.finish(outcome)
            }
            Reaction::Quit => panic!("END was filtered out"),
        };
        for response in lines {
            let text = response.to_string();
            assert!(well_formed(&text), "{line:?} -> {text:?}");
            answers += 1;
        }
    }
    assert!(answers > 5_000, "{answers}");
}

#[test]
fn thousands_of_random_lines_through_the_binary_never_crash_or_hang() {
    let mut rng = SplitMix64::new(0xB1A5);
    let mut e = Engine::start();
    e.send("INFO timeout_turn 5");
    let mut lines_seen = 0;
    for batch in 0..60 {
        for _ in 0..50 {
            e.send(&random_line(&mut rng));
        }
        // Close any open block, then wait for ABOUT's answer: everything before it is done.
        e.send("DONE");
        e.send("ABOUT");
        loop {
            let line = e
                .line_within(Duration::from_secs(30))
                .unwrap_or_else(|| panic!("no answer in batch {batch}: the engine hangs or died"));
            assert!(well_formed(&line), "batch {batch}: {line:?}");
            lines_seen += 1;
            if line.starts_with("name=\"mnk\"") {
                break;
            }
        }
    }
    e.send("END");
    let (status, _) = e.wait_exit(Duration::from_secs(10));
    assert!(status.success(), "exit status {status:?}");
    assert!(lines_seen > 1_000, "{lines_seen}");
}
