//! Static threat knowledge: what a cell is worth to each side by the patterns a stone there
//! would make ([`threat_value`], which also orders the main search's moves), which moves
//! answer an open three, which block a five, and when a double three wins. All of it reads
//! the line patterns the board keeps; on boards without them (3×3, 5×5) the functions answer
//! "nothing known".

use crate::board::Board;
use crate::color::Color;
use crate::eval::weights::{PATTERN_POTENTIAL, Role};
use crate::outcome::Outcome;
use crate::pattern::Pattern;
use crate::pattern::keys::PatternState;
use crate::pattern::pair::ThreatKind;
use crate::storage::Storage;

/// Threat class scores of a cell for one side (see [`threat_value`]).
pub const FIVE_VALUE: i64 = 1 << 30;
/// An open four, a one-line double four or two fours: the opponent cannot stop five.
pub const WINNING_FOUR_VALUE: i64 = 1 << 24;
/// A four together with an open three.
pub const FOUR_THREE_VALUE: i64 = 1 << 20;
/// Two open threes.
pub const DOUBLE_THREE_VALUE: i64 = 1 << 16;

/// One direction's share of [`threat_value`], packed so that four directions add up in one
/// integer: potential in bits 0..16, fours in 16..20, open threes in 20..24, fives in 24..28,
/// open fours in 28..32 (four directions never overflow a field).
const fn threat_share(p: Pattern) -> u64 {
    PATTERN_POTENTIAL[Role::ToMove as usize][p as usize] as u64
        | (p.four_count() as u64) << 16
        | (p.is_open_three() as u64) << 20
        | (matches!(p, Pattern::Five) as u64) << 24
        | (matches!(p, Pattern::F4) as u64) << 28
}

/// [`threat_share`] of every pattern, by `Pattern as usize`.
const THREAT_SHARES: [u64; Pattern::ALL.len()] = {
    let mut shares = [0; Pattern::ALL.len()];
    let mut i = 0;
    while i < Pattern::ALL.len() {
        shares[i] = threat_share(Pattern::from_u8(i as u8));
        i += 1;
    }
    shares
};

/// How strong a stone of one side on a cell is, from its four line patterns: fives, winning
/// fours, four-threes and double threes dominate; otherwise the summed pattern potential.
#[inline]
pub fn threat_value(patterns: &[Pattern; 4]) -> i64 {
    let sum: u64 = patterns.iter().map(|&p| THREAT_SHARES[p as usize]).sum();
    let field = |shift: u32| (sum >> shift) & 15;
    let base = (sum & 0xFFFF) as i64;
    let (fours, threes) = (field(16), field(20));
    if field(24) != 0 {
        FIVE_VALUE
    } else if fours >= 2 || field(28) != 0 {
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
/// three: open-four points, cells where it makes an open four or a one-line double four,
/// among `candidates`), the defences among `candidates`: the blocks — the cells where the
/// opponent could make a four, on a line of an open-four point within reach of it — and
/// every cell where the side to move makes a four of its own (a counter-threat the opponent
/// must answer). A stone anywhere else changes no open-four point's pattern, so the
/// opponent's open four follows. Under caro a stone can also spoil an open four by capping
/// an end a few cells out, so every cell within reach of the open-four points counts (a
/// superset of the defences: the search refutes the others). `None` when there is no such
/// threat or the board keeps no patterns.
pub fn defences_against_three<B: Storage>(board: &Board<B>, candidates: B) -> Option<B> {
    let me = board.side_to_move();
    let them = me.opponent();
    let lines = board.patterns();
    let open_fours = lines.threat_cells(them, ThreatKind::OpenFour)? & candidates;
    if open_fours.is_empty() {
        return None;
    }
    let reach = lines.threat_reach(them, ThreatKind::OpenFour, open_fours)?;
    let blocks = if board.rule().is_caro() {
        reach
    } else {
        lines.threat_cells(them, ThreatKind::Four)? & reach
    };
    Some((blocks | lines.threat_cells(me, ThreatKind::Four)?) & candidates)
}

/// The cells where a stone of the side to move stops every five `attacker` threatens, on
/// `fives` (its winning cells, which the callers have at hand). Under caro a stone can also
/// stop a five by capping its far end, and one stone can stop two fives of a line (see
/// [`crate::pattern::table`]), so every cell within a key's reach of the fives is tried.
/// Under the other rules a five is blocked on its cell alone and two cannot both be
/// (renju's forbidden points are the caller's concern).
pub(crate) fn five_blocks<B: Storage>(board: &mut Board<B>, attacker: Color, fives: B) -> B {
    debug_assert_eq!(fives, board.winning_cells(attacker));
    if !board.rule().is_caro() || fives.is_empty() {
        return if fives.count() == 1 { fives } else { B::EMPTY };
    }
    let reach = board.patterns().threat_reach(attacker, ThreatKind::Five, fives).unwrap_or(fives);
    (reach & board.empty_cells()).iter().fold(B::EMPTY, |blocks, cell| {
        let stops = board.play_unchecked(cell) == Outcome::Ongoing
            && board.winning_cells(attacker).is_empty();
        board.undo_unchecked();
        if stops { blocks.with(cell) } else { blocks }
    })
}

/// Whether the side to move wins in five plies by two open threes at once: it has a cell
/// where its stone makes an open three in two directions, and the opponent can make no four
/// (so no reply threatens five and one stone blocks only one of the two lines; the other
/// becomes an open four). Never for renju black, whose double three is forbidden; `false`
/// without patterns.
pub fn double_three_wins<B: Storage>(board: &Board<B>) -> bool {
    if board.restricted_to_move() {
        return false;
    }
    let me = board.side_to_move();
    let lines = board.patterns();
    let empty = board.empty_cells();
    let (Some(their_fours), Some(threes)) = (
        lines.threat_cells(me.opponent(), ThreatKind::Four),
        lines.threat_cells(me, ThreatKind::Three),
    ) else {
        return false;
    };
    if !(their_fours & empty).is_empty() {
        return false;
    }
    (threes & empty).iter().any(|cell| {
        lines
            .cell_patterns(cell, me)
            .is_some_and(|p| p.iter().filter(|&&q| q.is_open_three()).count() >= 2)
    })
}

/// The empty cells where `color` would make a four (or, with `threes`, an open three);
/// `None` on boards without patterns.
pub(super) fn attack_cells<B: Storage>(board: &Board<B>, color: Color, threes: bool) -> Option<B> {
    let lines = board.patterns();
    let mut cells = lines.threat_cells(color, ThreatKind::Four)?;
    if threes {
        cells |= lines.threat_cells(color, ThreatKind::Three)?;
    }
    Some(cells & board.empty_cells())
}

/// The empty cells where a plain four of `color` can win as its last attacking move: all
/// its fours for white against renju black (the block may be forbidden), else none (a last
/// move must be a winning four, an open or a double four). `None` without patterns.
pub(super) fn plain_last_fours<B: Storage>(board: &Board<B>, color: Color) -> Option<B> {
    if board.rule().restricts(color.opponent()) {
        attack_cells(board, color, false)
    } else {
        Some(B::EMPTY)
    }
}

/// Whether `color` has a cell outside `except` where a last attacking move can win: a
/// winning four, or one of its [`plain_last_fours`]. `None` without patterns.
pub(super) fn last_move_wins_possible<B: Storage>(
    board: &Board<B>,
    color: Color,
    except: B,
) -> Option<bool> {
    let fours = attack_cells(board, color, false)? - except;
    if !(fours & plain_last_fours(board, color)?).is_empty() {
        return Some(true);
    }
    let lines = board.patterns();
    for cell in fours.iter() {
        if threat_value(&lines.cell_patterns(cell, color)?) >= WINNING_FOUR_VALUE {
            return Some(true);
        }
    }
    Some(false)
}
