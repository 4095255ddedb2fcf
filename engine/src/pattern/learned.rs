//! The learned evaluation tables: no table is learned yet, so every rule evaluates with the
//! prior worths (see [`super::code::prior_worth`]). `engine/examples/train_eval.rs` writes
//! this file.

use super::code::PCODES;

/// By [`super::code::eval_table`], role and pattern code: the code's worth, in potential units.
pub static TABLES: &[[[i32; PCODES]; 2]] = &[];
