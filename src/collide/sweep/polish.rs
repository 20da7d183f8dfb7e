//! The contact normal at a sweep's time of impact, polished on the shapes'
//! supports (A's frame at t = 0, the inflated CSO `K` and A's path point `x`).
//!
//! The contact normal `n*` maximises the support-plane gap `g(n) = n·x −
//! h_K(n)`. Around `n*`, each tangent direction is either
//! - *smooth*: the support point `k(n)` moves with `n` (curved surfaces),
//!   and `n*` zeroes the tangential part of `k(n) − x`; its Jacobian is the
//!   summed curvature radii, so Newton's method converges quadratically;
//! - *flat*: `k(n)` jumps across `n*` between the ends of an edge of `K`
//!   (a face, a cylinder's or capsule's side), and `n*` is perpendicular to
//!   that edge.
//!
//! Symmetric probes at `±PROBE` rad tell the two apart (a jump is longer than
//! any smooth motion, `2·ρ·PROBE`, up to a radius of 8 × the size; a rim
//! seen almost along its axis moves faster, so a short jump is re-probed at
//! an eighth of the angle across its own perpendicular, where an edge's
//! stays and a curve's shrinks); an edge is re-probed along itself until
//! its two ends are supports of the same smooth position (each round divides
//! its error by ~`L / (2ρ·PROBE)`). Two flat directions give the face's
//! normal, one gives an axis to turn about, none a 2-D Newton step. A step
//! is kept only where the gap does not fall (in f32, within the gap's
//! rounding, where the gradient shrinks).

use super::crossing::{Full, Unique, inflate, support};
use crate::collide::cso::Cso;
use crate::collide::simplex::CsoPoint;
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// The most rounds of the polish.
const ROUNDS: u32 = 6;
/// Halvings of a step that lowers the gap before it is given up.
const HALVINGS: u32 = 3;
/// Re-probes of an edge along itself.
const EDGE_ROUNDS: u32 = 3;

/// The probe angle (rad): larger than the methods' normal errors in f64,
/// so a probe pair straddles the edge where the normal is flat.
fn probe<T: Real>() -> T {
    T::from_f64(1e-4)
}

/// The widest probe angle (rad) a round retries with when no step along
/// its proposal raised the gap: an f32 method's normal can be off by
/// ~1e-2 rad (its distance tolerance's square root), so probes at
/// [`probe`] miss a flat edge and see its end as a smooth point whose
/// Newton step turns the wrong way.
const WIDEST_PROBE: f64 = 3e-2;

/// The polished contact normal and what the polish learnt about it.
pub(super) struct Polished<T: Real> {
    /// The contact normal, unit, A's frame, from A towards B.
    pub n: V3<T>,
    /// The support point of `K` along `n`.
    pub hub: Full<T>,
    /// Which shape's support the probes found unique around `n` (none
    /// probed: `None`).
    pub unique: Option<Unique>,
    /// Whether the normal settled: a face's normal, or a last Newton step
    /// below `4√ε` (its error is then that step's square).
    pub settled: bool,
    /// The last step's probes narrowed past a ridge (`about_edge`): the
    /// step was taken on a curve read beside a jump, which can stall up to
    /// 2e-5 rad off (f64) with a step too small to tell.
    pub ridge: bool,
    /// Neither support stayed put and no distance backed off from the
    /// contact confirmed the normal (set by `certify`): the polish may
    /// have stalled up to ~6e-6 rad off, so a contact it would call unique
    /// is approximate.
    pub unconfirmed: bool,
    /// The contact points on A (A's frame at t = 0) and on B (A's frame),
    /// where the normal came with certified ones (`certify`'s rounded
    /// shapes: the cores' unique closest points); `None` from the polish.
    pub points: Option<(V3<T>, V3<T>)>,
    /// Where the normal came from.
    pub from: NormalFrom,
}

/// Where a polished normal came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NormalFrom {
    /// This polish's probes and steps, which work to the larger shape's
    /// size.
    Probes,
    /// A closed form (a point core) or the distance query (rounded
    /// shapes).
    Closed,
}

/// The contact normal at `x` from the method's `n0` (unit). `near` is the
/// method's last simplex placed at t = 0: when it is a face of `K`
/// containing the support in `n0` (polytopes), `n0` is that face's normal
/// already and is returned as is.
pub(super) fn polish<T: Real>(
    cso: &Cso<'_, T>,
    x: V3<T>,
    n0: V3<T>,
    near: &[CsoPoint<T>],
    iterations: &mut u32,
) -> Polished<T> {
    let slack = T::from_f64(16.0) * T::EPSILON * (x.length() + cso.scale);
    let mut n = n0;
    let mut hub = support(cso, n);
    *iterations += 1;
    if on_face(cso, n, &hub, near, slack) {
        return Polished {
            n,
            hub,
            unique: None,
            settled: true,
            ridge: false,
            unconfirmed: false,
            points: None,
            from: NormalFrom::Probes,
        };
    }
    let mut settled = false;
    let mut ridge = false;
    let mut unique = None;
    let mut gap = n.dot(x - hub.k);
    let across = |n: V3<T>, v: V3<T>| (v - n * n.dot(v)).length();
    let f32_ = T::PRECISION == rec::Precision::F32;
    // A step below this is the last: Newton's error after it is its square.
    let done = T::from_f64(4.0) * T::EPSILON.sqrt();
    let mut rounds = 0;
    let mut h = probe::<T>();
    let mut tries = 0;
    let mut classified_wide = false;
    let mut last_turn = T::MAX;
    while rounds < ROUNDS && tries < ROUNDS + 2 {
        tries += 1;
        let mut beside = false;
        let (base, step, alone) = proposal(cso, x, n, &hub, h, (iterations, &mut beside));
        unique = Some(alone);
        classified_wide = h > probe::<T>();
        // A face's normal (no step) is exact: nothing further to polish.
        let face = step == V3::<T>::ZERO && base != n;
        let mut scale = T::ONE;
        let mut kept = None;
        for _ in 0..=HALVINGS {
            if let Some(next) = (base + step * scale).try_normalize() {
                let k = support(cso, next);
                *iterations += 1;
                let g = next.dot(x - k.k);
                // Strictly better: within rounding a step could drift. Near
                // the top the gap is flat to second order and its rounding
                // hides a better normal (in f32 below ~1e-4 rad, in f64
                // 1e-8): there, in f32, the gradient (the tangential part of
                // `x − k`) must shrink.
                let better = g >= gap
                    || (f32_ && g >= gap - slack && across(next, x - k.k) < across(n, x - hub.k));
                if better {
                    kept = Some((next, k, g));
                    break;
                }
            }
            scale *= T::HALF;
        }
        let Some((next, k, g)) = kept else {
            // No step raised the gap: at the top where Newton's step (or
            // the turn to the face's normal it proposed) is below its own
            // rounding. Not from wide probes, whose step is not Newton's:
            // their fixed point is off by up to their angle (f32, two
            // cylinders' rims, narrow probes reading a jump, wide ones
            // settled 6.2e-4 rad off, the points 5.8e-4 of the size,
            // `Unique`).
            settled = h == probe::<T>()
                && if face {
                    base.try_normalize()
                        .is_some_and(|f| n.cross(f).length() <= done)
                } else {
                    step.length() <= done
                };
            if h < T::from_f64(WIDEST_PROBE) && step.length() > T::from_f64(10.0) * h {
                // A step far beyond the probes that lowers the gap: they
                // missed a flat edge the normal is off from by more than
                // their angle. Ten times wider probes straddle it.
                h = (h * T::from_f64(10.0)).min(T::from_f64(WIDEST_PROBE));
                rec::text!("no step raised the gap: probes at {h:?} rad");
                continue;
            }
            break;
        };
        // Wide probes' differences carry the smooth motion over their
        // angle: their step is not Newton's nor their face normal exact,
        // and narrow ones go on from there.
        let narrow = h == probe::<T>();
        h = probe::<T>();
        let turn = n.cross(next).length();
        (n, hub, gap) = (next, k, g);
        ridge = beside;
        rounds += 1;
        // Newton's error after a step is its square where it converges
        // quadratically; where the turns shrink only linearly (a curve
        // read beside a box's edge: 2e-7 rad off after a last turn of
        // 6e-8) the error is the turns still to come, `turn·ρ/(1 − ρ)`.
        let rate = turn / last_turn;
        last_turn = turn;
        let slow = rate > T::HALF && turn * rate > done * (T::ONE - rate);
        // The last turn's own error is not its square where the probes'
        // Jacobian is off (a disc's rim on a cylinder's or capsule's side:
        // settled after turns of 6e-8, 1e-8 to 1.5e-7 rad off, its point
        // 1e-8 to 5e-8 of the size, `Unique`): stop below a tenth of it.
        let stop = done * T::from_f64(0.1);
        if narrow && ((turn <= stop && !slow) || face) {
            settled = true;
            break;
        }
    }
    if classified_wide {
        // Wide probes call a face smaller than their jump threshold (16 ×
        // angle × size) a unique point, whose support the contact would
        // snap to: the last word on which support is unique is narrow.
        unique = Some(probe_pairs(cso, n, probe::<T>(), iterations).1);
    }
    if rounds > 0 {
        rec::text!(
            "normal polished on the supports in {rounds} rounds: turned by {:?} rad",
            n0.cross(n).length()
        );
    }
    Polished {
        n,
        hub,
        unique,
        settled,
        ridge,
        unconfirmed: false,
        points: None,
        from: NormalFrom::Probes,
    }
}

/// Whether `n` is the normal of a face of `K` that the method's simplex lies
/// in: the simplex's plane is perpendicular to `n` and holds `hub`.
fn on_face<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    hub: &Full<T>,
    near: &[CsoPoint<T>],
    slack: T,
) -> bool {
    if near.len() != 3 {
        return false;
    }
    let k = |i: usize| inflate(cso, &near[i], n).k;
    let (k0, k1, k2) = (k(0), k(1), k(2));
    let Some(face) = (k1 - k0).cross(k2 - k0).try_normalize() else {
        return false;
    };
    let level = |q: V3<T>| (n.dot(q - hub.k)).abs() <= slack;
    face.cross(n).length() <= T::from_f64(64.0) * T::EPSILON && level(k0) && level(k1) && level(k2)
}

/// The next normal to try from `n`: a base and a step along which it may be
/// halved, and which shape's support stayed put over the probes. Probes
/// both tangents; see the module's comment.
fn proposal<T: Real>(
    cso: &Cso<'_, T>,
    x: V3<T>,
    n: V3<T>,
    hub: &Full<T>,
    h: T,
    (iterations, ridge): (&mut u32, &mut bool),
) -> (V3<T>, V3<T>, Unique) {
    let (probes, unique) = probe_pairs(cso, n, h, iterations);
    let (base, step) = step_from(cso, (x, n, h), hub, probes, (iterations, ridge));
    (base, step, unique)
}

/// The probe pairs at `±h` rad around `n` along both tangents, and which
/// shape's support stayed put over them.
fn probe_pairs<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    h: T,
    iterations: &mut u32,
) -> ([Probe<T>; 2], Unique) {
    let jump = T::from_f64(16.0) * h * cso.scale;
    let (t1, t2) = crate::real::tangents::<T>(n);
    // A core's difference below the jump threshold is smooth motion.
    let smooth = |d: V3<T>| {
        let l = d.length();
        if l <= jump { l } else { T::ZERO }
    };
    // The probes' difference on K, and the lengths of A's and of B's.
    let spread = |t: V3<T>, iterations: &mut u32| {
        *iterations += 2;
        let plus = support(cso, (n + t * h).try_normalize().unwrap_or(n));
        let minus = support(cso, (n - t * h).try_normalize().unwrap_or(n));
        let (a, b) = (plus.a - minus.a, plus.b - minus.b);
        let probe = Probe {
            t,
            k: plus.k - minus.k,
            core: larger::<T>(a, b),
            smooth: smooth(a) + smooth(b) + T::TWO * h * (cso.radius_a + cso.radius_b),
        };
        (probe, a.length(), b.length())
    };
    let (p1, a1, b1) = spread(t1, iterations);
    let (p2, a2, b2) = spread(t2, iterations);
    let unique = if a1.max(a2) <= jump {
        Unique::A
    } else if b1.max(b2) <= jump {
        Unique::B
    } else {
        Unique::Neither
    };
    ([p1, p2], unique)
}

/// A probe pair's differences across the normal along one tangent.
#[derive(Clone, Copy)]
struct Probe<T: Real> {
    /// The tangent the normal was tilted along.
    t: V3<T>,
    /// The difference of the two supports of `K`.
    k: V3<T>,
    /// The larger of A's and B's core differences, and whether it is A's.
    core: (V3<T>, bool),
    /// How far the supports move smoothly over the pair: the core
    /// differences below the jump threshold and the radii's turn.
    smooth: T,
}

/// The proposal's base and step from its two `probes` at `h` rad around `n`.
fn step_from<T: Real>(
    cso: &Cso<'_, T>,
    (x, n, h): (V3<T>, V3<T>, T),
    hub: &Full<T>,
    [p1, p2]: [Probe<T>; 2],
    (iterations, ridge): (&mut u32, &mut bool),
) -> (V3<T>, V3<T>) {
    let (t1, d1, t2, d2) = (p1.t, p1.k, p2.t, p2.k);
    let jump = T::from_f64(16.0) * h * cso.scale;
    let f = hub.k - x;
    let (jump1, jump2) = (d1.length() > jump, d2.length() > jump);
    // Both probes crossing one edge (set diagonally to the tangents) is one
    // flat direction, not a face: nearly parallel jumps, or jumps whose
    // parts across each other are no more than the supports' smooth motion
    // over the probes (the cores' below the jump and the radii's). A
    // capsule's side 2 237 thick beside a cylinder's side moved 0.45 across
    // jumps of 5.5 (0.11 rad): read as a face, its normal was 2.7e-6 rad
    // off the contact's. A polytope's small thin face, its diagonals the
    // jumps, has no smooth motion across them.
    let (l1, l2) = (d1.length(), d2.length());
    let across = d1.cross(d2).length();
    let one_edge = jump1
        && jump2
        && (across <= T::from_f64(0.1) * l1 * l2 || across <= (p1.smooth + p2.smooth) * l1.max(l2));
    let (mut flat1, mut flat2) = if one_edge {
        (l1 >= l2, l2 > l1)
    } else {
        (jump1, jump2)
    };
    if flat1 && flat2 {
        // A face: its normal, oriented as n, unless one of its two jumps is
        // a fast curve's (its shape's spread shrinks at the face's normal).
        let face = d1.cross(d2);
        let face = if face.dot(n) < T::ZERO { -face } else { face };
        let face = face.try_normalize().unwrap_or(n);
        flat1 = jumps_at(cso, (face, h), p1.core, iterations);
        flat2 = jumps_at(cso, (face, h), p2.core, iterations);
        if flat1 && flat2 {
            return (face, V3::<T>::ZERO);
        }
    }
    // Newton's step on the probes' Jacobian: every direction smooth.
    let smooth = || {
        let two_h = T::TWO * h;
        let jac = [
            [t1.dot(d1) / two_h, t1.dot(d2) / two_h],
            [t2.dot(d1) / two_h, t2.dot(d2) / two_h],
        ];
        let flat = T::from_f64(1e-6) * cso.scale;
        match newton_step(jac, [t1.dot(f), t2.dot(f)], flat) {
            Some([a, b]) => (n, t1 * a + t2 * b),
            None => (n, V3::<T>::ZERO),
        }
    };
    if !flat1 && !flat2 {
        return smooth();
    }
    let d = if flat1 { d1 } else { d2 };
    let (edge, last) = edge_along(cso, (n, h), d, iterations);
    if !jumps_at(cso, (n, h), last, iterations) {
        return smooth();
    }
    // n turned into the plane perpendicular to the edge, then Newton
    // about the edge.
    let base = (n - edge * n.dot(edge)).try_normalize().unwrap_or(n);
    let u = base.cross(edge);
    let at = |s: T, iterations: &mut u32| {
        *iterations += 1;
        support(cso, (base + u * s).try_normalize().unwrap_or(base))
    };
    // A normal already perpendicular to the edge is its own base: its
    // support is the hub (the support is a function of the direction).
    let on_base = (base + u * T::ZERO).try_normalize().unwrap_or(base);
    let centre = if same::<T>(on_base, n) {
        *hub
    } else {
        at(T::ZERO, iterations)
    };
    let fu = u.dot(centre.k - x);
    let step = |curvature: T| {
        if curvature > T::from_f64(1e-6) * cso.scale {
            (-fu / curvature)
                .max(-T::from_f64(0.1))
                .min(T::from_f64(0.1))
        } else {
            T::ZERO
        }
    };
    let (curvature, narrow) = about_edge(cso, h, |s| at(s, iterations), u);
    *ridge |= narrow < h;
    let mut theta = step(curvature);
    if narrow < h && theta.abs() > narrow {
        // The narrowed probes' curve holds only over their own span: a
        // step beyond it keeps the wide probes' estimate (a second review:
        // narrowed to 1e-10 rad, a curvature of 3.4e8 sent a sweep's
        // normal 2.8e-6 rad off and its bracket wide).
        let wide = u.dot(at(h, iterations).k - at(-h, iterations).k) / (T::TWO * h);
        theta = step(wide);
    }
    (base, u * theta)
}

/// How fast the support of `K` at `base + u·s` moves along `u` (the
/// curvature radius about an edge), from `at(±h)`. Where the two supports
/// jump (a ridge of either shape within `h` of `base`: a short edge, an
/// edge nearly perpendicular to the normal) the difference is the jump's,
/// not the curve's, and Newton's step about the edge would stall beside
/// the ridge (1e-6 to 2e-5 rad off in f64): the probes narrow sixteenfold,
/// down to 1e-9 rad (f64; f32 keeps `h`), until they see a curve. The
/// curvature and the probes' angle it was read at.
fn about_edge<T: Real>(
    cso: &Cso<'_, T>,
    mut h: T,
    mut at: impl FnMut(T) -> Full<T>,
    u: V3<T>,
) -> (T, T) {
    let floor = match T::PRECISION {
        rec::Precision::F64 => T::from_f64(1e-9),
        rec::Precision::F32 => h,
    };
    loop {
        let (plus, minus) = (at(h), at(-h));
        let jump = (plus.a - minus.a).length().max((plus.b - minus.b).length());
        if jump <= T::from_f64(16.0) * h * cso.scale || h <= floor {
            return (u.dot(plus.k - minus.k) / (T::TWO * h), h);
        }
        h = h / T::from_f64(16.0);
    }
}

/// Whether two directions are the same to the bit (a zero's sign too,
/// which a support's coordinates may carry).
fn same<T: Real>(a: V3<T>, b: V3<T>) -> bool {
    a == b && a.to_f64().map(f64::to_bits) == b.to_f64().map(f64::to_bits)
}

/// The larger of A's and B's core differences `a`, `b`, and whether it is A's.
fn larger<T: Real>(a: V3<T>, b: V3<T>) -> (V3<T>, bool) {
    if a.length() >= b.length() {
        (a, true)
    } else {
        (b, false)
    }
}

/// Whether a jump that probes at `h` rad around `n` found is one: `core`
/// is the jumping shape's core difference across the probes and whether it
/// is A's. Probes at `h / 8` along it, around `n` made perpendicular to it,
/// still span a true edge; a curve's spread shrinks with the angle. A rim
/// seen almost along its axis moves faster (curvature radius `R / sin θ`)
/// than the jump threshold's rate, and treated as an edge it kept the
/// normal's error along it (2.6e-3 rad on an f32 cone rim's sweep).
fn jumps_at<T: Real>(
    cso: &Cso<'_, T>,
    (n, h): (V3<T>, T),
    (core, on_a): (V3<T>, bool),
    iterations: &mut u32,
) -> bool {
    // Longer than a curve of radius 1000 × the size moves over the probes:
    // an edge (a rim that flat is a face to any precision the normal has).
    if core.length() > T::from_f64(2000.0) * h * cso.scale {
        return true;
    }
    let Some(e) = core.try_normalize() else {
        return true;
    };
    let base = (n - e * n.dot(e)).try_normalize().unwrap_or(n);
    let narrow = h / T::from_f64(8.0);
    let plus = cso.support((base + e * narrow).try_normalize().unwrap_or(base));
    let minus = cso.support((base - e * narrow).try_normalize().unwrap_or(base));
    *iterations += 2;
    let spread = if on_a {
        plus.a - minus.a
    } else {
        plus.b - minus.b
    };
    spread.length() * T::from_f64(4.0) > core.length()
}

/// Which shape's support moves smoothly with the polished normal `n`
/// where the polish's probes (1e-4 rad, a fixed rate) found neither: a rim
/// seen almost along its axis moves faster than that rate, and one seen
/// almost along a cone's side jumps to the apex at 1e-4 rad, not at 1e-6
/// (f64; f32 keeps the polish's probe). Smooth means the probes' spread
/// shrinks with the probe angle (a jump across a flat feature does not).
/// That shape's support is the contact point (the crossing's mix of a
/// fan's points is off by up to the fan's width).
pub(super) fn unique_near<T: Real>(cso: &Cso<'_, T>, n: V3<T>, iterations: &mut u32) -> Unique {
    let h = T::from_f64(1e-6).max(T::EPSILON.sqrt() * T::from_f64(0.3));
    let (t1, t2) = crate::real::tangents::<T>(n);
    // The largest spread of A's and of B's supports over probes at ±h.
    let spread = |h: T, iterations: &mut u32| {
        let (mut a, mut b) = (T::ZERO, T::ZERO);
        for t in [t1, t2] {
            *iterations += 2;
            let plus = support(cso, (n + t * h).try_normalize().unwrap_or(n));
            let minus = support(cso, (n - t * h).try_normalize().unwrap_or(n));
            a = a.max((plus.a - minus.a).length());
            b = b.max((plus.b - minus.b).length());
        }
        (a, b)
    };
    let (a, b) = spread(h, iterations);
    let (a8, b8) = spread(h / T::from_f64(8.0), iterations);
    let jump = T::from_f64(16.0) * h * cso.scale;
    let smooth = |wide: T, narrow: T| wide <= jump || narrow <= wide / T::from_f64(4.0);
    if smooth(a, a8) {
        Unique::A
    } else if smooth(b, b8) {
        Unique::B
    } else {
        Unique::Neither
    }
}

/// The unit direction of the edge of `K` that a probe pair across `n`
/// jumped along (`d`, the difference of its supports), and the last jump
/// along it (the larger core difference, and whether it is A's). The edge is one
/// shape's (a capsule's segment, a box's edge, a cylinder's side): it is
/// taken from that shape's core supports alone, so the other shape's smooth
/// motion between the probes does not tilt it, and re-probed along itself,
/// each time from `n` made perpendicular to it, so that its two ends are
/// supports of the same position along the shape's curve.
fn edge_along<T: Real>(
    cso: &Cso<'_, T>,
    (n, h): (V3<T>, T),
    d: V3<T>,
    iterations: &mut u32,
) -> (V3<T>, (V3<T>, bool)) {
    let tangential = |e: V3<T>| (e - n * n.dot(e)).try_normalize();
    let Some(mut edge) = tangential(d) else {
        return (d.try_normalize().unwrap_or(V3::<T>::X), (d, true));
    };
    let mut last = (d, true);
    for _ in 0..EDGE_ROUNDS {
        let base = n - edge * n.dot(edge);
        let plus = cso.support((base + edge * h).try_normalize().unwrap_or(n));
        let minus = cso.support((base - edge * h).try_normalize().unwrap_or(n));
        *iterations += 2;
        last = larger::<T>(plus.a - minus.a, plus.b - minus.b);
        let Some(e) = tangential(last.0) else {
            break;
        };
        let e = if e.dot(edge) < T::ZERO { -e } else { e };
        // A round is a function of the edge alone: one that gave back its
        // own edge (often in f32, whose probes at 1e-4 rad do not resolve
        // the edge's last tilt) would be repeated by every round after it.
        if same::<T>(e, edge) {
            break;
        }
        edge = e;
    }
    (edge, last)
}

/// The Newton step `−J⁺·f` of the symmetric part of the 2×2 Jacobian `jac`,
/// ignoring eigenvalues at or below `flat` (flat directions and rounding);
/// `None` when every direction is flat. Clamped to 0.1 rad.
fn newton_step<T: Real>(jac: [[T; 2]; 2], f: [T; 2], flat: T) -> Option<[T; 2]> {
    let a = jac[0][0];
    let d = jac[1][1];
    let b = (jac[0][1] + jac[1][0]) * T::HALF;
    let mean = (a + d) * T::HALF;
    let half = (a - d) * T::HALF;
    let rad = (half * half + b * b).sqrt();
    // Unit eigenvector of the larger eigenvalue; the other is its perpendicular.
    let (c, s) = if rad <= T::EPSILON * (mean.abs() + rad) {
        (T::ONE, T::ZERO)
    } else {
        let (ex, ey) = if half >= T::ZERO {
            (half + rad, b)
        } else {
            (b, rad - half)
        };
        let len = (ex * ex + ey * ey).sqrt();
        (ex / len, ey / len)
    };
    let mut step = [T::ZERO; 2];
    let mut any = false;
    for (lambda, (ux, uy)) in [(mean + rad, (c, s)), (mean - rad, (-s, c))] {
        if lambda > flat {
            let along = (ux * f[0] + uy * f[1]) / lambda;
            step[0] -= ux * along;
            step[1] -= uy * along;
            any = true;
        }
    }
    let limit = T::from_f64(0.1);
    let len = (step[0] * step[0] + step[1] * step[1]).sqrt();
    if !any || !len.is_finite() {
        return None;
    }
    if len > limit {
        let k = limit / len;
        step = [step[0] * k, step[1] * k];
    }
    Some(step)
}
