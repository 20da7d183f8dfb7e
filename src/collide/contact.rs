//! Contact points of a penetration: a point on each shape's support feature
//! along the normal, the two `depth · normal` apart.
//!
//! A support point is *a* point of the support feature: on a face (a box's,
//! a cone's base, a cylinder's cap) whichever vertex or rim point the
//! support function returns. A support point of A and one of B can then be
//! the face's width apart sideways, and moving both onto `depth · normal`
//! (the contract of [`Penetration`](super::epa::Penetration)) puts them off
//! their shapes by half that. Found by the fuzzer: 0.42 × size on a cone's
//! base against a small cylinder.
//!
//! The pair taken here writes `depth · normal`, a point of the
//! configuration-space object's boundary, as a convex combination of its
//! support points: GJK from that point (the nearest point of `A − B` to it
//! is itself, up to the depth's tolerance) ends with a simplex around it,
//! and its weights on the A and B points of the simplex give the pair, each
//! a convex combination of its shape's support points, so on the shape. As
//! no point of `A − B` lies beyond the support plane, the points the
//! weights use lie on it: on the support features.

use super::simplex::{CsoPoint, Simplex};
use crate::real::{Real, V3, Vector};

/// The most support points one pair takes.
pub(crate) const MAX_SUPPORTS: u32 = 32;

/// The contact pair for `normal` and `depth` (A's and B's points, in the
/// frame of `sup`) and the support evaluations it made: `candidate` when
/// its difference is already `depth · normal` within `tol`, otherwise the convex combination of support points
/// nearest `depth · normal`, starting from the nearest of `candidate` and
/// `seeds` (points of `A − B` near it).
pub(crate) fn pair<T: Real, S: Fn(V3<T>) -> CsoPoint<T>>(
    sup: &S,
    (normal, depth): (V3<T>, T),
    candidate: (V3<T>, V3<T>),
    seeds: &[CsoPoint<T>],
    tol: T,
) -> ((V3<T>, V3<T>), u32) {
    let target = normal * depth;
    // How far a pair is from `a − b = depth · normal`: sideways (a face's
    // support points) or along the normal (a face of EPA's below the
    // support plane).
    let off = |(a, b): (V3<T>, V3<T>)| (a - b - target).length();
    if off(candidate) <= tol {
        return (candidate, 0);
    }
    // Shifted so the target is the origin: GJK finds the nearest point.
    let shift = |p: CsoPoint<T>| CsoPoint {
        w: p.w - target,
        ..p
    };
    let first = std::iter::once(CsoPoint::new(candidate.0, candidate.1))
        .chain(seeds.iter().copied())
        .map(shift)
        .min_by(|x, y| {
            let (dx, dy) = (x.w.length(), y.w.length());
            dx.partial_cmp(&dy).unwrap_or(std::cmp::Ordering::Equal)
        });
    let Some(first) = first else {
        return (candidate, 0);
    };
    let mut s = Simplex::new();
    s.push(first);
    let eps = tol * tol;
    let mut used = 0;
    for _ in 0..MAX_SUPPORTS {
        let v = s.closest_to_origin();
        if s.len() == 4 || v.length() <= tol {
            break; // the simplex holds the target, or nearly
        }
        let p = shift(sup(-v));
        used += 1;
        if v.dot(v) - v.dot(p.w) <= eps || s.contains_w(p.w) {
            break;
        }
        s.push(p);
    }
    let found = s.closest_points();
    // Keep the candidate unless the combination is nearer the target.
    let pair = if off(found) < off(candidate) {
        found
    } else {
        candidate
    };
    (pair, used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// A unit square face of A at z = 0 (support: the corner farthest along
    /// the direction) against a point B at `(bx, by, -depth)`.
    fn square_vs_point(bx: f64, by: f64, depth: f64) -> impl Fn(DVec3) -> CsoPoint<f64> {
        move |d: DVec3| {
            let corner = DVec3::new(
                if d.x >= 0.0 { 1.0 } else { -1.0 },
                if d.y >= 0.0 { 1.0 } else { -1.0 },
                0.0,
            );
            // A is the flat square (a slab of no thickness); B a point.
            CsoPoint::new(corner, DVec3::new(bx, by, -depth))
        }
    }

    #[test]
    fn a_face_against_a_point_gives_the_point_and_its_projection() {
        let sup = square_vs_point(0.3, -0.2, 0.1);
        let n = DVec3::Z;
        // The support pair: a corner of the square and B.
        let corner = sup(n);
        let ((a, b), _) = pair(&sup, (n, 0.1), (corner.a, corner.b), &[], 1e-9);
        assert!((b - DVec3::new(0.3, -0.2, -0.1)).length() < 1e-12, "{b}");
        assert!((a - DVec3::new(0.3, -0.2, 0.0)).length() < 1e-12, "{a}");
    }

    #[test]
    fn a_pair_already_along_the_normal_is_kept() {
        let sup = square_vs_point(0.3, -0.2, 0.1);
        let a = DVec3::new(0.3, -0.2, 0.0);
        let b = DVec3::new(0.3, -0.2, -0.1);
        assert_eq!(pair(&sup, (DVec3::Z, 0.1), (a, b), &[], 1e-9), ((a, b), 0));
    }

    #[test]
    fn a_target_beyond_the_feature_gets_its_nearest_point() {
        // B's point projects outside the square: the nearest edge point.
        let sup = square_vs_point(1.5, 0.0, 0.1);
        let corner = sup(DVec3::Z);
        let ((a, b), _) = pair(&sup, (DVec3::Z, 0.1), (corner.a, corner.b), &[], 1e-9);
        assert!((a - DVec3::new(1.0, 0.0, 0.0)).length() < 1e-12, "{a}");
        assert!((b - DVec3::new(1.5, 0.0, -0.1)).length() < 1e-12, "{b}");
    }
}
