//! A hull's support set kept from one query to the next of a coherent
//! motion: a warm-started distance's witness classification measures only
//! the kept set's points again while the normal's move cannot have let
//! another point in, instead of scanning the hull ([`flats_below_kept`]).

use super::feature::{FACE_POINTS, flats_below};
use crate::real::{Real, V3, Vector};
use crate::shape::{Geom, Shape};

/// The most points of a hull whose support set is kept ([`KeptSet`]): on
/// denser hulls the set changes every few frames of a coherent motion, and
/// refilling it costs more than the frames it is kept save (measured:
/// hull16 warm 10 % faster with it, hull64 5 % slower even backing off).
const KEPT_POINTS: usize = 32;

/// A hull's support set along a direction, kept from one query to the next
/// of a coherent motion (a warm-started distance's cache): while the set's
/// own points stay within the height tolerance of each other and the
/// direction moves by less than the other points allow, the set is the
/// same, and so are its flats' count and span ([`flats_below_kept`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct KeptSet<T: Real> {
    /// The unit direction the set was taken along (the shape's frame).
    d: V3<T>,
    /// The height tolerance it was taken within.
    eta: T,
    /// The square of how far the direction may move (`|d' − d|`) before a
    /// point outside the set could reach it; 0 keeps nothing.
    reach2: T,
    /// The set's points, by index into the hull's points.
    set: [u32; FACE_POINTS],
    /// Number of points in `set`.
    len: usize,
    /// The set's flats and their count, as [`flats_below`] gave them.
    flats: [V3<T>; 2],
    count: usize,
    /// Refills in a row whose set the next query could not use (at most 5).
    misses: u8,
    /// Queries left that scan without refilling (backing off after misses).
    wait: u8,
}

/// [`flats_below`], or, on a hull, the flats `kept` from a direction close
/// enough to `d`. A point `q` outside the set, `g` below the set's edge
/// (the top point `t`'s height minus `eta`), stays outside while the
/// direction moves by less than `g / |t − q|` (its height relative to the
/// top's changes by at most `|t − q|·|d' − d|`); the set's own points are
/// measured again. The flats' directions may differ from a fresh scan's by
/// rounding (another of the set's points on top); their count and span do
/// not. A fresh scan refills `kept`.
pub(crate) fn flats_below_kept<T: Real>(
    shape: &Shape<T>,
    d: V3<T>,
    eta: T,
    top: impl FnOnce() -> T,
    kept: Option<&mut KeptSet<T>>,
) -> ([V3<T>; 2], usize) {
    let (Geom::Hull(hull), Some(kept)) = (&shape.geom, kept) else {
        return flats_below(shape, d, eta, top);
    };
    let points = hull.points();
    if points.len() > KEPT_POINTS {
        return flats_below(shape, d, eta, top);
    }
    // Heights round by a few ulps of the points' reach (√3 × the largest
    // coordinate bounds every point's distance from the origin).
    let rounding = T::from_f64(32.0) * T::EPSILON * hull.extent();
    if kept.eta == eta && (d - kept.d).length_squared() < kept.reach2 {
        let heights = kept.set[..kept.len]
            .iter()
            .map(|&i| points[i as usize].dot(d));
        let (low, high) = heights.fold((T::MAX, -T::MAX), |(l, h), x| (l.min(x), h.max(x)));
        if high - low <= eta - rounding {
            kept.misses = 0;
            return (kept.flats, kept.count);
        }
    }
    let (flats, count) = flats_below(shape, d, eta, top);
    // A set kept and not usable now, or a refill that keeps nothing (a face
    // of many points): the second in a row backs off for 1, then 3, 7, 15
    // queries (a dense hull's set changes every few frames, and a refill is
    // two more scans).
    let back_off = |misses: u8| {
        let misses = (misses + 1).min(5);
        (misses, (1u8 << (misses - 1)) - 1)
    };
    if kept.reach2 > T::ZERO {
        (kept.misses, kept.wait) = back_off(kept.misses);
        kept.reach2 = T::ZERO;
    }
    if kept.wait > 0 {
        kept.wait -= 1;
        return (flats, count);
    }
    let fresh = kept_set(points, d, eta, rounding);
    let (misses, wait) = if fresh.reach2 > T::ZERO {
        (kept.misses, 0)
    } else {
        back_off(kept.misses)
    };
    *kept = KeptSet {
        flats,
        count,
        misses,
        wait,
        ..fresh
    };
    (flats, count)
}

/// The support set of `points` along `d` within `eta`, with how far the
/// direction may move before it could change ([`KeptSet`]); no flats.
fn kept_set<T: Real>(points: &[V3<T>], d: V3<T>, eta: T, rounding: T) -> KeptSet<T> {
    let mut out = KeptSet {
        d,
        eta,
        reach2: T::MAX,
        ..KeptSet::default()
    };
    let Some((t, high)) = points
        .iter()
        .map(|&p| (p, p.dot(d)))
        .reduce(|a, b| if b.1 > a.1 { b } else { a })
    else {
        out.reach2 = T::ZERO;
        return out;
    };
    let edge = high - eta;
    for (i, &q) in points.iter().enumerate() {
        let h = q.dot(d);
        if h >= edge {
            if out.len == FACE_POINTS {
                out.reach2 = T::ZERO; // a face of many points: not kept
                return out;
            }
            out.set[out.len] = u32::try_from(i).unwrap_or(u32::MAX);
            out.len += 1;
        } else {
            let g = (edge - h - rounding).max(T::ZERO);
            out.reach2 = out.reach2.min(g * g / (t - q).length_squared());
        }
    }
    if !out.reach2.is_finite() {
        out.reach2 = T::ZERO;
    }
    out
}
