//! GJK distance and intersection: exact ground truth, published failure
//! configurations, invariances, cross-checks against parry, warm start,
//! recording and properties.
//!
//! (~900 lines: one algorithm's integration tests, each a few dozen lines;
//! the shared generators live in `gjk_common/`.)

#![allow(clippy::too_many_lines, clippy::cast_lossless)]

mod gjk_common;

use cspace::gjk::{self, SimplexCache};
use cspace::{Placed, Pose, Shape, Status, Witness};
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

// --------------------------------------------------------- intersect, warm start

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

#[test]
fn warm_start_coherent_frames() {
    let a = S::hull(
        (0..16)
            .map(|i| {
                let t = f64::from(i) * 0.7;
                DVec3::new(t.cos(), (t * 1.3).sin(), (t * 0.4).cos())
            })
            .collect(),
    );
    let b = S::cuboid(DVec3::new(0.5, 0.3, 0.8));
    let mut cache = SimplexCache::default();
    let (mut cold_iters, mut warm_iters, mut one) = (0, 0, 0);
    let frames = 200;
    for f in 0..frames {
        let t = f64::from(f) * 0.01;
        let pb = Pose::new(
            DVec3::new(3.0 + t.sin(), 0.2 * t, 0.1),
            DQuat::from_rotation_y(t * 0.5),
        );
        let (pa, pb) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
        let cold = gjk::distance(&pa, &pb);
        let warm = gjk::distance_warm(&pa, &pb, &mut cache);
        assert!(
            (cold.distance - warm.distance).abs() < 1e-12,
            "{cold:?} {warm:?}"
        );
        cold_iters += cold.iterations;
        warm_iters += warm.iterations;
        one += u32::from(warm.iterations == 1);
    }
    eprintln!("cold {cold_iters} warm {warm_iters} one-iteration frames {one}/{frames}");
    assert!(warm_iters * 2 < cold_iters);
    assert!(one * 2 > frames);
}

/// B's pose at frame `f` of a coherent motion from `start` and `spin`:
/// 0.002 of drift and 0.01 rad of turn per frame.
fn drift(start: DVec3, spin: DQuat, f: u32) -> Pose<f64> {
    let t = f64::from(f);
    Pose::new(
        start + DVec3::new(0.002, -0.001, 0.0015) * t,
        DQuat::from_rotation_y(0.01 * t) * spin,
    )
}

/// Boxes moving coherently (f64, margins on some): the warm query (the
/// separating axis test from the last normal, else the whole test, else
/// warm GJK) gives the cold answer: the same verdict and witness
/// classification, the distance within GJK's tolerance, the same points and
/// normal where they are unique; most frames need no GJK iteration.
#[test]
fn warm_start_on_boxes_agrees_with_cold() {
    let mut rng = Rng::new(2718);
    let (mut frames, mut by_axes) = (0, 0);
    for k in 0..40 {
        let margin = if k % 3 == 0 { rng.range(0.0, 0.2) } else { 0.0 };
        let a = S::cuboid(rng.unit().abs() + DVec3::splat(0.1)).with_margin(margin);
        let b = S::cuboid(rng.unit().abs() + DVec3::splat(0.1));
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * rng.range(2.5, 4.0);
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cold = gjk::distance(&a, &b);
            let warm = gjk::distance_warm(&a, &b, &mut cache);
            let scale = a.shape.scale().max(b.shape.scale());
            let label = format!("pair {k} frame {f}: {cold:?} {warm:?}");
            assert_eq!(cold.intersecting, warm.intersecting, "{label}");
            assert!(
                (cold.distance - warm.distance).abs() <= 2.0 * 3.7e-11 * scale,
                "{label}"
            );
            assert_eq!(cold.witness, warm.witness, "{label}");
            if cold.witness == Witness::Unique {
                assert!((cold.normal - warm.normal).length() <= 1e-9, "{label}");
                assert!(
                    (cold.point_a - warm.point_a).length() <= 1e-9 * scale,
                    "{label}"
                );
                assert!(
                    (cold.point_b - warm.point_b).length() <= 1e-9 * scale,
                    "{label}"
                );
            }
            frames += 1;
            by_axes += u32::from(warm.iterations == 0);
        }
    }
    eprintln!("{by_axes} of {frames} warm frames answered by the separating axis test");
    assert!(by_axes * 5 > frames * 4, "{by_axes} of {frames}");
}

/// Hulls moving coherently (f64): the warm query classifies every frame as
/// the cold query does: random 16-point hulls, boxes and slabs given as
/// hulls (faces of four points), with B's face turning through parallel to
/// A's (`NotUnique` at that frame, a vertex or edge on either side of it).
/// (It guarded a kept support set that skipped the hull's scan; see
/// BENCHMARKS.md, tenth session.)
#[test]
fn warm_start_on_hulls_keeps_the_cold_classification() {
    let mut rng = Rng::new(4242);
    let corners = |h: DVec3| {
        (0..8)
            .map(|i| {
                let s = |bit: u32| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
                DVec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
            })
            .collect::<Vec<_>>()
    };
    let (mut frames, mut classes) = (0, [0u32; 3]);
    for k in 0..60 {
        let shape = |rng: &mut Rng, kind: u32| match kind {
            0 => S::hull((0..16).map(|_| rng.unit()).collect()),
            1 => S::hull(corners(rng.unit().abs() + DVec3::splat(0.2))),
            _ => S::hull(corners(DVec3::new(1.0, 0.01, 0.7))),
        };
        let (a, b) = (shape(&mut rng, k % 3), shape(&mut rng, (k / 3) % 3));
        // B beside A along x, its rotation about y through A's frame at
        // frame 15 (the boxes' faces parallel there), or a random spin.
        let (start, spin) = if k % 2 == 0 {
            (DVec3::new(3.0, 0.1, -0.05), DQuat::from_rotation_y(-0.15))
        } else {
            (
                rng.unit() * rng.range(2.5, 4.0),
                DQuat::from_scaled_axis(rng.unit() * 3.0),
            )
        };
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (a, b) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
            let cold = gjk::distance(&a, &b);
            let warm = gjk::distance_warm(&a, &b, &mut cache);
            let label = format!("pair {k} frame {f}: {cold:?} {warm:?}");
            assert_eq!(cold.intersecting, warm.intersecting, "{label}");
            assert!((cold.distance - warm.distance).abs() <= 1e-10, "{label}");
            assert_eq!(cold.witness, warm.witness, "{label}");
            if cold.witness == Witness::Unique {
                assert!((cold.normal - warm.normal).length() <= 1e-9, "{label}");
                assert!((cold.point_a - warm.point_a).length() <= 1e-9, "{label}");
                assert!((cold.point_b - warm.point_b).length() <= 1e-9, "{label}");
            }
            frames += 1;
            classes[match cold.witness {
                Witness::Unique => 0,
                Witness::NotUnique => 1,
                Witness::Approximate => 2,
            }] += 1;
        }
    }
    eprintln!("{frames} frames: unique, not unique, other {classes:?}");
    // Both verdicts occur, so both were compared.
    assert!(classes[0] > 100 && classes[1] > 20, "{classes:?}");
}

/// A hull face 40 ulps off a line (a sliver): whether it counts as a thin
/// face or an edge depends on which of its points is highest, which flips
/// as B rocks by ±1e-3 rad; warm and cold classify each frame alike (a
/// review: a kept support set's flats from the frame that filled it said
/// `NotUnique` on every other frame where the cold query said `Unique`).
#[test]
fn a_sliver_face_is_classified_alike_warm_and_cold() {
    let w = 40.0 * f64::EPSILON;
    let a = S::hull(vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.5, 0.0, w),
        DVec3::new(0.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(0.5, -1.0, 1.0),
    ]);
    let b = S::hull(vec![
        DVec3::new(-0.3, 0.0, 0.0),
        DVec3::new(0.3, 0.0, 0.0),
        DVec3::new(0.0, 0.3, 0.1),
        DVec3::new(0.0, 0.3, -0.1),
    ]);
    let mut cache = SimplexCache::default();
    for f in 0..20 {
        let alpha = if f % 2 == 0 { 1e-3 } else { -1e-3 };
        let rotation = DQuat::from_rotation_y(0.5) * DQuat::from_rotation_z(alpha);
        let pb = Pose::new(DVec3::new(0.5, 0.2, 0.0), rotation);
        let (pa, pb) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
        let cold = gjk::distance(&pa, &pb);
        let warm = gjk::distance_warm(&pa, &pb, &mut cache);
        assert_eq!(cold.witness, warm.witness, "frame {f}: {cold:?} {warm:?}");
    }
}

/// Curved pairs moving coherently (f64): the warm start from the last normal
/// (the witness polish instead of GJK's slow rim iterations) is taken, and
/// every warm answer agrees with the cold one within the distance's stated
/// accuracy, with the same unique closest points to 1e-8 of the size.
#[test]
fn warm_start_from_the_last_normal_on_curved_pairs() {
    use cspace_recorder as rec;
    let mut rng = Rng::new(1818);
    let (mut from_normal, mut frames) = (0, 0);
    for k in 0..40 {
        let a = if k % 2 == 0 {
            S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        } else {
            S::cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        };
        let b = S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * 4.0;
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (x, y) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cold = gjk::distance(&x, &y);
            let (warm, recording) = rec::record(|| gjk::distance_warm(&x, &y, &mut cache));
            frames += 1;
            let text = recording.events().iter().any(|e| {
                matches!(e, rec::Event::Text { text, .. } if text.contains("warm start from the last normal"))
            });
            from_normal += u32::from(text);
            let scale = a.scale().max(b.scale());
            let stated = 3.7e-11 * (2.0 * (cold.distance.powi(2) + scale * scale)).sqrt();
            assert!(
                (warm.distance - cold.distance).abs() <= stated
                    && warm.lower_bound <= cold.upper_bound + 1e-15
                    && cold.lower_bound <= warm.upper_bound + 1e-15,
                "frame {f}: {warm:?} vs {cold:?}"
            );
            if warm.witness == cspace::Witness::Unique && cold.witness == cspace::Witness::Unique {
                assert!(
                    (warm.point_a - cold.point_a).length() <= 1e-8 * scale
                        && (warm.point_b - cold.point_b).length() <= 1e-8 * scale
                        && warm.normal.angle_between(cold.normal) <= 1e-7,
                    "frame {f}: {warm:?} vs {cold:?}"
                );
            }
        }
    }
    eprintln!("{from_normal} of {frames} warm frames started from the last normal");
    assert!(from_normal * 4 > frames, "{from_normal} of {frames}");
}

/// The warm and cold answers of a coherent motion of B (`poses`) against A,
/// compared: the same verdict, the distances within `rel` of the size,
/// their bounds overlapping, and unique points within `point` of the size
/// and normals within `normal` rad. The failures, and the warm frames that
/// polished from the kept normals.
fn warm_against_cold<T: cspace::Real>(
    (a, pa): (&Shape<T>, Pose<T>),
    (b, poses): (&Shape<T>, &[Pose<T>]),
    (rel, point, normal): (f64, f64, f64),
) -> (Vec<String>, u32) {
    use cspace_recorder as rec;
    let wide = gjk_common::wide::<T>;
    let mut cache = SimplexCache::default();
    let (mut failures, mut polished) = (Vec::new(), 0);
    let scale = a.scale().max(b.scale()).to_f64();
    for (f, pb) in poses.iter().enumerate() {
        let (x, y) = (Placed::new(a, pa), Placed::new(b, *pb));
        let cold = gjk::distance(&x, &y);
        let (warm, recording) = rec::record(|| gjk::distance_warm(&x, &y, &mut cache));
        polished += u32::from(recording.events().iter().any(|e| {
            matches!(e, rec::Event::Text { text, .. } if text.contains("warm start from the last normal"))
        }));
        let d = |v: T| v.to_f64();
        let stated = 2.0 * rel * (d(cold.distance) + scale);
        let mut ok = cold.intersecting == warm.intersecting
            && (d(warm.distance) - d(cold.distance)).abs() <= stated
            && d(warm.lower_bound) <= d(cold.upper_bound) + stated
            && d(cold.lower_bound) <= d(warm.upper_bound) + stated;
        if warm.witness == Witness::Unique && cold.witness == Witness::Unique {
            ok &= (wide(warm.point_a) - wide(cold.point_a)).length() <= point * scale
                && (wide(warm.point_b) - wide(cold.point_b)).length() <= point * scale
                && wide(warm.normal).angle_between(wide(cold.normal)) <= normal;
        }
        if !ok {
            failures.push(format!("frame {f}: warm {warm:?} cold {cold:?}"));
        }
    }
    (failures, polished)
}

/// Every core against a cylinder or a cone, moving coherently (turning by
/// 0.01 to 0.1 rad a frame), in f64 and f32: the warm query (the polish from the extrapolated last two normals,
/// without GJK, else warm GJK) gives the cold answer to the stated
/// accuracy: unique points within twice the witness tolerance (f64 1e-8
/// of the size, f32 1e-4) and normals within twice theirs (1e-7, 1e-3 rad).
#[test]
fn warm_start_on_curved_pairs_agrees_with_cold_in_f32_and_f64() {
    let mut rng = Rng::new(2611);
    let (mut failures, mut polished, mut frames) = (Vec::new(), [0, 0], 0);
    for k in 0..60 {
        let mut size = || rng.range(0.3, 1.5);
        let a = match k % 5 {
            0 => S::cylinder(size(), size()),
            1 => S::cone(size(), size()),
            2 => S::cuboid(DVec3::new(size(), size(), size())),
            3 => S::capsule(size(), size()),
            _ => S::hull((0..12).map(|_| rng.unit() * rng.range(0.5, 1.2)).collect()),
        };
        let b = if k % 2 == 0 {
            S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        } else {
            S::cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        };
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * 4.5;
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        // 0.01 rad a frame, or 3 or 10 times that (the extrapolation's
        // support sets then span 4 × the turn).
        let rate = [1.0, 3.0, 10.0][k % 3];
        let poses: Vec<Pose<f64>> = (0..30)
            .map(|f| {
                let p = drift(start, spin, f);
                let extra = DQuat::from_rotation_y(0.01 * (rate - 1.0) * f64::from(f));
                Pose::new(p.position, extra * p.rotation)
            })
            .collect();
        let (f64_failures, n) = warm_against_cold((&a, pa), (&b, &poses), (3.7e-11, 2e-8, 2e-7));
        polished[0] += n;
        failures.extend(
            f64_failures
                .into_iter()
                .map(|f| format!("f64 pair {k} {f}")),
        );
        let pose = gjk_common::pose_f32;
        let poses32: Vec<Pose<f32>> = poses.iter().map(pose).collect();
        let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
        let (f32_failures, n) =
            warm_against_cold((&a32, pose(&pa)), (&b32, &poses32), (2.4e-5, 2e-4, 2e-3));
        polished[1] += n;
        failures.extend(
            f32_failures
                .into_iter()
                .map(|f| format!("f32 pair {k} {f}")),
        );
        frames += poses.len();
    }
    eprintln!(
        "warm frames polished from the kept normals: f64 {} f32 {} of {frames}",
        polished[0], polished[1]
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for n in polished {
        assert!(n as usize * 2 > frames, "{polished:?} of {frames}");
    }
}

/// The angle between two directions, in rad.
fn angle_of(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Fails unless `d`, where it says `Unique`, has its normal within
/// `normal_tol` rad of `normal` and (given) its point on A within
/// `point_tol` × `scale` of `point_a`.
fn assert_unique_within<T: cspace::Real>(
    d: &gjk::Distance<T>,
    (point_a, normal, scale): (Option<DVec3>, DVec3, f64),
    (point_tol, normal_tol): (f64, f64),
) {
    let wide = gjk_common::wide::<T>;
    let en = angle_of(wide(d.normal), normal);
    let ep = point_a.map_or(0.0, |p| (wide(d.point_a) - p).length() / scale);
    assert!(
        d.witness != Witness::Unique || (ep <= point_tol && en <= normal_tol),
        "{d:?}: point {ep:e} of the size, normal {en:e} rad off"
    );
}

/// A cone against a hull spinning by 0.03 rad a frame, the third warm
/// query (the first from the last two normals' extrapolation), at a known
/// distance (constructed: 0.4934715258726942 on every frame). Its polish,
/// judged on support sets taken within 4 × the turn (0.3 of the size),
/// took a hull's non-planar "face" for the answer: distance and upper
/// bound 4.9e-6 below the exact one, the normal 2.7e-3 rad off, `Unique`
/// (found by a review). The answer is judged at the default tolerance now.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn warm_start_after_a_large_turn_keeps_the_upper_bound() {
    let a = S::cone(1.4344789814119614, 1.0798419735983846);
    let b = S::hull(vec![
        DVec3::new(-0.7755559592897904, 1.1368926751266357, -0.9917981163028372),
        DVec3::new(1.6344463241515739, 0.2438896901344338, 0.3267171815056508),
        DVec3::new(-1.4969540386214037, 0.42907255382268045, 0.5348946295467907),
        DVec3::new(-1.0382716754980188, 0.6171643801923316, -1.1716277006683047),
        DVec3::new(
            0.09959585634028216,
            0.2105760786315096,
            -0.29696813959302454,
        ),
        DVec3::new(-0.16305082512986102, 1.0892816504588219, 0.8134414451241303),
        DVec3::new(-1.095817120466988, 0.5810299451530836, -1.1314001646505143),
        DVec3::new(
            -0.19367289116579206,
            -0.3933723388784532,
            0.14833931916772944,
        ),
        DVec3::new(-0.6623952313387983, 0.8225825943058038, -0.6451316774173513),
        DVec3::new(
            0.7392793943543745,
            -0.3237624670518676,
            -0.06743288443271443,
        ),
    ]);
    let pose_a = Pose::new(
        DVec3::new(1.2512116589887903, -2.5889898465870935, -2.6006670082270538),
        DQuat::from_xyzw(
            0.5425248751407054,
            -0.28048110344275207,
            0.6519500673671089,
            0.44939761918052085,
        ),
    );
    let poses_b = [
        (
            DVec3::new(3.803296171065642, -3.4205205729046915, -1.79458504043591),
            [
                -0.4018294619887262,
                -0.4847640405578104,
                0.7049561739346476,
                -0.326456277763714,
            ],
        ),
        (
            DVec3::new(3.82262547763891, -3.3657529407833806, -1.731350458621717),
            [
                -0.3876613760302378,
                -0.4779130078028875,
                0.7140755436614831,
                -0.333787256275157,
            ],
        ),
        (
            DVec3::new(3.8403246353317133, -3.3049449364251537, -1.6674448351497038),
            [
                -0.37272512888378795,
                -0.4694015947325738,
                0.7241025960117028,
                -0.34119430184308946,
            ],
        ),
    ];
    let exact = 0.4934715258726942;
    let normal = DVec3::new(0.4157286306989522, -0.8268987562014002, 0.3786926888781344);
    let mut cache = SimplexCache::default();
    let x = Placed::new(&a, pose_a);
    for (f, (p, [qx, qy, qz, qw])) in poses_b.into_iter().enumerate() {
        let y = Placed::new(&b, Pose::new(p, DQuat::from_xyzw(qx, qy, qz, qw)));
        let w = gjk::distance_warm(&x, &y, &mut cache);
        let label = format!("frame {f}: {w:?}");
        assert!(
            w.upper_bound >= exact - 1e-12 && w.lower_bound <= exact + 1e-12,
            "{label}"
        );
        assert!((w.distance - exact).abs() <= 1e-9, "{label}");
        if f == 2 && w.witness == Witness::Unique {
            assert!(angle_of(w.normal, normal) <= 1e-7, "{label}");
        }
    }
}

/// The f32 counterpart: a cylinder against a box turning by 0.01 rad a
/// frame; the third warm answer said `Unique` with its normal 2.6e-3 rad
/// and a point 4.3e-4 of the size off (f32's contract: 1e-3, 1e-4).
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn warm_start_in_f32_keeps_unique_witnesses_within_the_contract() {
    let pose = gjk_common::pose_f32;
    let a = S::cylinder(1.6237758961758437, 0.22021716939303196).to_precision::<f32>();
    let b = S::cuboid(DVec3::new(
        0.3904211867055475,
        1.1003372281564805,
        1.2982837818117612,
    ))
    .to_precision::<f32>();
    let pose_a = pose(&Pose::new(
        DVec3::new(
            0.39474180832435035,
            -0.1314520511935946,
            -2.9644087154706664,
        ),
        DQuat::from_xyzw(
            0.055917885952119266,
            -0.631407913703808,
            -0.5754554756638259,
            0.5167670965448267,
        ),
    ));
    let poses_b = [
        (
            DVec3::new(1.4928988329853072, 1.4646269022954832, 0.09077600383606965),
            [
                0.5783602004431976,
                0.010164263481470065,
                0.1753793709875799,
                -0.796641853358951,
            ],
        ),
        (
            DVec3::new(1.4498029254418996, 1.4610439007454192, 0.1041161608366874),
            [
                0.5783029384405418,
                0.019162213857681826,
                0.1792447280841153,
                -0.7956568659951092,
            ],
        ),
        (
            DVec3::new(1.4050188058996866, 1.4525276154952884, 0.11913970622831238),
            [
                0.5773541570191034,
                0.02843027876341106,
                0.1840682080764422,
                -0.7949671637229571,
            ],
        ),
    ];
    let normal = DVec3::new(0.40357554154744957, 0.4112608592425293, 0.817307339939988);
    let point_a = DVec3::new(1.0748409289533667, 0.5310433358123005, -1.6288530966315657);
    let scale = 1.6237758961758437f64.max(1.2982837818117612);
    let mut cache = SimplexCache::<f32>::default();
    let x = Placed::new(&a, pose_a);
    let mut last = None;
    for (p, [qx, qy, qz, qw]) in poses_b {
        let y = Placed::new(&b, pose(&Pose::new(p, DQuat::from_xyzw(qx, qy, qz, qw))));
        last = Some(gjk::distance_warm(&x, &y, &mut cache));
    }
    let w = last.expect("three frames");
    assert_unique_within(&w, (Some(point_a), normal, scale), (1e-4, 1e-3));
}

/// A hull whose top quad is creased by 1.2e-9 (inside the support sets'
/// default height tolerance) against a cylinder, at a known distance: the
/// witness on that "face" was placed on its plane, above the crease and
/// outside the hull, so the upper bound came out 2.7e-11 below the exact
/// distance, cold and warm (a review). Witnesses on a hull's face are now
/// moved onto a triangle of its points.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_creased_hull_face_keeps_the_upper_bound() {
    let w = 1.1456130802779056;
    let a = S::cylinder(1.901167040415076, 0.9116808096618962);
    let b = S::hull(vec![
        DVec3::new(-w, 0.0, -w),
        DVec3::new(w, 0.0, -w),
        DVec3::new(w, 0.0, w),
        DVec3::new(-w, -1.1527236279393897e-9, w),
        DVec3::new(0.1, -1.0, 0.2),
    ]);
    let pa = Pose::new(
        DVec3::new(-1.1994962726126799, -1.7935580478054023, 0.7792913263708487),
        DQuat::from_xyzw(
            -0.7297851163426236,
            0.664444242149365,
            0.15438787267219364,
            -0.045737488027810365,
        ),
    );
    let pb = Pose::new(
        DVec3::new(0.6663287401854512, -2.960905934426305, 0.913455947112013),
        DQuat::from_xyzw(
            0.4379879305132816,
            -0.6232786253928573,
            -0.3996718615879417,
            -0.5098555980941192,
        ),
    );
    let exact = 0.010796826091061905;
    let normal = DVec3::new(
        0.9535269024084516,
        -0.2968579521040367,
        -0.05159266087284795,
    );
    let x = Placed::new(&a, pa);
    let cold = gjk::distance(&x, &Placed::new(&b, pb));
    assert!(cold.upper_bound >= exact - 1e-13, "{cold:?}");
    let mut cache = SimplexCache::default();
    for s in [2.0, 1.0, 0.0] {
        let y = Placed::new(
            &b,
            Pose::new(pb.position + normal * (1e-3 * s), pb.rotation),
        );
        let warm = gjk::distance_warm(&x, &y, &mut cache);
        assert!(warm.upper_bound >= exact + 1e-3 * s - 1e-13, "{warm:?}");
    }
}

/// A thin plate's short edge, nearly perpendicular to the normal, against
/// a vertex or a segment: GJK's gap cannot tell its two ends apart (the
/// distance moves by the edge's length squared over twice the distance),
/// and it stopped on the wrong end, `Unique` (f32: the point 3.1e-4 of the
/// size and the normal 3.2e-3 rad off; f64: 2.8e-6 and 9.8e-6 rad; a
/// review). A lone vertex of GJK's simplex on a side whose support set is
/// an edge or face now goes to the polish, which places the witness or
/// says the answer is approximate.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_short_edge_against_a_vertex_is_placed_or_flagged() {
    let pose = gjk_common::pose_f32;
    let a = S::cuboid(DVec3::new(
        0.576561778569364,
        1.961478200205605,
        0.00032391588946134836,
    ))
    .to_precision::<f32>();
    let b = S::cuboid(DVec3::new(
        1.287831124427714,
        1.9139463207403309,
        1.9974857518716291,
    ))
    .with_margin(0.1)
    .to_precision::<f32>();
    let pa = Pose::new(
        DVec3::new(-2.8453015678527063, 0.3293939346391239, 0.6788868387104792),
        DQuat::from_xyzw(
            0.5387756921777914,
            0.004795207902692585,
            0.2836405621896807,
            -0.7932501440152617,
        ),
    );
    let pb = Pose::new(
        DVec3::new(-4.800351398873621, 1.7258938985304684, -3.276114597091498),
        DQuat::from_xyzw(
            0.7679878777392826,
            0.47849443298138183,
            -0.39913936483519113,
            0.14807249808893924,
        ),
    );
    let exact_a = DVec3::new(-2.436177096504508, 1.093258751780644, -1.1728550513454217);
    let exact_n = DVec3::new(-0.3875278250571099, 0.510214647393995, -0.7677911163794015);
    let scale = 2.0974857518716292;
    let r = gjk::distance(&Placed::new(&a, pose(&pa)), &Placed::new(&b, pose(&pb)));
    assert_unique_within(&r, (Some(exact_a), exact_n, scale), (1e-4, 1e-3));

    let a = S::cuboid(DVec3::new(
        1.9097586609376294,
        1.9073444070537646,
        3.3643971497917938e-6,
    ));
    let b = S::capsule(1.7056687131099606, 0.6885996513516509);
    let pa = Pose::new(
        DVec3::new(0.019861022633943737, 2.588105518670849, -1.414427114920926),
        DQuat::from_xyzw(
            -0.7849357676593237,
            0.5322242493221189,
            0.20011282496948465,
            0.2461057625601394,
        ),
    );
    let pb = Pose::new(
        DVec3::new(-4.179791687917547, 4.3515003932946605, 0.2047503528370982),
        DQuat::from_xyzw(
            -0.8590501040866184,
            -0.2538075124460546,
            -0.2502182210848864,
            0.3674309555982329,
        ),
    );
    let exact_a = DVec3::new(-2.436518850246311, 3.399911766161151, -0.644810738535013);
    let exact_n = DVec3::new(
        -0.9941476009632622,
        -0.10694161610734632,
        -0.015298308512361969,
    );
    let scale = 2.3942683644616114;
    let r = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
    assert_unique_within(&r, (Some(exact_a), exact_n, scale), (1e-8, 1e-7));
}

/// A box's vertex near a hull's edge, in f32: the polish placed the points
/// right but kept the edge's perpendicular as the normal, 1.2e-3 rad off
/// the direction between them, `Unique` (a third review). On polytopes a
/// settled polish's normal is now the points' direction.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_polished_polytope_answer_takes_its_normal_from_its_points() {
    let pose = gjk_common::pose_f32;
    let a = S::cuboid(DVec3::new(
        1.3579707133549102,
        0.2640855402487615,
        0.08606985266693121,
    ))
    .to_precision::<f32>();
    let b = S::hull(vec![
        DVec3::new(0.863358891428522, 0.11807286785748393, 1.453730897701268),
        DVec3::new(
            -0.02773170823622086,
            1.5341210745815024,
            0.16756850316464073,
        ),
        DVec3::new(
            0.48666858822794296,
            -0.1124846506671595,
            -0.04595819112225064,
        ),
        DVec3::new(-0.8757714043412747, -0.8450267500645339, 0.6260076139960737),
        DVec3::new(-0.312248278588556, 0.5279096759221651, -0.8732789321550258),
        DVec3::new(
            -0.1896865237223369,
            -0.15529124253438634,
            -0.0917744876386753,
        ),
        DVec3::new(
            -0.3523762704921803,
            -0.4226311065934828,
            -0.7721399407446429,
        ),
        DVec3::new(1.1677271833809144, 0.9268327378865907, -0.5222119981680143),
        DVec3::new(
            -1.6883851679704283,
            -0.5110065304956859,
            -0.9329237085599674,
        ),
        DVec3::new(-0.6891204925675133, 0.3548791776227862, 0.1742502915299137),
    ])
    .to_precision::<f32>();
    let pa = Pose::new(
        DVec3::new(1.1479345082190173, -1.4376337746968009, 1.4818514935731555),
        DQuat::from_xyzw(
            -0.05715228160042313,
            -0.9621288141310411,
            0.17749275740276418,
            -0.19884185373362906,
        ),
    );
    let pb = Pose::new(
        DVec3::new(4.029212199693325, -0.6336748713345832, 2.965586322466268),
        DQuat::from_xyzw(
            0.8095784617552702,
            0.2834598759795224,
            0.5095080221785719,
            0.06807927957406881,
        ),
    );
    let exact = DVec3::new(0.8641666313985393, 0.4767121727510978, 0.1611258437626584);
    let r = gjk::distance(&Placed::new(&a, pose(&pa)), &Placed::new(&b, pose(&pb)));
    assert!(
        (f64::from(r.distance) - 0.017941469354423763).abs() <= 1e-4,
        "{r:?}"
    );
    assert_unique_within(&r, (None, exact, 1.0), (0.0, 1e-3));
}

/// A cache belongs to one pair of shapes; any pose jump keeps the answer exact.
#[test]
fn warm_start_survives_jumps() {
    let mut rng = Rng::new(43);
    for _ in 0..100 {
        let (a, b, _, _) = random_case(&mut rng);
        let mut cache = SimplexCache::default();
        for _ in 0..20 {
            let (pa, pb) = (rng.pose(1.0), rng.pose(3.0));
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let w = gjk::distance_warm(&a, &b, &mut cache);
            let c = gjk::distance(&a, &b);
            assert!(
                (w.distance - c.distance).abs() <= 1e-9 * a.shape.scale().max(b.shape.scale()),
                "{w:?} {c:?}"
            );
        }
    }
}

/// A cache handed pairs of different shapes in turn (a caller's mistake:
/// a cache belongs to one pair) starts each query cold instead of placing
/// the other pair's points on these shapes. Before the pair's fingerprint
/// was kept, a cone against a hull said 1.387 (lower = upper bound, with
/// points 1.475 apart) where the distance is 1.475 (a review: 241 of 4 000
/// alternating frames wrong).
#[test]
fn a_cache_shared_between_pairs_starts_cold() {
    let mut rng = Rng::new(5150);
    let mut wrong = 0;
    for _ in 0..200 {
        let (a1, b1, _, _) = random_case(&mut rng);
        let (a2, b2, _, _) = random_case(&mut rng);
        let p1 = (rng.pose(2.0), rng.pose(4.0));
        let p2 = (rng.pose(2.0), rng.pose(4.0));
        let mut cache = SimplexCache::default();
        for f in 0..10 {
            let (a, b, (pa, pb)) = if f % 2 == 0 {
                (&a1, &b1, p1)
            } else {
                (&a2, &b2, p2)
            };
            let (x, y) = (Placed::new(a, pa), Placed::new(b, pb));
            let w = gjk::distance_warm(&x, &y, &mut cache);
            let c = gjk::distance(&x, &y);
            let s = a.scale().max(b.scale());
            let off = (w.distance - c.distance).abs() > 1e-9 * s
                || w.upper_bound < c.lower_bound - 1e-9 * s
                || w.lower_bound > c.upper_bound + 1e-9 * s;
            wrong += u32::from(off);
        }
    }
    assert_eq!(
        wrong, 0,
        "{wrong} of 2000 shared-cache frames disagree with cold"
    );

    // A second review: a box whose first half extent equals the tag a
    // capsule's parameters were mixed after, and a hull rebuilt with other
    // middle points (same count, extent, first and last point), were taken
    // for the cache's pair (0.690 where the distance is 2.491).
    let b = S::hull(vec![
        DVec3::new(0.5, 0.1, 0.2),
        DVec3::new(-0.4, 0.6, 0.1),
        DVec3::new(0.1, -0.5, 0.7),
        DVec3::new(0.0, 0.2, -0.6),
        DVec3::new(-0.3, -0.3, -0.3),
    ]);
    let pb = Pose::new(DVec3::new(3.0, 1.5, 0.2), DQuat::IDENTITY);
    let hull_with = |y: f64| {
        S::hull(vec![
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, y, 0.0),
            DVec3::new(0.0, -y, 0.5),
            DVec3::new(-1.0, 0.0, 0.0),
        ])
    };
    let pairs = [
        (S::cuboid(DVec3::new(2.0, 0.5, 0.3)), S::capsule(0.5, 0.3)),
        (S::cuboid(DVec3::new(0.5, 0.5, 0.3)), S::cylinder(0.5, 0.3)),
        (hull_with(0.9), hull_with(0.1)),
    ];
    for (first, second) in &pairs {
        let mut cache = SimplexCache::default();
        let _ = gjk::distance_warm(&pl(first, DVec3::ZERO), &Placed::new(&b, pb), &mut cache);
        let (x, y) = (pl(second, DVec3::ZERO), Placed::new(&b, pb));
        let w = gjk::distance_warm(&x, &y, &mut cache);
        let c = gjk::distance(&x, &y);
        assert!((w.distance - c.distance).abs() <= 1e-12, "{w:?} {c:?}");
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
