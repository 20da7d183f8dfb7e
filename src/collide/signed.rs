//! Signed distance: the distance when apart, minus the penetration depth when
//! overlapping (what FCL and Drake call signed distance), with witness points
//! and a unit normal from A towards B.
//!
//! GJK answers first; when it finds the shapes apart its answer is the signed
//! distance. When they overlap or touch (within GJK's touching tolerance) the
//! penetration query answers ([`epa::penetration`], or [`mpr::penetration`]
//! by choice) and the signed distance is `−depth`. Both sides keep one
//! contract, `point_b − point_a = signed · normal` up to rounding, so the
//! witnesses and the normal pass through contact without a jump: the value is
//! continuous through 0 to within the touching tolerance (pairs apart by less
//! than it answer 0 from the penetration side).

use super::epa::{self, Penetration};
use super::gjk;
use super::input;
use super::mpr;
use super::simplex::Simplex;
use super::{Status, Witness};
use crate::collide::answer;
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// Which penetration algorithm answers overlapping pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// GJK then EPA ([`epa::penetration`]), the default: the least depth.
    Epa,
    /// MPR ([`mpr::penetration`]): the seed's re-casts and edge tracing,
    /// certified (by EPA when MPR's own polytope falls short).
    Mpr,
}

/// The signed distance of two shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SignedDistance<T: Real> {
    /// The distance when apart (> 0), minus the penetration depth when
    /// overlapping (≤ 0).
    pub distance: T,
    /// The witness on A, world space: the closest point when apart, the
    /// deepest point of A along `normal` when overlapping.
    pub point_a: V3<T>,
    /// The witness on B, world space. `point_b − point_a = distance · normal`
    /// up to rounding.
    pub point_b: V3<T>,
    /// Unit vector from A towards B: moving B by `−distance · normal`
    /// brings the shapes to touching.
    pub normal: V3<T>,
    /// The certificate's lower end: the true signed distance lies in
    /// `[lower_bound, upper_bound]` (GJK's bounds when apart, the penetration
    /// bounds negated when overlapping; touching within the tolerance, with
    /// no depth proven above 0, the upper bound is the distance query's).
    pub lower_bound: T,
    /// See [`lower_bound`](Self::lower_bound).
    pub upper_bound: T,
    /// Whether the shapes overlap or touch (within tolerance).
    pub intersecting: bool,
    /// Support evaluations (GJK plus the penetration query's).
    pub iterations: u32,
    /// How the answering query ended.
    pub status: Status,
    /// When apart: how far the witnesses and normal can be trusted (the
    /// distance query's [`Witness`]); `None` when the penetration answered.
    pub witness: Option<Witness>,
    /// A certified bound, in radians, on the angle between `normal` and the
    /// exact one: the penetration's [`normal_within`](Penetration::normal_within)
    /// when overlapping; when apart the normal tolerance (1e-7 rad in f64,
    /// 1e-3 in f32) where the witness is `Unique`, else `π` (no bound).
    pub normal_within: T,
}

/// The signed distance of `a` and `b`, overlapping pairs answered by EPA.
pub fn signed_distance<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> SignedDistance<T> {
    signed_distance_with(a, b, Depth::Epa)
}

/// The signed distance of `a` and `b`, overlapping pairs answered by `depth`.
pub fn signed_distance_with<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    depth: Depth,
) -> SignedDistance<T> {
    if let Some(out) = input::indirect(
        a,
        b,
        V3::<T>::ZERO,
        SignedDistance::invalid,
        |s, a, b, _| s.signed(signed_distance_with(a, b, depth)),
    ) {
        return out;
    }
    let query = rec::enter_query();
    let out = (|| {
        // A point core against a closed-form core: one projection for both.
        if depth == Depth::Epa
            && let Some(c) = gjk::Centers::of(a, b)
        {
            rec::shapes!(a, b);
            let d = c.distance();
            if !d.intersecting {
                return apart(&d);
            }
            rec::text!("signed distance: overlapping or touching, the penetration answers");
            return overlapping(&d, &c.penetration(a, b));
        }
        let mut simplex = Simplex::new();
        let (d, kept) = gjk::distance_keeping(a, b, &mut simplex);
        if !d.intersecting {
            return apart(&d);
        }
        rec::text!("signed distance: overlapping or touching, the penetration answers");
        let p: Penetration<T> = match (depth, &kept) {
            // EPA goes on from the distance query's GJK.
            (Depth::Epa, Some((cso, core))) => {
                let p = epa::penetration_after(cso, &simplex, core);
                super::shallow::checked(a, b, cso, p)
            }
            (Depth::Epa, None) => epa::penetration(a, b),
            (Depth::Mpr, _) => mpr::penetration(a, b),
        };
        overlapping(&d, &p)
    })();
    answer::signed(&query, &out);
    out
}

impl<T: Real> SignedDistance<T> {
    /// The answer to input the query refused ([`Status::InvalidInput`]):
    /// every number NaN.
    fn invalid() -> Self {
        let d = gjk::Distance::<T>::invalid();
        SignedDistance {
            witness: None,
            normal_within: d.distance,
            ..apart(&d)
        }
    }
}

/// The signed distance of shapes the distance query `d` found apart.
fn apart<T: Real>(d: &gjk::Distance<T>) -> SignedDistance<T> {
    let (point_a, point_b) = epa::split(d.point_a, d.point_b, d.normal, -d.distance);
    SignedDistance {
        distance: d.distance,
        point_a,
        point_b,
        normal: d.normal,
        lower_bound: d.lower_bound,
        upper_bound: d.upper_bound,
        intersecting: false,
        iterations: d.iterations,
        status: d.status,
        witness: Some(d.witness),
        normal_within: super::aim::witnessed(d.witness),
    }
}

/// The signed distance of touching or overlapping shapes: minus the
/// penetration `p` (after the distance query `d`). A depth proven above 0
/// proves the overlap, and minus it bounds the signed distance from above;
/// shapes touching within the tolerance may be apart by up to the
/// distance's upper bound, which the upper bound then keeps (their depth
/// is 0). (Keeping it everywhere left every overlap's bracket reaching 0:
/// `[−1.2, 0]` for a sphere 1.2 deep, `Converged`.)
fn overlapping<T: Real>(d: &gjk::Distance<T>, p: &Penetration<T>) -> SignedDistance<T> {
    let upper_bound = if p.lower_bound > T::ZERO {
        T::ZERO - p.lower_bound
    } else {
        (T::ZERO - p.lower_bound).max(d.upper_bound)
    };
    SignedDistance {
        distance: T::ZERO - p.depth,
        point_a: p.point_a,
        point_b: p.point_b,
        normal: p.normal,
        lower_bound: T::ZERO - p.upper_bound,
        upper_bound,
        intersecting: p.intersecting,
        iterations: d.iterations + p.iterations,
        status: p.status,
        witness: None,
        normal_within: p.normal_within,
    }
}
