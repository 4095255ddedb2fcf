//! Responses: what an engine writes, one line each. Exact out: the formats below are what
//! managers parse; [`Response`]'s `FromStr` reads them back (mnk's match manager reads its
//! engines' answers with it), so what the session writes and what the manager reads are
//! one type.

use std::fmt;
use std::str::FromStr;

use mnk_engine::engine::Player;
use mnk_engine::notation::Point;

use crate::error::SessionError;
use crate::progress::Progress;

/// The `ABOUT` line of a player named `$name`: its version and authors. (The optional
/// `country`, `www` and `email` fields are left out: the project has none to give, and a
/// manager shows an invented one as if it were real.)
macro_rules! about_line {
    ($name:literal) => {
        concat!(
            "name=\"",
            $name,
            "\", version=\"",
            env!("CARGO_PKG_VERSION"),
            "\", author=\"The mnk developers\""
        )
    };
}

/// The engine's name, version and origin for `ABOUT`.
pub const ABOUT: &str = about_line!("mnk");
/// `ABOUT` for the classroom player (`pbrain-mnk classroom`).
pub const CLASSROOM_ABOUT: &str = about_line!("mnk-classroom");

/// An `ABOUT` line: `key="value"` fields separated by `, ` (`name`, `version`, `author`,
/// `country`, `www`, `email`, in any order; a value holds no `"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct About {
    /// The fields in their order.
    pub fields: Vec<(String, String)>,
}

impl About {
    /// The `ABOUT` of `player`.
    pub fn of(player: Player) -> About {
        let line = match player {
            Player::Mnk => ABOUT,
            Player::Classroom => CLASSROOM_ABOUT,
        };
        line.parse().expect("mnk's own ABOUT lines are well formed")
    }

    /// The value of field `key`, if the line has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, value)| value.as_str())
    }
}

impl fmt::Display for About {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (key, value)) in self.fields.iter().enumerate() {
            let separator = if i == 0 { "" } else { ", " };
            write!(f, "{separator}{key}=\"{value}\"")?;
        }
        Ok(())
    }
}

impl FromStr for About {
    type Err = UnknownLine;

    fn from_str(line: &str) -> Result<About, UnknownLine> {
        let mut fields = Vec::new();
        let mut rest = line.trim();
        while !rest.is_empty() {
            let (key, after) = rest.split_once("=\"").ok_or(UnknownLine)?;
            let (value, after) = after.split_once('"').ok_or(UnknownLine)?;
            let key = key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(UnknownLine);
            }
            fields.push((key.to_string(), value.to_string()));
            rest = after.trim_start();
            rest = rest.strip_prefix(',').map_or(rest, str::trim_start);
        }
        if fields.is_empty() {
            return Err(UnknownLine);
        }
        Ok(About { fields })
    }
}

/// One output line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`
    Ok,
    /// `x,y`
    Move(Point),
    /// `x1,y1 x2,y2 ...` (two or more: a swap2 opening proposal, a balanced placement)
    Moves(Vec<Point>),
    /// `SWAP`
    Swap,
    /// `ERROR reason`
    Error(String),
    /// `UNKNOWN text`
    Unknown(String),
    /// `MESSAGE` and a progress report (see [`Progress`]).
    Info(Progress),
    /// `MESSAGE text`, any other text.
    Message(String),
    /// `DEBUG text` (mnk writes none; other engines do).
    Debug(String),
    /// An `ABOUT` line.
    About(About),
    /// `FORBID xxyy....` (`FORBID .` when there are none)
    Forbid(Vec<Point>),
    /// `nodes N` (the last line of `PERFT`)
    Nodes(u128),
}

impl From<SessionError> for Response {
    /// `ERROR` and the refusal's text.
    fn from(error: SessionError) -> Response {
        Response::Error(error.to_string())
    }
}

/// Replaces line breaks with spaces, so a response can never split into two lines, and
/// every other control character with `?`, so no text echoed from the input can reach a
/// terminal or a manager as an escape sequence.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            c if c.is_control() => '?',
            c => c,
        })
        .collect()
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => f.write_str("OK"),
            Response::Move(point) => write!(f, "{point}"),
            Response::Moves(points) => {
                let parts: Vec<String> = points.iter().map(Point::to_string).collect();
                f.write_str(&parts.join(" "))
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Error(reason) => write!(f, "ERROR {}", one_line(reason)),
            Response::Unknown(text) => write!(f, "UNKNOWN {}", one_line(text)),
            Response::Info(progress) => write!(f, "MESSAGE {progress}"),
            Response::Message(text) => write!(f, "MESSAGE {}", one_line(text)),
            Response::Debug(text) => write!(f, "DEBUG {}", one_line(text)),
            Response::About(about) => write!(f, "{}", one_line(&about.to_string())),
            Response::Forbid(points) => {
                f.write_str("FORBID ")?;
                for point in points {
                    write!(f, "{:02}{:02}", point.x, point.y)?;
                }
                f.write_str(".")
            }
            Response::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// An output line that is none of the [`Response`]s (an engine's stray bytes, say).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLine;

impl fmt::Display for UnknownLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a response line")
    }
}

impl std::error::Error for UnknownLine {}

/// The `FORBID` points: four digits each, x then y (`FORBID` writes at most two a
/// coordinate, enough for every board), then `.`.
fn parse_forbid(text: &str) -> Result<Vec<Point>, UnknownLine> {
    let digits = text.strip_suffix('.').ok_or(UnknownLine)?;
    if digits.len() % 4 != 0 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(UnknownLine);
    }
    let number = |i: usize| digits[i..i + 2].parse::<usize>().map_err(|_| UnknownLine);
    (0..digits.len()).step_by(4).map(|i| Ok(Point::new(number(i)?, number(i + 2)?))).collect()
}

impl FromStr for Response {
    type Err = UnknownLine;

    /// The response a line is (a trailing CR and surrounding spaces aside). Words are read
    /// as managers read them: upper case; a `MESSAGE` that is a progress report is one.
    fn from_str(line: &str) -> Result<Response, UnknownLine> {
        let line = line.trim();
        let (word, rest) = match line.split_once(' ') {
            Some((word, rest)) => (word, rest),
            None => (line, ""),
        };
        Ok(match word {
            "OK" if rest.is_empty() => Response::Ok,
            "SWAP" if rest.is_empty() => Response::Swap,
            "ERROR" => Response::Error(rest.to_string()),
            "UNKNOWN" => Response::Unknown(rest.to_string()),
            "MESSAGE" => match rest.parse::<Progress>() {
                Ok(progress) => Response::Info(progress),
                Err(_) => Response::Message(rest.to_string()),
            },
            "DEBUG" => Response::Debug(rest.to_string()),
            "FORBID" => Response::Forbid(parse_forbid(rest)?),
            "nodes" => Response::Nodes(rest.parse().map_err(|_| UnknownLine)?),
            _ if line.starts_with("name=") || line.contains("=\"") => {
                Response::About(line.parse()?)
            }
            _ => {
                let points: Vec<Point> = line
                    .split(' ')
                    .map(|part| part.parse::<Point>().map_err(|_| UnknownLine))
                    .collect::<Result<_, _>>()?;
                match &points[..] {
                    [point] => Response::Move(*point),
                    _ => Response::Moves(points),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::AnswerSummary;

    #[test]
    fn responses_print_exactly() {
        assert_eq!(Response::Ok.to_string(), "OK");
        assert_eq!(Response::Move(Point::new(7, 8)).to_string(), "7,8");
        let opening = vec![Point::new(7, 7), Point::new(8, 7), Point::new(7, 9)];
        assert_eq!(Response::Moves(opening).to_string(), "7,7 8,7 7,9");
        let stopped = SessionError::PerftStopped { depth: 4, ms: 12 };
        assert_eq!(Response::from(stopped).to_string(), "ERROR PERFT: depth 4 stopped after 12 ms");
        // Line breaks never split an answer, whatever a text holds.
        assert_eq!(Response::Unknown("bad\r\nthing".into()).to_string(), "UNKNOWN bad  thing");
        assert_eq!(Response::Message("12\u{1b}[2J34".into()).to_string(), "MESSAGE 12?[2J34");
        let forbid = Response::Forbid(vec![Point::new(7, 8), Point::new(9, 10)]);
        assert_eq!(forbid.to_string(), "FORBID 07080910.");
        assert_eq!(Response::Forbid(vec![]).to_string(), "FORBID .");
        let mnk = Response::About(About::of(Player::Mnk)).to_string();
        assert!(mnk.starts_with("name=\"mnk\", version=\""));
        assert_eq!(mnk, ABOUT);
        let classroom = Response::About(About::of(Player::Classroom)).to_string();
        assert!(classroom.starts_with("name=\"mnk-classroom\", version=\""));
    }

    #[test]
    fn about_values_hold_no_commas_or_equals() {
        for part in ABOUT.split(", ").chain(CLASSROOM_ABOUT.split(", ")) {
            let (_, value) = part.split_once('=').unwrap();
            let inner = value.trim_matches('"');
            assert!(!inner.contains(',') && !inner.contains('='), "{part}");
        }
    }

    /// Every kind of response prints and parses back to itself.
    #[test]
    fn every_response_round_trips() {
        let about: About =
            "name=\"Rapfi, the engine\", version=\"1\", www=\"x.org\"".parse().unwrap();
        assert_eq!(about.get("name"), Some("Rapfi, the engine"));
        let answer = AnswerSummary { depth: 3, score: -12, kilonodes: 4, time_ms: 5 };
        let all = [
            Response::Ok,
            Response::Move(Point::new(0, 21)),
            Response::Moves(vec![Point::new(7, 7), Point::new(8, 8), Point::new(11, 4)]),
            Response::Swap,
            Response::Error("TURN 8,8: 8,8 is occupied".into()),
            Response::Unknown("FROBNICATE".into()),
            Response::Info(Progress::Answer(answer)),
            Response::Message("eval -12".into()),
            Response::Debug("hash 12%".into()),
            Response::About(about),
            Response::About(About::of(Player::Mnk)),
            Response::Forbid(vec![Point::new(9, 7), Point::new(21, 0)]),
            Response::Forbid(vec![]),
            Response::Nodes(127_872),
        ];
        for response in all {
            let line = response.to_string();
            assert_eq!(line.parse::<Response>(), Ok(response), "{line}");
        }
    }

    #[test]
    fn lines_that_are_no_response_are_refused() {
        for line in [
            "",
            "hello there",
            "7,8,9",
            "7,x",
            "-1,3",
            "depth 3",
            "FORBID 0709",
            "nodes x",
            "OK then",
        ] {
            assert_eq!(line.parse::<Response>(), Err(UnknownLine), "{line:?}");
        }
        assert_eq!(" 7,8\r".parse::<Response>(), Ok(Response::Move(Point::new(7, 8))));
    }
}
