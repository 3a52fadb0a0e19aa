//! Budgets and cooperative cancellation for automata operations, and their error type.
//!
//! Computes nothing; every loop of the explorer and of the emptiness check calls
//! [`Budget::check`] once per expanded state (Ultimate's `isCancellationRequested` convention in
//! `GeneralOperation`). Invariant: an operation stopped by its budget returns
//! [`ExploreError::Cancelled`] and never a partial result.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Limits for one automata operation. The default is unlimited.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Stop when this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop when more than this many states have been visited.
    pub max_states: Option<usize>,
    /// Stop when this flag is set (e.g. by another thread, or by a signal handler).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limits.
    pub fn unlimited() -> Self {
        Self::default()
    }

    /// Sets a deadline.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Sets a limit on the number of visited states.
    pub fn with_max_states(mut self, max_states: usize) -> Self {
        self.max_states = Some(max_states);
        self
    }

    /// Sets a cancellation flag.
    pub fn with_cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Returns `Err` if the operation must stop, having visited `visited_states` states so far.
    pub fn check(&self, visited_states: usize) -> Result<(), Cancelled> {
        // (Or the thread's own flag, [`crate::cancel`].)
        if self
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
            || crate::cancel::requested()
        {
            return Err(Cancelled::Requested);
        }
        if let Some(max) = self.max_states
            && visited_states > max
        {
            return Err(Cancelled::StateLimit(max));
        }
        if let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(Cancelled::Deadline);
        }
        Ok(())
    }
}

/// Why an operation stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancelled {
    /// The deadline passed.
    Deadline,
    /// More states than the given limit were visited.
    StateLimit(usize),
    /// The cancellation flag was set.
    Requested,
}

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cancelled::Deadline => write!(f, "timeout"),
            Cancelled::StateLimit(n) => write!(f, "state limit of {n} exceeded"),
            Cancelled::Requested => write!(f, "cancelled"),
        }
    }
}

/// The error of an exploring operation: cancelled by its budget, or a successor computation of the
/// (subtrahend of the) automaton failed with `E`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExploreError<E> {
    /// The budget ran out.
    Cancelled(Cancelled),
    /// A successor could not be computed.
    Successor(E),
}

impl<E> From<Cancelled> for ExploreError<E> {
    fn from(c: Cancelled) -> Self {
        ExploreError::Cancelled(c)
    }
}

impl<E: fmt::Display> fmt::Display for ExploreError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExploreError::Cancelled(c) => write!(f, "{c}"),
            ExploreError::Successor(e) => write!(f, "{e}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ExploreError<E> {}
