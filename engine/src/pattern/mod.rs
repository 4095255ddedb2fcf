//! Line patterns: what a stone on an empty cell makes along one line direction.
//!
//! A **line key** describes the ten cells around a cell along one direction, five on each
//! side, two bits each ([`keys`]); the cell itself is not part of the key. A generated
//! [`table`] maps every key to the [`Pattern`] a new stone on the cell would make, for each
//! colour under each rule. Patterns are defined **inductively** by what one more stone on an
//! empty cell of the line makes: five → four → three → two → one. Rule differences
//! (overlines, renju's forbidden shapes for black, caro's blocked fives) live only in the
//! generator. A cell's four patterns together are its pattern [`code`] and its combination
//! class ([`combo`]).
//!
//! The patterns know nothing of what they are worth: the evaluation (`crate::eval`, a floor
//! above the board) prices them and hands the board a table of values to sum
//! ([`code::CodeValues`]).
//!
//! `docs/patterns.md` has the legend with diagrams (`X` the stone placed, `x` own stones,
//! `o` opponent stones, `.` empty, `|` the board edge).

// The classifier's generating half runs in the build script; in the library only the tests
// run it, to check what was built in.
#[cfg_attr(not(test), allow(dead_code))]
mod classify;
pub mod code;
pub mod combo;
pub mod keys;
pub mod pair;
pub mod table;

pub use classify::Pattern;
