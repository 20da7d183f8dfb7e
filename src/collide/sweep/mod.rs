//! Linear sweeps (shape casts): shape A moves by `motion` over t ∈ [0, 1]
//! against a static shape B. Four methods:
//!
//! - [`conservative_advancement`]: GJK distance, then advance by the
//!   distance over the closing speed (a Newton step on the convex distance
//!   function, so it never passes the contact), warm-started.
//! - [`ray_cast`]: van den Bergen's GJK ray cast (2004) of the ray `−t·motion`
//!   against the CSO of the cores, inflated by the radii. The default (the
//!   `cspace eval` sweep without an `algorithm`): one GJK-like loop, where
//!   conservative advancement runs a GJK per step.
//! - [`swept_mpr`]: MPR on the swept CSO `(A − B) + [0, 1]·motion`: decide a
//!   hit, then cast from the origin along the motion to the swept CSO's far
//!   side and subtract from 1 ("Thoughts on shape casting").
//! - [`analytic`]: closed form for sphere–point and sphere–sphere.
//!
//! The ray cast answers two spheres (or points) in closed form, and two
//! boxes without margins by the separating axis test in time (`boxes`)
//! wherever rounding lets it decide.
//!
//! Shapes that overlap at t = 0 hit at t = 0 whatever the motion.
//!
//! Every hit carries its certificate (`certify`): a bracket `[toi_lower,
//! toi_upper]` of the time of impact, the contact normal polished on the
//! shapes' supports at impact, a contact point on each shape, and how far
//! the points and normal can be trusted (`Sweep::witness`).

mod advance;
mod analytic;
mod boxes;
mod certify;
mod crossing;
mod polish;
mod ray;
mod segments;
mod swept;
mod witness;

pub use advance::conservative_advancement;
pub use analytic::{analytic, analytic_applies};
pub use ray::ray_cast;
pub use swept::swept_mpr;

use super::cso::Cso;
use super::simplex::Simplex;
use super::{Status, Witness};
use super::{gjk, mpr};
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// The most advancement steps of [`conservative_advancement`] and
/// [`ray_cast`] (each step of the former is a warm-started GJK).
pub const MAX_ITERS: u32 = 128;

/// The result of a sweep.
///
/// A hit's certificate is the bracket `toi_lower ≤ true toi ≤ toi_upper`:
/// before `toi_lower` a support plane proves the shapes apart; at
/// `toi_upper` a point of the configuration-space object on A's path (a
/// convex combination of support points, or one shape's contact point
/// found inside the other) proves them touching. `Converged`
/// means the bracket is within the touching tolerance: `(toi_upper −
/// toi_lower) · (motion · normal) ≤ 4 · rel · scale` (rel 3.7e-11 in f64,
/// 2.4e-5 in f32), i.e. over the bracket A closes on B by no more than the
/// distance GJK calls touching. Both ends are widened by the rounding of
/// the computation (a few ulps of the relative position, the motion and
/// the size, over the closing speed): closed forms give a bracket that
/// wide, and where it exceeds the tolerance (f32 along a motion of about a
/// hundred sizes or more, or as far apart) the answer is not `Converged`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep<T: Real> {
    /// Whether A touches B for some t ∈ [0, 1].
    pub hit: bool,
    /// The time of impact, in [0, 1]; 1 on a miss. On a `Converged` hit it is
    /// `toi_lower` (A never passes the contact); otherwise the method's own
    /// estimate, kept inside the bracket.
    pub toi: T,
    /// Before this time the shapes are proven apart (1 on a miss).
    pub toi_lower: T,
    /// At this time the shapes are proven touching (1 on a miss); where no
    /// proof was found, the method's own estimate (and the status is not
    /// `Converged`).
    pub toi_upper: T,
    /// Unit normal at impact, from A towards B (zero on a miss).
    pub normal: V3<T>,
    /// The world contact point at impact: the middle of `point_a` and
    /// `point_b` (zero on a miss).
    pub point: V3<T>,
    /// The contact point on A, with A at `toi` (world; zero on a miss).
    pub point_a: V3<T>,
    /// The contact point on B (world; zero on a miss). Equal to `point_a` up
    /// to `(toi_upper − toi) · motion`.
    pub point_b: V3<T>,
    /// Support evaluations made (over all inner queries).
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
    /// How far the contact points and normal can be trusted, as for a
    /// distance (`Unique`: both to the witness tolerance; `NotUnique`: a
    /// face or edge against a parallel one, or overlapping at t = 0, the
    /// points one pair of the contact set; `Approximate`: the contact is
    /// unique but ill-conditioned, a rim or edge nearly level with its
    /// partner, which the normal's rounding slides along). `None` on a miss.
    pub witness: Option<Witness>,
}

impl<T: Real> Sweep<T> {
    /// No contact over the whole motion.
    #[must_use]
    pub fn miss(iterations: u32, status: Status) -> Self {
        Self {
            hit: false,
            toi: T::ONE,
            toi_lower: T::ONE,
            toi_upper: T::ONE,
            normal: V3::<T>::ZERO,
            point: V3::<T>::ZERO,
            point_a: V3::<T>::ZERO,
            point_b: V3::<T>::ZERO,
            iterations,
            status,
            witness: None,
        }
    }

    /// The answer to input the query refused ([`Status::InvalidInput`]):
    /// no hit, every number NaN.
    pub(crate) fn invalid() -> Self {
        let (nan, v) = crate::collide::input::nans::<T>();
        Self {
            toi: nan,
            toi_lower: nan,
            toi_upper: nan,
            normal: v,
            point: v,
            point_a: v,
            point_b: v,
            ..Self::miss(0, Status::InvalidInput)
        }
    }

    /// A hit at `toi` known exactly, its contact a unique point: a closed
    /// form before it widens the bracket `[toi, toi]` by its rounding.
    #[must_use]
    pub fn exact(
        toi: T,
        normal: V3<T>,
        (point_a, point_b): (V3<T>, V3<T>),
        iterations: u32,
    ) -> Self {
        Self {
            hit: true,
            toi,
            toi_lower: toi,
            toi_upper: toi,
            normal,
            point: (point_a + point_b) * T::HALF,
            point_a,
            point_b,
            iterations,
            status: Status::Converged,
            witness: Some(Witness::Unique),
        }
    }
}

/// Why [`analytic`] cannot sweep these shapes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    /// The closed forms cover spheres and points (with margins) only.
    #[error("analytic sweep needs a sphere or a point for {which}, got a {shape}")]
    Unsupported {
        /// `a` or `b`.
        which: &'static str,
        /// The shape type found.
        shape: &'static str,
    },
}

/// The distance below which GJK reports contact (its relative tolerance
/// times the scale). From the CSO, which has the scale already: a hull's
/// scale is a scan of its points.
pub(super) fn gjk_tol<T: Real>(cso: &Cso<'_, T>) -> T {
    gjk::rel_tol::<T>() * cso.scale
}

/// A hit computed in f64 for a query in precision `T` (exact when `T` is
/// f64): the bracket rounded outwards, so it still holds, and `Converged`
/// only while it stays within `tol` (the distance A closes over it, along
/// world `motion`), which f32 cannot keep along a long motion or far from
/// the origin.
pub(super) fn narrowed<T: Real>(s: &Sweep<f64>, motion: glam::DVec3, tol: f64) -> Sweep<T> {
    let narrow = |v: glam::DVec3| V3::<T>::from_f64(v.to_array());
    // Nearest rounding is off by at most half a unit in the last place.
    let outward = |x: f64, side: f64| {
        let y = T::from_f64(x);
        if (y.to_f64() - x) * side >= 0.0 {
            y
        } else {
            T::from_f64(x + side * x.abs() * T::EPSILON.to_f64())
        }
    };
    let (lower, upper) = (outward(s.toi_lower, -1.0), outward(s.toi_upper, 1.0));
    let tight = (upper.to_f64() - lower.to_f64()) * s.normal.dot(motion) <= tol;
    let status = match s.status {
        Status::Converged if !tight => Status::Degenerate,
        other => other,
    };
    Sweep {
        hit: s.hit,
        toi: if s.hit {
            outward(s.toi, -1.0).max(lower)
        } else {
            T::ONE
        },
        toi_lower: lower,
        toi_upper: upper,
        normal: narrow(s.normal),
        point: narrow(s.point),
        point_a: narrow(s.point_a),
        point_b: narrow(s.point_b),
        iterations: s.iterations,
        status,
        witness: s.witness,
    }
}

/// The toi tolerance: a step below it ends the advancement (ε^¾).
pub(super) fn toi_tol<T: Real>() -> T {
    mpr::rel_tol::<T>()
}

/// The hit at t = 0 of overlapping shapes: the MPR penetration normal and
/// the middle of its contact points. Unless `confirmed` (GJK found the
/// overlap), a penetration query that finds the shapes apart sends the
/// sweep to conservative advancement from t = 0 instead: an f32 swept MPR
/// cast on plates 7e-9 thick, or on a 1e3 box against a 1e-3 one, put the
/// contact at t = 0 with the shapes 0.49 and 268 apart, `Converged`.
pub(super) fn initial<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
    (iterations, confirmed): (u32, bool),
) -> Sweep<T> {
    rec::text!("overlapping at t = 0");
    let p = mpr::penetration_unrecorded(a, b);
    if !(confirmed || p.intersecting) {
        rec::text!("not overlapping at t = 0 after all: conservative advancement decides");
        let start = Cso::for_sweep(a, b);
        return advance::advance(
            (a, b, &start),
            motion,
            (T::ZERO, iterations + p.iterations),
            (&Simplex::new(), None),
        );
    }
    let normal = p
        .normal
        .try_normalize()
        .unwrap_or_else(|| fallback_normal(a, b));
    overlapping(Sweep::exact(
        T::ZERO,
        normal,
        (p.point_a, p.point_b),
        iterations + p.iterations,
    ))
}

/// A hit of shapes overlapping at t = 0: its contact is not a point.
pub(super) fn overlapping<T: Real>(s: Sweep<T>) -> Sweep<T> {
    Sweep {
        witness: Some(Witness::NotUnique),
        ..s
    }
}

/// From A's position towards B's, or +Y when they coincide.
pub(super) fn fallback_normal<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> V3<T> {
    (b.pose.position - a.pose.position)
        .try_normalize()
        .unwrap_or(V3::<T>::Y)
}

/// Records a hit's answer: its time, bracket and contact points.
pub(super) fn record_hit<T: Real>(s: &Sweep<T>) {
    rec::value!("toi lower", s.toi_lower);
    rec::value!("toi upper", s.toi_upper);
    rec::point!("contact on A", s.point_a, rec::Rgba::GREEN);
    rec::point!("contact on B", s.point_b, rec::Rgba::ORANGE);
    rec::text!(
        "hit at t = {:?} in [{:?}, {:?}], {:?}",
        s.toi,
        s.toi_lower,
        s.toi_upper,
        s.status
    );
}
