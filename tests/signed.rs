//! Signed distance: exact values on constructed cases (apart from
//! `exact_common`, overlapping from boxes and spheres whose depth is known),
//! the witness contract `point_b − point_a = distance · normal`, and
//! continuity through contact (pairs slid through touching in tiny steps).

#![allow(clippy::cast_lossless)]

mod exact_common;
mod gjk_common;

use cspace::signed::{self, Depth, SignedDistance};
use cspace::{Placed, Pose, Real, Shape, V3, Vector};
use exact_common::FAMILIES;
use gjk_common::Rng;
use glam::{DQuat, DVec3};

fn sd(a: &Shape<f64>, pa: Pose<f64>, b: &Shape<f64>, pb: Pose<f64>) -> SignedDistance<f64> {
    signed::signed_distance(&Placed::new(a, pa), &Placed::new(b, pb))
}

/// The contract every answer keeps: a unit normal and `point_b − point_a =
/// distance · normal` to `tol`, the value inside its bounds.
fn contract<T: Real>(s: &SignedDistance<T>, tol: f64, what: &str) {
    let n = s.normal.to_f64();
    let (pa, pb) = (s.point_a.to_f64(), s.point_b.to_f64());
    let d = s.distance.to_f64();
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    assert!((len - 1.0).abs() < 1e-5, "{what}: normal {n:?}");
    for i in 0..3 {
        let e = pb[i] - pa[i] - d * n[i];
        assert!(
            e.abs() <= tol,
            "{what}: witness error {e:e} on axis {i}, {s:?}"
        );
    }
    let (lo, hi) = (s.lower_bound.to_f64(), s.upper_bound.to_f64());
    assert!(
        lo <= d + tol && d <= hi + tol,
        "{what}: {d:e} outside [{lo:e}, {hi:e}]"
    );
}

#[test]
fn apart_constructed_cases_are_the_distance() {
    let mut rng = Rng::new(0x5167);
    for family in FAMILIES {
        for _ in 0..40 {
            let d = rng.range(1e-3, 2.0);
            let c = exact_common::case(&mut rng, family, d);
            let s = sd(&c.a, c.pose_a, &c.b, c.pose_b);
            contract(&s, 1e-9 * c.scale, &c.name);
            assert!(!s.intersecting, "{}", c.name);
            assert!(
                (s.distance - d).abs() <= 1e-7 * c.scale,
                "{}: {} vs {d}",
                c.name,
                s.distance
            );
            assert!(
                s.lower_bound <= d + 1e-12 * c.scale && d <= s.upper_bound + 1e-12 * c.scale,
                "{}: {d} outside [{}, {}]",
                c.name,
                s.lower_bound,
                s.upper_bound
            );
        }
    }
}

/// A box as a hull (so EPA, not the separating-axis test, answers).
fn box_hull(h: DVec3) -> Shape<f64> {
    let mut pts = Vec::new();
    for i in 0..8 {
        let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
        pts.push(DVec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
    }
    Shape::hull(pts)
}

#[test]
fn overlapping_constructed_cases_are_minus_the_depth() {
    let mut rng = Rng::new(0x0ee9);
    for i in 0..200 {
        let ha = rng.vec_in(0.3, 2.0);
        let hb = rng.vec_in(0.3, 2.0);
        let rot = rng.rotation();
        let base = DVec3::new(
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
        );
        // B's centre in A's frame, strictly inside the summed box.
        let sum = ha + hb;
        let c = DVec3::new(
            rng.range(-0.9, 0.9) * sum.x,
            rng.range(-0.9, 0.9) * sum.y,
            rng.range(-0.9, 0.9) * sum.z,
        );
        let depth = (sum - c.abs()).min_element();
        let (a, b) = (box_hull(ha), box_hull(hb));
        let pa = Pose::new(base, rot);
        let pb = Pose::new(base + rot * c, rot);
        let what = format!("boxes {i}: {ha:?} {hb:?} {c:?}");
        {
            let s = signed::signed_distance_with(
                &Placed::new(&a, pa),
                &Placed::new(&b, pb),
                Depth::Epa,
            );
            contract(&s, 1e-9, &what);
            assert!(s.intersecting, "{what}");
            assert!(
                (s.distance + depth).abs() <= 1e-7,
                "{what}: {} vs −{depth}",
                s.distance
            );
            assert!(
                s.lower_bound <= -depth + 1e-9 && -depth <= s.upper_bound + 1e-9,
                "{what}: −{depth} outside [{}, {}]",
                s.lower_bound,
                s.upper_bound
            );
            // `Converged` means the bracket meets the penetration's
            // tolerance (1e-8 of the size): not `[−depth, 0]`.
            assert!(
                s.status != cspace::Status::Converged
                    || s.upper_bound - s.lower_bound <= 1e-8 * 4.0 * ha.max(hb).max_element(),
                "{what}: converged on [{}, {}]",
                s.lower_bound,
                s.upper_bound
            );
        }
    }
}

/// Slides B along `dir` (unit, from A towards B) from `start` to `end` in
/// `steps` steps and checks that the signed distance falls monotonically
/// and continuously (by at most the step, to `tol`), with the witness
/// contract and a normal that does not jump.
fn slide<T: Real>(
    a: &Shape<T>,
    b: &Shape<T>,
    dir: DVec3,
    start: f64,
    end: f64,
    steps: u32,
    tol: f64,
) {
    let mut prev: Option<(f64, [f64; 3])> = None;
    let mut crossed = (false, false);
    for k in 0..=steps {
        let t = start + (end - start) * f64::from(k) / f64::from(steps);
        let pb = Pose::from_position(V3::<T>::from_f64((dir * t).to_array()));
        let s = signed::signed_distance(
            &Placed::new(a, Pose::from_position(V3::<T>::from_f64([0.0; 3]))),
            &Placed::new(b, pb),
        );
        let what = format!("{} step {k}, offset {t:e}", std::any::type_name::<T>());
        contract(&s, tol * 10.0 + t.abs() * 1e-6, &what);
        let d = s.distance.to_f64();
        let n = s.normal.to_f64();
        crossed.0 |= d > 0.0;
        crossed.1 |= d < 0.0;
        if let Some((pd, pn)) = prev {
            let step = (end - start).abs() / f64::from(steps);
            assert!(d <= pd + tol, "{what}: rose from {pd:e} to {d:e}");
            assert!(pd - d <= step + tol, "{what}: jumped from {pd:e} to {d:e}");
            let dot = n[0] * pn[0] + n[1] * pn[1] + n[2] * pn[2];
            assert!(dot > 0.999, "{what}: normal turned from {pn:?} to {n:?}");
        }
        prev = Some((d, n));
    }
    assert!(crossed.0 && crossed.1, "the slide must cross contact");
}

fn slides<T: Real>(tol: f64, step: f64) {
    let steps = 400;
    let span = step * f64::from(steps) / 2.0;
    let (hx, r) = (1.0, 0.5);
    // Boxes face to face: contact at offset 2, along +x.
    let a = Shape::<T>::cuboid(V3::<T>::from_f64([hx, 1.0, 1.0]));
    let b = Shape::<T>::cuboid(V3::<T>::from_f64([hx, 0.5, 0.5]));
    slide(&a, &b, DVec3::X, 2.0 + span, 2.0 - span, steps, tol);
    // Boxes as hulls (EPA), off the axes.
    let dir = DVec3::new(1.0, 0.1, -0.05);
    let ha = box_hull(DVec3::new(hx, 1.0, 1.0)).to_precision::<T>();
    let hb = box_hull(DVec3::new(hx, 0.5, 0.5)).to_precision::<T>();
    // Contact when the x offset reaches 2.
    let contact = 2.0 * dir.length();
    slide(
        &ha,
        &hb,
        dir.normalize(),
        contact + span,
        contact - span,
        steps,
        tol,
    );
    // Spheres along a skew line.
    let sa = Shape::<T>::sphere(T::from_f64(r));
    let sb = Shape::<T>::sphere(T::from_f64(0.75));
    let skew = DVec3::new(0.3, -0.8, 0.52).normalize();
    slide(&sa, &sb, skew, 1.25 + span, 1.25 - span, steps, tol);
    // A cylinder's side against a box face.
    let cyl = Shape::<T>::cylinder(T::from_f64(1.0), T::from_f64(r));
    let bx = Shape::<T>::cuboid(V3::<T>::from_f64([0.5, 0.5, 0.5]));
    slide(
        &cyl,
        &bx,
        DVec3::X,
        r + 0.5 + span,
        r + 0.5 - span,
        steps,
        tol,
    );
}

/// The tolerance is EPA's stated gap (1e-8 × scale in f64, 2.4e-5 in f32,
/// doubled): on a curved core (the cylinder) the depth is its upper bound,
/// within that gap of the truth.
#[test]
fn continuous_and_monotone_through_contact_f64() {
    slides::<f64>(2e-8, 1e-7);
}

#[test]
fn continuous_and_monotone_through_contact_f32() {
    slides::<f32>(5e-5, 1e-4);
}

#[test]
fn mpr_answers_overlap_with_the_same_contract() {
    let a = Shape::sphere(1.0);
    let b = Shape::cuboid(DVec3::new(0.5, 0.5, 0.5));
    let pb = Pose::new(DVec3::new(1.2, 0.0, 0.0), DQuat::IDENTITY);
    let s = signed::signed_distance_with(
        &Placed::new(&a, Pose::IDENTITY),
        &Placed::new(&b, pb),
        Depth::Mpr,
    );
    contract(&s, 1e-12, "mpr");
    assert!((s.distance + 0.3).abs() < 1e-9, "{s:?}");
}

/// Two segments (hulls of two points) whose ends meet within `δ`: a flat
/// CSO whose closest point is on its rim, where GJK's `v`, 1e-12 long,
/// points 1e-4 rad off (its error along the simplex's edge is the edge's
/// rounding). The answer is within `|δ|` of 0 either way, not the depth
/// along that tilted direction (fuzz seed 11: −2.0e-4, `Degenerate`).
#[test]
fn segments_meeting_end_to_end_are_within_their_offset_of_touching() {
    let mut rng = Rng::new(0x5e65);
    for i in 0..2000_usize {
        let seg = |rng: &mut Rng| {
            let p = rng.vec_in(-1.0, 1.0);
            [p, p + rng.unit() * rng.range(0.2, 1.5)]
        };
        let (sa, sb) = (seg(&mut rng), seg(&mut rng));
        let (a, b) = (Shape::hull(sa.to_vec()), Shape::hull(sb.to_vec()));
        let pa = rng.pose(1.0);
        let qb = rng.rotation();
        let end_a = pa.position + pa.rotation * sa[i % 2];
        let delta = rng.unit() * 10f64.powf(rng.range(-14.0, -11.0));
        let end_b = qb * sb[(i / 2) % 2];
        let pb = Pose::new(end_a + delta - end_b, qb);
        let s = sd(&a, pa, &b, pb);
        let what = format!("case {i}, offset {:e}", delta.length());
        let slack = delta.length() + 1e-13;
        assert!(s.distance.abs() <= slack, "{what}: {s:?}");
        assert!(
            s.lower_bound >= -slack && s.upper_bound <= slack,
            "{what}: {s:?}"
        );
    }
}
