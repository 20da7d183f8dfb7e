//! The 3D views: the configuration-space and object-space painters.
//!
//! [`frame`] turns a session into a view's [`geometry`] (clipped in f64,
//! with depth; the answer by [`answer`]; a bulk of points stamped on the
//! CPU by [`splat`]); no egui state, so the benchmark times it. [`gpu`] draws that geometry with a depth buffer through an
//! `egui_wgpu` paint callback. [`views`](mod@views) lays out the two views,
//! turns drags, scrolls and clicks into camera moves and selections, places
//! the labels and reports a drag that moves the sandbox's shapes for the
//! app to apply. Nothing here loads files or runs queries.

mod answer;
pub mod clip;
pub mod frame;
pub mod geometry;
pub mod gpu;
pub mod splat;
pub mod views;

pub use frame::{Frame, Label, build_frame};
pub use views::views;

use cspace_recorder::Rgba;
use egui::Color32;

// The palette: Okabe and Ito's colours for colour-blind readers, lightened
// for the dark background. Each role has its own hue: A blue, B orange, the
// CSO reddish purple, the simplex vermillion, highlights yellow; the origin
// is neutral, so it never reads as a simplex edge or a search direction.

/// Shape A.
const COLOR_A: Color32 = Color32::from_rgb(60, 140, 220);
/// Shape B.
const COLOR_B: Color32 = Color32::from_rgb(240, 165, 20);
/// The configuration-space obstacle A − B.
const COLOR_CSO: Color32 = Color32::from_rgb(205, 130, 175);
/// Simplices.
const COLOR_SIMPLEX: Color32 = Color32::from_rgb(235, 100, 35);
/// Recorded configuration-space items without a colour.
const COLOR_DEFAULT: Color32 = Color32::from_rgb(220, 220, 220);
/// Hovered and selected points, a sweep's motion.
const COLOR_HIGHLIGHT: Color32 = Color32::from_rgb(240, 228, 66);
/// A query's answer: closest points, penetration vector, contact.
const COLOR_ANSWER: Color32 = Color32::from_rgb(20, 200, 140);
/// The origin and its axes.
const COLOR_ORIGIN: Color32 = Color32::from_gray(235);
/// The views' background.
const BACKGROUND: Color32 = Color32::from_gray(22);

/// A recorded colour, or `default` when the item has none. The recorder's
/// named colours map to the palette (red to vermillion, green to bluish
/// green, blue to sky blue, …), so algorithms that say `Rgba::RED` read
/// well for colour-blind users too; other colours are drawn as recorded.
fn color(c: Option<Rgba>, default: Color32) -> Color32 {
    let Some(c) = c else {
        return default;
    };
    let named = [
        (Rgba::RED, COLOR_SIMPLEX),
        (Rgba::GREEN, Color32::from_rgb(20, 180, 130)),
        (Rgba::BLUE, Color32::from_rgb(100, 190, 240)),
        (Rgba::YELLOW, COLOR_HIGHLIGHT),
        (Rgba::ORANGE, COLOR_B),
        (Rgba::PURPLE, COLOR_CSO),
    ];
    if let Some((_, mapped)) = named.iter().find(|(n, _)| *n == c) {
        return *mapped;
    }
    let Rgba([r, g, b, a]) = c;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// `c` with alpha `a`.
fn with_alpha(c: Color32, a: u8) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), a)
}
