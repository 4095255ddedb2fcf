//! Who chooses the moves: mnk's own search, or the classroom program it grew from. The
//! protocol session plays one of them (`pbrain-mnk`, `pbrain-mnk classroom`), and so can
//! either side of `pbrain-mnk play`.

use mnk_engine::bitboard::Bitboard;
use mnk_engine::board::Board;
use mnk_engine::classroom;
use mnk_engine::limits::{Limits, Stop};
use mnk_engine::report::{SearchInfo, SearchResult};
use mnk_engine::search::Searcher;
use mnk_engine::size::Size;
use mnk_engine::strength::Strength;
use mnk_engine::tt::TranspositionTable;

use crate::command::Point;

/// A program that chooses moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Player {
    /// mnk's own search.
    #[default]
    Mnk,
    /// The classroom program ([`mnk_engine::classroom`]), a sparring partner: depth 6 α-β,
    /// no clock (it ignores the time limits; a depth limit sets its depth).
    Classroom,
}

/// How a search runs, besides its limits.
#[derive(Clone, Debug)]
pub struct SearchOptions<'a> {
    /// Best moves to find (multi-PV).
    pub lines: usize,
    /// Search threads.
    pub threads: usize,
    /// Moves the search must not play (`YXBLOCK`); cells off the board are left out.
    pub blocked: &'a [Point],
    /// The playing strength, and the seed of its draw among moves (mnk only).
    pub strength: (Strength, u64),
}

impl SearchOptions<'_> {
    /// One line, one thread, nothing blocked, full strength.
    pub const PLAIN: SearchOptions<'static> =
        SearchOptions { lines: 1, threads: 1, blocked: &[], strength: (Strength::full(), 0) };
}

impl Player {
    /// Searches `board` as this player does. mnk searches within `limits` with `tt` as
    /// `options` say, reporting each iteration to `on_info`; the classroom program searches
    /// to its depth (`limits.depth`, else its own) and heeds only the stop flag.
    pub fn search<B: Size>(
        self,
        board: &Board<B>,
        tt: &mut TranspositionTable,
        limits: Limits,
        options: &SearchOptions<'_>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let geometry = board.geometry();
        let blocked = options
            .blocked
            .iter()
            .filter_map(|&(x, y)| geometry.cell(x, y))
            .fold(B::EMPTY, Bitboard::with);
        match self {
            Player::Mnk => Searcher::new(board.clone(), tt, limits)
                .with_lines(options.lines)
                .with_threads(options.threads)
                .with_blocked(blocked)
                .with_strength(options.strength.0, options.strength.1)
                .run(on_info),
            Player::Classroom => {
                let depth = limits.depth.unwrap_or(classroom::DEPTH);
                // (Its clock is its depth: only the stop flag ends it early.)
                classroom::search(board, depth, &Stop { deadline: None, flag: limits.stop })
            }
        }
    }
}
