//! The live list: the server's address, and every query that arrived (newest
//! first), each to open or save.

use super::{Action, RED};
use crate::state::live::{Live, LiveState};

/// The live list's height in points: about eight rows, then it scrolls.
const LIST_HEIGHT: f32 = 180.0;

/// The list of live queries.
#[derive(Debug)]
pub struct LiveList<'a> {
    /// The server and its queries.
    pub live: &'a Live,
    /// The live query shown, if one is.
    pub open: Option<u64>,
}

impl LiveList<'_> {
    /// Draws the list; returns "open" or "save" of a query.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let live = self.live;
        ui.strong(format!("Live on {}", live.addr()));
        if live.queries.is_empty() {
            ui.weak(format!(
                "waiting: run a program with CSPACE_LIVE={} (CSPACE_LIVE_BLOCK=1 to step it from here)",
                live.addr()
            ));
        }
        let mut action = None;
        // A list of its own height, scrolling: many queries never push the log away.
        egui::ScrollArea::vertical()
            .id_salt("live list")
            .max_height(LIST_HEIGHT)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for q in live.queries.iter().rev() {
                    let selected = self.open == Some(q.id);
                    // Wrapped: a long name stays inside the panel, clickable.
                    ui.horizontal_wrapped(|ui| {
                        if ui.small_button("Save…").clicked() {
                            action = Some(Action::AskSaveLive(q.id));
                        }
                        let text = q.describe();
                        let text = if matches!(q.state, LiveState::Failed(_)) {
                            egui::RichText::new(text).color(RED)
                        } else {
                            egui::RichText::new(text)
                        };
                        if ui
                            .selectable_label(selected, text)
                            .on_hover_text(format!("from {}", q.peer))
                            .clicked()
                        {
                            action = Some(Action::OpenLive(q.id));
                        }
                    });
                }
            });
        ui.separator();
        action
    }
}
