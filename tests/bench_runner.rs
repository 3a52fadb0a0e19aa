//! Tests of `verify bench` with a fake verifier: a shell script that prints a canned JSON line
//! chosen by file name (and hangs, crashes or prints garbage for some names).
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod common;

use lapidary::cli::bench::*;

const FAKE_VERIFY: &str = r#"#!/bin/sh
# Fake `verify --format json --timeout S [extra..] FILE`.
for last; do :; done
name=$(basename "$last")
emit() { printf '{"file":"%s","verdict":"%s","reason":"%s","time_s":0.01}\n' "$last" "$1" "$2"; }
case "$name" in
  safe_ok.bpl) echo "progress noise"; emit safe "args: $*"; exit 0 ;;
  unsafe_ok.bpl) emit unsafe "assertion may fail"; exit 1 ;;
  wrong_safe.bpl) emit safe ""; exit 0 ;;
  wrong_unsafe.bpl) emit unsafe "assertion may fail"; exit 1 ;;
  unknown.bpl) emit unknown "solver returned unknown"; exit 2 ;;
  timeout_reported.bpl) emit unknown "timeout after 1 s"; exit 2 ;;
  hang.bpl) sleep 30 & sleep 30; emit safe "too late"; exit 0 ;;
  internal.bpl) emit error "panic in engine"; exit 4 ;;
  garbage.bpl) echo "this is not json"; exit 0 ;;
  segv.bpl) kill -SEGV $$ ;;
  syntax.bpl) emit error "parse error at 3:4"; exit 3 ;;
  rejects_valid.bpl) emit error "parse error at 1:1"; exit 3 ;;
  inconsistent.bpl) emit safe ""; exit 1 ;;
  term.bpl) emit terminating "args: $*"; exit 0 ;;
  nonterm.bpl) emit nonterminating "lasso"; exit 1 ;;
  wrong_term.bpl) emit terminating ""; exit 0 ;;
  cross.bpl) emit safe ""; exit 0 ;;
  *) echo "unexpected file $name" >&2; exit 4 ;;
esac
"#;

/// (file, tier, expected) rows of the test manifest; `missing.bpl` is listed but not created.
const ROWS: &[(&str, &str, &str)] = &[
    ("a/safe_ok.bpl", "T1", "Safe"),
    ("a/unsafe_ok.bpl", "T1", "Unsafe"),
    ("a/wrong_safe.bpl", "T1", "Unsafe"),
    ("a/wrong_unsafe.bpl", "T1", "Safe"),
    ("a/unknown.bpl", "T1", "Safe"),
    ("a/timeout_reported.bpl", "T1", "Safe"),
    ("b/hang.bpl", "T2", "Safe"),
    ("b/internal.bpl", "T2", "Safe"),
    ("b/garbage.bpl", "T2", "Unsafe"),
    ("b/segv.bpl", "T2", "Safe"),
    ("b/syntax.bpl", "T2", "SyntaxError"),
    ("b/rejects_valid.bpl", "T2", "Safe"),
    ("b/inconsistent.bpl", "T2", "Safe"),
    ("b/missing.bpl", "T2", "Safe"),
    ("c/term.bpl", "T4", "rTerminationDerivable"),
    ("c/nonterm.bpl", "T4", "Nonterminating"),
    ("c/wrong_term.bpl", "T4", "rNonTermination"),
    ("c/cross.bpl", "T4", "Terminating"),
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-bench-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The fake verifier, written once before any test spawns a child (avoids ETXTBSY races).
fn fake_verify() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let dir = scratch("exe");
        let exe = dir.join("fake-verify.sh");
        fs::write(&exe, FAKE_VERIFY).expect("write script");
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).expect("chmod");
        exe
    })
}

/// Writes the manifest (rows in scrambled order) and the benchmark files into a fresh directory.
fn bench_dir(name: &str, rows: &[(&str, &str, &str)]) -> PathBuf {
    let dir = scratch(name);
    let mut manifest = String::from("path\ttier\tcategory\texpected\tfeatures\n");
    for (path, tier, expected) in rows.iter().rev() {
        let category = path.split('/').next().unwrap_or("");
        manifest.push_str(&format!(
            "{path}\t{tier}\t{category}\t{expected}\tprocs=1\n"
        ));
        if !path.ends_with("missing.bpl") {
            let file = dir.join(path);
            fs::create_dir_all(file.parent().expect("has parent")).expect("mkdir");
            fs::write(file, "procedure main() {}\n").expect("write file");
        }
    }
    fs::write(dir.join("manifest.tsv"), manifest).expect("write manifest");
    dir
}

fn options(dir: &Path) -> BenchOptions {
    BenchOptions {
        manifest: dir.join("manifest.tsv"),
        tiers: None,
        jobs: 4,
        timeout_s: 0.5,
        out: None,
        compare: None,
        verify_exe: fake_verify().to_path_buf(),
        extra_args: vec!["--extra-flag".into()],
        progress: true,
    }
}

fn result<'a>(summary: &'a BenchSummary, path: &str) -> &'a FileResult {
    summary
        .results
        .iter()
        .find(|r| r.path == path)
        .unwrap_or_else(|| panic!("no result for {path}"))
}

#[test]
fn classifies_scores_and_kills_hanging_children() {
    let dir = bench_dir("full", ROWS);
    let mut opts = options(&dir);
    opts.out = Some(dir.join("results.json"));
    let start = Instant::now();
    let summary = run_bench(&opts).expect("bench runs");
    let elapsed = start.elapsed();
    // The hanging child (and its grandchild `sleep`) is killed at timeout + grace.
    assert!(elapsed < Duration::from_secs(10), "bench took {elapsed:?}");
    let hang = result(&summary, "b/hang.bpl");
    assert_eq!(hang.outcome, Outcome::Timeout);
    assert!(
        hang.time_s >= 0.5 + GRACE_S - 0.1 && hang.time_s < 0.5 + GRACE_S + 2.0,
        "{}",
        hang.time_s
    );

    let expected = [
        ("a/safe_ok.bpl", Outcome::Correct, 2),
        ("a/unsafe_ok.bpl", Outcome::Correct, 1),
        ("a/wrong_safe.bpl", Outcome::Wrong, -32),
        ("a/wrong_unsafe.bpl", Outcome::Wrong, -16),
        ("a/unknown.bpl", Outcome::Unknown, 0),
        ("a/timeout_reported.bpl", Outcome::Timeout, 0),
        ("b/hang.bpl", Outcome::Timeout, 0),
        ("b/internal.bpl", Outcome::Error, 0),
        ("b/garbage.bpl", Outcome::Error, 0),
        ("b/segv.bpl", Outcome::Error, 0),
        ("b/syntax.bpl", Outcome::Correct, 0),
        ("b/rejects_valid.bpl", Outcome::Error, 0),
        ("b/inconsistent.bpl", Outcome::Error, 0),
        ("b/missing.bpl", Outcome::Error, 0),
        ("c/term.bpl", Outcome::Correct, 2),
        ("c/nonterm.bpl", Outcome::Correct, 1),
        ("c/wrong_term.bpl", Outcome::Wrong, -32),
        ("c/cross.bpl", Outcome::Error, 0),
    ];
    for (path, outcome, score) in expected {
        let r = result(&summary, path);
        assert_eq!((r.outcome, r.score), (outcome, score), "{path}: {r:?}");
    }
    // Sorted by path, whatever the scheduling.
    let paths: Vec<&str> = summary.results.iter().map(|r| r.path.as_str()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    // The child got the protocol arguments and the extra ones.
    let safe = result(&summary, "a/safe_ok.bpl");
    assert_eq!(safe.verdict.as_deref(), Some("safe"));
    assert!(
        safe.reason
            .starts_with("args: --format json --timeout 0.5 --extra-flag "),
        "{}",
        safe.reason
    );
    // A termination label selects the property (never the expected answer).
    let term = result(&summary, "c/term.bpl");
    assert!(
        term.reason
            .starts_with("args: --format json --timeout 0.5 --property termination --extra-flag "),
        "{}",
        term.reason
    );
    assert!(result(&summary, "b/segv.bpl").reason.contains("signal 11"));
    assert!(
        result(&summary, "b/missing.bpl")
            .reason
            .starts_with("file not found")
    );

    // Aggregates.
    let t1 = &summary.tiers["T1"];
    assert_eq!(
        (
            t1.files, t1.correct, t1.wrong, t1.unknown, t1.timeout, t1.error
        ),
        (6, 2, 2, 1, 1, 0)
    );
    assert_eq!(t1.score, 2 + 1 - 32 - 16);
    let t2 = &summary.tiers["T2"];
    assert_eq!((t2.files, t2.correct, t2.timeout, t2.error), (8, 1, 1, 6));
    let total = &summary.total;
    assert_eq!(total.files, ROWS.len());
    assert_eq!(total.score, 2 + 1 - 32 - 16 + 2 + 1 - 32);
    assert_eq!(
        summary.categories.keys().collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
    assert!(total.median_time_s > 0.0 && total.median_time_s < total.total_time_s);

    // Tables list the wrong files.
    let tables = render_tables(&summary);
    println!("{tables}");
    assert!(tables.contains("WRONG (3):"), "{tables}");
    for wrong in ["a/wrong_safe.bpl", "a/wrong_unsafe.bpl", "c/wrong_term.bpl"] {
        assert!(tables.contains(&format!("  {wrong}  expected")), "{tables}");
    }
    assert!(tables.lines().any(|l| l.starts_with("T1 ")), "{tables}");
    assert!(tables.lines().any(|l| l.starts_with("total ")), "{tables}");

    // JSON round trip.
    let text = fs::read_to_string(dir.join("results.json")).expect("results written");
    let back = BenchSummary::from_json(&text).expect("valid json");
    assert_eq!(back, summary);
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let first = &value["results"][0];
    for key in [
        "path", "tier", "category", "expected", "verdict", "outcome", "time_s", "reason",
    ] {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn compares_with_an_earlier_run_and_filters_tiers() {
    let dir = bench_dir("compare", ROWS);
    let mut opts = options(&dir);
    opts.tiers = Some(vec!["T1".into(), "T4".into()]);
    opts.jobs = 2;
    let first = run_bench(&opts).expect("bench runs");
    assert_eq!(first.results.len(), 10);
    assert!(first.results.iter().all(|r| r.tier != "T2"));
    assert!(first.changes.is_none());

    // Pretend an earlier run got one file right, another wrong, and lacked a third.
    let mut old = first.clone();
    old.results.retain(|r| r.path != "c/term.bpl");
    for r in &mut old.results {
        match r.path.as_str() {
            "a/wrong_safe.bpl" => r.outcome = Outcome::Correct,
            "a/unknown.bpl" => r.outcome = Outcome::Timeout,
            _ => {}
        }
    }
    let old_path = dir.join("old.json");
    fs::write(&old_path, old.to_json()).expect("write old");
    opts.compare = Some(old_path);
    let second = run_bench(&opts).expect("bench runs");
    let changes = second.changes.clone().expect("compared");
    let summary: Vec<(&str, Option<Outcome>, Outcome)> = changes
        .iter()
        .map(|c| (c.path.as_str(), c.old, c.new))
        .collect();
    assert_eq!(
        summary,
        [
            ("a/unknown.bpl", Some(Outcome::Timeout), Outcome::Unknown),
            ("a/wrong_safe.bpl", Some(Outcome::Correct), Outcome::Wrong),
            ("c/term.bpl", None, Outcome::Correct),
        ]
    );
    let tables = render_tables(&second);
    assert!(tables.contains("Changed outcomes (3):"), "{tables}");
    assert!(
        tables.contains("  a/wrong_safe.bpl  correct -> wrong"),
        "{tables}"
    );
    assert!(
        tables.contains("  c/term.bpl  (new) -> correct"),
        "{tables}"
    );

    // Unknown tiers are rejected.
    opts.tiers = Some(vec!["T9".into()]);
    let err = run_bench(&opts).expect_err("unknown tier");
    assert!(err.contains("unknown tier `T9`"), "{err}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn manifest_errors_are_reported_not_panicked() {
    assert!(parse_manifest("").is_err());
    let err = parse_manifest("path\ttier\tcategory\n").expect_err("no expected column");
    assert!(err.contains("`expected`"), "{err}");
    let err = parse_manifest("path\ttier\tcategory\texpected\nx.bpl\tT1\tc\tMaybe\n")
        .expect_err("bad label");
    assert!(err.contains("line 2") && err.contains("Maybe"), "{err}");
    let err = parse_manifest("path\ttier\tcategory\texpected\nx.bpl\tT1\n").expect_err("short row");
    assert!(err.contains("line 2"), "{err}");
    let entries = parse_manifest(
        "path\ttier\tcategory\texpected\n# comment\n\nx.bpl\tT1\tc\trNonTerminationDerivable\n",
    )
    .expect("valid");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].expected, Expected::RNonTerminationDerivable);
    assert_eq!(entries[0].expected.correct_verdict(), "nonterminating");
    assert_eq!(entries[0].features, "");
    // The real manifest parses, if present.
    let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/ultimate/manifest.tsv");
    match fs::read_to_string(&real) {
        Ok(text) => {
            let entries = parse_manifest(&text).expect("real manifest parses");
            assert!(entries.len() > 1000);
        }
        Err(_) => common::missing(&format!("the corpus {}", real.display())),
    }
}
