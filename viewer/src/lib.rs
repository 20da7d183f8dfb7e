//! `cspace-viewer`: step forwards and backwards through recordings of convex
//! collision algorithms.
//!
//! The state modules ([`trace`], [`timeline`], [`scene`], [`camera`],
//! [`hull`], [`inspect`], [`source`], [`pair`], [`rerun`], [`sandbox`], [`live`]) hold no egui types and are unit-tested;
//! [`app`] only draws that state and turns input into commands.

#![warn(missing_docs)]

pub mod app;
pub mod camera;
pub mod demo;
pub mod hull;
pub mod inspect;
pub mod interval;
pub mod live;
pub mod pair;
pub mod rerun;
pub mod sandbox;
pub mod sandbox_ui;
pub mod scene;
pub mod session;
pub mod source;
pub mod timeline;
pub mod trace;
