//! Threat flags: which threats each side could make with its next stone, read off the
//! pattern state's threat-cell sets; a learned table gives every pair of the two sides'
//! flags (the side to move's and the waiting side's) a worth ([`super::worth::flags_worth`]).
//!
//! The codes' worths ([`super::worth`]) are summed cell by cell, so they cannot price tempo:
//! an open three is a winning threat for the side to move when the opponent has no four to
//! answer with, and a thing to block when it is the opponent's. A table over both sides'
//! flags can. The flags leave out fives: a position where either side can make five is
//! decided by the next move, and the search reads those rather than evaluates them (the
//! trainer leaves them out too).

use crate::board::Board;
use crate::color::Color;
use crate::pattern::keys::PatternState;
use crate::pattern::pair::ThreatKind;
use crate::storage::Storage;

/// One side's threat flags, as bits of a [`FLAG_BITS`]-bit number.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ThreatFlag {
    /// A stone of the side makes an open three somewhere.
    Three = 0,
    /// A stone of the side makes a four somewhere.
    Four = 1,
    /// A stone of the side makes an open four (or a one-line double four) somewhere.
    OpenFour = 2,
    /// A stone of the side makes a four along one line and an open three along another.
    FourThree = 3,
}

/// Bits of one side's flags.
pub const FLAG_BITS: usize = 4;

/// Entries of a threat-flag table: every pair of the side to move's and the waiting side's
/// flags.
pub const FLAG_ENTRIES: usize = 1 << (2 * FLAG_BITS);

/// The flags of `color` on `board`, if the board keeps patterns. A colour the rule restricts
/// (renju's black) makes no threat on a forbidden point: those cells are left out.
pub fn side_flags<B: Storage>(board: &Board<B>, color: Color) -> Option<u8> {
    let lines = board.patterns();
    let empty = board.empty_cells();
    let cells = |kind| lines.threat_cells(color, kind).map(|c| c & empty);
    let (mut three, mut four) = (cells(ThreatKind::Three)?, cells(ThreatKind::Four)?);
    let mut open_four = cells(ThreatKind::OpenFour)?;
    if board.rule().restricts(color) {
        let forbidden = board.forbidden_among(three | four | open_four);
        (three, four, open_four) = (three - forbidden, four - forbidden, open_four - forbidden);
    }
    let flag = |on: bool, flag: ThreatFlag| u8::from(on) << flag as u8;
    Some(
        flag(!three.is_empty(), ThreatFlag::Three)
            | flag(!four.is_empty(), ThreatFlag::Four)
            | flag(!open_four.is_empty(), ThreatFlag::OpenFour)
            | flag(!(four & three).is_empty(), ThreatFlag::FourThree),
    )
}

/// The index of the side to move's flags `me` and the waiting side's `them` in a
/// threat-flag table.
pub const fn flag_index(me: u8, them: u8) -> usize {
    me as usize | (them as usize) << FLAG_BITS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits256};
    use crate::rules::Rule;

    #[test]
    fn flags_read_the_threats_each_side_can_make() {
        // Black h8 i8 (a two: a stone makes an open three), white a1 a2 a3 (three in a row
        // against the edge: a stone on a4 makes a closed four), black to move.
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8a1i8a2o15a3").unwrap();
        let black = side_flags(&board, Color::Black).unwrap();
        let white = side_flags(&board, Color::White).unwrap();
        assert_eq!(black, 1 << ThreatFlag::Three as u8);
        assert_eq!(white, 1 << ThreatFlag::Four as u8);
        // Black h8 i8 j8 (k8 makes an open four along the row) and k9 k10 (k8 makes an open
        // three down column k too: a four-three), white scattered, black to move.
        let board =
            Board::<Bits256>::from_notation(Rule::Freestyle, "h8a1i8a15j8o1k9o15k10e2").unwrap();
        let black = side_flags(&board, Color::Black).unwrap();
        let all = (1 << FLAG_BITS) - 1;
        assert_eq!(black, all, "{black:b}");
        assert_eq!(side_flags(&board, Color::White).unwrap(), 0);
    }

    /// Renju's black with a double-three point (g8: h8 i8 along the row, g9 g10 down the
    /// column) and nothing else: under freestyle the point is a three, under renju it is
    /// forbidden and black has no three.
    #[test]
    fn renju_blacks_forbidden_points_make_no_threat() {
        let moves = "h8a1i8a15g9o1g10o15";
        let flags = |rule| {
            let board = Board::<Bits256>::from_notation(rule, moves).unwrap();
            side_flags(&board, Color::Black).unwrap()
        };
        assert_eq!(
            flags(Rule::Freestyle) & (1 << ThreatFlag::Three as u8),
            1 << ThreatFlag::Three as u8
        );
        let renju = Board::<Bits256>::from_notation(Rule::Renju, moves).unwrap();
        let forbidden = renju.forbidden_among(renju.empty_cells());
        assert_eq!(forbidden.count(), 1, "g8 alone");
        // The other threes (the row's and the column's far ends) remain.
        let three = renju.patterns().threat_cells(Color::Black, ThreatKind::Three).unwrap()
            & renju.empty_cells();
        assert_eq!(
            flags(Rule::Renju) & (1 << ThreatFlag::Three as u8) != 0,
            !(three - forbidden).is_empty()
        );
        assert!((three & forbidden) == forbidden, "g8 is a three cell");
    }

    #[test]
    fn flags_index_every_pair_once() {
        let mut seen = [false; FLAG_ENTRIES];
        for me in 0..1u8 << FLAG_BITS {
            for them in 0..1u8 << FLAG_BITS {
                let i = flag_index(me, them);
                assert!(!seen[i]);
                seen[i] = true;
            }
        }
    }
}
