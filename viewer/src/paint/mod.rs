//! The 3D views: the configuration-space and object-space painters.
//!
//! [`frame`] turns a session into depth-sorted shapes (no egui state, so the
//! benchmark times it); [`views`](mod@views) lays out the two views, turns drags,
//! scrolls and clicks into camera moves and selections, and reports a drag
//! that moves the sandbox's shapes for the app to apply. Nothing here loads
//! files or runs queries.

pub mod frame;
pub mod views;

pub use frame::{Frame, build_frame};
pub use views::views;

use cspace_recorder::Rgba;
use egui::Color32;

/// Shape A.
const COLOR_A: Color32 = Color32::from_rgb(90, 140, 235);
/// Shape B.
const COLOR_B: Color32 = Color32::from_rgb(240, 150, 60);
/// The configuration-space obstacle A − B.
const COLOR_CSO: Color32 = Color32::from_rgb(150, 120, 200);
/// Simplices.
const COLOR_SIMPLEX: Color32 = Color32::from_rgb(235, 70, 60);
/// Recorded configuration-space items without a colour.
const COLOR_DEFAULT: Color32 = Color32::from_rgb(220, 220, 220);
/// Hovered and selected points, a sweep's motion.
const COLOR_HIGHLIGHT: Color32 = Color32::from_rgb(255, 255, 120);
/// The views' background.
const BACKGROUND: Color32 = Color32::from_gray(22);

/// A recorded colour, or `default` when the item has none.
fn color(c: Option<Rgba>, default: Color32) -> Color32 {
    c.map_or(default, |Rgba([r, g, b, a])| {
        Color32::from_rgba_unmultiplied(r, g, b, a)
    })
}

/// `c` with alpha `a`.
fn with_alpha(c: Color32, a: u8) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), a)
}
