//! Convex hulls of point sets: the points plus what every query needs of them.

use crate::real::{Real, V3, Vector};

/// A hull's points with what queries need of them every call (extent,
/// centroid), computed once here instead of per query (both are O(n)).
#[derive(Clone, Debug, PartialEq)]
pub struct Hull<T: Real> {
    points: Vec<V3<T>>,
    extent: T,
    centroid: V3<T>,
    /// A hash of every point's bits, in order (see [`Hull::fingerprint`]).
    fingerprint: u64,
}

impl<T: Real> Hull<T> {
    /// The hull of `points` (an empty set is rejected by [`Shape::validate`](crate::Shape::validate)).
    #[must_use]
    pub fn new(points: Vec<V3<T>>) -> Self {
        let extent = hull_extent::<T>(&points);
        // The mean as a sum of `q / n`: finite for any finite points (a sum
        // of them first overflowed near f32's largest numbers), NaN or
        // infinite if one is not.
        let centroid = if points.is_empty() {
            V3::<T>::ZERO
        } else {
            let n = T::from_f64(points.len() as f64);
            points.iter().fold(V3::<T>::ZERO, |s, &q| s + q / n)
        };
        let fingerprint = points.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, p| {
            p.to_f64().iter().fold(h, |h, c| mix(h, c.to_bits()))
        });
        Self {
            points,
            extent,
            centroid,
            fingerprint,
        }
    }

    /// A hash of every point's bits, in order: two hulls with the same one
    /// are the same hull but for a collision of 64-bit hashes. Kept by
    /// warm-start caches to tell their pair's shapes (computed once here,
    /// not per query).
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The points.
    #[must_use]
    pub fn points(&self) -> &[V3<T>] {
        &self.points
    }

    /// The largest absolute coordinate of the points.
    #[must_use]
    pub fn extent(&self) -> T {
        self.extent
    }

    /// The mean of the points: a point inside the hull.
    #[must_use]
    pub fn centroid(&self) -> V3<T> {
        self.centroid
    }
}

/// One step of the 64-bit FNV-1a-like mix behind the shapes' fingerprints.
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
}

/// The first of `points` farthest along `d` (a linear scan).
///
/// Four interleaved running maxima keep the dependency chains short; merging
/// them by (largest dot, then lowest index) gives exactly the sequential
/// scan's answer, the first point with the largest dot product.
#[inline]
pub(crate) fn hull_support<T: Real>(points: &[V3<T>], d: V3<T>) -> V3<T> {
    let mut best_dot = [-T::MAX; 4];
    let mut best = [usize::MAX; 4];
    let chunks = points.chunks_exact(4);
    let rest = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        for k in 0..4 {
            let dot = chunk[k].dot(d);
            if dot > best_dot[k] {
                best_dot[k] = dot;
                best[k] = 4 * c + k;
            }
        }
    }
    let base = points.len() - rest.len();
    for (k, p) in rest.iter().enumerate() {
        let dot = p.dot(d);
        if dot > best_dot[k] {
            best_dot[k] = dot;
            best[k] = base + k;
        }
    }
    // The merge without branches on the data: the largest of the four,
    // then the lowest index reaching it (which chain leads is a coin toss
    // for a random direction; the branches were mispredicted ~once a call).
    let top = |x: T, y: T| if y > x { y } else { x };
    let m = top(top(best_dot[0], best_dot[1]), top(best_dot[2], best_dot[3]));
    let at = |k: usize| best[k] | usize::from(best_dot[k] != m).wrapping_neg();
    let i = at(0).min(at(1)).min(at(2).min(at(3)));
    // Only when no dot product beats −MAX (infinite or NaN input): the first point.
    points.get(i).copied().unwrap_or(points[0])
}

/// The largest absolute coordinate of `points`.
fn hull_extent<T: Real>(points: &[V3<T>]) -> T {
    let mut m = [T::ZERO; 3];
    for p in points {
        let a = p.abs();
        for (mk, ak) in m.iter_mut().zip([a.x(), a.y(), a.z()]) {
            if ak > *mk {
                *mk = ak;
            }
        }
    }
    m[0].max(m[1]).max(m[2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// The sequential scan the interleaved one must equal: the first point
    /// whose dot product beats all before it and −MAX (the first point when
    /// none does: NaN or infinite input).
    fn first_farthest(points: &[DVec3], d: DVec3) -> DVec3 {
        let (mut best, mut best_dot) = (0, -f64::MAX);
        for (i, p) in points.iter().enumerate() {
            if p.dot(d) > best_dot {
                (best, best_dot) = (i, p.dot(d));
            }
        }
        points[best]
    }

    /// Grid points tie often along axis-aligned and diagonal directions:
    /// every length (each remainder of the four chains), the first of the
    /// tied points; a NaN direction gives the first point.
    #[test]
    fn the_scan_returns_the_first_farthest_point() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            #[allow(clippy::cast_precision_loss)]
            let v = ((seed >> 33) % m) as f64;
            v
        };
        for n in 1..=40 {
            for _ in 0..200 {
                let points: Vec<DVec3> = (0..n)
                    .map(|_| DVec3::new(next(3), next(3), next(3)) - 1.0)
                    .collect();
                let d = DVec3::new(next(3), next(3), next(3)) - 1.0;
                let got = hull_support::<f64>(&points, d);
                assert_eq!(got, first_farthest(&points, d), "{points:?} along {d}");
            }
            let points: Vec<DVec3> = (0..n).map(|i| DVec3::splat(f64::from(i))).collect();
            assert_eq!(hull_support::<f64>(&points, DVec3::NAN), points[0]);
        }
    }
}
