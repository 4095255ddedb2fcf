//! Fits the evaluation's combination worths ([`COMBINATION_WORTH`]) to self-play positions
//! written by `pbrain-mnk datagen`; see `docs/learning.md`.
//!
//! ```text
//! cargo run --release -p mnk-engine --example eval_fit -- [--passes N] [--lambda L] [--write PATH] DATA...
//! ```
//!
//! Every position on a gomoku board in which neither side can make five, and whose search
//! score is not a proven win or loss (the threat searches decide those, not the
//! evaluation), is one sample. Its target for the side to move is `λ · result + (1 − λ) ·
//! σ(score / SCALE)`: the game's result and the search's own judgement (λ = `--lambda`,
//! 0.5). The evaluation is linear in the worths: the pattern part (fixed, see
//! [`PATTERN_POTENTIAL`]) plus, over the empty cells, the side to move's combination worths
//! with its own role's column less the opponent's with the waiting side's. Full-batch Adam
//! minimises the cross-entropy of `σ(eval / SCALE)` against the targets, starting from the
//! [`prior`] (the combination classes the evaluation had before it learned) with a little L2
//! pull towards it; each worth stays within what keeps a cell's total at least 0 and
//! [`CAP`], and the empty combination and those of one pattern stay 0 (so the empty board's
//! lead does not move, and a lone pattern is worth its `PATTERN_POTENTIAL`). Every fifth
//! game of each file is held out whole (a game's positions share most of their stones). The
//! fitter prints the held-out loss of the least possible (the targets' entropy), of the
//! searches' scores, of the worths built in, of the prior, and of the
//! fit as it goes, per rule at the end. With `--write` it writes the worths as the Rust file
//! `engine/src/pattern/combo_weights.rs` is.
//!
//! Deterministic: the same data and options give the same worths.

use std::str::FromStr;

use mnk_engine::board::Board;
use mnk_engine::eval::{FITTED_EMPTY_BOARD_LEAD, TEMPO};
use mnk_engine::game::Game;
use mnk_engine::pattern::combo::{
    COMBINATIONS, COUNTED, combination_of, combinations, forbids_doubles,
};
use mnk_engine::pattern::combo_weights::COMBINATION_WORTH;
use mnk_engine::pattern::keys::LineState;
use mnk_engine::pattern::weights::{PATTERN_POTENTIAL, POTENTIAL_SCALE};
use mnk_engine::rules::Rule;
use mnk_engine::score::is_decisive;
use mnk_engine::size::{BoardSize, Size};

/// Evaluation units per unit of the logistic's argument.
const SCALE: f64 = 600.0;
/// Adam's step size, in potential units.
const STEP: f64 = 2.0;
/// L2 decay towards the prior per pass, relative to the distance.
const DECAY: f64 = 1e-8;
/// The largest worth, in potential units (the fours' pattern worth).
const CAP: f64 = 1200.0;
/// Parameters: each combination's worth for the side to move, then for the waiting side.
const PARAMS: usize = 2 * COMBINATIONS;

/// One position.
struct Sample {
    rule: Rule,
    held_out: bool,
    /// The game's result and the search's score, for the side to move.
    result: f64,
    score: f64,
    /// The evaluation without the combinations, in evaluation units.
    base: f64,
    /// The combinations' counts: (parameter, ± count / `POTENTIAL_SCALE`).
    terms: Vec<(u16, f32)>,
}

/// `println!` that ends the program with a message, not a panic, when stdout fails.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            fail(&format!("output error: {e}"));
        }
    }};
}

fn fail(message: &str) -> ! {
    eprintln!("eval_fit: {message}");
    std::process::exit(2)
}

fn main() {
    let command: Vec<String> = std::env::args().skip(1).collect();
    let mut args = command.iter();
    let (mut passes, mut lambda, mut write, mut files) = (1000usize, 0.5f64, None, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--passes" => {
                let n = args.next().and_then(|n| n.parse().ok());
                passes = n.unwrap_or_else(|| fail("--passes needs a count (0: the prior)"));
            }
            "--lambda" => {
                let l =
                    args.next().and_then(|l| l.parse().ok()).filter(|l| (0.0..=1.0).contains(l));
                lambda = l.unwrap_or_else(|| fail("--lambda needs a number from 0 to 1"));
            }
            "--write" => write = Some(args.next().unwrap_or_else(|| fail("--write needs a path"))),
            _ if arg.starts_with("--") => fail(&format!("unknown option {arg}")),
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        eprintln!("usage: eval_fit [--passes N] [--lambda L] [--write PATH] DATA...");
        std::process::exit(2);
    }
    let mut samples = Vec::new();
    let mut made_by = Vec::new();
    for (number, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for (line_number, line) in text.lines().enumerate() {
            if let Some(command) = line.strip_prefix("# pbrain-mnk datagen") {
                made_by.push(format!("pbrain-mnk datagen{command} > {path}"));
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            match sample(line, number) {
                Ok(s) => samples.extend(s),
                Err(e) => fail(&format!("{path}:{}: {e}", line_number + 1)),
            }
        }
    }
    let (train, held_out): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| !s.held_out);
    if train.is_empty() || held_out.is_empty() {
        fail("too few games (every fifth is held out)");
    }
    say!("positions {} (training {}, held out {})", samples.len(), train.len(), held_out.len());
    let target = |s: &Sample| lambda * s.result + (1.0 - lambda) * sigmoid(s.score / SCALE);
    let built_in: Vec<f64> = (0..PARAMS)
        .map(|i| f64::from(COMBINATION_WORTH[i % COMBINATIONS][i / COMBINATIONS]))
        .collect();
    let prior = prior();
    let mut params = prior.clone();
    say!(
        "held out loss: built-in worths {:.5}, the prior {:.5}",
        loss(&built_in, &held_out, target),
        loss(&prior, &held_out, target)
    );
    // For scale: the least loss possible (the targets' own entropy), and the loss of the
    // searches' scores themselves as predictions.
    let floor = loss_of(&held_out, target, |s| target(s));
    let searched = loss_of(&held_out, target, |s| sigmoid(s.score / SCALE));
    say!("held out loss: least possible {floor:.5}, the searches' scores {searched:.5}");
    let (low, high) = bounds();
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let (beta1, beta2) = (0.9_f64, 0.999_f64);
    for pass in 1..=passes {
        let mut gradient = vec![0.0; PARAMS];
        for s in &train {
            let d = sigmoid(predict(&params, s) / SCALE) - target(s);
            for &(i, c) in &s.terms {
                gradient[usize::from(i)] += d * f64::from(c) / SCALE;
            }
        }
        for i in 0..PARAMS {
            let g = gradient[i] / train.len() as f64 + DECAY * (params[i] - prior[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(pass as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(pass as i32));
            params[i] = (params[i] - STEP * m_hat / (v_hat.sqrt() + 1e-8)).clamp(low[i], high[i]);
        }
        if pass % 100 == 0 || pass == passes {
            say!(
                "pass {pass}: training loss {:.5}, held out {:.5}",
                loss(&params, &train, target),
                loss(&params, &held_out, target)
            );
        }
    }
    for rule in Rule::ALL {
        let of_rule: Vec<&Sample> = held_out.iter().copied().filter(|s| s.rule == rule).collect();
        if !of_rule.is_empty() {
            say!(
                "{rule}: held out {} positions, loss built-in {:.5}, fitted {:.5}",
                of_rule.len(),
                loss(&built_in, &of_rule, target),
                loss(&params, &of_rule, target)
            );
        }
    }
    let rounded: Vec<i32> = params.iter().map(|w| w.round() as i32).collect();
    if let Some(path) = write {
        let text = weights_file(&rounded, &command, &made_by);
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        say!("wrote {path}");
    }
}

/// The sample of one `datagen` line (`GAME SIZE RULE MOVES SCORE BEST RESULT`) from file
/// number `file`, if the position is one the fit uses.
fn sample(line: &str, file: usize) -> Result<Option<Sample>, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [game, size, rule, moves, score, _best, result] = fields[..] else {
        return Err(format!("expected 7 fields, found {}", fields.len()));
    };
    let game: usize = game.parse().map_err(|e| format!("game number: {e}"))?;
    let size = BoardSize::from_str(size).map_err(|e| format!("size: {e}"))?;
    let rule = Rule::from_str(rule).map_err(|e| format!("rule: {e}"))?;
    let score: i32 = score.parse().map_err(|e| format!("score: {e}"))?;
    let result: f64 = result.parse().map_err(|e| format!("result: {e}"))?;
    if is_decisive(score) {
        return Ok(None);
    }
    let position = Game::from_notation(size, rule, moves).map_err(|e| format!("moves: {e}"))?;
    let held_out = (game + file).is_multiple_of(5);
    let features = mnk_engine::with_game!(&position, b => features(b));
    Ok(features.map(|(base, terms)| Sample {
        rule,
        held_out,
        result,
        score: f64::from(score),
        base,
        terms,
    }))
}

/// The evaluation of `board` without its combinations' worths, and their counts; `None` for
/// a board without pattern sums or a position in which a side can make five.
fn features<B: Size>(board: &Board<B>) -> Option<(f64, Vec<(u16, f32)>)> {
    let me = board.side_to_move();
    if !(board.winning_cells(me).is_empty() && board.winning_cells(me.opponent()).is_empty()) {
        return None;
    }
    let lines = board.lines();
    let lead = lines.empty_board_lead()?;
    let mut potential = -(lead - FITTED_EMPTY_BOARD_LEAD).max(0);
    let mut counts = vec![0i32; PARAMS];
    for cell in board.empty_cells().iter() {
        for (role, color, sign) in [(0, me, 1), (1, me.opponent(), -1)] {
            let patterns = lines.cell_patterns(cell, color)?;
            potential +=
                sign * patterns.iter().map(|&p| PATTERN_POTENTIAL[role][p as usize]).sum::<i32>();
            if let Some(rank) = combination_of(patterns, forbids_doubles(board.rule(), color)) {
                counts[role * COMBINATIONS + rank] += sign;
            }
        }
    }
    let scale = f64::from(POTENTIAL_SCALE);
    let base = f64::from(TEMPO) + f64::from(potential) / scale;
    let terms = (0..PARAMS)
        .filter(|&i| counts[i] != 0 && i % COMBINATIONS != 0)
        .map(|i| (i as u16, counts[i] as f32 / POTENTIAL_SCALE as f32))
        .collect();
    Some((base, terms))
}

/// The worths the fit starts from and decays towards: those of the six combination classes
/// the evaluation had before it learned (a hand-named legend of the strong combinations,
/// with worths fitted to game results). Combinations the data rarely holds keep these: a
/// cell where a stone makes a four-three is worth as much as before, though positions with
/// one are mostly proven wins, which the fit leaves out.
fn prior() -> Vec<f64> {
    // Double four, four-three, double three, four-two, three-two, double two; for the side to
    // move, then for the waiting side.
    const CLASSES: [[f64; 6]; 2] =
        [[1200.0, 1200.0, 223.0, 861.0, 297.0, 81.0], [1200.0, 1200.0, 458.0, 693.0, 249.0, 49.0]];
    let mut prior = vec![0.0; PARAMS];
    for (rank, counts) in combinations().enumerate() {
        let (fours, threes) = (counts[4], counts[3]);
        let twos = counts[2] + counts[1];
        let class = match () {
            _ if fours >= 2 => Some(0),
            _ if fours >= 1 && threes >= 1 => Some(1),
            _ if threes >= 2 => Some(2),
            _ if fours >= 1 && twos >= 1 => Some(3),
            _ if threes >= 1 && twos >= 1 => Some(4),
            _ if twos >= 2 => Some(5),
            _ => None,
        };
        if let Some(class) = class {
            for role in 0..2 {
                prior[role * COMBINATIONS + rank] = CLASSES[role][class];
            }
        }
    }
    prior
}

/// Each worth's least and greatest value: a cell's total (its patterns' worths and its
/// combination's) stays at least 0, and the empty combination and those of a single pattern
/// stay 0 (their worth is the patterns', fixed: left free, the fit trades them against the
/// patterns' and made a lone open two worth nothing).
fn bounds() -> (Vec<f64>, Vec<f64>) {
    let (mut low, mut high) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    for (rank, counts) in combinations().enumerate() {
        for role in 0..2 {
            let patterns: i32 = counts
                .iter()
                .zip(&COUNTED)
                .map(|(&n, &p)| i32::from(n) * PATTERN_POTENTIAL[role][p as usize])
                .sum();
            // A single pattern is the pattern's worth alone (`PATTERN_POTENTIAL`).
            if counts.iter().sum::<u8>() >= 2 {
                low[role * COMBINATIONS + rank] = -f64::from(patterns);
                high[role * COMBINATIONS + rank] = CAP;
            }
        }
    }
    (low, high)
}

/// The evaluation of `s` with `params`, in evaluation units.
fn predict(params: &[f64], s: &Sample) -> f64 {
    s.base + s.terms.iter().map(|&(i, c)| params[usize::from(i)] * f64::from(c)).sum::<f64>()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x.clamp(-50.0, 50.0)).exp())
}

/// Mean cross-entropy of the evaluation with `params` against the targets.
fn loss(params: &[f64], samples: &[&Sample], target: impl Fn(&Sample) -> f64) -> f64 {
    loss_of(samples, target, |s| sigmoid(predict(params, s) / SCALE))
}

/// Mean cross-entropy of the predictions `predicted` against the targets.
fn loss_of(
    samples: &[&Sample],
    target: impl Fn(&Sample) -> f64,
    predicted: impl Fn(&Sample) -> f64,
) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let (p, t) = (predicted(s).clamp(1e-12, 1.0 - 1e-12), target(s));
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len() as f64
}

/// The Rust source of the worths file: the fitting command and how its data were made
/// (`made_by`: each file's `datagen` command), then the worths with their combinations.
fn weights_file(params: &[i32], command: &[String], made_by: &[String]) -> String {
    let mut text = String::from(
        "//! Generated by `engine/examples/eval_fit.rs`; do not edit (see `docs/learning.md`):\n//!\n",
    );
    text.push_str("//! ```text\n");
    for line in made_by {
        text.push_str(&format!("//! {line}\n"));
    }
    text.push_str(&format!(
        "//! cargo run --release -p mnk-engine --example eval_fit -- {}\n//! ```\n\n",
        command.join(" ")
    ));
    text.push_str(
        "/// Worth of each combination (see [`super::combo`]), in the order of\n\
         /// [`super::combo::combinations`], for the side to move and for the waiting side, in the\n\
         /// units of [`super::weights::PATTERN_POTENTIAL`] and added to its sums. The comment\n\
         /// names the counted patterns.\n",
    );
    text.push_str(&format!(
        "#[rustfmt::skip]\npub const COMBINATION_WORTH: [[i32; 2]; {COMBINATIONS}] = [\n"
    ));
    for (rank, counts) in combinations().enumerate() {
        let names: Vec<String> = counts
            .iter()
            .zip(&COUNTED)
            .filter(|&(&n, _)| n > 0)
            .map(|(&n, p)| if n == 1 { format!("{p:?}") } else { format!("{n} {p:?}") })
            .collect();
        let names = if names.is_empty() { "nothing".to_string() } else { names.join(", ") };
        text.push_str(&format!(
            "    [{}, {}], // {names}\n",
            params[rank],
            params[COMBINATIONS + rank]
        ));
    }
    text.push_str("];\n");
    text
}
