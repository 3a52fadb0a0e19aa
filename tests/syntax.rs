//! Tests of the Boogie lexer and parser: the benchmark corpus parses, diagnostics render as expected
//! (insta snapshots), the parser never panics (proptest), and a few structural checks.

use std::path::Path;
use std::time::Instant;

use lapidary::cli::render::render_diagnostics;
use lapidary::syntax::ast::{BinOp, Expr, ExprKind, StmtKind};
use lapidary::syntax::{parse, parse_expr};

const BENCH: &str = "/work/shared/bench/ultimate";

// ------------------------------------------------------------------ benchmark corpus

#[test]
fn bench_t1_to_t4_parse() {
    let dir = Path::new(BENCH);
    let manifest = match std::fs::read_to_string(dir.join("manifest.tsv")) {
        Ok(m) => m,
        Err(_) => {
            eprintln!("note: {BENCH}/manifest.tsv not found, skipping the corpus test");
            return;
        }
    };
    let mut total = 0;
    let mut parsed = 0;
    let mut failures = Vec::new();
    let mut elapsed = std::time::Duration::ZERO;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 4
            || !cols[0].ends_with(".bpl")
            || !matches!(cols[1], "T1" | "T2" | "T3" | "T4")
        {
            continue;
        }
        let bytes = match std::fs::read(dir.join(cols[0])) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: cannot read: {e}", cols[0]));
                continue;
            }
        };
        let src = String::from_utf8_lossy(&bytes);
        total += 1;
        let start = Instant::now();
        let (prog, diags) = parse(&src);
        elapsed += start.elapsed();
        if prog.is_some() {
            parsed += 1;
        } else if cols[3] != "SyntaxError" {
            let first = diags
                .first()
                .map(|d| format!("{}: {} at {}", d.code, d.message, d.primary.span))
                .unwrap_or_default();
            failures.push(format!("{}: {first}", cols[0]));
        }
    }
    eprintln!(
        "parsed {parsed}/{total} T1-T4 files in {:.3} s",
        elapsed.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} files failed to parse:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
