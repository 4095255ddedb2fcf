//! The win test: whether a line through the last stone wins under a [`Rule`], and which
//! empty cells would win for a player (its fives). The single place that decides a game.
//!
//! On boards whose side equals k (3×3, 5×5) every line spans the board, so overlines and
//! blocked ends cannot occur and all rules coincide; the test then uses the generated line
//! masks through the last stone ([`Storage::line_table`]). On larger boards it measures the run
//! through the last stone in each direction.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{Cell, Direction};
use crate::rules::{Rule, RunKind};
use crate::storage::Storage;

impl Rule {
    /// Whether the stones `own` of `color` (which include `cell`) hold a winning line through
    /// `cell`; `opp` are the opponent's stones (they matter for caro's blocked ends).
    #[inline]
    pub fn is_win_through<B: Storage>(self, own: B, opp: B, cell: Cell, color: Color) -> bool {
        let g = B::GEOMETRY;
        if g.lines_span_board() {
            // Every line spans the board: no overline or blocked end exists.
            B::line_table().through(cell).iter().any(|&m| own & m == m)
        } else {
            let k = g.k();
            // Where a longer run wins unless blocked (caro) its true ends matter; elsewhere
            // only whether it is longer than k.
            let fives = self.fives(color);
            let cap = if fives.overline_wins && fives.needs_open_end {
                g.width().max(g.height())
            } else {
                k + 1
            };
            Direction::ALL.into_iter().any(|dir| {
                let run = run_through(own, cell, dir, cap);
                if run.len < k {
                    return false;
                }
                let blocked_both = fives.needs_open_end
                    && run.before.is_some_and(|c| opp.contains(c))
                    && run.after.is_some_and(|c| opp.contains(c));
                fives.judge(run.len, k, blocked_both) == RunKind::Five
            })
        }
    }

    /// The stones of every winning line through `cell` (empty if none): what
    /// [`Rule::is_win_through`] judges, spelled out as cells, for showing a won game's five
    /// (not for the search: it walks every run to its end).
    pub fn winning_stones_through<B: Storage>(self, own: B, opp: B, cell: Cell, color: Color) -> B {
        let g = B::GEOMETRY;
        if g.lines_span_board() {
            let lines = B::line_table().through(cell).iter().filter(|&&m| own & m == m);
            return lines.fold(B::EMPTY, |all, &m| all | m);
        }
        let (k, fives) = (g.k(), self.fives(color));
        // The runs measured as the win test measures them.
        let cap = if fives.overline_wins && fives.needs_open_end {
            g.width().max(g.height())
        } else {
            k + 1
        };
        let mut stones = B::EMPTY;
        for dir in Direction::ALL {
            let run = run_through(own, cell, dir, cap);
            let blocked_both = fives.needs_open_end
                && run.before.is_some_and(|c| opp.contains(c))
                && run.after.is_some_and(|c| opp.contains(c));
            if run.len >= k && fives.judge(run.len, k, blocked_both) == RunKind::Five {
                stones |= run_cells(own, cell, dir);
            }
        }
        stones
    }

    /// The empty cells where one more stone of `own` (of `color`) would win: the fives a
    /// player threatens. `opp` are the opponent's stones. On a board smaller than its type's
    /// largest the set may hold cells past the board's edge, which callers remove
    /// ([`crate::board::Board::winning_cells`] does).
    ///
    /// On boards whose lines span the board this scans the line masks; on larger ones it matches,
    /// for each direction and each position of the gap, the window of k cells with
    /// shift-ands over the whole board (and, where exactly five wins, requires the cells
    /// just past the window not to be `own`). Caro's blocked fives are then filtered out by
    /// the win test.
    pub fn winning_cells<B: Storage>(self, own: B, opp: B, color: Color) -> B {
        let empty = !(own | opp);
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
        assert!(k <= MAX_K, "winning_cells supports k up to {MAX_K}");
        let exact = !self.fives(color).overline_wins;
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
                if exact {
                    // Cells p − (j+1)·dir and p + (k−j)·dir must not be own.
                    hits = hits - shifted[k + j + 1] - shifted[j];
                }
                wins |= hits;
            }
        }
        if self.is_caro() {
            for cell in wins.iter() {
                if !self.is_win_through(own.with(cell), opp, cell, color) {
                    wins = wins - B::from_cell(cell);
                }
            }
        }
        wins
    }
}

/// The largest win length supported by [`Rule::winning_cells`].
const MAX_K: usize = 5;

/// A run of stones through a cell along one direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Stones in the run (capped).
    pub len: usize,
    /// The cell just before the run (backwards), if on the board.
    pub before: Option<Cell>,
    /// The cell just after the run (forwards), if on the board.
    pub after: Option<Cell>,
}

/// The run of `own` stones through `cell` along `dir` (counting `cell`, which must be in
/// `own`), its length capped at `cap`, with the cells just past both ends.
#[inline]
pub fn run_through<B: Bitboard>(own: B, cell: Cell, dir: Direction, cap: usize) -> Run {
    let g = B::GEOMETRY;
    let step = dir.bit_offset(g.stride()) as usize;
    let limit = g.slots();
    let mut len = 1;
    // Forwards: guard bits stop horizontal and diagonal runs at the right edge; `limit` the
    // bottom.
    let mut i = cell.index() + step;
    while len < cap && i < limit && own.contains(Cell::from_index(i as u16)) {
        len += 1;
        i += step;
    }
    let after = (i < limit).then(|| Cell::from_index(i as u16)).filter(|&c| g.is_on_board(c));
    // Backwards: guard bits stop runs at the left edge; index underflow the top.
    let mut i = cell.index();
    while len < cap && i >= step && own.contains(Cell::from_index((i - step) as u16)) {
        len += 1;
        i -= step;
    }
    let before =
        (i >= step).then(|| Cell::from_index((i - step) as u16)).filter(|&c| g.is_on_board(c));
    Run { len, before, after }
}

/// The cells of the run of `own` stones through `cell` along `dir` (uncapped).
fn run_cells<B: Bitboard>(own: B, cell: Cell, dir: Direction) -> B {
    let g = B::GEOMETRY;
    let step = dir.bit_offset(g.stride()) as usize;
    let mut cells = B::from_cell(cell);
    let mut i = cell.index() + step;
    while i < g.slots() && own.contains(Cell::from_index(i as u16)) {
        cells = cells.with(Cell::from_index(i as u16));
        i += step;
    }
    let mut i = cell.index();
    while i >= step && own.contains(Cell::from_index((i - step) as u16)) {
        i -= step;
        cells = cells.with(Cell::from_index(i as u16));
    }
    cells
}

/// Length of the run of `own` stones through `cell` along `dir`, capped at `cap`.
#[inline]
pub fn run_length<B: Bitboard>(own: B, cell: Cell, dir: Direction, cap: usize) -> usize {
    run_through(own, cell, dir, cap).len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bits16, Bits32, Bits256};

    fn row(xs: &[usize], y: usize) -> Bits256 {
        let g = Bits256::GEOMETRY;
        xs.iter().fold(Bits256::EMPTY, |b, &x| b.with(g.cell(x, y).unwrap()))
    }

    /// The stones shown as a won game's five are those of the runs the win test accepts: an
    /// overline under freestyle, not under standard; a caro five only with an open end.
    #[test]
    fn the_winning_stones_are_the_runs_the_win_test_accepts() {
        let g = Bits256::GEOMETRY;
        let (five, six) = (row(&[3, 4, 5, 6, 7], 2), row(&[3, 4, 5, 6, 7, 8], 2));
        let cell = g.cell(5, 2).unwrap();
        let none = Bits256::EMPTY;
        let (b, w) = (Color::Black, Color::White);
        for rule in Rule::ALL {
            assert_eq!(rule.winning_stones_through(five, none, cell, b), five, "{rule}");
        }
        assert_eq!(Rule::Freestyle.winning_stones_through(six, none, cell, b), six);
        assert_eq!(Rule::Standard.winning_stones_through(six, none, cell, b), none);
        assert_eq!(Rule::Renju.winning_stones_through(six, none, cell, w), six);
        let both_ends = row(&[2, 8], 2);
        assert_eq!(Rule::Caro.winning_stones_through(five, both_ends, cell, b), none);
        assert_eq!(Rule::Caro.winning_stones_through(five, row(&[2], 2), cell, b), five);
        // A five and a column of four through the same stone: only the five.
        let column = [1, 3, 4].iter().fold(five, |s, &y| s.with(g.cell(5, y).unwrap()));
        assert_eq!(Rule::Freestyle.winning_stones_through(column, none, cell, b), five);
        // Random boards: a stone is shown exactly when the win test says the game is won.
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..2000 {
            let (mut own, mut opp) = (Bits256::EMPTY, Bits256::EMPTY);
            for y in 0..9 {
                for x in 0..9 {
                    let c = g.cell(x, y).unwrap();
                    match rng.next_u64() % 3 {
                        0 => own = own.with(c),
                        1 => opp = opp.with(c),
                        _ => {}
                    }
                }
            }
            let cell = g.cell(4, 4).unwrap();
            let (own, opp) = (own.with(cell), opp - Bits256::from_cell(cell));
            for rule in Rule::ALL {
                let shown = rule.winning_stones_through(own, opp, cell, b);
                assert_eq!(!shown.is_empty(), rule.is_win_through(own, opp, cell, b), "{rule}");
                assert!(
                    shown - own == Bits256::EMPTY && (shown.is_empty() || shown.contains(cell))
                );
            }
        }
    }

    #[test]
    fn five_wins_under_both_rules() {
        let g = Bits256::GEOMETRY;
        let five = row(&[3, 4, 5, 6, 7], 2);
        for rule in Rule::ALL {
            assert!(
                rule.is_win_through(five, Bits256::EMPTY, g.cell(5, 2).unwrap(), Color::Black),
                "{rule}"
            );
        }
    }

    #[test]
    fn overline_wins_only_in_freestyle() {
        let g = Bits256::GEOMETRY;
        let six = row(&[0, 1, 2, 3, 4, 5], 14);
        let last = g.cell(2, 14).unwrap();
        let e = Bits256::EMPTY;
        assert!(Rule::Freestyle.is_win_through(six, e, last, Color::Black));
        assert!(!Rule::Standard.is_win_through(six, e, last, Color::Black));
        assert!(!Rule::Renju.is_win_through(six, e, last, Color::Black));
        assert!(Rule::Renju.is_win_through(six, e, last, Color::White));
        assert!(Rule::Caro.is_win_through(six, e, last, Color::White));
        assert!(!Rule::CaroExact.is_win_through(six, e, last, Color::White));
    }

    #[test]
    fn runs_do_not_wrap_around_the_edge() {
        let g = Bits256::GEOMETRY;
        // Three at the end of row 4 and two at the start of row 5 are not five in a row.
        let stones = row(&[12, 13, 14], 4) | row(&[0, 1], 5);
        assert_eq!(run_length(stones, g.cell(14, 4).unwrap(), Direction::East, 9), 3);
        assert!(!Rule::Freestyle.is_win_through(
            stones,
            Bits256::EMPTY,
            g.cell(0, 5).unwrap(),
            Color::Black
        ));
        // Anti-diagonal from the right edge down-left.
        let diag = [(14, 0), (13, 1), (12, 2), (11, 3), (10, 4)]
            .iter()
            .fold(Bits256::EMPTY, |b, &(x, y)| b.with(g.cell(x, y).unwrap()));
        assert!(Rule::Standard.is_win_through(
            diag,
            Bits256::EMPTY,
            g.cell(14, 0).unwrap(),
            Color::Black
        ));
    }

    #[test]
    fn small_boards_win_with_a_full_line() {
        const DIAGONAL: Bits16 = Bits16::literal("x . . / . x . / . . x");
        const BENT: Bits16 = Bits16::literal("x . . / . x . / . x .");
        let (g, none) = (Bits16::GEOMETRY, Bits16::EMPTY);
        for rule in Rule::ALL {
            assert!(rule.is_win_through(DIAGONAL, none, g.cell(1, 1).unwrap(), Color::White));
        }
        assert!(!Rule::Freestyle.is_win_through(BENT, none, g.cell(1, 1).unwrap(), Color::Black));
    }

    /// Slow reference: try every empty cell and ask the win test.
    fn winning_cells_by_trial<B: Storage>(rule: Rule, own: B, opp: B, color: Color) -> B {
        (!(own | opp))
            .iter()
            .filter(|&c| rule.is_win_through(own.with(c), opp, c, color))
            .fold(B::EMPTY, Bitboard::with)
    }

    fn winning_cells_match_trial<B: Storage>(seed: u64, density: usize) {
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
            for rule in Rule::ALL {
                for color in [Color::Black, Color::White] {
                    assert_eq!(
                        rule.winning_cells(own, other, color),
                        winning_cells_by_trial(rule, own, other, color),
                        "{rule} {color:?}\n{}",
                        own
                    );
                }
            }
        }
    }

    #[test]
    fn winning_cells_agree_with_trying_every_move() {
        winning_cells_match_trial::<Bits16>(1, 4);
        winning_cells_match_trial::<Bits32>(2, 3);
        winning_cells_match_trial::<Bits256>(3, 3);
        winning_cells_match_trial::<Bits256>(4, 4);
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let g = Bits256::GEOMETRY;
        let five = row(&[3, 4, 5, 6, 7], 2);
        let cell = g.cell(5, 2).unwrap();
        let one_end = row(&[2], 2);
        let both_ends = row(&[2, 8], 2);
        assert!(Rule::Caro.is_win_through(five, one_end, cell, Color::Black));
        assert!(!Rule::Caro.is_win_through(five, both_ends, cell, Color::Black));
        assert!(Rule::Freestyle.is_win_through(five, both_ends, cell, Color::Black));
        // The true ends of an overline count, not the ends of its first six stones.
        let seven = row(&[3, 4, 5, 6, 7, 8, 9], 2);
        let blocked = row(&[2, 10], 2);
        assert!(!Rule::Caro.is_win_through(seven, blocked, cell, Color::Black));
        assert!(Rule::Caro.is_win_through(seven, row(&[2], 2), cell, Color::Black));
        // At the edge, the wall does not block.
        let edge_five = row(&[0, 1, 2, 3, 4], 6);
        assert!(Rule::Caro.is_win_through(
            edge_five,
            row(&[5], 6),
            g.cell(0, 6).unwrap(),
            Color::White
        ));
    }
}
