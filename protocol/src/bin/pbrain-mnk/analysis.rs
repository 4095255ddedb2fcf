//! A position's analysis as the front ends show it (`pbrain-mnk analyze`, the web board):
//! the engine's best lines with their scores, depths and principal variations in pos
//! notation, and each score read as a win chance.
//!
//! The values serialise to JSON as they are (`analyze --json`, the web board's routes), so a
//! script and the page read the same fields.

use std::time::Duration;

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::format_pos;
use mnk_engine::report::{SearchInfo, SearchResult};
use mnk_engine::score::{Score, format_score, is_decisive, mate_plies};
use serde::Serialize;

/// The evaluation's scale in the win chance `σ(score / SCALE)`: the scale the evaluation's
/// tables are trained at (`engine/examples/train_eval.rs`), so 600 reads as about 73 %.
pub(crate) const WIN_CHANCE_SCALE: f64 = 600.0;

/// The chance the side to move wins, read off `score`: 1 or 0 for a proven win or loss,
/// else `σ(score / WIN_CHANCE_SCALE)`.
pub(crate) fn win_chance(score: Score) -> f64 {
    match mate_plies(score) {
        Some(n) if n > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(score) / WIN_CHANCE_SCALE).exp()),
    }
}

/// One of the best lines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Line {
    /// 1 for the best line.
    pub rank: usize,
    /// The line's first move, in pos notation (`h8`).
    #[serde(rename = "move")]
    pub first: String,
    /// The score for the side to move, in the engine's units.
    pub score: Score,
    /// The score as people read it: `+M5` (win at ply 5), `-M4`, or the number.
    pub score_text: String,
    /// Whether the score is a proven win or loss.
    pub decisive: bool,
    /// The side to move's win chance, from 0 to 1 (see [`win_chance`]).
    pub win_chance: f64,
    /// The depth the line was searched to, in plies.
    pub depth: u32,
    /// The principal variation, from the line's first move, in pos notation.
    pub pv: Vec<String>,
}

/// The result of analysing one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Analysis {
    /// The best lines, best first (none on a decided board).
    pub lines: Vec<Line>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched (the threat solver's included).
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
    /// Whether the score is the position's proven value (small boards searched to the end).
    pub proven: bool,
}

impl Analysis {
    /// The analysis a search gave for `game`.
    pub(crate) fn of(game: &Game, result: &SearchResult) -> Analysis {
        let lines = result
            .lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let pv: Vec<String> = line.pv.iter().map(|&c| format_pos(game.point(c))).collect();
                Line {
                    rank: i + 1,
                    first: pv.first().cloned().unwrap_or_default(),
                    score: line.score,
                    score_text: format_score(line.score),
                    decisive: is_decisive(line.score),
                    win_chance: win_chance(line.score),
                    depth: line.depth,
                    pv,
                }
            })
            .filter(|line| !line.pv.is_empty())
            .collect();
        Analysis {
            lines,
            depth: result.depth,
            nodes: result.nodes + result.vcf_nodes,
            time_ms: duration_ms(result.time),
            proven: result.proven,
        }
    }
}

/// Analyses `game` within `limits` for its `nbest` best lines (at least one), each completed
/// iteration reported to `on_info`.
pub(crate) fn analyse(
    engine: &mut Engine,
    game: &Game,
    limits: Limits,
    nbest: usize,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Analysis {
    let result = if nbest <= 1 {
        engine.go(game, limits, on_info)
    } else {
        engine.go_nbest(game, limits, nbest, on_info)
    };
    Analysis::of(game, &result)
}

/// Whole milliseconds of `time`.
pub(crate) fn duration_ms(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use mnk_engine::score::{loss_in, win_in};

    use super::*;

    #[test]
    fn a_score_reads_as_a_win_chance_and_a_proof_as_certainty() {
        assert_eq!(win_chance(0), 0.5);
        assert_eq!((win_chance(win_in(5)), win_chance(loss_in(4))), (1.0, 0.0));
        assert!(win_chance(600) > 0.73 && win_chance(600) < 0.74);
    }
}
