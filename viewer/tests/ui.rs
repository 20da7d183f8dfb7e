//! UI tests: press the step buttons and keys by their labels and check the
//! state; image snapshots of both views (wgpu, headless on Mesa's software
//! Vulkan; refresh with `UPDATE_SNAPSHOTS=1`).

use cspace_viewer::app::{Opened, ViewerApp};
use cspace_viewer::timeline::Command;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use std::path::PathBuf;

fn demo_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, cspace_viewer::demo::recording()).unwrap();
    path
}

fn harness(app: ViewerApp) -> Harness<'static, ViewerApp> {
    sized(app, 1200.0, 760.0)
}

fn sized(app: ViewerApp, w: f32, h: f32) -> Harness<'static, ViewerApp> {
    Harness::builder()
        .with_size(egui::vec2(w, h))
        .with_max_steps(40)
        .wgpu()
        .build_eframe(|_cc| app)
}

fn step(h: &Harness<'_, ViewerApp>) -> u32 {
    let s = &h.state().session;
    s.trace.step_at(s.timeline.cursor())
}

#[test]
fn buttons_step_through_the_recording() {
    let path = demo_file("buttons.cspace");
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    assert_eq!(step(&h), 1, "opens at the first step");
    h.get_by_label("Next step").click();
    h.run();
    assert_eq!(step(&h), 2);
    h.get_by_label("Prev step").click();
    h.run();
    assert_eq!(step(&h), 1);
    let c = h.state().session.timeline.cursor();
    h.get_by_label("Next event").click();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), c + 1);
    h.get_by_label("Prev event").click();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), c);
    h.get_by_label("Last").click();
    h.run();
    let n = h.state().session.trace.len();
    assert_eq!(h.state().session.timeline.cursor(), n);
    h.get_by_label("First").click();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), 0);
    // Into the first scope, then out of it, then over the next one.
    h.get_by_label("Step into").click();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), 1);
    let first_scope = (0..n)
        .find(|&i| h.state().session.trace.describe(i).starts_with("scope"))
        .unwrap();
    h.state_mut().command(Command::Seek(first_scope + 1));
    h.get_by_label("Step out").click();
    h.run();
    let after_out = h.state().session.timeline.cursor();
    assert!(after_out > first_scope + 1);
    assert!(
        h.state()
            .session
            .trace
            .describe(after_out - 1)
            .starts_with("end")
    );
    h.state_mut().command(Command::Seek(first_scope));
    h.get_by_label("Step over").click();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), after_out);
    h.get_by_label("Play").click();
    h.run_steps(2);
    assert!(h.state().session.timeline.playing());
    h.get_by_label("Pause").click();
    h.run_steps(2);
    assert!(!h.state().session.timeline.playing());
    assert!(h.query_by_label_contains("step ").is_some());
}

#[test]
fn keys_step_through_the_recording() {
    let path = demo_file("keys.cspace");
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(step(&h), 2);
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(step(&h), 1);
    let c = h.state().session.timeline.cursor();
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), c + 1);
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), c);
    h.key_press(Key::End);
    h.run();
    assert_eq!(
        h.state().session.timeline.cursor(),
        h.state().session.trace.len()
    );
    h.key_press(Key::Home);
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), 0);
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(h.state().session.timeline.playing());
}

#[test]
fn clicking_a_log_line_jumps_there() {
    let path = demo_file("log.cspace");
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    h.get_by_label_contains("iteration 1:").click();
    h.run();
    let s = &h.state().session;
    let e = s.timeline.current_event().unwrap();
    assert!(s.trace.describe(e).starts_with("iteration 1:"));
}

#[test]
fn damaged_file_shows_a_banner() {
    let path = demo_file("damaged.cspace");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    let _banner = h.get_by_label_contains("Damaged recording");
    assert!(
        h.query_by_label_contains("truncated at byte").is_some()
            || h.query_by_label_contains("corrupt").is_some()
    );
    assert!(!h.state().session.trace.is_empty());
}

#[test]
fn reload_keeps_the_step() {
    let path = demo_file("reload.cspace");
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    h.key_press(Key::ArrowRight);
    h.key_press(Key::ArrowRight);
    h.run();
    assert_eq!(step(&h), 3);
    cspace_recorder::write_atomic(&path, &cspace_viewer::demo::recording()).unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut reloaded = false;
    while !reloaded && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
        reloaded = h.state_mut().poll_changes();
    }
    assert!(reloaded);
    assert_eq!(step(&h), 3);
}

#[test]
fn snapshots_of_both_views() {
    let path = demo_file("snapshot.cspace");
    let mut app = ViewerApp::new(None, Some(&path), None);
    app.command(Command::SeekStep(4));
    // Only the two views, to keep the image small.
    let mut h = Harness::builder()
        .with_size(egui::vec2(640.0, 300.0))
        .wgpu()
        .build_ui_state(
            |ui, app: &mut ViewerApp| {
                egui::CentralPanel::default().show(ui, |ui| app.views(ui));
            },
            app,
        );
    h.run();
    h.snapshot("views_demo_step4");
    // Hovering a configuration-space simplex vertex highlights its pair.
    let s = &h.state().session;
    assert_eq!(s.visible.simplices.len(), 1);
}

#[test]
fn folder_lists_recordings_and_updates() {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.cspace"), cspace_viewer::demo::recording()).unwrap();
    let mut h = harness(ViewerApp::new(None, Some(&dir), None));
    h.run();
    assert_eq!(h.state().opened, Opened::File(dir.join("a.cspace")));
    std::fs::write(dir.join("b.cspace"), cspace_viewer::demo::recording()).unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while h.query_by_label("b.cspace").is_none() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run();
    }
    h.get_by_label("b.cspace").click();
    h.run();
    assert_eq!(h.state().opened, Opened::File(dir.join("b.cspace")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn file_open_window_opens_a_typed_path() {
    let path = demo_file("typed.cspace");
    let mut h = harness(ViewerApp::new(None, None, None));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open…").click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open path").click();
    h.run();
    assert_eq!(h.state().opened, Opened::File(path));
}

/// A recording full of hostile values: NaN and infinite coordinates, huge
/// shapes, an empty hull, a simplex with too many vertices, stray pops.
fn hostile() -> Vec<u8> {
    use cspace_recorder::{
        CsoVertex, Event, Scalar, ShapeDecl, ShapeGeom, SiteDef, Space, Vec3Data,
    };
    let site = |id: u32| {
        Event::Site(SiteDef {
            id,
            file: "hostile.rs".into(),
            line: id,
            label: format!("s{id}"),
        })
    };
    let decl = |geom: ShapeGeom, p: f64, q: f64| ShapeDecl {
        geom,
        margin: p,
        position: [p, q, -p],
        rotation: [q, 0.0, 0.0, q],
    };
    let bad = [f64::NAN, f64::INFINITY, -f64::INFINITY, 1e308, -1e-320, 0.0];
    let mut events = vec![site(0), site(1), Event::Pop { site: 1 }];
    for (i, &x) in bad.iter().enumerate() {
        let v = Vec3Data::F64([x, 1.0, -x]);
        let w = Vec3Data::F32([x as f32, 2.0, 0.0]);
        events.extend([
            Event::Shapes {
                site: 0,
                a: Box::new(decl(ShapeGeom::Hull { points: vec![] }, x, 1.0)),
                b: Box::new(decl(
                    ShapeGeom::Box {
                        half_extents: [x, -1.0, 1.0],
                    },
                    1.0,
                    x,
                )),
                motion: Some([x, 0.0, 0.0]),
            },
            Event::Push { site: 1 },
            Event::Point {
                site: 7,
                space: Space::Config,
                color: None,
                p: v,
            },
            Event::Line {
                site: 1,
                space: Space::Object,
                color: None,
                a: v,
                b: w,
            },
            Event::Triangle {
                site: 1,
                space: Space::Config,
                color: None,
                v: [v, w, v],
            },
            Event::Simplex {
                site: 1,
                vertices: vec![CsoVertex { w: v, a: w, b: v }; 9],
            },
            Event::Value {
                site: 1,
                value: Scalar::F64(x),
            },
            Event::Text {
                site: 99,
                text: "\u{0}\u{202e}weird text".into(),
            },
            Event::Pause { site: 1 },
        ]);
        if i % 2 == 0 {
            events.push(Event::Pop { site: 1 });
        }
    }
    cspace_recorder::stream::encode_stream(&events)
}

#[test]
fn hostile_values_do_not_crash() {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hostile.cspace");
    std::fs::write(&path, hostile()).unwrap();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .with_max_steps(40)
        .allow_missing_glyphs()
        .wgpu()
        .build_eframe(|_cc| ViewerApp::new(None, Some(&path), None));
    h.run();
    h.key_press(Key::Home);
    let n = h.state().session.trace.len();
    for _ in 0..=n {
        h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowRight);
        h.run();
    }
    assert_eq!(h.state().session.timeline.cursor(), n);
    h.get_by_label("Frame all").click();
    h.run();
    let _ = h.render().unwrap();
    // Random damage to a real recording opens whatever prefix is valid.
    let good = cspace_viewer::demo::recording();
    let mut x: u64 = 0x1234_5678_9abc_def1;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bytes = good.clone();
        let at = (x as usize) % bytes.len();
        bytes[at] ^= (x >> 32) as u8 | 1;
        bytes.truncate(bytes.len() - (x >> 40) as usize % 64);
        let mut s = cspace_viewer::session::Session::new(
            cspace_viewer::trace::Trace::from_bytes(&bytes),
            "fuzz",
        );
        s.command(Command::Last);
        s.frame_all(cspace_viewer::session::View::Config);
        let _ = cspace_viewer::app::build_frame(
            &mut s,
            cspace_viewer::session::View::Object,
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(300.0, 300.0)),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
