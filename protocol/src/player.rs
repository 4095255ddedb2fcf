//! Who chooses the moves: mnk's own search, or the classroom program it grew from. The
//! protocol session plays one of them (`pbrain-mnk`, `pbrain-mnk classroom`), and so can
//! either side of `pbrain-mnk play`.

use mnk_engine::board::Board;
use mnk_engine::classroom;
use mnk_engine::report::{SearchInfo, SearchResult};
use mnk_engine::search::{SearchLimits, Searcher};
use mnk_engine::size::Size;
use mnk_engine::tt::TranspositionTable;

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

impl Player {
    /// Searches `board` as this player does. mnk searches within `limits` with `tt`, for
    /// `lines` best moves on `threads` threads, reporting each iteration to `on_info`; the
    /// classroom program searches to its depth (`limits.depth`, else its own) and heeds only
    /// the stop flag.
    pub fn search<B: Size>(
        self,
        board: &Board<B>,
        tt: &mut TranspositionTable,
        limits: SearchLimits,
        (lines, threads): (usize, usize),
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        match self {
            Player::Mnk => Searcher::new(board.clone(), tt, limits)
                .with_lines(lines)
                .with_threads(threads)
                .run(on_info),
            Player::Classroom => {
                let depth = limits.depth.unwrap_or(classroom::DEPTH);
                classroom::search(board, depth, limits.stop.as_deref())
            }
        }
    }
}
