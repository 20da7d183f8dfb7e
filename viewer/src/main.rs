//! `cspace-viewer [PATH]` opens a recording, fixture or folder (the bundled
//! examples without one); `--rerun` re-runs a fixture with the current code,
//! `--sandbox` edits a fixture's query (or a preset) in the sandbox,
//! `--diff A B` compares two recordings, `--listen [ADDR]` waits for live
//! programs; `cspace-viewer --screenshot STEP --out FILE.png PATH` renders one
//! step offscreen.

use cspace_viewer::app::ViewerApp;
use cspace_viewer::state::source::Recent;
use cspace_viewer::state::timeline::Command;
use std::path::PathBuf;
use std::process::ExitCode;

/// Parsed command line.
#[derive(Debug, Default)]
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

const USAGE: &str = "usage: cspace-viewer [--rerun | --sandbox [PRESET]] [PATH]\n       cspace-viewer --diff A B\n       cspace-viewer --listen [ADDR]\n       \
cspace-viewer --screenshot STEP --out FILE.png [--size WxH] [--rerun | --sandbox [PRESET]] [--diff A B | PATH]\n\
PATH is a .cspace recording, a NAME.fixture.json (its NAME.cspace beside it) or a folder of them;\n\
without PATH the bundled examples open. --rerun re-runs the fixture PATH with the current code and\n\
compares the recordings; --sandbox edits the fixture PATH's query (or PRESET, e.g. \"Deep overlap\") in the sandbox;\n\
--diff opens two recordings in lockstep; --listen waits for programs run\n\
with CSPACE_LIVE=ADDR (default 127.0.0.1:7878, loopback).";

fn parse(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args::default();
    let mut it = args.peekable();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--screenshot" => {
                let v = it.next().ok_or("--screenshot needs a step number")?;
                a.screenshot = Some(v.parse().map_err(|_| format!("bad step number {v:?}"))?);
            }
            "--diff" => {
                let x = it.next().ok_or("--diff needs two recordings")?;
                let y = it.next().ok_or("--diff needs two recordings")?;
                a.diff = Some((x.into(), y.into()));
            }
            "--listen" => {
                let addr = it.next_if(|v| v.parse::<std::net::SocketAddr>().is_ok());
                a.listen = Some(
                    addr.unwrap_or_else(|| cspace_viewer::state::live::DEFAULT_ADDR.to_owned()),
                );
            }
            "--rerun" => a.rerun = true,
            "--sandbox" => {
                a.sandbox = true;
                let names = cspace_viewer::state::sandbox::presets();
                a.preset = it.next_if(|v| names.iter().any(|(n, _)| n == v));
            }
            "--out" => a.out = Some(it.next().ok_or("--out needs a file")?.into()),
            "--size" => {
                let v = it.next().ok_or("--size needs WxH")?;
                let (w, h) = v.split_once('x').ok_or("--size needs WxH")?;
                a.size = Some((
                    w.parse().map_err(|_| "bad width")?,
                    h.parse().map_err(|_| "bad height")?,
                ));
            }
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ if a.path.is_none() => a.path = Some(arg.into()),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    if a.screenshot.is_some() != a.out.is_some() {
        return Err("--screenshot and --out go together".into());
    }
    if a.diff.is_some() && a.path.is_some() {
        return Err("--diff takes two recordings instead of PATH".into());
    }
    if a.rerun && a.path.is_none() {
        return Err("--rerun needs a fixture PATH".into());
    }
    Ok(a)
}

/// Applies `--diff`, `--rerun` and `--listen` to a freshly opened viewer.
fn apply(app: &mut ViewerApp, args: &Args) {
    if let Some((a, b)) = &args.diff {
        app.open_diff(a, b);
    }
    if args.rerun && !app.rerun_fixture() && app.message.is_none() {
        app.message = Some("--rerun: the open file is not a fixture that loads".into());
    }
    if args.sandbox {
        if let Some(name) = &args.preset {
            match cspace_viewer::state::sandbox::Sandbox::preset(name) {
                Ok(sb) => app.open_sandbox(sb),
                Err(e) => app.message = Some(e.to_string()),
            }
        } else if app.fixture.is_some() {
            app.fixture_to_sandbox();
        } else {
            app.new_sandbox();
        }
    }
    if let Some(addr) = &args.listen {
        app.listen_addr.clone_from(addr);
        app.listen();
    }
}

fn screenshot(args: &Args, step: u32, out: &std::path::Path) -> Result<(), String> {
    let (w, h) = args.size.unwrap_or((1600.0, 1000.0));
    let mut app = ViewerApp::new(None, args.path.as_deref(), None);
    apply(&mut app, args);
    if let Some(m) = &app.message {
        eprintln!("warning: {m}");
    }
    app.command(Command::SeekStep(step));
    let mut harness = egui_kittest::Harness::builder()
        .with_size(egui::vec2(w, h))
        .allow_missing_glyphs()
        .with_accessibility_check(false)
        .wgpu()
        .build_eframe(|_cc| app);
    harness.run_steps(4);
    let image = harness
        .render()
        .map_err(|e| format!("rendering failed: {e}"))?;
    image
        .save(out)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let app = harness.state();
    println!(
        "{}: {} → {}",
        app.session.title,
        app.session.timeline.status(&app.session.trace),
        out.display()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            if e.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
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

    fn p(s: &[&str]) -> Result<Args, String> {
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
        assert_eq!(p(&["--help"]).unwrap_err(), "");
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
}
