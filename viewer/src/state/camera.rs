//! A perspective orbit camera: projects 3D points to view pixels.

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
    /// Vertical field of view, radians.
    pub fov_y: f64,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self {
            target: DVec3::ZERO,
            yaw: 0.6,
            pitch: 0.45,
            distance: 8.0,
            fov_y: 0.8,
        }
    }
}

/// A camera's projection into one view, basis precomputed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projector {
    eye: DVec3,
    forward: DVec3,
    right: DVec3,
    up: DVec3,
    near: f64,
    scale: f64,
    cx: f64,
    cy: f64,
}

impl Projector {
    /// Projects `p`; `None` behind the camera or for non-finite input.
    #[must_use]
    pub fn project(&self, p: [f64; 3]) -> Option<Projected> {
        let rel = DVec3::from(p) - self.eye;
        let depth = rel.dot(self.forward);
        if depth.is_nan() || depth <= self.near || !depth.is_finite() {
            return None;
        }
        let x = self.cx + rel.dot(self.right) / depth * self.scale;
        let y = self.cy - rel.dot(self.up) / depth * self.scale;
        if !x.is_finite() || !y.is_finite() || x.abs() > 1e7 || y.abs() > 1e7 {
            return None;
        }
        Some(Projected {
            x: x as f32,
            y: y as f32,
            depth,
        })
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
        Projector {
            eye: self.eye(),
            forward: self.forward(),
            right,
            up,
            near: 1e-6 * self.distance,
            scale: f64::from(height) * 0.5 / (self.fov_y * 0.5).tan(),
            cx: f64::from(width) * 0.5,
            cy: f64::from(height) * 0.5,
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
        let per_pixel = 2.0 * self.distance * (self.fov_y * 0.5).tan() / f64::from(height.max(1.0));
        (r * f64::from(dx) - u * f64::from(dy)) * per_pixel
    }

    /// Zooms by `factor` (> 1 moves closer).
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance / f64::from(factor)).clamp(1e-9, 1e12);
        }
    }

    /// Aims at the box `min`..`max` and backs off until it fits a view of
    /// this `aspect` (width / height).
    pub fn frame(&mut self, min: DVec3, max: DVec3, aspect: f64) {
        if !min.is_finite() || !max.is_finite() || min.cmpgt(max).any() {
            return;
        }
        self.target = (min + max) * 0.5;
        let radius = ((max - min).length() * 0.5).max(1e-6);
        let half_y = self.fov_y * 0.5;
        let half_x = (half_y.tan() * aspect.clamp(0.05, 20.0)).atan();
        self.distance = radius / half_y.min(half_x).sin() * 1.1;
    }
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
    /// Grows the box to hold `p` (non-finite points are ignored).
    pub fn add(&mut self, p: [f64; 3]) {
        let p = DVec3::from(p);
        if p.is_finite() {
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
        b.add([1.0, 2.0, 3.0]);
        b.add([f64::NAN, 0.0, 0.0]);
        assert_eq!(b.min, b.max);
    }
}
