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
//!   `F4`/`DoubleFour` → `F3` (`F3S` if two or more cells make one), `B4` → `B3`,
//!   `F3`/`F3S` → `F2` (`F2A` if three cells make one, `F2B` if four or more), `B3` → `B2`,
//!   `F2`/`F2A`/`F2B` → `F1`, `B2` → `B1`, anything else → `Dead`. For renju black, a
//!   further stone that makes an overline or a one-line double four is forbidden and does
//!   not count.
//!
//! The result for each colour is stored per raw key (black = code 1, white = code 2), so a
//! lookup needs no colour swap. The classification (`pattern/classify.rs`) runs in the build
//! script, for only the keys a board can produce (and those their classification reaches);
//! the binary carries one byte per key and rule, unpacked into a table at a rule's first use
//! (well under a millisecond).
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
use super::classify::line_index;
pub use super::classify::{
    CODE_BLACK, CODE_EMPTY, CODE_WALL, CODE_WHITE, COMPACT_KEYS, HALF, KEYS, SIDE_KEYS,
    SIDE_OFFSET, slot, swap_colours,
};
use super::pair::{PatternPair, pack_pair, pair_pattern};
use crate::color::Color;
use crate::rules::Rule;

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

/// The patterns for black and white of every line under one rule, by compact key (unpacked
/// on first use).
pub struct PatternTable {
    /// `entries[compact key]`: both colours' patterns and threat kinds.
    entries: Vec<PatternPair>,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PatternTable({} keys)", self.entries.len())
    }
}

/// Both colours' patterns by compact key for every rule, one byte each (see
/// [`super::classify::compact_patterns`]), the rules in the order of [`Rule::index`]: built
/// by the build script, so that no game waits for them.
static BUILT: &[u8; Rule::ALL.len() * COMPACT_KEYS] =
    include_bytes!(concat!(env!("OUT_DIR"), "/patterns.bin"));

impl PatternTable {
    /// The table of `rule` from the built-in bytes.
    fn built(rule: Rule) -> PatternTable {
        let bytes = &BUILT[rule.index() * COMPACT_KEYS..][..COMPACT_KEYS];
        let entries = bytes
            .iter()
            .map(|&b| pack_pair(Pattern::from_u8(b & 15), Pattern::from_u8(b >> 4)))
            .collect();
        PatternTable { entries }
    }

    /// The table of `rule` (unpacked from the built-in bytes on first use).
    pub fn of(rule: Rule) -> &'static PatternTable {
        static TABLES: [LazyLock<PatternTable>; Rule::ALL.len()] = [
            LazyLock::new(|| PatternTable::built(Rule::ALL[0])),
            LazyLock::new(|| PatternTable::built(Rule::ALL[1])),
            LazyLock::new(|| PatternTable::built(Rule::ALL[2])),
            LazyLock::new(|| PatternTable::built(Rule::ALL[3])),
            LazyLock::new(|| PatternTable::built(Rule::ALL[4])),
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
    use crate::pattern::classify::{compact_patterns, expand_key};

    #[test]
    fn the_built_in_tables_are_what_the_classifier_generates() {
        for rule in Rule::ALL {
            let generated = compact_patterns(rule.fives(Color::Black), rule.fives(Color::White));
            let built = &BUILT[rule.index() * COMPACT_KEYS..][..COMPACT_KEYS];
            assert!(generated == built, "{rule}: the build script's table differs");
        }
    }

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
        let (mut open_fours, mut open_threes) = (0, 0);
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
            } else {
                let next = slow_classify(&next, exact, caro);
                open_fours += u32::from(matches!(next, Pattern::F4 | Pattern::DoubleFour));
                open_threes += u32::from(matches!(next, Pattern::F3 | Pattern::F3S));
                best = best.max(next);
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
            Pattern::F4 | Pattern::DoubleFour if open_fours >= 2 => Pattern::F3S,
            Pattern::F4 | Pattern::DoubleFour => Pattern::F3,
            Pattern::B4 => Pattern::B3,
            Pattern::F3 | Pattern::F3S => match open_threes {
                0..=2 => Pattern::F2,
                3 => Pattern::F2A,
                _ => Pattern::F2B,
            },
            Pattern::B3 => Pattern::B2,
            Pattern::F2 | Pattern::F2A | Pattern::F2B => Pattern::F1,
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
        assert_eq!(black(f, "...xxX....."), Pattern::F3S);
        assert_eq!(black(f, "..x.xX....."), Pattern::F3);
        assert_eq!(black(f, ".o.xxX..o.."), Pattern::F3);
        assert_eq!(black(f, "..xxxX....."), Pattern::F4);
        assert_eq!(black(f, ".oxxxX....."), Pattern::B4);
        assert_eq!(black(f, ".x.xxX.x..."), Pattern::DoubleFour);
        assert_eq!(black(f, ".....X....."), Pattern::F1);
        assert_eq!(black(f, "....xX....."), Pattern::F2B);
        assert_eq!(black(f, "...x.X....."), Pattern::F2A);
        assert_eq!(black(f, "..|.xX....."), Pattern::F2);
        assert_eq!(black(f, "...x.X.o..."), Pattern::F2);
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
                assert!(s <= Pattern::F3S, "{:?}", picture_of(key));
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
        assert_eq!(black(Rule::Freestyle, ".o..xXx..o."), Pattern::F3S);
    }
}
