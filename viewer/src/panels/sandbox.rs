//! The sandbox panel: presets, the query, algorithm and precision
//! selectors, typed numbers for every parameter with nudge buttons beside
//! each position and motion component, the results, and "Save as fixture".
//! Every control returns an [`Edit`]; the app applies it (which re-runs the
//! query).

use crate::state::sandbox::{Edit, Field, Nudge, SHAPE_KINDS, Sandbox, Side, presets};
use cspace::model::{Algorithm, Precision, QueryKind};
use cspace_recorder::ShapeGeom;
use egui::{Color32, DragValue, RichText};

const RED: Color32 = Color32::from_rgb(255, 110, 90);
const GREEN: Color32 = Color32::from_rgb(120, 220, 120);

/// The sandbox panel over the open sandbox.
#[derive(Debug)]
pub struct SandboxPanel<'a> {
    /// The sandbox.
    pub sandbox: &'a Sandbox,
}

impl SandboxPanel<'_> {
    /// Draws the panel; returns the edit made, if any.
    pub fn ui(&mut self, ui: &mut egui::Ui) -> Option<Edit> {
        let sb = self.sandbox;
        let mut edits = Edits(None);
        ui.heading(format!("Sandbox: {}", sb.origin));
        ui.horizontal_wrapped(|ui| {
            ui.label("Presets");
            for (name, _) in presets() {
                if ui.small_button(name).clicked() {
                    edits.push(Edit::LoadPreset(name));
                }
            }
        });
        ui.separator();
        selectors(ui, sb, &mut edits);
        ui.separator();
        results(ui, sb, &mut edits);
        save(ui, sb, &mut edits);
        ui.separator();
        body(ui, sb, Side::A, &mut edits);
        body(ui, sb, Side::B, &mut edits);
        if sb.query.query == QueryKind::Sweep {
            ui.strong("Motion of A");
            for (axis, label) in ["x", "y", "z"].into_iter().enumerate() {
                nudged_number(
                    ui,
                    sb,
                    &format!("motion {label}"),
                    Field::Translation(axis),
                    &mut edits,
                );
            }
        }
        edits.0
    }
}

/// The edit of this frame (one control changes per frame; a preset wins).
struct Edits(Option<Edit>);

impl Edits {
    fn push(&mut self, edit: Edit) {
        if !matches!(self.0, Some(Edit::LoadPreset(_))) {
            self.0 = Some(edit);
        }
    }
}

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
fn nudged_number(ui: &mut egui::Ui, sb: &Sandbox, label: &str, field: Field, edits: &mut Edits) {
    let Some(mut v) = field.get(&sb.query) else {
        return;
    };
    ui.horizontal(|ui| {
        let label = ui.label(label);
        if number_labelled(ui, &mut v, label.id) {
            edits.push(Edit::Set(field, v));
        }
        if let Some(n) = nudges(ui) {
            edits.push(Edit::Nudge(field, n));
        }
    });
}

/// The shape's parameters as typed numbers; returns whether any changed.
fn shape_params(ui: &mut egui::Ui, shape: &mut ShapeGeom) -> bool {
    match shape {
        ShapeGeom::Sphere { radius } => numbers(ui, "", &["radius"], std::slice::from_mut(radius)),
        ShapeGeom::Box { half_extents } => {
            numbers(ui, "half extents", &["x", "y", "z"], half_extents)
        }
        ShapeGeom::Capsule {
            half_height,
            radius,
        }
        | ShapeGeom::Cylinder {
            half_height,
            radius,
        }
        | ShapeGeom::Cone {
            half_height,
            radius,
        } => {
            let mut v = [*half_height, *radius];
            let changed = numbers(ui, "", &["half height", "radius"], &mut v);
            [*half_height, *radius] = v;
            changed
        }
        ShapeGeom::Hull { points } => {
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
        // A mesh (from a fixture) is shown by its type; its triangles have no editor.
        ShapeGeom::Point | ShapeGeom::Mesh { .. } => false,
    }
}

fn body(ui: &mut egui::Ui, sb: &Sandbox, side: Side, edits: &mut Edits) {
    let name = match side {
        Side::A => "A",
        Side::B => "B",
    };
    ui.strong(format!("Shape {name}"));
    // Type.
    let current = side.of(&sb.query).geom.kind();
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
    if kind != current
        && let Some(k) = SHAPE_KINDS.iter().find(|k| **k == kind)
    {
        edits.push(Edit::SetShapeKind(side, k));
    }
    // Parameters.
    let mut shape = side.of(&sb.query).geom.clone();
    if shape_params(ui, &mut shape) {
        edits.push(Edit::SetShape(side, shape));
    }
    let mut m = [side.of(&sb.query).margin];
    if numbers(ui, "", &["margin"], &mut m) {
        edits.push(Edit::Set(Field::Margin(side), m[0]));
    }
    // Pose.
    for (axis, label) in ["x", "y", "z"].into_iter().enumerate() {
        nudged_number(
            ui,
            sb,
            &format!("{name} position {label}"),
            Field::Position(side, axis),
            edits,
        );
    }
    let mut r = side.of(&sb.query).rotation;
    ui.label("rotation (unit quaternion)");
    ui.horizontal(|ui| {
        if numbers(ui, "", &["x", "y", "z", "w"], &mut r) {
            edits.push(Edit::SetRotation(side, r));
        }
        if ui
            .small_button(format!("Normalise {name}"))
            .on_hover_text("divide the quaternion by its norm")
            .clicked()
        {
            let n = r.iter().map(|c| c * c).sum::<f64>().sqrt();
            if n > 0.0 {
                edits.push(Edit::SetRotation(side, r.map(|c| c / n)));
            }
        }
    });
    let mut aa = sb.axis_angle[side as usize];
    ui.label("rotation (axis and angle)");
    if numbers(ui, "", &["x", "y", "z", "deg"], &mut aa) {
        edits.push(Edit::SetAxisAngle(
            side,
            [aa[0], aa[1], aa[2]],
            aa[3].to_radians(),
        ));
    }
    ui.separator();
}

fn selectors(ui: &mut egui::Ui, sb: &Sandbox, edits: &mut Edits) {
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
                    QueryKind::SignedDistance,
                    QueryKind::Sweep,
                ] {
                    ui.selectable_value(&mut kind, k, k.to_string());
                }
            })
            .response
            .labelled_by(label.id);
        if kind != sb.query.query {
            edits.push(Edit::SetKind(kind));
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
            edits.push(Edit::SetAlgorithm(alg));
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
            edits.push(Edit::SetPrecision(p));
        }
    });
}

fn results(ui: &mut egui::Ui, sb: &Sandbox, edits: &mut Edits) {
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
    if numbers(ui, "", &["relative tolerance"], &mut tol) {
        edits.push(Edit::SetTolerance(tol[0]));
    }
    ui.label(RichText::new(sb.answer_text()).monospace().small());
}

fn save(ui: &mut egui::Ui, sb: &Sandbox, edits: &mut Edits) {
    let mut dir = sb.save_dir.display().to_string();
    ui.horizontal(|ui| {
        let label = ui.label("Fixture folder");
        if ui
            .text_edit_singleline(&mut dir)
            .labelled_by(label.id)
            .changed()
        {
            edits.push(Edit::SetSaveDir(dir.trim().into()));
        }
    });
    if ui
        .button("Save as fixture")
        .on_hover_text(
            "write the query, its answer and recording as a fixture `cspace replay` checks",
        )
        .clicked()
    {
        edits.push(Edit::SaveFixture);
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
