//! Builds the geometry of one 3D view from a [`Session`]: the shapes'
//! surfaces, the recorded points, lines and triangles, the simplices, the
//! origin, and where each pickable point and label landed on screen.
//!
//! Everything is clipped in f64 first ([`clip`](super::clip)): at the near
//! plane, then to the view, so nothing is dropped for having a vertex behind
//! the camera or 10¹¹ pixels away. Each vertex keeps a depth for the GPU's
//! depth test ([`geometry`](super::geometry)): lines and points occlude each
//! other as they lie in space, translucent surfaces dim what is behind them
//! and not what is in front. Filled areas have no anti-aliasing feather (a
//! sliver triangle stays a sliver, not a spike across the view); outlines
//! are separate lines. The query's answer is drawn by [`answer`](super::answer).

use super::answer::{self, Out};
use super::clip::{self, Px};
use super::geometry::{At, Builder, Geometry, Layer, Pixels};
use super::{
    COLOR_A, COLOR_B, COLOR_CSO, COLOR_DEFAULT, COLOR_HIGHLIGHT, COLOR_ORIGIN, COLOR_SIMPLEX,
    color, with_alpha,
};
use crate::state::camera::{OrbitCamera, Projector};
use crate::state::scene::Pick;
use crate::state::session::{Session, View};
use crate::state::surface::Surface;
use crate::state::trace::{Entry, Prim};
use egui::{Color32, Pos2, Rect, pos2};
use glam::DVec3;

/// Pixels around the view that clipped geometry may reach (strokes at the
/// edge stay whole; the target's edge cuts the rest).
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

/// One view's geometry and the pickable points on screen.
#[derive(Default)]
pub struct Frame {
    /// What the GPU draws, in the view's points from its top-left.
    pub geometry: Geometry,
    /// Pickable points and their screen positions.
    pub picks: Vec<(Pick, Pos2)>,
    /// Text labels, painted on top by priority.
    pub labels: Vec<Label>,
    /// The points drawn, pickable or not, that a label should not cover:
    /// round points, and the recorded ones unless more than
    /// `MAX_AVOIDED_DOTS` (4096) are visible.
    pub dots: Vec<Pos2>,
}

/// Projection with clipping into one view's rectangle: positions come out
/// in the view's pixels with their depth key (`near / z`, or `−z` when
/// orthographic), which is affine in screen space.
pub(super) struct Clipper {
    proj: Projector,
    ortho: bool,
    origin: Pos2,
    min: Px,
    max: Px,
}

impl Clipper {
    fn new(cam: &OrbitCamera, rect: Rect) -> Self {
        let (w, h) = (f64::from(rect.width()), f64::from(rect.height()));
        Self {
            proj: cam.projector(rect.width(), rect.height()),
            ortho: cam.ortho,
            origin: rect.left_top(),
            min: [-MARGIN, -MARGIN],
            max: [w + MARGIN, h + MARGIN],
        }
    }

    /// A view position as a screen point (for picks and labels).
    pub(super) fn screen(&self, p: At) -> Pos2 {
        #[expect(clippy::cast_possible_truncation, reason = "clipped to the view first")]
        pos2(self.origin.x + p[0] as f32, self.origin.y + p[1] as f32)
    }

    /// A camera-space point (in front of the near plane) in the view.
    fn at(&self, c: DVec3) -> At {
        let [x, y] = self.proj.to_screen(c);
        let key = if self.ortho {
            -c.z
        } else {
            self.proj.near() / c.z
        };
        [x, y, key]
    }

    /// A point in the view; `None` off screen or behind.
    pub(super) fn point(&self, p: [f64; 3]) -> Option<At> {
        let c = self.proj.to_camera(p);
        if !c.is_finite() || c.z <= self.proj.near() {
            return None;
        }
        let s = self.at(c);
        let inside = (0..2).all(|k| s[k] >= self.min[k] && s[k] <= self.max[k]);
        inside.then_some(s)
    }

    /// The visible part of a segment.
    pub(super) fn segment(&self, a: [f64; 3], b: [f64; 3]) -> Option<[At; 2]> {
        let (ca, cb) = (self.proj.to_camera(a), self.proj.to_camera(b));
        if !ca.is_finite() || !cb.is_finite() {
            return None;
        }
        let (ca, cb) = clip::near_segment(ca, cb, self.proj.near())?;
        let (sa, sb) = clip::rect_segment(self.at(ca), self.at(cb), self.min, self.max)?;
        Some([sa, sb])
    }

    /// The visible part of a convex polygon.
    pub(super) fn polygon(&self, pts: &[DVec3]) -> Option<Vec<At>> {
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
        let screen: Vec<At> = front.iter().map(|c| self.at(*c)).collect();
        let cut = clip::rect(&screen, self.min, self.max);
        (cut.len() >= 3).then_some(cut)
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
pub(super) fn surface(
    s: &Surface,
    offset: DVec3,
    (base, alpha): (Color32, u8),
    (clipper, cam): (&Clipper, &OrbitCamera),
    out: &mut Builder,
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
        if let Some(poly) = clipper.polygon(&pts) {
            // Clipping keeps corners in order; a cut polygon shades flat.
            if poly.len() == 3 {
                let colors = s.corner_normals[k].map(|n| shade(base, n, light, alpha));
                out.fill(&poly, &colors);
            } else {
                out.fill(&poly, &[shade(base, s.face_normals[k], light, alpha)]);
            }
        }
    }
    let crease = (1.0, with_alpha(base, 200));
    let outline = (1.2, with_alpha(base, 230));
    for e in &s.edges {
        let [f, g] = e.faces.map(|f| front[f as usize]);
        let (width, color) = match (f, g, e.crease) {
            (true, true, true) => crease,
            (true, false, _) | (false, true, _) => outline,
            _ => continue,
        };
        let [a, b] =
            e.v.map(|i| (s.mesh.vertices[i as usize] + offset).to_array());
        if let Some(seg) = clipper.segment(a, b) {
            out.segment(Layer::Solid, seg, width, color);
        }
    }
}

/// Where one view's drawing goes while it is built.
pub(super) struct Sink {
    pub(super) geometry: Builder,
    pub(super) picks: Vec<(Pick, Pos2)>,
    pub(super) labels: Vec<Label>,
    pub(super) dots: Vec<Pos2>,
}

impl Sink {
    pub(super) fn label(&mut self, anchor: Pos2, text: String, color: Color32, priority: u8) {
        self.labels.push(Label {
            anchor,
            text,
            color,
            priority,
        });
    }
}

/// Builds the geometry for `view` in `rect` at `per_point` pixels per
/// point (no egui state involved, so the benchmark can time it).
pub fn build_frame(session: &mut Session, view: View, rect: Rect, per_point: f32) -> Frame {
    let cam: OrbitCamera = session.cameras[view as usize];
    let clipper = Clipper::new(&cam, rect);
    session.gather_points(view);
    let pixels = Pixels::of([rect.width(), rect.height()], per_point);
    let mut out = Sink {
        geometry: Builder::new(cam.ortho, pixels),
        picks: Vec::new(),
        labels: Vec::new(),
        dots: Vec::new(),
    };
    shapes(session, view, (&clipper, &cam), &mut out);
    if view == View::Config {
        origin(&clipper, &cam, &mut out);
    }
    drawables(session, view, &clipper, &mut out);
    simplices(session, view, &clipper, &mut out);
    answer::draw(session, view, (&clipper, &cam, rect), &mut Out(&mut out));
    Frame {
        geometry: out.geometry.build(),
        picks: out.picks,
        labels: out.labels,
        dots: out.dots,
    }
}

/// The shapes' surfaces: A − B in configuration space; A and B (and A at
/// the end of a sweep, with its motion) in object space.
fn shapes(session: &mut Session, view: View, both: (&Clipper, &OrbitCamera), out: &mut Sink) {
    let Some(Entry::Shapes(k)) = session
        .visible
        .shapes
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
    else {
        return;
    };
    let motion = session
        .trace
        .shapes
        .get(k as usize)
        .and_then(|s| s.motion)
        .map(DVec3::from);
    let meshes = session.meshes.get(&session.trace, k);
    let b = &mut out.geometry;
    match view {
        View::Config => surface(&meshes.cso, DVec3::ZERO, (COLOR_CSO, 110), both, b),
        View::Object => {
            surface(&meshes.a, DVec3::ZERO, (COLOR_A, 140), both, b);
            surface(&meshes.b, DVec3::ZERO, (COLOR_B, 140), both, b);
            if let Some(m) = motion {
                // A at the end of its sweep, and the motion as a line.
                surface(&meshes.a, m, (COLOR_A, 60), both, b);
                let c = meshes.a.mesh.centre;
                if let Some(seg) = both.0.segment(c.to_array(), (c + m).to_array()) {
                    b.segment(Layer::Solid, seg, 1.5, COLOR_HIGHLIGHT);
                    let tip = both.0.screen(seg[1]);
                    out.label(
                        tip,
                        "A + motion".to_owned(),
                        COLOR_HIGHLIGHT,
                        priority::NOTE,
                    );
                }
            }
        }
    }
}

/// The origin in configuration space: neutral axes (the simplex, closest
/// point and search direction own the colours).
fn origin(clipper: &Clipper, cam: &OrbitCamera, out: &mut Sink) {
    let Some(o) = clipper.point([0.0; 3]) else {
        return;
    };
    let s = cam.distance * 0.08;
    for (tip, name) in [
        ([s, 0.0, 0.0], "x"),
        ([0.0, s, 0.0], "y"),
        ([0.0, 0.0, s], "z"),
    ] {
        if let Some(seg) = clipper.segment([0.0; 3], tip) {
            let color = with_alpha(COLOR_ORIGIN, 150);
            out.geometry.segment(Layer::Solid, seg, 1.0, color);
            let [a, b] = seg.map(|p| clipper.screen(p));
            if b.distance(a) > 12.0 {
                let color = with_alpha(COLOR_ORIGIN, 170);
                out.label(b, name.to_owned(), color, priority::NOTE);
            }
        }
    }
    out.geometry.ring(Layer::Solid, o, 4.0, 1.5, COLOR_ORIGIN);
    let at = clipper.screen(o);
    out.dots.push(at);
    out.label(at, "O".to_owned(), COLOR_ORIGIN, priority::ORIGIN);
}

/// Drawn points beyond this many are not listed in [`Frame::dots`] (labels
/// would test each; so many points carry no labels of their own).
pub(super) const MAX_AVOIDED_DOTS: usize = 4096;

/// Visible drawables beyond this many are a bulk: smaller points, stamped
/// on the CPU, with no labels, so 100 k of them fit in a frame.
const BULK_FROM: usize = 2000;

/// The recorded points, lines and triangles visible at the cursor.
fn drawables(session: &Session, view: View, clipper: &Clipper, out: &mut Sink) {
    let selected: Vec<Pick> = [session.selection.first, session.selection.second]
        .into_iter()
        .flatten()
        .collect();
    let gathered = &session.points[view as usize];
    let default = if view == View::Config {
        COLOR_DEFAULT
    } else {
        Color32::from_rgb(180, 220, 255)
    };
    let show_labels = gathered.len() <= 200;
    let name = |site| {
        if show_labels {
            session.trace.site(site).label.as_str()
        } else {
            ""
        }
    };
    let bulk = gathered.len() > BULK_FROM;
    let avoided = gathered.at.len() <= MAX_AVOIDED_DOTS;
    if bulk {
        out.geometry.reserve_bulk(gathered.at.len());
    }
    out.picks.reserve(gathered.at.len());
    for (n, &p) in gathered.at.iter().enumerate() {
        let Some(q) = clipper.point(p) else {
            continue;
        };
        let pick = Pick {
            event: gathered.event[n],
            vertex: 0,
        };
        let col = color(gathered.color[n], default);
        let hot = selected.contains(&pick);
        match (hot, bulk) {
            (true, _) => out.geometry.disc(Layer::Overlay, q, 6.0, col),
            (false, true) => out.geometry.bulk(q, col),
            (false, false) => out.geometry.disc(Layer::Solid, q, 4.0, col),
        }
        let at = clipper.screen(q);
        let label = name(gathered.site[n]);
        if !label.is_empty() {
            let p = if hot { priority::HOT } else { priority::POINT };
            out.label(at, label.to_owned(), col, p);
        }
        out.picks.push((pick, at));
        if avoided || hot {
            out.dots.push(at);
        }
    }
    for &(e, k) in &gathered.others {
        let Some(d) = session.trace.drawables.get(k as usize) else {
            continue;
        };
        let col = color(d.color, default);
        let label = name(d.site);
        let pick = |vertex| Pick { event: e, vertex };
        match d.prim {
            Prim::Point(_) => {}
            Prim::Line(a, b) => {
                let (a, b) = (a.to_f64(), b.to_f64());
                if let Some(seg) = clipper.segment(a, b) {
                    out.geometry.segment(Layer::Solid, seg, 2.0, col);
                    if !label.is_empty() {
                        let [p, q] = seg.map(|p| clipper.screen(p));
                        out.label(p.lerp(q, 0.5), label.to_owned(), col, priority::LINE);
                    }
                }
                for (i, p) in [a, b].into_iter().enumerate() {
                    if let Some(q) = clipper.point(p) {
                        out.picks.push((pick(i as u32), clipper.screen(q)));
                    }
                }
            }
            Prim::Triangle(v) => {
                let pts = v.map(|p| DVec3::from(p.to_f64()));
                triangle(clipper, pts, col, &mut out.geometry);
                for (i, p) in pts.iter().enumerate() {
                    if let Some(q) = clipper.point(p.to_array()) {
                        out.picks.push((pick(i as u32), clipper.screen(q)));
                    }
                }
            }
        }
    }
}

/// The visible simplices: in configuration space the vertices w (edges and
/// faces between them); in object space each vertex's support points a and
/// b, joined by a dashed line.
fn simplices(session: &Session, view: View, clipper: &Clipper, out: &mut Sink) {
    let hovered_vertex = session.selection.hovered_simplex_vertex(&session.trace);
    let selected: Vec<Pick> = [session.selection.first, session.selection.second]
        .into_iter()
        .flatten()
        .collect();
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
                        if let Some(seg) = clipper.segment(ws[i].to_array(), ws[j].to_array()) {
                            out.geometry.segment(Layer::Solid, seg, 2.0, COLOR_SIMPLEX);
                        }
                        for l in j + 1..n {
                            if let Some(poly) = clipper.polygon(&[ws[i], ws[j], ws[l]]) {
                                out.geometry.fill(&poly, &[with_alpha(COLOR_SIMPLEX, 60)]);
                            }
                        }
                    }
                }
                for (i, w) in ws.iter().enumerate() {
                    let pick = Pick {
                        event: e,
                        vertex: i as u32 * 3,
                    };
                    if let Some(q) = clipper.point(w.to_array()) {
                        let hot = hovered_vertex == Some((e, i as u32)) || selected.contains(&pick);
                        let (layer, r, fill, p) = if hot {
                            (Layer::Overlay, 7.0, COLOR_HIGHLIGHT, priority::HOT)
                        } else {
                            (Layer::Solid, 5.0, COLOR_SIMPLEX, priority::SIMPLEX)
                        };
                        out.geometry.disc(layer, q, r, fill);
                        let at = clipper.screen(q);
                        out.label(at, format!("w{i}"), COLOR_SIMPLEX, p);
                        out.picks.push((pick, at));
                        out.dots.push(at);
                    }
                }
            }
            View::Object => {
                for (i, v) in vs.iter().enumerate() {
                    let hot = hovered_vertex == Some((e, i as u32));
                    let (a, b) = (v.a.to_f64(), v.b.to_f64());
                    if let Some(seg) = clipper.segment(a, b) {
                        let (width, color) = if hot {
                            (2.0, COLOR_HIGHLIGHT)
                        } else {
                            (1.0, with_alpha(COLOR_SIMPLEX, 140))
                        };
                        out.geometry
                            .dashed(Layer::Solid, seg, width, color, 4.0, 3.0);
                    }
                    for (part, p, col, name) in [(1, a, COLOR_A, "a"), (2, b, COLOR_B, "b")] {
                        let pick = Pick {
                            event: e,
                            vertex: i as u32 * 3 + part,
                        };
                        if let Some(q) = clipper.point(p) {
                            let hot = hot || selected.contains(&pick);
                            let (layer, r, fill, pr) = if hot {
                                (Layer::Overlay, 7.0, COLOR_HIGHLIGHT, priority::HOT)
                            } else {
                                (Layer::Solid, 4.5, col, priority::SIMPLEX)
                            };
                            out.geometry.disc(layer, q, r, fill);
                            out.geometry.ring(layer, q, r, 1.0, COLOR_SIMPLEX);
                            let at = clipper.screen(q);
                            out.label(at, format!("{name}{i}"), col, pr);
                            out.picks.push((pick, at));
                            out.dots.push(at);
                        }
                    }
                }
            }
        }
    }
}

/// A recorded triangle: a feather-free fill and its three edges as lines,
/// so a sliver (EPA's last faces, a flat simplex) draws as the thin shape it
/// is, never as a spike.
fn triangle(clipper: &Clipper, pts: [DVec3; 3], col: Color32, out: &mut Builder) {
    if let Some(poly) = clipper.polygon(&pts) {
        out.fill(&poly, &[with_alpha(col, 70)]);
    }
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        if let Some(seg) = clipper.segment(pts[i].to_array(), pts[j].to_array()) {
            out.segment(Layer::Solid, seg, 1.5, col);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::trace::Trace;
    use cspace_recorder as rec;
    use egui::vec2;

    fn session_of(f: impl FnOnce()) -> Session {
        let ((), r) = rec::record(f);
        let mut s = Session::new(Trace::from_bytes(&r.bytes), "t");
        s.command(crate::state::timeline::Command::Last);
        s
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
        let frame = build_frame(s, View::Object, rect, 1.0);
        // Anything drawn far outside the view would be a spike.
        assert!(frame.geometry.triangles() > 0);
        assert!(
            frame
                .geometry
                .positions()
                .all(|p| rect.expand(10.0).contains(p))
        );
        // Two triangles, two fills (no extra feather geometry around them).
        assert_eq!(frame.geometry.fills.len(), 2 * 3);
    }

    #[test]
    fn a_bulk_of_points_is_stamped_and_each_stays_pickable() {
        let s = &mut session_of(|| {
            for k in 0..2500 {
                rec::point!("", [f64::from(k % 50), f64::from(k / 50), 0.0]);
            }
            rec::pause!("end");
        });
        s.frame_all(View::Object);
        s.gather_points(View::Object);
        let chosen = Pick {
            event: s.points[View::Object as usize].event[7],
            vertex: 0,
        };
        s.selection.first = Some(chosen);
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(400.0, 300.0));
        let frame = build_frame(s, View::Object, rect, 2.0);
        // The selected one is drawn over everything, the rest stamped.
        assert_eq!(frame.geometry.splatted(), 2499);
        assert!(frame.geometry.solid_dots.is_empty());
        assert_eq!(frame.geometry.overlay_dots.len(), 1);
        assert_eq!(frame.picks.len(), 2500);
        assert!(frame.picks.iter().any(|(p, _)| *p == chosen));
        // Stamped in the view's pixels (2 a point), inside it.
        let splat = frame.geometry.splat.as_ref().expect("stamped");
        assert!(splat.origin[0] + splat.size[0] <= 800 && splat.origin[1] + splat.size[1] <= 600);
        let xs = frame.picks.iter().map(|(_, p)| p.x);
        let (lo, hi) = xs.fold((f32::MAX, f32::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let wide = (hi - lo) * 2.0;
        let size = splat.size[0] as f32;
        assert!(size > wide && size < wide + 16.0, "{size} px for {wide}");
        // So many points carry no labels of their own.
        assert!(frame.labels.is_empty());
        assert_eq!(frame.dots.len(), 2500);
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
        let frame = build_frame(s, View::Object, rect, 1.0);
        let fills: Vec<Pos2> = frame.geometry.fill_positions().collect();
        assert!(!fills.is_empty(), "the box's near part is drawn");
        assert!(fills.iter().all(|p| rect.expand(5.0).contains(*p)));
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
        let frame = build_frame(s, View::Config, rect, 1.0);
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
        let fills: Vec<Pos2> = frame.geometry.fill_positions().collect();
        assert!(!fills.is_empty(), "the face is drawn");
        let right = fills.iter().map(|p| p.x).fold(f32::MIN, f32::max);
        assert!(
            (right - closest.x).abs() < 1.0,
            "face edge {right} at {}",
            closest.x
        );
    }
}
