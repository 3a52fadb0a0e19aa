//! Termination by Büchi trace abstraction (Heizmann, Hoenicke, Podelski, "Termination Analysis by
//! Learning Terminating Programs", CAV 2014: Ultimate's Büchi Automizer; design notes §6).
//!
//! # What it computes
//!
//! The *Büchi program automaton* is the block-encoded CFA ([`blocks::encode_all`]; the caller
//! picks the encoding) read as a Büchi automaton in which every location is accepting: its
//! infinite words are the control paths of the program's infinite executions (an execution that
//! blocks or returns is finite). A letter on no cycle whose formula is a disjunction (`i != 0`: `i
//! < 0 ∨ i > 0`) becomes one letter per disjunct ([`blocks::split_disjunctions`], Ultimate's small
//! block encoding), so that each case of a stem is a lasso of its own, with its own ranking
//! function and supporting invariant; the disjuncts' union is the letter, so the runs are the
//! same. A reachable error location gets a *stutter* letter (a self-loop that changes nothing):
//! whether an execution that fails an assertion stops or goes on is open (docs/IR.md), so such a
//! path must be shown infeasible before TERMINATING, and no nontermination is claimed through it.
//!
//! The loop keeps an abstraction `A` (initially the program automaton) and repeats:
//! 1. an accepting lasso `stem · loop^ω` of `A \ FH` ([`accepting_lasso`] on the lazy
//!    [`Difference`] with the Floyd–Hoare automaton `FH` of the finite refinements); none: every
//!    infinite word is refuted, TERMINATING;
//! 2. the lasso check in Büchi Automizer's order: the stem feasible? the loop (from any state)? the
//!    stem followed by the loop? An infeasible part is proved by interpolants (the trace check and
//!    interpolation of the safety engine) that go into `FH` (a *finite* refinement: every word with
//!    that infeasible factor is removed);
//! 3. a fixpoint of the lasso ([`ranking::fixpoint_of`]): NONTERMINATING;
//! 4. a ranking function for the lasso ([`ranking::certificate`] on the lasso's own encoding — the
//!    stem composed into one letter to the loop head `h`, the loop into one letter `h → h` —, the
//!    loop alone first, then with supporting invariants from the stem; affine, nested, multiphase
//!    and lexicographic templates by Farkas' lemma, re-checked in a fresh session): a *Büchi*
//!    refinement by a rank certificate (below), then `A := A \ R` by NCSB complementation
//!    ([`BuchiDifference`]), materialised and trimmed ([`remove_buchi_dead_ends`]); a loop that
//!    cannot run twice in a row is a finite refinement of `stem · loop · loop`;
//! 5. a geometric nontermination argument ([`gnta::argument_of`]) or, before the loop is
//!    unrolled, a closed recurrence set ([`recurrence::argument_of`]): NONTERMINATING;
//! 6. otherwise the loop is appended to the stem once and 3–5 retried; then UNKNOWN with the lasso.
//!
//! **Concurrent programs.** The program automaton is the interleaving product
//! ([`Interleaving`]) of one instance per fork statement, its configurations materialised, every
//! one accepting (a fork that finds its instance in use ends the analysis: UNKNOWN); letters are
//! actions of thread instances, and everything above applies to them unchanged. The loop head
//! (where the honda may hold) is the location the loop's last letter enters — the first letter's
//! source in a sequential program. Before the loop, closed walks of a few letters through each
//! configuration are tried for a fixpoint ([`Run::guess_fixpoints`]): nontermination by threads
//! taking turns has no one-thread cycle. A nonterminating lasso is reported only when it is
//! weakly fair ([`Run::fair`]): a thread that does not move in the loop must be unable to move
//! (control only) somewhere along it, so no answer rests on a scheduler that starves a thread.
//!
//! **Rank certificates** (Büchi Automizer's `BinaryStatePredicateManager`). With the ranking
//! function's components `f` at `h`, ghost variables `old` (one per component) and a ghost boolean
//! `unseeded`, the relation `Dec(old, f(x))` says that `f` went down since `old` was taken: a
//! disjunction over the lexicographic levels `j` of "the affine levels before `j` did not increase
//! and level `j` decreased" (affine: `f ≤ old - 1 ∧ old ≥ 0`; nested and multiphase: the template's
//! conditions with `old` for the previous values). `R` is a semi-deterministic Büchi automaton over
//! the letters whose states are sets of predicates:
//! - the *stem part* (nondeterministic in `R`, deterministic here): sets of `unseeded ∧ I` for the
//!   interpolants `I` of `stem · assume ¬SI` (`SI` the supporting invariant at `h`), from
//!   `{unseeded}`;
//! - the *loop part* (deterministic): sets of the predicates `H = SI ∧ (unseeded ∨ Dec)` (the
//!   honda), the strongest posts along the loop from `SI ∧ ¬unseeded ∧ old = f` (through the
//!   letter into `h` of each part of a loop that passes `h` more than once), and `¬unseeded ∧ Dec`
//!   and `¬unseeded ∧ old = f`, with and without `SI` (the posts say how far `f` fell and what
//!   else held on the lasso, which a loop that runs the falling letter more often, or other
//!   letters in between, never matches); a state with
//!   `H` is accepting; a stem state may also enter the loop part on a letter after which `H` holds.
//!   `H` is a candidate only after a letter into the loop head `h` (elsewhere a rank that fell
//!   early would re-seed mid-loop, and the posts from the head's seed would no longer follow).
//!   The candidates that hold are found Houdini-style: one query for the conjunction of the open
//!   ones, each model refuting those false in it.
//!
//! A transition `S -a-> S'` exists when `{S} a {p}` is valid for every `p ∈ S'` (and `S'` is the set
//! of all such candidates), except that leaving an accepting state first *re-seeds*: `old := f(x),
//! unseeded := false`, so the precondition is `SI ∧ ¬unseeded ∧ old = f` and the ghost-free
//! predicates of `S`. Why `R` accepts only words without infinite executions: along an infinite
//! execution of a word that `R` accepts, the ghosts evolve as said (initially `unseeded`), every
//! state's predicates hold, and at the accepting visits after the first one `Dec(f at the previous
//! visit, f now)` holds — an infinite descending chain of a well-founded relation (each template is
//! one; a lexicographic combination of them is one).
//!
//! # Soundness invariant
//!
//! TERMINATING only when the lasso search found no lasso in `A \ FH` and every rank transition that
//! the refinements used was re-checked `unsat` in a fresh session; `FH`'s transitions are Hoare
//! triples checked by [`crate::engine::hoare`], as in the safety engine; the NCSB difference is
//! property-tested against a brute-force reference (`tests/automata.rs`). Every infinite execution
//! is a word of the program automaton; a refinement removes only words that `FH` proves infeasible
//! or that `R` accepts. NONTERMINATING only from a lasso of the program automaton (its letters
//! exact, no stutter letter) with a fixpoint, a geometric argument or a recurrence set
//! re-validated in a fresh session by the modules that found them, and, for a concurrent program,
//! weakly fair.

use super::ranking::{self, Answer, Certificate, Failure};
use super::{gnta, linear::Q, recurrence};
use crate::automata::{
    BuchiDifference, Budget, Difference, ExploreError, Nfa, SemiDeterministicAutomaton,
    accepting_lasso, explore, remove_buchi_dead_ends,
};
use crate::engine::blocks::{self, Encoded, Letter, LetterId};
use crate::engine::cegar::debug;
use crate::engine::cfa::{self, Cfa, EdgeKind, LocId};
use crate::engine::floyd_hoare::{FloydHoare, Interrupted};
use crate::engine::hoare::{HoareChecker, primed};
use crate::engine::interleaving::{Conf, Interleaving};
use crate::engine::interpolate::{self, Direction, Settings};
use crate::engine::predicates::FALSE_STATE;
use crate::engine::stats::Stats;
use crate::engine::tracecheck::{self, Feasibility};
use crate::engine::transition::{self, TransFormula, Vocabulary};
use crate::engine::{BlockEncoding, Config, pretty};
use crate::ir::Program;
use crate::smt::{SatResult, Session, Sort, Term, Value, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

/// What the loop did (`--stats`).
#[derive(Clone, Debug, Default)]
pub struct Work {
    /// Iterations (lasso searches).
    pub iterations: usize,
    /// Lassos checked.
    pub lassos: usize,
    /// Finite refinements (an infeasible stem, loop or stem and loop).
    pub finite: usize,
    /// Büchi refinements by rank certificates.
    pub ranked: usize,
    /// Ranking syntheses tried on lassos.
    pub ranking_attempts: usize,
    /// States of the largest abstraction.
    pub states: usize,
    /// Hoare triples of rank certificates checked by the solver.
    pub rank_triples: usize,
    /// The Floyd–Hoare automaton's counters.
    pub fh: Stats,
    /// Solver checks of the lassos' ranking syntheses.
    pub ranking_queries: usize,
}

impl Work {
    /// Adds this run's counters to the termination statistics.
    pub fn record(&self, t: &mut crate::engine::stats::TerminationStats) {
        t.buchi_iterations += self.iterations;
        t.lassos += self.lassos;
        t.finite_refinements += self.finite;
        t.rank_refinements += self.ranked;
        t.lasso_rankings += self.ranking_attempts;
        t.abstraction_states = self.states;
        t.rank_triples += self.rank_triples;
        t.ranking_queries += self.ranking_queries;
    }
}

/// Why a nonterminating lasso of a concurrent program is not reported.
const UNFAIR: &str = "a nonterminating lasso on which a thread that may move never does (unfair)";

/// Finite refinements before the refuted traces' comparisons become candidates.
const ATOMS_AFTER: usize = 2;
/// (Location, comparison) candidates added in a run at most.
const MAX_ATOMS: usize = 256;

/// The longest closed walk [`Run::guess_fixpoints`] tries, in letters.
const GUESS_LENGTH: usize = 6;
/// Closed walks enumerated per configuration at most.
const MAX_WALKS: usize = 2_000;
/// Fixpoint queries of [`Run::guess_fixpoints`] at most.
const MAX_GUESSES: usize = 32;

/// Lassos at most (each may cost a ranking synthesis).
const MAX_LASSOS: usize = 64;
/// States of an abstraction (or of one lasso search) at most.
const MAX_STATES: usize = 100_000;

/// Letters on no cycle that are disjunctions of at most this many disjuncts become one letter per
/// disjunct ([`blocks::split_disjunctions`]).
const SPLIT_MAX: usize = 8;

/// Tries to decide termination of `program` before `deadline` (module comment).
pub fn prove(
    program: &Program,
    config: &Config,
    deadline: Option<Instant>,
    mode: BlockEncoding,
    work: &mut Work,
) -> Answer {
    let voc = Vocabulary::new(program);
    let mut cfa = match cfa::build(&voc, config.max_locations) {
        Ok(c) => c,
        Err(e) => return Answer::Unknown(e.to_string()),
    };
    super::slice_cfa(&mut cfa, &voc, config);
    let mut enc = match blocks::encode_all(&cfa, &voc, mode) {
        Ok(e) => e,
        Err(u) => return Answer::Unknown(format!("unsupported: {}", u.0)),
    };
    // Only letters on no cycle (stems): a loop's disjuncts need one ranking function anyway, and
    // splitting them multiplies the lassos.
    let cyclic: BTreeSet<LetterId> = ranking::sccs(&enc, &ranking::reachable_letters(&enc))
        .into_iter()
        .flatten()
        .collect();
    blocks::split_disjunctions(&mut enc, SPLIT_MAX, |a| !cyclic.contains(&a));
    let stutter = enc.letters.len();
    for e in blocks::reachable_errors(&cfa, &enc) {
        let id = enc.letters.len();
        enc.letters.push(Letter {
            src: e,
            tgt: e,
            tf: TransFormula::skip(),
            edges: BTreeSet::new(),
            kind: EdgeKind::Plain,
        });
        enc.out[e].push(id);
    }
    let abs = if cfa.is_concurrent() {
        match interleaving_automaton(&cfa, &enc) {
            Ok(a) => a,
            Err(e) => return Answer::Unknown(e),
        }
    } else {
        program_automaton(&enc)
    };
    let mut run = match Run::new(&voc, &cfa, &enc, config, deadline, stutter) {
        Ok(r) => r,
        Err(e) => return Answer::Unknown(e),
    };
    let answer = run.main(abs, work);
    work.fh = run.fh.stats().clone();
    (work.fh.predicates, work.fh.fh_states) = run.fh.size();
    answer
}

/// The shortest `u` with `w = u^k` (`w` itself when it is no power).
fn primitive_root(w: Vec<LetterId>) -> Vec<LetterId> {
    let n = w.len();
    for p in 1..=n / 2 {
        if n % p == 0 && w.chunks(p).all(|c| c == &w[..p]) {
            return w[..p].to_vec();
        }
    }
    w
}

/// How a lasso was decided.
enum Step {
    /// An infeasible trace (letters): a finite refinement.
    Finite(Vec<LetterId>),
    /// A ranking certificate for the lasso (stem, loop).
    Ranked(Box<Certificate>, Vec<LetterId>, Vec<LetterId>),
    Nonterminating(String),
    Unknown(String),
}

/// One run of the loop: the program, the Floyd–Hoare automaton and the sessions.
struct Run<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    cfa: &'a Cfa,
    enc: &'a Encoded,
    config: &'a Config,
    deadline: Option<Instant>,
    /// Letters from this one on are stutter letters at error locations.
    stutter: LetterId,
    fh: FloydHoare<'a, 'p>,
    qe: Session,
    /// The rank certificates' session, lent to each automaton in turn.
    rank_session: Option<Session>,
    /// Every rank triple answered valid: (precondition, letter, postcondition).
    triples: Vec<(Term, LetterId, Term)>,
    /// Descriptions of the ranked lassos.
    ranked: Vec<String>,
    gnta_tries: usize,
    /// Finite refinements so far.
    finite: usize,
    /// The (location, predicate) pairs added from the letters' comparisons
    /// ([`FloydHoare::add_comparisons`]), at most [`MAX_ATOMS`].
    atoms: BTreeSet<(LocId, Term)>,
}

impl<'a, 'p> Run<'a, 'p> {
    fn new(
        voc: &'a Vocabulary<'p>,
        cfa: &'a Cfa,
        enc: &'a Encoded,
        config: &'a Config,
        deadline: Option<Instant>,
        stutter: LetterId,
    ) -> Result<Self, String> {
        let session = |what: &str| {
            Session::new(ranking::session_config(config, deadline))
                .map_err(|e| format!("solver ({what}): {e}"))
        };
        let htc = HoareChecker::new(session("Hoare triples")?);
        Ok(Run {
            voc,
            cfa,
            enc,
            config,
            deadline,
            stutter,
            fh: FloydHoare::new(voc, enc, htc).with_deadline(deadline),
            qe: session("quantifier elimination")?,
            rank_session: Some(session("rank certificates")?),
            triples: Vec::new(),
            ranked: Vec::new(),
            gnta_tries: 0,
            finite: 0,
            atoms: BTreeSet::new(),
        })
    }

    fn main(&mut self, mut abs: Nfa<usize, LetterId>, work: &mut Work) -> Answer {
        if self.cfa.is_concurrent()
            && let Some(why) = self.guess_fixpoints(&abs)
        {
            return Answer::Nonterminating(why);
        }
        let budget = match self.deadline {
            Some(d) => Budget::unlimited().with_deadline(d),
            None => Budget::unlimited(),
        }
        .with_max_states(MAX_STATES);
        work.states = abs.num_states();
        let mut seen: BTreeSet<(Vec<LetterId>, Vec<LetterId>)> = BTreeSet::new();
        loop {
            work.iterations += 1;
            let found = {
                let diff = Difference::new(&abs, &mut self.fh);
                accepting_lasso(&diff, &budget)
            };
            let lasso = match found {
                Ok(Some(l)) => l,
                Ok(None) => return self.terminating(work),
                Err(ExploreError::Cancelled(c)) => return Answer::Unknown(c.to_string()),
                Err(ExploreError::Successor(Interrupted)) => {
                    return Answer::Unknown("timeout".into());
                }
            };
            // (`stem · (u u)^ω` is the word `stem · u^ω`: the shorter loop composes into a
            // letter with fewer disjuncts, and every refinement for it removes the same word.)
            let (stem, cycle) = (lasso.stem.letters, primitive_root(lasso.cycle.letters));
            work.lassos += 1;
            if debug() {
                eprintln!(
                    "buchi: iteration {}, abstraction {} states, lasso {:?} {:?}",
                    work.iterations,
                    abs.num_states(),
                    stem,
                    cycle
                );
            }
            if work.lassos > MAX_LASSOS {
                return Answer::Unknown(format!(
                    "more than {MAX_LASSOS} lassos; the last: {}",
                    self.describe_lasso(&stem, &cycle)
                ));
            }
            if !seen.insert((stem.clone(), cycle.clone())) {
                return Answer::Unknown(format!(
                    "no progress on the lasso ({})",
                    self.describe_lasso(&stem, &cycle)
                ));
            }
            match self.check(&stem, &cycle, work) {
                Step::Finite(trace) => {
                    work.finite += 1;
                    if debug() {
                        eprintln!("buchi: infeasible {trace:?}");
                    }
                    if let Err(e) = self.refine_finite(&trace) {
                        return Answer::Unknown(format!(
                            "{e} (an infeasible part of the lasso: {})",
                            self.describe_lasso(&stem, &cycle)
                        ));
                    }
                }
                Step::Ranked(cert, stem, cycle) => {
                    work.ranked += 1;
                    match self.refine_buchi(&abs, &cert, &stem, &cycle, &budget, work) {
                        Ok(next) => {
                            abs = next;
                            work.states = work.states.max(abs.num_states());
                        }
                        Err(e) => return Answer::Unknown(e),
                    }
                }
                Step::Nonterminating(why) => return Answer::Nonterminating(why),
                Step::Unknown(why) => return Answer::Unknown(why),
            }
        }
    }

    /// Büchi Automizer's lasso check (module comment, steps 2–6).
    fn check(&mut self, stem: &[LetterId], cycle: &[LetterId], work: &mut Work) -> Step {
        let stutters = cycle.iter().any(|&a| a >= self.stutter);
        let traces: [Vec<LetterId>; 3] = [
            stem.to_vec(),
            cycle.to_vec(),
            stem.iter().chain(cycle).copied().collect(),
        ];
        for trace in traces {
            match self.feasible(&trace) {
                Some(false) => return Step::Finite(trace),
                Some(true) => {}
                None => {
                    return Step::Unknown(self.unknown("a trace check was unknown", stem, cycle));
                }
            }
            if stutters {
                return Step::Unknown(self.unknown(
                    "an assertion may fail (its semantics for termination is open)",
                    stem,
                    cycle,
                ));
            }
        }
        let exact = cycle
            .iter()
            .chain(stem)
            .all(|&a| ranking::exact_letter(self.cfa, self.enc, a));
        let mut stem = stem.to_vec();
        let mut why = String::from("no ranking function and no nontermination argument");
        for unrolled in 0..2 {
            if ranking::timed_out(self.deadline) {
                return Step::Unknown(self.unknown("timeout", &stem, cycle));
            }
            if exact {
                let Some(session) = self.rank_session.as_mut() else {
                    return Step::Unknown("internal: no session".into());
                };
                if let Some((s, state)) = ranking::fixpoint_of(
                    self.voc,
                    self.cfa,
                    self.enc,
                    &stem,
                    cycle,
                    self.config,
                    self.deadline,
                    session,
                ) {
                    if !self.fair(&s, cycle) {
                        return Step::Unknown(self.unknown(UNFAIR, &s, cycle));
                    }
                    return Step::Nonterminating(ranking::fixpoint_answer(
                        &self.describe_lasso(&s, cycle),
                        &state,
                    ));
                }
            }
            work.ranking_attempts += 1;
            match self.rank(&stem, cycle, &mut work.ranking_queries) {
                Ok(cert) if cert.levels.iter().any(|l| l.bound.is_some()) => {
                    // The loop cannot run more than `n` steps in a row after the stem: the stem
                    // and `n + 1` rounds of the cycle are infeasible.
                    let n = cert
                        .levels
                        .iter()
                        .filter_map(|l| l.bound)
                        .max()
                        .unwrap_or(1);
                    let mut rounds: Vec<LetterId> = stem.to_vec();
                    for _ in 0..=n {
                        rounds.extend_from_slice(cycle);
                    }
                    if self.feasible(&rounds) == Some(false) {
                        return Step::Finite(rounds);
                    }
                }
                Ok(cert) => return Step::Ranked(Box::new(cert), stem, cycle.to_vec()),
                Err(e) => why = e,
            }
            if exact {
                let Some(session) = self.rank_session.as_mut() else {
                    return Step::Unknown("internal: no session".into());
                };
                // A geometric argument, else (before the loop is unrolled) a recurrence set.
                let arg = gnta::argument_of(
                    self.voc,
                    self.cfa,
                    self.enc,
                    &stem,
                    cycle,
                    self.config,
                    session,
                    self.deadline,
                    &mut self.gnta_tries,
                )
                .or_else(|| {
                    (unrolled == 0)
                        .then(|| {
                            recurrence::argument_of(
                                self.voc,
                                self.cfa,
                                self.enc,
                                &stem,
                                cycle,
                                self.config,
                                self.deadline,
                            )
                        })
                        .flatten()
                });
                if let Some(arg) = arg {
                    if !self.fair(&stem, cycle) {
                        return Step::Unknown(self.unknown(UNFAIR, &stem, cycle));
                    }
                    return Step::Nonterminating(arg);
                }
            }
            if unrolled == 0 {
                stem.extend(cycle.iter().copied());
            }
        }
        Step::Unknown(self.unknown(&why, &stem, cycle))
    }

    /// Concurrent programs, before the loop: a nonterminating execution often needs several threads
    /// to take turns (one raises a counter, another lowers it), so its loop is no cycle of one
    /// thread, and the lasso search, which follows one thread deep first, reaches it only after
    /// many refinements. Here the closed walks of at most [`GUESS_LENGTH`] letters through each
    /// configuration, after a shortest stem to it, that are fair ([`Self::fair`]) and exact are
    /// tried for a fixpoint ([`ranking::fixpoint_of`], re-checked in a fresh session), at most
    /// [`MAX_GUESSES`] of them. The reason if one is found.
    fn guess_fixpoints(&mut self, abs: &Nfa<usize, LetterId>) -> Option<String> {
        let usable = |a: LetterId| a < self.stutter && ranking::exact_letter(self.cfa, self.enc, a);
        let init = *abs.initial().next()?;
        let mut stems: Vec<(usize, Vec<LetterId>)> = vec![(init, Vec::new())];
        let mut seen = BTreeSet::from([init]);
        let mut i = 0;
        while i < stems.len() {
            let (s, stem) = stems[i].clone();
            i += 1;
            for (&a, &t) in abs.outgoing(&s) {
                if usable(a) && seen.insert(t) {
                    let mut longer = stem.clone();
                    longer.push(a);
                    stems.push((t, longer));
                }
            }
        }
        let mut tries = 0;
        for (s, stem) in &stems {
            let mut walks: Vec<Vec<LetterId>> = Vec::new();
            let mut stack: Vec<(usize, Vec<LetterId>)> = vec![(*s, Vec::new())];
            while let Some((at, word)) = stack.pop() {
                if walks.len() >= MAX_WALKS {
                    break;
                }
                if !word.is_empty() && at == *s {
                    walks.push(word.clone());
                }
                if word.len() < GUESS_LENGTH {
                    for (&a, &t) in abs.outgoing(&at) {
                        if usable(a) {
                            let mut w = word.clone();
                            w.push(a);
                            stack.push((t, w));
                        }
                    }
                }
            }
            walks.sort_by_key(|w| w.len());
            for cycle in walks {
                if !self.fair(stem, &cycle) {
                    continue;
                }
                tries += 1;
                if tries > MAX_GUESSES || ranking::timed_out(self.deadline) {
                    return None;
                }
                let session = self.rank_session.as_mut()?;
                if let Some((found, state)) = ranking::fixpoint_of(
                    self.voc,
                    self.cfa,
                    self.enc,
                    stem,
                    &cycle,
                    self.config,
                    self.deadline,
                    session,
                ) {
                    return Some(ranking::fixpoint_answer(
                        &self.describe_lasso(&found, &cycle),
                        &state,
                    ));
                }
            }
        }
        None
    }

    /// The loop head of a lasso's loop: the location its last letter enters (the source of its
    /// first letter in a sequential program; in a concurrent one, the location of the thread that
    /// moves last, which the loop's configuration repeats).
    fn head(&self, cycle: &[LetterId]) -> LocId {
        cycle
            .last()
            .map_or(self.enc.init, |&a| self.enc.letters[a].tgt)
    }

    /// Is the execution `stem · cycle^ω` weakly fair — does every thread instance that does not
    /// move in the loop find no letter of its own enabled at some configuration of the loop? Only
    /// control is looked at (a letter counts as enabled when its thread may take it there, whatever
    /// its guard), so `false` may be a fair lasso too. A sequential program's lassos are fair. A
    /// nontermination argument on an unfair lasso would rest on a scheduler that starves a thread
    /// forever, which Lapidary does not claim (a TERMINATING answer covers every interleaving,
    /// fair or not).
    fn fair(&self, stem: &[LetterId], cycle: &[LetterId]) -> bool {
        if !self.cfa.is_concurrent() {
            return true;
        }
        let il = Interleaving::new(self.cfa, self.enc);
        let mut c = il.initial();
        for &a in stem {
            match il.step(&c, a) {
                Some(n) => c = n,
                None => return false,
            }
        }
        let mut confs = Vec::new();
        for &a in cycle {
            let Some(n) = il.step(&c, a) else {
                return false;
            };
            confs.push(std::mem::replace(&mut c, n));
        }
        let moving: BTreeSet<u32> = cycle.iter().map(|&a| il.thread_of(a)).collect();
        let enabled =
            |t: usize, c: &Conf| il.moves(c).iter().any(|&a| il.thread_of(a) as usize == t);
        (0..c.locs.len())
            .all(|t| moving.contains(&(t as u32)) || confs.iter().any(|c| !enabled(t, c)))
    }

    fn unknown(&self, why: &str, stem: &[LetterId], cycle: &[LetterId]) -> String {
        format!(
            "Büchi Automizer: {why} for the lasso ({})",
            self.describe_lasso(stem, cycle)
        )
    }

    /// "a stem of n letters, then a loop of m letters in procedure p".
    fn describe_lasso(&self, stem: &[LetterId], cycle: &[LetterId]) -> String {
        format!(
            "a stem of {}, then a loop of {} in {}",
            pretty::letters(stem.len()),
            pretty::letters(cycle.len()),
            self.procedures(cycle)
        )
    }

    /// "procedure p", or "procedures p and q" for a loop whose letters belong to several
    /// procedures (threads of a concurrent program), in order of first appearance.
    fn procedures(&self, cycle: &[LetterId]) -> String {
        let mut names: Vec<String> = Vec::new();
        for &a in cycle {
            let name = self.cfa.locs[self.enc.letters[a].src]
                .proc
                .map(|p| self.voc.program.proc(p).name.clone())
                .unwrap_or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        match names.as_slice() {
            [] => "procedure ".into(),
            [one] => format!("procedure {one}"),
            [init @ .., last] => format!("procedures {} and {last}", init.join(", ")),
        }
    }

    /// Whether the letters can run one after the other from some state (`None`: unknown).
    fn feasible(&mut self, trace: &[LetterId]) -> Option<bool> {
        if trace.is_empty() {
            return Some(true);
        }
        let tfs: Vec<&TransFormula> = trace.iter().map(|&a| &self.enc.letters[a].tf).collect();
        let ssa = tracecheck::ssa(self.voc, &tfs);
        match tracecheck::check(self.fh.session(), &ssa, false) {
            Feasibility::Feasible(_) => Some(true),
            Feasibility::Infeasible(_) => Some(false),
            Feasibility::Unknown(_) => None,
        }
    }

    /// Adds interpolants of the infeasible `trace` to the Floyd–Hoare automaton until it rejects
    /// the trace (forward and backward, with and without the unsat core).
    fn refine_finite(&mut self, trace: &[LetterId]) -> Result<(), String> {
        let tfs: Vec<&TransFormula> = trace.iter().map(|&a| &self.enc.letters[a].tf).collect();
        let ssa = tracecheck::ssa(self.voc, &tfs);
        let core = match tracecheck::check(self.fh.session(), &ssa, true) {
            Feasibility::Infeasible(core) => core,
            _ => return Err("the trace check did not confirm infeasibility".into()),
        };
        let locs: Vec<LocId> = std::iter::once(self.enc.letters[trace[0]].src)
            .chain(trace.iter().map(|&a| self.enc.letters[a].tgt))
            .collect();
        self.finite += 1;
        if self.finite > ATOMS_AFTER {
            // Comparisons as candidates against unrolling (`FloydHoare::add_comparisons`).
            self.fh.add_comparisons(trace, &mut self.atoms, MAX_ATOMS);
        }
        let mut stats = Stats::default();
        let plan = [
            (Direction::Forward, true),
            (Direction::Backward, true),
            (Direction::Backward, false),
            (Direction::Forward, false),
        ];
        for (direction, relax) in plan {
            if ranking::timed_out(self.deadline) {
                return Err("timeout".into());
            }
            let settings = Settings {
                direction,
                live: true,
                exact: false,
                until: None,
            };
            let used = relax.then_some(&core);
            let Ok(mut preds) =
                interpolate::interpolants(self.voc, &ssa, used, settings, &mut self.qe, &mut stats)
            else {
                continue;
            };
            if interpolate::close_ends(&mut preds, self.fh.session()).is_err() {
                continue;
            }
            for i in 1..preds.len() - 1 {
                self.fh.add_predicate(locs[i], &preds[i]);
            }
            if self.rejects(trace)? {
                return Ok(());
            }
        }
        Err("no interpolants refute the trace".into())
    }

    /// Does the Floyd–Hoare automaton reach `false` on the letters?
    fn rejects(&mut self, trace: &[LetterId]) -> Result<bool, String> {
        use crate::automata::DeterministicAutomaton;
        let mut s = self.fh.initial();
        for a in trace {
            s = self.fh.successor(&s, a).map_err(|e| e.to_string())?;
            if s == FALSE_STATE {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A ranking certificate for the lasso on its own encoding (module comment, step 4).
    fn rank(
        &mut self,
        stem: &[LetterId],
        cycle: &[LetterId],
        queries: &mut usize,
    ) -> Result<Certificate, String> {
        let h = self.head(cycle);
        if h == self.enc.init && !stem.is_empty() {
            return Err("a loop through the initial location".into());
        }
        let compose = |letters: &[LetterId]| -> Result<TransFormula, String> {
            let mut tf = self.enc.letters[letters[0]].tf.clone();
            for &a in &letters[1..] {
                tf = transition::seq(self.voc, &tf, &self.enc.letters[a].tf)
                    .map_err(|u| format!("unsupported: {}", u.0))?;
            }
            Ok(tf)
        };
        let edges = |letters: &[LetterId]| -> BTreeSet<usize> {
            letters
                .iter()
                .flat_map(|&a| self.enc.letters[a].edges.iter().copied())
                .collect()
        };
        let mut lasso = Encoded {
            letters: Vec::new(),
            out: vec![Vec::new(); self.enc.out.len()],
            init: self.enc.init,
            kept: BTreeSet::from([self.enc.init, h]),
        };
        if !stem.is_empty() {
            lasso.letters.push(Letter {
                src: self.enc.init,
                tgt: h,
                tf: compose(stem)?,
                edges: edges(stem),
                kind: EdgeKind::Plain,
            });
            lasso.out[self.enc.init].push(0);
        }
        lasso.out[h].push(lasso.letters.len());
        lasso.letters.push(Letter {
            src: h,
            tgt: h,
            tf: forget_unread(self.voc, compose(cycle)?)?,
            edges: edges(cycle),
            kind: EdgeKind::Plain,
        });
        ranking::certificate(
            self.voc,
            self.cfa,
            &lasso,
            self.config,
            self.deadline,
            false,
            queries,
        )
        .map_err(|e| match e {
            Failure::TooManyDisjuncts | Failure::TooManyLevels => e.to_string(),
            Failure::Other(s) => s,
        })
    }

    /// `A \ R` for the rank certificate `R` of the lasso, materialised and trimmed.
    fn refine_buchi(
        &mut self,
        abs: &Nfa<usize, LetterId>,
        cert: &Certificate,
        stem: &[LetterId],
        cycle: &[LetterId],
        budget: &Budget,
        work: &mut Work,
    ) -> Result<Nfa<usize, LetterId>, String> {
        let h = self.head(cycle);
        let k = self.ranked.len();
        let Some((ghosts, dec, what)) = rank_relation(self.voc, cert, h, k) else {
            return Err(self.unknown("a ranking function whose levels form no chain", stem, cycle));
        };
        let si = cert.invariants.term_at(h);
        let unseeded = Var::new(format!("rank{k}@unseeded"), Sort::Bool);
        let u = Term::var(&unseeded);
        let honda = Term::and(vec![si.clone(), Term::or(vec![u.clone(), dec.clone()])]);
        let mut seed = vec![si.clone(), Term::not(&u)];
        seed.extend(ghosts.iter().map(|(old, f)| Term::eq(&Term::var(old), f)));
        let seed = Term::and(seed);
        // The stem part: interpolants of `stem · assume ¬SI`.
        let mut stem_preds = vec![u.clone()];
        if stem.len() > 1 && si != Term::tt() {
            for p in self.stem_interpolants(stem, &si) {
                stem_preds.push(Term::and(vec![u.clone(), p]));
            }
        }
        // The loop part: the honda, then strongest posts along the loop from the seed. A loop
        // through the head more than once (`u · v`, each back at `h`): where `f` fell along `u`,
        // the honda re-seeds mid-loop, and the posts of `v` from the seed must follow for `v` to
        // end in the honda too — so each part after a return to the head also gets its posts
        // from the seed, up to its next return.
        let mut loop_preds = vec![honda];
        let mut stats = Stats::default();
        let enc = self.enc;
        let enters_head = |a: LetterId| enc.letters[a].tgt == h;
        let last = cycle.len() - 1;
        let parts = std::iter::once((0, false)).chain(
            (0..last)
                .filter(|&i| enters_head(cycle[i]))
                .map(|i| (i + 1, true)),
        );
        for (start, to_head) in parts {
            let mut p = seed.clone();
            for &a in &cycle[start..] {
                match post(self.voc, &p, &enc.letters[a], &mut self.qe, &mut stats) {
                    Ok(q) => {
                        if !loop_preds.contains(&q) {
                            loop_preds.push(q.clone());
                        }
                        p = q;
                    }
                    Err(_) => break,
                }
                // The post of the letter into the head too: where `f` did not fall along this
                // part, the honda does not hold there, and the run goes on in this post.
                if to_head && enters_head(a) {
                    break;
                }
            }
        }
        // "f fell since the seed" and "f is as seeded", with and without the supporting
        // invariant: the posts record how far `f` fell (`old = x + 2` after two decrements) and
        // what else held on the lasso (another thread's counter), which a loop that runs the
        // falling letter more often, or other letters in between, never matches; these still hold
        // there (one certificate per thread's loop then covers every interleaving of the loops).
        let mut unmoved = vec![Term::not(&u)];
        unmoved.extend(ghosts.iter().map(|(old, f)| Term::eq(&Term::var(old), f)));
        for p in [
            Term::and(vec![si.clone(), Term::not(&u), dec.clone()]),
            Term::and(vec![Term::not(&u), dec]),
            seed.clone(),
            Term::and(unmoved),
        ] {
            if !loop_preds.contains(&p) {
                loop_preds.push(p);
            }
        }
        let ghost_vars: BTreeSet<Var> = ghosts
            .iter()
            .map(|(v, _)| v.clone())
            .chain([unseeded])
            .collect();
        let ghost_free = loop_preds
            .iter()
            .map(|t| t.free_vars().iter().all(|v| !ghost_vars.contains(v)))
            .collect();
        let Some(session) = self.rank_session.take() else {
            return Err("internal: no session".into());
        };
        let mut r = RankAutomaton {
            voc: self.voc,
            enc: self.enc,
            stem: stem_preds,
            lp: loop_preds,
            head: h,
            ghost_free,
            seed,
            session,
            cache: HashMap::new(),
            valid: Vec::new(),
            queries: 0,
            deadline: self.deadline,
        };
        let explored = {
            let inner = Difference::new(abs, &mut self.fh);
            let diff = BuchiDifference::new(inner, &mut r);
            explore(&diff, budget)
        };
        work.rank_triples += r.queries;
        if debug() {
            eprintln!(
                "buchi: rank certificate {what}: {} stem and {} loop predicates, {} states, {} triples",
                r.stem.len(),
                r.lp.len(),
                explored.as_ref().map_or(0, |n| n.num_states()),
                r.queries
            );
        }
        self.rank_session = Some(r.session);
        self.triples.extend(r.valid);
        let explored = explored.map_err(|e| match e {
            ExploreError::Cancelled(c) => format!("Büchi refinement: {c}"),
            ExploreError::Successor(e) => format!("Büchi refinement: {e}"),
        })?;
        let trimmed = remove_buchi_dead_ends(&explored);
        let ids: BTreeMap<_, usize> = trimmed
            .states()
            .enumerate()
            .map(|(i, s)| (s.clone(), i))
            .collect();
        let procedure = self.procedures(cycle);
        let support = match cert.invariants.count() {
            0 => String::new(),
            n => format!(" with {n} supporting invariants"),
        };
        self.ranked
            .push(format!("{what} for a loop in {procedure}{support}"));
        Ok(trimmed.map_states(|s| ids[s]))
    }

    /// The interpolants after each letter but the last of the infeasible `stem · assume ¬si`
    /// (none if interpolation fails: the rank automaton then enters its loop part only where `si`
    /// follows from `unseeded` alone).
    fn stem_interpolants(&mut self, stem: &[LetterId], si: &Term) -> Vec<Term> {
        let not_si = TransFormula::assume(Term::not(si), transition::pvars_of(self.voc, si));
        let tfs: Vec<&TransFormula> = stem
            .iter()
            .map(|&a| &self.enc.letters[a].tf)
            .chain([&not_si])
            .collect();
        let ssa = tracecheck::ssa(self.voc, &tfs);
        let Feasibility::Infeasible(core) = tracecheck::check(self.fh.session(), &ssa, true) else {
            return Vec::new();
        };
        let mut stats = Stats::default();
        for direction in [Direction::Backward, Direction::Forward] {
            let settings = Settings {
                direction,
                live: true,
                exact: false,
                until: None,
            };
            let Ok(mut preds) = interpolate::interpolants(
                self.voc,
                &ssa,
                Some(&core),
                settings,
                &mut self.qe,
                &mut stats,
            ) else {
                continue;
            };
            if interpolate::close_ends(&mut preds, self.fh.session()).is_ok() {
                // I_1 .. I_{n-1} (I_n holds after the whole stem; I_{n+1} = false).
                return preds[1..stem.len()].to_vec();
            }
        }
        Vec::new()
    }

    /// TERMINATING after the rank triples were re-checked in a fresh session.
    fn terminating(&mut self, _work: &mut Work) -> Answer {
        let mut fresh = match Session::new(ranking::session_config(self.config, self.deadline)) {
            Ok(s) => s,
            Err(e) => return Answer::Unknown(format!("solver: {e}")),
        };
        for (pre, a, post) in &self.triples {
            let letter = &self.enc.letters[*a];
            fresh.push();
            fresh.assert(pre);
            fresh.assert(&letter.tf.formula);
            fresh.assert(&Term::not(&primed(self.voc, post, letter)));
            let r = fresh.check_sat();
            fresh.pop();
            if r != SatResult::Unsat {
                return Answer::Unknown(format!("rank certificate not confirmed: {r}"));
            }
        }
        if self.ranked.is_empty() {
            return Answer::Terminating(
                "Büchi trace abstraction: every lasso is infeasible".into(),
            );
        }
        Answer::Terminating(format!(
            "Büchi trace abstraction: {} lassos ranked ({})",
            self.ranked.len(),
            self.ranked.join("; ")
        ))
    }
}

/// The loop's relation with the values it leaves in variables it never reads forgotten: a
/// variable the loop writes before any read (a temporary such as a nondeterministic value) is
/// dead at the loop head on the lasso, so its value after the loop is left unconstrained (a fresh
/// auxiliary variable takes the post variable's place). The relation grows (a superset of the
/// loop's), so a ranking certificate for it is one for the loop; its constraints on the
/// temporaries become detached parts that [`ranking`] drops before the DNF.
fn forget_unread(voc: &Vocabulary, tf: TransFormula) -> Result<TransFormula, String> {
    let free = tf.formula.free_vars();
    let mut renaming: HashMap<Var, Term> = HashMap::new();
    let mut aux = tf.aux.clone();
    for &x in &tf.writes {
        let (pre, post) = match (voc.pre(x), voc.post(x)) {
            (Ok(pre), Ok(post)) => (pre, post),
            (Err(u), _) | (_, Err(u)) => return Err(format!("unsupported: {}", u.0)),
        };
        if free.contains(&pre) || !free.contains(&post) {
            continue;
        }
        let m = voc.fresh(&voc.name(x), post.sort.clone());
        renaming.insert(post, Term::var(&m));
        aux.insert(m);
    }
    if renaming.is_empty() {
        return Ok(tf);
    }
    Ok(transition::eliminate_aux(TransFormula {
        formula: tf.formula.substitute(&renaming),
        aux,
        ..tf
    }))
}

/// The program automaton of a concurrent program: the configurations of the interleaving product
/// ([`Interleaving`]) reachable from the initial one, numbered in breadth-first order, every one
/// accepting; a thread at an error location may take its stutter letter. One instance per fork
/// statement: a configuration where a fork finds no free instance ends the analysis (UNKNOWN).
fn interleaving_automaton(cfa: &Cfa, enc: &Encoded) -> Result<Nfa<usize, LetterId>, String> {
    let il = Interleaving::new(cfa, enc);
    let mut nfa = Nfa::new();
    let init = il.initial();
    let mut ids: HashMap<Conf, usize> = HashMap::from([(init.clone(), 0)]);
    nfa.add_state(0, true);
    nfa.add_initial(0);
    let mut queue = std::collections::VecDeque::from([init]);
    while let Some(c) = queue.pop_front() {
        if il.at_limit(&c) {
            return Err(
                "unbounded threads: a fork statement runs again while its thread instance is in use"
                    .into(),
            );
        }
        let from = ids[&c];
        for a in il.moves(&c) {
            let Some(n) = il.step(&c, a) else {
                continue;
            };
            let next = ids.len();
            let to = *ids.entry(n.clone()).or_insert_with(|| {
                queue.push_back(n);
                next
            });
            if to == next {
                if next >= MAX_STATES {
                    return Err(format!(
                        "more than {MAX_STATES} configurations of the threads"
                    ));
                }
                nfa.add_state(to, true);
            }
            nfa.add_transition(from, a, to);
        }
    }
    Ok(nfa)
}

/// The program automaton: locations reachable from the initial one, every one accepting, the
/// letters of `enc`.
fn program_automaton(enc: &Encoded) -> Nfa<usize, LetterId> {
    let mut nfa = Nfa::new();
    nfa.add_state(enc.init, true);
    nfa.add_initial(enc.init);
    let mut stack = vec![enc.init];
    let mut seen = BTreeSet::from([enc.init]);
    while let Some(l) = stack.pop() {
        for &a in &enc.out[l] {
            let t = enc.letters[a].tgt;
            if seen.insert(t) {
                nfa.add_state(t, true);
                stack.push(t);
            }
            nfa.add_transition(l, a, t);
        }
    }
    nfa
}

/// The strongest post of `p` (over pre variables and other free constants) under the letter.
fn post(
    voc: &Vocabulary,
    p: &Term,
    letter: &Letter,
    qe: &mut Session,
    stats: &mut Stats,
) -> Result<Term, String> {
    let mut to_old: HashMap<Var, Term> = HashMap::new();
    let mut in_letter: HashMap<Var, Term> = HashMap::new();
    let mut quantified = Vec::new();
    for &x in &letter.tf.writes {
        let (Ok(pre), Ok(post)) = (voc.pre(x), voc.post(x)) else {
            return Err("a written variable without a name".into());
        };
        let old = Var::new(format!("{}@old", pre.name), pre.sort.clone());
        to_old.insert(pre.clone(), Term::var(&old));
        in_letter.insert(pre.clone(), Term::var(&old));
        in_letter.insert(post, Term::var(&pre));
        quantified.push(old);
    }
    for v in letter.tf.formula.free_vars() {
        if voc.lookup(&v).is_none() {
            quantified.push(v);
        }
    }
    let body = Term::and(vec![
        p.substitute(&to_old),
        letter.tf.formula.substitute(&in_letter),
    ]);
    interpolate::project_exists(quantified, body, false, qe, stats)
}

/// A rank relation: the ghost variables with the components they copy, `Dec`, a description.
type RankRelation = (Vec<(Var, Term)>, Term, String);

/// The ghost variables `old` with the components `f` they copy, the relation `Dec(old, f)` and a
/// description of the ranking function, from a certificate whose levels form a chain (the loop of
/// a lasso has one location); `None` for other shapes (a level of single steps, a nested or
/// multiphase level before the last).
fn rank_relation(voc: &Vocabulary, cert: &Certificate, h: LocId, k: usize) -> Option<RankRelation> {
    let levels = &cert.levels;
    // (a parametric decrease would need its loop constants in the monitor too)
    if levels.is_empty()
        || levels
            .iter()
            .any(|l| l.bound.is_some() || l.decrease.is_some())
    {
        return None;
    }
    for pair in levels.windows(2) {
        let rest: BTreeSet<_> = pair[0].letters.difference(&pair[0].strict).collect();
        let affine = pair[0].f.len() == 1 && !pair[0].multiphase;
        if !affine || !pair[1].letters.iter().all(|p| rest.contains(p)) {
            return None;
        }
    }
    let mut ghosts = Vec::new();
    let mut disjuncts = Vec::new();
    let mut not_above: Vec<Term> = Vec::new();
    let mut parts = Vec::new();
    for (j, level) in levels.iter().enumerate() {
        let f = level.at(h)?;
        let old: Vec<Term> = f
            .iter()
            .enumerate()
            .map(|(i, fi)| {
                let v = Var::new(format!("rank{k}@old{j}_{i}"), fi.sort());
                ghosts.push((v.clone(), fi.clone()));
                Term::var(&v)
            })
            .collect();
        let (zero, one) = if f[0].sort() == Sort::Int {
            (Term::int(0), Term::int(1))
        } else {
            (
                Term::real(Q::from_integer(0.into())),
                Term::real(Q::from_integer(1.into())),
            )
        };
        let mut strict = vec![Term::le(&f[0], &Term::sub(&old[0], &one))];
        if level.multiphase {
            for i in 1..f.len() {
                let mut alt = vec![Term::le(&f[i], &Term::sub(&old[i], &one))];
                alt.extend(old[..i].iter().map(|o| Term::gt(o, &zero)));
                strict.push(Term::or(alt));
            }
            strict.push(Term::or(old.iter().map(|o| Term::gt(o, &zero)).collect()));
        } else {
            for i in 1..f.len() {
                strict.push(Term::le(
                    &f[i],
                    &Term::add(vec![old[i].clone(), old[i - 1].clone()]),
                ));
            }
            strict.push(Term::ge(&old[f.len() - 1], &zero));
        }
        let mut d = not_above.clone();
        d.extend(strict);
        disjuncts.push(Term::and(d));
        not_above.push(Term::le(&f[0], &old[0]));
        let fs: Vec<String> = f
            .iter()
            .map(|t| pretty::term(voc, &crate::smt::simplify(t)))
            .collect();
        parts.push(if level.multiphase {
            format!("multiphase ({})", fs.join(", "))
        } else if f.len() > 1 {
            format!("nested ({})", fs.join(", "))
        } else {
            fs.join("")
        });
    }
    let what = if parts.len() > 1 {
        format!("lexicographic ({})", parts.join(", "))
    } else {
        parts.join("")
    };
    Some((ghosts, Term::or(disjuncts), what))
}

/// A state of a rank certificate's automaton: a set of stem predicates, or of loop predicates
/// (indices, sorted).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum RankState {
    Stem(Vec<usize>),
    Loop(Vec<usize>),
}

/// The semi-deterministic Büchi automaton of a rank certificate (module comment).
struct RankAutomaton<'a, 'p> {
    voc: &'a Vocabulary<'p>,
    enc: &'a Encoded,
    /// Stem predicates; `stem[0]` is `unseeded`.
    stem: Vec<Term>,
    /// Loop predicates; `lp[0]` is the honda `H`.
    lp: Vec<Term>,
    /// The loop head: the honda holds only after a letter into it. Elsewhere a state whose rank
    /// already fell would otherwise count as the honda and re-seed in the middle of the loop,
    /// where the loop predicates computed from the head's seed no longer follow (the lasso
    /// itself then escapes its own certificate).
    head: LocId,
    /// Which loop predicates mention no ghost variable.
    ghost_free: Vec<bool>,
    /// `SI ∧ ¬unseeded ∧ old = f`.
    seed: Term,
    session: Session,
    cache: HashMap<(RankState, LetterId), Vec<RankState>>,
    valid: Vec<(Term, LetterId, Term)>,
    queries: usize,
    deadline: Option<Instant>,
}

impl RankAutomaton<'_, '_> {
    /// The precondition of a transition from `s` (re-seeded when `s` is accepting).
    fn pre(&self, s: &RankState) -> Term {
        match s {
            RankState::Stem(ps) => Term::and(ps.iter().map(|&i| self.stem[i].clone()).collect()),
            RankState::Loop(ps) if ps.contains(&0) => {
                let mut conj = vec![self.seed.clone()];
                conj.extend(
                    ps.iter()
                        .filter(|&&i| i != 0 && self.ghost_free[i])
                        .map(|&i| self.lp[i].clone()),
                );
                Term::and(conj)
            }
            RankState::Loop(ps) => Term::and(ps.iter().map(|&i| self.lp[i].clone()).collect()),
        }
    }

    /// The candidates among `cands` that hold after `a` from `pre`: Houdini-style, one query for
    /// the conjunction of those not yet refuted, each model refuting every candidate false in it
    /// (a counterexample to each), until the rest hold together (unsat); candidates one query each
    /// when the solver gives no model or no answer.
    fn holding(
        &mut self,
        pre: &Term,
        a: LetterId,
        cands: &[Term],
    ) -> Result<Vec<usize>, Interrupted> {
        let letter = &self.enc.letters[a];
        let post: Vec<Term> = cands.iter().map(|q| primed(self.voc, q, letter)).collect();
        let mut left: Vec<usize> = (0..cands.len()).collect();
        let mut out = Vec::new();
        self.session.push();
        self.session.assert(pre);
        self.session.assert(&letter.tf.formula);
        let mut one_by_one = false;
        while !left.is_empty() {
            if ranking::timed_out(self.deadline) {
                self.session.pop();
                return Err(Interrupted);
            }
            self.queries += 1;
            self.session.push();
            let all = Term::and(left.iter().map(|&i| post[i].clone()).collect());
            self.session.assert(&Term::not(&all));
            let r = self.session.check_sat();
            if r == SatResult::Unsat {
                self.session.pop();
                out.append(&mut left);
                break;
            }
            let refuted = if r == SatResult::Sat {
                let terms: Vec<Term> = left.iter().map(|&i| post[i].clone()).collect();
                self.session.get_values(&terms).ok().map(|vals| {
                    vals.iter()
                        .map(|(_, v)| matches!(v, Value::Bool(false)))
                        .collect::<Vec<bool>>()
                })
            } else {
                None
            };
            self.session.pop();
            match refuted {
                Some(f) if f.len() == left.len() && f.iter().any(|&b| b) => {
                    left = left
                        .iter()
                        .zip(f)
                        .filter(|(_, refuted)| !refuted)
                        .map(|(&i, _)| i)
                        .collect();
                }
                _ => {
                    one_by_one = true;
                    break;
                }
            }
        }
        if one_by_one {
            for &i in &left {
                if ranking::timed_out(self.deadline) {
                    self.session.pop();
                    return Err(Interrupted);
                }
                self.queries += 1;
                self.session.push();
                self.session.assert(&Term::not(&post[i]));
                let r = self.session.check_sat();
                self.session.pop();
                if r == SatResult::Unsat {
                    out.push(i);
                }
            }
        }
        self.session.pop();
        out.sort_unstable();
        for &i in &out {
            self.valid.push((pre.clone(), a, cands[i].clone()));
        }
        Ok(out)
    }
}

impl SemiDeterministicAutomaton for RankAutomaton<'_, '_> {
    type State = RankState;
    type Letter = LetterId;
    type Error = Interrupted;

    fn initial_states(&self) -> Vec<RankState> {
        vec![RankState::Stem(vec![0])]
    }

    fn is_accepting(&self, s: &RankState) -> bool {
        matches!(s, RankState::Loop(ps) if ps.contains(&0))
    }

    fn is_deterministic(&self, s: &RankState) -> bool {
        matches!(s, RankState::Loop(_))
    }

    fn successors(&mut self, s: &RankState, a: &LetterId) -> Result<Vec<RankState>, Interrupted> {
        if let Some(out) = self.cache.get(&(s.clone(), *a)) {
            return Ok(out.clone());
        }
        let pre = self.pre(s);
        let mut out = Vec::new();
        if let RankState::Stem(_) = s {
            let stem = self.stem.clone();
            let held = self.holding(&pre, *a, &stem)?;
            if !held.is_empty() {
                out.push(RankState::Stem(held));
            }
        }
        let lp = self.lp.clone();
        let held = if self.enc.letters[*a].tgt == self.head {
            self.holding(&pre, *a, &lp)?
        } else {
            let rest = self.holding(&pre, *a, &lp[1..])?;
            rest.into_iter().map(|i| i + 1).collect()
        };
        let enters = matches!(s, RankState::Loop(_)) || held.contains(&0);
        if enters && !held.is_empty() {
            out.push(RankState::Loop(held));
        }
        self.cache.insert((s.clone(), *a), out.clone());
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(src: &str, mode: BlockEncoding) -> (Answer, Work) {
        let (program, config) = super::super::test_program(src);
        let deadline = Some(Instant::now() + std::time::Duration::from_secs(30));
        let mut work = Work::default();
        let a = prove(&program, &config, deadline, mode, &mut work);
        (a, work)
    }

    #[test]
    fn a_repeated_loop_is_its_primitive_root() {
        assert_eq!(primitive_root(vec![4, 4]), vec![4]);
        assert_eq!(primitive_root(vec![1, 2, 1, 2, 1, 2]), vec![1, 2]);
        assert_eq!(primitive_root(vec![1, 2, 1]), vec![1, 2, 1]);
        assert_eq!(primitive_root(vec![1, 1, 2, 1, 1, 2]), vec![1, 1, 2]);
        assert_eq!(primitive_root(vec![3]), vec![3]);
    }

    fn have_solver() -> bool {
        let cfg = crate::smt::SolverConfig::new(crate::smt::SolverKind::Z3);
        match Session::new(cfg) {
            Ok(_) => true,
            Err(e) => {
                assert!(
                    std::env::var_os("CI").is_none_or(|v| v.is_empty() || v == "false" || v == "0"),
                    "z3 is missing and CI is set: {e}"
                );
                false
            }
        }
    }

    /// The rank falls at the loop's first letter, several letters before the loop head comes
    /// round again: the certificate must still accept the lasso (the honda only at the head),
    /// else the same lasso comes back and the run ends with "no progress".
    #[test]
    fn rank_falling_before_the_head_comes_round() {
        if !have_solver() {
            return;
        }
        let src = "procedure main() { var x, y, z: int; havoc x;
            while (x > 0) { x := x - 1;
                if (*) { y := 1; } else { y := 2; }
                if (*) { z := y; } else { z := 0; } } }";
        let (a, work) = answer(src, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
        // One certificate covers every path (the honda is where the head comes round).
        assert_eq!(work.ranked, 1, "{work:?}");
    }

    /// Two threads count down `b` and `a` (`b` is ranked first where both fall): lassos of the
    /// interleaving pass the head twice with `b` falling along one part only (after the other
    /// part the run goes on in the posts of the seed, else the certificate rejects its own lasso,
    /// which then comes back: "no progress"), or run `b`'s letter more often than the ranked
    /// lasso did, or `a`'s letters in between (covered by "f fell" and "f as seeded").
    #[test]
    fn rank_falling_along_one_part_of_the_loop() {
        if !have_solver() {
            return;
        }
        let src = "var a, b: int;
            procedure ULTIMATE.start() modifies a, b;
            { fork 1 decB(); fork 2,2 decA(); join 1; join 2,2; }
            procedure decB() modifies b; { while (b > 0) { b := b - 1; } }
            procedure decA() modifies a; { while (a > 0) { a := a - 1; } }";
        let (a, work) = answer(src, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
        // One certificate per thread's loop covers every interleaving of the two loops.
        assert_eq!(work.ranked, 2, "{work:?}");
    }

    /// Two paths with different ranking functions (`x`, `-x`): two rank certificates and a
    /// finite refinement or none (the paths exclude each other at the loop head).
    #[test]
    fn paths_with_different_ranking_functions() {
        if !have_solver() {
            return;
        }
        let src = "procedure main() { var x: int; havoc x;
            while (x != 0) { if (x > 0) { x := x - 1; } else { x := x + 1; } } }";
        let (a, work) = answer(src, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
        assert_eq!(work.ranked, 2, "{work:?}");
        // With large blocks the loop is one disjunctive letter: no affine, nested or multiphase
        // template ranks it, the piecewise one does (split by `x >= 1`), with -x after it.
        let (a, work) = answer(src, BlockEncoding::Large);
        let Answer::Terminating(why) = &a else {
            panic!("{a:?}")
        };
        assert!(why.contains("(if x >= 1 then x else 0)"), "{why}");
        assert_eq!(work.ranked, 1, "{work:?}");
    }

    /// Nonterminating loops are never proved terminating; a fixpoint and a geometric argument are
    /// found on the lasso.
    #[test]
    fn nonterminating_lassos() {
        if !have_solver() {
            return;
        }
        for src in [
            "procedure main() { var x: int; havoc x; while (x >= 0) { x := x; } }",
            "procedure main() { var x: int; havoc x; while (x >= 1) { x := 2 * x; } }",
            "procedure main() { var x, y: int; havoc x, y;
                while (x > 0) { if (y > 0) { x := x - 1; } else { x := x + 1; } } }",
        ] {
            let (a, _) = answer(src, BlockEncoding::Seq);
            assert!(matches!(a, Answer::Nonterminating(_)), "{src}: {a:?}");
        }
    }

    /// A loop that can run at most twice: every lasso is infeasible (finite refinements only).
    #[test]
    fn infeasible_lassos() {
        if !have_solver() {
            return;
        }
        let src = "procedure main() { var x, y: int; y := 0; havoc x; assume x >= 2;
            while (y >= 0) { x := x - 1; if (x < 5) { y := -1; } } }";
        let (a, work) = answer(src, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
        assert!(work.lassos >= 1, "{work:?}");
        // The loop is ranked or refuted: no verdict without a lasso checked.
        assert!(work.finite + work.ranked >= 1, "{work:?}");
    }

    /// An assertion that may fail: the stutter lasso at the error location stays open (UNKNOWN),
    /// never TERMINATING; one that cannot fail is refuted by an infeasible stem.
    #[test]
    fn assertions_keep_their_open_semantics() {
        if !have_solver() {
            return;
        }
        let may_fail = "procedure main() { var x: int; havoc x; assert x > 0; }";
        let (a, _) = answer(may_fail, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Unknown(_)), "{a:?}");
        let holds = "procedure main() { var x: int; x := 1; assert x > 0; }";
        let (a, _) = answer(holds, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
    }

    /// The rank relation of a lexicographic certificate: the later level may only decrease while
    /// the earlier does not increase.
    #[test]
    fn lexicographic_rank_relation() {
        if !have_solver() {
            return;
        }
        let src = "procedure main() { var x, y: int; havoc x, y;
            while (x > 0 && y > 0) { if (*) { x := x - 1; havoc y; } else { y := y - 1; } } }";
        let (a, _) = answer(src, BlockEncoding::Large);
        assert!(
            matches!(&a, Answer::Terminating(why) if why.contains("lexicographic")),
            "{a:?}"
        );
        let (a, _) = answer(src, BlockEncoding::Seq);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
    }
}
