//! The presets: queries that break algorithms (thin boxes, far scales,
//! grazing and exact contact, degenerate hulls), by name.

use super::fields::axis_angle;
use cspace::model::{Algorithm, Precision, Query, QueryKind};
use cspace_recorder::{ShapeDecl, ShapeGeom};

pub(super) fn body(shape: ShapeGeom, position: [f64; 3]) -> ShapeDecl {
    ShapeDecl::new(shape).at(position, ShapeDecl::IDENTITY)
}

fn cube(h: [f64; 3]) -> ShapeGeom {
    ShapeGeom::Box { half_extents: h }
}

/// A box as the hull of its corners: penetration runs GJK and EPA on it
/// (two true boxes are answered by the separating axis test, nothing to watch).
fn cube_hull(h: [f64; 3]) -> ShapeGeom {
    let points = (0..8)
        .map(|i| {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            [s(1) * h[0], s(2) * h[1], s(4) * h[2]]
        })
        .collect();
    ShapeGeom::Hull { points }
}

pub(super) fn sphere(radius: f64) -> ShapeGeom {
    ShapeGeom::Sphere { radius }
}

pub(super) fn query(
    kind: QueryKind,
    a: ShapeDecl,
    b: ShapeDecl,
    translation: Option<[f64; 3]>,
) -> Query {
    Query {
        id: None,
        query: kind,
        precision: Precision::F64,
        algorithm: None,
        a,
        b,
        translation,
    }
}

/// The presets: cases that break algorithms, by name.
#[must_use]
pub fn presets() -> Vec<(&'static str, Query)> {
    use QueryKind::{Distance, Intersect, Penetration, Sweep};
    let rot_z = |a: f64| axis_angle([0.0, 0.0, 1.0], a);
    let mut thin_b = body(cube([50.0, 0.005, 0.005]), [0.0, 0.0, 0.02]);
    thin_b.rotation = axis_angle([0.0, 0.0, 1.0], 0.001);
    let mut parallel_b = body(cube([1.0, 1.0, 1.0]), [0.0, 2.001, 0.0]);
    parallel_b.rotation = rot_z(1e-7);
    let mut grazing = query(
        Sweep,
        body(sphere(0.5), [-5.0, 1.5, 0.0]),
        body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
        Some([10.0, 0.0, 0.0]),
    );
    grazing.algorithm = Some(Algorithm::Ca);
    let mut far = query(
        Sweep,
        body(sphere(1.0), [1e6, 1e6, 0.0]),
        body(cube([1.0, 1.0, 1.0]), [1e6 + 10.0, 1e6, 0.0]),
        Some([20.0, 0.0, 0.0]),
    );
    far.algorithm = Some(Algorithm::Ca);
    let coplanar = ShapeGeom::Hull {
        points: vec![
            [-1.0, 0.0, -1.0],
            [1.0, 0.0, -1.0],
            [1.0, 0.0, 1.0],
            [-1.0, 0.0, 1.0],
        ],
    };
    let segment = ShapeGeom::Hull {
        points: vec![[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
    };
    let mut deep = query(
        Penetration,
        body(cube_hull([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
        body(cube_hull([1.0, 1.0, 1.0]), [0.01, 0.02, 0.0]),
        None,
    );
    deep.b.rotation = axis_angle([1.0, 1.0, 0.0], 0.3);
    vec![
        (
            "Long thin boxes",
            query(
                Distance,
                body(cube([50.0, 0.005, 0.005]), [0.0, 0.0, 0.0]),
                thin_b,
                None,
            ),
        ),
        (
            "Very different scales",
            query(
                Distance,
                body(sphere(1000.0), [0.0, 0.0, 0.0]),
                body(cube([0.001, 0.001, 0.001]), [1000.002, 0.0, 0.0]),
                None,
            ),
        ),
        ("Grazing contact", grazing),
        (
            "Exactly touching",
            query(
                Intersect,
                body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
                body(cube([1.0, 1.0, 1.0]), [2.0, 0.0, 0.0]),
                None,
            ),
        ),
        (
            "Nearly parallel faces",
            query(
                Distance,
                body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
                parallel_b,
                None,
            ),
        ),
        ("Deep overlap", deep),
        (
            "Degenerate hull (coplanar)",
            query(
                Distance,
                body(coplanar, [0.0, 0.0, 0.0]),
                body(sphere(0.5), [0.3, 0.8, 0.2]),
                None,
            ),
        ),
        (
            "Degenerate hull (2 points)",
            query(
                Penetration,
                body(segment, [0.0, 0.0, 0.0]),
                body(cube([0.5, 0.5, 0.5]), [0.2, 0.1, 0.0]),
                None,
            ),
        ),
        ("Sphere sweep far from the origin", far),
    ]
}
