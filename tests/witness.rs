//! Witnesses (`--witness-dir`): the correctness witness (YAML 2.0 `invariant_set`) of a SAFE C
//! program; the GraphML violation witness (and the YAML 2.0 one) of an UNSAFE C program is written,
//! has
//! the entry and violation nodes and one edge per line of the error path, and passes the SV-COMP
//! witness linter (`../shared/tools/witnesslint`, which needs the Python package lxml; the
//! interpreter is `$LAPIDARY_BENCHEXEC_PYTHON`, else `python3`). Without the linter or lxml the
//! linting part fails under CI and is skipped with a note elsewhere.

mod common;
use std::path::Path;
use std::process::Command;

#[test]
fn violation_witness_is_written_and_lints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("lapidary-witness-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let program = root.join("examples/c/array_bounds_unsafe.c");
    let out = Command::new(env!("CARGO_BIN_EXE_verify"))
        .arg(&program)
        .arg("--witness-dir")
        .arg(&dir)
        .output()
        .expect("run verify");
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
    // 3) as a C expression over the C variables, with what C cannot state left out (`s % 2 == 0`,
    // the temporary `#t~2`).
    let safe_dir = dir.join("safe");
    let out = Command::new(env!("CARGO_BIN_EXE_verify"))
        .arg(root.join("examples/c/loop_counter_safe.c"))
        .arg("--witness-dir")
        .arg(&safe_dir)
        .output()
        .expect("run verify");
    assert_eq!(out.status.code(), Some(0));
    assert!(!safe_dir.join("witness.graphml").exists());
    let yaml = std::fs::read_to_string(safe_dir.join("witness.yml"))
        .expect("the correctness witness is written");
    for want in [
        "entry_type: \"invariant_set\"",
        "format_version: \"2.0\"",
        "type: \"loop_invariant\"",
        "line: 11\n          column: 3\n          function: \"main\"",
        "(long long) n <= 1000LL",
        "format: \"c_expression\"",
    ] {
        assert!(yaml.contains(want), "{want}\n{yaml}");
    }
    assert!(
        !yaml.contains('%') && !yaml.contains('#') && !yaml.contains('~'),
        "{yaml}"
    );

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
        .arg(&witness)
        .arg(&program)
        .output()
        .expect("run the witness linter");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
