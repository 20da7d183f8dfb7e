//! The results panel's numbers: the sandbox query's answer beside a second
//! algorithm's ([`compare`]), flagged when they differ beyond a tolerance.

use cspace::model::{Algorithm, Answer, Outcome, Precision, Query, QueryKind};

/// The results panel: the query's answer next to a reference answer from a
/// second algorithm, and their difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// What is compared, e.g. "distance" or "time of impact".
    pub quantity: &'static str,
    /// The query's algorithm and value, as text.
    pub answer: String,
    /// The reference algorithm (how the reference was computed).
    pub reference_name: String,
    /// The reference's value, as text.
    pub reference: String,
    /// |answer − reference|, when both have a value (`None`: one is missing).
    pub difference: Option<f64>,
    /// The largest difference not flagged.
    pub tolerance: f64,
    /// Whether the two disagree beyond the tolerance (or one has no answer).
    pub flagged: bool,
}

/// `q` run (not recorded) as `kind` with `algorithm`; `None` when that is
/// invalid or the algorithm panics.
fn reference_run(q: &Query, kind: QueryKind, algorithm: Algorithm) -> Option<Answer> {
    let mut r = q.clone();
    r.query = kind;
    r.algorithm = Some(algorithm);
    std::panic::catch_unwind(|| cspace::model::run(&r))
        .ok()
        .and_then(Result::ok)
}

fn fmt_f(v: f64) -> String {
    format!("{v:.17e}")
}

/// One side-by-side result: the answer's text, the reference's name and
/// text, and both values as numbers when there are some.
struct Pairing {
    answer: Option<String>,
    reference_name: String,
    reference: String,
    values: (Option<f64>, Option<f64>),
}

const NO_ANSWER: &str = "(no answer)";

fn compare_distance(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let Some(Answer {
        outcome:
            Outcome::Distance {
                distance,
                point_a,
                point_b,
                intersecting,
                ..
            },
        ..
    }) = answer
    else {
        return Pairing {
            answer: None,
            reference_name: "ca sweep along the separating direction".to_owned(),
            reference: NO_ANSWER.to_owned(),
            values: (None, None),
        };
    };
    let distance = *distance;
    let shown = Some(format!("{alg}: {}", fmt_f(distance)));
    let dir: [f64; 3] = std::array::from_fn(|i| point_b[i] - point_a[i]);
    let len = dir.iter().map(|c| c * c).sum::<f64>().sqrt();
    if *intersecting || len == 0.0 || distance == 0.0 {
        let (reference, value) = match reference_run(q, QueryKind::Penetration, Algorithm::Epa) {
            Some(Answer {
                outcome:
                    Outcome::Penetration {
                        depth,
                        intersecting: true,
                        ..
                    },
                ..
            }) => (
                format!("0 (intersecting, depth {})", fmt_f(depth)),
                Some(0.0),
            ),
            Some(_) => ("EPA says apart".to_owned(), None),
            None => (NO_ANSWER.to_owned(), None),
        };
        return Pairing {
            answer: shown,
            reference_name: "epa (intersection)".to_owned(),
            reference,
            values: (Some(distance), value),
        };
    }
    // Moving A by 2·d along the separating direction touches B at t = 1/2.
    let mut s = q.clone();
    s.translation = Some(dir.map(|x| x / len * 2.0 * distance));
    let (reference, value) = match reference_run(&s, QueryKind::Sweep, Algorithm::Ca) {
        Some(Answer {
            outcome:
                Outcome::Sweep {
                    hit: true,
                    toi: Some(t),
                    ..
                },
            ..
        }) => {
            let d = t * 2.0 * distance;
            (fmt_f(d), Some(d))
        }
        Some(_) => ("no contact within 2 × distance".to_owned(), None),
        None => (NO_ANSWER.to_owned(), None),
    };
    Pairing {
        answer: shown,
        reference_name: "ca sweep along the separating direction".to_owned(),
        reference,
        values: (Some(distance), value),
    }
}

fn compare_intersect(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let other = if alg == Algorithm::Mpr {
        Algorithm::Gjk
    } else {
        Algorithm::Mpr
    };
    let flag = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Intersect { intersecting }) => Some(*intersecting),
        _ => None,
    };
    let (x, y) = (
        flag(answer),
        flag(reference_run(q, QueryKind::Intersect, other).as_ref()),
    );
    Pairing {
        answer: x.map(|v| format!("{alg}: {v}")),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), |v| v.to_string()),
        values: (x.map(f64::from), y.map(f64::from)),
    }
}

fn compare_penetration(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let other = if alg == Algorithm::Mpr {
        Algorithm::Epa
    } else {
        Algorithm::Mpr
    };
    let depth = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Penetration { depth, .. }) => Some(*depth),
        _ => None,
    };
    let (x, y) = (
        depth(answer),
        depth(reference_run(q, QueryKind::Penetration, other).as_ref()),
    );
    Pairing {
        answer: x.map(|v| format!("{alg}: {}", fmt_f(v))),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), fmt_f),
        values: (x, y),
    }
}

/// A signed distance `s` against conservative advancement along its own
/// normal `n`. The signed distance is the largest gap `min B·n − max A·n`
/// over directions, so moving A by `u` along the best `n` lowers it by `u`:
/// A starts at `u = min(0, 2s)` (apart by `|s|`) and moves by `2|s|`,
/// touching B half way; the reference is where it touches. A wrong value or a
/// normal that is not the best direction lands elsewhere. At `s = 0`, EPA's
/// depth (negated).
fn compare_signed(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let reference_name = "ca sweep along its normal".to_owned();
    let Some(Answer {
        outcome: Outcome::SignedDistance {
            distance, normal, ..
        },
        ..
    }) = answer
    else {
        return Pairing {
            answer: None,
            reference_name,
            reference: NO_ANSWER.to_owned(),
            values: (None, None),
        };
    };
    let s = *distance;
    let shown = Some(format!("{alg}: {}", fmt_f(s)));
    let span = 2.0 * s.abs();
    if span == 0.0 {
        let depth = match reference_run(q, QueryKind::Penetration, Algorithm::Epa) {
            Some(Answer {
                outcome: Outcome::Penetration { depth, .. },
                ..
            }) => Some(depth),
            _ => None,
        };
        return Pairing {
            answer: shown,
            reference_name: "epa (touching)".to_owned(),
            reference: depth.map_or_else(|| NO_ANSWER.to_owned(), |d| fmt_f(-d)),
            values: (Some(s), depth.map(|d| -d)),
        };
    }
    let start = 2.0 * s.min(0.0);
    let mut r = q.clone();
    r.a.position = std::array::from_fn(|i| q.a.position[i] + normal[i] * start);
    r.translation = Some(normal.map(|x| x * span));
    let (reference, value) = match reference_run(&r, QueryKind::Sweep, Algorithm::Ca) {
        Some(Answer {
            outcome:
                Outcome::Sweep {
                    hit: true,
                    toi: Some(t),
                    ..
                },
            ..
        }) => {
            let v = start + t * span;
            (fmt_f(v), Some(v))
        }
        Some(_) => ("no contact along the normal".to_owned(), None),
        None => (NO_ANSWER.to_owned(), None),
    };
    Pairing {
        answer: shown,
        reference_name,
        reference,
        values: (Some(s), value),
    }
}

fn compare_sweep(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let mut analytic = q.clone();
    analytic.algorithm = Some(Algorithm::Analytic);
    let other = if alg != Algorithm::Analytic && analytic.validate().is_ok() {
        Algorithm::Analytic
    } else if alg == Algorithm::Ca {
        Algorithm::Raycast
    } else {
        Algorithm::Ca
    };
    let toi = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Sweep { toi, .. }) => Some(*toi),
        _ => None,
    };
    let show = |t: Option<f64>| t.map_or_else(|| "miss".to_owned(), fmt_f);
    let (x, y) = (
        toi(answer),
        toi(reference_run(q, QueryKind::Sweep, other).as_ref()),
    );
    let values = match (x, y) {
        // Both miss: they agree.
        (Some(None), Some(None)) => (Some(0.0), Some(0.0)),
        (Some(a), Some(b)) => (a, b),
        _ => (None, None),
    };
    Pairing {
        answer: x.map(|t| format!("{alg}: {}", show(t))),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), show),
        values,
    }
}

/// The answer to `q` (if any) beside a second algorithm's: distance against a
/// conservative-advancement sweep along GJK's separating direction (EPA when
/// GJK reports an intersection), penetration EPA against MPR, intersection
/// GJK against MPR, signed distance against a conservative-advancement sweep
/// along its normal through contact, and a sweep against another sweep
/// method (the analytic sweep when it covers the shapes). Flagged when
/// `|answer − reference| > tolerance · max(1, |answer|, |reference|)` or
/// either has no value.
#[must_use]
pub fn compare(q: &Query, answer: Option<&Answer>, tolerance: f64) -> Comparison {
    let alg = q.resolved_algorithm();
    let (quantity, p) = match q.query {
        QueryKind::Distance => ("distance", compare_distance(q, answer, alg)),
        QueryKind::Intersect => ("intersecting", compare_intersect(q, answer, alg)),
        QueryKind::Penetration => ("depth", compare_penetration(q, answer, alg)),
        QueryKind::SignedDistance => ("signed distance", compare_signed(q, answer, alg)),
        QueryKind::Sweep => ("time of impact", compare_sweep(q, answer, alg)),
    };
    let difference = match p.values {
        (Some(x), Some(y)) => Some(((x - y).abs(), x.abs().max(y.abs()).max(1.0))),
        _ => None,
    };
    Comparison {
        quantity,
        answer: p.answer.unwrap_or_else(|| format!("{alg}: {NO_ANSWER}")),
        reference_name: p.reference_name,
        reference: p.reference,
        difference: difference.map(|(d, _)| d),
        tolerance,
        flagged: difference.is_none_or(|(d, scale)| d.is_nan() || d > tolerance * scale),
    }
}

/// The default comparison tolerance of a precision.
#[must_use]
pub fn default_tolerance(p: Precision) -> f64 {
    match p {
        Precision::F64 => 1e-6,
        Precision::F32 => 1e-3,
    }
}
