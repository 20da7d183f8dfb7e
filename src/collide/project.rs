//! The nearest boundary point of a core to a point, in closed form: what a
//! sphere (a point core with a radius) against a box, capsule, cylinder or
//! cone needs for every query, without GJK or EPA.
//!
//! A box is clamped per axis (inside: its nearest face). A capsule's core is
//! a segment. A cylinder and a cone are solids of revolution: in the
//! half-plane through the axis and the point (radial distance `ρ`, height
//! `y`) the cylinder is a rectangle and the cone a right triangle, whose
//! angles at the slant edge's ends are acute, so inside the triangle the
//! nearest point of either boundary edge is the foot of the perpendicular.

use crate::real::{Real, V3, Vector};
use crate::shape::Geom;

/// A point's projection onto a core's boundary (the core's local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Projection<T: Real> {
    /// The nearest point of the core's boundary.
    pub point: V3<T>,
    /// The outward unit normal there (towards the point when outside).
    pub normal: V3<T>,
    /// The point's signed distance from the core: positive outside,
    /// negative inside (minus the distance to the boundary).
    pub signed: T,
}

/// The projection of `p` onto the core of `geom` (box, capsule, cylinder or
/// cone, flat or needle-like ones included); `None` for other cores and for
/// a cone of no size at all.
pub(crate) fn project<T: Real>(geom: &Geom<T>, p: V3<T>) -> Option<Projection<T>> {
    match geom {
        Geom::Box { half_extents } => Some(cuboid(*half_extents, p)),
        Geom::Capsule { half_height, .. } => Some(segment(*half_height, p)),
        Geom::Cylinder {
            half_height,
            radius,
        } => Some(revolve(p, |q| rectangle(*half_height, *radius, q))),
        Geom::Cone {
            half_height,
            radius,
        } => {
            let (h, r) = (*half_height, *radius);
            (h > T::ZERO || r > T::ZERO).then(|| revolve(p, |q| triangle(h, r, q)))
        }
        Geom::Point | Geom::Sphere { .. } | Geom::Hull(_) => None,
    }
}

/// Whether `p` (the core's local frame) is within `limit` (≥ 0) of the
/// core of `geom`, inside included: an overlap test. Boxes and capsules
/// compare squared distances, with no square root or division on the
/// way (an f64 square root is a fair share of a sphere's whole test);
/// cylinders take one root only in the shell around their side, cones
/// [`project`] only near their surface. `None` where `project` does not
/// apply or the input is not finite.
pub(crate) fn within<T: Real>(geom: &Geom<T>, p: V3<T>, limit: T) -> Option<bool> {
    let near = match geom {
        Geom::Box { half_extents: h } => V3::<T>::new(
            p.x().max(-h.x()).min(h.x()),
            p.y().max(-h.y()).min(h.y()),
            p.z().max(-h.z()).min(h.z()),
        ),
        Geom::Capsule { half_height: h, .. } => {
            V3::<T>::new(T::ZERO, p.y().max(-*h).min(*h), T::ZERO)
        }
        Geom::Cylinder {
            half_height: h,
            radius: r,
        } => {
            // Radially inside, or beyond reach: no root needed; only the
            // shell around the side takes the radial distance.
            // (`max` ignores a NaN height: `finite` checks it.)
            let (rho2, y) = (p.x() * p.x() + p.z() * p.z(), p.y().abs());
            let over = (y - *h).max(T::ZERO);
            let finite = (rho2 + y).is_finite();
            if rho2 <= *r * *r {
                return finite.then_some(over <= limit);
            }
            let reach = *r + limit;
            if rho2 > reach * reach {
                return finite.then_some(false);
            }
            let side = rho2.sqrt() - *r;
            let d2 = side * side + over * over;
            return finite.then_some(d2 <= limit * limit);
        }
        Geom::Cone {
            half_height: h,
            radius: r,
        } => {
            // Inside the cone, or beyond its bounding cylinder's reach: no
            // root needed; the rest takes the projection.
            let rho2 = p.x() * p.x() + p.z() * p.z();
            let y = p.y();
            if *h > T::ZERO && y.abs() <= *h {
                let at = *r * (*h - y) / (T::TWO * *h);
                if rho2 <= at * at {
                    return rho2.is_finite().then_some(true);
                }
            }
            let reach = *r + limit;
            if rho2 > reach * reach || y.abs() > *h + limit {
                return (rho2.is_finite() && y.is_finite()).then_some(false);
            }
            let q = project(geom, p)?;
            return q.signed.is_finite().then_some(q.signed <= limit);
        }
        _ => {
            let q = project(geom, p)?;
            return q.signed.is_finite().then_some(q.signed <= limit);
        }
    };
    let d2 = (p - near).length_squared();
    d2.is_finite().then_some(d2 <= limit * limit)
}

/// `v`'s sign as ±1 (+1 for zero).
fn sign<T: Real>(v: T) -> T {
    if v < T::ZERO { -T::ONE } else { T::ONE }
}

/// A box of half extents `h`.
#[allow(clippy::needless_bitwise_bool)] // `&` keeps the selections free of branches
fn cuboid<T: Real>(h: V3<T>, p: V3<T>) -> Projection<T> {
    let v3 = |c: [T; 3]| V3::<T>::new(c[0], c[1], c[2]);
    let (pa, ha): ([T; 3], [T; 3]) = (
        std::array::from_fn(|k| p.get(k)),
        std::array::from_fn(|k| h.get(k)),
    );
    let gap: [T; 3] = std::array::from_fn(|k| pa[k].abs() - ha[k]);
    // Selections rather than branches where the data decides (a sphere in a
    // box is the common closed form; branches mispredict on random poses).
    let best = gap[0].max(gap[1]).max(gap[2]);
    if best > T::ZERO {
        return outside(p, v3(std::array::from_fn(|k| pa[k].max(-ha[k]).min(ha[k]))));
    }
    // Inside: the nearest face (the least negative gap; ties to the lower axis).
    let first = (gap[0] >= gap[1]) & (gap[0] >= gap[2]);
    let second = !first & (gap[1] >= gap[2]);
    let on = [first, second, !first & !second];
    let face: [T; 3] = std::array::from_fn(|k| sign(pa[k]) * ha[k]);
    Projection {
        point: v3(std::array::from_fn(|k| if on[k] { face[k] } else { pa[k] })),
        normal: v3(std::array::from_fn(|k| {
            if on[k] { sign(pa[k]) } else { T::ZERO }
        })),
        signed: best,
    }
}

/// A capsule's core: the segment from −`h` to `h` on Y.
fn segment<T: Real>(h: T, p: V3<T>) -> Projection<T> {
    let q = V3::<T>::new(T::ZERO, p.y().max(-h).min(h), T::ZERO);
    outside(p, q)
}

/// The projection of `p` outside the core onto `q`; a point on the boundary
/// gets +X as its normal when nothing else defines one.
fn outside<T: Real>(p: V3<T>, q: V3<T>) -> Projection<T> {
    let v = p - q;
    let d = v.length();
    Projection {
        point: q,
        normal: if d > T::ZERO { v / d } else { V3::<T>::X },
        signed: d,
    }
}

/// A solid of revolution about Y, given its projection in the half-plane
/// (`(ρ, y)` to boundary point, outward normal and signed distance there).
fn revolve<T: Real>(p: V3<T>, plane: impl Fn([T; 2]) -> ([T; 2], [T; 2], T)) -> Projection<T> {
    let rho = (p.x() * p.x() + p.z() * p.z()).sqrt();
    // The radial direction (+X on the axis, where every one is as near).
    let e = if rho > T::ZERO {
        V3::<T>::new(p.x() / rho, T::ZERO, p.z() / rho)
    } else {
        V3::<T>::X
    };
    let (q, n, signed) = plane([rho, p.y()]);
    let lift = |v: [T; 2]| e * v[0] + V3::<T>::Y * v[1];
    Projection {
        point: lift(q),
        normal: lift(n),
        signed,
    }
}

/// 2-D projection onto `q` from outside.
fn outside_2d<T: Real>(p: [T; 2], q: [T; 2]) -> ([T; 2], [T; 2], T) {
    let v = [p[0] - q[0], p[1] - q[1]];
    let d = (v[0] * v[0] + v[1] * v[1]).sqrt();
    let n = if d > T::ZERO {
        [v[0] / d, v[1] / d]
    } else {
        [T::ONE, T::ZERO]
    };
    (q, n, d)
}

/// A cylinder's half-plane section: `[0, r] × [−h, h]`.
fn rectangle<T: Real>(h: T, r: T, [rho, y]: [T; 2]) -> ([T; 2], [T; 2], T) {
    if rho > r || y.abs() > h {
        return outside_2d([rho, y], [rho.min(r), y.max(-h).min(h)]);
    }
    let (side, cap) = (r - rho, h - y.abs());
    if side <= cap {
        ([r, y], [T::ONE, T::ZERO], -side)
    } else {
        ([rho, sign(y) * h], [T::ZERO, sign(y)], -cap)
    }
}

/// A cone's half-plane section: apex `(0, h)`, rim `(r, −h)`, base centre
/// `(0, −h)`.
fn triangle<T: Real>(h: T, r: T, p: [T; 2]) -> ([T; 2], [T; 2], T) {
    let [rho, y] = p;
    // The slant edge's outward unit normal and the point's signed distance
    // from its line; the base's (y = −h, normal −Y).
    let len = (T::from_f64(4.0) * h * h + r * r).sqrt();
    let ns = [T::TWO * h / len, r / len];
    let slant = (T::TWO * h * rho + r * y - h * r) / len;
    let base = -h - y;
    // Inside (the last two tests matter only for a flat or needle cone,
    // whose triangle has no area).
    if slant <= T::ZERO && base <= T::ZERO && rho <= r && y <= h {
        // Inside: the nearer edge, at the foot of the perpendicular.
        return if -slant <= -base {
            ([rho - slant * ns[0], y - slant * ns[1]], ns, slant)
        } else {
            ([rho, -h], [T::ZERO, -T::ONE], base)
        };
    }
    // Outside. Beyond an edge's line with the foot of the perpendicular on
    // the edge, that foot is the nearest point (the triangle lies behind
    // the line); only the corners' regions compare distances. Comparing
    // them everywhere lost the slant's foot next to the rim: two squared
    // distances equal to f32's rounding, the rim taken, the point 6.7e-4
    // of the size off along a needle cone's side, "unique".
    let (a, d) = ([T::ZERO, h], [r, -T::TWO * h]);
    let dd = d[0] * d[0] + d[1] * d[1];
    let t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / dd;
    if slant > T::ZERO && t >= T::ZERO && t <= T::ONE {
        // The slant's own normal, not the direction to its foot, which is
        // only as good as the distance is long (f32, a point 9.4e-6 off a
        // cone's side: 5.7e-3 rad off, its support plane 4.6e-3 deep).
        return ([rho - slant * ns[0], y - slant * ns[1]], ns, slant);
    }
    if base > T::ZERO && rho <= r {
        return outside_2d(p, [rho, -h]);
    }
    let t = t.max(T::ZERO).min(T::ONE);
    let on_slant = [a[0] + d[0] * t, a[1] + d[1] * t];
    let on_base = [rho.min(r), -h];
    let dist = |q: [T; 2]| (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]);
    let q = if dist(on_slant) <= dist(on_base) {
        on_slant
    } else {
        on_base
    };
    outside_2d(p, q)
}

/// A bound on the angle between the normal [`project`] gives at `p` (the
/// core's frame, known to within `round`) and every direction of least
/// distance between `p` and the core's boundary: outside, the one towards
/// the nearest point; inside, the nearest faces' normals. `aim::NONE`
/// where two features tie within rounding (a point at a box's centre), `p`
/// is within it of the boundary from outside (no direction), or of the
/// axis where the radial direction is the normal. `dist` is `p`'s
/// distance from the boundary ([`Projection::signed`]'s size). `None` where
/// [`project`] does not apply.
pub(crate) fn normal_within<T: Real>(
    geom: &Geom<T>,
    p: V3<T>,
    (dist, round): (f64, f64),
) -> Option<f64> {
    let b = Bounds {
        p: glam::DVec3::from_array(p.to_f64()),
        dist,
        round,
        tiny: 8.0 * T::EPSILON.to_f64(),
    };
    let bound = match geom {
        Geom::Box { half_extents } => {
            b.cuboid(glam::DVec3::from_array(half_extents.to_f64()).abs())
        }
        Geom::Capsule { .. } => b.through(b.dist),
        Geom::Cylinder {
            half_height,
            radius,
        } => b.cylinder(half_height.to_f64(), radius.to_f64()),
        Geom::Cone {
            half_height,
            radius,
        } => {
            let (hh, r) = (half_height.to_f64(), radius.to_f64());
            if hh <= 0.0 && r <= 0.0 {
                return None;
            }
            b.cone(hh, r)
        }
        Geom::Point | Geom::Sphere { .. } | Geom::Hull(_) => return None,
    };
    Some(bound.min(super::aim::NONE))
}

/// [`normal_within`]'s point and roundings.
struct Bounds {
    /// The point, in the core's frame.
    p: glam::DVec3,
    /// Its distance from the boundary.
    dist: f64,
    /// How far it may be off.
    round: f64,
    /// The rounding of a normal that is an axis or a formula's constant.
    tiny: f64,
}

impl Bounds {
    /// A direction through two points `d` apart, each off by `round`.
    fn through(&self, d: f64) -> f64 {
        if d > 2.0 * self.round {
            4.0 * self.round / d
        } else {
            super::aim::NONE
        }
    }

    /// The radial direction at `rho` from the axis turns a normal by its
    /// radial share `n_rho`.
    fn azimuth(&self, n_rho: f64, rho: f64) -> f64 {
        if n_rho.abs() <= self.tiny {
            0.0
        } else if rho > 2.0 * self.round {
            2.0 * self.round / rho
        } else {
            super::aim::NONE
        }
    }

    /// Whether two distances tie within rounding.
    fn tie(&self, x: f64, y: f64) -> bool {
        (x - y).abs() <= 2.0 * self.round
    }

    /// The distance from the axis.
    fn rho(&self) -> f64 {
        (self.p.x * self.p.x + self.p.z * self.p.z).sqrt()
    }

    /// A box of half extents `h`. The gaps beyond its faces' planes, `g`:
    /// the largest (the nearest face's, `k`) and the next (the nearest of
    /// the other two), both exact (minima and maxima; a sphere in a box is
    /// the common closed form, and selecting with branches mispredicts on
    /// every query).
    #[allow(clippy::needless_bitwise_bool)] // `&`, `|`: no branches on the data
    fn cuboid(&self, h: glam::DVec3) -> f64 {
        let (p, round) = (self.p.abs(), self.round);
        let g = p - h;
        if !g.is_finite() {
            // No bound from a gap that is not a number (the minima below
            // would pass over it).
            return super::aim::NONE;
        }
        let best = g.max_element();
        let next = g.x.min(g.y).max(g.x.max(g.y).min(g.z));
        if best > 0.0 {
            // Outside: on a face's region the normal is its axis.
            if best > round && next < -round {
                self.tiny
            } else {
                self.through(self.dist)
            }
        } else {
            // Inside: the nearest faces tie, or the two faces of axis `k`
            // do (the point within rounding of its mid-plane).
            let mid = ((g.x == best) & (p.x <= round))
                | ((g.y == best) & (p.y <= round))
                | ((g.z == best) & (p.z <= round));
            if best - next <= 2.0 * round || mid {
                super::aim::NONE
            } else {
                self.tiny
            }
        }
    }

    /// A cylinder of half height `hh` and radius `r`.
    fn cylinder(&self, hh: f64, r: f64) -> f64 {
        let (rho, round) = (self.rho(), self.round);
        let (side, cap) = (r - rho, hh - self.p.y.abs());
        if side < 0.0 || cap < 0.0 {
            if side < -round && cap > round {
                self.azimuth(1.0, rho)
            } else if cap < -round && side > round {
                self.tiny
            } else {
                let dr = (rho - r).max(0.0);
                self.through(self.dist) + self.azimuth(dr / self.dist, rho)
            }
        } else if self.tie(side, cap) {
            super::aim::NONE
        } else if side < cap {
            self.azimuth(1.0, rho)
        } else if self.p.y.abs() <= round {
            super::aim::NONE
        } else {
            self.tiny
        }
    }

    /// A cone of half height `hh` and base radius `r`.
    fn cone(&self, hh: f64, r: f64) -> f64 {
        let (p, rho, round) = (self.p, self.rho(), self.round);
        let len = (4.0 * hh * hh + r * r).sqrt();
        let ns = [2.0 * hh / len, r / len];
        let slant = (2.0 * hh * rho + r * p.y - hh * r) / len;
        let base = -hh - p.y;
        let (_, n, d) = triangle(hh, r, [rho, p.y]);
        if d > 0.0 {
            // Outside: the slant's or the base's own normal on their
            // regions (the foot inside the edge by more than rounding).
            let t = (rho * r - 2.0 * hh * (p.y - hh)) / (len * len);
            let margin = round / len;
            if slant > round && t > margin && t < 1.0 - margin && n == ns {
                self.azimuth(ns[0], rho)
            } else if base > round && rho < r - round && n == [0.0, -1.0] {
                self.tiny
            } else {
                self.through(d) + self.azimuth(n[0], rho)
            }
        } else if self.tie(slant, base) {
            super::aim::NONE
        } else if slant > base {
            self.azimuth(ns[0], rho)
        } else {
            self.tiny
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// The overlap test agrees with the projection's signed distance for
    /// points inside, around and far from every core, at several reaches,
    /// except within rounding of the reach itself.
    #[test]
    fn within_agrees_with_the_projection() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || crate::collide::uniform(&mut seed);
        let mut checked = 0;
        for geom in shapes() {
            for _ in 0..4000 {
                let p = DVec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 8.0;
                let limit = [0.0, 0.05, 0.5, 2.0][checked % 4];
                let signed = project(&geom, p).map(|q| q.signed);
                let (Some(signed), Some(inside)) = (signed, within(&geom, p, limit)) else {
                    continue;
                };
                if (signed - limit).abs() > 1e-12 {
                    assert_eq!(inside, signed <= limit, "{geom:?} {p} {limit}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000, "{checked}");
        // Non-finite points are declined, whichever coordinate it is.
        for geom in shapes() {
            for p in [
                DVec3::new(0.0, f64::NAN, 0.0),
                DVec3::new(f64::INFINITY, 0.0, 0.0),
            ] {
                assert_eq!(within(&geom, p, 0.1), None, "{geom:?} {p}");
            }
        }
    }

    /// The brute-force signed distance of `p` from a core: the largest
    /// `p·u − h(u)` over many directions (exact at the nearest boundary's
    /// normal for a point inside; a lower bound of the distance outside).
    fn support_gap(geom: &Geom<f64>, p: DVec3, u: DVec3) -> f64 {
        let s = crate::shape::Shape::new(geom.clone());
        p.dot(u) - s.core_support(u).dot(u)
    }

    fn shapes() -> Vec<Geom<f64>> {
        vec![
            Geom::Box {
                half_extents: DVec3::new(0.5, 1.0, 0.25),
            },
            Geom::Capsule {
                half_height: 0.7,
                radius: 0.3,
            },
            Geom::Cylinder {
                half_height: 0.6,
                radius: 0.4,
            },
            Geom::Cone {
                half_height: 0.5,
                radius: 0.8,
            },
            Geom::Cone {
                half_height: 1.5,
                radius: 0.2,
            },
            // A needle and a disc: triangles of no area.
            Geom::Cone {
                half_height: 1.0,
                radius: 0.0,
            },
            Geom::Cone {
                half_height: 0.0,
                radius: 1.0,
            },
            Geom::Cylinder {
                half_height: 0.0,
                radius: 0.7,
            },
            Geom::Box {
                half_extents: DVec3::new(0.5, 0.0, 0.25),
            },
        ]
    }

    #[test]
    fn projections_are_on_the_boundary_nearest_and_signed() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
        for geom in shapes() {
            for _ in 0..2000 {
                let p = DVec3::new(next(), next(), next());
                let pr = project(&geom, p).expect("a closed form");
                // The normal is a unit vector and the point `|signed|` from p
                // along it (outside: p = q + n·s; inside: p = q + n·s too).
                assert!((pr.normal.length() - 1.0).abs() < 1e-12);
                assert!(
                    (pr.point + pr.normal * pr.signed - p).length() < 1e-12,
                    "{geom:?} {p} {pr:?}"
                );
                // The boundary point is a point of the core whose support
                // plane along the normal it lies on.
                assert!(
                    support_gap(&geom, pr.point, pr.normal).abs() < 1e-12,
                    "{geom:?} {p} {pr:?}"
                );
                // No direction separates p from the core by more than the
                // signed distance (it is the largest such gap).
                for k in 0..64 {
                    let t = f64::from(k) * 0.7;
                    let u = DVec3::new(
                        t.cos() * (t * 0.37).sin(),
                        (t * 0.37).cos(),
                        t.sin() * (t * 0.37).sin(),
                    );
                    assert!(
                        support_gap(&geom, p, u) <= pr.signed + 1e-12,
                        "{geom:?} {p} {pr:?} along {u}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_needle_and_a_flat_cone_are_not_touched_from_afar() {
        let needle = Geom::Cone {
            half_height: 1.0,
            radius: 0.0,
        };
        let pr = project(&needle, DVec3::new(0.0, 3.0, 0.0)).unwrap();
        assert_eq!((pr.point, pr.signed), (DVec3::new(0.0, 1.0, 0.0), 2.0));
        let disc = Geom::Cone {
            half_height: 0.0,
            radius: 1.0,
        };
        let pr = project(&disc, DVec3::new(5.0, 0.0, 0.0)).unwrap();
        assert_eq!((pr.point, pr.signed), (DVec3::new(1.0, 0.0, 0.0), 4.0));
    }

    #[test]
    fn a_gap_that_is_not_a_number_bounds_nothing() {
        let b: Geom<f64> = Geom::Box {
            half_extents: DVec3::ONE,
        };
        for p in [
            DVec3::new(0.0, 0.0, f64::NAN),
            DVec3::new(f64::INFINITY, 0.0, 0.0),
        ] {
            assert_eq!(
                normal_within(&b, p, (1.0, 1e-15)),
                Some(super::super::aim::NONE),
                "{p}"
            );
        }
    }

    #[test]
    fn inside_a_box_the_nearest_face_and_outside_a_cone_its_apex() {
        let b = Geom::Box {
            half_extents: DVec3::new(1.0, 2.0, 3.0),
        };
        let pr = project(&b, DVec3::new(0.9, 0.0, 0.0)).unwrap();
        assert_eq!(pr.point, DVec3::new(1.0, 0.0, 0.0));
        assert_eq!(pr.normal, DVec3::X);
        let signed: f64 = pr.signed;
        assert!((signed + 0.1).abs() < 1e-15);
        // Ties go to the lower axis; the face's sign is the point's side.
        let cube: Geom<f64> = Geom::Box {
            half_extents: DVec3::ONE,
        };
        for (p, point, normal) in [
            (
                DVec3::new(0.5, -0.5, 0.5),
                DVec3::new(1.0, -0.5, 0.5),
                DVec3::X,
            ),
            (
                DVec3::new(0.0, -0.5, 0.5),
                DVec3::new(0.0, -1.0, 0.5),
                -DVec3::Y,
            ),
            (
                DVec3::new(0.0, 0.25, -0.75),
                DVec3::new(0.0, 0.25, -1.0),
                -DVec3::Z,
            ),
            (DVec3::ZERO, DVec3::X, DVec3::X),
        ] {
            let pr = project(&cube, p).unwrap();
            assert_eq!((pr.point, pr.normal), (point, normal), "{p}");
        }
        let c = Geom::Cone {
            half_height: 1.0,
            radius: 1.0,
        };
        let pr = project(&c, DVec3::new(0.0, 3.0, 0.0)).unwrap();
        assert_eq!(pr.point, DVec3::new(0.0, 1.0, 0.0));
        assert_eq!(pr.signed, 2.0);
    }

    /// A needle cone's side next to its rim, in f32: the foot on the side
    /// is the nearest point, though its squared distance and the rim's
    /// are equal to f32's rounding (the rim was taken, 6.7e-4 off).
    #[test]
    fn a_foot_on_a_needle_cones_side_beside_its_rim_is_kept_in_f32() {
        let (h, r) = (1.761_753_916_740_417_5_f64, 0.068_668_052_554_130_55);
        let p = DVec3::new(
            -0.006_309_908_038_191_175,
            -1.684_986_486_763_165_4,
            -3.978_638_983_039_181_3,
        );
        let geom32 = Geom::Cone {
            half_height: h as f32,
            radius: r as f32,
        };
        let wide = Geom::Cone {
            half_height: f64::from(h as f32),
            radius: f64::from(r as f32),
        };
        let q32 = project(&geom32, p.as_vec3a()).unwrap();
        let q64 = project(&wide, p.as_vec3a().as_dvec3()).unwrap();
        // On the side, 6e-4 above the rim.
        assert!(q64.point.y > -h + 5e-4, "{:?}", q64.point);
        let off = (q32.point.as_dvec3() - q64.point).length();
        assert!(
            off < 1e-6,
            "{off:e}: {:?} against {:?}",
            q32.point,
            q64.point
        );
    }

    /// Points 1e-9 … 1e-4 off a cone's side in f32: the normal is the
    /// side's, whose direction the distance does not limit (the direction
    /// to the foot was 5.7e-3 rad off 9.4e-6 away, fuzz seed 26).
    #[test]
    fn an_f32_point_just_off_a_cones_side_takes_the_sides_normal() {
        let mut seed = 0x2600_0000_0000_0001_u64;
        let mut next = || crate::collide::uniform(&mut seed);
        let mut worst = 0.0_f64;
        for _ in 0..2000 {
            let (h, r) = (0.2 + next(), 0.2 + next());
            let geom32 = Geom::Cone {
                half_height: h as f32,
                radius: r as f32,
            };
            let (h, r) = (f64::from(h as f32), f64::from(r as f32));
            // A point of the side away from its ends, pushed out along
            // the side's normal.
            let (t, az) = (0.1 + 0.8 * next(), std::f64::consts::TAU * next());
            let e = DVec3::new(az.cos(), 0.0, az.sin());
            let on = e * (r * t) + DVec3::Y * (h - 2.0 * h * t);
            let len = (4.0 * h * h + r * r).sqrt();
            let n = e * (2.0 * h / len) + DVec3::Y * (r / len);
            let p = (on + n * 10f64.powf(-9.0 + 5.0 * next())).as_vec3a();
            // The side's normal at the rounded point's azimuth.
            let pw = p.as_dvec3();
            let e = DVec3::new(pw.x, 0.0, pw.z).normalize();
            let exact = e * (2.0 * h / len) + DVec3::Y * (r / len);
            let q = project(&geom32, p).unwrap();
            worst = worst.max(q.normal.as_dvec3().angle_between(exact));
        }
        assert!(worst < 1e-5, "{worst:e} rad");
    }
}
