//! The certificate checker: replays a defender's strategy against every attacker move,
//! with its own plain board code (cells as coordinates, lines found by walking), so that
//! nothing the prover prunes or assumes is taken on trust. See [`super::certificate`] for
//! the format.

use std::collections::{HashMap, HashSet};

/// What a checked certificate shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Board width and height.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// One entry per section: the side refuted, the position (black, white, black to
    /// move), and the positions the check visited.
    pub sections: Vec<CheckedSection>,
}

/// One checked `refutes` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedSection {
    /// Black is the side shown unable to force a five.
    pub refutes_black: bool,
    /// Black's stones at the start.
    pub black: u64,
    /// White's stones at the start.
    pub white: u64,
    /// Black moves first.
    pub black_to_move: bool,
    /// Positions visited by the check.
    pub positions: u64,
}

enum Rec {
    Reply(u8),
    Pairs(Vec<(u8, u8)>),
}

struct Section {
    refutes_black: bool,
    black: u64,
    white: u64,
    black_to_move: bool,
    records: HashMap<(u64, u64), Rec>,
}

/// Checks a certificate's text; the error names the first thing wrong (with its line
/// number when it is the text).
pub fn check(text: &str) -> Result<Checked, String> {
    let mut lines =
        text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let mut next = || lines.next().map(|(n, l)| (n + 1, l.split_whitespace().collect::<Vec<_>>()));
    match next() {
        Some((_, w)) if w == ["mnk-certificate", "1"] => {}
        _ => return Err("line 1: expected 'mnk-certificate 1'".into()),
    }
    let (width, height) = match next() {
        Some((n, w)) if w.len() == 2 && w[0] == "board" => {
            let (a, b) = w[1].split_once('x').ok_or(format!("line {n}: board WxH"))?;
            let parse = |s: &str| s.parse::<u8>().ok().filter(|v| (5..=8).contains(v));
            match (parse(a), parse(b)) {
                (Some(w), Some(h)) => (w, h),
                _ => return Err(format!("line {n}: the board must be 5 to 8 a side")),
            }
        }
        _ => return Err("line 2: expected 'board WxH'".into()),
    };
    let board = Plain::new(width, height);
    let mut sections = Vec::new();
    let mut current: Option<Section> = None;
    let mut ended = false;
    while let Some((n, w)) = next() {
        let err = |what: &str| format!("line {n}: {what}");
        match w[0] {
            "refutes" => {
                if let Some(s) = current.take() {
                    sections.push(s);
                }
                let refutes_black =
                    side(w.get(1).copied()).ok_or_else(|| err("refutes black|white"))?;
                let (_, p) = next().ok_or_else(|| err("a position line must follow"))?;
                if p.len() != 4 || p[0] != "position" {
                    return Err(err("expected 'position <black> <white> <side>' after 'refutes'"));
                }
                let black = board.stones(p[1]).ok_or_else(|| err("bad black stones"))?;
                let white = board.stones(p[2]).ok_or_else(|| err("bad white stones"))?;
                let black_to_move = side(Some(p[3])).ok_or_else(|| err("bad side to move"))?;
                if black & white != 0 {
                    return Err(err("a cell holds two stones"));
                }
                current = Some(Section {
                    refutes_black,
                    black,
                    white,
                    black_to_move,
                    records: HashMap::new(),
                });
            }
            "R" | "P" => {
                let section = current.as_mut().ok_or_else(|| err("a record before 'refutes'"))?;
                if w.len() < 3 {
                    return Err(err("a record needs two stone sets"));
                }
                let a = board.stones(w[1]).ok_or_else(|| err("bad attacker stones"))?;
                let d = board.stones(w[2]).ok_or_else(|| err("bad defender stones"))?;
                let rec = if w[0] == "R" {
                    if w.len() != 4 {
                        return Err(err("R <attacker> <defender> <cell>"));
                    }
                    Rec::Reply(board.cell(w[3]).ok_or_else(|| err("bad cell"))?)
                } else {
                    let mut pairs = Vec::new();
                    for pair in &w[3..] {
                        let (p, q) =
                            pair.split_once('-').ok_or_else(|| err("a pair is <cell>-<cell>"))?;
                        match (board.cell(p), board.cell(q)) {
                            (Some(p), Some(q)) => pairs.push((p, q)),
                            _ => return Err(err("bad cell in a pair")),
                        }
                    }
                    Rec::Pairs(pairs)
                };
                if section.records.insert((a, d), rec).is_some() {
                    return Err(err("a position recorded twice"));
                }
            }
            "end" => {
                ended = true;
                break;
            }
            other => return Err(err(&format!("unknown item '{other}'"))),
        }
    }
    if !ended {
        return Err("the certificate does not end with 'end' (cut short?)".into());
    }
    sections.extend(current);
    if sections.is_empty() {
        return Err("no 'refutes' section".into());
    }
    let mut checked = Vec::new();
    for s in &sections {
        let (a, d) = if s.refutes_black { (s.black, s.white) } else { (s.white, s.black) };
        let attacker_to_move = s.black_to_move == s.refutes_black;
        let name = if s.refutes_black { "black" } else { "white" };
        if board.five(a) || board.five(d) {
            return Err(format!("refutes {name}: the position is already decided"));
        }
        let mut walker = Walker { board: &board, records: &s.records, seen: HashSet::new() };
        let result = if attacker_to_move { walker.attacker(a, d) } else { walker.defender(a, d) };
        result.map_err(|e| format!("refutes {name}: {e}"))?;
        checked.push(CheckedSection {
            refutes_black: s.refutes_black,
            black: s.black,
            white: s.white,
            black_to_move: s.black_to_move,
            positions: walker.seen.len() as u64,
        });
    }
    Ok(Checked { width, height, sections: checked })
}

fn side(word: Option<&str>) -> Option<bool> {
    match word? {
        "black" => Some(true),
        "white" => Some(false),
        _ => None,
    }
}

/// Stones in a row that win: the checker's own k (it shares nothing with the prover's grid).
const K: usize = 5;

/// A board by coordinates: every line of [`K`] cells as its list of cells.
struct Plain {
    width: u8,
    height: u8,
    lines: Vec<[u8; K]>,
}

impl Plain {
    fn new(width: u8, height: u8) -> Plain {
        let mut lines = Vec::new();
        let (w, h) = (i32::from(width), i32::from(height));
        for y in 0..h {
            for x in 0..w {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..K as i32).map(|i| (x + dx * i, y + dy * i)).collect();
                    if cells.iter().all(|&(cx, cy)| cx >= 0 && cy >= 0 && cx < w && cy < h) {
                        let mut line = [0u8; K];
                        for (slot, (cx, cy)) in line.iter_mut().zip(cells) {
                            *slot = (cy * 8 + cx) as u8;
                        }
                        lines.push(line);
                    }
                }
            }
        }
        Plain { width, height, lines }
    }

    fn on_board(&self, cell: u8) -> bool {
        cell % 8 < self.width && cell / 8 < self.height
    }

    fn stones(&self, hex: &str) -> Option<u64> {
        let set = u64::from_str_radix(hex, 16).ok()?;
        (0..64u8).filter(|&c| set >> c & 1 != 0).all(|c| self.on_board(c)).then_some(set)
    }

    fn cell(&self, name: &str) -> Option<u8> {
        let mut chars = name.chars();
        let column = chars.next()?;
        let row: u8 = chars.as_str().parse().ok()?;
        if !column.is_ascii_lowercase() || row == 0 {
            return None;
        }
        let (x, y) = (column as u8 - b'a', row - 1);
        (x < self.width && y < self.height).then_some(8 * y + x)
    }

    fn empty(&self, a: u64, d: u64) -> Vec<u8> {
        (0..64u8).filter(|&c| self.on_board(c) && (a | d) >> c & 1 == 0).collect()
    }

    fn five(&self, stones: u64) -> bool {
        self.lines.iter().any(|line| line.iter().all(|&c| stones >> c & 1 != 0))
    }

    /// Disjoint empty pairs, and every line without a defender stone holds one.
    fn pairing_holds(&self, a: u64, d: u64, pairs: &[(u8, u8)]) -> bool {
        let mut used = 0u64;
        for &(p, q) in pairs {
            for c in [p, q] {
                if !self.on_board(c) || (a | d | used) >> c & 1 != 0 {
                    return false;
                }
                used |= 1 << c;
            }
            if p == q {
                return false;
            }
        }
        self.lines
            .iter()
            .filter(|line| line.iter().all(|&c| d >> c & 1 == 0))
            .all(|line| pairs.iter().any(|&(p, q)| line.contains(&p) && line.contains(&q)))
    }
}

struct Walker<'a> {
    board: &'a Plain,
    records: &'a HashMap<(u64, u64), Rec>,
    seen: HashSet<(u64, u64)>,
}

impl Walker<'_> {
    /// The attacker to move: every move must leave a position the strategy holds.
    fn attacker(&mut self, a: u64, d: u64) -> Result<(), String> {
        if !self.seen.insert((a, d)) {
            return Ok(());
        }
        if let Some(Rec::Pairs(pairs)) = self.records.get(&(a, d)) {
            return self.pairs(a, d, pairs);
        }
        for m in self.board.empty(a, d) {
            let after = a | 1 << m;
            if self.board.five(after) {
                return Err(format!(
                    "the attacker makes five at {} in {a:x} {d:x}",
                    super::certificate::cell_name(m)
                ));
            }
            self.defender(after, d)?;
        }
        Ok(())
    }

    /// The defender to move: the strategy's record decides.
    fn defender(&mut self, a: u64, d: u64) -> Result<(), String> {
        if !self.seen.insert((a, d)) {
            return Ok(());
        }
        let empty = self.board.empty(a, d);
        if empty.is_empty() {
            return Ok(());
        }
        match self.records.get(&(a, d)) {
            None => Err(format!(
                "no defender's move for the position with attacker stones {a:x} and defender stones {d:x} (bitboards in hex)"
            )),
            Some(Rec::Pairs(pairs)) => self.pairs(a, d, pairs),
            Some(&Rec::Reply(cell)) => {
                if !empty.contains(&cell) {
                    return Err(format!(
                        "the reply {} in {a:x} {d:x} is not empty",
                        super::certificate::cell_name(cell)
                    ));
                }
                let after = d | 1 << cell;
                if self.board.five(after) {
                    return Ok(());
                }
                self.attacker(a, after)
            }
        }
    }

    fn pairs(&self, a: u64, d: u64, pairs: &[(u8, u8)]) -> Result<(), String> {
        if self.board.pairing_holds(a, d, pairs) {
            Ok(())
        } else {
            Err(format!("the pairing for {a:x} {d:x} leaves a line open"))
        }
    }
}
