//! `mnk-engine`: a bitboard engine for m,n,k-games — tic-tac-toe (3×3, three in a row),
//! 5×5 five in a row, and gomoku and renju on every board from 5×5 to 22×22.
//!
//! The library does no I/O, keeps no global mutable state and prints nothing. Front ends
//! come in by one door, [`engine::Engine`], with a [`game::Game`] and [`limits::Limits`],
//! and get values back ([`report`]). Board code is generic over the storage class, the
//! bitboard type a board is kept in ([`storage::Storage`]: [`bitboard::Bits16`] is 3×3,
//! [`bitboard::Bits32`] 5×5, [`bitboard::Bits256`] up to 15×15, [`bitboard::Bits512`] up to
//! 22×22; see [`bitboard`] for the layout); a run-time size ([`size::BoardSize`]) becomes a
//! type in one place: a [`game::Game`] of that size, run by [`with_game!`].
//!
//! Module map, from the leaves up (no module's code imports one above it, though a few
//! tests build their positions with what stands above; `import-cycles` finds no circle):
//! * leaves: [`color`], [`outcome`], [`score`], [`notation`] (points and move lists),
//!   [`rng`], [`time`] (the time of a move), [`prefetch`], [`limits`] (what stops any job),
//!   [`rules`] (each rule's meaning, stated once);
//! * cells and lines: [`geometry`] (cells, coordinates, whole lines, symmetries),
//!   [`bitboard`], [`lines`] (win-line masks), [`zobrist`];
//! * line patterns: [`pattern`] (keys, tables, codes, combinations: no worths), [`renju`];
//! * a board's storage and size: [`storage`], [`size`]; the position: [`win`] (the win
//!   test), [`board`];
//! * the evaluation: [`eval`] (worths, learned tables, threat flags, `evaluate`), which
//!   reads the board and hands it the values to sum;
//! * [`game`] (a board of any size, the one dispatch); counting and solving: [`perft`] (the
//!   correctness oracle), [`pairing`] (small-board draw bounds);
//! * the search's tools: [`movegen`], [`tt`], [`report`] (its typed results), [`strength`]
//!   (playing levels);
//! * the search: [`search`] (its tunables in [`search::params`]); [`solve`] (small boards),
//!   [`prove`] (five in a row up to 8×8 by proof-number search, with certificates, on its
//!   own 64-bit boards); [`bench`](mod@bench), the behaviour signature; [`classroom`]: the
//!   classroom program this project grew from (depth-6 α-β with pattern scores per line),
//!   a sparring partner for measuring strength;
//! * [`engine`]: the front door, where every job takes [`limits::Limits`].

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod classroom;
pub mod color;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod limits;
pub mod lines;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod pairing;
pub mod pattern;
pub mod perft;
pub mod prefetch;
pub mod prove;
pub mod renju;
pub mod report;
pub mod rng;
pub mod rules;
pub mod score;
pub mod search;
pub mod size;
pub mod solve;
pub mod storage;
pub mod strength;
pub mod time;
pub mod tt;
pub mod win;
pub mod zobrist;
