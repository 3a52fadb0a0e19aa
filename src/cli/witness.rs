//! SV-COMP violation witnesses in the GraphML exchange format, version 1.0 (Beyer, Dangl, Dietsch,
//! Heizmann, Stahlbauer: "Witness validation and stepwise testification across software verifiers",
//! FSE 2015; <https://github.com/sosy-lab/sv-witnesses>), written with `--witness-dir DIR` as
//! `DIR/witness.graphml` when a C program is UNSAFE, and the same violation in the YAML witness
//! format 2.0 (`DIR/witness.yml`, [`violation_yaml`]); when it is SAFE, a correctness witness in
//! the YAML format 2.0 (`DIR/witness.yml`, an `invariant_set` of loop invariants as C expressions,
//! [`correctness_yaml`]).
//!
//! The witness automaton is the counterexample's path mapped back onto the C program
//! ([`ctrace`]): an entry node, one edge per event of the re-validated error trace that has a
//! source line — the steps of one line (`startline`/`endline`, with the values they give C
//! variables as an `assumption` such as `x == 5; y == -1;` and its `assumption.scope`), a C
//! branch taken (`control`: `condition-true`/`condition-false`), a C function entered
//! (`enterFunction`) or left (`returnFromFunction`); `threadId` for concurrent programs — and a
//! violation node at the end. Every edge only *restricts* where a validator's path may go, and
//! everything it states is a fact of the program's actual error path, which the engine re-checked
//! before answering UNSAFE. Invariant: the output is well-formed XML with every key the format
//! requires (checked by `tests/witness.rs` with the SV-COMP witness linter).

pub mod ctrace;

use crate::cfront::{BranchKind, CMap, CVar};
use crate::engine::{Counterexample, LoopInvariant};
use crate::smt::{Op, Sort, Term, TermKind, Value};
use ctrace::{Event, c_constant};
use num_bigint::BigInt;
use std::fmt::Write as _;

/// What the witness needs besides the counterexample.
pub struct WitnessInfo<'a> {
    /// The program file as given on the command line.
    pub program_file: &'a str,
    /// Its bytes (for the SHA-256 `programhash`).
    pub program_bytes: &'a [u8],
    /// Its text (for line numbers of the steps' spans).
    pub source: &'a str,
    /// The property as an SV-COMP specification, e.g. `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    pub specification: String,
    /// `32bit` or `64bit`.
    pub architecture: &'static str,
    /// The translated (lowered) program the engine verified.
    pub program: &'a crate::ir::Program,
    /// The C program behind the translation.
    pub map: &'a CMap,
}

/// XML text escaping for element content and attribute values.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}

/// The current time as ISO 8601 (UTC, seconds).
fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A version-4 UUID from the program's hash and the time (the format asks for a unique id, not a
/// random one).
fn uuid(seed: &[u8]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(seed);
    h.update(now_iso8601().as_bytes());
    h.update(std::process::id().to_le_bytes());
    let d = h.finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&d[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        hex[..4].concat(),
        hex[4..6].concat(),
        hex[6..8].concat(),
        hex[8..10].concat(),
        hex[10..].concat()
    )
}

/// A YAML double-quoted string.
fn yaml_str(s: &str) -> String {
    format!("\"{}\"", crate::ir::dot::escape(s))
}

/// The `metadata` block of a YAML 2.0 witness (indented for an entry of the top-level list).
fn yaml_metadata(info: &WitnessInfo) -> String {
    let file = yaml_str(info.program_file);
    let hash = sha256_hex(info.program_bytes);
    let data_model = if info.architecture == "64bit" {
        "LP64"
    } else {
        "ILP32"
    };
    // `G valid-free && G valid-deref && …` for a property file of several lines
    let spec: Vec<&str> = info
        .specification
        .lines()
        .map(|l| {
            l.trim()
                .strip_prefix("CHECK( init(main()), LTL(")
                .and_then(|s| s.strip_suffix(") )"))
                .unwrap_or(l)
        })
        .collect();
    format!(
        "  metadata:\n    format_version: \"2.0\"\n    uuid: \"{uuid}\"\n    creation_time: \"{time}\"\n    producer:\n      name: \"Lapidary\"\n      version: \"{version}\"\n    task:\n      input_files:\n        - {file}\n      input_file_hashes:\n        {file}: \"{hash}\"\n      specification: {spec}\n      data_model: \"{data_model}\"\n      language: \"C\"\n",
        uuid = uuid(info.program_bytes),
        time = now_iso8601(),
        version = env!("CARGO_PKG_VERSION"),
        spec = yaml_str(&spec.join(" && ")),
    )
}

/// The line and column (1-based) of a byte offset.
fn line_column(src: &str, offset: u32) -> (usize, usize) {
    let start = (offset as usize).min(src.len());
    let before = &src[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// The correctness witness of a SAFE answer in the YAML format 2.0 (`invariant_set`): one
/// `loop_invariant` per loop head of the proof, at the line and column of the loop, its value a
/// C expression (`c_expression`). The engine's invariants are over the translation's variables;
/// only the conjuncts that C can state are written ([`c_conjuncts`]), so each written invariant is
/// implied by a proven one (it may be weaker, never wrong). A loop without such a conjunct gets
/// none.
pub fn correctness_yaml(proof: &[LoopInvariant], info: &WitnessInfo) -> String {
    let file = yaml_str(info.program_file);
    let mut content = String::new();
    for inv in proof.iter().filter(|i| !i.summary) {
        let Some(span) = inv.span else { continue };
        if info.map.library_loops.contains(&span) {
            continue;
        }
        let Some(function) = info
            .map
            .functions
            .iter()
            .find(|f| f.procedure == inv.procedure)
        else {
            continue;
        };
        let conjuncts = c_conjuncts(&inv.term, info.map, &function.name, span);
        if conjuncts.is_empty() {
            continue;
        }
        let (line, column) = line_column(info.source, span.start);
        let _ = write!(
            content,
            "    - invariant:\n        type: \"loop_invariant\"\n        location:\n          file_name: {file}\n          line: {line}\n          column: {column}\n          function: {function}\n        value: {value}\n        format: \"c_expression\"\n",
            function = yaml_str(&function.name),
            value = yaml_str(&conjuncts.join(" && ")),
        );
    }
    if content.is_empty() {
        content.push_str("    []\n");
    }
    format!(
        "- entry_type: \"invariant_set\"\n{}  content:\n{content}",
        yaml_metadata(info)
    )
}

/// How a loop invariant's terms read in C.
struct CNames<'a> {
    /// The C name of a Boogie variable, where the invariant is stated.
    name: &'a dyn Fn(&str) -> Option<String>,
    /// Terms the invariant bounds below by 0 (a top-level conjunct `t >= c`, `c >= 0`): for them
    /// C's truncating `%` by a positive constant is Boogie's Euclidean `mod`.
    nonneg: Vec<Term>,
}

/// The conjuncts of `t`, the invariant of the loop `at` in `function`, that C states with the same
/// meaning, as C expressions: comparisons of linear integer terms over C integer variables (the
/// translation's variables that hold them, [`CMap`]) whose names denote them at the loop (in scope
/// at the loop statement, or declared in a `for`'s first clause, and not hidden), `t % k` for a
/// positive constant `k` where the invariant bounds `t` below by 0 (there C's `%` and the
/// Euclidean `mod` agree), each variable widened to `long long` and each constant a `long long`
/// literal, so that C evaluates the mathematical value (no overflow for the values of `int`-sized
/// variables). Other conjuncts (memory, temporaries, division, …) are left out.
fn c_conjuncts(t: &Term, map: &CMap, function: &str, at: crate::diag::Span) -> Vec<String> {
    let mut parts = Vec::new();
    flatten_and(t, &mut parts);
    let body = map
        .loops
        .iter()
        .find(|(s, _)| *s == at)
        .map_or(at.start, |(_, b)| *b);
    // declared in the loop's `for (…;` clause: in scope at the loop head, hiding other names
    let in_header =
        |u: &CVar| u.function == function && at.start <= u.scope.start && u.scope.start < body;
    let name = |n: &str| -> Option<String> {
        let v = if n.starts_with('~') {
            map.globals.iter().find(|g| g.boogie == n)?
        } else {
            map.locals
                .iter()
                .find(|l| l.boogie == n && l.function == function)?
        };
        let hidden_by_header = map
            .locals
            .iter()
            .any(|u| u.name == v.name && u.boogie != v.boogie && in_header(u));
        let ok = if in_header(v) {
            !map.locals.iter().any(|u| {
                u.name == v.name
                    && u.boogie != v.boogie
                    && in_header(u)
                    && u.scope.start > v.scope.start
            })
        } else {
            !hidden_by_header && denotes(map, v, function, Some(at.start))
        };
        ok.then(|| v.name.clone())
    };
    let mut nonneg = Vec::new();
    for p in &parts {
        let TermKind::App(op, args) = p.kind() else {
            continue;
        };
        let [a, b] = args.as_slice() else { continue };
        let int = |x: &Term| match x.kind() {
            TermKind::Const(Value::Int(i)) => Some(i.clone()),
            _ => None,
        };
        // `-t` (as `Neg` or a product with -1)
        let negated = |x: &Term| match x.kind() {
            TermKind::App(Op::Neg, xs) if xs.len() == 1 => Some(xs[0].clone()),
            TermKind::App(Op::Mul, xs) if xs.len() == 2 => match (int(&xs[0]), int(&xs[1])) {
                (Some(m), None) if m == num_bigint::BigInt::from(-1) => Some(xs[1].clone()),
                (None, Some(m)) if m == num_bigint::BigInt::from(-1) => Some(xs[0].clone()),
                _ => None,
            },
            _ => None,
        };
        // `x >= lo` as (x, lo), from `x >= c`, `x > c`, `c <= x`, `c < x`, `-x <= c`, `-x < c`
        let one = num_bigint::BigInt::from(1);
        let bound = match (op, int(a), int(b)) {
            (Op::Ge, None, Some(c)) | (Op::Le, Some(c), None) => {
                Some((if int(a).is_none() { a } else { b }.clone(), c))
            }
            (Op::Gt, None, Some(c)) | (Op::Lt, Some(c), None) => {
                Some((if int(a).is_none() { a } else { b }.clone(), c + &one))
            }
            (Op::Le, None, Some(c)) => negated(a).map(|x| (x, -c)),
            (Op::Lt, None, Some(c)) => negated(a).map(|x| (x, -c + &one)),
            (Op::Ge, Some(c), None) => negated(b).map(|x| (x, -c)),
            (Op::Gt, Some(c), None) => negated(b).map(|x| (x, -c + &one)),
            _ => None,
        };
        if let Some((x, lo)) = bound {
            if lo >= num_bigint::BigInt::from(0) {
                nonneg.push(x);
            }
        }
    }
    let names = CNames {
        name: &name,
        nonneg,
    };
    parts.iter().filter_map(|p| c_bool(p, &names)).collect()
}

fn flatten_and(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        TermKind::App(Op::And, args) => args.iter().for_each(|a| flatten_and(a, out)),
        _ => out.push(t.clone()),
    }
}

fn c_bool(t: &Term, cx: &CNames) -> Option<String> {
    match t.kind() {
        TermKind::Const(Value::Bool(b)) => Some(if *b { "1" } else { "0" }.into()),
        TermKind::Var(v) if v.sort == Sort::Bool => None,
        TermKind::App(op, args) => {
            let cmp = |o: &str| {
                let [a, b] = args.as_slice() else { return None };
                Some(format!("{} {o} {}", c_int(a, cx)?, c_int(b, cx)?))
            };
            match op {
                Op::Le => cmp("<="),
                Op::Lt => cmp("<"),
                Op::Ge => cmp(">="),
                Op::Gt => cmp(">"),
                Op::Eq if args.iter().all(|a| *a.sort_ref() == Sort::Int) => cmp("=="),
                Op::Distinct if args.iter().all(|a| *a.sort_ref() == Sort::Int) => cmp("!="),
                Op::Not => Some(format!("!({})", c_bool(&args[0], cx)?)),
                Op::And | Op::Or => {
                    let sep = if *op == Op::And { " && " } else { " || " };
                    let xs: Option<Vec<String>> = args
                        .iter()
                        .map(|a| c_bool(a, cx).map(|s| format!("({s})")))
                        .collect();
                    Some(xs?.join(sep))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn c_int(t: &Term, cx: &CNames) -> Option<String> {
    match t.kind() {
        TermKind::Const(Value::Int(i)) => {
            // beyond `long long` C cannot state it
            let v: i64 = i.try_into().ok()?;
            Some(if v < 0 {
                format!("({v}LL)")
            } else {
                format!("{v}LL")
            })
        }
        TermKind::Var(v) if v.sort == Sort::Int => {
            Some(format!("(long long) {}", (cx.name)(&v.name)?))
        }
        TermKind::App(op, args) => {
            let xs: Option<Vec<String>> = args.iter().map(|a| c_int(a, cx)).collect();
            let xs = xs?;
            match op {
                Op::Add => Some(format!("({})", xs.join(" + "))),
                Op::Sub => Some(format!("({})", xs.join(" - "))),
                Op::Neg => Some(format!("(-{})", xs.first()?)),
                // linear only: at most one factor that is not a constant
                Op::Mul
                    if args
                        .iter()
                        .filter(|a| !matches!(a.kind(), TermKind::Const(_)))
                        .count()
                        <= 1 =>
                {
                    Some(format!("({})", xs.join(" * ")))
                }
                // C's `%` truncates, the Euclidean `mod` does not: equal for a dividend the
                // invariant bounds below by 0 and a positive constant divisor
                Op::Mod
                    if matches!(args[1].kind(), TermKind::Const(Value::Int(k)) if *k > num_bigint::BigInt::from(0))
                        && cx.nonneg.contains(&args[0]) =>
                {
                    Some(format!("({} % {})", xs[0], xs[1]))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether the C name of `v` denotes `v` at `offset` in `function` (its scope contains `offset`
/// and no other variable of that name in scope there hides it); `offset` `None`: anywhere in the
/// function (the name is unique among the function's locals, and a global is not hidden by one).
fn denotes(map: &CMap, v: &CVar, function: &str, offset: Option<u32>) -> bool {
    let in_scope = |u: &CVar| match offset {
        Some(o) => u.scope.start <= o && o < u.scope.end,
        None => true,
    };
    let locals = || {
        map.locals
            .iter()
            .filter(|u| u.function == function && u.name == v.name && u.boogie != v.boogie)
    };
    if v.function.is_empty() {
        return !locals().any(in_scope);
    }
    if v.function != function || !in_scope(v) {
        return false;
    }
    match offset {
        // an inner declaration of the same name hides `v`
        Some(_) => !locals().any(|u| in_scope(u) && u.scope.start > v.scope.start),
        None => locals().next().is_none(),
    }
}

/// The waypoints of a violation sequence before its target: a `branching` waypoint for each C
/// `if` or loop condition the trace evaluates (at the statement's keyword, `true` or `false`), and
/// an `assumption` waypoint with the values a line of the trace gives C variables, at the
/// statement executed next (an assumption holds at the sequence point before its location): only
/// where that statement follows in the same function and thread and does not contain the line (a
/// loop's head reached again is not a location passed once), over the variables in scope there.
/// A concurrent program gets none (the format 2.0 has no threads).
fn yaml_waypoints(events: &[Event], info: &WitnessInfo) -> Vec<String> {
    let map = info.map;
    let innermost = |o: u32| innermost_statement(map, o);
    if events.iter().any(|e| e.thread().is_some()) {
        return Vec::new();
    }
    let file = yaml_str(info.program_file);
    let waypoint = |kind: &str, offset: u32, function: &str, value: String| {
        let (line, column) = line_column(info.source, offset);
        format!(
            "        - waypoint:\n            type: \"{kind}\"\n            action: \"follow\"\n            location:\n              file_name: {file}\n              line: {line}\n              column: {column}\n              function: {function}\n            constraint:\n              value: {value}\n",
            function = yaml_str(function),
            value = yaml_str(&value),
        )
    };
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::Branch {
                span,
                function: Some(f),
                kind: BranchKind::If | BranchKind::While | BranchKind::DoWhile | BranchKind::For,
                truth,
                ..
            } => out.push(waypoint("branching", span.start, f, truth.to_string())),
            Event::Plain {
                span,
                function: Some(f),
                writes,
                ..
            } if !writes.is_empty() => {
                let next = match events.get(i + 1) {
                    Some(
                        Event::Plain {
                            span: n,
                            function: Some(g),
                            ..
                        }
                        | Event::Branch {
                            span: n,
                            function: Some(g),
                            ..
                        },
                    ) if g == f => *n,
                    _ => continue,
                };
                let Some(at) = innermost(next.start) else {
                    continue;
                };
                if at.start <= span.start && span.start < at.end {
                    continue;
                }
                let facts: Vec<String> = writes
                    .iter()
                    .filter(|(v, _)| denotes(map, v, f, Some(at.start)))
                    .map(|(v, x)| format!("{} == {}", v.name, c_constant(x)))
                    .collect();
                if !facts.is_empty() {
                    out.push(waypoint("assumption", at.start, f, facts.join(" && ")));
                }
            }
            _ => {}
        }
    }
    out
}

/// The violation witness of `cex` in the YAML format 2.0 (`violation_sequence`): one segment per
/// waypoint, the `branching` and `assumption` waypoints of the trace ([`yaml_waypoints`]) and
/// last the `target` waypoint, the violation (the start of the statement with the failing check).
pub fn violation_yaml(cex: &Counterexample, info: &WitnessInfo) -> String {
    let events = ctrace::events(cex, info.program, info.map, info.source);
    // the statement the failing check is in (the format's target is a statement's start)
    let at = cex.error_span.start;
    let target = innermost_statement(info.map, at).map_or(at, |s| s.start);
    let (line, column) = line_column(info.source, target);
    let function = info
        .map
        .functions
        .iter()
        .find(|f| f.span.start <= at && at < f.span.end)
        .map_or(String::new(), |f| {
            format!("              function: {}\n", yaml_str(&f.name))
        });
    let file = yaml_str(info.program_file);
    let mut content = String::new();
    for w in yaml_waypoints(&events, info) {
        content.push_str("    - segment:\n");
        content.push_str(&w);
    }
    format!(
        "- entry_type: \"violation_sequence\"\n{}  content:\n{content}    - segment:\n        - waypoint:\n            type: \"target\"\n            action: \"follow\"\n            location:\n              file_name: {file}\n              line: {line}\n              column: {column}\n{function}",
        yaml_metadata(info)
    )
}

/// The innermost C statement or declaration containing `offset`.
fn innermost_statement(map: &CMap, offset: u32) -> Option<crate::diag::Span> {
    map.statements
        .iter()
        .filter(|s| s.start <= offset && offset < s.end)
        .min_by_key(|s| s.end - s.start)
        .copied()
}

/// One edge of the GraphML witness.
#[derive(Default)]
struct Edge {
    line: Option<usize>,
    thread: Option<u32>,
    control: Option<bool>,
    enter: Option<String>,
    ret: Option<String>,
    assumption: Option<(String, Option<String>)>,
}

/// The GraphML edges of the C trace: one per event (steps of a line, a branch, a call, a return)
/// but a function's prologue (no C statement, so no edge of a validator's control-flow automaton
/// would match it).
/// A `Plain` event's assumption states the values it gives C variables whose name denotes them
/// anywhere in the function (the format qualifies names by function only), scoped to it.
fn graphml_edges(events: &[Event], map: &CMap) -> Vec<Edge> {
    let facts = |writes: &[(CVar, BigInt)], f: Option<&str>| -> Option<(String, Option<String>)> {
        let xs: Vec<String> = writes
            .iter()
            .filter(|(v, _)| match f {
                Some(f) => denotes(map, v, f, None),
                None => v.function.is_empty(),
            })
            .map(|(v, x)| format!("{} == {};", v.name, c_constant(x)))
            .collect();
        (!xs.is_empty()).then(|| (xs.join(" "), f.map(str::to_string)))
    };
    events
        .iter()
        .filter(|e| !matches!(e, Event::Plain { prologue: true, .. }))
        .map(|e| match e {
            Event::Plain {
                line,
                thread,
                function,
                writes,
                ..
            } => Edge {
                line: Some(*line),
                thread: *thread,
                assumption: facts(writes, function.as_deref()),
                ..Edge::default()
            },
            Event::Branch {
                line,
                thread,
                truth,
                ..
            } => Edge {
                line: Some(*line),
                thread: *thread,
                control: Some(*truth),
                ..Edge::default()
            },
            Event::Call {
                callee,
                line,
                thread,
            } => Edge {
                line: *line,
                thread: *thread,
                enter: Some(callee.clone()),
                ..Edge::default()
            },
            Event::Return {
                callee,
                line,
                thread,
            } => Edge {
                line: *line,
                thread: *thread,
                ret: Some(callee.clone()),
                ..Edge::default()
            },
        })
        .collect()
}

/// The GraphML violation witness of `cex`.
pub fn violation_graphml(cex: &Counterexample, info: &WitnessInfo) -> String {
    let keys: &[(&str, &str, &str, &str)] = &[
        ("witness-type", "graph", "string", ""),
        ("sourcecodelang", "graph", "string", ""),
        ("producer", "graph", "string", ""),
        ("specification", "graph", "string", ""),
        ("programfile", "graph", "string", ""),
        ("programhash", "graph", "string", ""),
        ("architecture", "graph", "string", ""),
        ("creationtime", "graph", "string", ""),
        ("entry", "node", "boolean", "false"),
        ("violation", "node", "boolean", "false"),
        ("startline", "edge", "int", ""),
        ("endline", "edge", "int", ""),
        ("threadId", "edge", "string", ""),
        ("assumption", "edge", "string", ""),
        ("assumption.scope", "edge", "string", ""),
        ("control", "edge", "string", ""),
        ("enterFunction", "edge", "string", ""),
        ("returnFromFunction", "edge", "string", ""),
    ];
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n",
    );
    for (name, dom, ty, default) in keys {
        let _ = write!(
            out,
            " <key attr.name=\"{name}\" attr.type=\"{ty}\" for=\"{dom}\" id=\"{name}\""
        );
        if default.is_empty() {
            out.push_str("/>\n");
        } else {
            let _ = writeln!(out, ">\n  <default>{default}</default>\n </key>");
        }
    }
    out.push_str(" <graph edgedefault=\"directed\">\n");
    let data = [
        ("witness-type", "violation_witness".to_string()),
        ("sourcecodelang", "C".to_string()),
        (
            "producer",
            format!("Lapidary {}", env!("CARGO_PKG_VERSION")),
        ),
        ("specification", info.specification.clone()),
        ("programfile", info.program_file.to_string()),
        ("programhash", sha256_hex(info.program_bytes)),
        ("architecture", info.architecture.to_string()),
        ("creationtime", now_iso8601()),
    ];
    for (k, v) in data {
        let _ = writeln!(out, "  <data key=\"{k}\">{}</data>", escape(&v));
    }
    let events = ctrace::events(cex, info.program, info.map, info.source);
    let concurrent = cex.steps.iter().any(|s| s.thread.is_some());
    let edges = graphml_edges(&events, info.map);
    out.push_str("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n");
    if edges.is_empty() {
        // No event: the trivial witness (the entry is the violation).
        out.push_str("   <data key=\"violation\">true</data>\n");
    }
    out.push_str("  </node>\n");
    for i in 1..=edges.len() {
        if i == edges.len() {
            let _ = writeln!(
                out,
                "  <node id=\"N{i}\">\n   <data key=\"violation\">true</data>\n  </node>"
            );
        } else {
            let _ = writeln!(out, "  <node id=\"N{i}\"/>");
        }
    }
    for (i, e) in edges.iter().enumerate() {
        let _ = writeln!(
            out,
            "  <edge id=\"E{i}\" source=\"N{i}\" target=\"N{}\">",
            i + 1
        );
        let mut datum = |k: &str, v: &str| {
            let _ = writeln!(out, "   <data key=\"{k}\">{}</data>", escape(v));
        };
        if let Some(line) = e.line {
            datum("startline", &line.to_string());
            datum("endline", &line.to_string());
        }
        if concurrent {
            datum("threadId", &e.thread.unwrap_or(0).to_string());
        }
        if let Some(c) = e.control {
            datum(
                "control",
                if c {
                    "condition-true"
                } else {
                    "condition-false"
                },
            );
        }
        if let Some(f) = &e.enter {
            datum("enterFunction", f);
        }
        if let Some(f) = &e.ret {
            datum("returnFromFunction", f);
        }
        if let Some((a, scope)) = &e.assumption {
            datum("assumption", a);
            if let Some(f) = scope {
                datum("assumption.scope", f);
            }
        }
        out.push_str("  </edge>\n");
    }
    out.push_str(" </graph>\n</graphml>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601() {
        let t = now_iso8601();
        assert_eq!(t.len(), 20, "{t}");
        assert!(
            t.starts_with("20") && t.ends_with('Z') && t.as_bytes()[10] == b'T',
            "{t}"
        );
    }

    #[test]
    fn escaping_and_hash() {
        assert_eq!(escape("a<b && \"c\""), "a&lt;b &amp;&amp; &quot;c&quot;");
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(ctrace::line_of("a\nb\nc", 2), 2);
    }
}
