//! The sandbox: a query built and edited in the viewer. Every edit re-runs
//! the query with recording on; an invalid edit keeps the last good run and
//! its error is shown. Nudges walk a value by one ULP (in the query's
//! precision) or by 1e-6; presets load the cases that break algorithms; the
//! [`Comparison`] puts the answer next to a second algorithm's.
//!
//! [`fields`] names the numbers an edit changes, [`presets`](mod@presets) holds the
//! starting queries, [`compare`](mod@compare) the reference answers, [`edit`] the edits
//! the panel asks for; this module runs, re-runs and saves the query.

pub mod compare;
pub mod edit;
pub mod fields;
pub mod presets;

pub use compare::{Comparison, compare, default_tolerance};
pub use edit::{Change, Edit, Grab};
pub use fields::{
    Field, Nudge, SHAPE_KINDS, Side, axis_angle, default_shape, nudged, to_axis_angle,
};
pub use presets::presets;

use crate::state::session::Session;
use crate::state::trace::Trace;
use cspace::check::Check;
use cspace::fixture::{self, Fixture, FixtureError};
use cspace::model::{Algorithm, Answer, Outcome, Precision, Query, QueryError, QueryKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the sandbox's query did not run, has no answer, or was not saved.
///
/// Cloned with the sandbox (the results panel keeps the last one), so the
/// I/O and fixture errors inside are shared.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SandboxError {
    /// The query is invalid or rejected its input (the message names the field).
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The algorithm panicked.
    #[error("the algorithm panicked: {0}")]
    Panicked(String),
    /// No preset has that name.
    #[error("no preset named {0:?}")]
    NoPreset(String),
    /// No shape type has that name.
    #[error("unknown shape type {0:?}")]
    UnknownShape(String),
    /// "Save as fixture" while the edited query does not run.
    #[error("the edited query is invalid: {0}")]
    SaveInvalid(Box<SandboxError>),
    /// The fixture folder could not be created.
    #[error("{}: {source}", dir.display())]
    CreateDir {
        /// The folder.
        dir: PathBuf,
        /// The I/O error.
        source: Arc<std::io::Error>,
    },
    /// A fixture could not be loaded or written (the message names the file).
    #[error(transparent)]
    Fixture(Arc<FixtureError>),
}

/// The last query that ran: its answer (or why it has none) and recording.
#[derive(Clone, Debug)]
pub struct Run {
    /// The query that ran.
    pub query: Query,
    /// Its answer, or [`SandboxError::Panicked`] when the algorithm panicked.
    pub answer: Result<Answer, SandboxError>,
    /// The recording's stream bytes.
    pub recording: Vec<u8>,
    /// The answer beside a second algorithm's.
    pub comparison: Comparison,
}

/// The sandbox state.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// The query as edited (may be invalid; see [`Sandbox::error`]).
    pub query: Query,
    /// The last run of a valid query.
    pub run: Run,
    /// Why the edited query does not run, when it does not.
    pub error: Option<SandboxError>,
    /// The preset (or fixture) the query started from.
    pub origin: String,
    /// Relative tolerance of the comparison: differences above
    /// `tolerance · max(1, |answer|, |reference|)` are flagged.
    pub tolerance: f64,
    /// Where "Save as fixture" writes.
    pub save_dir: PathBuf,
    /// Increases on every successful run (the app reloads the view then).
    pub generation: u64,
    /// The rotation of A and B as typed in axis-angle form: axis x, y, z and
    /// the angle in degrees (kept while the angle is 0, when the quaternion
    /// has no axis).
    pub axis_angle: [[f64; 4]; 2],
    /// The outcome of the last "Save as fixture": the path written, or why not.
    pub saved: Option<Result<PathBuf, SandboxError>>,
}

/// Runs `q` with recording on, the way fixtures capture and replay do (so a
/// saved fixture's recording replays bit for bit), and compares the answer.
/// `Err` is the validation error.
fn execute(q: &Query, tolerance: f64) -> Result<Run, SandboxError> {
    q.validate()?;
    let (result, recording) = fixture::run_recorded(q);
    let answer = match result {
        Ok(Ok(a)) => Ok(a),
        Ok(Err(e)) => return Err(e.into()),
        Err(payload) => Err(SandboxError::Panicked(fixture::panic_message(
            payload.as_ref(),
        ))),
    };
    let comparison = compare(q, answer.as_ref().ok(), tolerance);
    Ok(Run {
        query: q.clone(),
        answer,
        recording: recording.bytes,
        comparison,
    })
}

impl Sandbox {
    /// A sandbox on `query`, started from `origin` (a preset or fixture name).
    ///
    /// # Errors
    /// The query is invalid (its message names the field).
    pub fn new(query: Query, origin: impl Into<String>) -> Result<Self, SandboxError> {
        let tolerance = default_tolerance(query.precision);
        let run = execute(&query, tolerance)?;
        Ok(Self {
            query,
            run,
            error: None,
            origin: origin.into(),
            tolerance,
            save_dir: fixture::fixture_dir(),
            generation: 0,
            axis_angle: [[1.0, 0.0, 0.0, 0.0]; 2],
            saved: None,
        }
        .with_axis_angles())
    }

    /// The axis-angle inputs re-read from the rotations that differ from them.
    fn with_axis_angles(mut self) -> Self {
        self.sync_axis_angles();
        self
    }

    fn sync_axis_angles(&mut self) {
        for (i, side) in [Side::A, Side::B].into_iter().enumerate() {
            let r = side.of(&self.query).rotation;
            let [x, y, z, deg] = self.axis_angle[i];
            let typed = axis_angle([x, y, z], deg.to_radians());
            if typed.iter().zip(r).any(|(a, b)| (a - b).abs() > 1e-12) {
                let (axis, angle) = to_axis_angle(r);
                self.axis_angle[i] = [axis[0], axis[1], axis[2], angle.to_degrees()];
            }
        }
    }

    /// A sandbox on preset `name` (see [`presets()`]).
    ///
    /// # Errors
    /// No preset has that name, or it does not run.
    pub fn preset(name: &str) -> Result<Self, SandboxError> {
        let (n, q) = presets()
            .into_iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| SandboxError::NoPreset(name.to_owned()))?;
        Self::new(q, n)
    }

    /// A sandbox on a fixture's query, to edit.
    ///
    /// # Errors
    /// The fixture's query does not run.
    pub fn from_fixture(f: &Fixture) -> Result<Self, SandboxError> {
        let mut q = f.query().clone();
        q.id = None;
        Self::new(q, format!("fixture {}", f.name()))
    }

    /// Applies an edit to the query and re-runs it. Returns whether it ran;
    /// when the edited query is invalid the last good run stays and
    /// [`error`](Self::error) says why.
    pub fn edit(&mut self, f: impl FnOnce(&mut Query)) -> bool {
        f(&mut self.query);
        self.rerun()
    }

    /// Re-runs the query as it is (after direct edits of [`query`](Self::query)).
    pub fn rerun(&mut self) -> bool {
        match execute(&self.query, self.tolerance) {
            Ok(run) => {
                self.run = run;
                self.error = None;
                self.generation += 1;
                self.sync_axis_angles();
                true
            }
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }

    /// Replaces the query with preset `name`. Returns whether it ran.
    pub fn load_preset(&mut self, name: &str) -> bool {
        let Some((n, q)) = presets().into_iter().find(|(n, _)| *n == name) else {
            self.error = Some(SandboxError::NoPreset(name.to_owned()));
            return false;
        };
        n.clone_into(&mut self.origin);
        self.edit(|query| *query = q)
    }

    /// Sets the shape type of `side` (its margin kept, parameters defaulted).
    pub fn set_shape_kind(&mut self, side: Side, kind: &str) -> bool {
        let Some(shape) = default_shape(kind) else {
            self.error = Some(SandboxError::UnknownShape(kind.to_owned()));
            return false;
        };
        self.edit(|q| side.of_mut(q).geom = shape)
    }

    /// Sets the rotation of `side` to `angle` radians about `axis`.
    pub fn set_axis_angle(&mut self, side: Side, axis: [f64; 3], angle: f64) -> bool {
        let i = side as usize;
        self.axis_angle[i] = [axis[0], axis[1], axis[2], angle.to_degrees()];
        self.edit(|q| side.of_mut(q).rotation = axis_angle(axis, angle))
    }

    /// Sets the query kind; a sweep gets a motion if it had none, and the
    /// algorithm goes back to the kind's default when it does not answer it.
    pub fn set_kind(&mut self, kind: QueryKind) -> bool {
        self.edit(|q| {
            q.query = kind;
            if kind == QueryKind::Sweep && q.translation.is_none() {
                q.translation = Some([1.0, 0.0, 0.0]);
            }
            if q.algorithm
                .is_some_and(|a| !Algorithm::valid_for(kind).contains(&a))
            {
                q.algorithm = None;
            }
        })
    }

    /// Sets the precision (and the comparison tolerance to its default).
    pub fn set_precision(&mut self, p: Precision) -> bool {
        self.tolerance = default_tolerance(p);
        self.edit(|q| q.precision = p)
    }

    /// Sets a field's value.
    pub fn set(&mut self, field: Field, v: f64) -> bool {
        self.edit(|q| field.set(q, v))
    }

    /// Changes the sweep's motion by `delta` (a drag of its tip); `false`
    /// when the query is not a sweep.
    pub fn move_motion(&mut self, delta: [f64; 3]) -> bool {
        if self.query.query != QueryKind::Sweep {
            return false;
        }
        self.edit(|q| {
            let t = q.translation.get_or_insert([0.0; 3]);
            for (c, d) in t.iter_mut().zip(delta) {
                *c += d;
            }
        })
    }

    /// Moves the body on `side` by `delta` (a mouse drag in object space).
    pub fn move_by(&mut self, side: Side, delta: [f64; 3]) -> bool {
        self.edit(|q| {
            let p = &mut side.of_mut(q).position;
            for (c, d) in p.iter_mut().zip(delta) {
                *c += d;
            }
        })
    }

    /// Moves a field by `nudge` (see [`nudged`]).
    pub fn nudge(&mut self, field: Field, nudge: Nudge) -> bool {
        let Some(v) = field.get(&self.query) else {
            return false;
        };
        let p = self.query.precision;
        self.set(field, nudged(v, nudge, p))
    }

    /// Shows the last run in `session`, keeping its cursor at the same step
    /// (the last step when the new recording is shorter).
    pub fn show_in(&self, session: &mut Session) {
        session.reload(Trace::from_bytes(&self.run.recording));
        session.title = self.title();
    }

    /// A session on the last run, at its first step, cameras framed.
    #[must_use]
    pub fn session(&self) -> Session {
        Session::new(Trace::from_bytes(&self.run.recording), self.title())
    }

    /// The view title.
    #[must_use]
    pub fn title(&self) -> String {
        format!("sandbox: {}", self.origin)
    }

    /// The answer of the last run as `cspace eval` prints it.
    #[must_use]
    pub fn answer_text(&self) -> String {
        match &self.run.answer {
            Ok(a) => fixture::answer_json(a).to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Writes the last good run as a fixture (query, answer and recording) in
    /// [`save_dir`](Self::save_dir); returns the JSON part's path. Refused
    /// while the edited query is invalid (the fixture would not be what is shown).
    ///
    /// # Errors
    /// The query is invalid, or writing failed.
    pub fn save_fixture(&self) -> Result<PathBuf, SandboxError> {
        if let Some(e) = &self.error {
            return Err(SandboxError::SaveInvalid(Box::new(e.clone())));
        }
        let name = format!("sandbox-{}", fixture::slug(&self.origin.to_lowercase()));
        let answer = self.run.answer.as_ref().ok().map(fixture::answer_json);
        let c = &self.run.comparison;
        let failure = c.flagged.then(|| {
            format!(
                "sandbox: {} {} disagrees with the reference {}: {}",
                c.quantity, c.answer, c.reference_name, c.reference
            )
        });
        let mut f = Fixture::new(
            &name,
            &self.run.query,
            failure,
            self.checks(),
            answer,
            self.run.recording.clone(),
        );
        std::fs::create_dir_all(&self.save_dir).map_err(|e| SandboxError::CreateDir {
            dir: self.save_dir.clone(),
            source: Arc::new(e),
        })?;
        f.save_in(&self.save_dir)
            .map_err(|e| SandboxError::Fixture(Arc::new(e)))
    }

    /// The checks a saved fixture stores: the answer pinned (within the
    /// comparison tolerance) when the reference agrees with it; none when
    /// they disagree (nobody knows which is right; the fixture's `failure`
    /// says what disagreed).
    #[must_use]
    pub fn checks(&self) -> Vec<Check> {
        let (Ok(answer), false) = (&self.run.answer, self.run.comparison.flagged) else {
            return Vec::new();
        };
        let near = |field: &str, value: f64| Check::Near {
            field: field.to_owned(),
            value,
            tol: self.tolerance * value.abs().max(1.0),
        };
        let equals = |field: &str, value: bool| Check::Equals {
            field: field.to_owned(),
            value: serde_json::Value::Bool(value),
        };
        match &answer.outcome {
            Outcome::Distance { distance, .. } | Outcome::SignedDistance { distance, .. } => {
                vec![near("distance", *distance)]
            }
            Outcome::Intersect { intersecting } => vec![equals("intersecting", *intersecting)],
            Outcome::Penetration { depth, .. } => vec![near("depth", *depth)],
            Outcome::Sweep { hit, toi, .. } => {
                let mut v = vec![equals("hit", *hit)];
                v.extend(toi.map(|t| near("toi", t)));
                v
            }
        }
    }

    /// Opens the fixture at `path` in the sandbox.
    ///
    /// # Errors
    /// The fixture does not load or its query does not run.
    pub fn open_fixture(path: &Path) -> Result<Self, SandboxError> {
        let f = Fixture::load(path).map_err(|e| SandboxError::Fixture(Arc::new(e)))?;
        Self::from_fixture(&f)
    }
}

#[cfg(test)]
mod tests {
    use super::presets::{body, query, sphere};
    use super::*;
    use crate::state::timeline::Command;

    /// The distance the sandbox's last run answered (panics on another kind).
    pub(super) fn distance(s: &Sandbox) -> f64 {
        match &s.run.answer {
            Ok(Answer {
                outcome: Outcome::Distance { distance, .. },
                ..
            }) => *distance,
            other => panic!("not a distance: {other:?}"),
        }
    }

    /// Two unit spheres 3 apart (distance 1).
    pub(super) fn spheres() -> Sandbox {
        let q = query(
            QueryKind::Distance,
            body(sphere(1.0), [0.0, 0.0, 0.0]),
            body(sphere(1.0), [3.0, 0.0, 0.0]),
            None,
        );
        Sandbox::new(q, "spheres").expect("valid")
    }

    #[test]
    fn editing_a_pose_changes_the_answer() {
        let mut s = spheres();
        assert!((distance(&s) - 1.0).abs() < 1e-9);
        assert!(s.set(Field::Position(Side::B, 0), 4.0));
        assert!((distance(&s) - 2.0).abs() < 1e-9);
        assert_eq!(s.generation, 1);
        assert!(s.set_axis_angle(Side::B, [0.0, 1.0, 0.0], 0.5));
        let q = s.query.b.rotation;
        assert!((q[1] - 0.25f64.sin()).abs() < 1e-15 && (q[3] - 0.25f64.cos()).abs() < 1e-15);
        let (axis, angle) = to_axis_angle(q);
        assert!((angle - 0.5).abs() < 1e-12 && (axis[1] - 1.0).abs() < 1e-12);
        assert!(s.set_shape_kind(Side::A, "box"));
        assert_eq!(s.query.a.geom.kind(), "box");
        assert!((distance(&s) - 2.0).abs() < 1e-9);
        assert!(!s.set_shape_kind(Side::A, "blob"));
        assert!(s.move_by(Side::B, [1.0, 0.0, 0.0]));
        assert!(!s.move_motion([1.0, 0.0, 0.0]));
        assert!((distance(&s) - 3.0).abs() < 1e-9);
        assert_eq!(s.axis_angle[1], [0.0, 1.0, 0.0, 0.5f64.to_degrees()]);
    }

    #[test]
    fn invalid_edit_keeps_last_good_run() {
        let mut s = spheres();
        let before = s.run.recording.clone();
        assert!(!s.edit(|q| q.b.geom = sphere(-1.0)));
        let e = s.error.clone().expect("error shown").to_string();
        assert!(e.contains("b.shape.radius"), "{e}");
        assert_eq!(s.run.recording, before);
        assert!((distance(&s) - 1.0).abs() < 1e-9);
        assert!(s.save_fixture().is_err());
        assert!(!s.edit(|q| q.a.rotation = [0.0, 0.0, 0.0, 2.0]));
        assert!(
            s.error
                .as_ref()
                .is_some_and(|e| e.to_string().contains("a.rotation"))
        );
        // Fixing it clears the error.
        assert!(s.edit(|q| {
            q.b.geom = sphere(1.0);
            q.a.rotation = [0.0, 0.0, 0.0, 1.0];
        }));
        assert!(s.error.is_none());
    }

    #[test]
    fn nudge_moves_by_exactly_one_ulp() {
        let mut s = spheres();
        let f = Field::Position(Side::B, 0);
        assert!(s.nudge(f, Nudge::UlpUp));
        assert_eq!(s.query.b.position[0].to_bits(), 3.0f64.to_bits() + 1);
        assert!(s.nudge(f, Nudge::UlpDown));
        assert!(s.nudge(f, Nudge::UlpDown));
        assert_eq!(s.query.b.position[0].to_bits(), 3.0f64.to_bits() - 1);
        // In f32 the f32 input's bits move by one.
        assert!(s.set_precision(Precision::F32));
        assert!(s.set(f, 3.0));
        assert!(s.nudge(f, Nudge::UlpUp));
        #[expect(clippy::cast_possible_truncation, reason = "the f32 input")]
        let narrow = s.query.b.position[0] as f32;
        assert_eq!(narrow.to_bits(), 3.0f32.to_bits() + 1);
        assert_eq!(f64::from(narrow), s.query.b.position[0]);
        assert!(s.nudge(f, Nudge::Up));
        assert!((s.query.b.position[0] - (f64::from(narrow) + 1e-6)).abs() < 1e-15);
        assert!(s.nudge(Field::Margin(Side::A), Nudge::Up));
        assert_eq!(s.query.a.margin, 1e-6);
        assert_eq!(
            nudged(0.0, Nudge::UlpDown, Precision::F64),
            -f64::from_bits(1)
        );
        assert_eq!(nudged(1.0, Nudge::Down, Precision::F64), 1.0 - 1e-6);
        // No motion outside a sweep: nothing to nudge.
        assert!(!s.nudge(Field::Translation(0), Nudge::Up));
    }

    #[test]
    fn presets_all_run() {
        for (name, _) in presets() {
            let s = Sandbox::preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(s.run.answer.is_ok(), "{name}: {:?}", s.run.answer);
            assert!(!s.run.recording.is_empty(), "{name}");
            assert!(!s.run.comparison.reference_name.is_empty(), "{name}");
        }
        assert!(Sandbox::preset("nope").is_err());
        let mut s = spheres();
        assert!(s.load_preset("Deep overlap"));
        assert_eq!(s.origin, "Deep overlap");
        assert!(!s.load_preset("nope"));
    }

    #[test]
    fn comparisons_agree_on_easy_cases_and_flag_differences() {
        let s = spheres();
        let c = &s.run.comparison;
        assert_eq!(c.quantity, "distance");
        assert!(c.difference.is_some_and(|d| d < 1e-6), "{c:?}");
        assert!(!c.flagged);
        let mut s = spheres();
        assert!(s.set(Field::Position(Side::B, 0), 1.0));
        assert!(s.run.comparison.reference_name.contains("epa"));
        assert!(!s.run.comparison.flagged, "{:?}", s.run.comparison);
        for kind in [
            QueryKind::Intersect,
            QueryKind::Penetration,
            QueryKind::SignedDistance,
            QueryKind::Sweep,
        ] {
            assert!(s.set_kind(kind));
            let c = &s.run.comparison;
            assert!(c.difference.is_some(), "{kind}: {c:?}");
        }
        // Sphere sweep: the default sweep against the analytic one.
        assert!(s.set(Field::Position(Side::B, 0), 5.0));
        assert!(s.set(Field::Translation(0), 9.0));
        assert!(s.move_motion([1.0, 0.0, 0.0]));
        assert_eq!(s.query.translation, Some([10.0, 0.0, 0.0]));
        let c = &s.run.comparison;
        assert_eq!(c.reference_name, "analytic");
        assert!(!c.flagged, "{c:?}");
        // A forced disagreement is flagged.
        let c = compare(&s.query, s.run.answer.as_ref().ok(), -1.0);
        assert!(c.flagged);
        assert!(c.difference.is_some());
    }

    #[test]
    fn signed_distance_is_compared_along_its_normal_through_contact() {
        let mut s = spheres();
        assert!(s.set_kind(QueryKind::SignedDistance));
        for (x, expected) in [(3.0, 1.0), (1.5, -0.5), (2.0 + 1e-9, 1e-9)] {
            assert!(s.set(Field::Position(Side::B, 0), x) || x == 3.0);
            let c = &s.run.comparison;
            assert_eq!(c.quantity, "signed distance");
            assert!(c.reference_name.contains("normal"), "{c:?}");
            assert!(!c.flagged, "x = {x}: {c:?}");
            let Ok(Answer {
                outcome: Outcome::SignedDistance { distance, .. },
                ..
            }) = &s.run.answer
            else {
                panic!("not a signed distance: {:?}", s.run.answer);
            };
            assert!((distance - expected).abs() < 1e-9, "x = {x}: {distance}");
        }
        // A wrong value or a normal that is not the best direction is flagged.
        assert!(s.set(Field::Position(Side::B, 0), 1.5));
        let answer = s.run.answer.clone().expect("answers");
        for doctor in [
            (|d: &mut f64, _: &mut [f64; 3]| *d = -0.4) as fn(&mut f64, &mut [f64; 3]),
            |_, n| *n = [0.6, 0.8, 0.0],
        ] {
            let mut wrong = answer.clone();
            if let Outcome::SignedDistance {
                distance, normal, ..
            } = &mut wrong.outcome
            {
                doctor(distance, normal);
            }
            let c = compare(&s.query, Some(&wrong), s.tolerance);
            assert!(c.flagged, "{c:?}");
        }
    }

    #[test]
    fn edits_keep_the_step() {
        let mut s = Sandbox::preset("Deep overlap").expect("preset");
        let mut session = s.session();
        let steps = session.trace.steps();
        assert!(steps >= 2, "{steps}");
        session.command(Command::SeekStep(2));
        assert!(s.nudge(Field::Position(Side::B, 0), Nudge::Up));
        s.show_in(&mut session);
        assert_eq!(session.trace.step_at(session.timeline.cursor()), 2);
        assert!(session.title.contains("Deep overlap"));
        // A shorter recording: the last step.
        let deep = session.trace.steps();
        session.command(Command::SeekStep(deep));
        assert!(s.set(Field::Position(Side::B, 0), 30.0));
        s.show_in(&mut session);
        assert!(session.trace.steps() < deep);
        assert_eq!(
            session.trace.step_at(session.timeline.cursor()),
            session.trace.steps()
        );
    }

    #[test]
    fn save_as_fixture_and_open_it_again() {
        let dir = std::env::temp_dir().join(format!("cspace-sandbox-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = Sandbox::preset("Grazing contact").expect("preset");
        s.save_dir.clone_from(&dir);
        let path = s.save_fixture().expect("saved");
        let f = Fixture::load(&path).expect("loads");
        assert_eq!(f.query(), &s.query);
        assert!(!s.run.comparison.flagged);
        assert_eq!(f.file.checks.len(), 2, "hit and toi pinned");
        assert!(f.file.failure.is_none());
        // Replay: the re-run recording is bit-identical.
        let rerun = crate::state::rerun::Rerun::run(&f);
        assert_eq!(rerun.check, Ok(()));
        assert!(rerun.identical);
        let back = Sandbox::open_fixture(&path).expect("opens");
        assert_eq!(back.query, s.query);
        assert!(back.origin.contains("sandbox-grazing_contact"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
