//! A core's support *feature* in a direction: the point the support
//! function returns, the directions its support set extends along (an edge,
//! a face, a cylinder's side), how fast the support point turns with the
//! direction (the curvature of a rim) and the set itself, for placing a
//! witness in it. Distance witness polishing (`witness`) works on these.
//!
//! The support set is taken within a height tolerance `eta`: a box edge
//! whose two ends are within `eta` of each other along the direction is an
//! edge, not a vertex.

use crate::real::{Real, V3, Vector, cross_accurate};
use crate::shape::{Geom, Shape};

/// The most hull points a hull face may have to be placed in
/// (larger faces are not certified).
const FACE_POINTS: usize = 8;

/// A support set: where a witness on the feature may lie.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Region<T: Real> {
    /// A single point (the feature's point).
    Point,
    /// The segment between two points.
    Segment(V3<T>, V3<T>),
    /// A rectangle: centre and two half-side vectors (a box face).
    Rect(V3<T>, V3<T>, V3<T>),
    /// A disc: centre, unit axis, radius (a cylinder's or cone's cap).
    Disc(V3<T>, V3<T>, T),
    /// A hull face: the hull's points within `eta` (the second field) of
    /// the support height in local direction `d` (the first, not mapped).
    /// Placing checks a point against it ([`on_hull_face`]).
    HullFace(V3<T>, T),
    /// A support set too large to place a witness in (a hull edge of more
    /// than [`FACE_POINTS`] points).
    Unknown,
}

/// A core's support feature in one direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Feature<T: Real> {
    /// The support point (a point of the support set).
    pub point: V3<T>,
    /// Unit directions the support set extends along (`count` of them).
    pub flats: [V3<T>; 2],
    /// How many `flats`: 0 a point, 1 a segment, 2 a face.
    pub count: usize,
    /// The support point's turn: its derivative along unit directions is
    /// `radius · tangent tangentᵀ` (a rim point moves along the rim; 0 for
    /// vertices and flat sets).
    pub tangent: V3<T>,
    /// See [`tangent`](Self::tangent).
    pub radius: T,
    /// A cone's side: the rate falls from `radius` at the segment's first
    /// end (the rim) to 0 at its second (the apex).
    pub taper: bool,
    /// A hull face narrower than the set's tolerance, taken as its longest
    /// spread (a plate's narrow face seen as an edge): the normal it fixes
    /// may be off the face's by its width over its length.
    pub thin: bool,
    /// A thin face's spread across its longest one (zero otherwise).
    pub across: V3<T>,
    /// The support set.
    pub region: Region<T>,
}

impl<T: Real> Feature<T> {
    /// A single point without curvature.
    fn vertex(point: V3<T>) -> Self {
        Self {
            point,
            flats: [V3::<T>::ZERO; 2],
            count: 0,
            tangent: V3::<T>::ZERO,
            radius: T::ZERO,
            taper: false,
            thin: false,
            across: V3::<T>::ZERO,
            region: Region::Point,
        }
    }

    /// How fast the support point nearest `q` turns with the direction.
    pub fn rate(&self, q: V3<T>) -> T {
        match (self.taper, self.region) {
            (true, Region::Segment(rim, apex)) => {
                let e = apex - rim;
                let ee = e.length_squared();
                let t = if ee > T::ZERO {
                    (q - rim).dot(e) / ee
                } else {
                    T::ZERO
                };
                self.radius * (T::ONE - t.max(T::ZERO).min(T::ONE))
            }
            _ => self.radius,
        }
    }

    /// The same feature with points mapped by `point` and directions by `vector`.
    pub fn map(self, point: impl Fn(V3<T>) -> V3<T>, vector: impl Fn(V3<T>) -> V3<T>) -> Self {
        let region = match self.region {
            Region::Point => Region::Point,
            Region::Unknown => Region::Unknown,
            Region::Segment(p, q) => Region::Segment(point(p), point(q)),
            Region::Rect(c, u, v) => Region::Rect(point(c), vector(u), vector(v)),
            Region::Disc(c, axis, r) => Region::Disc(point(c), vector(axis), r),
            Region::HullFace(d, eta) => Region::HullFace(d, eta),
        };
        // Only what the feature has: unused flats and a zero rate stay zero.
        let mut flats = self.flats;
        for f in &mut flats[..self.count] {
            *f = vector(*f);
        }
        Self {
            point: point(self.point),
            flats,
            tangent: if self.radius == T::ZERO {
                self.tangent
            } else {
                vector(self.tangent)
            },
            region,
            ..self
        }
    }

    /// The point of the support set nearest `q` in the set's own
    /// directions, and how far outside the set `q` was (0 when inside);
    /// `None` when the set cannot say (a large hull face, or `q` outside a
    /// hull face).
    pub fn place(&self, q: V3<T>) -> Option<(V3<T>, T)> {
        match self.region {
            Region::Point => Some((self.point, T::ZERO)),
            Region::Unknown | Region::HullFace(..) => None,
            Region::Segment(p0, p1) => {
                let e = p1 - p0;
                let ee = e.length_squared();
                let t = if ee > T::ZERO {
                    (q - p0).dot(e) / ee
                } else {
                    T::ZERO
                };
                let c = t.max(T::ZERO).min(T::ONE);
                Some((p0 + e * c, (t - c).abs() * ee.sqrt()))
            }
            Region::Rect(c, u, v) => {
                let (x, y): (T, T) = (coord(q - c, u), coord(q - c, v));
                let (cx, cy) = (clamp1(x), clamp1(y));
                let out = (x - cx).abs() * u.length() + (y - cy).abs() * v.length();
                Some((c + u * cx + v * cy, out))
            }
            Region::Disc(c, axis, r) => {
                let d = q - c;
                let radial = d - axis * d.dot(axis);
                let len = radial.length();
                if len > r {
                    Some((c + radial * (r / len), len - r))
                } else {
                    Some((c + radial, T::ZERO))
                }
            }
        }
    }
}

/// `v`'s coordinate along the half-side `u` (±1 at the sides).
fn coord<T: Real>(v: V3<T>, u: V3<T>) -> T {
    let uu = u.length_squared();
    if uu > T::ZERO { v.dot(u) / uu } else { T::ZERO }
}

/// `x` clamped to [−1, 1].
fn clamp1<T: Real>(x: T) -> T {
    x.max(-T::ONE).min(T::ONE)
}

/// The point of the hull that local point `q` stands for on its face of
/// `points` within `eta` of the support height in local direction `d`:
/// `q` moved along the face's normal onto a triangle of hull points, so a
/// face that is not planar (a crease within `eta`) still gives a point of
/// the hull. `None` when `q` is off the face (or the face has more than
/// [`FACE_POINTS`] points).
pub(crate) fn on_hull_face<T: Real>(points: &[V3<T>], d: V3<T>, eta: T, q: V3<T>) -> Option<V3<T>> {
    let top = points.iter().map(|p| p.dot(d)).fold(-T::MAX, T::max);
    let mut near = [V3::<T>::ZERO; FACE_POINTS];
    let mut n = 0;
    for &p in points {
        if p.dot(d) >= top - eta && !near[..n].contains(&p) {
            if n == FACE_POINTS {
                return None;
            }
            near[n] = p;
            n += 1;
        }
    }
    in_polygon::<T>(&near[..n], q)
}

/// Where `q` (near the plane of `ps`) lies in the fan of triangles from the
/// points' mean through the points sorted by angle, a star polygon inside
/// their convex hull: the point of that triangle (of the actual points, so
/// of their hull) `q` projects to along the plane's normal; `None` outside.
fn in_polygon<T: Real>(ps: &[V3<T>], q: V3<T>) -> Option<V3<T>> {
    if ps.len() < 3 {
        return None;
    }
    let c = ps.iter().fold(V3::<T>::ZERO, |s, &p| s + p) / T::from_f64(ps.len() as f64);
    let n = (ps[1] - ps[0]).cross(ps[2] - ps[0]).try_normalize()?;
    let u = (ps[0] - c).try_normalize().unwrap_or(V3::<T>::X);
    let v = n.cross(u);
    let angle = |p: V3<T>| {
        let d = p - c;
        d.dot(v).to_f64().atan2(d.dot(u).to_f64())
    };
    let mut sorted = [V3::<T>::ZERO; FACE_POINTS];
    sorted[..ps.len()].copy_from_slice(ps);
    let sorted = &mut sorted[..ps.len()];
    sorted.sort_by(|&p, &q| angle(p).total_cmp(&angle(q)));
    // Signed areas (along n) of q against the triangle's edges: all ≥ 0
    // inside. The point is q moved onto the triangle's plane: its
    // barycentric weights, on a sliver (a plate's narrow face 2e-9 wide),
    // err by ε times its length over its width (the point 1.5e-8 along
    // the face, 9.9e-9 of the size, `Unique`). The plane turns about the
    // hull edge `ab` by the mean's rounding over its distance from `ab`,
    // and q is no further from `ab` than the mean: its height errs by
    // that rounding.
    let inside = |a: V3<T>, b: V3<T>| {
        let [wc, wa, wb] = [(a, b), (b, c), (c, a)].map(|(x, y)| (y - x).cross(q - x).dot(n));
        let total = wc + wa + wb;
        (wc >= T::ZERO && wa >= T::ZERO && wb >= T::ZERO && total > T::ZERO).then(|| {
            match cross_accurate::<T>(b - a, c - a).try_normalize() {
                Some(m) => q - m * (q - a).dot(m),
                None => (c * wc + a * wa + b * wb) / total,
            }
        })
    };
    (0..sorted.len()).find_map(|i| inside(sorted[i], sorted[(i + 1) % sorted.len()]))
}

/// The support feature of `shape`'s core in unit local direction `d`,
/// within height tolerance `eta`.
pub(crate) fn feature<T: Real>(shape: &Shape<T>, d: V3<T>, eta: T) -> Feature<T> {
    let point = shape.core_support(d);
    match &shape.geom {
        Geom::Point | Geom::Sphere { .. } => Feature::vertex(point),
        Geom::Box { half_extents: h } => box_feature(point, *h, d, eta),
        Geom::Capsule { half_height, .. } => {
            let hh = *half_height;
            if hh > T::ZERO && d.y().abs() * T::TWO * hh <= eta {
                segment(point, V3::<T>::Y * hh, V3::<T>::Y * -hh)
            } else {
                Feature::vertex(point)
            }
        }
        Geom::Cylinder {
            half_height,
            radius,
        } => cylinder_feature(point, *half_height, *radius, d, eta),
        Geom::Cone {
            half_height,
            radius,
        } => cone_feature(point, *half_height, *radius, d, eta),
        Geom::Hull(hull) => hull_feature(point, hull.points(), d, eta),
    }
}

/// Only the flat directions of [`feature`] (for polytope pairs, whose
/// witnesses need no placing): up to two unit directions and their count.
pub(crate) fn flats<T: Real>(shape: &Shape<T>, d: V3<T>, eta: T) -> ([V3<T>; 2], usize) {
    let mut out = [V3::<T>::ZERO; 2];
    let mut k = 0;
    match &shape.geom {
        Geom::Point | Geom::Sphere { .. } => {}
        Geom::Box { half_extents: h } => {
            for (i, axis) in [V3::<T>::X, V3::<T>::Y, V3::<T>::Z].into_iter().enumerate() {
                let hi = h.get(i);
                if hi > T::ZERO && d.get(i).abs() * T::TWO * hi <= eta && k < 2 {
                    out[k] = axis;
                    k += 1;
                }
            }
        }
        Geom::Capsule { half_height, .. } => {
            if *half_height > T::ZERO && d.y().abs() * T::TWO * *half_height <= eta {
                out[0] = V3::<T>::Y;
                k = 1;
            }
        }
        _ => return face_if_thin(&feature(shape, d, eta)),
    }
    (out, k)
}

/// A feature's flats for classifying witnesses, where a hull face narrower
/// than the tolerance (taken as an edge, [`Feature::thin`]) counts as the
/// face it is: an edge crossing it touches along a segment as long as
/// the face is wide over the crossing's sine (in f32 a box's edge across
/// a plate's narrow face said `unique` with that segment up to 67× the
/// witness tolerance long).
fn face_if_thin<T: Real>(f: &Feature<T>) -> ([V3<T>; 2], usize) {
    if f.thin
        && let Some(across) = f.across.try_normalize()
    {
        return ([f.flats[0], across], 2);
    }
    (f.flats, f.count)
}

/// [`flats`] given `top` (asked for by hulls only), a height along `d`
/// that the support reaches and exceeds by at most `eta` (a converged
/// GJK's closest point on the core, `top = point·d`, which no point of the
/// core exceeds beyond rounding): a hull then scans its points once (the
/// points near `top` hold the support and its set), where [`flats`] scans
/// twice (the support, then the points near it). Other cores, a hull whose
/// near points overflow the feature, and a `top` that turns out higher
/// than that take [`flats`].
pub(crate) fn flats_below<T: Real>(
    shape: &Shape<T>,
    d: V3<T>,
    eta: T,
    top: impl FnOnce() -> T,
) -> ([V3<T>; 2], usize) {
    if let Geom::Hull(hull) = &shape.geom
        && let Some(f) = hull_flats_below(hull.points(), d, eta, top())
    {
        return f;
    }
    flats(shape, d, eta)
}

/// Whether the support set along `d` within `eta` holds three points off
/// one line (a face), given `top` as [`flats_below`] takes it: a hull
/// scans its points once, stopping at the third (points within `2·eta`
/// of `top`, a window at least as wide as the set's); a box or capsule
/// answers in closed form. Cheaper than the set's flats where only a
/// face matters.
pub(crate) fn face_below<T: Real>(
    shape: &Shape<T>,
    d: V3<T>,
    eta: T,
    top: impl FnOnce() -> T,
) -> bool {
    let Geom::Hull(hull) = &shape.geom else {
        return flats(shape, d, eta).1 == 2;
    };
    let floor = top() - eta - eta;
    let (mut first, mut second) = (None, None);
    for &p in hull.points() {
        if p.dot(d) < floor {
            continue;
        }
        match (first, second) {
            (None, _) => first = Some(p),
            (Some(a), None) if p != a => second = Some(p),
            (Some(a), Some(b)) => {
                let (e, f) = (b - a, p - a);
                if e.cross(f).length() > T::from_f64(16.0) * T::EPSILON * e.length() * f.length() {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The flats of [`hull_feature`] in one scan, from a height `top` at most
/// `eta` above the support's: every point within `eta` of the support is
/// within `2·eta` of `top`, so the scan collects those, then keeps the ones
/// within `eta` of the highest it found. `None` where they overflow (a
/// face of many points), none was found, or `top` was higher than that.
fn hull_flats_below<T: Real>(
    points: &[V3<T>],
    d: V3<T>,
    eta: T,
    top: T,
) -> Option<([V3<T>; 2], usize)> {
    let mut near = [(V3::<T>::ZERO, T::ZERO); FACE_POINTS];
    let mut n = 0;
    let floor = top - eta - eta;
    for &p in points {
        let h = p.dot(d);
        if h >= floor {
            if n == FACE_POINTS {
                return None;
            }
            near[n] = (p, h);
            n += 1;
        }
    }
    // The first highest point, as the sequential support scan finds it.
    let (point, best) = near[..n]
        .iter()
        .copied()
        .reduce(|a, b| if b.1 > a.1 { b } else { a })?;
    if best - eta < floor {
        // `top` was more than `eta` above the support: points within
        // `eta` of it may lie below the scan's floor.
        return None;
    }
    let mut set = [V3::<T>::ZERO; FACE_POINTS];
    let mut k = 0;
    for &(p, h) in &near[..n] {
        if h >= best - eta && !set[..k].contains(&p) {
            set[k] = p;
            k += 1;
        }
    }
    if k == 1 {
        // A vertex, the usual case: nothing to span.
        return Some(([V3::<T>::ZERO; 2], 0));
    }
    let f = hull_set(point, &set[..k], false, (d, eta));
    Some(face_if_thin(&f))
}

/// A segment feature from `p` to `q` (with `point` one of its points).
fn segment<T: Real>(point: V3<T>, p: V3<T>, q: V3<T>) -> Feature<T> {
    match (q - p).try_normalize() {
        Some(f) => Feature {
            flats: [f, V3::<T>::ZERO],
            count: 1,
            region: Region::Segment(p, q),
            ..Feature::vertex(point)
        },
        None => Feature::vertex(point),
    }
}

/// A box's vertex, edge or face.
fn box_feature<T: Real>(point: V3<T>, h: V3<T>, d: V3<T>, eta: T) -> Feature<T> {
    let axes = [V3::<T>::X, V3::<T>::Y, V3::<T>::Z];
    let mut f = Feature::vertex(point);
    let mut centre = point;
    let mut halves = [V3::<T>::ZERO; 2];
    for (i, &axis) in axes.iter().enumerate() {
        let hi = h.get(i);
        if hi > T::ZERO && d.get(i).abs() * T::TWO * hi <= eta && f.count < 2 {
            f.flats[f.count] = axis;
            halves[f.count] = axis * hi;
            centre -= axis * point.get(i);
            f.count += 1;
        }
    }
    f.region = match f.count {
        0 => Region::Point,
        1 => Region::Segment(centre - halves[0], centre + halves[0]),
        _ => Region::Rect(centre, halves[0], halves[1]),
    };
    f
}

/// A rim point's tangent and turning radius for direction `d` whose
/// horizontal length is `s` (> 0): the point moves `radius / s` per radian.
fn rim<T: Real>(mut f: Feature<T>, radius: T, d: V3<T>, s: T) -> Feature<T> {
    f.tangent = V3::<T>::new(-d.z() / s, T::ZERO, d.x() / s);
    f.radius = radius / s;
    f
}

/// A cylinder's rim point, side segment or cap disc.
fn cylinder_feature<T: Real>(point: V3<T>, hh: T, r: T, d: V3<T>, eta: T) -> Feature<T> {
    let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
    if r > T::ZERO && s * T::TWO * r <= eta {
        let centre = V3::<T>::new(T::ZERO, point.y(), T::ZERO);
        return Feature {
            flats: [V3::<T>::X, V3::<T>::Z],
            count: 2,
            region: Region::Disc(centre, V3::<T>::Y, r),
            ..Feature::vertex(point)
        };
    }
    let f = if hh > T::ZERO && d.y().abs() * T::TWO * hh <= eta {
        let p = V3::<T>::new(point.x(), hh, point.z());
        segment(point, V3::<T>::new(point.x(), -hh, point.z()), p)
    } else {
        Feature::vertex(point)
    };
    if s > T::ZERO { rim(f, r, d, s) } else { f }
}

/// A cone's apex, rim point, side segment or base disc.
fn cone_feature<T: Real>(point: V3<T>, hh: T, r: T, d: V3<T>, eta: T) -> Feature<T> {
    let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
    let apex = V3::<T>::new(T::ZERO, hh, T::ZERO);
    let (apex_h, rim_h) = (d.y() * hh, s * r - d.y() * hh);
    // The base within `eta` of the support plane, or (a cone flatter than
    // `eta`) the whole cone under its apex: a disc either way (at exactly
    // the axis an f32 sweep called a cone 1.5e-5 high's apex its unique
    // contact, 0.387 from the true one on its side).
    let base = d.y() < T::ZERO && s * T::TWO * r <= eta;
    let flat = d.y() > T::ZERO && s * r + d.y() * hh * T::TWO <= eta;
    if r > T::ZERO && (base || flat) {
        let centre = V3::<T>::new(T::ZERO, -hh, T::ZERO);
        return Feature {
            flats: [V3::<T>::X, V3::<T>::Z],
            count: 2,
            region: Region::Disc(centre, V3::<T>::Y, r),
            ..Feature::vertex(point)
        };
    }
    if s <= T::ZERO {
        return Feature::vertex(point);
    }
    let rim_point = V3::<T>::new(d.x() * (r / s), -hh, d.z() * (r / s));
    if (apex_h - rim_h).abs() <= eta {
        // The side: its rim end turns with the rim, its apex end not at all.
        let f = segment(point, rim_point, apex);
        return Feature {
            taper: f.count == 1,
            ..rim(f, r, d, s)
        };
    }
    if apex_h >= rim_h {
        Feature::vertex(point)
    } else {
        rim(Feature::vertex(point), r, d, s)
    }
}

/// A hull's vertex, edge or face: the points within `eta` of the support height.
fn hull_feature<T: Real>(point: V3<T>, points: &[V3<T>], d: V3<T>, eta: T) -> Feature<T> {
    let top = point.dot(d);
    let mut near = [V3::<T>::ZERO; FACE_POINTS];
    let mut n = 0;
    let mut more = false;
    for &p in points {
        if p.dot(d) >= top - eta && !near[..n].contains(&p) {
            if n == FACE_POINTS {
                more = true;
                break;
            }
            near[n] = p;
            n += 1;
        }
    }
    hull_set(point, &near[..n], more, (d, eta))
}

/// The feature of a hull's support set: its support `point` and the
/// distinct points `near` within `eta` of its height (`more`: there were
/// more than [`FACE_POINTS`]), at direction `d` and tolerance `eta`.
fn hull_set<T: Real>(point: V3<T>, near: &[V3<T>], more: bool, (d, eta): (V3<T>, T)) -> Feature<T> {
    let n = near.len();
    // The longest spread from the support point, then the longest across it.
    let far = near[..n]
        .iter()
        .copied()
        .max_by(|a, b| {
            (*a - point)
                .length_squared()
                .to_f64()
                .total_cmp(&(*b - point).length_squared().to_f64())
        })
        .unwrap_or(point);
    let Some(f1) = (far - point).try_normalize() else {
        return Feature::vertex(point);
    };
    // The spread across f1, as `f1 × e` of the point `e` away that
    // spreads furthest: the component `e − f1 (e·f1)` lost its direction
    // to cancellation on a narrow face (its normal 6e-5 rad off in f32 on
    // a face 8.5e-4 wide), where the cross product of the differences
    // keeps it to ε.
    let (normal, e) = near[..n]
        .iter()
        .map(|&p| (f1.cross(p - point), p - point))
        .max_by(|a, b| {
            a.0.length_squared()
                .to_f64()
                .total_cmp(&b.0.length_squared().to_f64())
        })
        .unwrap_or((V3::<T>::ZERO, V3::<T>::ZERO));
    let side = normal.cross(f1);
    // A face: its normal from the points' own differences, each component
    // to its rounding. `f1`, rounded to a unit, turns by ε, which tilts a
    // face `w` wide and `l` long (`f1` along its diagonal) by `ε·l / w`
    // about its length (7e-9 rad on a plate 3e-8 thick: a rim's partner
    // point 4 700 sizes away 1.1e-8 of the size off, `Unique`).
    let side = if side.length() > eta && n >= 3 {
        cross_accurate::<T>(far - point, e).cross(f1)
    } else {
        side
    };
    if side.length() <= eta || n < 3 {
        if more {
            return Feature {
                flats: [f1, V3::<T>::ZERO],
                count: 1,
                region: Region::Unknown,
                ..Feature::vertex(point)
            };
        }
        // An edge: its two extreme points along f1.
        let along = |p: &V3<T>| (*p - point).dot(f1);
        let lo = near[..n].iter().map(along).fold(T::ZERO, T::min);
        let hi = near[..n].iter().map(along).fold(T::ZERO, T::max);
        // Thin where the spread across is more than the rounding of the
        // points' differences (a plain edge's is that rounding: flagging it
        // sent every hull edge to the retry, 5 % more instructions on a
        // hull against a cylinder).
        return Feature {
            thin: n >= 3 && side.length() > T::from_f64(64.0) * T::EPSILON * (far - point).length(),
            across: side,
            ..segment(point, point + f1 * lo, point + f1 * hi)
        };
    }
    let f2 = side / side.length();
    Feature {
        flats: [f1, f2],
        count: 2,
        region: if more {
            Region::Unknown
        } else {
            Region::HullFace(d, eta)
        },
        ..Feature::vertex(point)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn box_features_by_direction() {
        let s = Shape::<f64>::cuboid(DVec3::new(1.0, 2.0, 3.0));
        let v = feature(&s, DVec3::new(1.0, 1.0, 1.0).normalize(), 1e-9);
        assert_eq!(v.count, 0);
        let e = feature(&s, DVec3::new(1.0, 1.0, 1e-12).normalize(), 1e-9);
        assert_eq!((e.count, e.flats[0]), (1, DVec3::Z));
        let f = feature(&s, DVec3::X, 1e-9);
        assert_eq!(f.count, 2);
        let (p, out) = f.place(DVec3::new(1.0, 0.5, -4.0)).unwrap();
        assert_eq!(p, DVec3::new(1.0, 0.5, -3.0));
        assert!((out - 1.0).abs() < 1e-15);
    }

    #[test]
    fn rim_turns_with_the_direction() {
        let s = Shape::<f64>::cylinder(1.0, 0.5);
        let d = DVec3::new(0.6, 0.5, 0.2).normalize();
        let f = feature(&s, d, 1e-12);
        assert_eq!(f.count, 0);
        // Finite difference of the support along the tangent.
        let h = 1e-6;
        let moved = s.core_support((d + f.tangent * h).normalize());
        let rate = (moved - f.point).dot(f.tangent) / h;
        assert!(
            (rate - f.radius).abs() < 1e-5 * f.radius,
            "{rate} {}",
            f.radius
        );
        let side = feature(&s, DVec3::new(1.0, 0.0, 1.0).normalize(), 1e-12);
        assert_eq!((side.count, side.flats[0]), (1, DVec3::Y));
        let cap = feature(&s, DVec3::Y, 1e-12);
        assert_eq!(cap.count, 2);
    }

    /// A hull's edge in a turned frame, two or three (collinear) points,
    /// is not `thin` however its points round; a plate's narrow face,
    /// narrower than the tolerance, is.
    #[test]
    fn only_narrow_faces_taken_as_edges_are_thin() {
        let mut seed = 0x1234_5678_9abc_def1_u64;
        let mut next = || crate::collide::uniform(&mut seed);
        for k in 0..400 {
            let q = glam::DQuat::from_xyzw(next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5)
                .normalize();
            let h = DVec3::new(0.2 + next(), 0.2 + next(), 0.2 + next());
            let corner = |i: usize, h: DVec3| {
                let s = |b: usize| if i & b == 0 { -1.0 } else { 1.0 };
                q * (h * DVec3::new(s(1), s(2), s(4)))
            };
            let mut points: Vec<DVec3> = (0..8).map(|i| corner(i, h)).collect();
            if k % 2 == 1 {
                points.push(q * DVec3::new(h.x, h.y, 0.3 * h.z));
            }
            let hull = Shape::<f64>::hull(points);
            // Inside the normal cone of the edge at x = h.x, y = h.y.
            let b = 0.2 + 1.1 * next();
            let d = q * DVec3::new(b.cos(), b.sin(), 0.0);
            let f = feature(&hull, d, 1e-9);
            assert_eq!((f.count, f.thin), (1, false), "case {k}: {f:?}");
            // The same box 1e-6 thick, seen across its narrow face at 1e-5.
            let plate = Shape::<f64>::hull(
                (0..8)
                    .map(|i| corner(i, h * DVec3::new(1.0, 1.0, 1e-6)))
                    .collect(),
            );
            let f = feature(&plate, q * DVec3::X, 1e-5);
            assert_eq!((f.count, f.thin), (1, true), "case {k}: {f:?}");
        }
    }

    /// A plate's narrow face on turned axes, in f32: the normal its flats
    /// span is the face's to a few ε, where taking the spread across the
    /// face's diagonal by subtraction left it 6e-5 rad off (a review). The
    /// extents keep the corners coplanar in f32 (a thickness of 3e-5 rounds
    /// them off the plane by 6e-8: planes through three of them are
    /// 1.7–3.0e-4 rad apart, and no normal is the face's).
    #[test]
    fn a_narrow_faces_flats_span_its_normal() {
        use glam::Vec3A;
        let frame = [
            Vec3A::new(2.0, 1.0, -2.0),
            Vec3A::new(2.0, -2.0, 1.0),
            Vec3A::new(1.0, 2.0, 2.0),
        ];
        let mut worst = 0.0_f32;
        for (hb, hc) in [
            (0.5, 4.272_461e-4),
            (0.25, 1.0 / 4096.0),
            (0.375, 1.0 / 32768.0),
        ] {
            let at = |a: f32, b: f32, c: f32| frame[0] * a + frame[1] * b + frame[2] * c;
            let corners = (0..8).map(|k| {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                at(s(1) * 0.25, s(2) * hb, s(4) * hc)
            });
            let plate = Shape::<f32>::hull(corners.collect());
            let n = frame[0] / 3.0;
            let f = feature(&plate, n, 1e-6);
            assert_eq!(f.count, 2, "{f:?}");
            let m = f.flats[0].cross(f.flats[1]).normalize();
            worst = worst.max(m.cross(n).length());
        }
        assert!(worst <= 1e-6, "{worst:e}");
    }

    #[test]
    fn hull_face_places_inside_only() {
        let pts = vec![
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(0.0, 1.0, 1.0),
            DVec3::new(0.2, -1.0, 0.3),
        ];
        let s = Shape::<f64>::hull(pts);
        let f = feature(&s, DVec3::Y, 1e-9);
        assert_eq!(f.count, 2);
        let Region::HullFace(d, eta) = f.region else {
            panic!("{f:?}");
        };
        let Geom::Hull(hull) = &s.geom else {
            unreachable!()
        };
        assert!(on_hull_face(hull.points(), d, eta, DVec3::new(0.2, 1.0, 0.2)).is_some());
        assert!(on_hull_face(hull.points(), d, eta, DVec3::new(0.8, 1.0, 0.8)).is_none());
    }

    /// The one-scan hull feature from a height just below the support
    /// finds the same set as the two-scan one: vertices, edges and faces
    /// (points on a box's faces and edges, so sets of one to many points
    /// occur), the hint anywhere from `eta` below the support to on it.
    #[test]
    fn one_scan_hull_sets_match_two_scans() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || crate::collide::uniform(&mut seed);
        let (mut faces, mut edges, mut cases) = (0, 0, 0);
        for k in 0..2000 {
            // Points snapped to a box's faces, edges and corners.
            let snap = |v: f64| {
                if v < 0.4 {
                    -1.0
                } else if v > 0.6 {
                    1.0
                } else {
                    v * 2.0 - 1.0
                }
            };
            let points: Vec<DVec3> = (0..12)
                .map(|_| DVec3::new(snap(next()), snap(next()), snap(next())))
                .collect();
            let hull = Shape::<f64>::hull(points);
            let axis = [DVec3::X, DVec3::Y, DVec3::NEG_Z, DVec3::ONE][k % 4];
            let tilt = DVec3::new(next(), next(), next()) * if k % 5 == 0 { 1.0 } else { 1e-10 };
            let d = (axis + tilt).normalize();
            let eta = 1e-9;
            let top = hull.core_support(d).dot(d) - eta * next();
            let two = flats(&hull, d, eta);
            let one = flats_below(&hull, d, eta, || top);
            assert_eq!(one.1, two.1, "{d:?}");
            assert_eq!(one.0, two.0, "{d:?}");
            faces += usize::from(two.1 == 2);
            edges += usize::from(two.1 == 1);
            cases += 1;
        }
        assert!(
            faces * 10 >= cases && edges * 10 >= cases,
            "too few sets to test: {faces} faces, {edges} edges of {cases}"
        );
    }

    /// A hint above the support by more than `eta` (an edge whose far end
    /// is 0.9·eta below the top, hint 1.5·eta above it) falls back to the
    /// two scans instead of missing the edge's far end (a review's case).
    #[test]
    fn a_hint_too_high_falls_back() {
        let points = vec![
            DVec3::new(0.0, 1.0, 0.0),
            DVec3::new(1.0, 1.0 - 0.9e-3, 0.0),
            DVec3::new(0.0, -1.0, 0.0),
            DVec3::new(0.0, 0.0, 1.0),
            DVec3::new(0.0, 0.0, -1.0),
        ];
        let hull = Shape::<f64>::hull(points);
        let (d, eta) = (DVec3::Y, 1e-3);
        let two = flats(&hull, d, eta);
        assert_eq!(two.1, 1, "an edge");
        assert_eq!(flats_below(&hull, d, eta, || 1.0 + 1.5e-3), two);
    }
}
