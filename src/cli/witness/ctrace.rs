//! A counterexample in the terms of the C program (back-translation for violation witnesses):
//! the re-validated error trace of the translated Boogie program, mapped back onto the C program
//! with the translation's [`CMap`] — which steps take which branch of which C branch point, where
//! C functions are entered and left, and which values C variables get.
//!
//! - **Branches.** The translation notes each C branch point (`if`, loops, `?:`, `&&`, `||`) as
//!   the span of the Boogie `if`/`while` it became, with the number of leading negations of its
//!   condition and whether that condition is the C condition or its negation ([`CBranch`]).
//!   Lowering assumes the condition on one edge and its negation — one negation added or removed —
//!   on the other, so the parity of an edge's leading negations tells the branch. The table is
//!   built from the lowered program's `assume` edges with those spans, keyed by span and statement
//!   text: the engine's steps carry exactly these (the text of a CFA edge is its IR statement's).
//!   A key that two branch points share is dropped (no guess).
//! - **Calls and returns.** A step `call … f(…)` of a C function `f` enters it, `return from f`
//!   leaves it. Steps whose Boogie edge does nothing visible (the call of a function without
//!   parameters, locals or result; the return of a `void` function) are not in the trace; they
//!   are recovered from the functions the steps' spans lie in: a step in a function below the top
//!   of the call stack returns to it, a step in a function not on the stack enters it (without a
//!   line: the call site is not known). Each thread has its stack; the function a thread starts in
//!   (`main`, a start routine) is entered without an event.
//! - **Values.** A step's writes of Boogie variables that hold C integer variables (not
//!   temporaries, not memory, not parts of pointers or aggregates) become `(C variable, value)`
//!   pairs when the value is an integer of the variable's C type.
//!
//! Invariant: every event is a fact of the re-validated trace (a branch taken, a value written, a
//! function entered or left); what cannot be mapped back is left out, never guessed.

use crate::cfront::{BranchKind, CBranch, CMap, CVar};
use crate::diag::Span;
use crate::engine::Counterexample;
use crate::ir::{Expr, Program, Stmt, UnOp};
use num_bigint::BigInt;
use std::collections::HashMap;

/// One event of the C trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Consecutive steps of one line, thread and function that are no branch, call or return;
    /// `writes`: the last value each C variable gets in them.
    Plain {
        span: Span,
        line: usize,
        thread: Option<u32>,
        function: Option<String>,
        writes: Vec<(CVar, BigInt)>,
        /// The steps are the function's prologue (parameters copied to their locals, at the
        /// definition): no statement of the C program.
        prologue: bool,
    },
    /// A C branch point's condition evaluated to `truth` (`span`: the branching statement or
    /// operator, `line`: its condition's).
    Branch {
        span: Span,
        line: usize,
        thread: Option<u32>,
        function: Option<String>,
        kind: BranchKind,
        truth: bool,
    },
    /// The C function `callee` is entered (at the call's line, if known).
    Call {
        callee: String,
        line: Option<usize>,
        thread: Option<u32>,
    },
    /// The C function `callee` returns (to the call's line, if known).
    Return {
        callee: String,
        line: Option<usize>,
        thread: Option<u32>,
    },
}

impl Event {
    pub fn thread(&self) -> Option<u32> {
        match self {
            Event::Plain { thread, .. }
            | Event::Branch { thread, .. }
            | Event::Call { thread, .. }
            | Event::Return { thread, .. } => *thread,
        }
    }
}

fn leading_nots(e: &Expr) -> u32 {
    match e {
        Expr::Unary(UnOp::Not, x) => 1 + leading_nots(x),
        _ => 0,
    }
}

/// The truth of the C condition for each branch `assume` of the lowered program, by span and
/// statement text.
fn branch_table(program: &Program, map: &CMap) -> HashMap<(Span, String), bool> {
    let mut sites: HashMap<Span, Option<&CBranch>> = HashMap::new();
    for b in &map.branches {
        sites
            .entry(b.span)
            .and_modify(|x| *x = None)
            .or_insert(Some(b));
    }
    let mut table: HashMap<(Span, String), Option<bool>> = HashMap::new();
    for p in &program.procedures {
        let Some(cfg) = &p.body else { continue };
        for e in cfg.graph.edge_weights() {
            let (Stmt::Assume(x), Some(span)) = (&e.stmt, e.span) else {
                continue;
            };
            let Some(Some(site)) = sites.get(&span) else {
                continue;
            };
            let truth = (leading_nots(x) % 2 == site.nots % 2) != site.negated;
            let text = crate::ir::dot::stmt_to_string(program, &e.stmt);
            table
                .entry((span, text))
                .and_modify(|t| {
                    if *t != Some(truth) {
                        *t = None;
                    }
                })
                .or_insert(Some(truth));
        }
    }
    table
        .into_iter()
        .filter_map(|(k, v)| Some((k, v?)))
        .collect()
}

/// The numeric thread id of a step's thread name (`name#k` → `k`; the entry thread is 0).
pub fn thread_id(name: &str) -> u32 {
    name.rsplit_once('#')
        .and_then(|(_, k)| k.parse().ok())
        .unwrap_or(0)
}

/// The procedure a step `call [x, … :=] f(…);` calls.
fn callee_of(statement: &str) -> Option<&str> {
    let rest = statement.strip_prefix("call ")?;
    let rest = match rest.find(":=") {
        Some(i) if rest[..i].find('(').is_none() => rest[i + 2..].trim_start(),
        _ => rest,
    };
    Some(rest[..rest.find('(')?].trim())
}

/// The 1-based line of a byte offset.
pub fn line_of(src: &str, offset: u32) -> usize {
    let end = (offset as usize).min(src.len());
    src.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The counterexample `cex` of the translation `program` of the C program `src` as C events.
pub fn events(cex: &Counterexample, program: &Program, map: &CMap, src: &str) -> Vec<Event> {
    let table = branch_table(program, map);
    let by_procedure: HashMap<&str, &str> = map
        .functions
        .iter()
        .map(|f| (f.procedure.as_str(), f.name.as_str()))
        .collect();
    let function_of = |span: Span| -> Option<&crate::cfront::CFunction> {
        if span.start == 0 && span.end == 0 {
            return None; // header code
        }
        map.functions
            .iter()
            .find(|f| f.span.start <= span.start && span.start < f.span.end.max(f.span.start + 1))
    };
    let c_var = |name: &str, function: Option<&str>| -> Option<&CVar> {
        if name.starts_with('~') {
            return map.globals.iter().find(|g| g.boogie == name);
        }
        let f = function?;
        map.locals
            .iter()
            .find(|l| l.boogie == name && l.function == f)
    };
    let mut stacks: HashMap<Option<String>, Vec<(String, Option<usize>)>> = HashMap::new();
    let mut out: Vec<Event> = Vec::new();
    for step in &cex.steps {
        let thread = step.thread.as_deref().map(thread_id);
        let stack = stacks.entry(step.thread.clone()).or_default();
        let line = step.span.map(|s| line_of(src, s.start));
        if let Some(callee) = callee_of(&step.statement).and_then(|p| by_procedure.get(p)) {
            if !stack.is_empty() {
                out.push(Event::Call {
                    callee: callee.to_string(),
                    line,
                    thread,
                });
            }
            stack.push((callee.to_string(), line));
            continue;
        }
        if let Some(callee) = step
            .statement
            .strip_prefix("return from ")
            .and_then(|p| by_procedure.get(p))
        {
            if let Some(i) = stack.iter().rposition(|(f, _)| f == callee) {
                while stack.len() > i {
                    let (f, call_line) = stack.pop().unwrap_or_default();
                    out.push(Event::Return {
                        callee: f,
                        line: if stack.len() == i { line } else { call_line },
                        thread,
                    });
                }
            }
            continue;
        }
        let Some(span) = step.span.filter(|s| s.start != 0 || s.end != 0) else {
            continue; // no span, or header code (not in the C file)
        };
        let Some(line) = line else { continue };
        let cf = function_of(span);
        let prologue = cf.is_some_and(|f| f.span.start == span.start);
        let function = cf.map(|f| f.name.as_str());
        if let Some(f) = function {
            match stack.iter().rposition(|(g, _)| g == f) {
                None if stack.is_empty() => stack.push((f.to_string(), None)),
                None => {
                    out.push(Event::Call {
                        callee: f.to_string(),
                        line: None,
                        thread,
                    });
                    stack.push((f.to_string(), None));
                }
                Some(i) => {
                    while stack.len() > i + 1 {
                        let (g, call_line) = stack.pop().unwrap_or_default();
                        out.push(Event::Return {
                            callee: g,
                            line: call_line,
                            thread,
                        });
                    }
                }
            }
        }
        let function = function.map(str::to_string);
        if step.statement.starts_with("assume ") {
            if let Some(&truth) = table.get(&(span, step.statement.clone())) {
                let site = map.branches.iter().find(|b| b.span == span);
                let kind = site.map_or(BranchKind::Operator, |b| b.kind);
                let line = site.map_or(line, |b| line_of(src, b.cond.start));
                out.push(Event::Branch {
                    span,
                    line,
                    thread,
                    function,
                    kind,
                    truth,
                });
                continue;
            }
        }
        let writes: Vec<(CVar, BigInt)> = step
            .writes
            .iter()
            .filter_map(|(name, value)| {
                let v = c_var(name, function.as_deref())?;
                let x: BigInt = value.parse().ok()?;
                (v.min <= x && x <= v.max).then(|| (v.clone(), x))
            })
            .collect();
        if let Some(Event::Plain {
            line: l,
            thread: t,
            function: f,
            writes: w,
            prologue: p,
            ..
        }) = out.last_mut()
        {
            if *l == line && *t == thread && *f == function && *p == prologue {
                for (v, x) in writes {
                    w.retain(|(u, _)| u.boogie != v.boogie);
                    w.push((v, x));
                }
                continue;
            }
        }
        out.push(Event::Plain {
            span,
            line,
            thread,
            function,
            writes,
            prologue,
        });
    }
    out
}

/// `v` as a C integer constant whose value is `v` (C gives an unsuffixed decimal constant a type
/// wide enough for it, up to `long long`).
pub fn c_constant(v: &BigInt) -> String {
    match i64::try_from(v) {
        Ok(i64::MIN) => "(-9223372036854775807LL - 1)".into(),
        Ok(x) => x.to_string(),
        Err(_) => format!("{v}ULL"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callees_and_constants() {
        assert_eq!(callee_of("call #t~3 := count(n~1);"), Some("count"));
        assert_eq!(callee_of("call f(x~1, 2);"), Some("f"));
        assert_eq!(callee_of("call x, y := g();"), Some("g"));
        assert_eq!(callee_of("x := 1;"), None);
        assert_eq!(c_constant(&BigInt::from(5)), "5");
        assert_eq!(c_constant(&BigInt::from(-1)), "-1");
        assert_eq!(
            c_constant(&BigInt::from(i64::MIN)),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(
            c_constant(&BigInt::from(u64::MAX)),
            "18446744073709551615ULL"
        );
        assert_eq!(thread_id("worker#3"), 3);
        assert_eq!(thread_id("main"), 0);
    }
}
