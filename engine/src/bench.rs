//! The bench signature: a fixed set of positions over all sizes and rules, each searched to
//! a fixed depth with one thread and a fresh transposition table of fixed size. The total
//! node count is a fingerprint of the engine's behaviour: a change that alters it changes
//! what the engine plays (and needs a strength check); a pure refactor must keep it.
//! [`EXPECTED_NODES`] is checked by a test in every build profile.

use std::time::{Duration, Instant};

use crate::board::Board;
use crate::game::Game;
use crate::limits::Limits;
use crate::rules::Rule;
use crate::search::search;
use crate::size::BoardSize;
use crate::tt::TranspositionTable;
use crate::with_game;

/// Transposition-table size of each bench search.
pub const BENCH_HASH_BYTES: usize = 16 << 20;

/// The signature: total nodes (main search plus threat search) of [`run`].
pub const EXPECTED_NODES: u64 = 1_912_646;
/// The nodes of the first twelve positions (3×3, 5×5 and 15×15), the signature before the
/// 11×11 and 20×20 positions came: larger boards must leave 15×15 play as it was.
pub const EXPECTED_NODES_OF_THE_FIRST_TWELVE: u64 = 968_520;

/// One bench position.
#[derive(Copy, Clone, Debug)]
pub struct BenchPosition {
    /// Board size.
    pub size: BoardSize,
    /// Rule.
    pub rule: Rule,
    /// The moves leading to it (pos notation).
    pub moves: &'static str,
    /// Search depth in plies.
    pub depth: u32,
}

/// 11×11 (a smaller board of the 256-bit type).
const ELEVEN: BoardSize = match BoardSize::new(11, 11) {
    Some(size) => size,
    None => panic!("11x11 is a size"),
};
/// 20×20 (the 512-bit type).
const TWENTY: BoardSize = match BoardSize::new(20, 20) {
    Some(size) => size,
    None => panic!("20x20 is a size"),
};

/// The positions, all sizes and rules. The first twelve are the 15×15 and small-board
/// positions the signature has always had; the 11×11 and 20×20 ones are the 15×15 middle
/// games moved on those boards (the 11×11 one to two cells from an edge, the last 20×20
/// one into a corner).
pub const POSITIONS: [BenchPosition; 18] = [
    BenchPosition { size: BoardSize::THREE, rule: Rule::Freestyle, moves: "", depth: 9 },
    BenchPosition { size: BoardSize::THREE, rule: Rule::Standard, moves: "a1", depth: 8 },
    BenchPosition { size: BoardSize::FIVE, rule: Rule::Freestyle, moves: "c3b2", depth: 8 },
    BenchPosition { size: BoardSize::FIVE, rule: Rule::Standard, moves: "a1b2c3d4a5", depth: 10 },
    BenchPosition { size: BoardSize::FIFTEEN, rule: Rule::Freestyle, moves: "", depth: 4 },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Freestyle,
        moves: "j7,i6,f6,k7,h7,k6,h8,h6,j6,k5,k4,j8,k9,i9,l6,g7,f8,i8",
        depth: 5,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Freestyle,
        moves: "h8,j7,h9,h7,g8,j9,i10,f7,i8,f8",
        depth: 5,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Standard,
        moves: "f7,f6,j6,j7,i8,h8,g7,e7,g5,g6,e6,h6,k8,f9",
        depth: 5,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Standard,
        moves: "g9,h9,i8,g7,h8,i7,f8",
        depth: 7,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Renju,
        moves: "h9,g9,j9,f11,i10,h11,j11,k12,i8,e11,i11,i7,k10,f10,h8,c13",
        depth: 4,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Renju,
        moves: "h8,i9,i8,j8,g8,f8,h9",
        depth: 4,
    },
    BenchPosition {
        size: BoardSize::FIFTEEN,
        rule: Rule::Caro,
        moves: "h8,i9,h9,h10,g8,i8",
        depth: 4,
    },
    BenchPosition {
        size: ELEVEN,
        rule: Rule::Freestyle,
        moves: "h5,g4,d4,i5,f5,i4,f6,f4,h4,i3,i2,h6,i7,g7,j4,e5,d6,g6",
        depth: 5,
    },
    BenchPosition {
        size: TWENTY,
        rule: Rule::Freestyle,
        moves: "m10,l9,i9,n10,k10,n9,k11,k9,m9,n8,n7,m11,n12,l12,o9,j10,i11,l11",
        depth: 5,
    },
    BenchPosition {
        size: TWENTY,
        rule: Rule::Freestyle,
        moves: "k11,m10,k12,k10,j11,m12,l13,i10,l11,i11",
        depth: 5,
    },
    BenchPosition {
        size: TWENTY,
        rule: Rule::Standard,
        moves: "i10,i9,m9,m10,l11,k11,j10,h10,j8,j9,h9,k9,n11,i12",
        depth: 5,
    },
    BenchPosition {
        size: TWENTY,
        rule: Rule::Renju,
        moves: "k11,l12,l11,m11,j11,i11,k12",
        depth: 4,
    },
    BenchPosition {
        size: TWENTY,
        rule: Rule::Freestyle,
        moves: "r18,t17,r19,r17,q18,t19,s20,p17,s18,p18",
        depth: 5,
    },
];

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub position: BenchPosition,
    /// Main-search plus threat-search nodes.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// Searches every position (calling `on_line` after each) and returns the lines.
pub fn run(on_line: &mut dyn FnMut(&BenchLine)) -> Vec<BenchLine> {
    POSITIONS
        .iter()
        .map(|&position| {
            let start = Instant::now();
            let game = Game::from_notation(position.size, position.rule, position.moves)
                .expect("bench positions are legal");
            let mut tt = TranspositionTable::with_bytes(BENCH_HASH_BYTES);
            let limits = Limits::depth(position.depth);
            let result = with_game!(&game, board => search(board, &mut tt, limits, &mut |_| {}));
            let nodes = result.nodes + result.vcf_nodes;
            let line = BenchLine { position, nodes, time: start.elapsed() };
            on_line(&line);
            line
        })
        .collect()
}

/// The 15×15 middle games of [`POSITIONS`] that [`speed`] measures ...
pub const SPEED_POSITIONS: [usize; 4] = [5, 6, 7, 10];
/// ... and the same games on 20×20.
pub const SPEED_POSITIONS_20: [usize; 4] = [13, 14, 15, 16];
/// Main-search nodes allowed per speed position (an exact limit: repeatable).
pub const SPEED_SEARCH_NODES: u64 = 400_000;
/// Rounds of make/unmake over every candidate of every speed position.
pub const SPEED_MAKE_ROUNDS: u32 = 2_000;

/// One timed search of [`speed`].
#[derive(Clone, Debug)]
pub struct SpeedSearch {
    /// Index into [`POSITIONS`].
    pub position: usize,
    /// Main-search nodes (calls of the alpha-beta search).
    pub nodes: u64,
    /// Threat-search nodes (moves made by the VCF/VCT solver).
    pub threat_nodes: u64,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Time taken.
    pub time: Duration,
    /// The part of `time` spent in the threat searches before the main search.
    pub root_threat_time: Duration,
}

/// What [`speed`] measured.
#[derive(Clone, Debug)]
pub struct SpeedReport {
    /// Moves made and unmade (with the full incremental state: hash, line keys, patterns,
    /// threat sets) and the time they took.
    pub make_unmake: (u64, Duration),
    /// One search per speed position, each to [`SPEED_SEARCH_NODES`] main nodes.
    pub searches: Vec<SpeedSearch>,
}

/// Measures the hot paths on the middle games of [`SPEED_POSITIONS`] (15×15) or, with
/// `twenty`, of [`SPEED_POSITIONS_20`] (the same games on 20×20): make/unmake of every
/// candidate move (on boards the evaluation has prepared, so make keeps its sums, as in a
/// search), then a single-threaded search with a node limit. Pattern and evaluation tables
/// are built before any clock starts.
pub fn speed(twenty: bool, on_search: &mut dyn FnMut(&SpeedSearch)) -> SpeedReport {
    if twenty {
        speed_of::<crate::bitboard::Bits512>(&SPEED_POSITIONS_20, on_search)
    } else {
        speed_of::<crate::bitboard::Bits256>(&SPEED_POSITIONS, on_search)
    }
}

fn speed_of<B: crate::storage::Storage>(
    indices: &[usize],
    on_search: &mut dyn FnMut(&SpeedSearch),
) -> SpeedReport {
    let boards: Vec<(usize, Board<B>)> = indices
        .iter()
        .map(|&i| {
            let p = POSITIONS[i];
            let points = crate::notation::parse_moves(p.moves).expect("bench positions parse");
            let mut board = Board::from_points_on(p.size.geometry(), p.rule, &points)
                .expect("bench positions are legal");
            // Make and unmake keep the evaluation's sums, as in a search.
            crate::eval::prepare(&mut board);
            (i, board)
        })
        .collect();
    let mut made = 0u64;
    let start = Instant::now();
    for (_, board) in &boards {
        let mut board = board.clone();
        let moves: Vec<_> = crate::movegen::candidates(&board).iter().collect();
        for _ in 0..SPEED_MAKE_ROUNDS {
            for &cell in &moves {
                board.play_unchecked(cell);
                board.undo_unchecked();
            }
        }
        made += u64::from(SPEED_MAKE_ROUNDS) * moves.len() as u64;
    }
    let make_unmake = (made, start.elapsed());
    let searches = boards
        .into_iter()
        .map(|(position, board)| {
            let mut tt = TranspositionTable::with_bytes(BENCH_HASH_BYTES);
            let limits = Limits::nodes(SPEED_SEARCH_NODES);
            let start = Instant::now();
            let result = search(&board, &mut tt, limits, &mut |_| {});
            let line = SpeedSearch {
                position,
                nodes: result.nodes,
                threat_nodes: result.vcf_nodes,
                depth: result.depth,
                time: start.elapsed(),
                root_threat_time: result.root_threat_time,
            };
            on_search(&line);
            line
        })
        .collect();
    SpeedReport { make_unmake, searches }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_signature_matches_the_checked_in_count() {
        let lines = run(&mut |_| {});
        let first: u64 = lines[..12].iter().map(|l| l.nodes).sum();
        assert_eq!(first, EXPECTED_NODES_OF_THE_FIRST_TWELVE, "15x15 and small boards changed");
        let total: u64 = lines.iter().map(|l| l.nodes).sum();
        assert_eq!(
            total, EXPECTED_NODES,
            "the bench signature changed: update EXPECTED_NODES only for an intended behaviour change"
        );
    }
}
