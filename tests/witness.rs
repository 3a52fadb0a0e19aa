//! Witnesses (`--witness-dir`): the correctness witness (YAML 2.0 `invariant_set`) of a SAFE C
//! program; the GraphML violation witness (and the YAML 2.0 one) of an UNSAFE C program is written,
//! has the entry and violation nodes and the error path in C terms (values of C variables as
//! `assumption`s, branches taken as `control`, calls and returns as `enterFunction` /
//! `returnFromFunction`; YAML `assumption` and `branching` waypoints before the target), and
//! passes the SV-COMP witness linter (`../shared/tools/witnesslint`, which needs the Python
//! package lxml; the interpreter is `$LAPIDARY_BENCHEXEC_PYTHON`, else `python3`). Without the
//! linter or lxml the linting part fails under CI and is skipped with a note elsewhere.

mod common;
use std::path::Path;
use std::process::{Command, Output};

#[test]
fn violation_witness_is_written_and_lints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-witness-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let program = root.join("examples/c/array_bounds_unsafe.c");
    let out = verify_with_witnesses(&program, &dir);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let witness = dir.join("witness.graphml");
    let text = std::fs::read_to_string(&witness).expect("the witness is written");
    assert!(text.contains("<data key=\"witness-type\">violation_witness</data>"));
    assert!(text.contains("<data key=\"entry\">true</data>"));
    assert!(text.contains("<data key=\"violation\">true</data>"));
    assert!(text.contains("<data key=\"startline\">"));
    // The YAML 2.0 witness: a violation sequence whose target is the out-of-bounds write (line 9).
    let yaml =
        std::fs::read_to_string(dir.join("witness.yml")).expect("the YAML witness is written");
    assert!(
        yaml.contains("entry_type: \"violation_sequence\""),
        "{yaml}"
    );
    assert!(yaml.contains("format_version: \"2.0\""), "{yaml}");
    assert!(yaml.contains("type: \"target\""), "{yaml}");
    assert!(yaml.contains("line: 9\n"), "{yaml}");
    // A safe program gets a correctness witness: the loop invariant at the loop (line 11, column
    // 3) as a C expression over the C variables, with what C cannot state left out (the
    // temporary `#t~2`).
    let safe_dir = dir.join("safe");
    let yaml = correctness_witness(root.join("examples/c/loop_counter_safe.c"), &safe_dir);
    for want in [
        "entry_type: \"invariant_set\"",
        "format_version: \"2.0\"",
        "type: \"loop_invariant\"",
        "line: 11\n          column: 3\n          function: \"main\"",
        "(long long) n <= 1000LL",
        "((2LL * (long long) i) + (-(long long) s)) == 0LL",
        "format: \"c_expression\"",
    ] {
        assert!(yaml.contains(want), "{want}\n{yaml}");
    }
    assert!(!yaml.contains('#') && !yaml.contains('~'), "{yaml}");
    // `s % 2 == 0` is stated since the invariant bounds `s` below by 0 (where C's truncating `%`
    // is the Euclidean `mod` of the proof)
    let even = dir.join("even.c");
    std::fs::write(
        &even,
        "extern unsigned int __VERIFIER_nondet_uint(void);\nextern void reach_error(void);\n\n\
         int main(void) {\n  unsigned int s = 0;\n  while (__VERIFIER_nondet_uint()) {\n    \
         s += 2;\n    if (s > 1000) s = 0;\n  }\n  if (s % 2 != 0) reach_error();\n  return 0;\n}\n",
    )
    .expect("write the program");
    let even_dir = dir.join("even");
    let yaml = correctness_witness(&even, &even_dir);
    for want in [
        "((long long) s % 2LL) == 0LL",
        "(-(long long) s) <= 0LL",
        "line: 6\n",
    ] {
        assert!(yaml.contains(want), "{want}\n{yaml}");
    }

    lint(&witness, &program);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `verify PROGRAM --witness-dir DIR --no-horn`: the tests check the invariants of the
/// engines' proofs, and z3's Horn solver beside them would win the race on a fast machine.
fn verify_with_witnesses(program: impl AsRef<Path>, dir: impl AsRef<Path>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verify"))
        .arg("--no-horn")
        .arg(program.as_ref())
        .arg("--witness-dir")
        .arg(dir.as_ref())
        .output()
        .expect("run verify")
}

/// The YAML correctness witness of a program that is SAFE (and no GraphML violation witness).
fn correctness_witness(program: impl AsRef<Path>, dir: &Path) -> String {
    let out = verify_with_witnesses(program, dir);
    assert_eq!(out.status.code(), Some(0));
    assert!(!dir.join("witness.graphml").exists());
    std::fs::read_to_string(dir.join("witness.yml")).expect("the correctness witness is written")
}

/// Runs the SV-COMP witness linter on `witness` (skipped with a note when the linter or lxml is
/// missing, a failure under CI).
fn lint(witness: &Path, program: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = std::env::var("LAPIDARY_BENCHEXEC_PYTHON").unwrap_or_else(|_| "python3".into());
    let linter = root.join("../shared/tools/witnesslint/witnesslinter.py");
    let has_lxml = Command::new(&python)
        .args(["-c", "import lxml"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !linter.exists() || !has_lxml {
        common::missing(&format!(
            "the SV-COMP witness linter ({}) with the Python package lxml (for {python})",
            linter.display()
        ));
        return;
    }
    let out = Command::new(&python)
        .arg(&linter)
        .arg("--witness")
        .arg(witness)
        .arg(program)
        .output()
        .expect("run the witness linter");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The `data` elements of each `edge` of a GraphML witness, in order.
fn graphml_edges(text: &str) -> Vec<Vec<(String, String)>> {
    text.split("<edge ")
        .skip(1)
        .map(|e| {
            let e = &e[..e.find("</edge>").unwrap_or(e.len())];
            e.split("<data key=\"")
                .skip(1)
                .filter_map(|d| {
                    let (k, rest) = d.split_once("\">")?;
                    let (v, _) = rest.split_once("</data>")?;
                    Some((k.to_string(), v.replace("&amp;", "&").replace("&lt;", "<")))
                })
                .collect()
        })
        .collect()
}

/// The waypoints of a YAML violation sequence: type, line, column and constraint value.
fn yaml_waypoints(text: &str) -> Vec<(String, String, String, String)> {
    let mut out: Vec<(String, String, String, String)> = Vec::new();
    for l in text.lines().map(str::trim) {
        let field = |k: &str| l.strip_prefix(k).map(|v| v.trim_matches('"').to_string());
        if let Some(t) = field("type: ") {
            out.push((t, String::new(), String::new(), String::new()));
        } else if let (Some(w), Some(v)) = (out.last_mut(), field("line: ")) {
            w.1 = v;
        } else if let (Some(w), Some(v)) = (out.last_mut(), field("column: ")) {
            w.2 = v;
        } else if let (Some(w), Some(v)) = (out.last_mut(), field("value: ")) {
            w.3 = v;
        }
    }
    out
}

#[test]
fn violation_witness_states_the_path_in_c_terms() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-witness-c-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let program = root.join("examples/c/witness_branch_call_unsafe.c");
    let out = verify_with_witnesses(&program, &dir);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(dir.join("witness.graphml")).expect("GraphML witness");
    let edges = graphml_edges(&text);
    let e = |kv: &[(&str, &str)]| -> Vec<(String, String)> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    // x = 4 (line 12), `x > 5` false (13), `twice` entered at 16, its `return` (8), left at 16,
    // y = 8 (16), `y == 8` true (17): the only execution that reaches `reach_error`
    let want = vec![
        e(&[
            ("startline", "12"),
            ("endline", "12"),
            ("assumption", "x == 4;"),
            ("assumption.scope", "main"),
        ]),
        e(&[
            ("startline", "13"),
            ("endline", "13"),
            ("control", "condition-false"),
        ]),
        e(&[
            ("startline", "16"),
            ("endline", "16"),
            ("enterFunction", "twice"),
        ]),
        e(&[("startline", "8"), ("endline", "8")]),
        e(&[
            ("startline", "16"),
            ("endline", "16"),
            ("returnFromFunction", "twice"),
        ]),
        e(&[
            ("startline", "16"),
            ("endline", "16"),
            ("assumption", "y == 8;"),
            ("assumption.scope", "main"),
        ]),
        e(&[
            ("startline", "17"),
            ("endline", "17"),
            ("control", "condition-true"),
        ]),
    ];
    assert_eq!(edges, want, "{text}");
    lint(&dir.join("witness.graphml"), &program);
    // YAML: an assumption holds before the statement it is at (the `if` after `x`'s
    // declaration, `return` in `twice`, the `if` after `y`'s), a branching waypoint is at the
    // keyword of its statement
    let yaml = std::fs::read_to_string(dir.join("witness.yml")).expect("YAML witness");
    let w = |t: &str, l: &str, c: &str, v: &str| {
        (t.to_string(), l.to_string(), c.to_string(), v.to_string())
    };
    assert_eq!(
        yaml_waypoints(&yaml),
        vec![
            w("assumption", "13", "3", "x == 4"),
            w("branching", "13", "3", "false"),
            w("assumption", "8", "3", "v == 4"),
            w("assumption", "17", "3", "y == 8"),
            w("branching", "17", "3", "true"),
            w("target", "18", "5", ""),
        ],
        "{yaml}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn correctness_witness_names_variables_in_scope() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-witness-s-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = verify_with_witnesses(root.join("examples/c/witness_scopes_safe.c"), &dir);
    assert_eq!(out.status.code(), Some(0));
    let yaml = std::fs::read_to_string(dir.join("witness.yml")).expect("correctness witness");
    let values: Vec<&str> = yaml
        .lines()
        .filter_map(|l| l.trim().strip_prefix("value: "))
        .collect();
    assert_eq!(values.len(), 2, "{yaml}");
    // the `for` loop (line 11): `i` of its header, the global `g`
    assert!(yaml.contains("line: 11\n          column: 3"), "{yaml}");
    assert!(
        values[0].contains("((long long) g + (-(long long) i)) == 0LL"),
        "{yaml}"
    );
    // the `while` loop (line 18): `g` is the local (5); the global's facts and `i` (out of scope)
    // are left out
    assert!(yaml.contains("line: 18\n          column: 5"), "{yaml}");
    assert!(values[1].contains("(long long) g == 5LL"), "{yaml}");
    assert!(
        !values[1].contains(" i)") && !values[1].contains("g <= 101"),
        "{yaml}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
