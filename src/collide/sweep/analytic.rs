//! Closed-form sweeps of spheres and points.

use super::witness::placed;
use super::{Sweep, SweepError, overlapping, record_hit};
use crate::collide::answer;
use crate::collide::gjk::rel_tol;
use crate::collide::input::{self, l1};
use crate::collide::{Status, Witness};
use crate::real::{Real, V3, Vector};
use crate::shape::{Geom, Placed, Shape};
use cspace_recorder as rec;

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
    analytic_applies(a.shape, b.shape)?;
    if let Some(out) = input::indirect(
        a,
        b,
        motion,
        || Ok(Sweep::invalid()),
        |s, a, b, m| analytic(a, m, b).map(|r| s.sweep(r)),
    ) {
        return out;
    }
    let query = rec::enter_query();
    let out = {
        rec::shapes!(a, b, motion);
        let _scope = rec::scope!("analytic sphere sweep");
        sphere_sphere(a, motion, b)
    };
    answer::sweep(&query, a, motion, &out);
    Ok(out)
}

/// Whether both cores are single points (spheres, points): the closed form applies.
pub(super) fn point_cores<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> bool {
    let point = |p: &Placed<'_, T>| matches!(p.shape.geom, Geom::Point | Geom::Sphere { .. });
    point(a) && point(b)
}

/// Whether [`analytic`] sweeps these shapes (both a sphere or a point),
/// without sweeping or recording anything: query validation asks.
///
/// # Errors
/// [`SweepError::Unsupported`] naming the first shape that is neither.
pub fn analytic_applies<T: Real>(a: &Shape<T>, b: &Shape<T>) -> Result<(), SweepError> {
    let check = |s: &Shape<T>, which: &'static str| {
        let shape = match s.geom {
            Geom::Point | Geom::Sphere { .. } => return Ok(()),
            Geom::Box { .. } => "box",
            Geom::Capsule { .. } => "capsule",
            Geom::Cylinder { .. } => "cylinder",
            Geom::Cone { .. } => "cone",
            Geom::Hull { .. } => "hull",
        };
        Err(SweepError::Unsupported { which, shape })
    };
    check(a, "a")?;
    check(b, "b")
}

/// The closed-form sweep of two point cores (spheres, points; with margins).
/// Exact to rounding: the bracket is the toi ± that rounding, and the
/// contact points are the centres pushed out by the radii along the normal.
pub(super) fn sphere_sphere<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
) -> Sweep<T> {
    let (ra, rb) = (a.shape.radius(), b.shape.radius());
    let r = ra + rb;
    // Sphere-relative: the bug class this guards against takes P·P from the raw point.
    let p = a.pose.position - b.pose.position;
    let c = p.dot(p) - r * r;
    let surfaces = |centre: V3<T>, n: V3<T>| (centre + n * ra, b.pose.position - n * rb);
    rec::value!("c = |P|² − R²", c);
    if c <= T::ZERO {
        rec::text!("overlapping at t = 0");
        let n = (-p)
            .try_normalize()
            .unwrap_or_else(|| motion.try_normalize().unwrap_or(V3::<T>::Y));
        let s = overlapping(Sweep::exact(T::ZERO, n, surfaces(a.pose.position, n), 0));
        record_hit(&s);
        return s;
    }
    let aa = motion.dot(motion);
    let half_b = p.dot(motion);
    // b'² − a·c = |m|²R² − |P × m|² (Lagrange's identity), written so that
    // a grazing miss does not cancel two large terms: (P·m)² − |m|²|P|²
    // loses √ε·|P| of the closest approach and turned such misses into hits.
    let cross = p.cross(motion);
    let disc = aa * r * r - cross.dot(cross);
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
    // The bracket is the toi ± its rounding (a few ulps of the relative
    // position, the motion and the radii, in distance over the closing
    // speed; `P` itself is one correctly rounded difference): `Converged`
    // while that stays within the touching tolerance, which f32 cannot
    // keep along a long motion or far apart.
    // (Sums of absolute coordinates bound the lengths without a root.)
    let err = T::from_f64(4.0) * T::EPSILON * (l1::<T>(p) + l1::<T>(motion) + r);
    // From the relative position, as the root: far from the origin the
    // absolute positions round by more than the radii. Radii within that
    // rounding leave the centres' offset at contact (`R` long) all
    // rounding: the contact is head-on to it, along the motion (two
    // points met with the normal (−1, 0, 0), 1.5 rad off it, `Unique`).
    let n = (r > err)
        .then(|| (-(p + motion * toi)).try_normalize())
        .flatten()
        .unwrap_or_else(|| motion.try_normalize().unwrap_or(V3::<T>::Y));
    rec::point!("A at impact", centre, rec::Rgba::RED);
    let closing = n.dot(motion);
    // Relative to the shapes' size; two points have none, and touch only
    // on an exact line: relative to their distance then.
    let size = a.shape.scale().max(b.shape.scale());
    let size = if size > T::ZERO { size } else { l1::<T>(p) };
    let tol = T::from_f64(4.0) * rel_tol::<T>() * size;
    let widen = if closing > T::ZERO {
        err / closing
    } else {
        T::ZERO
    };
    let (lower, upper) = ((toi - widen).max(T::ZERO), (toi + widen).min(T::ONE));
    // The bracket closes no more than `2·err` (clamping only narrows it);
    // a grazing contact (no closing speed) has no width to bound.
    let tight = closing > T::ZERO && T::TWO * err <= tol;
    // A converged answer reports the lower end (A never passes the
    // contact), with A's contact point there.
    let at = if tight { lower } else { toi };
    // The contact points are A's at `at`, within how far A moves over the
    // bracket of the contact: `Unique` where that is at most half the
    // witness tolerance, as for every sweep (f32 along grazing motions:
    // 1.4e-4 of the size off, `Unique`).
    let slide = (upper - lower) * motion.length();
    let unique = tight && placed(slide, size);
    let s = Sweep {
        toi_lower: lower,
        toi_upper: upper,
        status: if tight {
            Status::Converged
        } else {
            Status::Degenerate
        },
        witness: Some(if unique {
            Witness::Unique
        } else {
            Witness::Approximate
        }),
        ..Sweep::exact(at, n, surfaces(a.pose.position + motion * at, n), 0)
    };
    record_hit(&s);
    s
}
