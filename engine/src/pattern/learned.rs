//! The learned evaluation tables: none is learned yet, so every rule evaluates with the
//! prior worths (see [`super::code::prior_worth`]). `engine/examples/train_eval.rs` writes
//! this file.

use super::code::{EVAL_TABLES, PCODES};

/// By [`super::code::eval_table`]: the table's worths by role and pattern code, in potential
/// units, or `None` where the rule keeps the prior worths.
pub static TABLES: [Option<&[[i32; PCODES]; 2]>; EVAL_TABLES] = [None; EVAL_TABLES];

/// By [`super::code::eval_table`] of the side to move: the worth of every pair of threat
/// flags ([`super::flags`]), in evaluation units, or `None` where the rule has none.
pub static THREATS: [Option<&[i16; super::flags::FLAG_ENTRIES]>; EVAL_TABLES] = [None; EVAL_TABLES];
