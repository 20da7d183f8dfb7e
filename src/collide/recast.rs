//! MPR's penetration search, as the seed post "Greetings from the inside!"
//! describes it, with a certificate it lacked.
//!
//! 1. **Re-cast**: cast a ray from the origin (inside the CSO) along the
//!    current estimate, take the normal of the portal where it leaves the
//!    CSO, cast again along that normal, until the normal stops changing.
//!    Each step lowers the support-plane depth `h(n) = s(n) · n`: the ray
//!    along `n` leaves the CSO at most `h` of the previous normal away, so
//!    the search ends in a local minimum of `h`.
//! 2. **Edge tracing**: tilt the direction just past each edge of the last
//!    portal, re-cast from there and keep the best; repeat while it helps.
//! 3. The normal is then polished on the supports ([`polish`]), and the
//!    answer is **certified** by a lower bound: the distance from the origin
//!    to the nearest face of the convex polytope of the support points the
//!    search met (plus a ring around the normal), which lies inside the CSO.
//!    With [`Search::Certified`] the polytope is expanded as in EPA until the
//!    bounds meet; a face whose support plane is lower than the answer
//!    proves it a local minimum, and the search re-casts from there.
//!
//! An answer is [`Status::Converged`] only when `upper − lower` meets the
//! same tolerance as EPA's; otherwise [`Status::LocalMinimum`]: its depth is
//! `h` along its normal (an upper bound) and its lower bound what the
//! polytope proved.

use super::Status;
use super::contact;
use super::epa::{self, Penetration};
use super::mpr::{self, Mode, Origin};
use super::polish::{self, angle_tol, polish};
use super::polytope::{Polytope, ring};
use super::simplex::CsoPoint;
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// How far [`mpr::penetration_with`](super::mpr::penetration_with) searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Re-cast along the portal normal until it converges (the seed's
    /// first method), then polish and bound.
    Recast,
    /// Also trace the edges of the last portal (the seed's third method).
    Edges,
    /// Also expand the certificate's polytope until the bounds meet,
    /// re-casting from any lower support plane it finds (the default).
    Certified,
}

/// The most re-casts in one descent.
const MAX_RECASTS: u32 = 12;
/// The most rounds of edge tracing.
const MAX_ROUNDS: u32 = 2;
/// The most polytope expansions of the certificate.
const MAX_EXPANSIONS: u32 = 64;
/// The most restarts from a lower support plane the certificate found.
const MAX_RESTARTS: u32 = 3;
/// The support evaluations after which the search starts no new step
/// (a step under way may add up to `polish::MAX_EVALUATIONS` + 4).
pub(crate) const BUDGET: u32 = 2048;
/// The most support points kept for the certificate.
const MAX_GATHERED: usize = 128;

/// A local minimum found: the normal, its depth `h`, the support point (or
/// polished witnesses) and the portal it came from.
#[derive(Clone, Copy, Debug)]
struct Found<T: Real> {
    n: V3<T>,
    h: T,
    p: CsoPoint<T>,
    portal: [CsoPoint<T>; 3],
}

/// The search's state: the support, tolerances and what it has met.
struct Walk<'s, T: Real, S: Fn(V3<T>) -> CsoPoint<T>> {
    sup: &'s S,
    /// The portal's absolute tolerance and the CSO's size.
    portal_tol: (T, T),
    /// The shapes' scale (as EPA's).
    scale: T,
    /// Rounding of a support-plane depth.
    noise: T,
    gathered: Vec<CsoPoint<T>>,
    evaluations: u32,
    recording: bool,
}

impl<T: Real, S: Fn(V3<T>) -> CsoPoint<T>> Walk<'_, T, S> {
    fn support(&mut self, d: V3<T>) -> CsoPoint<T> {
        self.evaluations += 1;
        (self.sup)(d)
    }

    fn gather(&mut self, p: CsoPoint<T>) {
        if self.gathered.len() < MAX_GATHERED {
            self.gathered.push(p);
        }
    }

    /// The portal where the ray from the origin along `n` leaves the CSO,
    /// and its normal.
    fn cast(&mut self, n: V3<T>) -> Option<([CsoPoint<T>; 3], V3<T>)> {
        if self.evaluations >= BUDGET {
            return None;
        }
        let _cast = rec::scope!("mpr re-cast", self.recording);
        // MPR casts from an interior point through the origin: one a hair
        // behind the origin makes the ray the origin's along `n`.
        let eps = self.portal_tol.1 * mpr::portal_rel::<T>();
        let v0 = CsoPoint::new(V3::<T>::ZERO, n * eps);
        let r = mpr::portal(self.sup, v0, self.portal_tol, Mode::Surface);
        self.evaluations += r.iterations;
        match r.origin {
            Origin::Inside { portal, normal } => {
                for p in portal {
                    self.gather(p);
                }
                Some((portal, normal))
            }
            _ => None,
        }
    }

    /// Re-casts from `n` until the portal normal stops lowering `h`.
    fn descend(&mut self, n: V3<T>) -> Option<Found<T>> {
        let mut n = n;
        let mut best: Option<Found<T>> = None;
        for _ in 0..MAX_RECASTS {
            let Some((portal, m)) = self.cast(n) else {
                break;
            };
            let p = self.support(m);
            let h = m.dot(p.w);
            if self.recording {
                rec::line!(cso "re-cast normal", V3::<T>::ZERO, m * h, rec::Rgba::GREEN);
                rec::value!("mpr depth", h);
                rec::pause!("re-cast");
            }
            if best.is_some_and(|b| h >= b.h - self.noise) {
                break;
            }
            best = Some(Found { n: m, h, p, portal });
            if (m - n).length() <= angle_tol::<T>() {
                break;
            }
            n = m;
        }
        best
    }

    /// Tilts past each edge of the best portal and re-casts from there,
    /// keeping the best, while that lowers `h`.
    fn trace(&mut self, mut best: Found<T>) -> Found<T> {
        for _ in 0..MAX_ROUNDS {
            let w = best.portal.map(|p| p.w);
            let area = (w[1] - w[0]).cross(w[2] - w[0]).length();
            let tilts: [Option<V3<T>>; 3] = if area > self.noise * self.scale {
                [(0, 1, 2), (1, 2, 0), (2, 0, 1)].map(|(i, j, k)| {
                    let mid = (w[i] + w[j]) * T::HALF;
                    (mid + (mid - w[k]) * T::HALF).try_normalize()
                })
            } else {
                // A point portal: tilt a quarter radian three ways instead.
                let r = ring(best.n, T::from_f64(0.25));
                [Some(r[0]), Some(r[2]), Some(r[4])]
            };
            let mut improved: Option<Found<T>> = None;
            for d in tilts.into_iter().flatten() {
                if self.recording {
                    rec::line!(cso "edge tilt", V3::<T>::ZERO, d * best.h, rec::Rgba::ORANGE);
                }
                // Compared polished: a slow re-cast on a curved side may
                // stop well above its basin's minimum.
                if let Some(c) = self.descend(d).map(|c| self.polished(c))
                    && c.h < improved.map_or(best.h - self.noise, |x| x.h)
                {
                    improved = Some(c);
                }
            }
            match improved {
                Some(c) => best = c,
                None => break,
            }
        }
        best
    }

    /// `f` with its normal polished on the supports.
    fn polished(&mut self, f: Found<T>) -> Found<T> {
        if self.evaluations >= BUDGET {
            return f;
        }
        let step = (T::from_f64(8.0) * mpr::portal_rel::<T>()).sqrt();
        let p = polish(self.sup, f.n, f.p, step, self.scale);
        self.evaluations += p.evaluations;
        if p.depth <= f.h + polish::slack(self.scale) {
            Found {
                n: p.normal,
                h: p.depth,
                p: p.point,
                portal: f.portal,
            }
        } else {
            f
        }
    }

    /// The certificate's lower bound for `best` (which it may replace by a
    /// lower minimum it finds), from the polytope of the tetrahedron `start`
    /// (holding the origin) and the points met.
    fn certify(&mut self, start: [CsoPoint<T>; 4], best: &mut Found<T>, search: Search) -> T {
        let tol = epa::rel_tol::<T>() * self.scale;
        let mut poly = Polytope::new(&start);
        let inside = start.iter().fold(V3::<T>::ZERO, |s, p| s + p.w) * T::from_f64(0.25);
        let lower = if poly.close(&[[0, 1, 2], [0, 3, 1], [1, 3, 2], [0, 2, 3]], inside)
            && poly.nearest().is_some_and(|d| d > T::ZERO)
        {
            self.bound(&mut poly, best, search, tol)
        } else {
            T::ZERO
        };
        poly.recycle();
        lower
    }

    /// [`certify`](Self::certify) on a closed polytope holding the origin;
    /// `T::ZERO` if it breaks.
    fn bound(&mut self, poly: &mut Polytope<T>, best: &mut Found<T>, search: Search, tol: T) -> T {
        let gathered = std::mem::take(&mut self.gathered);
        let whole = gathered.iter().all(|&p| poly.add(p).is_some());
        self.gathered = gathered;
        if !whole || !self.add_ring(poly, best) {
            return T::ZERO;
        }
        let mut lower = poly.nearest().unwrap_or(T::ZERO);
        let mut restarts = 0;
        let expansions = if search == Search::Certified {
            MAX_EXPANSIONS
        } else {
            0
        };
        for _ in 0..expansions {
            if best.h - lower <= tol || self.evaluations >= BUDGET {
                break;
            }
            let Some(f) = poly.closest() else { break };
            let face = poly.faces[f];
            let q = self.support(face.n);
            if self.recording {
                poly.record_world(f);
                rec::value!("mpr lower bound", lower);
                rec::pause!("certificate");
            }
            if face.n.dot(q.w) < best.h - tol && restarts < MAX_RESTARTS {
                // A lower support plane: the answer was a local minimum.
                restarts += 1;
                rec::text!("certificate: a lower support plane, re-casting from it");
                if let Some(c) = self.descend(face.n).map(|c| self.polished(c))
                    && c.h < best.h
                {
                    *best = c;
                    if !self.add_ring(poly, best) {
                        return lower;
                    }
                }
            }
            match poly.add(q) {
                Some(true) => {}
                Some(false) => break,
                None => return lower,
            }
            lower = poly.nearest().unwrap_or(lower);
        }
        lower.max(T::ZERO)
    }

    /// Adds `best`'s support point and a ring around its normal to `poly`;
    /// `false` if the polytope broke.
    fn add_ring(&mut self, poly: &mut Polytope<T>, best: &Found<T>) -> bool {
        let alpha = (epa::rel_tol::<T>()).sqrt();
        if self.evaluations >= BUDGET || poly.add(best.p).is_none() {
            return false;
        }
        ring(best.n, alpha).into_iter().all(|d| {
            let q = self.support(d);
            poly.add(q).is_some()
        })
    }
}

/// MPR's penetration of two overlapping shapes whose centre-line portal is
/// `first` (normal `normal`), from the interior point `v0`; `sup` is the CSO
/// support relative to A's position at `origin`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search<T: Real>(
    sup: &impl Fn(V3<T>) -> CsoPoint<T>,
    v0: CsoPoint<T>,
    first: ([CsoPoint<T>; 3], V3<T>),
    portal_tol: (T, T),
    scale: T,
    origin: V3<T>,
    iterations: u32,
    search: Search,
) -> Penetration<T> {
    let mut walk = Walk {
        sup,
        portal_tol,
        scale,
        noise: T::EPSILON * T::from_f64(64.0) * portal_tol.1,
        gathered: Vec::with_capacity(MAX_GATHERED),
        evaluations: iterations,
        recording: rec::ENABLED && rec::is_on(),
    };
    let (portal, normal) = first;
    for p in portal {
        walk.gather(p);
    }
    let p = walk.support(normal);
    let start = Found {
        n: normal,
        h: normal.dot(p.w),
        p,
        portal,
    };
    rec::text!("mpr: centre-line portal, depth {:?}; re-casting", start.h);
    let mut best = walk
        .descend(normal)
        .filter(|f| f.h < start.h)
        .unwrap_or(start);
    best = walk.polished(best);
    if search != Search::Recast {
        best = walk.trace(best);
    }
    let lower = walk
        .certify([v0, portal[0], portal[1], portal[2]], &mut best, search)
        .min(best.h);
    let tol = epa::rel_tol::<T>() * scale;
    let status = if best.h - lower <= tol {
        Status::Converged
    } else {
        Status::LocalMinimum
    };
    rec::text!(
        "mpr penetration: {status:?}, depth {:?}, lower bound {lower:?}, {} evaluations",
        best.h,
        walk.evaluations
    );
    rec::line!(cso "depth", V3::<T>::ZERO, best.n * best.h, rec::Rgba::GREEN);
    // The support point is any point of the support feature: take the pair
    // on the features nearest `depth · normal` instead (see `contact`).
    let ((point_a, point_b), used) = contact::pair(
        sup,
        (best.n, best.h),
        (best.p.a, best.p.b),
        &best.portal,
        tol,
    );
    walk.evaluations += used;
    epa::settle(Penetration {
        depth: best.h.max(T::ZERO),
        normal: best.n,
        point_a: point_a + origin,
        point_b: point_b + origin,
        lower_bound: lower.max(T::ZERO),
        upper_bound: best.h.max(T::ZERO),
        intersecting: true,
        iterations: walk.evaluations,
        status,
        // The search's certificate bounds the depth, not the normal.
        normal_within: crate::collide::aim::bound(crate::collide::aim::NONE),
    })
}
