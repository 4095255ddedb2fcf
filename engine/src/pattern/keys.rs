//! Incremental line keys: for every cell and direction, a key of the five cells on each side
//! (see [`super::table`] for the layout), updated by make and unmake.
//!
//! The keys are compact (see [`super::table`]): placing a stone on `p` adds its code times a
//! weight to the keys of the up to ten cells that see `p` within five steps in each
//! direction — forty additions, found in a precomputed list of "seers" per cell — and looks
//! up the new pattern pairs of the empty ones (occupied cells' pairs are never read; see
//! `LineKeys::update`). Off-board cells are walls, part of each key's starting value. Each
//! placement records the pattern pairs it changed and the sums before it; removing the stone
//! (always the last one placed) subtracts its code again and puts those records back, with
//! no table lookup.
//!
//! The state is an associated type of the storage class ([`crate::storage::Storage::Patterns`]):
//! the gomoku boards (the 256- and 512-bit types) keep [`LineKeys`], with tables made for their
//! size ([`KeyTables`]); the small boards, whose lines span the board and need no
//! patterns, keep [`NoPatterns`], which costs nothing.

use std::sync::OnceLock;

use super::Pattern;
use super::code::{self, CodeValues, unpack_sum};
use super::pair::{KINDS, ThreatKind, pair_kinds};
use super::pair::{PatternPair, pair_pattern};
use super::table::{CODE_BLACK, CODE_WHITE, HALF, PatternTable, empty_compact_key, stone_weight};
use crate::bitboard::{Bitboard, Bits256, Bits512};
use crate::color::Color;
use crate::geometry::{Cell, Direction, Geometry};
use crate::rules::Rule;

/// Per-board incremental pattern state, maintained by [`crate::board::Board`].
pub trait PatternState<B: Bitboard>: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The state of an empty board of `geometry` under `rule`.
    fn new(rule: Rule, geometry: Geometry) -> Self;
    /// A stone of `color` was placed on `cell`.
    fn place(&mut self, cell: Cell, color: Color);
    /// The stone on `cell`, the last one placed and not yet removed, was removed.
    fn remove(&mut self, cell: Cell);
    /// Whether the state equals the one recomputed from the stones (the checker).
    fn matches(&self, rule: Rule, geometry: Geometry, black: B, white: B) -> bool;
    /// The four patterns (one per direction) a stone of `color` would make on the empty
    /// `cell`, if this board keeps patterns.
    fn cell_patterns(&self, cell: Cell, color: Color) -> Option<[Pattern; 4]>;
    /// Sums the values of `values` from now on (see [`CodeValues`]): rebuilds the state of
    /// the board of `geometry` under `rule` with them, placing `stones` again (the board's
    /// stones in the order they were played). Nothing changes if the state sums these values
    /// already or is not maintained.
    fn sum_code_values(
        &mut self,
        rule: Rule,
        geometry: Geometry,
        values: &'static CodeValues,
        stones: impl Iterator<Item = (Cell, Color)>,
    );
    /// The table whose values the state sums, if it sums any.
    fn code_values(&self) -> Option<&'static CodeValues>;
    /// The two sums over the empty cells of the values of `color`'s pattern codes (values 0
    /// and 1 of [`CodeValues`]), if the state sums values (see
    /// [`PatternState::sum_code_values`]).
    fn code_sums(&self, color: Color) -> Option<[i32; 2]>;
    /// [`PatternState::code_sums`] on the empty board of this size.
    fn empty_board_code_sums(&self, color: Color) -> Option<[i32; 2]>;
    /// The empty cells where a stone of `color` would make a pattern of `kind` in some
    /// direction, if this board keeps patterns — together with occupied cells that mean
    /// nothing (callers intersect with the empty cells).
    fn threat_cells(&self, color: Color, kind: ThreatKind) -> Option<B>;
    /// The cells within a key's reach (five steps, the cell included) of each of the empty
    /// `cells`, along every direction in which a stone of `color` there would make a
    /// pattern of `kind` (for example an open four or a one-line double four): the only
    /// cells where a stone can change those patterns. `None` if this board keeps no
    /// patterns.
    fn threat_reach(&self, color: Color, kind: ThreatKind, cells: B) -> Option<B>;

    /// Stops maintaining the state (for counting, such as perft, where no pattern is
    /// needed); queries then answer `None` and callers use their generic paths.
    fn deactivate(&mut self) {}

    /// Whether the state keeps the line patterns (the gomoku boards, unless deactivated).
    fn keeps_patterns(&self) -> bool {
        false
    }

    /// Whether the stones placed from now on update the code sums ([`PatternState::code_sums`]);
    /// returns the setting before. A search that never evaluates (the threat search) turns
    /// them off for cheaper placements. The sums are those of the board only while every
    /// stone on it was placed with them on, so a caller turns them back on after removing
    /// the stones it placed.
    fn keep_sums(&mut self, _on: bool) -> bool {
        true
    }

    /// [`PatternState::threat_cells`] for fives.
    #[inline(always)]
    fn five_cells(&self, color: Color) -> Option<B> {
        self.threat_cells(color, ThreatKind::Five)
    }
}

/// No pattern state (boards whose lines span the board).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct NoPatterns;

impl<B: Bitboard> PatternState<B> for NoPatterns {
    #[inline(always)]
    fn new(_: Rule, _: Geometry) -> Self {
        NoPatterns
    }
    #[inline(always)]
    fn place(&mut self, _: Cell, _: Color) {}
    #[inline(always)]
    fn remove(&mut self, _: Cell) {}
    fn matches(&self, _: Rule, _: Geometry, _: B, _: B) -> bool {
        true
    }
    #[inline(always)]
    fn cell_patterns(&self, _: Cell, _: Color) -> Option<[Pattern; 4]> {
        None
    }
    fn sum_code_values(
        &mut self,
        _: Rule,
        _: Geometry,
        _: &'static CodeValues,
        _: impl Iterator<Item = (Cell, Color)>,
    ) {
    }
    fn code_values(&self) -> Option<&'static CodeValues> {
        None
    }
    #[inline(always)]
    fn code_sums(&self, _: Color) -> Option<[i32; 2]> {
        None
    }
    fn empty_board_code_sums(&self, _: Color) -> Option<[i32; 2]> {
        None
    }
    #[inline(always)]
    fn threat_cells(&self, _: Color, _: ThreatKind) -> Option<B> {
        None
    }
    #[inline(always)]
    fn threat_reach(&self, _: Color, _: ThreatKind, _: B) -> Option<B> {
        None
    }
}

/// "No neighbour" in the neighbour table.
const NONE: u16 = u16::MAX;

/// For each cell, direction and line index `i` (0..11, 5 = the cell): the cell at that
/// position of the line, or `NONE` off the board.
struct Neighbours {
    cells: Vec<[[u16; 2 * HALF + 1]; 4]>,
}

/// The flat index of `cell`'s key along direction `dir`: `cell · 4 + dir`.
#[inline(always)]
fn key_slot(cell: Cell, dir: usize) -> usize {
    cell.index() * 4 + dir
}

/// A flat key index stored as `u16`, as an index into the `SLOTS` cells' keys (masked: the
/// compiler then needs no bounds check).
#[inline(always)]
fn slot_index<const SLOTS: usize>(slot: u16) -> usize {
    usize::from(slot) & (4 * SLOTS - 1)
}

/// One (cell, direction) key that sees a cell, by its flat index (see [`key_slot`]), and
/// what a stone there adds to it per unit of its code (at most 3⁴ · 364 = 29,484: two
/// bytes, so a seer is four and the lists of all cells take 40 KiB rather than 80).
#[derive(Copy, Clone, Debug, Default)]
struct Seer {
    slot: u16,
    weight: u16,
}

/// For each cell, the keys that see it: the neighbour table inverted and flattened, so make
/// and unmake walk a dense list with no off-board checks.
struct Seers {
    /// `list[cell][..len[cell]]`.
    list: Vec<[Seer; 4 * 2 * HALF]>,
    len: Vec<u8>,
}

impl Seers {
    /// The keys that see `cell`.
    #[inline(always)]
    fn of(&self, cell: Cell) -> &[Seer] {
        &self.list[cell.index()][..usize::from(self.len[cell.index()])]
    }
}

/// What line keys need to know of one board size, generated from its geometry: the
/// neighbour table, the seers, each key's reach and the keys of the empty board (off-board
/// cells are walls).
pub struct KeyTables<B> {
    neighbours: Neighbours,
    seers: Seers,
    /// For each key slot (cell · 4 + direction), the cells of that key's line: the cell and
    /// up to five on each side.
    line_reach: Vec<B>,
    /// The keys of the empty board, by cell.
    empty_keys: Vec<[u32; 4]>,
}

/// A bitboard type whose boards keep line keys: where the key tables of each of its sizes
/// are kept.
pub trait KeyedBitboard: Bitboard {
    /// The key tables of `geometry` (a board of this type), built on first use and kept
    /// for the run.
    fn key_tables(geometry: Geometry) -> &'static KeyTables<Self>;
}

/// Keeps the key tables of every width and height of a type, each built on first use.
macro_rules! key_tables_of {
    ($type:ty, $sides:expr) => {
        impl KeyedBitboard for $type {
            fn key_tables(geometry: Geometry) -> &'static KeyTables<$type> {
                static TABLES: [[OnceLock<KeyTables<$type>>; $sides]; $sides] =
                    [const { [const { OnceLock::new() }; $sides] }; $sides];
                TABLES[geometry.width()][geometry.height()].get_or_init(|| KeyTables::new(geometry))
            }
        }
    };
}

key_tables_of!(Bits256, 16);
key_tables_of!(Bits512, 23);

impl<B: Bitboard> KeyTables<B> {
    fn new(g: Geometry) -> KeyTables<B> {
        debug_assert_eq!(g.within(B::GEOMETRY), Some(g));
        let slots = B::STORAGE_BITS as usize;
        let neighbours = Neighbours::new(g, slots);
        let mut list = vec![[Seer::default(); 4 * 2 * HALF]; slots];
        let mut len = vec![0u8; slots];
        let mut line_reach = vec![B::EMPTY; 4 * slots];
        let mut empty_keys = vec![[0u32; 4]; slots];
        for cell in g.all_cells() {
            let c = cell.index();
            for (d, line) in neighbours.cells[c].iter().enumerate() {
                for (i, &seer) in line.iter().enumerate() {
                    if i == HALF || seer == NONE {
                        continue;
                    }
                    // `cell` is at line index 10 − i of `seer`'s line in this direction: on
                    // its left side if i > 5.
                    let weight = u16::try_from(stone_weight(i > HALF, i.abs_diff(HALF)))
                        .expect("a stone weight fits two bytes");
                    let slot = key_slot(Cell::from_index(seer), d) as u16;
                    list[c][usize::from(len[c])] = Seer { slot, weight };
                    len[c] += 1;
                }
                line_reach[key_slot(cell, d)] = line
                    .iter()
                    .filter(|&&c| c != NONE)
                    .fold(B::EMPTY, |set, &c| set.with(Cell::from_index(c)));
                let walls_left = line[..HALF].iter().filter(|&&c| c == NONE).count();
                let walls_right = line[HALF + 1..].iter().filter(|&&c| c == NONE).count();
                empty_keys[c][d] = empty_compact_key(walls_left, walls_right);
            }
        }
        KeyTables { neighbours, seers: Seers { list, len }, line_reach, empty_keys }
    }
}

impl Neighbours {
    fn new(g: Geometry, slots: usize) -> Neighbours {
        let mut cells = vec![[[NONE; 2 * HALF + 1]; 4]; slots];
        for cell in g.all_cells() {
            let (x, y) = g.xy(cell);
            for (d, dir) in Direction::ALL.into_iter().enumerate() {
                let (dx, dy) = dir.delta();
                for (i, slot) in cells[cell.index()][d].iter_mut().enumerate() {
                    let k = i as i32 - HALF as i32;
                    if let Some(c) = g.cell_i32(x as i32 + dx * k, y as i32 + dy * k) {
                        *slot = c.index() as u16;
                    }
                }
            }
        }
        Neighbours { cells }
    }
}

/// Toggles cell `row` in the threat-cell sets of the `flags` (bit `4 · colour + kind`).
#[inline(always)]
fn toggle_kinds<B: Bitboard>(kind_cells: &mut [[B; KINDS]; 2], row: usize, mut flags: u8) {
    while flags != 0 {
        let flag_index = flags.trailing_zeros() as usize;
        flags &= flags - 1;
        kind_cells[flag_index / 4][flag_index % 4].toggle(row);
    }
}

/// One pattern pair changed by a placement: where (flat key index), its value before, and
/// what the change did to its cell's other state — the threat-kind flags it toggled (see
/// [`LineKeys::track_kinds`]) and the XOR it applied to the cell's key (0 when the
/// placement summed no values) — so that removing the stone undoes them with no lookup.
/// A stone sees each cell along one line only, so a placement changes at most one pair per
/// cell and its changes can be undone in any order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Change {
    slot: u16,
    old: PatternPair,
    key_change: u32,
    toggled: u8,
}

impl Change {
    const NONE: Change = Change { slot: 0, old: 0, key_change: 0, toggled: 0 };
}

/// What undoing one placement needs: the stone's code, where its changes start, the sums
/// before it and whether it updated them (see [`PatternState::keep_sums`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Frame {
    code: u32,
    changes_start: u32,
    sums: i128,
    summed: bool,
}

/// The line keys of a board of type `B` (with `SLOTS` = its storage bits), with the
/// patterns they stand for and the sums of a [`CodeValues`] table, all kept up to date by
/// make and unmake.
#[derive(Clone)]
pub struct LineKeys<B: 'static, const SLOTS: usize> {
    /// `keys[cell][direction]`: compact keys (see [`super::table`]); the hot paths index
    /// them flattened (see [`key_slot`]).
    keys: Box<[[u32; 4]; SLOTS]>,
    /// `pairs[cell][direction]` = the table entry of the key (black's and white's pattern);
    /// for an occupied cell, the entry when its stone was placed (see [`LineKeys::update`]).
    pairs: Box<[[PatternPair; 4]; SLOTS]>,
    /// Per cell, its four pairs' patterns as nibbles, black's in the low 16 bits and
    /// white's in the high 16 (the key of its pattern codes, see [`super::code`]); for an
    /// occupied cell, the key when its stone was placed, as for `pairs`. Kept while values
    /// are summed.
    cell_keys: Box<[u32; SLOTS]>,
    /// Per cell, 1 if it is empty, else 0 (cells holding a stone get no new entries and do
    /// not count in the sums): one byte per cell, so make counts the empty seers with a
    /// load and an addition.
    vacant: Box<[u8; SLOTS]>,
    /// The table whose values are summed (see [`PatternState::sum_code_values`]), or the
    /// zeros ([`CodeValues::zeros`]) while none was handed over.
    values: &'static CodeValues,
    /// Whether a table was handed over.
    has_values: bool,
    /// Per colour and value, the sum over the empty cells of their pattern codes' values,
    /// packed at [`code::sum_shift`]: every term is at least 0, so each sum is exactly its
    /// 32-bit field. 0 while no values are summed.
    sums: i128,
    /// `sums` on the empty board.
    empty_sums: i128,
    /// Per colour and threat kind, the cells with any such direction (boxed: keeps the
    /// board itself small to move and clone).
    kind_cells: Box<[[B; KINDS]; 2]>,
    table: &'static PatternTable,
    /// The tables of the board's size.
    tables: &'static KeyTables<B>,
    /// Whether the state is maintained (see [`PatternState::deactivate`]).
    active: bool,
    /// Whether placements update `sums` and `cell_keys`: the [`PatternState::keep_sums`]
    /// setting, while there are values to sum.
    summing: bool,
    /// The [`PatternState::keep_sums`] setting.
    keep_sums: bool,
    /// The pattern pairs each placement changed, oldest first, so that removing a stone
    /// restores them instead of looking every key up again.
    changes: Vec<Change>,
    /// One frame per stone placed and not yet removed.
    frames: Vec<Frame>,
}

impl<B, const SLOTS: usize> std::fmt::Debug for LineKeys<B, SLOTS> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LineKeys")
    }
}

impl<B: KeyedBitboard, const SLOTS: usize> LineKeys<B, SLOTS> {
    /// The state of an empty board of `geometry` under `rule`, summing `values` if given.
    fn empty(rule: Rule, geometry: Geometry, values: Option<&'static CodeValues>) -> Self {
        let table = PatternTable::of(rule);
        debug_assert_eq!(SLOTS, B::STORAGE_BITS as usize, "a key per storage bit");
        let tables = B::key_tables(geometry);
        let keys: Box<[[u32; 4]; SLOTS]> =
            tables.empty_keys.clone().into_boxed_slice().try_into().expect("a key per slot");
        let mut pairs = Box::new([[0; 4]; SLOTS]);
        let mut cell_keys = Box::new([0; SLOTS]);
        let (has_values, values) = (values.is_some(), values.unwrap_or(CodeValues::zeros()));
        let mut sums = 0;
        for cell in geometry.all_cells() {
            let c = cell.index();
            for d in 0..4 {
                let pair = table.pair(keys[c][d]);
                pairs[c][d] = pair;
                cell_keys[c] ^= code::key_change(0, pair, d);
            }
            sums += values.of_key(cell_keys[c]);
        }
        LineKeys {
            keys,
            pairs,
            cell_keys,
            vacant: Box::new([1; SLOTS]),
            values,
            has_values,
            sums,
            empty_sums: sums,
            kind_cells: Box::new([[B::EMPTY; KINDS]; 2]),
            table,
            tables,
            active: true,
            summing: has_values,
            keep_sums: true,
            changes: Vec::with_capacity(64 * 4 * 2 * HALF),
            frames: Vec::with_capacity(64),
        }
    }

    /// The pattern a stone of `color` on the empty `cell` makes along direction `dir`.
    #[inline(always)]
    pub fn pattern(&self, cell: Cell, dir: usize, color: Color) -> Pattern {
        pair_pattern(self.pairs[cell.index()][dir], color)
    }

    /// The four patterns (one per direction) of `color` on `cell`.
    #[inline(always)]
    pub fn patterns(&self, cell: Cell, color: Color) -> [Pattern; 4] {
        self.pairs[cell.index()].map(|pair| pair_pattern(pair, color))
    }

    /// The cells where a stone of `color` would make a pattern of `kind` in some direction
    /// (occupied cells in the set mean nothing); for callers that know the state is
    /// maintained, such as renju's forbidden points.
    #[inline(always)]
    pub(crate) fn kind_cells(&self, color: Color, kind: ThreatKind) -> B {
        self.kind_cells[color.index()][kind as usize]
    }

    /// The entry at `slot` changes from `old` to `new`, with other threat kinds: toggles the
    /// cell in the threat-cell sets whose membership changes, and returns those sets' flags
    /// (bit `4 · colour + kind`). A cell is in a set if any of its four directions has the
    /// kind, so membership is the OR over the row; the other three directions are the same
    /// before and after. Called before the entry is written (the row is read whole: reading
    /// it right after a narrow store to it would stall).
    #[inline(always)]
    fn track_kinds(&mut self, slot: usize, old: PatternPair, new: PatternPair) -> u8 {
        let (row, d) = (slot >> 2 & (SLOTS - 1), slot & 3);
        let entries = self.pairs[row];
        let others = (0..4).fold(0, |acc, i| acc | if i == d { 0 } else { pair_kinds(entries[i]) });
        let toggled = (others | pair_kinds(old)) ^ (others | pair_kinds(new));
        toggle_kinds(&mut self.kind_cells, row, toggled);
        toggled
    }

    /// Takes the pattern codes of `cell` (now occupied) out of the sums.
    #[inline(always)]
    fn uncount_cell(&mut self, cell: Cell) {
        self.sums -= self.values.of_key(self.cell_keys[cell.index()]);
    }

    /// The pattern black would make on the empty `cell` along `dir` if black stones stood on
    /// the empty cells `added` too, read from the current key without placing them: a black
    /// stone adds its weight to every key that sees it (see [`stone_weight`]), so the key
    /// with them is the key now plus the weights of those on this line.
    pub(crate) fn black_pattern_with(&self, cell: Cell, dir: usize, added: &[Cell]) -> Pattern {
        let line = &self.tables.neighbours.cells[cell.index()][dir];
        let mut key = self.keys[cell.index()][dir];
        for &stone in added {
            if let Some(j) = line.iter().position(|&c| c != NONE && usize::from(c) == stone.index())
            {
                key += CODE_BLACK * stone_weight(j < HALF, j.abs_diff(HALF));
            }
        }
        pair_pattern(self.table.pair(key), Color::Black)
    }

    /// The cells of the line through `cell` along `dir`, by line index (5 = `cell`).
    #[inline]
    pub fn line_cells(&self, cell: Cell, dir: usize) -> [Option<Cell>; 2 * HALF + 1] {
        self.tables.neighbours.cells[cell.index()][dir]
            .map(|c| (c != NONE).then(|| Cell::from_index(c)))
    }

    /// Writes `code` into every key that sees `cell` and records the pattern pairs that
    /// change (a placement).
    ///
    /// Only empty cells' pairs are looked up: an occupied cell's pairs, kinds and sums are
    /// never read (every query is about empty cells), so they stay as they were when its
    /// stone was placed. Since stones are removed last in, first out, every later stone is
    /// gone by the time that stone is removed, its keys are back to what they were then, and
    /// so are its pairs: correct again the moment the cell is empty.
    #[inline(always)]
    fn update<const SUMS: bool>(&mut self, cell: Cell, code: u32) {
        let seers = self.tables.seers.of(cell);
        // First every key, then the table entries of the empty seers' keys with no branch
        // in between, so the lookups overlap; then the entries that changed.
        let keys = self.keys.as_flattened_mut();
        let mut live = [(0u16, 0u32); 4 * 2 * HALF];
        let mut n = 0;
        for &Seer { slot, weight } in seers {
            let key = &mut keys[slot_index::<SLOTS>(slot)];
            *key += code * u32::from(weight);
            live[n] = (slot, *key);
            n += usize::from(self.vacant[usize::from(slot >> 2) & (SLOTS - 1)]);
        }
        let mut new_pairs = [0; 4 * 2 * HALF];
        for (&(_, key), new_pair) in live[..n].iter().zip(&mut new_pairs) {
            *new_pair = self.table.pair(key);
        }
        // The changes and the sum are gathered in locals and written once: pushing and
        // adding to `self` in the loop makes every iteration wait on the last one's store.
        let mut changes = [Change::NONE; 4 * 2 * HALF];
        let (mut changed, mut sums) = (0, 0);
        for (&(slot, _), &new_pair) in live[..n].iter().zip(&new_pairs) {
            let index = slot_index::<SLOTS>(slot);
            let old_pair = self.pairs.as_flattened()[index];
            if old_pair == new_pair {
                continue;
            }
            let toggled = if pair_kinds(old_pair) != pair_kinds(new_pair) {
                self.track_kinds(index, old_pair, new_pair)
            } else {
                0
            };
            self.pairs.as_flattened_mut()[index] = new_pair;
            let mut key_change = 0;
            if SUMS {
                let values = self.values;
                key_change = code::key_change(old_pair, new_pair, index & 3);
                let cell_key = &mut self.cell_keys[index >> 2 & (SLOTS - 1)];
                let before = *cell_key;
                *cell_key = before ^ key_change;
                sums += values.of_key(*cell_key) - values.of_key(before);
            }
            changes[changed] = Change { slot, old: old_pair, key_change, toggled };
            changed += 1;
        }
        self.changes.extend_from_slice(&changes[..changed]);
        self.sums += sums;
    }

    /// Takes `cell`'s `code` out of every key that sees it and undoes the changes recorded
    /// since `changes_start` (the removal of the stone placed last): the pattern pairs, the
    /// threat-kind flags they toggled and their combination indices.
    #[inline(always)]
    fn restore(&mut self, cell: Cell, code: u32, changes_start: usize) {
        let keys = self.keys.as_flattened_mut();
        for &Seer { slot, weight } in self.tables.seers.of(cell) {
            keys[slot_index::<SLOTS>(slot)] -= code * u32::from(weight);
        }
        let pairs = self.pairs.as_flattened_mut();
        for &Change { slot, old, key_change, toggled } in &self.changes[changes_start..] {
            let slot = slot_index::<SLOTS>(slot);
            let row = slot >> 2 & (SLOTS - 1);
            if toggled != 0 {
                toggle_kinds(&mut self.kind_cells, row, toggled);
            }
            pairs[slot] = old;
            self.cell_keys[row] ^= key_change;
        }
        self.changes.truncate(changes_start);
    }
}

impl<B: KeyedBitboard, const SLOTS: usize> PatternState<B> for LineKeys<B, SLOTS> {
    fn new(rule: Rule, geometry: Geometry) -> Self {
        LineKeys::empty(rule, geometry, None)
    }

    #[inline]
    fn place(&mut self, cell: Cell, color: Color) {
        if !self.active {
            return;
        }
        let code = match color {
            Color::Black => CODE_BLACK,
            Color::White => CODE_WHITE,
        };
        self.frames.push(Frame {
            code,
            changes_start: self.changes.len() as u32,
            sums: self.sums,
            summed: self.summing,
        });
        self.vacant[cell.index()] = 0;
        if self.summing {
            self.uncount_cell(cell);
            self.update::<true>(cell, code);
        } else {
            self.update::<false>(cell, code);
        }
    }

    #[inline]
    fn remove(&mut self, cell: Cell) {
        if !self.active {
            return;
        }
        let frame = self.frames.pop().expect("remove follows place (last in, first out)");
        self.restore(cell, frame.code, frame.changes_start as usize);
        self.vacant[cell.index()] = 1;
        self.sums = frame.sums;
    }

    fn matches(&self, rule: Rule, geometry: Geometry, black: B, white: B) -> bool {
        if !self.active {
            return true;
        }
        let mut fresh = LineKeys::empty(rule, geometry, self.code_values());
        for c in black.iter() {
            fresh.place(c, Color::Black);
        }
        for c in white.iter() {
            fresh.place(c, Color::White);
        }
        // Occupied cells' pairs and kinds are frozen at their placement (see `update`):
        // only the empty cells' must agree.
        let empty = B::cells_of(geometry) - (black | white);
        // The sums are the board's only while every stone was placed with them on.
        let sums = self.has_values && self.frames.iter().all(|frame| frame.summed);
        let empty_agree = empty.iter().all(|c| {
            fresh.pairs[c.index()] == self.pairs[c.index()]
                && (!sums || fresh.cell_keys[c.index()] == self.cell_keys[c.index()])
        });
        let kinds_agree = (0..2).all(|color| {
            (0..KINDS).all(|kind| {
                fresh.kind_cells[color][kind] & empty == self.kind_cells[color][kind] & empty
            })
        });
        fresh.keys == self.keys
            && empty_agree
            && kinds_agree
            && fresh.vacant == self.vacant
            && (!sums || (fresh.sums, fresh.empty_sums) == (self.sums, self.empty_sums))
            && std::ptr::eq(fresh.table, self.table)
            && std::ptr::eq(fresh.tables, self.tables)
    }

    #[inline(always)]
    fn cell_patterns(&self, cell: Cell, color: Color) -> Option<[Pattern; 4]> {
        self.active.then(|| self.patterns(cell, color))
    }

    fn sum_code_values(
        &mut self,
        rule: Rule,
        geometry: Geometry,
        values: &'static CodeValues,
        stones: impl Iterator<Item = (Cell, Color)>,
    ) {
        if !self.active || self.code_values().is_some_and(|held| std::ptr::eq(held, values)) {
            return;
        }
        let mut state = LineKeys::empty(rule, geometry, Some(values));
        for (cell, color) in stones {
            state.place(cell, color);
        }
        *self = state;
    }

    fn code_values(&self) -> Option<&'static CodeValues> {
        (self.active && self.has_values).then_some(self.values)
    }

    #[inline(always)]
    fn code_sums(&self, color: Color) -> Option<[i32; 2]> {
        let sums = self.sums;
        self.code_values().map(|_| [0, 1].map(|i| unpack_sum(sums, color, i)))
    }

    fn empty_board_code_sums(&self, color: Color) -> Option<[i32; 2]> {
        let sums = self.empty_sums;
        self.code_values().map(|_| [0, 1].map(|i| unpack_sum(sums, color, i)))
    }

    #[inline(always)]
    fn threat_cells(&self, color: Color, kind: ThreatKind) -> Option<B> {
        self.active.then(|| self.kind_cells(color, kind))
    }

    fn threat_reach(&self, color: Color, kind: ThreatKind, cells: B) -> Option<B> {
        let flag = 1 << (color.index() * KINDS + kind as usize);
        self.active.then(|| {
            let mut reach = B::EMPTY;
            for cell in cells.iter() {
                for (d, &pair) in self.pairs[cell.index()].iter().enumerate() {
                    if pair_kinds(pair) & flag != 0 {
                        reach |= self.tables.line_reach[key_slot(cell, d)];
                    }
                }
            }
            reach
        })
    }

    fn deactivate(&mut self) {
        self.active = false;
    }

    fn keeps_patterns(&self) -> bool {
        self.active
    }

    fn keep_sums(&mut self, on: bool) -> bool {
        self.summing = on && self.has_values;
        std::mem::replace(&mut self.keep_sums, on)
    }
}
