//! Draws the [`Sandbox`] panel: presets, the query, algorithm and precision
//! selectors, typed numbers for every parameter with nudge buttons beside
//! each position and motion component, the results panel, and "Save as
//! fixture". Every control edits the sandbox, which re-runs the query.

use crate::state::sandbox::{Field, Nudge, SHAPE_KINDS, Sandbox, Side, margin_of, presets};
use cspace::query::{Algorithm, Precision, QueryKind, ShapeSpec};
use egui::{Color32, DragValue, RichText};

/// What a frame of the panel did to the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing re-ran.
    None,
    /// The query was edited and re-ran: show the new recording at the same step.
    Edited,
    /// A preset replaced the query: show it and frame the views.
    Replaced,
}

const RED: Color32 = Color32::from_rgb(255, 110, 90);
const GREEN: Color32 = Color32::from_rgb(120, 220, 120);

/// A typed number: shows the shortest decimal that reads back as the same
/// `f64` and parses typed text exactly; named by the label `label` (for
/// screen readers and tests). Returns whether it changed.
fn number_labelled(ui: &mut egui::Ui, v: &mut f64, label: egui::Id) -> bool {
    drag_value(ui, v).labelled_by(label).changed()
}

fn drag_value(ui: &mut egui::Ui, v: &mut f64) -> egui::Response {
    let speed = (v.abs() * 1e-3).max(1e-3);
    ui.add(
        DragValue::new(v)
            .speed(speed)
            .custom_formatter(|x, _| format!("{x}"))
            .custom_parser(|s| s.trim().parse::<f64>().ok()),
    )
}

/// A row of numbers after `label`, each named by its entry of `names`;
/// returns whether any changed.
fn numbers(ui: &mut egui::Ui, label: &str, names: &[&str], values: &mut [f64]) -> bool {
    let mut changed = false;
    ui.horizontal(|ui| {
        if !label.is_empty() {
            ui.label(label);
        }
        for (name, v) in names.iter().zip(values.iter_mut()) {
            let name = ui.weak(*name);
            changed |= number_labelled(ui, v, name.id);
        }
    });
    changed
}

/// The four nudge buttons; returns the nudge pressed.
fn nudges(ui: &mut egui::Ui) -> Option<Nudge> {
    let mut pressed = None;
    for (label, tip, n) in [
        (
            "−ulp",
            "down by one ULP in the query's precision",
            Nudge::UlpDown,
        ),
        (
            "+ulp",
            "up by one ULP in the query's precision",
            Nudge::UlpUp,
        ),
        ("−1e-6", "down by 1e-6", Nudge::Down),
        ("+1e-6", "up by 1e-6", Nudge::Up),
    ] {
        if ui.small_button(label).on_hover_text(tip).clicked() {
            pressed = Some(n);
        }
    }
    pressed
}

/// One component with its nudges: `label value −ulp +ulp −1e-6 +1e-6`.
fn nudged_number(ui: &mut egui::Ui, sb: &mut Sandbox, label: &str, field: Field) -> bool {
    let Some(mut v) = field.get(&sb.query) else {
        return false;
    };
    let mut ran = false;
    ui.horizontal(|ui| {
        let label = ui.label(label);
        if number_labelled(ui, &mut v, label.id) {
            ran |= sb.set(field, v);
        }
        if let Some(n) = nudges(ui) {
            ran |= sb.nudge(field, n);
        }
    });
    ran
}

/// The shape's parameters as typed numbers; returns whether any changed.
fn shape_params(ui: &mut egui::Ui, shape: &mut ShapeSpec) -> bool {
    match shape {
        ShapeSpec::Sphere { radius, .. } => {
            numbers(ui, "", &["radius"], std::slice::from_mut(radius))
        }
        ShapeSpec::Box { half_extents, .. } => {
            numbers(ui, "half extents", &["x", "y", "z"], half_extents)
        }
        ShapeSpec::Capsule {
            half_height,
            radius,
            ..
        }
        | ShapeSpec::Cylinder {
            half_height,
            radius,
            ..
        }
        | ShapeSpec::Cone {
            half_height,
            radius,
            ..
        } => {
            let mut v = [*half_height, *radius];
            let changed = numbers(ui, "", &["half height", "radius"], &mut v);
            [*half_height, *radius] = v;
            changed
        }
        ShapeSpec::Hull { points, .. } => {
            let mut changed = false;
            let mut remove = None;
            for (i, p) in points.iter_mut().enumerate() {
                ui.horizontal(|ui| {
                    changed |= numbers(ui, &format!("point {i}"), &["x", "y", "z"], p);
                    if ui
                        .small_button("×")
                        .on_hover_text("remove this point")
                        .clicked()
                    {
                        remove = Some(i);
                    }
                });
            }
            if let Some(i) = remove
                && points.len() > 1
            {
                points.remove(i);
                changed = true;
            }
            if ui.small_button("Add point").clicked() {
                let last = points.last().copied().unwrap_or([0.0; 3]);
                points.push([last[0] + 0.5, last[1], last[2]]);
                changed = true;
            }
            changed
        }
        ShapeSpec::Point { .. } => false,
    }
}

fn body(ui: &mut egui::Ui, sb: &mut Sandbox, side: Side) -> bool {
    let name = match side {
        Side::A => "A",
        Side::B => "B",
    };
    let mut ran = false;
    ui.strong(format!("Shape {name}"));
    // Type.
    let current = side.of(&sb.query).shape.type_name();
    let mut kind = current;
    let label = ui.label(format!("{name} type"));
    egui::ComboBox::from_id_salt(("shape", name))
        .selected_text(kind)
        .show_ui(ui, |ui| {
            for k in SHAPE_KINDS {
                ui.selectable_value(&mut kind, k, k);
            }
        })
        .response
        .labelled_by(label.id);
    if kind != current {
        ran |= sb.set_shape_kind(side, kind);
    }
    // Parameters.
    let mut shape = side.of(&sb.query).shape.clone();
    if shape_params(ui, &mut shape) {
        ran |= sb.edit(|q| side.of_mut(q).shape = shape);
    }
    let mut m = [margin_of(&side.of(&sb.query).shape).unwrap_or(0.0)];
    if numbers(ui, "", &["margin"], &mut m) {
        ran |= sb.set(Field::Margin(side), m[0]);
    }
    // Pose.
    for (axis, label) in ["x", "y", "z"].into_iter().enumerate() {
        ran |= nudged_number(
            ui,
            sb,
            &format!("{name} position {label}"),
            Field::Position(side, axis),
        );
    }
    let mut r = side.of(&sb.query).rotation;
    ui.label("rotation (unit quaternion)");
    ui.horizontal(|ui| {
        if numbers(ui, "", &["x", "y", "z", "w"], &mut r) {
            ran |= sb.edit(|q| side.of_mut(q).rotation = r);
        }
        if ui
            .small_button(format!("Normalise {name}"))
            .on_hover_text("divide the quaternion by its norm")
            .clicked()
        {
            let n = r.iter().map(|c| c * c).sum::<f64>().sqrt();
            if n > 0.0 {
                ran |= sb.edit(|q| side.of_mut(q).rotation = r.map(|c| c / n));
            }
        }
    });
    let mut aa = sb.axis_angle[side as usize];
    ui.label("rotation (axis and angle)");
    if numbers(ui, "", &["x", "y", "z", "deg"], &mut aa) {
        ran |= sb.set_axis_angle(side, [aa[0], aa[1], aa[2]], aa[3].to_radians());
    }
    ui.separator();
    ran
}

fn selectors(ui: &mut egui::Ui, sb: &mut Sandbox) -> bool {
    let mut ran = false;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Query");
        let mut kind = sb.query.query;
        egui::ComboBox::from_id_salt("query kind")
            .selected_text(kind.to_string())
            .show_ui(ui, |ui| {
                for k in [
                    QueryKind::Distance,
                    QueryKind::Intersect,
                    QueryKind::Penetration,
                    QueryKind::Sweep,
                ] {
                    ui.selectable_value(&mut kind, k, k.to_string());
                }
            })
            .response
            .labelled_by(label.id);
        if kind != sb.query.query {
            ran |= sb.set_kind(kind);
        }
        let label = ui.label("Algorithm");
        let mut alg = sb.query.resolved_algorithm();
        egui::ComboBox::from_id_salt("algorithm")
            .selected_text(alg.to_string())
            .show_ui(ui, |ui| {
                for a in Algorithm::valid_for(sb.query.query) {
                    ui.selectable_value(&mut alg, *a, a.to_string());
                }
            })
            .response
            .labelled_by(label.id);
        if alg != sb.query.resolved_algorithm() {
            ran |= sb.edit(|q| q.algorithm = Some(alg));
        }
        let label = ui.label("Precision");
        let mut p = sb.query.precision;
        egui::ComboBox::from_id_salt("precision")
            .selected_text(match p {
                Precision::F64 => "f64",
                Precision::F32 => "f32",
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p, Precision::F64, "f64");
                ui.selectable_value(&mut p, Precision::F32, "f32");
            })
            .response
            .labelled_by(label.id);
        if p != sb.query.precision {
            ran |= sb.set_precision(p);
        }
    });
    ran
}

fn results(ui: &mut egui::Ui, sb: &mut Sandbox) -> bool {
    ui.strong("Results");
    if let Some(e) = &sb.error {
        ui.colored_label(
            RED,
            format!("invalid query: {e} (showing the last valid query's results)"),
        );
    }
    let c = &sb.run.comparison;
    egui::Grid::new("comparison").num_columns(2).show(ui, |ui| {
        ui.label(c.quantity);
        ui.label(&c.answer);
        ui.end_row();
        ui.label("reference");
        ui.label(format!("{}: {}", c.reference_name, c.reference));
        ui.end_row();
        ui.label("difference");
        let text = c
            .difference
            .map_or_else(|| "(one has no answer)".to_owned(), |d| format!("{d:e}"));
        let colour = if c.flagged { RED } else { GREEN };
        ui.label(RichText::new(text).color(colour).strong());
        ui.end_row();
    });
    ui.colored_label(
        if c.flagged { RED } else { GREEN },
        if c.flagged {
            "DISAGREE: the two algorithms differ beyond the tolerance"
        } else {
            "agree within the tolerance"
        },
    );
    let mut tol = [sb.tolerance];
    let mut ran = false;
    if numbers(ui, "", &["relative tolerance"], &mut tol) {
        sb.tolerance = tol[0];
        ran = sb.rerun();
    }
    ui.label(RichText::new(sb.answer_text()).monospace().small());
    ran
}

fn save(ui: &mut egui::Ui, sb: &mut Sandbox) {
    let mut dir = sb.save_dir.display().to_string();
    ui.horizontal(|ui| {
        let label = ui.label("Fixture folder");
        if ui
            .text_edit_singleline(&mut dir)
            .labelled_by(label.id)
            .changed()
        {
            sb.save_dir = dir.trim().into();
        }
    });
    if ui
        .button("Save as fixture")
        .on_hover_text(
            "write the query, its answer and recording as a fixture `cspace replay` checks",
        )
        .clicked()
    {
        sb.saved = Some(sb.save_fixture());
    }
    match &sb.saved {
        Some(Ok(p)) => {
            ui.colored_label(GREEN, format!("saved {}", p.display()));
        }
        Some(Err(e)) => {
            ui.colored_label(RED, format!("not saved: {e}"));
        }
        None => {}
    }
}

/// Draws the sandbox panel; returns what changed.
pub fn panel(ui: &mut egui::Ui, sb: &mut Sandbox) -> Change {
    let mut change = Change::None;
    let mut ran = false;
    ui.heading(format!("Sandbox: {}", sb.origin));
    ui.horizontal_wrapped(|ui| {
        ui.label("Presets");
        for (name, _) in presets() {
            if ui.small_button(name).clicked() && sb.load_preset(name) {
                change = Change::Replaced;
            }
        }
    });
    ui.separator();
    ran |= selectors(ui, sb);
    ui.separator();
    ran |= results(ui, sb);
    save(ui, sb);
    ui.separator();
    ran |= body(ui, sb, Side::A);
    ran |= body(ui, sb, Side::B);
    if sb.query.query == QueryKind::Sweep {
        ui.strong("Motion of A");
        for (axis, label) in ["x", "y", "z"].into_iter().enumerate() {
            ran |= nudged_number(ui, sb, &format!("motion {label}"), Field::Translation(axis));
        }
    }
    if change == Change::None && ran {
        change = Change::Edited;
    }
    change
}
