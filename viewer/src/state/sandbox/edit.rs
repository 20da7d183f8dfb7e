//! The edits the sandbox panel and the views ask for ([`Edit`]), applied
//! by [`Sandbox::apply`], which says what the view should do ([`Change`]).

use super::{Field, Nudge, Sandbox, Side};
use cspace::model::{Algorithm, Precision, QueryKind};
use cspace_recorder::ShapeGeom;
use std::path::PathBuf;

/// What dragging in object space moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grab {
    /// A body.
    Body(Side),
    /// The tip of a sweep's motion.
    Motion,
}

/// One edit the user asked for in the sandbox panel or by dragging in a view.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Replace the query with a preset (by name).
    LoadPreset(&'static str),
    /// Change the query kind.
    SetKind(QueryKind),
    /// Change the algorithm.
    SetAlgorithm(Algorithm),
    /// Change the precision (the tolerance goes back to its default).
    SetPrecision(Precision),
    /// Change the comparison's relative tolerance.
    SetTolerance(f64),
    /// Change a body's shape type (parameters defaulted, margin kept).
    SetShapeKind(Side, &'static str),
    /// Replace a body's shape (its parameters edited).
    SetShape(Side, ShapeGeom),
    /// Set one number.
    Set(Field, f64),
    /// Nudge one number.
    Nudge(Field, Nudge),
    /// Set a body's rotation quaternion `[x, y, z, w]`.
    SetRotation(Side, [f64; 4]),
    /// Set a body's rotation as axis and angle (radians).
    SetAxisAngle(Side, [f64; 3], f64),
    /// Move a body or the motion's tip by a delta (a drag in object space).
    Move(Grab, [f64; 3]),
    /// Change where "Save as fixture" writes.
    SetSaveDir(PathBuf),
    /// Write the last good run as a fixture.
    SaveFixture,
}

/// What an [`Edit`] did to the sandbox's run, so the view can follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing re-ran.
    None,
    /// The query was edited and re-ran: show the new recording at the same step.
    Edited,
    /// A preset replaced the query: show it and frame the views.
    Replaced,
}

impl Sandbox {
    /// Applies `edit` (re-running the query when it changes it) and says
    /// what the view should do.
    pub fn apply(&mut self, edit: Edit) -> Change {
        let ran = match edit {
            Edit::LoadPreset(name) => {
                return if self.load_preset(name) {
                    Change::Replaced
                } else {
                    Change::None
                };
            }
            Edit::SetKind(kind) => self.set_kind(kind),
            Edit::SetAlgorithm(alg) => self.edit(|q| q.algorithm = Some(alg)),
            Edit::SetPrecision(p) => self.set_precision(p),
            Edit::SetTolerance(t) => {
                self.tolerance = t;
                self.rerun()
            }
            Edit::SetShapeKind(side, kind) => self.set_shape_kind(side, kind),
            Edit::SetShape(side, shape) => self.edit(|q| side.of_mut(q).geom = shape),
            Edit::Set(field, v) => self.set(field, v),
            Edit::Nudge(field, n) => self.nudge(field, n),
            Edit::SetRotation(side, r) => self.edit(|q| side.of_mut(q).rotation = r),
            Edit::SetAxisAngle(side, axis, angle) => self.set_axis_angle(side, axis, angle),
            Edit::Move(Grab::Body(side), delta) => self.move_by(side, delta),
            Edit::Move(Grab::Motion, delta) => self.move_motion(delta),
            Edit::SetSaveDir(dir) => {
                self.save_dir = dir;
                false
            }
            Edit::SaveFixture => {
                self.saved = Some(self.save_fixture());
                false
            }
        };
        if ran { Change::Edited } else { Change::None }
    }
}

#[cfg(test)]
mod tests {
    use super::super::SandboxError;
    use super::super::presets::sphere;
    use super::super::tests::{distance, spheres};
    use super::*;

    #[test]
    fn apply_says_what_changed() {
        let mut s = spheres();
        let f = Field::Position(Side::B, 0);
        assert_eq!(s.apply(Edit::Set(f, 4.0)), Change::Edited);
        assert!((distance(&s) - 2.0).abs() < 1e-9);
        assert_eq!(s.apply(Edit::Nudge(f, Nudge::UlpUp)), Change::Edited);
        assert_eq!(s.query.b.position[0].to_bits(), 4.0f64.to_bits() + 1);
        assert_eq!(
            s.apply(Edit::Move(Grab::Body(Side::B), [1.0, 0.0, 0.0])),
            Change::Edited
        );
        assert_eq!(
            s.apply(Edit::Move(Grab::Motion, [1.0, 0.0, 0.0])),
            Change::None,
            "no motion outside a sweep"
        );
        assert_eq!(s.apply(Edit::SetShape(Side::A, sphere(-1.0))), Change::None);
        assert!(s.error.is_some());
        assert_eq!(
            s.apply(Edit::SetShape(Side::A, sphere(1.0))),
            Change::Edited
        );
        assert_eq!(s.apply(Edit::SetSaveDir("elsewhere".into())), Change::None);
        assert_eq!(s.save_dir, PathBuf::from("elsewhere"));
        assert_eq!(s.apply(Edit::LoadPreset("Deep overlap")), Change::Replaced);
        assert_eq!(s.query.query, QueryKind::Penetration);
        assert_eq!(s.apply(Edit::LoadPreset("nope")), Change::None);
        assert!(matches!(s.error, Some(SandboxError::NoPreset(_))));
    }
}
