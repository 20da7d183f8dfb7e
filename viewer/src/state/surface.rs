//! What a mesh needs to be drawn truthfully: its feature edges (between
//! faces that meet at an angle, not the diagonals splitting a flat face) and
//! a normal per triangle corner, smoothed across the gentle creases of a
//! tessellated curved surface but not across a cylinder's rim.
//!
//! Computed once per mesh, when the mesh cache builds it.

use crate::state::hull::Mesh;
use glam::DVec3;
use std::collections::HashMap;

/// Faces of a polytope meeting at more than this (radians) share a feature edge.
const POLYTOPE_CREASE: f64 = 1e-6;
/// Faces of a tessellated curved shape meeting at more than this are a
/// real crease (a cylinder's rim); gentler ones are the tessellation.
const CURVED_CREASE: f64 = 0.6;

/// An edge between two triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// Its two vertices.
    pub v: [u32; 2],
    /// The two triangles that share it.
    pub faces: [u32; 2],
    /// Whether the faces meet at a crease (else it only shows as a silhouette).
    pub crease: bool,
}

/// A mesh with its edges and corner normals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Surface {
    /// The mesh.
    pub mesh: Mesh,
    /// Unit outward normal of each triangle.
    pub face_normals: Vec<DVec3>,
    /// The normal at each triangle's corners (smoothed for curved shapes).
    pub corner_normals: Vec<[DVec3; 3]>,
    /// Every edge shared by two triangles.
    pub edges: Vec<Edge>,
}

/// The surface of `mesh`; `curved` says whether it tessellates a curved shape
/// (smooth shading, creases only where faces meet at a real angle).
#[must_use]
pub fn surface(mesh: Mesh, curved: bool) -> Surface {
    let crease = if curved {
        CURVED_CREASE
    } else {
        POLYTOPE_CREASE
    };
    let cos_crease = crease.cos();
    let face_normals: Vec<DVec3> = mesh.triangles.iter().map(|&t| mesh.normal(t)).collect();
    // Triangles around each vertex, and the two triangles of each edge.
    let mut around: Vec<Vec<u32>> = vec![Vec::new(); mesh.vertices.len()];
    let mut by_edge: HashMap<[u32; 2], Vec<u32>> = HashMap::new();
    for (k, t) in mesh.triangles.iter().enumerate() {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        for (i, &v) in t.iter().enumerate() {
            if let Some(list) = around.get_mut(v as usize) {
                list.push(k);
            }
            let w = t[(i + 1) % 3];
            by_edge.entry([v.min(w), v.max(w)]).or_default().push(k);
        }
    }
    let mut edges: Vec<Edge> = by_edge
        .into_iter()
        .filter_map(|(v, faces)| match faces[..] {
            [f, g] => {
                let cos = face_normals[f as usize].dot(face_normals[g as usize]);
                Some(Edge {
                    v,
                    faces: [f, g],
                    crease: cos < cos_crease,
                })
            }
            _ => None,
        })
        .collect();
    edges.sort_unstable_by_key(|e| e.v);
    let corner_normals = mesh
        .triangles
        .iter()
        .zip(&face_normals)
        .map(|(t, &n)| {
            if !curved {
                return [n; 3];
            }
            t.map(|v| {
                let sum: DVec3 = around
                    .get(v as usize)
                    .into_iter()
                    .flatten()
                    .map(|&f| face_normals[f as usize])
                    .filter(|m| m.dot(n) >= cos_crease)
                    .sum();
                sum.try_normalize().unwrap_or(n)
            })
        })
        .collect();
    Surface {
        mesh,
        face_normals,
        corner_normals,
        edges,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::hull::shape_mesh;
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    fn decl(geom: ShapeGeom) -> ShapeDecl {
        ShapeDecl::new(geom).at([0.0; 3], [0.0, 0.0, 0.0, 1.0])
    }

    #[test]
    fn a_box_has_its_twelve_edges_and_no_diagonals() {
        let s = surface(
            shape_mesh(&decl(ShapeGeom::Box {
                half_extents: [1.0, 2.0, 3.0],
            })),
            false,
        );
        let creases: Vec<&Edge> = s.edges.iter().filter(|e| e.crease).collect();
        assert_eq!(creases.len(), 12, "{creases:?}");
        for e in creases {
            let [a, b] = e.v.map(|i| s.mesh.vertices[i as usize]);
            // A box edge runs along one axis: two coordinates agree.
            let same = (0..3).filter(|&k| (a[k] - b[k]).abs() < 1e-9).count();
            assert_eq!(same, 2, "{a} {b}");
        }
        assert!(
            s.corner_normals
                .iter()
                .zip(&s.face_normals)
                .all(|(c, n)| c.iter().all(|m| m == n))
        );
    }

    #[test]
    fn a_cylinder_is_smooth_round_its_side_and_creased_at_its_rims() {
        let s = surface(
            shape_mesh(&decl(ShapeGeom::Cylinder {
                half_height: 1.0,
                radius: 0.5,
            })),
            true,
        );
        let creases = s.edges.iter().filter(|e| e.crease).count();
        assert!(
            creases > 8 && creases < s.edges.len() / 2,
            "{creases} of {}",
            s.edges.len()
        );
        for e in s.edges.iter().filter(|e| e.crease) {
            // Rim edges: both ends on a cap (|y| = 1).
            let [a, b] = e.v.map(|i| s.mesh.vertices[i as usize]);
            assert!(
                (a.y.abs() - 1.0).abs() < 1e-9 && (b.y.abs() - 1.0).abs() < 1e-9,
                "{a} {b}"
            );
        }
        // On the side, corner normals point sideways (smoothed), not along a facet's normal only.
        let side = s
            .face_normals
            .iter()
            .position(|n| n.y.abs() < 1e-3)
            .expect("a side facet");
        for m in s.corner_normals[side] {
            assert!(m.y.abs() < 0.3 && (m.length() - 1.0).abs() < 1e-9, "{m}");
        }
    }

    #[test]
    fn empty_and_flat_meshes() {
        assert!(surface(Mesh::default(), true).edges.is_empty());
        let flat = surface(
            shape_mesh(&decl(ShapeGeom::Hull {
                points: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            })),
            false,
        );
        assert_eq!(flat.corner_normals.len(), flat.mesh.triangles.len());
    }
}
