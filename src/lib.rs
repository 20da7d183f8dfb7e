//! Convex collision queries over support-mapped shapes — GJK, EPA, MPR and
//! sweeps — instrumented with `cspace-recorder` so every step can be watched
//! in `cspace-viewer`.
//!
//! Every algorithm is generic over [`Real`] and runs in `f32` and `f64`.

pub mod diff;
pub mod dump;
pub mod listen;
pub mod real;
pub mod shape;
pub mod simplex;
pub mod gjk;
pub mod epa;
pub mod mpr;
pub mod sweep;
pub mod query;
pub mod eval;
pub mod fixture;
pub mod check;
pub mod replay;
pub mod fixture_examples;

pub use real::{Q, Real, Rotation, V3, Vector};
pub use shape::{Geom, Placed, Pose, Shape, ShapeError};

/// How an iterative query ended. Every result carries one, so hitting an
/// iteration bound is never silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The termination criterion was met: the answer is within tolerance.
    Converged,
    /// The iteration bound was hit; the answer is the best bound found so far.
    MaxIterations,
    /// The input was degenerate (zero-size core, coincident points) and a
    /// closed-form answer was returned instead of iterating.
    Degenerate,
}
