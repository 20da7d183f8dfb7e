//! The closest points of two polytope cores' support sets, worked out in a
//! frame at the answer: where GJK's gap cannot tell the ends of a short
//! edge apart.
//!
//! Along an edge nearly perpendicular to the normal the distance changes
//! by the square of the edge's length over twice the distance: less than
//! GJK's gap tolerance for an edge up to `√(2 · gap · distance)` long, so a
//! lone vertex of GJK's simplex may be the wrong end of it (f32 points
//! 4e-4 of the size off, normals 1e-2 rad). Which end is closest is a
//! first-order question, though: the edge's direction against the
//! points' difference, far above the rounding. GJK on the two support sets
//! alone (the few points within a height tolerance of each support) answers
//! it exactly when its coordinates are taken relative to GJK's point on A,
//! B's as one offset plus rotated local differences: they are then as
//! small as the features, and the rounding scales with them instead of
//! with how far the shapes sit from the origin. The shapes' full supports
//! at the answer's normal certify that the sets held the closest features.

use super::cso::Cso;
use super::simplex::{CsoPoint, Simplex};
use crate::real::{Real, V3, Vector};
use crate::shape::{Geom, Shape};

/// The most points a support set may have (a hull's face of more is left
/// to the polish).
const SET_POINTS: usize = 16;

/// The closest points of the support sets, certified on the whole shapes,
/// in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<T: Real> {
    /// The closest point of A's core.
    pub a: V3<T>,
    /// The closest point of B's core.
    pub b: V3<T>,
    /// Unit normal from A towards B: the points' direction.
    pub normal: V3<T>,
    /// A certified lower bound on the cores' distance: the points'
    /// distance less how far either shape's support at `normal` rises
    /// above its point (rounding).
    pub lower: T,
}

/// A support set: the core's points (its local frame) within a height
/// tolerance of its support.
struct Set<T: Real> {
    points: [V3<T>; SET_POINTS],
    len: usize,
}

impl<T: Real> Set<T> {
    /// The points of `candidates` within `eta` of the highest along `d`;
    /// `None` past [`SET_POINTS`].
    fn of(candidates: impl Iterator<Item = V3<T>> + Clone, d: V3<T>, eta: T) -> Option<Self> {
        let top = candidates.clone().map(|p| p.dot(d)).fold(-T::MAX, T::max);
        let mut set = Self {
            points: [V3::<T>::ZERO; SET_POINTS],
            len: 0,
        };
        for p in candidates {
            if p.dot(d) >= top - eta && !set.points[..set.len].contains(&p) {
                if set.len == SET_POINTS {
                    return None;
                }
                set.points[set.len] = p;
                set.len += 1;
            }
        }
        Some(set)
    }

    /// The support set of a polytope core along `d` within `eta`; `None`
    /// for curved cores.
    fn on(shape: &Shape<T>, d: V3<T>, eta: T) -> Option<Self> {
        match &shape.geom {
            Geom::Point | Geom::Sphere { .. } => Self::of(std::iter::once(V3::<T>::ZERO), d, eta),
            Geom::Box { half_extents: h } => {
                let corner = move |i: usize| {
                    let s = |bit: usize, v: T| if i & bit == 0 { -v } else { v };
                    V3::<T>::new(s(1, h.x()), s(2, h.y()), s(4, h.z()))
                };
                Self::of((0..8).map(corner), d, eta)
            }
            Geom::Capsule { half_height, .. } => {
                let y = V3::<T>::new(T::ZERO, *half_height, T::ZERO);
                Self::of([y, -y].into_iter(), d, eta)
            }
            Geom::Hull(hull) => Self::of(hull.points().iter().copied(), d, eta),
            Geom::Cylinder { .. } | Geom::Cone { .. } => None,
        }
    }

    /// The points.
    fn points(&self) -> &[V3<T>] {
        &self.points[..self.len]
    }
}

/// The closest points of polytope cores whose GJK answer is `(ca, cb)`
/// with unit normal `n` (A's frame), from their support sets within
/// `(eta_a, eta_b)` of height; `None` where a core is curved, a set has
/// too many points, the cores touch, or the shapes' supports at the new
/// normal rise above the new points by more than the rounding (a closest
/// feature outside the sets). Kept out of line: a rare path.
#[inline(never)]
pub(crate) fn closest<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    (eta_a, eta_b): (T, T),
    (ca, cb): (V3<T>, V3<T>),
) -> Option<Closest<T>> {
    let set_a = Set::on(cso.shape_a(), n, eta_a)?;
    let set_b = Set::on(cso.shape_b(), cso.b_direction(-n), eta_b)?;
    // A's points relative to GJK's point on A; B's as its local
    // differences from its first point turned into A's frame, that point
    // being at `offset` from GJK's point on A.
    let origin_b = set_b.points[0];
    let offset = cso.b_point(origin_b) - ca;
    let rel_a = |p: V3<T>| p - ca;
    let rel_b = |p: V3<T>| cso.b_vector(p - origin_b);
    let mut pa = [V3::<T>::ZERO; SET_POINTS];
    let mut qb = [V3::<T>::ZERO; SET_POINTS];
    for (out, &p) in pa.iter_mut().zip(set_a.points()) {
        *out = rel_a(p);
    }
    for (out, &p) in qb.iter_mut().zip(set_b.points()) {
        *out = rel_b(p);
    }
    let (pa, qb) = (&pa[..set_a.len], &qb[..set_b.len]);
    let (a, q) = gjk_on_points::<T>(pa, qb, offset, cb - ca)?;
    let gap: V3<T> = q + offset - a;
    let dist = gap.length();
    let normal = gap.try_normalize()?;
    // Certify on the whole shapes: their supports at the new normal,
    // heights taken as differences from the new points.
    let sa = cso.shape_a().core_support(normal);
    let sb = cso.shape_b().core_support(cso.b_direction(-normal));
    let rise_a = (rel_a(sa) - a).dot(normal);
    let below_b: V3<T> = q - rel_b(sb);
    let rise_b = below_b.dot(normal);
    let round = T::from_f64(16.0) * T::EPSILON * cso.scale;
    if rise_a > round || rise_b > round {
        return None;
    }
    Some(Closest {
        a: a + ca,
        b: q + offset + ca,
        normal,
        lower: dist - rise_a.max(T::ZERO) - rise_b.max(T::ZERO),
    })
}

/// GJK for the closest points of the hulls of `pa` and `offset + qb`
/// (the CSO `pa − qb − offset`), started along `towards` (from A to B)
/// and run until no support point improves on the rounding: A's point
/// and B's point less `offset`. Its bound and progress tests are taken on
/// differences of the small coordinates (`offset`, about the distance,
/// cancels out of them), so the rounding scales with the sets, not with
/// the distance. `None` when the hulls touch.
fn gjk_on_points<T: Real>(
    pa: &[V3<T>],
    qb: &[V3<T>],
    offset: V3<T>,
    towards: V3<T>,
) -> Option<(V3<T>, V3<T>)> {
    let highest = |ps: &[V3<T>], d: V3<T>| {
        ps.iter()
            .copied()
            .reduce(|p, q| if q.dot(d) > p.dot(d) { q } else { p })
            .unwrap_or(V3::<T>::ZERO)
    };
    let support = |d: V3<T>| {
        let (a, q) = (highest(pa, d), highest(qb, -d));
        CsoPoint {
            w: a - q - offset,
            a,
            b: q,
            local_a: a,
            local_b: q,
        }
    };
    // The sides' points at weights `l` (B's less `offset`).
    let sides = |s: &Simplex<T>, l: &[T]| {
        s.points()
            .iter()
            .zip(l)
            .fold((V3::<T>::ZERO, V3::<T>::ZERO), |(a, q), (p, &l)| {
                (a + p.a * l, q + p.b * l)
            })
    };
    let size = pa
        .iter()
        .chain(qb)
        .map(|p| p.length())
        .fold(T::ZERO, T::max);
    let zero = T::from_f64(64.0) * T::EPSILON * (size + offset.length());
    let four_eps = T::from_f64(4.0) * T::EPSILON;
    let mut simplex = Simplex::<T>::new();
    simplex.push(support(towards));
    let mut v: V3<T> = simplex.closest_to_origin();
    // Every pair of points may enter once: a bound on the loop.
    for _ in 0..pa.len() * qb.len() + 4 {
        if v.length_squared() <= zero * zero || simplex.len() == 4 {
            return None;
        }
        let (ac, qc) = sides(&simplex, simplex.weights());
        let p = support(-v);
        // `|v|² − v·w` as `v·(v − w)`, `v − w` from the small coordinates.
        let step: V3<T> = (ac - p.a) - (qc - p.b);
        if v.dot(step) <= four_eps * v.length() * step.length() || simplex.contains_w(p.w) {
            break;
        }
        simplex.push(p);
        let (weights, next) = simplex.solve();
        // `|v|² − |next|²` as `(v − next)·(v + next)`, likewise.
        let (an, qn) = sides(&simplex, &weights[..simplex.len()]);
        let moved: V3<T> = (ac - an) - (qc - qn);
        if moved.dot(v + next) <= T::ZERO {
            simplex.pop();
            break;
        }
        simplex.reduce(weights);
        v = next;
    }
    Some(sides(&simplex, simplex.weights()))
}
