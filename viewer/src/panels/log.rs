//! The log: every text, value and scope of the recording as an indented
//! tree, the current row in bold and scrolled into view; a click jumps there.

use super::Action;
use crate::state::session::Session;
use crate::state::timeline::Command;
use crate::state::trace::{DESCRIBE_MAX_CHARS, clip};

/// The log panel over the shown session.
#[derive(Debug)]
pub struct Log<'a> {
    /// The shown recording.
    pub session: &'a Session,
    /// The cursor the log last scrolled to (it scrolls again when the cursor moves).
    pub scrolled_to: &'a mut Option<u32>,
}

impl Log<'_> {
    /// Draws the rows in view; returns a jump to the row clicked, or the
    /// request to show a clipped text whole.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let trace = &self.session.trace;
        let current = trace.log_row_at(self.session.timeline.cursor());
        let row_h = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::both()
            .id_salt("log")
            .auto_shrink([false, false]);
        let c = self.session.timeline.cursor();
        if *self.scrolled_to != Some(c) {
            *self.scrolled_to = Some(c);
            if let Some(row) = current {
                let h = ui.available_height();
                area = area.vertical_scroll_offset((row as f32 * row_h - h * 0.5).max(0.0));
            }
        }
        let mut jump = None;
        area.show_rows(ui, row_h, trace.log.len(), |ui, range| {
            for r in range {
                let row = trace.log[r];
                let site = trace.site_of(row.event);
                let loc = site.map_or_else(String::new, |s| {
                    clip(&format!("{}:{}", s.file, s.line), DESCRIBE_MAX_CHARS)
                });
                ui.horizontal(|ui| {
                    ui.add_space(f32::from(row.depth.min(40)) * 14.0);
                    if trace.is_clipped(row.event)
                        && ui
                            .small_button("whole text")
                            .on_hover_text("show this text whole, page by page")
                            .clicked()
                    {
                        jump = Some(Action::ShowText(row.event));
                    }
                    let text = trace.describe(row.event);
                    let text = if Some(r) == current {
                        egui::RichText::new(text).strong()
                    } else {
                        egui::RichText::new(text)
                    };
                    if ui
                        .selectable_label(Some(r) == current, text)
                        .on_hover_text(format!(
                            "event {} at byte {} — {loc}",
                            row.event, trace.offsets[row.event as usize]
                        ))
                        .clicked()
                    {
                        jump = Some(Action::Command(Command::JumpToEvent(row.event)));
                    }
                    ui.weak(loc);
                });
            }
        });
        jump
    }
}
