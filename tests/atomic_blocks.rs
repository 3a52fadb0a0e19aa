//! `atomic { … }` blocks of concurrent programs: the block encoding composes a loop-free block into
//! one letter per path (`engine::blocks`), which must not change a verdict. Each case runs with
//! `--block-encoding none` (no composition: the brackets are letters and the product keeps the
//! owner) and with the default encoding, with `--check-proof`. The cases: branches inside a block,
//! a block that blocks halfway (an `assume false` after a write: no other thread may ever see the
//! write), an assertion inside a block (safe and unsafe), a nested block and a loop inside a block
//! (both left as they are).

use std::process::Command;

const CASES: &[(&str, &str, &str)] = &[
    (
        "branches inside a block",
        "SAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; assert x == 2; }
procedure t() modifies x; { atomic { if (x >= 0) { x := x + 1; } else { x := x - 1; } } }"#,
    ),
    (
        "branches inside a block, a wrong total",
        "UNSAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; assert x == 1; }
procedure t() modifies x; { atomic { if (x >= 0) { x := x + 1; } else { x := x - 1; } } }"#,
    ),
    (
        "a block that blocks after a write: nobody sees the write",
        "SAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t1(); fork 2 t2(); }
procedure t1() modifies x; { atomic { x := 1; assume false; } }
procedure t2() { assert x == 0; }"#,
    ),
    (
        "a block that may block after a write",
        "UNSAFE",
        r#"var x, c: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t1(); fork 2 t2(); }
procedure t1() modifies x; { atomic { x := 1; assume c > 0; } }
procedure t2() { assert x == 0; }"#,
    ),
    (
        "an assertion inside a block",
        "SAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; }
procedure t() modifies x; { atomic { x := x + 1; assert x >= 1; x := x - 1; } }"#,
    ),
    (
        "an assertion inside a block that fails",
        "UNSAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; }
procedure t() modifies x; { atomic { x := x + 1; assert x == 1; } }"#,
    ),
    (
        "a nested block",
        "UNSAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; assert x == 3; }
procedure t() modifies x; { atomic { x := x + 1; atomic { x := x + 1; } x := x - 1; } }"#,
    ),
    (
        "a loop inside a block",
        "SAFE",
        r#"var x: int;
procedure ULTIMATE.start() modifies x; { x := 0; fork 1 t(); fork 2 t(); join 1; join 2; assert x == 0; }
procedure t() modifies x; { var i: int; atomic { i := 0; while (i < 2) { x := x + 1; i := i + 1; } x := x - 2; } }"#,
    ),
];

#[test]
fn composing_atomic_blocks_keeps_every_verdict() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-atomic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    for (i, (what, expected, src)) in CASES.iter().enumerate() {
        let path = dir.join(format!("case{i}.bpl"));
        std::fs::write(&path, src).expect("write case");
        for encoding in ["none", "large"] {
            let out = Command::new(env!("CARGO_BIN_EXE_verify"))
                .arg(&path)
                .args([
                    "--check-proof",
                    "--timeout",
                    "20",
                    "--block-encoding",
                    encoding,
                ])
                .output()
                .expect("run verify");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let first = stdout.lines().next().unwrap_or("");
            let verdict = first
                .split(": ")
                .nth(1)
                .unwrap_or("")
                .split(' ')
                .next()
                .unwrap_or("");
            if verdict != *expected {
                failures.push(format!(
                    "{what} (--block-encoding {encoding}): expected {expected}, got {first}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
