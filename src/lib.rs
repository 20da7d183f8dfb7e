//! Convex collision queries over support-mapped shapes — GJK, EPA, MPR and
//! sweeps — instrumented with `cspace-recorder` so every step can be watched
//! in `cspace-viewer`.
//!
//! Every algorithm is generic over [`Real`] and runs in `f32` and `f64`.
//!
//! The modules follow the data path, and nothing points up:
//! [`real`] and [`shape`] (what the queries take) → the algorithms
//! ([`gjk`], [`epa`], [`mpr`], [`sweep`], on [`simplex`]) → with the default
//! feature `fixtures`, [`model`] (a query as JSON: parse, validate, run) →
//! [`fixture`] (fixture files, failing checks that save them, replay).
//! Algorithms-only users turn default features off and get glam, serde and
//! the recorder, nothing else.

mod collide;
#[cfg(feature = "fixtures")]
pub mod fixture;
#[cfg(feature = "fixtures")]
pub mod model;
pub mod real;
pub mod shape;

pub use collide::{Status, Witness, epa, gjk, input, mpr, signed, simplex, sweep};
#[cfg(feature = "fixtures")]
pub use fixture::check;
pub use real::{Q, Real, Rotation, V3, Vector};
pub use shape::{Geom, Hull, Placed, Pose, Shape, ShapeError};
