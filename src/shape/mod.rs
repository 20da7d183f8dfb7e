//! Support-mapped convex shapes in a pose.
//!
//! Every shape is a *core* plus a *radius*: a sphere is a point core with its
//! radius, a capsule a segment core with its radius, and a margin adds to the
//! radius of any shape. Queries run GJK on the cores and subtract the radii, so
//! distances to round shapes are exact instead of converging slowly on a
//! curved support map.

mod decl;
mod hull;
mod pose;

pub use hull::Hull;
pub use pose::{Placed, Pose};

use crate::real::{Real, V3, Vector};
use hull::hull_support;

/// The core geometry of a shape, in its local frame (Y is the axis of
/// capsules, cylinders and cones). Its kind is a byte of its own (`repr`):
/// kept in the hull's vector instead, every support first decoded it.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
pub enum Geom<T: Real> {
    /// A point at the origin (a sphere is a point with a radius).
    Point,
    /// A sphere around the origin; its core is the point, its radius the radius.
    Sphere {
        /// Radius (≥ 0).
        radius: T,
    },
    /// An axis-aligned box.
    Box {
        /// Half edge lengths (each ≥ 0).
        half_extents: V3<T>,
    },
    /// A capsule: the segment from −`half_height` to +`half_height` on Y, plus `radius`.
    Capsule {
        /// Half the length of the core segment (≥ 0).
        half_height: T,
        /// Radius (≥ 0).
        radius: T,
    },
    /// A cylinder along Y.
    Cylinder {
        /// Half the height (≥ 0).
        half_height: T,
        /// Cap radius (≥ 0).
        radius: T,
    },
    /// A cone along Y with its apex at +`half_height` and base at −`half_height`.
    Cone {
        /// Half the height (≥ 0).
        half_height: T,
        /// Base radius (≥ 0).
        radius: T,
    },
    /// The convex hull of a non-empty point set; degenerate sets are fine.
    Hull(Hull<T>),
}

/// A convex shape: core geometry and a margin (a sphere it is Minkowski-summed with).
///
/// Built by the constructors and read through [`Shape::geom`] and
/// [`Shape::margin`]: the fields are private so that the sum of the sizes
/// every query checks its input with is computed once, here.
#[derive(Clone, Debug)]
pub struct Shape<T: Real> {
    /// The core geometry.
    pub(crate) geom: Geom<T>,
    /// Extra radius around the geometry (≥ 0).
    pub(crate) margin: T,
    /// The sum of every size (radius, half extents, half height, margin; a
    /// hull's extent), NaN when one is negative or NaN or a hull is empty
    /// or holds a point that is not finite: what the queries' input check
    /// reads (`collide::input`).
    pub(crate) sizes: T,
    /// [`Shape::scale`], computed once: every query's tolerances read it.
    scale: T,
}

impl<T: Real> PartialEq for Shape<T> {
    /// The same geometry and margin (the cached sum follows from them).
    fn eq(&self, other: &Self) -> bool {
        self.geom == other.geom && self.margin == other.margin
    }
}

/// The largest extent of `geom`'s core: [`Shape::scale`] less the radius
/// around it.
fn core_extent<T: Real>(geom: &Geom<T>) -> T {
    match geom {
        Geom::Point | Geom::Sphere { .. } => T::ZERO,
        Geom::Box { half_extents } => half_extents.max_abs(),
        Geom::Capsule { half_height, .. } => *half_height,
        Geom::Cylinder {
            half_height,
            radius,
        }
        | Geom::Cone {
            half_height,
            radius,
        } => half_height.max(*radius),
        Geom::Hull(hull) => hull.extent(),
    }
}

/// The sum of a shape's sizes, NaN when it is not a valid shape but for
/// finiteness (a size below 0 or NaN, an empty hull, a hull point that is
/// not finite); an infinite size makes it infinite.
fn size_sum<T: Real>(geom: &Geom<T>, margin: T) -> T {
    let z = T::ZERO;
    let (ok, sum) = match geom {
        Geom::Point => (true, z),
        Geom::Sphere { radius } => (*radius >= z, *radius),
        Geom::Box { half_extents: h } => (
            h.x() >= z && h.y() >= z && h.z() >= z,
            h.x() + h.y() + h.z(),
        ),
        Geom::Capsule {
            half_height,
            radius,
        }
        | Geom::Cylinder {
            half_height,
            radius,
        }
        | Geom::Cone {
            half_height,
            radius,
        } => (*half_height >= z && *radius >= z, *half_height + *radius),
        // The centroid is a sum of the points: finite only if each is.
        Geom::Hull(hull) => (
            !hull.points().is_empty() && hull.centroid().is_finite(),
            hull.extent(),
        ),
    };
    if ok && margin >= z {
        sum + margin
    } else {
        T::from_f64(f64::NAN)
    }
}

/// Why a shape description is not a valid shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A size is negative.
    #[error("{field} must be ≥ 0, got {value}")]
    Negative {
        /// The field, e.g. `radius`.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// A value is NaN or infinite.
    #[error("{field} must be finite, got {value}")]
    NotFinite {
        /// The field.
        field: &'static str,
        /// Its value.
        value: String,
    },
    /// A hull has no points.
    #[error("hull points must not be empty")]
    EmptyHull,
}

fn check_size<T: Real>(field: &'static str, v: T) -> Result<(), ShapeError> {
    if !v.is_finite() {
        return Err(ShapeError::NotFinite {
            field,
            value: format!("{v:?}"),
        });
    }
    if v < T::ZERO {
        return Err(ShapeError::Negative {
            field,
            value: format!("{v:?}"),
        });
    }
    Ok(())
}

/// A hull core's support, out of line: inlined, its scan's registers made
/// every other kind's support (a few instructions for a box, a cylinder, a
/// cone) save and restore five registers and kept it from being inlined
/// into the configuration-space support.
#[inline(never)]
fn hull_core_support<T: Real>(points: &[V3<T>], d: V3<T>) -> V3<T> {
    hull_support::<T>(points, d)
}

/// The support point of a core in local direction `d`, in closed form for
/// every kind but hulls (which [`Shape::core_support`] takes first).
#[allow(clippy::inline_always)]
#[inline(always)]
fn closed_form_support<T: Real>(geom: &Geom<T>, d: V3<T>) -> V3<T> {
    let sign = |v: T, h: T| if v < T::ZERO { -h } else { h };
    match geom {
        Geom::Point | Geom::Sphere { .. } => V3::<T>::ZERO,
        Geom::Box { half_extents: h } => {
            V3::<T>::new(sign(d.x(), h.x()), sign(d.y(), h.y()), sign(d.z(), h.z()))
        }
        Geom::Capsule { half_height, .. } => {
            V3::<T>::new(T::ZERO, sign(d.y(), *half_height), T::ZERO)
        }
        Geom::Cylinder {
            half_height,
            radius,
        } => {
            let y = sign(d.y(), *half_height);
            let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
            if s > T::ZERO {
                let k = *radius / s;
                V3::<T>::new(d.x() * k, y, d.z() * k)
            } else {
                V3::<T>::new(T::ZERO, y, T::ZERO)
            }
        }
        Geom::Cone {
            half_height,
            radius,
        } => {
            // Apex (0, h, 0) against the base rim point in d's xz direction.
            let s = (d.x() * d.x() + d.z() * d.z()).sqrt();
            let apex = d.y() * *half_height;
            let rim = s * *radius - d.y() * *half_height;
            if apex >= rim {
                V3::<T>::new(T::ZERO, *half_height, T::ZERO)
            } else if s > T::ZERO {
                let k = *radius / s;
                V3::<T>::new(d.x() * k, -*half_height, d.z() * k)
            } else {
                V3::<T>::new(T::ZERO, -*half_height, T::ZERO)
            }
        }
        Geom::Hull(hull) => hull_core_support::<T>(hull.points(), d),
    }
}

impl<T: Real> Shape<T> {
    /// A shape without margin.
    #[must_use]
    pub fn new(geom: Geom<T>) -> Self {
        Self::with(geom, T::ZERO)
    }

    /// A shape from its geometry and margin.
    fn with(geom: Geom<T>, margin: T) -> Self {
        let sizes = size_sum(&geom, margin);
        let mut shape = Self {
            geom,
            margin,
            sizes,
            scale: T::ZERO,
        };
        shape.scale = core_extent(&shape.geom) + shape.radius();
        shape
    }

    /// The same shape with `margin` added around it.
    #[must_use]
    pub fn with_margin(self, margin: T) -> Self {
        Self::with(self.geom, margin)
    }

    /// The core geometry.
    #[must_use]
    pub fn geom(&self) -> &Geom<T> {
        &self.geom
    }

    /// The margin: extra radius around the core (≥ 0).
    #[must_use]
    pub fn margin(&self) -> T {
        self.margin
    }

    /// A sphere.
    #[must_use]
    pub fn sphere(radius: T) -> Self {
        Self::new(Geom::Sphere { radius })
    }

    /// A box from half extents.
    #[must_use]
    pub fn cuboid(half_extents: V3<T>) -> Self {
        Self::new(Geom::Box { half_extents })
    }

    /// A capsule along Y.
    #[must_use]
    pub fn capsule(half_height: T, radius: T) -> Self {
        Self::new(Geom::Capsule {
            half_height,
            radius,
        })
    }

    /// A cylinder along Y.
    #[must_use]
    pub fn cylinder(half_height: T, radius: T) -> Self {
        Self::new(Geom::Cylinder {
            half_height,
            radius,
        })
    }

    /// A cone along Y, apex up.
    #[must_use]
    pub fn cone(half_height: T, radius: T) -> Self {
        Self::new(Geom::Cone {
            half_height,
            radius,
        })
    }

    /// The convex hull of `points`.
    #[must_use]
    pub fn hull(points: Vec<V3<T>>) -> Self {
        Self::new(Geom::Hull(Hull::new(points)))
    }

    /// Checks sizes are finite and non-negative and hulls non-empty.
    ///
    /// # Errors
    /// The first offending field.
    pub fn validate(&self) -> Result<(), ShapeError> {
        check_size("margin", self.margin)?;
        match &self.geom {
            Geom::Point => Ok(()),
            Geom::Sphere { radius } => check_size("radius", *radius),
            Geom::Box { half_extents } => {
                check_size("half_extents[0]", half_extents.x())?;
                check_size("half_extents[1]", half_extents.y())?;
                check_size("half_extents[2]", half_extents.z())
            }
            Geom::Capsule {
                half_height,
                radius,
            }
            | Geom::Cylinder {
                half_height,
                radius,
            }
            | Geom::Cone {
                half_height,
                radius,
            } => {
                check_size("half_height", *half_height)?;
                check_size("radius", *radius)
            }
            Geom::Hull(hull) => {
                let points = hull.points();
                if points.is_empty() {
                    return Err(ShapeError::EmptyHull);
                }
                for p in points {
                    if !p.is_finite() {
                        return Err(ShapeError::NotFinite {
                            field: "points",
                            value: format!("{p:?}"),
                        });
                    }
                }
                Ok(())
            }
        }
    }

    /// The radius around the core: sphere and capsule radius plus margin.
    #[inline]
    #[must_use]
    pub fn radius(&self) -> T {
        match self.geom {
            Geom::Sphere { radius } | Geom::Capsule { radius, .. } => radius + self.margin,
            _ => self.margin,
        }
    }

    /// The same shape with every size, hull point and the margin passed
    /// through `size` and `point`; scaling and precision casts are this walk.
    #[must_use]
    pub fn map<U: Real>(&self, size: impl Fn(T) -> U, point: impl Fn(V3<T>) -> V3<U>) -> Shape<U> {
        let geom = match &self.geom {
            Geom::Point => Geom::Point,
            Geom::Sphere { radius } => Geom::Sphere {
                radius: size(*radius),
            },
            Geom::Box { half_extents } => Geom::Box {
                half_extents: point(*half_extents),
            },
            Geom::Capsule {
                half_height,
                radius,
            } => Geom::Capsule {
                half_height: size(*half_height),
                radius: size(*radius),
            },
            Geom::Cylinder {
                half_height,
                radius,
            } => Geom::Cylinder {
                half_height: size(*half_height),
                radius: size(*radius),
            },
            Geom::Cone {
                half_height,
                radius,
            } => Geom::Cone {
                half_height: size(*half_height),
                radius: size(*radius),
            },
            Geom::Hull(hull) => {
                Geom::Hull(Hull::new(hull.points().iter().map(|p| point(*p)).collect()))
            }
        };
        Shape::with(geom, size(self.margin))
    }

    /// The same shape scaled by `k` about its local origin (sizes, hull
    /// points and margin). Distances between shapes scaled alike scale by `k`.
    #[must_use]
    pub fn scaled(&self, k: T) -> Self {
        self.map(|x| x * k, |p| p * k)
    }

    /// The same shape in precision `U`: each value rounded once from its f64
    /// widening (exact when widening f32 to f64).
    #[must_use]
    pub fn to_precision<U: Real>(&self) -> Shape<U> {
        self.map(
            |x| U::from_f64(x.to_f64()),
            |p| V3::<U>::from_f64(p.to_f64()),
        )
    }

    /// The core's support point in local direction `d` (need not be unit).
    ///
    /// Ties (a face or edge facing `d`) resolve deterministically. Inlined
    /// into its callers (the configuration-space supports): a hull's scan is
    /// one call, every other kind a few instructions without one (measured:
    /// 4 % fewer instructions per ray cast on curved pairs; `#[inline]`
    /// alone left the call in half the callers).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    #[must_use]
    pub fn core_support(&self, d: V3<T>) -> V3<T> {
        if let Geom::Hull(hull) = &self.geom {
            return hull_core_support::<T>(hull.points(), d);
        }
        closed_form_support(&self.geom, d)
    }

    /// The full shape's support point (core plus radius) in local direction `d`.
    #[inline]
    #[must_use]
    pub fn support(&self, d: V3<T>) -> V3<T> {
        let core = self.core_support(d);
        let r = self.radius();
        if r > T::ZERO
            && let Some(n) = d.try_normalize()
        {
            return core + n * r;
        }
        core
    }

    /// A fingerprint of the geometry: its kind (mixed on its own), its
    /// parameters and margin, a hull's points (hashed once when built). A
    /// warm-start cache keeps its pair's, so a cache handed another pair
    /// starts cold instead of placing the first pair's points on it.
    pub(crate) fn fingerprint(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325_u64;
        let mut mix = |x: u64| h = hull::mix(h, x);
        let bits = |x: T| x.to_f64().to_bits();
        // The kind's tag on its own, then three parameters (zeros where a
        // kind has fewer): the tag alone tells the kinds apart.
        let (tag, params): (u64, [T; 3]) = match &self.geom {
            Geom::Point => (1, [T::ZERO; 3]),
            Geom::Sphere { radius } => (2, [*radius, T::ZERO, T::ZERO]),
            Geom::Box { half_extents: h } => (3, [h.x(), h.y(), h.z()]),
            Geom::Capsule {
                half_height,
                radius,
            } => (4, [*half_height, *radius, T::ZERO]),
            Geom::Cylinder {
                half_height,
                radius,
            } => (5, [*half_height, *radius, T::ZERO]),
            Geom::Cone {
                half_height,
                radius,
            } => (6, [*half_height, *radius, T::ZERO]),
            Geom::Hull(_) => (7, [T::ZERO; 3]),
        };
        mix(tag);
        for x in params {
            mix(bits(x));
        }
        if let Geom::Hull(hull) = &self.geom {
            mix(hull.fingerprint());
        }
        mix(bits(self.margin));
        h
    }

    /// A rough size of the shape: the largest extent of the core plus the radius.
    /// Tolerances are relative to it.
    #[must_use]
    #[inline]
    pub fn scale(&self) -> T {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn supports_are_extreme_in_their_direction() {
        let shapes = [
            Shape::<f64>::cuboid(DVec3::new(1.0, 2.0, 3.0)),
            Shape::cylinder(1.5, 0.5),
            Shape::cone(1.0, 2.0),
            Shape::capsule(1.0, 0.25).with_margin(0.1),
            Shape::hull(vec![DVec3::ZERO, DVec3::X, DVec3::Y * 2.0]),
        ];
        for s in &shapes {
            for i in 0..200 {
                let t = f64::from(i) * 0.37;
                let d = DVec3::new(t.sin() * t.cos(), t.cos(), (2.0 * t).sin());
                let p = s.support(d);
                for j in 0..50 {
                    let u = f64::from(j) * 0.91;
                    let q = s.support(DVec3::new(u.cos(), u.sin() * 0.3, u.sin()));
                    assert!(q.dot(d) <= p.dot(d) + 1e-12, "{s:?} dir {d}");
                }
            }
        }
    }

    #[test]
    fn the_cached_size_sum_is_finite_exactly_where_the_shape_is_valid() {
        // Every parameter of every kind set in turn to each of these.
        let values = [
            0.0,
            0.5,
            3.0,
            -0.0,
            -1e-300,
            -2.0,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
        ];
        let mut shapes = Vec::new();
        for &v in &values {
            for &w in &[0.5, v] {
                shapes.push(Shape::<f64>::sphere(v).with_margin(if w == v { 0.5 } else { v }));
                shapes.push(Shape::cuboid(DVec3::new(0.5, v, w)));
                shapes.push(Shape::capsule(v, w));
                shapes.push(Shape::cylinder(w, v));
                shapes.push(Shape::cone(v, 0.5).with_margin(w));
                shapes.push(Shape::hull(vec![DVec3::X, DVec3::new(w, v, 0.0)]));
            }
        }
        shapes.push(Shape::hull(vec![]));
        shapes.push(Shape::new(Geom::Point).with_margin(f64::NAN));
        let (mut valid, mut invalid) = (0, 0);
        for s in &shapes {
            let ok = s.validate().is_ok();
            assert_eq!(s.sizes.is_finite(), ok, "{s:?}: sum {}", s.sizes);
            if ok {
                valid += 1;
                assert!(s.sizes >= s.scale(), "{s:?}");
            } else {
                invalid += 1;
            }
        }
        assert!(
            valid > 20 && invalid > 20,
            "{valid} valid, {invalid} invalid"
        );
    }
}
