//! Computes `ALGORITHM_REVISION`: an FNV-1a hash of every source file whose
//! code runs inside a recorded query, found by walking their folders, so no
//! file can be forgotten (see `src/fixture/revision.rs`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files and folders, relative to the workspace root, whose code runs inside a
/// recorded query: the shapes, the algorithms, the query model and the recorder.
const ROOTS: &[&str] = &[
    "src/real.rs",
    "src/shape",
    "src/collide",
    "src/model",
    "recorder/src",
];

fn fnv1a64_from(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        for entry in entries.flatten() {
            rust_files(&entry.path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for r in ROOTS {
        let path = root.join(r);
        // A packaged crate has no recorder folder beside it: hash what is there.
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
            rust_files(&path, &mut files);
        }
    }
    let mut names: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            (rel, p)
        })
        .collect();
    names.sort();
    let mut hash = fnv1a64_from(0xcbf2_9ce4_8422_2325, b"cspace algorithm sources");
    let mut list = String::new();
    for (rel, path) in &names {
        let text = std::fs::read(path).expect("a source file found by the walk is readable");
        hash = fnv1a64_from(hash, rel.as_bytes());
        hash = fnv1a64_from(hash, &[0xfe]);
        hash = fnv1a64_from(hash, &text);
        // A separator, so moving text between files changes the hash.
        hash = fnv1a64_from(hash, &[0xff]);
        let _ = write!(list, "{rel:?}, ");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("revision.rs");
    let hex = format!("{hash:016x}");
    let code = format!(
        "/// Hash of the algorithm sources this binary was built from.\n\
         pub const ALGORITHM_REVISION: u64 = 0x{}_{}_{}_{};\n\
         /// The files [`ALGORITHM_REVISION`] covers, relative to the workspace root.\n\
         pub const ALGORITHM_SOURCES: &[&str] = &[{list}];\n",
        &hex[0..4],
        &hex[4..8],
        &hex[8..12],
        &hex[12..16]
    );
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
