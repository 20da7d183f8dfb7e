//! A fixture re-run with the current code ("does my fix work?"): the new
//! answer next to the stored one, whether the fixture's check passes now, and
//! the new recording to compare with the stored one.

use cspace::check;
use cspace::fixture::{self, Expect, Fixture};

/// The outcome of re-running a fixture's query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rerun {
    /// The answer now (as `cspace eval` prints it), or why there is none.
    pub answer: Result<serde_json::Value, String>,
    /// Whether the check passes now, and why not.
    pub check: Result<(), String>,
    /// Whether that is what the fixture expects (a regression passes, a known failure fails).
    pub as_expected: bool,
    /// The new recording's stream bytes.
    pub recording: Vec<u8>,
    /// Whether the new recording is bit-identical to the stored one.
    pub identical: bool,
    /// Whether the stored recording shows other input than the fixture's
    /// query (edited after recording), so a difference is not nondeterminism.
    pub input_changed: bool,
}

impl Rerun {
    /// Re-runs `fixture`'s query with recording on (a panic in the query is caught).
    #[must_use]
    pub fn run(fixture: &Fixture) -> Self {
        let (result, recording) = fixture.rerun();
        let check = check::verdict(&result, &fixture.file.checks);
        let as_expected = match fixture.file.expect {
            Expect::Pass => check.is_ok(),
            Expect::KnownFailure => check.is_err(),
        };
        let answer = result
            .map(|a| fixture::answer_json(&a))
            .map_err(|e| e.to_string());
        let identical = recording.bytes == fixture.recording_bytes();
        let input_changed = !identical && fixture.recording_matches_query() == Some(false);
        Self {
            answer,
            check,
            as_expected,
            recording: recording.bytes,
            identical,
            input_changed,
        }
    }

    /// One line: does the check pass now, against the expectation.
    #[must_use]
    pub fn verdict(&self, expect: Expect) -> String {
        match (&self.check, expect) {
            (Ok(()), Expect::Pass) => "PASS: the check passes now".to_owned(),
            (Err(why), Expect::Pass) => format!("FAIL: the check still fails: {why}"),
            (Ok(()), Expect::KnownFailure) => {
                "FIXED: marked known failure but passes now; set \"expect\": \"pass\"".to_owned()
            }
            (Err(why), Expect::KnownFailure) => format!("KNOWN: still fails as marked: {why}"),
        }
    }
}

/// One field of an answer, stored and new, for the fixture panel's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerRow {
    /// The field, e.g. `distance`.
    pub field: String,
    /// Its stored value, readable (`—` when absent).
    pub stored: String,
    /// Its value in the re-run (`None` before a re-run).
    pub new: Option<String>,
    /// Whether the re-run's value differs from the stored one.
    pub differs: bool,
}

/// The stored answer of `fixture` and, once re-run, the new one, field by
/// field (the stored answer's order, then fields only the new one has).
#[must_use]
pub fn answer_rows(fixture: &Fixture, new: Option<&serde_json::Value>) -> Vec<AnswerRow> {
    let empty = serde_json::Map::new();
    let stored = fixture
        .file
        .answer
        .as_ref()
        .and_then(serde_json::Value::as_object)
        .unwrap_or(&empty);
    let new_obj = new.and_then(serde_json::Value::as_object);
    let mut fields: Vec<&String> = stored.keys().collect();
    if let Some(n) = new_obj {
        fields.extend(n.keys().filter(|k| !stored.contains_key(*k)));
    }
    fields
        .into_iter()
        .map(|field| {
            let old = stored.get(field);
            let now = new_obj.map(|n| n.get(field));
            AnswerRow {
                field: field.clone(),
                stored: old.map_or_else(|| "—".to_owned(), readable),
                new: now.map(|v| v.map_or_else(|| "—".to_owned(), readable)),
                differs: now.is_some_and(|v| v != old),
            }
        })
        .collect()
}

/// A JSON value for reading: numbers exactly (shortest round trip), vectors
/// as `(x, y, z)`, strings without quotes.
#[must_use]
pub fn readable(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => n
            .as_f64()
            .map_or_else(|| n.to_string(), |x| format!("{x:?}")),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(readable).collect();
            format!("({})", parts.join(", "))
        }
        serde_json::Value::Null => "null".to_owned(),
        other => other.to_string(),
    }
}

/// Each stored check of `fixture` with whether the re-run's answer meets it
/// (`None` before a re-run), and why not.
#[must_use]
pub fn check_rows(
    fixture: &Fixture,
    new: Option<&serde_json::Value>,
) -> Vec<(String, Option<Result<(), String>>)> {
    fixture
        .file
        .checks
        .iter()
        .map(|c| {
            let what = match c {
                check::Check::Near { field, value, tol } => {
                    format!("{field} = {value:?} ± {tol:?}")
                }
                check::Check::Equals { field, value } => format!("{field} = {value}"),
            };
            (what, new.map(|a| c.eval(a)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn example(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/examples")
            .join(format!("{name}.fixture.json"))
    }

    #[test]
    fn rerun_an_example_fixture() {
        let f = Fixture::load(&example("gjk-rotated-boxes")).expect("example loads");
        let r = Rerun::run(&f);
        assert!(r.answer.is_ok(), "{:?}", r.answer);
        assert_eq!(r.check, Ok(()), "examples pass");
        assert!(r.as_expected);
        assert!(r.verdict(f.file.expect).starts_with("PASS"));
        assert!(!r.recording.is_empty());
        if f.same_revision() {
            assert!(r.identical, "same revision: deterministic");
        }
        assert!(
            !answer_rows(&f, None).is_empty(),
            "the example stores its answer"
        );
    }

    #[test]
    fn verdict_lines() {
        let mut r = Rerun {
            answer: Err("x".into()),
            check: Err("why".into()),
            as_expected: false,
            recording: Vec::new(),
            identical: false,
            input_changed: false,
        };
        assert!(r.verdict(Expect::Pass).contains("why"));
        assert!(r.verdict(Expect::KnownFailure).starts_with("KNOWN"));
        r.check = Ok(());
        assert!(r.verdict(Expect::KnownFailure).starts_with("FIXED"));
    }

    #[test]
    fn answer_rows_read_field_by_field_and_flag_differences() {
        let f = Fixture::load(&example("gjk-grazing")).expect("example");
        let rows = answer_rows(&f, None);
        let distance = rows
            .iter()
            .find(|r| r.field == "distance")
            .expect("distance row");
        assert!(distance.new.is_none() && !distance.differs);
        assert!(!distance.stored.contains('"'), "{}", distance.stored);
        let point = rows
            .iter()
            .find(|r| r.field == "point_a")
            .expect("point row");
        assert!(
            point.stored.starts_with('(') && point.stored.ends_with(')'),
            "{}",
            point.stored
        );
        let iterations = rows
            .iter()
            .find(|r| r.field == "iterations")
            .expect("iterations row");
        assert!(!iterations.stored.contains('.'), "{}", iterations.stored);
        let mut new = f.file.answer.clone().expect("stored answer");
        new["distance"] = serde_json::json!(123.0);
        let rows = answer_rows(&f, Some(&new));
        let distance = rows
            .iter()
            .find(|r| r.field == "distance")
            .expect("distance row");
        assert_eq!(distance.new.as_deref(), Some("123.0"));
        assert!(distance.differs);
        assert!(
            rows.iter()
                .filter(|r| r.field != "distance")
                .all(|r| !r.differs)
        );
        let checks = check_rows(&f, Some(&new));
        assert!(!checks.is_empty());
        assert!(
            checks
                .iter()
                .any(|(what, r)| what.starts_with("distance") && matches!(r, Some(Err(_))))
        );
    }
}
