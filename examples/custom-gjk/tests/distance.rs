//! The distance is right without recording.

use custom_gjk::gjk::{self, Distance};
use custom_gjk::scenes::{self, Lcg};
use custom_gjk::vec3::V3;

fn cube(min: [f64; 3], size: f64) -> Vec<V3> {
    scenes::box_corners(
        V3::from(min) + V3::new(size, size, size) * 0.5,
        V3::new(size, size, size) * 0.5,
        0.0,
    )
}

#[test]
fn vertex_to_vertex_is_exact() {
    // Unit cubes apart by 3, 4 and 12 along the axes: the closest points are
    // corners (1, 1, 1) and (4, 5, 13), 13 apart, and every step is exact.
    let d = gjk::distance(&cube([0.0; 3], 1.0), &cube([4.0, 5.0, 13.0], 1.0));
    assert_eq!(d.distance, 13.0, "{d:?}");
    assert_eq!(d.point_a, V3::new(1.0, 1.0, 1.0));
    assert_eq!(d.point_b, V3::new(4.0, 5.0, 13.0));
}

#[test]
fn point_above_a_triangle_face() {
    let tri = [
        V3::new(-1.0, -1.0, 0.0),
        V3::new(2.0, -1.0, 0.0),
        V3::new(-1.0, 2.0, 0.0),
    ];
    let d = gjk::distance(&tri, &[V3::new(0.0, 0.0, 5.0)]);
    assert!((d.distance - 5.0).abs() < 1e-12, "{d:?}");
    assert!(d.point_a.length() < 1e-12, "{d:?}");
}

#[test]
fn overlapping_shapes_are_at_distance_zero_and_witnesses_meet() {
    let d = gjk::distance(&cube([0.0; 3], 2.0), &cube([1.0, 0.5, 1.5], 2.0));
    assert_eq!(d.distance, 0.0, "{d:?}");
    assert!((d.point_a - d.point_b).length() < 1e-12, "{d:?}");
}

/// Axis-aligned boxes have a closed-form distance: the length of the per-axis gaps.
#[test]
fn random_axis_aligned_boxes_match_the_closed_form() {
    let mut rng = Lcg(5);
    for case in 0..2000 {
        let (ca, ha) = (rng.point(-2.0, 2.0), rng.point(0.1, 1.0));
        let (cb, hb) = (rng.point(-2.0, 2.0), rng.point(0.1, 1.0));
        let gap = |c1: f64, h1: f64, c2: f64, h2: f64| ((c1 - c2).abs() - h1 - h2).max(0.0);
        let expected = V3::new(
            gap(ca.x, ha.x, cb.x, hb.x),
            gap(ca.y, ha.y, cb.y, hb.y),
            gap(ca.z, ha.z, cb.z, hb.z),
        )
        .length();
        let Distance {
            distance,
            point_a,
            point_b,
            ..
        } = gjk::distance(
            &scenes::box_corners(ca, ha, 0.0),
            &scenes::box_corners(cb, hb, 0.0),
        );
        assert!(
            (distance - expected).abs() <= 1e-9 * (1.0 + expected),
            "case {case}: {distance} != {expected}"
        );
        assert!(
            ((point_b - point_a).length() - distance).abs() <= 1e-9,
            "case {case}"
        );
    }
}

#[test]
fn recording_does_not_change_the_answer() {
    for (a, b) in scenes::random_pairs(200, 11) {
        let plain = gjk::distance(&a, &b);
        let (recorded, _) = cspace_recorder::record(|| gjk::distance(&a, &b));
        assert_eq!(plain.distance.to_bits(), recorded.distance.to_bits());
        assert_eq!(plain.iterations, recorded.iterations);
    }
}
