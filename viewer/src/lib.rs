//! `cspace-viewer`: step forwards and backwards through recordings of convex
//! collision algorithms.
//!
//! The state modules ([`state`]) hold no egui types and are unit-tested;
//! [`app`] only draws that state and turns input into commands.

#![warn(missing_docs)]

pub mod app;
pub mod sandbox_ui;
pub mod state;
