//! Draws a query's answer at its last step and after: in object space the
//! witness points, the segment between them and the normal (A at impact for
//! a sweep); in configuration space the closest point or penetration vector
//! from the origin (−toi·motion for a sweep, the separating axis for an
//! intersect). The answer is drawn over everything (the overlay layer), so
//! no surface or line hides it.

use super::frame::{Clipper, Label, Sink, priority, surface};
use super::geometry::{At, Layer};
use super::{COLOR_ANSWER, COLOR_HIGHLIGHT};
use crate::state::camera::OrbitCamera;
use crate::state::scene::Pick;
use crate::state::session::{Session, View};
use crate::state::trace::Entry;
use cspace_recorder::Answer;
use egui::{Color32, Rect, vec2};
use glam::DVec3;

/// Normals and axes are drawn this many points long.
const ARROW_POINTS: f64 = 40.0;

/// The answer's drawing, over a view's [`Sink`].
pub(super) struct Out<'a>(pub(super) &'a mut Sink);

impl Out<'_> {
    /// A labelled, pickable answer point.
    fn point(&mut self, clipper: &Clipper, p: [f64; 3], text: String, pick: Pick) {
        if let Some(q) = clipper.point(p) {
            self.0.geometry.disc(Layer::Overlay, q, 5.0, COLOR_ANSWER);
            self.0
                .geometry
                .ring(Layer::Overlay, q, 5.0, 1.0, Color32::WHITE);
            let at = clipper.screen(q);
            self.0.label(at, text, COLOR_ANSWER, priority::ORIGIN);
            self.0.picks.push((pick, at));
            self.0.dots.push(at);
        }
    }

    /// A segment of the answer, optionally with an arrow head at `b`.
    fn segment(&mut self, clipper: &Clipper, [a, b]: [[f64; 3]; 2], color: Color32, arrow: bool) {
        let Some(seg) = clipper.segment(a, b) else {
            return;
        };
        self.0.geometry.segment(Layer::Overlay, seg, 2.0, color);
        let [p, q] = seg.map(|s| clipper.screen(s));
        let dir = q - p;
        if arrow && dir.length() > 6.0 && clipper.point(b).is_some() {
            let u = dir.normalized() * 8.0;
            let side = vec2(-u.y, u.x) * 0.5;
            let tip = seg[1];
            for s in [side, -side] {
                let back: At = [
                    tip[0] - f64::from(u.x - s.x),
                    tip[1] - f64::from(u.y - s.y),
                    tip[2],
                ];
                self.0
                    .geometry
                    .segment(Layer::Overlay, [tip, back], 2.0, color);
            }
        }
    }

    /// A text at a point of the answer.
    fn note(&mut self, clipper: &Clipper, p: [f64; 3], text: String, pick: Option<Pick>) {
        if let Some(q) = clipper.point(p) {
            let at = clipper.screen(q);
            self.0.labels.push(Label {
                anchor: at,
                text,
                color: COLOR_ANSWER,
                priority: priority::ORIGIN,
            });
            if let Some(pick) = pick {
                self.0.picks.push((pick, at));
            }
        }
    }
}

fn scalar_text(v: cspace_recorder::Scalar) -> String {
    crate::state::log::short(v.to_f64())
}

/// Draws the answer visible at the session's cursor, if any.
#[allow(clippy::too_many_lines)] // one arm per answer kind and view
pub(super) fn draw(
    session: &mut Session,
    view: View,
    (clipper, cam, rect): (&Clipper, &OrbitCamera, Rect),
    out: &mut Out<'_>,
) {
    let Some(Entry::Answer(k)) = session
        .visible
        .answer
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
    else {
        return;
    };
    let Some(rec) = session.trace.answers.get(k as usize) else {
        return;
    };
    let answer = rec.answer.clone();
    // An answer its certificate does not call converged says so beside its number.
    let status = rec
        .certificate
        .and_then(|c| session.trace.certificates.get(c as usize))
        .map(|c| c.certificate.status.as_str())
        .filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("converged"))
        .map_or_else(String::new, |s| {
            let s = crate::state::trace::clip(s, crate::state::inspect::NAME_MAX_CHARS);
            format!(" · {s}")
        });
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
    let pick = |vertex| Pick { event, vertex };
    let v = |x: &cspace_recorder::Vec3Data| DVec3::from(x.to_f64());
    let arrow =
        |from: DVec3, n: DVec3| (from + n.normalize_or_zero() * per_px * ARROW_POINTS).to_array();
    match (&answer, view) {
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
            let (what, on_a, on_b) = match answer {
                Answer::Distance { .. } => ("distance", "closest on A", "closest on B"),
                _ => ("depth", "deepest on A", "deepest on B"),
            };
            out.segment(clipper, [pa.to_array(), pb.to_array()], COLOR_ANSWER, false);
            out.segment(
                clipper,
                [pa.to_array(), arrow(pa, v(normal))],
                COLOR_HIGHLIGHT,
                true,
            );
            // The value first (placed before the points' names), at the middle.
            if let Some(seg) = clipper.segment(pa.to_array(), pb.to_array()) {
                let [p, q] = seg.map(|s| clipper.screen(s));
                out.0.labels.push(Label {
                    anchor: p.lerp(q, 0.5),
                    text: format!("{what} {}{status}", scalar_text(*distance)),
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
            let what = if matches!(answer, Answer::Distance { .. }) {
                "closest point"
            } else {
                "penetration"
            };
            out.segment(clipper, [[0.0; 3], c.to_array()], COLOR_ANSWER, true);
            out.point(
                clipper,
                c.to_array(),
                format!("{what} · {}{status}", scalar_text(*distance)),
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
            if let Some((a_at, _)) = shapes
                && let Some(Entry::Shapes(k)) = session
                    .visible
                    .shapes
                    .and_then(|e| session.trace.entries.get(e as usize))
                    .copied()
            {
                let shift = v(position_a) - DVec3::from(a_at);
                let meshes = session.meshes.get(&session.trace, k);
                surface(
                    &meshes.a,
                    shift,
                    (COLOR_ANSWER, 90),
                    (clipper, cam),
                    &mut out.0.geometry,
                );
            }
            let note = if *hit {
                format!("A at impact · toi {}{status}", scalar_text(*toi))
            } else {
                format!("no hit · toi {}{status}", scalar_text(*toi))
            };
            out.point(clipper, v(position_a).to_array(), note, pick(1));
            if *hit {
                let p = v(point);
                out.segment(
                    clipper,
                    [p.to_array(), arrow(p, v(normal))],
                    COLOR_HIGHLIGHT,
                    true,
                );
                out.point(clipper, p.to_array(), "contact".to_owned(), pick(0));
            }
        }
        (Answer::Sweep { hit, toi, .. }, View::Config) => {
            if let (true, Some(m)) = (*hit, shapes.and_then(|s| s.1)) {
                let at = DVec3::from(m) * -toi.to_f64();
                out.segment(clipper, [[0.0; 3], at.to_array()], COLOR_ANSWER, true);
                let text = format!("−toi · motion · toi {}{status}", scalar_text(*toi));
                out.note(clipper, at.to_array(), text, None);
            }
        }
        (Answer::Intersect { axis, .. }, View::Config) => {
            if let Some(x) = axis {
                let tip = arrow(DVec3::ZERO, v(x));
                out.segment(clipper, [[0.0; 3], tip], COLOR_ANSWER, true);
                out.note(clipper, tip, "separating axis".to_owned(), Some(pick(0)));
            }
        }
        (Answer::Intersect { .. }, View::Object) => {}
    }
}
