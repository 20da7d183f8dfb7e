//! Shapes for the demo, the tests and the cost measurement.

use crate::vec3::V3;

/// The eight corners of a box with centre `c` and half extents `h`, turned by
/// `angle` radians about the z axis.
#[must_use]
pub fn box_corners(c: V3, h: V3, angle: f64) -> Vec<V3> {
    let (sin, cos) = angle.sin_cos();
    let mut out = Vec::with_capacity(8);
    for sx in [-1.0, 1.0] {
        for sy in [-1.0, 1.0] {
            for sz in [-1.0, 1.0] {
                let (x, y) = (sx * h.x, sy * h.y);
                out.push(c + V3::new(cos * x - sin * y, sin * x + cos * y, sz * h.z));
            }
        }
    }
    out
}

/// The six vertices of an octahedron with centre `c` and radius `r`.
#[must_use]
pub fn octahedron(c: V3, r: f64) -> Vec<V3> {
    [
        V3::new(r, 0.0, 0.0),
        V3::new(-r, 0.0, 0.0),
        V3::new(0.0, r, 0.0),
        V3::new(0.0, -r, 0.0),
        V3::new(0.0, 0.0, r),
        V3::new(0.0, 0.0, -r),
    ]
    .into_iter()
    .map(|p| c + p)
    .collect()
}

/// The demo query: a box turned 30° about z and an octahedron beside it.
#[must_use]
pub fn demo() -> (Vec<V3>, Vec<V3>) {
    (
        box_corners(V3::ZERO, V3::new(1.0, 0.5, 0.75), 30f64.to_radians()),
        octahedron(V3::new(2.6, 1.1, 0.4), 0.8),
    )
}

/// A tiny deterministic generator (64-bit LCG), so tests and measurements
/// need no dependency and see the same shapes every run.
#[derive(Clone, Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    /// A uniform sample in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let unit = (self.0 >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    /// A point with coordinates uniform in `[lo, hi)`.
    pub fn point(&mut self, lo: f64, hi: f64) -> V3 {
        V3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
}

/// `n` query pairs of turned boxes and octahedra at random poses, some
/// overlapping, some apart.
#[must_use]
pub fn random_pairs(n: usize, seed: u64) -> Vec<(Vec<V3>, Vec<V3>)> {
    let mut rng = Lcg(seed);
    (0..n)
        .map(|_| {
            let a = box_corners(
                rng.point(-1.0, 1.0),
                rng.point(0.2, 1.5),
                rng.range(0.0, std::f64::consts::PI),
            );
            let b = octahedron(rng.point(-3.0, 3.0), rng.range(0.2, 1.5));
            (a, b)
        })
        .collect()
}
