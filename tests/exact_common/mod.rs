//! The exact oracle: constructed pairs whose distance, closest points and
//! normal are known by construction. A is placed anywhere and turned so that
//! its support point `p` in world direction `n` is unique (a vertex, a rim
//! point, an apex, a sphere's point); B is turned and placed so that a point
//! `q` of its support set in direction `−n` lands at `p + d·n`. Then the
//! distance is `d`, the closest points are `p` and `p + d·n` and the normal
//! is `n`, to the rounding of the placement (~1e-16 × the coordinates).

#![allow(dead_code, clippy::cast_lossless, clippy::missing_panics_doc)]

use crate::gjk_common::Rng;
use cspace::{Geom, Pose, Shape, Vector};
use glam::{DQuat, DVec3};

/// One constructed case in f64.
#[derive(Clone, Debug)]
pub struct Case {
    /// What it is, for failure messages.
    pub name: String,
    pub a: Shape<f64>,
    pub b: Shape<f64>,
    pub pose_a: Pose<f64>,
    pub pose_b: Pose<f64>,
    /// The exact distance.
    pub distance: f64,
    /// The unique closest point on A.
    pub point_a: DVec3,
    /// The closest point on B.
    pub point_b: DVec3,
    /// The unit normal from A to B.
    pub normal: DVec3,
    /// The larger shape scale (tolerances are relative to it).
    pub scale: f64,
}

/// The shape families A is drawn from, each with a unique support point.
pub const FAMILIES: [&str; 7] = [
    "sphere",
    "box",
    "capsule",
    "cylinder rim",
    "cone rim",
    "cone apex",
    "hull",
];

/// A local direction `m` of shape `s` (family `family`) whose core support is
/// unique, and that support point (core plus radius along `m`).
pub fn unique_support(rng: &mut Rng, family: &str) -> (Shape<f64>, DVec3, DVec3) {
    let size = |rng: &mut Rng| rng.range(0.2, 2.0);
    match family {
        "sphere" => {
            let s = Shape::sphere(size(rng));
            let m = rng.unit();
            let p = s.support(m);
            (s, m, p)
        }
        "box" => {
            let s = Shape::cuboid(DVec3::new(size(rng), size(rng), size(rng)));
            let m = away_from_axes(rng);
            (s.clone(), m, s.support(m))
        }
        "capsule" => {
            let s = Shape::capsule(size(rng), size(rng));
            let mut m = rng.unit();
            if m.y.abs() < 0.05 {
                m.y = 0.3;
                m = m.normalize();
            }
            (s.clone(), m, s.support(m))
        }
        "cylinder rim" => {
            let s = Shape::cylinder(size(rng), size(rng));
            let m = away_from_axes(rng);
            (s.clone(), m, s.support(m))
        }
        "cone rim" | "cone apex" => {
            let (hh, r) = (size(rng), size(rng));
            let s = Shape::cone(hh, r);
            // The apex's normal cone: directions whose angle to +Y is below
            // atan(2hh / r) (the slant's normal), the rim's the rest below it.
            let slant = (2.0 * hh).atan2(r);
            let around = rng.range(0.0, std::f64::consts::TAU);
            let up = if family == "cone apex" {
                // Elevation (angle above the xz plane) above the slant normal's.
                let lo = std::f64::consts::FRAC_PI_2 - slant;
                rng.range(lo + 0.05, std::f64::consts::FRAC_PI_2 - 0.02)
            } else {
                let hi = std::f64::consts::FRAC_PI_2 - slant;
                rng.range(-std::f64::consts::FRAC_PI_2 + 0.05, hi - 0.05)
            };
            let m = DVec3::new(up.cos() * around.cos(), up.sin(), up.cos() * around.sin());
            (s.clone(), m, s.support(m))
        }
        "hull" => loop {
            let n = 8 + rng.below(12) as usize;
            let pts: Vec<DVec3> = (0..n).map(|_| rng.unit() * size(rng)).collect();
            let s = Shape::hull(pts.clone());
            let m = rng.unit();
            let mut d: Vec<f64> = pts.iter().map(|p| p.dot(m)).collect();
            d.sort_by(f64::total_cmp);
            if d[n - 1] - d[n - 2] > 1e-3 {
                return (s.clone(), m, s.support(m));
            }
        },
        _ => unreachable!("unknown family {family}"),
    }
}

/// A unit vector at least ~0.1 from every coordinate plane.
fn away_from_axes(rng: &mut Rng) -> DVec3 {
    loop {
        let m = rng.unit();
        if m.x.abs() > 0.1 && m.y.abs() > 0.1 && m.z.abs() > 0.1 {
            return m;
        }
    }
}

/// A random shape for B (any family), any support point in a direction.
pub fn any_shape(rng: &mut Rng) -> Shape<f64> {
    let size = |rng: &mut Rng| rng.range(0.2, 2.0);
    match rng.below(7) {
        0 => Shape::sphere(size(rng)),
        1 => Shape::cuboid(DVec3::new(size(rng), size(rng), size(rng))),
        2 => Shape::capsule(size(rng), size(rng)),
        3 => Shape::cylinder(size(rng), size(rng)),
        4 => Shape::cone(size(rng), size(rng)),
        5 => Shape::hull((0..10).map(|_| rng.unit() * size(rng)).collect()),
        _ => Shape::cuboid(DVec3::new(size(rng), size(rng), size(rng))).with_margin(0.1),
    }
}

/// The case: A with local support `pa` in local direction `ma`, B with local
/// support `qb` in local direction `mb`, at distance `d`, A at `pose_a`, B
/// turned by `twist` about the normal.
#[allow(clippy::too_many_arguments)]
pub fn place(
    name: String,
    (a, ma, pa): (Shape<f64>, DVec3, DVec3),
    (b, mb, qb): (Shape<f64>, DVec3, DVec3),
    pose_a: Pose<f64>,
    twist: f64,
    d: f64,
) -> Case {
    let n = pose_a.rotation * ma;
    let n = n.normalize();
    let p = pose_a.position + pose_a.rotation * pa;
    // B's rotation: mb to −n, then a turn about n.
    let rot_b = DQuat::from_axis_angle(n, twist) * DQuat::from_rotation_arc(mb.normalize(), -n);
    let q = p + n * d;
    let pos_b = q - rot_b * qb;
    let scale = a.scale().max(b.scale());
    Case {
        name,
        a,
        b,
        pose_a,
        pose_b: Pose::new(pos_b, rot_b),
        distance: d,
        point_a: p,
        point_b: q,
        normal: n,
        scale,
    }
}

/// A random constructed case with A of `family` and B of any family at
/// distance `d` (B's support point chosen by its own support function).
pub fn case(rng: &mut Rng, family: &str, d: f64) -> Case {
    let a = unique_support(rng, family);
    let b = any_shape(rng);
    let mb = rng.unit();
    let qb = b.support(mb);
    let pose_a = rng.pose(3.0);
    let twist = rng.range(0.0, std::f64::consts::TAU);
    place(
        format!("{family} vs {:?}", kind(&b)),
        a,
        (b, mb, qb),
        pose_a,
        twist,
        d,
    )
}

/// B a box whose edge (a point `t` along it, in (−1, 1)) faces `−n`.
pub fn box_edge(rng: &mut Rng, h: DVec3, t: f64) -> (Shape<f64>, DVec3, DVec3) {
    let b = Shape::cuboid(h);
    let beta = rng.range(0.1, std::f64::consts::FRAC_PI_2 - 0.1);
    let mb = DVec3::new(beta.cos(), beta.sin(), 0.0);
    (b, mb, DVec3::new(h.x, h.y, t * h.z))
}

/// B with a point whose normal is unique, in B's local frame: the shape,
/// the outward normal there and the point.
pub fn smooth_or_face(rng: &mut Rng) -> (Shape<f64>, DVec3, DVec3) {
    let size = |rng: &mut Rng| rng.range(0.2, 2.0);
    let around = rng.range(0.0, std::f64::consts::TAU);
    let (c, s) = (around.cos(), around.sin());
    match rng.below(5) {
        0 => {
            let b = Shape::sphere(size(rng));
            let m = rng.unit();
            (b.clone(), m, b.support(m))
        }
        1 => {
            let h = DVec3::new(size(rng), size(rng), size(rng));
            let (u, v) = (rng.range(-0.8, 0.8), rng.range(-0.8, 0.8));
            let (m, q) = match rng.below(3) {
                0 => (DVec3::X, DVec3::new(h.x, u * h.y, v * h.z)),
                1 => (DVec3::Y, DVec3::new(u * h.x, h.y, v * h.z)),
                _ => (DVec3::Z, DVec3::new(u * h.x, v * h.y, h.z)),
            };
            let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
            (Shape::cuboid(h), m * sign, q * sign)
        }
        2 => {
            let (hh, r) = (size(rng), size(rng));
            let y = rng.range(-0.9, 0.9) * hh;
            let m = DVec3::new(c, 0.0, s);
            (Shape::capsule(hh, r), m, DVec3::new(r * c, y, r * s))
        }
        3 => {
            let (hh, r) = (size(rng), size(rng));
            let y = rng.range(-0.8, 0.8) * hh;
            let m = DVec3::new(c, 0.0, s);
            (Shape::cylinder(hh, r), m, DVec3::new(r * c, y, r * s))
        }
        _ => {
            let (hh, r) = (size(rng), size(rng));
            let rho = rng.range(0.0, 0.8) * r;
            (
                Shape::cylinder(hh, r),
                DVec3::Y,
                DVec3::new(rho * c, hh, rho * s),
            )
        }
    }
}

/// The axes of the turned plates: orthogonal, each 3 long, on integer
/// coordinates, so that dyadic extents make every stored point exact.
pub const PLATE_AXES: [DVec3; 3] = [
    DVec3::new(2.0, 1.0, -2.0),
    DVec3::new(2.0, -2.0, 1.0),
    DVec3::new(1.0, 2.0, 2.0),
];

/// The point `(a, b, c)` on [`PLATE_AXES`].
pub fn on_plate_axes(a: f64, b: f64, c: f64) -> DVec3 {
    PLATE_AXES[0] * a + PLATE_AXES[1] * b + PLATE_AXES[2] * c
}

/// `x` rounded to a power of two.
pub fn dyadic(x: f64) -> f64 {
    2f64.powi(x.log2().round() as i32)
}

/// A hull plate on [`PLATE_AXES`] with half extents `h` (thinnest along
/// the third): its 8 corners and, with `mid`, two points mid-way along the
/// long edges of the narrow face on the first axis.
pub fn turned_plate(h: DVec3, mid: bool) -> Shape<f64> {
    let mut points: Vec<DVec3> = (0..8)
        .map(|k| {
            let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
            on_plate_axes(s(1) * h.x, s(2) * h.y, s(4) * h.z)
        })
        .collect();
    if mid {
        points.extend([on_plate_axes(h.x, 0.0, h.z), on_plate_axes(h.x, 0.0, -h.z)]);
    }
    Shape::hull(points)
}

/// A `family` shape (A, at its unique support point) at the narrow face of
/// a [`turned_plate`] (1e-9 to 1e-5 thick, with `mid` two points mid-way
/// along its long edges), over a point of the face up to `across` of its
/// half thickness from the middle, at the distance `d(rng, h)` (negative:
/// pressed in; `h` the plate's half thickness, before [`PLATE_AXES`]' 3).
pub fn at_a_plates_narrow_face(
    rng: &mut Rng,
    family: &str,
    mid: bool,
    across: f64,
    d: impl FnOnce(&mut Rng, f64) -> f64,
) -> Case {
    let a = unique_support(rng, family);
    let (ha, hb) = (dyadic(rng.range(0.1, 0.6)), dyadic(rng.range(0.1, 0.6)));
    let hc = dyadic(10f64.powf(rng.range(-9.0, -5.0)));
    let b = turned_plate(DVec3::new(ha, hb, hc), mid);
    let t = (rng.range(-0.9, 0.9) * 8.0).round() / 8.0;
    let s = (rng.range(-across, across) * 4.0).round() / 4.0;
    let d = d(rng, hc);
    place(
        format!("{family} at a plate {hc:e} thick, {d:e} from its narrow face"),
        a,
        (b, PLATE_AXES[0] / 3.0, on_plate_axes(ha, t * hb, s * hc)),
        rng.pose(3.0),
        rng.range(0.0, std::f64::consts::TAU),
        d,
    )
}

/// A touching case moved apart for a sweep: A starts at `start` and moves
/// by `motion`, touching B (at the case's point and normal) at `toi`.
#[derive(Clone, Debug)]
pub struct SweepCase {
    pub touch: Case,
    pub start: Pose<f64>,
    pub motion: DVec3,
    pub toi: f64,
}

/// `touch` moved back along a motion closing on B at cos ≥ 0.3 (0.5 to 3
/// sizes long) by a random exact time of impact in (0.1, 0.9).
pub fn moved_back(rng: &mut Rng, touch: Case) -> SweepCase {
    let motion = loop {
        let u = rng.unit();
        if u.dot(touch.normal) >= 0.3 {
            break u * touch.scale * rng.range(0.5, 3.0);
        }
    };
    let toi = rng.range(0.1, 0.9);
    let start = Pose::new(touch.pose_a.position - motion * toi, touch.pose_a.rotation);
    SweepCase {
        touch,
        start,
        motion,
        toi,
    }
}

/// The kind of a shape, for names.
pub fn kind(s: &Shape<f64>) -> &'static str {
    match s.geom() {
        Geom::Point => "point",
        Geom::Sphere { .. } => "sphere",
        Geom::Box { .. } => "box",
        Geom::Capsule { .. } => "capsule",
        Geom::Cylinder { .. } => "cylinder",
        Geom::Cone { .. } => "cone",
        Geom::Hull(_) => "hull",
    }
}

/// Unused import guard for `Vector` (the trait provides `dot` on `V3`).
fn _uses_vector(v: DVec3) -> f64 {
    Vector::dot(v, v)
}
