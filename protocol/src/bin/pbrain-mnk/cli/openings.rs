//! `pbrain-mnk openings`: balanced openings for matches, chosen by mnk's own search.
//!
//! Random openings (as `match` makes them: `--stones` stones near the centre) are scored by
//! a node-limited search ([`opening_score`]), and those within `--max-score` of even for the
//! side to move are kept, one per line, until `--count` are found. Openings that are the
//! same position up to a symmetry of the board count once. The output is a file for
//! `match --openings`; the same arguments always give the same file (for the same build):
//!
//! ```text
//! # pbrain-mnk openings --size 15 --rule freestyle --count 2 --stones 3 --nodes 200000 --max-score 60 --seed 1
//! h7,j9,g9 # -12
//! i6,g8,h9 # 31
//! ```
//!
//! The number after `#` is the score for the side to move. A summary goes to stderr.

use std::collections::HashSet;
use std::io::Write;

use mnk_engine::geometry::Geometry;
use mnk_engine::notation::format_pos;
use mnk_engine::rng::SplitMix64;
use mnk_engine::score::{Score, format_score};

use mnk_engine::notation::Point;
use mnk_protocol::manager::openings::{opening_score, random_opening};

use super::{CliError, GameArgs, UsageError};

/// `openings`' options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Openings to write.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    count: u32,
    /// Stones of each opening, near the centre.
    #[arg(long, default_value_t = 3)]
    stones: usize,
    /// Nodes of the search that scores an opening.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Largest score, for the side to move, of an opening kept.
    #[arg(long = "max-score", default_value_t = 60, value_parser = clap::value_parser!(i32).range(0..))]
    max_score: Score,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Fewer balanced openings found than asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shortfall {
    found: usize,
    count: usize,
    max_score: Score,
    tried: usize,
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "found {} of {} openings within {} in {} tries; allow a larger --max-score or ask \
             for fewer",
            self.found, self.count, self.max_score, self.tried
        )
    }
}

/// Random openings tried per opening asked for before giving up.
pub(crate) const TRIES_PER_OPENING: usize = 100;

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (size, rule, stones, nodes, max_score, seed) =
        (args.game.size, args.game.rule, args.stones, args.nodes, args.max_score, args.seed);
    let count = args.count as usize;
    let cells = size.width() * size.height();
    if stones >= cells {
        return Err(UsageError::TooManyStones { cells }.into());
    }
    writeln!(
        out,
        "# pbrain-mnk openings --size {} --rule {rule} --count {count} --stones {stones} \
         --nodes {nodes} --max-score {max_score} --seed {seed}",
        size.arg()
    )?;
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let (mut kept, mut tried) = (0, 0);
    while kept < count && tried < count.saturating_mul(TRIES_PER_OPENING) {
        tried += 1;
        let opening = random_opening(&mut rng, size, rule, stones);
        if !seen.insert(canonical(&opening, size.geometry())) {
            continue;
        }
        let score = opening_score(size, rule, &opening, nodes)
            .expect("random openings are made of legal moves");
        if score.abs() <= max_score {
            writeln!(out, "{} # {}", pos_notation(&opening), format_score(score))?;
            kept += 1;
        }
    }
    eprintln!("kept {kept} of {tried} openings tried");
    if kept < count {
        return Err(CliError::Openings(Shortfall { found: kept, count, max_score, tried }));
    }
    Ok(())
}

/// The opening as a key that is the same for all its images under the board's symmetries:
/// the smallest of the images' move lists, each with black's and white's points sorted.
fn canonical(opening: &[Point], geometry: Geometry) -> Vec<Point> {
    let (width, height) = (geometry.width(), geometry.height());
    geometry
        .symmetries()
        .iter()
        .map(|&symmetry| {
            let image: Vec<Point> =
                opening.iter().map(|p| symmetry.apply(p.x, p.y, width, height).into()).collect();
            let mut black: Vec<Point> = image.iter().step_by(2).copied().collect();
            let mut white: Vec<Point> = image.iter().skip(1).step_by(2).copied().collect();
            black.sort_unstable();
            white.sort_unstable();
            black.extend(white);
            black
        })
        .min()
        .expect("every board has symmetries")
}

/// `h8,i9,j8`: the moves in pos notation.
fn pos_notation(opening: &[Point]) -> String {
    opening.iter().map(|&point| format_pos(point)).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_engine::size::BoardSize;

    fn points(xy: &[(usize, usize)]) -> Vec<Point> {
        xy.iter().map(|&p| p.into()).collect()
    }

    #[test]
    fn symmetric_openings_share_a_key_and_colours_are_kept_apart() {
        // h8 i9 j8 and its mirror image h8 g9 f8 (x → 14 − x).
        let g = BoardSize::FIFTEEN.geometry();
        let a = [(7, 7), (8, 8), (9, 7)];
        let mirrored = [(7, 7), (6, 8), (5, 7)];
        assert_eq!(canonical(&points(&a), g), canonical(&points(&mirrored), g));
        // The black stones played in the other order: the same position.
        assert_eq!(canonical(&points(&a), g), canonical(&points(&[(9, 7), (8, 8), (7, 7)]), g));
        // Colours swapped: another position.
        assert_ne!(canonical(&points(&a), g), canonical(&points(&[(8, 8), (7, 7), (9, 7)]), g));
        assert_eq!(pos_notation(&points(&a)), "h8,i9,j8");
        // A rectangle has only four symmetries: no transpose.
        let rect = BoardSize::new(11, 7).unwrap().geometry();
        assert_eq!(canonical(&points(&[(0, 0)]), rect), canonical(&points(&[(10, 6)]), rect));
        assert_ne!(canonical(&points(&[(1, 0)]), rect), canonical(&points(&[(0, 1)]), rect));
    }
}
