//! Searches for the evaluation's examples: one position at a time, each with a table
//! cleared before it, so the same build gives the same answers, shared among threads.

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::Point;
use mnk_engine::score::Score;
use mnk_engine::search::params::SearchParams;

use super::games::fail;

/// Table of each search, in bytes.
const TABLE_BYTES: usize = 32 << 20;
/// Threads sharing the positions.
const THREADS: usize = 2;

/// The move and score (for the side to move) of an `nodes`-node search of `game`.
pub(crate) fn search(engine: &mut Engine, game: &Game, nodes: u64) -> (Point, Score) {
    engine.new_game(game.size(), game.rule());
    engine.clear_hash();
    let result = engine.go(game, Limits::nodes(nodes), &mut |_| {});
    let cell = result.best_move.unwrap_or_else(|| fail("a position with no legal move"));
    (game.point(cell), result.score())
}

/// `f` of every item, on [`THREADS`] threads (each with its own engine), in order.
pub(crate) fn map_parallel<T: Sync, R: Send>(
    items: &[T],
    params: SearchParams,
    f: impl Fn(&mut Engine, &T) -> R + Sync,
) -> Vec<R> {
    let f = &f;
    let parts: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                scope.spawn(move || {
                    let mut engine = Engine::with_hash_bytes(TABLE_BYTES);
                    engine.set_params(params);
                    let mine = items.iter().enumerate().skip(t).step_by(THREADS);
                    mine.map(|(i, item)| (i, f(&mut engine, item))).collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a search thread panicked")).collect()
    });
    let mut all: Vec<(usize, R)> = parts.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}
