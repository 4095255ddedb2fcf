//! Proving the k = 5 games on boards from 5×5 to 8×8 (freestyle: five or more wins):
//! who wins with perfect play, with a certificate a separate checker can replay.
//!
//! A position's value takes two questions, each a df-pn proof ([`search`]): can the side to
//! move force a five (then it wins), and if not, can the other side (then it loses); if
//! neither, the game is a draw. Each "cannot" comes with the defender's strategy
//! ([`certificate`]), which [`verify`] checks with its own board code.
//!
//! Module map: [`grid`] (cells, lines, symmetries) → [`tactics`] (fives, fours, pairings,
//! continuous fours) → [`search`] (df-pn) → [`certificate`] (strategies out) and
//! [`verify`] (strategies checked, using nothing above).

pub mod certificate;
pub mod grid;
pub mod search;
pub mod tactics;
pub mod verify;

use grid::Grid;
use search::{Answer, Entry, Numbers, Progress, Prover};

use crate::game::Game;
use crate::limits::Limits;
use crate::notation::Point;
use crate::rules::Rule;
use crate::size::BoardSize;

use crate::solve::GameValue;

/// The two questions a value takes, for the side to move S and the other side O.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Question {
    /// Can S force a five?
    MoverWins,
    /// Can O force a five (S moving first)?
    OtherWins,
}

impl Question {
    /// Both, in the order they are asked.
    pub const BOTH: [Question; 2] = [Question::MoverWins, Question::OtherWins];
}

/// A position to prove: a board and both sides' stones.
#[derive(Clone, Debug)]
pub struct Position {
    /// The board.
    pub grid: Grid,
    /// Black's stones.
    pub black: u64,
    /// White's stones.
    pub white: u64,
    /// Whether black moves next.
    pub black_to_move: bool,
}

impl Position {
    /// The position of `game`, if the prover can take it: a board from 5 to 8 cells a side
    /// where five in a row wins as in freestyle (freestyle, or 5×5 under any rule, where
    /// every line spans the board and the rules coincide).
    pub fn of_game(game: &Game) -> Option<Position> {
        let size = game.size();
        let side = |n: usize| u8::try_from(n).ok();
        let grid = Grid::new(side(size.width())?, side(size.height())?)?;
        if game.rule() != Rule::Freestyle && size != BoardSize::FIVE {
            return None;
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, p) in game.history().iter().enumerate() {
            let b = grid::bit(p.x as u8, p.y as u8);
            if i.is_multiple_of(2) { black |= b } else { white |= b }
        }
        let black_to_move = game.history().len().is_multiple_of(2);
        Some(Position { grid, black, white, black_to_move })
    }

    /// The attacker's and defender's stones for a question, and whether the attacker moves.
    fn sides(&self, question: Question) -> (u64, u64, bool) {
        let (mover, other) =
            if self.black_to_move { (self.black, self.white) } else { (self.white, self.black) };
        match question {
            Question::MoverWins => (mover, other, true),
            Question::OtherWins => (other, mover, false),
        }
    }

    /// Whether the question's attacker is black.
    pub fn attacker_is_black(&self, question: Question) -> bool {
        (question == Question::MoverWins) == self.black_to_move
    }
}

/// A proof of a position's value, in progress or done.
pub struct Proof {
    position: Position,
    provers: Vec<(Question, Prover)>,
    answers: Vec<(Question, Answer)>,
}

/// The value found, with one best move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// The value for the side to move.
    pub value: GameValue,
    /// A move that keeps it (the winning move, a drawing move, or any move when lost), as a
    /// grid cell (`y · 8 + x`, see [`grid`]; [`cell_point`] gives its point).
    pub best: Option<u8>,
}

/// The point of a grid cell (`y · 8 + x`).
pub fn cell_point(cell: u8) -> Point {
    Point { x: usize::from(cell % 8), y: usize::from(cell / 8) }
}

impl Proof {
    /// A proof of `position`'s value (which must be undecided: no five on the board).
    pub fn new(position: Position) -> Proof {
        Proof::of(position, &Question::BOTH)
    }

    /// A proof that answers only `questions` (one, to ask whether one side can force a
    /// five).
    pub fn of(position: Position, questions: &[Question]) -> Proof {
        let provers = questions
            .iter()
            .map(|&q| {
                let (a, d, or) = position.sides(q);
                (q, Prover::new(&position.grid, a, d, or))
            })
            .collect();
        Proof { position, provers, answers: Vec::new() }
    }

    /// Keeps at most `max` positions in each question's table.
    pub fn set_max_positions(&mut self, max: usize) {
        for (_, prover) in &mut self.provers {
            prover.set_max_positions(max);
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Runs the questions still open within `limits` (their nodes for each run of a
    /// question), until the value is known or the limits stop it. `progress` gets each
    /// question's snapshots.
    pub fn run(
        &mut self,
        limits: &Limits,
        progress: &mut dyn FnMut(Question, &Progress),
    ) -> Option<Outcome> {
        for (question, prover) in &mut self.provers {
            if self.answers.iter().any(|(q, _)| q == question) {
                continue;
            }
            if self.answers.iter().any(|&(_, a)| a == Answer::Proved) {
                break;
            }
            let q = *question;
            prover.set_limits(limits.clone());
            match prover.run(&mut |p| progress(q, p)) {
                Answer::Unknown => return None,
                answer => self.answers.push((q, answer)),
            }
        }
        self.outcome()
    }

    /// The value once both questions (or a win) are answered.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let (first, second) = (self.answer(Question::MoverWins), self.answer(Question::OtherWins));
        let value = match (first, second) {
            (Some(Answer::Proved), _) => GameValue::Win,
            (Some(Answer::Disproved), Some(Answer::Proved)) => GameValue::Loss,
            (Some(Answer::Disproved), Some(Answer::Disproved)) => GameValue::Draw,
            _ => return None,
        };
        let best = match value {
            GameValue::Win => self.key_move(Question::MoverWins),
            GameValue::Draw => self.key_move(Question::OtherWins),
            GameValue::Loss => {
                let (mover, other) = (self.position.black, self.position.white);
                grid::cells(self.position.grid.all() & !(mover | other)).next()
            }
        };
        Some(Outcome { value, best })
    }

    /// The move that settles a question at a root where one move is enough: the
    /// attacker's winning move when it can force a five and moves first, the defender's
    /// refuting move when the attacker cannot and the defender moves first.
    pub fn key_move(&mut self, question: Question) -> Option<u8> {
        let answer = self.answer(question)?;
        let (a, d, or) = self.position.sides(question);
        let wanted = match (answer, or) {
            (Answer::Proved, true) => Answer::Proved,
            (Answer::Disproved, false) => Answer::Disproved,
            _ => return None,
        };
        let empty: Vec<u8> = grid::cells(self.position.grid.all() & !(a | d)).collect();
        self.prover(question).settling_move(a, d, or, &empty, wanted)
    }

    fn prover(&mut self, question: Question) -> &mut Prover {
        &mut self
            .provers
            .iter_mut()
            .find(|(q, _)| *q == question)
            .expect("a question this proof asks")
            .1
    }

    /// Node expansions of both questions.
    pub fn nodes(&self) -> u64 {
        self.provers.iter().map(|(_, p)| p.nodes()).sum()
    }

    /// The questions this proof asks.
    pub fn questions(&self) -> Vec<Question> {
        self.provers.iter().map(|(q, _)| *q).collect()
    }

    /// Whether the proof is over: every question answered, or the side to move's win proved.
    pub fn finished(&self) -> bool {
        self.answers.len() == self.provers.len()
            || self.answer(Question::MoverWins) == Some(Answer::Proved)
    }

    /// A question's answer, once the proof has one.
    pub fn answer(&self, question: Question) -> Option<Answer> {
        self.answers.iter().find(|(q, _)| *q == question).map(|&(_, a)| a)
    }

    /// The certificate of every "cannot force a five" answered so far (both sides' for a
    /// draw), as text (see [`certificate`]).
    pub fn certificate(&mut self) -> Result<String, String> {
        let refuted: Vec<Question> = self
            .answers
            .iter()
            .filter(|&&(_, a)| a == Answer::Disproved)
            .map(|&(q, _)| q)
            .collect();
        if refuted.is_empty() {
            return Err("certificates show that a side cannot force a five; here one can".into());
        }
        let position = self.position.clone();
        let grid = &position.grid;
        let mut out = format!("mnk-certificate 1\nboard {}x{}\n", grid.width(), grid.height());
        for question in refuted {
            let (a, d, or) = position.sides(question);
            let strategy = certificate::extract(self.prover(question), grid, a, d, or)?;
            certificate::write_section(
                &mut out,
                position.attacker_is_black(question),
                position.black,
                position.white,
                position.black_to_move,
                &strategy,
            );
        }
        out.push_str("end\n");
        Ok(out)
    }

    /// The proof's state, to resume it later ([`Proof::restore`]): the position, the
    /// answers so far and every table entry.
    pub fn save_state(&self) -> Vec<u8> {
        let p = &self.position;
        let mut out = Vec::new();
        out.extend_from_slice(STATE_MAGIC);
        let questions = self
            .provers
            .iter()
            .fold(0u8, |m, (q, _)| m | if *q == Question::MoverWins { 1 } else { 2 });
        out.extend_from_slice(&[
            p.grid.width(),
            p.grid.height(),
            u8::from(p.black_to_move),
            questions,
        ]);
        out.extend_from_slice(&p.black.to_le_bytes());
        out.extend_from_slice(&p.white.to_le_bytes());
        for (question, prover) in &self.provers {
            let answer = self.answers.iter().find(|(q, _)| q == question).map(|&(_, a)| a);
            out.push(match answer {
                None | Some(Answer::Unknown) => 0,
                Some(Answer::Proved) => 1,
                Some(Answer::Disproved) => 2,
            });
            out.extend_from_slice(&prover.nodes().to_le_bytes());
            out.extend_from_slice(&(prover.positions() as u64).to_le_bytes());
            for (key, e) in prover.entries() {
                out.extend_from_slice(&key.to_le_bytes());
                out.extend_from_slice(&e.numbers.pn.to_le_bytes());
                out.extend_from_slice(&e.numbers.dn.to_le_bytes());
                out.extend_from_slice(&e.work.to_le_bytes());
                out.extend_from_slice(&e.zone.to_le_bytes());
                out.push(e.reply);
            }
        }
        out
    }

    /// A proof resumed from [`Proof::save_state`]'s bytes; the error says what is wrong.
    pub fn restore(bytes: &[u8]) -> Result<Proof, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(STATE_MAGIC.len())? != STATE_MAGIC {
            return Err(if bytes.starts_with(b"mnk-proof-state-") {
                "a proof state written by another version of mnk (its tables lack relevance \
                 zones): start the proof again"
                    .into()
            } else {
                "not a proof state file".into()
            });
        }
        let head = r.take(4)?;
        let grid = Grid::new(head[0], head[1]).ok_or("a bad board size in the state")?;
        let black_to_move = head[2] != 0;
        let black = r.u64()?;
        let white = r.u64()?;
        if black & white != 0 || (black | white) & !grid.all() != 0 {
            return Err("bad stones in the state".into());
        }
        let mut questions = Vec::new();
        for bit in [1, 2] {
            if head[3] & bit != 0 {
                questions.push(if bit == 1 { Question::MoverWins } else { Question::OtherWins });
            }
        }
        if questions.is_empty() || head[3] > 3 {
            return Err("no question in the state".into());
        }
        let mut proof = Proof::of(Position { grid, black, white, black_to_move }, &questions);
        for question in questions {
            let answer = match r.take(1)?[0] {
                0 => None,
                1 => Some(Answer::Proved),
                2 => Some(Answer::Disproved),
                _ => return Err("a bad answer in the state".into()),
            };
            let nodes = r.u64()?;
            let count = r.u64()? as usize;
            let mut entries = Vec::with_capacity(count.min(bytes.len() / ENTRY_BYTES));
            for _ in 0..count {
                let key = u128::from_le_bytes(r.take(16)?.try_into().expect("16 bytes"));
                let pn = r.u32()?;
                let dn = r.u32()?;
                let work = r.u32()?;
                let zone = r.u64()?;
                let reply = r.take(1)?[0];
                entries.push((key, Entry { numbers: Numbers { pn, dn }, work, zone, reply }));
            }
            let prover = proof.prover(question);
            prover.restore(entries);
            prover.add_nodes(nodes);
            if let Some(answer) = answer {
                proof.answers.push((question, answer));
            }
        }
        if r.at != bytes.len() {
            return Err("trailing bytes in the state".into());
        }
        Ok(proof)
    }
}

const STATE_MAGIC: &[u8] = b"mnk-proof-state-3\n";
/// Bytes of one saved table entry: key, pn, dn, work, zone, reply.
const ENTRY_BYTES: usize = 37;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or("the state file is cut short")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}
