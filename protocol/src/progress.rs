//! Typed progress: what mnk reports on `MESSAGE` lines while it thinks and with its
//! answers — an iteration of the search, an answer's summary, a line of `YXNBEST` — made
//! from the engine's values, formatted in one place and parsed back (by a manager reading
//! mnk's progress, and by the tests).
//!
//! ```text
//! depth 12-19 ev 134 n 1520k n/ms 610 tm 2490 pv h8 i9 j10        an iteration
//! depth 9-14 multipv 2 ev 80 n 310k n/ms 540 tm 574 pv i9 h8      a line of a multi-PV one
//! answer depth 11 ev 34 n 412k tm 187                              the answer's summary
//! nbest 2/3 depth 9 ev 134 pv h8 i9 j10                            a YXNBEST line
//! ```
//!
//! Scores are the side to move's, mate scores as `+M5`/`-M4` ([`format_score`]); node
//! counts in thousands, speeds in nodes a millisecond, times in milliseconds; moves in pos
//! notation (`h8`: column letter, then row from 1), the Rapfi/Embryo convention GUIs read.

use std::fmt;
use std::str::FromStr;

use mnk_engine::game::Game;
use mnk_engine::notation::{Point, format_pos, parse_moves};
use mnk_engine::report::{PvLine, SearchInfo, SearchResult};
use mnk_engine::score::{Score, format_score, parse_score};

/// One progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A completed iteration (or line of a multi-PV iteration).
    Iteration(Iteration),
    /// The summary sent just before an answer.
    Answer(AnswerSummary),
    /// One of the lines of a `YXNBEST` answer.
    NBest(NBestLine),
}

/// A completed iteration: `depth D-S [multipv K] ev E n Nk n/ms R tm T pv ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line of a multi-PV search this is (1 = the best); `None` for one line.
    pub multipv: Option<usize>,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes so far, in thousands.
    pub kilonodes: u64,
    /// Nodes a millisecond.
    pub nodes_per_ms: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<Point>,
}

/// The summary before an answer: `answer depth D ev E n Nk tm T`, `tm` the milliseconds
/// from the command coming in to the answer, by the engine's own clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerSummary {
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Score of the move answered, for the side to move.
    pub score: Score,
    /// Nodes of the search, in thousands.
    pub kilonodes: u64,
    /// Milliseconds from the command to the answer.
    pub time_ms: u64,
}

/// A line of a `YXNBEST` answer: `nbest K/N depth D ev E pv ...` (line K of the N asked
/// for, from the iteration of depth D).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NBestLine {
    /// Which line, from 1.
    pub index: usize,
    /// How many were asked for.
    pub asked: usize,
    /// Depth of the iteration that found it.
    pub depth: u32,
    /// Its score for the side to move.
    pub score: Score,
    /// Its principal variation, the root move first.
    pub pv: Vec<Point>,
}

/// Milliseconds, saturating.
fn millis(time: std::time::Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

impl Progress {
    /// The report of a completed iteration of a search of `game`.
    pub fn iteration(info: &SearchInfo, game: &Game) -> Progress {
        Progress::Iteration(Iteration {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.line,
            score: info.score,
            kilonodes: info.nodes / 1000,
            nodes_per_ms: info.nps / 1000,
            time_ms: millis(info.time),
            pv: info.pv.iter().map(|&cell| game.point(cell)).collect(),
        })
    }

    /// The summary of `result` answered `answer_ms` after the command came in.
    pub fn answer(result: &SearchResult, answer_ms: u64) -> Progress {
        Progress::Answer(AnswerSummary {
            depth: result.depth,
            score: result.score(),
            kilonodes: result.nodes / 1000,
            time_ms: answer_ms,
        })
    }

    /// Line `index` (from 1) of the `asked` a `YXNBEST` search of `game` found.
    pub fn nbest(index: usize, asked: usize, line: &PvLine, game: &Game) -> Progress {
        Progress::NBest(NBestLine {
            index,
            asked,
            depth: line.depth,
            score: line.score,
            pv: line.pv.iter().map(|&cell| game.point(cell)).collect(),
        })
    }
}

/// `pv` in pos notation, space separated.
fn write_pv(f: &mut fmt::Formatter<'_>, pv: &[Point]) -> fmt::Result {
    f.write_str("pv")?;
    for &point in pv {
        write!(f, " {}", format_pos(point))?;
    }
    Ok(())
}

impl fmt::Display for Progress {
    /// The text of the `MESSAGE` line, without the word `MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Iteration(i) => {
                write!(f, "depth {}-{}", i.depth, i.seldepth)?;
                if let Some(k) = i.multipv {
                    write!(f, " multipv {k}")?;
                }
                write!(
                    f,
                    " ev {} n {}k n/ms {} tm {} ",
                    format_score(i.score),
                    i.kilonodes,
                    i.nodes_per_ms,
                    i.time_ms
                )?;
                write_pv(f, &i.pv)
            }
            Progress::Answer(a) => write!(
                f,
                "answer depth {} ev {} n {}k tm {}",
                a.depth,
                format_score(a.score),
                a.kilonodes,
                a.time_ms
            ),
            Progress::NBest(n) => {
                write!(
                    f,
                    "nbest {}/{} depth {} ev {} ",
                    n.index,
                    n.asked,
                    n.depth,
                    format_score(n.score)
                )?;
                write_pv(f, &n.pv)
            }
        }
    }
}

/// A `MESSAGE` text that is not a progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotProgress;

impl fmt::Display for NotProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a progress report")
    }
}

impl std::error::Error for NotProgress {}

/// The words of a report, read one by one.
struct Words<'a>(std::str::SplitAsciiWhitespace<'a>);

impl<'a> Words<'a> {
    fn next(&mut self) -> Result<&'a str, NotProgress> {
        self.0.next().ok_or(NotProgress)
    }

    /// The next word, which must be `word`.
    fn expect(&mut self, word: &str) -> Result<(), NotProgress> {
        (self.next()? == word).then_some(()).ok_or(NotProgress)
    }

    /// The value after the word `key`, parsed.
    fn value<T: FromStr>(&mut self, key: &str) -> Result<T, NotProgress> {
        self.expect(key)?;
        self.next()?.parse().map_err(|_| NotProgress)
    }

    /// The score after `ev`.
    fn score(&mut self) -> Result<Score, NotProgress> {
        self.expect("ev")?;
        parse_score(self.next()?).ok_or(NotProgress)
    }

    /// The thousands of nodes after `n` (`412k`).
    fn kilonodes(&mut self) -> Result<u64, NotProgress> {
        self.expect("n")?;
        self.next()?.strip_suffix('k').and_then(|n| n.parse().ok()).ok_or(NotProgress)
    }

    /// The moves after `pv`, to the end.
    fn pv(&mut self) -> Result<Vec<Point>, NotProgress> {
        self.expect("pv")?;
        let rest: Vec<&str> = self.0.by_ref().collect();
        // (Each move is one word: a list of several moves in one word is not a pv.)
        let pv = parse_moves(&rest.join(" ")).map_err(|_| NotProgress)?;
        (pv.len() == rest.len()).then_some(pv).ok_or(NotProgress)
    }

    /// Nothing is left.
    fn end(mut self) -> Result<(), NotProgress> {
        self.0.next().map_or(Ok(()), |_| Err(NotProgress))
    }
}

impl FromStr for Progress {
    type Err = NotProgress;

    /// The report a `MESSAGE` text (without the word `MESSAGE`) is, if it is one.
    fn from_str(text: &str) -> Result<Progress, NotProgress> {
        let mut words = Words(text.split_ascii_whitespace());
        match words.next()? {
            "depth" => {
                let (depth, seldepth) = words.next()?.split_once('-').ok_or(NotProgress)?;
                let (depth, seldepth) = (
                    depth.parse().map_err(|_| NotProgress)?,
                    seldepth.parse().map_err(|_| NotProgress)?,
                );
                let mut multipv = None;
                let mut key = words.next()?;
                if key == "multipv" {
                    multipv = Some(words.next()?.parse().map_err(|_| NotProgress)?);
                    key = words.next()?;
                }
                if key != "ev" {
                    return Err(NotProgress);
                }
                let score = parse_score(words.next()?).ok_or(NotProgress)?;
                let kilonodes = words.kilonodes()?;
                let nodes_per_ms = words.value("n/ms")?;
                let time_ms = words.value("tm")?;
                let pv = words.pv()?;
                let iteration = Iteration {
                    depth,
                    seldepth,
                    multipv,
                    score,
                    kilonodes,
                    nodes_per_ms,
                    time_ms,
                    pv,
                };
                Ok(Progress::Iteration(iteration))
            }
            "answer" => {
                let depth = words.value("depth")?;
                let score = words.score()?;
                let kilonodes = words.kilonodes()?;
                let time_ms = words.value("tm")?;
                words.end()?;
                Ok(Progress::Answer(AnswerSummary { depth, score, kilonodes, time_ms }))
            }
            "nbest" => {
                let (index, asked) = words.next()?.split_once('/').ok_or(NotProgress)?;
                let (index, asked) = (
                    index.parse().map_err(|_| NotProgress)?,
                    asked.parse().map_err(|_| NotProgress)?,
                );
                let depth = words.value("depth")?;
                let score = words.score()?;
                let pv = words.pv()?;
                Ok(Progress::NBest(NBestLine { index, asked, depth, score, pv }))
            }
            _ => Err(NotProgress),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::score::{loss_in, win_in};

    fn points(moves: &str) -> Vec<Point> {
        parse_moves(moves).unwrap()
    }

    #[test]
    fn every_report_prints_as_documented_and_parses_back() {
        let cases = [
            (
                Progress::Iteration(Iteration {
                    depth: 12,
                    seldepth: 19,
                    multipv: None,
                    score: 134,
                    kilonodes: 1520,
                    nodes_per_ms: 610,
                    time_ms: 2490,
                    pv: points("h8 i9 j10"),
                }),
                "depth 12-19 ev 134 n 1520k n/ms 610 tm 2490 pv h8 i9 j10",
            ),
            (
                Progress::Iteration(Iteration {
                    depth: 9,
                    seldepth: 14,
                    multipv: Some(2),
                    score: win_in(7),
                    kilonodes: 0,
                    nodes_per_ms: 0,
                    time_ms: 5,
                    pv: points("v22"),
                }),
                "depth 9-14 multipv 2 ev +M7 n 0k n/ms 0 tm 5 pv v22",
            ),
            (
                Progress::Answer(AnswerSummary {
                    depth: 11,
                    score: loss_in(8),
                    kilonodes: 412,
                    time_ms: 187,
                }),
                "answer depth 11 ev -M8 n 412k tm 187",
            ),
            (
                Progress::NBest(NBestLine {
                    index: 2,
                    asked: 3,
                    depth: 9,
                    score: -40,
                    pv: points("h8 i9 j10"),
                }),
                "nbest 2/3 depth 9 ev -40 pv h8 i9 j10",
            ),
            (
                Progress::NBest(NBestLine { index: 1, asked: 1, depth: 1, score: 0, pv: vec![] }),
                "nbest 1/1 depth 1 ev 0 pv",
            ),
        ];
        for (progress, text) in cases {
            assert_eq!(progress.to_string(), text);
            assert_eq!(text.parse::<Progress>(), Ok(progress), "{text}");
        }
    }

    #[test]
    fn other_messages_are_not_progress() {
        for text in [
            "",
            "eval 12",
            "depth 3 ev 0",
            "depth 3-4 ev x n 1k n/ms 2 tm 3 pv",
            "answer depth 1 ev 0 n 1k tm 2 extra",
            "nbest 1 depth 1 ev 0 pv",
            "depth 1-1 ev 0 n 0k n/ms 0 tm 0 pv h8i9",
            "swap2 opening ev 27",
        ] {
            assert!(text.parse::<Progress>().is_err(), "{text:?}");
        }
    }
}
