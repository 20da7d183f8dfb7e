//! Convex collision queries over support-mapped shapes — GJK, EPA, MPR and
//! sweeps — instrumented with `cspace-recorder` so every step can be watched
//! in `cspace-viewer`.
//!
//! Every algorithm is generic over [`Real`] and runs in `f32` and `f64`.

pub mod real;
pub mod shape;

pub use real::{Q, Real, Rotation, V3, Vector};
pub use shape::{Geom, Placed, Pose, Shape, ShapeError};
