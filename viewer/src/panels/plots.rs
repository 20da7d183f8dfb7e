//! The plots of the recording's `value!` series, with the current step marked.

use super::AMBER;
use crate::state::session::Session;

/// Draws one small plot per series, three to a row.
pub fn plots(ui: &mut egui::Ui, session: &Session) {
    let trace = &session.trace;
    if trace.series.is_empty() {
        ui.weak("no value! series recorded");
        return;
    }
    let step = f64::from(trace.step_at(session.timeline.cursor()));
    egui::ScrollArea::vertical()
        .id_salt("plots")
        .show(ui, |ui| {
            let per_row = trace.series.len().min(3);
            let width = (ui.available_width() / per_row as f32 - 10.0).max(150.0);
            for (row, chunk) in trace.series.chunks(per_row).enumerate() {
                ui.horizontal(|ui| {
                    for (j, s) in chunk.iter().enumerate() {
                        let i = row * per_row + j;
                        ui.vertical(|ui| {
                            ui.set_width(width);
                            ui.label(&s.name);
                            // At most ~4000 points per line: decimate long series.
                            let stride = (s.points.len() / 4000).max(1);
                            let pts: Vec<[f64; 2]> = s
                                .points
                                .iter()
                                .step_by(stride)
                                .filter(|p| p[1].is_finite())
                                .copied()
                                .collect();
                            egui_plot::Plot::new(("plot", i))
                                .height(110.0)
                                .width(width)
                                .allow_scroll(false)
                                .show(ui, |p| {
                                    if pts.len() < 60 {
                                        p.points(
                                            egui_plot::Points::new(s.name.clone(), pts.clone())
                                                .radius(2.5),
                                        );
                                    }
                                    p.line(egui_plot::Line::new(s.name.clone(), pts));
                                    p.vline(egui_plot::VLine::new("step", step).color(AMBER));
                                });
                        });
                    }
                });
            }
        });
}
