//! The open fixture: what it expects, its stored answer, and after "Re-run
//! with current code" the new answer, the verdict and whether the new
//! recording is identical.

use super::{Action, GREEN, RED};
use crate::state::rerun::{self, Rerun};
use cspace::fixture::{Expect, Fixture};

/// The fixture panel.
#[derive(Debug)]
pub struct FixturePanel<'a> {
    /// The open fixture.
    pub fixture: &'a Fixture,
    /// Its re-run, once asked for.
    pub rerun: Option<&'a Rerun>,
}

impl FixturePanel<'_> {
    /// Draws the panel; returns "re-run" or "edit in the sandbox" when pressed.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let f = self.fixture;
        ui.strong(format!("Fixture {}", f.name()));
        if let Some(failure) = &f.file.failure {
            ui.label(format!("failed when written: {failure}"));
        }
        ui.label(format!(
            "expect: {}",
            match f.file.expect {
                Expect::Pass => "pass",
                Expect::KnownFailure => "known failure",
            }
        ));
        // The buttons and the verdict first: the table below may scroll.
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("Re-run with current code")
                .on_hover_text("re-run the query with recording on and compare the recordings")
                .clicked()
            {
                action = Some(Action::RerunFixture);
            }
            if ui
                .button("Edit in sandbox")
                .on_hover_text("edit this fixture's query: shapes, poses, algorithm, precision")
                .clicked()
            {
                action = Some(Action::FixtureToSandbox);
            }
        });
        if let Some(r) = self.rerun {
            if let Err(e) = &r.answer {
                ui.colored_label(RED, format!("new run: {e}"));
            }
            ui.colored_label(
                if r.as_expected { GREEN } else { RED },
                r.verdict(f.file.expect),
            );
            ui.label(if r.identical {
                "new recording: bit-identical to the stored one"
            } else if r.input_changed {
                "new recording differs: the stored recording shows other input than the fixture's query (edited after recording)"
            } else if f.same_revision() {
                "new recording differs with the same algorithm revision: nondeterminism"
            } else {
                "new recording differs (the algorithm code changed since it was stored)"
            });
        }
        let new = self.rerun.and_then(|r| r.answer.as_ref().ok());
        answer_table(ui, f, new);
        ui.separator();
        action
    }
}

/// The stored answer (and the re-run's, once there is one) as a table, field
/// by field, then each stored check with PASS or FAIL against the new answer.
fn answer_table(ui: &mut egui::Ui, f: &Fixture, new: Option<&serde_json::Value>) {
    let rows = rerun::answer_rows(f, new);
    if rows.is_empty() {
        ui.label("stored answer: (none)");
    } else {
        egui::Grid::new("fixture answer")
            .striped(true)
            .num_columns(if new.is_some() { 3 } else { 2 })
            .show(ui, |ui| {
                ui.strong("field");
                ui.strong("stored");
                if new.is_some() {
                    ui.strong("new");
                }
                ui.end_row();
                for r in &rows {
                    ui.label(&r.field);
                    ui.label(&r.stored);
                    if let Some(v) = &r.new {
                        if r.differs {
                            ui.colored_label(RED, v);
                        } else {
                            ui.label(v);
                        }
                    }
                    ui.end_row();
                }
            });
    }
    for (what, result) in rerun::check_rows(f, new) {
        match result {
            None => ui.label(format!("check: {what}")),
            Some(Ok(())) => ui.colored_label(GREEN, format!("PASS  {what}")),
            Some(Err(why)) => ui.colored_label(RED, format!("FAIL  {what}: {why}")),
        };
    }
}
