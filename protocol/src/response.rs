//! Responses: what the engine writes, one line each. Exact out: the formats below are what
//! managers parse.

use std::fmt;

use crate::command::Point;
use crate::error::SessionError;
use crate::player::Player;

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

/// One output line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `OK`
    Ok,
    /// `x,y`
    Move(Point),
    /// `x1,y1 x2,y2 ...` (a swap2 opening proposal)
    Moves(Vec<Point>),
    /// `SWAP`
    Swap,
    /// `ERROR reason`
    Error(SessionError),
    /// `UNKNOWN text`
    Unknown(String),
    /// `MESSAGE text`
    Message(String),
    /// The `ABOUT` line of the player answering.
    About(Player),
    /// `FORBID xxyy....` (`FORBID .` when there are none)
    Forbid(Vec<Point>),
    /// `nodes N` (the last line of `PERFT`)
    Nodes(u128),
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
            Response::Move((x, y)) => write!(f, "{x},{y}"),
            Response::Moves(points) => {
                let parts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                f.write_str(&parts.join(" "))
            }
            Response::Swap => f.write_str("SWAP"),
            Response::Error(reason) => write!(f, "ERROR {}", one_line(&reason.to_string())),
            Response::Unknown(text) => write!(f, "UNKNOWN {}", one_line(text)),
            Response::Message(text) => write!(f, "MESSAGE {}", one_line(text)),
            Response::About(Player::Mnk) => f.write_str(ABOUT),
            Response::About(Player::Classroom) => f.write_str(CLASSROOM_ABOUT),
            Response::Forbid(points) => {
                f.write_str("FORBID ")?;
                for (x, y) in points {
                    write!(f, "{x:02}{y:02}")?;
                }
                f.write_str(".")
            }
            Response::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_print_exactly() {
        assert_eq!(Response::Ok.to_string(), "OK");
        assert_eq!(Response::Move((7, 8)).to_string(), "7,8");
        assert_eq!(Response::Moves(vec![(7, 7), (8, 7), (7, 9)]).to_string(), "7,7 8,7 7,9");
        let stopped = SessionError::PerftStopped { depth: 4, ms: 12 };
        assert_eq!(
            Response::Error(stopped).to_string(),
            "ERROR PERFT: depth 4 stopped after 12 ms"
        );
        // Line breaks never split an answer, whatever a text holds.
        assert_eq!(Response::Unknown("bad\r\nthing".into()).to_string(), "UNKNOWN bad  thing");
        assert_eq!(Response::Message("12\u{1b}[2J34".into()).to_string(), "MESSAGE 12?[2J34");
        assert_eq!(Response::Forbid(vec![(7, 8), (9, 10)]).to_string(), "FORBID 07080910.");
        assert_eq!(Response::Forbid(vec![]).to_string(), "FORBID .");
        assert!(Response::About(Player::Mnk).to_string().starts_with("name=\"mnk\", version=\""));
        let classroom = Response::About(Player::Classroom).to_string();
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
}
