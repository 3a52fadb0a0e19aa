//! Tests of the program model (`lapidary::engine::model`): the reachable configurations of small
//! programs, enumerated with `automata::explore`, against counts derived by hand from the lowered
//! CFGs (the shapes were read off `verify --no-verify --dump-cfg`; each derivation is in a comment).

use std::collections::BTreeSet;

use lapidary::automata::{Automaton, Budget, Nfa, explore};
use lapidary::engine::model::{
    Action, ActionKind, Limit, ModelConfig, ModelError, ProgramModel, State, ThreadInstance,
};
use lapidary::ir::{self, LocKind};
use lapidary::syntax::parse;
use petgraph::visit::Dfs;

fn program(src: &str) -> ir::Program {
    let (ast, diags) = parse(src);
    let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
    let (prog, diags) = ir::check_inline(&ast);
    prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
}

fn config(instances: usize, max_call_depth: usize) -> ModelConfig {
    ModelConfig {
        instances,
        max_call_depth,
        lowest_free_instance: false,
    }
}

/// The model of the program's `ULTIMATE.start`.
fn model<'p>(prog: &'p ir::Program, cfg: ModelConfig) -> ProgramModel<'p> {
    let mut models = ProgramModel::for_program(prog, cfg).expect("model");
    assert_eq!(models.len(), 1);
    models.remove(0)
}

fn reachable(m: &ProgramModel) -> Nfa<State, Action> {
    explore(m, &Budget::unlimited()).expect("exploration")
}

fn limits(nfa: &Nfa<State, Action>) -> Vec<Limit> {
    nfa.states()
        .filter_map(|s| match s {
            State::Limit(l) => Some(*l),
            State::Config(_) => None,
        })
        .collect()
}

const FORK_JOIN: &str = r#"
var x: int;
procedure ULTIMATE.start() modifies x; {
  x := 0;
  fork 1 worker();
  x := x + 1;
  join 1;
  assert x >= 1;
}
procedure worker() modifies x; {
  x := x + 2;
  x := x - 1;
}
"#;

/// Two threads: main forks one worker, steps, joins, asserts.
#[test]
fn fork_join_two_threads() {
    let prog = program(FORK_JOIN);
    let m = model(&prog, config(1, 4));
    assert_eq!(m.threads().len(), 2);
    let nfa = reachable(&m);
    // main: entry -x:=0-> l2 -fork-> l3 -x:=x+1-> l4 -join-> l5 -> {error, exit};
    // worker: w0 -x:=x+2-> w1 -x:=x-1-> w2 (exit); worker states: not in use (N), w0, w1, w2.
    //   main at entry, l2 (before the fork):  worker N             → 2
    //   main at l3, l4 (forked, not joined):  worker w0, w1, w2    → 2 × 3 = 6
    //   main at l5, error, exit (joined):     worker N             → 3
    // total 11, of which 1 accepting (main at the error location).
    assert_eq!(nfa.num_states(), 11);
    assert_eq!(nfa.accepting().count(), 1);
    // Transitions: x:=0, fork (1 + 1); at l3 main moves in 3 configurations and the worker twice
    // (3 + 2); at l4 the worker moves twice and main joins once (w2) (2 + 1); at l5 two edges (2).
    assert_eq!(nfa.num_transitions(), 12);
    let joins: Vec<&Action> = nfa
        .transitions()
        .map(|(_, a, _)| a)
        .filter(|a| matches!(a.kind, ActionKind::Join { .. }))
        .collect();
    assert_eq!(joins.len(), 1);
    assert_eq!(
        joins[0].kind,
        ActionKind::Join {
            instance: ThreadInstance(1)
        }
    );
    assert_eq!(joins[0].thread, ThreadInstance::ENTRY);
    assert!(limits(&nfa).is_empty());
}

const FORK_LOOP: &str = r#"
procedure ULTIMATE.start() {
  var i: int;
  i := 0;
  while (i < 2) { fork i worker(); i := i + 1; }
}
procedure worker() { var y: int; y := 1; }
"#;

/// Workers forked in a loop. Control only: the loop bound is data, so the loop can fork without
/// bound and the insufficient-instances marker is reachable for every k (the engine refutes that
/// trace by data, `i < 2`).
#[test]
fn fork_in_loop_instances() {
    let prog = program(FORK_LOOP);
    // main: entry -i:=0-> l2 -assume true-> H -i<2-> B -fork-> F -i:=i+1-> H; H -!(i<2)-> exit.
    // worker: w0 -y:=1-> w1 (exit); an instance is N, w0 or w1; no join, so forked instances stay.
    //
    // k = 2, one successor per free instance: the pair of instances after n forks is
    //   n = 0: (N, N) → 1;  n = 1: one of two in use, at w0 or w1 → 4;  n = 2: {w0, w1}² → 4.
    //   entry, l2: 1 + 1;  H, B, exit: n ∈ {0, 1, 2} → 9 each;  F: n ∈ {1, 2} → 8;
    //   the marker (fork at B with both in use): 1.   Total 2 + 27 + 8 + 1 = 38.
    let m = model(&prog, config(2, 4));
    assert_eq!(m.threads().len(), 3);
    let nfa = reachable(&m);
    assert_eq!(nfa.num_states(), 38);
    assert_eq!(nfa.accepting().count(), 1);
    let worker = m.threads()[1].template;
    assert_eq!(
        limits(&nfa),
        [Limit::InsufficientInstances { procedure: worker }]
    );

    // k = 2, lowest free instance only: after one fork only the first instance is in use, so
    //   n = 1 gives 2 instead of 4: H, B, exit 7 each, F 6: 2 + 21 + 6 + 1 = 30.
    let m = model(
        &prog,
        ModelConfig {
            lowest_free_instance: true,
            ..config(2, 4)
        },
    );
    assert_eq!(reachable(&m).num_states(), 30);

    // k = 1: the instance is N, w0 or w1: entry, l2: 2; H, B, exit: 3 each; F: 2; marker 1 → 14.
    let m = model(&prog, config(1, 4));
    let nfa = reachable(&m);
    assert_eq!(nfa.num_states(), 14);
    assert_eq!(
        limits(&nfa),
        [Limit::InsufficientInstances { procedure: worker }]
    );
}

/// Two forks in sequence: 2 instances suffice, 1 does not.
#[test]
fn two_forks_need_two_instances() {
    let prog = program(
        r#"
        procedure ULTIMATE.start() { fork 1 worker(); fork 2 worker(); }
        procedure worker() { var y: int; y := 1; }
        "#,
    );
    // main: entry -fork-> a -fork-> exit; worker instances N, w0, w1.
    // k = 2: entry (N, N) 1; a: one instance in use at w0/w1 → 4; exit: both → 4. Total 9, no marker.
    let nfa = reachable(&model(&prog, config(2, 4)));
    assert_eq!(nfa.num_states(), 9);
    assert_eq!(nfa.accepting().count(), 0);
    // k = 1: entry 1; a: w0/w1 → 2; the second fork finds no free instance → marker. Total 4.
    let nfa = reachable(&model(&prog, config(1, 4)));
    assert_eq!(nfa.num_states(), 4);
    assert_eq!(nfa.accepting().count(), 1);
    assert_eq!(limits(&nfa).len(), 1);
}

fn atomic_program(begin: &str, end: &str) -> String {
    format!(
        r#"
        var x: int;
        procedure ULTIMATE.start() modifies x; {{
          fork 1 worker();
          {begin} x := 1; x := 2; {end}
          join 1;
        }}
        procedure worker() modifies x; {{
          {begin} x := 3; x := 4; {end}
        }}
        "#
    )
}

/// Atomic blocks exclude the interleavings inside them.
#[test]
fn atomic_blocks_exclude_interleavings() {
    // main: entry -fork-> m1 -begin-> a0 -x:=1-> a1 -x:=2-> a2 -end-> m2 -join-> exit (7 locations);
    // worker: w0 -begin-> b0 -x:=3-> b1 -x:=4-> b2 -end-> w1 (exit) (5 locations).
    // With `assume true` instead of begin/end (same CFG shapes), every pair is reachable between the
    // fork and the join: entry (N) + 5 × 5 + exit (N) = 27.
    let prog = program(&atomic_program("assume true;", "assume true;"));
    let nfa = reachable(&model(&prog, config(1, 4)));
    assert_eq!(nfa.num_states(), 27);
    // With `atomic { … }`: the 3 × 3 pairs with both threads inside their blocks (a0..a2 × b0..b2)
    // are unreachable; the owner is determined by the locations. 27 - 9 = 18.
    let prog = program(&atomic_program("atomic {", "}"));
    let m = model(&prog, config(1, 4));
    let nfa = reachable(&m);
    assert_eq!(nfa.num_states(), 18);
    // While an owner is set, only the owner has letters.
    for (s, a, _) in nfa.transitions() {
        if let Some(owner) = s.config().and_then(|c| c.atomic) {
            assert_eq!(a.thread, owner.thread, "{s:?} --{a:?}-->");
        }
    }
    let owned = nfa
        .states()
        .filter(|s| s.config().is_some_and(|c| c.atomic.is_some()))
        .count();
    // main inside (3) × worker at w0 or w1 (2) + worker inside (3) × main at m1 or m2 (2) = 12.
    assert_eq!(owned, 12);
}

/// Nested atomic blocks: the inner end does not release the section.
#[test]
fn nested_atomic_blocks() {
    let prog = program(
        r#"
        var x: int;
        procedure ULTIMATE.start() modifies x; {
          fork 1 worker();
          atomic { atomic { x := 1; } x := 2; }
          join 1;
        }
        procedure worker() modifies x; { x := 3; }
        "#,
    );
    // main: entry -fork-> m1 -begin-> s1 -begin-> s2 -x:=1-> s3 -end-> s4 -x:=2-> s5 -end-> m2
    //   -join-> exit; worker: w0 -x:=3-> w1.
    // States: entry, exit (worker N): 2; main at m1, s1..s5, m2 × worker w0/w1 (the worker may run
    // before main enters the block): 7 × 2 = 14. Total 16.
    // Transitions: fork 1; at m1: main's begin ×2 + the worker's step 1; inside: main's 5 edges × 2;
    // at m2: the worker's step 1 + join 1. Total 1 + 3 + 10 + 2 = 16. (If the inner end released
    // the section, the worker could also step at s4 and s5: 18.)
    let m = model(&prog, config(1, 4));
    let nfa = reachable(&m);
    assert_eq!(nfa.num_states(), 16);
    assert_eq!(nfa.num_transitions(), 16);
    let depths: BTreeSet<u32> = nfa
        .states()
        .filter_map(|s| s.config().and_then(|c| c.atomic))
        .map(|a| a.depth)
        .collect();
    assert_eq!(depths, BTreeSet::from([1, 2]));
}

/// A sequential program: the reachable configurations are exactly the reachable CFG locations.
#[test]
fn sequential_program_is_its_cfg() {
    let prog = program(
        r#"
        var g: int;
        procedure ext() returns (r: int);
        procedure ULTIMATE.start() modifies g; {
          var i: int;
          call i := ext();
          while (i > 0) {
            i := i - 1;
            if (*) { assert g == 0; }
          }
          return;
          g := 1;
        }
        "#,
    );
    let m = model(&prog, config(1, 4));
    assert_eq!(m.threads().len(), 1);
    let nfa = reachable(&m);
    let entry = m.entry();
    let cfg = m.cfg(entry).expect("body");
    let mut dfs = Dfs::new(&cfg.graph, cfg.entry);
    let mut cfg_reachable = BTreeSet::new();
    while let Some(n) = dfs.next(&cfg.graph) {
        cfg_reachable.insert(n);
    }
    let mut model_locs = BTreeSet::new();
    for s in nfa.states() {
        let c = s
            .config()
            .expect("no marker in a sequential program without calls");
        let t = c
            .thread(ThreadInstance::ENTRY)
            .expect("entry thread in use");
        assert!(t.stack.is_empty());
        assert_eq!(t.loc.proc, entry);
        model_locs.insert(t.loc.node);
    }
    assert_eq!(model_locs, cfg_reachable);
    // 10 locations: entry, exit, after the call, loop head, body, after the decrement, the if's
    // branch point, the error, after the loop, and the dead one after `return` (unreachable): 9.
    assert_eq!(cfg.graph.node_count(), 10);
    assert_eq!(nfa.num_states(), 9);
    assert_eq!(nfa.accepting().count(), 1);
    // The call of a procedure without a body is an internal letter (a summary).
    let calls = nfa
        .transitions()
        .filter(|(_, a, _)| matches!(m.stmt(a.edge), Some(ir::Stmt::Call { .. })))
        .map(|(_, a, _)| a.kind)
        .collect::<Vec<_>>();
    assert_eq!(calls, [ActionKind::Internal]);
    // Every accepting configuration is at an error location.
    for s in nfa.accepting() {
        let c = s.config().expect("configuration");
        let t = c.thread(ThreadInstance::ENTRY).expect("in use");
        assert!(matches!(m.loc_kind(t.loc), Some(LocKind::Error(_))));
        assert_eq!(m.errors(c).len(), 1);
    }
}

/// Library mode: one model per procedure with a body.
#[test]
fn library_mode_one_model_per_entry() {
    let prog = program(
        r#"
        procedure a() { assert true; }
        procedure b() { }
        procedure c();
        "#,
    );
    let models = ProgramModel::for_program(&prog, config(1, 4)).expect("models");
    let names: Vec<&str> = models
        .iter()
        .map(|m| m.threads()[0].name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    // a: entry -assume !true-> error, entry -assume true-> exit: 3 configurations.
    assert_eq!(reachable(&models[0]).num_states(), 3);
    // b: entry -> exit: 2.
    assert_eq!(reachable(&models[1]).num_states(), 2);
    let c = ir::ProcId(2);
    assert_eq!(prog.proc(c).name, "c");
    assert_eq!(
        ProgramModel::new(&prog, c, config(1, 4)).err(),
        Some(ModelError::EntryWithoutBody("c".into()))
    );
}

/// A fork of a procedure without a body has no template: the model is not built.
#[test]
fn fork_without_body_is_an_error() {
    let prog = program(
        r#"
        procedure ULTIMATE.start() { fork 1 ext(); }
        procedure ext();
        "#,
    );
    assert_eq!(
        ProgramModel::for_program(&prog, config(1, 4)).err(),
        Some(ModelError::ForkWithoutBody("ext".into()))
    );
}

/// A recursive procedure: the stack is bounded by `max_call_depth`; the call beyond it reaches the
/// call-depth marker.
#[test]
fn recursion_bounded_stack() {
    let prog = program(
        r#"
        procedure ULTIMATE.start() { call rec(3); }
        procedure rec(n: int) { if (n > 0) { call rec(n - 1); } }
        "#,
    );
    // main: entry -call rec(3)-> exit; rec: r0 -n>0-> r1 -call-> exit, r0 -!(n>0)-> exit.
    // Configurations: main at entry and at exit with an empty stack (2); in rec at stack length
    // j = 1..d (the stack is [main's call, rec's call × (j-1)], so one stack per j), at r0, r1 or
    // exit (3 per j); the call at r1 with stack length d reaches the marker (1). Total 3 + 3d.
    for d in [1usize, 3] {
        let m = model(&prog, config(1, d));
        let nfa = reachable(&m);
        assert_eq!(nfa.num_states(), 3 + 3 * d, "depth {d}");
        assert_eq!(nfa.accepting().count(), 1);
        let rec = ir::ProcId(1);
        assert_eq!(prog.proc(rec).name, "rec");
        assert_eq!(limits(&nfa), [Limit::CallDepth { callee: rec }]);
        let deepest = nfa
            .states()
            .filter_map(State::config)
            .filter_map(|c| c.thread(ThreadInstance::ENTRY))
            .map(|t| t.stack.len())
            .max();
        assert_eq!(deepest, Some(d));
        // One call and one return letter per stack level: calls at depth 0..d-1 and returns
        // from 1..d.
        let calls = nfa
            .transitions()
            .filter(|(_, a, _)| matches!(a.kind, ActionKind::Call { .. }))
            .count();
        let returns = nfa
            .transitions()
            .filter(|(_, a, _)| matches!(a.kind, ActionKind::Return { .. }))
            .count();
        assert_eq!((calls, returns), (d, d));
    }
    // d = 0: the very first call exceeds the bound: entry and the marker.
    let nfa = reachable(&model(&prog, config(1, 0)));
    assert_eq!(nfa.num_states(), 2);
    assert_eq!(limits(&nfa).len(), 1);
}

/// The successor order is deterministic and the model is a pure function of the state.
#[test]
fn successors_deterministic() {
    let prog = program(FORK_JOIN);
    let m = model(&prog, config(2, 4));
    let nfa = reachable(&m);
    for s in nfa.states() {
        let a = m.successors(s);
        assert_eq!(a, m.successors(s));
        let letters: Vec<(ThreadInstance, ir::ProcId, usize)> = a
            .iter()
            .map(|(l, _)| (l.thread, l.edge.0, l.edge.1.index()))
            .collect();
        let mut sorted = letters.clone();
        sorted.sort();
        assert_eq!(letters, sorted, "threads, then edges in index order");
    }
}
