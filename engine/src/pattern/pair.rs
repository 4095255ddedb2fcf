//! A pattern pair: the table entry of one line, both colours' patterns and the threat
//! kinds they belong to, packed in 16 bits so that make and unmake read what changed with
//! one XOR.

use super::Pattern;
use crate::color::Color;

/// Kinds of threat cells the pattern state keeps as sets.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ThreatKind {
    /// A stone here makes five.
    Five = 0,
    /// A stone here makes a four of any kind (`B4`, `F4`, `DoubleFour`).
    Four = 1,
    /// A stone here makes an open four or a one-line double four (`F4`, `DoubleFour`).
    OpenFour = 2,
    /// A stone here makes an open three (`F3`, `F3S`).
    Three = 3,
}

/// Number of [`ThreatKind`]s.
pub(crate) const KINDS: usize = 4;

/// Bit `kind` set for every threat kind the pattern belongs to.
pub(crate) const fn kinds_of(p: Pattern) -> u8 {
    match p {
        Pattern::Five => 1 << ThreatKind::Five as u8,
        Pattern::B4 => 1 << ThreatKind::Four as u8,
        Pattern::F4 | Pattern::DoubleFour => {
            (1 << ThreatKind::Four as u8) | (1 << ThreatKind::OpenFour as u8)
        }
        Pattern::F3 | Pattern::F3S => 1 << ThreatKind::Three as u8,
        _ => 0,
    }
}

/// The threat kinds of both colours of a pattern pair (black in bits 0..4, white 4..8).
#[inline(always)]
pub(crate) const fn pair_kinds(pair: PatternPair) -> u8 {
    (pair >> 8) as u8
}

/// A table entry: black's pattern in bits 0..4, white's in bits 4..8, and in bits 8..16 the
/// threat kinds of both (black's in 8..12, white's in 12..16; see [`ThreatKind`]).
pub type PatternPair = u16;

/// Packs black's and white's patterns into a [`PatternPair`].
#[inline]
pub const fn pack_pair(black: Pattern, white: Pattern) -> PatternPair {
    let kinds = kinds_of(black) | kinds_of(white) << 4;
    (black as u16) | (white as u16) << 4 | (kinds as u16) << 8
}

/// The pattern of `color` in a [`PatternPair`].
#[inline(always)]
pub const fn pair_pattern(pair: PatternPair, color: Color) -> Pattern {
    Pattern::from_u8(((pair >> (4 * color as u16)) & 15) as u8)
}
