//! The input check every public query makes before it computes: a shape
//! with a negative, NaN or infinite size or an empty hull, a pose with a
//! non-finite position or a zero or non-finite rotation, or a non-finite
//! motion gets [`Status::InvalidInput`](super::Status) and NaN numbers
//! instead of an answer that looks certified; [`check`] names what is
//! wrong.
//!
//! A query whose magnitude ([`magnitude`]: the offset's and the motion's
//! absolute coordinates and both shapes' sizes, the lengths whose products
//! — up to fourth powers and beyond in the certificates' tests — the
//! algorithms form) lies outside the range its precision answers directly
//! runs scaled by a power of two (`Scaled`), which is exact, and its
//! answer is scaled back; only a magnitude that overflows or is too small
//! for any power of two of the precision is refused. The range was
//! measured by scaling random queries of every kind by powers of two:
//! answered directly, answers agree with the unit-size ones to their
//! tolerance inside it and fail beyond it, some still claiming to be
//! converged (`tests/input.rs`). Shapes far from the origin are answered
//! directly: only their offset counts, though their world points carry
//! their positions' rounding.

use super::epa::Penetration;
use super::gjk::Distance;
use super::signed::SignedDistance;
use super::sweep::Sweep;
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Placed, Pose, Shape, ShapeError};
use cspace_recorder as rec;
use std::borrow::Cow;

/// The magnitudes an f64 query answers directly: `[2^-200, 2^200]`
/// (about 6.2e-61 to 1.6e60), or 0; others run scaled.
pub const MAGNITUDE_F64: (f64, f64) = (6.223_015_277_861_142e-61, 1.606_938_044_258_990_3e60);
/// The magnitudes an f32 query answers directly: `[2^-20, 2^26]` (about
/// 9.5e-7 to 6.7e7), or 0; others run scaled.
pub const MAGNITUDE_F32: (f64, f64) = (9.536_743_164_062_5e-7, 67_108_864.0);

/// The magnitude range answered directly in `T`'s precision.
#[inline]
fn range<T: Real>() -> (T, T) {
    let (lo, hi) = match T::PRECISION {
        rec::Precision::F64 => MAGNITUDE_F64,
        rec::Precision::F32 => MAGNITUDE_F32,
    };
    (T::from_f64(lo), T::from_f64(hi))
}

/// Why a query's input cannot be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InputError {
    /// A shape's size, margin or hull is invalid.
    #[error("{body}.shape: {error}")]
    Shape {
        /// `a` or `b`: the argument.
        body: &'static str,
        /// What is wrong with it.
        error: ShapeError,
    },
    /// A position or the motion holds a NaN or an infinity.
    #[error("{field} must be finite, got {value}")]
    NotFinite {
        /// `a.position`, `b.position` or `motion`.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// A rotation is zero, holds a NaN or an infinity, or its squared norm
    /// overflows: it has no nearest unit quaternion.
    #[error("{field} must be a finite, nonzero quaternion, got {value}")]
    Rotation {
        /// `a.rotation` or `b.rotation`.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// The query's magnitude overflows, or is too small for a power of two
    /// of its precision to bring into the range answered directly.
    #[error(
        "the query's magnitude {magnitude:e} (|offset| + the shapes' sizes + |motion|) \
         overflows or is too small to scale in {precision}; rescale the units"
    )]
    Magnitude {
        /// The query's magnitude (infinite when it overflows).
        magnitude: f64,
        /// `f64` or `f32`.
        precision: &'static str,
    },
}

/// The sum of a vector's absolute coordinates: NaN if any is NaN (unlike
/// a maximum, which skips NaN).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn l1<T: Real>(v: V3<T>) -> T {
    let a = v.abs();
    a.x() + a.y() + a.z()
}

/// A query's magnitude: the sum of the absolute coordinates of the offset
/// (B's position minus A's) and of the motion (zero but for sweeps), and
/// of both shapes' sizes (every radius, half extent, half height and
/// margin; a hull's largest absolute coordinate). NaN or infinite when a
/// number is. What [`MAGNITUDE_F64`] and [`MAGNITUDE_F32`] bound.
#[must_use]
#[allow(clippy::inline_always)]
#[inline(always)]
pub fn magnitude<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> T {
    l1::<T>(b.pose.position - a.pose.position) + a.shape.sizes + b.shape.sizes + l1::<T>(motion)
}

/// Whether the query can be answered directly: the fast test each query
/// makes.
#[allow(clippy::inline_always)]
#[inline(always)]
fn valid<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> bool {
    let qa = a.pose.rotation.length_squared();
    let qb = b.pose.rotation.length_squared();
    // A difference of positions is finite only if both are; a shape's
    // cached sum of sizes is NaN when it is invalid; NaN fails every
    // comparison.
    let m = magnitude(a, b, motion);
    direct(m) && unit(qa) && unit(qb)
}

/// Whether a magnitude is answered directly: inside the range, or 0 (false
/// for NaN).
#[allow(clippy::inline_always)]
#[inline(always)]
fn direct<T: Real>(m: T) -> bool {
    let (lo, hi) = range::<T>();
    m <= hi && (m >= lo || m == T::ZERO)
}

/// The numbers of a refused answer: a NaN and a vector of them.
pub(crate) fn nans<T: Real>() -> (T, V3<T>) {
    let nan = T::from_f64(f64::NAN);
    (nan, V3::<T>::new(nan, nan, nan))
}

/// Whether a rotation of squared norm `n2` is unit to rounding (false for
/// NaN): the closed forms rotate with it as it is. 16ε holds every output
/// of [`normalized`] (its rounding stays within 8ε), so a scaled query
/// never comes back here.
#[allow(clippy::inline_always)]
#[inline(always)]
fn unit<T: Real>(n2: T) -> bool {
    (n2 - T::ONE).abs() <= T::from_f64(16.0) * T::EPSILON
}

/// Whether a rotation has a nearest unit quaternion: every component
/// finite and one not zero (however small: [`normalized`] scales first).
fn turns<T: Real>(q: T::Q) -> bool {
    let c = q.to_xyzw();
    c.iter().all(|x| x.is_finite()) && c.iter().any(|&x| x != T::ZERO)
}

/// The unit quaternion nearest `q` (which [`turns`]), exact to rounding
/// whatever its norm: divided by its largest component first, so that
/// its squared norm neither overflows nor underflows.
fn normalized<T: Real>(q: T::Q) -> T::Q {
    let c = q.to_xyzw();
    let big = c.iter().fold(T::ZERO, |m, x| m.max(x.abs()));
    let c = c.map(|x| x / big);
    let norm = c.iter().fold(T::ZERO, |s, &x| s + x * x).sqrt();
    <T::Q as Rotation<T>>::from_xyzw(c.map(|x| x / norm))
}

/// What a query does with its input.
pub(crate) enum Verdict<T: Real> {
    /// Answer it as it is.
    Run,
    /// Refuse it: [`Status::InvalidInput`](super::Status::InvalidInput).
    Refuse,
    /// Answer it scaled by this power of two: its magnitude is outside the
    /// range answered directly.
    Rescale(T),
}

/// What a query does with `a`, `b` and `motion`: one inlined test in the
/// usual case, the rest out of line.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn verdict<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> Verdict<T> {
    if valid(a, b, motion) {
        Verdict::Run
    } else {
        verdict_out_of_line(a, b, motion)
    }
}

/// [`verdict`] for input [`valid`] did not accept: refused if anything is
/// wrong with it but the magnitude, or if that overflows or is too small
/// for a power of two of `T` to bring into the range; otherwise the power
/// of two that brings it to [1, 2).
#[cold]
#[inline(never)]
fn verdict_out_of_line<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> Verdict<T> {
    let sound = a.shape.sizes.is_finite()
        && b.shape.sizes.is_finite()
        && a.pose.position.is_finite()
        && b.pose.position.is_finite()
        && motion.is_finite()
        && turns::<T>(a.pose.rotation)
        && turns::<T>(b.pose.rotation);
    let m = magnitude(a, b, motion);
    if !sound || !m.is_finite() {
        return Verdict::Refuse;
    }
    if direct(m) {
        // In range: only a rotation not unit to rounding sent it here.
        return Verdict::Rescale(T::ONE);
    }
    // 2^-floor(log2 m), in f64 (exact for both precisions' exponents),
    // at most the precision's largest power of two: a subnormal magnitude
    // may need less than the whole way to [1, 2) to come into range.
    #[allow(clippy::cast_possible_truncation)]
    let e = m.to_f64().log2().floor() as i32;
    let largest = match T::PRECISION {
        rec::Precision::F64 => 1023,
        rec::Precision::F32 => 127,
    };
    let k = T::from_f64(2f64.powi((-e).min(largest)));
    if direct(m * k) {
        Verdict::Rescale(k)
    } else {
        Verdict::Refuse
    }
}

/// A query's input with its rotations normalised and scaled by a power of
/// two `k` (1 when only a rotation was not unit), A moved to the origin:
/// every length times `k` exactly, so the scaled query is the same query
/// (up to the rounding of B's offset, which a direct query makes too),
/// answered inside the range. Its answers are mapped back by the methods
/// below: lengths divided by `k`, points moved back by A's position.
pub(crate) struct Scaled<'a, T: Real> {
    a: Cow<'a, Shape<T>>,
    b: Cow<'a, Shape<T>>,
    pose_a: Pose<T>,
    pose_b: Pose<T>,
    /// The motion, scaled.
    pub motion: V3<T>,
    /// `1 / k`: exact.
    inv: T,
    /// A's position.
    origin: V3<T>,
}

impl<'a, T: Real> Scaled<'a, T> {
    /// `a`, `b` and `motion` scaled by `k`, rotations normalised; records
    /// why (a text before the scaled query, which records itself in its
    /// own coordinates). Shapes are copied only when `k` is not 1.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(a: &Placed<'a, T>, b: &Placed<'a, T>, motion: V3<T>, k: T) -> Self {
        rec::text!(
            "magnitude {:e} (range [{:e}, {:e}]), rotations' squared norms {:?} and {:?}: \
             the query runs scaled by {:e} (exact), A at the origin, rotations not unit \
             to rounding normalised",
            magnitude(a, b, motion).to_f64(),
            range::<T>().0.to_f64(),
            range::<T>().1.to_f64(),
            a.pose.rotation.length_squared(),
            b.pose.rotation.length_squared(),
            k.to_f64()
        );
        let origin = a.pose.position;
        // Rotations unit to rounding are kept as they are: the scaled
        // query is then the same query, bit for bit.
        let turn = |q: T::Q| {
            if unit(q.length_squared()) {
                q
            } else {
                normalized::<T>(q)
            }
        };
        let shape = |s: &'a Shape<T>| {
            if k == T::ONE {
                Cow::Borrowed(s)
            } else {
                Cow::Owned(s.scaled(k))
            }
        };
        Self {
            a: shape(a.shape),
            b: shape(b.shape),
            pose_a: Pose::new(V3::<T>::ZERO, turn(a.pose.rotation)),
            pose_b: Pose::new((b.pose.position - origin) * k, turn(b.pose.rotation)),
            motion: motion * k,
            inv: T::ONE / k,
            origin,
        }
    }

    /// The scaled shapes, placed.
    pub(crate) fn placed(&self) -> (Placed<'_, T>, Placed<'_, T>) {
        (
            Placed::new(self.a.as_ref(), self.pose_a),
            Placed::new(self.b.as_ref(), self.pose_b),
        )
    }

    /// A scaled length back.
    fn length(&self, x: T) -> T {
        x * self.inv
    }

    /// A scaled world point back.
    fn point(&self, p: V3<T>) -> V3<T> {
        self.origin + p * self.inv
    }

    /// A distance answer back.
    pub(crate) fn distance(&self, d: Distance<T>) -> Distance<T> {
        Distance {
            distance: self.length(d.distance),
            point_a: self.point(d.point_a),
            point_b: self.point(d.point_b),
            lower_bound: self.length(d.lower_bound),
            upper_bound: self.length(d.upper_bound),
            ..d
        }
    }

    /// A penetration answer back.
    pub(crate) fn penetration(&self, p: Penetration<T>) -> Penetration<T> {
        Penetration {
            depth: self.length(p.depth),
            point_a: self.point(p.point_a),
            point_b: self.point(p.point_b),
            lower_bound: self.length(p.lower_bound),
            upper_bound: self.length(p.upper_bound),
            ..p
        }
    }

    /// A signed distance answer back.
    pub(crate) fn signed(&self, s: SignedDistance<T>) -> SignedDistance<T> {
        SignedDistance {
            distance: self.length(s.distance),
            point_a: self.point(s.point_a),
            point_b: self.point(s.point_b),
            lower_bound: self.length(s.lower_bound),
            upper_bound: self.length(s.upper_bound),
            ..s
        }
    }

    /// A sweep answer back (times of impact are unchanged by scaling).
    pub(crate) fn sweep(&self, s: Sweep<T>) -> Sweep<T> {
        if !s.hit {
            return s;
        }
        Sweep {
            point: self.point(s.point),
            point_a: self.point(s.point_a),
            point_b: self.point(s.point_b),
            ..s
        }
    }
}

/// Checks that a query of `a` against `b` (with `motion` for a sweep,
/// zero otherwise) can be answered: what a query answering
/// [`Status::InvalidInput`](super::Status::InvalidInput) refused. A query
/// whose magnitude is outside [`MAGNITUDE_F64`] ([`MAGNITUDE_F32`]) is
/// answered scaled by a power of two, which is exact: only one that
/// overflows, or is too small for any power of two of its precision to
/// scale, is refused.
///
/// # Errors
/// The first problem: a shape (`a`'s first), a position, the motion, a
/// rotation, then the magnitude. Fields are named as the arguments are
/// (`a.position`) and as the query model's paths are.
pub fn check<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    motion: V3<T>,
) -> Result<(), InputError> {
    if !matches!(verdict(a, b, motion), Verdict::Refuse) {
        return Ok(());
    }
    for (body, s) in [("a", a.shape), ("b", b.shape)] {
        s.validate()
            .map_err(|error| InputError::Shape { body, error })?;
    }
    let vectors = [
        ("a.position", a.pose.position),
        ("b.position", b.pose.position),
        ("motion", motion),
    ];
    for (field, v) in vectors {
        if !v.is_finite() {
            return Err(InputError::NotFinite {
                field,
                value: format!("{v:?}"),
            });
        }
    }
    for (field, q) in [
        ("a.rotation", a.pose.rotation),
        ("b.rotation", b.pose.rotation),
    ] {
        if !turns::<T>(q) {
            return Err(InputError::Rotation {
                field,
                value: format!("{:?}", q.to_xyzw()),
            });
        }
    }
    // What is left: a magnitude that overflows (an offset, or a sum of
    // finite sizes) or is too small to scale.
    Err(InputError::Magnitude {
        magnitude: magnitude(a, b, motion).to_f64(),
        precision: T::PRECISION.name(),
    })
}

/// `None` when the query runs directly (the usual case: one inlined test);
/// otherwise its answer, refused (`invalid`) or computed by `scaled` on the
/// scaled input and mapped back by it ([`Scaled`]'s methods).
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn indirect<T: Real, R>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    motion: V3<T>,
    invalid: impl FnOnce() -> R,
    scaled: impl FnOnce(&Scaled<'_, T>, &Placed<'_, T>, &Placed<'_, T>, V3<T>) -> R,
) -> Option<R> {
    match verdict(a, b, motion) {
        Verdict::Run => None,
        Verdict::Refuse => Some(refuse(a, b, motion, invalid())),
        Verdict::Rescale(k) => {
            let s = Scaled::new(a, b, motion, k);
            let (sa, sb) = s.placed();
            Some(scaled(&s, &sa, &sb, s.motion))
        }
    }
}

/// A refused query's answer `out`, after recording the shapes and why
/// (the viewer shows the reason as the query's last text; no answer).
#[cold]
#[inline(never)]
pub(crate) fn refuse<T: Real, R>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>, out: R) -> R {
    let _query = rec::enter_query();
    if motion == V3::<T>::ZERO {
        rec::shapes!(a, b);
    } else {
        rec::shapes!(a, b, motion);
    }
    rec::text!(
        "invalid input: {}",
        check(a, b, motion)
            .err()
            .map_or_else(String::new, |e| e.to_string())
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Normalised quaternions pass [`unit`] in both precisions, whatever
    /// their norm before (the scaled path relies on it not to recurse).
    #[test]
    fn normalised_rotations_are_unit_to_rounding() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || super::super::uniform(&mut seed) * 2.0 - 1.0;
        for i in 0..20_000 {
            let scale = [1e-300, 1e-30, 1e-3, 1.0, 3.0, 1e30, 1e300][i % 7];
            let c = [next(), next(), next(), next()].map(|x| x * scale);
            let q64 = normalized::<f64>(<glam::DQuat as Rotation<f64>>::from_xyzw(c));
            assert!(unit(q64.length_squared()), "{c:?}");
            #[allow(clippy::cast_possible_truncation)]
            let c32 = c.map(|x| (x / scale * 1e-20) as f32);
            let q32 = normalized::<f32>(<glam::Quat as Rotation<f32>>::from_xyzw(c32));
            assert!(unit(q32.length_squared()), "{c32:?}");
        }
    }
}
