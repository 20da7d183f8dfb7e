//! What the recorder macros cost when nobody records.
//!
//! Runs the same GJK queries many times and prints nanoseconds per query.
//! Compare two builds:
//!
//! ```text
//! cargo run --release -p custom-gjk --bin macro-cost                        # macros compiled in
//! cargo run --release -p custom-gjk --bin macro-cost --no-default-features  # compiled out
//! ```

use custom_gjk::{gjk, scenes, vec3::V3};
use std::hint::black_box;
use std::time::Instant;

const PAIRS: usize = 1000;
const ROUNDS: usize = 31;

/// Whether the recorder macros are compiled in (cargo may have unified the
/// feature on even if this crate did not ask for it).
fn macros_compiled_in() -> bool {
    let ((), recording) = cspace_recorder::record(|| cspace_recorder::pause!("probe"));
    !recording.events().is_empty()
}

/// Nanoseconds per query of each round, sorted.
fn measure(pairs: &[(Vec<V3>, Vec<V3>)], mut run: impl FnMut(&[V3], &[V3]) -> f64) -> Vec<f64> {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let mut sum = 0.0;
            for (a, b) in pairs {
                sum += run(black_box(a), black_box(b));
            }
            black_box(sum);
            start.elapsed().as_nanos() as f64 / pairs.len() as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds
}

fn report(what: &str, rounds: &[f64]) {
    println!(
        "{what:<34} median {:8.1} ns/query   min {:8.1} ns/query",
        rounds[rounds.len() / 2],
        rounds[0]
    );
}

fn main() {
    let pairs = scenes::random_pairs(PAIRS, 9);
    let iterations: u32 = pairs
        .iter()
        .map(|(a, b)| gjk::distance(a, b).iterations)
        .sum();
    let compiled_in = macros_compiled_in();
    println!(
        "{PAIRS} queries (boxes against octahedra, {:.2} GJK iterations each), {ROUNDS} rounds",
        f64::from(iterations) / PAIRS as f64
    );
    println!(
        "feature debug-draw: {}, recorder macros: {}",
        if cfg!(feature = "debug-draw") {
            "on"
        } else {
            "off"
        },
        if compiled_in {
            "compiled in"
        } else {
            "compiled out"
        }
    );
    // Warm up caches and the branch predictor.
    measure(&pairs, |a, b| gjk::distance(a, b).distance);
    let off = measure(&pairs, |a, b| gjk::distance(a, b).distance);
    report("not recording", &off);
    // `--off-only` skips the recording runs, for instruction counts under callgrind.
    let off_only = std::env::args().any(|a| a == "--off-only");
    if compiled_in && !off_only {
        let on = measure(&pairs, |a, b| {
            let (d, recording) = cspace_recorder::record(|| gjk::distance(a, b));
            black_box(recording.bytes.len());
            d.distance
        });
        report("recording (for scale)", &on);
        // Every executed macro emits one event (plus one site definition per call site).
        let calls: usize = pairs
            .iter()
            .map(|(a, b)| {
                let (_, recording) = cspace_recorder::record(|| gjk::distance(a, b));
                recording
                    .events()
                    .iter()
                    .filter(|e| !matches!(e, cspace_recorder::Event::Site(_)))
                    .count()
            })
            .sum();
        println!(
            "macro calls executed per query: {:.1}",
            calls as f64 / PAIRS as f64
        );
    }
}
