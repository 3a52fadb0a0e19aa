//! Termination by linear lexicographic ranking functions over the strongly connected components of
//! the block-encoded control-flow automaton, and nontermination by a fixpoint lasso.
//!
//! # What it computes
//!
//! The inlined CFA ([`cfa`]) is block-encoded with large blocks ([`blocks::encode_all`]: every
//! location reachable from the initial one is kept, whether or not it reaches an error location), so
//! every execution of the program is a run of the encoded automaton (a word of letters, each letter a
//! transition formula). Supporting invariants `Inv(l)` are first `true`, then, if that fails, the
//! inductive invariants of [`invariants::synthesize`] (Karr + Houdini).
//!
//! For every non-trivial strongly connected component with letter set `L` the prover looks for a
//! linear function `f(x) = Σ c_v·v + c_0` over the numeric program variables and a non-empty set
//! `S ⊆ L` ("strict" letters) such that, for every letter `a: l → l'` of `L`,
//! - `Inv(l) ∧ a(x, x') ⇒ f(x') ≤ f(x)` (non-increasing), and for `a ∈ S` also
//! - `Inv(l) ∧ a(x, x') ⇒ f(x') ≤ f(x) − 1 ∧ f(x) ≥ 0` (decreasing by a fixed δ = 1, bounded),
//!
//! then removes `S` and recurses on the non-trivial SCCs of `L \ S`. The conditions become linear
//! constraints over the coefficients `c` and Farkas multipliers ([`linear::farkas`], after an
//! over-approximating DNF of each letter, [`linear::dnf`]; a disjunctive letter gives one set of
//! constraints per disjunct), solved as one query in linear real arithmetic per SCC and level
//! (Podelski & Rybalchenko, "A complete method for the synthesis of linear ranking functions", VMCAI
//! 2004; Heizmann, Hoenicke, Leike & Podelski, "Linear ranking for linear lasso programs", ATVA 2013
//! for supporting invariants and the Motzkin/Farkas encoding). Rational coefficients are scaled to
//! integers (a positive multiple of a ranking function is one).
//!
//! Over the reals a loop `x := x - y` with `y > 0` has no such δ (`y` may be as small as wanted),
//! yet along one run `y` is constant: where no other template applies and every variable is real,
//! a strict letter may decrease `f` by `D(c)` instead of 1, a linear term over the component's
//! loop constants (variables no letter of it writes) with `Inv(l) ∧ a ⇒ D(c) > 0` — a strict
//! goal, by Motzkin's transposition theorem ([`linear::motzkin_strict`]) — so that the strict
//! supporting invariant `y > 0` serves ([`Level::decrease`]).
//!
//! When no single `f` exists for a component, one function `f_l` per location is tried (Alias,
//! Darte, Feautrier & Gonnord, SAS 2010): the conditions of a letter `a: l → l'` then read
//! `f_l'(x') ≤ f_l(x)` (and `− 1`, `f_l(x) ≥ 0`), the same argument over the sequence of values
//! `f_{l_t}(x_t)` along a run. Then piecewise functions (Leike & Heizmann, TACAS 2014):
//! `f_l(x) = ite(g(x) <= 0, f_l¹(x), f_l²(x))` for a discriminator `g` guessed from the comparisons
//! the letters make (a branch condition `x <= y` gives `g = x - y`), which keeps the template
//! linear: each letter's conditions are asked once per pair of halves before and after it (`g <= 0`
//! or `g >= 1`, which cover the integers), an unsatisfiable pair skipped; `min(x, y)` ranks a loop
//! that lowers the smaller variable and forgets the other. A component in which no two letters can follow each other
//! (`Inv(l) ∧ a; b` unsat for all consecutive `a`, `b`) needs no function: a run stays in it for at
//! most one step (asked before any DNF, so also of letters whose DNF is too large for the
//! templates). Where no function is found, the same question for paths of up to
//! [`MAX_RUN`]` + 1` letters: a component in which no path of `n + 1` letters is feasible is left
//! after at most `n` steps (`while (x % 4 >= 1) { x := x - 1; }` runs at most three times, which
//! no function linear over the rationals shows: the bound needs the integers). The automaton is
//! block-encoded with large blocks; when a letter's DNF exceeds [`MAX_DISJUNCTS`] without
//! invariants and with them (a conjunct `x == c` of a letter, such as an invariant `mask == 0`, is
//! substituted into the rest before the DNF, which decides the case splits of an
//! over-approximated `x & mask`), and its component has no bounded runs, the sequential encoding
//! (letters are single paths) is used instead.
//!
//! Maps: a read `m[e]` that a cyclic letter makes at an index over numeric variables is a *cell*, a
//! further component of the template; each letter is conjoined with the cells' values before and
//! after it and its maps are expanded ([`cells::expand_maps`]: definitions of post maps substituted,
//! reads pushed over writes) before the DNF; other reads stay abstraction variables. A ranking
//! function over cells is turned back into one over map reads, which [`check`] re-verifies like
//! any other.
//!
//! Why this is a proof (a lexicographic ranking function): an infinite run eventually stays inside
//! one SCC of the letter graph and uses its letters `L`. Along it `f` never increases; a letter of
//! `S` starts in a state with `f ≥ 0` and decreases `f` by at least 1, so letters of `S` occur only
//! finitely often; the run's tail is then a run of `L \ S`, which stays in one of its SCCs, and the
//! argument repeats on a strictly smaller letter set, ending with the empty set, which has no
//! infinite run. The states in the argument are reachable, so they satisfy the invariants.
//!
//! # Soundness invariant
//!
//! TERMINATING is returned only after [`check`] re-verified the whole certificate in a *fresh* solver
//! session, independently of the synthesis: every invariant is inductive (`Inv(l) ∧ a ∧ ¬Inv(l')'`
//! unsat for every reachable letter, `Inv(init) = true`), every letter into an error location is
//! infeasible under `Inv` (so the open question whether an execution that fails an assertion stops or
//! continues does not arise), the SCC structure of the certificate is recomputed from the automaton
//! (each non-trivial SCC of the reachable letters, and of each `L \ S`, has its level), and every
//! non-increase, decrease and boundedness condition is an implication whose negation the solver
//! answered `unsat` for, with the original letter formula (not the linear over-approximation). Any
//! other answer (`sat`, `unknown`, an error) means no verdict.
//!
//! NONTERMINATING (a fixpoint lasso): a path `stem` from the initial location to a location `h` (the
//! shortest one, or it followed by the cycle once) and
//! a cycle `loop` from `h` back to `h` of letters with `∃ s. stem(·, s) ∧ loop(s, s)` — the loop
//! maps `s` to `s` itself, so repeating the same choices runs forever. Only when no letter on the
//! lasso is an over-approximation (`{:overapproximation}` edges) or applies an uninterpreted
//! function, and after the query is answered `sat` again in a fresh session (with the ∀-definitions
//! of recursive functions asserted).

use super::cells;
use super::linear::{self, Constraint, Lin, Q, Rel};
use crate::engine::blocks::{self, Encoded, LetterId};
use crate::engine::cfa::{self, Cfa, LocId};
use crate::engine::hoare::primed;
use crate::engine::invariants::{self, Invariants};
use crate::engine::transition::{PVar, TransFormula, Vocabulary};
use crate::engine::{BlockEncoding, Config, pretty};
use crate::ir::Program;
use crate::smt::{Op, SatResult, Session, SolverConfig, Sort, Term, TermKind, Value, Var};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// Disjuncts per letter at most (a larger DNF leaves its SCC unproved).
const MAX_DISJUNCTS: usize = 64;
/// Locations of a component with functions of their own at most (each adds a set of unknowns).
const MAX_FUNCTION_LOCATIONS: usize = 48;
/// Lexicographic levels per SCC at most (each level removes at least one piece, so this only
/// bounds the time: a component of 48 pieces may need 48 levels; 16 left `s3-work.t2.c`,
/// `zeroconf.t2.c` unproved).
const MAX_LEVELS: usize = 64;
/// Largest bound of a level of bounded runs ([`Level::bound`]).
const MAX_RUN: usize = 8;
/// Most paths of one length that a level of bounded runs asks about.
const MAX_RUN_PATHS: usize = 16;
/// The limit of one query about runs longer than one step (asked only where no ranking function
/// was found).
const RUN_QUERY_LIMIT: Duration = Duration::from_millis(300);
/// The time for the runs longer than one step of one component, all lengths together.
const RUN_BUDGET: Duration = Duration::from_secs(1);

/// Why the synthesis failed: a letter's DNF too large for the templates, or another reason.
#[derive(Clone, Debug)]
pub(super) enum Failure {
    TooManyDisjuncts,
    TooManyLevels,
    Other(String),
}

impl From<String> for Failure {
    fn from(s: String) -> Failure {
        Failure::Other(s)
    }
}

impl From<&str> for Failure {
    fn from(s: &str) -> Failure {
        Failure::Other(s.to_string())
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::TooManyDisjuncts => {
                write!(f, "a loop's transition formula has too many disjuncts")
            }
            Failure::TooManyLevels => write!(f, "too many lexicographic levels"),
            Failure::Other(s) => write!(f, "{s}"),
        }
    }
}

/// The prover's answer.
#[derive(Clone, Debug)]
pub enum Answer {
    Terminating(String),
    Nonterminating(String),
    Unknown(String),
}

/// One level of the lexicographic argument on `letters` (an SCC). With one component `f = [f0]`:
/// `f0` is non-increasing on `letters` and decreases by at least 1 from a state where it is
/// non-negative on `strict`. With `k > 1` components (a nested ranking function, Leike & Heizmann,
/// "Ranking templates for linear loops", TACAS 2014): `strict = letters`, and on every letter
/// `f0(x') <= f0(x) - 1`, `fi(x') <= fi(x) + f(i-1)(x)` for `i >= 1`, and `f(k-1)(x) >= 0` — `f0`
/// falls linearly, `f1` then eventually falls faster and faster, and so on, so the last one cannot
/// stay non-negative forever.
/// `letters` and `strict` are sets of [`Piece`]s.
#[derive(Clone, Debug)]
pub struct Level {
    pub letters: BTreeSet<PieceId>,
    pub f: Vec<Term>,
    pub strict: BTreeSet<PieceId>,
    /// A multiphase ranking function (Leike & Heizmann, TACAS 2014; Ben-Amram & Genaim): `strict =
    /// letters`, and on every letter `f0(x') <= f0(x) - 1`, for `i >= 1` `fi(x') <= fi(x) - 1` or
    /// some `fj(x) > 0` with `j < i`, and some `fi(x) > 0`. Along an infinite run `f0` is eventually
    /// `<= 0` forever, then `f1` decreases at every step and is eventually `<= 0` forever, and so
    /// on, until no component is positive: a contradiction.
    pub multiphase: bool,
    /// One function per location (Alias, Darte, Feautrier & Gonnord, "Multi-dimensional rankings,
    /// program termination, and complexity bounds of flowchart programs", SAS 2010): the conditions
    /// of a letter `l → l'` compare `f_l(x)` with `f_l'(x')`; `f` is then the function at the
    /// smallest location. `None`: `f` at every location.
    pub per_location: Option<BTreeMap<LocId, Vec<Term>>>,
    /// `Some(n)`: a run inside the level has at most `n` steps in a row — `Inv(l_1) ∧ a_1 ∧ … ∧
    /// Inv(l_{n+1}) ∧ a_{n+1}` (composed) is unsat for every path `a_1 … a_{n+1}` of consecutive
    /// letters of the level, `a_i: l_i → l_{i+1}`. `n = 1`: no two letters can follow each other
    /// (`while (0 <= x <= 1) { x := 3 * x - 1; }`); `n = 3`: `while (x % 4 >= 1) { x := x - 1; }`,
    /// whose bound no linear function over the rationals shows (it needs the integers). `f` is
    /// empty and every letter strict.
    pub bound: Option<usize>,
    /// `Some(D)` (one component, not multiphase): a strict letter decreases `f` by at least `D`
    /// instead of 1, where `D > 0` there and no letter of the level changes `D` (a linear term
    /// over loop constants, over the reals: `x := x - y` with `y > 0`). Along a run's tail inside
    /// the level `D` is one positive number, so `f`, non-negative before each strict step, allows
    /// finitely many of them: the affine argument with δ = `D`.
    pub decrease: Option<Term>,
}

impl Level {
    /// The components at location `l`.
    pub fn at(&self, l: LocId) -> Option<&[Term]> {
        match &self.per_location {
            Some(m) => m.get(&l).map(Vec::as_slice),
            None => Some(&self.f),
        }
    }
}

/// The components of a level's functions: shared by every location, or one set per location.
type Functions = (Vec<Term>, Option<BTreeMap<LocId, Vec<Term>>>);

pub type PieceId = usize;

/// A piece of a letter: the letter restricted by `guard` (a disjunct of its linear DNF; `true` for a
/// letter with one disjunct). The pieces of a letter cover it (checked): the lexicographic argument
/// runs over pieces, so the disjuncts of one letter may be ranked at different levels.
#[derive(Clone, Debug)]
pub struct Piece {
    pub letter: LetterId,
    pub guard: Term,
}

/// The certificate checked by [`check`].
#[derive(Clone, Debug)]
pub struct Certificate {
    pub invariants: Invariants,
    pub pieces: Vec<Piece>,
    pub levels: Vec<Level>,
}

pub(super) fn session_config(config: &Config, deadline: Option<Instant>) -> SolverConfig {
    let mut c = SolverConfig::new(config.solver);
    let limit = Duration::from_secs_f64(config.query_timeout_s.min(5.0));
    c.query_timeout = match deadline {
        Some(d) => limit.min(
            d.saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100)),
        ),
        None => limit,
    };
    c.log_dir = config.smt_log.clone();
    c.produce_models = true;
    c.deadline = deadline;
    c
}

pub(super) fn timed_out(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// What the termination techniques share for one program: its vocabulary, CFA and large-block
/// encoding, each built once (encoding a large program with many paths takes seconds, and the
/// ranking prover, the fixpoint search and GNTA all work on the same encoding).
pub struct Shared<'p> {
    pub voc: Vocabulary<'p>,
    cfa: Result<Cfa, String>,
    large: std::cell::OnceCell<Result<Encoded, String>>,
    /// The CFA is the descent program of a recursive program ([`super::descent`]): its
    /// termination proves the program's; its runs through a call's return edge (marked as an
    /// over-approximation) need not be executions of the program.
    pub descent: bool,
}

impl<'p> Shared<'p> {
    pub fn new(program: &'p Program, config: &Config) -> Self {
        let voc = Vocabulary::new(program);
        let (mut cfa, descent) = match cfa::build(&voc, config.max_locations) {
            Err(cfa::BuildError::Recursion(_)) => {
                match cfa::build_nested(&voc, config.max_locations, 1) {
                    Ok(nested) => (Ok(super::descent::descent(&voc, nested)), true),
                    Err(e) => (Err(e.to_string()), false),
                }
            }
            built => (built.map_err(|e| e.to_string()), false),
        };
        if let (Ok(c), false) = (&mut cfa, descent) {
            super::slice_cfa(c, &voc, config);
        }
        Shared {
            voc,
            cfa,
            large: std::cell::OnceCell::new(),
            descent,
        }
    }

    /// The CFA, or why there is none.
    pub fn cfa(&self) -> Result<&Cfa, String> {
        self.cfa.as_ref().map_err(Clone::clone)
    }

    /// The large-block encoding of the CFA (built on first use), or why there is none.
    pub fn large(&self) -> Result<&Encoded, String> {
        let cfa = self.cfa()?;
        self.large
            .get_or_init(|| {
                blocks::encode_all(cfa, &self.voc, BlockEncoding::Large)
                    .map_err(|u| format!("unsupported: {}", u.0))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// Tries to prove termination (or nontermination by a fixpoint) of `program` before `deadline`.
pub fn prove(program: &Program, config: &Config, deadline: Option<Instant>) -> Answer {
    // Large blocks first (few letters, one function per loop usually suffices); when a letter's
    // DNF is too large (many paths through a loop body), the finer sequential encoding, whose
    // letters are single paths, with functions per location.
    let mut queries = 0;
    let prep = Shared::new(program, config);
    match prove_with(&prep, config, deadline, BlockEncoding::Large, &mut queries) {
        (_, true) => prove_with(&prep, config, deadline, BlockEncoding::Seq, &mut queries).0,
        (answer, false) => answer,
    }
}

/// [`prove`] on the block encoding `mode` only; also whether some letter's DNF was too large for
/// the templates (the finer [`BlockEncoding::Seq`] may then succeed). `queries` counts the solver
/// checks made.
pub fn prove_with(
    prep: &Shared,
    config: &Config,
    deadline: Option<Instant>,
    mode: BlockEncoding,
    queries: &mut usize,
) -> (Answer, bool) {
    let cfa = match prep.cfa() {
        Ok(c) => c,
        Err(e) => return (Answer::Unknown(e), false),
    };
    // The SCCs below are those of one sequential graph: threads would need the interleaving product.
    if cfa.is_concurrent() {
        let why = "unsupported: termination of concurrent programs (fork)";
        return (Answer::Unknown(why.into()), false);
    }
    let voc = &prep.voc;
    let finer;
    let enc = if mode == BlockEncoding::Large {
        match prep.large() {
            Ok(e) => e,
            Err(e) => return (Answer::Unknown(e), false),
        }
    } else {
        finer = match blocks::encode_all(cfa, voc, mode) {
            Ok(e) => e,
            Err(u) => return (Answer::Unknown(format!("unsupported: {}", u.0)), false),
        };
        &finer
    };
    let fine = mode != BlockEncoding::Large;
    match certificate(voc, cfa, enc, config, deadline, fine, queries) {
        Ok(cert) => {
            let mut why = describe(voc, cfa, enc, &cert);
            if prep.descent {
                why.push_str(
                    "; calls of recursive procedures as descents into the callee or returns \
                     with any result",
                );
            }
            (Answer::Terminating(why), false)
        }
        Err(Failure::TooManyDisjuncts) => {
            (Answer::Unknown(Failure::TooManyDisjuncts.to_string()), true)
        }
        Err(e @ Failure::TooManyLevels) => (Answer::Unknown(e.to_string()), false),
        Err(Failure::Other(reason)) => (Answer::Unknown(reason), false),
    }
}

/// A ranking certificate for the encoded automaton `enc` (functions per SCC of its reachable
/// letters, first without supporting invariants, then with those of [`invariants::synthesize`]),
/// re-checked by [`check`] in a fresh session; `fine` says that letters are single paths;
/// `queries` counts the solver checks made. [`super::buchi`] calls it on a lasso's encoding (stem
/// letter and loop letter).
pub(super) fn certificate(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    config: &Config,
    deadline: Option<Instant>,
    fine: bool,
    queries: &mut usize,
) -> Result<Certificate, Failure> {
    let mut session = Session::new(session_config(config, deadline))
        .map_err(|e| Failure::Other(format!("solver: {e}")))?;
    let result = certify(voc, cfa, enc, config, deadline, fine, &mut session, queries);
    *queries += session.stats().checks as usize;
    result
}

#[allow(clippy::too_many_arguments)]
fn certify(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    config: &Config,
    deadline: Option<Instant>,
    fine: bool,
    session: &mut Session,
    queries: &mut usize,
) -> Result<Certificate, Failure> {
    let reach = reachable_letters(enc);
    let mut last = Failure::Other("no ranking function found".into());
    for with_invariants in [false, true] {
        if timed_out(deadline) {
            return Err("timeout".into());
        }
        let inv = if with_invariants {
            let limits = invariants::Limits {
                deadline,
                termination_candidates: true,
                ..invariants::Limits::default()
            };
            let mut inv = invariants::synthesize(voc, cfa, enc, session, &limits);
            inv.at.remove(&enc.init);
            if crate::engine::cegar::debug() {
                for (l, ts) in &inv.at {
                    for t in ts {
                        eprintln!(
                            "ranking: supporting invariant @{l}: {}",
                            pretty::term(voc, t)
                        );
                    }
                }
            }
            if inv.is_empty() {
                break;
            }
            inv
        } else {
            Invariants::default()
        };
        let strengthened = invariants::strengthen(voc, enc, &inv);
        match synthesize(voc, cfa, &strengthened, &reach, session, deadline, fine) {
            Ok((pieces, levels)) => {
                let cert = Certificate {
                    invariants: inv,
                    pieces,
                    levels,
                };
                let mut fresh = Session::new(session_config(config, deadline))
                    .map_err(|e| Failure::Other(format!("solver: {e}")))?;
                let checked = check(voc, cfa, enc, &cert, &mut fresh);
                *queries += fresh.stats().checks as usize;
                return match checked {
                    Ok(()) => Ok(cert),
                    Err(e) => Err(Failure::Other(format!(
                        "ranking certificate not confirmed: {e}"
                    ))),
                };
            }
            // Too many disjuncts without invariants: with them (an invariant `y == 0` decides
            // the cases of an operation over-approximated by implications over `y`) the letter
            // may have fewer.
            Err(e) => {
                // (too many disjuncts in either round: the caller tries single paths)
                if !matches!(last, Failure::TooManyDisjuncts) {
                    last = e;
                }
            }
        }
    }
    Err(last)
}

/// Looks for a fixpoint lasso (module comment) before `deadline`; the reason if one is found and
/// re-confirmed.
pub fn fixpoint_lasso(prep: &Shared, config: &Config, deadline: Option<Instant>) -> Option<String> {
    let cfa = prep.cfa().ok()?;
    if cfa.is_concurrent() {
        return None;
    }
    let enc = prep.large().ok()?;
    let reach = reachable_letters(enc);
    fixpoint(&prep.voc, cfa, enc, &reach, config, deadline)
}

/// Letters whose source is reachable from the initial location.
pub(super) fn reachable_letters(enc: &Encoded) -> BTreeSet<LetterId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![enc.init];
    let mut out = BTreeSet::new();
    while let Some(l) = stack.pop() {
        if !seen.insert(l) {
            continue;
        }
        for &a in &enc.out[l] {
            out.insert(a);
            stack.push(enc.letters[a].tgt);
        }
    }
    out
}

/// The non-trivial strongly connected components of the graph of `letters`: for each, the letters
/// with both ends inside it (ordered by their smallest letter).
pub fn sccs(enc: &Encoded, letters: &BTreeSet<LetterId>) -> Vec<BTreeSet<LetterId>> {
    let edges: BTreeMap<usize, (LocId, LocId)> = letters
        .iter()
        .map(|&a| (a, (enc.letters[a].src, enc.letters[a].tgt)))
        .collect();
    components(&edges)
}

/// The non-trivial strongly connected components of a graph given by its edges `id → (src, tgt)`:
/// for each, the edges with both ends inside it (ordered by their smallest edge).
fn components(edges: &BTreeMap<usize, (LocId, LocId)>) -> Vec<BTreeSet<usize>> {
    let mut succ: BTreeMap<LocId, BTreeSet<LocId>> = BTreeMap::new();
    for &(src, tgt) in edges.values() {
        succ.entry(src).or_default().insert(tgt);
        succ.entry(tgt).or_default();
    }
    // Reachability from each node (graphs are small).
    let reach: BTreeMap<LocId, BTreeSet<LocId>> = succ
        .keys()
        .map(|&n| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![n];
            while let Some(m) = stack.pop() {
                for &t in &succ[&m] {
                    if seen.insert(t) {
                        stack.push(t);
                    }
                }
            }
            (n, seen)
        })
        .collect();
    // Component representative: the smallest node mutually reachable with `n` (or `n`).
    let rep = |n: LocId| -> LocId {
        reach[&n]
            .iter()
            .copied()
            .filter(|m| reach[m].contains(&n))
            .min()
            .unwrap_or(n)
            .min(n)
    };
    let mut comps: BTreeMap<LocId, BTreeSet<usize>> = BTreeMap::new();
    for (&id, &(src, tgt)) in edges {
        // An edge is inside a component iff its target reaches back to its source.
        if reach[&tgt].contains(&src) {
            comps.entry(rep(src)).or_default().insert(id);
        }
    }
    let mut out: Vec<BTreeSet<usize>> = comps.into_values().collect();
    out.sort_by_key(|s| s.iter().next().copied());
    out
}

/// A piece prepared for the synthesis: its letter, its constraints (one feasible disjunct of the
/// letter's linear DNF), the numeric program variables the letter writes (pre and post variables).
struct Prepared {
    letter: LetterId,
    constraints: Vec<Constraint>,
    writes: Vec<(Var, Var)>,
}

/// Synthesises the levels for every non-trivial SCC of `reach` (the letters already carry the
/// supporting invariants); `Err` with a reason when some SCC is not proved.
fn synthesize(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    reach: &BTreeSet<LetterId>,
    session: &mut Session,
    deadline: Option<Instant>,
    fine: bool,
) -> Result<(Vec<Piece>, Vec<Level>), Failure> {
    // Letters into error locations must be infeasible (see the module comment).
    for &a in reach {
        let l = &enc.letters[a];
        if cfa.error_of(l.tgt).is_some() {
            session.push();
            session.assert(&l.tf.formula);
            let r = session.check_sat();
            session.pop();
            if r != SatResult::Unsat {
                return Err("an assertion may fail (its semantics for termination is open)".into());
            }
        }
    }
    // Every letter on a cycle is split into the feasible disjuncts of its linear DNF.
    let mut prepared: Vec<Prepared> = Vec::new();
    let mut pieces: Vec<Piece> = Vec::new();
    let cells = map_cells(voc, enc, &sccs(enc, reach));
    // Pieces of letters whose DNF is too large: whole letters, for which only bounded runs are
    // tried (they need no DNF).
    let mut whole: BTreeSet<PieceId> = BTreeSet::new();
    for scc in sccs(enc, reach) {
        for a in scc {
            if timed_out(deadline) {
                return Err("timeout".into());
            }
            let (disjuncts, writes, meanings) = match prepare(voc, enc, a, &cells, session) {
                Ok(prepared) => prepared,
                Err(Failure::TooManyDisjuncts) => {
                    whole.insert(pieces.len());
                    pieces.push(Piece {
                        letter: a,
                        guard: Term::tt(),
                    });
                    prepared.push(Prepared {
                        letter: a,
                        constraints: Vec::new(),
                        writes: Vec::new(),
                    });
                    continue;
                }
                Err(e) => return Err(e),
            };
            let split = disjuncts.len() > 1;
            for d in disjuncts {
                let guard = if split {
                    // Abstraction variables replaced by the terms they stand for.
                    Term::and(d.iter().map(Constraint::term).collect()).substitute(&meanings)
                } else {
                    Term::tt()
                };
                pieces.push(Piece { letter: a, guard });
                prepared.push(Prepared {
                    letter: a,
                    constraints: d,
                    writes: writes.clone(),
                });
            }
        }
    }
    let all: BTreeSet<PieceId> = (0..pieces.len()).collect();
    let mut levels = Vec::new();
    let mut todo: Vec<(BTreeSet<PieceId>, usize)> = piece_sccs(enc, &pieces, &all)
        .into_iter()
        .map(|s| (s, 0))
        .collect();
    todo.reverse();
    while let Some((scc, depth)) = todo.pop() {
        if timed_out(deadline) {
            return Err("timeout".into());
        }
        if depth >= MAX_LEVELS {
            return Err(Failure::TooManyLevels);
        }
        let bounded = |n: usize, scc: BTreeSet<PieceId>| Level {
            letters: scc.clone(),
            f: Vec::new(),
            strict: scc,
            multiphase: false,
            per_location: None,
            bound: Some(n),
            decrease: None,
        };
        if let Some(n) = bounded_runs(voc, enc, &scc, &pieces, session, false, deadline) {
            levels.push(bounded(n, scc));
            continue;
        }
        // No templates over a letter without its DNF (the caller then tries single paths).
        let found = if scc.is_disjoint(&whole) {
            level(voc, enc, &scc, &prepared, &cells, session, fine).map_err(Failure::from)
        } else {
            Err(Failure::TooManyDisjuncts)
        };
        let ((f, per_location), strict, multiphase, decrease) = match found {
            Ok(found) => found,
            // Longer bounds only where no ranking function exists (most loops have no bound, and
            // each length costs queries).
            Err(e) => match bounded_runs(voc, enc, &scc, &pieces, session, true, deadline) {
                Some(n) => {
                    levels.push(bounded(n, scc));
                    continue;
                }
                None => return Err(e),
            },
        };
        // Cells back to the map reads they stand for.
        let reads: HashMap<Var, Term> = cells
            .iter()
            .map(|c| (c.pre.clone(), c.read.clone()))
            .collect();
        let back = |fs: &[Term]| -> Vec<Term> { fs.iter().map(|t| t.substitute(&reads)).collect() };
        let f = back(&f);
        let decrease = decrease.map(|d| d.substitute(&reads));
        let per_location = per_location.map(|m| m.iter().map(|(l, fs)| (*l, back(fs))).collect());
        let rest: BTreeSet<PieceId> = scc.difference(&strict).copied().collect();
        let mut subs = piece_sccs(enc, &pieces, &rest);
        subs.reverse();
        for s in subs {
            todo.push((s, depth + 1));
        }
        levels.push(Level {
            letters: scc,
            f,
            strict,
            multiphase,
            per_location,
            bound: None,
            decrease,
        });
    }
    Ok((pieces, levels))
}

/// The paths of `len` consecutive letters (each starting where the previous one ends) among the
/// letters of the pieces `scc`; `None` when there are more than [`MAX_RUN_PATHS`].
fn runs(
    enc: &Encoded,
    scc: &BTreeSet<PieceId>,
    pieces: &[Piece],
    len: usize,
) -> Option<Vec<Vec<LetterId>>> {
    let letters: BTreeSet<LetterId> = scc
        .iter()
        .filter_map(|&p| Some(pieces.get(p)?.letter))
        .collect();
    let mut paths: Vec<Vec<LetterId>> = letters.iter().map(|&a| vec![a]).collect();
    for _ in 1..len {
        let mut longer = Vec::new();
        for path in &paths {
            let end = path.last().map(|&a| enc.letters[a].tgt);
            for &b in &letters {
                if Some(enc.letters[b].src) == end {
                    let mut p = path.clone();
                    p.push(b);
                    longer.push(p);
                    if longer.len() > MAX_RUN_PATHS {
                        return None;
                    }
                }
            }
        }
        paths = longer;
    }
    (paths.len() <= MAX_RUN_PATHS).then_some(paths)
}

/// The composition of the letters of `path`, each conjoined with `inv` at its source (`None` for
/// the invariants the letters of `enc` already carry).
fn run_formula(
    voc: &Vocabulary,
    enc: &Encoded,
    path: &[LetterId],
    inv: Option<&Invariants>,
) -> Result<Term, String> {
    let mut composed: Option<TransFormula> = None;
    for &a in path {
        let l = &enc.letters[a];
        let mut tf = l.tf.clone();
        if let Some(inv) = inv {
            tf.formula = Term::and(vec![inv.term_at(l.src), tf.formula]);
        }
        composed = Some(match composed {
            None => tf,
            Some(c) => crate::engine::transition::seq(voc, &c, &tf)
                .map_err(|u| format!("unsupported: {}", u.0))?,
        });
    }
    Ok(composed.map_or_else(Term::tt, |c| c.formula))
}

/// The least `n` such that no path of `n + 1` consecutive letters of the pieces `scc` is feasible
/// ([`Level::bound`]): `n = 1` within the session's limits, or (`longer`) `2 <= n <= MAX_RUN`
/// within [`RUN_QUERY_LIMIT`] per query and [`RUN_BUDGET`] in all; the letters of `enc` carry the
/// supporting invariants at their sources. `None` when there is none, when there are too many
/// paths of some length to ask, or when a query is not answered.
fn bounded_runs(
    voc: &Vocabulary,
    enc: &Encoded,
    scc: &BTreeSet<PieceId>,
    pieces: &[Piece],
    session: &mut Session,
    longer: bool,
    deadline: Option<Instant>,
) -> Option<usize> {
    let (bounds, limit, deadline) = if longer {
        let budget = Instant::now() + RUN_BUDGET;
        let until = deadline.map_or(budget, |d| d.min(budget));
        (2..=MAX_RUN, Some(RUN_QUERY_LIMIT), Some(until))
    } else {
        (1..=1, None, deadline)
    };
    for n in bounds {
        if timed_out(deadline) {
            return None;
        }
        let mut infeasible = true;
        for path in runs(enc, scc, pieces, n + 1)? {
            let formula = run_formula(voc, enc, &path, None).ok()?;
            session.push();
            session.assert(&formula);
            let r = match limit {
                Some(limit) => session.check_sat_within(limit),
                None => session.check_sat(),
            };
            session.pop();
            match r {
                SatResult::Unsat => {}
                SatResult::Sat => {
                    infeasible = false;
                    break;
                }
                SatResult::Unknown(_) => return None,
            }
        }
        if infeasible {
            return Some(n);
        }
    }
    None
}

/// The non-trivial SCCs of the graph of the pieces `ids`.
fn piece_sccs(enc: &Encoded, pieces: &[Piece], ids: &BTreeSet<PieceId>) -> Vec<BTreeSet<PieceId>> {
    let edges: BTreeMap<usize, (LocId, LocId)> = ids
        .iter()
        .filter_map(|&p| {
            let l = &enc.letters[pieces.get(p)?.letter];
            Some((p, (l.src, l.tgt)))
        })
        .collect();
    components(&edges)
}

/// A map cell as a component of ranking functions: `read` = `m[e]` over pre variables (`m` a map
/// from numbers to numbers, `e` over numeric variables), named `pre` in the synthesis and `post`
/// for its value after a letter (LassoRanker's map elimination; see [`super::cells`]).
struct MapCell {
    read: Term,
    pre: Var,
    post: Var,
}

/// Cells at most.
const MAX_MAP_CELLS: usize = 6;

/// Boolean variables as components at most.
const MAX_BOOL_CELLS: usize = 4;

/// The extra components of the templates for the letters of `sccs`: the map cells they read at
/// indices over numeric pre variables, and their boolean program variables `b` as `ite(b, 1, 0)`
/// (`while (b) { b := false; }` is ranked by it).
fn map_cells(voc: &Vocabulary, enc: &Encoded, sccs: &[BTreeSet<LetterId>]) -> Vec<MapCell> {
    let formulas = sccs.iter().flatten().map(|&a| &enc.letters[a].tf.formula);
    let mut reads = invariants::map_reads(voc, formulas, MAX_MAP_CELLS, false);
    let mut bools: BTreeSet<PVar> = BTreeSet::new();
    for &a in sccs.iter().flatten() {
        for x in enc.letters[a].tf.vars() {
            if voc.sort(x) == Ok(Sort::Bool) && !voc.is_const(x) {
                bools.insert(x);
            }
        }
    }
    for x in bools.into_iter().take(MAX_BOOL_CELLS) {
        if let Ok(b) = voc.pre(x) {
            reads.push(Term::ite(&Term::var(&b), &Term::int(1), &Term::int(0)));
        }
    }
    reads
        .into_iter()
        .enumerate()
        .map(|(k, read)| {
            let sort = read.sort();
            MapCell {
                read,
                pre: Var::new(format!("rank@cell{k}"), sort.clone()),
                post: Var::new(format!("rank@cell{k}@post"), sort),
            }
        })
        .collect()
}

/// A letter's feasible disjuncts and its written numeric variables (pre, post).
type Prepared0 = (Vec<Vec<Constraint>>, Vec<(Var, Var)>, HashMap<Var, Term>);

/// `φ` with the variables that its conjuncts `x == c` fix to a constant replaced by it in the
/// other conjuncts (equivalent, the equalities kept): facts of an over-approximated operation,
/// implications over an operand that a supporting invariant fixes, collapse before the DNF.
fn with_constants(phi: &Term) -> Term {
    let conjuncts: Vec<Term> = match phi.as_app() {
        Some((Op::And, cs)) => cs.to_vec(),
        _ => return phi.clone(),
    };
    let mut fixed: HashMap<Var, Term> = HashMap::new();
    let mut equalities = Vec::new();
    for c in &conjuncts {
        if let Some((Op::Eq, [l, r])) = c.as_app() {
            let pair = match (l.as_var(), r.as_var()) {
                (Some(v), None) if r.as_const().is_some() => Some((v, r)),
                (None, Some(v)) if l.as_const().is_some() => Some((v, l)),
                _ => None,
            };
            if let Some((v, k)) = pair
                && !fixed.contains_key(v)
            {
                fixed.insert(v.clone(), k.clone());
                equalities.push(c.clone());
            }
        }
    }
    if fixed.is_empty() {
        return phi.clone();
    }
    let mut out: Vec<Term> = conjuncts.iter().map(|c| c.substitute(&fixed)).collect();
    out.extend(equalities);
    crate::smt::simplify(&Term::and(out))
}

/// The DNF of a letter with its infeasible disjuncts removed; with cells, the letter is first
/// conjoined with the cells' definitions before and after it, its maps expanded
/// ([`cells::expand_maps`]).
fn prepare(
    voc: &Vocabulary,
    enc: &Encoded,
    a: LetterId,
    cells: &[MapCell],
    session: &mut Session,
) -> Result<Prepared0, Failure> {
    let letter = &enc.letters[a];
    let mut formula = with_constants(&letter.tf.formula);
    let mut cell_meanings = Vec::new();
    if !cells.is_empty() {
        let mut conj = vec![formula];
        for c in cells {
            let after = primed(voc, &c.read, letter);
            conj.push(Term::eq(&Term::var(&c.pre), &c.read));
            conj.push(Term::eq(&Term::var(&c.post), &after));
            cell_meanings.push((c.pre.clone(), c.read.clone()));
            cell_meanings.push((c.post.clone(), after));
        }
        // Functional consistency where the letter fixes it: two cells of one map whose indices
        // the letter makes equal (before, or after it) hold equal values.
        for (k, c) in cells.iter().enumerate() {
            for d in &cells[k + 1..] {
                let (Some((Op::Select, [m, e])), Some((Op::Select, [n, f]))) =
                    (c.read.as_app(), d.read.as_app())
                else {
                    continue;
                };
                if m != n {
                    continue;
                }
                let pairs = [
                    (e.clone(), f.clone(), &c.pre, &d.pre),
                    (
                        primed(voc, e, letter),
                        primed(voc, f, letter),
                        &c.post,
                        &d.post,
                    ),
                ];
                for (e, f, x, y) in pairs {
                    session.push();
                    session.assert(&letter.tf.formula);
                    session.assert(&Term::not(&Term::eq(&e, &f)));
                    let equal = session.check_sat() == SatResult::Unsat;
                    session.pop();
                    if equal {
                        conj.push(Term::eq(&Term::var(x), &Term::var(y)));
                    }
                }
            }
        }
        let with_cells = Term::and(conj);
        let keep = |v: &Var| matches!(voc.lookup(v), Some((_, false)));
        formula = cells::expand_maps(&with_cells, &keep, MAX_DISJUNCTS).unwrap_or(with_cells);
    }
    let formula = drop_detached(&formula, &letter.tf.aux, session);
    let lin = linear::dnf(&formula, MAX_DISJUNCTS).map_err(|_| Failure::TooManyDisjuncts)?;
    // Quotients `a div k` (k > 0; also those of `a mod k`) with their abstraction variables.
    let quotients: Vec<(Var, Term, BigInt)> = lin
        .meanings
        .iter()
        .filter_map(|(v, t)| match t.as_app() {
            Some((Op::IntDiv, [a, k])) => {
                let k = linear::linear(k).filter(|l| l.is_constant())?.constant;
                (k.is_integer() && num_traits::Signed::is_positive(&k))
                    .then(|| (v.clone(), a.clone(), k.to_integer()))
            }
            _ => None,
        })
        .collect();
    let mut disjuncts = Vec::new();
    for mut d in lin.disjuncts.iter().cloned() {
        if d.is_empty() {
            disjuncts.push(d);
            continue;
        }
        session.push();
        for c in &d {
            session.assert(&c.term());
        }
        let r = session.check_sat();
        if r != SatResult::Unsat {
            integer_cuts(&mut d, &quotients, session);
            disjuncts.push(d);
        }
        session.pop();
    }
    let mut writes = Vec::new();
    for &x in &letter.tf.writes {
        if let (Ok(pre), Ok(post)) = (voc.pre(x), voc.post(x)) {
            if matches!(pre.sort, Sort::Int | Sort::Real) {
                writes.push((pre, post));
            }
        }
    }
    for c in cells {
        writes.push((c.pre.clone(), c.post.clone()));
    }
    let meanings = lin.meanings.into_iter().chain(cell_meanings).collect();
    Ok((disjuncts, writes, meanings))
}

/// Integer cuts for the linear relaxation of the feasible disjunct `d` (asserted in `session`'s
/// top frame): the bounds interval propagation rounds ([`linear::integer_bounds`]), then the
/// quotient bounds only the solver sees ([`quotient_cuts`]), then propagation again if those
/// added any. (`None` from the propagation, no integer model, would contradict the solver's
/// `sat`; the disjunct then stays as it is.)
fn integer_cuts(d: &mut Vec<Constraint>, quotients: &[(Var, Term, BigInt)], session: &mut Session) {
    if let Some(cuts) = linear::integer_bounds(d) {
        d.extend(cuts);
    }
    if quotient_cuts(d, quotients, session) {
        if let Some(cuts) = linear::integer_bounds(d) {
            d.extend(cuts);
        }
    }
}

/// Cuts for the quotients of `d`: a dividend `a` of `a div k` that the disjunct keeps
/// non-negative gives `q ≥ 0`, one it keeps below `k` gives `q ≤ 0` (so an unsigned `x - y`
/// under `x > y` neither wraps nor changes); interval propagation sees bounds of single
/// variables only, not of `x - y`. A bound `d` already states is not asked for. Sound: every
/// integer model of the letter in this disjunct has `q = a div k`, and the solver showed the
/// dividend's range there. Whether a cut was added.
fn quotient_cuts(
    d: &mut Vec<Constraint>,
    quotients: &[(Var, Term, BigInt)],
    session: &mut Session,
) -> bool {
    let mut added = false;
    for (q, a, k) in quotients {
        if !d.iter().any(|c| c.lin.coef.contains_key(q)) {
            continue;
        }
        // Does a single-variable constraint of `d` give `q ≥ 0` (`lower`) or `q ≤ 0`?
        let stated = |d: &[Constraint], lower: bool| {
            d.iter().any(|c| {
                let [(v, a)] = c.lin.coef.iter().collect::<Vec<_>>()[..] else {
                    return false;
                };
                // a·q + k rel 0: q ≤ -k/a (a > 0) or q ≥ -k/a (a < 0); both for `=`.
                let bound = -&c.lin.constant / a;
                let upper_side = c.rel == linear::Rel::Eq || num_traits::Signed::is_positive(a);
                let lower_side = c.rel == linear::Rel::Eq || num_traits::Signed::is_negative(a);
                v == q
                    && if lower {
                        lower_side && !num_traits::Signed::is_negative(&bound)
                    } else {
                        upper_side && !num_traits::Signed::is_positive(&bound)
                    }
            })
        };
        let mut refuted = |t: Term| {
            session.push();
            session.assert(&t);
            let r = session.check_sat();
            session.pop();
            r == SatResult::Unsat
        };
        let qv = linear::Lin::var(q);
        if !stated(d, true) && refuted(Term::lt(a, &Term::int(0))) {
            // -q <= 0
            d.push(Constraint {
                lin: qv.scale(&-Q::one()),
                rel: linear::Rel::Le,
            });
            added = true;
        }
        if !stated(d, false) && refuted(Term::ge(a, &Term::int(k.clone()))) {
            // q <= 0
            d.push(Constraint {
                lin: qv,
                rel: linear::Rel::Le,
            });
            added = true;
        }
    }
    added
}

/// The letter's formula without its *detached* parts: a set of top-level conjuncts connected by
/// auxiliary variables, none of which mentions any other variable (a nondeterministic value tested
/// against 0 by a loop that never reads it again), is replaced by its truth value. This is exact
/// (the relation over the other variables is unchanged: the part is `∃`-quantified and closed)
/// and keeps such parts' disjunctions out of the DNF. A part the solver does not answer stays.
fn drop_detached(formula: &Term, aux: &BTreeSet<Var>, session: &mut Session) -> Term {
    if aux.is_empty() {
        return formula.clone();
    }
    // (`Term::and` flattens nested conjunctions: the top level holds them all)
    let conj = formula.conjuncts();
    // Groups of conjuncts joined by shared auxiliary variables; a group is anchored when one of
    // its conjuncts mentions another variable or none at all.
    let parts: Vec<(bool, Vec<usize>)> =
        crate::smt::qe::conjunct_groups(&conj, |v| aux.contains(v))
            .into_iter()
            .map(|g| {
                let anchored = g.iter().any(|&i| {
                    let vs = conj[i].free_vars_ref();
                    vs.is_empty() || vs.iter().any(|v| !aux.contains(v))
                });
                (anchored, g)
            })
            .collect();
    let mut dropped = vec![false; conj.len()];
    for (anchored, members) in &parts {
        if *anchored {
            continue;
        }
        session.push();
        for &i in members {
            session.assert(&conj[i]);
        }
        let r = session.check_sat();
        session.pop();
        match r {
            SatResult::Sat => members.iter().for_each(|&i| dropped[i] = true),
            SatResult::Unsat => return Term::ff(),
            _ => {}
        }
    }
    if !dropped.contains(&true) {
        return formula.clone();
    }
    Term::and(
        conj.into_iter()
            .zip(dropped)
            .filter(|(_, d)| !d)
            .map(|(c, _)| c)
            .collect(),
    )
}

/// The numeric program variables (pre-state) a letter mentions.
fn numeric_pvars(voc: &Vocabulary, t: &Term, out: &mut BTreeSet<PVar>) {
    for v in t.free_vars() {
        if let Some((x, _)) = voc.lookup(&v) {
            if matches!(voc.sort(x), Ok(Sort::Int | Sort::Real)) {
                out.insert(x);
            }
        }
    }
}

fn real(q: Q) -> Term {
    Term::real(q)
}

/// One level for `scc`: the affine template (some letters strict), else nested templates of depth
/// 2 and 3, else multiphase templates of 2 to 5 phases (every letter strict) — each with one
/// function for all locations of the component; then the affine, nested and multiphase templates
/// of depth 2 with one function per location (an SCC with several locations, e.g. a loop body
/// whose letters are not composed into one).
fn level(
    voc: &Vocabulary,
    enc: &Encoded,
    scc: &BTreeSet<LetterId>,
    prepared: &[Prepared],
    cells: &[MapCell],
    session: &mut Session,
    fine: bool,
) -> Result<(Functions, BTreeSet<PieceId>, bool, Option<Term>), String> {
    let mut last = String::new();
    let locations: BTreeSet<LocId> = scc
        .iter()
        .flat_map(|&a| {
            let l = &enc.letters[prepared[a].letter];
            [l.src, l.tgt]
        })
        .collect();
    let per_location = locations.len() > 1 && locations.len() <= MAX_FUNCTION_LOCATIONS;
    let mut tries: Vec<(usize, bool, bool)> = Vec::new();
    if fine && per_location {
        // A fine encoding splits loop bodies into several letters: functions per location first,
        // and only the cheaper shared templates after them.
        tries.extend([
            (1, false, false),
            (1, false, true),
            (2, false, true),
            (2, true, true),
        ]);
        tries.extend([(2, false, false), (2, true, false), (3, true, false)]);
    } else {
        tries.extend((1..=3).map(|d| (d, false, false)));
        tries.extend((2..=5).map(|d| (d, true, false)));
        if per_location {
            tries.extend([(1, false, true), (2, false, true), (2, true, true)]);
        }
    }
    for (depth, multiphase, per_location) in tries {
        let shape = Shape {
            depth,
            multiphase,
            per_location,
            disc: None,
            param: false,
        };
        // (Building a template's constraints takes long on a large SCC, past the deadline too.)
        if timed_out(session.config().deadline) {
            return Err("timeout".into());
        }
        match template(voc, enc, scc, prepared, cells, session, shape) {
            Ok((f, s, _)) => return Ok((f, s, multiphase, None)),
            Err(e) if depth == 1 && !per_location => last = e,
            Err(_) => {}
        }
    }
    // Over the reals, a decrease by a positive loop constant instead of 1 (`x := x - y` with
    // `y > 0`: no fixed δ bounds the decrease from below, yet along one run it is constant).
    let reals = pre_vars(voc, enc, scc, prepared)
        .iter()
        .all(|v| v.sort == Sort::Real);
    if reals {
        for per_location in [false, true].into_iter().filter(|&p| !p || per_location) {
            if timed_out(session.config().deadline) {
                return Err("timeout".into());
            }
            let shape = Shape {
                depth: 1,
                multiphase: false,
                per_location,
                disc: None,
                param: true,
            };
            if let Ok((f, s, d)) = template(voc, enc, scc, prepared, cells, session, shape) {
                return Ok((f, s, false, d));
            }
        }
    }
    // A piecewise ranking function (LassoRanker's piecewise template, Leike & Heizmann, TACAS
    // 2014) with its discriminator guessed from the letters' own comparisons, which makes the
    // template linear: `min(x, y)` is `ite(x - y <= 0, x, y)`.
    let started = Instant::now();
    for g in discriminators(voc, enc, scc, prepared) {
        if timed_out(session.config().deadline) || started.elapsed() > PIECEWISE_BUDGET {
            break;
        }
        let shape = Shape {
            depth: 1,
            multiphase: false,
            per_location,
            disc: Some(&g),
            param: false,
        };
        if let Ok((f, s, _)) = template(voc, enc, scc, prepared, cells, session, shape) {
            return Ok((f, s, false, None));
        }
    }
    Err(last)
}

/// At most this many discriminators are tried for a piecewise ranking function, within
/// [`PIECEWISE_BUDGET`].
const MAX_DISCRIMINATORS: usize = 6;
const PIECEWISE_BUDGET: Duration = Duration::from_millis(1500);

/// The pre-state variables of the numeric program variables the pieces `scc` mention.
fn pre_vars(
    voc: &Vocabulary,
    enc: &Encoded,
    scc: &BTreeSet<PieceId>,
    prepared: &[Prepared],
) -> Vec<Var> {
    let mut pvars = BTreeSet::new();
    for &a in scc {
        numeric_pvars(voc, &enc.letters[prepared[a].letter].tf.formula, &mut pvars);
    }
    pvars.iter().filter_map(|&x| voc.pre(x).ok()).collect()
}

/// Candidate discriminators of a piecewise ranking function on the pieces `scc`: the comparisons
/// `g <= 0` the pieces' constraints make between the pre-state values of numeric program
/// variables (a loop's branch conditions; over integer variables with coprime integer
/// coefficients, `Constraint::tighten`), each once (up to the complement, which gives the same two
/// halves), in order of appearance.
fn discriminators(
    voc: &Vocabulary,
    enc: &Encoded,
    scc: &BTreeSet<PieceId>,
    prepared: &[Prepared],
) -> Vec<Lin> {
    let pres: BTreeSet<Var> = pre_vars(voc, enc, scc, prepared).into_iter().collect();
    let mut out: Vec<Lin> = Vec::new();
    for &a in scc {
        for c in &prepared[a].constraints {
            if c.rel == Rel::Eq
                || c.lin.coef.is_empty()
                || c.lin.coef.keys().any(|v| !pres.contains(v))
            {
                continue;
            }
            // (integer coefficients, coprime: as the DNF's own constraints)
            let lin = c.clone().tighten().lin;
            let complement = half(&lin, 1).lin;
            if !out.contains(&lin) && !out.contains(&complement) {
                out.push(lin);
            }
            if out.len() >= MAX_DISCRIMINATORS {
                return out;
            }
        }
    }
    out
}

/// The shape of a template: components, nested or multiphase, one function per location or one
/// for all.
#[derive(Clone, Copy, Debug)]
struct Shape<'g> {
    depth: usize,
    multiphase: bool,
    per_location: bool,
    /// A piecewise function's discriminator (depth 1, not multiphase).
    disc: Option<&'g Lin>,
    /// Strict letters decrease `f` by a linear term `D(c) > 0` over the component's loop constants
    /// (depth 1, not multiphase, no discriminator; [`Level::decrease`]).
    param: bool,
}

/// One query for the template of `depth` components (module comment; `depth` 1 is the affine
/// template with a choice of strict letters, larger depths the nested template on every letter, or
/// with `multiphase` the multiphase template on every letter ([`Level::multiphase`]). The
/// multiphase disjunctions are encoded with guessed Motzkin multipliers in {0, 1}, chosen per piece
/// by boolean unknowns: `fi(x') <= fi(x) - 1 + Σ_{j<i} [m_ij]·fj(x)` (which implies the disjunction
/// "decreases or some earlier component is positive") and `Σ_i [n_i]·fi(x) >= 1` with some `n_i`.
fn template(
    voc: &Vocabulary,
    enc: &Encoded,
    scc: &BTreeSet<LetterId>,
    prepared: &[Prepared],
    cells: &[MapCell],
    session: &mut Session,
    shape: Shape,
) -> Result<(Functions, BTreeSet<PieceId>, Option<Term>), String> {
    let Shape {
        depth,
        multiphase,
        per_location,
        disc,
        param,
    } = shape;
    let mut pres = pre_vars(voc, enc, scc, prepared);
    // The loop constants of a parametric decrease: program variables no piece writes, over the
    // reals (over the integers a decrease of at least 1 loses nothing).
    let constants: Vec<Var> = if param {
        if depth != 1 || multiphase || disc.is_some() {
            return Err("internal: a parametric decrease of a nested template".into());
        }
        if pres.iter().any(|v| v.sort != Sort::Real) {
            return Err("a parametric decrease needs a loop over the reals".into());
        }
        let written: BTreeSet<&Var> = scc
            .iter()
            .flat_map(|&a| prepared[a].writes.iter().map(|(x, _)| x))
            .collect();
        let constants: Vec<Var> = pres
            .iter()
            .filter(|v| !written.contains(v))
            .cloned()
            .collect();
        if constants.is_empty() {
            return Err("no loop constant for a parametric decrease".into());
        }
        constants
    } else {
        Vec::new()
    };
    // D(c) = Σ e_c·c + e_0
    let decrease: Vec<(Var, Var)> = constants
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), Var::new(format!("rank@e{i}"), Sort::Real)))
        .collect();
    let decrease_c0 = Var::new("rank@e", Sort::Real);
    pres.extend(cells.iter().map(|c| c.pre.clone()));
    // Locations with a function of their own (one slot for all without `per_location`).
    let locations: Vec<LocId> = if per_location {
        scc.iter()
            .flat_map(|&a| {
                let l = &enc.letters[prepared[a].letter];
                [l.src, l.tgt]
            })
            .collect::<BTreeSet<LocId>>()
            .into_iter()
            .collect()
    } else {
        Vec::new()
    };
    // With a discriminator `g`, two functions per location: one where `g <= 0`, one where
    // `g >= 1` (slots `2j` and `2j + 1`).
    let halves = if disc.is_some() { 2 } else { 1 };
    let slot = |l: LocId| -> usize { locations.iter().position(|&m| m == l).unwrap_or(0) * halves };
    // comps[k][slot]: pre variable → its coefficient, and the constant of component k.
    let comps: Vec<Vec<(BTreeMap<Var, Var>, Var)>> = (0..depth)
        .map(|k| {
            (0..locations.len().max(1) * halves)
                .map(|j| {
                    let coef = pres
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            (
                                v.clone(),
                                Var::new(format!("rank@c{k}_{j}_{i}"), Sort::Real),
                            )
                        })
                        .collect();
                    (coef, Var::new(format!("rank@c{k}_{j}"), Sort::Real))
                })
                .collect()
        })
        .collect();
    let mut counter = 0usize;
    let mut mult = || {
        counter += 1;
        Var::new(format!("rank@m{counter}"), Sort::Real)
    };
    let mut conj = Vec::new();
    let mut strict_vars: Vec<(PieceId, Var)> = Vec::new();
    let neg = |c: &Var| Term::neg(&Term::var(c));
    for &a in scc {
        let p = &prepared[a];
        let letter = &enc.letters[p.letter];
        let post_of: BTreeMap<&Var, &Var> = p.writes.iter().map(|(x, y)| (x, y)).collect();
        // The cases of the letter: its constraints, and the slots before and after it.
        let cases: Vec<(Vec<Constraint>, usize, usize)> = match disc {
            None => vec![(p.constraints.clone(), slot(letter.src), slot(letter.tgt))],
            Some(g) => {
                let after = Lin {
                    coef: g
                        .coef
                        .iter()
                        .map(|(v, c)| ((*post_of.get(v).unwrap_or(&v)).clone(), c.clone()))
                        .collect(),
                    constant: g.constant.clone(),
                };
                let mut cases = Vec::new();
                for h in 0..2 {
                    for h2 in 0..2 {
                        let mut d = p.constraints.clone();
                        d.push(half(g, h));
                        d.push(half(&after, h2));
                        // Farkas' lemma is complete only for satisfiable hypotheses; an
                        // unsatisfiable case needs no condition.
                        session.push();
                        session.assert(&Term::and(d.iter().map(Constraint::term).collect()));
                        let r = session.check_sat();
                        session.pop();
                        if r != SatResult::Unsat {
                            cases.push((d, slot(letter.src) + h, slot(letter.tgt) + h2));
                        }
                    }
                }
                cases
            }
        };
        let s = Var::new(format!("rank@s{a}"), Sort::Bool);
        let delta = Var::new(format!("rank@d{a}"), Sort::Real);
        let (st, dt) = (Term::var(&s), Term::var(&delta));
        if param {
            // non-strict: δ >= 0; strict: δ is D(c) (below)
            conj.push(Term::ge(&dt, &real(Q::zero())));
        } else if depth == 1 {
            conj.push(Term::ge(&dt, &real(Q::zero())));
            conj.push(Term::implies(&st, &Term::ge(&dt, &real(Q::one()))));
        } else {
            conj.push(st.clone());
            conj.push(Term::eq(&dt, &real(Q::one())));
        }
        strict_vars.push((a, s));
        for (d, src, tgt) in &cases {
            let (src, tgt) = (*src, *tgt);
            // Goals `g·y + h <= 0`: f_0(x') - f_0(x) + δ <= 0, and for k >= 1
            // f_k(x') - f_k(x) - f_{k-1}(x) <= 0 (`f(x')` at the target's slot, `f(x)` at the
            // source's; a variable the letter does not write keeps its pre variable after it).
            let mut goals: Vec<(BTreeMap<Var, Term>, Term)> = Vec::new();
            for (k, comp) in comps.iter().enumerate() {
                let (after, after_c0) = &comp[tgt];
                let (before, before_c0) = &comp[src];
                let mut g: BTreeMap<Var, Vec<Term>> = BTreeMap::new();
                for v in &pres {
                    let at = post_of.get(v).map_or(v, |p| *p);
                    g.entry(at.clone()).or_default().push(Term::var(&after[v]));
                    g.entry(v.clone()).or_default().push(neg(&before[v]));
                }
                let mut h = vec![Term::var(after_c0), neg(before_c0)];
                if k == 0 && param {
                    // + ite(s, D(c), δ): the constants keep their pre variables after the letter
                    let zero = real(Q::zero());
                    h.push(Term::ite(&st, &Term::var(&decrease_c0), &dt));
                    for (c, e) in &decrease {
                        g.entry(c.clone())
                            .or_default()
                            .push(Term::ite(&st, &Term::var(e), &zero));
                    }
                } else if k == 0 {
                    h.push(dt.clone());
                } else if multiphase {
                    // f_k(x') - f_k(x) + 1 - Σ_{j<k} [m_jk]·f_j(x) <= 0
                    h.push(real(Q::one()));
                    for (j, prev) in comps.iter().enumerate().take(k) {
                        let (prev, prev_c0) = &prev[src];
                        let m = Term::var(&Var::new(format!("rank@m{a}_{k}_{j}"), Sort::Bool));
                        let sel = |c: &Var| Term::ite(&m, &neg(c), &real(Q::zero()));
                        for (pre, c) in prev {
                            g.entry(pre.clone()).or_default().push(sel(c));
                        }
                        h.push(sel(prev_c0));
                    }
                } else {
                    let (prev, prev_c0) = &comps[k - 1][src];
                    for (pre, c) in prev {
                        g.entry(pre.clone()).or_default().push(neg(c));
                    }
                    h.push(neg(prev_c0));
                }
                let g = g.into_iter().map(|(v, ts)| (v, Term::add(ts))).collect();
                goals.push((g, Term::add(h)));
            }
            for (g, h) in &goals {
                conj.push(linear::farkas(d, g, h, &mut mult));
            }
            if multiphase {
                // -Σ_i [n_i]·f_i(x) + 1 <= 0 with some n_i.
                let mut g: BTreeMap<Var, Vec<Term>> = BTreeMap::new();
                let mut h = vec![real(Q::one())];
                let mut some = Vec::new();
                for (i, comp) in comps.iter().enumerate() {
                    let (coef, c0) = &comp[src];
                    let n = Term::var(&Var::new(format!("rank@n{a}_{i}"), Sort::Bool));
                    let sel = |c: &Var| Term::ite(&n, &neg(c), &real(Q::zero()));
                    for (pre, c) in coef {
                        g.entry(pre.clone()).or_default().push(sel(c));
                    }
                    h.push(sel(c0));
                    some.push(n);
                }
                let g = g.into_iter().map(|(v, ts)| (v, Term::add(ts))).collect();
                conj.push(Term::or(some));
                conj.push(linear::farkas(d, &g, &Term::add(h), &mut mult));
            } else {
                // -f_last(x) <= 0
                let (last, last_c0) = &comps[depth - 1][src];
                let bnd: BTreeMap<Var, Term> =
                    last.iter().map(|(v, c)| (v.clone(), neg(c))).collect();
                let bounded = linear::farkas(d, &bnd, &neg(last_c0), &mut mult);
                conj.push(Term::implies(&st, &bounded));
            }
            if param {
                // -D(c) < 0 on a strict letter
                let g: BTreeMap<Var, Term> =
                    decrease.iter().map(|(c, e)| (c.clone(), neg(e))).collect();
                let positive = linear::motzkin_strict(d, &g, &neg(&decrease_c0), &mut mult);
                conj.push(Term::implies(&st, &positive));
            }
        }
    }
    conj.push(Term::or(
        strict_vars.iter().map(|(_, s)| Term::var(s)).collect(),
    ));
    session.push();
    session.assert(&Term::and(conj));
    let r = session.check_sat();
    let result = match r {
        SatResult::Sat => {
            let mut terms: Vec<Term> = Vec::new();
            for (coef, c0) in comps.iter().flatten() {
                terms.extend(coef.values().map(Term::var));
                terms.push(Term::var(c0));
            }
            terms.extend(strict_vars.iter().map(|(_, s)| Term::var(s)));
            terms.extend(decrease.iter().map(|(_, e)| Term::var(e)));
            if param {
                terms.push(Term::var(&decrease_c0));
            }
            session.get_values(&terms).map_err(|e| e.to_string())
        }
        SatResult::Unsat => Err("no linear ranking function for a loop".into()),
        SatResult::Unknown(k) => Err(format!("solver unknown on ranking synthesis ({k})")),
    };
    session.pop();
    // Keyed by variable name (terms have interior caches and are no map keys).
    let values: HashMap<String, Value> = result?
        .into_iter()
        .filter_map(|(t, v)| Some((t.as_var()?.name.clone(), v)))
        .collect();
    let rat = |v: &Var| -> Q {
        values
            .get(&v.name)
            .and_then(Value::as_rational)
            .unwrap_or_else(Q::zero)
    };
    let strict: BTreeSet<PieceId> = strict_vars
        .iter()
        .filter(|(_, s)| values.get(&s.name) == Some(&Value::Bool(true)))
        .map(|(a, _)| *a)
        .collect();
    if strict.is_empty() {
        return Err("internal: a ranking model without a strict letter".into());
    }
    // Scale every component by one positive integer (the conditions are homogeneous in the
    // coefficients and δ, so a positive multiple still satisfies them with δ >= 1).
    let mut l = BigInt::one();
    for (coef, c0) in comps.iter().flatten() {
        for c in coef.values() {
            l = l.lcm(rat(c).denom());
        }
        l = l.lcm(rat(c0).denom());
    }
    let lq = Q::from_integer(l);
    let function = |slot: usize| -> Vec<Term> {
        comps
            .iter()
            .map(|comp| {
                let (coef, c0) = &comp[slot];
                linear::Lin {
                    coef: coef
                        .iter()
                        .map(|(v, c)| (v.clone(), rat(c) * &lq))
                        .filter(|(_, c)| !c.is_zero())
                        .collect(),
                    constant: rat(c0) * &lq,
                }
                .term()
            })
            .collect()
    };
    // With a discriminator, the function of location `j` is `ite(g <= 0, f_2j, f_2j+1)`.
    let at = |j: usize| -> Vec<Term> {
        match disc {
            None => function(j),
            Some(g) => {
                let cond = half(g, 0).term();
                function(2 * j)
                    .iter()
                    .zip(function(2 * j + 1))
                    .map(|(f, f2)| {
                        // (a piece over integers only is an Int term, one with a real a Real one)
                        let real = |t: &Term| match t.sort() {
                            Sort::Int => Term::to_real(t),
                            _ => t.clone(),
                        };
                        if f.sort() == f2.sort() {
                            Term::ite(&cond, f, &f2)
                        } else {
                            Term::ite(&cond, &real(f), &real(&f2))
                        }
                    })
                    .collect()
            }
        }
    };
    let per_location = per_location.then(|| {
        locations
            .iter()
            .enumerate()
            .map(|(j, l)| (*l, at(j)))
            .collect::<BTreeMap<LocId, Vec<Term>>>()
    });
    // D(c), scaled with the functions
    let decrease = param.then(|| {
        Lin {
            coef: decrease
                .iter()
                .map(|(c, e)| (c.clone(), rat(e) * &lq))
                .filter(|(_, q)| !q.is_zero())
                .collect(),
            constant: rat(&decrease_c0) * &lq,
        }
        .term()
    });
    Ok(((at(0), per_location), strict, decrease))
}

/// The half of a discriminator `g`: `g <= 0` (0), or (1) `g >= 1` when `g` is over integer
/// variables (with integer coefficients: the halves cover every integer state), else `g > 0`.
fn half(g: &Lin, h: usize) -> Constraint {
    if h == 0 {
        return Constraint {
            lin: g.clone(),
            rel: Rel::Le,
        };
    }
    if g.coef.keys().all(|v| v.sort == Sort::Int) {
        Constraint {
            lin: Lin::constant(Q::one()).add_scaled(g, &-Q::one()),
            rel: Rel::Le,
        }
    } else {
        Constraint {
            lin: g.scale(&-Q::one()),
            rel: Rel::Lt,
        }
    }
}

/// Re-checks a certificate in `fresh` (see the module comment); `Err` names the first condition not
/// confirmed.
pub fn check(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    cert: &Certificate,
    fresh: &mut Session,
) -> Result<(), String> {
    let reach = reachable_letters(enc);
    let inv = &cert.invariants;
    if inv.at.get(&enc.init).is_some_and(|ts| !ts.is_empty()) {
        return Err("an invariant at the initial location".into());
    }
    let mut valid = |hyp: &[Term], goal: &Term, what: &str| -> Result<(), String> {
        fresh.push();
        for h in hyp {
            fresh.assert(h);
        }
        fresh.assert(&Term::not(goal));
        let r = fresh.check_sat();
        fresh.pop();
        match r {
            SatResult::Unsat => Ok(()),
            other => Err(format!("{what}: {other}")),
        }
    };
    // Invariants are inductive; error letters infeasible.
    for &a in &reach {
        let letter = &enc.letters[a];
        let pre = inv.term_at(letter.src);
        for p in inv.at.get(&letter.tgt).into_iter().flatten() {
            valid(
                &[pre.clone(), letter.tf.formula.clone()],
                &primed(voc, p, letter),
                "invariant not inductive",
            )?;
        }
        if cfa.error_of(letter.tgt).is_some() {
            valid(
                &[pre.clone(), letter.tf.formula.clone()],
                &Term::ff(),
                "an assertion may fail",
            )?;
        }
    }
    // Coverage: on every letter of a cycle, the letter's pieces cover it.
    for scc in sccs(enc, &reach) {
        for a in scc {
            let letter = &enc.letters[a];
            let guards: Vec<Term> = cert
                .pieces
                .iter()
                .filter(|p| p.letter == a)
                .map(|p| p.guard.clone())
                .collect();
            valid(
                &[inv.term_at(letter.src), letter.tf.formula.clone()],
                &Term::or(guards),
                "the pieces of a letter do not cover it",
            )?;
        }
    }
    // Structure: every non-trivial SCC of the pieces has a level, recursively.
    let by_letters: BTreeMap<&BTreeSet<PieceId>, &Level> =
        cert.levels.iter().map(|l| (&l.letters, l)).collect();
    let all: BTreeSet<PieceId> = (0..cert.pieces.len()).collect();
    if cert.pieces.iter().any(|p| !reach.contains(&p.letter)) {
        return Err("a piece of an unreachable letter".into());
    }
    let mut todo = piece_sccs(enc, &cert.pieces, &all);
    let mut steps = 0usize;
    while let Some(scc) = todo.pop() {
        steps += 1;
        if steps > cert.levels.len() + 1 {
            return Err("the levels do not match the components".into());
        }
        let Some(level) = by_letters.get(&scc) else {
            return Err("a loop without ranking function".into());
        };
        if level.strict.is_empty() || !level.strict.is_subset(&level.letters) {
            return Err("a level without strict letters".into());
        }
        if level.bound.is_some() {
            if level.strict != level.letters || !level.f.is_empty() {
                return Err("a level of bounded runs with a ranking function".into());
            }
            continue;
        }
        if level.f.is_empty()
            || ((level.f.len() > 1 || level.multiphase) && level.strict != level.letters)
        {
            return Err("a nested ranking function that is not strict on every letter".into());
        }
        if let Some(m) = &level.per_location {
            if m.values().any(|fs| fs.len() != level.f.len()) {
                return Err("functions of a level with different numbers of components".into());
            }
        }
        let rest: BTreeSet<PieceId> = level.letters.difference(&level.strict).copied().collect();
        todo.extend(piece_sccs(enc, &cert.pieces, &rest));
    }
    // Conditions.
    for level in &cert.levels {
        let Some(n) = level.bound else { continue };
        let paths = runs(enc, &level.letters, &cert.pieces, n + 1)
            .ok_or("too many runs of a level of bounded runs to check")?;
        for path in paths {
            valid(
                &[run_formula(voc, enc, &path, Some(inv))?],
                &Term::ff(),
                "a run longer than the bound of its level is feasible",
            )?;
        }
    }
    for level in cert.levels.iter().filter(|l| l.bound.is_none()) {
        let sort = level.f.first().map(|f| f.sort()).unwrap_or(Sort::Int);
        let (zero, one) = if sort == Sort::Int {
            (Term::int(0), Term::int(1))
        } else {
            (Term::real(Q::zero()), Term::real(Q::one()))
        };
        // A parametric decrease, of the function's sort.
        let decrease = match &level.decrease {
            None => None,
            Some(_) if level.f.len() != 1 || level.multiphase => {
                return Err("a parametric decrease of a nested ranking function".into());
            }
            Some(d) if d.sort() == sort => Some(d.clone()),
            Some(d) if d.sort() == Sort::Int => Some(Term::to_real(d)),
            Some(_) => return Err("a parametric decrease of another sort".into()),
        };
        for &a in &level.letters {
            let piece = cert.pieces.get(a).ok_or("a level names no piece")?;
            let letter = &enc.letters[piece.letter];
            let hyp = [
                inv.term_at(letter.src),
                letter.tf.formula.clone(),
                piece.guard.clone(),
            ];
            if let Some(d) = &decrease {
                valid(
                    &hyp,
                    &Term::eq(&primed(voc, d, letter), d),
                    "the decrease of a ranking function changes in its loop",
                )?;
            }
            let (Some(f), Some(f_after)) = (level.at(letter.src), level.at(letter.tgt)) else {
                return Err("a location of a level without its function".into());
            };
            if f.len() != level.f.len() || f_after.len() != level.f.len() {
                return Err("functions of a level with different numbers of components".into());
            }
            let fp: Vec<Term> = f_after.iter().map(|g| primed(voc, g, letter)).collect();
            let f0 = &f[0];
            if level.multiphase {
                let mut goal = vec![Term::le(&fp[0], &Term::sub(f0, &one))];
                for (i, fpi) in fp.iter().enumerate().skip(1) {
                    let mut alt = vec![Term::le(fpi, &Term::sub(&f[i], &one))];
                    alt.extend(f[..i].iter().map(|f| Term::gt(f, &zero)));
                    goal.push(Term::or(alt));
                }
                goal.push(Term::or(f.iter().map(|f| Term::gt(f, &zero)).collect()));
                valid(
                    &hyp,
                    &Term::and(goal),
                    "a multiphase ranking function fails",
                )?;
            } else if f.len() > 1 {
                let mut goal = vec![Term::le(&fp[0], &Term::sub(f0, &one))];
                for (k, pair) in f.windows(2).enumerate() {
                    let bound = Term::add(vec![pair[1].clone(), pair[0].clone()]);
                    goal.push(Term::le(&fp[k + 1], &bound));
                }
                goal.push(Term::ge(&f[f.len() - 1], &zero));
                valid(&hyp, &Term::and(goal), "a nested ranking function fails")?;
            } else if level.strict.contains(&a) {
                let goal = match &decrease {
                    None => Term::and(vec![
                        Term::le(&fp[0], &Term::sub(f0, &one)),
                        Term::ge(f0, &zero),
                    ]),
                    Some(d) => Term::and(vec![
                        Term::le(&fp[0], &Term::sub(f0, d)),
                        Term::ge(f0, &zero),
                        Term::gt(d, &zero),
                    ]),
                };
                valid(&hyp, &goal, "a ranking function does not decrease")?;
            } else {
                valid(&hyp, &Term::le(&fp[0], f0), "a ranking function increases")?;
            }
        }
    }
    Ok(())
}

/// The reason of a TERMINATING answer: the ranking functions per loop, in Boogie syntax.
fn describe(voc: &Vocabulary, cfa: &Cfa, enc: &Encoded, cert: &Certificate) -> String {
    if cert.levels.is_empty() {
        return "no loop is reachable (every execution is a finite path)".into();
    }
    let mut parts = Vec::new();
    for level in &cert.levels {
        let heads: BTreeSet<String> = level
            .letters
            .iter()
            .filter_map(|&a| {
                let l = enc.letters[cert.pieces.get(a)?.letter].src;
                let p = cfa.locs[l].proc?;
                Some(voc.program.proc(p).name.clone())
            })
            .collect();
        let procs: Vec<String> = heads.into_iter().collect();
        if let Some(n) = level.bound {
            let steps = match n {
                1 => "one step".to_string(),
                n => format!("{n} steps"),
            };
            parts.push(format!(
                "at most {steps} in a row (in {}; {})",
                procs.join(", "),
                crate::engine::pretty::letters(level.letters.len())
            ));
            continue;
        }
        let fs: Vec<String> = level
            .f
            .iter()
            .map(|f| pretty::term(voc, &crate::smt::simplify(f)))
            .collect();
        let mut what = if level.multiphase {
            format!("multiphase ({})", fs.join(", "))
        } else if fs.len() > 1 {
            format!("nested ({})", fs.join(", "))
        } else if level
            .f
            .iter()
            .any(|f| matches!(f.kind(), TermKind::App(Op::Ite, _)))
        {
            format!("piecewise {}", fs.join(""))
        } else {
            fs.join("")
        };
        if let Some(m) = &level.per_location {
            what.push_str(&format!(
                " at the first of {} locations, one function each",
                m.len()
            ));
        }
        if let Some(d) = &level.decrease {
            what.push_str(&format!(
                " falling by at least {} (positive, and constant in the loop)",
                pretty::term(voc, &crate::smt::simplify(d))
            ));
        }
        parts.push(format!(
            "{what} (in {}; decreasing on {} of {})",
            procs.join(", "),
            level.strict.len(),
            crate::engine::pretty::letters(level.letters.len())
        ));
    }
    let n = cert.invariants.count();
    let support = if n == 0 {
        String::new()
    } else {
        format!(" with {n} supporting invariants")
    };
    format!(
        "linear ranking functions{support}, lexicographic per loop: {}",
        parts.join("; ")
    )
}

/// A fixpoint lasso (module comment); the reason if one is found and re-confirmed.
fn fixpoint(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    reach: &BTreeSet<LetterId>,
    config: &Config,
    deadline: Option<Instant>,
) -> Option<String> {
    let exact = |a: LetterId| exact_letter(cfa, enc, a);
    // Shortest stems (BFS over letters) from the initial location.
    let mut stem_to: BTreeMap<LocId, Vec<LetterId>> = BTreeMap::new();
    stem_to.insert(enc.init, Vec::new());
    let mut queue = std::collections::VecDeque::from([enc.init]);
    while let Some(l) = queue.pop_front() {
        for &a in &enc.out[l] {
            let t = enc.letters[a].tgt;
            if !stem_to.contains_key(&t) && exact(a) {
                let mut p = stem_to[&l].clone();
                p.push(a);
                stem_to.insert(t, p);
                queue.push_back(t);
            }
        }
    }
    let mut session = Session::new(session_config(config, deadline)).ok()?;
    let mut tries = 0;
    for scc in sccs(enc, reach) {
        for &first in &scc {
            if tries >= 16 || timed_out(deadline) {
                return None;
            }
            let h = enc.letters[first].src;
            let Some(stem) = stem_to.get(&h) else {
                continue;
            };
            // The shortest cycle through `first` back to `h` inside the SCC.
            let Some(cycle) = cycle_through(enc, &scc, first) else {
                continue;
            };
            if !cycle.iter().all(|&a| exact(a)) {
                continue;
            }
            tries += 1;
            let Some((stem, state)) =
                fixpoint_of(voc, cfa, enc, stem, &cycle, config, deadline, &mut session)
            else {
                continue;
            };
            let procedure = cfa.locs[h]
                .proc
                .map(|p| voc.program.proc(p).name.clone())
                .unwrap_or_default();
            let lasso = format!(
                "a stem of {}, then a loop of {} in procedure {}",
                crate::engine::pretty::letters(stem.len()),
                crate::engine::pretty::letters(cycle.len()),
                procedure
            );
            return Some(fixpoint_answer(&lasso, &state));
        }
    }
    None
}

/// Whether a letter is exact: no `{:overapproximation}` edge, no uninterpreted function (a
/// nontermination argument may only rest on exact letters).
pub(super) fn exact_letter(cfa: &Cfa, enc: &Encoded, a: LetterId) -> bool {
    let l = &enc.letters[a];
    l.edges.iter().all(|&e| cfa.edges[e].overapprox.is_none())
        && l.tf.formula.symbols().funs.is_empty()
}

/// Whether the lasso `stem · cycle^ω` (exact letters) has a fixpoint: a state the cycle maps to
/// itself that the stem reaches — the stem as given or followed by the cycle once (a state the
/// cycle maps to itself may only be reached after a first iteration that leaves the stem's values).
/// The stem used, after the query was answered `sat` again in a fresh session, and that session's
/// state at the loop head (`x = 1, y = 0`: the variables the cycle reads; empty if none).
#[allow(clippy::too_many_arguments)]
pub(super) fn fixpoint_of(
    voc: &Vocabulary,
    cfa: &Cfa,
    enc: &Encoded,
    stem: &[LetterId],
    cycle: &[LetterId],
    config: &Config,
    deadline: Option<Instant>,
    session: &mut Session,
) -> Option<(Vec<LetterId>, String)> {
    let mut found = None;
    for unroll in 0..=1 {
        let mut stem = stem.to_vec();
        for _ in 0..unroll {
            stem.extend(cycle.iter().copied());
        }
        let (query, head) = lasso_query(voc, enc, &stem, cycle)?;
        session.push();
        for d in &cfa.definitions {
            session.assert(d);
        }
        session.assert(&query);
        let r = session.check_sat();
        session.pop();
        if r == SatResult::Sat {
            found = Some((stem, query, head));
            break;
        }
    }
    let (stem, query, head) = found?;
    let mut fresh = Session::new(session_config(config, deadline)).ok()?;
    for d in &cfa.definitions {
        fresh.assert(d);
    }
    fresh.assert(&query);
    if fresh.check_sat() != SatResult::Sat {
        return None;
    }
    // The values the cycle reads at the head (the state it maps to itself).
    let read: BTreeSet<PVar> = cycle
        .iter()
        .flat_map(|&a| enc.letters[a].tf.reads.iter().copied())
        .collect();
    let mut names = Vec::new();
    let mut terms = Vec::new();
    for x in read {
        let t = match head.get(&x) {
            Some(t) => t.clone(),
            None => Term::var(&voc.pre(x).ok()?),
        };
        names.push(voc.display_name(x));
        terms.push(t);
    }
    let state = match fresh.get_values(&terms) {
        Ok(vals) if vals.len() == terms.len() => names
            .iter()
            .zip(&vals)
            .map(|(n, (_, v))| match (v.as_rational(), v) {
                (Some(q), _) => format!("{n} = {q}"),
                (None, Value::Bool(b)) => format!("{n} = {b}"),
                (None, _) => format!("{n} = {v:?}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    };
    Some((stem, state))
}

/// The answer for a fixpoint lasso described as `lasso`, with the state of [`fixpoint_of`]:
/// "a fixpoint lasso: … that maps the reachable state x = 1, y = 0 to itself".
pub(super) fn fixpoint_answer(lasso: &str, state: &str) -> String {
    if state.is_empty() {
        format!("a fixpoint lasso: {lasso} that maps a reachable state to itself")
    } else {
        format!("a fixpoint lasso: {lasso} that maps the reachable state {state} to itself")
    }
}

/// The shortest cycle starting with letter `first` and returning to its source within `scc`.
pub(super) fn cycle_through(
    enc: &Encoded,
    scc: &BTreeSet<LetterId>,
    first: LetterId,
) -> Option<Vec<LetterId>> {
    let h = enc.letters[first].src;
    let start = enc.letters[first].tgt;
    let mut prev: BTreeMap<LocId, Option<LetterId>> = BTreeMap::from([(start, None)]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(l) = queue.pop_front() {
        if l == h {
            let mut path = Vec::new();
            let mut cur = l;
            while let Some(Some(a)) = prev.get(&cur) {
                path.push(*a);
                cur = enc.letters[*a].src;
            }
            path.push(first);
            path.reverse();
            return Some(path);
        }
        for &a in &enc.out[l] {
            if !scc.contains(&a) {
                continue;
            }
            let t = enc.letters[a].tgt;
            if let std::collections::btree_map::Entry::Vacant(e) = prev.entry(t) {
                e.insert(Some(a));
                queue.push_back(t);
            }
        }
    }
    None
}

/// `stem · loop` in SSA form with the state after the loop equal to the state before it; also the
/// state at the loop head (the variables the stem wrote; the others are their pre variables).
fn lasso_query(
    voc: &Vocabulary,
    enc: &Encoded,
    stem: &[LetterId],
    cycle: &[LetterId],
) -> Option<(Term, BTreeMap<PVar, Term>)> {
    let tfs = |ls: &[LetterId]| -> Vec<&TransFormula> {
        ls.iter().map(|&a| &enc.letters[a].tf).collect()
    };
    let (s, before) = ssa(voc, &tfs(stem), BTreeMap::new(), "lasso", 1)?;
    let (c, after) = ssa(voc, &tfs(cycle), before.clone(), "lasso", stem.len() + 1)?;
    let mut conj = vec![s, c];
    for (x, a) in &after {
        let b = match before.get(x) {
            Some(t) => t.clone(),
            None => Term::var(&voc.pre(*x).ok()?),
        };
        conj.push(Term::eq(&b, a));
    }
    Some((Term::and(conj), before))
}

/// The steps in SSA form from `state` (the values of the variables written so far; the others are
/// their pre variables): their conjunction and the state after them. Fresh names are
/// `name@{prefix}{n}`, `n` counting the steps from `first`.
pub(super) fn ssa(
    voc: &Vocabulary,
    steps: &[&TransFormula],
    mut state: BTreeMap<PVar, Term>,
    prefix: &str,
    first: usize,
) -> Option<(Term, BTreeMap<PVar, Term>)> {
    let mut conj = Vec::new();
    for (i, tf) in steps.iter().enumerate() {
        let n = first + i;
        let mut map: HashMap<Var, Term> = HashMap::new();
        for v in tf.formula.free_vars() {
            match voc.lookup(&v) {
                Some((x, false)) => {
                    if let Some(t) = state.get(&x) {
                        map.insert(v, t.clone());
                    }
                }
                Some((_, true)) => {}
                None => {
                    let fresh = Var::new(format!("{}@{prefix}{n}", v.name), v.sort.clone());
                    map.insert(v, Term::var(&fresh));
                }
            }
        }
        let mut next = state.clone();
        for &x in &tf.writes {
            let post = voc.post(x).ok()?;
            let fresh = Term::var(&Var::new(
                format!("{}@{prefix}{n}", post.name),
                post.sort.clone(),
            ));
            map.insert(post, fresh.clone());
            next.insert(x, fresh);
        }
        conj.push(tf.formula.substitute(&map));
        state = next;
    }
    Some((Term::and(conj), state))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn z3() -> Option<Session> {
        crate::smt::z3_for_tests("ranking tests")
    }

    fn answer(src: &str) -> Answer {
        let (program, config) = super::super::test_program(src);
        prove(&program, &config, None)
    }

    /// The ranking certificate of the large-block encoding of `src`, whose largest level bound
    /// must be `bound` and which must pass [`check`] in `fresh`; then `f` on it.
    fn with_bounded_certificate(
        src: &str,
        bound: usize,
        fresh: &mut Session,
        f: impl FnOnce(&Vocabulary, &Cfa, &Encoded, Certificate, &mut Session),
    ) {
        with_large_encoding(src, |voc, cfa, enc| {
            let mut queries = 0;
            let config = Config::default();
            let cert = certificate(voc, cfa, enc, &config, None, false, &mut queries);
            let cert = cert.expect("a certificate");
            let largest = cert.levels.iter().filter_map(|l| l.bound).max();
            assert_eq!(largest, Some(bound));
            assert_eq!(check(voc, cfa, enc, &cert, fresh), Ok(()));
            f(voc, cfa, enc, cert, fresh)
        })
    }

    /// Runs `f` on the CFA of `src` and its large-block encoding.
    fn with_large_encoding<R>(src: &str, f: impl FnOnce(&Vocabulary, &Cfa, &Encoded) -> R) -> R {
        let (ast, _) = crate::syntax::parse(src);
        let (program, _) = crate::ir::check(&ast.expect("parses"));
        let program = program.expect("checks");
        let voc = Vocabulary::new(&program);
        let cfa = cfa::build(&voc, 10_000).expect("cfa");
        let enc = blocks::encode_all(&cfa, &voc, BlockEncoding::Large).expect("enc");
        f(&voc, &cfa, &enc)
    }

    fn int(n: &str) -> Var {
        Var::new(n, Sort::Int)
    }

    /// A conjunct `y == 0` decides the implications over `y` (the facts of `r = x & y`): the DNF
    /// of the letter shrinks from too many disjuncts to a few, and the formula stays equivalent.
    #[test]
    fn constants_decide_implications_before_the_dnf() {
        let Some(mut s) = z3() else { return };
        let (x, y, r) = (int("x"), int("y"), int("r"));
        let tv = Term::var;
        let zero = Term::int(0);
        let ge0 = |v: &Var| Term::ge(&tv(v), &zero);
        let mut conj = vec![Term::eq(&tv(&y), &zero), Term::gt(&tv(&x), &zero)];
        for k in 1..=8 {
            // y >= k ==> r <= y + k: a case split each (`y < k` and `r <= y + k` both agree
            // with `y == 0`), decided by `y == 0`
            conj.push(Term::implies(
                &Term::ge(&tv(&y), &Term::int(k)),
                &Term::le(&tv(&r), &Term::add(vec![tv(&y), Term::int(k)])),
            ));
        }
        conj.push(Term::implies(&ge0(&y), &Term::le(&tv(&r), &tv(&y))));
        let phi = crate::smt::simplify(&Term::and(conj));
        let fixed = with_constants(&phi);
        assert!(linear::dnf(&phi, MAX_DISJUNCTS).is_err(), "{phi}");
        let d = linear::dnf(&fixed, MAX_DISJUNCTS).expect("a small DNF");
        assert_eq!(d.disjuncts.len(), 1, "{fixed}");
        s.assert(&Term::not(&Term::eq(&phi, &fixed)));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{phi}\n{fixed}");
    }

    /// Parts over auxiliary variables only, connected to nothing else, go (or make the formula
    /// false); a part that reaches a state variable through an auxiliary one stays.
    #[test]
    fn detached_parts_are_dropped() {
        let Some(mut s) = z3() else { return };
        let (x, xp, w, u, k) = (int("x"), int("x'"), int("w"), int("u"), int("k"));
        let aux = BTreeSet::from([w.clone(), u.clone(), k.clone()]);
        let tv = Term::var;
        let step = Term::eq(&tv(&xp), &Term::sub(&tv(&x), &Term::int(1)));
        // w != 0, u = w + 1: detached and satisfiable; k = x: anchored.
        let t = Term::and(vec![
            step.clone(),
            Term::not(&Term::eq(&tv(&w), &Term::int(0))),
            Term::eq(&tv(&u), &Term::add(vec![tv(&w), Term::int(1)])),
            Term::eq(&tv(&k), &tv(&x)),
        ]);
        let r = drop_detached(&t, &aux, &mut s);
        let vars = r.free_vars();
        assert!(!vars.contains(&w) && !vars.contains(&u), "{r}");
        assert!(vars.contains(&k) && vars.contains(&xp), "{r}");
        // A detached part that cannot hold empties the relation.
        let t = Term::and(vec![
            step.clone(),
            Term::gt(&tv(&w), &Term::int(0)),
            Term::lt(&tv(&u), &Term::int(0)),
            Term::eq(&tv(&u), &tv(&w)),
        ]);
        assert!(drop_detached(&t, &aux, &mut s).is_false());
        // Without auxiliary variables nothing changes.
        assert_eq!(drop_detached(&step, &BTreeSet::new(), &mut s), step);
    }

    /// Farkas: {x >= 1, x' = x - 1} entails x' - x + 1 <= 0 (multipliers exist), and not
    /// x' - x + 2 <= 0 (none exist).
    #[test]
    fn farkas_entailment() {
        let Some(mut s) = z3() else { return };
        let (x, xp) = (int("x"), int("x'"));
        let hyp = linear::dnf(
            &Term::and(vec![
                Term::ge(&Term::var(&x), &Term::int(1)),
                Term::eq(&Term::var(&xp), &Term::sub(&Term::var(&x), &Term::int(1))),
            ]),
            4,
        )
        .expect("small")
        .disjuncts;
        assert_eq!(hyp.len(), 1);
        let goal: BTreeMap<Var, Term> = BTreeMap::from([
            (xp.clone(), Term::real(Q::one())),
            (x.clone(), Term::real(-Q::one())),
        ]);
        let mut k = 0;
        let mut mult = || {
            k += 1;
            Var::new(format!("m{k}"), Sort::Real)
        };
        let ok = linear::farkas(&hyp[0], &goal, &Term::real(Q::one()), &mut mult);
        s.push();
        s.assert(&ok);
        assert_eq!(s.check_sat(), SatResult::Sat);
        s.pop();
        let two = Q::from_integer(2.into());
        let bad = linear::farkas(&hyp[0], &goal, &Term::real(two), &mut mult);
        s.push();
        s.assert(&bad);
        assert_eq!(s.check_sat(), SatResult::Unsat);
        s.pop();
        // Boundedness: x >= 1 entails -x <= 0 (goal -x + 0 <= 0) but not -x + 2 <= 0.
        let bnd = BTreeMap::from([(x.clone(), Term::real(-Q::one()))]);
        s.push();
        s.assert(&linear::farkas(
            &hyp[0],
            &bnd,
            &Term::real(Q::zero()),
            &mut mult,
        ));
        assert_eq!(s.check_sat(), SatResult::Sat);
        s.pop();
        s.push();
        let two = Q::from_integer(2.into());
        s.assert(&linear::farkas(&hyp[0], &bnd, &Term::real(two), &mut mult));
        assert_eq!(s.check_sat(), SatResult::Unsat);
        s.pop();
    }

    /// Farkas with unknown goal coefficients: find c with {x >= 0, x' = x - y, y >= 1} ⇒
    /// c·x' - c·x + 1 <= 0; every solution has c >= 1 (checked: c < 1 is unsat).
    #[test]
    fn farkas_with_unknown_coefficients() {
        let Some(mut s) = z3() else { return };
        let (x, xp, y) = (int("x"), int("x'"), int("y"));
        let hyp = linear::dnf(
            &Term::and(vec![
                Term::ge(&Term::var(&x), &Term::int(0)),
                Term::ge(&Term::var(&y), &Term::int(1)),
                Term::eq(&Term::var(&xp), &Term::sub(&Term::var(&x), &Term::var(&y))),
            ]),
            4,
        )
        .expect("small")
        .disjuncts;
        let c = Term::var(&Var::new("c", Sort::Real));
        let goal = BTreeMap::from([(xp, c.clone()), (x, Term::neg(&c))]);
        let mut k = 0;
        let mut mult = || {
            k += 1;
            Var::new(format!("m{k}"), Sort::Real)
        };
        let f = linear::farkas(&hyp[0], &goal, &Term::real(Q::one()), &mut mult);
        s.push();
        s.assert(&f);
        assert_eq!(s.check_sat(), SatResult::Sat);
        s.assert(&Term::lt(&c, &Term::real(Q::one())));
        assert_eq!(s.check_sat(), SatResult::Unsat);
        s.pop();
    }

    #[test]
    fn countdown_terminates() {
        if z3().is_none() {
            return;
        }
        let src = "procedure main() { var x: int; while (x > 0) { x := x - 1; } }";
        assert!(
            matches!(answer(src), Answer::Terminating(_)),
            "{:?}",
            answer(src)
        );
    }

    #[test]
    fn sum_of_two_variables() {
        if z3().is_none() {
            return;
        }
        let src = "procedure main() { var x, y: int; \
                   while (x + y > 0) { if (*) { x := x - 1; } else { y := y - 1; } } }";
        assert!(matches!(answer(src), Answer::Terminating(_)));
    }

    #[test]
    fn nested_loops_are_lexicographic() {
        if z3().is_none() {
            return;
        }
        let src = "procedure main() { var i, j, n: int; i := 0; \
                   while (i < n) { j := 0; while (j < i) { j := j + 1; } i := i + 1; } }";
        let a = answer(src);
        assert!(matches!(a, Answer::Terminating(_)), "{a:?}");
    }

    #[test]
    fn multiphase_ranking_functions() {
        if z3().is_none() {
            return;
        }
        // Three phases (z, then y, then x decrease); no nested ranking function.
        let src = "procedure main() { var x, y, z: int; while (x >= 0) { \
                   if (*) { x := x + y; } else { x := x + z; } y := y + z; z := z - 1; } }";
        let a = answer(src);
        assert!(
            matches!(&a, Answer::Terminating(why) if why.contains("multiphase")),
            "{a:?}"
        );
    }

    #[test]
    fn one_function_per_location() {
        if z3().is_none() {
            return;
        }
        // x rises on the letter into the inner loop and falls by 2 on the letter out of it: only
        // a function per location (x at the outer head, x - 2 at the inner one) is non-increasing.
        let src = "procedure main() { var x, y: int; while (x > 0) { x := x + 1; \
                   while (y > 0) { y := y - 1; } x := x - 2; } }";
        let a = answer(src);
        assert!(
            matches!(&a, Answer::Terminating(why) if why.contains("one function each")),
            "{a:?}"
        );
        // The same shape where the outer loop does not terminate is never proved.
        let src = "procedure main() { var x, y: int; while (x > 0) { x := x + 2; \
                   while (y > 0) { y := y - 1; } x := x - 2; } }";
        let a = answer(src);
        assert!(!matches!(a, Answer::Terminating(_)), "{a:?}");
    }

    #[test]
    fn loops_that_cannot_step_twice() {
        if z3().is_none() {
            return;
        }
        // x := 3x - 1 leaves [0, 1]: at most one step in a row; x := 1 - x stays in [0, 1]
        // forever: never proved.
        proves_and_never(
            "procedure main() { var x: int; while (x >= 0 && x <= 1) { x := 3 * x - 1; } }",
            "at most one step",
            "procedure main() { var x: int; while (x >= 0 && x <= 1) { x := 1 - x; } }",
        );
    }

    /// `proved` is answered TERMINATING with `why` in its reason, `never` is not.
    fn proves_and_never(proved: &str, why: &str, never: &str) {
        let a = answer(proved);
        assert!(
            matches!(&a, Answer::Terminating(reason) if reason.contains(why)),
            "{a:?}"
        );
        let a = answer(never);
        assert!(!matches!(a, Answer::Terminating(_)), "{a:?}");
    }

    /// Over the reals, `x := x - y` with `y > 0` constant in the loop falls by `y` (no fixed δ):
    /// proved with `y` as the decrease; a `y` that halves in each iteration (a Zeno run) is never
    /// proved. The check refuses the certificate when its decrease changes in the loop (`x`) or
    /// is not positive (`y - 1`).
    #[test]
    fn parametric_decrease_over_the_reals() {
        let Some(mut fresh) = z3() else { return };
        let src = "procedure main(y: real) returns (x: real) { assume y > 0.0; \
                   while (x >= 0.0) { x := x - y; } }";
        proves_and_never(
            src,
            "falling by at least y",
            "procedure main(y0: real) returns (x: real) { var y: real; y := y0; \
             assume y > 0.0; while (x >= 0.0) { x := x - y; y := y / 2.0; } }",
        );
        with_large_encoding(src, |voc, cfa, enc| {
            let mut queries = 0;
            let config = Config::default();
            let cert = certificate(voc, cfa, enc, &config, None, false, &mut queries);
            let cert = cert.expect("a certificate");
            assert_eq!(check(voc, cfa, enc, &cert, &mut fresh), Ok(()));
            let decrease = cert.levels.iter().find_map(|l| l.decrease.clone());
            let d = decrease.expect("a parametric decrease");
            // the pre-state variable of `x`, which the loop changes
            let x = enc
                .letters
                .iter()
                .flat_map(|l| l.tf.formula.free_vars())
                .find(|v| matches!(voc.lookup(v), Some((p, false)) if voc.display_name(p) == "x"))
                .expect("x is read");
            for (bad, why) in [
                (Term::var(&x), "the decrease of a ranking function changes"),
                (
                    Term::sub(&d, &Term::real(Q::one())),
                    "a ranking function does not decrease",
                ),
            ] {
                let mut wrong = cert.clone();
                for level in &mut wrong.levels {
                    if level.decrease.is_some() {
                        level.decrease = Some(bad.clone());
                    }
                }
                let refused = check(voc, cfa, enc, &wrong, &mut fresh);
                assert!(
                    refused.as_ref().is_err_and(|e| e.contains(why)),
                    "{refused:?}"
                );
            }
        });
    }

    /// `x % 4 >= 1; x := x - 1` runs at most 3 times in a row (over the integers: no linear
    /// function over the rationals bounds it); a bound one too small is refused by the check, and
    /// `x % 4 >= 0` (every x) is never proved.
    #[test]
    fn loops_with_a_bounded_number_of_steps() {
        let Some(mut fresh) = z3() else { return };
        let src = "procedure main() { var x: int; while (x % 4 >= 1) { x := x - 1; } }";
        proves_and_never(
            src,
            "at most 3 steps in a row",
            "procedure main() { var x: int; while (x % 4 >= 0) { x := x - 1; } }",
        );
        with_bounded_certificate(src, 3, &mut fresh, |voc, cfa, enc, mut cert, fresh| {
            for level in &mut cert.levels {
                level.bound = level.bound.map(|n| n - 1);
            }
            let refused = check(voc, cfa, enc, &cert, fresh);
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|e| e.contains("longer than the bound")),
                "{refused:?}"
            );
        });
    }

    /// A loop body of 2^7 paths (too many disjuncts for the templates) that can run only once in
    /// a row: its large-block letter gets a level of bounded runs without a DNF.
    #[test]
    fn bounded_runs_need_no_dnf() {
        let Some(mut fresh) = z3() else { return };
        let branches: String = (1..=7)
            .map(|i| format!("if (*) {{ a{i} := a{i} + 1; }} else {{ a{i} := a{i} - 1; }} "))
            .collect();
        let src = format!(
            "procedure main() {{ var v, w, a1, a2, a3, a4, a5, a6, a7: int; \
             while (v == 0 && w != 0) {{ {branches} v := w; }} }}"
        );
        with_bounded_certificate(&src, 1, &mut fresh, |_, _, _, _, _| {});
    }

    /// Branch `i` decreases `x_i` and havocs every later variable: a lexicographic ranking
    /// function of 20 levels, one branch each (16 levels at most left it unproved).
    #[test]
    fn deep_lexicographic_chains() {
        if z3().is_none() {
            return;
        }
        let n = 20;
        let vars: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
        let mut body = String::new();
        for i in 1..=n {
            let later = vars[i..].join(", ");
            let havoc = if later.is_empty() {
                String::new()
            } else {
                format!("havoc {later};")
            };
            let step = format!("assume x{i} > 0; x{i} := x{i} - 1; {havoc}");
            body += &if i < n {
                format!("if (*) {{ {step} }} else ")
            } else {
                format!("{{ {step} }}")
            };
        }
        let src = format!(
            "procedure main() {{ var {}: int; while (true) {{ {body} }} }}",
            vars.join(", ")
        );
        let a = answer(&src);
        assert!(
            matches!(&a, Answer::Terminating(why) if why.contains("x20")),
            "{a:?}"
        );
    }

    #[test]
    fn boolean_and_division_atoms() {
        if z3().is_none() {
            return;
        }
        for src in [
            // b := x >= 0; assume b: the boolean atom is abstracted consistently.
            "var b: bool; procedure main() modifies b; { var x: int; \
             while (true) { b := (x >= 0); assume b; x := x - 1; } }",
            // x div 2 with its Euclidean bounds.
            "procedure main() { var x: int; while (x > 0) { x := x / 2; } }",
        ] {
            let a = answer(src);
            assert!(matches!(a, Answer::Terminating(_)), "{src}: {a:?}");
        }
    }

    #[test]
    fn nonterminating_loops_are_never_proved() {
        if z3().is_none() {
            return;
        }
        for src in [
            "procedure main() { var x: int; while (x > 0) { x := x + 1; } }",
            "procedure main() { var x, y: int; while (x > 0) { x := x - y; } }",
            "procedure main() { var x: int; while (x >= 0) { x := x * x; } }",
            // Two phases over the reals would need z to stay below 0 forever: it does not.
            "procedure main() { var x, y: int; while (x >= 0) { x := x + y; y := y + 1; } }",
            "procedure main() { var x: int; while (x >= 0) { x := x % 2; } }",
            "procedure main() { var x: int; var b: bool; while (b) { x := x - 1; } }",
        ] {
            let a = answer(src);
            assert!(!matches!(a, Answer::Terminating(_)), "{src}: {a:?}");
        }
    }

    #[test]
    fn fixpoint_lasso() {
        if z3().is_none() {
            return;
        }
        let src = "procedure main() { var x, y: int; while (x > 0) { x := x + y; } }";
        let (ast, _) = crate::syntax::parse(src);
        let (program, _) = crate::ir::check(&ast.expect("parses"));
        let program = program.expect("checks");
        let config = Config::default();
        let a = super::fixpoint_lasso(&Shared::new(&program, &config), &config, None);
        // The state the loop maps to itself: y = 0 (and x > 0, whatever the model says).
        assert!(a.as_ref().is_some_and(|a| a.contains("y = 0")), "{a:?}");
    }

    #[test]
    fn scc_decomposition() {
        if z3().is_none() {
            return;
        }
        let src = "procedure main() { var i, j: int; \
                   while (i > 0) { j := i; while (j > 0) { j := j - 1; } i := i - 1; } }";
        with_large_encoding(src, |_, _, enc| {
            let reach = reachable_letters(enc);
            let comps = sccs(enc, &reach);
            assert_eq!(comps.len(), 1, "one SCC for the two nested loops");
            assert!(comps[0].len() >= 3);
        });
    }
}
