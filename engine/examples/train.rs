//! Fits the learned move scores ([`mnk_engine::pattern::policy`]) to the moves mnk's own
//! searches chose, on positions written by `pbrain-mnk datagen`; see `docs/learning.md`.
//!
//! ```text
//! cargo run --release -p mnk-engine --example train -- [--epochs N] [--write PATH] DATA...
//! ```
//!
//! Every position whose chosen move is among the search's candidate cells (renju's forbidden
//! points left out for black) is one sample: the candidates' features and which one was
//! chosen. A softmax over the candidates' scores is fitted by Adam on mini-batches to the
//! cross-entropy of the chosen move, with a little L2 weight decay (features that never
//! occur stay at 0). Every fifth game is held out whole (a game's positions share most of
//! their stones). The trainer prints, for the held-out positions, the cross-entropy and
//! how often the chosen move is the first and among the first three by the learned scores —
//! and, for comparison, by the hand-set threat values the search used before
//! (`2 · threat_value(mine) + threat_value(theirs)`). With `--write` it writes the weights
//! as the Rust file `engine/src/pattern/policy_weights.rs` is.
//!
//! Deterministic: the same data and options give the same weights.

use std::str::FromStr;

use mnk_engine::board::Board;
use mnk_engine::game::Game;
use mnk_engine::movegen::candidates;
use mnk_engine::notation::parse_moves;
use mnk_engine::pattern::keys::LineState;
use mnk_engine::pattern::policy::{ACTIVE, FEATURES, Place, WEIGHT_SCALE, features};
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::search::threats::threat_value;
use mnk_engine::size::{BoardSize, Size};

/// Positions per Adam step.
const BATCH: usize = 256;
/// Adam's step size, in nats.
const STEP: f64 = 0.01;
/// Weight decay per step, relative to the weight.
const DECAY: f64 = 1e-4;

/// The positions, their candidates packed one after another.
#[derive(Default)]
struct Samples {
    /// Each candidate's features.
    features: Vec<[u16; ACTIVE]>,
    /// Each candidate's old ordering key (the hand-set threat values).
    baseline: Vec<i64>,
    /// Per position: its first candidate, its candidate count, the chosen one's place among
    /// them, and whether it is held out.
    positions: Vec<Position>,
}

#[derive(Clone, Copy)]
struct Position {
    first: usize,
    count: usize,
    chosen: usize,
    held_out: bool,
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
    eprintln!("train: {message}");
    std::process::exit(2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut epochs, mut write, mut files) = (30usize, None::<String>, Vec::new());
    let command: Vec<String> = std::env::args().skip(1).collect();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--epochs" => {
                let n = args.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0);
                epochs = n.unwrap_or_else(|| fail("--epochs needs a count above 0"));
            }
            "--write" => write = Some(args.next().unwrap_or_else(|| fail("--write needs a path"))),
            _ if arg.starts_with("--") => fail(&format!("unknown option {arg}")),
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        eprintln!("usage: train [--epochs N] [--write PATH] DATA...");
        std::process::exit(2);
    }
    let mut samples = Samples::default();
    let mut made_by = Vec::new();
    for (number, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for (line_number, line) in text.lines().enumerate() {
            if let Some(command) = line.strip_prefix("# pbrain-mnk datagen") {
                made_by.push(format!("{path}: pbrain-mnk datagen{command}"));
            }
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if let Err(e) = samples.add(line, number) {
                fail(&format!("{path}:{}: {e}", line_number + 1));
            }
        }
    }
    let (train, held_out): (Vec<usize>, Vec<usize>) =
        (0..samples.positions.len()).partition(|&i| !samples.positions[i].held_out);
    if train.is_empty() || held_out.is_empty() {
        fail("too few games (every fifth is held out)");
    }
    say!(
        "positions {} (training {}, held out {})",
        samples.positions.len(),
        train.len(),
        held_out.len()
    );
    let (top1, top3) = samples.baseline_accuracy(&held_out);
    say!("hand-set threat values: held out top-1 {:.4} top-3 {:.4}", top1, top3);

    let mut weights = vec![0.0f64; FEATURES];
    let (mut m, mut v) = (vec![0.0; FEATURES], vec![0.0; FEATURES]);
    let (beta1, beta2) = (0.9_f64, 0.999_f64);
    let mut rng = SplitMix64::new(1);
    let mut order = train.clone();
    let mut step = 0;
    let mut gradient = vec![0.0; FEATURES];
    for epoch in 1..=epochs {
        // Fisher–Yates with the crate's generator, so the fit is reproducible.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for batch in order.chunks(BATCH) {
            gradient.iter_mut().for_each(|g| *g = 0.0);
            for &p in batch {
                samples.add_gradient(p, &weights, &mut gradient);
            }
            step += 1;
            let n = batch.len() as f64;
            for i in 0..FEATURES {
                let g = gradient[i] / n + DECAY * weights[i];
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                let m_hat = m[i] / (1.0 - beta1.powi(step));
                let v_hat = v[i] / (1.0 - beta2.powi(step));
                weights[i] -= STEP * m_hat / (v_hat.sqrt() + 1e-8);
            }
        }
        let (loss, top1, top3) = samples.evaluate(&held_out, &weights);
        let (train_loss, _, _) = samples.evaluate(&train, &weights);
        say!(
            "epoch {epoch}: training loss {train_loss:.4}, held out loss {loss:.4} top-1 {top1:.4} top-3 {top3:.4}"
        );
    }
    let rounded: Vec<i32> = weights.iter().map(|w| (w * WEIGHT_SCALE).round() as i32).collect();
    if let Some(path) = write {
        let text = weights_file(&rounded, &command, &made_by);
        std::fs::write(&path, text).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        say!("wrote {path}");
    }
}

impl Samples {
    /// Adds the position of one `datagen` line (`GAME SIZE RULE MOVES SCORE BEST RESULT`)
    /// from file number `file`.
    fn add(&mut self, line: &str, file: usize) -> Result<(), String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [game, size, rule, moves, _score, best, _result] = fields[..] else {
            return Err(format!("expected 7 fields, found {}", fields.len()));
        };
        let game: usize = game.parse().map_err(|e| format!("game number: {e}"))?;
        let size = BoardSize::from_str(size).map_err(|e| format!("size: {e}"))?;
        let rule = Rule::from_str(rule).map_err(|e| format!("rule: {e}"))?;
        let position = Game::from_notation(size, rule, moves).map_err(|e| format!("moves: {e}"))?;
        let best = *parse_moves(best)
            .map_err(|e| format!("best move: {e}"))?
            .first()
            .ok_or("no best move")?;
        let best = position.geometry().cell(best.0, best.1).ok_or("best move off the board")?;
        // Every fifth game of each file held out whole; files count apart.
        let held_out = (game + file).is_multiple_of(5);
        mnk_engine::with_game!(&position, b => self.add_board(b, best, held_out));
        Ok(())
    }

    fn add_board<B: Size>(
        &mut self,
        board: &Board<B>,
        best: mnk_engine::geometry::Cell,
        held_out: bool,
    ) {
        let cells = candidates(board);
        let cells =
            if board.renju_black_to_move() { cells - board.forbidden_among(cells) } else { cells };
        if !cells.contains(best) {
            return;
        }
        let me = board.side_to_move();
        let first = self.features.len();
        let mut chosen = 0;
        for (i, cell) in cells.iter().enumerate() {
            let lines = board.lines();
            let (Some(mine), Some(theirs)) =
                (lines.cell_patterns(cell, me), lines.cell_patterns(cell, me.opponent()))
            else {
                return;
            };
            if cell == best {
                chosen = i;
            }
            let place = Place::of(board.geometry(), cell, board.history());
            self.features.push(features(&mine, &theirs, place));
            self.baseline.push(2 * threat_value(&mine) + threat_value(&theirs));
        }
        let count = self.features.len() - first;
        self.positions.push(Position { first, count, chosen, held_out });
    }

    /// Each candidate's score with `weights`.
    fn logits(&self, p: Position, weights: &[f64]) -> Vec<f64> {
        self.features[p.first..p.first + p.count]
            .iter()
            .map(|f| f.iter().map(|&i| weights[usize::from(i)]).sum())
            .collect()
    }

    /// Adds position `i`'s gradient of the cross-entropy to `gradient`.
    fn add_gradient(&self, i: usize, weights: &[f64], gradient: &mut [f64]) {
        let p = self.positions[i];
        let probabilities = softmax(&self.logits(p, weights));
        for (j, (f, q)) in
            self.features[p.first..p.first + p.count].iter().zip(probabilities).enumerate()
        {
            let d = q - if j == p.chosen { 1.0 } else { 0.0 };
            for &k in f {
                gradient[usize::from(k)] += d;
            }
        }
    }

    /// Mean cross-entropy, top-1 and top-3 rates over `positions`.
    fn evaluate(&self, positions: &[usize], weights: &[f64]) -> (f64, f64, f64) {
        let (mut loss, mut top1, mut top3) = (0.0, 0, 0);
        for &i in positions {
            let p = self.positions[i];
            let logits = self.logits(p, weights);
            let probabilities = softmax(&logits);
            loss -= probabilities[p.chosen].max(1e-12).ln();
            let rank = rank(&logits, p.chosen);
            top1 += usize::from(rank == 0);
            top3 += usize::from(rank < 3);
        }
        let n = positions.len() as f64;
        (loss / n, top1 as f64 / n, top3 as f64 / n)
    }

    /// Top-1 and top-3 rates of the hand-set ordering over `positions`.
    fn baseline_accuracy(&self, positions: &[usize]) -> (f64, f64) {
        let (mut top1, mut top3) = (0, 0);
        for &i in positions {
            let p = self.positions[i];
            let keys: Vec<f64> =
                self.baseline[p.first..p.first + p.count].iter().map(|&k| k as f64).collect();
            let rank = rank(&keys, p.chosen);
            top1 += usize::from(rank == 0);
            top3 += usize::from(rank < 3);
        }
        let n = positions.len() as f64;
        (top1 as f64 / n, top3 as f64 / n)
    }
}

/// The place of `keys[chosen]` when sorted highest first, ties going to the earlier (lower)
/// cell as the search's ordering breaks them.
fn rank(keys: &[f64], chosen: usize) -> usize {
    let key = keys[chosen];
    keys.iter().enumerate().filter(|&(j, &k)| k > key || (k == key && j < chosen)).count()
}

fn softmax(logits: &[f64]) -> Vec<f64> {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logits.iter().map(|&z| (z - top).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

/// The Rust source of the weights file: the training command and how its data were made
/// (`made_by`: each file's `datagen` command line), then the weights.
fn weights_file(weights: &[i32], command: &[String], made_by: &[String]) -> String {
    let mut text = String::from(
        "//! Generated by `engine/examples/train.rs`; do not edit (see `docs/learning.md`):\n//!\n",
    );
    text.push_str(&format!(
        "//! ```text\n//! cargo run --release -p mnk-engine --example train -- {}\n//! ```\n",
        command.join(" ")
    ));
    if !made_by.is_empty() {
        text.push_str("//!\n//! from data made by\n//!\n//! ```text\n");
        for line in made_by {
            text.push_str(&format!("//! {line}\n"));
        }
        text.push_str("//! ```\n");
    }
    text.push('\n');
    text.push_str(
        "/// The move-score weights (see [`super::policy`]), in thousandths of a nat: the \
         side to move's\n/// twelve patterns and 625 combinations, the opponent's, the six \
         distance classes from the\n/// last move and the six from the side to move's own \
         last move, the 144 pattern pairs\n/// and the 144 threat-class pairs.\n",
    );
    text.push_str(&format!(
        "#[rustfmt::skip]\npub const POLICY_WEIGHTS: [i32; {}] = [\n",
        weights.len()
    ));
    for row in weights.chunks(16) {
        let row: Vec<String> = row.iter().map(i32::to_string).collect();
        text.push_str(&format!("    {},\n", row.join(", ")));
    }
    text.push_str("];\n");
    text
}
