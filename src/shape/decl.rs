//! The one conversion between the algorithm's shapes and the recorder's
//! [`ShapeDecl`], the shape description every other layer uses (stream, JSON
//! queries, fixtures, viewer).

use super::{Geom, Hull, Placed, Pose, Shape};
use crate::real::{Real, Rotation, V3, Vector};
use cspace_recorder::{ShapeDecl, ShapeGeom};

impl<T: Real> Shape<T> {
    /// The recorder's description of this shape in `pose`.
    #[must_use]
    pub fn decl(&self, pose: &Pose<T>) -> ShapeDecl {
        let geom = match &self.geom {
            Geom::Point => ShapeGeom::Point,
            Geom::Sphere { radius } => ShapeGeom::Sphere {
                radius: radius.to_f64(),
            },
            Geom::Box { half_extents } => ShapeGeom::Box {
                half_extents: half_extents.to_f64(),
            },
            Geom::Capsule {
                half_height,
                radius,
            } => ShapeGeom::Capsule {
                half_height: half_height.to_f64(),
                radius: radius.to_f64(),
            },
            Geom::Cylinder {
                half_height,
                radius,
            } => ShapeGeom::Cylinder {
                half_height: half_height.to_f64(),
                radius: radius.to_f64(),
            },
            Geom::Cone {
                half_height,
                radius,
            } => ShapeGeom::Cone {
                half_height: half_height.to_f64(),
                radius: radius.to_f64(),
            },
            Geom::Hull(hull) => ShapeGeom::Hull {
                points: hull.points().iter().map(|p| p.to_f64()).collect(),
            },
        };
        ShapeDecl {
            geom,
            margin: self.margin.to_f64(),
            position: pose.position.to_f64(),
            rotation: pose.rotation.to_xyzw().map(Real::to_f64),
        }
    }

    /// A shape from the recorder's description (the pose is returned beside
    /// it, its rotation renormalised). Meshes become the hull of their vertices;
    /// an empty hull becomes a point (validation rejects it first).
    #[must_use]
    pub fn from_decl(decl: &ShapeDecl) -> (Self, Pose<T>) {
        let v = |p: [f64; 3]| V3::<T>::from_f64(p);
        let s = T::from_f64;
        let geom = match &decl.geom {
            ShapeGeom::Point => Geom::Point,
            ShapeGeom::Sphere { radius } => Geom::Sphere { radius: s(*radius) },
            ShapeGeom::Box { half_extents } => Geom::Box {
                half_extents: v(*half_extents),
            },
            ShapeGeom::Capsule {
                half_height,
                radius,
            } => Geom::Capsule {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            ShapeGeom::Cylinder {
                half_height,
                radius,
            } => Geom::Cylinder {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            ShapeGeom::Cone {
                half_height,
                radius,
            } => Geom::Cone {
                half_height: s(*half_height),
                radius: s(*radius),
            },
            ShapeGeom::Hull { points }
            | ShapeGeom::Mesh {
                vertices: points, ..
            } => {
                let points: Vec<_> = points.iter().map(|p| v(*p)).collect();
                if points.is_empty() {
                    Geom::Point
                } else {
                    Geom::Hull(Hull::new(points))
                }
            }
        };
        // Renormalised in f64 before rounding to `T` (a zero quaternion is the identity).
        let q = decl.rotation;
        let norm = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        let q = if norm > 0.0 {
            q.map(|c| c / norm)
        } else {
            ShapeDecl::IDENTITY
        };
        let pose = Pose {
            position: v(decl.position),
            rotation: <T::Q as Rotation<T>>::from_xyzw(q.map(s)),
        };
        (Self::with(geom, s(decl.margin)), pose)
    }
}

impl<T: Real> Placed<'_, T> {
    /// The recorder's description of this placed shape.
    #[must_use]
    pub fn decl(&self) -> ShapeDecl {
        self.shape.decl(&self.pose)
    }
}

impl<T: Real> From<Placed<'_, T>> for ShapeDecl {
    fn from(p: Placed<'_, T>) -> Self {
        p.decl()
    }
}

impl<T: Real> From<&Placed<'_, T>> for ShapeDecl {
    fn from(p: &Placed<'_, T>) -> Self {
        p.decl()
    }
}
