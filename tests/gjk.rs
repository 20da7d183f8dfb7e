//! GJK distance and intersection: exact ground truth, published failure
//! configurations, invariances, cross-checks against parry, recording and
//! properties (the warm start's tests are in `warm.rs`).
//!
//! (~900 lines: one algorithm's integration tests, each a few dozen lines;
//! the shared generators live in `gjk_common/`.)

#![allow(clippy::too_many_lines, clippy::cast_lossless)]

mod gjk_common;

use cspace::gjk::{self, SimplexCache};
use cspace::{Placed, Pose, Shape, Status};
use gjk_common::{Rng, cross_check_distance, pl, random_case};
use glam::{DQuat, DVec3, Quat, Vec3A};

type S = Shape<f64>;
type S32 = Shape<f32>;

// ---------------------------------------------------------------- exact cases

#[test]
fn sphere_sphere_exact() {
    let a = S::sphere(0.5);
    let b = S::sphere(1.25);
    for &c in &[
        DVec3::new(3.0, 0.0, 0.0),
        DVec3::new(1.0, -2.0, 3.0),
        DVec3::new(1e-3, 2.0, 0.0),
    ] {
        let r = gjk::distance(&pl(&a, DVec3::ZERO), &pl(&b, c));
        assert!((r.distance - (c.length() - 1.75)).abs() <= 1e-12, "{r:?}");
        assert!((r.point_a - c.normalize() * 0.5).length() < 1e-12);
        assert!((r.point_b - (c - c.normalize() * 1.25)).length() < 1e-12);
        assert!((r.normal - c.normalize()).length() < 1e-12);
        assert_eq!(r.status, Status::Converged);
    }
    // f32.
    let a = S32::sphere(0.5);
    let b = S32::sphere(1.25);
    let r = gjk::distance(&pl(&a, Vec3A::ZERO), &pl(&b, Vec3A::new(1.0, -2.0, 3.0)));
    assert!((r.distance - (14f32.sqrt() - 1.75)).abs() <= 1e-5);
    // Overlapping.
    let b = S::sphere(1.25);
    let r = gjk::distance(&pl(&S::sphere(0.5), DVec3::ZERO), &pl(&b, DVec3::X));
    assert!(r.intersecting && r.distance == 0.0);
}

/// Closest distance between segments p0 + s d0 and p1 + t d1 (s, t ∈ [0, 1]),
/// by brute-force minimisation over a fine grid refined analytically.
fn segment_distance(p0: DVec3, d0: DVec3, p1: DVec3, d1: DVec3) -> f64 {
    // Exact: clamp the unconstrained solution then re-project each side (Ericson 5.1.9).
    let r = p0 - p1;
    let (a, e, f) = (d0.dot(d0), d1.dot(d1), d1.dot(r));
    let c = d0.dot(r);
    let b = d0.dot(d1);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p0 + d0 * s) - (p1 + d1 * t)).length()
}

#[test]
fn capsule_capsule_exact() {
    let mut rng = Rng::new(7);
    for _ in 0..500 {
        let (ha, ra, hb, rb) = (
            rng.range(0.0, 2.0),
            rng.range(0.01, 0.5),
            rng.range(0.0, 2.0),
            rng.range(0.01, 0.5),
        );
        let a = S::capsule(ha, ra);
        let b = S::capsule(hb, rb);
        let pa = rng.pose(3.0);
        let pb = rng.pose(3.0);
        let sa = pa.transform_vector(DVec3::Y * ha);
        let sb = pb.transform_vector(DVec3::Y * hb);
        let exact =
            segment_distance(pa.position - sa, sa * 2.0, pb.position - sb, sb * 2.0) - ra - rb;
        let r = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
        let scale = ha.max(hb) + ra.max(rb);
        if exact > 1e-9 {
            assert!(
                (r.distance - exact).abs() <= 1e-9 * scale,
                "{r:?} vs {exact}"
            );
        } else if exact < -1e-9 {
            assert!(r.intersecting && r.distance == 0.0);
        }
    }
}

#[test]
fn point_box_exact() {
    let mut rng = Rng::new(11);
    let h = DVec3::new(1.0, 2.0, 0.5);
    let b = S::cuboid(h);
    let p = S::new(cspace::Geom::Point);
    for _ in 0..1000 {
        let q = DVec3::new(
            rng.range(-4.0, 4.0),
            rng.range(-4.0, 4.0),
            rng.range(-4.0, 4.0),
        );
        let outside = (q.abs() - h).max(DVec3::ZERO).length();
        let r = gjk::distance(&pl(&p, q), &pl(&b, DVec3::ZERO));
        assert!(
            (r.distance - outside).abs() <= 1e-12 * 2.0,
            "{q} {r:?} {outside}"
        );
        assert_eq!(r.intersecting, outside == 0.0);
        if outside > 0.0 {
            assert!((r.point_b - q.clamp(-h, h)).length() < 1e-12);
        }
    }
}

#[test]
fn aligned_boxes_exact() {
    let mut rng = Rng::new(13);
    for _ in 0..1000 {
        let ha = DVec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        );
        let hb = DVec3::new(
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
            rng.range(0.1, 2.0),
        );
        let c = DVec3::new(
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
        );
        let gap = (c.abs() - ha - hb).max(DVec3::ZERO).length();
        let (a, b) = (S::cuboid(ha), S::cuboid(hb));
        let r = gjk::distance(&pl(&a, DVec3::ZERO), &pl(&b, c));
        assert!((r.distance - gap).abs() <= 1e-12 * 4.0, "{r:?} {gap}");
        // f32.
        let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
        let r = gjk::distance(&pl(&a32, Vec3A::ZERO), &pl(&b32, c.as_vec3a()));
        assert!(
            (f64::from(r.distance) - gap).abs() <= 1e-4 * 4.0,
            "{r:?} {gap}"
        );
    }
}

#[test]
fn hull_vertex_edge_face_contacts() {
    // A tetrahedron above the unit cube's top face (z = 0.5) by 0.25.
    let cube = S::cuboid(DVec3::splat(0.5));
    let tet = |pts: Vec<DVec3>| S::hull(pts);
    // Vertex down onto the face.
    let v = tet(vec![
        DVec3::new(0.1, 0.2, 0.0),
        DVec3::new(1.0, 0.0, 1.0),
        DVec3::new(-1.0, 0.5, 1.0),
        DVec3::new(0.0, -1.0, 1.0),
    ]);
    let r = gjk::distance(&pl(&cube, DVec3::ZERO), &pl(&v, DVec3::new(0.0, 0.0, 0.75)));
    assert!((r.distance - 0.25).abs() < 1e-14, "{r:?}");
    assert!((r.point_b - DVec3::new(0.1, 0.2, 0.75)).length() < 1e-14);
    assert!((r.point_a - DVec3::new(0.1, 0.2, 0.5)).length() < 1e-14);
    assert!((r.normal - DVec3::Z).length() < 1e-14);
    // Edge across the face.
    let e = tet(vec![
        DVec3::new(-0.3, -0.2, 0.0),
        DVec3::new(0.3, 0.2, 0.0),
        DVec3::new(0.0, 1.0, 1.0),
        DVec3::new(0.0, -1.0, 1.0),
    ]);
    let r = gjk::distance(&pl(&cube, DVec3::ZERO), &pl(&e, DVec3::new(0.0, 0.0, 0.75)));
    assert!((r.distance - 0.25).abs() < 1e-14, "{r:?}");
    // Face on face, offset.
    let f = tet(vec![
        DVec3::new(-1.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
    ]);
    let r = gjk::distance(
        &pl(&cube, DVec3::ZERO),
        &pl(&f, DVec3::new(0.3, 0.1, 0.5 + 1e-7)),
    );
    assert!((r.distance - 1e-7).abs() < 1e-14, "{r:?}");
    assert!((r.normal - DVec3::Z).length() < 1e-9);
    // Edge to edge (skew): edge along x at z = 0.5, y = 0.5 (cube) against an edge along y.
    let g = tet(vec![
        DVec3::new(0.0, -1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
        DVec3::new(0.5, 0.0, 1.0),
    ]);
    let rot = DQuat::from_rotation_x(-std::f64::consts::FRAC_PI_4);
    let r = gjk::distance(
        &Placed::new(&cube, Pose::new(DVec3::ZERO, rot)),
        &pl(&g, DVec3::new(0.2, 0.0, 0.5_f64.sqrt() + 0.3)),
    );
    assert!((r.distance - 0.3).abs() < 1e-13, "{r:?}");
}

// -------------------------------------------------- robustness and peer cases

#[test]
fn long_thin_boxes() {
    let thin = S::cuboid(DVec3::new(50.0, 0.005, 0.005));
    let mut rng = Rng::new(17);
    for _ in 0..300 {
        let q = DQuat::from_axis_angle(rng.unit(), rng.range(0.0, 0.01));
        let gap = rng.range(0.0, 0.02);
        let c = DVec3::new(rng.range(-40.0, 40.0), 0.01 + gap, 0.0);
        let r = gjk::distance(
            &pl(&thin, DVec3::ZERO),
            &Placed::new(&thin, Pose::new(c, q)),
        );
        assert!(r.status != Status::MaxIterations, "{r:?}");
        assert!(r.distance <= gap + 1e-12 && r.distance >= 0.0);
        let exact_aligned = gjk::distance(&pl(&thin, DVec3::ZERO), &pl(&thin, c));
        assert!(
            (exact_aligned.distance - gap).abs() < 1e-12 * 50.0,
            "{exact_aligned:?} {gap}"
        );
    }
}

#[test]
fn very_different_scales() {
    let big = S::cuboid(DVec3::splat(1000.0));
    let tiny = S::sphere(1e-3);
    for &g in &[1e-6, 1e-3, 1.0, 10.0] {
        let r = gjk::distance(
            &pl(&big, DVec3::ZERO),
            &pl(&tiny, DVec3::new(300.0, 1000.0 + 1e-3 + g, -200.0)),
        );
        assert!((r.distance - g).abs() <= 1e-9 * 1000.0, "{g} {r:?}");
        let t = S::cuboid(DVec3::splat(1e-3));
        let r = gjk::distance(
            &pl(&t, DVec3::new(0.0, 1000.0 + 1e-3 + g, 0.0)),
            &pl(&big, DVec3::ZERO),
        );
        assert!((r.distance - g).abs() <= 1e-9 * 1000.0, "{g} {r:?}");
    }
}

#[test]
fn grazing_and_touching() {
    let a = S::cuboid(DVec3::splat(0.5));
    for &g in &[0.0, 1e-15, 1e-12, 1e-9, 1e-6] {
        let r = gjk::distance(
            &pl(&a, DVec3::ZERO),
            &pl(&a, DVec3::new(1.0 + g, 0.3, -0.2)),
        );
        assert!((r.distance - g).abs() <= 1e-12, "{g} {r:?}");
        // Touching is decided exactly above 1e-12 of the size (0.5 here).
        assert_eq!(r.intersecting, g < 0.5e-12, "{g}");
        // Sphere grazing a box edge.
        let s = S::sphere(0.25);
        let c = DVec3::new(0.5, 0.5, 0.0) + DVec3::new(1.0, 1.0, 0.0).normalize() * (0.25 + g);
        let r = gjk::distance(&pl(&a, DVec3::ZERO), &pl(&s, c));
        assert!((r.distance - g).abs() <= 1e-12, "{g} {r:?}");
    }
}

/// parry#315: exactly touching cubes gave an arbitrary normal. Expect distance
/// 0, normal +X, witness points on x = 1.
#[test]
fn parry_315_touching_cubes_normal() {
    let c = S::cuboid(DVec3::splat(0.5));
    let r = gjk::distance(
        &pl(&c, DVec3::splat(0.5)),
        &pl(&c, DVec3::new(1.5, 0.5, 0.5)),
    );
    assert_eq!(r.distance, 0.0);
    assert!(r.intersecting);
    assert!((r.normal - DVec3::X).length() < 1e-12, "{r:?}");
    assert!(
        (r.point_a.x - 1.0).abs() < 1e-12 && (r.point_b.x - 1.0).abs() < 1e-12,
        "{r:?}"
    );
}

#[test]
fn nearly_parallel_faces() {
    let a = S::cuboid(DVec3::new(2.0, 0.5, 2.0));
    for &ang in &[1e-9, 1e-6, 1e-3] {
        let q = DQuat::from_rotation_z(ang);
        let r = gjk::distance(
            &pl(&a, DVec3::ZERO),
            &Placed::new(&a, Pose::new(DVec3::new(0.0, 1.1, 0.0), q)),
        );
        // Lowest corner of B: y = 1.1 − (0.5 cos + 2 sin).
        let exact = 1.1 - 0.5 * ang.cos() - 2.0 * ang.sin() - 0.5;
        assert!((r.distance - exact).abs() <= 1e-12, "{ang} {r:?} {exact}");
    }
}

#[test]
fn far_from_origin() {
    let mut rng = Rng::new(19);
    for _ in 0..300 {
        let (a, b, pa, pb) = random_case(&mut rng);
        let base = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
        for &far in &[1e4, 1e5] {
            let t = rng.unit() * far;
            let moved = |p: Pose<f64>| Pose::new(p.position + t, p.rotation);
            let r = gjk::distance(&Placed::new(&a, moved(pa)), &Placed::new(&b, moved(pb)));
            // Rounding of the positions themselves: ~1e-16 × far.
            let tol = 1e-9 * a.scale().max(b.scale()) + 4.0 * f64::EPSILON * far;
            assert!(
                (r.distance - base.distance).abs() <= tol,
                "{far} {base:?} {r:?}"
            );
        }
    }
}

#[test]
fn degenerate_hulls() {
    let cube = S::cuboid(DVec3::splat(0.5));
    let hulls = [
        S::hull(vec![DVec3::new(0.1, 0.2, 0.3)]),
        S::hull(vec![DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0)]),
        S::hull(vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::new(1.0, 1.0, 0.0),
        ]),
        S::hull(vec![DVec3::X; 5]),
        S::hull(vec![
            DVec3::ZERO,
            DVec3::X,
            DVec3::X,
            DVec3::ZERO,
            DVec3::X * 0.5,
        ]),
    ];
    for h in &hulls {
        for &y in &[-3.0, -0.75, -0.5, 0.0, 0.5, 0.7, 2.0] {
            let r = gjk::distance(&pl(&cube, DVec3::ZERO), &pl(h, DVec3::new(0.0, y, 0.1)));
            let p = match &h.geom() {
                cspace::Geom::Hull(hull) => hull.points().to_vec(),
                _ => unreachable!(),
            };
            // Brute force: the hull's points and segments against the box (exact for these sets).
            let mut exact = f64::MAX;
            for i in 0..p.len() {
                for j in 0..p.len() {
                    for k in 0..=100 {
                        let q = p[i].lerp(p[j], f64::from(k) / 100.0) + DVec3::new(0.0, y, 0.1);
                        exact = exact.min((q.abs() - DVec3::splat(0.5)).max(DVec3::ZERO).length());
                    }
                }
            }
            assert!(r.distance <= exact + 1e-12, "{h:?} {y} {r:?} {exact}");
            assert!(r.distance >= exact - 0.02, "{h:?} {y} {r:?} {exact}");
            assert!(r.status == Status::Converged, "{r:?}");
        }
    }
}

/// parry#396: `intersection_test` said false for overlapping cylinders (GJK
/// stall): Cylinder(50, 100) and Cylinder(1.5, 1.0) at identity; also a
/// capsule from (0, −50, 0) to (0, 50, 0) with radius 10.
#[test]
fn parry_396_nested_cylinders_intersect() {
    let big = S::cylinder(50.0, 100.0);
    let small = S::cylinder(1.5, 1.0);
    let cap = S::capsule(50.0, 10.0);
    for (a, b) in [(&big, &small), (&small, &big), (&cap, &small), (&big, &cap)] {
        let o = gjk::intersect(&pl(a, DVec3::ZERO), &pl(b, DVec3::ZERO));
        assert!(o.intersecting, "{o:?}");
        assert!(gjk::distance(&pl(a, DVec3::ZERO), &pl(b, DVec3::ZERO)).intersecting);
    }
}

/// parry#70: false negatives for a capsule (0, ±0.5, 0) r 0.5 or a ball 0.5 at
/// y ∈ [−0.5, 0.5) in 200 steps against Cuboid(50, 50, 50) at (0, −50, 0).
#[test]
fn parry_70_resting_on_big_box() {
    let floor = S::cuboid(DVec3::splat(50.0));
    let cap = S::capsule(0.5, 0.5);
    let ball = S::sphere(0.5);
    for i in 0..200 {
        let y = -0.5 + f64::from(i) / 200.0;
        for s in [&cap, &ball] {
            let o = gjk::intersect(
                &pl(s, DVec3::new(0.0, y, 0.0)),
                &pl(&floor, DVec3::new(0.0, -50.0, 0.0)),
            );
            assert!(o.intersecting, "{y}");
        }
    }
}

/// libccd `boxbox.c`: box (1, 2, 1) (full edges) against box (2, 1, 2), the
/// first moving from x = −5 by 0.1: apart for i < 35 or i > 65, overlapping
/// for 36..=64; also rotated π/4 about y at (−5, 0.5, 0): apart for i < 33 or i > 67.
#[test]
fn libccd_boxbox_sweep() {
    let a = S::cuboid(DVec3::new(0.5, 1.0, 0.5));
    let b = S::cuboid(DVec3::new(1.0, 0.5, 1.0));
    for i in 0..100 {
        let x = -5.0 + 0.1 * f64::from(i);
        let o = gjk::intersect(&pl(&a, DVec3::new(x, 0.0, 0.0)), &pl(&b, DVec3::ZERO));
        if !(35..=65).contains(&i) {
            assert!(!o.intersecting, "{i}");
        } else if (36..=64).contains(&i) {
            assert!(o.intersecting, "{i}");
        }
        let q = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_4);
        let o = gjk::intersect(
            &Placed::new(&a, Pose::new(DVec3::new(x, 0.5, 0.0), q)),
            &pl(&b, DVec3::ZERO),
        );
        if !(33..=67).contains(&i) {
            assert!(!o.intersecting, "rotated {i}");
        } else if (34..=66).contains(&i) {
            assert!(o.intersecting, "rotated {i}");
        }
    }
    // Two unit cubes, the first at x = −1.01 turning about y by π/20: overlapping except at 0, 10, 20.
    let c = S::cuboid(DVec3::splat(0.5));
    for i in 0..=20 {
        let q = DQuat::from_rotation_y(std::f64::consts::PI / 20.0 * f64::from(i));
        let o = gjk::intersect(
            &Placed::new(&c, Pose::new(DVec3::new(-1.01, 0.0, 0.0), q)),
            &pl(&c, DVec3::ZERO),
        );
        assert_eq!(o.intersecting, i % 10 != 0, "{i}");
    }
}

/// libccd `spheresphere.c`: spheres r 0.35 and 0.5, the first at x = −5 + 0.1 i,
/// intersect iff 42 ≤ i ≤ 58.
#[test]
fn libccd_spheresphere() {
    let (a, b) = (S::sphere(0.35), S::sphere(0.5));
    for i in 0..100 {
        let o = gjk::intersect(
            &pl(&a, DVec3::new(-5.0 + 0.1 * f64::from(i), 0.0, 0.0)),
            &pl(&b, DVec3::ZERO),
        );
        assert_eq!(o.intersecting, (42..=58).contains(&i), "{i}");
    }
}

/// Jolt `EPATests.cpp`: box (−2, −3, −4)–(2, 3, 4) and a sphere 2 away from a
/// face, an edge or a vertex: radius 1.99 misses, 2.01 hits.
#[test]
fn jolt_box_sphere_margins() {
    let b = S::cuboid(DVec3::new(2.0, 3.0, 4.0));
    let spots = [
        (DVec3::new(2.0, 0.0, 0.0), DVec3::X),
        (
            DVec3::new(2.0, 3.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0).normalize(),
        ),
        (DVec3::new(2.0, 3.0, 4.0), DVec3::ONE.normalize()),
    ];
    for (p, n) in spots {
        for (r, hit) in [(1.99, false), (2.01, true)] {
            let s = S::sphere(r);
            let c = p + n * 2.0;
            assert_eq!(
                gjk::intersect(&pl(&b, DVec3::ZERO), &pl(&s, c)).intersecting,
                hit
            );
            let d = gjk::distance(&pl(&b, DVec3::ZERO), &pl(&s, c));
            assert!((d.distance - (2.0 - r).max(0.0)).abs() < 1e-12, "{d:?}");
        }
    }
}

/// Jolt#1379: box (10³ half extents) against a unit sphere far away: the
/// distance stays exact up to x = 10000.
#[test]
fn jolt_1379_far_sphere() {
    let b = S::cuboid(DVec3::splat(10.0));
    let s = S::sphere(1.0);
    for i in 0..=100 {
        let x = 100.0 * f64::from(i);
        let d = gjk::distance(&pl(&b, DVec3::ZERO), &pl(&s, DVec3::new(x, 0.0, 0.0)));
        let exact = (x - 11.0).max(0.0);
        assert!(
            (d.distance - exact).abs() <= 1e-12 * x.max(10.0),
            "{x} {d:?}"
        );
    }
}

/// bullet3#2579: a sphere r 0.01 among 0.005-edge boxes was missed in single
/// precision. Both precisions must agree with the f64 ground truth.
#[test]
fn bullet_2579_small_sphere_single_precision() {
    let s = S::sphere(0.01);
    let bx = S::cuboid(DVec3::splat(0.0025));
    let c = DVec3::new(0.019_576, -1.031_15, 0.398_155);
    for z in [0.3925, 0.3975, 0.4025] {
        let p = DVec3::new(0.0275, -1.0275, z);
        let exact = ((c - p).abs() - DVec3::splat(0.0025))
            .max(DVec3::ZERO)
            .length()
            - 0.01;
        let d = gjk::distance(&pl(&s, c), &pl(&bx, p));
        assert!((d.distance - exact.max(0.0)).abs() < 1e-14, "{d:?} {exact}");
        let d32 = gjk::distance(
            &pl(&s.to_precision::<f32>(), c.as_vec3a()),
            &pl(&bx.to_precision::<f32>(), p.as_vec3a()),
        );
        assert!(
            (f64::from(d32.distance) - exact.max(0.0)).abs() < 1e-6,
            "{d32:?} {exact}"
        );
        assert_eq!(d32.intersecting, exact <= 0.0);
        assert_eq!(
            gjk::intersect(
                &pl(&s.to_precision::<f32>(), c.as_vec3a()),
                &pl(&bx.to_precision::<f32>(), p.as_vec3a())
            )
            .intersecting,
            exact <= 0.0
        );
    }
}

/// openGJK#13: false negatives for deeply penetrating 8-vertex cubes.
#[test]
fn opengjk_13_deep_cubes_intersect() {
    let mut rng = Rng::new(23);
    let corners: Vec<DVec3> = (0..8)
        .map(|i| DVec3::new(f64::from(i & 1), f64::from((i >> 1) & 1), f64::from(i >> 2)) - 0.5)
        .collect();
    let cube = S::hull(corners);
    for _ in 0..10_000 {
        let pa = Pose::new(rng.unit() * rng.range(0.0, 0.4), rng.rotation());
        let pb = Pose::new(rng.unit() * rng.range(0.0, 0.4), rng.rotation());
        assert!(gjk::intersect(&Placed::new(&cube, pa), &Placed::new(&cube, pb)).intersecting);
    }
}

/// libccd#68/#7: touching boxes produced NaN.
#[test]
fn libccd_68_touching_boxes_finite() {
    let a = S::cuboid(DVec3::new(0.5, 0.5, 0.5));
    for q in [
        DQuat::IDENTITY,
        DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2),
    ] {
        let r = gjk::distance(
            &pl(&a, DVec3::ZERO),
            &Placed::new(&a, Pose::new(DVec3::new(0.0, 1.0, 0.0), q)),
        );
        assert_eq!(r.distance, 0.0);
        assert!(r.point_a.is_finite() && r.point_b.is_finite() && r.normal.is_finite());
    }
}

// ----------------------------------------------------------------- invariances

#[test]
fn invariances() {
    let mut rng = Rng::new(29);
    for _ in 0..500 {
        let (a, b, pa, pb) = random_case(&mut rng);
        let scale = a.scale().max(b.scale());
        let base = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
        let tol = 1e-9 * scale;
        // Swap.
        let s = gjk::distance(&Placed::new(&b, pb), &Placed::new(&a, pa));
        assert!(
            (s.distance - base.distance).abs() <= tol,
            "swap {base:?} {s:?}"
        );
        assert_eq!(s.intersecting, base.intersecting);
        if !base.intersecting {
            // On curved shapes the direction converges as the square root of the distance gap.
            assert!((s.normal + base.normal).length() < 1e-4, "{base:?} {s:?}");
        }
        // Rotate both about the origin.
        let q = rng.rotation();
        let rot = |p: Pose<f64>| Pose::new(q * p.position, q * p.rotation);
        let r = gjk::distance(&Placed::new(&a, rot(pa)), &Placed::new(&b, rot(pb)));
        assert!(
            (r.distance - base.distance).abs() <= tol,
            "rotate {base:?} {r:?}"
        );
        // Scale both.
        for k in [1e-3, 1e3] {
            let (sa, sb) = (a.scaled(k), b.scaled(k));
            let sp = |p: Pose<f64>| Pose::new(p.position * k, p.rotation);
            let r = gjk::distance(&Placed::new(&sa, sp(pa)), &Placed::new(&sb, sp(pb)));
            assert!(
                (r.distance - base.distance * k).abs() <= tol * k,
                "scale {k} {base:?} {r:?}"
            );
        }
    }
}

// --------------------------------------------------------------- parry checks

#[test]
fn cross_check_parry_f64() {
    let mut rng = Rng::new(31);
    let stats = cross_check_distance::<f64>(&mut rng, 3000);
    eprintln!("f64 vs parry: {stats:?}");
    assert_eq!(stats.ours_wrong, 0, "{stats:?}");
}

#[test]
fn cross_check_parry_f32() {
    let mut rng = Rng::new(37);
    let stats = cross_check_distance::<f32>(&mut rng, 3000);
    eprintln!("f32 vs parry: {stats:?}");
    assert_eq!(stats.ours_wrong, 0, "{stats:?}");
}

// ------------------------------------------------------------------ intersect

#[test]
fn intersect_agrees_with_distance() {
    let mut rng = Rng::new(41);
    for _ in 0..3000 {
        let (a, b, pa, pb) = random_case(&mut rng);
        let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
        let d = gjk::distance(&a, &b);
        let o = gjk::intersect(&a, &b);
        if d.distance > 1e-9 * a.shape.scale().max(b.shape.scale()) || d.intersecting {
            assert_eq!(o.intersecting, d.intersecting, "{d:?} {o:?}");
        }
        // Boxes apart answered by the separating axis test take no GJK
        // iteration (with margins intersect runs GJK on them).
        if d.iterations > 0 {
            assert!(o.iterations <= d.iterations.max(2) + 1, "{d:?} {o:?}");
        }
    }
}

// ------------------------------------------------------------------ recording

#[cfg(feature = "record")]
#[test]
fn distance_is_recorded() {
    use cspace_recorder as rec;
    let a = S::cuboid(DVec3::new(1.0, 0.5, 0.5));
    let b = S::hull(vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]);
    let (a, b) = (
        pl(&a, DVec3::ZERO),
        Placed::new(
            &b,
            Pose::new(DVec3::new(2.0, 1.0, 0.3), DQuat::from_rotation_z(0.3)),
        ),
    );
    let (d, recording) = rec::record(|| gjk::distance(&a, &b));
    assert!(d.distance > 0.0);
    let ev = recording.events();
    let count = |k: rec::EventKind| ev.iter().filter(|e| e.kind() == k).count();
    assert!(count(rec::EventKind::Pause) >= 2);
    assert_eq!(count(rec::EventKind::Shapes), 1);
    assert!(count(rec::EventKind::Simplex) >= 2);
    assert!(count(rec::EventKind::Value) >= 2);
    assert!(count(rec::EventKind::Text) >= 1);
    // Recording changes nothing.
    assert_eq!(d, gjk::distance(&a, &b));
}

// ------------------------------------------------------------------ properties

/// A review's case: a needle cone (radius 3.8e-9) 1.4e-9 from a plate
/// 2e-9 thick, seen across the plate's narrow side. GJK's thin simplex held
/// the origin to rounding only, and the answer was intersecting,
/// `Converged`, with its closest points 0.36 apart. An intersecting answer
/// is `Converged` only where its points meet.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn an_overlap_whose_points_are_apart_is_not_converged() {
    let a = Shape::<f64>::cone(0.8658885579031252, 3.788587073274546e-9);
    let b = Shape::<f64>::cuboid(DVec3::new(
        0.22818787327933046,
        1.0636239140616761,
        1.0268063184070187e-9,
    ));
    let pa = Pose::new(
        DVec3::new(0.9168875485345519, 1.3527121144554004, -2.326870034359723),
        DQuat::from_xyzw(
            -0.9317270471679557,
            0.18074680188292996,
            0.31492677777369654,
            0.006035546856039768,
        ),
    );
    let pb = Pose::new(
        DVec3::new(1.3537456156409757, 2.431674667288997, -2.5836360836787398),
        DQuat::from_xyzw(
            0.34893223350400443,
            0.7487119400136925,
            -0.1480318206586287,
            0.5438412519985325,
        ),
    );
    let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
    let d = gjk::distance(&pa, &pb);
    let w = gjk::distance_warm(&pa, &pb, &mut SimplexCache::default());
    for d in [d, w] {
        let meet = d.upper_bound <= 1e-9;
        assert!(
            d.status != Status::Converged || !d.intersecting || meet,
            "{d:?}"
        );
    }
}

mod properties {
    use super::*;
    use gjk_common::arb_shape;
    use proptest::prelude::*;

    fn pose() -> impl Strategy<Value = Pose<f64>> {
        (
            (-1e3..1e3f64, -1e3..1e3f64, -1e3..1e3f64),
            (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
        )
            .prop_map(|((x, y, z), (a, b, c, d))| {
                let q = DQuat::from_xyzw(a, b, c, d);
                let q = if q.length() > 1e-3 {
                    q.normalize()
                } else {
                    DQuat::IDENTITY
                };
                Pose::new(DVec3::new(x, y, z) * 0.01, q)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn never_panics_nan_or_unbounded(a in arb_shape(), b in arb_shape(), pa in pose(), pb in pose()) {
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let d = gjk::distance(&a, &b);
            prop_assert!(d.distance.is_finite() && d.distance >= 0.0);
            prop_assert!(d.point_a.is_finite() && d.point_b.is_finite());
            prop_assert!((d.normal.length() - 1.0).abs() < 1e-9);
            prop_assert!(d.iterations <= gjk::MAX_ITERS);
            let o = gjk::intersect(&a, &b);
            prop_assert!(o.iterations <= gjk::MAX_ITERS);
            let (a32, b32) = (a.shape.to_precision::<f32>(), b.shape.to_precision::<f32>());
            let f = |p: Pose<f64>| Pose::new(p.position.as_vec3a(), p.rotation.as_quat().normalize());
            let d = gjk::distance(&Placed::new(&a32, f(a.pose)), &Placed::new(&b32, f(b.pose)));
            prop_assert!(d.distance.is_finite() && d.distance >= 0.0);
            prop_assert!(d.point_a.is_finite() && d.point_b.is_finite());
            prop_assert!((d.normal.length() - 1.0).abs() < 1e-5);
            let _ = Quat::IDENTITY;
        }
    }
}

// ------------------------------------------------ disagreements with parry

/// Found by `cross_check_parry_f32`: parry3d 0.31 (f32) reports 0.68237 for
/// this hull–capsule pair. Our answer is certified in f64 on the very same
/// (f32) shapes: our normal separates them by at least `lower`, and our
/// witness points are `upper` apart, with `upper − lower` ≈ 1e-7. Parry is
/// 5e-3 (0.7 %) too far: its GJK stopped early on the curved capsule.
#[test]
fn parry_error_f32_hull_capsule_distance() {
    use gjk_common::{Parry, distance_lower_bound, outside_by, wide};
    let v = |x: f32, y: f32, z: f32| Vec3A::new(x, y, z);
    let a = S32::hull(vec![
        v(-0.239_425_58, -0.347_921_76, -0.020_323_737),
        v(-0.252_147_4, -0.056_953_13, 0.063_737_89),
        v(-0.085_819_334, 0.204_111_19, -0.106_391_89),
        v(0.069_452_04, -0.258_363_5, 0.263_215_5),
        v(-0.041_795_32, 0.459_096_97, 0.002_599_046_3),
        v(0.100_950_405, 0.356_980_65, 0.471_557_3),
        v(-0.177_696_76, -0.180_838_32, -0.135_515_5),
        v(0.025_556_18, -0.189_009_64, -0.247_218_42),
        v(0.222_861_16, -0.139_367_68, -0.131_879_12),
        v(-0.139_039_83, -0.233_499_7, 0.301_167_46),
        v(-0.181_456_2, 0.220_514_33, -0.216_201_66),
        v(0.047_762_267, -0.044_011_764, 0.389_641_37),
    ]);
    let pa = Pose::new(
        v(0.808_720_05, 0.807_752_9, 0.269_827_96),
        Quat::from_xyzw(-0.614_154_5, 0.110_115_014, -0.600_558_16, -0.500_018_84),
    );
    let b = S32::capsule(1.820_329_5, 0.375_829_96).with_margin(0.203_798_16);
    let pb = Pose::new(
        v(1.235_934_7, -0.833_189_7, 2.887_701_3),
        Quat::from_xyzw(-0.462_707_22, 0.580_614_2, 0.634_972_93, -0.213_538_17),
    );
    let ours = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
    let theirs = <f32 as Parry>::parry_distance(&a, &pa, &b, &pb).unwrap();
    // The certificate, in f64 on the same shapes.
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let (pa64, pb64) = (<f32 as Parry>::pose64(&pa), <f32 as Parry>::pose64(&pb));
    let (a64, b64) = (Placed::new(&a64, pa64), Placed::new(&b64, pb64));
    let lower = distance_lower_bound(&a64, &b64, wide::<f32>(ours.normal));
    let (qa, qb) = (wide::<f32>(ours.point_a), wide::<f32>(ours.point_b));
    assert!(outside_by(&a64, qa) < 1e-6 && outside_by(&b64, qb) < 1e-6);
    let upper = (qa - qb).length();
    assert!(upper - lower < 1e-6, "{lower} {upper}");
    assert!(
        (f64::from(ours.distance) - lower).abs() < 1e-6,
        "{ours:?} {lower}"
    );
    assert!(
        theirs > upper + 4e-3,
        "parry {theirs} vs certified ≤ {upper}"
    );
    // f64 GJK on the same shapes agrees, with its own tighter certificate.
    let d64 = gjk::distance(&a64, &b64);
    assert!(
        (d64.distance - f64::from(ours.distance)).abs() < 1e-6,
        "{d64:?} {ours:?}"
    );
    let l64 = distance_lower_bound(&a64, &b64, d64.normal);
    assert!((d64.distance - l64).abs() < 1e-12, "{d64:?} {l64}");
}

/// libccd `cylcyl.c`: cylinders r 0.35 / height 0.5 and r 0.5 / height 1
/// (axes along z), the first at x = −5 + 0.1 i: intersect iff 42 ≤ i ≤ 58.
#[test]
fn libccd_cylcyl() {
    let q = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2);
    let (a, b) = (S::cylinder(0.25, 0.35), S::cylinder(0.5, 0.5));
    for i in 0..100 {
        let pa = Placed::new(
            &a,
            Pose::new(DVec3::new(-5.0 + 0.1 * f64::from(i), 0.0, 0.0), q),
        );
        let o = gjk::intersect(&pa, &Placed::new(&b, Pose::new(DVec3::ZERO, q)));
        assert_eq!(o.intersecting, (42..=58).contains(&i), "{i}");
    }
}

/// A looser tolerance trades accuracy for iterations on curved shapes: the
/// distance stays within `√2 · rel · (distance + size)` of the default answer (an
/// upper bound, never below it by more than rounding), iterations drop, and a
/// tolerance tighter than the default is clamped to it (same answer).
#[test]
fn distance_with_tolerance_bounds_the_error() {
    let mut rng = Rng::new(77);
    let a = S::cylinder(1.0, 0.5);
    let b = S::cylinder(0.8, 0.6);
    let (mut default_iters, mut loose_iters) = (0, 0);
    for _ in 0..500 {
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let pb = Pose::new(
            rng.unit() * rng.range(2.0, 3.5),
            DQuat::from_scaled_axis(rng.unit() * 3.0),
        );
        let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
        let exact = gjk::distance(&pa, &pb);
        for rel in [1e-9, 1e-7, 1e-4, 5e-3] {
            let loose = gjk::distance_with_tolerance(&pa, &pb, rel);
            let bound = std::f64::consts::SQRT_2 * rel * (exact.distance + 1.0) + 1e-12;
            assert!(
                loose.distance - exact.distance <= bound
                    && exact.distance - loose.distance <= 1e-12,
                "rel {rel}: {loose:?} vs {exact:?}"
            );
            // GJK stops earlier; the polish that follows may take a step
            // more from its rougher start (two support calls per step).
            assert!(
                loose.iterations <= exact.iterations + 4,
                "{loose:?} {exact:?}"
            );
            if rel == 5e-3 {
                loose_iters += loose.iterations;
            }
        }
        default_iters += exact.iterations;
        assert_eq!(gjk::distance_with_tolerance(&pa, &pb, 0.0), exact);
    }
    // Below 1e-3 the polish certifies the asked accuracy from a rough GJK
    // (no saving); above it GJK alone stops earlier.
    eprintln!("iterations: default {default_iters}, rel 5e-3 {loose_iters}");
    assert!(
        loose_iters * 4 < default_iters * 3,
        "{loose_iters} vs {default_iters}"
    );
}
