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
use super::search::{Answer, Expansion, Leaf, Prover, expand, leaf_zone};

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
/// `d` stones (the attacker to move when `or`).
///
/// The proof skipped attacker moves outside a sibling's relevance zone (see
/// [`super::search`]), so the walk plays the real game against a *base* position of the
/// proof: the real position has the base's defender stones and perhaps more, and the
/// base's attacker stones except some (the attacker may still play there) plus some
/// outside the base's zone. The base is disproved with that zone, so the real position is
/// too, and the base's strategy gives the reply: a move the proof searched follows its
/// refutation; a skipped move gets the reply of the sibling whose zone it lies outside
/// (its stone becomes one more extra); a move on a cell the base already holds, or outside
/// the base's zone, gets a free defender stone. Every step checks its zone condition;
/// where the table cannot answer (forgotten entries), the real position is proved on
/// demand and becomes the base.
pub fn extract(
    prover: &mut Prover,
    grid: &Grid,
    a: u64,
    d: u64,
    or: bool,
) -> Result<Strategy, String> {
    let mut walk = Walk { prover, grid, strategy: Strategy::new(), seen: HashSet::new() };
    if or {
        walk.attacker_to_move((a, d), (a, d))?;
    } else {
        walk.defender_to_move((a, d), None)?;
    }
    Ok(walk.strategy)
}

/// A position: attacker stones, defender stones.
type Stones = (u64, u64);

struct Walk<'a> {
    prover: &'a mut Prover,
    grid: &'a Grid,
    strategy: Strategy,
    seen: HashSet<Stones>,
}

impl Walk<'_> {
    /// The real position `x` and its base `t`, the attacker to move in both.
    fn attacker_to_move(&mut self, x: Stones, t: Stones) -> Result<(), String> {
        if !self.seen.insert(x) {
            return Ok(());
        }
        match expand(self.grid, x.0, x.1, true, &mut Vec::new()) {
            Expansion::Proved => return Err("the attacker wins here".into()),
            Expansion::Disproved(Leaf::Pairing(pairs)) => {
                self.strategy.insert(x, Record::Pairing(pairs));
                return Ok(());
            }
            Expansion::Disproved(Leaf::Full) => return Ok(()),
            _ => {}
        }
        if let Some(pairs) = self.inherited_pairing(x, t) {
            self.strategy.insert(x, Record::Pairing(pairs));
            return Ok(());
        }
        let empty = self.grid.all() & !(x.0 | x.1);
        for m in cells(empty) {
            let after = (x.0 | 1 << m, x.1);
            if self.strategy.contains_key(&after) {
                continue;
            }
            self.defender_to_move(after, Some((t, m)))?;
        }
        Ok(())
    }

    /// The real position `x`, the defender to move after the attacker's move `m` from the
    /// base `t` (`None`: `x` is its own base).
    fn defender_to_move(&mut self, x: Stones, from: Option<(Stones, u8)>) -> Result<(), String> {
        match expand(self.grid, x.0, x.1, false, &mut Vec::new()) {
            Expansion::Proved => return Err("the attacker wins here".into()),
            Expansion::Disproved(Leaf::DefenderFive(Some(cell))) => {
                self.strategy.insert(x, Record::Reply(cell));
                return Ok(());
            }
            Expansion::Disproved(Leaf::Pairing(pairs)) => {
                self.strategy.insert(x, Record::Pairing(pairs));
                return Ok(());
            }
            Expansion::Disproved(_) => return Ok(()),
            Expansion::Moves(_) => {}
        }
        let step = match self.table_reply(x) {
            Some(r) => Some((r, (x.0, x.1 | 1 << r))),
            None => from.and_then(|(t, m)| self.follow(x, t, m)),
        };
        let (reply, base) = match step {
            Some(step) => step,
            None => {
                // Proved here on demand: the real position becomes the base.
                let reply = self.refutation(x)?;
                (reply, (x.0, x.1 | 1 << reply))
            }
        };
        let reply = if x.1 & 1 << reply != 0 {
            // The base's reply is already the defender's here: a free move.
            match self.free_cell(x, base) {
                Some(cell) => cell,
                None => return Ok(()),
            }
        } else {
            reply
        };
        self.strategy.insert(x, Record::Reply(reply));
        self.attacker_to_move((x.0, x.1 | 1 << reply), base)
    }

    /// The base's answer to the attacker's move `m` (the real position after it is `x`):
    /// the reply and the next base, if the table gives one whose zone condition holds.
    fn follow(&mut self, x: Stones, t: Stones, m: u8) -> Option<(u8, Stones)> {
        let bit = 1u64 << m;
        if t.0 & bit != 0 {
            // The attacker took a cell the base already gives it: the base stands.
            return Some((self.free_cell(x, t)?, t));
        }
        // The move the proof searched, then a sibling whose zone leaves it out.
        let searched = std::iter::once(m);
        let siblings = cells(self.grid.all() & !(t.0 | t.1 | bit));
        for mj in searched.chain(siblings) {
            let Some((_, reply)) = self.prover.disproof(t.0 | 1 << mj, t.1) else { continue };
            let Some(r) = reply else { continue };
            let q = (t.0 | 1 << mj, t.1 | 1 << r);
            if x.0 & 1 << r != 0 {
                continue;
            }
            if let Some(zone) = self.zone(q) {
                let extras = x.0 & !q.0;
                if extras & zone == 0 {
                    return Some((r, q));
                }
            }
        }
        // Outside the base's own zone: the attacker's stone is one more extra.
        let zone = self.zone(t)?;
        (x.0 & !t.0 & zone == 0).then(|| self.free_cell(x, t).map(|c| (c, t)))?
    }

    /// A disproved OR position's zone: its static one when it is a leaf, else the table's.
    fn zone(&self, t: Stones) -> Option<u64> {
        match expand(self.grid, t.0, t.1, true, &mut Vec::new()) {
            Expansion::Disproved(leaf) => Some(leaf_zone(self.grid, t.0, t.1, true, &leaf)),
            Expansion::Proved => None,
            Expansion::Moves(_) => self.prover.disproof(t.0, t.1).map(|(zone, _)| zone),
        }
    }

    /// The base's pairing, where the base is held by one, kept to the pairs still empty in
    /// the real position, if they hold every line open there.
    fn inherited_pairing(&self, x: Stones, t: Stones) -> Option<Vec<(u8, u8)>> {
        if x == t {
            return None;
        }
        let Expansion::Disproved(Leaf::Pairing(pairs)) =
            expand(self.grid, t.0, t.1, true, &mut Vec::new())
        else {
            return None;
        };
        let empty = self.grid.all() & !(x.0 | x.1);
        let kept: Vec<(u8, u8)> = pairs
            .into_iter()
            .filter(|&(p, q)| empty & (1 << p | 1 << q) == 1 << p | 1 << q)
            .collect();
        let holds = self
            .grid
            .lines()
            .iter()
            .filter(|&&l| l & x.1 == 0)
            .all(|&l| kept.iter().any(|&(p, q)| l & (1 << p) != 0 && l & (1 << q) != 0));
        holds.then_some(kept)
    }

    /// A cell for a free defender move in `x`: one empty in the base too, else any.
    fn free_cell(&self, x: Stones, t: Stones) -> Option<u8> {
        let empty = self.grid.all() & !(x.0 | x.1);
        let fresh = empty & !(t.0 | t.1);
        cells(if fresh != 0 { fresh } else { empty }).next()
    }

    /// A reply in `x` whose position the table (or a static verdict) holds as disproved.
    fn table_reply(&self, x: Stones) -> Option<u8> {
        let disproved = |r: u8| {
            self.prover.numbers_or_static(x.0, x.1 | 1 << r, true).answer() == Answer::Disproved
        };
        if let Some((_, Some(r))) = self.prover.disproof(x.0, x.1)
            && disproved(r)
        {
            return Some(r);
        }
        cells(self.grid.all() & !(x.0 | x.1)).find(|&r| disproved(r))
    }

    /// The defender's refuting move in `x`, proved here if the table does not hold one.
    /// (Called once [`Walk::table_reply`] found none.)
    fn refutation(&mut self, x: Stones) -> Result<u8, String> {
        let Expansion::Moves(moves) = expand(self.grid, x.0, x.1, false, &mut Vec::new()) else {
            return Err("an unexpected leaf at a defender's node".into());
        };
        self.prover
            .settling_move(x.0, x.1, false, &moves, Answer::Disproved)
            .ok_or_else(|| "no refuting move at a defender's node".into())
    }
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
