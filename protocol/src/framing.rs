//! Framing: raw input lines → frames (one command line, or a whole `BOARD`…`DONE` block).
//!
//! Lenient on input: a trailing `\r` and surrounding spaces are stripped, blank lines are
//! ignored, command words are matched case-insensitively. `BOARD`, `YXBOARD`, `SWAP2BOARD`,
//! `YXBLOCK` and `YXBLOCKUNDO` open a block that collects lines until `DONE`; an `END` inside a block abandons the block
//! (so the engine still exits when the manager quits).

/// Longest line kept, in bytes; the rest of a longer line is dropped and the line is
/// reported as too long.
pub const MAX_LINE_BYTES: usize = 4096;
/// Most lines a block may hold (a 15×15 board has 225 cells).
pub const MAX_BLOCK_LINES: usize = 1024;

/// The kinds of multi-line blocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// `BOARD`: replace the position, then move.
    Board,
    /// `YXBOARD`: replace the position, do not move.
    YxBoard,
    /// `SWAP2BOARD`: an opening negotiation.
    Swap2Board,
    /// `YXBLOCK`: root moves the search must not play.
    YxBlock,
    /// `YXBLOCKUNDO`: root moves the search may play again.
    YxBlockUndo,
}

impl BlockKind {
    /// The command word as the protocol writes it.
    pub fn word(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }
}

/// One framed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A single command line (trimmed).
    Line(String),
    /// A block and its body lines (trimmed, blank lines dropped), or `None` if the block was
    /// too long.
    Block(BlockKind, Option<Vec<String>>),
}

/// Accumulates lines into frames.
#[derive(Debug, Default)]
pub struct Framer {
    open: Option<(BlockKind, Vec<String>, bool)>,
}

impl Framer {
    /// A framer outside any block.
    pub fn new() -> Framer {
        Framer::default()
    }

    /// Feeds one input line; returns a frame when one is complete.
    pub fn push(&mut self, raw: &str) -> Option<Frame> {
        let line = raw.trim_end_matches(['\r', '\n']).trim();
        if line.is_empty() {
            return None;
        }
        if let Some((kind, lines, overflow)) = &mut self.open {
            if line.eq_ignore_ascii_case("DONE") {
                let (kind, lines, overflow) = (*kind, std::mem::take(lines), *overflow);
                self.open = None;
                return Some(Frame::Block(kind, (!overflow).then_some(lines)));
            }
            if line.eq_ignore_ascii_case("END") {
                self.open = None;
                return Some(Frame::Line(line.to_string()));
            }
            if lines.len() < MAX_BLOCK_LINES {
                lines.push(line.to_string());
            } else {
                *overflow = true;
            }
            return None;
        }
        let kind = match line.to_ascii_uppercase().as_str() {
            "BOARD" => Some(BlockKind::Board),
            "YXBOARD" => Some(BlockKind::YxBoard),
            "SWAP2BOARD" => Some(BlockKind::Swap2Board),
            "YXBLOCK" => Some(BlockKind::YxBlock),
            "YXBLOCKUNDO" => Some(BlockKind::YxBlockUndo),
            _ => None,
        };
        match kind {
            Some(kind) => {
                self.open = Some((kind, Vec::new(), false));
                None
            }
            None => Some(Frame::Line(line.to_string())),
        }
    }

    /// Whether a block is open (waiting for `DONE`).
    pub fn in_block(&self) -> bool {
        self.open.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[&str]) -> Vec<Frame> {
        let mut framer = Framer::new();
        input.iter().filter_map(|l| framer.push(l)).collect()
    }

    #[test]
    fn lines_are_trimmed_and_blank_lines_dropped() {
        assert_eq!(
            frames(&["  START 15\r", "", "\r", "turn 7,7"]),
            vec![Frame::Line("START 15".into()), Frame::Line("turn 7,7".into())]
        );
    }

    #[test]
    fn blocks_collect_until_done_in_any_case() {
        assert_eq!(
            frames(&["board", "7,7,1\r", "", "8,8,2", "done", "ABOUT"]),
            vec![
                Frame::Block(BlockKind::Board, Some(vec!["7,7,1".into(), "8,8,2".into()])),
                Frame::Line("ABOUT".into())
            ]
        );
        assert_eq!(
            frames(&["YXBOARD", "DONE"]),
            vec![Frame::Block(BlockKind::YxBoard, Some(vec![]))]
        );
    }

    #[test]
    fn end_inside_a_block_still_ends() {
        let mut framer = Framer::new();
        assert_eq!(framer.push("SWAP2BOARD"), None);
        assert!(framer.in_block());
        assert_eq!(framer.push("end"), Some(Frame::Line("end".into())));
        assert!(!framer.in_block());
    }

    #[test]
    fn overlong_blocks_are_flagged() {
        let mut framer = Framer::new();
        framer.push("BOARD");
        for _ in 0..MAX_BLOCK_LINES + 5 {
            framer.push("1,1,1");
        }
        assert_eq!(framer.push("DONE"), Some(Frame::Block(BlockKind::Board, None)));
    }
}
