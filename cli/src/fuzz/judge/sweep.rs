//! Sweep cases: each method's hit is a contact, and the methods agree on
//! the earliest contact.

use super::{Judge, nums, run, with};
use crate::fuzz::generate::Rng;
use crate::fuzz::geom;
use cspace::Status;
use cspace::model::{Algorithm, Answer, Outcome, Query, QueryKind};

/// The GJK distance of the sweep's shapes at time `t`.
pub(super) fn distance_at(q: &Query, t: f64) -> Option<f64> {
    let d = geom::at_time(q, t, QueryKind::Distance);
    run(&d, Algorithm::Gjk).ok().map(|a| nums(&a).value)
}

/// The EPA depth of the sweep's shapes at time `t`.
pub(super) fn depth_at(q: &Query, t: f64) -> Option<f64> {
    let d = geom::at_time(q, t, QueryKind::Penetration);
    run(&d, Algorithm::Epa).ok().map(|a| nums(&a).value)
}

/// `converged-bracket` for a sweep: a hit its method calls `Converged` has
/// its toi inside `[toi_lower, toi_upper]`, and over that bracket A closes
/// on B (the motion along the normal) by no more than the distance's
/// tolerance at contact (the contract: `4 · rel · scale`, tighter).
fn converged_toi_bracket(j: &mut Judge<'_>, a: &Answer, alg: Algorithm) {
    let Outcome::Sweep {
        hit: true,
        toi: Some(toi),
        normal: Some(normal),
        bounds: Some([lo, hi]),
        ..
    } = a.outcome
    else {
        return;
    };
    if a.status != Status::Converged {
        return;
    }
    let closing = geom::dot(j.q.translation.unwrap_or([0.0; 3]), normal).abs();
    let error = (hi - lo).max(lo - toi).max(toi - hi) * closing;
    let error = if error.is_nan() { f64::INFINITY } else { error };
    j.check(
        "converged-bracket",
        error,
        j.dist_tol(0.0),
        with(j.q, alg),
        None,
        None,
        || {
            format!(
                "{alg}: converged at toi {toi:e} on [{lo:e}, {hi:e}], closing {error:e} over it"
            )
        },
        false,
    );
}

/// Judges a sweep case (every sweep method).
pub(super) fn sweep(j: &mut Judge<'_>, _rng: &mut Rng) {
    let q = j.q;
    let mut algs = vec![Algorithm::Raycast, Algorithm::Ca, Algorithm::SweptMpr];
    let mut analytic = q.clone();
    analytic.algorithm = Some(Algorithm::Analytic);
    if analytic.validate().is_ok() {
        algs.push(Algorithm::Analytic);
    }
    let band = 2.0 * j.dist_tol(0.0);
    let motion = geom::norm(q.translation.unwrap_or([0.0; 3]));
    let mut answers = Vec::new();
    for alg in algs {
        let Some(a) = j.answer(q, alg) else {
            continue;
        };
        let n = nums(&a);
        converged_toi_bracket(j, &a, alg);
        // Certificate: a hit is a contact at its toi.
        if n.intersecting {
            let toi = n.value;
            if let Some(d) = distance_at(q, toi) {
                j.check(
                    "toi-contact",
                    d,
                    band,
                    with(q, alg),
                    Some(with(
                        &geom::at_time(q, toi, QueryKind::Distance),
                        Algorithm::Gjk,
                    )),
                    None,
                    || format!("{alg} hits at toi {toi:e}, but the distance there is {d:e}"),
                    d <= j.stall_tol(0.0),
                );
            }
        }
        answers.push((alg, n.intersecting, n.value));
    }
    // Agreement: the earliest contact wins; a later toi is wrong unless the
    // shapes touch within the band all the way (the distance is convex in t).
    let hits: Vec<_> = answers.iter().filter(|a| a.1).copied().collect();
    let Some(&(first_alg, _, first)) = hits.iter().min_by(|a, b| a.2.total_cmp(&b.2)) else {
        return;
    };
    let Some(d_first) = distance_at(q, first) else {
        return;
    };
    if d_first > band {
        return; // toi-contact reported the earliest hit already.
    }
    for &(alg, hit, toi) in &answers {
        if alg == first_alg {
            continue;
        }
        let wrong = if hit {
            let slack = band / motion.max(f64::MIN_POSITIVE) + 1e-9;
            toi - first > slack
                && distance_at(q, toi).is_some_and(|d| d <= band)
                && distance_at(q, 0.5 * (first + toi)).is_some_and(|d| d > j.stall_tol(0.0))
        } else {
            // A miss is wrong when the shapes really overlap later on.
            [1.0, 0.5 * (first + 1.0)]
                .into_iter()
                .filter_map(|t| depth_at(q, t))
                .any(|d| d > 2.0 * j.depth_tol(0.0))
        };
        if wrong {
            j.check(
                "sweep-agree",
                1.0,
                0.0,
                with(q, alg),
                Some(with(q, first_alg)),
                Some((
                    "toi".to_owned(),
                    serde_json::json!(first),
                    band / motion.max(1e-300),
                )),
                || {
                    format!(
                        "{alg}: hit {hit}, toi {toi:e}; {first_alg} hits first at {first:e} \
                         (distance there {d_first:e})"
                    )
                },
                false,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace::model::Precision;
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    /// A box swept by 4 along x into a unit sphere 3 away: a hit at 0.25.
    fn query() -> Query {
        Query {
            id: None,
            query: QueryKind::Sweep,
            precision: Precision::F64,
            algorithm: None,
            a: ShapeDecl::new(ShapeGeom::Box {
                half_extents: [1.0, 1.0, 1.0],
            }),
            b: ShapeDecl::new(ShapeGeom::Sphere { radius: 1.0 })
                .at([3.0, 0.0, 0.0], ShapeDecl::IDENTITY),
            translation: Some([4.0, 0.0, 0.0]),
        }
    }

    /// The `converged-bracket` findings on the ray cast's answer after `doctor`.
    fn findings(doctor: impl Fn(&mut [f64; 2])) -> usize {
        let q = query();
        let mut j = Judge::new(&q);
        let mut a = run(&q, Algorithm::Raycast).expect("answers");
        assert_eq!(a.status, Status::Converged);
        if let Outcome::Sweep {
            bounds: Some(b), ..
        } = &mut a.outcome
        {
            doctor(b);
        }
        converged_toi_bracket(&mut j, &a, Algorithm::Raycast);
        j.verdict.findings.len()
    }

    #[test]
    fn a_converged_hit_on_a_wide_bracket_fails() {
        assert_eq!(findings(|_| {}), 0);
        assert_eq!(findings(|b| b[1] += 1e-6), 1);
        assert_eq!(
            findings(|b| b[0] = b[1] + 1e-6),
            1,
            "the toi below its bracket"
        );
    }
}
