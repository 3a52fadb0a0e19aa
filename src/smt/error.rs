//! Errors of the solver layer.

use super::config::SolverKind;
use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong talking to a solver. Check operations never return these: they answer
/// [`super::SatResult::Unknown`] with the error's text instead.
#[derive(Debug)]
pub enum SmtError {
    /// No solver binary was found; `searched` lists the places looked at, `hint` how to install one.
    NotFound {
        kind: SolverKind,
        searched: Vec<PathBuf>,
        hint: String,
    },
    /// An I/O operation on the solver process failed.
    Io {
        context: String,
        source: std::io::Error,
    },
    /// The solver process exited (or closed its output); `stderr` is its captured error output.
    Died {
        kind: SolverKind,
        status: String,
        stderr: String,
    },
    /// The solver did not answer within the query limit plus grace (it has been killed and restarted).
    Timeout,
    /// The solver answered `(error "…")`.
    Solver(String),
    /// A reply could not be read as the expected s-expression / term.
    Parse(String),
    /// The operation is not available (e.g. no model after `unsat`, QE without z3).
    Unsupported(String),
}

impl SmtError {
    /// Did the solver run out of the time it was given: the query limit, or a tactic's `try-for`
    /// (z3 answers `(error "tactic failed: canceled")`)?
    pub fn ran_out_of_time(&self) -> bool {
        match self {
            SmtError::Timeout => true,
            SmtError::Solver(m) => m.contains("canceled"),
            _ => false,
        }
    }
}

impl fmt::Display for SmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmtError::NotFound {
                kind,
                searched,
                hint,
            } => {
                write!(f, "{kind} solver not found (searched: ")?;
                for (i, p) in searched.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", p.display())?;
                }
                write!(f, "); install it with: {hint}")
            }
            SmtError::Io { context, source } => {
                write!(f, "solver I/O error while {context}: {source}")
            }
            SmtError::Died {
                kind,
                status,
                stderr,
            } => {
                write!(f, "{kind} solver died ({status})")?;
                let s = stderr.trim();
                if !s.is_empty() {
                    write!(f, "; stderr: {}", super::sexp::excerpt(s))?;
                }
                Ok(())
            }
            SmtError::Timeout => f.write_str("timeout"),
            SmtError::Solver(m) => write!(f, "solver error: {m}"),
            SmtError::Parse(m) => write!(f, "cannot read solver reply: {m}"),
            SmtError::Unsupported(m) => write!(f, "unsupported: {m}"),
        }
    }
}

impl std::error::Error for SmtError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SmtError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<super::parse::ParseError> for SmtError {
    fn from(e: super::parse::ParseError) -> Self {
        SmtError::Parse(e.0)
    }
}
