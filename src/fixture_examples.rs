//! The example fixtures checked in under `fixtures/examples/`, recorded from
//! the real algorithms by `cspace fixtures examples`.
//!
//! Each example is a `cspace eval` query. Its stored checks snapshot the
//! answer's scalars (distance, depth, time of impact within the issue's
//! accuracy bar; intersecting and hit exactly), so replay notices when an
//! algorithm's answer moves.

use crate::check::Check;
use crate::fixture::{self, Fixture, FixtureError, JSON_SUFFIX, RECORDING_SUFFIX};
use crate::query::Query;
use glam::{DQuat, DVec3};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The example names, in the order they are generated.
pub const NAMES: &[&str] = &[
    "gjk-rotated-boxes",
    "gjk-thin-box-capsule",
    "gjk-cylinder-cone",
    "gjk-grazing",
    "epa-deep-hulls",
    "epa-face-to-face",
    "mpr-penetration",
    "sweep-ca",
    "sweep-raycast",
    "sweep-swept-mpr",
    "sweep-analytic-sphere",
];

/// A unit quaternion `[x, y, z, w]` rotating by `degrees` about `axis`.
fn rot(axis: [f64; 3], degrees: f64) -> [f64; 4] {
    DQuat::from_axis_angle(DVec3::from_array(axis).normalize(), degrees.to_radians()).to_array()
}

const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

fn body(shape: &Value, position: [f64; 3], rotation: [f64; 4]) -> Value {
    json!({ "shape": shape, "position": position, "rotation": rotation })
}

/// The sweep pair every sweep method is shown on: a tumbling box flying past a capsule.
fn sweep_pair(algorithm: &str, name: &str) -> Value {
    json!({
        "id": name, "query": "sweep", "precision": "f64", "algorithm": algorithm,
        "a": body(&json!({"type": "box", "half_extents": [0.5, 0.3, 0.4]}), [-4.0, 0.6, 0.2], rot([1.0, 1.0, 0.0], 30.0)),
        "b": body(&json!({"type": "capsule", "half_height": 1.0, "radius": 0.5}), [0.0, 0.0, 0.0], rot([0.0, 0.0, 1.0], 20.0)),
        "translation": [8.0, -0.5, 0.1],
    })
}

/// The `cspace eval` line of example `name`, or `None` for an unknown name.
#[must_use]
pub fn line(name: &str) -> Option<Value> {
    let unit_box = json!({"type": "box", "half_extents": [1.0, 1.0, 1.0]});
    let line = match name {
        "gjk-rotated-boxes" => json!({
            "id": name, "query": "distance", "precision": "f64", "algorithm": "gjk",
            "a": body(&json!({"type": "box", "half_extents": [1.0, 0.5, 0.75]}), [0.0, 0.0, 0.0], rot([0.3, 1.0, 0.2], 35.0)),
            "b": body(&json!({"type": "box", "half_extents": [0.6, 0.6, 0.6]}), [2.9, 0.8, 0.4], rot([1.0, 0.2, 0.5], 50.0)),
        }),
        "gjk-thin-box-capsule" => json!({
            "id": name, "query": "distance", "precision": "f64", "algorithm": "gjk",
            "a": body(&json!({"type": "box", "half_extents": [50.0, 0.005, 0.005]}), [0.0, 0.0, 0.0], rot([0.0, 1.0, 0.0], 10.0)),
            "b": body(&json!({"type": "capsule", "half_height": 1.0, "radius": 0.25}), [12.0, 0.9, -1.8], rot([1.0, 0.0, 0.3], 70.0)),
        }),
        "gjk-cylinder-cone" => json!({
            "id": name, "query": "distance", "precision": "f64", "algorithm": "gjk",
            "a": body(&json!({"type": "cylinder", "half_height": 1.0, "radius": 0.5}), [0.0, 0.0, 0.0], IDENTITY),
            "b": body(&json!({"type": "cone", "half_height": 0.8, "radius": 0.6}), [1.6, 0.4, 0.2], rot([0.0, 0.0, 1.0], 80.0)),
        }),
        "gjk-grazing" => json!({
            "id": name, "query": "distance", "precision": "f64", "algorithm": "gjk",
            "a": body(&unit_box, [0.0, 0.0, 0.0], IDENTITY),
            "b": body(&json!({"type": "box", "half_extents": [0.5, 0.5, 0.5]}), [1.0 + 0.5 * std::f64::consts::SQRT_2, 0.3, 0.1], rot([0.0, 0.0, 1.0], 45.0)),
        }),
        // Hulls, not boxes: two boxes are answered by the separating axis test.
        "epa-deep-hulls" => json!({
            "id": name, "query": "penetration", "precision": "f64", "algorithm": "epa",
            "a": body(&json!({"type": "hull", "points": [
                [-1.0, -1.0, -1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0], [1.0, 1.0, -1.0],
                [-1.0, -1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, 1.0, 1.0],
                [0.0, 1.8, 0.0]]}), [0.0, 0.0, 0.0], rot([0.0, 1.0, 0.0], 15.0)),
            "b": body(&json!({"type": "hull", "points": [
                [-0.8, -0.8, -0.8], [0.8, -0.8, -0.8], [0.0, 0.8, -0.8],
                [-0.8, -0.8, 0.8], [0.8, -0.8, 0.8], [0.0, 0.8, 0.8]]}), [0.6, 0.35, 0.2], rot([1.0, 1.0, 1.0], 40.0)),
        }),
        "epa-face-to-face" => json!({
            "id": name, "query": "penetration", "precision": "f64", "algorithm": "epa",
            "a": body(&unit_box, [0.0, 0.0, 0.0], IDENTITY),
            "b": body(&unit_box, [1.8, 0.25, -0.3], IDENTITY),
        }),
        "mpr-penetration" => json!({
            "id": name, "query": "penetration", "precision": "f64", "algorithm": "mpr",
            "a": body(&json!({"type": "capsule", "half_height": 0.8, "radius": 0.4}), [0.0, 0.0, 0.0], rot([0.0, 0.0, 1.0], 60.0)),
            "b": body(&json!({"type": "box", "half_extents": [0.7, 0.5, 0.6]}), [0.9, 0.5, 0.1], rot([0.2, 1.0, 0.0], 25.0)),
        }),
        "sweep-ca" => sweep_pair("ca", name),
        "sweep-raycast" => sweep_pair("raycast", name),
        "sweep-swept-mpr" => sweep_pair("swept-mpr", name),
        "sweep-analytic-sphere" => json!({
            "id": name, "query": "sweep", "precision": "f64", "algorithm": "analytic",
            "a": body(&json!({"type": "sphere", "radius": 0.5}), [10.0, 20.0, -5.0], IDENTITY),
            "b": body(&json!({"type": "sphere", "radius": 0.75}), [12.0, 19.2, -4.5], IDENTITY),
            "translation": [4.0, -2.0, 1.0],
        }),
        _ => return None,
    };
    Some(line)
}

/// Checks pinning the answer's scalars: `distance` within 1e-9, `depth` within
/// 1e-6 and `toi` within 1e-7 (relative to 1 + |value|), `intersecting` and `hit` exactly.
#[must_use]
pub fn snapshot(answer: &Value) -> Vec<Check> {
    let mut checks = Vec::new();
    for (field, tol) in [("distance", 1e-9), ("depth", 1e-6), ("toi", 1e-7)] {
        if let Some(value) = answer.get(field).and_then(Value::as_f64) {
            checks.push(Check::Near {
                field: field.to_owned(),
                value,
                tol: tol * (1.0 + value.abs()),
            });
        }
    }
    for field in ["intersecting", "hit"] {
        if let Some(value) = answer.get(field).filter(|v| v.is_boolean()) {
            checks.push(Check::Equals {
                field: field.to_owned(),
                value: value.clone(),
            });
        }
    }
    checks
}

/// Why an example could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum ExampleError {
    /// The example's query does not parse (a bug in this module).
    #[error("example {name}: invalid query: {message}")]
    Query {
        /// The example.
        name: String,
        /// The parser's message.
        message: String,
    },
    /// The query errored or panicked (an algorithm is missing or broken).
    #[error("example {name}: {message}")]
    Run {
        /// The example.
        name: String,
        /// What happened.
        message: String,
    },
    /// Writing the fixture failed.
    #[error(transparent)]
    Write(#[from] FixtureError),
}

/// Runs example `name` with recording on and writes `dir/NAME.fixture.json`
/// and `dir/NAME.cspace`.
///
/// # Errors
/// The name is unknown, the query fails, or writing fails.
pub fn write_one(dir: &Path, name: &str) -> Result<PathBuf, ExampleError> {
    let line = line(name).ok_or_else(|| ExampleError::Query {
        name: name.to_owned(),
        message: "unknown example".to_owned(),
    })?;
    let query: Query = serde_json::from_value(line).map_err(|e| ExampleError::Query {
        name: name.to_owned(),
        message: e.to_string(),
    })?;
    let (result, recording) = fixture::run_recorded(&query);
    let answer = match result {
        Ok(Ok(answer)) => fixture::answer_json(&answer),
        Ok(Err(e)) => {
            return Err(ExampleError::Run {
                name: name.to_owned(),
                message: format!("query error: {e}"),
            });
        }
        Err(payload) => {
            return Err(ExampleError::Run {
                name: name.to_owned(),
                message: format!(
                    "query panicked: {}",
                    fixture::panic_message(payload.as_ref())
                ),
            });
        }
    };
    if let Err(e) = crate::check::sanity(&answer) {
        return Err(ExampleError::Run {
            name: name.to_owned(),
            message: format!("answer not sane: {e}"),
        });
    }
    let mut fx = Fixture::new(
        name,
        &query,
        None,
        snapshot(&answer),
        Some(answer),
        recording.bytes,
    );
    fx.path = dir.join(format!("{name}{JSON_SUFFIX}"));
    fx.file.recording.file = format!("{name}{RECORDING_SUFFIX}");
    fx.write()?;
    Ok(fx.path)
}

/// Writes every example into `dir`; one result per example, so one failing
/// algorithm does not stop the others.
#[must_use]
pub fn write_all(dir: &Path) -> Vec<Result<PathBuf, ExampleError>> {
    NAMES.iter().map(|name| write_one(dir, name)).collect()
}
