//! `cspace-viewer`: step forwards and backwards through recordings of convex
//! collision algorithms.
//!
//! The state modules ([`trace`], [`timeline`], [`scene`], [`camera`],
//! [`hull`], [`inspect`], [`source`]) hold no egui types and are unit-tested;
//! [`app`] only draws that state and turns input into commands.

pub mod camera;
pub mod hull;
pub mod inspect;
pub mod interval;
pub mod scene;
pub mod timeline;
pub mod trace;
pub mod source;
pub mod app;
pub mod demo;
pub mod session;
