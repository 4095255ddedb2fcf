//! The multi-limb bitboards: [`Bits256`] (boards up to 15×15, four `u64` limbs, stride 16)
//! and [`Bits512`] (boards up to 22×22, eight limbs, stride 23), made by one macro.
//!
//! Bit `i` lives in limb `i / 64` at position `i % 64` (limb 0 holds bits 0..64). With the
//! 16-bit row stride of [`Bits256`], limb `j` holds rows `4j .. 4j + 4` exactly, so a row never
//! straddles two limbs; bits 240..256 (row 15, past the board) are always zero. [`Bits512`]'s
//! 23-bit rows do straddle limbs, which the shifts carry across; its bits 506..512 (past
//! row 21) are always zero.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::{Bitboard, picture_limbs, write_picture};
use crate::geometry::{Cell, Geometry};

/// Defines a bitboard of `$limbs` little-endian `u64` limbs, `$name`, whose largest board is
/// `$side` × `$side` with five in a row, stored with stride `$side + 1`.
macro_rules! limb_bitboard {
    ($(#[$doc:meta])* $name:ident, $limbs:expr, $side:expr) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub [u64; $limbs]);

        impl Default for $name {
            fn default() -> Self {
                $name([0; $limbs])
            }
        }

        impl $name {
            /// The set drawn by `picture`, rows separated by line breaks or `/` (`x` a member,
            /// `.` not), built at compile time in a `const`.
            pub const fn literal(picture: &str) -> $name {
                $name(picture_limbs(picture, <$name as Bitboard>::GEOMETRY))
            }

            /// Left shift across limbs by `n` bits (`n < STORAGE_BITS`).
            #[inline]
            const fn shl_impl(self, n: u32) -> Self {
                let a = self.0;
                let limbs = (n / 64) as usize;
                let bits = n % 64;
                let mut out = [0u64; $limbs];
                let mut i = $limbs - 1;
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
                $name(out)
            }

            /// Right shift across limbs by `n` bits (`n < STORAGE_BITS`).
            #[inline]
            const fn shr_impl(self, n: u32) -> Self {
                let a = self.0;
                let limbs = (n / 64) as usize;
                let bits = n % 64;
                let mut out = [0u64; $limbs];
                let mut i = 0;
                while i + limbs < $limbs {
                    let src = i + limbs;
                    let mut v = a[src] >> bits;
                    if bits != 0 && src < $limbs - 1 {
                        v |= a[src + 1] << (64 - bits);
                    }
                    out[i] = v;
                    i += 1;
                }
                $name(out)
            }

            const fn full() -> Self {
                let g = Geometry::new($side, 5);
                let mut limbs = [0u64; $limbs];
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
                $name(limbs)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}(", stringify!($name))?;
                for (i, limb) in self.0.iter().enumerate() {
                    write!(f, "{}{limb:#018x}", if i == 0 { "" } else { ", " })?;
                }
                write!(f, ")")
            }
        }

        limb_bitboard!(@op $name, $limbs, BitAnd, bitand, &, BitAndAssign, bitand_assign);
        limb_bitboard!(@op $name, $limbs, BitOr, bitor, |, BitOrAssign, bitor_assign);
        limb_bitboard!(@op $name, $limbs, BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

        impl Sub for $name {
            type Output = $name;
            /// The cells of `self` not in `rhs`.
            #[inline(always)]
            fn sub(self, rhs: $name) -> $name {
                let (a, b) = (self.0, rhs.0);
                $name(std::array::from_fn(|i| a[i] & !b[i]))
            }
        }

        impl Not for $name {
            type Output = $name;
            /// The cells of the type's largest board not in the set.
            #[inline(always)]
            fn not(self) -> $name {
                $name::FULL ^ self
            }
        }

        impl fmt::Display for $name {
            /// The set as a picture (see [`Bitboard::from_picture`]).
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_picture(*self, f)
            }
        }

        impl Bitboard for $name {
            const GEOMETRY: Geometry = Geometry::new($side, 5);
            const EMPTY: Self = $name([0; $limbs]);
            const FULL: Self = $name::full();
            const STORAGE_BITS: u32 = 64 * $limbs;

            #[inline(always)]
            fn from_cell(cell: Cell) -> Self {
                // Each limb computed from the index (no indexed store: writing one limb of a
                // stack array and reading the whole back stalls store forwarding on the hot
                // paths).
                let i = cell.index();
                let bit = 1u64 << (i & 63);
                let limb = i >> 6;
                $name(std::array::from_fn(|l| if l == limb { bit } else { 0 }))
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.0.iter().map(|l| l.count_ones()).sum()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self.0.iter().fold(0, |acc, &l| acc | l) == 0
            }
            #[inline(always)]
            fn contains(self, cell: Cell) -> bool {
                let i = cell.index();
                (self.0[i >> 6] >> (i & 63)) & 1 != 0
            }
            #[inline(always)]
            fn toggle(&mut self, index: usize) {
                self.0[(index >> 6) % $limbs] ^= 1 << (index & 63);
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
                        let index = (limb * 64) as u16 + bits.trailing_zeros() as u16;
                        return Some(Cell::from_index(index));
                    }
                }
                None
            }
            #[inline(always)]
            fn pop_lowest(&mut self) -> Option<Cell> {
                for limb in 0..$limbs {
                    let bits = self.0[limb];
                    if bits != 0 {
                        self.0[limb] = bits & (bits - 1);
                        let index = (limb * 64) as u16 + bits.trailing_zeros() as u16;
                        return Some(Cell::from_index(index));
                    }
                }
                None
            }
        }
    };
    (@op $name:ident, $limbs:expr, $trait:ident, $method:ident, $op:tt, $assign_trait:ident,
     $assign_method:ident) => {
        impl $trait for $name {
            type Output = $name;
            #[inline(always)]
            fn $method(self, rhs: $name) -> $name {
                let (a, b) = (self.0, rhs.0);
                $name(std::array::from_fn(|i| a[i] $op b[i]))
            }
        }
        impl $assign_trait for $name {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: $name) {
                *self = $trait::$method(*self, rhs);
            }
        }
    };
}

limb_bitboard!(
    /// A 256-bit set in four little-endian `u64` limbs: boards up to 15×15 (stride 16).
    Bits256, 4, 15
);
limb_bitboard!(
    /// A 512-bit set in eight little-endian `u64` limbs: boards up to 22×22 (stride 23; 506
    /// bits of the largest board's rows).
    Bits512, 8, 22
);

const _: () = assert!(std::mem::size_of::<Bits256>() == 32);
const _: () = assert!(Bits256::full().0[3] >> 48 == 0, "row 15 is past the board");
const _: () = assert!(std::mem::size_of::<Bits512>() == 64);
const _: () = assert!(Bits512::full().0[7] >> 58 == 0, "bits from 506 are past the board");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The model tests of one type: shifts, operators, counts and iteration against one
    /// `bool` per bit.
    macro_rules! model_tests {
        ($module:ident, $name:ident, $limbs:expr) => {
            mod $module {
                use super::*;

                const BITS: usize = 64 * $limbs;

                fn to_model(b: $name) -> Vec<bool> {
                    (0..BITS).map(|i| (b.0[i / 64] >> (i % 64)) & 1 == 1).collect()
                }

                fn random(rng: &mut SplitMix64) -> $name {
                    $name(std::array::from_fn(|_| rng.next_u64()))
                }

                fn check_all_shifts(b: $name) {
                    let model = to_model(b);
                    for n in 0..BITS {
                        let shl: Vec<bool> = (0..BITS).map(|i| i >= n && model[i - n]).collect();
                        let shr: Vec<bool> =
                            (0..BITS).map(|i| i + n < BITS && model[i + n]).collect();
                        assert_eq!(to_model(b.shl(n as u32)), shl, "{b:?} << {n}");
                        assert_eq!(to_model(b.shr(n as u32)), shr, "{b:?} >> {n}");
                    }
                }

                #[test]
                fn every_single_bit_shifts_like_the_model_by_every_amount() {
                    for bit in 0..BITS {
                        let mut limbs = [0u64; $limbs];
                        limbs[bit / 64] = 1 << (bit % 64);
                        check_all_shifts($name(limbs));
                    }
                }

                #[test]
                fn random_and_dense_patterns_shift_like_the_model() {
                    let mut rng = SplitMix64::new(0x5eed_0256);
                    check_all_shifts($name([u64::MAX; $limbs]));
                    check_all_shifts($name::FULL);
                    for _ in 0..100 {
                        check_all_shifts(random(&mut rng));
                    }
                }

                #[test]
                fn operators_count_and_iteration_agree_with_the_model() {
                    let mut rng = SplitMix64::new(7);
                    let full = to_model($name::FULL);
                    for _ in 0..500 {
                        let (a, b) = (random(&mut rng), random(&mut rng));
                        let (ma, mb) = (to_model(a), to_model(b));
                        let (and, or, xor) = (to_model(a & b), to_model(a | b), to_model(a ^ b));
                        let sub = to_model(a - b);
                        for i in 0..BITS {
                            assert_eq!(and[i], ma[i] && mb[i]);
                            assert_eq!(or[i], ma[i] || mb[i]);
                            assert_eq!(xor[i], ma[i] != mb[i]);
                            assert_eq!(sub[i], ma[i] && !mb[i]);
                        }
                        assert_eq!(a.count() as usize, ma.iter().filter(|&&v| v).count());
                        assert_eq!(a.is_empty(), !ma.contains(&true));
                        let on_board = a & $name::FULL;
                        let listed: Vec<usize> = on_board.iter().map(Cell::index).collect();
                        let expected: Vec<usize> =
                            (0..BITS).filter(|&i| ma[i] && full[i]).collect();
                        assert_eq!(listed, expected);
                        let mut toggled = a;
                        toggled.toggle(expected.first().copied().unwrap_or(0));
                        assert_eq!((toggled ^ a).count(), 1);
                    }
                }
            }
        };
    }

    model_tests!(bits256, Bits256, 4);
    model_tests!(bits512, Bits512, 8);
}
