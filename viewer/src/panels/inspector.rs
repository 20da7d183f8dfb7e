//! The inspector: the current event, what is visible, and the hovered and
//! selected points digit for digit (two selected: their distance in ULPs).
//! In a comparison, each of those points in the other recording too, with
//! the ULPs between them (also for points picked in the other's pane).

use super::Action;
use crate::state::pair::Pair;
use crate::state::session::Session;

/// The inspector over the shown session.
#[derive(Debug)]
pub struct Inspector<'a> {
    /// The shown recording.
    pub session: &'a Session,
    /// The comparison, if any: the same points in the other recording.
    pub pair: Option<&'a Pair>,
}

impl Inspector<'_> {
    /// Draws the inspector; returns "clear the selection" when asked.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let s = self.session;
        ui.heading("Inspector");
        if let Some(e) = s.timeline.current_event() {
            ui.label(format!("current event {e}: {}", s.trace.describe(e)));
            if let Some(site) = s.trace.site_of(e) {
                ui.weak(format!("{}:{}", site.file, site.line));
            }
        }
        ui.label(format!(
            "visible: {} config, {} object, {} simplices",
            s.visible.config.len(),
            s.visible.object.len(),
            s.visible.simplices.len()
        ));
        if let Some(crate::state::trace::Entry::Answer(k)) = s
            .visible
            .answer
            .and_then(|e| s.trace.entries.get(e as usize))
            && let Some(a) = s.trace.answers.get(*k as usize)
        {
            ui.separator();
            for l in crate::state::inspect::describe_answer(&a.answer) {
                ui.monospace(l);
            }
            if let Some(c) = a
                .certificate
                .and_then(|c| s.trace.certificates.get(c as usize))
            {
                for l in crate::state::inspect::describe_certificate(&c.certificate) {
                    ui.monospace(l);
                }
            }
        }
        ui.separator();
        let lines = s.selection.describe(&s.trace);
        if lines.is_empty() {
            ui.weak("Hover a point to inspect it; click up to two points to compare them in ULPs.");
        }
        for l in lines {
            ui.monospace(l);
        }
        if let Some(pair) = self.pair {
            let lines = pair.compare_lines(s);
            if !lines.is_empty() {
                ui.separator();
            }
            for l in lines {
                ui.monospace(l);
            }
        }
        ((s.selection.first.is_some() || s.selection.second.is_some())
            && ui.button("Clear selection").clicked())
        .then_some(Action::ClearSelection)
    }
}
