//! Game rules: what makes a win.
//!
//! | rule        | a line of k wins        | a longer line (overline)      |
//! |-------------|-------------------------|-------------------------------|
//! | `Freestyle` | yes                     | wins                          |
//! | `Standard`  | yes                     | neither wins nor ends the game|
//!
//! Renju (black's forbidden points) and Caro (a five blocked at both ends does not win) are
//! added with the pattern tables; the win test below is the single place that decides a
//! game, so they plug in here.
//!
//! On boards whose side equals k (3×3, 5×5) every line spans the board, so an overline is
//! impossible and the rules coincide; the test then uses the generated line masks through the
//! last stone. On 15×15 it measures the run through the last stone in each direction.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
use crate::geometry::{Cell, Direction};

/// The rule deciding which lines win.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum Rule {
    /// Five (k) or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five (k) in a row wins; an overline neither wins nor ends the game.
    Standard,
}

impl Rule {
    /// Every rule, in protocol order.
    pub const ALL: [Rule; 2] = [Rule::Freestyle, Rule::Standard];

    /// The rule's lower-case name, as the command line spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
        }
    }

    /// Whether the stones `own` (which include `cell`) hold a winning line through `cell`.
    ///
    /// `own` must not already hold a winning line elsewhere that excludes `cell` — the game
    /// would have ended — but the test only looks through `cell` anyway.
    #[inline]
    pub fn is_win_through<B: Bitboard>(self, own: B, cell: Cell) -> bool {
        let g = B::GEOMETRY;
        if g.lines_span_board() {
            // Every line spans the board: no overline exists, all rules agree.
            B::line_table().through(cell).iter().any(|&m| own & m == m)
        } else {
            let k = g.k();
            Direction::ALL.into_iter().any(|dir| {
                let run = run_length(own, cell, dir, k + 1);
                match self {
                    Rule::Freestyle => run >= k,
                    Rule::Standard => run == k,
                }
            })
        }
    }
}

impl Rule {
    /// The empty cells where one more stone of `own` would win: the "fives" a player
    /// threatens. `empty` is the set of empty cells.
    ///
    /// On boards whose lines span the board this scans the line masks; on 15×15 it matches,
    /// for each direction and each position of the gap, the window of k cells with
    /// shift-ands over the whole board (and, under `Standard`, requires the cells just past
    /// the window not to be `own`, so the line is exactly k).
    pub fn winning_cells<B: Bitboard>(self, own: B, empty: B) -> B {
        let g = B::GEOMETRY;
        let k = g.k();
        let mut wins = B::EMPTY;
        if g.lines_span_board() {
            for line in B::line_table().lines() {
                let gap = line.mask & empty;
                if (line.mask & own).count() as usize == k - 1 && !gap.is_empty() {
                    wins |= gap;
                }
            }
            return wins;
        }
        for dir in Direction::ALL {
            // shifted[i + k] = own moved by i steps, for i in −k..=k: cell p of
            // `shifted[i + k]` is set when p − i·dir holds an own stone.
            let mut shifted = [B::EMPTY; 2 * MAX_K + 1];
            shifted[k] = own;
            for i in 1..=k {
                shifted[k + i] = shifted[k + i - 1].shift(dir, 1);
                shifted[k - i] = shifted[k - i + 1].shift(dir, -1);
            }
            // A gap at p with the window covering p − j·dir .. p + (k−1−j)·dir.
            for j in 0..k {
                let mut hits = empty;
                for i in 0..k {
                    if i != j {
                        // cell p + (i − j)·dir must be own: own shifted by (j − i) steps.
                        hits &= shifted[k + j - i];
                    }
                }
                if self == Rule::Standard {
                    // Cells p − (j+1)·dir and p + (k−j)·dir must not be own.
                    hits = hits.without(shifted[k + j + 1]).without(shifted[j]);
                }
                wins |= hits;
            }
        }
        wins
    }
}

/// The largest win length supported by [`Rule::winning_cells`].
const MAX_K: usize = 5;

/// Length of the run of `own` stones through `cell` along `dir` (counting `cell`, which must
/// be in `own`), capped at `cap`.
#[inline]
pub fn run_length<B: Bitboard>(own: B, cell: Cell, dir: Direction, cap: usize) -> usize {
    let g = B::GEOMETRY;
    let step = dir.bit_offset(g.stride()) as usize;
    let limit = g.stride() * g.side();
    let mut run = 1;
    // Forwards: guard bits stop horizontal and diagonal runs at the right edge; `limit` the
    // bottom.
    let mut i = cell.index() + step;
    while run < cap && i < limit && own.contains(Cell::from_index(i as u8)) {
        run += 1;
        i += step;
    }
    // Backwards: guard bits stop runs at the left edge; index underflow the top.
    let mut i = cell.index();
    while run < cap && i >= step && own.contains(Cell::from_index((i - step) as u8)) {
        run += 1;
        i -= step;
    }
    run
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule '{}' (expected freestyle or standard)", self.0)
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        let lower = s.trim().to_ascii_lowercase();
        Rule::ALL.into_iter().find(|r| r.name() == lower).ok_or_else(|| UnknownRule(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits256;

    fn row(xs: &[usize], y: usize) -> Bits256 {
        let g = Bits256::GEOMETRY;
        xs.iter().fold(Bits256::EMPTY, |b, &x| b.with(g.cell(x, y).unwrap()))
    }

    #[test]
    fn five_wins_under_both_rules() {
        let g = Bits256::GEOMETRY;
        let five = row(&[3, 4, 5, 6, 7], 2);
        for rule in Rule::ALL {
            assert!(rule.is_win_through(five, g.cell(5, 2).unwrap()), "{rule}");
        }
    }

    #[test]
    fn overline_wins_only_in_freestyle() {
        let g = Bits256::GEOMETRY;
        let six = row(&[0, 1, 2, 3, 4, 5], 14);
        let last = g.cell(2, 14).unwrap();
        assert!(Rule::Freestyle.is_win_through(six, last));
        assert!(!Rule::Standard.is_win_through(six, last));
    }

    #[test]
    fn runs_do_not_wrap_around_the_edge() {
        let g = Bits256::GEOMETRY;
        // Three at the end of row 4 and two at the start of row 5 are not five in a row.
        let stones = row(&[12, 13, 14], 4) | row(&[0, 1], 5);
        assert_eq!(run_length(stones, g.cell(14, 4).unwrap(), Direction::East, 9), 3);
        assert!(!Rule::Freestyle.is_win_through(stones, g.cell(0, 5).unwrap()));
        // Anti-diagonal from the right edge down-left.
        let diag = [(14, 0), (13, 1), (12, 2), (11, 3), (10, 4)]
            .iter()
            .fold(Bits256::EMPTY, |b, &(x, y)| b.with(g.cell(x, y).unwrap()));
        assert!(Rule::Standard.is_win_through(diag, g.cell(14, 0).unwrap()));
    }

    #[test]
    fn small_boards_win_with_a_full_line() {
        let diag = u16::from_picture("x . .\n. x .\n. . x").unwrap();
        let g = u16::GEOMETRY;
        assert!(Rule::Standard.is_win_through(diag, g.cell(1, 1).unwrap()));
        let bent = u16::from_picture("x . .\n. x .\n. x .").unwrap();
        assert!(!Rule::Freestyle.is_win_through(bent, g.cell(1, 1).unwrap()));
    }

    /// Slow reference: try every empty cell and ask the win test.
    fn winning_cells_by_trial<B: Bitboard>(rule: Rule, own: B, empty: B) -> B {
        empty.iter().filter(|&c| rule.is_win_through(own.with(c), c)).fold(B::EMPTY, Bitboard::with)
    }

    fn winning_cells_match_trial<B: Bitboard>(seed: u64, density: usize) {
        let mut rng = crate::rng::SplitMix64::new(seed);
        for _ in 0..400 {
            let (mut own, mut other) = (B::EMPTY, B::EMPTY);
            for c in B::FULL.iter() {
                match rng.below(density) {
                    0 | 1 => own = own.with(c),
                    2 => other = other.with(c),
                    _ => {}
                }
            }
            let empty = (own | other).complement();
            for rule in Rule::ALL {
                assert_eq!(
                    rule.winning_cells(own, empty),
                    winning_cells_by_trial(rule, own, empty),
                    "{rule}\n{}",
                    own.picture()
                );
            }
        }
    }

    #[test]
    fn winning_cells_agree_with_trying_every_move() {
        winning_cells_match_trial::<u16>(1, 4);
        winning_cells_match_trial::<u32>(2, 3);
        winning_cells_match_trial::<Bits256>(3, 3);
        winning_cells_match_trial::<Bits256>(4, 4);
    }

    #[test]
    fn rule_names_parse_case_insensitively() {
        assert_eq!("Standard".parse::<Rule>(), Ok(Rule::Standard));
        assert_eq!(" freestyle ".parse::<Rule>(), Ok(Rule::Freestyle));
        assert!("renjuu".parse::<Rule>().is_err());
    }
}
