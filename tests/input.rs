//! Input the queries cannot answer: every public query refuses it with
//! `Status::InvalidInput` and NaN numbers, and `input::check` names what
//! is wrong; inside the supported magnitude range, answers scaled by a
//! power of two (exact) agree with the unit-size ones.

#![allow(clippy::cast_possible_truncation, clippy::float_cmp)]

mod gjk_common;

use cspace::gjk::SimplexCache;
use cspace::input::{self, InputError, MAGNITUDE_F32, MAGNITUDE_F64};
use cspace::mpr::Search;
use cspace::signed::Depth;
use cspace::{
    Placed, Pose, Real, Rotation, Shape, Status, V3, Vector, Witness, epa, gjk, mpr, signed, sweep,
};
use cspace_recorder::Event;
use gjk_common::{Rng, random_case};
use glam::{DQuat, DVec3};

/// One query's outcome: its name, status, and every number it returned
/// (the main one first: distance, depth or time of impact).
struct Outcome {
    name: &'static str,
    status: Status,
    numbers: Vec<f64>,
    /// The witness points, when the answer calls them unique.
    unique: Option<[[f64; 3]; 2]>,
}

fn wide<T: Real>(v: V3<T>) -> [f64; 3] {
    v.to_f64()
}

fn numbers<T: Real>(main: T, rest: &[T], points: &[V3<T>]) -> Vec<f64> {
    let mut out = vec![main.to_f64()];
    out.extend(rest.iter().map(|x| x.to_f64()));
    out.extend(points.iter().flat_map(|p| wide::<T>(*p)));
    out
}

/// Every public query on `a` and `b` (sweeps moving A by `motion`).
fn every_query<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> Vec<Outcome> {
    let mut out = Vec::new();
    let dist = |name, d: gjk::Distance<T>| Outcome {
        name,
        status: d.status,
        unique: (d.witness == Witness::Unique)
            .then(|| [wide::<T>(d.point_a), wide::<T>(d.point_b)]),
        numbers: numbers(
            d.distance,
            &[d.lower_bound, d.upper_bound],
            &[d.point_a, d.point_b, d.normal],
        ),
    };
    out.push(dist("distance", gjk::distance(a, b)));
    out.push(dist(
        "distance_with_tolerance",
        gjk::distance_with_tolerance(a, b, T::from_f64(1e-3)),
    ));
    let mut cache = gjk::SimplexCache::default();
    out.push(dist("distance_warm", gjk::distance_warm(a, b, &mut cache)));
    for (name, o) in [
        ("gjk::intersect", gjk::intersect(a, b)),
        ("mpr::intersect", mpr::intersect(a, b)),
    ] {
        out.push(Outcome {
            name,
            status: o.status,
            numbers: vec![if o.intersecting { 1.0 } else { 0.0 }],
            unique: None,
        });
    }
    let pen = |name, p: epa::Penetration<T>| Outcome {
        name,
        status: p.status,
        unique: None,
        numbers: numbers(
            p.depth,
            &[p.lower_bound, p.upper_bound],
            &[p.point_a, p.point_b, p.normal],
        ),
    };
    out.push(pen("epa::penetration", epa::penetration(a, b)));
    out.push(pen("mpr::penetration", mpr::penetration(a, b)));
    out.push(pen(
        "mpr::penetration_with",
        mpr::penetration_with(a, b, Search::Certified),
    ));
    for (name, depth) in [("signed (epa)", Depth::Epa), ("signed (mpr)", Depth::Mpr)] {
        let s = signed::signed_distance_with(a, b, depth);
        out.push(Outcome {
            name,
            status: s.status,
            unique: (s.witness == Some(Witness::Unique))
                .then(|| [wide::<T>(s.point_a), wide::<T>(s.point_b)]),
            numbers: numbers(
                s.distance,
                &[s.lower_bound, s.upper_bound],
                &[s.point_a, s.point_b, s.normal],
            ),
        });
    }
    let sw = |name, s: sweep::Sweep<T>| Outcome {
        name,
        status: s.status,
        unique: (s.witness == Some(Witness::Unique))
            .then(|| [wide::<T>(s.point_a), wide::<T>(s.point_b)]),
        numbers: numbers(
            s.toi,
            &[s.toi_lower, s.toi_upper],
            &[s.normal, s.point, s.point_a, s.point_b],
        ),
    };
    out.push(sw("ray_cast", sweep::ray_cast(a, motion, b)));
    out.push(sw(
        "conservative_advancement",
        sweep::conservative_advancement(a, motion, b),
    ));
    out.push(sw("swept_mpr", sweep::swept_mpr(a, motion, b)));
    if let Ok(s) = sweep::analytic(a, motion, b) {
        out.push(sw("analytic", s));
    }
    out
}

/// Whether a query is a sweep (the only ones a motion concerns).
fn is_sweep(name: &str) -> bool {
    matches!(
        name,
        "ray_cast" | "conservative_advancement" | "swept_mpr" | "analytic"
    )
}

/// Asserts that every query (every sweep when `sweeps_only`) refuses `a`,
/// `b` with NaN numbers (no hit, no intersection) and returns what
/// `check` says.
fn refused<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    motion: V3<T>,
    what: &str,
    sweeps_only: bool,
) -> InputError {
    for o in every_query(a, b, motion) {
        if sweeps_only && !is_sweep(o.name) {
            assert_ne!(o.status, Status::InvalidInput, "{what}: {}", o.name);
            continue;
        }
        assert_eq!(o.status, Status::InvalidInput, "{what}: {}", o.name);
        if o.name.ends_with("intersect") {
            assert_eq!(o.numbers, [0.0], "{what}: {}", o.name);
        } else {
            assert!(
                o.numbers.iter().all(|x| x.is_nan()),
                "{what}: {} returned {:?}",
                o.name,
                o.numbers
            );
        }
    }
    input::check(a, b, motion).expect_err(what)
}

fn at<T: Real>(s: &Shape<T>, x: f64) -> Placed<'_, T> {
    Placed::new(s, Pose::from_position(V3::<T>::from_f64([x, 0.0, 0.0])))
}

#[test]
fn every_query_refuses_invalid_shapes_and_names_the_field() {
    let nan = f64::NAN;
    let sphere = Shape::<f64>::sphere(1.0);
    let motion = V3::<f64>::from_f64([1.0, 0.0, 0.0]);
    // Shapes: each bad one against a good sphere, both orders.
    let bad_shapes: Vec<(&str, Shape<f64>, &str)> = vec![
        ("NaN radius", Shape::sphere(nan), "radius must be finite"),
        ("negative radius", Shape::sphere(-1.0), "radius must be ≥ 0"),
        (
            "infinite half extent",
            Shape::cuboid(V3::<f64>::from_f64([1.0, f64::INFINITY, 1.0])),
            "half_extents[1] must be finite",
        ),
        (
            "negative half height",
            Shape::cylinder(-0.5, 1.0),
            "half_height must be ≥ 0",
        ),
        (
            "NaN cone radius",
            Shape::cone(1.0, nan),
            "radius must be finite",
        ),
        (
            "negative margin",
            Shape::capsule(1.0, 0.5).with_margin(-0.1),
            "margin must be ≥ 0",
        ),
        (
            "empty hull",
            Shape::hull(vec![]),
            "hull points must not be empty",
        ),
        (
            "NaN hull point",
            Shape::hull(vec![
                V3::<f64>::from_f64([1.0, 0.0, 0.0]),
                V3::<f64>::from_f64([0.0, nan, 0.0]),
                V3::<f64>::from_f64([0.0, 0.0, 1.0]),
            ]),
            "points must be finite",
        ),
    ];
    for (what, bad, says) in &bad_shapes {
        let e = refused(&at(bad, 0.0), &at(&sphere, 3.0), motion, what, false);
        assert!(e.to_string().starts_with("a.shape: "), "{what}: {e}");
        assert!(e.to_string().contains(says), "{what}: {e}");
        let e = refused(&at(&sphere, 0.0), &at(bad, 3.0), motion, what, false);
        assert!(e.to_string().starts_with("b.shape: "), "{what}: {e}");
    }
}

#[test]
fn every_query_refuses_invalid_poses_and_motions() {
    let nan = f64::NAN;
    let motion = V3::<f64>::from_f64([1.0, 0.0, 0.0]);
    let (s1, s2) = (Shape::<f64>::sphere(1.0), Shape::<f64>::sphere(1.0));
    let e = refused(&at(&s1, nan), &at(&s2, 3.0), motion, "NaN position", false);
    assert!(
        e.to_string().starts_with("a.position must be finite"),
        "{e}"
    );
    let e = refused(
        &at(&s1, 0.0),
        &at(&s2, f64::INFINITY),
        motion,
        "infinite position",
        false,
    );
    assert!(
        e.to_string().starts_with("b.position must be finite"),
        "{e}"
    );
    let e = refused(
        &at(&s1, 0.0),
        &at(&s2, 3.0),
        V3::<f64>::from_f64([0.0, nan, 0.0]),
        "NaN motion",
        true,
    );
    assert!(e.to_string().starts_with("motion must be finite"), "{e}");
    for (what, q) in [
        ("zero rotation", [0.0; 4]),
        ("NaN rotation", [nan, 0.0, 0.0, 1.0]),
        ("infinite rotation", [0.0, f64::INFINITY, 0.0, 1.0]),
    ] {
        let boxed = Shape::<f64>::cuboid(V3::<f64>::from_f64([1.0, 0.5, 0.25]));
        let turned = Placed::new(
            &boxed,
            Pose::new(
                V3::<f64>::from_f64([3.0, 0.0, 0.0]),
                <glam::DQuat as Rotation<f64>>::from_xyzw(q),
            ),
        );
        let e = refused(&at(&s1, 0.0), &turned, motion, what, false);
        assert!(
            e.to_string().starts_with("b.rotation must be"),
            "{what}: {e}"
        );
    }
}

#[test]
fn only_a_magnitude_that_overflows_or_cannot_be_scaled_is_refused() {
    let nan = f64::NAN;
    let motion = V3::<f64>::from_f64([1.0, 0.0, 0.0]);
    let (s1, s2) = (Shape::<f64>::sphere(1.0), Shape::<f64>::sphere(1.0));
    // The review's spheres at ±1e308: their offset overflows.
    let e = refused(&at(&s1, -1e308), &at(&s2, 1e308), motion, "±1e308", false);
    assert!(
        matches!(e, InputError::Magnitude { magnitude, .. } if magnitude.is_infinite()),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("overflows or is too small to scale in f64"),
        "{e}"
    );
    // A box whose half extents sum past f64's largest number.
    let huge = Shape::<f64>::cuboid(V3::<f64>::from_f64([1e308; 3]));
    let e = refused(&at(&huge, 0.0), &at(&s2, 3.0), motion, "1e308 box", false);
    assert!(matches!(e, InputError::Magnitude { .. }), "{e}");
    // Two f32 points closer than its largest power of two can bring into
    // its range: 1e-45 (2^-149; 2^127 × that is 2^-22).
    let point = Shape::<f32>::new(cspace::Geom::Point);
    let e = refused(
        &at(&point, 0.0),
        &at(&point, 1e-45),
        V3::<f32>::ZERO,
        "f32 1e-45",
        false,
    );
    assert!(
        matches!(
            e,
            InputError::Magnitude {
                precision: "f32",
                ..
            }
        ),
        "{e}"
    );
    // A NaN in f32.
    let (a32, b32) = (
        Shape::<f32>::sphere(1.0),
        Shape::<f32>::cuboid(V3::<f32>::from_f64([1.0; 3])),
    );
    let motion32 = V3::<f32>::from_f64([1.0, 0.0, 0.0]);
    refused(&at(&a32, 0.0), &at(&b32, nan), motion32, "f32 NaN", false);
}

/// Every query on two shapes `offset` apart along x (sweeps moving A by
/// `offset` towards B): checked against the exact
/// answers: the distance `gap` and the sweep's hit at `gap / offset`.
fn answered_at<T: Real>(a: &Shape<T>, b: &Shape<T>, offset: f64, gap: f64, what: &str) {
    let motion = V3::<T>::from_f64([offset, 0.0, 0.0]);
    let (pa, pb) = (at(a, 0.0), at(b, offset));
    input::check(&pa, &pb, motion).unwrap_or_else(|e| panic!("{what}: {e}"));
    for o in every_query(&pa, &pb, motion) {
        assert_ne!(o.status, Status::InvalidInput, "{what}: {}", o.name);
        assert!(
            o.numbers[0].is_finite(),
            "{what}: {} {:?}",
            o.name,
            o.numbers
        );
        let (value, expected, tol) = match o.name {
            n if n.ends_with("intersect") => (o.numbers[0], 0.0, 0.0),
            n if is_sweep(n) => (o.numbers[0], gap / offset, 1e-4),
            n if n.starts_with("distance") || n.starts_with("signed") => {
                (o.numbers[0] / gap, 1.0, 2e-3)
            }
            // Apart: no depth.
            _ => (o.numbers[0], 0.0, 0.0),
        };
        assert!(
            (value - expected).abs() <= tol,
            "{what}: {} gave {:?}, expected {expected}",
            o.name,
            o.numbers
        );
    }
}

#[test]
fn magnitudes_beyond_the_direct_range_are_answered_scaled() {
    // f64: unit spheres 1.5 × 2^200 apart; spheres of 2^-210 a gap of
    // their size apart (below the range).
    let one = Shape::<f64>::sphere(1.0);
    let far = MAGNITUDE_F64.1 * 1.5;
    answered_at(&one, &one, far, far - 2.0, "f64 above");
    let r = MAGNITUDE_F64.0 / 1024.0;
    let tiny = Shape::<f64>::sphere(r);
    answered_at(&tiny, &tiny, 3.0 * r, r, "f64 below");
    // f32: a box 1e8 from a sphere; the fuzzer's two points 4e-7 apart
    // (a sweep's contact, below f32's range); tiny boxes.
    let (s32, b32) = (
        Shape::<f32>::sphere(1.0),
        Shape::<f32>::cuboid(V3::<f32>::from_f64([1.0; 3])),
    );
    answered_at(&s32, &b32, 1e8, 1e8 - 2.0, "f32 above");
    let p32 = Shape::<f32>::new(cspace::Geom::Point);
    answered_at(&p32, &p32, 4e-7, 4e-7, "f32 points");
    let t32 = Shape::<f32>::cuboid(V3::<f32>::from_f64([1e-9; 3]));
    answered_at(&t32, &t32, 3e-9, 1e-9, "f32 below");
    // Subnormal magnitudes a smaller power of two brings into range (a
    // review's cases: refused before): f64 points 1e-310 and 5e-324 apart,
    // f32 ones 2^-130 apart.
    let p64 = Shape::<f64>::new(cspace::Geom::Point);
    answered_at(&p64, &p64, 1e-310, 1e-310, "f64 1e-310");
    let d = gjk::distance(&at(&p64, 0.0), &at(&p64, 5e-324));
    assert_eq!((d.distance, d.status), (5e-324, Status::Converged));
    answered_at(&p32, &p32, (-130f64).exp2(), (-130f64).exp2(), "f32 2^-130");
    // An f32 hull near its largest numbers (its centroid's sum overflowed).
    let far32 = Shape::<f32>::hull(
        [
            [2e38, 0.0, 0.0],
            [2e38, 1.0, 0.0],
            [2e38, 0.0, 1.0],
            [1.9e38, 0.0, 0.0],
        ]
        .map(V3::<f32>::from_f64)
        .to_vec(),
    );
    let o = Shape::<f32>::sphere(1.0);
    let d = gjk::distance(&at(&o, 0.0), &at(&far32, 0.0));
    assert_eq!(d.status, Status::Converged, "{d:?}");
    assert!((f64::from(d.distance) / 1.9e38 - 1.0).abs() < 1e-6, "{d:?}");
    // The answer's points are where the unscaled shapes are.
    let d = gjk::distance(&at(&tiny, 0.0), &at(&tiny, 3.0 * r));
    assert_eq!(d.point_a.to_f64()[0] / r, 1.0);
    assert_eq!(d.point_b.to_f64()[0] / r, 2.0);
}

#[test]
fn a_refusal_is_recorded_with_its_reason_and_no_answer() {
    let a = Shape::<f64>::sphere(-1.0);
    let b = Shape::<f64>::sphere(1.0);
    let (_, rec) = cspace_recorder::record(|| gjk::distance(&at(&a, 0.0), &at(&b, 3.0)));
    let decoded = cspace_recorder::stream::decode(&rec.bytes);
    assert!(decoded.error.is_none(), "{:?}", decoded.error);
    let events: Vec<_> = decoded.events.into_iter().map(|e| e.event).collect();
    let texts: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        ["invalid input: a.shape: radius must be ≥ 0, got -1.0"],
        "{events:?}"
    );
    assert!(
        !events.iter().any(|e| matches!(e, Event::Answer { .. })),
        "a refused query records no answer"
    );
}

#[test]
fn a_scaled_query_records_why_and_itself_in_its_own_units() {
    let r = MAGNITUDE_F64.0 / 1024.0;
    let tiny = Shape::<f64>::sphere(r);
    let (d, rec) =
        cspace_recorder::record(|| gjk::distance(&at(&tiny, 1000.0 * r), &at(&tiny, 1003.0 * r)));
    let decoded = cspace_recorder::stream::decode(&rec.bytes);
    assert!(decoded.error.is_none(), "{:?}", decoded.error);
    let events: Vec<_> = decoded.events.into_iter().map(|e| e.event).collect();
    let first_text = events.iter().find_map(|e| match e {
        Event::Text { text, .. } => Some(text.as_str()),
        _ => None,
    });
    assert!(
        first_text.is_some_and(|t| t.contains("the query runs scaled by")),
        "{first_text:?}"
    );
    // One answer: the scaled query's, a distance of r scaled to [1, 2).
    let answers: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Answer { answer, .. } => Some(answer.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!((d.distance / r - 1.0).abs() < 1e-12, "{d:?}");
    // A's point where A is: the scaled query had A at the origin.
    assert_eq!(d.point_a.x / r, 1001.0, "{d:?}");
    assert_eq!(d.point_b.x / r, 1002.0, "{d:?}");
}

/// Random queries scaled by powers of two to the ends of the range
/// answered directly (inside by one factor of two), just outside it and
/// far outside it (answered scaled): every converged answer agrees with
/// the unit-size one within the query's tolerance, unique witnesses stay
/// put, and at most 2 % of the answers stop converging or being unique.
/// Asserts that the unique witnesses `scaled` of a query scaled by `k`
/// are within `allowed` (plus the rounding of their coordinates in `T`) of
/// the unit-size ones.
fn same_points<T: Real>(
    unit: [[f64; 3]; 2],
    scaled: [[f64; 3]; 2],
    k: f64,
    allowed: f64,
    what: &str,
) {
    for (p, q) in unit.iter().zip(&scaled) {
        let off = (DVec3::from(*p) - DVec3::from(*q) / k).length();
        let round = T::EPSILON.to_f64() * DVec3::from(*p).abs().max_element();
        assert!(
            off <= allowed + 4.0 * round,
            "{what}: a unique point {off:e} off"
        );
    }
}

/// Two shapes, their poses and a motion.
type Case<T> = ((Shape<T>, Shape<T>), Pose<T>, Pose<T>, V3<T>);

/// A case's shapes, poses and motion scaled by `k`, in precision `T`.
fn scaled_case<T: Real>(
    (sa, sb): (&Shape<f64>, &Shape<f64>),
    (pa, pb): (&Pose<f64>, &Pose<f64>),
    motion: [f64; 3],
    k: f64,
) -> Case<T> {
    let pose = |p: &Pose<f64>| {
        Pose::<T>::new(
            V3::<T>::from_f64((p.position * k).to_array()),
            <T::Q as Rotation<T>>::from_xyzw(p.rotation.to_array().map(T::from_f64)),
        )
    };
    (
        (sa.scaled(k).to_precision(), sb.scaled(k).to_precision()),
        pose(pa),
        pose(pb),
        V3::<T>::from_f64(motion.map(|c| c * k)),
    )
}

/// Random cases per precision.
const CASES: usize = 300;

fn scales_to_the_ends_of_the_range<T: Real>(range: (f64, f64), far: f64, tol: [f64; 5]) {
    let mut rng = Rng::new(23);
    let (mut compared, mut lost) = (0, 0);
    // Unique at unit size, and of those not unique scaled.
    let mut unique = (0, 0);
    for _ in 0..CASES {
        let (sa, sb, pa, pb) = random_case(&mut rng);
        let motion = ((pb.position - pa.position) * 1.5).to_array();
        let m = input::magnitude(
            &Placed::new(&sa, pa),
            &Placed::new(&sb, pb),
            DVec3::from(motion),
        );
        let place = |k: f64| scaled_case::<T>((&sa, &sb), (&pa, &pb), motion, k);
        let ((a1, b1), pa1, pb1, m1) = place(1.0);
        let unit = every_query(&Placed::new(&a1, pa1), &Placed::new(&b1, pb1), m1);
        let still = input::magnitude(&Placed::new(&sa, pa), &Placed::new(&sb, pb), DVec3::ZERO);
        // Powers of two: the largest and smallest inside the range for the
        // sweeps' magnitude and for the others', and one step beyond each.
        let mut exps = Vec::new();
        for mm in [m, still] {
            let top = (range.1 / mm).log2().floor();
            let bottom = (range.0 / mm).log2().ceil();
            exps.extend([
                top,
                bottom,
                top + 1.0,
                bottom - 1.0,
                top + far,
                bottom - far,
            ]);
        }
        for e in exps {
            let k = e.exp2();
            let ((ak, bk), pak, pbk, mk) = place(k);
            let scaled = every_query(&Placed::new(&ak, pak), &Placed::new(&bk, pbk), mk);
            for (u, s) in unit.iter().zip(&scaled) {
                assert_ne!(s.status, Status::InvalidInput, "{} at 2^{e}", s.name);
                if u.status == Status::Converged && s.status != Status::Converged {
                    lost += 1;
                }
                if s.status != Status::Converged || u.status != Status::Converged {
                    continue;
                }
                let size = sa.scale().max(sb.scale());
                // Distances and depths scale with k, times of impact do not.
                let (value, allowed) = match s.name {
                    n if n.ends_with("intersect") => (s.numbers[0], 0.0),
                    n if is_sweep(n) => (s.numbers[0], tol[2]),
                    // Asked for 1e-3.
                    "distance_with_tolerance" => (s.numbers[0] / k, 1.5e-3 * (u.numbers[0] + size)),
                    n if n.starts_with("distance") || n.starts_with("signed") => {
                        (s.numbers[0] / k, tol[0] * (u.numbers[0].abs() + size))
                    }
                    _ => (s.numbers[0] / k, tol[1] * size),
                };
                // Unique witnesses stay where they are (positions scale by
                // k too), to twice the witness tolerance: a distance's, or
                // a sweep's contact (1e-3 × size in f32, whose rounding
                // slides a contact along a nearly level face).
                let witness = if is_sweep(s.name) { tol[4] } else { tol[3] };
                if u.unique.is_some() {
                    unique.0 += 1;
                    if s.unique.is_none() {
                        unique.1 += 1;
                    }
                }
                if let (Some(pu), Some(ps)) = (u.unique, s.unique) {
                    let allowed = 2.0 * witness * size;
                    let what = format!("{} at 2^{e} ({:?}, {:?})", s.name, sa.geom(), sb.geom());
                    same_points::<T>(pu, ps, k, allowed, &what);
                }
                assert!(
                    (value - u.numbers[0]).abs() <= allowed,
                    "{} at 2^{e}: {value} against {} at unit size ({:?} against {:?})",
                    s.name,
                    u.numbers[0],
                    sa.geom(),
                    sb.geom()
                );
                compared += 1;
            }
        }
    }
    assert!(
        compared > CASES * 8 * 10,
        "only {compared} answers compared"
    );
    // Inside the range the queries work, not merely say they do not.
    assert!(
        lost * 50 <= compared,
        "{lost} answers converged at unit size but not scaled, of {compared}"
    );
    assert!(
        unique.1 * 50 <= unique.0,
        "{} answers unique at unit size but not scaled, of {}",
        unique.1,
        unique.0
    );
}

#[test]
fn f64_answers_scale_exactly_to_the_ends_of_its_range() {
    // Distance: GJK's stopping gap (√2 · 3.7e-11 of distance + size) twice;
    // depth: EPA's 1e-8 × size; time of impact: the sweeps' 1e-9; unique
    // points: the witness tolerance.
    scales_to_the_ends_of_the_range::<f64>(MAGNITUDE_F64, 500.0, [1.1e-10, 2e-8, 1e-9, 1e-8, 1e-6]);
}

#[test]
fn f32_answers_scale_exactly_to_the_ends_of_its_range() {
    scales_to_the_ends_of_the_range::<f32>(MAGNITUDE_F32, 60.0, [7e-5, 5e-5, 1e-4, 1e-4, 1e-3]);
}

#[test]
fn rotations_not_unit_are_answered_as_their_unit_quaternion() {
    let sphere = Shape::<f64>::sphere(0.5);
    let boxed = Shape::<f64>::cuboid(DVec3::new(1.0, 0.5, 0.25));
    let q = DQuat::from_rotation_z(0.7) * DQuat::from_rotation_x(0.3);
    // A review's cases: a point core against a box turned by 2q (the
    // closed forms rotated by it as it was: 6.456 for 0.3833, and apart
    // while overlapping); a quaternion unit only to f32's rounding, far
    // out (6.8e-5 off with bounds claiming exactness); one whose squared
    // norm is subnormal (its normalisation lost most bits).
    let q32 = glam::Quat::from_rotation_z(0.7) * glam::Quat::from_rotation_x(0.3);
    let from32 = DQuat::from_xyzw(
        f64::from(q32.x),
        f64::from(q32.y),
        f64::from(q32.z),
        f64::from(q32.w),
    );
    for (what, turned, centre) in [
        ("2q", q * 2.0, DVec3::new(2.0, 0.3, 0.1)),
        ("2q, overlapping", q * 2.0, DVec3::new(0.9, 0.3, 0.1)),
        ("unit in f32", from32, DVec3::new(1000.0, 300.0, 100.0)),
        ("subnormal norm", q * 3e-162, DVec3::new(2.0, 0.3, 0.1)),
        (
            "1e-200",
            DQuat::from_xyzw(0.0, 0.0, 0.0, 1e-200),
            DVec3::new(2.0, 0.3, 0.1),
        ),
    ] {
        let unit_q = if what == "unit in f32" {
            from32.normalize()
        } else if what == "1e-200" {
            DQuat::IDENTITY
        } else {
            q
        };
        let a = Placed::new(&sphere, Pose::from_position(centre));
        let given = Placed::new(&boxed, Pose::new(DVec3::ZERO, turned));
        let unit = Placed::new(&boxed, Pose::new(DVec3::ZERO, unit_q));
        assert!(input::check(&a, &given, DVec3::ZERO).is_ok(), "{what}");
        let (d, e) = (gjk::distance(&a, &given), gjk::distance(&a, &unit));
        assert!(
            (d.distance - e.distance).abs() <= 1e-9 * (e.distance + 1.0),
            "{what}: {} against {}",
            d.distance,
            e.distance
        );
        assert_eq!(
            gjk::intersect(&a, &given).intersecting,
            gjk::intersect(&a, &unit).intersecting,
            "{what}"
        );
        let (s, t) = (
            signed::signed_distance(&a, &given),
            signed::signed_distance(&a, &unit),
        );
        assert!(
            (s.distance - t.distance).abs() <= 1e-9,
            "{what}: {s:?} {t:?}"
        );
        // And against a capsule (GJK's path).
        let caps = Shape::<f64>::capsule(0.5, 0.3);
        let c = Placed::new(&caps, Pose::new(centre, DQuat::from_rotation_y(0.4)));
        let (d, e) = (gjk::distance(&given, &c), gjk::distance(&unit, &c));
        assert!(
            (d.distance - e.distance).abs() <= 1e-9 * (e.distance + 1.0),
            "{what}"
        );
    }
}

#[test]
fn a_thin_capsule_by_a_needle_cone_keeps_its_witnesses_at_every_scale() {
    // A review's case: at 2^-150 (and, warm, at 2^-70) the capsule's cap
    // was taken for its witness, 48 times the distance from the cone's,
    // "unique" (absolute floors in the witness polish).
    for e in [0, -40, -70, -150, -190, 60, 190] {
        let k = f64::from(e).exp2();
        let a =
            Shape::<f64>::capsule(0.793_030_401_185_330_4, 1.468_153_834_345_950_6e-5).scaled(k);
        let b = Shape::<f64>::cone(0.011_576_568_760_760_382, 8.777_621_362_648_261e-5).scaled(k);
        let pa = Pose::new(
            DVec3::new(
                -0.841_191_107_422_489_1,
                -0.049_894_591_170_651_204,
                0.679_418_871_203_239_4,
            ) * k,
            DQuat::from_xyzw(
                -0.447_540_516_796_794_35,
                0.734_825_531_666_621_3,
                0.331_018_105_517_361,
                -0.387_512_499_999_448_87,
            ),
        );
        let pb = Pose::new(
            DVec3::new(
                -0.807_021_555_965_638_6,
                -0.057_514_187_237_757_44,
                0.670_949_489_582_642_3,
            ) * k,
            DQuat::from_xyzw(
                -0.364_397_337_913_916_7,
                0.301_718_598_226_503_93,
                -0.687_573_360_552_156_7,
                -0.550_838_761_766_542_9,
            ),
        );
        let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
        let cold = gjk::distance(&a, &b);
        let warm = gjk::distance_warm(&a, &b, &mut SimplexCache::default());
        for (how, d) in [("cold", cold), ("warm", warm)] {
            assert_eq!(d.status, Status::Converged, "2^{e} {how}");
            assert!(
                (d.distance / k - 0.017_033_502_461_982_3).abs() < 1e-12,
                "2^{e} {how}: {d:?}"
            );
            let gap = (d.point_b - d.point_a).length();
            assert!(
                d.witness != Witness::Unique || (gap - d.distance).abs() <= 1e-8 * d.distance,
                "2^{e} {how}: points {:e} apart for a distance of {:e}",
                gap / k,
                d.distance / k
            );
        }
    }
}
