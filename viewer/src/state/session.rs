//! One open recording: its trace, timeline, visible set, meshes, selection and
//! the two cameras. The egui app draws this and sends it [`Command`]s.

use crate::state::camera::{Bounds, OrbitCamera};
use crate::state::log::LogView;
use crate::state::scene::{MeshCache, Selection, Visible, VisiblePoints};
use crate::state::timeline::{Command, Timeline};
use crate::state::trace::{Entry, Prim, Trace};
use cspace_recorder::Vec3Data;

/// The two 3D views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Configuration space (A − B), left.
    Config = 0,
    /// Object space (A and B), right.
    Object = 1,
}

/// An open recording and everything about how it is being looked at.
#[derive(Debug, Default)]
pub struct Session {
    /// The recording.
    pub trace: Trace,
    /// Cursor and playback.
    pub timeline: Timeline,
    /// What is visible at the cursor.
    pub visible: Visible,
    /// Shape meshes, built once per `Shapes` event.
    pub meshes: MeshCache,
    /// Each view's visible drawables in columns, gathered when first drawn
    /// after the visible set changed.
    pub points: [VisiblePoints; 2],
    /// Selected and hovered points.
    pub selection: Selection,
    /// The log's collapsed scopes, filter and shown rows.
    pub log: LogView,
    /// Cameras of the configuration-space and object-space views.
    pub cameras: [OrbitCamera; 2],
    /// Whether orbiting one view orbits the other too.
    pub linked: bool,
    /// What is open (file name or example name).
    pub title: String,
    /// Width / height of each view, as last drawn (for framing).
    pub aspect: [f64; 2],
}

impl Session {
    /// A session on `trace`, at the first step, with both cameras framed.
    #[must_use]
    pub fn new(trace: Trace, title: impl Into<String>) -> Self {
        let mut s = Self {
            trace,
            title: title.into(),
            linked: true,
            aspect: [0.7, 0.7],
            ..Self::default()
        };
        // Open at the first step so there is something to see.
        s.timeline.apply(&s.trace, Command::NextStep);
        s.refresh();
        s.frame_all(View::Config);
        s.frame_all(View::Object);
        s
    }

    /// Moves the cursor; returns whether it moved.
    pub fn command(&mut self, command: Command) -> bool {
        let moved = self.timeline.apply(&self.trace, command);
        self.refresh();
        moved
    }

    /// Advances playback by `dt` seconds.
    pub fn tick(&mut self, dt: f64) -> bool {
        let moved = self.timeline.tick(&self.trace, dt);
        if moved {
            self.refresh();
        }
        moved
    }

    /// Replaces the trace (the file changed on disk), keeping the cursor at the same step.
    pub fn reload(&mut self, trace: Trace) {
        self.timeline.reloaded(&self.trace, &trace);
        self.trace = trace;
        self.meshes.clear();
        for p in &mut self.points {
            p.clear();
        }
        self.selection = Selection::default();
        self.visible = Visible::default();
        self.log.invalidate();
        self.refresh();
    }

    /// Recomputes the visible set if the cursor moved.
    pub fn refresh(&mut self) {
        let c = self.timeline.cursor();
        if self.visible.cursor != c || self.visible.count() == 0 {
            self.visible.fill(&self.trace, c);
            for p in &mut self.points {
                p.invalidate();
            }
        }
    }

    /// Gathers `view`'s visible drawables into [`Session::points`] unless
    /// they are up to date.
    pub fn gather_points(&mut self, view: View) {
        let points = &mut self.points[view as usize];
        if !points.is_fresh() {
            let (list, draws) = match view {
                View::Config => (&self.visible.config, &self.visible.config_draws),
                View::Object => (&self.visible.object, &self.visible.object_draws),
            };
            points.gather(&self.trace, list, draws);
        }
    }

    /// The bounding box of everything currently drawn in `view`.
    pub fn bounds(&mut self, view: View) -> Bounds {
        let mut b = Bounds::default();
        if let Some(Entry::Shapes(k)) = self
            .visible
            .shapes
            .and_then(|e| self.trace.entries.get(e as usize))
            .copied()
        {
            let m = self.meshes.get(&self.trace, k);
            let meshes = match view {
                View::Config => vec![&m.cso.mesh],
                View::Object => vec![&m.a.mesh, &m.b.mesh],
            };
            for v in meshes.into_iter().flat_map(|m| m.vertices.iter()) {
                b.add(v.to_array());
            }
            let motion = self.trace.shapes.get(k as usize).and_then(|s| s.motion);
            if let (View::Object, Some(m)) = (view, motion) {
                let m = glam::DVec3::from(m);
                for v in &self.meshes.get(&self.trace, k).a.mesh.vertices {
                    b.add((*v + m).to_array());
                }
            }
        }
        let add = |b: &mut Bounds, v: Vec3Data| b.add(v.to_f64());
        let list = match view {
            View::Config => &self.visible.config,
            View::Object => &self.visible.object,
        };
        for &e in list {
            if let Some(Entry::Draw(k)) = self.trace.entries.get(e as usize)
                && let Some(d) = self.trace.drawables.get(*k as usize)
            {
                match d.prim {
                    Prim::Point(p) => add(&mut b, p),
                    Prim::Line(p, q) => {
                        add(&mut b, p);
                        add(&mut b, q);
                    }
                    Prim::Triangle(v) => v.into_iter().for_each(|p| add(&mut b, p)),
                }
            }
        }
        for &e in &self.visible.simplices {
            if let Some(Entry::Simplex(k)) = self.trace.entries.get(e as usize) {
                for v in self
                    .trace
                    .simplices
                    .get(*k as usize)
                    .map_or(&[][..], |s| &s.vertices[..])
                {
                    match view {
                        View::Config => add(&mut b, v.w),
                        View::Object => {
                            add(&mut b, v.a);
                            add(&mut b, v.b);
                        }
                    }
                }
            }
        }
        if view == View::Config {
            b.add([0.0; 3]);
        }
        b
    }

    /// Frames everything drawn in `view` (the other view too when linked).
    pub fn frame_all(&mut self, view: View) {
        let b = self.bounds(view);
        let cam = &mut self.cameras[view as usize];
        if b.is_empty() {
            *cam = OrbitCamera::default();
        } else {
            cam.frame(b.min, b.max, self.aspect[view as usize]);
        }
    }

    /// Orbits the camera of `view` (and the other one when linked).
    pub fn orbit(&mut self, view: View, dx: f32, dy: f32) {
        for (i, cam) in self.cameras.iter_mut().enumerate() {
            if i == view as usize || self.linked {
                cam.orbit(dx, dy);
            }
        }
    }

    /// Zooms `view` toward the point under the cursor (`dx`, `dy` pixels
    /// from its centre, in a view `height` tall); a linked view zooms by the
    /// same factor toward its own centre.
    pub fn zoom_at(&mut self, view: View, factor: f32, (dx, dy): (f32, f32), height: f32) {
        for (i, cam) in self.cameras.iter_mut().enumerate() {
            if i == view as usize {
                cam.zoom_at(factor, dx, dy, height);
            } else if self.linked {
                cam.zoom(factor);
            }
        }
    }

    /// Centres `view` on `p`, keeping its distance (and so its scale).
    pub fn focus(&mut self, view: View, p: [f64; 3]) {
        self.cameras[view as usize].focus(glam::DVec3::from(p));
    }

    /// Frames the current simplex: its vertices in configuration space (with
    /// the origin, which the algorithm measures against), the support points
    /// behind them in object space. Returns whether there was one.
    pub fn frame_simplex(&mut self) -> bool {
        let mut bounds = [Bounds::default(), Bounds::default()];
        for &e in &self.visible.simplices {
            if let Some(Entry::Simplex(k)) = self.trace.entries.get(e as usize)
                && let Some(s) = self.trace.simplices.get(*k as usize)
            {
                for v in &s.vertices {
                    bounds[0].add(v.w.to_f64());
                    bounds[1].add(v.a.to_f64());
                    bounds[1].add(v.b.to_f64());
                }
            }
        }
        if bounds[0].is_empty() {
            return false;
        }
        bounds[0].add([0.0; 3]);
        for (i, b) in bounds.iter().enumerate() {
            self.cameras[i].frame(b.min, b.max, self.aspect[i]);
        }
        true
    }

    /// Switches both views between perspective and orthographic.
    pub fn set_ortho(&mut self, ortho: bool) {
        for cam in &mut self.cameras {
            cam.ortho = ortho;
        }
    }

    /// Zooms the camera of `view` (and the other one when linked).
    pub fn zoom(&mut self, view: View, factor: f32) {
        for (i, cam) in self.cameras.iter_mut().enumerate() {
            if i == view as usize || self.linked {
                cam.zoom(factor);
            }
        }
    }

    /// Pans the camera of `view` only (the views show different places).
    pub fn pan(&mut self, view: View, dx: f32, dy: f32, height: f32) {
        self.cameras[view as usize].pan(dx, dy, height);
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

    fn bytes(n: u32) -> Vec<u8> {
        let ((), r) = rec::record(|| {
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 3.0));
            for i in 0..n {
                rec::point!("p", [f64::from(i), 0.0, 0.0]);
                rec::pause!("step");
            }
        });
        r.bytes
    }

    #[test]
    fn gathered_points_follow_the_cursor_and_a_reload() {
        let mut s = Session::new(Trace::from_bytes(&bytes(3)), "t");
        s.command(Command::Last);
        s.gather_points(View::Object);
        assert!(s.points[1].is_fresh());
        assert_eq!(s.points[1].at.len(), 3);
        s.command(Command::PrevStep);
        assert!(!s.points[1].is_fresh(), "the cursor moved");
        s.gather_points(View::Object);
        assert_eq!(s.points[1].at.len(), 2);
        // The same cursor in a longer recording: gathered again.
        s.reload(Trace::from_bytes(&bytes(5)));
        assert!(!s.points[1].is_fresh());
        s.gather_points(View::Object);
        assert_eq!(s.points[1].at.len(), s.visible.object.len());
    }

    #[test]
    fn opens_at_first_step_and_frames() {
        let mut s = Session::new(Trace::from_bytes(&bytes(3)), "t");
        assert_eq!(s.trace.step_at(s.timeline.cursor()), 1);
        assert_eq!(s.visible.count(), 2);
        let b = s.bounds(View::Object);
        assert!(b.max.x >= 3.5 - 1e-9 && b.min.x <= -1.0 + 1e-9);
        let cb = s.bounds(View::Config);
        assert!(cb.min.x <= -4.5 + 1e-6);
        let before = s.cameras;
        s.orbit(View::Config, 10.0, 0.0);
        assert!(s.cameras[0].yaw != before[0].yaw && s.cameras[1].yaw != before[1].yaw);
        s.linked = false;
        s.zoom(View::Object, 2.0);
        assert_eq!(s.cameras[0].distance, before[0].distance);
        s.pan(View::Config, 5.0, 5.0, 100.0);
        assert!(s.cameras[0].target != before[0].target);
        s.frame_all(View::Config);
        let empty = Session::new(Trace::default(), "empty");
        assert_eq!(empty.timeline.cursor(), 0);
    }

    #[test]
    fn reload_keeps_step() {
        let mut s = Session::new(Trace::from_bytes(&bytes(5)), "t");
        s.command(Command::SeekStep(3));
        s.reload(Trace::from_bytes(&bytes(6)));
        assert_eq!(s.trace.step_at(s.timeline.cursor()), 3);
        assert_eq!(s.visible.object.len(), 3);
        s.reload(Trace::from_bytes(&bytes(2)));
        assert_eq!(s.timeline.cursor(), s.trace.len());
    }
}
