//! The JSON query model shared by `cspace eval`, fixtures and the viewer:
//! a [`Query`] names two placed shapes, a query kind, a precision and
//! optionally an algorithm; [`run`] validates it, runs it in the requested
//! precision and returns an [`Answer`].
//!
//! Queries round-trip exactly through JSON (`serde_json`'s `float_roundtrip`).
//!
//! Validation rejects, naming the field path (`a.shape.radius`, `b.rotation`):
//! negative sizes, non-finite numbers, magnitudes above [`MAX_ABS_F64`]
//! ([`MAX_ABS_F32`] in f32, so no intermediate product overflows), empty hulls,
//! rotations whose norm differs from 1 by more than [`UNIT_TOLERANCE`]
//! (accepted ones are renormalised), a sweep without `translation`, and an
//! algorithm that does not answer the query.

use crate::Status;
use crate::real::{Q, Real, Rotation, V3, Vector};
use crate::shape::{Geom, Placed, Pose, Shape, ShapeError};
use crate::{epa, gjk, mpr, sweep};
use cspace_recorder as rec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How far a rotation's norm may be from 1: `|‖q‖ − 1| ≤ 1e-6`.
pub const UNIT_TOLERANCE: f64 = 1e-6;
/// The largest magnitude accepted for any coordinate or size in f64.
pub const MAX_ABS_F64: f64 = 1e15;
/// The largest magnitude accepted for any coordinate or size in f32.
pub const MAX_ABS_F32: f64 = 1e8;

/// One query: two placed shapes and what to compute about them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// Identifies the query in the output (and names its recording).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What to compute.
    pub query: QueryKind,
    /// The precision to compute in (f64 unless given).
    #[serde(default)]
    pub precision: Precision,
    /// The algorithm (each query has a default, see [`Algorithm::default_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<Algorithm>,
    /// Shape A (the moving one in a sweep).
    pub a: Body,
    /// Shape B.
    pub b: Body,
    /// A's motion over t ∈ [0, 1] (sweeps only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub translation: Option<[f64; 3]>,
}

/// The kind of query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QueryKind {
    /// Distance and closest points.
    Distance,
    /// Boolean intersection.
    Intersect,
    /// Penetration depth, normal and contact points.
    Penetration,
    /// Time of impact of A moving by `translation` against B.
    Sweep,
}

impl fmt::Display for QueryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Distance => "distance",
            Self::Intersect => "intersect",
            Self::Penetration => "penetration",
            Self::Sweep => "sweep",
        })
    }
}

/// The floating-point precision a query runs in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// `f64` (the default).
    #[default]
    F64,
    /// `f32`.
    F32,
}

/// An algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// GJK (distance, intersect).
    Gjk,
    /// EPA (penetration).
    Epa,
    /// MPR (intersect, penetration).
    Mpr,
    /// Conservative advancement (sweep).
    Ca,
    /// GJK ray cast (sweep).
    Raycast,
    /// MPR on the swept CSO (sweep).
    SweptMpr,
    /// Closed-form sphere/point sweep (sweep).
    Analytic,
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Gjk => "gjk",
            Self::Epa => "epa",
            Self::Mpr => "mpr",
            Self::Ca => "ca",
            Self::Raycast => "raycast",
            Self::SweptMpr => "swept-mpr",
            Self::Analytic => "analytic",
        })
    }
}

impl Algorithm {
    /// The default algorithm of a query kind: distance `gjk`, intersect
    /// `mpr` (fewer support calls than GJK on overlapping pairs; GJK decides
    /// near touching, so the answer is GJK's), penetration `epa`, sweep
    /// `raycast` (one GJK-like loop, where conservative advancement runs a
    /// GJK per step).
    #[must_use]
    pub fn default_for(kind: QueryKind) -> Self {
        match kind {
            QueryKind::Distance => Self::Gjk,
            QueryKind::Intersect => Self::Mpr,
            QueryKind::Penetration => Self::Epa,
            QueryKind::Sweep => Self::Raycast,
        }
    }

    /// The algorithms that answer a query kind.
    #[must_use]
    pub fn valid_for(kind: QueryKind) -> &'static [Self] {
        match kind {
            QueryKind::Distance => &[Self::Gjk],
            QueryKind::Intersect => &[Self::Gjk, Self::Mpr],
            QueryKind::Penetration => &[Self::Epa, Self::Mpr],
            QueryKind::Sweep => &[Self::Ca, Self::Raycast, Self::SweptMpr, Self::Analytic],
        }
    }
}

/// A shape and its pose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// The shape.
    pub shape: ShapeSpec,
    /// World position (origin unless given).
    #[serde(default)]
    pub position: [f64; 3],
    /// World rotation as a unit quaternion `[x, y, z, w]` (identity unless given).
    #[serde(default = "identity")]
    pub rotation: [f64; 4],
}

fn identity() -> [f64; 4] {
    [0.0, 0.0, 0.0, 1.0]
}

/// A shape description, tagged by `"type"`. Every variant takes an optional
/// `margin` (a sphere it is Minkowski-summed with).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ShapeSpec {
    /// A sphere.
    Sphere {
        /// Radius.
        radius: f64,
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// A box.
    Box {
        /// Half edge lengths.
        half_extents: [f64; 3],
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// A capsule along Y.
    Capsule {
        /// Half the core segment's length.
        half_height: f64,
        /// Radius.
        radius: f64,
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// A cylinder along Y.
    Cylinder {
        /// Half the height.
        half_height: f64,
        /// Radius.
        radius: f64,
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// A cone along Y, apex at +`half_height`.
    Cone {
        /// Half the height.
        half_height: f64,
        /// Base radius.
        radius: f64,
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// The convex hull of points (degenerate sets allowed).
    Hull {
        /// The points, local frame.
        points: Vec<[f64; 3]>,
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
    /// A point.
    Point {
        /// Margin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        margin: Option<f64>,
    },
}

impl ShapeSpec {
    /// The shape in precision `T` (not validated; see [`Query::validate`]).
    #[must_use]
    pub fn to_shape<T: Real>(&self) -> Shape<T> {
        let s = T::from_f64;
        let v = |p: [f64; 3]| V3::<T>::from_f64(p);
        let (geom, margin) = match self {
            Self::Sphere { radius, margin } => (Geom::Sphere { radius: s(*radius) }, margin),
            Self::Box {
                half_extents,
                margin,
            } => (
                Geom::Box {
                    half_extents: v(*half_extents),
                },
                margin,
            ),
            Self::Capsule {
                half_height,
                radius,
                margin,
            } => (
                Geom::Capsule {
                    half_height: s(*half_height),
                    radius: s(*radius),
                },
                margin,
            ),
            Self::Cylinder {
                half_height,
                radius,
                margin,
            } => (
                Geom::Cylinder {
                    half_height: s(*half_height),
                    radius: s(*radius),
                },
                margin,
            ),
            Self::Cone {
                half_height,
                radius,
                margin,
            } => (
                Geom::Cone {
                    half_height: s(*half_height),
                    radius: s(*radius),
                },
                margin,
            ),
            Self::Hull { points, margin } => (
                Geom::Hull(crate::shape::Hull::new(
                    points.iter().map(|p| v(*p)).collect(),
                )),
                margin,
            ),
            Self::Point { margin } => (Geom::Point, margin),
        };
        Shape::new(geom).with_margin(s(margin.unwrap_or(0.0)))
    }

    /// The shape type's name as in JSON.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Sphere { .. } => "sphere",
            Self::Box { .. } => "box",
            Self::Capsule { .. } => "capsule",
            Self::Cylinder { .. } => "cylinder",
            Self::Cone { .. } => "cone",
            Self::Hull { .. } => "hull",
            Self::Point { .. } => "point",
        }
    }
}

impl Body {
    /// The pose in precision `T`, rotation renormalised.
    #[must_use]
    pub fn pose<T: Real>(&self) -> Pose<T> {
        let q = self.rotation;
        let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        let q = if norm > 0.0 {
            q.map(|c| c / norm)
        } else {
            identity()
        };
        Pose::new(
            V3::<T>::from_f64(self.position),
            <Q<T> as Rotation<T>>::from_xyzw(q.map(T::from_f64)),
        )
    }
}

/// Why a query is invalid or cannot run. Messages name the field path.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// A size is negative.
    #[error("{path} must be ≥ 0, got {value}")]
    Negative {
        /// Field path, e.g. `a.shape.radius`.
        path: String,
        /// The value.
        value: f64,
    },
    /// A number is NaN or infinite (or overflows the precision).
    #[error("{path} must be finite, got {value}")]
    NotFinite {
        /// Field path.
        path: String,
        /// The value as written.
        value: String,
    },
    /// A number's magnitude is above the precision's limit.
    #[error("{path} must have magnitude ≤ {limit:e} in {precision}, got {value:e}")]
    TooLarge {
        /// Field path.
        path: String,
        /// The value.
        value: f64,
        /// The limit.
        limit: f64,
        /// `f32` or `f64`.
        precision: &'static str,
    },
    /// A hull without points.
    #[error("{path} must not be empty")]
    EmptyHull {
        /// Field path, e.g. `a.shape.points`.
        path: String,
    },
    /// A rotation is not a unit quaternion.
    #[error("{path} is not a unit quaternion (norm {norm})")]
    NotUnit {
        /// Field path, e.g. `b.rotation`.
        path: String,
        /// Its norm.
        norm: f64,
    },
    /// A sweep without `translation`.
    #[error("translation is required for a sweep query")]
    MissingTranslation,
    /// The algorithm does not answer this query.
    #[error("algorithm {algorithm} is not valid for a {query} query (valid: {valid})")]
    AlgorithmNotValid {
        /// The algorithm given.
        algorithm: Algorithm,
        /// The query kind.
        query: QueryKind,
        /// The valid algorithms, comma separated.
        valid: String,
    },
    /// The analytic sweep does not cover these shapes.
    #[error("algorithm: {0}")]
    Sweep(#[from] sweep::SweepError),
    /// The JSON does not describe a query.
    #[error("{path}: {message}")]
    Parse {
        /// Field path (or `line N` for whole-line errors).
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl Query {
    /// The algorithm that will run: the given one or the query's default.
    #[must_use]
    pub fn resolved_algorithm(&self) -> Algorithm {
        self.algorithm.unwrap_or(Algorithm::default_for(self.query))
    }

    /// Checks the query can run (see the module docs for the rules).
    ///
    /// # Errors
    /// The first problem found, naming its field.
    pub fn validate(&self) -> Result<(), QueryError> {
        let limit = match self.precision {
            Precision::F64 => MAX_ABS_F64,
            Precision::F32 => MAX_ABS_F32,
        };
        let alg = self.resolved_algorithm();
        if !Algorithm::valid_for(self.query).contains(&alg) {
            let valid = Algorithm::valid_for(self.query)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            return Err(QueryError::AlgorithmNotValid {
                algorithm: alg,
                query: self.query,
                valid,
            });
        }
        validate_body(&self.a, "a", limit, self.precision)?;
        validate_body(&self.b, "b", limit, self.precision)?;
        match (self.query, self.translation) {
            (QueryKind::Sweep, None) => return Err(QueryError::MissingTranslation),
            (_, Some(t)) => check_vec("translation", &t, limit, self.precision)?,
            (_, None) => {}
        }
        if self.query == QueryKind::Sweep && alg == Algorithm::Analytic {
            let (a, b) = (
                self.a.shape.to_shape::<f64>(),
                self.b.shape.to_shape::<f64>(),
            );
            let (pa, pb) = (
                Placed::new(&a, Pose::IDENTITY),
                Placed::new(&b, Pose::IDENTITY),
            );
            sweep::analytic(&pa, V3::<f64>::ZERO, &pb)?;
        }
        Ok(())
    }
}

fn precision_name(p: Precision) -> &'static str {
    match p {
        Precision::F64 => "f64",
        Precision::F32 => "f32",
    }
}

fn check_num(path: &str, v: f64, limit: f64, p: Precision) -> Result<(), QueryError> {
    if !v.is_finite() {
        return Err(QueryError::NotFinite {
            path: path.to_owned(),
            value: format!("{v}"),
        });
    }
    if v.abs() > limit {
        return Err(QueryError::TooLarge {
            path: path.to_owned(),
            value: v,
            limit,
            precision: precision_name(p),
        });
    }
    Ok(())
}

fn check_vec(path: &str, v: &[f64], limit: f64, p: Precision) -> Result<(), QueryError> {
    for (i, c) in v.iter().enumerate() {
        check_num(&format!("{path}[{i}]"), *c, limit, p)?;
    }
    Ok(())
}

fn check_size(path: &str, v: f64, limit: f64, p: Precision) -> Result<(), QueryError> {
    check_num(path, v, limit, p)?;
    if v < 0.0 {
        return Err(QueryError::Negative {
            path: path.to_owned(),
            value: v,
        });
    }
    Ok(())
}

fn validate_body(body: &Body, name: &str, limit: f64, p: Precision) -> Result<(), QueryError> {
    let path = |f: &str| format!("{name}.shape.{f}");
    let margin = match &body.shape {
        ShapeSpec::Sphere { radius, margin } => {
            check_size(&path("radius"), *radius, limit, p)?;
            margin
        }
        ShapeSpec::Box {
            half_extents,
            margin,
        } => {
            for (i, h) in half_extents.iter().enumerate() {
                check_size(&path(&format!("half_extents[{i}]")), *h, limit, p)?;
            }
            margin
        }
        ShapeSpec::Capsule {
            half_height,
            radius,
            margin,
        }
        | ShapeSpec::Cylinder {
            half_height,
            radius,
            margin,
        }
        | ShapeSpec::Cone {
            half_height,
            radius,
            margin,
        } => {
            check_size(&path("half_height"), *half_height, limit, p)?;
            check_size(&path("radius"), *radius, limit, p)?;
            margin
        }
        ShapeSpec::Hull { points, margin } => {
            if points.is_empty() {
                return Err(QueryError::EmptyHull {
                    path: path("points"),
                });
            }
            for (i, q) in points.iter().enumerate() {
                check_vec(&path(&format!("points[{i}]")), q, limit, p)?;
            }
            margin
        }
        ShapeSpec::Point { margin } => margin,
    };
    if let Some(m) = margin {
        check_size(&path("margin"), *m, limit, p)?;
    }
    check_vec(&format!("{name}.position"), &body.position, limit, p)?;
    check_vec(&format!("{name}.rotation"), &body.rotation, limit, p)?;
    let norm = body.rotation.iter().map(|c| c * c).sum::<f64>().sqrt();
    if (norm - 1.0).abs() > UNIT_TOLERANCE {
        return Err(QueryError::NotUnit {
            path: format!("{name}.rotation"),
            norm,
        });
    }
    // The shape type's own checks, in the query's precision.
    let shape_check = match p {
        Precision::F64 => body.shape.to_shape::<f64>().validate(),
        Precision::F32 => body.shape.to_shape::<f32>().validate(),
    };
    shape_check.map_err(|e| shape_error(name, &e))
}

fn shape_error(name: &str, e: &ShapeError) -> QueryError {
    QueryError::Parse {
        path: format!("{name}.shape"),
        message: e.to_string(),
    }
}

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
        /// Whether they overlap or touch.
        intersecting: bool,
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
        /// Deepest point of B (world).
        point_b: [f64; 3],
        /// Whether they overlap or touch.
        intersecting: bool,
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
    },
}

/// Validates and runs a query.
///
/// # Errors
/// The query is invalid ([`Query::validate`]).
pub fn run(q: &Query) -> Result<Answer, QueryError> {
    q.validate()?;
    Ok(match q.precision {
        Precision::F64 => Prepared::<f64>::new(q).run(),
        Precision::F32 => Prepared::<f32>::new(q).run(),
    })
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
        Precision::F64 => Prepared::<f64>::new(q).timed(repeat),
        Precision::F32 => Prepared::<f32>::new(q).timed(repeat),
    })
}

/// A validated query with its shapes built in precision `T`.
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
    fn new(q: &Query) -> Self {
        Self {
            kind: q.query,
            algorithm: q.resolved_algorithm(),
            a: q.a.shape.to_shape(),
            b: q.b.shape.to_shape(),
            pose_a: q.a.pose(),
            pose_b: q.b.pose(),
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
                    intersecting: d.intersecting,
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
                    intersecting: p.intersecting,
                };
                (o, p.iterations, p.status)
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
                let o = Outcome::Sweep {
                    hit: s.hit,
                    toi: s.hit.then(|| s.toi.to_f64()),
                    normal: s.hit.then(|| v(s.normal)),
                    point: s.hit.then(|| v(s.point)),
                };
                (o, s.iterations, s.status)
            }
        };
        Answer {
            algorithm: self.algorithm,
            precision: match T::PRECISION {
                rec::Precision::F32 => Precision::F32,
                rec::Precision::F64 => Precision::F64,
            },
            outcome,
            iterations,
            status,
        }
    }
}

/// Parses one query from JSON, naming the field path of the first problem
/// (`a.shape.type`, `b.rotation`, …) where serde alone would not.
///
/// # Errors
/// [`QueryError::Parse`] for malformed JSON or a value of the wrong type,
/// [`QueryError::NotFinite`] for `NaN`/`Infinity` literals.
pub fn parse(line: &str) -> Result<Query, QueryError> {
    let value = parse_value(line)?;
    from_value(&value)
}

/// The JSON value of a line; `NaN` and `Infinity` literals (not JSON) are
/// reported with their field path.
pub(crate) fn parse_value(line: &str) -> Result<serde_json::Value, QueryError> {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(v) => Ok(v),
        Err(e) => {
            if let Some(err) = non_finite_literal(line) {
                return Err(err);
            }
            Err(QueryError::Parse {
                path: "json".to_owned(),
                message: e.to_string(),
            })
        }
    }
}

/// The marker string (as JSON) that stands in for a non-finite literal.
const MARK: &str = "\"\\u0001nonfinite\"";

/// `line` with every bare `NaN`/`Infinity` literal (outside strings) replaced
/// by [`MARK`], and the first literal replaced.
fn mark_non_finite(line: &str) -> (String, Option<&'static str>) {
    const LITERALS: [&str; 7] = ["-Infinity", "Infinity", "-NaN", "NaN", "-inf", "inf", "nan"];
    let mut out = String::with_capacity(line.len());
    let mut first = None;
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(lit) = LITERALS.iter().find(|l| rest.starts_with(**l)) {
            out.push_str(MARK);
            first = first.or(Some(*lit));
            i += lit.len();
            continue;
        }
        out.push(c);
        i += c.len_utf8();
    }
    (out, first)
}

/// Finds a bare `NaN`/`Infinity` literal and its field path, by replacing
/// it with a marker string and parsing again.
fn non_finite_literal(line: &str) -> Option<QueryError> {
    let (patched, first) = mark_non_finite(line);
    let lit = first?;
    let value: serde_json::Value = serde_json::from_str(&patched).ok()?;
    let path = find_marker(&value, "")?;
    Some(QueryError::NotFinite {
        path,
        value: lit.to_owned(),
    })
}

/// The `id` of a line that does not parse, if it can be recovered (the line
/// is JSON once `NaN`/`Infinity` literals are set aside).
pub(crate) fn salvage_id(line: &str) -> Option<serde_json::Value> {
    let (patched, _) = mark_non_finite(line);
    let value: serde_json::Value = serde_json::from_str(&patched).ok()?;
    value.get("id").cloned()
}

fn find_marker(v: &serde_json::Value, path: &str) -> Option<String> {
    match v {
        serde_json::Value::String(s) if s == "\u{1}nonfinite" => Some(path.to_owned()),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, x)| find_marker(x, &format!("{path}[{i}]"))),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, x)| {
            let p = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            find_marker(x, &p)
        }),
        _ => None,
    }
}

/// Checks one top-level field's type, for [`from_value`].
type FieldCheck = fn(&serde_json::Value) -> Option<serde_json::Error>;

/// A query from a JSON value, naming the field path of the first problem.
///
/// # Errors
/// [`QueryError::Parse`] with the path of the offending field.
pub fn from_value(value: &serde_json::Value) -> Result<Query, QueryError> {
    if let Ok(q) = Query::deserialize(value) {
        return Ok(q);
    }
    // Locate the problem field by field, for a message that names it.
    let parse_err = |path: &str, e: &serde_json::Error| QueryError::Parse {
        path: path.to_owned(),
        message: e.to_string(),
    };
    let obj = value.as_object().ok_or_else(|| QueryError::Parse {
        path: "query".to_owned(),
        message: "expected a JSON object".to_owned(),
    })?;
    for body in ["a", "b"] {
        let Some(b) = obj.get(body) else { continue };
        let Some(bo) = b.as_object() else {
            return Err(QueryError::Parse {
                path: body.to_owned(),
                message: "expected an object with shape, position, rotation".to_owned(),
            });
        };
        if let Some(shape) = bo.get("shape") {
            if let Some(t) = shape.get("type")
                && let Some(name) = t.as_str()
                && ![
                    "sphere", "box", "capsule", "cylinder", "cone", "hull", "point",
                ]
                .contains(&name)
            {
                return Err(QueryError::Parse {
                    path: format!("{body}.shape.type"),
                    message: format!(
                        "unknown shape `{name}` (expected sphere, box, capsule, cylinder, cone, hull or point)"
                    ),
                });
            }
            if let Err(e) = ShapeSpec::deserialize(shape) {
                return Err(parse_err(&format!("{body}.shape"), &e));
            }
        }
        if let Some(x) = bo.get("position")
            && let Err(e) = <[f64; 3]>::deserialize(x)
        {
            return Err(parse_err(&format!("{body}.position"), &e));
        }
        if let Some(x) = bo.get("rotation")
            && let Err(e) = <[f64; 4]>::deserialize(x)
        {
            return Err(parse_err(&format!("{body}.rotation"), &e));
        }
        if let Err(e) = Body::deserialize(b) {
            return Err(parse_err(body, &e));
        }
    }
    let fields: [(&str, FieldCheck); 5] = [
        ("query", |x| QueryKind::deserialize(x).err()),
        ("precision", |x| Precision::deserialize(x).err()),
        ("algorithm", |x| Algorithm::deserialize(x).err()),
        ("translation", |x| <[f64; 3]>::deserialize(x).err()),
        ("id", |x| String::deserialize(x).err()),
    ];
    for (field, check) in fields {
        if let Some(x) = obj.get(field)
            && !x.is_null()
            && let Some(e) = check(x)
        {
            return Err(parse_err(field, &e));
        }
    }
    match Query::deserialize(value) {
        Ok(q) => Ok(q),
        Err(e) => Err(parse_err("query", &e)),
    }
}
