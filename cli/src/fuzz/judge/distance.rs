//! Distance cases: GJK's bracket and witnesses, one invariance, f32 against f64.

use super::{Judge, Tolerance, f32_vs_f64, nums, transform, with};
use crate::fuzz::generate::Rng;
use crate::fuzz::geom;
use cspace::Status;
use cspace::model::{Algorithm, Precision};

/// Judges a distance case (GJK).
pub(super) fn distance(j: &mut Judge<'_>, rng: &mut Rng) {
    let q = j.q;
    let Some(ans) = j.answer(q, Algorithm::Gjk) else {
        return;
    };
    let n = nums(&ans);
    let d = n.value;
    let tol = j.dist_tol(d);
    let subject = with(q, Algorithm::Gjk);
    let expect = |v: f64, t: f64| Some(("distance".to_owned(), serde_json::json!(v), t));
    let limit = ans.status != Status::Converged && q.precision == Precision::F32;
    let stall = j.stall_tol(d);
    if n.intersecting {
        // No axis may separate intersecting shapes by more than the tolerance.
        let centre = geom::normalize(geom::sub(q.b.position, q.a.position));
        let gap = j.pair.gap(centre);
        j.check(
            "gjk-bracket",
            gap,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            expect(gap, tol),
            || {
                format!(
                    "gjk says intersecting, but the axis between the centres separates by {gap:e}"
                )
            },
            limit || gap <= stall,
        );
    } else {
        let witness = geom::norm(geom::sub(n.point_b, n.point_a));
        let lower = j.pair.gap(n.normal);
        // The normal comes from the witness points, whose direction is
        // known to (rounding of the points) / (their distance): the lower
        // bound it gives is loose by that angle times the size.
        let angle = (j.tol.pos * j.reach / witness.max(f64::MIN_POSITIVE)).min(2.0);
        let error = (witness - d).abs().max(d - lower - angle * j.size.max(d));
        j.check(
            "gjk-bracket",
            error,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            expect(lower, tol),
            || {
                format!(
                    "gjk distance {d:e} is not bracketed: witnesses {witness:e} apart, \
                     separation along the normal {lower:e}"
                )
            },
            limit || error <= stall,
        );
        // The witnesses lie in their shapes (seen from the axes and the normal).
        let outside = j.pair.outside(n.point_a, n.point_b, n.normal);
        j.check(
            "gjk-witness",
            outside,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            None,
            || format!("a gjk witness point lies {outside:e} outside its shape"),
            limit || outside <= stall,
        );
    }
    let (name, t, k) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Gjk) {
        let e = (nums(&other).value / k - d).abs();
        let tol = j.dist_tol(d) + Tolerance::of(q.precision).pos * geom::reach(&t) / k;
        let dt = nums(&other).value;
        j.check(
            name,
            e,
            tol,
            subject.clone(),
            Some(with(&t, Algorithm::Gjk)),
            expect(dt / k, tol),
            || format!("gjk distance {d:e}, after `{name}` {dt:e} (÷{k})"),
            e <= stall + tol,
        );
    }
    f32_vs_f64(j, &ans, Algorithm::Gjk, "distance");
}
