//! Everything that changes what is open: opening files, folders, fixtures,
//! examples, diffs, live queries and the sandbox; re-running fixtures;
//! polling the file watchers and the live server; applying timeline
//! commands and the panels' [`Action`]s. Problems become the banner.

use super::{AppError, FixtureRerun, Folder, Mode, Notice, OpenFile, Opened, Origin, ViewerApp};
use crate::panels::Action;
use crate::state::demo;
use crate::state::live::{Live, LiveQuery};
use crate::state::pair::{Pair, Which};
use crate::state::rerun::Rerun;
use crate::state::sandbox::{self, Change, Edit, Sandbox, SandboxError};
use crate::state::session::{Session, View};
use crate::state::source::{self, OpenError, Watch};
use crate::state::timeline::Command;
use crate::state::trace::Trace;
use cspace::fixture::Fixture;
use std::path::Path;

/// The file name of `path` for titles (the whole path when it has none).
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl ViewerApp {
    /// One round of logic before a frame: applies what the panels asked for
    /// in the last frame, lists the folder the "Open" window browses, then
    /// reloads changed files and takes the live server's messages.
    pub(super) fn apply_and_poll(&mut self, ctx: &egui::Context) {
        if self.ctx.is_none() {
            self.ctx = Some(ctx.clone());
        }
        for action in std::mem::take(&mut self.actions) {
            self.apply(action);
        }
        if self.open_window.shown {
            self.open_window.entries = source::browse(&self.open_window.text);
        }
        self.poll_changes();
        if self.live.is_some() {
            self.poll_live();
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
    }

    /// Applies one action from a panel.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Command(c) => self.command(c),
            Action::OpenPath(p) => self.open_path(&p),
            Action::OpenFile(p) => self.open_file(&p),
            Action::OpenExample(i) => self.open_example(i),
            Action::OpenDemo => self.open_demo(),
            Action::Reload => {
                self.reload();
            }
            Action::ShowOpen => self.open_window.shown = true,
            Action::ShowDiff => {
                if self.diff_window.text[0].is_empty()
                    && let Opened::File(p) = self.opened()
                {
                    self.diff_window.text[0] = p.display().to_string();
                }
                self.diff_window.shown = true;
            }
            Action::OpenDiff(a, b) => self.open_diff(&a, &b),
            Action::NewSandbox => {
                self.new_sandbox();
            }
            Action::FixtureToSandbox => {
                self.fixture_to_sandbox();
            }
            Action::CloseSandbox => self.close_sandbox(),
            Action::Sandbox(edit) => self.edit_sandbox(edit),
            Action::Listen => {
                self.listen();
            }
            Action::OpenLive(id) => self.open_live(id),
            Action::ShowText(event) => self.text_window.shown = Some((event, 0)),
            Action::AskSaveLive(id) => {
                let file = self.save_dir.join(format!("live-{id}.cspace"));
                self.save_window.pending = Some((id, file.display().to_string()));
            }
            Action::SaveLive(id, path) => {
                self.save_live(id, &path);
            }
            Action::RerunFixture => {
                self.rerun_fixture();
            }
            Action::ShowRecording(which) => {
                if let Some(p) = self.mode.pair_mut() {
                    p.show(which, &mut self.session);
                }
            }
            Action::SetUlps(ulps) => {
                if let Some(p) = self.mode.pair_mut() {
                    p.set_ulps(ulps);
                }
            }
            Action::JumpToDivergence => {
                if let Some(p) = self.mode.pair_mut() {
                    p.jump_to_divergence(&mut self.session);
                }
            }
            Action::ClosePair => {
                self.close_pair();
                if let Mode::Diff { a, .. } = &self.mode {
                    self.session.title = a.display().to_string();
                }
            }
            Action::ClearSelection => {
                self.session.selection.first = None;
                self.session.selection.second = None;
            }
        }
    }

    /// Shows `problem` in the banner.
    fn problem(&mut self, problem: impl Into<AppError>) {
        self.message = Some(Notice::Problem(problem.into()));
    }

    /// A closure that asks for a repaint (from a watcher's thread).
    fn wake(&self) -> impl Fn() + Send + 'static {
        let ctx = self.ctx.clone();
        move || {
            if let Some(c) = &ctx {
                c.request_repaint();
            }
        }
    }

    /// Shows `sandbox`: its last run at the first step, cameras framed.
    pub fn open_sandbox(&mut self, sandbox: Sandbox) {
        self.message = None;
        self.session = sandbox.session();
        self.mode = Mode::Sandbox(Box::new(sandbox));
    }

    /// Opens `sandbox`, or shows why it could not be made. Returns whether it opened.
    fn open_sandbox_or_report(&mut self, sandbox: Result<Sandbox, SandboxError>) -> bool {
        match sandbox {
            Ok(sb) => {
                self.open_sandbox(sb);
                true
            }
            Err(e) => {
                self.problem(e);
                false
            }
        }
    }

    /// Opens the sandbox on the first preset. Returns whether it opened.
    pub fn new_sandbox(&mut self) -> bool {
        let Some((name, _)) = sandbox::presets().into_iter().next() else {
            return false;
        };
        self.open_sandbox_or_report(Sandbox::preset(name))
    }

    /// Opens the open fixture's query in the sandbox, to edit. Returns
    /// whether a fixture was open and its query runs.
    pub fn fixture_to_sandbox(&mut self) -> bool {
        let Some(f) = self.mode.fixture() else {
            self.problem(AppError::NoFixture);
            return false;
        };
        let sb = Sandbox::from_fixture(f);
        self.open_sandbox_or_report(sb)
    }

    /// Applies `edit` to the open sandbox and shows its new run: at the same
    /// step (the last when shorter), the views framed again after a preset.
    pub fn edit_sandbox(&mut self, edit: Edit) {
        let Mode::Sandbox(sb) = &mut self.mode else {
            return;
        };
        let change = sb.apply(edit);
        if change == Change::None {
            return;
        }
        sb.show_in(&mut self.session);
        if change == Change::Replaced {
            self.session.frame_all(View::Config);
            self.session.frame_all(View::Object);
        }
    }

    /// Closes the sandbox; its last run stays shown.
    pub fn close_sandbox(&mut self) {
        if matches!(self.mode, Mode::Sandbox(_)) {
            self.mode = Mode::Recording(Origin::ClosedSandbox);
        }
    }

    /// Opens the built-in demo recording.
    pub fn open_demo(&mut self) {
        self.session = Session::new(
            Trace::from_bytes(&demo::recording()),
            "demo: box-sphere distance",
        );
        self.mode = Mode::Recording(Origin::Demo);
    }

    /// Shows no recording: the viewer only waits for live programs.
    pub fn open_nothing(&mut self) {
        self.session = Session::new(Trace::default(), "waiting for live programs");
        self.mode = Mode::Recording(Origin::Nothing);
    }

    /// Opens bundled example `i`.
    pub fn open_example(&mut self, i: usize) {
        if let Some((name, bytes)) = source::bundled::EXAMPLES.get(i) {
            self.session = Session::new(Trace::from_bytes(bytes), format!("example: {name}"));
            self.mode = Mode::Recording(Origin::Example(i));
        }
    }

    /// Opens a recording, fixture or folder; problems become the banner message.
    pub fn open_path(&mut self, path: &Path) {
        self.message = None;
        if !path.is_dir() {
            self.open_file(path);
            return;
        }
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
                if let Some((subject, reference)) = source::fuzz_pair(path) {
                    // A `cspace fuzz` failure: the pair, at its first divergence.
                    self.open_diff(&subject, &reference);
                    if let Some(p) = self.mode.pair_mut() {
                        p.jump_to_divergence(&mut self.session);
                    }
                } else if let Some(f) = first {
                    self.open_file(&f);
                } else {
                    // What was open stays open; only the view is emptied.
                    self.session = Session::new(Trace::default(), path.display().to_string());
                    self.message = Some(Notice::EmptyFolder(path.to_path_buf()));
                }
            }
            Err(e) => self.problem(e),
        }
    }

    /// Opens a recording or fixture file (the banner keeps a problem with
    /// its fixture part; the recording still opens when it can be read).
    fn open_file(&mut self, path: &Path) {
        let fixture = self.load_fixture(path);
        match source::load(path) {
            Ok(trace) => {
                self.session = Session::new(trace, file_name(path));
                let watch = Watch::new(path, self.wake())
                    .map_err(|e| self.problem(e))
                    .ok();
                self.mode = Self::file_mode(path, watch, fixture);
                self.recent.add(path);
            }
            Err(e) => {
                if self.message.is_none() {
                    self.problem(e);
                }
            }
        }
    }

    /// The mode of an open file: a fixture when it loaded as one.
    fn file_mode(path: &Path, watch: Option<Watch>, fixture: Option<Fixture>) -> Mode {
        let file = OpenFile {
            path: path.to_path_buf(),
            watch,
        };
        match fixture {
            Some(f) => Mode::Fixture {
                file,
                fixture: Box::new(f),
                rerun: None,
            },
            None => Mode::File(file),
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
        Fixture::load(path).map_err(|e| self.problem(e)).ok()
    }

    /// Re-runs the open fixture's query with the current code and compares the
    /// new recording with the stored one (shown: the new one, at the same step).
    /// Returns whether a fixture was open.
    pub fn rerun_fixture(&mut self) -> bool {
        let step = self.current_step();
        let Mode::Fixture { fixture, rerun, .. } = &mut self.mode else {
            return false;
        };
        let run = Rerun::run(fixture);
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
        // A comparison from an earlier re-run is replaced with the shown session.
        self.session = shown;
        *rerun = Some(FixtureRerun {
            run,
            pair: Some(pair),
        });
        true
    }

    /// Opens recordings (or fixtures) `a` and `b` side by side in lockstep.
    pub fn open_diff(&mut self, a: &Path, b: &Path) {
        self.message = None;
        let read = |p: &Path| {
            let path = source::recording_path(p);
            cspace_recorder::read_file(&path).map_err(|source| OpenError::Read { path, source })
        };
        let (ba, bb) = match (read(a), read(b)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e), _) | (_, Err(e)) => {
                self.problem(e);
                return;
            }
        };
        let (mut shown, mut pair) = Pair::open(
            &ba,
            &bb,
            [
                format!("A: {}", file_name(a)),
                format!("B: {}", file_name(b)),
            ],
        );
        shown.title = format!("diff {} vs {}", file_name(a), file_name(b));
        pair.hidden.title.clone_from(&shown.title);
        pair.side_by_side = true;
        self.session = shown;
        self.mode = Mode::Diff {
            a: a.to_path_buf(),
            b: b.to_path_buf(),
            pair: Some(pair),
        };
        self.diff_window.text = [a.display().to_string(), b.display().to_string()];
    }

    /// Ends a comparison, going back to the first recording (the stored one).
    pub fn close_pair(&mut self) {
        let pair = match &mut self.mode {
            Mode::Fixture {
                rerun: Some(FixtureRerun { pair, .. }),
                ..
            }
            | Mode::Diff { pair, .. } => pair.take(),
            _ => None,
        };
        if let Some(mut pair) = pair {
            pair.show(Which::A, &mut self.session);
        }
    }

    /// Starts listening for live programs on [`listen_addr`](Self::listen_addr)
    /// (problems become the banner). Returns whether it listens.
    pub fn listen(&mut self) -> bool {
        if self.live.is_some() {
            return true;
        }
        match Live::listen(&self.listen_addr) {
            Ok(live) => {
                if let Some(warning) = cspace_recorder::live::exposure_warning(live.addr()) {
                    eprintln!("{warning}");
                }
                self.message = None;
                self.live = Some(live);
                true
            }
            Err(e) => {
                self.problem(e);
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
        self.session = Session::new(trace, title);
        self.mode = Mode::Live {
            id,
            step_pending: false,
        };
    }

    /// Takes the live server's messages and updates the open live query.
    /// Returns whether the shown recording changed.
    pub fn poll_live(&mut self) -> bool {
        let Some(live) = &mut self.live else {
            return false;
        };
        let changed = live.poll();
        let Mode::Live { id, step_pending } = &mut self.mode else {
            return false;
        };
        if !changed.contains(id) {
            return false;
        }
        let Some(q) = live.query(*id) else {
            return false;
        };
        let session = &mut self.session;
        let at_end = session.timeline.cursor() >= session.trace.len();
        let step = session.trace.step_at(session.timeline.cursor());
        session.reload(q.trace());
        if *step_pending {
            if session.trace.steps() > step {
                // The program ran on to its next pause: follow it there.
                *step_pending = false;
                session.command(Command::NextStep);
            } else {
                // Still on its way: show what it has done so far.
                session.command(Command::Last);
            }
        } else if at_end && session.trace.steps() == 0 {
            session.command(Command::Last);
        }
        true
    }

    /// Writes live query `id` to `path` as a `.cspace` file; the outcome is the banner.
    pub fn save_live(&mut self, id: u64, path: &Path) -> bool {
        let Some(live) = &self.live else {
            return false;
        };
        match live.save(id, path) {
            Ok(()) => {
                self.message = Some(Notice::SavedLive {
                    id,
                    path: path.to_path_buf(),
                });
                true
            }
            Err(e) => {
                self.problem(e);
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
        let changed = self
            .mode
            .file()
            .and_then(|f| f.watch.as_ref())
            .is_some_and(Watch::changed);
        changed && self.reload()
    }

    /// Reads the open file again, keeping the cursor at the same step.
    pub fn reload(&mut self) -> bool {
        let Some(path) = self.mode.file().map(|f| f.path.clone()) else {
            return false;
        };
        match source::load(&path) {
            Ok(trace) => {
                // The stored recording changed: a comparison with it is stale.
                self.close_pair();
                self.message = None;
                let fixture = self.load_fixture(&path);
                let watch = match std::mem::take(&mut self.mode) {
                    Mode::File(file) | Mode::Fixture { file, .. } => file.watch,
                    _ => None,
                };
                self.mode = Self::file_mode(&path, watch, fixture);
                self.session.reload(trace);
                true
            }
            Err(e) => {
                self.problem(e);
                false
            }
        }
    }

    /// Applies a timeline command (to both recordings of a comparison, in
    /// lockstep). "Next step" at the last pause of a live program blocked
    /// there releases it for one step instead.
    pub fn command(&mut self, command: Command) {
        if command == Command::NextStep
            && let Mode::Live { id, step_pending } = &mut self.mode
            && let Some(live) = &self.live
            && self.session.timeline.cursor() >= self.session.trace.len()
            && live.query(*id).is_some_and(LiveQuery::waiting)
        {
            if live.step(*id) {
                *step_pending = true;
            }
            return;
        }
        self.session.command(command);
        if let Some(p) = self.mode.pair_mut() {
            p.follow(&self.session);
        }
    }
}
