//! MPR on the swept CSO `(A − B) + [0, 1]·motion`: decide a hit, then cast
//! along the motion to the far side.

use super::advance::advance;
use super::certify::{Found, certify};
use super::{Sweep, initial};
use crate::collide::Status;
use crate::collide::answer;
use crate::collide::cso::{Cso, CsoSupport};
use crate::collide::input;
use crate::collide::mpr::{self, Mode, Origin};
use crate::collide::simplex::{CsoPoint, Simplex};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// MPR on the swept CSO ("Thoughts on shape casting", 2010). The swept CSO
/// `K = (A − B) + [0, 1]·motion` holds the origin iff A hits B during the
/// motion, which MPR decides. On a hit, MPR casts from the origin along the
/// motion to the far side of `K` (started from an interior point on the ray
/// behind the origin, in `K` extended backwards); the far side is
/// `A − B + motion`, so the distance `s` found there gives `toi = 1 − s`.
pub fn swept_mpr<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
    if let Some(out) = input::indirect(a, b, motion, Sweep::invalid, |s, a, b, m| {
        s.sweep(swept_mpr(a, m, b))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = {
        rec::shapes!(a, b, motion);
        let _scope = rec::scope!("swept mpr");
        swept(a, motion, b)
    };
    answer::sweep(&query, a, motion, &out);
    out
}

fn swept<T: Real>(a: &Placed<'_, T>, motion: V3<T>, b: &Placed<'_, T>) -> Sweep<T> {
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
        Origin::Separated { axis, separation } => {
            // A miss is proven by a plane with the whole swept CSO beyond
            // the tolerance on one side: the portal's bound, or the support
            // along its axis (a grazing motion's portal can end without one).
            let gap = separation.max(-swept_support(axis).w.dot(axis));
            iterations += 1;
            if gap > tol {
                rec::text!("miss: the swept CSO excludes the origin");
                return Sweep::miss(iterations, test.status);
            }
            rec::text!(
                "the swept CSO's separating plane is not proven off the origin: conservative advancement decides"
            );
            let start = Cso::for_sweep(a, b);
            return advance(
                (a, b, &start),
                motion,
                (T::ZERO, iterations),
                (&Simplex::new(), None),
            );
        }
        Origin::Degenerate => return degenerate(a, motion, b, iterations),
        Origin::Inside { .. } => {}
    }
    let mlen = motion.length();
    if mlen <= size * T::EPSILON {
        return initial(a, motion, b, (iterations, false));
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
        return initial(a, motion, b, (iterations, false));
    }
    let toi = (T::ONE - s).max(T::ZERO);
    // The portal's normal is the contact normal to √(tolerance) on curved
    // surfaces: certify polishes it at the toi.
    let cso = Cso::for_sweep(a, b);
    let found = Found {
        toi,
        normal: cso.pose_a.rotation.inverse_rotate(normal),
        near: &[],
        iterations,
        status: ray.status,
    };
    certify(&cso, motion, &found)
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
    let start = Cso::for_sweep(a, b);
    let mut s = advance(
        (a, b, &start),
        motion,
        (T::ZERO, iterations),
        (&Simplex::new(), None),
    );
    s.status = Status::Degenerate;
    s
}
