//! `cspace-viewer`: step forwards and backwards through recordings of convex
//! collision algorithms.
//!
//! Four layers, along the data path:
//!
//! - [`state`]: the recordings, their timeline and views' state, where they
//!   come from (files, fixtures, folders, live programs, the sandbox). No
//!   egui types; unit-tested.
//! - [`paint`]: the 3D views, drawn from a session; camera moves and picks
//!   change the session's view state, a drag in the sandbox is returned.
//! - [`panels`]: the panels around the views; each draws borrowed state and
//!   returns the [`Action`](panels::Action) the user asked for.
//! - [`app`]: what is open ([`Mode`](app::Mode)); its logic loads, polls and
//!   applies actions, its ui lays out the panels and views.
//!
//! Nothing points up: `state` never imports `paint`, `panels` or `app`;
//! `paint` and `panels` draw and never load files, run queries or poll.

#![warn(missing_docs)]

pub mod app;
pub mod paint;
pub mod panels;
pub mod state;
