//! Curved cores hand GJK's answer over to the witness polish: GJK
//! converges only linearly on a cylinder's or cone's rim, the polish's
//! Newton steps on the normal quadratically. A cold query runs GJK to a
//! rough tolerance first ([`rough_then_polish`]); a warm one starts from the
//! last normal ([`from_normal`]). Either way the answer carries the same
//! certificate as GJK's, and near touching the cold path decides.

use super::Status;
use super::cso::Cso;
use super::gjk::{CoreResult, Distance, End, face_normal, rel_tol, run_with};
use super::simplex::Simplex;
use super::touch::touch_tol;
use super::witness::{self, Witness};
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// The relative gap at which GJK on curved cores hands over to the polish:
/// its normal is then within a few hundredths of a radian. In f64 3e-3
/// (1e-3, 1e-4 and 1e-6 measured slower on cylinders: GJK's linear
/// convergence costs more than the polish's extra step; 1e-2 no faster);
/// in f32 1e-2 (cylinders: 3e-3 and 3e-2 1.08× its time, 1e-3 1.15×, 1e-4
/// 1.3×, GJK alone to f32's tolerance then the polish 1.17×).
pub(super) fn rough_rel<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F64 => T::from_f64(3e-3),
        rec::Precision::F32 => T::from_f64(1e-2),
    }
}

/// Whether GJK's distance on `cso` hands over to the polish: curved cores
/// without a hull (its faces near a rough normal make the polish's support
/// sets costly and often unsettled: hull–cylinder pairs measured 20 %
/// slower); in f32 only two curved cores (a box or capsule with a curved
/// core measured 3–11 % more instructions: GJK reaches f32's tolerance
/// sooner there, and a side along a face does not settle).
pub(super) fn hands_over<T: Real>(cso: &Cso<'_, T>) -> bool {
    let curved = match T::PRECISION {
        rec::Precision::F64 => cso.curved(),
        rec::Precision::F32 => cso.both_curved(),
    };
    curved && !cso.hull()
}

/// Curved cores ([`hands_over`]): GJK to [`rough_rel`], then the polish from its
/// normal ([`from_normal`]), which converges quadratically where GJK
/// converges linearly (the rim alternation). When the polish does not
/// certify the answer, GJK goes on from its simplex to the tolerance where
/// the cores are clearly apart, and runs again from scratch otherwise (as
/// every other query does, so verdicts near touching agree); its result is
/// returned for the usual finish.
pub(super) fn rough_then_polish<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &mut Simplex<T>,
    rel: T,
) -> Result<Distance<T>, CoreResult<T>> {
    let rough_rel = rough_rel::<T>();
    let rough = run_with(cso, simplex, None, rough_rel);
    // A tetrahedron enclosing the origin proves the cores overlap at any
    // tolerance: GJK again would find the same.
    if rough.end == End::MaxIterations || (rough.overlap() && simplex.len() == 4) {
        return Err(rough);
    }
    let r = cso.radius();
    let dc = rough.v.length();
    // Clearly apart (the touching band is GJK's to settle).
    if !rough.overlap() && rough.lower - r > T::from_f64(4.0) * rough_rel * cso.scale {
        let n = face_normal(simplex, rough.v).unwrap_or(-rough.v / dc);
        rec::text!("GJK within {rough_rel:?} of the size: the polish takes over from its normal");
        if let Some(mut out) = from_normal(cso, n, rel, None) {
            out.iterations += rough.iterations;
            return Ok(out);
        }
        if rough.end == End::Gap {
            // Clearly apart, so no verdict depends on the path: GJK goes on
            // from where it stopped (a side along a face, whose points are
            // not unique, is the usual case).
            rec::text!("the polish did not settle: GJK goes on to the tolerance");
            let more = run_with(cso, simplex, None, rel);
            return Err(CoreResult {
                iterations: rough.iterations + more.iterations,
                lower: more.lower.max(rough.lower),
                ..more
            });
        }
        rec::text!("the polish did not settle: GJK again, to the tolerance");
    } else {
        rec::text!("not clearly apart: GJK again, to the tolerance");
    }
    // From scratch, as every other query runs it: near touching the verdict
    // then cannot depend on the path (the rough simplex would start the
    // polish elsewhere).
    simplex.clear();
    let more = run_with(cso, simplex, None, rel);
    Err(CoreResult {
        iterations: rough.iterations + more.iterations,
        ..more
    })
}

/// The distance of apart shapes from a normal `n` (A's frame) near the
/// answer's, without GJK: the witness polish from `n`, accepted when its
/// contact is unique, certified (witnesses on the cores, a lower bound at
/// its normal), beyond touching, and its bounds meet GJK's stopping gap at
/// relative tolerance `rel`. `turn` is how far a warm start's `n`, the
/// extrapolation of the last two normals, may be off: about a frame's turn.
pub(super) fn from_normal<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    rel: T,
    turn: Option<T>,
) -> Option<Distance<T>> {
    // Support sets are taken within the height a turn of the normal spreads
    // them by, so a cap or a side seen from a rough normal is flat: 0.06 of
    // the size (a turn of ~0.03 rad) from a rough or a last frame's normal,
    // 4 × the frame's turn from an extrapolated one (a coherent motion's
    // next normal, off by far less). The witnesses are judged only on an
    // evaluation at the default tolerance: a wide one places them up to it
    // off (a hull's "face" within 0.3 of the size is not planar), and the
    // settling stage's last one usually is (its last turn is tiny).
    let tight = T::from_f64(30.0) * rel_tol::<T>() * cso.scale;
    let wide = T::from_f64(0.06) * cso.scale;
    let settle = turn.map_or(wide, |turn| {
        (T::from_f64(4.0) * turn * cso.scale).max(tight).min(wide)
    });
    let mut p = witness::settle_and_polish(cso, n, settle, tight);
    p.steps += 1;
    let r = cso.radius();
    let (upper, lower) = ((p.b - p.a).length(), p.lower);
    let gap = upper - lower;
    let settled = p.certified
        && p.witness == Witness::Unique
        && lower - r > touch_tol::<T>() * cso.scale
        && gap * gap <= rel * rel * T::TWO * (upper * upper + cso.scale * cso.scale);
    rec::text!("polish from the normal: settled {settled}");
    if !settled {
        return None;
    }
    let n = p.normal;
    let out = Distance {
        distance: upper - r,
        point_a: cso.world_point(p.a + n * cso.radius_a),
        point_b: cso.world_point(p.b - n * cso.radius_b),
        normal: cso.world_vector(n),
        intersecting: false,
        // Both bounds hold to rounding: the lower never reported above.
        lower_bound: (lower - r).min(upper - r),
        upper_bound: upper - r,
        iterations: 2 * (p.steps + 1),
        status: Status::Converged,
        witness: Witness::Unique,
    };
    if rec::ENABLED && rec::is_on() {
        rec::point!("closest on A", out.point_a, rec::Rgba::GREEN);
        rec::point!("closest on B", out.point_b, rec::Rgba::GREEN);
    }
    Some(out)
}
