//! Running a query: validate it, build its shapes in the requested
//! precision, call the algorithm (which records its answer, the `answer!`
//! event the viewer draws at the end) and widen the result into an [`Answer`].

use super::query::{Algorithm, Query, QueryError, QueryKind};
use crate::real::{Real, V3, Vector};
use crate::shape::{Placed, Pose, Shape};
use crate::{Status, Witness, epa, gjk, mpr, signed, sweep};
use cspace_recorder::{self as rec, Precision};
use serde::{Deserialize, Serialize};

/// A query's result: which algorithm ran, in which precision, its outcome,
/// its iteration count and how it ended. Serialises to the `eval` output
/// fields (the outcome's fields are flattened, tagged by `"query"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The precision it ran in.
    pub precision: Precision,
    /// The outcome.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Support evaluations (over all inner queries).
    pub iterations: u32,
    /// How the algorithm ended.
    pub status: Status,
}

/// The values a query computes, widened to f64 (exactly, from f32). Points
/// are in world space; normals are unit and point from A towards B.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "query", rename_all = "lowercase")]
pub enum Outcome {
    /// Distance and closest points.
    Distance {
        /// Distance between the shapes (0 when intersecting).
        distance: f64,
        /// Closest point on A.
        point_a: [f64; 3],
        /// Closest point on B.
        point_b: [f64; 3],
        /// Unit normal from A towards B: when apart the certificate's
        /// direction, that of `point_b − point_a` to the points' rounding
        /// over the distance (`gjk::Distance::normal`); the direction
        /// between the cores when intersecting. Absent in answers written
        /// before it was added.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        normal: Option<[f64; 3]>,
        /// The certificate `[lower, upper]`: the true distance lies between
        /// (see `gjk::Distance::lower_bound`). Absent in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bounds: Option<[f64; 2]>,
        /// Whether they overlap or touch.
        intersecting: bool,
        /// How far the points and normal can be trusted (`unique`,
        /// `not_unique`, `approximate`: see `Witness`). Absent in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<Witness>,
    },
    /// Boolean intersection.
    Intersect {
        /// Whether they overlap or touch.
        intersecting: bool,
    },
    /// Penetration.
    Penetration {
        /// Depth (≥ 0; 0 when apart).
        depth: f64,
        /// Unit normal from A towards B: moving B by `depth · normal` separates.
        normal: [f64; 3],
        /// Deepest point of A (world).
        point_a: [f64; 3],
        /// Deepest point of B (world). `point_a − point_b = depth · normal`
        /// (to rounding) when intersecting.
        point_b: [f64; 3],
        /// The certificate `[lower, upper]`: the true depth lies between (see
        /// `epa::Penetration::lower_bound`). Absent in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bounds: Option<[f64; 2]>,
        /// Whether they overlap or touch.
        intersecting: bool,
        /// A certified bound (radians) on the angle between `normal` and
        /// every direction of least depth; π when nothing bounds it (see
        /// `epa::Penetration::normal_within`). Absent in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        normal_within: Option<f64>,
    },
    /// Signed distance (`"query": "signed_distance"`).
    #[serde(rename = "signed_distance")]
    SignedDistance {
        /// The distance when apart (> 0), minus the penetration depth when
        /// overlapping (≤ 0).
        distance: f64,
        /// Witness on A (world).
        point_a: [f64; 3],
        /// Witness on B (world): `point_b − point_a = distance · normal`.
        point_b: [f64; 3],
        /// Unit normal from A towards B.
        normal: [f64; 3],
        /// The certificate `[lower, upper]`: the true signed distance lies
        /// between (see `signed::SignedDistance::lower_bound`).
        bounds: [f64; 2],
        /// Whether they overlap or touch.
        intersecting: bool,
        /// When apart: how far the points and normal can be trusted (see
        /// `Witness`). Absent when overlapping and in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<Witness>,
        /// A certified bound (radians) on the normal's angle from the exact
        /// one (see `signed::SignedDistance::normal_within`). Absent in
        /// older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        normal_within: Option<f64>,
    },
    /// Sweep.
    Sweep {
        /// Whether A hits B during the motion.
        hit: bool,
        /// Time of impact in [0, 1] (null on a miss).
        toi: Option<f64>,
        /// Unit normal at impact from A towards B (null on a miss).
        normal: Option<[f64; 3]>,
        /// World contact point at impact (null on a miss).
        point: Option<[f64; 3]>,
        /// The contact point on A, with A at the toi (world). Absent on a
        /// miss and in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point_a: Option<[f64; 3]>,
        /// The contact point on B (world). Absent on a miss and in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        point_b: Option<[f64; 3]>,
        /// The certificate `[toi_lower, toi_upper]`: the true time of impact
        /// lies between (see `sweep::Sweep`). Absent on a miss and in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bounds: Option<[f64; 2]>,
        /// How far the contact points and normal can be trusted (see
        /// `sweep::Sweep::witness`). Absent on a miss and in older answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        witness: Option<Witness>,
    },
}

impl Outcome {
    /// A sweep widened to f64: the hit's fields, or nulls on a miss.
    #[must_use]
    pub fn sweep<T: Real>(s: &sweep::Sweep<T>) -> Self {
        let v = |p: V3<T>| p.to_f64();
        Self::Sweep {
            hit: s.hit,
            toi: s.hit.then(|| s.toi.to_f64()),
            normal: s.hit.then(|| v(s.normal)),
            point: s.hit.then(|| v(s.point)),
            point_a: s.hit.then(|| v(s.point_a)),
            point_b: s.hit.then(|| v(s.point_b)),
            bounds: s.hit.then(|| [s.toi_lower.to_f64(), s.toi_upper.to_f64()]),
            witness: s.witness,
        }
    }

    /// A signed distance widened to f64.
    #[must_use]
    pub fn signed<T: Real>(s: &signed::SignedDistance<T>) -> Self {
        Self::SignedDistance {
            distance: s.distance.to_f64(),
            point_a: s.point_a.to_f64(),
            point_b: s.point_b.to_f64(),
            normal: s.normal.to_f64(),
            bounds: [s.lower_bound.to_f64(), s.upper_bound.to_f64()],
            intersecting: s.intersecting,
            witness: s.witness,
            normal_within: Some(s.normal_within.to_f64()),
        }
    }
}

/// The penetration method of a signed distance run by `algorithm`.
#[must_use]
pub fn signed_depth(algorithm: Algorithm) -> signed::Depth {
    if algorithm == Algorithm::Mpr {
        signed::Depth::Mpr
    } else {
        signed::Depth::Epa
    }
}

/// Validates and runs a query.
///
/// # Errors
/// The query is invalid ([`Query::validate`]).
pub fn run(q: &Query) -> Result<Answer, QueryError> {
    q.validate()?;
    Ok(run_valid(q, q.resolved_algorithm()))
}

/// Runs a query that [`Query::validate`] accepted with `algorithm` (one of
/// [`Algorithm::valid_for`] its kind, in place of the query's own), without
/// validating again: for callers that validate a query once and then run it
/// many times with other algorithms, precisions or poses (the fuzzer). An
/// invalid query gives an unspecified answer or panics.
#[must_use]
pub fn run_valid(q: &Query, algorithm: Algorithm) -> Answer {
    match q.precision {
        Precision::F64 => Prepared::<f64>::new(q, algorithm).run(),
        Precision::F32 => Prepared::<f32>::new(q, algorithm).run(),
    }
}

/// [`run`] inside a recording: the answer and the steps the algorithm recorded.
pub fn run_recorded(q: &Query) -> (Result<Answer, QueryError>, rec::Recording) {
    rec::record(|| run(q))
}

/// Validates a query, then runs it `repeat` times (at least once) and returns
/// the answer and the mean time of one run in nanoseconds. Building the
/// shapes is excluded from the timing.
///
/// # Errors
/// The query is invalid ([`Query::validate`]).
pub fn run_timed(q: &Query, repeat: u32) -> Result<(Answer, f64), QueryError> {
    q.validate()?;
    Ok(match q.precision {
        Precision::F64 => Prepared::<f64>::new(q, q.resolved_algorithm()).timed(repeat),
        Precision::F32 => Prepared::<f32>::new(q, q.resolved_algorithm()).timed(repeat),
    })
}

/// A validated query with its shapes built in precision `T`, to run with `algorithm`.
struct Prepared<T: Real> {
    kind: QueryKind,
    algorithm: Algorithm,
    a: Shape<T>,
    b: Shape<T>,
    pose_a: Pose<T>,
    pose_b: Pose<T>,
    motion: V3<T>,
}

impl<T: Real> Prepared<T> {
    fn new(q: &Query, algorithm: Algorithm) -> Self {
        let (a, pose_a) = Shape::from_decl(&q.a);
        let (b, pose_b) = Shape::from_decl(&q.b);
        Self {
            kind: q.query,
            algorithm,
            a,
            b,
            pose_a,
            pose_b,
            motion: V3::<T>::from_f64(q.translation.unwrap_or([0.0; 3])),
        }
    }

    fn timed(&self, repeat: u32) -> (Answer, f64) {
        let n = repeat.max(1);
        let start = std::time::Instant::now();
        let mut answer = self.run();
        for _ in 1..n {
            answer = std::hint::black_box(self.run());
        }
        let ns = start.elapsed().as_nanos() as f64 / f64::from(n);
        (answer, ns)
    }

    fn run(&self) -> Answer {
        let a = Placed::new(&self.a, self.pose_a);
        let b = Placed::new(&self.b, self.pose_b);
        let v = |p: V3<T>| p.to_f64();
        let (outcome, iterations, status) = match (self.kind, self.algorithm) {
            (QueryKind::Distance, _) => {
                let d = gjk::distance(&a, &b);
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
            (QueryKind::Intersect, alg) => {
                let r = if alg == Algorithm::Mpr {
                    mpr::intersect(&a, &b)
                } else {
                    gjk::intersect(&a, &b)
                };
                let o = Outcome::Intersect {
                    intersecting: r.intersecting,
                };
                (o, r.iterations, r.status)
            }
            (QueryKind::Penetration, alg) => {
                let p = if alg == Algorithm::Mpr {
                    mpr::penetration(&a, &b)
                } else {
                    epa::penetration(&a, &b)
                };
                let o = Outcome::Penetration {
                    depth: p.depth.to_f64(),
                    normal: v(p.normal),
                    point_a: v(p.point_a),
                    point_b: v(p.point_b),
                    bounds: Some([p.lower_bound.to_f64(), p.upper_bound.to_f64()]),
                    intersecting: p.intersecting,
                    normal_within: Some(p.normal_within.to_f64()),
                };
                (o, p.iterations, p.status)
            }
            (QueryKind::SignedDistance, alg) => {
                let s = signed::signed_distance_with(&a, &b, signed_depth(alg));
                (Outcome::signed(&s), s.iterations, s.status)
            }
            (QueryKind::Sweep, alg) => {
                let s = match alg {
                    Algorithm::Ca => sweep::conservative_advancement(&a, self.motion, &b),
                    Algorithm::SweptMpr => sweep::swept_mpr(&a, self.motion, &b),
                    // Validation checked the shapes: a miss is the only other answer.
                    Algorithm::Analytic => sweep::analytic(&a, self.motion, &b)
                        .unwrap_or_else(|_| sweep::Sweep::miss(0, Status::Degenerate)),
                    _ => sweep::ray_cast(&a, self.motion, &b),
                };
                (Outcome::sweep(&s), s.iterations, s.status)
            }
        };
        Answer {
            algorithm: self.algorithm,
            precision: T::PRECISION,
            outcome,
            iterations,
            status,
        }
    }
}
