//! Records the demo query and writes it for `cspace-viewer`.
//!
//! `cargo run -p custom-gjk -- [OUT.cspace]` (default `custom-gjk.cspace`), then
//! `cargo run -p cspace-viewer -- custom-gjk.cspace`.

use custom_gjk::{gjk, scenes};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("custom-gjk.cspace"), PathBuf::from);
    let (a, b) = scenes::demo();
    let (result, recording) = cspace_recorder::record(|| gjk::distance(&a, &b));
    println!(
        "distance {} after {} iterations, closest points {:?} and {:?}",
        result.distance, result.iterations, result.point_a, result.point_b
    );
    if !cfg!(feature = "debug-draw") {
        eprintln!("note: built without the `debug-draw` feature, the recording may be empty");
    }
    match recording.save(&path) {
        Ok(()) => {
            println!(
                "wrote {} ({} bytes); open it with: cargo run -p cspace-viewer -- {}",
                path.display(),
                recording.bytes.len(),
                path.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}
