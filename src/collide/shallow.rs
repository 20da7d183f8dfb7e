//! Penetrations within twice EPA's tolerance: any face that shallow meets
//! it, and a shape's feature narrower than it (a plate 1e-9 thick) makes
//! the polytope's faces there slivers whose rounding breaks it: EPA took
//! the plate pushed sideways, its normal up to 1.57 rad off the face the
//! least depth is under, `Converged`. Two searches look for a shallower
//! answer, each a support-plane depth (an upper bound) along its normal:
//! MPR's from inside ([`mpr::recast_inside`]: the portal and its re-casts
//! along portal normals), then the support sets' own faces and edge pairs
//! ([`set_faces`]: a feature narrower than the tolerance lies inside a band
//! of that height under the support plane, whole).

use super::Status;
use super::aim;
use super::contact;
use super::cso::Cso;
use super::epa::{Penetration, held, rel_tol};
use super::mpr;
use crate::real::{Real, V3, Vector, cross_accurate};
use crate::shape::{Geom, Placed, Shape};
use cspace_recorder as rec;

/// The most points of one shape's support set the face search takes (its
/// triples and edge pairs grow with the cube and the square of it): a
/// plate with points mid-way along its long edges has 12.
const SET_POINTS: usize = 12;

/// The most candidate normals the face search evaluates.
const CANDIDATES: u32 = 512;

/// The most support evaluations the face search makes: its candidate
/// normals, the support behind the origin that bounds the normal, then the
/// contact points' (`contact::pair`).
pub(crate) const MAX_EVALUATIONS: u32 = CANDIDATES + 2 + contact::MAX_SUPPORTS;

/// The support evaluations of [`sets_within`]: each shape's support point
/// and the support behind the origin.
pub(crate) const SETS_EVALUATIONS: u32 = 3;

/// EPA's answer `p`, or a shallower one (see the module) where `p` is
/// within twice EPA's tolerance; the lower bound is the larger of the two
/// answers' (each proven).
pub(crate) fn checked<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    cso: &Cso<'_, T>,
    p: Penetration<T>,
) -> Penetration<T> {
    let tol = rel_tol::<T>() * cso.scale;
    // A face that shallow met the tolerance, or one within it of the least
    // depth did: the least depth is below a feature narrower than it
    // (the plate's thickness), at most twice it.
    if !p.intersecting || p.depth > T::TWO * tol {
        return p;
    }
    // Shallower by rounding only is no better an answer, and would trade
    // EPA's proven normal for one bounded through it: the bound grows by
    // the angle between them (f64 witnessed at the tolerance, 1e-7 rad, then
    // past it).
    let mut p = match mpr::recast_inside(a, b) {
        Some(m) if m.intersecting && m.depth < p.depth - cso.rounding() => {
            rec::text!(
                "shallow: MPR from inside finds a shallower face, {:?}",
                m.depth
            );
            let lower = p.lower_bound.max(m.lower_bound).min(m.depth);
            Penetration {
                lower_bound: lower,
                iterations: p.iterations + m.iterations,
                status: held(Status::Converged, m.depth - lower, cso),
                normal_within: aim::moved(p.normal_within, p.normal, m.normal),
                ..m
            }
        }
        // Its lower bound is proven all the same.
        Some(m) => Penetration {
            lower_bound: if m.intersecting {
                p.lower_bound.max(m.lower_bound).min(p.depth)
            } else {
                p.lower_bound
            },
            iterations: p.iterations + m.iterations,
            ..p
        },
        None => p,
    };
    let n = cso.pose_a.inverse_transform_vector(p.normal);
    let r = cso.radius();
    let (face, within) = set_faces(cso, n, p.depth - r, tol);
    p.normal_within = p.normal_within.min(within);
    // (The support behind the origin; a face's evaluations count it.)
    p.iterations += u32::from(face.is_none());
    if let Some(f) = face {
        let depth = (f.depth + r).max(T::ZERO);
        rec::text!("shallow: a face of the support sets is shallower, {depth:?}");
        let lower = p.lower_bound.min(depth);
        let normal = cso.world_vector(f.normal);
        p = Penetration {
            depth,
            normal,
            normal_within: f.within.min(aim::moved(p.normal_within, p.normal, normal)),
            point_a: cso.world_point(f.a + f.normal * cso.radius_a),
            point_b: cso.world_point(f.b - f.normal * cso.radius_b),
            lower_bound: lower,
            upper_bound: depth,
            iterations: p.iterations + f.evaluations,
            status: held(Status::Converged, depth - lower, cso),
            ..p
        };
    }
    p
}

/// A shallower answer of [`set_faces`], in A's frame (cores).
struct Face<T: Real> {
    /// The cores' support-plane depth along `normal`.
    depth: T,
    normal: V3<T>,
    a: V3<T>,
    b: V3<T>,
    evaluations: u32,
    /// The bound the sets give the normal (see `Penetration::normal_within`).
    within: T,
}

/// The least support-plane depth over the normals the support sets at `n`
/// (A's) and `−n` (B's) fix by themselves: their faces (three points, the
/// normal from the shape's own coordinates, each cross-product component
/// to its rounding) and their edge pairs, the sets taken within `tol` of
/// the support planes (a side whose set is a curved rim's, or has more than
/// [`SET_POINTS`] points, adds none). Returned where it is below `depth` by
/// more than rounding. `depth` is the cores' along `n`. With it the bound
/// the sets give the final normal (`c`'s, or `n`'s where none is shallower).
fn set_faces<T: Real>(cso: &Cso<'_, T>, n: V3<T>, depth: T, tol: T) -> (Option<Face<T>>, T) {
    // A curved side (a rim in the band) has no finite set: its support
    // point alone, which makes no face or edge (the other's faces alone).
    let (sa, sb) = sets(cso, n, tol);
    let noise = T::EPSILON * T::from_f64(64.0) * cso.scale;
    let mut evaluations = 0;
    let mut best: Option<(T, V3<T>)> = None;
    let mut try_normal = |c: V3<T>| {
        let Some(c) = c.try_normalize() else {
            return;
        };
        if evaluations >= CANDIDATES {
            return;
        }
        evaluations += 1;
        let h = c.dot(cso.support(c).w);
        if best.is_none_or(|(d, _)| h < d) {
            best = Some((h, c));
        }
    };
    // A's faces: their outward normals; B's: minus theirs, in A's frame.
    for (set, sign) in [(&sa, T::ONE), (&sb, -T::ONE)] {
        for_faces::<T, _>(set, |m: V3<T>| {
            let m = if sign > T::ZERO { m } else { cso.b_vector(m) };
            try_normal(m * sign);
        });
    }
    // Edge pairs: the normal turned towards `n`.
    for (i, &p) in sa.iter().enumerate() {
        for &q in &sa[i + 1..] {
            for (j, &r) in sb.iter().enumerate() {
                for &s in &sb[j + 1..] {
                    let c = cross_accurate::<T>(q - p, cso.b_vector(s - r));
                    try_normal(if c.dot(n) < T::ZERO { -c } else { c });
                }
            }
        }
    }
    let sets_bound = |c: V3<T>, h: T| pairs_within(cso, (&sa, &sb), c, h);
    let Some((h, c)) = best.filter(|&(h, _)| {
        // Shallower, and not a direction separating the shapes, radii
        // included (GJK's verdict stands).
        h < depth - noise && h + cso.radius() >= -noise
    }) else {
        return (None, sets_bound(n, depth));
    };
    // The contact points: a convex combination of support points at `c`
    // whose difference is `h·c` (on the support features; two support
    // points alone are a face's width apart on parallel faces, and their
    // midpoint off both shapes: f32 boxes, 0.068).
    let p = cso.support(c);
    let ((a, b), used) = contact::pair(&|d| cso.support(d), (c, h), (p.a, p.b), &[], tol);
    let within = sets_bound(c, h);
    let face = Face {
        depth: h,
        normal: c,
        a,
        b,
        evaluations: evaluations + 2 + used,
        within,
    };
    (Some(face), within)
}

/// Each shape's support set at `n` (A's; B's at `−n`), local: its points
/// within `tol` of the support plane ([`corners_within`]), or where that
/// has none to give (a curved rim in the band, too many points) the
/// support point alone.
fn sets<T: Real>(cso: &Cso<'_, T>, n: V3<T>, tol: T) -> (Vec<V3<T>>, Vec<V3<T>>) {
    let set = |shape: &Shape<T>, d: V3<T>| {
        corners_within(shape, d, tol).unwrap_or_else(|| vec![shape.core_support(d)])
    };
    (
        set(cso.shape_a(), n),
        set(cso.shape_b(), cso.b_direction(-n)),
    )
}

/// The bound the support sets `sa`, `sb` (local) give the core normal `c`
/// of an answer whose core depth along it is at most `h`: their pairs'
/// differences are CSO points, under a face a disc, and with the support
/// behind the origin they bound the normal (`aim::points`). One support
/// evaluation.
fn pairs_within<T: Real>(cso: &Cso<'_, T>, (sa, sb): (&[V3<T>], &[V3<T>]), c: V3<T>, h: T) -> T {
    let rounding = cso.rounding();
    let behind = cso.support(-c).w;
    let pairs = sa
        .iter()
        .flat_map(|&p| sb.iter().map(move |&q| p - cso.b_point(q)));
    aim::points(pairs.chain(std::iter::once(behind)), c, h, rounding)
}

/// The bound the support sets at the core normal `n` (A's frame) give an
/// answer whose core depth along it is `depth`, the sets taken within `tol`
/// of the support planes: where EPA's polytope bounds its normal only
/// loosely (a curved minimum), a rim or a cylinder's side on a face still
/// has the face under it. With the support evaluations made.
pub(crate) fn sets_within<T: Real>(cso: &Cso<'_, T>, n: V3<T>, depth: T, tol: T) -> (T, u32) {
    let (sa, sb) = sets(cso, n, tol);
    (pairs_within(cso, (&sa, &sb), n, depth), SETS_EVALUATIONS)
}

/// Calls `f` with the unit outward normal of every plane through three
/// points of `set` with the whole set on its inner side (to rounding).
fn for_faces<T: Real, F: FnMut(V3<T>)>(set: &[V3<T>], mut f: F) {
    let k = set.len();
    for i in 0..k {
        for j in i + 1..k {
            for l in j + 1..k {
                let (p, q, r) = (set[i], set[j], set[l]);
                let Some(m) = cross_accurate::<T>(q - p, r - p).try_normalize() else {
                    continue;
                };
                let slack = T::EPSILON * T::from_f64(16.0) * (q - p).length().max((r - p).length());
                let above = set.iter().any(|&s| (s - p).dot(m) > slack);
                let below = set.iter().any(|&s| (s - p).dot(m) < -slack);
                if !above {
                    f(m);
                }
                if !below {
                    f(-m);
                }
            }
        }
    }
}

/// The points of `shape`'s core within `eta` of its support height in
/// local direction `d` (a box's corners, a hull's points, a capsule's
/// segment ends, a cone's apex, a point), in its local frame; `None` where
/// a curved rim is within it or there are more than [`SET_POINTS`].
fn corners_within<T: Real>(shape: &Shape<T>, d: V3<T>, eta: T) -> Option<Vec<V3<T>>> {
    let top = shape.core_support(d).dot(d);
    let keep = |points: &mut dyn Iterator<Item = V3<T>>| {
        let mut out: Vec<V3<T>> = Vec::new();
        for p in points {
            if p.dot(d) >= top - eta && !out.contains(&p) {
                if out.len() == SET_POINTS {
                    return None;
                }
                out.push(p);
            }
        }
        Some(out)
    };
    match shape.geom() {
        Geom::Point | Geom::Sphere { .. } => Some(vec![V3::<T>::ZERO]),
        Geom::Box { half_extents: h } => keep(&mut (0..8).map(|i| {
            let s = |bit: usize, x: T| if i & bit == 0 { -x } else { x };
            V3::<T>::new(s(1, h.x()), s(2, h.y()), s(4, h.z()))
        })),
        Geom::Capsule { half_height, .. } => {
            let y = V3::<T>::Y * *half_height;
            keep(&mut [y, -y].into_iter())
        }
        Geom::Cone {
            half_height,
            radius,
        } => {
            // The apex alone: the rim's height below the band.
            let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
            let rim = s * *radius - d.y() * *half_height;
            (d.y() * *half_height - rim > eta).then(|| vec![V3::<T>::Y * *half_height])
        }
        Geom::Cylinder { .. } => None,
        Geom::Hull(hull) => keep(&mut hull.points().iter().copied()),
    }
}
