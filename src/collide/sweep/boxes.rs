//! Two boxes swept in closed form: the separating axis test in time.
//!
//! Along each of the 15 axes `L` of two boxes without margins (three face
//! normals each, nine edge cross products) B's centre, seen from A moving
//! by `t·m`, projects to `c − t·v` (`c = L·offset`, `v = L·m`) and the boxes
//! overlap on `L` while `|c − t·v| ≤ r` (`r` the summed projected half
//! extents): a window of time. The boxes touch exactly when every window is
//! open, so the time of impact is the latest opening, its axis the contact
//! normal, and a window closing before it opens proves a miss. Cross axes
//! of exactly parallel edges are not face normals of the configuration-space
//! object and are skipped; nearly parallel ones (shorter than
//! [`MIN_CROSS`]) leave the sweep to the GJK ray cast, as does anything the
//! rounding bound cannot decide (a grazing window, a contact at t = 0).
//!
//! The test runs in f64 for either precision: f32 poses widen exactly, and
//! an f32 motion of tens of sizes would otherwise round the projections by
//! more than f32's touching tolerance.

use super::{Sweep, narrowed, record_hit};
use crate::collide::cso::Cso;
use crate::collide::gjk::rel_tol;
use crate::collide::{Status, Witness};
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Geom, Placed, Pose, Shape};
use cspace_recorder as rec;
use glam::{DQuat, DVec3};

/// A cross axis shorter than this (the sine of the angle between the
/// edges), but not zero, is left to the GJK ray cast: its normal and times
/// are only as good as rounding over its length.
const MIN_CROSS: f64 = 1e-3;

/// A box's axes in its own frame.
const AXES: [DVec3; 3] = [DVec3::X, DVec3::Y, DVec3::Z];

/// Which of the 15 axes: a face normal of A or of B, or the cross product
/// of A's edge direction `i` and B's edge direction `j`.
#[derive(Clone, Copy, Debug)]
enum Kind {
    FaceA(usize),
    FaceB(usize),
    Edge(usize, usize),
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const NAMES: [&str; 3] = ["x", "y", "z"];
        match *self {
            Self::FaceA(i) => write!(f, "A's face normal {}", NAMES[i]),
            Self::FaceB(j) => write!(f, "B's face normal {}", NAMES[j]),
            Self::Edge(i, j) => write!(f, "A's {} edges × B's {} edges", NAMES[i], NAMES[j]),
        }
    }
}

/// One axis of the test (not unit): B's centre on it at t = 0 (`c`), the
/// closing rate of that projection (`v`, A's motion on it), the summed
/// projected half extents (`r`), and the times its window opens and
/// closes (B's projection within `r`; infinite while `v` is zero).
#[derive(Clone, Copy, Debug)]
struct Axis {
    kind: Kind,
    c: f64,
    v: f64,
    r: f64,
    enter: f64,
    exit: f64,
}

impl Axis {
    fn new(kind: Kind, c: f64, v: f64, r: f64) -> Self {
        let (near, far) = if v > 0.0 {
            (c - r, c + r)
        } else {
            (c + r, c - r)
        };
        Self {
            kind,
            c,
            v,
            r,
            enter: near / v,
            exit: far / v,
        }
    }

    /// How far the boxes overlap along it at time `t` (negative: apart).
    fn overlap(&self, t: f64) -> f64 {
        self.r - (self.c - t * self.v).abs()
    }
}

/// What the test decided.
#[derive(Clone, Copy, Debug)]
pub(super) enum Decided<T: Real> {
    /// A hit, certified: the bracket holds both ends to rounding.
    Hit(Sweep<T>),
    /// No contact for t ∈ [0, 1].
    Miss,
    /// The boxes overlap at t = 0.
    Overlapping,
}

/// The sweep of box A by `motion` (world) against box B, both without
/// margins, by the separating axis test in time; `None` when not two such
/// boxes or when rounding cannot decide (the caller's general method
/// answers then).
pub(super) fn sweep<T: Real>(
    a: &Placed<'_, T>,
    motion: V3<T>,
    b: &Placed<'_, T>,
) -> Option<Decided<T>> {
    let (Geom::Box { half_extents: ha }, Geom::Box { half_extents: hb }) =
        (&a.shape.geom, &b.shape.geom)
    else {
        return None;
    };
    if a.shape.radius() != T::ZERO || b.shape.radius() != T::ZERO {
        return None;
    }
    let wide = |v: V3<T>| DVec3::from_array(v.to_f64());
    let pose = |p: &Pose<T>| {
        let [x, y, z, w] = p.rotation.to_xyzw().map(Real::to_f64);
        Pose::<f64>::new(wide(p.position), DQuat::from_xyzw(x, y, z, w))
    };
    let (sa, sb) = (Shape::cuboid(wide(*ha)), Shape::cuboid(wide(*hb)));
    let (pa, pb) = (
        Placed::new(&sa, pose(&a.pose)),
        Placed::new(&sb, pose(&b.pose)),
    );
    let cso = Cso::new(&pa, &pb);
    // The touching tolerance of the query's own precision, and the height
    // below which its witness calls a side flat (the distance's).
    let tol = 4.0 * rel_tol::<T>().to_f64() * cso.scale;
    let flat = 30.0 * rel_tol::<T>().to_f64() * cso.scale;
    let out = match decide(&cso, wide(motion), (tol, flat))? {
        // Rounded to `T`, the bracket must still be within the tolerance.
        Decided::Hit(s) => match narrowed::<T>(&s, wide(motion), tol) {
            s if s.status == Status::Converged => Decided::Hit(s),
            _ => return None,
        },
        Decided::Miss => Decided::Miss,
        Decided::Overlapping => Decided::Overlapping,
    };
    if let Decided::Hit(s) = &out {
        record_hit(s);
    }
    Some(out)
}

/// [`sweep`] in f64 on the CSO of the boxes; `tol` is the bracket's
/// stated width (distance closed over it), `flat` the height below which
/// the witness calls a side flat (the query precision's: an f32 edge
/// resting on a face is tilted by its poses' rounding).
fn decide(cso: &Cso<'_, f64>, motion: DVec3, (tol, flat): (f64, f64)) -> Option<Decided<f64>> {
    let (ha, hb, axes_b) = cso.boxes()?;
    let (ha, hb) = (ha.abs(), hb.abs());
    let t = cso.offset();
    let m = cso.pose_a.rotation.inverse_rotate(motion);
    // Every projection is a few products of unit-bounded entries (rotated
    // and widened once): its rounding is a few ulps of the magnitudes.
    let size = t.length() + m.length() + ha.element_sum() + hb.element_sum();
    let err = 32.0 * f64::EPSILON * size;
    let (list, count) = axes(
        ha.to_array(),
        hb.to_array(),
        axes_b,
        t.to_array(),
        m.to_array(),
    )?;
    let list = &list[..count];
    // A window closed for good (an axis the motion does not cross) is a
    // miss; the others give the latest opening and the earliest closing.
    let (mut first, mut last) = (None::<Axis>, None::<Axis>);
    for ax in list {
        if ax.v == 0.0 {
            let o = ax.overlap(0.0);
            if o < -err {
                rec::text!("two boxes: separated along an axis the motion keeps");
                return Some(Decided::Miss);
            }
            if o <= err {
                return None;
            }
            continue;
        }
        if first.is_none_or(|f| ax.enter > f.enter) {
            first = Some(*ax);
        }
        if last.is_none_or(|l| ax.exit < l.exit) {
            last = Some(*ax);
        }
    }
    let (Some(first), Some(last)) = (first, last) else {
        return Some(Decided::Overlapping);
    };
    // Before `lower` the entering axis still separates the boxes; after
    // `closed` the exiting one does again.
    let lower = first.enter - err / first.v.abs();
    let closed = last.exit + err / last.v.abs();
    if lower > 1.0 || closed < lower.max(0.0) {
        rec::text!("two boxes: no time at which every axis overlaps");
        return Some(Decided::Miss);
    }
    let certain_at = |time: f64| list.iter().all(|ax| ax.overlap(time) > err);
    if first.enter < 0.0 {
        return certain_at(0.0).then_some(Decided::Overlapping);
    }
    // Every axis overlaps at `upper` beyond its rounding: the boxes touch.
    // Axes entering with the first (parallel to it, or meeting it at an
    // edge of A − B) may need longer to get there.
    let soon = first.enter + 2.0 * err / first.v.abs();
    let upper = list
        .iter()
        .filter(|ax| ax.v != 0.0 && ax.overlap(soon) <= err)
        .map(|ax| ax.enter + 2.0 * err / ax.v.abs())
        .fold(soon, f64::max);
    if lower <= 0.0 || upper > 1.0 || !certain_at(upper) {
        return None;
    }
    let l = match first.kind {
        Kind::FaceA(i) => AXES[i],
        Kind::FaceB(j) => axes_b[j],
        Kind::Edge(i, j) => AXES[i].cross(axes_b[j]),
    };
    let len = l.length();
    let closing = first.v.abs() / len;
    if (upper - lower) * closing > tol {
        return None;
    }
    let n = if first.v > 0.0 { l } else { -l } / len;
    rec::text!(
        "two boxes, the separating axis test in time: the last axis to overlap is {}, at t = {:?}; normal {:?} (world)",
        first.kind,
        first.enter,
        cso.world_vector(n)
    );
    // The contact points where the boxes meet (B's centre relative to A at
    // the entering time, the estimate without bias), then A at the toi.
    let (toi, meet) = (lower, first.enter);
    let (on_a, on_b) = contact((ha, hb, axes_b), t - m * meet, n, err / len);
    let witness = contact_witness((ha, hb, axes_b), n, flat.max(err / len));
    // Each point is on its box by construction; they must also meet.
    if (on_a - on_b).length() > tol {
        rec::text!("two boxes: no common contact point found, left to the ray cast");
        return None;
    }
    let (point_a, point_b) = (
        cso.world_point(on_a) + motion * toi,
        cso.world_point(on_b + m * meet),
    );
    Some(Decided::Hit(Sweep {
        hit: true,
        toi,
        toi_lower: lower,
        toi_upper: upper,
        normal: cso.world_vector(n),
        point: (point_a + point_b) * 0.5,
        point_a,
        point_b,
        iterations: 0,
        status: Status::Converged,
        witness: Some(witness),
    }))
}

/// The test's axes for box A (half extents `ha`, at the origin) and box B
/// (half extents `hb`, axes `axes_b`, centre `tv`) with A moving by `mv`
/// (all in A's frame), and how many there are (exactly parallel edges
/// give none); `None` with nearly parallel edges.
fn axes(
    ha: [f64; 3],
    hb: [f64; 3],
    axes_b: [DVec3; 3],
    tv: [f64; 3],
    mv: [f64; 3],
) -> Option<([Axis; 15], usize)> {
    // B's axes as the columns of `rot`: every projection is a few products
    // of its entries (as in `sat`), no vector arithmetic per axis.
    let rot = [0, 1, 2].map(|i| axes_b.map(|b| b[i]));
    let abs = rot.map(|row| row.map(f64::abs));
    let mut list = [Axis::new(Kind::FaceA(0), 0.0, 0.0, 0.0); 15];
    let mut count = 0;
    let mut push = |ax: Axis| {
        list[count] = ax;
        count += 1;
    };
    for i in 0..3 {
        let r = ha[i] + hb[0] * abs[i][0] + hb[1] * abs[i][1] + hb[2] * abs[i][2];
        push(Axis::new(Kind::FaceA(i), tv[i], mv[i], r));
    }
    for j in 0..3 {
        let along = |x: [f64; 3]| x[0] * rot[0][j] + x[1] * rot[1][j] + x[2] * rot[2][j];
        let r = ha[0] * abs[0][j] + ha[1] * abs[1][j] + ha[2] * abs[2][j] + hb[j];
        push(Axis::new(Kind::FaceB(j), along(tv), along(mv), r));
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // e_i × b_j has components −rot[i2][j] (at i1) and rot[i1][j] (at i2).
            let len2 = rot[i1][j] * rot[i1][j] + rot[i2][j] * rot[i2][j];
            if len2 == 0.0 {
                // Exactly parallel edges span no face of A − B.
                continue;
            }
            if len2 < MIN_CROSS * MIN_CROSS {
                rec::text!("two boxes: nearly parallel edges, left to the ray cast");
                return None;
            }
            let across = |x: [f64; 3]| x[i2] * rot[i1][j] - x[i1] * rot[i2][j];
            let r = ha[i1] * abs[i2][j]
                + ha[i2] * abs[i1][j]
                + hb[j1] * abs[i][j2]
                + hb[j2] * abs[i][j1];
            push(Axis::new(Kind::Edge(i, j), across(tv), across(mv), r));
        }
    }
    Some((list, count))
}

/// The most vertices a clipped contact polygon has: a quadrilateral cut by
/// four lines.
const POLYGON: usize = 8;

/// A convex polygon (a point, a segment or a face) as its vertices.
#[derive(Clone, Copy, Debug)]
struct Polygon {
    points: [DVec3; POLYGON],
    count: usize,
}

impl Polygon {
    /// Keeps the part with `p·axis ≤ limit` (Sutherland–Hodgman).
    fn clip(&self, axis: DVec3, limit: f64) -> Self {
        let mut out = Self {
            points: [DVec3::ZERO; POLYGON],
            count: 0,
        };
        let mut push = |p: DVec3| {
            if out.count < POLYGON {
                out.points[out.count] = p;
                out.count += 1;
            }
        };
        let pts = &self.points[..self.count];
        for (k, &p) in pts.iter().enumerate() {
            let q = pts[(k + 1) % pts.len()];
            let (hp, hq) = (p.dot(axis) - limit, q.dot(axis) - limit);
            if hp <= 0.0 {
                push(p);
            }
            if (hp < 0.0 && hq > 0.0) || (hp > 0.0 && hq < 0.0) {
                push(p + (q - p) * (hp / (hp - hq)));
            }
        }
        out
    }

    /// Keeps the part within `±half` along `axis` (unit).
    fn clip_slab(&self, axis: DVec3, half: f64) -> Self {
        self.clip(axis, half).clip(-axis, half)
    }

    /// The mean of its vertices (inside it, as it is convex); `None` if empty.
    fn centre(&self) -> Option<DVec3> {
        let pts = &self.points[..self.count];
        let (sum, k) = pts
            .iter()
            .fold((DVec3::ZERO, 0.0), |(s, k), &p| (s + p, k + 1.0));
        (self.count > 0).then(|| sum / k)
    }
}

/// A box's support feature: its centre and which axes it spans.
type Feature = (DVec3, [bool; 3]);

/// A box's support feature in unit direction `d` (box frame: at the origin,
/// axis-aligned, half extents `h`), flat where the height varies by no
/// more than `eta`: its centre and the axes it spans.
fn support_feature(h: DVec3, d: DVec3, eta: f64) -> Feature {
    let mut centre = [0.0; 3];
    let mut free = [false; 3];
    for k in 0..3 {
        // A side no longer than `eta` (a flat box's zero extent) is a
        // coordinate, not a direction the feature spans.
        if d[k].abs() * 2.0 * h[k] <= eta && 2.0 * h[k] > eta {
            free[k] = true;
        } else if d[k] > 0.0 {
            centre[k] = h[k];
        } else {
            centre[k] = -h[k];
        }
    }
    (DVec3::from_array(centre), free)
}

/// The feature (centre, free axes) as a polygon in its box's frame.
fn feature_polygon(h: DVec3, (centre, free): Feature) -> Polygon {
    let mut spans = [DVec3::ZERO; 2];
    let mut k = 0;
    for (axis, f) in AXES.into_iter().enumerate() {
        if free[axis] && k < 2 {
            spans[k] = f * h[axis];
            k += 1;
        }
    }
    let [u, w] = spans;
    let mut points = [centre; POLYGON];
    let corners = [
        centre - u - w,
        centre + u - w,
        centre + u + w,
        centre - u + w,
    ];
    let count = match k {
        0 => 1,
        1 => {
            points[..2].copy_from_slice(&[centre - u, centre + u]);
            2
        }
        _ => {
            points[..4].copy_from_slice(&corners);
            4
        }
    };
    Polygon { points, count }
}

/// A contact point of box A (half extents `ha`, at the origin) and box B
/// (half extents `hb`, axes `axes_b`, centre `t`) touching along unit
/// normal `n` (from A towards B), on each box (A's frame): the unique
/// support point where either side has one, else a point of both support
/// features (a face clipping the other side's face or edge, or two edges'
/// closest points), projected onto each box. `eta` is the height below
/// which a feature counts as flat.
fn contact(
    (ha, hb, axes_b): (DVec3, DVec3, [DVec3; 3]),
    t: DVec3,
    n: DVec3,
    eta: f64,
) -> (DVec3, DVec3) {
    let to_b = |p: DVec3| {
        let r = p - t;
        DVec3::new(axes_b[0].dot(r), axes_b[1].dot(r), axes_b[2].dot(r))
    };
    let from_b = |q: DVec3| t + axes_b[0] * q.x + axes_b[1] * q.y + axes_b[2] * q.z;
    let map = |poly: Polygon, f: &dyn Fn(DVec3) -> DVec3| Polygon {
        points: poly.points.map(f),
        count: poly.count,
    };
    let fa = support_feature(ha, n, eta);
    let nb = DVec3::new(axes_b[0].dot(n), axes_b[1].dot(n), axes_b[2].dot(n));
    let fb = support_feature(hb, -nb, eta);
    let free = |f: &Feature| f.1.iter().filter(|&&x| x).count();
    let (ka, kb) = (free(&fa), free(&fb));
    let p = if ka == 0 {
        fa.0
    } else if kb == 0 {
        from_b(fb.0)
    } else if ka == 2 || (ka == 1 && kb == 1 && parallel(fa.1, fb.1, axes_b)) {
        // B's face or edge cut by A's face (or by the ends of A's parallel
        // edge); features meeting only at a boundary may miss it by
        // rounding, so a second cut is wider by `eta`.
        let poly = map(feature_polygon(hb, fb), &from_b);
        clip(poly, fa.1, ha)
            .centre()
            .or_else(|| clip(poly, fa.1, ha + DVec3::splat(eta)).centre())
            .unwrap_or_else(|| from_b(fb.0))
    } else if kb == 2 {
        // A's edge cut by B's face, in B's frame.
        let poly = map(feature_polygon(ha, fa), &to_b);
        clip(poly, fb.1, hb)
            .centre()
            .or_else(|| clip(poly, fb.1, hb + DVec3::splat(eta)).centre())
            .map_or(fa.0, from_b)
    } else {
        // Two crossing edges: the closest points of their lines.
        let ea = feature_polygon(ha, fa);
        let eb = map(feature_polygon(hb, fb), &from_b);
        lines_meet(
            (ea.points[0], ea.points[1] - ea.points[0]),
            (eb.points[0], eb.points[1] - eb.points[0]),
        )
    };
    (p.clamp(-ha, ha), from_b(to_b(p).clamp(-hb, hb)))
}

/// Whether the boxes' contact along unit normal `n` (A's frame, from A
/// towards B) is a unique point: a vertex on either side, or two crossing
/// edges, with sides flat below height `flat`.
fn contact_witness((ha, hb, axes_b): (DVec3, DVec3, [DVec3; 3]), n: DVec3, flat: f64) -> Witness {
    let fa = support_feature(ha, n, flat);
    let nb = DVec3::new(axes_b[0].dot(n), axes_b[1].dot(n), axes_b[2].dot(n));
    let fb = support_feature(hb, -nb, flat);
    let free = |f: &Feature| f.1.iter().filter(|&&x| x).count();
    let (ka, kb) = (free(&fa), free(&fb));
    if ka == 0 || kb == 0 || (ka == 1 && kb == 1 && !parallel(fa.1, fb.1, axes_b)) {
        Witness::Unique
    } else {
        Witness::NotUnique
    }
}

/// `poly` (in a box's frame) cut to the box's extent `h` along its `free` axes.
fn clip(poly: Polygon, free: [bool; 3], h: DVec3) -> Polygon {
    (0..3)
        .filter(|&k| free[k])
        .fold(poly, |p, k| p.clip_slab(AXES[k], h[k]))
}

/// Whether A's free axis and B's free axis (one each) are parallel.
fn parallel(fa: [bool; 3], fb: [bool; 3], axes_b: [DVec3; 3]) -> bool {
    let i = fa.iter().position(|&x| x).unwrap_or(0);
    let j = fb.iter().position(|&x| x).unwrap_or(0);
    AXES[i].cross(axes_b[j]).length() < MIN_CROSS
}

/// The middle of the closest points of lines `p + s·d` and `q + u·e`.
fn lines_meet((p, d): (DVec3, DVec3), (q, e): (DVec3, DVec3)) -> DVec3 {
    let r = p - q;
    let (a, b, c) = (d.dot(d), d.dot(e), e.dot(e));
    let (f, g) = (d.dot(r), e.dot(r));
    let den = a * c - b * b;
    if den <= 0.0 {
        return p;
    }
    let s = (b * g - c * f) / den;
    let u = (a * g - b * f) / den;
    (p + d * s + q + e * u) * 0.5
}
