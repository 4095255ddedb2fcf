//! Every constant that changes how mnk plays, in one place: the main search's prunings and
//! reductions, its move ordering and correction history, the root's threat searches, the
//! clock within a move, the time a move gets from the game clock, and the analyses behind
//! the swap2 and balance commands. Each is a named integer with its unit, its default, the
//! range it may be set to and the step a tuner perturbs it by. (What is left as a `const`
//! elsewhere is structure, not play: table sizes, packing widths, how often a clock is read,
//! the ordering tiers that put a five before a four.)
//!
//! A search reads them from the [`SearchParams`] it was given (see
//! [`super::Searcher::with_params`] and [`crate::engine::Engine::set_params`]), so they can
//! be changed at run time without a rebuild: `pbrain-mnk --set NAME=VALUE` for the protocol
//! loop, which is what `pbrain-mnk tune` (SPSA) uses to play engines with perturbed values
//! against each other; `pbrain-mnk help params` lists them. The defaults are what the bench
//! signature is taken with.
//!
//! Fractions are integers too, in the unit their name says (`_percent`, `_x100`): a tuner
//! works on one kind of number, and a value prints and parses back exactly.

use std::fmt;

use crate::time::TimeTuning;

/// One tunable: its name (as `--set` takes it), its default, its range and the step a tuner
/// perturbs it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// What part of the play it tunes (for listing them).
    pub area: &'static str,
    /// The name, as `--set` takes it.
    pub name: &'static str,
    /// The value a search uses unless told otherwise.
    pub default: i32,
    /// The smallest value it may be set to.
    pub min: i32,
    /// The largest value it may be set to.
    pub max: i32,
    /// SPSA's perturbation at the start of a run (the `c` of the gain sequence), in the
    /// parameter's unit.
    pub step: i32,
    /// What it is, with its unit.
    pub doc: &'static str,
}

/// Defines [`SearchParams`] (one `i32` field a tunable) and [`PARAMS`] (their specs, in the
/// fields' order) from one list, grouped by area, so a tunable is written once.
macro_rules! search_params {
    ($($area:literal {
        $($(#[doc = $doc:literal])+ $field:ident = $default:literal in $min:literal..=$max:literal step $step:literal;)+
    })+) => {
        /// The tunables (see the module docs). `Default` gives the tuned values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($($(#[doc = $doc])+ pub $field: i32,)+)+
        }

        impl SearchParams {
            /// The defaults, as a constant.
            pub const DEFAULT: SearchParams = SearchParams { $($($field: $default,)+)+ };
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams::DEFAULT
            }
        }

        /// The specs of every field of [`SearchParams`], in order.
        pub const PARAMS: &[ParamSpec] = &[
            $($(ParamSpec {
                area: $area,
                name: stringify!($field),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                doc: concat!($($doc),+),
            },)+)+
        ];

        impl SearchParams {
            /// The field named `name`.
            fn field_mut(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $($(stringify!($field) => Some(&mut self.$field),)+)+
                    _ => None,
                }
            }

            /// The values in the order of [`PARAMS`].
            pub fn values(&self) -> Vec<i32> {
                vec![$($(self.$field),+),+]
            }
        }
    };
}

search_params! {
    "main search" {
        /// Half-width of the first aspiration window, in evaluation units.
        aspiration_window = 40 in 5..=400 step 8;
        /// Late-move reductions: the remaining depth from which they apply.
        lmr_min_depth = 3 in 2..=8 step 1;
        /// Late-move reductions: the index in the move ordering from which a move is reduced.
        lmr_min_index = 1 in 1..=12 step 1;
        /// Late-move reductions: `ln(depth) · ln(index)` is divided by this, in hundredths
        /// (smaller: deeper reductions).
        lmr_divisor_x100 = 150 in 40..=400 step 15;
        /// Late-move reductions: plies more at nodes expected to fail high.
        lmr_cut_node = 1 in 0..=3 step 1;
        /// Late-move reductions: plies more where the position is not improving.
        lmr_not_improving = 1 in 0..=3 step 1;
        /// Move-count pruning: the most remaining depth at which quiet moves are pruned.
        lmp_max_depth = 8 in 0..=30 step 1;
        /// Move-count pruning: quiet moves after the first `lmp_base + lmp_scale_x10 · depth² /
        /// 10` are not searched ...
        lmp_base = 3 in 1..=20 step 1;
        /// ... (see `lmp_base`) ...
        lmp_scale_x10 = 10 in 2..=40 step 2;
        /// ... and where the position is not improving, only this share of them, in percent.
        lmp_not_improving_percent = 60 in 20..=100 step 8;
        /// Futility pruning: the most remaining depth at which quiet moves are pruned ...
        futility_max_depth = 5 in 0..=20 step 1;
        /// ... when the static evaluation is this much per ply of depth below alpha, in
        /// evaluation units.
        futility_margin = 80 in 10..=600 step 10;
        /// Internal iterative reduction: the remaining depth from which a node without a table
        /// move is searched a ply shallower.
        iir_min_depth = 4 in 2..=12 step 1;
        /// Singular extension: the remaining depth from which the table move is tested.
        se_min_depth = 6 in 3..=14 step 1;
        /// Singular extension: how many plies shallower the table's bound may be.
        se_tt_depth_slack = 3 in 1..=6 step 1;
        /// Singular extension: the margin below the table score, per ply of depth, in
        /// evaluation units.
        se_margin = 4 in 1..=40 step 1;
        /// Reverse futility pruning: the most remaining depth at which it applies.
        rfp_max_depth = 3 in 0..=12 step 1;
        /// Reverse futility pruning: the margin above beta, per ply of depth, in evaluation
        /// units.
        rfp_margin = 40 in 5..=300 step 6;
        /// Razoring: the most remaining depth at which it applies.
        razor_max_depth = 2 in 0..=8 step 1;
        /// Razoring: the margin below alpha, per ply of depth, in evaluation units.
        razor_margin = 200 in 20..=1_000 step 25;
        /// The leaf VCF: the most threat-search nodes at a leaf.
        leaf_vcf_nodes = 12 in 0..=200 step 3;
        /// The leaf VCF: the most attacking fours it chains.
        leaf_vcf_fours = 6 in 1..=20 step 1;
        /// Aspiration windows: the shallowest iteration that starts with one (shallower
        /// ones search the full window).
        aspiration_min_depth = 4 in 1..=12 step 1;
    }
    "move ordering" {
        /// History counts are multiplied by this before the cell's static priority is
        /// added (larger: the history outweighs more of the priority).
        history_scale = 4096 in 1..=65536 step 512;
        /// History counts are halved when one reaches this, keeping them recent.
        history_cap = 16777216 in 1024..=16777216 step 1048576;
    }
    "correction history" {
        /// The largest correction of the static evaluation, in evaluation units (at most 255:
        /// entries are 16-bit in 1/128 units).
        correction_limit = 200 in 1..=255 step 10;
        /// An update moves an entry by the difference times the depth over this ...
        correction_depth_divisor = 8 in 1..=64 step 1;
        /// ... by at most this share of the limit, in percent.
        correction_step_percent = 25 in 1..=100 step 5;
    }
    "root threat searches" {
        /// The share of the turn the root's threat searches (VCF, VCT) may take, in percent.
        threat_time_percent = 30 in 0..=60 step 4;
        /// The root's threat searches' node budgets, in percent of their full size: the bound on
        /// their work when no clock bounds it (a node-limited search counts main-search nodes
        /// only, and at 100 % its root threat searches can take many times those).
        threat_nodes_percent = 100 in 0..=100 step 10;
        /// VCF nodes allowed at the root, before the main search.
        root_vcf_nodes = 20000 in 0..=1000000 step 2000;
        /// Attacking fours the root VCF may chain.
        root_vcf_fours = 24 in 1..=60 step 2;
        /// VCT nodes allowed for the side to move's own attack at the root.
        root_vct_nodes = 300000 in 0..=10000000 step 30000;
        /// Threats (fours and threes) a VCT may chain, at the root and in the defence check.
        vct_threats = 12 in 1..=30 step 1;
        /// VCT nodes per root move when checking the opponent's threats after it (and for
        /// the check with a free move that comes first); also each move's budget in
        /// `YXSEARCHDEFEND`.
        defence_vct_nodes = 20000 in 0..=1000000 step 2000;
        /// The most root moves the defence filter searches again with more nodes ...
        defence_deeper_moves = 4 in 2..=16 step 1;
        /// ... and the most VCT nodes one of them may get.
        defence_vct_max_nodes = 1280000 in 0..=20000000 step 100000;
        /// VCT nodes for the first check of an iteration's best move against the opponent's
        /// threat sequences; each later check of the same move doubles them ...
        verify_vct_nodes = 160000 in 0..=10000000 step 16000;
        /// ... up to this many.
        verify_vct_max_nodes = 2560000 in 0..=50000000 step 200000;
        /// The shallowest iteration whose best move is checked.
        verify_min_depth = 4 in 1..=30 step 1;
        /// Share of the time aimed at that the checks of the best moves may take together, in
        /// percent; a check expected to take longer than what is left of it is not started.
        verify_time_share_percent = 25 in 0..=100 step 4;
        /// Share of the time aimed at after which no best move is checked, in percent.
        verify_time_percent = 60 in 0..=100 step 5;
        /// Threat-search speed assumed before one is measured, in nodes per second.
        assumed_threat_nps = 1000000 in 1000..=100000000 step 100000;
    }
    "clock within a move" {
        /// Iterative deepening starts no new iteration once this share of the time aimed at
        /// is spent, in percent: the next iteration would most likely not finish.
        new_iteration_percent = 65 in 10..=100 step 5;
        /// Stretch of the time aimed at after an iteration that changed the best move, in
        /// percent ...
        unsettled_stretch_percent = 200 in 100..=400 step 20;
        /// ... after one whose iteration before changed it ...
        settling_stretch_percent = 140 in 100..=400 step 10;
        /// ... after one whose score fell by `falling_score` or more ...
        falling_stretch_percent = 150 in 100..=400 step 10;
        /// ... (evaluation units: about 5 % of the expected result) ...
        falling_score = 30 in 1..=500 step 5;
        /// ... and with a single move to search at the root (a forced block): its iterations
        /// are quick, and the time is worth more at the next move.
        forced_stretch_percent = 10 in 1..=100 step 2;
    }
    "time of a move" {
        /// Fixed part of the safety margin, in milliseconds ...
        time_margin_ms = 25 in 0..=1000 step 5;
        /// ... but at most this share of a short time, in percent (see `crate::time`) ...
        time_margin_short_percent = 20 in 0..=100 step 4;
        /// ... and never below this, in milliseconds.
        time_min_margin_ms = 2 in 0..=100 step 1;
        /// Proportional part of the safety margin, in percent of the raw time.
        time_margin_percent = 4 in 0..=50 step 1;
        /// Fewest moves the engine expects still to play (so the clock is never spent at once).
        time_min_moves_left = 10 in 1..=100 step 1;
        /// Most moves the engine expects still to play: a move's share of the game clock is
        /// at least one over this of what is left.
        time_max_moves_left = 16 in 1..=100 step 2;
        /// Most moves the engine expects still to play when each move adds an increment.
        time_increment_moves_left = 8 in 1..=100 step 1;
        /// With a game clock, the limit of one move in shares: how far past its target an
        /// unsettled search may go.
        time_max_stretch = 3 in 1..=10 step 1;
        /// A move's share of the game clock is at most the clock left divided by this.
        time_share_of_left_divisor = 4 in 1..=100 step 1;
        /// A move's limit is at most the clock left divided by this.
        time_limit_of_left_divisor = 2 in 1..=100 step 1;
    }
    "analyses" {
        /// Placements `YXBALANCE` searches, the statically closest first.
        balance_refined = 48 in 1..=400 step 4;
        /// Main-search nodes for each placement `YXBALANCE` searches, unless its limits set
        /// others.
        balance_nodes = 20000 in 100..=10000000 step 2000;
        /// Nodes of each search that judges a swap2 opening to propose, unless its limits set
        /// others: about 0.1 s on 15×15, one or two per opening there.
        swap2_nodes = 200000 in 100..=10000000 step 20000;
    }
}

impl SearchParams {
    /// The numbers of time management (the `time_*` tunables; see [`crate::time`]). (Their
    /// ranges start at 0, and [`SearchParams::set`] keeps them there.)
    pub const fn time_tuning(&self) -> TimeTuning {
        TimeTuning {
            margin_ms: self.time_margin_ms as u64,
            margin_short_percent: self.time_margin_short_percent as u64,
            min_margin_ms: self.time_min_margin_ms as u64,
            margin_percent: self.time_margin_percent as u64,
            min_moves_left: self.time_min_moves_left as u64,
            max_moves_left: self.time_max_moves_left as u64,
            increment_moves_left: self.time_increment_moves_left as u64,
            max_stretch: self.time_max_stretch as u64,
            share_of_left_divisor: self.time_share_of_left_divisor as u64,
            limit_of_left_divisor: self.time_limit_of_left_divisor as u64,
        }
    }

    /// Sets the tunable `name` to `value`, which must lie in its range; on an error nothing
    /// changes.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let spec = spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        *self.field_mut(name).expect("every spec names a field") = value;
        Ok(())
    }

    /// Sets the tunable of a `NAME=VALUE` assignment (see [`SearchParams::set`]).
    pub fn assign(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = parse_assignment(assignment)?;
        self.set(name, value)
    }

    /// The value of the tunable `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        let index = PARAMS.iter().position(|spec| spec.name == name)?;
        Some(self.values()[index])
    }
}

/// The spec of the tunable `name`.
pub fn spec(name: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|spec| spec.name == name)
}

/// Splits `NAME=VALUE` into the name and the integer value.
pub fn parse_assignment(assignment: &str) -> Result<(&str, i32), ParamError> {
    let malformed = || ParamError::Malformed(assignment.to_string());
    let (name, value) = assignment.split_once('=').ok_or_else(malformed)?;
    let value = value.trim().parse().map_err(|_| malformed())?;
    Ok((name.trim(), value))
}

/// Why a tunable could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No tunable has this name.
    Unknown(String),
    /// The value lies outside the tunable's range.
    #[allow(missing_docs)]
    OutOfRange { name: &'static str, value: i32, min: i32, max: i32 },
    /// Not `NAME=VALUE` with an integer value.
    Malformed(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => {
                let names: Vec<&str> = PARAMS.iter().map(|spec| spec.name).collect();
                write!(f, "no search parameter is named {name:?} (they are: {})", names.join(", "))
            }
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "{name} = {value} is outside its range {min}..={max}")
            }
            ParamError::Malformed(text) => {
                write!(f, "{text:?} is not NAME=VALUE with an integer value")
            }
        }
    }
}

impl std::error::Error for ParamError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_with_a_step_and_a_unique_name() {
        let defaults = SearchParams::default().values();
        assert_eq!(defaults.len(), PARAMS.len());
        for (spec, &value) in PARAMS.iter().zip(&defaults) {
            assert_eq!(spec.default, value, "{}", spec.name);
            assert!(spec.min <= value && value <= spec.max, "{}", spec.name);
            assert!(spec.step >= 1 && spec.step <= spec.max - spec.min, "{}", spec.name);
            assert_eq!(PARAMS.iter().filter(|other| other.name == spec.name).count(), 1);
        }
    }

    #[test]
    fn a_tunable_is_set_by_name_within_its_range_and_left_alone_otherwise() {
        let mut params = SearchParams::default();
        params.assign("rfp_margin=55").expect("in range");
        assert_eq!(params.rfp_margin, 55);
        assert_eq!(params.get("rfp_margin"), Some(55));
        let before = params;
        assert!(matches!(params.assign("rfp_margin=5000"), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(params.assign("no_such=3"), Err(ParamError::Unknown(_))));
        assert!(matches!(params.assign("rfp_margin"), Err(ParamError::Malformed(_))));
        assert!(matches!(params.assign("rfp_margin=1.5"), Err(ParamError::Malformed(_))));
        assert_eq!(params, before);
        for spec in PARAMS {
            params.set(spec.name, spec.min).expect("the minimum is in range");
            assert_eq!(params.get(spec.name), Some(spec.min));
        }
    }
}
