//! Recursion for the ranking prover: the *descent program* of a recursive program, whose
//! termination implies the program's (Cook, Podelski & Rybalchenko, "Summarization for
//! termination: no return!", FMSD 2009 — here with the coarsest summary, any result).
//!
//! # What it computes
//!
//! From the CFA that keeps the calls of recursive procedures as call/return edges
//! ([`cfa::build_nested`]), a plain CFA in which every such call `x := f(args)` at location `l`
//! (continuing at `l'`) becomes two edges:
//! - *descend* `l → entry(f)`: the call edge itself (parameters := arguments, the callee's locals
//!   and returns havocked, `assume requires`) — the run follows the call and never comes back;
//! - *return* `l → l'`: the call returned, with some result: the results `x` and the globals in
//!   `f`'s `modifies` (transitive, enforced by the type checker) are havocked, every other variable
//!   (the caller's frame) is kept.
//!
//! The callee's exit has no outgoing edge: a run that returns from a descent ends.
//!
//! # Why termination of the descent program is termination of the program
//!
//! Take an infinite execution of the program and let `d` be the least call depth it is at
//! infinitely often; after some point it never returns below `d`, so one frame `F` at depth `d`
//! stays on the stack forever. Follow `F` in the descent program: each call `F` makes that returns
//! is a *return* edge (the results and the modified globals take the values the call produced;
//! the frame is unchanged), each step of `F` is the same step. Either `F` runs forever — an infinite
//! run of the descent program — or `F` makes a call that never returns: *descend* into it, and the
//! callee's frame is again a frame that stays forever; repeating gives an infinite run (infinitely
//! many descents, or a frame that runs forever). So a proof that every run of the descent program
//! is finite (a ranking certificate, checked like any other) proves the program terminating.
//!
//! The converse fails: a *return* edge allows results the callee never produces. So the return
//! edges are marked as over-approximations (`CfaEdge::overapprox`), which the nontermination
//! techniques never rest an argument on; a lasso of the other edges — steps and descents — is an
//! execution of the program (an infinite one: an infinite chain of calls, none of which returns,
//! or a frame that runs forever), so a fixpoint or geometric argument for it is one for the
//! program.

use crate::engine::cfa::{Cfa, EdgeKind};
use crate::engine::transition::{PVar, TransFormula, Vocabulary};

/// The descent program of a CFA built by [`crate::engine::cfa::build_nested`] (module comment).
pub fn descent(voc: &Vocabulary, mut cfa: Cfa) -> Cfa {
    for i in 0..cfa.edges.len() {
        match cfa.edges[i].kind {
            EdgeKind::Call => {
                let e = &mut cfa.edges[i];
                e.kind = EdgeKind::Plain;
                e.text = format!("descend: {}", e.text);
            }
            EdgeKind::Return { call } => {
                let (at, entry) = (cfa.edges[call].src, cfa.edges[call].tgt);
                let modifies = cfa.locs[entry]
                    .proc
                    .map_or(&[][..], |p| &voc.program.proc(p).modifies[..]);
                let mut havocked = cfa.edges[i].tf.writes.clone();
                havocked.extend(
                    modifies
                        .iter()
                        .map(|g| PVar::Var { id: *g, inst: 0 })
                        .filter(|x| voc.sort(*x).is_ok()),
                );
                let e = &mut cfa.edges[i];
                e.src = at;
                e.tf = TransFormula::havoc(havocked);
                e.kind = EdgeKind::Plain;
                e.text = format!("{} (any result)", e.text);
                e.overapprox = Some("the result of a call of a recursive procedure".into());
            }
            _ => {}
        }
    }
    cfa.nested = false;
    cfa
}
