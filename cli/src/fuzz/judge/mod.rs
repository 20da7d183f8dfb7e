//! The judges: certificates, agreement between algorithms, f32 against f64
//! and invariances, each with its tolerance (README "Fuzz" lists them).
//!
//! Every tolerance is `rel · (size + |value|) + pos · reach`: `size` the sum
//! of the shapes' [`Shape::scale`](cspace::Shape::scale), `reach` the
//! largest coordinate of the positions and motion (rounding the relative pose
//! loses `ε · reach`), `rel` and `pos` per precision from [`Tolerance`].
//!
//! One file per query kind's checks (`distance`, `overlap`: intersect and
//! penetration, `signed`, `sweep`) and one for engines' answers (`engine`);
//! this file holds what they share: the tolerances, the verdict, running a
//! query through the model and the checks several kinds use.

mod distance;
mod engine;
mod overlap;
mod signed;
mod sweep;

pub use engine::judge_engine;

use super::generate::{Case, Rng};
use super::geom::{self, Pair};
use cspace::Status;
use cspace::model::{Algorithm, Answer, Outcome, Precision, Query, QueryKind};

/// Relative tolerances of one precision.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// Distances, GJK brackets, invariances of distances (GJK stops within
    /// ~4e-11 (f64) / 2.4e-5 (f32) of the size).
    pub distance: f64,
    /// Penetration depths (EPA stops within 1e-8 (f64) / 2.4e-5 (f32) of the size).
    pub depth: f64,
    /// Per unit of `reach`: the rounding of positions far from the origin.
    pub pos: f64,
}

impl Tolerance {
    /// The tolerances of `precision`.
    #[must_use]
    pub fn of(precision: Precision) -> Self {
        match precision {
            Precision::F64 => Self {
                distance: 1e-9,
                depth: 1e-6,
                pos: 1e-14,
            },
            Precision::F32 => Self {
                distance: 2e-4,
                depth: 2e-3,
                pos: 4e-6,
            },
        }
    }
}

/// One failed (or limited) check.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The check's name (`gjk-bracket`, `mpr-vs-epa`, `swap`, …).
    pub check: &'static str,
    /// A documented limit of the algorithm: reported, not a failure.
    pub limit: bool,
    /// What is wrong, with numbers.
    pub message: String,
    /// The error over its tolerance (> 1 fails).
    pub ratio: f64,
    /// The query whose answer is wrong (its algorithm set).
    pub subject: Query,
    /// The query it was compared with (another algorithm, precision or
    /// transformed input), when there is one.
    pub reference: Option<Query>,
    /// The answer field that is wrong, what it should be and the tolerance
    /// (stored as a replay check in the fixture).
    pub expect: Option<(String, serde_json::Value, f64)>,
}

/// The judges' verdict on one case.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Failed checks (and documented limits).
    pub findings: Vec<Finding>,
    /// The largest error over tolerance of any check (≤ 1 when all pass).
    pub worst: f64,
}

impl Verdict {
    /// Whether any check failed (documented limits excluded).
    #[must_use]
    pub fn failed(&self) -> bool {
        self.findings.iter().any(|f| !f.limit)
    }
}

/// Runs `q` with `algorithm` through the query model's one dispatch
/// ([`cspace::model::run_valid`]); a panic becomes the error text.
///
/// `q` must be valid: [`judge`] validates each case once, and the queries
/// derived from it (other algorithms and precisions, the invariance
/// transforms, times along a sweep) stay valid. Validating every run cost a
/// third of the throughput on 2000-point hulls.
pub fn run(q: &Query, algorithm: Algorithm) -> Result<Answer, String> {
    std::panic::catch_unwind(|| cspace::model::run_valid(q, algorithm))
        .map_err(|p| format!("panicked: {}", cspace::fixture::panic_message(p.as_ref())))
}

/// The query `q` with its algorithm set.
fn with(q: &Query, algorithm: Algorithm) -> Query {
    let mut s = q.clone();
    s.algorithm = Some(algorithm);
    s
}

struct Judge<'a> {
    q: &'a Query,
    pair: Pair,
    tol: Tolerance,
    size: f64,
    reach: f64,
    verdict: Verdict,
}

/// Numbers of an answer.
struct Nums {
    value: f64,
    intersecting: bool,
    point_a: [f64; 3],
    point_b: [f64; 3],
    normal: [f64; 3],
}

fn nums(a: &Answer) -> Nums {
    match &a.outcome {
        Outcome::Distance {
            distance,
            point_a,
            point_b,
            normal,
            intersecting,
            ..
        } => Nums {
            value: *distance,
            intersecting: *intersecting,
            point_a: *point_a,
            point_b: *point_b,
            // The answer's own normal where it has one: the points' difference
            // carries their rounding (ε × size) over the distance, which on a
            // long f32 shape a hair away turns it by more than a hundredth.
            normal: normal.unwrap_or_else(|| geom::normalize(geom::sub(*point_b, *point_a))),
        },
        Outcome::Intersect { intersecting } => Nums {
            value: 0.0,
            intersecting: *intersecting,
            point_a: [0.0; 3],
            point_b: [0.0; 3],
            normal: [1.0, 0.0, 0.0],
        },
        Outcome::Penetration {
            depth,
            normal,
            point_a,
            point_b,
            intersecting,
            ..
        } => Nums {
            value: *depth,
            intersecting: *intersecting,
            point_a: *point_a,
            point_b: *point_b,
            normal: *normal,
        },
        Outcome::SignedDistance {
            distance,
            normal,
            point_a,
            point_b,
            intersecting,
            ..
        } => Nums {
            value: *distance,
            intersecting: *intersecting,
            point_a: *point_a,
            point_b: *point_b,
            normal: *normal,
        },
        Outcome::Sweep {
            hit, toi, normal, ..
        } => Nums {
            value: toi.unwrap_or(1.0),
            intersecting: *hit,
            point_a: [0.0; 3],
            point_b: [0.0; 3],
            normal: normal.unwrap_or([1.0, 0.0, 0.0]),
        },
    }
}

impl<'a> Judge<'a> {
    fn new(q: &'a Query) -> Self {
        let pair = Pair::new(q);
        let size = pair.size();
        Self {
            q,
            pair,
            tol: Tolerance::of(q.precision),
            size,
            reach: geom::reach(q),
            verdict: Verdict::default(),
        }
    }

    /// The distance tolerance at value `v`.
    fn dist_tol(&self, v: f64) -> f64 {
        self.tol.distance * (self.size + v.abs()) + self.tol.pos * self.reach
    }

    /// GJK's documented stall bound at value `v`: where rounding stops its
    /// progress first, GJK reports `Converged` with bounds within the square
    /// root of its tolerance (`gjk.rs` module docs). A distance error between
    /// the strict tolerance and this bound is that limit, not a failure.
    fn stall_tol(&self, v: f64) -> f64 {
        let root = match self.q.precision {
            Precision::F64 => 6.1e-6,
            Precision::F32 => 4.9e-3,
        };
        root * (self.size + v.abs()) + self.tol.pos * self.reach
    }

    /// The depth tolerance at value `v`.
    fn depth_tol(&self, v: f64) -> f64 {
        self.tol.depth * (self.size + v.abs()) + self.tol.pos * self.reach
    }

    /// Records a check's error against its tolerance; a finding when it fails.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        check: &'static str,
        error: f64,
        tol: f64,
        subject: Query,
        reference: Option<Query>,
        expect: Option<(String, serde_json::Value, f64)>,
        message: impl FnOnce() -> String,
        limit: bool,
    ) {
        let ratio = if tol > 0.0 {
            error / tol
        } else if error > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        let ratio = if ratio.is_nan() { f64::INFINITY } else { ratio };
        // A passing check counts towards the worst ratio whatever `limit`
        // says (callers pass `limit` for "a failure here is the documented
        // limit"); only a failure that is a limit stays out of it.
        if !limit || ratio <= 1.0 {
            self.verdict.worst = self.verdict.worst.max(ratio);
        }
        if ratio > 1.0 {
            self.verdict.findings.push(Finding {
                check,
                limit,
                message: message(),
                ratio,
                subject,
                reference,
                expect,
            });
        }
    }

    /// A query that did not answer: always a finding.
    fn broken(&mut self, check: &'static str, q: &Query, alg: Algorithm, e: &str) {
        let alg_q = with(q, alg);
        self.check(
            check,
            1.0,
            0.0,
            alg_q,
            None,
            None,
            || format!("{alg} gave no answer: {e}"),
            false,
        );
    }

    /// Whether the case's query is valid (the runs do not validate again);
    /// an invalid one is an `answers` finding.
    fn valid(&mut self) -> bool {
        let Err(e) = self.q.validate() else {
            return true;
        };
        let q = self.q.clone();
        self.check(
            "answers",
            1.0,
            0.0,
            q,
            None,
            None,
            || format!("the query is invalid: {e}"),
            false,
        );
        false
    }

    fn answer(&mut self, q: &Query, alg: Algorithm) -> Option<Answer> {
        match run(q, alg) {
            Ok(a) => Some(a),
            Err(e) => {
                self.broken("answers", q, alg, &e);
                None
            }
        }
    }
}

/// Judges one case of cspace's own algorithms.
#[must_use]
pub fn judge(case: &Case, seed: u64) -> Verdict {
    let mut rng = Rng::for_case(seed ^ 0xA5A5_A5A5_A5A5_A5A5, case.index);
    let mut j = Judge::new(&case.query);
    if !j.valid() {
        return j.verdict;
    }
    match case.query.query {
        QueryKind::Distance => distance::distance(&mut j, &mut rng),
        QueryKind::Intersect => overlap::intersect(&mut j, &mut rng),
        QueryKind::Penetration => overlap::penetration(&mut j, &mut rng),
        QueryKind::SignedDistance => signed::signed(&mut j, &mut rng),
        QueryKind::Sweep => sweep::sweep(&mut j, &mut rng),
    }
    j.verdict
}

/// One invariance transform per case, chosen by the case's random stream.
fn transform(q: &Query, rng: &mut Rng, size: f64) -> (&'static str, Query, f64) {
    match rng.below(4) {
        0 => ("swap", geom::swapped(q), 1.0),
        1 => {
            let t = geom::scale(rng.dir(), size.max(1.0) * rng.range(0.0, 10.0));
            ("translate", geom::translated(q, t), 1.0)
        }
        2 => ("rotate", geom::rotated(q, rng.rotation()), 1.0),
        _ => {
            let k = rng.pick(&[0.25, 0.5, 2.0, 4.0]);
            ("scale", geom::scaled(q, k), k)
        }
    }
}

/// An f32 case against the same inputs in f64, within the f32 tolerance.
fn f32_vs_f64(j: &mut Judge<'_>, ans: &Answer, alg: Algorithm, field: &str) {
    let q = j.q;
    if q.precision != Precision::F32 {
        return;
    }
    let mut wide = q.clone();
    wide.precision = Precision::F64;
    let Some(w) = j.answer(&wide, alg) else {
        return;
    };
    let (a, b) = (nums(ans), nums(&w));
    // Depths (a signed distance's too, when negative) have the depth tolerance;
    // distances GJK's, with its stall bound.
    let depth = q.query == QueryKind::Penetration
        || (q.query == QueryKind::SignedDistance && b.value <= 0.0);
    let tol = if depth {
        j.depth_tol(b.value)
    } else {
        j.dist_tol(b.value)
    };
    let error = (a.value - b.value).abs();
    let limit = ans.status != Status::Converged
        || w.status != Status::Converged
        || (!depth && error <= j.stall_tol(b.value));
    let field_owned = field.to_owned();
    let (av, bv) = (a.value, b.value);
    j.check(
        "f32-vs-f64",
        (a.value - b.value).abs(),
        tol,
        with(q, alg),
        Some(with(&wide, alg)),
        Some((field_owned, serde_json::json!(bv), tol)),
        || format!("{alg} {field}: f32 {av:e}, f64 {bv:e}"),
        limit,
    );
}

/// The certificate's bounds of an answer, where it has them.
fn bounds(a: &Answer) -> Option<[f64; 2]> {
    match &a.outcome {
        Outcome::Distance { bounds, .. } | Outcome::Penetration { bounds, .. } => *bounds,
        Outcome::SignedDistance { bounds, .. } => Some(*bounds),
        Outcome::Intersect { .. } | Outcome::Sweep { .. } => None,
    }
}

/// `converged-bracket`: an answer its algorithm calls `Converged` carries a
/// certificate that meets the tolerance (`Status::Converged` means that and
/// nothing else): the value lies in its bounds and the bounds lie within
/// `tol` of each other. `stall` is GJK's documented stall bound where the
/// value is a distance (a bracket wider than `tol` but within it is that
/// limit), `None` for depths.
fn converged_bracket(
    j: &mut Judge<'_>,
    ans: &Answer,
    alg: Algorithm,
    tol: f64,
    stall: Option<f64>,
) {
    let Some([lo, hi]) = bounds(ans) else {
        return;
    };
    if ans.status != Status::Converged {
        return;
    }
    let v = nums(ans).value;
    let error = (hi - lo).max(lo - v).max(v - hi);
    let error = if error.is_nan() { f64::INFINITY } else { error };
    j.check(
        "converged-bracket",
        error,
        tol,
        with(j.q, alg),
        None,
        None,
        || format!("{alg}: converged, but the value {v:e} and its bounds [{lo:e}, {hi:e}] are {error:e} apart"),
        stall.is_some_and(|s| error <= s),
    );
}

/// Whether two intersection answers may differ: the shapes touch within the
/// tolerance (GJK distance or EPA depth below it).
fn touching(j: &Judge<'_>, q: &Query) -> bool {
    let mut d = q.clone();
    d.query = QueryKind::Distance;
    match run(&d, Algorithm::Gjk) {
        Ok(a) if !nums(&a).intersecting => nums(&a).value <= 2.0 * j.dist_tol(0.0),
        Ok(_) => {
            d.query = QueryKind::Penetration;
            run(&d, Algorithm::Epa).is_ok_and(|p| nums(&p).value <= 2.0 * j.depth_tol(0.0))
        }
        Err(_) => false,
    }
}
