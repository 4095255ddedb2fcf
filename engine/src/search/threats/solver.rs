//! The threat-sequence solver: VCF (victory by continuous fours) and VCT (victory by
//! continuous threats: fours and open threes), searched over the line patterns the board
//! keeps (see [`ThreatSearch`]).

use std::time::Instant;

use super::hints::Hints;
use super::knowledge::{
    FIVE_VALUE, WINNING_FOUR_VALUE, attack_cells, defences_against_three, five_blocks,
    last_move_wins_possible, plain_last_fours, threat_value,
};
use super::table::{THREAT_TABLE_BITS, ThreatEntry, ThreatTable, VCF_SALT};
use crate::board::Board;
use crate::geometry::Cell;
use crate::limits::{Limits, Stop};
use crate::outcome::Outcome;
use crate::pattern::keys::PatternState;
use crate::search::keyed::{pack, unpack_cell, unpack_key};
use crate::storage::Storage;

/// A list of attacking moves with their threat values.
/// (Each packed into one integer as in the move picker, see [`pack`]: the sort compares
/// plain integers.)
pub(super) type AttackList = arrayvec::ArrayVec<i64, 512>;

/// Fills `moves` with the side to move's attacking moves near its stones, strongest first
/// (ties by cell): every cell where it makes a four and, with `threes`, an open three.
/// `None` without patterns. (An out-parameter: the 4 KiB list is built in the caller's
/// frame instead of being copied out at every threat-search node.)
fn attacking_moves<B: Storage>(
    board: &Board<B>,
    threes: bool,
    moves: &mut AttackList,
) -> Option<()> {
    let me = board.side_to_move();
    let lines = board.patterns();
    sorted_by_value(attack_cells(board, me, threes)?, moves, |cell| {
        Some(threat_value(&lines.cell_patterns(cell, me)?))
    })
}

/// Fills `list` with `cells`, each [`pack`]ed with its `value`, highest value first (ties by
/// cell); `None` if a value is.
fn sorted_by_value<B: Storage>(
    cells: B,
    list: &mut AttackList,
    value: impl Fn(Cell) -> Option<i64>,
) -> Option<()> {
    for cell in cells.iter() {
        list.push(pack(value(cell)?, cell));
    }
    list.sort_unstable_by(|a, b| b.cmp(a));
    Some(())
}

/// Fills `list` with `defences` (cells for the side to move, the defender), the most
/// promising first: by the defender's [`threat_value`] counted twice plus the attacker's (ties
/// by cell). One refuting defence spares all the others, and the defences that build the
/// defender's own threats while taking the attacker's best cells refute most often.
/// (Measured on the tactics set: 34.6 M solver nodes in cell order, 11.4 M in this one; the
/// attacker's value alone, or counted twice, gives 26–27 M.) `None` without patterns.
pub(super) fn defences_in_order<B: Storage>(
    board: &Board<B>,
    defences: B,
    list: &mut AttackList,
) -> Option<()> {
    if defences.count() == 1 {
        // A forced block (every defence in a VCF): nothing to order.
        list.extend(defences.iter().map(|cell| pack(0, cell)));
        return Some(());
    }
    let defender = board.side_to_move();
    let lines = board.patterns();
    sorted_by_value(defences, list, |cell| {
        Some(
            2 * threat_value(&lines.cell_patterns(cell, defender)?)
                + threat_value(&lines.cell_patterns(cell, defender.opponent())?),
        )
    })
}

/// A forced win a threat search found: plies to the five (the attacking moves, the
/// defences and the five itself), and the first attacking move. (Four bytes: the solver's
/// recursion returns it in a register.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Win {
    /// Plies from the position solved to the five, which is the last.
    pub(crate) plies: u16,
    /// The first move of the sequence.
    pub(crate) first: Cell,
}

/// Which threats the attacker may make.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Threats {
    /// Fours only (VCF: victory by continuous fours; every reply is forced).
    Fours,
    /// Fours and open threes (VCT: victory by continuous threats).
    FoursAndThrees,
}

/// The threat-sequence solver: can the side to move win by a sequence of threats, each of
/// which the defender must answer? A four forces its one block; an open three must be met by
/// a defence — every cell where the attacker could make a four, and every four of the
/// defender's own. A counter-four is blocked (the block's only alternative is losing) and the
/// defender then faces whatever threat still stands, or the block's own; two counter-fours,
/// or a block that threatens nothing while no threat stands, refute. Every defence is tried,
/// so a win it reports is a real forced win; it may miss wins. With [`Threats::Fours`] it is
/// a VCF.
///
/// A VCT deepens iteratively (one attacking move more per pass, so the shortest sequence
/// within reach is found first and a long first try cannot eat the whole budget), and every
/// solve remembers its completed results in a small table of its own (see [`ThreatTable`]):
/// the same stones reached in another order are not searched again.
pub(crate) struct ThreatSearch {
    /// Nodes visited (attacking moves and defences), for the search's accounting.
    pub(crate) nodes: u64,
    pub(super) budget_end: u64,
    /// The search's stop flag, and the deadline of the current solve.
    pub(super) stop: Stop,
    pub(super) threes: bool,
    /// Whether moves that provably lead nowhere are skipped: the last attacking move is
    /// restricted to those that can still win, the defences before it are not played when
    /// none can, and a forced block that leaves the attacker nothing is not played (always,
    /// except in the test that checks these change no result).
    pub(super) prune: bool,
    pub(super) table: ThreatTable,
    /// Hints from a won solve for solves of positions like it (see [`Hints`]), and the
    /// hash difference from the position being solved to the one they were learned in
    /// (`None`: the solve is not guided).
    pub(super) hints: Option<Hints>,
    pub(super) hint_delta: Option<u64>,
}

/// How often (in nodes) a solve reads the clock and the stop flag.
const THREAT_CHECK_INTERVAL: u64 = 1024;

impl ThreatSearch {
    /// A solver for a job within `limits`: it gives up as soon as their flag is raised
    /// (each solve has its own node budget and deadline within the job's).
    pub(crate) fn new(limits: &Limits) -> ThreatSearch {
        ThreatSearch {
            nodes: 0,
            budget_end: 0,
            stop: Stop { deadline: None, flag: limits.stop.clone() },
            threes: false,
            prune: true,
            table: ThreatTable { entries: Vec::new() },
            hints: None,
            hint_delta: None,
        }
    }

    /// A forced win of the side to move by `threats`, at most `max_threats` attacking moves
    /// deep, within `nodes` and, if given, until `deadline`; `None` if none is found (or the
    /// board keeps no patterns). The board is restored.
    pub(crate) fn solve<B: Storage>(
        &mut self,
        board: &mut Board<B>,
        threats: Threats,
        max_threats: u32,
        nodes: u64,
        deadline: Option<Instant>,
    ) -> Option<Win> {
        if self.table.entries.is_empty() {
            self.table.entries = vec![ThreatEntry::default(); 1 << THREAT_TABLE_BITS];
        }
        self.budget_end = self.nodes + nodes;
        self.stop.deadline = deadline;
        self.threes = threats == Threats::FoursAndThrees;
        // The threat search never evaluates: its moves skip the evaluation sums.
        let sums = board.keep_code_sums(false);
        let win = self.deepen(board, max_threats);
        board.keep_code_sums(sums);
        win
    }

    /// Whether the last solve was cut short — its nodes spent, its deadline passed or the
    /// search stopped — rather than searching every sequence it could.
    pub(crate) fn cut_short(&self) -> bool {
        self.nodes >= self.budget_end
    }

    /// Keeps the wins in the table as [`Hints`] for [`ThreatSearch::solve_guided`]: call it
    /// right after a solve that found a win in `plies` plies, whose proof's positions are then
    /// in the table (but for a few that its later nodes overwrote: the table always
    /// replaces).
    pub(crate) fn learn_hints(&mut self, plies: usize) {
        self.hints = Some(Hints::learn(&self.table, plies));
    }

    /// Drops the hints kept by [`ThreatSearch::learn_hints`].
    pub(crate) fn forget_hints(&mut self) {
        self.hints = None;
    }

    /// [`ThreatSearch::solve`], guided by the hints kept (if any) when given `delta`: the
    /// position being solved, and every one reached from it, has the hash of the
    /// corresponding position of the hints' solve xor `delta`.
    pub(crate) fn solve_guided<B: Storage>(
        &mut self,
        board: &mut Board<B>,
        threats: Threats,
        max_threats: u32,
        nodes: u64,
        deadline: Option<Instant>,
        delta: Option<u64>,
    ) -> Option<Win> {
        self.hint_delta = delta.filter(|_| self.hints.is_some());
        let win = self.solve(board, threats, max_threats, nodes, deadline);
        self.hint_delta = None;
        win
    }

    /// The winning move the hints know for the position with table key `key`, if the solve
    /// is guided.
    fn hinted_move(&self, key: u64) -> Option<u16> {
        let (hints, delta) = (self.hints.as_ref()?, self.hint_delta?);
        hints.first(key ^ delta)
    }

    /// [`ThreatSearch::solve`] once set up: VCF in one pass, VCT by iterative deepening
    /// (from the hints' depth when guided).
    fn deepen<B: Storage>(&mut self, board: &mut Board<B>, max_threats: u32) -> Option<Win> {
        if !self.threes {
            return self.attack(board, max_threats);
        }
        let start = match (&self.hints, self.hint_delta) {
            (Some(hints), Some(_)) => hints.depth.min(max_threats),
            _ => 1,
        };
        for depth in start..=max_threats {
            let win = self.attack(board, depth);
            if win.is_some() || self.nodes >= self.budget_end {
                return win;
            }
        }
        None
    }

    /// See [`crate::prefetch`]: the table slot a leaf VCF of the position with Zobrist hash
    /// `hash` probes first starts loading now (nothing before the first solve).
    pub(crate) fn prefetch_leaf(&self, hash: u64) {
        self.table.prefetch(hash ^ VCF_SALT);
    }

    /// The line of a win a solve just found (`win`, in the position `board` holds), for people
    /// to read: the attacking moves, each answered by the defence that holds out longest,
    /// to the five. Each step is solved again, with `nodes` each, mostly from the table the
    /// solve just filled; the line stops where a step finds no win within that (or at
    /// `max_len` plies). An open or double four is answered by a block of one of its fives.
    /// The board is restored, and the nodes are not counted.
    pub(crate) fn principal_line<B: Storage>(
        &mut self,
        board: &mut Board<B>,
        threats: Threats,
        max_threats: u32,
        win: Win,
        nodes: u64,
        max_len: usize,
    ) -> Vec<Cell> {
        let counted = self.nodes;
        let mut line = Vec::new();
        let mut next = Some(win.first);
        while line.len() < max_len {
            // The attacker's move.
            let attack = match next.take() {
                Some(cell) => cell,
                None => match self.solve(board, threats, max_threats, nodes, None) {
                    Some(win) => win.first,
                    None => break,
                },
            };
            if !board.empty_cells().contains(attack) {
                break;
            }
            line.push(attack);
            if board.play_unchecked(attack) != Outcome::Ongoing || line.len() >= max_len {
                break;
            }
            // The defence the attacker needs longest to beat.
            let Some(defence) = self.longest_defence(board, threats, max_threats, nodes) else {
                break;
            };
            line.push(defence);
            if board.play_unchecked(defence) != Outcome::Ongoing {
                break;
            }
        }
        for _ in 0..line.len() {
            board.undo_unchecked();
        }
        self.nodes = counted;
        line
    }

    /// The defender to move after an attacking move: its defence after which the attacker's
    /// win is longest (see [`ThreatSearch::principal_line`]); a block of one five when two
    /// stand; `None` if there is no threat to answer or no defence the solver beats.
    fn longest_defence<B: Storage>(
        &mut self,
        board: &mut Board<B>,
        threats: Threats,
        max_threats: u32,
        nodes: u64,
    ) -> Option<Cell> {
        let attacker = board.side_to_move().opponent();
        let fives = board.winning_cells(attacker);
        let defences = match fives.count() {
            0 => defences_against_three(board, board.empty_cells())?,
            _ => match five_blocks(board, attacker, fives) {
                blocks if blocks.is_empty() => return board.without_forbidden(fives).lowest(),
                blocks => blocks,
            },
        };
        let mut longest: Option<(u16, Cell)> = None;
        for cell in board.without_forbidden(defences).iter() {
            let win = match board.play_unchecked(cell) {
                Outcome::Ongoing => self.solve(board, threats, max_threats, nodes, None),
                _ => None,
            };
            board.undo_unchecked();
            match win {
                Some(win) if longest.is_none_or(|(plies, _)| win.plies > plies) => {
                    longest = Some((win.plies, cell));
                }
                Some(_) => {}
                // A defence the solver does not beat within its nodes: the line stops.
                None => return None,
            }
        }
        longest.map(|(_, cell)| cell)
    }

    /// The table key of a position with Zobrist hash `hash` (VCF and VCT results apart).
    fn table_key(&self, hash: u64) -> u64 {
        hash ^ if self.threes { 0 } else { VCF_SALT }
    }

    /// Whether the solve must give up: its nodes are spent, its time is up or the search
    /// was stopped (then sticky until the next solve).
    #[inline]
    fn exhausted(&mut self) -> bool {
        if self.nodes >= self.budget_end {
            return true;
        }
        if self.nodes.is_multiple_of(THREAT_CHECK_INTERVAL) && self.stop.is_due() {
            self.budget_end = self.nodes;
            return true;
        }
        false
    }

    fn attack<B: Storage>(&mut self, board: &mut Board<B>, depth: u32) -> Option<Win> {
        let me = board.side_to_move();
        if let Some(five) = board.winning_cells(me).lowest() {
            return Some(Win { plies: 1, first: five });
        }
        if depth == 0 {
            return None;
        }
        // No threat to make and no counter-four to block: nothing starts here. Asking and
        // filling the table (a random memory access, mostly at the main search's leaves)
        // would cost more than knowing it.
        // (Without patterns, `attacking_moves` decides.)
        let no_attack = attack_cells(board, me, self.threes).is_some_and(B::is_empty);
        if no_attack && board.winning_cells(me.opponent()).is_empty() {
            return None;
        }
        let key = self.table_key(board.hash());
        if let Some(entry) = self.table.probe(key) {
            if entry.win {
                let first = Cell::from_index(entry.first);
                return Some(Win { plies: u16::from(entry.plies), first });
            }
            if u32::from(entry.depth) >= depth {
                return None;
            }
        }
        let result = self.attack_moves(board, depth);
        if self.nodes < self.budget_end {
            self.table.store(ThreatEntry {
                key,
                win: result.is_some(),
                depth: depth.min(u32::from(u8::MAX)) as u8,
                plies: result.map_or(0, |win| win.plies.min(u16::from(u8::MAX)) as u8),
                first: result.map_or(0, |win| win.first.index() as u16),
            });
        }
        result
    }

    /// [`ThreatSearch::attack`] past the immediate win and the table: the attacking moves.
    fn attack_moves<B: Storage>(&mut self, board: &mut Board<B>, depth: u32) -> Option<Win> {
        let me = board.side_to_move();
        // A defender's four (a counter-threat) must be blocked first; the sequence goes on
        // only if the block is itself a threat or an earlier threat still stands.
        let counter = board.winning_cells(me.opponent());
        let mut moves = AttackList::new();
        match counter.lowest() {
            None => {
                attacking_moves(board, self.threes, &mut moves)?;
                // The hints' winning move first, the others in their order.
                if let Some(hinted) = self.hinted_move(self.table_key(board.hash()))
                    && let Some(i) = moves
                        .iter()
                        .position(|&packed| unpack_cell(packed).index() == usize::from(hinted))
                {
                    moves[..=i].rotate_right(1);
                }
                if depth == 1 && self.prune {
                    // The last attacking move must leave two fives at once (an open or a
                    // double four): a three or a plain four is answered and no threat is
                    // left to follow — unless its block is forbidden (`plain_last_fours`).
                    let fours = plain_last_fours(board, me)?;
                    moves.retain(|&mut packed| {
                        let (value, cell) = (unpack_key(packed), unpack_cell(packed));
                        value >= WINNING_FOUR_VALUE || fours.contains(cell)
                    });
                }
            }
            // Every stone that stops the counter-fives (see `five_blocks`): none if there
            // are two (but under caro).
            Some(_) => {
                let blocks = five_blocks(board, me.opponent(), counter);
                if blocks.is_empty() {
                    return None;
                }
                moves.extend(blocks.iter().map(|cell| pack(0, cell)));
            }
        }
        for (value, cell) in moves.iter().map(|&packed| (unpack_key(packed), unpack_cell(packed))) {
            if self.exhausted() {
                return None;
            }
            self.nodes += 1;
            if board.restricted_to_move() && !board.forbidden_among(B::from_cell(cell)).is_empty() {
                continue;
            }
            // An open four or a double four while the defender has no four standing (no five
            // of its own to make): it cannot stop both fives. Known from the patterns, so the
            // move is not played; `refute_all` would answer 2 plies at once.
            if counter.is_empty() && (WINNING_FOUR_VALUE..FIVE_VALUE).contains(&value) {
                debug_assert!(Self::leaves_two_fives(board, cell), "{cell:?} in {board:?}");
                return Some(Win { plies: 3, first: cell });
            }
            let result = match board.play_unchecked(cell) {
                Outcome::Win(_) => Some(1),
                Outcome::Draw => None,
                Outcome::Ongoing => self.refute_all(board, depth).map(|plies| plies + 1),
            };
            board.undo_unchecked();
            if let Some(plies) = result {
                return Some(Win { plies: plies as u16, first: cell });
            }
        }
        None
    }

    /// Whether playing `cell` leaves the side to move two fives to make and the opponent
    /// none (the checker of the winning-four shortcut in [`ThreatSearch::attack_moves`]).
    fn leaves_two_fives<B: Storage>(board: &mut Board<B>, cell: Cell) -> bool {
        let me = board.side_to_move();
        let ongoing = board.play_unchecked(cell) == Outcome::Ongoing;
        let wins = ongoing
            && board.winning_cells(me).count() >= 2
            && board.winning_cells(me.opponent()).is_empty();
        board.undo_unchecked();
        wins
    }

    /// The defender to move after a threat: `Some(plies)` (counted from the defender's move)
    /// if every defence loses.
    fn refute_all<B: Storage>(&mut self, board: &mut Board<B>, depth: u32) -> Option<usize> {
        let defender = board.side_to_move();
        let attacker = defender.opponent();
        if !board.winning_cells(defender).is_empty() {
            return None;
        }
        let fives = board.winning_cells(attacker);
        let defences = match fives.count() {
            // No four: only an open three can still be a threat (never in a VCF).
            0 if !self.threes => return None,
            // A three: its blocks and the defender's own fours. No open-four point at all:
            // not a threat.
            0 => defences_against_three(board, board.empty_cells())?,
            // Fives: the stones that stop them all (see `five_blocks`), if any.
            _ => match five_blocks(board, attacker, fives) {
                blocks if blocks.is_empty() => return Some(2),
                blocks => blocks,
            },
        };
        let defences = board.without_forbidden(defences);
        if self.prune && defences == fives && fives.count() == 1 {
            // The block is forced. If the attacker has no attacking cell but the blocked one,
            // the sequence ends: a defender's stone takes attacking cells away and never adds
            // any, so the attacker's next turn has nothing to start from (see `attack`); and
            // if the block makes a four of the defender's, the attacker's forced answer is
            // not an attacking cell either (or it would be one now), so no five and no
            // open-four point follows it. Not played.
            if (attack_cells(board, attacker, self.threes)? - fives).is_empty() {
                return None;
            }
        }
        if self.prune && depth == 2 && !defences.is_empty() {
            // The attacker's next move is its last, and only a winning four wins then (see
            // `attack_moves`; a block of a counter-four too only if it is one). A defender's
            // stone never makes one, so without one now no defence needs to be played. (Within
            // a solve a position is always reached with the same depth left, so nothing is
            // lost; only a longer win stored by an earlier, deeper solve can be missed.)
            if !last_move_wins_possible(board, attacker, fives)? {
                return None;
            }
        }
        let mut ordered = AttackList::new();
        defences_in_order(board, defences, &mut ordered)?;
        let mut longest = 0;
        for cell in ordered.iter().map(|&packed| unpack_cell(packed)) {
            if self.exhausted() {
                return None;
            }
            self.nodes += 1;
            // The attacker's turn after this defence starts with a table probe.
            self.table.prefetch(self.table_key(board.hash_after(cell)));
            let result = match board.play_unchecked(cell) {
                Outcome::Ongoing => self.attack(board, depth - 1).map(|win| usize::from(win.plies)),
                _ => None,
            };
            board.undo_unchecked();
            longest = longest.max(result? + 1);
        }
        // No legal defence at all (renju black on forbidden points): the attacker wins.
        Some(longest.max(2))
    }
}
