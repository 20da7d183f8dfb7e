//! The eframe app: draws a [`Session`] and turns clicks, drags and keys into
//! commands. All state that matters lives in the egui-free modules.

use crate::sandbox_ui::{self, Change};
use crate::state::camera::OrbitCamera;
use crate::state::live::{Live, LiveState};
use crate::state::pair::{Pair, Which};
use crate::state::rerun::{self, Rerun};
use crate::state::sandbox::Sandbox;
use crate::state::scene::{Pick, ShapeMeshes};
use crate::state::session::{Session, View};
use crate::state::source::{self, Recent, Watch};
use crate::state::timeline::Command;
use crate::state::trace::{Entry, Prim, Trace};
use cspace::fixture::Fixture;
use cspace_recorder::Rgba;
use egui::{
    Align2, Color32, FontId, Key, Modifiers, Pos2, Rect, Sense, Shape, Stroke, Vec2, pos2, vec2,
};
use std::path::{Path, PathBuf};

/// What is open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A bundled example (index into [`source::bundled::EXAMPLES`]).
    Example(usize),
    /// The built-in demo recording.
    Demo,
    /// A file on disk (recording or fixture).
    File(PathBuf),
    /// Two recordings compared (`--diff A B`).
    Diff(PathBuf, PathBuf),
    /// A live query (its connection id).
    Live(u64),
    /// The sandbox's query.
    Sandbox,
}

/// An opened folder and its recordings.
#[derive(Debug)]
pub struct Folder {
    /// The folder.
    pub path: PathBuf,
    /// Its recordings and fixtures.
    pub files: Vec<PathBuf>,
    watch: Option<Watch>,
}

/// The viewer application.
pub struct ViewerApp {
    /// The open recording and how it is viewed.
    pub session: Session,
    /// What is open.
    pub opened: Opened,
    /// The open folder, if a folder was opened.
    pub folder: Option<Folder>,
    /// Recently opened paths.
    pub recent: Recent,
    /// The last problem opening something, shown as a banner.
    pub message: Option<String>,
    /// The open fixture, when the open file is one that loads.
    pub fixture: Option<Fixture>,
    /// The open fixture re-run with the current code.
    pub rerun: Option<Rerun>,
    /// The second recording when two are compared (re-run or diff).
    pub pair: Option<Pair>,
    /// The live server and its queries, while listening.
    pub live: Option<Live>,
    /// The sandbox, while a query is being built and edited in the viewer.
    pub sandbox: Option<Sandbox>,
    /// Where "Save…" of a live query proposes to write.
    pub save_dir: PathBuf,
    /// Where "Live → Listen" listens.
    pub listen_addr: String,
    /// A "Next step" on a blocked live query is waiting for its next pause.
    live_step_pending: bool,
    watch: Option<Watch>,
    ctx: Option<egui::Context>,
    open_text: String,
    show_open: bool,
    diff_text: [String; 2],
    show_diff: bool,
    save_text: Option<(u64, String)>,
    scrolled_to: Option<u32>,
}

impl std::fmt::Debug for ViewerApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewerApp")
            .field("opened", &self.opened)
            .field("cursor", &self.session.timeline.cursor())
            .finish_non_exhaustive()
    }
}

/// Default colours.
const COLOR_A: Color32 = Color32::from_rgb(90, 140, 235);
const COLOR_B: Color32 = Color32::from_rgb(240, 150, 60);
const COLOR_CSO: Color32 = Color32::from_rgb(150, 120, 200);
const COLOR_SIMPLEX: Color32 = Color32::from_rgb(235, 70, 60);
const COLOR_DEFAULT: Color32 = Color32::from_rgb(220, 220, 220);
const COLOR_HIGHLIGHT: Color32 = Color32::from_rgb(255, 255, 120);

fn color(c: Option<Rgba>, default: Color32) -> Color32 {
    c.map_or(default, |Rgba([r, g, b, a])| {
        Color32::from_rgba_unmultiplied(r, g, b, a)
    })
}

fn with_alpha(c: Color32, a: u8) -> Color32 {
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), a)
}

impl ViewerApp {
    /// A viewer opening `path` (a recording, fixture or folder), or the bundled
    /// examples (the built-in demo when none were embedded) when `None`.
    /// `recent_file` is where the recent-files list lives (`None`: not persisted).
    #[must_use]
    pub fn new(
        ctx: Option<&egui::Context>,
        path: Option<&Path>,
        recent_file: Option<PathBuf>,
    ) -> Self {
        let mut app = Self {
            session: Session::default(),
            opened: Opened::Demo,
            folder: None,
            recent: Recent::load(recent_file),
            message: None,
            fixture: None,
            rerun: None,
            pair: None,
            live: None,
            sandbox: None,
            save_dir: PathBuf::from("."),
            listen_addr: crate::state::live::DEFAULT_ADDR.to_owned(),
            live_step_pending: false,
            watch: None,
            ctx: ctx.cloned(),
            open_text: String::new(),
            show_open: false,
            diff_text: [String::new(), String::new()],
            show_diff: false,
            save_text: None,
            scrolled_to: None,
        };
        match path {
            Some(p) => app.open_path(p),
            None if !source::bundled::EXAMPLES.is_empty() => app.open_example(0),
            None => app.open_demo(),
        }
        app
    }

    fn wake(&self) -> impl Fn() + Send + 'static {
        let ctx = self.ctx.clone();
        move || {
            if let Some(c) = &ctx {
                c.request_repaint();
            }
        }
    }

    /// Forgets the fixture, its re-run and any comparison (something else opens).
    fn close_extras(&mut self) {
        self.fixture = None;
        self.rerun = None;
        self.pair = None;
        self.sandbox = None;
        self.live_step_pending = false;
    }

    /// Shows `sandbox`: its last run at the first step, cameras framed.
    pub fn open_sandbox(&mut self, sandbox: Sandbox) {
        self.close_extras();
        self.message = None;
        self.session = sandbox.session();
        self.opened = Opened::Sandbox;
        self.watch = None;
        self.sandbox = Some(sandbox);
    }

    /// Opens the sandbox on the first preset. Returns whether it opened.
    pub fn new_sandbox(&mut self) -> bool {
        let Some((name, _)) = crate::state::sandbox::presets().into_iter().next() else {
            return false;
        };
        match Sandbox::preset(name) {
            Ok(sb) => {
                self.open_sandbox(sb);
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    /// Opens the open fixture's query in the sandbox, to edit. Returns
    /// whether a fixture was open and its query runs.
    pub fn fixture_to_sandbox(&mut self) -> bool {
        let Some(f) = &self.fixture else {
            self.message = Some("no fixture is open".to_owned());
            return false;
        };
        match Sandbox::from_fixture(f) {
            Ok(sb) => {
                self.open_sandbox(sb);
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    /// Shows the sandbox's new run after `change`: at the same step (the
    /// last when shorter), the views framed again after a preset.
    pub fn sandbox_changed(&mut self, change: Change) {
        let Some(sb) = &self.sandbox else {
            return;
        };
        if change == Change::None {
            return;
        }
        sb.show_in(&mut self.session);
        if change == Change::Replaced {
            self.session.frame_all(View::Config);
            self.session.frame_all(View::Object);
        }
    }

    /// Opens the built-in demo recording.
    pub fn open_demo(&mut self) {
        self.close_extras();
        self.session = Session::new(
            Trace::from_bytes(&crate::state::demo::recording()),
            "demo: box-sphere distance",
        );
        self.opened = Opened::Demo;
        self.watch = None;
    }

    /// Opens bundled example `i`.
    pub fn open_example(&mut self, i: usize) {
        if let Some((name, bytes)) = source::bundled::EXAMPLES.get(i) {
            self.close_extras();
            self.session = Session::new(Trace::from_bytes(bytes), format!("example: {name}"));
            self.opened = Opened::Example(i);
            self.watch = None;
        }
    }

    /// Opens a recording, fixture or folder; problems become the banner message.
    pub fn open_path(&mut self, path: &Path) {
        self.message = None;
        if path.is_dir() {
            match source::list_folder(path) {
                Ok(files) => {
                    let watch = Watch::new(path, self.wake()).ok();
                    self.recent.add(path);
                    let first = files.first().cloned();
                    self.folder = Some(Folder {
                        path: path.to_path_buf(),
                        files,
                        watch,
                    });
                    if let Some(f) = first {
                        self.open_file(&f);
                    } else {
                        self.session = Session::new(Trace::default(), path.display().to_string());
                        self.message = Some(format!(
                            "{} has no recordings yet; they appear here as they are written",
                            path.display()
                        ));
                    }
                }
                Err(e) => self.message = Some(e.to_string()),
            }
        } else {
            self.open_file(path);
        }
    }

    fn open_file(&mut self, path: &Path) {
        let fixture = self.load_fixture(path);
        match source::load(path) {
            Ok(trace) => {
                self.close_extras();
                self.fixture = fixture;
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                self.session = Session::new(trace, name);
                self.opened = Opened::File(path.to_path_buf());
                self.watch = Watch::new(path, self.wake())
                    .map_err(|e| self.message = Some(e.to_string()))
                    .ok();
                self.recent.add(path);
            }
            Err(e) => {
                if self.message.is_none() {
                    self.message = Some(e.to_string());
                }
            }
        }
    }

    /// Loads `path` as a fixture if it is one: a `NAME.fixture.json`, or a
    /// `NAME.cspace` with one beside it (a folder lists only the recording). A
    /// fixture that does not load is one banner (its message); its recording
    /// still opens when it can be read.
    fn load_fixture(&mut self, path: &Path) -> Option<Fixture> {
        let is_fixture = cspace::fixture::fixture_paths(path).is_ok_and(|(json, _)| {
            json == path || (source::recording_path(path) == path && json.is_file())
        });
        if !is_fixture {
            return None;
        }
        Fixture::load(path)
            .map_err(|e| self.message = Some(e.to_string()))
            .ok()
    }

    /// Re-runs the open fixture's query with the current code and compares the
    /// new recording with the stored one (shown: the new one, at the same step).
    /// Returns whether a fixture was open.
    pub fn rerun_fixture(&mut self) -> bool {
        let Some(fixture) = self.fixture.take() else {
            return false;
        };
        let run = Rerun::run(&fixture);
        let step = self.current_step();
        self.close_pair();
        let title = fixture.path.file_name().map_or_else(
            || fixture.name().to_owned(),
            |n| n.to_string_lossy().into_owned(),
        );
        let (mut shown, mut pair) = Pair::open(
            fixture.recording_bytes(),
            &run.recording,
            ["Stored recording".to_owned(), "New recording".to_owned()],
        );
        shown.title = format!("{title} (stored)");
        pair.hidden.title = format!("{title} (new)");
        shown.command(Command::SeekStep(step));
        pair.follow(&shown);
        pair.show(Which::B, &mut shown);
        self.session = shown;
        self.pair = Some(pair);
        self.rerun = Some(run);
        self.fixture = Some(fixture);
        true
    }

    /// Opens recordings (or fixtures) `a` and `b` side by side in lockstep.
    pub fn open_diff(&mut self, a: &Path, b: &Path) {
        self.message = None;
        let read = |p: &Path| {
            let rec = source::recording_path(p);
            std::fs::read(&rec).map_err(|e| format!("cannot read {}: {e}", rec.display()))
        };
        let (ba, bb) = match (read(a), read(b)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => {
                self.message = Some(e);
                return;
            }
        };
        let name = |p: &Path| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        };
        self.close_extras();
        let (mut shown, mut pair) = Pair::open(
            &ba,
            &bb,
            [format!("A: {}", name(a)), format!("B: {}", name(b))],
        );
        shown.title = format!("diff {} vs {}", name(a), name(b));
        pair.hidden.title.clone_from(&shown.title);
        pair.side_by_side = true;
        self.session = shown;
        self.pair = Some(pair);
        self.opened = Opened::Diff(a.to_path_buf(), b.to_path_buf());
        self.watch = None;
        self.diff_text = [a.display().to_string(), b.display().to_string()];
    }

    /// Ends a comparison, going back to the first recording (the stored one).
    pub fn close_pair(&mut self) {
        if let Some(mut pair) = self.pair.take() {
            pair.show(Which::A, &mut self.session);
        }
    }

    /// The step at the cursor of the shown recording.
    #[must_use]
    pub fn current_step(&self) -> u32 {
        self.session.trace.step_at(self.session.timeline.cursor())
    }

    /// Starts listening for live programs on [`listen_addr`](Self::listen_addr)
    /// (problems become the banner). Returns whether it listens.
    pub fn listen(&mut self) -> bool {
        if self.live.is_some() {
            return true;
        }
        match Live::listen(&self.listen_addr) {
            Ok(live) => {
                self.message = None;
                self.live = Some(live);
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    /// Opens live query `id` in the views.
    pub fn open_live(&mut self, id: u64) {
        let Some(q) = self.live.as_ref().and_then(|l| l.query(id)) else {
            return;
        };
        let trace = q.trace();
        let title = format!("live #{id} from {}", q.peer);
        self.close_extras();
        self.session = Session::new(trace, title);
        self.opened = Opened::Live(id);
        self.watch = None;
    }

    /// Takes the live server's messages and updates the open live query.
    /// Returns whether the shown recording changed.
    pub fn poll_live(&mut self) -> bool {
        let Some(live) = &mut self.live else {
            return false;
        };
        let changed = live.poll();
        let Opened::Live(id) = self.opened else {
            return false;
        };
        if !changed.contains(&id) {
            return false;
        }
        let Some(q) = live.query(id) else {
            return false;
        };
        let at_end = self.session.timeline.cursor() >= self.session.trace.len();
        let trace = q.trace();
        let pending = self.live_step_pending;
        self.session.reload(trace);
        if pending {
            if self.session.trace.steps() > self.current_step() {
                // The program ran on to its next pause: follow it there.
                self.live_step_pending = false;
                self.session.command(Command::NextStep);
            } else {
                // Still on its way: show what it has done so far.
                self.session.command(Command::Last);
            }
        } else if at_end && self.session.trace.steps() == 0 {
            self.session.command(Command::Last);
        }
        true
    }

    /// Writes live query `id` to `path` as a `.cspace` file; problems become the banner.
    pub fn save_live(&mut self, id: u64, path: &Path) -> bool {
        let Some(live) = &self.live else {
            return false;
        };
        match live.save(id, path) {
            Ok(()) => {
                self.message = Some(format!("saved live #{id} to {}", path.display()));
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    /// Reloads the open file if it changed on disk and refreshes the folder list.
    /// Returns whether the recording was reloaded.
    pub fn poll_changes(&mut self) -> bool {
        if let Some(folder) = &mut self.folder
            && folder.watch.as_ref().is_some_and(Watch::changed)
            && let Ok(files) = source::list_folder(&folder.path)
        {
            folder.files = files;
        }
        if self.watch.as_ref().is_some_and(Watch::changed) {
            return self.reload();
        }
        false
    }

    /// Reads the open file again, keeping the cursor at the same step.
    pub fn reload(&mut self) -> bool {
        let Opened::File(path) = &self.opened else {
            return false;
        };
        let path = path.clone();
        match source::load(&path) {
            Ok(trace) => {
                // The stored recording changed: a comparison with it is stale.
                self.close_pair();
                self.rerun = None;
                self.message = None;
                self.fixture = self.load_fixture(&path);
                self.session.reload(trace);
                true
            }
            Err(e) => {
                self.message = Some(e.to_string());
                false
            }
        }
    }

    /// Applies a timeline command (to both recordings of a comparison, in
    /// lockstep). "Next step" at the last pause of a live program blocked
    /// there releases it for one step instead.
    pub fn command(&mut self, command: Command) {
        if command == Command::NextStep
            && let Opened::Live(id) = self.opened
            && let Some(live) = &self.live
            && self.session.timeline.cursor() >= self.session.trace.len()
            && live
                .query(id)
                .is_some_and(crate::state::live::LiveQuery::waiting)
        {
            if live.step(id) {
                self.live_step_pending = true;
            }
            return;
        }
        self.session.command(command);
        if let Some(p) = &mut self.pair {
            p.follow(&self.session);
        }
    }

    fn keys(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let bindings = [
            (Modifiers::SHIFT, Key::ArrowRight, Command::NextEvent),
            (Modifiers::SHIFT, Key::ArrowLeft, Command::PrevEvent),
            (Modifiers::NONE, Key::ArrowRight, Command::NextStep),
            (Modifiers::NONE, Key::ArrowLeft, Command::PrevStep),
            (Modifiers::NONE, Key::Home, Command::First),
            (Modifiers::NONE, Key::End, Command::Last),
            (Modifiers::NONE, Key::Space, Command::TogglePlay),
        ];
        for (mods, key, cmd) in bindings {
            if ctx.input_mut(|i| i.consume_key(mods, key)) {
                self.command(cmd);
            }
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            let buttons = [
                ("First", Command::First, "Home"),
                (
                    "Prev step",
                    Command::PrevStep,
                    "Left arrow: just after the previous pause",
                ),
                ("Prev event", Command::PrevEvent, "Shift+Left arrow"),
                (
                    "Step over",
                    Command::StepOver,
                    "next event, over a whole push…pop scope",
                ),
                ("Step into", Command::StepInto, "next event, into scopes"),
                (
                    "Step out",
                    Command::StepOut,
                    "just after the pop closing the current scope",
                ),
                ("Next event", Command::NextEvent, "Shift+Right arrow"),
                (
                    "Next step",
                    Command::NextStep,
                    "Right arrow: just after the next pause",
                ),
                ("Last", Command::Last, "End"),
            ];
            for (label, cmd, tip) in buttons {
                if ui.button(label).on_hover_text(tip).clicked() {
                    self.command(cmd);
                }
            }
            let play = if self.session.timeline.playing() {
                "Pause"
            } else {
                "Play"
            };
            if ui.button(play).on_hover_text("Space").clicked() {
                self.command(Command::TogglePlay);
            }
            ui.add(
                egui::Slider::new(&mut self.session.timeline.speed, 0.25..=200.0)
                    .logarithmic(true)
                    .text("steps/s"),
            );
            ui.separator();
            ui.strong(self.session.timeline.status(&self.session.trace));
            if let Some(e) = self.session.timeline.current_event() {
                ui.label(self.session.trace.describe(e));
            }
        });
    }

    fn menu(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…").clicked() {
                    self.show_open = true;
                    ui.close();
                }
                if matches!(self.opened, Opened::File(_)) && ui.button("Reload").clicked() {
                    self.reload();
                    ui.close();
                }
                if ui.button("Diff two recordings…").clicked() {
                    if self.diff_text[0].is_empty()
                        && let Opened::File(p) = &self.opened
                    {
                        self.diff_text[0] = p.display().to_string();
                    }
                    self.show_diff = true;
                    ui.close();
                }
                ui.menu_button("Recent", |ui| {
                    if self.recent.paths.is_empty() {
                        ui.weak("(none yet)");
                    }
                    for p in self.recent.paths.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            self.open_path(&p);
                            ui.close();
                        }
                    }
                });
                ui.menu_button("Examples", |ui| {
                    for (i, (name, _)) in source::bundled::EXAMPLES.iter().enumerate() {
                        if ui.button(*name).clicked() {
                            self.open_example(i);
                            ui.close();
                        }
                    }
                    if ui.button("demo: box-sphere distance").clicked() {
                        self.open_demo();
                        ui.close();
                    }
                });
            });
            ui.menu_button("Sandbox", |ui| {
                if ui
                    .button("New sandbox")
                    .on_hover_text("build a query: shapes, poses, query, algorithm, precision")
                    .clicked()
                {
                    self.new_sandbox();
                    ui.close();
                }
                if ui
                    .add_enabled(
                        self.fixture.is_some(),
                        egui::Button::new("Open fixture in sandbox"),
                    )
                    .on_disabled_hover_text("open a fixture first")
                    .clicked()
                {
                    self.fixture_to_sandbox();
                    ui.close();
                }
                if self.sandbox.is_some() && ui.button("Close sandbox").clicked() {
                    self.sandbox = None;
                    ui.close();
                }
            });
            ui.menu_button("Live", |ui| {
                if let Some(live) = &self.live {
                    ui.label(format!("listening on {}", live.addr()));
                } else {
                    ui.horizontal(|ui| {
                        let label = ui.label("Address");
                        ui.text_edit_singleline(&mut self.listen_addr)
                            .labelled_by(label.id);
                    });
                    if ui.button("Listen").clicked() {
                        self.listen();
                        ui.close();
                    }
                }
            });
            ui.label(format!("— {}", self.session.title));
        });
    }

    fn open_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_open;
        let mut chosen = None;
        egui::Window::new("Open").open(&mut open).show(ctx, |ui| {
            ui.label("A .cspace recording, a NAME.fixture.json, or a folder of them (or drop a file on the window):");
            let r = ui
                .horizontal(|ui| {
                    let label = ui.label("Path");
                    ui.text_edit_singleline(&mut self.open_text).labelled_by(label.id)
                })
                .inner;
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            if ui.button("Open path").clicked() || enter {
                chosen = Some(PathBuf::from(self.open_text.trim()));
            }
            // Browse the folder typed so far.
            let dir = PathBuf::from(self.open_text.trim());
            let dir = if dir.is_dir() { dir } else { dir.parent().map(Path::to_path_buf).unwrap_or_default() };
            if let Ok(rd) = std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { &dir }) {
                let mut entries: Vec<PathBuf> = rd
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.is_dir() || source::is_openable(p))
                    .collect();
                entries.sort();
                egui::ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
                    for p in entries.into_iter().take(500) {
                        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                        let label = if p.is_dir() { format!("{name}/") } else { name };
                        if ui.selectable_label(false, label).clicked() {
                            self.open_text = p.display().to_string();
                            if !p.is_dir() {
                                chosen = Some(p);
                            }
                        }
                    }
                });
            }
        });
        if let Some(p) = chosen {
            self.open_path(&p);
            open = false;
        }
        self.show_open = open;
    }

    fn banner(&self, ui: &mut egui::Ui) {
        let t = &self.session.trace;
        if let Some(e) = &t.error {
            let text = format!(
                "Damaged recording: {e}. Showing the {} events in the first {} bytes (up to byte offset {}).",
                t.len(),
                t.valid_len,
                e.offset()
            );
            ui.colored_label(Color32::from_rgb(255, 120, 100), text);
        }
        if let Some(m) = &self.message {
            ui.colored_label(Color32::from_rgb(255, 200, 90), m.as_str());
        }
    }

    #[allow(clippy::cast_sign_loss)] // pixel columns and positions are non-negative
    fn timeline_bar(&mut self, ui: &mut egui::Ui) {
        let trace = &self.session.trace;
        let n = trace.len();
        let mut c = self.session.timeline.cursor();
        // Where the compared recordings first diverge, marked on the rail.
        let divergent = self
            .pair
            .as_ref()
            .and_then(|p| p.divergence.as_ref())
            .map(|d| crate::state::pair::event_of_index(trace, d.index).map_or(n, |e| e + 1));
        ui.horizontal(|ui| {
            ui.spacing_mut().slider_width = (ui.available_width() - 150.0).max(50.0);
            let r = ui.add(
                egui::Slider::new(&mut c, 0..=n)
                    .show_value(true)
                    .text("event"),
            );
            // Ticks at pauses below the slider rail, at most one per pixel.
            let rail = r.rect;
            let width = ui.spacing().slider_width;
            let x0 = rail.left() + 6.0;
            let w = width - 12.0;
            let painter = ui.painter();
            if n > 0 && w > 0.0 {
                let stroke = Stroke::new(1.0, Color32::from_rgb(250, 200, 80));
                let tick = |x: f32| {
                    painter.line_segment(
                        [pos2(x, rail.bottom() - 3.0), pos2(x, rail.bottom())],
                        stroke,
                    );
                };
                let x_of = |cursor: u32| x0 + (f64::from(cursor) / f64::from(n)) as f32 * w;
                if let Some(d) = divergent {
                    let x = x_of(d);
                    painter.line_segment(
                        [pos2(x, rail.top()), pos2(x, rail.bottom())],
                        Stroke::new(2.0, Color32::from_rgb(255, 90, 70)),
                    );
                }
                if trace.pauses.len() <= 4 * w as usize {
                    // Few pauses: one tick at each, at the cursor position just after it.
                    let mut last = f32::NEG_INFINITY;
                    for &p in &trace.pauses {
                        let x = x_of(p + 1);
                        if x - last >= 1.0 {
                            tick(x);
                            last = x;
                        }
                    }
                } else {
                    // Many: one tick per pixel column that holds a pause.
                    let cols = w as u32;
                    for col in 0..cols {
                        let lo = (u64::from(col) * u64::from(n) / u64::from(cols)) as u32;
                        let hi = (u64::from(col + 1) * u64::from(n) / u64::from(cols)) as u32;
                        let a = trace.pauses.partition_point(|&p| p + 1 < lo);
                        if trace.pauses.get(a).is_some_and(|&p| p < hi) {
                            tick(x0 + col as f32);
                        }
                    }
                }
            }
        });
        if c != self.session.timeline.cursor() {
            self.command(Command::Seek(c));
        }
    }

    fn plots(&self, ui: &mut egui::Ui) {
        let trace = &self.session.trace;
        if trace.series.is_empty() {
            ui.weak("no value! series recorded");
            return;
        }
        let step = f64::from(trace.step_at(self.session.timeline.cursor()));
        egui::ScrollArea::vertical()
            .id_salt("plots")
            .show(ui, |ui| {
                let per_row = trace.series.len().min(3);
                let width = (ui.available_width() / per_row as f32 - 10.0).max(150.0);
                for (row, chunk) in trace.series.chunks(per_row).enumerate() {
                    ui.horizontal(|ui| {
                        for (j, s) in chunk.iter().enumerate() {
                            let i = row * per_row + j;
                            ui.vertical(|ui| {
                                ui.set_width(width);
                                ui.label(&s.name);
                                // At most ~4000 points per line: decimate long series.
                                let stride = (s.points.len() / 4000).max(1);
                                let pts: Vec<[f64; 2]> = s
                                    .points
                                    .iter()
                                    .step_by(stride)
                                    .filter(|p| p[1].is_finite())
                                    .copied()
                                    .collect();
                                egui_plot::Plot::new(("plot", i))
                                    .height(110.0)
                                    .width(width)
                                    .allow_scroll(false)
                                    .show(ui, |p| {
                                        if pts.len() < 60 {
                                            p.points(
                                                egui_plot::Points::new(s.name.clone(), pts.clone())
                                                    .radius(2.5),
                                            );
                                        }
                                        p.line(egui_plot::Line::new(s.name.clone(), pts));
                                        p.vline(
                                            egui_plot::VLine::new("step", step)
                                                .color(Color32::from_rgb(250, 200, 80)),
                                        );
                                    });
                            });
                        }
                    });
                }
            });
    }

    fn log(&mut self, ui: &mut egui::Ui) {
        let trace = &self.session.trace;
        let current = trace.log_row_at(self.session.timeline.cursor());
        let row_h = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::both()
            .id_salt("log")
            .auto_shrink([false, false]);
        let c = self.session.timeline.cursor();
        if self.scrolled_to != Some(c) {
            self.scrolled_to = Some(c);
            if let Some(row) = current {
                let h = ui.available_height();
                area = area.vertical_scroll_offset((row as f32 * row_h - h * 0.5).max(0.0));
            }
        }
        let mut jump = None;
        area.show_rows(ui, row_h, trace.log.len(), |ui, range| {
            for r in range {
                let row = trace.log[r];
                let site = trace.site_of(row.event);
                let loc = site.map_or_else(String::new, |s| format!("{}:{}", s.file, s.line));
                ui.horizontal(|ui| {
                    ui.add_space(f32::from(row.depth.min(40)) * 14.0);
                    let text = trace.describe(row.event);
                    let text = if Some(r) == current {
                        egui::RichText::new(text).strong()
                    } else {
                        egui::RichText::new(text)
                    };
                    if ui
                        .selectable_label(Some(r) == current, text)
                        .on_hover_text(format!(
                            "event {} at byte {} — {loc}",
                            row.event, trace.offsets[row.event as usize]
                        ))
                        .clicked()
                    {
                        jump = Some(row.event);
                    }
                    ui.weak(loc);
                });
            }
        });
        if let Some(e) = jump {
            self.command(Command::JumpToEvent(e));
        }
    }

    fn fixture_panel(&mut self, ui: &mut egui::Ui) {
        let Some(f) = &self.fixture else {
            return;
        };
        ui.strong(format!("Fixture {}", f.name()));
        if let Some(failure) = &f.file.failure {
            ui.label(format!("failed when written: {failure}"));
        }
        ui.label(format!(
            "expect: {}",
            match f.file.expect {
                cspace::fixture::Expect::Pass => "pass",
                cspace::fixture::Expect::KnownFailure => "known failure",
            }
        ));
        ui.label(format!("stored answer: {}", rerun::stored_answer(f)));
        let mut run = false;
        if ui
            .button("Re-run with current code")
            .on_hover_text("re-run the query with recording on and compare the recordings")
            .clicked()
        {
            run = true;
        }
        let mut edit = false;
        if ui
            .button("Edit in sandbox")
            .on_hover_text("edit this fixture's query: shapes, poses, algorithm, precision")
            .clicked()
        {
            edit = true;
        }
        if let Some(r) = &self.rerun {
            match &r.answer {
                Ok(a) => ui.label(format!("new answer: {a}")),
                Err(e) => {
                    ui.colored_label(Color32::from_rgb(255, 120, 100), format!("new run: {e}"))
                }
            };
            let colour = if r.as_expected {
                Color32::from_rgb(120, 220, 120)
            } else {
                Color32::from_rgb(255, 120, 100)
            };
            ui.colored_label(colour, r.verdict(f.file.expect));
            ui.label(if r.identical {
                "new recording: bit-identical to the stored one"
            } else if f.same_revision() {
                "new recording differs with the same algorithm revision: nondeterminism"
            } else {
                "new recording differs (the algorithm code changed since it was stored)"
            });
        }
        ui.separator();
        if run {
            self.rerun_fixture();
        }
        if edit {
            self.fixture_to_sandbox();
        }
    }

    fn pair_bar(&mut self, ui: &mut egui::Ui) {
        let Some(pair) = &mut self.pair else {
            return;
        };
        let mut close = false;
        ui.horizontal_wrapped(|ui| {
            for which in [Which::A, Which::B] {
                let name = pair.names[which as usize].clone();
                if ui.selectable_label(pair.showing == which, name).clicked() {
                    pair.show(which, &mut self.session);
                }
            }
            ui.separator();
            if pair.divergence.is_some() {
                if ui
                    .button("Jump to divergence")
                    .on_hover_text("both recordings just after their first differing event")
                    .clicked()
                {
                    pair.jump_to_divergence(&mut self.session);
                }
                ui.colored_label(Color32::from_rgb(255, 170, 90), pair.summary());
            } else {
                ui.colored_label(Color32::from_rgb(120, 220, 120), pair.summary());
            }
            ui.separator();
            let other = &pair.hidden;
            ui.weak(format!(
                "{}: {}",
                pair.names[1 - pair.showing as usize],
                other.timeline.status(&other.trace)
            ));
            if ui.button("Close comparison").clicked() {
                close = true;
            }
        });
        if close {
            self.close_pair();
            if matches!(self.opened, Opened::Diff(..)) {
                self.session.title = self.pair_title_a();
            }
        }
    }

    fn pair_title_a(&self) -> String {
        match &self.opened {
            Opened::Diff(a, _) => a.display().to_string(),
            _ => self.session.title.clone(),
        }
    }

    fn live_panel(&mut self, ui: &mut egui::Ui) {
        let Some(live) = &self.live else {
            return;
        };
        ui.strong(format!("Live on {}", live.addr()));
        if live.queries.is_empty() {
            ui.weak(format!(
                "waiting: run a program with CSPACE_LIVE={} (CSPACE_LIVE_BLOCK=1 to step it from here)",
                live.addr()
            ));
        }
        let mut open = None;
        let mut save = None;
        for q in live.queries.iter().rev() {
            let selected = self.opened == Opened::Live(q.id);
            ui.horizontal_wrapped(|ui| {
                let text = q.describe();
                let text = if matches!(q.state, LiveState::Failed(_)) {
                    egui::RichText::new(text).color(Color32::from_rgb(255, 120, 100))
                } else {
                    egui::RichText::new(text)
                };
                if ui.selectable_label(selected, text).clicked() {
                    open = Some(q.id);
                }
                if ui.small_button("Save…").clicked() {
                    save = Some(q.id);
                }
            });
        }
        ui.separator();
        if let Some(id) = open {
            self.open_live(id);
        }
        if let Some(id) = save {
            let file = self.save_dir.join(format!("live-{id}.cspace"));
            self.save_text = Some((id, file.display().to_string()));
        }
    }

    fn save_window(&mut self, ctx: &egui::Context) {
        let Some((id, mut text)) = self.save_text.take() else {
            return;
        };
        let mut open = true;
        let mut save = false;
        egui::Window::new(format!("Save live #{id}"))
            .open(&mut open)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label("File");
                    ui.text_edit_singleline(&mut text).labelled_by(label.id);
                });
                save = ui.button("Save").clicked();
            });
        if save {
            let path = PathBuf::from(text.trim());
            self.save_live(id, &path);
        } else if open {
            self.save_text = Some((id, text));
        }
    }

    fn diff_window(&mut self, ctx: &egui::Context) {
        let mut open = self.show_diff;
        let mut go = false;
        egui::Window::new("Diff two recordings")
            .open(&mut open)
            .show(ctx, |ui| {
                ui.label("Two .cspace recordings (or fixtures), stepped in lockstep by pause:");
                for (i, name) in ["A", "B"].into_iter().enumerate() {
                    ui.horizontal(|ui| {
                        let label = ui.label(name);
                        ui.text_edit_singleline(&mut self.diff_text[i])
                            .labelled_by(label.id);
                    });
                }
                go = ui.button("Open diff").clicked();
            });
        if go {
            let [a, b] = self.diff_text.clone().map(|t| PathBuf::from(t.trim()));
            self.open_diff(&a, &b);
            open = false;
        }
        self.show_diff = open;
    }

    fn files(&mut self, ui: &mut egui::Ui) {
        let mut open = None;
        if let Some(folder) = &self.folder {
            ui.strong(format!("{}/", folder.path.display()));
            for f in &folder.files {
                let name = f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let selected = self.opened == Opened::File(f.clone());
                if ui.selectable_label(selected, name).clicked() {
                    open = Some(f.clone());
                }
            }
            ui.separator();
        }
        if let Some(f) = open {
            self.open_file(&f);
        }
    }

    fn inspector(&mut self, ui: &mut egui::Ui) {
        let s = &self.session;
        ui.heading("Inspector");
        if let Some(e) = s.timeline.current_event() {
            ui.label(format!("current event {e}: {}", s.trace.describe(e)));
            if let Some(site) = s.trace.site_of(e) {
                ui.weak(format!("{}:{}", site.file, site.line));
            }
        }
        ui.label(format!(
            "visible: {} config, {} object, {} simplices",
            s.visible.config.len(),
            s.visible.object.len(),
            s.visible.simplices.len()
        ));
        ui.separator();
        let lines = s.selection.describe(&s.trace);
        if lines.is_empty() {
            ui.weak("Hover a point to inspect it; click up to two points to compare them in ULPs.");
        }
        for l in lines {
            ui.monospace(l);
        }
        if (s.selection.first.is_some() || s.selection.second.is_some())
            && ui.button("Clear selection").clicked()
        {
            self.session.selection.first = None;
            self.session.selection.second = None;
        }
    }

    /// Draws the two 3D views side by side (with their Frame all / Link views row).
    pub fn views(&mut self, ui: &mut egui::Ui) {
        let full = ui.available_size();
        ui.horizontal(|ui| {
            if ui.button("Frame all").clicked() {
                self.session.frame_all(View::Config);
                self.session.frame_all(View::Object);
            }
            ui.checkbox(&mut self.session.linked, "Link views");
            if let Some(p) = &mut self.pair {
                ui.checkbox(&mut p.side_by_side, "Side by side").on_hover_text(
                    "the other recording's configuration space on the right, same camera",
                );
            }
            ui.weak("(?)").on_hover_text(
                "drag: orbit · right/middle or shift drag: pan · scroll: zoom · double-click: frame all · click: select (two for ULPs) · sandbox (object space): Ctrl+drag moves B, Alt+drag moves A, Ctrl+Shift+drag moves a sweep's motion",
            );
        });
        let avail = vec2(full.x, ui.available_height());
        let w = (avail.x - ui.spacing().item_spacing.x) / 2.0;
        let mut hovered = None;
        let size = vec2(w.max(10.0), avail.y.max(10.0));
        let side_by_side = self.pair.as_ref().is_some_and(|p| p.side_by_side);
        ui.horizontal(|ui| {
            if let Some(h) = self.view_ui(ui, View::Config, size) {
                hovered = Some(h);
            }
            if side_by_side {
                self.other_view(ui, size);
            } else if let Some(h) = self.view_ui(ui, View::Object, size) {
                hovered = Some(h);
            }
        });
        self.session.selection.hovered = hovered;
    }

    /// Draws the configuration space of the recording not shown, through the
    /// shown configuration-space camera (orbit the left view to turn both).
    fn other_view(&mut self, ui: &mut egui::Ui, size: Vec2) {
        let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
        let Some(pair) = &mut self.pair else {
            return;
        };
        let config = View::Config as usize;
        pair.hidden.cameras[config] = self.session.cameras[config];
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, Color32::from_gray(22));
        let other = 1 - pair.showing as usize;
        painter.text(
            rect.left_top() + vec2(8.0, 6.0),
            Align2::LEFT_TOP,
            format!("configuration space  A − B · {}", pair.names[other]),
            FontId::proportional(14.0),
            Color32::GRAY,
        );
        let frame = build_frame(&mut pair.hidden, View::Config, rect);
        painter.extend(frame.shapes);
        for (pos, text, color) in frame.labels {
            painter.text(
                pos,
                Align2::LEFT_TOP,
                text,
                FontId::proportional(11.0),
                color,
            );
        }
    }

    /// Draws one 3D view; returns the pick under the mouse.
    fn view_ui(&mut self, ui: &mut egui::Ui, view: View, size: Vec2) -> Option<Pick> {
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        let aspect = f64::from(rect.width() / rect.height().max(1.0));
        if (self.session.aspect[view as usize] - aspect).abs() > 1e-3 {
            // First layout (or a resize): frame again for the real shape of the view.
            let first = self.session.aspect[view as usize] == 0.7;
            self.session.aspect[view as usize] = aspect;
            if first {
                self.session.frame_all(view);
            }
        }
        let height = rect.height();
        // In the sandbox, in object space: Ctrl+drag moves B, Alt+drag moves
        // A, Ctrl+Shift+drag moves the tip of a sweep's motion.
        let mods = ui.input(|i| i.modifiers);
        let grab = match (view, mods.command, mods.shift, mods.alt) {
            (View::Object, true, true, _) => Some(None),
            (View::Object, true, false, _) => Some(Some(crate::state::sandbox::Side::B)),
            (View::Object, false, false, true) => Some(Some(crate::state::sandbox::Side::A)),
            _ => None,
        };
        if let (Some(target), Some(sb)) = (grab, &mut self.sandbox)
            && response.dragged_by(egui::PointerButton::Primary)
        {
            let d = response.drag_delta();
            let delta = self.session.cameras[view as usize]
                .drag_delta(d.x, d.y, height)
                .to_array();
            let ran = match target {
                Some(side) => sb.move_by(side, delta),
                None => sb.move_motion(delta),
            };
            if ran {
                sb.show_in(&mut self.session);
            }
        } else if response.dragged_by(egui::PointerButton::Primary)
            && !ui.input(|i| i.modifiers.shift)
        {
            let d = response.drag_delta();
            self.session.orbit(view, d.x, d.y);
        } else if response.dragged_by(egui::PointerButton::Secondary)
            || response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Primary)
        {
            let d = response.drag_delta();
            self.session.pan(view, d.x, d.y, height);
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.session.zoom(view, (scroll * 0.003).exp());
            }
        }
        if response.double_clicked() {
            self.session.frame_all(view);
        }
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 4.0, Color32::from_gray(22));
        let mut title = match view {
            View::Config => "configuration space  A − B",
            View::Object => "object space  A, B",
        }
        .to_owned();
        if let (View::Config, Some(p)) = (view, &self.pair) {
            title = format!("{title} · {}", p.names[p.showing as usize]);
        }
        painter.text(
            rect.left_top() + vec2(8.0, 6.0),
            Align2::LEFT_TOP,
            title,
            FontId::proportional(14.0),
            Color32::GRAY,
        );
        let frame = build_frame(&mut self.session, view, rect);
        painter.extend(frame.shapes);
        for (pos, text, color) in frame.labels {
            painter.text(
                pos,
                Align2::LEFT_TOP,
                text,
                FontId::proportional(11.0),
                color,
            );
        }
        let hover = response.hover_pos().and_then(|m| {
            frame
                .picks
                .iter()
                .map(|(p, pos)| (*p, pos.distance(m)))
                .filter(|(_, d)| *d < 10.0)
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(p, _)| p)
        });
        if response.clicked()
            && let Some(p) = hover
        {
            self.session.selection.click(p);
        }
        if let Some(p) = hover {
            response.on_hover_text(p.name(&self.session.trace));
        }
        hover
    }
}

/// The shapes of one view, depth-sorted, and the pickable points on screen.
#[derive(Default)]
pub struct Frame {
    /// What to paint, back to front.
    pub shapes: Vec<Shape>,
    /// Pickable points and their screen positions.
    pub picks: Vec<(Pick, Pos2)>,
    /// Text labels, painted on top.
    pub labels: Vec<(Pos2, String, Color32)>,
}

/// Builds the painted shapes for `view` in `rect` (no egui state involved, so
/// the benchmark can time it).
#[allow(clippy::too_many_lines, clippy::cast_sign_loss)] // one pass over every kind of item
pub fn build_frame(session: &mut Session, view: View, rect: Rect) -> Frame {
    let cam: OrbitCamera = session.cameras[view as usize];
    let (w, h) = (rect.width(), rect.height());
    let projector = cam.projector(w, h);
    let project = |p: [f64; 3]| {
        projector
            .project(p)
            .map(|q| (pos2(rect.left() + q.x, rect.top() + q.y), q.depth))
    };
    // Meshes first (depth-sorted among themselves), then the recorded items on
    // top, so a simplex on the surface of A − B is never hidden by it.
    let mut mesh_items: Vec<(f64, [Pos2; 3], Color32)> = Vec::new();
    let mut items: Vec<(f64, Shape)> = Vec::new();
    let mut picks = Vec::new();
    let mut labels = Vec::new();
    let hovered_vertex = session.selection.hovered_simplex_vertex(&session.trace);
    let selected: Vec<Pick> = [session.selection.first, session.selection.second]
        .into_iter()
        .flatten()
        .collect();

    // Shapes.
    if let Some(Entry::Shapes(k)) = session
        .visible
        .shapes
        .and_then(|e| session.trace.entries.get(e as usize))
        .copied()
    {
        let meshes: &ShapeMeshes = session.meshes.get(&session.trace, k);
        let motion = session
            .trace
            .shapes
            .get(k as usize)
            .and_then(|s| s.motion)
            .map(glam::DVec3::from);
        let mut ghost = None;
        if let (View::Object, Some(m)) = (view, motion) {
            // A at the end of its sweep, faint, and the motion as a line.
            let mut moved = meshes.a.clone();
            for v in &mut moved.vertices {
                *v += m;
            }
            moved.centre += m;
            ghost = Some(moved);
            if let (Some((p, d)), Some((q, _))) = (
                project(meshes.a.centre.to_array()),
                project((meshes.a.centre + m).to_array()),
            ) {
                items.push((
                    d,
                    Shape::line_segment([p, q], Stroke::new(1.5, COLOR_HIGHLIGHT)),
                ));
                labels.push((q + vec2(6.0, 0.0), "A + motion".to_owned(), COLOR_HIGHLIGHT));
            }
        }
        let mut list = match view {
            View::Config => vec![(&meshes.cso, COLOR_CSO)],
            View::Object => vec![(&meshes.a, COLOR_A), (&meshes.b, COLOR_B)],
        };
        if let Some(g) = &ghost {
            list.push((g, with_alpha(COLOR_A, 90)));
        }
        let eye = cam.eye();
        let light = (cam.eye() - cam.target).normalize_or_zero();
        for (mesh, base) in list {
            // Polytopes (few triangles) also get their edges, so a thin box
            // still shows as a line and the faces read as a solid.
            if mesh.triangles.len() <= 400 {
                let edge = Stroke::new(1.0, with_alpha(base, 110));
                for &t in &mesh.triangles {
                    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                        let (u, v) = (t[i], t[j]);
                        if u < v
                            && let (Some((p, dp)), Some((q, dq))) = (
                                project(mesh.vertices[u as usize].to_array()),
                                project(mesh.vertices[v as usize].to_array()),
                            )
                        {
                            items.push((
                                f64::midpoint(dp, dq) + 1e9,
                                Shape::line_segment([p, q], edge),
                            ));
                        }
                    }
                }
            }
            for &t in &mesh.triangles {
                let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
                let n = mesh.normal(t);
                let centre = (a + b + c) / 3.0;
                if n.dot(eye - centre) <= 0.0 {
                    continue; // back face
                }
                let (Some((pa, da)), Some((pb, db)), Some((pc, dc))) = (
                    project(a.to_array()),
                    project(b.to_array()),
                    project(c.to_array()),
                ) else {
                    continue;
                };
                let shade = 0.35 + 0.65 * n.dot(light).abs() as f32;
                let fill = Color32::from_rgba_unmultiplied(
                    (f32::from(base.r()) * shade) as u8,
                    (f32::from(base.g()) * shade) as u8,
                    (f32::from(base.b()) * shade) as u8,
                    base.a().min(150),
                );
                mesh_items.push(((da + db + dc) / 3.0, [pa, pb, pc], fill));
            }
        }
    }

    // Origin axes in configuration space.
    if view == View::Config {
        let s = cam.distance * 0.08;
        let axes = [
            ([s, 0.0, 0.0], Color32::from_rgb(230, 80, 80)),
            ([0.0, s, 0.0], Color32::from_rgb(80, 200, 80)),
            ([0.0, 0.0, s], Color32::from_rgb(90, 130, 240)),
        ];
        if let Some((o, d)) = project([0.0; 3]) {
            for (tip, c) in axes {
                if let Some((t, _)) = project(tip) {
                    items.push((d, Shape::line_segment([o, t], Stroke::new(1.5, c))));
                }
            }
            items.push((d - 1e-9, Shape::circle_filled(o, 3.5, Color32::WHITE)));
            labels.push((o + vec2(5.0, 2.0), "O".to_owned(), Color32::WHITE));
        }
    }

    // Recorded drawables.
    let list = match view {
        View::Config => &session.visible.config,
        View::Object => &session.visible.object,
    };
    let default = if view == View::Config {
        COLOR_DEFAULT
    } else {
        Color32::from_rgb(180, 220, 255)
    };
    let show_labels = list.len() <= 200;
    // Many drawables: points become quads of one mesh, drawn in recording
    // order without depth sorting, so 100 k of them fit in a frame.
    let bulk = list.len() > 2000;
    let mut points = egui::epaint::Mesh::default();
    for &e in list {
        let Some(Entry::Draw(k)) = session.trace.entries.get(e as usize) else {
            continue;
        };
        let Some(d) = session.trace.drawables.get(*k as usize) else {
            continue;
        };
        let col = color(d.color, default);
        let label = if show_labels {
            session.trace.site(d.site).label.as_str()
        } else {
            ""
        };
        match d.prim {
            Prim::Point(p) => {
                if let Some((q, depth)) = project(p.to_f64()) {
                    let pick = Pick {
                        event: e,
                        vertex: 0,
                    };
                    let r = if selected.contains(&pick) { 6.0 } else { 4.0 };
                    if bulk {
                        points.add_colored_rect(Rect::from_center_size(q, vec2(3.0, 3.0)), col);
                    } else {
                        items.push((depth, Shape::circle_filled(q, r, col)));
                    }
                    if show_labels && !label.is_empty() {
                        labels.push((q + vec2(6.0, -6.0), label.to_string(), col));
                    }
                    picks.push((pick, q));
                }
            }
            Prim::Line(a, b) => {
                if let (Some((pa, da)), Some((pb, db))) = (project(a.to_f64()), project(b.to_f64()))
                {
                    items.push((
                        f64::midpoint(da, db),
                        Shape::line_segment([pa, pb], Stroke::new(2.0, col)),
                    ));
                    if show_labels && !label.is_empty() {
                        labels.push((pa.lerp(pb, 0.5) + vec2(4.0, 4.0), label.to_string(), col));
                    }
                    picks.push((
                        Pick {
                            event: e,
                            vertex: 0,
                        },
                        pa,
                    ));
                    picks.push((
                        Pick {
                            event: e,
                            vertex: 1,
                        },
                        pb,
                    ));
                }
            }
            Prim::Triangle(v) => {
                let pts: Vec<_> = v.iter().filter_map(|p| project(p.to_f64())).collect();
                if pts.len() == 3 {
                    let depth = pts.iter().map(|p| p.1).sum::<f64>() / 3.0;
                    items.push((
                        depth,
                        Shape::convex_polygon(
                            pts.iter().map(|p| p.0).collect(),
                            with_alpha(col, 70),
                            Stroke::new(1.5, col),
                        ),
                    ));
                    for (i, p) in pts.iter().enumerate() {
                        picks.push((
                            Pick {
                                event: e,
                                vertex: i as u32,
                            },
                            p.0,
                        ));
                    }
                }
            }
        }
    }

    if !points.is_empty() {
        items.push((f64::INFINITY, Shape::mesh(points)));
    }

    // Simplices.
    for &e in &session.visible.simplices {
        let Some(Entry::Simplex(k)) = session.trace.entries.get(e as usize) else {
            continue;
        };
        let Some(s) = session.trace.simplices.get(*k as usize) else {
            continue;
        };
        let n = s.vertices.len().min(4);
        let vs = &s.vertices[..n];
        match view {
            View::Config => {
                let ps: Vec<Option<(Pos2, f64)>> =
                    vs.iter().map(|v| project(v.w.to_f64())).collect();
                // Faces and edges.
                for i in 0..n {
                    for j in i + 1..n {
                        if let (Some(a), Some(b)) = (ps[i], ps[j]) {
                            items.push((
                                f64::midpoint(a.1, b.1),
                                Shape::line_segment([a.0, b.0], Stroke::new(2.0, COLOR_SIMPLEX)),
                            ));
                        }
                        for l in j + 1..n {
                            if let (Some(a), Some(b), Some(c)) = (ps[i], ps[j], ps[l]) {
                                items.push((
                                    (a.1 + b.1 + c.1) / 3.0,
                                    Shape::convex_polygon(
                                        vec![a.0, b.0, c.0],
                                        with_alpha(COLOR_SIMPLEX, 60),
                                        Stroke::NONE,
                                    ),
                                ));
                            }
                        }
                    }
                }
                for (i, p) in ps.iter().enumerate() {
                    if let Some((q, d)) = p {
                        let pick = Pick {
                            event: e,
                            vertex: i as u32 * 3,
                        };
                        let hot = hovered_vertex == Some((e, i as u32)) || selected.contains(&pick);
                        items.push((
                            *d - 1e-9,
                            Shape::circle_filled(
                                *q,
                                if hot { 7.0 } else { 5.0 },
                                if hot { COLOR_HIGHLIGHT } else { COLOR_SIMPLEX },
                            ),
                        ));
                        labels.push((*q + vec2(7.0, 2.0), format!("w{i}"), COLOR_SIMPLEX));
                        picks.push((pick, *q));
                    }
                }
            }
            View::Object => {
                for (i, v) in vs.iter().enumerate() {
                    let hot = hovered_vertex == Some((e, i as u32));
                    let pa = project(v.a.to_f64());
                    let pb = project(v.b.to_f64());
                    if let (Some(a), Some(b)) = (pa, pb) {
                        let stroke = if hot {
                            Stroke::new(2.0, COLOR_HIGHLIGHT)
                        } else {
                            Stroke::new(1.0, with_alpha(COLOR_SIMPLEX, 120))
                        };
                        items.push((
                            f64::midpoint(a.1, b.1),
                            Shape::dashed_line(&[a.0, b.0], stroke, 4.0, 3.0).into(),
                        ));
                    }
                    for (part, p, col, name) in [(1, pa, COLOR_A, "a"), (2, pb, COLOR_B, "b")] {
                        if let Some((q, d)) = p {
                            let pick = Pick {
                                event: e,
                                vertex: i as u32 * 3 + part,
                            };
                            let hot = hot || selected.contains(&pick);
                            items.push((
                                d - 1e-9,
                                Shape::circle_filled(
                                    q,
                                    if hot { 7.0 } else { 4.5 },
                                    if hot { COLOR_HIGHLIGHT } else { col },
                                ),
                            ));
                            items.push((
                                d - 1e-9,
                                Shape::circle_stroke(
                                    q,
                                    if hot { 7.0 } else { 4.5 },
                                    Stroke::new(1.0, COLOR_SIMPLEX),
                                ),
                            ));
                            labels.push((q + vec2(6.0, 2.0), format!("{name}{i}"), col));
                            picks.push((pick, q));
                        }
                    }
                }
            }
        }
    }

    // One vertex-coloured mesh for the shapes: no anti-aliasing feather (which
    // spikes on thin triangles) and one shape instead of thousands.
    mesh_items.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut mesh = egui::epaint::Mesh::default();
    for (_, [a, b, c], fill) in mesh_items {
        let i = mesh.vertices.len() as u32;
        mesh.colored_vertex(a, fill);
        mesh.colored_vertex(b, fill);
        mesh.colored_vertex(c, fill);
        mesh.add_triangle(i, i + 1, i + 2);
    }
    items.sort_by(|a, b| b.0.total_cmp(&a.0));
    Frame {
        shapes: std::iter::once(Shape::mesh(mesh))
            .chain(items.into_iter().map(|(_, s)| s))
            .collect(),
        picks,
        labels,
    }
}

impl eframe::App for ViewerApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if self.ctx.is_none() {
            self.ctx = Some(ctx.clone());
        }
        // Dropped files.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(p) = dropped.first() {
            self.open_path(p);
        }
        self.poll_changes();
        if self.live.is_some() {
            self.poll_live();
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.keys(&ctx);
        if self.session.timeline.playing() {
            let dt = ctx.input(|i| f64::from(i.stable_dt));
            self.session.tick(dt.min(0.25));
            ctx.request_repaint();
        }
        if let Some(p) = &mut self.pair {
            p.follow(&self.session);
        }
        egui::Panel::top("menu").show(ui, |ui| {
            self.menu(ui);
            self.toolbar(ui);
            self.banner(ui);
            self.pair_bar(ui);
        });
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(190.0)
            .show(ui, |ui| {
                self.timeline_bar(ui);
                self.plots(ui);
            });
        if let Some(sb) = &mut self.sandbox {
            let mut change = Change::None;
            egui::Panel::left("sandbox")
                .resizable(true)
                .default_size(420.0)
                .max_size(ui.available_width() * 0.45)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("sandbox scroll")
                        .show(ui, |ui| change = sandbox_ui::panel(ui, sb));
                });
            self.sandbox_changed(change);
        }
        egui::Panel::left("log")
            .resizable(true)
            .default_size(300.0)
            .max_size(ui.available_width() * 0.3)
            .show(ui, |ui| {
                self.live_panel(ui);
                self.fixture_panel(ui);
                self.files(ui);
                ui.strong("Log / scopes");
                self.log(ui);
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(260.0)
            .max_size(ui.available_width() * 0.25)
            .show(ui, |ui| {
                self.inspector(ui);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.views(ui);
        });
        self.open_window(&ctx);
        self.diff_window(&ctx);
        self.save_window(&ctx);
    }
}
