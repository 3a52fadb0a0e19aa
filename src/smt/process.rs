//! One solver child process behind pipes, with bounded reads.
//!
//! Design (replaces easy-smt's process layer, tooling notes §2):
//! - commands are written into a buffer and flushed only when a reply is needed, so a Hoare-triple check
//!   costs one `write` and (usually) one `read` syscall; no `:print-success`;
//! - replies are split by [`Splitter`] (paren-, string- and `|symbol|`-aware);
//! - every read has a deadline: on Unix the stdout pipe is `poll(2)`ed with the remaining time (no reader
//!   thread, so no thread hand-off on the hot path); on other platforms reads are not bounded (gap);
//! - stderr is drained by a thread into a bounded buffer and included in error reasons;
//! - an optional log receives every command and every reply (as `; ` comments).

use super::config::SolverKind;
use super::error::SmtError;
use super::sexp::Splitter;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: ChildStdout,
    splitter: Splitter,
    stderr: Arc<Mutex<String>>,
    log: Option<BufWriter<std::fs::File>>,
    read_buf: Box<[u8]>,
    dead: bool,
}

impl SolverProcess {
    pub(crate) fn spawn(
        kind: SolverKind,
        path: &Path,
        args: &[&str],
        log: Option<std::fs::File>,
    ) -> Result<SolverProcess, SmtError> {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
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
        Ok(SolverProcess {
            kind,
            child,
            stdin: BufWriter::with_capacity(1 << 16, stdin),
            stdout,
            splitter: Splitter::new(),
            stderr,
            log: log.map(|f| BufWriter::with_capacity(1 << 16, f)),
            read_buf: vec![0u8; 1 << 16].into_boxed_slice(),
            dead: false,
        })
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
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
        if let Err(e) = self.stdin.write_all(cmd.as_bytes()) {
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

    pub(crate) fn flush(&mut self) -> Result<(), SmtError> {
        if let Some(l) = &mut self.log {
            let _ = l.flush();
        }
        if self.dead {
            return Err(self.died_error("writing"));
        }
        if let Err(e) = self.stdin.flush() {
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
            match self.child.try_wait() {
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

    /// Reads the next complete top-level s-expression, waiting at most until `deadline`.
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
                return Err(ReadError::Eof);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ReadError::Timeout);
            }
            match wait_readable(&self.stdout, deadline - now) {
                Ok(true) => {}
                Ok(false) => return Err(ReadError::Timeout),
                Err(e) => return Err(ReadError::Io(e)),
            }
            match self.stdout.read(&mut self.read_buf) {
                Ok(0) => {
                    self.dead = true;
                    return Err(ReadError::Eof);
                }
                Ok(n) => self.splitter.push(&self.read_buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.dead = true;
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
        let _ = self.child.kill();
    }

    /// Kills the process (idempotent) and reaps it.
    pub(crate) fn kill(&mut self) {
        self.dead = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(unix)]
mod sys {
    use std::os::raw::{c_int, c_short, c_ulong};
    #[repr(C)]
    pub struct PollFd {
        pub fd: c_int,
        pub events: c_short,
        pub revents: c_short,
    }
    pub const POLLIN: c_short = 0x1;
    unsafe extern "C" {
        pub fn poll(fds: *mut PollFd, nfds: c_ulong, timeout: c_int) -> c_int;
    }
}

/// Waits until `r` has data (or EOF / error condition) for at most `d`. `Ok(false)` on timeout.
#[cfg(unix)]
fn wait_readable(r: &ChildStdout, d: std::time::Duration) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    let deadline = Instant::now() + d;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        // round up so that we never spin with a 0 ms timeout before the deadline
        let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
        let mut fds = sys::PollFd {
            fd: r.as_raw_fd(),
            events: sys::POLLIN,
            revents: 0,
        };
        // SAFETY: `fds` is a valid, initialised pollfd array of length 1 that lives across the call, and
        // the descriptor is owned by `r`, which outlives the call.
        let rc = unsafe { sys::poll(&mut fds, 1, ms) };
        if rc > 0 {
            return Ok(true); // readable, hang-up or error: the following read() reports which
        }
        if rc == 0 {
            if Instant::now() >= deadline {
                return Ok(false);
            }
            continue;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Non-Unix fallback: no bounded wait (documented gap); the read itself blocks.
#[cfg(not(unix))]
fn wait_readable(_r: &ChildStdout, _d: std::time::Duration) -> std::io::Result<bool> {
    Ok(true)
}
