//! Game files both ways: SGF (`GM[4]`, as Gomoku GUIs write it) and Piskvork's PSQ.
//!
//! * [`read`] takes either (told apart by their first characters) and gives the board, the
//!   rule when the file names one (`RU[renju]` in SGF, or Gomocup's rule number as
//!   c-gomoku-cli writes it, `RU[4]`; PSQ has none), the moves and the players' names;
//!   [`read_game`] the game of a number from an SGF collection of several. They check
//!   syntax and the order of colours only: whether the moves are legal is the board's
//!   concern.
//! * [`write_sgf`] and [`write_psq`] write a [`GameFile`]; the match records and the web
//!   board both save through them.
//!
//! SGF moves are `;B[hh]` with letters for x then y (`a` = 0); `SZ[15]` or `SZ[15:20]`
//! (width:height); a move's time, when known, is its node's comment `C[1234 ms]`. Setup
//! stones (`AB[hh][ij]AW[ii]`, before the moves) become the first moves, black and white in
//! turn, which needs as many of each or one black more; then the moves' colours must
//! alternate from the side to move. A game type other than gomoku (`GM[1]`, Go) is refused.

use std::fmt;

use mnk_engine::notation::Point;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

/// A game as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    /// The board.
    pub size: BoardSize,
    /// The rule, when the file names one.
    pub rule: Option<Rule>,
    /// The moves, black first, each with the milliseconds it took when known.
    pub moves: Vec<(Point, Option<u64>)>,
    /// Black's name and white's, when the file gives them.
    pub names: [Option<String>; 2],
    /// The result as SGF writes it (`B+`, `W+`, `0`), when known.
    pub result: Option<String>,
    /// A comment on the whole game (why it ended, say).
    pub comment: Option<String>,
    /// The date (`YYYY-MM-DD`) and the event's name, when known.
    pub date: Option<String>,
    /// The event (a match's name).
    pub event: Option<String>,
}

impl GameFile {
    /// A game on `size` with `moves` and nothing else known.
    pub fn new(size: BoardSize, rule: Option<Rule>, moves: &[Point]) -> GameFile {
        GameFile {
            size,
            rule,
            moves: moves.iter().map(|&p| (p, None)).collect(),
            names: [None, None],
            result: None,
            comment: None,
            date: None,
            event: None,
        }
    }

    /// The moves without their times.
    pub fn points(&self) -> Vec<Point> {
        self.moves.iter().map(|&(p, _)| p).collect()
    }
}

/// Why a text is not a game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameFileError {
    /// Neither SGF (`(;`) nor PSQ (`Piskvorky`).
    UnknownFormat,
    /// SGF whose syntax is broken at the byte offset given.
    Sgf {
        /// Byte offset.
        offset: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// A size (SGF `SZ`, the PSQ header) that is no board mnk plays.
    Size(String),
    /// A move that is not two letters within the board (SGF) or `x,y,ms` (PSQ).
    Move(String),
    /// An SGF `RU` that names no rule.
    Rule(String),
    /// An SGF game of another type (`GM[1]`: Go).
    GameType(String),
    /// Setup stones (`AB`, `AW`) that cannot be the first moves of a game: white has more,
    /// or black more than one more, or they come after moves.
    Setup {
        /// Black's setup stones and white's.
        counts: [usize; 2],
        /// Whether they came after moves.
        after_moves: bool,
    },
    /// A move of the colour that is not to move (two of black's in a row, say).
    Colour {
        /// The move's number, from 1 (setup stones counted).
        number: usize,
        /// The colour to move, `B` or `W`.
        expected: char,
    },
    /// `read_game` asked for a game the file does not hold.
    NoSuchGame {
        /// The game asked for, from 1.
        asked: usize,
        /// The games in the file.
        count: usize,
    },
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameFileError::UnknownFormat => {
                f.write_str("not a game file (SGF starts with '(;', PSQ with 'Piskvorky')")
            }
            GameFileError::Sgf { offset, expected } => {
                write!(f, "SGF: expected {expected} at byte {offset}")
            }
            GameFileError::Size(text) => write!(f, "no board of size {text:?}"),
            GameFileError::Move(text) => write!(f, "not a move: {text:?}"),
            GameFileError::Rule(text) => write!(f, "no rule {text:?}"),
            GameFileError::GameType(text) => {
                write!(f, "GM[{text}] is not a gomoku game (GM[4])")
            }
            GameFileError::Setup { counts: [black, white], after_moves: true } => write!(
                f,
                "setup stones (AB/AW: black {black}, white {white}) after the moves: mnk reads them before"
            ),
            GameFileError::Setup { counts: [black, white], .. } => write!(
                f,
                "setup stones black {black}, white {white}: a game needs as many of each, or one black more"
            ),
            GameFileError::Colour { number, expected } => {
                write!(f, "move {number} is not {expected}'s, though {expected} is to move")
            }
            GameFileError::NoSuchGame { asked, count } => {
                write!(f, "no game {asked}: the file holds {count}")
            }
        }
    }
}

impl std::error::Error for GameFileError {}

/// Reads an SGF or PSQ game, the first of an SGF collection (see the module docs).
pub fn read(text: &str) -> Result<GameFile, GameFileError> {
    read_game(text, 1).map(|(file, _)| file)
}

/// Reads game `number` (from 1) of an SGF collection, or the one game of a PSQ file, with the
/// number of games the file holds.
pub fn read_game(text: &str, number: usize) -> Result<(GameFile, usize), GameFileError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let games = if trimmed.starts_with('(') {
        sgf_games(trimmed)?
    } else if trimmed.starts_with("Piskvorky") {
        return match number {
            1 => Ok((read_psq(trimmed)?, 1)),
            asked => Err(GameFileError::NoSuchGame { asked, count: 1 }),
        };
    } else {
        return Err(GameFileError::UnknownFormat);
    };
    let count = games.len();
    let properties = number
        .checked_sub(1)
        .and_then(|i| games.into_iter().nth(i))
        .ok_or(GameFileError::NoSuchGame { asked: number, count })?;
    Ok((read_sgf(properties)?, count))
}

/// One `ID[value]` property of an SGF node.
struct Property {
    id: String,
    value: String,
}

/// The properties of each SGF game tree's main line, in order (variations are skipped), for
/// each game of the collection.
fn sgf_games(text: &str) -> Result<Vec<Vec<Property>>, GameFileError> {
    let bytes = text.as_bytes();
    let mut games = Vec::new();
    let mut properties = Vec::new();
    let mut i = 0;
    let mut depth = 0usize;
    let mut finished_main = false;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return Err(GameFileError::Sgf { offset: i, expected: "'(' before ')'" });
                }
                depth -= 1;
                // The main line ends where its first variation closes.
                finished_main = true;
                i += 1;
                if depth == 0 {
                    // A game of the collection ends; another may follow.
                    games.push(std::mem::take(&mut properties));
                    finished_main = false;
                }
            }
            _ if b.is_ascii_whitespace() => i += 1,
            _ if depth == 0 => {
                return Err(GameFileError::Sgf { offset: i, expected: "'(' starting a game" });
            }
            b';' => i += 1,
            _ if b.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let id = text[start..i].to_ascii_uppercase();
                let mut values = 0;
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= bytes.len() || bytes[i] != b'[' {
                        break;
                    }
                    i += 1;
                    let mut value = String::new();
                    loop {
                        let Some(c) = text[i..].chars().next() else {
                            return Err(GameFileError::Sgf { offset: i, expected: "']'" });
                        };
                        i += c.len_utf8();
                        match c {
                            ']' => break,
                            '\\' => {
                                if let Some(next) = text[i..].chars().next() {
                                    i += next.len_utf8();
                                    value.push(next);
                                }
                            }
                            _ => value.push(c),
                        }
                    }
                    values += 1;
                    if !finished_main {
                        properties.push(Property { id: id.clone(), value });
                    }
                }
                if values == 0 {
                    return Err(GameFileError::Sgf { offset: i, expected: "'[' after a name" });
                }
            }
            _ => return Err(GameFileError::Sgf { offset: i, expected: "a property" }),
        }
    }
    if depth != 0 {
        return Err(GameFileError::Sgf { offset: bytes.len(), expected: "')'" });
    }
    Ok(games)
}

fn read_sgf(properties: Vec<Property>) -> Result<GameFile, GameFileError> {
    let mut file = GameFile::new(BoardSize::FIFTEEN, None, &[]);
    // Setup stones by colour, then the moves with their colours (0 black, 1 white).
    let mut setup: [Vec<&str>; 2] = [Vec::new(), Vec::new()];
    let mut moves: Vec<(usize, &str, Option<u64>)> = Vec::new();
    let mut comment = None;
    for property in &properties {
        let value = property.value.trim();
        match property.id.as_str() {
            "GM" if value != "4" => return Err(GameFileError::GameType(value.to_string())),
            "SZ" => {
                let arg = value.replace(':', "x");
                file.size = arg.parse().map_err(|_| GameFileError::Size(value.to_string()))?;
            }
            "RU" => {
                let rule = value
                    .parse()
                    .ok()
                    .or_else(|| value.parse::<u32>().ok().and_then(Rule::from_protocol));
                file.rule = Some(rule.ok_or_else(|| GameFileError::Rule(value.into()))?);
            }
            "PB" => file.names[0] = Some(value.to_string()),
            "PW" => file.names[1] = Some(value.to_string()),
            "RE" => file.result = Some(value.to_string()),
            "DT" => file.date = Some(value.to_string()),
            "EV" => file.event = Some(value.to_string()),
            "AB" | "AW" if !moves.is_empty() => {
                let counts = [setup[0].len(), setup[1].len()];
                return Err(GameFileError::Setup { counts, after_moves: true });
            }
            "AB" => setup[0].push(value),
            "AW" => setup[1].push(value),
            "B" => moves.push((0, value, None)),
            "W" => moves.push((1, value, None)),
            "C" => match moves.last_mut() {
                None => comment = Some(value.to_string()),
                Some(last) => {
                    let ms = value.strip_suffix("ms").and_then(|n| n.trim().parse().ok());
                    last.2 = last.2.or(ms);
                }
            },
            _ => {}
        }
    }
    file.comment = comment;
    // The setup stones as the first moves, black and white in turn.
    let [black, white] = [setup[0].len(), setup[1].len()];
    if white > black || black > white + 1 {
        return Err(GameFileError::Setup { counts: [black, white], after_moves: false });
    }
    let stones = (0..black + white).map(|i| (i % 2, setup[i % 2][i / 2], None));
    for (number, (colour, value, ms)) in stones.chain(moves).enumerate() {
        if colour != number % 2 {
            let expected = if number % 2 == 0 { 'B' } else { 'W' };
            return Err(GameFileError::Colour { number: number + 1, expected });
        }
        file.moves.push((sgf_point(value, file.size)?, ms));
    }
    Ok(file)
}

/// The point of an SGF move on `size` (two letters, x then y).
fn sgf_point(value: &str, size: BoardSize) -> Result<Point, GameFileError> {
    let point = match value.as_bytes() {
        &[x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
            Point::new(usize::from(x - b'a'), usize::from(y - b'a'))
        }
        _ => return Err(GameFileError::Move(value.to_string())),
    };
    if point.x >= size.width() || point.y >= size.height() {
        return Err(GameFileError::Move(value.to_string()));
    }
    Ok(point)
}

fn read_psq(text: &str) -> Result<GameFile, GameFileError> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    // "Piskvorky 15x15, 11:11, 0"
    let dims = header
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.split(',').next())
        .map(str::trim)
        .unwrap_or_default();
    let size: BoardSize = dims.parse().map_err(|_| GameFileError::Size(dims.to_string()))?;
    let mut file = GameFile::new(size, None, &[]);
    let mut rest: Vec<&str> = Vec::new();
    let mut in_moves = true;
    for line in lines {
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let numbers: Option<Vec<u64>> = fields.iter().map(|f| f.parse().ok()).collect();
        match numbers {
            Some(n) if in_moves && n.len() == 3 => {
                let (x, y) = (n[0] as usize, n[1] as usize);
                if x == 0 || y == 0 || x > size.width() || y > size.height() {
                    return Err(GameFileError::Move(line.trim().to_string()));
                }
                file.moves.push((Point::new(x - 1, y - 1), Some(n[2])));
            }
            _ => {
                in_moves = false;
                if !line.trim().is_empty() {
                    rest.push(line.trim());
                }
            }
        }
    }
    // Piskvork writes the two names after the moves (then, sometimes, more lines).
    file.names = [rest.first().map(ToString::to_string), rest.get(1).map(ToString::to_string)];
    Ok(file)
}

/// The game in SGF (see the module docs): the root node names the board, the rule, the
/// players, the result, the date, the event and the comment that are known.
pub fn write_sgf(file: &GameFile) -> String {
    let board = if file.size.is_square() {
        file.size.width().to_string()
    } else {
        format!("{}:{}", file.size.width(), file.size.height())
    };
    let mut sgf = format!("(;GM[4]FF[4]SZ[{board}]");
    let mut property = |id: &str, value: Option<&str>| {
        if let Some(value) = value {
            sgf.push_str(&format!("{id}[{}]", escape(value)));
        }
    };
    property("RU", file.rule.map(|r| r.to_string()).as_deref());
    property("PB", file.names[0].as_deref());
    property("PW", file.names[1].as_deref());
    property("RE", file.result.as_deref());
    property("DT", file.date.as_deref());
    property("EV", file.event.as_deref());
    property("C", file.comment.as_deref());
    for (i, (point, ms)) in file.moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let letter = |coordinate: usize| char::from(b'a' + coordinate as u8);
        sgf.push_str(&format!(";{colour}[{}{}]", letter(point.x), letter(point.y)));
        if let Some(ms) = ms {
            sgf.push_str(&format!("C[{ms} ms]"));
        }
    }
    sgf.push_str(")\n");
    sgf
}

/// The game in Piskvork's PSQ format: a header, then `x,y,time_ms` per move, 1-based, then
/// the players' names, one line each (unknown times are written 0).
pub fn write_psq(file: &GameFile) -> String {
    let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", file.size.width(), file.size.height());
    for (point, ms) in &file.moves {
        psq.push_str(&format!("{},{},{}\n", point.x + 1, point.y + 1, ms.unwrap_or(0)));
    }
    for name in &file.names {
        // A name is one line of the file: its line breaks become spaces.
        let name = name.as_deref().unwrap_or("?").replace(['\r', '\n'], " ");
        psq.push_str(&name);
        psq.push('\n');
    }
    psq
}

/// Today's date (UTC) as SGF's `DT` writes it, `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date((seconds / 86_400) as i64);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The Gregorian date `days` after 1970-01-01: eras of 400 years (146,097 days) from
/// 0000-03-01, so that the leap day ends each year.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month as u32, day)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameFile {
        let mut file = GameFile::new(
            BoardSize::FIFTEEN,
            Some(Rule::Renju),
            &[Point::new(7, 7), Point::new(8, 8)],
        );
        file.moves[1].1 = Some(12);
        file.names = [Some("mnk".into()), Some("other]".into())];
        file.result = Some("W+".into());
        file.comment = Some("timeout".into());
        file.date = Some("2026-11-28".into());
        file.event = Some("dev match".into());
        file
    }

    #[test]
    fn sgf_written_reads_back_the_same() {
        let sgf = write_sgf(&sample());
        assert_eq!(
            sgf,
            "(;GM[4]FF[4]SZ[15]RU[renju]PB[mnk]PW[other\\]]RE[W+]DT[2026-11-28]EV[dev match]\
             C[timeout];B[hh];W[ii]C[12 ms])\n"
        );
        assert_eq!(read(&sgf), Ok(sample()));
    }

    #[test]
    fn psq_written_reads_back_its_moves_times_and_names() {
        let psq = write_psq(&sample());
        assert_eq!(psq, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\nmnk\nother]\n");
        let back = read(&psq).expect("a PSQ");
        assert_eq!(back.size, BoardSize::FIFTEEN);
        assert_eq!(back.moves, vec![(Point::new(7, 7), Some(0)), (Point::new(8, 8), Some(12))]);
        assert_eq!(back.names, [Some("mnk".into()), Some("other]".into())]);
        let mut broken = sample();
        broken.names[0] = Some("two\nlines\r\n".into());
        let back = read(&write_psq(&broken)).expect("a PSQ");
        assert_eq!(back.names, [Some("two lines".into()), Some("other]".into())]);
    }

    #[test]
    fn sgf_of_other_programs_reads_with_rectangles_variations_and_lowercase() {
        let file = read("(;FF[4]GM[4]SZ[20:15]\n;B[jh] ;W[ki](;B[lj])(;B[aa]))").expect("sgf");
        assert_eq!(file.size.arg(), "20x15");
        assert_eq!(file.points(), vec![Point::new(9, 7), Point::new(10, 8), Point::new(11, 9)]);
    }

    /// c-gomoku-cli's SGF: Gomocup's rule number, the root's properties on lines.
    #[test]
    fn sgf_rule_numbers_are_gomocups() {
        let text = "(;FF[4]GM[4]\nEV[a x b]\nRO[1.1]\nRU[4]\nSZ[15]\nPB[a]\nPW[b]\n;B[hh];W[ii])";
        let file = read(text).expect("sgf");
        assert_eq!((file.rule, file.points().len()), (Some(Rule::Renju), 2));
        assert_eq!(read("(;RU[1])").unwrap().rule, Some(Rule::Standard));
        assert_eq!(read("(;RU[0])").unwrap().rule, Some(Rule::Freestyle));
    }

    #[test]
    fn setup_stones_are_the_first_moves_with_their_colours() {
        let p = |x, y| Point::new(x, y);
        // Black hh and ij, white ii, then white's jj: black, white, black, white.
        let file = read("(;SZ[15]AB[hh][ij]AW[ii];W[jj])").expect("sgf");
        assert_eq!(file.points(), vec![p(7, 7), p(8, 8), p(8, 9), p(9, 9)]);
        // One black stone more: white moves next.
        let file = read("(;SZ[15]AB[hh][jj]AW[ii];W[kk]C[12 ms])").expect("sgf");
        assert_eq!(file.points(), vec![p(7, 7), p(8, 8), p(9, 9), p(10, 10)]);
        assert_eq!(file.moves[3].1, Some(12));
    }

    #[test]
    fn a_collection_gives_each_game_by_its_number() {
        let text = "(;SZ[15];B[hh];W[ii])\n(;SZ[9]RU[renju];B[ee])\n";
        let (first, count) = read_game(text, 1).expect("game 1");
        assert_eq!((first.size, first.points().len(), count), (BoardSize::FIFTEEN, 2, 2));
        let (second, _) = read_game(text, 2).expect("game 2");
        assert_eq!((second.size.arg().as_str(), second.rule), ("9", Some(Rule::Renju)));
        assert_eq!(read(text), Ok(first));
        for asked in [0, 3] {
            let error = read_game(text, asked).expect_err("no such game").to_string();
            assert_eq!(error, format!("no game {asked}: the file holds 2"));
        }
        assert!(read_game("Piskvorky 15x15, 11:11, 0\n8,8,0\n", 2).is_err());
    }

    #[test]
    fn dates_are_counted_from_1970_across_leap_years() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_785), (2026, 11, 28));
        assert_eq!(civil_date(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn broken_files_are_refused_with_the_reason() {
        let cases = [
            ("hello", "not a game file"),
            ("(;SZ[15];B[hh]", "expected ')'"),
            ("(;SZ[15];B[hh", "expected ']'"),
            ("(;SZ[99];B[hh])", "no board of size \"99\""),
            ("(;SZ[9];B[zz])", "not a move: \"zz\""),
            ("(;RU[chess])", "no rule \"chess\""),
            ("(;RU[3])", "no rule \"3\""),
            ("(;GM[1]SZ[19];B[pd])", "GM[1] is not a gomoku game"),
            ("(;SZ[15];B[hh];W[ii];W[jj])", "move 3 is not B's"),
            ("(;SZ[15];W[hh])", "move 1 is not B's"),
            ("(;SZ[15]AB[hh][ii][jj]AW[kk])", "setup stones black 3, white 1"),
            ("(;SZ[15]AW[hh])", "setup stones black 0, white 1"),
            ("(;SZ[15];B[hh]AB[ii])", "after the moves"),
            ("(;SZ[15];B[hh]) x", "'(' starting a game"),
            ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "not a move: \"16,1,0\""),
            ("Piskvorky big, 0", "no board"),
        ];
        for (text, message) in cases {
            let error = read(text).expect_err(text).to_string();
            assert!(error.contains(message), "{text:?}: {error}");
        }
    }
}
