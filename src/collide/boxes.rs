//! Two boxes by the separating axis test (`sat`): the distance of boxes
//! clearly apart, cold and from a coherent query's last normal, and the
//! overlap test. Each answers only when certain and leaves the rest to GJK,
//! so every query's verdict agrees with [`gjk::distance`](super::gjk::distance).

use super::Status;
use super::cso::{Cso, relative};
use super::gjk::{Distance, rel_tol};
use super::sat;
use super::sets;
use super::witness;
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// Two boxes (with or without margins) clearly apart: the separating axis
/// test's exact distance, when its witnesses check out
/// ([`sat::box_box_contact`]); `None` leaves the pair to GJK (near
/// touching, overlapping, parallel edges, no exact witnesses). The lower
/// bound is the best axis's support-plane gap, the upper the witnesses'
/// distance; they agree to rounding.
pub(super) fn distance<T: Real>(cso: &Cso<'_, T>) -> Option<Distance<T>> {
    let (ha, hb, axes) = cso.boxes()?;
    let tol = rel_tol::<T>() * cso.scale;
    answer(cso, sat::box_box_contact(ha, hb, axes, cso.offset(), tol)?)
}

/// [`distance`] for a coherent query: first from `normal`, the last
/// answer's (A's frame; zero when none), whose facing corners usually
/// still realise the distance ([`sat::box_box_near`]), else the whole test.
/// `normal` becomes the new answer's (zero when GJK must answer).
pub(super) fn distance_from<T: Real>(cso: &Cso<'_, T>, normal: &mut V3<T>) -> Option<Distance<T>> {
    let (ha, hb, axes) = cso.boxes()?;
    let tol = rel_tol::<T>() * cso.scale;
    let t = cso.offset();
    let near = if *normal == V3::<T>::ZERO {
        None
    } else {
        sat::box_box_near(ha, hb, axes, t, *normal, tol)
    };
    let found = near
        .or_else(|| sat::box_box_contact(ha, hb, axes, t, tol))
        .and_then(|c| Some((c.normal, answer(cso, c)?)));
    *normal = found.map_or(V3::<T>::ZERO, |(n, _)| n);
    found.map(|(_, out)| out)
}

/// The distance answer of boxes whose cores' contact `c` (A's frame) the
/// separating axis test found; `None` unless clearly apart (beyond twice
/// GJK's gap tolerance, so GJK would not call them touching).
fn answer<T: Real>(cso: &Cso<'_, T>, c: sat::BoxContact<T>) -> Option<Distance<T>> {
    let tol = rel_tol::<T>() * cso.scale;
    let r = cso.radius();
    if c.sep - r <= T::TWO * tol {
        return None;
    }
    let eta = T::from_f64(30.0) * rel_tol::<T>() * cso.scale;
    let (mut witness, doubt) =
        witness::classify(cso, c.normal, eta, (c.point_a, c.point_b), c.distinct);
    let (n, point_a, point_b, lower) = if doubt == witness::Doubt::None {
        (c.normal, c.point_a, c.point_b, c.lower)
    } else {
        // A corner that may be the wrong end of a short edge nearly
        // perpendicular to the normal: the support sets decide, or GJK.
        let s = sets::closest(
            cso,
            c.normal,
            witness::set_etas(cso, eta),
            (c.point_a, c.point_b),
        )?;
        witness = witness::classify(cso, s.normal, eta, (s.a, s.b), (2, 2)).0;
        (s.normal, s.a, s.b, s.lower)
    };
    let upper = ((point_b - point_a).length() - r).max(T::ZERO);
    let lower = (lower - r).min(upper);
    rec::text!("box–box: separating axis test, distance {upper:?}");
    let out = Distance {
        distance: upper,
        point_a: cso.world_point(point_a + n * cso.radius_a),
        point_b: cso.world_point(point_b - n * cso.radius_b),
        normal: cso.world_vector(n),
        intersecting: false,
        lower_bound: lower,
        upper_bound: upper,
        iterations: 0,
        status: Status::Converged,
        witness,
    };
    if rec::ENABLED && rec::is_on() {
        rec::point!("closest on A", out.point_a, rec::Rgba::GREEN);
        rec::point!("closest on B", out.point_b, rec::Rgba::GREEN);
    }
    Some(out)
}

/// Whether two boxes without margins overlap, when the separating axis
/// test is certain. Only the relative pose is needed, not a whole [`Cso`].
pub(crate) fn intersect<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Option<bool> {
    use crate::shape::Geom;
    let (Geom::Box { half_extents: ha }, Geom::Box { half_extents: hb }) =
        (&a.shape.geom, &b.shape.geom)
    else {
        return None;
    };
    if a.shape.margin != T::ZERO || b.shape.margin != T::ZERO {
        return None;
    }
    let (rot_b, pos_b, _) = relative(a, b);
    let tol = rel_tol::<T>() * ha.max_abs().max(hb.max_abs());
    sat::box_box(*ha, *hb, rot_b.columns(), pos_b, tol)
}

/// [`intersect`] on the shapes of `cso`, for the unit tests of the `sat` module.
#[cfg(test)]
pub(crate) fn intersect_for_tests<T: Real>(cso: &Cso<'_, T>) -> Option<bool> {
    let (ha, hb, axes) = cso.boxes()?;
    if cso.radius() != T::ZERO {
        return None;
    }
    sat::box_box(ha, hb, axes, cso.offset(), rel_tol::<T>() * cso.scale)
}
