//! Shapes of very different sizes against the exact oracle
//! (`exact_common`): every distance whose witness says `Unique` has its
//! closest points within 1e-8 × size (f64) / 1e-4 (f32, plus its world
//! coordinates' rounding) of the true ones, with one shape 1e-3 to 1e-4
//! times the other's size, either way round.

#![allow(clippy::cast_lossless)]

mod exact_common;
mod gjk_common;

use cspace::{Placed, Pose, Shape, Witness, gjk};
use exact_common::FAMILIES;
use gjk_common::Rng;
use glam::{Quat, Vec3A};

/// The f32 answer's error (of the size) against the f64 answer on the same
/// rounded input, beyond the rounding of its own world coordinates; `None`
/// unless both say `Unique`.
fn f32_error(a: &Shape<f32>, pa: Pose<f32>, b: &Shape<f32>, pb: Pose<f32>) -> Option<f64> {
    let r = gjk::distance(&Placed::new(a, pa), &Placed::new(b, pb));
    let wide = |p: &Pose<f32>| Pose::<f64>::new(p.position.as_dvec3(), p.rotation.as_dquat());
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let t = gjk::distance(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    if r.witness != Witness::Unique || t.witness != Witness::Unique {
        return None;
    }
    let (ra, rb) = (r.point_a.as_dvec3(), r.point_b.as_dvec3());
    let round = f64::from(f32::EPSILON) * ra.abs().max_element().max(rb.abs().max_element());
    let off = (ra - t.point_a).length().max((rb - t.point_b).length()) - round;
    Some(off / a64.scale().max(b64.scale()))
}

/// A box's corner by a box 1e-3 its size, whose short edge (1e-3 long) is
/// 3.7e-3 rad from perpendicular to the normal: its far end is 5.4e-6
/// farther from the corner than its near end, within f32's rounding of the
/// separating axis test's check. f32 took the far end, `Unique`, 1e-3
/// (8e-4 of the size) off; each point must be its box's closest point to
/// the other.
#[test]
fn a_tiny_boxs_corner_is_the_near_end_of_its_short_edge_in_f32() {
    let a = Shape::<f32>::cuboid(Vec3A::new(0.391_949_5, 0.339_823_7, 1.285_136_7));
    let b = Shape::<f32>::cuboid(Vec3A::new(
        0.001_340_634_3,
        0.000_740_329_85,
        0.000_512_445_4,
    ));
    let pa = Pose::<f32>::new(
        Vec3A::new(-1.723_496_6, 1.074_318_4, -0.224_601_18),
        Quat::from_xyzw(0.430_806_28, 0.020_473_115, 0.392_828_08, -0.812_202_5),
    );
    let pb = Pose::<f32>::new(
        Vec3A::new(-2.808_86, 0.089_115_776, -1.080_799_6),
        Quat::from_xyzw(0.159_367_59, -0.769_372_76, -0.551_337, 0.280_526_43),
    );
    let off = f32_error(&a, pa, &b, pb).expect("both unique");
    assert!(off <= 1e-4, "f32 points {off:e} of the size off");
}

/// Random constructed pairs, B (or A) scaled by 1e-3 … 1e-4: f64 within
/// 1e-8 of the size of the construction, f32 within 1e-4 of f64's answer
/// on the same input. Before the boxes' mutual projection
/// (`sat::mutually_closest`), f32 box pairs claimed `Unique` with points up
/// to 2.8e-3 of the size off in 138 of 80 000 such queries.
#[test]
fn unique_points_hold_between_very_different_sizes() {
    let mut rng = Rng::new(7);
    let (mut checked, mut worst64, mut worst32) = (0, 0.0f64, 0.0f64);
    for (ka, kb) in [
        (1.0, 1e-3),
        (1.0, 3e-4),
        (1.0, 1e-4),
        (1e-3, 1.0),
        (1e-4, 1.0),
    ] {
        for family in FAMILIES {
            for _ in 0..1500 {
                let (a, ma, pa) = exact_common::unique_support(&mut rng, family);
                let b = exact_common::any_shape(&mut rng);
                let mb = rng.unit();
                let qb = b.support(mb);
                let pose_a = rng.pose(3.0);
                let twist = rng.range(0.0, std::f64::consts::TAU);
                let d = 10f64.powf(rng.range(-3.0, 0.0));
                let c = exact_common::place(
                    format!("{family} ×{ka:e} vs {} ×{kb:e}", exact_common::kind(&b)),
                    (a.scaled(ka), ma, pa * ka),
                    (b.scaled(kb), mb, qb * kb),
                    pose_a,
                    twist,
                    d,
                );
                let r = gjk::distance(&Placed::new(&c.a, c.pose_a), &Placed::new(&c.b, c.pose_b));
                if r.witness == Witness::Unique {
                    let off = (r.point_a - c.point_a)
                        .length()
                        .max((r.point_b - c.point_b).length())
                        / c.scale;
                    assert!(
                        off <= 1e-8,
                        "{}: f64 points {off:e} of the size off",
                        c.name
                    );
                    worst64 = worst64.max(off);
                }
                let (a32, b32) = (c.a.to_precision::<f32>(), c.b.to_precision::<f32>());
                let (pa32, pb32) = (
                    gjk_common::pose_f32(&c.pose_a),
                    gjk_common::pose_f32(&c.pose_b),
                );
                if let Some(off) = f32_error(&a32, pa32, &b32, pb32) {
                    assert!(
                        off <= 1e-4,
                        "{}: f32 points {off:e} of the size off: {a32:?} at {pa32:?}, {b32:?} at {pb32:?}",
                        c.name
                    );
                    worst32 = worst32.max(off);
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} f32 unique answers; worst f64 {worst64:e}, f32 {worst32:e} of the size");
    assert!(checked > 40_000, "only {checked} f32 answers were unique");
}
