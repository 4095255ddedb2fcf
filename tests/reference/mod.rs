//! A deliberately naive m,n,k board for cross-checking the bitboard engine: a 2-D array of
//! cells, a win test that walks coordinates, and a perft that plays every move (no bulk
//! counting). Slow and obviously right; shared by the test suites in this folder.

#![allow(dead_code, unreachable_pub)]

/// The naive rules, mirroring `mnk_engine::rules::Rule` in name only.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum NaiveRule {
    /// k or more in a row wins.
    Freestyle,
    /// Exactly k in a row wins.
    Standard,
    /// Black: exactly k and no overline, double four or double three; white: k or more.
    Renju,
    /// k or more, unless both ends are opponent stones.
    Caro,
    /// Exactly k, unless both ends are opponent stones.
    CaroExact,
}

impl NaiveRule {
    /// The naive rule of the same name as the engine's `rule`.
    pub fn of(rule: mnk_engine::rules::Rule) -> NaiveRule {
        use mnk_engine::rules::Rule;
        match rule {
            Rule::Freestyle => NaiveRule::Freestyle,
            Rule::Standard => NaiveRule::Standard,
            Rule::Renju => NaiveRule::Renju,
            Rule::Caro => NaiveRule::Caro,
            Rule::CaroExact => NaiveRule::CaroExact,
        }
    }
}

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// What lies just past one end of a run: `None` off the board, else the cell's content.
type End = Option<Option<u8>>;

/// Game state of a naive board.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum NaiveOutcome {
    Ongoing,
    /// Winner: 0 black, 1 white.
    Win(u8),
    Draw,
}

/// An n×n array board; `cells[y][x]` is `None` or the colour (0 black, 1 white).
#[derive(Clone, Debug)]
pub struct NaiveBoard {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    pub rule: NaiveRule,
    pub cells: Vec<Vec<Option<u8>>>,
    pub moves: Vec<(usize, usize)>,
    pub outcome: NaiveOutcome,
}

impl NaiveBoard {
    /// A `width` × `height` board where `k` in a row wins.
    pub fn new(width: usize, height: usize, k: usize, rule: NaiveRule) -> Self {
        NaiveBoard {
            width,
            height,
            k,
            rule,
            cells: vec![vec![None; width]; height],
            moves: Vec::new(),
            outcome: NaiveOutcome::Ongoing,
        }
    }

    pub fn to_move(&self) -> u8 {
        (self.moves.len() % 2) as u8
    }

    pub fn empty_cells(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.cells[y][x].is_none() {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// Plays (x, y) for the side to move; panics on an illegal move.
    pub fn play(&mut self, x: usize, y: usize) {
        assert_eq!(self.outcome, NaiveOutcome::Ongoing, "game over");
        assert!(self.cells[y][x].is_none(), "occupied");
        let c = self.to_move();
        self.cells[y][x] = Some(c);
        self.moves.push((x, y));
        self.outcome = if self.wins_through(x, y) {
            NaiveOutcome::Win(c)
        } else if self.moves.len() == self.width * self.height {
            NaiveOutcome::Draw
        } else {
            NaiveOutcome::Ongoing
        };
    }

    pub fn undo(&mut self) {
        let (x, y) = self.moves.pop().expect("a move to undo");
        self.cells[y][x] = None;
        self.outcome = NaiveOutcome::Ongoing;
    }

    fn at(&self, x: i32, y: i32) -> Option<Option<u8>> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            None
        } else {
            Some(self.cells[y as usize][x as usize])
        }
    }

    /// The run of the colour on (x, y) through it along (dx, dy): its cells, and what lies
    /// just past each end (`None` = off the board).
    fn run(&self, x: usize, y: usize, (dx, dy): (i32, i32)) -> (Vec<(usize, usize)>, End, End) {
        let c = self.cells[y][x];
        let mut cells = vec![(x, y)];
        let mut ends = [None, None];
        for (e, sign) in [1i32, -1].into_iter().enumerate() {
            let (mut cx, mut cy) = (x as i32 + sign * dx, y as i32 + sign * dy);
            while self.at(cx, cy) == Some(c) {
                cells.push((cx as usize, cy as usize));
                cx += sign * dx;
                cy += sign * dy;
            }
            ends[e] = self.at(cx, cy);
        }
        (cells, ends[0], ends[1])
    }

    /// Whether the stone at (x, y) is in a winning line: walk each of the four directions.
    fn wins_through(&self, x: usize, y: usize) -> bool {
        let c = self.cells[y][x].expect("a stone");
        let opp = Some(Some(1 - c));
        DIRECTIONS.iter().any(|&dir| {
            let (cells, a, b) = self.run(x, y, dir);
            let run = cells.len();
            match self.rule {
                NaiveRule::Freestyle => run >= self.k,
                NaiveRule::Standard => run == self.k,
                NaiveRule::Renju if c == 0 => run == self.k,
                NaiveRule::Renju => run >= self.k,
                NaiveRule::Caro => run >= self.k && !(a == opp && b == opp),
                NaiveRule::CaroExact => run == self.k && !(a == opp && b == opp),
            }
        })
    }

    /// The moves the side to move may play (renju: black's forbidden points excluded).
    pub fn legal_moves(&mut self) -> Vec<(usize, usize)> {
        let empty = self.empty_cells();
        if self.rule == NaiveRule::Renju
            && self.to_move() == 0
            && self.width.max(self.height) > self.k
        {
            empty.into_iter().filter(|&(x, y)| !self.forbidden(x, y, 8)).collect()
        } else {
            empty
        }
    }

    /// Renju: whether black may not play the empty (x, y), by the definition: no five, and an
    /// overline, two fours, or two real threes (a three is real when some move that is itself
    /// not forbidden turns it into a straight four).
    pub fn forbidden(&mut self, x: usize, y: usize, depth: u32) -> bool {
        self.cells[y][x] = Some(0);
        let runs: Vec<usize> = DIRECTIONS.iter().map(|&d| self.run(x, y, d).0.len()).collect();
        let verdict = if runs.contains(&5) {
            false
        } else {
            let overline = runs.iter().any(|&r| r > 5);
            overline || DIRECTIONS.iter().map(|&d| self.fours(x, y, d)).sum::<usize>() >= 2 || {
                let mut threes = 0;
                for &d in &DIRECTIONS {
                    if self.real_three(x, y, d, depth) {
                        threes += 1;
                    }
                }
                threes >= 2
            }
        };
        self.cells[y][x] = None;
        verdict
    }

    /// Empty cells within four steps of (x, y) along `d`.
    fn line_empties(&self, x: usize, y: usize, (dx, dy): (i32, i32)) -> Vec<(usize, usize)> {
        (-4..=4)
            .filter(|&i| i != 0)
            .map(|i| (x as i32 + i * dx, y as i32 + i * dy))
            .filter(|&(cx, cy)| self.at(cx, cy) == Some(None))
            .map(|(cx, cy)| (cx as usize, cy as usize))
            .collect()
    }

    /// Black's fours through (x, y) along `d`: distinct stone sets one move short of exactly
    /// five.
    fn fours(&mut self, x: usize, y: usize, d: (i32, i32)) -> usize {
        let mut sets: Vec<Vec<(usize, usize)>> = Vec::new();
        for (ex, ey) in self.line_empties(x, y, d) {
            self.cells[ey][ex] = Some(0);
            let (mut cells, _, _) = self.run(x, y, d);
            self.cells[ey][ex] = None;
            if cells.len() == 5 {
                cells.retain(|&c| c != (ex, ey));
                cells.sort_unstable();
                if !sets.contains(&cells) {
                    sets.push(cells);
                }
            }
        }
        sets.len()
    }

    /// Whether black's stone on (x, y) has a real three along `d`.
    fn real_three(&mut self, x: usize, y: usize, d: (i32, i32), depth: u32) -> bool {
        for (ex, ey) in self.line_empties(x, y, d) {
            self.cells[ey][ex] = Some(0);
            let (cells, _, _) = self.run(x, y, d);
            // A straight four through (x, y) and e: four in a row, both ends completing
            // exactly five.
            let straight = cells.len() == 4 && cells.contains(&(ex, ey)) && {
                // Positions along the line increase with the projection on `d`.
                let proj = |c: &(usize, usize)| c.0 as i32 * d.0 + c.1 as i32 * d.1;
                let lo = *cells.iter().min_by_key(|c| proj(c)).expect("four cells");
                let hi = *cells.iter().max_by_key(|c| proj(c)).expect("four cells");
                let ends = [
                    (lo.0 as i32 - d.0, lo.1 as i32 - d.1),
                    (hi.0 as i32 + d.0, hi.1 as i32 + d.1),
                ];
                ends.iter().all(|&(cx, cy)| {
                    self.at(cx, cy) == Some(None) && {
                        self.cells[cy as usize][cx as usize] = Some(0);
                        let five = self.run(x, y, d).0.len() == 5;
                        self.cells[cy as usize][cx as usize] = None;
                        five
                    }
                })
            };
            self.cells[ey][ex] = None;
            if straight && (depth == 0 || !self.forbidden(ex, ey, depth - 1)) {
                return true;
            }
        }
        false
    }

    /// Move sequences of length `depth`, playing every move.
    pub fn perft(&mut self, depth: u32) -> u128 {
        if depth == 0 {
            return 1;
        }
        if self.outcome != NaiveOutcome::Ongoing {
            return 0;
        }
        let mut total = 0;
        for (x, y) in self.legal_moves() {
            self.play(x, y);
            total += self.perft(depth - 1);
            self.undo();
        }
        total
    }
}

/// The engine's score encoding, restated: a win with ply n from the root scores `WIN − n`,
/// a loss at ply n scores `−WIN + n`, a draw 0.
pub const WIN: i32 = 30_000;

impl NaiveBoard {
    /// Exact score of the position for the side to move (plain alpha-beta over every empty
    /// cell in row-major order; no table, no threat logic, no pruning tricks).
    pub fn exact_score(&mut self) -> i32 {
        assert_eq!(self.outcome, NaiveOutcome::Ongoing);
        self.negamax(0, -WIN - 1, WIN + 1)
    }

    fn negamax(&mut self, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -WIN - 1;
        for (x, y) in self.empty_cells() {
            self.play(x, y);
            let score = match self.outcome {
                NaiveOutcome::Win(_) => WIN - (ply + 1),
                NaiveOutcome::Draw => 0,
                NaiveOutcome::Ongoing => -self.negamax(ply + 1, -beta, -alpha),
            };
            self.undo();
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Every position reachable from this one (itself included), as move lists, each
    /// distinct set of stones once.
    pub fn reachable_positions(&mut self) -> Vec<Vec<(usize, usize)>> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        self.collect(&mut seen, &mut out);
        out
    }

    fn collect(
        &mut self,
        seen: &mut std::collections::HashSet<Vec<Vec<Option<u8>>>>,
        out: &mut Vec<Vec<(usize, usize)>>,
    ) {
        if !seen.insert(self.cells.clone()) {
            return;
        }
        out.push(self.moves.clone());
        if self.outcome != NaiveOutcome::Ongoing {
            return;
        }
        for (x, y) in self.empty_cells() {
            self.play(x, y);
            self.collect(seen, out);
            self.undo();
        }
    }
}
