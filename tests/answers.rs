//! Every query records its answer when it returns, once: called directly
//! inside `record()` (not only through the query model), and only the
//! outermost query of a nested call (EPA's GJK, a signed distance's GJK and
//! EPA, a sweep's distances) records one.

use cspace::{Placed, Pose, Shape, epa, gjk, model, mpr, signed, sweep};
use cspace_recorder::{self as rec, Answer, Event};
use glam::{DQuat, DVec3};

/// The answers a recording holds, in order.
fn answers(bytes: &[u8]) -> Vec<Answer> {
    let decoded = rec::stream::decode(bytes);
    assert!(decoded.error.is_none(), "{:?}", decoded.error);
    decoded
        .events
        .into_iter()
        .filter_map(|e| match e.event {
            Event::Answer { answer, .. } => Some(*answer),
            _ => None,
        })
        .collect()
}

fn at(x: f64) -> Pose<f64> {
    Pose::new(DVec3::new(x, 0.0, 0.0), DQuat::IDENTITY)
}

#[test]
fn each_query_called_directly_records_one_answer_of_its_kind() {
    let hull = Shape::hull(vec![
        DVec3::new(-1.0, -1.0, -1.0),
        DVec3::new(1.0, -1.0, -1.0),
        DVec3::new(0.0, 1.0, -1.0),
        DVec3::new(0.0, 0.0, 1.0),
    ]);
    let cyl = Shape::cylinder(1.0, 0.5);
    let (apart_a, apart_b) = (Placed::new(&hull, at(0.0)), Placed::new(&cyl, at(3.0)));
    let (deep_a, deep_b) = (Placed::new(&hull, at(0.0)), Placed::new(&cyl, at(0.4)));
    let motion = DVec3::new(6.0, 0.0, 0.0);

    let (d, r) = rec::record(|| gjk::distance(&apart_a, &apart_b));
    match answers(&r.bytes).as_slice() {
        [Answer::Distance { distance, .. }] => assert_eq!(distance.to_f64(), d.distance),
        other => panic!("one distance answer, got {other:?}"),
    }
    // EPA runs GJK first: still one answer, the penetration.
    let (p, r) = rec::record(|| epa::penetration(&deep_a, &deep_b));
    match answers(&r.bytes).as_slice() {
        [Answer::Penetration { depth, .. }] => assert_eq!(depth.to_f64(), p.depth),
        other => panic!("one penetration answer, got {other:?}"),
    }
    let (_, r) = rec::record(|| mpr::penetration(&deep_a, &deep_b));
    assert!(matches!(
        answers(&r.bytes).as_slice(),
        [Answer::Penetration { .. }]
    ));
    for (a, b, intersecting) in [(&apart_a, &apart_b, false), (&deep_a, &deep_b, true)] {
        let (_, r) = rec::record(|| gjk::intersect(a, b));
        let (_, s) = rec::record(|| mpr::intersect(a, b));
        for bytes in [r.bytes, s.bytes] {
            match answers(&bytes).as_slice() {
                [
                    Answer::Intersect {
                        intersecting: i, ..
                    },
                ] => assert_eq!(*i, intersecting),
                other => panic!("one intersect answer, got {other:?}"),
            }
        }
    }
    // A signed distance runs GJK and (overlapping) EPA: one answer each time.
    let (s, r) = rec::record(|| signed::signed_distance(&apart_a, &apart_b));
    assert!(s.distance > 0.0);
    assert!(matches!(
        answers(&r.bytes).as_slice(),
        [Answer::Distance { .. }]
    ));
    let (s, r) = rec::record(|| signed::signed_distance(&deep_a, &deep_b));
    assert!(s.distance < 0.0);
    assert!(matches!(
        answers(&r.bytes).as_slice(),
        [Answer::Penetration { .. }]
    ));
    // Sweeps (conservative advancement runs many distance queries).
    let start = Placed::new(&hull, at(-3.0));
    for run in [
        sweep::ray_cast::<f64>,
        sweep::conservative_advancement::<f64>,
        sweep::swept_mpr::<f64>,
    ] {
        let (s, r) = rec::record(|| run(&start, motion, &apart_b));
        assert!(s.hit);
        match answers(&r.bytes).as_slice() {
            [Answer::Sweep { hit, toi, .. }] => assert!(*hit && toi.to_f64() == s.toi),
            other => panic!("one sweep answer, got {other:?}"),
        }
    }
}

#[test]
fn the_query_model_records_the_algorithms_answer_once() {
    let line = r#"{"query":"penetration","a":{"shape":{"type":"sphere","radius":1.0},"position":[0,0,0]},"b":{"shape":{"type":"box","half_extents":[1,1,1]},"position":[0.5,0,0]}}"#;
    let q = model::parse(line).expect("a valid query");
    let (answer, recording) = model::run_recorded(&q);
    assert!(answer.is_ok());
    assert!(matches!(
        answers(&recording.bytes).as_slice(),
        [Answer::Penetration { .. }]
    ));
}

#[test]
fn not_recording_records_nothing_and_a_panic_does_not_leave_a_query_open() {
    let cyl = Shape::cylinder(1.0, 0.5);
    let (a, b) = (Placed::new(&cyl, at(0.0)), Placed::new(&cyl, at(3.0)));
    // Outside `record` the answer costs nothing and nothing is counted.
    let _ = gjk::distance(&a, &b);
    // A query that panics inside a recording closes its guard on unwind,
    // so the next query is outermost again and records its answer.
    let caught = std::panic::catch_unwind(|| {
        rec::record(|| {
            let _query = rec::enter_query();
            panic!("inside a query");
        })
    });
    assert!(caught.is_err());
    let (_, r) = rec::record(|| gjk::distance(&a, &b));
    assert_eq!(answers(&r.bytes).len(), 1);
}

/// A sphere against a box answers in closed form: the recording still
/// declares the shapes (the viewer draws them) and holds one answer.
#[test]
fn closed_form_queries_declare_their_shapes_and_answer_once() {
    let (bx, ball) = (Shape::cuboid(DVec3::new(1.0, 0.5, 0.5)), Shape::sphere(0.4));
    let shapes = |bytes: &[u8]| {
        rec::stream::decode(bytes)
            .events
            .iter()
            .filter(|e| matches!(e.event, Event::Shapes { .. }))
            .count()
    };
    for x in [0.8, 3.0] {
        let (a, b) = (Placed::new(&bx, at(0.0)), Placed::new(&ball, at(x)));
        let (_, r1) = rec::record(|| signed::signed_distance(&a, &b));
        let (_, r2) = rec::record(|| gjk::distance(&a, &b));
        let (_, r3) = rec::record(|| epa::penetration(&a, &b));
        let (_, r4) = rec::record(|| mpr::intersect(&a, &b));
        for r in [r1, r2, r3, r4] {
            assert!(shapes(&r.bytes) >= 1, "x = {x}: the shapes are declared");
            assert_eq!(answers(&r.bytes).len(), 1, "x = {x}: one answer");
        }
    }
}

/// The certificate each recording holds, and that it comes right after the
/// one answer.
fn certificate(bytes: &[u8]) -> rec::Certificate {
    let events: Vec<Event> = rec::stream::decode(bytes)
        .events
        .into_iter()
        .map(|l| l.event)
        .filter(|e| !matches!(e, Event::Site(_)))
        .collect();
    match events.as_slice() {
        [
            ..,
            Event::Answer { .. },
            Event::Certificate { certificate, .. },
        ] => (**certificate).clone(),
        other => panic!(
            "an answer then its certificate at the end: {:?}",
            other.last()
        ),
    }
}

/// What the viewer is told must be what the caller got: every query's
/// certificate carries the returned status, evaluations and bounds bit for
/// bit, the witness and the normal's bound where the answer has them.
#[test]
fn each_answer_is_followed_by_the_certificate_it_returned() {
    let bits = |c: &rec::Certificate| {
        (
            c.bounds.map(|b| b.map(|x| x.to_f64().to_bits())),
            c.normal_within.map(|x| x.to_f64().to_bits()),
        )
    };
    let some = |lo: f64, hi: f64| Some([lo.to_bits(), hi.to_bits()]);
    let cyl = Shape::cylinder(1.0, 0.5);
    let bx = Shape::cuboid(DVec3::new(1.0, 0.5, 0.5));
    let (apart_a, apart_b) = (Placed::new(&bx, at(0.0)), Placed::new(&cyl, at(3.0)));
    let (deep_a, deep_b) = (Placed::new(&bx, at(0.0)), Placed::new(&cyl, at(0.4)));

    let (d, r) = rec::record(|| gjk::distance(&apart_a, &apart_b));
    let c = certificate(&r.bytes);
    assert_eq!(c.status, "converged");
    assert_eq!(c.iterations, d.iterations);
    assert_eq!(bits(&c), (some(d.lower_bound, d.upper_bound), None));
    assert_eq!(c.witness.as_deref(), Some(d.witness.name()));

    for (p, r) in [
        rec::record(|| epa::penetration(&deep_a, &deep_b)),
        rec::record(|| mpr::penetration(&deep_a, &deep_b)),
    ] {
        let c = certificate(&r.bytes);
        assert_eq!(
            (c.status.as_str(), c.iterations),
            (p.status.name(), p.iterations)
        );
        assert_eq!(
            bits(&c),
            (
                some(p.lower_bound, p.upper_bound),
                Some(p.normal_within.to_bits())
            )
        );
        assert_eq!(c.witness, None);
    }

    for (a, b) in [(&apart_a, &apart_b), (&deep_a, &deep_b)] {
        for (o, r) in [
            rec::record(|| gjk::intersect(a, b)),
            rec::record(|| mpr::intersect(a, b)),
        ] {
            let c = certificate(&r.bytes);
            assert_eq!(
                (c.status.as_str(), c.iterations),
                (o.status.name(), o.iterations)
            );
            assert_eq!(bits(&c), (None, None));
        }
        // Signed: the depth's bounds when overlapping (the signed ones negated).
        let (s, r) = rec::record(|| signed::signed_distance(a, b));
        let c = certificate(&r.bytes);
        assert_eq!(
            (c.status.as_str(), c.iterations),
            (s.status.name(), s.iterations)
        );
        let bounds = if s.distance > 0.0 {
            some(s.lower_bound, s.upper_bound)
        } else {
            some(-s.upper_bound, -s.lower_bound)
        };
        assert_eq!(bits(&c), (bounds, Some(s.normal_within.to_bits())));
        assert_eq!(c.witness.as_deref(), s.witness.map(cspace::Witness::name));
    }

    // Sweeps: the toi bracket; a miss has no witness.
    let start = Placed::new(&bx, at(-3.0));
    for motion in [DVec3::new(6.0, 0.0, 0.0), DVec3::new(0.0, 6.0, 0.0)] {
        let (s, r) = rec::record(|| sweep::ray_cast(&start, motion, &apart_b));
        let c = certificate(&r.bytes);
        assert_eq!(
            (c.status.as_str(), c.iterations),
            (s.status.name(), s.iterations)
        );
        assert_eq!(bits(&c), (some(s.toi_lower, s.toi_upper), None));
        assert_eq!(c.witness.as_deref(), s.witness.map(cspace::Witness::name));
        assert_eq!(c.witness.is_some(), s.hit);
    }
}
