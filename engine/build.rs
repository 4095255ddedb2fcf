//! Builds the pattern tables into the library: runs the line classifier
//! (`src/pattern/classify.rs`, which uses nothing else of the crate) for every rule and writes
//! both colours' patterns by compact key, one byte each, to `$OUT_DIR/patterns.bin`, which
//! `src/pattern/table.rs` includes. A game then starts without spending 10 to 40 ms of its
//! first move generating them.

use std::path::PathBuf;

#[allow(dead_code, unreachable_pub)]
#[path = "src/pattern/classify.rs"]
mod classify;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/pattern/classify.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut bytes = Vec::with_capacity(classify::RULE_FIVES.len() * classify::COMPACT_KEYS);
    for [black, white] in classify::RULE_FIVES {
        bytes.extend(classify::compact_patterns(black, white));
    }
    let path = out.join("patterns.bin");
    if let Err(e) = std::fs::write(&path, &bytes) {
        panic!("cannot write {}: {e}", path.display());
    }
}
