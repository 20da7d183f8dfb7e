//! `cspace eval` end to end (the real binary).

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

fn eval(args: &[&str], input: &str) -> (Vec<Value>, String, bool) {
    eval_bytes(args, input.as_bytes())
}

fn eval_bytes(args: &[&str], input: &[u8]) -> (Vec<Value>, String, bool) {
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
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
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
        ("signed_distance", "epa"),
        ("signed_distance", "mpr"),
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
            "signed_distance" => {
                let d = o["distance"].as_f64().unwrap();
                assert!(
                    if id.ends_with("-3") {
                        d > 0.0
                    } else {
                        d <= 0.0
                    },
                    "{o}"
                );
                assert_eq!(o["intersecting"], !id.ends_with("-3"), "{o}");
                assert!(is_unit(&o["normal"]), "{o}");
                let [pa, pb, n] = ["point_a", "point_b", "normal"].map(|k| {
                    let v: Vec<f64> = o[k]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_f64().unwrap())
                        .collect();
                    v
                });
                for i in 0..3 {
                    assert!((pb[i] - pa[i] - d * n[i]).abs() < 1e-5, "{o}");
                }
                let b = o["bounds"].as_array().unwrap();
                let (lo, hi) = (b[0].as_f64().unwrap(), b[1].as_f64().unwrap());
                assert!(lo <= d + 1e-6 && d <= hi + 1e-6, "{o}");
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
fn scenes_beyond_the_direct_range_are_answered_scaled() {
    // Every number allowed alone; the scene as a whole below f32's direct
    // range (a sphere and a box of 1e-8), and a sweep above it.
    let input = concat!(
        r#"{"id":"small","query":"distance","precision":"f32","a":{"shape":{"type":"sphere","radius":1e-8}},"b":{"shape":{"type":"box","half_extents":[1e-8,1e-8,1e-8]},"position":[3e-8,0,0]}}"#,
        "\n",
        r#"{"id":"far","query":"sweep","precision":"f32","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[5e7,0,0]},"translation":[1e8,0,0]}"#,
        "\n",
    );
    let (out, stderr, ok) = eval(&[], input);
    assert!(ok, "{stderr}");
    assert_eq!(out[0]["ok"], true, "{}", out[0]);
    let d = out[0]["distance"].as_f64().unwrap();
    assert!((d / 1e-8 - 1.0).abs() < 1e-4, "{}", out[0]);
    assert_eq!(out[0]["status"], "converged", "{}", out[0]);
    assert_eq!(out[1]["ok"], true, "{}", out[1]);
    let toi = out[1]["toi"].as_f64().unwrap();
    assert!((toi - (5e7 - 2.0) / 1e8).abs() < 1e-6, "{}", out[1]);
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
    assert_eq!(out[0]["normal"], json!([1.0, 0.0, 0.0]));
    assert_eq!(out[1]["algorithm"], "epa");
    assert!((out[1]["depth"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    assert_eq!(out[1]["normal"], json!([1.0, 0.0, 0.0]));
    assert_eq!(out[2]["algorithm"], "raycast");
    assert!((out[2]["toi"].as_f64().unwrap() - 0.3).abs() < 1e-12);
    // The closed form's bracket is its rounding wide around the exact 0.4,
    // and a converged toi is its lower end (A never passes the contact).
    let bounds = out[3]["bounds"].as_array().unwrap().clone();
    let (lo, hi) = (bounds[0].as_f64().unwrap(), bounds[1].as_f64().unwrap());
    assert!(lo <= 0.4 && 0.4 <= hi && hi - lo < 1e-14, "{}", out[3]);
    assert_eq!(out[3]["toi"].as_f64(), Some(lo));
    assert_eq!(out[4]["hit"], false);
    assert_eq!(out[4]["toi"], Value::Null);
    assert_eq!(out[5]["algorithm"], "mpr");
    assert_eq!(out[5]["intersecting"], true);
}

#[test]
fn signed_distance_is_the_distance_or_minus_the_depth_and_reads_back() {
    let input = r#"{"id":"apart","query":"signed_distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"box","half_extents":[1,1,1]},"position":[2.5,0,0]}}
{"id":"deep","query":"signed_distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"box","half_extents":[1,1,1]},"position":[1.5,0,0]}}
{"id":"mpr","query":"signed_distance","algorithm":"mpr","precision":"f32","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"box","half_extents":[1,1,1]},"position":[1.5,0,0]}}
{"id":"gjk","query":"signed_distance","algorithm":"gjk","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1}}}
"#;
    let (out, _, _) = eval(&[], input);
    assert_eq!(out[0]["query"], "signed_distance");
    assert_eq!(out[0]["algorithm"], "epa");
    assert!(
        (out[0]["distance"].as_f64().unwrap() - 0.5).abs() < 1e-9,
        "{}",
        out[0]
    );
    assert_eq!(out[0]["intersecting"], false);
    assert!(
        (out[1]["distance"].as_f64().unwrap() + 0.5).abs() < 1e-9,
        "{}",
        out[1]
    );
    assert_eq!(out[1]["normal"], json!([1.0, 0.0, 0.0]));
    assert_eq!(out[1]["intersecting"], true);
    assert!(
        (out[2]["distance"].as_f64().unwrap() + 0.5).abs() < 1e-5,
        "{}",
        out[2]
    );
    assert_eq!(out[2]["precision"], "f32");
    assert_eq!(out[3]["ok"], false, "{}", out[3]);
    assert!(
        out[3]["error"]
            .as_str()
            .unwrap()
            .contains("signed_distance"),
        "{}",
        out[3]
    );
    // The answer reads back as the model's answer, unchanged.
    for o in &out[..3] {
        let mut o = o.clone();
        let m = o.as_object_mut().unwrap();
        m.remove("id");
        m.remove("ok");
        let a: cspace::model::Answer = serde_json::from_value(o.clone()).unwrap();
        assert_eq!(serde_json::to_value(&a).unwrap(), o);
    }
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
        (r#"{"id":"tiny","query":"distance","a":{"shape":{"type":"box","half_extents":[1e-200,1e-200,1e-200]}},"b":{"shape":{"type":"sphere","radius":1e-200},"position":[3e-200,0,0]}}"#.into(), "a.shape.half_extents[0] must be 0 or have magnitude ≥ 1e-100 in f64"),
        (r#"{"id":"tiny32","query":"distance","precision":"f32","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[3,1e-30,0]}}"#.into(), "b.position[1] must be 0 or have magnitude ≥ 1e-15 in f32"),
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

/// Two queries with the same id (or a query without id on line 3 and one
/// named `line3`, or ids differing only in case) keep both recordings, each
/// answer naming the file it wrote.
#[test]
fn recordings_with_the_same_name_are_all_kept() {
    let dir = std::env::temp_dir().join(format!("cspace-eval-dup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let q = |id: &str, x: f64| {
        let id = if id.is_empty() {
            String::new()
        } else {
            format!(r#""id":"{id}","#)
        };
        format!(
            r#"{{{id}"query":"distance","a":{{"shape":{{"type":"sphere","radius":1}}}},"b":{{"shape":{{"type":"sphere","radius":1}},"position":[{x},0,0]}}}}"#
        )
    };
    let input = [
        q("a", 3.0),
        q("a", 4.0),
        q("", 5.0),
        q("line3", 6.0),
        q("A", 7.0),
    ]
    .join("\n");
    let (out, _, ok) = eval(&["--record", dir.to_str().unwrap()], &input);
    assert!(ok && out.iter().all(|o| o["ok"] == true), "{out:?}");
    let names: Vec<&str> = out
        .iter()
        .map(|o| o["recording"].as_str().unwrap())
        .collect();
    let expected = ["a", "a~2", "line3", "line3~2", "A~3"].map(|n| dir.join(format!("{n}.cspace")));
    for (name, want) in names.iter().zip(&expected) {
        assert_eq!(std::path::Path::new(name), want.as_path());
    }
    // Each file holds its own query: the distance recorded is the answer's.
    for (o, path) in out.iter().zip(&expected) {
        let bytes = std::fs::read(path).unwrap();
        let decoded = cspace_recorder::decode(&bytes);
        assert!(decoded.error.is_none(), "{}", path.display());
        let distance = o["distance"].as_f64().unwrap();
        let says = decoded.events.iter().any(|l| {
            matches!(&l.event, cspace_recorder::Event::Text { text, .. } if text.contains(&format!("{distance}")))
        });
        assert!(
            says,
            "{} does not record distance {distance}",
            path.display()
        );
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

/// Every line gets exactly one answer with its id (or line number) and the
/// field named: a line that is not UTF-8 does not stop the run, and a number
/// beyond f64 keeps the line's id and names its field.
#[test]
fn every_line_is_answered_even_when_not_utf8_or_out_of_range() {
    let good = r#"{"id":"c","query":"distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1},"position":[3,0,0]}}"#;
    let huge = r#"{"id":"a","query":"distance","a":{"shape":{"type":"sphere","radius":1}},"b":{"shape":{"type":"sphere","radius":1e309},"position":[3,0,0]}}"#;
    let mut input = Vec::new();
    input.extend_from_slice(huge.as_bytes());
    input.extend_from_slice(b"\n\xff\xfe{\"id\":\"b\"}\n");
    input.extend_from_slice(good.as_bytes());
    input.push(b'\n');
    let (out, _, ok) = eval_bytes(&[], &input);
    assert!(ok);
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0]["id"], "a");
    assert_eq!(out[0]["ok"], false);
    let e = out[0]["error"].as_str().unwrap();
    assert!(e.contains("b.shape.radius") && e.contains("1e309"), "{e}");
    assert_eq!(out[1]["ok"], false);
    let e = out[1]["error"].as_str().unwrap();
    assert!(e.contains("line 2") && e.contains("UTF-8"), "{e}");
    assert_eq!(out[2]["id"], "c");
    assert_eq!(out[2]["ok"], true);
}

/// `eval --record` with an 800 000-point hull answers and writes a recording
/// the reader opens: the shapes event too large for a frame becomes a note.
#[test]
fn a_huge_hull_records_a_readable_stream() {
    let dir = std::env::temp_dir().join(format!("cspace-eval-huge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let points: Vec<[f64; 3]> = (0..800_000)
        .map(|i| {
            let t = f64::from(i) * 0.001;
            [t.cos(), t.sin(), (t * 0.37).sin()]
        })
        .collect();
    let line = json!({
        "id": "huge",
        "query": "distance",
        "a": {"shape": {"type": "hull", "points": points}},
        "b": {"shape": {"type": "sphere", "radius": 0.5}, "position": [4.0, 0.0, 0.0]},
    })
    .to_string();
    let (out, _, ok) = eval(&["--record", dir.to_str().unwrap()], &line);
    assert!(ok && out[0]["ok"] == true, "{out:?}");
    let bytes = std::fs::read(dir.join("huge.cspace")).unwrap();
    assert!(bytes.len() < 16 << 20, "{} bytes", bytes.len());
    let decoded = cspace_recorder::decode(&bytes);
    assert!(decoded.error.is_none(), "{:?}", decoded.error);
    assert!(decoded.events.iter().any(|l| matches!(
        &l.event,
        cspace_recorder::Event::Text { text, .. } if text.starts_with("shapes event left out")
    )));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A line longer than `--max-line` (`/dev/zero`, a runaway generator) is
/// answered with an error naming it and skipped without holding it in
/// memory; the next line is evaluated.
#[test]
fn a_line_over_the_limit_is_refused_and_skipped() {
    let mut input = vec![b'x'; 3 << 20];
    input.extend_from_slice(b"\n");
    input.extend_from_slice(
        br#"{"id":"after","query":"distance","a":{"shape":{"type":"sphere","radius":1},"position":[0,0,0],"rotation":[0,0,0,1]},"b":{"shape":{"type":"sphere","radius":1},"position":[3,0,0],"rotation":[0,0,0,1]}}"#,
    );
    input.extend_from_slice(b"\n");
    let (lines, _, ok) = eval_bytes(&["--max-line", "1048576"], &input);
    assert!(ok);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["ok"], false);
    let error = lines[0]["error"].as_str().unwrap();
    assert!(error.starts_with("line 1: longer than"), "{error}");
    assert_eq!(lines[1]["id"], "after");
    assert_eq!(lines[1]["distance"], 1.0);
}
