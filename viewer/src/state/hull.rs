//! Triangle meshes of convex shapes known only by their support functions:
//! an octahedron of the six axis supports, each triangle split in three at the
//! support point in its outward normal direction until it converges ("More hull").

use cspace::Vector as _;
use cspace::shape::{Placed, Shape};
use cspace_recorder::ShapeDecl;
use glam::DVec3;

/// A triangle mesh.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub vertices: Vec<DVec3>,
    /// Triangles as vertex indices.
    pub triangles: Vec<[u32; 3]>,
    /// The mean of the vertices, inside the convex shape.
    pub centre: DVec3,
}

impl Mesh {
    /// The unit normal of triangle `t`, oriented away from [`Mesh::centre`]
    /// (splitting in three can fold a thin triangle over; the shape is convex,
    /// so away from the centre is outward). Zero when degenerate.
    #[must_use]
    pub fn normal(&self, t: [u32; 3]) -> DVec3 {
        let [a, b, c] = t.map(|i| self.vertices[i as usize]);
        let n = (b - a).cross(c - a).normalize_or_zero();
        if n.dot((a + b + c) / 3.0 - self.centre) < 0.0 {
            -n
        } else {
            n
        }
    }
}

/// Most splitting rounds.
const MAX_ROUNDS: usize = 7;
/// Most triangles in a mesh.
const MAX_TRIANGLES: usize = 6000;

/// The octahedron's corner directions: ±x, ±y, ±z (vertex order 0 to 5).
const AXES: [DVec3; 6] = [
    DVec3::X,
    DVec3::NEG_X,
    DVec3::Y,
    DVec3::NEG_Y,
    DVec3::Z,
    DVec3::NEG_Z,
];

/// Builds the mesh of the convex set with support function `support`.
/// Non-finite supports yield an empty mesh.
///
/// Meshes around the set's own centre, so the subdivision tolerance follows
/// the set's size, not its distance from the world origin (a shape at 1e6
/// meshes as finely as one at the origin).
pub fn mesh(support: impl Fn(DVec3) -> DVec3) -> Mesh {
    let origin = AXES.iter().map(|&d| support(d)).sum::<DVec3>() / 6.0;
    if !origin.is_finite() {
        return Mesh::default();
    }
    let mut mesh = mesh_around_origin(|d| support(d) - origin);
    for v in &mut mesh.vertices {
        *v += origin;
    }
    mesh.centre += origin;
    mesh
}

/// [`mesh`] of a set that contains (or is near) the origin.
fn mesh_around_origin(support: impl Fn(DVec3) -> DVec3) -> Mesh {
    let vertices: Vec<DVec3> = AXES.iter().map(|&d| support(d)).collect();
    if vertices.iter().any(|v| !v.is_finite()) {
        return Mesh::default();
    }
    let scale = vertices.iter().map(|v| v.length()).fold(0.0, f64::max)
        + vertices
            .iter()
            .flat_map(|a| vertices.iter().map(move |b| (*a - *b).length()))
            .fold(0.0, f64::max);
    let tol = 1e-4 * scale.max(1e-300);
    // Octahedron: +x 0, -x 1, +y 2, -y 3, +z 4, -z 5.
    let mut mesh = Mesh {
        centre: DVec3::ZERO,
        vertices,
        triangles: vec![
            [0, 2, 4],
            [4, 2, 1],
            [1, 2, 5],
            [5, 2, 0],
            [4, 3, 0],
            [1, 3, 4],
            [5, 3, 1],
            [0, 3, 5],
        ],
    };
    // Face directions: a degenerate face (flat shapes) is split along the mean of its corner directions.
    let mut dirs: Vec<[DVec3; 3]> = vec![
        [DVec3::X, DVec3::Y, DVec3::Z],
        [DVec3::Z, DVec3::Y, DVec3::NEG_X],
        [DVec3::NEG_X, DVec3::Y, DVec3::NEG_Z],
        [DVec3::NEG_Z, DVec3::Y, DVec3::X],
        [DVec3::Z, DVec3::NEG_Y, DVec3::X],
        [DVec3::NEG_X, DVec3::NEG_Y, DVec3::Z],
        [DVec3::NEG_Z, DVec3::NEG_Y, DVec3::NEG_X],
        [DVec3::X, DVec3::NEG_Y, DVec3::NEG_Z],
    ];
    let mut done = vec![false; mesh.triangles.len()];
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        let count = mesh.triangles.len();
        for t in 0..count {
            if done[t] || mesh.triangles.len() + 2 > MAX_TRIANGLES {
                continue;
            }
            let tri = mesh.triangles[t];
            let [a, b, c] = tri.map(|i| mesh.vertices[i as usize]);
            let n = (b - a).cross(c - a);
            let mean = (dirs[t][0] + dirs[t][1] + dirs[t][2]).normalize_or_zero();
            let d = if n.length_squared() > tol * tol * 1e-6 {
                n.normalize()
            } else {
                mean
            };
            if d == DVec3::ZERO {
                done[t] = true;
                continue;
            }
            let s = support(d);
            if !s.is_finite() {
                done[t] = true;
                continue;
            }
            let new = (s - a).dot(d) > tol && [a, b, c].iter().all(|&v| (s - v).length() > tol);
            if !new {
                done[t] = true;
                continue;
            }
            let si = mesh.vertices.len() as u32;
            mesh.vertices.push(s);
            let [ia, ib, ic] = tri;
            let [da, db, dc] = dirs[t];
            mesh.triangles[t] = [ia, ib, si];
            dirs[t] = [da, db, d];
            mesh.triangles.push([ib, ic, si]);
            dirs.push([db, dc, d]);
            mesh.triangles.push([ic, ia, si]);
            dirs.push([dc, da, d]);
            done.extend([false, false]);
            changed = true;
        }
        if !changed {
            break;
        }
    }
    mesh.centre = mesh.vertices.iter().copied().sum::<DVec3>() / mesh.vertices.len() as f64;
    rehull(mesh)
}

/// Splitting in three can fold the surface over (the blog's own caveat);
/// the vertices are exact support points, so their convex hull is the shape's
/// mesh without folds. Falls back to the split mesh if the hull fails
/// (degenerate, flat or non-finite input).
fn rehull(mesh: Mesh) -> Mesh {
    use parry3d_f64::math::Vector3;
    let points: Vec<Vector3> = mesh
        .vertices
        .iter()
        .map(|v| Vector3::new(v.x, v.y, v.z))
        .collect();
    let hull = std::panic::catch_unwind(|| parry3d_f64::transformation::try_convex_hull(&points));
    match hull {
        Ok(Ok((vertices, triangles))) if triangles.len() >= 4 => {
            let vertices: Vec<DVec3> = vertices.iter().map(|v| DVec3::new(v.x, v.y, v.z)).collect();
            if vertices.iter().any(|v| !v.is_finite()) {
                return mesh;
            }
            let centre = vertices.iter().copied().sum::<DVec3>() / vertices.len() as f64;
            Mesh {
                vertices,
                triangles,
                centre,
            }
        }
        _ => mesh,
    }
}

fn v3(v: DVec3) -> cspace::V3<f64> {
    cspace::V3::<f64>::from_f64(v.to_array())
}

fn dv(v: cspace::V3<f64>) -> DVec3 {
    DVec3::from(v.to_f64())
}

/// The support function of a recorded shape, in world space.
pub fn shape_support(decl: &ShapeDecl) -> impl Fn(DVec3) -> DVec3 + use<> {
    let (shape, pose) = Shape::<f64>::from_decl(decl);
    move |d| dv(Placed::new(&shape, pose).support(v3(d)))
}

/// The mesh of one recorded shape.
#[must_use]
pub fn shape_mesh(decl: &ShapeDecl) -> Mesh {
    mesh(shape_support(decl))
}

/// The mesh of the configuration-space obstacle A − B, swept by `motion` when given.
#[must_use]
pub fn cso_mesh(a: &ShapeDecl, b: &ShapeDecl, motion: Option<[f64; 3]>) -> Mesh {
    let sa = shape_support(a);
    let sb = shape_support(b);
    let m = motion.map_or(DVec3::ZERO, DVec3::from);
    mesh(move |d| {
        let sweep = if m.dot(d) > 0.0 { m } else { DVec3::ZERO };
        sa(d) - sb(-d) + sweep
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder::ShapeGeom;

    fn decl(geom: ShapeGeom, x: f64) -> ShapeDecl {
        ShapeDecl {
            geom,
            margin: 0.0,
            position: [x, 0.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }
    }

    #[test]
    fn a_sphere_far_from_the_origin_is_as_round_as_one_at_the_origin() {
        let sphere = |x| decl(ShapeGeom::Sphere { radius: 0.5 }, x);
        let near = shape_mesh(&sphere(0.0));
        let far = shape_mesh(&sphere(1e6));
        assert!(near.vertices.len() > 30, "{}", near.vertices.len());
        assert!(
            far.vertices.len() * 10 >= near.vertices.len() * 9,
            "{} vs {}",
            far.vertices.len(),
            near.vertices.len()
        );
        for v in &far.vertices {
            let r = (*v - DVec3::new(1e6, 0.0, 0.0)).length();
            assert!((r - 0.5).abs() < 1e-6, "vertex on the sphere: {r}");
        }
    }

    #[test]
    fn box_converges_to_its_corners() {
        let m = shape_mesh(&decl(
            ShapeGeom::Box {
                half_extents: [1.0, 2.0, 3.0],
            },
            0.0,
        ));
        assert!(m.triangles.len() < 200, "{}", m.triangles.len());
        for corner in [[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], [1.0, -2.0, 3.0]] {
            assert!(
                m.vertices
                    .iter()
                    .any(|v| (*v - DVec3::from(corner)).length() < 1e-9),
                "{corner:?}"
            );
        }
    }

    #[test]
    fn sphere_cso_is_round_and_offset() {
        let m = cso_mesh(
            &decl(ShapeGeom::Sphere { radius: 1.0 }, 5.0),
            &decl(ShapeGeom::Sphere { radius: 0.5 }, 1.0),
            None,
        );
        assert!(m.triangles.len() > 100);
        for v in &m.vertices {
            assert!(((*v - DVec3::new(4.0, 0.0, 0.0)).length() - 1.5).abs() < 1e-9);
        }
        // Outward normals.
        for &t in &m.triangles {
            let c =
                (m.vertices[t[0] as usize] + m.vertices[t[1] as usize] + m.vertices[t[2] as usize])
                    / 3.0;
            assert!(m.normal(t).dot(c - DVec3::new(4.0, 0.0, 0.0)) >= -1e-12);
        }
    }

    #[test]
    fn degenerate_and_swept_shapes() {
        let p = shape_mesh(&decl(ShapeGeom::Point, 2.0));
        assert!(p.vertices.iter().all(|v| *v == DVec3::new(2.0, 0.0, 0.0)));
        let flat = shape_mesh(&decl(
            ShapeGeom::Hull {
                points: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            },
            0.0,
        ));
        assert!(!flat.triangles.is_empty());
        let swept = cso_mesh(
            &decl(ShapeGeom::Point, 0.0),
            &decl(ShapeGeom::Point, 0.0),
            Some([3.0, 0.0, 0.0]),
        );
        assert!(swept.vertices.iter().any(|v| (v.x - 3.0).abs() < 1e-12));
        let nan = mesh(|_| DVec3::NAN);
        assert!(nan.triangles.is_empty());
    }
}
