//! The openings games start from: read from a file's lines (pos notation or offsets from
//! the centre), drawn at random near the centre, and scored by mnk's own search (a
//! balanced opening scores near 0).

use std::fmt;

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::{NotationError, Point, parse_moves};
use mnk_engine::outcome::Outcome;
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::score::Score;
use mnk_engine::size::BoardSize;

/// Why a text is not an opening, or an opening not a position to play from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// Bad pos notation.
    Notation(NotationError),
    /// Offsets that are not whole numbers.
    NotOffsets(String),
    /// An odd number of offsets.
    OddOffsets(String),
    /// An offset that leaves the board.
    OffTheBoard {
        /// Columns from the centre.
        dx: i64,
        /// Rows from the centre.
        dy: i64,
    },
    /// A move of the opening that cannot be played.
    Illegal(String),
    /// The opening already decides the game.
    Decided,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Notation(e) => write!(f, "{e}"),
            OpeningError::NotOffsets(line) => write!(f, "not an opening: {line:?}"),
            OpeningError::OddOffsets(line) => write!(f, "odd number of offsets: {line:?}"),
            OpeningError::OffTheBoard { dx, dy } => write!(f, "offset {dx},{dy} leaves the board"),
            OpeningError::Illegal(e) => write!(f, "{e}"),
            OpeningError::Decided => f.write_str("the opening already decides the game"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Parses an opening line: "pos" notation (`h8i9j8`) or offsets from the centre
/// (`0,0, 1,0, 0,1`, black first).
pub fn parse_opening(line: &str, size: BoardSize) -> Result<Vec<Point>, OpeningError> {
    if line.chars().any(|c| c.is_ascii_alphabetic()) {
        return parse_moves(line).map_err(OpeningError::Notation);
    }
    let numbers: Result<Vec<i64>, _> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::parse::<i64>)
        .collect();
    let numbers = numbers.map_err(|_| OpeningError::NotOffsets(line.to_string()))?;
    if numbers.len() % 2 != 0 {
        return Err(OpeningError::OddOffsets(line.to_string()));
    }
    let centre = ((size.width() / 2) as i64, (size.height() / 2) as i64);
    numbers
        .chunks_exact(2)
        .map(|p| {
            let (dx, dy) = (p[0], p[1]);
            match (usize::try_from(centre.0 + dx), usize::try_from(centre.1 + dy)) {
                (Ok(x), Ok(y)) => Ok(Point::new(x, y)),
                _ => Err(OpeningError::OffTheBoard { dx, dy }),
            }
        })
        .collect()
}

/// A random opening of `stones` stones within two cells of the centre (on 3×3: anywhere),
/// one that decides nothing and leaves no immediate win; deterministic for a seed.
pub fn random_opening(
    rng: &mut SplitMix64,
    size: BoardSize,
    rule: Rule,
    stones: usize,
) -> Vec<Point> {
    let (width, height) = (size.width(), size.height());
    let (rx, ry) = (width.min(5), height.min(5));
    let (low_x, low_y) = ((width - rx) / 2, (height - ry) / 2);
    loop {
        let mut game = Game::new(size, rule);
        let mut points = Vec::new();
        while points.len() < stones {
            let p = Point::new(low_x + rng.below(rx), low_y + rng.below(ry));
            if game.try_play(p).is_ok() {
                points.push(p);
            }
        }
        if game.outcome() == Outcome::Ongoing && points.len() < width * height {
            return points;
        }
    }
}

/// Transposition-table size of [`opening_score`]'s searches, in bytes.
pub const OPENING_SCORE_TABLE_BYTES: usize = 16 << 20;

/// mnk's score of the position after `opening`, for the side to move: a search limited to
/// `nodes`, with one thread and a fresh table, so the same opening always gets the same score.
/// A balanced opening is one whose score is near 0. Fails if a move of `opening` is illegal.
pub fn opening_score(
    size: BoardSize,
    rule: Rule,
    opening: &[Point],
    nodes: u64,
) -> Result<Score, OpeningError> {
    let game =
        Game::from_points(size, rule, opening).map_err(|e| OpeningError::Illegal(e.to_string()))?;
    let mut engine = Engine::with_hash_bytes(OPENING_SCORE_TABLE_BYTES);
    Ok(engine.go(&game, Limits::nodes(nodes), &mut |_| {}).score())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::score::is_decisive;

    #[test]
    fn openings_parse_in_both_notations() {
        let p = Point::new;
        let fifteen = BoardSize::FIFTEEN;
        assert_eq!(parse_opening("h8i9j8", fifteen), Ok(vec![p(7, 7), p(8, 8), p(9, 7)]));
        assert_eq!(parse_opening("0,0, 1,0, -1,1", fifteen), Ok(vec![p(7, 7), p(8, 7), p(6, 8)]));
        assert!(parse_opening("0,0, 1", fifteen).is_err());
        assert_eq!(
            parse_opening("-9,0", fifteen),
            Err(OpeningError::OffTheBoard { dx: -9, dy: 0 })
        );
    }

    #[test]
    fn random_openings_are_deterministic_and_open() {
        let mut a = SplitMix64::new(5);
        let mut b = SplitMix64::new(5);
        for _ in 0..20 {
            let o = random_opening(&mut a, BoardSize::FIFTEEN, Rule::Renju, 3);
            assert_eq!(o, random_opening(&mut b, BoardSize::FIFTEEN, Rule::Renju, 3));
            assert!(o.iter().all(|p| (5..10).contains(&p.x) && (5..10).contains(&p.y)));
        }
        let small = random_opening(&mut a, BoardSize::THREE, Rule::Freestyle, 1);
        assert_eq!(small.len(), 1);
    }

    #[test]
    fn opening_scores_repeat_and_see_who_is_ahead() {
        let score = |moves: &str| {
            let points = parse_opening(moves, BoardSize::FIFTEEN).unwrap();
            opening_score(BoardSize::FIFTEEN, Rule::Freestyle, &points, 20_000).unwrap()
        };
        // Black to move with an open three (white's stones far away): a win.
        let ahead = score("h8a1i8a15j8a14");
        assert!(is_decisive(ahead) && ahead > 0, "{ahead}");
        // A quiet opening: the same score every time, and no win for either side.
        let quiet = score("h8i9j8");
        assert_eq!(quiet, score("h8i9j8"));
        assert!(!is_decisive(quiet), "{quiet}");
        let illegal = parse_opening("h8h8", BoardSize::FIFTEEN).unwrap();
        assert!(opening_score(BoardSize::FIFTEEN, Rule::Freestyle, &illegal, 1_000).is_err());
    }
}
