//! The menu bar: File (open, reload, diff, recent, examples), Sandbox and
//! Live, and the open recording's title.

use super::Action;
use crate::state::source;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The menu bar over what it needs to know of the app.
#[derive(Debug)]
pub struct Menu<'a> {
    /// Whether a file is open (it can be reloaded).
    pub file_open: bool,
    /// Whether a fixture is open (it can go to the sandbox).
    pub fixture_open: bool,
    /// Whether the sandbox is open (it can be closed).
    pub sandbox_open: bool,
    /// Where the live server listens, when it does.
    pub listening: Option<SocketAddr>,
    /// The address "Listen" will use, as typed.
    pub listen_addr: &'a mut String,
    /// Recently opened paths.
    pub recent: &'a [PathBuf],
    /// The shown recording's title.
    pub title: &'a str,
}

impl Menu<'_> {
    /// Draws the menu bar; returns the item chosen.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if let Some(a) = self.file(ui) {
                    action = Some(a);
                }
            });
            ui.menu_button("Sandbox", |ui| {
                if let Some(a) = self.sandbox(ui) {
                    action = Some(a);
                }
            });
            ui.menu_button("Live", |ui| {
                if let Some(a) = self.live(ui) {
                    action = Some(a);
                }
            });
            ui.label(format!("— {}", self.title));
        });
        action
    }

    fn file(&self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        if ui.button("Open…").clicked() {
            action = Some(Action::ShowOpen);
            ui.close();
        }
        if self.file_open && ui.button("Reload").clicked() {
            action = Some(Action::Reload);
            ui.close();
        }
        if ui.button("Diff two recordings…").clicked() {
            action = Some(Action::ShowDiff);
            ui.close();
        }
        ui.menu_button("Recent", |ui| {
            if self.recent.is_empty() {
                ui.weak("(none yet)");
            }
            for p in self.recent {
                if ui.button(p.display().to_string()).clicked() {
                    action = Some(Action::OpenPath(p.clone()));
                    ui.close();
                }
            }
        });
        ui.menu_button("Examples", |ui| {
            for (i, (name, _)) in source::bundled::EXAMPLES.iter().enumerate() {
                if ui.button(*name).clicked() {
                    action = Some(Action::OpenExample(i));
                    ui.close();
                }
            }
            if ui.button("demo: box-sphere distance").clicked() {
                action = Some(Action::OpenDemo);
                ui.close();
            }
        });
        action
    }

    fn sandbox(&self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        if ui
            .button("New sandbox")
            .on_hover_text("build a query: shapes, poses, query, algorithm, precision")
            .clicked()
        {
            action = Some(Action::NewSandbox);
            ui.close();
        }
        if ui
            .add_enabled(
                self.fixture_open,
                egui::Button::new("Open fixture in sandbox"),
            )
            .on_disabled_hover_text("open a fixture first")
            .clicked()
        {
            action = Some(Action::FixtureToSandbox);
            ui.close();
        }
        if self.sandbox_open && ui.button("Close sandbox").clicked() {
            action = Some(Action::CloseSandbox);
            ui.close();
        }
        action
    }

    fn live(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        if let Some(addr) = self.listening {
            ui.label(format!("listening on {addr}"));
            return None;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Address");
            ui.text_edit_singleline(self.listen_addr)
                .labelled_by(label.id);
        });
        if ui.button("Listen").clicked() {
            ui.close();
            return Some(Action::Listen);
        }
        None
    }
}
