//! Every `examples/**/*.bpl` and `examples/**/*.c` file: the verdict of `verify` must match the expectation on line one
//! (`//#Safe`, `//#Unsafe`, `//#SyntaxError`; `//#Terminating`, `//#Nonterminating`, which are run
//! with `--property termination`; `//#Unknown REASON` for a program the verifier is expected to answer
//! UNKNOWN with a reason starting with REASON — line two then states the right answer in the same
//! form, e.g. `//#Safe`, which also selects the property; `no-data-race`, `no-overflow`, `valid-memsafety` or
//! `valid-memcleanup` on line one (or two, after `//#Unknown`) selects that property), and the full output is an insta snapshot.
//!
//! There are no other accepted deviations: a `//#Safe` file answered UNKNOWN fails. Every example
//! runs even when one fails; the test reports all mismatches (verdicts and snapshots) at once.
//!
//! Every run passes `--proof --check-proof`: the proof of each SAFE answer (the certificate and the
//! printed loop invariants) is re-checked in a fresh solver session — inductive, excluding every error,
//! each printed invariant satisfiable and implied at each inlined copy — and a failed check is an
//! UNKNOWN, so a `//#Safe` example with a false printed proof fails.
//!
//! Every run also passes `--no-horn`: z3's Horn solver beside the engines races them, and which
//! one proves an example first (and so the reason and the proof printed) would depend on the
//! machine's speed; `tests/horn_clauses.rs` and `tests/recursion.rs` test it.
//!
//! Snapshots: `INSTA_UPDATE=always cargo test --test examples` rewrites them; review with `git diff`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "bpl" || x == "c") {
            out.push(p);
        }
    }
}

/// The expected headline word, and for `//#Unknown REASON` the reason's prefix.
fn expected(src: &str) -> Option<(&'static str, Option<String>)> {
    let first = src.lines().next()?;
    if let Some(reason) = first.trim().strip_prefix("//#Unknown") {
        let reason = reason.trim();
        return (!reason.is_empty()).then(|| ("UNKNOWN", Some(reason.to_string())));
    }
    let want = if first.contains("#SyntaxError") {
        "ERROR"
    } else if first.contains("#Nonterminating") {
        "NONTERMINATING"
    } else if first.contains("#Terminating") {
        "TERMINATING"
    } else if first.contains("#Unsafe") {
        "UNSAFE"
    } else if first.contains("#Safe") {
        "SAFE"
    } else {
        return None;
    };
    Some((want, None))
}

#[test]
fn examples_match_their_expected_verdict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("examples"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no examples found");
    let mut failures = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let src = std::fs::read_to_string(file).unwrap_or_default();
        let Some((want, want_reason)) = expected(&src) else {
            failures.push(format!(
                "{rel}: no expected verdict on line one (//#Unknown needs a reason)"
            ));
            continue;
        };
        // For `//#Unknown`, line two holds the right answer, which selects the property.
        let truth = if want == "UNKNOWN" {
            src.lines().nth(1).and_then(expected).map(|(w, _)| w)
        } else {
            Some(want)
        };
        let Some(truth) = truth else {
            failures.push(format!(
                "{rel}: //#Unknown needs the right answer on line two (e.g. //#Safe)"
            ));
            continue;
        };
        let termination = matches!(truth, "TERMINATING" | "NONTERMINATING");
        // `no-data-race`, `no-overflow`, `valid-memsafety` or `valid-memcleanup` on line one selects that property
        // (C programs)
        let first: String = src.lines().take(2).collect();
        let property = if termination {
            "termination"
        } else {
            [
                "no-data-race",
                "no-overflow",
                "valid-memsafety",
                "valid-memcleanup",
            ]
            .into_iter()
            .find(|p| first.contains(p))
            .unwrap_or("safety")
        };
        let output = Command::new(env!("CARGO_BIN_EXE_verify"))
            .current_dir(root)
            .args([
                "--color",
                "never",
                "--timeout",
                "60",
                "--proof",
                "--check-proof",
                "--no-horn",
            ])
            .args(["--property", property, &rel])
            .output()
            .expect("run verify");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let headline = stdout.lines().next().unwrap_or("");
        let got = headline
            .strip_prefix(&format!("{rel}: "))
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .unwrap_or_default();
        let code = output.status.code();
        let want_code = match want {
            "SAFE" | "TERMINATING" => Some(0),
            "UNSAFE" | "NONTERMINATING" => Some(1),
            "UNKNOWN" => Some(2),
            _ => Some(3),
        };
        let reason_ok = want_reason
            .as_ref()
            .is_none_or(|r| headline.contains(&format!("({r}")));
        if got != want || code != want_code || !reason_ok {
            let reason = want_reason.map(|r| format!(" ({r}…)")).unwrap_or_default();
            failures.push(format!(
                "{rel}: expected {want}{reason} (exit {want_code:?}), got {got:?} (exit {code:?})\n{stdout}"
            ));
            continue;
        }
        let name = rel.trim_start_matches("examples/").replace(['/', '.'], "_");
        // A snapshot mismatch is collected, not fatal, so that every example runs.
        let snapshot = std::panic::catch_unwind(|| insta::assert_snapshot!(name, stdout));
        if snapshot.is_err() {
            failures.push(format!(
                "{rel}: output differs from its snapshot (see above)"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} example(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
