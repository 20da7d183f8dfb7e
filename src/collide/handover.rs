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
/// its normal is then within a few hundredths of a radian. 3e-3 (f64
/// cylinders: 1e-3, 1e-4 and 1e-6 slower, GJK's linear convergence costs
/// more than the polish's extra step, 1e-2 no faster; f32 curved pairs
/// with narrow first sets, [`rough_settle`]: 1e-2 and 1e-3 4–5 % more
/// instructions); with a hull in the pair (f64) 1e-3 (3e-3 left the polish
/// more unsettled hull faces: 1.4 times the instructions).
pub(super) fn rough_rel<T: Real>(cso: &Cso<'_, T>) -> T {
    if T::PRECISION == rec::Precision::F64 && cso.hull() {
        T::from_f64(1e-3)
    } else {
        T::from_f64(3e-3)
    }
}

/// The height within which the polish from a rough normal takes its first
/// support sets (relative to the size). Wide sets make a rim's side or a
/// cap flat at a rough normal, narrow ones leave fewer points for the
/// Newton steps to sort out: 0.015 (f64 cylinder pairs 4–11 % fewer
/// instructions than 0.06, 0.006 more again; f32 a box or capsule with a
/// curved core 11–18 % fewer than GJK alone, which 0.06 could not beat),
/// 3.6e-3 with a hull in the pair (a hull's face within 0.06 of the size
/// holds many points near a rough normal: hull16 against a cylinder or
/// cone 30 % fewer instructions than 0.06).
fn rough_settle<T: Real>(cso: &Cso<'_, T>) -> T {
    T::from_f64(if cso.hull() { 3.6e-3 } else { 0.015 }) * cso.scale
}

/// Whether GJK's distance on `cso` hands over to the polish: curved cores;
/// with a hull only in f64 (hull–cylinder and hull–cone pairs 25–35 %
/// fewer instructions with the hull's sets taken narrow, see
/// [`rough_settle`]; 20 % more before with them wide; f32 within ±3 %).
pub(super) fn hands_over<T: Real>(cso: &Cso<'_, T>) -> bool {
    cso.curved() && (T::PRECISION == rec::Precision::F64 || !cso.hull())
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
    let rough_rel = rough_rel(cso);
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
        if let Some(mut out) = from_normal(cso, n, rel, rough_settle(cso)) {
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

/// The height within which the polish from a normal off by about `turn`
/// (a warm start's, a backed-off sweep's) takes its first support sets:
/// 4 × `turn` of the size (a coherent motion's next normal, extrapolated
/// from the last two), at most 0.06 (a turn of ~0.03 rad), which makes a
/// cap or a side seen from the last frame's normal (`None`) flat.
pub(super) fn settle_for_turn<T: Real>(cso: &Cso<'_, T>, turn: Option<T>) -> T {
    let wide = T::from_f64(0.06) * cso.scale;
    turn.map_or(wide, |turn| {
        (T::from_f64(4.0) * turn * cso.scale)
            .max(judged(cso))
            .min(wide)
    })
}

/// The set tolerance the polish's witnesses are judged at (the default).
fn judged<T: Real>(cso: &Cso<'_, T>) -> T {
    T::from_f64(30.0) * rel_tol::<T>() * cso.scale
}

/// The distance of apart shapes from a normal `n` (A's frame) near the
/// answer's, without GJK: the witness polish from `n`, accepted when its
/// contact is unique, certified (witnesses on the cores, a lower bound at
/// its normal), beyond touching, its bounds meet GJK's stopping gap at
/// relative tolerance `rel`, and, with a hull in the pair, a curved
/// support is in it: with both supports sharp (a cone's apex against a
/// hull plate's narrow face, far away) the pair is a polytope pair there,
/// which GJK run to its rounding places exactly (the polish placed the
/// plate's point 6.6e-9 of the size off, `Unique`, where GJK's sets place
/// it to 7.6e-12; refusing every sharp pair cost box–cone 12 % more
/// instructions, and their points were as exact either way).
///
/// Its first support sets are taken within the height `settle`
/// ([`rough_settle`], [`settle_for_turn`]); the witnesses are judged only
/// on an evaluation at the default tolerance: a wide one places them up
/// to it off (a hull's "face" within 0.3 of the size is not planar), and
/// the settling stage's last one usually is (its last turn is tiny).
pub(super) fn from_normal<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    rel: T,
    settle: T,
) -> Option<Distance<T>> {
    let mut p = witness::settle_and_polish(cso, n, settle, judged(cso));
    p.steps += 1;
    let r = cso.radius();
    let (upper, lower) = ((p.b - p.a).length(), p.lower);
    let gap = upper - lower;
    let settled = p.certified
        && !(p.sharp && cso.hull())
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
