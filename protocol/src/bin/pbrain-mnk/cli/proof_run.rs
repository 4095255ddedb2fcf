//! Running a proof from the command line: its budget (time, nodes, a stop flag), the saves
//! of its state, resuming from them, and the progress lines on stderr. Used by `solve` for
//! one position and by `solve --classes` for each class.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mnk_engine::limits::{Limits, StopFlag};
use mnk_engine::prove::certificate::cell_name;
use mnk_engine::prove::search::Progress;
use mnk_engine::prove::{Position, Proof, Question};

use super::{CliError, UsageError};

/// What a proof may spend in one run: time, node expansions, a stop flag, and how often
/// its state is saved.
pub(crate) struct Budget {
    pub(crate) save_every: Duration,
    pub(crate) time: Option<Duration>,
    pub(crate) nodes: Option<u64>,
    pub(crate) stop: StopFlag,
}

/// Runs `proof` until it is finished or the budget is spent, saving its state to `state`
/// every `save_every` and when it stops unfinished; progress goes to stderr.
pub(crate) fn drive(
    proof: &mut Proof,
    state: Option<&Path>,
    budget: &Budget,
) -> Result<Option<mnk_engine::prove::Outcome>, CliError> {
    let black_to_move = proof.position().black_to_move;
    let nodes_before = proof.nodes();
    let start = Instant::now();
    let mut last_report = Instant::now();
    let mut progress = |question: Question, p: &Progress| {
        if last_report.elapsed() >= Duration::from_secs(2) {
            last_report = Instant::now();
            report_progress(attacker_name(black_to_move, question), p, start.elapsed());
        }
    };
    loop {
        let mut slice = budget.save_every;
        if let Some(limit) = budget.time {
            slice = slice.min(limit.saturating_sub(start.elapsed()));
        }
        let nodes = budget.nodes.map(|n| n.saturating_sub(proof.nodes() - nodes_before).max(1));
        let limits = Limits { nodes, ..Limits::time(slice).with_stop(budget.stop.clone()) };
        let outcome = proof.run(&limits, &mut progress);
        if proof.finished() {
            return Ok(outcome);
        }
        if let Some(path) = state {
            save(path, proof)?;
        }
        let out_of_time = budget.time.is_some_and(|l| start.elapsed() >= l);
        let out_of_nodes = budget.nodes.is_some_and(|n| proof.nodes() - nodes_before >= n);
        if out_of_time || out_of_nodes || budget.stop.is_raised() {
            return Ok(None);
        }
    }
}

pub(crate) fn file_error(option: &'static str, path: &Path, error: std::io::Error) -> CliError {
    UsageError::File { option, path: path.to_path_buf(), error }.into()
}

pub(crate) fn resume(
    path: &Path,
    position: &Position,
    questions: &[Question],
) -> Result<Proof, CliError> {
    let bytes = std::fs::read(path).map_err(|error| file_error("state", path, error))?;
    let proof =
        Proof::restore(&bytes).map_err(|e| UsageError::ProofState(path.to_path_buf(), e))?;
    let saved = proof.position();
    let same = saved.grid.width() == position.grid.width()
        && saved.grid.height() == position.grid.height()
        && (saved.black, saved.white, saved.black_to_move)
            == (position.black, position.white, position.black_to_move)
        && proof.questions() == questions;
    if !same {
        let e = "it holds the proof of another position or question".to_string();
        return Err(UsageError::ProofState(path.to_path_buf(), e).into());
    }
    Ok(proof)
}

/// Saves the state (see [`write_whole`]).
pub(crate) fn save(path: &Path, proof: &Proof) -> Result<(), CliError> {
    write_whole(path, &proof.save_state(), "state")
}

/// Writes `bytes` beside `path` and renames them over it, so a crash never leaves half a
/// file; an error names `option`, the option that gave the path.
pub(crate) fn write_whole(path: &Path, bytes: &[u8], option: &'static str) -> Result<(), CliError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, bytes).map_err(|error| file_error(option, path, error))?;
    std::fs::rename(&temporary, path).map_err(|error| file_error(option, path, error))
}

/// The colour that asks "can I force a five?" in `question`.
pub(crate) fn attacker_name(black_to_move: bool, question: Question) -> &'static str {
    if (question == Question::MoverWins) == black_to_move { "black" } else { "white" }
}

fn report_progress(attacker: &str, p: &Progress, elapsed: Duration) {
    let line: Vec<String> = p.line.iter().take(12).map(|&c| cell_name(c)).collect();
    let settled = p.root_proved + p.root_disproved;
    // A rough estimate: the root moves left, at the rate they have been settled so far.
    let estimate = if settled > 0 && settled < p.root_moves {
        let left = elapsed.as_secs_f64() * (p.root_moves - settled) as f64 / settled as f64;
        format!("the other root moves in about {left:.0} s at this rate")
    } else {
        "no estimate until a root move is settled".to_string()
    };
    eprintln!(
        "solve: can {attacker} force five? {} nodes, {} positions, root pn {} dn {}, \
         root moves settled {settled}/{} ({} win, {} refuted), {:.0} s, {estimate}, line {}",
        p.nodes,
        p.positions,
        p.root.pn,
        p.root.dn,
        p.root_moves,
        p.root_proved,
        p.root_disproved,
        elapsed.as_secs_f64(),
        line.join(" "),
    );
}
