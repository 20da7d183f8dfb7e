//! Run the GJK inside `cspace_recorder::record`, decode the stream and check
//! what the viewer will see. Needs the macros compiled in (feature `debug-draw`).
#![cfg(feature = "debug-draw")]

mod common;

use cspace_recorder::{Event, Recording, Scalar, ShapeGeom, Vec3Data};
use custom_gjk::gjk::{self, Distance};
use custom_gjk::scenes;
use custom_gjk::vec3::V3;
use std::collections::HashMap;

/// The decoded events and each site's label.
struct Decoded {
    events: Vec<Event>,
    labels: HashMap<u32, String>,
}

impl Decoded {
    fn new(recording: &Recording) -> Self {
        let decoded = cspace_recorder::decode(&recording.bytes);
        assert_eq!(decoded.error, None, "a fresh recording decodes completely");
        let events: Vec<Event> = decoded.events.into_iter().map(|l| l.event).collect();
        let labels = events
            .iter()
            .filter_map(|e| match e {
                Event::Site(def) => Some((def.id, def.label.clone())),
                _ => None,
            })
            .collect();
        Self { events, labels }
    }

    /// The samples of the `value!` series called `label`, in order.
    fn series(&self, label: &str) -> Vec<f64> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Value { site, value } if self.labels[site] == label => {
                    assert!(
                        matches!(value, Scalar::F64(_)),
                        "recorded in the algorithm's precision"
                    );
                    Some(value.to_f64())
                }
                _ => None,
            })
            .collect()
    }
}

fn hull_points(geom: &ShapeGeom) -> &[[f64; 3]] {
    match geom {
        ShapeGeom::Hull { points } => points,
        other => panic!("expected a hull, got {other:?}"),
    }
}

fn f64s(v: Vec3Data) -> [f64; 3] {
    match v {
        Vec3Data::F64(v) => v,
        Vec3Data::F32(_) => panic!("the algorithm computes in f64"),
    }
}

/// Everything a recording of `gjk::distance(a, b)` must satisfy.
fn check_structure(a: &[V3], b: &[V3], result: &Distance, rec: &Decoded) {
    // The shapes, declared once, as the exact vertex sets.
    let shapes: Vec<_> = rec
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Shapes { a, b, motion, .. } => Some((a, b, motion)),
            _ => None,
        })
        .collect();
    assert_eq!(shapes.len(), 1, "one Shapes event");
    let (da, db, motion) = shapes[0];
    assert_eq!(*motion, None);
    let as_arrays = |ps: &[V3]| ps.iter().map(|p| [p.x, p.y, p.z]).collect::<Vec<_>>();
    assert_eq!(hull_points(&da.geom), as_arrays(a));
    assert_eq!(hull_points(&db.geom), as_arrays(b));
    assert!(
        matches!(
            rec.events.iter().find(|e| !matches!(e, Event::Site(_))),
            Some(Event::Shapes { .. })
        ),
        "shapes come first"
    );

    // Scopes balance, and there are steps to stop at.
    let mut depth = 0_i32;
    for e in &rec.events {
        match e {
            Event::Push { .. } => depth += 1,
            Event::Pop { .. } => depth -= 1,
            _ => {}
        }
        assert!(depth >= 0, "pop without push");
    }
    assert_eq!(depth, 0, "every push is popped");
    let pushes = rec
        .events
        .iter()
        .filter(|e| matches!(e, Event::Push { .. }))
        .count();
    assert_eq!(
        pushes, result.iterations as usize,
        "one scope per iteration"
    );
    let pauses = rec
        .events
        .iter()
        .filter(|e| matches!(e, Event::Pause { .. }))
        .count();
    assert!(
        pauses > pushes,
        "at least one pause per iteration, plus start and done"
    );

    // Every simplex vertex is w = a - b, bit for bit.
    let mut simplices = 0;
    for e in &rec.events {
        if let Event::Simplex { vertices, .. } = e {
            simplices += 1;
            assert!((1..=4).contains(&vertices.len()));
            for v in vertices {
                let (w, pa, pb) = (f64s(v.w), f64s(v.a), f64s(v.b));
                let diff = [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]];
                assert!(Vec3Data::F64(diff).bit_eq(v.w), "w {w:?} != a - b {diff:?}");
            }
        }
    }
    assert!(simplices >= 1);

    // GJK's guarantees: |v| never grows, the running lower bound never
    // shrinks, and lower <= distance <= upper.
    let upper = rec.series("upper bound");
    let lower = rec.series("lower bound");
    assert_eq!(upper.len(), result.iterations as usize);
    assert!(
        upper.windows(2).all(|w| w[1] <= w[0]),
        "upper bound grew: {upper:?}"
    );
    assert!(
        lower.windows(2).all(|w| w[1] >= w[0]),
        "lower bound shrank: {lower:?}"
    );
    let tol = 1e-9 * (1.0 + result.distance);
    assert!(
        lower.iter().all(|&l| l <= result.distance + tol),
        "{lower:?} vs {}",
        result.distance
    );
    assert!(upper.iter().all(|&u| u >= result.distance - tol));
    assert_eq!(rec.series("distance"), vec![result.distance]);
    check_answer(result, rec);
}

/// The answer at the end, then its certificate: the bounds around the
/// same distance, and the loop's own verdict.
fn check_answer(result: &Distance, rec: &Decoded) {
    let tail: Vec<&Event> = rec
        .events
        .iter()
        .filter(|e| !matches!(e, Event::Site(_)))
        .rev()
        .take(2)
        .collect();
    let [
        Event::Certificate { certificate: c, .. },
        Event::Answer { answer, .. },
    ] = tail[..]
    else {
        panic!("the recording ends with the answer and its certificate: {tail:?}");
    };
    assert!(
        matches!(**answer, cspace_recorder::Answer::Distance { distance: Scalar::F64(d), .. } if d == result.distance),
        "{answer:?}"
    );
    assert_eq!(c.status, "converged");
    assert_eq!(c.iterations, result.iterations);
    let Some([lo, hi]) = c.bounds else {
        panic!("bounds: {c:?}");
    };
    assert_eq!(hi.to_f64(), result.distance);
    let tol = 1e-9 * (1.0 + result.distance);
    assert!(
        lo.to_f64() <= hi.to_f64() && hi.to_f64() - lo.to_f64() <= tol,
        "{c}"
    );
}

fn cube(min: [f64; 3]) -> Vec<V3> {
    scenes::box_corners(
        V3::from(min) + V3::new(0.5, 0.5, 0.5),
        V3::new(0.5, 0.5, 0.5),
        0.0,
    )
}

#[test]
fn corner_to_corner_recording_has_the_exact_answer() {
    let (a, b) = (cube([0.0; 3]), cube([4.0, 5.0, 13.0]));
    let (result, recording) = cspace_recorder::record(|| gjk::distance(&a, &b));
    common::keep_on_failure("custom-gjk-corner-to-corner", &recording, || {
        let rec = Decoded::new(&recording);
        check_structure(&a, &b, &result, &rec);
        // sqrt(3² + 4² + 12²) = 13, exactly representable and exactly computed.
        assert_eq!(result.distance, 13.0);
        assert_eq!(rec.series("upper bound").last(), Some(&13.0));
        let closest = rec.events.iter().rev().find_map(|e| match e {
            Event::Line { site, a, b, .. } if rec.labels[site] == "closest points" => {
                Some((*a, *b))
            }
            _ => None,
        });
        assert_eq!(
            closest,
            Some((
                Vec3Data::F64([1.0, 1.0, 1.0]),
                Vec3Data::F64([4.0, 5.0, 13.0])
            ))
        );
    });
}

#[test]
fn demo_recording_is_well_formed() {
    let (a, b) = scenes::demo();
    let (result, recording) = cspace_recorder::record(|| gjk::distance(&a, &b));
    common::keep_on_failure("custom-gjk-demo", &recording, || {
        assert!(
            result.distance > 0.0,
            "the demo shapes are apart: {result:?}"
        );
        check_structure(&a, &b, &result, &Decoded::new(&recording));
    });
}

#[test]
fn random_recordings_are_well_formed() {
    for (i, (a, b)) in scenes::random_pairs(300, 3).into_iter().enumerate() {
        let (result, recording) = cspace_recorder::record(|| gjk::distance(&a, &b));
        common::keep_on_failure(&format!("custom-gjk-random-{i}"), &recording, || {
            check_structure(&a, &b, &result, &Decoded::new(&recording));
        });
    }
}

#[test]
fn nothing_is_recorded_outside_record() {
    let (a, b) = scenes::demo();
    let ((), recording) = cspace_recorder::record(|| {});
    let _ = gjk::distance(&a, &b);
    assert!(Decoded::new(&recording).events.is_empty());
}
