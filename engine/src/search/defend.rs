//! Which moves hold (`YXSEARCHDEFEND`): every legal move of the side to move, each checked
//! for a threat-sequence win (VCT) of the opponent after it — the check the root's defence
//! filter gives its candidates, here for every empty cell, so that a GUI can mark the
//! moves that hold against the opponent's threats (gomoku boards, which keep the patterns
//! the solver reads).

use super::SearchParams;
use super::threats::{ThreatSearch, Threats};
use crate::board::Board;
use crate::eval::{self, evaluate};
use crate::geometry::Cell;
use crate::limits::Limits;
use crate::outcome::Outcome;
use crate::score::Score;
use crate::storage::Storage;

/// What the opponent's threat sequences make of one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move makes a five.
    Wins,
    /// The solver found no win for the opponent after the move within its budget; the
    /// static evaluation after it, for the side that played it.
    Holds(Score),
    /// The opponent wins by a threat sequence after the move: plies from the position
    /// before it (the move and the five included), and the sequence's first move.
    Loses {
        /// Plies to the opponent's five, counting the move.
        plies: usize,
        /// The opponent's first attacking move.
        reply: Cell,
    },
    /// Not checked: the time ran out or the search was stopped first.
    Unchecked,
}

/// One move and its [`Verdict`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// The move.
    pub cell: Cell,
    /// What the opponent makes of it.
    pub verdict: Verdict,
}

impl Defence {
    /// The order of [`defences`]: wins, then the moves that hold (best evaluation first),
    /// then the losses (longest first), then the unchecked; by cell within each.
    fn rank(&self) -> (u8, i64) {
        match self.verdict {
            Verdict::Wins => (0, 0),
            Verdict::Holds(eval) => (1, -i64::from(eval)),
            Verdict::Loses { plies, .. } => (2, -(plies as i64)),
            Verdict::Unchecked => (3, 0),
        }
    }
}

/// The verdict on every legal move of the side to move in `board`, in the order of
/// `Defence::rank`, within `limits`: their nodes for the opponent's VCT after each move
/// (`params.defence_vct_nodes` if they set none; `params.vct_threats` deep), their deadline
/// and flag for the whole check (the moves not reached are [`Verdict::Unchecked`]). The
/// moves are checked in cell order; a win found is forced, a hold is as far as the budget
/// sees.
pub fn defences<B: Storage>(
    board: &Board<B>,
    limits: &Limits,
    params: &SearchParams,
) -> Vec<Defence> {
    let mut board = board.clone();
    eval::prepare(&mut board);
    let default_nodes = u64::try_from(params.defence_vct_nodes).expect("at least 0");
    let nodes = limits.nodes.unwrap_or(default_nodes);
    let deep = params.vct_threats as u32;
    let stop = limits.stop();
    let mut solver = ThreatSearch::new(limits);
    let over = || stop.is_due();
    let mut defences: Vec<Defence> = board
        .legal_moves()
        .iter()
        .map(|cell| {
            if over() {
                return Defence { cell, verdict: Verdict::Unchecked };
            }
            let verdict = match board.play_unchecked(cell) {
                Outcome::Win(_) => Verdict::Wins,
                Outcome::Draw => Verdict::Holds(0),
                Outcome::Ongoing => {
                    let threats = Threats::FoursAndThrees;
                    let win = solver.solve(&mut board, threats, deep, nodes, stop.deadline);
                    match win {
                        Some(win) => {
                            Verdict::Loses { plies: usize::from(win.plies) + 1, reply: win.first }
                        }
                        None if over() => Verdict::Unchecked,
                        None => Verdict::Holds(-evaluate(&board)),
                    }
                }
            };
            board.undo_unchecked();
            Defence { cell, verdict }
        })
        .collect();
    defences.sort_by_key(|defence| (defence.rank(), defence.cell.index()));
    defences
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{Bitboard, Bits256};
    use crate::rules::Rule;

    fn verdicts(moves: &str) -> (Board<Bits256>, Vec<Defence>) {
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, moves).expect("legal");
        let defences = defences(&board, &Limits::nodes(20_000), &SearchParams::DEFAULT);
        (board, defences)
    }

    #[test]
    fn against_an_open_three_only_its_stops_and_counter_fours_hold() {
        // White to move against black's open three h8 i8 j8 (white's stones far apart).
        let (board, defences) = verdicts("h8,a1,i8,a15,j8");
        let g = Bits256::GEOMETRY;
        assert_eq!(defences.len(), board.legal_moves().count() as usize, "every legal move");
        let holding: Vec<String> = defences
            .iter()
            .filter(|d| matches!(d.verdict, Verdict::Holds(_)))
            .map(|d| g.format_pos(d.cell))
            .collect();
        for stop in ["g8", "k8"] {
            assert!(holding.contains(&stop.to_string()), "{stop} holds: {holding:?}");
        }
        assert!(holding.len() <= 6, "only the stops hold: {holding:?}");
        let far = defences.iter().find(|d| g.format_pos(d.cell) == "o8").expect("o8");
        assert!(matches!(far.verdict, Verdict::Loses { plies, .. } if plies >= 4), "{far:?}");
        let ranks: Vec<(u8, i64)> = defences.iter().map(Defence::rank).collect();
        assert!(ranks.is_sorted(), "holds first, then the losses, longest first");
    }

    #[test]
    fn a_five_wins_and_a_stopped_check_leaves_the_rest_unchecked() {
        let (_, defences) = verdicts("h8,a1,i8,a3,j8,a5,k8,a7");
        assert_eq!(defences[0].verdict, Verdict::Wins);
        assert_eq!(defences[1].verdict, Verdict::Wins, "both ends of the four");
        let board = Board::<Bits256>::from_notation(Rule::Freestyle, "h8,i9").expect("legal");
        let flag = crate::limits::StopFlag::new();
        flag.raise();
        let stopped =
            super::defences(&board, &Limits::nodes(20_000).with_stop(flag), &SearchParams::DEFAULT);
        assert!(stopped.iter().all(|d| d.verdict == Verdict::Unchecked));
    }
}
