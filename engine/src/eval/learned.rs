//! The learned evaluation tables: none is learned yet, so every rule evaluates with the
//! prior worths (see [`super::worth::prior_worth`]). `engine/examples/train_eval.rs` writes
//! this file.

use super::flags::FLAG_ENTRIES;
use super::weights::EVAL_TABLES;
use crate::pattern::code::PCODES;

/// By [`super::weights::eval_table`]: the table's worths by role and pattern code, in
/// potential units, or `None` where the rule keeps the prior worths.
pub static TABLES: [Option<&[[i32; PCODES]; 2]>; EVAL_TABLES] = [None; EVAL_TABLES];

/// By [`super::weights::eval_table`] of the side to move: the worth of every pair of threat
/// flags ([`super::flags`]), in evaluation units, or `None` where the rule has none.
pub static THREATS: [Option<&[i16; FLAG_ENTRIES]>; EVAL_TABLES] = [None; EVAL_TABLES];
