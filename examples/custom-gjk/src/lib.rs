//! A user's own GJK, instrumented with `cspace-recorder`.
//!
//! This crate is written the way an engine outside cspace would use the
//! recorder: its own vector type ([`vec3::V3`]), its own support function and
//! simplex solver, and no cspace shapes or algorithms. The only contact with
//! cspace is the macros in [`gjk::distance`] and one `IntoVec3` impl.
//!
//! ```
//! use custom_gjk::{gjk, vec3::V3};
//!
//! let a = [V3::new(0.0, 0.0, 0.0), V3::new(1.0, 0.0, 0.0), V3::new(0.0, 1.0, 0.0)];
//! let b = [V3::new(0.0, 0.0, 2.0)];
//! let (d, recording) = cspace_recorder::record(|| gjk::distance(&a, &b));
//! assert_eq!(d.distance, 2.0);
//! // recording.save(std::path::Path::new("custom-gjk.cspace"))?;
//! # let _ = recording;
//! ```

pub mod gjk;
pub mod scenes;
pub mod simplex;
pub mod vec3;
