//! Tests of name resolution, type checking and lowering (`lapidary::ir::check`): the benchmark corpus
//! is accepted (and its SyntaxError files rejected), malformed examples produce the expected rendered
//! diagnostics, and CFGs of small examples have the expected DOT (insta snapshots).

use std::path::Path;
use std::time::Instant;

use lapidary::cli::render::render_diagnostics;
use lapidary::ir::{self, dot::to_dot};
use lapidary::syntax::parse;

const BENCH: &str = "/work/shared/bench/ultimate";

/// Parses and checks `src`; returns the program or all diagnostics.
fn check_src(src: &str) -> (Option<ir::Program>, Vec<lapidary::diag::Diagnostic>) {
    let (ast, mut diags) = parse(src);
    let Some(ast) = ast else { return (None, diags) };
    let (prog, d2) = ir::check(&ast);
    diags.extend(d2);
    (prog, diags)
}

#[test]
fn bench_t1_to_t4_check() {
    let dir = Path::new(BENCH);
    let Ok(manifest) = std::fs::read_to_string(dir.join("manifest.tsv")) else {
        eprintln!("note: {BENCH}/manifest.tsv not found, skipping the corpus test");
        return;
    };
    let mut total = 0;
    let mut ok = 0;
    let mut failures = Vec::new();
    let mut elapsed = std::time::Duration::ZERO;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4 || !cols[0].ends_with(".bpl") || !matches!(cols[1], "T1" | "T2" | "T3" | "T4") {
            continue;
        }
        let Ok(bytes) = std::fs::read(dir.join(cols[0])) else {
            failures.push(format!("{}: cannot read", cols[0]));
            continue;
        };
        let src = String::from_utf8_lossy(&bytes);
        total += 1;
        let start = Instant::now();
        let (prog, diags) = check_src(&src);
        elapsed += start.elapsed();
        let expect_error = cols[3] == "SyntaxError";
        if prog.is_some() != expect_error {
            ok += 1;
        } else if expect_error {
            failures.push(format!("{}: accepted, but expected SyntaxError", cols[0]));
        } else {
            let first = diags
                .iter()
                .find(|d| d.is_error())
                .map(|d| format!("{}: {} at {}", d.code, d.message, d.primary.span))
                .unwrap_or_default();
            failures.push(format!("{}: {first}", cols[0]));
        }
    }
    eprintln!(
        "checked {ok}/{total} T1-T4 files as expected in {:.3} s",
        elapsed.as_secs_f64()
    );
    for f in &failures {
        eprintln!("  {f}");
    }
    // Target: at least 99 % handled as expected.
    assert!(ok * 100 >= total * 99, "{} of {total} files not as expected", failures.len());
}
