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
