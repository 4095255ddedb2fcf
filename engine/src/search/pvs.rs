//! The principal-variation search of one node, step by step (the numbered steps in the
//! module docs of [`super`]). Each step is a method that either lets the node go on or
//! decides its score (`ControlFlow::Break`); [`Searcher::pvs`] runs them in order.

use std::ops::ControlFlow::{self, Break, Continue};

use super::NO_EVAL;
use super::Searcher;
use super::ordering::MovePicker;
use super::pruning::move_count_limit;
use super::pruning::{internal_reduction, lmr_reduction, singular_beta};
use super::threats::{self, Threats};
use crate::color::Color;
use crate::geometry::{Cell, Symmetry};
use crate::outcome::Outcome;
use crate::pairing;
use crate::score::{INFINITY, MATE_BOUND, Score, is_decisive, loss_in, win_in};
use crate::storage::Storage;
use crate::tt::{Bound, PROVEN_DEPTH, TtEntry, score_from_tt, score_to_tt};

/// What a node knows about itself as its steps run.
struct Node<B> {
    /// Plies left (reduced by step 6).
    depth: i32,
    ply: usize,
    alpha: Score,
    beta: Score,
    root: bool,
    /// Whether the node is expected to fail high (a null-window node whose parent expects
    /// it to refute its move): late moves are reduced more there.
    cut: bool,
    /// The corrected static evaluation, at gomoku-board nodes below the root with no five
    /// to block (the prunings use it); `None` elsewhere.
    static_eval: Option<Score>,
    /// Whether the static evaluation is above the one two plies up (the position is
    /// getting better for the side to move): prunings are stricter when it is not.
    improving: bool,
    /// Whether this is a singular-extension test: the node searched without its table move.
    singular_test: bool,
    /// Moves this node must not play: at the root, those of better lines (multi-PV); below
    /// it, the table move a singular-extension test leaves out.
    excluded: B,
    /// A small board (3×3, 5×5): searched exactly, without prunings.
    small: bool,
    color: Color,
    /// The moves that stop the opponent's fives (step 3); empty when none is threatened.
    threats: B,
    /// Proven bounds of the score (step 4, small boards).
    lower: Score,
    upper: Score,
    /// The table key and the symmetry to its canonical image (step 5).
    key: u64,
    sym: Symmetry,
    /// A small-board search deep enough to reach every leaf: its result is proven.
    proven_depth: bool,
    tt_move: Option<Cell>,
    tt_entry: Option<TtEntry>,
}

impl<B: Storage> Node<B> {
    /// Whether the window is a null window (a PV node has room between alpha and beta).
    fn pv_node(&self) -> bool {
        self.beta - self.alpha > 1
    }

    /// Whether the shallow prunings (steps 7 and 8) may end the node: a gomoku-board null-window
    /// node below the root, no five threatened, not a singular test.
    fn prunable(&self) -> bool {
        !self.root
            && !self.small
            && !self.pv_node()
            && !self.singular_test
            && self.threats.is_empty()
    }
}

impl<B: Storage> Searcher<'_, B> {
    /// The principal-variation search of the current position (see the module docs of
    /// [`super`]).
    pub(super) fn pvs(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut: bool,
    ) -> Score {
        match self.node(depth, ply, alpha, beta, cut) {
            Continue(score) | Break(score) => score,
        }
    }

    /// [`Searcher::pvs`]: the steps in order.
    #[inline]
    fn node(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut: bool,
    ) -> ControlFlow<Score, Score> {
        let mut node = self.enter(depth, ply, alpha, beta, cut)?;
        self.mate_distance_pruning(&mut node)?;
        self.immediate_win(&node)?;
        self.opponent_fives(&mut node)?;
        self.draw_bounds(&mut node)?;
        self.probe_table(&mut node)?;
        self.static_evaluation(&mut node);
        // 6. Internal iterative reduction.
        if !node.small && !node.root && !node.singular_test {
            node.depth = internal_reduction(node.depth, node.tt_move, self.params.iir_min_depth);
        }
        self.reverse_futility_pruning(&node)?;
        self.razoring(&node)?;
        if node.depth <= 0 && node.threats.is_empty() {
            return Break(self.leaf(&node));
        }
        let mut moves = MovePicker::new();
        let child_depth = self.stage_moves(&node, &mut moves);
        let singular = self.singular_extension(&node)?;
        let alpha_before = node.alpha;
        let (best, best_move) = self.search_moves(&mut node, &mut moves, child_depth, singular)?;
        let best = best.clamp(node.lower, node.upper);
        self.store(&node, alpha_before, best, best_move);
        Continue(best)
    }

    /// The node's bookkeeping: its PV, node count and depth reached; a stop ends it.
    #[inline]
    fn enter(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        cut: bool,
    ) -> ControlFlow<Score, Node<B>> {
        self.pv_len[ply] = ply;
        self.pv_len[ply + 1] = ply + 1;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.clock.should_stop(self.nodes) {
            return Break(0);
        }
        let root = ply == 0;
        if root {
            self.root_interrupted = None;
        }
        let singular_test = !root && self.singular_excluded[ply].is_some();
        let excluded = match self.singular_excluded[ply] {
            _ if root => self.excluded,
            Some(cell) => B::from_cell(cell),
            None => B::EMPTY,
        };
        Continue(Node {
            depth,
            ply,
            alpha,
            beta,
            root,
            cut,
            static_eval: None,
            improving: false,
            singular_test,
            excluded,
            small: B::GEOMETRY.lines_span_board(),
            color: self.board.side_to_move(),
            threats: B::EMPTY,
            lower: -INFINITY,
            upper: INFINITY,
            key: 0,
            sym: Symmetry::Identity,
            proven_depth: false,
            tt_move: None,
            tt_entry: None,
        })
    }

    /// 1. Mate-distance pruning: nothing beats winning with the next move, and the opponent
    ///    cannot win before its next move.
    #[inline]
    fn mate_distance_pruning(&self, node: &mut Node<B>) -> ControlFlow<Score> {
        node.alpha = node.alpha.max(loss_in(node.ply + 2));
        node.beta = node.beta.min(win_in(node.ply + 1));
        if node.alpha >= node.beta { Break(node.alpha) } else { Continue(()) }
    }

    /// 2. Immediate win (a five is never forbidden).
    #[inline]
    fn immediate_win(&mut self, node: &Node<B>) -> ControlFlow<Score> {
        let ply = node.ply;
        if let Some(win) = (self.board.winning_cells(node.color) - node.excluded).lowest() {
            self.pv[ply][ply] = win;
            self.pv_len[ply] = ply + 1;
            return Break(win_in(ply + 1));
        }
        Continue(())
    }

    /// 3. Opponent fives: the moves are the stones that stop every five (see
    ///    `threats::five_blocks`): none for two (but under caro, where capping an end stops a
    ///    five and one stone can stop two), and none on a forbidden point.
    #[inline]
    fn opponent_fives(&mut self, node: &mut Node<B>) -> ControlFlow<Score> {
        let (ply, opponent) = (node.ply, node.color.opponent());
        let fives = self.board.winning_cells(opponent);
        if fives.is_empty() {
            return Continue(());
        }
        let blocks = threats::five_blocks(&mut self.board, opponent, fives);
        if blocks.is_empty() {
            // Lost: the line goes on with a stone on one of the fives, a legal one (at the
            // root it is the move played).
            if let Some(five) = self.board.without_forbidden(fives - node.excluded).lowest() {
                self.pv[ply][ply] = five;
                self.pv_len[ply] = ply + 1;
            }
            return Break(loss_in(ply + 2));
        }
        let blocks = self.board.without_forbidden(blocks);
        if blocks.is_empty() {
            return Break(loss_in(ply + 2));
        }
        node.threats = blocks;
        Continue(())
    }

    /// 4. Small boards: proven draw bounds (live lines and pairing strategies).
    #[inline]
    fn draw_bounds(&self, node: &mut Node<B>) -> ControlFlow<Score> {
        if !node.small || node.root {
            return Continue(());
        }
        let bounds = pairing::draw_bounds(&self.board, self.pairing);
        if bounds.cannot_win {
            node.upper = 0;
        }
        if bounds.cannot_lose {
            node.lower = 0;
        }
        let (lower, upper) = (node.lower, node.upper);
        if lower >= node.beta || upper <= node.alpha || lower == upper {
            return Break(if lower >= node.beta { lower } else { upper });
        }
        Continue(())
    }

    /// 5. Transposition table: a cutoff below the root, else a move to try first.
    #[inline]
    fn probe_table(&mut self, node: &mut Node<B>) -> ControlFlow<Score> {
        let empty = self.board.empty_cells();
        (node.key, node.sym) = self.key();
        node.proven_depth = node.small && node.depth >= empty.count() as i32;
        node.tt_entry = if node.singular_test { None } else { self.tt.probe(node.key) };
        let Some(entry) = node.tt_entry else { return Continue(()) };
        node.tt_move = entry
            .best_move
            .map(|m| B::GEOMETRY.transform(node.sym.inverse(), m))
            .filter(|&m| empty.contains(m) && !node.excluded.contains(m));
        if !node.root && (entry.depth == PROVEN_DEPTH || i32::from(entry.depth) >= node.depth) {
            let score = score_from_tt(entry.score, node.ply);
            let cutoff = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= node.beta,
                Bound::Upper => score <= node.alpha,
            };
            if cutoff {
                self.heuristic |= entry.depth != PROVEN_DEPTH;
                return Break(score);
            }
        }
        Continue(())
    }

    /// (5b.) The static evaluation of a gomoku-board node below the root with no five to
    ///     block, kept by ply, and whether it improved on the one two plies up.
    #[inline]
    fn static_evaluation(&mut self, node: &mut Node<B>) {
        let eval =
            (!node.root && !node.small && node.threats.is_empty()).then(|| self.corrected_eval());
        self.static_evals[node.ply] = eval.unwrap_or(NO_EVAL);
        node.static_eval = eval;
        node.improving = match (eval, node.ply.checked_sub(2).map(|p| self.static_evals[p])) {
            (Some(now), Some(before)) if before != NO_EVAL => now > before,
            // Unknown two plies up (a block, or the root): not held against the node.
            (Some(_), _) => true,
            (None, _) => false,
        };
    }

    /// 7. Reverse futility pruning: far above beta at a shallow depth, the node fails high.
    #[inline]
    fn reverse_futility_pruning(&mut self, node: &Node<B>) -> ControlFlow<Score> {
        if node.prunable()
            && let Some(eval) = node.static_eval
            && let Some(score) = self.reverse_futility(node.depth, node.beta, eval, node.improving)
        {
            self.heuristic = true;
            return Break(score);
        }
        Continue(())
    }

    /// 8. Razoring: far below alpha, the node is searched as a leaf first, and ends if it
    ///    fails low there.
    #[inline]
    fn razoring(&mut self, node: &Node<B>) -> ControlFlow<Score> {
        let Some(eval) = node.static_eval else { return Continue(()) };
        if !(node.prunable() && self.razor(node.depth, node.alpha, eval)) {
            return Continue(());
        }
        let s = self.pvs(0, node.ply, node.alpha, node.alpha + 1, false);
        if self.clock.stopped() {
            return Break(0);
        }
        if s <= node.alpha {
            self.heuristic = true;
            return Break(s);
        }
        Continue(())
    }

    /// 9. A leaf (a threatened five is blocked first: the forced reply costs no depth): the
    ///    corrected evaluation, unless a short VCF or a winning double three proves more.
    #[inline]
    fn leaf(&mut self, node: &Node<B>) -> Score {
        self.heuristic = true;
        // Stand pat: a win the VCF could find would only raise a score that fails high.
        let static_eval =
            node.static_eval.unwrap_or_else(|| self.corrected_eval()).clamp(node.lower, node.upper);
        if static_eval >= node.beta || node.small {
            return static_eval;
        }
        let (board, fours) = (&mut self.board, Threats::Fours);
        let (max_fours, nodes) = (self.params.leaf_vcf_fours, self.params.leaf_vcf_nodes);
        if let Some(win) = self.threat.solve(board, fours, max_fours as u32, nodes as u64, None) {
            return win_in(node.ply + usize::from(win.plies));
        }
        if threats::double_three_wins(&self.board) {
            return win_in(node.ply + 5);
        }
        static_eval
    }

    /// 10. The moves: the single block if the opponent threatens a five (searched without
    ///     spending depth), else the candidates, ordered. Returns the children's depth.
    #[inline]
    fn stage_moves(&mut self, node: &Node<B>, moves: &mut MovePicker<B>) -> i32 {
        if node.threats.is_empty() {
            let candidates = self.candidates(node.excluded, node.root);
            self.ordering.stage(moves, candidates, node.ply, node.tt_move);
            node.depth - 1
        } else {
            moves.add_in_cell_order(node.threats - node.excluded);
            node.depth
        }
    }

    /// 11. Singular extension: does the node hang on its table move alone? Returns the
    ///     move to extend, if so; a multi-cut ends the node.
    #[inline]
    fn singular_extension(&mut self, node: &Node<B>) -> ControlFlow<Score, Option<Cell>> {
        let (depth, ply) = (node.depth, node.ply);
        let Some(cell) = node.tt_move else { return Continue(None) };
        let params = &self.params;
        let Some(singular_beta) =
            node.tt_entry.and_then(|entry| singular_beta(depth, &entry, ply, params))
        else {
            return Continue(None);
        };
        if node.root || node.small || !node.threats.is_empty() {
            return Continue(None);
        }
        self.singular_excluded[ply] = Some(cell);
        let s = self.pvs((depth - 1) / 2, ply, singular_beta - 1, singular_beta, node.cut);
        self.singular_excluded[ply] = None;
        // (The test's line is no line of this node.)
        self.pv_len[ply] = ply;
        if self.clock.stopped() {
            return Break(0);
        }
        if s < singular_beta {
            Continue(Some(cell))
        } else if singular_beta >= node.beta {
            // Multi-cut: another move reaches beta too, even searched to half the depth.
            Break(singular_beta)
        } else {
            Continue(None)
        }
    }

    /// 12. The PVS loop: the first move with the full window, the others with a null window
    ///     (late ones reduced first, or at shallow null-window nodes not searched if quiet),
    ///     re-searched when they beat alpha. Returns the best score and move; a stop ends
    ///     the node.
    #[inline]
    fn search_moves(
        &mut self,
        node: &mut Node<B>,
        moves: &mut MovePicker<B>,
        child_depth: i32,
        singular: Option<Cell>,
    ) -> ControlFlow<Score, (Score, Option<Cell>)> {
        let (depth, ply, root, small) = (node.depth, node.ply, node.root, node.small);
        let pv_node = node.pv_node();
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut tried = 0;
        // The moves that make or stop no three or four: reduced more than others, and past
        // `lmp_index` at shallow null-window nodes not searched at all (late-move pruning).
        let quiet = if small { B::EMPTY } else { self.quiet_cells() };
        let params = self.params;
        let prunable =
            if !root && !pv_node && depth <= params.lmp_max_depth { quiet } else { B::EMPTY };
        let lmp_index = move_count_limit(depth, node.improving, &params);
        // Futility pruning: far enough below alpha that a quiet move is not expected to
        // make it up within the depth left, once a move that does not lose is in hand.
        let futile = node.prunable()
            && depth <= params.futility_max_depth
            && node
                .static_eval
                .is_some_and(|eval| eval + params.futility_margin * depth.max(1) <= node.alpha);
        while let Some(cell) = moves.next(&self.board, &self.ordering) {
            let i = tried;
            tried += 1;
            if i >= lmp_index && prunable.contains(cell) {
                continue;
            }
            if futile && i > 0 && best > -MATE_BOUND && quiet.contains(cell) {
                continue;
            }
            self.pv_len[ply + 1] = ply + 1;
            let (alpha, beta) = (node.alpha, node.beta);
            let extension = i32::from(singular == Some(cell));
            let score = match self.make(cell, child_depth <= 0) {
                Outcome::Win(_) => win_in(ply + 1),
                Outcome::Draw => 0,
                Outcome::Ongoing if i == 0 => {
                    let child_cut = !pv_node && !node.cut;
                    -self.pvs(child_depth + extension, ply + 1, -beta, -alpha, child_cut)
                }
                Outcome::Ongoing => {
                    // Late-move reduction (gomoku boards only: the small ones stay exact): a late
                    // move is first searched shallower, a quiet one by more plies (never
                    // straight to a leaf), one that makes or stops a three or four by one.
                    let reduce = !small
                        && depth >= params.lmr_min_depth
                        && i >= params.lmr_min_index as usize
                        && Some(cell) != node.tt_move
                        && node.threats.is_empty();
                    let mut s = if reduce {
                        let r = if quiet.contains(cell) {
                            let base = lmr_reduction(depth, i, pv_node, params.lmr_divisor_x100);
                            let adjust = i32::from(node.cut) * params.lmr_cut_node
                                + i32::from(!node.improving) * params.lmr_not_improving;
                            (base + adjust).clamp(1, (child_depth - 1).max(1))
                        } else {
                            1
                        };
                        -self.pvs(child_depth - r, ply + 1, -alpha - 1, -alpha, true)
                    } else {
                        alpha + 1
                    };
                    // (No re-search once stopped: the result is discarded anyway, and entering
                    // the search would count nodes past a node limit.)
                    if s > alpha && !self.clock.stopped() {
                        s = -self.pvs(child_depth, ply + 1, -alpha - 1, -alpha, !node.cut);
                    }
                    if s > alpha && s < beta && !self.clock.stopped() {
                        -self.pvs(child_depth, ply + 1, -beta, -alpha, false)
                    } else {
                        s
                    }
                }
            };
            self.unmake();
            if self.clock.stopped() {
                if root {
                    self.root_interrupted = Some(cell);
                }
                return Break(0);
            }
            if root && score <= -MATE_BOUND {
                self.root_lost = self.root_lost.with(cell);
            }
            if score > best {
                best = score;
                best_move = Some(cell);
                if score > alpha {
                    node.alpha = score;
                    self.set_pv(ply, cell);
                    if root {
                        self.root_best = score;
                    }
                    if score >= beta {
                        self.ordering.record_cutoff(node.color, cell, ply, depth);
                        break;
                    }
                }
            }
        }
        Continue((best, best_move))
    }

    /// 13. Store the result in the transposition table, and on gomoku boards what the evaluation
    ///     missed in the correction history. `alpha` is the window's lower edge before the
    ///     moves were searched.
    #[inline]
    fn store(&mut self, node: &Node<B>, alpha: Score, best: Score, best_move: Option<Cell>) {
        // (A node searched without some moves has no value of its own to keep.)
        if !node.excluded.is_empty() {
            return;
        }
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let depth = node.depth;
        let stored_depth = if node.proven_depth { PROVEN_DEPTH } else { depth.clamp(0, 254) as u8 };
        let entry = TtEntry {
            score: score_to_tt(best, node.ply),
            best_move: best_move.map(|m| B::GEOMETRY.transform(node.sym, m)),
            depth: stored_depth,
            bound,
        };
        self.tt.store(node.key, entry);
        // (A node with a static evaluation is a gomoku-board node below the root with no
        // five to block: the one whose evaluation the history corrects.)
        if let Some(static_eval) = node.static_eval
            && depth >= 1
            && !is_decisive(best)
        {
            let informative = match bound {
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
                Bound::Exact => true,
            };
            if informative {
                self.correction.update(&self.board, depth, best - static_eval);
            }
        }
    }
}
