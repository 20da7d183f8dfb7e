//! Builds the painted shapes of one 3D view from a [`Session`]: the shapes'
//! meshes, the recorded points, lines and triangles, the simplices, the
//! origin axes, and where each pickable point landed on screen.

use super::{
    COLOR_A, COLOR_B, COLOR_CSO, COLOR_DEFAULT, COLOR_HIGHLIGHT, COLOR_SIMPLEX, color, with_alpha,
};
use crate::state::camera::OrbitCamera;
use crate::state::scene::{Pick, ShapeMeshes};
use crate::state::session::{Session, View};
use crate::state::trace::{Entry, Prim};
use egui::{Color32, Pos2, Rect, Shape, Stroke, pos2, vec2};

/// The shapes of one view, depth-sorted, and the pickable points on screen.
#[derive(Default)]
pub struct Frame {
    /// What to paint, back to front.
    pub shapes: Vec<Shape>,
    /// Pickable points and their screen positions.
    pub picks: Vec<(Pick, Pos2)>,
    /// Text labels, painted on top.
    pub labels: Vec<(Pos2, String, Color32)>,
}

/// Builds the painted shapes for `view` in `rect` (no egui state involved, so
/// the benchmark can time it).
#[allow(clippy::too_many_lines, clippy::cast_sign_loss)] // one pass over every kind of item
pub fn build_frame(session: &mut Session, view: View, rect: Rect) -> Frame {
    let cam: OrbitCamera = session.cameras[view as usize];
    let (w, h) = (rect.width(), rect.height());
    let projector = cam.projector(w, h);
    let project = |p: [f64; 3]| {
        projector
            .project(p)
            .map(|q| (pos2(rect.left() + q.x, rect.top() + q.y), q.depth))
    };
    // Meshes first (depth-sorted among themselves), then the recorded items on
    // top, so a simplex on the surface of A − B is never hidden by it.
    let mut mesh_items: Vec<(f64, [Pos2; 3], Color32)> = Vec::new();
    let mut items: Vec<(f64, Shape)> = Vec::new();
    let mut picks = Vec::new();
    let mut labels = Vec::new();
    let hovered_vertex = session.selection.hovered_simplex_vertex(&session.trace);
    let selected: Vec<Pick> = [session.selection.first, session.selection.second]
        .into_iter()
        .flatten()
        .collect();

    // Shapes.
    if let Some(Entry::Shapes(k)) = session
        .visible
        .shapes
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
    {
        let meshes: &ShapeMeshes = session.meshes.get(&session.trace, k);
        let motion = session
            .trace
            .shapes
            .get(k as usize)
            .and_then(|s| s.motion)
            .map(glam::DVec3::from);
        let mut ghost = None;
        if let (View::Object, Some(m)) = (view, motion) {
            // A at the end of its sweep, faint, and the motion as a line.
            let mut moved = meshes.a.clone();
            for v in &mut moved.vertices {
                *v += m;
            }
            moved.centre += m;
            ghost = Some(moved);
            if let (Some((p, d)), Some((q, _))) = (
                project(meshes.a.centre.to_array()),
                project((meshes.a.centre + m).to_array()),
            ) {
                items.push((
                    d,
                    Shape::line_segment([p, q], Stroke::new(1.5, COLOR_HIGHLIGHT)),
                ));
                labels.push((q + vec2(6.0, 0.0), "A + motion".to_owned(), COLOR_HIGHLIGHT));
            }
        }
        let mut list = match view {
            View::Config => vec![(&meshes.cso, COLOR_CSO)],
            View::Object => vec![(&meshes.a, COLOR_A), (&meshes.b, COLOR_B)],
        };
        if let Some(g) = &ghost {
            list.push((g, with_alpha(COLOR_A, 90)));
        }
        let eye = cam.eye();
        let light = (cam.eye() - cam.target).normalize_or_zero();
        for (mesh, base) in list {
            // Polytopes (few triangles) also get their edges, so a thin box
            // still shows as a line and the faces read as a solid.
            if mesh.triangles.len() <= 400 {
                let edge = Stroke::new(1.0, with_alpha(base, 110));
                for &t in &mesh.triangles {
                    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                        let (u, v) = (t[i], t[j]);
                        if u < v
                            && let (Some((p, dp)), Some((q, dq))) = (
                                project(mesh.vertices[u as usize].to_array()),
                                project(mesh.vertices[v as usize].to_array()),
                            )
                        {
                            items.push((
                                f64::midpoint(dp, dq) + 1e9,
                                Shape::line_segment([p, q], edge),
                            ));
                        }
                    }
                }
            }
            for &t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let n = mesh.normal(t);
                let centre = (a + b + c) / 3.0;
                if n.dot(eye - centre) <= 0.0 {
                    continue; // back face
                }
                let (Some((pa, da)), Some((pb, db)), Some((pc, dc))) = (
                    project(a.to_array()),
                    project(b.to_array()),
                    project(c.to_array()),
                ) else {
                    continue;
                };
                let shade = 0.35 + 0.65 * n.dot(light).abs() as f32;
                let fill = Color32::from_rgba_unmultiplied(
                    (f32::from(base.r()) * shade) as u8,
                    (f32::from(base.g()) * shade) as u8,
                    (f32::from(base.b()) * shade) as u8,
                    base.a().min(150),
                );
                mesh_items.push(((da + db + dc) / 3.0, [pa, pb, pc], fill));
            }
        }
    }

    // Origin axes in configuration space.
    if view == View::Config {
        let s = cam.distance * 0.08;
        let axes = [
            ([s, 0.0, 0.0], Color32::from_rgb(230, 80, 80)),
            ([0.0, s, 0.0], Color32::from_rgb(80, 200, 80)),
            ([0.0, 0.0, s], Color32::from_rgb(90, 130, 240)),
        ];
        if let Some((o, d)) = project([0.0; 3]) {
            for (tip, c) in axes {
                if let Some((t, _)) = project(tip) {
                    items.push((d, Shape::line_segment([o, t], Stroke::new(1.5, c))));
                }
            }
            items.push((d - 1e-9, Shape::circle_filled(o, 3.5, Color32::WHITE)));
            labels.push((o + vec2(5.0, 2.0), "O".to_owned(), Color32::WHITE));
        }
    }

    // Recorded drawables.
    let list = match view {
        View::Config => &session.visible.config,
        View::Object => &session.visible.object,
    };
    let default = if view == View::Config {
        COLOR_DEFAULT
    } else {
        Color32::from_rgb(180, 220, 255)
    };
    let show_labels = list.len() <= 200;
    // Many drawables: points become quads of one mesh, drawn in recording
    // order without depth sorting, so 100 k of them fit in a frame.
    let bulk = list.len() > 2000;
    let mut points = egui::epaint::Mesh::default();
    for &e in list {
        let Some(Entry::Draw(k)) = session.trace.entries.get(e as usize) else {
            continue;
        };
        let Some(d) = session.trace.drawables.get(*k as usize) else {
            continue;
        };
        let col = color(d.color, default);
        let label = if show_labels {
            session.trace.site(d.site).label.as_str()
        } else {
            ""
        };
        match d.prim {
            Prim::Point(p) => {
                if let Some((q, depth)) = project(p.to_f64()) {
                    let pick = Pick {
                        event: e,
                        vertex: 0,
                    };
                    let r = if selected.contains(&pick) { 6.0 } else { 4.0 };
                    if bulk {
                        points.add_colored_rect(Rect::from_center_size(q, vec2(3.0, 3.0)), col);
                    } else {
                        items.push((depth, Shape::circle_filled(q, r, col)));
                    }
                    if show_labels && !label.is_empty() {
                        labels.push((q + vec2(6.0, -6.0), label.to_string(), col));
                    }
                    picks.push((pick, q));
                }
            }
            Prim::Line(a, b) => {
                if let (Some((pa, da)), Some((pb, db))) = (project(a.to_f64()), project(b.to_f64()))
                {
                    items.push((
                        f64::midpoint(da, db),
                        Shape::line_segment([pa, pb], Stroke::new(2.0, col)),
                    ));
                    if show_labels && !label.is_empty() {
                        labels.push((pa.lerp(pb, 0.5) + vec2(4.0, 4.0), label.to_string(), col));
                    }
                    picks.push((
                        Pick {
                            event: e,
                            vertex: 0,
                        },
                        pa,
                    ));
                    picks.push((
                        Pick {
                            event: e,
                            vertex: 1,
                        },
                        pb,
                    ));
                }
            }
            Prim::Triangle(v) => {
                let pts: Vec<_> = v.iter().filter_map(|p| project(p.to_f64())).collect();
                if pts.len() == 3 {
                    let depth = pts.iter().map(|p| p.1).sum::<f64>() / 3.0;
                    items.push((
                        depth,
                        Shape::convex_polygon(
                            pts.iter().map(|p| p.0).collect(),
                            with_alpha(col, 70),
                            Stroke::new(1.5, col),
                        ),
                    ));
                    for (i, p) in pts.iter().enumerate() {
                        picks.push((
                            Pick {
                                event: e,
                                vertex: i as u32,
                            },
                            p.0,
                        ));
                    }
                }
            }
        }
    }

    if !points.is_empty() {
        items.push((f64::INFINITY, Shape::mesh(points)));
    }

    // Simplices.
    for &e in &session.visible.simplices {
        let Some(Entry::Simplex(k)) = session.trace.entries.get(e as usize) else {
            continue;
        };
        let Some(s) = session.trace.simplices.get(*k as usize) else {
            continue;
        };
        let n = s.vertices.len().min(4);
        let vs = &s.vertices[..n];
        match view {
            View::Config => {
                let ps: Vec<Option<(Pos2, f64)>> =
                    vs.iter().map(|v| project(v.w.to_f64())).collect();
                // Faces and edges.
                for i in 0..n {
                    for j in i + 1..n {
                        if let (Some(a), Some(b)) = (ps[i], ps[j]) {
                            items.push((
                                f64::midpoint(a.1, b.1),
                                Shape::line_segment([a.0, b.0], Stroke::new(2.0, COLOR_SIMPLEX)),
                            ));
                        }
                        for l in j + 1..n {
                            if let (Some(a), Some(b), Some(c)) = (ps[i], ps[j], ps[l]) {
                                items.push((
                                    (a.1 + b.1 + c.1) / 3.0,
                                    Shape::convex_polygon(
                                        vec![a.0, b.0, c.0],
                                        with_alpha(COLOR_SIMPLEX, 60),
                                        Stroke::NONE,
                                    ),
                                ));
                            }
                        }
                    }
                }
                for (i, p) in ps.iter().enumerate() {
                    if let Some((q, d)) = p {
                        let pick = Pick {
                            event: e,
                            vertex: i as u32 * 3,
                        };
                        let hot = hovered_vertex == Some((e, i as u32)) || selected.contains(&pick);
                        items.push((
                            *d - 1e-9,
                            Shape::circle_filled(
                                *q,
                                if hot { 7.0 } else { 5.0 },
                                if hot { COLOR_HIGHLIGHT } else { COLOR_SIMPLEX },
                            ),
                        ));
                        labels.push((*q + vec2(7.0, 2.0), format!("w{i}"), COLOR_SIMPLEX));
                        picks.push((pick, *q));
                    }
                }
            }
            View::Object => {
                for (i, v) in vs.iter().enumerate() {
                    let hot = hovered_vertex == Some((e, i as u32));
                    let pa = project(v.a.to_f64());
                    let pb = project(v.b.to_f64());
                    if let (Some(a), Some(b)) = (pa, pb) {
                        let stroke = if hot {
                            Stroke::new(2.0, COLOR_HIGHLIGHT)
                        } else {
                            Stroke::new(1.0, with_alpha(COLOR_SIMPLEX, 120))
                        };
                        items.push((
                            f64::midpoint(a.1, b.1),
                            Shape::dashed_line(&[a.0, b.0], stroke, 4.0, 3.0).into(),
                        ));
                    }
                    for (part, p, col, name) in [(1, pa, COLOR_A, "a"), (2, pb, COLOR_B, "b")] {
                        if let Some((q, d)) = p {
                            let pick = Pick {
                                event: e,
                                vertex: i as u32 * 3 + part,
                            };
                            let hot = hot || selected.contains(&pick);
                            items.push((
                                d - 1e-9,
                                Shape::circle_filled(
                                    q,
                                    if hot { 7.0 } else { 4.5 },
                                    if hot { COLOR_HIGHLIGHT } else { col },
                                ),
                            ));
                            items.push((
                                d - 1e-9,
                                Shape::circle_stroke(
                                    q,
                                    if hot { 7.0 } else { 4.5 },
                                    Stroke::new(1.0, COLOR_SIMPLEX),
                                ),
                            ));
                            labels.push((q + vec2(6.0, 2.0), format!("{name}{i}"), col));
                            picks.push((pick, q));
                        }
                    }
                }
            }
        }
    }

    // One vertex-coloured mesh for the shapes: no anti-aliasing feather (which
    // spikes on thin triangles) and one shape instead of thousands.
    mesh_items.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut mesh = egui::epaint::Mesh::default();
    for (_, [a, b, c], fill) in mesh_items {
        let i = mesh.vertices.len() as u32;
        mesh.colored_vertex(a, fill);
        mesh.colored_vertex(b, fill);
        mesh.colored_vertex(c, fill);
        mesh.add_triangle(i, i + 1, i + 2);
    }
    items.sort_by(|a, b| b.0.total_cmp(&a.0));
    Frame {
        shapes: std::iter::once(Shape::mesh(mesh))
            .chain(items.into_iter().map(|(_, s)| s))
            .collect(),
        picks,
        labels,
    }
}
