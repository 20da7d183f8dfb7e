//! Clipping before the GPU: polygons and segments are cut at the camera's
//! near plane in camera space, then to the view's rectangle in f64 pixels,
//! before anything becomes an f32 vertex. A long thin box
//! crossing the camera stays drawn (its part in front), and zooming to a
//! 1e-9 gap keeps the faces around it, whose far vertices land 10¹¹ pixels
//! off screen.
//!
//! Plain numbers in, plain numbers out (no egui), so every case is tested.

use glam::DVec3;

/// A screen position in f64 pixels.
pub type Px = [f64; 2];

/// The part of convex polygon `poly` (camera space) in front of `near`
/// (Sutherland–Hodgman against one plane).
#[must_use]
pub fn near(poly: &[DVec3], near: f64) -> Vec<DVec3> {
    if near == f64::NEG_INFINITY {
        return poly.to_vec();
    }
    let inside = |p: &DVec3| p.z > near;
    let mut out = Vec::with_capacity(poly.len() + 2);
    for (i, a) in poly.iter().enumerate() {
        let b = &poly[(i + 1) % poly.len()];
        if inside(a) {
            out.push(*a);
        }
        if inside(a) != inside(b) {
            let t = (near - a.z) / (b.z - a.z);
            let mut p = a.lerp(*b, t);
            // Exactly on the plane would divide by `near`: nudge it inside.
            p.z = p.z.max(near * (1.0 + 1e-12) + f64::MIN_POSITIVE);
            out.push(p);
        }
    }
    out
}

/// The part of convex polygon `poly` (pixels) inside the rectangle
/// `min`..`max` (Sutherland–Hodgman against its four sides). Components
/// after the first two (a depth key that is affine in screen space) are
/// interpolated with the position.
#[must_use]
pub fn rect<const N: usize>(poly: &[[f64; N]], min: Px, max: Px) -> Vec<[f64; N]> {
    if !poly.iter().flatten().all(|v| v.is_finite()) {
        return Vec::new();
    }
    let mut out = poly.to_vec();
    for axis in 0..2 {
        for (bound, keep_below) in [(min[axis], false), (max[axis], true)] {
            if out.is_empty() {
                return out;
            }
            let inside = |p: &[f64; N]| {
                if keep_below {
                    p[axis] <= bound
                } else {
                    p[axis] >= bound
                }
            };
            let src = std::mem::take(&mut out);
            for (i, a) in src.iter().enumerate() {
                let b = &src[(i + 1) % src.len()];
                if inside(a) {
                    out.push(*a);
                }
                if inside(a) != inside(b) {
                    let t = (bound - a[axis]) / (b[axis] - a[axis]);
                    let mut p: [f64; N] = std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t);
                    p[axis] = bound;
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The part of segment `a`–`b` (camera space) in front of `near`.
#[must_use]
pub fn near_segment(a: DVec3, b: DVec3, near: f64) -> Option<(DVec3, DVec3)> {
    if near == f64::NEG_INFINITY {
        return Some((a, b));
    }
    let cut = |from: DVec3, to: DVec3| {
        let t = (near - from.z) / (to.z - from.z);
        let mut p = from.lerp(to, t);
        p.z = p.z.max(near * (1.0 + 1e-12) + f64::MIN_POSITIVE);
        p
    };
    match (a.z > near, b.z > near) {
        (true, true) => Some((a, b)),
        (false, false) => None,
        (true, false) => Some((a, cut(a, b))),
        (false, true) => Some((cut(b, a), b)),
    }
}

/// The part of segment `a`–`b` (pixels) inside the rectangle `min`..`max`
/// (Liang–Barsky); further components are interpolated as in [`rect`].
#[must_use]
pub fn rect_segment<const N: usize>(
    a: [f64; N],
    b: [f64; N],
    min: Px,
    max: Px,
) -> Option<([f64; N], [f64; N])> {
    if !a.iter().chain(&b).all(|v| v.is_finite()) {
        return None;
    }
    let d: [f64; N] = std::array::from_fn(|k| b[k] - a[k]);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for axis in 0..2 {
        for (p, q) in [
            (-d[axis], a[axis] - min[axis]),
            (d[axis], max[axis] - a[axis]),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| std::array::from_fn(|k| a[k] + d[k] * t);
    Some((at(t0), at(t1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_through_the_near_plane_keeps_its_front() {
        let tri = [
            DVec3::new(0.0, 0.0, 2.0),
            DVec3::new(1.0, 0.0, -2.0),
            DVec3::new(-1.0, 0.0, -2.0),
        ];
        let front = near(&tri, 1.0);
        assert_eq!(front.len(), 3);
        assert!(front.iter().all(|p| p.z > 1.0));
        // The two cut points sit a quarter of the way down the long edges.
        assert!((front[1].x - 0.25).abs() < 1e-9 && (front[2].x + 0.25).abs() < 1e-9);
        assert!(near(&tri, 5.0).is_empty());
        assert_eq!(near(&tri, f64::NEG_INFINITY).len(), 3);
        // A quad with one corner behind becomes a pentagon.
        let quad = [
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 2.0),
            DVec3::new(1.0, 1.0, 2.0),
            DVec3::new(0.0, 1.0, 2.0),
        ];
        assert_eq!(near(&quad, 1.0).len(), 5);
    }

    #[test]
    fn huge_polygons_are_cut_to_the_view() {
        // A triangle whose corners are 1e11 pixels away, covering the view.
        let tri = [[-1e11, -1e11], [1e11, -1e11], [0.0, 1e11]];
        let cut = rect(&tri, [0.0, 0.0], [400.0, 300.0]);
        assert!(cut.len() >= 4, "{cut:?}");
        assert!(
            cut.iter()
                .all(|p| (0.0..=400.0).contains(&p[0]) && (0.0..=300.0).contains(&p[1])),
            "{cut:?}"
        );
        assert!(
            rect(
                &[[500.0, 0.0], [600.0, 0.0], [550.0, 50.0]],
                [0.0, 0.0],
                [400.0, 300.0]
            )
            .is_empty()
        );
        assert!(
            rect(
                &[[f64::NAN, 0.0], [1.0, 0.0], [0.0, 1.0]],
                [0.0, 0.0],
                [400.0, 300.0]
            )
            .is_empty()
        );
        let inside = [[10.0, 10.0], [20.0, 10.0], [15.0, 20.0]];
        assert_eq!(rect(&inside, [0.0, 0.0], [400.0, 300.0]), inside.to_vec());
    }

    #[test]
    fn segments_are_cut_at_the_near_plane_and_the_view() {
        let (a, b) = near_segment(DVec3::new(0.0, 0.0, -1.0), DVec3::new(0.0, 4.0, 3.0), 1.0)
            .expect("half in front");
        assert!(a.z > 1.0 && (a.y - 2.0).abs() < 1e-9 && b == DVec3::new(0.0, 4.0, 3.0));
        assert!(near_segment(DVec3::ZERO, DVec3::ONE * 0.5, 1.0).is_none());
        let (p, q) = rect_segment([-1e12, 150.0], [1e12, 150.0], [0.0, 0.0], [400.0, 300.0])
            .expect("crosses the view");
        assert_eq!((p, q), ([0.0, 150.0], [400.0, 150.0]));
        assert!(rect_segment([-10.0, -10.0], [-5.0, 500.0], [0.0, 0.0], [400.0, 300.0]).is_none());
        assert!(rect_segment([f64::NAN, 0.0], [1.0, 1.0], [0.0, 0.0], [400.0, 300.0]).is_none());
    }
}
