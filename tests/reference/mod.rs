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
}

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
    pub n: usize,
    pub k: usize,
    pub rule: NaiveRule,
    pub cells: Vec<Vec<Option<u8>>>,
    pub moves: Vec<(usize, usize)>,
    pub outcome: NaiveOutcome,
}

impl NaiveBoard {
    pub fn new(n: usize, k: usize, rule: NaiveRule) -> Self {
        NaiveBoard {
            n,
            k,
            rule,
            cells: vec![vec![None; n]; n],
            moves: Vec::new(),
            outcome: NaiveOutcome::Ongoing,
        }
    }

    pub fn to_move(&self) -> u8 {
        (self.moves.len() % 2) as u8
    }

    pub fn empty_cells(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
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
        } else if self.moves.len() == self.n * self.n {
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

    /// Whether the stone at (x, y) is in a winning line: walk each of the four directions.
    fn wins_through(&self, x: usize, y: usize) -> bool {
        let c = self.cells[y][x];
        for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1i32, -1] {
                let (mut cx, mut cy) = (x as i32 + sign * dx, y as i32 + sign * dy);
                while cx >= 0
                    && cy >= 0
                    && (cx as usize) < self.n
                    && (cy as usize) < self.n
                    && self.cells[cy as usize][cx as usize] == c
                {
                    run += 1;
                    cx += sign * dx;
                    cy += sign * dy;
                }
            }
            let wins = match self.rule {
                NaiveRule::Freestyle => run >= self.k,
                NaiveRule::Standard => run == self.k,
            };
            if wins {
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
        for (x, y) in self.empty_cells() {
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
