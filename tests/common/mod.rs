//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};

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
        eprintln!(
            "note: {}/manifest.tsv not found, skipping the corpus test",
            dir.display()
        );
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
