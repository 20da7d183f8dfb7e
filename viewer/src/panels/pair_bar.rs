//! The comparison bar: which recording shows, the ULP threshold, the first
//! divergence beyond it (and a jump to it), the other recording's
//! position, and "Close comparison".

use super::{Action, GREEN};
use crate::state::pair::{Pair, Which};
use egui::Color32;

/// The bar over a comparison.
#[derive(Debug)]
pub struct PairBar<'a> {
    /// The comparison.
    pub pair: &'a Pair,
}

impl PairBar<'_> {
    /// Draws the bar; returns the button pressed.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let pair = self.pair;
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            for which in [Which::A, Which::B] {
                let name = pair.names[which as usize].clone();
                if ui.selectable_label(pair.showing == which, name).clicked() {
                    action = Some(Action::ShowRecording(which));
                }
            }
            ui.separator();
            let mut ulps = pair.ulps;
            ui.label("equal within");
            if ui
                .add(egui::DragValue::new(&mut ulps).range(0..=u64::MAX).speed(1.0))
                .on_hover_text(
                    "values this many ULPs apart or fewer count as equal (as `cspace diff --ulps`); f32 against f64 counts f32 ULPs",
                )
                .changed()
            {
                action = Some(Action::SetUlps(ulps));
            }
            ui.label("ULPs");
            ui.separator();
            if pair.divergence.is_some() {
                if ui
                    .button("Jump to divergence")
                    .on_hover_text("both recordings just after their first differing event")
                    .clicked()
                {
                    action = Some(Action::JumpToDivergence);
                }
                ui.colored_label(Color32::from_rgb(255, 170, 90), pair.summary());
            } else {
                ui.colored_label(GREEN, pair.summary());
            }
            ui.separator();
            let other = &pair.hidden;
            ui.weak(format!(
                "{}: {}",
                pair.names[1 - pair.showing as usize],
                other.timeline.status(&other.trace)
            ));
            if ui.button("Close comparison").clicked() {
                action = Some(Action::ClosePair);
            }
        });
        action
    }
}
