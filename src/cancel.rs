//! Cooperative cancellation of the work a thread does, for engines that run side by side.
//!
//! Computes nothing. A thread that may be told to stop installs a flag ([`install`]); another
//! thread holds a [`Canceller`] for it. Once cancelled, the thread's deadline checks report an
//! expired deadline ([`requested`]: `Config::timed_out`, the automata's `Budget`, the Floyd–Hoare
//! automaton), and the watchdog of every solver process the thread started kills the process as
//! soon as the thread waits for it (the wait ends as a timeout). The thread then unwinds as it does
//! when its time is up: with UNKNOWN "timeout", never with a verdict it has not proved.
//!
//! Invariant: a thread without a flag (the default) is never cancelled; cancelling affects only
//! the thread that installed the flag and the solvers it started while the flag was installed.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Stops the thread that installed its flag ([`Canceller::install`], [`install`]).
#[derive(Clone, Debug, Default)]
pub struct Canceller(Arc<AtomicBool>);

impl Canceller {
    /// A fresh flag, not installed on any thread yet.
    pub fn new() -> Canceller {
        Canceller::default()
    }

    /// Makes the current thread cancellable by this handle (until the result is dropped).
    pub fn install(&self) -> Installed {
        let flag = self.0.clone();
        let previous = FLAG.with(|f| f.borrow_mut().replace(flag.clone()));
        Installed { flag, previous }
    }

    /// Asks the thread to stop (it notices at its next deadline check or solver wait).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Release);
    }
}

/// While alive, the current thread can be cancelled by its [`Canceller`]s; dropping it restores
/// the flag that was installed before.
pub struct Installed {
    flag: Arc<AtomicBool>,
    previous: Option<Arc<AtomicBool>>,
}

impl Installed {
    /// A handle that cancels the thread that installed this flag.
    pub fn canceller(&self) -> Canceller {
        Canceller(self.flag.clone())
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let previous = self.previous.take();
        FLAG.with(|f| *f.borrow_mut() = previous);
    }
}

/// Installs a fresh cancellation flag for the current thread (until the result is dropped).
pub fn install() -> Installed {
    Canceller::new().install()
}

/// The current thread's flag, if one is installed (for solver watchdogs started by this thread).
pub fn current() -> Option<Arc<AtomicBool>> {
    FLAG.with(|f| f.borrow().clone())
}

/// Has the current thread been asked to stop?
pub fn requested() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|a| a.load(Ordering::Acquire))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_installing_thread_is_cancelled() {
        assert!(!requested());
        let installed = install();
        let c = installed.canceller();
        let other = std::thread::spawn(move || {
            c.cancel();
            requested()
        });
        assert!(!other.join().unwrap_or(true));
        assert!(requested());
        drop(installed);
        assert!(!requested());
    }

    #[test]
    fn an_inner_flag_restores_the_outer_one() {
        let outer = install();
        let inner = install();
        inner.canceller().cancel();
        assert!(requested());
        drop(inner);
        assert!(!requested());
        outer.canceller().cancel();
        assert!(requested());
    }
}
