//! GJK distance between two convex vertex sets (van den Bergen's variant:
//! upper and lower bounds, stop when they meet or the simplex stops shrinking),
//! with one recorder macro per idea.

use crate::simplex::{self, Simplex, Vertex};
use crate::vec3::V3;
use cspace_recorder as rec;
use rec::{IntoVec3 as _, Rgba};

/// Iteration cap; convergence on vertex sets needs far fewer.
pub const MAX_ITERATIONS: u32 = 64;
/// Relative gap between the bounds at which the distance is accepted.
pub const RELATIVE_TOLERANCE: f64 = 1e-12;

/// The answer of a distance query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance {
    /// Distance between the shapes, 0 when they touch or overlap.
    pub distance: f64,
    /// Closest point on A (the contact point when they overlap).
    pub point_a: V3,
    /// Closest point on B.
    pub point_b: V3,
    /// A proven lower bound on the distance (≤ `distance`): the best
    /// separation between the two support planes found. With `distance`, the
    /// upper bound, it brackets the true distance.
    pub lower_bound: f64,
    /// Iterations run.
    pub iterations: u32,
}

/// The vertex of `points` farthest along `d` (the first on ties).
///
/// # Panics
/// If `points` is empty.
#[must_use]
pub fn support(points: &[V3], d: V3) -> V3 {
    let mut best = points[0];
    let mut best_dot = best.dot(d);
    for &p in &points[1..] {
        let dot = p.dot(d);
        if dot > best_dot {
            best = p;
            best_dot = dot;
        }
    }
    best
}

/// Distance between the convex hulls of the world-space vertex sets `a` and `b`.
///
/// Inside [`cspace_recorder::record`] every iteration is recorded as a scope
/// with its support points, simplex, closest point and bounds.
///
/// # Panics
/// If `a` or `b` is empty.
#[must_use]
pub fn distance(a: &[V3], b: &[V3]) -> Distance {
    assert!(
        !a.is_empty() && !b.is_empty(),
        "shapes need at least one vertex"
    );
    // The declarations are built only while recording: no allocation otherwise.
    rec::shapes!(
        rec::ShapeDecl::hull(a.iter().copied()),
        rec::ShapeDecl::hull(b.iter().copied())
    );
    let mut s = Simplex::point(Vertex::new(a[0], b[0]));
    let mut v = s.closest();
    let (mut lower, mut iterations) = (0.0_f64, 0);
    // Whether the loop ended on its certificate: the bounds met, or overlap.
    let mut certified = false;
    rec::simplex!("start", vertices(&s));
    rec::text!("start at a[0] - b[0], |v| = {}", v.length());
    rec::pause!("start");
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        rec::push!("iteration");
        let vv = v.length_squared();
        let upper = vv.sqrt();
        rec::value!("upper bound", upper);
        if vv == 0.0 {
            rec::text!("the origin is in the simplex: the shapes overlap");
            certified = true;
            rec::pause!("overlap");
            rec::pop!("iteration");
            break;
        }
        let sa = support(a, -v);
        let sb = support(b, v);
        let new = Vertex::new(sa, sb);
        let vw = v.dot(new.w);
        lower = lower.max(vw / upper);
        rec::value!("lower bound", lower);
        rec::line!(cso "search direction", V3::ZERO, -v, Rgba::BLUE);
        rec::point!("support a", sa, Rgba::RED);
        rec::point!("support b", sb, Rgba::ORANGE);
        rec::point!(cso "w", new.w, Rgba::RED);
        rec::text!(
            "iteration {iterations}: {lower} <= distance <= {upper}, gap {}",
            upper - lower
        );
        if vv - vw <= RELATIVE_TOLERANCE * vv || s.contains(new.w) {
            rec::text!("bounds met: stop");
            certified = true;
            rec::pause!("converged");
            rec::pop!("iteration");
            break;
        }
        rec::pause!("new support point");
        s.push(new);
        rec::simplex!("with w", vertices(&s));
        let reduced = simplex::reduce(&s);
        let closest = reduced.closest();
        rec::simplex!("reduced", vertices(&reduced));
        rec::point!(cso "closest", closest, Rgba::GREEN);
        rec::line!(cso "v", V3::ZERO, closest, Rgba::GREEN);
        if reduced.len == 4 {
            // A tetrahedron that holds the origin: the shapes overlap.
            s = reduced;
            v = V3::ZERO;
            rec::text!("the origin is inside the tetrahedron: the shapes overlap");
            certified = true;
            rec::pause!("overlap");
            rec::pop!("iteration");
            break;
        }
        if closest.length_squared() >= vv {
            rec::text!("the simplex did not get closer: stop");
            rec::pause!("no progress");
            rec::pop!("iteration");
            break;
        }
        rec::text!(
            "simplex of {} reduced to {}, |v| = {}",
            s.len,
            reduced.len,
            closest.length()
        );
        s = reduced;
        v = closest;
        let (pa, pb) = s.witnesses();
        rec::line!("closest points", pa, pb, Rgba::GREEN);
        rec::pause!("closest point");
        rec::pop!("iteration");
    }
    let (point_a, point_b) = s.witnesses();
    let distance = v.length();
    rec::value!("distance", distance);
    rec::line!("closest points", point_a, point_b, Rgba::GREEN);
    rec::text!("distance {distance} after {iterations} iterations");
    rec::pause!("done");
    let out = Distance {
        distance,
        point_a,
        point_b,
        lower_bound: lower.min(distance),
        iterations,
    };
    record_answer(&out, -v, certified);
    out
}

/// Records the answer (the viewer draws it at the end: the points and the
/// normal from A to B along `toward_b`), then how far it is proven: the
/// bounds `[lower_bound, distance]` and how the loop ended (`certified`: on
/// its bounds or an overlap).
fn record_answer(d: &Distance, toward_b: V3, certified: bool) {
    let status = match (certified, d.iterations >= MAX_ITERATIONS) {
        (true, _) => "converged",
        (false, true) => "max_iterations",
        (false, false) => "no_progress",
    };
    let normal = if d.distance > 0.0 {
        toward_b * (1.0 / d.distance)
    } else {
        V3::ZERO
    };
    rec::answer!(rec::Answer::Distance {
        distance: rec::Scalar::F64(d.distance),
        point_a: d.point_a.into_vec3(),
        point_b: d.point_b.into_vec3(),
        normal: normal.into_vec3(),
    });
    rec::certificate!(rec::Certificate {
        status: status.into(),
        iterations: d.iterations,
        bounds: Some([
            rec::Scalar::F64(d.lower_bound),
            rec::Scalar::F64(d.distance),
        ]),
        witness: None,
        normal_within: None,
    });
}

/// The simplex as the `(w, a, b)` triples [`cspace_recorder::simplex!`] takes.
fn vertices(s: &Simplex) -> impl Iterator<Item = (V3, V3, V3)> + '_ {
    s.vertices().iter().map(|v| (v.w, v.a, v.b))
}
