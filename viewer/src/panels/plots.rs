//! The plots: every `value!` series of the recording on one shared step axis
//! (it does not rescale as the cursor moves), the current step marked; the
//! bounds' gap on a log scale against the algorithm's stopping tolerance; a
//! single sample as its number. Hovering shows exact values; a click or a
//! drag on a plot seeks to that step.

use super::{AMBER, Action};
use crate::state::plots::{PlotModel, last_step, overlay, plot_models};
use crate::state::session::Session;
use crate::state::timeline::Command;

/// The plots panel over the shown session.
#[derive(Debug)]
pub struct Plots<'a> {
    /// The shown recording.
    pub session: &'a Session,
    /// In a comparison: the other recording and the names of both (shown
    /// first), whose series are overlaid dashed.
    pub other: Option<(&'a Session, [&'a str; 2])>,
}

impl Plots<'_> {
    /// Draws the plots, three to a row, scrolling; returns a seek when a plot
    /// is clicked or dragged.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let trace = &self.session.trace;
        let mut models = plot_models(trace);
        let mut last = last_step(trace);
        if let Some((other, names)) = self.other {
            models = overlay(models, plot_models(&other.trace), names);
            last = last.max(last_step(&other.trace));
        }
        let last = last.max(1.0);
        if models.is_empty() {
            ui.weak("no value! series recorded");
            return None;
        }
        let step = f64::from(trace.step_at(self.session.timeline.cursor()));
        let mut seek = None;
        egui::ScrollArea::vertical()
            .id_salt("plots")
            .show(ui, |ui| {
                let per_row = models.len().min(3);
                let width = (ui.available_width() / per_row as f32 - 10.0).max(150.0);
                for (row, chunk) in models.chunks(per_row).enumerate() {
                    ui.horizontal(|ui| {
                        for (j, model) in chunk.iter().enumerate() {
                            ui.vertical(|ui| {
                                ui.set_width(width);
                                let id = row * per_row + j;
                                seek = seek.or(cell(ui, model, (id, width), step, last));
                            });
                        }
                    });
                }
            });
        seek.map(|s| Action::Command(Command::SeekStep(s)))
    }
}

/// One plot (or number); returns the step clicked or dragged to.
fn cell(
    ui: &mut egui::Ui,
    model: &PlotModel,
    (id, width): (usize, f32),
    step: f64,
    last: f64,
) -> Option<u32> {
    let (title, lines, log, met) = match model {
        PlotModel::Value { name, value } => {
            ui.label(name);
            ui.monospace(format!("{value:.17e}"))
                .on_hover_text(format!("{name}: recorded once, {value:?}"));
            return None;
        }
        PlotModel::Lines {
            title,
            lines,
            log,
            met,
        } => (title, lines, *log, *met),
    };
    ui.label(title);
    let mut plot = egui_plot::Plot::new(("plot", id))
        .height(110.0)
        .width(width)
        .allow_scroll(false)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .include_x(0.0)
        .include_x(last)
        .link_axis(
            egui::Id::unique("cspace plots: shared step axis"),
            [true, false],
        )
        .link_cursor(
            egui::Id::unique("cspace plots: shared step axis"),
            [true, false],
        )
        .label_formatter(move |hover| {
            // Exact values near a sample; nothing elsewhere (no stray coordinates).
            let egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } = hover
            else {
                return None;
            };
            let value = if met == Some(position.y) {
                "0 or less: met exactly".to_owned()
            } else if log {
                format!("{:.17e}", 10f64.powf(position.y))
            } else {
                format!("{:.17e}", position.y)
            };
            Some(format!("{plot_name}\nstep {:.0}\n{value}", position.x))
        });
    if lines.len() > 1 {
        plot = plot.legend(
            egui_plot::Legend::default()
                .position(egui_plot::Corner::RightTop)
                .background_alpha(0.4),
        );
    }
    if log {
        plot = plot.y_axis_formatter(|mark, _range| format!("1e{:.0}", mark.value));
    }
    let response = plot.show(ui, |p| {
        for line in lines {
            // At most ~4000 points per line: decimate long series.
            let stride = (line.points.len() / 4000).max(1);
            let pts: Vec<[f64; 2]> = line.points.iter().step_by(stride).copied().collect();
            if pts.len() < 60 {
                p.points(egui_plot::Points::new(line.name.clone(), pts.clone()).radius(2.5));
            }
            let mut l = egui_plot::Line::new(line.name.clone(), pts);
            if line.other {
                l = l.style(egui_plot::LineStyle::dashed_loose());
            }
            p.line(l);
        }
        // Unnamed: the step line stays out of the legend.
        p.vline(egui_plot::VLine::new("", step).color(AMBER));
    });
    let r = &response.response;
    if !(r.clicked() || r.dragged()) {
        return None;
    }
    let pos = r.interact_pointer_pos()?;
    let x = response.transform.value_from_position(pos).x;
    // Steps are whole; the axis runs from 0 to the last.
    #[expect(clippy::cast_sign_loss, reason = "clamped to [0, last step] first")]
    let step = x.round().clamp(0.0, last) as u32;
    Some(step)
}
