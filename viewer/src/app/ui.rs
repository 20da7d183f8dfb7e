//! The top-level layout: menu, toolbar, banner and comparison bar on top,
//! the timeline and plots below, the sandbox, lists and log on the left,
//! the inspector on the right, the views in the middle, and the windows.
//! Timeline commands (keys, step buttons) apply at once; the panels' other
//! actions are queued for [`logic`](super::logic) and applied before the
//! next frame; dropped files become actions too.

use super::{Mode, ViewerApp};
use crate::paint;
use crate::panels::Action;
use crate::panels::banner::banner;
use crate::panels::files::Files;
use crate::panels::fixture::FixturePanel;
use crate::panels::inspector::Inspector;
use crate::panels::live::LiveList;
use crate::panels::log::Log;
use crate::panels::menu::Menu;
use crate::panels::pair_bar::PairBar;
use crate::panels::plots::Plots;
use crate::panels::sandbox::SandboxPanel;
use crate::panels::toolbar::{TimelineBar, Toolbar};
use crate::state::live::Live;
use crate::state::pair::Which;
use crate::state::timeline::Command;
use egui::{Key, Modifiers};
use std::path::PathBuf;

impl ViewerApp {
    /// Draws one frame: input first (keys, dropped files, playback), then
    /// the panels and views; queues what they asked for.
    pub(super) fn draw(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        // Keys move the cursor before anything is drawn.
        let input = self.input(&ctx);
        let mut actions = self.step_now(input);
        egui::Panel::top("menu").show(ui, |ui| {
            actions.extend(
                Menu {
                    file_open: self.mode.file().is_some(),
                    fixture_open: self.mode.fixture().is_some(),
                    sandbox_open: matches!(self.mode, Mode::Sandbox(_)),
                    listening: self.live.as_ref().map(Live::addr),
                    listen_addr: &mut self.listen_addr,
                    recent: &self.recent.paths,
                    title: &self.session.title,
                }
                .ui(ui),
            );
            actions.extend(
                Toolbar {
                    session: &mut self.session,
                }
                .ui(ui),
            );
            let message = self.message.as_ref().map(|m| m as &dyn std::fmt::Display);
            banner(ui, &self.session.trace, message);
            if let Some(pair) = self.mode.pair() {
                actions.extend(PairBar { pair }.ui(ui));
            }
        });
        egui::Panel::bottom("timeline")
            .resizable(true)
            .default_size(190.0)
            .show(ui, |ui| {
                actions.extend(
                    TimelineBar {
                        session: &self.session,
                        pair: self.mode.pair(),
                    }
                    .ui(ui),
                );
                actions.extend(
                    Plots {
                        session: &self.session,
                        other: self.mode.pair().map(|p| {
                            let [a, b] = p.short_names();
                            match p.showing {
                                Which::A => (&p.hidden, [a, b]),
                                Which::B => (&p.hidden, [b, a]),
                            }
                        }),
                    }
                    .ui(ui),
                );
            });
        self.side_panels(ui, &mut actions);
        egui::CentralPanel::default().show(ui, |ui| self.views(ui));
        actions.extend(self.open_window.ui(ui));
        actions.extend(self.diff_window.ui(ui));
        let shown_text = self
            .text_window
            .shown
            .and_then(|(e, _)| self.session.trace.text(e));
        self.text_window.ui(ui, shown_text);
        actions.extend(self.save_window.ui(ui));
        // A step button moved the cursor after the toolbar drew the old
        // position: step now and lay the frame out again (egui discards
        // this pass), so no frame shows a stale status.
        let pending = actions.len();
        let actions = self.step_now(actions);
        if actions.len() != pending {
            ctx.request_discard("a step command moved the cursor");
        }
        if !actions.is_empty() {
            self.actions.extend(actions);
            ctx.request_repaint();
        }
    }

    /// The panels at the sides: the sandbox's editor, the lists and the log
    /// on the left, the inspector on the right.
    fn side_panels(&mut self, ui: &mut egui::Ui, actions: &mut Vec<Action>) {
        if let Mode::Sandbox(sandbox) = &self.mode {
            egui::Panel::left("sandbox")
                .resizable(true)
                .default_size(420.0)
                .max_size(ui.available_width() * 0.45)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("sandbox scroll")
                        .show(ui, |ui| {
                            actions.extend(SandboxPanel { sandbox }.ui(ui).map(Action::Sandbox));
                        });
                });
        }
        egui::Panel::left("log")
            .resizable(true)
            .default_size(300.0)
            .max_size(ui.available_width() * 0.3)
            .show(ui, |ui| {
                // The lists take at most 45% of the height; the log keeps the rest.
                let lists_h = ui.available_height() * 0.45;
                egui::ScrollArea::vertical()
                    .id_salt("lists")
                    .max_height(lists_h)
                    .auto_shrink([false, true])
                    .show(ui, |ui| actions.extend(self.lists(ui)));
                ui.separator();
                ui.strong("Log / scopes");
                actions.extend(
                    Log {
                        trace: &self.session.trace,
                        timeline: &self.session.timeline,
                        view: &mut self.session.log,
                        scrolled_to: &mut self.log_scrolled_to,
                    }
                    .ui(ui),
                );
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(260.0)
            .max_size(ui.available_width() * 0.25)
            .show(ui, |ui| {
                egui::ScrollArea::both()
                    .id_salt("inspector scroll")
                    .show(ui, |ui| {
                        actions.extend(
                            Inspector {
                                session: &self.session,
                                pair: self.mode.pair(),
                            }
                            .ui(ui),
                        );
                    });
            });
    }

    /// Applies the timeline commands among `actions` at once (they only move
    /// a cursor); returns the others for the logic to apply before the next frame.
    fn step_now(&mut self, actions: Vec<Action>) -> Vec<Action> {
        let mut rest = Vec::new();
        for action in actions {
            match action {
                Action::Command(c) => self.command(c),
                other => rest.push(other),
            }
        }
        rest
    }

    /// The lists above the log: live queries, the open fixture, the folder's files.
    fn lists(&self, ui: &mut egui::Ui) -> Vec<Action> {
        let mut actions = Vec::new();
        if let Some(live) = &self.live {
            let open = match self.mode {
                Mode::Live { id, .. } => Some(id),
                _ => None,
            };
            actions.extend(LiveList { live, open }.ui(ui));
        }
        if let Mode::Fixture { fixture, rerun, .. } = &self.mode {
            actions.extend(
                FixturePanel {
                    fixture,
                    rerun: rerun.as_ref().map(|r| &r.run),
                }
                .ui(ui),
            );
        }
        if let Some(folder) = &self.folder {
            actions.extend(
                Files {
                    folder: &folder.path,
                    files: &folder.files,
                    open: self.mode.file().map(|f| f.path.as_path()),
                }
                .ui(ui),
            );
        }
        actions
    }

    /// Draws the two 3D views side by side (with their Frame all / Link
    /// views row); a drag that moves the sandbox's shapes is queued.
    pub fn views(&mut self, ui: &mut egui::Ui) {
        let sandbox = matches!(self.mode, Mode::Sandbox(_));
        if let Some(edit) = paint::views(ui, &mut self.session, self.mode.pair_mut(), sandbox) {
            self.actions.push(Action::Sandbox(edit));
            ui.ctx().request_repaint();
        }
    }

    /// Turns this frame's input into actions (dropped files, step keys) and
    /// advances playback.
    fn input(&mut self, ctx: &egui::Context) -> Vec<Action> {
        let mut actions = Vec::new();
        let dropped: Option<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .find(|p| !p.as_os_str().is_empty())
        });
        actions.extend(dropped.map(Action::OpenPath));
        if !ctx.egui_wants_keyboard_input() {
            let bindings = [
                (Modifiers::SHIFT, Key::ArrowRight, Command::NextEvent),
                (Modifiers::SHIFT, Key::ArrowLeft, Command::PrevEvent),
                (Modifiers::NONE, Key::ArrowRight, Command::NextStep),
                (Modifiers::NONE, Key::ArrowLeft, Command::PrevStep),
                (Modifiers::NONE, Key::Home, Command::First),
                (Modifiers::NONE, Key::End, Command::Last),
                (Modifiers::NONE, Key::Space, Command::TogglePlay),
            ];
            // Every press counts: eight presses (or key repeats) queued in one
            // frame step eight times.
            for (mods, key, cmd) in bindings {
                let presses = ctx.input_mut(|i| i.count_and_consume_key(mods, key));
                actions.extend(std::iter::repeat_n(Action::Command(cmd), presses));
            }
        }
        if self.session.timeline.playing() {
            let dt = ctx.input(|i| f64::from(i.stable_dt));
            self.session.tick(dt.min(0.25));
            ctx.request_repaint();
        }
        if let Some(p) = self.mode.pair_mut() {
            p.follow(&self.session);
        }
        actions
    }
}
