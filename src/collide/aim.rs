//! Certified bounds on a penetration normal: the largest angle between an
//! answer's `normal` and any direction of least depth (`normal_within`).
//!
//! The depth of two overlapping shapes is the least of `h(m)`, the
//! configuration-space object's (CSO's) support height, over unit
//! directions `m`. An answer carries an upper bound `ub ≥ h(normal)`, so
//! every direction of least depth lies in the feasible set `{m : h(m) ≤
//! ub}`. Two facts bound that set, both from points known to lie in the
//! CSO:
//!
//! - **A face it passes.** EPA's polytope is a closed surface of CSO points
//!   around the origin: the ray along a feasible `m` leaves it through some
//!   face `G` no farther than `h(m) ≤ ub` from the origin, so `G`'s plane
//!   is at most `ub` away and `m` is within `atan(√(ub² − d²) / d)` of its
//!   normal (`d` its plane's distance). Faces farther than `ub` pass none.
//! - **A disc under it.** CSO points at heights ≥ `a` along a face's normal
//!   `n_G` whose outline (seen along `n_G`) holds a disc of radius `r`
//!   around the origin's foot give `h(m) ≥ a cos θ + r sin θ` at an angle
//!   `θ` from `n_G`: feasible directions are within `θ₁` of `n_G` or past
//!   `θ₂` (where that curve crosses `ub`), and the first fact rules out
//!   the second branch, or CSO points behind the origin do (the support
//!   sets' bound, [`points`], which has no polytope). On a face of the CSO
//!   `θ₁ ≈ (ub − a) / r`: rounding over the face's width, where the first
//!   fact alone gives `√(2 (ub − a) / ub)`, 1e-7 rad for a depth gap of
//!   rounding in f64.
//!
//! The box test and the closed forms know their candidates outright: the
//! separating axes within rounding of the least overlap, the nearest
//! features of a point inside or outside a core. Everything else, and
//! any tie between distinct directions, is `π`: no bound.

use super::polytope::Polytope;
use super::witness::{Witness, normal_tol};
use crate::real::{Real, V3, Vector};
use glam::DVec3;

/// No bound on the normal (a tie, or an answer without a certificate).
pub(crate) const NONE: f64 = std::f64::consts::PI;

/// The most faces within the bound one polytope certificate examines
/// (more, and it gives none).
const NEAR: usize = 16;

/// The most distinct planes among those faces given a disc.
const PLANES: usize = 4;

/// The most CSO points one disc takes (its outline is found among them).
const DISC_POINTS: usize = 24;

/// `v` in f64 (exact).
pub(crate) fn wide<T: Real>(v: V3<T>) -> DVec3 {
    DVec3::from_array(v.to_f64())
}

/// The angle between two vectors, in `[0, π]`, to rounding.
pub(crate) fn angle(u: DVec3, v: DVec3) -> f64 {
    u.cross(v).length().atan2(u.dot(v))
}

/// An upper bound on the angle between unit vectors `u` and `v`: `tan θ`
/// while they are within 60° (no arc tangent), the angle beyond.
fn angle_up(u: DVec3, v: DVec3) -> f64 {
    let (sin, cos) = (u.cross(v).length(), u.dot(v));
    if cos >= 0.5 {
        sin / cos
    } else {
        sin.atan2(cos)
    }
}

/// `x` as `T`, rounded up (a bound stays a bound) and at most `π`.
pub(crate) fn bound<T: Real>(x: f64) -> T {
    let x = if x.is_nan() { NONE } else { x.min(NONE) };
    T::from_f64((x * (1.0 + 1e-6) + 1e-30).min(NONE))
}

/// A bound `within` for the normal `from` carried over to `to`: by the
/// triangle inequality it grows by the angle between them.
pub(crate) fn moved<T: Real>(within: T, from: V3<T>, to: V3<T>) -> T {
    bound(within.to_f64() + angle(wide::<T>(from), wide::<T>(to)))
}

/// The bound a distance answer's witness gives its normal: the normal
/// tolerance where it is `Unique` (certified by the witness polish),
/// otherwise none.
pub(crate) fn witnessed<T: Real>(w: Witness) -> T {
    if w == Witness::Unique {
        normal_tol::<T>()
    } else {
        bound(NONE)
    }
}

/// The bound EPA's polytope `poly` (vertices are CSO points, A's frame)
/// gives the core normal `n` of an answer whose core depth is at most
/// `ub`, its support points rounded by up to `slack` (see the module):
/// `closed` where the polytope is a closed surface around the origin. The
/// disc under a face is the outline of the faces in its plane.
pub(crate) fn polytope<T: Real>(poly: &Polytope<T>, n: V3<T>, ub: T, slack: T, closed: bool) -> T {
    let n = wide::<T>(n);
    let reach = poly.reach.to_f64();
    // The f64 dot products' own rounding.
    let round = 8.0 * f64::EPSILON * reach;
    let ubp = ub.to_f64() + slack.to_f64() + round;
    // The faces within `ub`: their unit normals and (lowest) heights.
    let corners = |i: usize| poly.faces[i].v.map(|k| wide::<T>(poly.verts[k].w));
    let mut near = [(0, DVec3::ZERO, 0.0); NEAR];
    let mut count = 0;
    let limit = T::from_f64(ubp + round) + T::EPSILON * T::from_f64(4.0) * poly.reach;
    for i in poly.within(limit) {
        let g = wide::<T>(poly.faces[i].n).normalize_or_zero();
        let d = corners(i)
            .iter()
            .map(|&w| g.dot(w))
            .fold(f64::MAX, f64::min)
            - round;
        if g == DVec3::ZERO || d > ubp {
            continue;
        }
        if count == NEAR {
            // Too many to bound one by one (a flat polytope of slivers).
            return bound(NONE);
        }
        near[count] = (i, g, d);
        count += 1;
    }
    let near = &near[..count];
    let verts = poly.verts.iter().map(|p| wide::<T>(p.w));
    // The first fact over every face within `ub` (a closed polytope only),
    // and the best disc that bounds every direction by itself.
    let mut passed: f64 = if closed || count == 0 { -1.0 } else { NONE };
    let mut alone = NONE;
    // The planes whose disc is known: a face in one shares it.
    let mut planes = [(DVec3::ZERO, 0.0, Disc::NONE); PLANES];
    let mut known = 0;
    for &(_, g, d) in near {
        let tilt = angle_up(n, g);
        // The face's cone (the first fact), as tan(cone / 2); a face
        // through the origin passes directions of any angle.
        let cone_t = if d > 0.0 {
            ((ubp - d) * (ubp + d)).sqrt() / (ubp + d)
        } else {
            f64::INFINITY
        };
        let cone = || 2.0 * cone_t.atan();
        if alone <= tilt && tilt + cone() <= passed.max(0.0) {
            continue;
        }
        let eta = ubp - d + 2.0 * round;
        let seen = planes[..known]
            .iter()
            .find(|(h, e, _)| h.dot(g) >= 1.0 - 1e-15 && (e - d).abs() <= round)
            .map(|p| p.2);
        let disc = seen.unwrap_or_else(|| {
            // Past the first few planes (a curved minimum's small faces,
            // whose discs are small too) the faces keep their cones.
            if known == PLANES {
                return Disc::NONE;
            }
            let disc = Disc::flat(poly, near, (g, d, eta), ubp);
            planes[known] = (g, d, disc);
            known += 1;
            disc
        });
        let face = if cone_t < disc.far {
            disc.near
        } else {
            if tilt + disc.near < alone && disc.behind(verts.clone(), g, ubp) {
                alone = tilt + disc.near;
            }
            cone()
        };
        passed = passed.max(tilt + face);
    }
    // No face within `ub` (only rounding can say so): no bound.
    bound(if passed < 0.0 { NONE } else { passed }.min(alone))
}

/// The bound CSO `points` (A's frame; rounded by up to `slack`) give the
/// core normal `n` of an answer whose core depth along it is at most `ub`:
/// the second fact alone, under the plane of normal `n` (no polytope:
/// `points` must hold some behind the origin to rule out the far side).
pub(crate) fn points<T: Real>(
    points: impl Iterator<Item = V3<T>> + Clone,
    n: V3<T>,
    ub: T,
    slack: T,
) -> T {
    let g = wide::<T>(n);
    let pts = points.map(wide::<T>);
    let reach = pts.clone().fold(0.0_f64, |r, w| r.max(w.length()));
    let round = 8.0 * f64::EPSILON * reach;
    let ubp = ub.to_f64() + slack.to_f64() + round;
    // The plane through the answer's support height, the band the gap.
    let top = pts.clone().fold(f64::MIN, |t, w| t.max(g.dot(w)));
    let d = top.min(ubp);
    let disc = Disc::under(
        pts.clone(),
        g,
        (d, 2.0 * (ubp - d) + 4.0 * round + slack.to_f64()),
        ubp,
    );
    bound(if disc.behind(pts, g, ubp) {
        disc.near
    } else {
        NONE
    })
}

/// What the CSO points at a plane (normal `g`) prove about feasible
/// directions' angle `θ` from `g` (the module's second fact): none lies
/// between `near` (an angle) and the angle whose half has tangent `far`.
#[derive(Clone, Copy, Debug)]
struct Disc {
    near: f64,
    far: f64,
}

impl Disc {
    /// Proves nothing.
    const NONE: Self = Self {
        near: NONE,
        far: 0.0,
    };

    /// The disc of the faces among `near` within `eta` of the plane `g · x
    /// = d` (the polytope's faces in it): its outline's edges are those
    /// whose neighbour across is not among them, the polytope's faces
    /// counter-clockwise seen from outside, so the origin's foot is on each
    /// edge's left by its distance from the edge's line.
    fn flat<T: Real>(
        poly: &Polytope<T>,
        near: &[(usize, DVec3, f64)],
        (g, d, eta): (DVec3, f64, f64),
        ub: f64,
    ) -> Self {
        let corner = |k: usize| wide::<T>(poly.verts[k].w);
        let mut members = [0; NEAR];
        let mut m = 0;
        let (mut low, mut high) = (f64::MAX, f64::MIN);
        for &(i, _, _) in near {
            let heights = poly.faces[i].v.map(|k| g.dot(corner(k)));
            if heights.iter().all(|h| (h - d).abs() <= eta) {
                members[m] = i;
                m += 1;
                for h in heights {
                    (low, high) = (low.min(h), high.max(h));
                }
            }
        }
        let members = &members[..m];
        let mut r = f64::MAX;
        for &i in members {
            let f = &poly.faces[i];
            for e in 0..3 {
                if members.contains(&f.adj[e].0) {
                    continue;
                }
                let (a, b) = (corner(f.v[e]), corner(f.v[(e + 1) % 3]));
                // The edge seen along g: its length and the foot's side.
                let ab = b - a;
                let along = ab.dot(g);
                let len2 = ab.length_squared() - along * along;
                if len2 <= 0.0 {
                    return Self::NONE;
                }
                r = r.min(a.cross(b).dot(g) / len2.sqrt());
            }
        }
        if !(r > 0.0 && r < f64::MAX) {
            return Self::NONE;
        }
        Self::of(r, (low, high), ub)
    }

    /// The disc of the CSO `points` within `eta` below the plane `g · x =
    /// d`, against the feasible bound `ub`.
    fn under(points: impl Iterator<Item = DVec3>, g: DVec3, (d, eta): (f64, f64), ub: f64) -> Self {
        let (u, v) = g.any_orthonormal_pair();
        let mut pts = [[0.0_f64; 2]; DISC_POINTS];
        let (mut len, mut low, mut high) = (0, f64::MAX, f64::MIN);
        for w in points {
            let h = g.dot(w);
            if h < d - eta {
                continue;
            }
            if len == DISC_POINTS {
                break;
            }
            pts[len] = [u.dot(w), v.dot(w)];
            len += 1;
            (low, high) = (low.min(h), high.max(h));
        }
        let Some(r) = margin(&mut pts[..len]) else {
            return Self::NONE;
        };
        Self::of(r, (low, high), ub)
    }

    /// The bound of a disc of radius `r` around the origin's foot, its
    /// points at heights in `[low, high]`.
    fn of(r: f64, (low, high): (f64, f64), ub: f64) -> Self {
        // h(m) ≥ a cos θ + r sin θ, a the lowest height while cos θ ≥ 0,
        // the highest past π/2 (tan(θ / 2) > 1).
        let Some((near, mut far)) = crossings(r, low, ub) else {
            return Self::NONE;
        };
        if far > 1.0 {
            match crossings(r, high, ub) {
                Some((_, f)) => far = f.max(1.0),
                None => return Self::NONE,
            }
        }
        Self { near, far }
    }

    /// Whether CSO `points` behind the origin rule out the directions past
    /// `far`, within `π − far` of `−g`: a point `b` along `−g` and `t`
    /// across has `m · x ≥ b cos γ − t sin γ` there. Then every feasible
    /// direction is within `near` of `g`.
    fn behind(&self, mut points: impl Iterator<Item = DVec3>, g: DVec3, ub: f64) -> bool {
        // γ = π − far from tan(far / 2) = t: cos γ = (t² − 1) / (t² + 1),
        // sin γ = 2t / (t² + 1); below π/2 where t > 1.
        let t = self.far;
        let (cos, sin) = ((t * t - 1.0) / (t * t + 1.0), 2.0 * t / (t * t + 1.0));
        t > 1.0
            && points.any(|w| {
                let b = -g.dot(w);
                b > ub && b * cos - (w + g * b).length() * sin > ub
            })
    }
}

/// Where `a cos θ + r sin θ` crosses `ub` (θ in `[0, π]`): in `t = tan(θ
/// / 2)` the roots of `(ub + a) t² − 2 r t + (ub − a)`, written without
/// cancellation; the first as an angle bound (`2 atan t ≤ 2 t`), the
/// second as its `t`. `None` where the curve stays below.
fn crossings(r: f64, a: f64, ub: f64) -> Option<(f64, f64)> {
    let s2 = r * r - (ub - a) * (ub + a);
    (s2 > 0.0 && ub + a > 0.0).then(|| {
        let q = r + s2.sqrt();
        ((2.0 * (ub - a) / q).max(0.0), q / (ub + a))
    })
}

/// The distance from the origin to the boundary of the convex hull of
/// `pts` (2-D), when the origin lies inside it; `None` otherwise.
fn margin(pts: &mut [[f64; 2]]) -> Option<f64> {
    if pts.len() < 3 {
        return None;
    }
    let cross = |o: [f64; 2], a: [f64; 2], b: [f64; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    // Each edge's distance from the origin, positive on its left.
    let edge = |a: [f64; 2], b: [f64; 2]| {
        let (x, y) = (b[0] - a[0], b[1] - a[1]);
        cross(a, b, [0.0, 0.0]) / (x * x + y * y).sqrt()
    };
    if let [p, q, s] = *pts {
        // A triangle (a face alone): counter-clockwise, then its edges.
        let (q, s) = if cross(p, q, s) < 0.0 { (s, q) } else { (q, s) };
        let r = edge(p, q).min(edge(q, s)).min(edge(s, p));
        return (r > 0.0).then_some(r);
    }
    // By x, then y: an insertion sort (a few points; the library's sort
    // costs more than the hull on them).
    for i in 1..pts.len() {
        let mut j = i;
        while j > 0 && (pts[j][0], pts[j][1]) < (pts[j - 1][0], pts[j - 1][1]) {
            pts.swap(j, j - 1);
            j -= 1;
        }
    }
    // Andrew's monotone chain: the lower hull, then the upper, counter-clockwise.
    let mut hull = [[0.0_f64; 2]; 2 * DISC_POINTS];
    let mut k = 0;
    for pass in 0..2 {
        let start = k;
        for j in 0..pts.len() {
            let p = if pass == 0 {
                pts[j]
            } else {
                pts[pts.len() - 1 - j]
            };
            while k >= start + 2 && cross(hull[k - 2], hull[k - 1], p) <= 0.0 {
                k -= 1;
            }
            hull[k] = p;
            k += 1;
        }
        // The chain's last point starts the other one.
        k -= 1;
    }
    if k < 3 {
        return None;
    }
    let mut r = f64::MAX;
    for j in 0..k {
        let (a, b) = (hull[j], hull[(j + 1) % k]);
        let e = [b[0] - a[0], b[1] - a[1]];
        let len = (e[0] * e[0] + e[1] * e[1]).sqrt();
        if len == 0.0 {
            continue;
        }
        r = r.min(cross(a, b, [0.0, 0.0]) / len);
    }
    (r > 0.0 && r < f64::MAX).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_the_distance_to_the_nearest_edge() {
        let mut square = [
            [-1.0, -2.0],
            [3.0, -2.0],
            [3.0, 0.5],
            [-1.0, 0.5],
            [0.0, 0.0],
        ];
        assert_eq!(margin(&mut square), Some(0.5));
        let mut outside = [[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]];
        assert_eq!(margin(&mut outside), None);
        let mut line = [[-1.0, 0.0], [1.0, 0.0], [0.0, 0.0]];
        assert_eq!(margin(&mut line), None);
    }

    #[test]
    fn a_wide_disc_just_under_the_bound_pins_the_normal() {
        // A face 1 away, rounding 1e-15 above it, a disc of radius 2: the
        // feasible directions near its normal are within ~5e-16 of it (the
        // face's cone alone gives √(2e-15) ≈ 4.5e-8), and the curve comes
        // back under the bound only past 2 atan(2) ≈ 2.21 rad.
        let (near, far) = crossings(2.0, 1.0, 1.0 + 1e-15).unwrap();
        assert!(near > 0.0 && near < 1e-15, "{near:e}");
        assert!((far - 2.0).abs() < 1e-12, "{far}");
        // A disc too small to reach above the bound proves nothing.
        assert_eq!(crossings(1e-9, 1.0, 1.0 + 1e-15), None);
        // Each crossing is on the curve, the first within its bound.
        let (r, a, ub) = (0.3, 0.2, 0.25);
        let (near, far) = crossings(r, a, ub).unwrap();
        let curve = |t: f64| a * t.cos() + r * t.sin() - ub;
        let first = 2.0 * (near / 2.0).atan();
        assert!(curve(first).abs() < 1e-15 && near >= first);
        assert!(curve(2.0 * far.atan()).abs() < 1e-15);
    }

    #[test]
    fn a_tilt_is_bounded_from_above() {
        for t in [0.0_f64, 1e-9, 0.3, 1.0, 2.0, 3.1] {
            let v = DVec3::new(t.cos(), t.sin(), 0.0);
            let up = angle_up(DVec3::X, v);
            assert!(up >= t - 1e-16 && up <= 1.7 * t + 1e-16, "{t}: {up}");
        }
    }
}
