//! Every `examples/**/*.bpl` file: the verdict of `verify` must match the expectation on line one
//! (`//#Safe`, `//#Unsafe`, `//#SyntaxError`; `//#Terminating`, `//#Nonterminating`, which are run
//! with `--property termination`), and the full output is an insta snapshot.
//!
//! Accepted deviations: UNKNOWN whose reason starts with "unsupported" (a feature the engine does not
//! interpret yet, e.g. reals or threads); for termination examples also UNKNOWN whose reason starts
//! with "control flow depends on unconstrained values" (the executor's documented limit). Any other
//! UNKNOWN, and any wrong verdict, fails.
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
        } else if p.extension().is_some_and(|x| x == "bpl") {
            out.push(p);
        }
    }
}

fn expected(src: &str) -> Option<&'static str> {
    let first = src.lines().next()?;
    if first.contains("#SyntaxError") {
        Some("ERROR")
    } else if first.contains("#Nonterminating") {
        Some("NONTERMINATING")
    } else if first.contains("#Terminating") {
        Some("TERMINATING")
    } else if first.contains("#Unsafe") {
        Some("UNSAFE")
    } else if first.contains("#Safe") {
        Some("SAFE")
    } else {
        None
    }
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
        let Some(want) = expected(&src) else {
            failures.push(format!("{rel}: no expected verdict on line one"));
            continue;
        };
        let termination = matches!(want, "TERMINATING" | "NONTERMINATING");
        let property = if termination { "termination" } else { "safety" };
        let output = Command::new(env!("CARGO_BIN_EXE_verify"))
            .current_dir(root)
            .args(["--color", "never", "--timeout", "60", "--proof"])
            .args(["--property", property, &rel])
            .output()
            .expect("run verify");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let got = stdout
            .lines()
            .next()
            .and_then(|l| l.strip_prefix(&format!("{rel}: ")))
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
            .unwrap_or_default();
        let code = output.status.code();
        let headline = stdout.lines().next().unwrap_or("");
        let unsupported = got == "UNKNOWN"
            && (headline.contains("(unsupported")
                || (termination
                    && headline.contains("(control flow depends on unconstrained values")));
        if unsupported && want != "ERROR" && code == Some(2) {
            let name = rel.trim_start_matches("examples/").replace(['/', '.'], "_");
            insta::assert_snapshot!(name, stdout);
            continue;
        }
        let want_code = match want {
            "SAFE" | "TERMINATING" => Some(0),
            "UNSAFE" | "NONTERMINATING" => Some(1),
            _ => Some(3),
        };
        if got != want || code != want_code {
            failures.push(format!(
                "{rel}: expected {want} (exit {want_code:?}), got {got:?} (exit {code:?})\n{stdout}"
            ));
            continue;
        }
        let name = rel.trim_start_matches("examples/").replace(['/', '.'], "_");
        insta::assert_snapshot!(name, stdout);
    }
    assert!(
        failures.is_empty(),
        "{} example(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
