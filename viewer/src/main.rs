//! `cspace-viewer [PATH]` opens a recording, fixture or folder (the bundled
//! examples without one); `--rerun` re-runs a fixture with the current code,
//! `--sandbox` edits a fixture's query (or a preset) in the sandbox,
//! `--diff A B` compares two recordings, `--listen [ADDR]` waits for live
//! programs; `cspace-viewer --screenshot STEP --out FILE.png PATH` renders one
//! step offscreen.

use clap::error::ErrorKind;
use clap::{CommandFactory as _, Parser};
use cspace_viewer::app::{AppError, Mode, Notice, ViewerApp};
use cspace_viewer::state::live;
use cspace_viewer::state::sandbox::{self, Sandbox};
use cspace_viewer::state::source::Recent;
use cspace_viewer::state::timeline::Command;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The command line as clap reads it; [`Cli::into_args`] settles the
/// optional values that may be the PATH instead.
#[derive(Debug, Parser)]
#[command(
    name = "cspace-viewer",
    about = "Step forwards and backwards through recordings of convex collision algorithms",
    after_help = "PATH is a .cspace recording, a NAME.fixture.json (its NAME.cspace beside it) or a folder of them;\n\
without PATH the bundled examples open. --rerun re-runs the fixture PATH with the current code and\n\
compares the recordings; --sandbox edits the fixture PATH's query (or PRESET, e.g. \"Deep overlap\") in the sandbox;\n\
--diff opens two recordings in lockstep; --listen waits for programs run\n\
with CSPACE_LIVE=ADDR (default 127.0.0.1:7878, loopback)."
)]
struct Cli {
    /// A recording, fixture or folder.
    path: Option<PathBuf>,
    /// Re-run the fixture PATH with the current code and compare the recordings.
    #[arg(long)]
    rerun: bool,
    /// Edit the fixture PATH's query, or PRESET, in the sandbox.
    #[arg(long, value_name = "PRESET", num_args = 0..=1)]
    #[allow(clippy::option_option, reason = "clap: absent, alone, or with a value")]
    sandbox: Option<Option<String>>,
    /// Open two recordings in lockstep.
    #[arg(long, num_args = 2, value_names = ["A", "B"])]
    diff: Option<Vec<PathBuf>>,
    /// Wait for programs run with `CSPACE_LIVE=ADDR` (default 127.0.0.1:7878).
    #[arg(long, value_name = "ADDR", num_args = 0..=1)]
    #[allow(clippy::option_option, reason = "clap: absent, alone, or with a value")]
    listen: Option<Option<String>>,
    /// Render step STEP offscreen (with --out) instead of opening a window.
    #[arg(long, value_name = "STEP")]
    screenshot: Option<u32>,
    /// Where --screenshot writes the PNG.
    #[arg(long, value_name = "FILE.png")]
    out: Option<PathBuf>,
    /// The screenshot's size in pixels.
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    size: Option<(f32, f32)>,
}

/// The smallest window (logical points) the layout is made and checked for.
const MIN_WIDTH: f32 = 1024.0;
/// See [`MIN_WIDTH`].
const MIN_HEIGHT: f32 = 640.0;

/// Parsed and checked command line.
#[derive(Debug, Default, PartialEq)]
struct Args {
    path: Option<PathBuf>,
    screenshot: Option<u32>,
    out: Option<PathBuf>,
    size: Option<(f32, f32)>,
    diff: Option<(PathBuf, PathBuf)>,
    listen: Option<String>,
    rerun: bool,
    sandbox: bool,
    preset: Option<String>,
}

/// The largest screenshot side in pixels (the GPU's texture limit).
const MAX_SIDE: f32 = 8192.0;
/// The smallest screenshot (pixels): panels are laid out for
/// [`MIN_WIDTH`] × [`MIN_HEIGHT`], but a thumbnail may be smaller.
const MIN_SHOT: (f32, f32) = (320.0, 200.0);

/// `WxH` as two floats, from [`MIN_SHOT`] up to [`MAX_SIDE`] (outside
/// that the GPU refused the texture with a panic, or there is nothing to see).
fn parse_size(v: &str) -> Result<(f32, f32), String> {
    let (w, h) = v.split_once('x').ok_or("--size needs WxH")?;
    let (w, h): (f32, f32) = (
        w.parse().map_err(|_| "bad width")?,
        h.parse().map_err(|_| "bad height")?,
    );
    let (min_w, min_h) = MIN_SHOT;
    let fits = (min_w..=MAX_SIDE).contains(&w) && (min_h..=MAX_SIDE).contains(&h);
    if !fits {
        return Err(format!(
            "--size {v}: width {min_w}..={MAX_SIDE} and height {min_h}..={MAX_SIDE} pixels"
        ));
    }
    Ok((w, h))
}

/// Whether `v` reads as an attempt at an address, `HOST:PORT` (no path
/// separator, digits after the last colon), rather than a file.
fn looks_like_address(v: &str) -> bool {
    !v.contains(['/', '\\'])
        && v.rsplit_once(':')
            .is_some_and(|(_, port)| !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()))
}

/// Whether `v` reads as a file rather than a preset's name: a path
/// separator or an extension.
fn looks_like_file(v: &str) -> bool {
    v.contains(['/', '\\']) || std::path::Path::new(v).extension().is_some()
}

impl Cli {
    /// The arguments, with `--listen VALUE` that is no address and
    /// `--sandbox VALUE` that is no preset read as the PATH (as in
    /// `--listen x.cspace` or `--sandbox f.fixture.json`), and the
    /// combinations checked.
    fn into_args(self) -> Result<Args, clap::Error> {
        let mut path = self.path;
        let mut take_path = |v: String| -> Result<(), clap::Error> {
            if path.is_some() {
                return Err(usage(
                    ErrorKind::UnknownArgument,
                    format!("unexpected argument {v:?}"),
                ));
            }
            path = Some(v.into());
            Ok(())
        };
        let listen = match self.listen {
            None => None,
            Some(Some(v)) if v.parse::<std::net::SocketAddr>().is_ok() => Some(v),
            Some(Some(v)) if looks_like_address(&v) => {
                return Err(usage(
                    ErrorKind::InvalidValue,
                    format!("--listen {v}: not an address (IP:PORT, e.g. 127.0.0.1:7878)"),
                ));
            }
            Some(v) => {
                if let Some(v) = v {
                    take_path(v)?;
                }
                Some(live::DEFAULT_ADDR.to_owned())
            }
        };
        let names = sandbox::presets();
        let preset = match self.sandbox.clone().flatten() {
            Some(v) if names.iter().any(|(n, _)| *n == v) => Some(v),
            Some(v) if !looks_like_file(&v) => {
                let list: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                return Err(usage(
                    ErrorKind::InvalidValue,
                    format!(
                        "--sandbox {v:?}: no such preset (presets: {})",
                        list.join(", ")
                    ),
                ));
            }
            Some(v) => {
                take_path(v)?;
                None
            }
            None => None,
        };
        let diff = self.diff.map(|d| match <[PathBuf; 2]>::try_from(d) {
            Ok([a, b]) => (a, b),
            Err(_) => unreachable!("clap takes exactly two values"),
        });
        let a = Args {
            path,
            screenshot: self.screenshot,
            out: self.out,
            size: self.size,
            diff,
            listen,
            rerun: self.rerun,
            sandbox: self.sandbox.is_some(),
            preset,
        };
        if a.screenshot.is_some() != a.out.is_some() {
            return Err(usage(
                ErrorKind::MissingRequiredArgument,
                "--screenshot and --out go together",
            ));
        }
        if a.diff.is_some() && a.path.is_some() {
            return Err(usage(
                ErrorKind::ArgumentConflict,
                "--diff takes two recordings instead of PATH",
            ));
        }
        if a.rerun && a.path.is_none() {
            return Err(usage(
                ErrorKind::MissingRequiredArgument,
                "--rerun needs a fixture PATH",
            ));
        }
        Ok(a)
    }
}

/// A usage error with clap's formatting (and usage line).
fn usage(kind: ErrorKind, message: impl std::fmt::Display) -> clap::Error {
    Cli::command().error(kind, message)
}

/// Parses the arguments after the program name.
fn parse(args: impl IntoIterator<Item = String>) -> Result<Args, clap::Error> {
    Cli::try_parse_from(std::iter::once("cspace-viewer".to_owned()).chain(args))?.into_args()
}

/// Applies `--diff`, `--rerun`, `--sandbox` and `--listen` to a freshly opened viewer.
fn apply(app: &mut ViewerApp, args: &Args) {
    if let Some((a, b)) = &args.diff {
        app.open_diff(a, b);
    }
    if args.rerun && !app.rerun_fixture() && app.message.is_none() {
        app.message = Some(Notice::Problem(AppError::RerunWithoutFixture));
    }
    if args.sandbox {
        if let Some(name) = &args.preset {
            match Sandbox::preset(name) {
                Ok(sb) => app.open_sandbox(sb),
                Err(e) => app.message = Some(Notice::Problem(e.into())),
            }
        } else if app.fixture().is_some() {
            app.fixture_to_sandbox();
        } else if args.path.is_some() {
            // Not a preset: the file it named, which did not load as a fixture
            // (its own problem, if any, stays in the banner).
            if app.message.is_none() {
                app.message = Some(Notice::Problem(AppError::SandboxWithoutFixture));
            }
        } else {
            app.new_sandbox();
        }
    }
    if let Some(addr) = &args.listen {
        // Listening alone shows nothing but what arrives (no bundled example).
        if args.path.is_none() && args.diff.is_none() && !args.sandbox {
            app.open_nothing();
        }
        app.listen_addr.clone_from(addr);
        app.listen();
    }
}

/// Why `--screenshot` failed: no image, or an image of an input that is
/// missing, empty, damaged or of a newer format (written with its banner).
#[derive(Debug, thiserror::Error)]
enum ScreenshotError {
    /// The input could not be opened or read in full; the image shows what was.
    #[error("{0} (the image shows what could be read)")]
    Input(String),
    /// The offscreen renderer failed.
    #[error("rendering failed: {0}")]
    Render(String),
    /// The PNG could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The image encoder's or file system's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

fn screenshot(args: &Args, step: u32, out: &Path) -> Result<(), ScreenshotError> {
    let (w, h) = args.size.unwrap_or((1600.0, 1000.0));
    let mut app = ViewerApp::new(None, args.path.as_deref(), None);
    apply(&mut app, args);
    let last = app.session.trace.steps();
    if step > last {
        eprintln!(
            "warning: --screenshot {step}: the recording has {last} steps; rendering step {last}"
        );
    }
    app.command(Command::SeekStep(step));
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(w, h))
        .allow_missing_glyphs()
        .with_accessibility_check(false)
        .wgpu()
        .build_eframe(|_cc| app);
    harness.run_steps(4);
    let image = harness.render().map_err(ScreenshotError::Render)?;
    image.save(out).map_err(|e| ScreenshotError::Write {
        path: out.to_path_buf(),
        source: Box::new(e),
    })?;
    let app = harness.state();
    println!(
        "{}: {} → {}",
        app.session.title,
        app.session.timeline.status(&app.session.trace),
        out.display()
    );
    // Opening failed, or the recording is damaged, empty or newer: say so.
    let damage = app.session.trace.error.as_ref().map(|e| {
        let file = args
            .path
            .as_deref()
            .map_or_else(|| app.session.title.clone(), |p| p.display().to_string());
        format!("{file}: {e}")
    });
    // A diff's other recording is damaged, empty or newer: say so too.
    let other = match &app.mode {
        Mode::Diff {
            b, pair: Some(p), ..
        } => p
            .hidden
            .trace
            .error
            .as_ref()
            .map(|e| format!("{}: {e}", b.display())),
        _ => None,
    };
    match app
        .message
        .as_ref()
        .map(ToString::to_string)
        .or(damage)
        .or(other)
    {
        Some(problem) => Err(ScreenshotError::Input(problem)),
        None => Ok(()),
    }
}

fn main() -> ExitCode {
    let args = parse(std::env::args().skip(1)).unwrap_or_else(|e| e.exit());
    if let (Some(step), Some(out)) = (args.screenshot, args.out.clone()) {
        return match screenshot(&args, step, &out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1600.0, 1000.0])
            // The smallest size every panel is laid out and tested for.
            .with_min_inner_size([MIN_WIDTH, MIN_HEIGHT])
            .with_title("cspace viewer")
            .with_drag_and_drop(true),
        ..Default::default()
    };
    let result = eframe::run_native(
        "cspace-viewer",
        options,
        Box::new(move |cc| {
            let mut app = ViewerApp::new(
                Some(&cc.egui_ctx),
                args.path.as_deref(),
                Recent::default_file(),
            );
            apply(&mut app, &args);
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &[&str]) -> Result<Args, clap::Error> {
        parse(s.iter().map(ToString::to_string))
    }

    #[test]
    fn parses_arguments() {
        let a = p(&["--screenshot", "3", "--out", "x.png", "r.cspace"]).unwrap();
        assert_eq!(
            (a.screenshot, a.out, a.path),
            (Some(3), Some("x.png".into()), Some("r.cspace".into()))
        );
        assert!(p(&["--screenshot", "3"]).is_err());
        assert!(p(&["--bogus"]).is_err());
        assert!(p(&["a", "b"]).is_err());
        assert_eq!(p(&["--help"]).unwrap_err().kind(), ErrorKind::DisplayHelp);
        assert_eq!(
            p(&["--size", "800x600"]).unwrap().size,
            Some((800.0, 600.0))
        );
        let d = p(&["--diff", "a.cspace", "b.cspace"]).unwrap();
        assert_eq!(d.diff, Some(("a.cspace".into(), "b.cspace".into())));
        assert!(p(&["--diff", "a.cspace"]).is_err());
        assert!(p(&["--diff", "a", "b", "c"]).is_err());
        assert_eq!(
            p(&["--listen"]).unwrap().listen.as_deref(),
            Some("127.0.0.1:7878")
        );
        let l = p(&["--listen", "127.0.0.1:9000", "x.cspace"]).unwrap();
        assert_eq!(
            (l.listen.as_deref(), l.path),
            (Some("127.0.0.1:9000"), Some("x.cspace".into()))
        );
        assert!(p(&["--listen", "x.cspace"]).unwrap().path.is_some());
        assert!(p(&["--rerun", "f.fixture.json"]).unwrap().rerun);
        assert!(p(&["--rerun"]).is_err());
        assert!(p(&["--sandbox"]).unwrap().sandbox);
        let s = p(&["--sandbox", "Deep overlap"]).unwrap();
        assert_eq!(s.preset.as_deref(), Some("Deep overlap"));
        assert!(s.path.is_none());
        let s = p(&["--sandbox", "f.fixture.json"]).unwrap();
        assert_eq!((s.preset, s.path), (None, Some("f.fixture.json".into())));
    }

    #[test]
    fn usage_errors_say_what_is_wrong() {
        let message = |args: &[&str]| p(args).unwrap_err().to_string();
        assert!(message(&["--screenshot", "3"]).contains("--screenshot and --out go together"));
        assert!(message(&["--rerun"]).contains("--rerun needs a fixture PATH"));
        assert!(message(&["--diff", "a", "b", "c"]).contains("instead of PATH"));
        assert!(message(&["--size", "800"]).contains("--size needs WxH"));
        assert!(message(&["--size", "wx600"]).contains("bad width"));
        for bad in ["0x0", "NaNxinf", "20000x2000", "1x1"] {
            assert!(message(&["--size", bad]).contains("pixels"), "{bad}");
        }
        assert!(message(&["--listen", "999.1.1.1:99"]).contains("not an address"));
        assert!(message(&["--listen", "notanaddr:80"]).contains("not an address"));
        assert!(message(&["--sandbox", "Deep overlapp"]).contains("no such preset"));
        assert!(message(&["--screenshot", "x", "--out", "o.png"]).contains("STEP"));
        assert!(message(&["--bogus"]).contains("--bogus"));
        assert!(message(&["--listen", "x.cspace", "y.cspace"]).contains("x.cspace"));
        // Flags after an optional value are flags, not its value.
        let a = p(&["--sandbox", "--rerun", "f.fixture.json"]).unwrap();
        assert!(a.sandbox && a.rerun && a.preset.is_none());
        let a = p(&["--rerun", "--listen", "f.fixture.json"]).unwrap();
        assert_eq!(a.path, Some("f.fixture.json".into()));
    }

    /// `--listen` alone shows no bundled example: only what arrives.
    #[test]
    fn listening_alone_opens_nothing_else() {
        let args = p(&["--listen", "127.0.0.1:0"]).unwrap();
        let mut app = ViewerApp::new(None, args.path.as_deref(), None);
        assert_ne!(app.opened(), cspace_viewer::app::Opened::Nothing);
        apply(&mut app, &args);
        assert_eq!(app.opened(), cspace_viewer::app::Opened::Nothing);
        assert!(app.session.trace.is_empty());
        assert!(app.live.is_some(), "listening");
    }
}
