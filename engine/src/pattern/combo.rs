//! Combinations: what one stone on an empty cell makes over its four directions together
//! (a four-three, a double three, ...), on top of each direction's [`Pattern`].
//!
//! A sum of every empty cell's four patterns' worths cannot tell one cell where a stone
//! makes two threes at once — the opponent blocks only one of them — from two cells with one
//! three each. The combination classes tell them apart; the evaluation prices each class
//! with one more weight per role, fitted with the pattern weights.
//!
//! A cell has at most one class, the first that fits, counting its directions' patterns
//! (a *two* here is a closed three or an open two: one more stone makes a three):
//!
//! | class | patterns |
//! |---|---|
//! | `DoubleFour` | two fours |
//! | `FourThree` | a four and an open three |
//! | `DoubleThree` | two open threes |
//! | `FourTwo` | a four and a two |
//! | `ThreeTwo` | an open three and a two |
//! | `DoubleTwo` | two twos |
//!
//! (`docs/patterns.md` draws an example of each.)
//!
//! A cell whose stone makes five, an open four or a one-line double four in some direction
//! has no class: that pattern decides alone. For black under renju a double four, a double
//! three and an overline are forbidden, so those cells have no class either.
//!
//! A class is a function of a cell's [pattern code](super::code), so its worth is part of the
//! code's: make and unmake look up codes, not classes.

use super::Pattern;

/// The combination classes, strongest first.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Combo {
    /// Two fours.
    DoubleFour = 0,
    /// A four and an open three.
    FourThree = 1,
    /// Two open threes.
    DoubleThree = 2,
    /// A four and a closed three or open two.
    FourTwo = 3,
    /// An open three and a closed three or open two.
    ThreeTwo = 4,
    /// Two closed threes or open twos.
    DoubleTwo = 5,
}

/// Number of [`Combo`] classes.
pub const COMBOS: usize = 6;

/// The combination class of a cell whose four directions make `patterns` for a colour, if it
/// has one; `forbidden_doubles` for a colour the rule restricts (renju's black: see
/// [`crate::rules::Rule::restricts`]). The direct
/// definition.
pub fn combo_of(patterns: [Pattern; 4], forbidden_doubles: bool) -> Option<Combo> {
    let count = |is: fn(Pattern) -> bool| patterns.iter().filter(|&&p| is(p)).count();
    let decisive = count(|p| matches!(p, Pattern::F4 | Pattern::DoubleFour | Pattern::Five));
    let overlines = count(|p| p == Pattern::Overline);
    let threes = count(Pattern::is_open_three);
    let fours = count(|p| p == Pattern::B4);
    let twos = count(|p| p == Pattern::B3 || p.is_open_two());
    if decisive > 0 || (forbidden_doubles && (overlines > 0 || fours >= 2 || threes >= 2)) {
        return None;
    }
    match () {
        _ if fours >= 2 => Some(Combo::DoubleFour),
        _ if fours >= 1 && threes >= 1 => Some(Combo::FourThree),
        _ if threes >= 2 => Some(Combo::DoubleThree),
        _ if fours >= 1 && twos >= 1 => Some(Combo::FourTwo),
        _ if threes >= 1 && twos >= 1 => Some(Combo::ThreeTwo),
        _ if twos >= 2 => Some(Combo::DoubleTwo),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_legend() {
        use Pattern::*;
        let class = |p: [Pattern; 4]| combo_of(p, false);
        assert_eq!(class([B4, B4, Dead, Dead]), Some(Combo::DoubleFour));
        assert_eq!(class([B4, F3, F3, Dead]), Some(Combo::FourThree));
        assert_eq!(class([F3, Dead, F3, B1]), Some(Combo::DoubleThree));
        assert_eq!(class([B4, B3, Dead, Dead]), Some(Combo::FourTwo));
        assert_eq!(class([F2, F3, Dead, Dead]), Some(Combo::ThreeTwo));
        assert_eq!(class([F2, B3, F1, B2]), Some(Combo::DoubleTwo));
        assert_eq!(class([F2, F1, B2, B1]), None);
        // A decisive pattern has no class; renju's black may not make doubles or overlines.
        assert_eq!(class([F4, F3, F3, Dead]), None);
        assert_eq!(combo_of([B4, B4, Dead, Dead], true), None);
        assert_eq!(combo_of([F3, F3, Dead, Dead], true), None);
        assert_eq!(combo_of([Overline, F3, F2, Dead], true), None);
        assert_eq!(combo_of([Overline, F3, F2, Dead], false), Some(Combo::ThreeTwo));
        assert_eq!(combo_of([B4, F3, Dead, Dead], true), Some(Combo::FourThree));
    }
}
