//! The program model (`engine::model`): reachable configurations of small concurrent and recursive
//! programs, enumerated with the automata explorer and compared with counts derived by hand.

use lapidary::automata::{Automaton, Budget, explore};
use lapidary::engine::model::{
    Action, ActionKind, Configuration, ModelConfig, ProgramModel, ThreadId,
};
use lapidary::ir::{self, LocKind};
use lapidary::syntax::parse;
use std::collections::{BTreeSet, VecDeque};

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse: {diags:?}"));
    let (prog, diags) = ir::check(&ast);
    prog.unwrap_or_else(|| panic!("check: {diags:?}"))
}

fn entry(p: &ir::Program) -> ir::ProcId {
    match &p.entry {
        ir::Entry::Procedure(e) => *e,
        ir::Entry::Library(ps) => ps[0],
    }
}

/// Reachable configurations and transitions, by BFS over `successors`.
fn reach(
    m: &ProgramModel,
) -> (
    BTreeSet<Configuration>,
    Vec<(Configuration, Action, Configuration)>,
) {
    let mut seen: BTreeSet<Configuration> = m.initial_states().into_iter().collect();
    let mut queue: VecDeque<Configuration> = seen.iter().cloned().collect();
    let mut edges = Vec::new();
    while let Some(c) = queue.pop_front() {
        for (a, d) in m.successors(&c) {
            edges.push((c.clone(), a, d.clone()));
            if seen.insert(d.clone()) {
                queue.push_back(d);
            }
        }
    }
    (seen, edges)
}

const FORK_JOIN: &str = "
var x, y: int;
procedure ULTIMATE.start()
modifies x, y;
{
  var t: int;
  fork t worker();
  x := 1;
  join t;
}
procedure worker()
modifies y;
{
  y := 1;
}
";

#[test]
fn two_threads_fork_join_configurations() {
    let p = program(FORK_JOIN);
    let m = ProgramModel::new(&p, entry(&p), ModelConfig::default()).expect("model");
    // By hand: main has locations E -fork-> A -x:=1-> B -join-> X, the worker E' -y:=1-> X'.
    //   (E, no worker)                          1
    //   (A, worker at E' or X')                 2
    //   (B, worker at E' or X')                 2
    //   (X, worker joined: only from (B, X'))   1
    // = 6 configurations.
    let (states, edges) = reach(&m);
    assert_eq!(states.len(), 6);
    // Transitions: E→A (fork); (A,E')→(B,E') and →(A,X'); (A,X')→(B,X'); (B,E')→(B,X');
    // (B,X')→(X) (join). = 6.
    assert_eq!(edges.len(), 6);
    assert_eq!(
        edges
            .iter()
            .filter(|(_, a, _)| matches!(a.kind, ActionKind::Fork(_)))
            .count(),
        1
    );
    assert_eq!(
        edges
            .iter()
            .filter(|(_, a, _)| matches!(a.kind, ActionKind::Join(_)))
            .count(),
        1
    );
    // The one explorer agrees with the BFS.
    let nfa = explore(&m, &Budget::unlimited()).expect("infallible");
    assert_eq!(nfa.num_states(), 6);
    // No configuration is accepting (no assertion).
    assert!(states.iter().all(|c| !m.is_accepting(c)));
}

const FORK_LOOP: &str = "
procedure ULTIMATE.start()
{
  var t: int;
  while (*) {
    fork t worker();
  }
}
procedure worker()
{
  var y: int;
  y := 1;
}
";

#[test]
fn forking_in_a_loop_needs_more_instances() {
    let p = program(FORK_LOOP);
    // Main: E -> H (loop head), H -> S (into the body), H -> X (out), S -fork-> H.
    // One instance:
    //   (E, -) 1;  (H|S|X, -) 3;  (H|S|X, w1 at E'|X') 6;
    //   fork at S while w1 is in use: the insufficient configuration, with w1 at E'|X'  2
    //   = 12.
    let one = ProgramModel::new(
        &p,
        entry(&p),
        ModelConfig {
            instances: 1,
            max_call_depth: 4,
        },
    )
    .expect("model");
    let (states, _) = reach(&one);
    assert_eq!(states.len(), 12);
    let insufficient: Vec<_> = states.iter().filter(|c| c.insufficient).collect();
    assert_eq!(insufficient.len(), 2);
    assert!(insufficient.iter().all(|c| one.is_accepting(c)));
    assert!(insufficient.iter().all(|c| one.successors(c).is_empty()));
    // Two instances: (E,-,-) 1; (H|S|X,-,-) 3; main H|S|X with (w1, w2) ∈ {-,E',X'}² minus (-,-):
    // 3 · 8 = 24; insufficient at S with both in use, each at E'|X': 4. = 32.
    let two = ProgramModel::new(
        &p,
        entry(&p),
        ModelConfig {
            instances: 2,
            max_call_depth: 4,
        },
    )
    .expect("model");
    let (states, _) = reach(&two);
    assert_eq!(states.len(), 32);
    assert_eq!(states.iter().filter(|c| c.insufficient).count(), 4);
}

const ATOMIC: &str = "
var x: int;
procedure ULTIMATE.start()
modifies x;
{
  var t: int;
  fork t w();
  atomic { x := 1; x := 2; }
  join t;
}
procedure w()
modifies x;
{
  x := 3;
}
";

#[test]
fn atomic_blocks_exclude_interleavings() {
    let p = program(ATOMIC);
    let m = ProgramModel::new(&p, entry(&p), ModelConfig::default()).expect("model");
    // Main: E -fork-> A -begin-> B -x:=1-> C -x:=2-> D -end-> F -join-> X; worker E' -x:=3-> X'.
    // Configurations: (E) 1, main at A..F with the worker at E' or X' 10, (X) 1 = 12.
    // Transitions: E:1; (A,E'):2; (A,X'):1; inside the block (B, C, D) only main moves: 6;
    // (F,E'): the worker only (join waits) 1; (F,X'): join 1. = 12.
    let (states, edges) = reach(&m);
    assert_eq!(states.len(), 12);
    assert_eq!(edges.len(), 12);
    // No thread but the owner moves while an atomic block runs.
    for (c, a, _) in &edges {
        if let Some(owner) = c.atomic {
            assert_eq!(a.thread, owner, "{c:?} --{a:?}");
        }
    }
    let worker_moves_inside = edges
        .iter()
        .filter(|(c, a, _)| c.atomic.is_some() && a.thread.template != entry(&p))
        .count();
    assert_eq!(worker_moves_inside, 0);
}

#[test]
fn a_sequential_program_is_the_one_thread_case() {
    let src = "
procedure main() {
  var i: int;
  i := 0;
  while (i < 3) { if (*) { i := i + 1; } else { i := i + 2; } }
  assert i >= 3;
}
";
    let p = program(src);
    let e = entry(&p);
    let m = ProgramModel::new(&p, e, ModelConfig::default()).expect("model");
    let (states, _) = reach(&m);
    // Exactly the CFG locations reachable from the entry (computed on the graph itself).
    let cfg = p.proc(e).body.as_ref().expect("body");
    let mut seen = BTreeSet::from([cfg.entry]);
    let mut stack = vec![cfg.entry];
    while let Some(n) = stack.pop() {
        for s in cfg.graph.neighbors(n) {
            if seen.insert(s) {
                stack.push(s);
            }
        }
    }
    assert_eq!(states.len(), seen.len());
    assert!(states.iter().all(|c| c.threads.len() == 1));
    // The error location of the assertion is reachable and accepting.
    let errors = seen
        .iter()
        .filter(|n| matches!(cfg.graph[**n].kind, LocKind::Error(_)))
        .count();
    assert_eq!(errors, 1);
    assert_eq!(states.iter().filter(|c| m.is_accepting(c)).count(), 1);
}

#[test]
fn recursion_with_a_bounded_stack() {
    let src = "
procedure ULTIMATE.start() { call rec(); }
procedure rec() { if (*) { call rec(); } }
";
    let p = program(src);
    let e = entry(&p);
    for depth in [1usize, 2, 3] {
        let m = ProgramModel::new(
            &p,
            e,
            ModelConfig {
                instances: 1,
                max_call_depth: depth,
            },
        )
        .expect("model");
        // main at its entry 1, main back at its exit 1, and rec's three locations (E, T, X) at
        // each stack depth 1..=d: 3d + 2.
        let (states, edges) = reach(&m);
        assert_eq!(states.len(), 3 * depth + 2, "depth {depth}");
        let calls = edges
            .iter()
            .filter(|(_, a, _)| a.kind == ActionKind::Call)
            .count();
        let returns = edges
            .iter()
            .filter(|(_, a, _)| a.kind == ActionKind::Return)
            .count();
        assert_eq!(calls, depth, "one call per depth");
        assert_eq!(returns, depth, "one return per depth");
        // The call at full depth is cut, and the model says so.
        assert_eq!(states.iter().filter(|c| m.call_cut(c)).count(), 1);
        let main = ThreadId {
            template: e,
            instance: 0,
        };
        assert!(states.iter().all(|c| c.threads.keys().all(|t| *t == main)));
    }
}
