//! How far a point lies inside a hull's face, across the face's outline:
//! the sweeps' checks that a contact is on a face and not at or past its
//! boundary (`sweep::witness`), for a face of any number of points.

use crate::real::{Real, V3, Vector};

/// How far local point `q` lies inside the face of hull `points` within
/// `eta` of the support height in unit local direction `d`, across the
/// face's boundary in its plane (negative outside: minus its distance
/// from the outline), and the unit direction across the nearest boundary
/// out of the face (in its plane: the way a point leaves it); `None`
/// without a face (fewer than three points off a line). The face is the convex hull of its points seen along `d` (a
/// point inside it, on the face, is not a corner). Its points are
/// gathered on the heap: a rare path, for a face of any size (capped at
/// 64, a 65-gon's cap read as "inside" and kept a normal 1e-5 rad off).
pub(crate) fn inside_hull_face<T: Real>(
    points: &[V3<T>],
    d: V3<T>,
    eta: T,
    q: V3<T>,
) -> Option<(T, V3<T>)> {
    let top = points.iter().map(|p| p.dot(d)).fold(-T::MAX, T::max);
    // A frame in the face's plane.
    let axis = if d.x().abs() < T::from_f64(0.6) {
        V3::<T>::X
    } else {
        V3::<T>::Y
    };
    let u = (axis - d * d.dot(axis)).try_normalize()?;
    let v = d.cross(u);
    let mut flat: Vec<(T, T)> = points
        .iter()
        .filter(|p| p.dot(d) >= top - eta)
        .map(|&p| (p.dot(u), p.dot(v)))
        .collect();
    flat.sort_by(|a, b| {
        a.0.to_f64()
            .total_cmp(&b.0.to_f64())
            .then(a.1.to_f64().total_cmp(&b.1.to_f64()))
    });
    let n = flat.len();
    // Andrew's monotone chain: the lower then the upper hull, counter-
    // clockwise.
    let cross =
        |o: (T, T), a: (T, T), b: (T, T)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut hull: Vec<(T, T)> = Vec::with_capacity(2 * n);
    for pass in 0..2 {
        let start = hull.len();
        for i in 0..n {
            let p = if pass == 0 { flat[i] } else { flat[n - 1 - i] };
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= T::ZERO
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    let k = hull.len();
    if k < 3 {
        return None;
    }
    let q = (q.dot(u), q.dot(v));
    let lift = |x: T, y: T| u * x + v * y;
    // Inside: the nearest edge's line, and its outward normal (the
    // outline runs counter-clockwise: outward is to its right).
    let mut least = (T::MAX, V3::<T>::ZERO);
    for i in 0..k {
        let (a, b) = (hull[i], hull[(i + 1) % k]);
        let len = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).sqrt();
        if len > T::ZERO && cross(a, b, q) / len < least.0 {
            least = (cross(a, b, q) / len, lift(b.1 - a.1, a.0 - b.0) / len);
        }
    }
    if least.0 >= T::ZERO || least.0 == T::MAX {
        return (least.0 < T::MAX).then_some(least);
    }
    // Outside: the distance to the outline itself (past an acute corner an
    // edge's line is nearer than the corner, 145 times at 0.8°, a review).
    let to_edge = |a: (T, T), b: (T, T)| {
        let (ex, ey) = (b.0 - a.0, b.1 - a.1);
        let ee = ex * ex + ey * ey;
        let t = if ee > T::ZERO {
            (((q.0 - a.0) * ex + (q.1 - a.1) * ey) / ee)
                .max(T::ZERO)
                .min(T::ONE)
        } else {
            T::ZERO
        };
        let (dx, dy) = (q.0 - a.0 - ex * t, q.1 - a.1 - ey * t);
        ((dx * dx + dy * dy).sqrt(), (dx, dy))
    };
    let (out, (dx, dy)) = (0..k).map(|i| to_edge(hull[i], hull[(i + 1) % k])).fold(
        (T::MAX, (T::ZERO, T::ZERO)),
        |m, e| if e.0 < m.0 { e } else { m },
    );
    // Past the outline by `out` > 0 (the least edge line's was negative).
    Some((-out, lift(dx, dy).try_normalize().unwrap_or(V3::<T>::ZERO)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// A hull face's inside distance: to the nearest edge's line inside,
    /// minus the most past one outside; a point on the face that is not
    /// a corner does not cut it; a face of any size.
    #[test]
    fn inside_a_hull_face_by_its_edges() {
        let pts = vec![
            DVec3::new(-1.0, 1.0, -1.0),
            DVec3::new(1.0, 1.0, -1.0),
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(-1.0, 1.0, 1.0),
            DVec3::new(0.5, 1.0, 0.9),
            DVec3::new(0.0, -1.0, 0.0),
        ];
        let at = |pts: &[DVec3], q: DVec3| inside_hull_face(pts, DVec3::Y, 1e-9, q).map(|r| r.0);
        let way = |pts: &[DVec3], q: DVec3| inside_hull_face(pts, DVec3::Y, 1e-9, q).unwrap().1;
        let along = |a: DVec3, b: DVec3| (a - b).length() < 1e-12;
        let near = |x: Option<f64>, y: f64| x.is_some_and(|x| (x - y).abs() < 1e-12);
        assert!(near(at(&pts, DVec3::new(0.0, 1.0, 0.0)), 1.0));
        assert!(near(at(&pts, DVec3::new(0.5, 1.0, 0.95)), 0.05));
        assert!(near(at(&pts, DVec3::new(1.25, 1.0, 0.0)), -0.25));
        assert!(near(at(&pts, DVec3::new(0.0, 1.0, -1.5)), -0.5));
        // The way out across the nearest boundary, inside and outside.
        assert!(along(way(&pts, DVec3::new(0.5, 1.0, 0.95)), DVec3::Z));
        assert!(along(way(&pts, DVec3::new(-0.9, 1.0, 0.0)), -DVec3::X));
        assert!(along(way(&pts, DVec3::new(1.25, 1.0, 0.0)), DVec3::X));
        let corner = way(&pts, DVec3::new(2.0, 1.0, -2.0));
        assert!(
            along(corner, DVec3::new(1.0, 0.0, -1.0).normalize()),
            "{corner}"
        );
        assert!(at(&pts[..2], DVec3::ZERO).is_none(), "an edge");
        // `n` points on the unit circle at height 1: every one a corner.
        let circle = |n: u32| -> Vec<DVec3> {
            (0..n)
                .map(|i| {
                    let t = std::f64::consts::TAU * f64::from(i) / f64::from(n);
                    DVec3::new(t.cos(), 1.0, t.sin())
                })
                .collect()
        };
        // All corners (a circle), every point twice, collinear runs.
        let ring = circle(64);
        let r = at(&ring, DVec3::new(0.0, 1.0, 0.0)).unwrap();
        assert!(
            (r - (std::f64::consts::PI / 64.0).cos()).abs() < 1e-12,
            "{r}"
        );
        let twice: Vec<DVec3> = ring[..32].iter().chain(&ring[..32]).copied().collect();
        assert!(at(&twice, DVec3::new(0.0, 1.0, 0.0)).is_some());
        let line: Vec<DVec3> = (0..64)
            .map(|i| DVec3::new(f64::from(i), 1.0, if i % 2 == 0 { 0.0 } else { 1e-300 }))
            .collect();
        let _ = at(&line, DVec3::new(0.0, 1.0, 0.0));
        // A face of many points (a 2 048-gon) reads as its outline.
        let many = circle(2048);
        let r = at(&many, DVec3::new(1.01, 1.0, 0.0)).unwrap();
        assert!((r + 0.01).abs() < 1e-5, "{r}");
        // Past an acute corner (1.1°) the distance is the corner's, not
        // the nearer edge's line.
        let sharp = [
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(1.0, 1.0, 0.01),
            DVec3::new(1.0, 1.0, -0.01),
        ];
        let r = at(&sharp, DVec3::new(-1.0, 1.0, 0.0)).unwrap();
        assert!((r + 1.0).abs() < 1e-12, "{r}");
    }
}
