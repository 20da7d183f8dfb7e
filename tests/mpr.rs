//! MPR: libccd and Jolt expectations, degenerate inputs (libccd#49/#51/#71),
//! cross-checks against GJK, EPA and parry, and properties.

use cspace::{Geom, Placed, Pose, Shape, Status, epa, gjk, mpr};
use glam::{DQuat, DVec3, Vec3};
use proptest::prelude::*;
use std::f64::consts::{FRAC_PI_4, PI};

fn at(p: [f64; 3]) -> Pose<f64> {
    Pose::from_position(DVec3::from_array(p))
}

fn boxed(full: [f64; 3]) -> Shape<f64> {
    Shape::cuboid(DVec3::from_array(full) * 0.5)
}

// ----- libccd test suite (src/testsuites, box sizes are full edge lengths) ----

/// `boxbox.c`: box (1,2,1) slides along x past box (2,1,2): disjoint for
/// i < 35 or i > 65, intersecting for 36..=64 (touching at 35 and 65 not asserted).
/// Variants: scaled ×0.1, y offset −0.1, and along Y and Z.
#[test]
fn libccd_boxbox_slide() {
    for (scale, offset) in [(1.0, 0.0), (0.1, 0.0), (1.0, -0.1)] {
        for axis in 0..3 {
            let mut s1 = [1.0, 1.0, 1.0];
            s1[(axis + 1) % 3] = 2.0;
            let mut s2 = [2.0, 2.0, 2.0];
            s2[(axis + 1) % 3] = 1.0;
            let (b1, b2) = (boxed(s1.map(|v| v * scale)), boxed(s2.map(|v| v * scale)));
            for i in 0..100 {
                let mut p = [0.0; 3];
                p[axis] = (-5.0 + 0.1 * f64::from(i)) * scale;
                p[(axis + 1) % 3] = offset * scale;
                let a = Placed::new(&b1, at(p));
                let b = Placed::new(&b2, Pose::IDENTITY);
                let r = mpr::intersect(&a, &b);
                if !(35..=65).contains(&i) {
                    assert!(!r.intersecting, "scale {scale} axis {axis} i {i}");
                } else if (36..=64).contains(&i) {
                    assert!(r.intersecting, "scale {scale} axis {axis} i {i}");
                }
                assert_eq!(r.status, Status::Converged);
            }
        }
    }
}

/// `boxbox.c`, rotated: box (1,2,1) turned π/4 about y at (x, 0.5, 0) is
/// disjoint for i < 33 or i > 67 (and intersects in between); two unit
/// cubes, one at x = −1.01 turning in π/20 steps, intersect except at i = 0, 10, 20.
#[test]
fn libccd_boxbox_rotated() {
    let (b1, b2) = (boxed([1.0, 2.0, 1.0]), boxed([2.0, 1.0, 2.0]));
    let rot = DQuat::from_rotation_y(FRAC_PI_4);
    for i in 0..100 {
        let a = Placed::new(
            &b1,
            Pose::new(DVec3::new(-5.0 + 0.1 * f64::from(i), 0.5, 0.0), rot),
        );
        let b = Placed::new(&b2, Pose::IDENTITY);
        assert_eq!(
            mpr::intersect(&a, &b).intersecting,
            (33..=67).contains(&i),
            "i {i}"
        );
    }
    let cube = boxed([1.0, 1.0, 1.0]);
    for i in 0..=20 {
        let rot = DQuat::from_rotation_y(PI / 20.0 * f64::from(i));
        let a = Placed::new(&cube, Pose::new(DVec3::new(-1.01, 0.0, 0.0), rot));
        let b = Placed::new(&cube, Pose::IDENTITY);
        assert_eq!(mpr::intersect(&a, &b).intersecting, i % 10 != 0, "i {i}");
    }
}

/// `boxboxPenetration` / `TSMPRBoxBox.out`: unit box against box (0.5,1,1.5):
/// B at (0.1,0,0) gives depth 0.65 along +x; A at (−0.3,0.5,1) gives 0.25 along −z.
#[test]
fn libccd_boxbox_penetration() {
    let (unit, other) = (boxed([1.0; 3]), boxed([0.5, 1.0, 1.5]));
    let p = mpr::penetration(
        &Placed::new(&unit, Pose::IDENTITY),
        &Placed::new(&other, at([0.1, 0.0, 0.0])),
    );
    assert!(p.intersecting && (p.depth - 0.65).abs() <= 1e-12, "{p:?}");
    assert!((p.normal - DVec3::X).length() <= 1e-12, "{p:?}");
    assert!(
        (p.point_a - p.point_b - p.normal * p.depth).length() <= 1e-12,
        "{p:?}"
    );
    let p = mpr::penetration(
        &Placed::new(&unit, at([-0.3, 0.5, 1.0])),
        &Placed::new(&other, Pose::IDENTITY),
    );
    assert!(p.intersecting && (p.depth - 0.25).abs() <= 1e-12, "{p:?}");
    assert!((p.normal + DVec3::Z).length() <= 1e-12, "{p:?}");
}

/// `cylcyl.c`, `spheresphere.c`: r 0.35 against r 0.5 sliding along x by 0.1
/// from −5: intersect iff 42 ≤ i ≤ 58.
#[test]
fn libccd_cylinder_and_sphere_slides() {
    let pairs = [
        (Shape::cylinder(0.25, 0.35), Shape::cylinder(0.5, 0.5)),
        (Shape::sphere(0.35), Shape::sphere(0.5)),
    ];
    for (s1, s2) in &pairs {
        for i in 0..100 {
            let a = Placed::new(s1, at([-5.0 + 0.1 * f64::from(i), 0.0, 0.0]));
            let b = Placed::new(s2, Pose::IDENTITY);
            assert_eq!(
                mpr::intersect(&a, &b).intersecting,
                (42..=58).contains(&i),
                "{s1:?} i {i}"
            );
        }
    }
}

// ----- Jolt unit tests (EPATests.cpp) ----------------------------------------

/// A box (−2,−3,−4)–(2,3,4) against a sphere 2 away from a face, an edge and
/// a vertex: r = 1.99 misses, r = 2.01 hits.
#[test]
fn jolt_box_sphere_margins() {
    let b: Shape<f64> = Shape::cuboid(DVec3::new(2.0, 3.0, 4.0));
    let corner = DVec3::new(2.0, 3.0, 4.0);
    let centres = [
        DVec3::new(4.0, 0.0, 0.0),
        DVec3::new(2.0, 3.0, 0.0) + DVec3::new(1.0, 1.0, 0.0).normalize() * 2.0,
        corner + DVec3::ONE.normalize() * 2.0,
    ];
    for c in centres {
        for (r, hit) in [(1.99, false), (2.01, true)] {
            let s: Shape<f64> = Shape::sphere(r);
            let (pa, pb) = (
                Placed::new(&b, Pose::IDENTITY),
                Placed::new(&s, Pose::from_position(c)),
            );
            assert_eq!(
                mpr::intersect(&pa, &pb).intersecting,
                hit,
                "centre {c} r {r}"
            );
            let p = mpr::penetration(&pa, &pb);
            assert_eq!(p.intersecting, hit, "centre {c} r {r}");
            if hit {
                assert!(
                    (p.depth - 0.01).abs() < 1e-6,
                    "centre {c}: depth {}",
                    p.depth
                );
            }
        }
    }
}

/// Two identical spheres in the same place: depth within 0.14 of 2.
#[test]
fn jolt_identical_spheres() {
    let s: Shape<f64> = Shape::sphere(1.0);
    let p = mpr::penetration(
        &Placed::new(&s, Pose::IDENTITY),
        &Placed::new(&s, Pose::IDENTITY),
    );
    assert!(p.intersecting && (p.depth - 2.0).abs() < 0.14, "{p:?}");
    assert!(
        (p.depth - 2.0).abs() < 1e-6,
        "ours is better than Jolt's bound: {p:?}"
    );
    assert!((p.normal.length() - 1.0).abs() < 1e-12);
}

// ----- degenerate inputs: libccd#49, #51, #71, #68 -------------------------------

/// Two placed shapes.
type Case<'a> = (&'a Shape<f64>, Pose<f64>, &'a Shape<f64>, Pose<f64>);

/// libccd divides by zero at depth 0 and on degenerate portals. Touching
/// boxes, points, segments, flat hulls and coincident centres must give
/// finite answers with a unit normal.
#[test]
fn libccd_49_51_71_degenerate_inputs_are_finite() {
    let flat = Shape::hull(vec![
        DVec3::ZERO,
        DVec3::X,
        DVec3::Z,
        DVec3::new(1.0, 0.0, 1.0),
    ]);
    let seg = Shape::hull(vec![DVec3::new(-1.0, 0.0, 0.0), DVec3::new(1.0, 0.0, 0.0)]);
    let point = Shape::new(Geom::Point);
    let cube = boxed([1.0; 3]);
    let cases: Vec<Case<'_>> = vec![
        (&cube, Pose::IDENTITY, &cube, at([1.0, 0.0, 0.0])), // touching faces (libccd#68)
        (&cube, Pose::IDENTITY, &cube, at([1.0, 1.0, 0.0])), // touching edges
        (&cube, Pose::IDENTITY, &cube, Pose::IDENTITY),      // coincident
        (&point, Pose::IDENTITY, &point, Pose::IDENTITY),    // two points, same place
        (&point, Pose::IDENTITY, &point, at([1.0, 0.0, 0.0])), // two points apart
        (&point, at([0.5, 0.0, 0.5]), &flat, Pose::IDENTITY), // point on a flat hull
        (&flat, Pose::IDENTITY, &flat, at([0.5, 0.0, 0.5])), // coplanar flat hulls
        (
            &seg,
            Pose::IDENTITY,
            &seg,
            Pose::new(DVec3::ZERO, DQuat::from_rotation_y(1.0)),
        ), // crossing segments
        (&seg, Pose::IDENTITY, &seg, at([0.0, 0.0, 0.0])),   // coincident segments
        (&seg, Pose::IDENTITY, &cube, at([0.0, 0.5, 0.0])),  // segment on a face
        (&point, at([0.2, 0.1, 0.0]), &cube, Pose::IDENTITY), // point inside a box
    ];
    for (sa, pa, sb, pb) in cases {
        let (a, b) = (Placed::new(sa, pa), Placed::new(sb, pb));
        let o = mpr::intersect(&a, &b);
        let p = mpr::penetration(&a, &b);
        assert!(
            p.depth.is_finite() && p.depth >= 0.0,
            "{sa:?} {pb:?}: {p:?}"
        );
        assert!(
            p.normal.is_finite() && (p.normal.length() - 1.0).abs() < 1e-9,
            "{sa:?} {pb:?}: {p:?}"
        );
        assert!(p.point_a.is_finite() && p.point_b.is_finite(), "{p:?}");
        // Agrees with GJK wherever GJK is certain.
        let d = gjk::distance(&a, &b);
        if d.distance > 1e-9 {
            assert!(
                !o.intersecting && !p.intersecting,
                "{sa:?} {pb:?} apart by {}",
                d.distance
            );
        }
        let e = epa::penetration(&a, &b);
        if e.depth > 1e-9 {
            assert!(
                o.intersecting && p.intersecting,
                "{sa:?} {pb:?} deep by {}",
                e.depth
            );
        }
    }
}

// ----- cross-checks -------------------------------------------------------------------

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
        DQuat::from_axis_angle(
            self.vec(1.0).try_normalize().unwrap_or(DVec3::Y),
            self.range(0.0, 6.3),
        )
    }
    fn shape(&mut self) -> Shape<f64> {
        match self.pick(6) {
            0 => Shape::sphere(self.range(0.1, 2.0)),
            1 => Shape::cuboid(DVec3::new(
                self.range(0.1, 2.0),
                self.range(0.1, 2.0),
                self.range(0.1, 2.0),
            )),
            2 => Shape::capsule(self.range(0.0, 2.0), self.range(0.1, 1.0)),
            3 => Shape::cylinder(self.range(0.1, 2.0), self.range(0.1, 2.0)),
            4 => Shape::cone(self.range(0.1, 2.0), self.range(0.1, 2.0)),
            _ => Shape::hull((0..8).map(|_| self.vec(1.5)).collect()),
        }
    }
}

fn parry_shape(s: &Shape<f64>) -> Box<dyn parry3d_f64::shape::Shape> {
    use parry3d_f64::shape as ps;
    match &s.geom() {
        Geom::Sphere { radius } => Box::new(ps::Ball::new(*radius)),
        Geom::Box { half_extents } => Box::new(ps::Cuboid::new(*half_extents)),
        Geom::Capsule {
            half_height,
            radius,
        } => Box::new(ps::Capsule::new_y(*half_height, *radius)),
        Geom::Cylinder {
            half_height,
            radius,
        } => Box::new(ps::Cylinder::new(*half_height, *radius)),
        Geom::Cone {
            half_height,
            radius,
        } => Box::new(ps::Cone::new(*half_height, *radius)),
        Geom::Hull(hull) => {
            Box::new(ps::ConvexPolyhedron::from_convex_hull(hull.points()).unwrap())
        }
        Geom::Point => Box::new(ps::Ball::new(0.0)),
    }
}

#[test]
fn random_mpr_agrees_with_gjk_epa_and_parry() {
    use parry3d_f64::math::Pose as PPose;
    let mut rng = Lcg(3);
    let (mut iters, mut n, mut parry_differs, mut exact_depths) = (0u32, 0u32, 0, 0);
    for _ in 0..3000 {
        let (sa, sb) = (rng.shape(), rng.shape());
        let a = Placed::new(&sa, Pose::new(rng.vec(2.5), rng.quat()));
        let b = Placed::new(&sb, Pose::new(rng.vec(2.5), rng.quat()));
        let o = mpr::intersect(&a, &b);
        let p = mpr::penetration(&a, &b);
        iters += p.iterations;
        n += 1;
        let d = gjk::distance(&a, &b);
        let e = epa::penetration(&a, &b);
        let size = sa.scale() + sb.scale();
        let certain = d.distance > 1e-9 * size || e.depth > 1e-9 * size;
        if certain {
            assert_eq!(
                o.intersecting, d.intersecting,
                "intersect vs gjk: {sa:?} {sb:?} {:?} {:?}",
                a.pose, b.pose
            );
            assert_eq!(
                p.intersecting, o.intersecting,
                "penetration vs intersect {p:?} {o:?} {e:?} {sa:?} {sb:?} {:?} {:?}",
                a.pose, b.pose
            );
        }
        if p.intersecting && e.depth > 1e-9 {
            // MPR's depth is along its portal normal: never below the minimum (EPA's).
            assert!(
                p.depth >= e.depth - 1e-6 * size,
                "mpr {} < epa {}",
                p.depth,
                e.depth
            );
            if (p.depth - e.depth).abs() <= 1e-6 * size {
                exact_depths += 1;
            }
            // Moving B by depth along the normal (a bit more) separates them.
            let moved = Placed::new(
                &sb,
                Pose::new(
                    b.pose.position + p.normal * (p.depth + 1e-6 * size),
                    b.pose.rotation,
                ),
            );
            assert!(
                !gjk::intersect(&a, &moved).intersecting,
                "not separated by depth·normal: {p:?}"
            );
        }
        let (pa, pb) = (parry_shape(&sa), parry_shape(&sb));
        let theirs = parry3d_f64::query::intersection_test(
            &PPose::from_parts(a.pose.position, a.pose.rotation),
            pa.as_ref(),
            &PPose::from_parts(b.pose.position, b.pose.rotation),
            pb.as_ref(),
        )
        .unwrap()
        .intersecting;
        if theirs != o.intersecting {
            parry_differs += 1;
            assert!(
                !certain,
                "parry {theirs} vs mpr {}: {sa:?} {sb:?} {:?} {:?}",
                o.intersecting, a.pose, b.pose
            );
        }
    }
    eprintln!(
        "mpr: mean penetration iterations {:.1}; depth equal to EPA's in {exact_depths} cases; parry differs only when touching: {parry_differs}",
        f64::from(iters) / f64::from(n)
    );
}

#[test]
fn random_mpr_f32_agrees_with_parry_f32() {
    use parry3d::math::Pose as PPose;
    use parry3d::shape as ps;
    let mut rng = Lcg(5);
    let mut differ = 0;
    for _ in 0..2000 {
        let h = (rng.vec(1.0).abs() + DVec3::splat(0.1)).as_vec3();
        let r = rng.range(0.1, 1.5) as f32;
        let (sa, sb) = (Shape::<f32>::cuboid(h.into()), Shape::<f32>::sphere(r));
        let (pa, qa, pb) = (
            rng.vec(2.0).as_vec3(),
            rng.quat().as_quat(),
            rng.vec(2.0).as_vec3(),
        );
        let ours = mpr::intersect(
            &Placed::new(&sa, Pose::new(pa.into(), qa)),
            &Placed::new(&sb, Pose::from_position(pb.into())),
        );
        let theirs = parry3d::query::intersection_test(
            &PPose::from_parts(pa, qa),
            &ps::Cuboid::new(h),
            &PPose::from_translation(pb),
            &ps::Ball::new(r),
        )
        .unwrap()
        .intersecting;
        if ours.intersecting != theirs {
            // Only at touching: check the f64 distance is tiny.
            let (a64, b64) = (
                Shape::<f64>::cuboid(h.as_dvec3()),
                Shape::<f64>::sphere(f64::from(r)),
            );
            let d = gjk::distance(
                &Placed::new(&a64, Pose::new(pa.as_dvec3(), qa.as_dquat())),
                &Placed::new(&b64, Pose::from_position(pb.as_dvec3())),
            );
            assert!(
                d.distance < 1e-5,
                "f32 mpr vs parry differ at distance {}",
                d.distance
            );
            differ += 1;
        }
    }
    assert!(differ < 20);
    let _ = Vec3::ZERO;
}

#[test]
fn invariant_under_swap_translation_and_scale() {
    let mut rng = Lcg(9);
    for _ in 0..500 {
        let (sa, sb) = (rng.shape(), rng.shape());
        let (pa, pb) = (
            Pose::new(rng.vec(2.0), rng.quat()),
            Pose::new(rng.vec(2.0), rng.quat()),
        );
        let base = mpr::penetration(&Placed::new(&sa, pa), &Placed::new(&sb, pb));
        let sw = mpr::penetration(&Placed::new(&sb, pb), &Placed::new(&sa, pa));
        let size = sa.scale() + sb.scale();
        if base.depth > 1e-6 * size {
            assert!(sw.intersecting, "swap");
            // The portal's plane on a curved surface is tilted by O(√tol): 1e-4 relative.
            assert!(
                (sw.depth - base.depth).abs() <= 1e-4 * size,
                "swap depth {sw:?} vs {base:?} {sa:?} {sb:?} {pa:?} {pb:?}"
            );
            assert!((sw.normal + base.normal).length() <= 1e-3, "swap normal");
        }
        let far = DVec3::new(4e4, -1e5, 2e4);
        let tr = mpr::penetration(
            &Placed::new(&sa, Pose::new(pa.position + far, pa.rotation)),
            &Placed::new(&sb, Pose::new(pb.position + far, pb.rotation)),
        );
        if base.depth > 1e-6 * size {
            assert!(tr.intersecting);
            assert!(
                (tr.depth - base.depth).abs() <= 1e-4 * size,
                "far depth {} vs {}",
                tr.depth,
                base.depth
            );
        }
    }
}

// ----- properties --------------------------------------------------------------------

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
        Just(Shape::new(Geom::Point)),
    ]
    .prop_flat_map(|s| (Just(s), prop_oneof![Just(0.0), 0.0..0.5f64]))
    .prop_map(|(s, m)| s.with_margin(m))
}

fn arb_vec(s: f64) -> impl Strategy<Value = DVec3> {
    (-s..s, -s..s, -s..s).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mpr_never_panics_nan_or_loops(
        sa in arb_shape(), sb in arb_shape(), pa in arb_vec(3.0), pb in arb_vec(3.0),
        axis in arb_vec(1.0), angle in 0.0..6.3f64,
    ) {
        let rot = DQuat::from_axis_angle(axis.try_normalize().unwrap_or(DVec3::X), angle);
        let a = Placed::new(&sa, Pose::new(pa, rot));
        let b = Placed::new(&sb, Pose::from_position(pb));
        let o = mpr::intersect(&a, &b);
        prop_assert!(o.iterations <= 2 * mpr::MAX_ITERS + 3 + gjk::MAX_ITERS);
        let p = mpr::penetration(&a, &b);
        prop_assert!(p.depth.is_finite() && p.depth >= 0.0, "{p:?}");
        prop_assert!(p.normal.is_finite() && (p.normal.length() - 1.0).abs() < 1e-6, "{p:?}");
        prop_assert!(p.point_a.is_finite() && p.point_b.is_finite(), "{p:?}");
        prop_assert!(p.iterations <= mpr::MAX_PENETRATION_EVALUATIONS);
    }
}

/// `mpr::intersect` gives exactly GJK's answer, also at touching: random
/// pairs (f64 and f32), a third of them moved to touch (± rounding) along the
/// GJK normal, where the portal is not certain and GJK decides.
#[test]
fn intersect_agrees_with_gjk_including_touching() {
    let mut rng = Lcg(11);
    let mut decided_by_portal = 0;
    for i in 0..3000 {
        let (sa, sb) = (rng.shape(), rng.shape());
        let pa = Pose::new(rng.vec(2.5), rng.quat());
        let mut pb = Pose::new(rng.vec(2.5), rng.quat());
        if i % 3 == 0 {
            let d = gjk::distance(&Placed::new(&sa, pa), &Placed::new(&sb, pb));
            pb.position -= d.normal * d.distance;
        }
        let (a, b) = (Placed::new(&sa, pa), Placed::new(&sb, pb));
        let m = mpr::intersect(&a, &b);
        let g = gjk::intersect(&a, &b);
        assert_eq!(m.intersecting, g.intersecting, "case {i}: {m:?} {g:?}");
        assert_eq!(
            m.intersecting,
            gjk::distance(&a, &b).intersecting,
            "case {i}"
        );
        decided_by_portal += usize::from(m.iterations > 0 && m.status == Status::Converged);
        let (sa32, sb32) = (sa.to_precision::<f32>(), sb.to_precision::<f32>());
        let (pa32, pb32) = (
            Pose::new(pa.position.as_vec3a(), pa.rotation.as_quat()),
            Pose::new(pb.position.as_vec3a(), pb.rotation.as_quat()),
        );
        let (a32, b32) = (Placed::new(&sa32, pa32), Placed::new(&sb32, pb32));
        assert_eq!(
            mpr::intersect(&a32, &b32).intersecting,
            gjk::intersect(&a32, &b32).intersecting,
            "f32 case {i}"
        );
    }
    assert!(decided_by_portal > 1500, "{decided_by_portal}");
}

/// The seed's stages on random deep overlaps of hulls, cylinders and cones:
/// each stage's depth is a support-plane depth (never below EPA's least),
/// the bounds of every stage hold EPA's depth, and only the certified search is always `Converged`
/// — at EPA's depth.
#[test]
fn seed_stages_are_honest_and_the_certified_search_is_global() {
    let mut rng = Lcg(0x5eed);
    let mut kept = 0;
    while kept < 150 {
        let (sa, sb) = (rng.shape(), rng.shape());
        let a = Placed::new(&sa, Pose::new(DVec3::ZERO, rng.quat()));
        let b = Placed::new(&sb, Pose::new(rng.vec(0.4), rng.quat()));
        let e = epa::penetration(&a, &b);
        let size = sa.scale().max(sb.scale());
        if !e.intersecting || e.depth < 0.1 * size || e.status != Status::Converged {
            continue;
        }
        kept += 1;
        let tol = 1e-8 * size;
        let stages = [
            mpr::Search::Recast,
            mpr::Search::Edges,
            mpr::Search::Certified,
        ]
        .map(|s| mpr::penetration_with(&a, &b, s));
        for (k, m) in stages.iter().enumerate() {
            assert!(m.intersecting, "stage {k}: {m:?}");
            assert!(
                m.depth >= e.lower_bound - tol,
                "stage {k} below EPA: {m:?} {e:?}"
            );
            assert!(
                m.lower_bound <= e.upper_bound + tol && m.upper_bound == m.depth,
                "stage {k} bounds: {m:?} {e:?}"
            );
            if m.status == Status::Converged {
                assert!(
                    (m.depth - e.depth).abs() <= 2.0 * tol,
                    "stage {k}: {m:?} {e:?}"
                );
            } else {
                assert_eq!(m.status, Status::LocalMinimum, "stage {k}");
            }
        }
        assert_eq!(stages[2].status, Status::Converged, "{:?}", stages[2]);
    }
}

/// The viewer sees the search: each re-cast is a scope with its normal and
/// depth and a pause, edge tilts are lines, and the recording changes
/// nothing in the answer.
#[test]
fn penetration_search_is_recorded() {
    use cspace_recorder as rec;
    // A long box mostly inside a flat one, off-centre: the centre line
    // lands on a face that is not the least.
    let (sa, sb) = (boxed([4.0, 1.0, 4.0]), boxed([1.0, 3.0, 0.6]));
    let a = Placed::new(&sa, Pose::IDENTITY);
    let b = Placed::new(
        &sb,
        Pose::new(DVec3::new(1.2, 0.3, 0.9), DQuat::from_rotation_z(0.4)),
    );
    let (p, recording) = rec::record(|| mpr::penetration(&a, &b));
    assert!(p.intersecting && p.status == Status::Converged, "{p:?}");
    let decoded = rec::stream::decode(&recording.bytes);
    let labels: Vec<&str> = decoded
        .events
        .iter()
        .map(|l| decoded.label(l.event.site()))
        .collect();
    let count = |label: &str| labels.iter().filter(|&&l| l == label).count();
    assert!(count("mpr re-cast") >= 2, "{labels:?}");
    assert!(count("re-cast normal") >= 1 && count("re-cast") >= 1);
    assert!(count("edge tilt") >= 3);
    assert_eq!(p, mpr::penetration(&a, &b));
}
