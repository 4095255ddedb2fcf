//! Match statistics: Elo difference with a 95 % interval, and the sequential probability
//! ratio test (SPRT) in the normal approximation used by engine testers.

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

    /// Elo difference and the 95 % interval `(elo, low, high)`; infinite at 0 % or 100 %.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let margin = 1.959_964 * (self.variance() / n).sqrt();
        (elo_of_score(s), elo_of_score(s - margin), elo_of_score(s + margin))
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
        let tally = match self.variance() {
            variance if variance > 0.0 => *self,
            _ if self.draws == self.games() => {
                Tally { wins: self.wins + 1, losses: self.losses + 1, ..*self }
            }
            _ => Tally { draws: self.draws + 1, ..*self },
        };
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        let n = f64::from(tally.games());
        n * (s1 - s0) * (2.0 * tally.score() - s0 - s1) / (2.0 * tally.variance())
    }
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
