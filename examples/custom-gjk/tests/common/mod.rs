//! Keeping the recording of a failing test, the way a user's suite would.

use cspace_recorder::Recording;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

/// Where failing recordings go: `$CSPACE_FIXTURE_DIR`, else `target/cspace-fixtures`.
pub fn fixture_dir() -> PathBuf {
    std::env::var_os("CSPACE_FIXTURE_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/cspace-fixtures"),
        PathBuf::from,
    )
}

/// Runs the assertions in `check`; if they fail, saves `recording` as
/// `<dir>/<name>.cspace` and fails with the command that opens it.
pub fn keep_on_failure(name: &str, recording: &Recording, check: impl FnOnce()) {
    if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(check)) {
        let path = fixture_dir().join(format!("{name}.cspace"));
        match recording.save(&path) {
            Ok(()) => eprintln!(
                "{name} failed; its recording is in {0}\n  open it: cargo run -p cspace-viewer -- {0}",
                path.display()
            ),
            Err(e) => eprintln!("{name} failed; saving {} failed too: {e}", path.display()),
        }
        panic::resume_unwind(payload);
    }
}
