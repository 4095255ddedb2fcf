//! Fits the 15×15 evaluation weights to game results (Texel's method) or to search scores;
//! see the section "Evaluation weights" of `docs/patterns.md`.
//!
//! ```text
//! cargo run --release -p mnk-engine --example eval_fit -- [--search NODES] RULE GAMES.sgf [RULE GAMES.sgf ...]
//! ```
//!
//! The SGF files are `pbrain-mnk match --sgf` output (one game per line). Every position
//! from ply 6 to the last move but one in which neither side can make five gives 36 counts
//! (the empty-cell directions making each pattern and the empty cells of each combination
//! class, for the side to move and for the opponent) and a target for the side to move: the
//! game's result (1, ½ or 0), or with `--search` `σ(score / SCALE)` of a search of the
//! position limited to NODES nodes (positions it proves won or lost are left out: the threat
//! searches decide those, not the evaluation). Starting from the current
//! `PATTERN_POTENTIAL`, `COMBO_POTENTIAL` and `TEMPO`, Adam minimises the squared error of
//! `σ(eval / SCALE)` against the targets, weights kept between 0 and `CAP` (Dead, Overline
//! and Five fixed). Every fifth game is held out whole: the positions of one game share its
//! result and most of their stones, so a held-out position with its neighbours in training
//! would flatter the fit. Prints the error as it goes and the fitted rows in table units.

use mnk_engine::bitboard::{Bitboard, Bits256};
use mnk_engine::board::Board;
use mnk_engine::color::Color;
use mnk_engine::eval::weights::{COMBO_POTENTIAL, PATTERN_POTENTIAL, POTENTIAL_SCALE, Role};
use mnk_engine::eval::{TEMPO, code_terms};
use mnk_engine::limits::Limits;
use mnk_engine::pattern::Pattern;
use mnk_engine::pattern::code::patterns_of;
use mnk_engine::pattern::combo::{COMBOS, combo_of};
use mnk_engine::rules::Rule;
use mnk_engine::score::is_decisive;
use mnk_engine::search::search;
use mnk_engine::tt::TranspositionTable;

/// Evaluation units per unit of the logistic's argument.
const SCALE: f64 = 600.0;
/// Table of each thread's searches (`--search`).
const TT_BYTES: usize = 16 << 20;
/// Passes over the training positions.
const PASSES: usize = 2000;
/// Adam's step size, in evaluation units.
const STEP: f64 = 1.0;
/// Patterns per row (Dead .. Five).
const PATTERNS: usize = Pattern::ALL.len();
/// The largest weight, in table units: an open four or a double four to be made is a win
/// the leaf VCF finds anyway, and left free such weights keep rising without converging.
const CAP: f64 = 1200.0;
/// Weights that stay as they are: Dead, Overline, Five.
const FIXED: [usize; 3] =
    [Pattern::Dead as usize, Pattern::Overline as usize, Pattern::Five as usize];
/// Counts per position: the side to move's patterns, the opponent's, then the side to move's
/// combination classes and the opponent's. The weights are in the same order, then the tempo.
const FEATURES: usize = 2 * PATTERNS + 2 * COMBOS;

/// One position: the target for the side to move and its counts.
struct Sample {
    /// The game it comes from, numbered over all the files.
    game: usize,
    target: f64,
    counts: [f64; FEATURES],
}

/// Whether count `i` is the opponent's (it enters the evaluation with a minus sign).
fn opponents(i: usize) -> bool {
    (PATTERNS..2 * PATTERNS).contains(&i) || i >= 2 * PATTERNS + COMBOS
}

/// Whether weight `i` stays as it is.
fn fixed(i: usize) -> bool {
    i < 2 * PATTERNS && FIXED.contains(&(i % PATTERNS))
}

/// `println!` that ends the program with a message, not a panic, when stdout fails (piped
/// into `head`, which closes it early).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            fail(&format!("output error: {e}"));
        }
    }};
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let search_nodes = match args.first().map(String::as_str) {
        Some("--search") => {
            let nodes = args.get(1).and_then(|n| n.parse::<u64>().ok()).filter(|&n| n > 0);
            let nodes = nodes.unwrap_or_else(|| fail("--search needs a node count above 0"));
            args.drain(..2);
            Some(nodes)
        }
        _ => None,
    };
    if args.is_empty() || !args.len().is_multiple_of(2) {
        eprintln!("usage: eval_fit [--search NODES] RULE GAMES.sgf [RULE GAMES.sgf ...]");
        std::process::exit(2);
    }
    let mut games: Vec<(Rule, String)> = Vec::new();
    for pair in args.chunks(2) {
        let rule: Rule = pair[0].parse().unwrap_or_else(|e| fail(&format!("{e}")));
        let text = std::fs::read_to_string(&pair[1])
            .unwrap_or_else(|e| fail(&format!("{}: {e}", pair[1])));
        games.extend(text.lines().filter(|l| l.contains(";B[")).map(|l| (rule, l.to_string())));
    }
    let samples = collect_all(&games, search_nodes);
    let games = games.len();
    let (train, held_out): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game % 5 != 4);
    if train.is_empty() || held_out.is_empty() {
        fail(
            "too few games to fit (every fifth is held out; positions from ply 6, no five threatened)",
        );
    }
    say!(
        "games {games}, positions {} (training {}, held out {})",
        samples.len(),
        train.len(),
        held_out.len()
    );

    // Parameters: the weights in evaluation units, in the order of the counts, then the tempo.
    let scale = f64::from(POTENTIAL_SCALE);
    let mut params: Vec<f64> = PATTERN_POTENTIAL[0]
        .iter()
        .chain(&PATTERN_POTENTIAL[1])
        .chain(&COMBO_POTENTIAL[0])
        .chain(&COMBO_POTENTIAL[1])
        .map(|&w| f64::from(w) / scale)
        .chain([f64::from(TEMPO)])
        .collect();
    say!("start: training {:.5} held out {:.5}", error(&params, &train), error(&params, &held_out));
    let (mut m, mut v) = (vec![0.0; params.len()], vec![0.0; params.len()]);
    let (beta1, beta2) = (0.9_f64, 0.999_f64);
    for pass in 1..=PASSES {
        let mut gradient = vec![0.0; params.len()];
        for s in &train {
            let p = sigmoid(eval(&params, s) / SCALE);
            let d = -2.0 * (s.target - p) * p * (1.0 - p) / SCALE;
            for (i, (g, &c)) in gradient.iter_mut().zip(&s.counts).enumerate() {
                *g += if opponents(i) { -d * c } else { d * c };
            }
            gradient[FEATURES] += d;
        }
        for (i, g) in gradient.iter().enumerate() {
            let g = g / train.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(pass as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(pass as i32));
            if !fixed(i) {
                params[i] -= STEP * m_hat / (v_hat.sqrt() + 1e-8);
                if i < FEATURES {
                    params[i] = params[i].clamp(0.0, CAP / scale);
                }
            }
        }
        if pass % 250 == 0 {
            say!(
                "pass {pass}: training {:.5} held out {:.5}",
                error(&params, &train),
                error(&params, &held_out)
            );
        }
    }
    let row = |range: std::ops::Range<usize>| -> Vec<i64> {
        params[range].iter().map(|w| (w * scale).round() as i64).collect()
    };
    say!("patterns, to move  {:?}", row(0..PATTERNS));
    say!("patterns, waiting  {:?}", row(PATTERNS..2 * PATTERNS));
    say!("combos, to move    {:?}", row(2 * PATTERNS..2 * PATTERNS + COMBOS));
    say!("combos, waiting    {:?}", row(2 * PATTERNS + COMBOS..FEATURES));
    say!("tempo              {:.1}", params[FEATURES]);
}

fn fail(message: &str) -> ! {
    eprintln!("eval_fit: {message}");
    std::process::exit(2)
}

/// The positions of every game, in order, each game's searches (if any) on a thread of its
/// own share of the games, so that the targets do not depend on the number of threads.
fn collect_all(games: &[(Rule, String)], search_nodes: Option<u64>) -> Vec<Sample> {
    let threads = if search_nodes.is_some() {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        1
    };
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut samples: Vec<Sample> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                scope.spawn(move || {
                    let mut tt = search_nodes.map(|_| TranspositionTable::with_bytes(TT_BYTES));
                    let mut samples = Vec::new();
                    for game in (t..games.len()).step_by(threads) {
                        let (rule, line) = &games[game];
                        samples.extend(collect(*rule, game, line, search_nodes.zip(tt.as_mut())));
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if search_nodes.is_some() && n.is_multiple_of(100) {
                            eprintln!("searched the positions of {n} of {} games", games.len());
                        }
                    }
                    samples
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a fitting thread panicked")).collect()
    });
    // Stable: each game's positions keep their order.
    samples.sort_by_key(|s| s.game);
    samples
}

/// The positions of one SGF game record, with the game's result as their targets or, given a
/// node count and a table, the score of a search that many nodes long.
fn collect(
    rule: Rule,
    game: usize,
    line: &str,
    mut search_with: Option<(u64, &mut TranspositionTable)>,
) -> Vec<Sample> {
    let winner = if line.contains("RE[B+") {
        Some(Color::Black)
    } else if line.contains("RE[W+") {
        Some(Color::White)
    } else {
        None
    };
    let moves: Vec<(usize, usize)> = line
        .split(';')
        .filter_map(|node| node.strip_prefix("B[").or_else(|| node.strip_prefix("W[")))
        .filter_map(|m| {
            let b = m.as_bytes();
            let x = b.first()?.checked_sub(b'a')?;
            let y = b.get(1)?.checked_sub(b'a')?;
            Some((usize::from(x), usize::from(y)))
        })
        .collect();
    let mut samples = Vec::new();
    if let Some((_, tt)) = &mut search_with {
        tt.clear();
    }
    let mut board = Board::<Bits256>::new(rule);
    for (ply, &(x, y)) in moves.iter().enumerate() {
        let me = board.side_to_move();
        let quiet =
            board.winning_cells(me).is_empty() && board.winning_cells(me.opponent()).is_empty();
        if ply >= 6 && ply + 1 < moves.len() && quiet {
            let target = match &mut search_with {
                Some((nodes, tt)) => {
                    let limits = Limits::nodes(*nodes);
                    let score = search(&board, tt, limits, &mut |_| {}).score();
                    (!is_decisive(score)).then(|| sigmoid(f64::from(score) / SCALE))
                }
                None => Some(match winner {
                    Some(c) if c == me => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                }),
            };
            if let Some(target) = target {
                samples.push(Sample { game, target, counts: counts(rule, &board) });
            }
        }
        if board.try_play_at(x, y).is_err() {
            fail(&format!("an illegal move in: {line}"));
        }
    }
    samples
}

/// The counts of one position, for the side to move and then the opponent: the patterns and
/// classes of the codes in the evaluation's terms ([`code_terms`]; a code's prior worth is
/// the sum of its patterns' and its class's weights).
fn counts(rule: Rule, board: &Board<Bits256>) -> [f64; FEATURES] {
    let mut counts = [0.0; FEATURES];
    code_terms(board, |colour, role, pcode, _| {
        let row = match role {
            Role::ToMove => 0,
            Role::Waiting => 1,
        };
        let patterns = patterns_of(pcode);
        for p in patterns {
            counts[row * PATTERNS + p as usize] += 1.0;
        }
        if let Some(combo) = combo_of(patterns, rule.restricts(colour)) {
            counts[2 * PATTERNS + row * COMBOS + combo as usize] += 1.0;
        }
    });
    counts
}

/// The evaluation with `params` (the opponent's counts subtract).
fn eval(params: &[f64], s: &Sample) -> f64 {
    let terms = s.counts.iter().zip(params).enumerate();
    let sum: f64 = terms.map(|(i, (c, w))| if opponents(i) { -c * w } else { c * w }).sum();
    params[FEATURES] + sum
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x.clamp(-50.0, 50.0)).exp())
}

/// Mean squared error of the predicted results against the targets.
fn error(params: &[f64], samples: &[&Sample]) -> f64 {
    let sum: f64 =
        samples.iter().map(|s| (s.target - sigmoid(eval(params, s) / SCALE)).powi(2)).sum();
    sum / samples.len() as f64
}
