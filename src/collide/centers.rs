//! A point core (a sphere or a point, with margins) against a point, a
//! segment (capsule), a box, a cylinder or a cone: distance, overlap and
//! penetration in closed form (`project`), before any GJK. Parry answers
//! these pairs in closed form too; GJK and EPA took 6–20 times longer.

use super::Status;
use super::aim;
use super::epa::{Penetration, settle};
use super::gjk::{Distance, touch_tol};
use super::project::{normal_within, project, within};
use super::witness::Witness;
use crate::real::{Real, V3, Vector};
use crate::shape::{Placed, Shape};
use cspace_recorder as rec;

/// A point core against a core with a closed-form projection: every query
/// is closed-form, in world space.
pub(crate) struct Centers<T: Real> {
    /// The nearest point of A's core to B's (A's center for a point core).
    pub a: V3<T>,
    /// The nearest point of B's core to A's (B's center for a point core).
    pub b: V3<T>,
    /// The cores' signed distance: between the two points when apart,
    /// minus the point core's depth inside the other core.
    pub dc: T,
    /// Unit normal from A to B: the direction moving B along which
    /// separates fastest (+Y for coincident point cores).
    pub n: V3<T>,
    /// The point core's center: a point of both shapes when the cores
    /// overlap.
    pub inside: V3<T>,
    /// A's radius.
    pub ra: T,
    /// B's radius.
    pub rb: T,
    /// The touching tolerance.
    pub tol: T,
    /// The point core's centre in the other core's frame (zero for two
    /// point cores): what its normal's bound is computed from.
    pub local: V3<T>,
}

/// Whether a shape's core is a single point (a sphere or a point).
#[inline]
fn point<T: Real>(s: &Shape<T>) -> bool {
    use crate::shape::Geom;
    matches!(s.geom, Geom::Point | Geom::Sphere { .. })
}

/// The touching tolerance of two shapes.
#[inline]
fn tolerance<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> T {
    touch_tol::<T>() * a.shape.scale().max(b.shape.scale())
}

/// Whether `a` and `b` overlap (within the touching tolerance), when one
/// core is a point and the other has a closed-form projection: the
/// intersect queries' closed form, without the points and normal
/// [`Centers::of`] places in world space. `None` where it does not apply.
#[inline]
pub(crate) fn overlapping<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Option<bool> {
    let (pa, pb) = (a.pose.position, b.pose.position);
    let limit = || a.shape.radius() + b.shape.radius() + tolerance(a, b);
    match (point(a.shape), point(b.shape)) {
        (true, true) => {
            let d2 = (pb - pa).length_squared();
            let l = limit();
            Some(d2 <= l * l)
        }
        (false, true) => within(
            &a.shape.geom,
            a.pose.inverse_transform_vector(pb - pa),
            limit(),
        ),
        (true, false) => within(
            &b.shape.geom,
            b.pose.inverse_transform_vector(pa - pb),
            limit(),
        ),
        (false, false) => None,
    }
}

impl<T: Real> Centers<T> {
    /// `Some` when one core is a point and the other a point, segment, box,
    /// cylinder or cone.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn of(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Option<Self> {
        if !point(a.shape) && !point(b.shape) {
            return None;
        }
        let tol = tolerance(a, b);
        let (ra, rb) = (a.shape.radius(), b.shape.radius());
        let (pa, pb) = (a.pose.position, b.pose.position);
        let (ca, cb, dc, n, inside, local) = match (point(a.shape), point(b.shape)) {
            (true, true) => {
                let d = pb - pa;
                let dc = d.length();
                let n = if dc > T::ZERO { d / dc } else { V3::<T>::Y };
                (pa, pb, dc, n, pa, V3::<T>::ZERO)
            }
            // The center projected onto the other core, in that core's
            // frame: the nearest point lies along the normal from the
            // center by the signed distance (outside and inside), one
            // rotation fewer than placing it.
            (false, true) => {
                let local = a.pose.inverse_transform_vector(pb - pa);
                let p = project(&a.shape.geom, local)?;
                let n = a.pose.transform_vector(p.normal);
                (pb - n * p.signed, pb, p.signed, n, pb, local)
            }
            (true, false) => {
                let local = b.pose.inverse_transform_vector(pa - pb);
                let p = project(&b.shape.geom, local)?;
                let n = -b.pose.transform_vector(p.normal);
                (pa, pa + n * p.signed, p.signed, n, pa, local)
            }
            (false, false) => return None,
        };
        Some(Self {
            a: ca,
            b: cb,
            dc,
            n,
            inside,
            ra,
            rb,
            tol,
            local,
        })
    }

    /// Whether the shapes are apart by more than the tolerance.
    #[inline]
    pub fn apart(&self) -> bool {
        self.dc - (self.ra + self.rb) > self.tol
    }

    /// The distance query.
    #[inline]
    pub fn distance(&self) -> Distance<T> {
        let (distance, point_a, point_b) = if self.apart() {
            (
                self.dc - self.ra - self.rb,
                self.a + self.n * self.ra,
                self.b - self.n * self.rb,
            )
        } else if self.dc > T::ZERO {
            // Overlapping only by the radii: a common point on the axis.
            let t = ((self.ra + self.dc - self.rb) * T::HALF)
                .max(T::ZERO)
                .min(self.dc);
            let p = self.a + self.n * t;
            (T::ZERO, p, p)
        } else {
            (T::ZERO, self.inside, self.inside)
        };
        rec::text!("a point core: distance {distance:?} in closed form");
        let exact = (self.dc - self.ra - self.rb).max(T::ZERO);
        let unique = self.apart() && self.dc > T::ZERO;
        Distance {
            distance,
            point_a,
            point_b,
            normal: self.n,
            intersecting: !self.apart(),
            // Touching within the tolerance reports 0: inside its bounds.
            lower_bound: if self.apart() { exact } else { T::ZERO },
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

    /// The penetration query (the contact points on the contract of
    /// [`Penetration`]) of the shapes `a` and `b` these centres came from.
    #[inline]
    pub fn penetration(&self, a: &Placed<'_, T>, b: &Placed<'_, T>) -> Penetration<T> {
        rec::text!("a point core: depth in closed form");
        let depth = (self.ra + self.rb - self.dc).max(T::ZERO);
        settle(Penetration {
            depth,
            normal: self.n,
            point_a: self.a + self.n * self.ra,
            point_b: self.b - self.n * self.rb,
            lower_bound: depth,
            upper_bound: depth,
            intersecting: !self.apart(),
            iterations: 1,
            status: Status::Converged,
            normal_within: aim::bound(self.normal_within(a, b)),
        })
    }

    /// The bound on the normal's angle from every direction of least depth
    /// (see `aim`): rounding over the distance between the centres, or over
    /// a point core's distance from the other's boundary and axis
    /// ([`project::normal_within`](super::project::normal_within)).
    fn normal_within(&self, a: &Placed<'_, T>, b: &Placed<'_, T>) -> f64 {
        // The positions' sizes by their 1-norms (at least their lengths;
        // no root).
        let ones = V3::<T>::new(T::ONE, T::ONE, T::ONE);
        let reach = (a.pose.position.abs() + b.pose.position.abs()).dot(ones);
        let round =
            8.0 * T::EPSILON.to_f64() * (reach + a.shape.scale() + b.shape.scale()).to_f64();
        let core = match (point(a.shape), point(b.shape)) {
            (false, true) => a.shape,
            (true, false) => b.shape,
            _ => {
                let d = self.dc.to_f64();
                return if d > 2.0 * round {
                    4.0 * round / d
                } else {
                    aim::NONE
                };
            }
        };
        let dist = self.dc.abs().to_f64();
        normal_within(&core.geom, self.local, (dist, round)).unwrap_or(aim::NONE)
    }
}
