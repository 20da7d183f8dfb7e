//! cspace against parry3d 0.31 on identical shapes and poses, in one run.
//!
//! `cargo bench --bench versus_parry` prints, per query kind and shape family,
//! the time per query of each and the ratio cspace / parry (below 1 is faster).
//! Shapes and poses are built before timing; each figure is the best of
//! several interleaved passes over 1000 configurations, so both engines see the
//! same machine load. `--quick` runs fewer passes. The recorder's price is
//! printed last: run once more with `--no-default-features` to get the
//! compiled-out figure.

use cspace::{Pose, Real, Rotation, Shape, V3, Vector, epa, gjk, mpr, sweep};
use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Instant;

/// `--only QUERY [FAMILY]`: run just that query kind (`distance`, `intersect`,
/// `penetration`, `sweep`, `coherent`, `spread`, `recorder`), optionally one
/// shape family; for profiling under callgrind.
static ONLY: OnceLock<Option<(String, Option<String>)>> = OnceLock::new();

/// Whether `query` on `family` is selected by `--only`.
fn selected(query: &str, family: &str) -> bool {
    match ONLY.get().and_then(Option::as_ref) {
        None => true,
        Some((q, f)) => q == query && f.as_ref().is_none_or(|f| f == family),
    }
}

/// splitmix64: a deterministic generator so every run sees the same scenes.
struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn f(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn unit(&mut self) -> [f64; 3] {
        loop {
            let v = [
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            ];
            let l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            if l2 > 1e-4 && l2 <= 1.0 {
                let l = l2.sqrt();
                return [v[0] / l, v[1] / l, v[2] / l];
            }
        }
    }
    fn quat(&mut self) -> [f64; 4] {
        let axis = self.unit();
        let angle = self.range(0.0, std::f64::consts::TAU);
        let (s, c) = (angle * 0.5).sin_cos();
        [axis[0] * s, axis[1] * s, axis[2] * s, c]
    }
}

/// A shape description both engines are built from.
#[derive(Clone, Debug)]
enum Spec {
    Cuboid([f64; 3]),
    Hull(Vec<[f64; 3]>),
    Cylinder(f64, f64),
    Capsule(f64, f64),
    Cone(f64, f64),
    Sphere(f64),
}

impl Spec {
    fn size(&self) -> f64 {
        match self {
            Self::Cuboid(h) => (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt(),
            Self::Hull(_) | Self::Sphere(_) => match self {
                Self::Sphere(r) => *r,
                _ => 1.0,
            },
            Self::Cylinder(hh, r) | Self::Cone(hh, r) => (hh * hh + r * r).sqrt(),
            Self::Capsule(hh, r) => hh + r,
        }
    }
}

fn random_spec(rng: &mut Rng, family: &str) -> Spec {
    match family {
        "boxes" => Spec::Cuboid([
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
        ]),
        "hull16" => Spec::Hull((0..16).map(|_| rng.unit()).collect()),
        "hull64" => Spec::Hull((0..64).map(|_| rng.unit()).collect()),
        "cylinders" => Spec::Cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5)),
        "capsules" => Spec::Capsule(rng.range(0.3, 1.5), rng.range(0.2, 0.8)),
        "spheres" => Spec::Sphere(rng.range(0.3, 1.5)),
        _ => match rng.next_u64() % 6 {
            0 => random_spec(rng, "boxes"),
            1 => random_spec(rng, "hull16"),
            2 => random_spec(rng, "cylinders"),
            3 => random_spec(rng, "capsules"),
            4 => Spec::Cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5)),
            _ => Spec::Sphere(rng.range(0.3, 1.5)),
        },
    }
}

/// One scene: two shapes and their poses, plus a start and motion of A for sweeps.
#[derive(Clone, Debug)]
struct Scene {
    a: Spec,
    b: Spec,
    /// A's pose for the static queries: centres `gap × (size A + size B)` apart.
    pa: ([f64; 3], [f64; 4]),
    pb: ([f64; 3], [f64; 4]),
    /// A's pose for sweeps: twice as far, on the far side of B.
    start: ([f64; 3], [f64; 4]),
    motion: [f64; 3],
}

/// `gap` scales the centre distance relative to the sum of the shapes'
/// bounding radii: > 1 apart, < 1 the bounding spheres overlap.
fn scenes(family: &str, gap: (f64, f64), seed: u64) -> Vec<Scene> {
    let mut rng = Rng(seed);
    (0..1000)
        .map(|_| {
            let a = random_spec(&mut rng, family);
            let b = random_spec(&mut rng, family);
            let dir = rng.unit();
            let d = (a.size() + b.size()) * rng.range(gap.0, gap.1);
            let pa = ([0.0; 3], rng.quat());
            let pb = ([dir[0] * d, dir[1] * d, dir[2] * d], rng.quat());
            // Sweeps: A starts on the far side, 2d from B, and aims at B with some spread.
            let aim = rng.unit();
            let m = 2.0 * d;
            let motion = [
                dir[0] * m + aim[0] * 0.3 * m,
                dir[1] * m + aim[1] * 0.3 * m,
                dir[2] * m + aim[2] * 0.3 * m,
            ];
            Scene {
                a,
                b,
                pa,
                pb,
                start: ([-dir[0] * d, -dir[1] * d, -dir[2] * d], pa.1),
                motion,
            }
        })
        .collect()
}

fn cspace_shape<T: Real>(s: &Spec) -> Shape<T> {
    let v = |p: &[f64; 3]| V3::<T>::from_f64(*p);
    let t = T::from_f64;
    match s {
        Spec::Cuboid(h) => Shape::cuboid(v(h)),
        Spec::Hull(points) => Shape::hull(points.iter().map(v).collect()),
        Spec::Cylinder(hh, r) => Shape::cylinder(t(*hh), t(*r)),
        Spec::Capsule(hh, r) => Shape::capsule(t(*hh), t(*r)),
        Spec::Cone(hh, r) => Shape::cone(t(*hh), t(*r)),
        Spec::Sphere(r) => Shape::sphere(t(*r)),
    }
}

fn cspace_pose<T: Real>(p: &([f64; 3], [f64; 4])) -> Pose<T> {
    Pose::new(
        V3::<T>::from_f64(p.0),
        <T::Q as Rotation<T>>::from_xyzw(p.1.map(T::from_f64)),
    )
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

/// Best-of-`passes` nanoseconds per query for each of the closures, interleaved.
fn race(passes: usize, n: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; fs.len()];
    for _ in 0..passes {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = Instant::now();
            f();
            best[i] = best[i].min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
        }
    }
    best
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

        let families = [
            "boxes",
            "hull16",
            "hull64",
            "cylinders",
            "capsules",
            "mixed",
            "spheres",
        ];
        for (qi, query) in ["distance", "intersect", "penetration", "sweep"]
            .iter()
            .enumerate()
        {
            for (fi, family) in families.iter().enumerate() {
                // Sphere pairs are timed for sweeps only (both engines'
                // closed forms); the other kinds' closed forms are not compared.
                if !selected(query, family) || (*family == "spheres" && *query != "sweep") {
                    continue;
                }
                let gap = match *query {
                    "distance" => (1.02, 1.6),
                    "intersect" => (0.6, 1.4),
                    "penetration" => (0.3, 0.9),
                    _ => (1.2, 1.6),
                };
                let mut sc = scenes(family, gap, 7 + 100 * qi as u64 + fi as u64);
                if *query == "penetration" {
                    // Penetration is about overlapping shapes: keep the pairs
                    // that overlap (checked in f64), as contact generation sees.
                    sc.retain(|s| {
                        let (a, b) = (cspace_shape::<f64>(&s.a), cspace_shape::<f64>(&s.b));
                        gjk::intersect(
                            &cspace::Placed::new(&a, cspace_pose(&s.pa)),
                            &cspace::Placed::new(&b, cspace_pose(&s.pb)),
                        )
                        .intersecting
                    });
                }
                if *query == "sweep" {
                    for s in &mut sc {
                        s.pa = s.start;
                    }
                }
                let cs: Vec<Prepared<$t>> = sc
                    .iter()
                    .map(|s| {
                        (
                            cspace_shape(&s.a),
                            cspace_pose(&s.pa),
                            cspace_shape(&s.b),
                            cspace_pose(&s.pb),
                            V3::<$t>::from_f64(s.motion),
                        )
                    })
                    .collect();
                let ps: Vec<(SharedShape, PPose, SharedShape, PPose, PVec)> = sc
                    .iter()
                    .map(|s| {
                        (
                            parry_shape(&s.a),
                            parry_pose(&s.pa),
                            parry_shape(&s.b),
                            parry_pose(&s.pb),
                            PVec::new(real(s.motion[0]), real(s.motion[1]), real(s.motion[2])),
                        )
                    })
                    .collect();
                let n = cs.len();
                let mut run_parry: Box<dyn FnMut()> = match *query {
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
                let mut methods: Vec<Method<'_>> = match *query {
                    "distance" => vec![
                        ("gjk", each(&cs, |a, b, _| gjk::distance(a, b))),
                        (
                            "gjk-loose",
                            each(&cs, move |a, b, _| gjk::distance_with_tolerance(a, b, loose)),
                        ),
                    ],
                    "intersect" => vec![
                        ("gjk", each(&cs, |a, b, _| gjk::intersect(a, b))),
                        ("mpr", each(&cs, |a, b, _| mpr::intersect(a, b))),
                    ],
                    "penetration" => vec![
                        ("epa", each(&cs, |a, b, _| epa::penetration(a, b))),
                        ("mpr", each(&cs, |a, b, _| mpr::penetration(a, b))),
                    ],
                    _ => vec![
                        ("ca", each(&cs, |a, b, m| sweep::conservative_advancement(a, m, b))),
                        ("raycast", each(&cs, |a, b, m| sweep::ray_cast(a, m, b))),
                        ("swept-mpr", each(&cs, |a, b, m| sweep::swept_mpr(a, m, b))),
                    ],
                };
                let mut fs: Vec<&mut dyn FnMut()> = vec![&mut *run_parry];
                for m in &mut methods {
                    fs.push(&mut *m.1);
                }
                let t = race($passes, n, &mut fs);
                drop(fs);
                let names: Vec<&str> = methods.iter().map(|m| m.0).collect();
                drop(methods);
                if *query == "distance" {
                    // Both engines return an upper bound of the distance (GJK's
                    // |v|), so the lower of the two is nearer the truth: print by
                    // how much each exceeds the other at worst, relative to the
                    // shapes' size.
                    let (mut parry_over, mut ours_over, mut loose_over) = (0.0_f64, 0.0_f64, 0.0_f64);
                    for (c, (p, s)) in cs.iter().zip(ps.iter().zip(&sc)) {
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
                    $rows.push(format!(
                        "{:<12} {:<4} {:<10} accuracy (of the sizes): parry above gjk by up to {:.1e}, gjk above parry {:.1e}, gjk-loose above gjk {:.1e}",
                        query, $prec, family, parry_over, ours_over, loose_over
                    ));
                }
                if *query == "penetration" {
                    $rows.push(format!(
                        "{:<12} {:<4} {:<10} {n} of 1000 scenes overlap (the others are skipped)",
                        query, $prec, family
                    ));
                }
                for (i, name) in names.iter().enumerate() {
                    $rows.push(format!(
                        "{:<12} {:<4} {:<10} {:<10} {:>10.1} {:>10.1} {:>7.2}",
                        query,
                        $prec,
                        family,
                        name,
                        t[i + 1],
                        t[0],
                        t[i + 1] / t[0]
                    ));
                }
            }
        }
    }};
}

/// Coherent motion: B drifts a little each frame; cold GJK vs warm-started.
fn coherent<T: Real>(passes: usize, rows: &mut Vec<String>) {
    for family in ["boxes", "hull16", "hull64", "cylinders", "mixed"] {
        if !selected("coherent", family) {
            continue;
        }
        let sc = scenes(family, (1.05, 1.4), 99);
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
            "{:<12} {:<4} {:<10} cold {:>8.1} ns  warm {:>8.1} ns  speed-up {:>5.2}x  iterations {:.2} / {:.2}",
            "coherent",
            if T::PRECISION == cspace_recorder::Precision::F32 {
                "f32"
            } else {
                "f64"
            },
            family,
            t[0],
            t[1],
            t[0] / t[1],
            it_cold as f64 / n as f64,
            it_warm as f64 / n as f64
        ));
    }
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
    let passes = if quick { 3 } else { 15 };
    let mut rows = Vec::new();
    if !only_recorder {
        println!(
            "{:<12} {:<4} {:<10} {:<10} {:>10} {:>10} {:>7}",
            "query", "prec", "family", "method", "cspace ns", "parry ns", "ratio"
        );
        versus!(parry3d_f64, f64, "f64", passes, rows);
        versus!(parry3d, f32, "f32", passes, rows);
        for r in rows.drain(..) {
            println!("{r}");
        }
        coherent::<f64>(passes, &mut rows);
        coherent::<f32>(passes, &mut rows);
        sweep_spread(&mut rows);
    }
    recorder_price(passes, &mut rows);
    for r in rows {
        println!("{r}");
    }
}
