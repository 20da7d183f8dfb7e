//! UI tests: press the step buttons and keys by their labels and check the
//! state; image snapshots of both views (wgpu, headless on Mesa's software
//! Vulkan; refresh with `UPDATE_SNAPSHOTS=1`).
//!
//! (~700 lines: the whole app driven through its UI, one test per behaviour.)

use cspace_viewer::app::{Opened, ViewerApp};
use cspace_viewer::state::live::LiveState;
use cspace_viewer::state::session::View;
use cspace_viewer::state::timeline::Command;
use cspace_viewer::state::trace::Entry;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use std::path::PathBuf;

fn demo_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, cspace_viewer::state::demo::recording()).unwrap();
    path
}

/// A wgpu renderer with the views' pipelines installed, for harnesses that
/// draw the views without the app (whose `logic` installs them otherwise).
fn gpu() -> egui_kittest::wgpu::WgpuTestRenderer {
    let render_state = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        eframe::egui_wgpu::RendererOptions::PREDICTABLE,
    );
    cspace_viewer::paint::gpu::install(&render_state);
    egui_kittest::wgpu::WgpuTestRenderer::from_render_state(render_state)
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

/// Asserts that one event step moved the cursor from `from` to just after the
/// next event that is not a call-site definition (those are passed over).
fn assert_one_event_after(h: &Harness<'_, ViewerApp>, from: u32) {
    let s = &h.state().session;
    let to = s.timeline.cursor();
    assert!(to > from, "moved forward: {from} → {to}");
    let is_site = |i: u32| matches!(s.trace.entries[i as usize], Entry::Site);
    assert!(!is_site(to - 1), "lands after a real event");
    assert!(
        (from..to - 1).all(is_site),
        "passes over site definitions only"
    );
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
    assert_one_event_after(&h, c);
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
    assert_one_event_after(&h, 0);
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
fn the_status_is_never_a_frame_behind_a_step_button() {
    let path = demo_file("status.cspace");
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    let steps = h.state().session.trace.steps();
    let _ = h.get_by_label_contains(&format!("step 1 of {steps}"));
    // One frame after the click (what `step` renders), not two.
    h.get_by_label("Next step").click();
    h.step();
    assert_eq!(step(&h), 2);
    let _ = h.get_by_label_contains(&format!("step 2 of {steps}"));
    h.key_press(Key::ArrowRight);
    h.step();
    let _ = h.get_by_label_contains(&format!("step 3 of {steps}"));
}

#[test]
fn the_smallest_window_keeps_every_panel_usable() {
    // 1024×640, the viewer's minimum window: a fixture with its table, the
    // log, the plots and the inspector all present and operable.
    let mut h = sized(
        ViewerApp::new(None, Some(&example_fixture()), None),
        1024.0,
        640.0,
    );
    h.run();
    let _ = h.get_by_label("Inspector");
    let _ = h.get_by_label("upper bound");
    assert!(
        h.query_all_by_label_contains("pause after reduce — ")
            .count()
            >= 2,
        "log rows with their values"
    );
    h.get_by_label("Next step").click();
    h.run();
    assert_eq!(step(&h), 2);
    h.get_by_label("Re-run with current code").click();
    h.run();
    assert!(
        h.state().rerun().is_some(),
        "the fixture's buttons stay reachable"
    );
    let _ = h.get_by_label("PASS: the check passes now");
}

#[test]
fn camera_buttons_frame_the_simplex_the_origin_and_switch_to_orthographic() {
    let mut h = opened_example("gjk-cylinder-cone");
    h.get_by_label("Next step").click();
    h.run();
    let before = h.state().session.cameras;
    h.get_by_label("Simplex").click();
    h.run();
    let after = h.state().session.cameras;
    assert!(
        after[0].distance < before[0].distance,
        "the simplex is smaller than the whole CSO: {} vs {}",
        after[0].distance,
        before[0].distance
    );
    h.get_by_label("Origin").click();
    h.run();
    assert_eq!(h.state().session.cameras[0].target, glam::DVec3::ZERO);
    assert_eq!(
        h.state().session.cameras[0].distance,
        after[0].distance,
        "zoom kept"
    );
    h.get_by_label("Ortho").click();
    h.run();
    assert!(h.state().session.cameras.iter().all(|c| c.ortho));
    let _ = h.render().unwrap();
    h.get_by_label("Frame all").click();
    h.run();
    assert!(h.state().session.cameras[0].distance > after[0].distance);
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
    assert_one_event_after(&h, c);
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
    // The text's own row (a scope's row may end with it as its outcome).
    h.get_all_by_label_contains("iteration 1:")
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("iteration 1:"))
        })
        .expect("the text row")
        .click();
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
    cspace_recorder::write_atomic(&path, &cspace_viewer::state::demo::recording()).unwrap();
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
        .renderer(gpu())
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

/// The two views of bundled example `name` at its end, as a snapshot.
fn views_at_the_end(name: &str) -> Harness<'static, ViewerApp> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../fixtures/examples/{name}.fixture.json"));
    let mut app = ViewerApp::new(None, Some(&path), None);
    app.command(Command::Last);
    let mut h = Harness::builder()
        .with_size(egui::vec2(640.0, 300.0))
        .renderer(gpu())
        .build_ui_state(
            |ui, app: &mut ViewerApp| {
                egui::CentralPanel::default().show(ui, |ui| app.views(ui));
            },
            app,
        );
    h.run();
    h
}

/// The labels both views draw for `s`, 300×250 points each.
fn label_texts(s: &mut cspace_viewer::state::session::Session) -> Vec<String> {
    let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(300.0, 250.0));
    [View::Config, View::Object]
        .into_iter()
        .flat_map(|v| cspace_viewer::paint::build_frame(s, v, rect, 1.0).labels)
        .map(|l| l.text)
        .collect()
}

#[test]
fn the_answer_stays_drawn_at_the_end_of_each_query_kind() {
    let mut snapshots = egui_kittest::SnapshotResults::new();
    for (name, labels) in [
        (
            "gjk-cylinder-cone",
            ["distance 0.3364172", "closest point · 0.3364172"],
        ),
        (
            "epa-deep-hulls",
            ["depth 1.037894", "penetration · 1.037894"],
        ),
        ("sweep-ca", ["contact", "A at impact · toi 0.3422489"]),
    ] {
        let mut h = views_at_the_end(name);
        let s = &mut h.state_mut().session;
        assert_eq!(s.timeline.cursor(), s.trace.len(), "{name}: at the end");
        assert!(s.visible.answer.is_some(), "{name}: the answer is visible");
        assert!(s.visible.shapes.is_some(), "{name}: the shapes too");
        let texts = label_texts(s);
        for label in labels {
            assert!(
                texts.iter().any(|t| t.contains(label)),
                "{name}: {label} in {texts:?}"
            );
        }
        h.snapshot(format!("answer_{name}_end"));
        snapshots.extend(h.take_snapshot_results());
    }
}

/// An answer whose certificate is not `converged` carries its status beside
/// its number in both views; a converged one (any case) or one without a
/// status shows the number alone.
#[test]
fn an_uncertified_answer_says_so_beside_its_number() {
    use cspace_recorder as rec;
    // An engine that names no status (C's NULL) gets no empty note either.
    for (status, suffix) in [
        ("max_iterations", " · max_iterations"),
        ("converged", ""),
        ("Converged", ""),
        ("", ""),
    ] {
        let app = app_of("uncertified", || {
            let ball = |x: f64| {
                rec::ShapeDecl::new(rec::ShapeGeom::Sphere { radius: 1.0 })
                    .at([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
            };
            rec::shapes!(ball(0.0), ball(2.5));
            rec::answer!(rec::Answer::Distance {
                distance: rec::Scalar::F64(0.5),
                point_a: rec::Vec3Data::F64([1.0, 0.0, 0.0]),
                point_b: rec::Vec3Data::F64([1.5, 0.0, 0.0]),
                normal: rec::Vec3Data::F64([1.0, 0.0, 0.0]),
            });
            rec::certificate!(rec::Certificate {
                status: status.into(),
                iterations: 64,
                bounds: Some([rec::Scalar::F64(0.25), rec::Scalar::F64(0.5)]),
                witness: None,
                normal_within: None,
            });
        });
        let mut h = views_of(app, |_| {});
        let s = &mut h.state_mut().session;
        let texts = label_texts(s);
        for want in [
            format!("distance 0.5{suffix}"),
            format!("closest point · 0.5{suffix}"),
        ] {
            assert!(texts.contains(&want), "{want:?} in {texts:?}");
        }
    }
}

/// Object space seen orthographically from +z, framing everything.
fn front_ortho(s: &mut cspace_viewer::state::session::Session) {
    s.set_ortho(true);
    let cam = &mut s.cameras[View::Object as usize];
    (cam.yaw, cam.pitch) = (0.0, 0.0);
    s.frame_all(View::Object);
}

/// The two views of `app` (at its end), 640×300, after `setup`.
fn views_of(
    mut app: ViewerApp,
    setup: impl FnOnce(&mut cspace_viewer::state::session::Session),
) -> Harness<'static, ViewerApp> {
    app.command(Command::Last);
    let mut h = Harness::builder()
        .with_size(egui::vec2(640.0, 300.0))
        .renderer(gpu())
        .build_ui_state(
            |ui, app: &mut ViewerApp| {
                egui::CentralPanel::default().show(ui, |ui| app.views(ui));
            },
            app,
        );
    // After the first layout, which frames the views for their real size.
    h.run();
    setup(&mut h.state_mut().session);
    h.run();
    h
}

/// A recording made by `f`, saved as `name` in a temporary folder, opened.
fn app_of(name: &str, f: impl FnOnce()) -> ViewerApp {
    let ((), r) = cspace_recorder::record(f);
    let dir = temp_dir(name);
    let path = dir.join(format!("{name}.cspace"));
    std::fs::write(&path, &r.bytes).unwrap();
    ViewerApp::new(None, Some(&path), None)
}

#[test]
fn snapshots_of_the_hard_cases() {
    use cspace_recorder as rec;
    let unit = |x: f64, half: [f64; 3]| {
        rec::ShapeDecl::new(rec::ShapeGeom::Box { half_extents: half })
            .at([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
    };
    let mut snapshots = egui_kittest::SnapshotResults::new();
    // A sliver EPA face beside a normal one: a thin sliver, no spike.
    let sliver = app_of("sliver", || {
        rec::shapes!(unit(0.0, [1.0; 3]), unit(1.5, [1.0; 3]));
        rec::triangle!(cso "face", [-0.5f64, -0.5, 1.0], [0.5, -0.5, 1.0], [0.0, -0.5 + 1e-9, 1.0]);
        rec::triangle!(cso "face", [-0.5f64, 0.0, 1.0], [0.5, 0.0, 1.0], [0.0, 0.8, 1.0]);
        rec::pause!("faces");
    });
    let mut h = views_of(sliver, |_| {});
    h.snapshot("hard_sliver_triangle");
    snapshots.extend(h.take_snapshot_results());
    // A 100-long thin box seen from inside its far half: clipped, not gone.
    let thin = app_of("thin", || {
        rec::shapes!(unit(0.0, [50.0, 0.05, 0.05]), unit(0.0, [0.2, 0.2, 0.2]));
        rec::pause!("shapes");
    });
    let mut h = views_of(thin, |s| {
        let cam = &mut s.cameras[View::Object as usize];
        (cam.yaw, cam.pitch, cam.distance) = (std::f64::consts::FRAC_PI_2, 0.02, 20.0);
        cam.target = glam::DVec3::ZERO;
    });
    assert!(h.state().session.visible.shapes.is_some());
    h.snapshot("hard_thin_box_past_its_end");
    snapshots.extend(h.take_snapshot_results());
    // Unit boxes 1e-9 apart, configuration space zoomed at the origin until
    // the gap is ~100 pixels: the face, the closest point and the origin apart.
    let gap = app_of("gap", || {
        rec::shapes!(unit(0.0, [1.0; 3]), unit(2.0 + 1e-9, [1.0; 3]));
        rec::point!(cso "closest v", [-1e-9f64, 0.0, 0.0], rec::Rgba::GREEN);
        rec::pause!("end");
    });
    let mut h = views_of(gap, |s| {
        s.set_ortho(true);
        let cam = &mut s.cameras[View::Config as usize];
        (cam.yaw, cam.pitch) = (0.0, 0.3);
        s.focus(View::Config, [0.0; 3]);
        while s.cameras[0].per_pixel(240.0) > 1e-11 {
            s.zoom_at(View::Config, 1.2, (0.0, 0.0), 240.0);
        }
    });
    assert_eq!(
        h.state().session.cameras[0].target,
        glam::DVec3::ZERO,
        "focused on the origin"
    );
    h.snapshot("hard_gap_1e-9_at_the_origin");
    snapshots.extend(h.take_snapshot_results());
}

/// Records a unit box A at the origin and a small ball B above it (the
/// depth tests look at A's face z = 1 from +z).
fn unit_box_and_ball() {
    use cspace_recorder as rec;
    let a = rec::ShapeDecl::new(rec::ShapeGeom::Box {
        half_extents: [1.0; 3],
    })
    .at([0.0; 3], [0.0, 0.0, 0.0, 1.0]);
    let b = rec::ShapeDecl::new(rec::ShapeGeom::Sphere { radius: 0.2 })
        .at([0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 1.0]);
    rec::shapes!(a, b);
}

#[test]
fn the_views_draw_with_depth_a_point_behind_a_surface_is_dimmed_one_in_front_is_not() {
    use cspace_recorder as rec;
    let magenta = rec::Rgba([255, 0, 255, 255]);
    let app = app_of("depth", || {
        unit_box_and_ball();
        // Seen from +z: one point in front of A's face z = 1, one behind A
        // (no labels: their text would be drawn in the same colour).
        rec::point!("", [0.4f64, 0.0, 3.0], magenta);
        rec::point!("", [-0.4f64, 0.0, -3.0], magenta);
        rec::pause!("points");
    });
    let mut h = views_of(app, front_ortho);
    let image = h.render().expect("rendered on wgpu");
    let pixels: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    let pure = pixels.iter().filter(|p| p[..3] == [255, 0, 255]).count();
    // One disc of radius 4 points is ~50 pixels: only the front point is
    // drawn in its own colour; the one behind the face is blended with A.
    assert!(
        (25..=80).contains(&pure),
        "{pure} pixels of the point's colour"
    );
    let dimmed = pixels
        .iter()
        .filter(|p| p[0] > 120 && p[2] > 150 && p[1] < 120 && p[..3] != [255, 0, 255])
        .count();
    assert!(
        dimmed >= 25,
        "the point behind shows through A: {dimmed} pixels"
    );
}

#[test]
fn a_bulk_of_points_is_stamped_in_depth_those_behind_a_surface_show_through_it() {
    use cspace_recorder as rec;
    // Not the viewer's named colours, so they come out as recorded.
    let (front, back) = (rec::Rgba([255, 0, 255, 255]), rec::Rgba([0, 250, 0, 255]));
    let app = app_of("bulk", || {
        unit_box_and_ball();
        // 2 × 1250 points (a bulk: stamped on the CPU), seen from +z: a
        // grid in front of A's face z = 1 on the right, one behind A on the left.
        for i in 0..50 {
            for j in 0..25 {
                let (x, y) = (0.1 + f64::from(j) * 0.03, -0.75 + f64::from(i) * 0.03);
                rec::point!("", [x, y, 3.0], front);
                rec::point!("", [-x, y, -3.0], back);
            }
        }
        rec::pause!("points");
    });
    let mut h = views_of(app, front_ortho);
    let session = &mut h.state_mut().session;
    let rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(300.0, 250.0));
    let frame = cspace_viewer::paint::build_frame(session, View::Object, rect, 1.0);
    assert_eq!(frame.geometry.splatted(), 2500, "the points are stamped");
    assert!(frame.geometry.solid_dots.is_empty());
    let image = h.render().expect("rendered on wgpu");
    let pixels: Vec<[u8; 4]> = image.pixels().map(|p| p.0).collect();
    let count = |f: &dyn Fn(&[u8; 4]) -> bool| pixels.iter().filter(|p| f(p)).count();
    let pure_front = count(&|p| p[..3] == [255, 0, 255]);
    let pure_back = count(&|p| p[..3] == [0, 250, 0]);
    // Through A's translucent face: green mixed with A's blue.
    let dimmed_back = count(&|p| p[1] > 120 && p[0] < 90 && p[2] > 60 && p[..3] != [0, 250, 0]);
    assert!(pure_front > 300, "{pure_front} pixels of the front points");
    assert_eq!(pure_back, 0, "the points behind A are not drawn over it");
    assert!(dimmed_back > 300, "{dimmed_back} pixels of points behind A");
}

#[test]
fn folder_lists_recordings_and_updates() {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.cspace"),
        cspace_viewer::state::demo::recording(),
    )
    .unwrap();
    let mut h = harness(ViewerApp::new(None, Some(&dir), None));
    h.run();
    assert_eq!(h.state().opened(), Opened::File(dir.join("a.cspace")));
    std::fs::write(
        dir.join("b.cspace"),
        cspace_viewer::state::demo::recording(),
    )
    .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while h.query_by_label("b.cspace").is_none() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
        h.run();
    }
    h.get_by_label("b.cspace").click();
    h.run();
    assert_eq!(h.state().opened(), Opened::File(dir.join("b.cspace")));
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
    // The window's field comes after the log's search field.
    h.get_all_by_role(egui::accesskit::Role::TextInput)
        .last()
        .unwrap()
        .click();
    h.run();
    h.get_all_by_role(egui::accesskit::Role::TextInput)
        .last()
        .unwrap()
        .type_text(&path.display().to_string());
    h.run();
    h.get_by_label("Open path").click();
    h.run();
    assert_eq!(h.state().opened(), Opened::File(path));
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
    let good = cspace_viewer::state::demo::recording();
    let mut x: u64 = 0x1234_5678_9abc_def1;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bytes = good.clone();
        let at = (x as usize) % bytes.len();
        bytes[at] ^= (x >> 32) as u8 | 1;
        bytes.truncate(bytes.len() - (x >> 40) as usize % 64);
        let mut s = cspace_viewer::state::session::Session::new(
            cspace_viewer::state::trace::Trace::from_bytes(&bytes),
            "fuzz",
        );
        s.command(Command::Last);
        s.frame_all(cspace_viewer::state::session::View::Config);
        let _ = cspace_viewer::paint::build_frame(
            &mut s,
            cspace_viewer::state::session::View::Object,
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(300.0, 300.0)),
            1.0,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app on the bundled example recording `name`, after its first frames.
fn opened_example(name: &str) -> Harness<'static, ViewerApp> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../fixtures/examples/{name}.cspace"));
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    h
}

/// Live → Listen on a free loopback port, through the menu; the harness and
/// the address it listens on.
fn listen_from_the_menu(
    mut h: Harness<'static, ViewerApp>,
) -> (Harness<'static, ViewerApp>, std::net::SocketAddr) {
    h.state_mut().listen_addr = "127.0.0.1:0".into();
    h.run();
    h.get_by_label("Live").click();
    h.run();
    h.get_by_label("Listen").click();
    h.run();
    let addr = h.state().live.as_ref().expect("listening").addr();
    (h, addr)
}

fn example_fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/examples/gjk-rotated-boxes.fixture.json")
}

/// `bytes` with the x of its `nth` f64 point moved by one ULP.
fn nudge_point(bytes: &[u8], nth: usize) -> Vec<u8> {
    use cspace_recorder::{Event, Vec3Data};
    let mut events: Vec<Event> = cspace_recorder::decode(bytes)
        .events
        .into_iter()
        .map(|l| l.event)
        .collect();
    let p = events
        .iter_mut()
        .filter_map(|e| match e {
            Event::Point {
                p: Vec3Data::F64(p),
                ..
            } => Some(p),
            _ => None,
        })
        .nth(nth)
        .expect("has f64 points");
    p[0] = f64::from_bits(p[0].to_bits() + 1);
    cspace_recorder::stream::encode_stream(&events)
}

/// The example fixture saved in `dir` with a stored recording one ULP off the
/// current code's, so re-running it shows a divergence.
fn tampered_fixture(dir: &std::path::Path) -> PathBuf {
    use cspace::fixture::Fixture;
    let ex = Fixture::load(&example_fixture()).unwrap();
    let (_, now) = ex.rerun();
    let mut f = Fixture::new(
        "viewer-ui-tampered",
        ex.query(),
        Some("one ULP off on purpose".into()),
        ex.file.checks.clone(),
        ex.file.answer.clone(),
        nudge_point(&now.bytes, 1),
    );
    f.save_in(dir).unwrap()
}

fn steps_of_pair(h: &Harness<'_, ViewerApp>) -> (u32, u32) {
    let app = h.state();
    let hidden = &app.pair().unwrap().hidden;
    (step(h), hidden.trace.step_at(hidden.timeline.cursor()))
}

#[test]
fn fixture_rerun_shows_old_and_new_recordings() {
    use cspace_viewer::state::pair::Which;
    let dir = temp_dir("rerun");
    let path = tampered_fixture(&dir);
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    assert!(h.state().fixture().is_some());
    assert!(h.state().message.is_none(), "{:?}", h.state().message);
    // Its recording (what a folder lists) opens as the fixture too; a plain recording does not.
    let rec = cspace_viewer::state::source::recording_path(&path);
    assert!(ViewerApp::new(None, Some(&rec), None).fixture().is_some());
    let plain = demo_file("plain.cspace");
    assert!(ViewerApp::new(None, Some(&plain), None).fixture().is_none());
    // The stored answer as a table, field by field; its checks before a re-run.
    let _ = h.get_by_label("stored");
    assert!(h.query_all_by_label("distance").count() >= 1);
    let _ = h.get_by_label_contains("check: distance");
    h.get_by_label("Next step").click();
    h.run();
    h.get_by_label("Re-run with current code").click();
    h.run();
    let app = h.state();
    let rerun = app.rerun().expect("re-ran");
    assert_eq!(rerun.check, Ok(()), "the example's check passes");
    assert!(!rerun.identical);
    let pair = app.pair().expect("two recordings");
    assert_eq!(pair.showing, Which::B, "the new recording shows");
    assert_eq!(step(&h), 2, "the re-run opens at the same step");
    let d = pair.divergence.clone().expect("one ULP apart");
    assert!(d.to_string().contains("1 ulps"), "{d}");
    // The new answer beside the stored one; each check passes against it.
    let _ = h.get_by_label("new");
    let _ = h.get_by_label_contains("PASS  distance");
    let _ = h.get_by_label("PASS: the check passes now");
    // The stored recording has the query's input but a point 1 ULP off: with
    // the same algorithm revision that is nondeterminism, and it says so.
    let _ = h.get_by_label_contains("nondeterminism");
    let _ = h.get_by_label_contains("first divergence at step");
    // Toggle to the stored recording and back; the step stays.
    h.get_by_label("Stored recording").click();
    h.run();
    assert_eq!(h.state().pair().unwrap().showing, Which::A);
    assert_eq!(steps_of_pair(&h), (2, 2));
    h.get_by_label("Next step").click();
    h.run();
    assert_eq!(steps_of_pair(&h), (3, 3), "lockstep");
    h.get_by_label("New recording").click();
    h.run();
    assert_eq!(h.state().pair().unwrap().showing, Which::B);
    // Both sides just after the differing point.
    h.get_by_label("Jump to divergence").click();
    h.run();
    let app = h.state();
    let shown = &app.session;
    let e = shown.timeline.current_event().unwrap();
    assert_eq!(shown.trace.event_of_compared(d.index), Some(e));
    assert_eq!(step(&h) as usize, d.step);
    assert_eq!(steps_of_pair(&h).0, steps_of_pair(&h).1);
    h.get_by_label("Close comparison").click();
    h.run();
    assert!(h.state().pair().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_fixtures_show_one_banner() {
    let dir = temp_dir("badfixture");
    let ex = example_fixture();
    let rec = std::fs::read(ex.with_file_name("gjk-rotated-boxes.cspace")).unwrap();
    let text = std::fs::read_to_string(&ex).unwrap();
    let cases = [
        (
            "corrupt",
            "{ \"version\": 1, \"name\": ".to_owned(),
            "truncated JSON",
        ),
        ("garbage", "{ nonsense ]".to_owned(), "corrupt JSON"),
        (
            "newer",
            text.replacen("\"version\": 1", "\"version\": 99", 1),
            "newer than this cspace reads",
        ),
    ];
    for (name, json, expect) in cases {
        let path = dir.join(format!("{name}.fixture.json"));
        std::fs::write(&path, json).unwrap();
        std::fs::write(dir.join(format!("{name}.cspace")), &rec).unwrap();
        let mut h = harness(ViewerApp::new(None, Some(&path), None));
        h.run();
        let app = h.state();
        let m = app
            .message
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        assert!(
            m.contains(expect) && m.contains(&path.display().to_string()),
            "{m}"
        );
        assert!(app.fixture().is_none());
        assert_eq!(h.query_all_by_label_contains(expect).count(), 1);
        assert!(h.query_by_label("Re-run with current code").is_none());
        // The recording beside it still opens.
        assert!(!app.session.trace.is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fuzz_failure_folder_opens_as_its_pair_at_the_first_divergence() {
    let dir = temp_dir("fuzz-pair");
    let demo = cspace_viewer::state::demo::recording();
    let (subject, reference) = (dir.join("subject.cspace"), dir.join("reference.cspace"));
    std::fs::write(&subject, nudge_point(&demo, 3)).unwrap();
    std::fs::write(&reference, &demo).unwrap();
    std::fs::write(
        dir.join("pair.json"),
        r#"{"check": "gjk-bracket", "subject": "subject.cspace", "reference": "reference.cspace"}"#,
    )
    .unwrap();
    let app = ViewerApp::new(None, Some(&dir), None);
    assert_eq!(app.opened(), Opened::Diff(subject, reference));
    let d = app.pair().unwrap().divergence.clone().expect("differs");
    let s = &app.session;
    assert_eq!(s.trace.step_at(s.timeline.cursor()) as usize, d.step);
    assert!(app.pair().unwrap().side_by_side);
    // Without its reference the folder opens as a folder.
    std::fs::remove_file(dir.join("reference.cspace")).unwrap();
    let app = ViewerApp::new(None, Some(&dir), None);
    assert!(!matches!(app.opened(), Opened::Diff(..)));
}

#[test]
fn diff_two_recordings_in_lockstep() {
    use cspace_viewer::state::pair::Which;
    let dir = temp_dir("diff");
    let a = dir.join("a.cspace");
    let b = dir.join("b.cspace");
    let demo = cspace_viewer::state::demo::recording();
    std::fs::write(&a, &demo).unwrap();
    std::fs::write(&b, nudge_point(&demo, 3)).unwrap();
    // Opened from the menu.
    let mut h = harness(ViewerApp::new(None, None, None));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Diff two recordings…").click();
    h.run();
    for (i, p) in [&a, &b].into_iter().enumerate() {
        // The log's search field comes first; the window's fields after it.
        let field = h
            .get_all_by_role(egui::accesskit::Role::TextInput)
            .nth(i + 1)
            .unwrap();
        field.click();
        h.run();
        h.get_all_by_role(egui::accesskit::Role::TextInput)
            .nth(i + 1)
            .unwrap()
            .type_text(&p.display().to_string());
        h.run();
    }
    h.get_by_label("Open diff").click();
    h.run();
    assert_eq!(h.state().opened(), Opened::Diff(a.clone(), b.clone()));
    let d = h
        .state()
        .pair()
        .unwrap()
        .divergence
        .clone()
        .expect("differs");
    let _ = h.get_by_label_contains("first divergence at step");
    assert_eq!(steps_of_pair(&h), (1, 1));
    h.get_by_label("Next step").click();
    h.run();
    assert_eq!(steps_of_pair(&h), (2, 2));
    h.get_by_label("B: b.cspace").click();
    h.run();
    assert_eq!(h.state().pair().unwrap().showing, Which::B);
    assert_eq!(steps_of_pair(&h), (2, 2));
    h.get_by_label("Jump to divergence").click();
    h.run();
    assert_eq!(step(&h) as usize, d.step);
    let s = &h.state().session;
    assert!(
        s.trace
            .describe(s.timeline.current_event().unwrap())
            .contains('p')
            || d.index > 0
    );
    // B's configuration space beside A's, through the same camera; unchecked: object space.
    assert!(h.state().pair().unwrap().side_by_side);
    let _ = h.render().unwrap();
    h.get_by_label("Side by side").click();
    h.run();
    assert!(!h.state().pair().unwrap().side_by_side);
    let _ = h.render().unwrap();
    // The same recording twice: no divergence, no jump button.
    let mut app = ViewerApp::new(None, None, None);
    app.open_diff(&a, &a);
    let mut h = harness(app);
    h.run();
    let _ = h.get_by_label_contains("identical event for event");
    assert!(h.query_by_label("Jump to divergence").is_none());
    // A missing file is a banner.
    let mut app = ViewerApp::new(None, None, None);
    app.open_diff(&a, &dir.join("missing.cspace"));
    assert!(
        app.message
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default()
            .contains("missing.cspace")
    );
    assert!(app.pair().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn live_queries_arrive_step_and_save() {
    use cspace_recorder::live::LiveSink;
    use std::io::Write as _;
    use std::time::{Duration, Instant};
    let dir = temp_dir("live");
    let mut app = ViewerApp::new(None, None, None);
    app.save_dir.clone_from(&dir);
    let (mut h, addr) = listen_from_the_menu(harness(app));
    assert!(addr.ip().is_loopback());
    let _ = h.get_by_label_contains("waiting: run a program with CSPACE_LIVE=");
    // A program that blocks at each pause until the viewer steps.
    let program = std::thread::spawn(move || {
        let sink = LiveSink::connect(addr, true).unwrap();
        cspace_recorder::record_to(Box::new(sink), || {
            for i in 0..3 {
                cspace_recorder::point!("p", [f64::from(i), 1.0, 0.0]);
                cspace_recorder::pause!("step");
            }
        })
        .1
    });
    let wait = |h: &mut Harness<'_, ViewerApp>, what: &str, done: &dyn Fn(&ViewerApp) -> bool| {
        let until = Instant::now() + Duration::from_secs(10);
        while !done(h.state()) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
            h.run_steps(1);
        }
        assert!(done(h.state()), "timed out waiting for {what}");
        h.run();
    };
    wait(&mut h, "the first pause", &|a| {
        a.live
            .as_ref()
            .and_then(|l| l.query(0))
            .is_some_and(|q| q.steps == 1)
    });
    h.get_by_label_contains("#0 ").click();
    h.run();
    assert_eq!(h.state().opened(), Opened::Live(0));
    assert_eq!(step(&h), 1);
    // "Next step" at the last pause releases the program for one step.
    for expected in [2, 3] {
        h.get_by_label("Next step").click();
        h.run();
        wait(&mut h, "the next pause", &|a| {
            a.session.trace.step_at(a.session.timeline.cursor()) == expected
        });
    }
    h.get_by_label("Next step").click();
    h.run();
    let recording = program.join().unwrap();
    wait(&mut h, "the end", &|a| {
        a.live
            .as_ref()
            .and_then(|l| l.query(0))
            .is_some_and(|q| q.state != LiveState::Streaming)
    });
    let _ = h.get_by_label_contains("finished");
    h.get_by_label("Save…").click();
    h.run();
    h.get_by_label("Save").click();
    h.run();
    let saved = dir.join("live-0.cspace");
    assert_eq!(std::fs::read(&saved).unwrap(), recording.bytes);
    // A garbage peer shows its error in the list; the viewer keeps going.
    let mut bad = std::net::TcpStream::connect(addr).unwrap();
    bad.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    drop(bad);
    wait(&mut h, "the garbage peer", &|a| {
        a.live
            .as_ref()
            .and_then(|l| l.query(1))
            .is_some_and(|q| q.state != LiveState::Streaming)
    });
    let _ = h.get_by_label_contains("failed:");
    h.get_by_label_contains("#1 ").click();
    h.run();
    assert_eq!(h.state().opened(), Opened::Live(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recording holding one 4 MiB text opens, renders and steps without a
/// crash: the log shows one clipped line, and "whole text" shows it a page at
/// a time.
#[test]
fn a_four_megabyte_text_is_clipped_in_the_log_and_shown_whole_by_pages() {
    let huge = "y".repeat(4 << 20);
    let ((), r) = cspace_recorder::record(|| {
        cspace_recorder::text!("{huge}");
        cspace_recorder::pause!("after the text");
    });
    let dir = std::env::temp_dir().join(format!("cspace-viewer-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge-text.cspace");
    r.save(&path).unwrap();
    let mut h = harness(ViewerApp::new(None, Some(&path), None));
    h.run();
    let _ = h
        .render()
        .expect("renders without exceeding the GPU's buffers");
    h.get_by_label("whole text").click();
    h.run();
    assert!(h.state().text_window.shown.is_some());
    h.get_by_label_contains("page 1 of 256");
    h.get_by_label("Next page").click();
    h.run();
    h.get_by_label_contains("page 2 of 256");
    let _ = h.render().expect("the text window renders");
}

/// Eight presses of → queued in one frame step eight times (each press
/// counts, also a key held down and repeated by the system).
#[test]
fn eight_queued_key_presses_step_eight_times() {
    let mut h = opened_example("sweep-ca");
    let start = step(&h);
    for _ in 0..8 {
        h.key_press(Key::ArrowRight);
    }
    h.step();
    h.run();
    assert_eq!(step(&h), start + 8);
    for _ in 0..3 {
        h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowLeft);
    }
    // Three events back (event stepping passes over site definitions).
    let mut expected = h.state().session.timeline.clone();
    for _ in 0..3 {
        expected.apply(&h.state().session.trace, Command::PrevEvent);
    }
    h.step();
    h.run();
    assert_eq!(h.state().session.timeline.cursor(), expected.cursor());
}

/// A click on a plot seeks to the step under the pointer; the plots share one
/// step axis (a click near the right end of any plot is the last step).
#[test]
fn clicking_a_plot_seeks_to_its_step() {
    let mut h = opened_example("gjk-cylinder-cone");
    assert_eq!(step(&h), 1);
    // The log-scale gap plot is there, with the stopping tolerance.
    let _ = h.get_by_label("bound gap (log)");
    let title = h.get_by_label("upper bound").rect();
    // The plot sits under its title: click inside it, near its right end.
    let at = egui::pos2(title.left() + 0.97 * 0.3 * 1200.0, title.bottom() + 50.0);
    h.hover_at(at);
    h.drag_at(at);
    h.run_steps(2);
    h.drop_at(at);
    h.run();
    let last = h.state().session.trace.pauses.len() as u32;
    let now = step(&h);
    assert!(
        now + 2 >= last && now > 1,
        "seeked near the last step {last}: now {now}"
    );
}

/// Thirty programs' queries: each named by its shapes and first scope (not
/// the peer's port), listed in a scrolling list that leaves the log in view.
#[test]
fn thirty_live_queries_are_named_and_scroll_without_pushing_the_log_away() {
    use cspace_recorder::live::LiveSink;
    use cspace_recorder::{ShapeDecl, ShapeGeom};
    use std::time::{Duration, Instant};
    let (mut h, addr) =
        listen_from_the_menu(sized(ViewerApp::new(None, None, None), 1280.0, 720.0));
    for i in 0..30 {
        let sink = LiveSink::connect(addr, false).unwrap();
        let a = ShapeDecl::new(ShapeGeom::Box {
            half_extents: [1.0; 3],
        });
        let b = ShapeDecl::new(ShapeGeom::Sphere { radius: 1.0 })
            .at([3.0 + f64::from(i), 0.0, 0.0], ShapeDecl::IDENTITY);
        let _ = cspace_recorder::record_to(Box::new(sink), || {
            cspace_recorder::shapes!(a, b);
            let _scope = cspace_recorder::scope!("my gjk");
            cspace_recorder::pause!("step");
        });
    }
    let until = Instant::now() + Duration::from_secs(20);
    let arrived = |a: &ViewerApp| {
        a.live.as_ref().is_some_and(|l| {
            l.queries.len() == 30 && l.queries.iter().all(|q| q.state == LiveState::Finished)
        })
    };
    while !arrived(h.state()) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
        h.run_steps(1);
    }
    assert!(arrived(h.state()), "30 queries arrive");
    // Names come with the events; let the list draw them.
    h.run_steps(3);
    let described = h
        .state()
        .live
        .as_ref()
        .unwrap()
        .query(29)
        .unwrap()
        .describe();
    assert!(
        described.starts_with("#29 box–sphere · my gjk"),
        "{described}"
    );
    let _ = h.get_by_label_contains("#29 box–sphere · my gjk");
    let log = h.get_by_label("Log / scopes").rect();
    assert!(
        log.bottom() < 720.0,
        "the log's title stays on screen: {log:?}"
    );
}
