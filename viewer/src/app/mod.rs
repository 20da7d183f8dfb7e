//! The eframe app: what is open ([`Mode`]), the shown [`Session`], the open
//! folder, the live server, and the panels' own state (scroll position,
//! windows).
//!
//! `logic` opens, loads, polls and applies the [`Action`]s the panels
//! return (from eframe's `logic` hook, before each frame, and while the
//! window is hidden); `ui` lays out the panels and views and queues their
//! actions. Nothing in `ui` loads a file or runs a query.

mod logic;
mod ui;

use crate::panels::Action;
use crate::panels::windows::{DiffWindow, OpenWindow, SaveWindow, TextWindow};
use crate::state::live::{self, Live, LiveError};
use crate::state::pair::Pair;
use crate::state::rerun::Rerun;
use crate::state::sandbox::{Sandbox, SandboxError};
use crate::state::session::Session;
use crate::state::source::{OpenError, Recent, Watch};
use cspace::fixture::{Fixture, FixtureError};
use std::path::{Path, PathBuf};

/// What is open, as a value to compare (see [`ViewerApp::opened`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A bundled example (index into [`source::bundled::EXAMPLES`](crate::state::source::bundled::EXAMPLES)).
    Example(usize),
    /// The built-in demo recording.
    Demo,
    /// A file on disk (recording or fixture).
    File(PathBuf),
    /// Two recordings compared (`--diff A B`).
    Diff(PathBuf, PathBuf),
    /// A live query (its connection id).
    Live(u64),
    /// The sandbox's query (or its last run, once the sandbox is closed).
    Sandbox,
    /// Nothing yet (listening for live programs).
    Nothing,
}

/// Where a recording held in memory came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A bundled example (index into [`source::bundled::EXAMPLES`](crate::state::source::bundled::EXAMPLES)).
    Example(usize),
    /// The built-in demo recording.
    Demo,
    /// The last run of a sandbox that was closed.
    ClosedSandbox,
    /// Nothing: the viewer waits for live programs (`--listen` without a path).
    Nothing,
}

/// A file on disk that is open, watched for changes.
#[derive(Debug)]
pub struct OpenFile {
    /// The path opened (a recording, or either part of a fixture).
    pub path: PathBuf,
    /// Notices when it changes (`None`: watching failed, said in the banner).
    watch: Option<Watch>,
}

/// A fixture re-run with the current code, and the comparison of its stored
/// and new recordings while it is open.
#[derive(Debug)]
pub struct FixtureRerun {
    /// The re-run's outcome.
    pub run: Rerun,
    /// Stored (A) and new (B) recordings in lockstep; `None` once closed.
    pub pair: Option<Pair>,
}

/// What is open, with exactly the state that mode needs. The live server
/// is not here: it keeps listening whatever is open ([`ViewerApp::live`]).
#[derive(Debug)]
pub enum Mode {
    /// A recording held in memory: an example, the demo, a closed sandbox's last run.
    Recording(Origin),
    /// A recording file.
    File(OpenFile),
    /// A fixture: its recording file and the fixture (query, checks, answer).
    Fixture {
        /// The file opened.
        file: OpenFile,
        /// The fixture.
        fixture: Box<Fixture>,
        /// Its re-run, once asked for.
        rerun: Option<FixtureRerun>,
    },
    /// Two recordings compared in lockstep.
    Diff {
        /// The first recording (or fixture).
        a: PathBuf,
        /// The second.
        b: PathBuf,
        /// The comparison; `None` once closed (A stays shown).
        pair: Option<Pair>,
    },
    /// A query of the live server.
    Live {
        /// The query's connection id.
        id: u64,
        /// A "Next step" on the blocked program is waiting for its next pause.
        step_pending: bool,
    },
    /// The sandbox: a query edited in the viewer.
    Sandbox(Box<Sandbox>),
}

impl Default for Mode {
    fn default() -> Self {
        Self::Recording(Origin::Demo)
    }
}

impl Mode {
    /// What is open, as a value to compare.
    #[must_use]
    pub fn opened(&self) -> Opened {
        match self {
            Self::Recording(Origin::Example(i)) => Opened::Example(*i),
            Self::Recording(Origin::Demo) => Opened::Demo,
            Self::Recording(Origin::Nothing) => Opened::Nothing,
            Self::Recording(Origin::ClosedSandbox) | Self::Sandbox(_) => Opened::Sandbox,
            Self::File(file) | Self::Fixture { file, .. } => Opened::File(file.path.clone()),
            Self::Diff { a, b, .. } => Opened::Diff(a.clone(), b.clone()),
            Self::Live { id, .. } => Opened::Live(*id),
        }
    }

    /// The open file on disk, if one is.
    #[must_use]
    pub fn file(&self) -> Option<&OpenFile> {
        match self {
            Self::File(file) | Self::Fixture { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The open fixture, if one is.
    #[must_use]
    pub fn fixture(&self) -> Option<&Fixture> {
        match self {
            Self::Fixture { fixture, .. } => Some(fixture),
            _ => None,
        }
    }

    /// The comparison (a fixture's re-run or a diff), while open.
    #[must_use]
    pub fn pair(&self) -> Option<&Pair> {
        match self {
            Self::Fixture {
                rerun: Some(FixtureRerun { pair, .. }),
                ..
            }
            | Self::Diff { pair, .. } => pair.as_ref(),
            _ => None,
        }
    }

    /// The comparison, to step or switch.
    pub fn pair_mut(&mut self) -> Option<&mut Pair> {
        match self {
            Self::Fixture {
                rerun: Some(FixtureRerun { pair, .. }),
                ..
            }
            | Self::Diff { pair, .. } => pair.as_mut(),
            _ => None,
        }
    }
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

/// A problem opening, loading, listening or editing, shown in the banner.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A recording, folder or watch could not be opened.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// A fixture did not load (the message names the file and place).
    #[error(transparent)]
    Fixture(#[from] FixtureError),
    /// The live server could not listen or save.
    #[error(transparent)]
    Live(#[from] LiveError),
    /// The sandbox could not open.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// "Open fixture in sandbox" without a fixture open.
    #[error("no fixture is open")]
    NoFixture,
    /// `--rerun` on something that is not a fixture that loads.
    #[error("--rerun: the open file is not a fixture that loads")]
    RerunWithoutFixture,
    /// `--sandbox PATH` on something that is not a fixture that loads.
    #[error("--sandbox: the open file is not a fixture that loads")]
    SandboxWithoutFixture,
}

/// The banner's message: the last problem, or news worth a line.
#[derive(Debug)]
pub enum Notice {
    /// Something failed.
    Problem(AppError),
    /// An opened folder has no recordings yet.
    EmptyFolder(PathBuf),
    /// A live query was saved.
    SavedLive {
        /// The query.
        id: u64,
        /// Where.
        path: PathBuf,
    },
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Problem(e) => e.fmt(f),
            Self::EmptyFolder(path) => write!(
                f,
                "{} has no recordings yet; they appear here as they are written",
                path.display()
            ),
            Self::SavedLive { id, path } => write!(f, "saved live #{id} to {}", path.display()),
        }
    }
}

/// The viewer application.
pub struct ViewerApp {
    /// The shown recording and how it is viewed.
    pub session: Session,
    /// What is open.
    pub mode: Mode,
    /// The open folder, if a folder was opened (its list stays whatever opens).
    pub folder: Option<Folder>,
    /// The live server and its queries, once listening (whatever is open).
    pub live: Option<Live>,
    /// Recently opened paths.
    pub recent: Recent,
    /// The last problem (or notice), shown as a banner.
    pub message: Option<Notice>,
    /// Where "Save…" of a live query proposes to write.
    pub save_dir: PathBuf,
    /// Where "Live → Listen" listens.
    pub listen_addr: String,
    /// To wake the app from the file watchers' threads.
    ctx: Option<egui::Context>,
    /// What the panels asked for in the last frame, applied before the next.
    actions: Vec<Action>,
    open_window: OpenWindow,
    diff_window: DiffWindow,
    save_window: SaveWindow,
    /// The "Text" window: a clipped text shown whole.
    pub text_window: TextWindow,
    /// The cursor the log last scrolled to.
    log_scrolled_to: Option<u32>,
}

impl std::fmt::Debug for ViewerApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ViewerApp")
            .field("opened", &self.opened())
            .field("cursor", &self.session.timeline.cursor())
            .finish_non_exhaustive()
    }
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
            mode: Mode::default(),
            folder: None,
            live: None,
            recent: Recent::load(recent_file),
            message: None,
            save_dir: PathBuf::from("."),
            listen_addr: live::DEFAULT_ADDR.to_owned(),
            ctx: ctx.cloned(),
            actions: Vec::new(),
            open_window: OpenWindow::default(),
            diff_window: DiffWindow::default(),
            save_window: SaveWindow::default(),
            text_window: TextWindow::default(),
            log_scrolled_to: None,
        };
        match path {
            Some(p) => app.open_path(p),
            None if !crate::state::source::bundled::EXAMPLES.is_empty() => app.open_example(0),
            None => app.open_demo(),
        }
        app
    }

    /// What is open, as a value to compare.
    #[must_use]
    pub fn opened(&self) -> Opened {
        self.mode.opened()
    }

    /// The open fixture, when the open file is one that loads.
    #[must_use]
    pub fn fixture(&self) -> Option<&Fixture> {
        self.mode.fixture()
    }

    /// The open fixture's re-run with the current code, once asked for.
    #[must_use]
    pub fn rerun(&self) -> Option<&Rerun> {
        match &self.mode {
            Mode::Fixture { rerun: Some(r), .. } => Some(&r.run),
            _ => None,
        }
    }

    /// The second recording when two are compared (re-run or diff).
    #[must_use]
    pub fn pair(&self) -> Option<&Pair> {
        self.mode.pair()
    }

    /// The sandbox, while a query is being built and edited in the viewer.
    #[must_use]
    pub fn sandbox(&self) -> Option<&Sandbox> {
        match &self.mode {
            Mode::Sandbox(sb) => Some(sb),
            _ => None,
        }
    }

    /// The step at the cursor of the shown recording.
    #[must_use]
    pub fn current_step(&self) -> u32 {
        self.session.trace.step_at(self.session.timeline.cursor())
    }
}

impl eframe::App for ViewerApp {
    /// Applies last frame's actions and polls the watchers and the live
    /// server (also while the window is hidden); makes the 3D views' GPU
    /// pipelines on the first frame.
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        if let Some(render_state) = frame.wgpu_render_state() {
            crate::paint::gpu::install(render_state);
        }
        self.apply_and_poll(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.draw(ui);
    }
}
