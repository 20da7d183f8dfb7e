//! Builds the painted shapes of one 3D view from a [`Session`]: the shapes'
//! surfaces, the recorded points, lines and triangles, the simplices, the
//! origin, and where each pickable point and label landed on screen.
//!
//! Everything is clipped in f64 first ([`clip`](super::clip)): at the near
//! plane, then to the view, so nothing is dropped for having a vertex behind
//! the camera or 10¹¹ pixels away. Filled areas are meshes without
//! anti-aliasing feather (a sliver triangle stays a sliver, not a spike
//! across the view); outlines are separate line segments.
//!
//! (~1000 lines, half of them tests of the hard cases. Splitting plan, not yet
//! done: the answer drawing (`Out`, `answer`) to `paint/answer.rs`.)

use super::clip::{self, Px};
use super::{
    COLOR_A, COLOR_ANSWER, COLOR_B, COLOR_CSO, COLOR_DEFAULT, COLOR_HIGHLIGHT, COLOR_ORIGIN,
    COLOR_SIMPLEX, color, with_alpha,
};
use crate::state::camera::{OrbitCamera, Projector};
use crate::state::scene::Pick;
use crate::state::session::{Session, View};
use crate::state::surface::Surface;
use crate::state::trace::{Entry, Prim};
use cspace_recorder::Answer;
use egui::{Color32, Pos2, Rect, Shape, Stroke, pos2, vec2};
use glam::DVec3;

/// Pixels around the view that clipped geometry may reach (strokes at the
/// edge stay whole; the painter clips the rest).
const MARGIN: f64 = 4.0;

/// A text label at a point, placed by the view so labels do not overlap.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The point labelled.
    pub anchor: Pos2,
    /// The text.
    pub text: String,
    /// Its colour.
    pub color: Color32,
    /// Lower is placed first (and kept when space runs out).
    pub priority: u8,
}

/// Label priorities: what keeps its label when labels would overlap.
pub mod priority {
    /// The hovered or a selected point.
    pub const HOT: u8 = 0;
    /// The origin and the query's answer.
    pub const ORIGIN: u8 = 1;
    /// A simplex vertex.
    pub const SIMPLEX: u8 = 2;
    /// A recorded point.
    pub const POINT: u8 = 3;
    /// A recorded line.
    pub const LINE: u8 = 4;
    /// Annotations (a sweep's motion).
    pub const NOTE: u8 = 5;
}

/// The shapes of one view, depth-sorted, and the pickable points on screen.
#[derive(Default)]
pub struct Frame {
    /// What to paint, back to front.
    pub shapes: Vec<Shape>,
    /// Pickable points and their screen positions.
    pub picks: Vec<(Pick, Pos2)>,
    /// Text labels, painted on top by priority.
    pub labels: Vec<Label>,
}

/// Projection with clipping into one view's rectangle.
struct Clipper {
    proj: Projector,
    origin: Pos2,
    min: Px,
    max: Px,
}

impl Clipper {
    fn new(cam: &OrbitCamera, rect: Rect) -> Self {
        let (w, h) = (f64::from(rect.width()), f64::from(rect.height()));
        Self {
            proj: cam.projector(rect.width(), rect.height()),
            origin: rect.left_top(),
            min: [-MARGIN, -MARGIN],
            max: [w + MARGIN, h + MARGIN],
        }
    }

    fn pos(&self, p: Px) -> Pos2 {
        #[expect(clippy::cast_possible_truncation, reason = "clipped to the view first")]
        pos2(self.origin.x + p[0] as f32, self.origin.y + p[1] as f32)
    }

    /// A point in the view (and its depth); `None` off screen or behind.
    fn point(&self, p: [f64; 3]) -> Option<(Pos2, f64)> {
        let c = self.proj.to_camera(p);
        if !c.is_finite() || c.z <= self.proj.near() {
            return None;
        }
        let s = self.proj.to_screen(c);
        let inside = (0..2).all(|k| s[k] >= self.min[k] && s[k] <= self.max[k]);
        inside.then(|| (self.pos(s), c.z))
    }

    /// The visible part of a segment, and its mean depth.
    fn segment(&self, a: [f64; 3], b: [f64; 3]) -> Option<([Pos2; 2], f64)> {
        let (ca, cb) = (self.proj.to_camera(a), self.proj.to_camera(b));
        if !ca.is_finite() || !cb.is_finite() {
            return None;
        }
        let (ca, cb) = clip::near_segment(ca, cb, self.proj.near())?;
        let (sa, sb) = clip::rect_segment(
            self.proj.to_screen(ca),
            self.proj.to_screen(cb),
            self.min,
            self.max,
        )?;
        Some(([self.pos(sa), self.pos(sb)], f64::midpoint(ca.z, cb.z)))
    }

    /// The visible part of a convex polygon, and its mean depth.
    fn polygon(&self, pts: &[DVec3]) -> Option<(Vec<Pos2>, f64)> {
        let cam: Vec<DVec3> = pts
            .iter()
            .map(|p| self.proj.to_camera(p.to_array()))
            .collect();
        if cam.iter().any(|c| !c.is_finite()) {
            return None;
        }
        let front = clip::near(&cam, self.proj.near());
        if front.len() < 3 {
            return None;
        }
        let depth = front.iter().map(|c| c.z).sum::<f64>() / front.len() as f64;
        let screen: Vec<Px> = front.iter().map(|c| self.proj.to_screen(*c)).collect();
        let cut = clip::rect(&screen, self.min, self.max);
        (cut.len() >= 3).then(|| (cut.into_iter().map(|p| self.pos(p)).collect(), depth))
    }
}

/// Filled convex polygons (back to front), one feather-free mesh.
#[derive(Default)]
struct Fills(Vec<(f64, Vec<Pos2>, Vec<Color32>)>);

impl Fills {
    /// A polygon with one colour per vertex (or one for all).
    fn push(&mut self, depth: f64, poly: Vec<Pos2>, colors: Vec<Color32>) {
        self.0.push((depth, poly, colors));
    }

    fn into_mesh(mut self) -> egui::epaint::Mesh {
        self.0.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut mesh = egui::epaint::Mesh::default();
        for (_, poly, colors) in self.0 {
            let i = mesh.vertices.len() as u32;
            for (k, p) in poly.iter().enumerate() {
                mesh.colored_vertex(*p, colors[k.min(colors.len() - 1)]);
            }
            for k in 1..poly.len() as u32 - 1 {
                mesh.add_triangle(i, i + k, i + k + 1);
            }
        }
        mesh
    }
}

/// The shading of a surface at normal `n`: a headlight, never black.
fn shade(base: Color32, n: DVec3, light: DVec3, alpha: u8) -> Color32 {
    #[expect(clippy::cast_possible_truncation, reason = "in [0.35, 1]")]
    let k = (0.35 + 0.65 * n.dot(light).abs()) as f32;
    #[expect(clippy::cast_sign_loss, reason = "non-negative")]
    let f = |c: u8| (f32::from(c) * k) as u8;
    Color32::from_rgba_unmultiplied(f(base.r()), f(base.g()), f(base.b()), alpha)
}

/// Draws a surface: its front faces shaded (smoothly on curved shapes), its
/// creases where a front face meets them and its silhouette; hidden edges
/// are not drawn.
fn surface(
    s: &Surface,
    offset: DVec3,
    base: Color32,
    alpha: u8,
    (clipper, cam): (&Clipper, &OrbitCamera),
    fills: &mut Fills,
    items: &mut Vec<(f64, Shape)>,
) {
    let eye = cam.eye();
    let light = -cam.forward();
    let view_dir = |p: DVec3| if cam.ortho { light } else { eye - p };
    let front: Vec<bool> = s
        .mesh
        .triangles
        .iter()
        .zip(&s.face_normals)
        .map(|(t, n)| {
            let c = t
                .iter()
                .map(|&i| s.mesh.vertices[i as usize])
                .sum::<DVec3>()
                / 3.0
                + offset;
            n.dot(view_dir(c)) > 0.0
        })
        .collect();
    for (k, t) in s.mesh.triangles.iter().enumerate() {
        if !front[k] {
            continue;
        }
        let pts = t.map(|i| s.mesh.vertices[i as usize] + offset);
        if let Some((poly, depth)) = clipper.polygon(&pts) {
            // Clipping keeps corners in order; a cut polygon shades flat.
            let colors = if poly.len() == 3 {
                s.corner_normals[k]
                    .iter()
                    .map(|&n| shade(base, n, light, alpha))
                    .collect()
            } else {
                vec![shade(base, s.face_normals[k], light, alpha)]
            };
            fills.push(depth, poly, colors);
        }
    }
    let crease = Stroke::new(1.0, with_alpha(base, 200));
    let outline = Stroke::new(1.2, with_alpha(base, 230));
    for e in &s.edges {
        let [f, g] = e.faces.map(|f| front[f as usize]);
        let stroke = match (f, g, e.crease) {
            (true, true, true) => crease,
            (true, false, _) | (false, true, _) => outline,
            _ => continue,
        };
        let [a, b] =
            e.v.map(|i| (s.mesh.vertices[i as usize] + offset).to_array());
        if let Some((seg, depth)) = clipper.segment(a, b) {
            // Just in front of the faces they bound.
            items.push((depth * (1.0 - 1e-9), Shape::line_segment(seg, stroke)));
        }
    }
}

/// Builds the painted shapes for `view` in `rect` (no egui state involved, so
/// the benchmark can time it).
#[allow(clippy::too_many_lines, clippy::cast_sign_loss)] // one pass over every kind of item
pub fn build_frame(session: &mut Session, view: View, rect: Rect) -> Frame {
    let cam: OrbitCamera = session.cameras[view as usize];
    let clipper = Clipper::new(&cam, rect);
    // Surfaces first (one depth-sorted mesh), then the recorded items on
    // top, so a simplex on the surface of A − B is never hidden by it.
    let mut fills = Fills::default();
    let mut items: Vec<(f64, Shape)> = Vec::new();
    let mut picks = Vec::new();
    let mut labels = Vec::new();
    let hovered_vertex = session.selection.hovered_simplex_vertex(&session.trace);
    let selected: Vec<Pick> = [session.selection.first, session.selection.second]
        .into_iter()
        .flatten()
        .collect();
    let label = |labels: &mut Vec<Label>, anchor: Pos2, text: String, color, priority| {
        labels.push(Label {
            anchor,
            text,
            color,
            priority,
        });
    };

    // Shapes.
    if let Some(Entry::Shapes(k)) = session
        .visible
        .shapes
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
    {
        let motion = session
            .trace
            .shapes
            .get(k as usize)
            .and_then(|s| s.motion)
            .map(DVec3::from);
        let meshes = session.meshes.get(&session.trace, k);
        let both = (&clipper, &cam);
        match view {
            View::Config => surface(
                &meshes.cso,
                DVec3::ZERO,
                COLOR_CSO,
                110,
                both,
                &mut fills,
                &mut items,
            ),
            View::Object => {
                surface(
                    &meshes.a,
                    DVec3::ZERO,
                    COLOR_A,
                    140,
                    both,
                    &mut fills,
                    &mut items,
                );
                surface(
                    &meshes.b,
                    DVec3::ZERO,
                    COLOR_B,
                    140,
                    both,
                    &mut fills,
                    &mut items,
                );
                if let Some(m) = motion {
                    // A at the end of its sweep, and the motion as a line.
                    surface(&meshes.a, m, COLOR_A, 60, both, &mut fills, &mut items);
                    let c = meshes.a.mesh.centre;
                    if let Some((seg, d)) = clipper.segment(c.to_array(), (c + m).to_array()) {
                        items.push((
                            d,
                            Shape::line_segment(seg, Stroke::new(1.5, COLOR_HIGHLIGHT)),
                        ));
                        label(
                            &mut labels,
                            seg[1],
                            "A + motion".to_owned(),
                            COLOR_HIGHLIGHT,
                            priority::NOTE,
                        );
                    }
                }
            }
        }
    }

    // The origin in configuration space: neutral axes (the simplex, closest
    // point and search direction own the colours).
    if view == View::Config
        && let Some((o, d)) = clipper.point([0.0; 3])
    {
        let s = cam.distance * 0.08;
        for (tip, name) in [
            ([s, 0.0, 0.0], "x"),
            ([0.0, s, 0.0], "y"),
            ([0.0, 0.0, s], "z"),
        ] {
            if let Some((seg, _)) = clipper.segment([0.0; 3], tip) {
                items.push((
                    d,
                    Shape::line_segment(seg, Stroke::new(1.0, with_alpha(COLOR_ORIGIN, 150))),
                ));
                if seg[1].distance(seg[0]) > 12.0 {
                    label(
                        &mut labels,
                        seg[1],
                        name.to_owned(),
                        with_alpha(COLOR_ORIGIN, 170),
                        priority::NOTE,
                    );
                }
            }
        }
        items.push((
            d * (1.0 - 1e-9),
            Shape::circle_stroke(o, 4.0, Stroke::new(1.5, COLOR_ORIGIN)),
        ));
        label(
            &mut labels,
            o,
            "O".to_owned(),
            COLOR_ORIGIN,
            priority::ORIGIN,
        );
    }

    // Recorded drawables.
    let (list, draws) = match view {
        View::Config => (&session.visible.config, &session.visible.config_draws),
        View::Object => (&session.visible.object, &session.visible.object_draws),
    };
    // The drawables' indices, when the visible set has them: one lookup
    // (a likely cache miss in a large recording) less per drawable.
    let indexed = draws.len() == list.len();
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
    if bulk {
        // One quad per point at most: no regrowing (and re-copying) the mesh.
        points.reserve_vertices(4 * list.len());
        points.reserve_triangles(2 * list.len());
    }
    picks.reserve(list.len());
    for (n, &e) in list.iter().enumerate() {
        let k = if indexed {
            draws[n]
        } else if let Some(&Entry::Draw(k)) = session.trace.entries.get(e as usize) {
            k
        } else {
            continue;
        };
        let Some(d) = session.trace.drawables.get(k as usize) else {
            continue;
        };
        let col = color(d.color, default);
        let name = if show_labels {
            session.trace.site(d.site).label.as_str()
        } else {
            ""
        };
        let pick = |vertex| Pick { event: e, vertex };
        match d.prim {
            Prim::Point(p) => {
                if let Some((q, depth)) = clipper.point(p.to_f64()) {
                    let hot = selected.contains(&pick(0));
                    if bulk {
                        points.add_colored_rect(Rect::from_center_size(q, vec2(3.0, 3.0)), col);
                    } else {
                        let r = if hot { 6.0 } else { 4.0 };
                        items.push((depth, Shape::circle_filled(q, r, col)));
                    }
                    if !name.is_empty() {
                        let p = if hot { priority::HOT } else { priority::POINT };
                        label(&mut labels, q, name.to_owned(), col, p);
                    }
                    picks.push((pick(0), q));
                }
            }
            Prim::Line(a, b) => {
                let (a, b) = (a.to_f64(), b.to_f64());
                if let Some((seg, depth)) = clipper.segment(a, b) {
                    items.push((depth, Shape::line_segment(seg, Stroke::new(2.0, col))));
                    if !name.is_empty() {
                        label(
                            &mut labels,
                            seg[0].lerp(seg[1], 0.5),
                            name.to_owned(),
                            col,
                            priority::LINE,
                        );
                    }
                }
                for (i, p) in [a, b].into_iter().enumerate() {
                    if let Some((q, _)) = clipper.point(p) {
                        picks.push((pick(i as u32), q));
                    }
                }
            }
            Prim::Triangle(v) => {
                let pts = v.map(|p| DVec3::from(p.to_f64()));
                triangle(&clipper, pts, col, &mut fills, &mut items);
                for (i, p) in pts.iter().enumerate() {
                    if let Some((q, _)) = clipper.point(p.to_array()) {
                        picks.push((pick(i as u32), q));
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
                let ws: Vec<DVec3> = vs.iter().map(|v| DVec3::from(v.w.to_f64())).collect();
                for i in 0..n {
                    for j in i + 1..n {
                        if let Some((seg, d)) = clipper.segment(ws[i].to_array(), ws[j].to_array())
                        {
                            items.push((
                                d,
                                Shape::line_segment(seg, Stroke::new(2.0, COLOR_SIMPLEX)),
                            ));
                        }
                        for l in j + 1..n {
                            if let Some((poly, d)) = clipper.polygon(&[ws[i], ws[j], ws[l]]) {
                                fills.push(d, poly, vec![with_alpha(COLOR_SIMPLEX, 60)]);
                            }
                        }
                    }
                }
                for (i, w) in ws.iter().enumerate() {
                    let pick = Pick {
                        event: e,
                        vertex: i as u32 * 3,
                    };
                    if let Some((q, d)) = clipper.point(w.to_array()) {
                        let hot = hovered_vertex == Some((e, i as u32)) || selected.contains(&pick);
                        items.push((
                            d * (1.0 - 1e-9),
                            Shape::circle_filled(
                                q,
                                if hot { 7.0 } else { 5.0 },
                                if hot { COLOR_HIGHLIGHT } else { COLOR_SIMPLEX },
                            ),
                        ));
                        let p = if hot {
                            priority::HOT
                        } else {
                            priority::SIMPLEX
                        };
                        label(&mut labels, q, format!("w{i}"), COLOR_SIMPLEX, p);
                        picks.push((pick, q));
                    }
                }
            }
            View::Object => {
                for (i, v) in vs.iter().enumerate() {
                    let hot = hovered_vertex == Some((e, i as u32));
                    let (a, b) = (v.a.to_f64(), v.b.to_f64());
                    if let Some((seg, d)) = clipper.segment(a, b) {
                        let stroke = if hot {
                            Stroke::new(2.0, COLOR_HIGHLIGHT)
                        } else {
                            Stroke::new(1.0, with_alpha(COLOR_SIMPLEX, 140))
                        };
                        items.push((d, Shape::dashed_line(&seg, stroke, 4.0, 3.0).into()));
                    }
                    for (part, p, col, name) in [(1, a, COLOR_A, "a"), (2, b, COLOR_B, "b")] {
                        let pick = Pick {
                            event: e,
                            vertex: i as u32 * 3 + part,
                        };
                        if let Some((q, d)) = clipper.point(p) {
                            let hot = hot || selected.contains(&pick);
                            let r = if hot { 7.0 } else { 4.5 };
                            let fill = if hot { COLOR_HIGHLIGHT } else { col };
                            items.push((d * (1.0 - 1e-9), Shape::circle_filled(q, r, fill)));
                            items.push((
                                d * (1.0 - 1e-9),
                                Shape::circle_stroke(q, r, Stroke::new(1.0, COLOR_SIMPLEX)),
                            ));
                            let p = if hot {
                                priority::HOT
                            } else {
                                priority::SIMPLEX
                            };
                            label(&mut labels, q, format!("{name}{i}"), col, p);
                            picks.push((pick, q));
                        }
                    }
                }
            }
        }
    }

    // The query's answer, at its end and after.
    if let Some(Entry::Answer(k)) = session
        .visible
        .answer
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
        && let Some(rec) = session.trace.answers.get(k as usize)
    {
        let answer_now = rec.answer.clone();
        let event = session.visible.answer.unwrap_or_default();
        // A's position and motion (not the shapes: a hull may be large).
        let shapes = session
            .visible
            .shapes
            .and_then(|e| match session.trace.entries.get(e as usize) {
                Some(Entry::Shapes(k)) => session.trace.shapes.get(*k as usize),
                _ => None,
            })
            .map(|s| (s.a.position, s.motion));
        let per_px = cam.per_pixel(rect.height());
        let mut out = Out {
            items: &mut items,
            labels: &mut labels,
            picks: &mut picks,
            fills: &mut fills,
        };
        answer(
            &answer_now,
            view,
            (event, shapes),
            (&clipper, &cam, per_px),
            session,
            &mut out,
        );
    }

    items.sort_by(|a, b| b.0.total_cmp(&a.0));
    Frame {
        shapes: std::iter::once(Shape::mesh(fills.into_mesh()))
            .chain(items.into_iter().map(|(_, s)| s))
            .collect(),
        picks,
        labels,
    }
}

/// Where drawing goes.
struct Out<'a> {
    items: &'a mut Vec<(f64, Shape)>,
    labels: &'a mut Vec<Label>,
    picks: &'a mut Vec<(Pick, Pos2)>,
    fills: &'a mut Fills,
}

impl Out<'_> {
    /// A labelled, pickable answer point (drawn in front of everything).
    fn point(&mut self, clipper: &Clipper, p: [f64; 3], text: String, pick: Pick) {
        if let Some((q, d)) = clipper.point(p) {
            self.items
                .push((d * 1e-3, Shape::circle_filled(q, 5.0, COLOR_ANSWER)));
            self.items.push((
                d * 1e-3,
                Shape::circle_stroke(q, 5.0, Stroke::new(1.0, Color32::WHITE)),
            ));
            self.labels.push(Label {
                anchor: q,
                text,
                color: COLOR_ANSWER,
                priority: priority::ORIGIN,
            });
            self.picks.push((pick, q));
        }
    }

    /// A segment of the answer, optionally with an arrow head at `b`.
    fn segment(
        &mut self,
        clipper: &Clipper,
        a: [f64; 3],
        b: [f64; 3],
        color: Color32,
        arrow: bool,
    ) {
        if let Some((seg, d)) = clipper.segment(a, b) {
            let stroke = Stroke::new(2.0, color);
            self.items
                .push((d * 1e-3, Shape::line_segment(seg, stroke)));
            let dir = seg[1] - seg[0];
            if arrow && dir.length() > 6.0 && clipper.point(b).is_some() {
                let u = dir.normalized() * 8.0;
                let side = vec2(-u.y, u.x) * 0.5;
                for s in [side, -side] {
                    self.items.push((
                        d * 1e-3,
                        Shape::line_segment([seg[1], seg[1] - u + s], stroke),
                    ));
                }
            }
        }
    }
}

fn scalar_text(v: cspace_recorder::Scalar) -> String {
    crate::state::log::short(v.to_f64())
}

/// A's position and its motion, for drawing a sweep's answer.
type APlacement = ([f64; 3], Option<[f64; 3]>);

/// Draws a query's answer: in object space the witness points, the
/// segment between them and the normal (A at impact for a sweep); in
/// configuration space the closest point or penetration vector from the
/// origin (the hit point −toi·motion for a sweep, the separating axis for
/// an intersect). Normals are drawn 40 pixels long.
#[allow(clippy::too_many_lines)] // one arm per answer kind and view
fn answer(
    a: &Answer,
    view: View,
    (event, shapes): (u32, Option<APlacement>),
    (clipper, cam, per_px): (&Clipper, &OrbitCamera, f64),
    session: &mut Session,
    out: &mut Out<'_>,
) {
    let pick = |vertex| Pick { event, vertex };
    let v = |x: &cspace_recorder::Vec3Data| DVec3::from(x.to_f64());
    let arrow = |from: DVec3, n: DVec3| (from + n.normalize_or_zero() * per_px * 40.0).to_array();
    match (a, view) {
        (
            Answer::Distance {
                distance,
                point_a,
                point_b,
                normal,
            }
            | Answer::Penetration {
                depth: distance,
                point_a,
                point_b,
                normal,
            },
            View::Object,
        ) => {
            let (pa, pb) = (v(point_a), v(point_b));
            let (what, on_a, on_b) = match a {
                Answer::Distance { .. } => ("distance", "closest on A", "closest on B"),
                _ => ("depth", "deepest on A", "deepest on B"),
            };
            out.segment(clipper, pa.to_array(), pb.to_array(), COLOR_ANSWER, false);
            out.segment(
                clipper,
                pa.to_array(),
                arrow(pa, v(normal)),
                COLOR_HIGHLIGHT,
                true,
            );
            // The value first (placed before the points' names), at the middle.
            if let Some((seg, _)) = clipper.segment(pa.to_array(), pb.to_array()) {
                out.labels.push(Label {
                    anchor: seg[0].lerp(seg[1], 0.5),
                    text: format!("{what} {}", scalar_text(*distance)),
                    color: COLOR_ANSWER,
                    priority: priority::HOT,
                });
            }
            out.point(clipper, pa.to_array(), on_a.to_owned(), pick(0));
            out.point(clipper, pb.to_array(), on_b.to_owned(), pick(1));
        }
        (
            Answer::Distance {
                distance,
                point_a,
                point_b,
                ..
            }
            | Answer::Penetration {
                depth: distance,
                point_a,
                point_b,
                ..
            },
            View::Config,
        ) => {
            let c = v(point_a) - v(point_b);
            let what = if matches!(a, Answer::Distance { .. }) {
                "closest point"
            } else {
                "penetration"
            };
            out.segment(clipper, [0.0; 3], c.to_array(), COLOR_ANSWER, true);
            out.point(
                clipper,
                c.to_array(),
                format!("{what} · {}", scalar_text(*distance)),
                pick(2),
            );
        }
        (
            Answer::Sweep {
                hit,
                toi,
                normal,
                point,
                position_a,
            },
            View::Object,
        ) => {
            // A where the sweep stopped: at impact, or at its end.
            if let Some((a_at, _)) = shapes {
                let shift = v(position_a) - DVec3::from(a_at);
                if let Some(Entry::Shapes(k)) = session
                    .visible
                    .shapes
                    .and_then(|e| session.trace.entries.get(e as usize))
                    .copied()
                {
                    let meshes = session.meshes.get(&session.trace, k);
                    surface(
                        &meshes.a,
                        shift,
                        COLOR_ANSWER,
                        90,
                        (clipper, cam),
                        out.fills,
                        out.items,
                    );
                }
            }
            let note = if *hit {
                format!("A at impact · toi {}", scalar_text(*toi))
            } else {
                format!("no hit · toi {}", scalar_text(*toi))
            };
            out.point(clipper, v(position_a).to_array(), note, pick(1));
            if *hit {
                let p = v(point);
                out.segment(
                    clipper,
                    p.to_array(),
                    arrow(p, v(normal)),
                    COLOR_HIGHLIGHT,
                    true,
                );
                out.point(clipper, p.to_array(), "contact".to_owned(), pick(0));
            }
        }
        (Answer::Sweep { hit, toi, .. }, View::Config) => {
            if let (true, Some(m)) = (*hit, shapes.and_then(|s| s.1)) {
                let at = DVec3::from(m) * -toi.to_f64();
                out.segment(clipper, [0.0; 3], at.to_array(), COLOR_ANSWER, true);
                if let Some((q, _)) = clipper.point(at.to_array()) {
                    out.labels.push(Label {
                        anchor: q,
                        text: format!("−toi · motion · toi {}", scalar_text(*toi)),
                        color: COLOR_ANSWER,
                        priority: priority::ORIGIN,
                    });
                }
            }
        }
        (Answer::Intersect { axis, .. }, View::Config) => {
            if let Some(x) = axis {
                let tip = arrow(DVec3::ZERO, v(x));
                out.segment(clipper, [0.0; 3], tip, COLOR_ANSWER, true);
                if let Some((q, _)) = clipper.point(tip) {
                    out.labels.push(Label {
                        anchor: q,
                        text: "separating axis".to_owned(),
                        color: COLOR_ANSWER,
                        priority: priority::ORIGIN,
                    });
                    out.picks.push((pick(0), q));
                }
            }
        }
        (Answer::Intersect { .. }, View::Object) => {}
    }
}

/// A recorded triangle: a feather-free fill and its three edges as lines,
/// so a sliver (EPA's last faces, a flat simplex) draws as the thin shape it
/// is, never as a spike.
fn triangle(
    clipper: &Clipper,
    pts: [DVec3; 3],
    col: Color32,
    fills: &mut Fills,
    items: &mut Vec<(f64, Shape)>,
) {
    if let Some((poly, depth)) = clipper.polygon(&pts) {
        fills.push(depth, poly, vec![with_alpha(col, 70)]);
    }
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        if let Some((seg, d)) = clipper.segment(pts[i].to_array(), pts[j].to_array()) {
            items.push((d, Shape::line_segment(seg, Stroke::new(1.5, col))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::trace::Trace;
    use cspace_recorder as rec;

    fn session_of(f: impl FnOnce()) -> Session {
        let ((), r) = rec::record(f);
        let mut s = Session::new(Trace::from_bytes(&r.bytes), "t");
        s.command(crate::state::timeline::Command::Last);
        s
    }

    fn spiky(shape: &Shape, rect: Rect) -> bool {
        // Anything painted far outside the view is a spike.
        let r = shape.visual_bounding_rect();
        r.is_finite() && !rect.expand(10.0).contains_rect(r)
    }

    #[test]
    fn a_sliver_triangle_stays_inside_its_own_bounds() {
        let s = &mut session_of(|| {
            rec::triangle!(
                "sliver",
                [0.0f64, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.5, 1e-12, 0.0]
            );
            rec::triangle!(
                "big",
                [-1.0f64, -1.0, 0.0],
                [1.0, -1.0, 0.0],
                [0.0, 1.0, 0.0]
            );
        });
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0));
        s.frame_all(View::Object);
        let frame = build_frame(s, View::Object, rect);
        assert!(!frame.shapes.iter().any(|sh| spiky(sh, rect)));
        // Filled areas carry no feather: a mesh, not stroked polygons.
        assert!(frame.shapes.iter().all(|sh| !matches!(sh, Shape::Path(_))));
    }

    #[test]
    fn a_thin_box_crossing_the_camera_is_clipped_not_dropped() {
        let long = rec::ShapeDecl::new(rec::ShapeGeom::Box {
            half_extents: [50.0, 0.05, 0.05],
        })
        .at([0.0; 3], [0.0, 0.0, 0.0, 1.0]);
        let tiny = rec::ShapeDecl::new(rec::ShapeGeom::Sphere { radius: 0.1 })
            .at([0.0, 3.0, 0.0], [0.0, 0.0, 0.0, 1.0]);
        let s = &mut session_of(|| rec::shapes!(long, tiny));
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0));
        // Look along the box from just outside it, then from inside its far half.
        let cam = &mut s.cameras[View::Object as usize];
        *cam = OrbitCamera {
            target: DVec3::new(0.0, 0.0, 0.0),
            yaw: std::f64::consts::FRAC_PI_2,
            pitch: 0.05,
            distance: 20.0,
            ..OrbitCamera::default()
        };
        let frame = build_frame(s, View::Object, rect);
        let Shape::Mesh(mesh) = &frame.shapes[0] else {
            panic!("the surfaces come first");
        };
        assert!(!mesh.vertices.is_empty(), "the box's near part is drawn");
        assert!(
            mesh.vertices
                .iter()
                .all(|v| rect.expand(5.0).contains(v.pos))
        );
    }

    #[test]
    fn a_gap_of_1e_minus_9_zoomed_at_the_origin_shows_face_point_and_origin_apart() {
        // Two unit boxes 1e-9 apart along x: A − B's face is at x = −1e-9.
        let unit = |x| {
            rec::ShapeDecl::new(rec::ShapeGeom::Box {
                half_extents: [1.0, 1.0, 1.0],
            })
            .at([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
        };
        let s = &mut session_of(|| {
            rec::shapes!(unit(0.0), unit(2.0 + 1e-9));
            rec::point!(cso "closest v", [-1e-9f64, 0.0, 0.0]);
            rec::pause!("end");
        });
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(600.0, 400.0));
        s.aspect = [1.5, 1.5];
        s.frame_all(View::Config);
        s.set_ortho(true);
        let cam = &mut s.cameras[View::Config as usize];
        (cam.yaw, cam.pitch) = (0.0, 0.0); // x to the right, looking down −z
        s.focus(View::Config, [0.0; 3]);
        // Scroll at the view's centre until a pixel is 1e-11 long.
        while s.cameras[0].per_pixel(rect.height()) > 1e-11 {
            s.zoom_at(View::Config, 1.2, (0.0, 0.0), rect.height());
        }
        let frame = build_frame(s, View::Config, rect);
        let at = |name: &str| {
            frame
                .labels
                .iter()
                .find(|l| l.text == name)
                .map_or_else(|| panic!("{name} drawn"), |l| l.anchor)
        };
        let (origin, closest) = (at("O"), at("closest v"));
        let gap_px = origin.x - closest.x;
        let expected = (1e-9 / s.cameras[0].per_pixel(rect.height())) as f32;
        assert!(
            (gap_px - expected).abs() < 1.0,
            "{gap_px} px for {expected}"
        );
        assert!(gap_px > 80.0, "the gap is visible: {gap_px} px");
        // The face of A − B is drawn up to the closest point, not past it.
        let Shape::Mesh(mesh) = &frame.shapes[0] else {
            panic!("the surface first");
        };
        assert!(!mesh.vertices.is_empty(), "the face is drawn");
        let right = mesh
            .vertices
            .iter()
            .map(|v| v.pos.x)
            .fold(f32::MIN, f32::max);
        assert!(
            (right - closest.x).abs() < 1.0,
            "face edge {right} at {}",
            closest.x
        );
    }
}
