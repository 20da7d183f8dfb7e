//! What is visible at the cursor, the meshes of the shapes (computed once per
//! `Shapes` event), and the selection.

use crate::state::hull;
use crate::state::surface::{Surface, surface};
use crate::state::trace::{Entry, ItemClass, Prim, Trace};
use cspace_recorder::{Answer, Rgba, ShapeDecl, ShapeGeom, Vec3Data};
use rayon::prelude::*;
use std::collections::HashMap;

/// The items visible at one cursor position, by event index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Visible {
    /// The cursor position this was computed for.
    pub cursor: u32,
    /// Points, lines and triangles in configuration space.
    pub config: Vec<u32>,
    /// Points, lines and triangles in object space.
    pub object: Vec<u32>,
    /// The [`Trace::drawables`] index of each of `config` (empty if not known).
    pub config_draws: Vec<u32>,
    /// The [`Trace::drawables`] index of each of `object` (empty if not known).
    pub object_draws: Vec<u32>,
    /// Simplices (one per call site).
    pub simplices: Vec<u32>,
    /// The current shapes event.
    pub shapes: Option<u32>,
    /// The answer of the query, at its end and after.
    pub answer: Option<u32>,
}

impl Visible {
    /// Collects what is visible at cursor `c` (no replay: an interval query).
    #[must_use]
    pub fn at(trace: &Trace, c: u32) -> Self {
        let mut v = Self::default();
        v.fill(trace, c);
        v
    }

    /// Recomputes the set for cursor `c`, reusing the lists' memory.
    pub fn fill(&mut self, trace: &Trace, c: u32) {
        self.cursor = c;
        self.config.clear();
        self.object.clear();
        self.config_draws.clear();
        self.object_draws.clear();
        self.simplices.clear();
        self.shapes = None;
        self.answer = None;
        // One group of the interval index per list: the many top-level
        // drawables come out as one copy.
        trace.visible_indexed(
            c,
            ItemClass::Config,
            &mut self.config,
            &mut self.config_draws,
        );
        trace.visible_indexed(
            c,
            ItemClass::Object,
            &mut self.object,
            &mut self.object_draws,
        );
        trace.visible_into(c, ItemClass::Simplex, &mut self.simplices);
        trace.visible_of(c, ItemClass::Shapes, |e| self.shapes = Some(e));
        trace.visible_of(c, ItemClass::Answer, |e| self.answer = Some(e));
    }

    /// Number of visible items.
    #[must_use]
    pub fn count(&self) -> usize {
        self.config.len()
            + self.object.len()
            + self.simplices.len()
            + usize::from(self.shapes.is_some())
            + usize::from(self.answer.is_some())
    }
}

/// One view's visible drawables gathered into columns once per cursor
/// position: a frame then reads three arrays for its points instead of the
/// trace's tables (a cache miss or two per point, most of a 100 k-point
/// frame's time otherwise).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VisiblePoints {
    /// Whether these match the visible set (cleared when it changes).
    fresh: bool,
    /// Each visible point's coordinates (exact, as recorded).
    pub at: Vec<[f64; 3]>,
    /// Each point's recorded colour.
    pub color: Vec<Option<Rgba>>,
    /// Each point's event index (what a pick names).
    pub event: Vec<u32>,
    /// Each point's call site (its label).
    pub site: Vec<u32>,
    /// The other visible drawables (lines, triangles): event and
    /// [`Trace::drawables`] index.
    pub others: Vec<(u32, u32)>,
    /// The event list gathered, and what each became: the next gather
    /// keeps the columns of the prefix the lists share (a step keeps most
    /// of the visible list).
    list: Vec<u32>,
    kind: Vec<Gathered>,
}

/// What a gathered event became.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gathered {
    /// Not a drawable the trace holds.
    Nothing,
    /// A point, in the columns.
    Point,
    /// A line or triangle, in `others`.
    Other,
}

impl VisiblePoints {
    /// Number of drawables gathered (points and others).
    #[must_use]
    pub fn len(&self) -> usize {
        self.at.len() + self.others.len()
    }

    /// Whether nothing is visible.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether these match the visible set.
    #[must_use]
    pub fn is_fresh(&self) -> bool {
        self.fresh
    }

    /// Marks these out of date (the visible set changed).
    pub fn invalidate(&mut self) {
        self.fresh = false;
    }

    /// Forgets everything gathered (the trace was replaced: the same event
    /// indices may hold other drawables).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Gathers the drawables of `list` (event indices; `draws` their
    /// drawable indices when known, else empty), keeping what the last
    /// gather of the same trace found for the prefix both lists share.
    /// Large remainders are gathered in parts on all cores: each point is a
    /// cache miss or two in the trace's tables, which cores wait for side
    /// by side.
    pub fn gather(&mut self, trace: &Trace, list: &[u32], draws: &[u32]) {
        /// Drawables per part.
        const PART: usize = 16_384;
        let keep = self
            .list
            .iter()
            .zip(list)
            .take_while(|(a, b)| a == b)
            .count();
        let (points, others) = self.kind[..keep].iter().fold((0, 0), |(p, o), k| match k {
            Gathered::Point => (p + 1, o),
            Gathered::Other => (p, o + 1),
            Gathered::Nothing => (p, o),
        });
        self.at.truncate(points);
        self.color.truncate(points);
        self.event.truncate(points);
        self.site.truncate(points);
        self.others.truncate(others);
        self.list.truncate(keep);
        self.kind.truncate(keep);
        let draws = (draws.len() == list.len()).then(|| &draws[keep..]);
        let rest = &list[keep..];
        if rest.len() <= PART {
            self.gather_part(trace, rest, draws);
        } else {
            let parts: Vec<Self> = rest
                .par_chunks(PART)
                .enumerate()
                .map(|(i, part)| {
                    let mut p = Self::default();
                    let draws = draws.map(|d| &d[i * PART..i * PART + part.len()]);
                    p.gather_part(trace, part, draws);
                    p
                })
                .collect();
            for p in parts {
                self.at.extend(p.at);
                self.color.extend(p.color);
                self.event.extend(p.event);
                self.site.extend(p.site);
                self.others.extend(p.others);
                self.list.extend(p.list);
                self.kind.extend(p.kind);
            }
        }
        self.fresh = true;
    }

    /// Appends the drawables of `list` (with their drawable indices, when known).
    fn gather_part(&mut self, trace: &Trace, list: &[u32], draws: Option<&[u32]>) {
        for (n, &e) in list.iter().enumerate() {
            let k = if let Some(draws) = draws {
                draws[n]
            } else if let Some(&Entry::Draw(k)) = trace.entries.get(e as usize) {
                k
            } else {
                self.list.push(e);
                self.kind.push(Gathered::Nothing);
                continue;
            };
            let kind = if let Some((at, color, site)) = trace.drawables.point(k as usize) {
                self.at.push(at);
                self.color.push(color);
                self.event.push(e);
                self.site.push(site);
                Gathered::Point
            } else if (k as usize) < trace.drawables.len() {
                self.others.push((e, k));
                Gathered::Other
            } else {
                Gathered::Nothing
            };
            self.list.push(e);
            self.kind.push(kind);
        }
    }
}

/// The surfaces drawn for one `Shapes` event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShapeMeshes {
    /// Shape A in world space.
    pub a: Surface,
    /// Shape B in world space.
    pub b: Surface,
    /// A − B (swept by the motion for sweeps).
    pub cso: Surface,
}

/// Whether a shape's surface is curved (smooth shading) rather than a polytope.
fn curved(decl: &ShapeDecl) -> bool {
    decl.margin > 0.0
        || matches!(
            decl.geom,
            ShapeGeom::Sphere { .. }
                | ShapeGeom::Capsule { .. }
                | ShapeGeom::Cylinder { .. }
                | ShapeGeom::Cone { .. }
        )
}

/// Meshes by shapes index, each built the first time it is needed.
#[derive(Debug, Default)]
pub struct MeshCache {
    meshes: HashMap<u32, ShapeMeshes>,
}

impl MeshCache {
    /// The meshes for `trace.shapes[k]` (empty meshes for a bad index).
    pub fn get(&mut self, trace: &Trace, k: u32) -> &ShapeMeshes {
        self.meshes.entry(k).or_insert_with(|| {
            trace
                .shapes
                .get(k as usize)
                .map_or_else(ShapeMeshes::default, |s| ShapeMeshes {
                    a: surface(hull::shape_mesh(&s.a), curved(&s.a)),
                    b: surface(hull::shape_mesh(&s.b), curved(&s.b)),
                    cso: surface(
                        hull::cso_mesh(&s.a, &s.b, s.motion),
                        curved(&s.a) || curved(&s.b),
                    ),
                })
        })
    }

    /// Forgets every mesh (after a reload).
    pub fn clear(&mut self) {
        self.meshes.clear();
    }

    /// How many meshes were built.
    #[must_use]
    pub fn len(&self) -> usize {
        self.meshes.len()
    }

    /// Whether none were built.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.meshes.is_empty()
    }
}

/// A pickable point: vertex `vertex` of the item recorded by `event`. For a
/// simplex, vertices `3k`, `3k+1`, `3k+2` are `w`, `a`, `b` of simplex vertex
/// `k`; for an answer, the points [`answer_points`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pick {
    /// The event.
    pub event: u32,
    /// Which vertex.
    pub vertex: u32,
}

impl Pick {
    /// The picked coordinates, if the pick refers to a recorded vertex.
    #[must_use]
    pub fn value(self, trace: &Trace) -> Option<Vec3Data> {
        match *trace.entries.get(self.event as usize)? {
            Entry::Draw(k) => {
                let prim = trace.drawables.get(k as usize)?.prim;
                let vs = match prim {
                    Prim::Point(p) => vec![p],
                    _ => prim.vertices(),
                };
                vs.get(self.vertex as usize).copied()
            }
            Entry::Simplex(k) => {
                let v = trace
                    .simplices
                    .get(k as usize)?
                    .vertices
                    .get(self.vertex as usize / 3)?;
                Some(match self.vertex % 3 {
                    0 => v.w,
                    1 => v.a,
                    _ => v.b,
                })
            }
            Entry::Answer(k) => answer_points(&trace.answers.get(k as usize)?.answer)
                .get(self.vertex as usize)
                .map(|p| p.1),
            _ => None,
        }
    }

    /// A short name: the site label and which vertex.
    #[must_use]
    pub fn name(self, trace: &Trace) -> String {
        let label = trace.site_of(self.event).map_or("", |s| s.label.as_str());
        match trace.entries.get(self.event as usize) {
            Some(Entry::Simplex(_)) => {
                let part = ["w", "a", "b"][self.vertex as usize % 3];
                format!(
                    "{label} vertex {} {part} (event {})",
                    self.vertex / 3,
                    self.event
                )
            }
            Some(Entry::Answer(k)) => {
                let part = trace
                    .answers
                    .get(*k as usize)
                    .and_then(|a| {
                        answer_points(&a.answer)
                            .get(self.vertex as usize)
                            .map(|p| p.0)
                    })
                    .unwrap_or("?");
                format!("answer {part} (event {})", self.event)
            }
            _ => format!("{label} vertex {} (event {})", self.vertex, self.event),
        }
    }
}

/// The points of an answer, named, in pick-vertex order: the witness
/// points on A and B and their difference A − B (the closest point of the
/// configuration-space obstacle, or the penetration vector), a sweep's
/// contact point, A's position at impact and the point −toi·motion is not
/// known here (the view computes it), an intersect's axis.
#[must_use]
pub fn answer_points(a: &Answer) -> Vec<(&'static str, Vec3Data)> {
    let diff = |p: &Vec3Data, q: &Vec3Data| {
        let (p, q) = (p.to_f64(), q.to_f64());
        Vec3Data::F64([p[0] - q[0], p[1] - q[1], p[2] - q[2]])
    };
    match a {
        Answer::Distance {
            point_a, point_b, ..
        } => vec![
            ("closest on A", *point_a),
            ("closest on B", *point_b),
            ("A − B", diff(point_a, point_b)),
        ],
        Answer::Penetration {
            point_a, point_b, ..
        } => vec![
            ("deepest on A", *point_a),
            ("deepest on B", *point_b),
            ("A − B", diff(point_a, point_b)),
        ],
        Answer::Sweep {
            point, position_a, ..
        } => vec![("contact", *point), ("A at impact", *position_a)],
        Answer::Intersect { axis, .. } => axis.iter().map(|x| ("separating axis", *x)).collect(),
    }
}

/// The selection: up to two picked points (for the ULP comparison) and the hovered one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The first selected point.
    pub first: Option<Pick>,
    /// The second selected point.
    pub second: Option<Pick>,
    /// What the mouse is over.
    pub hovered: Option<Pick>,
}

impl Selection {
    /// Selects `pick`: the first click sets `first`, the next `second`, a third starts over.
    /// Clicking a selected point deselects it.
    pub fn click(&mut self, pick: Pick) {
        if self.first == Some(pick) {
            self.first = self.second.take();
        } else if self.second == Some(pick) {
            self.second = None;
        } else if self.first.is_none() {
            self.first = Some(pick);
        } else if self.second.is_none() {
            self.second = Some(pick);
        } else {
            self.first = Some(pick);
            self.second = None;
        }
    }

    /// The simplex whose vertex `k` (any of w, a, b) is hovered, as (event, k).
    #[must_use]
    pub fn hovered_simplex_vertex(&self, trace: &Trace) -> Option<(u32, u32)> {
        let h = self.hovered?;
        matches!(trace.entries.get(h.event as usize), Some(Entry::Simplex(_)))
            .then_some((h.event, h.vertex / 3))
    }

    /// The inspector's lines for the selection and hover.
    #[must_use]
    pub fn describe(&self, trace: &Trace) -> Vec<String> {
        let mut lines = Vec::new();
        for (title, pick) in [
            ("hovered", self.hovered),
            ("a", self.first),
            ("b", self.second),
        ] {
            if let Some(p) = pick
                && let Some(v) = p.value(trace)
            {
                lines.push(format!("{title}: {}", p.name(trace)));
                lines.extend(
                    crate::state::inspect::describe_vec(v)
                        .into_iter()
                        .map(|l| format!("  {l}")),
                );
            }
        }
        if let (Some(a), Some(b)) = (
            self.first.and_then(|p| p.value(trace)),
            self.second.and_then(|p| p.value(trace)),
        ) {
            lines.push(crate::state::inspect::describe_ulps(a, b));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder as rec;

    fn sphere(r: f64, x: f64) -> rec::ShapeDecl {
        rec::ShapeDecl::new(rec::ShapeGeom::Sphere { radius: r })
            .at([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
    }

    fn trace() -> Trace {
        let ((), recording) = rec::record(|| {
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 3.0));
            rec::push!("iteration");
            rec::point!(cso "w", [1.0f64, 0.0, 0.0], rec::Rgba::RED);
            rec::line!("seg", [0.0f32, 0.0, 0.0], [1.0f32, 0.0, 0.0]);
            rec::simplex!(
                "simplex",
                [([1.0f64, 0., 0.], [1.5, 0., 0.], [0.5, 0., 0.])]
            );
            rec::pause!("after add");
            rec::pop!();
        });
        Trace::from_bytes(&recording.bytes)
    }

    #[test]
    fn gathered_points_are_the_visible_ones_in_order_also_in_parts() {
        // More than one part (16 384), lines among the points, f32 and f64.
        let n = 40_000u32;
        let ((), recording) = rec::record(|| {
            for k in 0..n {
                let x = f64::from(k);
                if k % 1000 == 0 {
                    rec::line!("l", [x, 0.0, 0.0], [x, 1.0, 0.0]);
                } else if k % 2 == 0 {
                    rec::point!("even", [x, 1.0, 2.0]);
                } else {
                    rec::point!("odd", [x as f32, 1.0, 2.0], rec::Rgba::RED);
                }
            }
            rec::pause!("end");
        });
        let t = Trace::from_bytes(&recording.bytes);
        let v = Visible::at(&t, t.len());
        assert_eq!(v.object.len(), n as usize);
        for draws in [&v.object_draws[..], &[]] {
            let mut g = VisiblePoints::default();
            g.gather(&t, &v.object, draws);
            assert!(g.is_fresh());
            assert_eq!((g.at.len(), g.others.len()), (n as usize - 40, 40));
            let xs: Vec<f64> = g.at.iter().map(|p| p[0]).collect();
            let want: Vec<f64> = (0..n).filter(|k| k % 1000 != 0).map(f64::from).collect();
            assert_eq!(xs, want);
            assert_eq!(g.color[0], Some(rec::Rgba::RED));
            assert_eq!(g.color[1], None);
            assert_eq!(t.site(g.site[1]).label, "even");
            assert_eq!(g.event[0], v.object[1]);
            assert_eq!(g.others[1].0, v.object[1000]);
            // Gathered again for a list sharing a prefix: what a fresh gather finds.
            let mut other: Vec<u32> = v.object[..30_500].to_vec();
            other.extend(v.object[..700].iter().rev());
            let other_draws: Vec<u32> = if draws.is_empty() {
                Vec::new()
            } else {
                let mut d = v.object_draws[..30_500].to_vec();
                d.extend(v.object_draws[..700].iter().rev());
                d
            };
            g.gather(&t, &other, &other_draws);
            let mut fresh = VisiblePoints::default();
            fresh.gather(&t, &other, &other_draws);
            assert_eq!(g, fresh);
            // And back to the whole list.
            g.gather(&t, &v.object, draws);
            fresh.gather(&t, &v.object, draws);
            assert_eq!(g, fresh);
            assert_eq!(g.at.len(), n as usize - 40);
        }
    }

    #[test]
    fn visible_sets_and_picks() {
        let t = trace();
        let pause = t.pauses[0];
        let v = Visible::at(&t, pause + 1);
        assert_eq!(
            (v.config.len(), v.object.len(), v.simplices.len()),
            (1, 1, 1)
        );
        assert!(v.shapes.is_some());
        assert_eq!(v.count(), 4);
        for (events, draws) in [(&v.config, &v.config_draws), (&v.object, &v.object_draws)] {
            let from_entries: Vec<u32> = events
                .iter()
                .map(|&e| match t.entries[e as usize] {
                    Entry::Draw(k) => k,
                    _ => panic!("not a drawable"),
                })
                .collect();
            assert_eq!(&from_entries, draws);
        }
        let end = Visible::at(&t, t.len());
        assert_eq!(end.count(), 1);
        let s = v.simplices[0];
        let w = Pick {
            event: s,
            vertex: 0,
        };
        let a = Pick {
            event: s,
            vertex: 1,
        };
        assert_eq!(w.value(&t), Some(Vec3Data::F64([1.0, 0.0, 0.0])));
        assert_eq!(a.value(&t), Some(Vec3Data::F64([1.5, 0.0, 0.0])));
        assert!(
            Pick {
                event: s,
                vertex: 9
            }
            .value(&t)
            .is_none()
        );
        assert!(
            Pick {
                event: 9999,
                vertex: 0
            }
            .value(&t)
            .is_none()
        );
        let line_end = Pick {
            event: v.object[0],
            vertex: 1,
        };
        assert_eq!(line_end.value(&t), Some(Vec3Data::F32([1.0, 0.0, 0.0])));

        let mut sel = Selection::default();
        sel.click(w);
        sel.click(a);
        assert_eq!((sel.first, sel.second), (Some(w), Some(a)));
        let lines = sel.describe(&t);
        assert!(lines.iter().any(|l| l.starts_with("ULPs")), "{lines:?}");
        sel.hovered = Some(a);
        assert_eq!(sel.hovered_simplex_vertex(&t), Some((s, 0)));
        sel.click(w);
        assert_eq!((sel.first, sel.second), (Some(a), None));
        sel.click(a);
        assert_eq!(sel.first, None);
    }

    #[test]
    fn meshes_are_cached_per_shapes_event() {
        let t = trace();
        let mut cache = MeshCache::default();
        assert!(!cache.get(&t, 0).cso.mesh.triangles.is_empty());
        let _ = cache.get(&t, 0);
        assert_eq!(cache.len(), 1);
        assert!(cache.get(&t, 42).a.mesh.triangles.is_empty());
        cache.clear();
        assert!(cache.is_empty());
    }
}
