//! `cspace diff` on recordings that match, differ by one ULP, or cannot be read.

use cspace_recorder as rec;
use std::path::PathBuf;
use std::process::Command;

fn save(name: &str, upper: f64) -> PathBuf {
    let ((), r) = rec::record(|| {
        rec::push!("iteration");
        rec::point!(cso "w", [1.0f64, 2.0, 3.0]);
        rec::pause!("after add");
        rec::value!("upper bound", upper);
        rec::pause!("after reduce");
        rec::pop!();
    });
    let dir = std::env::temp_dir().join(format!("cspace-cli-diff-{}", std::process::id()));
    let path = dir.join(name);
    r.save(&path).expect("save recording");
    path
}

fn diff(a: &PathBuf, b: &PathBuf, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .arg("diff")
        .args([a, b])
        .args(extra)
        .output()
        .expect("run cspace diff");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn one_ulp_apart_is_a_divergence_at_its_step_unless_tolerated() {
    let a = save("a.cspace", 0.1);
    let b = save("b.cspace", f64::from_bits(0.1f64.to_bits() + 1));
    let (code, text) = diff(&a, &a, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("identical"), "{text}");
    let (code, text) = diff(&a, &b, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("step 1") && text.contains("1 ulps") && text.contains("upper bound"),
        "{text}"
    );
    let (code, text) = diff(&a, &b, &["--ulps", "1"]);
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn an_unreadable_recording_is_exit_code_2_naming_the_file() {
    let a = save("c.cspace", 0.1);
    let bad = a.with_file_name("bad.cspace");
    std::fs::write(&bad, b"CSPC\x07\x00\x00\x00").expect("write");
    let (code, text) = diff(&a, &bad, &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("bad.cspace") && text.contains("version 7"),
        "{text}"
    );
}

#[test]
fn replay_in_two_precisions_shows_where_f32_leaves_f64() {
    let dir = std::env::temp_dir().join(format!("cspace-precision-{}", std::process::id()));
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("fixtures/examples/gjk-rotated-boxes.fixture.json");
    let out = Command::new(env!("CARGO_BIN_EXE_cspace"))
        .args(["replay", "--precision", "f32,f64"])
        .arg(&fixture)
        .env("CSPACE_FIXTURE_DIR", &dir)
        .output()
        .expect("run cspace replay --precision");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("gjk-rotated-boxes: first divergence at step"),
        "{text}"
    );
    assert!(text.contains("ulps"), "{text}");
    let a = dir.join("precision/gjk-rotated-boxes.f32.cspace");
    let b = dir.join("precision/gjk-rotated-boxes.f64.cspace");
    assert!(
        text.contains("--diff") && text.contains(a.to_str().expect("utf8")),
        "{text}"
    );
    // The saved pair diverges under `cspace diff` too, and not at all against itself.
    let (code, _) = diff(&a, &b, &[]);
    assert_eq!(code, Some(1));
    let (code, _) = diff(&a, &a, &[]);
    assert_eq!(code, Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}
