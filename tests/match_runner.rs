//! `pbrain-mnk match` end to end: copies of mnk on every size, and deliberately broken
//! engines (illegal moves, refusals, timeouts, crashes) scored as losses with the right
//! reason while the run goes on, stray output ignored.

use std::path::{Path, PathBuf};
mod scratch;

use std::process::{Command, Output};

use scratch::scratch;

const MNK: &str = env!("CARGO_BIN_EXE_pbrain-mnk");

fn run_match(args: &[&str]) -> Output {
    Command::new(MNK).arg("match").args(args).output().expect("the binary runs")
}

/// `pbrain-mnk match --engine1 ENGINE1 --engine2 ENGINE2` with `options`: words, split at
/// white space, each an argument (paths and commands go in `whole`, taken as they are).
fn play(engine1: &str, engine2: &str, options: &str, whole: &[&str]) -> Output {
    let options: Vec<&str> = options.split_whitespace().collect();
    run_match(&[&["--engine1", engine1, "--engine2", engine2], &options[..], whole].concat())
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Writes `script` to `path`, executable; returns the path.
fn executable(path: &Path, script: &str) -> PathBuf {
    std::fs::write(path, script).unwrap();
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(path, perms).unwrap();
    path.to_path_buf()
}

/// A pbrain engine in bash that plays `move_script` (a shell snippet run at each move
/// request: `BEGIN`, `TURN` or the end of a `BOARD` block, `n` counting them), writes every
/// `INFO` line it gets to `NAME.info` in `dir`, and otherwise follows the protocol.
fn broken_engine(dir: &Path, name: &str, move_script: &str) -> PathBuf {
    let path = dir.join(name);
    let log = dir.join(format!("{name}.info"));
    let script = format!(
        r#"#!/usr/bin/env bash
n=0
while IFS= read -r line; do
  line="${{line%$'\r'}}"
  case "$line" in
    ABOUT) echo 'name="{name}", version="1"' ;;
    START*) echo OK ;;
    INFO*) echo "$line" >> '{log}' ;;
    END) exit 0 ;;
    BEGIN|TURN*|DONE) n=$((n+1)); {move_script} ;;
  esac
done
"#,
        log = log.display()
    );
    executable(&path, &script)
}

#[test]
fn tic_tac_toe_self_play_is_all_draws() {
    let out = play(MNK, MNK, "--size 3 --games 6 --time-move 50", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("W-D-L 0-6-0"), "{}", stdout(&out));
    assert_eq!(stderr(&out).matches("full board").count(), 6);
    // A test of a gain over draws only leans towards "no gain" (the tally once recursed
    // until the stack overflowed after a drawn game).
    let out = play(MNK, MNK, "--size 3 --games 2 --time-move 30 --sprt 0 10", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let sprt = stdout(&out).lines().find(|l| l.starts_with("sprt llr -")).map(str::to_string);
    assert!(sprt.is_some_and(|l| l.ends_with("continue")), "{}", stdout(&out));
}

#[test]
fn five_by_five_and_gomoku_self_play_finish_and_save_games() {
    let dir = scratch("save");
    let sgf = dir.join("games.sgf");
    let out = play(MNK, MNK, "--size 5 --games 4 --time-move 30 --concurrency 2", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("games 4\n"), "{}", stdout(&out));
    let out = play(
        MNK,
        MNK,
        "--size 15 --rule renju --games 2 --time-move 50",
        &["--sgf", sgf.to_str().unwrap(), "--psq", dir.join("psq").to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("games 2\n"), "{}", stdout(&out));
    let saved = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(saved.matches("(;GM[4]FF[4]SZ[15]").count(), 2);
    assert!(dir.join("psq").join("game-0002.psq").exists());
    assert!(!stderr(&out).contains("appending"), "{}", stderr(&out));
    // A second match adds its games to the file, and says so.
    let out =
        play(MNK, MNK, "--size 15 --games 2 --time-move 30", &["--sgf", sgf.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("appending the games to"), "{}", stderr(&out));
    let saved = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(saved.matches("(;GM[4]FF[4]SZ[15]").count(), 4);
}

/// Self-play on a smaller square board, a rectangle and 20×20, each game played to its end
/// and saved: SGF with the board's size (`SZ[11]`, `SZ[12:7]`, `SZ[20]`), PSQ with `W x H`
/// and every move on the board.
#[test]
fn other_sizes_self_play_and_save_games() {
    for (size, sz, width, height) in
        [("11", "SZ[11]", 11, 11), ("12x7", "SZ[12:7]", 12, 7), ("20", "SZ[20]", 20, 20)]
    {
        let dir = scratch(&format!("save-{size}"));
        let sgf = dir.join("games.sgf");
        let psq = dir.join("psq");
        let rule = if size == "11" { "freestyle" } else { "renju" };
        let (sgf_path, psq_path) = (sgf.to_str().unwrap(), psq.to_str().unwrap());
        let options = "--games 2 --time-move 40 --concurrency 2";
        let whole = ["--size", size, "--rule", rule, "--sgf", sgf_path, "--psq", psq_path];
        let out = play(MNK, MNK, options, &whole);
        assert!(out.status.success(), "{size}: {}", stderr(&out));
        let summary = stdout(&out);
        assert!(summary.starts_with("games 2\n"), "{size}: {summary}");
        assert!(summary.contains("forfeits engine1 none\nforfeits engine2 none\n"), "{summary}");
        let saved = std::fs::read_to_string(&sgf).unwrap();
        assert_eq!(saved.matches(sz).count(), 2, "{saved}");
        let game = std::fs::read_to_string(psq.join("game-0001.psq")).unwrap();
        assert!(game.starts_with(&format!("Piskvorky {width}x{height},")), "{game}");
        for line in game.lines().skip(1).filter(|l| l.matches(',').count() == 2) {
            let v: Vec<usize> = line.split(',').map(|f| f.parse().unwrap()).collect();
            assert!((1..=width).contains(&v[0]) && (1..=height).contains(&v[1]), "{line}");
        }
    }
}

#[test]
fn broken_engines_lose_with_the_right_reason_and_the_run_continues() {
    let dir = scratch("broken");
    // (Its moves `0,n` are legal unless mnk took the cell.)
    let cases = [
        ("illegal", "echo 7,7", "illegal move 7,7"),
        ("offboard", "echo 99,99", "illegal move 99,99"),
        ("negative", "echo -1,3", "illegal move -1,3: off the board"),
        ("refusing", "echo 'ERROR no thanks'", "refused: answered \"ERROR no thanks\""),
        ("slow", "sleep 3; echo 0,$n", "timeout"),
        ("crasher", "exit 3", "(crash: "),
        // Lines that are neither a move nor a known reply are ignored: this one never moves.
        ("garbage", "echo 'hello there'", "timeout"),
        // PentaZen's progress line split by a raw byte, then a move: the game goes on. Its
        // moves are two cells apart along the top edge (0,0 2,0 … 12,0 0,2 …), so they never
        // threaten anything mnk must block, and mnk wins by five.
        (
            "noisy",
            "printf -- '-\\x10 ev -40 nd 33k\\n'; echo $((2*((n-1)%7))),$((2*((n-1)/7)))",
            "(five)",
        ),
    ];
    for (name, script, reason) in cases {
        let engine = broken_engine(&dir, name, script);
        // (The noisy engine's games are played out: on a busy machine mnk's own
        // answers must not count as late.)
        let out = play(
            MNK,
            engine.to_str().unwrap(),
            "--size 15 --games 2 --time-move 100",
            &["--tolerance", if name == "noisy" { "5000" } else { "300" }],
        );
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains("W-D-L 2-0-0"), "{name}: {}\n{}", stdout(&out), stderr(&out));
        assert_eq!(stderr(&out).matches(reason).count(), 2, "{name}: {}", stderr(&out));
        // The summary counts the forfeits by kind, and names the engines by ABOUT.
        let kind = match name {
            "illegal" | "offboard" | "negative" => Some("illegal 2"),
            "refusing" => Some("refused 2"),
            "slow" | "garbage" => Some("timeout 2"),
            "crasher" => Some("crash 2"),
            _ => None,
        };
        let summary = stdout(&out);
        if let Some(kind) = kind {
            assert!(summary.contains(&format!("forfeits engine2 {kind}\n")), "{name}: {summary}");
        }
        assert!(summary.contains(&format!("engine2 {name}\n")), "{summary}");
        assert!(summary.contains("los 0.9"), "{summary}");
    }
}

/// The report: names given or numbered, LOS, draw ratio, pentanomial pairs, SGF with the
/// rule, date, event, names and move times.
#[test]
fn the_report_names_the_engines_and_counts_pairs_and_the_sgf_says_when_and_what() {
    let dir = scratch("report");
    let sgf = dir.join("games.sgf");
    let out = play(
        MNK,
        &format!("{MNK} classroom"),
        "--size 9 --games 4 --time-move 50 --name1 mnk-dev",
        &["--event", "report test", "--sgf", sgf.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = stdout(&out);
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(&lines[..3], &["games 4", "engine1 mnk-dev", "engine2 mnk-classroom"]);
    for key in ["W-D-L ", "score ", "elo ", "los ", "draw_ratio ", "pentanomial "] {
        assert!(lines.iter().any(|l| l.starts_with(key)), "{key}: {summary}");
    }
    let pentanomial = lines.iter().find(|l| l.starts_with("pentanomial ")).unwrap();
    let pairs: u32 =
        pentanomial.split_whitespace().skip(1).map(|n| n.parse::<u32>().unwrap()).sum();
    assert_eq!(pairs, 2, "{summary}");
    // The interval, over the two pairs, holds the estimate; a side the pairs leave open
    // prints as inf (never a clamped number).
    let elo = lines.iter().find(|l| l.starts_with("elo ")).unwrap();
    let numbers: Vec<f64> =
        elo.split([' ', '[', ']', ',']).filter_map(|w| w.parse().ok()).collect();
    let [estimate, low, high] = numbers[..] else { panic!("{elo}") };
    assert!(low <= estimate && estimate <= high, "{elo}");
    assert!(stderr(&out).contains("| eta "), "{}", stderr(&out));
    let saved = std::fs::read_to_string(&sgf).unwrap();
    let first = saved.lines().next().unwrap();
    assert!(first.contains("RU[freestyle]PB[mnk-dev]PW[mnk-classroom]"), "{first}");
    assert!(first.contains("EV[report test]") && first.contains("DT[20"), "{first}");
    assert!(first.contains(" ms]"), "move times: {first}");

    // Self-play: the same ABOUT name twice is numbered.
    let out = play(MNK, MNK, "--size 7 --games 2 --time-move 20", &[]);
    assert!(stdout(&out).contains("engine1 mnk (1)\nengine2 mnk (2)\n"), "{}", stdout(&out));
}

/// Ctrl-C (SIGINT) ends a match with the summary of its finished games and exit code 130.
#[test]
fn an_interrupted_match_still_prints_its_summary() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(MNK)
        .args(["match", "--engine1", MNK, "--engine2", &format!("{MNK} classroom")])
        .args(["--size", "9", "--games", "200", "--time-move", "30"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Wait for the first finished game.
    let mut progress = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    progress.read_line(&mut line).unwrap();
    assert!(line.starts_with("game "), "{line}");
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let summary = stdout(&out);
    assert!(summary.starts_with("games "), "{summary}");
    assert!(summary.contains("\nW-D-L "), "{summary}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut progress, &mut rest).unwrap();
    assert!(rest.contains("interrupted after "), "{rest}");
}

/// A pbrain engine that records its `INFO` lines (see [`broken_engine`]) and answers each
/// position with an off-board move, so that each game ends at once.
fn recording_engine(dir: &Path, name: &str) -> PathBuf {
    broken_engine(dir, name, "echo 99,99")
}

#[test]
fn each_engine_gets_its_own_info_settings_after_the_match_settings() {
    let dir = scratch("info");
    let [one, two] = ["one", "two"].map(|name| recording_engine(&dir, name));
    let out = play(
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--info1 max_depth=3 --info2 thread_num=2,timeout_turn=500 --games 2 --time-move 100",
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join(format!("{name}.info"))).unwrap();
        text.lines().map(str::to_string).collect()
    };
    let (one, two) = (lines("one"), lines("two"));
    // Two games, each with the match's five settings and then the engine's own.
    let shared = ["timeout_turn 100", "timeout_match 0", "max_memory 367001600", "game_type 1"];
    for line in shared {
        assert_eq!(one.iter().filter(|l| **l == format!("INFO {line}")).count(), 2, "{one:?}");
    }
    assert_eq!(one.iter().filter(|l| *l == "INFO max_depth 3").count(), 2, "{one:?}");
    assert!(!one.iter().any(|l| l.contains("thread_num")), "{one:?}");
    assert!(!two.iter().any(|l| l.contains("max_depth")), "{two:?}");
    let turn_lines: Vec<&String> = two.iter().filter(|l| l.contains("timeout_turn")).collect();
    assert_eq!(
        turn_lines,
        ["INFO timeout_turn 100", "INFO timeout_turn 500"].repeat(2).iter().collect::<Vec<_>>(),
        "the engine's own value comes last and wins: {two:?}"
    );
    assert_eq!(two.iter().filter(|l| *l == "INFO thread_num 2").count(), 2, "{two:?}");
}

/// An engine command is a command line: a path with a space, whole or quoted, and
/// arguments (the engine commands once split at every space).
#[test]
fn engine_commands_may_hold_spaces_and_arguments() {
    let dir = scratch("spaces");
    let folder = dir.join("my engines");
    std::fs::create_dir_all(&folder).unwrap();
    let (first, second) = (row_engine(&folder, "first", 0), row_engine(&folder, "second", 14));
    let quoted = format!("'{}' --config x", second.display());
    let out = play(first.to_str().unwrap(), &quoted, "--games 2 --opening-stones 0", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("W-D-L 1-0-1"), "{}", stdout(&out));
    assert_eq!(stderr(&out).matches("first (black) vs second (white)").count(), 1);
    let unclosed = play("e 'x", MNK, "", &[]);
    assert_eq!(unclosed.status.code(), Some(2));
    assert!(stderr(&unclosed).contains("an unclosed '"), "{}", stderr(&unclosed));
}

/// A pbrain engine that records its `INFO` lines (see [`broken_engine`]) and plays along
/// `row` from its left end.
fn row_engine(dir: &Path, name: &str, row: usize) -> PathBuf {
    broken_engine(dir, name, &format!("echo \"$((n-1)),{row}\""))
}

/// `--increment` is sent as `INFO time_increment` and added to the clock after each move,
/// so each `time_left` is up by about the increment; the summary says how much of its
/// clock each engine used.
#[test]
fn the_increment_is_sent_and_added_to_the_clock_after_each_move() {
    let dir = scratch("increment");
    let (first, second) = (row_engine(&dir, "first", 0), row_engine(&dir, "second", 14));
    let out = play(
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        "--games 1 --time-game 10000 --increment 500 --opening-stones 0",
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = stdout(&out);
    assert!(summary.contains("W-D-L 1-0-0"), "five in row 0 wins: {summary}");
    assert!(summary.contains("\nclock used engine1 "), "{summary}");
    let info = std::fs::read_to_string(dir.join("first.info")).unwrap();
    assert!(info.lines().any(|l| l == "INFO time_increment 500"), "{info}");
    let lefts: Vec<i64> = info
        .lines()
        .filter_map(|l| l.strip_prefix("INFO time_left "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(lefts.len(), 5, "one before each of its five moves: {info}");
    for pair in lefts.windows(2) {
        let gained = pair[1] - pair[0];
        assert!((400..=500).contains(&gained), "{lefts:?}");
    }
    let out = play(MNK, MNK, "--increment 100", &[]);
    assert_eq!(out.status.code(), Some(2), "an increment needs a game clock");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_a_message() {
    let out = play(MNK, "/nonexistent/engine", "--games 2", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "", "no summary of no games");
    assert!(stderr(&out).contains("engine failed to start"), "{}", stderr(&out));

    // One that starts and exits at once, or refuses the board, plays no game either (it once
    // lost every game: a 2-0 "win" with exit code 0).
    let dir = scratch("setup");
    let quitter = executable(&dir.join("quitter"), "#!/bin/sh\nexit 0\n");
    let refuser = broken_engine(&dir, "refuser", "echo 7,7");
    let refuser = executable(
        &dir.join("refuser-board"),
        &std::fs::read_to_string(&refuser)
            .unwrap()
            .replace("START*) echo OK", "START*) echo ERROR no"),
    );
    for (engine, why) in
        [(&quitter, "quitter: start-up: "), (&refuser, "refuser-board: START answered")]
    {
        let out = play(MNK, engine.to_str().unwrap(), "--games 2", &[]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(stdout(&out), "", "no summary of no games");
        assert!(
            stderr(&out).contains(&format!("engine failed to start: {why}")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn bad_match_options_exit_with_code_2() {
    for args in [
        &["--engine1", MNK][..],
        &["--engine1", MNK, "--engine2", MNK, "--size", "4"],
        &["--engine1", MNK, "--engine2", MNK, "--sprt", "5"],
        &["--engine1", MNK, "--engine2", MNK, "--games", "0"],
        &["--engine1", MNK, "--engine2", MNK, "--openings", "/nonexistent"],
        &["--engine1", MNK, "--engine2", MNK, "--info1", "thread_num"],
        &["--engine1", MNK, "--engine2", MNK, "--info2", "thread num=2"],
    ] {
        let out = run_match(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn sprt_stops_once_it_decides() {
    let dir = scratch("sprt");
    let loser = broken_engine(&dir, "loser", "echo 7,7");
    let out = play(MNK, loser.to_str().unwrap(), "--games 200 --time-move 50 --sprt 0 50", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("H1 accepted"), "{text}");
    let games: u32 = text.lines().next().unwrap().strip_prefix("games ").unwrap().parse().unwrap();
    assert!(games < 200, "{text}");
}

#[test]
fn an_openings_file_with_comments_starts_every_game() {
    let dir = scratch("openings");
    let (file, sgf) = (dir.join("openings.txt"), dir.join("games.sgf"));
    std::fs::write(&file, "# balanced\nh8,i9,j8 # 12\n\n0,0, 1,0, 0,1\n").unwrap();
    let out = play(
        MNK,
        MNK,
        "--size 15 --games 4 --time-move 30 --concurrency 2",
        &["--openings", file.to_str().unwrap(), "--sgf", sgf.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let saved = std::fs::read_to_string(&sgf).unwrap();
    let starts = |moves: &str| saved.lines().filter(|game| game.contains(moves)).count();
    // Each opening twice, the engines swapping colours.
    assert_eq!(starts("];B[hh];W[ii];B[jh];"), 2, "{saved}");
    assert_eq!(starts("];B[hh];W[ih];B[hi];"), 2, "{saved}");
}

#[test]
fn mnk_and_the_classroom_player_finish_renju_games_without_a_foul() {
    let classroom = format!("{MNK} classroom");
    // The classroom program has no clock: it searches to its depth, here 4 (6 by
    // default, several seconds a move in a test build).
    let options = "--size 15 --rule renju --games 2 --time-move 50 --concurrency 2";
    let out = play(MNK, &classroom, options, &["--info2", "max_depth=4", "--tolerance", "60000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = stderr(&out);
    assert_eq!(log.matches("mnk-classroom (").count(), 2, "{log}");
    // Both games end on the board: a five or a full board, never a forfeit.
    let board_ends = log.matches("(five)").count() + log.matches("(full board)").count();
    assert_eq!(board_ends, 2, "{log}");
}

/// `tune`: SPSA game pairs between two copies of mnk with `--set` values either side of
/// the state's; the state is written after each batch, resumes where it stopped, and a
/// state file that is not one is refused with exit code 2.
#[test]
fn tune_plays_pairs_keeps_its_state_and_resumes() {
    let dir = scratch("tune");
    let state = dir.join("state.txt");
    let state_arg = state.to_str().unwrap();
    let tune = |iterations: &str| {
        Command::new(MNK)
            .args(["tune", "--state", state_arg, "--iterations", iterations, "--nodes", "200"])
            .args(["--size", "9", "--params", "rfp_margin,lmp_base", "--concurrency", "2"])
            .output()
            .expect("the binary runs")
    };
    let out = tune("2");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out).matches("iteration ").count(), 2, "{}", stderr(&out));
    let first = std::fs::read_to_string(&state).unwrap();
    assert!(first.contains("iteration 2\n") && first.contains("rfp_margin "), "{first}");
    let set = stdout(&out);
    assert!(set.starts_with("--set rfp_margin=") && set.contains("--set lmp_base="), "{set}");
    let out = tune("1");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("iteration 3:"), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&state).unwrap().contains("iteration 3\n"));
    // From a file of openings, the pairs go round it.
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "e5f6d4\n").unwrap();
    let out = Command::new(MNK)
        .args(["tune", "--state", state_arg, "--iterations", "1", "--nodes", "200", "--size", "9"])
        .args(["--openings", openings.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&state).unwrap().contains("iteration 4\n"));
    // A perturbed engine's values reach it: the engine refuses an out-of-range --set.
    let refused = Command::new(MNK).args(["--set", "rfp_margin=100000"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    std::fs::write(&state, "iteration 1\nseed 1\nrate 0.5\nno_such_tunable 3\n").unwrap();
    let out = tune("1");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("line 4"), "{}", stderr(&out));
}
