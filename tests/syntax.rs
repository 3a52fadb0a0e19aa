//! Tests of the Boogie lexer and parser: the benchmark corpus parses, diagnostics render as expected
//! (insta snapshots), the parser never panics (proptest), and a few structural checks.

mod common;
use common::t1_to_t4_boogie_files;
use std::path::Path;
use std::time::Instant;

use lapidary::cli::render::render_diagnostics;
use lapidary::syntax::ast::{BinOp, Expr, ExprKind, StmtKind};
use lapidary::syntax::{parse, parse_expr};

// ------------------------------------------------------------------ benchmark corpus

#[test]
fn bench_t1_to_t4_parse() {
    let Some((dir, files)) = t1_to_t4_boogie_files() else {
        return;
    };
    let dir = dir.as_path();
    let mut total = 0;
    let mut parsed = 0;
    let mut failures = Vec::new();
    let mut elapsed = std::time::Duration::ZERO;
    for (path, syntax_error) in &files {
        let bytes = match std::fs::read(dir.join(path)) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: cannot read: {e}", path));
                continue;
            }
        };
        let src = String::from_utf8_lossy(&bytes);
        total += 1;
        let start = Instant::now();
        let (prog, diags) = parse(&src);
        elapsed += start.elapsed();
        if let Some(prog) = &prog {
            parsed += 1;
            if let Err(e) = check_spans(&src, prog) {
                failures.push(format!("{}: bad span: {e}", path));
            }
        } else if !*syntax_error {
            let first = diags
                .first()
                .map(|d| format!("{}: {} at {}", d.code, d.message, d.primary.span))
                .unwrap_or_default();
            failures.push(format!("{}: {first}", path));
        }
    }
    eprintln!(
        "parsed {parsed}/{total} T1-T4 files in {:.3} s",
        elapsed.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} files failed to parse:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Spot checks of spans: declarations start with their keyword and end with `;` or `}`, names cover
/// their text, bodies end with `}`, statements start with their keyword.
fn check_spans(src: &str, prog: &lapidary::syntax::ast::Program) -> Result<(), String> {
    use lapidary::syntax::ast::{Decl, Ident, Stmt};
    let text = |sp: lapidary::diag::Span| src.get(sp.range()).unwrap_or("<out of range>");
    let ident = |id: &Ident| {
        if text(id.span) == id.name {
            Ok(())
        } else {
            Err(format!(
                "ident `{}` has span text `{}`",
                id.name,
                text(id.span)
            ))
        }
    };
    fn stmts(src: &str, ss: &[Stmt]) -> Result<(), String> {
        for s in ss {
            let t = src.get(s.span.range()).unwrap_or("");
            let kw = match &s.kind {
                StmtKind::Assert { .. } => "assert",
                StmtKind::Assume { .. } => "assume",
                StmtKind::Havoc(_) => "havoc",
                StmtKind::If { then_branch, .. } => {
                    stmts(src, then_branch)?;
                    "if"
                }
                StmtKind::While { body, .. } => {
                    stmts(src, body)?;
                    "while"
                }
                StmtKind::Atomic(b) => {
                    stmts(src, b)?;
                    "atomic"
                }
                StmtKind::Goto(_) => "goto",
                StmtKind::Return => "return",
                StmtKind::Fork { .. } => "fork",
                _ => "",
            };
            if !t.starts_with(kw) {
                return Err(format!("statement span `{t}` does not start with `{kw}`"));
            }
        }
        Ok(())
    }
    for d in &prog.decls {
        let (kw, span) = match d {
            Decl::Type(t) => (ident(&t.name).map(|_| "type"), t.span),
            Decl::Const(c) => (c.names.iter().try_for_each(ident).map(|_| "const"), c.span),
            Decl::Function(f) => (ident(&f.name).map(|_| "function"), f.span),
            Decl::Axiom(a) => (Ok("axiom"), a.span),
            Decl::Var(v) => (Ok("var"), v.span),
            Decl::Procedure(p) => {
                if let Some(b) = &p.body {
                    stmts(src, &b.stmts)?;
                    if text(b.end) != "}" {
                        return Err("body end is not `}`".into());
                    }
                }
                (ident(&p.name).map(|_| "procedure"), p.span)
            }
            Decl::Implementation(i) => {
                stmts(src, &i.body.stmts)?;
                (ident(&i.name).map(|_| "implementation"), i.span)
            }
        };
        let kw = kw?;
        let t = text(span);
        if !t.starts_with(kw) || !(t.ends_with(';') || t.ends_with('}')) {
            return Err(format!(
                "declaration span `{t}` is not a whole `{kw}` declaration"
            ));
        }
    }
    Ok(())
}

// ------------------------------------------------------------------ malformed examples (snapshots)

/// Every `examples/syntax/*.bpl` is malformed: it must be rejected, and its rendered diagnostics are
/// snapshotted (`tests/snapshots/syntax__<name>.snap`).
#[test]
fn malformed_examples_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/syntax");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.retain(|p| p.extension().is_some_and(|e| e == "bpl"));
    entries.sort();
    assert!(!entries.is_empty(), "no examples in {}", dir.display());
    for path in entries {
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            src.starts_with("//#SyntaxError"),
            "{} lacks the //#SyntaxError header",
            path.display()
        );
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("unnamed")
            .to_string();
        let (prog, diags) = parse(&src);
        assert!(prog.is_none(), "{name} was accepted");
        assert!(!diags.is_empty(), "{name}: no diagnostics");
        let rendered = render_diagnostics(&format!("{name}.bpl"), &src, &diags, false);
        insta::assert_snapshot!(name, rendered);
    }
}

#[test]
fn render_color_is_deterministic_and_contains_code() {
    let src = "axiom 1 +;";
    let (_, diags) = parse(src);
    let a = render_diagnostics("a.bpl", src, &diags, true);
    let b = render_diagnostics("a.bpl", src, &diags, true);
    assert_eq!(a, b);
    assert!(a.contains("E0110"));
    assert!(a.contains('\u{1b}'), "expected ANSI escapes");
}

// ------------------------------------------------------------------ structure

fn expr(src: &str) -> Expr {
    let (e, diags) = parse_expr(src);
    match e {
        Some(e) => e,
        None => panic!("`{src}` did not parse: {diags:?}"),
    }
}

fn binop(e: &Expr) -> (BinOp, &Expr, &Expr) {
    match &e.kind {
        ExprKind::Binary(op, a, b) => (*op, a, b),
        other => panic!("not a binary expression: {other:?}"),
    }
}

fn var_name(e: &Expr) -> &str {
    match &e.kind {
        ExprKind::Var(id) => &id.name,
        other => panic!("not a variable: {other:?}"),
    }
}

#[test]
fn implies_is_right_associative() {
    let e = expr("a ==> b ==> c");
    let (op, a, rest) = binop(&e);
    assert_eq!(op, BinOp::Implies);
    assert_eq!(var_name(a), "a");
    let (op2, b, c) = binop(rest);
    assert_eq!(op2, BinOp::Implies);
    assert_eq!((var_name(b), var_name(c)), ("b", "c"));
}

#[test]
fn explies_is_left_associative() {
    let e = expr("a <== b <== c");
    let (op, left, c) = binop(&e);
    assert_eq!(op, BinOp::Explies);
    assert_eq!(var_name(c), "c");
    let (op2, a, b) = binop(left);
    assert_eq!(op2, BinOp::Explies);
    assert_eq!((var_name(a), var_name(b)), ("a", "b"));
}

#[test]
fn iff_is_right_associative_and_loosest() {
    let e = expr("a <==> b ==> c <==> d");
    let (op, a, rest) = binop(&e);
    assert_eq!(op, BinOp::Iff);
    assert_eq!(var_name(a), "a");
    let (op2, imp, d) = binop(rest);
    assert_eq!(op2, BinOp::Iff);
    assert_eq!(var_name(d), "d");
    assert_eq!(binop(imp).0, BinOp::Implies);
}

#[test]
fn arithmetic_precedence() {
    let e = expr("a + b * c - -d / 2 == x ++ y && !p");
    let (op, eq, not) = binop(&e);
    assert_eq!(op, BinOp::And);
    assert!(matches!(not.kind, ExprKind::Unary(..)));
    let (op, lhs, concat) = binop(eq);
    assert_eq!(op, BinOp::Eq);
    assert_eq!(binop(concat).0, BinOp::Concat);
    // (a + b*c) - ((-d) / 2)
    let (op, sum, quot) = binop(lhs);
    assert_eq!(op, BinOp::Sub);
    assert_eq!(binop(sum).0, BinOp::Add);
    assert_eq!(binop(binop(sum).2).0, BinOp::Mul);
    assert_eq!(binop(quot).0, BinOp::Div);
}

#[test]
fn if_then_else_extends_to_the_right() {
    let e = expr("x + if c then y else z + 1");
    let (op, _, ite) = binop(&e);
    assert_eq!(op, BinOp::Add);
    match &ite.kind {
        ExprKind::IfThenElse(_, _, els) => assert_eq!(binop(els).0, BinOp::Add),
        other => panic!("expected if-then-else, got {other:?}"),
    }
    // not allowed as a left operand without parentheses, fine with them
    assert!(parse_expr("(if c then y else z) + 1").0.is_some());
}

#[test]
fn and_or_mix_is_rejected_but_parenthesized_is_fine() {
    let (e, diags) = parse_expr("a && b || c");
    assert!(e.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, "E0113");
    assert!(
        diags[0]
            .help
            .iter()
            .any(|h| h == "`&&` and `||` cannot be mixed without parentheses")
    );
    assert!(parse_expr("(a && b) || c").0.is_some());
    assert!(parse_expr("a && (b || c) && d").0.is_some());
    assert!(parse_expr("a || b || c").0.is_some());
}

#[test]
fn postfix_forms() {
    let e = expr("m[i, j := v][k]!f[7:0]");
    match &e.kind {
        ExprKind::Extract { expr, hi: 7, lo: 0 } => match &expr.kind {
            ExprKind::Field(inner, f) => {
                assert_eq!(f.name, "f");
                assert!(
                    matches!(&inner.kind, ExprKind::Select(m, idx) if idx.len() == 1
                    && matches!(&m.kind, ExprKind::Store(_, i, _) if i.len() == 2))
                );
            }
            other => panic!("expected field, got {other:?}"),
        },
        other => panic!("expected extract, got {other:?}"),
    }
}

#[test]
fn quantifiers_triggers_attributes_records_lambda() {
    let e =
        expr("(forall <T> x: T, y: int :: {:weight 3} {f(x), g(y)} {h(x)} f(x) == {a: 1, b: y})");
    match &e.kind {
        ExprKind::Quant {
            type_params,
            vars,
            attrs,
            triggers,
            body,
            ..
        } => {
            assert_eq!(type_params.len(), 1);
            assert_eq!(vars.len(), 2);
            assert_eq!(attrs.len(), 1);
            assert_eq!(triggers.len(), 2);
            assert_eq!(triggers[0].len(), 2);
            assert!(matches!(&binop(body).2.kind, ExprKind::Record(f) if f.len() == 2));
        }
        other => panic!("expected quantifier, got {other:?}"),
    }
    assert!(parse_expr("(∀ x: int • x ≥ 0 ∨ ¬(x < 0))").0.is_some());
    // `lambda` is an identifier in Ultimate's dialect; Boogie 2's binder only right after `(`
    // and before an identifier.
    assert!(parse_expr("(lambda i: int :: i + 1)[3] == 4").0.is_some());
    assert!(parse_expr("lambda i: int :: i + 1").0.is_none());
    assert!(parse_expr("lambda + div * mod == 4").0.is_some());
    assert!(parse_expr("(lambda) + (lambda div 2) == 4").0.is_some());
    assert!(
        parse_expr("(exists x: int :: x == 5bv3 ++ 1bv1)")
            .0
            .is_some()
    );
}

const PROGRAM: &str = r#"
type {:builtin "X"} finite Ref a;
type Syn = <a>[a, Ref a]{f: int, g: bool};
const unique c1, c2: int <: unique p, q complete;
function {:inline true} f<a>(x: a, int) returns (r: int) { 1 }
function g(bv32): bv32;
axiom {:name "ax"} (forall x: int :: {f(x, 0)} f(x, 0) >= 0);
var x', ULTIMATE.start, #res, ~y, $p, a?b, c^d, e\f: int where x' >= 0, m: [int]int;
procedure {:inline 1} ULTIMATE.init(i: int where i > 0) returns (r: int);
  free requires i > 0;
  modifies x';
  ensures r == old(x') + 1;
procedure P(a: int) returns (b: int)
  requires a >= 0;
{
  var t: int;
  L1: L2:
  assert {:msg "hi\tthere"} a >= 0;
  assume true;
  havoc t, x';
  t, m[a], m[t] := 1, 2, 3;
  call b := P(a);
  call {:attr} P(a);
  call forall P(*);
  async call P(1);
  if (*) { break; } else if (a > 0) { return; } else { goto L1, L2; }
  while (t < 10) free invariant t >= 0; invariant {:x} t <= 10; { t := t + 1; }
  while (*) { break L1; }
  atomic { t := 1; }
  fork 1, 2 P(x');
  join 1, 2 assign b;
  join t;
  L3:
}
implementation P(a: int) returns (b: int) { b := a; }
"#;

#[test]
fn full_program_structure() {
    let (prog, diags) = parse(PROGRAM);
    let prog = match prog {
        Some(p) => p,
        None => panic!("{}", render_diagnostics("p.bpl", PROGRAM, &diags, false)),
    };
    assert_eq!(prog.decls.len(), 10);
    use lapidary::syntax::ast::Decl;
    let Decl::Var(v) = &prog.decls[6] else {
        panic!("expected var decl")
    };
    let names: Vec<&str> = v.vars[0].names.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "x'",
            "ULTIMATE.start",
            "#res",
            "~y",
            "$p",
            "a?b",
            "c^d",
            "e\\f"
        ]
    );
    assert!(v.vars[0].where_clause.is_some());
    let Decl::Procedure(init) = &prog.decls[7] else {
        panic!("expected procedure")
    };
    assert_eq!(init.name.name, "ULTIMATE.init");
    assert_eq!(init.specs.len(), 3);
    assert!(init.body.is_none());
    let Decl::Procedure(p) = &prog.decls[8] else {
        panic!("expected procedure")
    };
    let body = p.body.as_ref().expect("inline body");
    assert_eq!(body.locals.len(), 1);
    let fork = body.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Fork { tid, proc, args } => Some((tid.len(), proc.name.clone(), args.len())),
        _ => None,
    });
    assert_eq!(fork, Some((2, "P".to_string(), 1)));
    let join = body.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Join { tid, assign } if !assign.is_empty() => Some((tid.len(), assign.len())),
        _ => None,
    });
    assert_eq!(join, Some((2, 1)));
    assert!(
        matches!(body.stmts.last().map(|s| &s.kind), Some(StmtKind::Label(l)) if l.name == "L3")
    );
    assert_eq!(&PROGRAM[body.end.range()], "}");
}

#[test]
fn attribute_opener_allows_whitespace_and_comments() {
    let src = "procedure { /* c */ // d\n :inline 1} P();";
    let (prog, diags) = parse(src);
    assert!(prog.is_some(), "{diags:?}");
}

// ------------------------------------------------------------------ robustness (proptest)

use proptest::prelude::*;

/// Valid programs whose tokens are shuffled, dropped and duplicated.
const SEEDS: &[&str] = &[
    PROGRAM,
    "procedure main() { var x: int; x := if x > 0 then (forall y: int :: {f(y)} y > x) else x[1:0] ++ 2bv3; }",
    "function f(x: int): int { x } axiom {:a \"s\"} f(1) == 1 && (b || c) ==> d <== e;",
];

fn tokens(src: &str) -> Vec<String> {
    lapidary::syntax::lexer::Lexer::new(src)
        .filter_map(Result::ok)
        .map(|(l, _, r)| src[l..r].to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let src = String::from_utf8_lossy(&bytes);
        let (_, diags) = parse(&src);
        let _ = render_diagnostics("fuzz.bpl", &src, &diags, false);
    }

    #[test]
    fn arbitrary_token_text_never_panics(s in "[a-z0-9 (){}\\[\\]:;,=<>!&|*+-/%\"{:.'#bv\n]{0,120}") {
        let (_, diags) = parse(&s);
        let _ = render_diagnostics("fuzz.bpl", &s, &diags, false);
    }

    #[test]
    fn mutated_programs_never_panic(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<usize>(), any::<usize>(), 0u8..3), 1..8),
    ) {
        let mut toks = tokens(SEEDS[seed]);
        for (i, j, kind) in edits {
            if toks.is_empty() {
                break;
            }
            let (i, j) = (i % toks.len(), j % toks.len());
            match kind {
                0 => toks.swap(i, j),
                1 => { toks.remove(i); }
                _ => { let t = toks[i].clone(); toks.insert(j, t); }
            }
        }
        let src = toks.join(" ");
        let (_, diags) = parse(&src);
        let _ = render_diagnostics("fuzz.bpl", &src, &diags, false);
    }
}

// ------------------------------------------------------------------ deep nesting

/// Absurdly deep trees are rejected with E0115 (success path) and never overflow the stack, neither when
/// parsing succeeds nor when a deep partial tree is dropped after a syntax error.
#[test]
fn deep_nesting_never_overflows() {
    for n in [16_000usize, 60_000] {
        let cases = [
            (format!("axiom {}x;", "!".repeat(2 * n)), "E0115"),
            (format!("axiom {}x", "!".repeat(2 * n)), "E0111"),
            (format!("axiom x{};", "+x".repeat(n)), "E0115"),
            (format!("axiom x{} +;", "+x".repeat(n)), "E0110"),
            (format!("axiom x{};", "==>x".repeat(n / 2)), "E0115"),
            (
                format!(
                    "procedure P() {{ {} }}",
                    "if(*){".repeat(n / 3) + &"}".repeat(n / 3)
                ),
                "E0115",
            ),
        ];
        for (src, code) in cases {
            let (prog, diags) = parse(&src);
            assert!(prog.is_none());
            assert_eq!(diags.first().map(|d| d.code), Some(code), "n = {n}");
        }
    }
    // Moderately deep input is fine.
    let src = format!("axiom x{};", "+x".repeat(1_000));
    assert!(parse(&src).0.is_some());
}
