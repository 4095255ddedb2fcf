//! A move and its sort key in one integer, so that move lists sort as plain integers and
//! take half the space: the move picker's scored moves and the threat solver's attack lists.

use crate::geometry::Cell;

/// Cell indices are below this (the largest bitboard's bits).
const CELLS: i64 = 512;

/// A move and its key in one integer, `key · 512 + (511 − cell index)`: a larger integer is
/// a higher key, or the same key and a lower cell index (cell indices are below 512, keys
/// far below 2⁵⁴ in size).
#[inline(always)]
pub(crate) fn pack(key: i64, cell: Cell) -> i64 {
    key * CELLS + (CELLS - 1 - cell.index() as i64)
}

/// The cell of a [`pack`]ed move.
#[inline(always)]
pub(crate) fn unpack_cell(packed: i64) -> Cell {
    Cell::from_index((CELLS - 1 - packed.rem_euclid(CELLS)) as u16)
}

/// The key of a [`pack`]ed move.
#[inline(always)]
pub(crate) fn unpack_key(packed: i64) -> i64 {
    packed.div_euclid(CELLS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_move_unpacks_to_its_key_and_cell() {
        for key in [-(1 << 40), -257, -1, 0, 1, 255, 256, (1 << 30) + 12_345] {
            for index in [0u16, 1, 127, 224, 255, 256, 505, 511] {
                let cell = Cell::from_index(index);
                let packed = pack(key, cell);
                assert_eq!((unpack_key(packed), unpack_cell(packed)), (key, cell));
                assert!(pack(key + 1, Cell::from_index(511)) > packed);
            }
        }
    }
}
