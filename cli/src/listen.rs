//! `cspace listen`: receive live recordings from programs run with
//! `CSPACE_LIVE=ADDR` and save each as a `.cspace` file as it arrives.
//!
//! The server writes every stream to disk as its bytes arrive and keeps no
//! events in memory ([`Delivery::Save`](cspace_recorder::live::Delivery)), so
//! memory stays bounded whatever programs send.

use cspace_recorder::live::{Message, Server, ServerOptions, Summary, exposure_warning};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// Listens on `addr`, saving recordings into `out` until `count` have ended
/// (forever when `None`); a connection silent for `idle_timeout` is dropped.
/// Prints one line per connection.
pub fn run(addr: &str, out: &Path, count: Option<usize>, idle_timeout: Duration) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("error: {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let options = ServerOptions {
        idle_timeout,
        ..ServerOptions::save_to(out)
    };
    let server = match Server::bind_with(addr, options) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(warning) = exposure_warning(server.addr()) {
        eprintln!("{warning}");
    }
    say!(
        "listening on {0}; run programs with CSPACE_LIVE={0}",
        server.addr()
    );
    let _ = std::io::stdout().flush();
    let mut ended = 0;
    while count.is_none_or(|c| ended < c) {
        let Some(message) = server.next_timeout(Duration::from_millis(200)) else {
            continue;
        };
        match message {
            Message::Connected { id, peer } => say!("{id}: connected from {peer}"),
            Message::Refused { peer, limit } => {
                say!("refused {peer}: {limit} connections are open already");
            }
            Message::Events { .. } => {}
            Message::Finished { id, summary } => {
                ended += 1;
                say!("{id}: {}", saved(&summary));
            }
            Message::Failed { id, summary, error } => {
                ended += 1;
                if summary.saved.is_some() {
                    say!("{id}: {} (stream ended early: {error})", saved(&summary));
                } else {
                    say!("{id}: nothing valid received, nothing saved ({error})");
                }
            }
        }
        let _ = std::io::stdout().flush();
    }
    ExitCode::SUCCESS
}

/// "N events, P pauses, saved PATH".
fn saved(summary: &Summary) -> String {
    let path = summary
        .saved
        .as_deref()
        .map_or_else(|| "nothing".to_owned(), |p| p.display().to_string());
    format!(
        "{} events, {} pauses, saved {path}",
        summary.events, summary.pauses
    )
}
