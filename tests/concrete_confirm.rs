//! Counterexamples through over-approximated C operators (`{:overapproximation}` functions with a
//! `{:concrete}` operation, `engine::counterexample`): a reported run gives every bitwise operator
//! and shift the value the machine computes from the run's operand values, and a violation that
//! only the over-approximation allows is never reported.

use std::path::PathBuf;
use std::process::Command;

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-concrete-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

fn run(name: &str, body: &str) -> serde_json::Value {
    let src = format!(
        "extern int __VERIFIER_nondet_int(void);\n\
         extern unsigned int __VERIFIER_nondet_uint(void);\n\
         extern void reach_error(void);\n\
         int main() {{\n{body}\n  return 0;\n}}\n"
    );
    let file = temp_file(name, &src);
    let out = Command::new(env!("CARGO_BIN_EXE_verify"))
        .args(["--format", "json", "--timeout", "30"])
        .arg(&file)
        .output()
        .expect("run verify");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: no JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The value the machine computes for `op` on operands of `width` bits (`None`: undefined).
fn machine(op: &str, width: u32, x: i128, y: i128) -> Option<i128> {
    match op {
        "bitwiseAnd" => Some(x & y),
        "bitwiseOr" => Some(x | y),
        "bitwiseXor" => Some(x ^ y),
        "shiftLeft" if (0..i128::from(width)).contains(&y) => Some(x << y),
        "shiftRight" if (0..i128::from(width)).contains(&y) => Some(x >> y),
        _ => None,
    }
}

/// Checks every over-approximated application of the counterexample against `machine`; returns
/// how many were checked.
fn check_steps(name: &str, v: &serde_json::Value) -> usize {
    let steps = v["counterexample"]["steps"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: no counterexample: {v}"));
    let value = |pairs: &serde_json::Value, var: &str| -> Option<i128> {
        pairs
            .as_array()?
            .iter()
            .find_map(|p| (p[0].as_str()? == var).then(|| p[1].as_str()?.parse().ok())?)
    };
    let mut checked = 0;
    for s in steps {
        let stmt = s["statement"].as_str().unwrap_or_default();
        // `t := ~op~W(a, b);` with variables or literals as operands, or `t := ~op~W(a, b) % M;`
        // (an unsigned left shift, which wraps)
        let Some((lhs, rhs)) = stmt.split_once(" := ~") else {
            continue;
        };
        let Some((op, rest)) = rhs.split_once('~') else {
            continue;
        };
        let Some((width, args)) = rest.split_once('(') else {
            continue;
        };
        let width: u32 = width.parse().expect("width");
        let (args, tail) = args.split_once(')').expect("a closing parenthesis");
        let modulus = tail
            .trim_end_matches(';')
            .trim()
            .strip_prefix("% ")
            .map(|m| m.parse::<i128>().expect("a modulus"));
        let operand = |a: &str| {
            a.trim()
                .parse::<i128>()
                .ok()
                .or_else(|| value(&s["reads"], a.trim()))
        };
        let (a, b) = args.split_once(',').expect("two operands");
        let (Some(x), Some(y)) = (operand(a), operand(b)) else {
            panic!("{name}: operands of `{stmt}` not in the step: {s}");
        };
        let r = value(&s["writes"], lhs).expect("the result is written");
        let expected = machine(op, width, x, y).map(|v| modulus.map_or(v, |m| v.rem_euclid(m)));
        assert_eq!(
            expected,
            Some(r),
            "{name}: `{stmt}` with {x}, {y} gives {r}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn reported_runs_evaluate_the_operators() {
    let cases = [
        (
            "and_or.c",
            "  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n  \
             if ((x & 0xF0) == 0x30 && (y | 3) == 1027) reach_error();",
        ),
        (
            "xor_negative.c",
            "  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n  \
             if (x < 0 && (x ^ y) == -7 && y > 100) reach_error();",
        ),
        (
            "shifts.c",
            "  unsigned int s = __VERIFIER_nondet_uint();\n  \
             unsigned int m = 3u << s;\n  unsigned int t = s - 1;\n  \
             if (m == 96u && (m >> t) == 6u) reach_error();",
        ),
        (
            // wraps modulo 2^32: 3 * 2^31 is 2^31 in `unsigned int`
            "shift_wraps.c",
            "  unsigned int s = __VERIFIER_nondet_uint();\n  \
             unsigned int m = 3u << s;\n  if (m == 0x80000000u) reach_error();",
        ),
    ];
    let mut checked = 0;
    for (name, body) in cases {
        let v = run(name, body);
        assert_eq!(v["verdict"], "unsafe", "{name}: {v}");
        let n = check_steps(name, &v);
        assert!(n >= 1, "{name}: operators not found: {v}");
        checked += n;
    }
    // `&`, `|`, `^`, `<<`, `>>`, the wrapping `<<`: each case's operators are all in its run
    assert!(checked >= 6, "{checked} operators checked");
}

#[test]
fn violations_only_the_over_approximation_allows_are_not_reported() {
    // bit 4 is set in 0x30, so `(x & 0x10) == 0` cannot hold as well; the facts assumed of `&`
    // (signs, bounds) do not exclude it
    let v = run(
        "impossible.c",
        "  int x = __VERIFIER_nondet_int();\n  \
         if ((x & 0xF0) == 0x30 && (x & 0x10) == 0) reach_error();",
    );
    assert_ne!(v["verdict"], "unsafe", "{v}");
    // the two `&` read one value: their bits are shared, so the solver refutes the run (rather than
    // running out of time on two unrelated bit-vectors of one integer)
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(
        v["verdict"] == "safe" || reason.contains("infeasible"),
        "{v}"
    );
}
