//! Minkowski Portal Refinement (`XenoCollide`, G. Snethen, *Game Programming
//! Gems 7*, 2008): a boolean intersection test, and the penetration search
//! of the seed post "Greetings from the inside!" (re-casts along the portal
//! normal, edge tracing) with a certificate (the `recast` module).
//!
//! MPR works on the configuration-space object (CSO) `A − B`. It takes an
//! interior point `v0` (the difference of the shapes' centres) and looks for
//! a *portal*: a triangle of support points that the ray from `v0` through the
//! origin crosses. Refining the portal towards the CSO's boundary along that
//! ray either puts the origin inside the tetrahedron `v0, portal` (the shapes
//! intersect) or finds a support plane with the origin outside (they don't).
//!
//! Unlike libccd, every loop is bounded by [`MAX_ITERS`], and degenerate
//! configurations (origin at `v0`, depth 0, collinear or flat portals,
//! zero-size shapes) never divide by zero: they either have a closed-form
//! answer or fall back to GJK/EPA with [`Status::Degenerate`].
//!
//! The portal core is shared with [`crate::sweep::swept_mpr`], which runs it on
//! the swept CSO with a ray that is not the centre ray.

use super::Status;
use super::cso::CsoSupport;
use super::epa::{self, Penetration};
use super::gjk::{self, Overlap};
use super::input;
use super::recast;
pub use super::recast::Search;
use super::simplex::CsoPoint;
use crate::collide::answer;
use crate::real::{Real, V3, Vector};
use crate::shape::{Geom, Placed};
use cspace_recorder as rec;

/// Bound on the portal discovery and the portal refinement loops (each).
pub const MAX_ITERS: u32 = 128;

/// The most support evaluations one [`penetration`] makes: the centre-line
/// portal, the bounded search (re-casts, edge tracing, polishing, the
/// certificate) and EPA when the certificate falls short.
pub const MAX_PENETRATION_EVALUATIONS: u32 = MAX_INSIDE_EVALUATIONS + epa::MAX_EVALUATIONS;

/// The most support evaluations the search from inside makes (the portal
/// and the bounded search, as `recast_inside` runs them).
pub const MAX_INSIDE_EVALUATIONS: u32 =
    2 * (2 * MAX_ITERS + 3) + recast::BUDGET + super::polish::MAX_EVALUATIONS + 16;

/// Where the portal search found the origin relative to the CSO.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Origin<T: Real> {
    /// The origin is outside the CSO: `axis` (unit) has every CSO point `x`
    /// with `x · axis ≤ 0`, so it points from A towards B.
    Separated {
        /// Separating direction, unit.
        axis: V3<T>,
        /// A lower bound of the origin's distance from the CSO along `axis`
        /// (≤ 0 when only the direction is known).
        separation: T,
    },
    /// The origin is inside: `portal` is the final portal (on the boundary
    /// where the ray leaves the CSO, when refined to the surface) and
    /// `normal` its unit outward normal.
    Inside {
        /// The portal triangle.
        portal: [CsoPoint<T>; 3],
        /// Unit outward normal of the portal.
        normal: V3<T>,
    },
    /// A portal collapsed numerically: the caller must use another method.
    Degenerate,
}

/// A portal search: where the origin is, support evaluations and how it ended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PortalSearch<T: Real> {
    /// Where the origin is.
    pub origin: Origin<T>,
    /// Support evaluations.
    pub iterations: u32,
    /// `Converged`, or `MaxIterations` if a loop hit [`MAX_ITERS`].
    pub status: Status,
}

/// Whether to stop as soon as the origin is known to be inside, or to refine
/// the portal onto the CSO's boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Stop at the first portal with the origin behind it.
    Boolean,
    /// Keep refining until the portal lies on the surface (within `tol`).
    Surface,
}

/// A point inside the shape, relative to its position, in world orientation:
/// its centre, or the mean of a hull's points.
pub(crate) fn centre_offset<T: Real>(p: &Placed<'_, T>) -> V3<T> {
    match &p.shape.geom {
        Geom::Hull(hull) => p.pose.transform_vector(hull.centroid()),
        _ => V3::<T>::ZERO,
    }
}

/// Relative tolerance of the portal: ε^¾ (≈ 1.8e-12 in f64, 6.4e-6 in f32).
pub(crate) fn rel_tol<T: Real>() -> T {
    (T::EPSILON * T::EPSILON.sqrt()).sqrt()
}

/// Relative tolerance of the portal's distance to the surface: √ε / 64
/// (2.3e-10 in f64, 5.4e-6 in f32). On curved surfaces the portal's gap
/// shrinks with the square of its size, so a tighter one costs many
/// refinements for no gain in the depth.
pub(crate) fn portal_rel<T: Real>() -> T {
    T::EPSILON.sqrt() / T::from_f64(64.0)
}

/// The absolute portal tolerance for two shapes and their size: [`portal_rel`]
/// times their size and separation, so it is invariant to scale and translation.
pub(crate) fn tolerance<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> (T, T) {
    let size = a.shape.scale() + b.shape.scale() + interior(a, b).w.max_abs();
    // Zero only for two points at one place (small queries run scaled):
    // any unit does then.
    let size = if size > T::ZERO { size } else { T::ONE };
    (portal_rel::<T>() * size, size)
}

/// Whether `n`, a cross product of vectors of length ≈ `len`, is numerically zero.
#[inline]
fn negligible<T: Real>(n: V3<T>, len: T) -> bool {
    let eps = T::EPSILON * T::from_f64(16.0) * len * len;
    n.length_squared() <= eps * eps || n.try_normalize().is_none()
}

/// Runs MPR from the interior point `v0` towards the origin on the support
/// function `s`. `tol` is the absolute surface tolerance and `size` the
/// CSO's size (for the degeneracy thresholds).
#[allow(clippy::too_many_lines)]
pub(crate) fn portal<T: Real>(
    s: &impl Fn(V3<T>) -> CsoPoint<T>,
    mut v0: CsoPoint<T>,
    (tol, size): (T, T),
    mode: Mode,
) -> PortalSearch<T> {
    let mut iterations = 0;
    let mut sup = |d: V3<T>| {
        iterations += 1;
        s(d)
    };
    let len = size;
    // One check of the recorder per query; the loops' drawing sits under it.
    let recording = rec::ENABLED && rec::is_on();
    if v0.w.length_squared() <= (len * T::EPSILON) * (len * T::EPSILON) {
        // The origin is the interior point itself: any ray from v0 works.
        rec::text!("origin at v0: nudging v0 along -x");
        v0.w = V3::<T>::X * (-len * portal_rel::<T>());
    }
    rec::point!(cso "v0", v0.w, rec::Rgba::GREY);

    // Phase 1: portal discovery.
    let mut n = -v0.w;
    let mut v1 = sup(n);
    rec::point!(cso "v1", v1.w, rec::Rgba::RED);
    if v1.w.dot(n) <= T::ZERO {
        return separated(n, v1.w, iterations);
    }
    n = v1.w.cross(v0.w);
    if negligible(n, len) {
        // The origin lies on the segment v0–v1, and v1 is the support along
        // the ray: v1 is where the ray leaves the CSO, and the support plane
        // there is normal to the ray (libccd's `findPenetrSegment`).
        rec::text!("origin on the segment v0-v1: v1 is on the surface along the ray");
        let normal = (-v0.w).try_normalize().unwrap_or(V3::<T>::X);
        return search(
            Origin::Inside {
                portal: [v1, v1, v1],
                normal,
            },
            iterations,
            Status::Converged,
        );
    }
    let v2 = sup(n);
    rec::point!(cso "v2", v2.w, rec::Rgba::RED);
    if v2.w.dot(n) <= T::ZERO {
        return separated(n, v2.w, iterations);
    }
    let mut v2 = v2;
    n = (v1.w - v0.w).cross(v2.w - v0.w);
    if n.dot(v0.w) > T::ZERO {
        std::mem::swap(&mut v1, &mut v2);
        n = -n;
    }
    for _ in 0..MAX_ITERS {
        if negligible(n, len) {
            rec::text!("degenerate portal during discovery");
            return search(Origin::Degenerate, iterations, Status::Degenerate);
        }
        let v3 = sup(n);
        if recording {
            rec::triangle!(cso "candidate portal", v1.w, v2.w, v3.w, rec::Rgba::GREY);
        }
        if v3.w.dot(n) <= T::ZERO {
            return separated(n, v3.w, iterations);
        }
        if v1.w.cross(v3.w).dot(v0.w) < T::ZERO {
            v2 = v3;
            n = (v1.w - v0.w).cross(v3.w - v0.w);
            continue;
        }
        if v3.w.cross(v2.w).dot(v0.w) < T::ZERO {
            v1 = v3;
            n = (v3.w - v0.w).cross(v2.w - v0.w);
            continue;
        }
        let mut portal = [v1, v2, v3];
        // Once the origin is behind a portal the shapes intersect, whatever
        // rounding does to later portals.
        let mut hit = false;
        // Phase 2: portal refinement.
        for _ in 0..MAX_ITERS {
            let [p1, p2, p3] = portal;
            if recording {
                rec::triangle!(cso "portal", p1.w, p2.w, p3.w, rec::Rgba::YELLOW);
            }
            let Some(normal) = (p2.w - p1.w).cross(p3.w - p1.w).try_normalize() else {
                rec::text!("portal collapsed");
                return search(Origin::Degenerate, iterations, Status::Degenerate);
            };
            let inside = normal.dot(p1.w) >= T::ZERO;
            hit |= inside;
            if inside && mode == Mode::Boolean {
                rec::text!("origin inside the portal: intersecting");
                return search(
                    Origin::Inside { portal, normal },
                    iterations,
                    Status::Converged,
                );
            }
            let v4 = sup(normal);
            if recording {
                rec::point!(cso "support", v4.w, rec::Rgba::RED);
                rec::pause!("refine");
            }
            let d4 = v4.w.dot(normal);
            if !hit && d4 < T::ZERO {
                rec::text!("support plane separates the origin");
                return separated(normal, v4.w, iterations);
            }
            let gap = (d4 - p1.w.dot(normal))
                .min(d4 - p2.w.dot(normal))
                .min(d4 - p3.w.dot(normal));
            if recording {
                rec::value!("portal gap", gap);
            }
            if gap <= tol || v4.w == p1.w || v4.w == p2.w || v4.w == p3.w {
                if hit {
                    rec::text!("portal on the surface: gap {gap:?}");
                    return search(
                        Origin::Inside { portal, normal },
                        iterations,
                        Status::Converged,
                    );
                }
                rec::text!("portal on the surface, origin outside");
                return separated(normal, v4.w, iterations);
            }
            let t = v4.w.cross(v0.w);
            portal = if p1.w.dot(t) > T::ZERO {
                if p2.w.dot(t) > T::ZERO {
                    [v4, p2, p3]
                } else {
                    [p1, p2, v4]
                }
            } else if p3.w.dot(t) > T::ZERO {
                [p1, v4, p3]
            } else {
                [v4, p2, p3]
            };
        }
        // Refinement bound hit: report the last portal.
        let [p1, p2, p3] = portal;
        rec::text!("refinement hit MAX_ITERS");
        return match (p2.w - p1.w).cross(p3.w - p1.w).try_normalize() {
            Some(normal) if hit => search(
                Origin::Inside { portal, normal },
                iterations,
                Status::MaxIterations,
            ),
            Some(normal) => PortalSearch {
                origin: Origin::Separated {
                    axis: normal,
                    separation: T::ZERO,
                },
                iterations,
                status: Status::MaxIterations,
            },
            None => search(Origin::Degenerate, iterations, Status::Degenerate),
        };
    }
    rec::text!("discovery hit MAX_ITERS");
    search(Origin::Degenerate, iterations, Status::MaxIterations)
}

fn search<T: Real>(origin: Origin<T>, iterations: u32, status: Status) -> PortalSearch<T> {
    PortalSearch {
        origin,
        iterations,
        status,
    }
}

/// The origin is outside: `support` is the CSO's support point along `n`.
fn separated<T: Real>(n: V3<T>, support: V3<T>, iterations: u32) -> PortalSearch<T> {
    rec::text!("miss: separating axis found");
    let (axis, separation) = match n.try_normalize() {
        Some(axis) => (axis, -support.dot(axis)),
        None => (V3::<T>::X, T::ZERO),
    };
    search(
        Origin::Separated { axis, separation },
        iterations,
        Status::Converged,
    )
}

/// The interior CSO point MPR starts from: centre of A minus centre of B
/// (relative to A's position, as [`cso_support`]).
pub(crate) fn interior<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> CsoPoint<T> {
    CsoPoint::new(
        centre_offset(a),
        centre_offset(b) + (b.pose.position - a.pose.position),
    )
}

/// Whether `a` and `b` intersect, with the same answer as [`gjk::intersect`]
/// (touching within the GJK tolerance counts): the portal answers when it is
/// certain — the origin behind the portal, or a separating plane in front of
/// it, by more than GJK's touching tolerance plus rounding — and GJK decides
/// the rest (near touching, or a portal collapsing numerically, then marked
/// [`Status::Degenerate`]). Two boxes without margins are decided by the
/// separating axis test first, as in [`gjk::intersect`].
pub fn intersect<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Overlap {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Overlap::invalid, |_, a, b, _| {
        intersect(a, b)
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = (|| {
        rec::shapes!(a, b);
        if let Some(intersecting) = super::centers::overlapping(a, b) {
            rec::text!("a point core: decided in closed form");
            return Overlap {
                intersecting,
                iterations: 1,
                status: Status::Converged,
            };
        }
        if let Some(intersecting) = super::boxes::intersect(a, b) {
            rec::text!("box–box: the separating axis test decided, intersecting: {intersecting}");
            return Overlap {
                intersecting,
                iterations: 0,
                status: Status::Converged,
            };
        }
        let _scope = rec::scope!("mpr intersect");
        let (tol, size) = tolerance(a, b);
        let support = CsoSupport::new(a, b);
        let r = portal(
            &|d| support.at(d),
            interior(a, b),
            (tol, size),
            Mode::Boolean,
        );
        // GJK's touching tolerance, and what rounding can do to a support point's
        // projection (a few ulps of the CSO's size).
        let touching = gjk::rel_tol::<T>() * a.shape.scale().max(b.shape.scale());
        let rounding = T::EPSILON * T::from_f64(64.0) * size;
        let certain = match r.origin {
            Origin::Separated { separation, .. } if separation > touching + rounding => Some(false),
            Origin::Inside { portal, normal } if normal.dot(portal[0].w) > touching + rounding => {
                Some(true)
            }
            _ => None,
        };
        if let Some(intersecting) = certain {
            rec::text!("intersecting: {intersecting}");
            Overlap {
                intersecting,
                iterations: r.iterations,
                status: r.status,
            }
        } else {
            let degenerate = matches!(r.origin, Origin::Degenerate);
            rec::text!("near touching or degenerate: GJK decides");
            let g = gjk::intersect(a, b);
            Overlap {
                intersecting: g.intersecting,
                iterations: r.iterations + g.iterations,
                status: if degenerate {
                    Status::Degenerate
                } else {
                    g.status
                },
            }
        }
    })();
    answer::intersect(&query, out);
    out
}

/// The penetration of `a` and `b` by MPR ([`Search::Certified`]): the
/// centre-line portal, then the seed's re-casts along the portal normal and
/// edge tracing to a local minimum of the support-plane depth, a polished
/// normal, and a certificate from the polytope of the support points met,
/// expanded until the bounds meet (see the `recast` module). `Converged`
/// only when certified within EPA's tolerance; otherwise
/// [`Status::LocalMinimum`] with the depth an upper bound and the proven
/// lower bound. Apart shapes get depth 0, the separating axis as normal and
/// the supports along it as points. Falls back to [`epa::penetration`] with
/// [`Status::Degenerate`] when a portal collapses.
pub fn penetration<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Penetration<T> {
    penetration_with(a, b, Search::Certified)
}

/// [`penetration`] searching only as far as `search` says (the seed's
/// stages, for measuring them).
pub fn penetration_with<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    search: Search,
) -> Penetration<T> {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Penetration::invalid, |s, a, b, _| {
        s.penetration(penetration_with(a, b, search))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = {
        rec::shapes!(a, b);
        let _scope = rec::scope!("mpr penetration");
        searched(a, b, search)
    };
    answer::penetration(&query, &out);
    out
}

/// [`penetration`] without declaring the shapes (for queries that declared theirs).
pub(crate) fn penetration_unrecorded<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
) -> Penetration<T> {
    searched(a, b, Search::Certified)
}

/// [`penetration_with`] without declaring the shapes.
fn searched<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, search: Search) -> Penetration<T> {
    let origin = a.pose.position;
    let tol = tolerance(a, b);
    let support = CsoSupport::new(a, b);
    let sup = |d| support.at(d);
    let v0 = interior(a, b);
    let r = portal(&sup, v0, tol, Mode::Surface);
    // Apart for certain: by more than GJK's gap tolerance plus rounding.
    let apart = gjk::rel_tol::<T>() * a.shape.scale().max(b.shape.scale())
        + T::EPSILON * T::from_f64(64.0) * tol.1;
    match r.origin {
        Origin::Separated { separation, .. } if separation <= apart => {
            rec::text!("separated near touching: GJK and EPA decide");
            let mut e = epa::penetration(a, b);
            e.iterations += r.iterations;
            e
        }
        Origin::Separated { axis, .. } => Penetration {
            depth: T::ZERO,
            normal: axis,
            point_a: a.support(axis),
            point_b: b.support(-axis),
            lower_bound: T::ZERO,
            upper_bound: T::ZERO,
            intersecting: false,
            iterations: r.iterations,
            status: r.status,
            // A separating axis, not the closest points' direction.
            normal_within: super::aim::bound(super::aim::NONE),
        },
        Origin::Inside { portal, normal } => {
            let scale = a.shape.scale().max(b.shape.scale());
            let m = recast::search(
                &sup,
                v0,
                (portal, normal),
                tol,
                scale,
                origin,
                r.iterations,
                search,
            );
            if search == Search::Certified && m.status == Status::LocalMinimum {
                confirmed(a, b, m, scale)
            } else {
                m
            }
        }
        Origin::Degenerate => {
            rec::text!("degenerate: falling back to EPA");
            let mut e = epa::penetration(a, b);
            e.iterations += r.iterations;
            e.status = Status::Degenerate;
            e
        }
    }
}

/// MPR's search from inside alone (the centre-line portal, the seed's
/// re-casts and edge tracing, its polish and polytope certificate; no EPA),
/// `None` where the portal does not find the origin inside. EPA's answers
/// shallower than its tolerance ask it for a shallower face (see
/// [`epa::penetration`]).
pub(crate) fn recast_inside<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
) -> Option<Penetration<T>> {
    let tol = tolerance(a, b);
    let support = CsoSupport::new(a, b);
    let sup = |d| support.at(d);
    let v0 = interior(a, b);
    let r = portal(&sup, v0, tol, Mode::Surface);
    let Origin::Inside { portal, normal } = r.origin else {
        return None;
    };
    let scale = a.shape.scale().max(b.shape.scale());
    let at = (a.pose.position, r.iterations);
    Some(recast::search(
        &sup,
        v0,
        (portal, normal),
        tol,
        scale,
        at.0,
        at.1,
        Search::Certified,
    ))
}

/// An uncertified MPR answer `m` confirmed by EPA's lower bound, or EPA's
/// answer when its depth is lower (MPR ended in a local minimum).
fn confirmed<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    m: Penetration<T>,
    scale: T,
) -> Penetration<T> {
    rec::text!("mpr: not certified by its polytope; EPA bounds it");
    let e = epa::penetration(a, b);
    let iterations = m.iterations + e.iterations;
    let tol = epa::rel_tol::<T>() * scale;
    if e.intersecting && e.depth < m.depth - tol {
        rec::text!(
            "mpr ended in a local minimum: EPA's depth {:?} is lower",
            e.depth
        );
        return Penetration { iterations, ..e };
    }
    let lower = m.lower_bound.max(e.lower_bound.min(m.depth));
    let status = if m.depth - lower <= tol {
        Status::Converged
    } else {
        Status::LocalMinimum
    };
    // EPA's normal bound holds for MPR's normal, widened by their angle.
    let within = super::aim::moved(e.normal_within, e.normal, m.normal);
    Penetration {
        lower_bound: lower,
        iterations,
        status,
        normal_within: m.normal_within.min(within),
        ..m
    }
}
