//! Test helpers that turn a failing query into a replayable fixture.
//!
//! ```
//! use cspace::check;
//! use cspace::query::{Body, ShapeSpec};
//!
//! let sphere = |radius, x| Body {
//!     shape: ShapeSpec::Sphere { radius, margin: None },
//!     position: [x, 0.0, 0.0],
//!     rotation: [0.0, 0.0, 0.0, 1.0],
//! };
//! // Two unit spheres 3 apart are 1 apart.
//! check::distance("doc_spheres", &sphere(1.0, 0.0), &sphere(1.0, 3.0), |answer| {
//!     check::near(answer, "distance", 1.0, 1e-9)
//! });
//! ```
//!
//! Each helper runs the query with recording on. When the query errors or
//! panics, its answer is not sane (see [`sanity`]), or the closure returns an
//! error or panics, the helper writes a fixture into [`fixture_dir`] and panics
//! with a message naming the fixture and the command that opens it in the viewer.
//!
//! # What replay checks
//! A test's closure is code and cannot be stored, so a fixture stores its
//! conditions as data: [`near`] and [`equals`] return a [`Failure`] holding the
//! failed [`Check`], which the fixture keeps. A fixture *passes* on replay when
//! the query returns an answer without error or panic, the answer is sane, and
//! every stored check holds. A free-form failure (`Err("…".into())`) is stored
//! as its message only; its replay checks the query and the answer's sanity.
//!
//! # Shrinking
//! A later failure of the same test on the same thread replaces the fixture of
//! the earlier one. proptest reports the last failing case, which after
//! shrinking is the minimal one, so a property test leaves exactly the minimal
//! case on disk.

use crate::fixture::{self, Fixture, FixtureError, RerunError, fixture_dir, panic_message};
use crate::query::{Answer, Body, Query};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A replayable condition on a query's answer (as `cspace eval` prints it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum Check {
    /// The numeric `field` is within `tol` of `value`.
    Near {
        /// Field path in the answer, e.g. `distance` or `normal[1]`.
        field: String,
        /// Wanted value.
        value: f64,
        /// Allowed absolute difference.
        tol: f64,
    },
    /// `field` equals `value` exactly (booleans such as `intersecting` or `hit`).
    Equals {
        /// Field path in the answer.
        field: String,
        /// Wanted value.
        value: serde_json::Value,
    },
}

impl Check {
    /// Whether the condition holds for `answer`.
    ///
    /// # Errors
    /// What differs, naming the field.
    pub fn eval(&self, answer: &serde_json::Value) -> Result<(), String> {
        match self {
            Self::Near { field, value, tol } => {
                let got = lookup(answer, field)
                    .ok_or_else(|| format!("answer has no field `{field}`"))?;
                let got = got
                    .as_f64()
                    .ok_or_else(|| format!("`{field}` is {got}, not a number"))?;
                let diff = (got - value).abs();
                if diff <= *tol {
                    Ok(())
                } else {
                    Err(format!(
                        "`{field}` is {got:?}, want {value:?} ± {tol:?} (off by {diff:?})"
                    ))
                }
            }
            Self::Equals { field, value } => {
                let got = lookup(answer, field)
                    .ok_or_else(|| format!("answer has no field `{field}`"))?;
                if got == value {
                    Ok(())
                } else {
                    Err(format!("`{field}` is {got}, want {value}"))
                }
            }
        }
    }
}

/// Why a test's check failed: a message and the replayable conditions that failed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// The failed conditions, stored in the fixture for replay.
    pub checks: Vec<Check>,
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self {
            message,
            checks: Vec::new(),
        }
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        message.to_owned().into()
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Looks up a field path (`distance`, `normal[1]`, `a.b[0]`) in an answer.
#[must_use]
pub fn lookup<'v>(answer: &'v serde_json::Value, path: &str) -> Option<&'v serde_json::Value> {
    let mut v = answer;
    for part in path.split('.') {
        let (key, indices) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            v = v.get(key)?;
        }
        for index in indices.split('[').filter(|s| !s.is_empty()) {
            v = v.get(index.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(v)
}

/// Checks that the numeric `field` of `answer` is within `tol` of `value`.
///
/// # Errors
/// A [`Failure`] holding the [`Check::Near`], so replay checks it again.
pub fn near(answer: &Answer, field: &str, value: f64, tol: f64) -> Result<(), Failure> {
    condition(
        answer,
        Check::Near {
            field: field.to_owned(),
            value,
            tol,
        },
    )
}

/// Checks that `field` of `answer` equals `value` (e.g. `equals(a, "intersecting", true)`).
///
/// # Errors
/// A [`Failure`] holding the [`Check::Equals`], so replay checks it again.
pub fn equals(
    answer: &Answer,
    field: &str,
    value: impl Into<serde_json::Value>,
) -> Result<(), Failure> {
    condition(
        answer,
        Check::Equals {
            field: field.to_owned(),
            value: value.into(),
        },
    )
}

fn condition(answer: &Answer, check: Check) -> Result<(), Failure> {
    check
        .eval(&fixture::answer_json(answer))
        .map_err(|message| Failure {
            message,
            checks: vec![check],
        })
}

/// Invariants every answer must satisfy, whatever the test: numbers finite,
/// `distance` and `depth` ≥ 0, `toi` in [0, 1], and `normal` of unit length
/// when there is a contact or hit (within 1e-4, loose enough for f32).
///
/// # Errors
/// The first violated invariant, naming the field.
pub fn sanity(answer: &serde_json::Value) -> Result<(), String> {
    fn finite(v: &serde_json::Value, path: &str) -> Result<(), String> {
        match v {
            serde_json::Value::Number(n) => match n.as_f64() {
                Some(x) if x.is_finite() => Ok(()),
                _ => Err(format!("`{path}` is not finite: {n}")),
            },
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, x)| finite(x, &format!("{path}[{i}]"))),
            serde_json::Value::Object(map) => map.iter().try_for_each(|(k, x)| {
                finite(
                    x,
                    &if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    },
                )
            }),
            _ => Ok(()),
        }
    }
    finite(answer, "")?;
    let num = |field: &str| lookup(answer, field).and_then(serde_json::Value::as_f64);
    for field in ["distance", "depth"] {
        if let Some(v) = num(field)
            && v < 0.0
        {
            return Err(format!("`{field}` is negative: {v:?}"));
        }
    }
    if let Some(t) = num("toi")
        && !(0.0..=1.0).contains(&t)
    {
        return Err(format!("`toi` is outside [0, 1]: {t:?}"));
    }
    let contact = num("depth").is_some_and(|d| d > 0.0)
        || lookup(answer, "hit") == Some(&serde_json::Value::Bool(true));
    if contact && let Some(normal) = lookup(answer, "normal").and_then(serde_json::Value::as_array)
    {
        let len2: f64 = normal
            .iter()
            .filter_map(serde_json::Value::as_f64)
            .map(|x| x * x)
            .sum();
        if (len2.sqrt() - 1.0).abs() > 1e-4 {
            return Err(format!("`normal` is not unit: length {:?}", len2.sqrt()));
        }
    }
    Ok(())
}

/// Whether a replayed query passes: it returned an answer, the answer is
/// [`sane`](sanity), and every stored check holds.
///
/// # Errors
/// The first reason it does not pass.
pub fn verdict(result: &Result<Answer, RerunError>, checks: &[Check]) -> Result<(), String> {
    let answer = result.as_ref().map_err(ToString::to_string)?;
    let json = fixture::answer_json(answer);
    sanity(&json).map_err(|e| format!("answer not sane: {e}"))?;
    checks.iter().try_for_each(|c| c.eval(&json))
}

/// A failed check, written as a fixture.
#[derive(Debug)]
pub struct Captured {
    /// The test name.
    pub name: String,
    /// Why the check failed.
    pub message: String,
    /// The fixture's JSON path, or why it could not be written.
    pub fixture: Result<PathBuf, FixtureError>,
}

impl fmt::Display for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "check `{}` failed: {}", self.name, self.message)?;
        match &self.fixture {
            Ok(path) => {
                writeln!(f, "fixture: {}", path.display())?;
                writeln!(f, "open it: {}", viewer_command(path))?;
                write!(
                    f,
                    "replay:  cargo run -p cspace -- replay {}",
                    path.display()
                )
            }
            Err(e) => write!(f, "the fixture could not be written: {e}"),
        }
    }
}

/// The exact command that opens the fixture at `path` in the viewer.
#[must_use]
pub fn viewer_command(path: &Path) -> String {
    format!("cargo run -p cspace-viewer -- {}", path.display())
}

/// The fixture each (thread, test name) wrote last in this process.
static LAST_WRITTEN: Mutex<Option<HashMap<(std::thread::ThreadId, String), PathBuf>>> =
    Mutex::new(None);

/// Saves `fixture` into `dir`, replacing the fixture this thread last wrote
/// for the same test (see "Shrinking" in the module docs).
fn save(mut fixture: Fixture, dir: &Path) -> Result<PathBuf, FixtureError> {
    let path = fixture.save_in(dir)?;
    let key = (std::thread::current().id(), fixture.file.name.clone());
    let previous = {
        let mut last = LAST_WRITTEN
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        last.get_or_insert_with(HashMap::new)
            .insert(key, path.clone())
    };
    if let Some(previous) = previous.filter(|p| *p != path)
        && let Ok((json, recording)) = fixture::fixture_paths(&previous)
    {
        // Best effort: the earlier case is superseded, not wrong to keep.
        let _ = std::fs::remove_file(json);
        let _ = std::fs::remove_file(recording);
    }
    Ok(path)
}

/// Runs `query` with recording on and checks its answer with `check`; on a
/// failure writes a fixture and returns it instead of panicking.
///
/// # Errors
/// The query errored or panicked, its answer is not sane, or `check` failed or
/// panicked: the [`Captured`] failure with the fixture written.
pub fn try_query(
    name: &str,
    query: &Query,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Result<Answer, Box<Captured>> {
    try_query_in(&fixture_dir(), name, query, check)
}

/// Like [`try_query`], writing a failure's fixture into `dir` instead of [`fixture_dir`].
///
/// # Errors
/// As [`try_query`].
pub fn try_query_in(
    dir: &Path,
    name: &str,
    query: &Query,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Result<Answer, Box<Captured>> {
    let (result, recording) = fixture::run_recorded(query);
    let outcome = match result {
        Err(payload) => Err((
            Failure::from(format!(
                "query panicked: {}",
                panic_message(payload.as_ref())
            )),
            None,
        )),
        Ok(Err(e)) => Err((Failure::from(format!("query error: {e}")), None)),
        Ok(Ok(answer)) => {
            let json = fixture::answer_json(&answer);
            let checked = sanity(&json)
                .map_err(|e| Failure::from(format!("answer not sane: {e}")))
                .and_then(
                    |()| match catch_unwind(AssertUnwindSafe(|| check(&answer))) {
                        Ok(r) => r,
                        Err(payload) => Err(Failure::from(format!(
                            "check panicked: {}",
                            panic_message(payload.as_ref())
                        ))),
                    },
                );
            match checked {
                Ok(()) => Ok(answer),
                Err(failure) => Err((failure, Some(json))),
            }
        }
    };
    outcome.map_err(|(failure, answer)| {
        let fixture = Fixture::new(
            name,
            query,
            Some(failure.message.clone()),
            failure.checks,
            answer,
            recording.bytes,
        );
        Box::new(Captured {
            name: name.to_owned(),
            message: failure.message,
            fixture: save(fixture, dir),
        })
    })
}

/// Like [`try_query`], but panics on failure with a message naming the fixture
/// and the viewer command. Returns the answer when the check passes.
pub fn query(
    name: &str,
    query: &Query,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Answer {
    match try_query(name, query, check) {
        Ok(answer) => answer,
        Err(captured) => panic!("{captured}"),
    }
}

/// The query of `kind` between `a` and `b` in f64 with the default algorithm
/// (`translation` for sweeps), as a `cspace eval` line would describe it.
///
/// # Panics
/// The bodies do not form a query (a bug in the calling test).
#[must_use]
pub fn build(kind: &str, name: &str, a: &Body, b: &Body, translation: Option<[f64; 3]>) -> Query {
    let mut line = serde_json::json!({ "id": name, "query": kind, "a": a, "b": b });
    if let Some(t) = translation {
        line["translation"] = serde_json::json!(t);
    }
    match serde_json::from_value(line) {
        Ok(q) => q,
        Err(e) => panic!("check `{name}`: not a {kind} query: {e}"),
    }
}

/// GJK distance between `a` and `b` (f64, default algorithm), checked by `check`.
/// For another precision or algorithm build the [`Query`] and call [`query`].
pub fn distance(
    name: &str,
    a: &Body,
    b: &Body,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Answer {
    query(name, &build("distance", name, a, b, None), check)
}

/// Boolean intersection of `a` and `b` (f64, default algorithm), checked by `check`.
pub fn intersect(
    name: &str,
    a: &Body,
    b: &Body,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Answer {
    query(name, &build("intersect", name, a, b, None), check)
}

/// Penetration of `a` and `b` (f64, default algorithm), checked by `check`.
pub fn penetration(
    name: &str,
    a: &Body,
    b: &Body,
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Answer {
    query(name, &build("penetration", name, a, b, None), check)
}

/// Sweep of `a` moved by `translation` against static `b` (f64, default algorithm),
/// checked by `check`.
pub fn sweep(
    name: &str,
    a: &Body,
    b: &Body,
    translation: [f64; 3],
    check: impl FnOnce(&Answer) -> Result<(), Failure>,
) -> Answer {
    query(name, &build("sweep", name, a, b, Some(translation)), check)
}
