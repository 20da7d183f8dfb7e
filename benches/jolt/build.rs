//! Compiles Jolt Physics 5.0.0 (all of `Jolt/**/*.cpp`) and `shim.cpp` into
//! one static library with the flags of Jolt's own `CMake` build for x86-64
//! (`Build/CMakeLists.txt`, `Jolt/Jolt.cmake`, configuration `Distribution`:
//! `-O3`, AVX2 / FMA / F16C / LZCNT / BMI, no profiler, no debug renderer).
//!
//! Jolt's sources come from `JOLT_DIR` (the folder holding `Jolt/Jolt.h`), or
//! else from the crates.io package `joltc-sys 0.3.1+Jolt-5.0.0` in Cargo's
//! registry cache, which `cargo info joltc-sys@0.3.1+Jolt-5.0.0` downloads.
//! That package's own build (cmake, bindgen) is not used.

use std::env;
use std::path::{Path, PathBuf};

/// The registry package that bundles Jolt 5.0.0.
const PACKAGE: &str = "joltc-sys-0.3.1+Jolt-5.0.0";

/// Whether `dir` holds Jolt's sources.
fn is_jolt(dir: &Path) -> bool {
    dir.join("Jolt").join("Jolt.h").is_file()
}

/// Stops the build with `message` (Cargo shows a build script's stderr).
fn fail(message: &str) -> ! {
    eprintln!("\nerror: {message}\n");
    std::process::exit(1);
}

/// Jolt's source folder: `JOLT_DIR`, or the package in
/// `$CARGO_HOME/registry/src/*/` (`CARGO_HOME` defaults to `~/.cargo`).
fn jolt_dir() -> PathBuf {
    if let Some(dir) = env::var_os("JOLT_DIR") {
        let dir = PathBuf::from(dir);
        if !is_jolt(&dir) {
            fail(&format!(
                "JOLT_DIR={} does not hold Jolt/Jolt.h; point it at Jolt 5.0.0's \
                 JoltPhysics folder, or unset it to use the copy that \
                 `cargo info joltc-sys@0.3.1+Jolt-5.0.0` downloads",
                dir.display()
            ));
        }
        return dir;
    }
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    let mut searched = Vec::new();
    if let Some(home) = cargo_home {
        let src = home.join("registry").join("src");
        searched.push(src.join("*").join(PACKAGE).join("JoltC/JoltPhysics"));
        if let Ok(entries) = std::fs::read_dir(&src) {
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path().join(PACKAGE).join("JoltC").join("JoltPhysics"))
                .filter(|d| is_jolt(d))
                .collect();
            found.sort();
            if let Some(dir) = found.into_iter().next() {
                return dir;
            }
        }
    }
    fail(&format!(
        "Jolt Physics 5.0.0's sources were not found (looked for {}).\n\
         Download them once with:\n\n    cargo info joltc-sys@0.3.1+Jolt-5.0.0\n\n\
         (it unpacks the crates.io package, which bundles Jolt's sources, into \
         Cargo's registry cache), or set JOLT_DIR to a JoltPhysics folder of \
         Jolt 5.0.0 (the one holding Jolt/Jolt.h).",
        searched
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// Every `.cpp` file under `dir`, sorted.
fn cpp_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            cpp_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cpp") {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=shim.cpp");
    println!("cargo:rerun-if-env-changed=JOLT_DIR");
    println!("cargo:rerun-if-env-changed=CARGO_HOME");
    let dir = jolt_dir();
    println!("cargo:rerun-if-changed={}", dir.join("Jolt").display());
    let mut sources = Vec::new();
    cpp_files(&dir.join("Jolt"), &mut sources);
    sources.sort();
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        fail(
            "this benchmark builds Jolt with its x86-64 flags (AVX2, FMA); other targets are not set up",
        );
    }
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(3)
        .warnings(false)
        .include(&dir)
        .files(&sources)
        .file("shim.cpp")
        // Build/CMakeLists.txt for GCC: no fused multiply-add contraction.
        .flag("-ffp-contract=off")
        .flag_if_supported("-Wno-stringop-overflow")
        // Jolt.cmake, x86-64 with its default options (USE_SSE4_1 … USE_AVX2,
        // USE_LZCNT, USE_TZCNT, USE_F16C, USE_FMADD on; AVX512 off).
        .flag("-mavx2")
        .flag("-mbmi")
        .flag("-mpopcnt")
        .flag("-mlzcnt")
        .flag("-mf16c")
        .flag("-mfma")
        .flag("-mfpmath=sse")
        .define("NDEBUG", None)
        .define("JPH_OBJECT_LAYER_BITS", "16");
    for isa in [
        "JPH_USE_AVX2",
        "JPH_USE_AVX",
        "JPH_USE_SSE4_1",
        "JPH_USE_SSE4_2",
        "JPH_USE_LZCNT",
        "JPH_USE_TZCNT",
        "JPH_USE_F16C",
        "JPH_USE_FMADD",
    ] {
        build.define(isa, None);
    }
    build.compile("jolt_shim");
}
