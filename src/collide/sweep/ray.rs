//! The GJK ray cast (van den Bergen 2004) of `−t·motion` against the CSO of
//! the cores, inflated by the radii; finishes by advancement where it stalls.

use super::advance::advance;
use super::analytic::{point_cores, sphere_sphere};
use super::boxes::{self, Decided};
use super::certify::{Found, certify};
use super::{MAX_ITERS, Sweep, gjk_tol, initial};
use crate::collide::Status;
use crate::collide::answer;
use crate::collide::cso::Cso;
use crate::collide::input;
use crate::collide::simplex::{CsoPoint, Simplex};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// The GJK ray cast (G. van den Bergen, *Ray Casting against General Convex
/// Objects with Application to Continuous Collision Detection*, 2004): cast
/// the ray `x(λ) = −λ·motion` against the CSO of the cores (in A's frame),
/// inflated by the sum of the radii. Each step either advances `x` to the
/// support plane of the current direction or adds the support point to the
/// simplex; `x` never passes the surface. Where it stops converging (curved
/// edges, repeated supports, a flat tetrahedron) it finishes with
/// conservative advancement from `x`, warm-started with its simplex.
///
/// Two spheres or points (cores that are single points) are solved in
/// closed form (the [`analytic`](super::analytic) sweep), two boxes without
/// margins by the separating axis test in time where it can decide (exact
/// to rounding: the time of impact, the entering axis as the normal, a
/// point of both contact features).
pub fn ray_cast<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    if let Some(out) = input::indirect(a, b, motion, Sweep::invalid, |s, a, b, m| {
        s.sweep(ray_cast(a, m, b))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = (|| {
        rec::shapes!(a, b, motion);
        let _scope = rec::scope!("gjk ray cast");
        if point_cores(a, b) {
            rec::text!("closed form: both cores are points (spheres, points)");
            return sphere_sphere(a, motion, b);
        }
        match boxes::sweep(a, motion, b) {
            Some(Decided::Hit(s)) => s,
            Some(Decided::Miss) => Sweep::miss(0, Status::Converged),
            Some(Decided::Overlapping) => initial(a, motion, b, (0, false)),
            None => cast(a, motion, b),
        }
    })();
    answer::sweep(&query, a, motion, &out);
    out
}

/// The ray cast's loop. The tests are written on `|v|²` and `v·w` so that
/// shapes without radii take no square root or division per iteration:
/// `gap > 0` is `v·(w − x) > r·|v|` and the step `gap / (u·dir)` is
/// `(v·(w − x) − r·|v|) / (v·dir)`.
#[allow(clippy::too_many_lines)]
fn cast<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    let cso = Cso::for_sweep(a, b);
    let r = cso.radius();
    let d_local = cso.pose_a.rotation.inverse_rotate(motion);
    let dir = -d_local;
    let tol = T::from_f64(4.0) * gjk_tol(&cso);
    let reach2 = (r + tol) * (r + tol);
    // `|v|` must shrink by 0.1 % (here squared) to count as progress.
    let shrink = T::from_f64((1.0 - 1e-3) * (1.0 - 1e-3));
    let recording = rec::ENABLED && rec::is_on();
    let mut lambda = T::ZERO;
    let mut x = V3::<T>::ZERO;
    // −v at the last advance: the normal (not normalised) of its support plane.
    let mut normal: Option<V3<T>> = None;
    let mut simplex = Simplex::new();
    // The first direction is the ray's own: its support plane is where the
    // ray enters the CSO's slab along the motion. `v` is a CSO point (x − w)
    // only once the simplex has one.
    let mut v = dir;
    let mut iterations = 0;
    let mut stalled = 0;
    let mut best = T::MAX;
    loop {
        let vv = v.length_squared();
        // Before the first point `v` is only a direction.
        if !simplex.is_empty() {
            if vv <= reach2 {
                break;
            }
            // GJK's lower bound converges slowly where a curved edge meets a
            // vertex: when |v| stops shrinking, or at the bound, finish with
            // conservative advancement from λ, which is a lower bound of the toi.
            stalled = if vv < best * shrink { 0 } else { stalled + 1 };
            best = best.min(vv);
            if stalled >= 2 || iterations >= MAX_ITERS {
                rec::text!(
                    "ray cast stalled at |v|² = {vv:?}: finishing with conservative advancement"
                );
                return finish_by_advancement(
                    a,
                    motion,
                    b,
                    (lambda, iterations),
                    &simplex,
                    normal,
                    &cso,
                );
            }
        }
        let mut p = cso.support(-v);
        iterations += 1;
        let vw = v.dot(p.w - x);
        let rv = if r > T::ZERO { r * vv.sqrt() } else { T::ZERO };
        let advanced = vw > rv;
        if advanced {
            let speed = v.dot(dir);
            if speed <= T::ZERO {
                rec::text!("miss: the ray moves away from the support plane");
                return Sweep::miss(iterations, Status::Converged);
            }
            let step = (vw - rv) / speed;
            lambda += step;
            if lambda > T::ONE {
                rec::text!("miss: contact after t = 1");
                return Sweep::miss(iterations, Status::Converged);
            }
            x = dir * lambda;
            simplex.translate(dir * step);
            normal = Some(-v);
            best = T::MAX;
            stalled = 0;
        }
        // The support point relative to x, as the simplex keeps its points.
        p.w -= x;
        // After an advance the support point is often a vertex the simplex
        // already has (its `w` moved with x, so compare the shapes' points):
        // a second copy would make a degenerate tetrahedron.
        let repeated = if advanced {
            has_vertex(&simplex, &p)
        } else {
            simplex.contains_w(p.w)
        };
        if !advanced && (repeated || simplex.len() == 4) {
            rec::text!("support repeated: finishing with conservative advancement");
            return finish_by_advancement(
                a,
                motion,
                b,
                (lambda, iterations),
                &simplex,
                normal,
                &cso,
            );
        }
        if !repeated {
            simplex.push(p);
        }
        v = simplex.closest_to_origin();
        if simplex.len() == 4 && lambda > T::ZERO {
            // x inside a tetrahedron of CSO points: a contact, or rounding on
            // a flat tetrahedron (near convergence the simplex lies in the
            // support plane that x was just advanced to). Let advancement
            // decide, from the simplex before this point (kept in order).
            rec::text!("ray point enclosed: finishing with conservative advancement");
            simplex.pop();
            return finish_by_advancement(
                a,
                motion,
                b,
                (lambda, iterations),
                &simplex,
                normal,
                &cso,
            );
        }
        if recording {
            record_ray_step(
                &cso,
                a,
                motion,
                (lambda, x, advanced),
                p.w + x,
                &simplex,
                v.length() - r,
            );
        }
    }
    if lambda <= T::ZERO {
        return initial(a, motion, b, (iterations, false));
    }
    let Some(last) = normal else {
        return initial(a, motion, b, (iterations, false));
    };
    ray_hit(&cso, motion, lambda, &simplex, (v, last), iterations)
}

/// The hit of a converged ray cast at `λ`, certified: the normal to polish is
/// `−v` unless `v` is within the tolerance of zero, then the last support
/// plane's `last` (both in A's frame).
fn ray_hit<T: Real>(
    cso: &Cso<'_, T>,
    motion: V3<T>,
    lambda: T,
    simplex: &Simplex<T>,
    (v, last): (V3<T>, V3<T>),
    iterations: u32,
) -> Sweep<T> {
    let vlen = v.length();
    let tol = T::from_f64(4.0) * gjk_tol(cso);
    let normal = match (v / vlen).try_normalize() {
        Some(u) if vlen > tol => -u,
        _ => last,
    };
    let found = Found {
        toi: lambda,
        normal,
        near: simplex.points(),
        iterations,
        status: Status::Converged,
    };
    certify(cso, motion, &found)
}

/// Whether the simplex has a point made of the same support points as `p`.
fn has_vertex<T: Real>(simplex: &Simplex<T>, p: &CsoPoint<T>) -> bool {
    simplex
        .points()
        .iter()
        .any(|q| q.local_a == p.local_a && q.local_b == p.local_b)
}

/// Hands a ray cast that stopped converging over to conservative advancement
/// from `λ` (a lower bound of the toi), warm-started with the ray's simplex,
/// which is a simplex of the CSO at `λ`. `normal` (A's frame, not
/// normalised) is the contact normal known so far.
fn finish_by_advancement<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
    at: (T, u32),
    simplex: &Simplex<T>,
    normal: Option<V3<T>>,
    cso: &Cso<'_, T>,
) -> Sweep<T> {
    let known = normal
        .and_then(Vector::try_normalize)
        .map(|n| cso.world_vector(n));
    advance((a, b, cso), motion, at, (simplex, known))
}

/// Records one ray-cast step: the support point (of the CSO at t = 0), the
/// ray so far and the simplex.
/// Out of line so the loop keeps its registers.
#[cold]
#[inline(never)]
fn record_ray_step<T: Real>(
    cso: &Cso<'_, T>,
    a: &Placed<'_, T>,
    motion: V3<T>,
    (lambda, x, advanced): (T, V3<T>, bool),
    support: V3<T>,
    simplex: &Simplex<T>,
    distance: T,
) {
    rec::point!(cso "support", cso.world_vector(support), rec::Rgba::RED);
    if advanced {
        let at = a.pose.position + motion * lambda;
        rec::value!("t", lambda);
        rec::line!(cso "ray", V3::<T>::ZERO, cso.world_vector(x), rec::Rgba::BLUE);
        rec::line!("advancement", a.pose.position, at, rec::Rgba::BLUE);
        rec::point!("A at t", at, rec::Rgba::RED);
    }
    rec::simplex!("simplex", cso.world_simplex(simplex));
    rec::value!("distance", distance);
    rec::pause!("ray step");
}
