//! The board sizes mnk plays, chosen at run time ([`BoardSize`]): 3×3 (three in a row) and
//! every board from 5×5 to 22×22, square or not (five in a row). A size chooses its storage
//! class ([`crate::storage::Storage`]) and its geometry ([`BoardSize::geometry`]).

use std::fmt;
use std::str::FromStr;

use crate::bitboard::{Bitboard, Bits16, Bits32, Bits256, Bits512};
use crate::geometry::Geometry;

/// Fewest cells per row or column of a board with five in a row (besides 3×3).
pub const MIN_SIDE: usize = 5;
/// Most cells per row or column mnk plays.
pub const MAX_SIDE: usize = 22;

/// A board size mnk plays: 3×3 (three in a row), or any width and height from
/// [`MIN_SIDE`] to [`MAX_SIDE`] (five in a row). Chooses the bitboard type at run time (see
/// [`crate::game::Game`]): 3×3 [`Bits16`], 5×5 [`Bits32`], the other boards up to 15×15
/// [`Bits256`], the larger ones [`Bits512`].
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct BoardSize {
    width: u8,
    height: u8,
}

impl BoardSize {
    /// 3×3, three in a row.
    pub const THREE: BoardSize = BoardSize { width: 3, height: 3 };
    /// 5×5, five in a row.
    pub const FIVE: BoardSize = BoardSize { width: 5, height: 5 };
    /// 15×15, five in a row.
    pub const FIFTEEN: BoardSize = BoardSize { width: 15, height: 15 };

    /// The board `width` × `height`, if mnk plays it.
    pub const fn new(width: usize, height: usize) -> Option<BoardSize> {
        let three = width == 3 && height == 3;
        let five =
            width >= MIN_SIDE && width <= MAX_SIDE && height >= MIN_SIDE && height <= MAX_SIDE;
        if three || five {
            Some(BoardSize { width: width as u8, height: height as u8 })
        } else {
            None
        }
    }

    /// The square board with `side` cells per row, if mnk plays it.
    pub const fn from_side(side: usize) -> Option<BoardSize> {
        BoardSize::new(side, side)
    }

    /// Every square size, smallest first.
    pub fn squares() -> impl Iterator<Item = BoardSize> {
        (3..=MAX_SIDE).filter_map(BoardSize::from_side)
    }

    /// The geometry of the size (width, height, win length, and the stride of its bitboard
    /// type).
    pub const fn geometry(self) -> Geometry {
        let (w, h) = (self.width as usize, self.height as usize);
        if w == 3 && h == 3 {
            Bits16::GEOMETRY
        } else if w == 5 && h == 5 {
            Bits32::GEOMETRY
        } else if w <= Bits256::GEOMETRY.width() && h <= Bits256::GEOMETRY.height() {
            Geometry::rect(w, h, 5, Bits256::GEOMETRY.stride())
        } else {
            Geometry::rect(w, h, 5, Bits512::GEOMETRY.stride())
        }
    }

    /// Cells per row.
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Whether the board is square.
    pub const fn is_square(self) -> bool {
        self.width == self.height
    }

    /// Whether every line of the board is a win line (3×3, 5×5): the boards solved exactly,
    /// with no line patterns.
    pub const fn is_small(self) -> bool {
        self.geometry().lines_span_board()
    }

    /// The size as `--size` takes it: `N` for a square board, `WxH` otherwise.
    pub fn arg(self) -> String {
        if self.is_square() { self.width.to_string() } else { self.to_string() }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A board size that mnk does not play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedSize(pub String);

impl fmt::Display for UnsupportedSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported board size '{}' (expected 3, or N or WxH with each from {MIN_SIDE} to {MAX_SIDE})",
            self.0
        )
    }
}

impl std::error::Error for UnsupportedSize {}

impl FromStr for BoardSize {
    type Err = UnsupportedSize;

    /// `N` (a square board) or `WxH`.
    fn from_str(s: &str) -> Result<BoardSize, UnsupportedSize> {
        let text = s.trim();
        let number = |t: &str| t.trim().parse::<usize>().ok();
        let size = match text.split_once(['x', 'X']) {
            Some((w, h)) => number(w).zip(number(h)).and_then(|(w, h)| BoardSize::new(w, h)),
            None => number(text).and_then(BoardSize::from_side),
        };
        size.ok_or_else(|| UnsupportedSize(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_a_side_or_width_by_height() {
        assert_eq!("15".parse(), Ok(BoardSize::FIFTEEN));
        assert_eq!("11x9".parse::<BoardSize>().map(|s| (s.width(), s.height())), Ok((11, 9)));
        assert_eq!("3".parse(), Ok(BoardSize::THREE));
        for bad in ["4", "3x5", "23", "0x0", "x", "5x", "-5", "15x15x1", "22x23", ""] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad}");
        }
        assert_eq!(BoardSize::FIVE.to_string(), "5x5");
    }

    #[test]
    fn each_size_has_the_geometry_of_its_type() {
        assert_eq!(BoardSize::FIFTEEN.geometry(), Bits256::GEOMETRY);
        assert_eq!(BoardSize::FIVE.geometry(), Bits32::GEOMETRY);
        let g = BoardSize::new(11, 7).unwrap().geometry();
        assert_eq!((g.width(), g.height(), g.k(), g.stride()), (11, 7, 5, 16));
        assert_eq!(BoardSize::squares().count(), 19);
        let g = BoardSize::new(20, 15).unwrap().geometry();
        assert_eq!((g.width(), g.height(), g.stride()), (20, 15, 23));
        assert_eq!(BoardSize::new(15, 16).unwrap().geometry().stride(), 23);
    }
}
