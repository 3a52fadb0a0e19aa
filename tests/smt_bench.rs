//! Layer vs. raw pipe throughput (`verify bench-smt`). The full measurement is ignored by default:
//! `cargo test --release --test smt_bench -- --ignored --nocapture`.

mod common;

use lapidary::smt::*;

#[test]
fn bench_smoke() {
    for k in [SolverKind::Z3, SolverKind::Yices] {
        match bench_smt(k, 40) {
            Ok(r) => {
                assert_eq!(r.sat + r.unsat, 40);
                eprintln!("{k}: {r}");
            }
            Err(SmtError::NotFound { .. }) => common::solver_missing(&k.to_string()),
            Err(e) => panic!("{k}: {e}"),
        }
    }
}

#[test]
#[ignore]
fn bench_2000() {
    let n: usize = std::env::var("BENCH_QUERIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    for k in SolverKind::ALL {
        match bench_smt(k, n) {
            Ok(r) => println!(
                "{k}: N={n} total layer {:.3}s raw {:.3}s (mean ratio {:.3}) cpu/q layer {:.1}us raw {:.1}us  {r}",
                r.layer_time.as_secs_f64(),
                r.raw_time.as_secs_f64(),
                r.layer_mean_qps / r.raw_mean_qps,
                r.layer_cpu.as_secs_f64() * 1e6 / n as f64,
                r.raw_cpu.as_secs_f64() * 1e6 / n as f64
            ),
            Err(e) => println!("{k}: {e}"),
        }
    }
}
