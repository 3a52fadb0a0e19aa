//! Rendering of per-file results: human-readable text, or one JSON object per line.
//!
//! JSON fields (stable, for tools): `file`, `verdict` (`safe`, `unsafe`, `unknown`, `error`,
//! `terminating`, `nonterminating`), `reason` (string or null), `time_s`, and when present
//! `counterexample` (property and steps), `proof` (loop invariants) and `stats`.

use super::render;
use super::{EngineArgs, FileResult, Format};
use crate::diag::Diagnostic;
use crate::engine::{Counterexample, LoopInvariant, Outcome, Verdict};
use serde_json::{Value, json};

/// The text printed for one file (ends with a newline).
pub fn render(r: &FileResult, format: Format, args: &EngineArgs) -> String {
    let mut text = render_format(r, format, args);
    if args.svcomp && format == Format::Text {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        let check = r
            .outcome
            .as_ref()
            .and_then(|o| o.counterexample.as_ref())
            .and_then(|c| c.check.as_deref());
        text.push_str(&svcomp_verdict(r.verdict, args.property, check));
        text.push('\n');
    }
    text
}

/// The verdict as BenchExec's tool-info module reads it (the last line of `--svcomp` output);
/// `check` is the failing assertion's kind (which names the sub-property of `valid-memsafety`).
pub fn svcomp_verdict(v: Verdict, property: super::PropertyArg, check: Option<&str>) -> String {
    match v {
        Verdict::Safe | Verdict::Terminating => "TRUE".into(),
        Verdict::Unsafe | Verdict::Nonterminating => {
            format!("FALSE({})", property.violated_name(check))
        }
        Verdict::Unknown => "UNKNOWN".into(),
        Verdict::Error | Verdict::InternalError => "ERROR".into(),
    }
}

fn render_format(r: &FileResult, format: Format, args: &EngineArgs) -> String {
    match format {
        Format::Sarif => super::sarif::log(std::slice::from_ref(r)),
        Format::Json => {
            let mut obj = json!({
                "file": r.file,
                "verdict": r.verdict.as_str(),
                "reason": r.reason,
                "time_s": (r.time_s * 1000.0).round() / 1000.0,
            });
            if let (Some(outcome), Value::Object(map)) = (&r.outcome, &mut obj) {
                if let Some(cex) = &outcome.counterexample {
                    map.insert("counterexample".into(), json!(cex));
                }
                if !outcome.proof.is_empty() {
                    map.insert("proof".into(), json!(outcome.proof));
                }
                if args.stats {
                    map.insert("stats".into(), json!(outcome.stats));
                }
            }
            if r.verdict == Verdict::Error && !r.details.is_empty() {
                if let Value::Object(map) = &mut obj {
                    map.insert("diagnostics".into(), json!(r.details));
                }
            }
            format!("{obj}\n")
        }
        Format::Text => {
            let mut out = String::new();
            let headline = match r.verdict {
                Verdict::Safe => "SAFE",
                Verdict::Unsafe => "UNSAFE",
                Verdict::Unknown => "UNKNOWN",
                Verdict::Terminating => "TERMINATING",
                Verdict::Nonterminating => "NONTERMINATING",
                Verdict::Error => "ERROR",
                Verdict::InternalError => "INTERNAL ERROR",
            };
            out.push_str(&format!("{}: {headline}", r.file));
            if let Some(reason) = &r.reason {
                out.push_str(&format!(" ({reason})"));
            }
            out.push('\n');
            if !r.details.is_empty() {
                out.push_str(&r.details);
                if !r.details.ends_with('\n') {
                    out.push('\n');
                }
            }
            if args.stats {
                if let Some(outcome) = &r.outcome {
                    out.push_str(&outcome.stats.to_text());
                }
            }
            out
        }
    }
}

/// Line and column (1-based) of a byte offset.
pub(super) fn line_col(src: &str, offset: u32) -> (usize, usize) {
    let offset = (offset as usize).min(src.len());
    let mut end = offset;
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    let before = &src[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn values(vs: &[(String, String)]) -> String {
    vs.iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The counterexample: numbered steps with the values read and written, then the failing
/// specification over the source.
pub fn counterexample(file: &str, src: &str, cex: &Counterexample, color: bool) -> String {
    render_trace(file, src, cex, color, "counterexample", "fails here")
}

/// A nontermination witness: the loop of the lasso (when short), then the location that recurs.
pub fn lasso(file: &str, src: &str, cex: &Counterexample, color: bool) -> String {
    render_trace(file, src, cex, color, "lasso loop", "recurs here")
}

fn render_trace(
    file: &str,
    src: &str,
    cex: &Counterexample,
    color: bool,
    title: &str,
    label: &str,
) -> String {
    // A long trace shows its ends: `skipped` steps are left out after the first `gap` shown.
    let (gap, skipped) = cex.omitted.unwrap_or((usize::MAX, 0));
    let total = cex.steps.len() as u64 + skipped;
    let mut out = if cex.steps.is_empty() {
        String::new()
    } else if skipped > 0 {
        format!(
            "{title} ({total} steps, the first {gap} and the last {} shown):\n",
            cex.steps.len() - gap
        )
    } else {
        format!("{title} ({} steps):\n", cex.steps.len())
    };
    let number = |i: usize| {
        if i >= gap {
            i as u64 + 1 + skipped
        } else {
            i as u64 + 1
        }
    };
    let digits = total.to_string().len().max(3);
    // Concurrent programs: each step names its thread instance.
    let text = |s: &crate::engine::Step| match &s.thread {
        Some(t) => format!("[{t}] {}", s.statement),
        None => s.statement.clone(),
    };
    let width = cex
        .steps
        .iter()
        .map(|s| text(s).chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    for (i, step) in cex.steps.iter().enumerate() {
        if i == gap && skipped > 0 {
            out.push_str(&format!(
                "  {:>digits$}  ({skipped} steps not shown)\n",
                "..."
            ));
        }
        let at = step
            .span
            .map(|sp| {
                let (l, c) = line_col(src, sp.start);
                format!("{l}:{c}")
            })
            .unwrap_or_else(|| "-".into());
        let mut line = format!("  {:>digits$}  {at:<8} {:<width$}", number(i), text(step));
        if !step.reads.is_empty() {
            line.push_str(&format!("  reads {}", values(&step.reads)));
        }
        if !step.writes.is_empty() {
            line.push_str(&format!("  writes {}", values(&step.writes)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let mut diag = Diagnostic::error("V0001", cex.property.clone(), cex.error_span, label);
    let labelled: Vec<_> = cex
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.span.is_some())
        .collect();
    for (i, step) in labelled.iter().rev().take(12).rev() {
        if let Some(span) = step.span {
            let vals = if step.writes.is_empty() {
                values(&step.reads)
            } else {
                values(&step.writes)
            };
            let label = if vals.is_empty() {
                format!("{}", number(*i))
            } else {
                format!("{}: {vals}", number(*i))
            };
            diag = diag.with_secondary(span, label);
        }
    }
    out.push_str(&render::render_diagnostics(file, src, &[diag], color));
    out
}

/// The proof: an invariant at each loop head.
pub fn proof(file: &str, src: &str, proof: &[LoopInvariant], color: bool) -> String {
    if proof.is_empty() {
        return "proof: no loop needs an invariant\n".into();
    }
    let mut out = String::from(if proof.iter().any(|p| p.summary) {
        "proof (loop invariants and procedure summaries):\n"
    } else {
        "proof (loop invariants):\n"
    });
    for inv in proof {
        let at = inv
            .span
            .map(|sp| {
                let (l, c) = line_col(src, sp.start);
                format!("{file}:{l}:{c}")
            })
            .unwrap_or_else(|| file.to_string());
        if inv.summary {
            out.push_str(&format!(
                "  {at} (summary of {}, at its exit): {}\n",
                inv.procedure, inv.invariant
            ));
        } else {
            out.push_str(&format!(
                "  {at} (in {}): {}\n",
                inv.procedure, inv.invariant
            ));
        }
    }
    let _ = color;
    out
}

/// The details shown under the headline: counterexample, proof.
pub fn render_outcome(
    file: &str,
    src: &str,
    outcome: &Outcome,
    args: &EngineArgs,
    color: bool,
) -> String {
    let mut out = String::new();
    if let Some(cex) = &outcome.counterexample {
        if outcome.verdict == Verdict::Nonterminating {
            out.push_str(&lasso(file, src, cex, color));
        } else {
            out.push_str(&counterexample(file, src, cex, color));
        }
    }
    if args.proof && outcome.verdict == Verdict::Safe {
        if outcome.stats.execution_steps > 0 {
            out.push_str(
                "proof: the one path every execution follows, executed (no loop invariant needed)\n",
            );
        } else if outcome.stats.bmc_exhausted > 0 {
            out.push_str(&format!(
                "proof: every execution that can reach an error location, unrolled until none \
                 runs longer ({} steps; no loop invariant needed)\n",
                outcome.stats.bmc_exhausted
            ));
        } else if outcome.stats.thread_modular_tuples > 0 {
            out.push_str(&format!(
                "proof: a thread-modular invariant, one formula per control tuple of the view \
                 ({} tuples; re-checked before the answer, not printed)\n",
                outcome.stats.thread_modular_tuples
            ));
        } else if outcome.proof.is_empty() && outcome.stats.thread_instances > 1 {
            // The certificate of a concurrent program maps configurations to invariants.
            out.push_str(
                "proof: invariants per configuration of the threads (checked with \
                 --check-proof; not printed as loop invariants for concurrent programs)\n",
            );
        } else {
            out.push_str(&proof(file, src, &outcome.proof, color));
        }
    }
    out
}
