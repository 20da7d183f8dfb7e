//! The closest points and normal of apart cores from GJK's final simplex:
//! GJK's own where they are exact, else the support sets' (`sets`) or the
//! witness polish's (`witness::polish`), with how far they can be trusted.
//! Shared by the distance query and EPA's touching answers.

use super::cso::Cso;
use super::gjk::{CoreResult, face_normal, rel_tol};
use super::sets;
use super::simplex::Simplex;
use super::witness::{self, Witness};
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// The cores' closest points and normal when apart, polished: GJK's, or
/// the polish's (`witness::polish`) where they are certified points of the
/// shapes and settled, or at least no farther apart.
pub(crate) struct Separation<T: Real> {
    /// The closest point of A's core, in A's frame.
    pub a: V3<T>,
    /// The closest point of B's core, in A's frame.
    pub b: V3<T>,
    /// Unit normal from A to B, in A's frame.
    pub normal: V3<T>,
    /// The best certified lower bound of the cores' distance.
    pub lower: T,
    /// How far the points can be trusted.
    pub witness: Witness,
    /// Support evaluations the polish made.
    pub evaluations: u32,
}

/// GJK's closest points of the cores from its final `simplex`, kept in
/// the simplex's plane ([`Simplex::closest_points_on_plane`]): their
/// distance is the answer's upper bound, curved cores' too (a cone's
/// apex over a plate's narrow face 4.8e-7 wide: the weighted sums,
/// scaled by their sliver's rounding, read 5.6e-13 below the distance,
/// the bracket `[u, u]` missing it).
pub(super) fn closest_points<T: Real>(simplex: &Simplex<T>) -> (V3<T>, V3<T>) {
    simplex.closest_points_on_plane()
}

/// [`Separation`] of apart cores from GJK's final `simplex` and `core`.
pub(crate) fn separation<T: Real>(
    cso: &Cso<'_, T>,
    simplex: &Simplex<T>,
    core: &CoreResult<T>,
) -> Separation<T> {
    let (ca, cb) = closest_points(simplex);
    let n = face_normal(simplex, core.v).unwrap_or(-core.v / core.v.length());
    let distinct = simplex.distinct();
    let on_feature = simplex.settled(
        distinct,
        cso.scale,
        core.v.length(),
        witness::witness_tol::<T>() * cso.scale,
    );
    separation_at(cso, core, (ca, cb, distinct, on_feature), n)
}

/// Whether GJK's bounds (`upper`, the points' distance, and `core`'s
/// lower bound) are further apart than their rounding: it stopped on its
/// tolerance, and the features may not be the closest (the points are off
/// by up to √(2·D·gap)).
fn loose<T: Real>(cso: &Cso<'_, T>, core: &CoreResult<T>, upper: T) -> bool {
    upper - core.lower
        > T::from_f64(64.0) * T::EPSILON * (upper + cso.scale + cso.offset().length())
}

/// [`Separation`] from the support sets' closest points `c`, certified on
/// the shapes, classified at height tolerance `eta`.
fn from_sets<T: Real>(
    cso: &Cso<'_, T>,
    core: &CoreResult<T>,
    c: &sets::Closest<T>,
    eta: T,
) -> Separation<T> {
    let (witness, _) = witness::classify(cso, c.normal, eta, (c.a, c.b), (2, 2));
    Separation {
        a: c.a,
        b: c.b,
        normal: c.normal,
        lower: core.lower.max(c.lower),
        witness,
        evaluations: 2,
    }
}

/// [`separation`] from GJK's closest points `(ca, cb)` and unit normal `n`
/// (A's frame), already computed by the caller; `distinct` counts the
/// final simplex's support points on A and on B, `on_feature` says whether
/// it lies on one feature of the CSO ([`Simplex::on_feature`]).
pub(super) fn separation_at<T: Real>(
    cso: &Cso<'_, T>,
    core: &CoreResult<T>,
    (ca, cb, distinct, on_feature): (V3<T>, V3<T>, (usize, usize), bool),
    n: V3<T>,
) -> Separation<T> {
    let eta = T::from_f64(30.0) * rel_tol::<T>() * cso.scale;
    if !cso.curved() {
        // GJK's points are the closest points of its simplex: exact unless
        // the simplex is off the CSO's features, its certificate is loose,
        // a side's point is a lone vertex whose support set is an edge or a
        // face (an edge shorter than √tolerance × size, nearly
        // perpendicular to the normal, moves the distance by less than
        // GJK's gap along its whole length), or a side's edge lies on a
        // face of its set; the support sets place those (`sets`), else the
        // polish (a lone vertex) or GJK's points.
        let (witness, doubt) = witness::classify(cso, n, eta, (ca, cb), distinct);
        let lone = doubt == witness::Doubt::LoneVertex;
        let gjk = Separation {
            a: ca,
            b: cb,
            normal: n,
            lower: core.lower,
            witness,
            evaluations: 0,
        };
        let upper = (cb - ca).length();
        let loose = loose(cso, core, upper);
        if doubt == witness::Doubt::None && on_feature && !loose {
            return gjk;
        }
        rec::text!("GJK's points in doubt ({doubt:?}, on a feature {on_feature}, loose {loose})");
        // The sets must hold the closest features at GJK's normal, off by
        // up to √(2·gap / D) rad: their heights spread by that times the size.
        let gap = (upper - core.lower).max(T::ZERO);
        let spread = T::from_f64(4.0) * cso.scale * (T::TWO * gap / upper.max(cso.scale)).sqrt();
        let (eta_a, eta_b) = witness::set_etas(cso, eta);
        if let Some(c) = sets::closest(cso, n, (eta_a.max(spread), eta_b.max(spread)), (ca, cb)) {
            rec::text!("closest points of the support sets");
            return from_sets(cso, core, &c, eta);
        }
        if !lone {
            // GJK stopped on its tolerance and the sets could not place the
            // points: they are only as good as its gap (a second review:
            // 3.1e-3 of the size off 3 800 sizes away, said `Unique`).
            let witness = if loose && gjk.witness == Witness::Unique {
                Witness::Approximate
            } else {
                gjk.witness
            };
            return Separation { witness, ..gjk };
        }
        let p = witness::polish(cso, n, eta);
        if p.certified && p.witness == Witness::Unique {
            // The polish's points are the closest points; on polytopes the
            // normal is their direction (the polish's own may be the
            // edge's perpendicular, up to its tolerance off in f32).
            let d = p.b - p.a;
            let far = d.length() > T::from_f64(1e3) * T::EPSILON * cso.scale;
            return Separation {
                a: p.a,
                b: p.b,
                normal: if far { d / d.length() } else { p.normal },
                lower: core.lower.max(p.lower),
                witness: Witness::Unique,
                evaluations: 2 * p.steps,
            };
        }
        // Not settled. GJK's points stand where the polish's certified
        // points agree with them to the witness tolerance (the usual case:
        // GJK was right), and in f32, where the sets span ~7e-4 of the size
        // and a lone vertex on an edge is common; otherwise (f64) the
        // polish says the answer is approximate.
        let agrees = p.certified
            && (p.a - ca).length().max((p.b - cb).length())
                <= witness::witness_tol::<T>() * cso.scale;
        if agrees || T::PRECISION == rec::Precision::F32 {
            return gjk;
        }
        return polished_separation(cso, core, (ca, cb, n), &p);
    }
    // A cone's apex against a polytope (or another apex), where GJK ran
    // to its rounding: both supports are finite sets, which place the
    // points as a polytope pair's (a plate's narrow face far away: the
    // polish's points were 2.9e-8 of the size off, `Unique`). GJK stopped
    // early (the hand-over) leaves a normal the sets may not hold. GJK
    // stopped on its gap tolerance leaves a normal off by up to √(2·gap /
    // D): each set is taken as wide as that tilts its own shape (f32, a
    // cone's apex 757 from a capsule 1 000 times smaller: 9.7e-3 rad, the
    // capsule's segment taken for one end, its point 2.1 off, `Unique`).
    let upper = (cb - ca).length();
    let turn = (T::TWO * (upper - core.lower).max(T::ZERO) / upper.max(cso.scale)).sqrt();
    let (eta_a, eta_b) = witness::set_etas(cso, eta);
    let four = T::from_f64(4.0);
    let etas = (
        eta_a.max(four * turn * cso.scales.0),
        eta_b.max(four * turn * cso.scales.1),
    );
    if let Some(c) = (sets::finite(cso, n) && !loose(cso, core, upper))
        .then(|| sets::closest(cso, n, etas, (ca, cb)))
        .flatten()
    {
        rec::text!("a cone's apex: closest points of the support sets");
        return from_sets(cso, core, &c, eta);
    }
    let mut p = witness::polish(cso, n, eta);
    // Narrow first sets see a face GJK's normal is tilted from as one of
    // its ends: far away the Newton step toward the face's middle is
    // rejected (a rim over a plate's narrow face 5 000 sizes away, GJK's
    // normal 9e-6 rad off: 45 % of warm starts `Approximate`). Again with
    // sets as wide as that tilt spreads them, kept where it settles.
    let settle = four * turn * cso.scale;
    if p.witness != Witness::Unique && settle > eta {
        let wide = witness::settle_and_polish(cso, n, settle, eta);
        if wide.certified && wide.witness == Witness::Unique {
            p = wide;
        }
    }
    polished_separation(cso, core, (ca, cb, n), &p)
}

/// [`Separation`] from GJK's points `(ca, cb)` and normal `n` and the
/// polish `p` from there: the polish's points where they are certified and
/// settled, or at least no farther apart.
fn polished_separation<T: Real>(
    cso: &Cso<'_, T>,
    core: &CoreResult<T>,
    (ca, cb, n): (V3<T>, V3<T>, V3<T>),
    p: &witness::Polished<T>,
) -> Separation<T> {
    // Parallel sets' points too, where the polish placed a pair at its
    // normal: GJK's differ by its simplex's closest point, whose direction
    // is only as good as its gap (7e-3 rad off the polish's normal in f32).
    let polished =
        p.certified && (p.witness == Witness::Unique || (p.b - p.a).length() <= (ca - cb).length());
    // GJK's points keep GJK's normal unless the polish's is certified at
    // least as well and the points are a pair along it to the witness
    // tolerance (radii are offset along it; GJK's pair, along its
    // simplex's closest point, was 7e-3 rad off it in f32).
    let along = |m: V3<T>| (cb - ca).cross(m).length() <= witness::witness_tol::<T>() * cso.scale;
    let (a, b, normal) = if polished {
        (p.a, p.b, p.normal)
    } else if p.lower >= core.lower && along(p.normal) {
        (ca, cb, p.normal)
    } else {
        (ca, cb, n)
    };
    Separation {
        a,
        b,
        normal,
        lower: core.lower.max(p.lower),
        witness: p.witness,
        evaluations: 2 * p.steps,
    }
}
