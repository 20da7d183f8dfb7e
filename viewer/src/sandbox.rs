//! The sandbox: a query built and edited in the viewer. Every edit re-runs
//! the query with recording on; an invalid edit keeps the last good run and
//! its error message is shown. Nudges walk a value by one ULP (in the query's
//! precision) or by 1e-6; presets load the cases that break algorithms; the
//! [`Comparison`] puts the answer next to a second algorithm's.

use crate::session::Session;
use crate::trace::Trace;
use cspace::check::Check;
use cspace::fixture::{self, Fixture};
use cspace::query::{Algorithm, Answer, Body, Outcome, Precision, Query, QueryKind, ShapeSpec};
use std::path::{Path, PathBuf};

/// One of the two bodies of the query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Shape A (the moving one in a sweep).
    A = 0,
    /// Shape B.
    B = 1,
}

/// A number of the query that nudges address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Component `axis` (0..3) of a body's position.
    Position(Side, usize),
    /// Component `axis` (0..3) of the sweep's motion.
    Translation(usize),
    /// A body's margin.
    Margin(Side),
}

/// How far a nudge moves a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nudge {
    /// Up by one ULP in the query's precision.
    UlpUp,
    /// Down by one ULP in the query's precision.
    UlpDown,
    /// Up by 1e-6.
    Up,
    /// Down by 1e-6.
    Down,
}

/// The shape types `eval` accepts, for picking one.
pub const SHAPE_KINDS: [&str; 7] = [
    "sphere", "box", "capsule", "cylinder", "cone", "hull", "point",
];

/// The last query that ran: its answer (or why it has none) and recording.
#[derive(Clone, Debug)]
pub struct Run {
    /// The query that ran.
    pub query: Query,
    /// Its answer, or the panic message when the algorithm panicked.
    pub answer: Result<Answer, String>,
    /// The recording's stream bytes.
    pub recording: Vec<u8>,
    /// The answer beside a second algorithm's.
    pub comparison: Comparison,
}

/// The results panel: the query's answer next to a reference answer from a
/// second algorithm, and their difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// What is compared, e.g. "distance" or "time of impact".
    pub quantity: &'static str,
    /// The query's algorithm and value, as text.
    pub answer: String,
    /// The reference algorithm (how the reference was computed).
    pub reference_name: String,
    /// The reference's value, as text.
    pub reference: String,
    /// |answer − reference|, when both have a value (`None`: one is missing).
    pub difference: Option<f64>,
    /// The largest difference not flagged.
    pub tolerance: f64,
    /// Whether the two disagree beyond the tolerance (or one has no answer).
    pub flagged: bool,
}

/// The sandbox state.
#[derive(Clone, Debug)]
pub struct Sandbox {
    /// The query as edited (may be invalid; see [`Sandbox::error`]).
    pub query: Query,
    /// The last run of a valid query.
    pub run: Run,
    /// Why the edited query does not run, when it does not.
    pub error: Option<String>,
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
    pub saved: Option<Result<PathBuf, String>>,
}

fn body(shape: ShapeSpec, position: [f64; 3]) -> Body {
    Body {
        shape,
        position,
        rotation: [0.0, 0.0, 0.0, 1.0],
    }
}

fn cube(h: [f64; 3]) -> ShapeSpec {
    ShapeSpec::Box {
        half_extents: h,
        margin: None,
    }
}

/// A box as the hull of its corners: penetration runs GJK and EPA on it
/// (two true boxes are answered by the separating axis test, nothing to watch).
fn cube_hull(h: [f64; 3]) -> ShapeSpec {
    let points = (0..8)
        .map(|i| {
            let s = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            [s(1) * h[0], s(2) * h[1], s(4) * h[2]]
        })
        .collect();
    ShapeSpec::Hull {
        points,
        margin: None,
    }
}

fn sphere(radius: f64) -> ShapeSpec {
    ShapeSpec::Sphere {
        radius,
        margin: None,
    }
}

fn query(kind: QueryKind, a: Body, b: Body, translation: Option<[f64; 3]>) -> Query {
    Query {
        id: None,
        query: kind,
        precision: Precision::F64,
        algorithm: None,
        a,
        b,
        translation,
    }
}

/// The quaternion `[x, y, z, w]` of a rotation by `angle` radians about `axis`
/// (normalised; the identity for a zero axis).
#[must_use]
pub fn axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let n = axis.iter().map(|c| c * c).sum::<f64>().sqrt();
    if n == 0.0 || !n.is_finite() {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let (s, c) = (angle * 0.5).sin_cos();
    [axis[0] / n * s, axis[1] / n * s, axis[2] / n * s, c]
}

/// The axis and angle (radians) of quaternion `q` (axis x for the identity).
#[must_use]
pub fn to_axis_angle(q: [f64; 4]) -> ([f64; 3], f64) {
    let v = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]).sqrt();
    if v == 0.0 {
        return ([1.0, 0.0, 0.0], 0.0);
    }
    ([q[0] / v, q[1] / v, q[2] / v], 2.0 * v.atan2(q[3]))
}

/// The presets: cases that break algorithms, by name.
#[must_use]
pub fn presets() -> Vec<(&'static str, Query)> {
    use QueryKind::{Distance, Intersect, Penetration, Sweep};
    let rot_z = |a: f64| axis_angle([0.0, 0.0, 1.0], a);
    let mut thin_b = body(cube([50.0, 0.005, 0.005]), [0.0, 0.0, 0.02]);
    thin_b.rotation = axis_angle([0.0, 0.0, 1.0], 0.001);
    let mut parallel_b = body(cube([1.0, 1.0, 1.0]), [0.0, 2.001, 0.0]);
    parallel_b.rotation = rot_z(1e-7);
    let mut grazing = query(
        Sweep,
        body(sphere(0.5), [-5.0, 1.5, 0.0]),
        body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
        Some([10.0, 0.0, 0.0]),
    );
    grazing.algorithm = Some(Algorithm::Ca);
    let mut far = query(
        Sweep,
        body(sphere(1.0), [1e6, 1e6, 0.0]),
        body(cube([1.0, 1.0, 1.0]), [1e6 + 10.0, 1e6, 0.0]),
        Some([20.0, 0.0, 0.0]),
    );
    far.algorithm = Some(Algorithm::Ca);
    let coplanar = ShapeSpec::Hull {
        points: vec![
            [-1.0, 0.0, -1.0],
            [1.0, 0.0, -1.0],
            [1.0, 0.0, 1.0],
            [-1.0, 0.0, 1.0],
        ],
        margin: None,
    };
    let segment = ShapeSpec::Hull {
        points: vec![[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
        margin: None,
    };
    let mut deep = query(
        Penetration,
        body(cube_hull([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
        body(cube_hull([1.0, 1.0, 1.0]), [0.01, 0.02, 0.0]),
        None,
    );
    deep.b.rotation = axis_angle([1.0, 1.0, 0.0], 0.3);
    vec![
        (
            "Long thin boxes",
            query(
                Distance,
                body(cube([50.0, 0.005, 0.005]), [0.0, 0.0, 0.0]),
                thin_b,
                None,
            ),
        ),
        (
            "Very different scales",
            query(
                Distance,
                body(sphere(1000.0), [0.0, 0.0, 0.0]),
                body(cube([0.001, 0.001, 0.001]), [1000.002, 0.0, 0.0]),
                None,
            ),
        ),
        ("Grazing contact", grazing),
        (
            "Exactly touching",
            query(
                Intersect,
                body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
                body(cube([1.0, 1.0, 1.0]), [2.0, 0.0, 0.0]),
                None,
            ),
        ),
        (
            "Nearly parallel faces",
            query(
                Distance,
                body(cube([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0]),
                parallel_b,
                None,
            ),
        ),
        ("Deep overlap", deep),
        (
            "Degenerate hull (coplanar)",
            query(
                Distance,
                body(coplanar, [0.0, 0.0, 0.0]),
                body(sphere(0.5), [0.3, 0.8, 0.2]),
                None,
            ),
        ),
        (
            "Degenerate hull (2 points)",
            query(
                Penetration,
                body(segment, [0.0, 0.0, 0.0]),
                body(cube([0.5, 0.5, 0.5]), [0.2, 0.1, 0.0]),
                None,
            ),
        ),
        ("Sphere sweep far from the origin", far),
    ]
}

/// A default shape of type `kind` (one of [`SHAPE_KINDS`]) with `margin`;
/// `None` for an unknown name.
#[must_use]
pub fn default_shape(kind: &str, margin: Option<f64>) -> Option<ShapeSpec> {
    Some(match kind {
        "sphere" => ShapeSpec::Sphere {
            radius: 1.0,
            margin,
        },
        "box" => ShapeSpec::Box {
            half_extents: [1.0; 3],
            margin,
        },
        "capsule" => ShapeSpec::Capsule {
            half_height: 1.0,
            radius: 0.5,
            margin,
        },
        "cylinder" => ShapeSpec::Cylinder {
            half_height: 1.0,
            radius: 1.0,
            margin,
        },
        "cone" => ShapeSpec::Cone {
            half_height: 1.0,
            radius: 1.0,
            margin,
        },
        "hull" => ShapeSpec::Hull {
            points: vec![
                [1.0, 0.0, 0.0],
                [-1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
            ],
            margin,
        },
        "point" => ShapeSpec::Point { margin },
        _ => return None,
    })
}

/// The margin of a shape (0 when absent).
#[must_use]
pub fn margin_of(shape: &ShapeSpec) -> Option<f64> {
    match shape {
        ShapeSpec::Sphere { margin, .. }
        | ShapeSpec::Box { margin, .. }
        | ShapeSpec::Capsule { margin, .. }
        | ShapeSpec::Cylinder { margin, .. }
        | ShapeSpec::Cone { margin, .. }
        | ShapeSpec::Hull { margin, .. }
        | ShapeSpec::Point { margin } => *margin,
    }
}

/// The margin field of a shape.
pub fn margin_mut(shape: &mut ShapeSpec) -> &mut Option<f64> {
    match shape {
        ShapeSpec::Sphere { margin, .. }
        | ShapeSpec::Box { margin, .. }
        | ShapeSpec::Capsule { margin, .. }
        | ShapeSpec::Cylinder { margin, .. }
        | ShapeSpec::Cone { margin, .. }
        | ShapeSpec::Hull { margin, .. }
        | ShapeSpec::Point { margin } => margin,
    }
}

/// `v` moved by `nudge` in precision `p`. ULP steps are taken in the
/// precision the query runs in: in f32 the value is first rounded to f32, so
/// the f32 input's bits change by exactly one.
#[must_use]
pub fn nudged(v: f64, nudge: Nudge, p: Precision) -> f64 {
    match (nudge, p) {
        (Nudge::Up, _) => v + 1e-6,
        (Nudge::Down, _) => v - 1e-6,
        (Nudge::UlpUp, Precision::F64) => v.next_up(),
        (Nudge::UlpDown, Precision::F64) => v.next_down(),
        #[expect(clippy::cast_possible_truncation, reason = "the query runs in f32")]
        (Nudge::UlpUp, Precision::F32) => f64::from((v as f32).next_up()),
        #[expect(clippy::cast_possible_truncation, reason = "the query runs in f32")]
        (Nudge::UlpDown, Precision::F32) => f64::from((v as f32).next_down()),
    }
}

impl Side {
    /// The body of `q` on this side.
    #[must_use]
    pub fn of(self, q: &Query) -> &Body {
        match self {
            Self::A => &q.a,
            Self::B => &q.b,
        }
    }

    /// The body of `q` on this side, to edit.
    pub fn of_mut(self, q: &mut Query) -> &mut Body {
        match self {
            Self::A => &mut q.a,
            Self::B => &mut q.b,
        }
    }
}

impl Field {
    /// The field's value in `q` (`None` for a sweep motion not set).
    #[must_use]
    pub fn get(self, q: &Query) -> Option<f64> {
        match self {
            Self::Position(s, i) => s.of(q).position.get(i).copied(),
            Self::Translation(i) => q.translation.and_then(|t| t.get(i).copied()),
            Self::Margin(s) => Some(margin_of(&s.of(q).shape).unwrap_or(0.0)),
        }
    }

    /// Sets the field's value in `q` (a motion is created when absent).
    pub fn set(self, q: &mut Query, v: f64) {
        match self {
            Self::Position(s, i) => {
                if let Some(c) = s.of_mut(q).position.get_mut(i) {
                    *c = v;
                }
            }
            Self::Translation(i) => {
                let t = q.translation.get_or_insert([0.0; 3]);
                if let Some(c) = t.get_mut(i) {
                    *c = v;
                }
            }
            Self::Margin(s) => *margin_mut(&mut s.of_mut(q).shape) = Some(v),
        }
    }
}

/// Runs `q` with recording on, the way fixtures capture and replay do (so a
/// saved fixture's recording replays bit for bit), and compares the answer.
/// `Err` is the validation error.
fn execute(q: &Query, tolerance: f64) -> Result<Run, String> {
    q.validate().map_err(|e| e.to_string())?;
    let (result, recording) = fixture::run_recorded(q);
    let answer = match result {
        Ok(Ok(a)) => Ok(a),
        Ok(Err(e)) => return Err(e.to_string()),
        Err(payload) => Err(format!(
            "the algorithm panicked: {}",
            fixture::panic_message(payload.as_ref())
        )),
    };
    let comparison = compare(q, answer.as_ref().ok(), tolerance);
    Ok(Run {
        query: q.clone(),
        answer,
        recording: recording.bytes,
        comparison,
    })
}

/// `q` run (not recorded) as `kind` with `algorithm`; `None` when that is
/// invalid or the algorithm panics.
fn reference_run(q: &Query, kind: QueryKind, algorithm: Algorithm) -> Option<Answer> {
    let mut r = q.clone();
    r.query = kind;
    r.algorithm = Some(algorithm);
    std::panic::catch_unwind(|| cspace::query::run(&r))
        .ok()
        .and_then(Result::ok)
}

fn fmt_f(v: f64) -> String {
    format!("{v:.17e}")
}

/// One side-by-side result: the answer's text, the reference's name and
/// text, and both values as numbers when there are some.
struct Pairing {
    answer: Option<String>,
    reference_name: String,
    reference: String,
    values: (Option<f64>, Option<f64>),
}

const NO_ANSWER: &str = "(no answer)";

fn compare_distance(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let Some(Answer {
        outcome:
            Outcome::Distance {
                distance,
                point_a,
                point_b,
                intersecting,
            },
        ..
    }) = answer
    else {
        return Pairing {
            answer: None,
            reference_name: "ca sweep along the separating direction".to_owned(),
            reference: NO_ANSWER.to_owned(),
            values: (None, None),
        };
    };
    let distance = *distance;
    let shown = Some(format!("{alg}: {}", fmt_f(distance)));
    let dir: [f64; 3] = std::array::from_fn(|i| point_b[i] - point_a[i]);
    let len = dir.iter().map(|c| c * c).sum::<f64>().sqrt();
    if *intersecting || len == 0.0 || distance == 0.0 {
        let (reference, value) = match reference_run(q, QueryKind::Penetration, Algorithm::Epa) {
            Some(Answer {
                outcome:
                    Outcome::Penetration {
                        depth,
                        intersecting: true,
                        ..
                    },
                ..
            }) => (
                format!("0 (intersecting, depth {})", fmt_f(depth)),
                Some(0.0),
            ),
            Some(_) => ("EPA says apart".to_owned(), None),
            None => (NO_ANSWER.to_owned(), None),
        };
        return Pairing {
            answer: shown,
            reference_name: "epa (intersection)".to_owned(),
            reference,
            values: (Some(distance), value),
        };
    }
    // Moving A by 2·d along the separating direction touches B at t = 1/2.
    let mut s = q.clone();
    s.translation = Some(dir.map(|x| x / len * 2.0 * distance));
    let (reference, value) = match reference_run(&s, QueryKind::Sweep, Algorithm::Ca) {
        Some(Answer {
            outcome:
                Outcome::Sweep {
                    hit: true,
                    toi: Some(t),
                    ..
                },
            ..
        }) => {
            let d = t * 2.0 * distance;
            (fmt_f(d), Some(d))
        }
        Some(_) => ("no contact within 2 × distance".to_owned(), None),
        None => (NO_ANSWER.to_owned(), None),
    };
    Pairing {
        answer: shown,
        reference_name: "ca sweep along the separating direction".to_owned(),
        reference,
        values: (Some(distance), value),
    }
}

fn compare_intersect(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let other = if alg == Algorithm::Mpr {
        Algorithm::Gjk
    } else {
        Algorithm::Mpr
    };
    let flag = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Intersect { intersecting }) => Some(*intersecting),
        _ => None,
    };
    let (x, y) = (
        flag(answer),
        flag(reference_run(q, QueryKind::Intersect, other).as_ref()),
    );
    Pairing {
        answer: x.map(|v| format!("{alg}: {v}")),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), |v| v.to_string()),
        values: (x.map(f64::from), y.map(f64::from)),
    }
}

fn compare_penetration(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let other = if alg == Algorithm::Mpr {
        Algorithm::Epa
    } else {
        Algorithm::Mpr
    };
    let depth = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Penetration { depth, .. }) => Some(*depth),
        _ => None,
    };
    let (x, y) = (
        depth(answer),
        depth(reference_run(q, QueryKind::Penetration, other).as_ref()),
    );
    Pairing {
        answer: x.map(|v| format!("{alg}: {}", fmt_f(v))),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), fmt_f),
        values: (x, y),
    }
}

fn compare_sweep(q: &Query, answer: Option<&Answer>, alg: Algorithm) -> Pairing {
    let mut analytic = q.clone();
    analytic.algorithm = Some(Algorithm::Analytic);
    let other = if alg != Algorithm::Analytic && analytic.validate().is_ok() {
        Algorithm::Analytic
    } else if alg == Algorithm::Ca {
        Algorithm::Raycast
    } else {
        Algorithm::Ca
    };
    let toi = |a: Option<&Answer>| match a.map(|a| &a.outcome) {
        Some(Outcome::Sweep { toi, .. }) => Some(*toi),
        _ => None,
    };
    let show = |t: Option<f64>| t.map_or_else(|| "miss".to_owned(), fmt_f);
    let (x, y) = (
        toi(answer),
        toi(reference_run(q, QueryKind::Sweep, other).as_ref()),
    );
    let values = match (x, y) {
        // Both miss: they agree.
        (Some(None), Some(None)) => (Some(0.0), Some(0.0)),
        (Some(a), Some(b)) => (a, b),
        _ => (None, None),
    };
    Pairing {
        answer: x.map(|t| format!("{alg}: {}", show(t))),
        reference_name: other.to_string(),
        reference: y.map_or_else(|| NO_ANSWER.to_owned(), show),
        values,
    }
}

/// The answer to `q` (if any) beside a second algorithm's: distance against a
/// conservative-advancement sweep along GJK's separating direction (EPA when
/// GJK reports an intersection), penetration EPA against MPR, intersection
/// GJK against MPR, and a sweep against another sweep method (the analytic
/// sweep when it covers the shapes). Flagged when
/// `|answer − reference| > tolerance · max(1, |answer|, |reference|)` or
/// either has no value.
#[must_use]
pub fn compare(q: &Query, answer: Option<&Answer>, tolerance: f64) -> Comparison {
    let alg = q.resolved_algorithm();
    let (quantity, p) = match q.query {
        QueryKind::Distance => ("distance", compare_distance(q, answer, alg)),
        QueryKind::Intersect => ("intersecting", compare_intersect(q, answer, alg)),
        QueryKind::Penetration => ("depth", compare_penetration(q, answer, alg)),
        QueryKind::Sweep => ("time of impact", compare_sweep(q, answer, alg)),
    };
    let difference = match p.values {
        (Some(x), Some(y)) => Some(((x - y).abs(), x.abs().max(y.abs()).max(1.0))),
        _ => None,
    };
    Comparison {
        quantity,
        answer: p.answer.unwrap_or_else(|| format!("{alg}: {NO_ANSWER}")),
        reference_name: p.reference_name,
        reference: p.reference,
        difference: difference.map(|(d, _)| d),
        tolerance,
        flagged: difference.is_none_or(|(d, scale)| d.is_nan() || d > tolerance * scale),
    }
}

/// The default comparison tolerance of a precision.
#[must_use]
pub fn default_tolerance(p: Precision) -> f64 {
    match p {
        Precision::F64 => 1e-6,
        Precision::F32 => 1e-3,
    }
}

impl Sandbox {
    /// A sandbox on `query`, started from `origin` (a preset or fixture name).
    ///
    /// # Errors
    /// The query is invalid (its message names the field).
    pub fn new(query: Query, origin: impl Into<String>) -> Result<Self, String> {
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

    /// A sandbox on preset `name` (see [`presets`]).
    ///
    /// # Errors
    /// No preset has that name, or it does not run.
    pub fn preset(name: &str) -> Result<Self, String> {
        let (n, q) = presets()
            .into_iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| format!("no preset named {name:?}"))?;
        Self::new(q, n)
    }

    /// A sandbox on a fixture's query, to edit.
    ///
    /// # Errors
    /// The fixture's query does not run.
    pub fn from_fixture(f: &Fixture) -> Result<Self, String> {
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
            self.error = Some(format!("no preset named {name:?}"));
            return false;
        };
        n.clone_into(&mut self.origin);
        self.edit(|query| *query = q)
    }

    /// Sets the shape type of `side` (its margin kept, parameters defaulted).
    pub fn set_shape_kind(&mut self, side: Side, kind: &str) -> bool {
        let margin = margin_of(&side.of(&self.query).shape);
        let Some(shape) = default_shape(kind, margin) else {
            self.error = Some(format!("unknown shape type {kind:?}"));
            return false;
        };
        self.edit(|q| side.of_mut(q).shape = shape)
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
            Err(e) => e.clone(),
        }
    }

    /// Writes the last good run as a fixture (query, answer and recording) in
    /// [`save_dir`](Self::save_dir); returns the JSON part's path. Refused
    /// while the edited query is invalid (the fixture would not be what is shown).
    ///
    /// # Errors
    /// The query is invalid, or writing failed.
    pub fn save_fixture(&self) -> Result<PathBuf, String> {
        if let Some(e) = &self.error {
            return Err(format!("the edited query is invalid: {e}"));
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
        std::fs::create_dir_all(&self.save_dir)
            .map_err(|e| format!("{}: {e}", self.save_dir.display()))?;
        f.save_in(&self.save_dir).map_err(|e| e.to_string())
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
            Outcome::Distance { distance, .. } => vec![near("distance", *distance)],
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
    pub fn open_fixture(path: &Path) -> Result<Self, String> {
        let f = Fixture::load(path).map_err(|e| e.to_string())?;
        Self::from_fixture(&f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::Command;

    fn distance(s: &Sandbox) -> f64 {
        match &s.run.answer {
            Ok(Answer {
                outcome: Outcome::Distance { distance, .. },
                ..
            }) => *distance,
            other => panic!("not a distance: {other:?}"),
        }
    }

    fn spheres() -> Sandbox {
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
        assert_eq!(s.query.a.shape.type_name(), "box");
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
        assert!(!s.edit(|q| q.b.shape = sphere(-1.0)));
        let e = s.error.clone().expect("error shown");
        assert!(e.contains("b.shape.radius"), "{e}");
        assert_eq!(s.run.recording, before);
        assert!((distance(&s) - 1.0).abs() < 1e-9);
        assert!(s.save_fixture().is_err());
        assert!(!s.edit(|q| q.a.rotation = [0.0, 0.0, 0.0, 2.0]));
        assert!(s.error.as_deref().is_some_and(|e| e.contains("a.rotation")));
        // Fixing it clears the error.
        assert!(s.edit(|q| {
            q.b.shape = sphere(1.0);
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
        assert_eq!(margin_of(&s.query.a.shape), Some(1e-6));
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
        let rerun = crate::rerun::Rerun::run(&f);
        assert_eq!(rerun.check, Ok(()));
        assert!(rerun.identical);
        let back = Sandbox::open_fixture(&path).expect("opens");
        assert_eq!(back.query, s.query);
        assert!(back.origin.contains("sandbox-grazing_contact"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
