//! The boards the prover works on: up to 8×8, one `u64` a side, bit `8 * y + x` for the
//! cell (x, y) (no guard column: the prover tests lines by their masks only). The k = 5 win
//! lines, the lines through each cell, and the board's symmetries as bit permutations.

/// Cells in a line.
pub const K: usize = 5;
/// The widest and highest board the prover takes.
pub const MAX_SIDE: u8 = 8;
/// The narrowest and lowest board (a line of five must fit).
pub const MIN_SIDE: u8 = 5;

/// The bit of cell (x, y).
pub const fn bit(x: u8, y: u8) -> u64 {
    1 << (8 * y as u32 + x as u32)
}

/// The cells of a bit set, lowest first.
pub fn cells(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let cell = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(cell)
    })
}

/// A board's shape: its cells, its win lines and its symmetries.
#[derive(Clone, Debug)]
pub struct Grid {
    width: u8,
    height: u8,
    all: u64,
    lines: Vec<u64>,
    /// For each cell (0..64), the indices into `lines` of the lines through it.
    through: Vec<Vec<u8>>,
    /// The lines grouped by the row, column or diagonal they lie on, each group in order
    /// along it.
    runs: Vec<Vec<u8>>,
    /// For each symmetry, the image of each cell's bit.
    cell_images: Vec<[u64; 64]>,
}

impl Grid {
    /// The `width`×`height` board, or `None` outside 5..=8 a side.
    pub fn new(width: u8, height: u8) -> Option<Grid> {
        let side = MIN_SIDE..=MAX_SIDE;
        if !side.contains(&width) || !side.contains(&height) {
            return None;
        }
        let mut all = 0;
        for y in 0..height {
            for x in 0..width {
                all |= bit(x, y);
            }
        }
        let mut lines = Vec::new();
        // (direction, the run's first cell, steps from it) of each line.
        let mut places = Vec::new();
        for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            for y in 0..i32::from(height) {
                for x in 0..i32::from(width) {
                    let (ex, ey) = (x + dx * (K as i32 - 1), y + dy * (K as i32 - 1));
                    if ex < 0 || ey < 0 || ex >= i32::from(width) || ey >= i32::from(height) {
                        continue;
                    }
                    let mask = (0..K as i32)
                        .map(|i| bit((x + dx * i) as u8, (y + dy * i) as u8))
                        .fold(0, |m, b| m | b);
                    lines.push(mask);
                    let inside = |x: i32, y: i32| {
                        x >= 0 && y >= 0 && x < i32::from(width) && y < i32::from(height)
                    };
                    let (mut sx, mut sy, mut steps) = (x, y, 0);
                    while inside(sx - dx, sy - dy) {
                        (sx, sy, steps) = (sx - dx, sy - dy, steps + 1);
                    }
                    places.push(((dx, dy), (sx, sy), steps));
                }
            }
        }
        let mut through = vec![Vec::new(); 64];
        for (index, &mask) in lines.iter().enumerate() {
            for cell in cells(mask) {
                through[cell as usize].push(index as u8);
            }
        }
        let mut order: Vec<usize> = (0..lines.len()).collect();
        order.sort_by_key(|&i| places[i]);
        let mut runs: Vec<Vec<u8>> = Vec::new();
        for (n, &i) in order.iter().enumerate() {
            let same_run = n > 0 && {
                let j = order[n - 1];
                (places[j].0, places[j].1) == (places[i].0, places[i].1)
            };
            if !same_run {
                runs.push(Vec::new());
            }
            runs.last_mut().expect("a run").push(i as u8);
        }
        let mut grid = Grid { width, height, all, lines, through, runs, cell_images: Vec::new() };
        grid.cell_images = (0..grid.symmetries())
            .map(|sym| {
                let mut images = [0u64; 64];
                for cell in cells(all) {
                    images[cell as usize] = 1 << grid.transform_cell(sym, cell);
                }
                images
            })
            .collect();
        Some(grid)
    }

    /// A position's images under each symmetry, for [`Grid::canonical_after`].
    pub fn images(&self, first: u64, second: u64) -> arrayvec::ArrayVec<(u64, u64), 8> {
        (0..self.symmetries())
            .map(|sym| (self.transform(sym, first), self.transform(sym, second)))
            .collect()
    }

    /// [`Grid::canonical`] of the position whose `images` are given, with one more stone
    /// on `cell` (`first`'s when `to_first`, else `second`'s): each image gains the cell's
    /// image, so no set is transformed again.
    pub fn canonical_after(&self, images: &[(u64, u64)], cell: u8, to_first: bool) -> (u128, u8) {
        least(images.iter().enumerate().map(|(sym, &(first, second))| {
            let add = self.cell_images[sym][cell as usize];
            if to_first { (first | add, second) } else { (first, second | add) }
        }))
    }

    /// The lines grouped by the row, column or diagonal they lie on, each group in order
    /// along it: two lines of different groups share at most one cell.
    pub fn runs(&self) -> &[Vec<u8>] {
        &self.runs
    }

    /// Cells across.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Cells down.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Every cell of the board.
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The win lines (five cells each).
    pub fn lines(&self) -> &[u64] {
        &self.lines
    }

    /// The indices of the lines through `cell`.
    pub fn lines_through(&self, cell: u8) -> &[u8] {
        &self.through[cell as usize]
    }

    /// How many symmetries the board has: 8 when square, else 4.
    pub fn symmetries(&self) -> u8 {
        if self.width == self.height { 8 } else { 4 }
    }

    /// The image of a set under symmetry `sym` (bit 2: transpose, then bit 0: mirror the
    /// columns, then bit 1: mirror the rows). Transposing needs a square board.
    pub fn transform(&self, sym: u8, mut set: u64) -> u64 {
        if sym & 4 != 0 {
            set = transpose(set);
        }
        if sym & 1 != 0 {
            set = set.reverse_bits().swap_bytes() >> (8 - self.width);
        }
        if sym & 2 != 0 {
            set = set.swap_bytes() >> (8 * (8 - u32::from(self.height)));
        }
        set
    }

    /// The set that symmetry `sym` takes to `set`: the inverse of [`Grid::transform`] (its
    /// three steps are each their own inverse, so they are undone in the reverse order).
    pub fn untransform(&self, sym: u8, mut set: u64) -> u64 {
        if sym & 2 != 0 {
            set = set.swap_bytes() >> (8 * (8 - u32::from(self.height)));
        }
        if sym & 1 != 0 {
            set = set.reverse_bits().swap_bytes() >> (8 - self.width);
        }
        if sym & 4 != 0 {
            set = transpose(set);
        }
        set
    }

    /// The image of one cell under symmetry `sym` (as [`Grid::transform`]).
    pub fn transform_cell(&self, sym: u8, cell: u8) -> u8 {
        let (mut x, mut y) = (cell % 8, cell / 8);
        if sym & 4 != 0 {
            (x, y) = (y, x);
        }
        if sym & 1 != 0 {
            x = self.width - 1 - x;
        }
        if sym & 2 != 0 {
            y = self.height - 1 - y;
        }
        8 * y + x
    }

    /// The cell that symmetry `sym` takes to `cell`.
    pub fn inverse_cell(&self, sym: u8, cell: u8) -> u8 {
        let (mut x, mut y) = (cell % 8, cell / 8);
        if sym & 2 != 0 {
            y = self.height - 1 - y;
        }
        if sym & 1 != 0 {
            x = self.width - 1 - x;
        }
        if sym & 4 != 0 {
            (x, y) = (y, x);
        }
        8 * y + x
    }

    /// The key of a position up to symmetry: the least `(first, second)` image, as one
    /// number, and the symmetry that gives it.
    pub fn canonical(&self, first: u64, second: u64) -> (u128, u8) {
        least(
            (0..self.symmetries())
                .map(|sym| (self.transform(sym, first), self.transform(sym, second))),
        )
    }
}

/// The least of a position's images (symmetry by symmetry) as one number, and its
/// symmetry (the first of equals).
fn least(images: impl Iterator<Item = (u64, u64)>) -> (u128, u8) {
    let mut best = (u128::MAX, 0);
    for (sym, (first, second)) in images.enumerate() {
        let key = (u128::from(first) << 64) | u128::from(second);
        if key < best.0 {
            best = (key, sym as u8);
        }
    }
    best
}

/// Mirrors an 8×8 set in its main diagonal: (x, y) to (y, x).
fn transpose(mut set: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (set ^ (set << 28));
    set ^= t ^ (t >> 28);
    t = K2 & (set ^ (set << 14));
    set ^= t ^ (t >> 14);
    t = K1 & (set ^ (set << 7));
    set ^= t ^ (t >> 7);
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_counts_match_the_formula() {
        // Per direction: (w - 4) h, w (h - 4), and (w - 4)(h - 4) for each diagonal.
        for (w, h) in [(5u8, 5u8), (6, 6), (7, 7), (8, 8), (6, 8), (8, 5)] {
            let grid = Grid::new(w, h).unwrap();
            let (w, h) = (w as usize, h as usize);
            assert_eq!(grid.lines().len(), (w - 4) * h + w * (h - 4) + 2 * (w - 4) * (h - 4));
            for &cell in &[0u8, 9, 8 * (h as u8 - 1) + w as u8 - 1] {
                for &index in grid.lines_through(cell) {
                    assert_ne!(grid.lines()[index as usize] & (1 << cell), 0);
                }
            }
        }
        assert!(Grid::new(4, 8).is_none() && Grid::new(8, 9).is_none());
        // Runs: every line once; along a run each line shifts by one cell; lines of
        // different runs share at most one cell.
        for (w, h) in [(5u8, 5u8), (7, 6), (8, 8)] {
            let grid = Grid::new(w, h).unwrap();
            let mut seen: Vec<u8> = grid.runs().iter().flatten().copied().collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..grid.lines().len() as u8).collect::<Vec<_>>());
            for run in grid.runs() {
                for pair in run.windows(2) {
                    let (l, m) = (grid.lines()[pair[0] as usize], grid.lines()[pair[1] as usize]);
                    assert_eq!((l & m).count_ones(), 4, "{w}x{h}: neighbours in a run");
                }
            }
            for (i, r) in grid.runs().iter().enumerate() {
                for other in &grid.runs()[i + 1..] {
                    for &l in r {
                        for &m in other {
                            let shared = grid.lines()[l as usize] & grid.lines()[m as usize];
                            assert!(shared.count_ones() <= 1, "{w}x{h}: lines {l} and {m}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn set_transforms_agree_with_cell_transforms() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for (w, h) in [(5u8, 5u8), (6, 6), (7, 7), (8, 8), (6, 8), (8, 5), (7, 5)] {
            let grid = Grid::new(w, h).unwrap();
            for _ in 0..50 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let set = seed & grid.all();
                for sym in 0..grid.symmetries() {
                    let slow = cells(set).fold(0u64, |m, c| m | 1 << grid.transform_cell(sym, c));
                    assert_eq!(grid.transform(sym, set), slow, "{w}x{h} sym {sym}");
                    assert_eq!(grid.untransform(sym, grid.transform(sym, set)), set);
                    let other = seed.rotate_left(17) & grid.all() & !set;
                    let images = grid.images(set, other);
                    for cell in cells(grid.all() & !(set | other)).take(3) {
                        let slow = grid.canonical(set | 1 << cell, other);
                        assert_eq!(grid.canonical_after(&images, cell, true), slow);
                        let slow = grid.canonical(set, other | 1 << cell);
                        assert_eq!(grid.canonical_after(&images, cell, false), slow);
                    }
                    for cell in cells(set) {
                        assert_eq!(grid.inverse_cell(sym, grid.transform_cell(sym, cell)), cell);
                    }
                }
            }
        }
    }
}
