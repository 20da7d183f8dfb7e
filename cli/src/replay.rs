//! `cspace replay` and `cspace fixtures`: re-run fixtures, promote them,
//! record the examples, list them.

use cspace::fixture::{self, Fixture, replay};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cspace replay`.
#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
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
pub(crate) fn run_replay(args: &ReplayArgs) -> ExitCode {
    if !args.precision.is_empty() {
        return run_precisions(&args.paths, &args.precision, args.ulps);
    }
    let results = replay::replay_paths(&args.paths, args.update);
    for r in &results {
        match r {
            Ok(r) => say!("{}", r.line()),
            Err(e) => say!("ERROR  {e}"),
        }
    }
    let summary = replay::Summary::of(&results);
    say!("{summary}");
    if summary.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Arguments of `cspace fixtures`.
#[derive(clap::Args, Debug)]
pub(crate) struct FixturesArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: FixturesAction,
}

/// `cspace fixtures` actions.
#[derive(clap::Subcommand, Debug)]
pub(crate) enum FixturesAction {
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
    /// Remove old runs' folders of new fixtures (`run-*`), keeping the newest.
    Prune {
        /// Folder of new fixtures (default: the new-fixture folder).
        path: Option<PathBuf>,
        /// How many of the newest runs to keep.
        #[arg(long, default_value_t = 1)]
        keep: usize,
    },
    /// List the fixtures under a folder (default: the new-fixture folder).
    List {
        /// Folder or file.
        path: Option<PathBuf>,
    },
}

/// `cspace fixtures …`.
#[must_use]
pub(crate) fn run_fixtures(args: &FixturesArgs) -> ExitCode {
    let ok = match &args.action {
        FixturesAction::Promote {
            files,
            known_failure,
            to,
        } => {
            let dest = to.clone().unwrap_or_else(fixture::regressions_dir);
            files.iter().fold(true, |ok, file| {
                match replay::promote(file, &dest, *known_failure) {
                    Ok(path) => {
                        say!("promoted {} -> {}", file.display(), path.display());
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
            fixture::examples::write_all(&dir)
                .into_iter()
                .fold(true, |ok, r| match r {
                    Ok(path) => {
                        say!("wrote {}", path.display());
                        ok
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        false
                    }
                })
        }
        FixturesAction::Prune { path, keep } => {
            let dir = path.clone().unwrap_or_else(fixture::fixture_dir);
            match fixture::prune_runs(&dir, *keep) {
                Ok(removed) => {
                    for run in &removed {
                        say!("removed {}", run.display());
                    }
                    say!("{} runs removed, {keep} kept at most", removed.len());
                    true
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", dir.display());
                    false
                }
            }
        }
        FixturesAction::List { path } => {
            let dir = path.clone().unwrap_or_else(fixture::fixture_dir);
            match fixture::find(&dir) {
                Ok(files) => files
                    .iter()
                    .fold(true, |ok, file| match Fixture::load(file) {
                        Ok(f) => {
                            say!("{}", fixture::describe(&f));
                            ok
                        }
                        Err(e) => {
                            say!("ERROR  {e}");
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

/// `cspace replay --precision f32,f64`: per fixture, where the precisions part.
fn run_precisions(paths: &[PathBuf], precisions: &[String], max_ulps: u64) -> ExitCode {
    let precisions: Vec<cspace::model::Precision> = precisions
        .iter()
        .map(|p| {
            if p == "f32" {
                cspace::model::Precision::F32
            } else {
                cspace::model::Precision::F64
            }
        })
        .collect();
    let dir = fixture::fixture_dir().join("precision");
    let mut failed = false;
    for path in paths {
        let files = match fixture::find(path) {
            Ok(files) => files,
            Err(e) => {
                say!("ERROR  {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        for file in files {
            let fixture = match Fixture::load(&file) {
                Ok(f) => f,
                Err(e) => {
                    say!("ERROR  {e}");
                    failed = true;
                    continue;
                }
            };
            match replay::compare_precisions(&fixture, &precisions, &dir, max_ulps) {
                Ok((saved, divergence)) => {
                    match divergence {
                        Some(d) => say!("{}: {d}", fixture.name()),
                        None => say!("{}: identical in every precision", fixture.name()),
                    }
                    if let [a, b, ..] = saved.as_slice() {
                        say!(
                            "  open: cargo run -p cspace-viewer -- --diff {} {}",
                            a.display(),
                            b.display()
                        );
                    }
                }
                Err(e) => {
                    say!("ERROR  {e}");
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
