//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test crate uses a different part

use std::path::{Path, PathBuf};

/// A test input that is missing: under CI (`CI` set, as `.ci/run` runs) that is a failure — a test
/// never passes by skipping there; elsewhere a note on stderr.
pub fn missing(what: &str) {
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("{what} is missing, and CI is set: a test must not pass by skipping");
    }
    eprintln!("note: {what} not found, skipping");
}

/// A solver is missing: z3 and yices are pinned by `scripts/setup.sh`, so under CI they must be
/// there ([`missing`]); cvc5 is optional everywhere.
pub fn solver_missing(kind: &str) {
    if kind.contains("cvc5") {
        eprintln!("note: {kind} not found (optional), skipping");
    } else {
        missing(kind);
    }
}

/// The dev benchmark: `$LAPIDARY_BENCH`, else `../shared/bench/ultimate` beside the checkout (as on
/// CI), else `/work/shared/bench/ultimate`.
pub fn bench_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("LAPIDARY_BENCH") {
        return d.into();
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/ultimate");
    if beside.join("manifest.tsv").exists() {
        return beside;
    }
    PathBuf::from("/work/shared/bench/ultimate")
}

/// The `.bpl` files of tiers T1–T4 in the dev manifest, as (path relative to the bench directory,
/// labelled `SyntaxError`), with the bench directory; `None` (and a note) when it is absent.
pub fn t1_to_t4_boogie_files() -> Option<(PathBuf, Vec<(String, bool)>)> {
    let dir = bench_dir();
    let Ok(manifest) = std::fs::read_to_string(dir.join("manifest.tsv")) else {
        missing(&format!("the corpus {}/manifest.tsv", dir.display()));
        return None;
    };
    let files = manifest
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (cols.len() >= 4
                && cols[0].ends_with(".bpl")
                && matches!(cols[1], "T1" | "T2" | "T3" | "T4"))
            .then(|| (cols[0].to_string(), cols[3] == "SyntaxError"))
        })
        .collect();
    Some((dir, files))
}

pub mod lang;

/// A fresh directory for a differential test's generated programs (kept, so that a failure
/// reproduces), or `None` when z3 is missing (a failure under CI: it is pinned by
/// `scripts/setup.sh`, see [`solver_missing`]).
pub fn differential_dir(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "lapidary-{name}-differential-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("mkdir");
    triples::session(lapidary::smt::SolverKind::Z3)?;
    Some(dir)
}

/// Helpers of the brute-force Hoare-triple tests (`frame_rule`, `fast_hoare`).
pub mod triples {
    use lapidary::engine::blocks::Encoded;
    use lapidary::engine::hoare::Post;
    use lapidary::engine::predicates::{PredId, Predicates, StateId};
    use lapidary::engine::transition::Vocabulary;
    use lapidary::smt::{Session, SolverConfig, SolverKind, Term};
    use std::time::Duration;

    /// The inlined, checked program of `src` (panics on a parse or check error).
    pub fn program(src: &str) -> lapidary::ir::Program {
        let (ast, diags) = lapidary::syntax::parse(src);
        let ast = ast.unwrap_or_else(|| panic!("parse errors: {diags:?}"));
        let (prog, diags) = lapidary::ir::check_inline(&ast);
        prog.unwrap_or_else(|| panic!("check errors: {diags:?}"))
    }

    /// The block-encoded automaton of `voc`'s program (one instance per fork).
    pub fn encoded(voc: &Vocabulary, mode: lapidary::engine::BlockEncoding) -> Encoded {
        let cfa = lapidary::engine::cfa::build_with(voc, 10_000, 1).expect("cfa");
        lapidary::engine::blocks::encode(&cfa, voc, mode).expect("encoding")
    }

    /// A session of `kind` with a 10 s query limit; `None` (see [`super::solver_missing`]) when
    /// the solver is not installed.
    pub fn session(kind: SolverKind) -> Option<Session> {
        let mut c = SolverConfig::new(kind);
        c.query_timeout = Duration::from_secs(10);
        match Session::new(c) {
            Ok(s) => Some(s),
            Err(_) => {
                super::solver_missing(kind.name());
                None
            }
        }
    }

    /// The post as a set (the checker lists the holding candidates in the order it decided them).
    pub fn sorted(p: Post) -> Post {
        match p {
            Post::Holds(mut ps) => {
                ps.sort();
                Post::Holds(ps)
            }
            Post::False => Post::False,
        }
    }

    /// The letters' conjuncts over pre-state variables only, and their negations, as predicates.
    pub fn guard_predicates(
        voc: &Vocabulary,
        enc: &Encoded,
        preds: &mut Predicates,
        session: &mut Session,
    ) -> Vec<PredId> {
        let mut ids: Vec<PredId> = Vec::new();
        for l in &enc.letters {
            for c in l.tf.formula.conjuncts() {
                let pre_only = c
                    .free_vars()
                    .iter()
                    .all(|v| matches!(voc.lookup(v), Some((_, false))));
                if !pre_only {
                    continue;
                }
                for t in [c.clone(), Term::not(&c)] {
                    if let Some(p) = preds.intern(voc, &t, session)
                        && !ids.contains(&p)
                    {
                        ids.push(p);
                    }
                }
            }
        }
        ids
    }

    /// The states of at most two of `ids` (the empty state first).
    pub fn small_states(preds: &mut Predicates, ids: &[PredId]) -> Vec<StateId> {
        let mut states: Vec<StateId> = vec![preds.state(Vec::new())];
        for (i, p) in ids.iter().enumerate() {
            states.push(preds.state(vec![*p]));
            for q in &ids[i + 1..] {
                states.push(preds.state(vec![*p, *q]));
            }
        }
        states
    }
}

/// The verdicts of a differential test: `verify` on generated programs whose answer is known.
#[derive(Default)]
pub struct Verdicts {
    /// Programs answered as expected.
    pub decided: usize,
    wrong: Vec<String>,
    errors: Vec<String>,
}

impl Verdicts {
    /// Runs `verify ARGS FILE` and records its answer against `expect_unsafe`: the expected one, a
    /// contradicting SAFE / UNSAFE (wrong), UNKNOWN, or anything else (no verdict).
    pub fn run(&mut self, args: &[&str], file: &Path, expect_unsafe: bool) {
        let (expected, contradicting) = if expect_unsafe {
            ("UNSAFE", "SAFE")
        } else {
            ("SAFE", "UNSAFE")
        };
        self.run_expecting(args, file, expected, contradicting);
    }

    /// Runs `verify ARGS FILE` and records its answer: `expected`, `contradicting` (wrong),
    /// UNKNOWN, or anything else (no verdict).
    pub fn run_expecting(
        &mut self,
        args: &[&str],
        file: &Path,
        expected: &str,
        contradicting: &str,
    ) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_verify"))
            .args(["--color", "never", "--timeout", "10"])
            .args(args)
            .arg(file)
            .output()
            .expect("run verify");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let verdict = stdout
            .lines()
            .next()
            .and_then(|l| l.split(": ").nth(1))
            .and_then(|v| v.split(' ').next())
            .unwrap_or("")
            .to_string();
        match verdict.as_str() {
            v if v == expected => self.decided += 1,
            v if v == contradicting => self.wrong.push(format!(
                "{}: expected {expected}, got {verdict}\n{stdout}",
                file.display()
            )),
            "UNKNOWN" => {}
            _ => self.errors.push(format!(
                "{}: {stdout}{}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    }

    /// Fails on a wrong verdict or a run without one.
    pub fn assert_sound(&self) {
        assert!(
            self.wrong.is_empty(),
            "wrong verdicts:\n{}",
            self.wrong.join("\n")
        );
        assert!(
            self.errors.is_empty(),
            "no verdict:\n{}",
            self.errors.join("\n")
        );
    }
}

/// The next number below `n` of a linear congruential generator (Knuth's MMIX constants) in
/// `state`: reproducible random programs without a crate.
pub fn below(state: &mut u64, n: u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*state >> 33) % n
}
