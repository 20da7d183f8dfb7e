//! Opens a generated 10 M-event recording, seeks to random steps and builds a
//! frame with 100 k visible primitives; prints the figures (wall clock, and
//! the CPU time of decoding and opening, which load disturbs less).
//!
//! `cargo bench -p cspace-viewer --bench timeline` (set `CSPACE_BENCH_EVENTS`
//! for another size).

use cspace_recorder::stream::{encode_event, header};
use cspace_recorder::{
    CsoVertex, Event, Rgba, Scalar, ShapeDecl, ShapeGeom, SiteDef, Space, Vec3Data,
};
use cspace_viewer::paint::{build_frame, gpu};
use cspace_viewer::state::scene::Visible;
use cspace_viewer::state::session::{Session, View};
use cspace_viewer::state::timeline::Command;
use cspace_viewer::state::trace::Trace;
use eframe::egui_wgpu::wgpu;
use std::time::{Duration, Instant};

fn site(id: u32, label: &str) -> Event {
    Event::Site(SiteDef {
        id,
        file: "bench.rs".into(),
        line: id,
        label: label.into(),
    })
}

/// A recording of about `n` events: iterations of push, point, line, simplex,
/// value, text, pause, pop, and a top-level point every 10 iterations (so
/// about n / 85 points stay visible at the end).
fn generate(n: usize) -> Vec<u8> {
    let mut out = header().to_vec();
    let labels = [
        "iteration",
        "w",
        "edge",
        "simplex",
        "upper",
        "log",
        "after add",
        "",
        "kept",
        "shapes",
    ];
    for (i, l) in labels.iter().enumerate() {
        encode_event(&mut out, &site(i as u32, l));
    }
    let ball = |x: f64| ShapeDecl {
        geom: ShapeGeom::Sphere { radius: 1.0 },
        margin: 0.0,
        position: [x, 0.0, 0.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    encode_event(
        &mut out,
        &Event::Shapes {
            site: 9,
            a: Box::new(ball(0.0)),
            b: Box::new(ball(3.0)),
            motion: None,
        },
    );
    let mut count = labels.len() + 1;
    let mut it = 0u64;
    while count < n {
        let x = (it % 1000) as f64 * 1e-3;
        let v = Vec3Data::F64([x, 1.0 - x, 0.5]);
        let events = [
            Event::Push { site: 0 },
            Event::Point {
                site: 1,
                space: Space::Config,
                color: Some(Rgba::RED),
                p: v,
            },
            Event::Line {
                site: 2,
                space: Space::Config,
                color: None,
                a: v,
                b: Vec3Data::F64([0.0; 3]),
            },
            Event::Simplex {
                site: 3,
                vertices: vec![
                    CsoVertex {
                        w: v,
                        a: v,
                        b: Vec3Data::F64([0.0; 3])
                    };
                    3
                ],
            },
            Event::Value {
                site: 4,
                value: Scalar::F64(1.0 / (1.0 + it as f64)),
            },
            Event::Text {
                site: 5,
                text: format!("iteration {it}"),
            },
            Event::Pause { site: 6 },
            Event::Pop { site: 7 },
        ];
        for e in &events {
            encode_event(&mut out, e);
        }
        count += events.len();
        if it.is_multiple_of(10) {
            encode_event(
                &mut out,
                &Event::Point {
                    site: 8,
                    space: Space::Object,
                    color: None,
                    p: Vec3Data::F32([
                        (it % 997) as f32 * 0.01,
                        (it % 991) as f32 * 0.01,
                        (it % 983) as f32 * 0.01,
                    ]),
                },
            );
            count += 1;
        }
        it += 1;
    }
    out
}

/// CPU seconds this process has used so far (user + system, all threads),
/// from `/proc/self/stat`; `NaN` where that is not readable. Wall clock on
/// the shared machine depends on what else runs; CPU time much less.
fn cpu_seconds() -> f64 {
    let ticks = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the command's closing parenthesis, from field 3 (state):
        // utime and stime are fields 14 and 15, in ticks of 1/100 s.
        let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
        Some(fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?)
    };
    ticks().map_or(f64::NAN, |t| t / 100.0)
}

fn main() {
    let n: usize = std::env::var("CSPACE_BENCH_EVENTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    let t = Instant::now();
    let bytes = generate(n);
    println!(
        "generated {n} events, {} MB, in {:.2?}",
        bytes.len() >> 20,
        t.elapsed()
    );

    // The recorder's decoding alone, for comparison.
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let mut decoder = cspace_recorder::StreamDecoder::new();
    let mut decoded = 0usize;
    for chunk in bytes.chunks(1 << 20) {
        decoder.feed(chunk);
        while let Ok(Some(_)) = decoder.next_event() {
            decoded += 1;
        }
    }
    println!(
        "recorder decode only: {:.2?} ({:.2} s CPU) for {decoded} events",
        t.elapsed(),
        cpu_seconds() - cpu
    );

    let (t, cpu) = (Instant::now(), cpu_seconds());
    let trace = Trace::from_bytes(&bytes);
    let open = t.elapsed();
    let open_cpu = cpu_seconds() - cpu;
    assert!(trace.error.is_none());
    println!(
        "open (decode + index): {open:.2?} ({open_cpu:.2} s CPU) for {} events, {} steps  [target ≤ 2 s]",
        trace.len(),
        trace.steps()
    );
    drop(bytes);

    // Seeks to pseudo-random steps: cursor + visible set.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut times = Vec::new();
    let seeks = 2000;
    let mut visible = 0;
    let mut session = Session::new(trace, "bench");
    for k in 0..seeks {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let step = if k == 0 {
            session.trace.steps()
        } else {
            (x % u64::from(session.trace.steps() + 1)) as u32
        };
        let t = Instant::now();
        session.command(Command::SeekStep(step));
        let v = &session.visible;
        visible += v.count();
        times.push(t.elapsed());
    }
    let end_seek = times[0];
    times.sort();
    let mean = times.iter().sum::<Duration>() / seeks;
    println!(
        "seek to a random step (cursor + visible set): mean {mean:.1?}, median {:.1?}, p99 {:.1?}, max {:.1?} over {seeks} seeks; \
         the first, to the end with the most visible, {end_seek:.1?}  [target ≤ 1 ms]",
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1],
    );
    let _ = visible;

    frame(&mut session);
}

/// What changes before frame `k`.
type Change<'a> = dyn Fn(&mut Session, usize) + 'a;

/// Builds and draws frames at the end, several times each way; prints the
/// spread: redrawn as they are, orbiting (the camera moves every frame) and
/// stepping (the cursor moves every frame, so the visible set is gathered
/// again).
fn frame(session: &mut Session) {
    // A frame at the end: ~n/85 visible object-space points, built on the
    // CPU and drawn by the views' GPU renderer (Mesa's software Vulkan on a
    // machine without a GPU), waiting for the GPU to finish each frame.
    session.command(Command::Last);
    session.frame_all(View::Object);
    let count = Visible::at(&session.trace, session.timeline.cursor()).count();
    let render_state = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        eframe::egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let info = render_state.adapter.get_info();
    gpu::install(&render_state);
    println!(
        "frames with {count} visible primitives, 800×800, {} on {:?}; min / median / max  [target ≤ 16 ms]",
        info.name, info.backend
    );
    let last = session.trace.steps();
    let kinds: [(&str, &Change<'_>); 3] = [
        ("redrawn", &|_, _| {}),
        ("orbiting", &|s, k| {
            s.orbit(View::Object, 3.0, if k % 2 == 0 { 1.0 } else { -1.0 });
        }),
        ("stepping", &|s, k| {
            s.command(Command::SeekStep(last - (k % 2) as u32));
        }),
    ];
    for (name, change) in kinds {
        frames(session, &render_state, name, change);
    }
}

/// Times `frames` frames of the object view, calling `change` before each.
fn frames(
    session: &mut Session,
    render_state: &eframe::egui_wgpu::RenderState,
    name: &str,
    change: &Change<'_>,
) {
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 800.0));
    let (device, queue) = (&render_state.device, &render_state.queue);
    let frames = 12;
    let mut times = Vec::new();
    let (mut triangles, mut stamped) = (0, 0);
    for k in 0..frames {
        let t = Instant::now();
        change(session, k);
        let frame = build_frame(session, View::Object, rect, 1.0);
        let built = t.elapsed();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut renderer = render_state.renderer.write();
            let resources = renderer
                .callback_resources
                .get_mut::<gpu::Resources>()
                .expect("installed above");
            gpu::render(
                resources,
                (device, queue),
                &mut encoder,
                1,
                &frame.geometry,
                ([800.0, 800.0], 1.0),
            );
        }
        queue.submit([encoder.finish()]);
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the GPU finishes the frame");
        triangles = frame.geometry.triangles();
        stamped = frame.geometry.splatted();
        times.push((built, t.elapsed()));
    }
    // The first frame may make the targets and compile the pipelines' shaders.
    let mut built: Vec<Duration> = times[1..].iter().map(|t| t.0).collect();
    let mut whole: Vec<Duration> = times[1..].iter().map(|t| t.1).collect();
    built.sort();
    whole.sort();
    let spread = |v: &[Duration]| {
        format!(
            "{:.1?} / {:.1?} / {:.1?}",
            v[0],
            v[v.len() / 2],
            v[v.len() - 1]
        )
    };
    println!(
        "  {name}: {stamped} points stamped + {triangles} triangles, over {} frames: build {}, build + GPU render {}",
        frames - 1,
        spread(&built),
        spread(&whole),
    );
}
