//! What the prover reads off a position without searching: fours, the attacker's live
//! lines, pairing strategies, and continuous-four wins (VCF) with the cells they rely on.
//!
//! Throughout, `own` and `opp` are the stones of the side in question and of the other.

use super::grid::{Grid, cells};

/// The cells where `own` would complete a line of five (lines with four of `own` and no
/// stone of `opp`).
pub fn five_cells(grid: &Grid, own: u64, opp: u64) -> u64 {
    gaps_of_lines_holding(grid, own, opp, 4)
}

/// Whether `own` holds a whole line.
pub fn has_five(grid: &Grid, own: u64) -> bool {
    grid.lines().iter().any(|&line| line & !own == 0)
}

/// The cells where a stone of `own` would make a four (a line with three of `own`, two
/// empty cells and no stone of `opp`).
pub fn four_making_cells(grid: &Grid, own: u64, opp: u64) -> u64 {
    gaps_of_lines_holding(grid, own, opp, 3)
}

/// The empty cells of the lines with exactly `stones` of `own` and none of `opp`.
fn gaps_of_lines_holding(grid: &Grid, own: u64, opp: u64, stones: u32) -> u64 {
    grid.lines()
        .iter()
        .filter(|&&line| line & opp == 0 && (line & own).count_ones() == stones)
        .fold(0, |found, &line| found | (line & !own))
}

/// The empty cells that lie in a line still open to either side: a stone anywhere else
/// changes nothing for either side, so it is a pass.
pub fn useful_cells(grid: &Grid, first: u64, second: u64) -> u64 {
    let empty = grid.all() & !(first | second);
    let mut found = 0;
    for &line in grid.lines() {
        if line & first == 0 || line & second == 0 {
            found |= line;
        }
    }
    found & empty
}

/// `zone` grown until every line open to `attacker` (no `defender` stone) holds at least
/// `need` of its empty cells (or all of them, if it has fewer): the cells a disproof must
/// keep away from the attacker's free stones, so that none of them can complete a line
/// (`need` 1, the defender to move) or make a four (`need` 2, the attacker to move). Cells
/// are added on the lines short of them, those on the most such lines first.
pub fn close_zone(grid: &Grid, attacker: u64, defender: u64, mut zone: u64, need: u32) -> u64 {
    let empty = grid.all() & !(attacker | defender);
    zone &= empty;
    let short = |zone: u64| {
        grid.lines().iter().copied().filter(move |&line| {
            let free = line & empty;
            line & defender == 0 && (free & zone).count_ones() < need.min(free.count_ones())
        })
    };
    while let Some(line) = short(zone).next() {
        let mut counts = [0u8; 64];
        for other in short(zone) {
            for cell in cells(other & empty & !zone) {
                counts[cell as usize] += 1;
            }
        }
        let best = cells(line & empty & !zone)
            .max_by_key(|&c| (counts[c as usize], std::cmp::Reverse(c)))
            .expect("a short line has a free cell outside the zone");
        zone |= 1 << best;
    }
    zone
}

/// A pairing strategy for the defender against `attacker`'s every open line: disjoint pairs
/// of empty cells such that each line without a `defender` stone holds both cells of some
/// pair. Whenever the attacker takes one cell of a pair the defender takes the other, so no
/// open line is ever completed. `None` if none was found within `budget` steps.
pub fn find_pairing(
    grid: &Grid,
    attacker: u64,
    defender: u64,
    budget: u32,
) -> Option<Vec<(u8, u8)>> {
    find_pairing_from(grid, attacker, defender, budget, &[])
}

/// [`find_pairing`], trying first to complete the pairs of `hint` (a pairing of a nearby
/// position) that are still two empty cells.
pub fn find_pairing_from(
    grid: &Grid,
    attacker: u64,
    defender: u64,
    budget: u32,
    hint: &[(u8, u8)],
) -> Option<Vec<(u8, u8)>> {
    let empty = grid.all() & !(attacker | defender);
    if !enough_cells_for_pairs(grid, defender, empty) {
        return None;
    }
    let mut kept = Vec::new();
    let mut used = 0u64;
    for &(p, q) in hint {
        let pair = (1u64 << p) | (1u64 << q);
        if pair & empty == pair && pair & used == 0 {
            used |= pair;
            kept.push(pair);
        }
    }
    if !kept.is_empty()
        && let Some(mut pairs) = pair_up(grid, defender, empty, used, &kept, budget)
    {
        pairs.extend(kept.iter().map(|&pair| {
            (pair.trailing_zeros() as u8, (pair & (pair - 1)).trailing_zeros() as u8)
        }));
        return Some(pairs);
    }
    pair_up(grid, defender, empty, 0, &[], budget)
}

/// A quick test a pairing must pass. Lines of one run (row, column or diagonal) whose free
/// cells overlap in fewer than two cannot share a pair, a pair lies in one run only (two
/// cells fix the run), and pairs are disjoint: so such lines, picked in order along each
/// run (each taken when it shares fewer than two free cells with the last taken; lines
/// further back share still fewer), need two free cells of their own each. The test first
/// counts them against the free cells on open lines, then matches each line's two cells
/// (augmenting paths): a line left without two is a set of lines with too few cells
/// between them (Hall's condition), and no pairing exists.
pub fn enough_cells_for_pairs(grid: &Grid, defender: u64, empty: u64) -> bool {
    let lines = grid.lines();
    let mut needy: arrayvec::ArrayVec<u64, MAX_LINES> = arrayvec::ArrayVec::new();
    let mut usable = 0u64;
    for run in grid.runs() {
        let mut last = 0u64;
        let mut any = false;
        for &i in run {
            let line = lines[i as usize];
            if line & defender != 0 {
                continue;
            }
            let free = line & empty;
            if free.count_ones() < 2 {
                return false;
            }
            usable |= free;
            if !any || (free & last).count_ones() < 2 {
                needy.push(free);
                last = free;
                any = true;
            }
        }
    }
    if 2 * needy.len() as u32 > usable.count_ones() {
        return false;
    }
    // Each needy line takes two cells: unit 2i and 2i + 1 of line i. A free cell is taken
    // at once; only a unit that finds none searches for an augmenting path.
    let mut owner = [u16::MAX; 64];
    let mut taken = 0u64;
    for unit in 0..2 * needy.len() {
        let open = needy[unit / 2] & !taken;
        if open != 0 {
            let cell = open.trailing_zeros() as usize;
            owner[cell] = unit as u16;
            taken |= 1 << cell;
            continue;
        }
        let mut visited = 0u64;
        if !claim(&needy, &mut owner, &mut taken, unit, &mut visited) {
            return false;
        }
    }
    true
}

/// Finds a cell for `unit` (of line `unit / 2`), moving other units along an augmenting
/// path if need be.
fn claim(
    needy: &[u64],
    owner: &mut [u16; 64],
    taken: &mut u64,
    unit: usize,
    visited: &mut u64,
) -> bool {
    let free = needy[unit / 2] & !*visited;
    if let Some(cell) = cells(free & !*taken).next() {
        owner[cell as usize] = unit as u16;
        *taken |= 1 << cell;
        return true;
    }
    *visited |= free;
    for cell in cells(free) {
        let held = usize::from(owner[cell as usize]);
        if claim(needy, owner, taken, held, visited) {
            owner[cell as usize] = unit as u16;
            return true;
        }
    }
    false
}

/// Pairs covering every open line not already holding one of `kept` (whose cells, `used`,
/// are taken).
fn pair_up(
    grid: &Grid,
    defender: u64,
    empty: u64,
    used: u64,
    kept: &[u64],
    budget: u32,
) -> Option<Vec<(u8, u8)>> {
    let mut search =
        PairSearch { free: [0; MAX_LINES], through: [0; 64], steps: budget, pairs: Vec::new() };
    let mut count = 0;
    for &line in grid.lines() {
        if line & defender == 0 {
            let free = line & empty;
            if free.count_ones() < 2 {
                return None;
            }
            if kept.iter().any(|&pair| pair & !free == 0) || search.free[..count].contains(&free) {
                continue;
            }
            search.free[count] = free;
            for cell in cells(free) {
                search.through[cell as usize] |= 1 << count;
            }
            count += 1;
        }
    }
    let open = if count == 128 { u128::MAX } else { (1u128 << count) - 1 };
    search.cover(open, used).then_some(search.pairs)
}

/// The most win lines a board has (8×8: 96).
const MAX_LINES: usize = 128;

/// The state of one pairing search: each open line's free cells (deduplicated), the open
/// lines through each cell (a bit per line), steps left, and the pairs chosen so far.
struct PairSearch {
    free: [u64; MAX_LINES],
    through: [u128; 64],
    steps: u32,
    pairs: Vec<(u8, u8)>,
}

impl PairSearch {
    /// Covers every line in `open` with a pair of cells not in `used`, backtracking; the
    /// most constrained line first, and its pairs that cover the most lines first.
    fn cover(&mut self, open: u128, used: u64) -> bool {
        if open == 0 {
            return true;
        }
        if self.steps == 0 {
            return false;
        }
        self.steps -= 1;
        let mut pick = (usize::MAX, u32::MAX);
        let mut rest = open;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = (self.free[i] & !used).count_ones();
            if n < pick.1 {
                pick = (i, n);
                if n < 2 {
                    return false;
                }
            }
        }
        let free = self.free[pick.0] & !used;
        let mut candidates: arrayvec::ArrayVec<(u32, u8, u8, u128), 10> = arrayvec::ArrayVec::new();
        let list: arrayvec::ArrayVec<u8, 8> = cells(free).collect();
        for (i, &p) in list.iter().enumerate() {
            for &q in &list[i + 1..] {
                let covered = self.through[p as usize] & self.through[q as usize] & open;
                if candidates.try_push((covered.count_ones(), p, q, covered)).is_err() {
                    break;
                }
            }
        }
        candidates.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        for &(_, p, q, covered) in &candidates {
            self.pairs.push((p, q));
            if self.cover(open & !covered, used | 1 << p | 1 << q) {
                return true;
            }
            self.pairs.pop();
            if self.steps == 0 {
                return false;
            }
        }
        false
    }
}

/// A win for `attacker` (to move) by continuous fours, each answered by the defender's
/// only block, ending in a five or a double four; the defender's own fours are answered as
/// the rules force. Returns the cells the win relies on (its relevance zone: see
/// `vcf_zone`), `None` if no such win was found within `budget` steps.
pub fn vcf(grid: &Grid, attacker: u64, defender: u64, budget: u32) -> Option<u64> {
    let mut line = Line { attacker: 0, replies: 0, finish: 0 };
    let mut steps = budget;
    vcf_step(grid, attacker, defender, &mut line, &mut steps)
        .then(|| vcf_zone(grid, attacker, defender, &line))
}

/// The cells a continuous-four win uses.
struct Line {
    /// The attacker's fours.
    attacker: u64,
    /// The defender's forced blocks.
    replies: u64,
    /// The winning cells at the end (the five, or both cells of the double four).
    finish: u64,
}

fn vcf_step(grid: &Grid, attacker: u64, defender: u64, line: &mut Line, steps: &mut u32) -> bool {
    let wins = five_cells(grid, attacker, defender);
    if wins != 0 {
        line.finish = wins & wins.wrapping_neg();
        return true;
    }
    if *steps == 0 {
        return false;
    }
    *steps -= 1;
    let threats = five_cells(grid, defender, attacker);
    if threats.count_ones() > 1 {
        return false;
    }
    let mut moves = four_making_cells(grid, attacker, defender);
    if threats != 0 {
        moves &= threats;
    }
    for m in cells(moves) {
        let after = attacker | 1 << m;
        let fives = five_cells(grid, after, defender);
        if fives.count_ones() > 1 {
            line.attacker |= 1 << m;
            line.finish = fives;
            return true;
        }
        debug_assert_eq!(fives.count_ones(), 1);
        if vcf_step(grid, after, defender | fives, line, steps) {
            line.attacker |= 1 << m;
            line.replies |= fives;
            return true;
        }
        if *steps == 0 {
            return false;
        }
    }
    false
}

/// The relevance zone of a continuous-four win found with the defender to move (after a
/// pass): a defender move outside it that makes no four of the defender's leaves the same
/// win standing. It holds the attacker's fours, the defender's blocks, the winning cells,
/// and every empty cell of a line open to the defender through one of its blocks (a stone
/// there could turn a block into a four or a five of the defender's, which the win did not
/// have to answer).
fn vcf_zone(grid: &Grid, attacker: u64, defender: u64, line: &Line) -> u64 {
    let empty = grid.all() & !(attacker | defender);
    let mut zone = line.attacker | line.replies | line.finish;
    for reply in cells(line.replies) {
        for &index in grid.lines_through(reply) {
            let mask = grid.lines()[index as usize];
            if mask & attacker == 0 {
                zone |= mask & empty;
            }
        }
    }
    zone & empty
}

#[cfg(test)]
mod tests {
    use super::super::grid::bit;
    use super::*;

    fn stones(grid: &Grid, picture: &str) -> (u64, u64) {
        let (mut x_set, mut o_set) = (0, 0);
        for (y, row) in picture.lines().map(str::trim).filter(|r| !r.is_empty()).enumerate() {
            for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                match c {
                    'x' => x_set |= bit(x as u8, y as u8),
                    'o' => o_set |= bit(x as u8, y as u8),
                    _ => {}
                }
            }
        }
        assert_eq!((x_set | o_set) & !grid.all(), 0);
        (x_set, o_set)
    }

    /// Whether `pairs` is a valid pairing against every line of `attacker` (slow check).
    fn valid_pairing(grid: &Grid, attacker: u64, defender: u64, pairs: &[(u8, u8)]) -> bool {
        let empty = grid.all() & !(attacker | defender);
        let mut used = 0u64;
        for &(p, q) in pairs {
            let pair = (1u64 << p) | (1u64 << q);
            if p == q || pair & empty != pair || pair & used != 0 {
                return false;
            }
            used |= pair;
        }
        grid.lines()
            .iter()
            .filter(|&&l| l & defender == 0)
            .all(|&l| pairs.iter().any(|&(p, q)| l & (1 << p) != 0 && l & (1 << q) != 0))
    }

    #[test]
    fn five_by_five_has_a_pairing_from_the_empty_board() {
        let grid = Grid::new(5, 5).unwrap();
        let pairs = find_pairing(&grid, 0, 0, 10_000).expect("the classic 12-pair strategy");
        assert!(valid_pairing(&grid, 0, 0, &pairs));
        assert_eq!(pairs.len(), 12);
    }

    #[test]
    fn six_by_six_has_no_pairing_from_the_empty_board() {
        // 32 lines; rows and columns need 12 pairs, the 8 diagonals 8 more: 20 > 18.
        let grid = Grid::new(6, 6).unwrap();
        assert!(find_pairing(&grid, 0, 0, 100_000).is_none());
    }

    #[test]
    fn a_four_cannot_be_paired_and_fives_are_seen() {
        let grid = Grid::new(6, 6).unwrap();
        let (x, o) = stones(&grid, "xxxx..\n......\n......\n......\n.....o\n......");
        assert_eq!(five_cells(&grid, x, o), bit(4, 0));
        assert!(find_pairing(&grid, x, o, 10_000).is_none());
        assert!(!has_five(&grid, x));
        assert!(has_five(&grid, x | bit(4, 0)));
    }

    #[test]
    fn vcf_finds_a_double_four_and_its_zone() {
        let grid = Grid::new(7, 7).unwrap();
        // x plays (3,0) or the like: three in row 0 and three in column 0 crossing at (0,0).
        let (x, o) = stones(&grid, ".xxx...\nx......\nx......\nx......\n.......\n.......\n......o");
        let zone = vcf(&grid, x, o, 1000).expect("a double four at a1");
        assert_ne!(zone & bit(0, 0), 0);
        // No win for the side without threats.
        assert!(vcf(&grid, o, x, 1000).is_none());
    }

    #[test]
    fn the_quick_test_never_refuses_a_position_with_a_pairing() {
        // Where the count says no pairing can exist, a search without the count and with
        // a budget it never runs out of finds none; where a search finds one, the count
        // agrees.
        let mut seed = 11u64;
        let (mut refused, mut found) = (0, 0);
        for (w, h) in [(5u8, 5u8), (6, 5), (6, 6), (7, 6)] {
            let grid = Grid::new(w, h).unwrap();
            for stones in [2u32, 4, 6, 8, 10, 12] {
                for _ in 0..60 {
                    let (mut x, mut o) = (0u64, 0u64);
                    for i in 0..stones {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let b = 1u64 << ((seed >> 33) % 64);
                        if b & grid.all() == 0 || (x | o) & b != 0 {
                            continue;
                        }
                        if i % 3 == 0 { o |= b } else { x |= b }
                    }
                    let empty = grid.all() & !(x | o);
                    let exhaustive = pair_up(&grid, o, empty, 0, &[], 200_000);
                    if !enough_cells_for_pairs(&grid, o, empty) {
                        refused += 1;
                        assert!(exhaustive.is_none(), "{w}x{h} x {x:x} o {o:x}");
                    }
                    if let Some(pairs) = exhaustive {
                        found += 1;
                        assert!(valid_pairing(&grid, x, o, &pairs));
                    }
                }
            }
        }
        assert!(refused > 50 && found > 50, "refused {refused}, found {found}");
    }

    #[test]
    fn found_pairings_are_valid_on_random_positions() {
        let mut seed = 7u64;
        for (w, h) in [(6u8, 6u8), (7, 7), (8, 8), (6, 7)] {
            let grid = Grid::new(w, h).unwrap();
            let mut found = 0;
            for _ in 0..200 {
                let (mut x, mut o) = (0u64, 0u64);
                for i in 0..12u32 {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let cell = ((seed >> 33) % 64) as u8;
                    let b = 1u64 << cell;
                    if b & grid.all() == 0 || (x | o) & b != 0 {
                        continue;
                    }
                    if i.is_multiple_of(2) { x |= b } else { o |= b }
                }
                if let Some(pairs) = find_pairing(&grid, x, o, 20_000) {
                    found += 1;
                    assert!(valid_pairing(&grid, x, o, &pairs));
                }
            }
            assert!(found > 0, "{w}x{h}: no pairing in 200 positions");
        }
    }
}
