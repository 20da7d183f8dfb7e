//! The `cspace` command line: inspect recordings, run queries, replay fixtures.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// cspace: a visual debugger for convex collision algorithms.
#[derive(Parser, Debug)]
#[command(name = "cspace", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    // Each subcommand lives in the module named for it; keep this list in that order.
    /// Print a recording: one event per line, indented by push depth, with call site.
    Dump {
        /// The recording (`.cspace`).
        file: std::path::PathBuf,
        /// One JSON object per line instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count a recording's events per kind, their bytes, and its pauses.
    Stats {
        /// The recording (`.cspace`).
        file: std::path::PathBuf,
    },
    /// Run queries: JSON lines in (FILE or `-` for stdin), JSON lines out.
    Eval {
        /// Input file, or `-` (the default) for stdin.
        #[arg(default_value = "-")]
        file: String,
        /// Run each query N times and add `time_ns`, the mean time of one run.
        #[arg(long, value_name = "N")]
        repeat: Option<u32>,
        /// Write one recording per query to DIR/<id>.cspace.
        #[arg(long, value_name = "DIR")]
        record: Option<std::path::PathBuf>,
    },
    /// Re-run fixtures: does each check pass now, is each recording unchanged?
    Replay(cspace::replay::ReplayArgs),
    /// Manage fixtures: promote into `fixtures/regressions/`, record the examples, list.
    Fixtures(cspace::replay::FixturesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Dump { file, json } => inspect(&file, |loaded, out| cspace::dump::dump(loaded, json, out)),
        Command::Stats { file } => inspect(&file, |loaded, out| {
            cspace::dump::print_stats(&cspace::dump::stats(loaded), out)
        }),
        Command::Eval {
            file,
            repeat,
            record,
        } => cspace::eval::cli(&file, &cspace::eval::Options { repeat, record }),
        Command::Replay(args) => cspace::replay::run_replay(&args),
        Command::Fixtures(args) => cspace::replay::run_fixtures(&args),
    }
}

/// Loads a recording, prints what `print` makes of its valid prefix, then
/// reports damage as one line naming the file and byte offset (exit code 1).
fn inspect(
    file: &std::path::Path,
    print: impl FnOnce(&cspace::dump::Loaded, &mut std::io::StdoutLock<'_>) -> std::io::Result<()>,
) -> ExitCode {
    let loaded = match cspace::dump::load(file) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = print(&loaded, &mut out) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: writing output: {e}");
            return ExitCode::FAILURE;
        }
    }
    match &loaded.error {
        Some(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}
