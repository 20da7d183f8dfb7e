//! The query model: exact JSON round trips, recording, and a property that no
//! accepted query panics, returns NaN or loops.

use cspace::model::{self as query, Algorithm, Query, QueryKind};
use cspace_recorder::{ShapeDecl, ShapeGeom};

// ----- the query model ---------------------------------------------------------

#[test]
fn queries_round_trip_exactly() {
    let q = Query {
        id: Some("rt".into()),
        query: QueryKind::Sweep,
        precision: query::Precision::F32,
        algorithm: Some(Algorithm::SweptMpr),
        a: ShapeDecl::new(ShapeGeom::Hull {
            points: vec![[0.1, 0.2, 0.3], [1.0 / 3.0, 2e-300, -7.5e17]],
        })
        .at([std::f64::consts::PI, -0.0, 1e-17], ShapeDecl::IDENTITY)
        .with_margin(0.1 + 0.2),
        b: ShapeDecl::new(ShapeGeom::Point).at([0.0; 3], [0.6, 0.0, 0.0, 0.8]),
        translation: Some([1.0 / 7.0, 0.0, 5e-324]),
    };
    let text = serde_json::to_string(&q).unwrap();
    let back: Query = serde_json::from_str(&text).unwrap();
    assert_eq!(back, q);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    assert_eq!(query::parse(&text).unwrap(), q);
}

#[test]
fn answers_round_trip_and_run_recorded_records() {
    let q = query::parse(r#"{"id":"a","query":"penetration","algorithm":"mpr","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[1.5,0.2,0]}}"#).unwrap();
    let (answer, recording) = query::run_recorded(&q);
    let answer = answer.unwrap();
    let text = serde_json::to_string(&answer).unwrap();
    assert_eq!(
        serde_json::from_str::<query::Answer>(&text).unwrap(),
        answer
    );
    assert!(
        recording
            .events()
            .iter()
            .any(|e| matches!(e, cspace_recorder::Event::Triangle { .. }))
    );
    assert_eq!(query::run(&q).unwrap(), answer);
}

/// Every kind and algorithm records one query: its shapes as the query
/// gave them, first, and one answer. Validating an analytic sweep once
/// swept at the origin to ask whether it applied, which every such
/// recording showed as a phantom query before the real one (and `replay`
/// then took the fixture for edited).
#[test]
fn a_recording_holds_the_query_alone() {
    let runs = [
        ("distance", "gjk"),
        ("intersect", "gjk"),
        ("intersect", "mpr"),
        ("penetration", "epa"),
        ("penetration", "mpr"),
        ("signed_distance", "epa"),
        ("signed_distance", "mpr"),
        ("sweep", "raycast"),
        ("sweep", "ca"),
        ("sweep", "swept-mpr"),
        ("sweep", "analytic"),
    ];
    for (kind, algorithm) in runs {
        for precision in ["f64", "f32"] {
            let q = query::parse(&format!(
                r#"{{"query":"{kind}","algorithm":"{algorithm}","precision":"{precision}","a":{{"shape":{{"type":"sphere","radius":0.5}},"position":[10,20,-5]}},"b":{{"shape":{{"type":"sphere","radius":0.75}},"position":[12,19.2,-4.5]}},"translation":[4,-2,1]}}"#
            ))
            .unwrap();
            let (answer, recording) = query::run_recorded(&q);
            assert!(answer.is_ok(), "{kind} {algorithm} {precision}");
            let events = recording.events();
            let shapes: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    cspace_recorder::Event::Shapes { a, .. } => Some(a.position),
                    _ => None,
                })
                .collect();
            assert_eq!(
                shapes.first(),
                Some(&[10.0, 20.0, -5.0]),
                "{kind} {algorithm} {precision}"
            );
            let answers = events
                .iter()
                .filter(|e| matches!(e, cspace_recorder::Event::Answer { .. }))
                .count();
            assert_eq!(answers, 1, "{kind} {algorithm} {precision}");
        }
    }
}

/// A distance answer carries the normal; one written before the field
/// existed still reads (its normal absent).
#[test]
fn distance_answers_carry_the_normal_and_old_ones_still_read() {
    let q = query::parse(r#"{"id":"d","query":"distance","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[0,3,0]}}"#).unwrap();
    let answer = query::run(&q).unwrap();
    let mut json = serde_json::to_value(&answer).unwrap();
    assert_eq!(json["normal"], serde_json::json!([0.0, 1.0, 0.0]));
    json.as_object_mut().unwrap().remove("normal");
    let old: query::Answer = serde_json::from_value(json).unwrap();
    assert_ne!(old, answer);
    assert_eq!(old.algorithm, answer.algorithm);
}

// ----- property: no accepted query panics, returns NaN or loops ----------------

mod properties {
    use cspace::model::{self as query, Algorithm, Precision, Query, QueryKind};
    use cspace_recorder::{ShapeDecl, ShapeGeom};
    use proptest::prelude::*;

    fn arb_geom() -> impl Strategy<Value = ShapeGeom> {
        let size = prop_oneof![Just(0.0), 1e-3..3.0f64, Just(50.0)];
        let p = (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64).prop_map(|(x, y, z)| [x, y, z]);
        prop_oneof![
            size.clone().prop_map(|radius| ShapeGeom::Sphere { radius }),
            (size.clone(), size.clone(), size.clone()).prop_map(|(x, y, z)| ShapeGeom::Box {
                half_extents: [x, y, z]
            }),
            (size.clone(), size.clone()).prop_map(|(half_height, radius)| ShapeGeom::Capsule {
                half_height,
                radius
            }),
            (size.clone(), size.clone()).prop_map(|(half_height, radius)| ShapeGeom::Cylinder {
                half_height,
                radius
            }),
            (size.clone(), size).prop_map(|(half_height, radius)| ShapeGeom::Cone {
                half_height,
                radius
            }),
            prop::collection::vec(p, 1..7).prop_map(|points| ShapeGeom::Hull { points }),
            Just(ShapeGeom::Point),
        ]
    }

    fn arb_body() -> impl Strategy<Value = ShapeDecl> {
        let margin = prop_oneof![Just(0.0), 0.0..0.5f64];
        (
            arb_geom(),
            margin,
            (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64),
            (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
        )
            .prop_map(|(geom, margin, (x, y, z), (qx, qy, qz, qw))| {
                let n = (qx * qx + qy * qy + qz * qz + qw * qw).sqrt();
                let rotation = if n > 1e-3 {
                    [qx / n, qy / n, qz / n, qw / n]
                } else {
                    [0.0, 0.0, 0.0, 1.0]
                };
                ShapeDecl::new(geom)
                    .at([x, y, z], rotation)
                    .with_margin(margin)
            })
    }

    fn arb_query() -> impl Strategy<Value = Query> {
        let combos = prop_oneof![
            Just((QueryKind::Distance, Algorithm::Gjk)),
            Just((QueryKind::Intersect, Algorithm::Gjk)),
            Just((QueryKind::Intersect, Algorithm::Mpr)),
            Just((QueryKind::Penetration, Algorithm::Epa)),
            Just((QueryKind::Penetration, Algorithm::Mpr)),
            Just((QueryKind::Sweep, Algorithm::Ca)),
            Just((QueryKind::Sweep, Algorithm::Raycast)),
            Just((QueryKind::Sweep, Algorithm::SweptMpr)),
        ];
        let precision = prop_oneof![Just(Precision::F64), Just(Precision::F32)];
        let motion = prop_oneof![
            Just([0.0; 3]),
            (-8.0..8.0f64, -8.0..8.0f64, -8.0..8.0f64).prop_map(|(x, y, z)| [x, y, z])
        ];
        (combos, precision, arb_body(), arb_body(), motion).prop_map(
            |((query, alg), precision, a, b, t)| Query {
                id: None,
                query,
                precision,
                algorithm: Some(alg),
                a,
                b,
                translation: Some(t),
            },
        )
    }

    fn finite(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Null => false,
            serde_json::Value::Number(n) => n.as_f64().is_some_and(f64::is_finite),
            serde_json::Value::Array(a) => a.iter().all(finite),
            _ => true,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn accepted_queries_never_panic_nan_or_loop(q in arb_query()) {
            let answer = query::run(&q).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let v = serde_json::to_value(&answer).unwrap();
            for (k, x) in v.as_object().unwrap() {
                let missable = matches!(k.as_str(), "toi" | "normal" | "point") && v["hit"] == false;
                prop_assert!(missable || finite(x), "{k} = {x} in {v}");
            }
            prop_assert!(answer.iterations < 100_000, "{v}");
        }
    }
}
