//! Helpers shared by the GJK and EPA tests: a deterministic random source,
//! random shapes and poses, precision conversion, parry conversion and the
//! cross-check judges.

#![allow(
    dead_code,
    clippy::cast_lossless,
    clippy::missing_panics_doc,
    clippy::option_option
)]

use cspace::{Geom, Placed, Pose, Real, Shape, V3, Vector};
use glam::{DQuat, DVec3};

/// `SplitMix64`: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    /// A vector with each coordinate uniform in [lo, hi) (drawn x, y, z).
    pub fn vec_in(&mut self, lo: f64, hi: f64) -> DVec3 {
        DVec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn unit(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
    pub fn rotation(&mut self) -> DQuat {
        loop {
            let q = DQuat::from_xyzw(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = q.length();
            if l > 0.1 && l <= 1.0 {
                return q / l;
            }
        }
    }
    pub fn pose(&mut self, spread: f64) -> Pose<f64> {
        Pose::new(
            DVec3::new(
                self.range(-spread, spread),
                self.range(-spread, spread),
                self.range(-spread, spread),
            ),
            self.rotation(),
        )
    }
    /// A random shape of size about 0.05 to 2.
    pub fn shape(&mut self) -> Shape<f64> {
        let s = |r: &mut Self| r.range(0.05, 2.0);
        let shape = match self.below(7) {
            0 => Shape::sphere(s(self)),
            1 => Shape::cuboid(DVec3::new(s(self), s(self), s(self))),
            2 => Shape::capsule(s(self), s(self) * 0.5),
            3 => Shape::cylinder(s(self), s(self)),
            4 => Shape::cone(s(self), s(self)),
            5 => {
                let n = 4 + self.below(12) as usize;
                let size = s(self);
                Shape::hull(
                    (0..n)
                        .map(|_| self.unit() * size * self.range(0.3, 1.0))
                        .collect(),
                )
            }
            _ => Shape::cuboid(DVec3::new(s(self), s(self) * 0.05, s(self))),
        };
        if self.f() < 0.25 {
            let m = self.range(0.0, 0.3);
            shape.with_margin(m)
        } else {
            shape
        }
    }
}

/// Two random shapes and poses, apart or overlapping about equally often.
pub fn random_case(rng: &mut Rng) -> (Shape<f64>, Shape<f64>, Pose<f64>, Pose<f64>) {
    let a = rng.shape();
    let b = rng.shape();
    let pa = rng.pose(1.0);
    let pb = rng.pose(3.0);
    (a, b, pa, pb)
}

/// A shape at `p`, not rotated.
pub fn pl<T: Real>(s: &Shape<T>, p: V3<T>) -> Placed<'_, T> {
    Placed::new(s, Pose::from_position(p))
}

/// A shape at `p` rotated by `q`.
pub fn at(s: &Shape<f64>, p: DVec3, q: DQuat) -> Placed<'_, f64> {
    Placed::new(s, Pose::new(p, q))
}

/// `max over the shape of u · x` (f64).
pub fn h(p: &Placed<'_, f64>, u: DVec3) -> f64 {
    p.support(u).dot(u)
}

/// A lower bound on the distance from the separating direction `n` (A to B, unit).
pub fn distance_lower_bound(a: &Placed<'_, f64>, b: &Placed<'_, f64>, n: DVec3) -> f64 {
    -(h(a, n) + h(b, -n))
}

/// How far `p` is outside the placed shape, probed along many directions (≈ 0 when inside).
pub fn outside_by(s: &Placed<'_, f64>, p: DVec3) -> f64 {
    let mut worst: f64 = 0.0;
    let fib = 200;
    for i in 0..fib {
        let z = 1.0 - 2.0 * (f64::from(i) + 0.5) / f64::from(fib);
        let r = (1.0 - z * z).sqrt();
        let t = f64::from(i) * 2.399_963_229_728_653;
        let u = DVec3::new(r * t.cos(), r * t.sin(), z);
        worst = worst.max(u.dot(p) - h(s, u));
    }
    worst
}

/// Outcome counts of a cross-check.
#[derive(Debug, Default)]
pub struct Stats {
    pub cases: u32,
    pub agree: u32,
    pub parry_wrong: u32,
    pub ours_wrong: u32,
    pub max_diff: f64,
    pub parry_failed: u32,
}

/// parry conversion for one precision.
pub trait Parry: Real {
    /// parry's distance, or `None` if it cannot handle the pair.
    fn parry_distance(
        a: &Shape<Self>,
        pa: &Pose<Self>,
        b: &Shape<Self>,
        pb: &Pose<Self>,
    ) -> Option<f64>;
    /// parry's contact with prediction 0: (signed distance, normal from A, point on A, point on B).
    fn parry_contact(
        a: &Shape<Self>,
        pa: &Pose<Self>,
        b: &Shape<Self>,
        pb: &Pose<Self>,
    ) -> Option<Option<(f64, DVec3, DVec3, DVec3)>>;
    /// The shape in this precision.
    fn from64(s: &Shape<f64>) -> Shape<Self>;
    /// Back to f64 (exact).
    fn to64(s: &Shape<Self>) -> Shape<f64>;
    /// The pose in this precision.
    fn pose(p: &Pose<f64>) -> Pose<Self>;
    /// The pose back in f64 (exact position; the rotation normalised in f64, as the queries see it).
    fn pose64(p: &Pose<Self>) -> Pose<f64>;
    /// The agreement tolerance relative to the shapes' scale.
    const TOL: f64;
}

macro_rules! parry_impl {
    ($t:ty, $p:ident, $v:ty, $q:ty, $from:expr, $to:expr, $pose:expr, $pose64:expr, $tol:expr) => {
        impl Parry for $t {
            const TOL: f64 = $tol;
            fn from64(s: &Shape<f64>) -> Shape<$t> {
                $from(s)
            }
            fn to64(s: &Shape<$t>) -> Shape<f64> {
                $to(s)
            }
            fn pose(p: &Pose<f64>) -> Pose<$t> {
                $pose(p)
            }
            fn pose64(p: &Pose<$t>) -> Pose<f64> {
                $pose64(p)
            }
            fn parry_distance(
                a: &Shape<$t>,
                pa: &Pose<$t>,
                b: &Shape<$t>,
                pb: &Pose<$t>,
            ) -> Option<f64> {
                let (ga, gb) = (parry_shape_of::$p::shape(a)?, parry_shape_of::$p::shape(b)?);
                let (qa, qb) = (parry_shape_of::$p::pose(pa), parry_shape_of::$p::pose(pb));
                $p::query::distance(&qa, &*ga, &qb, &*gb)
                    .ok()
                    .map(|d| f64::from(d.distance))
            }
            fn parry_contact(
                a: &Shape<$t>,
                pa: &Pose<$t>,
                b: &Shape<$t>,
                pb: &Pose<$t>,
            ) -> Option<Option<(f64, DVec3, DVec3, DVec3)>> {
                let (ga, gb) = (parry_shape_of::$p::shape(a)?, parry_shape_of::$p::shape(b)?);
                let (qa, qb) = (parry_shape_of::$p::pose(pa), parry_shape_of::$p::pose(pb));
                let c = $p::query::contact(&qa, &*ga, &qb, &*gb, 0.0).ok()?;
                Some(c.map(|c| {
                    let w = |v: $v| DVec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z));
                    (f64::from(c.dist), w(c.normal1), w(c.point1), w(c.point2))
                }))
            }
        }
    };
}

pub mod parry_shape_of {
    macro_rules! conv {
        ($m:ident, $p:ident, $t:ty, $v:ty) => {
            pub mod $m {
                use cspace::{Geom, Pose, Shape};
                use $p::shape as ps;
                pub fn shape(s: &Shape<$t>) -> Option<Box<dyn ps::Shape>> {
                    let m = s.margin();
                    let round = m > 0.0;
                    Some(match &s.geom() {
                        Geom::Point => Box::new(ps::Ball::new(m)),
                        Geom::Sphere { radius } => Box::new(ps::Ball::new(radius + m)),
                        Geom::Capsule {
                            half_height,
                            radius,
                        } => Box::new(ps::Capsule::new_y(*half_height, radius + m)),
                        Geom::Box { half_extents } => {
                            let c = ps::Cuboid::new(<$v>::new(
                                half_extents.x,
                                half_extents.y,
                                half_extents.z,
                            ));
                            if round {
                                Box::new(ps::RoundShape {
                                    inner_shape: c,
                                    border_radius: m,
                                })
                            } else {
                                Box::new(c)
                            }
                        }
                        Geom::Cylinder {
                            half_height,
                            radius,
                        } => {
                            let c = ps::Cylinder::new(*half_height, *radius);
                            if round {
                                Box::new(ps::RoundShape {
                                    inner_shape: c,
                                    border_radius: m,
                                })
                            } else {
                                Box::new(c)
                            }
                        }
                        Geom::Cone {
                            half_height,
                            radius,
                        } => {
                            let c = ps::Cone::new(*half_height, *radius);
                            if round {
                                Box::new(ps::RoundShape {
                                    inner_shape: c,
                                    border_radius: m,
                                })
                            } else {
                                Box::new(c)
                            }
                        }
                        Geom::Hull(hull) => {
                            let pts: Vec<$v> = hull
                                .points()
                                .iter()
                                .map(|p| <$v>::new(p.x, p.y, p.z))
                                .collect();
                            let c = ps::ConvexPolyhedron::from_convex_hull(&pts)?;
                            if round {
                                Box::new(ps::RoundShape {
                                    inner_shape: c,
                                    border_radius: m,
                                })
                            } else {
                                Box::new(c)
                            }
                        }
                    })
                }
                pub fn pose(p: &Pose<$t>) -> $p::math::Pose {
                    $p::math::Pose::from_parts(
                        <$v>::new(p.position.x, p.position.y, p.position.z),
                        p.rotation,
                    )
                }
            }
        };
    }
    conv!(parry3d_f64, parry3d_f64, f64, glam::DVec3);
    conv!(parry3d, parry3d, f32, glam::Vec3);
}

parry_impl!(
    f64,
    parry3d_f64,
    glam::DVec3,
    DQuat,
    |s: &Shape<f64>| s.clone(),
    |s: &Shape<f64>| s.clone(),
    |p: &Pose<f64>| *p,
    |p: &Pose<f64>| *p,
    1e-6
);
parry_impl!(
    f32,
    parry3d,
    glam::Vec3,
    Quat,
    |s: &Shape<f64>| s.to_precision::<f32>(),
    |s: &Shape<f32>| s.to_precision::<f64>(),
    |p: &Pose<f64>| Pose::new(p.position.as_vec3a(), p.rotation.as_quat().normalize()),
    |p: &Pose<f32>| Pose::new(p.position.as_dvec3(), p.rotation.as_dquat().normalize()),
    2e-3
);

/// An f64 pose rounded once to f32 (position and quaternion).
pub fn pose_f32(p: &Pose<f64>) -> Pose<f32> {
    Pose::new(
        glam::Vec3A::from(p.position.as_vec3()),
        p.rotation.as_quat(),
    )
}

/// An f32 pose widened to f64 exactly (the quaternion as it is, not
/// normalised again): the same input for an f64 reference.
pub fn pose_f64(p: &Pose<f32>) -> Pose<f64> {
    Pose::new(p.position.as_dvec3(), p.rotation.as_dquat())
}

/// Widens a vector of precision `T` to f64.
pub fn wide<T: Real>(v: V3<T>) -> DVec3 {
    DVec3::from_array(v.to_f64())
}

/// Random distance queries against parry in precision `T`. A disagreement
/// beyond `T::TOL × scale` is judged with a certificate computed in f64: our
/// witness points (upper bound) and our normal's separation (lower bound).
pub fn cross_check_distance<T: Parry>(rng: &mut Rng, n: u32) -> Stats {
    let mut st = Stats::default();
    let mut shown = 0;
    for _ in 0..n {
        let (a, b, pa, pb) = random_case(rng);
        let (a, b, pa, pb) = (T::from64(&a), T::from64(&b), T::pose(&pa), T::pose(&pb));
        let ours = cspace::gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
        let Some(theirs) = T::parry_distance(&a, &pa, &b, &pb) else {
            st.parry_failed += 1;
            continue;
        };
        st.cases += 1;
        let d = ours.distance.to_f64();
        let scale = a.scale().max(b.scale()).to_f64();
        let diff = (d - theirs).abs();
        st.max_diff = st.max_diff.max(diff / scale);
        if diff <= T::TOL * scale {
            st.agree += 1;
            continue;
        }
        // Judge in f64 on the exact same shapes and poses.
        let (a64, b64) = (T::to64(&a), T::to64(&b));
        let (pa64, pb64) = (T::pose64(&pa), T::pose64(&pb));
        let (a64, b64) = (Placed::new(&a64, pa64), Placed::new(&b64, pb64));
        let truth = if ours.intersecting {
            // Certified by a common point (point_a, within tolerance of point_b).
            let q = wide::<T>(ours.point_a);
            let out =
                outside_by(&a64, q) + outside_by(&b64, q) + (q - wide::<T>(ours.point_b)).length();
            if out <= T::TOL * scale * 0.5 {
                0.0
            } else {
                f64::NAN
            }
        } else {
            let n = wide::<T>(ours.normal);
            let lower = distance_lower_bound(&a64, &b64, n);
            let (qa, qb) = (wide::<T>(ours.point_a), wide::<T>(ours.point_b));
            let upper = (qa - qb).length() + outside_by(&a64, qa) + outside_by(&b64, qb);
            if upper - lower > T::TOL * scale * 0.5 {
                f64::NAN
            } else {
                lower
            }
        };
        let theirs_ok = (theirs - truth).abs() <= T::TOL * scale;
        let ours_ok = (d - truth).abs() <= T::TOL * scale;
        if ours_ok && !theirs_ok {
            st.parry_wrong += 1;
        } else {
            st.ours_wrong += 1;
        }
        if shown < 5 {
            shown += 1;
            eprintln!(
                "disagreement: ours {ours:?} parry {theirs} certified {truth}\n  a {a:?} {pa:?}\n  b {b:?} {pb:?}"
            );
        }
    }
    st
}

/// Any valid shape for property tests: every kind, sizes from 1e-3 to 10,
/// degenerate hulls (1 to 11 points) and optional margins.
pub fn arb_shape() -> impl proptest::strategy::Strategy<Value = Shape<f64>> {
    use proptest::prelude::*;
    type S = Shape<f64>;
    let size = 1e-3..10.0f64;
    let margin = prop_oneof![Just(0.0), 0.0..1.0f64];
    let geom = prop_oneof![
        size.clone().prop_map(S::sphere),
        (size.clone(), size.clone(), size.clone())
            .prop_map(|(x, y, z)| S::cuboid(DVec3::new(x, y, z))),
        (0.0..10.0f64, size.clone()).prop_map(|(h, r)| S::capsule(h, r)),
        (0.0..10.0f64, 0.0..10.0f64).prop_map(|(h, r)| S::cylinder(h, r)),
        (0.0..10.0f64, 0.0..10.0f64).prop_map(|(h, r)| S::cone(h, r)),
        proptest::collection::vec((-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64), 1..12)
            .prop_map(|p| S::hull(p.into_iter().map(|(x, y, z)| DVec3::new(x, y, z)).collect())),
        Just(S::new(Geom::Point)),
    ];
    (geom, margin).prop_map(|(g, m)| g.with_margin(m))
}

/// The angle between two unit vectors, accurate near 0 (`acos` of their
/// dot product is not: it reads 2.1e-8 for parallel vectors).
pub fn angle(u: DVec3, v: DVec3) -> f64 {
    u.cross(v).length().atan2(u.dot(v))
}
