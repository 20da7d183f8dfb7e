//! Saving failures: a folder per failure holding the failing query as a
//! fixture (its exact input bits, its recording, the check that fails on
//! replay), the reference it was compared with as a second fixture (or, for
//! an engine, the engine's answer and recording), and `pair.json` naming
//! both recordings so the viewer opens them side by side.

use super::generate::Case;
use super::judge::Finding;
use cspace::check::Check;
use cspace::fixture::{self, Fixture, FixtureError, RECORDING_SUFFIX};
use cspace::model::{Algorithm, Query};
use std::path::{Path, PathBuf};

/// The file naming the two recordings of a saved failure.
pub const PAIR_FILE: &str = "pair.json";

/// Why a failure could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Writing a fixture failed.
    #[error(transparent)]
    Fixture(#[from] FixtureError),
    /// Creating the folder or writing a file failed.
    #[error("writing the failure: {0}")]
    Io(std::io::Error),
}

/// The folder of one failure: family, kind, check and case index.
fn folder(dir: &Path, prefix: &str, case: &Case, check: &str) -> Result<PathBuf, SaveError> {
    let name = format!(
        "{prefix}{}-{}-{check}-case{}",
        case.family.name(),
        case.query.query,
        case.index
    );
    let path = dir.join(fixture::slug(&name));
    std::fs::create_dir_all(&path).map_err(SaveError::Io)?;
    Ok(path)
}

/// Runs `query` recorded and saves it as a fixture in `folder`.
fn save_fixture(
    folder: &Path,
    name: &str,
    query: &Query,
    failure: Option<String>,
    checks: Vec<Check>,
) -> Result<PathBuf, SaveError> {
    let (result, recording) = fixture::run_recorded(query);
    let answer = match result {
        Ok(Ok(a)) => Some(fixture::answer_json(&a)),
        _ => None,
    };
    let mut f = Fixture::new(name, query, failure, checks, answer, recording.bytes);
    Ok(f.save_in(folder)?)
}

fn recording_of(json: &Path) -> PathBuf {
    let s = json.display().to_string();
    PathBuf::from(
        s.strip_suffix(fixture::JSON_SUFFIX)
            .map_or_else(|| s.clone(), |stem| format!("{stem}{RECORDING_SUFFIX}")),
    )
}

fn write_pair(folder: &Path, pair: &serde_json::Value) -> Result<(), SaveError> {
    let text = serde_json::to_string_pretty(pair).map_err(|e| SaveError::Io(e.into()))?;
    std::fs::write(folder.join(PAIR_FILE), text + "\n").map_err(SaveError::Io)
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Saves a failure of cspace's own algorithms; returns its folder.
///
/// # Errors
/// A file could not be written.
pub fn save_own(dir: &Path, case: &Case, finding: &Finding) -> Result<PathBuf, SaveError> {
    let folder = folder(dir, "", case, finding.check)?;
    let checks = finding
        .expect
        .iter()
        .map(|(field, value, tol)| {
            if value.is_boolean() {
                Check::Equals {
                    field: field.clone(),
                    value: value.clone(),
                }
            } else {
                Check::Near {
                    field: field.clone(),
                    value: value.as_f64().unwrap_or(f64::NAN),
                    tol: *tol,
                }
            }
        })
        .collect();
    let subject = save_fixture(
        &folder,
        &format!("fuzz {} subject", finding.check),
        &finding.subject,
        Some(finding.message.clone()),
        checks,
    )?;
    let reference = finding
        .reference
        .as_ref()
        .map(|r| {
            save_fixture(
                &folder,
                &format!("fuzz {} reference", finding.check),
                r,
                None,
                Vec::new(),
            )
        })
        .transpose()?;
    let (a, b) = (
        file_name(&recording_of(&subject)),
        reference.as_ref().map(|r| file_name(&recording_of(r))),
    );
    write_pair(
        &folder,
        &serde_json::json!({
            "check": finding.check,
            "message": finding.message,
            "case": case.index,
            "family": case.family.name(),
            "subject": a,
            "reference": b,
        }),
    )?;
    Ok(folder)
}

/// Saves an engine failure: the engine's answer (`engine.json`) and recording
/// (`engine.cspace`, when it gave one) beside cspace's reference fixture.
///
/// # Errors
/// A file could not be written.
pub fn save_engine(
    dir: &Path,
    case: &Case,
    check: &str,
    message: &str,
    answer: Option<&serde_json::Value>,
    recording: Option<&Path>,
) -> Result<PathBuf, SaveError> {
    let folder = folder(dir, "engine-", case, check)?;
    let mut reference_query = case.query.clone();
    reference_query.algorithm = Some(Algorithm::default_for(case.query.query));
    let reference = save_fixture(
        &folder,
        "fuzz engine reference",
        &reference_query,
        None,
        Vec::new(),
    )?;
    let engine_recording = match recording {
        Some(path) => {
            std::fs::copy(path, folder.join("engine.cspace")).map_err(SaveError::Io)?;
            Some("engine.cspace")
        }
        None => None,
    };
    let engine = serde_json::json!({
        "check": check,
        "message": message,
        "query": case.query,
        "answer": answer,
        "input_bits": fixture::input_bits(&case.query),
    });
    let text = serde_json::to_string_pretty(&engine).map_err(|e| SaveError::Io(e.into()))?;
    std::fs::write(folder.join("engine.json"), text + "\n").map_err(SaveError::Io)?;
    write_pair(
        &folder,
        &serde_json::json!({
            "check": check,
            "message": message,
            "case": case.index,
            "family": case.family.name(),
            "subject": engine_recording,
            "reference": file_name(&recording_of(&reference)),
        }),
    )?;
    Ok(folder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::generate::Family;
    use cspace::model::{Precision, QueryKind};
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    #[test]
    fn a_failure_is_saved_as_a_pair_whose_subject_fails_on_replay() {
        let dir = std::env::temp_dir().join(format!("cspace-fuzz-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let sphere = |x: f64| {
            ShapeDecl::new(ShapeGeom::Sphere { radius: 1.0 }).at([x, 0.0, 0.0], ShapeDecl::IDENTITY)
        };
        let query = Query {
            id: Some("case-3".into()),
            query: QueryKind::Distance,
            precision: Precision::F64,
            algorithm: Some(Algorithm::Gjk),
            a: sphere(0.0),
            b: sphere(3.0),
            translation: None,
        };
        let case = Case {
            index: 3,
            family: Family::Random,
            query: query.clone(),
        };
        let finding = Finding {
            check: "gjk-bracket",
            limit: false,
            message: "planted".into(),
            ratio: 2.0,
            subject: query.clone(),
            reference: Some(crate::fuzz::geom::swapped(&query)),
            // The distance is 1: a check for 2 fails on replay.
            expect: Some(("distance".into(), serde_json::json!(2.0), 1e-9)),
        };
        let folder = save_own(&dir, &case, &finding).unwrap();
        assert!(folder.ends_with("random-distance-gjk-bracket-case3"));
        let pair: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join(PAIR_FILE)).unwrap())
                .unwrap();
        for side in ["subject", "reference"] {
            let rec = folder.join(pair[side].as_str().unwrap());
            assert!(rec.is_file(), "{side}");
            let fixture = Fixture::load(&rec).unwrap();
            let replayed = cspace::fixture::replay::replay(fixture, false).unwrap();
            assert_eq!(
                replayed.ok(),
                side == "reference",
                "{side}: {}",
                replayed.line()
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
