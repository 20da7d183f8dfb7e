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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
