//! `mnk-engine`: a bitboard engine for m,n,k-games — tic-tac-toe (3×3, three in a row),
//! 5×5 five in a row, and 15×15 gomoku.
//!
//! The library does no I/O, keeps no global mutable state and prints nothing. Board code is
//! generic over the bitboard type, which fixes the size: `u16` is 3×3, `u32` is 5×5 and
//! [`bitboard::Bits256`] is 15×15 (see [`bitboard`] for the layout). Front ends pick a size
//! once, at the edge, with [`BoardSize`] and [`with_board_size!`].
//!
//! Module map:
//! * [`bitboard`], [`geometry`], [`lines`]: cell sets, coordinates, win-line masks;
//! * [`board`], [`rules`], [`zobrist`], [`notation`]: positions, win tests, hashing, move
//!   lists;
//! * [`perft`]: move-sequence counts, the correctness oracle;
//! * [`search`], [`tt`], [`eval`], [`movegen`]: iterative-deepening PVS with a
//!   transposition table ([`prefetch`]: the cache hint for its probes); [`solve`]: exact
//!   values of the small boards;
//! * [`rng`]: a small deterministic random generator;
//! * [`classroom`]: the classroom program this project grew from (depth-6 α-β with pattern
//!   scores per line), a sparring partner for measuring strength.

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod classroom;
pub mod color;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod lines;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod pairing;
pub mod pattern;
pub mod perft;
pub mod prefetch;
pub mod renju;
pub mod report;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod size;
pub mod solve;
pub mod time;
pub mod tt;
pub mod win;
pub mod zobrist;
