//! Building and running C and C++ programs that use `recorder/c/cspace_record.h`
//! with the system compiler (`$CC` / `$CXX`, default `cc` / `c++`). Shared by
//! `recorder/tests/c_header.rs` and `viewer/tests/c_example.rs`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The language a program is compiled as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// `-std=c99`.
    C99,
    /// `-std=c++17`, sources compiled as C++ whatever their suffix.
    Cxx17,
}

/// The repository root (both test crates sit one folder below it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the repository")
        .to_path_buf()
}

/// The folder holding `cspace_record.h`.
pub fn header_dir() -> PathBuf {
    repo_root().join("recorder/c")
}

/// A fresh, empty scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cspace-c-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

/// The compiler command for `lang`, checked to run; panics naming what to install.
pub fn compiler(lang: Lang) -> String {
    let (var, default, package) = match lang {
        Lang::C99 => (
            "CC",
            "cc",
            "a C compiler (Debian/Ubuntu: apt-get install gcc)",
        ),
        Lang::Cxx17 => (
            "CXX",
            "c++",
            "a C++ compiler (Debian/Ubuntu: apt-get install g++)",
        ),
    };
    let cmd = std::env::var(var)
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| default.to_owned());
    match Command::new(&cmd).arg("--version").output() {
        Ok(out) if out.status.success() => cmd,
        Ok(out) => panic!(
            "the {var} compiler `{cmd}` does not run (`{cmd} --version` exited with {}): \
             these tests build C and C++ with it; install {package} or set {var}",
            out.status
        ),
        Err(e) => panic!(
            "no {var} compiler: running `{cmd}` failed ({e}); these tests build C and C++ \
             programs that use recorder/c/cspace_record.h: install {package} or set {var}"
        ),
    }
}

/// What to build.
pub struct Build<'a> {
    /// The language and standard.
    pub lang: Lang,
    /// Source files (compiled from `cwd`, so relative names become `__FILE__`).
    pub sources: &'a [&'a str],
    /// The folder the compiler runs in.
    pub cwd: &'a Path,
    /// Extra flags (`-DCSPACE_RECORD`, `-O2`, include folders …).
    pub flags: &'a [&'a str],
    /// The executable to write (in `cwd`).
    pub out: &'a str,
}

/// Compiles with `-Wall -Wextra -Werror`; panics with the compiler's output on failure.
pub fn build(b: &Build<'_>) -> PathBuf {
    let cc = compiler(b.lang);
    let mut cmd = Command::new(&cc);
    cmd.current_dir(b.cwd);
    match b.lang {
        Lang::C99 => cmd.arg("-std=c99"),
        Lang::Cxx17 => cmd.args(["-std=c++17", "-x", "c++"]),
    };
    cmd.args(["-Wall", "-Wextra", "-Werror", "-I"])
        .arg(header_dir())
        .args(b.flags)
        .args(b.sources);
    if b.lang == Lang::Cxx17 {
        cmd.args(["-x", "none"]);
    }
    cmd.arg("-o").arg(b.out).arg("-lm");
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {cc} failed: {e}"));
    assert!(
        out.status.success(),
        "compiling {:?} with `{cc}` failed ({}):\n{}{}",
        b.sources,
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    b.cwd.join(b.out)
}

/// Runs `exe` with `args` in its folder; returns its output (not checked).
pub fn run(exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .current_dir(exe.parent().expect("the program sits in a folder"))
        .env_remove("CSPACE_LIVE")
        .env_remove("CSPACE_LIVE_BLOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output()
        .unwrap_or_else(|e| panic!("running {} failed: {e}", exe.display()))
}

/// Runs `exe` and panics with its output unless it exits with 0.
pub fn run_ok(exe: &Path, args: &[&str]) -> String {
    let out = run(exe, args, &[]);
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}):\n{}{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Builds the C GJK example (`examples/c-gjk`) into `dir` as C99 or C++17,
/// recording on, and returns the executable.
pub fn build_c_gjk(lang: Lang, dir: &Path, record: bool) -> PathBuf {
    let example = repo_root().join("examples/c-gjk");
    let main = match lang {
        Lang::C99 => example.join("main.c"),
        Lang::Cxx17 => example.join("main.cpp"),
    };
    let gjk = example.join("gjk.c");
    let (main, gjk) = (main.to_string_lossy(), gjk.to_string_lossy());
    let include = format!("-I{}", example.display());
    let mut flags = vec!["-O1", include.as_str()];
    if record {
        flags.push("-DCSPACE_RECORD");
    }
    let out = match (lang, record) {
        (Lang::C99, true) => "c-gjk",
        (Lang::C99, false) => "c-gjk-off",
        (Lang::Cxx17, true) => "c-gjk-cpp",
        (Lang::Cxx17, false) => "c-gjk-cpp-off",
    };
    build(&Build {
        lang,
        sources: &[&main, &gjk],
        cwd: dir,
        flags: &flags,
        out,
    })
}
