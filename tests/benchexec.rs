//! The BenchExec tool-info module (`contrib/benchexec/lapidary.py`) against the `benchexec` package
//! from PyPI: version, command line, and results of captured and real `verify --svcomp` outputs
//! (`contrib/benchexec/test_lapidary.py`). The Python interpreter is `$LAPIDARY_BENCHEXEC_PYTHON`
//! (`.ci/run` installs benchexec into a venv and sets it), else `python3`; without benchexec the
//! test fails under CI and is skipped with a note elsewhere.

mod common;
use std::path::Path;
use std::process::Command;

#[test]
fn benchexec_tool_info_module() {
    let python = std::env::var("LAPIDARY_BENCHEXEC_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_benchexec = Command::new(&python)
        .args(["-c", "import benchexec.tools.template"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_benchexec {
        common::missing(&format!(
            "the Python package benchexec (for {python}; `pip install benchexec`)"
        ));
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(&python)
        .arg(root.join("contrib/benchexec/test_lapidary.py"))
        .arg(env!("CARGO_BIN_EXE_verify"))
        .current_dir(root)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
