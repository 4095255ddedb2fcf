//! Relabels a sample of the kept self-play games with a deeper search than the one that
//! played them (see `docs/learning.md`):
//!
//! ```text
//! cargo run --release -p mnk-engine --example relabel -- --nodes N --every K GAMES... > RELABELLED
//! ```
//!
//! Every `K`th distinct game (in the order read, see `train_eval`'s distinct games) is
//! replayed and each of its searched positions searched again with `N` nodes (one thread, a
//! table cleared before each search); the game is written in the packed form with those
//! scores in place of the playing search's. Read before the games it relabels, the file
//! gives them its scores (`train_eval fit RELABELLED GAMES...`: a game is taken the first
//! time it is read). The same build and arguments give the same file.

use std::io::Write;

#[path = "shared/games.rs"]
mod games;
use games::{Distinct, fail, open, parse_game};
#[path = "shared/searches.rs"]
mod searches;
use searches::{map_parallel, search};

use mnk_engine::game::Game;
use mnk_engine::notation::format_pos;
use mnk_engine::search::params::SearchParams;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut nodes, mut every, mut paths) = (0u64, 0usize, Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> u64 {
            let v = it.next().unwrap_or_else(|| fail(&format!("{name} needs a value")));
            v.parse().unwrap_or_else(|_| fail(&format!("{name}: not a number: {v}")))
        };
        match arg.as_str() {
            "--nodes" => nodes = number("--nodes"),
            "--every" => every = number("--every") as usize,
            _ if arg.starts_with("--") => fail(&format!("unknown option {arg}")),
            _ => paths.push(arg.clone()),
        }
    }
    if nodes == 0 || every == 0 || paths.is_empty() {
        fail("usage: relabel --nodes N --every K GAMES...");
    }
    let mut distinct = Distinct::default();
    let mut sample = Vec::new();
    let lines = paths.iter().flat_map(|path| open(path).map(move |l| (path.clone(), l)));
    for (index, (path, line)) in lines
        .filter(|(_, l)| !l.starts_with('#'))
        .filter(|(_, l)| distinct.first_time(l))
        .enumerate()
    {
        if index.is_multiple_of(every) {
            let parsed =
                parse_game(&line).unwrap_or_else(|e| fail(&format!("{path}: {e}: {line}")));
            sample.push((line, parsed));
        }
    }
    // One item per searched position, so both threads stay busy to the end.
    let mut positions = Vec::new();
    for (g, (line, parsed)) in sample.iter().enumerate() {
        let mut game = Game::from_notation(parsed.size, parsed.rule, &parsed.opening)
            .unwrap_or_else(|_| fail(&format!("a bad opening: {line}")));
        for &(point, _) in &parsed.moves {
            positions.push((g, game.clone()));
            if game.try_play(point).is_err() {
                fail(&format!("an illegal move {}: {line}", format_pos(point)));
            }
        }
    }
    eprintln!("{} games, {} positions", sample.len(), positions.len());
    let scores = map_parallel(&positions, SearchParams::default(), |engine, (_, game)| {
        search(engine, game, nodes).1
    });
    let mut out = std::io::stdout().lock();
    let mut text = format!("# relabel {}\n", args.join(" "));
    let mut next = 0;
    for (g, (line, _)) in sample.iter().enumerate() {
        let (head, moves) = line.rsplit_once(' ').expect("a parsed game line");
        let relabelled: Vec<String> = moves
            .split(',')
            .map(|searched| {
                let mv = searched.split(':').next().unwrap_or(searched);
                debug_assert_eq!(positions[next].0, g);
                next += 1;
                format!("{mv}:{}", scores[next - 1])
            })
            .collect();
        text += &format!("{head} {}\n", relabelled.join(","));
    }
    out.write_all(text.as_bytes()).unwrap_or_else(|e| fail(&format!("writing: {e}")));
}
