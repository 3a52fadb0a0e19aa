//! Statistics of one verification run (`--stats`, and the `stats` object of JSON output).

use std::time::Duration;

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub iterations: usize,
    pub max_trace_length: usize,
    pub cfa_locations: usize,
    pub cfa_edges: usize,
    pub letters: usize,
    pub abstraction_states: usize,
    pub predicates: usize,
    pub fh_states: usize,
    pub htc_cache: usize,
    pub htc_syntactic: usize,
    pub htc_smt: usize,
    /// Hoare triples decided by the frame rule (a cached implication, see `engine::hoare`).
    pub htc_frame: usize,
    /// Hoare triples refuted by the model of an earlier `sat` answer of the same post (a
    /// counterexample to each, see `engine::hoare`).
    pub htc_model: usize,
    pub solver_calls: usize,
    /// Of `solver_calls`: the checks of the fast Hoare-triple solver (see `engine::hoare`).
    pub fast_hoare_calls: usize,
    #[serde(serialize_with = "secs")]
    pub solver_time: Duration,
    #[serde(serialize_with = "secs")]
    pub interpolation_time: Duration,
    #[serde(serialize_with = "secs")]
    pub qe_time: Duration,
    pub qe_solver_calls: usize,
    pub quantified_predicates: usize,
    pub perfect_sequences: usize,
    /// Invariants proven by the synthesis step (0 if it did not run or found none).
    pub invariants: usize,
    pub invariant_queries: usize,
    /// Semantic commutativity checks of the partial-order reduction (solver queries unless the
    /// composed assignments are syntactically equal).
    pub commutativity_checks: usize,
    /// Letter pairs the partial-order reduction found independent or dependent syntactically, and
    /// independence questions answered from its cache.
    pub independence_syntactic: usize,
    pub independence_cached: usize,
    /// Candidate predicates seeded at configurations of a concurrent program (Karr's equalities
    /// over its live program automaton; candidates, not proven).
    pub seeded_predicates: usize,
    /// States of the live program automaton (concurrent programs; 0 if it was not built).
    pub live_states: usize,
    /// Thread instances of the program automaton (more than one: the proof is a certificate over
    /// configurations, checked but not printed as loop invariants).
    #[serde(skip)]
    pub thread_instances: usize,
    /// Control tuples of the view of a thread-modular proof ([`super::thread_modular`]; 0 if
    /// the answer did not come from one): the proof has one invariant per tuple.
    pub thread_modular_tuples: usize,
    /// Program variables removed by cone-of-influence slicing ([`super::slice`]).
    pub sliced_variables: usize,
    /// Variables of the synchronisation abstracted away for a SAFE answer
    /// ([`super::slice::abstract_synchronization`]; 0 if the program itself was analysed).
    pub abstracted_variables: usize,
    /// Fork statements whose threads cannot influence anything, removed ([`super::slice`]).
    pub idle_forks: usize,
    #[serde(serialize_with = "secs")]
    pub invariant_time: Duration,
    /// Runs of the deep search ([`super::bmc`]; 0 or 1), the depth it reached (letters; the
    /// length of the trace it found) and its time.
    pub bmc_runs: usize,
    pub bmc_depth: usize,
    /// The depth at which the deep search's unrolling ran out of executions, when that proved the
    /// program SAFE (0 otherwise; not serialised then).
    #[serde(skip_serializing_if = "is_zero")]
    pub bmc_exhausted: usize,
    #[serde(serialize_with = "secs")]
    pub bmc_time: Duration,
    /// Safety by execution ([`super::termination::execute::check_safety`]): the steps of the
    /// path it executed (0 when it did not decide) and its time.
    pub execution_steps: u64,
    #[serde(serialize_with = "secs")]
    pub execution_time: Duration,
    #[serde(serialize_with = "secs")]
    pub total_time: Duration,
    /// What a termination run did (`--property termination`; `None` otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<TerminationStats>,
}

/// The work of a termination run, per technique (`engine::termination`).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TerminationStats {
    /// The technique that decided (`executor`, `ranking`, `gnta`, `buchi`, `fixpoint`,
    /// `witness`), empty when none did.
    pub decided_by: String,
    /// Runs of the explicit-state executor (symbolic and witness mode).
    pub executor_runs: usize,
    /// Ranking syntheses over the whole program (one per block encoding tried).
    pub ranking_runs: usize,
    /// Solver checks of ranking synthesis and certificate re-checks (whole program and lassos).
    pub ranking_queries: usize,
    /// Iterations of the Büchi loop (lasso searches) and lassos checked.
    pub buchi_iterations: usize,
    pub lassos: usize,
    /// Refinements by infeasible stems or loops (Floyd–Hoare) and by rank certificates (NCSB).
    pub finite_refinements: usize,
    pub rank_refinements: usize,
    /// Ranking syntheses tried on lassos.
    pub lasso_rankings: usize,
    /// States of the Büchi loop's largest abstraction.
    pub abstraction_states: usize,
    /// Hoare triples of rank certificates sent to the solver.
    pub rank_triples: usize,
    /// The time of each technique that ran, in the order they first ran (repeated runs summed).
    #[serde(serialize_with = "phase_secs")]
    pub phases: Vec<(&'static str, Duration)>,
}

fn phase_secs<S: serde::Serializer>(
    ps: &[(&'static str, Duration)],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(Some(ps.len()))?;
    for (t, d) in ps {
        m.serialize_entry(t, &((d.as_secs_f64() * 1e4).round() / 1e4))?;
    }
    m.end()
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1e4).round() / 1e4)
}

impl Stats {
    /// Adds the counters of `other` (kept by a sub-component) into `self`.
    pub fn absorb(&mut self, other: &Stats) {
        self.htc_cache += other.htc_cache;
        self.htc_syntactic += other.htc_syntactic;
        self.htc_smt += other.htc_smt;
        self.htc_frame += other.htc_frame;
        self.htc_model += other.htc_model;
        self.qe_time += other.qe_time;
        self.qe_solver_calls += other.qe_solver_calls;
        self.quantified_predicates += other.quantified_predicates;
        self.interpolation_time += other.interpolation_time;
    }

    pub fn to_text(&self) -> String {
        if let Some(t) = &self.termination {
            return t.to_text(self);
        }
        let mut text = self.base_text();
        if self.fast_hoare_calls > 0 {
            text.push_str(&format!(
                "  fast Hoare-triple solver: {} of the solver calls\n",
                self.fast_hoare_calls
            ));
        }
        if self.htc_frame > 0 {
            text.push_str(&format!(
                "  frame rule: {} Hoare triples decided by a cached implication\n",
                self.htc_frame
            ));
        }
        if self.htc_model > 0 {
            text.push_str(&format!(
                "  models: {} Hoare triples refuted by the model of another query\n",
                self.htc_model
            ));
        }
        if self.execution_steps > 0 {
            text.push_str(&format!(
                "  execution: {} steps in {:.3} s\n",
                self.execution_steps,
                self.execution_time.as_secs_f64()
            ));
        }
        if self.bmc_runs > 0 {
            text.push_str(&format!(
                "  deep search: depth {} in {:.3} s\n",
                self.bmc_depth,
                self.bmc_time.as_secs_f64()
            ));
        }
        if self.sliced_variables + self.idle_forks > 0 {
            text.push_str(&format!(
                "  slicing: {} variables outside the cone of influence and {} fork statements of \
                 threads without effect removed\n",
                self.sliced_variables, self.idle_forks
            ));
        }
        if self.thread_modular_tuples > 0 {
            text.push_str(&format!(
                "  thread-modular proof: {} control tuples of the view\n",
                self.thread_modular_tuples
            ));
        }
        if self.abstracted_variables > 0 {
            text.push_str(&format!(
                "  synchronisation: {} variables abstracted away (the run was on an over-approximation)\n",
                self.abstracted_variables
            ));
        }
        if self.commutativity_checks + self.independence_syntactic + self.independence_cached > 0 {
            text.push_str(&format!(
                "  independence: {} syntactic, {} semantic (solver), {} cached\n",
                self.independence_syntactic, self.commutativity_checks, self.independence_cached
            ));
        }
        if self.live_states > 0 || self.seeded_predicates > 0 {
            text.push_str(&format!(
                "  live program automaton: {} states; {} candidate predicates seeded at configurations\n",
                self.live_states, self.seeded_predicates
            ));
        }
        text
    }

    fn base_text(&self) -> String {
        let share = if self.total_time.as_secs_f64() > 0.0 {
            100.0 * self.solver_time.as_secs_f64() / self.total_time.as_secs_f64()
        } else {
            0.0
        };
        format!(
            "statistics:\n  iterations: {}\n  longest trace: {} letters\n  CFA: {} locations, {} edges; {} letters after block encoding\n  abstraction: {} states explored (all emptiness checks)\n  predicates: {}, Floyd–Hoare states: {}\n  Hoare triples: {} cache, {} syntactic, {} SMT\n  solver: {} calls, {:.3} s ({:.0}% of {:.3} s)\n  interpolation: {:.3} s; QE: {:.3} s, {} solver QE calls, {} quantified predicates\n  perfect sequences: {}\n  invariants: {} proven, {} Houdini queries, {:.3} s\n",
            self.iterations,
            self.max_trace_length,
            self.cfa_locations,
            self.cfa_edges,
            self.letters,
            self.abstraction_states,
            self.predicates,
            self.fh_states,
            self.htc_cache,
            self.htc_syntactic,
            self.htc_smt,
            self.solver_calls,
            self.solver_time.as_secs_f64(),
            share,
            self.total_time.as_secs_f64(),
            self.interpolation_time.as_secs_f64(),
            self.qe_time.as_secs_f64(),
            self.qe_solver_calls,
            self.quantified_predicates,
            self.perfect_sequences,
            self.invariants,
            self.invariant_queries,
            self.invariant_time.as_secs_f64(),
        )
    }
}

impl TerminationStats {
    /// The `--stats` text of a termination run (`all` holds the Floyd–Hoare counters of the Büchi
    /// loop and the run's time).
    fn to_text(&self, all: &Stats) -> String {
        let decided = if self.decided_by.is_empty() {
            "nothing"
        } else {
            &self.decided_by
        };
        let phases: Vec<String> = self
            .phases
            .iter()
            .map(|(t, d)| format!("{t} {:.3} s", d.as_secs_f64()))
            .collect();
        let phases = if phases.is_empty() {
            "none".to_string()
        } else {
            phases.join(", ")
        };
        format!(
            "statistics (termination):\n  decided by: {decided}\n  techniques: {phases}\n  executor runs: {}\n  ranking: {} runs over the program, {} solver checks (program and lassos)\n  Büchi loop: {} iterations, {} lassos, {} ranked, {} finite refinements; {} rank-certificate triples; at most {} abstraction states\n  Floyd–Hoare (Büchi loop): {} predicates, {} states; Hoare triples: {} cache, {} syntactic, {} SMT\n  time: {:.3} s\n",
            self.executor_runs,
            self.ranking_runs,
            self.ranking_queries,
            self.buchi_iterations,
            self.lassos,
            self.rank_refinements,
            self.finite_refinements,
            self.rank_triples,
            self.abstraction_states,
            all.predicates,
            all.fh_states,
            all.htc_cache,
            all.htc_syntactic,
            all.htc_smt,
            all.total_time.as_secs_f64(),
        )
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}
