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
