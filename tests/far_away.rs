//! Shapes far from the origin: the queries work in A's frame, so distances
//! keep their accuracy and `Unique` closest points are off by the witness
//! tolerance plus the rounding of their own world coordinates only
//! (`Witness::Unique`'s contract), checked in f32 against f64 on the same
//! rounded input.

mod gjk_common;

use cspace::{Placed, Shape, Witness, gjk};
use gjk_common::{Rng, pose_f32, random_case, wide};
use glam::DVec3;

#[test]
fn far_away_f32_answers_carry_only_their_coordinates_rounding() {
    let eps = f64::from(f32::EPSILON);
    for offset in [0.0, 1e3, 4e3, 3e4, 1e6] {
        let mut rng = Rng::new(5);
        let mut unique = 0;
        for _ in 0..2000 {
            let (sa, sb, mut pa, mut pb) = random_case(&mut rng);
            let shift = DVec3::new(offset, -offset * 0.7, offset * 0.3);
            pa.position += shift;
            pb.position += shift;
            let (a32, b32): (Shape<f32>, Shape<f32>) = (sa.to_precision(), sb.to_precision());
            let (qa, qb) = (pose_f32(&pa), pose_f32(&pb));
            let d32 = gjk::distance(&Placed::new(&a32, qa), &Placed::new(&b32, qb));
            // The reference: f64 on the f32-rounded input.
            let (a64, b64): (Shape<f64>, Shape<f64>) = (a32.to_precision(), b32.to_precision());
            let wider = gjk_common::pose_f64;
            let d64 = gjk::distance(
                &Placed::new(&a64, wider(&qa)),
                &Placed::new(&b64, wider(&qb)),
            );
            let size = a64.scale().max(b64.scale());
            assert!(
                (f64::from(d32.distance) - d64.distance).abs() <= 5e-5 * (d64.distance + size),
                "offset {offset}: distance {} against {}",
                d32.distance,
                d64.distance
            );
            if d32.witness != Witness::Unique || d32.intersecting || d64.witness != Witness::Unique
            {
                continue;
            }
            unique += 1;
            for (p32, p64) in [(d32.point_a, d64.point_a), (d32.point_b, d64.point_b)] {
                let allowed = 1e-4 * size + eps * p64.abs().max_element();
                let off = (wide::<f32>(p32) - p64).length();
                assert!(
                    off <= allowed,
                    "offset {offset}: a unique point {off:.2e} off, allowed {allowed:.2e} ({:?} against {:?})",
                    a64.geom(),
                    b64.geom()
                );
            }
        }
        assert!(
            unique > 1500,
            "offset {offset}: only {unique} unique answers"
        );
    }
}
