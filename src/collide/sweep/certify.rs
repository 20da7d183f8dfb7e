//! The certificate of a sweep's hit, computed at the time of impact a method
//! found: the contact normal polished on the shapes' supports, the bracket
//! of the time of impact and a contact point on each shape.
//!
//! Everything works in A's frame at t = 0 on the inflated configuration-space
//! object `K = (A − B) ⊕ ball(r)` (cores plus the summed radii) and A's path
//! in it, the ray `x(t) = −t·motion`: A touches B at t iff `x(t) ∈ K`.
//!
//! - Lower bound: the support plane of `K` with normal `n` leaves a gap
//!   `g = n·x(t) − h_K(n)` that shrinks at the closing speed `s = motion·n`,
//!   so the shapes are apart for every `t < t_e + g/s`: a bound for any `n`,
//!   the tightest for the contact normal.
//! - Upper bound: a triangle of points of `K` (support points, so its convex
//!   hull lies in `K`) that the ray crosses proves contact at the crossing;
//!   so does one shape's contact point (a vertex, a rim point) found inside
//!   the other by its closed-form projection, where the triangles degenerate
//!   (a vertex against a flat side). Those proofs are in `crossing.rs`.
//!   The triangles are the method's last simplex and a fan of supports
//!   around `n`: on a face they span the face, on a curved surface a small
//!   cap whose chords lie within `½·ρ·h²` (`h` the fan's angle, `ρ` the
//!   curvature radius) of the surface.
//! - Normal: the contact normal maximises the support-plane gap `g(n)`; where
//!   the supports move smoothly with `n` (curved features) its gradient, the
//!   tangential part of `x − k(n)`, is zero there, which Newton's method
//!   solves with a finite-difference Jacobian (the summed curvature radii).
//!   Flat directions (faces, edges) have a zero Jacobian and are left as the
//!   method found them; a step is kept only if the gap does not fall (in
//!   f32, within the gap's rounding, where the gradient shrinks).

use super::crossing::{
    Crossing, Full, Path, Unique, cross_fan, cross_near, cross_point, earliest, snap, support,
};
use super::polish::{NormalFrom, Polished, polish, unique_near};
use super::segments::edges_sliding;
use super::witness::{Blur, face_at, hit_witness, normal_eta, placed};
use super::{Sweep, gjk_tol, record_hit};
use crate::collide::cso::Cso;
use crate::collide::feature::feature;
use crate::collide::handover::{from_normal, settle_for_turn};
use crate::collide::project::project;
use crate::collide::separation::separation;
use crate::collide::simplex::{CsoPoint, Simplex};
use crate::collide::{Status, Witness, gjk};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::Geom;
use cspace_recorder as rec;

/// What a sweep method found, in A's frame at t = 0.
pub(super) struct Found<'s, T: Real> {
    /// The time of impact it found.
    pub toi: T,
    /// Its normal from A towards B, not necessarily unit.
    pub normal: V3<T>,
    /// Configuration-space points near the contact (its last simplex), by
    /// their local support points; may be empty.
    pub near: &'s [CsoPoint<T>],
    /// Support evaluations it made.
    pub iterations: u32,
    /// How it ended.
    pub status: Status,
}

/// Certifies a hit found by a method: polishes its normal at `found.toi`,
/// brackets the time of impact and finds the contact points; records the answer.
pub(super) fn certify<T: Real>(cso: &Cso<'_, T>, motion: V3<T>, found: &Found<'_, T>) -> Sweep<T> {
    let m = cso.pose_a.rotation.inverse_rotate(motion);
    let t_e = found.toi;
    let x = m * -t_e;
    let n0 = found.normal.try_normalize().unwrap_or(V3::<T>::Y);
    let mut iterations = found.iterations;
    let placed = replaced(cso, found.near);
    let near = &placed[..found.near.len().min(4)];
    let polished = contact_normal(cso, (m, t_e), n0, near, &mut iterations);
    let (n, hub, probed) = (polished.n, polished.hub, polished.unique);
    let gap = n.dot(x - hub.k);
    let closing = n.dot(m);
    let lower = if closing > T::ZERO {
        (t_e + gap / closing).max(T::ZERO).min(T::ONE)
    } else {
        t_e
    };
    let path = Path {
        m,
        x,
        t_e,
        scale: cso.scale,
    };
    // A crossing before the plane's bound contradicts it: rounding in a
    // sliver triangle, not a proof.
    let reach = x.length() + cso.scale;
    let before = T::from_f64(64.0) * T::EPSILON * reach / closing.abs().max(T::EPSILON * reach);
    let credible = |t: T| closing <= T::ZERO || t >= lower - before;
    let snapped =
        |c: Crossing<T>, unique: Option<Unique>| snap(c, unique.unwrap_or(Unique::Neither), hub, m);
    let crossing = cross_near(cso, &path, n, near)
        .filter(|c| credible(c.t))
        .map(|c| snapped(c, probed))
        .or_else(|| {
            cross_fan(cso, &path, n, hub, &mut iterations)
                .filter(|c| credible(c.0.t))
                .map(|(c, unique)| snapped(c, probed.or(Some(unique))))
        });
    let touch = T::from_f64(4.0) * gjk_tol(cso);
    let crossing = if closing > T::ZERO {
        by_point(
            cso,
            (m, lower, closing),
            (probed, hub, n),
            crossing,
            &mut iterations,
        )
    } else {
        crossing
    };
    let (lower, widen) = widened(cso, m, lower, closing);
    let (toi, upper, (on_a, on_b), status) = match crossing {
        Some(Crossing { t, on, .. }) if closing > T::ZERO => {
            let upper = (t.max(lower) + widen).min(T::ONE);
            let tight = (upper - lower) * closing <= touch
                && !apart_at_lower(cso, m, (lower, upper), touch, found.near, &mut iterations);
            let status = match found.status {
                _ if tight => Status::Converged,
                Status::Converged => Status::Degenerate,
                s => s,
            };
            // A wide bracket (a poor normal's plane) keeps the method's own
            // estimate, inside the bracket.
            let toi = if tight {
                lower
            } else {
                t_e.max(lower).min(upper)
            };
            (toi, upper, on, status)
        }
        _ => {
            rec::text!("no point of the configuration-space object on A's path proves the contact");
            let status = match found.status {
                Status::Converged => Status::Degenerate,
                s => s,
            };
            (t_e, t_e.max(lower), (hub.a, hub.b), status)
        }
    };
    let blur = blur(&polished, (m, touch), (t_e, lower, upper), toi);
    let contact = hit_witness(cso, &polished, status, &blur);
    // Crossing edges' feet are placed at the reported toi; the rounded
    // cores' points were read at the time their normal settled, and along
    // edges crossing at an angle `θ` they slide by the path's move between
    // over `sin θ` (f32, a capsule's axis 0.14 rad across a hull's edge:
    // 1.6e-4 of the size off, `Unique`).
    let (on_a, on_b) = match (polished.points, contact.feet, contact.side, crossing) {
        (_, Some(feet), _, _) => feet,
        (Some(points), None, _, _) => points,
        (None, None, Some(side), Some(c)) if closing > T::ZERO => snap(c, side, hub, m).on,
        _ => (on_a, on_b),
    };
    let witness = contact.witness;
    let (point_a, point_b) = (cso.world_point(on_a) + motion * toi, cso.world_point(on_b));
    let sweep = Sweep {
        hit: true,
        toi,
        toi_lower: lower.min(toi),
        toi_upper: upper,
        normal: cso.world_vector(n),
        point: (point_a + point_b) * T::HALF,
        point_a,
        point_b,
        iterations,
        status,
        witness: Some(witness),
    };
    record_hit(&sweep);
    sweep
}

/// Where `crossing` proves no contact within the stated width (a vertex
/// against a flat side, whose fan's triangles degenerate) or the path only
/// passed within rounding of `K`, the contact point of the shape whose
/// support is unique (`probed`, else found around the normal `n`) may prove
/// it (`cross_point`), and where that proof is late or missing the other
/// shape's point: the earliest proof, the points' over a crossing within
/// rounding where the unique side's point proves the contact.
fn by_point<T: Real>(
    cso: &Cso<'_, T>,
    (m, lower, closing): (V3<T>, T, T),
    (probed, hub, n): (Option<Unique>, Full<T>, V3<T>),
    crossing: Option<Crossing<T>>,
    iterations: &mut u32,
) -> Option<Crossing<T>> {
    let touch = T::from_f64(4.0) * gjk_tol(cso);
    let tight = |c: &Crossing<T>| (c.t - lower) * closing <= touch;
    if crossing.is_some_and(|c| c.strict && tight(&c)) {
        return crossing;
    }
    let unique = match probed {
        Some(u @ (Unique::A | Unique::B)) => u,
        _ => unique_near(cso, n, iterations),
    };
    let first = cross_point(cso, m, (lower, closing), unique, hub);
    // A point displaced by the normal's error enters the other shape late
    // (a sphere's point beside the box corner that touches it, in f32:
    // 1.2e-4 of the time): the other side's point proves it too.
    let other = match unique {
        Unique::A => Unique::B,
        Unique::B => Unique::A,
        Unique::Neither => Unique::Neither,
    };
    let second = if first.is_none_or(|c| !tight(&c)) {
        cross_point(cso, m, (lower, closing), other, hub)
    } else {
        None
    };
    match crossing {
        // Over a crossing only within rounding of `K`, where the unique
        // side's point proves the contact: the earlier of the two points'
        // proofs. Where it proves nothing the crossing stays: the other
        // side's point alone only widened brackets the crossing held (f32
        // spheres grazing boxes, 1.8 times wider in time, though within
        // the touching tolerance in distance).
        Some(c) if !c.strict && first.is_some() => earliest(first, second),
        _ => earliest(crossing, earliest(first, second)),
    }
}

/// The bracket's lower end `lower` widened by the rounding in the poses
/// and along the path `m` (a few ulps of the coordinates, and of the time
/// itself), and the widening of its upper end: far from the origin or
/// along a long motion, f32 cannot place the contact within the
/// tolerance, and the answer must not say it did.
fn widened<T: Real>(cso: &Cso<'_, T>, m: V3<T>, lower: T, closing: T) -> (T, T) {
    let rounding = T::from_f64(4.0) * T::EPSILON * (cso.offset().length() + m.length() + cso.scale);
    if closing > T::ZERO {
        (
            (lower - rounding / closing).max(T::ZERO),
            rounding / closing,
        )
    } else {
        (lower, T::ZERO)
    }
}

/// Whether the shapes are proven more than `touch` apart with A at the
/// bracket's `lower` end, where A moves further than that over the
/// bracket: the plane at a normal nearly perpendicular to the motion
/// closes by less than the tolerance over any bracket, so the bracket then
/// says nothing of the time (f32 swept MPR's normal by a plate 2e-6
/// thick: `[0, 1]`, `Converged`, the shapes 0.19 apart at t = 0). GJK
/// starts from the method's simplex `near` (local support points, placed
/// at `lower`) and stops at the first separating axis beyond the radii
/// and `touch`, or once the cores are within them.
fn apart_at_lower<T: Real>(
    cso: &Cso<'_, T>,
    m: V3<T>,
    (lower, upper): (T, T),
    touch: T,
    near: &[CsoPoint<T>],
    iterations: &mut u32,
) -> bool {
    if (upper - lower) * m.length() <= touch {
        return false;
    }
    let at = cso.shifted(cso.world_vector(m * lower));
    let mut simplex = Simplex::new();
    for p in near.iter().take(4) {
        simplex.push(at.point(p.local_a, p.local_b));
    }
    let core = gjk::run(&at, &mut simplex, Some(cso.radius() + touch));
    *iterations += core.iterations;
    core.end == gjk::End::Separated || core.lower - cso.radius() > touch
}

/// Where the contact lies around the `polished` normal, for
/// [`hit_witness`]: polished at time `t_e`, the contact somewhere in the
/// bracket `[lower, upper]`, so off it across the normal by up to the
/// bracket times the motion `m`'s part across it, which turns a normal
/// fixed by curvature by that over the curvature radius (a large hull's
/// vertex on a sphere 1e3 times smaller: 1.3e-5 rad off, `Unique`).
fn blur<T: Real>(
    polished: &Polished<T>,
    (m, touch): (V3<T>, T),
    (t_e, lower, upper): (T, T, T),
    toi: T,
) -> Blur<T> {
    let (n, hub) = (polished.n, polished.hub);
    let across = (m - n * n.dot(m)).length();
    Blur {
        spread: (t_e - lower).abs().max((upper - t_e).abs()) * across,
        // A's point at the contact, and B's with A standing still.
        at: (hub.a + m * t_e, hub.b - m * t_e),
        touch,
        slide: (upper - lower) * m.length(),
        path: (hub.k, n, m, [t_e, lower, upper]),
        toi,
    }
}

/// The method's simplex `near` re-placed from its support points (its `w`
/// may have been moved with the ray), in the first of four slots.
fn replaced<T: Real>(cso: &Cso<'_, T>, near: &[CsoPoint<T>]) -> [CsoPoint<T>; 4] {
    let mut placed = [CsoPoint::<T>::default(); 4];
    for (slot, p) in placed.iter_mut().zip(near) {
        *slot = cso.point(p.local_a, p.local_b);
    }
    placed
}

/// Where one core is a point (a sphere's centre) and the other has a
/// closed-form projection (a box, capsule, cylinder or cone): the contact
/// normal at A's path point `x` (unit, A's frame, from A towards B) and the
/// point core's side, whose support is unique. The normal is the direction
/// from the projection of the point core's centre to it, exact to rounding
/// where that centre is well off the other core (at contact it is the
/// summed radii away); `None` below a thousandth of the size, where the
/// polish decides.
fn point_core_normal<T: Real>(cso: &Cso<'_, T>, x: V3<T>) -> Option<(V3<T>, Unique)> {
    let point = |g: &Geom<T>| matches!(g, Geom::Point | Geom::Sphere { .. });
    let (ga, gb) = (&cso.shape_a().geom, &cso.shape_b().geom);
    let (p, n, unique) = if point(gb) && !point(ga) {
        // B's centre, moved against A's motion, projected onto A's core.
        let p = project(ga, cso.offset() + x)?;
        (p, p.normal, Unique::B)
    } else if point(ga) && !point(gb) {
        // A's centre, moved with A, projected onto B's core.
        let p = project(gb, cso.b_local_point(-x))?;
        (p, -cso.b_vector(p.normal), Unique::A)
    } else {
        return None;
    };
    let clear = p.signed > T::from_f64(1e-3) * cso.scale;
    (clear && n.is_finite()).then_some((n, unique))
}

/// Radii summing to at least this fraction of the size keep the cores
/// that far apart at the contact: their distance is well conditioned.
const ROUNDED: f64 = 1e-3;

/// The contact normal of shapes with radii (capsules, shapes with
/// margins; a point core has its closed form first): at the contact
/// the cores are the summed radii apart along it, so it is the cores'
/// distance normal with A at its path point `x`, certified where that
/// distance says its closest points are unique (1e-7 rad in f64, 1e-3 in
/// f32). The polish's probes read such a contact as the rounded shapes'
/// supports see it and could settle 3e-3 rad off in f32 (a box's corner
/// beside a nearly level edge against a capsule's end). `None` below
/// [`ROUNDED`] of the size, on curved cores (the polish is cheaper there)
/// or where the cores' points are not unique.
fn rounded_normal<T: Real>(
    cso: &Cso<'_, T>,
    (m, t_e): (V3<T>, T),
    iterations: &mut u32,
) -> Option<Polished<T>> {
    let r = cso.radius_a + cso.radius_b;
    if r < T::from_f64(ROUNDED) * cso.scale || cso.curved() {
        return None;
    }
    let mut t = t_e;
    let mut settled = false;
    let mut found = None;
    // Where the cores are `r` apart the normal turns with the time by
    // `|m|/r` per unit: read at the method's toi (f32, 3e-5 early, radii
    // 3.5e-3) it was 1.4e-2 rad off. The normal is read again where its
    // own support plane puts the contact, until that moves it by less
    // than its tolerance.
    for _ in 0..3 {
        let x = m * -t;
        let at = cso.shifted(cso.world_vector(-x));
        // From scratch, as the distance query runs it: GJK started from a
        // simplex re-placed stops within its gap at once, its direction
        // then only as good as √(gap / r) (f32: 0.1 rad). And as the
        // distance query's witnesses run it: f32 polytope cores on past
        // the gap tolerance (stopped at it, a capsule 181 thick on one 0.6
        // thick kept a normal 6.8e-3 rad off, the points 1.2 apart).
        let mut simplex = Simplex::new();
        let core = gjk::run_for_witnesses(&at, &mut simplex);
        *iterations += core.iterations;
        if core.overlap() {
            return None;
        }
        let sep = separation(&at, &simplex, &core);
        *iterations += sep.evaluations;
        // Nearly parallel edges: the distance's points slide along them
        // (`Approximate`) but its normal holds, and its points are the best
        // there are (left to the polish, f64 box edges on a capsule's axis
        // 2.8e-4 rad apart were 1e-2 of the size off, against 1.8e-9).
        if sep.witness != Witness::Unique
            && !(sep.witness == Witness::Approximate && sliding_edges(&at, sep.normal, r))
        {
            return None;
        }
        let n = sep.normal;
        let hub = support(cso, n);
        *iterations += 1;
        found = Some((x, sep, hub));
        let closing = n.dot(m);
        if closing <= T::ZERO {
            break;
        }
        let next = (t + n.dot(x - hub.k) / closing).max(T::ZERO).min(T::ONE);
        let turn = m.length() * (next - t).abs() / r;
        t = next;
        // The pushed-out points turn with the normal by the radii: settled
        // once that moves them by less than half their tolerance too (an
        // f32 box's corner on a capsule 1.1 thick: the normal read 1.7e-4
        // rad before the contact's, B's point 1.5e-4 of the size off).
        if turn <= normal_tol::<T>() && placed(turn * r, cso.scale) {
            settled = true;
            break;
        }
    }
    let (x, sep, hub) = found?;
    rec::text!("rounded shapes: the cores' distance normal (settled {settled})");
    let n = sep.normal;
    // The contact point is the support of the side that is a point there.
    let eta = normal_eta(cso);
    let unique = if feature(cso.shape_a(), n, eta).count == 0 {
        Unique::A
    } else if feature(cso.shape_b(), cso.b_direction(-n), eta).count == 0 {
        Unique::B
    } else {
        Unique::Neither
    };
    // The cores' closest points pushed out by the radii: A's in its own
    // frame, B's back in A's frame at t = 0 (A moved by `−x`).
    let points = (sep.a + n * cso.radius_a, sep.b - x - n * cso.radius_b);
    Some(Polished {
        n,
        hub,
        unique: Some(unique),
        settled,
        ridge: false,
        unconfirmed: false,
        points: Some(points),
        from: NormalFrom::Closed,
    })
}

/// Whether the cores' support features at unit normal `n` (A's frame)
/// are two edges whose closest points, `d` apart, slide along them past
/// the witness tolerance ([`edges_sliding`]).
fn sliding_edges<T: Real>(cso: &Cso<'_, T>, n: V3<T>, d: T) -> bool {
    let eta = normal_eta(cso);
    let fa = feature(cso.shape_a(), n, eta);
    let fb = feature(cso.shape_b(), cso.b_direction(-n), eta);
    edges_sliding(cso, (&fa, &fb), d)
}

/// The tolerance of a sweep's normal: 1e-7 rad (f64), 1e-3 (f32).
fn normal_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(1e-3),
        rec::Precision::F64 => T::from_f64(1e-7),
    }
}

/// The contact normal on A's path `x(t) = −t·m` near the method's time of
/// impact `t_e` (A's frame, unit, from A towards B) from the method's `n0`,
/// the support of `K` there and which shape's support is unique around it
/// (`None`: not probed, a face of `K`): the closed form against a point
/// core, else the polish at `x(t_e)` (looking closer on curved cores where
/// it found neither support unique). The closed form is taken again where
/// its own support plane puts the contact: at a grazing motion `t_e` may be
/// off by far more than the bracket, which tilts a normal read there.
fn contact_normal<T: Real>(
    cso: &Cso<'_, T>,
    (m, t_e): (V3<T>, T),
    n0: V3<T>,
    near: &[CsoPoint<T>],
    iterations: &mut u32,
) -> Polished<T> {
    let x = m * -t_e;
    if let Some((mut n, unique)) = point_core_normal(cso, x) {
        rec::text!("a point core: the normal in closed form");
        let mut hub = support(cso, n);
        *iterations += 1;
        for _ in 0..2 {
            let closing = n.dot(m);
            if closing <= T::ZERO {
                break;
            }
            let t = (t_e + n.dot(x - hub.k) / closing).max(T::ZERO).min(T::ONE);
            let Some((next, _)) = point_core_normal(cso, m * -t) else {
                break;
            };
            (n, hub) = (next, support(cso, next));
            *iterations += 1;
        }
        return Polished {
            n,
            hub,
            unique: Some(unique),
            settled: true,
            ridge: false,
            unconfirmed: false,
            points: None,
            from: NormalFrom::Closed,
        };
    }
    if let Some(p) = rounded_normal(cso, (m, t_e), iterations) {
        return p;
    }
    let Polished {
        mut n,
        mut hub,
        unique,
        mut settled,
        ridge,
        ..
    } = polish(cso, x, n0, near, iterations);
    let mut unconfirmed = false;
    // Neither support stayed put, or the last step was read beside a
    // ridge: in f64 the distance backed off certifies the normal. Backed
    // off along a normal `θ` off, its normal is off by about `θ` times the
    // back-off over the curvature radius: taken again from there until it
    // turns by less than the tolerance (a rim 1.5e-3 in radius on a hull's
    // edge of size 1.5, a cap's normal 3e-4 rad away: the polish 4.4e-5
    // rad off, once backed off 3.8e-6, `Unique`). A normal that still
    // turns is not settled (beside a ridge) or not confirmed (a cone's
    // slant 1e-9 rad from level on a cylinder: 5.8e-6 rad off, `Unique`).
    // A polish that did not settle otherwise (its steps went back and forth
    // over a rim's contact with a plate's narrow face: 65 % of such sweeps
    // `Approximate`) is confirmed only where the turns left are a
    // thousandth of the tolerance: the estimate from their rate is loose
    // there (a small rim beside a box's face, 1.02e-7 rad off, `Unique`).
    let stalled = !settled && !ridge && unique != Some(Unique::Neither);
    let confirm = if stalled {
        T::from_f64(1e-3) * normal_tol::<T>()
    } else {
        normal_tol::<T>()
    };
    if (unique == Some(Unique::Neither) || ridge || stalled) && T::PRECISION == rec::Precision::F64
    {
        // The error left: the turns still to come, shrinking at the last
        // two's rate (unknown after one: where the back-off is as long as
        // the curvature radius the normal hardly turns while its error
        // stays, 7.1e-8 rad for an error of 5.7e-7 beside a rim 2e-3 in
        // radius).
        let (mut error, mut last) = (T::MAX, None);
        for _ in 0..BACK_OFFS {
            let Some(better) = backed_off(cso, x, n, iterations) else {
                break;
            };
            let turn = better.cross(n).length();
            rec::text!(
                "contact normal from the distance backed off: {:?}, turned by {turn:?} rad",
                cso.world_vector(better)
            );
            (n, hub) = (better, support(cso, better));
            *iterations += 1;
            error = match last {
                _ if turn == T::ZERO => T::ZERO,
                Some(l) if turn < l => turn * turn / (l - turn),
                _ => T::MAX,
            };
            last = Some(turn);
            if error <= confirm {
                break;
            }
        }
        if error <= confirm {
            settled = true;
        } else if ridge {
            settled = false;
        } else {
            unconfirmed = true;
        }
    }
    (n, hub) = vertex_on_side(cso, (m, t_e), n, hub, iterations).unwrap_or((n, hub));
    // A normal within the witness tolerance of a face's is that face's
    // ([`face_at`]).
    if let Some(f) = face_at(cso, n)
        && f != n
    {
        rec::text!("the polished normal is a face's: its normal exactly");
        (n, hub) = (f, support(cso, f));
        *iterations += 1;
    }
    // On a curved core a face of `K` (a rim point against a flat side) or
    // the probes' verdict leaves the contact point to a mix of support
    // points along the rim: look closer.
    let unique = match unique {
        None | Some(Unique::Neither) if cso.curved() => Some(unique_near(cso, n, iterations)),
        probed => probed,
    };
    Polished {
        n,
        hub,
        unique: sets_check(cso, n, unique),
        settled,
        ridge,
        unconfirmed,
        points: None,
        from: NormalFrom::Probes,
    }
}

/// Where one shape's support set at the polished normal `n` is a vertex
/// (with a radius or not) and the other's a cylinder's or cone's side: the
/// side's own normal where the vertex touches it, in closed form
/// ([`project`]), read again where its support plane puts the contact. The
/// probes read a cone's side by its ends, the apex standing still and the
/// rim turning at its full radius, where the contact's point turns at the
/// radius between: the polish settled 9.3e-3 rad off in f32 (a hull's
/// vertex halfway up a cone's side, `Unique`). `None` where the vertex is
/// not at the side's surface (within four touching tolerances) or another
/// support takes over at the side's normal.
fn vertex_on_side<T: Real>(
    cso: &Cso<'_, T>,
    (m, t_e): (V3<T>, T),
    n: V3<T>,
    hub: Full<T>,
    iterations: &mut u32,
) -> Option<(V3<T>, Full<T>)> {
    let eta = normal_eta(cso);
    let (fa, fb) = (
        feature(cso.shape_a(), n, eta),
        feature(cso.shape_b(), cso.b_direction(-n), eta),
    );
    let side = |g: &Geom<T>, f: &crate::collide::feature::Feature<T>| {
        matches!(g, Geom::Cylinder { .. } | Geom::Cone { .. }) && f.count == 1 && f.radius > T::ZERO
    };
    let (ga, gb) = (&cso.shape_a().geom, &cso.shape_b().geom);
    let on_a = side(ga, &fa) && fb.count == 0 && fb.radius == T::ZERO;
    let on_b = side(gb, &fb) && fa.count == 0 && fa.radius == T::ZERO;
    if !(on_a || on_b) {
        return None;
    }
    let touch = T::from_f64(4.0) * gjk_tol(cso);
    // The vertex's core point of the support `h` taken at `d` (A's frame;
    // the inflated points sit the radius along `d` off it).
    let core = |h: &Full<T>, d: V3<T>| {
        if on_a {
            h.b + d * cso.radius_b
        } else {
            h.a - d * cso.radius_a
        }
    };
    // That core point, with A at its path point at `t`, projected onto the
    // side's shape: its normal, from A towards B.
    let normal_at = |core: V3<T>, t: T| {
        let x = m * -t;
        // B moves by `x` against A standing still, A by `−x` against B.
        let pr = if on_a {
            project(ga, core + x)?
        } else {
            project(gb, cso.b_local_point(core - x))?
        };
        let off = pr.signed - (cso.radius_a + cso.radius_b);
        let normal = if on_a {
            pr.normal
        } else {
            -cso.b_vector(pr.normal)
        };
        (off.abs() <= T::from_f64(4.0) * touch && normal.is_finite()).then_some(normal)
    };
    let vertex = core(&hub, n);
    let mut next = normal_at(vertex, t_e)?;
    let mut next_hub = support(cso, next);
    *iterations += 1;
    for _ in 0..2 {
        // The same vertex must be the support at the side's normal.
        if (core(&next_hub, next) - vertex).length() > touch {
            return None;
        }
        let closing = next.dot(m);
        if closing <= T::ZERO {
            return None;
        }
        let x = m * -t_e;
        let t = (t_e + next.dot(x - next_hub.k) / closing)
            .max(T::ZERO)
            .min(T::ONE);
        let again = normal_at(core(&next_hub, next), t)?;
        if again == next {
            break;
        }
        (next, next_hub) = (again, support(cso, again));
        *iterations += 1;
    }
    if (core(&next_hub, next) - vertex).length() > touch {
        return None;
    }
    rec::text!(
        "a vertex on a curved side: the side's normal where the vertex touches, turned by {:?} rad",
        next.cross(n).length()
    );
    Some((next, next_hub))
}

/// How far A backs off from the contact for [`backed_off`], relative to
/// the size: the distance's normal there turns from the contact's by
/// about this times the normal's error over the curvature radius.
const BACK_OFF: f64 = 1e-4;

/// The most times [`backed_off`] is taken in a row.
const BACK_OFFS: u32 = 6;

/// The contact normal where the polish's probes saw neither support stay
/// put (a short edge or a rim nearly along a side beside the normal: the
/// probes straddle its ridge and the polish stalls 1e-6 to 2e-5 rad off in
/// f64): the normal of the distance query with A backed off from its path
/// point `x` by [`BACK_OFF`] of the size along the polished normal `n` (A's
/// frame), where that distance says its closest points are unique (its
/// normal is then certified to 1e-7 rad). Backing off along a normal
/// `θ` off turns the distance's normal from the contact's by about `θ`
/// times the back-off over the curvature radius there.
fn backed_off<T: Real>(
    cso: &Cso<'_, T>,
    x: V3<T>,
    n: V3<T>,
    iterations: &mut u32,
) -> Option<V3<T>> {
    let recording = rec::ENABLED && rec::is_on();
    let _backed = rec::scope!("distance backed off from the contact", recording);
    rec::text!("neither support stayed put: the distance's normal, A backed off along the normal");
    let back = x + n * (T::from_f64(BACK_OFF) * cso.scale);
    let moved = cso.shifted(cso.world_vector(-back));
    // The witness polish from `n` first (a few evaluations), else the whole query.
    let quick = moved
        .curved()
        .then(|| {
            from_normal(
                &moved,
                n,
                gjk::rel_tol::<T>(),
                settle_for_turn(&moved, Some(T::from_f64(BACK_OFF))),
            )
        })
        .flatten();
    let d = quick.unwrap_or_else(|| gjk::distance_gjk_in(&moved, &mut Simplex::new()).0);
    *iterations += d.iterations;
    (!d.intersecting && d.witness == Witness::Unique)
        .then(|| moved.pose_a.rotation.inverse_rotate(d.normal))
}

/// In f32, the probes' verdict `unique` checked against the support sets
/// taken within the normal's error (heights within 4e-3 of the size):
/// f32's normal is off by up to ~1.5e-3 rad, which the probes (1e-4 rad)
/// do not straddle, so a face of the moving shape looked like a unique
/// vertex and the contact snapped to it (a third of the size off). The
/// side called unique must be a single point there, else the other side
/// is, or neither. Unchanged in f64, whose normal the probes straddle.
fn sets_check<T: Real>(cso: &Cso<'_, T>, n: V3<T>, unique: Option<Unique>) -> Option<Unique> {
    if T::PRECISION != rec::Precision::F32 {
        return unique;
    }
    let eta = T::from_f64(4e-3) * cso.scale;
    let point_a = || feature(cso.shape_a(), n, eta).count == 0;
    let point_b = || feature(cso.shape_b(), cso.b_direction(-n), eta).count == 0;
    // A hull's vertex may have a neighbour within that height and still be
    // its unique support (its faces are not level with `n`): the probes'
    // claim for a hull stands (overriding it cost a hull–capsule sweep
    // 1.6e-3 of the size).
    let hull = |s: &crate::shape::Shape<T>| matches!(s.geom, Geom::Hull(_));
    match unique {
        Some(Unique::A) if !hull(cso.shape_a()) && !point_a() => Some(if point_b() {
            Unique::B
        } else {
            Unique::Neither
        }),
        Some(Unique::B) if !hull(cso.shape_b()) && !point_b() => Some(if point_a() {
            Unique::A
        } else {
            Unique::Neither
        }),
        other => other,
    }
}
