//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test crate uses a different part

use std::path::{Path, PathBuf};

/// A test input that is missing: under CI (`CI` set, as `.ci/run` runs) that is a failure — a test
/// never passes by skipping there; elsewhere a note on stderr.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("{what} is missing, and CI is set: a test must not pass by skipping");
    }
    eprintln!("note: {what} not found, skipping");
}

/// A solver is missing: z3 and yices are pinned by `scripts/setup.sh`, so under CI they must be
/// there ([`missing`]); cvc5 is optional everywhere.
pub fn solver_missing(kind: &str) {
    if kind.contains("cvc5") {
        eprintln!("note: {kind} not found (optional), skipping");
    } else {
        missing(kind);
    }
}

/// The dev benchmark: `$LAPIDARY_BENCH`, else `../shared/bench/ultimate` beside the checkout (as on
/// CI), else `/work/shared/bench/ultimate`.
pub fn bench_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("LAPIDARY_BENCH") {
        return d.into();
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/ultimate");
    if beside.join("manifest.tsv").exists() {
        return beside;
    }
    PathBuf::from("/work/shared/bench/ultimate")
}

/// The `.bpl` files of tiers T1–T4 in the dev manifest, as (path relative to the bench directory,
/// labelled `SyntaxError`), with the bench directory; `None` (and a note) when it is absent.
pub fn t1_to_t4_boogie_files() -> Option<(PathBuf, Vec<(String, bool)>)> {
    let dir = bench_dir();
    let Ok(manifest) = std::fs::read_to_string(dir.join("manifest.tsv")) else {
        missing(&format!("the corpus {}/manifest.tsv", dir.display()));
        return None;
    };
    let files = manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.len() >= 4
                && cols[0].ends_with(".bpl")
                && matches!(cols[1], "T1" | "T2" | "T3" | "T4"))
            .then(|| (cols[0].to_string(), cols[3] == "SyntaxError"))
        })
        .collect();
    Some((dir, files))
}
