//! Conservative advancement: GJK distance, then advance by the distance over
//! the closing speed, warm-started.

use super::{Contact, MAX_ITERS, Sweep, fallback_normal, gjk_tol, hit, initial, toi_tol};
use crate::collide::Status;
use crate::collide::cso::Cso;
use crate::collide::gjk;
use crate::collide::simplex::Simplex;
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

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
pub(super) fn advance<T: Real>(
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
    let mut restarted = false;
    for step in 0..MAX_ITERS {
        let cso = start.shifted(motion * t);
        let warm_started = !simplex.is_empty();
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
        // A warm start can leave GJK stuck on a simplex it cannot improve (a
        // repeated support, bounds far apart): its direction is no normal,
        // and a miss decided from it can be wrong. Decide again from a cold GJK.
        let miss = closing <= T::ZERO || t + distance / closing > T::ONE;
        if miss && core.status == Status::Degenerate && !restarted && warm_started {
            rec::text!("warm-started gjk degenerate: deciding the miss again from a cold start");
            restarted = true;
            simplex = Simplex::new();
            continue;
        }
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
