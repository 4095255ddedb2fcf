//! Depth-first proof-number search (df-pn) over the AND/OR tree of one question: can the
//! attacker force a five? OR nodes have the attacker to move (one winning move proves
//! them), AND nodes the defender (one refuting move disproves them).
//!
//! The moves searched are reduced without changing the answer:
//! * a five ends the game, a four must be blocked (or the node is decided at once);
//! * a pairing strategy for the defender ([`super::tactics::find_pairing`]) disproves a
//!   node with no search;
//! * at an AND node where the attacker, given a free move, wins by continuous fours, the
//!   defender's only moves are those in that win's relevance zone and those making a four
//!   of its own ([`super::tactics::vcf`]);
//! * a stone on a cell no open line passes through changes nothing (a pass): the defender
//!   never plays one, and the attacker's are left to the certificate (a pass never helps
//!   the side that makes it, so the defender's answer is any move);
//! * at an OR node, an attacker move outside the relevance zone of a refuted sibling is
//!   refuted by that sibling's reply: each disproof is stored with the empty cells its
//!   strategy relies on (`leaf_zone`, `covering_zone`, closed by
//!   [`super::tactics::close_zone`]), and attacker stones added outside them leave it
//!   standing (the argument is in `docs/proving.md`);
//! * symmetric positions share one table entry.
//!
//! The table maps each position, up to symmetry, to its proof and disproof numbers; a
//! proved node has pn = 0, a disproved one dn = 0. Stones only accumulate, so the tree
//! has no cycles.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::grid::{Grid, cells};
use super::tactics::{
    close_zone, find_pairing_from, five_cells, four_making_cells, has_five, useful_cells, vcf,
};
use crate::limits::{Limits, Stop};

/// A proof or disproof number too large to matter: a node with dn = INF is proved.
pub const INF: u32 = u32::MAX;
/// The most a sum of finite numbers counts for.
const LARGE: u32 = INF - 1;

/// Node expansions between progress reports.
const REPORT_EVERY: u64 = 1 << 16;
/// Steps a pairing search may take at one node.
const PAIRING_BUDGET: u32 = 50;
/// Steps a continuous-four search may take at one node.
const VCF_BUDGET: u32 = 200;

/// Proof and disproof numbers of one position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Numbers {
    /// How many more leaves must be proved to prove the node (0: proved).
    pub pn: u32,
    /// How many more leaves must be disproved to disprove it (0: disproved).
    pub dn: u32,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
    const PROVED: Numbers = Numbers { pn: 0, dn: INF };
    const DISPROVED: Numbers = Numbers { pn: INF, dn: 0 };

    /// What the numbers say of the question.
    pub fn answer(self) -> Answer {
        match (self.pn, self.dn) {
            (0, _) => Answer::Proved,
            (_, 0) => Answer::Disproved,
            _ => Answer::Unknown,
        }
    }
}

/// A node's numbers from its children's, and which child to search next.
struct Combined {
    /// The node's numbers: at an OR node the least pn and the sum of the dn, at an AND node
    /// the reverse.
    numbers: Numbers,
    /// The child with the least minimised number (the first of equals).
    best: usize,
    /// The second least minimised number.
    second: u32,
}

fn combine(or: bool, children: impl Iterator<Item = Numbers>) -> Combined {
    let (mut best, mut least, mut second) = (0, INF, INF);
    let mut sum: u64 = 0;
    let mut any_inf = false;
    for (i, n) in children.enumerate() {
        let (minimised, summed) = if or { (n.pn, n.dn) } else { (n.dn, n.pn) };
        if minimised < least {
            second = least;
            (best, least) = (i, minimised);
        } else if minimised < second {
            second = minimised;
        }
        any_inf |= summed == INF;
        sum += u64::from(summed);
    }
    let sum = if any_inf { INF } else { sum.min(u64::from(LARGE)) as u32 };
    let numbers = if or { Numbers { pn: least, dn: sum } } else { Numbers { pn: sum, dn: least } };
    Combined { numbers, best, second }
}

/// The position after move `m`: the attacker's at an OR node, the defender's at an AND node.
pub fn child(a: u64, d: u64, or: bool, m: u8) -> (u64, u64) {
    if or { (a | 1 << m, d) } else { (a, d | 1 << m) }
}

/// A table entry: the numbers, the node expansions spent below the position (what the
/// table keeps first when it must forget), and for a disproved position its relevance zone
/// and, where the defender moves, its refuting reply. Zone and reply are stored in the
/// key's orientation (the symmetry [`Grid::canonical`] picks).
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// Proof and disproof numbers.
    pub numbers: Numbers,
    /// Node expansions spent below the position.
    pub work: u32,
    /// Disproved: the empty cells the disproof relies on (see [`Prover`]); any attacker
    /// stones added outside them leave the position disproved.
    pub zone: u64,
    /// Disproved with the defender to move: the reply that refutes it ([`NO_REPLY`] if
    /// none is stored).
    pub reply: u8,
}

/// The reply of an entry that has none.
pub const NO_REPLY: u8 = u8::MAX;

/// How a disproof is stored: its zone and reply, in the position's own orientation.
#[derive(Copy, Clone, Debug)]
struct Disproof {
    zone: u64,
    reply: u8,
}

impl Disproof {
    const NONE: Disproof = Disproof { zone: 0, reply: NO_REPLY };
}

/// The answer to the question at the root.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Answer {
    /// The attacker can force a five.
    Proved,
    /// It cannot.
    Disproved,
    /// The search stopped first.
    Unknown,
}

/// Why a node needs no search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Leaf {
    /// The attacker wins.
    Win,
    /// The defender completes a five at this cell (or, at an OR node, has two fours).
    DefenderFive(Option<u8>),
    /// The defender holds every open line with this pairing.
    Pairing(Vec<(u8, u8)>),
    /// No cell is left (or none that matters and no open line).
    Full,
}

/// A node's static verdict or its moves, in the order to try them.
pub enum Expansion {
    /// Proved without search.
    Proved,
    /// Disproved without search, and why.
    Disproved(Leaf),
    /// The moves to search.
    Moves(arrayvec::ArrayVec<u8, 64>),
}

/// How many positions a prover's table may hold in `bytes` of memory. The hash map's
/// buckets come in powers of two (each a key, an entry and a control byte) and are filled to
/// seven eighths before the map doubles, so the count stops just short of the fill of the
/// largest power of two that fits: the table never doubles past the budget (while it
/// doubles below it, old and new buckets live together for a moment: up to 1.5 times the
/// budget). See [`Prover::set_max_positions`].
pub fn positions_in(bytes: usize) -> usize {
    let slot = std::mem::size_of::<(u128, Entry)>() + 1;
    let buckets = (bytes / slot).max(16);
    let power = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
    power / 8 * 7 - 1
}

/// A snapshot of a proof in progress.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Node expansions so far.
    pub nodes: u64,
    /// Positions in the table.
    pub positions: usize,
    /// The root's numbers.
    pub root: Numbers,
    /// The root's moves, and how many of them are proved and disproved.
    pub root_moves: usize,
    /// Root moves proved (winning for the attacker).
    pub root_proved: usize,
    /// Root moves disproved.
    pub root_disproved: usize,
    /// The line being searched, from the root.
    pub line: Vec<u8>,
    /// Time since the proof started.
    pub elapsed: Duration,
}

/// One df-pn proof: the question "can `attacker` force a five from this position?".
pub struct Prover {
    grid: Grid,
    table: HashMap<u128, Entry, ahash::RandomState>,
    max_positions: usize,
    nodes: u64,
    limits: Limits,
    /// What stops the current run: the limits' deadline and flag.
    stop: Stop,
    start: Instant,
    stopped: bool,
    run_start_nodes: u64,
    hint: Vec<(u8, u8)>,
    /// For each stone count, the defender's move that last refuted a node (tried first).
    killers: [u8; 64],
    line: Vec<u8>,
    root: (u64, u64, bool),
}

impl Prover {
    /// A prover for the position with `attacker` and `defender` stones, the attacker to move
    /// when `attacker_to_move`.
    pub fn new(grid: &Grid, attacker: u64, defender: u64, attacker_to_move: bool) -> Self {
        Prover {
            grid: grid.clone(),
            table: HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4)),
            max_positions: usize::MAX,
            nodes: 0,
            limits: Limits::default(),
            stop: Stop::default(),
            start: Instant::now(),
            stopped: false,
            run_start_nodes: 0,
            hint: Vec::new(),
            killers: [u8::MAX; 64],
            line: Vec::new(),
            root: (attacker, defender, attacker_to_move),
        }
    }

    /// Stops each later [`Prover::run`] at these limits: their nodes counted from the run's
    /// start, their deadline and their flag (the proof can go on later, or from
    /// [`Prover::entries`]).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Node expansions so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Counts node expansions done before a restart.
    pub fn add_nodes(&mut self, nodes: u64) {
        self.nodes += nodes;
    }

    /// Positions in the table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// Keeps at most this many positions in the table, forgetting those with the least work
    /// below them when it is full.
    pub fn set_max_positions(&mut self, max: usize) {
        self.max_positions = max.max(1024);
    }

    /// Every table entry (symmetry-canonical key, entry), to save a proof in progress.
    pub fn entries(&self) -> impl Iterator<Item = (u128, Entry)> + '_ {
        self.table.iter().map(|(&k, &e)| (k, e))
    }

    /// Puts saved entries back (see [`Prover::entries`]).
    pub fn restore(&mut self, entries: impl IntoIterator<Item = (u128, Entry)>) {
        self.table.extend(entries);
    }

    /// Forgets the positions with the least work below them until the table is at most
    /// three quarters full. Decided positions with no work (static leaves) go first, as
    /// they are found again with one expansion.
    fn collect_garbage(&mut self) {
        let target = self.max_positions / 4 * 3;
        let mut threshold = 0;
        while self.table.len() > target {
            self.table.retain(|_, e| e.work > threshold);
            threshold = threshold * 2 + 1;
        }
    }

    /// Runs the proof until it is decided or its limits stop it, calling `progress` now
    /// and then.
    pub fn run(&mut self, progress: &mut dyn FnMut(&Progress)) -> Answer {
        self.start = Instant::now();
        self.stop = self.limits.stop();
        self.stopped = false;
        self.run_start_nodes = self.nodes;
        let (a, d, or) = self.root;
        self.mid(a, d, or, INF, INF, progress);
        self.numbers(a, d).answer()
    }

    /// The stored numbers of a position (unknown: 1, 1).
    pub fn numbers(&self, attacker: u64, defender: u64) -> Numbers {
        self.lookup(&self.grid.canonical(attacker, defender).0)
    }

    /// A disproved position's relevance zone and stored reply (`None` for a cell when none
    /// is stored), in the position's own orientation; `None` if the table does not hold
    /// the position as disproved.
    pub fn disproof(&self, attacker: u64, defender: u64) -> Option<(u64, Option<u8>)> {
        let (key, sym) = self.grid.canonical(attacker, defender);
        let e = self.table.get(&key).filter(|e| e.numbers.dn == 0)?;
        Some((self.own_zone(e, sym), self.own_reply(e, sym)))
    }

    fn own_zone(&self, e: &Entry, sym: u8) -> u64 {
        self.grid.untransform(sym, e.zone)
    }

    fn own_reply(&self, e: &Entry, sym: u8) -> Option<u8> {
        (e.reply != NO_REPLY).then(|| self.grid.inverse_cell(sym, e.reply))
    }

    /// The first of `moves` from the node (a, d) whose child has the `wanted` answer: one
    /// the table or a static verdict already settles, else one proved here on demand.
    pub fn settling_move(
        &mut self,
        a: u64,
        d: u64,
        or: bool,
        moves: &[u8],
        wanted: Answer,
    ) -> Option<u8> {
        let settles = |n: Numbers| n.answer() == wanted;
        if let Some(&m) = moves.iter().find(|&&m| {
            let (ca, cd) = child(a, d, or, m);
            settles(self.numbers_or_static(ca, cd, !or))
        }) {
            return Some(m);
        }
        moves.iter().copied().find(|&m| {
            let (ca, cd) = child(a, d, or, m);
            self.settle(ca, cd, !or) == wanted
        })
    }

    fn lookup(&self, key: &u128) -> Numbers {
        self.table.get(key).map_or(Numbers::UNKNOWN, |e| e.numbers)
    }

    /// The numbers of a position, its static verdict when it has one.
    pub fn numbers_or_static(&self, attacker: u64, defender: u64, or: bool) -> Numbers {
        let stored = self.numbers(attacker, defender);
        if stored.pn == 0 || stored.dn == 0 {
            return stored;
        }
        match expand(&self.grid, attacker, defender, or, &mut Vec::new()) {
            Expansion::Proved => Numbers::PROVED,
            Expansion::Disproved(_) => Numbers::DISPROVED,
            Expansion::Moves(_) => stored,
        }
    }

    /// Proves or disproves one position (used when writing a certificate).
    pub fn settle(&mut self, attacker: u64, defender: u64, or: bool) -> Answer {
        self.stopped = false;
        self.limits = Limits::default();
        self.stop = Stop::default();
        self.mid(attacker, defender, or, INF, INF, &mut |_| {});
        self.numbers_or_static(attacker, defender, or).answer()
    }

    fn store(&mut self, attacker: u64, defender: u64, numbers: Numbers, work: u64, why: Disproof) {
        let (key, sym) = self.grid.canonical(attacker, defender);
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let zone = self.grid.transform(sym, why.zone);
        let reply =
            if why.reply == NO_REPLY { NO_REPLY } else { self.grid.transform_cell(sym, why.reply) };
        let entry =
            self.table.entry(key).or_insert(Entry { numbers, work: 0, zone, reply: NO_REPLY });
        entry.numbers = numbers;
        entry.zone = zone;
        entry.reply = reply;
        entry.work = entry.work.saturating_add(work);
        if self.table.len() > self.max_positions {
            self.collect_garbage();
        }
    }

    fn out_of_limits(&mut self) -> bool {
        if self.limits.nodes.is_some_and(|nodes| self.nodes - self.run_start_nodes >= nodes) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(1024) {
            self.stopped |= self.stop.is_due();
        }
        self.stopped
    }

    /// The multiple-iterative-deepening step of df-pn: searches below the node until its
    /// numbers reach a threshold.
    fn mid(
        &mut self,
        a: u64,
        d: u64,
        or: bool,
        th_pn: u32,
        th_dn: u32,
        progress: &mut dyn FnMut(&Progress),
    ) {
        let mut here = self.numbers(a, d);
        if here.pn >= th_pn || here.dn >= th_dn || self.stopped {
            return;
        }
        let mut moves = match expand(&self.grid, a, d, or, &mut self.hint) {
            Expansion::Proved => return self.store(a, d, Numbers::PROVED, 0, Disproof::NONE),
            Expansion::Disproved(leaf) => {
                let zone = leaf_zone(&self.grid, a, d, or, &leaf);
                let why = Disproof { zone, reply: NO_REPLY };
                return self.store(a, d, Numbers::DISPROVED, 0, why);
            }
            Expansion::Moves(moves) => moves,
        };
        let ply = (a | d).count_ones() as usize;
        if !or && let Some(i) = moves.iter().position(|&m| m == self.killers[ply]) {
            moves[..=i].rotate_right(1);
        }
        let nodes_before = self.nodes;
        self.nodes += 1;
        if self.nodes.is_multiple_of(REPORT_EVERY) {
            self.report(progress);
        }
        let images = self.grid.images(a, d);
        let keys: arrayvec::ArrayVec<(u128, u8), 64> =
            moves.iter().map(|&m| self.grid.canonical_after(&images, m, or)).collect();
        let mut zones = [None; 64];
        let mut children = arrayvec::ArrayVec::<Numbers, 64>::new();
        loop {
            self.child_numbers(or, &moves, &keys, &mut zones, &mut children);
            let Combined { numbers, best, second } = combine(or, children.iter().copied());
            here = numbers;
            if !or && here.dn == 0 {
                self.killers[ply] = moves[best];
            }
            if here.pn >= th_pn || here.dn >= th_dn || self.stopped {
                break;
            }
            if self.out_of_limits() {
                break;
            }
            let m = moves[best];
            let (ca, cd) = child(a, d, or, m);
            let chosen = children[best];
            // 1 + ε: let the best child run until it is a quarter worse than the second.
            let widen = |x: u32| x.saturating_add(x / 4).saturating_add(1);
            let (c_pn, c_dn) = if or {
                let c_dn = th_dn.saturating_sub(here.dn).saturating_add(chosen.dn).min(LARGE);
                (th_pn.min(widen(second)), c_dn)
            } else {
                let c_pn = th_pn.saturating_sub(here.pn).saturating_add(chosen.pn).min(LARGE);
                (c_pn, th_dn.min(widen(second)))
            };
            self.line.push(m);
            self.mid(ca, cd, !or, c_pn, c_dn, progress);
            self.line.pop();
        }
        let why = if here.dn != 0 {
            Disproof::NONE
        } else if or {
            let forced = five_cells(&self.grid, d, a);
            let zone = covering_zone(&moves, &zones, &children) | forced;
            Disproof { zone: close_zone(&self.grid, a, d, zone, 2), reply: NO_REPLY }
        } else {
            let best = children.iter().position(|n| n.dn == 0).expect("a refuting child");
            let zone = zones[best].expect("a refuted child's zone") | 1 << moves[best];
            Disproof { zone: close_zone(&self.grid, a, d, zone, 1), reply: moves[best] }
        };
        self.store(a, d, here, self.nodes - nodes_before, why);
    }

    /// The children's numbers from the table, with each disproved child's zone kept in
    /// `zones`. At an OR node, a child the table does not settle counts as disproved when
    /// its move lies outside a disproved sibling's zone: that sibling's refutation (its
    /// reply, then its strategy) refutes it too, the move being a free stone outside the
    /// cells the strategy relies on.
    fn child_numbers(
        &self,
        or: bool,
        moves: &[u8],
        keys: &[(u128, u8)],
        zones: &mut [Option<u64>; 64],
        children: &mut arrayvec::ArrayVec<Numbers, 64>,
    ) {
        children.clear();
        let mut common = u64::MAX;
        for (i, (key, sym)) in keys.iter().enumerate() {
            let numbers = match self.table.get(key) {
                Some(e) => {
                    if e.numbers.dn == 0 && zones[i].is_none() {
                        zones[i] = Some(self.own_zone(e, *sym));
                    }
                    e.numbers
                }
                None => Numbers::UNKNOWN,
            };
            if numbers.dn == 0 {
                common &= zones[i].unwrap_or(0);
            }
            children.push(numbers);
        }
        if or && common != u64::MAX {
            for (n, &m) in children.iter_mut().zip(moves) {
                if n.dn != 0 && common & 1 << m == 0 {
                    *n = Numbers::DISPROVED;
                }
            }
        }
    }

    fn report(&mut self, progress: &mut dyn FnMut(&Progress)) {
        let (a, d, or) = self.root;
        let mut snapshot = Progress {
            nodes: self.nodes,
            positions: self.table.len(),
            root: self.numbers(a, d),
            root_moves: 0,
            root_proved: 0,
            root_disproved: 0,
            line: self.line.clone(),
            elapsed: self.start.elapsed(),
        };
        if let Expansion::Moves(moves) = expand(&self.grid, a, d, or, &mut Vec::new()) {
            let keys: Vec<(u128, u8)> = moves
                .iter()
                .map(|&m| {
                    let (ca, cd) = child(a, d, or, m);
                    self.grid.canonical(ca, cd)
                })
                .collect();
            let mut children = arrayvec::ArrayVec::new();
            self.child_numbers(or, &moves, &keys, &mut [None; 64], &mut children);
            snapshot.root_moves = moves.len();
            snapshot.root_proved = children.iter().filter(|n| n.pn == 0).count();
            snapshot.root_disproved = children.iter().filter(|n| n.dn == 0).count();
            snapshot.root = combine(or, children.into_iter()).numbers;
        }
        progress(&snapshot);
    }
}

/// The zone of an OR node whose children are all disproved: the union of the zones of
/// disproved children chosen so that every move is one of them or lies outside one of
/// their zones (smallest zones first, a child taken only when it covers a move not yet
/// covered).
fn covering_zone(moves: &[u8], zones: &[Option<u64>; 64], children: &[Numbers]) -> u64 {
    let mut order: arrayvec::ArrayVec<(u32, usize), 64> = (0..moves.len())
        .filter_map(|i| zones[i].filter(|_| children[i].dn == 0).map(|z| (z.count_ones(), i)))
        .collect();
    order.sort_unstable();
    let mut uncovered = moves.iter().fold(0u64, |m, &c| m | 1 << c);
    let mut zone = 0;
    for (_, i) in order {
        let z = zones[i].expect("a zone");
        let covers = (uncovered & !z) | (uncovered & 1 << moves[i]);
        if covers != 0 {
            zone |= z;
            uncovered &= z & !(1 << moves[i]);
        }
        if uncovered == 0 {
            break;
        }
    }
    debug_assert_eq!(uncovered, 0, "every move of a disproved OR node is covered");
    zone
}

/// The zone of a position disproved without search: a pairing's cells, the defender's
/// winning cells; grown so that no free attacker stones outside it complete a line (the
/// defender to move) or make a four (the attacker to move).
pub fn leaf_zone(grid: &Grid, a: u64, d: u64, or: bool, leaf: &Leaf) -> u64 {
    let zone = match leaf {
        Leaf::Win | Leaf::Full => return 0,
        Leaf::DefenderFive(Some(cell)) => 1 << cell,
        Leaf::DefenderFive(None) if has_five(grid, d) => return 0,
        Leaf::DefenderFive(None) => five_cells(grid, d, a),
        Leaf::Pairing(pairs) => pairs.iter().fold(0, |m, &(p, q)| m | 1 << p | 1 << q),
    };
    close_zone(grid, a, d, zone, if or { 2 } else { 1 })
}

/// Reads a node: its static verdict, or the moves to search, best first.
pub fn expand(grid: &Grid, a: u64, d: u64, or: bool, hint: &mut Vec<(u8, u8)>) -> Expansion {
    let empty = grid.all() & !(a | d);
    let (mover, waiter) = if or { (a, d) } else { (d, a) };
    // A five on the board (only when asked about a move that made one).
    if has_five(grid, waiter) {
        return if or { Expansion::Disproved(Leaf::DefenderFive(None)) } else { Expansion::Proved };
    }
    // The side to move completes a five.
    let wins = five_cells(grid, mover, waiter);
    if wins != 0 {
        return if or {
            Expansion::Proved
        } else {
            Expansion::Disproved(Leaf::DefenderFive(Some(wins.trailing_zeros() as u8)))
        };
    }
    // The side waiting has a five to complete: two of them win, one must be blocked.
    let threats = five_cells(grid, waiter, mover);
    if threats.count_ones() > 1 {
        return if or { Expansion::Disproved(Leaf::DefenderFive(None)) } else { Expansion::Proved };
    }
    if empty == 0 {
        return Expansion::Disproved(Leaf::Full);
    }
    if let Some(pairs) = find_pairing_from(grid, a, d, PAIRING_BUDGET, hint) {
        hint.clone_from(&pairs);
        return Expansion::Disproved(Leaf::Pairing(pairs));
    }
    let mut moves = arrayvec::ArrayVec::new();
    if threats != 0 {
        moves.push(threats.trailing_zeros() as u8);
        return Expansion::Moves(moves);
    }
    let useful = useful_cells(grid, a, d);
    let mut candidates = useful;
    if !or && let Some(zone) = vcf(grid, a, d, VCF_BUDGET) {
        // The attacker wins by fours if the defender passes: only a move in the zone or a
        // four of the defender's can stop it.
        candidates &= zone | four_making_cells(grid, d, a);
        if candidates == 0 {
            return Expansion::Proved;
        }
    }
    // Order: the cells on the most lines still open to the attacker first.
    let open_for_attacker: u64 =
        grid.lines().iter().filter(|&&l| l & d == 0).fold(0, |m, &l| m | l);
    let mut scored: arrayvec::ArrayVec<(u32, u8), 64> = cells(candidates)
        .map(|c| {
            let score = grid
                .lines_through(c)
                .iter()
                .map(|&i| grid.lines()[i as usize])
                .map(|l| {
                    let mine = if l & d == 0 { 1 + (l & a).count_ones() } else { 0 };
                    let theirs = if l & a == 0 { 1 + (l & d).count_ones() } else { 0 };
                    mine * mine + theirs * theirs
                })
                .sum::<u32>();
            (score + u32::from(open_for_attacker & (1 << c) != 0), c)
        })
        .collect();
    scored.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    moves.extend(scored.into_iter().map(|(_, c)| c));
    Expansion::Moves(moves)
}
