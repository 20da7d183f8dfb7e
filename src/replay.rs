//! `cspace replay` and `cspace fixtures`: re-run fixtures, promote them into
//! the checked-in regressions, and generate the example fixtures.
//!
//! A fixture is re-run with recording on and judged by [`check::verdict`]: the
//! query returns a sane answer and every stored check holds. A regression
//! (`expect: pass`) must pass; a known failure (`expect: known_failure`) must
//! still fail, and passing is reported as [`Verdict::Fixed`] so the mark gets
//! removed. When the fixture was written by the current [`ALGORITHM_REVISION`],
//! the new recording must also be bit-identical to the stored one.
//!
//! [`ALGORITHM_REVISION`]: crate::fixture::ALGORITHM_REVISION

use crate::check;
use crate::fixture::{self, Expect, Fixture, FixtureError, JSON_SUFFIX, RECORDING_SUFFIX};
use crate::fixture_examples;
use cspace_recorder::Recording;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How a replayed fixture's check came out, against its expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A regression whose check passes.
    Pass,
    /// A regression whose check fails, and why.
    Fail(String),
    /// A known failure that still fails, and why.
    StillFailing(String),
    /// A known failure that now passes: remove the mark.
    Fixed,
}

/// How the new recording compares with the stored one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingCheck {
    /// Bit-identical.
    Identical,
    /// Different although the algorithm revision is unchanged: nondeterminism.
    Differs {
        /// First differing byte.
        offset: usize,
    },
    /// Not compared: the fixture was written by another algorithm revision.
    NotCompared {
        /// The revision that wrote it.
        stored: String,
    },
    /// Different, and the stored recording was replaced (`--update`).
    Updated,
}

/// One replayed fixture.
#[derive(Debug)]
pub struct Replayed {
    /// The fixture as loaded (with the new recording after `--update`).
    pub fixture: Fixture,
    /// The check's outcome.
    pub verdict: Verdict,
    /// The recording comparison.
    pub recording: RecordingCheck,
    /// The recording of the re-run.
    pub new_recording: Recording,
}

impl Replayed {
    /// Whether the fixture behaved as expected (a failing regression, a fixed
    /// known failure or a nondeterministic recording do not).
    #[must_use]
    pub fn ok(&self) -> bool {
        matches!(self.verdict, Verdict::Pass | Verdict::StillFailing(_))
            && !matches!(self.recording, RecordingCheck::Differs { .. })
    }

    /// One report line: outcome, name and path, and the reason when relevant.
    #[must_use]
    pub fn line(&self) -> String {
        let path = self.fixture.path.display();
        let name = self.fixture.name();
        let mut line = match &self.verdict {
            Verdict::Pass => format!("PASS   {name} ({path})"),
            Verdict::Fail(why) => format!("FAIL   {name} ({path}): {why}"),
            Verdict::StillFailing(why) => {
                format!("KNOWN  {name} ({path}): still fails as marked: {why}")
            }
            Verdict::Fixed => format!(
                "FIXED  {name} ({path}): marked known_failure but passes now; set \"expect\": \"pass\""
            ),
        };
        if self.fixture.file.checks.is_empty() && self.fixture.file.failure.is_some() {
            line.push_str(
                "; no stored check (the test's condition was free-form): checked that the query runs and its answer is sane",
            );
        }
        match &self.recording {
            RecordingCheck::Identical => {}
            RecordingCheck::Differs { offset } => {
                let _ = write!(
                    line,
                    "; NONDETERMINISTIC: the recording differs from {} at byte {offset} with the same algorithm revision",
                    self.fixture.recording_path().display()
                );
            }
            RecordingCheck::NotCompared { stored } => {
                let _ = write!(
                    line,
                    "; recording not compared (written by algorithm revision {stored}, now {}; --update rewrites it)",
                    fixture::algorithm_revision()
                );
            }
            RecordingCheck::Updated => line.push_str("; recording updated"),
        }
        line
    }
}

/// Re-runs `fixture` and judges it; with `update`, rewrites its recording (and
/// the writer stamp) unless both are already current.
///
/// # Errors
/// Writing the updated fixture failed.
pub fn replay(mut fixture: Fixture, update: bool) -> Result<Replayed, FixtureError> {
    let (result, new_recording) = fixture.rerun();
    let passes = check::verdict(&result, &fixture.file.checks);
    let verdict = match (fixture.file.expect, passes) {
        (Expect::Pass, Ok(())) => Verdict::Pass,
        (Expect::Pass, Err(why)) => Verdict::Fail(why),
        (Expect::KnownFailure, Err(why)) => Verdict::StillFailing(why),
        (Expect::KnownFailure, Ok(())) => Verdict::Fixed,
    };
    let identical = fixture.recording_bytes() == new_recording.bytes.as_slice();
    let recording = if update && !(identical && fixture.same_revision()) {
        // Also restamps an identical recording with the current revision, so
        // determinism is checked from now on.
        fixture.set_recording(new_recording.bytes.clone());
        fixture.write()?;
        if identical {
            RecordingCheck::Identical
        } else {
            RecordingCheck::Updated
        }
    } else if identical {
        RecordingCheck::Identical
    } else if fixture.same_revision() {
        let old = fixture.recording_bytes();
        let offset = old
            .iter()
            .zip(&new_recording.bytes)
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| old.len().min(new_recording.bytes.len()));
        RecordingCheck::Differs { offset }
    } else {
        RecordingCheck::NotCompared {
            stored: fixture.file.written_by.algorithm_revision.clone(),
        }
    };
    Ok(Replayed {
        fixture,
        verdict,
        recording,
        new_recording,
    })
}

/// Loads and replays every fixture under each of `paths` (files or folders).
/// A fixture that fails to load is one error; the others still replay.
#[must_use]
pub fn replay_paths(paths: &[PathBuf], update: bool) -> Vec<Result<Replayed, FixtureError>> {
    let mut out = Vec::new();
    for path in paths {
        match fixture::find(path) {
            Ok(found) => {
                for file in found {
                    out.push(Fixture::load(&file).and_then(|f| replay(f, update)));
                }
            }
            Err(source) => out.push(Err(FixtureError::Read {
                path: path.clone(),
                source,
            })),
        }
    }
    out
}

/// Counts of a replay run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Regressions that pass.
    pub passed: usize,
    /// Regressions that fail.
    pub failed: usize,
    /// Known failures that still fail.
    pub known: usize,
    /// Known failures that pass now.
    pub fixed: usize,
    /// Recordings that differ with an unchanged algorithm revision.
    pub nondeterministic: usize,
    /// Fixtures that could not be loaded or written.
    pub errors: usize,
}

impl Summary {
    /// Tallies `results`.
    #[must_use]
    pub fn of(results: &[Result<Replayed, FixtureError>]) -> Self {
        let mut s = Self::default();
        for r in results {
            match r {
                Err(_) => s.errors += 1,
                Ok(r) => {
                    match r.verdict {
                        Verdict::Pass => s.passed += 1,
                        Verdict::Fail(_) => s.failed += 1,
                        Verdict::StillFailing(_) => s.known += 1,
                        Verdict::Fixed => s.fixed += 1,
                    }
                    if matches!(r.recording, RecordingCheck::Differs { .. }) {
                        s.nondeterministic += 1;
                    }
                }
            }
        }
        s
    }

    /// Whether every fixture behaved as expected.
    #[must_use]
    pub fn ok(&self) -> bool {
        self.failed == 0 && self.fixed == 0 && self.nondeterministic == 0 && self.errors == 0
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "replayed {} fixtures: {} passed, {} failed, {} known failures, {} fixed, {} nondeterministic, {} errors",
            self.passed + self.failed + self.known + self.fixed + self.errors,
            self.passed,
            self.failed,
            self.known,
            self.fixed,
            self.nondeterministic,
            self.errors
        )
    }
}

/// Arguments of `cspace replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Fixture files (`.fixture.json` or `.cspace`) or folders to search.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Rewrite each stored recording that differs from the new one.
    #[arg(long)]
    pub update: bool,
    /// Instead of checking, record each fixture's query in these precisions
    /// (e.g. `f32,f64`) and show where the recordings first diverge.
    #[arg(long, value_delimiter = ',', value_parser = ["f32", "f64"])]
    pub precision: Vec<String>,
    /// With `--precision`: floats within this many ULPs (of the coarser precision) count as equal.
    #[arg(long, default_value_t = 0)]
    pub ulps: u64,
}

/// `cspace replay`: one line per fixture, then the summary; fails when a
/// regression fails, a known failure passes, a recording is nondeterministic
/// or a fixture cannot be loaded.
#[must_use]
pub fn run_replay(args: &ReplayArgs) -> ExitCode {
    if !args.precision.is_empty() {
        return run_precisions(&args.paths, &args.precision, args.ulps);
    }
    let results = replay_paths(&args.paths, args.update);
    for r in &results {
        match r {
            Ok(r) => println!("{}", r.line()),
            Err(e) => println!("ERROR  {e}"),
        }
    }
    let summary = Summary::of(&results);
    println!("{summary}");
    if summary.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Arguments of `cspace fixtures`.
#[derive(clap::Args, Debug)]
pub struct FixturesArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: FixturesAction,
}

/// `cspace fixtures` actions.
#[derive(clap::Subcommand, Debug)]
pub enum FixturesAction {
    /// Move fixtures into the checked-in `fixtures/regressions/`.
    Promote {
        /// Fixture files (`.fixture.json` or `.cspace`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Mark them as known failures (they must keep failing until fixed).
        #[arg(long)]
        known_failure: bool,
        /// Destination folder instead of `fixtures/regressions/`.
        #[arg(long)]
        to: Option<PathBuf>,
    },
    /// Record the example fixtures from the real algorithms.
    Examples {
        /// Destination folder instead of `fixtures/examples/`.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// List the fixtures under a folder (default: the new-fixture folder).
    List {
        /// Folder or file.
        path: Option<PathBuf>,
    },
}

/// `cspace fixtures …`.
#[must_use]
pub fn run_fixtures(args: &FixturesArgs) -> ExitCode {
    let ok = match &args.action {
        FixturesAction::Promote {
            files,
            known_failure,
            to,
        } => {
            let dest = to.clone().unwrap_or_else(fixture::regressions_dir);
            files.iter().fold(true, |ok, file| {
                match promote(file, &dest, *known_failure) {
                    Ok(path) => {
                        println!("promoted {} -> {}", file.display(), path.display());
                        ok
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        false
                    }
                }
            })
        }
        FixturesAction::Examples { out } => {
            let dir = out.clone().unwrap_or_else(fixture::examples_dir);
            fixture_examples::write_all(&dir)
                .into_iter()
                .fold(true, |ok, r| match r {
                    Ok(path) => {
                        println!("wrote {}", path.display());
                        ok
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        false
                    }
                })
        }
        FixturesAction::List { path } => {
            let dir = path.clone().unwrap_or_else(fixture::fixture_dir);
            match fixture::find(&dir) {
                Ok(files) => files
                    .iter()
                    .fold(true, |ok, file| match Fixture::load(file) {
                        Ok(f) => {
                            println!("{}", fixture::describe(&f));
                            ok
                        }
                        Err(e) => {
                            println!("ERROR  {e}");
                            false
                        }
                    }),
                Err(e) => {
                    eprintln!("error: {}: {e}", dir.display());
                    false
                }
            }
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Moves the fixture at `file` (either part) into `dest`, optionally marked as
/// a known failure, and returns its new JSON path. The fixture is loaded and
/// checked first, written atomically at the destination, then removed from
/// its old place.
///
/// # Errors
/// The fixture does not load, or writing or removing a file failed.
pub fn promote(file: &Path, dest: &Path, known_failure: bool) -> Result<PathBuf, FixtureError> {
    let mut fixture = Fixture::load(file)?;
    let old_json = fixture.path.clone();
    let old_recording = fixture.recording_path();
    if known_failure {
        fixture.file.expect = Expect::KnownFailure;
    }
    let name = old_json
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    fixture.path = dest.join(&name);
    let stem = name.strip_suffix(JSON_SUFFIX).unwrap_or(&name);
    fixture.file.recording.file = format!("{stem}{RECORDING_SUFFIX}");
    fixture.write()?;
    if !same_file(&old_json, &fixture.path) {
        for old in [old_json, old_recording] {
            std::fs::remove_file(&old)
                .map_err(|source| FixtureError::Write { path: old, source })?;
        }
    }
    Ok(fixture.path)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Records `fixture`'s query once per precision into `dir` and returns the
/// recordings' paths with the first divergence of the second from the first.
///
/// # Errors
/// A query fails to run or a recording cannot be written.
pub fn compare_precisions(
    fixture: &Fixture,
    precisions: &[crate::query::Precision],
    dir: &Path,
    max_ulps: u64,
) -> Result<(Vec<PathBuf>, Option<crate::diff::Divergence>), String> {
    let mut paths = Vec::new();
    let mut events = Vec::new();
    for &precision in precisions {
        let mut query = fixture.query().clone();
        query.precision = precision;
        let tag = match precision {
            crate::query::Precision::F32 => "f32",
            crate::query::Precision::F64 => "f64",
        };
        let (answer, recording) = crate::query::run_recorded(&query);
        answer.map_err(|e| format!("{} in {tag}: {e}", fixture.name()))?;
        let path = dir.join(format!("{}.{tag}.cspace", fixture.name()));
        recording
            .save(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        paths.push(path);
        events.push(cspace_recorder::decode(&recording.bytes).events);
    }
    let divergence = match events.as_slice() {
        [a, b, ..] => crate::diff::first_divergence(
            &crate::diff::Side::new(a),
            &crate::diff::Side::new(b),
            max_ulps,
        ),
        _ => None,
    };
    Ok((paths, divergence))
}

/// `cspace replay --precision f32,f64`: per fixture, where the precisions part.
fn run_precisions(paths: &[PathBuf], precisions: &[String], max_ulps: u64) -> ExitCode {
    let precisions: Vec<crate::query::Precision> = precisions
        .iter()
        .map(|p| {
            if p == "f32" {
                crate::query::Precision::F32
            } else {
                crate::query::Precision::F64
            }
        })
        .collect();
    let dir = crate::fixture::fixture_dir().join("precision");
    let mut failed = false;
    for path in paths {
        let files = match crate::fixture::find(path) {
            Ok(files) => files,
            Err(e) => {
                println!("ERROR  {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        for file in files {
            let fixture = match Fixture::load(&file) {
                Ok(f) => f,
                Err(e) => {
                    println!("ERROR  {e}");
                    failed = true;
                    continue;
                }
            };
            match compare_precisions(&fixture, &precisions, &dir, max_ulps) {
                Ok((saved, divergence)) => {
                    match divergence {
                        Some(d) => println!("{}: {d}", fixture.name()),
                        None => println!("{}: identical in every precision", fixture.name()),
                    }
                    if let [a, b, ..] = saved.as_slice() {
                        println!(
                            "  open: cargo run -p cspace-viewer -- --diff {} {}",
                            a.display(),
                            b.display()
                        );
                    }
                }
                Err(e) => {
                    println!("ERROR  {e}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
