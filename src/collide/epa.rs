//! Penetration depth: GJK on the cores, then the expanding polytope algorithm
//! (EPA, van den Bergen 2001) when the cores overlap.
//!
//! A shape is a core plus a radius, and the configuration-space object of the
//! full shapes is the cores' one grown by the sum of the radii. So:
//! - cores apart but within the radii: depth = radii − core separation along
//!   the separation's normal (GJK's, polished on curved cores as the
//!   distance query's is), exact for polytope and point cores;
//! - cores overlapping: depth = the cores' EPA depth + radii, same normal.
//!
//! EPA starts from whatever GJK ended with (1 to 4 points) and blows it up to
//! a polytope around the origin. Flat or lower-dimensional core CSOs
//! (touching, face-to-face contact, crossing segments) are answered directly:
//! their depth is 0. The polytope grows by one support point per iteration,
//! bounded by [`MAX_ITERS`]; the depth returned is the best *upper* bound
//! found, so moving B by `depth · normal` always separates the shapes (up to
//! rounding). The polytope keeps its faces convex: a face whose plane holds
//! the new point, or whose edge would make a sliver with it, is replaced too.
//!
//! Two boxes are first tried with the separating axis test
//! (`sat::box_box_contact`), exact and without GJK or EPA unless near
//! touching or with parallel edges.
//!
//! Polytope cores converge exactly: once the bounds meet the tolerance EPA
//! goes on (at most 16 expansions) until its nearest face is a face of the
//! CSO to rounding, since a face within the tolerance of the least depth
//! tilts by up to tolerance / width off the least depth's normal (a hull's
//! vertex in a plate 2.4e-7 thick: 7e-3 rad). Curved cores converge linearly, slowly
//! when the optimum lies on a cylinder's side (its support points are all on
//! the rims), and the best face's normal is then only ~√(depth tolerance)
//! ≈ 1e-4 rad accurate. So on a curved minimum EPA polishes its normal on
//! the supports (`polish`: to ~1e-10 rad where it is unique) and adds a ring
//! of support points around it to the polytope, which closes the bounds:
//! `Converged` means `upper − lower ≤ 1e-8 × scale` (f64). A few in 10 000
//! random pairs still end with [`Status::MaxIterations`] or
//! [`Status::Degenerate`] and a depth that is a valid upper bound.

use super::Status;
use super::aim;
use super::contact;
use super::cso::Cso;
use super::gjk;
use super::input;
use super::mpr;
use super::polish::{polish, slack};
use super::polytope::{Polytope, Start, blow_up, ring};
use super::sat;
use super::shallow;
use super::simplex::CsoPoint;
use super::simplex::Simplex;
use super::witness::{self, Witness};
use crate::collide::answer;
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// The most polytope expansions one EPA query makes.
pub const MAX_ITERS: u32 = 128;

/// The most support evaluations EPA adds after its expansions: polishing
/// the normal on curved cores and the ring of support points that bounds it.
pub const MAX_POLISH: u32 = super::polish::MAX_EVALUATIONS + 4 + 7;

/// The most support evaluations one [`penetration`] makes (its
/// `iterations`): GJK, the expansions, the polish and, for an answer
/// within twice the tolerance, MPR's search from inside and the support
/// sets' faces (`shallow`), and the support sets' bound on a loosely
/// bounded normal.
pub const MAX_EVALUATIONS: u32 = gjk::MAX_ITERS
    + MAX_ITERS
    + MAX_POLISH
    + mpr::MAX_INSIDE_EVALUATIONS
    + shallow::MAX_EVALUATIONS
    + shallow::SETS_EVALUATIONS;

/// The relative tolerance on the depth: EPA stops when the gap between its
/// bounds is below `REL × scale`.
#[inline]
pub(crate) fn rel_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(2.4e-5),
        rec::Precision::F64 => T::from_f64(1e-8),
    }
}

/// The penetration of two shapes.
///
/// The contact-point contract: when `intersecting`, `point_a − point_b =
/// depth · normal` up to rounding (a few ULPs of the points' magnitude), for
/// every method ([`penetration`], [`mpr::penetration`](super::mpr::penetration))
/// and every path (closed form, separating axes, EPA): the two points are
/// the witnesses' midpoint ± `depth · normal / 2`, so they sit on A and B up to
/// the depth's own tolerance. When apart (depth 0) they are the closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<T: Real> {
    /// How far B must move along `normal` to separate (≥ 0; 0 when apart).
    pub depth: T,
    /// Unit vector from A towards B.
    pub normal: V3<T>,
    /// The deepest point of A along `normal` (world space); when apart, the closest point on A.
    pub point_a: V3<T>,
    /// The deepest point of B along `−normal` (world space); when apart, the closest point on B.
    /// `point_a − point_b = depth · normal` (up to rounding) when intersecting.
    pub point_b: V3<T>,
    /// The certificate: the true depth (the least translation that separates)
    /// lies in `[lower_bound, upper_bound]`, to rounding. EPA's lower bound is
    /// its polytope's closest face (or, where GJK's cores may be apart, the
    /// radii less its closest points' distance), its upper bound `depth`; closed forms and
    /// the separating-axis test give `lower_bound = upper_bound = depth`.
    /// MPR proves no lower bound: its `lower_bound` is 0.
    pub lower_bound: T,
    /// See [`lower_bound`](Self::lower_bound); equals `depth`, except where
    /// GJK called the shapes apart without proving it (depth 0, its lower
    /// bound on their distance 0): there the depth along `normal`, which the
    /// true depth cannot exceed.
    pub upper_bound: T,
    /// Whether the shapes overlap or touch (within tolerance).
    pub intersecting: bool,
    /// GJK support evaluations plus EPA expansions.
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
    /// A certified bound, in radians, on the angle between `normal` and
    /// every direction of least depth (when apart, the closest points'
    /// direction): the normal is unique and within it where it is small.
    /// `π` where the answer proves nothing about its normal: two directions
    /// tie (a box centred in a box), a flat contact, MPR's own search. EPA
    /// takes it from its polytope (the module `aim`): on polytope cores
    /// rounding over the contact face's width; on a curved minimum about
    /// `√(2 · gap / depth)` of its depth bracket, unless a face of the
    /// support sets lies under it (a rim or a cylinder's side on a box).
    pub normal_within: T,
}

impl<T: Real> Penetration<T> {
    /// The answer to input the query refused ([`Status::InvalidInput`]):
    /// every number NaN.
    pub(crate) fn invalid() -> Self {
        let (nan, v) = super::input::nans::<T>();
        Self {
            depth: nan,
            normal: v,
            point_a: v,
            point_b: v,
            lower_bound: nan,
            upper_bound: nan,
            intersecting: false,
            iterations: 0,
            status: Status::InvalidInput,
            normal_within: nan,
        }
    }
}

/// The penetration depth, normal and contact points of `a` and `b`.
pub fn penetration<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Penetration<T> {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Penetration::invalid, |s, a, b, _| {
        s.penetration(penetration(a, b))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = (|| {
        rec::shapes!(a, b);
        if let Some(c) = gjk::Centers::of(a, b) {
            return c.penetration(a, b);
        }
        let cso = Cso::new(a, b);
        if let Some(p) = box_box(&cso) {
            return settle(p);
        }
        let p = gjk_epa(&cso);
        settle(boxes_if_degenerate(&cso, shallow::checked(a, b, &cso, p)))
    })();
    answer::penetration(&query, &out);
    out
}

/// `a` and `b` moved along `normal` to the witnesses' midpoint ± `depth ·
/// normal / 2`, so that `a − b = depth · normal` up to rounding.
pub(crate) fn split<T: Real>(a: V3<T>, b: V3<T>, normal: V3<T>, depth: T) -> (V3<T>, V3<T>) {
    let mid = (a + b) * T::HALF;
    let half = normal * (depth * T::HALF);
    (mid + half, mid - half)
}

/// `p` with its contact points on the contract of [`Penetration`] (when
/// intersecting; apart shapes keep their closest points). Shapes touching
/// within the tolerance from just apart have depth 0, not the negative
/// gap their supports read (two boxes 1e-13 apart read −1e-13).
pub(crate) fn settle<T: Real>(p: Penetration<T>) -> Penetration<T> {
    if !p.intersecting {
        return p;
    }
    let depth = p.depth.max(T::ZERO);
    let (point_a, point_b) = split(p.point_a, p.point_b, p.normal, depth);
    Penetration {
        depth,
        point_a,
        point_b,
        lower_bound: p.lower_bound.max(T::ZERO).min(depth),
        upper_bound: p.upper_bound.max(depth),
        ..p
    }
}

/// Two boxes whose EPA polytope degenerated (nearly parallel faces break it
/// with the bounds far apart): the least overlap over the separating axes, a
/// tighter upper bound, when it is below EPA's.
fn boxes_if_degenerate<T: Real>(cso: &Cso<'_, T>, p: Penetration<T>) -> Penetration<T> {
    if p.status != Status::Degenerate || !p.intersecting {
        return p;
    }
    let Some((ha, hb, axes)) = cso.boxes() else {
        return p;
    };
    let Some((overlap, n)) = sat::box_box_overlap_bound::<T>(ha, hb, axes, cso.offset()) else {
        return p;
    };
    let depth: T = overlap + cso.radius();
    if depth.partial_cmp(&p.depth) != Some(std::cmp::Ordering::Less) {
        return p;
    }
    rec::text!("epa degenerate on two boxes: separating axes give depth {depth:?}");
    // The cores' pair on their support features, then the margins.
    let s = cso.support(n);
    let tol = rel_tol::<T>() * cso.scale;
    let ((a, b), used) = contact::pair(&|d| cso.support(d), (n, overlap), (s.a, s.b), &[], tol);
    Penetration {
        depth,
        normal: cso.world_vector(n),
        point_a: cso.world_point(a + n * cso.radius_a),
        point_b: cso.world_point(b - n * cso.radius_b),
        lower_bound: p.lower_bound.min(depth),
        upper_bound: depth,
        iterations: p.iterations + 1 + used,
        normal_within: aim::bound(sat::box_box_normal_within(
            (ha, hb, axes, cso.offset()),
            n,
            -overlap,
        )),
        // The tighter upper bound may close the bracket.
        status: if depth - p.lower_bound.min(depth) <= rel_tol::<T>() * cso.scale {
            Status::Converged
        } else {
            p.status
        },
        ..p
    }
}

/// Two boxes (with or without margins): the separating axis test's exact
/// answer when it is certain (see [`sat::box_box_contact`]); `None` leaves
/// the pair to GJK and EPA. Near the full shapes' touching tolerance GJK
/// decides too, so `intersecting` always agrees with [`gjk::distance`].
fn box_box<T: Real>(cso: &Cso<'_, T>) -> Option<Penetration<T>> {
    let (ha, hb, axes) = cso.boxes()?;
    let tol = gjk::rel_tol::<T>() * cso.scale;
    let c = sat::box_box_contact(ha, hb, axes, cso.offset(), tol)?;
    let r = cso.radius();
    if (c.sep - r - tol).abs() <= tol {
        return None;
    }
    let within = sat::box_box_normal_within((ha, hb, axes, cso.offset()), c.normal, c.sep);
    let apart = c.sep - r > tol;
    let depth = if apart {
        T::ZERO
    } else {
        (r - c.sep).max(T::ZERO)
    };
    rec::text!(
        "box–box: separating axis test, core separation {:?}, depth {depth:?}",
        c.sep
    );
    Some(Penetration {
        depth,
        normal: cso.world_vector(c.normal),
        point_a: cso.world_point(c.point_a + c.normal * cso.radius_a),
        point_b: cso.world_point(c.point_b - c.normal * cso.radius_b),
        lower_bound: depth,
        upper_bound: depth,
        intersecting: !apart,
        iterations: 0,
        status: Status::Converged,
        normal_within: aim::bound(within),
    })
}

/// [`penetration`] without the box–box shortcut, for the unit tests of the
/// `sat` module.
#[cfg(test)]
pub(crate) fn gjk_epa_for_tests<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Penetration<T> {
    gjk_epa(&Cso::new(a, b))
}

/// The penetration of shapes the distance query found touching or
/// overlapping, going on from its GJK state (`simplex`, `core`) instead of
/// running GJK again: the signed distance's second half. Boxes take the
/// separating axis test as [`penetration`] does.
pub(crate) fn penetration_after<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &gjk::CoreResult<T>,
) -> Penetration<T> {
    if let Some(p) = box_box(cso) {
        return settle(p);
    }
    let p = epa_after(cso, simplex, core, true);
    settle(boxes_if_degenerate(cso, p))
}

/// GJK on the cores, then EPA when they overlap. GJK runs as the distance
/// query's does for its witnesses: cores apart within the radii take its
/// normal (f32 polytope cores stopped at the gap tolerance gave a hull
/// with a margin on a small box a `Unique` normal 7.4e-3 rad off).
fn gjk_epa<T: Real>(cso: &Cso<'_, T>) -> Penetration<T> {
    let mut simplex = Simplex::new();
    let mut core = gjk::run_for_witnesses(cso, &mut simplex);
    let touching = gjk::touches(cso, &mut simplex, &mut core, None);
    epa_after(cso, &simplex, &core, touching)
}

/// The penetration from GJK's final `simplex` and result `core`, the
/// shapes `touching` or not as [`gjk::touches`] decided: from the radii
/// when the cores are apart, else EPA.
fn epa_after<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &gjk::CoreResult<T>,
    touching: bool,
) -> Penetration<T> {
    let r = cso.radius();
    let (ca, cb) = simplex.closest_points();
    let dc = core.v.length();
    if dc > T::ZERO && (!touching || !core.overlap()) {
        // The cores' separation, its normal polished as the distance
        // query's is (GJK's alone is ~√tolerance off on curved cores).
        let sep = gjk::separation(cso, simplex, core);
        let n = sep.normal;
        let apart = !touching;
        // What moving B along n needs: the radii minus the cores' separation
        // along n (the certified lower bound for this very normal).
        let depth = if apart {
            T::ZERO
        } else {
            (r + n.dot(cso.support(n).w)).max(T::ZERO)
        };
        rec::text!("cores apart by {dc:?}: depth {depth:?} from the radii");
        // The closest points are points of the cores: their distance bounds
        // the cores' separation from above, so the depth from below.
        let lower = (r - (sep.a - sep.b).length()).max(T::ZERO).min(depth);
        // GJK that did not prove the shapes apart (its bounds straddled
        // touching: not `Converged`, or its lower bound within the radii)
        // leaves the depth along n as the bound from above (a box's corner
        // 2e-10 into the narrow face of a plate 9e-10 thick read apart by
        // 2.1e-10, the bracket [0, 0]).
        let upper = if apart && (core.status != Status::Converged || core.lower <= r) {
            (r + n.dot(cso.support(n).w)).max(T::ZERO)
        } else {
            depth
        };
        return Penetration {
            depth,
            normal: cso.world_vector(n),
            point_a: cso.world_point(sep.a + n * cso.radius_a),
            point_b: cso.world_point(sep.b - n * cso.radius_b),
            lower_bound: lower,
            upper_bound: upper,
            intersecting: !apart,
            iterations: core.iterations + sep.evaluations + 1,
            status: held(core.status, upper - lower, cso),
            // The distance witness's normal is the least depth's only for
            // cores proven apart: cores GJK read apart by rounding may
            // overlap, least along another direction (f32 cone on a box,
            // 6.4e-7 deep along a normal 0.81 rad from it).
            normal_within: if sep.lower > T::ZERO {
                aim::witnessed(sep.witness)
            } else {
                aim::bound(aim::NONE)
            },
        };
    }
    let mut e = expand(cso, simplex, (ca, cb));
    if cso.curved() && dc > T::ZERO && e.depth <= rel_tol::<T>() * cso.scale {
        shallower(cso, simplex, core, &mut e);
    }
    if e.normal_within > witness::normal_tol::<T>() {
        // A curved minimum: the support sets may hold a face under it.
        let tol = rel_tol::<T>() * cso.scale;
        let (within, used) = shallow::sets_within(cso, e.normal, e.depth, tol);
        (e.normal_within, e.iterations) = (e.normal_within.min(within), e.iterations + used);
    }
    let normal = cso.world_vector(e.normal);
    // Cores GJK called overlapping (within its tolerance, its last point
    // `dc` from the origin, or enclosing it in a tetrahedron, which a
    // sliver's rounding can claim: f32 cores 1e-5 apart) may be apart,
    // unless EPA's polytope proves the origin inside: apart by as much as
    // GJK's closest points are (points of the cores, where the simplex's
    // own `v` is only as good as a sliver's solve: 1.2e-5 for f32 cores
    // 3.1e-5 apart), the depth is the radii less that. (f32 capsules whose segments pass 5.5e-6 apart: the
    // flat polytope read a core depth of 0, the bracket `[r, r]` 5.5e-6
    // above the depth.) A bracket then wider than the tolerance is not
    // `Converged`.
    let lower = if e.lower <= T::ZERO {
        r - dc.max((ca - cb).length())
    } else {
        r + e.lower
    };
    let status = held(e.status, e.depth + r - lower, cso);
    Penetration {
        depth: e.depth + r,
        normal,
        point_a: cso.world_point(e.point_a + e.normal * cso.radius_a),
        point_b: cso.world_point(e.point_b - e.normal * cso.radius_b),
        lower_bound: lower,
        upper_bound: e.depth + r,
        intersecting: true,
        iterations: core.iterations + e.iterations,
        status,
        normal_within: e.normal_within,
    }
}

/// A depth below EPA's tolerance is met by any face that shallow, whose
/// normal may be far from the least depth's (a cone's apex 1e-11 into a
/// plate 1e-9 thick: the plate pushed sideways is 1.4e-9 deep, 1.57 rad
/// off). The distance polish from GJK's state (curved cores, as the
/// touching test runs it) finds the contact's own: taken where its support
/// depth is less, with its points.
fn shallower<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &gjk::CoreResult<T>,
    e: &mut Expanded<T>,
) {
    let sep = gjk::separation(cso, simplex, core);
    e.iterations += sep.evaluations + 1;
    if sep.witness != Witness::Unique {
        return;
    }
    let n = sep.normal;
    let depth = n.dot(cso.support(n).w);
    if depth < e.depth {
        rec::text!("epa: the distance polish's normal is shallower, {depth:?}");
        e.normal_within = aim::moved(e.normal_within, e.normal, n);
        (e.depth, e.normal) = (depth.max(T::ZERO), n);
        (e.point_a, e.point_b) = (sep.a, sep.b);
    }
}

/// `status`, unless `Converged` with a bracket `width` over the tolerance:
/// then `Degenerate` (f32 rounded boxes whose cores GJK found 2.7e-4 apart
/// read a bracket 6 times the tolerance, `Converged`).
pub(crate) fn held<T: Real>(status: Status, width: T, cso: &Cso<'_, T>) -> Status {
    match status {
        Status::Converged if width > rel_tol::<T>() * cso.scale => Status::Degenerate,
        s => s,
    }
}

/// The core penetration found by EPA, in A's frame.
struct Expanded<T: Real> {
    depth: T,
    lower: T,
    normal: V3<T>,
    point_a: V3<T>,
    point_b: V3<T>,
    iterations: u32,
    status: Status,
    /// See [`Penetration::normal_within`].
    normal_within: T,
}

/// EPA's answer where its start stayed flat (GJK's simplex in the CSO's
/// boundary): `depth` along `normal` is only an upper bound, the origin
/// within it of the CSO's side along the normal and maybe nearer another
/// side (a cone's rim 9.3e-10 into a box read 1.5e-8 along GJK's nearly
/// flat simplex), `Converged` only within `tol`. The flat simplex's normal
/// is only as good as its sliver: it is polished on the supports (a rim
/// 5e-10 into a plate's narrow face: 7e-5 rad off, `Converged`), and kept
/// where that is no deeper than the flat simplex's to rounding (a flat CSO,
/// two segments meeting end to end, has no normal to polish: up to the
/// polish's slack, 3e-11 deep where they meet 5e-13 apart). `fallback`
/// holds GJK's closest points.
fn flat<T: Real>(
    cso: &Cso<'_, T>,
    (normal, depth): (V3<T>, T),
    fallback: (V3<T>, V3<T>),
    tol: T,
) -> Expanded<T> {
    rec::text!("epa: flat core CSO, depth {depth:?} along the normal");
    let depth = depth.max(T::ZERO);
    let (p, _) = refined(cso, (depth, T::ZERO, normal), tol);
    let noise = T::EPSILON * T::from_f64(64.0) * cso.scale;
    let (depth, normal, (point_a, point_b)) = match p.witnesses {
        Some(w) if p.depth <= depth + noise => (p.depth.max(T::ZERO), p.normal, w),
        _ => (depth, normal, fallback),
    };
    Expanded {
        depth,
        lower: T::ZERO,
        normal,
        point_a,
        point_b,
        iterations: p.evaluations,
        normal_within: aim::bound(aim::NONE),
        // (A start that could not close its polytope may be deep.)
        status: if depth <= tol {
            Status::Converged
        } else {
            Status::Degenerate
        },
    }
}

/// EPA on the cores of `cso` from the GJK simplex `simplex`, whose closest
/// points are `fallback`.
fn expand<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    fallback: (V3<T>, V3<T>),
) -> Expanded<T> {
    let tol = rel_tol::<T>() * cso.scale;
    let mut poly = match blow_up(cso, simplex.points(), tol) {
        Start::Polytope(p) => p,
        Start::Flat { normal, depth } => return flat(cso, (normal, depth), fallback, tol),
    };
    let mut best: Option<(T, V3<T>, usize)> = None;
    let mut iterations = 0;
    let mut status = Status::MaxIterations;
    let mut lower = T::ZERO;
    let noise = T::EPSILON * T::from_f64(64.0) * cso.scale;
    let curved = cso.curved();
    let mut exact_until = MAX_ITERS;
    // An expansion or the ring broke the polytope: it certifies no normal.
    let mut broken = false;
    // One check of the recorder per query, as in GJK's loop.
    let recording = rec::ENABLED && rec::is_on();
    while iterations < MAX_ITERS {
        let Some(f) = poly.closest() else {
            status = Status::Degenerate;
            break;
        };
        iterations += 1;
        let face = poly.faces[f];
        lower = face.d.max(T::ZERO);
        let p = cso.support(face.n);
        let upper = face.n.dot(p.w);
        if best.is_none_or(|(u, _, _)| upper < u) {
            best = Some((upper, face.n, f));
        }
        let best_upper = best.map_or(upper, |b| b.0);
        if recording {
            let _iteration = rec::scope!("epa iteration");
            poly.record(cso, f);
            rec::point!(cso "support w", cso.world_vector(p.w), rec::Rgba::RED);
            rec::line!(cso "face normal", V3::<T>::ZERO, cso.world_vector(face.n * lower), rec::Rgba::BLUE);
            rec::value!("epa lower bound", lower);
            rec::value!("epa gap tolerance", tol);
            rec::value!("epa upper bound", best_upper);
            rec::pause!("epa expand");
        }
        if best_upper - lower <= tol || upper - face.d <= tol {
            status = Status::Converged;
            // Polytope cores go on to a face of the CSO (see the module).
            if curved || upper - face.d <= noise || iterations >= exact_until {
                break;
            }
            exact_until = exact_until.min(iterations + 16);
        }
        let known = poly.verts.iter().any(|v| v.w == p.w);
        if known || !poly.expand(f, p) {
            broken = !known;
            if status != Status::Converged {
                status = Status::Degenerate;
            }
            break;
        }
    }
    let Some((mut depth, mut normal, face)) = best else {
        poly.recycle();
        return Expanded {
            depth: T::ZERO,
            lower: T::ZERO,
            normal: gjk::fallback_direction(cso),
            point_a: fallback.0,
            point_b: fallback.1,
            iterations,
            status: Status::Degenerate,
            normal_within: aim::bound(aim::NONE),
        };
    };
    // The polytope is whole unless an expansion broke it.
    let whole = status != Status::Degenerate;
    let (mut point_a, mut point_b) = poly.witnesses(face);
    if depth - lower > noise {
        // A curved minimum: the best face's normal is only ~√gap accurate.
        let p = polished(cso, &mut poly, (depth, lower, normal), whole, tol);
        iterations += p.evaluations;
        broken |= p.broken;
        (depth, normal, lower) = (p.depth, p.normal, p.lower);
        if let Some((a, b)) = p.witnesses {
            (point_a, point_b) = (a, b);
        }
    }
    let on = (&*poly, face, normal, depth, tol);
    iterations += on_features(cso, on, (&mut point_a, &mut point_b));
    // A broken polytope's points are still the CSO's (the second fact).
    let normal_within = aim::polytope(&poly, normal, depth, cso.rounding(), !broken);
    poly.recycle();
    if status != Status::Converged && depth - lower <= tol {
        // The bounds meet the tolerance: after a polish and its ring, or
        // when the polytope broke at the rounding limit.
        status = Status::Converged;
    }
    // Make the witnesses agree with the reported (upper-bound) depth.
    let slack = depth - (point_a - point_b).dot(normal);
    rec::text!("epa terminated: {status:?} after {iterations} iterations, depth {depth:?}");
    Expanded {
        depth,
        lower: lower.min(depth),
        normal,
        point_a: point_a + normal * (slack * T::HALF),
        point_b: point_b - normal * (slack * T::HALF),
        iterations,
        status,
        normal_within,
    }
}

/// Moves the witnesses onto the support features (`contact::pair`, seeded
/// with face `face`'s points): on a face they may be support points a
/// face's width apart sideways. Returns the support evaluations made.
fn on_features<T: Real>(
    cso: &Cso<'_, T>,
    (poly, face, normal, depth, tol): (&Polytope<T>, usize, V3<T>, T, T),
    (a, b): (&mut V3<T>, &mut V3<T>),
) -> u32 {
    let seeds = poly.faces[face].v.map(|i| poly.verts[i]);
    let ((pa, pb), used) =
        contact::pair(&|d| cso.support(d), (normal, depth), (*a, *b), &seeds, tol);
    (*a, *b) = (pa, pb);
    used
}

/// EPA's answer after polishing its normal: depth, normal, lower bound,
/// the polished witnesses if the polish was kept, and its evaluations.
struct Polished<T: Real> {
    depth: T,
    normal: V3<T>,
    lower: T,
    witnesses: Option<(V3<T>, V3<T>)>,
    evaluations: u32,
    /// The ring broke the polytope.
    broken: bool,
}

/// Polishes EPA's best normal on the supports and, when the polytope is
/// `whole` and the bounds still miss `tol`, raises the lower bound with a
/// ring of support points (see [`ring_bound`]).
fn polished<T: Real>(
    cso: &Cso<'_, T>,
    poly: &mut Polytope<T>,
    (depth, lower, normal): (T, T, V3<T>),
    whole: bool,
    tol: T,
) -> Polished<T> {
    let (mut out, at) = refined(cso, (depth, lower, normal), tol);
    if whole && out.depth - lower > tol {
        match ring_bound(cso, poly, at, out.normal, tol) {
            Some(ring) => out.lower = lower.max(ring),
            None => out.broken = true,
        }
    }
    out
}

/// A normal polished on the supports from `normal` (the support-plane
/// depth `depth` there, `lower` below): Newton steps on curved cores, then
/// the line searches; kept where its depth is no more than `depth`'s (up
/// to [`slack`]). With it the polished support point.
fn refined<T: Real>(
    cso: &Cso<'_, T>,
    (depth, lower, normal): (T, T, V3<T>),
    tol: T,
) -> (Polished<T>, CsoPoint<T>) {
    let mut step = ((depth - lower).max(tol) * T::TWO / cso.scale).sqrt();
    let mut start = normal;
    let mut settled = 0;
    if cso.curved() {
        // Newton steps first (quadratic where the line searches are not);
        // kept only where they lower the support-plane depth.
        let (n, steps) = witness::settle_normal(cso, normal, T::TWO * step * cso.scale);
        settled = 2 * (steps + 1);
        if n.dot(cso.support(n).w) < depth {
            (start, step) = (n, super::polish::angle_tol::<T>() * T::from_f64(4.0));
        }
    }
    let p = cso.support(start);
    let mut found = polish(&|d| cso.support(d), start, p, step, cso.scale);
    found.evaluations += settled;
    let mut out = Polished {
        depth,
        normal,
        lower,
        witnesses: None,
        evaluations: found.evaluations,
        broken: false,
    };
    if found.depth <= depth + slack(cso.scale) {
        (out.depth, out.normal) = (found.depth, found.normal);
        out.witnesses = Some((found.point.a, found.point.b));
        rec::text!(
            "epa: normal polished on the supports in {} evaluations, depth {:?}",
            found.evaluations,
            found.depth
        );
    }
    (out, found.point)
}

/// The polytope's lower bound after adding the polished support point and
/// a ring of support points around `normal` (faces near a curved minimum
/// become small enough to meet `tol`); `None` if the polytope breaks.
fn ring_bound<T: Real>(
    cso: &Cso<'_, T>,
    poly: &mut Polytope<T>,
    at: CsoPoint<T>,
    normal: V3<T>,
    tol: T,
) -> Option<T> {
    let alpha = (tol / cso.scale).sqrt();
    poly.add(at)?;
    for d in ring(normal, alpha) {
        poly.add(cso.support(d))?;
    }
    let lower = poly.nearest().unwrap_or(T::ZERO).max(T::ZERO);
    rec::value!("epa lower bound", lower);
    Some(lower)
}
