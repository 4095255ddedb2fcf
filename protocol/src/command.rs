//! Commands: frames parsed into a typed enum. Lenient in: any case, extra spaces, `x, y`.
//! Syntax problems become [`Command::Invalid`] (answered `ERROR`), unknown words
//! [`Command::Unknown`] (answered `UNKNOWN`).

use mnk_engine::search::MAX_LINES;

use crate::framing::{BlockKind, Frame, MAX_LINE_BYTES};

/// A coordinate pair as the protocol writes it: `x,y`, column then row, from 0.
pub type Point = (usize, usize);

/// Largest coordinate the parser accepts (anything larger is certainly off the board).
const MAX_COORDINATE: usize = 1_000;

/// One stone of a `BOARD` or `YXBOARD` block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardStone {
    /// Where.
    pub point: Point,
    /// 1 = the engine's own stone, 2 = the opponent's, 3 = a continuous-game marker.
    pub field: u8,
}

/// A command from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`, `start W H`, `RECTSTART W,H`.
    Start {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN x,y`.
    Turn(Point),
    /// `BOARD` … `DONE`.
    Board(Vec<BoardStone>),
    /// `YXBOARD` … `DONE`.
    YxBoard(Vec<BoardStone>),
    /// `SWAP2BOARD` … `DONE`.
    Swap2Board(Vec<Point>),
    /// `INFO key value` (key lower-cased, value as given, possibly empty).
    Info {
        /// The key, lower case.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `TAKEBACK x,y`.
    Takeback(Point),
    /// `PLAY x,y`.
    Play(Point),
    /// `END`.
    End,
    /// `ABOUT`.
    About,
    /// `YXSTOP` or `STOP`.
    Stop,
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXNBEST N`: report the N best moves (1..=[`MAX_LINES`]), then play the best.
    YxNbest(usize),
    /// `PERFT d` (extension).
    Perft(u32),
    /// `SHOW` (extension).
    Show,
    /// `EVAL` (extension).
    Eval,
    /// `SOLVE` (extension).
    Solve,
    /// A known command with bad arguments.
    Invalid {
        /// The command word, upper case.
        command: String,
        /// What is wrong.
        reason: String,
    },
    /// An unknown command (the line, shortened).
    Unknown(String),
}

impl Command {
    /// Parses one frame.
    pub fn parse(frame: &Frame) -> Command {
        match frame {
            Frame::Line(line) => parse_line(line),
            Frame::Block(kind, None) => invalid(kind.word(), "too many lines before DONE"),
            Frame::Block(kind, Some(lines)) => parse_block(*kind, lines),
        }
    }
}

fn invalid(command: &str, reason: impl Into<String>) -> Command {
    Command::Invalid { command: command.to_string(), reason: reason.into() }
}

/// Text from the input as an answer may echo it: printable ASCII only (anything else
/// becomes `?`), at most 64 characters.
pub fn echo(line: &str) -> String {
    line.chars().map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '?' }).take(64).collect()
}

fn parse_line(line: &str) -> Command {
    if line.len() > MAX_LINE_BYTES {
        return Command::Unknown(format!("{}... (line too long)", echo(line)));
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            cmd
        } else {
            invalid(&upper, format!("takes no arguments, got '{}'", echo(rest)))
        }
    };
    match upper.as_str() {
        "START" => parse_start(rest),
        "RECTSTART" => match parse_point(rest) {
            Ok((width, height)) => Command::Start { width, height },
            Err(e) => invalid("RECTSTART", e),
        },
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "END" => Command::End,
        "ABOUT" => no_args(Command::About),
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => no_args(Command::YxShowForbid),
        "SHOW" => no_args(Command::Show),
        "EVAL" => no_args(Command::Eval),
        "SOLVE" => no_args(Command::Solve),
        "TURN" => point_command("TURN", rest, Command::Turn),
        "TAKEBACK" => point_command("TAKEBACK", rest, Command::Takeback),
        "PLAY" => point_command("PLAY", rest, Command::Play),
        "YXNBEST" => match rest.parse::<usize>() {
            Ok(n) if (1..=MAX_LINES).contains(&n) => Command::YxNbest(n),
            _ => invalid(
                "YXNBEST",
                format!("expected a number of moves from 1 to {MAX_LINES}, got '{}'", echo(rest)),
            ),
        },
        "PERFT" => match rest.parse::<u32>() {
            Ok(depth) => Command::Perft(depth),
            Err(_) => invalid("PERFT", format!("expected a depth, got '{}'", echo(rest))),
        },
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v.trim()),
                None => (rest, ""),
            };
            if key.is_empty() {
                invalid("INFO", "missing key")
            } else {
                Command::Info { key: key.to_ascii_lowercase(), value: value.to_string() }
            }
        }
        _ => Command::Unknown(echo(line)),
    }
}

fn parse_start(rest: &str) -> Command {
    let numbers: Vec<&str> =
        rest.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect();
    let parse = |s: &str| s.parse::<usize>().ok().filter(|&n| n <= MAX_COORDINATE);
    match numbers.as_slice() {
        [n] => match parse(n) {
            Some(n) => Command::Start { width: n, height: n },
            None => invalid("START", format!("bad board size '{}'", echo(n))),
        },
        [w, h] => match (parse(w), parse(h)) {
            (Some(width), Some(height)) => Command::Start { width, height },
            _ => invalid("START", format!("bad board size '{}'", echo(rest))),
        },
        _ => invalid("START", "expected a board size"),
    }
}

fn point_command(word: &str, rest: &str, make: fn(Point) -> Command) -> Command {
    match parse_point(rest) {
        Ok(p) => make(p),
        Err(e) => invalid(word, e),
    }
}

/// Parses `x,y` (spaces around the comma allowed).
pub fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) =
        text.split_once(',').ok_or_else(|| format!("expected x,y, got '{}'", echo(text)))?;
    let coordinate = |s: &str| {
        let s = s.trim();
        match s.parse::<usize>() {
            Ok(v) if v <= MAX_COORDINATE => Ok(v),
            Ok(_) => Err(format!("coordinate {} out of range", echo(s))),
            Err(_) => Err(format!("expected x,y, got '{}'", echo(text))),
        }
    };
    Ok((coordinate(x)?, coordinate(y)?))
}

fn parse_block(kind: BlockKind, lines: &[String]) -> Command {
    match kind {
        BlockKind::Swap2Board => {
            let points: Result<Vec<Point>, String> = lines.iter().map(|l| parse_point(l)).collect();
            match points {
                Ok(points) if matches!(points.len(), 0 | 3 | 5) => Command::Swap2Board(points),
                Ok(points) => {
                    invalid(kind.word(), format!("expected 0, 3 or 5 stones, got {}", points.len()))
                }
                Err(e) => invalid(kind.word(), e),
            }
        }
        BlockKind::Board | BlockKind::YxBoard => {
            let mut stones = Vec::with_capacity(lines.len());
            for line in lines {
                match parse_stone(line) {
                    Ok(stone) => stones.push(stone),
                    Err(e) => return invalid(kind.word(), e),
                }
            }
            if kind == BlockKind::Board { Command::Board(stones) } else { Command::YxBoard(stones) }
        }
    }
}

fn parse_stone(line: &str) -> Result<BoardStone, String> {
    let (point, field) =
        line.rsplit_once(',').ok_or_else(|| format!("expected x,y,field, got '{}'", echo(line)))?;
    let point = parse_point(point)?;
    match field.trim() {
        "1" => Ok(BoardStone { point, field: 1 }),
        "2" => Ok(BoardStone { point, field: 2 }),
        "3" => Ok(BoardStone { point, field: 3 }),
        other => Err(format!("field must be 1, 2 or 3, got '{}'", echo(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Command {
        Command::parse(&Frame::Line(s.to_string()))
    }

    #[test]
    fn start_in_all_three_spellings() {
        assert_eq!(line("START 15"), Command::Start { width: 15, height: 15 });
        assert_eq!(line("start 15 15"), Command::Start { width: 15, height: 15 });
        assert_eq!(line("RECTSTART 20,15"), Command::Start { width: 20, height: 15 });
        assert!(matches!(line("START"), Command::Invalid { .. }));
        assert!(matches!(line("START x"), Command::Invalid { .. }));
        assert!(matches!(line("START 99999999999999999999999"), Command::Invalid { .. }));
    }

    #[test]
    fn moves_parse_leniently() {
        assert_eq!(line("TURN 7,8"), Command::Turn((7, 8)));
        assert_eq!(line("turn 7 , 8"), Command::Turn((7, 8)));
        assert_eq!(line("TAKEBACK 0,0"), Command::Takeback((0, 0)));
        assert_eq!(line("play 1,2"), Command::Play((1, 2)));
        assert!(matches!(line("TURN"), Command::Invalid { .. }));
        assert!(matches!(line("TURN -1,3"), Command::Invalid { .. }));
        assert!(matches!(line("TURN 1,2,3"), Command::Invalid { .. }));
        assert!(matches!(line("TURN 5000,3"), Command::Invalid { .. }));
    }

    #[test]
    fn info_keys_are_lower_cased() {
        assert_eq!(
            line("INFO Timeout_Turn 1000"),
            Command::Info { key: "timeout_turn".into(), value: "1000".into() }
        );
        assert_eq!(
            line("INFO folder"),
            Command::Info { key: "folder".into(), value: String::new() }
        );
        assert!(matches!(line("INFO"), Command::Invalid { .. }));
    }

    #[test]
    fn unknown_and_argument_errors() {
        assert_eq!(line("FOO bar"), Command::Unknown("FOO bar".into()));
        assert_eq!(line("\u{7}\u{1b}x"), Command::Unknown("??x".into()));
        assert!(matches!(line("BEGIN now"), Command::Invalid { .. }));
        assert_eq!(line("yxstop"), Command::Stop);
        assert_eq!(line("PERFT 3"), Command::Perft(3));
        assert_eq!(line("yxnbest 3"), Command::YxNbest(3));
        assert_eq!(line("YXNBEST 32"), Command::YxNbest(32));
        for bad in ["YXNBEST", "YXNBEST 0", "YXNBEST 33", "YXNBEST -1", "YXNBEST two"] {
            assert!(matches!(line(bad), Command::Invalid { .. }), "{bad}");
        }
    }

    #[test]
    fn blocks_parse_stones_and_reject_bad_lines() {
        let board = Frame::Block(BlockKind::Board, Some(vec!["7,7,1".into(), "8, 8, 2".into()]));
        assert_eq!(
            Command::parse(&board),
            Command::Board(vec![
                BoardStone { point: (7, 7), field: 1 },
                BoardStone { point: (8, 8), field: 2 }
            ])
        );
        let bad = Frame::Block(BlockKind::Board, Some(vec!["7,7,4".into()]));
        assert!(matches!(Command::parse(&bad), Command::Invalid { .. }));
        let swap = Frame::Block(BlockKind::Swap2Board, Some(vec!["7,7".into()]));
        assert!(matches!(Command::parse(&swap), Command::Invalid { .. }));
        let swap = Frame::Block(BlockKind::Swap2Board, Some(vec![]));
        assert_eq!(Command::parse(&swap), Command::Swap2Board(vec![]));
    }
}
