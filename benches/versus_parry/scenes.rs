//! The scenes of `versus_parry` (and of `benches/jolt`, which includes this
//! file): shape descriptions every engine is built from, a deterministic
//! generator, scenes of two shapes placed at a chosen multiple of their
//! bounding radii, the per-pair sets, and the interleaved timing both use.

use cspace::{Pose, Real, Rotation, Shape, V3, Vector};

/// splitmix64: a deterministic generator so every run sees the same scenes.
pub struct Rng(pub u64);
impl Rng {
    /// The next 64 random bits.
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
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    /// A random unit vector (rejection sampling in the unit ball).
    pub fn unit(&mut self) -> [f64; 3] {
        loop {
            let v = [
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            ];
            let l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
            if l2 > 1e-4 && l2 <= 1.0 {
                let l = l2.sqrt();
                return [v[0] / l, v[1] / l, v[2] / l];
            }
        }
    }
    /// A random rotation `[x, y, z, w]` about a random axis.
    pub fn quat(&mut self) -> [f64; 4] {
        let axis = self.unit();
        let angle = self.range(0.0, std::f64::consts::TAU);
        let (s, c) = (angle * 0.5).sin_cos();
        [axis[0] * s, axis[1] * s, axis[2] * s, c]
    }
}

/// A shape description both engines are built from.
#[derive(Clone, Debug)]
pub enum Spec {
    /// A box by its half extents.
    Cuboid([f64; 3]),
    /// The convex hull of points.
    Hull(Vec<[f64; 3]>),
    /// Half height and radius (along y).
    Cylinder(f64, f64),
    /// Half height of the segment and radius (along y).
    Capsule(f64, f64),
    /// Half height and base radius (apex at +y).
    Cone(f64, f64),
    /// Radius.
    Sphere(f64),
}

impl Spec {
    /// The bounding radius (1 for hulls of unit vectors).
    pub fn size(&self) -> f64 {
        match self {
            Self::Cuboid(h) => (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt(),
            Self::Hull(_) | Self::Sphere(_) => match self {
                Self::Sphere(r) => *r,
                _ => 1.0,
            },
            Self::Cylinder(hh, r) | Self::Cone(hh, r) => (hh * hh + r * r).sqrt(),
            Self::Capsule(hh, r) => hh + r,
        }
    }
}

/// A random shape of `family` (`boxes`, `hull16`, `hull64`, `cylinders`,
/// `capsules`, `cones`, `spheres`; anything else: one of the mixed family's).
pub fn random_spec(rng: &mut Rng, family: &str) -> Spec {
    match family {
        "boxes" => Spec::Cuboid([
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
            rng.range(0.3, 1.5),
        ]),
        "hull16" => Spec::Hull((0..16).map(|_| rng.unit()).collect()),
        "hull64" => Spec::Hull((0..64).map(|_| rng.unit()).collect()),
        "cylinders" => Spec::Cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5)),
        "capsules" => Spec::Capsule(rng.range(0.3, 1.5), rng.range(0.2, 0.8)),
        "cones" => Spec::Cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5)),
        "spheres" => Spec::Sphere(rng.range(0.3, 1.5)),
        _ => match rng.next_u64() % 6 {
            0 => random_spec(rng, "boxes"),
            1 => random_spec(rng, "hull16"),
            2 => random_spec(rng, "cylinders"),
            3 => random_spec(rng, "capsules"),
            4 => Spec::Cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5)),
            _ => Spec::Sphere(rng.range(0.3, 1.5)),
        },
    }
}

/// One scene: two shapes and their poses, plus a start and motion of A for sweeps.
#[derive(Clone, Debug)]
pub struct Scene {
    pub a: Spec,
    pub b: Spec,
    /// A's pose for the static queries: centres `gap × (size A + size B)` apart.
    pub pa: ([f64; 3], [f64; 4]),
    pub pb: ([f64; 3], [f64; 4]),
    /// A's pose for sweeps: twice as far, on the far side of B.
    pub start: ([f64; 3], [f64; 4]),
    pub motion: [f64; 3],
}

/// `gap` scales the centre distance relative to the sum of the shapes'
/// bounding radii: > 1 apart, < 1 the bounding spheres overlap.
pub fn scenes(family: &str, gap: (f64, f64), seed: u64) -> Vec<Scene> {
    scenes_of(family, family, gap, seed, 1000)
}

/// `count` scenes of A from `family_a` and B from `family_b` (see [`scenes`]).
pub fn scenes_of(
    family_a: &str,
    family_b: &str,
    gap: (f64, f64),
    seed: u64,
    count: usize,
) -> Vec<Scene> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let a = random_spec(&mut rng, family_a);
            let b = random_spec(&mut rng, family_b);
            let dir = rng.unit();
            let d = (a.size() + b.size()) * rng.range(gap.0, gap.1);
            let pa = ([0.0; 3], rng.quat());
            let pb = ([dir[0] * d, dir[1] * d, dir[2] * d], rng.quat());
            // Sweeps: A starts on the far side, 2d from B, and aims at B with some spread.
            let aim = rng.unit();
            let m = 2.0 * d;
            let motion = [
                dir[0] * m + aim[0] * 0.3 * m,
                dir[1] * m + aim[1] * 0.3 * m,
                dir[2] * m + aim[2] * 0.3 * m,
            ];
            Scene {
                a,
                b,
                pa,
                pb,
                start: ([-dir[0] * d, -dir[1] * d, -dir[2] * d], pa.1),
                motion,
            }
        })
        .collect()
}

/// `s` as a cspace shape in precision `T`.
pub fn cspace_shape<T: Real>(s: &Spec) -> Shape<T> {
    let v = |p: &[f64; 3]| V3::<T>::from_f64(*p);
    let t = T::from_f64;
    match s {
        Spec::Cuboid(h) => Shape::cuboid(v(h)),
        Spec::Hull(points) => Shape::hull(points.iter().map(v).collect()),
        Spec::Cylinder(hh, r) => Shape::cylinder(t(*hh), t(*r)),
        Spec::Capsule(hh, r) => Shape::capsule(t(*hh), t(*r)),
        Spec::Cone(hh, r) => Shape::cone(t(*hh), t(*r)),
        Spec::Sphere(r) => Shape::sphere(t(*r)),
    }
}

/// A pose `(position, [x, y, z, w])` as a cspace pose in precision `T`.
pub fn cspace_pose<T: Real>(p: &([f64; 3], [f64; 4])) -> Pose<T> {
    Pose::new(
        V3::<T>::from_f64(p.0),
        <T::Q as Rotation<T>>::from_xyzw(p.1.map(T::from_f64)),
    )
}

/// The centre distance of a query kind's scenes, as factors of the summed
/// bounding radii: distance always apart, intersect and signed a mix,
/// penetration mostly overlapping, sweeps start apart.
pub fn gap_of(query: &str) -> (f64, f64) {
    match query {
        "distance" => (1.02, 1.6),
        "intersect" | "signed" => (0.6, 1.4),
        "penetration" => (0.3, 0.9),
        _ => (1.2, 1.6),
    }
}

/// The shape families of the family rows (their index is part of each
/// set's seed); `versus_parry` adds a row of two spheres after them.
pub const FAMILIES: [&str; 6] = [
    "boxes",
    "hull16",
    "hull64",
    "cylinders",
    "capsules",
    "mixed",
];

/// The shape families of the per-pair rows: the mixed family's shapes.
pub const PAIR_KINDS: [&str; 6] = [
    "boxes",
    "hull16",
    "cylinders",
    "capsules",
    "cones",
    "spheres",
];

/// Scenes per shape pair.
pub const PAIR_SCENES: usize = 200;

/// A pair row's name for a family.
pub fn short(family: &str) -> &'static str {
    match family {
        "boxes" => "box",
        "hull16" => "hull16",
        "cylinders" => "cyl",
        "capsules" => "capsule",
        "cones" => "cone",
        _ => "sphere",
    }
}

/// The scenes whose shapes overlap (cspace's f64 GJK), as contact
/// generation sees them: the penetration sets.
pub fn overlapping(mut sc: Vec<Scene>) -> Vec<Scene> {
    sc.retain(|s| {
        let (a, b) = (cspace_shape::<f64>(&s.a), cspace_shape::<f64>(&s.b));
        cspace::gjk::intersect(
            &cspace::Placed::new(&a, cspace_pose(&s.pa)),
            &cspace::Placed::new(&b, cspace_pose(&s.pb)),
        )
        .intersecting
    });
    sc
}

/// Best-of-`passes` nanoseconds per query (`n` queries a call) for each of
/// the closures, interleaved so that every engine sees the same load.
pub fn race(passes: usize, n: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![f64::INFINITY; fs.len()];
    for _ in 0..passes {
        for (i, f) in fs.iter_mut().enumerate() {
            let t = std::time::Instant::now();
            f();
            best[i] = best[i].min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
        }
    }
    best
}

/// A scene's two shapes in their poses, as cspace takes them, in precision `T`.
pub fn cspace_pair<T: Real>(s: &Scene) -> (Shape<T>, Pose<T>, Shape<T>, Pose<T>) {
    (
        cspace_shape(&s.a),
        cspace_pose(&s.pa),
        cspace_shape(&s.b),
        cspace_pose(&s.pb),
    )
}
