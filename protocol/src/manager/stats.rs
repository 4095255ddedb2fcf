//! Match statistics: Elo difference with a 95 % interval, the likelihood of superiority
//! (LOS), and the sequential probability ratio test (SPRT), over single games ([`Tally`]) and
//! over pairs of games from one opening, one with each colour ([`Pentanomial`]).
//!
//! A pair's result (0, ½, 1, 1½ or 2 points) varies less than two independent games, since
//! the opening's bias cancels, so the pairs' statistics are the ones to judge a match by when
//! every opening is played both ways: their interval is narrower and their SPRT decides with
//! fewer games. The pairs' SPRT is the generalized SPRT of the chess testing frameworks: the
//! log-likelihood ratio of the pentanomial distributions of greatest likelihood whose mean
//! score is that of H1 and that of H0.

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score fraction (0..1).
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games().max(1))
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// Elo difference and the 95 % interval `(elo, low, high)`: the score and its standard
    /// error over games. A bound whose score reaches 0 or 1 is infinite: the games do not
    /// bound the difference on that side. When every game had the same result (four draws,
    /// three wins) the games alone give no spread, so the interval is taken with the virtual
    /// games [`Tally::llr`] adds.
    pub fn elo(&self) -> (f64, f64, f64) {
        if self.games() == 0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let spread = self.with_spread();
        let margin = 1.959_964 * (spread.variance() / f64::from(spread.games())).sqrt();
        let centre = spread.score();
        (elo_of_score(self.score()), elo_of_score(centre - margin), elo_of_score(centre + margin))
    }

    /// The draws among the games (0..1).
    pub fn draw_ratio(&self) -> f64 {
        f64::from(self.draws) / f64::from(self.games().max(1))
    }

    /// The likelihood of superiority: the chance that the first engine is the stronger,
    /// from the decisive games (0.5 with none).
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        let lead = f64::from(self.wins) - f64::from(self.losses);
        0.5 * (1.0 + erf(lead / (2.0 * decisive).sqrt()))
    }

    /// The tally itself when its results differ, else with virtual games that keep its score
    /// and give it a spread (see [`Tally::llr`]).
    fn with_spread(&self) -> Tally {
        match self.variance() {
            variance if variance > 0.0 => *self,
            _ if self.draws == self.games() => {
                Tally { wins: self.wins + 1, losses: self.losses + 1, ..*self }
            }
            _ => Tally { draws: self.draws + 1, ..*self },
        }
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`). When every game
    /// had the same result the variance is zero, so the ratio is taken over the games with
    /// virtual ones added that keep the score where it is: one draw after all wins or all
    /// losses, one win and one loss after all draws. It stays defined and grows with the
    /// evidence.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let tally = self.with_spread();
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        let n = f64::from(tally.games());
        n * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * tally.variance())
    }
}

/// The first engine's results over pairs of games from one opening (one game with each
/// colour): how many pairs scored 0, ½, 1, 1½ and 2 points.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

/// A pair's score per game for each count of [`Pentanomial`]: its points over two.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What an empty category of pairs counts for in the SPRT's likelihoods, as the testing
/// frameworks do: the distributions of greatest likelihood then exist for every count.
const EMPTY_PAIRS: f64 = 1e-3;

impl Pentanomial {
    /// Adds a pair whose two games scored `first` and `second` (each 0, 0.5 or 1).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The counts as frequencies.
    fn frequencies(&self) -> [f64; 5] {
        let pairs = f64::from(self.pairs().max(1));
        self.0.map(|n| f64::from(n) / pairs)
    }

    /// The first engine's score per game (0..1).
    pub fn score(&self) -> f64 {
        self.frequencies().iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum()
    }

    /// The variance of a pair's score per game.
    fn variance(&self) -> f64 {
        let mean = self.score();
        self.frequencies().iter().zip(PAIR_SCORES).map(|(p, a)| p * (a - mean).powi(2)).sum()
    }

    /// The counts themselves when the pairs' results differ, else with virtual pairs that
    /// give them a spread: one on each side of a result between the ends, one half-point in
    /// from an end (as [`Tally::elo`] adds a draw to all wins).
    fn with_spread(&self) -> Pentanomial {
        let mut counts = *self;
        let only = self.0.iter().position(|&n| n > 0).filter(|_| self.variance() == 0.0);
        match only {
            Some(0) => counts.0[1] += 1,
            Some(4) => counts.0[3] += 1,
            Some(k) => {
                counts.0[k - 1] += 1;
                counts.0[k + 1] += 1;
            }
            None => {}
        }
        counts
    }

    /// Elo difference and its 95 % interval `(elo, low, high)` from the pairs: the mean score
    /// and its standard error over pairs. A bound whose score reaches 0 or 1 is infinite: the
    /// pairs do not bound the difference on that side. When every pair scored the same, the
    /// interval is taken with virtual pairs around it (see `with_spread`).
    pub fn elo(&self) -> (f64, f64, f64) {
        if self.pairs() == 0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let spread = self.with_spread();
        let margin = 1.959_964 * (spread.variance() / f64::from(spread.pairs())).sqrt();
        let (s, centre) = (self.score(), spread.score());
        (elo_of_score(s), elo_of_score(centre - margin), elo_of_score(centre + margin))
    }

    /// The generalized SPRT's log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`): the
    /// log-likelihood of the pairs under the pentanomial distribution of greatest likelihood
    /// whose mean score is H1's, less that under H0's (each empty category counted as
    /// 0.001 pairs). 0 before the first pair.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let counts = self.0.map(|n| f64::from(n).max(EMPTY_PAIRS));
        let total: f64 = counts.iter().sum();
        let frequencies = counts.map(|n| n / total);
        let log_likelihood = |elo: f64| -> f64 {
            let fitted = mean_constrained(&frequencies, score_of_elo(elo));
            counts.iter().zip(fitted).map(|(n, p)| n * p.ln()).sum()
        };
        log_likelihood(elo1) - log_likelihood(elo0)
    }
}

/// The pentanomial distribution closest in likelihood to `frequencies` whose mean pair score
/// is `mean` (0 < mean < 1): `p_i = f_i / (1 + λ (a_i − mean))`, with λ the root of
/// `Σ f_i (a_i − mean) / (1 + λ (a_i − mean)) = 0` — a decreasing function of λ on the
/// interval where every denominator is positive, found by bisection.
fn mean_constrained(frequencies: &[f64; 5], mean: f64) -> [f64; 5] {
    let gap = PAIR_SCORES.map(|a| a - mean);
    let slope = |lambda: f64| -> f64 {
        frequencies.iter().zip(gap).map(|(f, g)| f * g / (1.0 + lambda * g)).sum()
    };
    // Every 1 + λ·g > 0 for g in [−mean, 1 − mean].
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let lambda = (low + high) / 2.0;
    let fitted = std::array::from_fn(|i| frequencies[i] / (1.0 + lambda * gap[i]));
    let total: f64 = fitted.iter().sum();
    fitted.map(|p| p / total)
}

/// The error function, to about 1e-7 (Abramowitz and Stegun, 7.1.26).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let value = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -value } else { value }
}

/// Elo difference of a score fraction (logistic model).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What the SPRT says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// H0 accepted: the change is not an improvement of `elo1`.
    H0,
    /// H1 accepted.
    H1,
    /// Keep playing.
    Continue,
}

/// The SPRT bounds for error rates `alpha` and `beta`: `(lower, upper)`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The verdict for `llr` with 5 % error rates.
pub fn sprt_verdict(llr: f64) -> SprtVerdict {
    let (lower, upper) = sprt_bounds(0.05, 0.05);
    if llr >= upper {
        SprtVerdict::H1
    } else if llr <= lower {
        SprtVerdict::H0
    } else {
        SprtVerdict::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_matches_known_values() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-9));
        assert!(close(elo_of_score(0.75), 190.848, 1e-3));
        assert!(close(elo_of_score(0.25), -190.848, 1e-3));
        assert!(close(elo_of_score(0.64), 100.0, 0.2)); // the usual "100 Elo ≈ 64 %"
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn interval_shrinks_with_more_games() {
        let few = Tally { wins: 6, draws: 2, losses: 2 };
        let many = Tally { wins: 600, draws: 200, losses: 200 };
        let (e1, lo1, hi1) = few.elo();
        let (e2, lo2, hi2) = many.elo();
        assert!(close(e1, e2, 1e-9) && close(e1, elo_of_score(0.7), 1e-9));
        assert!(hi2 - lo2 < (hi1 - lo1) / 5.0);
        // Per-game variance (600·0.3² + 200·0.2² + 200·0.7²) / 1000 = 0.16, so the standard
        // error of the score is √(0.16 / 1000) = 0.0126491...
        assert!(close(lo2, elo_of_score(0.7 - 1.959_964 * 0.012_649_111), 1e-6));
    }

    #[test]
    fn uniform_results_still_give_an_interval_and_unbounded_sides_are_infinite() {
        // Four draws: even, with a wide interval around it (once [0.0, 0.0]).
        let (elo, low, high) = Tally { draws: 4, ..Tally::default() }.elo();
        assert!(close(elo, 0.0, 1e-9) && low < -100.0 && high > 100.0, "{low} {high}");
        assert!(low.is_finite() && high.is_finite());
        // Three wins: the score is 1, the interval above zero and unbounded above.
        let (elo, low, high) = Tally { wins: 3, ..Tally::default() }.elo();
        assert!(elo == f64::INFINITY && low > 0.0 && high == f64::INFINITY, "{low}");
        // 5-1-0: score 11/12, per-game variance (5·(1/12)² + (5/12)²) / 6 = 0.034722, so the
        // interval 0.916667 ± 0.149100 reaches past 1 (once clamped to 445.6).
        let (elo, low, high) = Tally { wins: 5, draws: 1, losses: 0 }.elo();
        assert!(close(elo, elo_of_score(11.0 / 12.0), 1e-9) && high == f64::INFINITY);
        assert!(close(low, elo_of_score(11.0 / 12.0 - 0.149_100), 1e-2), "{low}");
        // One win, one loss: even, and two games bound nothing.
        let (elo, low, high) = Tally { wins: 1, losses: 1, ..Tally::default() }.elo();
        assert!(close(elo, 0.0, 1e-9) && low == f64::NEG_INFINITY && high == f64::INFINITY);
        assert_eq!(Tally::default().elo().0, 0.0);
    }

    #[test]
    fn los_draw_ratio_and_pentanomial_counts() {
        assert!(close(erf(1.0), 0.842_700_79, 1e-6) && close(erf(-0.5), -0.520_499_88, 1e-6));
        assert_eq!(Tally { draws: 5, ..Tally::default() }.los(), 0.5);
        // 10 wins, 5 losses: 0.5·(1 + erf(5 / √30)) = 0.5·(1 + 0.80329) = 0.90165.
        let t = Tally { wins: 10, draws: 5, losses: 5 };
        assert!(close(t.los(), 0.901_65, 1e-4), "{}", t.los());
        assert!(close(t.draw_ratio(), 0.25, 1e-12));
        let mut pairs = Pentanomial::default();
        for (a, b) in [(1.0, 1.0), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5), (1.0, 0.5)] {
            pairs.add(a, b);
        }
        assert_eq!((pairs.0, pairs.pairs()), ([0, 1, 2, 1, 1], 5));
    }

    /// Pairs 0 2 3 4 1: mean score (2·¼ + 3·½ + 4·¾ + 1) / 10 = 0.6, variance per pair
    /// (2·0.35² + 3·0.1² + 4·0.15² + 0.4²) / 10 = 0.0525, standard error √(0.0525 / 10) =
    /// 0.072457, so the interval is 0.6 ± 0.142013.
    #[test]
    fn the_pairs_interval_is_the_mean_pair_score_and_its_standard_error() {
        let pairs = Pentanomial([0, 2, 3, 4, 1]);
        assert!(close(pairs.score(), 0.6, 1e-12) && close(pairs.variance(), 0.0525, 1e-12));
        let (elo, low, high) = pairs.elo();
        assert!(close(elo, 70.436_504, 1e-5), "{elo}");
        assert!(close(low, -29.262_540, 1e-4) && close(high, 183.525_371, 1e-4), "{low} {high}");
        // The same games unpaired spread more: the pairs' interval is the narrower.
        let games = Tally { wins: 9, draws: 6, losses: 5 };
        let (_, game_low, game_high) = games.elo();
        assert!(high - low < game_high - game_low);
        // Five pairs won 2-0: above zero, unbounded above.
        let (elo, low, high) = Pentanomial([0, 0, 0, 0, 5]).elo();
        assert!(elo == f64::INFINITY && low > 0.0 && high == f64::INFINITY, "{low}");
        // Every pair drawn 1-1: even, with an interval from virtual pairs either side.
        let (elo, low, high) = Pentanomial([0, 0, 6, 0, 0]).elo();
        assert!(close(elo, 0.0, 1e-9) && low < -50.0 && close(high, -low, 1e-9), "{low}");
        assert_eq!(Pentanomial::default().elo().0, 0.0);
    }

    /// The generalized SPRT against a reference computed apart (Python, bisection for λ):
    /// pairs 10 60 180 80 20, H0 0 Elo, H1 10 Elo, LLR 2.341165; pairs 5 30 60 30 5, −0.279335.
    /// The normal approximation `N (s1 − s0)(2μ − s0 − s1) / (2σ²)` over pairs is close.
    #[test]
    fn the_pairs_llr_is_the_generalized_sprt() {
        let pairs = Pentanomial([10, 60, 180, 80, 20]);
        assert!(close(pairs.llr(0.0, 10.0), 2.341_165, 1e-5), "{}", pairs.llr(0.0, 10.0));
        let even = Pentanomial([5, 30, 60, 30, 5]);
        assert!(close(even.llr(0.0, 10.0), -0.279_335, 1e-5), "{}", even.llr(0.0, 10.0));
        assert!(close(Pentanomial([0, 2, 3, 4, 1]).llr(0.0, 10.0), 0.248_281, 1e-5));
        let approx = |p: &Pentanomial| {
            let (s0, s1) = (0.5, score_of_elo(10.0));
            let n = f64::from(p.pairs());
            n * (s1 - s0) * (2.0 * p.score() - s0 - s1) / (2.0 * p.variance())
        };
        assert!(close(pairs.llr(0.0, 10.0), approx(&pairs), 0.05));
        // The distribution fitted to a mean has that mean.
        let fitted = mean_constrained(&[0.1, 0.2, 0.3, 0.3, 0.1], score_of_elo(10.0));
        let mean: f64 = fitted.iter().zip(PAIR_SCORES).map(|(p, a)| p * a).sum();
        assert!(close(mean, score_of_elo(10.0), 1e-9) && close(fitted[0], 0.107_204, 1e-5));
        // Symmetric hypotheses around an even result balance; nothing before the first pair.
        assert!(Pentanomial([3, 7, 10, 7, 3]).llr(-10.0, 10.0).abs() < 1e-9);
        assert_eq!(Pentanomial::default().llr(0.0, 10.0), 0.0);
        // The same 700 games counted one by one (the 180 even pairs a win and a loss each)
        // tell less: the pairs' LLR of the same gain is the larger.
        let games = Tally { wins: 300, draws: 140, losses: 260 };
        assert!(close(games.score(), pairs.score(), 1e-12));
        assert!(pairs.llr(0.0, 10.0) > games.llr(0.0, 10.0), "{}", games.llr(0.0, 10.0));
    }

    #[test]
    fn sprt_bounds_and_llr_match_hand_computed_values() {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(close(lower, -2.944_439, 1e-6) && close(upper, 2.944_439, 1e-6));
        // W 50 D 10 L 40: score 0.55, per-game variance
        // (50·0.45² + 10·0.05² + 40·0.55²) / 100 = 0.2225.
        let t = Tally { wins: 50, draws: 10, losses: 40 };
        let (s0, s1) = (0.5, score_of_elo(10.0));
        let expected = 100.0 * (s1 - s0) * (2.0 * 0.55 - s0 - s1) / (2.0 * 0.2225);
        assert!(close(t.llr(0.0, 10.0), expected, 1e-9));
        assert!(close(expected, 0.276_793, 1e-5), "{expected}");
        // All wins: a virtual draw keeps the ratio finite and positive, rising with games.
        let (few, many) =
            (Tally { wins: 3, ..Tally::default() }, Tally { wins: 12, ..Tally::default() });
        assert!(few.llr(0.0, 50.0) > 0.0 && many.llr(0.0, 50.0) > few.llr(0.0, 50.0));
        assert_eq!(sprt_verdict(many.llr(0.0, 50.0)), SprtVerdict::H1);
        assert_eq!(Tally::default().llr(0.0, 5.0), 0.0);
        // All draws: evidence that neither is stronger, so against H1 of a gain, finite
        // (the tally once recursed forever here).
        let (one, many) =
            (Tally { draws: 1, ..Tally::default() }, Tally { draws: 400, ..Tally::default() });
        assert!(one.llr(0.0, 10.0) < 0.0 && one.llr(0.0, 10.0).is_finite());
        assert!(many.llr(0.0, 10.0) < one.llr(0.0, 10.0));
        assert_eq!(sprt_verdict(many.llr(0.0, 10.0)), SprtVerdict::H0);
        assert!(one.llr(-10.0, 10.0).abs() < 1e-9, "even, between symmetric hypotheses");
        assert_eq!(sprt_verdict(3.0), SprtVerdict::H1);
        assert_eq!(sprt_verdict(-3.0), SprtVerdict::H0);
        assert_eq!(sprt_verdict(0.5), SprtVerdict::Continue);
    }
}
