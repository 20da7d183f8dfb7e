//! Conservative advancement: GJK distance, then advance by the distance over
//! the closing speed, warm-started.

use super::certify::{Found, certify};
use super::{MAX_ITERS, Sweep, fallback_normal, gjk_tol, initial, toi_tol};
use crate::collide::Status;
use crate::collide::answer;
use crate::collide::cso::Cso;
use crate::collide::gjk;
use crate::collide::input::{self, l1};
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
    if let Some(out) = input::indirect(a, b, motion, Sweep::invalid, |s, a, b, m| {
        s.sweep(conservative_advancement(a, m, b))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = {
        rec::shapes!(a, b, motion);
        let _scope = rec::scope!("conservative advancement");
        let start = Cso::for_sweep(a, b);
        advance(
            (a, b, &start),
            motion,
            (T::ZERO, 0),
            (&Simplex::new(), None),
        )
    };
    answer::sweep(&query, a, motion, &out);
    out
}

/// Conservative advancement from `t0` (a lower bound of the toi), having
/// already spent `iterations`. `warm` is a simplex of CSO points to start
/// GJK from (only their local support points are used: they are re-placed
/// at `t0`), empty for a cold start; `last` is the world normal known so
/// far, if any. `start` is the CSO of `a` and `b` at t = 0. The hit is
/// certified at the toi found ([`certify`]).
///
/// Each step runs GJK on the cores directly, in A's frame, and converts
/// to world space only at the end: a sweep needs the distance and normal
/// of each step, not its world closest points.
pub(super) fn advance<T: Real>(
    (a, b, start): (&Placed<'_, T>, &Placed<'_, T>, &Cso<'_, T>),
    motion: V3<T>,
    (t0, iterations): (T, u32),
    (warm, mut last): (&Simplex<T>, Option<V3<T>>),
) -> Sweep<T> {
    let d_local = start.pose_a.rotation.inverse_rotate(motion);
    let r = start.radius();
    // Not below the rounding of A's position along the path: a sphere
    // 1e-17 in radius on a point's exact path was stepped onto, 1e-16
    // past its centre, and read as moving apart (a `Converged` miss).
    let rounding = T::from_f64(4.0) * T::EPSILON * (l1::<T>(start.offset()) + l1::<T>(d_local) + r);
    let tol = gjk_tol(start).max(rounding);
    let target = T::from_f64(4.0) * tol;
    let recording = rec::ENABLED && rec::is_on();
    let mut simplex = *warm;
    let mut t = t0;
    let mut iterations = iterations;
    let mut restarted = false;
    // The simplex, status, distance, time and normal of the round whose
    // last step extrapolated to the contact, until the next round checks it.
    let mut pending = None;
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
        if let Some((near, status, before, t_before, normal)) = pending.take() {
            // The contact the last step reached, certified from the gap's
            // side, where GJK's normal is the contact normal. Unless the
            // distance rose on the way: the path passed the closest
            // approach, and the last round's time, within the tolerance of
            // contact, is the contact (a contact ahead would have the
            // distance fall all the way to it).
            let rose = apart && dc - r > target.max(before);
            rec::text!("the extrapolated contact stands: {}", !rose);
            let at = if rose { t_before } else { t };
            return certified(start, motion, at, normal, &near, iterations, status);
        }
        if !apart {
            if step == 0 && t == T::ZERO {
                return initial(a, motion, b, (iterations, true));
            }
            let normal = last.unwrap_or_else(|| touching(&cso, &simplex, &core));
            return certified(start, motion, t, normal, &simplex, iterations, core.status);
        }
        // Unit normal from A to B in A's frame: the core distance vector is a − b.
        let n = gjk::face_normal(&simplex, core.v).unwrap_or(-core.v / dc);
        // The step and a miss stand on the support plane along `n`: its gap
        // must be the distance. GJK's `|v|` is an upper bound of the
        // distance; converged, the plane along `n` is within the tolerance
        // of it, but a stalled GJK's need not separate at all (a needle's
        // apex onto a plate 4e-8 thick: |v| 2.7e-9, the plane's gap
        // −9.9e-8, and the step passed the whole contact, a `Converged`
        // miss). Measure the plane's gap with one more support.
        let distance = if core.status == Status::Converged {
            dc - r
        } else {
            let gap = -n.dot(cso.support(n).w) - r;
            if gap < dc - r - tol && warm_started && !restarted {
                rec::text!("stalled gjk's plane does not separate by its distance: cold start");
                restarted = true;
                simplex = Simplex::new();
                continue;
            }
            if gap <= tol {
                rec::text!("stalled gjk's plane does not separate: contact");
                let normal = last.unwrap_or_else(|| cso.world_vector(n));
                return certified(start, motion, t, normal, &simplex, iterations, core.status);
            }
            gap.min(dc - r)
        };
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
        let normal = cso.world_vector(n);
        // A GJK that stalled (not converged) has a poor normal: keep the last good one.
        if core.status == Status::Converged || last.is_none() {
            last = Some(normal);
        }
        if dt <= toi_tol::<T>() {
            // The last step, to where the support plane's gap closes,
            // which the next round checks: the plane's zero comes no later
            // than a contact, the distance being convex in t, but a path
            // that passes by within the tolerance has none there (two f32
            // points 1.7e-7 apart at t, their closest approach, were
            // called hit 3.1e-5 apart at the plane's zero).
            pending = Some((simplex, core.status, distance, t, last.unwrap_or(normal)));
            t += to_contact;
            continue;
        }
        t += dt;
    }
    rec::text!("advancement hit MAX_ITERS");
    let normal = last.unwrap_or_else(|| fallback_normal(a, b));
    certified(
        start,
        motion,
        t,
        normal,
        &Simplex::new(),
        iterations,
        Status::MaxIterations,
    )
}

/// The hit found at `toi` with world `normal` and GJK's last `simplex`, certified.
fn certified<T: Real>(
    start: &Cso<'_, T>,
    motion: V3<T>,
    toi: T,
    normal: V3<T>,
    simplex: &Simplex<T>,
    iterations: u32,
    status: Status,
) -> Sweep<T> {
    let found = Found {
        toi,
        normal: start.pose_a.rotation.inverse_rotate(normal),
        near: simplex.points(),
        iterations,
        status,
    };
    certify(start, motion, &found)
}

/// The world normal of cores found touching (within the radii) or
/// overlapping: as [`gjk::distance`] reports it.
fn touching<T: Real>(cso: &Cso<'_, T>, simplex: &Simplex<T>, core: &gjk::CoreResult<T>) -> V3<T> {
    let dc = core.v.length();
    if !core.overlap() && dc > T::ZERO {
        cso.world_vector(gjk::face_normal(simplex, core.v).unwrap_or(-core.v / dc))
    } else {
        cso.world_vector(gjk::fallback_direction(cso))
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
