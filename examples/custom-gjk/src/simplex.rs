//! The simplex and its closest point to the origin (Voronoi regions, after
//! Ericson, *Real-Time Collision Detection*, 5.1.5 and 5.1.6).

use crate::vec3::V3;

/// A vertex of the configuration-space simplex: `w = a - b`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// The configuration-space point.
    pub w: V3,
    /// Support point on shape A.
    pub a: V3,
    /// Support point on shape B.
    pub b: V3,
}

impl Vertex {
    /// The vertex for support points `a` and `b`.
    #[must_use]
    pub fn new(a: V3, b: V3) -> Self {
        Self { w: a - b, a, b }
    }
}

/// Up to four vertices with the barycentric weights of the closest point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    /// Vertices; only the first `len` are used.
    pub vertices: [Vertex; 4],
    /// Barycentric weights of the closest point, matching `vertices`.
    pub weights: [f64; 4],
    /// Number of vertices, 1 to 4.
    pub len: usize,
}

impl Simplex {
    /// The simplex of one vertex.
    #[must_use]
    pub fn point(v: Vertex) -> Self {
        let mut s = Self::default();
        s.vertices[0] = v;
        s.weights[0] = 1.0;
        s.len = 1;
        s
    }

    /// The used vertices.
    #[must_use]
    pub fn vertices(&self) -> &[Vertex] {
        &self.vertices[..self.len]
    }

    /// Whether `w` is bit-identical to a vertex already in the simplex.
    #[must_use]
    pub fn contains(&self, w: V3) -> bool {
        self.vertices().iter().any(|v| v.w.bit_eq(w))
    }

    /// Adds a vertex (the simplex must hold fewer than four).
    pub fn push(&mut self, v: Vertex) {
        self.vertices[self.len] = v;
        self.weights[self.len] = 0.0;
        self.len += 1;
    }

    /// The closest point to the origin, `Σ weight·w`.
    #[must_use]
    pub fn closest(&self) -> V3 {
        self.combine(|v| v.w)
    }

    /// The witness points on A and B, `Σ weight·a` and `Σ weight·b`.
    #[must_use]
    pub fn witnesses(&self) -> (V3, V3) {
        (self.combine(|v| v.a), self.combine(|v| v.b))
    }

    fn combine(&self, f: impl Fn(&Vertex) -> V3) -> V3 {
        self.vertices()
            .iter()
            .zip(&self.weights)
            .fold(V3::ZERO, |acc, (v, &l)| acc + f(v) * l)
    }
}

/// The smallest sub-simplex of `s` whose hull holds the point closest to the
/// origin, with that point's barycentric weights. A tetrahedron that contains
/// the origin is kept whole (the closest point is the origin).
#[must_use]
pub fn reduce(s: &Simplex) -> Simplex {
    let v = s.vertices;
    match s.len {
        1 => Simplex::point(v[0]),
        2 => segment(v[0], v[1]),
        3 => triangle(v[0], v[1], v[2]),
        _ => tetrahedron(s),
    }
}

fn from_weights(vertices: &[Vertex], weights: &[f64]) -> Simplex {
    let mut s = Simplex::default();
    for (v, &l) in vertices.iter().zip(weights) {
        s.vertices[s.len] = *v;
        s.weights[s.len] = l;
        s.len += 1;
    }
    s
}

fn segment(a: Vertex, b: Vertex) -> Simplex {
    let ab = b.w - a.w;
    let t = -a.w.dot(ab);
    if t <= 0.0 {
        return Simplex::point(a);
    }
    let denom = ab.length_squared();
    if t >= denom {
        return Simplex::point(b);
    }
    let t = t / denom;
    from_weights(&[a, b], &[1.0 - t, t])
}

fn triangle(a: Vertex, b: Vertex, c: Vertex) -> Simplex {
    let ab = b.w - a.w;
    let ac = c.w - a.w;
    let d1 = ab.dot(-a.w);
    let d2 = ac.dot(-a.w);
    if d1 <= 0.0 && d2 <= 0.0 {
        return Simplex::point(a);
    }
    let d3 = ab.dot(-b.w);
    let d4 = ac.dot(-b.w);
    if d3 >= 0.0 && d4 <= d3 {
        return Simplex::point(b);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        return from_weights(&[a, b], &[1.0 - t, t]);
    }
    let d5 = ab.dot(-c.w);
    let d6 = ac.dot(-c.w);
    if d6 >= 0.0 && d5 <= d6 {
        return Simplex::point(c);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        return from_weights(&[a, c], &[1.0 - t, t]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return from_weights(&[b, c], &[1.0 - t, t]);
    }
    let denom = 1.0 / (va + vb + vc);
    let v = vb * denom;
    let w = vc * denom;
    from_weights(&[a, b, c], &[1.0 - v - w, v, w])
}

fn tetrahedron(s: &Simplex) -> Simplex {
    let [a, b, c, d] = s.vertices;
    let faces = [(a, b, c, d), (a, c, d, b), (a, d, b, c), (b, d, c, a)];
    let mut best: Option<(f64, Simplex)> = None;
    for (p, q, r, opposite) in faces {
        if !origin_outside(p.w, q.w, r.w, opposite.w) {
            continue;
        }
        let candidate = triangle(p, q, r);
        let dist = candidate.closest().length_squared();
        if best.as_ref().is_none_or(|(d, _)| dist < *d) {
            best = Some((dist, candidate));
        }
    }
    best.map_or_else(|| inside(s), |(_, s)| s)
}

/// The tetrahedron `s`, which contains the origin, with the origin's
/// barycentric weights (signed volumes), so the witnesses meet.
fn inside(s: &Simplex) -> Simplex {
    let w = s.vertices.map(|v| v.w);
    let total = volume(w[0], w[1], w[2], w[3]);
    let mut out = *s;
    for i in 0..4 {
        let mut with_origin = w;
        with_origin[i] = V3::ZERO;
        let [p, q, r, t] = with_origin;
        out.weights[i] = if total == 0.0 {
            0.25
        } else {
            volume(p, q, r, t) / total
        };
    }
    out
}

/// Six times the signed volume of tetrahedron `pqrt`.
fn volume(p: V3, q: V3, r: V3, t: V3) -> f64 {
    (q - p).dot((r - p).cross(t - p))
}

/// Whether the origin lies on the other side of plane `pqr` than `opposite`
/// (a flat tetrahedron counts every face as separating).
fn origin_outside(p: V3, q: V3, r: V3, opposite: V3) -> bool {
    let n = (q - p).cross(r - p);
    let side_origin = (-p).dot(n);
    let side_opposite = (opposite - p).dot(n);
    side_opposite == 0.0 || side_origin * side_opposite < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vx(x: f64, y: f64, z: f64) -> Vertex {
        Vertex::new(V3::new(x, y, z), V3::ZERO)
    }

    #[test]
    fn segment_interior_and_vertex_regions() {
        let s = segment(vx(-1.0, 1.0, 0.0), vx(1.0, 1.0, 0.0));
        assert_eq!((s.len, s.closest()), (2, V3::new(0.0, 1.0, 0.0)));
        let s = segment(vx(1.0, 1.0, 0.0), vx(2.0, 1.0, 0.0));
        assert_eq!((s.len, s.closest()), (1, V3::new(1.0, 1.0, 0.0)));
    }

    #[test]
    fn triangle_face_region() {
        let s = triangle(vx(-1.0, -1.0, 2.0), vx(2.0, -1.0, 2.0), vx(-1.0, 2.0, 2.0));
        assert_eq!(s.len, 3);
        let p = s.closest();
        assert!((p - V3::new(0.0, 0.0, 2.0)).length() < 1e-15, "{p:?}");
    }

    #[test]
    fn tetrahedron_around_the_origin_is_kept() {
        let mut s = Simplex::point(vx(-1.0, -1.0, -1.0));
        s.push(vx(3.0, -1.0, -1.0));
        s.push(vx(-1.0, 3.0, -1.0));
        s.push(vx(-1.0, -1.0, 3.0));
        let r = reduce(&s);
        assert_eq!(r.len, 4);
        assert!(r.closest().length() < 1e-15, "{:?}", r.closest());
    }
}
