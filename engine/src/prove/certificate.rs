//! Certificates: a refutation written out as the defender's strategy, checkable without
//! the prover (by [`super::verify`]).
//!
//! The text format, one item a line (`#` starts a comment line):
//!
//! ```text
//! mnk-certificate 1
//! board 7x7                      width x height, k = 5, freestyle (five or more wins)
//! refutes black                  the side shown unable to force a five ...
//! position <black> <white> black ... from this position, with this side to move
//! R <attacker> <defender> <cell>             defender to move here: play <cell>
//! P <attacker> <defender> <cell>-<cell> ...  here the defender holds every open line by pairs
//! end
//! ```
//!
//! Stone sets are hexadecimal 64-bit numbers, bit `8 * y + x` for the cell (x, y); cells
//! are a column letter from `a` and a row number from 1 (a1 is (0, 0)), as in `pos`
//! notation. A file may hold several `refutes` sections (a draw has two, one per side).
//!
//! The checker walks every attacker move from the position; wherever the defender is to
//! move it needs an `R` line (or a `P` line, or a five for the defender to complete, or a
//! full board), and wherever a `P` line stands it checks that the pairs are disjoint empty
//! cells and that every line without a defender stone holds one of them.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::grid::{Grid, cells};
use super::search::{Answer, Expansion, Leaf, Prover, expand};

/// What the defender does in one position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Record {
    /// Plays this cell.
    Reply(u8),
    /// Holds every open line with these pairs.
    Pairing(Vec<(u8, u8)>),
}

/// A defender's strategy: the record of each position where it is needed, keyed by
/// (attacker stones, defender stones).
pub type Strategy = HashMap<(u64, u64), Record>;

/// Reads the defender's strategy off a disproved prover, from the position with `a` and
/// `d` stones (the attacker to move when `or`). Positions the proof skipped (after an
/// attacker's pass-like move) are proved here on demand.
pub fn extract(
    prover: &mut Prover,
    grid: &Grid,
    a: u64,
    d: u64,
    or: bool,
) -> Result<Strategy, String> {
    let mut strategy = Strategy::new();
    let mut seen = HashSet::new();
    walk(prover, grid, a, d, or, &mut strategy, &mut seen)?;
    Ok(strategy)
}

fn walk(
    prover: &mut Prover,
    grid: &Grid,
    a: u64,
    d: u64,
    or: bool,
    strategy: &mut Strategy,
    seen: &mut HashSet<(u64, u64)>,
) -> Result<(), String> {
    if !seen.insert((a, d)) {
        return Ok(());
    }
    let expansion = expand(grid, a, d, or, &mut Vec::new());
    match expansion {
        Expansion::Proved => return Err("the attacker wins here".into()),
        Expansion::Disproved(Leaf::Pairing(pairs)) => {
            strategy.insert((a, d), Record::Pairing(pairs));
            return Ok(());
        }
        Expansion::Disproved(Leaf::Full) => return Ok(()),
        Expansion::Disproved(Leaf::DefenderFive(Some(cell))) if !or => {
            strategy.insert((a, d), Record::Reply(cell));
            return Ok(());
        }
        _ => {}
    }
    let empty = grid.all() & !(a | d);
    if or {
        for m in cells(empty) {
            walk(prover, grid, a | 1 << m, d, false, strategy, seen)?;
        }
        return Ok(());
    }
    let Expansion::Moves(moves) = expansion else {
        return Err("an unexpected leaf at a defender's node".into());
    };
    let reply = prover
        .settling_move(a, d, false, &moves, Answer::Disproved)
        .ok_or("no refuting move at a defender's node")?;
    strategy.insert((a, d), Record::Reply(reply));
    walk(prover, grid, a, d | 1 << reply, true, strategy, seen)
}

/// A cell in `pos` notation (a1 is (0, 0)).
pub fn cell_name(cell: u8) -> String {
    format!("{}{}", char::from(b'a' + cell % 8), cell / 8 + 1)
}

/// Appends one `refutes` section to `out`.
pub fn write_section(
    out: &mut String,
    refuted_black: bool,
    black: u64,
    white: u64,
    black_to_move: bool,
    strategy: &Strategy,
) {
    let side = |black: bool| if black { "black" } else { "white" };
    let _ = writeln!(out, "refutes {}", side(refuted_black));
    let _ = writeln!(out, "position {black:x} {white:x} {}", side(black_to_move));
    let mut keys: Vec<_> = strategy.keys().copied().collect();
    keys.sort_unstable_by_key(|&(a, d)| ((a | d).count_ones(), a, d));
    for (a, d) in keys {
        match &strategy[&(a, d)] {
            Record::Reply(cell) => {
                let _ = writeln!(out, "R {a:x} {d:x} {}", cell_name(*cell));
            }
            Record::Pairing(pairs) => {
                let _ = write!(out, "P {a:x} {d:x}");
                for &(p, q) in pairs {
                    let _ = write!(out, " {}-{}", cell_name(p), cell_name(q));
                }
                out.push('\n');
            }
        }
    }
}
