//! Rendering of diagnostics as text with codespan-reporting (the only place diagnostics are formatted).

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{Ansi, NoColor};
use codespan_reporting::term::{self, Config};

use crate::diag::{Diagnostic, Severity};

/// Renders `diags` for the file `file_name` with contents `src`, one after another, in the style
/// `error[E0110]: message` / `┌─ file:line:col` / labelled source lines / `= help: …`.
///
/// `color` selects ANSI colours; the output is deterministic either way.
pub fn render_diagnostics(file_name: &str, src: &str, diags: &[Diagnostic], color: bool) -> String {
    let file = SimpleFile::new(file_name, src);
    let config = Config::default();
    let mut out: Vec<u8> = Vec::new();
    for d in diags {
        let cs = to_codespan(d, src);
        let result = if color {
            let mut w = Ansi::new(&mut out);
            term::emit_to_write_style(&mut w, &config, &file, &cs)
        } else {
            let mut w = NoColor::new(&mut out);
            term::emit_to_write_style(&mut w, &config, &file, &cs)
        };
        if result.is_err() {
            // Only possible for spans outside the file, which `to_codespan` clamps; keep a plain fallback.
            out.extend_from_slice(
                format!("{}[{}]: {}\n", severity_name(d.severity), d.code, d.message).as_bytes(),
            );
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Clamps a span to the file and to character boundaries.
fn clamp(src: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let floor = |mut i: usize| {
        i = i.min(src.len());
        while !src.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = floor(range.start);
    let end = floor(range.end.max(start));
    start..end
}

fn to_codespan(d: &Diagnostic, src: &str) -> CsDiagnostic<()> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
    };
    let mut labels = vec![
        CsLabel::primary((), clamp(src, d.primary.span.range()))
            .with_message(d.primary.message.clone()),
    ];
    for s in &d.secondary {
        labels.push(
            CsLabel::secondary((), clamp(src, s.span.range())).with_message(s.message.clone()),
        );
    }
    CsDiagnostic::new(severity)
        .with_code(d.code)
        .with_message(d.message.clone())
        .with_labels(labels)
        .with_notes(d.help.iter().map(|h| format!("help: {h}")).collect())
}
