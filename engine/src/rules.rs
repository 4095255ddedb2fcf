//! Game rules: what makes a win, and which moves are allowed.
//!
//! | rule        | protocol | five wins | overline (6+)            | other                         |
//! |-------------|----------|-----------|--------------------------|-------------------------------|
//! | `Freestyle` | 0        | yes       | wins                     |                               |
//! | `Standard`  | 1        | yes       | neither wins nor ends    |                               |
//! | `Renju`     | 2, 4     | yes       | white: wins; black: forbidden | black's double-four and double-three are forbidden ([`crate::renju`]) |
//! | `Caro`      | 8        | unless both ends are blocked by the opponent | wins (same condition) | |
//! | `CaroExact` | 9        | unless both ends are blocked by the opponent | neither wins nor ends | |
//!
//! The table is stated once, as code: [`Rule::fives`] gives each colour's [`FiveRule`] —
//! whether an overline wins, whether a run blocked at both ends wins, whether the colour's
//! moves are restricted — and [`FiveRule::judge`] says what a run of stones is under it.
//! Everything that needs a rule's meaning reads it from here: the win test ([`crate::win`]),
//! the line-pattern classifier (run by the build script, which compiles this file too),
//! renju's forbidden points ([`crate::renju`]) and the board's legal moves. The patterns
//! are needed for the forbidden points, and every board larger than 5×5 keeps them: on the
//! small boards, whose lines span the board, all rules coincide and renju forbids nothing.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;

/// What a rule asks of one colour's lines.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct FiveRule {
    /// Whether a run longer than k wins; if not, it neither wins nor ends the game (and for a
    /// restricted colour it is a forbidden move).
    pub overline_wins: bool,
    /// Whether a run with opponent stones on both of its ends does not win (caro).
    pub needs_open_end: bool,
    /// Whether the colour may not make an overline, a double four or a double three: those
    /// points are forbidden to it (renju's black).
    pub restricted: bool,
}

/// What a run of stones through a cell is under a [`FiveRule`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RunKind {
    /// It wins.
    Five,
    /// Longer than k where that does not win.
    Overline,
    /// Anything else: shorter than k, or a five (or longer) that caro's blocked ends spoil.
    Short,
}

impl FiveRule {
    /// What a run of `len` stones is, for win length `k`, when opponent stones block both
    /// of its ends (`blocked_both`) or not.
    #[inline(always)]
    pub const fn judge(self, len: usize, k: usize, blocked_both: bool) -> RunKind {
        if len < k {
            RunKind::Short
        } else if len > k && !self.overline_wins {
            RunKind::Overline
        } else if self.needs_open_end && blocked_both {
            RunKind::Short
        } else {
            RunKind::Five
        }
    }
}

/// The rule deciding which lines win.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, Default)]
pub enum Rule {
    /// Five (k) or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five (k) in a row wins; an overline neither wins nor ends the game.
    Standard,
    /// Renju: black wins only with exactly five and may not make an overline, a double four
    /// or a double three; white wins with five or more.
    Renju,
    /// Caro: five or more wins unless both ends are blocked by opponent stones.
    Caro,
    /// Caro with exactly five.
    CaroExact,
}

impl Rule {
    /// What the rule asks of `color`'s lines: the table of the module docs.
    #[inline(always)]
    pub const fn fives(self, color: Color) -> FiveRule {
        let (overline_wins, needs_open_end) = match self {
            Rule::Freestyle => (true, false),
            Rule::Standard => (false, false),
            Rule::Renju => (matches!(color, Color::White), false),
            Rule::Caro => (true, true),
            Rule::CaroExact => (false, true),
        };
        let restricted = matches!((self, color), (Rule::Renju, Color::Black));
        FiveRule { overline_wins, needs_open_end, restricted }
    }

    /// Whether a five blocked at both ends by the opponent does not win (caro): then a
    /// stone can stop a five by capping its far end, and one stone can stop two.
    #[inline(always)]
    pub const fn is_caro(self) -> bool {
        self.fives(Color::Black).needs_open_end
    }

    /// Whether `color`'s moves are restricted under the rule (renju's black): some empty
    /// points are forbidden to it.
    #[inline(always)]
    pub const fn restricts(self, color: Color) -> bool {
        self.fives(color).restricted
    }

    /// Whether some colour's moves are restricted under the rule (renju).
    #[inline(always)]
    pub const fn has_forbidden_points(self) -> bool {
        self.restricts(Color::Black) || self.restricts(Color::White)
    }

    /// Every rule.
    pub const ALL: [Rule; 5] =
        [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro, Rule::CaroExact];

    /// A dense index (0..5) for per-rule tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rule's lower-case name, as the command line spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// Every Gomocup `INFO rule` code mnk plays, in order: 0 freestyle, 1 standard, 2 and 4
    /// renju, 8 caro, 9 caro with exactly five.
    pub const PROTOCOL_CODES: [u32; 6] = [0, 1, 2, 4, 8, 9];

    /// The rule of a Gomocup `INFO rule` bitmask (see [`Rule::PROTOCOL_CODES`]), if mnk
    /// plays it.
    pub const fn from_protocol(code: u32) -> Option<Rule> {
        match code {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    /// The `INFO rule` code a manager sends for the rule (4 for renju, as Gomocup's
    /// managers send it; 2 means renju too).
    pub const fn protocol_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule '{}' (expected freestyle, standard, renju, caro or caro-exact)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRule {}

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        let lower = s.trim().to_ascii_lowercase();
        Rule::ALL.into_iter().find(|r| r.name() == lower).ok_or_else(|| UnknownRule(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_codes_map_to_rules() {
        assert_eq!(Rule::from_protocol(0), Some(Rule::Freestyle));
        assert_eq!(Rule::from_protocol(1), Some(Rule::Standard));
        assert_eq!(Rule::from_protocol(2), Some(Rule::Renju));
        assert_eq!(Rule::from_protocol(4), Some(Rule::Renju));
        assert_eq!(Rule::from_protocol(8), Some(Rule::Caro));
        assert_eq!(Rule::from_protocol(9), Some(Rule::CaroExact));
        assert_eq!(Rule::from_protocol(3), None);
        for rule in Rule::ALL {
            assert_eq!(Rule::from_protocol(rule.protocol_code()), Some(rule));
        }
        let played: Vec<u32> = (0..1024).filter(|&c| Rule::from_protocol(c).is_some()).collect();
        assert_eq!(played, Rule::PROTOCOL_CODES);
    }

    /// The module docs' table, row by row, through what it means for runs of four to seven
    /// stones, open and blocked at both ends.
    #[test]
    fn each_rule_judges_runs_as_its_table_says() {
        use Color::{Black, White};
        use RunKind::{Five, Overline, Short};
        let judge = |rule: Rule, color, blocked| {
            [4, 5, 6, 7].map(|len| rule.fives(color).judge(len, 5, blocked))
        };
        for color in [Black, White] {
            assert_eq!(judge(Rule::Freestyle, color, false), [Short, Five, Five, Five]);
            assert_eq!(judge(Rule::Freestyle, color, true), [Short, Five, Five, Five]);
            assert_eq!(judge(Rule::Standard, color, true), [Short, Five, Overline, Overline]);
            assert_eq!(judge(Rule::Caro, color, false), [Short, Five, Five, Five]);
            assert_eq!(judge(Rule::Caro, color, true), [Short, Short, Short, Short]);
            assert_eq!(judge(Rule::CaroExact, color, false), [Short, Five, Overline, Overline]);
            assert_eq!(judge(Rule::CaroExact, color, true), [Short, Short, Overline, Overline]);
        }
        assert_eq!(judge(Rule::Renju, Black, false), [Short, Five, Overline, Overline]);
        assert_eq!(judge(Rule::Renju, White, false), [Short, Five, Five, Five]);
        let restricted: Vec<(Rule, Color)> = Rule::ALL
            .into_iter()
            .flat_map(|rule| [(rule, Black), (rule, White)])
            .filter(|&(rule, color)| rule.restricts(color))
            .collect();
        assert_eq!(restricted, [(Rule::Renju, Black)]);
        let caro: Vec<Rule> = Rule::ALL.into_iter().filter(|rule| rule.is_caro()).collect();
        assert_eq!(caro, [Rule::Caro, Rule::CaroExact]);
    }

    #[test]
    fn rule_names_parse_case_insensitively() {
        assert_eq!("Standard".parse::<Rule>(), Ok(Rule::Standard));
        assert_eq!(" freestyle ".parse::<Rule>(), Ok(Rule::Freestyle));
        assert!("renjuu".parse::<Rule>().is_err());
    }
}
