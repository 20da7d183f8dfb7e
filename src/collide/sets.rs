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
//! with how far the shapes sit from the origin. The same holds across a
//! plate's thickness (its narrow face seen edge-on from far away): the
//! distance changes by less than its rounding across it, so the loop
//! decides by Voronoi regions instead of by distances, and each edge of a
//! feature is one side's local difference turned once (a difference of two
//! turned points carries the rounding of the plate's width, which swamps
//! its thickness). The shapes' full supports at the answer's normal (the
//! feature's own plane where the points lie inside a triangle) certify
//! that the sets held the closest features.

use super::cso::Cso;
use super::witness::normal_tol;
use crate::real::{Real, V3, Vector, cross_accurate};
use crate::shape::{Geom, Shape};

/// The most points a support set may have (a hull's face of more is left
/// to the polish).
const SET_POINTS: usize = 64;

/// The points a support set holds at first: sets of more (a hull's
/// many-point face) are taken again at [`SET_POINTS`]. Zeroing four sets'
/// arrays of 64 on every call cost hull queries 10 % by wall clock.
const FEW_POINTS: usize = 16;

/// The most points the sets' GJK adds: each moves the nearest point
/// towards the origin, and a triangle's nearest point takes at most three;
/// beyond this only rounding cycles. With every pair of points tried
/// where the support does not reach, this bounds the work at a few
/// thousand nearest points for two 64-point faces.
const MAX_STEPS: usize = 16;

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
struct Set<T: Real, const N: usize> {
    points: [V3<T>; N],
    len: usize,
}

/// Why a support set was not taken.
enum NoSet {
    /// A curved support (a rim, a side).
    Curved,
    /// More than the set's capacity.
    TooMany,
}

impl<T: Real, const N: usize> Set<T, N> {
    /// The points of `candidates` within `eta` of the highest along `d`.
    fn of(
        candidates: impl Iterator<Item = V3<T>> + Clone,
        d: V3<T>,
        eta: T,
    ) -> Result<Self, NoSet> {
        let top = candidates.clone().map(|p| p.dot(d)).fold(-T::MAX, T::max);
        let mut set = Self {
            points: [V3::<T>::ZERO; N],
            len: 0,
        };
        for p in candidates {
            if p.dot(d) >= top - eta && !set.points[..set.len].contains(&p) {
                if set.len == N {
                    return Err(NoSet::TooMany);
                }
                set.points[set.len] = p;
                set.len += 1;
            }
        }
        Ok(set)
    }

    /// The support set of a polytope core along `d` within `eta`, or a
    /// cone's apex alone.
    fn on(shape: &Shape<T>, d: V3<T>, eta: T) -> Result<Self, NoSet> {
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
            Geom::Cone {
                half_height,
                radius,
            } => {
                // The apex alone, where the base rim is below it by more
                // than `eta` (else a curved support).
                let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
                let (apex, rim) = (d.y() * *half_height, s * *radius - d.y() * *half_height);
                let top = V3::<T>::new(T::ZERO, *half_height, T::ZERO);
                if apex - rim > eta {
                    Self::of(std::iter::once(top), d, eta)
                } else {
                    Err(NoSet::Curved)
                }
            }
            Geom::Cylinder { .. } => Err(NoSet::Curved),
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
/// too many points, the cores touch, the new points are farther apart than
/// GJK's, or the shapes' supports at the new normal rise above the new
/// points by more than the rounding or the normal's tolerance over the
/// set's extent (a closest feature outside the sets). Kept out of line: a
/// rare path.
#[inline(never)]
pub(crate) fn closest<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    etas: (T, T),
    points: (V3<T>, V3<T>),
) -> Option<Closest<T>> {
    match closest_in::<T, FEW_POINTS>(cso, n, etas, points) {
        Err(NoSet::TooMany) => closest_in::<T, SET_POINTS>(cso, n, etas, points).ok()?,
        other => other.ok()?,
    }
}

/// Whether both cores' supports at `n` (A's frame) may be finite sets:
/// not a cylinder's, nor a cone's other than its apex (a cheap test
/// before [`closest`] on curved pairs).
pub(crate) fn finite<T: Real>(cso: &Cso<'_, T>, n: V3<T>) -> bool {
    let finite_on = |shape: &Shape<T>, d: V3<T>| match &shape.geom {
        Geom::Cylinder { .. } => false,
        Geom::Cone {
            half_height,
            radius,
        } => {
            let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
            d.y() * *half_height > s * *radius - d.y() * *half_height
        }
        _ => true,
    };
    finite_on(cso.shape_a(), n) && finite_on(cso.shape_b(), cso.b_direction(-n))
}

/// [`closest`] with sets of up to `N` points: `Err` where a set has more
/// or a core is curved, `Ok(None)` where the sets cannot answer.
fn closest_in<T: Real, const N: usize>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    (eta_a, eta_b): (T, T),
    (ca, cb): (V3<T>, V3<T>),
) -> Result<Option<Closest<T>>, NoSet> {
    let set_a = Set::<T, N>::on(cso.shape_a(), n, eta_a)?;
    let set_b = Set::<T, N>::on(cso.shape_b(), cso.b_direction(-n), eta_b)?;
    Ok(solve::<T, N>(
        cso,
        n,
        (ca, cb),
        (set_a.points(), set_b.points()),
    ))
}

/// [`closest`] on the support sets `points_a` and `points_b` (each core's
/// local frame, at most `N` points).
fn solve<T: Real, const N: usize>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    (ca, cb): (V3<T>, V3<T>),
    (points_a, points_b): (&[V3<T>], &[V3<T>]),
) -> Option<Closest<T>> {
    // A's points relative to GJK's point on A; B's as its local
    // differences from its first point turned into A's frame, that point
    // being at `offset` from GJK's point on A.
    let origin_b = points_b[0];
    let offset = cso.b_point(origin_b) - ca;
    let rel_a = |p: V3<T>| p - ca;
    let rel_b = |p: V3<T>| cso.b_vector(p - origin_b);
    let mut pa = [V3::<T>::ZERO; N];
    let mut qb = [V3::<T>::ZERO; N];
    for (out, &p) in pa.iter_mut().zip(points_a) {
        *out = rel_a(p);
    }
    for (out, &p) in qb.iter_mut().zip(points_b) {
        *out = rel_b(p);
    }
    let sets: Sets<'_, T, _> = Sets {
        a: &pa[..points_a.len()],
        a_own: points_a,
        b: points_b,
        turned: &qb[..points_b.len()],
        turn: |v: V3<T>| cso.b_vector(v),
        offset,
    };
    let Solved { a, q, plane } = sets.closest(cb - ca)?;
    let gap: V3<T> = q + offset - a;
    // Certify on the whole shapes: their supports at a normal, heights
    // taken as differences from the new points; the lower bound there. The
    // points' direction errs by their rounding over their distance, which
    // tilts a face of the size by that much (up to a thousand roundings;
    // nearer, GJK's normal is the better one).
    let tilt = (cso.scale / gap.length()).min(T::from_f64(1e3));
    let round = T::from_f64(16.0) * T::EPSILON * cso.scale * (T::ONE + tilt);
    // The points are the closest only where they are no farther apart than
    // GJK's, to the rounding: else the sets did not hold the closest
    // features (an f32 box beside a cone 450 times larger: its vertex 1.7
    // farther than GJK's point, on a face's plane it poked 3.9 through,
    // 0.12 rad off the normal, `Unique`).
    let slack = T::from_f64(16.0) * T::EPSILON * (cso.scale + gap.length());
    if gap.length() > (cb - ca).length() + slack {
        return None;
    }
    // A set's rise at the normal tilts it by the rise over its extent: past
    // the normal's tolerance the normal is not the sets' (f32 near-parallel
    // box edges 1.6e-4 apart: the points' direction, 0.44 rad off, held
    // the rounding's thousand-fold tilt with a rise of 0.014, its bound
    // −0.018, `Unique`).
    let plain = T::from_f64(16.0) * T::EPSILON * cso.scale;
    let extent = |set: &[V3<T>]| {
        set.iter()
            .map(|&p| (p - set[0]).length())
            .fold(T::ZERO, T::max)
    };
    let holds = |set: &[V3<T>]| round.min(plain + extent(set) * normal_tol::<T>());
    let (holds_a, holds_b) = (holds(points_a), holds(points_b));
    let certify = |normal: V3<T>| {
        let sa = cso.shape_a().core_support(normal);
        let sb = cso.shape_b().core_support(cso.b_direction(-normal));
        let rise_a = (rel_a(sa) - a).dot(normal);
        let below_b: V3<T> = q - rel_b(sb);
        let rise_b = below_b.dot(normal);
        (rise_a <= holds_a && rise_b <= holds_b)
            .then(|| gap.dot(normal) - rise_a.max(T::ZERO) - rise_b.max(T::ZERO))
    };
    // The normal of the CSO triangle the points lie inside (a face against
    // a vertex, parallel faces: exact at any distance), else the points'
    // direction; where neither certifies, GJK's normal.
    let (normal, lower) = plane
        .or_else(|| gap.try_normalize())
        .and_then(|m| Some((m, certify(m)?)))
        .or_else(|| Some((n, certify(n)?)))?;
    Some(Closest {
        a: a + ca,
        b: q + offset + ca,
        normal,
        lower,
    })
}

/// Two support sets in a frame at GJK's point on A: A's points relative
/// to it (`a`) and as stored (`a_own`, whose differences are exact where
/// the shape's coordinates allow); B's in B's local frame, `turn` taking
/// B's local vectors to A's frame, and turned as differences from its
/// first point, which is at `offset`.
struct Sets<'s, T: Real, F: Fn(V3<T>) -> V3<T>> {
    a: &'s [V3<T>],
    a_own: &'s [V3<T>],
    b: &'s [V3<T>],
    turned: &'s [V3<T>],
    turn: F,
    offset: V3<T>,
}

/// The sets' closest points: A's, and B's less `offset`; with the unit
/// normal of the CSO triangle they lie inside, if they do.
struct Solved<T: Real> {
    a: V3<T>,
    q: V3<T>,
    plane: Option<V3<T>>,
}

/// A CSO point: the indices of its points in A's and B's sets.
type Pair = (usize, usize);

/// The points of `ps` with a positive weight, in order: a simplex as a
/// set, to compare with the ones the loop has left.
fn kept<T: Real>(ps: &[Pair], weights: &[T; 3]) -> ([Pair; 3], usize) {
    let mut out = [(usize::MAX, usize::MAX); 3];
    let mut k = 0;
    for (&p, &w) in ps.iter().zip(weights) {
        if w > T::ZERO {
            out[k] = p;
            k += 1;
        }
    }
    out[..k].sort_unstable();
    (out, k)
}

/// The point of a simplex nearest the origin: its weights and its
/// difference `s` from the reference point.
#[derive(Clone, Copy)]
struct Nearest<T: Real> {
    weights: [T; 3],
    s: V3<T>,
}

/// A triangle's frame in its plane (`Sets::frame`): corner `k` is
/// `i + along·u + p`, and `third` is `k`'s difference from `i` (`base` 0)
/// or from `j` (`base` 1).
#[derive(Clone, Copy)]
struct Frame<T: Real> {
    corners: (usize, usize, usize),
    u: V3<T>,
    p: V3<T>,
    third: V3<T>,
    base: T,
    along: T,
}

impl<T: Real, F: Fn(V3<T>) -> V3<T>> Sets<'_, T, F> {
    /// B's point `j` less `offset`, in A's frame.
    fn b_point(&self, j: usize) -> V3<T> {
        self.turned[j]
    }

    /// The difference of CSO points `p − q`, each side's part taken on its
    /// own small coordinates (B's in its frame, then turned): as accurate
    /// as the difference itself, which a difference of two turned points
    /// is not (a plate's thickness under the rounding of its width).
    fn diff(&self, p: Pair, q: Pair) -> V3<T> {
        (self.a_own[p.0] - self.a_own[q.0]) - (self.turn)(self.b[p.1] - self.b[q.1])
    }

    /// The CSO support along `d`.
    fn support(&self, d: V3<T>) -> Pair {
        let highest = |ps: &[V3<T>], d: V3<T>| {
            (0..ps.len())
                .reduce(|i, j| if ps[j].dot(d) > ps[i].dot(d) { j } else { i })
                .unwrap_or(0)
        };
        (highest(self.a, d), highest(self.turned, -d))
    }

    /// GJK for the closest points of the hulls of the sets (the CSO
    /// `a − b − offset`), started along `towards` (from A to B) and run
    /// until no support point makes progress beyond the rounding: A's
    /// point and B's point less `offset`. Every CSO point is kept as its
    /// difference from the first support point's and only that first point
    /// carries `offset` (about the distance `D`); features are solved on
    /// their edges taken as [`Self::diff`], so weights err by `ε·D` over
    /// the features' widths (a short edge's, a plate's thickness), and a
    /// point makes progress by its Voronoi region, not by the distance it
    /// saves (see the loop). `None` when
    /// the hulls touch or the loop needs a tetrahedron.
    fn closest(&self, towards: V3<T>) -> Option<Solved<T>> {
        let first = self.support(towards);
        let w0 = self.a[first.0] - self.b_point(first.1) - self.offset;
        let size = self
            .a
            .iter()
            .map(|p| p.length())
            .chain(self.b.iter().map(|p| (*p - self.b[0]).length()))
            .fold(T::ZERO, T::max);
        let zero = T::from_f64(64.0) * T::EPSILON * (size + self.offset.length());
        let round = T::from_f64(16.0) * T::EPSILON * size;
        let mut points = [first; 3];
        let mut len = 1;
        let mut near = Nearest {
            weights: [T::ONE, T::ZERO, T::ZERO],
            s: V3::<T>::ZERO,
        };
        // The simplices left so far, one a step (see below).
        let mut left = [([first; 3], 0); MAX_STEPS];
        for step in 0..MAX_STEPS {
            let v = w0 + near.s;
            if v.length_squared() <= zero * zero {
                return None;
            }
            let next = self.support(-v);
            if len == 3 {
                // On a triangle only a point above its plane (towards the
                // origin) beyond the rounding of the sets' coordinates
                // makes progress, and that needs a tetrahedron.
                // Measured along the triangle's own normal: `v`'s direction
                // errs by the rounding of its ends over its length.
                let Some(f) = self.frame(&points) else {
                    break;
                };
                let n = f.u.cross(f.p);
                let n = if v.dot(n) < T::ZERO { -n } else { n };
                let rise = -self.diff(next, points[0]).dot(n) / n.length();
                if points.contains(&next) || rise <= round {
                    break;
                }
                return None;
            }
            // On an edge or a vertex a point makes progress where it takes
            // a weight in the nearest point (a Voronoi region: across a
            // thin plate's narrow face the distance changes by less than
            // its rounding and the support cannot tell the plate's sides
            // apart, the region's side can): the support first, else any
            // point of the sets.
            // A simplex the loop has left before is no progress: on a
            // sliver (a plate's narrow face with a point mid-way along its
            // edges) the regions' tests, within rounding of each other,
            // sent it back and forth between two edges until it gave up on
            // one across the face, its point half the plate's thickness
            // off (2.2e-8 of the size, `Unique`).
            let all = (0..self.a.len()).flat_map(|i| (0..self.b.len()).map(move |j| (i, j)));
            let mut trial = points;
            let Some((next, found)) = std::iter::once(next).chain(all).find_map(|p| {
                if points[..len].contains(&p) {
                    return None;
                }
                trial[len] = p;
                let found = self.nearest(w0, first, &trial[..=len]);
                let fresh = !left[..step].contains(&kept(&trial[..=len], &found.weights));
                (found.weights[len] > T::ZERO && fresh).then_some((p, found))
            }) else {
                break;
            };
            left[step] = kept(&points[..len], &near.weights);
            points[len] = next;
            len += 1;
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
            a += self.a[p.0] * l;
            q += self.b_point(p.1) * l;
        }
        // Inside a triangle the normal is its plane's, from A to B.
        let plane = (len == 3)
            .then(|| self.frame(&points))
            .flatten()
            .and_then(|f| f.u.cross(f.p).try_normalize())
            .map(|m| if m.dot(w0 + near.s) > T::ZERO { -m } else { m });
        Some(Solved { a, q, plane })
    }

    /// The point of the hull of the CSO points `ps` (one to three) nearest
    /// the origin, `w0` being the point `first`'s. By Voronoi regions, not
    /// by comparing distances: across a sliver or a thin plate's narrow
    /// face those differ by less than their rounding.
    fn nearest(&self, w0: V3<T>, first: Pair, ps: &[Pair]) -> Nearest<T> {
        let vertex = |i: usize| {
            let mut weights = [T::ZERO; 3];
            weights[i] = T::ONE;
            Nearest {
                weights,
                s: self.diff(ps[i], first),
            }
        };
        match ps.len() {
            2 => self.on_edge(w0, first, ps, (0, 1)).unwrap_or_else(&vertex),
            3 => self.on_triangle(w0, first, ps),
            _ => vertex(0),
        }
    }

    /// The nearest point of edge `(i, j)` of `ps`: `Err` with the vertex
    /// whose region holds the origin when that is not the edge's inside.
    fn on_edge(
        &self,
        w0: V3<T>,
        first: Pair,
        ps: &[Pair],
        (i, j): (usize, usize),
    ) -> Result<Nearest<T>, usize> {
        let d = self.diff(ps[j], ps[i]);
        let dd = d.length_squared();
        let ei = self.diff(ps[i], first);
        let l = if dd > T::ZERO {
            -(w0 + ei).dot(d) / dd
        } else {
            T::ZERO
        };
        if l <= T::ZERO {
            return Err(i);
        }
        if l >= T::ONE {
            return Err(j);
        }
        let mut weights = [T::ZERO; 3];
        weights[i] = T::ONE - l;
        weights[j] = l;
        Ok(Nearest {
            weights,
            s: ei + d * l,
        })
    }

    /// The frame of the triangle `ps` in its plane: the longest edge `u`
    /// and the third corner's offset `p` orthogonal to it (Gram–Schmidt,
    /// from the nearer end of `u`, so a sliver keeps its width); `None`
    /// for collinear corners.
    fn frame(&self, ps: &[Pair]) -> Option<Frame<T>> {
        let corners = [(0, 1, 2), (1, 2, 0), (2, 0, 1)];
        let edges = corners.map(|(i, j, _)| self.diff(ps[j], ps[i]));
        let longest = (0..3)
            .max_by(|&x, &y| {
                edges[x]
                    .length_squared()
                    .to_f64()
                    .total_cmp(&edges[y].length_squared().to_f64())
            })
            .unwrap_or(0);
        let (i, j, k) = corners[longest];
        let u = edges[longest];
        let uu = u.length_squared();
        let (from_i, from_j) = (self.diff(ps[k], ps[i]), self.diff(ps[k], ps[j]));
        let (third, base) = if from_j.length_squared() < from_i.length_squared() {
            (from_j, T::ONE)
        } else {
            (from_i, T::ZERO)
        };
        // One side's points only (a vertex against a face): the offset taken
        // on that side's own coordinates, where a plate's stored points
        // difference exactly, as `(u × t) × u` on products to their own
        // rounding, and turned once. Gram–Schmidt on turned points cancels
        // half a plate's width (a point mid-edge) with a rounding that tilts
        // the plane by ε·width over the thickness; even on own coordinates
        // it left a tilt that placed an apex 189 sizes away 2.2e-8 of the
        // size off across a plate 1.5e-8 thick (`Unique`).
        let from = if base == T::ONE { j } else { i };
        let own = |pts: &[V3<T>], side: fn(Pair) -> usize| {
            let (ul, tl) = (
                pts[side(ps[j])] - pts[side(ps[i])],
                pts[side(ps[k])] - pts[side(ps[from])],
            );
            cross_accurate::<T>(cross_accurate::<T>(ul, tl), ul) / ul.length_squared()
        };
        let p = if ps[i].0 == ps[j].0 && ps[j].0 == ps[k].0 {
            -(self.turn)(own(self.b, |p| p.1))
        } else if ps[i].1 == ps[j].1 && ps[j].1 == ps[k].1 {
            own(self.a_own, |p| p.0)
        } else {
            third - u * (third.dot(u) / uu)
        };
        let tiny = T::from_f64(4.0) * T::EPSILON;
        (uu > T::ZERO && p.length_squared() > tiny * tiny * uu).then(|| Frame {
            corners: (i, j, k),
            u,
            p,
            third,
            base,
            along: base + third.dot(u) / uu,
        })
    }

    /// The nearest point of the triangle `ps`, worked out in its plane:
    /// the longest edge `u` from corner `i` and the third corner's offset
    /// `p` orthogonal to it (Gram–Schmidt, from the nearer end of `u`), so
    /// a sliver keeps its width. The origin's projection is placed in that
    /// basis; inside, its weights; outside, the nearest of the three edges
    /// by distance in the plane (small numbers, compared exactly where the
    /// distances from the origin are not).
    fn on_triangle(&self, w0: V3<T>, first: Pair, ps: &[Pair]) -> Nearest<T> {
        let Some(Frame {
            corners: (i, j, k),
            u,
            p,
            third,
            base,
            along,
        }) = self.frame(ps)
        else {
            // Collinear corners: the nearest of the three edges.
            return self.nearest_edge(w0, first, ps, |_, _| None);
        };
        let (uu, pp) = (u.length_squared(), p.length_squared());
        let ei = self.diff(ps[i], first);
        let to = -(w0 + ei);
        let (c1, c2) = (to.dot(u) / uu, to.dot(p) / pp);
        // In terms of the corners: c1·u + c2·p = (c1 − c2·along)·u + c2·(k − i).
        let (m_j, m_k) = (c1 - c2 * along, c2);
        if m_j > T::ZERO && m_k > T::ZERO && m_j + m_k < T::ONE {
            let mut weights = [T::ZERO; 3];
            weights[i] = T::ONE - m_j - m_k;
            weights[j] = m_j;
            weights[k] = m_k;
            return Nearest {
                weights,
                s: ei + u * m_j + (third + u * base) * m_k,
            };
        }
        // Outside: the corners and the projection in the plane's metric
        // coordinates, `i` at the origin.
        let (lu, lp) = (uu.sqrt(), pp.sqrt());
        let mut at = [(T::ZERO, T::ZERO); 3];
        at[j] = (lu, T::ZERO);
        at[k] = (along * lu, lp);
        let x = (c1 * lu, c2 * lp);
        self.nearest_edge(w0, first, ps, |e0, e1| {
            let (a, b) = (at[e0], at[e1]);
            let d = (b.0 - a.0, b.1 - a.1);
            let dd = d.0 * d.0 + d.1 * d.1;
            let t = if dd > T::ZERO {
                (((x.0 - a.0) * d.0 + (x.1 - a.1) * d.1) / dd)
                    .max(T::ZERO)
                    .min(T::ONE)
            } else {
                T::ZERO
            };
            let (rx, ry) = (a.0 + d.0 * t - x.0, a.1 + d.1 * t - x.1);
            Some(rx * rx + ry * ry)
        })
    }

    /// The nearest of a triangle's three edges (or their ends), ranked by
    /// `in_plane` (squared distance in the triangle's plane) where it
    /// gives one, else by the distance from the origin.
    fn nearest_edge(
        &self,
        w0: V3<T>,
        first: Pair,
        ps: &[Pair],
        in_plane: impl Fn(usize, usize) -> Option<T>,
    ) -> Nearest<T> {
        let mut best: Option<(T, Nearest<T>)> = None;
        for (e0, e1) in [(0, 1), (1, 2), (2, 0)] {
            let found = self.on_edge(w0, first, ps, (e0.min(e1), e0.max(e1)));
            let found = found.unwrap_or_else(|v| {
                let mut weights = [T::ZERO; 3];
                weights[v] = T::ONE;
                Nearest {
                    weights,
                    s: self.diff(ps[v], first),
                }
            });
            let rank = in_plane(e0, e1).unwrap_or_else(|| {
                // `|w0 + s|² − |w0|²`, without the large `|w0|²`.
                T::TWO * w0.dot(found.s) + found.s.length_squared()
            });
            if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                best = Some((rank, found));
            }
        }
        best.map_or_else(|| self.nearest(w0, first, &ps[..1]), |(_, n)| n)
    }
}
