//! The small windows: "Open" (a typed path and a browser of the folder typed
//! so far, listed by the app), "Diff two recordings" and "Save live #N".

use super::Action;
use crate::state::source;
use std::path::PathBuf;

/// The "Open" window.
#[derive(Debug, Default)]
pub struct OpenWindow {
    /// Whether it shows.
    pub shown: bool,
    /// The path typed.
    pub text: String,
    /// The folder typed so far, listed (the app's logic refreshes it while shown).
    pub entries: Vec<source::Entry>,
}

impl OpenWindow {
    /// Draws the window while shown; returns the path chosen (and closes).
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut open = self.shown;
        let mut chosen = None;
        egui::Window::new("Open").open(&mut open).show(ui.ctx(), |ui| {
            ui.label("A .cspace recording, a NAME.fixture.json, or a folder of them (or drop a file on the window):");
            let r = ui
                .horizontal(|ui| {
                    let label = ui.label("Path");
                    ui.text_edit_singleline(&mut self.text).labelled_by(label.id)
                })
                .inner;
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Open path").clicked() || enter {
                chosen = Some(PathBuf::from(self.text.trim()));
            }
            // Browse the folder typed so far.
            if let Some(e) = browse(ui, &self.entries) {
                self.text = e.path.display().to_string();
                if !e.is_dir {
                    chosen = Some(e.path);
                }
            }
        });
        if chosen.is_some() {
            open = false;
        }
        self.shown = open;
        chosen.map(Action::OpenPath)
    }
}

/// Lists `entries` (a folder being browsed); returns the entry clicked.
fn browse(ui: &mut egui::Ui, entries: &[source::Entry]) -> Option<source::Entry> {
    let mut clicked = None;
    egui::ScrollArea::vertical()
        .max_height(240.0)
        .show(ui, |ui| {
            for e in entries {
                let name = e
                    .path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let label = if e.is_dir { format!("{name}/") } else { name };
                if ui.selectable_label(false, label).clicked() {
                    clicked = Some(e.clone());
                }
            }
        });
    clicked
}

/// The "Diff two recordings" window.
#[derive(Debug, Default)]
pub struct DiffWindow {
    /// Whether it shows.
    pub shown: bool,
    /// The two paths typed.
    pub text: [String; 2],
}

impl DiffWindow {
    /// Draws the window while shown; returns the two paths on "Open diff" (and closes).
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut open = self.shown;
        let mut go = false;
        egui::Window::new("Diff two recordings")
            .open(&mut open)
            .show(ui.ctx(), |ui| {
                ui.label("Two .cspace recordings (or fixtures), stepped in lockstep by pause:");
                for (i, name) in ["A", "B"].into_iter().enumerate() {
                    ui.horizontal(|ui| {
                        let label = ui.label(name);
                        ui.text_edit_singleline(&mut self.text[i])
                            .labelled_by(label.id);
                    });
                }
                go = ui.button("Open diff").clicked();
            });
        if go {
            open = false;
        }
        self.shown = open;
        go.then(|| {
            let [a, b] = self.text.clone().map(|t| PathBuf::from(t.trim()));
            Action::OpenDiff(a, b)
        })
    }
}

/// The "Save live #N" window: which query, and the file typed.
#[derive(Debug, Default)]
pub struct SaveWindow {
    /// The live query to save and the file typed, while the window shows.
    pub pending: Option<(u64, String)>,
}

impl SaveWindow {
    /// Draws the window while a save is pending; returns the save on "Save" (and closes).
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let (id, mut text) = self.pending.take()?;
        let mut open = true;
        let mut save = false;
        egui::Window::new(format!("Save live #{id}"))
            .open(&mut open)
            .show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label("File");
                    ui.text_edit_singleline(&mut text).labelled_by(label.id);
                });
                save = ui.button("Save").clicked();
            });
        if save {
            return Some(Action::SaveLive(id, PathBuf::from(text.trim())));
        }
        if open {
            self.pending = Some((id, text));
        }
        None
    }
}

/// How many bytes of a text the "Text" window shows per page.
pub const TEXT_PAGE_BYTES: usize = 16 << 10;

/// The "Text" window: one text event whole, a page at a time (a label of
/// megabytes would exhaust the renderer), with a button to copy it all.
#[derive(Debug, Default)]
pub struct TextWindow {
    /// The text event shown and the page, while the window is open.
    pub shown: Option<(u32, usize)>,
}

impl TextWindow {
    /// Draws the window for `text` (the shown event's whole text) while open.
    pub fn ui(&mut self, ui: &mut egui::Ui, text: Option<&str>) {
        let Some((event, mut page)) = self.shown else {
            return;
        };
        let Some(text) = text else {
            self.shown = None;
            return;
        };
        let pages = text.len().div_ceil(TEXT_PAGE_BYTES).max(1);
        page = page.min(pages - 1);
        let mut open = true;
        egui::Window::new(format!("Text of event {event}"))
            .open(&mut open)
            .default_size([640.0, 420.0])
            .show(ui.ctx(), |ui| {
                ui.horizontal(|ui| {
                    if ui
                        .add_enabled(page > 0, egui::Button::new("Previous page"))
                        .clicked()
                    {
                        page -= 1;
                    }
                    ui.label(format!(
                        "page {} of {pages} · {} bytes",
                        page + 1,
                        text.len()
                    ));
                    if ui
                        .add_enabled(page + 1 < pages, egui::Button::new("Next page"))
                        .clicked()
                    {
                        page += 1;
                    }
                    if ui.button("Copy all").clicked() {
                        ui.ctx().copy_text(text.to_owned());
                    }
                });
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.label(page_of(text, page));
                });
            });
        self.shown = open.then_some((event, page));
    }
}

/// Page `page` of `text`: [`TEXT_PAGE_BYTES`] bytes, cut at character boundaries.
#[must_use]
pub fn page_of(text: &str, page: usize) -> &str {
    let boundary = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = boundary(page.saturating_mul(TEXT_PAGE_BYTES));
    &text[start..boundary(start + TEXT_PAGE_BYTES)]
}
