//! The EPA polytope: blown up from GJK's simplex around the origin, then
//! expanded face by face, with buffers reused across queries.

use super::cso::Cso;
use super::gjk;
use super::simplex::{CsoPoint, Simplex};
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// A triangle of the polytope, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
pub(super) struct Face<T: Real> {
    /// Vertex indices.
    pub(super) v: [usize; 3],
    /// Across edge `i` (from `v[i]` to `v[i + 1]`): the neighbour face and its edge index.
    pub(super) adj: [(usize, usize); 3],
    /// Outward unit normal.
    pub(super) n: V3<T>,
    /// Signed distance of the plane from the origin.
    pub(super) d: T,
}

/// No new face starts at this vertex (in [`Polytope::by_vertex`]).
const NO_FACE: usize = usize::MAX;
/// Two new faces start at this vertex: the horizon is not a simple loop.
const TWO_FACES: usize = usize::MAX - 1;

/// The polytope: vertices and triangles, in buffers reused across iterations.
pub(super) struct Polytope<T: Real> {
    pub(super) verts: Vec<CsoPoint<T>>,
    pub(super) faces: Vec<Face<T>>,
    /// Each face's `d`, `T::MAX` once removed: what [`closest`](Self::closest)
    /// scans (a dense array, not the faces' 100-odd bytes each).
    dist: Vec<T>,
    /// Scratch: faces to visit and horizon edges.
    pub(super) stack: Vec<(usize, usize)>,
    pub(super) horizon: Vec<(usize, usize)>,
    /// Scratch: per vertex, the new face starting at it ([`NO_FACE`] if none).
    pub(super) by_vertex: Vec<usize>,
    /// The largest vertex distance from the origin.
    pub(super) reach: T,
}

/// What blowing up the GJK simplex gave.
pub(super) enum Start<T: Real> {
    /// A polytope around the origin.
    Polytope(Box<Polytope<T>>),
    /// The core CSO is flat (or lower-dimensional) or touches the origin from
    /// one side: its depth along `normal` (A's frame) is `depth` (≈ 0).
    Flat { normal: V3<T>, depth: T },
}

thread_local! {
    /// The last query's polytope buffers, reused by the next query on this
    /// thread (of either precision) so EPA does not allocate per query.
    static SPARE: std::cell::Cell<Option<Box<dyn std::any::Any>>> = const { std::cell::Cell::new(None) };
}

impl<T: Real> Polytope<T> {
    /// Boxed: the same allocation goes back to [`SPARE`] after the query.
    #[allow(clippy::unnecessary_box_returns)]
    pub(super) fn new(verts: &[CsoPoint<T>]) -> Box<Self> {
        let spare = SPARE
            .with(std::cell::Cell::take)
            .and_then(|b| b.downcast::<Self>().ok());
        let mut p = spare.unwrap_or_else(|| {
            // Typical queries need a few dozen faces; the buffers grow if not.
            Box::new(Self {
                verts: Vec::with_capacity(32),
                faces: Vec::with_capacity(64),
                dist: Vec::with_capacity(64),
                stack: Vec::with_capacity(16),
                horizon: Vec::with_capacity(16),
                by_vertex: Vec::with_capacity(32),
                reach: T::ZERO,
            })
        });
        p.verts.clear();
        p.faces.clear();
        p.dist.clear();
        p.by_vertex.clear();
        p.reach = T::ZERO;
        for v in verts {
            p.reach = p.reach.max(v.w.length());
        }
        p.verts.extend_from_slice(verts);
        p
    }

    /// Hands the buffers to the next query on this thread.
    pub(super) fn recycle(self: Box<Self>) {
        SPARE.with(|s| s.set(Some(self)));
    }

    /// A face on vertices `v`, oriented away from `inside`; `None` if degenerate.
    ///
    /// The normal is the cross product of the two edges at the first
    /// vertex, or where their angle is sharp at the vertex opposite the
    /// longest edge (the widest angle): two long edges of a sliver nearly
    /// parallel cancel, turning the normal by ε over their angle and
    /// moving the plane by that times the distance to the face (f32: a
    /// tiny box by a capsule's segment, EPA's lower bound 4.7e-6 above the
    /// depth).
    pub(super) fn face(&self, v: [usize; 3]) -> Option<Face<T>> {
        let [a, b, c] = v.map(|i| self.verts[i].w);
        let (e, f) = (b - a, c - a);
        let mut cross = e.cross(f);
        // A sharp angle at `a` (below ~6°): from the widest angle instead.
        if cross.length_squared() < T::from_f64(0.01) * e.length_squared() * f.length_squared() {
            let (ab, bc, ca) = (
                e.length_squared(),
                (c - b).length_squared(),
                f.length_squared(),
            );
            if ab >= bc && ab >= ca {
                cross = (a - c).cross(b - c);
            } else if ca > bc {
                cross = (c - b).cross(a - b);
            }
        }
        let n = cross.try_normalize()?;
        let d = n.dot(a + b + c) / T::from_f64(3.0);
        Some(Face {
            v,
            adj: [(usize::MAX, 0); 3],
            n,
            d,
        })
    }

    /// The closed polytope from triangles of the current vertices, each
    /// turned to face away from `inside`, neighbours linked by shared edges.
    pub(super) fn close(&mut self, tris: &[[usize; 3]], inside: V3<T>) -> bool {
        for &t in tris {
            let Some(mut f) = self.face(t) else {
                return false;
            };
            if f.n.dot(inside) > f.d {
                let Some(g) = self.face([t[0], t[2], t[1]]) else {
                    return false;
                };
                f = g;
            }
            self.push_face(f);
        }
        for i in 0..self.faces.len() {
            for e in 0..3 {
                let (s, t) = (self.faces[i].v[e], self.faces[i].v[(e + 1) % 3]);
                let Some(link) = self.find_edge(t, s) else {
                    return false;
                };
                self.faces[i].adj[e] = link;
            }
        }
        true
    }

    /// The live face and edge going from vertex `s` to vertex `t`.
    pub(super) fn find_edge(&self, s: usize, t: usize) -> Option<(usize, usize)> {
        self.faces.iter().enumerate().find_map(|(i, f)| {
            if self.dead(i) {
                return None;
            }
            (0..3)
                .find(|&e| f.v[e] == s && f.v[(e + 1) % 3] == t)
                .map(|e| (i, e))
        })
    }

    /// The live face nearest the origin.
    pub(super) fn closest(&self) -> Option<usize> {
        let mut best = None;
        let mut best_d = T::MAX;
        for (i, &d) in self.dist.iter().enumerate() {
            if d < best_d {
                best_d = d;
                best = Some(i);
            }
        }
        best
    }

    /// The live faces whose plane is at most `limit` from the origin.
    pub(super) fn within(&self, limit: T) -> impl Iterator<Item = usize> + '_ {
        // Removed faces' distance is `T::MAX`: above any limit.
        self.dist
            .iter()
            .enumerate()
            .filter(move |&(_, &d)| d <= limit)
            .map(|(i, _)| i)
    }

    /// Adds face `f`.
    fn push_face(&mut self, f: Face<T>) {
        self.dist.push(f.d);
        self.faces.push(f);
    }

    /// Removes face `i` (its distance becomes `T::MAX`).
    fn kill(&mut self, i: usize) {
        self.dist[i] = T::MAX;
    }

    /// Whether face `i` was removed.
    fn dead(&self, i: usize) -> bool {
        self.dist[i] == T::MAX
    }

    /// Adds vertex `p` seen from face `seed`: removes the faces it sees and
    /// fans new faces from their horizon to it. `false` if that would break
    /// the polytope (the polytope is then unusable).
    pub(super) fn expand(&mut self, seed: usize, p: CsoPoint<T>) -> bool {
        let w = p.w;
        let slack = T::EPSILON * T::from_f64(64.0) * w.length();
        self.reach = self.reach.max(w.length());
        self.verts.push(p);
        let iw = self.verts.len() - 1;
        self.kill(seed);
        self.stack.clear();
        self.horizon.clear();
        self.stack.extend(self.faces[seed].adj);
        while let Some((g, j)) = self.stack.pop() {
            let Some(f) = self.faces.get(g) else {
                return false;
            };
            if self.dead(g) {
                continue;
            }
            if self.removes(f, w, slack) {
                let adj = f.adj;
                self.kill(g);
                self.stack.push(adj[(j + 1) % 3]);
                self.stack.push(adj[(j + 2) % 3]);
            } else {
                self.horizon.push((g, j));
            }
        }
        let first = self.faces.len();
        for k in 0..self.horizon.len() {
            let (g, j) = self.horizon[k];
            let (s, t) = (self.faces[g].v[j], self.faces[g].v[(j + 1) % 3]);
            let Some(mut f) = self.face([t, s, iw]) else {
                return false;
            };
            f.adj[0] = (g, j);
            self.faces[g].adj[j] = (first + k, 0);
            self.push_face(f);
        }
        // Link the fan: edge 1 (s → w) of one new face meets edge 2 (w → s)
        // of the one starting at s, found through `by_vertex` (a vertex
        // starting two new faces means a broken horizon).
        self.by_vertex.resize(self.verts.len(), NO_FACE);
        for m in first..self.faces.len() {
            let t = self.faces[m].v[0];
            self.by_vertex[t] = if self.by_vertex[t] == NO_FACE {
                m
            } else {
                TWO_FACES
            };
        }
        let mut linked = true;
        for k in first..self.faces.len() {
            let m = self.by_vertex[self.faces[k].v[1]];
            if m == NO_FACE || m == TWO_FACES {
                linked = false;
                break;
            }
            self.faces[k].adj[1] = (m, 2);
            self.faces[m].adj[2] = (k, 1);
        }
        for m in first..self.faces.len() {
            self.by_vertex[self.faces[m].v[0]] = NO_FACE;
        }
        linked && self.horizon.len() >= 3
    }

    /// Whether adding `w` removes face `f`: `w` sees it (or lies in its plane
    /// within `slack`), or one of its edges would make a sliver with `w`.
    /// Decided per face, so the removed set is well defined; a face with `w`
    /// in its plane can go without breaking convexity.
    pub(super) fn removes(&self, f: &Face<T>, w: V3<T>, slack: T) -> bool {
        let h = f.n.dot(w) - f.d;
        if h > -slack {
            return true;
        }
        // A sliver edge puts `w` (almost) in the face's plane: test only then.
        let near = T::EPSILON.sqrt() * T::from_f64(4.0) * (w.length() + self.reach);
        h > -near && (0..3).any(|e| self.sliver(f.v[e], f.v[(e + 1) % 3], w))
    }

    /// Whether the triangle of vertices `s`, `t` and point `w` is too thin
    /// to have a reliable normal.
    pub(super) fn sliver(&self, s: usize, t: usize, w: V3<T>) -> bool {
        let (p, q) = (self.verts[s].w, self.verts[t].w);
        let (e, f) = (q - p, w - p);
        let k = T::EPSILON.sqrt();
        e.cross(f).length_squared() <= k * k * e.length_squared() * f.length_squared()
    }

    /// The closest points on A and B behind the origin's projection on `face`.
    pub(super) fn witnesses(&self, face: usize) -> (V3<T>, V3<T>) {
        let mut s = Simplex::new();
        for &i in &self.faces[face].v {
            s.push(self.verts[i]);
        }
        s.closest_to_origin();
        s.closest_points()
    }

    /// Adds CSO point `p` if it lies outside, expanding from the face that
    /// sees it most: `Some(true)` added, `Some(false)` inside (nothing to
    /// do), `None` if the polytope broke (it is then unusable).
    pub(super) fn add(&mut self, p: CsoPoint<T>) -> Option<bool> {
        let slack = T::EPSILON * T::from_f64(64.0) * (p.w.length() + self.reach);
        let mut seed = None;
        let mut most = slack;
        for (i, f) in self.faces.iter().enumerate() {
            let h = f.n.dot(p.w) - f.d;
            if !self.dead(i) && h > most {
                most = h;
                seed = Some(i);
            }
        }
        let Some(seed) = seed else {
            return Some(false);
        };
        if self.verts.iter().any(|v| v.w == p.w) {
            return Some(false);
        }
        self.expand(seed, p).then_some(true)
    }

    /// The distance of the nearest live face's plane from the origin: a
    /// lower bound of the depth when the polytope holds the origin.
    pub(super) fn nearest(&self) -> Option<T> {
        self.closest().map(|f| self.faces[f].d)
    }

    /// Records the live faces, `seed` highlighted (nothing unless recording).
    pub(super) fn record(&self, cso: &Cso<'_, T>, seed: usize) {
        self.record_mapped(seed, |w| cso.world_vector(w));
    }

    /// Records the live faces with vertices as they are (a CSO already in
    /// world orientation, as MPR's), `seed` highlighted.
    pub(super) fn record_world(&self, seed: usize) {
        self.record_mapped(seed, |w| w);
    }

    /// Records the live faces, vertices mapped by `map`, `seed` highlighted.
    fn record_mapped(&self, seed: usize, map: impl Fn(V3<T>) -> V3<T>) {
        if !(rec::ENABLED && rec::is_on()) {
            return;
        }
        for (i, f) in self.faces.iter().enumerate() {
            if self.dead(i) {
                continue;
            }
            let [a, b, c] = f.v.map(|k| map(self.verts[k].w));
            if i == seed {
                rec::triangle!(cso "expanded face", a, b, c, rec::Rgba::RED);
            } else {
                rec::triangle!(cso "polytope", a, b, c, rec::Rgba::PURPLE);
            }
        }
    }
}

/// Up to four CSO points on the stack: the simplex being blown up.
#[derive(Clone, Copy)]
pub(super) struct Points<T: Real> {
    pub(super) p: [CsoPoint<T>; 4],
    pub(super) len: usize,
}

impl<T: Real> Points<T> {
    pub(super) fn of(s: &[CsoPoint<T>]) -> Self {
        let mut p = [CsoPoint::default(); 4];
        p[..s.len()].copy_from_slice(s);
        Self { p, len: s.len() }
    }
    pub(super) fn len(&self) -> usize {
        self.len
    }
    pub(super) fn push(&mut self, q: CsoPoint<T>) {
        self.p[self.len] = q;
        self.len += 1;
    }
    pub(super) fn remove(&mut self, i: usize) {
        self.p.copy_within(i + 1..self.len, i);
        self.len -= 1;
    }
    pub(super) fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
}

impl<T: Real> std::ops::Deref for Points<T> {
    type Target = [CsoPoint<T>];
    fn deref(&self) -> &[CsoPoint<T>] {
        &self.p[..self.len]
    }
}

/// Unit vectors perpendicular to `d` (six, 60° apart).
fn perpendiculars<T: Real>(d: V3<T>) -> [V3<T>; 6] {
    let (e1, e2) = crate::real::tangents::<T>(d);
    let e2 = e2.try_normalize().unwrap_or(V3::<T>::Y);
    let c = T::HALF;
    let s = T::from_f64(0.866_025_403_784_438_6);
    [
        e1,
        e1 * c + e2 * s,
        e2 * s - e1 * c,
        -e1,
        -(e1 * c) - e2 * s,
        e1 * c - e2 * s,
    ]
}

/// Six unit directions at angle `tan⁻¹ alpha` around `n` (unit): where a
/// ring of support points around a polished normal makes the polytope's
/// faces near the minimum small enough for its lower bound to meet the
/// tolerance.
pub(super) fn ring<T: Real>(n: V3<T>, alpha: T) -> [V3<T>; 6] {
    perpendiculars::<T>(n).map(|t| (n + t * alpha).try_normalize().unwrap_or(n))
}

/// The support point among `dirs` farthest from `from` by `dist`, if beyond `tol`.
fn farthest<T: Real>(
    cso: &Cso<'_, T>,
    dirs: &[V3<T>],
    dist: impl Fn(V3<T>) -> T,
    tol: T,
) -> Option<CsoPoint<T>> {
    let mut best = None;
    let mut best_d = tol;
    for &d in dirs {
        let p = cso.support(d);
        let x = dist(p.w);
        if x > best_d {
            best_d = x;
            best = Some(p);
        }
    }
    best
}

/// A CSO within the tolerance of a point or a line: its depth along unit
/// `normal`, the support's height (an upper bound of the depth, as EPA's
/// are; not 0: a cone 2.5e-5 across on a capsule's segment, the f32
/// tolerance 9.7e-5, was 1.1e-5 deep).
fn flat_along<T: Real>(cso: &Cso<'_, T>, normal: V3<T>) -> Start<T> {
    Start::Flat {
        normal,
        depth: normal.dot(cso.support(normal).w).max(T::ZERO),
    }
}

/// The polytope of GJK's four points if they make a proper tetrahedron;
/// otherwise drops the point whose opposite face is nearest the origin.
fn tetrahedron_or_drop<T: Real>(pts: &mut Points<T>, tol: T) -> Option<Box<Polytope<T>>> {
    let [a, b, c, d] = [pts[0].w, pts[1].w, pts[2].w, pts[3].w];
    let vol = (b - a).dot((c - a).cross(d - a)).abs();
    let size = (b - a).length().max((c - a).length()).max((d - a).length());
    if vol > tol * size * size {
        let mut poly = Polytope::new(pts);
        let inside = (a + b + c + d) * T::from_f64(0.25);
        if poly.close(&[[0, 1, 2], [0, 3, 1], [1, 3, 2], [0, 2, 3]], inside) {
            return Some(poly);
        }
    }
    // Too flat: keep the face whose closest point to the origin is nearest.
    let mut best = (T::MAX, 3);
    for k in 0..4 {
        let mut s = Simplex::new();
        (0..4).filter(|&m| m != k).for_each(|m| s.push(pts[m]));
        let d = s.closest_to_origin().length_squared();
        if d < best.0 {
            best = (d, k);
        }
    }
    pts.remove(best.1);
    None
}

/// The initial polytope around the origin from GJK's 1 to 4 points.
pub(super) fn blow_up<T: Real>(cso: &Cso<'_, T>, simplex: &[CsoPoint<T>], tol: T) -> Start<T> {
    let mut pts = Points::of(simplex);
    if pts.len() == 4
        && let Some(poly) = tetrahedron_or_drop(&mut pts, tol)
    {
        return Start::Polytope(poly);
    }
    if pts.len() == 3 {
        let [a, b, c] = [pts[0].w, pts[1].w, pts[2].w];
        if (b - a).cross(c - a).length() <= tol * (b - a).length().max((c - a).length()) {
            // Collinear: keep the longest edge, which covers the third point.
            let pairs = [(0, 1), (1, 2), (0, 2)];
            let len = |(i, j): (usize, usize)| (pts[j].w - pts[i].w).length_squared();
            let (mut i, mut j) = pairs[0];
            for &pair in &pairs[1..] {
                if len(pair) > len((i, j)) {
                    (i, j) = pair;
                }
            }
            pts = Points::of(&[pts[i], pts[j]]);
        }
    }
    if pts.len() == 2 && (pts[1].w - pts[0].w).length() <= tol {
        pts.truncate(1);
    }
    if pts.len() == 1 {
        let o = pts[0].w;
        let axes = [
            V3::<T>::X,
            -V3::<T>::X,
            V3::<T>::Y,
            -V3::<T>::Y,
            V3::<T>::Z,
            -V3::<T>::Z,
        ];
        match farthest(cso, &axes, |w| (w - o).length(), tol) {
            Some(p) => pts.push(p),
            None => return flat_along(cso, gjk::fallback_direction(cso)),
        }
    }
    if pts.len() == 2 {
        let (o, d) = (pts[0].w, pts[1].w - pts[0].w);
        let dirs = perpendiculars::<T>(d);
        let line = d.try_normalize().unwrap_or(V3::<T>::X);
        let off_line = |w: V3<T>| {
            let r = w - o;
            (r - line * r.dot(line)).length()
        };
        match farthest(cso, &dirs, off_line, tol) {
            Some(p) => pts.push(p),
            None => return flat_along(cso, dirs[0]),
        }
    }
    let [a, b, c] = [pts[0].w, pts[1].w, pts[2].w];
    let Some(n) = (b - a).cross(c - a).try_normalize() else {
        return flat_along(cso, gjk::fallback_direction(cso));
    };
    let up = cso.support(n);
    let down = cso.support(-n);
    let (hu, hd) = (n.dot(up.w), -n.dot(down.w));
    if hu <= tol || hd <= tol {
        // The CSO lies on one side of the triangle's plane: the origin is on
        // its boundary (touching, face to face) or it is flat.
        let (normal, depth) = if hu <= hd { (n, hu) } else { (-n, hd) };
        return Start::Flat { normal, depth };
    }
    // The taller apex makes a tetrahedron with the origin on its base; EPA
    // reaches the other side itself (two apexes could make a non-convex start).
    pts.push(if hu >= hd { up } else { down });
    let mut poly = Polytope::new(&pts);
    let inside = (a + b + c + pts[3].w) * T::from_f64(0.25);
    if poly.close(&[[0, 1, 2], [0, 3, 1], [1, 3, 2], [0, 2, 3]], inside) {
        Start::Polytope(poly)
    } else {
        Start::Flat {
            normal: n,
            depth: hu.min(hd),
        }
    }
}
