//! A fixture re-run with the current code ("does my fix work?"): the new
//! answer next to the stored one, whether the fixture's check passes now, and
//! the new recording to compare with the stored one.

use cspace::check;
use cspace::fixture::{self, Expect, Fixture};

/// The outcome of re-running a fixture's query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rerun {
    /// The answer now (as `cspace eval` prints it), or why there is none.
    pub answer: Result<String, String>,
    /// Whether the check passes now, and why not.
    pub check: Result<(), String>,
    /// Whether that is what the fixture expects (a regression passes, a known failure fails).
    pub as_expected: bool,
    /// The new recording's stream bytes.
    pub recording: Vec<u8>,
    /// Whether the new recording is bit-identical to the stored one.
    pub identical: bool,
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
            .map(|a| fixture::answer_json(&a).to_string())
            .map_err(|e| e.to_string());
        let identical = recording.bytes == fixture.recording_bytes();
        Self {
            answer,
            check,
            as_expected,
            recording: recording.bytes,
            identical,
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

/// The stored answer of `fixture` as one line (`(none)` when it had none).
#[must_use]
pub fn stored_answer(fixture: &Fixture) -> String {
    fixture
        .file
        .answer
        .as_ref()
        .map_or_else(|| "(none)".to_owned(), ToString::to_string)
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
        assert_ne!(stored_answer(&f), "(none)");
    }

    #[test]
    fn verdict_lines() {
        let mut r = Rerun {
            answer: Err("x".into()),
            check: Err("why".into()),
            as_expected: false,
            recording: Vec::new(),
            identical: false,
        };
        assert!(r.verdict(Expect::Pass).contains("why"));
        assert!(r.verdict(Expect::KnownFailure).starts_with("KNOWN"));
        r.check = Ok(());
        assert!(r.verdict(Expect::KnownFailure).starts_with("FIXED"));
    }
}
