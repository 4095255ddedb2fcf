//! The generated pattern tables: line key → [`Pattern`], per colour and rule.
//!
//! A *line* is eleven cells along one direction, the middle one (index 5) being the cell
//! classified. Its key holds the ten other cells, two bits each ([`CODE_EMPTY`],
//! [`CODE_BLACK`], [`CODE_WHITE`], [`CODE_WALL`]), slot `i` for line index `i` (`i < 5`) or
//! `i − 1` (`i > 5`). Generation works from one side's point of view ("own" = code 1) with
//! the middle cell holding an own stone, and is inductive:
//!
//! * a **five** (by the rule's definition) is `Five` — or `Overline` where six do not win;
//! * otherwise the empty cells that would complete a five through the middle are collected:
//!   one → `B4`; two or more using the same four stones → `F4`; different stones →
//!   `DoubleFour`;
//! * otherwise the best pattern one more own stone on any empty cell makes, one step down:
//!   `F4`/`DoubleFour` → `F3`, `B4` → `B3`, `F3` → `F2`, `B3` → `B2`, `F2` → `F1`,
//!   `B2` → `B1`, anything else → `Dead`. For renju black, a further stone that makes an
//!   overline or a one-line double four is forbidden and does not count.
//!
//! The result for each colour is stored per raw key (black = code 1, white = code 2), so a
//! lookup needs no colour swap. Tables are built once per rule, on first use, classifying only
//! the keys a board can produce (and those their classification reaches): about 15 ms per rule.
//!
//! **Compact keys.** The two-bit key space (2²⁰ entries, 2 MiB) does not fit the core's cache,
//! and a board only ever produces keys whose walls run in from the line's ends. The stored
//! table is indexed by a *compact key* instead: each side of the middle (five cells) is one
//! number below [`SIDE_KEYS`] = 364 — the number of off-board cells `w` (0..=5) picks a block
//! starting at [`SIDE_OFFSET`]`[w]`, and the `5 − w` on-board cells nearest the middle are base-3
//! digits (empty 0, black 1, white 2; the cell at distance `k` is digit `k − 1`) — and the
//! compact key is `left × 364 + right`: 132,496 entries, 259 KiB. A stone changes the key by
//! adding its code times [`stone_weight`], so make and unmake stay one addition per key.

use std::sync::LazyLock;

use super::Pattern;
use super::combo::ComboTable;
use crate::board::Color;
use crate::rules::Rule;

/// Two-bit cell codes in a line key.
pub const CODE_EMPTY: u32 = 0;
/// A black stone (the "own" side when generating from black's view).
pub const CODE_BLACK: u32 = 1;
/// A white stone.
pub const CODE_WHITE: u32 = 2;
/// Off the board.
pub const CODE_WALL: u32 = 3;
/// Cells on each side of the middle in a line.
pub const HALF: usize = 5;
/// Number of keys (ten cells, two bits each).
pub const KEYS: usize = 1 << (4 * HALF);

/// Distinct values of one side of a compact key (see the module docs).
pub const SIDE_KEYS: u32 = 364;
/// Entries of a compact table.
pub const COMPACT_KEYS: usize = (SIDE_KEYS * SIDE_KEYS) as usize;
/// Where the block of one side's values with `w` off-board cells starts.
pub const SIDE_OFFSET: [u32; HALF + 1] = [0, 243, 324, 351, 360, 363];

/// What a stone (of code 1 or 2) `distance` cells (1..=5) from the middle on the left (or
/// right) side adds to a compact key, per unit of its code.
#[inline]
pub const fn stone_weight(left: bool, distance: usize) -> u32 {
    let digit = 3u32.pow(distance as u32 - 1);
    if left { digit * SIDE_KEYS } else { digit }
}

/// The compact key of a line without stones whose ends have `walls_left` and `walls_right`
/// off-board cells.
#[inline]
pub const fn empty_compact_key(walls_left: usize, walls_right: usize) -> u32 {
    SIDE_OFFSET[walls_left] * SIDE_KEYS + SIDE_OFFSET[walls_right]
}

/// The line index (0..11) of the cell `distance` away from the middle on one side.
const fn line_index(left: bool, distance: usize) -> usize {
    if left { HALF - distance } else { HALF + distance }
}

/// The compact key of a two-bit key. A wall is taken to extend to the line's end (as it does
/// on a board); cells beyond the first wall are ignored.
pub fn compact_key(key: u32) -> u32 {
    let side = |left: bool| {
        let code = |distance: usize| (key >> (2 * slot(line_index(left, distance)))) & 3;
        let on_board = (1..=HALF).take_while(|&k| code(k) != CODE_WALL).count();
        let digits: u32 = (1..=on_board).map(|k| code(k) * 3u32.pow(k as u32 - 1)).sum();
        SIDE_OFFSET[HALF - on_board] + digits
    };
    side(true) * SIDE_KEYS + side(false)
}

/// The two-bit key of a compact key.
fn expand_key(compact: u32) -> u32 {
    let side = |left: bool, value: u32| {
        let walls = (0..=HALF).rev().find(|&w| SIDE_OFFSET[w] <= value).expect("offset 0");
        let mut digits = value - SIDE_OFFSET[walls];
        let mut key = 0;
        for distance in 1..=HALF {
            let code = if distance > HALF - walls { CODE_WALL } else { digits % 3 };
            digits /= 3;
            key |= code << (2 * slot(line_index(left, distance)));
        }
        key
    };
    side(true, compact / SIDE_KEYS) | side(false, compact % SIDE_KEYS)
}

/// How fives are defined by one rule for one colour.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum FiveRule {
    /// Five or more wins (freestyle; renju white).
    AtLeast,
    /// Exactly five wins (standard).
    Exactly,
    /// Exactly five wins; overlines and one-line double fours are forbidden moves (renju
    /// black).
    RenjuBlack,
    /// Five or more wins unless both ends are blocked by opponent stones (caro).
    CaroAtLeast,
    /// Exactly five wins unless both ends are blocked by opponent stones (caro, exact).
    CaroExactly,
}

impl FiveRule {
    /// Whether a five blocked at both ends does not count (caro).
    const fn is_caro(self) -> bool {
        matches!(self, FiveRule::CaroAtLeast | FiveRule::CaroExactly)
    }

    /// The five rule of `color` under `rule`.
    pub(crate) const fn of(rule: Rule, color: Color) -> FiveRule {
        match (rule, color) {
            (Rule::Freestyle, _) | (Rule::Renju, Color::White) => FiveRule::AtLeast,
            (Rule::Standard, _) => FiveRule::Exactly,
            (Rule::Renju, Color::Black) => FiveRule::RenjuBlack,
            (Rule::Caro, _) => FiveRule::CaroAtLeast,
            (Rule::CaroExact, _) => FiveRule::CaroExactly,
        }
    }
}

/// The slot (0..10) of line index `i` (0..11, not 5).
#[inline(always)]
pub const fn slot(i: usize) -> usize {
    if i < HALF { i } else { i - 1 }
}

/// The line (eleven codes, middle = own) of a key, from the own side's view.
fn decode(key: u32) -> [u32; 2 * HALF + 1] {
    let mut line = [CODE_BLACK; 2 * HALF + 1];
    for (i, cell) in line.iter_mut().enumerate() {
        if i != HALF {
            *cell = (key >> (2 * slot(i))) & 3;
        }
    }
    line
}

/// What a run of own stones through the middle is, and its extent.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum RunKind {
    Five,
    Overline,
    Short,
}

fn run_through_middle(line: &[u32; 2 * HALF + 1], rule: FiveRule) -> (RunKind, usize, usize) {
    let (mut lo, mut hi) = (HALF, HALF);
    while lo > 0 && line[lo - 1] == CODE_BLACK {
        lo -= 1;
    }
    while hi < 2 * HALF && line[hi + 1] == CODE_BLACK {
        hi += 1;
    }
    let len = hi - lo + 1;
    let blocked_both =
        lo > 0 && hi < 2 * HALF && line[lo - 1] == CODE_WHITE && line[hi + 1] == CODE_WHITE;
    let kind = match rule {
        FiveRule::AtLeast if len >= 5 => RunKind::Five,
        FiveRule::Exactly | FiveRule::RenjuBlack if len == 5 => RunKind::Five,
        FiveRule::Exactly | FiveRule::RenjuBlack if len > 5 => RunKind::Overline,
        FiveRule::CaroAtLeast if len >= 5 && !blocked_both => RunKind::Five,
        FiveRule::CaroExactly if len == 5 && !blocked_both => RunKind::Five,
        FiveRule::CaroExactly if len > 5 => RunKind::Overline,
        _ => RunKind::Short,
    };
    (kind, lo, hi)
}

/// Whether one opponent stone on an empty cell of `line` (own = code 1) leaves no cell that
/// completes a five through the middle (under caro, a stone that blocks one five can cap
/// another's end).
fn one_stone_stops_every_five(line: &[u32; 2 * HALF + 1], rule: FiveRule) -> bool {
    let empty = |l: &[u32; 2 * HALF + 1], i: usize| i != HALF && l[i] == CODE_EMPTY;
    (0..=2 * HALF).filter(|&r| empty(line, r)).any(|r| {
        let mut blocked = *line;
        blocked[r] = CODE_WHITE;
        !(0..=2 * HALF).filter(|&i| empty(&blocked, i)).any(|i| {
            let mut next = blocked;
            next[i] = CODE_BLACK;
            run_through_middle(&next, rule).0 == RunKind::Five
        })
    })
}

/// Classifies `key` (own = code 1) with memoisation in `memo` (255 = not yet known).
fn classify(key: u32, rule: FiveRule, memo: &mut [u8]) -> Pattern {
    if memo[key as usize] != u8::MAX {
        return Pattern::from_u8(memo[key as usize]);
    }
    let line = decode(key);
    let pattern = match run_through_middle(&line, rule) {
        (RunKind::Five, _, _) => Pattern::Five,
        (RunKind::Overline, _, _) => Pattern::Overline,
        (RunKind::Short, _, _) => {
            // Cells completing a five through the middle, and the stones each five uses.
            let mut completions = 0;
            let mut first_set: Option<u16> = None;
            let mut distinct_sets = false;
            let mut best_next = Pattern::Dead;
            for i in (0..=2 * HALF).filter(|&i| i != HALF && line[i] == CODE_EMPTY) {
                let next_key = key | (CODE_BLACK << (2 * slot(i)));
                let mut next_line = line;
                next_line[i] = CODE_BLACK;
                if let (RunKind::Five, lo, hi) = run_through_middle(&next_line, rule) {
                    completions += 1;
                    let set = ((1u16 << (hi + 1)) - (1u16 << lo)) & !(1u16 << i);
                    match first_set {
                        None => first_set = Some(set),
                        Some(s) if s != set => distinct_sets = true,
                        Some(_) => {}
                    }
                } else if completions == 0 {
                    let next = classify(next_key, rule, memo);
                    let counts = !(rule == FiveRule::RenjuBlack
                        && matches!(next, Pattern::Overline | Pattern::DoubleFour));
                    if counts {
                        best_next = best_next.max(next);
                    }
                }
            }
            if completions > 0 {
                if completions >= 2 && rule.is_caro() && one_stone_stops_every_five(&line, rule) {
                    // Caro: an opponent stone can block one five and cap the other's end
                    // (`o.xxxx..`: o on the right end leaves `oxxxxxo`), so it is a four.
                    Pattern::B4
                } else if distinct_sets {
                    Pattern::DoubleFour
                } else if completions >= 2 {
                    Pattern::F4
                } else {
                    Pattern::B4
                }
            } else {
                match best_next {
                    Pattern::F4 | Pattern::DoubleFour => Pattern::F3,
                    Pattern::B4 => Pattern::B3,
                    Pattern::F3 => Pattern::F2,
                    Pattern::B3 => Pattern::B2,
                    Pattern::F2 => Pattern::F1,
                    Pattern::B2 => Pattern::B1,
                    _ => Pattern::Dead,
                }
            }
        }
    };
    memo[key as usize] = pattern as u8;
    pattern
}

/// Patterns from the own side's view (own = code 1) under `rule`, by two-bit key, of the
/// keys a board can produce — those of compact keys, with either colour as own — and of
/// the keys their classification reaches (the same walls, so also such keys). Other entries
/// stay `u8::MAX`: classifying all 2²⁰ keys took about eight times as long, tens of
/// milliseconds per rule at the first move of a game.
fn perspective_table(rule: FiveRule) -> Vec<u8> {
    let mut memo = vec![u8::MAX; KEYS];
    for compact in 0..COMPACT_KEYS as u32 {
        let key = expand_key(compact);
        classify(key, rule, &mut memo);
        classify(swap_colours(key), rule, &mut memo);
    }
    memo
}

/// Swaps black and white codes in a key (walls and empties stay).
#[inline]
pub const fn swap_colours(key: u32) -> u32 {
    let low = key & 0x5_5555; // low bit of each slot
    let high = (key >> 1) & 0x5_5555; // high bit of each slot
    let is_stone = low ^ high; // exactly one bit set: black (01) or white (10)
    key ^ (is_stone | (is_stone << 1))
}

/// A table entry: black's pattern in bits 0..4, white's in bits 4..8, and in bits 8..16 the
/// threat kinds of both (black's in 8..12, white's in 12..16; see
/// [`super::keys::ThreatKind`]), so that make and unmake read what changed with one XOR.
pub type PatternPair = u16;

/// Packs black's and white's patterns into a [`PatternPair`].
#[inline]
pub const fn pack_pair(black: Pattern, white: Pattern) -> PatternPair {
    let kinds = super::keys::kinds_of(black) | super::keys::kinds_of(white) << 4;
    (black as u16) | (white as u16) << 4 | (kinds as u16) << 8
}

/// The pattern of `color` in a [`PatternPair`].
#[inline(always)]
pub const fn pair_pattern(pair: PatternPair, color: Color) -> Pattern {
    Pattern::from_u8(((pair >> (4 * color as u16)) & 15) as u8)
}

/// The patterns for black and white of every line under one rule, by compact key, and the
/// rule's combination worths (built together, on first use).
pub struct PatternTable {
    /// `entries[compact key]`: both colours' patterns and threat kinds.
    entries: Vec<PatternPair>,
    combos: ComboTable,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternTable({} keys)", self.entries.len())
    }
}

impl PatternTable {
    fn generate(rule: Rule) -> PatternTable {
        let black = perspective_table(FiveRule::of(rule, Color::Black));
        let white_rule = FiveRule::of(rule, Color::White);
        let white = if white_rule == FiveRule::of(rule, Color::Black) {
            None
        } else {
            Some(perspective_table(white_rule))
        };
        let white = white.as_ref().unwrap_or(&black);
        let entries = (0..COMPACT_KEYS as u32)
            .map(|compact| {
                let key = expand_key(compact);
                pack_pair(
                    Pattern::from_u8(black[key as usize]),
                    Pattern::from_u8(white[swap_colours(key) as usize]),
                )
            })
            .collect();
        PatternTable { entries, combos: ComboTable::generate(rule) }
    }

    /// The table of `rule` (generated on first use).
    pub fn of(rule: Rule) -> &'static PatternTable {
        static TABLES: [LazyLock<PatternTable>; 5] = [
            LazyLock::new(|| PatternTable::generate(Rule::Freestyle)),
            LazyLock::new(|| PatternTable::generate(Rule::Standard)),
            LazyLock::new(|| PatternTable::generate(Rule::Renju)),
            LazyLock::new(|| PatternTable::generate(Rule::Caro)),
            LazyLock::new(|| PatternTable::generate(Rule::CaroExact)),
        ];
        &TABLES[rule.index()]
    }

    /// The pattern a stone of `color` makes on the middle of the line with two-bit `key`
    /// (walls run in from the ends, see [`compact_key`]).
    pub fn get(&self, key: u32, color: Color) -> Pattern {
        pair_pattern(self.entries[compact_key(key) as usize], color)
    }

    /// Both colours' patterns and threat kinds of the line with compact key `compact`.
    #[inline(always)]
    pub fn pair(&self, compact: u32) -> PatternPair {
        self.entries[compact as usize]
    }

    /// The worths of the combination classes under this table's rule.
    #[inline(always)]
    pub fn combos(&self) -> &ComboTable {
        &self.combos
    }
}

/// Builds a key from a picture of the line: eleven characters, the middle one `X` (the
/// cell classified), `x`/`o` black/white stones, `.` empty, `|` off the board.
pub fn key_from_picture(picture: &str) -> Option<u32> {
    let cells: Vec<char> = picture.chars().filter(|c| !c.is_whitespace()).collect();
    if cells.len() != 2 * HALF + 1 || cells[HALF] != 'X' {
        return None;
    }
    let mut key = 0;
    for (i, &c) in cells.iter().enumerate() {
        if i == HALF {
            continue;
        }
        let code = match c {
            '.' => CODE_EMPTY,
            'x' => CODE_BLACK,
            'o' => CODE_WHITE,
            '|' => CODE_WALL,
            _ => return None,
        };
        key |= code << (2 * slot(i));
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow, direct classifier: on an explicit board line, count fives over every
    /// window and recurse without memo or key arithmetic.
    fn slow_classify(line: &[char; 11], exact: bool, caro: bool) -> Pattern {
        let own = |l: &[char; 11], i: usize| l[i] == 'x' || l[i] == 'X';
        let run = |l: &[char; 11]| {
            let (mut lo, mut hi) = (5, 5);
            while lo > 0 && own(l, lo - 1) {
                lo -= 1;
            }
            while hi < 10 && own(l, hi + 1) {
                hi += 1;
            }
            (lo, hi)
        };
        let is_five = |l: &[char; 11]| {
            let (lo, hi) = run(l);
            let capped = caro && lo > 0 && hi < 10 && l[lo - 1] == 'o' && l[hi + 1] == 'o';
            !capped && if exact { hi - lo + 1 == 5 } else { hi - lo + 1 >= 5 }
        };
        let (lo, hi) = run(line);
        if hi - lo + 1 >= 5 {
            return if is_five(line) {
                Pattern::Five
            } else if caro && (!exact || hi - lo + 1 == 5) {
                Pattern::Dead
            } else {
                Pattern::Overline
            };
        }
        let mut sets = Vec::new();
        let mut best = Pattern::Dead;
        for i in 0..11 {
            if line[i] != '.' {
                continue;
            }
            let mut next = *line;
            next[i] = 'x';
            if is_five(&next) {
                let (lo, hi) = run(&next);
                let set: Vec<usize> = (lo..=hi).filter(|&j| j != i).collect();
                if !sets.contains(&set) {
                    sets.push(set);
                }
                sets.sort();
                best = Pattern::Five;
            } else if best != Pattern::Five {
                best = best.max(slow_classify(&next, exact, caro));
            }
        }
        let completions = (0..11)
            .filter(|&i| {
                line[i] == '.' && {
                    let mut next = *line;
                    next[i] = 'x';
                    is_five(&next)
                }
            })
            .count();
        // Caro: whether some opponent stone leaves no five to complete.
        let stoppable = caro
            && (0..11).any(|r| {
                line[r] == '.' && {
                    let mut blocked = *line;
                    blocked[r] = 'o';
                    (0..11).all(|i| {
                        blocked[i] != '.' || {
                            let mut next = blocked;
                            next[i] = 'x';
                            !is_five(&next)
                        }
                    })
                }
            });
        match best {
            Pattern::Five if stoppable => Pattern::B4,
            Pattern::Five if sets.len() >= 2 => Pattern::DoubleFour,
            Pattern::Five if completions >= 2 => Pattern::F4,
            Pattern::Five => Pattern::B4,
            Pattern::F4 | Pattern::DoubleFour => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 => Pattern::F2,
            Pattern::B3 => Pattern::B2,
            Pattern::F2 => Pattern::F1,
            Pattern::B2 => Pattern::B1,
            _ => Pattern::Dead,
        }
    }

    fn picture_of(key: u32) -> [char; 11] {
        let mut line = ['X'; 11];
        for (i, cell) in line.iter_mut().enumerate() {
            if i != 5 {
                *cell = ['.', 'x', 'o', '|'][((key >> (2 * slot(i))) & 3) as usize];
            }
        }
        line
    }

    /// Keys whose walls are contiguous from the ends (the only ones a board produces).
    fn realistic(key: u32) -> bool {
        let line = picture_of(key);
        let left_ok = (0..5).all(|i| line[i] != '|' || (0..i).all(|j| line[j] == '|'));
        let right_ok = (6..11).all(|i| line[i] != '|' || (i + 1..11).all(|j| line[j] == '|'));
        left_ok && right_ok
    }

    #[test]
    fn table_matches_the_slow_classifier_on_random_keys() {
        for (rule, exact, caro) in [
            (Rule::Freestyle, false, false),
            (Rule::Standard, true, false),
            (Rule::Caro, false, true),
            (Rule::CaroExact, true, true),
        ] {
            let table = PatternTable::of(rule);
            let mut rng = crate::rng::SplitMix64::new(17);
            let mut checked = 0;
            while checked < 20_000 {
                let key = rng.next_u64() as u32 & (KEYS as u32 - 1);
                if !realistic(key) {
                    continue;
                }
                let line = picture_of(key);
                assert_eq!(
                    table.get(key, Color::Black),
                    slow_classify(&line, exact, caro),
                    "{rule} {line:?}"
                );
                checked += 1;
            }
        }
    }

    #[test]
    fn compact_keys_are_a_bijection_on_board_keys() {
        for compact in 0..COMPACT_KEYS as u32 {
            let key = expand_key(compact);
            assert!(realistic(key), "{:?}", picture_of(key));
            assert_eq!(compact_key(key), compact, "{:?}", picture_of(key));
        }
        // Every realistic key is reached: as many as compact keys.
        assert_eq!((0..KEYS as u32).filter(|&k| realistic(k)).count(), COMPACT_KEYS);
    }

    #[test]
    fn stone_weights_add_up_to_the_compact_key() {
        let key = key_from_picture("|.xo.X.o.x.").unwrap();
        let expected = empty_compact_key(1, 0)
            + stone_weight(true, 3)
            + 2 * stone_weight(true, 2)
            + 2 * stone_weight(false, 2)
            + stone_weight(false, 4);
        assert_eq!(compact_key(key), expected);
        assert_eq!(expected, 93_945, "the worked example of docs/patterns.md");
    }

    #[test]
    fn white_sees_the_colour_swapped_line() {
        let table = PatternTable::of(Rule::Freestyle);
        let key = key_from_picture("...xxX....o").unwrap();
        let swapped = swap_colours(key);
        assert_eq!(table.get(key, Color::Black), table.get(swapped, Color::White));
        assert_eq!(swap_colours(swapped), key);
        assert_eq!(
            swap_colours(key_from_picture("|.xo.X.o.x|").unwrap()),
            key_from_picture("|.ox.X.x.o|").unwrap()
        );
    }

    fn black(rule: Rule, picture: &str) -> Pattern {
        PatternTable::of(rule).get(key_from_picture(picture).expect("a line picture"), Color::Black)
    }

    #[test]
    fn documented_examples_classify_as_drawn() {
        let f = Rule::Freestyle;
        assert_eq!(black(f, ".xxxxX....."), Pattern::Five);
        assert_eq!(black(f, "...xxX.x..."), Pattern::B4);
        assert_eq!(black(f, "...oxXx.o.."), Pattern::Dead);
        assert_eq!(black(f, "..oxxX....."), Pattern::B3);
        assert_eq!(black(f, "...xxX....."), Pattern::F3);
        assert_eq!(black(f, "..x.xX....."), Pattern::F3);
        assert_eq!(black(f, "..xxxX....."), Pattern::F4);
        assert_eq!(black(f, ".oxxxX....."), Pattern::B4);
        assert_eq!(black(f, ".x.xxX.x..."), Pattern::DoubleFour);
        assert_eq!(black(f, ".....X....."), Pattern::F1);
        assert_eq!(black(f, "....xX....."), Pattern::F2);
        assert_eq!(black(f, "...oxX....."), Pattern::B2);
        assert_eq!(black(f, "..oxxX.o..."), Pattern::Dead);
    }

    #[test]
    fn overlines_depend_on_the_rule() {
        // Six in a row through the middle.
        assert_eq!(black(Rule::Freestyle, "..xxxXxx..."), Pattern::Five);
        assert_eq!(black(Rule::Standard, "..xxxXxx..."), Pattern::Overline);
        assert_eq!(black(Rule::Renju, "..xxxXxx..."), Pattern::Overline);
        // Renju white may make six.
        let six = key_from_picture("..oooXoo...").unwrap();
        assert_eq!(PatternTable::of(Rule::Renju).get(six, Color::White), Pattern::Five);
        // A four whose only completion makes seven: a four in freestyle only.
        assert_eq!(black(Rule::Freestyle, "...xxX.xxx."), Pattern::B4);
        assert!(black(Rule::Standard, "...xxX.xxx.") < Pattern::B4);
    }

    #[test]
    fn renju_black_is_never_stronger_than_standard_and_sometimes_weaker() {
        let (renju, standard) = (PatternTable::of(Rule::Renju), PatternTable::of(Rule::Standard));
        let mut weaker = 0;
        for key in (0..KEYS as u32).filter(|&k| realistic(k)) {
            let (r, s) = (renju.get(key, Color::Black), standard.get(key, Color::Black));
            assert!(r <= s, "{:?}: renju {r:?} > standard {s:?}", picture_of(key));
            if r < s {
                weaker += 1;
                // Only threes and weaker lose strength: fours and fives are the same.
                assert!(s <= Pattern::F3, "{:?}", picture_of(key));
            }
        }
        assert!(weaker > 0, "some black threes lead only to forbidden fours");
    }

    #[test]
    fn caro_fives_need_an_open_end() {
        assert_eq!(black(Rule::Caro, "oxxxxX.o..."), Pattern::Five);
        assert_eq!(black(Rule::Caro, "oxxxxXo...."), Pattern::Dead);
        assert_eq!(black(Rule::Caro, "|xxxxXo...."), Pattern::Five, "the edge does not block");
        assert_eq!(black(Rule::CaroExact, "xxxxxXo...."), Pattern::Overline);
    }

    #[test]
    fn a_caro_four_one_stone_stops_is_not_open() {
        // o.xxxx..: o on the right end caps the left five (oxxxxxo), so it is a four.
        assert_eq!(black(Rule::Caro, "..o.xXxx..."), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "..o.xXxx..."), Pattern::F4);
        // With room on both sides it is open in caro too.
        assert_eq!(black(Rule::Caro, "....xXxx..."), Pattern::F4);
        // A one-line double four whose two fives a stone in one gap caps.
        assert_eq!(black(Rule::Caro, "ox.xxX.xo.."), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "ox.xxX.xo.."), Pattern::DoubleFour);
        // A three that can only become such a four is a closed three.
        assert_eq!(black(Rule::Caro, ".o..xXx..o."), Pattern::B3);
        assert_eq!(black(Rule::Freestyle, ".o..xXx..o."), Pattern::F3);
    }
}
