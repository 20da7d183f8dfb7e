//! `cspace fuzz` end to end (the real binary): a fixed-seed campaign over
//! cspace's own algorithms, shards and merge, and engines — custom-gjk with a
//! planted bug, and engines that crash, hang or print garbage.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn cspace(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(args)
        .output()
        .expect("run cspace")
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l}: {e}")))
        .collect()
}

fn total(lines: &[Value]) -> &Value {
    &lines
        .iter()
        .find(|l| l.get("total").is_some())
        .expect("a total line")["total"]
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-fuzz-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_fixed_seed_campaign_over_cspace_passes() {
    let out_dir = tempdir("own");
    let out = cspace(&[
        "fuzz",
        "--seed",
        "7",
        "--count",
        "1500",
        "--json",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let lines = json_lines(&out);
    let failures: Vec<_> = lines
        .iter()
        .filter(|l| l.get("failure").is_some())
        .collect();
    assert!(out.status.success(), "failures: {failures:#?}");
    let t = total(&lines);
    assert_eq!(t["checked"], 1500);
    assert_eq!(t["failed"], 0);
    // Every family and kind is covered.
    let rows: Vec<_> = lines.iter().filter_map(|l| l.get("row")).collect();
    for family in [
        "random", "thin", "touching", "big-hull", "sweeps", "margins",
    ] {
        assert!(
            rows.iter().any(|r| r["family"] == family),
            "{family} missing"
        );
    }
    for kind in [
        "distance",
        "intersect",
        "penetration",
        "sweep",
        "signed_distance",
    ] {
        assert!(rows.iter().any(|r| r["kind"] == kind), "{kind} missing");
    }
}

#[test]
fn signed_distance_is_a_kind_under_both_spellings() {
    for spelling in ["signed_distance", "signed-distance"] {
        let out = cspace(&[
            "fuzz",
            "--seed",
            "11",
            "--count",
            "400",
            "--kinds",
            spelling,
            "--json",
            "--no-shrink",
            "--out",
            tempdir("signed").to_str().unwrap(),
        ]);
        let lines = json_lines(&out);
        assert!(out.status.success(), "{lines:#?}");
        assert_eq!(total(&lines)["checked"], 400);
        let rows: Vec<_> = lines.iter().filter_map(|l| l.get("row")).collect();
        // One row per family (a family without the kind draws it anyway).
        assert_eq!(rows.len(), 11, "{rows:#?}");
        assert!(rows.iter().all(|r| r["kind"] == "signed_distance"));
    }
}

#[test]
fn shards_split_the_stream_and_merge_to_the_whole_campaign() {
    let dir = tempdir("shards");
    let args = |shard: &str, summary: &Path| {
        let out = cspace(&[
            "fuzz",
            "--seed",
            "3",
            "--count",
            "600",
            "--kinds",
            "distance,intersect",
            "--shard",
            shard,
            "--summary",
            summary.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    };
    let (whole, s0, s1) = (
        dir.join("whole.json"),
        dir.join("0.json"),
        dir.join("1.json"),
    );
    args("0/1", &whole);
    args("0/2", &s0);
    args("1/2", &s1);
    let merged = cspace(&[
        "fuzz",
        "merge",
        "--json",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
    ]);
    assert!(merged.status.success());
    let lines = json_lines(&merged);
    assert_eq!(total(&lines)["checked"], 600);
    assert_eq!(total(&lines)["shards"], serde_json::json!(["0/2", "1/2"]));
    // Same cases: the same rows, counts and worst errors as the unsharded run.
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap();
    let rows: Vec<&Value> = lines.iter().filter_map(|l| l.get("row")).collect();
    let whole_rows: Vec<&Value> = whole["rows"].as_array().unwrap().iter().collect();
    assert_eq!(rows, whole_rows);
    // A bad summary file is an error naming it.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let out = cspace(&["fuzz", "merge", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.json"));
}

#[test]
fn bad_arguments_are_refused() {
    let out = cspace(&["fuzz", "--shard", "2/2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("0 ≤ I < N"));
    let out = cspace(&["fuzz", "--families", "nope"]);
    assert!(!out.status.success());
    // A timeout that is no duration (it panicked, or waited 1 ms) is a usage error.
    for t in ["0", "-1", "nan", "1e300"] {
        let out = cspace(&[
            "fuzz",
            "--engine",
            "true",
            "--count",
            "1",
            &format!("--timeout={t}"),
        ]);
        assert_eq!(out.status.code(), Some(2), "--timeout {t}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("not a number of seconds above 0"),
            "--timeout {t}: {err}"
        );
    }
    let out = cspace(&["listen", "--idle-timeout", "1e300"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The custom-gjk engine binary, built on demand.
fn custom_gjk_engine() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_cspace")).with_file_name("custom-gjk-engine");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // Built in the profile this test runs in (`cargo test --release` looks
    // for it in `target/release`).
    let release = bin
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|d| d == "release");
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "-p",
            "custom-gjk",
            "--bin",
            "custom-gjk-engine",
        ])
        .args(release.then_some("--release"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success(), "building custom-gjk-engine failed");
    assert!(bin.exists(), "{} not built", bin.display());
    bin
}

#[test]
fn a_planted_bug_in_custom_gjk_is_found_shrunk_and_saved() {
    let engine = custom_gjk_engine();
    let dir = tempdir("planted");
    // The engine as shipped agrees with cspace.
    let clean = cspace(&[
        "fuzz",
        "--engine",
        engine.to_str().unwrap(),
        "--kinds",
        "distance,intersect",
        "--count",
        "400",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let lines = json_lines(&clean);
    assert!(clean.status.success(), "{lines:#?}");
    assert!(total(&lines)["checked"].as_u64().unwrap() > 50);

    let cmd = format!("{} --planted-bug", engine.display());
    let out = cspace(&[
        "fuzz",
        "--engine",
        &cmd,
        "--kinds",
        "distance",
        "--count",
        "400",
        "--max-saved",
        "1",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "a failure exits 1");
    let lines = json_lines(&out);
    let failure = lines
        .iter()
        .filter_map(|l| l.get("failure"))
        .find(|f| f.get("fixture").is_some())
        .expect("a saved failure");
    assert_eq!(failure["check"], "engine-distance");
    let folder = PathBuf::from(failure["fixture"].as_str().unwrap());
    // Shrunk: shape A is the smallest hull the bug shows on (five points,
    // the fifth ignored), with round numbers.
    let engine_json: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("engine.json")).unwrap())
            .unwrap();
    let a = &engine_json["query"]["a"]["shape"];
    assert_eq!(a["type"], "hull", "{engine_json:#}");
    assert_eq!(a["points"].as_array().unwrap().len(), 5, "{engine_json:#}");
    let text = engine_json["query"].to_string();
    assert!(text.len() < 400, "not shrunk to round numbers: {text}");
    assert!(
        engine_json["input_bits"]
            .as_object()
            .is_some_and(|b| !b.is_empty())
    );
    // The pair: the engine's recording and cspace's reference fixture.
    let pair: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("pair.json")).unwrap()).unwrap();
    assert_eq!(pair["subject"], "engine.cspace");
    assert!(folder.join("engine.cspace").is_file());
    let reference = folder.join(pair["reference"].as_str().unwrap());
    assert!(reference.is_file());
    // cspace replay opens the saved folder: the reference fixture passes.
    let replay = cspace(&["replay", folder.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&replay.stdout);
    assert!(replay.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
}

fn misbehaving(cmd: &str) -> (Vec<Value>, Duration) {
    let dir = tempdir("bad");
    let start = Instant::now();
    let out = cspace(&[
        "fuzz",
        "--engine",
        cmd,
        "--count",
        "3",
        "--timeout",
        "0.5",
        "--max-saved",
        "0",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{cmd}: a misbehaving engine fails the run"
    );
    (json_lines(&out), start.elapsed())
}

fn checks(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.get("failure"))
        .map(|f| f["check"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn crashing_hanging_and_garbage_engines_are_reported_per_query() {
    // Exits at once.
    let (lines, _) = misbehaving("false");
    assert_eq!(checks(&lines), ["engine-crash"; 3]);
    // Never answers: each query times out, the engine is restarted.
    let (lines, took) = misbehaving("sleep 1000");
    assert_eq!(checks(&lines), ["engine-hang"; 3]);
    assert!(took < Duration::from_secs(20), "took {took:?}");
    // Prints lines that are no answers.
    let (lines, _) = misbehaving("yes");
    assert_eq!(checks(&lines), ["engine-garbage"; 3]);
    // Echoes the query: an object with the right id but no answer fields.
    let (lines, _) = misbehaving("cat");
    assert!(
        checks(&lines).iter().all(|c| c == "engine-garbage"),
        "{lines:#?}"
    );
    // One endless line without a newline.
    let (lines, _) = misbehaving("cat /dev/zero");
    assert!(
        checks(&lines)
            .iter()
            .all(|c| c == "engine-garbage" || c == "engine-hang"),
        "{lines:#?}"
    );
    // A program that does not exist.
    let out = cspace(&["fuzz", "--engine", "/nonexistent/engine", "--count", "2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not start"));
}
