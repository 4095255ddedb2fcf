//! Fits the learned evaluation tables (`engine/src/eval/learned.rs`; see
//! `docs/learning.md`): a worth per pattern code, role and table (freestyle, standard,
//! renju's black, renju's white), and a worth per pair of the two sides' threat flags and
//! table, by logistic regression on mnk's self-play games.
//!
//! ```text
//! cargo run --release -p mnk-engine --example train_eval -- pack POSITIONS > GAMES
//! cargo run --release -p mnk-engine --example train_eval -- fit [OPTIONS] GAMES... > learned.rs
//! ```
//!
//! `pack` turns a `pbrain-mnk datagen` file (a line per position, each with every move
//! before it) into a line per game, about a twentieth of the size, which is what the
//! repository keeps (gzipped; both subcommands read `.gz` files as they are):
//!
//! ```text
//! GAME SIZE RULE RESULT OPENING MOVES
//! 7 15 renju 0 h8,i9,g7 j10:-35,k11:40,...
//! ```
//!
//! `RESULT` is black's (1, 0.5, 0), `OPENING` the stones before the first search, `MOVES`
//! each searched move with its search's score for the side that played it.
//!
//! `fit` replays the games; every position in which neither side can make five is a sample
//! whose target is `λ · result + (1 − λ) · σ(score / 600)` for the side to move, and whose
//! prediction is `σ(eval / 600)`, `eval` being the engine's evaluation with the tables being
//! fitted. Its features are the engine's own terms (`mnk_engine::eval::code_terms`: every
//! empty cell's code for the side to move with its to-move worth, +1, and for the opponent
//! with its waiting worth, −1), less those of a larger board's extra empty-board lead where
//! the engine takes it off (`mnk_engine::eval::size_lead`), and the threat-flag table's entry
//! for the two sides' flags (`mnk_engine::eval::flags`): `TEMPO + Σ terms / 4 + flags`. A test
//! holds this to `mnk_engine::eval::evaluate` on thousands of positions of every rule with
//! learned tables.
//! Adam minimises the cross-entropy plus `pull / 2 · Σ (w − prior)²`, the pull towards the
//! worths before any learning (`prior_worth`), so that codes seen rarely keep sane values.
//! A game that repeats an earlier one (self-play from a repeated opening repeats itself) is
//! left out. One game in ten (by a hash of its moves) is held out. Every computation runs in a fixed
//! order, so the same games and options give the same file byte for byte, on any machine.
//!
//! Options: `--passes N` (400), `--lambda L` (0.5), `--pull P` (1e-9), `--step S` (2.0,
//! Adam's step in potential units), `--skip-decisive` (leave out the positions whose search
//! found a forced win or loss: the search reads those, not the evaluation), `--quiet` (fit
//! on the quiet positions only: those without a mate score, in which the move played neither
//! makes nor blocks a four), `--scale N|auto` (600: the prediction is `σ(eval / N)`; `auto`
//! fits N to the training positions with the worths before any learning, and the fit goes on
//! at that N), `--no-colour-term` (renju's fit has a term for the colour to move, which
//! takes up the side favoured by the openings and is left out of the table; this leaves it
//! out of the fit too), `--rules LIST` (freestyle,standard,renju: the rules fitted; the
//! others keep the prior worths), `--tables LIST` (codes,flags: what is fitted; the codes
//! left out keep the prior worths, the flag tables left out stay empty).
//!
//! Every position that can be a sample is one, the tactical ones (a mate score, or a move
//! that makes or blocks a four) included; the losses are reported on the training positions
//! and on the held-out ones, quiet and tactical apart, so a fit that only learns tactics
//! shows it.

use std::io::Write;

#[path = "shared/games.rs"]
mod games;
use games::{Distinct, fail, game_key, is_held_out, is_quiet, open, parse_game};

use mnk_engine::board::Board;
use mnk_engine::color::Color;
use mnk_engine::eval::flags::{FLAG_ENTRIES, flag_index, side_flags};
use mnk_engine::eval::weights::{EVAL_TABLES, POTENTIAL_SCALE, Role, eval_table};
use mnk_engine::eval::worth::{code_worth, flag_table, prior_worth};
use mnk_engine::eval::{TEMPO, code_terms, size_lead};
use mnk_engine::game::Game;
use mnk_engine::geometry::Cell;
use mnk_engine::notation::{Point, format_pos};
use mnk_engine::pattern::code::PCODES;
use mnk_engine::pattern::keys::PatternState;
use mnk_engine::pattern::pair::ThreatKind;
use mnk_engine::rules::Rule;
use mnk_engine::score::{Score, is_decisive};
use mnk_engine::size::BoardSize;
use mnk_engine::storage::Storage;
use mnk_engine::with_game;

/// The evaluation's scale in the prediction `σ(eval / SCALE)`, and in the targets' reading of
/// the search's scores, unless `--scale` says otherwise.
const SCALE: f64 = 600.0;
/// The codes' weights: tables × roles × codes.
const CODE_WEIGHTS: usize = EVAL_TABLES * 2 * PCODES;
/// The renju colour term's weight (in evaluation units, for black to move; the table leaves
/// it out).
const COLOUR_WEIGHT: usize = CODE_WEIGHTS + EVAL_TABLES * FLAG_ENTRIES;
/// All weights: the codes', the threat-flag tables' (tables × flag pairs, in evaluation
/// units), then the colour term.
const WEIGHTS: usize = COLOUR_WEIGHT + 1;
/// The gradient is summed over this many fixed slices of the samples, then the slices in
/// order: the sums do not depend on the number of threads.
const SLICES: usize = 16;
/// The rules with learned tables, for the figures.
const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];
/// The rule and colour whose codes each learned table prices, in the order of
/// [`eval_table`] (freestyle's and standard's tables serve both colours).
const TABLE_OWNERS: [(Rule, Color); EVAL_TABLES] = [
    (Rule::Freestyle, Color::Black),
    (Rule::Standard, Color::Black),
    (Rule::Renju, Color::Black),
    (Rule::Renju, Color::White),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("pack") if args.len() == 2 => pack(&args[1]),
        Some("fit") => fit(&args[1..]),
        _ => fail("usage: train_eval pack POSITIONS | train_eval fit [OPTIONS] GAMES..."),
    }
}

/// One game being packed: its number, size, rule, opening, searched moves, and the result
/// for the side to move at its first position.
struct Packing {
    game: String,
    size: String,
    rule: String,
    opening: Vec<String>,
    moves: Vec<String>,
    first_result: String,
    next_moves: String,
}

/// `pack`: a datagen file to a line per game on stdout.
fn pack(path: &str) {
    let games = pack_lines(open(path)).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for game in games {
        writeln!(out, "{game}").unwrap_or_else(|e| fail(&format!("writing: {e}")));
    }
}

/// The game lines of datagen's position lines (`#` lines are skipped).
fn pack_lines(lines: impl Iterator<Item = String>) -> Result<Vec<String>, String> {
    let mut games = Vec::new();
    let mut current: Option<Packing> = None;
    let emit = |game: Packing| {
        // The side to move at the first position is black if the opening has an even number
        // of stones.
        let black_first = game.opening.len().is_multiple_of(2);
        let black = match (game.first_result.as_str(), black_first) {
            ("0.5", _) => "0.5",
            ("1", true) | ("0", false) => "1",
            _ => "0",
        };
        let (opening, moves) = (game.opening.join(","), game.moves.join(","));
        format!("{} {} {} {black} {opening} {moves}", game.game, game.size, game.rule)
    };
    for line in lines.filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(' ').collect();
        let [game, size, rule, moves, score, best, result] = fields[..] else {
            return Err(format!("not a datagen line: {line}"));
        };
        if current.as_ref().is_some_and(|c| c.game != game) {
            games.push(emit(current.take().expect("checked")));
        }
        match &mut current {
            Some(packing) => {
                if packing.next_moves != moves {
                    return Err(format!("game {game} does not follow on at: {line}"));
                }
                packing.moves.push(format!("{best}:{score}"));
                packing.next_moves = format!("{moves},{best}");
            }
            None => {
                current = Some(Packing {
                    game: game.to_string(),
                    size: size.to_string(),
                    rule: rule.to_string(),
                    opening: moves.split(',').map(str::to_string).collect(),
                    moves: vec![format!("{best}:{score}")],
                    first_result: result.to_string(),
                    next_moves: format!("{moves},{best}"),
                });
            }
        }
    }
    games.extend(current.map(emit));
    Ok(games)
}

/// The options of `fit`.
struct Options {
    passes: usize,
    lambda: f64,
    pull: f64,
    step: f64,
    /// Whether positions whose search found a forced win or loss are left out.
    skip_decisive: bool,
    /// Whether only the quiet positions are fitted (the tactical ones are still reported).
    quiet: bool,
    /// The prediction's scale, or `None` to fit it.
    scale: Option<f64>,
    /// Whether renju's fit has its colour term.
    colour_term: bool,
    /// The rules fitted (the others' games are skipped and their tables left to the prior).
    rules: Vec<Rule>,
    /// Whether the codes' worths are fitted (else they keep the prior's).
    codes: bool,
    /// Whether the threat-flag tables are fitted (else they stay empty).
    flags: bool,
}

/// The samples: each a slice of `features` (weight index, coefficient), its target and rule,
/// whether it is held out, tactical and fitted; and the prediction's scale.
struct Samples {
    features: Vec<(u32, f32)>,
    starts: Vec<u32>,
    targets: Vec<f32>,
    rules: Vec<u8>,
    held_out: Vec<bool>,
    /// A mate score, or a move that makes or blocks a four.
    tactical: Vec<bool>,
    /// Fitted: not held out, and quiet if only quiet positions are fitted.
    training: Vec<bool>,
    /// The prediction is `σ(eval / scale)`.
    scale: f64,
}

impl Default for Samples {
    fn default() -> Self {
        Samples {
            features: Vec::new(),
            starts: Vec::new(),
            targets: Vec::new(),
            rules: Vec::new(),
            held_out: Vec::new(),
            tactical: Vec::new(),
            training: Vec::new(),
            scale: SCALE,
        }
    }
}

impl Samples {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn features(&self, i: usize) -> &[(u32, f32)] {
        let end = self.starts.get(i + 1).map_or(self.features.len(), |&e| e as usize);
        &self.features[self.starts[i] as usize..end]
    }

    fn push(&mut self, features: &[(u32, f32)], target: f64, rule: usize, split: Split) {
        self.starts.push(self.features.len() as u32);
        self.features.extend_from_slice(features);
        self.targets.push(target as f32);
        self.rules.push(rule as u8);
        self.held_out.push(split.held_out);
        self.tactical.push(split.tactical);
        self.training.push(split.training);
    }
}

/// Where a sample goes: held out or not, tactical or not, fitted or not.
#[derive(Copy, Clone)]
struct Split {
    held_out: bool,
    tactical: bool,
    training: bool,
}

/// The index of a weight.
fn weight(table: usize, role: Role, pcode: u16) -> usize {
    (table * 2 + role as usize) * PCODES + usize::from(pcode)
}

/// A position's code features, summed into a dense scratch row, `sign` times the engine's
/// terms ([`code_terms`]): +1 for each empty cell's code of the side to move with its
/// to-move worth, −1 for the opponent's with its waiting worth.
fn add_features<B: Storage>(board: &Board<B>, sign: f32, row: &mut [f32]) {
    let rule = board.rule();
    code_terms(board, |colour, role, pcode, term_sign| {
        let table = eval_table(rule, colour).expect("only rules with learned tables are fitted");
        row[weight(table, role, pcode)] += sign * term_sign as f32;
    });
}

/// The index of a threat-flag weight.
fn flag_weight(table: usize, entry: usize) -> usize {
    CODE_WEIGHTS + table * FLAG_ENTRIES + entry
}

/// A position's threat-flag feature: the flag-table entry of the side to move and the
/// waiting side's flags, if the rule has a table.
fn flag_feature<B: Storage>(board: &Board<B>) -> Option<usize> {
    let me = board.side_to_move();
    let table = eval_table(board.rule(), me)?;
    let (mine, theirs) = (side_flags(board, me)?, side_flags(board, me.opponent())?);
    Some(flag_weight(table, flag_index(mine, theirs)))
}

/// The features of a board size's extra lead on the empty board over 15×15, as a dense row:
/// the terms of its empty board less those of the empty 15×15 board where the engine takes
/// the lead off ([`size_lead`]), else none.
fn size_lead_row(size: BoardSize, rule: Rule) -> Vec<f32> {
    let mut row = vec![0.0; WEIGHTS];
    let empty = Game::new(size, rule);
    if with_game!(&empty, b => size_lead(b)) > 0 {
        for (s, sign) in [(size, 1.0), (BoardSize::FIFTEEN, -1.0)] {
            let game = Game::new(s, rule);
            with_game!(&game, b => add_features(b, sign, &mut row));
        }
    }
    row
}

/// A position's features (weight index, coefficient): its code terms less the size lead's
/// `lead`, its threat-flag entry, and under renju with `colour_term` the colour to move (+1
/// black, −1 white). `row` is a zeroed scratch row, left zeroed.
fn position_features(
    game: &Game,
    lead: &[f32],
    colour_term: bool,
    row: &mut [f32],
) -> Vec<(u32, f32)> {
    with_game!(game, b => add_features(b, 1.0, row));
    // The flag tables and the colour term are in evaluation units: their features count as
    // POTENTIAL_SCALE potential units.
    if let Some(flag) = with_game!(game, b => flag_feature(b)) {
        row[flag] += POTENTIAL_SCALE as f32;
    }
    if colour_term && game.rule() == Rule::Renju {
        let sign = if game.side_to_move() == Color::Black { 1.0 } else { -1.0 };
        row[COLOUR_WEIGHT] += sign * POTENTIAL_SCALE as f32;
    }
    let features = row
        .iter()
        .zip(lead)
        .enumerate()
        .filter(|&(_, (&r, &l))| r - l != 0.0)
        .map(|(i, (&r, &l))| (i as u32, r - l))
        .collect();
    row.iter_mut().for_each(|r| *r = 0.0);
    features
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Makes the samples of game lines, each with where it comes from (for messages).
fn samples(lines: impl Iterator<Item = (String, String)>, options: &Options) -> Samples {
    let mut samples = Samples::default();
    let mut row = vec![0.0f32; WEIGHTS];
    let mut lead_rows: Vec<((BoardSize, Rule), Vec<f32>)> = Vec::new();
    let mut game_index = 0usize;
    let mut distinct = Distinct::default();
    for (path, line) in lines.filter(|(_, l)| !l.starts_with('#')) {
        if !distinct.first_time(&line) {
            continue;
        }
        let bad = |what: &str| -> ! { fail(&format!("{path}: {what}: {line}")) };
        let parsed = parse_game(&line).unwrap_or_else(|e| bad(&e));
        let (size, rule, black_result) = (parsed.size, parsed.rule, parsed.black_result);
        let Some(rule_index) = RULES.iter().position(|&r| r == rule) else {
            continue; // no learned table
        };
        if !options.rules.contains(&rule) {
            continue;
        }
        let held_out = is_held_out(&game_key(&line));
        game_index += 1;
        let mut game = Game::from_notation(size, rule, &parsed.opening)
            .unwrap_or_else(|_| bad("a bad opening"));
        let made = lead_rows.iter().position(|(key, _)| *key == (size, rule));
        let index = made.unwrap_or_else(|| {
            lead_rows.push(((size, rule), size_lead_row(size, rule)));
            lead_rows.len() - 1
        });
        let lead = &lead_rows[index].1;
        for &(point, score) in &parsed.moves {
            let me = game.side_to_move();
            let result = if me == Color::Black { black_result } else { 1.0 - black_result };
            let decisive = is_decisive(score as Score);
            if is_quiet(&game) && !(options.skip_decisive && decisive) {
                let features = position_features(&game, lead, options.colour_term, &mut row);
                let target = options.lambda * result
                    + (1.0 - options.lambda) * sigmoid(score.clamp(-5000.0, 5000.0) / SCALE);
                let tactical = decisive || makes_or_blocks_a_four(&game, point);
                let training = !(held_out || options.quiet && tactical);
                samples.push(&features, target, rule_index, Split { held_out, tactical, training });
            }
            game.try_play(point).unwrap_or_else(|_| bad(&format!("{} illegal", format_pos(point))));
        }
    }
    eprintln!("{game_index} games ({} repeated games left out)", distinct.repeated);
    samples
}

/// Whether `point`, played in `game`, makes a four of the side to move's or takes a cell
/// where the opponent would make one.
fn makes_or_blocks_a_four(game: &Game, point: Point) -> bool {
    let cell = game.geometry().cell(point.x, point.y).expect("a move on the board");
    with_game!(game, b => four_cell(b, cell))
}

/// Whether a stone of either side on `cell` would make a four.
fn four_cell<B: Storage>(board: &Board<B>, cell: Cell) -> bool {
    [Color::Black, Color::White].into_iter().any(|colour| {
        board.patterns().threat_cells(colour, ThreatKind::Four).is_some_and(|c| c.contains(cell))
    })
}

/// The evaluation of sample `i` with weights `w`, in evaluation units.
fn evaluation(w: &[f64], samples: &Samples, i: usize) -> f64 {
    features_evaluation(w, samples.features(i))
}

/// The evaluation of a position with `features` and weights `w`, in evaluation units: the
/// engine's, but in real numbers and unclamped.
fn features_evaluation(w: &[f64], features: &[(u32, f32)]) -> f64 {
    let sum: f64 = features.iter().map(|&(j, c)| f64::from(c) * w[j as usize]).sum();
    f64::from(TEMPO) + sum / f64::from(POTENTIAL_SCALE)
}

/// The prediction for sample `i` with weights `w`.
fn predict(w: &[f64], samples: &Samples, i: usize) -> f64 {
    sigmoid(evaluation(w, samples, i) / samples.scale)
}

/// Cross-entropy against the target, less the target's own entropy (0 for a perfect fit).
fn loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    let xlogx = |a: f64, b: f64| if a > 0.0 { a * (a / b).ln() } else { 0.0 };
    xlogx(y, p) + xlogx(1.0 - y, 1.0 - p)
}

/// Per rule, the mean loss of the training samples, of the held-out quiet ones and of the
/// held-out tactical ones.
fn losses(w: &[f64], samples: &Samples) -> [[f64; 3]; 3] {
    let mut sums = [[(0.0, 0usize); 3]; 3];
    for i in 0..samples.len() {
        let group = match (samples.training[i], samples.held_out[i], samples.tactical[i]) {
            (true, _, _) => 0,
            (false, true, false) => 1,
            (false, true, true) => 2,
            (false, false, _) => continue,
        };
        let entry = &mut sums[usize::from(samples.rules[i])][group];
        entry.0 += loss(predict(w, samples, i), f64::from(samples.targets[i]));
        entry.1 += 1;
    }
    sums.map(|r| r.map(|(sum, n)| sum / n.max(1) as f64))
}

/// The losses per rule (training / held-out quiet / held-out tactical), and the mean size of
/// the evaluation (its scale is what the search's margins were tuned to).
fn report(label: &str, w: &[f64], samples: &Samples) -> String {
    let l = losses(w, samples);
    let mut text = format!("{label}:");
    for (rule, [train, quiet, tactical]) in RULES.iter().zip(l) {
        text += &format!(" {rule} {train:.5} / {quiet:.5} / {tactical:.5}");
    }
    let size: f64 = (0..samples.len()).map(|i| evaluation(w, samples, i).abs()).sum();
    text += &format!(", mean |eval| {:.0}", size / samples.len().max(1) as f64);
    text
}

/// The training samples of each rule.
fn training_counts(samples: &Samples) -> [usize; 3] {
    let mut counts = [0; 3];
    for i in (0..samples.len()).filter(|&i| samples.training[i]) {
        counts[usize::from(samples.rules[i])] += 1;
    }
    counts
}

/// The gradient of the sum over the rules of each rule's mean cross-entropy over its
/// training samples: each rule's tables are fitted as if its games were alone.
fn gradient(w: &[f64], samples: &Samples) -> Vec<f64> {
    let counts = training_counts(samples).map(|n| n.max(1) as f64);
    let n = samples.len();
    let slice = n.div_ceil(SLICES);
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..SLICES)
            .map(|s| {
                scope.spawn(move || {
                    let mut g = vec![0.0; WEIGHTS];
                    for i in (s * slice)..((s + 1) * slice).min(n) {
                        if !samples.training[i] {
                            continue;
                        }
                        let d = (predict(w, samples, i) - f64::from(samples.targets[i]))
                            / samples.scale
                            / f64::from(POTENTIAL_SCALE)
                            / counts[usize::from(samples.rules[i])];
                        for &(j, c) in samples.features(i) {
                            g[j as usize] += d * f64::from(c);
                        }
                    }
                    g
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a gradient thread panicked")).collect()
    });
    let mut g = vec![0.0; WEIGHTS];
    for part in parts {
        for (a, b) in g.iter_mut().zip(part) {
            *a += b;
        }
    }
    g
}

fn fit(args: &[String]) {
    let mut options = Options {
        passes: 400,
        lambda: 0.5,
        pull: 1e-9,
        step: 2.0,
        skip_decisive: false,
        quiet: false,
        scale: Some(SCALE),
        colour_term: true,
        rules: RULES.to_vec(),
        codes: true,
        flags: true,
    };
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| -> f64 {
            let v = it.next().unwrap_or_else(|| fail(&format!("{name} needs a value")));
            v.parse().unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
        };
        match arg.as_str() {
            "--passes" => options.passes = value("--passes") as usize,
            "--lambda" => options.lambda = value("--lambda"),
            "--pull" => options.pull = value("--pull"),
            "--step" => options.step = value("--step"),
            "--skip-decisive" => options.skip_decisive = true,
            "--quiet" => options.quiet = true,
            "--no-colour-term" => options.colour_term = false,
            "--scale" => {
                let v = it.next().unwrap_or_else(|| fail("--scale needs a value"));
                options.scale = match v.as_str() {
                    "auto" => None,
                    _ => match v.parse::<f64>() {
                        Ok(scale) if scale > 0.0 && scale.is_finite() => Some(scale),
                        _ => fail(&format!("--scale: not a positive number or auto: {v}")),
                    },
                };
            }
            "--tables" => {
                let list = it.next().unwrap_or_else(|| fail("--tables needs a value"));
                let names: Vec<&str> = list.split(',').collect();
                if let Some(bad) = names.iter().find(|n| !["codes", "flags"].contains(n)) {
                    fail(&format!("--tables: {bad} is not codes or flags"));
                }
                options.codes = names.contains(&"codes");
                options.flags = names.contains(&"flags");
            }
            "--rules" => {
                let list = it.next().unwrap_or_else(|| fail("--rules needs a value"));
                options.rules = list
                    .split(',')
                    .map(|r| match r.parse::<Rule>() {
                        Ok(rule) if RULES.contains(&rule) => rule,
                        _ => fail(&format!("--rules: no learned table for {r}")),
                    })
                    .collect();
            }
            _ if arg.starts_with("--") => fail(&format!("unknown option {arg}")),
            _ => paths.push(arg.clone()),
        }
    }
    if paths.is_empty() {
        fail("no game files");
    }
    let lines = paths.iter().flat_map(|path| open(path).map(move |line| (path.clone(), line)));
    let mut samples = samples(lines, &options);
    let train: usize = training_counts(&samples).iter().sum();
    let tactical = samples.tactical.iter().filter(|&&t| t).count();
    eprintln!("{} samples ({tactical} tactical), {train} for training", samples.len());
    let prior = prior();
    samples.scale = options.scale.unwrap_or_else(|| fitted_scale(&prior, &samples));
    eprintln!("scale {:.1}", samples.scale);
    let start = report("prior (training / held-out quiet / held-out tactical)", &prior, &samples);
    eprintln!("{start}");
    let w = train_weights(&samples, &options, &prior, true);
    let end = report("fitted (training / held-out quiet / held-out tactical)", &w, &samples);
    if options.colour_term && options.rules.contains(&Rule::Renju) {
        eprintln!(
            "renju colour term {:+.1} for black to move (left out of the table)",
            w[COLOUR_WEIGHT]
        );
    }
    let source = table_source(&w, &options, args, &samples, &start, &end);
    let mut out = std::io::stdout().lock();
    out.write_all(source.as_bytes()).unwrap_or_else(|e| fail(&format!("writing: {e}")));
}

/// The prediction's scale that fits the training samples best with weights `w`: the loss's
/// minimum over `ln scale` in [ln 100, ln 5000], by golden-section search (the loss is
/// unimodal in the scale for a fixed evaluation).
fn fitted_scale(w: &[f64], samples: &Samples) -> f64 {
    let counts = training_counts(samples).map(|n| n.max(1) as f64);
    let mean_loss = |ln_scale: f64| -> f64 {
        let scale = ln_scale.exp();
        (0..samples.len())
            .filter(|&i| samples.training[i])
            .map(|i| {
                let p = sigmoid(evaluation(w, samples, i) / scale);
                loss(p, f64::from(samples.targets[i])) / counts[usize::from(samples.rules[i])]
            })
            .sum()
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (100f64.ln(), 5000f64.ln());
    for _ in 0..40 {
        let (a, b) = (high - ratio * (high - low), low + ratio * (high - low));
        if mean_loss(a) < mean_loss(b) { high = b } else { low = a }
    }
    ((low + high) / 2.0).exp()
}

/// The worths before any learning ([`prior_worth`]), by weight index.
fn prior() -> Vec<f64> {
    weights_by(prior_worth, |_| None)
}

/// The weights the engine evaluates with now ([`code_worth`], the learned threat-flag tables),
/// by weight index.
#[cfg_attr(not(test), allow(dead_code))]
fn engine_weights() -> Vec<f64> {
    weights_by(code_worth, |(rule, colour)| flag_table(rule, colour))
}

/// Every table's code worths by `worth` and flag worths by `flags` (`None`: 0), by weight
/// index.
fn weights_by(
    worth: impl Fn(Rule, Color, Role, u16) -> i32,
    flags: impl Fn((Rule, Color)) -> Option<&'static [i16; FLAG_ENTRIES]>,
) -> Vec<f64> {
    let mut w = vec![0.0; WEIGHTS];
    for (table, (rule, colour)) in TABLE_OWNERS.into_iter().enumerate() {
        assert_eq!(eval_table(rule, colour), Some(table));
        for role in [Role::ToMove, Role::Waiting] {
            for pcode in 0..PCODES as u16 {
                w[weight(table, role, pcode)] = f64::from(worth(rule, colour, role, pcode));
            }
        }
        if let Some(entries) = flags((rule, colour)) {
            for (entry, &x) in entries.iter().enumerate() {
                w[flag_weight(table, entry)] = f64::from(x);
            }
        }
    }
    w
}

/// Adam from the prior, `options.passes` full passes; the losses every 50 passes on stderr
/// if `verbose`.
fn train_weights(samples: &Samples, options: &Options, prior: &[f64], verbose: bool) -> Vec<f64> {
    let mut w = prior.to_vec();
    let (mut m, mut v) = (vec![0.0; WEIGHTS], vec![0.0; WEIGHTS]);
    let (beta1, beta2) = (0.9f64, 0.999f64);
    let fitted = |i: usize| match i {
        _ if i < CODE_WEIGHTS => options.codes,
        COLOUR_WEIGHT => options.colour_term,
        _ => options.flags,
    };
    for pass in 1..=options.passes {
        let g = gradient(&w, samples);
        for i in (0..WEIGHTS).filter(|&i| fitted(i)) {
            let gi = g[i] + options.pull * (w[i] - prior[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * gi;
            v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi;
            let m_hat = m[i] / (1.0 - beta1.powi(pass as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(pass as i32));
            w[i] -= options.step * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if verbose && (pass % 50 == 0 || pass == options.passes) {
            eprintln!("{}", report(&format!("pass {pass}"), &w, samples));
        }
    }
    w
}

/// The fitted tables as the source of `learned.rs`: rounded, and shifted so that every
/// worth is at least 0 (the packed sums need it). A rule's shift is the same for all its
/// tables and roles, so it cancels: both sides' sums run over the same empty cells.
fn table_source(
    w: &[f64],
    options: &Options,
    args: &[String],
    samples: &Samples,
    start: &str,
    end: &str,
) -> String {
    let mut rounded: Vec<i64> = w[..CODE_WEIGHTS].iter().map(|x| x.round() as i64).collect();
    for rule in RULES {
        let range = |t: usize| t * 2 * PCODES..(t + 1) * 2 * PCODES;
        let tables: Vec<usize> = (0..EVAL_TABLES).filter(|&t| TABLE_OWNERS[t].0 == rule).collect();
        let min = tables.iter().flat_map(|&t| rounded[range(t)].iter().copied()).min();
        let shift = (-min.unwrap_or(0)).max(0);
        for &t in &tables {
            rounded[range(t)].iter_mut().for_each(|x| *x += shift);
        }
    }
    let mut text = String::new();
    text += "//! The learned evaluation tables, written by `engine/examples/train_eval.rs`; do not edit.\n";
    text += "//! Made by:\n//!\n//! ```text\n";
    text += &format!(
        "//! cargo run --release -p mnk-engine --example train_eval -- fit {}\n",
        args.join(" ")
    );
    text += "//! ```\n//!\n";
    let train: usize = training_counts(samples).iter().sum();
    text += &format!("//! {} samples, {train} for training.\n", samples.len());
    text += &format!("//! Loss (cross-entropy less the target's entropy), {start}.\n");
    text += &format!("//! {end}.\n\n");
    text += "use super::flags::FLAG_ENTRIES;\nuse super::weights::EVAL_TABLES;\n";
    text += "use crate::pattern::code::PCODES;\n\n";
    text +=
        "/// By [`super::weights::eval_table`]: the table's worths by role and pattern code, in\n";
    text += "/// potential units, or `None` where the rule keeps the prior worths.\n";
    text += "#[rustfmt::skip]\npub static TABLES: [Option<&[[i32; PCODES]; 2]>; EVAL_TABLES] = [\n";
    for table in 0..EVAL_TABLES {
        let rule = TABLE_OWNERS[table].0;
        if !options.codes || !options.rules.contains(&rule) {
            text += "    None,\n";
            continue;
        }
        text += "    Some(&[\n";
        for role in 0..2 {
            text += "        [";
            for pcode in 0..PCODES {
                let x = rounded[(table * 2 + role) * PCODES + pcode];
                if pcode % 20 == 0 {
                    text += "\n            ";
                }
                text += &format!("{x},");
            }
            text += "\n        ],\n";
        }
        text += "    ]),\n";
    }
    text += "];\n\n";
    text += "/// By [`super::weights::eval_table`] of the side to move: the worth of every pair of threat\n";
    text +=
        "/// flags ([`super::flags`]), in evaluation units, or `None` where the rule has none.\n";
    text +=
        "#[rustfmt::skip]\npub static THREATS: [Option<&[i16; FLAG_ENTRIES]>; EVAL_TABLES] = [\n";
    for table in 0..EVAL_TABLES {
        if !options.flags || !options.rules.contains(&TABLE_OWNERS[table].0) {
            text += "    None,\n";
            continue;
        }
        text += "    Some(&[";
        for entry in 0..FLAG_ENTRIES {
            if entry % 16 == 0 {
                text += "\n        ";
            }
            let x = w[flag_weight(table, entry)].round().clamp(-30000.0, 30000.0) as i16;
            text += &format!("{x},");
        }
        text += "\n    ]),\n";
    }
    text += "];\n";
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three games of `pbrain-mnk datagen --games 3 --nodes 300 --opening-nodes 300 --seed 5`.
    const SAMPLE: &str = include_str!("../../tests/data/datagen-sample.txt");

    /// The datagen lines of a packed game.
    fn unpack(game: &str) -> Vec<String> {
        let f: Vec<&str> = game.split(' ').collect();
        let (number, size, rule, black, opening, moves) = (f[0], f[1], f[2], f[3], f[4], f[5]);
        let (mut history, mut lines) = (opening.to_string(), Vec::new());
        let mut black_to_move = opening.split(',').count().is_multiple_of(2);
        for searched in moves.split(',') {
            let (best, score) = searched.split_once(':').expect("move:score");
            let result = match (black, black_to_move) {
                ("0.5", _) => "0.5",
                ("1", true) | ("0", false) => "1",
                _ => "0",
            };
            lines.push(format!("{number} {size} {rule} {history} {score} {best} {result}"));
            history = format!("{history},{best}");
            black_to_move = !black_to_move;
        }
        lines
    }

    fn sample_games() -> Vec<String> {
        pack_lines(SAMPLE.lines().map(str::to_string)).expect("datagen lines")
    }

    #[test]
    fn a_packed_game_gives_back_every_datagen_line() {
        let games = sample_games();
        assert_eq!(games.len(), 3);
        let unpacked: Vec<String> = games.iter().flat_map(|g| unpack(g)).collect();
        let positions: Vec<&str> = SAMPLE.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(unpacked, positions);
        // A position that does not follow on from the one before is refused.
        let mut lines: Vec<String> = SAMPLE.lines().map(str::to_string).collect();
        lines.swap(3, 4);
        assert!(pack_lines(lines.into_iter()).is_err());
    }

    #[test]
    fn a_relabelled_game_is_the_game_it_relabels_and_keeps_its_side_of_the_split() {
        let games = sample_games();
        let relabelled = |game: &str| {
            let (head, moves) = game.rsplit_once(' ').expect("a game line");
            let moves: Vec<String> =
                moves.split(',').map(|m| format!("{}:7", m.split(':').next().unwrap())).collect();
            format!("99 {}", head.split_once(' ').unwrap().1) + " " + &moves.join(",")
        };
        let mut distinct = Distinct::default();
        for game in &games {
            let other = relabelled(game);
            assert_ne!(&other, game);
            assert_eq!(game_key(&other), game_key(game));
            assert_eq!(is_held_out(&game_key(&other)), is_held_out(&game_key(game)));
            // Read first, the relabelled line is the one taken.
            assert!(distinct.first_time(&other));
            assert!(!distinct.first_time(game));
        }
        assert_eq!(distinct.repeated, games.len());
        // The split is a fixed hash: one key on each side, as on every machine.
        assert!(is_held_out("15 freestyle 1 h8 i8"));
        assert!(!is_held_out("15 freestyle 1 h8 i9"));
        // Full boards, the same moves in other orders (drawn games are such), are held out
        // one in ten too (FNV's low bit alone is the moves' parity: once none of them was).
        let cells: Vec<String> =
            (0..15).flat_map(|y| (0..15).map(move |x| format_pos(Point { x, y }))).collect();
        let mut rng = mnk_engine::rng::SplitMix64::new(3);
        let held = (0..2_000)
            .filter(|_| {
                let mut order = cells.clone();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                is_held_out(&format!("15 freestyle 0.5 {}", order.join(",")))
            })
            .count();
        assert!((150..250).contains(&held), "{held} of 2,000");
    }

    fn options(passes: usize) -> Options {
        Options {
            passes,
            lambda: 0.5,
            pull: 1e-6,
            step: 2.0,
            skip_decisive: false,
            quiet: false,
            scale: Some(SCALE),
            colour_term: true,
            rules: RULES.to_vec(),
            codes: true,
            flags: true,
        }
    }

    fn sample_samples() -> Samples {
        let games = sample_games();
        samples(games.into_iter().map(|g| (String::from("sample"), g)), &options(0))
    }

    /// The sum over the rules of each rule's mean loss on its training samples.
    fn training_loss(w: &[f64], samples: &Samples) -> f64 {
        let counts = training_counts(samples);
        (0..samples.len())
            .filter(|&i| samples.training[i])
            .map(|i| {
                let rule_count = counts[usize::from(samples.rules[i])] as f64;
                loss(predict(w, samples, i), f64::from(samples.targets[i])) / rule_count
            })
            .sum()
    }

    /// The trainer's evaluation of a position with the weights the engine evaluates with is
    /// the engine's `evaluate` (which rounds the codes' part towards zero and clamps), on
    /// thousands of positions of random games under every rule with learned tables, on
    /// 15×15 and on larger boards, square and oblong.
    #[test]
    fn the_trainers_evaluation_is_the_engines() {
        use mnk_engine::bitboard::Bitboard;
        use mnk_engine::eval::evaluate;
        use mnk_engine::movegen::candidates;
        use mnk_engine::rng::SplitMix64;
        use mnk_engine::score::MAX_EVAL;
        let w = engine_weights();
        let mut rng = SplitMix64::new(7);
        let mut row = vec![0.0f32; WEIGHTS];
        let mut checked = 0;
        let sizes = [(15, 15), (20, 20), (22, 13), (11, 11)];
        for rule in RULES {
            for size in sizes.map(|(w, h)| BoardSize::new(w, h).expect("a size")) {
                let lead = size_lead_row(size, rule);
                for _ in 0..5 {
                    let mut game = Game::new(size, rule);
                    while !game.outcome().is_decided() && game.move_count() < 90 {
                        // (The colour term is the fit's alone: the engine has none.)
                        let features = position_features(&game, &lead, true, &mut row);
                        let trainer = features_evaluation(&w, &features);
                        let clamped = trainer.clamp(-f64::from(MAX_EVAL), f64::from(MAX_EVAL));
                        let engine = with_game!(&game, b => evaluate(b));
                        assert!(
                            (f64::from(engine) - clamped).abs() < 1.0,
                            "{rule} {}: engine {engine}, trainer {trainer}",
                            game.history().iter().map(|&p| format_pos(p)).collect::<String>()
                        );
                        checked += 1;
                        let near = with_game!(&game, b => {
                            let cells: Vec<_> = candidates(b).iter().collect();
                            cells.get(rng.below(cells.len().max(1))).copied()
                        });
                        let legal = game.legal_points().first().copied();
                        let Some(point) = near.map(|cell| game.point(cell)).or(legal) else {
                            break;
                        };
                        game.try_play(point).expect("a legal move");
                    }
                }
            }
        }
        assert!(checked > 4000, "{checked} positions");
    }

    /// The fitted scale is the one the targets were made with: targets `σ(eval / 400)` with
    /// the prior's evaluation give back 400.
    #[test]
    fn the_fitted_scale_recovers_the_targets_scale() {
        let mut samples = sample_samples();
        let prior = prior();
        for i in 0..samples.len() {
            samples.targets[i] = sigmoid(evaluation(&prior, &samples, i) / 400.0) as f32;
        }
        let scale = fitted_scale(&prior, &samples);
        assert!((scale - 400.0).abs() < 2.0, "{scale}");
    }

    /// The sample games' positions fall into quiet and tactical ones; `--quiet` fits the
    /// quiet ones only, and renju's positions carry the colour term (+4 for black to move,
    /// −4 for white, in potential units: one evaluation unit a weight unit).
    #[test]
    fn tactical_positions_are_told_apart_and_the_quiet_fit_leaves_them_out() {
        let games = sample_games();
        let lines = || games.iter().map(|g| (String::from("sample"), g.clone()));
        let all = samples(lines(), &options(0));
        let quiet = samples(lines(), &Options { quiet: true, ..options(0) });
        let tactical = all.tactical.iter().filter(|&&t| t).count();
        assert!(tactical > 0 && tactical < all.len(), "{tactical} of {}", all.len());
        assert_eq!(quiet.len(), all.len(), "every position is still a sample");
        for i in 0..all.len() {
            assert_eq!(all.training[i], !all.held_out[i]);
            assert_eq!(quiet.training[i], !quiet.held_out[i] && !quiet.tactical[i]);
        }
        let renju = RULES.iter().position(|&r| r == Rule::Renju).expect("renju") as u8;
        for i in (0..all.len()).filter(|&i| all.rules[i] == renju) {
            let colour: Vec<f32> = all
                .features(i)
                .iter()
                .filter(|&&(j, _)| j as usize == COLOUR_WEIGHT)
                .map(|&(_, c)| c)
                .collect();
            assert!(colour == [4.0] || colour == [-4.0], "{colour:?}");
        }
        let without = samples(lines(), &Options { colour_term: false, ..options(0) });
        assert!(
            (0..without.len())
                .all(|i| without.features(i).iter().all(|&(j, _)| j as usize != COLOUR_WEIGHT))
        );
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let samples = sample_samples();
        let w = prior();
        let g = gradient(&w, &samples);
        let mut steepest: Vec<usize> = (0..WEIGHTS).collect();
        steepest.sort_by(|&a, &b| g[b].abs().total_cmp(&g[a].abs()));
        assert!(g[steepest[0]].abs() > 0.0);
        for &j in &steepest[..5] {
            let h = 0.5;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[j] += h;
            down[j] -= h;
            let slope = (training_loss(&up, &samples) - training_loss(&down, &samples)) / (2.0 * h);
            assert!(
                (slope - g[j]).abs() <= 1e-3 * g[j].abs() + 1e-12,
                "{j}: {slope} against {}",
                g[j]
            );
        }
    }

    #[test]
    fn the_same_games_give_the_same_tables_and_the_fit_lowers_the_loss() {
        let samples = sample_samples();
        let prior = prior();
        let fit = |passes| train_weights(&samples, &options(passes), &prior, false);
        let (a, b) = (fit(20), fit(20));
        let args = [String::from("sample")];
        let source = |w| table_source(w, &options(0), &args, &samples, "", "");
        assert_eq!(source(&a), source(&b));
        assert!(training_loss(&a, &samples) < training_loss(&prior, &samples));
    }
}
