//! GJK (Gilbert, Johnson and Keerthi; van den Bergen's formulation):
//! distance, closest points and boolean intersection of two convex shapes.
//!
//! GJK runs on the shapes' *cores* and subtracts the radii afterwards, so
//! spheres, capsules and margins are exact. It works in A's local frame with
//! B's pose relative to A, which keeps precision when both shapes are far
//! from the world origin and saves a rotation per support call.
//!
//! Termination is relative to the shapes' scale ([`Shape::scale`]) and the
//! current distance; the iteration count is bounded by [`MAX_ITERS`] and the
//! outcome says how the loop ended ([`Status`]).

use crate::Status;
use crate::real::{Real, Rotation, V3, Vector};
use crate::shape::{Placed, Pose, Shape};
use crate::simplex::{CsoPoint, Simplex};
use cspace_recorder as rec;

/// The most support evaluations one GJK query makes.
pub const MAX_ITERS: u32 = 128;

/// The relative tolerance on the distance: GJK stops when the gap between
/// its upper and lower distance bounds is below `REL × (distance + scale)`.
/// About `ε^(2/3)`: 3.7e-11 in f64, 2.4e-5 in f32.
#[inline]
pub(crate) fn rel_tol<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(2.4e-5),
        rec::Precision::F64 => T::from_f64(3.7e-11),
    }
}

/// The distance between two shapes and their closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<T: Real> {
    /// The distance between the full shapes (cores plus radii), ≥ 0.
    pub distance: T,
    /// The closest point on A, world space. When intersecting, a point of
    /// A ∩ B (within tolerance), equal or next to `point_b`.
    pub point_a: V3<T>,
    /// The closest point on B, world space.
    pub point_b: V3<T>,
    /// Unit vector from A towards B (`point_b − point_a` normalised when apart).
    /// When intersecting: the direction between the cores if they are apart,
    /// otherwise an arbitrary unit vector.
    pub normal: V3<T>,
    /// Whether the shapes overlap or touch. Touching means a distance below
    /// the GJK tolerance (`rel_tol × scale`: about 4e-11 of the shapes' size in
    /// f64, 2.4e-5 in f32); the distance is then reported as exactly 0.
    pub intersecting: bool,
    /// Support evaluations made.
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
}

/// Whether two shapes overlap (boolean GJK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// Whether the shapes overlap or touch (within the GJK tolerance).
    pub intersecting: bool,
    /// Support evaluations made.
    pub iterations: u32,
    /// How the iteration ended.
    pub status: Status,
}

/// The previous query's simplex, kept as the local support points on A and B
/// (as `Box2D`'s simplex cache keeps vertex indices), for [`distance_warm`].
///
/// A cache belongs to one pair of shapes (in that order): the points are
/// points of those shapes, re-placed in the new poses. Use a fresh
/// (`Default`) cache for another pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexCache<T: Real> {
    len: usize,
    local_a: [V3<T>; 4],
    local_b: [V3<T>; 4],
}

impl<T: Real> SimplexCache<T> {
    /// Number of cached points (0 before the first query).
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is cached.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A rotation as its three columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Basis<T: Real> {
    x: V3<T>,
    y: V3<T>,
    z: V3<T>,
}

impl<T: Real> Basis<T> {
    /// The rotated vector.
    #[inline]
    fn apply(&self, v: V3<T>) -> V3<T> {
        self.x * v.x() + self.y * v.y() + self.z * v.z()
    }

    /// The vector rotated back.
    #[inline]
    fn apply_inverse(&self, v: V3<T>) -> V3<T> {
        V3::<T>::new(self.x.dot(v), self.y.dot(v), self.z.dot(v))
    }
}

/// The configuration-space object `A − B` of two placed shapes' cores, in
/// A's local frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cso<'a, T: Real> {
    a: &'a Shape<T>,
    b: &'a Shape<T>,
    /// B's rotation relative to A.
    rot_b: Basis<T>,
    /// B's origin in A's frame.
    pos_b: V3<T>,
    /// A's pose: A's local frame to world.
    pub pose_a: Pose<T>,
    /// A's radius.
    pub radius_a: T,
    /// B's radius.
    pub radius_b: T,
    /// The larger of the shapes' scales: tolerances are relative to it.
    pub scale: T,
}

impl<'a, T: Real> Cso<'a, T> {
    /// The CSO of `a` and `b`.
    pub fn new(a: &Placed<'a, T>, b: &Placed<'a, T>) -> Self {
        let qa = a.pose.rotation;
        let qb = b.pose.rotation;
        let col = |e: V3<T>| qa.inverse_rotate(qb.rotate(e));
        Self {
            a: a.shape,
            b: b.shape,
            rot_b: Basis {
                x: col(V3::<T>::X),
                y: col(V3::<T>::Y),
                z: col(V3::<T>::Z),
            },
            pos_b: qa.inverse_rotate(b.pose.position - a.pose.position),
            pose_a: a.pose,
            radius_a: a.shape.radius(),
            radius_b: b.shape.radius(),
            scale: a.shape.scale().max(b.shape.scale()),
        }
    }

    /// The sum of the radii.
    #[inline]
    pub fn radius(&self) -> T {
        self.radius_a + self.radius_b
    }

    /// B's origin relative to A's, in A's frame.
    #[inline]
    pub fn offset(&self) -> V3<T> {
        self.pos_b
    }

    /// The core support point of `A − B` in direction `d` (A's frame).
    #[inline]
    pub fn support(&self, d: V3<T>) -> CsoPoint<T> {
        let la = self.a.core_support(d);
        let lb = self.b.core_support(self.rot_b.apply_inverse(-d));
        self.point(la, lb)
    }

    /// The CSO point of local points `la` on A and `lb` on B.
    #[inline]
    pub fn point(&self, la: V3<T>, lb: V3<T>) -> CsoPoint<T> {
        let b = self.rot_b.apply(lb) + self.pos_b;
        CsoPoint {
            w: la - b,
            a: la,
            b,
            local_a: la,
            local_b: lb,
        }
    }

    /// A point of A's frame in world space.
    #[inline]
    pub fn world_point(&self, p: V3<T>) -> V3<T> {
        self.pose_a.transform_point(p)
    }

    /// A direction of A's frame in world space.
    #[inline]
    pub fn world_vector(&self, v: V3<T>) -> V3<T> {
        self.pose_a.transform_vector(v)
    }

    /// The simplex in world space as `(w, a, b)` triples, for recording.
    pub fn world_simplex(&self, s: &Simplex<T>) -> Vec<(V3<T>, V3<T>, V3<T>)> {
        s.points()
            .iter()
            .map(|p| {
                (
                    self.world_vector(p.w),
                    self.world_point(p.a),
                    self.world_point(p.b),
                )
            })
            .collect()
    }
}

/// Why the GJK loop stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The simplex encloses the origin, or the closest point is within tolerance of it.
    Overlap,
    /// Boolean mode: the cores are within the radii.
    WithinRadii,
    /// Boolean mode: a separating axis was found.
    Separated,
    /// Upper and lower distance bounds met.
    Gap,
    /// The new support point was already in the simplex.
    Repeated,
    /// The distance stopped decreasing (rounding limit).
    NoProgress,
    /// [`MAX_ITERS`] support evaluations.
    MaxIterations,
}

/// The state GJK ended in, in A's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreResult<T: Real> {
    /// The final simplex (1 to 4 points).
    pub simplex: Simplex<T>,
    /// Its closest point to the origin: core distance vector `a − b`.
    pub v: V3<T>,
    /// Why it ended.
    pub end: End,
    /// Support evaluations.
    pub iterations: u32,
    /// The outcome.
    pub status: Status,
}

impl<T: Real> CoreResult<T> {
    /// Whether the cores overlap or touch.
    pub fn overlap(&self) -> bool {
        self.end == End::Overlap
    }
}

/// GJK on the cores of `cso`, starting from `simplex` (empty for a cold
/// start). With `radius`, stops as soon as the full shapes are known to
/// overlap (core distance ≤ radius) or to be apart (a separating axis).
pub(crate) fn run<T: Real>(cso: &Cso<'_, T>, mut simplex: Simplex<T>, radius: Option<T>) -> CoreResult<T> {
    let rel = rel_tol::<T>();
    let zero = rel * cso.scale;
    let mut iterations = 0;
    if simplex.is_empty() {
        let d = cso.offset();
        let d = if d.length_squared() > T::ZERO { d } else { V3::<T>::X };
        simplex.push(cso.support(d));
        iterations = 1;
    }
    let mut v = simplex.closest_to_origin();
    let end = loop {
        let vv = v.length_squared();
        if simplex.len() == 4 || vv <= zero * zero {
            break End::Overlap;
        }
        if iterations >= MAX_ITERS {
            break End::MaxIterations;
        }
        let p = cso.support(-v);
        iterations += 1;
        let vlen = vv.sqrt();
        let vw = v.dot(p.w);
        rec::push!("gjk iteration");
        rec::point!(cso "support w", cso.world_vector(p.w), rec::Rgba::RED);
        rec::point!("support on A", cso.world_point(p.a), rec::Rgba::RED);
        rec::point!("support on B", cso.world_point(p.b), rec::Rgba::ORANGE);
        rec::value!("upper bound", vlen - cso.radius());
        rec::value!("lower bound", vw / vlen - cso.radius());
        let end = 'step: {
            if let Some(r) = radius
                && vw > r * vlen
            {
                break 'step Some(End::Separated);
            }
            if vv - vw <= rel * (vlen + cso.scale) * vlen {
                break 'step Some(End::Gap);
            }
            if simplex.contains_w(p.w) {
                break 'step Some(End::Repeated);
            }
            let before = (simplex, v);
            simplex.push(p);
            rec::simplex!("after add", cso.world_simplex(&simplex));
            rec::pause!("after add");
            v = simplex.closest_to_origin();
            rec::simplex!("after reduce", cso.world_simplex(&simplex));
            rec::point!(cso "closest v", cso.world_vector(v), rec::Rgba::GREEN);
            rec::line!(cso "search direction", V3::<T>::ZERO, cso.world_vector(-v), rec::Rgba::BLUE);
            rec::pause!("after reduce");
            if let Some(r) = radius
                && v.length_squared() <= r * r
            {
                break 'step Some(End::WithinRadii);
            }
            if simplex.len() < 4 && v.length_squared() >= vv {
                (simplex, v) = before;
                break 'step Some(End::NoProgress);
            }
            None
        };
        rec::pop!();
        if let Some(end) = end {
            break end;
        }
    };
    rec::text!("gjk terminated: {end:?} after {iterations} iterations");
    let status = match end {
        End::MaxIterations => Status::MaxIterations,
        End::NoProgress | End::Repeated => {
            // At the rounding limit: converged unless the bounds are still far apart.
            let w = cso.support(-v).w;
            let vlen = v.length();
            if vlen * vlen - v.dot(w) <= rel.sqrt() * (vlen + cso.scale) * vlen {
                Status::Converged
            } else {
                Status::Degenerate
            }
        }
        _ => Status::Converged,
    };
    CoreResult {
        simplex,
        v,
        end,
        iterations,
        status,
    }
}

/// The distance between `a` and `b` (full shapes), their closest points and the normal.
pub fn distance<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Distance<T> {
    rec::shapes!(a, b);
    let cso = Cso::new(a, b);
    let core = run(&cso, Simplex::new(), None);
    finish_distance(&cso, &core)
}

/// [`distance`], starting from the simplex `cache` holds and storing the
/// final simplex back into it. A coherent next query usually ends after one
/// iteration.
pub fn distance_warm<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    cache: &mut SimplexCache<T>,
) -> Distance<T> {
    rec::shapes!(a, b);
    let cso = Cso::new(a, b);
    let mut simplex = Simplex::new();
    for i in 0..cache.len.min(4) {
        simplex.push(cso.point(cache.local_a[i], cache.local_b[i]));
    }
    rec::simplex!("warm start", cso.world_simplex(&simplex));
    let core = run(&cso, simplex, None);
    cache.len = core.simplex.len();
    for (i, p) in core.simplex.points().iter().enumerate() {
        cache.local_a[i] = p.local_a;
        cache.local_b[i] = p.local_b;
    }
    finish_distance(&cso, &core)
}

/// The full-shape distance from the core GJK result.
fn finish_distance<T: Real>(cso: &Cso<'_, T>, core: &CoreResult<T>) -> Distance<T> {
    let (ca, cb) = core.simplex.closest_points();
    let r = cso.radius();
    let dc = core.v.length();
    let tol = rel_tol::<T>() * cso.scale;
    let mut out = Distance {
        distance: T::ZERO,
        point_a: cso.world_point(ca),
        point_b: cso.world_point(cb),
        normal: cso.world_vector(fallback_direction(cso)),
        intersecting: true,
        iterations: core.iterations,
        status: core.status,
    };
    if !core.overlap() && dc > T::ZERO {
        // Unit normal from A to B in A's frame: the core distance vector is a − b.
        let n = face_normal(&core.simplex, core.v).unwrap_or(-core.v / dc);
        out.normal = cso.world_vector(n);
        if dc - r > tol {
            out.distance = dc - r;
            out.point_a = cso.world_point(ca + n * cso.radius_a);
            out.point_b = cso.world_point(cb - n * cso.radius_b);
            out.intersecting = false;
        } else {
            // The cores are within the radii: a common point on the core axis.
            let t = ((cso.radius_a + dc - cso.radius_b) * T::HALF).max(T::ZERO).min(dc);
            let p = cso.world_point(ca + n * t);
            out.point_a = p;
            out.point_b = p;
        }
    }
    rec::point!("closest on A", out.point_a, rec::Rgba::GREEN);
    rec::point!("closest on B", out.point_b, rec::Rgba::GREEN);
    rec::text!("distance {:?}, intersecting {}", out.distance, out.intersecting);
    out
}

/// When GJK ends on a well-shaped triangle, its plane normal (towards B):
/// exact to rounding even when the distance is tiny, where `−v / |v|` is not.
fn face_normal<T: Real>(s: &Simplex<T>, v: V3<T>) -> Option<V3<T>> {
    let [p0, p1, p2] = s.points() else {
        return None;
    };
    let (e1, e2) = (p1.w - p0.w, p2.w - p0.w);
    let n = e1.cross(e2);
    let size = e1.length_squared().max(e2.length_squared());
    if n.length_squared() <= T::from_f64(1e-6) * size * size {
        return None;
    }
    let n = n.try_normalize()?;
    Some(if n.dot(v) > T::ZERO { -n } else { n })
}

/// A unit vector (A's frame) for when no direction is defined: from A's
/// origin towards B's, or +Y when they coincide.
pub(crate) fn fallback_direction<T: Real>(cso: &Cso<'_, T>) -> V3<T> {
    cso.offset().try_normalize().unwrap_or(V3::<T>::Y)
}

/// Whether `a` and `b` overlap (or touch within tolerance). Stops at the
/// first separating axis or as soon as the cores are within the radii.
pub fn intersect<T: Real>(a: &Placed<'_, T>, b: &Placed<'_, T>) -> Overlap {
    rec::shapes!(a, b);
    let cso = Cso::new(a, b);
    let r = cso.radius();
    let core = run(&cso, Simplex::new(), Some(r));
    let intersecting = match core.end {
        End::Overlap | End::WithinRadii => true,
        End::Separated => false,
        _ => core.v.length() - r <= rel_tol::<T>() * cso.scale,
    };
    rec::text!("intersecting: {intersecting}");
    Overlap {
        intersecting,
        iterations: core.iterations,
        status: core.status,
    }
}

/// The GJK result EPA starts from: the final core simplex in A's frame.
pub(crate) fn core_simplex<T: Real>(cso: &Cso<'_, T>) -> CoreResult<T> {
    run(cso, Simplex::new(), None)
}
