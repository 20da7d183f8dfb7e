//! `cspace replay` and `cspace fixtures` end to end: promote, list, and a
//! folder of good and bad fixtures.

#[path = "../../tests/fixture_files/mod.rs"]
mod fixture_files;

use fixture_files::{bad_fixtures, count_fixtures, fixture_stem, good_fixture, names_in, temp_dir};
use std::process::Command;

#[test]
fn the_cli_promotes_lists_and_flags_a_fixed_known_failure() {
    let from = temp_dir("cli-promote-from");
    let to = temp_dir("cli-promote-to");
    let path = good_fixture(&from, "cli-promoted");
    let cspace = env!("CARGO_BIN_EXE_cspace");
    let out = Command::new(cspace)
        .args(["fixtures", "promote", "--known-failure", "--to"])
        .arg(&to)
        .arg(&path)
        .output()
        .expect("run cspace fixtures promote");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("promoted "), "{text}");
    assert!(names_in(&from).is_empty(), "{:?}", names_in(&from));
    assert_eq!(count_fixtures(&to), (1, 1));

    let out = Command::new(cspace)
        .args(["fixtures", "list"])
        .arg(&to)
        .output()
        .expect("run cspace fixtures list");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("cli-promoted [ distance gjk f64 ]"), "{text}");

    // Marked known failure, but its check passes: the run fails and says so.
    let out = Command::new(cspace)
        .arg("replay")
        .arg(&to)
        .output()
        .expect("run cspace replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("FIXED") && l.contains("cli-promoted")),
        "{text}"
    );
    assert!(text.contains("1 fixed"), "{text}");
    let _ = std::fs::remove_dir_all(&from);
    let _ = std::fs::remove_dir_all(&to);
}

#[test]
fn the_cli_replays_good_fixtures_and_names_each_bad_one() {
    let (dir, cases) = bad_fixtures();
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("replay")
        .arg(&dir)
        .output()
        .expect("run cspace replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !out.status.success(),
        "bad fixtures must fail the run:\n{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("PASS") && l.contains("good")),
        "{text}"
    );
    for (path, phrase) in &cases {
        let stem = fixture_stem(path);
        assert!(
            text.lines()
                .any(|l| l.starts_with("ERROR") && l.contains(&stem) && l.contains(phrase)),
            "no error line for {stem} with `{phrase}`:\n{text}"
        );
    }
    assert!(text.contains("1 passed, 0 failed"), "{text}");
    assert!(text.contains(&format!("{} errors", cases.len())), "{text}");

    // The good one alone passes, exit code 0.
    let good = dir.join(
        names_in(&dir)
            .into_iter()
            .find(|n| n.starts_with("good-") && n.ends_with(".cspace"))
            .expect("good"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("replay")
        .arg(&good)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn prune_removes_old_runs_and_nothing_else() {
    let dir = temp_dir("prune");
    for run in [
        "run-000000000001-7",
        "run-000000000002-7",
        "run-000000000003-7",
        "other",
    ] {
        std::fs::create_dir_all(dir.join(run)).expect("mkdir");
        std::fs::write(dir.join(run).join("x.fixture.json"), "{}").expect("write");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(["fixtures", "prune", "--keep", "1"])
        .arg(&dir)
        .output()
        .expect("run cspace fixtures prune");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 runs removed"), "{text}");
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .expect("read")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["other", "run-000000000003-7"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_of_a_folder_without_fixtures_fails_and_says_so() {
    let dir = temp_dir("cli-empty");
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("replay")
        .arg(&dir)
        .output()
        .expect("run cspace replay");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("no fixtures"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
