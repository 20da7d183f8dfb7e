//! cspace against parry3d 0.31 on identical shapes and poses, in one run.
//!
//! `cargo bench --bench versus_parry` prints, per query kind and shape family,
//! the time per query of each and the ratio cspace / parry (below 1 is faster),
//! then the default method per query kind and shape pair (`box-cone`, …: the
//! mixed family's shapes, 200 scenes each). Shapes and poses are built before
//! timing; each figure is the best of several interleaved passes over 1000
//! configurations, so both engines see the same machine load. `--quick` runs
//! fewer passes. The recorder's price is printed last: run once more with
//! `--no-default-features` to get the compiled-out figure.

use cspace::{Pose, Real, Rotation, Shape, V3, Vector, epa, gjk, mpr, signed, sweep};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Instant;

#[path = "versus_parry/scenes.rs"]
mod scenes;
use scenes::{
    FAMILIES, PAIR_KINDS, PAIR_SCENES, Rng, Scene, Spec, cspace_pair, cspace_pose, cspace_shape,
    gap_of, overlapping, race, random_spec, scenes, scenes_of, short,
};

/// `--only QUERY [SET]`: run just that query kind (`distance`, `intersect`,
/// `penetration`, `signed`, `sweep`, `coherent`, `spread`, `recorder`),
/// optionally one shape family or pair (`cyl-sphere`); for profiling under
/// callgrind.
static ONLY: OnceLock<Option<(String, Option<String>)>> = OnceLock::new();

/// `--prec f64|f32`: run just that precision (both when absent).
static PREC: OnceLock<Option<String>> = OnceLock::new();

/// Whether precision `prec` is selected by `--prec`.
fn precision_selected(prec: &str) -> bool {
    PREC.get()
        .and_then(Option::as_ref)
        .is_none_or(|p| p == prec)
}

/// Whether `query` on `family` is selected by `--only`.
fn selected(query: &str, family: &str) -> bool {
    match ONLY.get().and_then(Option::as_ref) {
        None => true,
        Some((q, f)) => q == query && f.as_ref().is_none_or(|f| f == family),
    }
}

/// A named cspace method under test.
type Method<'x> = (&'static str, Box<dyn FnMut() + 'x>);
/// A sweep function of cspace.
type SweepFn =
    fn(&cspace::Placed<'_, f64>, glam::DVec3, &cspace::Placed<'_, f64>) -> sweep::Sweep<f64>;
/// Two shapes, A's pose and B's poses over the frames of a coherent motion.
type Moving<T> = (Shape<T>, Pose<T>, Shape<T>, Vec<Pose<T>>);
/// Two shapes in their poses.
type Pair<T> = (Shape<T>, Pose<T>, Shape<T>, Pose<T>);
/// One prepared scene of precision `T`.
type Prepared<T> = (Shape<T>, Pose<T>, Shape<T>, Pose<T>, V3<T>);

fn placed<T: Real>(c: &Prepared<T>) -> (cspace::Placed<'_, T>, cspace::Placed<'_, T>, V3<T>) {
    (
        cspace::Placed::new(&c.0, c.1),
        cspace::Placed::new(&c.2, c.3),
        c.4,
    )
}

/// A timed pass of one cspace method: `f` on every prepared scene (shapes A
/// and B in their poses, and A's motion for sweeps).
fn each<'x, T: Real, R>(
    cs: &'x [Prepared<T>],
    f: impl Fn(&cspace::Placed<'_, T>, &cspace::Placed<'_, T>, V3<T>) -> R + 'x,
) -> Box<dyn FnMut() + 'x> {
    Box::new(move || {
        for c in cs {
            let (a, b, m) = placed(c);
            black_box(f(&a, &b, m));
        }
    })
}

/// The query kinds compared, in order.
const QUERIES: [&str; 5] = ["distance", "intersect", "penetration", "signed", "sweep"];

/// Scenes of `query`: penetration keeps the pairs that overlap (checked in
/// f64), as contact generation sees; sweeps start A on the far side.
fn for_query(query: &str, mut sc: Vec<Scene>) -> Vec<Scene> {
    if query == "penetration" {
        sc = overlapping(sc);
    }
    if query == "sweep" {
        for s in &mut sc {
            s.pa = s.start;
        }
    }
    sc
}

macro_rules! versus {
    ($parry:ident, $t:ty, $prec:literal, $passes:expr, $rows:expr) => {{
        use $parry::math::{Pose as PPose, Vector as PVec};
        use $parry::query as pq;
        use $parry::shape::{Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, SharedShape};

        /// An f64 value in this run's precision.
        fn real(x: f64) -> $t {
            <$t as Real>::from_f64(x)
        }
        fn parry_shape(s: &Spec) -> SharedShape {
            let v = |p: &[f64; 3]| PVec::new(real(p[0]), real(p[1]), real(p[2]));
            match s {
                Spec::Cuboid(h) => SharedShape::new(Cuboid::new(v(h))),
                Spec::Hull(points) => SharedShape::new(
                    ConvexPolyhedron::from_convex_hull(&points.iter().map(v).collect::<Vec<_>>())
                        .expect("random points on a sphere have a hull"),
                ),
                Spec::Cylinder(hh, r) => SharedShape::new(Cylinder::new(real(*hh), real(*r))),
                Spec::Capsule(hh, r) => SharedShape::new(Capsule::new_y(real(*hh), real(*r))),
                Spec::Cone(hh, r) => SharedShape::new(Cone::new(real(*hh), real(*r))),
                Spec::Sphere(r) => SharedShape::new(Ball::new(real(*r))),
            }
        }
        fn parry_pose(p: &([f64; 3], [f64; 4])) -> PPose {
            let q = p.1;
            PPose::from_parts(
                PVec::new(real(p.0[0]), real(p.0[1]), real(p.0[2])),
                $parry::math::Rotation::from_xyzw(real(q[0]), real(q[1]), real(q[2]), real(q[3]))
                    .normalize(),
            )
        }
        /// The scenes built for cspace.
        fn prepared(sc: &[Scene]) -> Vec<Prepared<$t>> {
            sc.iter()
                .map(|s| {
                    let (a, pa, b, pb) = cspace_pair(s);
                    (a, pa, b, pb, V3::<$t>::from_f64(s.motion))
                })
                .collect()
        }
        /// The scenes built for parry.
        fn parry_scenes(sc: &[Scene]) -> Vec<(SharedShape, PPose, SharedShape, PPose, PVec)> {
            sc.iter()
                .map(|s| {
                    (
                        parry_shape(&s.a),
                        parry_pose(&s.pa),
                        parry_shape(&s.b),
                        parry_pose(&s.pb),
                        PVec::new(real(s.motion[0]), real(s.motion[1]), real(s.motion[2])),
                    )
                })
                .collect()
        }

        /// Best-of-`passes` ns per query of parry (first) and of cspace's
        /// methods for `query` on `sc` (all of them, or the default only),
        /// interleaved; with the methods' names.
        fn timed(query: &str, sc: &[Scene], passes: usize, all: bool) -> (Vec<&'static str>, Vec<f64>) {
            let cs = prepared(sc);
            let ps = parry_scenes(sc);
            let mut run_parry: Box<dyn FnMut()> = match query {
                "distance" => Box::new(|| {
                    for p in &ps {
                        black_box(pq::distance(&p.1, &*p.0, &p.3, &*p.2).ok());
                    }
                }),
                "intersect" => Box::new(|| {
                    for p in &ps {
                        black_box(pq::intersection_test(&p.1, &*p.0, &p.3, &*p.2).ok());
                    }
                }),
                "penetration" => Box::new(|| {
                    for p in &ps {
                        black_box(pq::contact(&p.1, &*p.0, &p.3, &*p.2, 0.0).ok());
                    }
                }),
                // Parry's signed distance: a contact with a prediction beyond
                // every scene's distance (its `dist` is negative overlapping).
                "signed" => Box::new(|| {
                    for p in &ps {
                        black_box(pq::contact(&p.1, &*p.0, &p.3, &*p.2, real(1e3)).ok());
                    }
                }),
                _ => Box::new(|| {
                    for p in &ps {
                        black_box(
                            pq::cast_shapes(
                                &p.1,
                                p.4,
                                &*p.0,
                                &p.3,
                                PVec::ZERO,
                                &*p.2,
                                pq::ShapeCastOptions::with_max_time_of_impact(1.0),
                            )
                            .ok(),
                        );
                    }
                }),
            };
            // A looser tolerance, still tighter than parry's accuracy
            // (see the accuracy line): speed at comparable accuracy.
            let loose = real(if $prec == "f64" { 1e-7 } else { 1e-3 });
            let mut methods: Vec<Method<'_>> = match query {
                "distance" => vec![
                    ("gjk", each(&cs, |a, b, _| gjk::distance(a, b))),
                    (
                        "gjk-loose",
                        each(&cs, move |a, b, _| gjk::distance_with_tolerance(a, b, loose)),
                    ),
                ],
                "intersect" => vec![
                    ("mpr", each(&cs, |a, b, _| mpr::intersect(a, b))),
                    ("gjk", each(&cs, |a, b, _| gjk::intersect(a, b))),
                ],
                "penetration" => vec![
                    ("epa", each(&cs, |a, b, _| epa::penetration(a, b))),
                    ("mpr", each(&cs, |a, b, _| mpr::penetration(a, b))),
                ],
                "signed" => vec![
                    ("epa", each(&cs, |a, b, _| signed::signed_distance(a, b))),
                    (
                        "mpr",
                        each(&cs, |a, b, _| signed::signed_distance_with(a, b, signed::Depth::Mpr)),
                    ),
                ],
                _ => vec![
                    ("raycast", each(&cs, |a, b, m| sweep::ray_cast(a, m, b))),
                    ("ca", each(&cs, |a, b, m| sweep::conservative_advancement(a, m, b))),
                    ("swept-mpr", each(&cs, |a, b, m| sweep::swept_mpr(a, m, b))),
                ],
            };
            // The default method (`Algorithm::default_for`) comes first.
            if !all {
                methods.truncate(1);
            }
            let mut fs: Vec<&mut dyn FnMut()> = vec![&mut *run_parry];
            for m in &mut methods {
                fs.push(&mut *m.1);
            }
            let t = race(passes, sc.len(), &mut fs);
            drop(fs);
            (methods.iter().map(|m| m.0).collect(), t)
        }

        /// By how much each engine's distance exceeds the other's at worst,
        /// relative to the shapes' size: both return an upper bound of the
        /// distance (GJK's |v|), so the lower is nearer the truth.
        fn accuracy(sc: &[Scene]) -> (f64, f64, f64) {
            let loose = real(if $prec == "f64" { 1e-7 } else { 1e-3 });
            let (cs, ps) = (prepared(sc), parry_scenes(sc));
            let (mut parry_over, mut ours_over, mut loose_over) = (0.0_f64, 0.0_f64, 0.0_f64);
            for (c, (p, s)) in cs.iter().zip(ps.iter().zip(sc)) {
                let (a, b, _) = placed(c);
                let ours = gjk::distance(&a, &b).distance.to_f64();
                let ours_loose = gjk::distance_with_tolerance(&a, &b, loose).distance.to_f64();
                let theirs = pq::distance(&p.1, &*p.0, &p.3, &*p.2)
                    .map_or(f64::NAN, |d| f64::from(d.distance));
                let size = s.a.size() + s.b.size();
                parry_over = parry_over.max((theirs - ours) / size);
                ours_over = ours_over.max((ours - theirs) / size);
                loose_over = loose_over.max((ours_loose - ours) / size);
            }
            (parry_over, ours_over, loose_over)
        }

        let row = |query: &str, set: &str, name: &str, t: &[f64], i: usize| {
            format!(
                "{:<12} {:<4} {:<14} {:<10} {:>10.1} {:>10.1} {:>7.2}",
                query, $prec, set, name, t[i + 1], t[0], t[i + 1] / t[0]
            )
        };
        let families: Vec<&str> = FAMILIES.iter().copied().chain(["spheres"]).collect();
        for (qi, query) in QUERIES.iter().enumerate() {
            for (fi, family) in families.iter().enumerate() {
                // Sphere pairs are timed for sweeps only here (both engines'
                // closed forms); the pair rows below have every kind.
                if !selected(query, family) || (*family == "spheres" && *query != "sweep") {
                    continue;
                }
                let sc = for_query(query, scenes(family, gap_of(query), 7 + 100 * qi as u64 + fi as u64));
                let (names, t) = timed(query, &sc, $passes, true);
                if *query == "distance" {
                    let (parry_over, ours_over, loose_over) = accuracy(&sc);
                    $rows.push(format!(
                        "{:<12} {:<4} {:<14} accuracy (of the sizes): parry above gjk by up to {:.1e}, gjk above parry {:.1e}, gjk-loose above gjk {:.1e}",
                        query, $prec, family, parry_over, ours_over, loose_over
                    ));
                }
                if *query == "penetration" {
                    $rows.push(format!(
                        "{:<12} {:<4} {:<14} {} of 1000 scenes overlap (the others are skipped)",
                        query, $prec, family, sc.len()
                    ));
                }
                for (i, name) in names.iter().enumerate() {
                    $rows.push(row(query, family, name, &t, i));
                }
            }
        }
        // Per shape pair (the mixed family's shapes, issue 18): the default
        // method only, on 200 scenes of each pair.
        for (qi, query) in QUERIES.iter().enumerate() {
            for (i, ka) in PAIR_KINDS.iter().enumerate() {
                for (j, kb) in PAIR_KINDS.iter().enumerate().skip(i) {
                    let pair = format!("{}-{}", short(ka), short(kb));
                    if !selected(query, &pair) {
                        continue;
                    }
                    let seed = 5000 + 100 * qi as u64 + 10 * i as u64 + j as u64;
                    let sc = for_query(query, scenes_of(ka, kb, gap_of(query), seed, PAIR_SCENES));
                    if sc.is_empty() {
                        $rows.push(format!("{:<12} {:<4} {:<14} no scene overlaps", query, $prec, pair));
                        continue;
                    }
                    let (names, t) = timed(query, &sc, $passes, false);
                    $rows.push(row(query, &pair, names[0], &t, 0));
                }
            }
        }
    }};
}

/// Coherent motion: B drifts a little each frame; cold GJK vs warm-started,
/// per family, then per pair of the mixed family's shapes.
fn coherent<T: Real>(passes: usize, rows: &mut Vec<String>) {
    for family in ["boxes", "hull16", "hull64", "cylinders", "mixed"] {
        if selected("coherent", family) {
            coherent_row::<T>(family, &scenes(family, (1.05, 1.4), 99), passes, rows);
        }
    }
    for (i, ka) in PAIR_KINDS.iter().enumerate() {
        for (j, kb) in PAIR_KINDS.iter().enumerate().skip(i) {
            let pair = format!("{}-{}", short(ka), short(kb));
            if selected("coherent", &pair) {
                let seed = 7000 + 10 * i as u64 + j as u64;
                let sc = scenes_of(ka, kb, (1.05, 1.4), seed, 100);
                coherent_row::<T>(&pair, &sc, passes, rows);
            }
        }
    }
}

/// One coherent row: the first 100 of `sc` over 60 frames each.
fn coherent_row<T: Real>(label: &str, sc: &[Scene], passes: usize, rows: &mut Vec<String>) {
    let frames = 60;
    let pairs: Vec<Moving<T>> = sc
        .iter()
        .take(100)
        .map(|s| {
            let b0 = cspace_pose::<T>(&s.pb);
            let step = <T::Q as Rotation<T>>::from_axis_angle(
                V3::<T>::from_f64(Rng(s.motion[0].to_bits()).unit()),
                T::from_f64(0.01),
            );
            let drift = V3::<T>::from_f64([0.002, -0.001, 0.0015]);
            let mut poses = Vec::with_capacity(frames);
            let mut p = b0;
            for _ in 0..frames {
                poses.push(p);
                p = Pose::new(p.position + drift, step.then(p.rotation));
            }
            (
                cspace_shape(&s.a),
                cspace_pose(&s.pa),
                cspace_shape(&s.b),
                poses,
            )
        })
        .collect();
    let n = pairs.len() * frames;
    let mut cold = || {
        for (a, pa, b, poses) in &pairs {
            for pb in poses {
                black_box(gjk::distance(
                    &cspace::Placed::new(a, *pa),
                    &cspace::Placed::new(b, *pb),
                ));
            }
        }
    };
    let mut warm = || {
        for (a, pa, b, poses) in &pairs {
            let mut cache = gjk::SimplexCache::default();
            for pb in poses {
                black_box(gjk::distance_warm(
                    &cspace::Placed::new(a, *pa),
                    &cspace::Placed::new(b, *pb),
                    &mut cache,
                ));
            }
        }
    };
    let t = race(passes, n, &mut [&mut cold, &mut warm]);
    // Mean support evaluations per query, outside the timed passes.
    let (mut it_cold, mut it_warm) = (0u64, 0u64);
    for (a, pa, b, poses) in &pairs {
        let mut cache = gjk::SimplexCache::default();
        for pb in poses {
            let (pa, pb) = (cspace::Placed::new(a, *pa), cspace::Placed::new(b, *pb));
            it_cold += u64::from(gjk::distance(&pa, &pb).iterations);
            it_warm += u64::from(gjk::distance_warm(&pa, &pb, &mut cache).iterations);
        }
    }
    rows.push(format!(
        "{:<12} {:<4} {:<14} cold {:>8.1} ns  warm {:>8.1} ns  speed-up {:>5.2}x  iterations {:.2} / {:.2}",
        "coherent",
        if T::PRECISION == cspace_recorder::Precision::F32 {
            "f32"
        } else {
            "f64"
        },
        label,
        t[0],
        t[1],
        t[0] / t[1],
        it_cold as f64 / n as f64,
        it_warm as f64 / n as f64
    ));
}

/// Min / mean / max time of each sweep method over 10 000 casts with different angles.
fn sweep_spread(rows: &mut Vec<String>) {
    for family in ["boxes", "cylinders", "hull64"] {
        if !selected("spread", family) {
            continue;
        }
        let mut rng = Rng(4242);
        let a = cspace_shape::<f64>(&random_spec(&mut rng, family));
        let b = cspace_shape::<f64>(&random_spec(&mut rng, family));
        let casts: Vec<(Pose<f64>, Pose<f64>, glam::DVec3)> = (0..10_000)
            .map(|_| {
                let dir = glam::DVec3::from_array(rng.unit());
                let start = dir * 4.0;
                let aim = glam::DVec3::from_array(rng.unit()) * 0.8;
                (
                    cspace_pose(&(start.to_array(), rng.quat())),
                    cspace_pose(&([0.0; 3], rng.quat())),
                    (aim - start) * 1.5,
                )
            })
            .collect();
        let methods: [(&str, SweepFn); 3] = [
            ("ca", sweep::conservative_advancement),
            ("raycast", sweep::ray_cast),
            ("swept-mpr", sweep::swept_mpr),
        ];
        for (name, f) in methods {
            let mut times = Vec::with_capacity(casts.len());
            for (pa, pb, m) in &casts {
                let (sa, sb) = (cspace::Placed::new(&a, *pa), cspace::Placed::new(&b, *pb));
                let t = Instant::now();
                for _ in 0..8 {
                    black_box(f(&sa, *m, &sb));
                }
                times.push(t.elapsed().as_secs_f64() * 1e9 / 8.0);
            }
            let min = times.iter().copied().fold(f64::INFINITY, f64::min);
            let max = times.iter().copied().fold(0.0, f64::max);
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            rows.push(format!(
                "{:<12} {:<4} {:<10} {:<10} min {:>8.1} mean {:>8.1} max {:>9.1} ns",
                "sweep-spread", "f64", family, name, min, mean, max
            ));
        }
    }
}

/// The same GJK loop not recording and recording (compiled out: run with --no-default-features).
fn recorder_price(passes: usize, rows: &mut Vec<String>) {
    // `--only recorder off`: just the not-recording loop, for instruction counts.
    let off_only = selected("recorder", "off") && !selected("recorder", "mixed");
    if !selected("recorder", "mixed") && !off_only {
        return;
    }
    let sc = scenes("mixed", (1.02, 1.6), 12345);
    let cs: Vec<Pair<f64>> = sc
        .iter()
        .map(|s| {
            (
                cspace_shape(&s.a),
                cspace_pose(&s.pa),
                cspace_shape(&s.b),
                cspace_pose(&s.pb),
            )
        })
        .collect();
    let mut off = || {
        for c in &cs {
            black_box(gjk::distance(
                &cspace::Placed::new(&c.0, c.1),
                &cspace::Placed::new(&c.2, c.3),
            ));
        }
    };
    let mut on = || {
        for c in &cs {
            let (r, rec) = cspace_recorder::record(|| {
                gjk::distance(
                    &cspace::Placed::new(&c.0, c.1),
                    &cspace::Placed::new(&c.2, c.3),
                )
            });
            black_box((r, rec));
        }
    };
    if off_only {
        let t = race(passes, cs.len(), &mut [&mut off]);
        rows.push(format!(
            "recorder     f64  mixed      gjk, not recording {:>8.1} ns",
            t[0]
        ));
        return;
    }
    let t = race(passes, cs.len(), &mut [&mut off, &mut on]);
    let compiled = if cfg!(feature = "record") {
        "compiled in"
    } else {
        "compiled out"
    };
    rows.push(format!(
        "recorder     f64  mixed      gjk, macros {compiled}, not recording {:>8.1} ns",
        t[0]
    ));
    rows.push(format!(
        "recorder     f64  mixed      gjk, macros {compiled}, recording     {:>8.1} ns",
        t[1]
    ));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only_recorder = args.iter().any(|a| a == "--recorder");
    let only = args.iter().position(|a| a == "--only").map(|i| {
        (
            args.get(i + 1).cloned().unwrap_or_default(),
            args.get(i + 2).filter(|f| !f.starts_with("--")).cloned(),
        )
    });
    ONLY.set(only).expect("set once");
    let prec = args
        .iter()
        .position(|a| a == "--prec")
        .and_then(|i| args.get(i + 1).cloned());
    PREC.set(prec).expect("set once");
    let passes = if quick { 3 } else { 15 };
    let mut rows = Vec::new();
    if !only_recorder {
        println!(
            "{:<12} {:<4} {:<10} {:<10} {:>10} {:>10} {:>7}",
            "query", "prec", "family", "method", "cspace ns", "parry ns", "ratio"
        );
        if precision_selected("f64") {
            versus!(parry3d_f64, f64, "f64", passes, rows);
        }
        if precision_selected("f32") {
            versus!(parry3d, f32, "f32", passes, rows);
        }
        for r in rows.drain(..) {
            println!("{r}");
        }
        if precision_selected("f64") {
            coherent::<f64>(passes, &mut rows);
        }
        if precision_selected("f32") {
            coherent::<f32>(passes, &mut rows);
        }
        sweep_spread(&mut rows);
    }
    recorder_price(passes, &mut rows);
    for r in rows {
        println!("{r}");
    }
}
