//! Box–box overlap by the separating axis theorem: the fast path of
//! [`gjk::intersect`](super::gjk::intersect) for two boxes without margins
//! (parry's `intersection_test` has the same special case).
//!
//! Two boxes are apart exactly when one of 15 axes separates them: the three
//! face normals of each and the nine cross products of their edge directions.
//! The test only answers when the answer is certain despite rounding: an axis
//! separating by more than the touching tolerance plus its rounding bound
//! means apart; every axis overlapping by more than its rounding bound (and
//! no degenerate cross axis) means intersecting. Anything closer to touching
//! is left to GJK, so the answer always agrees with [`gjk::distance`](super::gjk::distance).
//!
//! [`box_box_contact`] is the same test for [`epa::penetration`](super::epa::penetration):
//! the axis of largest separation gives the exact depth of overlapping boxes,
//! and the exact distance of boxes apart when its witnesses (or the facing
//! corners') check out; anything uncertain goes to GJK and EPA.

use crate::real::{Real, V3, Vector};

/// A cross axis shorter than this (sine of the angle between the edges) is
/// treated as degenerate: parallel edges.
const MIN_CROSS: f64 = 1e-3;

/// Whether box A (half extents `ha`, at the origin, axis-aligned) and box B
/// (half extents `hb`, unit axes `axes_b`, centre `t`, in A's frame) overlap:
/// `Some(true)` or `Some(false)` when certain, `None` near touching (within
/// `tol` plus rounding) or with parallel edges, where GJK must decide.
///
/// Out of line: inlined into its caller it compiled to 20 % more
/// instructions (callgrind; its own code unchanged, the crate's code
/// around it changed), the axes' matrix no longer folded into the test.
#[inline(never)]
pub(crate) fn box_box<T: Real>(
    ha: V3<T>,
    hb: V3<T>,
    axes_b: [V3<T>; 3],
    t: V3<T>,
    tol: T,
) -> Option<bool> {
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    // Rounding in a projection is a few ulps of the magnitudes involved.
    let round = T::EPSILON
        * T::from_f64(32.0)
        * (t.length() + ha.x() + ha.y() + ha.z() + hs[0] + hs[1] + hs[2]);
    // B's axes as the columns of `r`: every projection is a few products
    // of its entries, as in `best_axis`. Built here and there alike, by
    // name: a shared helper returning the matrix measured 20–30 % slower
    // box intersect (the build stopped being folded into the test).
    let [b0, b1, b2] = axes_b;
    let r = [
        [b0.x(), b1.x(), b2.x()],
        [b0.y(), b1.y(), b2.y()],
        [b0.z(), b1.z(), b2.z()],
    ];
    let ar = r.map(|row| row.map(Real::abs));
    let (tv, has) = ([t.x(), t.y(), t.z()], [ha.x(), ha.y(), ha.z()]);
    let mut certain_overlap = true;
    // The boxes' separation `gap` along an axis of length `len`
    // (unnormalised): apart for certain, or not certainly overlapping.
    let mut check = |gap: T, len: T| -> bool {
        let err = round * len;
        if gap > tol * len + err {
            return true;
        }
        if gap > -err {
            certain_overlap = false;
        }
        false
    };
    for i in 0..3 {
        let rb = hs[0] * ar[i][0] + hs[1] * ar[i][1] + hs[2] * ar[i][2];
        if check(tv[i].abs() - has[i] - rb, T::ONE) {
            return Some(false);
        }
    }
    for j in 0..3 {
        let tl = tv[0] * r[0][j] + tv[1] * r[1][j] + tv[2] * r[2][j];
        let ra = has[0] * ar[0][j] + has[1] * ar[1][j] + has[2] * ar[2][j];
        if check(tl.abs() - ra - hs[j], T::ONE) {
            return Some(false);
        }
    }
    let mut parallel = false;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // e_i × b_j has components −r[i2][j] (at i1) and r[i1][j] (at i2).
            let len = (r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j]).sqrt();
            if len < T::from_f64(MIN_CROSS) {
                parallel = true;
                continue;
            }
            let tl = tv[i2] * r[i1][j] - tv[i1] * r[i2][j];
            let ra = has[i1] * ar[i2][j] + has[i2] * ar[i1][j];
            let rb = hs[j1] * ar[i][j2] + hs[j2] * ar[i][j1];
            if check(tl.abs() - ra - rb, len) {
                return Some(false);
            }
        }
    }
    (certain_overlap && !parallel).then_some(true)
}

/// The contact of two boxes found by the separating axis test, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxContact<T: Real> {
    /// Signed separation along `normal`: the gap when apart, minus the depth
    /// when overlapping.
    pub sep: T,
    /// Unit axis from A towards B.
    pub normal: V3<T>,
    /// On A: its closest point when apart, its deepest along `normal` when overlapping.
    pub point_a: V3<T>,
    /// On B: `point_b − point_a = sep · normal`.
    pub point_b: V3<T>,
    /// A certified lower bound on the distance when apart: `sep` for a
    /// separating axis, the support planes' gap along the points' own
    /// direction for corners ([`corner_to_box`]'s check, which allows
    /// rounding).
    pub lower: T,
    /// How many corners each point may stand for: 1 where it is a box's
    /// corner (which may be the wrong end of a short edge, as with a lone
    /// vertex of GJK's simplex), 2 on an edge, 3 on a face or inside, or
    /// where it cannot be a wrong end: two corners each its box's clamp of
    /// the other ([`mutually_closest`]) are `(3, 3)`.
    pub distinct: (usize, usize),
}

/// Which of the 15 axes: a face normal of A or of B, or the cross product of
/// A's edge direction `i` and B's edge direction `j`.
#[derive(Clone, Copy, Debug)]
enum Axis {
    FaceA(usize),
    FaceB(usize),
    Edge(usize, usize),
}

/// The sine below which two edge directions count as parallel for
/// [`box_box_contact`]: a cross axis that short has a normal too rounded to
/// trust (f32 needs a wider margin than f64 for EPA's tolerance).
fn min_contact_cross<T: Real>() -> T {
    match T::PRECISION {
        cspace_recorder::Precision::F32 => T::from_f64(1e-2),
        cspace_recorder::Precision::F64 => T::from_f64(MIN_CROSS),
    }
}

/// The axis of largest signed separation of box A (half extents `ha`, at
/// the origin, axis-aligned) and box B (half extents `hs`, unit axes
/// `axes_b`, centre `t`, in A's frame): the separation, the axis (`None` with
/// parallel edges) and whether it points from B towards A.
fn best_axis<T: Real>(
    ha: V3<T>,
    hs: [T; 3],
    axes_b: [V3<T>; 3],
    t: V3<T>,
) -> (T, Option<Axis>, bool) {
    let mut best = (-T::MAX, Axis::FaceA(0), false);
    let min_cross = min_contact_cross::<T>();
    let mut parallel = false;
    each_axis(ha, hs, axes_b, t, |s, axis, tl, len| {
        if len < min_cross {
            parallel = true;
        } else if s > best.0 {
            best = (s, axis, tl < T::ZERO);
        }
    });
    (best.0, (!parallel).then_some(best.1), best.2)
}

/// Calls `f` for each of the 15 axes of the boxes (as [`best_axis`] takes
/// them) with its signed separation along the better of its two senses,
/// the axis, the projection of `t` on it (its sign the sense: negative
/// from B towards A) and the unscaled axis's length (1 but for edge
/// pairs, the sine of their angle). With B's axes as the columns of a
/// matrix `r`, every projection is a few products of its entries
/// (Gottschalk's OBB test): no vector arithmetic per axis.
#[inline]
fn each_axis<T: Real>(
    ha: V3<T>,
    hs: [T; 3],
    axes_b: [V3<T>; 3],
    t: V3<T>,
    mut f: impl FnMut(T, Axis, T, T),
) {
    let [b0, b1, b2] = axes_b;
    let r = [
        [b0.x(), b1.x(), b2.x()],
        [b0.y(), b1.y(), b2.y()],
        [b0.z(), b1.z(), b2.z()],
    ];
    let ar = r.map(|row| row.map(Real::abs));
    let (tv, has) = ([t.x(), t.y(), t.z()], [ha.x(), ha.y(), ha.z()]);
    for i in 0..3 {
        let rb = hs[0] * ar[i][0] + hs[1] * ar[i][1] + hs[2] * ar[i][2];
        f(tv[i].abs() - has[i] - rb, Axis::FaceA(i), tv[i], T::ONE);
    }
    for j in 0..3 {
        let tl = tv[0] * r[0][j] + tv[1] * r[1][j] + tv[2] * r[2][j];
        let ra = has[0] * ar[0][j] + has[1] * ar[1][j] + has[2] * ar[2][j];
        f(tl.abs() - ra - hs[j], Axis::FaceB(j), tl, T::ONE);
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // e_i × b_j has components −r[i2][j] (at i1) and r[i1][j] (at i2).
            let len = (r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j]).sqrt();
            let tl = tv[i2] * r[i1][j] - tv[i1] * r[i2][j];
            let ra = has[i1] * ar[i2][j] + has[i2] * ar[i1][j];
            let rb = hs[j1] * ar[i][j2] + hs[j2] * ar[i][j1];
            let s = if len > T::ZERO {
                (tl.abs() - ra - rb) / len
            } else {
                -T::MAX
            };
            f(s, Axis::Edge(i, j), tl, len);
        }
    }
}

/// The separation of the boxes along unit axis `n` (from A towards B).
fn separation<T: Real>(ha: V3<T>, hs: [T; 3], axes_b: [V3<T>; 3], t: V3<T>, n: V3<T>) -> T {
    n.dot(t)
        - ha.dot(n.abs())
        - hs[0] * axes_b[0].dot(n).abs()
        - hs[1] * axes_b[1].dot(n).abs()
        - hs[2] * axes_b[2].dot(n).abs()
}

/// Boxes apart whose best axis does not realise their distance (vertex–edge
/// and vertex–vertex closest features): the nearer of B's corner facing A
/// and its closest point on A, or A's corner facing B and its closest point
/// on B (clamping is exact for a point and a box). Their distance is an
/// upper bound; it is the distance when the axis through them separates the
/// boxes by as much, which is checked. Otherwise the axis through them,
/// which faces nearer corners than `n` (worth one more try).
fn corner_to_box<T: Real>(
    ha: V3<T>,
    hs: [T; 3],
    axes_b: [V3<T>; 3],
    t: V3<T>,
    n: V3<T>,
    round: T,
) -> Result<BoxContact<T>, V3<T>> {
    let clamp = |p: V3<T>, h: [T; 3]| [0, 1, 2].map(|k| clamp_one(p.get(k), h[k]));
    let has = [ha.x(), ha.y(), ha.z()];
    // B's corner facing A (along −n), and its closest point on A.
    let sb = [0, 1, 2].map(|k| {
        if axes_b[k].dot(n) > T::ZERO {
            -hs[k]
        } else {
            hs[k]
        }
    });
    let pb = t + axes_b[0] * sb[0] + axes_b[1] * sb[1] + axes_b[2] * sb[2];
    let qa = clamp(pb, has);
    let qa = V3::<T>::new(qa[0], qa[1], qa[2]);
    // A's corner facing B, and its closest point on B (in B's frame, then back).
    let sign = |v: T, h: T| if v < T::ZERO { -h } else { h };
    let pa = V3::<T>::new(
        sign(n.x(), ha.x()),
        sign(n.y(), ha.y()),
        sign(n.z(), ha.z()),
    );
    let local = pa - t;
    let lb = V3::<T>::new(
        axes_b[0].dot(local),
        axes_b[1].dot(local),
        axes_b[2].dot(local),
    );
    let qb = clamp(lb, hs);
    let qb = t + axes_b[0] * qb[0] + axes_b[1] * qb[1] + axes_b[2] * qb[2];
    let (point_a, point_b) = if (pb - qa).length_squared() <= (qb - pa).length_squared() {
        (qa, pb)
    } else {
        (pa, qb)
    };
    let on_b = point_b == pb;
    let c = checked(ha, hs, axes_b, t, (point_a, point_b), (round, n))?;
    // The corner was chosen by `n`'s signs. Where one of its edges is
    // within rounding of perpendicular to the normal, the check cannot
    // tell it from the edge's other end: the points move to mutually
    // closest ones.
    let level = |h: [T; 3], d: [T; 3]| (0..3).any(|k| h[k] * d[k].abs() <= round);
    let ambiguous = if on_b {
        level(hs, axes_b.map(|axis| axis.dot(c.normal)))
    } else {
        level(has, [c.normal.x(), c.normal.y(), c.normal.z()])
    };
    if !ambiguous {
        return Ok(BoxContact {
            distinct: if on_b { (3, 1) } else { (1, 3) },
            ..c
        });
    }
    let (point_a, point_b, distinct) = mutually_closest(has, hs, axes_b, t, (point_a, point_b));
    let c = checked(ha, hs, axes_b, t, (point_a, point_b), (round, n))?;
    Ok(BoxContact { distinct, ..c })
}

/// The contact of boxes apart at points `(point_a, point_b)` (A's frame),
/// their distance an upper bound: `Err` with the axis through them (`n`
/// when they coincide) unless that axis separates the boxes by as much, to
/// `round`. `distinct` is left to the caller.
fn checked<T: Real>(
    ha: V3<T>,
    hs: [T; 3],
    axes_b: [V3<T>; 3],
    t: V3<T>,
    (point_a, point_b): (V3<T>, V3<T>),
    (round, n): (T, V3<T>),
) -> Result<BoxContact<T>, V3<T>> {
    let gap = point_b - point_a;
    let sep = gap.length();
    let normal = gap.try_normalize().ok_or(n)?;
    let lower = separation(ha, hs, axes_b, t, normal);
    if lower < sep - round {
        return Err(normal);
    }
    Ok(BoxContact {
        sep,
        normal,
        point_a,
        point_b,
        lower: lower.min(sep),
        distinct: (1, 1),
    })
}

/// The exact distance or penetration of box A (half extents `ha`, at the
/// origin, axis-aligned) and box B (half extents `hb`, unit axes `axes_b`,
/// centre `t`, in A's frame), with witness points.
///
/// The axis of largest signed separation among the 15 gives both answers: for
/// overlapping boxes its overlap is the depth (every face normal of the CSO is
/// among the axes); for boxes apart it is a lower bound on the distance, exact
/// when the features it touches realise it (face–vertex, vertex–face, or
/// edge–edge with the closest points inside both edges), which is checked.
/// Boxes apart whose closest features are not of those kinds (vertex–edge,
/// vertex–vertex) are tried with their facing corners ([`corner_to_box`]).
/// Otherwise `None`, for GJK and EPA to decide: near touching
/// (within `tol` plus rounding), parallel edges, or no exact witnesses.
pub(crate) fn box_box_contact<T: Real>(
    ha: V3<T>,
    hb: V3<T>,
    axes_b: [V3<T>; 3],
    t: V3<T>,
    tol: T,
) -> Option<BoxContact<T>> {
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    let size = t.length() + ha.x() + ha.y() + ha.z() + hs[0] + hs[1] + hs[2];
    let round = T::EPSILON * T::from_f64(64.0) * size;
    let axes_a = [V3::<T>::X, V3::<T>::Y, V3::<T>::Z];
    let (sep, axis, flip) = best_axis(ha, hs, axes_b, t);
    let axis = axis?;
    if sep.abs() <= tol + round {
        return None;
    }
    let l = match axis {
        Axis::FaceA(i) => axes_a[i],
        Axis::FaceB(j) => axes_b[j],
        Axis::Edge(i, j) => axes_a[i]
            .cross(axes_b[j])
            .try_normalize()
            .unwrap_or(axes_a[i]),
    };
    let n = if flip { -l } else { l };
    let corner_a = |d: V3<T>| {
        let sign = |v: T, h: T| if v < T::ZERO { -h } else { h };
        V3::<T>::new(
            sign(d.x(), ha.x()),
            sign(d.y(), ha.y()),
            sign(d.z(), ha.z()),
        )
    };
    // B's corner along `d`, and the signed half extent taken on each axis.
    let corner_b = |d: V3<T>| {
        let h = [0, 1, 2].map(|k| {
            if axes_b[k].dot(d) < T::ZERO {
                -hs[k]
            } else {
                hs[k]
            }
        });
        (
            t + axes_b[0] * h[0] + axes_b[1] * h[1] + axes_b[2] * h[2],
            h,
        )
    };
    let witnesses = match axis {
        Axis::FaceA(k) => {
            let (pb, _) = corner_b(-n);
            let pa = pb - n * sep;
            let inside = (0..3).all(|j| j == k || pa.get(j).abs() <= ha.get(j));
            inside.then_some((pa, pb))
        }
        Axis::FaceB(k) => {
            let pa = corner_a(n);
            let pb = pa + n * sep;
            let r = pb - t;
            let inside = (0..3).all(|j| j == k || axes_b[j].dot(r).abs() <= hs[j]);
            inside.then_some((pa, pb))
        }
        Axis::Edge(i, j) => {
            // The supporting edges: through the corners, along e_i and b_j.
            let mut ca = corner_a(n);
            ca = ca - axes_a[i] * ca.get(i);
            let (cb, h) = corner_b(-n);
            let cb = cb - axes_b[j] * h[j];
            // Closest points of the lines ca + u e_i and cb + v b_j, with
            // b_j split into b·e_i and w ⊥ e_i (|w| = sin of the edges'
            // angle): u = b (w·r)/|w|² − r_i. Written as `(b f − r_i)/(1 −
            // b²)` it cancels twice for nearly parallel edges (an error of
            // ε/sin² where the geometry allows ε/sin: f32 points 3.4e-4 of
            // the size off at 3e-2 rad).
            let r = ca - cb;
            let bj = axes_b[j];
            let b = bj.get(i);
            let (k, m) = ((i + 1) % 3, (i + 2) % 3);
            let ww = bj.get(k) * bj.get(k) + bj.get(m) * bj.get(m);
            let wr = bj.get(k) * r.get(k) + bj.get(m) * r.get(m);
            let u = b * wr / ww - r.get(i);
            let v = bj.dot(r) + u * b;
            let inside = u.abs() <= ha.get(i) && v.abs() <= hs[j];
            inside.then_some((ca + axes_a[i] * u, cb + axes_b[j] * v))
        }
    };
    match witnesses {
        Some((point_a, point_b)) => Some(BoxContact {
            sep,
            normal: n,
            point_a,
            point_b,
            lower: sep,
            distinct: match axis {
                Axis::FaceA(_) => (3, 1),
                Axis::FaceB(_) => (1, 3),
                Axis::Edge(..) => (2, 2),
            },
        }),
        // A normal through two corners is only as good as the gap is wide.
        None if sep > T::EPSILON.sqrt() * T::from_f64(100.0) * size => {
            match corner_to_box(ha, hs, axes_b, t, n, round) {
                Ok(c) => Some(c),
                Err(m) => corner_to_box(ha, hs, axes_b, t, m, round).ok(),
            }
        }
        None => None,
    }
}

/// A bound on the angle between the unit axis `n` of the boxes' least
/// overlap (`sep < 0`, as [`box_box_contact`] found it; boxes as there)
/// and every direction of least depth: those are among the 15 axes (the
/// CSO's face normals), so the widest angle from `n` to an axis whose
/// separation is within rounding of `sep`, plus the axes' own rounding.
/// Boxes apart (`sep > 0`) have one closest direction; `n` is it to the
/// rounding of the points over their gap. See `aim`.
pub(crate) fn box_box_normal_within<T: Real>(
    (ha, hb, axes_b, t): (V3<T>, V3<T>, [V3<T>; 3], V3<T>),
    n: V3<T>,
    sep: T,
) -> f64 {
    use super::aim::{angle, wide};
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    let size = (t.length() + ha.x() + ha.y() + ha.z() + hs[0] + hs[1] + hs[2]).to_f64();
    let eps = T::EPSILON.to_f64();
    let round = 64.0 * eps * size;
    if sep > T::ZERO {
        return 4.0 * round / sep.to_f64() + 8.0 * eps;
    }
    let (best, nw) = (sep.to_f64(), wide::<T>(n));
    let axes_a = [V3::<T>::X, V3::<T>::Y, V3::<T>::Z];
    let mut worst: f64 = 0.0;
    each_axis(ha, hs, axes_b, t, |s, axis, tl, len| {
        let (s, tl, len) = (s.to_f64(), tl.to_f64(), len.to_f64());
        // Parallel edges make no face of the CSO of their own; a nearly
        // parallel pair's axis turns by ε over its length, its separation
        // by that times the size.
        if len <= 1e3 * eps {
            return;
        }
        let slack = 2.0 * round + 8.0 * eps * size / len;
        let other = s - 2.0 * tl.abs() / len;
        if s < best - slack && other < best - slack {
            return;
        }
        let l = match axis {
            Axis::FaceA(i) => wide::<T>(axes_a[i]),
            Axis::FaceB(j) => wide::<T>(axes_b[j]),
            Axis::Edge(i, j) => wide::<T>(axes_a[i]).cross(wide::<T>(axes_b[j])) / len,
        };
        let l = if tl < 0.0 { -l } else { l };
        let turn = 8.0 * eps / len;
        if s >= best - slack {
            worst = worst.max(angle(nw, l) + turn);
        }
        if other >= best - slack {
            worst = worst.max(angle(nw, -l) + turn);
        }
    });
    worst
}

/// `x` clamped to `[−h, h]`.
fn clamp_one<T: Real>(x: T, h: T) -> T {
    x.max(-h).min(h)
}

/// Points `(point_a, point_b)` of boxes apart (boxes as in
/// [`corner_to_box`]) moved by alternating projections (each box's clamp
/// of the other's point) until each is the closest point of its box to the
/// other: a pair of mutually closest points of two convex sets is their
/// closest pair. For [`corner_to_box`]'s corner chosen by a rough axis's
/// signs, which can be the wrong end of a short edge nearly perpendicular
/// to the normal within the rounding its check allows: in f32, a corner
/// of a box 1e-3 across, 5.4e-6 farther than the right one at 0.31 apart,
/// 8e-4 of the size off with the normal through it 3.3e-3 rad off. Stops
/// when a step brings the points no closer, after two at most (a wrong
/// corner takes one; edges nearly parallel zig-zag, and are left to the
/// caller's check). The points' `distinct` ([`BoxContact`]): none stands
/// for a corner that may be the wrong one where they end two corners
/// mutually closest (bit for bit), else both may.
#[cold]
#[inline(never)]
fn mutually_closest<T: Real>(
    has: [T; 3],
    hs: [T; 3],
    axes_b: [V3<T>; 3],
    t: V3<T>,
    (mut point_a, mut point_b): (V3<T>, V3<T>),
) -> (V3<T>, V3<T>, (usize, usize)) {
    let clamp = |p: [T; 3], h: [T; 3]| [0, 1, 2].map(|k| clamp_one(p[k], h[k]));
    // Each clamp, and whether it lands on a corner (every coordinate at
    // its bound).
    let corner = |p: [T; 3], h: [T; 3]| (0..3).all(|k| p[k].abs() >= h[k]);
    let on_a = |p: V3<T>| {
        let p = [p.x(), p.y(), p.z()];
        let q = clamp(p, has);
        (V3::<T>::new(q[0], q[1], q[2]), corner(p, has))
    };
    let on_b = |p: V3<T>| {
        let r = p - t;
        let local = axes_b.map(|axis| axis.dot(r));
        let q = clamp(local, hs);
        (
            t + axes_b[0] * q[0] + axes_b[1] * q[1] + axes_b[2] * q[2],
            corner(local, hs),
        )
    };
    let mut gap = (point_b - point_a).length_squared();
    for _ in 0..2 {
        let (b, b_corner) = on_b(point_a);
        let (a, a_corner) = on_a(b);
        // Two corners, each the other's clamp. (Elsewhere a fixed point of
        // rounded clamps may stall short of the pair along nearly parallel
        // edges, ε × size over their angle squared: both may be off.)
        if a == point_a && b == point_b {
            let certain = if a_corner && b_corner { 3 } else { 1 };
            return (a, b, (certain, certain));
        }
        let closer = (b - a).length_squared();
        if closer >= gap {
            break;
        }
        (point_a, point_b, gap) = (a, b, closer);
    }
    (point_a, point_b, (1, 1))
}

/// [`box_box_contact`] of boxes apart, from a unit normal `n` (A towards B)
/// near the answer's, such as a coherent query's last: the facing corners
/// along `n` and their closest points ([`corner_to_box`]), exact where the
/// axis through them separates the boxes by as much (face–vertex,
/// vertex–edge and vertex–vertex closest features; not edge–edge). `None`
/// when that does not check out or the boxes are within `tol` plus
/// rounding: the whole test decides.
pub(crate) fn box_box_near<T: Real>(
    ha: V3<T>,
    hb: V3<T>,
    axes_b: [V3<T>; 3],
    t: V3<T>,
    n: V3<T>,
    tol: T,
) -> Option<BoxContact<T>> {
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    let size = t.length() + ha.x() + ha.y() + ha.z() + hs[0] + hs[1] + hs[2];
    let round = T::EPSILON * T::from_f64(64.0) * size;
    let c = corner_to_box(ha, hs, axes_b, t, n, round).ok()?;
    // Corners nearer than rounding give a normal only as good as the gap.
    (c.sep > tol + round && c.sep > T::EPSILON.sqrt() * T::from_f64(100.0) * size).then_some(c)
}

/// The least overlap of two boxes over their face normals and the edge cross
/// products that are not degenerate (length ≥ 1e-6), with its unit normal
/// (from A towards B, A's frame). Every axis's overlap is an upper bound of
/// the penetration depth: [`epa::penetration`](super::epa::penetration) takes
/// this one when its polytope degenerates (nearly parallel faces), where the
/// exact test declines.
pub(crate) fn box_box_overlap_bound<T: Real>(
    ha: V3<T>,
    hb: V3<T>,
    axes_b: [V3<T>; 3],
    t: V3<T>,
) -> Option<(T, V3<T>)> {
    let (ha, hb) = (ha.abs(), hb.abs());
    let hs = [hb.x(), hb.y(), hb.z()];
    let axes_a = [V3::<T>::X, V3::<T>::Y, V3::<T>::Z];
    let mut best: Option<(T, V3<T>)> = None;
    let mut keep = |l: V3<T>| {
        let ra = ha.dot(l.abs());
        let rb = hs[0] * axes_b[0].dot(l).abs()
            + hs[1] * axes_b[1].dot(l).abs()
            + hs[2] * axes_b[2].dot(l).abs();
        let tl = t.dot(l);
        let overlap = ra + rb - tl.abs();
        if best.is_none_or(|(o, _)| overlap < o) {
            best = Some((overlap, if tl < T::ZERO { -l } else { l }));
        }
    };
    for l in axes_a.iter().chain(&axes_b) {
        keep(*l);
    }
    for a in &axes_a {
        for b in &axes_b {
            let c = a.cross(*b);
            if c.length() >= T::from_f64(1e-6)
                && let Some(l) = c.try_normalize()
            {
                keep(l);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use crate::gjk;
    use crate::shape::{Placed, Pose, Shape};
    use glam::{DQuat, DVec3};

    /// Boxes apart, overlapping and nearly touching: the fast path never
    /// contradicts GJK distance, and decides most random pairs by itself.
    #[test]
    fn box_box_agrees_with_gjk_distance() {
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        let mut f = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut decided = 0;
        for i in 0..4000 {
            let mut v = || DVec3::new(f() - 0.5, f() - 0.5, f() - 0.5);
            let (ha, hb) = (v().abs() + 0.1, v().abs() + 0.1);
            let (qa, qb) = (
                DQuat::from_scaled_axis(v() * 6.0),
                DQuat::from_scaled_axis(v() * 6.0),
            );
            let (a, b) = (Shape::<f64>::cuboid(ha), Shape::<f64>::cuboid(hb));
            // Every fourth pair: B moved to just touch A (± rounding) along the GJK normal.
            let mut pb = Pose::new(v() * 4.0, qb);
            let pa = Pose::new(DVec3::ZERO, qa);
            if i % 4 == 0 {
                let d = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
                pb.position -= d.normal * d.distance;
            }
            let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cso = crate::collide::cso::Cso::new(&pa, &pb);
            let d = gjk::distance(&pa, &pb);
            let o = gjk::intersect(&pa, &pb);
            assert_eq!(o.intersecting, d.intersecting, "{d:?} {o:?}");
            decided += usize::from(crate::collide::boxes::intersect_for_tests(&cso).is_some());
        }
        assert!(decided > 2500, "{decided}");
    }

    /// Random box pairs, some with margins, overlapping, apart and nearly
    /// touching: where the separating axis test answers a penetration query
    /// it agrees with GJK + EPA (depth, normal, `intersecting`), its normal
    /// needs exactly its depth, and its witnesses lie on the shapes' surfaces
    /// `depth · normal` apart. It decides most pairs by itself.
    #[test]
    fn box_box_contact_agrees_with_epa() {
        use crate::epa;
        let mut s = 0x9e37_79b9_7f4a_7c15_u64;
        let mut f = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        // Distance from local point `p` to box `h`'s core, minus the margin.
        let outside = |p: DVec3, h: DVec3, r: f64| (p.abs() - h).max(DVec3::ZERO).length() - r;
        let (mut decided, mut overlapping) = (0, 0);
        for i in 0..6000 {
            let mut v = || DVec3::new(f() - 0.5, f() - 0.5, f() - 0.5);
            let (ha, hb) = (v().abs() * 2.0 + 0.05, v().abs() * 2.0 + 0.05);
            let (ra, rb) = if i % 3 == 0 {
                (v().x.abs() * 0.4, v().y.abs() * 0.2)
            } else {
                (0.0, 0.0)
            };
            let a = Shape::<f64>::cuboid(ha).with_margin(ra);
            let b = Shape::<f64>::cuboid(hb).with_margin(rb);
            let pa = Pose::new(v() * 2.0, DQuat::from_scaled_axis(v() * 6.0));
            let mut pb = Pose::new(v() * 5.0, DQuat::from_scaled_axis(v() * 6.0));
            if i % 5 == 0 {
                // Nearly touching, from either side.
                let d = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
                pb.position -= d.normal * (d.distance + (f() - 0.5) * 1e-9);
            }
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let p = epa::penetration(&a, &b);
            let e = epa::gjk_epa_for_tests(&a, &b);
            let scale = a.shape.scale().max(b.shape.scale());
            assert_eq!(p.intersecting, e.intersecting, "{p:?} {e:?}");
            assert!((p.depth - e.depth).abs() <= 2e-8 * scale, "{p:?} {e:?}");
            if p.iterations != 0 {
                continue;
            }
            decided += 1;
            let n = p.normal;
            let needed = n.dot(a.support(n)) - n.dot(b.support(-n));
            let (la, lb) = (
                pa.rotation.inverse() * (p.point_a - pa.position),
                pb.rotation.inverse() * (p.point_b - pb.position),
            );
            assert!(outside(la, ha, ra).abs() <= 1e-9 * scale, "{p:?}");
            assert!(outside(lb, hb, rb).abs() <= 1e-9 * scale, "{p:?}");
            if p.intersecting {
                overlapping += 1;
                assert!(
                    (needed - p.depth).abs() <= 1e-9 * scale,
                    "{p:?} needs {needed}"
                );
                assert!(
                    (p.point_a - p.point_b - n * p.depth).length() <= 1e-9 * scale,
                    "{p:?}"
                );
                assert!((n.dot(p.point_a) - n.dot(a.support(n))).abs() <= 1e-9 * scale);
            } else {
                let d = gjk::distance(&a, &b);
                assert!((p.normal - d.normal).length() < 1e-9, "{p:?} {d:?}");
                let gap = (p.point_b - p.point_a).length();
                assert!((gap - d.distance).abs() <= 1e-9 * scale, "{p:?} {d:?}");
            }
        }
        eprintln!("decided {decided} overlapping {overlapping}");
        assert!(
            decided > 3000 && overlapping > 500,
            "{decided} {overlapping}"
        );
    }

    /// The same agreement in f32: `intersecting` as GJK + EPA, the depth
    /// within EPA's f32 tolerance, and a normal that needs that depth.
    #[test]
    fn box_box_contact_agrees_with_epa_f32() {
        use crate::epa;
        use glam::{Quat, Vec3A};
        let mut s = 0x2545_f491_4f6c_dd1d_u64;
        let mut f = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u32 << 24) as f32
        };
        let mut decided = 0;
        for i in 0..4000 {
            let mut v = || Vec3A::new(f() - 0.5, f() - 0.5, f() - 0.5);
            let (ha, hb) = (v().abs() * 2.0 + 0.05, v().abs() * 2.0 + 0.05);
            let r = if i % 3 == 0 { v().x.abs() * 0.3 } else { 0.0 };
            let a = Shape::<f32>::cuboid(ha).with_margin(r);
            let b = Shape::<f32>::cuboid(hb);
            let pa = Pose::new(v() * 2.0, Quat::from_scaled_axis((v() * 6.0).into()));
            let pb = Pose::new(v() * 5.0, Quat::from_scaled_axis((v() * 6.0).into()));
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let p = epa::penetration(&a, &b);
            let e = epa::gjk_epa_for_tests(&a, &b);
            let scale = a.shape.scale().max(b.shape.scale());
            assert_eq!(p.intersecting, e.intersecting, "{p:?} {e:?}");
            assert!((p.depth - e.depth).abs() <= 1e-4 * scale, "{p:?} {e:?}");
            if p.iterations == 0 && p.intersecting {
                decided += 1;
                let n = p.normal;
                let needed = n.dot(a.support(n)) - n.dot(b.support(-n));
                assert!(
                    (needed - p.depth).abs() <= 1e-4 * scale,
                    "{p:?} needs {needed}"
                );
            }
        }
        assert!(decided > 500, "{decided}");
    }

    /// The distance of boxes apart by the separating axis test agrees with
    /// GJK's (f64 and f32, with and without margins, nearly touching pairs
    /// included): the same verdict, the distance within GJK's tolerance,
    /// the same normal and witness classification, a certificate that
    /// brackets GJK's distance, points on the shapes `distance` apart.
    #[test]
    fn box_box_distance_agrees_with_gjk() {
        fn check<T: crate::real::Real>(prec: &str, rel: f64, cases: usize) {
            use crate::real::{Rotation, V3, Vector};
            let mut s = 0x51_7cc1_b727_220a_u64;
            let mut f = move || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f64 / (1u64 << 53) as f64
            };
            let (mut decided, mut near) = (0, 0);
            for i in 0..cases {
                let mut v = || DVec3::new(f() - 0.5, f() - 0.5, f() - 0.5);
                let (ha, hb) = (v().abs() * 2.0 + 0.05, v().abs() * 2.0 + 0.05);
                let margin = if i % 3 == 0 { v().x.abs() * 0.3 } else { 0.0 };
                let t = |p: DVec3| V3::<T>::from_f64(p.to_array());
                let q = |w: DVec3| {
                    let q = DQuat::from_scaled_axis(w);
                    <T::Q as Rotation<T>>::from_xyzw([q.x, q.y, q.z, q.w].map(T::from_f64))
                };
                let a = Shape::<T>::cuboid(t(ha)).with_margin(T::from_f64(margin));
                let b = Shape::<T>::cuboid(t(hb));
                let pa = Pose::new(t(v() * 2.0), q(v() * 6.0));
                let mut pb = Pose::new(t(v() * 6.0), q(v() * 6.0));
                if i % 4 == 0 {
                    // Nearly touching: apart by a few tolerances, or touching.
                    let d = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
                    let left = T::from_f64(f() * 6.0 * rel) * a.scale().max(b.scale());
                    pb.position -= d.normal * (d.distance - left);
                }
                let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
                let cso = crate::collide::cso::Cso::new(&pa, &pb);
                let d = gjk::distance(&pa, &pb);
                let g = gjk::distance_gjk_for_tests(&cso);
                let scale = cso.scale.to_f64();
                assert_eq!(d.intersecting, g.intersecting, "{prec} {i}: {d:?} {g:?}");
                if d.iterations != 0 || d.intersecting {
                    continue;
                }
                decided += 1;
                near += usize::from(i % 4 == 0);
                let (dd, gd) = (d.distance.to_f64(), g.distance.to_f64());
                assert!(
                    (dd - gd).abs() <= 2.0 * rel * scale,
                    "{prec} {i}: {d:?} {g:?}"
                );
                assert!(d.lower_bound <= d.distance && d.distance <= d.upper_bound);
                assert!(
                    d.lower_bound.to_f64() <= gd + rel * scale
                        && gd <= d.upper_bound.to_f64() + rel * scale,
                    "{prec} {i}: {d:?} {g:?}"
                );
                // The same classification, or GJK's uncertified where it
                // stopped on its tolerance near touching and its support
                // sets could not place the points (the test here is exact).
                let uncertified = d.witness == crate::collide::witness::Witness::Unique
                    && g.witness == crate::collide::witness::Witness::Approximate;
                assert!(
                    d.witness == g.witness || uncertified,
                    "{prec} {i}: {d:?} {g:?}"
                );
                if d.witness == crate::collide::witness::Witness::Unique {
                    let turn = (d.normal - g.normal).length().to_f64();
                    assert!(turn <= 1e3 * rel, "{prec} {i}: {d:?} {g:?}");
                }
                let gap = (d.point_b - d.point_a).length().to_f64();
                assert!((gap - dd).abs() <= 4.0 * rel * scale, "{prec} {i}: {d:?}");
                for (shape, pose, p) in [(&a, pa.pose, d.point_a), (&b, pb.pose, d.point_b)] {
                    let local = pose.inverse_transform_vector(p - pose.position);
                    let crate::shape::Geom::Box { half_extents: h } = shape.geom else {
                        unreachable!("boxes")
                    };
                    let (local, h) = (DVec3::from(local.to_f64()), DVec3::from(h.to_f64()));
                    let out = (local.abs() - h).max(DVec3::ZERO).length() - shape.margin.to_f64();
                    assert!(out.abs() <= 4.0 * rel * scale, "{prec} {i}: {d:?}");
                }
            }
            eprintln!("{prec}: decided {decided} of {cases} ({near} nearly touching)");
            assert!(decided * 2 > cases && near > 0, "{prec}: {decided} {near}");
        }
        check::<f64>("f64", 3.7e-11, 6000);
        check::<f32>("f32", 2.4e-5, 4000);
    }
}
