//! Game files both ways: SGF (`GM[4]`, as Gomoku GUIs write it) and Piskvork's PSQ.
//!
//! * [`read`] takes either (told apart by their first characters) and gives the board, the
//!   rule when the file names one (`RU[renju]` in SGF; PSQ has none), the moves and the
//!   players' names. It checks syntax only: whether the moves are legal is the board's
//!   concern.
//! * [`write_sgf`] and [`write_psq`] write a [`GameFile`]; the match records and the web
//!   board both save through them.
//!
//! SGF moves are `;B[hh]` with letters for x then y (`a` = 0); `SZ[15]` or `SZ[15:20]`
//! (width:height); a move's time, when known, is its node's comment `C[1234 ms]`.

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
        }
    }
}

impl std::error::Error for GameFileError {}

/// Reads an SGF or PSQ game (see the module docs).
pub fn read(text: &str) -> Result<GameFile, GameFileError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('(') {
        read_sgf(trimmed)
    } else if trimmed.starts_with("Piskvorky") {
        read_psq(trimmed)
    } else {
        Err(GameFileError::UnknownFormat)
    }
}

/// One `ID[value]` property of an SGF node.
struct Property {
    id: String,
    value: String,
}

/// The properties of an SGF game tree's main line, in order (variations are skipped).
fn sgf_properties(text: &str) -> Result<Vec<Property>, GameFileError> {
    let bytes = text.as_bytes();
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
                    break;
                }
            }
            _ if b == b';' || b.is_ascii_whitespace() => i += 1,
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
    Ok(properties)
}

fn read_sgf(text: &str) -> Result<GameFile, GameFileError> {
    let mut file = GameFile::new(BoardSize::FIFTEEN, None, &[]);
    for property in sgf_properties(text)? {
        let value = property.value.trim();
        match property.id.as_str() {
            "SZ" => {
                let arg = value.replace(':', "x");
                file.size = arg.parse().map_err(|_| GameFileError::Size(value.to_string()))?;
            }
            "RU" => {
                file.rule = Some(value.parse().map_err(|_| GameFileError::Rule(value.into()))?);
            }
            "PB" => file.names[0] = Some(value.to_string()),
            "PW" => file.names[1] = Some(value.to_string()),
            "RE" => file.result = Some(value.to_string()),
            "DT" => file.date = Some(value.to_string()),
            "EV" => file.event = Some(value.to_string()),
            "B" | "W" => {
                let letters: Vec<u8> = value.bytes().collect();
                let point = match letters[..] {
                    [x, y] if x.is_ascii_lowercase() && y.is_ascii_lowercase() => {
                        Point::new(usize::from(x - b'a'), usize::from(y - b'a'))
                    }
                    _ => return Err(GameFileError::Move(value.to_string())),
                };
                if point.x >= file.size.width() || point.y >= file.size.height() {
                    return Err(GameFileError::Move(value.to_string()));
                }
                file.moves.push((point, None));
            }
            "C" if file.moves.is_empty() => file.comment = Some(value.to_string()),
            "C" => {
                let ms = value.strip_suffix("ms").and_then(|n| n.trim().parse().ok());
                if let Some(last) = file.moves.last_mut() {
                    last.1 = last.1.or(ms);
                }
            }
            _ => {}
        }
    }
    Ok(file)
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
/// the players' names (unknown times are written 0).
pub fn write_psq(file: &GameFile) -> String {
    let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", file.size.width(), file.size.height());
    for (point, ms) in &file.moves {
        psq.push_str(&format!("{},{},{}\n", point.x + 1, point.y + 1, ms.unwrap_or(0)));
    }
    for name in &file.names {
        psq.push_str(name.as_deref().unwrap_or("?"));
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
    }

    #[test]
    fn sgf_of_other_programs_reads_with_rectangles_variations_and_lowercase() {
        let file = read("(;FF[4]GM[4]SZ[20:15]\n;B[jh] ;W[ki](;B[lj])(;B[aa]))").expect("sgf");
        assert_eq!(file.size.arg(), "20x15");
        assert_eq!(file.points(), vec![Point::new(9, 7), Point::new(10, 8), Point::new(11, 9)]);
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
            ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "not a move: \"16,1,0\""),
            ("Piskvorky big, 0", "no board"),
        ];
        for (text, message) in cases {
            let error = read(text).expect_err(text).to_string();
            assert!(error.contains(message), "{text:?}: {error}");
        }
    }
}
