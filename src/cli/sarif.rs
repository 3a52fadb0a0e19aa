//! SARIF 2.1.0 output (`--format sarif`): one log for all files of a run, as code-scanning tools
//! (GitHub code scanning, IDE SARIF viewers) read it.
//!
//! - Each violated property is one `result` (level `error`, rule `V0001`) at the failing
//!   specification, with the counterexample as a `codeFlow`: one thread flow whose locations are
//!   the trace's steps (statement, values read and written).
//! - Input errors and warnings are results with the diagnostic's code as the rule (`E0110`, …).
//! - SAFE, UNKNOWN (with its reason), TERMINATING and NONTERMINATING answers without a trace are
//!   `toolExecutionNotifications` of the one invocation (a SAFE program has no finding).
//!
//! Regions are 1-based lines and columns (columns count characters); a span that cannot be placed
//! is left out rather than guessed. Output is deterministic: files in command-line order.

use super::FileResult;
use super::output::line_col;
use crate::diag::{Diagnostic, Severity, Span};
use crate::engine::{Counterexample, Verdict};
use serde_json::{Value, json};

/// The SARIF log of `results` (ends with a newline).
pub fn log(results: &[FileResult]) -> String {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let mut rules = std::collections::BTreeMap::new();
    for r in results {
        let src = r.source.as_deref();
        for d in &r.diagnostics {
            rules.insert(d.code.to_string(), d.message.clone());
            out.push(diagnostic(&r.file, src, d));
        }
        let cex = r.outcome.as_ref().and_then(|o| o.counterexample.as_ref());
        match (r.verdict, cex) {
            (Verdict::Unsafe | Verdict::Nonterminating, Some(cex)) => {
                rules.insert("V0001".into(), "a specification can be violated".into());
                out.push(violation(&r.file, src, cex));
            }
            (Verdict::Error, _) if !r.diagnostics.is_empty() => {}
            _ => notes.push(notification(r)),
        }
    }
    let rules: Vec<Value> = rules
        .into_iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "Lapidary",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": results
                    .iter()
                    .all(|r| r.verdict != Verdict::InternalError),
                "toolExecutionNotifications": notes,
            }],
            "results": out,
        }],
    });
    format!("{log:#}\n")
}

/// A physical location: the file and, when the span can be placed, its region.
fn location(file: &str, src: Option<&str>, span: Option<Span>) -> Value {
    let mut physical = json!({"artifactLocation": {"uri": file}});
    if let (Some(src), Some(span)) = (src, span) {
        if (span.end as usize) <= src.len() && span.start <= span.end {
            let (sl, sc) = line_col(src, span.start);
            let (el, ec) = line_col(src, span.end);
            physical["region"] = json!({
                "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec,
            });
        }
    }
    json!({"physicalLocation": physical})
}

fn diagnostic(file: &str, src: Option<&str>, d: &Diagnostic) -> Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut text = d.message.clone();
    for h in &d.help {
        text.push_str(&format!(" (help: {h})"));
    }
    json!({
        "ruleId": d.code,
        "level": level,
        "message": {"text": text},
        "locations": [location(file, src, Some(d.primary.span))],
    })
}

fn violation(file: &str, src: Option<&str>, cex: &Counterexample) -> Value {
    let steps: Vec<Value> = cex
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut text = match &s.thread {
                Some(t) => format!("[{t}] {}", s.statement),
                None => s.statement.clone(),
            };
            let show = |vs: &[(String, String)]| {
                vs.iter()
                    .map(|(n, v)| format!("{n} = {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !s.reads.is_empty() {
                text.push_str(&format!("  reads {}", show(&s.reads)));
            }
            if !s.writes.is_empty() {
                text.push_str(&format!("  writes {}", show(&s.writes)));
            }
            let mut loc = location(file, src, s.span);
            loc["message"] = json!({"text": text});
            json!({"location": loc, "executionOrder": i + 1})
        })
        .collect();
    json!({
        "ruleId": "V0001",
        "level": "error",
        "message": {"text": cex.property},
        "locations": [location(file, src, Some(cex.error_span))],
        "codeFlows": [{"threadFlows": [{"locations": steps}]}],
    })
}

fn notification(r: &FileResult) -> Value {
    let (level, word) = match r.verdict {
        Verdict::Safe => ("note", "SAFE"),
        Verdict::Terminating => ("note", "TERMINATING"),
        Verdict::Unsafe => ("error", "UNSAFE"),
        Verdict::Nonterminating => ("error", "NONTERMINATING"),
        Verdict::Unknown => ("warning", "UNKNOWN"),
        Verdict::Error => ("error", "ERROR"),
        Verdict::InternalError => ("error", "INTERNAL ERROR"),
    };
    let text = match &r.reason {
        Some(reason) => format!("{word} ({reason})"),
        None => word.to_string(),
    };
    json!({
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": r.file}}}],
    })
}
