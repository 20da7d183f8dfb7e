//! The input check every public query makes before it computes: a shape
//! with a negative, NaN or infinite size or an empty hull, a pose with a
//! non-finite position or a zero or non-finite rotation, a non-finite
//! motion, or a query whose magnitude lies outside the range its precision
//! answers correctly, gets [`Status::InvalidInput`](super::Status) and NaN
//! numbers instead of an answer that looks certified. [`check`] names what
//! is wrong.
//!
//! The magnitude ([`magnitude`]) sums the offset's and the motion's
//! absolute coordinates and both shapes' sizes: the lengths whose products
//! (up to fourth powers and beyond in the certificates' tests) the
//! algorithms form. The range was measured by scaling random queries of
//! every kind by powers of two (exact, so any change is overflow,
//! underflow or a constant not relative to the size): answers agree with
//! the unit-size ones to their tolerance inside it and fail beyond it,
//! some still claiming to be converged (`tests/input.rs`). Shapes far from
//! the origin are answered: only their offset counts, though their world
//! points carry their positions' rounding.

use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Placed, ShapeError};
use cspace_recorder as rec;

/// The magnitudes an f64 query answers correctly: `[2^-200, 2^200]`
/// (about 6.2e-61 to 1.6e60), or 0.
pub const MAGNITUDE_F64: (f64, f64) = (6.223_015_277_861_142e-61, 1.606_938_044_258_990_3e60);
/// The magnitudes an f32 query answers correctly: `[2^-20, 2^26]` (about
/// 9.5e-7 to 6.7e7), or 0.
pub const MAGNITUDE_F32: (f64, f64) = (9.536_743_164_062_5e-7, 67_108_864.0);

/// The supported magnitude range in `T`'s precision.
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
    /// The query's magnitude is outside the range its precision answers
    /// correctly (see the module docs): rescale the scene's units.
    #[error(
        "the query's magnitude {magnitude:e} (|offset| + the shapes' sizes + |motion|) is outside \
         [{least:e}, {limit:e}], the range {precision} answers correctly; rescale the units"
    )]
    Magnitude {
        /// The query's magnitude.
        magnitude: f64,
        /// The smallest nonzero magnitude answered.
        least: f64,
        /// The largest magnitude answered.
        limit: f64,
        /// `f64` or `f32`.
        precision: &'static str,
    },
}

/// The sum of a vector's absolute coordinates: NaN if any is NaN (unlike
/// a maximum, which skips NaN).
#[allow(clippy::inline_always)]
#[inline(always)]
fn l1<T: Real>(v: V3<T>) -> T {
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

/// Whether the query can be answered: the fast test each query makes.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn valid<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> bool {
    let qa = a.pose.rotation.length_squared();
    let qb = b.pose.rotation.length_squared();
    // A difference of positions is finite only if both are; a shape's
    // cached sum of sizes is NaN when it is invalid; NaN fails every
    // comparison.
    let m = magnitude(a, b, motion);
    let (lo, hi) = range::<T>();
    m <= hi && (m >= lo || m == T::ZERO) && turns(qa) && turns(qb)
}

/// Whether a rotation of squared norm `n2` has a nearest unit quaternion:
/// nonzero and finite (false for NaN).
#[allow(clippy::inline_always)]
#[inline(always)]
fn turns<T: Real>(n2: T) -> bool {
    n2 > T::ZERO && n2 <= T::MAX
}

/// Checks that a query of `a` against `b` (with `motion` for a sweep,
/// zero otherwise) can be answered: what a query answering
/// [`Status::InvalidInput`](super::Status::InvalidInput) refused.
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
    if valid(a, b, motion) {
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
        if !turns(q.length_squared()) {
            return Err(InputError::Rotation {
                field,
                value: format!("{:?}", q.to_xyzw()),
            });
        }
    }
    let (least, limit) = match T::PRECISION {
        rec::Precision::F64 => MAGNITUDE_F64,
        rec::Precision::F32 => MAGNITUDE_F32,
    };
    // What is left: a magnitude out of range (or infinite from finite
    // parts: an offset or a sum that overflows).
    Err(InputError::Magnitude {
        magnitude: magnitude(a, b, motion).to_f64(),
        least,
        limit,
        precision: T::PRECISION.name(),
    })
}

/// Whether a query refuses its input ([`valid`] fails), recording why.
#[allow(clippy::inline_always)]
#[inline(always)]
pub(crate) fn refused<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) -> bool {
    if valid(a, b, motion) {
        return false;
    }
    record_refusal(a, b, motion);
    true
}

/// Records why a query refused its input (the viewer shows it as the
/// query's last text); nothing when not recording.
#[cold]
#[inline(never)]
pub(crate) fn record_refusal<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>, motion: V3<T>) {
    rec::text!(
        "invalid input: {}",
        check(a, b, motion)
            .err()
            .map_or_else(String::new, |e| e.to_string())
    );
}
