//! When two shapes touch: at most 1e-12 of their size apart in f64 (GJK's
//! gap tolerance, 2.4e-5, in f32). GJK stops at its gap tolerance, 3.7e-11
//! in f64; where its bounds straddle the touching tolerance this module
//! settles the verdict, the same way for every query (distance, both
//! intersects, both penetrations, the signed distance) so that they agree.

use super::Status;
use super::cso::Cso;
use super::gjk::{CoreResult, End, rel_tol, run_with, separation, status_of};
use super::simplex::Simplex;
use crate::real::{Real, Vector};
use cspace_recorder as rec;

/// The relative distance at or below which two shapes count as touching:
/// 1e-12 of the shapes' size in f64 (GJK's gap tolerance, 3.7e-11, is
/// tightened to it where the answer lands between the two: exact on
/// polytopes, a few more iterations on curved cores), 2.4e-5 in f32 (the gap
/// tolerance itself).
#[inline]
pub(crate) fn touch_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => rel_tol::<T>(),
        rec::Precision::F64 => T::from_f64(1e-12),
    }
}

/// How close to touching (of the size: √ of GJK's gap tolerance) a curved
/// pair's verdict is left to the cold query's path, so that warm and cold
/// answers agree there (see [`touches`]).
pub(super) fn near_touching<T: Real>(cso: &Cso<'_, T>) -> T {
    rel_tol::<T>().sqrt() * cso.scale
}

/// Whether the full shapes touch or overlap, from GJK's final `simplex`
/// and `core` (run with `radius` as in [`run`]), decided at the touching
/// tolerance ([`touch_tol`]) wherever GJK's bounds straddle it:
/// - polytope cores: GJK goes on from `simplex` at a quarter of that
///   tolerance (exact in a few steps), updating `core`;
/// - curved cores: the witness polish (`separation`) bounds the distance
///   from both sides at its converged normal (GJK's own lower bound is
///   ill-conditioned there: its direction is off by the rounding over
///   `|v|`); where the polish does not decide either (its normal not
///   settled to the rounding that flat features next to the contact need),
///   the shapes touch when GJK's upper bound is within √(gap tolerance) of
///   the size (not proven apart; the distance then reports 0, within its
///   own stated accuracy of the true one when GJK converged), apart beyond.
///
/// In f32 alike: there the touching tolerance is GJK's gap tolerance, so a
/// run stopped at it may straddle it with no separating plane found (f32
/// plates 2e-6 of the size deep were answered apart).
pub(crate) fn touches<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
    core: &mut CoreResult<T>,
    radius: Option<T>,
) -> bool {
    match core.end {
        End::WithinRadii => return true,
        End::Separated => return false,
        _ if simplex.len() == 4 => return true,
        _ => {}
    }
    let r = cso.radius();
    let upper = core.v.length() - r;
    let touch = touch_tol::<T>() * cso.scale;
    if upper <= touch {
        return true;
    }
    if core.lower - r > touch {
        return false;
    }
    let _scope = rec::scope!("gjk near touching");
    rec::text!("bounds straddle the touching tolerance {touch:?}");
    if cso.curved() {
        let sep = separation(cso, simplex, core);
        core.iterations += sep.evaluations;
        core.lower = core.lower.max(sep.lower);
        let decided = if core.lower - r > touch {
            Some(false)
        } else if (sep.b - sep.a).length() - r <= touch {
            Some(true)
        } else {
            None
        };
        rec::text!("polished bounds decide: {decided:?}");
        // Not proven apart: touching while GJK's upper bound is within the
        // square root of its gap tolerance (a stalled run at an exact
        // curved contact ends there), apart beyond it (a finite or
        // overflowing answer far from contact).
        return decided.unwrap_or(upper <= near_touching(cso));
    }
    let more = run_with(cso, simplex, radius, touch_tol::<T>() * T::from_f64(0.25));
    *core = CoreResult {
        lower: core.lower.max(more.lower),
        iterations: core.iterations + more.iterations,
        // The answer's certificate is judged at the query's own tolerance.
        status: if more.status == Status::MaxIterations {
            Status::MaxIterations
        } else {
            status_of(cso, simplex, more.end, more.v, rel_tol::<T>()).0
        },
        ..more
    };
    match core.end {
        End::WithinRadii => true,
        End::Separated => false,
        _ => simplex.len() == 4 || core.v.length() - r <= touch,
    }
}
