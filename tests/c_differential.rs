//! Differential test of the C front end against gcc. Small random *deterministic* C programs
//! (integer types from `_Bool` to `unsigned long` and an enumeration, their conversions,
//! arithmetic, bitwise and shift operators, `?:`, `,`, compound assignments, `++`/`--`, an array
//! with masked indices, a struct copied by value, pointers to locals and into the array, a helper
//! with a pointer parameter, `for`/`while`/`do`/`switch` with fall-through, `break`/`continue`,
//! globals) are compiled by gcc with UBSan and run; programs with undefined behaviour are dropped.
//! The values a program prints are then asserted — all as printed (Safe), or one of them off by one
//! (Unsafe) — and `verify --architecture 64bit` (gcc's data model here) must not contradict the
//! execution: SAFE for the first, UNSAFE for the second, or UNKNOWN. Seeds are fixed, so a failure
//! reproduces; the failing program is kept in the test's temporary directory.

mod common;

use std::path::Path;
use std::process::Command;

/// Programs generated (those with undefined behaviour are dropped).
const PROGRAMS: u64 = 40;

const TYPES: [&str; 11] = [
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "_Bool",
    "char",
    // (gcc's type for it is `unsigned int`: no enumerator is negative)
    "enum E",
];

/// A linear congruential generator (Knuth's MMIX constants): reproducible without a crate.
struct Gen {
    state: u64,
    vars: Vec<(String, &'static str)>,
    array: bool,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        common::below(&mut self.state, n)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    fn constant(&mut self) -> String {
        const VALUES: [i64; 20] = [
            0,
            1,
            2,
            3,
            5,
            7,
            -1,
            -2,
            100,
            127,
            128,
            255,
            256,
            -128,
            32767,
            65535,
            65536,
            2147483647,
            -2147483648,
            4294967295,
        ];
        let c = if self.chance(5) {
            self.below(101) as i64 - 50
        } else {
            *self.pick(&VALUES)
        };
        if c == -2147483648 {
            return "(-2147483647-1)".into();
        }
        if c < 0 {
            return format!("({c})");
        }
        let suffix = *self.pick(&["", "", "", "u", "L", "UL"]);
        format!("{c}{suffix}")
    }

    fn int_var(&mut self) -> String {
        let ints: Vec<String> = self
            .vars
            .iter()
            .filter(|(_, t)| *t == "int")
            .map(|(v, _)| v.clone())
            .collect();
        self.pick(&ints).clone()
    }

    fn lval(&mut self, leaf: bool) -> String {
        let k = self.below(100);
        if self.array && k < 25 && !leaf {
            let index = if self.chance(50) {
                self.constant()
            } else {
                self.lval(true)
            };
            return format!("a[({index}) & 3]");
        }
        if k < 35 {
            return format!("s.f{}", self.below(3));
        }
        let i = self.below(self.vars.len() as u64) as usize;
        self.vars[i].0.clone()
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth >= 3 || self.chance(30) {
            return match self.below(3) {
                0 => self.constant(),
                _ => self.lval(false),
            };
        }
        let d = depth + 1;
        let op = *self.pick(&[
            "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<", "<=", "==", "!=", ">", ">=",
            "&&", "||", "?:", "~", "!", "neg", "cast", "cast", ",", "+", "-",
        ]);
        match op {
            "?:" => format!("({} ? {} : {})", self.expr(d), self.expr(d), self.expr(d)),
            "~" | "!" => format!("({op}{})", self.expr(d)),
            "neg" => format!("(-{})", self.expr(d)),
            "cast" => {
                let t = *self.pick(&TYPES);
                format!("(({t}){})", self.expr(d))
            }
            "," => format!("({}, {})", self.expr(d), self.expr(d)),
            "<<" | ">>" if self.chance(40) => {
                // an amount the translator cannot fold; a left shift of an unsigned value wraps
                let x = match *self.pick(&["", "unsigned", "unsigned long"]) {
                    "" => self.expr(d),
                    t => format!("(({t}){})", self.expr(d)),
                };
                let amount = self.lval(true);
                let width = *self.pick(&[8, 32]);
                format!("({x} {op} (int)((unsigned){amount} % {width}u))")
            }
            "<<" | ">>" => format!("({} {op} {})", self.expr(d), self.below(8)),
            _ => format!("({} {op} {})", self.expr(d), self.expr(d)),
        }
    }

    fn stmt(&mut self, depth: u32) -> String {
        let k = self.below(100);
        let d = depth + 1;
        if depth < 2 && k < 12 {
            return format!(
                "if ({}) {{ {} }} else {{ {} }}",
                self.expr(1),
                self.block(d),
                self.block(d)
            );
        }
        if depth < 2 && k < 20 {
            let n = 1 + self.below(4);
            return format!(
                "for (int i{depth} = 0; i{depth} < {n}; i{depth}++) {{ {} }}",
                self.block(d)
            );
        }
        if depth < 2 && k < 25 {
            return format!(
                "switch (({}) & 3) {{ case 0: {} break; case 1: {} case 2: {} break; default: {} }}",
                self.expr(1),
                self.stmt(d),
                self.stmt(d),
                self.stmt(d),
                self.stmt(d)
            );
        }
        if depth < 2 && k < 28 {
            let n = self.below(4);
            return format!(
                "{{ int c{depth} = {n}; do {{ {} c{depth}--; }} while (c{depth} > 0); }}",
                self.block(d)
            );
        }
        if depth < 2 && k < 31 {
            let n = self.below(4);
            return format!(
                "{{ int c{depth} = 0; while (1) {{ c{depth}++; if (c{depth} > {n}) break; \
                 if ({}) continue; {} }} }}",
                self.expr(2),
                self.block(d)
            );
        }
        if k < 38 {
            let op = *self.pick(&["++", "--"]);
            return format!("{}{op};", self.lval(false));
        }
        if k < 45 {
            return format!("p = &{}; *p = {};", self.int_var(), self.expr(0));
        }
        if k < 51 {
            return format!(
                "{} = f({}, {});",
                self.lval(false),
                self.expr(1),
                self.expr(1)
            );
        }
        if k < 55 && self.array {
            let op = *self.pick(&["+", "-", "^", ""]);
            return format!(
                "q = &a[({}) & 1]; q[({}) & 2] {op}= {};",
                self.expr(2),
                self.expr(2),
                self.expr(1)
            );
        }
        if k < 58 {
            return format!("g(&{}, {});", self.int_var(), self.expr(1));
        }
        if k < 60 {
            return format!("t = s; s.f{} = t.f{};", self.below(3), self.below(3));
        }
        if k < 70 {
            let op = *self.pick(&["+", "-", "*", "&", "|", "^"]);
            return format!("{} {op}= {};", self.lval(false), self.expr(0));
        }
        format!("{} = {};", self.lval(false), self.expr(0))
    }

    fn block(&mut self, depth: u32) -> String {
        let n = 1 + self.below(3);
        (0..n)
            .map(|_| self.stmt(depth))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A program: the definitions before `main`, `main`'s declarations and body, and the values it
/// prints (then asserts).
struct Program {
    defs: String,
    decls: String,
    body: String,
    outputs: Vec<String>,
}

fn program(seed: u64) -> Program {
    let mut g = Gen {
        state: seed.wrapping_mul(0x9E3779B97F4A7C15) ^ 0x5DEECE66D,
        vars: Vec::new(),
        array: false,
    };
    let n = 2 + g.below(4);
    for i in 0..n {
        let t = *g.pick(&TYPES);
        g.vars.push((format!("v{i}"), t));
    }
    let g1 = *g.pick(&TYPES);
    g.vars.push(("w".into(), "int"));
    g.vars.push(("g0".into(), "int"));
    g.vars.push(("g1".into(), g1));
    g.array = g.chance(50);
    let mut decls = String::new();
    for (v, t) in g.vars.clone() {
        if !v.starts_with('g') {
            decls.push_str(&format!("{t} {v} = {}; ", g.constant()));
        }
    }
    if g.array {
        let init: Vec<String> = (0..4).map(|_| g.constant()).collect();
        decls.push_str(&format!("int a[4] = {{{}}}; ", init.join(", ")));
    }
    decls.push_str(&format!(
        "struct S s = {{{}, {}, {}}}; struct S t; int *p; int *q;",
        g.constant(),
        g.constant(),
        g.constant()
    ));
    let defs = format!(
        "struct S {{ int f0; unsigned char f1; short f2; }};\nenum E {{ E0, E1, E2 = 7 }};\n\
         int g0 = {}; {g1} g1;\n\
         int f(int x, unsigned y) {{ return (int)(x {} y) {} {}; }}\n\
         void g(int *x, int k) {{ *x = *x {} (k {} 8); }}\n",
        g.constant(),
        g.pick(&["+", "-", "^", "&"]),
        g.pick(&["+", "-"]),
        g.below(10),
        g.pick(&["+", "-", "^"]),
        g.pick(&["&", "%"]),
    );
    let statements = 2 + g.below(5);
    let body: Vec<String> = (0..statements).map(|_| g.stmt(0)).collect();
    let mut outputs: Vec<String> = g.vars.iter().map(|(v, _)| v.clone()).collect();
    if g.array {
        outputs.extend((0..4).map(|i| format!("a[{i}]")));
    }
    outputs.extend(["s.f0", "s.f1", "s.f2"].map(String::from));
    Program {
        defs,
        decls,
        body: body.join(" "),
        outputs,
    }
}

const HEADER: &str = "extern void abort(void);\n\
extern void __assert_fail(const char *, const char *, unsigned int, const char *);\n\
void reach_error() { __assert_fail(\"0\", \"p.c\", 3, \"reach_error\"); }\n\
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } }\n";

/// Compiles and runs `src` with UBSan: its output lines, `None` for undefined behaviour (also where
/// gcc folded it at compile time, which UBSan cannot see: `INT_MIN + -1` in a constant, reported by
/// `-Woverflow` and the shift warnings).
fn run_with_gcc(dir: &Path, name: &str, src: &str) -> Option<Vec<i128>> {
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, src).expect("write the gcc program");
    let built = Command::new("gcc")
        .args([
            "-Woverflow",
            "-Wshift-overflow=2",
            "-Wshift-count-overflow",
            "-Wshift-count-negative",
            "-Wshift-negative-value",
            "-O0",
            // (`char` is signed, as on x86 and as the front end reads it, on any host)
            "-fsigned-char",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
            "-o",
        ])
        .arg(&exe)
        .arg(&c)
        .output()
        .expect("run gcc");
    assert!(
        built.status.success(),
        "gcc rejects a generated program ({}): {}",
        c.display(),
        String::from_utf8_lossy(&built.stderr)
    );
    let warnings = String::from_utf8_lossy(&built.stderr);
    if ["integer overflow in expression", "[-Wshift-"]
        .iter()
        .any(|w| warnings.contains(w))
    {
        return None;
    }
    let ran = Command::new(&exe).output().expect("run the program");
    if !ran.status.success() || String::from_utf8_lossy(&ran.stderr).contains("runtime error") {
        return None;
    }
    let values = String::from_utf8_lossy(&ran.stdout)
        .lines()
        .map(|l| l.trim().parse::<i128>().expect("a printed value"))
        .collect();
    Some(values)
}

/// gcc with UBSan compiles and runs a program here.
fn gcc_with_ubsan(dir: &Path) -> bool {
    let probe = "#include <stdio.h>\nint main() { printf(\"1\\n\"); return 0; }\n";
    std::panic::catch_unwind(|| run_with_gcc(dir, "probe", probe)).is_ok_and(|r| r.is_some())
}

#[test]
fn verdicts_agree_with_gcc_executions() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-c-differential-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    if !gcc_with_ubsan(&dir) {
        common::missing("gcc with UBSan (-fsanitize=undefined)");
        return;
    }
    let mut defined: usize = 0;
    let mut verdicts = common::Verdicts::default();
    for seed in 0..PROGRAMS {
        let p = program(seed);
        let prints: Vec<String> = p
            .outputs
            .iter()
            .map(|o| format!("printf(\"%lld\\n\", (long long)({o}));"))
            .collect();
        let run = format!(
            "#include <stdio.h>\n{}int main() {{ {} {} {} return 0; }}\n",
            p.defs,
            p.decls,
            p.body,
            prints.join(" ")
        );
        let Some(values) = run_with_gcc(&dir, &format!("run{seed}"), &run) else {
            continue;
        };
        assert_eq!(values.len(), p.outputs.len(), "seed {seed}: output lines");
        defined += 1;
        // Every other program is Unsafe: one asserted value is off by one.
        let unsafe_at = (seed % 2 == 1).then(|| (seed / 2) as usize % values.len());
        let asserts: Vec<String> = p
            .outputs
            .iter()
            .zip(&values)
            .enumerate()
            .map(|(i, (o, v))| {
                let v = if Some(i) == unsafe_at { v + 1 } else { *v };
                format!("__VERIFIER_assert((long long)({o}) == {v}LL);")
            })
            .collect();
        let src = format!(
            "{HEADER}{}int main() {{ {} {} {} return 0; }}\n",
            p.defs,
            p.decls,
            p.body,
            asserts.join(" ")
        );
        let file = dir.join(format!("p{seed}.c"));
        std::fs::write(&file, &src).expect("write the program");
        verdicts.run(&["--architecture", "64bit"], &file, unsafe_at.is_some());
    }
    verdicts.assert_sound();
    let decided = verdicts.decided;
    // (not vacuous: most programs are defined, and most of those decided)
    assert!(
        defined as u64 >= PROGRAMS / 3,
        "only {defined} of {PROGRAMS} defined"
    );
    assert!(
        decided * 2 >= defined,
        "only {decided} of {defined} decided"
    );
    eprintln!("{defined} of {PROGRAMS} programs defined, {decided} decided");
}
