//! Warm-started distance: the previous query's simplex (and, on curved
//! cores, its last two normals) kept per pair of shapes, so a coherent next
//! query starts where the last one ended.

use super::boxes;
use super::centers::Centers;
use super::cso::Cso;
use super::gjk::{Distance, distance_gjk_in, finish_distance, rel_tol, run_for_witnesses};
use super::handover::{from_normal, settle_for_turn};
use super::input;
use super::simplex::Simplex;
use super::touch::near_touching;
use super::touch::touches;
use super::witness::Witness;
use crate::collide::answer;
use crate::real::{Real, V3, Vector};
use crate::shape::Placed;
use cspace_recorder as rec;

/// The previous query's simplex, kept as the local support points on A and B
/// (as `Box2D`'s simplex cache keeps vertex indices), for [`distance_warm`].
///
/// A cache belongs to one pair of shapes (in that order): the points are
/// points of those shapes, re-placed in the new poses. Use a fresh
/// (`Default`) cache for another pair; a cache handed another pair (told
/// by the shapes' fingerprints) starts that query cold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexCache<T: Real> {
    /// The pair's fingerprint (`Shape::fingerprint` of A and of B).
    pair: (u64, u64),
    len: usize,
    local_a: [V3<T>; 4],
    local_b: [V3<T>; 4],
    /// The last unique normal in A's frame (zero when none): curved cores
    /// whose GJK converges slowly start the witness polish from it, two
    /// boxes the separating axis test (`boxes::distance_from`).
    normal: V3<T>,
    /// The unique normal before `normal` when both came from the polish
    /// (zero otherwise): a coherent motion turns the normal by about as
    /// much again, so the polish starts from the extrapolation.
    previous: V3<T>,
    /// The unique normal before `previous`, under the same conditions.
    earlier: V3<T>,
    /// Polishes from the normal that did not settle in a row (at most 5).
    failures: u8,
    /// Queries left that go to GJK without trying the polish: a pair whose
    /// polish does not settle (a cone's side along a hull's face) backs
    /// off for 1, 3, 7, … queries.
    wait: u8,
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

/// [`distance`](crate::gjk::distance), starting from the simplex `cache`
/// holds and storing the final simplex back into it. A coherent next query usually ends after one
/// iteration. On curved cores (a cylinder or cone) the last two unique
/// normals are kept too: Newton steps from their extrapolation (the witness
/// polish) usually certify the new answer to GJK's tolerance in two or
/// three evaluations, and GJK runs only when they do not (a pair whose
/// polish does not settle backs off for 1, 3, 7, … queries).
pub fn distance_warm<T: Real>(
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    cache: &mut SimplexCache<T>,
) -> Distance<T> {
    if let Some(out) = input::indirect(a, b, V3::<T>::ZERO, Distance::invalid, |s, a, b, _| {
        s.distance(distance_warm(a, b, cache))
    }) {
        return out;
    }
    let query = rec::enter_query();
    let out = if let Some(c) = Centers::of(a, b) {
        // Closed form: nothing to warm-start (the cache is left as it is).
        rec::shapes!(a, b);
        c.distance()
    } else {
        distance_warm_in(&Cso::new(a, b), a, b, cache)
    };
    answer::distance(&query, &out);
    out
}

/// [`distance_warm`] on `cso`, made from `a` and `b`, when neither core is
/// a point (those are closed forms).
fn distance_warm_in<T: Real>(
    cso: &Cso<'_, T>,
    a: &Placed<'_, T>,
    b: &Placed<'_, T>,
    cache: &mut SimplexCache<T>,
) -> Distance<T> {
    rec::shapes!(a, b);
    let pair = (a.shape.fingerprint(), b.shape.fingerprint());
    if cache.pair != pair {
        // Another pair's points and normals: start cold.
        *cache = SimplexCache {
            pair,
            ..SimplexCache::default()
        };
    }
    if let Some(out) = boxes::distance_from(cso, &mut cache.normal) {
        return out;
    }
    // Curved cores keep the last unique normal and polish from it (GJK
    // converges only linearly on a rim; the polish quadratically).
    let polish = cso.curved();
    if polish && cache.normal != V3::<T>::ZERO && cache.wait == 0 {
        rec::text!("warm start from the last normal");
        let (start, turn) = extrapolate::<T>(cache.earlier, cache.previous, cache.normal);
        if let Some(out) = from_normal(cso, start, rel_tol::<T>(), settle_for_turn(cso, turn))
            && out.lower_bound > near_touching(cso)
        {
            cache.earlier = cache.previous;
            cache.previous = cache.normal;
            cache.normal = cso.pose_a.inverse_transform_vector(out.normal);
            cache.failures = 0;
            return out;
        }
        // Not settled: the next 1, 3, 7, … queries of the pair go
        // straight to GJK.
        cache.failures = (cache.failures + 1).min(5);
        cache.wait = (1u8 << cache.failures) - 1;
    } else {
        cache.wait = cache.wait.saturating_sub(1);
    }
    cache.previous = V3::<T>::ZERO;
    cache.earlier = V3::<T>::ZERO;
    let mut simplex = Simplex::new();
    for i in 0..cache.len.min(4) {
        simplex.push(cso.point(cache.local_a[i], cache.local_b[i]));
    }
    rec::simplex!("warm start", cso.world_simplex(&simplex));
    let mut core = run_for_witnesses(cso, &mut simplex);
    let out = if simplex.len() < 4 && core.lower - cso.radius() <= near_touching(cso) {
        // Near touching: the answer, verdict included, is the cold query's
        // (its bounds depend on where GJK starts: a warm f32 query called
        // 24 of 20 000 exact touches touching that the cold one did not).
        rec::text!("near touching: the cold query");
        let warm = core.iterations;
        simplex.clear();
        let (mut out, _) = distance_gjk_in(cso, &mut simplex);
        out.iterations += warm;
        out
    } else {
        let touching = touches(cso, &mut simplex, &mut core, None);
        finish_distance(cso, &simplex, &core, rel_tol::<T>(), touching)
    };
    cache.len = simplex.len();
    for (i, p) in simplex.points().iter().enumerate() {
        cache.local_a[i] = p.local_a;
        cache.local_b[i] = p.local_b;
    }
    cache.normal = if !polish || out.intersecting || out.witness != Witness::Unique {
        V3::<T>::ZERO
    } else {
        cso.pose_a.inverse_transform_vector(out.normal)
    };
    out
}

/// The next normal of a coherent motion from the last three, `earlier`,
/// `previous` and `last` (unit, A's frame; zero where there is none), and
/// the last turn (`None`: no motion known, or too fast to extrapolate):
/// the last turned by as much again where the turn is small, and by the
/// turn's change too where three are known and it changes smoothly (a
/// steady rotation is then predicted to the cube of the turn instead of its
/// square: one Newton step fewer now and then, 4 % fewer instructions on
/// warm cylinder pairs; settling the sets within the smaller error instead
/// of the turn saved nothing).
fn extrapolate<T: Real>(earlier: V3<T>, previous: V3<T>, last: V3<T>) -> (V3<T>, Option<T>) {
    let turn = last - previous;
    if previous == V3::<T>::ZERO || turn.length() > T::from_f64(0.1) {
        return (last, None);
    }
    let linear = (last + turn).try_normalize().unwrap_or(last);
    let change = turn - (previous - earlier);
    if earlier == V3::<T>::ZERO || change.length() > T::from_f64(0.1) * turn.length() {
        return (linear, Some(turn.length()));
    }
    let quadratic = (last + turn + change).try_normalize().unwrap_or(linear);
    (quadratic, Some(turn.length()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DQuat, DVec3};

    /// A normal turning steadily by 0.01 rad a frame (about a tilted axis,
    /// so its path is a small circle, not a great one) is predicted from
    /// three to ~θ³ (from two, ~θ²); a jerky turn falls back to two.
    #[test]
    fn three_normals_predict_a_steady_turn_to_the_cube_of_the_turn() {
        let axis = DVec3::new(0.3, 1.0, 0.2).normalize();
        let n0 = DVec3::new(1.0, 0.1, -0.4).normalize();
        let at = |k: f64| DQuat::from_axis_angle(axis, 0.01 * k) * n0;
        let (quadratic, turn) = extrapolate::<f64>(at(0.0), at(1.0), at(2.0));
        let (linear, _) = extrapolate::<f64>(DVec3::ZERO, at(1.0), at(2.0));
        let (qe, le) = (
            quadratic.angle_between(at(3.0)),
            linear.angle_between(at(3.0)),
        );
        assert!(qe < 1e-6 && le > 1e-5, "quadratic {qe:e}, linear {le:e}");
        assert!((turn.unwrap() - (at(2.0) - at(1.0)).length()).abs() < 1e-15);
        // A turn that changes by more than a tenth of itself: linear.
        let jerk = DQuat::from_axis_angle(DVec3::Z, 0.005) * at(0.0);
        assert_eq!(extrapolate::<f64>(jerk, at(1.0), at(2.0)).0, linear);
        // No motion known, or a turn too fast: the last normal.
        assert_eq!(
            extrapolate::<f64>(DVec3::ZERO, DVec3::ZERO, at(2.0)),
            (at(2.0), None)
        );
        let far = DQuat::from_axis_angle(axis, 0.5) * at(2.0);
        assert_eq!(extrapolate::<f64>(at(0.0), at(2.0), far), (far, None));
    }
}
