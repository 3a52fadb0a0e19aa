//! Throughput benchmark of the session layer against a bare pipe (`verify bench-smt`).
//!
//! Both sides run the same N Hoare-triple-style checks against the same solver binary with the same
//! options: `push; assert pre; assert transition; assert ¬post; check-sat; pop`, half of them sat and half
//! unsat, with constants varying per query. The layer side builds the terms with the term API and goes
//! through [`Session`]; the raw side formats the same commands with `format!`, writes them in one write and
//! reads one line. The two sides alternate in chunks of ~100 queries so that machine load affects both
//! alike; `layer_qps`/`raw_qps` are the rates of the median chunk of each side (the mean rates over the
//! total time are reported too), and the thread CPU time per side shows the layer's own cost.

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
    /// Total wall time of each side.
    pub layer_time: Duration,
    pub raw_time: Duration,
    /// `queries / total time` per side (sensitive to load spikes on a shared machine).
    pub layer_mean_qps: f64,
    pub raw_mean_qps: f64,
    /// Queries per second of the median chunk (chunks of ~100 queries, the sides alternating), robust
    /// against load spikes from other processes.
    pub layer_qps: f64,
    pub raw_qps: f64,
    /// `layer_qps / raw_qps`; acceptance is ≥ 0.8.
    pub ratio: f64,
    pub sat: usize,
    pub unsat: usize,
    /// CPU time of the benchmarking thread on each side (user + system; 64-bit Linux only, zero elsewhere). The
    /// difference is the layer's own cost, independent of machine load.
    pub layer_cpu: Duration,
    pub raw_cpu: Duration,
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
    bench_smt_with(cfg, queries)
}

/// [`bench_smt`] with an explicit configuration (solver path, timeout, logic; `log_dir` applies to the
/// layer side only and slows it down).
pub fn bench_smt_with(mut cfg: SolverConfig, queries: usize) -> Result<BenchReport, SmtError> {
    let kind = cfg.kind;
    let path = resolve_path(kind, cfg.path.as_deref())?;
    cfg.path = Some(path.clone());
    // The program variables and the transition formula are built once, as the engine holds them; the
    // pre- and postconditions are built per query (new constants, so the solver cannot reuse anything).
    let (x, y, x1, y1) = (
        Term::var(&Var::new("x", Sort::Int)),
        Term::var(&Var::new("y", Sort::Int)),
        Term::var(&Var::new("x1", Sort::Int)),
        Term::var(&Var::new("y1", Sort::Int)),
    );
    let zero = Term::int(0);
    let tr = Term::and(vec![
        Term::eq(&x1, &Term::add(vec![x.clone(), y.clone()])),
        Term::eq(&y1, &Term::sub(&y, &Term::int(1))),
    ]);
    let y_nonneg = Term::ge(&y, &zero);
    let layer_one = |s: &mut Session, i: usize| -> SatResult {
        let k = Term::int(i as i64 + 7);
        let pre = Term::and(vec![Term::ge(&x, &k), y_nonneg.clone()]);
        let post = if expected(i) {
            Term::ge(&x1, &Term::int(i as i64 + 8))
        } else {
            Term::ge(&x1, &k)
        };
        s.push();
        s.assert(&pre);
        s.assert(&tr);
        s.assert(&Term::not(&post));
        let r = s.check_sat();
        s.pop();
        r
    };

    // Rounds with fresh processes: where the kernel places the two solver processes relative to this
    // thread (same core or not) changes the per-query cost by tens of microseconds and sticks for a
    // process's lifetime, so each round re-rolls it.
    let rounds = 5.min(queries.div_ceil(200)).max(1);
    let per_round = queries.div_ceil(rounds);
    let chunk = 100usize;
    let mut layer_time = Duration::ZERO;
    let mut raw_time = Duration::ZERO;
    let (mut layer_rates, mut raw_rates) = (Vec::new(), Vec::new());
    let (mut sat, mut unsat) = (0usize, 0usize);
    let (mut layer_cpu, mut raw_cpu) = (Duration::ZERO, Duration::ZERO);
    let mut wrong: Option<String> = None;
    for round in 0..rounds {
        let start = round * per_round;
        let end = ((round + 1) * per_round).min(queries);
        if start >= end {
            break;
        }
        let mut session = Session::new(cfg.clone())?;
        let mut raw = RawPipe::start(&path, kind, &session_startup(&cfg))?;
        // warm-up (declarations, caches, page faults)
        for i in 0..10 {
            let _ = layer_one(&mut session, queries + i);
            raw.check(queries + i)?;
        }
        let chunks = (end - start).div_ceil(chunk);
        for c in 0..chunks {
            let lo = start + c * chunk;
            let hi = (lo + chunk).min(end);
            if lo >= hi {
                break;
            }
            for side in [c % 2 == 0, c % 2 != 0] {
                let c0 = thread_cpu();
                let t0 = Instant::now();
                if side {
                    for i in lo..hi {
                        let r = layer_one(&mut session, i);
                        match (&r, expected(i)) {
                            (SatResult::Sat, true) => sat += 1,
                            (SatResult::Unsat, false) => unsat += 1,
                            _ => {
                                wrong.get_or_insert_with(|| {
                                    format!("layer: query {i} answered {r}")
                                });
                            }
                        }
                    }
                    let el = t0.elapsed();
                    layer_time += el;
                    layer_rates.push((hi - lo) as f64 / el.as_secs_f64().max(1e-9));
                    layer_cpu += thread_cpu().saturating_sub(c0);
                } else {
                    for i in lo..hi {
                        let r = raw.check(i)?;
                        if r != expected(i) {
                            return Err(SmtError::Parse(format!(
                                "raw pipe: query {i} answered sat={r}"
                            )));
                        }
                    }
                    let el = t0.elapsed();
                    raw_time += el;
                    raw_rates.push((hi - lo) as f64 / el.as_secs_f64().max(1e-9));
                    raw_cpu += thread_cpu().saturating_sub(c0);
                }
            }
        }
    }
    if let Some(w) = wrong {
        return Err(SmtError::Parse(w));
    }
    let qps = |d: Duration| queries as f64 / d.as_secs_f64().max(1e-9);
    let (layer_mean_qps, raw_mean_qps) = (qps(layer_time), qps(raw_time));
    let (layer_qps, raw_qps) = (median(&mut layer_rates), median(&mut raw_rates));
    Ok(BenchReport {
        kind,
        queries,
        layer_time,
        raw_time,
        layer_mean_qps,
        raw_mean_qps,
        layer_qps,
        raw_qps,
        ratio: layer_qps / raw_qps,
        sat,
        unsat,
        layer_cpu,
        raw_cpu,
    })
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// CPU time consumed by the calling thread so far.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu() -> Duration {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec (64-bit Linux layout) for the duration of the call.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu() -> Duration {
    Duration::ZERO
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
