//! Commands: frames parsed into a typed enum, and printed back. Lenient in: any case,
//! extra spaces, `x, y`; exact out: [`Command`]'s `Display` writes the line (or block) a
//! manager sends, which parses back to the same command (mnk's match manager and the tests
//! send commands so). Syntax problems become [`Command::Invalid`] (answered `ERROR`),
//! unknown words [`Command::Unknown`] (answered `UNKNOWN`); `INFO` values are typed
//! ([`Setting`]), and a bad one becomes [`Command::BadInfo`].

use std::fmt;

use mnk_engine::engine::MAX_NBEST;
use mnk_engine::notation::PointError;
use mnk_engine::score::{MAX_EVAL, Score};

use crate::framing::{BlockKind, Frame, MAX_LINE_BYTES};

pub use crate::setting::Setting;
pub use mnk_engine::notation::Point;

/// Largest board side the parser accepts in `START` (anything larger is refused as
/// unsupported, after parsing).
const MAX_SIDE_PARSED: usize = 1_000;

/// Whose stone a line of a `BOARD` or `YXBOARD` block places (its third field).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// `1`: the engine's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a continuous-game marker (Gomocup's "renju" fields), ignored.
    Continuous,
}

/// One stone of a `BOARD` or `YXBOARD` block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardStone {
    /// Where.
    pub point: Point,
    /// Whose.
    pub field: Field,
}

/// What is wrong with the arguments of a known command. The texts quoted are echoed
/// printable (see [`echo`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgumentError {
    /// An `INFO` value that does not fit its key.
    BadInfoValue {
        /// The key, lower case.
        key: String,
        /// The value as given.
        value: String,
    },
    /// Arguments to a command that takes none.
    Unexpected(String),
    /// Not `x,y`.
    NotAPoint(String),
    /// A coordinate past any board.
    CoordinateOutOfRange(String),
    /// `START` without a size.
    MissingSize,
    /// A size that is not a number (or two).
    NotASize(String),
    /// `YXNBEST` without a count of 1 to [`MAX_NBEST`].
    NotALineCount(String),
    /// `PERFT` without a depth.
    NotADepth(String),
    /// `YXBALANCEONE`/`YXBALANCETWO` with a target that is not a score.
    NotAScore(String),
    /// `INFO` without a key.
    MissingInfoKey,
    /// A `SWAP2BOARD` block of other than 0, 3 or 5 stones.
    Swap2StoneCount(usize),
    /// A block line that is not `x,y,field`.
    NotAStone(String),
    /// A field other than 1, 2 or 3.
    NotAField(String),
    /// A block with too many lines before `DONE`.
    BlockTooLong,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentError::Unexpected(got) => write!(f, "takes no arguments, got '{got}'"),
            ArgumentError::NotAPoint(got) => write!(f, "expected x,y, got '{got}'"),
            ArgumentError::CoordinateOutOfRange(got) => write!(f, "coordinate {got} out of range"),
            ArgumentError::MissingSize => f.write_str("expected a board size"),
            ArgumentError::NotASize(got) => write!(f, "bad board size '{got}'"),
            ArgumentError::NotALineCount(got) => {
                write!(f, "expected a number of moves from 1 to {MAX_NBEST}, got '{got}'")
            }
            ArgumentError::NotADepth(got) => write!(f, "expected a depth, got '{got}'"),
            ArgumentError::NotAScore(got) => {
                write!(f, "expected a score from -{MAX_EVAL} to {MAX_EVAL}, got '{got}'")
            }
            ArgumentError::MissingInfoKey => f.write_str("missing key"),
            ArgumentError::Swap2StoneCount(n) => write!(f, "expected 0, 3 or 5 stones, got {n}"),
            ArgumentError::NotAStone(got) => write!(f, "expected x,y,field, got '{got}'"),
            ArgumentError::NotAField(got) => write!(f, "field must be 1, 2 or 3, got '{got}'"),
            ArgumentError::BlockTooLong => f.write_str("too many lines before DONE"),
            ArgumentError::BadInfoValue { key, value } => {
                write!(f, "{key}: ignored bad value '{value}'")
            }
        }
    }
}

impl std::error::Error for ArgumentError {}

/// A known command with bad arguments: answered `ERROR COMMAND: what is wrong`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidCommand {
    /// The command word, upper case.
    pub command: &'static str,
    /// What is wrong.
    pub error: ArgumentError,
}

impl fmt::Display for InvalidCommand {
    /// `COMMAND: what is wrong`, or for an `INFO` value `INFO key: what is wrong`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator =
            if matches!(self.error, ArgumentError::BadInfoValue { .. }) { " " } else { ": " };
        write!(f, "{}{separator}{}", self.command, self.error)
    }
}

impl std::error::Error for InvalidCommand {}

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
    /// `INFO key value`.
    Info(Setting),
    /// `INFO key value` with a value that does not fit the key
    /// ([`ArgumentError::BadInfoValue`]): reported with the next move, since managers read
    /// no answer to `INFO`.
    BadInfo(InvalidCommand),
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
    /// `YXBLOCK` … `DONE`: root moves the search must not play (until `YXBLOCKRESET`).
    YxBlock(Vec<Point>),
    /// `YXBLOCKUNDO` … `DONE`: blocked moves the search may play again.
    YxBlockUndo(Vec<Point>),
    /// `YXBLOCKRESET`: no move blocked.
    YxBlockReset,
    /// `YXSHOWINFO`: what the engine supports, for a GUI.
    YxShowInfo,
    /// `YXHASHCLEAR`: empty the transposition table.
    YxHashClear,
    /// `YXSEARCHDEFEND`: every legal move's verdict against the opponent's threat
    /// sequences.
    YxSearchDefend,
    /// `YXBALANCEONE S` (1 stone) and `YXBALANCETWO S` (2): place the stones after which
    /// the score is closest to S.
    YxBalance {
        /// 1 or 2.
        stones: usize,
        /// The score aimed at, for the side to move after the stones (0 if not given).
        target: Score,
    },
    /// `YXNBEST N`: report the N best moves (1..=[`MAX_NBEST`]), then play the best.
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
    Invalid(InvalidCommand),
    /// An unknown command (the line, shortened and made printable).
    Unknown(String),
}

impl Command {
    /// Parses one frame.
    pub fn parse(frame: &Frame) -> Command {
        match frame {
            Frame::Line(line) => parse_line(line),
            Frame::Block(kind, None) => invalid(kind.word(), ArgumentError::BlockTooLong),
            Frame::Block(kind, Some(lines)) => parse_block(*kind, lines),
        }
    }

    /// The command of the line `INFO key value` (`key` in any case).
    ///
    /// ```
    /// use mnk_protocol::command::{Command, Setting};
    /// let turn = Command::info("Timeout_Turn", "1000");
    /// assert_eq!(turn, Command::Info(Setting::TimeoutTurn(1000)));
    /// assert!(matches!(Command::info("timeout_turn", "soon"), Command::BadInfo(_)));
    /// ```
    pub fn info(key: &str, value: &str) -> Command {
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        match Setting::parse(&key, value) {
            Some(info) => Command::Info(info),
            None => Command::BadInfo(InvalidCommand {
                command: "INFO",
                error: ArgumentError::BadInfoValue { key: echo(&key), value: echo(value) },
            }),
        }
    }
}

/// Writes a block: its word, one line per item, `DONE`.
fn write_block<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    kind: BlockKind,
    items: &[T],
) -> fmt::Result {
    writeln!(f, "{}", kind.word())?;
    for item in items {
        writeln!(f, "{item}")?;
    }
    f.write_str("DONE")
}

impl fmt::Display for BoardStone {
    /// `x,y,field` as in a `BOARD` block.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = match self.field {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Continuous => 3,
        };
        write!(f, "{},{field}", self.point)
    }
}

impl fmt::Display for Command {
    /// The line a manager sends for the command — several lines, the last `DONE`, for a
    /// block — which parses back to the same command. A known command with bad arguments
    /// is written as its word and the text it refused (where it kept it), an unknown one as
    /// its text: each parses back to a refusal of the same word.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Start { width, height } if width == height => write!(f, "START {width}"),
            Command::Start { width, height } => write!(f, "RECTSTART {width},{height}"),
            Command::Restart => f.write_str("RESTART"),
            Command::Begin => f.write_str("BEGIN"),
            Command::Turn(point) => write!(f, "TURN {point}"),
            Command::Board(stones) => write_block(f, BlockKind::Board, stones),
            Command::YxBoard(stones) => write_block(f, BlockKind::YxBoard, stones),
            Command::Swap2Board(points) => write_block(f, BlockKind::Swap2Board, points),
            Command::Info(setting) => write!(f, "INFO {setting}"),
            Command::BadInfo(InvalidCommand {
                error: ArgumentError::BadInfoValue { key, value },
                ..
            }) => write!(f, "INFO {key} {value}"),
            Command::Takeback(point) => write!(f, "TAKEBACK {point}"),
            Command::Play(point) => write!(f, "PLAY {point}"),
            Command::End => f.write_str("END"),
            Command::About => f.write_str("ABOUT"),
            Command::Stop => f.write_str("YXSTOP"),
            Command::YxShowForbid => f.write_str("YXSHOWFORBID"),
            Command::YxBlock(points) => write_block(f, BlockKind::YxBlock, points),
            Command::YxBlockUndo(points) => write_block(f, BlockKind::YxBlockUndo, points),
            Command::YxBlockReset => f.write_str("YXBLOCKRESET"),
            Command::YxShowInfo => f.write_str("YXSHOWINFO"),
            Command::YxHashClear => f.write_str("YXHASHCLEAR"),
            Command::YxSearchDefend => f.write_str("YXSEARCHDEFEND"),
            Command::YxBalance { stones, target } => {
                let word = if *stones == 1 { "YXBALANCEONE" } else { "YXBALANCETWO" };
                write!(f, "{word} {target}")
            }
            Command::YxNbest(n) => write!(f, "YXNBEST {n}"),
            Command::Perft(depth) => write!(f, "PERFT {depth}"),
            Command::Show => f.write_str("SHOW"),
            Command::Eval => f.write_str("EVAL"),
            Command::Solve => f.write_str("SOLVE"),
            Command::Invalid(invalid) | Command::BadInfo(invalid) => {
                let got = match &invalid.error {
                    ArgumentError::Unexpected(got)
                    | ArgumentError::NotAPoint(got)
                    | ArgumentError::NotASize(got)
                    | ArgumentError::NotALineCount(got)
                    | ArgumentError::NotADepth(got)
                    | ArgumentError::NotAScore(got)
                    | ArgumentError::NotAStone(got)
                    | ArgumentError::NotAField(got) => got.as_str(),
                    _ => "",
                };
                let block = [
                    BlockKind::Board,
                    BlockKind::YxBoard,
                    BlockKind::Swap2Board,
                    BlockKind::YxBlock,
                    BlockKind::YxBlockUndo,
                ]
                .into_iter()
                .find(|kind| kind.word() == invalid.command);
                match block {
                    Some(kind) => write!(f, "{}\n{got}?\nDONE", kind.word()),
                    None if got.is_empty() => f.write_str(invalid.command),
                    None => write!(f, "{} {got}", invalid.command),
                }
            }
            Command::Unknown(text) => f.write_str(text),
        }
    }
}

/// `YXBALANCEONE`/`YXBALANCETWO` with `rest`: a score within the evaluation's range, 0
/// if none is given.
fn parse_balance(command: &'static str, stones: usize, rest: &str) -> Command {
    if rest.is_empty() {
        return Command::YxBalance { stones, target: 0 };
    }
    match rest.parse::<Score>() {
        Ok(target) if target.abs() <= MAX_EVAL => Command::YxBalance { stones, target },
        _ => invalid(command, ArgumentError::NotAScore(echo(rest))),
    }
}

fn invalid(command: &'static str, error: ArgumentError) -> Command {
    Command::Invalid(InvalidCommand { command, error })
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
    let no_args = |command: &'static str, parsed: Command| {
        if rest.is_empty() {
            parsed
        } else {
            invalid(command, ArgumentError::Unexpected(echo(rest)))
        }
    };
    match word.to_ascii_uppercase().as_str() {
        "START" => parse_start(rest),
        "RECTSTART" => {
            point_command("RECTSTART", rest, |p| Command::Start { width: p.x, height: p.y })
        }
        "RESTART" => no_args("RESTART", Command::Restart),
        "BEGIN" => no_args("BEGIN", Command::Begin),
        "END" => Command::End,
        "ABOUT" => no_args("ABOUT", Command::About),
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => no_args("YXSHOWFORBID", Command::YxShowForbid),
        "YXSHOWINFO" => no_args("YXSHOWINFO", Command::YxShowInfo),
        "YXHASHCLEAR" => no_args("YXHASHCLEAR", Command::YxHashClear),
        "YXSEARCHDEFEND" => no_args("YXSEARCHDEFEND", Command::YxSearchDefend),
        "YXBLOCKRESET" => no_args("YXBLOCKRESET", Command::YxBlockReset),
        "SHOW" => no_args("SHOW", Command::Show),
        "EVAL" => no_args("EVAL", Command::Eval),
        "SOLVE" => no_args("SOLVE", Command::Solve),
        "TURN" => point_command("TURN", rest, Command::Turn),
        "TAKEBACK" => point_command("TAKEBACK", rest, Command::Takeback),
        "PLAY" => point_command("PLAY", rest, Command::Play),
        "YXNBEST" => match rest.parse::<usize>() {
            Ok(n) if (1..=MAX_NBEST).contains(&n) => Command::YxNbest(n),
            _ => invalid("YXNBEST", ArgumentError::NotALineCount(echo(rest))),
        },
        "YXBALANCEONE" => parse_balance("YXBALANCEONE", 1, rest),
        "YXBALANCETWO" => parse_balance("YXBALANCETWO", 2, rest),
        "PERFT" => match rest.parse::<u32>() {
            Ok(depth) => Command::Perft(depth),
            Err(_) => invalid("PERFT", ArgumentError::NotADepth(echo(rest))),
        },
        "INFO" => {
            let (key, value) = match rest.split_once(char::is_whitespace) {
                Some((k, v)) => (k, v),
                None => (rest, ""),
            };
            if key.is_empty() {
                invalid("INFO", ArgumentError::MissingInfoKey)
            } else {
                Command::info(key, value)
            }
        }
        _ => Command::Unknown(echo(line)),
    }
}

fn parse_start(rest: &str) -> Command {
    let numbers: Vec<&str> =
        rest.split(|c: char| c.is_whitespace() || c == ',').filter(|s| !s.is_empty()).collect();
    let parse = |s: &str| s.parse::<usize>().ok().filter(|&n| n <= MAX_SIDE_PARSED);
    match numbers.as_slice() {
        [n] => match parse(n) {
            Some(n) => Command::Start { width: n, height: n },
            None => invalid("START", ArgumentError::NotASize(echo(n))),
        },
        [w, h] => match (parse(w), parse(h)) {
            (Some(width), Some(height)) => Command::Start { width, height },
            _ => invalid("START", ArgumentError::NotASize(echo(rest))),
        },
        _ => invalid("START", ArgumentError::MissingSize),
    }
}

fn point_command(word: &'static str, rest: &str, make: impl Fn(Point) -> Command) -> Command {
    match parse_point(rest) {
        Ok(p) => make(p),
        Err(e) => invalid(word, e),
    }
}

/// Parses `x,y` (spaces around the comma allowed; see [`Point`]).
pub fn parse_point(text: &str) -> Result<Point, ArgumentError> {
    text.parse::<Point>().map_err(|error| match error {
        PointError::NotAPoint => ArgumentError::NotAPoint(echo(text)),
        PointError::OutOfRange(coordinate) => {
            ArgumentError::CoordinateOutOfRange(echo(&coordinate))
        }
    })
}

fn parse_block(kind: BlockKind, lines: &[String]) -> Command {
    match kind {
        BlockKind::Swap2Board => {
            let points: Result<Vec<Point>, ArgumentError> =
                lines.iter().map(|l| parse_point(l)).collect();
            match points {
                Ok(points) if matches!(points.len(), 0 | 3 | 5) => Command::Swap2Board(points),
                Ok(points) => invalid(kind.word(), ArgumentError::Swap2StoneCount(points.len())),
                Err(e) => invalid(kind.word(), e),
            }
        }
        BlockKind::YxBlock | BlockKind::YxBlockUndo => {
            // Each line `x,y`, or `x,y,field` as a position block writes it (the field is
            // ignored).
            let point = |line: &String| match line.matches(',').count() {
                2 => parse_stone(line).map(|stone| stone.point),
                _ => parse_point(line),
            };
            match lines.iter().map(point).collect::<Result<Vec<Point>, ArgumentError>>() {
                Ok(points) if kind == BlockKind::YxBlock => Command::YxBlock(points),
                Ok(points) => Command::YxBlockUndo(points),
                Err(e) => invalid(kind.word(), e),
            }
        }
        BlockKind::Board | BlockKind::YxBoard => {
            let stones: Result<Vec<BoardStone>, ArgumentError> =
                lines.iter().map(|line| parse_stone(line)).collect();
            match stones {
                Ok(stones) if kind == BlockKind::Board => Command::Board(stones),
                Ok(stones) => Command::YxBoard(stones),
                Err(e) => invalid(kind.word(), e),
            }
        }
    }
}

fn parse_stone(line: &str) -> Result<BoardStone, ArgumentError> {
    let (point, field) =
        line.rsplit_once(',').ok_or_else(|| ArgumentError::NotAStone(echo(line)))?;
    let point = parse_point(point)?;
    let field = match field.trim() {
        "1" => Field::Own,
        "2" => Field::Opponent,
        "3" => Field::Continuous,
        other => return Err(ArgumentError::NotAField(echo(other))),
    };
    Ok(BoardStone { point, field })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::strength::Strength;

    fn p(x: usize, y: usize) -> Point {
        Point::new(x, y)
    }

    fn line(s: &str) -> Command {
        Command::parse(&Frame::Line(s.to_string()))
    }

    fn is_invalid(command: &Command) -> bool {
        matches!(command, Command::Invalid(_))
    }

    #[test]
    fn start_in_all_three_spellings() {
        assert_eq!(line("START 15"), Command::Start { width: 15, height: 15 });
        assert_eq!(line("start 15 15"), Command::Start { width: 15, height: 15 });
        assert_eq!(line("RECTSTART 20,15"), Command::Start { width: 20, height: 15 });
        assert!(is_invalid(&line("START")));
        assert!(is_invalid(&line("START x")));
        assert!(is_invalid(&line("START 99999999999999999999999")));
    }

    #[test]
    fn moves_parse_leniently() {
        assert_eq!(line("TURN 7,8"), Command::Turn(p(7, 8)));
        assert_eq!(line("turn 7 , 8"), Command::Turn(p(7, 8)));
        assert_eq!(line("TAKEBACK 0,0"), Command::Takeback(p(0, 0)));
        assert_eq!(line("play 1,2"), Command::Play(p(1, 2)));
        for bad in ["TURN", "TURN -1,3", "TURN 1,2,3", "TURN 50000,3"] {
            assert!(is_invalid(&line(bad)), "{bad}");
        }
        let Command::Invalid(error) = line("TURN 50000,3") else { unreachable!() };
        assert_eq!(error.to_string(), "TURN: coordinate 50000 out of range");
    }

    #[test]
    fn info_keys_are_lower_cased_and_values_typed() {
        assert_eq!(line("INFO Timeout_Turn 1000"), Command::Info(Setting::TimeoutTurn(1000)));
        assert_eq!(line("INFO time_left -30"), Command::Info(Setting::TimeLeft(-30)));
        assert_eq!(line("INFO max_depth 0"), Command::Info(Setting::MaxDepth(None)));
        assert_eq!(line("INFO max_depth 900"), Command::Info(Setting::MaxDepth(Some(900))));
        assert_eq!(line("INFO max_node 0"), Command::Info(Setting::MaxNode(None)));
        assert_eq!(line("INFO rule 4"), Command::Info(Setting::Rule(4)));
        assert_eq!(line("INFO hash_size 65536"), Command::Info(Setting::HashSizeKb(65_536)));
        assert_eq!(line("INFO time_increment 100"), Command::Info(Setting::TimeIncrement(100)));
        assert_eq!(line("INFO pondering 1"), Command::Info(Setting::Pondering(true)));
        let strength = Strength::new(40).unwrap();
        assert_eq!(line("INFO strength 40"), Command::Info(Setting::Strength(strength)));
        assert_eq!(line("yxshowinfo"), Command::YxShowInfo);
        assert_eq!(line("YXHASHCLEAR"), Command::YxHashClear);
        assert_eq!(line("yxsearchdefend"), Command::YxSearchDefend);
        assert_eq!(line("YXBALANCEONE"), Command::YxBalance { stones: 1, target: 0 });
        assert_eq!(line("YXBALANCETWO -40"), Command::YxBalance { stones: 2, target: -40 });
        for bad in ["YXBALANCEONE even", "YXBALANCETWO 99999999", "YXBALANCEONE 1 2"] {
            assert!(is_invalid(&line(bad)), "{bad}");
        }
        assert_eq!(line("INFO messages 0"), Command::Info(Setting::Messages(false)));
        assert_eq!(
            line("INFO folder"),
            Command::Info(Setting::Ignored("folder".into(), String::new()))
        );
        assert_eq!(
            line("INFO evaluate 3,3"),
            Command::Info(Setting::Ignored("evaluate".into(), "3,3".into()))
        );
        assert!(is_invalid(&line("INFO")));
        for bad in [
            "INFO timeout_turn soon",
            "INFO rule 99999999999",
            "INFO messages 2",
            "INFO pondering on",
        ] {
            assert!(matches!(line(bad), Command::BadInfo(_)), "{bad}");
        }
        let Command::BadInfo(bad) = line("INFO max_memory 12\u{1b}[2J34") else { unreachable!() };
        assert_eq!(bad.to_string(), "INFO max_memory: ignored bad value '12?[2J34'");
    }

    #[test]
    fn unknown_and_argument_errors() {
        assert_eq!(line("FOO bar"), Command::Unknown("FOO bar".into()));
        assert_eq!(line("\u{7}\u{1b}x"), Command::Unknown("??x".into()));
        assert!(is_invalid(&line("BEGIN now")));
        assert_eq!(line("yxstop"), Command::Stop);
        assert_eq!(line("PERFT 3"), Command::Perft(3));
        assert_eq!(line("yxnbest 3"), Command::YxNbest(3));
        assert_eq!(line("YXNBEST 32"), Command::YxNbest(32));
        for bad in ["YXNBEST", "YXNBEST 0", "YXNBEST 33", "YXNBEST -1", "YXNBEST two"] {
            assert!(is_invalid(&line(bad)), "{bad}");
        }
    }

    #[test]
    fn blocks_parse_stones_and_reject_bad_lines() {
        let board = Frame::Block(BlockKind::Board, Some(vec!["7,7,1".into(), "8, 8, 2".into()]));
        assert_eq!(
            Command::parse(&board),
            Command::Board(vec![
                BoardStone { point: p(7, 7), field: Field::Own },
                BoardStone { point: p(8, 8), field: Field::Opponent }
            ])
        );
        let bad = Frame::Block(BlockKind::Board, Some(vec!["7,7,4".into()]));
        let Command::Invalid(error) = Command::parse(&bad) else { panic!("not refused") };
        assert_eq!(error.to_string(), "BOARD: field must be 1, 2 or 3, got '4'");
        let swap = Frame::Block(BlockKind::Swap2Board, Some(vec!["7,7".into()]));
        assert!(is_invalid(&Command::parse(&swap)));
        let swap = Frame::Block(BlockKind::Swap2Board, Some(vec![]));
        assert_eq!(Command::parse(&swap), Command::Swap2Board(vec![]));
        let block = Frame::Block(BlockKind::YxBlock, Some(vec!["7,7".into(), "8,8,1".into()]));
        assert_eq!(Command::parse(&block), Command::YxBlock(vec![p(7, 7), p(8, 8)]));
        let undo = Frame::Block(BlockKind::YxBlockUndo, Some(vec!["7,7".into()]));
        assert_eq!(Command::parse(&undo), Command::YxBlockUndo(vec![p(7, 7)]));
        let bad = Frame::Block(BlockKind::YxBlock, Some(vec!["7;7".into()]));
        assert!(is_invalid(&Command::parse(&bad)));
        assert_eq!(line("yxblockreset"), Command::YxBlockReset);
        let long = Frame::Block(BlockKind::YxBoard, None);
        assert!(is_invalid(&Command::parse(&long)));
    }

    /// The commands a manager sends, one of each kind: each prints as the protocol writes
    /// it and parses back to itself.
    #[test]
    fn every_command_prints_and_parses_back() {
        let stones = vec![
            BoardStone { point: p(7, 7), field: Field::Opponent },
            BoardStone { point: p(8, 8), field: Field::Own },
            BoardStone { point: p(0, 0), field: Field::Continuous },
        ];
        let settings = [
            Setting::TimeoutTurn(1000),
            Setting::TimeoutMatch(0),
            Setting::TimeLeft(-30),
            Setting::TimeIncrement(100),
            Setting::MaxMemory(367_001_600),
            Setting::HashSizeKb(65_536),
            Setting::Rule(4),
            Setting::MaxDepth(Some(900)),
            Setting::MaxDepth(None),
            Setting::MaxNode(Some(20_000)),
            Setting::ThreadNum(2),
            Setting::Pondering(true),
            Setting::Strength(Strength::new(40).unwrap()),
            Setting::Messages(false),
            Setting::Ignored("folder".into(), "/tmp/a b".into()),
            Setting::Ignored("evaluate".into(), String::new()),
        ];
        let mut commands = vec![
            Command::Start { width: 15, height: 15 },
            Command::Start { width: 20, height: 15 },
            Command::Restart,
            Command::Begin,
            Command::Turn(p(7, 8)),
            Command::Board(stones.clone()),
            Command::Board(vec![]),
            Command::YxBoard(stones),
            Command::Swap2Board(vec![p(7, 7), p(8, 8), p(11, 4)]),
            Command::Swap2Board(vec![]),
            Command::Takeback(p(0, 0)),
            Command::Play(p(21, 21)),
            Command::End,
            Command::About,
            Command::Stop,
            Command::YxShowForbid,
            Command::YxBlock(vec![p(1, 2), p(3, 4)]),
            Command::YxBlockUndo(vec![p(1, 2)]),
            Command::YxBlockReset,
            Command::YxShowInfo,
            Command::YxHashClear,
            Command::YxSearchDefend,
            Command::YxBalance { stones: 1, target: 0 },
            Command::YxBalance { stones: 2, target: -40 },
            Command::YxNbest(3),
            Command::Perft(4),
            Command::Show,
            Command::Eval,
            Command::Solve,
            Command::Unknown("FROBNICATE now".into()),
        ];
        commands.extend(settings.into_iter().map(Command::Info));
        for command in commands {
            let text = command.to_string();
            let mut framer = crate::framing::Framer::new();
            let frames: Vec<Frame> = text.lines().filter_map(|l| framer.push(l)).collect();
            assert_eq!(frames.len(), 1, "{text:?}");
            assert_eq!(Command::parse(&frames[0]), command, "{text:?}");
        }
    }

    /// A refused command prints as its word and what it refused, which parses back to a
    /// refusal of the same word.
    #[test]
    fn refused_commands_print_as_refusals_of_their_word() {
        for text in ["TURN 7", "START x", "YXNBEST 0", "PERFT deep", "BEGIN now", "INFO max_node x"]
        {
            let command = line(text);
            assert!(matches!(command, Command::Invalid(_) | Command::BadInfo(_)), "{text}");
            assert_eq!(line(&command.to_string()), command, "{text}");
        }
    }
}
