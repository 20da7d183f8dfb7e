//! Two shapes whose cores are single points (spheres, points, with
//! margins): distance and overlap in closed form, before any GJK.

use super::Status;
use super::gjk::{Distance, rel_tol};
use super::witness::Witness;
use crate::real::{Real, V3, Vector};
use crate::shape::{Placed, Shape};
use cspace_recorder as rec;

/// Two shapes whose cores are single points (spheres, points, with
/// margins): every query is closed-form, in world space.
pub(crate) struct Centers<T: Real> {
    /// A's center.
    pub a: V3<T>,
    /// B's center.
    pub b: V3<T>,
    /// Distance between the centers.
    pub dc: T,
    /// Unit vector from A's center to B's (+Y when they coincide).
    pub n: V3<T>,
    /// A's radius.
    pub ra: T,
    /// B's radius.
    pub rb: T,
    /// The touching tolerance.
    pub tol: T,
}

impl<T: Real> Centers<T> {
    /// `Some` when both cores are points.
    #[inline]
    pub fn of(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Option<Self> {
        use crate::shape::Geom;
        let point = |s: &Shape<T>| matches!(s.geom, Geom::Point | Geom::Sphere { .. });
        if !(point(a.shape) && point(b.shape)) {
            return None;
        }
        let d = b.pose.position - a.pose.position;
        let dc = d.length();
        let n = if dc > T::ZERO { d / dc } else { V3::<T>::Y };
        Some(Self {
            a: a.pose.position,
            b: b.pose.position,
            dc,
            n: if n.is_finite() { n } else { V3::<T>::Y },
            ra: a.shape.radius(),
            rb: b.shape.radius(),
            tol: rel_tol::<T>() * a.shape.scale().max(b.shape.scale()),
        })
    }

    /// Whether the shapes are apart by more than the tolerance.
    #[inline]
    pub fn apart(&self) -> bool {
        self.dc - (self.ra + self.rb) > self.tol
    }

    /// The distance query.
    pub fn distance(&self) -> Distance<T> {
        let (distance, point_a, point_b) = if self.apart() {
            (
                self.dc - self.ra - self.rb,
                self.a + self.n * self.ra,
                self.b - self.n * self.rb,
            )
        } else {
            let t = ((self.ra + self.dc - self.rb) * T::HALF)
                .max(T::ZERO)
                .min(self.dc);
            let p = self.a + self.n * t;
            (T::ZERO, p, p)
        };
        rec::text!("point cores: distance {distance:?} in closed form");
        let exact = (self.dc - self.ra - self.rb).max(T::ZERO);
        let unique = self.apart() && self.dc > T::ZERO;
        Distance {
            distance,
            point_a,
            point_b,
            normal: self.n,
            intersecting: !self.apart(),
            lower_bound: exact,
            upper_bound: exact,
            iterations: 1,
            status: Status::Converged,
            witness: if unique {
                Witness::Unique
            } else {
                Witness::NotUnique
            },
        }
    }
}
