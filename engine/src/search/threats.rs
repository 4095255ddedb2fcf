//! Threat knowledge from line patterns (15×15): how strong a move is for each side, which
//! moves defend against an open three, the VCF solver (victory by continuous fours) and the
//! VCT solver (victory by continuous threats: fours and open threes).
//!
//! All of it reads the patterns the board keeps incrementally; on boards without patterns
//! (3×3, 5×5) the functions answer "nothing known" and the search relies on full width.

use crate::bitboard::Bitboard;
use crate::board::{Board, Color, Outcome};
use crate::geometry::Cell;
use crate::pattern::Pattern;
use crate::pattern::keys::{LineState, PATTERN_POTENTIAL, ThreatKind};

/// Threat class scores of a cell for one side (see [`threat_value`]).
pub const FIVE_VALUE: i64 = 1 << 30;
/// An open four, a one-line double four or two fours: the opponent cannot stop five.
pub const WINNING_FOUR_VALUE: i64 = 1 << 24;
/// A four together with an open three.
pub const FOUR_THREE_VALUE: i64 = 1 << 20;
/// Two open threes.
pub const DOUBLE_THREE_VALUE: i64 = 1 << 16;

/// How strong a stone of one side on a cell is, from its four line patterns: fives, winning
/// fours, four-threes and double threes dominate; otherwise the summed pattern potential.
pub fn threat_value(patterns: &[Pattern; 4]) -> i64 {
    let fours: u32 = patterns.iter().map(|p| p.four_count()).sum();
    let threes = patterns.iter().filter(|&&p| p == Pattern::F3).count();
    let base: i64 = patterns.iter().map(|&p| i64::from(PATTERN_POTENTIAL[p as usize])).sum();
    if patterns.contains(&Pattern::Five) {
        FIVE_VALUE
    } else if fours >= 2 || patterns.contains(&Pattern::F4) {
        WINNING_FOUR_VALUE + base
    } else if fours == 1 && threes >= 1 {
        FOUR_THREE_VALUE + base
    } else if threes >= 2 {
        DOUBLE_THREE_VALUE + base
    } else {
        base
    }
}

/// If the opponent of the side to move threatens to make an open four (it has an open
/// three), the moves worth searching: every cell where the opponent could make a four (which
/// covers the blocks of the three) and every cell where the side to move makes a four of its
/// own. `None` when there is no such threat or the board keeps no patterns.
pub fn defences_against_three<B: Bitboard>(board: &Board<B>, candidates: B) -> Option<B> {
    let me = board.side_to_move();
    let them = me.opponent();
    let lines = board.lines();
    let threatened = !(lines.threat_cells(them, ThreatKind::OpenFour)? & candidates).is_empty();
    let fours =
        lines.threat_cells(them, ThreatKind::Four)? | lines.threat_cells(me, ThreatKind::Four)?;
    threatened.then_some(fours & candidates)
}

/// A list of attacking moves with their threat values.
type AttackList = arrayvec::ArrayVec<(i64, Cell), 256>;

/// Fills `moves` with the side to move's attacking moves near its stones, strongest first
/// (ties by cell): every cell where it makes a four and, with `threes`, an open three.
/// `None` without patterns. (An out-parameter: the 4 KiB list is built in the caller's
/// frame instead of being copied out at every threat-search node.)
fn attacking_moves<B: Bitboard>(
    board: &Board<B>,
    threes: bool,
    moves: &mut AttackList,
) -> Option<()> {
    let me = board.side_to_move();
    let lines = board.lines();
    let mut cells = lines.threat_cells(me, ThreatKind::Four)?;
    if threes {
        cells |= lines.threat_cells(me, ThreatKind::Three)?;
    }
    for cell in (cells & board.empty_cells()).iter() {
        moves.push((threat_value(&lines.cell_patterns(cell, me)?), cell));
    }
    moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    Some(())
}

/// The VCF solver: can the side to move win by a sequence of fours, each forcing the reply?
pub(crate) struct Vcf {
    /// Nodes visited (attacker moves tried), for the search's accounting.
    pub(crate) nodes: u64,
    limit: u64,
}

impl Vcf {
    /// A solver allowed `limit` nodes per call of [`Vcf::solve`].
    pub(crate) fn new(limit: u64) -> Vcf {
        Vcf { nodes: 0, limit }
    }

    /// Sets the node allowance of later calls.
    pub(crate) fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    /// Plies to a forced win of the side to move by continuous fours, searching at most
    /// `max_fours` attacking moves deep; `None` if none is found (or the board keeps no
    /// patterns). The board is restored. `first` receives the first attacking move.
    pub(crate) fn solve<B: Bitboard>(
        &mut self,
        board: &mut Board<B>,
        max_fours: u32,
        first: &mut Option<Cell>,
    ) -> Option<usize> {
        let budget_end = self.nodes + self.limit;
        self.attack(board, max_fours, budget_end, first)
    }

    fn attack<B: Bitboard>(
        &mut self,
        board: &mut Board<B>,
        depth: u32,
        budget_end: u64,
        first: &mut Option<Cell>,
    ) -> Option<usize> {
        let me = board.side_to_move();
        if let Some(win) = board.winning_cells(me).lowest() {
            *first = Some(win);
            return Some(1);
        }
        // A defender's four must be answered: no longer a pure VCF.
        if depth == 0 || !board.winning_cells(me.opponent()).is_empty() {
            return None;
        }
        let mut moves = AttackList::new();
        attacking_moves(board, false, &mut moves)?;
        for &(_, cell) in &moves {
            if self.nodes >= budget_end {
                return None;
            }
            self.nodes += 1;
            if board.renju_black_to_move() && !board.forbidden_among(B::from_cell(cell)).is_empty()
            {
                continue;
            }
            let outcome = board.play_unchecked(cell);
            let result = match outcome {
                Outcome::Win(_) => Some(1),
                Outcome::Draw => None,
                Outcome::Ongoing => self.defend(board, depth, budget_end, me),
            };
            board.undo_unchecked();
            if let Some(plies) = result {
                *first = Some(cell);
                return Some(plies);
            }
        }
        None
    }

    /// After the attacker's four: the defender's forced block, then the attack goes on.
    /// Returns plies to the win counted from the attacker's four.
    fn defend<B: Bitboard>(
        &mut self,
        board: &mut Board<B>,
        depth: u32,
        budget_end: u64,
        attacker: Color,
    ) -> Option<usize> {
        let defender = attacker.opponent();
        // The defender wins first if it has a five of its own.
        if !board.winning_cells(defender).is_empty() {
            return None;
        }
        let threats = board.winning_cells(attacker);
        match threats.count() {
            0 => None,
            1 => {
                let block = threats.lowest().expect("one threat");
                if board.renju_black_to_move() && !board.forbidden_among(threats).is_empty() {
                    // Black cannot block on a forbidden point: white wins.
                    return Some(3);
                }
                if board.play_unchecked(block).is_decided() {
                    board.undo_unchecked();
                    return None;
                }
                let mut ignored = None;
                let rest = self.attack(board, depth - 1, budget_end, &mut ignored);
                board.undo_unchecked();
                rest.map(|plies| plies + 2)
            }
            // Two fives threatened: one block cannot stop both.
            _ => Some(3),
        }
    }
}

/// The VCT solver: can the side to move win by a sequence of threats (fours, which force
/// one reply, and open threes, which must be answered by a defence)? It is sound: every
/// defence of a three is tried, including the defender's own fours (a counter-four counts
/// as a refutation), so a win it reports is a real forced win; it may miss wins.
pub(crate) struct Vct {
    /// Nodes visited.
    pub(crate) nodes: u64,
    budget_end: u64,
}

impl Vct {
    pub(crate) fn new() -> Vct {
        Vct { nodes: 0, budget_end: 0 }
    }

    /// Plies to a forced win of the side to move by continuous threats, at most `max_threats`
    /// attacking moves deep and `limit` nodes; `first` receives the first attacking move.
    pub(crate) fn solve<B: Bitboard>(
        &mut self,
        board: &mut Board<B>,
        max_threats: u32,
        limit: u64,
        first: &mut Option<Cell>,
    ) -> Option<usize> {
        self.budget_end = self.nodes + limit;
        self.attack(board, max_threats, first)
    }

    fn attack<B: Bitboard>(
        &mut self,
        board: &mut Board<B>,
        depth: u32,
        first: &mut Option<Cell>,
    ) -> Option<usize> {
        let me = board.side_to_move();
        if let Some(win) = board.winning_cells(me).lowest() {
            *first = Some(win);
            return Some(1);
        }
        if depth == 0 || !board.winning_cells(me.opponent()).is_empty() {
            return None;
        }
        let mut moves = AttackList::new();
        attacking_moves(board, true, &mut moves)?;
        for &(_, cell) in &moves {
            if self.nodes >= self.budget_end {
                return None;
            }
            self.nodes += 1;
            if board.renju_black_to_move() && !board.forbidden_among(B::from_cell(cell)).is_empty()
            {
                continue;
            }
            let result = match board.play_unchecked(cell) {
                Outcome::Win(_) => Some(1),
                Outcome::Draw => None,
                Outcome::Ongoing => self.refute_all(board, depth).map(|plies| plies + 1),
            };
            board.undo_unchecked();
            if let Some(plies) = result {
                *first = Some(cell);
                return Some(plies);
            }
        }
        None
    }

    /// The defender to move after a threat: `Some(plies)` (counted from the defender's move)
    /// if every defence loses.
    fn refute_all<B: Bitboard>(&mut self, board: &mut Board<B>, depth: u32) -> Option<usize> {
        let defender = board.side_to_move();
        let attacker = defender.opponent();
        if !board.winning_cells(defender).is_empty() {
            return None;
        }
        let fives = board.winning_cells(attacker);
        let defences = match fives.count() {
            0 => {
                // A three: every cell where the attacker could make a four, and every four of
                // the defender's own. No open-four threat at all: not a threat.
                let lines = board.lines();
                let empty = board.empty_cells();
                if (lines.threat_cells(attacker, ThreatKind::OpenFour)? & empty).is_empty() {
                    return None;
                }
                (lines.threat_cells(attacker, ThreatKind::Four)?
                    | lines.threat_cells(defender, ThreatKind::Four)?)
                    & empty
            }
            1 => fives,
            _ => return Some(2),
        };
        let defences = if board.renju_black_to_move() {
            defences.without(board.forbidden_among(defences))
        } else {
            defences
        };
        let mut longest = 0;
        for cell in defences.iter() {
            if self.nodes >= self.budget_end {
                return None;
            }
            self.nodes += 1;
            let result = match board.play_unchecked(cell) {
                Outcome::Ongoing => {
                    let mut ignored = None;
                    self.attack(board, depth - 1, &mut ignored)
                }
                _ => None,
            };
            board.undo_unchecked();
            longest = longest.max(result? + 1);
        }
        // No legal defence at all (renju black on forbidden points): the attacker wins.
        Some(longest.max(2))
    }
}
