//! Query families that break convex algorithms, and the per-case random
//! stream: case `i` of seed `s` is a function of `(s, i)` alone, so shards and
//! thread counts never change what a case is.

use super::geom::{self, Quat};
use cspace::model::{Precision, Query, QueryKind};
use cspace_recorder::{ShapeDecl, ShapeGeom};

/// `SplitMix64` (Steele, Lea and Flood 2014): a tiny, well-mixed generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator of case `index` in the campaign of `seed`.
    #[must_use]
    pub fn for_case(seed: u64, index: u64) -> Self {
        let mut r = Self(seed ^ 0x5DEE_CE66_D1CE_4E5B);
        r.0 = r.next_u64() ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        r.next_u64();
        r
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Log-uniform in [lo, hi) (both > 0).
    pub fn log_range(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    /// Uniform in 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A uniformly random unit vector.
    pub fn dir(&mut self) -> [f64; 3] {
        let z = self.range(-1.0, 1.0);
        let t = self.range(0.0, std::f64::consts::TAU);
        let r = (1.0 - z * z).max(0.0).sqrt();
        [r * t.cos(), r * t.sin(), z]
    }

    /// A point uniformly in the cube [-h, h]³.
    pub fn cube(&mut self, h: f64) -> [f64; 3] {
        [self.range(-h, h), self.range(-h, h), self.range(-h, h)]
    }

    /// A uniformly random rotation (Shoemake's method), `[x, y, z, w]`.
    pub fn rotation(&mut self) -> Quat {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let (t2, t3) = (std::f64::consts::TAU * u2, std::f64::consts::TAU * u3);
        [a * t2.sin(), a * t2.cos(), b * t3.sin(), b * t3.cos()]
    }

    /// A rotation by a random angle in [0, `max_angle`] about a random axis.
    pub fn small_rotation(&mut self, max_angle: f64) -> Quat {
        geom::axis_angle(self.dir(), self.range(0.0, max_angle))
    }
}

/// A family of generated queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Family {
    /// Random shapes of every kind in random poses.
    Random,
    /// Long thin boxes, needles and thin capsules.
    Thin,
    /// A shape 1000 times larger than the other.
    Scale,
    /// Both shapes far from the origin (1e3 … 1e6).
    Far,
    /// Separated or overlapping by 1e-3 … 1e-12 of the size along a random axis.
    Touching,
    /// Two boxes with nearly parallel faces a hair apart or overlapping.
    Parallel,
    /// Degenerate hulls: coincident, collinear, coplanar points; flat boxes.
    Degenerate,
    /// Hulls of 200–2000 points.
    BigHull,
    /// Deep overlaps: centres close together.
    Deep,
    /// Sweeps that graze, move parallel to a face, or do not move.
    Sweeps,
    /// Shapes with margins (rounded cores).
    Margins,
}

impl Family {
    /// Every family, in order.
    pub const ALL: [Self; 11] = [
        Self::Random,
        Self::Thin,
        Self::Scale,
        Self::Far,
        Self::Touching,
        Self::Parallel,
        Self::Degenerate,
        Self::BigHull,
        Self::Deep,
        Self::Sweeps,
        Self::Margins,
    ];

    /// The family's name on the command line and in summaries.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Random => "random",
            Self::Thin => "thin",
            Self::Scale => "scale",
            Self::Far => "far",
            Self::Touching => "touching",
            Self::Parallel => "parallel",
            Self::Degenerate => "degenerate",
            Self::BigHull => "big-hull",
            Self::Deep => "deep",
            Self::Sweeps => "sweeps",
            Self::Margins => "margins",
        }
    }

    /// The query kinds this family makes.
    #[must_use]
    pub fn kinds(self) -> &'static [QueryKind] {
        use QueryKind::{Distance, Intersect, Penetration, SignedDistance, Sweep};
        match self {
            Self::Sweeps => &[Sweep],
            Self::Deep => &[Intersect, Penetration, SignedDistance],
            _ => &[Distance, Intersect, Penetration, Sweep, SignedDistance],
        }
    }
}

/// A query kind on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Kind {
    /// Distance and closest points.
    Distance,
    /// Boolean intersection.
    Intersect,
    /// Penetration depth.
    Penetration,
    /// Time of impact.
    Sweep,
    /// Signed distance (`signed_distance`, as in queries; `signed-distance` too).
    #[value(name = "signed_distance", alias = "signed-distance")]
    SignedDistance,
}

impl Kind {
    /// The query kind.
    #[must_use]
    pub fn query(self) -> QueryKind {
        match self {
            Self::Distance => QueryKind::Distance,
            Self::Intersect => QueryKind::Intersect,
            Self::Penetration => QueryKind::Penetration,
            Self::Sweep => QueryKind::Sweep,
            Self::SignedDistance => QueryKind::SignedDistance,
        }
    }
}

/// A precision on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Prec {
    /// Single precision (inputs rounded to f32 first, so f64 sees the same numbers).
    F32,
    /// Double precision.
    F64,
}

/// What a campaign draws from.
#[derive(Clone, Debug)]
pub struct Space {
    /// Families to draw from (non-empty).
    pub families: Vec<Family>,
    /// Kinds to draw (non-empty).
    pub kinds: Vec<QueryKind>,
    /// Precisions to draw (non-empty).
    pub precisions: Vec<Precision>,
}

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its index in the campaign's stream.
    pub index: u64,
    /// The family it came from.
    pub family: Family,
    /// The query.
    pub query: Query,
}

/// Case `index` of the campaign `seed` over `space`.
#[must_use]
pub fn case(seed: u64, index: u64, space: &Space) -> Case {
    let mut rng = Rng::for_case(seed, index);
    let family = space.families[(index % space.families.len() as u64) as usize];
    let allowed: Vec<QueryKind> = family
        .kinds()
        .iter()
        .copied()
        .filter(|k| space.kinds.contains(k))
        .collect();
    let kind = if allowed.is_empty() {
        rng.pick(&space.kinds)
    } else {
        rng.pick(&allowed)
    };
    let precision = rng.pick(&space.precisions);
    let mut query = shapes(&mut rng, family, kind);
    query.id = Some(format!("case-{index}"));
    query.precision = precision;
    if precision == Precision::F32 {
        geom::round_to_f32(&mut query);
    }
    Case {
        index,
        family,
        query,
    }
}

fn decl(geom: ShapeGeom, margin: f64, position: [f64; 3], rotation: Quat) -> ShapeDecl {
    ShapeDecl {
        geom,
        margin,
        position,
        rotation,
    }
}

/// A random shape of about `size`.
fn any_shape(rng: &mut Rng, size: f64) -> ShapeGeom {
    let s = |rng: &mut Rng| size * rng.range(0.3, 1.0);
    match rng.below(7) {
        0 => ShapeGeom::Sphere { radius: s(rng) },
        1 => ShapeGeom::Box {
            half_extents: [s(rng), s(rng), s(rng)],
        },
        2 => ShapeGeom::Capsule {
            half_height: s(rng),
            radius: s(rng) * 0.5,
        },
        3 => ShapeGeom::Cylinder {
            half_height: s(rng),
            radius: s(rng),
        },
        4 => ShapeGeom::Cone {
            half_height: s(rng),
            radius: s(rng),
        },
        5 => {
            let n = 4 + rng.below(20);
            hull(rng, n, size)
        }
        _ => ShapeGeom::Point,
    }
}

/// A hull of `n` random points in a ball of radius `size` (an ellipsoid-ish cloud).
fn hull(rng: &mut Rng, n: usize, size: f64) -> ShapeGeom {
    let stretch = [
        rng.range(0.3, 1.0),
        rng.range(0.3, 1.0),
        rng.range(0.3, 1.0),
    ];
    let points = (0..n)
        .map(|_| {
            let d = rng.dir();
            let r = size * rng.unit().cbrt();
            [
                d[0] * r * stretch[0],
                d[1] * r * stretch[1],
                d[2] * r * stretch[2],
            ]
        })
        .collect();
    ShapeGeom::Hull { points }
}

/// A degenerate hull or box.
fn degenerate(rng: &mut Rng, size: f64) -> ShapeGeom {
    let p = rng.cube(size);
    match rng.below(5) {
        // Coincident points.
        0 => ShapeGeom::Hull {
            points: vec![p; 2 + rng.below(4)],
        },
        // Collinear.
        1 => {
            let d = rng.dir();
            let points = (0..2 + rng.below(5))
                .map(|_| {
                    let t = rng.range(-size, size);
                    [p[0] + d[0] * t, p[1] + d[1] * t, p[2] + d[2] * t]
                })
                .collect();
            ShapeGeom::Hull { points }
        }
        // Coplanar.
        2 => {
            let points = (0..3 + rng.below(8))
                .map(|_| [rng.range(-size, size), rng.range(-size, size), 0.0])
                .collect();
            ShapeGeom::Hull { points }
        }
        // Flat box.
        3 => ShapeGeom::Box {
            half_extents: [size, size * rng.pick(&[0.0, 1e-12, 1e-6]), size * 0.5],
        },
        // A hull with a duplicated vertex and near-duplicates.
        _ => {
            let ShapeGeom::Hull { mut points } = hull(rng, 5, size) else {
                unreachable!("hull makes hulls")
            };
            let q = points[0];
            points.push(q);
            points.push([q[0] + 1e-13 * size, q[1], q[2]]);
            ShapeGeom::Hull { points }
        }
    }
}

/// The world support point of `d` placed at the origin with rotation `r`, dotted with `n`.
fn reach(g: &ShapeGeom, margin: f64, r: Quat, n: [f64; 3]) -> f64 {
    geom::support_height(&decl(g.clone(), margin, [0.0; 3], r), n)
}

/// Places B so that its gap to A along `n` is `gap` (negative: overlap).
fn place_along(a: &ShapeDecl, b: &mut ShapeDecl, n: [f64; 3], gap: f64) {
    let ha = geom::support_height(a, n);
    let hb = reach(&b.geom, b.margin, b.rotation, geom::neg(n));
    let t = ha + hb + gap;
    b.position = geom::add(a.position, geom::scale(n, t));
}

#[allow(
    clippy::too_many_lines,
    reason = "one arm per family reads best as one table"
)]
fn shapes(rng: &mut Rng, family: Family, kind: QueryKind) -> Query {
    let mut a = decl(any_shape(rng, 1.0), 0.0, rng.cube(1.0), rng.rotation());
    let mut b = decl(any_shape(rng, 1.0), 0.0, rng.cube(1.0), rng.rotation());
    let mut motion = None;
    match family {
        Family::Random => {}
        Family::Thin => {
            for s in [&mut a, &mut b] {
                let long = rng.log_range(1.0, 100.0);
                let thin = rng.log_range(1e-4, 1e-2);
                s.geom = match rng.below(3) {
                    0 => ShapeGeom::Box {
                        half_extents: [long, thin, thin * rng.range(0.5, 2.0)],
                    },
                    1 => ShapeGeom::Capsule {
                        half_height: long,
                        radius: thin,
                    },
                    _ => ShapeGeom::Hull {
                        points: vec![[0.0, -long, 0.0], [0.0, long, 0.0], [thin, 0.0, 0.0]],
                    },
                };
            }
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(-0.5, 0.5));
        }
        Family::Scale => {
            let k = rng.pick(&[1e3, 1e-3]);
            b.geom = any_shape(rng, k);
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(-0.3, 0.3) * k.min(1.0));
        }
        Family::Far => {
            let offset = geom::scale(rng.dir(), rng.log_range(1e3, 1e6));
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(-0.5, 0.5));
            a.position = geom::add(a.position, offset);
            b.position = geom::add(b.position, offset);
        }
        Family::Touching => {
            let n = rng.dir();
            let gap = rng.log_range(1e-12, 1e-3) * if rng.chance(0.5) { 1.0 } else { -1.0 };
            place_along(&a, &mut b, n, gap);
        }
        Family::Parallel => {
            let h = [
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
                rng.range(0.05, 1.0),
            ];
            a.geom = ShapeGeom::Box { half_extents: h };
            b.geom = ShapeGeom::Box {
                half_extents: [
                    rng.range(0.5, 2.0),
                    rng.range(0.5, 2.0),
                    rng.range(0.05, 1.0),
                ],
            };
            let r = rng.rotation();
            a.rotation = r;
            let angle = rng.log_range(1e-9, 1e-3);
            b.rotation = geom::mul(r, rng.small_rotation(angle));
            let n = geom::rotate(r, [0.0, 0.0, 1.0]);
            let gap = rng.log_range(1e-12, 1e-2) * if rng.chance(0.5) { 1.0 } else { -1.0 };
            place_along(&a, &mut b, n, gap);
            let slide = geom::rotate(r, [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0]);
            b.position = geom::add(b.position, slide);
        }
        Family::Degenerate => {
            a.geom = degenerate(rng, 1.0);
            if rng.chance(0.5) {
                b.geom = degenerate(rng, 1.0);
            }
        }
        Family::BigHull => {
            let n = 200 + rng.below(1801);
            a.geom = hull(rng, n, 1.0);
            if rng.chance(0.5) {
                let n = 200 + rng.below(1801);
                b.geom = hull(rng, n, 1.0);
            }
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(-0.3, 0.3));
        }
        Family::Deep => {
            b.position = geom::add(a.position, rng.cube(0.1));
        }
        Family::Sweeps => {
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(0.1, 1.0));
            let m = match rng.below(4) {
                // Zero or tiny motion.
                0 => geom::scale(rng.dir(), rng.pick(&[0.0, 1e-12, 1e-6])),
                // Grazing: perpendicular to the centre line, past B.
                1 => {
                    let side = geom::normalize(geom::cross(n, rng.dir()));
                    let lift = geom::scale(n, rng.range(-0.2, 0.2));
                    geom::add(geom::scale(side, rng.range(2.0, 6.0)), lift)
                }
                // Parallel to A's face (A a box).
                2 => {
                    a.geom = ShapeGeom::Box {
                        half_extents: [1.0, 1.0, rng.range(0.1, 1.0)],
                    };
                    geom::rotate(
                        a.rotation,
                        [rng.range(-4.0, 4.0), rng.range(-4.0, 4.0), 0.0],
                    )
                }
                // Straight at B, overshooting.
                _ => geom::scale(n, rng.range(0.5, 6.0)),
            };
            motion = Some(m);
        }
        Family::Margins => {
            a.margin = rng.log_range(1e-3, 0.5);
            b.margin = if rng.chance(0.5) {
                rng.log_range(1e-3, 0.5)
            } else {
                0.0
            };
            let n = rng.dir();
            place_along(&a, &mut b, n, rng.range(-0.3, 0.3));
        }
    }
    if kind == QueryKind::Sweep && motion.is_none() {
        let towards = geom::sub(b.position, a.position);
        let m = geom::add(geom::scale(towards, rng.range(0.0, 2.0)), rng.cube(0.5));
        motion = Some(m);
    }
    if kind != QueryKind::Sweep {
        motion = None;
    }
    Query {
        id: None,
        query: kind,
        precision: Precision::F64,
        algorithm: None,
        a,
        b,
        translation: motion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> Space {
        Space {
            families: Family::ALL.to_vec(),
            kinds: vec![
                QueryKind::Distance,
                QueryKind::Intersect,
                QueryKind::Penetration,
                QueryKind::Sweep,
                QueryKind::SignedDistance,
            ],
            precisions: vec![Precision::F64, Precision::F32],
        }
    }

    #[test]
    fn cases_are_a_function_of_seed_and_index() {
        let s = space();
        for i in [0, 1, 17, 1000] {
            assert_eq!(case(7, i, &s).query, case(7, i, &s).query);
        }
        assert_ne!(case(7, 3, &s).query, case(8, 3, &s).query);
    }

    #[test]
    fn every_generated_query_is_valid() {
        let s = space();
        for i in 0..2000 {
            let c = case(1, i, &s);
            c.query
                .validate()
                .unwrap_or_else(|e| panic!("case {i} ({}): {e}", c.family.name()));
        }
    }
}
