//! One solver child process behind pipes, with bounded reads.
//!
//! Design (replaces easy-smt's process layer, tooling notes §2):
//! - commands are written into a buffer and flushed only when a reply is needed, so a Hoare-triple check
//!   costs one `write` and (usually) one `read` syscall; no `:print-success`;
//! - replies are split by [`Splitter`] (paren-, string- and `|symbol|`-aware);
//! - every wait has a deadline, enforced by a per-process watchdog thread: before a blocking write/read the
//!   session arms an atomic deadline (no syscall); the watchdog wakes every few milliseconds and kills a
//!   solver that is past its deadline, which turns the blocking read into end-of-file. This keeps the hot
//!   path at exactly one `write` and one blocking `read` (a `poll(2)` before each read measured ~2x slower
//!   with yices, whose answers take ~15 µs);
//! - stderr is drained by a thread into a bounded buffer and included in error reasons;
//! - an optional log receives every command and every reply (as `; ` comments).

use super::config::SolverKind;
use super::error::SmtError;
use super::sexp::Splitter;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

/// Watchdog resolution.
const TICK: Duration = Duration::from_millis(10);

static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

/// The process ids of the solver processes alive now (for [`cpu_time`]).
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// The processor time this process and its solvers have used so far (user and system, of the
/// process, of its reaped children and of the solver processes alive now), from `/proc`; `None`
/// where `/proc` cannot be read. Unlike the wall clock it hardly grows when the machine is busy
/// with other work, so a decision taken on it does not change with the load.
pub fn cpu_time() -> Option<Duration> {
    // Fields after the command name: state is field 3; utime, stime, cutime, cstime are 14–17.
    fn ticks(stat: &str, fields: std::ops::Range<usize>) -> Option<u64> {
        let rest = &stat[stat.rfind(')')? + 1..];
        let all: Vec<&str> = rest.split_whitespace().collect();
        let mut sum = 0u64;
        for f in fields {
            sum += all.get(f - 3)?.parse::<u64>().ok()?;
        }
        Some(sum)
    }
    let own = std::fs::read_to_string("/proc/self/stat").ok()?;
    let mut total = ticks(&own, 14..18)?;
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for pid in live {
        if let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            total += ticks(&s, 14..16).unwrap_or(0);
        }
    }
    // `/proc` counts in USER_HZ, 100 per second on every Linux architecture.
    Some(Duration::from_millis(total * 10))
}

fn nanos_since_epoch(t: Instant) -> u64 {
    t.saturating_duration_since(*EPOCH)
        .as_nanos()
        .min(u64::MAX as u128 - 1) as u64
        + 1
}

/// State shared with the watchdog thread.
struct Watch {
    /// Armed deadline (nanoseconds since `EPOCH`, +1), 0 when disarmed.
    deadline: AtomicU64,
    /// Set when the watchdog killed the process.
    fired: AtomicBool,
    /// Set when the process object is dropped: the watchdog exits.
    stop: AtomicBool,
    /// The cancellation flag of the thread that started the process ([`crate::cancel`]): once set,
    /// a wait is ended like an expired one.
    cancel: Option<Arc<AtomicBool>>,
    child: Mutex<Child>,
}

impl Watch {
    fn kill(&self) {
        let mut c = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = c.kill();
    }
}

const STDERR_KEEP: usize = 16 * 1024;

/// Outcome of waiting for one reply.
#[derive(Debug)]
pub(crate) enum ReadError {
    Timeout,
    /// End of output (process exited or closed stdout).
    Eof,
    Io(std::io::Error),
}

pub(crate) struct SolverProcess {
    kind: SolverKind,
    pid: u32,
    watch: Arc<Watch>,
    stdin: BufWriter<ChildStdin>,
    stdout: ChildStdout,
    splitter: Splitter,
    stderr: Arc<Mutex<String>>,
    log: Option<BufWriter<std::fs::File>>,
    read_buf: Box<[u8]>,
    dead: bool,
    /// Bound for a write that has to wait for the solver to read (when the buffer spills).
    write_limit: Duration,
}

impl SolverProcess {
    pub(crate) fn spawn(
        kind: SolverKind,
        path: &Path,
        args: &[&str],
        log: Option<std::fs::File>,
        write_limit: Duration,
        niceness: Option<u8>,
    ) -> Result<SolverProcess, SmtError> {
        let command = |nice: Option<u8>| {
            let mut c = match nice {
                // (`nice` execs the solver: the child is the solver itself.)
                Some(n) => {
                    let mut c = Command::new("nice");
                    c.arg("-n").arg(n.to_string()).arg(path);
                    c
                }
                None => Command::new(path),
            };
            c.args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            c
        };
        // Without a `nice` program the solver runs at the inherited priority.
        let mut child = command(niceness)
            .spawn()
            .or_else(|_| command(None).spawn())
            .map_err(|e| SmtError::Io {
                context: format!("starting {}", path.display()),
                source: e,
            })?;
        let (Some(stdin), Some(stdout), Some(mut err)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SmtError::Io {
                context: format!("starting {}", path.display()),
                source: std::io::Error::other("missing pipe"),
            });
        };
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        std::thread::Builder::new()
            .name(format!("{}-stderr", kind.name()))
            .spawn(move || {
                let mut buf = [0u8; 4096];
                loop {
                    match err.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                            s.push_str(&String::from_utf8_lossy(&buf[..n]));
                            if s.len() > STDERR_KEEP {
                                let mut cut = s.len() - STDERR_KEEP / 2;
                                while !s.is_char_boundary(cut) {
                                    cut += 1;
                                }
                                s.drain(..cut);
                            }
                        }
                    }
                }
            })
            .map_err(|e| SmtError::Io {
                context: "starting the stderr reader thread".into(),
                source: e,
            })?;
        let pid = child.id();
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
        let watch = Arc::new(Watch {
            deadline: AtomicU64::new(0),
            fired: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            cancel: crate::cancel::current(),
            child: Mutex::new(child),
        });
        let w = watch.clone();
        std::thread::Builder::new()
            .name(format!("{}-watchdog", kind.name()))
            .spawn(move || {
                while !w.stop.load(Ordering::Acquire) {
                    std::thread::sleep(TICK);
                    let d = w.deadline.load(Ordering::Acquire);
                    let cancelled = w.cancel.as_ref().is_some_and(|c| c.load(Ordering::Acquire));
                    if d != 0 && (cancelled || nanos_since_epoch(Instant::now()) > d) {
                        w.fired.store(true, Ordering::Release);
                        w.kill();
                        w.deadline.store(0, Ordering::Release);
                    }
                }
            })
            .map_err(|e| SmtError::Io {
                context: "starting the watchdog thread".into(),
                source: e,
            })?;
        Ok(SolverProcess {
            kind,
            pid,
            watch,
            stdin: BufWriter::with_capacity(1 << 16, stdin),
            stdout,
            splitter: Splitter::new(),
            stderr,
            log: log.map(|f| BufWriter::with_capacity(1 << 16, f)),
            read_buf: vec![0u8; 1 << 16].into_boxed_slice(),
            dead: false,
            write_limit,
        })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    fn arm(&self, deadline: Instant) {
        self.watch
            .deadline
            .store(nanos_since_epoch(deadline), Ordering::Release);
    }

    fn disarm(&self) {
        self.watch.deadline.store(0, Ordering::Release);
    }

    /// Whether the watchdog killed the process.
    pub(crate) fn timed_out(&self) -> bool {
        self.watch.fired.load(Ordering::Acquire)
    }

    pub(crate) fn is_dead(&self) -> bool {
        self.dead
    }

    /// Captured stderr so far.
    pub(crate) fn stderr_text(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Queues command text (must be complete commands, newline-terminated).
    pub(crate) fn send(&mut self, cmd: &str) -> Result<(), SmtError> {
        if let Some(l) = &mut self.log {
            let _ = l.write_all(cmd.as_bytes());
        }
        if self.dead {
            return Err(self.died_error("writing"));
        }
        // A write that spills the buffer may block until the solver reads: bound it.
        let spills = self.stdin.buffer().len() + cmd.len() > self.stdin.capacity();
        if spills {
            self.arm(Instant::now() + self.write_limit);
        }
        let r = self.stdin.write_all(cmd.as_bytes());
        if spills {
            self.disarm();
        }
        if let Err(e) = r {
            self.dead = true;
            return Err(self.io_error("writing", e));
        }
        Ok(())
    }

    /// Writes a comment line to the log only.
    pub(crate) fn log_comment(&mut self, text: &str) {
        if let Some(l) = &mut self.log {
            for line in text.lines() {
                let _ = writeln!(l, "; {line}");
            }
        }
    }

    /// Sends buffered commands; a solver that stops reading is killed at `deadline`.
    pub(crate) fn flush(&mut self, deadline: Instant) -> Result<(), SmtError> {
        if let Some(l) = &mut self.log {
            let _ = l.flush();
        }
        if self.dead {
            return Err(self.died_error("writing"));
        }
        self.arm(deadline);
        let r = self.stdin.flush();
        self.disarm();
        if let Err(e) = r {
            self.dead = true;
            return Err(self.io_error("writing", e));
        }
        Ok(())
    }

    fn io_error(&mut self, what: &str, e: std::io::Error) -> SmtError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return self.died_error(what);
        }
        SmtError::Io {
            context: format!("{what} ({} pid {})", self.kind, self.pid()),
            source: e,
        }
    }

    /// Error describing a dead process, with exit status (waits briefly) and stderr.
    pub(crate) fn died_error(&mut self, what: &str) -> SmtError {
        self.dead = true;
        let mut status = String::from("still running");
        let until = Instant::now() + std::time::Duration::from_millis(200);
        while Instant::now() < until {
            let r = self.watch.child.lock().map(|mut c| c.try_wait());
            let Ok(r) = r else { break };
            match r {
                Ok(Some(s)) => {
                    status = s.to_string();
                    break;
                }
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        // let the stderr thread catch up
        std::thread::sleep(std::time::Duration::from_millis(5));
        SmtError::Died {
            kind: self.kind,
            status: format!("{status}, while {what}"),
            stderr: self.stderr_text(),
        }
    }

    /// Reads the next complete top-level s-expression, waiting at most until `deadline` (then the
    /// watchdog kills the solver and this returns `Timeout`).
    pub(crate) fn read_expr(&mut self, deadline: Instant) -> Result<String, ReadError> {
        loop {
            if let Some(e) = self.splitter.next_expr() {
                if let Some(l) = &mut self.log {
                    for line in e.lines() {
                        let _ = writeln!(l, "; {line}");
                    }
                }
                return Ok(e);
            }
            if self.dead {
                return Err(if self.timed_out() {
                    ReadError::Timeout
                } else {
                    ReadError::Eof
                });
            }
            if Instant::now() >= deadline {
                return Err(ReadError::Timeout);
            }
            self.arm(deadline);
            let r = self.stdout.read(&mut self.read_buf);
            self.disarm();
            match r {
                Ok(0) => {
                    self.dead = true;
                    return Err(if self.timed_out() {
                        ReadError::Timeout
                    } else {
                        ReadError::Eof
                    });
                }
                Ok(n) => self.splitter.push(&self.read_buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.dead = true;
                    if self.timed_out() {
                        return Err(ReadError::Timeout);
                    }
                    return Err(ReadError::Io(e));
                }
            }
        }
    }

    /// Writes raw text to the log only.
    pub(crate) fn log_raw(&mut self, text: &str) {
        if let Some(l) = &mut self.log {
            let _ = l.write_all(text.as_bytes());
        }
    }

    /// Kills the process without telling the session (simulates a crash; test hook).
    pub(crate) fn kill_silently(&mut self) {
        self.watch.kill();
    }

    /// Kills the process (idempotent) and reaps it.
    pub(crate) fn kill(&mut self) {
        self.dead = true;
        let mut c = self.watch.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = c.kill();
        let _ = c.wait();
        LIVE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p| *p != self.pid);
    }
}

impl Drop for SolverProcess {
    fn drop(&mut self) {
        if let Some(l) = &mut self.log {
            let _ = l.flush();
        }
        if !self.dead {
            // polite exit first; the kill below makes sure nothing lingers
            let _ = self.stdin.write_all(b"(exit)\n");
            let _ = self.stdin.flush();
        }
        self.watch.stop.store(true, Ordering::Release);
        let mut c = self.watch.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = c.kill();
        let _ = c.wait();
        LIVE.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p| *p != self.pid);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This thread's processor time in ticks (user and system).
    fn thread_ticks() -> u64 {
        let s = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
        let rest = &s[s.rfind(')').expect("stat") + 1..];
        let f: Vec<u64> = rest
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0))
            .collect();
        f[11] + f[12]
    }

    #[test]
    fn cpu_time_counts_the_process_and_registers_live_solvers() {
        // `/proc` is there on Linux, the one system the tests run on.
        let t0 = cpu_time().expect("the processor time from /proc");
        // Burn 50 ms of this thread's processor time (not of the wall clock: the machine may be
        // busy); the process's time includes it.
        let start = thread_ticks();
        let mut x = 0u64;
        while thread_ticks() < start + 5 {
            for i in 0..10_000u64 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
            }
        }
        std::hint::black_box(x);
        let t1 = cpu_time().expect("cpu time");
        assert!(t1 >= t0 + Duration::from_millis(40), "{t0:?} -> {t1:?}");
        let Some(session) = crate::smt::z3_for_tests("cpu_time's solver registry") else {
            return;
        };
        let pid = session.pid().expect("a live solver has a pid");
        assert!(LIVE.lock().unwrap().contains(&pid));
        drop(session);
        assert!(!LIVE.lock().unwrap().contains(&pid));
    }
}
