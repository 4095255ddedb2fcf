//! Threats from line patterns (gomoku boards): the static knowledge of what a move makes for each
//! side (`knowledge.rs`: [`threat_value`], [`defences_against_three`], ...), and the
//! threat-sequence solver, VCF and VCT (`solver.rs`), with its table (`table.rs`) and the
//! hints a won solve leaves for solves of positions like it (`hints.rs`).
//!
//! All of it reads the patterns the board keeps incrementally; on boards without patterns
//! (3×3, 5×5) the functions answer "nothing known" and the search relies on full width.

mod hints;
mod knowledge;
mod solver;
mod table;
#[cfg(test)]
mod tests;

pub(crate) use knowledge::five_blocks;
pub use knowledge::{
    DOUBLE_THREE_VALUE, FIVE_VALUE, FOUR_THREE_VALUE, WINNING_FOUR_VALUE, defences_against_three,
    double_three_wins, threat_value,
};
pub(crate) use solver::{ThreatSearch, Threats};
