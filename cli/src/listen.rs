//! `cspace listen`: receive live recordings from programs run with
//! `CSPACE_LIVE=ADDR` and save each as a `.cspace` file as it completes.

use cspace_recorder::live::{Message, Server};
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

/// Listens on `addr`, saving recordings into `out` until `count` have ended
/// (forever when `None`). Prints one line per connection.
pub fn run(addr: &str, out: &Path, count: Option<usize>) -> ExitCode {
    let server = match Server::bind(addr) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("error: {}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    println!(
        "listening on {0}; run programs with CSPACE_LIVE={0}",
        server.addr()
    );
    let _ = std::io::stdout().flush();
    let mut ended = 0;
    while count.is_none_or(|c| ended < c) {
        let Some(message) = server.next_timeout(std::time::Duration::from_millis(200)) else {
            continue;
        };
        let (id, bytes, error) = match message {
            Message::Connected { id, peer } => {
                println!("{id}: connected from {peer}");
                continue;
            }
            Message::Events { .. } => continue,
            Message::Finished { id, bytes } => (id, bytes, None),
            Message::Failed { id, bytes, error } => (id, bytes, Some(error)),
        };
        ended += 1;
        let name = if error.is_some() {
            format!("live-{id}.partial.cspace")
        } else {
            format!("live-{id}.cspace")
        };
        let path = out.join(name);
        let decoded = cspace_recorder::decode(&bytes);
        let pauses = decoded
            .events
            .iter()
            .filter(|l| matches!(l.event, cspace_recorder::Event::Pause { .. }))
            .count();
        match cspace_recorder::write_atomic(&path, &bytes) {
            Ok(()) => print!(
                "{id}: {} events, {pauses} pauses, saved {}",
                decoded.events.len(),
                path.display()
            ),
            Err(e) => print!("{id}: could not save {}: {e}", path.display()),
        }
        match error {
            Some(e) => println!(" (stream ended early: {e})"),
            None => println!(),
        }
        let _ = std::io::stdout().flush();
    }
    ExitCode::SUCCESS
}
