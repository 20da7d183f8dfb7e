//! How far a sweep's contact can be trusted (`Sweep::witness`), from the
//! polished normal and the support sets at it, and which side's support
//! point the contact points snap to.

use super::certify::Unique;
use super::polish::Polished;
use crate::collide::cso::Cso;
use crate::collide::feature::{Feature, feature};
use crate::collide::{Status, Witness, gjk};
use crate::real::{Real, V3, Vector};
use cspace_recorder as rec;

/// [`contact_witness`] of a hit with `status`: without a tight bracket
/// the contact points are a crossing's at its upper end, which slides
/// along a nearly level side (swept MPR, a capsule's side 1e-9 rad from
/// a face: 0.31 of the size off, `Unique`), so they are approximate.
/// With it the side the contact points must snap to (`contact_witness`).
pub(super) fn hit_witness<T: Real>(
    cso: &Cso<'_, T>,
    p: &Polished<T>,
    status: Status,
) -> (Witness, Option<Unique>) {
    match contact_witness(cso, p) {
        (Witness::Unique, side) if status != Status::Converged => (Witness::Approximate, side),
        w => w,
    }
}

/// How far a hit's contact points and polished normal can be trusted,
/// from the support sets at the normal taken within its error (heights
/// within 30 × GJK's tolerance of the size in f64, 4e-3 in f32):
/// `Approximate` where the normal did not settle; `NotUnique` where the
/// contact is not a point (parallel features: neither a vertex, nor one
/// shape's support staying put under the probes, nor two crossing edges)
/// or the normal is not determined there; on a curved core a point the
/// probes did not see stay put is `Approximate` (a rim or side nearly
/// level with its partner, along which the normal's error slides the
/// contact); else `Unique`.
///
/// The normal is determined by a radius or a curved support (unless a
/// face within the normal's error is not the normal's own: then the
/// contact is on that face or at its boundary, `Approximate`), a face whose
/// own normal it is, or in f64 two crossing edges' common perpendicular.
/// Against a polytope's edge or vertex alone, or a face whose normal is
/// not `n` (the point at the face's boundary, to the precision's
/// rounding), any normal of the boundary's cone touches: an f32 hull
/// vertex on a plate's narrow face 2e-5 of the size from its edge kept a
/// normal 0.8 rad off, `Unique`. In f32 two edges within its normal's
/// error may as well be a vertex near a narrow face's edge, its nearby
/// edge nearly level (0.78 rad off as the edges' perpendicular).
///
/// Where the probes saw neither support stay put (a face tilted by less
/// than their turn), the crossing's barycentric points spread along the
/// face: with the witness comes the side whose support set at the normal
/// is a single point that does not turn with it (a vertex, not a rim
/// point), whose support point is the contact point.
fn contact_witness<T: Real>(cso: &Cso<'_, T>, p: &Polished<T>) -> (Witness, Option<Unique>) {
    let n = p.n;
    if !p.settled {
        return (Witness::Approximate, None);
    }
    // Radii, like a curved support, fix the normal only where they are more
    // than the rounding's (see `least` below).
    let rounded = cso.radius_a + cso.radius_b > T::from_f64(CURVED) * cso.scale;
    let f64_ = T::PRECISION == rec::Precision::F64;
    let turn = match T::PRECISION {
        rec::Precision::F32 => T::from_f64(3e-3),
        rec::Precision::F64 => T::from_f64(1e-7),
    };
    let db = cso.b_direction(-n);
    let eta = normal_eta(cso);
    let (fa, fb) = (
        feature(cso.shape_a(), n, eta),
        feature(cso.shape_b(), db, eta),
    );
    let face = |f: &Feature<T>, d: V3<T>| {
        f.count == 2 && f.flats[0].cross(f.flats[1]).cross(d).length() <= turn
    };
    // A face within the normal's error whose own normal `n` is not: the
    // contact is on the face (its normal is the contact's) or at its
    // boundary, which the polish could not tell. Neither radii nor a
    // curved support fix the normal there (a rim, a rounded cylinder, on a
    // plate's narrow face kept normals 7.8e-6 and 4.3e-6 rad off, `Unique`).
    let tilted = (fa.count == 2 && !face(&fa, n)) || (fb.count == 2 && !face(&fb, db));
    // The side whose support stayed put must be a point at the normal's
    // error too: in f32 the probes call a hull's short edge a vertex (the
    // contact then an edge on a face, 0.11 rad off, `Unique`), and beside
    // a shape 1e3 times larger they call a plate's face a point (a
    // rounded box's face on it, contact points 7.2 apart, `Unique`).
    let point = |f: &Feature<T>| f.count == 0 || f.radius > T::ZERO;
    let stayed = match p.unique {
        Some(Unique::A) => point(&fa),
        Some(Unique::B) => point(&fb),
        _ => false,
    };
    if f64_ && rounded && stayed && !tilted && !p.unconfirmed {
        return (Witness::Unique, None);
    }
    let crossing = fa.count == 1
        && fb.count == 1
        && fa.flats[0].cross(cso.b_vector(fb.flats[0])).length() > turn;
    let vertex = |f: &Feature<T>| f.count == 0 && f.radius == T::ZERO;
    // The contact point is the vertex's where the probes saw neither
    // support stay put, or where the side they saw stay put is not a point
    // (beside a box 1e3 times larger a plate's face stays put under them:
    // its corner was the contact, 0.24 off the larger box's, `Unique`).
    let side = match p.unique {
        Some(Unique::Neither | Unique::B) if vertex(&fa) && !stayed => Some(Unique::A),
        Some(Unique::Neither | Unique::A) if vertex(&fb) && !stayed => Some(Unique::B),
        _ => None,
    };
    if !(stayed || fa.count == 0 || fb.count == 0 || crossing) {
        return (Witness::NotUnique, side);
    }
    if !stayed && cso.curved() {
        return (Witness::Approximate, side);
    }
    let edges =
        f64_ && crossing && fa.flats[0].dot(n).abs() <= turn && fb.flats[0].dot(db).abs() <= turn;
    // A curved support fixes the normal only where its radius is more than
    // the rounding's: a needle's rim (radius 1.2e-9 of the size) on a
    // plate's narrow face kept a normal 0.13 rad off as `Unique`.
    let least = T::from_f64(CURVED) * cso.scale;
    let curved = fa.radius > least || fb.radius > least;
    // A rim point nearly level with its partner turns fast with the
    // normal (`Feature::radius`): f32's normal, off by up to ~1e-4 rad,
    // slides it by that turn (1e-2 of the size at 100 sizes a radian).
    let sliding = !f64_ && fa.radius.max(fb.radius) > T::from_f64(F32_TURN) * cso.scale;
    let witness = if p.unconfirmed || sliding {
        Witness::Approximate
    } else if face(&fa, n) || face(&fb, db) || edges || (!tilted && (rounded || curved)) {
        Witness::Unique
    } else if rounded || curved {
        Witness::Approximate
    } else {
        Witness::NotUnique
    };
    (witness, side)
}

/// The least turning radius (of the size) a curved support needs to fix
/// the contact normal (see `contact_witness`).
const CURVED: f64 = 1e-6;

/// The fastest a contact point claimed unique in f32 may move with its
/// normal, in sizes per radian: f32's normal is off by up to ~1e-4 rad,
/// which moves such a point by up to 1e-3 of the size.
const F32_TURN: f64 = 10.0;

/// The height within which a support set is taken at a polished normal:
/// its error (30 × GJK's tolerance of the size in f64, 4e-3 in f32).
pub(super) fn normal_eta<T: Real>(cso: &Cso<'_, T>) -> T {
    let eta = match T::PRECISION {
        rec::Precision::F32 => T::from_f64(4e-3),
        rec::Precision::F64 => T::from_f64(30.0) * gjk::rel_tol::<T>(),
    };
    eta * cso.scale
}
