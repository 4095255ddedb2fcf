//! End-to-end tests of the `pbrain-mnk` tools (`perft`, `solve`): the real binary, its output
//! format, exit codes.

mod scratch;

use std::process::{Command, Output};

use scratch::scratch;

fn pbrain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-mnk")).args(args).output().expect("the binary runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn perft_ends_with_the_node_count_after_a_timing_line() {
    let out = pbrain(&["perft", "--size", "3", "--depth", "9"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("time_ms "), "{lines:?}");
    assert!(lines[0].contains(" nps "), "{lines:?}");
    assert_eq!(lines[1], "nodes 127872");
    assert!(out.stderr.is_empty());
}

#[test]
fn divide_lists_every_root_move_in_cell_order() {
    let out = pbrain(&["perft", "--size", "3", "--depth", "2", "--divide", "--moves", "1,1"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    let expected_moves = ["0,0", "1,0", "2,0", "0,1", "2,1", "0,2", "1,2", "2,2"];
    assert_eq!(lines.len(), expected_moves.len() + 2);
    for (line, mv) in lines.iter().zip(expected_moves) {
        assert_eq!(line, &format!("{mv}: 7"));
    }
    assert_eq!(lines.last().unwrap(), "nodes 56");
}

#[test]
fn rules_moves_and_threads_are_honoured() {
    // Black has a1 b1 c1 e1 f1; d1 would be an overline.
    let moves = "a1a15b1b15c1c15e1e15f1o15";
    let free = pbrain(&["perft", "--size", "15", "--depth", "2", "--moves", moves]);
    let std = pbrain(&[
        "perft",
        "--size",
        "15",
        "--depth",
        "2",
        "--moves",
        moves,
        "--rule",
        "standard",
        "--threads",
        "2",
    ]);
    assert_eq!(stdout_lines(&free).last().unwrap(), "nodes 45796");
    assert_eq!(stdout_lines(&std).last().unwrap(), "nodes 46010");
    let five = pbrain(&["perft", "--size", "5", "--depth", "5", "--threads", "2"]);
    assert_eq!(stdout_lines(&five).last().unwrap(), "nodes 6375600");
}

#[test]
fn bad_arguments_exit_with_code_2_and_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "--size", "4", "--depth", "2"], "unsupported board size"),
        (&["perft", "--size", "3"], "--depth <DEPTH>"),
        (&["perft", "--size", "3", "--depth", "x"], "invalid value 'x' for '--depth"),
        (&["perft", "--size", "3", "--depth", "2", "--rule", "gomoku"], "unknown rule"),
        (
            &["perft", "--size", "3", "--depth", "2", "--moves", "1,1 1,1"],
            "move 2 (b2) is illegal: b2 is taken",
        ),
        (&["perft", "--size", "3", "--depth", "2", "--moves", "3,0"], "d1 is off the 3x3 board"),
        (&["perft", "--size", "3", "--depth", "2", "--moves", "1,"], "odd"),
        (&["perft", "--size", "3", "--depth", "10"], "--depth must be 0..=9"),
        (&["perft", "--size", "15", "--depth", "17"], "more move sequences than a 128-bit"),
        (&["perft", "--size", "3", "--depth", "1", "--frobnicate"], "unexpected argument"),
        (&["perft", "--size", "3", "--depth", "1", "--threads", "0"], "--threads"),
        (&["frobnicate"], "unrecognized subcommand"),
        (&["--threads", "2", "bench"], "--threads is an option of the protocol loop"),
        (&["--set", "rfp_margin=50", "bench"], "--set is an option of the protocol loop"),
        (&["--set", "no_such=1"], "no search parameter is named"),
        (&["tune", "--state", "/nonexistent/dir/state.txt", "--params", "no_such"], "--params"),
    ];
    for (args, needle) in cases {
        let out = pbrain(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(err.contains("Usage: pbrain-mnk"), "{args:?}: no usage in {err}");
    }
}

#[test]
fn help_and_version_print_on_stdout_and_succeed() {
    let all = pbrain(&["--help"]);
    assert_eq!(all.status.code(), Some(0));
    let text = String::from_utf8_lossy(&all.stdout);
    assert!(text.contains("Usage: pbrain-mnk [OPTIONS] [COMMAND]"), "{text}");
    for sub in
        ["perft", "solve", "bench", "match", "openings", "datagen", "play", "tune", "classroom"]
    {
        assert!(text.contains(&format!("\n  {sub} ")), "{sub} is not listed: {text}");
    }
    // A subcommand's --help (anywhere among its options) gives that subcommand's options and
    // runs nothing.
    let cases = [
        &["perft", "--help"][..],
        &["match", "--games", "2", "-h"],
        &["play", "--help"],
        &["classroom", "--help"],
        &["help", "openings"],
        &["help", "--help"],
    ];
    for args in cases {
        let out = pbrain(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let name = match args {
            ["help", sub, ..] if !sub.starts_with('-') => sub,
            [first, ..] => first,
            [] => unreachable!("every case names a subcommand"),
        };
        assert!(text.contains(&format!("Usage: pbrain-mnk {name}")), "{args:?}: {text}");
        // Written for users: no code names (a constant's name once showed in datagen's).
        assert!(!text.contains('`'), "{args:?}: {text}");
    }
    for sub in ["solve", "bench", "openings", "datagen", "help"] {
        let text = String::from_utf8_lossy(&pbrain(&[sub, "--help"]).stdout).into_owned();
        assert!(
            text.contains(&format!("Usage: pbrain-mnk {sub}")) && !text.contains('`'),
            "{text}"
        );
    }
    let unknown = pbrain(&["help", "frobnicate"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no subcommand 'frobnicate'"));
    let version = pbrain(&["--version"]);
    assert_eq!(version.status.code(), Some(0));
    let text = String::from_utf8_lossy(&version.stdout).into_owned();
    assert_eq!(text, format!("pbrain-mnk {}\n", env!("CARGO_PKG_VERSION")));
}

/// The first line the binary writes to stderr with these arguments; the process is then
/// stopped (for commands that would run for hours).
fn first_stderr_line(args: &[&str]) -> String {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    line
}

/// A count that could run for hours says so on stderr before it starts (the process is then
/// stopped); a quick one prints nothing there.
#[test]
fn a_long_perft_warns_first_and_a_short_one_does_not() {
    let note = first_stderr_line(&["perft", "--size", "15", "--depth", "7", "--threads", "2"]);
    assert!(note.starts_with("pbrain-mnk: note: up to 2.66e16 move sequences"), "{note}");
    assert!(note.contains("days on 2 threads"), "{note}");
    let short = pbrain(&["perft", "--size", "15", "--depth", "3"]);
    assert!(short.status.success());
    assert!(short.stderr.is_empty(), "{}", String::from_utf8_lossy(&short.stderr));
}

#[test]
fn solve_prints_value_best_move_nodes_and_time() {
    for size in ["3", "5"] {
        let out = pbrain(&["solve", "--size", size]);
        assert!(out.status.success());
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0], "value draw");
        assert!(lines[1].starts_with("best "), "{lines:?}");
        assert!(lines[2].starts_with("nodes "), "{lines:?}");
        assert!(lines[3].starts_with("time_ms "), "{lines:?}");
    }
}

#[test]
fn solve_finds_the_win_the_block_and_the_decided_board() {
    // X: a1 b1, O: a2 b2, X to move wins at c1 (2,0).
    let win = stdout_lines(&pbrain(&["solve", "--size", "3", "--moves", "a1a2b1b2"]));
    assert_eq!(&win[..2], ["value win", "best c1"]);
    // X a1, O b1, X b2: X threatens c3, O must block there and still loses (X a3 then
    // threatens a2 and c1 at once).
    let defend = stdout_lines(&pbrain(&["solve", "--size", "3", "--moves", "a1b1b2"]));
    assert_eq!(&defend[..2], ["value loss", "best c3"]);
    let done = stdout_lines(&pbrain(&["solve", "--size", "3", "--moves", "a1a2b1b2c1"]));
    assert_eq!(&done[..2], ["value loss", "best none"]);
    let plain =
        stdout_lines(&pbrain(&["solve", "--size", "3", "--no-pairing", "--moves", "a1a2b1b2"]));
    assert_eq!(&plain[..2], ["value win", "best c1"]);
}

#[test]
fn solve_rejects_bad_arguments_with_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "--size", "15"], "5 to 8"),
        (&["solve", "--size", "9x6"], "5 to 8"),
        (&["solve", "--size", "6", "--rule", "renju"], "freestyle"),
        (&["solve", "--size", "6", "--time-limit", "0"], "--time-limit"),
        (&["solve", "--size", "6", "--moves", "a1a1"], "--moves"),
        (&["solve", "--verify", "/nonexistent/certificate.txt"], "--verify"),
        (&["solve"], "--size <SIZE>"),
        (&["solve", "--size", "3", "--moves", "z9"], "z9 is off the 3x3 board"),
        (&["solve", "--size", "3", "--hash-mb", "0"], "--hash-mb"),
    ];
    for (args, needle) in cases {
        let out = pbrain(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains(needle), "{args:?}");
    }
}

#[test]
fn bench_prints_every_position_and_the_signature() {
    let out = pbrain(&["bench"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), mnk_engine::bench::POSITIONS.len() + 1, "{lines:?}");
    assert!(lines[0].starts_with("position 1 size 3 rule freestyle depth 9 nodes "), "{lines:?}");
    let last = lines.last().unwrap();
    let expected = format!("bench {} nodes ", mnk_engine::bench::EXPECTED_NODES);
    assert!(last.starts_with(&expected) && last.ends_with(" nps"), "{last}");
    assert_eq!(pbrain(&["bench", "--depth", "3"]).status.code(), Some(2));
}

#[test]
fn bench_speed_reports_each_middle_game_and_the_totals() {
    let out = pbrain(&["bench", "--speed"]);
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    let positions = mnk_engine::bench::SPEED_POSITIONS;
    assert_eq!(lines.len(), positions.len() + 2, "{lines:?}");
    for (line, index) in lines.iter().zip(positions) {
        let expected = format!("search position {} depth ", index + 1);
        assert!(line.starts_with(&expected), "{line}");
        let words: Vec<&str> = line.split_whitespace().collect();
        let nodes: u64 =
            words[words.iter().position(|&w| w == "nodes").unwrap() + 1].parse().unwrap();
        assert_eq!(nodes, mnk_engine::bench::SPEED_SEARCH_NODES, "{line}");
        assert_eq!(words[words.len() - 2], "main_nps", "{line}");
    }
    assert!(lines[positions.len()].starts_with("make_unmake "), "{lines:?}");
    assert!(lines[positions.len()].ends_with(" per_s"), "{lines:?}");
    assert!(lines.last().unwrap().starts_with("speed nodes "), "{lines:?}");
    assert_eq!(pbrain(&["bench", "--speed", "x"]).status.code(), Some(2));
}

fn play_with_input(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn play_a_scripted_game_with_bad_input_and_undo() {
    // Human vs human on 3×3: junk, an off-board and an occupied move are re-asked; an undo
    // takes back white's b3 and black's c3; then black wins down column a.
    let script = "a1\nb1\nhello\n7,7\na1\na2\nc3\nb3\nundo\nb2\na3\n";
    let out = play_with_input(&["--size", "3", "--black", "human", "--white", "human"], script);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("'hello' is not a move: type a column letter"), "{text}");
    assert!(text.contains("illegal: 7,7 is off the 3x3 board"), "{text}");
    assert!(text.contains("illegal: a1 is taken"), "{text}");
    assert!(text.contains("took back b3 and c3"), "{text}");
    assert!(text.contains("black (X) plays a2"), "{text}");
    assert!(text.trim_end().ends_with("result: black (X) wins after 5 moves"), "{text}");
}

#[test]
fn play_shows_the_board_once_a_turn_names_fouls_hints_and_saves() {
    // Renju, the person black against the engine: a double three is refused by name.
    let dir = std::env::temp_dir().join(format!("mnk-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = dir.join("Game.sgf");
    let script = format!("h8\nhint\nsave {}\nquit\n", sgf.display());
    let args = ["--rule", "renju", "--time-move", "100"];
    let out = play_with_input(&args, &script);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // One board before each of the person's two turns.
    assert_eq!(text.matches("    a b c d e f g h i j k l m n o").count(), 2, "{text}");
    assert!(text.contains("black (X) plays h8"), "{text}");
    // The engine's reply is marked on the board.
    let marked = text.lines().filter(|l| l.contains("[O]")).count();
    assert_eq!(marked, 1, "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(text.contains("saved 2 moves to"), "{text}");
    let saved = std::fs::read_to_string(&sgf).unwrap();
    assert!(
        saved.starts_with("(;GM[4]FF[4]SZ[15]RU[renju]PB[human]PW[engine];B[hh];W["),
        "{saved}"
    );

    // Human against human: black's double three at i8 is refused, with the foul named and
    // the forbidden point drawn.
    let script = "g8\na1\nh8\na3\ni6\na5\ni7\na7\ni8\nquit\n";
    let out = play_with_input(&["--rule", "renju", "--black", "human", "--white", "human"], script);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("illegal: i8 is forbidden for black in renju: double three"), "{text}");
    assert!(text.contains("  8 . . . . . . X X * . "), "{text}");
    assert!(text.contains("  7[O]. "), "{text}");
    assert!(text.contains("* black's forbidden points (renju)"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_engine_against_random_finishes_and_ends_on_end_of_input() {
    let out = play_with_input(
        &["--size", "5", "--black", "engine", "--white", "random", "--time-move", "20"],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("black (X) (engine) plays"), "{text}");
    assert!(text.contains("white (O) (random) plays"), "{text}");
    assert!(text.contains("result: "), "{text}");
    assert!(!text.contains("result: white"), "the engine never loses: {text}");
    // A human side with no input: the session ends quietly.
    let quiet = play_with_input(&["--size", "15"], "");
    assert!(quiet.status.success());
    let bad = play_with_input(&["--black", "alien"], "");
    assert_eq!(bad.status.code(), Some(2));
}

/// `--level 0`: a few hundred nodes a move, yet no random blunders — it beats the random
/// player on 15×15; the same seed plays the same moves; a level above 100 is refused.
#[test]
fn play_at_level_zero_beats_random_and_repeats_with_its_seed() {
    let moves = |seed: &str| {
        let args = ["--black", "engine", "--white", "random", "--level", "0", "--seed", seed];
        let out = play_with_input(&args, "");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("result: black (X) wins"), "{text}");
        let played: Vec<String> = text
            .lines()
            .filter_map(|line| line.split(" plays ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap_or_default().to_string())
            .collect();
        played
    };
    let first = moves("5");
    assert_eq!(moves("5"), first, "the same seed, the same game");
    let bad = play_with_input(&["--level", "101"], "");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn openings_are_balanced_distinct_and_the_same_for_the_same_arguments() {
    let args = ["openings", "--count", "3", "--nodes", "20000", "--max-score", "60", "--seed", "3"];
    let out = pbrain(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("# pbrain-mnk openings --size 15 --rule freestyle"));
    for line in &lines[1..] {
        let (moves, score) = line.split_once(" # ").expect("moves, then the score");
        assert_eq!(moves.split(',').count(), 3, "{line}");
        let score: i32 = score.parse().expect("a plain score, not a win");
        assert!(score.abs() <= 60, "{line}");
    }
    assert_eq!(stdout_lines(&pbrain(&args)), lines);
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("kept 3 of "));
}

#[test]
fn openings_that_cannot_be_found_fail_and_bad_arguments_exit_with_code_2() {
    // One stone on 3×3: only three positions up to symmetry (corner, edge, centre).
    let out = pbrain(&["openings", "--size", "3", "--stones", "1", "--count", "4"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout_lines(&out).len(), 4, "the header and the three found");
    assert!(String::from_utf8_lossy(&out.stderr).contains("found 3 of 4"));
    for args in [
        &["openings", "--count", "0"][..],
        &["openings", "--nodes", "0"],
        &["openings", "--size", "3", "--stones", "9"],
        &["openings", "--rule", "chess"],
        &["openings", "--depth", "3"],
    ] {
        let out = pbrain(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `datagen` writes one line per position of each game, replays to legal positions whose
/// labelled move is legal, gives every position of a game the same result (flipped for the
/// side to move), and writes the same file whatever the number of threads.
#[test]
fn datagen_labels_every_position_of_its_games_the_same_way_on_any_thread_count() {
    use mnk_engine::game::Game;
    use mnk_engine::notation::parse_moves;
    use mnk_engine::outcome::Outcome;
    use mnk_engine::rules::Rule;
    use mnk_engine::size::BoardSize;
    let args = |threads: &'static str| {
        let mut args: Vec<&str> = "datagen --games 3 --rules freestyle,renju --sizes 7,11x6 \
                                   --nodes 300 --opening-nodes 300 --max-score 1000 --seed 5 \
                                   --set threat_nodes_percent=50"
            .split_whitespace()
            .collect();
        args.extend(["--threads", threads]);
        args
    };
    let out = pbrain(&args("1"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout_lines(&out);
    assert!(lines[0].starts_with("# pbrain-mnk datagen --games 3 --rules freestyle,renju"));
    assert!(lines[0].ends_with("--seed 5 --set threat_nodes_percent=50"), "{}", lines[0]);
    assert_eq!(lines[1], "# GAME SIZE RULE MOVES SCORE BEST RESULT");
    let mut games_seen = Vec::new();
    let mut last: Option<(usize, Game, String)> = None;
    for line in &lines[2..] {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 7, "{line}");
        let game: usize = fields[0].parse().unwrap();
        // Games cycle through the rules, then the sizes.
        let (size, rule) = (["7", "7", "11x6"][game], ["freestyle", "renju"][game % 2]);
        assert_eq!((fields[1], fields[2]), (size, rule), "{line}");
        let size: BoardSize = size.parse().unwrap();
        let mut position = Game::from_notation(size, rule.parse::<Rule>().unwrap(), fields[3])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        fields[4].parse::<i32>().expect("a score");
        let best = parse_moves(fields[5]).unwrap()[0];
        position.try_play(best).unwrap_or_else(|e| panic!("{line}: the best move: {e}"));
        if let Some((previous, game_before, result)) = &last
            && *previous == game
        {
            // The next position is the last one with its best move played.
            assert_eq!(game_before.history().len() + 1, position.history().len() - 1, "{line}");
            let flipped = match result.as_str() {
                "1" => "0",
                "0" => "1",
                _ => "0.5",
            };
            assert_eq!(fields[6], flipped, "{line}");
        } else {
            games_seen.push(game);
        }
        if position.outcome() != Outcome::Ongoing {
            // A game's last position ends it, and its result is the side to move's win.
            let expected = if position.outcome() == Outcome::Draw { "0.5" } else { "1" };
            assert_eq!(fields[6], expected, "{line}");
        }
        position.undo();
        last = Some((game, position, fields[6].to_string()));
    }
    assert_eq!(games_seen, [0, 1, 2]);
    assert_eq!(stdout_lines(&pbrain(&args("2"))), lines);
    for bad in [
        &["datagen", "--sizes", "5"][..],
        &["datagen", "--games", "0"],
        &["datagen", "--rules", "go"],
        &["datagen", "--set", "threat_nodes_percent=101"],
        &["datagen", "--set", "no_such_tunable=1"],
    ] {
        let out = pbrain(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

/// `help params` lists the tunables under their areas (the search's prunings, the root's
/// threat searches, the clock, the time of a move, ...), each with its default and range,
/// and `--set` takes the ones that used to be constants.
#[test]
fn help_params_lists_every_tunable_with_its_default_and_range() {
    let out = pbrain(&["help", "params"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for area in ["main search:", "root threat searches:", "clock within a move:", "time of a move:"]
    {
        assert!(text.lines().any(|l| l == area), "{area}\n{text}");
    }
    for name in [
        "lmr_divisor_x100",
        "futility_margin",
        "threat_time_percent",
        "root_vct_nodes",
        "unsettled_stretch_percent",
        "time_max_moves_left",
        "history_scale",
    ] {
        let line = text.lines().find(|l| l.trim_start().starts_with(name));
        let line = line.unwrap_or_else(|| panic!("{name}\n{text}"));
        assert!(line.contains("..="), "{line}");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .args(["--set", "time_margin_ms=40", "--set", "root_vct_nodes=0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"START 15\nEND\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(stdout_lines(&out), ["OK"]);
}

#[test]
fn analyze_prints_the_position_each_best_line_and_the_search() {
    let out = pbrain(&["analyze", "--moves", "h8 i9 h10", "--nodes", "20000", "--nbest", "3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "position 15x15 freestyle moves 3 to_move white");
    for (i, line) in lines[1..4].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&words[..3], &["line", &(i + 1).to_string(), "move"], "{line}");
        // The principal variation starts with the line's move.
        let pv = words.iter().position(|&w| w == "pv").expect("a pv");
        assert_eq!(words[pv + 1], words[3], "{line}");
        assert!(words[7].ends_with('%'), "{line}");
    }
    assert!(lines[4].starts_with("searched depth "), "{lines:?}");
    assert_eq!(lines.len(), 5);
    // Fixed nodes: the same lines again.
    let again = pbrain(&["analyze", "--moves", "h8 i9 h10", "--nodes", "20000", "--nbest", "3"]);
    let strip = |l: &[String]| l[..4].to_vec();
    assert_eq!(strip(&stdout_lines(&again)), strip(&lines));
}

/// A four-three found by the root threat search is shown to the five, the defender holding
/// out longest (it once showed `+M5 depth 1 pv k8`).
#[test]
fn analyze_shows_a_threat_win_to_the_five() {
    // Black k8 makes a four (h8-k8, g8 taken) and an open three (k8-k10).
    let moves = "h8 g8 i8 a1 j8 c1 k9 e1 k10 o15";
    let out = pbrain(&["analyze", "--moves", moves, "--nodes", "20000", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let line = &json["lines"][0];
    assert_eq!(line["score_text"], "+M5", "{json}");
    let pv: Vec<&str> = line["pv"].as_array().unwrap().iter().filter_map(|m| m.as_str()).collect();
    assert_eq!(&pv[..3], ["k8", "l8", "k11"], "{json}");
    assert!(["k7", "k12"].contains(&pv[3]) && ["k7", "k12"].contains(&pv[4]) && pv[3] != pv[4]);
    assert_eq!(pv.len(), 5, "{json}");
}

#[test]
fn analyze_reads_game_files_and_prints_json() {
    let dir = std::env::temp_dir().join(format!("mnk-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = dir.join("game.sgf");
    // Black's four in column h after five moves: the win is h7 or h12.
    std::fs::write(
        &sgf,
        "(;GM[4]SZ[15]RU[standard];B[hh];W[aa];B[hi];W[ab];B[hj];W[ac];B[hk];W[ad])",
    )
    .unwrap();
    let path = sgf.to_str().unwrap();
    let out = pbrain(&["analyze", "--file", path, "--nodes", "5000", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!((json["rule"].as_str(), json["size"].as_str()), (Some("standard"), Some("15")));
    assert_eq!(json["to_move"], "black");
    let best = json["lines"][0]["move"].as_str().unwrap();
    assert!(["h7", "h12"].contains(&best), "{json}");
    assert_eq!(json["lines"][0]["decisive"], true);
    assert_eq!(json["lines"][0]["win_chance"], 1.0);
    // The position after three moves: white to move.
    let early = pbrain(&["analyze", "--file", path, "--move-number", "3", "--nodes", "2000"]);
    assert_eq!(stdout_lines(&early)[0], "position 15x15 standard moves 3 to_move white");
    // A decided position says who won.
    let five = pbrain(&["analyze", "--moves", "h8a1h9a2h10a3h11a4h12"]);
    assert_eq!(
        stdout_lines(&five),
        ["position 15x15 freestyle moves 9 to_move white", "result black"]
    );
    // Bad input: exit code 2 with the reason.
    for (args, says) in [
        (vec!["analyze", "--file", path, "--move-number", "99"], "the game has 8 moves"),
        (vec!["analyze", "--file", "/nonexistent.sgf"], "--file /nonexistent.sgf"),
        (vec!["analyze", "--moves", "h8 h8"], "move 2 (h8) is illegal: h8 is taken"),
        (vec!["analyze", "--moves", "h8", "--file", path], "cannot be used with"),
        (vec!["analyze", "--nbest", "0"], "--nbest"),
    ] {
        let out = pbrain(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // c-gomoku-cli's collection: Gomocup's rule number, setup stones, a game by its number.
    let collection = dir.join("games.sgf");
    std::fs::write(
        &collection,
        "(;FF[4]GM[4]\nRU[4]\nSZ[15]\nAB[hh][ij]AW[ii];W[jj])\n(;FF[4]GM[4]\nRU[1]\nSZ[15];B[hh])\n",
    )
    .unwrap();
    let games = collection.to_str().unwrap();
    let first = pbrain(&["analyze", "--file", games, "--nodes", "2000"]);
    assert_eq!(stdout_lines(&first)[0], "position 15x15 renju moves 4 to_move black");
    let second = pbrain(&["analyze", "--file", games, "--game", "2", "--nodes", "2000"]);
    assert_eq!(stdout_lines(&second)[0], "position 15x15 standard moves 1 to_move white");
    let third = pbrain(&["analyze", "--file", games, "--game", "3"]);
    assert_eq!(third.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&third.stderr).contains("no game 3: the file holds 2"));
    let go = dir.join("go.sgf");
    std::fs::write(&go, "(;GM[1]SZ[19];B[pd])").unwrap();
    let out = pbrain(&["analyze", "--file", go.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("GM[1] is not a gomoku game"));
    let text = dir.join("not-a-game.txt");
    std::fs::write(&text, "hello").unwrap();
    let out = pbrain(&["analyze", "--file", text.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a game file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_proves_6x6_a_draw_and_its_certificate_checks() {
    let dir = scratch("certificate");
    let file = dir.join("6x6.txt");
    let path = file.to_str().unwrap();
    let out = pbrain(&["solve", "--size", "6", "--certificate", path]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "value draw");
    assert!(lines[1].starts_with("best "), "{lines:?}");
    assert!(lines[4].starts_with(&format!("certificate {path} positions ")), "{lines:?}");
    let checked = pbrain(&["solve", "--verify", path]);
    assert!(checked.status.success());
    let lines = stdout_lines(&checked);
    assert_eq!(&lines[..2], ["certificate ok", "board 6x6"]);
    assert!(lines.contains(&"value draw".to_string()), "{lines:?}");
    // Black's half alone proves that black cannot force five, and no value.
    let text = std::fs::read_to_string(&file).unwrap();
    let half = dir.join("6x6-black.txt");
    let white_starts = text.find("refutes white").expect("white's section");
    std::fs::write(&half, format!("{}end\n", &text[..white_starts])).unwrap();
    let checked = pbrain(&["solve", "--verify", half.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let lines = stdout_lines(&checked);
    assert!(!lines.contains(&"value draw".to_string()), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("proves black cannot force five")), "{lines:?}");
    // A certificate with a defender's reply taken out does not hold.
    let text = std::fs::read_to_string(&file).unwrap();
    let cut: String =
        text.lines().filter(|l| !l.starts_with("R ")).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, cut).unwrap();
    let refused = pbrain(&["solve", "--verify", path]);
    assert_eq!(refused.status.code(), Some(1), "a result, not a misused option");
    assert!(refused.stdout.is_empty());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("does not hold") && !said.contains("Usage:"), "{said}");
}

/// `solve --classes` proves the empty board one class of black's first move at a time,
/// records each with its certificate's hash, goes on from the record, checks the recorded
/// certificates (`--check`), and refuses a record it cannot read.
#[test]
fn solve_by_classes_records_each_class_and_continues_from_the_record() {
    let dir = scratch("classes");
    let record = dir.join("6x6.txt");
    let work = dir.join("work");
    let (record_arg, work_arg) = (record.to_str().unwrap(), work.to_str().unwrap());
    let by_classes = |extra: &[&str]| {
        let mut args =
            vec!["solve", "--size", "6", "--classes", record_arg, "--work-dir", work_arg];
        args.extend_from_slice(extra);
        pbrain(&args)
    };
    // A node budget stops it after the first class is under way: nothing recorded yet, the
    // class's state kept.
    let stopped = by_classes(&["--max-nodes", "1"]);
    assert!(stopped.status.success(), "{}", String::from_utf8_lossy(&stopped.stderr));
    let lines = stdout_lines(&stopped);
    assert_eq!(lines.last().map(String::as_str), Some("value unknown"), "{lines:?}");
    assert!(work.join("6x6-black-a1.state").exists());
    // One class alone (as a second run sharing the record would): only it is recorded.
    let one = stdout_lines(&by_classes(&["--class", "c3"]));
    assert!(one[0].starts_with("class black c3 refuted "), "{one:?}");
    assert!(one.contains(&"black refuted 4/36 (classes c3)".to_string()), "{one:?}");
    let wrong = by_classes(&["--class", "z9"]);
    assert_eq!(wrong.status.code(), Some(2));
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(said.contains("the classes are a1 b1 c1 b2 c2 c3"), "{said}");
    // A class another run holds (its lock file): --class refuses it, a whole run skips it.
    let lock = work.join("6x6-black-b1.lock");
    std::fs::write(&lock, "").unwrap();
    let held = by_classes(&["--class", "b1"]);
    assert_eq!(held.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&held.stderr).contains("another run is proving class b1"));
    let around = by_classes(&[]);
    assert!(String::from_utf8_lossy(&around.stderr).contains("skipped"));
    let lines = stdout_lines(&around);
    assert!(lines.contains(&"black refuted 28/36 (classes a1 c1 b2 c2 c3)".to_string()));
    // White's question does not wait for the held class.
    assert!(lines.iter().any(|l| l.starts_with("class white c3 refuted")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("value unknown"), "{lines:?}");
    // Let go, the next run settles the last class: the board is a draw.
    std::fs::remove_file(&lock).unwrap();
    let done = by_classes(&[]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let lines = stdout_lines(&done);
    assert_eq!(lines.iter().filter(|l| l.starts_with("class ")).count(), 1, "{lines:?}");
    assert!(lines[0].starts_with("class black b1 refuted "), "{lines:?}");
    assert!(lines.contains(&"black refuted 36/36 (classes a1 b1 c1 b2 c2 c3)".to_string()));
    assert_eq!(lines.last().map(String::as_str), Some("value draw"));
    assert!(!work.join("6x6-black-a1.state").exists(), "a settled class's state is removed");
    // Each recorded certificate is on disk with the recorded hash and checks.
    let text = std::fs::read_to_string(&record).unwrap();
    let first = text.lines().find(|l| l.starts_with("black a1 refuted ")).expect("a1 recorded");
    let words: Vec<&str> = first.split_whitespace().collect();
    let at = |w: &str| words[words.iter().position(|&x| x == w).unwrap() + 1];
    let certificate = work.join("6x6-black-a1.cert");
    let bytes = std::fs::read(&certificate).unwrap();
    assert!(at("certificate").parse::<usize>().unwrap() > 0);
    let size_at = words.iter().position(|&x| x == "certificate").unwrap() + 2;
    assert_eq!(words[size_at], bytes.len().to_string());
    assert_eq!(at("sha256").len(), 64);
    assert!(first.ends_with("command pbrain-mnk solve --size 6 --moves a1 --can-win black --certificate 6x6-black-a1.cert"), "{first}");
    let checked = pbrain(&["solve", "--verify", certificate.to_str().unwrap()]);
    assert!(checked.status.success());
    assert!(stdout_lines(&checked).iter().any(|l| l.starts_with("proves black cannot force five")));
    // Run again: the record already settles everything.
    let again = stdout_lines(&by_classes(&[]));
    assert!(!again.iter().any(|l| l.starts_with("class ")), "{again:?}");
    assert_eq!(again.last().map(String::as_str), Some("value draw"));
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text, "the record is unchanged");
    // --check proves nothing: it checks every recorded certificate against the record.
    let checked = by_classes(&["--check"]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let lines = stdout_lines(&checked);
    let ok = lines.iter().filter(|l| l.starts_with("checked ") && l.ends_with(" sha256 ok"));
    assert_eq!(ok.count(), text.lines().filter(|l| l.contains(" refuted ")).count(), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("value draw"));
    // A certificate one byte longer, one with a byte changed, one that proves another
    // class's claim, a missing one:
    // exit 1, said why.
    let check_fails = |why: &str| {
        let failed = by_classes(&["--check"]);
        assert_eq!(failed.status.code(), Some(1));
        let said = String::from_utf8_lossy(&failed.stderr);
        assert!(said.contains("6x6-black-a1.cert") && said.contains(why), "{said}");
    };
    let mut longer = bytes.clone();
    longer.push(b'\n');
    std::fs::write(&certificate, &longer).unwrap();
    check_fails("the record says");
    let mut altered = bytes.clone();
    let last = altered.len() - 2;
    altered[last] ^= 1;
    std::fs::write(&certificate, &altered).unwrap();
    check_fails("its SHA-256 is");
    let b1 = text.lines().find(|l| l.starts_with("black b1 refuted ")).expect("b1 recorded");
    let swapped = text.replace(first, &b1.replacen("b1", "a1", 1));
    std::fs::write(&record, swapped).unwrap();
    std::fs::copy(work.join("6x6-black-b1.cert"), &certificate).unwrap();
    check_fails("another claim");
    std::fs::write(&record, &text).unwrap();
    std::fs::remove_file(&certificate).unwrap();
    check_fails("make it with: pbrain-mnk solve --size 6 --moves a1");
    let no_record = pbrain(&["solve", "--size", "6", "--classes", "no-such.txt", "--check"]);
    assert_eq!(no_record.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_record.stderr).contains("no such file"));
    // A record with a line it cannot read, and a position with moves: exit 2, said why.
    std::fs::write(&record, "black z9 refuted a1\n").unwrap();
    let refused = by_classes(&[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("line 1: not one of the classes"));
    let with_moves = pbrain(&["solve", "--size", "6", "--moves", "a1", "--classes", record_arg]);
    assert_eq!(with_moves.status.code(), Some(2));
}

/// A proof not known to finish says so before it starts (`solve --size 8` once ran on without
/// a word of how long), and says nothing when a bound is given.
#[test]
fn solve_warns_before_a_proof_that_may_run_for_days() {
    let first = first_stderr_line(&["solve", "--size", "8", "--hash-mb", "16"]);
    assert!(first.contains("as one proof the empty 8x8 board may run for days"), "{first}");
    assert!(first.contains("--classes"), "{first}");
    let bounded = pbrain(&["solve", "--size", "8", "--max-nodes", "1000", "--hash-mb", "16"]);
    assert!(!String::from_utf8_lossy(&bounded.stderr).contains("note:"));
    assert_eq!(stdout_lines(&bounded)[0], "value unknown");
}

#[test]
fn solve_finds_a_win_on_6x6_and_the_loss_after_it() {
    // Black a1 b1 c1 d1 against white a6 b6 c6 f5: black to move wins at e1 (4,0).
    let win = stdout_lines(&pbrain(&["solve", "--size", "6", "--moves", "a1a6b1b6c1c6d1f5"]));
    assert_eq!(&win[..2], ["value win", "best e1"]);
    // White to move cannot stop both ends of b1 c1 d1 e1 on a 7-wide board.
    let loss = stdout_lines(&pbrain(&["solve", "--size", "7x6", "--moves", "b1a6c1b6d1c6e1"]));
    assert_eq!(loss[0], "value loss");
    // One side's question: after black's centre stone on 7x7, white has a refutation.
    let refuted =
        stdout_lines(&pbrain(&["solve", "--size", "7", "--moves", "d4", "--can-win", "black"]));
    assert_eq!(refuted[0], "can_win black no");
    assert!(refuted[1].starts_with("best ") && refuted[1] != "best none", "{refuted:?}");
}

#[test]
fn a_stopped_proof_resumes_from_its_state_file() {
    let dir = scratch("state");
    let state = dir.join("7x7.state");
    let path = state.to_str().unwrap();
    let first = pbrain(&["solve", "--size", "7", "--state", path, "--max-nodes", "3000"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let lines = stdout_lines(&first);
    assert_eq!(lines[0], "value unknown");
    assert_eq!(lines[4], format!("state {path}"));
    let second = pbrain(&["solve", "--size", "7", "--state", path]);
    assert_eq!(stdout_lines(&second)[0], "value draw");
    // The state of another position is refused.
    let other = pbrain(&["solve", "--size", "7", "--moves", "d4", "--state", path]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("another position"));
}

/// Ctrl-C (SIGINT) and SIGTERM stop a long proof with its state saved, exit code 130; it
/// goes on from there.
#[test]
fn an_interrupted_proof_saves_its_state() {
    for signal in ["-INT", "-TERM"] {
        interrupt_a_proof(signal);
    }
}

fn interrupt_a_proof(signal: &str) {
    use std::io::{BufRead, BufReader};
    let dir = scratch(&format!("interrupt{signal}"));
    let state = dir.join("8x8.state");
    let path = state.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
        .args(["solve", "--size", "8", "--can-win", "black", "--state", path])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // The note that 8x8 may run for days, then the first progress line.
    let mut progress = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    progress.read_line(&mut line).unwrap();
    assert!(line.contains("as one proof the empty 8x8 board may run for days"), "{line}");
    line.clear();
    progress.read_line(&mut line).unwrap();
    assert!(line.starts_with("solve: can black force five? "), "{line}");
    assert!(line.contains(" root moves settled ") && line.contains(", line "), "{line}");
    let status = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "can_win black unknown");
    assert_eq!(lines.last().unwrap(), &format!("state {path}"));
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut progress, &mut rest).unwrap();
    assert!(rest.contains("the proof goes on from its state"), "{rest}");
    let again = pbrain(&[
        "solve",
        "--size",
        "8",
        "--can-win",
        "black",
        "--state",
        path,
        "--max-nodes",
        "100",
    ]);
    assert!(again.status.success());
    assert_eq!(stdout_lines(&again)[0], "can_win black unknown");
}
