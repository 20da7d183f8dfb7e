//! Box–box overlap by the separating axis theorem: the fast path of
//! [`gjk::intersect`](crate::gjk::intersect) for two boxes without margins
//! (parry's `intersection_test` has the same special case).
//!
//! Two boxes are apart exactly when one of 15 axes separates them: the three
//! face normals of each and the nine cross products of their edge directions.
//! The test only answers when the answer is certain despite rounding: an axis
//! separating by more than the touching tolerance plus its rounding bound
//! means apart; every axis overlapping by more than its rounding bound (and
//! no degenerate cross axis) means intersecting. Anything closer to touching
//! is left to GJK, so the answer always agrees with [`gjk::distance`](crate::gjk::distance).

use crate::real::{Real, V3, Vector};

/// A cross axis shorter than this (sine of the angle between the edges) is
/// treated as degenerate: parallel edges.
const MIN_CROSS: f64 = 1e-3;

/// Whether box A (half extents `ha`, at the origin, axis-aligned) and box B
/// (half extents `hb`, unit axes `axes_b`, centre `t`, in A's frame) overlap:
/// `Some(true)` or `Some(false)` when certain, `None` near touching (within
/// `tol` plus rounding) or with parallel edges, where GJK must decide.
pub(crate) fn box_box<T: Real>(
    ha: V3<T>,
    hb: V3<T>,
    axes_b: [V3<T>; 3],
    t: V3<T>,
    tol: T,
) -> Option<bool> {
    let axes_a = [V3::<T>::X, V3::<T>::Y, V3::<T>::Z];
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    // Rounding in a projection is a few ulps of the magnitudes involved.
    let round = T::EPSILON
        * T::from_f64(32.0)
        * (t.length() + ha.x() + ha.y() + ha.z() + hs[0] + hs[1] + hs[2]);
    let mut certain_overlap = true;
    // Separation of the boxes along unnormalised axis `l` of length `len`.
    let mut check = |l: V3<T>, len: T| -> Option<bool> {
        let ra = ha.dot(l.abs());
        let rb = hs[0] * axes_b[0].dot(l).abs()
            + hs[1] * axes_b[1].dot(l).abs()
            + hs[2] * axes_b[2].dot(l).abs();
        let gap = t.dot(l).abs() - ra - rb;
        let err = round * len;
        if gap > tol * len + err {
            return Some(false);
        }
        if gap > -err {
            certain_overlap = false;
        }
        None
    };
    for l in axes_a.iter().chain(&axes_b) {
        if let Some(apart) = check(*l, T::ONE) {
            return Some(apart);
        }
    }
    let mut parallel = false;
    for a in &axes_a {
        for b in &axes_b {
            let l = a.cross(*b);
            let len = l.length();
            if len < T::from_f64(MIN_CROSS) {
                parallel = true;
                continue;
            }
            if let Some(apart) = check(l, len) {
                return Some(apart);
            }
        }
    }
    (certain_overlap && !parallel).then_some(true)
}

#[cfg(test)]
mod tests {
    use crate::gjk;
    use crate::shape::{Placed, Pose, Shape};
    use glam::{DQuat, DVec3};

    /// Boxes apart, overlapping and nearly touching: the fast path never
    /// contradicts GJK distance, and decides most random pairs by itself.
    #[test]
    fn box_box_agrees_with_gjk_distance() {
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        let mut f = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut decided = 0;
        for i in 0..4000 {
            let mut v = || DVec3::new(f() - 0.5, f() - 0.5, f() - 0.5);
            let (ha, hb) = (v().abs() + 0.1, v().abs() + 0.1);
            let (qa, qb) = (
                DQuat::from_scaled_axis(v() * 6.0),
                DQuat::from_scaled_axis(v() * 6.0),
            );
            let (a, b) = (Shape::<f64>::cuboid(ha), Shape::<f64>::cuboid(hb));
            // Every fourth pair: B moved to just touch A (± rounding) along the GJK normal.
            let mut pb = Pose::new(v() * 4.0, qb);
            let pa = Pose::new(DVec3::ZERO, qa);
            if i % 4 == 0 {
                let d = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
                pb.position -= d.normal * d.distance;
            }
            let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cso = gjk::Cso::new(&pa, &pb);
            let d = gjk::distance(&pa, &pb);
            let o = gjk::intersect(&pa, &pb);
            assert_eq!(o.intersecting, d.intersecting, "{d:?} {o:?}");
            decided += usize::from(gjk::box_box_for_tests(&cso).is_some());
        }
        assert!(decided > 2500, "{decided}");
    }
}
