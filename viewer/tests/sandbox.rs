//! Sandbox UI tests: open the sandbox, change a pose by typing a number and
//! by pressing nudge buttons by their labels, apply a preset, save the query
//! as a fixture and open that fixture in the sandbox again; pick signed
//! distance and see its answer beside its reference.

use cspace::model::{Answer, Outcome, Precision, Query, QueryKind};
use cspace_recorder::{ShapeDecl, ShapeGeom};
use cspace_viewer::app::{Opened, ViewerApp};
use cspace_viewer::state::sandbox::Sandbox;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn harness(app: ViewerApp) -> Harness<'static, ViewerApp> {
    Harness::builder()
        .with_size(egui::vec2(1600.0, 1400.0))
        .with_max_steps(40)
        .wgpu()
        .build_eframe(|_cc| app)
}

fn sphere_at(x: f64) -> ShapeDecl {
    ShapeDecl::new(ShapeGeom::Sphere { radius: 1.0 }).at([x, 0.0, 0.0], ShapeDecl::IDENTITY)
}

/// Two unit spheres 3 apart (distance 1).
fn spheres() -> Sandbox {
    let q = Query {
        id: None,
        query: QueryKind::Distance,
        precision: Precision::F64,
        algorithm: None,
        a: sphere_at(0.0),
        b: sphere_at(3.0),
        translation: None,
    };
    Sandbox::new(q, "spheres").expect("valid query")
}

fn distance(app: &ViewerApp) -> f64 {
    match &app.sandbox().expect("sandbox open").run.answer {
        Ok(Answer {
            outcome: Outcome::Distance { distance, .. },
            ..
        }) => *distance,
        other => panic!("not a distance: {other:?}"),
    }
}

fn sandbox_app(sb: Sandbox) -> ViewerApp {
    let mut app = ViewerApp::new(None, None, None);
    app.open_sandbox(sb);
    app
}

#[test]
fn typing_a_position_reruns_the_query() {
    let mut h = harness(sandbox_app(spheres()));
    h.run();
    assert!((distance(h.state()) - 1.0).abs() < 1e-9);
    h.get_by_role_and_label(Role::SpinButton, "B position x")
        .focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("5.5".to_owned()));
    h.key_press(Key::Enter);
    h.run();
    let app = h.state();
    assert_eq!(app.sandbox().map(|s| s.query.b.position[0]), Some(5.5));
    assert!((distance(app) - 3.5).abs() < 1e-9, "{}", distance(app));
    assert_eq!(app.opened(), Opened::Sandbox);
    // The view shows the new recording.
    assert_eq!(
        app.session.trace.len(),
        cspace_viewer::state::trace::Trace::from_bytes(&app.sandbox().unwrap().run.recording).len()
    );
}

#[test]
fn nudge_buttons_move_a_position() {
    let mut h = harness(sandbox_app(spheres()));
    h.run();
    // Rows in order: A x, A y, A z, B x, B y, B z; B x is the fourth.
    h.get_all_by_label("+1e-6")
        .nth(3)
        .expect("B x +1e-6")
        .click();
    h.run();
    let sb = h.state().sandbox().expect("open");
    assert_eq!(sb.query.b.position[0], 3.0 + 1e-6);
    assert!((distance(h.state()) - (1.0 + 1e-6)).abs() < 1e-12);
    let generation = sb.generation;
    h.get_all_by_label("+ulp").nth(3).expect("B x +ulp").click();
    h.run();
    let sb = h.state().sandbox().expect("open");
    assert_eq!(
        sb.query.b.position[0].to_bits(),
        (3.0f64 + 1e-6).to_bits() + 1
    );
    assert_eq!(sb.generation, generation + 1);
    h.get_all_by_label("−ulp").next().expect("A x −ulp").click();
    h.run();
    let sb = h.state().sandbox().expect("open");
    assert_eq!(sb.query.a.position[0], -f64::from_bits(1));
}

#[test]
fn preset_buttons_load_the_preset() {
    let mut h = harness(sandbox_app(spheres()));
    h.run();
    h.get_by_label("Deep overlap").click();
    h.run();
    let app = h.state();
    let sb = app.sandbox().expect("open");
    assert_eq!(sb.origin, "Deep overlap");
    assert_eq!(sb.query.query, QueryKind::Penetration);
    assert!(app.session.title.contains("Deep overlap"));
    assert!(h.query_by_label_contains("reference").is_some());
    h.get_by_label("Long thin boxes").click();
    h.run();
    let sb = h.state().sandbox().expect("open");
    assert_eq!(sb.query.a.geom.kind(), "box");
}

#[test]
fn save_as_fixture_then_open_it_in_the_sandbox() {
    let dir = std::env::temp_dir().join(format!("cspace-sandbox-ui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut sb = Sandbox::preset("Grazing contact").expect("preset");
    sb.save_dir.clone_from(&dir);
    let query = sb.query.clone();
    let mut h = harness(sandbox_app(sb));
    h.run();
    h.get_by_label("Save as fixture").click();
    h.run();
    let saved = h
        .state()
        .sandbox()
        .and_then(|s| s.saved.clone())
        .expect("saved")
        .expect("written");
    assert!(saved.starts_with(&dir) && saved.is_file());
    let _shown = h.get_by_label_contains("saved ");
    // Open the fixture, then "Sandbox → Open fixture in sandbox".
    h.state_mut().open_path(&saved);
    h.run();
    assert!(h.state().fixture().is_some() && h.state().sandbox().is_none());
    h.get_by_label("Sandbox").click();
    h.run();
    h.get_by_label("Open fixture in sandbox").click();
    h.run();
    let app = h.state();
    let sb = app.sandbox().expect("sandbox open");
    assert_eq!(sb.query, query);
    assert!(sb.origin.starts_with("fixture sandbox-grazing_contact"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_drag_in_object_space_moves_b() {
    let mut h = harness(sandbox_app(spheres()));
    h.run();
    let left = h.get_by_label("Frame all").rect().left();
    let right = h.get_by_label("Inspector").rect().left();
    let top = h.get_by_label("Frame all").rect().bottom();
    let p0 = egui::pos2(left + 0.75 * (right - left), top + 300.0);
    let before = h.state().sandbox().expect("open").query.clone();
    h.event(egui::Event::ModifiersChanged(Modifiers::COMMAND));
    h.hover_at(p0);
    h.drag_at(p0);
    h.run();
    for i in 1..=4u8 {
        h.hover_at(p0 + egui::vec2(10.0 * f32::from(i), 0.0));
        h.run();
    }
    h.drop_at(p0 + egui::vec2(40.0, 0.0));
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    let app = h.state();
    let q = &app.sandbox().expect("open").query;
    assert_eq!(q.a.position, before.a.position, "A stays");
    assert_ne!(q.b.position, before.b.position, "B follows the drag");
    assert!((distance(app) - 1.0).abs() > 1e-6, "{}", distance(app));
}

#[test]
fn picking_signed_distance_shows_its_answer_and_reference() {
    let mut h = harness(sandbox_app(spheres()));
    h.run();
    h.get_by_role_and_label(Role::ComboBox, "Query").click();
    h.run();
    h.get_by_label("signed_distance").click();
    h.run();
    let signed = |app: &ViewerApp| match &app.sandbox().expect("sandbox open").run.answer {
        Ok(Answer {
            outcome: Outcome::SignedDistance { distance, .. },
            ..
        }) => *distance,
        other => panic!("not a signed distance: {other:?}"),
    };
    assert_eq!(
        h.state().sandbox().map(|s| s.query.query),
        Some(QueryKind::SignedDistance)
    );
    assert!((signed(h.state()) - 1.0).abs() < 1e-9);
    // The results panel names the quantity and the reference, and they agree.
    let _quantity = h.get_by_label("signed distance");
    let _reference = h.get_by_label_contains("ca sweep along its normal");
    let _agree = h.get_by_label("agree within the tolerance");
    // Overlapping by 0.5: −0.5, still agreeing with the reference.
    h.get_by_role_and_label(Role::SpinButton, "B position x")
        .focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.event(egui::Event::Text("1.5".to_owned()));
    h.key_press(Key::Enter);
    h.run();
    assert!(
        (signed(h.state()) + 0.5).abs() < 1e-9,
        "{}",
        signed(h.state())
    );
    let _answer = h.get_by_label_contains("epa: -5.0");
    let _agree = h.get_by_label("agree within the tolerance");
}
