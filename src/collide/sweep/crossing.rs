//! The proofs of a sweep's contact on the configuration-space object `K`
//! (A's frame at t = 0, `K = (A − B) ⊕ ball(r)`): where A's path
//! `x(t) = −t·motion` crosses a triangle or meets a segment of `K`'s
//! points (the method's simplex, a fan of supports around the normal), or
//! where one shape's point enters the other by its closed-form projection.
//! The earliest proof is the bracket's upper end (`certify`).

use crate::collide::cso::Cso;
use crate::collide::gjk;
use crate::collide::project::project;
use crate::collide::simplex::CsoPoint;
use crate::real::{Real, V3, Vector};
use crate::shape::Geom;
use cspace_recorder as rec;

/// The support fan's directions around the normal, as (cos, sin) of the
/// angle in the tangent plane: eight, 45° apart.
const FAN: [(f64, f64); 8] = [
    (1.0, 0.0),
    (
        core::f64::consts::FRAC_1_SQRT_2,
        core::f64::consts::FRAC_1_SQRT_2,
    ),
    (0.0, 1.0),
    (
        -core::f64::consts::FRAC_1_SQRT_2,
        core::f64::consts::FRAC_1_SQRT_2,
    ),
    (-1.0, 0.0),
    (
        -core::f64::consts::FRAC_1_SQRT_2,
        -core::f64::consts::FRAC_1_SQRT_2,
    ),
    (0.0, -1.0),
    (
        core::f64::consts::FRAC_1_SQRT_2,
        -core::f64::consts::FRAC_1_SQRT_2,
    ),
];

/// A point of `K` with its points on A (A's frame, t = 0) and B (A's frame).
#[derive(Clone, Copy, Debug)]
pub(super) struct Full<T: Real> {
    /// The point of `K`.
    pub k: V3<T>,
    /// Its point on A.
    pub a: V3<T>,
    /// Its point on B.
    pub b: V3<T>,
}

/// The point of `K` made of core points `p` pushed out by the radii along `n`.
pub(super) fn inflate<T: Real>(cso: &Cso<'_, T>, p: &CsoPoint<T>, n: V3<T>) -> Full<T> {
    let a = p.a + n * cso.radius_a;
    let b = p.b - n * cso.radius_b;
    Full { k: a - b, a, b }
}

/// The support point of `K` in unit direction `n` (from A towards B): A's
/// point furthest towards B minus B's point furthest towards A.
pub(super) fn support<T: Real>(cso: &Cso<'_, T>, n: V3<T>) -> Full<T> {
    inflate(cso, &cso.support(n), n)
}

/// A proven time of contact and the contact points on A (A's frame at
/// t = 0) and B (A's frame).
#[derive(Clone, Copy)]
pub(super) struct Crossing<T: Real> {
    /// The time.
    pub t: T,
    /// The contact points on A and B (A's at t = 0).
    pub on: (V3<T>, V3<T>),
    /// Whether the path point lies in `K` to rounding of its points (inside
    /// a triangle of them, or one shape's point inside the other), not only
    /// within rounding of it (beside a triangle, on a segment). The latter
    /// places the shapes within rounding of each other, and along a grazing
    /// motion their contact may come much later (f32 needles on plates'
    /// narrow faces: 6e-6 of the time, 5 times the bracket).
    pub strict: bool,
}

/// A's path in `K` near the toi the method found: `x(t) = x + (t − t_e)·(−m)`.
/// Crossings are solved relative to `x`, so the triangles' coordinates are
/// small and the solve loses no digits to their distance from the origin.
pub(super) struct Path<T: Real> {
    pub m: V3<T>,
    pub x: V3<T>,
    pub t_e: T,
    pub scale: T,
}

/// The distance of `p` (the shape's local frame) from the core of `geom`,
/// where it has a closed form (points, spheres, boxes, capsules,
/// cylinders, cones), and the core's outward unit normal there.
fn core_distance<T: Real>(geom: &Geom<T>, p: V3<T>) -> Option<(T, V3<T>)> {
    match geom {
        Geom::Point | Geom::Sphere { .. } => Some((p.length(), p.try_normalize()?)),
        _ => project(geom, p).map(|q| (q.signed, q.normal)),
    }
}

/// A time of contact proven by a point of both shapes: where A's support
/// point `hub.a` is the contact point (`unique` is A), A at time `t`
/// touches B once `hub.a + t·m` lies in B; where B's is, once `hub.b − t·m`
/// lies in A. Newton steps on that point's distance from the other shape
/// (its closed-form projection: `None` for hulls) from the plane's bound
/// `lower`, at most four, until it is inside.
pub(super) fn cross_point<T: Real>(
    cso: &Cso<'_, T>,
    m: V3<T>,
    (lower, closing): (T, T),
    unique: Unique,
    hub: Full<T>,
) -> Option<Crossing<T>> {
    // The point at time t and its distance outside the other shape (its
    // radius off), with that distance's rate along t.
    let outside = |t: T| -> Option<(T, T)> {
        match unique {
            Unique::A => {
                let q = cso.b_local_point(hub.a + m * t);
                let (d, normal) = core_distance(&cso.shape_b().geom, q)?;
                Some((d - cso.radius_b, cso.b_vector(normal).dot(m)))
            }
            Unique::B => {
                let (d, normal) = core_distance(&cso.shape_a().geom, hub.b - m * t)?;
                Some((d - cso.radius_a, -normal.dot(m)))
            }
            Unique::Neither => None,
        }
    };
    // A step past the surface by a few roundings of the coordinates.
    let past = T::from_f64(8.0) * T::EPSILON * (hub.a.length() + m.length() + cso.scale);
    let mut t = lower;
    for _ in 0..4 {
        let (f, rate) = outside(t)?;
        if f <= T::ZERO {
            let on = match unique {
                Unique::A => (hub.a, hub.a + m * t),
                _ => (hub.b - m * t, hub.b),
            };
            return Some(Crossing {
                t,
                on,
                strict: true,
            });
        }
        // The distance falls at least as fast as along the contact normal.
        let rate = if rate < T::ZERO { rate } else { -closing };
        t = (t - (f + past) / rate).min(T::ONE);
    }
    None
}

/// A time of contact proven by the method's own simplex (a triangle of it
/// the path crosses; its points placed at t = 0), with the contact points
/// on A and B.
pub(super) fn cross_near<T: Real>(
    cso: &Cso<'_, T>,
    path: &Path<T>,
    n: V3<T>,
    near: &[CsoPoint<T>],
) -> Option<Crossing<T>> {
    if near.len() < 3 {
        return None;
    }
    let p = |i: usize| inflate(cso, &near[i], n);
    let mut best = None;
    for (i, j, k) in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)] {
        if k < near.len() {
            let t = [p(i), p(j), p(k)];
            if well_shaped(&t) {
                best = earliest(best, cross_triangle(path, t));
            }
        }
    }
    best
}

/// Whether every angle of triangle `p` is above ~0.06°: the method's
/// simplex near a curved contact is often a sliver, whose crossing rounding
/// moves by far more than the coordinates' rounding.
fn well_shaped<T: Real>(p: &[Full<T>; 3]) -> bool {
    let min_sin = T::from_f64(1e-3);
    (0..3).all(|i| {
        let (a, b, c) = (p[i].k, p[(i + 1) % 3].k, p[(i + 2) % 3].k);
        let (u, v) = (b - a, c - a);
        u.cross(v).length() > min_sin * u.length() * v.length()
    })
}

/// A time of contact proven by a fan of supports around `n` (angle `√rel`):
/// the earliest crossing of the triangles (hub, kᵢ, kᵢ₊₁), or where they
/// collapse (a vertex or an edge of `K`) a segment or point the path meets.
pub(super) fn cross_fan<T: Real>(
    cso: &Cso<'_, T>,
    path: &Path<T>,
    n: V3<T>,
    hub: Full<T>,
    iterations: &mut u32,
) -> Option<(Crossing<T>, Unique)> {
    let h = gjk::rel_tol::<T>().sqrt();
    let (t1, t2) = crate::real::tangents::<T>(n);
    let mut ring = [hub; FAN.len()];
    for (slot, (c, s)) in ring.iter_mut().zip(FAN) {
        let dir = n + (t1 * T::from_f64(c) + t2 * T::from_f64(s)) * h;
        *slot = support(cso, dir.try_normalize().unwrap_or(n));
        *iterations += 1;
    }
    let mut best = None;
    for (i, &p) in ring.iter().enumerate() {
        let q = ring[(i + 1) % ring.len()];
        best = earliest(best, cross_triangle(path, [hub, p, q]));
    }
    if best.is_none() {
        best = earliest(best, cross_segment(path, hub, hub));
        for p in ring {
            best = earliest(best, cross_segment(path, hub, p));
        }
    }
    // Which shape's support stays put around n (a vertex or a curved point,
    // moving by ρ·h at most): its point is the contact point itself.
    let still = T::from_f64(8.0) * h * path.scale;
    let spread = |f: fn(&Full<T>) -> V3<T>| {
        ring.iter()
            .map(|p| (f(p) - f(&hub)).length())
            .fold(T::ZERO, T::max)
    };
    let unique = if spread(|p| p.a) <= still {
        Unique::A
    } else if spread(|p| p.b) <= still {
        Unique::B
    } else {
        Unique::Neither
    };
    best.map(|c| (c, unique))
}

/// Which shape has a unique support point around the contact normal: its
/// point is the contact point itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unique {
    /// A's (a vertex, a rim or a curved point).
    A,
    /// B's.
    B,
    /// Neither: both touch with a flat feature (a face or an edge).
    Neither,
}

/// A fan's crossing with its contact points taken from the shape whose
/// support is unique (the barycentric mix of a fan spread along a flat
/// feature is off by up to the fan's width): A's support point `hub.a`, and
/// B's the same point where A meets it at the crossing's time, or the other
/// way round.
pub(super) fn snap<T: Real>(c: Crossing<T>, unique: Unique, hub: Full<T>, m: V3<T>) -> Crossing<T> {
    let on = match unique {
        Unique::A => (hub.a, hub.a + m * c.t),
        Unique::B => (hub.b - m * c.t, hub.b),
        Unique::Neither => c.on,
    };
    Crossing { on, ..c }
}

/// The earlier of two proven crossings.
pub(super) fn earliest<T: Real>(
    a: Option<Crossing<T>>,
    b: Option<Crossing<T>>,
) -> Option<Crossing<T>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Where the path crosses triangle `p`, inside to rounding: the time and
/// the crossing's points on A and B. Solved on the triangle's plane (its
/// normal's error is a tilt about its longer edges, which moves a point
/// inside it by no more than rounding, also on slivers), the inside test on
/// signed areas; a point outside counts (not `strict`) within the
/// coordinates' rounding of the triangle ([`crossing_slack`]).
fn cross_triangle<T: Real>(path: &Path<T>, p: [Full<T>; 3]) -> Option<Crossing<T>> {
    let dir = -path.m;
    // The normal from the two edges at the vertex opposite the longest
    // edge (the same orientation, a cyclic turn of the vertices): the other
    // pairs of a needle are nearly parallel, and their cross product loses
    // its direction to cancellation (in f32, 2e-4 rad on a fan's triangle
    // along a cylinder's side, which moved its crossing by 3e-5 of the time).
    let len2 = |i: usize| (p[(i + 2) % 3].k - p[(i + 1) % 3].k).length_squared();
    let o = (0..3).fold(0, |best, i| if len2(i) > len2(best) { i } else { best });
    let normal = (p[(o + 1) % 3].k - p[o].k).cross(p[(o + 2) % 3].k - p[o].k);
    let area2 = normal.length();
    let along = normal.dot(dir);
    // A path (almost) in the triangle's plane, or a triangle collapsed to a
    // segment, has no proper crossing: the segments are tried instead.
    if along.abs() <= T::from_f64(1e-9) * area2 * dir.length() || !along.is_finite() {
        return None;
    }
    let dt = normal.dot(p[0].k - path.x) / along;
    let q = path.x + dir * dt;
    let round = crossing_slack::<T>() * (path.x.length() + path.scale);
    let mut w = [T::ZERO; 3];
    // Outside, q must lie within rounding of the triangle itself, not only
    // of its edges' lines: beyond a sliver's sharp tip both long edges' lines
    // pass within rounding of points far from it (a box's edge swept by a
    // small cylinder in f32: 0.4 past the tip, the shapes 0.044 apart at
    // the "crossing"). The triangle's point nearest q lies on an edge q is
    // outside of.
    let mut outside = T::MAX;
    for (i, wi) in w.iter_mut().enumerate() {
        let (b, c) = (p[(i + 1) % 3].k, p[(i + 2) % 3].k);
        // Twice the signed area of (q, b, c) over |normal|: q's height above
        // the edge b c (in the plane) times the edge's length.
        let signed = (c - b).cross(q - b).dot(normal) / area2;
        if signed < T::ZERO {
            if -signed > round * (c - b).length() {
                return None;
            }
            outside = outside.min(segment_distance(q, b, c));
        }
        *wi = signed.max(T::ZERO);
    }
    let inside = outside == T::MAX;
    if !inside && outside > round {
        return None;
    }
    let total = w[0] + w[1] + w[2];
    if total <= T::ZERO || !total.is_finite() || !dt.is_finite() {
        return None;
    }
    let on_a = (p[0].a * w[0] + p[1].a * w[1] + p[2].a * w[2]) / total;
    let on_b = (p[0].b * w[0] + p[1].b * w[1] + p[2].b * w[2]) / total;
    Some(Crossing {
        t: path.t_e + dt,
        on: (on_a, on_b),
        strict: inside,
    })
}

/// How far from `K` (relative to the coordinates' reach) a crossing may
/// pass and count, to the coordinates' rounding. In f64 64 ε: the shapes
/// are then within four orders of the touching tolerance of each other,
/// though the bracket's upper end is widened by only 4 ε over the closing
/// speed, so the time is off only along paths grazing by more than that
/// ratio (none of 6 000 grazing f64 sweeps in a review); edges of `K` met
/// at shallow angles need the room (with 4 ε, 2 % of f64 box edges
/// grazing hull vertices lost their `Converged` bracket). In f32 4 ε,
/// where 64 ε is a tenth of the touching tolerance and grazing paths
/// passed beside needles 15 roundings wide.
fn crossing_slack<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(4.0) * T::EPSILON,
        rec::Precision::F64 => T::from_f64(64.0) * T::EPSILON,
    }
}

/// The distance of point `q` from segment `b c`.
fn segment_distance<T: Real>(q: V3<T>, b: V3<T>, c: V3<T>) -> T {
    let e = c - b;
    let ee = e.dot(e);
    let u = if ee > T::ZERO {
        (e.dot(q - b) / ee).max(T::ZERO).min(T::ONE)
    } else {
        T::ZERO
    };
    (q - b - e * u).length()
}

/// Where the path meets segment `p q` of `K` (a point when equal), within
/// rounding of the coordinates: the time and the points on A and B.
fn cross_segment<T: Real>(path: &Path<T>, p: Full<T>, q: Full<T>) -> Option<Crossing<T>> {
    let m = path.m;
    let mm = m.dot(m);
    if mm <= T::ZERO {
        return None;
    }
    let r = p.k - path.x;
    let e = q.k - p.k;
    let ee = e.dot(e);
    // Closest points of the line x − s·m and the segment p + u·e, u ∈ [0, 1].
    let u = if ee > T::ZERO {
        let me = m.dot(e);
        let denom = ee * mm - me * me;
        if denom > T::EPSILON * ee * mm {
            ((-(r.dot(e)) * mm + r.dot(m) * me) / denom)
                .max(T::ZERO)
                .min(T::ONE)
        } else {
            T::ZERO
        }
    } else {
        T::ZERO
    };
    let c = r + e * u;
    let dt = -c.dot(m) / mm;
    let miss = (c + m * dt).length();
    let eta = crossing_slack::<T>() * (path.x.length() + path.scale);
    if miss > eta {
        return None;
    }
    let on_a = p.a + (q.a - p.a) * u;
    let on_b = p.b + (q.b - p.b) * u;
    Some(Crossing {
        t: path.t_e + dt,
        on: (on_a, on_b),
        strict: false,
    })
}
