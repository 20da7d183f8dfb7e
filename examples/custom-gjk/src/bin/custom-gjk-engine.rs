//! custom-gjk as a `cspace fuzz --engine` program: one query line in (the
//! `cspace eval` schema), one answer line out.
//!
//! ```text
//! cargo build -p custom-gjk --bin custom-gjk-engine
//! cspace fuzz --engine target/debug/custom-gjk-engine --kinds distance,intersect
//! ```
//!
//! It answers `distance` and `intersect` queries between points, boxes and
//! hulls without margins (`"ok": false` for anything else, which the fuzzer
//! counts as skipped). With `CSPACE_ENGINE_RECORD=DIR` set it records each
//! query into `DIR/<id>.cspace` and names it in `"recording"`.
//!
//! `--planted-bug` makes it wrong on purpose (the support of shape A ignores
//! its last vertex when it has more than four), for the test that shows the
//! fuzzer finds, shrinks and saves such a bug.

use custom_gjk::gjk;
use custom_gjk::vec3::V3;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

fn main() {
    let planted_bug = std::env::args().any(|a| a == "--planted-bug");
    let record_dir = std::env::var_os("CSPACE_ENGINE_RECORD").map(std::path::PathBuf::from);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let query: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let answer = answer(&query, planted_bug, record_dir.as_deref());
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}

fn answer(q: &Value, planted_bug: bool, record_dir: Option<&std::path::Path>) -> Value {
    let id = q.get("id").cloned().unwrap_or(Value::Null);
    let kind = q.get("query").and_then(Value::as_str).unwrap_or("");
    let (Some(a), Some(b)) = (vertices(&q["a"]), vertices(&q["b"])) else {
        return json!({"id": id, "ok": false, "error": "custom-gjk handles points, boxes and hulls without margins"});
    };
    if !matches!(kind, "distance" | "intersect") {
        return json!({"id": id, "ok": false, "error": format!("custom-gjk does not answer {kind} queries")});
    }
    let mut a = a;
    if planted_bug && a.len() > 4 {
        a.pop();
    }
    let run = || gjk::distance(&a, &b);
    let (d, recording) = match record_dir {
        Some(dir) => {
            let (d, rec) = cspace_recorder::record(run);
            let name = id.as_str().unwrap_or("query").replace(['/', '\\'], "_");
            let path = dir.join(format!("{name}.cspace"));
            (d, rec.save(&path).ok().map(|()| path))
        }
        None => (run(), None),
    };
    let p = |v: V3| [v.x, v.y, v.z];
    let mut out = json!({
        "id": id, "ok": true, "query": kind,
        "distance": d.distance, "point_a": p(d.point_a), "point_b": p(d.point_b),
        "bounds": [d.lower_bound, d.distance],
        "intersecting": d.distance == 0.0, "iterations": d.iterations,
    });
    if let Some(path) = recording {
        out["recording"] = json!(path);
    }
    out
}

/// The world-space vertices of a placed body, if custom-gjk handles its shape.
fn vertices(body: &Value) -> Option<Vec<V3>> {
    let shape = body.get("shape")?;
    if shape.get("margin").and_then(Value::as_f64).unwrap_or(0.0) != 0.0 {
        return None;
    }
    let triple = |v: &Value| -> Option<[f64; 3]> {
        let a = v.as_array()?;
        Some([
            a.first()?.as_f64()?,
            a.get(1)?.as_f64()?,
            a.get(2)?.as_f64()?,
        ])
    };
    let local: Vec<[f64; 3]> = match shape.get("type")?.as_str()? {
        "point" => vec![[0.0; 3]],
        "box" => {
            let h = triple(shape.get("half_extents")?)?;
            (0..8)
                .map(|i| {
                    let s = |bit: i32| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
                    [s(0) * h[0], s(1) * h[1], s(2) * h[2]]
                })
                .collect()
        }
        "hull" => shape
            .get("points")?
            .as_array()?
            .iter()
            .map(triple)
            .collect::<Option<_>>()?,
        "mesh" => shape
            .get("vertices")?
            .as_array()?
            .iter()
            .map(triple)
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let position = body.get("position").and_then(triple).unwrap_or([0.0; 3]);
    let r = body
        .get("rotation")
        .and_then(Value::as_array)
        .and_then(|r| r.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
        .unwrap_or_else(|| vec![0.0, 0.0, 0.0, 1.0]);
    if r.len() != 4 || local.is_empty() {
        return None;
    }
    let n = r.iter().map(|c| c * c).sum::<f64>().sqrt();
    let (x, y, z, w) = (r[0] / n, r[1] / n, r[2] / n, r[3] / n);
    Some(
        local
            .into_iter()
            .map(|p| {
                // v + 2w(u × v) + 2u × (u × v), u = (x, y, z)
                let u = V3::new(x, y, z);
                let v = V3::new(p[0], p[1], p[2]);
                let t = u.cross(v) * 2.0;
                v + t * w + u.cross(t) + V3::new(position[0], position[1], position[2])
            })
            .collect(),
    )
}
