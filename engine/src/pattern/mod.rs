//! Line patterns: what a stone on an empty cell makes along one line direction.
//!
//! A **line key** describes the ten cells around a cell along one direction, five on each
//! side, two bits each ([`keys`]); the cell itself is not part of the key. A generated
//! [`table`] maps every key to the [`Pattern`] a new stone on the cell would make, for each
//! colour under each rule. Patterns are defined **inductively** by what one more stone on an
//! empty cell of the line makes: five → four → three → two → one. Rule differences
//! (overlines, renju's forbidden shapes for black, caro's blocked fives) live only in the
//! generator.
//!
//! `docs/patterns.md` has the legend with diagrams (`X` the stone placed, `x` own stones,
//! `o` opponent stones, `.` empty, `|` the board edge).

pub mod combo;
pub mod keys;
pub mod table;

/// What a stone makes along one line through it, weakest first (the order is used for
/// move ordering: a larger pattern is a stronger threat).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through this cell along this line.
    /// `oxxX.o` (no room for five)
    Dead = 0,
    /// Overline under a rule where it does not win (standard; renju for black): six or more.
    /// `xxX.xx` → placing at `X` with `xx` on both sides: `xxXxxx`
    Overline,
    /// A blocked one: one more stone makes at most a blocked two.
    /// `|X....`
    B1,
    /// An open one: one more stone can make an open two.
    /// `...X...`
    F1,
    /// A blocked two: one more stone makes at most a blocked three.
    /// `oxX...`
    B2,
    /// An open two: one more stone can make an open three.
    /// `..xX..`, `.x.X..`
    F2,
    /// A blocked three: one more stone makes at most a four.
    /// `oxxX..`, `.xx.X.o`
    B3,
    /// An open three: one more stone can make an open four (including broken threes).
    /// `..xxX..`, `.x.xX.`
    F3,
    /// A four: exactly one cell completes five.
    /// `oxxxX.`, `xx.xX`
    B4,
    /// An open (straight) four: two cells complete five with the same four stones.
    /// `.xxxX.`
    F4,
    /// Two fours in one line: two cells complete five with different stones.
    /// `x.xXx.x`, `xx.Xx.xx` — forbidden for black in renju, a win threat otherwise.
    DoubleFour,
    /// Five: the stone wins along this line.
    /// `xxxxX`
    Five,
}

impl Pattern {
    /// Every pattern, weakest first.
    pub const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    /// The pattern with this discriminant.
    #[inline(always)]
    pub const fn from_u8(v: u8) -> Pattern {
        match v {
            1 => Pattern::Overline,
            2 => Pattern::B1,
            3 => Pattern::F1,
            4 => Pattern::B2,
            5 => Pattern::F2,
            6 => Pattern::B3,
            7 => Pattern::F3,
            8 => Pattern::B4,
            9 => Pattern::F4,
            10 => Pattern::DoubleFour,
            11 => Pattern::Five,
            _ => Pattern::Dead,
        }
    }

    /// Whether the pattern is a four of any kind (one more stone makes five).
    #[inline(always)]
    pub const fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::DoubleFour)
    }

    /// How many fours the pattern counts as (renju counts a one-line double four as two).
    #[inline(always)]
    pub const fn four_count(self) -> u32 {
        match self {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}
