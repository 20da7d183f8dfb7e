//! The GJK sub-algorithm: the closest point of a simplex (1 to 4 points of the
//! configuration-space object) to the origin, by signed volumes (Montanari,
//! Petrinic and Barbieri 2017).
//!
//! Barycentric coordinates come from signed lengths, areas and volumes of the
//! simplex projected on the axis or plane where they are largest, so no
//! Gram determinant is ever divided by. Degenerate simplices (coincident,
//! collinear or coplanar points) fall through to their faces and edges: the
//! answer is always the closest point of the convex hull of the points.

use crate::real::{Real, V3, Vector};

/// A point of the configuration-space object `A − B` and the support points
/// behind it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CsoPoint<T: Real> {
    /// The configuration-space point `a − b`.
    pub w: V3<T>,
    /// The support point on A.
    pub a: V3<T>,
    /// The support point on B.
    pub b: V3<T>,
    /// What identifies `a` on shape A: its position in A's local frame
    /// (kept for warm starts).
    pub local_a: V3<T>,
    /// What identifies `b` on shape B: its position in B's local frame
    /// (kept for warm starts).
    pub local_b: V3<T>,
}

impl<T: Real> CsoPoint<T> {
    /// The point `a − b` from support points `a` and `b` (also used as their local identifiers).
    #[inline]
    #[must_use]
    pub fn new(a: V3<T>, b: V3<T>) -> Self {
        Self {
            w: a - b,
            a,
            b,
            local_a: a,
            local_b: b,
        }
    }
}

/// Up to four configuration-space points, in fixed storage, with the
/// barycentric weights of their closest point to the origin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex<T: Real> {
    points: [CsoPoint<T>; 4],
    weights: [T; 4],
    len: usize,
}

impl<T: Real> Simplex<T> {
    /// An empty simplex.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a point. A simplex holds at most four points: pushing onto a full
    /// simplex replaces its last point (GJK never does; it reduces first).
    #[inline]
    pub fn push(&mut self, p: CsoPoint<T>) {
        debug_assert!(self.len < 4, "pushing onto a full simplex");
        let i = self.len.min(3);
        self.points[i] = p;
        self.weights[i] = T::ZERO;
        self.len = i + 1;
    }

    /// Removes every point.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of points (0 to 4).
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the simplex has no points.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The points.
    #[inline]
    #[must_use]
    pub fn points(&self) -> &[CsoPoint<T>] {
        &self.points[..self.len]
    }

    /// The barycentric weights of the closest point found by the last
    /// [`closest_to_origin`](Self::closest_to_origin), one per point (they sum to 1).
    #[inline]
    #[must_use]
    pub fn weights(&self) -> &[T] {
        &self.weights[..self.len]
    }

    /// Whether a point with configuration-space position `w` is already in the simplex.
    #[inline]
    #[must_use]
    pub fn contains_w(&self, w: V3<T>) -> bool {
        self.points().iter().any(|p| p.w == w)
    }

    /// The closest points on A and B: the weighted sums of the support points.
    #[must_use]
    pub fn closest_points(&self) -> (V3<T>, V3<T>) {
        let mut a = V3::<T>::ZERO;
        let mut b = V3::<T>::ZERO;
        for (p, &l) in self.points().iter().zip(self.weights()) {
            a += p.a * l;
            b += p.b * l;
        }
        (a, b)
    }

    /// The closest point of the simplex to the origin. Reduces the simplex to
    /// the smallest sub-simplex containing that point and stores its weights
    /// (see [`weights`](Self::weights)). Four points containing the origin
    /// stay four points and give zero.
    pub fn closest_to_origin(&mut self) -> V3<T> {
        let w: [V3<T>; 4] = [
            self.points[0].w,
            self.points[1].w,
            self.points[2].w,
            self.points[3].w,
        ];
        let lambda = match self.len {
            0 => return V3::<T>::ZERO,
            1 => [T::ONE, T::ZERO, T::ZERO, T::ZERO],
            2 => {
                let l = segment(w[0], w[1]);
                [l[0], l[1], T::ZERO, T::ZERO]
            }
            3 => {
                let l = triangle(w[0], w[1], w[2]);
                [l[0], l[1], l[2], T::ZERO]
            }
            _ => tetrahedron(w),
        };
        let mut kept = 0;
        let mut v = V3::<T>::ZERO;
        for i in 0..self.len {
            if lambda[i] > T::ZERO {
                v += w[i] * lambda[i];
                self.points[kept] = self.points[i];
                self.weights[kept] = lambda[i];
                kept += 1;
            }
        }
        if kept == 0 {
            // Unreachable with finite input; keep the first point rather than nothing.
            self.weights[0] = T::ONE;
            kept = 1;
            v = w[0];
        }
        self.len = kept;
        if kept == 4 { V3::<T>::ZERO } else { v }
    }
}

/// Whether `a` and `b` are both strictly positive or both strictly negative.
#[inline]
fn same_sign<T: Real>(a: T, b: T) -> bool {
    (a > T::ZERO && b > T::ZERO) || (a < T::ZERO && b < T::ZERO)
}

/// Index of the component of largest magnitude.
#[inline]
fn largest_axis<T: Real>(v: V3<T>) -> usize {
    let a = v.abs();
    if a.x() >= a.y() && a.x() >= a.z() {
        0
    } else if a.y() >= a.z() {
        1
    } else {
        2
    }
}

/// Weights of the closest point of segment `s0 s1` to the origin.
fn segment<T: Real>(s0: V3<T>, s1: V3<T>) -> [T; 2] {
    let t = s1 - s0;
    let tt = t.dot(t);
    if tt <= T::ZERO || !tt.is_finite() {
        return [T::ONE, T::ZERO];
    }
    // The origin projected on the line, then signed lengths on the axis
    // where the segment is longest.
    let p = s0 - t * (s0.dot(t) / tt);
    let i = largest_axis::<T>(t);
    let mu = s0.get(i) - s1.get(i);
    let c0 = p.get(i) - s1.get(i);
    let c1 = s0.get(i) - p.get(i);
    if same_sign(mu, c0) && same_sign(mu, c1) {
        [c0 / mu, c1 / mu]
    } else if same_sign(mu, c0) {
        [T::ONE, T::ZERO]
    } else {
        [T::ZERO, T::ONE]
    }
}

/// Twice the signed area of triangle `a b c` projected on the plane of axes `k`, `l`.
#[inline]
fn area<T: Real>(a: V3<T>, b: V3<T>, c: V3<T>, k: usize, l: usize) -> T {
    (b.get(k) - a.get(k)) * (c.get(l) - a.get(l)) - (b.get(l) - a.get(l)) * (c.get(k) - a.get(k))
}

/// Squared distance to the origin of the point with weights `l` on `s`.
#[inline]
fn weighted_len2<T: Real>(s: &[V3<T>], l: &[T]) -> T {
    let mut v = V3::<T>::ZERO;
    for (p, &x) in s.iter().zip(l) {
        v += *p * x;
    }
    v.length_squared()
}

/// Weights of the closest point of triangle `s0 s1 s2` to the origin.
fn triangle<T: Real>(s0: V3<T>, s1: V3<T>, s2: V3<T>) -> [T; 3] {
    let n = (s1 - s0).cross(s2 - s0);
    let nn = n.dot(n);
    if nn > T::ZERO && nn.is_finite() {
        // The origin projected on the plane, then signed areas on the
        // coordinate plane where the triangle is largest.
        let p = n * (s0.dot(n) / nn);
        let j = largest_axis::<T>(n);
        let (k, l) = ((j + 1) % 3, (j + 2) % 3);
        let mu = area::<T>(s0, s1, s2, k, l);
        let c = [
            area::<T>(p, s1, s2, k, l),
            area::<T>(s0, p, s2, k, l),
            area::<T>(s0, s1, p, k, l),
        ];
        if c.iter().all(|&ci| same_sign(mu, ci)) {
            return [c[0] / mu, c[1] / mu, c[2] / mu];
        }
        return best_edge([s0, s1, s2], |i| !same_sign(mu, c[i]));
    }
    best_edge([s0, s1, s2], |_| true)
}

/// The best of the edges opposite the vertices `i` for which `consider(i)`.
fn best_edge<T: Real>(s: [V3<T>; 3], consider: impl Fn(usize) -> bool) -> [T; 3] {
    let mut best = [T::ONE, T::ZERO, T::ZERO];
    let mut best_d = T::MAX;
    for i in 0..3 {
        if !consider(i) {
            continue;
        }
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let l = segment(s[j], s[k]);
        let d = weighted_len2::<T>(&[s[j], s[k]], &l);
        if d < best_d {
            best_d = d;
            best = [T::ZERO; 3];
            best[j] = l[0];
            best[k] = l[1];
        }
    }
    best
}

/// Six times the signed volume of tetrahedron `a b c d`.
#[inline]
fn volume<T: Real>(a: V3<T>, b: V3<T>, c: V3<T>, d: V3<T>) -> T {
    (b - a).dot((c - a).cross(d - a))
}

/// Weights of the closest point of tetrahedron `s` to the origin.
fn tetrahedron<T: Real>(s: [V3<T>; 4]) -> [T; 4] {
    let o = V3::<T>::ZERO;
    let det = volume::<T>(s[0], s[1], s[2], s[3]);
    let c = [
        volume::<T>(o, s[1], s[2], s[3]),
        volume::<T>(s[0], o, s[2], s[3]),
        volume::<T>(s[0], s[1], o, s[3]),
        volume::<T>(s[0], s[1], s[2], o),
    ];
    if det.is_finite() && c.iter().all(|&ci| same_sign(det, ci)) {
        return [c[0] / det, c[1] / det, c[2] / det, c[3] / det];
    }
    let mut best = [T::ONE, T::ZERO, T::ZERO, T::ZERO];
    let mut best_d = T::MAX;
    for (i, &ci) in c.iter().enumerate() {
        if same_sign(det, ci) {
            continue;
        }
        let f = [(i + 1) % 4, (i + 2) % 4, (i + 3) % 4];
        let l = triangle(s[f[0]], s[f[1]], s[f[2]]);
        let d = weighted_len2::<T>(&[s[f[0]], s[f[1]], s[f[2]]], &l);
        if d < best_d {
            best_d = d;
            best = [T::ZERO; 4];
            for (m, &fi) in f.iter().enumerate() {
                best[fi] = l[m];
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn p(x: f64, y: f64, z: f64) -> CsoPoint<f64> {
        CsoPoint::new(DVec3::new(x, y, z), DVec3::ZERO)
    }

    #[test]
    fn segment_interior_and_ends() {
        let mut s = Simplex::new();
        s.push(p(-1.0, 1.0, 0.0));
        s.push(p(1.0, 1.0, 0.0));
        assert_eq!(s.closest_to_origin(), DVec3::new(0.0, 1.0, 0.0));
        assert_eq!(s.len(), 2);
        let mut s = Simplex::new();
        s.push(p(1.0, 1.0, 0.0));
        s.push(p(2.0, 1.0, 0.0));
        assert_eq!(s.closest_to_origin(), DVec3::new(1.0, 1.0, 0.0));
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn degenerate_simplices_reduce() {
        // Coincident points.
        let mut s = Simplex::new();
        s.push(p(1.0, 2.0, 3.0));
        s.push(p(1.0, 2.0, 3.0));
        assert_eq!(s.closest_to_origin(), DVec3::new(1.0, 2.0, 3.0));
        // Collinear triangle.
        let mut s = Simplex::new();
        s.push(p(-1.0, 1.0, 0.0));
        s.push(p(0.0, 1.0, 0.0));
        s.push(p(1.0, 1.0, 0.0));
        assert!((s.closest_to_origin() - DVec3::Y).length() < 1e-15);
        // Flat tetrahedron.
        let mut s = Simplex::new();
        s.push(p(-1.0, -1.0, 1.0));
        s.push(p(1.0, -1.0, 1.0));
        s.push(p(0.0, 1.0, 1.0));
        s.push(p(0.0, 0.0, 1.0));
        assert!((s.closest_to_origin() - DVec3::Z).length() < 1e-15);
        assert!(s.len() <= 3);
    }

    #[test]
    fn tetrahedron_contains_origin() {
        let mut s = Simplex::new();
        s.push(p(1.0, 0.0, -1.0));
        s.push(p(-1.0, 1.0, -1.0));
        s.push(p(-1.0, -1.0, -1.0));
        s.push(p(0.0, 0.0, 1.0));
        assert_eq!(s.closest_to_origin(), DVec3::ZERO);
        assert_eq!(s.len(), 4);
        let sum: f64 = s.weights().iter().sum();
        assert!((sum - 1.0).abs() < 1e-15);
    }
}
