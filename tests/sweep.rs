//! Sweeps: exact ground truth, published failure configurations, cross-checks
//! between the four methods and against parry, invariances and properties.
//!
//! (~900 lines: one algorithm family's integration tests, each a few dozen
//! lines; splitting by method would scatter the cross-checks between them.)

use cspace::sweep::{self, Sweep, SweepError};
use cspace::{Placed, Pose, Real, Shape, Status, V3, Witness, gjk};
use glam::{DQuat, DVec3, Vec3, Vec3A};
use proptest::prelude::*;

type Method<T> = fn(&Placed<'_, T>, V3<T>, &Placed<'_, T>) -> Sweep<T>;

fn methods<T: Real>() -> [(&'static str, Method<T>); 3] {
    [
        ("ca", sweep::conservative_advancement),
        ("raycast", sweep::ray_cast),
        ("swept-mpr", sweep::swept_mpr),
    ]
}

fn at(p: [f64; 3]) -> Pose<f64> {
    Pose::from_position(DVec3::from_array(p))
}

/// Checks a sweep against the shapes themselves: at the toi the shapes touch
/// (GJK distance ≈ 0), a little earlier they are apart; a miss is apart at
/// t = 1 (for shapes apart at t = 0). Returns the distance at the toi.
fn assert_consistent(
    name: &str,
    s: &Sweep<f64>,
    a: &Placed<'_, f64>,
    m: DVec3,
    b: &Placed<'_, f64>,
) {
    assert!(
        s.toi.is_finite() && s.normal.is_finite() && s.point.is_finite(),
        "{name}: {s:?}"
    );
    let size = a.shape.scale() + b.shape.scale();
    let moved = |t: f64| Placed::new(a.shape, Pose::new(a.pose.position + m * t, a.pose.rotation));
    if s.hit {
        assert!((0.0..=1.0).contains(&s.toi), "{name}: toi {}", s.toi);
        assert!(
            (s.normal.length() - 1.0).abs() < 1e-9,
            "{name}: normal {:?}",
            s.normal
        );
        let d = gjk::distance(&moved(s.toi), b);
        assert!(
            d.distance <= 1e-7 * size.max(1.0),
            "{name}: distance at toi {} {s:?} {a:?} {b:?} {m}",
            d.distance
        );
        if s.toi > 0.0 && s.status == Status::Converged {
            // The normal is a contact normal: its support planes of A (at the toi) and B meet.
            let n = s.normal;
            let gap = moved(s.toi).support(n).dot(n) - b.support(-n).dot(n);
            assert!(
                gap.abs() <= 1e-4 * size.max(1.0),
                "{name}: normal {n} does not support the contact (gap {gap:e}) {s:?} {a:?} {b:?} {m}"
            );
        }
        if s.toi > 1e-6 {
            let early = gjk::distance(&moved(s.toi - 1e-6), b);
            assert!(
                !early.intersecting || early.distance == 0.0 && s.toi < 1e-5,
                "{name}: overlapping before toi"
            );
        }
    } else {
        let d0 = gjk::distance(a, b);
        if !d0.intersecting {
            let d1 = gjk::distance(&moved(1.0), b);
            assert!(
                d1.distance > 0.0 || !d1.intersecting,
                "{name}: miss but touching at t=1"
            );
        }
    }
}

// ----- exact ground truth -------------------------------------------------

#[test]
fn sphere_sphere_ground_truth_all_methods() {
    // (ra, rb, A, B, motion, toi)
    let cases = [
        (
            1.0,
            1.0,
            [0.0, 0.0, 0.0],
            [5.0, 0.0, 0.0],
            [10.0, 0.0, 0.0],
            0.3,
        ),
        (
            0.5,
            0.25,
            [1.0, 2.0, 3.0],
            [1.0, 2.0, 8.0],
            [0.0, 0.0, 5.0],
            4.25 / 5.0,
        ),
        (
            0.3,
            0.7,
            [-4.0, 0.0, 0.0],
            [4.0, 0.6, 0.0],
            [16.0, 0.0, 0.0],
            (8.0 - 0.8) / 16.0,
        ),
    ];
    for (ra, rb, pa, pb, m, toi) in cases {
        let (sa, sb) = (Shape::sphere(ra), Shape::sphere(rb));
        let (a, b) = (Placed::new(&sa, at(pa)), Placed::new(&sb, at(pb)));
        let m = DVec3::from_array(m);
        let exact = sweep::analytic(&a, m, &b).unwrap();
        assert!(
            exact.hit && (exact.toi - toi).abs() <= 1e-12,
            "analytic {exact:?} vs {toi}"
        );
        for (name, f) in methods::<f64>() {
            let s = f(&a, m, &b);
            assert!(s.hit, "{name} missed");
            assert!(
                (s.toi - toi).abs() <= 1e-7,
                "{name}: toi {} vs {toi}",
                s.toi
            );
            assert!(
                (s.normal - exact.normal).length() < 1e-5,
                "{name}: normal {:?}",
                s.normal
            );
            assert!(
                (s.point - exact.point).length() < 1e-5 * (ra + rb),
                "{name}: point {:?} vs {:?}",
                s.point,
                exact.point
            );
            assert_consistent(name, &s, &a, m, &b);
        }
    }
}

#[test]
fn sphere_sphere_ground_truth_f32() {
    let (sa, sb) = (Shape::<f32>::sphere(1.0), Shape::sphere(1.0));
    let a = Placed::new(&sa, Pose::from_position(Vec3A::new(0.0, 0.0, 0.0)));
    let b = Placed::new(&sb, Pose::from_position(Vec3A::new(5.0, 0.0, 0.0)));
    let m = Vec3A::new(10.0, 0.0, 0.0);
    for (name, f) in methods::<f32>() {
        let s = f(&a, m, &b);
        assert!(s.hit && (s.toi - 0.3).abs() <= 1e-5, "{name}: {s:?}");
    }
    assert!((sweep::analytic(&a, m, &b).unwrap().toi - 0.3).abs() <= 1e-6);
}

#[test]
fn box_box_along_each_axis() {
    let h = DVec3::new(0.5, 1.0, 1.5);
    let (sa, sb) = (Shape::cuboid(h), Shape::cuboid(DVec3::splat(0.75)));
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let mut e = [0.0; 3];
            e[axis] = sign;
            let dir = DVec3::from_array(e);
            // Gap of 2 between the faces, offset sideways by 0.3 so faces overlap partly.
            let side = DVec3::from_array([0.3, 0.2, 0.1]) * (DVec3::ONE - dir.abs());
            let centre_gap = h[axis] + 0.75 + 2.0;
            let b = Placed::new(
                &sb,
                Pose::from_position(dir * centre_gap + side + DVec3::new(3.0, -2.0, 7.0)),
            );
            let a = Placed::new(&sa, Pose::from_position(DVec3::new(3.0, -2.0, 7.0)));
            let m = dir * 8.0;
            for (name, f) in methods::<f64>() {
                let s = f(&a, m, &b);
                assert!(s.hit, "{name} axis {axis} sign {sign}");
                assert!(
                    (s.toi - 0.25).abs() <= 1e-12,
                    "{name} axis {axis}: toi {}",
                    s.toi
                );
                assert!(
                    (s.normal - dir).length() <= 1e-9,
                    "{name} axis {axis}: normal {:?}",
                    s.normal
                );
                assert_consistent(name, &s, &a, m, &b);
            }
        }
    }
}

#[test]
fn initially_overlapping_hits_at_zero_whatever_the_motion() {
    let (sa, sb) = (Shape::cuboid(DVec3::ONE), Shape::sphere(0.5));
    let a = Placed::new(&sa, at([0.0, 0.0, 0.0]));
    let b = Placed::new(&sb, at([1.2, 0.0, 0.0]));
    for m in [
        DVec3::ZERO,
        DVec3::X,
        -DVec3::X * 5.0,
        DVec3::new(0.0, 3.0, -1.0),
    ] {
        for (name, f) in methods::<f64>() {
            let s = f(&a, m, &b);
            assert!(s.hit && s.toi == 0.0, "{name} motion {m}: {s:?}");
            assert!(
                (s.normal.length() - 1.0).abs() < 1e-9,
                "{name}: normal {:?}",
                s.normal
            );
            assert!(
                s.normal.x > 0.9,
                "{name}: normal from A to B {:?}",
                s.normal
            );
        }
    }
    let (s1, s2) = (Shape::sphere(1.0), Shape::sphere(1.0));
    let (a, b) = (
        Placed::new(&s1, at([0.0; 3])),
        Placed::new(&s2, at([1.0, 0.0, 0.0])),
    );
    let s = sweep::analytic(&a, DVec3::ZERO, &b).unwrap();
    assert!(s.hit && s.toi == 0.0 && s.normal == DVec3::X);
}

#[test]
fn zero_motion_apart_misses() {
    let (sa, sb) = (Shape::cuboid(DVec3::ONE), Shape::sphere(0.5));
    let a = Placed::new(&sa, at([0.0, 0.0, 0.0]));
    let b = Placed::new(&sb, at([3.0, 0.0, 0.0]));
    for (name, f) in methods::<f64>() {
        let s = f(&a, DVec3::ZERO, &b);
        assert!(!s.hit, "{name}: {s:?}");
    }
}

// ----- the analytic sweep and the published sphere–point bug ---------------

/// The published sphere–point listing: `c` from the raw point (`pt·pt`)
/// instead of the sphere-relative `P·P`. Kept here to prove the test below
/// would catch it.
fn published_sphere_point_toi(centre: DVec3, radius: f64, pt: DVec3, d: DVec3) -> Option<f64> {
    let p = pt - centre;
    let b = 2.0 * p.dot(-d);
    let a = d.dot(d);
    let c = pt.dot(pt) - radius * radius; // the bug: should be p.dot(p)
    let disc = b * b - 4.0 * a * c;
    if disc < 0.0 {
        return None;
    }
    let t0 = (-b - disc.sqrt()) / (2.0 * a);
    (0.0..=1.0).contains(&t0).then_some(t0)
}

#[test]
fn sphere_point_away_from_the_origin_catches_the_raw_point_coefficient() {
    // Sphere r=1 at (100, 50, -30) moving +x by 10 against a point 5 ahead of it.
    let centre = DVec3::new(100.0, 50.0, -30.0);
    let pt = centre + DVec3::new(5.0, 0.0, 0.0);
    let d = DVec3::new(10.0, 0.0, 0.0);
    let (sa, sb) = (Shape::sphere(1.0), Shape::new(cspace::Geom::Point));
    let (a, b) = (
        Placed::new(&sa, Pose::from_position(centre)),
        Placed::new(&sb, Pose::from_position(pt)),
    );
    let s: Sweep<f64> = sweep::analytic(&a, d, &b).unwrap();
    // The bracket holds 0.4 and is its rounding wide (a few ulps).
    assert!(s.hit && s.toi_lower <= 0.4 && 0.4 <= s.toi_upper, "{s:?}");
    assert!(
        s.toi_upper - s.toi_lower <= 1e-14 && s.status == Status::Converged,
        "{s:?}"
    );
    assert_eq!(s.normal, DVec3::X);
    assert!((s.point - pt).length() <= 1e-12);
    // The published version is wrong here…
    assert!(published_sphere_point_toi(centre, 1.0, pt, d).is_none_or(|t| (t - 0.4).abs() > 1e-3));
    // …and right at the origin, which is why only this class of test catches it.
    let at_origin =
        published_sphere_point_toi(DVec3::ZERO, 1.0, DVec3::new(5.0, 0.0, 0.0), d).unwrap();
    assert!((at_origin - 0.4).abs() < 1e-12);
    // The iterative methods agree away from the origin, too.
    for (name, f) in methods::<f64>() {
        let r = f(&a, d, &b);
        assert!(r.hit && (r.toi - 0.4).abs() <= 1e-7, "{name}: {r:?}");
    }
}

#[test]
fn analytic_names_the_unsupported_shape() {
    let (sa, sb) = (Shape::sphere(1.0), Shape::cuboid(DVec3::ONE));
    let (a, b) = (
        Placed::new(&sa, Pose::IDENTITY),
        Placed::new(&sb, Pose::IDENTITY),
    );
    let e = sweep::analytic(&a, DVec3::X, &b).unwrap_err();
    assert_eq!(
        e,
        SweepError::Unsupported {
            which: "b",
            shape: "box"
        }
    );
    assert!(e.to_string().contains("for b, got a box"), "{e}");
}

#[test]
fn analytic_grazing_and_receding() {
    let (sa, sb) = (Shape::sphere(1.0), Shape::sphere(1.0));
    let a = Placed::new(&sa, at([0.0, 0.0, 0.0]));
    // Exactly grazing: the centres pass at distance 2.
    let b = Placed::new(&sb, at([5.0, 2.0, 0.0]));
    let s = sweep::analytic(&a, DVec3::new(10.0, 0.0, 0.0), &b).unwrap();
    assert!(s.hit && (s.toi - 0.5).abs() < 1e-7, "{s:?}");
    let b = Placed::new(&sb, at([5.0, 2.0 + 1e-9, 0.0]));
    assert!(
        !sweep::analytic(&a, DVec3::new(10.0, 0.0, 0.0), &b)
            .unwrap()
            .hit
    );
    // Moving away.
    let b = Placed::new(&sb, at([5.0, 0.0, 0.0]));
    assert!(
        !sweep::analytic(&a, DVec3::new(-10.0, 0.0, 0.0), &b)
            .unwrap()
            .hit
    );
    // Too short.
    assert!(
        !sweep::analytic(&a, DVec3::new(2.9, 0.0, 0.0), &b)
            .unwrap()
            .hit
    );
}

/// Numbers uniform in [−1, 1) from a linear congruential sequence seeded
/// with `seed`: the point cases' coordinates.
fn uniform_signed(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// Two f32 points whose paths pass within rounding of each other: where
/// conservative advancement calls it a hit, the points are within rounding
/// at its toi (measured: at most 3 % of the bound here; before, 2.5 times
/// it). Its last step extrapolated the support plane to its zero,
/// past the closest approach when the closing speed is tiny (fuzz seed 16:
/// a hit 3.1e-5 apart, the paths 3.2e-8 apart at t = 0.3129).
#[test]
fn f32_points_passing_by_are_within_rounding_where_advancement_hits() {
    let mut f = uniform_signed(0x9e37_79b9_u64);
    let point = Shape::<f32>::new(cspace::Geom::Point);
    let mut hits = 0;
    for i in 0..4000 {
        let b = DVec3::new(f(), f(), f()) * 2.0;
        let m = DVec3::new(f(), f(), f()).normalize() * (2.0 + f());
        let side = m.any_orthonormal_vector() * (1e-8 * (1.0 + f()));
        // A's path passes B at t ≈ 0.3, `side` off it.
        let a = b + side - m * (0.3 + 0.1 * f());
        let pa = Pose::<f32>::from_position(a.as_vec3a());
        let pb = Pose::<f32>::from_position(b.as_vec3a());
        let motion = m.as_vec3a();
        let s = sweep::conservative_advancement(
            &Placed::new(&point, pa),
            motion,
            &Placed::new(&point, pb),
        );
        if !s.hit {
            continue;
        }
        hits += 1;
        // Exact on the rounded input.
        let (a, b, m) = (
            pa.position.as_dvec3(),
            pb.position.as_dvec3(),
            motion.as_dvec3(),
        );
        let gap = (a + m * f64::from(s.toi) - b).length();
        let rounding = 8.0 * f64::from(f32::EPSILON) * (a.length() + b.length() + m.length());
        assert!(gap <= rounding, "case {i}: {gap:e} apart at the toi, {s:?}");
    }
    assert!(hits > 0, "no case hit: the test checks nothing");
}

/// Case `i` of two points on exactly one line: A on a grid of eighths,
/// the motion on one of sixteenths (times 3), B at A plus a dyadic
/// fraction of it, so B = A + s·motion exactly; `(A, B, motion)`, or
/// `None` for a motion shorter than 0.1.
fn meeting(f: &mut impl FnMut() -> f64, i: usize) -> Option<(DVec3, DVec3, DVec3)> {
    let grid = |x: f64, bits: f64| (x * bits).round() / bits;
    let a = DVec3::new(grid(f(), 8.0), grid(f(), 8.0), grid(f(), 8.0));
    let m = DVec3::new(grid(f(), 16.0), grid(f(), 16.0), grid(f(), 16.0)) * 3.0;
    let s = [0.375, 0.3125, 0.75, 0.6875][i % 4];
    (m.length() > 0.1).then(|| (a, a + m * s, m))
}

/// Two points on exactly one line (B at A's position plus a power of two
/// times the motion): every method hits head-on, `Converged`, the normal
/// along the motion and A at the bracket's lower end within rounding of B.
/// The centres' offset at contact is all rounding there: the closed form
/// took its direction for the normal, (−1, 0, 0) 1.5 rad off the motion,
/// `Unique`, and the closing speed along it widened the bracket tenfold
/// (fuzz seed 34). Two points have no size: with tolerances relative to
/// it, conservative advancement's step landed 1.4e-16 past B, moving
/// apart, a `Converged` miss (125 of these 500), and swept MPR's hits
/// were all `Degenerate` (their tolerances are now relative to the
/// points' distance, `Cso::for_sweep`).
#[test]
fn points_meeting_head_on_take_the_motions_normal() {
    let mut f = uniform_signed(0x3400_0000_0000_0001_u64);
    let point = Shape::<f64>::new(cspace::Geom::Point);
    // Fuzz seed 34's case, then dyadic ones: coordinates of few bits, so
    // that B = A + s·motion is exact and the paths meet exactly.
    let mut cases = vec![(
        DVec3::new(
            0.011_359_089_153_395_23,
            0.723_572_399_561_162,
            -0.339_182_401_476_825_43,
        ),
        DVec3::new(
            -0.105_688_742_383_116_65,
            1.911_907_560_938_082_5,
            -1.083_529_618_387_318_6,
        ),
        DVec3::new(
            -0.193_574_446_254_630_6,
            1.965_276_227_750_435,
            -1.231_006_148_880_919_6,
        ),
    )];
    cases.extend((0..500).filter_map(|i| meeting(&mut f, i)));
    for (i, &(pa, pb, m)) in cases.iter().enumerate() {
        let a = Placed::new(&point, Pose::from_position(pa));
        let b = Placed::new(&point, Pose::from_position(pb));
        for (name, sw) in [
            ("ray cast", sweep::ray_cast(&a, m, &b)),
            ("analytic", sweep::analytic(&a, m, &b).unwrap()),
            ("ca", sweep::conservative_advancement(&a, m, &b)),
            ("swept-mpr", sweep::swept_mpr(&a, m, &b)),
        ] {
            assert!(sw.hit, "{name} {i}: {sw:?}");
            assert_eq!(sw.status, Status::Converged, "{name} {i}: {sw:?}");
            // The closed form's normal is the motion's, `Unique`; the
            // supports' methods judge two vertices' contact `NotUnique` (no
            // feature fixes its normal), their normal the points' direction
            // a step before contact, 1.5e-10 of their distance apart (the
            // rounding of A's position there turns it by up to ~1e-6).
            let along = sw.normal.angle_between(m.normalize());
            let off = match sw.witness {
                Some(Witness::NotUnique) => 1e-5,
                Some(Witness::Unique) => 1e-12,
                w => panic!("{name} {i}: {w:?}"),
            };
            assert!(along < off, "{name} {i}: normal {along:e} rad off: {sw:?}");
            let gap = (pa + m * sw.toi_lower - pb).length();
            let reach = pa.length() + pb.length() + m.length();
            assert!(gap <= 1e-14 * reach, "{name} {i}: {gap:e} apart: {sw:?}");
        }
    }
}

/// A point on the exact path to a sphere far smaller than the rounding of
/// the positions (radius 1e-17 … 1e-15, the point ~1 away): every method
/// hits it, within rounding of B.
/// Conservative advancement's tolerance was relative to the sphere's size
/// only: its step landed 1e-16 past the centre, which it read as moving
/// apart, a `Converged` miss.
#[test]
fn a_point_on_a_tiny_spheres_exact_path_hits_it() {
    let mut f = uniform_signed(0x3500_0000_0000_0001_u64);
    let point = Shape::<f64>::new(cspace::Geom::Point);
    let mut checked = 0;
    for i in 0..600 {
        let tiny = Shape::sphere([1e-17, 1e-16, 1e-15][i % 3]);
        let Some((pa, pb, m)) = meeting(&mut f, i) else {
            continue;
        };
        let a = Placed::new(&point, Pose::from_position(pa));
        let b = Placed::new(&tiny, Pose::from_position(pb));
        for (name, method) in methods::<f64>() {
            let sw = method(&a, m, &b);
            assert!(sw.hit, "{name} {i}: {sw:?}");
            let gap = (pa + m * sw.toi - pb).length();
            let reach = pa.length() + pb.length() + m.length();
            assert!(gap <= 1e-14 * reach, "{name} {i}: {gap:e} apart: {sw:?}");
            checked += 1;
        }
    }
    assert!(checked > 1500, "{checked}");
}

// ----- published failure configurations -------------------------------------

/// Jolt `EPATests.cpp`: a sphere cast from (−10,0,0) by (20,0,0) against a
/// unit sphere at the origin hits at λ = 0.4.
#[test]
fn jolt_sphere_cast_hits_at_0_4() {
    let (sa, sb) = (Shape::sphere(1.0), Shape::sphere(1.0));
    let a = Placed::new(&sa, at([-10.0, 0.0, 0.0]));
    let b = Placed::new(&sb, at([0.0; 3]));
    let m = DVec3::new(20.0, 0.0, 0.0);
    for (name, f) in methods::<f64>() {
        let s = f(&a, m, &b);
        assert!(s.hit && (s.toi - 0.4).abs() <= 1e-7, "{name}: {s:?}");
    }
    let s = sweep::analytic(&a, m, &b).unwrap();
    assert!(
        s.toi_lower <= 0.4 && 0.4 <= s.toi_upper && s.toi_upper - s.toi_lower <= 1e-14,
        "{s:?}"
    );
}

/// parry#429: a ball cast down onto a wide cuboid; parry's TOI error grew with
/// the cuboid's extent (0.25/3.6/139 mm for h = 5/50/500).
#[test]
fn parry_429_toi_independent_of_extent() {
    let ball = Shape::sphere(0.5166);
    for h in [5.0, 50.0, 500.0] {
        let floor = Shape::cuboid(DVec3::new(h, 0.5, h));
        let b = Placed::new(&floor, at([0.0, -0.5, 0.0]));
        for x in [1.4, -1.4] {
            let y0 = 1.177_123_4;
            let a = Placed::new(&ball, at([x, y0, 0.3]));
            let m = DVec3::new(0.0, -2.0, 0.0);
            let toi = (y0 - 0.5166) / 2.0;
            for (name, f) in methods::<f64>() {
                let s = f(&a, m, &b);
                assert!(s.hit, "{name} h={h}");
                assert!(
                    (s.toi - toi).abs() * 2.0 <= 1e-7,
                    "{name} h={h}: toi {} vs {toi}",
                    s.toi
                );
                assert!(
                    (s.normal + DVec3::Y).length() < 1e-6,
                    "{name} h={h}: normal {:?}",
                    s.normal
                );
            }
        }
    }
}

/// parry#193: a capsule sunk 0.01 into the top face of a cuboid, moving
/// (0.1, 1, 0): parry gave normal (0.707, 0.027, 0.707). It overlaps at
/// t = 0, so the hit is at 0 with the face normal.
#[test]
fn parry_193_sunk_capsule_normal() {
    let capsule = Shape::capsule(5.0, 1.0);
    let floor = Shape::cuboid(DVec3::new(20.0, 1.0, 20.0));
    let b = Placed::new(&floor, at([0.0, -1.0, 0.0]));
    // Lying along X (rotated about Z), bottom 0.01 below the face at y = 0.
    let rot = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let a = Placed::new(&capsule, Pose::new(DVec3::new(0.0, 0.99, 0.0), rot));
    let m = DVec3::new(0.1, 1.0, 0.0);
    for (name, f) in methods::<f64>() {
        let s = f(&a, m, &b);
        assert!(s.hit && s.toi == 0.0, "{name}: {s:?}");
        assert!(
            (s.normal + DVec3::Y).length() < 1e-6,
            "{name}: normal {:?}",
            s.normal
        );
    }
}

/// ncollide#141: still or receding boxes reported `Some(0)`.
#[test]
fn ncollide_141_still_boxes_do_not_hit() {
    let cube = Shape::cuboid(DVec3::splat(0.5));
    let a = Placed::new(&cube, at([0.0, 1.1, 0.0]));
    let b = Placed::new(&cube, at([0.0, 0.0, 0.0]));
    for (name, f) in methods::<f64>() {
        assert!(!f(&a, DVec3::ZERO, &b).hit, "{name}: still");
        assert!(!f(&a, DVec3::Y, &b).hit, "{name}: receding");
        let s = f(&a, -DVec3::Y, &b);
        assert!(s.hit && (s.toi - 0.1).abs() <= 1e-9, "{name}: {s:?}");
    }
}

/// ncollide#214 (2D, here in 3D): a unit box moving +x towards a taller box
/// returned no TOI.
#[test]
fn ncollide_214_box_towards_taller_box() {
    let (sa, sb) = (
        Shape::cuboid(DVec3::ONE),
        Shape::cuboid(DVec3::new(1.0, 1.5, 1.0)),
    );
    let a = Placed::new(&sa, at([0.0; 3]));
    let b = Placed::new(&sb, at([10.0, 0.0, 0.0]));
    for (name, f) in methods::<f64>() {
        let s = f(&a, DVec3::new(10.0, 0.0, 0.0), &b);
        assert!(s.hit && (s.toi - 0.8).abs() <= 1e-12, "{name}: {s:?}");
    }
}

/// ncollide#123: a ball against a triangle with velocity (0, 6.9e-42, 0)
/// looped forever. It must miss, quickly.
#[test]
fn ncollide_123_tiny_velocity_terminates() {
    let ball = Shape::sphere(0.375);
    let tri = Shape::hull(vec![
        DVec3::new(0.5, -0.5, 0.0),
        DVec3::new(-0.5, -0.5, 0.0),
        DVec3::new(-0.5, 0.5, 0.0),
    ]);
    let a = Placed::new(&ball, at([0.0; 3]));
    let b = Placed::new(&tri, at([11.5, 5.5, 0.0]));
    for (name, f) in methods::<f64>() {
        let s = f(&a, DVec3::new(0.0, 6.9e-42, 0.0), &b);
        assert!(!s.hit && s.iterations < 200, "{name}: {s:?}");
    }
    let ball32 = Shape::<f32>::sphere(0.375);
    let tri32 = Shape::hull(vec![
        Vec3A::new(0.5, -0.5, 0.0),
        Vec3A::new(-0.5, -0.5, 0.0),
        Vec3A::new(-0.5, 0.5, 0.0),
    ]);
    let a = Placed::new(&ball32, Pose::IDENTITY);
    let b = Placed::new(&tri32, Pose::from_position(Vec3A::new(11.5, 5.5, 0.0)));
    for (name, f) in methods::<f32>() {
        let s = f(&a, Vec3A::new(0.0, 6.9e-42, 0.0), &b);
        assert!(!s.hit && s.iterations < 200, "{name} f32: {s:?}");
    }
}

/// Jolt#2103: a cylinder cast a tiny distance next to a big capsule was
/// reported penetrating by ~6 m. Ours must be consistent with the geometry.
#[test]
fn jolt_2103_cylinder_next_to_capsule() {
    let capsule = Shape::capsule(2.031_143_43, 7.197_321_89);
    let cyl = Shape::cylinder(0.3, 0.4975);
    let b = Placed::new(&capsule, Pose::IDENTITY);
    let a = Placed::new(&cyl, at([-0.951_660_156, -2.091_552_73, -7.635_742_18]));
    let m = DVec3::new(0.002_441_406_25, -0.006_835_937_5, 0.002_929_687_5);
    for (name, f) in methods::<f64>() {
        let s = f(&a, m, &b);
        assert_consistent(name, &s, &a, m, &b);
    }
}

// ----- cross-checks -----------------------------------------------------------

/// A small deterministic generator (the tests must not depend on a seed file).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pick(&mut self, n: u64) -> u64 {
        self.next();
        (self.0 >> 33) % n
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn vec(&mut self, s: f64) -> DVec3 {
        DVec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
    fn quat(&mut self) -> DQuat {
        let axis = self.vec(1.0).try_normalize().unwrap_or(DVec3::Y);
        DQuat::from_axis_angle(axis, self.range(0.0, 6.3))
    }
}

#[test]
fn random_sphere_sweeps_agree_with_analytic() {
    let mut rng = Lcg(7);
    let mut worst = [0.0f64; 3];
    let mut iters = [0u32; 3];
    let mut hits = 0;
    for _ in 0..2000 {
        let (sa, sb) = (
            Shape::sphere(rng.range(0.05, 2.0)),
            Shape::sphere(rng.range(0.05, 2.0)),
        );
        let a = Placed::new(&sa, Pose::from_position(rng.vec(10.0)));
        let b = Placed::new(&sb, Pose::from_position(rng.vec(10.0)));
        let m = (b.pose.position - a.pose.position) * 1.5 + rng.vec(3.0);
        let exact = sweep::analytic(&a, m, &b).unwrap();
        if exact.hit && exact.toi > 0.0 {
            hits += 1;
        }
        for (k, (name, f)) in methods::<f64>().into_iter().enumerate() {
            let s = f(&a, m, &b);
            iters[k] += s.iterations;
            // Near-grazing hits are ill-conditioned; skip the ones within 1e-6 of tangency.
            let closest = {
                let p = a.pose.position - b.pose.position;
                let t = (-p.dot(m) / m.length_squared()).clamp(0.0, 1.0);
                (p + m * t).length() - (sa.radius() + sb.radius())
            };
            if closest.abs() < 1e-6 {
                continue;
            }
            assert_eq!(s.hit, exact.hit, "{name}: {s:?} vs {exact:?}");
            if exact.hit {
                let err = (s.toi - exact.toi).abs();
                worst[k] = worst[k].max(err);
                assert!(err <= 1e-7, "{name}: toi {} vs {}", s.toi, exact.toi);
            }
        }
    }
    assert!(hits > 500, "too few hits: {hits}");
    eprintln!(
        "sphere sweeps: worst toi error ca/raycast/swept-mpr = {worst:?}, mean iterations = {:?}",
        iters.map(|i| f64::from(i) / 2000.0)
    );
}

fn random_shape(rng: &mut Lcg) -> Shape<f64> {
    match rng.pick(7) {
        0 => Shape::sphere(rng.range(0.1, 2.0)),
        1 => Shape::cuboid(DVec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        )),
        2 => Shape::capsule(rng.range(0.0, 2.0), rng.range(0.1, 1.0)),
        3 => Shape::cylinder(rng.range(0.1, 2.0), rng.range(0.1, 2.0)),
        4 => Shape::cone(rng.range(0.1, 2.0), rng.range(0.1, 2.0)),
        5 => Shape::hull((0..8).map(|_| rng.vec(1.5)).collect()),
        _ => Shape::cuboid(DVec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        ))
        .with_margin(rng.range(0.0, 0.3)),
    }
}

#[test]
fn random_sweeps_agree_between_methods() {
    let mut rng = Lcg(11);
    let mut worst = [0.0f64; 3];
    let mut iters = [0u32; 3];
    let n = 1500;
    for _ in 0..n {
        let (sa, sb) = (random_shape(&mut rng), random_shape(&mut rng));
        let a = Placed::new(&sa, Pose::new(rng.vec(8.0), rng.quat()));
        let b = Placed::new(&sb, Pose::new(rng.vec(8.0), rng.quat()));
        let m = (b.pose.position - a.pose.position) * 1.5 + rng.vec(4.0);
        let r: Vec<Sweep<f64>> = methods::<f64>().iter().map(|(_, f)| f(&a, m, &b)).collect();
        for (k, (name, _)) in methods::<f64>().into_iter().enumerate() {
            iters[k] += r[k].iterations;
            assert_consistent(name, &r[k], &a, m, &b);
        }
        // Decided hits agree; toi agree where all hit.
        if r.iter().all(|s| s.hit) {
            for k in 1..3 {
                let err = (r[k].toi - r[0].toi).abs();
                worst[k] = worst[k].max(err);
                assert!(
                    err <= 1e-6,
                    "{} vs ca: {} vs {} ({sa:?} {sb:?})",
                    methods::<f64>()[k].0,
                    r[k].toi,
                    r[0].toi
                );
            }
        }
    }
    eprintln!(
        "random sweeps: worst toi difference to ca (raycast, swept-mpr) = {:?}, mean iterations ca/raycast/swept-mpr = {:?}",
        &worst[1..],
        iters.map(|i| f64::from(i) / f64::from(n))
    );
}

fn parry_shape(s: &Shape<f64>) -> Box<dyn parry3d_f64::shape::Shape> {
    use parry3d_f64::shape as ps;
    match &s.geom() {
        cspace::Geom::Sphere { radius } => Box::new(ps::Ball::new(*radius)),
        cspace::Geom::Box { half_extents } => {
            if s.margin() > 0.0 {
                Box::new(ps::RoundShape {
                    inner_shape: ps::Cuboid::new(*half_extents),
                    border_radius: s.margin(),
                })
            } else {
                Box::new(ps::Cuboid::new(*half_extents))
            }
        }
        cspace::Geom::Capsule {
            half_height,
            radius,
        } => Box::new(ps::Capsule::new_y(*half_height, *radius)),
        cspace::Geom::Cylinder {
            half_height,
            radius,
        } => Box::new(ps::Cylinder::new(*half_height, *radius)),
        cspace::Geom::Cone {
            half_height,
            radius,
        } => Box::new(ps::Cone::new(*half_height, *radius)),
        cspace::Geom::Hull(hull) => {
            Box::new(ps::ConvexPolyhedron::from_convex_hull(hull.points()).unwrap())
        }
        cspace::Geom::Point => Box::new(ps::Ball::new(s.margin())),
    }
}

#[test]
fn random_sweeps_agree_with_parry_f64() {
    use parry3d_f64::math::Pose as PPose;
    use parry3d_f64::query::{ShapeCastOptions, cast_shapes};
    let mut rng = Lcg(23);
    let (mut compared, mut worst) = (0, 0.0f64);
    let (mut ours_closer, mut theirs_closer) = (0, 0);
    let mut disagreements = Vec::new();
    for _ in 0..1500 {
        let (sa, sb) = (random_shape(&mut rng), random_shape(&mut rng));
        let a = Placed::new(&sa, Pose::new(rng.vec(8.0), rng.quat()));
        let b = Placed::new(&sb, Pose::new(rng.vec(8.0), rng.quat()));
        let m = (b.pose.position - a.pose.position) * 1.5 + rng.vec(4.0);
        let ours = sweep::conservative_advancement(&a, m, &b);
        let (pa, pb) = (parry_shape(&sa), parry_shape(&sb));
        let opts = ShapeCastOptions {
            max_time_of_impact: 1.0,
            ..ShapeCastOptions::default()
        };
        let theirs = cast_shapes(
            &PPose::from_parts(a.pose.position, a.pose.rotation),
            m,
            pa.as_ref(),
            &PPose::from_parts(b.pose.position, b.pose.rotation),
            DVec3::ZERO,
            pb.as_ref(),
            opts,
        )
        .unwrap();
        match theirs {
            Some(hit) if ours.hit => {
                compared += 1;
                let err = (hit.time_of_impact - ours.toi).abs();
                worst = worst.max(err);
                if err > 1e-9 {
                    // Who is right? The gap (distance, or EPA depth when
                    // overlapping) at each toi: the true toi has gap 0.
                    let gap = |t: f64| {
                        let at =
                            Placed::new(&sa, Pose::new(a.pose.position + m * t, a.pose.rotation));
                        let d = gjk::distance(&at, &b);
                        if d.intersecting {
                            cspace::epa::penetration(&at, &b).depth
                        } else {
                            d.distance
                        }
                    };
                    let (g_ours, g_theirs) = (gap(ours.toi), gap(hit.time_of_impact));
                    if g_ours <= g_theirs {
                        ours_closer += 1;
                    } else {
                        theirs_closer += 1;
                    }
                }
                if err > 1e-5 {
                    disagreements.push((ours.toi, hit.time_of_impact));
                }
            }
            None if !ours.hit => {}
            other => {
                // Only grazing contacts may differ: check ours against the geometry.
                assert_consistent("ca vs parry", &ours, &a, m, &b);
                disagreements.push((ours.toi, other.map_or(f64::NAN, |h| h.time_of_impact)));
            }
        }
    }
    eprintln!(
        "parry f64: {compared} hits compared, worst toi difference {worst:e}, {} disagreements: {disagreements:?}",
        disagreements.len()
    );
    eprintln!(
        "parry f64: toi differences above 1e-9: ours closer to contact in {ours_closer}, parry's in {theirs_closer}"
    );
    assert!(compared > 300);
    assert!(
        theirs_closer * 10 <= ours_closer.max(1),
        "parry closer in {theirs_closer} cases"
    );
    assert!(disagreements.len() * 100 <= compared, "{disagreements:?}");
}

#[test]
fn random_sweeps_agree_with_parry_f32() {
    use parry3d::math::Pose as PPose;
    use parry3d::query::{ShapeCastOptions, cast_shapes};
    use parry3d::shape as ps;
    let mut rng = Lcg(29);
    let (mut compared, mut worst, mut differ) = (0, 0.0f32, 0);
    for _ in 0..1000 {
        let ha = rng.vec(1.0).abs() + DVec3::splat(0.2);
        let rb = rng.range(0.1, 1.5) as f32;
        let (sa, sb) = (
            Shape::<f32>::cuboid(ha.as_vec3a()),
            Shape::<f32>::sphere(rb),
        );
        let pa = rng.vec(6.0).as_vec3();
        let pb = rng.vec(6.0).as_vec3();
        let qa = rng.quat().as_quat();
        let m = (pb - pa) * 1.5 + rng.vec(3.0).as_vec3();
        let a = Placed::new(&sa, Pose::new(pa.into(), qa));
        let b = Placed::new(&sb, Pose::from_position(pb.into()));
        let ours = sweep::conservative_advancement(&a, m.into(), &b);
        let opts = ShapeCastOptions {
            max_time_of_impact: 1.0,
            ..ShapeCastOptions::default()
        };
        let theirs = cast_shapes(
            &PPose::from_parts(pa, qa),
            m,
            &ps::Cuboid::new(ha.as_vec3()),
            &PPose::from_translation(pb),
            Vec3::ZERO,
            &ps::Ball::new(rb),
            opts,
        )
        .unwrap();
        match theirs {
            Some(h) if ours.hit => {
                compared += 1;
                worst = worst.max((h.time_of_impact - ours.toi).abs());
            }
            None if !ours.hit => {}
            _ => differ += 1,
        }
    }
    eprintln!(
        "parry f32: {compared} hits compared, worst toi difference {worst:e}, {differ} hit/miss differences"
    );
    assert!(compared > 200 && worst < 1e-3 && differ * 100 <= compared);
}

// ----- invariances ------------------------------------------------------------

#[test]
fn invariant_under_swap_translation_and_scale() {
    let mut rng = Lcg(31);
    for _ in 0..300 {
        let (sa, sb) = (random_shape(&mut rng), random_shape(&mut rng));
        let (pa, pb) = (
            Pose::new(rng.vec(5.0), rng.quat()),
            Pose::new(rng.vec(5.0), rng.quat()),
        );
        let m = (pb.position - pa.position) * 1.5 + rng.vec(2.0);
        for (name, f) in methods::<f64>() {
            let base = f(&Placed::new(&sa, pa), m, &Placed::new(&sb, pb));
            if !base.hit || base.toi == 0.0 {
                continue;
            }
            // Swap: B moves by −m against a static A.
            let sw = f(&Placed::new(&sb, pb), -m, &Placed::new(&sa, pa));
            assert!(
                sw.hit && (sw.toi - base.toi).abs() <= 1e-6,
                "{name} swap: {} vs {}",
                sw.toi,
                base.toi
            );
            // Vertex and edge contacts have a cone of normals: each must be valid.
            assert_consistent(name, &sw, &Placed::new(&sb, pb), -m, &Placed::new(&sa, pa));
            assert!(
                sw.normal.dot(base.normal) < 0.0,
                "{name} swap normal {sw:?} {base:?} {sa:?} {sb:?} {pa:?} {pb:?} {m}"
            );
            // Far from the origin.
            let far = DVec3::new(3e4, -7e4, 1e5);
            let tr = f(
                &Placed::new(&sa, Pose::new(pa.position + far, pa.rotation)),
                m,
                &Placed::new(&sb, Pose::new(pb.position + far, pb.rotation)),
            );
            assert!(
                tr.hit && (tr.toi - base.toi).abs() <= 1e-6,
                "{name} far: {} vs {}",
                tr.toi,
                base.toi
            );
            // Scaled.
            for k in [1e-3, 1e3] {
                let (ka, kb) = (sa.scaled(k), sb.scaled(k));
                let sc = f(
                    &Placed::new(&ka, Pose::new(pa.position * k, pa.rotation)),
                    m * k,
                    &Placed::new(&kb, Pose::new(pb.position * k, pb.rotation)),
                );
                assert!(
                    sc.hit && (sc.toi - base.toi).abs() <= 1e-6,
                    "{name} ×{k}: {} vs {}",
                    sc.toi,
                    base.toi
                );
            }
        }
    }
}

// ----- properties ---------------------------------------------------------------

fn arb_shape() -> impl Strategy<Value = Shape<f64>> {
    let size = 0.0..3.0f64;
    prop_oneof![
        size.clone().prop_map(Shape::sphere),
        (size.clone(), size.clone(), size.clone())
            .prop_map(|(x, y, z)| Shape::cuboid(DVec3::new(x, y, z))),
        (size.clone(), size.clone()).prop_map(|(h, r)| Shape::capsule(h, r)),
        (size.clone(), size.clone()).prop_map(|(h, r)| Shape::cylinder(h, r)),
        (size.clone(), size.clone()).prop_map(|(h, r)| Shape::cone(h, r)),
        prop::collection::vec((-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64), 1..6).prop_map(|p| {
            Shape::hull(p.into_iter().map(|(x, y, z)| DVec3::new(x, y, z)).collect())
        }),
        Just(Shape::new(cspace::Geom::Point)),
    ]
    .prop_flat_map(|s| (Just(s), prop_oneof![Just(0.0), 0.0..0.5f64]))
    .prop_map(|(s, m)| s.with_margin(m))
}

fn arb_vec(s: f64) -> impl Strategy<Value = DVec3> {
    (-s..s, -s..s, -s..s).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn sweeps_never_panic_nan_or_loop(
        sa in arb_shape(), sb in arb_shape(),
        pa in arb_vec(5.0), pb in arb_vec(5.0), m in arb_vec(12.0),
        axis in arb_vec(1.0), angle in 0.0..6.3f64,
    ) {
        let rot = DQuat::from_axis_angle(axis.try_normalize().unwrap_or(DVec3::X), angle);
        let a = Placed::new(&sa, Pose::new(pa, rot));
        let b = Placed::new(&sb, Pose::from_position(pb));
        for (name, f) in methods::<f64>() {
            let s = f(&a, m, &b);
            prop_assert!(s.toi.is_finite() && s.normal.is_finite() && s.point.is_finite(), "{name}: {s:?}");
            prop_assert!((0.0..=1.0).contains(&s.toi), "{name}: {s:?}");
            prop_assert!(!s.hit || (s.normal.length() - 1.0).abs() < 1e-6, "{name}: {s:?}");
            prop_assert!(s.iterations < 4 * 128 * 128, "{name}: {s:?}");
            prop_assert!(s.status != Status::MaxIterations || s.hit, "{name}: {s:?}");
        }
    }
}

/// A review's case: f32 swept MPR of two plates 1.4e-8 and 1.7e-8 thick.
/// Its cast put the far side past the motion's end, the sweep took that for
/// an overlap at t = 0 and answered toi 0, `[0, 0]`, `Converged`, with the
/// plates 0.49 apart there. An overlap at t = 0 that a penetration query
/// does not find goes to conservative advancement.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_cast_past_the_motions_end_is_no_overlap_unless_found() {
    let f32_pose = |x: [f64; 3], q: [f64; 4]| {
        Pose::new(
            Vec3A::from(DVec3::from_array(x).as_vec3()),
            DQuat::from_xyzw(q[0], q[1], q[2], q[3]).as_quat(),
        )
    };
    let a = Shape::<f64>::cuboid(DVec3::new(
        1.623092770576477,
        0.6875703930854797,
        7.025958037587543e-9,
    ))
    .to_precision::<f32>();
    let b = Shape::<f64>::cuboid(DVec3::new(
        0.3802735507488251,
        1.0724836587905884,
        8.699204911977176e-9,
    ))
    .to_precision::<f32>();
    let pa = f32_pose(
        [-1.7319306135177612, 1.1418968439102173, 0.2909463942050934],
        [
            0.3110268712043762,
            0.05750838294625282,
            0.9474759697914124,
            0.04737471416592598,
        ],
    );
    let pb = f32_pose(
        [-3.607494354248047, 2.637822151184082, 0.8765558004379272],
        [
            0.3722602128982544,
            0.8668709993362427,
            -0.31078460812568665,
            -0.11562831699848175,
        ],
    );
    let motion = Vec3A::from(
        DVec3::new(-3.8846726417541504, 2.4104087352752686, -1.5219587087631226).as_vec3(),
    );
    let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
    assert!(!gjk::distance(&pa, &pb).intersecting);
    let s = sweep::swept_mpr(&pa, motion, &pb);
    assert!(s.hit, "{s:?}");
    assert!(s.toi_lower > 0.1 || s.status != Status::Converged, "{s:?}");
}
