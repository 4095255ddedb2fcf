//! The 15×15 classroom program this project grew from, rebuilt as a sparring partner.
//!
//! The engine's first strength target was to win every game against the classroom program,
//! and that program was not at hand, so this module plays the way its lab report describes
//! it, with nothing of mnk's own search:
//!
//! * **evaluation:** pattern scores per line. Each row, column and diagonal is matched
//!   against the templates of [`PATTERNS`] (fives, live and dead fours, threes and twos,
//!   broken ones included) for each side; the score is the side to move's sum minus the
//!   opponent's;
//! * **search:** α-β (negamax) to depth [`DEPTH`] over the empty cells within one step of a
//!   stone (in any of the eight directions), full width;
//! * **move order:** moves sorted by a point evaluation, highest first: how much a stone on
//!   the cell raises the side to move's line scores plus how much one would raise the
//!   opponent's (attack plus defence); ties by cell index;
//! * **an immediate four check** at every node: a side that can make five does so, and a side
//!   facing the opponent's four only blocks it;
//! * **a hash map of evaluations.** The original cached leaf evaluations by position; here the
//!   scores of line contents are cached (an `ahash` map keyed by the line's length and
//!   stones) and the position's total is kept incrementally, which gives the same values
//!   faster.
//!
//! It has no transposition table, no threat search and no clock: it always searches to its
//! depth (a stop request ends the search with the best root move found so far). Under every
//! rule it plays legal moves (black's forbidden points are never candidates under renju) and
//! the board's rule decides wins, but its patterns are freestyle's. The templates are for
//! five in a row: on 3×3 it is a plain depth-6 α-β that sees only wins.

use std::collections::HashMap;
use std::time::Instant;

use ahash::RandomState;
use arrayvec::ArrayVec;

use crate::board::Board;
use crate::color::Color;
use crate::geometry::{Cell, Direction, Geometry};
use crate::limits::Stop;
use crate::outcome::Outcome;
use crate::report::{PvLine, SearchResult};
use crate::score::{MAX_EVAL, Score, loss_in, win_in};
use crate::storage::Storage;

/// Search depth in plies (the classroom program's fixed depth).
pub const DEPTH: u32 = 6;

/// Score of a five in a line.
const FIVE: i32 = 1_000_000;
/// Four with both ends open (`.xxxx.`): wins next move.
const LIVE_FOUR: i32 = 100_000;
/// Four with one way to five.
const DEAD_FOUR: i32 = 10_000;
/// Three that can become a live four.
const LIVE_THREE: i32 = 10_000;
/// Three that can become only a dead four.
const DEAD_THREE: i32 = 1_000;
/// Two that can become a live three.
const LIVE_TWO: i32 = 1_000;
/// Two that can become only a dead three.
const DEAD_TWO: i32 = 100;

/// The line templates and their scores, from one side's point of view: `x` is its stone,
/// `o` an opponent stone or the board's edge, `.` an empty cell. Every occurrence in a line
/// counts, overlapping ones too.
pub const PATTERNS: &[(&[u8], i32)] = &[
    (b"xxxxx", FIVE),
    (b".xxxx.", LIVE_FOUR),
    (b"oxxxx.", DEAD_FOUR),
    (b".xxxxo", DEAD_FOUR),
    (b"x.xxx", DEAD_FOUR),
    (b"xxx.x", DEAD_FOUR),
    (b"xx.xx", DEAD_FOUR),
    (b".xxx.", LIVE_THREE),
    (b".x.xx.", LIVE_THREE),
    (b".xx.x.", LIVE_THREE),
    (b"oxxx..", DEAD_THREE),
    (b"..xxxo", DEAD_THREE),
    (b"ox.xx.", DEAD_THREE),
    (b".xx.xo", DEAD_THREE),
    (b"oxx.x.", DEAD_THREE),
    (b".x.xxo", DEAD_THREE),
    (b"x..xx", DEAD_THREE),
    (b"xx..x", DEAD_THREE),
    (b"x.x.x", DEAD_THREE),
    (b"..xx..", LIVE_TWO),
    (b"..x.x..", LIVE_TWO),
    (b".x..x.", LIVE_TWO),
    (b"oxx...", DEAD_TWO),
    (b"...xxo", DEAD_TWO),
    (b"ox.x..", DEAD_TWO),
    (b"..x.xo", DEAD_TWO),
    (b"ox..x.", DEAD_TWO),
    (b".x..xo", DEAD_TWO),
    (b"x...x", DEAD_TWO),
];

/// Internal score of winning now; a win at ply n scores `WIN − n`.
const WIN: i32 = 1_000_000_000;
/// Scores beyond this are wins or losses.
const WIN_BOUND: i32 = WIN - 1_000;
/// Nodes between two looks at the stop flag.
const STOP_CHECK_NODES: u64 = 1 << 12;

/// Cells per line at most (the 22×22 side).
const MAX_LINE: usize = 22;

/// The score of `line` (at most 22 cells: 0 empty, 1 black, 2 white) for `color`, by matching
/// every template of [`PATTERNS`] at every offset: the slow, direct definition.
pub fn line_score(line: &[u8], color: Color) -> i32 {
    let own = color.index() as u8 + 1;
    let mut text: ArrayVec<u8, { MAX_LINE + 2 }> = ArrayVec::new();
    text.push(b'o');
    text.extend(line.iter().map(|&c| match c {
        0 => b'.',
        c if c == own => b'x',
        _ => b'o',
    }));
    text.push(b'o');
    PATTERNS
        .iter()
        .map(|(pattern, score)| {
            let hits = text.windows(pattern.len()).filter(|w| w == pattern).count();
            hits as i32 * score
        })
        .sum()
}

/// The board's rows, columns and diagonals that can hold `k` in a row, each as its cells in
/// order.
fn board_lines(g: Geometry) -> Vec<ArrayVec<Cell, MAX_LINE>> {
    g.whole_lines()
        .filter(|(_, cells)| cells.len() >= g.k())
        .map(|(_, cells)| cells.into_iter().collect())
        .collect()
}

/// The classroom player's state during one search.
struct Classroom<'a, B: Storage> {
    board: Board<B>,
    lines: Vec<ArrayVec<Cell, MAX_LINE>>,
    /// Per cell index: (line, position in it) of each line through the cell.
    through: Vec<ArrayVec<(u16, u8), 4>>,
    /// Per line: its contents, two bits per cell (0 empty, 1 black, 2 white), first cell
    /// lowest.
    codes: Vec<u64>,
    /// Per line: its scores (black's, white's) for its current contents.
    current: Vec<[i32; 2]>,
    /// Per colour: the sum of its line scores over the board.
    totals: [i32; 2],
    /// Line scores (black's, white's) by (line length, contents).
    cache: HashMap<(u8, u64), [i32; 2], RandomState>,
    nodes: u64,
    stop: &'a Stop,
    stopped: bool,
}

impl<'a, B: Storage> Classroom<'a, B> {
    fn new(board: &Board<B>, stop: &'a Stop) -> Self {
        let g = board.geometry();
        let lines = board_lines(g);
        let mut through = vec![ArrayVec::new(); g.slots()];
        for (i, line) in lines.iter().enumerate() {
            for (pos, cell) in line.iter().enumerate() {
                through[cell.index()].push((i as u16, pos as u8));
            }
        }
        let codes = lines
            .iter()
            .map(|line| {
                line.iter().enumerate().fold(0, |code, (pos, &cell)| {
                    let stone = board.stone_at(cell).map_or(0, |c| c.index() as u64 + 1);
                    code | stone << (2 * pos)
                })
            })
            .collect();
        let mut player = Classroom {
            board: board.clone(),
            lines,
            through,
            codes,
            current: Vec::new(),
            totals: [0; 2],
            // Fixed seeds: the map's order never matters, and runs repeat exactly.
            cache: HashMap::with_hasher(RandomState::with_seeds(1, 2, 3, 4)),
            nodes: 0,
            stop,
            stopped: false,
        };
        player.current =
            (0..player.lines.len()).map(|l| player.scores(l, player.codes[l])).collect();
        for scores in &player.current {
            player.totals[0] += scores[0];
            player.totals[1] += scores[1];
        }
        player
    }

    /// Black's and white's scores of `line` holding `code`.
    fn scores(&mut self, line: usize, code: u64) -> [i32; 2] {
        let len = self.lines[line].len();
        *self.cache.entry((len as u8, code)).or_insert_with(|| {
            let cells: ArrayVec<u8, MAX_LINE> =
                (0..len).map(|pos| (code >> (2 * pos) & 3) as u8).collect();
            [line_score(&cells, Color::Black), line_score(&cells, Color::White)]
        })
    }

    /// Puts (`stone` = 1 or 2) or removes (0) a stone in the line codes and totals.
    fn set(&mut self, cell: Cell, stone: u64) {
        for i in 0..self.through[cell.index()].len() {
            let (line, pos) = self.through[cell.index()][i];
            let (line, shift) = (usize::from(line), 2 * u32::from(pos));
            let new = self.codes[line] & !(3 << shift) | stone << shift;
            let (before, after) = (self.current[line], self.scores(line, new));
            self.codes[line] = new;
            self.current[line] = after;
            for c in 0..2 {
                self.totals[c] += after[c] - before[c];
            }
        }
    }

    fn play(&mut self, cell: Cell) -> Outcome {
        let stone = self.board.side_to_move().index() as u64 + 1;
        self.set(cell, stone);
        self.board.play_unchecked(cell)
    }

    fn undo(&mut self) {
        let cell = self.board.undo_unchecked();
        self.set(cell, 0);
    }

    /// The side to move's evaluation.
    fn evaluate(&self) -> i32 {
        let us = self.board.side_to_move().index();
        self.totals[us] - self.totals[1 - us]
    }

    /// The point evaluation of the empty `cell` for `us`: how much a stone of ours there
    /// raises our line scores (attack) plus how much one of the opponent's would raise its
    /// (defence).
    fn point_value(&mut self, cell: Cell, us: Color) -> i32 {
        let mut value = 0;
        for i in 0..self.through[cell.index()].len() {
            let (line, pos) = self.through[cell.index()][i];
            let (line, shift) = (usize::from(line), 2 * u32::from(pos));
            for color in [us, us.opponent()] {
                let stone = color.index() as u64 + 1;
                let after = self.scores(line, self.codes[line] | stone << shift);
                value += after[color.index()] - self.current[line][color.index()];
            }
        }
        value
    }

    /// The moves to search, best first: the blocks when the opponent has a four, else the
    /// legal cells next to a stone (the centre on an empty board).
    fn ordered_moves(&mut self) -> Vec<Cell> {
        let g = self.board.geometry();
        let us = self.board.side_to_move();
        let occupied = self.board.occupied();
        let threats = self.board.winning_cells(us.opponent());
        let mut moves = if !threats.is_empty() {
            threats
        } else if occupied.is_empty() {
            B::from_cell(g.cell(g.width() / 2, g.height() / 2).expect("the centre is on the board"))
        } else {
            let mut near = B::EMPTY;
            for dir in Direction::ALL {
                near |= occupied.shift(dir, 1) | occupied.shift(dir, -1);
            }
            near & self.board.empty_cells()
        };
        moves = self.board.without_forbidden(moves);
        let mut scored: Vec<(i32, Cell)> =
            moves.iter().map(|c| (self.point_value(c, us), c)).collect();
        // Highest first; ties by cell index (the sort is stable over increasing cells).
        scored.sort_by_key(|&(value, _)| std::cmp::Reverse(value));
        scored.into_iter().map(|(_, c)| c).collect()
    }

    /// Whether the search must end now (a stop request).
    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(STOP_CHECK_NODES) {
            self.stopped = self.stop.is_due();
        }
        self.stopped
    }

    /// Negamax α-β: the side to move's score with `depth` plies left, `ply` from the root.
    fn negamax(&mut self, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let us = self.board.side_to_move();
        if !self.board.winning_cells(us).is_empty() {
            return WIN - ply - 1;
        }
        if depth == 0 {
            return self.evaluate();
        }
        let moves = self.ordered_moves();
        if moves.is_empty() {
            // A full board, or every block forbidden (black under renju).
            return if self.board.empty_cells().is_empty() { 0 } else { -(WIN - ply - 2) };
        }
        let mut best = -WIN;
        for cell in moves {
            let score = match self.play(cell) {
                Outcome::Win(_) => WIN - ply - 1,
                Outcome::Draw => 0,
                Outcome::Ongoing => -self.negamax(depth - 1, -beta, -alpha, ply + 1),
            };
            self.undo();
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The root: the best move and its score.
    fn root(&mut self, depth: u32) -> Option<(Cell, i32)> {
        let us = self.board.side_to_move();
        if let Some(win) = self.board.winning_cells(us).iter().next() {
            return Some((win, WIN - 1));
        }
        let mut moves = self.ordered_moves();
        if moves.is_empty() {
            // Every block is forbidden (black under renju): any legal move loses alike.
            moves = self.board.legal_moves().iter().take(1).collect();
        }
        let mut best: Option<(Cell, i32)> = None;
        let mut alpha = -WIN;
        for cell in moves {
            let score = match self.play(cell) {
                Outcome::Win(_) => WIN - 1,
                Outcome::Draw => 0,
                Outcome::Ongoing => -self.negamax(depth.saturating_sub(1), -WIN, -alpha, 1),
            };
            self.undo();
            if self.stopped && best.is_some() {
                break;
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((cell, score));
                alpha = alpha.max(score);
            }
        }
        best
    }
}

/// Chooses a move for the side to move the classroom program's way (see the module docs),
/// searching `depth` plies ([`DEPTH`] for the original). `stop` ends the search early with
/// the best root move found so far. The result's score is in the program's own units
/// (clamped into the engine's evaluation range) or a win or loss in plies.
pub fn search<B: Storage>(board: &Board<B>, depth: u32, stop: &Stop) -> SearchResult {
    let started = Instant::now();
    let mut player = Classroom::new(board, stop);
    let best = if board.outcome().is_decided() { None } else { player.root(depth.max(1)) };
    SearchResult {
        best_move: best.map(|(c, _)| c),
        depth,
        seldepth: depth,
        nodes: player.nodes,
        time: started.elapsed(),
        lines: best
            .map(|(cell, score)| PvLine { depth, score: to_score(score), pv: vec![cell] })
            .into_iter()
            .collect(),
        proven: false,
        stopped: player.stopped,
        vcf_nodes: 0,
        root_threat_time: Default::default(),
        check_time: Default::default(),
    }
}

/// The engine's score for an internal one.
fn to_score(score: i32) -> Score {
    if score > WIN_BOUND {
        win_in((WIN - score) as usize)
    } else if score < -WIN_BOUND {
        loss_in((WIN + score) as usize)
    } else {
        score.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nothing stops the searches of the tests.
    static NOTHING: Stop = Stop { deadline: None, flag: None };
    use crate::bitboard::Bitboard;
    use crate::bitboard::Bits256;
    use crate::rng::SplitMix64;
    use crate::rules::Rule;
    use crate::score::mate_plies;

    /// A line from a picture: `X` black, `O` white, `.` empty.
    fn line(picture: &str) -> Vec<u8> {
        picture
            .bytes()
            .map(|b| match b {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect()
    }

    fn board(rule: Rule, moves: &str) -> Board<Bits256> {
        Board::from_notation(rule, moves).expect("a legal position")
    }

    fn played(rule: Rule, moves: &str, depth: u32) -> (String, Score) {
        let result = search(&board(rule, moves), depth, &Stop::default());
        let cell = result.best_move.expect("a move");
        (Bits256::GEOMETRY.format_pos(cell), result.score())
    }

    #[test]
    fn line_scores_follow_the_templates() {
        // Each picture holds exactly one template occurrence for black.
        let cases = [
            ("....XXXXX......", FIVE),
            ("....XXXX.......", LIVE_FOUR),
            ("XXXX...........", DEAD_FOUR), // the edge blocks it: "oxxxx."
            ("....XX.XX......", DEAD_FOUR),
            ("....XXX........", LIVE_THREE),
            ("...OXXX........", DEAD_THREE),
            ("...............", 0),
            ("....X..........", 0),
        ];
        for (picture, score) in cases {
            assert_eq!(line_score(&line(picture), Color::Black), score, "{picture}");
        }
        // The colours' views are mirror images.
        let swapped = "...XOOO........";
        assert_eq!(line_score(&line(swapped), Color::White), DEAD_THREE);
        assert_eq!(line_score(&line(swapped), Color::Black), 0);
    }

    #[test]
    fn the_incremental_totals_match_a_recount_after_random_games() {
        let mut rng = SplitMix64::new(5);
        for game in 0..20 {
            let start = board(Rule::Freestyle, "");
            let mut player = Classroom::new(&start, &NOTHING);
            for _ in 0..60 {
                let moves: Vec<Cell> = player.board.legal_moves().iter().collect();
                if moves.is_empty() {
                    break;
                }
                let cell = moves[rng.below(moves.len())];
                if player.play(cell).is_decided() {
                    player.undo();
                    break;
                }
                // Now and then take a move back, so undo is checked too.
                if rng.below(4) == 0 {
                    player.undo();
                }
            }
            let recount = Classroom::new(&player.board, &NOTHING);
            assert_eq!(player.codes, recount.codes, "game {game}");
            assert_eq!(player.totals, recount.totals, "game {game}");
            assert_eq!(player.current, recount.current, "game {game}");
            for i in 0..player.lines.len() {
                let contents: Vec<u8> = player.lines[i]
                    .iter()
                    .map(|&c| player.board.stone_at(c).map_or(0, |s| s.index() as u8 + 1))
                    .collect();
                let direct =
                    [line_score(&contents, Color::Black), line_score(&contents, Color::White)];
                assert_eq!(player.scores(i, player.codes[i]), direct, "game {game}, line {i}");
            }
        }
    }

    #[test]
    fn every_cell_lies_on_its_four_lines_where_they_hold_five() {
        let lines = board_lines(Bits256::GEOMETRY);
        // 15 rows, 15 columns and 2 × 21 diagonals of five cells or more.
        assert_eq!(lines.len(), 72);
        let start = board(Rule::Freestyle, "");
        let player = Classroom::new(&start, &NOTHING);
        let g = Bits256::GEOMETRY;
        assert_eq!(player.through[g.cell(7, 7).unwrap().index()].len(), 4);
        // A corner's diagonal is too short to hold five; its row and column remain.
        assert_eq!(player.through[g.cell(0, 0).unwrap().index()].len(), 3);
        assert_eq!(player.through[g.cell(14, 0).unwrap().index()].len(), 3);
    }

    #[test]
    fn it_wins_at_once_blocks_a_four_and_finds_a_short_forced_win() {
        // Black (to move) has four in row 8: it completes five.
        let (cell, score) = played(Rule::Freestyle, "d8,d1,e8,e1,f8,f1,g8,a1", DEPTH);
        assert!(cell == "c8" || cell == "h8", "{cell}");
        assert_eq!(mate_plies(score), Some(1));
        // White to move faces black's four d8–g8 (c8 is white's): it blocks at h8.
        let (cell, _) = played(Rule::Freestyle, "d8,c8,e8,d1,f8,e1,g8", DEPTH);
        assert_eq!(cell, "h8");
        // Black's open three e8–g8 becomes an open four: a win at ply 3.
        let (cell, score) = played(Rule::Freestyle, "e8,e1,f8,f1,g8,a1", DEPTH);
        assert!(cell == "d8" || cell == "h8", "{cell}");
        assert_eq!(mate_plies(score), Some(3));
    }

    #[test]
    fn a_stop_request_still_gives_a_legal_move() {
        let flag = crate::limits::StopFlag::new();
        flag.raise();
        let stop = Stop::on(flag);
        let position = board(Rule::Freestyle, "h8,i9,g7");
        let result = search(&position, DEPTH, &stop);
        assert!(result.stopped);
        assert!(position.legal_moves().contains(result.best_move.expect("a move")));
    }
}
