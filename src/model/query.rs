//! A query: two placed shapes (the recorder's [`ShapeDecl`]), what to
//! compute, the precision and optionally the algorithm; and why one is invalid.

use crate::sweep;
use cspace_recorder::{Precision, ShapeDecl};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How far a rotation's norm may be from 1: `|‖q‖ − 1| ≤ 1e-6`.
pub const UNIT_TOLERANCE: f64 = 1e-6;
/// The largest magnitude accepted for any coordinate or size in f64.
pub const MAX_ABS_F64: f64 = 1e15;
/// The largest magnitude accepted for any coordinate or size in f32.
pub const MAX_ABS_F32: f64 = 1e8;
/// The smallest nonzero magnitude accepted in f64: below it squared
/// lengths underflow (a box of 1e-200 a gap of 1e-200 from a sphere read
/// distance 0, `converged`).
pub const MIN_ABS_F64: f64 = 1e-100;
/// The smallest nonzero magnitude accepted in f32 (see [`MIN_ABS_F64`]).
pub const MIN_ABS_F32: f64 = 1e-15;

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
    /// Shape A (the moving one in a sweep), in JSON as
    /// `{"shape": {"type": …, …, "margin": …}, "position": …, "rotation": …}`.
    #[serde(with = "crate::model::json::body")]
    pub a: ShapeDecl,
    /// Shape B.
    #[serde(with = "crate::model::json::body")]
    pub b: ShapeDecl,
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
    /// Signed distance (`"signed_distance"`): the distance when apart, minus
    /// the penetration depth when overlapping, with witnesses and normal.
    #[serde(rename = "signed_distance")]
    SignedDistance,
    /// Time of impact of A moving by `translation` against B.
    Sweep,
}

impl fmt::Display for QueryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Distance => "distance",
            Self::Intersect => "intersect",
            Self::Penetration => "penetration",
            Self::SignedDistance => "signed_distance",
            Self::Sweep => "sweep",
        })
    }
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
    /// near touching, so the answer is GJK's), penetration and signed
    /// distance `epa` (for a signed distance, the algorithm that answers
    /// overlapping pairs; GJK answers apart ones), sweep
    /// `raycast` (one GJK-like loop, where conservative advancement runs a
    /// GJK per step).
    #[must_use]
    pub fn default_for(kind: QueryKind) -> Self {
        match kind {
            QueryKind::Distance => Self::Gjk,
            QueryKind::Intersect => Self::Mpr,
            QueryKind::Penetration | QueryKind::SignedDistance => Self::Epa,
            QueryKind::Sweep => Self::Raycast,
        }
    }

    /// The algorithms that answer a query kind.
    #[must_use]
    pub fn valid_for(kind: QueryKind) -> &'static [Self] {
        match kind {
            QueryKind::Distance => &[Self::Gjk],
            QueryKind::Intersect => &[Self::Gjk, Self::Mpr],
            QueryKind::Penetration | QueryKind::SignedDistance => &[Self::Epa, Self::Mpr],
            QueryKind::Sweep => &[Self::Ca, Self::Raycast, Self::SweptMpr, Self::Analytic],
        }
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
    /// A nonzero number's magnitude is below the precision's limit.
    #[error(
        "{path} must be 0 or have magnitude ≥ {limit:e} in {precision} (squared lengths underflow below it: scale the scene up), got {value:e}"
    )]
    TooSmall {
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
    /// The algorithms refuse the input (their magnitude range, a zero
    /// rotation): what [`crate::input::check`] says.
    #[error("{0}")]
    Input(#[from] crate::input::InputError),
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
