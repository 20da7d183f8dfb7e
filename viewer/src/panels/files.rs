//! The open folder's recordings and fixtures; a click opens one.

use super::Action;
use std::path::{Path, PathBuf};

/// The list of an opened folder's files.
#[derive(Debug)]
pub struct Files<'a> {
    /// The folder.
    pub folder: &'a Path,
    /// Its recordings and fixtures.
    pub files: &'a [PathBuf],
    /// The file open, if it is one on disk.
    pub open: Option<&'a Path>,
}

impl Files<'_> {
    /// Draws the list; returns the file clicked.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        ui.strong(format!("{}/", self.folder.display()));
        for f in self.files {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if ui
                .selectable_label(self.open == Some(f.as_path()), name)
                .clicked()
            {
                action = Some(Action::OpenFile(f.clone()));
            }
        }
        ui.separator();
        action
    }
}
