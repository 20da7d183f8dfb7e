//! Distance witness polishing: exact closest points and normal once GJK has
//! settled (penetration normals are polished in `polish`).
//!
//! GJK's distance is accurate to its gap tolerance, but the distance is
//! stationary in the closest points: on a curved feature (a cylinder's or
//! cone's rim) its points and normal are only good to about the square root
//! of that tolerance. Polishing solves the first-order condition instead.
//! For a unit direction `n` (from A towards B) let `p(n) = s_B(−n) − s_A(n)`
//! (core supports); `L(n) = n·p(n)` is a certified lower bound on the core
//! distance and is maximal, equal to the distance, where `p(n)` is parallel
//! to `n`. Newton's method on `n` drives the tangential part `g` of `p(n)`
//! to zero with the Hessian `R_A + R_B + L·I`, where `R` is how fast a
//! support point turns with the direction (a rim's radius over the sine of
//! its tilt; 0 at vertices). Support sets that are not points (edges, faces,
//! a cylinder's side, a cap) constrain `n` to be perpendicular to them; the
//! witness on such a set is the other shape's point moved by `L·n`, placed
//! in the set. Steps only go uphill in `L` (halved up to three times), so
//! the certificate never loosens: the answer keeps the best `L` found and
//! the distance between the two witnesses, both points of the shapes.
//!
//! The outcome says how far the points can be trusted ([`Witness`]):
//! `Unique` when the features meet in single points and the last step moved
//! them by less than the witness tolerance (1e-8 × size in f64, 1e-4 in
//! f32), `NotUnique` when the closest sets share a direction (parallel
//! faces or edges, a side on a face), `Approximate` otherwise (a nearly
//! flat rim whose point moves too far per rounding of the normal, or a
//! polish that did not settle); the points are then GJK's, within the
//! distance's tolerance of closest.

use super::cso::Cso;
use super::feature::{Feature, Region, face_below, feature, flats_below, on_hull_face};
use crate::real::{Real, V3, Vector};
use crate::shape::Geom;
use cspace_recorder as rec;

/// How far a distance answer's closest points and normal can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Witness {
    /// The closest points are unique and within the witness tolerance
    /// (1e-8 × size in f64, 1e-4 × size in f32) of the true ones, plus the
    /// rounding of their own world coordinates (ε × the largest of them:
    /// a point 4 000 units from the origin carries 2.4e-4 in f32, whatever
    /// computed it); the normal is the unique contact normal, within 1e-7
    /// rad (f64) / 1e-3 (f32) plus, where it is the points' direction (a
    /// vertex nearly touching a vertex or an edge), that rounding over
    /// their distance.
    Unique,
    /// The closest points are not unique (parallel faces or edges, a
    /// cylinder's side along a face, overlapping shapes, within the
    /// classification tolerance): the points are one pair of the closest sets.
    NotUnique,
    /// Unique but not certified to the witness tolerance: ill-conditioned
    /// (a rim nearly parallel to its partner, nearly parallel edges) or
    /// not refined; the points are on the shapes and as far apart as the
    /// distance's upper bound.
    Approximate,
}

impl Witness {
    /// The name `cspace eval`'s JSON and the recorded certificate use:
    /// `"unique"`, `"not_unique"`, `"approximate"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Unique => "unique",
            Self::NotUnique => "not_unique",
            Self::Approximate => "approximate",
        }
    }
}

/// The most Newton steps one polish makes.
pub(crate) const MAX_STEPS: u32 = 12;

/// The witness tolerance relative to the scale: 1e-8 (f64), 1e-4 (f32).
pub(crate) fn witness_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(1e-4),
        rec::Precision::F64 => T::from_f64(1e-8),
    }
}

/// The polished answer, in A's frame, on the cores.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Polished<T: Real> {
    /// Unit normal from A towards B.
    pub normal: V3<T>,
    /// Witness on A's core.
    pub a: V3<T>,
    /// Witness on B's core.
    pub b: V3<T>,
    /// A certified lower bound on the core distance (`L` at `normal`).
    pub lower: T,
    /// Whether `a` and `b` are points of the cores (so `|b − a|` is an upper bound).
    pub certified: bool,
    /// How far the witnesses can be trusted.
    pub witness: Witness,
    /// Newton steps taken.
    pub steps: u32,
    /// Whether both supports at `normal` are sharp (vertices, edges or
    /// faces, no rim or curved side): the pair is a polytope pair there.
    pub sharp: bool,
}

/// A witness on A and one on B.
type Pair<T> = (V3<T>, V3<T>);

/// One evaluation at a direction: both features and the bound.
#[derive(Clone, Copy, Debug)]
struct Eval<T: Real> {
    n: V3<T>,
    fa: Feature<T>,
    fb: Feature<T>,
    /// `s_B(−n) − s_A(n)`.
    p: V3<T>,
    /// `n·p`, the lower bound.
    l: T,
    /// The height tolerance the support sets were taken within.
    eta: T,
}

/// The height tolerance `eta` (relative to the larger shape) for each
/// shape, in proportion to its own size: an angle of the normal spreads a
/// small shape's support set less. Never below the rounding floor.
fn own_eta<T: Real>(tol: &Tol<T>, eta: T) -> (T, T) {
    (
        (eta * tol.share.0).max(tol.floor),
        (eta * tol.share.1).max(tol.floor),
    )
}

/// Each shape's height tolerance for support sets (its share of `eta`,
/// never below the rounding floor), as the classification takes them.
pub(crate) fn set_etas<T: Real>(cso: &Cso<'_, T>, eta: T) -> (T, T) {
    let tol = Tol::of(cso);
    own_eta(&tol, eta.max(tol.floor))
}

/// Both support features at unit direction `n` (A's frame), within `eta`.
fn eval<T: Real>(cso: &Cso<'_, T>, n: V3<T>, eta: T, tol: &Tol<T>) -> Eval<T> {
    let (eta_a, eta_b) = own_eta(tol, eta);
    // Built in place (the features are a few hundred bytes), then `p` and `l`.
    let mut e = Eval {
        n,
        fa: feature(cso.shape_a(), n, eta_a),
        fb: feature(cso.shape_b(), cso.b_direction(-n), eta_b)
            .map(|p| cso.b_point(p), |v| cso.b_vector(v)),
        p: V3::<T>::ZERO,
        l: T::ZERO,
        eta,
    };
    e.p = e.fb.point - e.fa.point;
    e.l = n.dot(e.p);
    e
}

/// Up to two orthonormal directions spanning both features' flats, the
/// count, and whether a third flat (or a second nearly parallel to the
/// first) was left out: the closest sets then share a direction.
fn constraints<T: Real>(e: &Eval<T>) -> ([V3<T>; 2], usize, bool) {
    span::<T>(
        e.fa.flats[..e.fa.count]
            .iter()
            .chain(&e.fb.flats[..e.fb.count])
            .copied(),
    )
}

/// The sine below which two flats (or two segments) count as parallel:
/// their closest points then slide along them by the rounding of their
/// offset over that sine, ~1e-15 of the size in f64 (1e-6: within the
/// witness tolerance, 1e-8) but ~5e-7 in f32, where two sides 4e-5 rad
/// apart put the points 0.8 of the size off. In f32 3e-2: at 3e-3 a box
/// edge along a cylinder's side was still 0.19 of the size off, at 1e-2
/// two box edges 2.4e-4 (measured on 48 000 nearly parallel pairs; none
/// over 3e-5 at 3e-2).
fn parallel<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(3e-2),
        rec::Precision::F64 => T::from_f64(1e-6),
    }
}

/// Up to two orthonormal directions spanning `flats`, their count, and
/// whether a flat was left out as dependent on them.
fn span<T: Real>(flats: impl Iterator<Item = V3<T>>) -> ([V3<T>; 2], usize, bool) {
    let mut basis = [V3::<T>::ZERO; 2];
    let mut k = 0;
    let mut shared = false;
    for f in flats {
        let mut r = f;
        for b in &basis[..k] {
            r -= *b * r.dot(*b);
        }
        match r.try_normalize() {
            Some(u) if k < 2 && r.length() > parallel::<T>() => {
                basis[k] = u;
                k += 1;
            }
            _ => shared = true,
        }
    }
    (basis, k, shared)
}

/// The local model at an evaluation: the free tangent directions (those
/// the flats leave), the residual `g` along them and the Hessian
/// `R_A + R_B + L·I` on them; or the direction the flats fix.
#[derive(Clone, Copy, Debug)]
struct Model<T: Real> {
    /// `n` moved onto the flats' constraints.
    base: V3<T>,
    /// The free tangents (`k` of them).
    t: [V3<T>; 2],
    /// How many free tangents: 2, 1, or 0 when the flats fix `fixed`.
    k: usize,
    /// `p`'s components along `t`.
    g: [T; 2],
    /// The Hessian's entries `h11`, `h12`, `h22`.
    h: [T; 3],
    /// Whether the support sets share a direction ([`constraints`]).
    shared: bool,
}

impl<T: Real> Model<T> {
    /// The model at `e` (`None` when the flats are inconsistent); `least`
    /// is the least length that counts ([`Tol::least`]).
    fn at(e: &Eval<T>, least: T) -> Option<Self> {
        let n = e.n;
        let (flats, k, shared) = constraints(e);
        if k == 2 {
            let m = flats[0].cross(flats[1]).try_normalize()?;
            let base = if m.dot(n) < T::ZERO { -m } else { m };
            return Some(Self {
                base,
                t: [V3::<T>::ZERO; 2],
                k: 0,
                g: [T::ZERO; 2],
                h: [T::ONE, T::ZERO, T::ONE],
                shared,
            });
        }
        let (base, t) = if k == 1 {
            let f = flats[0];
            let base = (n - f * n.dot(f)).try_normalize()?;
            (base, [base.cross(f).try_normalize()?, V3::<T>::ZERO])
        } else {
            let (t1, t2) = crate::real::tangents::<T>(n);
            (n, [t1, t2])
        };
        // Kept positive at touching, relative to the size: an absolute
        // floor swamped shapes below 2^-52 (a capsule's cap taken for the
        // witness at 2^-139, "unique").
        let l = e.l.max(least);
        // Each side's rate where the witness on it will be.
        let (ra, rb) = (
            e.fa.rate(e.fb.point - n * e.l),
            e.fb.rate(e.fa.point + n * e.l),
        );
        let curv = |x: V3<T>, y: V3<T>| {
            ra * x.dot(e.fa.tangent) * y.dot(e.fa.tangent)
                + rb * x.dot(e.fb.tangent) * y.dot(e.fb.tangent)
        };
        let free = 2 - k;
        let g = [
            t[0].dot(e.p),
            if free == 2 { t[1].dot(e.p) } else { T::ZERO },
        ];
        let h = [curv(t[0], t[0]) + l, curv(t[0], t[1]), curv(t[1], t[1]) + l];
        Some(Self {
            base,
            t,
            k: free,
            g,
            h,
            shared,
        })
    }

    /// The length of the residual: how far `p` is from parallel to `n`
    /// along the free directions (0 at the optimum).
    fn residual(&self) -> T {
        (self.g[0] * self.g[0] + self.g[1] * self.g[1]).sqrt()
    }

    /// The Hessian's smallest eigenvalue (≥ `L`): the residual over it
    /// bounds the normal's error.
    fn stiffness(&self) -> T {
        let [a, b, c] = self.h;
        if self.k < 2 {
            return a;
        }
        let mean = (a + c) * T::HALF;
        let half = (a - c) * T::HALF;
        mean - (half * half + b * b).sqrt()
    }

    /// The Newton step's target direction, at most half a radian away.
    fn target(&self) -> Option<V3<T>> {
        let [h11, h12, h22] = self.h;
        let [g1, g2] = self.g;
        let (d1, d2) = match self.k {
            0 => (T::ZERO, T::ZERO),
            1 => (g1 / h11, T::ZERO),
            _ => {
                let det = h11 * h22 - h12 * h12;
                if det <= T::ZERO || !det.is_finite() {
                    return None;
                }
                ((h22 * g1 - h12 * g2) / det, (h11 * g2 - h12 * g1) / det)
            }
        };
        let step = self.t[0] * d1 + self.t[1] * d2;
        let len = step.length();
        let step = if len > T::HALF {
            step * (T::HALF / len)
        } else {
            step
        };
        (self.base + step).try_normalize()
    }
}

/// The witnesses of `e`: the unique support points, or one side's point
/// moved by `L·n` and placed in the other's support set; `None` when the
/// sets share a direction or a witness falls outside its set by more than
/// `slack`.
fn witnesses<T: Real>(cso: &Cso<'_, T>, e: &Eval<T>, slack: T) -> Option<Pair<T>> {
    let (n, l) = (e.n, e.l);
    let (fa, fb) = (&e.fa, &e.fb);
    let placed = |f: &Feature<T>, q: V3<T>| place_in(cso, e, std::ptr::eq(f, fa), q, slack);
    match (fa.count, fb.count) {
        (0, 0) => Some((fa.point, fb.point)),
        (0, _) => Some((fa.point, placed(fb, fa.point + n * l)?)),
        (_, 0) => Some((placed(fa, fb.point - n * l)?, fb.point)),
        (1, 1) => {
            // Two lines: the points whose difference is along n.
            let (u, v) = (fa.flats[0], fb.flats[0]);
            let (t1, t2) = crate::real::tangents::<T>(n);
            let r = fb.point - fa.point;
            // s·u − t·v = r on the tangent plane.
            let (a11, a12, a21, a22) = (u.dot(t1), -v.dot(t1), u.dot(t2), -v.dot(t2));
            let det = a11 * a22 - a12 * a21;
            if det.abs() <= parallel::<T>() {
                return None;
            }
            let (r1, r2) = (r.dot(t1), r.dot(t2));
            let s = (r1 * a22 - a12 * r2) / det;
            let t = (a11 * r2 - a21 * r1) / det;
            Some((placed(fa, fa.point + u * s)?, placed(fb, fb.point + v * t)?))
        }
        _ => None,
    }
}

/// `q` placed in A's support set of `e` (`on_a`) or B's: in the set, and
/// off `q` only along the normal (within `slack`).
fn place_in<T: Real>(
    cso: &Cso<'_, T>,
    e: &Eval<T>,
    on_a: bool,
    q: V3<T>,
    slack: T,
) -> Option<V3<T>> {
    let f = if on_a { &e.fa } else { &e.fb };
    if let Region::HullFace(d, eta) = f.region {
        let (shape, local) = if on_a {
            (cso.shape_a(), q)
        } else {
            (cso.shape_b(), cso.b_local_point(q))
        };
        let Geom::Hull(hull) = &shape.geom else {
            return None;
        };
        let p = on_hull_face(hull.points(), d, eta, local)?;
        return Some(if on_a { p } else { cso.b_point(p) });
    }
    let (p, out) = f.place(q)?;
    (out <= slack && (p - q).cross(e.n).length() <= slack).then_some(p)
}

/// A pair `L·n` apart from sets whose witnesses are not unique (parallel
/// segments or faces): a point of one set (its support point, a segment's
/// end, a rectangle's centre or corner) whose image lies in the other's,
/// either way round (`None` where neither lies in the other). The
/// closest points differ by the configuration-space object's one closest
/// point: the support points alone were up to 7e-3 rad off it in f32 (a
/// cylinder along a capsule's side).
fn aligned<T: Real>(cso: &Cso<'_, T>, e: &Eval<T>, slack: T) -> Option<Pair<T>> {
    let shift = e.n * e.l;
    for on_a in [true, false] {
        let f = if on_a { &e.fa } else { &e.fb };
        let mut candidates = [f.point; 5];
        match f.region {
            Region::Segment(p, q) => candidates[1..3].copy_from_slice(&[p, q]),
            Region::Rect(c, u, v) => {
                candidates[1..5].copy_from_slice(&[c + u + v, c + u - v, c - u + v, c - u - v]);
                candidates[0] = c;
            }
            Region::Disc(c, ..) => candidates[1] = c,
            _ => {}
        }
        for p in candidates {
            let image = if on_a { p + shift } else { p - shift };
            if let Some(q) = place_in(cso, e, !on_a, image, slack) {
                return Some(if on_a { (p, q) } else { (q, p) });
            }
        }
    }
    None
}

/// The normal's tolerance: 1e-7 rad (f64), 1e-3 rad (f32).
pub(crate) fn normal_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(1e-3),
        rec::Precision::F64 => T::from_f64(1e-7),
    }
}

/// The tolerances of one polish, from the shapes' scale and reach.
#[derive(Clone, Copy, Debug)]
struct Tol<T: Real> {
    /// The shapes' scale.
    scale: T,
    /// The rounding of a residual or a height: 16 ε × reach.
    floor: T,
    /// How far a witness may be off its set, or `L` may fall in a step: 64 ε × reach.
    slack: T,
    /// Each shape's scale over the larger one (the support-set tolerances
    /// are in proportion to the shapes' sizes).
    share: (T, T),
}

impl<T: Real> Tol<T> {
    /// The tolerances for the shapes of `cso`.
    fn of(cso: &Cso<'_, T>) -> Self {
        let reach = cso.scale + cso.offset().length();
        let k = if cso.scale > T::ZERO {
            T::ONE / cso.scale
        } else {
            T::ONE
        };
        Self {
            scale: cso.scale,
            floor: T::from_f64(16.0) * T::EPSILON * reach,
            slack: T::from_f64(64.0) * T::EPSILON * reach,
            share: (cso.scales.0 * k, cso.scales.1 * k),
        }
    }

    /// The least length that counts: ε × the size (ε for shapes of size
    /// 0), where a divisor or a Hessian's diagonal is kept from 0.
    fn least(&self) -> T {
        let l = T::EPSILON * self.scale;
        if l > T::ZERO { l } else { T::EPSILON }
    }
}

/// Newton steps on curved cores from unit normal `n0` (A's frame) with
/// support sets taken within `eta0` (narrowed as the steps settle), without
/// judging the witnesses: the normal they settle on and the steps taken.
/// A rough first stage for [`polish`] from a normal far from the answer's.
pub(crate) fn settle_normal<T: Real>(cso: &Cso<'_, T>, n0: V3<T>, eta0: T) -> (V3<T>, u32) {
    let tol = Tol::of(cso);
    let eta0 = eta0.max(tol.floor);
    let recording = rec::ENABLED && rec::is_on();
    let _settle = rec::scope!("settle the normal", recording);
    let mut steps = 0;
    let mut cur = eval(cso, n0, eta0, &tol);
    descend(cso, &mut cur, eta0, tol, &mut steps, recording);
    (cur.n, steps)
}

/// [`polish`] from a normal far from the answer's: first Newton steps
/// with support sets taken within `eta_settle` (narrowed as the steps
/// settle) without judging the witnesses, then the polish at `eta0` from
/// where they settled, on their last evaluation when it was taken within
/// `eta0` already (it usually is: the last step's turn is tiny).
pub(crate) fn settle_and_polish<T: Real>(
    cso: &Cso<'_, T>,
    n0: V3<T>,
    eta_settle: T,
    eta0: T,
) -> Polished<T> {
    let tol = Tol::of(cso);
    let eta_settle = eta_settle.max(tol.floor);
    let recording = rec::ENABLED && rec::is_on();
    let mut steps = 0;
    let mut cur = eval(cso, n0, eta_settle, &tol);
    let model = {
        let _settle = rec::scope!("settle the normal", recording);
        descend(cso, &mut cur, eta_settle, tol, &mut steps, recording)
    };
    let eta0 = eta0.max(tol.floor);
    if cur.eta > eta0 {
        steps += 1;
        polish_from(cso, eval(cso, cur.n, eta0, &tol), None, eta0, steps)
    } else {
        polish_from(cso, cur, model, eta0, steps)
    }
}

/// Newton steps from `start` (at most [`MAX_STEPS`] in all, counted in
/// `steps`), support sets taken within `eta0` at first and within twice
/// the last step's turn after it; `cur` becomes the last accepted
/// evaluation (in place: an evaluation is a few hundred bytes). The model
/// at `cur` when the steps ended on it (settled), for [`judge`].
fn descend<T: Real>(
    cso: &Cso<'_, T>,
    cur: &mut Eval<T>,
    eta0: T,
    tol: Tol<T>,
    steps: &mut u32,
    recording: bool,
) -> Option<Model<T>> {
    let four_eps = T::from_f64(4.0) * T::EPSILON;
    let mut last = None;
    while *steps < MAX_STEPS {
        let m = Model::at(cur, tol.least())?;
        if m.residual() <= tol.floor && (m.base - cur.n).length() <= four_eps {
            return Some(m);
        }
        let Some(mut next) = m.target() else {
            break;
        };
        // Uphill in L only: halve the step up to three times.
        let mut accepted = None;
        for _ in 0..4 {
            let angle = (next - cur.n).length();
            let eta = (T::TWO * angle * tol.scale).min(eta0).max(tol.floor);
            // A turn no smaller than half the last one, within the first
            // tolerance, goes back and forth over a kink of a set narrower
            // than the turn spreads (a plate's narrow face 3e-8 wide, taken
            // as an edge): exact ties see it as the face that fixes the
            // normal (it spent all steps there, 4e-8 rad off).
            let stalled = last.is_some_and(|last| angle * T::TWO >= last) && eta < eta0;
            let eta = if stalled { tol.floor } else { eta };
            let e = eval(cso, next, eta, &tol);
            if e.l >= cur.l - tol.slack {
                *cur = e;
                accepted = Some(angle);
                break;
            }
            next = (cur.n + next).try_normalize().unwrap_or(cur.n);
        }
        let Some(angle) = accepted else {
            break;
        };
        last = Some(angle);
        *steps += 1;
        if recording {
            record_step(cso, cur);
        }
        if angle <= four_eps {
            break;
        }
    }
    None
}

/// The witnesses at `cur` and how far they can be trusted. The points'
/// certificate is the residual (a support point turns by at most the
/// residual as the normal settles; for the pair, how far it is from
/// parallel to the normal) plus the rounding of the normal times how fast
/// the points turn with it; the normal's is the residual over the
/// stiffness of the free directions, or over `L` for the constrained one.
/// `model` is the one at `cur` if [`descend`] ended with it.
fn judge<T: Real>(
    cso: &Cso<'_, T>,
    cur: &Eval<T>,
    tol: Tol<T>,
    model: Option<Model<T>>,
) -> (Option<Pair<T>>, Witness) {
    let best = witnesses(cso, cur, tol.slack);
    let model = model.or_else(|| Model::at(cur, tol.least()));
    let shared = model.map_or_else(|| constraints(cur).2, |m| m.shared);
    let settled = match (model, best) {
        (Some(m), Some((a, b))) => {
            let off = (b - a).cross(cur.n).length();
            let turn = cur.fa.radius + cur.fb.radius;
            // The normal the flats fix (or `n` on the free directions'
            // constraints) must be `n` itself: a set taken as a face from
            // a rough normal has no residual, yet its normal is elsewhere,
            // and a curved side's point turns with the difference, while
            // its partner, placed along `n`, moves by `L` times it (a rim
            // over a plate's narrow face 3e-8 wide: the steps oscillated
            // across the face's kink and stopped 4e-8 rad off its normal,
            // the plate's point 4.6e-8 of the size off, `Unique`).
            let moved = (m.base - cur.n).length();
            let points = m.residual().max(off)
                + (turn + cur.l.max(T::ZERO)) * moved
                + turn * T::from_f64(64.0) * T::EPSILON
                + tol.floor;
            // Residuals at the rounding floor turn the normal by no more
            // than the input's own rounding does.
            let least = tol.least();
            let free = (m.residual() - tol.floor).max(T::ZERO) / m.stiffness().max(least);
            let fixed = (off - tol.floor).max(T::ZERO) / cur.l.max(least);
            points <= witness_tol::<T>() * tol.scale
                && free.max(fixed).max(moved) <= normal_tol::<T>()
        }
        _ => false,
    };
    let witness = if shared || (best.is_none() && cur.fa.count + cur.fb.count >= 2) {
        Witness::NotUnique
    } else if best.is_some() && settled {
        Witness::Unique
    } else {
        Witness::Approximate
    };
    (best, witness)
}

/// Whether GJK's closest points of polytope cores at unit normal `n` (A's
/// frame) are unique: no direction shared by both support sets within the
/// height tolerance `eta` (parallel faces or edges); and whether a side's
/// point is a lone vertex of GJK's simplex (`distinct`: its support points
/// on A and on B) while that side's set is an edge or a face, so the point
/// may be a wrong end of it (GJK's gap cannot tell the ends of a short
/// edge nearly perpendicular to the normal apart). `(ca, cb)` are those
/// points (A's frame): their heights along the normal let a hull find its
/// support set in one scan of its points. The side with fewer distinct
/// points (the likelier vertex) is scanned first, and a vertex there
/// settles the verdict without the other side's set, unless that side is
/// lone.
pub(crate) fn classify<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    eta: T,
    (ca, cb): (V3<T>, V3<T>),
    (na, nb): (usize, usize),
) -> (Witness, Doubt) {
    let tol = Tol::of(cso);
    // A normal the points' rounding turns (nearly touching shapes, in f32
    // 3e-5 of the size apart: 1.5e-2 rad) tilts each set by that over the
    // size: an edge along the contact seen as one of its ends put f32
    // points 0.9 of the size off along nearly parallel edges, `Unique`.
    let eta = widened(&tol, eta.max(tol.floor), (cb - ca).length_squared());
    let (eta_a, eta_b) = own_eta(&tol, eta);
    let on_a = || flats_below(cso.shape_a(), n, eta_a, || ca.dot(n));
    let on_b = || {
        let db = cso.b_direction(-n);
        flats_below(cso.shape_b(), db, eta_b, || cso.b_local_point(cb).dot(db))
    };
    // A vertex on either side settles uniqueness: the likelier one goes
    // first and the other's set is then needed only when its point is lone.
    let none = ([V3::<T>::ZERO; 2], 0);
    let ((fa, ka), (fb, kb)) = if nb < na {
        let b = on_b();
        (if b.1 == 0 && na > 1 { none } else { on_a() }, b)
    } else {
        let a = on_a();
        (a, if a.1 == 0 && nb > 1 { none } else { on_b() })
    };
    // A side whose simplex holds an edge (two points) while the other is a
    // vertex: its set may be a face that GJK's gap cannot tell from the
    // edge (a plate seen across its thickness), whose inside holds the
    // closest point. Only whether it is a face is needed (one scan).
    let face_a = na == 2 && kb == 0 && face_below(cso.shape_a(), n, eta_a, || ca.dot(n));
    let face_b = nb == 2 && ka == 0 && {
        let db = cso.b_direction(-n);
        face_below(cso.shape_b(), db, eta_b, || cso.b_local_point(cb).dot(db))
    };
    let witness = if ka == 0 || kb == 0 {
        // One side a vertex: its partner's set alone, nothing shared.
        Witness::Unique
    } else {
        let fb = fb.map(|v| cso.b_vector(v));
        let (_, _, shared) = span::<T>(fa[..ka].iter().chain(&fb[..kb]).copied());
        let edges = ka == 1 && kb == 1;
        // The edges' sine, only where both sets are edges.
        let sin = || fa[0].cross(fb[0]).length();
        if shared && !(edges && crossing(sin())) {
            Witness::NotUnique
        } else if edges && slides(&tol, sin(), (cb - ca).length()) {
            Witness::Approximate
        } else {
            Witness::Unique
        }
    };
    // A lone vertex on an edge or face, or an edge on a face: GJK's points
    // may be off within the set (see `sets`).
    let doubt = if witness != Witness::Unique {
        Doubt::None
    } else if (na == 1 && ka > 0) || (nb == 1 && kb > 0) {
        Doubt::LoneVertex
    } else if (na == 2 && ka == 2) || (nb == 2 && kb == 2) || face_a || face_b {
        Doubt::EdgeOnFace
    } else {
        Doubt::None
    };
    rec::text!("polish: polytope cores, {witness:?}");
    (witness, doubt)
}

/// Whether the closest points of two crossing edges, the sine of their
/// angle `sin` and their points `d` apart, can slide along them past the
/// witness tolerance. The pair is a valley of the distance along both
/// edges, as flat as `sin²`: a tilt of an edge out of the edges' common
/// plane by its rounding (ε) moves its bottom by `ε·d/sin²`, and GJK
/// finds it on a CSO triangle that thin, whose weights err by `ε·size/sin²`
/// (f64 box edges 1e-6 rad apart: 1.8e-4 of the size off, `Unique`); an
/// edge shifted across by the rounding of its coordinates moves it by that
/// over `sin`. Nearly parallel edges are then ill-conditioned: a pair of
/// points of the closest features, `Approximate`.
fn slides<T: Real>(tol: &Tol<T>, sin: T, d: T) -> bool {
    // Measured worst against the exact answer to the rounded input (a
    // review, double-double, 80 000 pairs): ~1 in f64 and ~0.6 in f32 of
    // these units (ε·(size + d)/sin²). Far apart (`d` past the size) f64
    // answers from the support sets reached 13 of them against the exact
    // answer (a capsule's segment 0.25° from a plate's edge 228 sizes
    // away: 2.4e-8 of the size off, `Unique`), so `d` counts 16.
    let (k, far) = match T::PRECISION {
        rec::Precision::F32 => (T::from_f64(2.0), T::from_f64(2.0)),
        rec::Precision::F64 => (T::from_f64(4.0), T::from_f64(16.0)),
    };
    // `ε (k size + far d) / sin² + floor / sin > tol · size`, times `sin²`.
    let tilt = T::EPSILON * (k * tol.scale + far * d);
    tilt + tol.floor * sin > witness_tol::<T>() * tol.scale * sin * sin
}

/// Whether two edges at sine `sin` cross above the rounding: their points
/// slide by less than the size ([`slides`]'s `ε / sin²`), so the closest
/// pair is unique though it may not be placed (`Approximate`, where the
/// parallel test alone said `NotUnique`: f32 edges 1e-3 … 3e-2 rad apart
/// kept points up to 58 times the tolerance off one closest pair, a
/// review).
fn crossing<T: Real>(sin: T) -> bool {
    sin * sin > T::from_f64(4.0) * T::EPSILON
}

/// [`slides`] for the sweeps' contacts with radii or a curved core: two
/// edges (or a cylinder's side) crossing at sine `sin`, their cores `d`
/// apart, four times as wide in f64. A sweep's points there are the
/// cores' closest points at a time in its bracket, which a move across
/// the edges slides along them too (a review: at the distance's 4 units,
/// a box with a margin on a box's edge 4.1e-4 rad from parallel was 1.1e-5
/// of the size off, `Unique`; at 16, `Approximate`).
pub(crate) fn edges_slide<T: Real>(cso: &Cso<'_, T>, sin: T, d: T) -> bool {
    let wider = match T::PRECISION {
        rec::Precision::F32 => T::ONE,
        rec::Precision::F64 => T::from_f64(2.0),
    };
    slides(&Tol::of(cso), sin / wider, d)
}

/// The height tolerance `eta` for support sets, widened to the tilt of
/// the size by the turn the points' rounding gives their direction, the
/// points `d2.sqrt()` apart: each is a core's point in A's frame, B's
/// turned and moved by the relative pose, off by a few ε × the reach
/// (measured: at most 1.2 ε × the reach over their distance on 5 700 f32
/// vertices by edges), so the turn is about `floor / 4 / d`. Compared in
/// squares: no root or division unless it widens.
fn widened<T: Real>(tol: &Tol<T>, eta: T, d2: T) -> T {
    let tilt = tol.floor * T::from_f64(0.25) * tol.scale;
    if tilt * tilt > eta * eta * d2 {
        tilt / d2.sqrt().max(tol.least())
    } else {
        eta
    }
}

/// Why GJK's points of polytope cores may be off within their support
/// sets ([`classify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Doubt {
    /// Nothing: the points are the closest points of GJK's features.
    None,
    /// A side's point is a lone vertex of GJK's simplex while that side's
    /// set is an edge or a face (a short edge's wrong end).
    LoneVertex,
    /// A side's two simplex points form an edge of a face of its set (a
    /// thin plate's narrow face, whose inside may hold the point).
    EdgeOnFace,
}

/// Polishes GJK's answer from unit normal `n0` (A's frame) on the cores of
/// `cso`, one of them curved (polytope pairs keep GJK's exact points and
/// are only classified: [`classify`]); `eta0` is the first height
/// tolerance for support sets.
pub(crate) fn polish<T: Real>(cso: &Cso<'_, T>, n0: V3<T>, eta0: T) -> Polished<T> {
    let tol = Tol::of(cso);
    let eta0 = eta0.max(tol.floor);
    polish_from(cso, eval(cso, n0, eta0, &tol), None, eta0, 0)
}

/// [`polish`] from the evaluation `cur` taken within `eta0` (with its
/// model, if known), `steps` already taken.
fn polish_from<T: Real>(
    cso: &Cso<'_, T>,
    mut cur: Eval<T>,
    model: Option<Model<T>>,
    eta0: T,
    mut steps: u32,
) -> Polished<T> {
    let tol = Tol::of(cso);
    let recording = rec::ENABLED && rec::is_on();
    let _polish = rec::scope!("polish witnesses", recording);
    let model = match model {
        Some(m) => Some(m),
        None => descend(cso, &mut cur, eta0, tol, &mut steps, recording),
    };
    let (mut best, mut witness) = judge(cso, &cur, tol, model);
    let thin = cur.eta > tol.floor && (cur.fa.thin || cur.fb.thin);
    if (witness == Witness::Approximate || thin) && eta0 > tol.floor {
        // A support set taken as flat within the first tolerance may be a
        // vertex or a rim point seen from a rough normal, and a hull face
        // narrower than it an edge (its normal off the face's by its
        // width over its length: f32 rims against plates, points 1.5× their
        // tolerance off, `Unique`): again, with exact ties only.
        rec::text!("polish: again with exact ties only");
        // The retry has its own budget: the first may have spent all of
        // its steps oscillating between two sets (a plate's narrow face
        // within the first tolerance), and judging the set at the rounding
        // without a step accepted its normal up to the normal's tolerance
        // off the face's (f32 rims: points 2.4× their tolerance off).
        let mut again = eval(cso, cur.n, tol.floor, &tol);
        let mut more = 0;
        let model = descend(cso, &mut again, tol.floor, tol, &mut more, recording);
        steps += more;
        let (b, w) = judge(cso, &again, tol, model);
        if again.l >= cur.l - tol.slack && (w == Witness::Unique || best.is_none()) {
            (cur, best, witness) = (again, b, w);
        } else if thin && witness == Witness::Unique {
            witness = Witness::Approximate;
        }
    }
    rec::text!(
        "polish: {witness:?} after {steps} steps, lower bound {:?}",
        cur.l
    );
    let pair = best.or_else(|| aligned(cso, &cur, tol.slack));
    let (a, b) = pair.unwrap_or((cur.fa.point, cur.fb.point));
    Polished {
        normal: cur.n,
        a,
        b,
        lower: cur.l,
        certified: pair.is_some(),
        witness,
        steps,
        sharp: cur.fa.radius == T::ZERO && cur.fb.radius == T::ZERO,
    }
}

/// Records a polishing step: both supports and the residual off the normal.
#[cold]
#[inline(never)]
fn record_step<T: Real>(cso: &Cso<'_, T>, e: &Eval<T>) {
    rec::point!(
        "polish support on A",
        cso.world_point(e.fa.point),
        rec::Rgba::RED
    );
    rec::point!(
        "polish support on B",
        cso.world_point(e.fb.point),
        rec::Rgba::ORANGE
    );
    rec::line!(cso "polish normal", V3::<T>::ZERO, cso.world_vector(-e.n), rec::Rgba::BLUE);
    rec::value!("polish lower bound", e.l);
    rec::value!("polish residual", (e.p - e.n * e.l).length());
    rec::pause!("polish step");
}
