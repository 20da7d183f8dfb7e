//! GJK (Gilbert, Johnson and Keerthi; van den Bergen's formulation):
//! distance, closest points and boolean intersection of two convex shapes.
//!
//! GJK runs on the shapes' *cores* and subtracts the radii afterwards, so
//! spheres, capsules and margins are exact. It works in A's local frame with
//! B's pose relative to A, which keeps precision when both shapes are far
//! from the world origin and saves a rotation per support call.
//!
//! Termination is relative to the shapes' scale ([`Shape::scale`](crate::Shape::scale)) and the
//! current distance: the gap between the upper bound `|v|` and the lower
//! bound `v·w / |v|` must fall below about 4e-11 (f64) or 2.4e-5 (f32) of
//! `distance + scale`. The iteration count is bounded by [`MAX_ITERS`] and the
//! outcome says how the loop ended ([`Status`]): when rounding stops progress
//! first (a repeated support point, or `|v|` no longer decreasing) the loop
//! restarts up to twice from the stalled simplex's closest point and the new
//! support point (a sliver simplex on a curved feature hides progress that
//! a fresh one finds), and the result is `Converged` only if the bounds
//! then meet the same tolerance, `Degenerate` otherwise. A triangle's closest
//! point is the origin's projection on its plane (not the weighted sum of
//! its corners), so a sliver triangle on a nearly touching curved feature
//! keeps its direction. On curved cores GJK's closest points and normal lag
//! (about the square root of the gap), so apart answers are then polished
//! (`witness` module: Newton steps on the normal over the support features)
//! and say how far their points can be trusted ([`Distance::witness`]).
//! Curved cores (cylinders, cones) converge linearly: [`distance_with_tolerance`]
//! stops earlier for callers who need less (each factor of ~4 saves about two
//! iterations there; polytopes converge exactly either way).
//!
//! Where GJK's bounds straddle the touching tolerance (1e-12 of the size in
//! f64) the `touch` module settles the verdict; on curved cores the
//! `handover` module lets the witness polish finish what GJK started.
//!
//! Pairs whose cores are both points (spheres, points) are answered in
//! closed form. Rotations are normalised before use: a quaternion that is
//! unit only to f32 precision is read as the nearest true rotation.

use super::Status;
use super::boxes;
pub(crate) use super::centers::Centers;
use super::cso::Cso;
use super::handover::{hands_over, rough_rel, rough_then_polish};
use super::input;
pub(crate) use super::separation::separation;
use super::separation::{closest_points, separation_at};
use super::simplex::{CsoPoint, Simplex};
pub(crate) use super::touch::{touch_tol, touches};
pub use super::warm::{SimplexCache, distance_warm};
use super::witness::{Witness, witness_tol};
use crate::collide::answer;
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// The most support evaluations one run of GJK's loop makes. A query may
/// add to it: the polish's evaluations, GJK going on near touching, and a
/// second run on curved cores when the polish does not settle (all counted
/// in the answer's `iterations`).
pub const MAX_ITERS: u32 = 128;

/// The relative tolerance on the distance: GJK stops when the gap between
/// its upper and lower distance bounds is below `REL × (distance + scale)`
/// (up to √2 times that: the test avoids a square root).
/// About `ε^(2/3)`: 3.7e-11 in f64, 2.4e-5 in f32.
#[inline]
pub(crate) fn rel_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(2.4e-5),
        rec::Precision::F64 => T::from_f64(3.7e-11),
    }
}

/// The distance between two shapes and their closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<T: Real> {
    /// The distance between the full shapes (cores plus radii), ≥ 0.
    pub distance: T,
    /// The closest point on A, world space. When intersecting, a point of
    /// A ∩ B (within tolerance), equal or next to `point_b`.
    pub point_a: V3<T>,
    /// The closest point on B, world space.
    pub point_b: V3<T>,
    /// Unit vector from A towards B. When apart, the closest points'
    /// direction as the certificate has it (the separation along it is
    /// within the distance's tolerance of the lower bound, which is the
    /// best of GJK's and the polish's), not re-derived from the points: their
    /// difference carries their rounding (ε × size) over the distance, a
    /// hundredth of a radian on a long f32 shape a hair away. When
    /// intersecting: the direction between the cores if they are apart,
    /// otherwise an arbitrary unit vector.
    pub normal: V3<T>,
    /// Whether the shapes overlap or touch. Touching means a distance of at
    /// most 1e-12 of the shapes' size in f64 (decided exactly above it:
    /// GJK goes on past its gap tolerance when its bounds straddle that), or
    /// the GJK tolerance, 2.4e-5 of the size, in f32. Curved cores (cylinders,
    /// cones) are decided exactly where the polished witnesses prove the
    /// gap (92 % of constructed gaps of 1.5–30e-12 × size, `tests/touching.rs`),
    /// touching otherwise. The distance is then reported as 0, or as the
    /// certified lower bound when that is above 0 (at most the tolerance).
    pub intersecting: bool,
    /// The certificate: the true distance lies in `[lower_bound,
    /// upper_bound]` (to rounding). The lower bound is the separation along
    /// the last search direction (A's and B's supporting planes), the upper
    /// bound the length of the simplex's closest point minus the radii;
    /// `distance` is the upper bound, or 0 when it is within the touching
    /// tolerance. `Converged` means the two are within the stopping gap.
    pub lower_bound: T,
    /// See [`lower_bound`](Self::lower_bound).
    pub upper_bound: T,
    /// Support evaluations made (GJK's and the polish's).
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
    /// How far `point_a`, `point_b` and `normal` can be trusted: unique and
    /// polished to 1e-8 × size (f64) / 1e-4 (f32), not unique (parallel
    /// features, overlapping shapes), or approximate (ill-conditioned).
    pub witness: Witness,
}

/// Whether two shapes overlap (boolean GJK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// Whether the shapes overlap or touch (within the touching tolerance
    /// of [`Distance::intersecting`], with which it agrees).
    pub intersecting: bool,
    /// Support evaluations made.
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
}

impl<T: Real> Distance<T> {
    /// The answer to input the query refused ([`Status::InvalidInput`]):
    /// every number NaN, nothing certified.
    pub(crate) fn invalid() -> Self {
        let (nan, v) = super::input::nans::<T>();
        Self {
            distance: nan,
            point_a: v,
            point_b: v,
            normal: v,
            intersecting: false,
            lower_bound: nan,
            upper_bound: nan,
            iterations: 0,
            status: Status::InvalidInput,
            witness: Witness::Approximate,
        }
    }
}

impl Overlap {
    /// The answer to input the query refused ([`Status::InvalidInput`]).
    pub(crate) fn invalid() -> Self {
        Self {
            intersecting: false,
            iterations: 0,
            status: Status::InvalidInput,
        }
    }
}

/// Why the GJK loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The simplex encloses the origin, or the closest point is within tolerance of it.
    Overlap,
    /// Boolean mode: the cores are within the radii.
    WithinRadii,
    /// Boolean mode: a separating axis was found.
    Separated,
    /// Upper and lower distance bounds met.
    Gap,
    /// The new support point was already in the simplex.
    Repeated,
    /// The distance stopped decreasing (rounding limit).
    NoProgress,
    /// [`MAX_ITERS`] support evaluations.
    MaxIterations,
}

/// How GJK ended, in A's frame; the final simplex (1 to 4 points) is left in
/// the caller's [`Simplex`], which the loop works on in place (no copy of it
/// in or out, measured: one 520-byte `memcpy` less per query in f64).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreResult<T: Real> {
    /// The simplex's closest point to the origin: core distance vector `a − b`.
    pub v: V3<T>,
    /// Why it ended.
    pub end: End,
    /// A lower bound on the core distance: the best `v·w / |v|` over the
    /// support points `w` evaluated (0 when none certifies separation).
    pub lower: T,
    /// Support evaluations.
    pub iterations: u32,
    /// The outcome.
    pub status: Status,
}

impl<T: Real> CoreResult<T> {
    /// Whether the cores overlap or touch.
    pub fn overlap(&self) -> bool {
        self.end == End::Overlap
    }
}

/// GJK on the cores of `cso`, starting from `simplex` (empty for a cold
/// start) and leaving the final simplex in it. With `radius`, stops as soon
/// as the full shapes are known to overlap (core distance ≤ radius) or to be
/// apart (a separating axis).
/// Inlined so the simplex is not copied in and out of each call (measured:
/// 4 % fewer instructions per distance query; `#[inline]` alone is ignored).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn run<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
    radius: Option<T>,
) -> CoreResult<T> {
    run_with(cso, simplex, radius, rel_tol::<T>())
}

/// [`run`] stopping when the bounds are within `rel` (relative, as
/// [`rel_tol`]) instead of the default tolerance.
#[allow(clippy::inline_always, clippy::too_many_lines)]
#[inline(always)]
pub(super) fn run_with<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
    radius: Option<T>,
    rel: T,
) -> CoreResult<T> {
    let zero = rel * cso.scale;
    let mut iterations = 0;
    let mut restarts = 0;
    if simplex.is_empty() {
        let d = cso.offset();
        let d = if d.length_squared() > T::ZERO {
            d
        } else {
            V3::<T>::X
        };
        simplex.push(cso.support(d));
        iterations = 1;
    }
    let mut v = simplex.closest_to_origin();
    if cso.point_cores() {
        // The core CSO is the single point a − b: no iteration needed.
        let end = if v.length_squared() <= zero * zero {
            End::Overlap
        } else {
            End::Gap
        };
        rec::text!("gjk: point cores, {end:?}");
        return CoreResult {
            v,
            end,
            lower: v.length(),
            iterations,
            status: Status::Converged,
        };
    }
    // One check of the recorder per query: the loop's instrumentation is
    // grouped under it, so a build with the macros compiled in costs next to
    // nothing when not recording.
    let recording = rec::ENABLED && rec::is_on();
    // The best support's bound `v·w / |v|` as (v·w, |v|²): the square root
    // is taken once, after the loop.
    let mut best_bound = (T::ZERO, T::ONE);
    // Its square `(v·w)² / |v|²`: compared in that form, a length squared,
    // the test neither overflows nor underflows where `(v·w)² |v|²`, a
    // sixth power, would (beyond 2^170 or below 2^-179 in f64).
    let mut best_sq = T::ZERO;
    let end = loop {
        let vv = v.length_squared();
        if simplex.len() == 4 || vv <= zero * zero {
            break End::Overlap;
        }
        if iterations >= MAX_ITERS {
            break End::MaxIterations;
        }
        let p = cso.support(-v);
        iterations += 1;
        let vw = v.dot(p.w);
        // Keep the best certificate: `vw / |v|` compared without roots.
        if vw > T::ZERO {
            let sq = vw * (vw / vv);
            if sq > best_sq {
                best_sq = sq;
                best_bound = (vw, vv);
            }
        }
        let _iteration = rec::scope!("gjk iteration", recording);
        if recording {
            record_support(cso, &p, (vv, vw), rel);
        }
        let end = 'step: {
            // Squared forms of `v·w > r |v|` and `|v|² − v·w ≤ rel (|v| + scale) |v|`
            // (the latter with (|v| + scale)² ≤ 2 (|v|² + scale²)): no square root.
            if let Some(r) = radius
                && vw > T::ZERO
                && vw * vw > r * r * vv
            {
                break 'step Some(End::Separated);
            }
            let gap = vv - vw;
            if gap <= T::ZERO || gap * gap <= rel * rel * T::TWO * (vv + cso.scale * cso.scale) * vv
            {
                break 'step Some(End::Gap);
            }
            if simplex.contains_w(p.w) {
                break 'step Some(End::Repeated);
            }
            simplex.push(p);
            if recording {
                record_added(cso, simplex);
            }
            // Solve first and reduce once the step is kept: a step that makes
            // no progress only has to drop `p` again (no copy of the simplex).
            let (weights, next) = simplex.solve();
            if recording {
                record_reduced(cso, simplex, weights, next);
            }
            let within = radius.is_some_and(|r| next.length_squared() <= r * r);
            let enclosed = weights.iter().all(|&l| l > T::ZERO);
            if !within && !enclosed && next.length_squared() >= vv {
                simplex.pop();
                if restarts < 2 {
                    // Stalled above the tolerance: rounding in a sliver
                    // simplex hides the progress `p` proves. Restart from
                    // `p` and the simplex's closest point alone.
                    restarts += 1;
                    let keep = *simplex;
                    simplex.clear();
                    let (ca, cb) = keep.closest_points();
                    simplex.push(cso_point_between(&keep, ca, cb));
                    simplex.push(p);
                    v = simplex.closest_to_origin();
                    break 'step None;
                }
                break 'step Some(End::NoProgress);
            }
            simplex.reduce(weights);
            v = next;
            if within {
                break 'step Some(End::WithinRadii);
            }
            None
        };
        if let Some(end) = end {
            break end;
        }
    };
    rec::text!("gjk terminated: {end:?} after {iterations} iterations");
    let (status, stall_bound) = status_of(cso, simplex, end, v, rel);
    // A support plane's bound holds however the loop ended, unless the
    // simplex encloses the origin (then any positive bound is rounding).
    let lower = if simplex.len() == 4 || best_bound.0.max(stall_bound) <= T::ZERO {
        T::ZERO
    } else {
        (best_bound.0 / best_bound.1.sqrt()).max(stall_bound)
    };
    CoreResult {
        v,
        end,
        lower,
        iterations,
        status,
    }
}

/// The point of `s` with A-side `a` and B-side `b` (its closest point) as
/// a CSO point: a convex combination of its corners, so in the CSO.
fn cso_point_between<T: Real>(s: &Simplex<T>, a: V3<T>, b: V3<T>) -> CsoPoint<T> {
    let first = s.points()[0];
    CsoPoint {
        w: a - b,
        a,
        b,
        local_a: first.local_a,
        local_b: first.local_b,
    }
}

/// Records an iteration's support point, the distance bounds, and the gap
/// between them at which the loop stops (`|v|² − v·w ≤ rel·√(2(|v|² +
/// scale²))·|v|`, divided by `|v|`): the viewer plots the gap against it. The
/// recording steps of [`run`] are out of line so its loop keeps its registers.
#[cold]
#[inline(never)]
fn record_support<T: Real>(cso: &Cso<'_, T>, p: &CsoPoint<T>, (vv, vw): (T, T), rel: T) {
    rec::point!(cso "support w", cso.world_vector(p.w), rec::Rgba::RED);
    rec::point!("support on A", cso.world_point(p.a), rec::Rgba::RED);
    rec::point!("support on B", cso.world_point(p.b), rec::Rgba::ORANGE);
    rec::value!("upper bound", vv.sqrt() - cso.radius());
    rec::value!("lower bound", vw / vv.sqrt() - cso.radius());
    let scale = cso.scale;
    rec::value!(
        "gap tolerance",
        rel * (T::TWO * (vv + scale * scale)).sqrt()
    );
}

/// Records the simplex with the new support point added.
#[cold]
#[inline(never)]
fn record_added<T: Real>(cso: &Cso<'_, T>, simplex: &Simplex<T>) {
    rec::simplex!("after add", cso.world_simplex(simplex));
    rec::pause!("after add");
}

/// Records the simplex reduced by `weights`, its closest point `next` and the next search direction.
#[cold]
#[inline(never)]
fn record_reduced<T: Real>(cso: &Cso<'_, T>, simplex: &Simplex<T>, weights: [T; 4], next: V3<T>) {
    let mut reduced = *simplex;
    reduced.reduce(weights);
    rec::simplex!("after reduce", cso.world_simplex(&reduced));
    rec::point!(cso "closest v", cso.world_vector(next), rec::Rgba::GREEN);
    rec::line!(cso "search direction", V3::<T>::ZERO, cso.world_vector(-next), rec::Rgba::BLUE);
    rec::pause!("after reduce");
}

/// The outcome of a GJK run that ended with `end` on `simplex` at closest
/// point `v` under relative tolerance `rel`, and the lower bound a stall
/// proves (0 otherwise).
///
/// `Converged` means the certificate meets the tolerance: the upper bound
/// `|v|` and the lower bound from the support point in direction `−v` are
/// within `rel · √(2(|v|² + scale²))` of each other, the criterion the loop
/// stops on. A stall at the rounding limit (a repeated support point, no
/// decrease) converged only when that holds too, its bound taken along the
/// simplex's normal ([`face_normal`]); otherwise the answer is
/// `Degenerate`: the best bound found, not certified to the tolerance.
pub(super) fn status_of<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    end: End,
    v: V3<T>,
    rel: T,
) -> (Status, T) {
    match end {
        End::MaxIterations => (Status::MaxIterations, T::ZERO),
        End::NoProgress | End::Repeated => {
            // Along the simplex's own normal where it has one: `−v`'s
            // direction is only as good as `v` is long (two segments
            // touching end to end read a bound of −2e-4 along it).
            let vl = v.length();
            if vl <= T::ZERO {
                return (Status::Converged, T::ZERO);
            }
            let n = face_normal(simplex, v).unwrap_or(-v / vl);
            let lower = -n.dot(cso.support(n).w);
            let gap = vl - lower;
            if gap <= T::ZERO || gap * gap <= rel * rel * T::TWO * (vl * vl + cso.scale * cso.scale)
            {
                (Status::Converged, lower)
            } else {
                (Status::Degenerate, lower)
            }
        }
        _ => (Status::Converged, T::ZERO),
    }
}

/// The distance between `a` and `b` (full shapes), their closest points and the normal.
pub fn distance<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Distance<T> {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Distance::invalid, |s, a, b, _| {
        s.distance(distance(a, b))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = {
        rec::shapes!(a, b);
        distance_in(a, b)
    };
    answer::distance(&query, &out);
    out
}

/// [`distance`] without declaring the shapes or recording the answer.
fn distance_in<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Distance<T> {
    if let Some(c) = Centers::of(a, b) {
        return c.distance();
    }
    let cso = Cso::new(a, b);
    if let Some(out) = boxes::distance(&cso) {
        return out;
    }
    distance_gjk(&cso)
}

/// The distance by GJK (and the witness polish on curved cores): every
/// pair but the closed forms and boxes the separating axis test decides.
fn distance_gjk<T: Real>(cso: &Cso<'_, T>) -> Distance<T> {
    distance_gjk_in(cso, &mut Simplex::new()).0
}

/// [`distance_gjk`] on the caller's `simplex`: where the shapes touch or
/// overlap, GJK's final state stays in it and its result is returned too,
/// for EPA to go on from (the signed distance).
pub(super) fn distance_gjk_in<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
) -> (Distance<T>, Option<CoreResult<T>>) {
    let mut core = if hands_over(cso) {
        match rough_then_polish(cso, simplex, rel_tol::<T>()) {
            Ok(out) => return (out, None),
            Err(core) => core,
        }
    } else {
        run_for_witnesses(cso, simplex)
    };
    let touching = touches(cso, simplex, &mut core, None);
    let out = finish_distance(cso, simplex, &core, rel_tol::<T>(), touching);
    (out, out.intersecting.then_some(core))
}

/// GJK for a distance answer's witnesses, from `simplex`. Polytope cores
/// converge in a few steps: in f32 they run on past the gap tolerance to
/// near rounding (measured: hull16's worst error 1.6e-5 → 2.8e-7 of the
/// size at no measurable cost; a warm start that stopped at the tolerance
/// put f32 boxes' `Unique` points 2.4e-3 of the size off), the status
/// judged at the default tolerance.
pub(super) fn run_for_witnesses<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
) -> CoreResult<T> {
    if T::PRECISION == rec::Precision::F32 && !cso.curved() {
        let mut c = run_with(cso, simplex, None, T::from_f64(1e-6));
        if c.status != Status::MaxIterations {
            let (status, bound) = status_of(cso, simplex, c.end, c.v, rel_tol::<T>());
            c.status = status;
            if simplex.len() < 4 {
                c.lower = c.lower.max(bound);
            }
        }
        c
    } else {
        run(cso, simplex, None)
    }
}

/// A distance query's CSO and GJK result where the shapes touch or overlap.
pub(crate) type Kept<'a, T> = (Cso<'a, T>, CoreResult<T>);

/// The distance query's answer for the signed distance (shapes declared,
/// nothing recorded), and, where GJK found the shapes touching or
/// overlapping, its CSO with the final state in `simplex` and its result:
/// the penetration goes on from there instead of running GJK again.
pub(crate) fn distance_keeping<'a, T: Real>(
    a: &Placed<'a, T>,
    b: &Placed<'a, T>,
    simplex: &mut Simplex<T>,
) -> (Distance<T>, Option<Kept<'a, T>>) {
    rec::shapes!(a, b);
    if let Some(c) = Centers::of(a, b) {
        return (c.distance(), None);
    }
    let cso = Cso::new(a, b);
    if let Some(out) = boxes::distance(&cso) {
        return (out, None);
    }
    let (out, core) = distance_gjk_in(&cso, simplex);
    (out, core.map(|c| (cso, c)))
}

/// [`distance`] to a looser relative tolerance `rel`: GJK stops once its
/// upper and lower bounds are within `√2 · rel · (distance + size)` (the
/// test avoids a square root), and the distance returned (the upper bound)
/// is within that of the true one.
///
/// For callers that need less than [`distance`]'s near-rounding accuracy
/// (3.7e-11 in f64, 2.4e-5 in f32): on curved shapes, whose GJK converges
/// linearly, each factor of ~4 in `rel` saves about two iterations. Polytope
/// pairs converge exactly either way. `rel` is clamped to at least the
/// default and at most 0.01; touching is decided at the same tolerance
/// (at the default, exactly as [`distance`] decides it).
pub fn distance_with_tolerance<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    rel: T,
) -> Distance<T> {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Distance::invalid, |s, a, b, _| {
        s.distance(distance_with_tolerance(a, b, rel))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = (|| {
        rec::shapes!(a, b);
        let rel = rel.max(rel_tol::<T>()).min(T::from_f64(0.01));
        if rel == rel_tol::<T>() {
            // The default tolerance: the default query, touching included.
            return distance_in(a, b);
        }
        if let Some(mut c) = Centers::of(a, b) {
            // Touching is decided at `rel` here too.
            c.tol = c.tol / touch_tol::<T>() * rel;
            return c.distance();
        }
        let cso = Cso::new(a, b);
        if let Some(out) = boxes::distance(&cso).filter(|d| d.distance > rel * cso.scale) {
            return out;
        }
        let mut simplex = Simplex::new();
        let core = if hands_over(&cso) && rel < rough_rel(&cso) {
            match rough_then_polish(&cso, &mut simplex, rel) {
                Ok(out) => return out,
                Err(core) => core,
            }
        } else {
            run_with(&cso, &mut simplex, None, rel)
        };
        let touching = core.overlap() || core.v.length() - cso.radius() <= rel * cso.scale;
        finish_distance(&cso, &simplex, &core, rel, touching)
    })();
    answer::distance(&query, &out);
    out
}

/// The full-shape distance from GJK's final `simplex` and `core` result
/// (stopped at relative tolerance `rel`), `touching` as decided by
/// [`touches`]. Apart shapes get their witnesses and normal
/// polished (`witness::polish`); the bounds keep the better of GJK's and the polish's.
pub(super) fn finish_distance<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &CoreResult<T>,
    rel: T,
    touching: bool,
) -> Distance<T> {
    let (ca, cb) = closest_points(simplex);
    let r = cso.radius();
    let dc = core.v.length();
    // The certificate: the upper bound is the distance between the closest
    // points, which are convex combinations of support points (so points of
    // the shapes, to rounding), not `|v|`: a sliver's projected `v` may
    // undershoot by its rounding. The distance stays inside the bracket.
    let mut upper_core = (ca - cb).length();
    let mut lower_core = core.lower;
    let mut iterations = core.iterations;
    let (distance, la, lb, n, intersecting, witness) =
        if dc > T::ZERO && (!touching || !core.overlap()) {
            // Unit normal from A to B in A's frame: the core distance vector is a − b.
            let n = face_normal(simplex, core.v).unwrap_or(-core.v / dc);
            if touching {
                // Touching, or the cores within the radii: a common point on
                // the core axis.
                let t = ((cso.radius_a + dc - cso.radius_b) * T::HALF)
                    .max(T::ZERO)
                    .min(dc);
                let p = ca + n * t;
                (T::ZERO, p, p, n, true, Witness::NotUnique)
            } else {
                let distinct = simplex.distinct();
                let on_feature =
                    simplex.settled(distinct, cso.scale, dc, witness_tol::<T>() * cso.scale);
                let sep = separation_at(cso, core, (ca, cb, distinct, on_feature), n);
                iterations += sep.evaluations;
                lower_core = lower_core.max(sep.lower);
                if sep.a != ca || sep.b != cb {
                    // The polish's or the support sets' points: no farther apart.
                    upper_core = upper_core.min((sep.b - sep.a).length());
                }
                let n = sep.normal;
                (
                    dc - r,
                    sep.a + n * cso.radius_a,
                    sep.b - n * cso.radius_b,
                    n,
                    false,
                    sep.witness,
                )
            }
        } else {
            (
                T::ZERO,
                ca,
                cb,
                fallback_direction(cso),
                true,
                Witness::NotUnique,
            )
        };
    let upper_bound = (upper_core - r).max(T::ZERO);
    let lower_bound = (lower_core - r).max(T::ZERO).min(upper_bound);
    let distance = distance.max(lower_bound).min(upper_bound);
    // Overlapping or touching shapes have closest points that (nearly)
    // meet: a needle cone by a plate 1e-9 thick was called intersecting,
    // `Converged`, with its points 0.36 apart (GJK's thin simplex held the
    // origin to rounding only).
    let met = if intersecting {
        upper_bound <= T::from_f64(4.0) * rel * cso.scale
    } else {
        (upper_bound - lower_bound) * (upper_bound - lower_bound)
            <= rel * rel * T::TWO * (dc * dc + cso.scale * cso.scale)
    };
    // A stall whose own gap missed the tolerance (`status_of`) may end
    // with bounds that meet it, from the polish or the support sets: a
    // box's corner 5.8e-8 from a plate's narrow face 3.7e-9 thick read
    // `Degenerate` on a bracket 4.8e-17 wide. `Converged` is the
    // certificate meeting the tolerance, nothing else.
    let status = match core.status {
        Status::Converged if !met => Status::Degenerate,
        Status::Degenerate if met && !intersecting => Status::Converged,
        s => s,
    };
    let witness = if status == Status::Converged || witness == Witness::NotUnique {
        witness
    } else {
        Witness::Approximate
    };
    let out = Distance {
        distance,
        point_a: cso.world_point(la),
        point_b: cso.world_point(lb),
        normal: cso.world_vector(n),
        intersecting,
        lower_bound,
        upper_bound,
        iterations,
        status,
        witness,
    };
    if rec::ENABLED && rec::is_on() {
        rec::point!("closest on A", out.point_a, rec::Rgba::GREEN);
        rec::point!("closest on B", out.point_b, rec::Rgba::GREEN);
        rec::text!(
            "distance {:?}, intersecting {}",
            out.distance,
            out.intersecting
        );
    }
    out
}

/// When GJK ends on a well-shaped triangle, its plane normal (towards B);
/// on an edge, `−v` made perpendicular to it: exact to rounding even when
/// the distance is tiny, where `−v / |v|` is not (its error along the
/// edge is the rounding of the edge's points: two segments touching end
/// to end, `v` 9.5e-13 long, tilted it by 2e-4 rad, and the depth along
/// it read 2e-4).
pub(crate) fn face_normal<T: Real>(s: &Simplex<T>, v: V3<T>) -> Option<V3<T>> {
    if let [p0, p1] = s.points() {
        let e = p1.w - p0.w;
        let across = v - e * (v.dot(e) / e.length_squared());
        // The closest point inside the edge: `v` is (nearly) across it (a
        // point edge gives NaN, no normal).
        let inside = across.length_squared() > T::from_f64(0.25) * v.length_squared();
        return inside.then(|| across.try_normalize().map(|n| -n)).flatten();
    }
    let [p0, p1, p2] = s.points() else {
        return None;
    };
    let (e1, e2) = (p1.w - p0.w, p2.w - p0.w);
    let n = e1.cross(e2);
    let size = e1.length_squared().max(e2.length_squared());
    if n.length_squared() <= T::from_f64(1e-6) * size * size {
        return None;
    }
    let n = n.try_normalize()?;
    Some(if n.dot(v) > T::ZERO { -n } else { n })
}

/// A unit vector (A's frame) for when no direction is defined: from A's
/// origin towards B's, or +Y when they coincide.
pub(crate) fn fallback_direction<T: Real>(cso: &Cso<'_, T>) -> V3<T> {
    cso.offset().try_normalize().unwrap_or(V3::<T>::Y)
}

/// Whether `a` and `b` overlap (or touch within tolerance). Stops at the
/// first separating axis or as soon as the cores are within the radii.
/// Two boxes without margins are first tried with the separating axis test
/// (`sat` module), which answers without GJK unless they nearly touch.
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
        if let Some(intersecting) = boxes::intersect(a, b) {
            rec::text!("box–box: the separating axis test decided, intersecting: {intersecting}");
            return Overlap {
                intersecting,
                iterations: 0,
                status: Status::Converged,
            };
        }
        let cso = Cso::new(a, b);
        let r = cso.radius();
        // Touching within the tolerance counts as intersecting, as in `distance`.
        let radius = Some(r + touch_tol::<T>() * cso.scale);
        let mut simplex = Simplex::new();
        let mut core = run(&cso, &mut simplex, radius);
        let intersecting = touches(&cso, &mut simplex, &mut core, radius);
        rec::text!("intersecting: {intersecting}");
        Overlap {
            intersecting,
            iterations: core.iterations,
            status: core.status,
        }
    })();
    answer::intersect(&query, out);
    out
}

/// [`distance`] by GJK alone (no separating axis test), for the unit tests
/// of the `sat` module.
#[cfg(test)]
pub(crate) fn distance_gjk_for_tests<T: Real>(cso: &Cso<'_, T>) -> Distance<T> {
    distance_gjk(cso)
}
