//! The step buttons, play/pause and speed above the views, and the timeline
//! rail below them (ticks at pauses, the first divergence of a comparison).

use super::{AMBER, Action};
use crate::state::pair::Pair;
use crate::state::session::Session;
use crate::state::timeline::Command;
use egui::{Color32, Stroke, pos2};

/// The step buttons over the shown session (the speed slider edits it).
#[derive(Debug)]
pub struct Toolbar<'a> {
    /// The shown recording.
    pub session: &'a mut Session,
}

impl Toolbar<'_> {
    /// Draws the buttons and the status; returns the command pressed.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            let buttons = [
                ("First", Command::First, "Home"),
                (
                    "Prev step",
                    Command::PrevStep,
                    "Left arrow: just after the previous pause",
                ),
                ("Prev event", Command::PrevEvent, "Shift+Left arrow"),
                (
                    "Step over",
                    Command::StepOver,
                    "next event, over a whole push…pop scope",
                ),
                ("Step into", Command::StepInto, "next event, into scopes"),
                (
                    "Step out",
                    Command::StepOut,
                    "just after the pop closing the current scope",
                ),
                ("Next event", Command::NextEvent, "Shift+Right arrow"),
                (
                    "Next step",
                    Command::NextStep,
                    "Right arrow: just after the next pause",
                ),
                ("Last", Command::Last, "End"),
            ];
            for (label, cmd, tip) in buttons {
                if ui.button(label).on_hover_text(tip).clicked() {
                    action = Some(Action::Command(cmd));
                }
            }
            let session = &mut *self.session;
            let play = if session.timeline.playing() {
                "Pause"
            } else {
                "Play"
            };
            if ui.button(play).on_hover_text("Space").clicked() {
                action = Some(Action::Command(Command::TogglePlay));
            }
            ui.add(
                egui::Slider::new(&mut session.timeline.speed, 0.25..=200.0)
                    .logarithmic(true)
                    .text("steps/s"),
            );
            ui.separator();
            ui.strong(session.timeline.status(&session.trace));
            if let Some(e) = session.timeline.current_event() {
                // One line: the log and the inspector have it whole.
                let whole = session.trace.describe(e);
                let mut short: String = whole.chars().take(48).collect();
                if short.len() < whole.len() {
                    short.push('…');
                }
                ui.label(short).on_hover_text(whole);
            }
        });
        action
    }
}

/// The timeline rail: a slider over the events with ticks at pauses.
#[derive(Debug)]
pub struct TimelineBar<'a> {
    /// The shown recording.
    pub session: &'a Session,
    /// The comparison, if any (its first divergence is marked).
    pub pair: Option<&'a Pair>,
}

impl TimelineBar<'_> {
    /// Draws the rail; returns a seek when the slider moved.
    #[allow(clippy::cast_sign_loss)] // pixel columns and positions are non-negative
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let trace = &self.session.trace;
        let n = trace.len();
        let cursor = self.session.timeline.cursor();
        let mut c = cursor;
        // Where the compared recordings first diverge, marked on the rail.
        let divergent = self
            .pair
            .and_then(|p| p.divergence.as_ref())
            .map(|d| trace.event_of_compared(d.index).map_or(n, |e| e + 1));
        ui.horizontal(|ui| {
            ui.spacing_mut().slider_width = (ui.available_width() - 150.0).max(50.0);
            let r = ui.add(
                egui::Slider::new(&mut c, 0..=n)
                    .show_value(true)
                    .text("event"),
            );
            // Ticks at pauses below the slider rail, at most one per pixel.
            let rail = r.rect;
            let width = ui.spacing().slider_width;
            let x0 = rail.left() + 6.0;
            let w = width - 12.0;
            let painter = ui.painter();
            if n > 0 && w > 0.0 {
                let stroke = Stroke::new(1.0, AMBER);
                let tick = |x: f32| {
                    painter.line_segment(
                        [pos2(x, rail.bottom() - 3.0), pos2(x, rail.bottom())],
                        stroke,
                    );
                };
                let x_of = |cursor: u32| x0 + (f64::from(cursor) / f64::from(n)) as f32 * w;
                if let Some(d) = divergent {
                    let x = x_of(d);
                    painter.line_segment(
                        [pos2(x, rail.top()), pos2(x, rail.bottom())],
                        Stroke::new(2.0, Color32::from_rgb(255, 90, 70)),
                    );
                }
                if trace.pauses.len() <= 4 * w as usize {
                    // Few pauses: one tick at each, at the cursor position just after it.
                    let mut last = f32::NEG_INFINITY;
                    for &p in &trace.pauses {
                        let x = x_of(p + 1);
                        if x - last >= 1.0 {
                            tick(x);
                            last = x;
                        }
                    }
                } else {
                    // Many: one tick per pixel column that holds a pause.
                    let cols = w as u32;
                    for col in 0..cols {
                        let lo = (u64::from(col) * u64::from(n) / u64::from(cols)) as u32;
                        let hi = (u64::from(col + 1) * u64::from(n) / u64::from(cols)) as u32;
                        let a = trace.pauses.partition_point(|&p| p + 1 < lo);
                        if trace.pauses.get(a).is_some_and(|&p| p < hi) {
                            tick(x0 + col as f32);
                        }
                    }
                }
            }
        });
        (c != cursor).then_some(Action::Command(Command::Seek(c)))
    }
}
