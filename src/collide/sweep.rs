//! Linear sweeps (shape casts): shape A moves by `motion` over t ∈ [0, 1]
//! against a static shape B. Four methods:
//!
//! - [`conservative_advancement`]: GJK distance, then advance by the
//!   distance over the closing speed (a Newton step on the convex distance
//!   function, so it never passes the contact), warm-started.
//! - [`ray_cast`]: van den Bergen's GJK ray cast (2004) of the ray `−t·motion`
//!   against the CSO of the cores, inflated by the radii. The default (the
//!   `cspace eval` sweep without an `algorithm`): one GJK-like loop, where
//!   conservative advancement runs a GJK per step.
//! - [`swept_mpr`]: MPR on the swept CSO `(A − B) + [0, 1]·motion`: decide a
//!   hit, then cast from the origin along the motion to the swept CSO's far
//!   side and subtract from 1 ("Thoughts on shape casting").
//! - [`analytic`]: closed form for sphere–point and sphere–sphere.
//!
//! Shapes that overlap at t = 0 hit at t = 0 whatever the motion.

use super::Status;
use super::cso::{Cso, CsoSupport};
use super::gjk;
use super::mpr::{self, Mode, Origin};
use super::simplex::{CsoPoint, Simplex};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Geom, Placed};
use cspace_recorder as rec;

/// The most advancement steps of [`conservative_advancement`] and
/// [`ray_cast`] (each step of the former is a warm-started GJK).
pub const MAX_ITERS: u32 = 128;

/// The result of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep<T: Real> {
    /// Whether A touches B for some t ∈ [0, 1].
    pub hit: bool,
    /// The time of impact, in [0, 1]; 1 on a miss.
    pub toi: T,
    /// Unit normal at impact, from A towards B (zero on a miss).
    pub normal: V3<T>,
    /// The world contact point at impact (zero on a miss).
    pub point: V3<T>,
    /// Support evaluations made (over all inner queries).
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
}

impl<T: Real> Sweep<T> {
    /// No contact over the whole motion.
    #[must_use]
    pub fn miss(iterations: u32, status: Status) -> Self {
        Self {
            hit: false,
            toi: T::ONE,
            normal: V3::<T>::ZERO,
            point: V3::<T>::ZERO,
            iterations,
            status,
        }
    }
}

/// Why [`analytic`] cannot sweep these shapes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    /// The closed forms cover spheres and points (with margins) only.
    #[error("analytic sweep needs a sphere or a point for {which}, got a {shape}")]
    Unsupported {
        /// `a` or `b`.
        which: &'static str,
        /// The shape type found.
        shape: &'static str,
    },
}

/// A world normal and contact point.
type Contact<T> = (V3<T>, V3<T>);

/// The distance below which GJK reports contact (its relative tolerance
/// times the scale). From the CSO, which has the scale already: a hull's
/// scale is a scan of its points.
fn gjk_tol<T: Real>(cso: &Cso<'_, T>) -> T {
    gjk::rel_tol::<T>() * cso.scale
}

/// The toi tolerance: a step below it ends the advancement (ε^¾).
fn toi_tol<T: Real>() -> T {
    mpr::rel_tol::<T>()
}

/// The hit at t = 0 of overlapping shapes: the MPR penetration normal and
/// the middle of its contact points.
fn initial<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, iterations: u32) -> Sweep<T> {
    rec::text!("overlapping at t = 0");
    let p = mpr::penetration_unrecorded(a, b);
    let normal = p
        .normal
        .try_normalize()
        .unwrap_or_else(|| fallback_normal(a, b));
    Sweep {
        hit: true,
        toi: T::ZERO,
        normal,
        point: (p.point_a + p.point_b) * T::HALF,
        iterations: iterations + p.iterations,
        status: Status::Converged,
    }
}

/// From A's position towards B's, or +Y when they coincide.
fn fallback_normal<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> V3<T> {
    (b.pose.position - a.pose.position)
        .try_normalize()
        .unwrap_or(V3::<T>::Y)
}

/// Conservative advancement: repeat GJK distance (warm-started from the
/// previous simplex) and advance by `distance / (motion · normal)`. The
/// distance along the motion is convex in t, so each step is a lower bound
/// of the time of impact; it stops when the step is below the tolerance or
/// GJK reports contact.
pub fn conservative_advancement<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
) -> Sweep<T> {
    rec::shapes!(a, b, motion);
    let _scope = rec::scope!("conservative advancement");
    let start = Cso::new(a, b);
    advance(
        (a, b, &start),
        motion,
        (T::ZERO, 0),
        (&Simplex::new(), None),
    )
}

/// Conservative advancement from `t0` (a lower bound of the toi), having
/// already spent `iterations`. `warm` is a simplex of CSO points to start
/// GJK from (only their local support points are used: they are re-placed
/// at `t0`), empty for a cold start; `last` is the world normal and contact
/// point known so far, if any. `start` is the CSO of `a` and `b` at t = 0.
///
/// Each step runs GJK on the cores directly, in A's frame, and converts
/// to world space only at the end: a sweep needs the distance and normal
/// of each step, not its world closest points.
fn advance<T: Real>(
    (a, b, start): (&Placed<'_, T>, &Placed<'_, T>, &Cso<'_, T>),
    motion: V3<T>,
    (t0, iterations): (T, u32),
    (warm, mut last): (&Simplex<T>, Option<Contact<T>>),
) -> Sweep<T> {
    let d_local = start.pose_a.rotation.inverse_rotate(motion);
    let r = start.radius();
    let tol = gjk_tol(start);
    let target = T::from_f64(4.0) * tol;
    let recording = rec::ENABLED && rec::is_on();
    let mut simplex = *warm;
    let mut t = t0;
    let mut iterations = iterations;
    for step in 0..MAX_ITERS {
        let cso = start.shifted(motion * t);
        let mut placed = Simplex::new();
        for p in simplex.points() {
            placed.push(cso.point(p.local_a, p.local_b));
        }
        let core = gjk::run(&cso, &mut placed, None);
        iterations += core.iterations;
        simplex = placed;
        let dc = core.v.length();
        let apart = !core.overlap() && dc > T::ZERO && dc - r > tol;
        if recording {
            record_advance(a, motion, t, if apart { dc - r } else { T::ZERO });
        }
        if !apart {
            if step == 0 && t == T::ZERO {
                return initial(a, b, iterations);
            }
            let (normal, point) = last.unwrap_or_else(|| touching(&cso, &simplex, &core));
            return hit(t, normal, point, iterations, core.status);
        }
        let distance = dc - r;
        // Unit normal from A to B in A's frame: the core distance vector is a − b.
        let n = gjk::face_normal(&simplex, core.v).unwrap_or(-core.v / dc);
        let closing = d_local.dot(n);
        if closing <= T::ZERO {
            rec::text!("miss: moving apart (closing speed {closing:?})");
            return Sweep::miss(iterations, core.status);
        }
        let to_contact = distance / closing;
        if t + to_contact > T::ONE {
            rec::text!("miss: contact after t = 1");
            return Sweep::miss(iterations, core.status);
        }
        // Advance to `target` short of contact, so the last GJK still sees a
        // gap and its normal is the contact normal; the final step is then
        // the tiny linear extrapolation `to_contact`.
        let dt = (distance - target) / closing;
        let (ca, cb) = simplex.closest_points();
        let on_a = ca + n * start.radius_a + d_local * to_contact;
        let on_b = cb - n * start.radius_b;
        let point = cso.world_point((on_a + on_b) * T::HALF);
        let normal = cso.world_vector(n);
        // A GJK that stalled (not converged) has a poor normal: keep the last good one.
        if core.status == Status::Converged || last.is_none() {
            last = Some((normal, point));
        }
        if dt <= toi_tol::<T>() {
            let normal = last.map_or(normal, |(n, _)| n);
            return hit(t + to_contact, normal, point, iterations, core.status);
        }
        t += dt;
    }
    rec::text!("advancement hit MAX_ITERS");
    let (normal, point) = last.unwrap_or((fallback_normal(a, b), a.pose.position));
    Sweep {
        hit: true,
        toi: t,
        normal,
        point,
        iterations,
        status: Status::MaxIterations,
    }
}

/// The world normal and contact point of cores found touching (within the
/// radii) or overlapping: as [`gjk::distance`] reports them.
fn touching<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &gjk::CoreResult<T>,
) -> (V3<T>, V3<T>) {
    let (ca, cb) = simplex.closest_points();
    let dc = core.v.length();
    if !core.overlap() && dc > T::ZERO {
        let n = gjk::face_normal(simplex, core.v).unwrap_or(-core.v / dc);
        // A common point on the core axis.
        let s = ((cso.radius_a + dc - cso.radius_b) * T::HALF)
            .max(T::ZERO)
            .min(dc);
        (cso.world_vector(n), cso.world_point(ca + n * s))
    } else {
        let n = gjk::fallback_direction(cso);
        (cso.world_vector(n), cso.world_point((ca + cb) * T::HALF))
    }
}

/// Records one advancement step: A's position at `t` and the distance there.
/// Out of line so the loop keeps its registers.
#[cold]
#[inline(never)]
fn record_advance<T: Real>(a: &Placed<'_, T>, motion: V3<T>, t: T, distance: T) {
    let at = a.pose.position + motion * t;
    rec::value!("t", t);
    rec::value!("distance", distance);
    rec::line!("advancement", a.pose.position, at, rec::Rgba::BLUE);
    rec::point!("A at t", at, rec::Rgba::RED);
    rec::pause!("advance");
}

/// A hit at `toi`, recorded.
fn hit<T: Real>(toi: T, normal: V3<T>, point: V3<T>, iterations: u32, status: Status) -> Sweep<T> {
    rec::value!("toi", toi);
    rec::point!("contact", point, rec::Rgba::GREEN);
    rec::text!("hit at t = {toi:?}");
    Sweep {
        hit: true,
        toi,
        normal,
        point,
        iterations,
        status,
    }
}

/// The GJK ray cast (G. van den Bergen, *Ray Casting against General Convex
/// Objects with Application to Continuous Collision Detection*, 2004): cast
/// the ray `x(λ) = −λ·motion` against the CSO of the cores (in A's frame),
/// inflated by the sum of the radii. Each step either advances `x` to the
/// support plane of the current direction or adds the support point to the
/// simplex; `x` never passes the surface. Where it stops converging (curved
/// edges, repeated supports, a flat tetrahedron) it finishes with
/// conservative advancement from `x`, warm-started with its simplex.
pub fn ray_cast<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    rec::shapes!(a, b, motion);
    let _scope = rec::scope!("gjk ray cast");
    cast(a, motion, b)
}

/// The ray cast's loop. The tests are written on `|v|²` and `v·w` so that
/// shapes without radii take no square root or division per iteration:
/// `gap > 0` is `v·(w − x) > r·|v|` and the step `gap / (u·dir)` is
/// `(v·(w − x) − r·|v|) / (v·dir)`.
#[allow(clippy::too_many_lines)]
fn cast<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    let cso = Cso::new(a, b);
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
                    x + v,
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
                x + v,
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
                x,
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
        return initial(a, b, iterations);
    }
    let Some(last) = normal else {
        return initial(a, b, iterations);
    };
    ray_hit(&cso, (lambda, d_local), &simplex, (v, last), iterations)
}

/// The hit of a converged ray cast at `λ`: the normal is `−v` unless `v` is
/// within the tolerance of zero, then the last support plane's `last` (both
/// in A's frame); the point is the middle of the closest points.
fn ray_hit<T: Real>(
    cso: &Cso<'_, T>,
    (lambda, d_local): (T, V3<T>),
    simplex: &Simplex<T>,
    (v, last): (V3<T>, V3<T>),
    iterations: u32,
) -> Sweep<T> {
    let vlen = v.length();
    let tol = T::from_f64(4.0) * gjk_tol(cso);
    let n_local = match (v / vlen).try_normalize() {
        Some(u) if vlen > tol => -u,
        _ => last.try_normalize().unwrap_or(V3::<T>::Y),
    };
    let (ca, cb) = simplex.closest_points();
    let on_a = ca + d_local * lambda + n_local * cso.radius_a;
    let on_b = cb - n_local * cso.radius_b;
    let point = cso.world_point((on_a + on_b) * T::HALF);
    hit(
        lambda,
        cso.world_vector(n_local),
        point,
        iterations,
        Status::Converged,
    )
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
/// which is a simplex of the CSO at `λ`. `normal` (A's frame, not normalised)
/// and the closest point `closest` of the simplex are the contact known so far.
#[allow(clippy::too_many_arguments)]
fn finish_by_advancement<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
    at: (T, u32),
    simplex: &Simplex<T>,
    normal: Option<V3<T>>,
    cso: &Cso<'_, T>,
    closest: V3<T>,
) -> Sweep<T> {
    let known = normal
        .and_then(Vector::try_normalize)
        .map(|n| (cso.world_vector(n), cso.world_point(closest)));
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

/// MPR on the swept CSO ("Thoughts on shape casting", 2010). The swept CSO
/// `K = (A − B) + [0, 1]·motion` holds the origin iff A hits B during the
/// motion, which MPR decides. On a hit, MPR casts from the origin along the
/// motion to the far side of `K` (started from an interior point on the ray
/// behind the origin, in `K` extended backwards); the far side is
/// `A − B + motion`, so the distance `s` found there gives `toi = 1 − s`.
pub fn swept_mpr<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    rec::shapes!(a, b, motion);
    let _scope = rec::scope!("swept mpr");
    swept(a, motion, b)
}

fn swept<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    let origin = a.pose.position;
    let (tol, size) = mpr::tolerance(a, b);
    let size = size + motion.max_abs();
    let tol = tol + mpr::portal_rel::<T>() * motion.max_abs();
    // 1. Does the swept CSO hold the origin?
    let support = CsoSupport::new(a, b);
    let swept_support = |d: V3<T>| {
        let p = support.at(d);
        if d.dot(motion) > T::ZERO {
            shifted(p, motion)
        } else {
            p
        }
    };
    let v0 = shifted(mpr::interior(a, b), motion * T::HALF);
    let test = {
        let _scope = rec::scope!("hit test on the swept CSO");
        mpr::portal(&swept_support, v0, (tol, size), Mode::Boolean)
    };
    let mut iterations = test.iterations;
    match test.origin {
        Origin::Separated { .. } => {
            rec::text!("miss: the swept CSO excludes the origin");
            return Sweep::miss(iterations, test.status);
        }
        Origin::Degenerate => return degenerate(a, motion, b, iterations),
        Origin::Inside { .. } => {}
    }
    let mlen = motion.length();
    if mlen <= size * T::EPSILON {
        return initial(a, b, iterations);
    }
    // 2. Cast from the origin along the motion: K extended backwards by
    // `back · motion` so that v0 = −(back/2)·motion, on the ray, is inside.
    let back = T::TWO * (size / mlen).max(T::ONE);
    let cast_support = |d: V3<T>| {
        let p = support.at(d);
        if d.dot(motion) > T::ZERO {
            shifted(p, motion)
        } else {
            shifted(p, motion * -back)
        }
    };
    let start = CsoPoint::new(motion * (-back * T::HALF), V3::<T>::ZERO);
    // A tighter tolerance than the hit test: the portal's normal is the
    // contact normal, and on curved surfaces its error is √(tolerance).
    let fine = size * mpr::rel_tol::<T>();
    let ray = {
        let _scope = rec::scope!("cast along the motion");
        mpr::portal(&cast_support, start, (fine, size), Mode::Surface)
    };
    iterations += ray.iterations;
    let Origin::Inside { portal, normal } = ray.origin else {
        return degenerate(a, motion, b, iterations);
    };
    let along = normal.dot(motion);
    if along <= T::ZERO {
        return degenerate(a, motion, b, iterations);
    }
    let s = normal.dot(portal[0].w) / along;
    rec::value!("far side s", s);
    if s >= T::ONE {
        return initial(a, b, iterations);
    }
    let toi = (T::ONE - s).max(T::ZERO);
    let [p1, p2, p3] = portal;
    let exit = motion * s;
    let on_b = match mpr::barycentric(exit, p1.w, p2.w, p3.w) {
        Some([u, v, w]) => p1.b * u + p2.b * v + p3.b * w,
        None => p1.b,
    };
    hit(toi, normal, on_b + origin, iterations, ray.status)
}

/// `p` with A's witness moved by `delta`.
fn shifted<T: Real>(mut p: CsoPoint<T>, delta: V3<T>) -> CsoPoint<T> {
    p.w += delta;
    p.a += delta;
    p
}

/// Conservative advancement, marked [`Status::Degenerate`], for when a portal collapses.
fn degenerate<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
    iterations: u32,
) -> Sweep<T> {
    rec::text!("degenerate portal: falling back to conservative advancement");
    let start = Cso::new(a, b);
    let mut s = advance(
        (a, b, &start),
        motion,
        (T::ZERO, iterations),
        (&Simplex::new(), None),
    );
    s.status = Status::Degenerate;
    s
}

/// Closed-form sweep of a sphere (or point) against a sphere (or point):
/// the time of impact of a point against a sphere of the summed radii,
/// solved from `|P + t·motion|² = R²` with `P` the centre of A relative to
/// B's (never from the raw positions).
///
/// # Errors
/// [`SweepError::Unsupported`] if either shape is not a sphere or a point.
pub fn analytic<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
) -> Result<Sweep<T>, SweepError> {
    round_shape(a, "a")?;
    round_shape(b, "b")?;
    rec::shapes!(a, b, motion);
    let _scope = rec::scope!("analytic sphere sweep");
    let out = sphere_sphere(a, motion, b);
    Ok(out)
}

fn round_shape<T: Real>(p: &Placed<'_, T>, which: &'static str) -> Result<(), SweepError> {
    let shape = match p.shape.geom {
        Geom::Point | Geom::Sphere { .. } => return Ok(()),
        Geom::Box { .. } => "box",
        Geom::Capsule { .. } => "capsule",
        Geom::Cylinder { .. } => "cylinder",
        Geom::Cone { .. } => "cone",
        Geom::Hull { .. } => "hull",
    };
    Err(SweepError::Unsupported { which, shape })
}

fn sphere_sphere<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    let (ra, rb) = (a.shape.radius(), b.shape.radius());
    let r = ra + rb;
    // Sphere-relative: the bug class this guards against takes P·P from the raw point.
    let p = a.pose.position - b.pose.position;
    let c = p.dot(p) - r * r;
    let surface = |centre: V3<T>, n: V3<T>| (centre + n * ra + b.pose.position - n * rb) * T::HALF;
    rec::value!("c = |P|² − R²", c);
    if c <= T::ZERO {
        rec::text!("overlapping at t = 0");
        let n = (-p)
            .try_normalize()
            .unwrap_or_else(|| motion.try_normalize().unwrap_or(V3::<T>::Y));
        return Sweep {
            hit: true,
            toi: T::ZERO,
            normal: n,
            point: surface(a.pose.position, n),
            iterations: 0,
            status: Status::Converged,
        };
    }
    let aa = motion.dot(motion);
    let half_b = p.dot(motion);
    let disc = half_b * half_b - aa * c;
    if aa <= T::ZERO || !aa.is_finite() || half_b >= T::ZERO || disc < T::ZERO {
        rec::text!("miss: no real root ahead");
        return Sweep::miss(0, Status::Converged);
    }
    // The smaller root (−b' − √disc)/a, written without cancellation.
    let toi = c / (-half_b + disc.sqrt());
    if toi > T::ONE {
        rec::text!("miss: contact after t = 1");
        return Sweep::miss(0, Status::Converged);
    }
    let centre = a.pose.position + motion * toi;
    let n = (b.pose.position - centre)
        .try_normalize()
        .unwrap_or_else(|| motion.try_normalize().unwrap_or(V3::<T>::Y));
    rec::point!("A at impact", centre, rec::Rgba::RED);
    hit(toi, n, surface(centre, n), 0, Status::Converged)
}
