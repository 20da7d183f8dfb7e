//! `cspace-viewer [PATH]` opens a recording, fixture or folder (the bundled
//! examples without one); `cspace-viewer --screenshot STEP --out FILE.png PATH`
//! renders one step offscreen.

use cspace_viewer::app::ViewerApp;
use cspace_viewer::source::Recent;
use cspace_viewer::timeline::Command;
use std::path::PathBuf;
use std::process::ExitCode;

/// Parsed command line.
#[derive(Debug, Default)]
struct Args {
    path: Option<PathBuf>,
    screenshot: Option<u32>,
    out: Option<PathBuf>,
    size: Option<(f32, f32)>,
}

const USAGE: &str = "usage: cspace-viewer [PATH]\n       cspace-viewer --screenshot STEP --out FILE.png [--size WxH] [PATH]\n\
PATH is a .cspace recording, a NAME.fixture.json (its NAME.cspace beside it) or a folder of them;\n\
without PATH the bundled examples open.";

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
    Ok(a)
}

fn screenshot(args: &Args, step: u32, out: &std::path::Path) -> Result<(), String> {
    let (w, h) = args.size.unwrap_or((1600.0, 1000.0));
    let mut app = ViewerApp::new(None, args.path.as_deref(), None);
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
    let path = args.path;
    let result = eframe::run_native(
        "cspace-viewer",
        options,
        Box::new(move |cc| {
            Ok(Box::new(ViewerApp::new(
                Some(&cc.egui_ctx),
                path.as_deref(),
                Recent::default_file(),
            )))
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
    }
}
