//! The panels around the views. Each draws borrowed state and returns the
//! [`Action`] the user asked for (a click, a key in a field); the app's
//! logic applies it, so nothing here loads files, runs queries or polls.
//!
//! Widgets bound to a plain view setting (the playback speed, "Link views",
//! a text field being typed) edit it in place; everything else is an action.

pub mod banner;
pub mod files;
pub mod fixture;
pub mod inspector;
pub mod live;
pub mod log;
pub mod menu;
pub mod pair_bar;
pub mod plots;
pub mod sandbox;
pub mod toolbar;
pub mod windows;

use crate::state::pair::Which;
use crate::state::sandbox::Edit;
use crate::state::timeline::Command;
use egui::Color32;
use std::path::PathBuf;

/// What the user asked for in a panel, for the app's logic to apply.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A timeline command (to both recordings of a comparison).
    Command(Command),
    /// Open a recording, fixture or folder (the banner cleared first).
    OpenPath(PathBuf),
    /// Open a file of the open folder.
    OpenFile(PathBuf),
    /// Open bundled example `i`.
    OpenExample(usize),
    /// Open the built-in demo recording.
    OpenDemo,
    /// Read the open file again.
    Reload,
    /// Show the "Open" window.
    ShowOpen,
    /// Show the "Diff two recordings" window.
    ShowDiff,
    /// Show text event `i` of the shown recording whole ("Text" window).
    ShowText(u32),
    /// Compare two recordings (or fixtures) in lockstep.
    OpenDiff(PathBuf, PathBuf),
    /// Open the sandbox on the first preset.
    NewSandbox,
    /// Open the open fixture's query in the sandbox.
    FixtureToSandbox,
    /// Close the sandbox (its last run stays shown).
    CloseSandbox,
    /// Edit the sandbox's query.
    Sandbox(Edit),
    /// Start listening for live programs.
    Listen,
    /// Show live query `id`.
    OpenLive(u64),
    /// Ask where to save live query `id` (the "Save live" window).
    AskSaveLive(u64),
    /// Write live query `id` to a file.
    SaveLive(u64, PathBuf),
    /// Re-run the open fixture with the current code.
    RerunFixture,
    /// Show one recording of a comparison.
    ShowRecording(Which),
    /// Both recordings of a comparison just after their first difference.
    JumpToDivergence,
    /// Compare again, counting values this many ULPs apart as equal.
    SetUlps(u64),
    /// End the comparison.
    ClosePair,
    /// Forget the selected points.
    ClearSelection,
}

/// Errors and failed checks.
const RED: Color32 = Color32::from_rgb(255, 120, 100);
/// Passing checks and agreement.
const GREEN: Color32 = Color32::from_rgb(120, 220, 120);
/// Pause ticks and the plots' step line.
const AMBER: Color32 = Color32::from_rgb(250, 200, 80);
