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
    j.verdict
}
