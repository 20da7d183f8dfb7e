//! A sweep's contact where a support set is a segment (an edge, a
//! cylinder's or cone's side, a capsule's core): two crossing segments and
//! their common perpendicular, and a contact at or past a segment's end,
//! where the segment's perpendicular is not the contact's normal. Part of
//! [`witness`](super::witness)'s judgement of a hit's contact.

use super::witness::{Blur, curved, set_turn};
use crate::collide::cso::Cso;
use crate::collide::feature::{Feature, Region};
use crate::collide::witness::{edges_slide, normal_tol};
use crate::real::{Real, V3, Vector};

/// Whether both support sets are segments that cross (not parallel).
pub(super) fn crossing<T: Real>(cso: &Cso<'_, T>, (fa, fb): (&Feature<T>, &Feature<T>)) -> bool {
    fa.count == 1
        && fb.count == 1
        && fa.flats[0].cross(cso.b_vector(fb.flats[0])).length() > set_turn::<T>()
}

/// Whether two crossing segments are both level with the normal `n`:
/// their common perpendicular is the contact point (and in f64 fixes the
/// normal; f32's error may as well make one a vertex beside a nearly level
/// edge).
pub(super) fn crossing_edges<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): (&Feature<T>, &Feature<T>),
    n: V3<T>,
) -> bool {
    let turn = set_turn::<T>();
    crossing(cso, (fa, fb))
        && fa.flats[0].dot(n).abs() <= turn
        && fb.flats[0].dot(cso.b_direction(-n)).abs() <= turn
}

/// Whether the features `fa` (A's frame) and `fb` (B's local frame) are two
/// edges whose closest points, `d` apart, slide along them past the
/// witness tolerance (`witness::edges_slide`).
pub(super) fn edges_sliding<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): (&Feature<T>, &Feature<T>),
    d: T,
) -> bool {
    fa.count == 1
        && fb.count == 1
        && edges_slide(
            cso,
            fa.flats[0].cross(cso.b_vector(fb.flats[0])).length(),
            d,
        )
}

/// Whether two edges of polytopes (no curved core) meet within the
/// touching tolerance of an end of either, or beyond it: a vertex on an
/// edge, whose normal neither a face nor the crossing fixes (f64, a box's
/// corner exactly on a hull's edge kept the common perpendicular of its
/// edge and the hull's, 0.24 rad from the constructed normal, `Unique`, a
/// review). With radii, the rounded end turns the normal by the points'
/// error over the radii: so unless that is within the normal's tolerance
/// (f32, a capsule 1.3e-6 in radius, its end at a hull's cap edge, kept
/// the crossing's normal 0.34 rad off, `Unique`). The edges are taken at
/// the contact, A standing still.
pub(super) fn at_edge_end<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    // With radii the end's rounding turns the normal by the points' error
    // over them: within the tolerance only for radii that large.
    let radii = cso.radius_a + cso.radius_b;
    if cso.curved() || blur.touch <= normal_tol::<T>() * radii {
        return false;
    }
    let (_, _, m, [t_e, _, _]) = blur.path;
    let Some(c) = edge_crossing(cso, (fa, fb), m * t_e) else {
        return false;
    };
    let margin = blur.touch;
    let end = |x: T, len: T| (x * len).min((T::ONE - x) * len) <= margin;
    end(c.s, c.u.length()) || end(c.t, c.v.length())
}

/// Two support segments' common perpendicular, B's taken back by `shift`
/// (A's motion to the contact): where along each it lies (`s` on A's
/// `a0 + s·u`, `t` on B's `b0 + t·v`, A's frame).
pub(super) struct EdgeCrossing<T: Real> {
    a0: V3<T>,
    u: V3<T>,
    s: T,
    b0: V3<T>,
    v: V3<T>,
    t: T,
}

/// [`EdgeCrossing`] of two segment support sets; `None` for other sets or
/// parallel segments.
pub(super) fn edge_crossing<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): (&Feature<T>, &Feature<T>),
    shift: V3<T>,
) -> Option<EdgeCrossing<T>> {
    let (Region::Segment(a0, a1), Region::Segment(b0, b1)) = (fa.region, fb.region) else {
        return None;
    };
    let (b0, b1) = (cso.b_point(b0) - shift, cso.b_point(b1) - shift);
    let (u, v) = (a1 - a0, b1 - b0);
    let w = u.cross(v);
    let ww = w.length_squared();
    if ww <= T::ZERO {
        return None;
    }
    let r = b0 - a0;
    let (s, t) = (r.cross(v).dot(w) / ww, r.cross(u).dot(w) / ww);
    Some(EdgeCrossing { a0, u, s, b0, v, t })
}

/// The contact points of two crossing edges (`crossing_edges`) at time
/// `t`: their common perpendicular's feet on A (A's frame at t = 0) and B
/// (A's frame), pushed out by the radii along `n`, where both lie on their
/// segments. Exact to rounding whatever the method's simplex: a crossing's
/// barycentric points mix the support points of `K`'s neighbouring faces
/// where they are nearly level with the edges' (swept MPR, a hull plate
/// 1.8e-6 thick on a box's edge: 1.6e-4 of the size along the box's edge,
/// `Unique`).
pub(super) fn edge_feet<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): (&Feature<T>, &Feature<T>),
    n: V3<T>,
    m: V3<T>,
    t: T,
) -> Option<(V3<T>, V3<T>)> {
    let c = edge_crossing(cso, (fa, fb), m * t)?;
    let within = |x: T| (T::ZERO..=T::ONE).contains(&x);
    if !(within(c.s) && within(c.t)) {
        return None;
    }
    let on_a = c.a0 + c.u * c.s + n * cso.radius_a;
    let on_b = c.b0 + c.v * c.t + m * t - n * cso.radius_b;
    Some((on_a, on_b))
}

/// Whether a sharp vertex of one shape touches the other's curved side (a
/// cylinder's or cone's) within the touching tolerance of the side's end,
/// its rim or apex: the side's normal is then not the contact's, which may
/// be anywhere in the rim's or apex's wide cone (f32, a box's corner
/// 1.5e-5 from a cone's rim, the touching tolerance 1.5e-4, kept the
/// side's normal 0.81 rad from the box face's the rim touches, `Unique`).
pub(super) fn at_side_end<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    let near_end = |p0: V3<T>, p1: V3<T>, q: V3<T>| {
        let u = p1 - p0;
        let uu = u.length_squared();
        let s = (q - p0).dot(u) / uu;
        let len = uu.sqrt();
        uu > T::ZERO && (s * len).min((T::ONE - s) * len) <= blur.touch
    };
    let side = |f: &Feature<T>| f.count == 1 && f.radius > T::ZERO;
    // A sharp vertex: a rounded one (a sphere's, a margin's) or a rim's
    // point fixes the normal itself.
    let vertex = |f: &Feature<T>, radius: T| f.count == 0 && f.radius + radius == T::ZERO;
    match (fa.region, fb.region) {
        (Region::Segment(a0, a1), _) if side(fa) && vertex(fb, cso.radius_b) => {
            near_end(a0, a1, blur.at.1)
        }
        // A's point is at the contact with B standing still.
        (_, Region::Segment(b0, b1)) if side(fb) && vertex(fa, cso.radius_a) => {
            near_end(cso.b_point(b0), cso.b_point(b1), blur.at.0)
        }
        _ => false,
    }
}

/// Whether one shape's support set at the normal is a segment (an edge, a
/// cylinder's or cone's side, a capsule's core) perpendicular to the normal
/// and the other's point lies past either of its ends: the normal, polished
/// perpendicular to the segment, is then not the contact's, which is the
/// end's (an f32 cylinder's
/// side against a capsule's end 2.7e-3 past its rim: the side's normal, 5e-3
/// rad off, `Unique`). A point with no radius of its own (a vertex, a rim's
/// point) against the end fixes no normal with it either, so it counts
/// within the touching tolerance of the end too (an f32 hull's vertex on a
/// cone's side 5.3e-5 from its rim, the bracket's lower end beside the rim:
/// the normal perpendicular to a hull edge, 6.8e-2 rad off, `Unique`);
/// radii (a sphere's, a capsule's, margins) turn the normal from the
/// segment's perpendicular by the distance past the end over them: allowed
/// below the normal's tolerance.
pub(super) fn past_segment_end<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    let n = blur.path.1;
    // Only a normal polished perpendicular to the segment (level with it
    // to its tolerance) took the segment's word for it.
    let inside = |p0: V3<T>, p1: V3<T>, q: V3<T>| {
        let u = p1 - p0;
        let uu = u.length_squared();
        let len = uu.sqrt();
        let s = (q - p0).dot(u) / uu;
        (uu > T::ZERO && n.dot(u).abs() <= normal_tol::<T>() * len)
            .then(|| (s * len).min((T::ONE - s) * len))
    };
    let radii = cso.radius_a + cso.radius_b;
    let allowed = if radii > curved::<T>() * cso.scale {
        -normal_tol::<T>() * radii
    } else {
        blur.touch
    };
    let past = |d: Option<T>| d.is_some_and(|d| d < allowed);
    match (fa.region, fb.region) {
        (Region::Segment(a0, a1), _) if fa.count == 1 && fb.count == 0 => {
            past(inside(a0, a1, blur.at.1))
        }
        // A's point is at the contact with B standing still.
        (_, Region::Segment(b0, b1)) if fb.count == 1 && fa.count == 0 => {
            past(inside(cso.b_point(b0), cso.b_point(b1), blur.at.0))
        }
        _ => false,
    }
}
