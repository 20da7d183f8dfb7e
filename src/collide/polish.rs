//! Polishing a penetration normal. The depth is `min over unit n of h(n)`,
//! `h(n) = s(n) · n` the support-plane depth of the configuration-space
//! object `A − B` (origin inside). EPA's polytope and MPR's portals find the
//! minimising `n` only to about the square root of their depth tolerance
//! (~1e-4 rad in f64 on curved cores); this module refines it from such a
//! start to ~1e-10 rad.
//!
//! The tangential part of `s(n)` is h's derivative on the unit sphere, so
//! the search is a sequence of line searches along great circles on the
//! *sign* of that derivative (bracketing, then Illinois' regula falsi):
//! smooth minima (two curved features) converge superlinearly, and a kink
//! (a ruled feature, such as a cylinder's side, whose support jumps between
//! the two ends of a segment) is found to the angle tolerance. Across a kink
//! the next search runs along it (perpendicular to the segment), otherwise
//! along a conjugate direction (Polak–Ribière). A face of the CSO (a sharp
//! minimum) stops the search at once: EPA's face normal is already exact.

use super::simplex::CsoPoint;
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// The most line searches one polish makes.
const MAX_LINES: u32 = 40;
/// The most support evaluations one polish makes (a sample moved back
/// onto a kink may add four).
pub(crate) const MAX_EVALUATIONS: u32 = 600;

/// The line searches' angle tolerance (radians, as `tan θ`).
pub(crate) fn angle_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(1e-6),
        rec::Precision::F64 => T::from_f64(1e-10),
    }
}

/// How much a polished direction's depth may exceed the start's: rounding,
/// and what a direction left on a kink within the angle tolerance costs
/// (the normal is worth more than the last 1e-9 of the depth, which stays a
/// true upper bound: `h` of the reported normal).
pub(crate) fn slack<T: Real>(scale: T) -> T {
    (T::EPSILON * T::from_f64(64.0) + angle_tol::<T>() * T::from_f64(16.0)) * scale
}

/// A polished normal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Polished<T: Real> {
    /// Unit normal: the direction of least support-plane depth found.
    pub normal: V3<T>,
    /// `h(normal)`, the support-plane depth along it: an upper bound of the
    /// true depth.
    pub depth: T,
    /// The witnesses: the support point along `normal`, or across a kink
    /// the point of the support segment nearest `depth · normal`.
    pub point: CsoPoint<T>,
    /// Support evaluations made.
    pub evaluations: u32,
}

/// A line search's end: the direction, its support point and, when the
/// search ended on a jump of the support, the point on the other side.
struct LineEnd<T: Real> {
    n: V3<T>,
    p: CsoPoint<T>,
    h: T,
    across: Option<CsoPoint<T>>,
    moved: T,
}

/// The direction minimising `h` near `n0` (unit), whose support point is
/// `p0`. `step` is the expected angle error of `n0` (the first trial step),
/// `scale` the shapes' size (for rounding thresholds). Never returns a
/// direction whose depth exceeds `h(n0)` by more than [`slack`].
pub(crate) fn polish<T: Real>(
    s: &impl Fn(V3<T>) -> CsoPoint<T>,
    n0: V3<T>,
    p0: CsoPoint<T>,
    step: T,
    scale: T,
) -> Polished<T> {
    let noise = T::EPSILON * T::from_f64(64.0) * scale;
    let mut evaluations = 0;
    let h0 = n0.dot(p0.w);
    let mut best = Polished {
        normal: n0,
        depth: h0,
        point: p0,
        evaluations: 0,
    };
    let (mut n, mut p) = (n0, p0);
    let mut kink: Option<V3<T>> = None;
    // The support point on the kink's other side.
    let mut across: Option<CsoPoint<T>> = None;
    let mut last: Option<(V3<T>, V3<T>)> = None;
    let mut still = 0;
    let mut step = step.max(angle_tol::<T>() * T::from_f64(4.0));
    for _ in 0..MAX_LINES {
        let g = p.w - n * n.dot(p.w);
        let dir = match kink {
            // Along the kink: perpendicular to the support segment.
            Some(e) => n
                .cross(e)
                .try_normalize()
                .map(|t| if t.dot(p.w) > T::ZERO { -t } else { t }),
            None => conjugate::<T>(g, n, last),
        };
        let Some(t) = dir else { break };
        if t.dot(p.w) >= -noise {
            // No descent along t: a minimum along it (to rounding).
            still += 1;
            if still >= 2 || kink.is_none() && g.length() <= noise {
                break;
            }
            kink = None;
            last = None;
            continue;
        }
        let along = kink.is_some();
        let anchor = if along { across } else { None };
        let Some(end) = line(s, n, p, t, anchor, step, noise, scale, &mut evaluations) else {
            break;
        };
        step = (end.moved * T::TWO).max(angle_tol::<T>() * T::from_f64(4.0));
        still = if end.moved <= angle_tol::<T>() {
            still + 1
        } else {
            0
        };
        last = Some((g, t));
        // After a search along a kink, cross it again (a cone's kink is
        // not a great circle); after one across, follow it.
        kink = if along {
            None
        } else {
            end.across.and_then(|q| {
                let d = q.w - end.p.w;
                (d - end.n * end.n.dot(d)).try_normalize()
            })
        };
        across = if along { None } else { end.across };
        if kink.is_some() {
            last = None;
        }
        (n, p) = (end.n, end.p);
        // The latest direction is the most precise; kept while its depth
        // stays within the slack of the start's (no creeping upwards).
        if end.h <= h0 + slack(scale) {
            best = Polished {
                normal: end.n,
                depth: end.h,
                point: witness(end.n, end.h, end.p, end.across),
                evaluations: 0,
            };
        }
        if still >= 2 || evaluations >= MAX_EVALUATIONS {
            break;
        }
    }
    best.evaluations = evaluations;
    best
}

/// The descent direction at `n` from the gradient `g` (tangential support
/// part) and the previous gradient and direction, Polak–Ribière (restarted
/// when not a descent direction); `None` at a stationary point.
fn conjugate<T: Real>(g: V3<T>, n: V3<T>, last: Option<(V3<T>, V3<T>)>) -> Option<V3<T>> {
    let sd = -g;
    let d = match last {
        Some((g0, t0)) if g0.length_squared() > T::ZERO => {
            let beta = (g.dot(g - g0) / g0.length_squared()).max(T::ZERO);
            let t0 = t0 - n * n.dot(t0);
            let d = sd + t0 * (beta * g0.length());
            if d.dot(g) < T::ZERO { d } else { sd }
        }
        _ => sd,
    };
    (d - n * n.dot(d)).try_normalize()
}

/// The witnesses of a line search's end: across a kink, the point of the
/// segment between the two support points nearest the foot `h · n`.
fn witness<T: Real>(n: V3<T>, h: T, p: CsoPoint<T>, across: Option<CsoPoint<T>>) -> CsoPoint<T> {
    let Some(q) = across else { return p };
    let d = q.w - p.w;
    let dd = d.length_squared();
    if dd <= T::ZERO {
        return p;
    }
    let k = ((n * h - p.w).dot(d) / dd).max(T::ZERO).min(T::ONE);
    CsoPoint {
        w: p.w + d * k,
        a: p.a + (q.a - p.a) * k,
        b: p.b + (q.b - p.b) * k,
        local_a: p.local_a + (q.local_a - p.local_a) * k,
        local_b: p.local_b + (q.local_b - p.local_b) * k,
    }
}

/// One sample of a line search: the direction `normalize(n + τ t)`, its
/// support point, and the sign-carrying derivative of `h` along the circle.
#[derive(Clone, Copy)]
struct Sample<T: Real> {
    tau: T,
    n: V3<T>,
    p: CsoPoint<T>,
    slope: T,
}

/// The line search from `n` (support `p`) along the great circle towards
/// `t` (unit, tangent, a descent direction): brackets the first sign change
/// of the derivative, then narrows it to the angle tolerance. With an
/// `anchor` (the support point across a kink) each sample is moved back
/// onto the kink, the directions perpendicular to the segment from the
/// anchor to its support point (a cone's kink is no great circle), and the
/// derivative is taken along the kink.
#[allow(clippy::too_many_arguments)]
fn line<T: Real>(
    s: &impl Fn(V3<T>) -> CsoPoint<T>,
    n: V3<T>,
    p: CsoPoint<T>,
    t: V3<T>,
    anchor: Option<CsoPoint<T>>,
    step: T,
    noise: T,
    scale: T,
    evaluations: &mut u32,
) -> Option<LineEnd<T>> {
    // Across a kink: the latest support points on this side and the other.
    let mut sides = anchor.map(|o| (p, o));
    let mut sample = |tau: T| {
        if *evaluations >= MAX_EVALUATIONS {
            return None;
        }
        *evaluations += 1;
        let m = (n + t * tau).try_normalize()?;
        let q = s(m);
        let Some((near, far)) = sides.as_mut() else {
            return Some(Sample {
                tau,
                n: m,
                p: q,
                slope: q.w.dot(t - n * tau),
            });
        };
        let (m, e) = onto_kink(s, m, q, (near, far), scale, evaluations)?;
        // The support at the sample itself, so that `h` is a true bound.
        *evaluations += 1;
        let q = s(m);
        let along = m.cross(e);
        let along = if along.dot(t) < T::ZERO {
            -along
        } else {
            along
        };
        Some(Sample {
            tau,
            n: m,
            p: q,
            slope: q.w.dot(along),
        })
    };
    let tol = angle_tol::<T>();
    let mut lo = Sample {
        tau: T::ZERO,
        n,
        p,
        slope: p.w.dot(t),
    };
    // A probe at the tolerance: a kink or a minimum right here.
    let mut hi = sample(tol)?;
    if hi.slope < T::ZERO {
        lo = hi;
        let mut tau = step.max(tol * T::from_f64(4.0));
        loop {
            let x = sample(tau)?;
            if x.slope >= T::ZERO {
                hi = x;
                break;
            }
            lo = x;
            tau *= T::from_f64(4.0);
            if tau > T::ONE {
                // No sign change within 45°: keep the furthest descent.
                return Some(end(lo, None, n));
            }
        }
        // Illinois: regula falsi halving the stale end's slope.
        let (mut flo, mut fhi) = (lo.slope, hi.slope);
        let mut side = 0i8;
        for _ in 0..48 {
            if hi.tau - lo.tau <= tol * (T::ONE + lo.tau) {
                break;
            }
            let w = hi.tau - lo.tau;
            let mut tau = lo.tau - flo * w / (fhi - flo);
            let guard = w * T::from_f64(0.02);
            if !(tau > lo.tau + guard && tau < hi.tau - guard) {
                tau = lo.tau + w * T::HALF;
            }
            let x = sample(tau)?;
            if x.slope.abs() <= noise {
                return Some(end(x, None, n));
            }
            if x.slope < T::ZERO {
                lo = x;
                flo = x.slope;
                if side == -1 {
                    fhi *= T::HALF;
                }
                side = -1;
            } else {
                hi = x;
                fhi = x.slope;
                if side == 1 {
                    flo *= T::HALF;
                }
                side = 1;
            }
        }
    }
    // The bracket is within the tolerance: a jump of the support across it
    // is a kink (a smooth support moves by about `scale` per radian).
    let jump = (hi.p.w - lo.p.w).length();
    let smooth = (hi.tau - lo.tau) * scale * T::from_f64(16.0) + noise;
    let (h_lo, h_hi) = (lo.n.dot(lo.p.w), hi.n.dot(hi.p.w));
    let (near, far) = if h_lo <= h_hi { (lo, hi) } else { (hi, lo) };
    Some(end(near, (jump > smooth).then_some(far.p), n))
}

/// Direction `m` (support `q`) moved back onto a kink: perpendicular to the
/// segment between the two sides' support points (`near`, `far`, updated),
/// taken a hair to either side of `m` once it is close, so both ends belong
/// to the same generator. Returns the direction and the segment's unit
/// direction.
fn onto_kink<T: Real>(
    s: &impl Fn(V3<T>) -> CsoPoint<T>,
    mut m: V3<T>,
    q: CsoPoint<T>,
    (near, far): (&mut CsoPoint<T>, &mut CsoPoint<T>),
    scale: T,
    evaluations: &mut u32,
) -> Option<(V3<T>, V3<T>)> {
    let delta = angle_tol::<T>() * T::from_f64(16.0);
    let side = |q: CsoPoint<T>, near: &mut CsoPoint<T>, far: &mut CsoPoint<T>| {
        if (q.w - near.w).length_squared() <= (q.w - far.w).length_squared() {
            *near = q;
        } else {
            *far = q;
        }
    };
    side(q, near, far);
    let mut e = (far.w - near.w).try_normalize()?;
    for _ in 0..6 {
        m = (m - e * m.dot(e)).try_normalize()?;
        *evaluations += 2;
        let (qp, qm) = (
            s((m + e * delta).try_normalize()?),
            s((m - e * delta).try_normalize()?),
        );
        let d = qp.w - qm.w;
        if d.length() > scale * T::from_f64(1e-6) {
            // Both sides: the segment at this very direction.
            (*far, *near) = (qp, qm);
            let k = (d - m * m.dot(d)).try_normalize()?;
            let settled = (k - e).length() <= angle_tol::<T>();
            e = k;
            if settled {
                break;
            }
        } else {
            // One side only: move towards the other along the old segment.
            side(qp, near, far);
            e = (far.w - near.w).try_normalize().unwrap_or(e);
        }
    }
    Some((m, e))
}

/// The line search's result at sample `x`, started from `n`.
fn end<T: Real>(x: Sample<T>, across: Option<CsoPoint<T>>, n: V3<T>) -> LineEnd<T> {
    LineEnd {
        n: x.n,
        p: x.p,
        h: x.n.dot(x.p.w),
        across,
        moved: (x.n - n).length(),
    }
}
