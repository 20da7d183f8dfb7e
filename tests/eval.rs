//! `cspace eval` end to end (the real binary) and the query model.

use cspace::query::{self, Algorithm, Query, QueryKind};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

fn eval(args: &[&str], input: &str) -> (Vec<Value>, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("eval")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run cspace");
    // Feed stdin from another thread: the output may fill the pipe first.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad output line {l}: {e}")))
        .collect();
    (
        lines,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn shapes() -> Vec<Value> {
    vec![
        json!({"type":"sphere","radius":0.5}),
        json!({"type":"box","half_extents":[0.5,0.6,0.7]}),
        json!({"type":"capsule","half_height":0.4,"radius":0.3}),
        json!({"type":"cylinder","half_height":0.5,"radius":0.4}),
        json!({"type":"cone","half_height":0.5,"radius":0.4,"margin":0.05}),
        json!({"type":"hull","points":[[-0.4,-0.4,-0.4],[0.4,-0.4,-0.4],[-0.4,0.4,-0.4],[0.4,0.4,-0.4],[-0.4,-0.4,0.4],[0.4,-0.4,0.4],[-0.4,0.4,0.4],[0.4,0.4,0.4],[0.4,0.4,0.4]]}),
        json!({"type":"point","margin":0.2}),
    ]
}

fn combos() -> Vec<(&'static str, &'static str)> {
    vec![
        ("distance", "gjk"),
        ("intersect", "gjk"),
        ("intersect", "mpr"),
        ("penetration", "epa"),
        ("penetration", "mpr"),
        ("sweep", "ca"),
        ("sweep", "raycast"),
        ("sweep", "swept-mpr"),
    ]
}

fn is_unit(v: &Value) -> bool {
    let a: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    ((a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt() - 1.0).abs() < 1e-5
}

#[test]
fn every_shape_query_algorithm_and_precision() {
    let mut input = String::new();
    let mut n = 0;
    for (i, sa) in shapes().iter().enumerate() {
        for (j, sb) in shapes().iter().enumerate() {
            for (query, alg) in combos() {
                for precision in ["f64", "f32"] {
                    // Overlapping (x = 0.3) and apart (x = 3) placements.
                    for x in [0.3, 3.0] {
                        let q = json!({
                            "id": format!("{i}-{j}-{query}-{alg}-{precision}-{x}"),
                            "query": query, "algorithm": alg, "precision": precision,
                            "a": {"shape": sa, "position": [0, 0, 0], "rotation": [0, 0, 0, 1]},
                            "b": {"shape": sb, "position": [x, 0.1, 0], "rotation": [0, 0.6, 0, 0.8]},
                            "translation": [6, 0, 0],
                        });
                        input.push_str(&q.to_string());
                        input.push('\n');
                        n += 1;
                    }
                }
            }
        }
    }
    let (out, _, ok) = eval(&[], &input);
    assert!(ok);
    assert_eq!(out.len(), n);
    for o in &out {
        let id = o["id"].as_str().unwrap();
        assert_eq!(o["ok"], true, "{o}");
        assert!(o["iterations"].is_u64(), "{o}");
        assert!(o["status"].is_string(), "{o}");
        match o["query"].as_str().unwrap() {
            "distance" => {
                assert!(o["distance"].as_f64().unwrap() >= 0.0, "{o}");
                assert!(
                    o["point_a"].is_array()
                        && o["point_b"].is_array()
                        && o["intersecting"].is_boolean()
                );
                if id.ends_with("-3") {
                    assert_eq!(o["intersecting"], false, "{o}");
                }
            }
            "intersect" => assert_eq!(o["intersecting"], !id.ends_with("-3"), "{o}"),
            "penetration" => {
                assert!(o["depth"].as_f64().unwrap() >= 0.0, "{o}");
                assert!(is_unit(&o["normal"]), "{o}");
                assert_eq!(o["intersecting"], !id.ends_with("-3"), "{o}");
            }
            "sweep" => {
                assert_eq!(o["hit"], true, "{o}");
                let toi = o["toi"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&toi), "{o}");
                if id.ends_with("-0.3") {
                    assert_eq!(toi, 0.0, "{o}");
                }
                assert!(is_unit(&o["normal"]) && o["point"].is_array(), "{o}");
            }
            other => panic!("query {other}"),
        }
    }
}

#[test]
fn defaults_and_the_example_from_the_issue() {
    let input = r#"{"id":"c1","query":"distance","precision":"f64","algorithm":"gjk","a":{"shape":{"type":"box","half_extents":[1,2,3],"margin":0.1},"position":[0,0,0],"rotation":[0,0,0,1]},"b":{"shape":{"type":"sphere","radius":0.5},"position":[3,0,0],"rotation":[0,0,0,1]}}
{"id":"d","query":"penetration","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[1.5,0,0]}}
{"id":"s","query":"sweep","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[5,0,0]},"translation":[10,0,0]}
{"id":"an","query":"sweep","algorithm":"analytic","a":{"shape":{"type":"sphere","radius":1},"position":[-10,0,0]},"b":{"shape":{"type":"sphere","radius":1}},"translation":[20,0,0]}
{"id":"miss","query":"sweep","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[5,0,0]},"translation":[-10,0,0]}
{"id":"i","query":"intersect","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"cylinder","half_height":1,"radius":0.5},"position":[1.4,0,0]}}
"#;
    let (out, _, _) = eval(&["-"], input);
    assert!(
        (out[0]["distance"].as_f64().unwrap() - 1.4).abs() < 1e-12,
        "{}",
        out[0]
    );
    assert_eq!(out[0]["point_a"], json!([1.1, 0.0, 0.0]));
    assert_eq!(out[1]["algorithm"], "epa");
    assert!((out[1]["depth"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert_eq!(out[1]["normal"], json!([1.0, 0.0, 0.0]));
    assert_eq!(out[2]["algorithm"], "raycast");
    assert!((out[2]["toi"].as_f64().unwrap() - 0.3).abs() < 1e-12);
    assert_eq!(out[3]["toi"], 0.4);
    assert_eq!(out[4]["hit"], false);
    assert_eq!(out[4]["toi"], Value::Null);
    assert_eq!(out[5]["algorithm"], "mpr");
    assert_eq!(out[5]["intersecting"], true);
}

#[test]
fn bad_input_names_the_field_and_processing_continues() {
    let good = r#"{"id":"ok","query":"intersect","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#;
    let cases: Vec<(String, &str)> = vec![
        (r#"{"id":"u","query":"distance","a":{"shape":{"type":"blob","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape.type"),
        (r#"{"id":"n","query":"distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":-1}}}"#.into(), "b.shape.radius must be ≥ 0, got -1"),
        (r#"{"id":"nan","query":"distance","a":{"shape":{"type":"sphere","radius":NaN}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape.radius must be finite"),
        (r#"{"id":"inf","query":"distance","a":{"shape":{"type":"box","half_extents":[1,-Infinity,1]}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape.half_extents[1] must be finite"),
        (r#"{"id":"big","query":"distance","precision":"f32","a":{"shape":{"type":"sphere","radius":1e30}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape.radius must have magnitude"),
        (r#"{"id":"q0","query":"distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"rotation":[0,0,0,0]}}"#.into(), "b.rotation is not a unit quaternion (norm 0)"),
        (r#"{"id":"q2","query":"distance","a":{"shape":{"type":"sphere","radius":1},"rotation":[0,0,0,2]},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.rotation is not a unit quaternion (norm 2)"),
        (r#"{"id":"tr","query":"sweep","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "translation is required"),
        (r#"{"id":"alg","query":"distance","algorithm":"mpr","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "algorithm mpr is not valid for a distance query"),
        (r#"{"id":"an","query":"sweep","algorithm":"analytic","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"cone","half_height":1,"radius":1}},"translation":[1,0,0]}"#.into(), "needs a sphere or a point for b, got a cone"),
        (r#"{"id":"hull","query":"distance","a":{"shape":{"type":"hull","points":[]}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape.points must not be empty"),
        (r#"{"id":"typo","query":"distance","a":{"shape":{"type":"sphere","radius":1,"margn":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.shape: unknown field `margn`"),
        (r#"{"id":"kind","query":"volume","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "query: unknown variant `volume`"),
        (r#"{"id":"pos","query":"distance","a":{"shape":{"type":"sphere","radius":1},"position":[1,2]},"b":{"shape":{"type":"sphere","radius":1}}}"#.into(), "a.position"),
    ];
    let mut input = String::new();
    for (line, _) in &cases {
        input.push_str(line);
        input.push('\n');
        input.push_str(good);
        input.push('\n');
    }
    // Malformed JSON without an id: the error names the line.
    input.push_str("{\"query\":\"distance\",\n");
    input.push_str(good);
    input.push('\n');
    let (out, stderr, ok) = eval(&[], &input);
    assert!(ok, "bad queries are reported, not fatal");
    assert_eq!(out.len(), cases.len() * 2 + 2);
    for (k, (line, expected)) in cases.iter().enumerate() {
        let o = &out[2 * k];
        let id: Value =
            serde_json::from_str::<Value>(&line.replace("NaN", "0").replace("-Infinity", "0"))
                .unwrap()["id"]
                .clone();
        assert_eq!(o["id"], id, "{o}");
        assert_eq!(o["ok"], false, "{o}");
        let err = o["error"].as_str().unwrap();
        assert!(err.contains(expected), "expected {expected:?} in {err:?}");
        assert_eq!(out[2 * k + 1]["ok"], true, "processing continues after {o}");
    }
    let last_bad = &out[cases.len() * 2];
    assert_eq!(last_bad["id"], Value::Null);
    assert!(
        last_bad["error"]
            .as_str()
            .unwrap()
            .starts_with(&format!("line {}:", cases.len() * 2 + 1)),
        "{last_bad}"
    );
    assert!(stderr.contains("queries failed"));
}

#[test]
fn repeat_adds_the_mean_time() {
    let line = r#"{"id":"t","query":"distance","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[3,1,0]}}"#;
    let (out, _, _) = eval(&["--repeat", "50"], line);
    let t = out[0]["time_ns"].as_f64().unwrap();
    assert!(t > 0.0 && t < 1e8, "{}", out[0]);
    let (plain, _, _) = eval(&[], line);
    assert!(plain[0].get("time_ns").is_none());
    assert_eq!(plain[0]["distance"], out[0]["distance"]);
}

#[test]
fn record_writes_one_decodable_recording_per_query() {
    let dir = std::env::temp_dir().join(format!("cspace-eval-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let input = r#"{"id":"sweep-1","query":"sweep","algorithm":"swept-mpr","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[5,0,0]},"translation":[10,0,0]}
{"id":"mpr-1","query":"penetration","algorithm":"mpr","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[1.5,0,0]}}
{"query":"intersect","a":{"shape":{"type":"box","half_extents":[1,1,1]}},"b":{"shape":{"type":"sphere","radius":1},"position":[1.5,0,0]}}
"#;
    let (out, _, ok) = eval(&["--record", dir.to_str().unwrap(), "--repeat", "3"], input);
    assert!(ok && out.iter().all(|o| o["ok"] == true), "{out:?}");
    assert!(out.iter().all(|o| o["time_ns"].is_number()));
    for (name, label) in [
        ("sweep-1", "portal"),
        ("mpr-1", "portal"),
        ("line3", "shapes"),
    ] {
        let bytes = std::fs::read(dir.join(format!("{name}.cspace"))).unwrap();
        let decoded = cspace_recorder::decode(&bytes);
        assert!(decoded.error.is_none(), "{name}: {:?}", decoded.error);
        let events: Vec<_> = decoded.events.into_iter().map(|l| l.event).collect();
        assert!(
            events
                .iter()
                .any(|e| matches!(e, cspace_recorder::Event::Shapes { .. })),
            "{name}"
        );
        let has_label = events
            .iter()
            .any(|e| matches!(e, cspace_recorder::Event::Site(s) if s.label == label));
        assert!(has_label, "{name}: no {label} site");
        if name == "sweep-1" {
            let motion = events.iter().find_map(|e| match e {
                cspace_recorder::Event::Shapes { motion, .. } => *motion,
                _ => None,
            });
            assert_eq!(motion, Some([10.0, 0.0, 0.0]));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reads_a_file_argument() {
    let path = std::env::temp_dir().join(format!("cspace-eval-{}.jsonl", std::process::id()));
    std::fs::write(&path, "{\"id\":\"f\",\"query\":\"intersect\",\"a\":{\"shape\":{\"type\":\"point\"}},\"b\":{\"shape\":{\"type\":\"sphere\",\"radius\":1}}}\n\n").unwrap();
    let (out, _, ok) = eval(&[path.to_str().unwrap()], "");
    assert!(
        ok && out.len() == 1 && out[0]["intersecting"] == true,
        "{out:?}"
    );
    let _ = std::fs::remove_file(&path);
    let (_, stderr, ok) = eval(&["/nonexistent/queries.jsonl"], "");
    assert!(!ok && stderr.contains("/nonexistent/queries.jsonl"));
}

// ----- the query model ---------------------------------------------------------

#[test]
fn queries_round_trip_exactly() {
    let q = Query {
        id: Some("rt".into()),
        query: QueryKind::Sweep,
        precision: query::Precision::F32,
        algorithm: Some(Algorithm::SweptMpr),
        a: query::Body {
            shape: query::ShapeSpec::Hull {
                points: vec![[0.1, 0.2, 0.3], [1.0 / 3.0, 2e-300, -7.5e17]],
                margin: Some(0.1 + 0.2),
            },
            position: [std::f64::consts::PI, -0.0, 1e-17],
            rotation: [0.0, 0.0, 0.0, 1.0],
        },
        b: query::Body {
            shape: query::ShapeSpec::Point { margin: None },
            position: [0.0; 3],
            rotation: [0.6, 0.0, 0.0, 0.8],
        },
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

// ----- property: no accepted query panics, returns NaN or loops ----------------

mod properties {
    use cspace::query::{self, Algorithm, Body, Precision, Query, QueryKind, ShapeSpec};
    use proptest::prelude::*;

    fn arb_spec() -> impl Strategy<Value = ShapeSpec> {
        let size = prop_oneof![Just(0.0), 1e-3..3.0f64, Just(50.0)];
        let margin = prop_oneof![Just(None), (0.0..0.5f64).prop_map(Some)];
        let p = (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64).prop_map(|(x, y, z)| [x, y, z]);
        prop_oneof![
            (size.clone(), margin.clone())
                .prop_map(|(radius, margin)| ShapeSpec::Sphere { radius, margin }),
            (size.clone(), size.clone(), size.clone(), margin.clone()).prop_map(
                |(x, y, z, margin)| ShapeSpec::Box {
                    half_extents: [x, y, z],
                    margin
                }
            ),
            (size.clone(), size.clone(), margin.clone()).prop_map(
                |(half_height, radius, margin)| ShapeSpec::Capsule {
                    half_height,
                    radius,
                    margin
                }
            ),
            (size.clone(), size.clone(), margin.clone()).prop_map(
                |(half_height, radius, margin)| ShapeSpec::Cylinder {
                    half_height,
                    radius,
                    margin
                }
            ),
            (size.clone(), size, margin.clone()).prop_map(|(half_height, radius, margin)| {
                ShapeSpec::Cone {
                    half_height,
                    radius,
                    margin,
                }
            }),
            (prop::collection::vec(p, 1..7), margin.clone())
                .prop_map(|(points, margin)| ShapeSpec::Hull { points, margin }),
            margin.prop_map(|margin| ShapeSpec::Point { margin }),
        ]
    }

    fn arb_body() -> impl Strategy<Value = Body> {
        (
            arb_spec(),
            (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64),
            (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
        )
            .prop_map(|(shape, (x, y, z), (qx, qy, qz, qw))| {
                let n = (qx * qx + qy * qy + qz * qz + qw * qw).sqrt();
                let rotation = if n > 1e-3 {
                    [qx / n, qy / n, qz / n, qw / n]
                } else {
                    [0.0, 0.0, 0.0, 1.0]
                };
                Body {
                    shape,
                    position: [x, y, z],
                    rotation,
                }
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
