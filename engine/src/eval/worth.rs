//! What the evaluation's terms are worth: each pattern code for a colour and [`Role`] (the
//! learned table's value where the rule has one, else the prior: the sum of its patterns' and
//! its class's weights), and each pair of the two sides' threat flags. The code worths of a
//! rule become the [`CodeValues`] table its boards sum ([`code_values`]).

use std::sync::{LazyLock, OnceLock};

use super::flags::{FLAG_ENTRIES, flag_index, side_flags};
use super::learned;
use super::weights::{COMBO_POTENTIAL, PATTERN_POTENTIAL, Role, eval_table};
use crate::bitboard::{Bitboard, Bits256};
use crate::board::Board;
use crate::color::Color;
use crate::pattern::code::{CodeValues, patterns_of};
use crate::pattern::combo::combo_of;
use crate::pattern::keys::PatternState;
use crate::rules::Rule;
use crate::score::Score;
use crate::storage::Storage;

/// What a pattern code is worth for `color` under `rule` with `role`'s weights, in potential
/// units: the learned table's value ([`super::learned`]) where there is one, else the
/// [`prior_worth`]. At least 0.
pub fn code_worth(rule: Rule, color: Color, role: Role, pcode: u16) -> i32 {
    match eval_table(rule, color).and_then(|table| learned::TABLES[table]) {
        Some(worths) => worths[role as usize][usize::from(pcode)],
        None => prior_worth(rule, color, role, pcode),
    }
}

/// What a pattern code was worth before the learned tables, and what the trainer pulls them
/// towards, in potential units: the sum of its patterns' [`PATTERN_POTENTIAL`] and of its
/// combination class's [`COMBO_POTENTIAL`] (see [`crate::pattern::combo`]). At least 0.
pub fn prior_worth(rule: Rule, color: Color, role: Role, pcode: u16) -> i32 {
    let patterns = patterns_of(pcode);
    let lines: i32 = patterns.iter().map(|&p| PATTERN_POTENTIAL[role as usize][p as usize]).sum();
    let combo = combo_of(patterns, rule.restricts(color))
        .map_or(0, |c| COMBO_POTENTIAL[role as usize][c as usize]);
    lines + combo
}

/// The code worths of `rule` as the table its boards sum: value `role as usize` of a code is
/// its [`code_worth`] with `role`'s weights. Built on first use, once per rule.
pub fn code_values(rule: Rule) -> &'static CodeValues {
    static VALUES: [LazyLock<CodeValues>; Rule::ALL.len()] = [
        LazyLock::new(|| rule_values(Rule::ALL[0])),
        LazyLock::new(|| rule_values(Rule::ALL[1])),
        LazyLock::new(|| rule_values(Rule::ALL[2])),
        LazyLock::new(|| rule_values(Rule::ALL[3])),
        LazyLock::new(|| rule_values(Rule::ALL[4])),
    ];
    &VALUES[rule.index()]
}

fn rule_values(rule: Rule) -> CodeValues {
    CodeValues::new(|color, pcode| {
        [Role::ToMove, Role::Waiting].map(|role| code_worth(rule, color, role, pcode))
    })
}

/// The side to move's lead in code sums: its own with the to-move worths less the
/// opponent's with the waiting side's.
#[inline(always)]
pub(super) fn lead(me: [i32; 2], them: [i32; 2]) -> i32 {
    me[Role::ToMove as usize] - them[Role::Waiting as usize]
}

/// Black's lead (its to-move code sum less white's waiting one) on the empty 15×15 board
/// under `rule`, what a larger board's size correction is measured from (see
/// [`super::evaluate`]); summed once per rule.
#[inline]
pub fn fifteen_lead(rule: Rule) -> i32 {
    static LEADS: [OnceLock<i32>; Rule::ALL.len()] = [const { OnceLock::new() }; Rule::ALL.len()];
    *LEADS[rule.index()].get_or_init(|| {
        let mut board = Board::<Bits256>::with_geometry(Bits256::GEOMETRY, rule);
        board.sum_code_values(code_values(rule));
        let sums = |color| board.patterns().code_sums(color).expect("15×15 boards sum codes");
        lead(sums(Color::Black), sums(Color::White))
    })
}

/// The learned threat-flag table of `side` to move under `rule`, if there is one (the
/// tables are chosen as [`eval_table`] chooses the codes' tables).
#[inline(always)]
pub fn flag_table(rule: Rule, side: Color) -> Option<&'static [i16; FLAG_ENTRIES]> {
    eval_table(rule, side).and_then(|t| learned::THREATS[t])
}

/// What the two sides' threat flags are worth to `board`'s side to move, in evaluation
/// units: 0 where the rule has no learned threat-flag table or the board keeps no patterns.
#[inline]
pub fn flags_worth<B: Storage>(board: &Board<B>) -> Score {
    let side = board.side_to_move();
    let Some(table) = flag_table(board.rule(), side) else {
        return 0;
    };
    match (side_flags(board, side), side_flags(board, side.opponent())) {
        (Some(me), Some(them)) => Score::from(table[flag_index(me, them)]),
        _ => 0,
    }
}
