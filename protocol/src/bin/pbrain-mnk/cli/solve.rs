//! `pbrain-mnk solve`: the exact value of a position on the boards mnk can prove.
//!
//! 3×3 and 5×5 are solved by the ordinary search to full depth (`--no-pairing` proves the
//! value without pairing strategies, for comparison). Every board from 5×5 to 8×8 (k = 5,
//! freestyle; 5×5 when a certificate or a state file is asked for) goes to the prover
//! (`mnk_engine::prove`): two df-pn questions, a certificate of a draw (`--certificate`),
//! a state file that survives a restart (`--state`), and `--verify` to check a certificate
//! with the separate checker.
//!
//! Output (stdout): `value win|draw|loss` (for the side to move; `unknown` when a budget
//! stopped the proof), `best c3` (one optimal move in pos notation, as the certificate names
//! cells; `best none` on a decided board), `nodes N`,
//! `time_ms T nps R`; then `certificate FILE positions N` and `state FILE` when written.
//! Progress goes to stderr every few seconds.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mnk_engine::engine::Engine;
use mnk_engine::game::Game;
use mnk_engine::limits::Limits;
use mnk_engine::notation::format_pos;
use mnk_engine::outcome::Outcome;
use mnk_engine::prove::search::{Answer, positions_in};
use mnk_engine::prove::{Position, Proof, Question, cell_point, verify};
use mnk_engine::report::nodes_per_second;
use mnk_engine::rules::Rule;
use mnk_engine::size::BoardSize;
use mnk_engine::solve::GameValue;

use super::classes::ClassArgs;
use super::proof_run::{Budget, attacker_name, drive, file_error, resume, save};
use super::{CliError, UsageError};
use crate::explain::game_of_moves;

/// The prover's table size unless `--hash-mb` says otherwise.
const PROVER_HASH_MB: u32 = 4096;

/// `solve`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: 3, or 5 to 8 (WxH for a board that is not square; k = 5).
    #[arg(long, required_unless_present = "verify")]
    size: Option<BoardSize>,
    /// Rule: freestyle, or on 3×3 and 5×5 any rule (all the same there).
    #[arg(long, default_value_t)]
    rule: Rule,
    /// The position: moves as x,y pairs ("1,1 0,0") or in pos notation ("b2a1").
    #[arg(long, default_value = "")]
    moves: String,
    /// Table size in MiB (default: 16 for the search on 3×3 and 5×5, 4096 for the prover,
    /// which forgets its least-worked positions when full).
    #[arg(long = "hash-mb", value_parser = clap::value_parser!(u32).range(1..=65_536))]
    hash_mb: Option<u32>,
    /// Prove the value by plain alpha-beta, without pairing strategies (3×3 and 5×5).
    #[arg(long = "no-pairing")]
    no_pairing: bool,
    /// Write the proof of a draw (both sides' refutations) to this file.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Check a certificate file and print what it proves (no other option needed).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "certificate", "state"])]
    verify: Option<PathBuf>,
    /// Resume the proof from this file if it exists, and save it there as it goes.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
    /// Seconds between saves of the state file.
    #[arg(long = "save-every", default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    save_every: u64,
    /// Stop after this many seconds (the value is then unknown; the state is kept).
    #[arg(long = "time-limit", value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Stop after this many node expansions (as --time-limit).
    #[arg(long = "max-nodes", value_name = "N")]
    max_nodes: Option<u64>,
    /// Prove 8x8 one class of black's first move at a time, continuing from this record
    /// file and adding each class settled (see docs/proving.md).
    #[arg(long, value_name = "RECORD", conflicts_with_all = ["verify", "certificate", "state", "can_win"])]
    classes: Option<PathBuf>,
    /// With --classes: prove this class of black's first move only (a1, b1, ...), so that
    /// several runs can share one record.
    #[arg(long, value_name = "CLASS", requires = "classes")]
    class: Option<String>,
    /// With --classes: prove nothing, check every recorded class's certificate in --work-dir
    /// (its size and SHA-256 as recorded, the checker, the class's position) and print what
    /// the record proves.
    #[arg(long, requires = "classes", conflicts_with_all = ["class", "time_limit", "max_nodes"])]
    check: bool,
    /// Where --classes keeps each class's state file and certificate.
    #[arg(long = "work-dir", value_name = "DIR", default_value = ".", requires = "classes")]
    work_dir: PathBuf,
    /// Ask only whether this side (black or white) can force a five, and print
    /// "can_win SIDE yes|no|unknown" instead of the value.
    #[arg(long = "can-win", value_name = "SIDE", value_parser = ["black", "white"])]
    can_win: Option<String>,
}

/// Runs the subcommand.
pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(path) = &args.verify {
        return verify_file(path, out);
    }
    let size = args.size.expect("clap requires --size without --verify");
    let wants_prover = args.certificate.is_some() || args.state.is_some() || args.can_win.is_some();
    if size == BoardSize::THREE || (size == BoardSize::FIVE && !wants_prover) {
        return search_small(size, args, out);
    }
    if !(5..=8).contains(&size.width()) || !(5..=8).contains(&size.height()) {
        return Err(UsageError::UnsolvableSize.into());
    }
    if args.rule != Rule::Freestyle && size != BoardSize::FIVE {
        return Err(UsageError::ProverRule(args.rule).into());
    }
    if args.time_limit.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
        return Err(UsageError::TimeLimit.into());
    }
    if let Some(record) = &args.classes {
        if size.width() != size.height() || !args.moves.trim().is_empty() {
            let why = "it proves an empty square board, 5x5 to 8x8 (--size 8, no --moves)";
            return Err(UsageError::Classes(why.into()).into());
        }
        if args.check {
            return super::classes::check(size.width(), record, &args.work_dir, out);
        }
        let budget = Budget {
            save_every: Duration::from_secs(args.save_every),
            time: args.time_limit.map(Duration::from_secs_f64),
            nodes: args.max_nodes,
            stop: super::interrupt_flag(),
        };
        let hash_mb = args.hash_mb.unwrap_or(PROVER_HASH_MB) as usize;
        let class_args = ClassArgs {
            side: size.width(),
            only: args.class.as_deref(),
            record,
            work_dir: &args.work_dir,
            hash_mb,
            budget,
        };
        return super::classes::run(&class_args, out);
    }
    let game = game_of_moves(size, Rule::Freestyle, &args.moves).map_err(UsageError::Moves)?;
    if game.outcome() != Outcome::Ongoing {
        return print_decided(&game, out);
    }
    let position = Position::of_game(&game).expect("a board from 5 to 8 a side, freestyle");
    let black_to_move = position.black_to_move;
    let questions = match args.can_win.as_deref() {
        None => Question::BOTH.to_vec(),
        Some(side) => Question::BOTH
            .into_iter()
            .filter(|&q| attacker_name(black_to_move, q) == side)
            .collect(),
    };
    let mut proof = match &args.state {
        Some(path) if path.exists() => resume(path, &position, &questions)?,
        _ => Proof::of(position, &questions),
    };
    // Boards whose empty-board proof has not been seen to finish here in one run: say so before
    // it runs.
    let open = size.width() * size.height() > 8 * 7 && game.move_count() == 0;
    if open && args.time_limit.is_none() && args.max_nodes.is_none() {
        eprintln!(
            "pbrain-mnk: note: as one proof the empty {size} board may run for days (8x7 takes \
             about 10 minutes; 8x8 was proved a draw here only class by class, 4.8 hours over \
             eleven proofs of 1 to 46 minutes, see docs/proofs/8x8.txt). --classes proves it \
             one first move at a time and keeps each result; --time-limit or --max-nodes bound \
             it, --state keeps the work, Ctrl-C stops it."
        );
    }
    let hash_mb = args.hash_mb.unwrap_or(PROVER_HASH_MB) as usize;
    proof.set_max_positions(positions_in(hash_mb << 20));
    let nodes_before = proof.nodes();
    let interrupted = super::interrupt_flag();
    let start = Instant::now();
    let budget = Budget {
        save_every: Duration::from_secs(args.save_every),
        time: args.time_limit.map(Duration::from_secs_f64),
        nodes: args.max_nodes,
        stop: interrupted.clone(),
    };
    let outcome = drive(&mut proof, args.state.as_deref(), &budget)?;
    let time = start.elapsed();
    let nodes = proof.nodes() - nodes_before;
    if let Some(side) = &args.can_win {
        let answer = match proof.answer(questions[0]) {
            Some(Answer::Proved) => "yes",
            Some(Answer::Disproved) => "no",
            _ => "unknown",
        };
        writeln!(out, "can_win {side} {answer}")?;
        write_best(out, proof.key_move(questions[0]))?;
    } else {
        match outcome {
            Some(o) => writeln!(out, "value {}", o.value)?,
            None => writeln!(out, "value unknown")?,
        }
        write_best(out, outcome.and_then(|o| o.best))?;
    }
    writeln!(out, "nodes {nodes}")?;
    writeln!(
        out,
        "time_ms {:.3} nps {}",
        time.as_secs_f64() * 1000.0,
        nodes_per_second(nodes, time)
    )?;
    if let Some(path) = &args.state {
        save(path, &proof)?;
        writeln!(out, "state {}", path.display())?;
    }
    if interrupted.is_raised() && !proof.finished() {
        return Err(CliError::ProofInterrupted { state: args.state.clone() });
    }
    if let Some(path) = &args.certificate
        && proof.finished()
    {
        let text = proof.certificate().map_err(UsageError::Certificate)?;
        let positions = text.lines().filter(|l| l.starts_with("R ") || l.starts_with("P ")).count();
        std::fs::write(path, text).map_err(|error| file_error("certificate", path, error))?;
        writeln!(out, "certificate {} positions {positions}", path.display())?;
    }
    Ok(())
}

/// `best c3`, or `best none`.
fn write_best(out: &mut dyn Write, cell: Option<u8>) -> Result<(), CliError> {
    match cell {
        Some(cell) => writeln!(out, "best {}", format_pos(cell_point(cell)))?,
        None => writeln!(out, "best none")?,
    }
    Ok(())
}

fn verify_file(path: &Path, out: &mut dyn Write) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path).map_err(|error| file_error("verify", path, error))?;
    let start = Instant::now();
    // A file that is read but does not prove what it says is a result (exit 1), not a
    // misused option.
    let checked =
        verify::check(&text).map_err(|e| CliError::CertificateRejected(path.to_path_buf(), e))?;
    writeln!(out, "certificate ok")?;
    writeln!(out, "board {}x{}", checked.width, checked.height)?;
    let side = |b: bool| if b { "black" } else { "white" };
    for s in &checked.sections {
        writeln!(
            out,
            "refutes {} position {:x} {:x} {} to move checked {} positions",
            side(s.refutes_black),
            s.black,
            s.white,
            side(s.black_to_move),
            s.positions
        )?;
    }
    let first = &checked.sections[0];
    let same_position = checked.sections.iter().all(|s| {
        (s.black, s.white, s.black_to_move) == (first.black, first.white, first.black_to_move)
    });
    let both = checked.sections.iter().any(|s| s.refutes_black)
        && checked.sections.iter().any(|s| !s.refutes_black);
    if same_position && both {
        writeln!(out, "value draw")?;
    } else {
        // One side's half of a draw proof: what it proves, and what it does not.
        for s in &checked.sections {
            writeln!(
                out,
                "proves {} cannot force five from position {:x} {:x} (no value: the other side is not checked)",
                side(s.refutes_black),
                s.black,
                s.white,
            )?;
        }
    }
    writeln!(out, "time_ms {:.3}", start.elapsed().as_secs_f64() * 1000.0)?;
    Ok(())
}

fn print_decided(game: &Game, out: &mut dyn Write) -> Result<(), CliError> {
    let value = match game.outcome() {
        Outcome::Win(_) => GameValue::Loss,
        _ => GameValue::Draw,
    };
    writeln!(out, "value {value}\nbest none\nnodes 0\ntime_ms 0.000 nps 0")?;
    Ok(())
}

fn search_small(size: BoardSize, args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let game = game_of_moves(size, args.rule, &args.moves).map_err(UsageError::Moves)?;
    let mut engine = Engine::with_hash_bytes((args.hash_mb.unwrap_or(16) as usize) << 20);
    let interrupted = super::interrupt_flag();
    let limits = Limits::until_stopped(interrupted);
    let Some(solution) = engine.solve(&game, !args.no_pairing, &limits) else {
        return Err(CliError::ProofInterrupted { state: None });
    };
    let value = match game.outcome() {
        Outcome::Ongoing => solution.value,
        Outcome::Draw => GameValue::Draw,
        // The side to move did not make the last move, so it lost.
        Outcome::Win(_) => GameValue::Loss,
    };
    writeln!(out, "value {value}")?;
    match solution.best {
        Some(cell) => writeln!(out, "best {}", format_pos(game.point(cell)))?,
        None => writeln!(out, "best none")?,
    }
    writeln!(out, "nodes {}", solution.nodes)?;
    writeln!(
        out,
        "time_ms {:.3} nps {}",
        solution.time.as_secs_f64() * 1000.0,
        nodes_per_second(solution.nodes, solution.time)
    )?;
    Ok(())
}
