//! `cspace-viewer --screenshot` exits non-zero, naming the file and what is
//! wrong, for a missing, empty, damaged or newer-version input; a good one
//! exits 0. (It renders on Mesa's software Vulkan, as the snapshot test.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-screenshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

fn screenshot(input: &Path) -> (bool, String, bool) {
    let out_png = input.with_extension("png");
    let out = Command::new(env!("CARGO_BIN_EXE_cspace-viewer"))
        .args(["--screenshot", "2", "--size", "640x400", "--out"])
        .arg(&out_png)
        .arg(input)
        .output()
        .expect("run cspace-viewer");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.success(), stderr, out_png.exists())
}

#[test]
fn bad_inputs_exit_non_zero_with_the_reason_and_good_ones_exit_zero() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/streams/v1/golden.cspace");
    let good = std::fs::read(&golden).expect("golden recording");
    let mut newer = good.clone();
    newer[4] = 0xff; // format version 255
    let cases = [
        (
            temp("missing.cspace", b"").with_file_name("absent.cspace"),
            "absent.cspace",
        ),
        (temp("empty.cspace", b""), "truncated"),
        (temp("damaged.cspace", &good[..good.len() - 2]), "truncated"),
        (temp("newer.cspace", &newer), "version"),
    ];
    for (path, phrase) in &cases {
        let (ok, stderr, _) = screenshot(path);
        assert!(!ok, "{}: must fail\n{stderr}", path.display());
        assert!(stderr.contains("error:"), "{stderr}");
        assert!(stderr.contains(phrase), "{}: {stderr}", path.display());
        let name = path.file_name().expect("name").to_string_lossy();
        assert!(stderr.contains(name.as_ref()), "{stderr}");
    }
    let (ok, stderr, written) = screenshot(&temp("good.cspace", &good));
    assert!(ok && written, "{stderr}");
}
