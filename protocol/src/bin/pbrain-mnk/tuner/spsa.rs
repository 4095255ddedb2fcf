//! SPSA (simultaneous perturbation stochastic approximation) over the search's tunables:
//! the state of a tuning run, its perturbations and its update, and the small text file it
//! is kept in so that a run can stop and resume another day (`pbrain-mnk tune`).
//!
//! Each iteration `k` draws a sign `Δᵢ = ±1` for every tunable (from the run's seed and `k`
//! alone, so a resumed run draws what the first would have), plays a pair of games (one
//! opening, both colours) between an engine with `θ + cₖΔ` and one with `θ − cₖΔ`, and moves
//! every tunable towards the side that scored: `θᵢ += aₖ · cᵢ,ₖ · Δᵢ · r / 2`, `r` being the
//! plus engine's points minus the minus engine's over the pair (−2..=2). The perturbation
//! `cᵢ,ₖ = stepᵢ / (k + 1)^0.101` starts at the tunable's step (its [`ParamSpec::step`]),
//! the learning rate `aₖ = rate / (1 + k / 100)^0.602` decays slowly: the usual exponents.
//!
//! The state file:
//!
//! ```text
//! # mnk SPSA state: pbrain-mnk tune --state FILE resumes from it
//! iteration 120
//! seed 1
//! rate 0.5
//! rfp_margin 41.7321
//! lmr_divisor_x100 152.0048
//! ```

use std::fmt;
use std::str::FromStr;

use mnk_engine::rng::SplitMix64;
use mnk_engine::search::params::{self, ParamError, ParamSpec};

/// The gain sequences' exponents and the iteration count the rate's decay is scaled by.
const RATE_EXPONENT: f64 = 0.602;
const STEP_EXPONENT: f64 = 0.101;
const RATE_STABILITY: f64 = 100.0;

/// A tuning run: where it is and the current values.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SpsaState {
    /// Iterations (game pairs) done.
    pub iteration: u64,
    /// The seed of the perturbations.
    pub seed: u64,
    /// The learning rate at the start (`aₖ` at k = 0).
    pub rate: f64,
    /// The tunables tuned, with their current (real) values, in order.
    pub values: Vec<(&'static ParamSpec, f64)>,
}

/// One iteration's two engines' tunables, and the signs that made them.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Perturbation {
    /// The iteration it belongs to.
    pub iteration: u64,
    /// `+1` or `−1` per tuned value.
    pub signs: Vec<f64>,
    /// `θ + cₖΔ`, rounded and kept in range, as `NAME=VALUE` assignments.
    pub plus: Vec<String>,
    /// `θ − cₖΔ`.
    pub minus: Vec<String>,
}

impl SpsaState {
    /// A new run over the tunables `names`, from their defaults.
    pub(crate) fn new(names: &[&str], seed: u64, rate: f64) -> Result<SpsaState, ParamError> {
        let values = names
            .iter()
            .map(|name| {
                let spec =
                    params::spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
                Ok((spec, f64::from(spec.default)))
            })
            .collect::<Result<_, _>>()?;
        Ok(SpsaState { iteration: 0, seed, rate, values })
    }

    /// Iteration `iteration`'s perturbation of the current values (see the module docs).
    pub(crate) fn perturbation(&self, iteration: u64) -> Perturbation {
        let mut rng = SplitMix64::stream(self.seed, iteration);
        let signs: Vec<f64> =
            self.values.iter().map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect();
        let side = |sign: f64| {
            self.values
                .iter()
                .zip(&signs)
                .map(|((spec, value), s)| {
                    let shifted = value + sign * s * step_at(spec, iteration);
                    format!("{}={}", spec.name, clamp_round(spec, shifted))
                })
                .collect()
        };
        Perturbation { iteration, plus: side(1.0), minus: side(-1.0), signs }
    }

    /// Moves the values by `perturbation`'s result `result` (the plus engine's points minus
    /// the minus engine's, −2..=2), and counts the iteration.
    pub(crate) fn update(&mut self, perturbation: &Perturbation, result: f64) {
        let k = perturbation.iteration as f64;
        let rate = self.rate / (1.0 + k / RATE_STABILITY).powf(RATE_EXPONENT);
        for ((spec, value), sign) in self.values.iter_mut().zip(&perturbation.signs) {
            let step = step_at(spec, perturbation.iteration);
            *value = (*value + rate * step * sign * result / 2.0)
                .clamp(f64::from(spec.min), f64::from(spec.max));
        }
        self.iteration += 1;
    }

    /// The current values, rounded, as `NAME=VALUE` assignments.
    pub(crate) fn assignments(&self) -> Vec<String> {
        self.values
            .iter()
            .map(|(spec, v)| format!("{}={}", spec.name, clamp_round(spec, *v)))
            .collect()
    }
}

/// The perturbation of `spec` at `iteration`: its step, slowly shrinking.
fn step_at(spec: &ParamSpec, iteration: u64) -> f64 {
    f64::from(spec.step) / ((iteration + 1) as f64).powf(STEP_EXPONENT)
}

/// `value` rounded to the nearest integer inside `spec`'s range.
fn clamp_round(spec: &ParamSpec, value: f64) -> i32 {
    (value.round() as i32).clamp(spec.min, spec.max)
}

impl fmt::Display for SpsaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# mnk SPSA state: pbrain-mnk tune --state FILE resumes from it")?;
        writeln!(f, "iteration {}", self.iteration)?;
        writeln!(f, "seed {}", self.seed)?;
        writeln!(f, "rate {}", self.rate)?;
        for (spec, value) in &self.values {
            writeln!(f, "{} {value:.4}", spec.name)?;
        }
        Ok(())
    }
}

/// Why a state file cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum StateError {
    /// Line `line` is not `KEY VALUE` with a number.
    #[allow(missing_docs)]
    Malformed { line: usize, text: String },
    /// A tunable the search does not have.
    #[allow(missing_docs)]
    Param { line: usize, error: ParamError },
    /// `iteration`, `seed` or `rate` is missing, or no tunable is listed.
    Missing(&'static str),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Malformed { line, text } => {
                write!(f, "line {line}: {text:?} is not a key and a number")
            }
            StateError::Param { line, error } => write!(f, "line {line}: {error}"),
            StateError::Missing(what) => write!(f, "no {what}"),
        }
    }
}

impl std::error::Error for StateError {}

impl FromStr for SpsaState {
    type Err = StateError;

    fn from_str(text: &str) -> Result<SpsaState, StateError> {
        let (mut iteration, mut seed, mut rate) = (None, None, None);
        let mut values: Vec<(&'static ParamSpec, f64)> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let malformed = || StateError::Malformed { line, text: raw.to_string() };
            let mut words = content.split_whitespace();
            let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(malformed());
            };
            match key {
                "iteration" => iteration = Some(value.parse().map_err(|_| malformed())?),
                "seed" => seed = Some(value.parse().map_err(|_| malformed())?),
                "rate" => rate = Some(value.parse::<f64>().map_err(|_| malformed())?),
                name => {
                    let value: f64 = value.parse().map_err(|_| malformed())?;
                    if !value.is_finite() {
                        return Err(malformed());
                    }
                    let spec = params::spec(name).ok_or_else(|| StateError::Param {
                        line,
                        error: ParamError::Unknown(name.to_string()),
                    })?;
                    if values.iter().any(|(s, _)| s.name == name) {
                        return Err(malformed());
                    }
                    values.push((spec, value.clamp(f64::from(spec.min), f64::from(spec.max))));
                }
            }
        }
        if values.is_empty() {
            return Err(StateError::Missing("tunable"));
        }
        Ok(SpsaState {
            iteration: iteration.ok_or(StateError::Missing("iteration"))?,
            seed: seed.ok_or(StateError::Missing("seed"))?,
            rate: rate.filter(|r| r.is_finite()).ok_or(StateError::Missing("rate"))?,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> SpsaState {
        SpsaState::new(&["rfp_margin", "lmr_divisor_x100", "lmp_base"], 7, 0.5).expect("known")
    }

    #[test]
    fn the_state_prints_and_parses_back() {
        let mut state = state();
        let p = state.perturbation(0);
        state.update(&p, 2.0);
        let text = state.to_string();
        let back: SpsaState = text.parse().expect("its own output");
        assert_eq!(back.iteration, 1);
        assert_eq!((back.seed, back.rate), (7, 0.5));
        for ((a, x), (b, y)) in state.values.iter().zip(&back.values) {
            assert_eq!(a.name, b.name);
            assert!((x - y).abs() < 1e-4);
        }
    }

    #[test]
    fn a_perturbation_depends_on_the_seed_and_iteration_only_and_stays_in_range() {
        let state = state();
        assert_eq!(state.perturbation(5), state.perturbation(5));
        let p = state.perturbation(0);
        // At iteration 0 the plus and minus engines sit one step either side of the default.
        assert_eq!(p.plus[0], format!("rfp_margin={}", 40.0 + p.signs[0] * 6.0));
        assert_eq!(p.minus[0], format!("rfp_margin={}", 40.0 - p.signs[0] * 6.0));
        let at_the_edge = SpsaState::new(&["lmr_cut_node"], 1, 0.5).expect("known");
        let mut edge = at_the_edge.clone();
        edge.values[0].1 = 0.0;
        for k in 0..20 {
            let p = edge.perturbation(k);
            for side in [&p.plus, &p.minus] {
                let (_, value) = params::parse_assignment(&side[0]).expect("NAME=VALUE");
                assert!((0..=3).contains(&value));
            }
        }
    }

    #[test]
    fn the_update_moves_towards_the_side_that_scored_and_keeps_the_range() {
        let mut state = state();
        let before = state.values.clone();
        let p = state.perturbation(0);
        state.update(&p, 2.0);
        for (((_, after), (_, old)), sign) in state.values.iter().zip(&before).zip(&p.signs) {
            assert_eq!((after - old).signum(), *sign, "the plus side won");
        }
        let mut draw = self::state();
        draw.update(&p, 0.0);
        assert_eq!(draw.values, before, "a drawn pair moves nothing");
        let mut far = self::state();
        for k in 0..2_000 {
            let p = far.perturbation(k);
            far.update(&p, if p.signs[0] > 0.0 { 2.0 } else { -2.0 });
        }
        let pushed = far.assignments();
        assert!(
            pushed.contains(&"rfp_margin=300".to_string()),
            "to the top of the range: {pushed:?}"
        );
    }

    #[test]
    fn bad_state_files_are_refused_with_the_line() {
        for (text, line) in [
            ("iteration 1\nseed 1\nrate 0.5\nrfp_margin x\n", Some(4)),
            ("iteration 1\nseed 1\nrate 0.5\nno_such 3\n", Some(4)),
            ("iteration\n", Some(1)),
            ("iteration 1\nseed 1\nrate 0.5\n", None),
            ("seed 1\nrate 0.5\nrfp_margin 3\n", None),
        ] {
            let error = text.parse::<SpsaState>().expect_err(text);
            match (error, line) {
                (
                    StateError::Malformed { line: l, .. } | StateError::Param { line: l, .. },
                    Some(n),
                ) => {
                    assert_eq!(l, n);
                }
                (StateError::Missing(_), None) => {}
                (other, _) => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
