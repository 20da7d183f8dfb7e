//! The numbers of a query the sandbox edits: which body ([`Side`]), which
//! number ([`Field`]), how a nudge moves it ([`Nudge`]), and the shape
//! helpers (types, defaults, margins, rotations as axis and angle).

use cspace::model::{Precision, Query};
use cspace_recorder::{ShapeDecl, ShapeGeom};

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

/// The shape types the sandbox edits, for picking one (every JSON kind but
/// `mesh`, whose triangles have no editor).
pub const SHAPE_KINDS: [&str; 7] = [
    "sphere", "box", "capsule", "cylinder", "cone", "hull", "point",
];

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

/// A default shape of type `kind` (one of [`SHAPE_KINDS`]); `None` for an
/// unknown name.
#[must_use]
pub fn default_shape(kind: &str) -> Option<ShapeGeom> {
    Some(match kind {
        "sphere" => ShapeGeom::Sphere { radius: 1.0 },
        "box" => ShapeGeom::Box {
            half_extents: [1.0; 3],
        },
        "capsule" => ShapeGeom::Capsule {
            half_height: 1.0,
            radius: 0.5,
        },
        "cylinder" => ShapeGeom::Cylinder {
            half_height: 1.0,
            radius: 1.0,
        },
        "cone" => ShapeGeom::Cone {
            half_height: 1.0,
            radius: 1.0,
        },
        "hull" => ShapeGeom::Hull {
            points: vec![
                [1.0, 0.0, 0.0],
                [-1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
            ],
        },
        "point" => ShapeGeom::Point,
        _ => return None,
    })
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
    pub fn of(self, q: &Query) -> &ShapeDecl {
        match self {
            Self::A => &q.a,
            Self::B => &q.b,
        }
    }

    /// The body of `q` on this side, to edit.
    pub fn of_mut(self, q: &mut Query) -> &mut ShapeDecl {
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
            Self::Margin(s) => Some(s.of(q).margin),
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
            Self::Margin(s) => s.of_mut(q).margin = v,
        }
    }
}
