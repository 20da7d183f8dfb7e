//! Fixture files for tests: temporary folders, a good sphere–sphere fixture
//! and one of each kind of bad one. Shared by the library's fixture tests and
//! the CLI's replay tests (`#[path]`), so each uses only some of it.
#![allow(dead_code)]

use cspace::check::Check;
use cspace::fixture::{self, Fixture};
use cspace::model::Query;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A fresh, empty folder under the system temp dir, unique per test and process.
pub fn temp_dir(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "cspace-fixtures-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

/// The names of the files below `dir`, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = files_in(dir)
        .iter()
        .map(|p| {
            p.file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Every file below `dir` (fixtures go into per-process run folders), sorted.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            files.extend(files_in(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

pub fn count_fixtures(dir: &Path) -> (usize, usize) {
    let names = names_in(dir);
    (
        names
            .iter()
            .filter(|n| n.ends_with(fixture::JSON_SUFFIX))
            .count(),
        names
            .iter()
            .filter(|n| n.ends_with(fixture::RECORDING_SUFFIX))
            .count(),
    )
}

pub fn sphere(radius: f64, position: [f64; 3]) -> Value {
    json!({"shape": {"type": "sphere", "radius": radius}, "position": position, "rotation": [0.0, 0.0, 0.0, 1.0]})
}

/// A sphere–sphere distance query in `precision`.
pub fn spheres(id: &str, ra: f64, pa: [f64; 3], rb: f64, pb: [f64; 3], precision: &str) -> Query {
    serde_json::from_value(json!({
        "id": id, "query": "distance", "precision": precision, "algorithm": "gjk",
        "a": sphere(ra, pa), "b": sphere(rb, pb),
    }))
    .expect("a valid query")
}

/// The exact distance between two spheres.
pub fn sphere_distance(ra: f64, pa: [f64; 3], rb: f64, pb: [f64; 3]) -> f64 {
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - ra - rb).max(0.0)
}

/// A fixture on disk whose check passes: sphere–sphere distance against the exact value.
pub fn good_fixture(dir: &Path, name: &str) -> PathBuf {
    let (pa, pb) = ([0.5, -1.0, 2.0], [3.5, 3.0, 2.0]);
    let query = spheres(name, 1.0, pa, 0.5, pb, "f64");
    let (result, recording) = fixture::run_recorded(&query);
    let answer = result.expect("no panic").expect("a valid query");
    let exact = sphere_distance(1.0, pa, 0.5, pb);
    let mut fx = Fixture::new(
        name,
        &query,
        None,
        vec![Check::Near {
            field: "distance".into(),
            value: exact,
            tol: 1e-9,
        }],
        Some(fixture::answer_json(&answer)),
        recording.bytes,
    );
    fx.save_in(dir).expect("save")
}

/// Copies the good fixture at `good` as `stem`, with its JSON text changed by `edit`.
pub fn bad_copy(good: &Path, stem: &str, edit: impl FnOnce(String) -> String) -> PathBuf {
    let dir = good.parent().expect("dir");
    let text = std::fs::read_to_string(good).expect("read");
    let json = dir.join(format!("{stem}{}", fixture::JSON_SUFFIX));
    std::fs::write(&json, edit(text)).expect("write json");
    let recording = Fixture::load(good).expect("good").recording;
    std::fs::write(
        dir.join(format!("{stem}{}", fixture::RECORDING_SUFFIX)),
        recording,
    )
    .expect("write recording");
    json
}

/// A folder holding one good fixture and one of each kind of bad one; returns
/// the folder and, per bad file, a phrase its error must contain.
pub fn bad_fixtures() -> (PathBuf, Vec<(PathBuf, &'static str)>) {
    let dir = temp_dir("bad");
    let good = good_fixture(&dir, "good");
    let corrupt = bad_copy(&good, "corrupt", |t| {
        t.replacen("\"name\"", "\"name\" \"", 1)
    });
    let truncated = bad_copy(&good, "truncated", |t| t[..t.len() / 2].to_owned());
    let newer = bad_copy(&good, "newer", |t| {
        t.replacen("\"version\": 1,", "\"version\": 99,", 1)
    });
    let invalid = bad_copy(&good, "invalid-shape", |t| {
        t.replacen("\"radius\": 1.0", "\"radius\": -1.0", 1)
    });
    let missing = bad_copy(&good, "missing-recording", |t| t);
    std::fs::remove_file(dir.join(format!("missing-recording{}", fixture::RECORDING_SUFFIX)))
        .expect("rm");
    let damaged = bad_copy(&good, "damaged-recording", |t| t);
    let rec = dir.join(format!("damaged-recording{}", fixture::RECORDING_SUFFIX));
    let bytes = std::fs::read(&rec).expect("read");
    std::fs::write(&rec, &bytes[..bytes.len() - 3]).expect("truncate recording");
    let misspelt = bad_copy(&good, "misspelt-checks", |t| {
        t.replacen("\"checks\"", "\"chekcs\"", 1)
    });
    let negative = bad_copy(&good, "negative-tol", |t| {
        t.replacen("\"tol\": 1e-9", "\"tol\": -1.0", 1)
    });
    let cases = vec![
        (corrupt, "corrupt JSON at line"),
        (truncated, "truncated JSON at line"),
        (newer, "format version 99 is newer"),
        (invalid, "radius"),
        (missing, "recording missing"),
        (damaged, "corrupt recording: truncated at byte"),
        (misspelt, "unknown field `chekcs`"),
        (negative, "checks[0].tol"),
    ];
    (dir, cases)
}

/// The name of a fixture's JSON file without its suffix.
pub fn fixture_stem(path: &Path) -> String {
    path.file_name()
        .expect("name")
        .to_string_lossy()
        .replace(fixture::JSON_SUFFIX, "")
}
