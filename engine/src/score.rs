//! Search scores: centi-stone-like integers from the side to move's point of view, with wins
//! and losses encoded as distances.
//!
//! ```text
//!  -WIN ........ -MATE_BOUND ...... 0 ...... MATE_BOUND ........ WIN
//!  loss now      slowest loss     draw /     slowest win         win now
//!                 representable   evaluation
//! ```
//!
//! `win_in(n)` = `WIN − n` means "the side to move wins with the n-th ply from the root"
//! (n odd); `loss_in(n)` = `−WIN + n` means "the opponent wins at ply n" (n even). Larger is
//! better for the side to move, so the search prefers the fastest win and the slowest loss.
//! Evaluations stay strictly inside `±MATE_BOUND`. All scores fit an `i16` (the TT stores
//! them as such).

/// A search score (see the module docs).
pub type Score = i32;

/// The score of winning at the root itself; wins in n plies score `WIN − n`.
pub const WIN: Score = 30_000;
/// Deepest ply the search can reach (more than any board has cells).
pub const MAX_PLY: usize = 256;
/// Scores at or beyond ±`MATE_BOUND` are wins/losses.
pub const MATE_BOUND: Score = WIN - MAX_PLY as Score;
/// Larger than any score; the initial window is `(−INFINITY, INFINITY)`.
pub const INFINITY: Score = 31_000;
/// The largest evaluation magnitude allowed.
pub const MAX_EVAL: Score = MATE_BOUND - 1;

const _: () = assert!(INFINITY < i16::MAX as Score && WIN < INFINITY);

/// The score of winning with ply `plies` from the root.
#[inline]
pub const fn win_in(plies: usize) -> Score {
    WIN - plies as Score
}

/// The score of losing to the opponent's move at ply `plies` from the root.
#[inline]
pub const fn loss_in(plies: usize) -> Score {
    -WIN + plies as Score
}

/// Whether `score` is a proven win or loss.
#[inline]
pub const fn is_decisive(score: Score) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// `Some(+n)` for a win at ply n, `Some(−n)` for a loss at ply n, `None` otherwise.
pub const fn mate_plies(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(WIN - score)
    } else if score <= -MATE_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// The score as people read it: `+M5` (win at ply 5), `-M4` (loss at ply 4), or the number.
pub fn format_score(score: Score) -> String {
    match mate_plies(score) {
        Some(n) if n > 0 => format!("+M{n}"),
        Some(n) => format!("-M{}", -n),
        None => score.to_string(),
    }
}

/// The score [`format_score`] wrote: `+M5`, `-M4` or a number within the evaluation's range.
///
/// ```
/// use mnk_engine::score::{format_score, parse_score, win_in};
/// assert_eq!(parse_score("+M5"), Some(win_in(5)));
/// assert_eq!(parse_score(&format_score(-37)), Some(-37));
/// assert_eq!(parse_score("M5"), None);
/// ```
pub fn parse_score(text: &str) -> Option<Score> {
    let plies = |digits: &str| digits.parse::<usize>().ok().filter(|&n| n <= MAX_PLY);
    if let Some(digits) = text.strip_prefix("+M") {
        Some(win_in(plies(digits)?))
    } else if let Some(digits) = text.strip_prefix("-M") {
        Some(loss_in(plies(digits)?))
    } else {
        text.parse::<Score>().ok().filter(|score| score.abs() <= MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faster_wins_and_slower_losses_score_higher() {
        assert!(win_in(1) > win_in(3));
        assert!(loss_in(8) > loss_in(2));
        assert!(loss_in(MAX_PLY) < -MAX_EVAL && win_in(MAX_PLY) > MAX_EVAL);
    }

    #[test]
    fn mate_scores_format_with_their_distance() {
        assert_eq!(format_score(win_in(5)), "+M5");
        assert_eq!(format_score(loss_in(4)), "-M4");
        assert_eq!(format_score(-37), "-37");
        assert_eq!(mate_plies(0), None);
        assert!(is_decisive(loss_in(200)) && !is_decisive(MAX_EVAL));
        for score in
            [win_in(1), win_in(MAX_PLY), loss_in(2), loss_in(MAX_PLY), 0, MAX_EVAL, -MAX_EVAL]
        {
            assert_eq!(parse_score(&format_score(score)), Some(score), "{score}");
        }
        for bad in ["", "+M", "M3", "+M-1", "x", "99999", "+3"] {
            assert_eq!(parse_score(bad), if bad == "+3" { Some(3) } else { None }, "{bad}");
        }
    }
}
