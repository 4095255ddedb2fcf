//! Zobrist keys: one random 64-bit key per (colour, bit index below 512), generated at compile time
//! from a fixed seed, shared by all board sizes (a cell's key is looked up by its bit index).
//! A position's hash is the XOR of the keys of its stones; the side to move follows from the
//! stone counts, so it needs no key of its own (but for a search's pass, see [`PASS`]).

use crate::color::Color;
use crate::geometry::Cell;
use crate::rng::SplitMix64;

/// Seed of the key table. Changing it changes every hash (and the bench signature).
const SEED: u64 = 0x6d6e_6b5f_7a6f_6272; // "mnk_zobr"

/// Keys per colour: one per bit index of the largest bitboard.
const INDICES: usize = 512;

/// The keys of bit indices 0..256 come first in the sequence (black's, then white's), then
/// those of 256..512, so the indices of the 15×15 storage keep their keys whatever larger
/// boards add.
static KEYS: [[u64; INDICES]; 2] = {
    let mut rng = SplitMix64::new(SEED);
    let mut keys = [[0u64; INDICES]; 2];
    let mut half = 0;
    while half < 2 {
        let mut colour = 0;
        while colour < 2 {
            let mut i = 0;
            while i < INDICES / 2 {
                keys[colour][half * INDICES / 2 + i] = rng.next_u64();
                i += 1;
            }
            colour += 1;
        }
        half += 1;
    }
    keys
};

/// XORed into the hash while a pass stands (see [`crate::board::Board::pass`]): the side to
/// move is otherwise implied by the stones, and a position after a pass must not share table
/// entries with the same stones and the other side to move.
pub const PASS: u64 = SplitMix64::new(SEED ^ 0x7061_7373).next_u64();

/// The key of a stone of `color` on `cell`.
#[inline(always)]
pub fn key(color: Color, cell: Cell) -> u64 {
    KEYS[color.index()][cell.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().chain([PASS]).collect();
        assert!(all.iter().all(|&k| k != 0));
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * INDICES + 1);
    }
}
