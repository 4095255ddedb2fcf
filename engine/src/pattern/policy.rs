//! Learned move scores: how likely mnk's own search is to choose a cell, from the line
//! patterns a stone there would make for the side to move ("mine") and for the opponent
//! ("theirs"). The search prunes late quiet moves that score far below the moves searched
//! before them (`search::pvs`, `LEARNED_PRUNING_MARGIN`).
//!
//! A cell's score is the sum of the weights of its [`ACTIVE`] features:
//!
//! * for each side, each of its four directions' [`Pattern`] (12 values a side);
//! * for each side, its **combination**: how many of the four directions make a four (`B4`),
//!   an open three (`F3`), a closed three (`B3`) and an open two (`F2`), as four base-5
//!   digits (625 values a side, 70 of which occur: the counts add up to at most 4). The
//!   combination sees what the sum of directions cannot: that one stone makes a four and a
//!   three at once;
//! * for each direction, the two sides' patterns together (144 values, the same for the four
//!   directions): a line where the stone both builds and blocks;
//! * the two sides' threat classes together ([`threat_class`], 12 × 12): a cell that makes a
//!   four for one side and stops an open three of the other;
//! * how far it is from the last move and from the side to move's own last move (the
//!   larger of the column and row distances: 1, 2, 3, 4, farther, or no such move).
//!
//! The weights ([`POLICY_WEIGHTS`], in thousandths of a nat) are the logits of a softmax over
//! the candidate cells, fitted to the moves mnk's searches chose in self-play
//! (`engine/examples/train.rs` on `pbrain-mnk datagen` positions; `docs/learning.md` has the
//! commands). The file of weights is generated; the trainer writes it.

use super::Pattern;
pub use super::policy_weights::POLICY_WEIGHTS;
use crate::geometry::{Cell, Geometry};

/// Pattern features of one side: one per [`Pattern`].
pub const PATTERN_FEATURES: usize = Pattern::ALL.len();
/// Combination features of one side: four base-5 digits.
pub const COMBINATIONS: usize = 625;
/// Features of one side: its patterns, then its combinations.
pub const SIDE_FEATURES: usize = PATTERN_FEATURES + COMBINATIONS;
/// Distance classes of a cell from a move (see [`distance_class`]).
pub const DISTANCES: usize = 6;
/// Threat classes of one side's four patterns (see [`threat_class`]).
pub const THREAT_CLASSES: usize = 12;
/// Where the distance features start: after both sides' pattern and combination features.
const DISTANCE_BASE: usize = 2 * SIDE_FEATURES;
/// Where the per-direction pattern pairs start.
const PAIR_BASE: usize = DISTANCE_BASE + 2 * DISTANCES;
/// Where the threat-class pairs start.
const CLASS_BASE: usize = PAIR_BASE + PATTERN_FEATURES * PATTERN_FEATURES;
/// All features: the side to move's, the opponent's, the distances from the last move and
/// from the side to move's own last move, the per-direction pattern pairs, the threat-class
/// pairs.
pub const FEATURES: usize = CLASS_BASE + THREAT_CLASSES * THREAT_CLASSES;
/// Features a cell has: four patterns and one combination a side, two distances, four
/// pattern pairs and one threat-class pair.
pub const ACTIVE: usize = 17;
/// Units of [`POLICY_WEIGHTS`] per nat of the softmax.
pub const WEIGHT_SCALE: f64 = 1000.0;

const _: () = assert!(POLICY_WEIGHTS.len() == FEATURES);

/// What one direction's pattern adds to a side's combination (see the module docs).
const fn combination_digit(p: Pattern) -> usize {
    match p {
        Pattern::B4 => 125,
        Pattern::F3 => 25,
        Pattern::B3 => 5,
        Pattern::F2 => 1,
        _ => 0,
    }
}

/// The combination of a cell whose four directions make `patterns` for one side: below
/// [`COMBINATIONS`].
#[inline]
pub fn combination(patterns: &[Pattern; 4]) -> usize {
    patterns.iter().map(|&p| combination_digit(p)).sum()
}

/// The distance class of `cell` from `other`: the larger of their column and row
/// distances less one, at most 4 (five or more apart); 5 when there is no such move.
#[inline]
pub fn distance_class(geometry: Geometry, cell: Cell, other: Option<Cell>) -> usize {
    let Some(other) = other else { return DISTANCES - 1 };
    let ((x, y), (ox, oy)) = (geometry.xy(cell), geometry.xy(other));
    (x.abs_diff(ox).max(y.abs_diff(oy)).max(1) - 1).min(DISTANCES - 2)
}

/// Where a cell is for [`move_score`]: its distance classes (see [`distance_class`]) from
/// the last move and from the side to move's own last move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// From the last move.
    pub last: usize,
    /// From the side to move's last move.
    pub own: usize,
}

impl Place {
    /// Where `cell` is on a board of `geometry` after `history` (first move first).
    #[inline]
    pub fn of(geometry: Geometry, cell: Cell, history: &[Cell]) -> Place {
        let n = history.len();
        let own = n.checked_sub(2).map(|i| history[i]);
        Place {
            last: distance_class(geometry, cell, history.last().copied()),
            own: distance_class(geometry, cell, own),
        }
    }
}

/// One side's threat class from its four patterns, weakest first: 0 nothing, 1 a two (a
/// closed three `B3` or an open two `F2`), 2 two twos, 3 an open three, 4 an open three and
/// a two, 5 a four, 6 a four and a two, 7 two open threes, 8 a four and an open three,
/// 9 two fours, 10 an open four or a one-line double four, 11 a five.
pub fn threat_class(patterns: &[Pattern; 4]) -> usize {
    let count = |wanted: &[Pattern]| patterns.iter().filter(|p| wanted.contains(p)).count();
    let (fours, threes, twos) =
        (count(&[Pattern::B4]), count(&[Pattern::F3]), count(&[Pattern::B3, Pattern::F2]));
    match () {
        _ if count(&[Pattern::Five]) > 0 => 11,
        _ if count(&[Pattern::F4, Pattern::DoubleFour]) > 0 => 10,
        _ if fours >= 2 => 9,
        _ if fours == 1 && threes >= 1 => 8,
        _ if threes >= 2 => 7,
        _ if fours == 1 && twos >= 1 => 6,
        _ if fours == 1 => 5,
        _ if threes == 1 && twos >= 1 => 4,
        _ if threes == 1 => 3,
        _ if twos >= 2 => 2,
        _ if twos == 1 => 1,
        _ => 0,
    }
}

/// The features of a cell where a stone would make `mine` for the side to move and `theirs`
/// for the opponent, at `place`: indices into [`POLICY_WEIGHTS`].
pub fn features(mine: &[Pattern; 4], theirs: &[Pattern; 4], place: Place) -> [u16; ACTIVE] {
    let mut features = [0u16; ACTIVE];
    for (side, patterns) in [mine, theirs].into_iter().enumerate() {
        let base = side * SIDE_FEATURES;
        for (d, &p) in patterns.iter().enumerate() {
            features[5 * side + d] = (base + p as usize) as u16;
        }
        features[5 * side + 4] = (base + PATTERN_FEATURES + combination(patterns)) as u16;
    }
    features[10] = (DISTANCE_BASE + place.last) as u16;
    features[11] = (DISTANCE_BASE + DISTANCES + place.own) as u16;
    for d in 0..4 {
        let pair = mine[d] as usize * PATTERN_FEATURES + theirs[d] as usize;
        features[12 + d] = (PAIR_BASE + pair) as u16;
    }
    let classes = threat_class(mine) * THREAT_CLASSES + threat_class(theirs);
    features[16] = (CLASS_BASE + classes) as u16;
    features
}

/// The learned score of a cell (see the module docs), in thousandths of a nat: higher is
/// likelier to be the move.
#[inline]
pub fn move_score(mine: &[Pattern; 4], theirs: &[Pattern; 4], place: Place) -> i32 {
    features(mine, theirs, place).iter().map(|&f| POLICY_WEIGHTS[usize::from(f)]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_count_each_direction_in_its_digit() {
        use Pattern::*;
        assert_eq!(combination(&[Dead, F1, B2, Overline]), 0);
        assert_eq!(combination(&[B4, F3, B3, F2]), 125 + 25 + 5 + 1);
        assert_eq!(combination(&[B4, B4, B4, B4]), 500);
        // Every set of four patterns stays below the table's end.
        for a in Pattern::ALL {
            for b in Pattern::ALL {
                assert!(combination(&[a, b, B4, B4]) < COMBINATIONS);
            }
        }
    }

    #[test]
    fn the_score_is_the_sum_of_the_features_weights() {
        use Pattern::*;
        let (mine, theirs, place) =
            ([F3, B3, F1, Dead], [B4, F2, F2, B1], Place { last: 0, own: 5 });
        let indices = features(&mine, &theirs, place);
        let sum: i32 = indices.iter().map(|&f| POLICY_WEIGHTS[f as usize]).sum();
        assert_eq!(move_score(&mine, &theirs, place), sum);
        assert!(indices[..5].iter().all(|&f| (f as usize) < SIDE_FEATURES));
        assert!(
            indices[5..10].iter().all(|&f| (SIDE_FEATURES..DISTANCE_BASE).contains(&(f as usize)))
        );
        let within = |f: u16, range: std::ops::Range<usize>| range.contains(&usize::from(f));
        assert!(indices[10..12].iter().all(|&f| within(f, DISTANCE_BASE..PAIR_BASE)));
        assert!(indices[12..16].iter().all(|&f| within(f, PAIR_BASE..CLASS_BASE)));
        assert!(within(indices[16], CLASS_BASE..FEATURES));
        let distinct: std::collections::HashSet<u16> = indices.iter().copied().collect();
        assert_eq!(distinct.len(), ACTIVE - 1, "the opponent's F2 counts once");
    }

    #[test]
    fn threat_classes_rank_a_cell_by_its_strongest_shape() {
        use Pattern::*;
        let class = |p: [Pattern; 4]| threat_class(&p);
        assert_eq!(class([F1, B1, Dead, Overline]), 0);
        assert_eq!(class([F2, F1, B1, Dead]), 1);
        assert_eq!(class([F2, B3, F1, Dead]), 2);
        assert_eq!(class([F3, F1, F1, F1]), 3);
        assert_eq!(class([F3, B3, F1, F1]), 4);
        assert_eq!(class([B4, F1, F1, F1]), 5);
        assert_eq!(class([B4, F2, F1, F1]), 6);
        assert_eq!(class([F3, F3, B3, F1]), 7);
        assert_eq!(class([B4, F3, F1, F1]), 8);
        assert_eq!(class([B4, B4, F3, F1]), 9);
        assert_eq!(class([DoubleFour, F1, F1, F1]), 10);
        assert_eq!(class([F4, F3, F1, F1]), 10);
        assert_eq!(class([Five, F4, F1, F1]), 11);
    }

    #[test]
    fn distance_classes_are_the_king_distance_less_one_capped_at_four() {
        let g = Geometry::new(15, 5);
        let at = |x, y| g.cell(x, y).expect("on the board");
        assert_eq!(distance_class(g, at(7, 7), Some(at(8, 8))), 0);
        assert_eq!(distance_class(g, at(7, 7), Some(at(7, 9))), 1);
        assert_eq!(distance_class(g, at(7, 7), Some(at(3, 6))), 3);
        assert_eq!(distance_class(g, at(0, 0), Some(at(14, 3))), 4);
        assert_eq!(distance_class(g, at(0, 0), None), 5);
        let history = [at(7, 7), at(8, 8), at(9, 7)];
        assert_eq!(Place::of(g, at(9, 9), &history), Place { last: 1, own: 0 });
        assert_eq!(Place::of(g, at(9, 9), &history[..1]), Place { last: 1, own: 5 });
    }

    #[test]
    fn learned_weights_put_a_five_before_a_block_and_a_block_before_quiet_cells() {
        use Pattern::*;
        let quiet = [F1, F1, B1, F1];
        let near = Place { last: 0, own: 0 };
        let five = move_score(&[Five, F1, F1, F1], &quiet, Place { last: 4, own: 4 });
        let block = move_score(&quiet, &[Five, F1, F1, F1], Place { last: 4, own: 4 });
        let nothing = move_score(&quiet, &quiet, near);
        assert!(five > block && block > nothing, "{five} {block} {nothing}");
        // A cell next to the last move is likelier than the same cell far from it.
        assert!(nothing > move_score(&quiet, &quiet, Place { last: 4, own: 0 }));
    }
}
