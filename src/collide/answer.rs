//! Each query records its answer (`rec::answer!`) when it returns, so the
//! viewer draws it at the query's end whoever called the algorithm: the
//! query model, a test, or a user's own code inside `record()`. Only the
//! outermost query of a thread records ([`rec::QueryGuard`]): EPA's inner
//! GJK, a signed distance's GJK and EPA, a sweep's distances add nothing.
//! A refused input (`Status::InvalidInput`, `input::refuse`) never gets
//! here: its recording ends with the text naming what is wrong.
//!
//! Right after the answer comes its certificate (`rec::certificate!`): the
//! status, the proven interval of the answer's number, what the points and
//! normal are worth, the support evaluations — the fields the returned
//! struct carries, under the names `cspace eval` gives them.

use super::epa::Penetration;
use super::gjk::{Distance, Overlap};
use super::signed::SignedDistance;
use super::sweep::Sweep;
use super::{Status, Witness};
use crate::real::{Real, V3};
use crate::shape::Placed;
use cspace_recorder::{self as rec, IntoVec3 as _};

/// A distance query's answer.
#[inline]
pub(crate) fn distance<T: Real>(query: &rec::QueryGuard, d: &Distance<T>) {
    if query.outermost() {
        rec::answer!(rec::Answer::Distance {
            distance: d.distance.into_scalar(),
            point_a: d.point_a.into_vec3(),
            point_b: d.point_b.into_vec3(),
            normal: d.normal.into_vec3(),
        });
        certificate(
            d.status,
            d.iterations,
            Some([d.lower_bound, d.upper_bound]),
            Some(d.witness),
            None,
        );
    }
}

/// An intersect query's answer.
#[inline]
pub(crate) fn intersect(query: &rec::QueryGuard, o: Overlap) {
    if query.outermost() {
        rec::answer!(rec::Answer::Intersect {
            intersecting: o.intersecting,
            axis: None,
        });
        certificate::<f64>(o.status, o.iterations, None, None, None);
    }
}

/// The certificate after an answer (`T` only types the absent numbers).
#[inline]
fn certificate<T: Real>(
    status: Status,
    iterations: u32,
    bounds: Option<[T; 2]>,
    witness: Option<Witness>,
    normal_within: Option<T>,
) {
    rec::certificate!(rec::Certificate {
        status: status.name().to_owned(),
        iterations,
        bounds: bounds.map(|b| b.map(rec::IntoScalar::into_scalar)),
        witness: witness.map(|w| w.name().to_owned()),
        normal_within: normal_within.map(rec::IntoScalar::into_scalar),
    });
}

/// A penetration query's answer.
#[inline]
pub(crate) fn penetration<T: Real>(query: &rec::QueryGuard, p: &Penetration<T>) {
    if query.outermost() {
        rec::answer!(rec::Answer::Penetration {
            depth: p.depth.into_scalar(),
            normal: p.normal.into_vec3(),
            point_a: p.point_a.into_vec3(),
            point_b: p.point_b.into_vec3(),
        });
        certificate(
            p.status,
            p.iterations,
            Some([p.lower_bound, p.upper_bound]),
            None,
            Some(p.normal_within),
        );
    }
}

/// A signed distance's answer: a distance answer when apart, a penetration
/// answer when overlapping.
#[inline]
pub(crate) fn signed<T: Real>(query: &rec::QueryGuard, s: &SignedDistance<T>) {
    if !query.outermost() {
        return;
    }
    if s.distance > T::ZERO {
        rec::answer!(rec::Answer::Distance {
            distance: s.distance.into_scalar(),
            point_a: s.point_a.into_vec3(),
            point_b: s.point_b.into_vec3(),
            normal: s.normal.into_vec3(),
        });
        certificate(
            s.status,
            s.iterations,
            Some([s.lower_bound, s.upper_bound]),
            s.witness,
            Some(s.normal_within),
        );
    } else {
        rec::answer!(rec::Answer::Penetration {
            depth: (-s.distance).into_scalar(),
            normal: s.normal.into_vec3(),
            point_a: s.point_a.into_vec3(),
            point_b: s.point_b.into_vec3(),
        });
        // The bounds of the depth: the signed bounds negated.
        certificate(
            s.status,
            s.iterations,
            Some([-s.upper_bound, -s.lower_bound]),
            s.witness,
            Some(s.normal_within),
        );
    }
}

/// A sweep's answer, with where A stopped: at impact, or at the end of its
/// motion.
#[inline]
pub(crate) fn sweep<T: Real>(
    query: &rec::QueryGuard,
    a: &Placed<'_, T>,
    motion: V3<T>,
    s: &Sweep<T>,
) {
    if query.outermost() {
        let stop = if s.hit { s.toi } else { T::ONE };
        rec::answer!(rec::Answer::Sweep {
            hit: s.hit,
            toi: stop.into_scalar(),
            normal: s.normal.into_vec3(),
            point: s.point.into_vec3(),
            position_a: (a.pose.position + motion * stop).into_vec3(),
        });
        certificate(
            s.status,
            s.iterations,
            Some([s.toi_lower, s.toi_upper]),
            s.witness,
            None,
        );
    }
}
