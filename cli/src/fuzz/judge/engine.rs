//! An engine's answers against cspace's reference.

use super::sweep::{depth_at, distance_at};
use super::{Judge, Verdict, nums, touching, with};
use crate::fuzz::generate::Case;
use cspace::Status;
use cspace::model::{Algorithm, QueryKind};

/// A number field of an engine's answer.
fn field(answer: &serde_json::Value, name: &str) -> Option<f64> {
    answer.get(name).and_then(serde_json::Value::as_f64)
}

/// A boolean field of an engine's answer.
fn flag(answer: &serde_json::Value, name: &str) -> Option<bool> {
    answer.get(name).and_then(serde_json::Value::as_bool)
}

/// The `bounds` an engine's answer claims, `[lower, upper]`; `Err` when the
/// field is there but is not two numbers in order.
fn claimed_bounds(answer: &serde_json::Value) -> Option<Result<[f64; 2], String>> {
    let b = answer.get("bounds")?;
    let pair = b
        .as_array()
        .filter(|v| v.len() == 2)
        .and_then(|v| Some([v[0].as_f64()?, v[1].as_f64()?]));
    Some(match pair {
        Some([lo, hi]) if lo <= hi => Ok([lo, hi]),
        _ => Err(format!(
            "`bounds` must be [lower, upper], two numbers in order: {b}"
        )),
    })
}

/// `engine-bounds`: where an engine's answer claims `bounds`, they hold
/// cspace's reference value `truth` (to `tol`, the value's tolerance): a
/// certificate that excludes the answer is wrong whatever the answer is.
fn check_bounds(
    j: &mut Judge<'_>,
    answer: &serde_json::Value,
    truth: f64,
    tol: f64,
    subject: &cspace::model::Query,
    reference: Option<&cspace::model::Query>,
    limit: bool,
) {
    let Some(claimed) = claimed_bounds(answer) else {
        return;
    };
    let (error, tol, message) = match claimed {
        Ok([lo, hi]) => {
            let outside = (lo - truth).max(truth - hi).max(0.0);
            let message = format!(
                "engine bounds [{lo:e}, {hi:e}] do not hold cspace's {truth:e} (tolerance {tol:e})"
            );
            (outside, tol, message)
        }
        Err(e) => (1.0, 0.0, e),
    };
    j.check(
        "engine-bounds",
        error,
        tol,
        subject.clone(),
        reference.cloned(),
        Some(("bounds".to_owned(), serde_json::json!([truth, truth]), tol)),
        || message,
        limit,
    );
}

/// Judges an engine's `answer` to `case` against cspace's reference, with
/// relative tolerance `rel` on distances, depths and contact distances.
#[must_use]
#[allow(clippy::too_many_lines, reason = "one arm per query kind")]
pub fn judge_engine(case: &Case, answer: &serde_json::Value, rel: f64) -> Verdict {
    let q = &case.query;
    let mut j = Judge::new(q);
    j.tol.distance = j.tol.distance.max(rel);
    j.tol.depth = j.tol.depth.max(rel);
    if !j.valid() {
        return j.verdict;
    }
    let alg = Algorithm::default_for(q.query);
    let Some(reference) = j.answer(q, alg) else {
        return j.verdict;
    };
    let r = nums(&reference);
    let subject = q.clone();
    let reference_q = Some(with(q, alg));
    let missing = |j: &mut Judge<'_>, name: &str| {
        let message = format!("the answer has no `{name}`");
        j.check(
            "engine-garbage",
            1.0,
            0.0,
            subject.clone(),
            reference_q.clone(),
            None,
            || message,
            false,
        );
    };
    // What a claimed `bounds` must hold: cspace's value, its tolerance, and
    // whether a miss is the reference's documented limit.
    let mut bracket: Option<(f64, f64, bool)> = None;
    match q.query {
        QueryKind::Distance | QueryKind::SignedDistance => {
            let Some(d) = field(answer, "distance") else {
                return {
                    missing(&mut j, "distance");
                    j.verdict
                };
            };
            // A negative signed distance is a depth, with the depth's tolerance.
            let tol = if r.value < 0.0 {
                j.depth_tol(r.value)
            } else {
                j.dist_tol(r.value)
            };
            let rv = r.value;
            j.check(
                "engine-distance",
                (d - r.value).abs(),
                tol,
                subject.clone(),
                reference_q.clone(),
                Some(("distance".to_owned(), serde_json::json!(r.value), tol)),
                || format!("engine distance {d:e}, cspace {rv:e} (tolerance {tol:e})"),
                r.value < 0.0 && reference.status == Status::MaxIterations,
            );
            bracket = Some((
                r.value,
                tol,
                r.value < 0.0 && reference.status == Status::MaxIterations,
            ));
        }
        QueryKind::Intersect | QueryKind::Penetration => {
            let Some(i) = flag(answer, "intersecting") else {
                return {
                    missing(&mut j, "intersecting");
                    j.verdict
                };
            };
            if i != r.intersecting && !touching(&j, q) {
                let ri = r.intersecting;
                j.check(
                    "engine-intersect",
                    1.0,
                    0.0,
                    subject.clone(),
                    reference_q.clone(),
                    Some(("intersecting".to_owned(), serde_json::json!(ri), 0.0)),
                    || format!("engine intersecting = {i}, cspace {ri}"),
                    false,
                );
            }
            if q.query == QueryKind::Penetration {
                let Some(d) = field(answer, "depth") else {
                    return {
                        missing(&mut j, "depth");
                        j.verdict
                    };
                };
                let tol = j.depth_tol(r.value);
                let rv = r.value;
                j.check(
                    "engine-depth",
                    (d - r.value).abs(),
                    tol,
                    subject.clone(),
                    reference_q.clone(),
                    Some(("depth".to_owned(), serde_json::json!(r.value), tol)),
                    || format!("engine depth {d:e}, cspace {rv:e} (tolerance {tol:e})"),
                    reference.status == Status::MaxIterations,
                );
                bracket = Some((r.value, tol, reference.status == Status::MaxIterations));
            }
        }
        QueryKind::Sweep => {
            let Some(hit) = flag(answer, "hit") else {
                return {
                    missing(&mut j, "hit");
                    j.verdict
                };
            };
            let band = 2.0 * j.dist_tol(0.0);
            let toi = field(answer, "toi").unwrap_or(1.0);
            let wrong = match (hit, r.intersecting) {
                (true, _) => {
                    distance_at(q, toi).is_none_or(|d| d > band)
                        || (r.intersecting
                            && toi > r.value
                            && distance_at(q, 0.5 * (toi + r.value))
                                .is_some_and(|d| d > j.stall_tol(0.0)))
                }
                (false, true) => [1.0, 0.5 * (r.value + 1.0)]
                    .into_iter()
                    .filter_map(|t| depth_at(q, t))
                    .any(|d| d > 2.0 * j.depth_tol(0.0)),
                (false, false) => false,
            };
            // A hit's claimed bracket holds cspace's toi, to the time A
            // takes to close the contact band (grazing: no bound).
            let closing = crate::fuzz::geom::dot(q.translation.unwrap_or([0.0; 3]), r.normal).abs();
            if hit && r.intersecting && closing > 0.0 {
                bracket = Some((
                    r.value,
                    band / closing,
                    reference.status != Status::Converged,
                ));
            }
            if wrong {
                let (rh, rt) = (r.intersecting, r.value);
                j.check(
                    "engine-toi",
                    1.0,
                    0.0,
                    subject.clone(),
                    reference_q.clone(),
                    Some(("toi".to_owned(), serde_json::json!(rt), band)),
                    || format!("engine hit {hit} at toi {toi:e}; cspace hit {rh} at {rt:e}"),
                    false,
                );
            }
        }
    }
    if let Some((truth, tol, limit)) = bracket {
        check_bounds(
            &mut j,
            answer,
            truth,
            tol,
            &subject,
            reference_q.as_ref(),
            limit,
        );
    }
    j.verdict
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::generate::Family;
    use cspace::model::{Precision, Query};
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    /// Two unit boxes 3 apart along x: distance 1, or overlapping by 0.5.
    fn case(kind: QueryKind, x: f64) -> Case {
        let cube = || {
            ShapeDecl::new(ShapeGeom::Box {
                half_extents: [1.0, 1.0, 1.0],
            })
        };
        Case {
            index: 0,
            family: Family::Random,
            query: Query {
                id: None,
                query: kind,
                precision: Precision::F64,
                algorithm: None,
                a: cube(),
                b: cube().at([x, 0.0, 0.0], ShapeDecl::IDENTITY),
                translation: None,
            },
        }
    }

    fn checks(case: &Case, answer: &serde_json::Value) -> Vec<&'static str> {
        judge_engine(case, answer, 1e-6)
            .findings
            .iter()
            .map(|f| f.check)
            .collect()
    }

    #[test]
    fn an_engines_bounds_must_hold_the_answer() {
        let apart = case(QueryKind::Distance, 3.0);
        let answer = |bounds: serde_json::Value| serde_json::json!({"ok": true, "distance": 1.0, "bounds": bounds});
        assert!(checks(&apart, &serde_json::json!({"ok": true, "distance": 1.0})).is_empty());
        assert!(checks(&apart, &answer(serde_json::json!([0.999, 1.0]))).is_empty());
        // Right distance, a certificate that excludes it.
        assert_eq!(
            checks(&apart, &answer(serde_json::json!([1.01, 1.02]))),
            ["engine-bounds"]
        );
        // Not a bracket at all.
        for bad in [
            serde_json::json!([1.0]),
            serde_json::json!([1.1, 1.0]),
            serde_json::json!("1"),
        ] {
            assert_eq!(
                checks(&apart, &answer(bad.clone())),
                ["engine-bounds"],
                "{bad}"
            );
        }
        // A sweep's toi bracket: box A moved by 4 along x hits B (3 away)
        // at t = 0.25.
        let mut sweep = case(QueryKind::Sweep, 3.0);
        sweep.query.translation = Some([4.0, 0.0, 0.0]);
        let hit = |lo: f64, hi: f64| serde_json::json!({"ok": true, "hit": true, "toi": 0.25, "bounds": [lo, hi]});
        assert!(checks(&sweep, &hit(0.2499, 0.25)).is_empty());
        assert_eq!(checks(&sweep, &hit(0.2, 0.24)), ["engine-bounds"]);
        // A depth's bracket too.
        let deep = case(QueryKind::Penetration, 1.5);
        let depth = |lo: f64, hi: f64| serde_json::json!({"ok": true, "intersecting": true, "depth": 0.5, "bounds": [lo, hi]});
        assert!(checks(&deep, &depth(0.5, 0.5)).is_empty());
        assert_eq!(checks(&deep, &depth(0.0, 0.4)), ["engine-bounds"]);
    }
}
