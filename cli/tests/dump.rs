//! `cspace dump` and `cspace stats` on good and damaged recordings, run as a user would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/streams/v1/golden.cspace")
}

fn cspace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(args)
        .output()
        .expect("run cspace")
}

fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-cli-dump-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

#[test]
fn dump_prints_every_event_indented_with_call_sites() {
    let out = cspace(&["dump", golden().to_str().expect("utf8 path")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf8");
    let lines: Vec<&str> = text.lines().collect();
    // 17 events in the golden file, 6 of them site definitions that are not printed.
    assert_eq!(lines.len(), 11, "{text}");
    assert!(lines.iter().all(|l| l.contains("@ src/gjk.rs:")), "{text}");
    let point = lines
        .iter()
        .find(|l| l.contains("point cso"))
        .expect("a point line");
    assert!(
        point.contains("(1.5, -0.0, 1e-45)f32"),
        "exact f32 values: {point}"
    );
    assert!(
        point.contains("    point"),
        "indented inside the push: {point}"
    );
    let pop = lines.last().expect("lines");
    assert!(pop.contains("  pop  @"), "pop back at depth 0: {pop}");
}

#[test]
fn dump_json_is_one_object_per_line() {
    let out = cspace(&["dump", "--json", golden().to_str().expect("utf8 path")]);
    assert!(out.status.success());
    for line in String::from_utf8(out.stdout).expect("utf8").lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(v["file"] == "src/gjk.rs", "{line}");
    }
}

#[test]
fn stats_counts_kinds_bytes_and_pauses() {
    let out = cspace(&["stats", golden().to_str().expect("utf8 path")]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(text.contains("pauses: 1"), "{text}");
    let total = text
        .lines()
        .find(|l| l.starts_with("total"))
        .expect("total line");
    let len = std::fs::metadata(golden()).expect("golden").len() - 8;
    assert!(
        total.contains(&format!(" {len} ")),
        "frame bytes = file minus header: {total}"
    );
}

#[test]
fn a_truncated_file_prints_its_prefix_then_one_error_line_with_the_offset() {
    let bytes = std::fs::read(golden()).expect("golden");
    let path = temp("cut.cspace", &bytes[..bytes.len() - 2]);
    let out = cspace(&["dump", path.to_str().expect("utf8 path")]);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).expect("utf8");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("cut.cspace") && stderr.contains("truncated at byte"),
        "{stderr}"
    );
    assert_eq!(
        String::from_utf8(out.stdout).expect("utf8").lines().count(),
        10,
        "all but the cut pop"
    );
}

#[test]
fn bad_magic_newer_version_and_missing_files_are_one_line_errors() {
    let mut newer = std::fs::read(golden()).expect("golden");
    newer[4] = 9;
    for (name, bytes, expect) in [
        (
            "zip.cspace",
            b"PK\x03\x04 not a recording".to_vec(),
            "bad magic at byte 0",
        ),
        ("newer.cspace", newer, "unsupported format version 9"),
    ] {
        let path = temp(name, &bytes);
        let out = cspace(&["stats", path.to_str().expect("utf8 path")]);
        assert!(!out.status.success());
        let stderr = String::from_utf8(out.stderr).expect("utf8");
        assert!(stderr.contains(name) && stderr.contains(expect), "{stderr}");
    }
    let out = cspace(&["dump", "/nonexistent/x.cspace"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.cspace"));
}
