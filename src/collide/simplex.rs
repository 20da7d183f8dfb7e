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

    /// How many distinct support points the points have on A and on B: a
    /// vertex of B against a face of A repeats it in every point (B's
    /// support is then the likelier vertex, which the witness
    /// classification looks at first), and a side with one point is a
    /// vertex of that shape whatever its support set.
    #[must_use]
    pub fn distinct(&self) -> (usize, usize) {
        let points = self.points();
        let distinct = |side: fn(&CsoPoint<T>) -> V3<T>| {
            (0..points.len())
                .filter(|&i| !points[..i].iter().any(|q| side(q) == side(&points[i])))
                .count()
        };
        (distinct(|p| p.local_a), distinct(|p| p.local_b))
    }

    /// Whether the points lie on one feature of the CSO: a vertex, an edge
    /// (one side's point shared), or a face (a face against a vertex, or
    /// two edges). GJK stopped by its gap tolerance may end on a diagonal
    /// instead, two points that differ on both sides, or a triangle of
    /// three: a side's closest point is then a mix of support points that
    /// the closest features need not have (a short edge's wrong end).
    /// `distinct` is [`distinct`](Self::distinct), when already counted.
    #[must_use]
    pub fn on_feature(&self, distinct: (usize, usize)) -> bool {
        match (self.len, distinct) {
            (2, (a, b)) => a.min(b) == 1,
            (3, (a, b)) => a.min(b) == 1 || (a, b) == (2, 2),
            _ => true,
        }
    }

    /// Whether the simplex (with `distinct` support points per side) lies
    /// on one feature of the CSO ([`on_feature`](Self::on_feature)) and
    /// is wide enough for its weights ([`places`](Self::places)); else the
    /// support sets place the points.
    #[must_use]
    pub fn settled(&self, distinct: (usize, usize), scale: T, dist: T, tol: T) -> bool {
        self.on_feature(distinct) && self.places(distinct, scale, dist, tol)
    }

    /// Whether the closest points taken from the weights are within `tol`:
    /// the points' rounding (ε·|w|) over the simplex's least width tilts
    /// its plane, which moves the origin's projection by that times the
    /// distance `dist`, and two edges (`distinct` (2, 2)) share that shift
    /// out over the sine of their crossing's angle. Far apart this is the
    /// weak part (a box's edge across a plate's edge 940 sizes away, 1.3°
    /// apart: both points 2.4e-8 of the size off along the edges,
    /// `Unique`). Nor are a triangle's narrower than `√ε` of `scale`
    /// (f32 feels it first: a plate 1e-4 thick seen across its narrow
    /// face, the point 3.5e-4 of the size off). Compared squared, without
    /// roots; out of line, as inlined it moved the box pairs' code (+9 %
    /// instructions).
    #[must_use]
    #[inline(never)]
    pub fn places(&self, distinct: (usize, usize), scale: T, dist: T, tol: T) -> bool {
        let pts = self.points();
        // The least width squared, as a fraction.
        let (width, per) = match self.len {
            2 => ((pts[1].w - pts[0].w).length_squared(), T::ONE),
            3 => {
                let [p, q, r] = [0, 1, 2].map(|i| pts[i].w);
                let longest = (q - p)
                    .length_squared()
                    .max((r - p).length_squared())
                    .max((r - q).length_squared());
                ((q - p).cross(r - p).length_squared(), longest)
            }
            _ => return true,
        };
        if self.len == 3 && width < T::EPSILON * scale * scale * per {
            return false;
        }
        // The crossing's sine squared, as a fraction.
        let (sine, over) = if distinct == (2, 2) {
            let other = |side: fn(&CsoPoint<T>) -> V3<T>| {
                pts.iter()
                    .map(side)
                    .find(|&x| x != side(&pts[0]))
                    .map_or(V3::<T>::ZERO, |x| x - side(&pts[0]))
            };
            let (ea, eb) = (other(|p| p.a), other(|p| p.b));
            (
                ea.cross(eb).length_squared(),
                ea.length_squared() * eb.length_squared(),
            )
        } else {
            (T::ONE, T::ONE)
        };
        let far = pts
            .iter()
            .map(|p| p.w.length_squared())
            .fold(T::ZERO, T::max);
        let e = T::EPSILON * dist;
        e * e * far * per * over <= tol * tol * width * sine
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

    /// [`closest_points`](Self::closest_points) taken from the first point
    /// plus the weighted differences: weights that sum to 1 only to their
    /// rounding (a sliver's, off by ~1e-12) scale the weighted sums off the
    /// shapes by that times their distance from the origin (a hull against
    /// a thin plate: upper bounds 1.2e-12 below the distance, points
    /// 5e-12 outside), where the differences keep them in the simplex's
    /// plane. For polytope cores' answers (curved cores' points are the
    /// polish's).
    #[must_use]
    pub fn closest_points_on_plane(&self) -> (V3<T>, V3<T>) {
        let Some(first) = self.points().first() else {
            return (V3::<T>::ZERO, V3::<T>::ZERO);
        };
        let mut a = first.a;
        let mut b = first.b;
        for (p, &l) in self.points().iter().zip(self.weights()).skip(1) {
            a += (p.a - first.a) * l;
            b += (p.b - first.b) * l;
        }
        (a, b)
    }

    /// The closest point of the simplex to the origin. Reduces the simplex to
    /// the smallest sub-simplex containing that point and stores its weights
    /// (see [`weights`](Self::weights)). Four points containing the origin
    /// stay four points and give zero.
    pub fn closest_to_origin(&mut self) -> V3<T> {
        let (weights, v) = self.solve();
        self.reduce(weights);
        v
    }

    /// [`closest_to_origin`](Self::closest_to_origin) without changing the
    /// simplex: the closest point and the weights of all the points (zero for
    /// those it does not need), for [`reduce`](Self::reduce).
    #[must_use]
    pub fn solve(&self) -> ([T; 4], V3<T>) {
        let w: [V3<T>; 4] = [
            self.points[0].w,
            self.points[1].w,
            self.points[2].w,
            self.points[3].w,
        ];
        let lambda = match self.len {
            0 => return ([T::ZERO; 4], V3::<T>::ZERO),
            1 => [T::ONE, T::ZERO, T::ZERO, T::ZERO],
            2 => {
                let l = segment(w[0], w[1]);
                [l[0], l[1], T::ZERO, T::ZERO]
            }
            3 => {
                let (l, plane) = triangle(&w[0], &w[1], &w[2]);
                if let Some(v) = plane
                    && l.iter().all(|&x| x > T::ZERO)
                {
                    // Inside the triangle: the origin's projection on its
                    // plane, as `face_projection` would compute it again.
                    return ([l[0], l[1], l[2], T::ZERO], v);
                }
                [l[0], l[1], l[2], T::ZERO]
            }
            _ => {
                let (l, plane) = tetrahedron(&w);
                if let Some(v) = plane {
                    return (l, v);
                }
                l
            }
        };
        let mut kept = 0;
        let mut v = V3::<T>::ZERO;
        for i in 0..self.len {
            if lambda[i] > T::ZERO {
                v += w[i] * lambda[i];
                kept += 1;
            }
        }
        if kept == 0 {
            // Unreachable with finite input; keep the first point rather than nothing.
            return ([T::ONE, T::ZERO, T::ZERO, T::ZERO], w[0]);
        }
        if kept == 3 {
            v = face_projection(&w, &lambda, v);
        }
        (lambda, if kept == 4 { V3::<T>::ZERO } else { v })
    }

    /// Keeps the points whose `weights` (from [`solve`](Self::solve)) are
    /// positive, with those weights.
    pub fn reduce(&mut self, weights: [T; 4]) {
        let mut kept = 0;
        for (i, &l) in weights.iter().enumerate().take(self.len) {
            if l > T::ZERO {
                if kept != i {
                    self.points[kept] = self.points[i];
                }
                self.weights[kept] = l;
                kept += 1;
            }
        }
        if self.len > 0 {
            self.len = kept;
        }
    }

    /// Removes the last point pushed.
    #[inline]
    pub fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// Moves every point's configuration-space position by `-delta`, in
    /// place: the GJK ray cast moves its origin by `delta` along the ray.
    #[inline]
    pub(crate) fn translate(&mut self, delta: V3<T>) {
        for p in &mut self.points[..self.len] {
            p.w -= delta;
        }
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

/// Weights of the closest point of segment `s0 s1` to the origin. In one
/// dimension the signed-length test is the clamped projection parameter.
#[inline]
fn segment<T: Real>(s0: V3<T>, s1: V3<T>) -> [T; 2] {
    let t = s1 - s0;
    let tt = t.dot(t);
    let u = -s0.dot(t);
    if u <= T::ZERO || tt <= T::ZERO || !tt.is_finite() {
        [T::ONE, T::ZERO]
    } else if u >= tt {
        [T::ZERO, T::ONE]
    } else {
        let l1 = u / tt;
        [T::ONE - l1, l1]
    }
}

/// Twice the signed area of the 2D triangle `a b c`.
#[inline]
fn area<T: Real>(a: [T; 2], b: [T; 2], c: [T; 2]) -> T {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// `v` projected on the coordinate plane that drops axis `j`, keeping the
/// orientation of the normal's component `j`.
#[inline]
fn drop_axis<T: Real>(v: V3<T>, j: usize) -> [T; 2] {
    match j {
        0 => [v.y(), v.z()],
        1 => [v.z(), v.x()],
        _ => [v.x(), v.y()],
    }
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

/// The origin projected on the plane of the three points with positive
/// `lambda` (`fallback`, the weighted sum, if the plane is undefined).
///
/// The weighted sum carries the weights' rounding, about `ε · size / width`
/// for a triangle `width` thin, into every component of the closest point;
/// when the origin is that close to the plane (shapes nearly touching on a
/// curved feature, whose simplex is a sliver) the direction `−v` would be
/// lost. The plane's normal is accurate to `ε / width` in angle, so the
/// projection keeps the direction, and the distance to `ε · size / width`.
#[inline]
fn face_projection<T: Real>(w: &[V3<T>; 4], lambda: &[T; 4], fallback: V3<T>) -> V3<T> {
    let mut f = [V3::<T>::ZERO; 3];
    let mut k = 0;
    for (p, &l) in w.iter().zip(lambda) {
        if l > T::ZERO && k < 3 {
            f[k] = *p;
            k += 1;
        }
    }
    let n = (f[1] - f[0]).cross(f[2] - f[0]);
    let nn = n.dot(n);
    if nn > T::ZERO && nn.is_finite() {
        n * (f[0].dot(n) / nn)
    } else {
        fallback
    }
}

/// Weights of the closest point of triangle `s0 s1 s2` to the origin, and
/// when it is inside the triangle, the point itself: the origin projected
/// on the plane (see [`face_projection`]). Takes the points by reference:
/// they were copied for each call.
fn triangle<T: Real>(s0: &V3<T>, s1: &V3<T>, s2: &V3<T>) -> ([T; 3], Option<V3<T>>) {
    let (s0, s1, s2) = (*s0, *s1, *s2);
    let n = (s1 - s0).cross(s2 - s0);
    let nn = n.dot(n);
    if nn > T::ZERO && nn.is_finite() {
        // The origin projected on the plane, then signed areas on the
        // coordinate plane where the triangle is largest.
        let j = largest_axis::<T>(n);
        let plane = n * (s0.dot(n) / nn);
        let p = drop_axis::<T>(plane, j);
        let [a, b, c] = [s0, s1, s2].map(|v| drop_axis::<T>(v, j));
        let mu = area(a, b, c);
        let c = [area(p, b, c), area(a, p, c), area(a, b, p)];
        if c.iter().all(|&ci| same_sign(mu, ci)) {
            let k = T::ONE / mu;
            return ([c[0] * k, c[1] * k, c[2] * k], Some(plane));
        }
        return (best_edge([s0, s1, s2], |i| !same_sign(mu, c[i])), None);
    }
    (best_edge([s0, s1, s2], |_| true), None)
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

/// Weights of the closest point of tetrahedron `s` to the origin, and the
/// point itself where it lies inside a face whose vertices the face's
/// triangle took in index order (faces 0 and 3): the origin projected on
/// its plane, as [`face_projection`] would compute it again.
fn tetrahedron<T: Real>(s: &[V3<T>; 4]) -> ([T; 4], Option<V3<T>>) {
    // Cofactors of the 4×4 matrix [s_i; 1]: the signed volumes of the
    // tetrahedra with the origin in place of each vertex.
    let c23 = s[2].cross(s[3]);
    let c13 = s[1].cross(s[3]);
    let c12 = s[1].cross(s[2]);
    let c = [s[1].dot(c23), -s[0].dot(c23), s[0].dot(c13), -s[0].dot(c12)];
    let det = c[0] + c[1] + c[2] + c[3];
    if det.is_finite() && c.iter().all(|&ci| same_sign(det, ci)) {
        let k = T::ONE / det;
        return ([c[0] * k, c[1] * k, c[2] * k, c[3] * k], None);
    }
    let mut best = [T::ONE, T::ZERO, T::ZERO, T::ZERO];
    let mut best_plane = None;
    let mut best_d = T::MAX;
    for (i, &ci) in c.iter().enumerate() {
        if same_sign(det, ci) {
            continue;
        }
        let f = [(i + 1) % 4, (i + 2) % 4, (i + 3) % 4];
        let (l, plane) = triangle(&s[f[0]], &s[f[1]], &s[f[2]]);
        let d = weighted_len2::<T>(&[s[f[0]], s[f[1]], s[f[2]]], &l);
        if d < best_d {
            best_d = d;
            best = [T::ZERO; 4];
            for (m, &fi) in f.iter().enumerate() {
                best[fi] = l[m];
            }
            // Faces 1 and 2 list their vertices in another order than the
            // weights' (face_projection's), which rounds differently.
            best_plane = plane.filter(|_| (i == 0 || i == 3) && l.iter().all(|&x| x > T::ZERO));
        }
    }
    (best, best_plane)
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

    /// Against brute force: the closest point is in the hull (weights ≥ 0,
    /// summing to 1) and no sampled hull point is closer.
    #[test]
    fn random_simplices_against_sampling() {
        let mut seed = 12_345_u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for n in 1..=4 {
            for _ in 0..500 {
                let pts: Vec<DVec3> = (0..n)
                    .map(|_| DVec3::new(rnd(), rnd(), rnd()) * 2.0 + DVec3::splat(0.3))
                    .collect();
                let mut s = Simplex::new();
                for q in &pts {
                    s.push(p(q.x, q.y, q.z));
                }
                let v = s.closest_to_origin();
                let sum: f64 = s.weights().iter().sum();
                assert!((sum - 1.0).abs() < 1e-12 && s.weights().iter().all(|&l| l > 0.0));
                let rebuilt = s
                    .points()
                    .iter()
                    .zip(s.weights())
                    .fold(DVec3::ZERO, |acc, (q, &l)| acc + q.w * l);
                assert!((rebuilt - v).length() < 1e-12);
                for _ in 0..200 {
                    let mut l: Vec<f64> = (0..n).map(|_| rnd().abs()).collect();
                    let t: f64 = l.iter().sum();
                    for x in &mut l {
                        *x /= t;
                    }
                    let q = pts
                        .iter()
                        .zip(&l)
                        .fold(DVec3::ZERO, |acc, (q, &x)| acc + *q * x);
                    assert!(v.length() <= q.length() + 1e-12, "{pts:?} {v} {q}");
                }
            }
        }
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
