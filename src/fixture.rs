//! Replayable fixtures: one query saved as a reviewable text file plus its recording.
//!
//! A fixture is two sibling files:
//! - `NAME.fixture.json`: pretty JSON holding the format [`version`](FixtureFile::version),
//!   the test name, the failure message, whether the case is a known failure,
//!   the replay [`Check`]s, the [`Query`] (the `cspace eval` input line, which
//!   carries the query kind, algorithm, options and precision), the exact bits
//!   of every input float, the answer when it was written, and the version of
//!   the code that wrote it;
//! - `NAME.cspace`: the recording, in the recorder's binary stream format.
//!
//! # Exact floats
//! `serde_json` prints the shortest decimal that parses back to the same `f64`
//! (the workspace enables `float_roundtrip` for parsing), and an `f32` widened
//! to `f64` is exact, so the decimals in the query are the inputs bit for bit.
//! [`FixtureFile::input_bits`] repeats every input float as hex bits in the
//! query's precision (16 hex digits for `f64`, 8 for `f32`) so a reviewer sees
//! the exact value, and [`Fixture::load`] rejects a file whose decimals and
//! bits disagree (delete the `input_bits` entry after editing a decimal by hand).
//!
//! # Code version
//! `written_by` holds the package version and [`ALGORITHM_REVISION`]: an FNV-1a
//! hash, computed at compile time, of the sources whose code runs inside a
//! recorded query (the algorithms, shapes, the query model, and the recorder).
//! A hash rather than a manual constant, because nobody remembers to bump a
//! constant when moving a macro line. A recording holds call-site line numbers, so any edit to
//! those files can change it; when the stored revision equals the current one,
//! replay demands a bit-identical recording (determinism), otherwise it reports
//! that the recording was not compared.
//!
//! # Names and folders
//! Fixtures are written atomically (temporary file + rename, the recording
//! first) under a content-derived name, [`file_stem`]: the test name plus a
//! hash of the test name and the query's exact JSON, so parallel threads and
//! processes never overwrite each other's cases and the same failure saved twice
//! is one file. New fixtures go to [`fixture_dir`] (`target/cspace-fixtures/`,
//! or `CSPACE_FIXTURE_DIR`); checked-in ones live in `fixtures/regressions/` and
//! `fixtures/examples/`.

use crate::check::Check;
use crate::query::{self, Answer, Query, QueryError};
use cspace_recorder::{DecodeError, Recording};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// The newest fixture format version this code reads, and the one it writes.
pub const FORMAT_VERSION: u32 = 1;

/// File name ending of a fixture's JSON part.
pub const JSON_SUFFIX: &str = ".fixture.json";

/// File name ending of a fixture's recording.
pub const RECORDING_SUFFIX: &str = ".cspace";

/// The environment variable that overrides [`fixture_dir`].
pub const DIR_ENV: &str = "CSPACE_FIXTURE_DIR";

/// The sources whose code runs inside a recorded query; [`ALGORITHM_REVISION`] hashes them.
const ALGORITHM_SOURCES: &[&str] = &[
    include_str!("real.rs"),
    include_str!("shape.rs"),
    include_str!("simplex.rs"),
    include_str!("gjk.rs"),
    include_str!("mpr.rs"),
    include_str!("epa.rs"),
    include_str!("sweep.rs"),
    include_str!("query.rs"),
    include_str!("../recorder/src/lib.rs"),
    include_str!("../recorder/src/decl.rs"),
    include_str!("../recorder/src/event.rs"),
    include_str!("../recorder/src/macros.rs"),
    include_str!("../recorder/src/record.rs"),
    include_str!("../recorder/src/stream.rs"),
];

/// FNV-1a hash (64 bit) of `bytes`, usable in constants.
#[must_use]
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_from(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a hash (64 bit) continuing from `hash`.
const fn fnv1a64_from(mut hash: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

const fn hash_sources(sources: &[&str]) -> u64 {
    let mut hash = fnv1a64(b"cspace algorithm sources");
    let mut i = 0;
    while i < sources.len() {
        hash = fnv1a64_from(hash, sources[i].as_bytes());
        // A separator, so moving text between files changes the hash.
        hash = fnv1a64_from(hash, &[0xff]);
        i += 1;
    }
    hash
}

/// Hash of the algorithm sources this binary was built from (see the module docs).
pub const ALGORITHM_REVISION: u64 = hash_sources(ALGORITHM_SOURCES);

/// [`ALGORITHM_REVISION`] as written in fixtures: 16 hex digits.
#[must_use]
pub fn algorithm_revision() -> String {
    format!("{ALGORITHM_REVISION:016x}")
}

/// Whether replay expects the fixture's check to pass or to keep failing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    /// A regression: the check must pass.
    #[default]
    Pass,
    /// A known failure: the check must still fail; when it passes, remove the mark.
    KnownFailure,
}

/// The code that wrote a fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenBy {
    /// `cspace` package version.
    pub cspace: String,
    /// [`algorithm_revision`] of the writer.
    pub algorithm_revision: String,
}

impl WrittenBy {
    /// This build.
    #[must_use]
    pub fn current() -> Self {
        Self {
            cspace: env!("CARGO_PKG_VERSION").to_owned(),
            algorithm_revision: algorithm_revision(),
        }
    }
}

/// What the JSON part says about the recording beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordingInfo {
    /// The recording's file name, in the fixture's folder.
    pub file: String,
    /// Its length in bytes.
    pub len: u64,
    /// [`fnv1a64`] of its bytes, 16 hex digits.
    pub fnv1a64: String,
}

impl RecordingInfo {
    /// The description of `bytes` stored as `file`.
    #[must_use]
    pub fn of(file: &str, bytes: &[u8]) -> Self {
        Self {
            file: file.to_owned(),
            len: bytes.len() as u64,
            fnv1a64: format!("{:016x}", fnv1a64(bytes)),
        }
    }
}

/// The JSON part of a fixture, field by field in file order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixtureFile {
    /// Format version ([`FORMAT_VERSION`] when written by this code).
    pub version: u32,
    /// The name of the test (or example) that wrote the fixture.
    pub name: String,
    /// Whether the check must pass or must keep failing.
    #[serde(default)]
    pub expect: Expect,
    /// Why the test failed when the fixture was written (`None` for examples).
    pub failure: Option<String>,
    /// What replay checks on the re-run answer, besides the query succeeding
    /// with a sane answer (see [`crate::check`]).
    #[serde(default)]
    pub checks: Vec<Check>,
    /// The query: kind, algorithm, options, precision, shapes and poses.
    pub query: Query,
    /// Every input float of `query` as hex bits in the query's precision, by field path.
    #[serde(default)]
    pub input_bits: BTreeMap<String, String>,
    /// The answer when the fixture was written (as `cspace eval` prints it), if
    /// the query returned one.
    #[serde(default)]
    pub answer: Option<serde_json::Value>,
    /// The recording beside this file.
    pub recording: RecordingInfo,
    /// The code that wrote the fixture.
    pub written_by: WrittenBy,
}

/// A fixture: its JSON part, loaded and checked, and its recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Fixture {
    /// Path of the `.fixture.json` file.
    pub path: PathBuf,
    /// The JSON part.
    pub file: FixtureFile,
    /// The recording's stream bytes.
    pub recording: Vec<u8>,
}

/// Why a fixture could not be loaded or written. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// The path names neither a `.fixture.json` nor a `.cspace` file.
    #[error("{}: not a fixture (expected a NAME{JSON_SUFFIX} or NAME{RECORDING_SUFFIX} file)", path.display())]
    NotAFixture {
        /// The path given.
        path: PathBuf,
    },
    /// The JSON part could not be read.
    #[error("{}: cannot read fixture: {source}", path.display())]
    Read {
        /// The JSON file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The JSON part is not valid JSON, ends early, or does not describe a fixture.
    #[error("{}: {problem} at line {line}, column {column}: {message}", path.display())]
    Json {
        /// The JSON file.
        path: PathBuf,
        /// "truncated JSON", "corrupt JSON" or "invalid fixture".
        problem: &'static str,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser reported.
        message: String,
    },
    /// The file was written by a newer fixture format.
    #[error("{}: fixture format version {found} is newer than this cspace reads (up to {supported}); update cspace", path.display())]
    NewerVersion {
        /// The JSON file.
        path: PathBuf,
        /// The version in the file.
        found: u64,
        /// [`FORMAT_VERSION`].
        supported: u32,
    },
    /// A field holds a value the query model rejects (e.g. a negative radius).
    #[error("{}: invalid field `{field}`: {message}", path.display())]
    Invalid {
        /// The JSON file.
        path: PathBuf,
        /// The field path, e.g. `query.a.shape.radius`.
        field: String,
        /// Why it is invalid.
        message: String,
    },
    /// A decimal in the query does not have the bits stored for it.
    #[error("{}: field `{field}` reads as bits {decimal_bits} but input_bits stores {stored}; the decimal was edited (remove its input_bits entry to accept it)", path.display())]
    BitsMismatch {
        /// The JSON file.
        path: PathBuf,
        /// The field path, e.g. `query.a.position[0]`.
        field: String,
        /// The bits of the decimal, or "absent".
        decimal_bits: String,
        /// The stored bits.
        stored: String,
    },
    /// The recording beside the JSON part is missing or unreadable.
    #[error("{}: recording missing or unreadable: {source}", path.display())]
    RecordingMissing {
        /// The recording file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The recording is not a complete, valid stream.
    #[error("{}: corrupt recording: {source}", path.display())]
    RecordingCorrupt {
        /// The recording file.
        path: PathBuf,
        /// The decoder's error, naming the byte offset.
        source: DecodeError,
    },
    /// The recording decodes but is not the one the JSON part describes.
    #[error("{}: recording is {found_len} bytes with hash {found_hash}, but the fixture describes {len} bytes with hash {hash}", path.display())]
    RecordingMismatch {
        /// The recording file.
        path: PathBuf,
        /// Length the JSON part states.
        len: u64,
        /// Hash the JSON part states.
        hash: String,
        /// Actual length.
        found_len: u64,
        /// Actual hash.
        found_hash: String,
    },
    /// Writing a file failed.
    #[error("{}: cannot write fixture: {source}", path.display())]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

impl FixtureError {
    /// The file the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::NotAFixture { path }
            | Self::Read { path, .. }
            | Self::Json { path, .. }
            | Self::NewerVersion { path, .. }
            | Self::Invalid { path, .. }
            | Self::BitsMismatch { path, .. }
            | Self::RecordingMissing { path, .. }
            | Self::RecordingCorrupt { path, .. }
            | Self::RecordingMismatch { path, .. }
            | Self::Write { path, .. } => path,
        }
    }
}

/// The `(json, recording)` paths of the fixture that `path` names: either part works.
///
/// # Errors
/// [`FixtureError::NotAFixture`] when the name ends in neither suffix.
pub fn fixture_paths(path: &Path) -> Result<(PathBuf, PathBuf), FixtureError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(JSON_SUFFIX)
        .or_else(|| name.strip_suffix(RECORDING_SUFFIX))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| FixtureError::NotAFixture {
            path: path.to_path_buf(),
        })?;
    Ok((
        path.with_file_name(format!("{stem}{JSON_SUFFIX}")),
        path.with_file_name(format!("{stem}{RECORDING_SUFFIX}")),
    ))
}

fn json_error(path: &Path, e: &serde_json::Error) -> FixtureError {
    let problem = match e.classify() {
        serde_json::error::Category::Eof => "truncated JSON",
        serde_json::error::Category::Syntax | serde_json::error::Category::Io => "corrupt JSON",
        serde_json::error::Category::Data => "invalid fixture",
    };
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m)
        .to_owned();
    FixtureError::Json {
        path: path.to_path_buf(),
        problem,
        line: e.line(),
        column: e.column(),
        message,
    }
}

/// The field path a query error is about (`a.shape.radius`, `translation`, …).
#[must_use]
pub fn query_error_field(e: &QueryError) -> String {
    // The catch-all keeps this compiling when the query model gains an error.
    #[allow(unreachable_patterns)]
    match e {
        QueryError::Negative { path, .. }
        | QueryError::NotFinite { path, .. }
        | QueryError::TooLarge { path, .. }
        | QueryError::EmptyHull { path }
        | QueryError::NotUnit { path, .. }
        | QueryError::Parse { path, .. } => path.clone(),
        QueryError::MissingTranslation => "translation".to_owned(),
        QueryError::AlgorithmNotValid { .. } | QueryError::Sweep(_) => "algorithm".to_owned(),
        _ => "query".to_owned(),
    }
}

fn invalid_query(path: PathBuf, e: &QueryError) -> FixtureError {
    FixtureError::Invalid {
        path,
        field: format!("query.{}", query_error_field(e)),
        message: e.to_string(),
    }
}

/// Every float of `query`, in its precision, as hex bits keyed by field path
/// (`query.a.position[0]`). Integers (counts, options) are not floats and are skipped.
#[must_use]
pub fn input_bits(query: &Query) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let value = serde_json::to_value(query).unwrap_or(serde_json::Value::Null);
    let f32_precision = value.get("precision").and_then(serde_json::Value::as_str) == Some("f32");
    collect_bits(&value, "query", f32_precision, &mut out);
    out
}

fn collect_bits(
    value: &serde_json::Value,
    path: &str,
    f32_precision: bool,
    out: &mut BTreeMap<String, String>,
) {
    match value {
        serde_json::Value::Number(n) if n.is_f64() => {
            let v = n.as_f64().unwrap_or(f64::NAN);
            let bits = if f32_precision {
                #[expect(clippy::cast_possible_truncation, reason = "the query runs in f32")]
                let narrow = v as f32;
                format!("0x{:08x}", narrow.to_bits())
            } else {
                format!("0x{:016x}", v.to_bits())
            };
            out.insert(path.to_owned(), bits);
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                collect_bits(item, &format!("{path}[{i}]"), f32_precision, out);
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                collect_bits(item, &format!("{path}.{key}"), f32_precision, out);
            }
        }
        _ => {}
    }
}

/// A file-name-safe form of a test name: ASCII letters, digits, `-` and `_`, at most 60.
#[must_use]
pub fn slug(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    if s.is_empty() {
        s.push_str("fixture");
    }
    s
}

/// The content-derived file stem of a fixture: `slug(name)-HASH`, where HASH
/// covers the test name and the query's exact JSON (shortest round-trip floats).
#[must_use]
pub fn file_stem(name: &str, query: &Query) -> String {
    let json = serde_json::to_string(query).unwrap_or_default();
    let mut key = Vec::with_capacity(name.len() + 1 + json.len());
    key.extend_from_slice(name.as_bytes());
    key.push(0);
    key.extend_from_slice(json.as_bytes());
    format!("{}-{:016x}", slug(name), fnv1a64(&key))
}

/// The workspace root: the nearest folder at or above the running package's
/// manifest folder (`CARGO_MANIFEST_DIR` at run time, else at build time)
/// whose `Cargo.toml` declares `[workspace]`.
#[must_use]
pub fn workspace_root() -> PathBuf {
    let start = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    start
        .ancestors()
        .find(|dir| {
            std::fs::read_to_string(dir.join("Cargo.toml"))
                .is_ok_and(|toml| toml.lines().any(|l| l.trim() == "[workspace]"))
        })
        .map_or(start.clone(), Path::to_path_buf)
}

/// Where new fixtures are written: `CSPACE_FIXTURE_DIR` if set, else
/// `cspace-fixtures/` in `CARGO_TARGET_DIR` if set, else `target/cspace-fixtures/`
/// in the [`workspace_root`].
#[must_use]
pub fn fixture_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(DIR_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| workspace_root().join("target"), PathBuf::from);
    target.join("cspace-fixtures")
}

/// The checked-in folder of regression fixtures, `fixtures/regressions/`.
#[must_use]
pub fn regressions_dir() -> PathBuf {
    workspace_root().join("fixtures").join("regressions")
}

/// The checked-in folder of example fixtures, `fixtures/examples/`.
#[must_use]
pub fn examples_dir() -> PathBuf {
    workspace_root().join("fixtures").join("examples")
}

/// A query's answer as `cspace eval` prints it (plain JSON), for storing and checking.
#[must_use]
pub fn answer_json(answer: &Answer) -> serde_json::Value {
    serde_json::to_value(answer).unwrap_or(serde_json::Value::Null)
}

/// Runs `query` with recording on, catching a panic; the recording is kept up
/// to the panic. Capture and replay both run queries through this, so their
/// recordings are comparable bit for bit.
pub fn run_recorded(query: &Query) -> (std::thread::Result<Result<Answer, QueryError>>, Recording) {
    cspace_recorder::record_catching(|| query::run(query))
}

/// The text of a panic payload.
#[must_use]
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-text payload".to_owned())
}

impl Fixture {
    /// A fixture for `query` run by test `name`, to be written with [`Fixture::save_in`].
    #[must_use]
    pub fn new(
        name: &str,
        query: &Query,
        failure: Option<String>,
        checks: Vec<Check>,
        answer: Option<serde_json::Value>,
        recording: Vec<u8>,
    ) -> Self {
        let stem = file_stem(name, query);
        let rec_file = format!("{stem}{RECORDING_SUFFIX}");
        Self {
            path: PathBuf::from(format!("{stem}{JSON_SUFFIX}")),
            file: FixtureFile {
                version: FORMAT_VERSION,
                name: name.to_owned(),
                expect: Expect::Pass,
                failure,
                checks,
                query: query.clone(),
                input_bits: input_bits(query),
                answer,
                recording: RecordingInfo::of(&rec_file, &recording),
                written_by: WrittenBy::current(),
            },
            recording,
        }
    }

    /// Loads the fixture that `path` names: its `.fixture.json` or its `.cspace`.
    ///
    /// Checks, in order: the JSON parses (line and column otherwise), its format
    /// version is not newer than [`FORMAT_VERSION`], it describes a fixture, the
    /// query is valid (the field otherwise), the decimals have their stored bits,
    /// and the recording exists, decodes completely (the byte offset otherwise)
    /// and is the one the JSON part describes.
    ///
    /// # Errors
    /// The first problem found, naming the file.
    pub fn load(path: &Path) -> Result<Self, FixtureError> {
        let (json_path, rec_path) = fixture_paths(path)?;
        let text = std::fs::read_to_string(&json_path).map_err(|source| FixtureError::Read {
            path: json_path.clone(),
            source,
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| json_error(&json_path, &e))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(found) if found > u64::from(FORMAT_VERSION) => {
                return Err(FixtureError::NewerVersion {
                    path: json_path,
                    found,
                    supported: FORMAT_VERSION,
                });
            }
            Some(_) => {}
            None => {
                return Err(FixtureError::Invalid {
                    path: json_path,
                    field: "version".to_owned(),
                    message: "missing or not a whole number".to_owned(),
                });
            }
        }
        let file: FixtureFile = match serde_json::from_str(&text) {
            Ok(file) => file,
            Err(e) => {
                // Name the query's offending field when the query is what is wrong.
                if let Some(Err(q)) = value.get("query").map(query::from_value) {
                    return Err(invalid_query(json_path, &q));
                }
                return Err(json_error(&json_path, &e));
            }
        };
        if let Err(e) = file.query.validate() {
            return Err(invalid_query(json_path, &e));
        }
        let bits = input_bits(&file.query);
        for (field, stored) in &file.input_bits {
            let decimal = bits.get(field);
            if decimal != Some(stored) {
                return Err(FixtureError::BitsMismatch {
                    path: json_path,
                    field: field.clone(),
                    decimal_bits: decimal.cloned().unwrap_or_else(|| "absent".to_owned()),
                    stored: stored.clone(),
                });
            }
        }
        let recording =
            std::fs::read(&rec_path).map_err(|source| FixtureError::RecordingMissing {
                path: rec_path.clone(),
                source,
            })?;
        if let Some(source) = cspace_recorder::decode(&recording).error {
            return Err(FixtureError::RecordingCorrupt {
                path: rec_path,
                source,
            });
        }
        let found = RecordingInfo::of(&file.recording.file, &recording);
        if found != file.recording {
            return Err(FixtureError::RecordingMismatch {
                path: rec_path,
                len: file.recording.len,
                hash: file.recording.fnv1a64.clone(),
                found_len: found.len,
                found_hash: found.fnv1a64,
            });
        }
        Ok(Self {
            path: json_path,
            file,
            recording,
        })
    }

    /// The test name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.file.name
    }

    /// The query to replay.
    #[must_use]
    pub fn query(&self) -> &Query {
        &self.file.query
    }

    /// The stored recording's stream bytes (decode with [`cspace_recorder::decode`]).
    #[must_use]
    pub fn recording_bytes(&self) -> &[u8] {
        &self.recording
    }

    /// Path of the recording: the `.cspace` sibling of the JSON part (the
    /// stored `recording.file` is for reviewers; renaming both files together
    /// keeps a fixture whole).
    #[must_use]
    pub fn recording_path(&self) -> PathBuf {
        fixture_paths(&self.path).map_or_else(
            |_| self.path.with_extension("cspace"),
            |(_, recording)| recording,
        )
    }

    /// Whether the stored recording was made by code with the current [`ALGORITHM_REVISION`].
    #[must_use]
    pub fn same_revision(&self) -> bool {
        self.file.written_by.algorithm_revision == algorithm_revision()
    }

    /// Re-runs the query with the current code and recording on ("does my fix
    /// work?"). A panic in the query becomes [`RerunError::Panicked`]; the
    /// recording is kept up to it.
    pub fn rerun(&self) -> (Result<Answer, RerunError>, Recording) {
        let (result, recording) = run_recorded(&self.file.query);
        let result = match result {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(RerunError::Query(e)),
            Err(payload) => Err(RerunError::Panicked(panic_message(payload.as_ref()))),
        };
        (result, recording)
    }

    /// Replaces the stored recording (and the writer stamp) with `recording`.
    pub fn set_recording(&mut self, recording: Vec<u8>) {
        self.file.recording = RecordingInfo::of(&self.file.recording.file, &recording);
        self.file.written_by = WrittenBy::current();
        self.recording = recording;
    }

    /// The JSON part as written: pretty, with a final newline.
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.file).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes the recording, then the JSON part, each atomically, at [`Fixture::path`].
    ///
    /// # Errors
    /// Writing either file failed.
    pub fn write(&self) -> Result<(), FixtureError> {
        let rec_path = self.recording_path();
        cspace_recorder::write_atomic(&rec_path, &self.recording).map_err(|source| {
            FixtureError::Write {
                path: rec_path,
                source,
            }
        })?;
        cspace_recorder::write_atomic(&self.path, self.to_json().as_bytes()).map_err(|source| {
            FixtureError::Write {
                path: self.path.clone(),
                source,
            }
        })
    }

    /// Writes the fixture into `dir` under its content-derived name and returns
    /// the JSON part's path. Saving the same fixture twice leaves one file.
    ///
    /// # Errors
    /// Writing either file failed.
    pub fn save_in(&mut self, dir: &Path) -> Result<PathBuf, FixtureError> {
        let stem = file_stem(&self.file.name, &self.file.query);
        self.file.recording.file = format!("{stem}{RECORDING_SUFFIX}");
        self.path = dir.join(format!("{stem}{JSON_SUFFIX}"));
        self.write()?;
        Ok(self.path.clone())
    }
}

/// Why re-running a fixture's query gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum RerunError {
    /// The query rejected its input.
    #[error("query error: {0}")]
    Query(QueryError),
    /// The query panicked.
    #[error("query panicked: {0}")]
    Panicked(String),
}

/// All fixtures under `path`: the path itself when it is a file (either part of
/// a fixture), else every `.fixture.json` in the folder and its subfolders,
/// sorted. A `.cspace` without a JSON part is a plain recording (golden
/// streams, `eval --record` output), not a fixture, and is not listed.
///
/// # Errors
/// `path` does not exist, or reading a folder failed.
pub fn find(path: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    if !path.exists() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no such file or folder",
        ));
    }
    if path.is_dir() {
        walk(path, &mut out)?;
        out.sort();
    } else {
        out.push(path.to_path_buf());
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') {
            continue; // temporary files of an atomic write in progress
        }
        if path.is_dir() {
            walk(&path, out)?;
        } else if name.ends_with(JSON_SUFFIX) {
            out.push(path);
        }
    }
    Ok(())
}

/// A one-line summary of a fixture for listings: name, query kind, algorithm and path.
#[must_use]
pub fn describe(fixture: &Fixture) -> String {
    let q = serde_json::to_value(&fixture.file.query).unwrap_or(serde_json::Value::Null);
    let mut s = format!("{} [", fixture.file.name);
    for key in ["query", "algorithm", "precision"] {
        if let Some(v) = q.get(key).and_then(serde_json::Value::as_str) {
            let _ = write!(s, " {v}");
        }
    }
    let _ = write!(s, " ] {}", fixture.path.display());
    s
}
