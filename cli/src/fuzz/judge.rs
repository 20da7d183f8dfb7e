//! The judges: certificates, agreement between algorithms, f32 against f64
//! and invariances, each with its tolerance (README "Fuzz" lists them).
//!
//! Every tolerance is `rel · (size + |value|) + pos · reach`: `size` the sum
//! of the shapes' [`Shape::scale`](cspace::Shape::scale), `reach` the
//! largest coordinate of the positions and motion (rounding the relative pose
//! loses `ε · reach`), `rel` and `pos` per precision from [`Tolerance`].
//!
//! (~1000 lines: one check per function plus their tests. Splitting plan:
//! `run_in` goes once `model::run` is used directly, now that validation is cheap.)

use super::generate::{Case, Rng};
use super::geom::{self, Pair};
use cspace::model::{Algorithm, Answer, Outcome, Precision, Query, QueryKind};
use cspace::real::{Real, V3, Vector};
use cspace::shape::{Placed, Shape};
use cspace::{Status, sweep};

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

/// Runs `q` with `algorithm`; a panic or an error becomes the error text.
///
/// The same calls as `cspace::model::run`, without its validation: that
/// names a field path per number, which costs more than the algorithms on a
/// 2000-point hull. Generated and shrunk queries are validated once instead.
pub fn run(q: &Query, algorithm: Algorithm) -> Result<Answer, String> {
    let result = std::panic::catch_unwind(|| match q.precision {
        Precision::F64 => run_in::<f64>(q, algorithm),
        Precision::F32 => run_in::<f32>(q, algorithm),
    });
    match result {
        Ok(answer) => answer,
        Err(p) => Err(format!(
            "panicked: {}",
            cspace::fixture::panic_message(p.as_ref())
        )),
    }
}

/// [`run`] in precision `T`.
fn run_in<T: Real>(q: &Query, algorithm: Algorithm) -> Result<Answer, String> {
    let (sa, pose_a) = Shape::<T>::from_decl(&q.a);
    let (sb, pose_b) = Shape::<T>::from_decl(&q.b);
    let (a, b) = (Placed::new(&sa, pose_a), Placed::new(&sb, pose_b));
    let v = |p: V3<T>| p.to_f64();
    let (outcome, iterations, status) = match q.query {
        QueryKind::Distance => {
            let d = cspace::gjk::distance(&a, &b);
            let o = Outcome::Distance {
                distance: d.distance.to_f64(),
                point_a: v(d.point_a),
                point_b: v(d.point_b),
                normal: Some(v(d.normal)),
                bounds: Some([d.lower_bound.to_f64(), d.upper_bound.to_f64()]),
                intersecting: d.intersecting,
                witness: Some(d.witness),
            };
            (o, d.iterations, d.status)
        }
        QueryKind::Intersect => {
            let r = if algorithm == Algorithm::Mpr {
                cspace::mpr::intersect(&a, &b)
            } else {
                cspace::gjk::intersect(&a, &b)
            };
            let o = Outcome::Intersect {
                intersecting: r.intersecting,
            };
            (o, r.iterations, r.status)
        }
        QueryKind::Penetration => {
            let p = if algorithm == Algorithm::Mpr {
                cspace::mpr::penetration(&a, &b)
            } else {
                cspace::epa::penetration(&a, &b)
            };
            let o = Outcome::Penetration {
                depth: p.depth.to_f64(),
                normal: v(p.normal),
                point_a: v(p.point_a),
                point_b: v(p.point_b),
                bounds: Some([p.lower_bound.to_f64(), p.upper_bound.to_f64()]),
                intersecting: p.intersecting,
            };
            (o, p.iterations, p.status)
        }
        QueryKind::SignedDistance => {
            let s = cspace::signed::signed_distance_with(
                &a,
                &b,
                cspace::model::signed_depth(algorithm),
            );
            (Outcome::signed(&s), s.iterations, s.status)
        }
        QueryKind::Sweep => {
            let m = V3::<T>::from_f64(q.translation.unwrap_or([0.0; 3]));
            let s = match algorithm {
                Algorithm::Ca => sweep::conservative_advancement(&a, m, &b),
                Algorithm::SweptMpr => sweep::swept_mpr(&a, m, &b),
                Algorithm::Analytic => sweep::analytic(&a, m, &b).map_err(|e| e.to_string())?,
                _ => sweep::ray_cast(&a, m, &b),
            };
            (Outcome::sweep(&s), s.iterations, s.status)
        }
    };
    Ok(Answer {
        algorithm,
        precision: T::PRECISION,
        outcome,
        iterations,
        status,
    })
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
            intersecting,
            ..
        } => Nums {
            value: *distance,
            intersecting: *intersecting,
            point_a: *point_a,
            point_b: *point_b,
            normal: geom::normalize(geom::sub(*point_b, *point_a)),
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
        if !limit {
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
    match case.query.query {
        QueryKind::Distance => distance(&mut j, &mut rng),
        QueryKind::Intersect => intersect(&mut j, &mut rng),
        QueryKind::Penetration => penetration(&mut j, &mut rng),
        QueryKind::Sweep => sweep(&mut j, &mut rng),
        // Not generated by any family yet: its parts are judged as distance
        // and penetration cases.
        QueryKind::SignedDistance => {}
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

fn distance(j: &mut Judge<'_>, rng: &mut Rng) {
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
        let mut outside: f64 = 0.0;
        for u in [
            n.normal,
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
        ] {
            outside = outside
                .max(geom::dot(n.point_a, u) - j.pair.height_a(u))
                .max(geom::dot(n.point_b, u) - j.pair.height_b(u));
        }
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
    let tol = if q.query == QueryKind::Penetration {
        j.depth_tol(b.value)
    } else {
        j.dist_tol(b.value)
    };
    let error = (a.value - b.value).abs();
    let limit = ans.status != Status::Converged
        || w.status != Status::Converged
        || (q.query != QueryKind::Penetration && error <= j.stall_tol(b.value));
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

fn intersect(j: &mut Judge<'_>, rng: &mut Rng) {
    let q = j.q;
    let (Some(g), Some(m)) = (j.answer(q, Algorithm::Gjk), j.answer(q, Algorithm::Mpr)) else {
        return;
    };
    let (gi, mi) = (nums(&g).intersecting, nums(&m).intersecting);
    if gi != mi && !touching(j, q) {
        // The one that disagrees with the distance query is wrong.
        let mut dq = q.clone();
        dq.query = QueryKind::Distance;
        let truth = run(&dq, Algorithm::Gjk).map_or(gi, |a| nums(&a).intersecting);
        let (bad, good) = if truth == gi {
            (Algorithm::Mpr, Algorithm::Gjk)
        } else {
            (Algorithm::Gjk, Algorithm::Mpr)
        };
        j.check(
            "gjk-vs-mpr",
            1.0,
            0.0,
            with(q, bad),
            Some(with(q, good)),
            Some(("intersecting".to_owned(), serde_json::json!(truth), 0.0)),
            || format!("gjk says intersecting = {gi}, mpr {mi}; gjk distance says {truth}"),
            false,
        );
    }
    let (name, t, _) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Mpr) {
        let oi = nums(&other).intersecting;
        if oi != mi && !touching(j, q) && !touching(j, &t) {
            j.check(
                name,
                1.0,
                0.0,
                with(q, Algorithm::Mpr),
                Some(with(&t, Algorithm::Mpr)),
                Some(("intersecting".to_owned(), serde_json::json!(oi), 0.0)),
                || format!("mpr intersecting = {mi}, after `{name}` {oi}"),
                false,
            );
        }
    }
    if q.precision == Precision::F32 {
        let mut wide = q.clone();
        wide.precision = Precision::F64;
        if let Some(w) = j.answer(&wide, Algorithm::Mpr) {
            let wi = nums(&w).intersecting;
            if wi != mi && !touching(j, q) {
                j.check(
                    "f32-vs-f64",
                    1.0,
                    0.0,
                    with(q, Algorithm::Mpr),
                    Some(with(&wide, Algorithm::Mpr)),
                    Some(("intersecting".to_owned(), serde_json::json!(wi), 0.0)),
                    || format!("mpr intersecting: f32 {mi}, f64 {wi}"),
                    false,
                );
            }
        }
    }
}

/// The face normals of a box declaration and of B's, and their cross
/// products: the separating axes of two boxes.
fn box_axes(q: &Query) -> Vec<[f64; 3]> {
    use cspace_recorder::ShapeGeom;
    let axes = |d: &cspace_recorder::ShapeDecl| -> Vec<[f64; 3]> {
        if matches!(d.geom, ShapeGeom::Box { .. }) {
            let r = d.rotation;
            let n = (r.iter().map(|c| c * c).sum::<f64>()).sqrt();
            let r = r.map(|c| c / n);
            vec![
                geom::rotate(r, [1.0, 0.0, 0.0]),
                geom::rotate(r, [0.0, 1.0, 0.0]),
                geom::rotate(r, [0.0, 0.0, 1.0]),
            ]
        } else {
            Vec::new()
        }
    };
    let (a, b) = (axes(&q.a), axes(&q.b));
    let mut out: Vec<[f64; 3]> = a.iter().chain(&b).copied().collect();
    for u in &a {
        for v in &b {
            let c = geom::cross(*u, *v);
            if geom::norm(c) > 1e-6 {
                out.push(geom::normalize(c));
            }
        }
    }
    out
}

fn penetration(j: &mut Judge<'_>, rng: &mut Rng) {
    let q = j.q;
    let (Some(e), Some(m)) = (j.answer(q, Algorithm::Epa), j.answer(q, Algorithm::Mpr)) else {
        return;
    };
    let (en, mn) = (nums(&e), nums(&m));
    let depth = en.value;
    let tol = j.depth_tol(depth);
    let subject = with(q, Algorithm::Epa);
    let limit = e.status == Status::MaxIterations;
    if en.intersecting {
        // Certificate: EPA's normal separates after moving B by depth · normal …
        let overlap = -j.pair.gap(geom::normalize(en.normal));
        j.check(
            "epa-separates",
            overlap - depth,
            tol,
            subject.clone(),
            Some(with(q, Algorithm::Mpr)),
            Some(("depth".to_owned(), serde_json::json!(overlap), tol)),
            || format!("epa depth {depth:e}, but the overlap along its normal is {overlap:e}"),
            false,
        );
        // … and no axis tried separates with less (EPA's depth is the least).
        let mut axes = box_axes(q);
        axes.push(geom::normalize(mn.normal));
        for _ in 0..8 {
            axes.push(rng.dir());
        }
        let least = axes
            .iter()
            .map(|&u| -j.pair.gap(u))
            .fold(f64::INFINITY, f64::min);
        j.check(
            "epa-minimal",
            depth - least,
            tol,
            subject.clone(),
            Some(with(q, Algorithm::Mpr)),
            Some(("depth".to_owned(), serde_json::json!(least), tol)),
            || format!("epa depth {depth:e}, but an axis overlaps only {least:e}"),
            limit,
        );
    }
    if en.intersecting != mn.intersecting && !touching(j, q) {
        j.check(
            "mpr-vs-epa",
            1.0,
            0.0,
            with(q, Algorithm::Mpr),
            Some(subject.clone()),
            Some((
                "intersecting".to_owned(),
                serde_json::json!(en.intersecting),
                0.0,
            )),
            || {
                format!(
                    "epa intersecting = {}, mpr {}",
                    en.intersecting, mn.intersecting
                )
            },
            false,
        );
    } else if en.intersecting {
        let md = mn.value;
        j.check(
            "mpr-vs-epa",
            depth - md,
            tol,
            with(q, Algorithm::Mpr),
            Some(subject.clone()),
            Some(("depth".to_owned(), serde_json::json!(depth), tol)),
            || format!("mpr depth {md:e} is below epa's {depth:e}"),
            limit,
        );
    }
    let (name, t, k) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Epa) {
        let od = nums(&other).value;
        let tol = j.depth_tol(depth) + j.tol.pos * geom::reach(&t) / k;
        j.check(
            name,
            (od / k - depth).abs(),
            tol,
            subject.clone(),
            Some(with(&t, Algorithm::Epa)),
            Some(("depth".to_owned(), serde_json::json!(od / k), tol)),
            || format!("epa depth {depth:e}, after `{name}` {od:e} (÷{k})"),
            limit || other.status == Status::MaxIterations,
        );
    }
    f32_vs_f64(j, &e, Algorithm::Epa, "depth");
}

/// The GJK distance of the sweep's shapes at time `t`.
fn distance_at(q: &Query, t: f64) -> Option<f64> {
    let d = geom::at_time(q, t, QueryKind::Distance);
    run(&d, Algorithm::Gjk).ok().map(|a| nums(&a).value)
}

/// The EPA depth of the sweep's shapes at time `t`.
fn depth_at(q: &Query, t: f64) -> Option<f64> {
    let d = geom::at_time(q, t, QueryKind::Penetration);
    run(&d, Algorithm::Epa).ok().map(|a| nums(&a).value)
}

fn sweep(j: &mut Judge<'_>, _rng: &mut Rng) {
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
            let tol = j.dist_tol(r.value);
            let rv = r.value;
            j.check(
                "engine-distance",
                (d - r.value).abs(),
                tol,
                subject.clone(),
                reference_q.clone(),
                Some(("distance".to_owned(), serde_json::json!(r.value), tol)),
                || format!("engine distance {d:e}, cspace {rv:e} (tolerance {tol:e})"),
                false,
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
