//! The `verify` command line as a user sees it: exit codes, JSON output, `--dump-cfg`, `--timeout`, and
//! `--no-verify` on every Boogie file of tiers T1–T4 of the dev benchmark (when it is present).

mod common;
use common::t1_to_t4_boogie_files;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn verify() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verify"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lapidary-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

#[test]
fn exit_codes_and_json_fields() {
    let safe = temp_file(
        "safe.bpl",
        "procedure main() { var x: int; x := 1; assert x == 1; }\n",
    );
    let unsafe_ = temp_file(
        "unsafe.bpl",
        "procedure main() { var x: int; assert x == 1; }\n",
    );
    let bad = temp_file("bad.bpl", "procedure main() { x := ; }\n");
    let ill_typed = temp_file("type.bpl", "procedure main() { var x: int; x := true; }\n");
    for (file, code, verdict) in [
        (&safe, 0, "safe"),
        (&unsafe_, 1, "unsafe"),
        (&bad, 3, "error"),
        (&ill_typed, 3, "error"),
    ] {
        let out = verify()
            .args(["--format", "json"])
            .arg(file)
            .output()
            .expect("run verify");
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}: {}",
            file.display(),
            String::from_utf8_lossy(&out.stdout)
        );
        let line = String::from_utf8_lossy(&out.stdout);
        let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
        assert_eq!(v["verdict"], verdict);
        assert_eq!(v["file"], file.display().to_string());
        assert!(v["time_s"].is_number());
        assert!(v.get("reason").is_some());
    }
    // Several files: the most severe exit code wins (3 over 1 over 0).
    let out = verify()
        .arg(&safe)
        .arg(&unsafe_)
        .arg(&bad)
        .output()
        .expect("run verify");
    assert_eq!(out.status.code(), Some(3));
    // A missing file is an input error.
    let out = verify()
        .arg("no/such/file.bpl")
        .output()
        .expect("run verify");
    assert_eq!(out.status.code(), Some(3));
    // Diagnostics carry file:line:col.
    let out = verify().arg(&bad).output().expect("run verify");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("bad.bpl:1:"), "{text}");
}

#[test]
fn dump_cfg_writes_dot() {
    let src = temp_file(
        "loop.bpl",
        "procedure main() { var i: int; i := 0; while (i < 3) { i := i + 1; } assert i == 3; }\n",
    );
    let dot = src.with_extension("dot");
    let out = verify()
        .args(["--no-verify", "--dump-cfg"])
        .arg(&dot)
        .arg(&src)
        .output()
        .expect("run verify");
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&dot).expect("dot written");
    assert!(text.starts_with("digraph"), "{text}");
    assert!(text.contains("i := i + 1"), "{text}");
}

#[test]
fn timeout_is_honoured_within_a_second() {
    // Needs an invariant relating i and j that forward/backward predicates never generalise to:
    // the engine unrolls until the deadline.
    let src = temp_file(
        "hard.bpl",
        "procedure main() { var x, y, i, j: int; x := i; y := j;\n while (x != 0) { x := x - 1; y := y - 1; }\n if (i == j) { assert y == 0; } }\n",
    );
    let start = Instant::now();
    let out = verify()
        .args(["--timeout", "2", "--format", "json"])
        .arg(&src)
        .output()
        .expect("run verify");
    let elapsed = start.elapsed().as_secs_f64();
    let line = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
    // Either it was proved quickly (a future improvement) or it gave up in time.
    if v["verdict"] == "unknown" {
        assert_eq!(out.status.code(), Some(2));
        assert!(elapsed < 3.0, "took {elapsed:.2} s for --timeout 2");
    } else {
        assert_eq!(v["verdict"], "safe");
    }
}

#[test]
fn no_verify_accepts_the_dev_benchmark() {
    let Some((dir, files)) = t1_to_t4_boogie_files() else {
        return;
    };
    assert!(files.len() > 1000, "manifest too small");
    let out = Command::new(env!("CARGO_BIN_EXE_verify"))
        .current_dir(&dir)
        .args(["--no-verify", "--format", "json"])
        .args(files.iter().map(|(f, _)| f))
        .output()
        .expect("run verify");
    let mut verdicts = std::collections::HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        verdicts.insert(
            v["file"].as_str().unwrap_or_default().to_string(),
            (
                v["verdict"].as_str().unwrap_or_default().to_string(),
                v["reason"].to_string(),
            ),
        );
    }
    let (mut accepted, mut should_accept) = (0, 0);
    let mut failures = Vec::new();
    for (f, syntax_error) in &files {
        let Some((verdict, reason)) = verdicts.get(f) else {
            failures.push(format!("{f}: no output"));
            continue;
        };
        if *syntax_error {
            if verdict != "error" {
                failures.push(format!("{f}: labelled SyntaxError but accepted"));
            }
        } else {
            should_accept += 1;
            if verdict == "error" {
                eprintln!("rejected: {f}: {reason}");
            } else {
                accepted += 1;
            }
        }
    }
    let rate = accepted as f64 / should_accept as f64;
    eprintln!(
        "--no-verify accepted {accepted}/{should_accept} ({:.2} %)",
        100.0 * rate
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(rate >= 0.99, "acceptance {:.2} % below 99 %", 100.0 * rate);
}
