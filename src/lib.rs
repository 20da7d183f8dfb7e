//! Convex collision queries over support-mapped shapes — GJK, EPA, MPR and
//! sweeps — instrumented with `cspace-recorder` so every step can be watched
//! in `cspace-viewer`.
//!
//! Every algorithm is generic over [`Real`] and runs in `f32` and `f64`.

pub mod check;
pub mod diff;
pub mod dump;
pub mod epa;
pub mod eval;
pub mod fixture;
pub mod fixture_examples;
pub mod gjk;
pub mod listen;
pub mod mpr;
pub mod query;
pub mod real;
pub mod replay;
mod sat;
pub mod shape;
pub mod simplex;
pub mod sweep;

pub use real::{Q, Real, Rotation, V3, Vector};
pub use shape::{Geom, Hull, Placed, Pose, Shape, ShapeError};

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
