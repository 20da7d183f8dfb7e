//! The egui-free state: recordings and their indexes, the timeline, the
//! session a view shows, where recordings come from, comparisons, re-runs,
//! the live server, the sandbox, scene geometry and the camera.
//!
//! Nothing here imports egui, the panels, the painters or the app; every
//! module is unit-tested on its own.

pub mod camera;
pub mod demo;
pub mod hull;
pub mod inspect;
pub mod interval;
pub mod live;
pub mod log;
pub mod pair;
pub mod plots;
pub mod rerun;
pub mod sandbox;
pub mod scene;
pub mod session;
pub mod source;
pub mod surface;
pub mod timeline;
pub mod trace;
