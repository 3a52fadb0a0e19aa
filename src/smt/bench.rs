//! Throughput benchmark of the session layer against a bare pipe (`verify bench-smt`).
//!
//! Both sides run the same N Hoare-triple-style checks against the same solver binary with the same
//! options: `push; assert pre; assert transition; assert ¬post; check-sat; pop`, half of them sat and half
//! unsat, with constants varying per query. The layer side builds the terms with the term API and goes
//! through [`Session`]; the raw side formats the same commands with `format!`, writes them in one write and
//! reads one line. The two sides alternate in chunks so that machine load affects both alike.

use super::config::{SolverConfig, SolverKind, resolve_path};
use super::error::SmtError;
use super::session::{SatResult, Session};
use super::term::{Sort, Term, Var};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Result of [`bench_smt`].
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub kind: SolverKind,
    pub queries: usize,
    pub layer_time: Duration,
    pub raw_time: Duration,
    pub layer_qps: f64,
    pub raw_qps: f64,
    /// `layer_qps / raw_qps`; acceptance is ≥ 0.8.
    pub ratio: f64,
    pub sat: usize,
    pub unsat: usize,
}

impl fmt::Display for BenchReport {
    /// The last line the CLI prints: `layer_qps=… raw_qps=… ratio=…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "layer_qps={:.0} raw_qps={:.0} ratio={:.3}",
            self.layer_qps, self.raw_qps, self.ratio
        )
    }
}

fn expected(i: usize) -> bool {
    i % 2 == 0 // even: sat
}

/// Runs the benchmark (see module docs). Errors if the solver is missing or an answer is wrong.
pub fn bench_smt(kind: SolverKind, queries: usize) -> Result<BenchReport, SmtError> {
    let mut cfg = SolverConfig::new(kind);
    cfg.produce_cores = false;
    let path = resolve_path(kind, None)?;
    cfg.path = Some(path.clone());
    let mut session = Session::new(cfg.clone())?;
    let mut raw = RawPipe::start(&path, kind, &session_startup(&cfg))?;

    let (x, y, x1, y1) = (
        Var::new("x", Sort::Int),
        Var::new("y", Sort::Int),
        Var::new("x1", Sort::Int),
        Var::new("y1", Sort::Int),
    );
    let layer_one = |s: &mut Session, i: usize| -> SatResult {
        let k = Term::int(i as i64 + 7);
        let (xt, yt, x1t, y1t) = (Term::var(&x), Term::var(&y), Term::var(&x1), Term::var(&y1));
        let pre = Term::and(vec![Term::ge(&xt, &k), Term::ge(&yt, &Term::int(0))]);
        let tr = Term::and(vec![
            Term::eq(&x1t, &Term::add(vec![xt.clone(), yt.clone()])),
            Term::eq(&y1t, &Term::sub(&yt, &Term::int(1))),
        ]);
        let post = if expected(i) {
            Term::ge(&x1t, &Term::int(i as i64 + 8))
        } else {
            Term::ge(&x1t, &k)
        };
        s.push();
        s.assert(&pre);
        s.assert(&tr);
        s.assert(&Term::not(&post));
        let r = s.check_sat();
        s.pop();
        r
    };

    // warm-up (declarations, caches, page faults)
    for i in 0..10.min(queries) {
        let _ = layer_one(&mut session, queries + i);
        raw.check(queries + i)?;
    }

    let chunks = 8.max(queries / 250).min(queries.max(1));
    let per = queries.div_ceil(chunks);
    let mut layer_time = Duration::ZERO;
    let mut raw_time = Duration::ZERO;
    let (mut sat, mut unsat) = (0usize, 0usize);
    let mut wrong: Option<String> = None;
    for c in 0..chunks {
        let lo = c * per;
        let hi = ((c + 1) * per).min(queries);
        if lo >= hi {
            break;
        }
        let run_layer = |session: &mut Session,
                         sat: &mut usize,
                         unsat: &mut usize,
                         wrong: &mut Option<String>| {
            let t0 = Instant::now();
            for i in lo..hi {
                let r = layer_one(session, i);
                match (&r, expected(i)) {
                    (SatResult::Sat, true) => *sat += 1,
                    (SatResult::Unsat, false) => *unsat += 1,
                    _ => {
                        wrong.get_or_insert_with(|| format!("layer: query {i} answered {r}"));
                    }
                }
            }
            t0.elapsed()
        };
        let run_raw = |raw: &mut RawPipe| -> Result<Duration, SmtError> {
            let t0 = Instant::now();
            for i in lo..hi {
                let r = raw.check(i)?;
                if r != expected(i) {
                    return Err(SmtError::Parse(format!(
                        "raw pipe: query {i} answered sat={r}"
                    )));
                }
            }
            Ok(t0.elapsed())
        };
        if c % 2 == 0 {
            layer_time += run_layer(&mut session, &mut sat, &mut unsat, &mut wrong);
            raw_time += run_raw(&mut raw)?;
        } else {
            raw_time += run_raw(&mut raw)?;
            layer_time += run_layer(&mut session, &mut sat, &mut unsat, &mut wrong);
        }
    }
    if let Some(w) = wrong {
        return Err(SmtError::Parse(w));
    }
    let qps = |d: Duration| queries as f64 / d.as_secs_f64().max(1e-9);
    let (layer_qps, raw_qps) = (qps(layer_time), qps(raw_time));
    Ok(BenchReport {
        kind,
        queries,
        layer_time,
        raw_time,
        layer_qps,
        raw_qps,
        ratio: layer_qps / raw_qps,
        sat,
        unsat,
    })
}

/// The option commands a session with `cfg` sends first (so the raw side runs with the same options).
fn session_startup(cfg: &SolverConfig) -> String {
    super::session::startup_commands(cfg)
}

/// A minimal writer/reader on a bare pipe.
struct RawPipe {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    line: String,
    cmd: String,
}

impl RawPipe {
    fn start(path: &std::path::Path, kind: SolverKind, startup: &str) -> Result<RawPipe, SmtError> {
        let io = |context: &str, e: std::io::Error| SmtError::Io {
            context: context.to_string(),
            source: e,
        };
        let mut child = Command::new(path)
            .args(kind.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| io("starting the raw pipe", e))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io(
                "starting the raw pipe",
                std::io::Error::other("missing pipe"),
            ));
        };
        let decls = "(declare-fun x () Int)\n(declare-fun y () Int)\n(declare-fun x1 () Int)\n(declare-fun y1 () Int)\n";
        stdin
            .write_all(format!("{startup}{decls}").as_bytes())
            .map_err(|e| io("writing to the raw pipe", e))?;
        Ok(RawPipe {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            line: String::new(),
            cmd: String::with_capacity(512),
        })
    }

    /// One check; returns whether the answer was `sat`.
    fn check(&mut self, i: usize) -> Result<bool, SmtError> {
        use std::fmt::Write as _;
        let k = i as i64 + 7;
        let post = if expected(i) { k + 1 } else { k };
        self.cmd.clear();
        let _ = write!(
            self.cmd,
            "(push 1)\n(assert (and (>= x {k}) (>= y 0)))\n(assert (and (= x1 (+ x y)) (= y1 (- y 1))))\n(assert (not (>= x1 {post})))\n(check-sat)\n(pop 1)\n"
        );
        let io = |e: std::io::Error| SmtError::Io {
            context: "raw pipe".into(),
            source: e,
        };
        self.stdin.write_all(self.cmd.as_bytes()).map_err(io)?;
        self.stdin.flush().map_err(io)?;
        self.line.clear();
        self.stdout.read_line(&mut self.line).map_err(io)?;
        match self.line.trim() {
            "sat" => Ok(true),
            "unsat" => Ok(false),
            other => Err(SmtError::Parse(format!("raw pipe answered `{other}`"))),
        }
    }
}

impl Drop for RawPipe {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
