//! The log: every text, pause, scope and query of the recording as an
//! indented tree. Scopes and query groups fold; a pause says the values it
//! ends with and a scope how it ended; a search box filters the rows. The
//! current row is bold and scrolled into view; a click jumps there.

use super::Action;
use crate::state::log::{LogView, ShownRow};
use crate::state::timeline::{Command, Timeline};
use crate::state::trace::{DESCRIBE_MAX_CHARS, Trace, clip};

/// The log panel over the shown session.
#[derive(Debug)]
pub struct Log<'a> {
    /// The shown recording.
    pub trace: &'a Trace,
    /// Its cursor.
    pub timeline: &'a Timeline,
    /// Collapsed scopes and the filter (edited in place: they are view settings).
    pub view: &'a mut LogView,
    /// The cursor the log last scrolled to (it scrolls again when the cursor moves).
    pub scrolled_to: &'a mut Option<u32>,
}

impl Log<'_> {
    /// Draws the search row and the rows in view; returns a jump to the row
    /// clicked, or the request to show a clipped text whole.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let trace = self.trace;
        self.search_row(ui);
        self.view.update(trace);
        let c = self.timeline.cursor();
        let current = self.view.shown_at(trace, c);
        let row_h = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::both()
            .id_salt("log")
            .auto_shrink([false, false]);
        if *self.scrolled_to != Some(c) {
            *self.scrolled_to = Some(c);
            if let Some(row) = current {
                let h = ui.available_height();
                area = area.vertical_scroll_offset((row as f32 * row_h - h * 0.5).max(0.0));
            }
        }
        let mut action = None;
        let mut toggle = None;
        let rows = self.view.rows();
        area.show_rows(ui, row_h, rows.len(), |ui, range| {
            for k in range {
                let shown = rows[k];
                ui.horizontal(|ui| {
                    if fold_button(ui, shown, trace) {
                        toggle = Some(trace.log[shown.row].event);
                    }
                    if let Some(a) = row_ui(ui, trace, self.view, shown, Some(k) == current) {
                        action = Some(a);
                    }
                });
            }
        });
        if let Some(event) = toggle {
            self.view.toggle(event);
        }
        action
    }

    /// The search field, the match count and the fold-all buttons (right
    /// to left, so the buttons stay inside a narrow panel).
    fn search_row(&mut self, ui: &mut egui::Ui) {
        let row = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
        ui.allocate_ui_with_layout(
            row,
            egui::Layout::right_to_left(egui::Align::Center),
            |ui| {
                if self.view.filter.is_empty() {
                    if ui
                        .small_button("unfold")
                        .on_hover_text("open every scope and query")
                        .clicked()
                    {
                        self.view.fold_all(self.trace, false);
                    }
                    if ui
                        .small_button("fold")
                        .on_hover_text("collapse every scope and query")
                        .clicked()
                    {
                        self.view.fold_all(self.trace, true);
                    }
                } else {
                    if ui.small_button("clear").clicked() {
                        self.view.set_filter("");
                    }
                    self.view.update(self.trace);
                    ui.weak(format!(
                        "{} of {}",
                        self.view.rows().len(),
                        self.trace.log.len()
                    ));
                }
                let edit = egui::TextEdit::singleline(&mut self.view.filter)
                    .hint_text("search the log")
                    .desired_width(ui.available_width());
                if ui.add(edit).changed() {
                    self.view.invalidate();
                }
            },
        );
    }
}

/// The fold toggle of a scope or group row (a blank of the same width for
/// other rows); returns whether it was clicked.
fn fold_button(ui: &mut egui::Ui, shown: ShownRow, trace: &Trace) -> bool {
    ui.add_space(f32::from(shown.depth.min(40)) * 12.0);
    let size = egui::vec2(ui.spacing().icon_width, ui.spacing().icon_width);
    if !shown.folds {
        ui.allocate_exact_size(size, egui::Sense::hover());
        return false;
    }
    let (_, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let openness = if shown.collapsed { 0.0 } else { 1.0 };
    egui::collapsing_header::paint_default_icon(ui, openness, &response);
    let verb = if shown.collapsed { "open" } else { "collapse" };
    // Named for screen readers (and tests): "collapse scope gjk iteration".
    let name = format!("{verb} {}", trace.describe(trace.log[shown.row].event));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    response.on_hover_text(verb).clicked()
}

/// One row's text and location; returns what a click asked for.
fn row_ui(
    ui: &mut egui::Ui,
    trace: &Trace,
    view: &LogView,
    shown: ShownRow,
    current: bool,
) -> Option<Action> {
    let row = trace.log[shown.row];
    let mut action = None;
    if trace.is_clipped(row.event)
        && ui
            .small_button("whole text")
            .on_hover_text("show this text whole, page by page")
            .clicked()
    {
        action = Some(Action::ShowText(row.event));
    }
    let text = view.line(trace, shown.row);
    let text = if current {
        egui::RichText::new(text).strong()
    } else {
        egui::RichText::new(text)
    };
    let loc = trace.site_of(row.event).map_or_else(String::new, |s| {
        clip(&format!("{}:{}", s.file, s.line), DESCRIBE_MAX_CHARS)
    });
    if ui
        .selectable_label(current, text)
        .on_hover_text(format!(
            "event {} at byte {} — {loc}",
            row.event,
            trace.offset(row.event).unwrap_or_default()
        ))
        .clicked()
    {
        action = Some(Action::Command(Command::JumpToEvent(row.event)));
    }
    ui.weak(loc);
    action
}
