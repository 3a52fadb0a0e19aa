//! Session tests against the real solvers. Each test runs for every backend found; a missing pinned
//! solver (z3, yices) fails under CI, elsewhere it prints a note; cvc5 is optional.

mod common;

use lapidary::smt::*;
use std::time::{Duration, Instant};

fn session_with(kind: SolverKind, f: impl FnOnce(SolverConfig) -> SolverConfig) -> Option<Session> {
    match Session::new(f(SolverConfig::new(kind))) {
        Ok(s) => Some(s),
        Err(SmtError::NotFound { .. }) => {
            common::solver_missing(&kind.to_string());
            None
        }
        Err(e) => panic!("{kind}: cannot start: {e}"),
    }
}

fn session(kind: SolverKind) -> Option<Session> {
    session_with(kind, |c| c)
}

fn iv(n: &str) -> Var {
    Var::new(n, Sort::Int)
}
fn v(n: &str) -> Term {
    Term::var(&iv(n))
}
fn int(i: i64) -> Term {
    Term::int(i)
}

#[test]
fn discover_reports_versions_or_install_hint() {
    for k in SolverKind::ALL {
        match discover(k) {
            Ok((p, ver)) => {
                eprintln!("{k}: {} {ver}", p.display());
                assert!(!ver.is_empty());
            }
            Err(e) => {
                let m = e.to_string();
                assert!(m.contains("install"), "{m}");
                eprintln!("note: {m}");
            }
        }
    }
}

#[test]
fn basic_suite_all_backends() {
    for k in SolverKind::ALL {
        let Some(mut s) = session(k) else { continue };
        // sat / model
        s.push();
        s.assert(&Term::gt(&v("x"), &int(3)));
        s.assert(&Term::lt(&v("x"), &int(6)));
        s.assert(&Term::eq(&v("y"), &Term::add(vec![v("x"), int(-10)])));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        let m = s.get_model().unwrap();
        let x = m[&iv("x")].clone();
        let y = m[&iv("y")].clone();
        let (Value::Int(xv), Value::Int(yv)) = (&x, &y) else {
            panic!("{k}: {m:?}")
        };
        assert!(*xv > 3.into() && *xv < 6.into(), "{k}");
        assert_eq!(yv.clone(), xv - 10, "{k}: negative values must parse");
        let vals = s
            .get_values(&[v("x"), Term::add(vec![v("x"), int(1)])])
            .unwrap();
        assert_eq!(vals[0].1, x, "{k}");
        s.pop();
        // unsat + core
        s.push();
        s.assert_named(&Term::gt(&v("x"), &int(3)), "a1");
        s.assert_named(&Term::lt(&v("x"), &int(2)), "a 2");
        s.assert_named(&Term::eq(&v("z"), &int(0)), "a3");
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        let mut core = s.unsat_core().unwrap();
        core.sort();
        assert_eq!(core, vec!["a 2".to_string(), "a1".to_string()], "{k}");
        s.pop();
        // the same names again in a new scope (labels are global in the solver: fresh ones are used)
        s.push();
        s.assert_named(&Term::lt(&v("x"), &int(0)), "a1");
        s.assert_named(&Term::gt(&v("x"), &int(0)), "a3");
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        let mut core = s.unsat_core().unwrap();
        core.sort();
        assert_eq!(core, vec!["a1".to_string(), "a3".to_string()], "{k}");
        s.pop();
        // declarations survive pop; base level is kept
        s.push();
        let fresh = Var::new("fresh'@1", Sort::Int);
        s.assert(&Term::eq(&Term::var(&fresh), &int(5)));
        s.pop();
        s.assert(&Term::eq(&Term::var(&fresh), &int(7)));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        assert_eq!(
            s.get_values(&[Term::var(&fresh)]).unwrap()[0].1,
            Value::Int(7.into()),
            "{k}"
        );
        // names that need quoting or cannot be quoted, and reserved words
        s.push();
        let odd: Vec<Var> = [
            "x'@2",
            "ULTIMATE.start",
            "~x",
            "#res",
            "a|b",
            "true",
            "assert",
            "a b",
        ]
        .iter()
        .map(|n| iv(n))
        .collect();
        for (i, o) in odd.iter().enumerate() {
            s.assert(&Term::eq(&Term::var(o), &int(i as i64 - 3)));
        }
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        let m = s.get_model().unwrap();
        for (i, o) in odd.iter().enumerate() {
            assert_eq!(
                m.get(o),
                Some(&Value::Int((i as i64 - 3).into())),
                "{k}: {}",
                o.name
            );
        }
        s.pop();
        // same name, other sort
        let pb = Var::new("x", Sort::Bool);
        s.push();
        s.assert(&Term::var(&pb));
        s.assert(&Term::eq(&v("x"), &int(1)));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        let m = s.get_model().unwrap();
        assert_eq!(m.get(&pb), Some(&Value::Bool(true)), "{k}: {m:?}");
        assert_eq!(m.get(&iv("x")), Some(&Value::Int(1.into())), "{k}: {m:?}");
        s.pop();
        // check-sat-assuming
        let p = Term::var(&Var::new("p", Sort::Bool));
        s.assert(&Term::implies(&p, &Term::gt(&v("w"), &int(0))));
        assert_eq!(
            s.check_sat_assuming(&[p.clone(), Term::lt(&v("w"), &int(0))]),
            SatResult::Unsat,
            "{k}"
        );
        assert_eq!(
            s.check_sat_assuming(std::slice::from_ref(&p)),
            SatResult::Sat,
            "{k}"
        );
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        // reals
        let r = Term::var(&Var::new("r", Sort::Real));
        s.push();
        s.assert(&Term::eq(
            &Term::mul(vec![Term::real(rat(3, 1)), r.clone()]),
            &Term::real(rat(-1, 1)),
        ));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        assert_eq!(
            s.get_values(std::slice::from_ref(&r)).unwrap()[0].1,
            Value::Real(rat(-1, 3)),
            "{k}"
        );
        s.pop();
        assert_eq!(s.depth(), 0);
        // reset: a fresh solver with nothing declared or asserted
        s.reset();
        s.assert(&Term::eq(&v("x"), &int(2)));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        s.reset();
        // pop without push is reported, not a panic
        s.pop();
        assert!(s.check_sat().is_unknown(), "{k}");
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        eprintln!("{k}: {:?}", s.stats());
    }
}

#[test]
fn uninterpreted_sorts_functions_arrays_bitvectors_all_backends() {
    fn assert_send_sync<T: Send + Sync>() {}
    fn assert_send<T: Send>() {}
    assert_send_sync::<Term>();
    assert_send::<Session>();
    let u = Sort::Uninterpreted("U".into(), vec![]);
    let f = FuncDecl::new("f", vec![u.clone()], Sort::Int);
    let (a, b) = (
        Term::var(&Var::new("a", u.clone())),
        Term::var(&Var::new("b", u.clone())),
    );
    let arr = Term::var(&Var::new("arr", Sort::array(Sort::Int, Sort::Int)));
    let w = Term::var(&Var::new("w", Sort::BitVec(8)));
    for k in SolverKind::ALL {
        let Some(mut s) = session(k) else { continue };
        s.push();
        s.assert(&Term::eq(&a, &b));
        s.assert(&Term::distinct(vec![
            Term::uf(&f, vec![a.clone()]),
            Term::uf(&f, vec![b.clone()]),
        ]));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        s.pop();
        // the sort and function declarations survive the pop
        s.push();
        s.assert(&Term::eq(&Term::uf(&f, vec![a.clone()]), &int(-4)));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        let vals = s.get_values(&[Term::uf(&f, vec![a.clone()])]).unwrap();
        assert_eq!(vals[0].1, Value::Int((-4).into()), "{k}");
        s.pop();
        // arrays
        s.push();
        let st = Term::store(&arr, &int(1), &int(5));
        s.assert(&Term::eq(&Term::select(&st, &v("i")), &int(7)));
        s.assert(&Term::eq(&v("i"), &int(1)));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        s.pop();
        // bit-vectors: w + 1 = 0 (mod 256) forces w = #xff
        s.push();
        s.assert(&Term::eq(
            &Term::bv_op("bvadd", vec![w.clone(), Term::bv(1u32.into(), 8)]),
            &Term::bv(0u32.into(), 8),
        ));
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        assert_eq!(
            s.get_values(std::slice::from_ref(&w)).unwrap()[0].1,
            Value::BitVec(255u32.into(), 8),
            "{k}"
        );
        s.pop();
    }
}

/// `p * q = N` with `N` the product of two 10-digit primes: hopeless in 1 s.
fn factoring(s: &mut Session) {
    let (p, q) = (v("p"), v("q"));
    s.assert(&Term::gt(&p, &int(1)));
    s.assert(&Term::gt(&q, &int(1)));
    s.assert(&Term::eq(
        &Term::mul(vec![p, q]),
        &Term::int("1000000016000000063".parse::<num_bigint::BigInt>().unwrap()),
    ));
}

/// Pigeonhole: n+1 pigeons into n holes (hard for CDCL), as Boolean constraints.
fn pigeonhole(s: &mut Session, n: usize) {
    let at = |i: usize, j: usize| Term::var(&Var::new(format!("p{i}_{j}"), Sort::Bool));
    for i in 0..=n {
        s.assert(&Term::or((0..n).map(|j| at(i, j)).collect()));
    }
    for j in 0..n {
        for i in 0..=n {
            for k in i + 1..=n {
                s.assert(&Term::or(vec![Term::not(&at(i, j)), Term::not(&at(k, j))]));
            }
        }
    }
}

#[test]
fn hard_query_times_out_and_session_recovers() {
    for k in SolverKind::ALL {
        let Some(mut s) = session_with(k, |c| c.with_timeout(Duration::from_secs(1))) else {
            continue;
        };
        s.assert(&Term::ge(&v("base"), &int(0)));
        s.push();
        if k == SolverKind::Yices {
            pigeonhole(&mut s, 11); // yices' ALL logic refuses non-linear arithmetic
        } else {
            factoring(&mut s);
        }
        let t0 = Instant::now();
        let r = s.check_sat();
        let el = t0.elapsed();
        eprintln!("{k}: {r} after {el:?}");
        assert!(r.is_unknown(), "{k}: {r}");
        assert!(el < Duration::from_secs(2), "{k}: took {el:?}");
        s.pop();
        s.assert(&Term::lt(&v("base"), &int(0)));
        assert_eq!(
            s.check_sat(),
            SatResult::Unsat,
            "{k}: base level must survive"
        );
        eprintln!("{k}: {:?}", s.stats());
    }
}

/// `check_sat_within` cuts one z3 query short, far below the session's limit; the session answers
/// the next queries as before (the limit is restored, the assertions kept).
#[test]
fn check_sat_within_limits_one_query() {
    let Some(mut s) = session_with(SolverKind::Z3, |c| c.with_timeout(Duration::from_secs(30)))
    else {
        return;
    };
    s.assert(&Term::ge(&v("base"), &int(0)));
    s.push();
    factoring(&mut s);
    let t0 = Instant::now();
    let r = s.check_sat_within(Duration::from_millis(300));
    let el = t0.elapsed();
    assert!(r.is_unknown(), "{r}");
    assert!(el < Duration::from_secs(3), "took {el:?}");
    s.pop();
    s.assert(&Term::le(&v("base"), &int(2)));
    assert_eq!(s.check_sat(), SatResult::Sat);
    s.assert(&Term::lt(&v("base"), &int(0)));
    assert_eq!(s.check_sat(), SatResult::Unsat, "base level must survive");
}

/// A session deadline ends a hard query at the deadline, long before its query limit, and the
/// session answers again afterwards (an unbounded deadline changes nothing).
#[test]
fn session_deadline_ends_queries_before_their_limit() {
    for k in SolverKind::ALL {
        let deadline = Instant::now() + Duration::from_millis(800);
        let Some(mut s) = session_with(k, |mut c| {
            c.deadline = Some(deadline);
            c.with_timeout(Duration::from_secs(30))
        }) else {
            continue;
        };
        s.assert(&Term::ge(&v("base"), &int(0)));
        s.push();
        if k == SolverKind::Yices {
            pigeonhole(&mut s, 11);
        } else {
            factoring(&mut s);
        }
        let r = s.check_sat();
        let late = Instant::now().saturating_duration_since(deadline);
        assert!(r.is_unknown(), "{k}: {r}");
        assert!(
            late < Duration::from_millis(900),
            "{k}: {late:?} after the deadline"
        );
        s.pop();
        s.assert(&Term::lt(&v("base"), &int(0)));
        // Past the deadline every query is cut short (unknown), never answered wrongly.
        let r = s.check_sat();
        assert!(r == SatResult::Unsat || r.is_unknown(), "{k}: {r}");
    }
}

#[test]
fn killed_solver_gives_unknown_then_recovers_with_state() {
    for k in SolverKind::ALL {
        let Some(mut s) = session(k) else { continue };
        s.assert(&Term::ge(&v("a"), &int(0)));
        s.push();
        s.assert_named(&Term::le(&v("a"), &int(5)), "upper");
        assert_eq!(s.check_sat(), SatResult::Sat);
        let pid = s.pid();
        s.kill_for_test();
        std::thread::sleep(Duration::from_millis(50));
        let r = s.check_sat();
        assert!(r.is_unknown(), "{k}: {r}");
        eprintln!("{k}: after kill: {r}");
        // state was replayed: a >= 0 (base) and a <= 5 (level 1) still hold
        s.assert_named(&Term::gt(&v("a"), &int(5)), "over");
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        assert_ne!(s.pid(), pid);
        let mut core = s.unsat_core().unwrap();
        core.sort();
        assert_eq!(core, vec!["over".to_string(), "upper".to_string()], "{k}");
        s.pop();
        s.assert(&Term::lt(&v("a"), &int(0)));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        assert_eq!(s.stats().restarts, 1, "{k}");
    }
}

#[test]
fn solver_errors_are_unknown_and_scoped() {
    for k in SolverKind::ALL {
        let Some(mut s) = session(k) else { continue };
        s.assert(&Term::ge(&v("e"), &int(0)));
        s.push();
        // ill-sorted on purpose: (and e true) with e : Int
        let bad = Term::mk_raw(Op::And, vec![v("e"), Term::tt()]);
        s.assert(&bad);
        s.assert(&Term::lt(&v("e"), &int(0))); // would make the scope unsat
        let r = s.check_sat();
        assert!(r.is_unknown(), "{k}: an error must not give an answer: {r}");
        eprintln!("{k}: {r}");
        // still poisoned: no solver call, still unknown
        assert!(s.check_sat().is_unknown(), "{k}");
        s.pop();
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
        s.assert(&Term::lt(&v("e"), &int(0)));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
        // an error in a non-check command is an Err, and the session goes on
        assert!(
            s.raw_command("(get-value (undeclared_thing))").is_err(),
            "{k}"
        );
        assert_eq!(s.check_sat(), SatResult::Unsat, "{k}");
    }
}

#[test]
fn multi_line_string_reply_does_not_hang() {
    let Some(mut s) = session_with(SolverKind::Z3, |c| c.with_timeout(Duration::from_secs(3)))
    else {
        return;
    };
    let t0 = Instant::now();
    // z3 lists the legal parameters over many lines inside one string
    let r = s.raw_command("(set-option :produce-interpolants true)");
    eprintln!("{:?}", r.as_ref().map_err(|e| sexp_excerpt(&e.to_string())));
    assert!(t0.elapsed() < Duration::from_secs(2));
    // a multi-line quoted symbol in a reply
    let r = s
        .raw_command("(declare-const |multi\nline| Int)\n(check-sat)\n(get-value (|multi\nline|))");
    assert_eq!(r.unwrap().len(), 2);
    s.assert(&Term::eq(&v("m"), &int(1)));
    assert_eq!(s.check_sat(), SatResult::Sat);
}

fn sexp_excerpt(s: &str) -> String {
    s.chars().take(200).collect()
}

#[test]
fn z3_qe_and_simplify() {
    for k in [SolverKind::Z3, SolverKind::Yices] {
        let Some(mut s) = session(k) else { continue };
        if discover(SolverKind::Z3).is_err() {
            return;
        }
        s.assert(&Term::gt(&v("x"), &int(100))); // must not leak into qe
        let y = iv("y");
        let t = Term::exists(
            vec![y.clone()],
            Term::and(vec![
                Term::lt(&v("x"), &Term::var(&y)),
                Term::lt(&Term::var(&y), &int(10)),
            ]),
        );
        let r = s.qe(&t).unwrap();
        assert_eq!(r.to_string(), "(<= x 8)", "{k}");
        // parity: disjunction / mod in the result
        let i = iv("i");
        let t = Term::exists(
            vec![i.clone()],
            Term::eq(&v("x"), &Term::mul(vec![int(2), Term::var(&i)])),
        );
        let r = s.qe(&t).unwrap();
        assert!(!r.has_quantifier(), "{k}: {r}");
        let sm = s
            .simplify_smt(&Term::add(vec![v("x"), int(1), int(2), v("x")]))
            .unwrap();
        assert_eq!(
            sm,
            Term::add(vec![int(3), Term::mul(vec![int(2), v("x")])]),
            "{k}"
        );
        assert_eq!(s.check_sat(), SatResult::Sat, "{k}");
    }
}

#[test]
fn log_dir_records_commands_and_replies() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-smt-log-{}", std::process::id()));
    let Some(mut s) = session_with(SolverKind::Z3, |c| c.with_log_dir(&dir)) else {
        return;
    };
    s.assert(&Term::eq(&v("l"), &int(-3)));
    assert_eq!(s.check_sat(), SatResult::Sat);
    let path = s.log_path().unwrap().to_path_buf();
    s.kill_for_test();
    let _ = s.check_sat();
    assert_eq!(s.check_sat(), SatResult::Sat);
    drop(s);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("(assert (= l (- 3)))"), "{text}");
    assert!(text.contains("; sat"), "{text}");
    assert!(text.contains("(reset)"), "{text}");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(
        name.starts_with(&format!("z3-{}-", std::process::id())),
        "{name}"
    );
    // the log replays with the solver alone
    if let Ok((z3, _)) = discover(SolverKind::Z3) {
        let out = std::process::Command::new(z3)
            .arg("-smt2")
            .arg(&path)
            .output()
            .unwrap();
        let o = String::from_utf8_lossy(&out.stdout);
        assert!(!o.contains("error"), "{o}");
        // three checks were sent (one of them to the killed process)
        assert_eq!(o.lines().filter(|l| *l == "sat").count(), 3, "{o}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// z3's incremental core may spin on divisibility facts that its one-shot strategy decides at once
/// (a bounded search over `x % p == 0` for eleven primes and `x` doubled three times: measured,
/// two of these checks time out incrementally); the session asks a check with integer `mod`/`div`
/// that timed out again by the one-shot strategy, so every check here is answered, and correctly.
#[test]
fn divisibility_checks_are_answered_by_the_one_shot_strategy() {
    let Some(mut s) = session_with(SolverKind::Z3, |c| c.with_timeout(Duration::from_secs(3)))
    else {
        return;
    };
    let primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 31, 41];
    let divides = |x: &Term, p: i64| Term::eq(&Term::modulo(x, &int(p)), &int(0));
    for p in primes {
        s.push();
        s.assert(&divides(&v("x"), p));
        assert_eq!(s.check_sat(), SatResult::Sat);
    }
    let mut x = v("x");
    for k in 1..=3 {
        let next = v(&format!("x{k}"));
        s.push();
        s.assert(&Term::eq(&next, &Term::add(vec![x.clone(), x.clone()])));
        assert_eq!(s.check_sat(), SatResult::Sat);
        x = next;
    }
    for p in primes {
        s.push();
        s.assert(&Term::not(&divides(&x, p)));
        assert_eq!(s.check_sat(), SatResult::Unsat, "{x} % {p}");
        s.pop();
        s.push();
        s.assert(&divides(&x, p));
        assert_eq!(s.check_sat(), SatResult::Sat, "{x} % {p}");
    }
    s.push();
    s.assert(&Term::not(&divides(&x, 37)));
    assert_eq!(s.check_sat(), SatResult::Sat);
    assert!(s.stats().tactic_retries <= 1, "{:?}", s.stats());
}

/// An array defined pointwise under a `forall` (`∀i. a[i] = i + n`, what a hoisted lambda
/// expression gives), after the simplifier's linear normal form and a `push`: z3's incremental core
/// gives up on the satisfiable query; the session asks the one-shot strategy, which answers it,
/// and the printer writes the body solved for `a[i]`, which that strategy needs.
#[test]
fn z3_decides_an_array_defined_pointwise() {
    let Some(mut s) = session(SolverKind::Z3) else {
        return;
    };
    let a = Var::new("a", Sort::array(Sort::Int, Sort::Int));
    let i = iv("i");
    let def = simplify(&Term::forall(
        vec![i.clone()],
        Term::eq(
            &Term::select(&Term::var(&a), &Term::var(&i)),
            &Term::add(vec![Term::var(&i), v("n")]),
        ),
    ));
    let printed = def.to_string();
    assert!(printed.contains("(= (select a i) "), "{printed}");
    let cell0 = Term::select(&Term::var(&a), &int(0));
    s.push();
    s.assert(&def);
    s.assert(&Term::eq(&v("n"), &int(2)));
    s.push();
    // a[1] = 3
    s.assert(&Term::not(&Term::eq(
        &Term::select(&Term::var(&a), &int(1)),
        &v("n"),
    )));
    assert_eq!(s.check_sat(), SatResult::Sat);
    s.pop();
    s.push();
    s.assert(&Term::not(&Term::eq(&cell0, &int(2))));
    assert_eq!(s.check_sat(), SatResult::Unsat);
    s.pop();
    // A guarded definition is no macro: printed as the simplifier wrote it.
    let guarded = simplify(&Term::forall(
        vec![i.clone()],
        Term::implies(
            &Term::le(&int(0), &Term::var(&i)),
            &Term::eq(
                &Term::select(&Term::var(&a), &Term::var(&i)),
                &Term::add(vec![Term::var(&i), v("n")]),
            ),
        ),
    ));
    assert!(
        !guarded.to_string().contains("(= (select a i) "),
        "{guarded}"
    );
}

/// A session started on a thread that another thread cancels ([`lapidary::cancel`]) ends its wait
/// at once, as a timeout, far below its query limit; a thread without a flag is not affected.
#[test]
fn cancelled_thread_ends_its_solver_wait() {
    let installed = lapidary::cancel::install();
    let Some(mut s) = session_with(SolverKind::Z3, |c| c.with_timeout(Duration::from_secs(60)))
    else {
        return;
    };
    factoring(&mut s);
    let canceller = installed.canceller();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        canceller.cancel();
    });
    let t0 = Instant::now();
    let r = s.check_sat();
    let el = t0.elapsed();
    stopper.join().expect("the cancelling thread");
    assert!(r.is_unknown(), "{r}");
    assert!(el < Duration::from_secs(5), "took {el:?}");
    assert!(lapidary::cancel::requested());
    drop(s);
    drop(installed);
    assert!(!lapidary::cancel::requested());
}
