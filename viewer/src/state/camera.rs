//! An orbit camera, perspective or orthographic: projects 3D points to view
//! pixels, zooms toward the cursor, focuses on a point, and says how long a
//! pixel is (for the scale bar).

use glam::DVec3;

/// An orbit camera looking at `target` from `distance` away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point orbited around.
    pub target: DVec3,
    /// Rotation around the world Y axis, radians.
    pub yaw: f64,
    /// Elevation, radians, within ±89°.
    pub pitch: f64,
    /// Distance from the target.
    pub distance: f64,
    /// Vertical field of view, radians (in orthographic mode it sets the
    /// visible height at `distance`, so toggling keeps the scale at the target).
    pub fov_y: f64,
    /// Orthographic instead of perspective.
    pub ortho: bool,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: DVec3::ZERO,
            yaw: 0.6,
            pitch: 0.45,
            distance: 8.0,
            fov_y: 0.8,
            ortho: false,
        }
    }
}

/// The closest a camera comes to its target, and the farthest: 1e-15 still
/// shows a 1e-13 gap across a view; beyond these f64 runs out of digits.
const DISTANCE_RANGE: (f64, f64) = (1e-15, 1e15);

/// A camera's projection into one view, basis precomputed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projector {
    eye: DVec3,
    forward: DVec3,
    right: DVec3,
    up: DVec3,
    near: f64,
    scale: f64,
    ortho: bool,
    cx: f64,
    cy: f64,
}

impl Projector {
    /// Projects `p`; `None` behind the near plane, for non-finite input, or
    /// more than 10⁷ pixels off the view (clip shapes with
    /// [`Projector::to_camera`] and [`Projector::to_screen`] instead).
    #[must_use]
    pub fn project(&self, p: [f64; 3]) -> Option<Projected> {
        let c = self.to_camera(p);
        if !c.is_finite() || c.z <= self.near {
            return None;
        }
        let [x, y] = self.to_screen(c);
        if !x.is_finite() || !y.is_finite() || x.abs() > 1e7 || y.abs() > 1e7 {
            return None;
        }
        Some(Projected {
            x: x as f32,
            y: y as f32,
            depth: c.z,
        })
    }

    /// `p` in camera space: x right, y up, z the depth along the view.
    #[must_use]
    pub fn to_camera(&self, p: [f64; 3]) -> DVec3 {
        let rel = DVec3::from(p) - self.eye;
        DVec3::new(rel.dot(self.right), rel.dot(self.up), rel.dot(self.forward))
    }

    /// The pixel (from the view's top-left, y down, unbounded) of a
    /// camera-space point in front of the near plane.
    #[must_use]
    pub fn to_screen(&self, c: DVec3) -> [f64; 2] {
        let k = if self.ortho {
            self.scale
        } else {
            self.scale / c.z
        };
        [self.cx + c.x * k, self.cy - c.y * k]
    }

    /// The near plane's depth: geometry closer than this is clipped away
    /// (−∞ for an orthographic camera, which sees everything along its axis).
    #[must_use]
    pub fn near(&self) -> f64 {
        self.near
    }
}

/// A projected point: pixel coordinates from the view's top-left and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projected {
    /// Horizontal pixel.
    pub x: f32,
    /// Vertical pixel (down).
    pub y: f32,
    /// Distance along the view direction (larger is farther).
    pub depth: f64,
}

impl OrbitCamera {
    /// The camera position.
    #[must_use]
    pub fn eye(&self) -> DVec3 {
        self.target - self.forward() * self.distance
    }

    /// Unit view direction.
    #[must_use]
    pub fn forward(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        -DVec3::new(cp * sy, sp, cp * cy)
    }

    /// Unit right and up vectors of the view.
    #[must_use]
    pub fn right_up(&self) -> (DVec3, DVec3) {
        let f = self.forward();
        let right = f.cross(DVec3::Y).normalize_or(DVec3::X);
        (right, right.cross(f))
    }

    /// Projects `p` into a `width` × `height` view; `None` behind the camera
    /// or for non-finite input.
    #[must_use]
    pub fn project(&self, p: [f64; 3], width: f32, height: f32) -> Option<Projected> {
        self.projector(width, height).project(p)
    }

    /// The projection into a `width` × `height` view with the camera basis
    /// computed once, for projecting many points.
    #[must_use]
    pub fn projector(&self, width: f32, height: f32) -> Projector {
        let (right, up) = self.right_up();
        let half = f64::from(height) * 0.5;
        Projector {
            eye: self.eye(),
            forward: self.forward(),
            right,
            up,
            near: if self.ortho {
                f64::NEG_INFINITY
            } else {
                1e-6 * self.distance
            },
            scale: if self.ortho {
                half / (self.distance * (self.fov_y * 0.5).tan())
            } else {
                half / (self.fov_y * 0.5).tan()
            },
            ortho: self.ortho,
            cx: f64::from(width) * 0.5,
            cy: f64::from(height) * 0.5,
        }
    }

    /// The length of one pixel at the target's depth in a view `height`
    /// pixels tall (everywhere, in orthographic mode).
    #[must_use]
    pub fn per_pixel(&self, height: f32) -> f64 {
        2.0 * self.distance * (self.fov_y * 0.5).tan() / f64::from(height.max(1.0))
    }

    /// Zooms by `factor` (> 1 moves closer) toward the point under the
    /// cursor, `dx`, `dy` pixels from the view's centre (y down) in a view
    /// `height` pixels tall: that point stays under the cursor.
    pub fn zoom_at(&mut self, factor: f32, dx: f32, dy: f32, height: f32) {
        let before = self.distance;
        self.zoom(factor);
        let kept = self.distance / before;
        if kept.is_finite() {
            let under = self.drag_delta(dx, dy, height) / kept;
            self.target += under * (1.0 - kept);
        }
    }

    /// Turns the view to look at `p` from the same distance.
    pub fn focus(&mut self, p: DVec3) {
        if p.is_finite() {
            self.target = p;
        }
    }

    /// Rotates by a mouse drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= f64::from(dx) * 0.01;
        self.pitch = (self.pitch + f64::from(dy) * 0.01).clamp(-1.55, 1.55);
    }

    /// Moves the target by a drag of `dx`, `dy` pixels in a view `height` pixels tall.
    pub fn pan(&mut self, dx: f32, dy: f32, height: f32) {
        self.target -= self.drag_delta(dx, dy, height);
    }

    /// The world-space move, in the plane facing the camera through its
    /// target, that follows a drag of `dx`, `dy` pixels (y down) in a view
    /// `height` pixels tall.
    #[must_use]
    pub fn drag_delta(&self, dx: f32, dy: f32, height: f32) -> DVec3 {
        let (r, u) = self.right_up();
        (r * f64::from(dx) - u * f64::from(dy)) * self.per_pixel(height)
    }

    /// Zooms by `factor` (> 1 moves closer) toward the target.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance =
                (self.distance / f64::from(factor)).clamp(DISTANCE_RANGE.0, DISTANCE_RANGE.1);
        }
    }

    /// Aims at the box `min`..`max` and backs off until it fits a view of
    /// this `aspect` (width / height).
    pub fn frame(&mut self, min: DVec3, max: DVec3, aspect: f64) {
        if !min.is_finite() || !max.is_finite() || min.cmpgt(max).any() {
            return;
        }
        // The camera reaches no further than its largest distance: a box
        // out to an engine's overflow (1e308) is framed up to there, where a
        // target's coordinates still resolve the view.
        let reach = DVec3::splat(DISTANCE_RANGE.1);
        let (min, max) = (min.clamp(-reach, reach), max.clamp(-reach, reach));
        self.target = (min + max) * 0.5;
        let radius = ((max - min).length() * 0.5).max(1e-6);
        let half_y = self.fov_y * 0.5;
        let half_x = (half_y.tan() * aspect.clamp(0.05, 20.0)).atan();
        self.distance =
            (radius / half_y.min(half_x).sin() * 1.1).clamp(DISTANCE_RANGE.0, DISTANCE_RANGE.1);
    }
}

/// The scale bar for `per_pixel` world units per pixel: the longest length
/// of the form 1, 2 or 5 × 10ᵏ that fits in `max_px` pixels, and its pixels.
#[must_use]
pub fn scale_bar(per_pixel: f64, max_px: f32) -> Option<(f64, f32)> {
    let most = per_pixel * f64::from(max_px);
    if !(most.is_finite() && most > 0.0) {
        return None;
    }
    let decade = 10f64.powf(most.log10().floor());
    let length = [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&l| l <= most * (1.0 + 1e-12))?;
    Some((length, (length / per_pixel) as f32))
}

/// An axis-aligned bounding box being grown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: DVec3,
    /// Largest corner.
    pub max: DVec3,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            min: DVec3::splat(f64::INFINITY),
            max: DVec3::splat(f64::NEG_INFINITY),
        }
    }
}

impl Bounds {
    /// Grows the box to hold `p`. Non-finite points, and points beyond the
    /// camera's reach (1e15, past any query's magnitudes: an engine's
    /// overflow), are left out, so the view frames the rest.
    pub fn add(&mut self, p: [f64; 3]) {
        let p = DVec3::from(p);
        if p.is_finite() && p.abs().max_element() <= DISTANCE_RANGE.1 {
            self.min = self.min.min(p);
            self.max = self.max.max(p);
        }
    }

    /// Whether no point was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.min.cmpgt(self.max).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drag_delta_follows_the_mouse() {
        let cam = OrbitCamera::default();
        let (w, h) = (400.0, 300.0);
        let start = cam.project(cam.target.to_array(), w, h).expect("in front");
        let moved = cam.target + cam.drag_delta(12.0, -7.0, h);
        let end = cam.project(moved.to_array(), w, h).expect("in front");
        assert!(
            (end.x - start.x - 12.0).abs() < 0.5,
            "{} {}",
            end.x,
            start.x
        );
        assert!((end.y - start.y + 7.0).abs() < 0.5, "{} {}", end.y, start.y);
        let mut panned = cam;
        panned.pan(12.0, -7.0, h);
        assert!((panned.target - (cam.target - cam.drag_delta(12.0, -7.0, h))).length() < 1e-12);
    }

    #[test]
    fn target_projects_to_the_centre() {
        let cam = OrbitCamera::default();
        let p = cam.project([0.0; 3], 200.0, 100.0).unwrap();
        assert!((p.x - 100.0).abs() < 1e-3 && (p.y - 50.0).abs() < 1e-3);
        assert!((p.depth - cam.distance).abs() < 1e-9);
        assert!(cam.project(cam.eye().to_array(), 200.0, 100.0).is_none());
        assert!(cam.project([f64::NAN; 3], 200.0, 100.0).is_none());
    }

    #[test]
    fn up_is_up_and_right_is_right() {
        let cam = OrbitCamera {
            yaw: 0.0,
            pitch: 0.0,
            ..OrbitCamera::default()
        };
        let up = cam.project([0.0, 1.0, 0.0], 100.0, 100.0).unwrap();
        assert!(up.y < 50.0);
        let right = cam.project([1.0, 0.0, 0.0], 100.0, 100.0).unwrap();
        assert!(right.x > 50.0);
    }

    /// A recording with a point near `f64::MAX` (an engine's overflow) still
    /// frames a finite view: the origin's side of the box is on screen, not
    /// a blank view.
    #[test]
    fn framing_a_box_out_to_the_largest_floats_stays_finite() {
        for (min, max) in [
            (DVec3::splat(-1e308), DVec3::splat(1e308)),
            (DVec3::ZERO, DVec3::new(f64::MAX, 1.0, 1.0)),
            (DVec3::splat(-f64::MAX), DVec3::splat(f64::MAX)),
        ] {
            let mut cam = OrbitCamera::default();
            cam.frame(min, max, 1.5);
            assert!(cam.target.is_finite(), "{min} {max}");
            assert!((DISTANCE_RANGE.0..=DISTANCE_RANGE.1).contains(&cam.distance));
            let p = cam.project(cam.target.to_array(), 150.0, 100.0);
            assert!(p.is_some_and(|p| (p.x - 75.0).abs() < 1.0), "{min} {max}");
            let origin = cam.project([0.0; 3], 150.0, 100.0);
            assert!(
                origin.is_some_and(|p| (0.0..=150.0).contains(&p.x)),
                "{min} {max}"
            );
        }
        // The bounds a view frames leave such a point out.
        let mut b = Bounds::default();
        b.add([1e308, 0.0, 0.0]);
        assert!(b.is_empty());
        b.add([1.0, 0.5, 0.0]);
        assert_eq!(b.max, DVec3::new(1.0, 0.5, 0.0));
    }

    #[test]
    fn frame_orbit_pan_zoom() {
        let mut cam = OrbitCamera::default();
        cam.frame(DVec3::splat(9.0), DVec3::splat(11.0), 0.5);
        assert_eq!(cam.target, DVec3::splat(10.0));
        for corner in [[9.0, 9.0, 9.0], [11.0, 11.0, 11.0], [9.0, 11.0, 9.0]] {
            let p = cam.project(corner, 50.0, 100.0).unwrap();
            assert!((0.0..=50.0).contains(&p.x) && (0.0..=100.0).contains(&p.y));
        }
        let d = cam.distance;
        cam.zoom(2.0);
        assert!((cam.distance - d / 2.0).abs() < 1e-12);
        cam.zoom(f32::NAN);
        cam.orbit(0.0, 10_000.0);
        assert!(cam.pitch <= 1.55);
        let before = cam.target;
        cam.pan(10.0, 0.0, 100.0);
        assert!(cam.target != before);
        let mut b = Bounds::default();
        assert!(b.is_empty());
        cam.zoom(1e30);
        assert_eq!(cam.distance, DISTANCE_RANGE.0);
        b.add([1.0, 2.0, 3.0]);
        b.add([f64::NAN, 0.0, 0.0]);
        assert_eq!(b.min, b.max);
    }

    #[test]
    fn zoom_toward_the_cursor_keeps_the_point_under_it() {
        for ortho in [false, true] {
            let mut cam = OrbitCamera {
                ortho,
                ..OrbitCamera::default()
            };
            let (w, h) = (400.0, 300.0);
            // The point on the target's plane 80 px right and 30 px up of the centre.
            let under = cam.target + cam.drag_delta(80.0, -30.0, h);
            for _ in 0..40 {
                cam.zoom_at(1.5, 80.0, -30.0, h);
            }
            let p = cam.project(under.to_array(), w, h).expect("in view");
            assert!(
                (p.x - 280.0).abs() < 0.01 && (p.y - 120.0).abs() < 0.01,
                "{p:?}"
            );
            assert!(cam.distance < 8.0 / 1.5f64.powi(39));
        }
    }

    #[test]
    fn orthographic_keeps_the_scale_at_the_target_and_sees_behind_the_eye() {
        let persp = OrbitCamera::default();
        let ortho = OrbitCamera {
            ortho: true,
            ..persp
        };
        let (w, h) = (400.0, 300.0);
        let one = persp.target + persp.right_up().0;
        let a = persp.project(one.to_array(), w, h).unwrap();
        let b = ortho.project(one.to_array(), w, h).unwrap();
        assert!((a.x - b.x).abs() < 1e-3, "{} {}", a.x, b.x);
        // Parallel lines stay parallel: a point behind the eye still projects.
        let behind = ortho.eye() - ortho.forward() * 5.0;
        assert!(ortho.project(behind.to_array(), w, h).is_some());
        assert!(persp.project(behind.to_array(), w, h).is_none());
        assert!((persp.per_pixel(h) - ortho.per_pixel(h)).abs() < 1e-15);
    }

    #[test]
    fn focus_and_the_scale_bar() {
        let mut cam = OrbitCamera::default();
        cam.focus(DVec3::new(1.0, 2.0, 3.0));
        assert_eq!(cam.target, DVec3::new(1.0, 2.0, 3.0));
        cam.focus(DVec3::NAN);
        assert_eq!(cam.target, DVec3::new(1.0, 2.0, 3.0));
        let p = cam.project([1.0, 2.0, 3.0], 100.0, 100.0).unwrap();
        assert!((p.x - 50.0).abs() < 1e-3);
        assert_eq!(scale_bar(0.01, 120.0), Some((1.0, 100.0)));
        let (l, px) = scale_bar(3e-12, 120.0).unwrap();
        assert!(
            (l - 2e-10).abs() < 1e-24 && (px - 66.666_67).abs() < 1e-3,
            "{l} {px}"
        );
        let (l, _) = scale_bar(0.04, 130.0).unwrap();
        assert!((l - 5.0).abs() < 1e-12);
        assert_eq!(scale_bar(0.0, 100.0), None);
        assert_eq!(scale_bar(f64::NAN, 100.0), None);
    }
}
