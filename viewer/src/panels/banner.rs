//! The banner under the toolbar: a damaged recording, and the last problem
//! (or notice) of opening, saving or listening.

use crate::state::trace::Trace;
use egui::Color32;

/// Draws the banner lines for `trace` and `message`.
pub fn banner(ui: &mut egui::Ui, trace: &Trace, message: Option<&dyn std::fmt::Display>) {
    if let Some(e) = &trace.error {
        let text = format!(
            "Damaged recording: {e}. Showing the {} events in the first {} bytes (up to byte offset {}).",
            trace.len(),
            trace.valid_len,
            e.offset()
        );
        ui.colored_label(super::RED, text);
    }
    if let Some(m) = message {
        ui.colored_label(Color32::from_rgb(255, 200, 90), m.to_string());
    }
}
