//! A small built-in recording shown when no bundled examples were embedded:
//! a distance query between a box and a sphere by Gilbert's descent (the
//! support point in the direction −v, then the closest point of the segment),
//! using the real support functions.

use crate::state::hull::shape_support;
use cspace_recorder::{self as rec, Rgba, ShapeDecl, ShapeGeom};
use glam::DVec3;
use std::f64::consts::PI;

/// A box and a sphere, apart.
#[must_use]
pub fn shapes() -> (ShapeDecl, ShapeDecl) {
    let a = ShapeDecl {
        geom: ShapeGeom::Box {
            half_extents: [1.0, 0.6, 0.8],
        },
        margin: 0.0,
        position: [0.0, 0.0, 0.0],
        rotation: [0.0, (PI / 8.0).sin(), 0.0, (PI / 8.0).cos()],
    };
    let b = ShapeDecl {
        geom: ShapeGeom::Sphere { radius: 0.7 },
        margin: 0.0,
        position: [2.6, 0.9, 0.4],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    (a, b)
}

/// Records the demo query and returns the stream bytes.
#[must_use]
pub fn recording() -> Vec<u8> {
    let (a, b) = shapes();
    let sa = shape_support(&a);
    let sb = shape_support(&b);
    let ((), r) = rec::record(|| {
        rec::shapes!(a.clone(), b.clone());
        rec::text!("distance between a box and a sphere (Gilbert's descent)");
        let cso = |d: DVec3| (sa(d) - sb(-d), sa(d), sb(-d));
        let (w0, a0, b0) = cso(DVec3::X);
        let mut simplex = vec![(w0, a0, b0)];
        let mut v = w0;
        for i in 0..12 {
            rec::push!("iteration");
            rec::text!("iteration {i}: |v| = {}", v.length());
            rec::value!("|v|", v.length());
            let (w, pa, pb) = cso(-v);
            rec::point!(cso "support w", w, Rgba::RED);
            rec::line!(cso "direction", v, DVec3::ZERO, Rgba::BLUE);
            rec::point!("support on A", pa, Rgba::RED);
            rec::point!("support on B", pb, Rgba::ORANGE);
            let gap = v.length_squared() - v.dot(w);
            rec::value!("gap v·v − v·w", gap);
            rec::pause!("support");
            if gap <= 1e-10 * v.length_squared() {
                rec::text!("converged: gap {gap:e}");
                rec::pop!();
                break;
            }
            // Closest point of the segment v..w to the origin.
            let d = w - v;
            let t = (-v.dot(d) / d.length_squared()).clamp(0.0, 1.0);
            let last = simplex[simplex.len() - 1];
            simplex = vec![last, (w, pa, pb)];
            v += d * t;
            rec::simplex!("simplex", simplex.iter().map(|&(w, a, b)| (w, a, b)));
            rec::point!(cso "v", v, Rgba::GREEN);
            rec::pause!("closest point");
            rec::pop!();
        }
        // Witness points: the supports in direction −v approximate them.
        let (_, wa, wb) = cso(-v);
        rec::point!("witness A", wa, Rgba::GREEN);
        rec::point!("witness B", wb, Rgba::GREEN);
        rec::line!("closest", wa, wb, Rgba::GREEN);
        rec::text!("distance ~ {}", v.length());
        rec::pause!("done");
    });
    r.bytes
}

#[cfg(test)]
mod tests {
    use crate::state::trace::Trace;

    #[test]
    fn demo_decodes_and_converges() {
        let t = Trace::from_bytes(&super::recording());
        assert!(t.error.is_none());
        assert!(t.steps() >= 4);
        assert!(t.series.iter().any(|s| s.name == "|v|"));
        assert!(!t.simplices.is_empty());
    }
}
