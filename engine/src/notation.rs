//! Move-list notations: numeric `x,y` pairs and "pos" notation.
//!
//! * numeric: `7,7 8,8 9,7` — integers taken in pairs; separators may be spaces, commas or
//!   semicolons (`7,7;8,8` and `7,7,8,8` mean the same).
//! * pos: `h8i9j8`, `h8 i9 j8` or `h8,i9,j8` — a column letter (`a` = x 0) followed by the
//!   row number (`1` = y 0).
//!
//! Parsing only checks syntax; whether a coordinate is on the board is the board's concern
//! ([`crate::board::IllegalMove`]).

use std::fmt;
use std::str::FromStr;

/// A point as the protocol, the command line and the tools write it, before any board
/// check: `x` the column and `y` the row, from 0 at the top left. It prints as `x,y` and
/// parses from it (spaces around the comma allowed, each coordinate at most
/// [`MAX_COORDINATE`]); [`format_pos`] writes it in pos notation.
///
/// ```
/// use mnk_engine::notation::Point;
/// let point = Point::new(7, 8);
/// assert_eq!(point.to_string(), "7,8");
/// assert_eq!(" 7 , 8 ".parse::<Point>(), Ok(point));
/// assert!("7;8".parse::<Point>().is_err());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// The column, from 0 at the left.
    pub x: usize,
    /// The row, from 0 at the top.
    pub y: usize,
}

impl Point {
    /// The point of column `x`, row `y`.
    pub const fn new(x: usize, y: usize) -> Point {
        Point { x, y }
    }
}

impl From<(usize, usize)> for Point {
    fn from((x, y): (usize, usize)) -> Point {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    /// `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a text is not a [`Point`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PointError {
    /// Not two numbers separated by a comma.
    NotAPoint,
    /// A coordinate above [`MAX_COORDINATE`] (the text of the coordinate).
    OutOfRange(String),
}

impl fmt::Display for PointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointError::NotAPoint => f.write_str("expected x,y"),
            PointError::OutOfRange(coordinate) => write!(f, "coordinate {coordinate} out of range"),
        }
    }
}

impl std::error::Error for PointError {}

impl FromStr for Point {
    type Err = PointError;

    fn from_str(text: &str) -> Result<Point, PointError> {
        let (x, y) = text.split_once(',').ok_or(PointError::NotAPoint)?;
        let coordinate = |s: &str| {
            let s = s.trim();
            match s.parse::<usize>() {
                Ok(v) if v <= MAX_COORDINATE => Ok(v),
                Ok(_) => Err(PointError::OutOfRange(s.to_string())),
                Err(_) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(PointError::OutOfRange(s.to_string()))
                }
                Err(_) => Err(PointError::NotAPoint),
            }
        };
        Ok(Point { x: coordinate(x)?, y: coordinate(y)? })
    }
}

/// The point in "pos" notation: column letter (`a` = x 0), then row number (`y + 1`); the
/// inverse of [`parse_moves`] for one move.
///
/// ```
/// use mnk_engine::notation::{Point, format_pos, parse_moves};
/// assert_eq!(format_pos(Point::new(7, 7)), "h8");
/// assert_eq!(parse_moves(&format_pos(Point::new(0, 14))).unwrap(), vec![Point::new(0, 14)]);
/// ```
pub fn format_pos(point: Point) -> String {
    format!("{}{}", char::from(b'a' + point.x as u8), point.y + 1)
}

/// A syntax error in a move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A character that belongs to neither notation.
    UnexpectedChar {
        /// The character.
        found: char,
        /// Its byte offset in the input.
        offset: usize,
    },
    /// Numeric notation with an odd count of numbers.
    OddNumberCount,
    /// A pos-notation letter without a row number, or a row number 0.
    BadPosMove {
        /// Byte offset of the move in the input.
        offset: usize,
    },
    /// Both notations mixed in one list.
    MixedNotation,
    /// A number too large to be a coordinate.
    NumberTooLarge {
        /// Byte offset of the number in the input.
        offset: usize,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::UnexpectedChar { found, offset } => {
                write!(f, "unexpected character {found:?} at offset {offset}")
            }
            NotationError::OddNumberCount => {
                write!(f, "numeric moves need x,y pairs but the count of numbers is odd")
            }
            NotationError::BadPosMove { offset } => {
                write!(
                    f,
                    "pos move at offset {offset} needs a column letter and a row number from 1"
                )
            }
            NotationError::MixedNotation => write!(f, "mixed x,y and pos notation in one list"),
            NotationError::NumberTooLarge { offset } => {
                write!(f, "number at offset {offset} is too large for a coordinate")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Largest coordinate value the parsers accept (any board is far smaller).
pub const MAX_COORDINATE: usize = 9_999;

/// Parses a move list in either notation (see the module docs). An empty or blank string is
/// the empty list.
///
/// ```
/// use mnk_engine::notation::parse_moves;
/// use mnk_engine::notation::Point;
/// let expected = vec![Point::new(7, 7), Point::new(8, 8)];
/// assert_eq!(parse_moves("h8i9").unwrap(), expected);
/// assert_eq!(parse_moves("7,7 8,8").unwrap(), expected);
/// assert!(parse_moves("7,7 8").is_err());
/// ```
pub fn parse_moves(text: &str) -> Result<Vec<Point>, NotationError> {
    let bytes = text.as_bytes();
    let mut numbers: Vec<usize> = Vec::new();
    let mut pos_moves: Vec<Point> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b.is_ascii_whitespace() || b == b',' || b == b';' {
            i += 1;
        } else if b.is_ascii_digit() {
            let (value, end) = read_number(bytes, i)?;
            numbers.push(value);
            i = end;
        } else if b.is_ascii_alphabetic() {
            let x = usize::from(b.to_ascii_lowercase() - b'a');
            i += 1;
            if i >= bytes.len() || !bytes[i].is_ascii_digit() {
                return Err(NotationError::BadPosMove { offset: start });
            }
            let (row, end) = read_number(bytes, i)?;
            if row == 0 {
                return Err(NotationError::BadPosMove { offset: start });
            }
            pos_moves.push(Point::new(x, row - 1));
            i = end;
        } else {
            let found = text[start..].chars().next().unwrap_or('?');
            return Err(NotationError::UnexpectedChar { found, offset: start });
        }
    }
    match (numbers.is_empty(), pos_moves.is_empty()) {
        (_, true) if numbers.len() % 2 == 1 => Err(NotationError::OddNumberCount),
        (_, true) => Ok(numbers.chunks_exact(2).map(|p| Point::new(p[0], p[1])).collect()),
        (true, false) => Ok(pos_moves),
        (false, false) => Err(NotationError::MixedNotation),
    }
}

fn read_number(bytes: &[u8], start: usize) -> Result<(usize, usize), NotationError> {
    let mut value = 0usize;
    let mut i = start;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        value = value * 10 + usize::from(bytes[i] - b'0');
        if value > MAX_COORDINATE {
            return Err(NotationError::NumberTooLarge { offset: start });
        }
        i += 1;
    }
    Ok((value, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_notation_with_and_without_separators() {
        let expected = vec![Point::new(7, 7), Point::new(8, 8), Point::new(9, 7)];
        assert_eq!(parse_moves("h8i9j8").unwrap(), expected);
        assert_eq!(parse_moves("h8 i9 j8").unwrap(), expected);
        assert_eq!(parse_moves("H8,I9,J8").unwrap(), expected);
        assert_eq!(parse_moves("a15").unwrap(), vec![Point::new(0, 14)]);
    }

    #[test]
    fn numeric_notation_in_pairs() {
        let expected = vec![Point::new(7, 7), Point::new(8, 8)];
        assert_eq!(parse_moves("7,7 8,8").unwrap(), expected);
        assert_eq!(parse_moves("7,7;8,8").unwrap(), expected);
        assert_eq!(parse_moves(" 7 , 7 , 8 , 8 ").unwrap(), expected);
        assert_eq!(parse_moves("").unwrap(), vec![]);
    }

    #[test]
    fn syntax_errors_are_reported() {
        assert_eq!(parse_moves("7,7,8"), Err(NotationError::OddNumberCount));
        assert_eq!(parse_moves("h8 7,7"), Err(NotationError::MixedNotation));
        assert_eq!(parse_moves("h0"), Err(NotationError::BadPosMove { offset: 0 }));
        assert_eq!(parse_moves("h"), Err(NotationError::BadPosMove { offset: 0 }));
        assert!(matches!(parse_moves("7,7 x!"), Err(NotationError::BadPosMove { .. })));
        assert!(matches!(
            parse_moves("7-7"),
            Err(NotationError::UnexpectedChar { found: '-', .. })
        ));
        assert!(matches!(parse_moves("é"), Err(NotationError::UnexpectedChar { found: 'é', .. })));
        assert!(matches!(
            parse_moves("99999999999999999999999,1"),
            Err(NotationError::NumberTooLarge { .. })
        ));
    }
}
