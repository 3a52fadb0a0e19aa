//! Bounded model checking of the block-encoded program: deep error traces found by unrolling the
//! transition relation (Biere, Cimatti, Clarke, Zhu: "Symbolic model checking without BDDs",
//! TACAS 1999), as a bug-finding member that shares the run's time with the CEGAR loop.
//!
//! Trace abstraction refutes one error trace per iteration; when the shortest error trace needs many
//! iterations of a loop (a bound reached by a real-valued clock, say), the refuted traces grow one
//! refinement at a time and the run times out long before it reaches the violation; when the
//! letters are large (a whole automaton step per letter), even a few iterations take the run's
//! time. Here the whole program is unrolled symbolically instead: step `t` is the disjunction over
//! the letters that can be taken at step `t` (those whose source is reachable in `t` letters from
//! the initial location and from whose target an error location is reachable) of
//! `s_{t,a} ⇒ pc_t = src(a) ∧ pc_{t+1} = tgt(a) ∧ a(x_t, x_{t+1}) ∧ frame`, where the frame keeps
//! every variable another letter of the step writes and `a` does not; an error location stutters
//! (`pc_{t+1} = pc_t`, nothing changes), so that `pc_k ∈ Err` at depth `k` asks for an error
//! reached within `k` letters. Quantifiers in positive positions of a letter (intermediate values
//! block encoding left existential) are skolemized with constants of their step, which keeps the
//! formula equisatisfiable and quantifier-free. One solver session holds the unrolling; each query
//! is a push/pop.
//!
//! [`Unroller::advance`] unrolls and queries until a given instant and can be resumed: the CEGAR
//! loop calls it between iterations, and between the interpolant sequences of one refinement (a
//! refinement whose quantifier eliminations run into their limits can take seconds), through
//! [`Unroller::run_due`], with a time share proportional to the time the loop itself took since,
//! so both make progress whichever needs the time.
//!
//! Invariant: the formula at depth `k` is satisfiable iff some error trace of at most `k` letters
//! of the encoding is feasible, and the selectors true in a model name such a trace. The trace is
//! only a *candidate*: it is re-validated edge by edge in a fresh session
//! ([`super::counterexample`]) before UNSAFE is answered. An unsatisfiable depth proves nothing
//! beyond that depth, with one exception: when the unrolling itself (no error location asked for)
//! is unsatisfiable at depth `k`, no execution that can still reach an error location takes `k`
//! letters, and since error locations stutter none reached one before — the program is SAFE
//! (exhaustion, the completeness threshold of a program whose loops are bounded: Kroening and
//! Strichman, "Efficient computation of recurrence diameters", VMCAI 2003, call the bound the
//! diameter). A loop that runs three times over constants, or over memory cells behind pointers,
//! is proved this way in a few queries where the CEGAR loop's interpolants must describe each
//! iteration's state; the proof has no invariants to show.

use super::blocks::Encoded;
use super::cfa::{Cfa, EdgeKind, LocId};
use super::transition::{PVar, Vocabulary};
use super::{Config, Outcome, Stats};
use crate::smt::{SatResult, Session, SolverConfig, SolverKind, Sort, Term, Value, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// The deep search's time, as a share of the CEGAR loop's: it runs between iterations while it has
/// used less than this share of the time the loop used.
const SHARE: f64 = 0.5;
/// The deep search's first burst, as a share of the run's time (before the CEGAR loop has used
/// much), at most [`BURST_MAX`] and at most the loop's own time so far: a program the loop proves
/// in a fraction of a second should not wait for the search (at the default of 60 s the uncapped
/// burst was 3 s; a 0.5 s burst taken after the loop's first 50 ms made 0.1 s proofs take 0.7 s).
const BURST: f64 = 0.05;
const BURST_MAX: Duration = Duration::from_millis(500);
/// The limit of one query, as a share of the run's time (at least [`MIN_QUERY`]): a query that
/// takes longer ends the search (the next, deeper one would take longer still).
const QUERY_SHARE: f64 = 0.1;
const MIN_QUERY: Duration = Duration::from_millis(500);
/// Largest depth of the deep search (letters).
const MAX_DEPTH: usize = 5_000;
/// Most traces whose over-approximated operations' values the search learns before it gives up.
const LEARN_ROUNDS: usize = 64;
/// A proof by exhaustion is the run's answer only once the CEGAR loop has run this many more
/// iterations after it was found, or the run has used [`EXHAUSTION_WAIT`] (or the loop gave up): a
/// CEGAR proof found sooner shows loop invariants, which a user (or a correctness witness) can
/// read, and most of the loop's proofs of small bounded loops take a few iterations. Counted in
/// iterations, so that which proof answers does not depend on the machine's speed or load (a
/// limit in processor time alone made examples whose loop needs about that long answer either
/// way from run to run).
const EXHAUSTION_ITERATIONS: usize = 8;
/// The processor time (of the process and its solvers, not wall time: on a busy machine the wall
/// clock grows two or three times as fast) after which a proof by exhaustion answers even if the
/// loop's iterations are slow. (The proof is answered between two iterations, so a slow iteration
/// delays it further.) It is a backstop far above what the examples' CEGAR proofs take, so that the
/// iteration count decides between the two proofs: at 1 s, a loop needing 0.9 s of processor time
/// answered with its invariants on one machine and by exhaustion on a slower one.
const EXHAUSTION_WAIT: Duration = Duration::from_secs(3);
/// The search runs only when it may run at least this long, and only after the loop has run this
/// long (starting a solver costs about as much; programs the CEGAR loop decides at once never
/// start one).
const MIN_SLICE: Duration = Duration::from_millis(50);

/// What one call of [`Unroller::advance`] ended with.
#[derive(Debug)]
pub enum Found {
    /// A candidate error trace (letters of the encoding, from the initial location).
    Trace(Vec<usize>),
    /// The time was up; the search can be resumed.
    Pending,
    /// The search is over without a trace: no letter can be taken any more, the depth limit was
    /// reached, or the solver failed.
    Done,
    /// No execution of this many letters exists, so no error location is reachable at all: the
    /// program is safe (see [`Unroller::exhausted`]).
    Exhausted(usize),
}

/// Can bounded model checking run on this program? Sequential, non-recursive programs only.
pub fn applicable(cfa: &Cfa) -> bool {
    !cfa.is_concurrent() && !cfa.nested && cfa.limit.is_none()
}

/// Locations from which an error location is reachable (backwards over the letters).
fn coreachable(cfa: &Cfa, enc: &Encoded) -> BTreeSet<LocId> {
    let mut into: BTreeMap<LocId, Vec<LocId>> = BTreeMap::new();
    for l in &enc.letters {
        into.entry(l.tgt).or_default().push(l.src);
    }
    let mut seen: BTreeSet<LocId> = cfa.error_locations().collect();
    let mut work: Vec<LocId> = seen.iter().copied().collect();
    while let Some(l) = work.pop() {
        for s in into.get(&l).into_iter().flatten() {
            if seen.insert(*s) {
                work.push(*s);
            }
        }
    }
    seen
}

/// The incremental unrolling (see the module comment).
pub struct Unroller<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    cfa: &'a Cfa,
    enc: &'a Encoded,
    config: &'a Config,
    session: Option<Session>,
    /// The letters that can lead to an error location.
    letters: Vec<usize>,
    /// Every letter that can lead to an error location is in `letters` (none was left out for its
    /// kind), so the unrolling describes every execution that can reach one: an unsatisfiable
    /// unrolling is a proof ([`Unroller::exhausted`]).
    complete: bool,
    /// Current SSA term of each program variable (constants are never renamed).
    cur: BTreeMap<PVar, Term>,
    /// Locations reachable in exactly `depth` letters (error locations stutter).
    reach: BTreeSet<LocId>,
    /// Per step: (selector, letter) pairs, to read the trace off a model.
    selectors: Vec<Vec<(Term, usize)>>,
    depth: usize,
    /// The depth of the last query.
    checked: Option<usize>,
    /// The largest depth a query answered unsat at (no error trace of at most this many letters).
    refuted: usize,
    done: bool,
    /// Time spent in this search.
    pub time: Duration,
    /// When the run started (the time shares are measured from here).
    created: Instant,
    /// The processor time used when the run started (see [`Unroller::exhaustion`]).
    created_cpu: Option<Duration>,
    /// The last query ran out of its shorter limit (see [`Unroller::advance`]).
    cut: bool,
    /// Traces not confirmed for over-approximated operations whose values were learned (see
    /// [`Unroller::conclude`]).
    learned: usize,
    /// The depth at which the unrolling ran out of executions (the program is safe), and the
    /// CEGAR iterations done then.
    exhausted: Option<usize>,
    exhausted_iteration: usize,
    /// No exhaustion check below this depth: one that ran out of time at depth `d` is asked again
    /// at `2d` (an unrolling the solver cannot show satisfiable in time is usually one of a loop
    /// that keeps running, and the check took as long as the error query it follows).
    exhaust_from: usize,
}

impl<'a, 'p> Unroller<'a, 'p> {
    /// A search over `enc`; the solver starts at the first [`Unroller::advance`].
    pub fn new(
        voc: &'a Vocabulary<'p>,
        cfa: &'a Cfa,
        enc: &'a Encoded,
        config: &'a Config,
    ) -> Self {
        let useful = coreachable(cfa, enc);
        let letters: Vec<usize> = (0..enc.letters.len())
            .filter(|a| {
                let l = &enc.letters[*a];
                useful.contains(&l.tgt) && l.kind == EdgeKind::Plain
            })
            .collect();
        let complete = enc
            .letters
            .iter()
            .filter(|l| useful.contains(&l.tgt))
            .all(|l| l.kind == EdgeKind::Plain);
        Unroller {
            voc,
            cfa,
            enc,
            config,
            session: None,
            letters,
            complete,
            cur: BTreeMap::new(),
            reach: BTreeSet::from([enc.init]),
            selectors: Vec::new(),
            depth: 0,
            checked: None,
            refuted: 0,
            done: !applicable(cfa),
            time: Duration::ZERO,
            created: Instant::now(),
            created_cpu: crate::smt::cpu_time(),
            cut: false,
            learned: 0,
            exhausted: None,
            exhausted_iteration: 0,
            exhaust_from: 0,
        }
    }

    /// The depth unrolled so far (letters).
    pub fn depth(&self) -> usize {
        self.depth
    }

    fn pc(t: usize) -> Term {
        Term::var(&Var::new(format!("bmc!pc@{t}"), Sort::Int))
    }

    fn version(&self, x: PVar, t: usize) -> Option<Term> {
        let base = self.voc.pre(x).ok()?;
        if self.voc.is_const(x) {
            return Some(Term::var(&base));
        }
        Some(Term::var(&Var::new(
            format!("{}@b{t}", base.name),
            base.sort,
        )))
    }

    fn start(&mut self) -> Option<()> {
        if self.session.is_some() {
            return Some(());
        }
        let mut sc = SolverConfig::new(self.config.solver);
        let budget = match self.config.deadline {
            Some(d) => d.saturating_duration_since(self.created),
            None => Duration::from_secs(60),
        };
        sc.query_timeout = Duration::from_secs_f64(self.config.query_timeout_s)
            .min(budget.mul_f64(QUERY_SHARE).max(MIN_QUERY));
        sc.log_dir = self.config.smt_log.clone();
        sc.produce_cores = false;
        sc.produce_models = true;
        let mut session = Session::new(sc).ok()?;
        if self.config.solver == SolverKind::Z3 {
            // The unrolling is one large disjunctive formula over linear arithmetic: z3's older
            // simplex and no relevancy filtering decide it about twice as fast (measured on the
            // priced timed automata's unrollings: 7.3 s against 3.1 s to depth 12; `BENCHMARKS.md`).
            session
                .raw_command("(set-option :smt.arith.solver 2)\n(set-option :smt.relevancy 0)")
                .ok()?;
        }
        for d in &self.cfa.definitions {
            session.assert(d);
        }
        session.assert(&Term::eq(&Self::pc(0), &Term::int(self.enc.init as i64)));
        self.session = Some(session);
        Some(())
    }

    /// Unrolls and queries until `until`. A query gets what is left of the time (at least
    /// [`MIN_SLICE`]; z3 only, the other solvers their session's limit): one cut short is asked
    /// again at the next call, so the search never holds the loop up for long (a query that ran
    /// to the session's limit of 6 s at the default timeout used to: `InvariantSum-2.bpl` took
    /// 4.0 s, now 0.7 s).
    pub fn advance(&mut self, until: Instant) -> Found {
        let t0 = Instant::now();
        let found = self.advance_inner(until);
        self.time += t0.elapsed();
        if matches!(found, Found::Done) {
            self.done = true;
            self.session = None;
        }
        found
    }

    fn advance_inner(&mut self, until: Instant) -> Found {
        if self.done || self.start().is_none() {
            return Found::Done;
        }
        loop {
            let errs: Vec<LocId> = self
                .reach
                .iter()
                .copied()
                .filter(|l| self.cfa.error_of(*l).is_some())
                .collect();
            if !errs.is_empty() && self.checked != Some(self.depth) && due(self.depth, self.checked)
            {
                if Instant::now() >= until || crate::cancel::requested() {
                    return Found::Pending;
                }
                self.checked = Some(self.depth);
                // A query may take what is left of the turn (at least `MIN_SLICE`): one that takes
                // longer is retried at the start of a later turn (each as long as the loop's time
                // allows); one that exceeds the session's limit ends the search.
                let left = until.saturating_duration_since(Instant::now());
                let asked = Instant::now();
                match self.query(self.depth, &errs, left.max(MIN_SLICE)) {
                    Some(Some(trace)) => {
                        return Found::Trace(self.shortest(trace, asked.elapsed()));
                    }
                    Some(None) => {
                        self.refuted = self.depth;
                        let left = until.saturating_duration_since(Instant::now());
                        if self.exhausted(left.max(MIN_SLICE)) {
                            return Found::Exhausted(self.depth);
                        }
                    }
                    None if self.cut => {
                        self.cut = false;
                        self.checked = None;
                        return Found::Pending;
                    }
                    None => return Found::Done,
                }
            }
            if self.depth >= MAX_DEPTH {
                return Found::Done;
            }
            if Instant::now() >= until || crate::cancel::requested() {
                return Found::Pending;
            }
            match self.step(&errs) {
                Some(true) => {}
                Some(false) | None => return Found::Done,
            }
        }
    }

    /// A shortest error trace, given `trace` (found by a query that took `took`): which of the
    /// traces of at most the queried depth the model names depends on the solver's state, which
    /// depends on how earlier queries were cut short by the clock, so without this the
    /// counterexample could differ from run to run under load. Queries one letter shorter first
    /// (usually the trace is already shortest, and one query proves it), then bisects down to the
    /// last refuted depth. Each query gets twice the time of the one that found `trace` (at least
    /// [`MIN_SLICE`]); one that runs out keeps the shortest trace so far.
    fn shortest(&mut self, mut trace: Vec<usize>, took: Duration) -> Vec<usize> {
        let errs: Vec<LocId> = self.cfa.error_locations().collect();
        let limit = (took * 2).max(MIN_SLICE);
        let mut lo = self.refuted;
        let mut first = true;
        while trace.len() > lo + 1 {
            let mid = if first {
                trace.len() - 1
            } else {
                lo + (trace.len() - lo) / 2
            };
            first = false;
            match self.query(mid, &errs, limit) {
                Some(Some(shorter)) if shorter.len() < trace.len() => trace = shorter,
                Some(None) => lo = mid,
                _ => break,
            }
        }
        self.cut = false;
        trace
    }

    /// Is an error location in `errs` reached within `depth` letters (at most the depth unrolled),
    /// asked within `limit`? `Some(Some(trace))`: yes; `Some(None)`: no; `None`: the solver failed,
    /// or ran out of a limit shorter than the session's (then `cut` is set).
    fn query(
        &mut self,
        depth: usize,
        errs: &[LocId],
        limit: Duration,
    ) -> Option<Option<Vec<usize>>> {
        let session = self.session.as_mut()?;
        // (Only z3 takes a shorter limit for one query: see `Session::check_sat_within`.)
        let shorter =
            session.config().kind == SolverKind::Z3 && limit < session.config().query_timeout;
        session.push();
        let pc = Self::pc(depth);
        let at_err = Term::or(
            errs.iter()
                .map(|e| Term::eq(&pc, &Term::int(*e as i64)))
                .collect(),
        );
        session.assert(&at_err);
        let result = match session.check_sat_within(limit) {
            SatResult::Sat => {
                let sel: Vec<Term> = self
                    .selectors
                    .iter()
                    .flatten()
                    .map(|(s, _)| s.clone())
                    .collect();
                match session.get_values(&sel) {
                    Ok(values) => {
                        let truth: HashMap<Term, bool> = values
                            .into_iter()
                            .map(|(t, v)| (t, matches!(v, Value::Bool(true))))
                            .collect();
                        let mut trace = Vec::new();
                        for step in &self.selectors {
                            match step.iter().find(|(s, _)| truth.get(s) == Some(&true)) {
                                Some((_, a)) => trace.push(*a),
                                None => break, // stuttering at the error location
                            }
                        }
                        Some(Some(trace))
                    }
                    Err(_) => None,
                }
            }
            SatResult::Unsat => Some(None),
            SatResult::Unknown(_) => {
                self.cut = shorter;
                None
            }
        };
        session.pop();
        result
    }

    /// Is the unrolling itself unsatisfiable (asked within `limit`)? Then no execution takes
    /// `depth` letters of `letters`. An error location stutters, so an execution reaching one
    /// within `depth` letters would satisfy it, and a longer one's first `depth` letters would:
    /// no error location is reachable at all. Sound only when the unrolling covers every letter
    /// that can lead to an error location (`complete`; the search runs only on sequential programs
    /// without call letters and without an instance bound, see [`applicable`]); letters whose
    /// existentials were skolemized are equisatisfiable, uninterpreted over-approximations only
    /// add executions, so `unsat` stays a proof. `false` when the solver finds an execution or does
    /// not answer in time.
    fn exhausted(&mut self, limit: Duration) -> bool {
        if !self.complete || self.depth == 0 || self.depth < self.exhaust_from {
            return false;
        }
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        let shorter =
            session.config().kind == SolverKind::Z3 && limit < session.config().query_timeout;
        match session.check_sat_within(limit) {
            SatResult::Unsat => true,
            SatResult::Sat => false,
            SatResult::Unknown(_) => {
                // asked again at twice the depth (the error queries in between go first)
                self.cut |= shorter;
                self.exhaust_from = 2 * self.depth;
                false
            }
        }
    }

    /// Asserts step `depth` → `depth + 1`. `Some(false)`: no letter can be taken and no error
    /// location is reached (no deeper trace exists); `None`: a variable has no solver name.
    fn step(&mut self, errs: &[LocId]) -> Option<bool> {
        let t = self.depth;
        let (voc, enc) = (self.voc, self.enc);
        let step: Vec<usize> = self
            .letters
            .iter()
            .copied()
            .filter(|a| self.reach.contains(&enc.letters[*a].src))
            .collect();
        let written: BTreeSet<PVar> = step
            .iter()
            .flat_map(|a| enc.letters[*a].tf.writes.iter().copied())
            .filter(|x| !voc.is_const(*x))
            .collect();
        // The value of every variable some letter of the step reads or writes, before the step.
        for &a in &step {
            for x in enc.letters[a].tf.vars() {
                if !self.cur.contains_key(&x) {
                    let v = self.version(x, t)?;
                    self.cur.insert(x, v);
                }
            }
        }
        let mut next = self.cur.clone();
        for &x in &written {
            next.insert(x, self.version(x, t + 1)?);
        }
        let (pc, pc1) = (Self::pc(t), Self::pc(t + 1));
        let mut disjuncts = Vec::new();
        let mut sels = Vec::new();
        let mut asserts = Vec::new();
        // Existentials left in a letter (intermediate values block encoding could not eliminate)
        // become constants of this step: the unrolling stays quantifier-free, which the solver
        // decides much faster (measured: the priced timed automata's depth-12 query).
        let mut skolems = 0usize;
        let mut fresh = |v: &Var| {
            skolems += 1;
            Var::new(format!("{}@k{t}_{skolems}", v.name), v.sort.clone())
        };
        for &a in &step {
            let letter = &enc.letters[a];
            let tf = &letter.tf;
            let mut map: HashMap<Var, Term> = HashMap::new();
            for v in tf.formula.free_vars() {
                let term = match voc.lookup(&v) {
                    Some((x, false)) => self.cur.get(&x)?.clone(),
                    Some((x, true)) => next.get(&x)?.clone(),
                    None => Term::var(&Var::new(format!("{}@b{t}", v.name), v.sort.clone())),
                };
                map.insert(v, term);
            }
            let mut parts = vec![
                Term::eq(&pc, &Term::int(letter.src as i64)),
                Term::eq(&pc1, &Term::int(letter.tgt as i64)),
                tf.formula.substitute(&map).skolemize(&mut fresh),
            ];
            for x in written.iter().filter(|x| !tf.writes.contains(x)) {
                parts.push(Term::eq(next.get(x)?, self.cur.get(x)?));
            }
            let s = Term::var(&Var::new(format!("bmc!s{t}_{a}"), Sort::Bool));
            asserts.push(Term::implies(&s, &Term::and(parts)));
            disjuncts.push(s.clone());
            sels.push((s, a));
        }
        if !errs.is_empty() {
            // Stutter at an error location.
            let stay = Term::var(&Var::new(format!("bmc!stay{t}"), Sort::Bool));
            let mut parts = vec![
                Term::or(
                    errs.iter()
                        .map(|e| Term::eq(&pc, &Term::int(*e as i64)))
                        .collect(),
                ),
                Term::eq(&pc1, &pc),
            ];
            for x in &written {
                parts.push(Term::eq(next.get(x)?, self.cur.get(x)?));
            }
            asserts.push(Term::implies(&stay, &Term::and(parts)));
            disjuncts.push(stay);
        }
        if disjuncts.is_empty() {
            return Some(false);
        }
        asserts.push(Term::or(disjuncts));
        let session = self.session.as_mut()?;
        for a in &asserts {
            session.assert(a);
        }
        self.selectors.push(sels);
        self.reach = step
            .iter()
            .map(|a| enc.letters[*a].tgt)
            .chain(errs.iter().copied())
            .collect();
        self.cur = next;
        self.depth += 1;
        Some(true)
    }

    /// Runs the search between two CEGAR iterations if it is due — it has used less than its
    /// share of the time the rest of the run took — until it has used its share: UNSAFE when a
    /// trace it finds re-validates, SAFE when the unrolling ran out of executions and the loop has
    /// had its time for a proof of its own (see [`Unroller::exhaustion`]); `None` otherwise (the
    /// CEGAR loop goes on).
    pub fn run_due(&mut self, stats: &mut Stats) -> Option<Outcome> {
        if self.exhausted.is_some() {
            return self.exhaustion(stats, false);
        }
        if self.done {
            return None;
        }
        let own = self.created.elapsed().saturating_sub(self.time);
        if own < MIN_SLICE {
            return None;
        }
        // A burst first (a shallow violation behind large letters is found at once), then the
        // share of the loop's time. The burst grows with the loop's time up to its size: a
        // program the loop proves in 0.1 s does not wait for a 0.5 s burst.
        let burst = match self.config.deadline {
            Some(d) => d.saturating_duration_since(self.created).mul_f64(BURST),
            None => BURST_MAX,
        }
        .min(BURST_MAX)
        .min(own);
        let allowed = own.mul_f64(SHARE) + burst;
        if self.time + MIN_SLICE > allowed {
            return None;
        }
        let mut until = Instant::now() + (allowed - self.time);
        if let Some(d) = self.config.deadline {
            until = until.min(d);
        }
        let found = self.advance(until);
        stats.bmc_runs += 1;
        stats.bmc_time = self.time;
        stats.bmc_depth = self.depth;
        if super::cegar::debug() {
            eprintln!(
                "deep search: {found:?} at depth {} after {:.3} s",
                self.depth,
                self.time.as_secs_f64()
            );
        }
        self.conclude(found, stats, false)
    }

    /// After the CEGAR loop gave up (UNKNOWN): the search's proof by exhaustion if it has one,
    /// else the search goes on until `until` (UNSAFE or SAFE as in [`Unroller::run_due`]).
    pub fn rescue(&mut self, until: Instant, stats: &mut Stats) -> Option<Outcome> {
        if self.exhausted.is_some() {
            return self.exhaustion(stats, true);
        }
        while !self.done && Instant::now() < until && !crate::cancel::requested() {
            stats.bmc_runs = stats.bmc_runs.max(1);
            let found = self.advance(until);
            stats.bmc_time = self.time;
            stats.bmc_depth = self.depth;
            if super::cegar::debug() {
                eprintln!(
                    "deep search after the loop: {found:?} at depth {}",
                    self.depth
                );
            }
            if let Some(o) = self.conclude(found, stats, true) {
                return Some(o);
            }
        }
        None
    }

    /// What the search found, as an outcome of the run: UNSAFE for a trace that re-validates; SAFE
    /// by exhaustion (at once if `now`, else once the loop has had [`EXHAUSTION_ITERATIONS`] or
    /// the run [`EXHAUSTION_WAIT`]: a CEGAR proof within that shows its invariants); `None` for
    /// anything else. A trace that does
    /// not re-validate because an over-approximated operation took another value than the
    /// program's teaches the search those values (below); any other ends the search.
    fn conclude(&mut self, found: Found, stats: &mut Stats, now: bool) -> Option<Outcome> {
        let letters = match found {
            Found::Trace(letters) => letters,
            Found::Exhausted(depth) => {
                self.done = true;
                self.session = None;
                self.exhausted = Some(depth);
                self.exhausted_iteration = stats.iterations;
                return self.exhaustion(stats, now);
            }
            Found::Pending | Found::Done => return None,
        };
        let fresh = Session::new(super::cegar::session_config(
            self.config,
            self.config.solver,
            false,
        ))
        .map_err(|e| e.to_string());
        let (o, points) =
            super::counterexample::outcome(self.voc, self.cfa, self.enc, &letters, fresh, stats);
        if o.verdict == super::Verdict::Unsafe {
            self.done = true;
            self.session = None;
            return Some(o);
        }
        if super::cegar::debug() {
            eprintln!(
                "deep search: trace not confirmed ({} facts learned): {:?}",
                points.len(),
                o.reason
            );
        }
        // The trace went through over-approximated operations at values where they differ from
        // the program's: their values there are facts of every execution. Asserted, they exclude
        // this trace (and every other through those points), and the search goes on at the same
        // depth — a computation over constants gets all its values this way, and then the
        // unrolling can run out of executions.
        match self.session.as_mut() {
            Some(session) if !points.is_empty() && self.learned < LEARN_ROUNDS => {
                self.learned += 1;
                for p in &points {
                    session.assert(p);
                }
                self.checked = None;
            }
            _ => {
                self.done = true;
                self.session = None;
            }
        }
        None
    }

    /// The processor time the run has used since the search was created (the process's and its
    /// solvers'; wall time where that cannot be read).
    fn age(&self) -> Duration {
        match (self.created_cpu, crate::smt::cpu_time()) {
            (Some(start), Some(t)) => t.saturating_sub(start),
            _ => self.created.elapsed(),
        }
    }

    /// When the proof by exhaustion the search holds becomes the run's answer if the CEGAR loop has
    /// not answered by then (see [`Unroller::exhaustion`]): `None` without such a proof. Processor
    /// time is estimated to pass as fast as wall time (the loop waits for its solvers, whose time
    /// counts), so the instant may come a little early on a busy machine; the loop then gives its
    /// turn back a little early, nothing worse.
    pub fn answer_due(&self) -> Option<Instant> {
        self.exhausted?;
        let age = self.age();
        Some(Instant::now() + EXHAUSTION_WAIT.saturating_sub(age))
    }

    /// SAFE by exhaustion, if the unrolling ran out of executions, and `now`, or the CEGAR loop
    /// has run [`EXHAUSTION_ITERATIONS`] iterations since, or the run has used [`EXHAUSTION_WAIT`]
    /// of processor time (of wall time where that cannot be read).
    fn exhaustion(&self, stats: &mut Stats, now: bool) -> Option<Outcome> {
        let depth = self.exhausted?;
        let age = self.age();
        let waited = stats.iterations >= self.exhausted_iteration + EXHAUSTION_ITERATIONS;
        if !now && !waited && age < EXHAUSTION_WAIT {
            return None;
        }
        let reason = format!(
            "by bounded model checking to exhaustion: no execution that can reach an error \
             location runs for {depth} steps, and none reaches one in fewer"
        );
        stats.bmc_exhausted = depth;
        Some(Outcome::safe(Some(reason), Vec::new(), stats.clone()))
    }
}

/// Whether to query at `depth` when the last query was at `last`: at every depth up to 8, then
/// whenever the depth has grown by a quarter (each query also covers the smaller depths, since error
/// locations stutter, and deep queries cost more).
fn due(depth: usize, last: Option<usize>) -> bool {
    match last {
        None => true,
        Some(l) => depth <= 8 || depth >= l + (l / 4).max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{blocks, cfa};
    use crate::ir::test_program as program;

    /// Each iteration adds 1 or 2 to `x`; the assertion fails once `x` reaches 11, after 6
    /// iterations at the earliest and after 11 at the latest.
    const STEPS: &str = "
        procedure ULTIMATE.start() {
          var x, d: int;
          x := 0;
          while (true) { havoc d; assume d == 1 || d == 2; x := x + d; assert x < 11; }
        }";

    /// Runs `f` on a fresh search over `src` (large-block encoded, z3 started).
    fn with_unroller<R>(src: &str, f: impl FnOnce(&mut Unroller, &Cfa, &Encoded) -> R) -> R {
        let p = program(src);
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let enc = blocks::encode(&c, &voc, crate::engine::BlockEncoding::Large).expect("encoding");
        let config = Config::default();
        let mut u = Unroller::new(&voc, &c, &enc, &config);
        u.start().expect("z3 starts");
        f(&mut u, &c, &enc)
    }

    /// Asserts the next step of `u` (which must be possible).
    fn step_on(u: &mut Unroller, c: &Cfa) {
        let errs: Vec<LocId> = u
            .reach
            .iter()
            .copied()
            .filter(|l| c.error_of(*l).is_some())
            .collect();
        assert_eq!(u.step(&errs), Some(true));
    }

    /// Unrolls `src` to `depth` letters, querying and asking for exhaustion at every depth, as
    /// `advance` does: the depth at which the unrolling was exhausted, if any.
    fn exhaustion_depth(src: &str, depth: usize) -> Option<usize> {
        with_unroller(src, |u, c, _| {
            let all: Vec<LocId> = c.error_locations().collect();
            while u.depth < depth {
                step_on(u, c);
                if u.query(u.depth, &all, Duration::from_secs(5)) == Some(None)
                    && u.exhausted(Duration::from_secs(5))
                {
                    return Some(u.depth);
                }
            }
            None
        })
    }

    /// A loop that runs three times before a safe assertion: the unrolling runs out of executions,
    /// which proves the assertion; the same loop with an input-dependent bound never does, and
    /// neither does one whose assertion fails (the error location stutters).
    #[test]
    fn an_unrolling_without_executions_proves_safety() {
        let bounded = "
            procedure ULTIMATE.start() {
              var x, i: int;
              x := 0; i := 0;
              while (i < 3) { x := x + 2; i := i + 1; }
              assert x == 6;
            }";
        assert!(exhaustion_depth(bounded, 20).is_some());
        let unbounded = "
            procedure ULTIMATE.start() {
              var x, i, n: int;
              x := 0; i := 0; havoc n;
              while (i < n) { x := x + 2; i := i + 1; }
              assert x >= 0;
            }";
        assert_eq!(exhaustion_depth(unbounded, 20), None);
        let failing = "
            procedure ULTIMATE.start() {
              var x, i: int;
              x := 0; i := 0;
              while (i < 3) { x := x + 2; i := i + 1; }
              assert x == 7;
            }";
        assert_eq!(exhaustion_depth(failing, 20), None);
        assert_eq!(exhaustion_depth(STEPS, 20), None);
    }

    /// Unrolled well past the shortest violation, the search still reports a shortest trace: given
    /// a longer one, it bisects down to the length below which every depth is refuted.
    #[test]
    fn the_deep_search_reports_a_shortest_trace() {
        with_unroller(STEPS, |u, c, enc| {
            while u.depth < 30 {
                step_on(u, c);
            }
            let trace = u.shortest(vec![0; 30], Duration::from_secs(1));
            let errs: Vec<LocId> = c.error_locations().collect();
            let n = trace.len();
            assert!(n > 6 && n < 30, "{trace:?}");
            assert_eq!(u.query(n - 1, &errs, Duration::from_secs(5)), Some(None));
            // and the trace is a path from the initial location to an error location
            assert_eq!(enc.letters[trace[0]].src, enc.init);
            for w in trace.windows(2) {
                assert_eq!(enc.letters[w[0]].tgt, enc.letters[w[1]].src);
            }
            assert!(c.error_of(enc.letters[trace[n - 1]].tgt).is_some());
        });
    }
}
