//! The `cspace` command line: inspect recordings, run queries, replay fixtures.

/// `println!` that survives a closed pipe (`cspace replay … | head`): the
/// lines nobody reads are dropped and the run goes on to its exit code;
/// another write error is reported on stderr.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::line(format_args!($($arg)*))
    };
}

/// One line of standard output (see [`say!`]).
fn line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{args}")
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: writing output: {e}");
    }
}

mod dump;
mod eval;
mod fuzz;
mod listen;
mod replay;

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
    /// Compare two recordings; print the first divergence (exit code 1 if they differ).
    Diff {
        /// First recording.
        a: std::path::PathBuf,
        /// Second recording.
        b: std::path::PathBuf,
        /// Floats within this many units in the last place count as equal.
        #[arg(long, default_value_t = 0)]
        ulps: u64,
    },
    /// Differential fuzzing: generate hard queries, judge cspace's algorithms (or
    /// `--engine`), shrink and save each disagreement as a fixture pair.
    Fuzz(Box<fuzz::FuzzArgs>),
    /// Receive live recordings from programs run with `CSPACE_LIVE=ADDR` and save them.
    Listen {
        /// Address to listen on (loopback by default; port 0 picks a free one).
        #[arg(long, default_value = "127.0.0.1:7878")]
        addr: String,
        /// Folder to save recordings in.
        #[arg(long, default_value = "target/cspace-live")]
        out: std::path::PathBuf,
        /// Stop after this many recordings.
        #[arg(long)]
        count: Option<usize>,
        /// Disconnect a program that sends nothing for this many seconds
        /// (the live recorder's own idle timeout by default).
        #[arg(long, default_value = "30", value_parser = seconds)]
        idle_timeout: std::time::Duration,
    },
    /// Count a recording's events per kind, their bytes, and its pauses; name
    /// structural slips (pops without a push, unclosed scopes, undefined sites).
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
        /// Refuse (and skip) input lines longer than this many bytes.
        #[arg(long, value_name = "BYTES", default_value_t = eval::MAX_LINE,
              value_parser = clap::value_parser!(usize))]
        max_line: usize,
    },
    /// Re-run fixtures: does each check pass now, is each recording unchanged?
    Replay(replay::ReplayArgs),
    /// Manage fixtures: promote into `fixtures/regressions/`, record the examples, list.
    Fixtures(replay::FixturesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Dump { file, json } => inspect(&file, |loaded, out| dump::dump(loaded, json, out)),
        Command::Diff { a, b, ulps } => diff(&a, &b, ulps),
        Command::Fuzz(args) => fuzz::cli(&args),
        Command::Listen {
            addr,
            out,
            count,
            idle_timeout,
        } => listen::run(&addr, &out, count, idle_timeout),
        Command::Stats { file } => inspect(&file, |loaded, out| {
            dump::print_stats(&dump::stats(loaded), out)
        }),
        Command::Eval {
            file,
            repeat,
            record,
            max_line,
        } => eval::cli(
            &file,
            &eval::Options {
                repeat,
                record,
                live: false,
                max_line,
            },
        ),
        Command::Replay(args) => replay::run_replay(&args),
        Command::Fixtures(args) => replay::run_fixtures(&args),
    }
}

/// Parses a command-line duration: a positive number of seconds, at most a
/// day (a longer wait is a typo, and `Duration` cannot hold every `f64`).
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(std::time::Duration::from_secs_f64(s)),
        Ok(_) => Err(format!(
            "{text} is not a number of seconds above 0 and at most 86400"
        )),
        Err(e) => Err(format!("{text}: {e}")),
    }
}

/// Loads a recording, prints what `print` makes of its valid prefix, then
/// reports damage as one line naming the file and byte offset (exit code 1).
fn inspect(
    file: &std::path::Path,
    print: impl FnOnce(&dump::Loaded, &mut std::io::StdoutLock<'_>) -> std::io::Result<()>,
) -> ExitCode {
    let loaded = match dump::load(file) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = print(&loaded, &mut out)
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: writing output: {e}");
        return ExitCode::FAILURE;
    }
    match &loaded.error {
        Some(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

/// `cspace diff`: 0 when the recordings match, 1 when they diverge, 2 when one cannot be read.
fn diff(a: &std::path::Path, b: &std::path::Path, ulps: u64) -> ExitCode {
    let mut sides = Vec::new();
    for path in [a, b] {
        match dump::load(path) {
            Ok(loaded) => {
                if let Some(e) = &loaded.error {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
                sides.push(loaded);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let (sa, sb) = (
        cspace_recorder::diff::Aligned::new(&sides[0].recording),
        cspace_recorder::diff::Aligned::new(&sides[1].recording),
    );
    match cspace_recorder::diff::first_divergence(&sa, &sb, ulps) {
        None => {
            println!(
                "identical: {} events compared (tolerance {ulps} ulps)",
                sa.len()
            );
            ExitCode::SUCCESS
        }
        Some(d) => {
            println!("{d}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_waits_as_long_as_the_live_recorder_by_default() {
        let cli = Cli::try_parse_from(["cspace", "listen"]).expect("parses");
        let Command::Listen { idle_timeout, .. } = cli.command else {
            panic!("not listen");
        };
        assert_eq!(idle_timeout, cspace_recorder::live::IDLE_TIMEOUT);
    }
}
