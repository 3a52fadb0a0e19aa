//! Thread-modular proofs for programs that fork unboundedly: a SAFE answer where the bounded
//! interleaving product can only say "unbounded threads".
//!
//! # What it computes
//!
//! A *thread-modular proof at level k* (Hoenicke, Majumdar, Podelski: "Thread modularity at many
//! levels: a pearl in compositional verification", POPL 2017; Owicki–Gries for parameterised
//! programs: an invariant over the shared state and the local states of `k` representative threads
//! of each unbounded fork) is searched for as a system of constrained Horn clauses, solved by
//! Houdini over the program's atoms ([`super::horn`], `View::candidates`: cheap, and enough for
//! mutual exclusion by locks) or by z3's Horn solver (Spacer, any formula, may take minutes):
//!
//! * The **view** is a tuple: the entry thread; the single instance of every fork statement that
//!   runs at most once (not on a cycle of the entry thread); and `k` *slots* of every fork statement
//!   on a cycle (an *unbounded pool*). A slot is "not in use" or at a location with its locals.
//!   With [`Pools::Merged`], the threads of a procedure forked by several statements are one pool
//!   ([`cfa::build_merged`]: a thread's tag says which statement forked it) summarised the same
//!   way: a proof whose size does not grow with the number of such statements (the acquire-work
//!   and worker families). The semantics is the program's own — every fork makes a new thread —
//!   so the soundness argument below is unchanged.
//! * One uninterpreted predicate `P_τ` per control tuple `τ` of the view reachable in the control
//!   product (locations only), over the globals and the locals of every thread of the view. Its
//!   meaning: for every reachable configuration of the program (with arbitrarily many threads) and
//!   every injective choice of threads for the view's positions, the projection satisfies `P_τ`.
//!   The slots of one pool are interchangeable, so a tuple is kept with its slots sorted by
//!   location and an atom of any other order permutes its arguments ([`View::canonical`]): the
//!   least solution is symmetric, so this loses no proof and halves the predicates.
//! * Clauses: the initial view; every step of a thread of the view (forks and joins by the entry
//!   thread included); every step of an **outsider** — another thread of an unbounded pool, one
//!   instance of the pool beyond the slots (`k + 1` instances are built) — which moves only the
//!   globals: `P_τ(x) ∧ ⋀_j P_{τ[j := s]}(x[slot j := outsider]) ∧ step ⇒ P_τ(x')`, the outsider's
//!   own state justified by the views that put it in slot `j` of its pool (a step that writes no
//!   global leaves the view unchanged and gets no clause); and one query clause
//!   `P_τ ∧ step-into-an-error ⇒ false` per error letter of a thread of the view.
//!
//! If the clauses are satisfiable, their solution is an inductive invariant that excludes every
//! error: SAFE (Houdini finds a solution or nothing; it cannot show that none exists). Before that answer, the solution is **re-checked** clause by clause with the
//! definitions substituted, in a fresh z3 session outside the Horn engine (a certificate check).
//! Unsatisfiable means only that no `k`-thread-modular proof exists (a real error, or too few
//! slots: the caller tries `k + 1`); the bounded engine then goes on as before.
//!
//! Soundness: the view's predicates over-approximate the projections of reachable configurations —
//! a step by a thread of the view is a local clause; a step by any other thread is an outsider
//! clause, whose extra premises are projections of the same configuration with that thread in a
//! slot (an injective choice again, since there are infinitely many threads of an unbounded pool); a
//! fork of an unbounded pool always finds a new thread. Block encoding composes atomic blocks and
//! Lipton movers only, which is sound for any number of threads; a program whose encoding keeps an
//! atomic bracket, a call/return letter, or a fork or join outside the entry thread is not handled.
//!
//! # Invariant
//!
//! A [`Attempt::Proved`] answer is only given after every clause was re-checked as valid with the
//! solver's definitions substituted.

use super::blocks::{self, Encoded};
use super::cfa::{self, Cfa, EdgeKind, LocId};
use super::horn::{self, Clause};
use super::interleaving::FREE;
use super::transition::{PVar, Vocabulary};
use super::{Config, cegar};
use crate::smt::{FuncDecl, Op, Session, SolverKind, Sort, Term, Var};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant};

/// At most this many control tuples (predicates) are made.
const MAX_TUPLES: usize = 4000;
/// At most this many clauses are made.
const MAX_CLAUSES: usize = 40_000;

/// The result of one attempt.
#[derive(Debug)]
pub enum Attempt {
    /// Not a program this module handles (the reason, for the debug log).
    NotApplicable(String),
    /// A `k`-thread-modular proof exists, re-checked; `tuples` predicates were solved `by` a
    /// method.
    Proved { tuples: usize, by: Method },
    /// No `k`-thread-modular proof exists.
    NoProof,
    /// The solver gave no definite answer, or its proof did not re-check (the reason).
    Unknown(String),
    /// The time limit ran out (the reason): a larger view would take longer still.
    OutOfTime(String),
}

/// How the clauses were solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Houdini over the program's atoms ([`horn::solve`]).
    Houdini,
    /// z3's Horn solver (Spacer).
    Spacer,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Houdini => "Houdini over the program's atoms",
            Method::Spacer => "z3's Horn solver",
        })
    }
}

/// Where a thread of the built CFA sits in the view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Position `pos` of the view.
    Member(usize),
    /// The outsider of unbounded pool `pool`.
    Outsider(usize),
    /// An instance nobody uses (further instances of a bounded pool).
    Unused,
}

/// Does the program fork a procedure from a `fork` statement that can run more than once?
/// (A cheap pre-check on the IR: a `fork` edge on a cycle of its procedure's CFG.)
pub fn forks_unboundedly(program: &crate::ir::Program) -> bool {
    program.procedures.iter().any(|p| {
        let Some(cfg) = &p.body else { return false };
        let sccs = petgraph::algo::kosaraju_scc(&cfg.graph);
        let mut comp = HashMap::new();
        for (i, scc) in sccs.iter().enumerate() {
            for n in scc {
                comp.insert(*n, (i, scc.len()));
            }
        }
        cfg.graph.edge_indices().any(|e| {
            let Some((a, b)) = cfg.graph.edge_endpoints(e) else {
                return false;
            };
            matches!(cfg.graph[e].stmt, crate::ir::Stmt::Fork { .. })
                && (a == b || comp.get(&a).map(|c| c.0) == comp.get(&b).map(|c| c.0))
        })
    })
}

/// Searches a `k`-thread-modular proof of `voc.program` with Horn-solver time `limit`.
pub fn prove(voc: &Vocabulary, config: &Config, k: usize, limit: Duration) -> Attempt {
    prove_with(
        voc,
        config,
        k,
        Pools::PerStatement,
        &[Method::Houdini, Method::Spacer],
        limit,
    )
}

/// Which threads the view's slots summarise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pools {
    /// The threads of each fork statement that runs unboundedly often.
    PerStatement,
    /// Also the threads of a procedure forked by several statements ([`cfa::build_merged`]):
    /// a proof whose size does not grow with the number of such threads.
    Merged,
}

/// [`prove`] with the given methods, in order (the first of several gets `HOUDINI_SHARE` of
/// the time, the last what is left).
pub fn prove_with(
    voc: &Vocabulary,
    config: &Config,
    k: usize,
    pools: Pools,
    methods: &[Method],
    limit: Duration,
) -> Attempt {
    let built = match pools {
        Pools::PerStatement => cfa::build_nested(voc, config.max_locations, k + 1),
        Pools::Merged => cfa::build_merged(voc, config.max_locations, k + 1),
    };
    let mut cfa = match built {
        Ok(c) => c,
        Err(e) => return Attempt::NotApplicable(e.to_string()),
    };
    if config.slice {
        super::slice::slice(&mut cfa, voc);
        super::slice::drop_idle_threads(&mut cfa, voc);
    }
    let enc = match blocks::encode(&cfa, voc, config.block_encoding) {
        Ok(e) => e,
        Err(u) => return Attempt::NotApplicable(u.0),
    };
    let view = match View::new(&cfa, &enc, voc, k) {
        Ok(v) => v,
        Err(why) => return Attempt::NotApplicable(why),
    };
    let clauses = match view.clauses() {
        Ok(c) => c,
        Err(why) => return Attempt::NotApplicable(why),
    };
    if cegar::debug() {
        eprintln!(
            "thread-modular (k = {k}): {} tuples, {} clauses",
            view.tuples.len(),
            clauses.len()
        );
    }
    solve(config, &view, &clauses, methods, limit)
}

/// The view, its control tuples and its predicates.
struct View<'a, 'p> {
    cfa: &'a Cfa,
    enc: &'a Encoded,
    voc: &'a Vocabulary<'p>,
    /// The thread of each position (position 0: the entry thread).
    members: Vec<u32>,
    roles: Vec<Role>,
    /// Per unbounded pool: its slot positions and its outsider thread.
    unbounded: Vec<(Vec<usize>, u32)>,
    /// The predicate arguments: globals, then each position's locals.
    globals: Vec<PVar>,
    /// Per position: its locals (for slots in the pool's common key order).
    locals: Vec<Vec<PVar>>,
    /// Per outsider thread and slot position: the outsider's locals in that slot's order.
    outsider_locals: HashMap<(u32, usize), Vec<PVar>>,
    /// Per outsider thread and slot position: the slot's location for each outsider location.
    loc_map: HashMap<(u32, usize), HashMap<LocId, LocId>>,
    /// Per slot position: its thread's locations in order (the rank of a location is the same
    /// for every instance of a fork statement).
    slot_locs: HashMap<usize, Vec<LocId>>,
    /// Reachable control tuples (per position a location or [`FREE`]) in canonical form (see
    /// [`View::canonical`]) and their predicates.
    tuples: BTreeMap<Vec<u32>, FuncDecl>,
}

/// A local variable of a pool instance, independent of the instance: kind, id and rank of the
/// instance (of an inlined procedure) among the thread's instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Key {
    Var(crate::ir::VarId, usize),
    Old(crate::ir::VarId, usize),
    Tid(u32),
}

impl<'a, 'p> View<'a, 'p> {
    fn new(
        cfa: &'a Cfa,
        enc: &'a Encoded,
        voc: &'a Vocabulary<'p>,
        k: usize,
    ) -> Result<Self, String> {
        check_letters(cfa, enc)?;
        // A pool of several fork statements ([`cfa::build_merged`]) is summarised like one
        // that forks unboundedly: its threads are interchangeable whatever their number.
        let pool_unbounded: Vec<bool> = unbounded_pools(cfa, enc)
            .into_iter()
            .zip(&cfa.pools)
            .map(|(u, pool)| u || pool.merged())
            .collect();
        if !pool_unbounded.iter().any(|&u| u) {
            return Err("no fork statement runs more than once".into());
        }
        let mut members = vec![0u32];
        let mut roles = vec![Role::Unused; cfa.threads.len()];
        roles[0] = Role::Member(0);
        let mut unbounded = Vec::new();
        for (p, pool) in cfa.pools.iter().enumerate() {
            if pool.threads.len() != k + 1 {
                return Err("unexpected number of thread instances".into());
            }
            if pool_unbounded[p] {
                let mut slots = Vec::new();
                for &t in &pool.threads[..k] {
                    roles[t as usize] = Role::Member(members.len());
                    slots.push(members.len());
                    members.push(t);
                }
                let o = pool.threads[k];
                roles[o as usize] = Role::Outsider(unbounded.len());
                unbounded.push((slots, o));
            } else {
                let t = pool.threads[0];
                roles[t as usize] = Role::Member(members.len());
                members.push(t);
            }
        }
        let Ownership {
            insts,
            globals,
            owned,
        } = ownership(cfa, enc)?;
        let ranks: Vec<HashMap<u32, usize>> = insts
            .iter()
            .map(|s| s.iter().enumerate().map(|(r, &i)| (i, r)).collect())
            .collect();
        let key_of = |t: u32, x: PVar| -> Option<Key> {
            let rank = |inst: u32| ranks[t as usize].get(&inst).copied();
            Some(match x {
                PVar::Var { id, inst } => Key::Var(id, rank(inst)?),
                PVar::Old { id, inst } => Key::Old(id, rank(inst)?),
                PVar::Tid { idx, .. } => Key::Tid(idx),
            })
        };
        let order: Vec<Vec<u32>> = insts.iter().map(|s| s.iter().copied().collect()).collect();
        let var_of = |t: u32, key: Key| -> Option<PVar> {
            let inst = |r: usize| order[t as usize].get(r).copied();
            Some(match key {
                Key::Var(id, r) => PVar::Var { id, inst: inst(r)? },
                Key::Old(id, r) => PVar::Old { id, inst: inst(r)? },
                Key::Tid(idx) => PVar::Tid { thread: t, idx },
            })
        };
        let mut locals: Vec<Vec<PVar>> = members
            .iter()
            .map(|&t| owned[t as usize].iter().copied().collect())
            .collect();
        let mut outsider_locals = HashMap::new();
        let mut loc_map = HashMap::new();
        let locs_of = |t: u32| -> Vec<LocId> {
            (0..cfa.locs.len())
                .filter(|&l| cfa.thread_of[l] == t)
                .collect()
        };
        for (slots, o) in &unbounded {
            let mut keys = BTreeSet::new();
            for &t in slots.iter().map(|&s| &members[s]).chain([o]) {
                for &x in &owned[t as usize] {
                    keys.insert(key_of(t, x).ok_or("an instance without locations")?);
                }
            }
            let olocs = locs_of(*o);
            for &s in slots {
                let t = members[s];
                let mine: Option<Vec<PVar>> = keys.iter().map(|&key| var_of(t, key)).collect();
                let theirs: Option<Vec<PVar>> = keys.iter().map(|&key| var_of(*o, key)).collect();
                let (Some(mine), Some(theirs)) = (mine, theirs) else {
                    return Err("instances of a fork statement differ".into());
                };
                locals[s] = mine;
                outsider_locals.insert((*o, s), theirs);
                let slocs = locs_of(t);
                if slocs.len() != olocs.len() {
                    return Err("instances of a fork statement differ".into());
                }
                loc_map.insert(
                    (*o, s),
                    olocs.iter().copied().zip(slocs.iter().copied()).collect(),
                );
            }
        }
        let slot_locs: HashMap<usize, Vec<LocId>> = unbounded
            .iter()
            .flat_map(|(slots, _)| slots.iter().map(|&s| (s, locs_of(members[s]))))
            .collect();
        let mut view = View {
            cfa,
            enc,
            voc,
            members,
            roles,
            unbounded,
            globals: globals.into_iter().collect(),
            locals,
            outsider_locals,
            loc_map,
            slot_locs,
            tuples: BTreeMap::new(),
        };
        view.check_instances_alike()?;
        view.explore()?;
        Ok(view)
    }

    /// The letters of slot instances and of their outsider correspond location by location.
    fn check_instances_alike(&self) -> Result<(), String> {
        for ((o, s), map) in &self.loc_map {
            let shape = |t: u32, tr: &dyn Fn(LocId) -> Option<LocId>| -> Option<Vec<_>> {
                let mut v: Vec<(LocId, LocId)> = Vec::new();
                for l in &self.enc.letters {
                    if self.cfa.thread_of[l.src] == t {
                        v.push((tr(l.src)?, tr(l.tgt)?));
                    }
                }
                v.sort_unstable();
                Some(v)
            };
            let mine = shape(self.members[*s], &Some);
            let theirs = shape(*o, &|l| map.get(&l).copied());
            if mine.is_none() || mine != theirs {
                return Err("instances of a fork statement differ".into());
            }
        }
        Ok(())
    }

    /// The position of thread `t` in the view, if it is a member.
    fn pos(&self, t: u32) -> Option<usize> {
        match self.roles.get(t as usize) {
            Some(Role::Member(p)) => Some(*p),
            _ => None,
        }
    }

    fn is_error(&self, l: LocId) -> bool {
        self.cfa.error_of(l).is_some()
    }

    /// The control successors of a tuple by a letter of a member: the new tuple (`None` when the
    /// letter enters an error location), or nothing when it is not enabled or not a step of the
    /// view.
    fn member_step(&self, tuple: &[u32], a: usize) -> Option<Option<Vec<u32>>> {
        let l = &self.enc.letters[a];
        let p = self.pos(self.cfa.thread_of[l.src])?;
        if tuple[p] != l.src as u32 {
            return None;
        }
        let mut next = tuple.to_vec();
        next[p] = l.tgt as u32;
        match l.kind {
            EdgeKind::Plain | EdgeKind::AtomicEnd => {}
            EdgeKind::Fork { thread } => match self.roles[thread as usize] {
                Role::Member(q) => {
                    if tuple[q] != FREE {
                        return None;
                    }
                    next[q] = self.cfa.threads[thread as usize].entry as u32;
                }
                Role::Outsider(_) => {}
                Role::Unused => return None,
            },
            EdgeKind::Join { thread } => match self.roles[thread as usize] {
                Role::Member(q) => {
                    if tuple[q] != self.cfa.threads[thread as usize].exit as u32 {
                        return None;
                    }
                    next[q] = FREE;
                }
                Role::Outsider(_) => {}
                Role::Unused => return None,
            },
            _ => return None,
        }
        if self.is_error(l.tgt) {
            return Some(None);
        }
        Some(Some(next))
    }

    /// The canonical form of a tuple: the slots of each unbounded pool sorted by the rank of their
    /// location (threads of one pool are interchangeable, so the projections of reachable
    /// configurations are closed under permuting them, and one predicate serves every order).
    /// Returns the canonical tuple and, per position, the position of `tuple` it takes.
    fn canonical(&self, tuple: &[u32]) -> (Vec<u32>, Vec<usize>) {
        let mut out = tuple.to_vec();
        let mut from: Vec<usize> = (0..tuple.len()).collect();
        for (slots, _) in &self.unbounded {
            let rank = |s: usize| -> usize {
                let l = tuple[s];
                if l == FREE {
                    return usize::MAX;
                }
                self.slot_locs[&s]
                    .iter()
                    .position(|&x| x as u32 == l)
                    .unwrap_or(usize::MAX)
            };
            let mut order: Vec<usize> = slots.clone();
            order.sort_by_key(|&s| rank(s));
            for (&dst, &src) in slots.iter().zip(&order) {
                from[dst] = src;
                let r = rank(src);
                out[dst] = if r == usize::MAX {
                    FREE
                } else {
                    self.slot_locs[&dst][r] as u32
                };
            }
        }
        (out, from)
    }

    fn explore(&mut self) -> Result<(), String> {
        let mut init = vec![FREE; self.members.len()];
        init[0] = self.enc.init as u32;
        let mut seen = BTreeSet::from([init.clone()]);
        let mut queue = VecDeque::from([init]);
        while let Some(t) = queue.pop_front() {
            for &l in t.iter().filter(|&&l| l != FREE) {
                for &a in &self.enc.out[l as usize] {
                    if let Some(Some(next)) = self.member_step(&t, a)
                        && let next = self.canonical(&next).0
                        && seen.insert(next.clone())
                    {
                        if seen.len() > MAX_TUPLES {
                            return Err("too many control tuples".into());
                        }
                        queue.push_back(next);
                    }
                }
            }
        }
        let mut sorts = Vec::new();
        for x in self.globals.iter().chain(self.locals.iter().flatten()) {
            sorts.push(self.voc.sort(*x).map_err(|u| u.0)?);
        }
        self.tuples = seen
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                (
                    t,
                    FuncDecl::new(format!("tm!P{i}"), sorts.clone(), Sort::Bool),
                )
            })
            .collect();
        Ok(())
    }

    fn pre(&self, x: PVar) -> Result<Term, String> {
        Ok(Term::var(&self.voc.pre(x).map_err(|u| u.0)?))
    }

    /// The value of `x` after a letter: its post variable if the letter writes it.
    fn post(&self, x: PVar, writes: &BTreeSet<PVar>) -> Result<Term, String> {
        if writes.contains(&x) {
            Ok(Term::var(&self.voc.post(x).map_err(|u| u.0)?))
        } else {
            self.pre(x)
        }
    }

    /// `P_tuple` applied to the arguments `value(x)` of every argument variable, with slot `swap`'s
    /// locals replaced by `outsider`'s.
    fn atom(
        &self,
        tuple: &[u32],
        value: &dyn Fn(PVar) -> Result<Term, String>,
        swap: Option<(usize, u32)>,
    ) -> Result<Option<Term>, String> {
        let (canonical, from) = self.canonical(tuple);
        let Some(p) = self.tuples.get(&canonical) else {
            return Ok(None);
        };
        let mut args = Vec::new();
        for x in &self.globals {
            args.push(value(*x)?);
        }
        for &pos in &from {
            let vars = match swap {
                Some((s, o)) if s == pos => &self.outsider_locals[&(o, s)],
                _ => &self.locals[pos],
            };
            for x in vars {
                args.push(value(*x)?);
            }
        }
        Ok(Some(Term::uf(p, args)))
    }

    fn clauses(&self) -> Result<Vec<Clause>, String> {
        let mut out = Vec::new();
        let pre = |x: PVar| self.pre(x);
        // The initial view.
        let mut init = vec![FREE; self.members.len()];
        init[0] = self.enc.init as u32;
        out.push(Clause {
            body: Vec::new(),
            head: self.atom(&init, &pre, None)?,
        });
        for tuple in self.tuples.keys() {
            let here = self
                .atom(tuple, &pre, None)?
                .ok_or("a tuple without predicate")?;
            // Steps of members.
            for &l in tuple.iter().filter(|&&l| l != FREE) {
                for &a in &self.enc.out[l as usize] {
                    let Some(next) = self.member_step(tuple, a) else {
                        continue;
                    };
                    let letter = &self.enc.letters[a];
                    let mut body = vec![here.clone(), letter.tf.formula.clone()];
                    if let EdgeKind::Join { thread } = letter.kind
                        && let Role::Outsider(u) = self.roles[thread as usize]
                    {
                        let exit = self.cfa.threads[thread as usize].exit;
                        match self.justification(tuple, u, exit)? {
                            Some(j) => body.extend(j),
                            None => continue,
                        }
                    }
                    let head = match next {
                        None => None,
                        Some(next) => {
                            let post = |x: PVar| self.post(x, &letter.tf.writes);
                            Some(self.atom(&next, &post, None)?.ok_or("a lost tuple")?)
                        }
                    };
                    out.push(Clause { body, head });
                }
            }
            // Steps of outsiders.
            for (u, (_, o)) in self.unbounded.iter().enumerate() {
                for letter in &self.enc.letters {
                    // A step of an outsider that writes no global leaves the view as it is.
                    if self.cfa.thread_of[letter.src] != *o
                        || self.is_error(letter.tgt)
                        || !letter.tf.writes.iter().any(|x| self.globals.contains(x))
                    {
                        continue;
                    }
                    let Some(j) = self.justification(tuple, u, letter.src)? else {
                        continue;
                    };
                    let mut body = vec![here.clone(), letter.tf.formula.clone()];
                    body.extend(j);
                    let post = |x: PVar| self.post(x, &letter.tf.writes);
                    let head = self.atom(tuple, &post, None)?;
                    out.push(Clause { body, head });
                }
            }
            if out.len() > MAX_CLAUSES {
                return Err("too many clauses".into());
            }
        }
        Ok(out)
    }

    /// The premises that justify the outsider of unbounded pool `u` at its location `at`: for each
    /// slot of the pool, the view with the outsider in that slot (`None`: one of them is not a
    /// reachable tuple, so the step cannot happen).
    fn justification(
        &self,
        tuple: &[u32],
        u: usize,
        at: LocId,
    ) -> Result<Option<Vec<Term>>, String> {
        let (slots, o) = &self.unbounded[u];
        let pre = |x: PVar| self.pre(x);
        let mut out = Vec::new();
        for &s in slots {
            let Some(&l) = self.loc_map[&(*o, s)].get(&at) else {
                return Ok(None);
            };
            let mut t = tuple.to_vec();
            t[s] = l as u32;
            match self.atom(&t, &pre, Some((s, *o)))? {
                Some(a) => out.push(a),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }
}

/// At most this many program constants in the bound templates of [`View::candidates`].
const MAX_CONSTANTS: usize = 6;
/// Sums of two variables are bounded by the smallest this many constants.
const MAX_SUM_CONSTANTS: usize = 3;
/// At most this many lock values (`m == c`) guard relations between two variables.
const MAX_LOCK_VALUES: usize = 4;
/// At most this many candidates per tuple (the program's atoms and bounds first, then relations
/// between two variables, then those guarded by a lock value or a thread's flag, then sums).
const MAX_CANDIDATES: usize = 400;
/// At most this many Boolean locals guard facts in a tuple's candidates.
const MAX_FLAG_GUARDS: usize = 4;
/// Pair templates only for tuples with at most this many integer variables.
const MAX_PAIR_VARS: usize = 14;

impl View<'_, '_> {
    /// The parameters of every predicate: the pre-state variables of the globals, then of each
    /// position's locals (the arguments of a canonical tuple's atom in [`View::atom`]).
    fn params(&self) -> Result<Vec<Var>, String> {
        self.globals
            .iter()
            .chain(self.locals.iter().flatten())
            .map(|x| self.voc.pre(*x).map_err(|u| u.0))
            .collect()
    }

    /// Candidate atoms for Houdini ([`horn::solve`]) at each tuple, over the globals and the
    /// locals of the positions in use: the comparisons the members' letters make (each side of a
    /// letter alone, both polarities: guards, lock values, the asserted conditions), bounds by the
    /// program's smallest integer constants, and between two integer variables `x <= y`,
    /// `x >= y`, `x != y` (equalities are both bounds; distinct values of a rotation) and bounds on
    /// `x + y` (one of two flags set).
    fn candidates(&self) -> Result<HashMap<FuncDecl, horn::Candidates>, String> {
        let params = self.params()?;
        let members: BTreeSet<u32> = self.members.iter().copied().collect();
        let mut atoms: Vec<Term> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut consts: BTreeSet<num_bigint::BigInt> = BTreeSet::new();
        for l in &self.enc.letters {
            if !members.contains(&self.cfa.thread_of[l.src]) {
                continue;
            }
            let mut stack = vec![l.tf.formula.clone()];
            while let Some(t) = stack.pop() {
                if !seen.insert(t.id()) {
                    continue;
                }
                if let Some(crate::smt::Value::Int(i)) = t.as_const()
                    && i.magnitude() <= &num_bigint::BigUint::from(1000u32)
                {
                    consts.insert(i.clone());
                }
                let Some((op, args)) = t.as_app() else {
                    if *t.sort_ref() == Sort::Bool {
                        self.push_atom(&t, &mut atoms);
                    }
                    continue;
                };
                stack.extend(args.iter().cloned());
                let comparison = matches!(
                    op,
                    Op::Eq | Op::Distinct | Op::Le | Op::Lt | Op::Ge | Op::Gt
                ) && args.iter().all(|a| *a.sort_ref() != Sort::Bool);
                // A Boolean map entry: a flag per index (`B[i]`, "index i is free").
                let flag = *op == Op::Select && *t.sort_ref() == Sort::Bool;
                if comparison || flag {
                    self.push_atom(&t, &mut atoms);
                }
            }
        }
        let consts: Vec<Term> = {
            let mut v: Vec<num_bigint::BigInt> = consts.into_iter().collect();
            v.sort_by_key(|c| (c.magnitude().clone(), c.sign() == num_bigint::Sign::Minus));
            v.into_iter().take(MAX_CONSTANTS).map(Term::int).collect()
        };
        // Per position: its integer and boolean variables.
        let typed = |xs: &[PVar], sort: Sort| -> Result<Vec<Term>, String> {
            let mut out = Vec::new();
            for &x in xs {
                if !matches!(x, PVar::Tid { .. }) && self.voc.sort(x).map_err(|u| u.0)? == sort {
                    out.push(Term::var(&self.voc.pre(x).map_err(|u| u.0)?));
                }
            }
            Ok(out)
        };
        // Lock values: the letters' comparisons of a global with a constant, `m == c`.
        let global_vars: BTreeSet<Var> = self
            .globals
            .iter()
            .filter_map(|x| self.voc.pre(*x).ok())
            .collect();
        let locks: Vec<Term> = atoms
            .iter()
            .filter(|a| match a.as_app() {
                Some((Op::Eq, [x, c])) => {
                    c.as_const().is_some()
                        && x.as_var().is_some_and(|v| global_vars.contains(v))
                        && *x.sort_ref() == Sort::Int
                }
                _ => false,
            })
            .take(MAX_LOCK_VALUES)
            .cloned()
            .collect();
        let mut out = HashMap::new();
        for (tuple, f) in &self.tuples {
            let mut ints = typed(&self.globals, Sort::Int)?;
            let mut bools = typed(&self.globals, Sort::Bool)?;
            let mut local_bools = Vec::new();
            let mut owned: BTreeSet<Var> = self
                .globals
                .iter()
                .filter_map(|x| self.voc.pre(*x).ok())
                .collect();
            for (p, &l) in tuple.iter().enumerate() {
                if l == FREE {
                    continue;
                }
                ints.extend(typed(&self.locals[p], Sort::Int)?);
                let bs = typed(&self.locals[p], Sort::Bool)?;
                local_bools.extend(bs.iter().cloned());
                bools.extend(bs);
                owned.extend(self.locals[p].iter().filter_map(|x| self.voc.pre(*x).ok()));
            }
            let mut cs: Vec<Term> = Vec::new();
            let mut ids = BTreeSet::new();
            let mut push = |t: Term, cs: &mut Vec<Term>| {
                if !t.is_true() && !t.is_false() && ids.insert(t.id()) {
                    cs.push(t);
                }
            };
            for a in &atoms {
                if a.free_vars_ref().iter().all(|v| owned.contains(v)) {
                    push(a.clone(), &mut cs);
                }
            }
            for b in &bools {
                push(b.clone(), &mut cs);
                push(Term::not(b), &mut cs);
            }
            for x in &ints {
                for c in &consts {
                    push(Term::le(x, c), &mut cs);
                    push(Term::ge(x, c), &mut cs);
                }
            }
            let pairs: Vec<(&Term, &Term)> = if ints.len() <= MAX_PAIR_VARS {
                ints.iter()
                    .enumerate()
                    .flat_map(|(i, x)| ints[i + 1..].iter().map(move |y| (x, y)))
                    .collect()
            } else {
                Vec::new()
            };
            for &(x, y) in &pairs {
                push(Term::le(x, y), &mut cs);
                push(Term::ge(x, y), &mut cs);
                push(Term::not(&Term::eq(x, y)), &mut cs);
            }
            // A lock's value decides a relation: `m == 0 ==> a != b`, the protected data are
            // consistent whenever the lock is free.
            for g in &locks {
                for &(x, y) in &pairs {
                    let mentions = |v: &Var| Some(v) == x.as_var() || Some(v) == y.as_var();
                    if g.free_vars_ref().iter().any(mentions) {
                        continue;
                    }
                    let not_g = Term::not(g);
                    push(
                        Term::or(vec![not_g.clone(), Term::not(&Term::eq(x, y))]),
                        &mut cs,
                    );
                    push(Term::or(vec![not_g.clone(), Term::le(x, y)]), &mut cs);
                    push(Term::or(vec![not_g, Term::ge(x, y)]), &mut cs);
                }
            }
            // A thread's flag decides a fact: `b ==> !B[i]` (it owns entry `i`), `b ==> i != j`;
            // and two threads' flags one: `b1 && b2 ==> i1 != i2` (they own different entries).
            let guards: Vec<&Term> = local_bools.iter().take(MAX_FLAG_GUARDS).collect();
            let facts: Vec<Term> = cs
                .iter()
                .filter(|a| {
                    let sel = |t: &Term| matches!(t.as_app(), Some((Op::Select, _)));
                    sel(a) || matches!(a.as_app(), Some((Op::Not, [x])) if sel(x))
                })
                .cloned()
                .chain(pairs.iter().map(|(x, y)| Term::not(&Term::eq(x, y))))
                .collect();
            for (i, b) in guards.iter().enumerate() {
                for f in &facts {
                    push(Term::or(vec![Term::not(b), f.clone()]), &mut cs);
                }
                for c in &guards[i + 1..] {
                    for (x, y) in &pairs {
                        push(
                            Term::or(vec![Term::not(b), Term::not(c), Term::not(&Term::eq(x, y))]),
                            &mut cs,
                        );
                    }
                }
            }
            // Not both: `cond1 + cond2 >= 1` for two threads past a test-and-set.
            for &(x, y) in &pairs {
                let sum = Term::add(vec![x.clone(), y.clone()]);
                for c in consts.iter().take(MAX_SUM_CONSTANTS) {
                    push(Term::le(&sum, c), &mut cs);
                    push(Term::ge(&sum, c), &mut cs);
                }
            }
            cs.truncate(MAX_CANDIDATES);
            out.insert(
                f.clone(),
                horn::Candidates {
                    params: params.clone(),
                    atoms: cs,
                },
            );
        }
        Ok(out)
    }

    /// Adds `t` (over the pre- or the post-state variables of a letter, not both; renamed to the
    /// pre-state) and its negation to `atoms`.
    fn push_atom(&self, t: &Term, atoms: &mut Vec<Term>) {
        if t.has_quantifier() {
            return;
        }
        let mut sides = BTreeSet::new();
        for v in t.free_vars_ref().iter() {
            match self.voc.lookup(v) {
                Some((_, post)) => {
                    sides.insert(post);
                }
                None => return,
            }
        }
        if sides.len() != 1 {
            return;
        }
        let pre = t.rename(&|v| match self.voc.lookup(v) {
            Some((x, true)) => self.voc.pre(x).ok(),
            _ => None,
        });
        for a in [
            crate::smt::simplify(&pre),
            crate::smt::simplify(&Term::not(&pre)),
        ] {
            if !a.is_true() && !a.is_false() && !atoms.contains(&a) {
                atoms.push(a);
            }
        }
    }
}

/// Declines encodings this module does not handle: a fork or join outside the entry thread, an
/// atomic block left as brackets, call/return letters, quantified letters.
fn check_letters(cfa: &Cfa, enc: &Encoded) -> Result<(), String> {
    let thread_of = |a: usize| cfa.thread_of[enc.letters[a].src];
    for (a, l) in enc.letters.iter().enumerate() {
        match l.kind {
            EdgeKind::Plain => {}
            EdgeKind::Fork { .. }
            | EdgeKind::ForkLimit { .. }
            | EdgeKind::GhostFork { .. }
            | EdgeKind::Join { .. } => {
                if thread_of(a) != 0 {
                    return Err("a thread other than the entry thread forks or joins".into());
                }
            }
            // Block encoding leaves a composed block's closing bracket, unreachable.
            EdgeKind::AtomicEnd => {}
            EdgeKind::AtomicBegin => {
                return Err("an atomic block is not one letter".into());
            }
            EdgeKind::Call | EdgeKind::Return { .. } => {
                return Err("calls kept as call/return letters".into());
            }
        }
        if l.tf.formula.has_quantifier() {
            return Err("a quantified letter".into());
        }
    }
    Ok(())
}

/// Per fork statement (pool): does it lie on a cycle of the entry thread (run more than once)?
fn unbounded_pools(cfa: &Cfa, enc: &Encoded) -> Vec<bool> {
    // Fork statements on a cycle of the entry thread: reachability among its locations.
    let main_succ =
        |l: LocId| -> Vec<LocId> { enc.out[l].iter().map(|&a| enc.letters[a].tgt).collect() };
    let reaches = |from: LocId, to: LocId| -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(l) = stack.pop() {
            if l == to {
                return true;
            }
            if seen.insert(l) {
                stack.extend(main_succ(l));
            }
        }
        false
    };
    let mut pool_unbounded = vec![false; cfa.pools.len()];
    for l in &enc.letters {
        let pool = match l.kind {
            EdgeKind::Fork { thread } => cfa.threads[thread as usize].pool,
            EdgeKind::ForkLimit { pool } | EdgeKind::GhostFork { pool } => Some(pool),
            _ => None,
        };
        if let Some(p) = pool
            && reaches(l.tgt, l.src)
        {
            pool_unbounded[p as usize] = true;
        }
    }
    pool_unbounded
}

/// Which thread each program variable of the letters belongs to.
struct Ownership {
    /// Per thread, the inlined procedure instances of its locations.
    insts: Vec<BTreeSet<u32>>,
    /// Variables of no thread (globals and constants).
    globals: BTreeSet<PVar>,
    /// Per thread, its variables (locals, `old` values, thread ids).
    owned: Vec<BTreeSet<PVar>>,
}

fn ownership(cfa: &Cfa, enc: &Encoded) -> Result<Ownership, String> {
    // Owners of program variables, and each thread's instances in order.
    let mut insts: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); cfa.threads.len()];
    let mut inst_owner: HashMap<u32, u32> = HashMap::new();
    for (l, loc) in cfa.locs.iter().enumerate() {
        let t = cfa.thread_of[l];
        if loc.inst != 0 {
            insts[t as usize].insert(loc.inst);
            if inst_owner.insert(loc.inst, t).is_some_and(|o| o != t) {
                return Err("an inlined instance shared by two threads".into());
            }
        }
    }
    for th in &cfa.threads {
        if th.inst != 0 {
            inst_owner.insert(th.inst, cfa.thread_of[th.entry]);
        }
    }
    let mut globals = BTreeSet::new();
    let mut owned: Vec<BTreeSet<PVar>> = vec![BTreeSet::new(); cfa.threads.len()];
    for l in &enc.letters {
        for &x in l.tf.reads.iter().chain(&l.tf.writes) {
            let owner = match x {
                PVar::Var { inst: 0, .. } => None,
                PVar::Var { inst, .. } | PVar::Old { inst, .. } => {
                    Some(*inst_owner.get(&inst).ok_or("a variable of no thread")?)
                }
                PVar::Tid { thread, .. } => Some(thread),
            };
            match owner {
                None => {
                    globals.insert(x);
                }
                Some(t) => {
                    owned[t as usize].insert(x);
                }
            }
        }
    }
    Ok(Ownership {
        insts,
        globals,
        owned,
    })
}

/// Solves the clauses: Houdini over the view's candidates first (cheap, and enough for mutual
/// exclusion by locks), then z3's Horn engine; a solution is re-checked either way.
fn solve(
    config: &Config,
    view: &View,
    clauses: &[Clause],
    methods: &[Method],
    limit: Duration,
) -> Attempt {
    let start = Instant::now();
    let mut attempt = Attempt::Unknown("no method".into());
    for (i, method) in methods.iter().enumerate() {
        let left = limit.saturating_sub(start.elapsed());
        let share = if i + 1 < methods.len() {
            left.mul_f64(HOUDINI_SHARE)
        } else {
            left
        };
        let share = share.max(Duration::from_millis(100));
        attempt = match method {
            Method::Houdini => match houdini(config, view, clauses, share) {
                Ok(defs) => {
                    match horn::recheck(config, clauses, &defs, share, &is_view_predicate, None) {
                        Ok(()) => Attempt::Proved {
                            tuples: view.tuples.len(),
                            by: Method::Houdini,
                        },
                        Err(a) => attempt_of(a),
                    }
                }
                Err(a) => a,
            },
            Method::Spacer => spacer(config, view, clauses, share),
        };
        if !matches!(attempt, Attempt::Unknown(_) | Attempt::OutOfTime(_)) {
            break;
        }
    }
    attempt
}

/// The share of the time of one attempt that a method other than the last may take.
const HOUDINI_SHARE: f64 = 0.5;

/// Houdini ([`horn::solve`]) over [`View::candidates`].
fn houdini(
    config: &Config,
    view: &View,
    clauses: &[Clause],
    limit: Duration,
) -> Result<horn::Definitions, Attempt> {
    let started = Instant::now();
    let preds = view
        .candidates()
        .map_err(|why| Attempt::Unknown(format!("Houdini: {why}")))?;
    // The fast solver when it is installed (many small quantifier-free queries), else z3.
    let session = |kind: SolverKind| {
        let mut sc = cegar::session_config(config, kind, false);
        sc.query_timeout = sc.query_timeout.min(limit);
        Session::new(sc)
    };
    let mut session = match config.hoare_solver.map(session) {
        Some(Ok(s)) => s,
        _ => session(SolverKind::Z3).map_err(|e| Attempt::Unknown(format!("solver: {e}")))?,
    };
    let budget = horn::Budget {
        deadline: Instant::now() + limit,
        max_queries: 200 * clauses.len().max(1),
    };
    let (defs, report) = horn::solve(clauses, &preds, &mut session, &budget);
    if cegar::debug() {
        eprintln!(
            "thread-modular Houdini: {} queries in {:.2} s, {} of {} candidates kept{}",
            report.queries,
            started.elapsed().as_secs_f64(),
            report.kept,
            report.candidates,
            report
                .failure
                .as_deref()
                .map(|f| format!(", {f}"))
                .unwrap_or_default()
        );
    }
    if cegar::debug()
        && let Some(q) = report.failed_query
    {
        eprintln!("  query {q}: {}", clauses[q].implication());
        for b in &clauses[q].body {
            if let Some((Op::Uf(f), _)) = b.as_app()
                && let Some((_, d)) = report.last.get(f)
            {
                eprintln!("  {} = {d}", f.name);
            }
        }
    }
    defs.ok_or_else(|| {
        let why = format!("Houdini: {}", report.failure.unwrap_or_default());
        if report.exhausted {
            Attempt::OutOfTime(why)
        } else {
            Attempt::Unknown(why)
        }
    })
}

/// Solves the clauses with z3's Horn engine and re-checks a solution ([`horn::spacer`]).
fn spacer(config: &Config, view: &View, clauses: &[Clause], limit: Duration) -> Attempt {
    match horn::spacer(config, clauses, limit, &is_view_predicate, None) {
        horn::SpacerAnswer::Solved(_) => Attempt::Proved {
            tuples: view.tuples.len(),
            by: Method::Spacer,
        },
        other => attempt_of(other),
    }
}

/// The attempt's answer for a Horn solver's answer other than a solution.
fn attempt_of(a: horn::SpacerAnswer) -> Attempt {
    match a {
        horn::SpacerAnswer::Solved(_) => Attempt::Unknown("a solution".into()),
        horn::SpacerAnswer::NoSolution => Attempt::NoProof,
        horn::SpacerAnswer::OutOfTime(why) => Attempt::OutOfTime(why),
        horn::SpacerAnswer::Unknown(why) => Attempt::Unknown(why),
    }
}

/// The view's predicates (`tm!P…`).
fn is_view_predicate(f: &FuncDecl) -> bool {
    f.name.starts_with("tm!P")
}
