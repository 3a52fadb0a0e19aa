//! The Hoare-triple checker: which candidate predicates `p` satisfy `{S} a {p}` for a Floyd–Hoare
//! state `S` (a conjunction of predicates) and a letter `a` (design notes §3.4).
//!
//! Three tiers, each counted in the statistics:
//! 1. a cache of every triple decided so far, keyed by (state, letter, predicate);
//! 2. syntactic rules that need no solver: an infeasible letter makes every triple valid; `p ∈ S` and
//!    `a` writes none of `p`'s variables makes `{S} a {p}` valid; a *total* letter (every pre-state
//!    has a successor: only assignments and havocs) from a state other than `false` cannot reach
//!    `false`;
//! 3. an incremental SMT check: `S` and `a` are asserted once per (state, letter) in a pushed scope;
//!    first `S ∧ a` is checked for satisfiability (`{S} a {false}`), then each remaining candidate
//!    `p` with `¬p'` in a nested scope. Each `sat` answer's model is read for the candidates still
//!    open (one `get-value`): a `p'` false in it has a counterexample, so `{S} a {p}` is invalid
//!    without a query of its own (counted as `htc_model`).
//!
//! Between 1 and 3, the **frame rule** decides triples by an implication `S ⇒ p` cached per (state,
//! predicate), so that it is shared by every letter (in a concurrent program, the many letters of
//! other threads). When `a` writes none of `p`'s variables (*untouched*):
//! * `S ⇒ p` makes `{S} a {p}` valid (`p`'s variables keep their values; an assume only strengthens);
//! * `S ⇏ p` makes it invalid when `a` is *total* (every pre-state has a successor), or when `S ∧ a`
//!   is satisfiable and `a`'s variables are disjoint from those of `S` and `p` and `a` applies no
//!   uninterpreted function (then a model of `S ∧ ¬p` and one of `a` combine).
//!
//! The implication is learnt from the solver's answers to triples: an invalid untouched triple
//! shows `S ∧ ¬p` satisfiable; a valid one shows `S ⇒ p` when the triple is *decided* by the
//! implication as above (`S ∧ a ∧ ¬p'` is then equisatisfiable with `S ∧ ¬p`).
//!
//! The SMT tier may run on a *fast* solver first ([`HoareChecker::with_fast`]; yices answers the
//! small quantifier-free queries of Hoare triples an order of magnitude faster than z3): a query it
//! cannot answer (`unknown`, a time-out of its short limit, a formula outside its logic) is asked
//! again in the main session, so the fast solver changes the speed, not the answers.
//!
//! Soundness: a triple is reported valid only if the solver answered `unsat` or a rule proves it; an
//! `unknown` answer counts as invalid (the automaton becomes less precise, never wrong) and is
//! remembered, so that a lack of progress can be explained.

use super::blocks::Letter;
use super::predicates::{FALSE, PredId, Predicates, StateId};
use super::stats::Stats;
use super::transition::Vocabulary;
use crate::smt::{Op, SatResult, Session, Term, TermKind};
use std::collections::HashMap;

/// The post of a state under a letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Post {
    /// `{S} a {false}` is valid.
    False,
    /// The candidates `p` with `{S} a {p}` valid.
    Holds(Vec<PredId>),
}

pub struct HoareChecker {
    pub session: Session,
    /// The fast solver asked first in the SMT tier (see the module comment).
    fast: Option<Session>,
    /// Terms known to be (or not to be) in the fast solver's fragment, by term id.
    fast_memo: HashMap<u32, bool>,
    /// Queries in its fragment the fast solver did not answer (after [`FAST_UNKNOWNS`] it is no
    /// longer asked: each costs its query limit).
    fast_unknowns: usize,
    cache: HashMap<(StateId, usize, PredId), bool>,
    /// Coverage: for (letter, post), the states where the triple was decided valid / invalid. A valid
    /// `{S} a {p}` implies `{S'} a {p}` for every `S' ⊇ S` (a stronger precondition); an invalid one
    /// implies invalidity for every `S' ⊆ S`.
    valid_at: HashMap<(usize, PredId), Vec<StateId>>,
    invalid_at: HashMap<(usize, PredId), Vec<StateId>>,
    /// `S ⇒ p`, learnt per (state, predicate) for the frame rule (see the module comment).
    implied: HashMap<(StateId, PredId), bool>,
    /// Per letter: the SMT variables of its formula, and whether it applies an uninterpreted
    /// function.
    letter_vars: HashMap<usize, (std::collections::HashSet<crate::smt::Var>, bool)>,
    /// Apply the frame rule (concurrent programs).
    frame: bool,
    /// The last solver `unknown` reason, if any.
    pub last_unknown: Option<crate::smt::UnknownKind>,
}

/// Reads a conjunct as an assignment `x@post = t` (`t` without post variables or the letter's
/// auxiliaries): written that way round or the other, or — as the simplifier normalises it —
/// `x@post + s = c` (a sum with `x@post` as one plain summand), read as `x@post = c - s`.
pub fn assignment_of(
    voc: &Vocabulary,
    letter: &Letter,
    c: &Term,
) -> Option<(super::transition::PVar, Term)> {
    assignment_in(voc, &letter.tf.aux, c)
}

/// [`assignment_of`] for a conjunct of a transition formula with auxiliary variables `aux`.
pub fn assignment_in(
    voc: &Vocabulary,
    aux: &std::collections::BTreeSet<crate::smt::Var>,
    c: &Term,
) -> Option<(super::transition::PVar, Term)> {
    let TermKind::App(crate::smt::Op::Eq, args) = c.kind() else {
        return None;
    };
    if args.len() != 2 {
        return None;
    }
    let clean = |t: &Term| {
        !t.free_vars().iter().any(|w| {
            matches!(voc.lookup(w), Some((_, true))) || (!aux.is_empty() && aux.contains(w))
        })
    };
    let post_var = |t: &Term| match t.kind() {
        TermKind::Var(v) => match voc.lookup(v) {
            Some((x, true)) => Some(x),
            _ => None,
        },
        _ => None,
    };
    for (l, r) in [(&args[0], &args[1]), (&args[1], &args[0])] {
        if let Some(x) = post_var(l)
            && clean(r)
        {
            return Some((x, r.clone()));
        }
        if let TermKind::App(crate::smt::Op::Add, summands) = l.kind()
            && clean(r)
        {
            // `rest + x@post = r` or `rest - x@post = r` (the simplifier's normal form of
            // `x := x - 1` is `x - x@post = 1`).
            let signed_post = |t: &Term| -> Option<(super::transition::PVar, bool)> {
                if let Some(x) = post_var(t) {
                    return Some((x, true));
                }
                match t.kind() {
                    TermKind::App(crate::smt::Op::Neg, a) if a.len() == 1 => {
                        post_var(&a[0]).map(|x| (x, false))
                    }
                    _ => None,
                }
            };
            let posts: Vec<usize> = (0..summands.len())
                .filter(|&k| signed_post(&summands[k]).is_some())
                .collect();
            if let [k] = posts[..] {
                let rest: Vec<Term> = summands
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, t)| t.clone())
                    .collect();
                if rest.iter().all(clean) {
                    let (x, positive) = signed_post(&summands[k])?;
                    let value = if positive {
                        Term::sub(r, &Term::add(rest))
                    } else {
                        Term::sub(&Term::add(rest), r)
                    };
                    return Some((x, crate::smt::simplify(&value)));
                }
            }
        }
    }
    None
}

/// Is the letter total: a conjunction of assignments `x@post = t` ([`assignment_of`]; each post
/// variable at most once, `t` without post variables)?
pub fn is_total(voc: &Vocabulary, letter: &Letter) -> bool {
    is_total_formula(voc, &letter.tf)
}

/// [`is_total`] for a transition formula (it blocks no pre-state).
pub fn is_total_formula(voc: &Vocabulary, tf: &super::transition::TransFormula) -> bool {
    let mut defined = std::collections::BTreeSet::new();
    for c in tf.formula.conjuncts() {
        if c == Term::tt() {
            continue;
        }
        match assignment_in(voc, &tf.aux, &c) {
            Some((x, _)) if defined.insert(x) => {}
            _ => return false,
        }
    }
    true
}

impl HoareChecker {
    pub fn new(session: Session) -> HoareChecker {
        HoareChecker {
            session,
            fast: None,
            fast_memo: HashMap::new(),
            fast_unknowns: 0,
            cache: HashMap::new(),
            valid_at: HashMap::new(),
            invalid_at: HashMap::new(),
            implied: HashMap::new(),
            letter_vars: HashMap::new(),
            frame: false,
            last_unknown: None,
        }
    }

    /// Asks `fast` first in the SMT tier, and the main session only what it cannot answer.
    pub fn with_fast(mut self, fast: Session) -> Self {
        self.fast = Some(fast);
        self
    }

    /// A checker on the same sessions, with no cache.
    pub fn into_fresh(self) -> HoareChecker {
        let htc = HoareChecker::new(self.session);
        match self.fast {
            Some(f) => htc.with_fast(f),
            None => htc,
        }
    }

    /// The solver calls and time of the fast session, if any.
    pub fn fast_stats(&self) -> Option<&crate::smt::SessionStats> {
        self.fast.as_ref().map(Session::stats)
    }

    /// Turns the frame rule (see the module comment) on or off (off by default; the engine turns
    /// it on for concurrent programs).
    pub fn set_frame_rule(&mut self, on: bool) {
        self.frame = on;
    }

    /// Looks a triple up: exactly, then by coverage.
    fn lookup(
        &mut self,
        preds: &Predicates,
        state: StateId,
        letter: usize,
        p: PredId,
    ) -> Option<bool> {
        if let Some(&v) = self.cache.get(&(state, letter, p)) {
            return Some(v);
        }
        const SCAN: usize = 48;
        let pre = preds.state_preds(state);
        let subset = |a: &[PredId], b: &[PredId]| a.iter().all(|x| b.binary_search(x).is_ok());
        let found = if self.valid_at.get(&(letter, p)).is_some_and(|ss| {
            ss.iter()
                .rev()
                .take(SCAN)
                .any(|s| subset(preds.state_preds(*s), pre))
        }) {
            Some(true)
        } else if self.invalid_at.get(&(letter, p)).is_some_and(|ss| {
            ss.iter()
                .rev()
                .take(SCAN)
                .any(|s| subset(pre, preds.state_preds(*s)))
        }) {
            Some(false)
        } else {
            None
        };
        if let Some(v) = found {
            self.cache.insert((state, letter, p), v);
        }
        found
    }

    fn record(&mut self, state: StateId, letter: usize, p: PredId, valid: bool) {
        self.cache.insert((state, letter, p), valid);
        let index = if valid {
            &mut self.valid_at
        } else {
            &mut self.invalid_at
        };
        index.entry((letter, p)).or_default().push(state);
    }

    /// The candidates that hold after `letter` from `state`.
    #[allow(clippy::too_many_arguments)]
    pub fn post(
        &mut self,
        voc: &Vocabulary,
        preds: &Predicates,
        state: StateId,
        letter_id: usize,
        letter: &Letter,
        total: bool,
        candidates: &[PredId],
        stats: &mut Stats,
    ) -> Post {
        if letter.tf.is_infeasible() {
            stats.htc_syntactic += 1;
            return Post::False;
        }
        let pre = preds.state_preds(state);
        // Is {S} a {false} valid?
        match self.lookup(preds, state, letter_id, FALSE) {
            Some(true) => {
                stats.htc_cache += 1;
                return Post::False;
            }
            Some(false) => stats.htc_cache += 1,
            None if total => {
                stats.htc_syntactic += 1;
                self.cache.insert((state, letter_id, FALSE), false);
            }
            None => {}
        }
        let mut holds = Vec::new();
        let mut todo = Vec::new();
        // For the frame rule: is `S ∧ a` known satisfiable, and which SMT variables does `S` use?
        let sat_known = self.cache.get(&(state, letter_id, FALSE)) == Some(&false);
        let mut state_vars: Option<std::collections::HashSet<crate::smt::Var>> = None;
        for &p in candidates {
            if p == FALSE {
                continue;
            }
            if let Some(v) = self.lookup(preds, state, letter_id, p) {
                stats.htc_cache += 1;
                if v {
                    holds.push(p);
                }
                continue;
            }
            let pv = &preds.get(p).vars;
            let untouched = letter.tf.writes.iter().all(|x| !pv.contains(x));
            if pre.contains(&p) && untouched {
                stats.htc_syntactic += 1;
                self.cache.insert((state, letter_id, p), true);
                holds.push(p);
                continue;
            }
            if self.frame
                && untouched
                && let Some(&implied) = self.implied.get(&(state, p))
            {
                let decided = implied
                    || total
                    || (sat_known
                        && self.disjoint(preds, state, &mut state_vars, letter_id, letter, p));
                if decided {
                    stats.htc_frame += 1;
                    self.record(state, letter_id, p, implied);
                    if implied {
                        holds.push(p);
                    }
                    continue;
                }
            }
            todo.push(p);
        }
        let false_known = self.cache.contains_key(&(state, letter_id, FALSE));
        if todo.is_empty() && false_known {
            return Post::Holds(holds);
        }
        // SMT tier.
        let state_term = preds.state_term(state);
        let formula = &letter.tf.formula;
        let usable = self.fast.is_some()
            && self.fast_unknowns < FAST_UNKNOWNS
            && fast_fragment(&state_term, &mut self.fast_memo)
            && fast_fragment(formula, &mut self.fast_memo);
        let mut smt = Tiered::new(usable);
        // Each `sat` answer's model refutes every candidate false in it (one counterexample to
        // each triple), so later candidates are asked only while no model has refuted them.
        let posts: Vec<Term> = todo
            .iter()
            .map(|&p| primed(voc, &preds.get(p).term, letter))
            .collect();
        let mut first_model = None;
        if !false_known {
            stats.htc_smt += 1;
            let eval: &[Term] = if todo.len() > 1 { &posts } else { &[] };
            let (r, false_in) = smt.check_eval(
                &mut self.fast,
                &mut self.session,
                &state_term,
                formula,
                None,
                true,
                eval,
            );
            first_model = false_in;
            match r {
                SatResult::Unsat => {
                    self.fast_unknowns += smt.close(&mut self.fast, &mut self.session);
                    self.record(state, letter_id, FALSE, true);
                    return Post::False;
                }
                SatResult::Sat => {
                    self.record(state, letter_id, FALSE, false);
                }
                SatResult::Unknown(r) => {
                    self.last_unknown = Some(r);
                }
            }
        }
        let sat_known = self.cache.get(&(state, letter_id, FALSE)) == Some(&false);
        let mut refuted = first_model.unwrap_or_else(|| vec![false; todo.len()]);
        for (k, &p) in todo.iter().enumerate() {
            let valid = if refuted[k] {
                stats.htc_model += 1;
                false
            } else {
                stats.htc_smt += 1;
                let post = Term::not(&posts[k]);
                let post_fast = usable && fast_fragment(&post, &mut self.fast_memo);
                let later: Vec<usize> = (k + 1..todo.len()).filter(|&j| !refuted[j]).collect();
                let eval: Vec<Term> = later.iter().map(|&j| posts[j].clone()).collect();
                let (r, false_in) = smt.check_eval(
                    &mut self.fast,
                    &mut self.session,
                    &state_term,
                    formula,
                    Some(&post),
                    post_fast,
                    &eval,
                );
                if let Some(f) = false_in {
                    for (&j, f) in later.iter().zip(f) {
                        refuted[j] |= f;
                    }
                }
                match r {
                    SatResult::Unsat => true,
                    SatResult::Sat => false,
                    SatResult::Unknown(r) => {
                        self.last_unknown = Some(r);
                        continue;
                    }
                }
            };
            self.record(state, letter_id, p, valid);
            // Learn `S ⇒ p` for the frame rule (see the module comment).
            let pv = &preds.get(p).vars;
            if self.frame && letter.tf.writes.iter().all(|x| !pv.contains(x)) {
                if !valid {
                    self.implied.insert((state, p), false);
                } else if total
                    || (sat_known
                        && self.disjoint(preds, state, &mut state_vars, letter_id, letter, p))
                {
                    self.implied.insert((state, p), true);
                }
            }
            if valid {
                holds.push(p);
            }
        }
        self.fast_unknowns += smt.close(&mut self.fast, &mut self.session);
        Post::Holds(holds)
    }

    /// The post of a *return* (nested words): the candidates `q` with `{cur, hier} ret {q}` valid,
    /// where `hier` held before the matching `call` (the caller's frame) and `cur` holds at the
    /// callee's exit (or `False` if the combination is infeasible). The query renames, as a nested
    /// SSA trace: `hier`, the call, a fresh version of every variable the callee may change
    /// (`fixed` tells the frame variables no edge but a call writes: the callee's parameters and
    /// `old` values, which keep the versions the call gave them), `cur`, the return (which restores
    /// the caller's frame), then `q`. Without the solver: a `q` of `hier` over frame variables, or of
    /// `cur` over globals, that the return does not write. Not cached here: the Floyd–Hoare
    /// automaton caches returns.
    #[allow(clippy::too_many_arguments)]
    pub fn return_post(
        &mut self,
        voc: &Vocabulary,
        preds: &Predicates,
        cur: StateId,
        hier: StateId,
        call: &Letter,
        ret: &Letter,
        fixed: &dyn Fn(&super::transition::PVar) -> bool,
        candidates: &[PredId],
        stats: &mut Stats,
    ) -> Post {
        use super::cfa::EdgeKind;
        use super::tracecheck::SsaBuilder;
        let assume = |t: &Term| {
            let reads = t
                .free_vars()
                .iter()
                .filter_map(|v| voc.lookup(v))
                .filter(|(_, post)| !post)
                .map(|(x, _)| x)
                .collect();
            super::transition::TransFormula::assume(t.clone(), reads)
        };
        let (hier_t, cur_t) = (preds.state_term(hier), preds.state_term(cur));
        let mut b = SsaBuilder::default();
        let mut conj = vec![b.step(voc, &assume(&hier_t)).formula];
        conj.push(b.step_kind(voc, &call.tf, EdgeKind::Call).formula);
        let mut changed: std::collections::BTreeSet<super::transition::PVar> = Default::default();
        changed.extend(
            preds
                .state_preds(cur)
                .iter()
                .flat_map(|p| preds.get(*p).vars.iter()),
        );
        changed.extend(
            preds
                .state_preds(hier)
                .iter()
                .flat_map(|p| preds.get(*p).vars.iter()),
        );
        changed.extend(candidates.iter().flat_map(|p| preds.get(*p).vars.iter()));
        changed.extend(ret.tf.reads.iter());
        changed.extend(call.tf.writes.iter());
        changed.retain(|x| !fixed(x) && !voc.is_const(*x));
        b.havoc(voc, changed);
        conj.push(b.step(voc, &assume(&cur_t)).formula);
        conj.push(
            b.step_kind(voc, &ret.tf, EdgeKind::Return { call: usize::MAX })
                .formula,
        );
        stats.htc_smt += 1;
        self.session.push();
        for c in &conj {
            self.session.assert(c);
        }
        match self.session.check_sat() {
            SatResult::Unsat => {
                self.session.pop();
                return Post::False;
            }
            SatResult::Sat => {}
            SatResult::Unknown(r) => self.last_unknown = Some(r),
        }
        let mut holds = Vec::new();
        for &p in candidates {
            if p == FALSE {
                continue;
            }
            // Syntactic rules: a predicate of the caller's state over frame variables only comes
            // back with the frame; one of the callee's exit state over globals only flows through
            // (in both cases if the return writes none of its variables).
            let vars = &preds.get(p).vars;
            let untouched = vars.iter().all(|x| !ret.tf.writes.contains(x));
            let frame_only = vars.iter().all(super::tracecheck::is_frame_var);
            let globals_only = vars.iter().all(|x| !super::tracecheck::is_frame_var(x));
            if untouched
                && ((frame_only && preds.state_preds(hier).contains(&p))
                    || (globals_only && preds.state_preds(cur).contains(&p)))
            {
                stats.htc_syntactic += 1;
                holds.push(p);
                continue;
            }
            stats.htc_smt += 1;
            let q = b.clone().step(voc, &assume(&preds.get(p).term)).formula;
            self.session.push();
            self.session.assert(&Term::not(&q));
            let r = self.session.check_sat();
            self.session.pop();
            match r {
                SatResult::Unsat => holds.push(p),
                SatResult::Sat => {}
                SatResult::Unknown(r) => self.last_unknown = Some(r),
            }
        }
        self.session.pop();
        Post::Holds(holds)
    }

    /// Are the letter's SMT variables disjoint from those of `S` and `p`, and is it free of
    /// uninterpreted functions? (`state_vars` caches those of `S` for one post.)
    fn disjoint(
        &mut self,
        preds: &Predicates,
        state: StateId,
        state_vars: &mut Option<std::collections::HashSet<crate::smt::Var>>,
        letter_id: usize,
        letter: &Letter,
        p: PredId,
    ) -> bool {
        let (avars, uf) = self.letter_vars.entry(letter_id).or_insert_with(|| {
            let f = &letter.tf.formula;
            let vars = f.free_vars().into_iter().map(|v| base_var(&v)).collect();
            (vars, !f.symbols().funs.is_empty())
        });
        if *uf {
            return false;
        }
        let svars = state_vars.get_or_insert_with(|| {
            preds
                .state_preds(state)
                .iter()
                .flat_map(|q| preds.get(*q).term.free_vars())
                .map(|v| base_var(&v))
                .collect()
        });
        let pvars = preds.get(p).term.free_vars();
        !pvars
            .iter()
            .map(base_var)
            .chain(svars.iter().cloned())
            .any(|v| avars.contains(&v))
    }

    /// Is `{pre} letter {post}` valid for arbitrary terms (used for checks outside the automaton)?
    pub fn check_triple(
        &mut self,
        voc: &Vocabulary,
        pre: &Term,
        letter: &Letter,
        post: &Term,
    ) -> SatResult {
        self.session.push();
        self.session.assert(pre);
        self.session.assert(&letter.tf.formula);
        self.session.assert(&Term::not(&primed(voc, post, letter)));
        let r = self.session.check_sat();
        self.session.pop();
        r
    }
}

/// `p` with the variables the letter writes replaced by their post variables.
pub fn primed(voc: &Vocabulary, p: &Term, letter: &Letter) -> Term {
    let mut map = HashMap::new();
    for v in p.free_vars() {
        if let Some((x, false)) = voc.lookup(&v) {
            if letter.tf.writes.contains(&x) {
                if let Ok(post) = voc.post(x) {
                    map.insert(v, Term::var(&post));
                }
            }
        }
    }
    if map.is_empty() {
        p.clone()
    } else {
        p.substitute(&map)
    }
}

/// A variable's pre-state name: a post variable `x@post` stands for its program variable `x` (for
/// comparing the variables of letters and predicates).
fn base_var(v: &crate::smt::Var) -> crate::smt::Var {
    match v.name.strip_suffix("@post") {
        Some(base) => crate::smt::Var {
            name: base.into(),
            ..v.clone()
        },
        None => v.clone(),
    }
}

/// Is `t` within what the fast solver (yices over SMT-LIB) accepts: no quantifier, no non-linear
/// arithmetic (a product of two non-constants, a division by a non-constant), no constant array, no
/// floating-point or Int/bit-vector conversion? Memoised per term in `memo`.
fn fast_fragment(t: &Term, memo: &mut HashMap<u32, bool>) -> bool {
    if t.has_quantifier() {
        return false;
    }
    let TermKind::App(op, args) = t.kind() else {
        return true;
    };
    if let Some(&r) = memo.get(&t.id()) {
        return r;
    }
    let constant = |a: &Term| matches!(a.kind(), TermKind::Const(_));
    let op_ok = match op {
        Op::Mul => args.iter().filter(|a| !constant(a)).count() <= 1,
        Op::IntDiv | Op::Mod | Op::RealDiv => args.iter().skip(1).all(constant),
        Op::ConstArray(_) | Op::Builtin(..) => false,
        Op::BvBuiltin(name) => !name.contains("nat") && !name.contains("int"),
        _ => true,
    };
    let r = op_ok && args.iter().all(|a| fast_fragment(a, memo));
    memo.insert(t.id(), r);
    r
}

/// After this many unanswered queries the fast solver is no longer asked.
const FAST_UNKNOWNS: usize = 3;

/// The SMT tier of one post: `S ∧ a` asserted (lazily) in the fast session and, for what the fast
/// solver cannot answer, in the main session; each check adds one conjunct in a nested scope.
struct Tiered {
    /// The fast session may be asked (it exists, and `S ∧ a` is in its fragment and did not
    /// defeat it).
    fast_usable: bool,
    fast_open: bool,
    main_open: bool,
    /// Queries the fast solver did not answer.
    fast_unknowns: usize,
}

impl Tiered {
    fn new(fast_usable: bool) -> Self {
        Tiered {
            fast_usable,
            fast_open: false,
            main_open: false,
            fast_unknowns: 0,
        }
    }

    /// Satisfiability of `S ∧ a` (and `extra`, if given); on `sat`, which of `eval` are false in
    /// the model (`None` when the solver gives no values).
    #[allow(clippy::too_many_arguments)]
    fn check_eval(
        &mut self,
        fast: &mut Option<Session>,
        main: &mut Session,
        state: &Term,
        letter: &Term,
        extra: Option<&Term>,
        extra_fast: bool,
        eval: &[Term],
    ) -> (SatResult, Option<Vec<bool>>) {
        // Quantified queries get a shorter limit (`predicates::check`).
        let quantified = state.has_quantifier()
            || letter.has_quantifier()
            || extra.is_some_and(Term::has_quantifier);
        let check = |s: &mut Session| super::predicates::check(s, quantified);
        let ask = |s: &mut Session| {
            if let Some(q) = extra {
                s.push();
                s.assert(q);
            }
            let r = check(s);
            let false_in = if r == SatResult::Sat && !eval.is_empty() {
                s.get_values(eval).ok().map(|vals| {
                    vals.iter()
                        .map(|(_, v)| matches!(v, crate::smt::Value::Bool(false)))
                        .collect()
                })
            } else {
                None
            };
            if extra.is_some() {
                s.pop();
            }
            (r, false_in)
        };
        if self.fast_usable
            && extra_fast
            && let Some(f) = fast.as_mut()
        {
            if !self.fast_open {
                f.push();
                f.assert(state);
                f.assert(letter);
                self.fast_open = true;
            }
            let (r, false_in) = ask(f);
            if !matches!(r, SatResult::Unknown(_)) {
                return (r, false_in);
            }
            self.fast_unknowns += 1;
            if extra.is_none() {
                // `S ∧ a` itself defeats the fast solver: the main session answers the rest.
                self.fast_usable = false;
            }
        }
        if !self.main_open {
            main.push();
            main.assert(state);
            main.assert(letter);
            self.main_open = true;
        }
        ask(main)
    }

    /// Pops the scopes; returns the number of queries the fast solver did not answer.
    fn close(self, fast: &mut Option<Session>, main: &mut Session) -> usize {
        if self.fast_open
            && let Some(f) = fast.as_mut()
        {
            f.pop();
        }
        if self.main_open {
            main.pop();
        }
        self.fast_unknowns
    }
}
