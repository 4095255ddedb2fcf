//! Builds the pattern tables into the library: runs the line classifier
//! (`src/pattern/classify.rs`, which uses nothing else of the crate but the rules and the
//! colours, compiled here too) for every rule and writes both colours' patterns by compact
//! key, one byte each, to `$OUT_DIR/patterns.bin`, which `src/pattern/table.rs` includes. A
//! game then starts without spending 10 to 40 ms of its first move generating them.

use std::path::PathBuf;

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "src/color.rs"]
mod color;

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "src/rules.rs"]
mod rules;

#[allow(dead_code, unreachable_pub)]
#[path = "src/pattern/classify.rs"]
mod classify;

use color::Color;
use rules::Rule;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for source in ["src/pattern/classify.rs", "src/rules.rs", "src/color.rs"] {
        println!("cargo::rerun-if-changed={source}");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut bytes = Vec::with_capacity(Rule::ALL.len() * classify::COMPACT_KEYS);
    for rule in Rule::ALL {
        bytes
            .extend(classify::compact_patterns(rule.fives(Color::Black), rule.fives(Color::White)));
    }
    let path = out.join("patterns.bin");
    if let Err(e) = std::fs::write(&path, &bytes) {
        panic!("cannot write {}: {e}", path.display());
    }
}
