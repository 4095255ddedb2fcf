//! [`Bits256`]: the 15×15 bitboard, 256 bits in four `u64` limbs.
//!
//! Bit `i` lives in limb `i / 64` at position `i % 64` (limb 0 holds bits 0..64). With the
//! 16-bit row stride, limb `j` holds rows `4j .. 4j + 4` exactly, so a row never straddles two
//! limbs; bits 240..256 (row 15, past the board) are always zero.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::{Bitboard, picture_limbs, write_picture};
use crate::geometry::{Cell, Geometry};

/// A 256-bit set in four little-endian `u64` limbs; the 15×15 bitboard.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bits256(pub [u64; 4]);

impl Bits256 {
    /// The set drawn by `picture`, rows separated by line breaks or `/` (`x` a member, `.`
    /// not), built at compile time in a `const`.
    pub const fn literal(picture: &str) -> Bits256 {
        Bits256(picture_limbs(picture, <Bits256 as Bitboard>::GEOMETRY))
    }

    /// Left shift across limbs by `n` bits (`n < 256`).
    #[inline]
    const fn shl_impl(self, n: u32) -> Self {
        let a = self.0;
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 3;
        loop {
            if i >= limbs {
                let src = i - limbs;
                let mut v = a[src] << bits;
                if bits != 0 && src > 0 {
                    v |= a[src - 1] >> (64 - bits);
                }
                out[i] = v;
            }
            if i == 0 {
                break;
            }
            i -= 1;
        }
        Bits256(out)
    }

    /// Right shift across limbs by `n` bits (`n < 256`).
    #[inline]
    const fn shr_impl(self, n: u32) -> Self {
        let a = self.0;
        let limbs = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; 4];
        let mut i = 0;
        while i + limbs < 4 {
            let src = i + limbs;
            let mut v = a[src] >> bits;
            if bits != 0 && src < 3 {
                v |= a[src + 1] << (64 - bits);
            }
            out[i] = v;
            i += 1;
        }
        Bits256(out)
    }

    const fn full() -> Self {
        let g = Geometry::new(15, 5);
        let mut limbs = [0u64; 4];
        let mut y = 0;
        while y < g.height() {
            let mut x = 0;
            while x < g.width() {
                let i = y * g.stride() + x;
                limbs[i / 64] |= 1 << (i % 64);
                x += 1;
            }
            y += 1;
        }
        Bits256(limbs)
    }
}

impl fmt::Debug for Bits256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Bits256({:#018x}, {:#018x}, {:#018x}, {:#018x})",
            self.0[0], self.0[1], self.0[2], self.0[3]
        )
    }
}

macro_rules! limbwise {
    ($trait:ident, $method:ident, $op:tt, $assign_trait:ident, $assign_method:ident) => {
        impl $trait for Bits256 {
            type Output = Bits256;
            #[inline(always)]
            fn $method(self, rhs: Bits256) -> Bits256 {
                let (a, b) = (self.0, rhs.0);
                Bits256([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $assign_trait for Bits256 {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bits256) {
                *self = $trait::$method(*self, rhs);
            }
        }
    };
}

limbwise!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
limbwise!(BitOr, bitor, |, BitOrAssign, bitor_assign);
limbwise!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl Sub for Bits256 {
    type Output = Bits256;
    /// The cells of `self` not in `rhs`.
    #[inline(always)]
    fn sub(self, rhs: Bits256) -> Bits256 {
        let (a, b) = (self.0, rhs.0);
        Bits256([a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]])
    }
}

impl Not for Bits256 {
    type Output = Bits256;
    /// The cells of the board not in the set.
    #[inline(always)]
    fn not(self) -> Bits256 {
        Bits256::FULL ^ self
    }
}

impl fmt::Display for Bits256 {
    /// The set as a picture (see [`Bitboard::from_picture`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_picture(*self, f)
    }
}

impl Bitboard for Bits256 {
    const GEOMETRY: Geometry = Geometry::new(15, 5);
    const EMPTY: Self = Bits256([0; 4]);
    const FULL: Self = Bits256::full();
    const STORAGE_BITS: u32 = 256;

    #[inline(always)]
    fn from_cell(cell: Cell) -> Self {
        // Each limb computed from the index (no indexed store: writing one limb of a stack
        // array and reading the whole back stalls store forwarding on the hot paths).
        let i = cell.index();
        let bit = 1u64 << (i & 63);
        let limb = i >> 6;
        Bits256(std::array::from_fn(|l| if l == limb { bit } else { 0 }))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn contains(self, cell: Cell) -> bool {
        let i = cell.index();
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self.shl_impl(n)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self.shr_impl(n)
    }
    #[inline(always)]
    fn lowest(self) -> Option<Cell> {
        for (limb, &bits) in self.0.iter().enumerate() {
            if bits != 0 {
                return Some(Cell::from_index((limb * 64) as u8 + bits.trailing_zeros() as u8));
            }
        }
        None
    }
    #[inline(always)]
    fn pop_lowest(&mut self) -> Option<Cell> {
        for limb in 0..4 {
            let bits = self.0[limb];
            if bits != 0 {
                self.0[limb] = bits & (bits - 1);
                return Some(Cell::from_index((limb * 64) as u8 + bits.trailing_zeros() as u8));
            }
        }
        None
    }
}

const _: () = assert!(std::mem::size_of::<Bits256>() == 32);
const _: () = assert!(Bits256::full().0[3] >> 48 == 0, "row 15 is past the board");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The slow model: one `bool` per bit.
    fn to_model(b: Bits256) -> [bool; 256] {
        std::array::from_fn(|i| (b.0[i / 64] >> (i % 64)) & 1 == 1)
    }

    fn model_shl(m: &[bool; 256], n: usize) -> [bool; 256] {
        std::array::from_fn(|i| i >= n && m[i - n])
    }

    fn model_shr(m: &[bool; 256], n: usize) -> [bool; 256] {
        std::array::from_fn(|i| i + n < 256 && m[i + n])
    }

    fn check_all_shifts(b: Bits256) {
        let model = to_model(b);
        for n in 0..256 {
            assert_eq!(to_model(b.shl(n)), model_shl(&model, n as usize), "{b:?} << {n}");
            assert_eq!(to_model(b.shr(n)), model_shr(&model, n as usize), "{b:?} >> {n}");
        }
    }

    #[test]
    fn every_single_bit_shifts_like_the_model_by_every_amount() {
        for bit in 0..256 {
            let mut limbs = [0u64; 4];
            limbs[bit / 64] = 1 << (bit % 64);
            check_all_shifts(Bits256(limbs));
        }
    }

    #[test]
    fn random_and_dense_patterns_shift_like_the_model() {
        let mut rng = SplitMix64::new(0x5eed_0256);
        check_all_shifts(Bits256([u64::MAX; 4]));
        check_all_shifts(Bits256::FULL);
        for _ in 0..200 {
            let b = Bits256([rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()]);
            check_all_shifts(b);
        }
    }

    #[test]
    fn operators_count_and_iteration_agree_with_the_model() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..500 {
            let a = Bits256([rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()]);
            let b = Bits256([rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()]);
            let (ma, mb) = (to_model(a), to_model(b));
            let and = to_model(a & b);
            let or = to_model(a | b);
            let xor = to_model(a ^ b);
            for i in 0..256 {
                assert_eq!(and[i], ma[i] && mb[i]);
                assert_eq!(or[i], ma[i] || mb[i]);
                assert_eq!(xor[i], ma[i] != mb[i]);
            }
            assert_eq!(a.count() as usize, ma.iter().filter(|&&v| v).count());
            let on_board = a & Bits256::FULL;
            let listed: Vec<usize> = on_board.iter().map(Cell::index).collect();
            let expected: Vec<usize> =
                (0..256).filter(|&i| ma[i] && to_model(Bits256::FULL)[i]).collect();
            assert_eq!(listed, expected);
        }
    }
}
