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
    // Certify on the whole shapes: their supports at a normal, heights
    // taken as differences from the new points; the lower bound there.
    let round = T::from_f64(16.0) * T::EPSILON * cso.scale;
    let certify = |normal: V3<T>| {
        let sa = cso.shape_a().core_support(normal);
        let sb = cso.shape_b().core_support(cso.b_direction(-normal));
        let rise_a = (rel_a(sa) - a).dot(normal);
        let below_b: V3<T> = q - rel_b(sb);
        let rise_b = below_b.dot(normal);
        (rise_a <= round && rise_b <= round)
            .then(|| gap.dot(normal) - rise_a.max(T::ZERO) - rise_b.max(T::ZERO))
    };
    // The points' direction; near touching, where that direction is only
    // as good as the rounding over the distance, GJK's normal.
    let (normal, lower) = gap
        .try_normalize()
        .and_then(|m| Some((m, certify(m)?)))
        .or_else(|| Some((n, certify(n)?)))?;
    Some(Closest {
        a: a + ca,
        b: q + offset + ca,
        normal,
        lower,
    })
}

/// GJK for the closest points of the hulls of `pa` and `offset + qb`
/// (the CSO `pa − qb − offset`), started along `towards` (from A to B)
/// and run until no support point improves on the rounding: A's point
/// and B's point less `offset`. Every CSO point is kept as its difference
/// from the first support point's, taken on the small coordinates, and
/// only that first point carries `offset` (about the distance `D`): the
/// sub-simplex weights then err by `ε·D` over the features' length
/// instead of `ε·D²` over its square (the closest point of a short edge
/// anywhere on it from a few sizes away), and the bound and progress
/// tests compare small differences. `None` when the hulls touch or the
/// loop needs a tetrahedron.
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
    let support = |d: V3<T>| (highest(pa, d), highest(qb, -d));
    let first = support(towards);
    // The reference CSO point, and each point's difference from it.
    let w0 = first.0 - first.1 - offset;
    let rel = |(a, q): (V3<T>, V3<T>)| (a - first.0) - (q - first.1);
    let size = pa
        .iter()
        .chain(qb)
        .map(|p| p.length())
        .fold(T::ZERO, T::max);
    let zero = T::from_f64(64.0) * T::EPSILON * (size + offset.length());
    let four_eps = T::from_f64(4.0) * T::EPSILON;
    let mut points = [first; 3];
    let mut len = 1;
    let mut near = Nearest {
        weights: [T::ONE, T::ZERO, T::ZERO],
        s: V3::<T>::ZERO,
        excess: T::ZERO,
    };
    // Every pair of points may enter once: a bound on the loop.
    for _ in 0..pa.len() * qb.len() + 4 {
        let v = w0 + near.s;
        if v.length_squared() <= zero * zero {
            return None;
        }
        let next = support(-v);
        // `|v|² − v·w` as `v·(v − w)`, `v − w` from the differences.
        let step = near.s - rel(next);
        if v.dot(step) <= four_eps * v.length() * step.length() || points[..len].contains(&next) {
            break;
        }
        if len == 3 {
            return None;
        }
        points[len] = next;
        len += 1;
        let e = points.map(rel);
        let found = nearest(w0, &e[..len]);
        if found.excess >= near.excess {
            // No progress beyond the rounding: the last point stays out.
            len -= 1;
            break;
        }
        near = found;
        // Keep the points the nearest point needs.
        let mut kept = 0;
        for i in 0..len {
            if near.weights[i] > T::ZERO {
                points[kept] = points[i];
                near.weights[kept] = near.weights[i];
                kept += 1;
            }
        }
        for w in &mut near.weights[kept..] {
            *w = T::ZERO;
        }
        len = kept;
    }
    let mut a = V3::<T>::ZERO;
    let mut q = V3::<T>::ZERO;
    for (p, &l) in points[..len].iter().zip(&near.weights) {
        a += p.0 * l;
        q += p.1 * l;
    }
    Some((a, q))
}

/// The point of a simplex nearest the origin: its weights, its difference
/// `s` from the reference point `w0`, and `|w0 + s|² − |w0|²` (compared
/// between candidates without the large `|w0|²`).
#[derive(Clone, Copy)]
struct Nearest<T: Real> {
    weights: [T; 3],
    s: V3<T>,
    excess: T,
}

/// The point of the hull of `w0 + e[i]` (one to three points, `e` small
/// differences) nearest the origin. A triangle's inside wins where the
/// origin projects into it (its Voronoi region: no comparison of
/// distances, which differ by less than their rounding across a sliver,
/// a thin plate's narrow face); the projection is taken on the triangle's
/// longest edge and the part of another orthogonal to it, so a sliver
/// keeps its width. Otherwise every vertex and edge, by distance. Each
/// candidate's weights come from products of `w0` with small
/// differences: they err by `ε·|w0|` over the differences' lengths.
fn nearest<T: Real>(w0: V3<T>, e: &[V3<T>]) -> Nearest<T> {
    let excess = |s: V3<T>| T::TWO * w0.dot(s) + s.length_squared();
    if let Some(inside) = inside_triangle(w0, e) {
        return Nearest {
            weights: inside.0,
            s: inside.1,
            excess: excess(inside.1),
        };
    }
    let mut best = Nearest {
        weights: [T::ONE, T::ZERO, T::ZERO],
        s: e[0],
        excess: excess(e[0]),
    };
    let mut consider = |weights: [T; 3], s: V3<T>| {
        let x = excess(s);
        if x < best.excess {
            best = Nearest {
                weights,
                s,
                excess: x,
            };
        }
    };
    let unit = |i: usize, l: T| {
        let mut w = [T::ZERO; 3];
        w[i] = l;
        w
    };
    for (i, &ei) in e.iter().enumerate().skip(1) {
        consider(unit(i, T::ONE), ei);
    }
    for i in 0..e.len() {
        for j in i + 1..e.len() {
            let d = e[j] - e[i];
            let dd = d.length_squared();
            if dd <= T::ZERO {
                continue;
            }
            let l = -(w0 + e[i]).dot(d) / dd;
            if l > T::ZERO && l < T::ONE {
                let mut w = unit(i, T::ONE - l);
                w[j] = l;
                consider(w, e[i] + d * l);
            }
        }
    }
    best
}

/// Where the origin projects inside the triangle `w0 + e[0..3]`: the
/// weights and the point's difference from `w0`. The projection is taken
/// on the longest edge `u` from its first corner and `p`, the third
/// corner's offset orthogonal to `u` (Gram–Schmidt), whose length is the
/// triangle's width even for a sliver.
fn inside_triangle<T: Real>(w0: V3<T>, e: &[V3<T>]) -> Option<([T; 3], V3<T>)> {
    if e.len() != 3 {
        return None;
    }
    // Corners in the order that puts the longest edge first.
    let corners = [(0, 1, 2), (1, 2, 0), (2, 0, 1)];
    let (i, j, k) = corners
        .into_iter()
        .max_by(|&(i, j, _), &(p, q, _)| {
            (e[j] - e[i])
                .length_squared()
                .to_f64()
                .total_cmp(&(e[q] - e[p]).length_squared().to_f64())
        })
        .unwrap_or((0, 1, 2));
    let u = e[j] - e[i];
    let uu = u.length_squared();
    if uu <= T::ZERO {
        return None;
    }
    let third = e[k] - e[i];
    let along = third.dot(u) / uu;
    let p = third - u * along;
    let pp = p.length_squared();
    if pp <= T::ZERO {
        return None;
    }
    let to = -(w0 + e[i]);
    let (c1, c2) = (to.dot(u) / uu, to.dot(p) / pp);
    // In terms of the edges: c1·u + c2·p = (c1 − c2·along)·u + c2·third.
    let (m_u, m_third) = (c1 - c2 * along, c2);
    if m_u <= T::ZERO || m_third <= T::ZERO || m_u + m_third >= T::ONE {
        return None;
    }
    let mut weights = [T::ZERO; 3];
    weights[i] = T::ONE - m_u - m_third;
    weights[j] = m_u;
    weights[k] = m_third;
    Some((weights, e[i] + u * m_u + third * m_third))
}
