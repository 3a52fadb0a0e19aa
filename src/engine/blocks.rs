//! Block encoding: the alphabet of the program automaton.
//!
//! Starting from one letter per CFA edge, locations are removed by composing their incoming and outgoing
//! letters (design notes §7: Ultimate's SequenceOfStatements and BlockEncodingV2's large-block
//! encoding):
//! - `none`: no composition;
//! - `seq`: a location with exactly one incoming and one outgoing letter is removed (straight-line code
//!   becomes one letter);
//! - `large`: additionally, parallel letters between the same two locations are merged into one
//!   (disjunction), and a location is removed whenever that does not increase the number of letters
//!   (|in| + |out| ≥ |in|·|out|).
//!
//! Never removed: the initial location, error locations, and a set of cut points that breaks every cycle
//! (targets of DFS back edges), so every loop keeps a head. Letters whose formula simplifies to `false`
//! are dropped, and so are locations that cannot reach an error location (they cannot contribute an
//! error trace). Invariant: the language of error traces is preserved up to the composition of letters —
//! every path of the result corresponds to a set of CFA paths with the same composed semantics, recorded
//! in `Letter::edges` for counterexample reconstruction.
//!
//! For termination ([`encode_all`]) of a sequential program, a letter also *forgets* the values it
//! writes to variables dead at its target (no path from there reads them before writing them):
//! they become auxiliary variables, existentially quantified and eliminated where an equality
//! defines them ([`forget_dead`]). Inlined calls leave many such variables behind (the callee's
//! locals, results, temporaries), and without this every letter after them would carry them on.
//! Invariant: the runs of the result are those of the CFA up to the values of dead variables — a
//! run of the result extends to one of the CFA by the forgotten values, and nothing later reads
//! them — so the infinite runs, and every ranking function or nontermination argument over the
//! live variables, are the same.

use super::BlockEncoding;
use super::cfa::{Cfa, EdgeId, EdgeKind, LocId};
use super::transition::{
    PVar, TransFormula, Unsupported, Vocabulary, forget_dead, par, seq, seq_forgetting,
};
use crate::smt::{Op, Term};
use std::collections::{BTreeMap, BTreeSet};

pub type LetterId = usize;

#[derive(Clone, Debug)]
pub struct Letter {
    pub src: LocId,
    pub tgt: LocId,
    pub tf: TransFormula,
    /// The CFA edges this letter is composed of.
    pub edges: BTreeSet<EdgeId>,
    /// What the letter does besides its formula: [`EdgeKind::Plain`] for every composed letter.
    pub kind: EdgeKind,
}

/// The program automaton after block encoding: locations are CFA locations (those kept), letters are
/// composed transition formulas.
#[derive(Clone, Debug)]
pub struct Encoded {
    pub letters: Vec<Letter>,
    /// Outgoing letters per CFA location (empty for removed locations).
    pub out: Vec<Vec<LetterId>>,
    pub init: LocId,
    /// Locations kept by the encoding.
    pub kept: BTreeSet<LocId>,
}

/// Error locations the encoded automaton can still reach.
pub fn reachable_errors(cfa: &Cfa, enc: &Encoded) -> BTreeSet<LocId> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![enc.init];
    let mut errors = BTreeSet::new();
    while let Some(l) = stack.pop() {
        if !seen.insert(l) {
            continue;
        }
        if cfa.error_of(l).is_some() {
            errors.insert(l);
        }
        for &a in &enc.out[l] {
            stack.push(enc.letters[a].tgt);
        }
    }
    errors
}

struct Graph {
    letters: BTreeMap<LetterId, Letter>,
    next: LetterId,
    ins: Vec<BTreeSet<LetterId>>,
    outs: Vec<BTreeSet<LetterId>>,
}

impl Graph {
    fn add(&mut self, l: Letter) {
        if l.tf.is_infeasible() {
            return;
        }
        let id = self.next;
        self.next += 1;
        self.ins[l.tgt].insert(id);
        self.outs[l.src].insert(id);
        self.letters.insert(id, l);
    }
    fn remove(&mut self, id: LetterId) -> Option<Letter> {
        let l = self.letters.remove(&id)?;
        self.ins[l.tgt].remove(&id);
        self.outs[l.src].remove(&id);
        Some(l)
    }
}

/// Encodes `cfa` with the given block encoding.
pub fn encode(cfa: &Cfa, voc: &Vocabulary, mode: BlockEncoding) -> Result<Encoded, Unsupported> {
    encode_with(cfa, voc, mode, true)
}

/// As [`encode`], for properties of every run rather than of error traces (termination): locations
/// are kept whether or not they can reach an error location (only unreachable ones are pruned), so
/// every run of the CFA is a run of the result up to the composition of letters.
pub fn encode_all(
    cfa: &Cfa,
    voc: &Vocabulary,
    mode: BlockEncoding,
) -> Result<Encoded, Unsupported> {
    encode_with(cfa, voc, mode, false)
}

fn encode_with(
    cfa: &Cfa,
    voc: &Vocabulary,
    mode: BlockEncoding,
    to_errors: bool,
) -> Result<Encoded, Unsupported> {
    let n = cfa.locs.len();
    let mut g = Graph {
        letters: BTreeMap::new(),
        next: 0,
        ins: vec![BTreeSet::new(); n],
        outs: vec![BTreeSet::new(); n],
    };
    // Termination: a letter forgets what it writes to variables dead at its target (module comment).
    let live = (!to_errors).then(|| live_variables(cfa, voc)).flatten();
    let forget = |tgt: LocId, tf: TransFormula| match &live {
        Some(live) => forget_dead(voc, tf, &live[tgt]),
        None => tf,
    };
    for (i, e) in cfa.edges.iter().enumerate() {
        let tf = forget(e.tgt, super::transition::eliminate_aux(e.tf.clone()));
        g.add(Letter {
            src: e.src,
            tgt: e.tgt,
            tf,
            edges: BTreeSet::from([i]),
            kind: e.kind,
        });
    }
    let concurrent = cfa.is_concurrent();
    if concurrent && mode != BlockEncoding::None {
        compose_atomic_blocks(cfa, voc, &mut g)?;
    }
    if !concurrent {
        // (In a concurrent program, a location that cannot reach an error in its own thread may
        // still write what another thread reads.)
        prune(cfa, &mut g, to_errors);
    }
    if mode != BlockEncoding::None {
        let mut protected = cut_points(cfa, &g);
        for t in &cfa.threads {
            protected.insert(t.entry);
            protected.insert(t.exit);
        }
        let mut changed = true;
        while changed {
            changed = false;
            if mode == BlockEncoding::Large {
                changed |= merge_parallel(voc, &mut g, &forget)?;
            }
            for q in 0..n {
                if protected.contains(&q) || cfa.error_of(q).is_some() {
                    continue;
                }
                let (ins, outs) = (&g.ins[q], &g.outs[q]);
                if ins.is_empty() || outs.is_empty() {
                    continue;
                }
                if ins.iter().any(|a| outs.contains(a)) {
                    continue; // self-loop
                }
                if ins
                    .iter()
                    .chain(outs)
                    .any(|a| g.letters[a].kind != EdgeKind::Plain)
                {
                    continue; // forks, joins and atomic brackets stay letters of their own
                }
                if concurrent
                    && !ins.iter().all(|a| {
                        outs.iter()
                            .all(|b| movers_compose(voc, &g.letters[a], &g.letters[b]))
                    })
                {
                    continue;
                }
                let (ni, no) = (ins.len(), outs.len());
                let allowed = match mode {
                    BlockEncoding::Seq => ni == 1 && no == 1,
                    _ => ni + no >= ni * no,
                };
                if !allowed {
                    continue;
                }
                let ins: Vec<LetterId> = ins.iter().copied().collect();
                let outs: Vec<LetterId> = outs.iter().copied().collect();
                let ins: Vec<Letter> = ins.into_iter().filter_map(|a| g.remove(a)).collect();
                let outs: Vec<Letter> = outs.into_iter().filter_map(|a| g.remove(a)).collect();
                for a in &ins {
                    for b in &outs {
                        let tf = match &live {
                            Some(live) => seq_forgetting(voc, &a.tf, &b.tf, &live[b.tgt])?,
                            None => seq(voc, &a.tf, &b.tf)?,
                        };
                        g.add(Letter {
                            src: a.src,
                            tgt: b.tgt,
                            tf,
                            edges: a.edges.union(&b.edges).copied().collect(),
                            kind: EdgeKind::Plain,
                        });
                    }
                }
                changed = true;
            }
        }
        if !concurrent {
            prune(cfa, &mut g, to_errors);
        }
    }
    // Renumber letters densely in a deterministic order.
    let mut letters = Vec::new();
    let mut out = vec![Vec::new(); n];
    let mut kept = BTreeSet::new();
    kept.insert(cfa.init);
    for (_, l) in std::mem::take(&mut g.letters) {
        out[l.src].push(letters.len());
        kept.insert(l.src);
        kept.insert(l.tgt);
        letters.push(l);
    }
    Ok(Encoded {
        letters,
        out,
        init: cfa.init,
        kept,
    })
}

/// Most paths of one `atomic { … }` block of a concurrent program that [`compose_atomic_blocks`]
/// composes; a block with more stays as it is.
const MAX_ATOMIC_PATHS: usize = 64;

/// Makes each loop-free `atomic { … }` block of a concurrent program one letter per path: from the
/// opening bracket's source through the block's plain letters to the closing bracket's target, or
/// to an error location inside the block (Ultimate: "only consider context switches at boundaries
/// of atomic blocks"). The opening letter is replaced by these letters (the block's inner letters
/// stay, unreachable unless another path enters them). A block with a loop, a nested block, a
/// fork, join or call, or more than [`MAX_ATOMIC_PATHS`] paths stays as it is.
///
/// Why the error configurations stay the same: a block runs without interleaving, so a run that
/// completes it is the run with its letters composed; a run that reaches an error inside the block
/// is the composed path to that error; and a path that blocks inside the block (an `assume` that
/// fails) stops every thread in the original (the block is never left), while in the composed
/// program it is a letter that is not enabled — the other threads' runs that remain are those of
/// the original in which this thread never opened the block.
fn compose_atomic_blocks(cfa: &Cfa, voc: &Vocabulary, g: &mut Graph) -> Result<(), Unsupported> {
    let begins: Vec<LetterId> = g
        .letters
        .iter()
        .filter(|(_, l)| l.kind == EdgeKind::AtomicBegin)
        .map(|(id, _)| *id)
        .collect();
    'blocks: for b in begins {
        let Some(begin) = g.letters.get(&b).cloned() else {
            continue;
        };
        let mut done: Vec<Letter> = Vec::new();
        // Paths in progress: the letter composed so far and the locations it visited.
        let mut stack: Vec<(Letter, Vec<LocId>)> =
            vec![(begin.clone(), vec![begin.src, begin.tgt])];
        while let Some((acc, visited)) = stack.pop() {
            if cfa.error_of(acc.tgt).is_some() {
                done.push(acc);
                continue;
            }
            for id in &g.outs[acc.tgt] {
                let l = &g.letters[id];
                let ends = match l.kind {
                    EdgeKind::Plain if !visited.contains(&l.tgt) => false,
                    EdgeKind::AtomicEnd => true,
                    _ => continue 'blocks,
                };
                let next = Letter {
                    src: acc.src,
                    tgt: l.tgt,
                    tf: seq(voc, &acc.tf, &l.tf)?,
                    edges: acc.edges.union(&l.edges).copied().collect(),
                    kind: EdgeKind::Plain,
                };
                if ends {
                    done.push(next);
                } else {
                    let mut v = visited.clone();
                    v.push(l.tgt);
                    stack.push((next, v));
                }
                if done.len() + stack.len() > MAX_ATOMIC_PATHS {
                    continue 'blocks;
                }
            }
        }
        g.remove(b);
        for l in done {
            g.add(l); // (drops infeasible paths)
        }
    }
    Ok(())
}

/// Merges letters with the same source and target.
fn merge_parallel(
    voc: &Vocabulary,
    g: &mut Graph,
    forget: &dyn Fn(LocId, TransFormula) -> TransFormula,
) -> Result<bool, Unsupported> {
    let mut groups: BTreeMap<(LocId, LocId), Vec<LetterId>> = BTreeMap::new();
    for (&id, l) in g.letters.iter().filter(|(_, l)| l.kind == EdgeKind::Plain) {
        groups.entry((l.src, l.tgt)).or_default().push(id);
    }
    let mut changed = false;
    for (_, ids) in groups {
        if ids.len() < 2 {
            continue;
        }
        let ls: Vec<Letter> = ids.into_iter().filter_map(|a| g.remove(a)).collect();
        let mut acc = ls[0].clone();
        for l in &ls[1..] {
            acc.tf = par(voc, &acc.tf, &l.tf)?;
            acc.edges.extend(l.edges.iter().copied());
        }
        acc.tf = forget(acc.tgt, acc.tf);
        g.add(acc);
        changed = true;
    }
    Ok(changed)
}

/// Does only thread-local data (no global variable) occur in the letter? Such a letter commutes with
/// every letter of another thread.
fn is_local(voc: &Vocabulary, l: &Letter) -> bool {
    l.tf.reads.iter().chain(&l.tf.writes).all(|x| match x {
        super::transition::PVar::Var { id, .. } => {
            voc.program.var(*id).kind != crate::ir::VarKind::Global
        }
        _ => true,
    })
}

/// May `a` then `b` of one thread become one letter of a concurrent program (Lipton's reduction)?
/// Yes if `a` is thread-local (a right mover: any interleaving `a x… b` is equivalent to `x… a b`,
/// and a run that stops after `a` loses nothing without it), or if `b` is thread-local and total (a
/// non-blocking left mover: `a x… b` is equivalent to `a b x…`, and a run that stops before `b`
/// can take `b` first without disabling anything).
fn movers_compose(voc: &Vocabulary, a: &Letter, b: &Letter) -> bool {
    is_local(voc, a) || (is_local(voc, b) && super::hoare::is_total(voc, b))
}

/// The program variables live at each location of a sequential CFA: those some path from the
/// location reads (in an edge's formula or read set) before writing them. Nothing is live at the
/// exit: a run ends there. `None` for programs with threads or call/return edges, whose variables
/// other threads read or returns restore outside the formulas.
fn live_variables(cfa: &Cfa, voc: &Vocabulary) -> Option<Vec<BTreeSet<PVar>>> {
    if cfa.is_concurrent() || cfa.nested || cfa.edges.iter().any(|e| e.kind != EdgeKind::Plain) {
        return None;
    }
    let reads: Vec<BTreeSet<PVar>> = cfa
        .edges
        .iter()
        .map(|e| {
            let mut r = e.tf.reads.clone();
            for v in e.tf.formula.free_vars_ref() {
                if let Some((x, false)) = voc.lookup(v) {
                    r.insert(x);
                }
            }
            r
        })
        .collect();
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); cfa.locs.len()];
    for (i, e) in cfa.edges.iter().enumerate() {
        into[e.tgt].push(i);
    }
    let mut live = vec![BTreeSet::new(); cfa.locs.len()];
    let mut work: Vec<LocId> = (0..cfa.locs.len()).collect();
    let mut queued = vec![true; cfa.locs.len()];
    while let Some(q) = work.pop() {
        queued[q] = false;
        for &i in &into[q] {
            let e = &cfa.edges[i];
            let mut add: Vec<PVar> = reads[i]
                .iter()
                .filter(|x| !live[e.src].contains(*x))
                .copied()
                .collect();
            add.extend(
                live[q]
                    .iter()
                    .filter(|x| !e.tf.writes.contains(*x) && !live[e.src].contains(*x))
                    .copied(),
            );
            if !add.is_empty() {
                live[e.src].extend(add);
                if !std::mem::replace(&mut queued[e.src], true) {
                    work.push(e.src);
                }
            }
        }
    }
    Some(live)
}

/// Removes letters from or to locations that are unreachable from the initial location or (if
/// `to_errors`) cannot reach an error location.
fn prune(cfa: &Cfa, g: &mut Graph, to_errors: bool) {
    let n = cfa.locs.len();
    let mut fwd = vec![false; n];
    let mut stack = vec![cfa.init];
    while let Some(l) = stack.pop() {
        if std::mem::replace(&mut fwd[l], true) {
            continue;
        }
        for a in &g.outs[l] {
            stack.push(g.letters[a].tgt);
        }
    }
    let mut bwd = vec![!to_errors; n];
    let mut stack: Vec<LocId> = (0..n)
        .filter(|&l| to_errors && cfa.error_of(l).is_some())
        .collect();
    while let Some(l) = stack.pop() {
        if std::mem::replace(&mut bwd[l], true) {
            continue;
        }
        for a in &g.ins[l] {
            stack.push(g.letters[a].src);
        }
    }
    let dead: Vec<LetterId> = g
        .letters
        .iter()
        .filter(|(_, l)| !(fwd[l.src] && bwd[l.tgt] && fwd[l.tgt] && bwd[l.src]))
        .map(|(&id, _)| id)
        .collect();
    for id in dead {
        g.remove(id);
    }
}

/// Targets of back edges of a DFS from the initial location (every cycle contains one), plus the
/// initial location.
fn cut_points(cfa: &Cfa, g: &Graph) -> BTreeSet<LocId> {
    let n = cfa.locs.len();
    let mut cut = BTreeSet::from([cfa.init]);
    // 0 = unvisited, 1 = on stack, 2 = done
    let mut state = vec![0u8; n];
    // Iterative DFS with explicit successor iterators, from the start of every thread.
    let mut stack: Vec<(LocId, Vec<LocId>)> = Vec::new();
    let succ = |l: LocId| -> Vec<LocId> { g.outs[l].iter().map(|a| g.letters[a].tgt).collect() };
    let mut roots: Vec<LocId> = vec![cfa.init];
    roots.extend(cfa.threads.iter().skip(1).map(|t| t.entry));
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, succ(root)));
        while let Some((_, todo)) = stack.last_mut() {
            if let Some(t) = todo.pop() {
                match state[t] {
                    0 => {
                        state[t] = 1;
                        let s = succ(t);
                        stack.push((t, s));
                    }
                    1 => {
                        cut.insert(t);
                    }
                    _ => {}
                }
            } else if let Some((l, _)) = stack.pop() {
                state[l] = 2;
            }
        }
    }
    // Loop heads marked by the front end stay too (they carry invariants in proofs).
    for (l, loc) in cfa.locs.iter().enumerate() {
        if loc.kind == crate::ir::LocKind::LoopHead && state[l] != 0 {
            cut.insert(l);
        }
    }
    cut
}

/// Splits every letter whose formula is a disjunction of at most `max` disjuncts into one letter
/// per disjunct, with the same locations, edges and frame (Ultimate's small block encoding after
/// `RewriteNotEquals`; design notes §7.2): `x != y` over numbers becomes `x < y` and `x > y`. The
/// disjuncts are exact — their union is the letter's relation — so every run of the automaton is a
/// run of the result and conversely; what changes is that a lasso of the result follows one
/// disjunct, whose ranking function or supporting invariant may not fit the others (`assume i !=
/// 0` before `x := x - i; y := y + i`). Only the letters `which` accepts are split, and none that
/// would split into more than `max`.
pub fn split_disjunctions(enc: &mut Encoded, max: usize, which: impl Fn(LetterId) -> bool) {
    for a in 0..enc.letters.len() {
        if !which(a) {
            continue;
        }
        let parts = disjuncts_of(&enc.letters[a].tf.formula, max);
        let Some((first, rest)) = parts.split_first() else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        let src = enc.letters[a].src;
        for d in rest {
            let mut letter = enc.letters[a].clone();
            letter.tf.formula = d.clone();
            enc.out[src].push(enc.letters.len());
            enc.letters.push(letter);
        }
        enc.letters[a].tf.formula = first.clone();
    }
}

/// `t` as a disjunction of at most `max` conjunctions (its top-level conjuncts distributed over
/// their disjunctions; `¬(a = b)` over numbers is `a < b ∨ a > b`), exactly; empty when it would
/// take more than `max`.
fn disjuncts_of(t: &Term, max: usize) -> Vec<Term> {
    let mut out: Vec<Vec<Term>> = vec![Vec::new()];
    for c in t.conjuncts() {
        let ds = disjuncts(&c, true);
        if ds.len() > max || out.len() * ds.len() > max {
            return Vec::new();
        }
        out = out
            .iter()
            .flat_map(|conj| {
                ds.iter().map(move |d| {
                    let mut conj = conj.clone();
                    conj.push(d.clone());
                    conj
                })
            })
            .collect();
    }
    out.into_iter().map(Term::and).collect()
}

/// The disjuncts of `t` (of `¬t` when `!pos`): `t` is equivalent to their disjunction.
fn disjuncts(t: &Term, pos: bool) -> Vec<Term> {
    match (t.as_app(), pos) {
        (Some((Op::Or, args)), true) | (Some((Op::And, args)), false) => {
            args.iter().flat_map(|a| disjuncts(a, pos)).collect()
        }
        (Some((Op::Not, [a])), _) => disjuncts(a, !pos),
        (Some((Op::Implies, [a, b])), true) => {
            let mut out = disjuncts(a, false);
            out.extend(disjuncts(b, true));
            out
        }
        (Some((Op::Eq, [a, b])), false) if a.sort_ref().is_numeric() => {
            vec![Term::lt(a, b), Term::gt(a, b)]
        }
        _ if pos => vec![t.clone()],
        _ => vec![Term::not(t)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cfa;

    use crate::ir::test_program as program;

    const CALLS: &str = "
        procedure nondet() returns (r: int) { var a: int; havoc a; r := a; }
        procedure ULTIMATE.start() {
          var x, y: int;
          call x := nondet(); call y := nondet();
          while (x > 0) { x := x - y; }
        }";

    /// The names of the program variables written by some letter.
    fn written(voc: &Vocabulary, enc: &Encoded) -> BTreeSet<String> {
        enc.letters
            .iter()
            .flat_map(|l| l.tf.writes.iter().map(|&x| voc.display_name(x)))
            .collect()
    }

    #[test]
    fn disjunctions_split_exactly_and_within_the_limit() {
        use crate::smt::{Sort, Var};
        let i = Term::var(&Var::new("i", Sort::Int));
        let x = Term::var(&Var::new("x", Sort::Int));
        let zero = Term::int(0);
        let b = Term::var(&Var::new("b", Sort::Bool));
        // ¬(i = 0) ∧ (b ∨ x ≥ 0) ∧ ¬(b ∧ x ≥ 5): 2 · 2 · 2 conjunctions
        let f = Term::and(vec![
            Term::not(&Term::eq(&i, &zero)),
            Term::or(vec![b.clone(), Term::ge(&x, &zero)]),
            Term::not(&Term::and(vec![b.clone(), Term::ge(&x, &Term::int(5))])),
        ]);
        let parts = disjuncts_of(&f, 8);
        assert_eq!(parts.len(), 8, "{parts:?}");
        let text: Vec<String> = parts.iter().map(|t| t.to_string()).collect();
        assert!(text.iter().any(|t| t.contains("(< i 0)")), "{text:?}");
        assert!(text.iter().any(|t| t.contains("(> i 0)")), "{text:?}");
        assert!(text.iter().any(|t| t.contains("(not b)")), "{text:?}");
        // every part implies the letter syntactically: it keeps each conjunct's chosen disjunct
        assert!(parts.iter().all(|p| p.conjuncts().len() == 3), "{text:?}");
        // beyond the limit the letter stays whole
        assert!(disjuncts_of(&f, 4).is_empty());
        // ¬(b ∧ x = 0) has three disjuncts: ¬b, x < 0, x > 0
        let g = Term::not(&Term::and(vec![b.clone(), Term::eq(&x, &zero)]));
        assert_eq!(disjuncts_of(&g, 8).len(), 3);
        // a conjunction without disjunctions is its own single part
        assert_eq!(disjuncts_of(&Term::ge(&x, &zero), 8).len(), 1);
    }

    #[test]
    fn a_disequality_becomes_two_letters() {
        let p = program(
            "procedure ULTIMATE.start() {
               var i, x: int;
               assume i != 0;
               while (x > 0) { x := x - i; }
             }",
        );
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let mut enc = encode_all(&c, &voc, BlockEncoding::Seq).expect("encoding");
        let before = enc.letters.len();
        split_disjunctions(&mut enc, 8, |_| true);
        assert_eq!(enc.letters.len(), before + 1);
        let new = &enc.letters[before];
        assert!(enc.out[new.src].contains(&before));
        let old = enc
            .letters
            .iter()
            .position(|l| l.src == new.src && l.tgt == new.tgt && l.edges == new.edges)
            .expect("the original letter");
        let texts = [
            enc.letters[old].tf.formula.to_string(),
            new.tf.formula.to_string(),
        ];
        assert!(texts.iter().any(|t| t.contains('<')), "{texts:?}");
        assert!(texts.iter().any(|t| t.contains('>')), "{texts:?}");
        assert!(texts.iter().all(|t| !t.contains("not")), "{texts:?}");
    }

    #[test]
    fn termination_letters_forget_dead_variables() {
        let p = program(CALLS);
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let all = encode_all(&c, &voc, BlockEncoding::Large).expect("encoding");
        let w = written(&voc, &all);
        // the callee's locals and result are dead once the call returns; x and y are not
        assert!(w.contains("x") && w.contains("y"), "{w:?}");
        assert!(
            !w.iter().any(|n| n.starts_with('a') || n.starts_with('r')),
            "{w:?}"
        );
        // and no letter mentions them any more
        for l in &all.letters {
            for v in l.tf.formula.free_vars() {
                if let Some((x, _)) = voc.lookup(&v) {
                    let n = voc.display_name(x);
                    assert!(n == "x" || n == "y", "{} mentions {n}", l.tf.formula);
                }
            }
        }
        // The encoding for safety keeps every write.
        let safety = encode(&c, &voc, BlockEncoding::Large).expect("encoding");
        assert!(safety.letters.is_empty() || written(&voc, &safety).len() >= w.len());
    }

    #[test]
    fn a_letter_composed_with_itself_has_auxiliaries_of_its_own() {
        // The loop's letter picks an index with `m[i] == 0` (i dead afterwards: auxiliary);
        // two iterations may pick two indices.
        let p = program(
            "var m: [int]int;
             procedure pick() returns (i: int) modifies m; { havoc i; assume m[i] == 0; m[i] := 1; }
             procedure ULTIMATE.start() modifies m; { var j: int; while (true) { call j := pick(); } }",
        );
        let voc = Vocabulary::new(&p);
        let c = cfa::build(&voc, 10_000).expect("cfa");
        let all = encode_all(&c, &voc, BlockEncoding::Large).expect("encoding");
        let lp = all
            .letters
            .iter()
            .find(|l| l.src == l.tgt)
            .expect("a self-loop letter");
        assert!(!lp.tf.aux.is_empty(), "{}", lp.tf.formula);
        let twice = crate::engine::transition::seq(&voc, &lp.tf, &lp.tf).expect("seq");
        assert!(!twice.is_infeasible(), "{}", twice.formula);
        assert_eq!(twice.aux.len(), 2 * lp.tf.aux.len(), "{}", twice.formula);
    }
}
