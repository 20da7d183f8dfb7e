//! What the macros cost: recording into memory, and compiled in but not recording.
//!
//! `cargo bench -p cspace-recorder` prints, per batch of 1000 macro calls:
//! the throughput of `point!`/`line!` while recording (elements/s = events/s),
//! and the time of 1000 calls outside a recording scope next to 1000 empty
//! loop bodies (the difference divided by 1000 is the cost of one call).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cspace_recorder as rec;
use std::hint::black_box;
use std::time::{Duration, Instant};

const BATCH: u64 = 1000;

fn recording(c: &mut Criterion) {
    let mut g = c.benchmark_group("recording to memory");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("point! f64", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += rec::record(|| {
                    let start = Instant::now();
                    for i in 0..BATCH {
                        rec::point!(cso "w", [black_box(i as f64), 1.0, 2.0]);
                    }
                    start.elapsed()
                })
                .0;
            }
            total
        });
    });
    g.bench_function("line! f32", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += rec::record(|| {
                    let start = Instant::now();
                    for i in 0..BATCH {
                        rec::line!("n", [black_box(i as f32), 1.0, 2.0], [0.0f32, 0.0, 0.0]);
                    }
                    start.elapsed()
                })
                .0;
            }
            total
        });
    });
    g.finish();
}

fn not_recording(c: &mut Criterion) {
    let mut g = c.benchmark_group("compiled in, not recording");
    g.throughput(Throughput::Elements(BATCH));
    g.bench_function("empty loop body", |b| {
        b.iter(|| {
            for i in 0..BATCH {
                black_box([black_box(i as f64), 2.0, 3.0]);
            }
        });
    });
    g.bench_function("point! outside record", |b| {
        b.iter(|| {
            for i in 0..BATCH {
                let p = black_box([black_box(i as f64), 2.0, 3.0]);
                rec::point!(cso "w", p);
            }
        });
    });
    // Another thread records meanwhile: the macro must also read this thread's flag.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let other = {
        let stop = stop.clone();
        std::thread::Builder::new()
            .name("recording elsewhere".into())
            .spawn(move || {
                rec::record(|| {
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                })
            })
            .expect("spawn a thread")
    };
    std::thread::sleep(Duration::from_millis(5));
    g.bench_function("point! while another thread records", |b| {
        b.iter(|| {
            for i in 0..BATCH {
                let p = black_box([black_box(i as f64), 2.0, 3.0]);
                rec::point!(cso "w", p);
            }
        });
    });
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = other.join();
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = recording, not_recording
}
criterion_main!(benches);
