//! Yixin-Board's analysis dialect beyond the moves: what the engine supports
//! (`YXSHOWINFO`) and emptying the table (`YXHASHCLEAR`).

use mnk_engine::rules::Rule;
use mnk_engine::search::MAX_THREADS;
use mnk_engine::size::BoardSize;
use mnk_engine::tt;

use super::Session;
use crate::response::{ABOUT, Response};

impl Session {
    /// `YXSHOWINFO`: `MESSAGE` lines that tell a GUI what mnk supports — its name and
    /// version, the most threads, the largest table (as Yixin-Board reads it: log2 of its
    /// size in KB), the rules (their `INFO rule` codes) and the board sizes.
    pub(super) fn show_info(&self) -> Vec<Response> {
        let rules: Vec<String> = Rule::ALL
            .iter()
            .flat_map(|&rule| (0..16).filter(move |&code| Rule::from_protocol(code) == Some(rule)))
            .map(|code| code.to_string())
            .collect();
        let sizes: Vec<String> =
            BoardSize::ALL.iter().map(|size| size.side().to_string()).collect();
        let max_hash_log2_kb = (tt::MAX_BYTES / 1024).ilog2();
        [
            ABOUT.to_string(),
            format!("INFO MAX_THREAD_NUM {MAX_THREADS}"),
            format!("INFO MAX_HASH_SIZE {max_hash_log2_kb}"),
            format!("INFO RULES {}", rules.join(" ")),
            format!("INFO BOARD_SIZES {}", sizes.join(" ")),
        ]
        .into_iter()
        .map(Response::Message)
        .collect()
    }

    /// `YXHASHCLEAR`: the transposition table emptied, so the next search learns nothing from
    /// the ones before.
    pub(super) fn clear_hash(&mut self) -> Response {
        if let Some(table) = &mut self.tt {
            table.clear();
        }
        Response::Message("transposition table cleared".to_string())
    }
}
