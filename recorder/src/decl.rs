//! Declaring shapes without cspace's shape types: vertex sets, triangle meshes
//! and sampled support functions, for engines that bring their own shapes.

use crate::IntoVec3;
use crate::event::{ShapeDecl, ShapeGeom};

impl ShapeDecl {
    /// The identity rotation as a unit quaternion `[x, y, z, w]`.
    pub const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

    /// `geom` at the world origin, unrotated, without margin.
    #[must_use]
    pub fn new(geom: ShapeGeom) -> Self {
        Self {
            geom,
            margin: 0.0,
            position: [0.0; 3],
            rotation: Self::IDENTITY,
        }
    }

    /// The convex hull of `points`, given in world space (or in the local frame
    /// when followed by [`ShapeDecl::at`]). Any [`IntoVec3`] type works; f32
    /// coordinates widen to f64 exactly.
    ///
    /// ```
    /// use cspace_recorder::ShapeDecl;
    ///
    /// // A tetrahedron given by its world-space vertices, in any vector type.
    /// let a = ShapeDecl::hull([
    ///     [0.0f32, 0.0, 0.0],
    ///     [1.0, 0.0, 0.0],
    ///     [0.0, 1.0, 0.0],
    ///     [0.0, 0.0, 1.0],
    /// ]);
    /// // A shape only known by its support function (here a sphere of radius 2),
    /// // sampled in 64 directions, placed at x = 5.
    /// let b = ShapeDecl::sampled(64, |d: [f64; 3]| d.map(|c| 2.0 * c))
    ///     .at([5.0, 0.0, 0.0], ShapeDecl::IDENTITY);
    /// let ((), recording) = cspace_recorder::record(|| cspace_recorder::shapes!(a, b));
    /// # #[cfg(feature = "enabled")]
    /// assert!(recording.events().iter().any(|e| matches!(e, cspace_recorder::Event::Shapes { .. })));
    /// ```
    #[must_use]
    pub fn hull<V: IntoVec3>(points: impl IntoIterator<Item = V>) -> Self {
        Self::new(ShapeGeom::Hull {
            points: points.into_iter().map(|p| p.into_vec3().to_f64()).collect(),
        })
    }

    /// A triangle mesh (its convex hull is the shape): vertex positions and
    /// triangles as indices into them.
    #[must_use]
    pub fn mesh<V: IntoVec3>(
        vertices: impl IntoIterator<Item = V>,
        triangles: impl IntoIterator<Item = [u32; 3]>,
    ) -> Self {
        Self::new(ShapeGeom::Mesh {
            vertices: vertices
                .into_iter()
                .map(|p| p.into_vec3().to_f64())
                .collect(),
            triangles: triangles.into_iter().collect(),
        })
    }

    /// A shape known only by its support function, declared as the hull of
    /// its support points in the six axis directions and `directions` more
    /// spread evenly over the unit sphere (a Fibonacci lattice).
    ///
    /// `support` receives a unit direction and returns the shape's farthest
    /// point in that direction. The hull approximates curved shapes from the
    /// inside; more directions draw them more faithfully.
    #[must_use]
    pub fn sampled<V: IntoVec3>(directions: usize, mut support: impl FnMut([f64; 3]) -> V) -> Self {
        Self::hull(
            sphere_directions(directions)
                .into_iter()
                .map(|d| support(d).into_vec3()),
        )
    }

    /// The same shape placed with its local origin at `position`, rotated by
    /// the unit quaternion `rotation` (`[x, y, z, w]`).
    #[must_use]
    pub fn at(mut self, position: impl IntoVec3, rotation: [f64; 4]) -> Self {
        self.position = position.into_vec3().to_f64();
        self.rotation = rotation;
        self
    }

    /// The same shape Minkowski-summed with a sphere of radius `margin`.
    #[must_use]
    pub fn with_margin(mut self, margin: f64) -> Self {
        self.margin = margin;
        self
    }
}

/// One parameter of a [`ShapeGeom`], for code that treats every shape kind
/// alike: validation, diffs, printing, editors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Param<'a> {
    /// A size (≥ 0 in a valid shape): a radius, a half height.
    Size(f64),
    /// Sizes per axis (each ≥ 0 in a valid shape): half extents.
    Sizes(&'a [f64; 3]),
    /// Points in the local frame: a hull's points, a mesh's vertices.
    Points(&'a [[f64; 3]]),
    /// Triangles as indices into the points.
    Triangles(&'a [[u32; 3]]),
}

impl ShapeGeom {
    /// The kind's name as in JSON queries: `"sphere"`, `"box"`, ….
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Point => "point",
            Self::Sphere { .. } => "sphere",
            Self::Box { .. } => "box",
            Self::Capsule { .. } => "capsule",
            Self::Cylinder { .. } => "cylinder",
            Self::Cone { .. } => "cone",
            Self::Hull { .. } => "hull",
            Self::Mesh { .. } => "mesh",
        }
    }

    /// Every kind's name, in declaration order.
    pub const KINDS: [&'static str; 8] = [
        "point", "sphere", "box", "capsule", "cylinder", "cone", "hull", "mesh",
    ];

    /// The parameters by field name, in declaration order.
    #[must_use]
    pub fn params(&self) -> Vec<(&'static str, Param<'_>)> {
        match self {
            Self::Point => vec![],
            Self::Sphere { radius } => vec![("radius", Param::Size(*radius))],
            Self::Box { half_extents } => vec![("half_extents", Param::Sizes(half_extents))],
            Self::Capsule {
                half_height,
                radius,
            }
            | Self::Cylinder {
                half_height,
                radius,
            }
            | Self::Cone {
                half_height,
                radius,
            } => vec![
                ("half_height", Param::Size(*half_height)),
                ("radius", Param::Size(*radius)),
            ],
            Self::Hull { points } => vec![("points", Param::Points(points))],
            Self::Mesh {
                vertices,
                triangles,
            } => vec![
                ("vertices", Param::Points(vertices)),
                ("triangles", Param::Triangles(triangles)),
            ],
        }
    }

    /// Every number of the parameters in order (triangle indices as f64).
    #[must_use]
    pub fn numbers(&self) -> Vec<f64> {
        let mut out = Vec::new();
        for (_, p) in self.params() {
            match p {
                Param::Size(v) => out.push(v),
                Param::Sizes(v) => out.extend_from_slice(v),
                Param::Points(ps) => out.extend(ps.iter().flatten()),
                Param::Triangles(ts) => out.extend(ts.iter().flatten().map(|&i| f64::from(i))),
            }
        }
        out
    }
}

impl From<ShapeGeom> for ShapeDecl {
    /// `geom` at the world origin, unrotated, without margin.
    fn from(geom: ShapeGeom) -> Self {
        Self::new(geom)
    }
}

/// The six axis directions, then `n` unit vectors on a Fibonacci lattice.
fn sphere_directions(n: usize) -> Vec<[f64; 3]> {
    let golden_angle = std::f64::consts::PI * (3.0 - 5.0_f64.sqrt());
    let axes = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let lattice = (0..n).map(|i| {
        let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let r = (1.0 - y * y).max(0.0).sqrt();
        let phi = golden_angle * i as f64;
        [r * phi.cos(), y, r * phi.sin()]
    });
    axes.into_iter().chain(lattice).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::stream;

    #[test]
    fn hull_widens_f32_exactly_and_sits_at_the_origin() {
        let d = ShapeDecl::hull([[0.1f32, 0.2, 0.3], [1.0, 2.0, 3.0]]);
        assert_eq!(
            d.geom,
            ShapeGeom::Hull {
                points: vec![
                    [f64::from(0.1f32), f64::from(0.2f32), f64::from(0.3f32)],
                    [1.0, 2.0, 3.0]
                ]
            }
        );
        assert_eq!(
            (d.margin, d.position, d.rotation),
            (0.0, [0.0; 3], ShapeDecl::IDENTITY)
        );
    }

    #[test]
    fn mesh_pose_and_margin_survive_the_stream() {
        let d = ShapeDecl::mesh(
            [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)],
            [[0, 1, 2]],
        )
        .at([1.0f32, 2.0, 3.0], [0.0, 0.0, 1.0, 0.0])
        .with_margin(0.25);
        assert_eq!(d.position, [1.0, 2.0, 3.0]);
        let event = Event::Shapes {
            site: 0,
            a: Box::new(d.clone()),
            b: Box::new(ShapeGeom::Point.into()),
            motion: None,
        };
        let decoded = stream::decode(&stream::encode_stream(std::slice::from_ref(&event)));
        assert_eq!(decoded.events[0].event, event);
    }

    #[test]
    fn sampled_sphere_has_unit_points_including_the_axis_extremes() {
        let d = ShapeDecl::sampled(50, |dir: [f64; 3]| dir);
        let ShapeGeom::Hull { points } = d.geom else {
            panic!("sampled shapes are hulls");
        };
        assert_eq!(points.len(), 56);
        assert!(points.contains(&[0.0, -1.0, 0.0]));
        for p in &points {
            let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-12, "{p:?}");
        }
    }
}
