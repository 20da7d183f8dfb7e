//! Penetration depth (GJK + EPA): exact ground truth, published failure
//! configurations, invariances, cross-checks against parry, recording and
//! properties.

#![allow(clippy::too_many_lines, clippy::cast_lossless)]

mod gjk_common;

use cspace::epa::{self, Penetration};
use cspace::{Placed, Pose, Shape, Status, gjk, mpr};
use gjk_common::{Parry, Rng, h, pl, random_case, wide};
use glam::{DQuat, DVec3};

type S = Shape<f64>;

/// `max over A of n·x + max over B of −n·x`: how far B must move along `n` to separate.
fn needed(a: &Placed<'_, f64>, b: &Placed<'_, f64>, n: DVec3) -> f64 {
    h(a, n) + h(b, -n)
}

/// The basic contract of a penetration answer.
fn check(a: &Placed<'_, f64>, b: &Placed<'_, f64>, p: &Penetration<f64>) {
    assert!(p.depth.is_finite() && p.depth >= 0.0, "{p:?}");
    assert!((p.normal.length() - 1.0).abs() < 1e-9, "{p:?}");
    assert!(p.point_a.is_finite() && p.point_b.is_finite(), "{p:?}");
    if p.intersecting {
        let scale = a.shape.scale().max(b.shape.scale());
        // Moving B by depth · normal separates them (touching).
        assert!(
            needed(a, b, p.normal) <= p.depth + 1e-9 * scale,
            "{p:?} needs {}",
            needed(a, b, p.normal)
        );
    }
}

#[test]
fn sphere_sphere_exact() {
    let (a, b) = (S::sphere(0.5), S::sphere(1.25));
    for &c in &[
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.3, -0.4, 0.5),
        DVec3::new(3.0, 0.0, 0.0),
    ] {
        let (pa, pb) = (pl(&a, DVec3::ZERO), pl(&b, c));
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert!(
            (p.depth - (1.75 - c.length()).max(0.0)).abs() < 1e-12,
            "{p:?}"
        );
        assert!((p.normal - c.normalize()).length() < 1e-12);
        assert_eq!(p.intersecting, c.length() < 1.75);
        if p.intersecting {
            assert!((p.point_a - c.normalize() * 0.5).length() < 1e-12);
            assert!((p.point_a - p.point_b - p.normal * p.depth).length() < 1e-12);
        }
    }
}

/// Jolt `EPATests.cpp`: two identical spheres at the same place: depth 2r
/// (Jolt allows 0.14 of error), any unit normal.
#[test]
fn jolt_coincident_spheres() {
    let s = S::sphere(1.0);
    let p = epa::penetration(
        &pl(&s, DVec3::new(1.0, 2.0, 3.0)),
        &pl(&s, DVec3::new(1.0, 2.0, 3.0)),
    );
    assert!((p.depth - 2.0).abs() < 1e-12, "{p:?}");
    assert!((p.normal.length() - 1.0).abs() < 1e-12);
}

#[test]
fn capsule_capsule_crossing_cores() {
    // Cores crossing at the origin: the core CSO is flat, depth = radii sum.
    let a = S::capsule(1.0, 0.2);
    let b = S::capsule(1.0, 0.3);
    let q = DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2);
    let (pa, pb) = (
        pl(&a, DVec3::ZERO),
        Placed::new(&b, Pose::new(DVec3::ZERO, q)),
    );
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert!((p.depth - 0.5).abs() < 1e-12, "{p:?}");
    assert!(p.normal.x.abs() > 1.0 - 1e-12, "{p:?}");
    // Cores apart but within the radii: exact from the core distance.
    let (pa, pb) = (
        pl(&a, DVec3::ZERO),
        Placed::new(&b, Pose::new(DVec3::new(0.1, 0.0, 0.0), q)),
    );
    let p = epa::penetration(&pa, &pb);
    assert!(
        (p.depth - 0.4).abs() < 1e-12 && (p.normal - DVec3::X).length() < 1e-12,
        "{p:?}"
    );
}

#[test]
fn aligned_boxes_exact() {
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
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
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let over = ha + hb - c.abs();
        if over.min_element() <= 0.0 {
            continue;
        }
        let exact = over.min_element();
        let (a, b) = (S::cuboid(ha), S::cuboid(hb));
        let (pa, pb) = (pl(&a, DVec3::ZERO), pl(&b, c));
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert!((p.depth - exact).abs() <= 1e-9, "{p:?} {exact}");
        assert_eq!(p.status, Status::Converged);
        // f32.
        let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
        let p = epa::penetration(&pl(&a32, glam::Vec3A::ZERO), &pl(&b32, c.as_vec3a()));
        assert!(
            (f64::from(p.depth) - exact).abs() <= 1e-4 * 2.0,
            "{p:?} {exact}"
        );
    }
}

#[test]
fn point_in_box_exact() {
    let mut rng = Rng::new(5);
    let hx = DVec3::new(1.0, 2.0, 0.5);
    let b = S::cuboid(hx);
    let pt = S::new(cspace::Geom::Point);
    for _ in 0..1000 {
        let q = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-2.0, 2.0),
            rng.range(-0.5, 0.5),
        );
        let exact = (hx - q.abs()).min_element();
        let p = epa::penetration(&pl(&b, DVec3::ZERO), &pl(&pt, q));
        assert!((p.depth - exact).abs() <= 1e-9, "{q} {p:?} {exact}");
    }
}

#[test]
fn hull_face_contacts() {
    let cube = S::cuboid(DVec3::splat(0.5));
    // A tetrahedron's vertex pushed 0.1 into the top face.
    let v = S::hull(vec![
        DVec3::new(0.1, 0.2, 0.0),
        DVec3::new(1.0, 0.0, 1.0),
        DVec3::new(-1.0, 0.5, 1.0),
        DVec3::new(0.0, -1.0, 1.0),
    ]);
    let (pa, pb) = (pl(&cube, DVec3::ZERO), pl(&v, DVec3::new(0.0, 0.0, 0.4)));
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert!(
        (p.depth - 0.1).abs() < 1e-9 && (p.normal - DVec3::Z).length() < 1e-9,
        "{p:?}"
    );
    assert!(
        (p.point_b - DVec3::new(0.1, 0.2, 0.4)).length() < 1e-9,
        "{p:?}"
    );
    // Face on face, sunk by 1e-3.
    let f = S::hull(vec![
        DVec3::new(-1.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(0.0, 1.0, 0.0),
        DVec3::new(0.0, 0.0, 1.0),
    ]);
    let (pa, pb) = (
        pl(&cube, DVec3::ZERO),
        pl(&f, DVec3::new(0.1, 0.0, 0.5 - 1e-3)),
    );
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert!(
        (p.depth - 1e-3).abs() < 1e-9 && (p.normal - DVec3::Z).length() < 1e-9,
        "{p:?}"
    );
}

/// Face-to-face touching: the core CSO touches the origin from one side.
#[test]
fn touching_boxes_depth_zero() {
    let c = S::cuboid(DVec3::splat(0.5));
    for &(off, n) in &[
        (DVec3::new(1.0, 0.2, 0.1), DVec3::X),
        (DVec3::new(0.3, -1.0, 0.0), -DVec3::Y),
        (DVec3::new(1.0, 1.0, 0.0), DVec3::X),
    ] {
        let (pa, pb) = (pl(&c, DVec3::ZERO), pl(&c, off));
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert!(p.depth < 1e-12, "{p:?}");
        assert!(p.intersecting);
        if off.y.abs() < 0.9 || off.x.abs() < 0.9 {
            assert!((p.normal - n).length() < 1e-9, "{off} {p:?}");
        }
    }
}

/// parry#315: exactly touching cubes gave an arbitrary normal. Expect depth 0,
/// normal +X, points on x = 1.
#[test]
fn parry_315_touching_cubes() {
    let c = S::cuboid(DVec3::splat(0.5));
    let p = epa::penetration(
        &pl(&c, DVec3::splat(0.5)),
        &pl(&c, DVec3::new(1.5, 0.5, 0.5)),
    );
    assert!(p.depth.abs() < 1e-12 && p.intersecting, "{p:?}");
    assert!((p.normal - DVec3::X).length() < 1e-12, "{p:?}");
    assert!(
        (p.point_a.x - 1.0).abs() < 1e-12 && (p.point_b.x - 1.0).abs() < 1e-12,
        "{p:?}"
    );
}

/// libccd `boxboxSeparate` / `boxboxPenetration` (full edge lengths): unit box
/// against box (0.5, 1, 1.5) at the origin.
#[test]
fn libccd_boxbox_penetration() {
    let unit = S::cuboid(DVec3::splat(0.5));
    let other = S::cuboid(DVec3::new(0.25, 0.5, 0.75));
    let cases = [
        (DVec3::new(-0.5, 0.5, 0.2), DQuat::IDENTITY, 0.25, DVec3::X),
        (DVec3::new(-0.3, 0.5, 1.0), DQuat::IDENTITY, 0.25, -DVec3::Z),
        (DVec3::new(0.1, 0.0, 0.0), DQuat::IDENTITY, 0.65, -DVec3::X),
    ];
    for (pos, q, depth, n) in cases {
        let (pa, pb) = (
            Placed::new(&unit, Pose::new(pos, q)),
            pl(&other, DVec3::ZERO),
        );
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert!((p.depth - depth).abs() < 1e-9, "{pos} {p:?}");
        assert!((p.normal - n).length() < 1e-9, "{pos} {p:?}");
    }
    // Unit cubes, one turned π/4 about z, concentric: depth 1 along ±z.
    let q = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_4);
    let (pa, pb) = (
        Placed::new(&unit, Pose::new(DVec3::ZERO, q)),
        pl(&unit, DVec3::ZERO),
    );
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert!(
        (p.depth - 1.0).abs() < 1e-9 && p.normal.z.abs() > 1.0 - 1e-9,
        "{p:?}"
    );
    // Turned π/4 about z at (−0.5, 0.5, 0) against box (0.5, 1, 1.5): libccd's 0.429289 along (0.7071, −0.7071, 0) for box 1.
    let (pa, pb) = (
        Placed::new(&unit, Pose::new(DVec3::new(-0.5, 0.5, 0.0), q)),
        pl(&other, DVec3::ZERO),
    );
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    let exact = needed(&pa, &pb, p.normal);
    assert!((p.depth - exact).abs() < 1e-9, "{p:?}");
}

/// parry#246/#253: EPA gave no contact for a triangle vertex touching another
/// triangle's edge.
#[test]
fn parry_246_253_triangle_vertex_on_edge() {
    let t1 = S::hull(vec![
        DVec3::new(-13.174_434, 1.0, 8.736_801),
        DVec3::new(3.525_103_8, 1.0, 12.1),
        DVec3::new(3.204_846_6, 1.0, 12.218_325),
    ]);
    let t2 = S::hull(vec![
        DVec3::new(-1.63, 0.0, 11.19),
        DVec3::new(-2.349_647, 0.0, 11.037_681),
        DVec3::new(-2.349_647, 1.0, 11.037_681),
    ]);
    let (pa, pb) = (pl(&t1, DVec3::ZERO), pl(&t2, DVec3::ZERO));
    let d = gjk::distance(&pa, &pb);
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert!(p.depth < 1e-6, "{d:?} {p:?}");
    assert_eq!(p.intersecting, d.intersecting);
}

/// ncollide#157 (parry `cylinder_cuboid_contact.rs`): distance 0 and
/// intersecting, but no contact. Ours must give a contact.
#[test]
fn ncollide_157_cylinder_cuboid() {
    let cyl = S::cylinder(0.925, 0.5);
    let cub = S::cuboid(DVec3::new(0.05, 0.75, 0.5));
    let (pa, pb) = (
        pl(&cyl, DVec3::new(10.97, 0.925, 61.02)),
        pl(&cub, DVec3::new(11.5, 0.75, 60.5)),
    );
    let d = gjk::distance(&pa, &pb);
    let p = epa::penetration(&pa, &pb);
    check(&pa, &pb, &p);
    assert_eq!(p.intersecting, d.intersecting, "{d:?} {p:?}");
    if d.intersecting {
        assert!(p.depth >= 0.0 && p.status == Status::Converged, "{p:?}");
    }
}

/// parry#157: EPA hit its iteration cap on two 8-vertex frustums with
/// coordinates near 1e5. Same frustums at the origin and at 1e5 must agree.
#[test]
fn parry_157_frustums_far_away() {
    let frustum = |near: f64, far: f64, w: f64| {
        let mut p = Vec::new();
        for (z, s) in [(near, w * near), (far, w * far)] {
            for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                p.push(DVec3::new(x * s, y * s, z));
            }
        }
        S::hull(p)
    };
    let a = frustum(0.1, 50.0, 0.6);
    let b = frustum(0.2, 30.0, 0.4);
    let mut rng = Rng::new(9);
    for _ in 0..50 {
        let (qa, qb) = (rng.rotation(), rng.rotation());
        let off = rng.unit() * 5.0;
        let base = epa::penetration(
            &Placed::new(&a, Pose::new(DVec3::ZERO, qa)),
            &Placed::new(&b, Pose::new(off, qb)),
        );
        let t = DVec3::new(1.0e5, -0.7e5, 0.3e5);
        let (pa, pb) = (
            Placed::new(&a, Pose::new(t, qa)),
            Placed::new(&b, Pose::new(t + off, qb)),
        );
        let far = epa::penetration(&pa, &pb);
        check(&pa, &pb, &far);
        assert!(far.status != Status::MaxIterations, "{far:?}");
        assert!(
            (far.depth - base.depth).abs() < 1e-9 * 50.0 + 1e-10,
            "{base:?} {far:?}"
        );
    }
}

#[test]
fn deep_and_coincident() {
    let mut rng = Rng::new(21);
    for _ in 0..300 {
        let s = rng.shape();
        let pose = rng.pose(2.0);
        let (pa, pb) = (Placed::new(&s, pose), Placed::new(&s, pose));
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert!(
            p.intersecting && p.depth > 0.0 || s.scale() == 0.0,
            "{s:?} {p:?}"
        );
        assert!(
            p.status != Status::MaxIterations
                || matches!(
                    s.geom(),
                    cspace::Geom::Cylinder { .. } | cspace::Geom::Cone { .. }
                ),
            "{s:?} {p:?}"
        );
    }
}

#[test]
fn long_thin_and_different_scales() {
    let thin = S::cuboid(DVec3::new(50.0, 0.005, 0.005));
    let mut rng = Rng::new(25);
    for _ in 0..300 {
        let q = DQuat::from_rotation_y(rng.range(0.0, std::f64::consts::PI));
        let c = DVec3::new(
            rng.range(-10.0, 10.0),
            rng.range(-0.009, 0.009),
            rng.range(-0.009, 0.009),
        );
        let (pa, pb) = (pl(&thin, DVec3::ZERO), Placed::new(&thin, Pose::new(c, q)));
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
    }
    let big = S::cuboid(DVec3::splat(1000.0));
    let tiny = S::sphere(1e-3);
    for &d in &[1e-4, 5e-4, 1.5e-3] {
        let (pa, pb) = (
            pl(&big, DVec3::ZERO),
            pl(&tiny, DVec3::new(10.0, 1000.0 + 1e-3 - d, -3.0)),
        );
        let p = epa::penetration(&pa, &pb);
        assert!((p.depth - d).abs() < 1e-9 * 1000.0, "{p:?}");
        assert!((p.normal - DVec3::Y).length() < 1e-9, "{p:?}");
    }
}

#[test]
fn invariances() {
    let mut rng = Rng::new(27);
    for _ in 0..500 {
        let (a, b, pa, pb) = random_case(&mut rng);
        let scale = a.scale().max(b.scale());
        let base = epa::penetration(&Placed::new(&a, pa), &Placed::new(&b, pb));
        // Curved cores converge to EPA's tolerance only.
        let tol = 1e-6 * scale;
        let s = epa::penetration(&Placed::new(&b, pb), &Placed::new(&a, pa));
        assert!((s.depth - base.depth).abs() <= tol, "swap {base:?} {s:?}");
        let q = rng.rotation();
        let t = rng.unit() * 1e4;
        let mv = |p: Pose<f64>| Pose::new(q * p.position + t, q * p.rotation);
        let r = epa::penetration(&Placed::new(&a, mv(pa)), &Placed::new(&b, mv(pb)));
        assert!(
            (r.depth - base.depth).abs() <= tol + 1e-11 * 1e4,
            "move {base:?} {r:?}"
        );
        for k in [1e-3, 1e3] {
            let (sa, sb) = (a.scaled(k), b.scaled(k));
            let sp = |p: Pose<f64>| Pose::new(p.position * k, p.rotation);
            let r = epa::penetration(&Placed::new(&sa, sp(pa)), &Placed::new(&sb, sp(pb)));
            assert!(
                (r.depth - base.depth * k).abs() <= tol * k,
                "scale {k} {base:?} {r:?}"
            );
        }
    }
}

/// Outcome counts of the penetration cross-check.
#[derive(Debug, Default)]
struct Stats {
    overlapping: u32,
    agree: u32,
    parry_wrong: u32,
    ours_wrong: u32,
    parry_none: u32,
    max_diff: f64,
}

/// Random penetrations against parry's `contact`. A disagreement is judged by
/// what each normal really needs (`needed`, evaluated in f64 on the same
/// shapes): the true depth is the minimum over directions.
fn cross_check<T: Parry>(seed: u64, n: u32) -> Stats {
    let mut rng = Rng::new(seed);
    let mut st = Stats::default();
    let mut shown = 0;
    for _ in 0..n {
        let (a, b, pa, pb) = random_case(&mut rng);
        // Pull B closer so that most cases overlap.
        let pb = Pose::new(pa.position + (pb.position - pa.position) * 0.3, pb.rotation);
        let (a, b, pa, pb) = (T::from64(&a), T::from64(&b), T::pose(&pa), T::pose(&pb));
        let ours = epa::penetration(&Placed::new(&a, pa), &Placed::new(&b, pb));
        let Some(theirs) = T::parry_contact(&a, &pa, &b, &pb) else {
            continue;
        };
        if !ours.intersecting {
            continue;
        }
        st.overlapping += 1;
        let Some((dist, n1, _, _)) = theirs else {
            st.parry_none += 1;
            continue;
        };
        let (a64, b64) = (T::to64(&a), T::to64(&b));
        let (pa64, pb64) = (
            Placed::new(&a64, T::pose64(&pa)),
            Placed::new(&b64, T::pose64(&pb)),
        );
        let scale = a64.scale().max(b64.scale());
        let (d_o, d_p) = (ours.depth.to_f64(), (-dist).max(0.0));
        st.max_diff = st.max_diff.max((d_o - d_p).abs() / scale);
        let tol = T::TOL * scale;
        if (d_o - d_p).abs() <= tol {
            st.agree += 1;
            continue;
        }
        let need_o = needed(&pa64, &pb64, wide::<T>(ours.normal));
        let need_p = needed(&pa64, &pb64, n1);
        // Ours is right if our normal needs what we say and no better direction is known.
        let ours_ok = (need_o - d_o).abs() <= tol && need_o <= need_p + tol;
        if ours_ok {
            st.parry_wrong += 1;
        } else {
            st.ours_wrong += 1;
        }
        if shown < 4 {
            shown += 1;
            eprintln!(
                "disagreement: ours {ours:?} (needs {need_o}) parry {d_p} n {n1} (needs {need_p})\n  a {a:?} {pa:?}\n  b {b:?} {pb:?}"
            );
        }
    }
    st
}

#[test]
fn cross_check_parry_f64() {
    let st = cross_check::<f64>(51, 3000);
    eprintln!("f64 penetration vs parry: {st:?}");
    assert_eq!(st.ours_wrong, 0, "{st:?}");
    assert!(st.overlapping > 1000);
}

#[test]
fn cross_check_parry_f32() {
    let st = cross_check::<f32>(53, 3000);
    eprintln!("f32 penetration vs parry: {st:?}");
    assert_eq!(st.ours_wrong, 0, "{st:?}");
}

#[test]
fn penetration_agrees_with_distance() {
    let mut rng = Rng::new(57);
    for _ in 0..2000 {
        let (a, b, pa, pb) = random_case(&mut rng);
        let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
        let d = gjk::distance(&pa, &pb);
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert_eq!(d.intersecting, p.intersecting, "{d:?} {p:?}");
        if !d.intersecting {
            assert_eq!(p.depth, 0.0);
            // Apart, EPA answers with the distance query's polished normal
            // and closest points.
            assert!((p.normal - d.normal).length() < 1e-9, "{d:?} {p:?}");
            assert!((p.point_a - d.point_a).length() < 1e-9, "{d:?} {p:?}");
            assert!((p.point_b - d.point_b).length() < 1e-9, "{d:?} {p:?}");
        }
    }
}

#[cfg(feature = "record")]
#[test]
fn penetration_is_recorded() {
    use cspace_recorder as rec;
    let a = S::cuboid(DVec3::new(1.0, 0.5, 0.5));
    let b = S::hull(vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]);
    let (a, b) = (
        pl(&a, DVec3::ZERO),
        Placed::new(
            &b,
            Pose::new(DVec3::new(0.6, 0.1, 0.2), DQuat::from_rotation_z(0.3)),
        ),
    );
    let (p, recording) = rec::record(|| epa::penetration(&a, &b));
    assert!(p.depth > 0.0);
    let ev = recording.events();
    let count = |k: rec::EventKind| ev.iter().filter(|e| e.kind() == k).count();
    assert_eq!(count(rec::EventKind::Shapes), 1);
    assert!(count(rec::EventKind::Triangle) >= 4);
    assert!(
        count(rec::EventKind::Push) >= 1
            && count(rec::EventKind::Push) == count(rec::EventKind::Pop)
    );
    assert!(count(rec::EventKind::Pause) >= 2);
    assert_eq!(p, epa::penetration(&a, &b));
}

mod properties {
    use super::*;
    use gjk_common::arb_shape;
    use proptest::prelude::*;

    fn pose() -> impl Strategy<Value = Pose<f64>> {
        (
            (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64),
            (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
        )
            .prop_map(|((x, y, z), (a, b, c, d))| {
                let q = DQuat::from_xyzw(a, b, c, d);
                let q = if q.length() > 1e-3 {
                    q.normalize()
                } else {
                    DQuat::IDENTITY
                };
                Pose::new(DVec3::new(x, y, z), q)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn never_panics_nan_or_unbounded(a in arb_shape(), b in arb_shape(), pa in pose(), pb in pose()) {
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let p = epa::penetration(&a, &b);
            prop_assert!(p.depth.is_finite() && p.depth >= 0.0);
            prop_assert!(p.point_a.is_finite() && p.point_b.is_finite());
            prop_assert!((p.normal.length() - 1.0).abs() < 1e-9);
            prop_assert!(p.iterations <= epa::MAX_EVALUATIONS);
            let (a32, b32) = (a.shape.to_precision::<f32>(), b.shape.to_precision::<f32>());
            let f = |p: Pose<f64>| Pose::new(p.position.as_vec3a(), p.rotation.as_quat().normalize());
            let p = epa::penetration(&Placed::new(&a32, f(a.pose)), &Placed::new(&b32, f(b.pose)));
            prop_assert!(p.depth.is_finite() && p.depth >= 0.0);
            prop_assert!(p.point_a.is_finite() && p.point_b.is_finite());
            prop_assert!((p.normal.length() - 1.0).abs() < 1e-5);
        }
    }
}

/// Found by `cross_check_parry_f32`: parry3d 0.31 (f32) reports depth 1.00650
/// for this sphere–rounded-cylinder pair along a normal that needs 1.00984 to
/// separate (evaluated in f64 on the same shapes): moving B by parry's depth
/// leaves them 3.3e-3 deep. Ours (1.0098132) is what our normal needs, and
/// parry's normal needs more than that.
#[test]
fn parry_error_f32_sphere_cylinder_depth() {
    use gjk_common::wide;
    let a = Shape::<f32>::sphere(1.152_144_2);
    let pa = Pose::new(
        glam::Vec3A::new(0.434_847_7, 0.736_454_07, 0.564_734_34),
        glam::Quat::from_xyzw(0.247_038_54, -0.170_148_58, -0.417_475_46, 0.857_750_36),
    );
    let b = Shape::<f32>::cylinder(0.392_236_86, 0.327_254_92).with_margin(0.131_952_72);
    let pb = Pose::new(
        glam::Vec3A::new(0.248_882_65, 0.053_673_87, 0.876_053_45),
        glam::Quat::from_xyzw(0.275_149_08, -0.487_932_4, -0.759_457_2, -0.330_816_78),
    );
    let ours = epa::penetration(&Placed::new(&a, pa), &Placed::new(&b, pb));
    let (_, n_p, _, _) = <f32 as Parry>::parry_contact(&a, &pa, &b, &pb)
        .unwrap()
        .unwrap();
    let theirs = -<f32 as Parry>::parry_contact(&a, &pa, &b, &pb)
        .unwrap()
        .unwrap()
        .0;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let (pa64, pb64) = (
        Placed::new(&a64, <f32 as Parry>::pose64(&pa)),
        Placed::new(&b64, <f32 as Parry>::pose64(&pb)),
    );
    let need_ours = needed(&pa64, &pb64, wide::<f32>(ours.normal));
    let need_theirs = needed(&pa64, &pb64, n_p);
    assert!(
        (f64::from(ours.depth) - need_ours).abs() < 1e-6,
        "{ours:?} {need_ours}"
    );
    assert!(
        need_theirs > theirs + 3e-3,
        "parry {theirs} needs {need_theirs}"
    );
    assert!(need_ours <= need_theirs, "{need_ours} {need_theirs}");
    // f64 EPA on the same shapes agrees with our f32 answer.
    let p64 = epa::penetration(&pa64, &pb64);
    assert!((p64.depth - f64::from(ours.depth)).abs() < 1e-5, "{p64:?}");
}

/// bullet3#1703: a positive penetration was reported for a box resting above
/// a large static box (128, 1, 128) but not for a unit one.
#[test]
fn bullet_1703_box_above_large_box() {
    let big = S::cuboid(DVec3::new(128.0, 1.0, 128.0));
    let small = S::cuboid(DVec3::splat(0.5));
    for (gap, depth) in [(1e-3, 0.0), (1e-6, 0.0), (-1e-3, 1e-3), (-0.25, 0.25)] {
        let (pa, pb) = (
            pl(&big, DVec3::ZERO),
            pl(&small, DVec3::new(37.0, 1.5 + gap, -20.0)),
        );
        let p = epa::penetration(&pa, &pb);
        check(&pa, &pb, &p);
        assert_eq!(p.intersecting, gap < 0.0, "{gap} {p:?}");
        assert!((p.depth - depth).abs() < 1e-9, "{gap} {p:?}");
        assert!((p.normal - DVec3::Y).length() < 1e-9, "{gap} {p:?}");
    }
}

/// Exactly touching and overlapping unit cubes on a half-unit grid, turned
/// by multiples of 90°: every CSO face is coplanar with others and support
/// points land on edges. Depths are exact.
#[test]
fn exact_contact_grid() {
    let c = S::cuboid(DVec3::splat(0.5));
    let quarter = std::f64::consts::FRAC_PI_2;
    for ix in -4..=4 {
        for iy in -4..=4 {
            for iz in -2..=2 {
                let off = DVec3::new(f64::from(ix), f64::from(iy), f64::from(iz)) * 0.5;
                let q = DQuat::from_rotation_z(quarter * f64::from(ix + iy))
                    * DQuat::from_rotation_x(quarter * f64::from(iz));
                let (pa, pb) = (pl(&c, DVec3::ZERO), Placed::new(&c, Pose::new(off, q)));
                let over = DVec3::ONE - off.abs();
                let p = epa::penetration(&pa, &pb);
                check(&pa, &pb, &p);
                if over.min_element() >= 0.0 {
                    assert!((p.depth - over.min_element()).abs() < 1e-9, "{off} {p:?}");
                    assert!(p.intersecting);
                } else {
                    assert!(!p.intersecting && p.depth == 0.0, "{off} {p:?}");
                    let d = gjk::distance(&pa, &pb);
                    assert!(
                        (d.distance - (-over).max(DVec3::ZERO).length()).abs() < 1e-12,
                        "{off} {d:?}"
                    );
                }
            }
        }
    }
}

/// Found by `cspace fuzz --seed 5 --kinds penetration --precision f64 --case 8068`
/// (shrunk): two boxes whose faces are 1e-7 rad from parallel broke EPA's
/// polytope, which ended `Degenerate` with a depth 13 % too deep. The least
/// overlap over the separating axes is the depth.
/// Two poses turned alike to within ~1e-7 rad (a regression from the
/// FCL/Drake class of nearly coplanar faces).
fn nearly_parallel_poses() -> (Pose<f64>, Pose<f64>) {
    let qa = DQuat::from_xyzw(
        0.557_901_532_890_798_1,
        -0.040_884_324_880_501_505,
        0.667_482_336_106_062_1,
        0.491_468_902_946_623,
    );
    let qb = DQuat::from_xyzw(
        0.557_901_493_046_445_1,
        -0.040_884_315_118_945_115,
        0.667_482_365_310_303_8,
        0.491_468_909_325_466_9,
    );
    (
        Pose::new(DVec3::new(-0.6, 0.5, -0.6), qa.normalize()),
        Pose::new(DVec3::new(-0.4, 0.26, -1.5), qb.normalize()),
    )
}

#[test]
fn nearly_parallel_boxes_get_the_separating_axis_depth() {
    let a = Shape::cuboid(DVec3::new(2.0, 1.0, 0.8));
    let b = Shape::cuboid(DVec3::new(1.4, 0.57, 0.055));
    let (pose_a, pose_b) = nearly_parallel_poses();
    let (pa, pb) = (Placed::new(&a, pose_a), Placed::new(&b, pose_b));
    let qb = pose_b.rotation;
    let p = epa::penetration(&pa, &pb);
    assert!(p.intersecting);
    // B's thin axis (its third face normal) is the axis of least overlap.
    let n = qb * DVec3::Z;
    let least = needed(&pa, &pb, n).min(needed(&pa, &pb, -n));
    assert!(
        (p.depth - least).abs() < 1e-6,
        "depth {} vs {least}",
        p.depth
    );
    check(&pa, &pb, &p);
}

/// The same nearly parallel boxes as hulls (the FCL/Drake class of nearly
/// coplanar faces): no separating-axis shortcut applies, so EPA's polytope
/// and its certificate must give the least overlap themselves.
#[test]
fn nearly_parallel_box_hulls_get_the_least_depth() {
    let hull = |h: DVec3| {
        let pts = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                DVec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
            })
            .collect();
        Shape::hull(pts)
    };
    let a = hull(DVec3::new(2.0, 1.0, 0.8));
    let b = hull(DVec3::new(1.4, 0.57, 0.055));
    let (pose_a, pose_b) = nearly_parallel_poses();
    let (pa, pb) = (Placed::new(&a, pose_a), Placed::new(&b, pose_b));
    let qb = pose_b.rotation;
    let n = qb * DVec3::Z;
    let least = needed(&pa, &pb, n).min(needed(&pa, &pb, -n));
    for p in [epa::penetration(&pa, &pb), mpr::penetration(&pa, &pb)] {
        assert!(p.intersecting);
        assert!(
            (p.depth - least).abs() < 1e-6 * least,
            "depth {} vs {least}: {p:?}",
            p.depth
        );
        assert!(p.lower_bound <= least + 1e-12 && least <= p.upper_bound + 1e-12);
        check(&pa, &pb, &p);
    }
}

/// A sphere against a box, capsule, cylinder and cone (and the other way
/// round) is answered in closed form: its depth is the least overlap
/// (MPR's certified search agrees, and no direction overlaps less), the
/// distance query's answer when apart is the gap along its normal, and the
/// contact points lie on the support planes.
#[test]
fn sphere_against_box_capsule_cylinder_cone_in_closed_form() {
    let others = [
        S::cuboid(DVec3::new(0.8, 0.4, 0.6)),
        S::capsule(0.7, 0.3),
        S::cylinder(0.6, 0.5),
        S::cone(0.7, 0.6),
        S::cylinder(0.6, 0.5).with_margin(0.1),
    ];
    let sphere = S::sphere(0.35);
    let mut rng = Rng::new(91);
    for other in &others {
        for _ in 0..300 {
            let (po, ps) = (rng.pose(1.2), rng.pose(1.2));
            for swap in [false, true] {
                let (a, b) = if swap {
                    (pl(&sphere, ps.position), Placed::new(other, po))
                } else {
                    (Placed::new(other, po), pl(&sphere, ps.position))
                };
                let scale = 2.0;
                let p = epa::penetration(&a, &b);
                let d = gjk::distance(&a, &b);
                assert_eq!(p.iterations, 1, "closed form: {p:?}");
                assert_eq!(p.intersecting, d.intersecting, "{p:?} {d:?}");
                check(&a, &b, &p);
                if p.intersecting {
                    // No direction overlaps less; MPR finds the same depth.
                    for _ in 0..64 {
                        let u = rng.unit();
                        assert!(needed(&a, &b, u) >= p.depth - 1e-12 * scale, "{u} {p:?}");
                    }
                    let m = mpr::penetration(&a, &b);
                    assert!((m.depth - p.depth).abs() <= 1e-8 * scale, "{m:?} {p:?}");
                    // On the support planes along the normal.
                    let n = p.normal;
                    assert!((h(&a, n) - p.point_a.dot(n)).abs() < 1e-12, "{p:?}");
                    assert!((h(&b, -n) + p.point_b.dot(n)).abs() < 1e-12, "{p:?}");
                } else {
                    // The distance is the gap along its normal: certified.
                    let gap = -needed(&a, &b, d.normal);
                    assert!((gap - d.distance).abs() < 1e-12 * scale, "{gap} {d:?}");
                    assert_eq!(d.lower_bound, d.upper_bound);
                    assert!((d.point_b - d.point_a - d.normal * d.distance).length() < 1e-12);
                }
            }
        }
    }
}
