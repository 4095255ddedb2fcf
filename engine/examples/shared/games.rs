//! The kept self-play games (`engine/training/selfplay/`), as the evaluation's examples read
//! them: a line per game, `GAME SIZE RULE RESULT OPENING MOVES` (see `train_eval pack`).

// Each example reads part of what is here.
#![allow(dead_code)]

use std::io::BufRead;

use mnk_engine::bitboard::Bitboard;
use mnk_engine::game::Game;
use mnk_engine::notation::{Point, parse_moves};
use mnk_engine::rng::SplitMix64;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

/// Prints `message` with the example's name and exits with code 2.
pub(crate) fn fail(message: &str) -> ! {
    let name = std::env::args().next().unwrap_or_default();
    let name = std::path::Path::new(&name).file_stem().map(|s| s.to_string_lossy().into_owned());
    eprintln!("{}: {message}", name.unwrap_or_default());
    std::process::exit(2)
}

/// The lines of a file, gunzipped if its name ends in `.gz`.
pub(crate) fn open(path: &str) -> impl Iterator<Item = String> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let reader: Box<dyn std::io::Read> = if path.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let path = path.to_string();
    std::io::BufReader::new(reader)
        .lines()
        .map(move |line| line.unwrap_or_else(|e| fail(&format!("{path}: {e}"))))
}

/// A game line without its number and its moves' scores: what makes two lines the same game
/// (a relabelled game, with a deeper search's scores, is the game it relabels).
pub(crate) fn game_key(line: &str) -> String {
    let text = line.split_once(' ').map_or(line, |(_, rest)| rest);
    let Some((head, moves)) = text.rsplit_once(' ') else { return text.to_string() };
    let moves: Vec<&str> = moves.split(',').map(|m| m.split(':').next().unwrap_or(m)).collect();
    format!("{head} {}", moves.join(","))
}

/// Whether the game with `key` ([`game_key`]) is held out of the fit: one in ten, by a hash
/// of the game itself, so the split does not depend on the files' order and a game keeps
/// its side when more games come.
pub(crate) fn is_held_out(key: &str) -> bool {
    // FNV-1a, 64 bits: fixed on every machine and version, unlike the standard hasher.
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    // FNV's low bit is the parity of the bytes, and a full board's moves are the same bytes
    // in any order: taken as it is, one in ten held out almost no drawn game. SplitMix64's
    // finalizer mixes every bit into the low ones first.
    SplitMix64::mix(hash).is_multiple_of(10)
}

/// Whether neither side can make five in `game`: a position the evaluation is judged on
/// (the next move decides the others, and the search reads them).
pub(crate) fn is_quiet(game: &Game) -> bool {
    mnk_engine::with_game!(game, b => {
        let me = b.side_to_move();
        b.winning_cells(me).is_empty() && b.winning_cells(me.opponent()).is_empty()
    })
}

/// One game line, parsed.
pub(crate) struct GameLine {
    pub(crate) size: BoardSize,
    pub(crate) rule: Rule,
    /// Black's result: 1, 0.5 or 0.
    pub(crate) black_result: f64,
    /// The opening as written (pos notation, comma-separated).
    pub(crate) opening: String,
    /// Each searched move and its search's score for the side that played it.
    pub(crate) moves: Vec<(Point, f64)>,
}

/// Parses a game line; the error says what is wrong.
pub(crate) fn parse_game(line: &str) -> Result<GameLine, String> {
    let fields: Vec<&str> = line.split(' ').collect();
    let [_, size, rule, result, opening, moves] = fields[..] else {
        return Err("not a game line".into());
    };
    let size: BoardSize = size.parse().map_err(|_| "a bad size")?;
    let rule: Rule = rule.parse().map_err(|_| "a bad rule")?;
    let black_result: f64 = result.parse().map_err(|_| "a bad result")?;
    let moves = moves
        .split(',')
        .map(|searched| {
            let (mv, score) = searched.split_once(':').ok_or("a bad move")?;
            let score: f64 = score.parse().map_err(|_| "a bad score")?;
            let point =
                parse_moves(mv).ok().and_then(|p| p.first().copied()).ok_or("a bad move")?;
            Ok((point, score))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(GameLine { size, rule, black_result, opening: opening.to_string(), moves })
}

/// Whether a game line is new: self-play from a repeated opening repeats itself, so a game
/// is taken once, the first time it is read ([`game_key`] decides: a relabelled file read
/// first gives its games' scores).
#[derive(Default)]
pub(crate) struct Distinct {
    seen: std::collections::HashSet<String>,
    /// Lines seen before.
    pub(crate) repeated: usize,
}

impl Distinct {
    /// Whether `line` (a game line) is seen for the first time.
    pub(crate) fn first_time(&mut self, line: &str) -> bool {
        let new = self.seen.insert(game_key(line));
        self.repeated += usize::from(!new);
        new
    }
}
