//! A finished game, and the files it is saved in: SGF (`GM[4]`, as Gomoku GUIs read it)
//! and Piskvork's PSQ.

use mnk_engine::color::Color;
use mnk_engine::notation::Point;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;

use super::referee::GameResult;

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Black's name (from `ABOUT`) and white's.
    pub names: [String; 2],
    /// The opening stones, then the moves with the time each took (0 for the opening).
    pub moves: Vec<(Point, u64)>,
    /// Stones of the opening at the start of `moves`.
    pub opening_len: usize,
    /// The rule it was played under.
    pub rule: Rule,
    /// The result.
    pub result: GameResult,
}

impl GameRecord {
    /// The game in SGF (`GM[4]`), moves as `B[hh]` with letters for x then y.
    pub fn to_sgf(&self, size: BoardSize) -> String {
        let result = match self.result.winner {
            Some(Color::Black) => "B+".to_string(),
            Some(Color::White) => "W+".to_string(),
            None => "0".to_string(),
        };
        let board = if size.is_square() {
            size.width().to_string()
        } else {
            format!("{}:{}", size.width(), size.height())
        };
        let mut sgf = format!(
            "(;GM[4]FF[4]SZ[{board}]PB[{}]PW[{}]RE[{}]C[{}]",
            escape(&self.names[0]),
            escape(&self.names[1]),
            result,
            escape(&self.result.reason.to_string())
        );
        for (i, (point, _)) in self.moves.iter().enumerate() {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            let letter = |coordinate: usize| char::from(b'a' + coordinate as u8);
            sgf.push_str(&format!(";{colour}[{}{}]", letter(point.x), letter(point.y)));
        }
        sgf.push_str(")\n");
        sgf
    }

    /// The game in Piskvork's PSQ format: a header, then `x,y,time_ms` per move, 1-based,
    /// then the players' names.
    pub fn to_psq(&self, size: BoardSize) -> String {
        let mut psq = format!("Piskvorky {}x{}, 11:11, 0\n", size.width(), size.height());
        for (point, ms) in &self.moves {
            psq.push_str(&format!("{},{},{}\n", point.x + 1, point.y + 1, ms));
        }
        psq.push_str(&format!("{}\n{}\n", self.names[0], self.names[1]));
        psq
    }
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::referee::GameEnd;

    #[test]
    fn records_print_as_sgf_and_psq() {
        let record = GameRecord {
            names: ["mnk".into(), "other]".into()],
            moves: vec![(Point::new(7, 7), 0), (Point::new(8, 8), 12)],
            opening_len: 1,
            rule: Rule::Freestyle,
            result: GameResult {
                winner: Some(Color::White),
                reason: GameEnd::Timeout { ms: 1100 },
            },
        };
        assert_eq!(
            record.to_sgf(BoardSize::FIFTEEN),
            "(;GM[4]FF[4]SZ[15]PB[mnk]PW[other\\]]RE[W+]C[timeout: no move within 1100 ms];B[hh];W[ii])\n"
        );
        assert_eq!(
            record.to_psq(BoardSize::FIFTEEN),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\nmnk\nother]\n"
        );
    }
}
