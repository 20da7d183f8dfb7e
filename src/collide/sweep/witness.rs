//! How far a sweep's contact can be trusted (`Sweep::witness`), from the
//! polished normal and the support sets at it, and which side's support
//! point the contact points snap to.

use super::crossing::{Unique, support};
use super::polish::{NormalFrom, Polished};
use super::segments::{
    at_edge_end, at_side_end, crossing, crossing_edges, edge_feet, edges_sliding, past_segment_end,
};
use crate::collide::cso::Cso;
use crate::collide::feature::{Feature, Region, face_below, feature};
use crate::collide::outline::inside_hull_face;
use crate::collide::witness::{normal_tol, witness_tol};
use crate::collide::{Status, Witness, gjk};
use crate::real::{Real, V3, Vector};
use crate::shape::{Geom, Shape};
use cspace_recorder as rec;

/// Where a hit's contact lies, for [`hit_witness`]: its normal was
/// polished at one time and the contact is somewhere in the bracket.
pub(super) struct Blur<T: Real> {
    /// How far the polished point may be from the contact across the
    /// normal: the bracket times the motion's part across it.
    pub spread: T,
    /// A's support point at the contact and B's, A standing still (A's
    /// frame).
    pub at: (V3<T>, V3<T>),
    /// The touching tolerance (a length).
    pub touch: T,
    /// How far A moves over the bracket: the contact points are placed
    /// within that of the contact.
    pub slide: T,
    /// `K`'s support point at the polished normal, the normal, A's motion
    /// (A's frame) and the times it was polished at and the bracket's
    /// ends: how far the normal's error moved the points ([`moved`]).
    pub path: (V3<T>, V3<T>, V3<T>, [T; 3]),
    /// The reported time of impact, where the contact points are placed.
    pub toi: T,
}

/// [`contact_witness`] of a hit with `status`: without a tight bracket
/// the contact points are a crossing's at its upper end, which slides
/// along a nearly level side (swept MPR, a capsule's side 1e-9 rad from
/// a face: 0.31 of the size off, `Unique`), so they are approximate.
/// With it the side the contact points must snap to (`contact_witness`).
/// A `Unique` contact is also `Approximate` where A moves further over
/// the bracket than the witness tolerance (f32 along a grazing motion: a
/// `Converged` bracket 9e-5 wide slid the points 1.2e-4 of the size), or
/// where its normal cannot be trusted to the tolerance though the polish
/// settled: a vertex at a face's boundary within the touching tolerance
/// ([`at_face_boundary`]), or a normal fixed by a curvature too small
/// or blurred by the bracket ([`blurred`]). Where two crossing edges meet,
/// the contact points too: their common perpendicular's feet at the toi
/// ([`HitContact::feet`]).
pub(super) fn hit_witness<T: Real>(
    cso: &Cso<'_, T>,
    p: &Polished<T>,
    status: Status,
    blur: &Blur<T>,
) -> HitContact<T> {
    let eta = normal_eta(cso);
    let f = (
        feature(cso.shape_a(), p.n, eta),
        feature(cso.shape_b(), cso.b_direction(-p.n), eta),
    );
    let (witness, side) = judged(cso, p, status, blur, &f);
    // Two crossing edges touch at their common perpendicular, taken at the
    // reported toi.
    let (_, n, m, _) = blur.path;
    let feet =
        (witness != Witness::NotUnique && side.is_none() && crossing_edges(cso, (&f.0, &f.1), n))
            .then(|| edge_feet(cso, (&f.0, &f.1), n, m, blur.toi))
            .flatten();
    // Their feet slide along the edges by A's move across them over the
    // sine of their angle: over the bracket that must stay within half the
    // points' tolerance (a review, f32, a capsule's axis 0.1 rad across a
    // hull's edge, the reported toi 8.7e-6 early: the points 2.2e-4 of the
    // size off, `Unique`).
    let witness = match feet {
        Some(_) if witness == Witness::Unique && !feet_placed(cso, (&f.0, &f.1), blur) => {
            rec::text!(
                "crossing edges at a small angle: the bracket slides their feet past the tolerance"
            );
            Witness::Approximate
        }
        _ => witness,
    };
    HitContact {
        witness,
        side,
        feet,
    }
}

/// Whether two crossing edges' feet stay within half the witness
/// tolerance while A moves over the bracket ([`Blur::slide`]): they move
/// by up to that over the sine of the edges' angle.
fn feet_placed<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): (&Feature<T>, &Feature<T>),
    blur: &Blur<T>,
) -> bool {
    let sine = fa.flats[0].cross(cso.b_vector(fb.flats[0])).length();
    sine > T::ZERO && placed(blur.slide / sine, cso.scale)
}

/// How far a hit's contact can be trusted and where its points come from
/// ([`hit_witness`]).
pub(super) struct HitContact<T: Real> {
    /// How far the contact points can be trusted.
    pub witness: Witness,
    /// The side whose support point is the contact point, if one is.
    pub side: Option<Unique>,
    /// The contact points of two crossing edges (A's at t = 0, B's; A's
    /// frame), where the contact is theirs.
    pub feet: Option<(V3<T>, V3<T>)>,
}

/// [`contact_witness`] judged against the bracket, the slide and the
/// support sets' ends (see [`hit_witness`]).
fn judged<T: Real>(
    cso: &Cso<'_, T>,
    p: &Polished<T>,
    status: Status,
    blur: &Blur<T>,
    f: &(Feature<T>, Feature<T>),
) -> (Witness, Option<Unique>) {
    match contact_witness(cso, p, f) {
        (Witness::Unique, side) if status != Status::Converged => (Witness::Approximate, side),
        (Witness::Unique, side) if !placed(blur.slide, cso.scale) => {
            rec::text!(
                "A moves further over the bracket than half the witness tolerance: approximate"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if too_wide(cso, f, blur) => {
            rec::text!(
                "a thin face taken as its longest spread is wider than the contact points' tolerance: approximate"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if moved(cso, f, blur, side.or(p.unique)) => {
            rec::text!(
                "the normal's error may move the contact points past the witness tolerance: approximate"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if off_face(cso, p.n, f, blur) => {
            rec::text!(
                "a curved point off the face at the normal: the face's normal is not the contact's"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if at_face_boundary(cso, p.n, f, blur) => {
            rec::text!(
                "a point at a face's boundary within the tolerance: the face fixes no normal"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if at_edge_end(cso, f, blur) => {
            rec::text!("two edges meeting at an end of one: a vertex on an edge fixes no normal");
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if at_side_end(cso, f, blur) => {
            rec::text!("a point at the end of a curved side: the rim or apex fixes no normal");
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if past_segment_end(cso, f, blur) => {
            rec::text!(
                "the other shape's point lies at or past an end of a segment: its perpendicular is not the contact's normal"
            );
            (Witness::Approximate, side)
        }
        (Witness::Unique, side) if blurred(cso, p, f, blur.spread) => {
            rec::text!("the normal's curvature is too small, or the bracket blurs it: approximate");
            (Witness::Approximate, side)
        }
        w => w,
    }
}

/// Whether a face narrower than the support sets' height tolerance, taken
/// as its longest spread ([`Feature::thin`]), is wider than the contact
/// points may be off, against a segment or face of the other shape: the
/// contact is on the face's boundary, anywhere across that width from the
/// spread, and the points were placed on the spread. A vertex against it
/// is the contact point itself. (f32 conservative advancement, a capsule
/// across a triangle 2.5e-3 wide and 3.3 long, its three edges within
/// 1.5e-3 rad: the points on its long edge, 9.8e-4 of the size from the
/// contact on another, `Unique` with the normal right to 1.4e-8 rad.)
fn too_wide<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    let wide = |f: &Feature<T>, other: &Feature<T>| {
        f.thin && other.count >= 1 && !placed(f.across.length() + blur.slide, cso.scale)
    };
    wide(fa, fb) || wide(fb, fa)
}

/// Whether contact points placed within `len` of the contact (A's slide
/// over the bracket, a settling's last turn times the radii) leave half
/// the witness tolerance of the size `scale` to the normal's error: the
/// sweeps' rule for `Unique` points.
pub(super) fn placed<T: Real>(len: T, scale: T) -> bool {
    len <= T::HALF * witness_tol::<T>() * scale
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
fn contact_witness<T: Real>(
    cso: &Cso<'_, T>,
    p: &Polished<T>,
    (fa, fb): &(Feature<T>, Feature<T>),
) -> (Witness, Option<Unique>) {
    let n = p.n;
    if !p.settled {
        return (Witness::Approximate, None);
    }
    // Radii, like a curved support, fix the normal only where they are more
    // than the rounding's (see `least` below).
    let rounded = cso.radius_a + cso.radius_b > curved::<T>() * cso.scale;
    let f64_ = T::PRECISION == rec::Precision::F64;
    let db = cso.b_direction(-n);
    let slack = T::from_f64(64.0) * T::EPSILON * cso.scale + cso.rounding();
    // The face's own normal within the normal's tolerance of `n`: the
    // contact's normal is that face's, and `n` is reported for it (f32, a
    // polish stopped in an edge's cone beside a box's face, 1.9e-3 rad from
    // its normal, `Unique`). A hull's set within the normal's error may
    // span several faces, whose flats are no face's: there the face at `n`
    // to rounding is the test ([`hull_face_at`]), the flats only within
    // the set's turn.
    let face = |f: &Feature<T>, shape: &Shape<T>, d: V3<T>| {
        let level = if matches!(shape.geom, Geom::Hull(_)) {
            set_turn::<T>()
        } else {
            normal_tol::<T>()
        };
        f.count == 2
            && f.flats[0].cross(f.flats[1]).cross(d).length() <= level
            && hull_face_at(shape, d, slack)
    };
    // A face within the normal's error whose own normal `n` is not: the
    // contact is on the face (its normal is the contact's) or at its
    // boundary, which the polish could not tell. Neither radii nor a
    // curved support fix the normal there (a rim, a rounded cylinder, on a
    // plate's narrow face kept normals 7.8e-6 and 4.3e-6 rad off, `Unique`).
    let tilted = (fa.count == 2 && !face(fa, cso.shape_a(), n))
        || (fb.count == 2 && !face(fb, cso.shape_b(), db));
    // The side whose support stayed put must be a point at the normal's
    // error too: in f32 the probes call a hull's short edge a vertex (the
    // contact then an edge on a face, 0.11 rad off, `Unique`), and beside
    // a shape 1e3 times larger they call a plate's face a point (a
    // rounded box's face on it, contact points 7.2 apart, `Unique`). A
    // curved side (a segment that turns) is no point either: a cylinder's
    // side 1.5e-3 high looked put under them against a sphere 5.4e-6 in
    // radius, and the contact snapped to its rim, 9e-4 of the size off in
    // f64, `Unique`.
    let point = |f: &Feature<T>| f.count == 0;
    let stayed = match p.unique {
        Some(Unique::A) => point(fa),
        Some(Unique::B) => point(fb),
        _ => false,
    };
    // Two edges (or a side's line) nearly parallel, with radii or a
    // curved core: the contact slides along them as the distance's closest
    // points do (f32 box edges along a capsule's: 2e-2 of the size off,
    // `Unique`). Two polytopes' edges meet at their common perpendicular,
    // no sliver of GJK's behind it (a review: right at 1e-7 rad).
    let slide =
        (rounded || cso.curved()) && edges_sliding(cso, (fa, fb), cso.radius_a + cso.radius_b);
    if f64_ && rounded && stayed && !tilted && !p.unconfirmed && !slide {
        return (Witness::Unique, None);
    }
    let crossing = crossing(cso, (fa, fb));
    let vertex = |f: &Feature<T>| f.count == 0 && f.radius == T::ZERO;
    // The contact point is the vertex's where the probes saw neither
    // support stay put, or where the side they saw stay put is not a point
    // (beside a box 1e3 times larger a plate's face stays put under them:
    // its corner was the contact, 0.24 off the larger box's, `Unique`).
    let side = match p.unique {
        Some(Unique::Neither | Unique::B) if vertex(fa) && !stayed => Some(Unique::A),
        Some(Unique::Neither | Unique::A) if vertex(fb) && !stayed => Some(Unique::B),
        _ => None,
    };
    if !(stayed || fa.count == 0 || fb.count == 0 || crossing) {
        return (Witness::NotUnique, side);
    }
    if !stayed && cso.curved() {
        return (Witness::Approximate, side);
    }
    let edges = f64_ && crossing_edges(cso, (fa, fb), n);
    // A curved support fixes the normal only where its radius is more than
    // the rounding's: a needle's rim (radius 1.2e-9 of the size) on a
    // plate's narrow face kept a normal 0.13 rad off as `Unique`.
    let least = curved::<T>() * cso.scale;
    let curved = fa.radius > least || fb.radius > least;
    // A rim point nearly level with its partner turns fast with the
    // normal (`Feature::radius`): f32's normal, off by up to ~1e-4 rad,
    // slides it by that turn (1e-2 of the size at 100 sizes a radian).
    let sliding = !f64_ && fa.radius.max(fb.radius) > T::from_f64(F32_TURN) * cso.scale;
    let loose = !rounded
        && !face(fa, cso.shape_a(), n)
        && !face(fb, cso.shape_b(), db)
        && rim_loose(cso, (fa, fb));
    let witness = if p.unconfirmed || sliding || slide || loose {
        Witness::Approximate
    } else if face(fa, cso.shape_a(), n)
        || face(fb, cso.shape_b(), db)
        || edges
        || (!tilted && (rounded || curved))
    {
        Witness::Unique
    } else if rounded || curved || (tilted && (fa.count == 0 || fb.count == 0)) {
        // A vertex on a face within the normal's error whose own normal
        // `n` is not: a point contact, its normal not known.
        Witness::Approximate
    } else {
        Witness::NotUnique
    };
    (witness, side)
}

/// Whether a hull's support set at `d` is a face of the hull to rounding:
/// three points off a line within `slack` of the top along `d` (64 ε of
/// the size plus the supports' rounding, [`Cso::rounding`], which tilts a
/// polished normal by about that over the size: a review, a box 1e5 away
/// on a hull's face, its normal 1.9e-12 rad off, read `not_unique` without
/// it). Not more: a hull of 1 500 points has faces a few 1e-3 rad apart,
/// and 1e3 ε let f32 take a normal in a vertex's cone 1.4e-3 rad from the
/// face a point touched beside it for a face's own, `Unique`. True for other shapes, whose faces are exact. A hull's set taken
/// within the normal's error (f32: 4e-3 of the size) spans points of
/// several faces, and the plane of three of them is no face (an f32 polish
/// settled on such a plane, a vertex 4.3e-4 above it, 5.8e-2 rad from the
/// face the contact is on, `Unique`); the set's own flats may span a real
/// face beside it, so the test is along `d`.
fn hull_face_at<T: Real>(shape: &Shape<T>, d: V3<T>, slack: T) -> bool {
    !matches!(shape.geom, Geom::Hull(_))
        || face_below(shape, d, slack, || shape.core_support(d).dot(d))
}

/// How far a support set's directions may turn from level with the normal
/// and still count as level (a face's normal, an edge across it): the
/// normal's error at the precision.
pub(super) fn set_turn<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(3e-3),
        rec::Precision::F64 => T::from_f64(1e-7),
    }
}

/// Whether a rim point of either shape leaves the normal's turn about its
/// tangent to the other shape, which does not fix it to the tolerance:
/// a vertex (any normal of the rim's arc within the vertex's cone
/// touches), or an edge or another rim point whose direction is so near
/// the tangent that the rim's turn times the square of their sine is
/// below the rounding's over the normal's tolerance (the distance over
/// the normal is a valley that flat; f32, a cone's rim along a box's
/// edge on its face took a normal 0.76 rad off, `Unique`). A face, a
/// radius or a curved side fixes the turn.
fn rim_loose<T: Real>(cso: &Cso<'_, T>, (fa, fb): (&Feature<T>, &Feature<T>)) -> bool {
    let rim = |f: &Feature<T>| f.count == 0 && f.radius > T::ZERO;
    let least = T::from_f64(LOOSE) * T::EPSILON * cso.scale / normal_tol::<T>();
    // `f`'s rim (tangent `t`, A's frame) against `g` (direction `d` maps
    // `g`'s directions to A's frame).
    let loose = |f: &Feature<T>, t: V3<T>, g: &Feature<T>, d: &dyn Fn(V3<T>) -> V3<T>| {
        let along = |e: V3<T>| f.radius * t.cross(e).length_squared() < least;
        match g.count {
            0 if g.radius == T::ZERO => true,
            0 => along(d(g.tangent)),
            1 if g.radius == T::ZERO => along(d(g.flats[0])),
            _ => false,
        }
    };
    (rim(fa) && loose(fa, fa.tangent, fb, &|v| cso.b_vector(v)))
        || (rim(fb) && loose(fb, cso.b_vector(fb.tangent), fa, &|v| v))
}

/// Whether the normal's error may have moved the reported contact points
/// (`side`'s, the unique one) by more than the witness tolerance less
/// A's slide over the bracket. At the true normal `K`'s support point is
/// the contact, on A's path; at a normal `θ` off it is off by the
/// supports' turning rates times `θ`, across the normal, and each shape's
/// point by about that at most. So `K`'s support point's distance from the
/// path point across the normal, plus how far that path point may be from
/// the contact (the least over a few times of the bracket), bounds the
/// points' error without knowing `θ` or the rates (f32: a cone's rim on a
/// capsule, the normal 1.2e-3 rad off, points 6.7e-4 of the size off; a
/// nearly flat cone's rim turning ~150 sizes a radian, the normal 6.9e-5
/// rad off, 3.5e-4; both `Unique`). Along a segment of either support set
/// the support point is any of it, so that part is not measured; a rim
/// point moves along its tangent, so its move is the part measured over
/// the tangent's part across the normal and the segments (f64: a flat
/// cone's rim turning 4.5e5 a radian with its tangent nearly along a
/// cylinder's side, the normal 5.8e-11 rad off, slid 6.8e-8 of the size
/// along the side). A face of the other shape fixes the normal at its own,
/// and the point's move from there is computed; a vertex does not turn:
/// nothing to measure.
fn moved<T: Real>(
    cso: &Cso<'_, T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
    side: Option<Unique>,
) -> bool {
    let turns_a = fa.radius > T::ZERO || cso.radius_a > T::ZERO;
    let turns_b = fb.radius > T::ZERO || cso.radius_b > T::ZERO;
    let turns = match side {
        Some(Unique::A) => turns_a,
        Some(Unique::B) => turns_b,
        _ => turns_a || turns_b,
    };
    let limit = witness_tol::<T>() * cso.scale - blur.slide;
    // f32 cannot see a tilt across a face narrower than its set height:
    // the gap moves by the tilt times the width, below the gap's rounding
    // (4 ε × the reach) up to that over the width, which a rim's point on
    // the face follows at its turning rate (swept MPR, a rim on a plate's
    // narrow face 4.6e-5 wide: the normal 5.4e-4 rad off, the points 1.2e-4
    // of the size along the face, `Unique`).
    if T::PRECISION == rec::Precision::F32 {
        let rounding = T::from_f64(4.0) * T::EPSILON * (cso.scale + cso.offset().length());
        // A face taken as a segment is thin here from 16 ε × its length
        // across (`Feature::thin` waits for 64, a plain edge's spread being
        // ~ε × its length: one 2.3e-5 wide on a length of 3 was taken as an
        // edge, the points 1.06e-4 of the size off, `Unique`).
        let thin = |f: &Feature<T>| match f.region {
            Region::Segment(p, q) => {
                f.across.length() > T::from_f64(16.0) * T::EPSILON * (q - p).length()
            }
            _ => false,
        };
        // Both in A's frame: the face's spread across, the rim's tangent.
        let blind = |face: &Feature<T>, across: V3<T>, rim: &Feature<T>, tangent: V3<T>| {
            thin(face)
                && rim.radius * tangent.dot(across).abs() * rounding
                    > limit * across.length_squared()
        };
        if blind(fb, cso.b_vector(fb.across), fa, fa.tangent)
            || blind(fa, fa.across, fb, cso.b_vector(fb.tangent))
        {
            return true;
        }
    }
    if !turns {
        return false;
    }
    let (k, n, m, [t_e, lower, upper]) = blur.path;
    let turn = normal_tol::<T>();
    // A face of the other shape fixes the normal at its own, which `n`
    // must be within the normal's tolerance of (f32 takes a hull's face
    // within 3e-3 rad for the contact's, another's within 1e-3), and the reported point's move from
    // there to `n` is known exactly (f32, a cylinder's rim 1 200 sizes a
    // radian on a box face 3e-3 of its size, the normal 2.7e-3 rad off the
    // face's: 1.1e-3 of the size off, `Unique`).
    let face = |f: &Feature<T>| {
        (f.count == 2)
            .then(|| f.flats[0].cross(f.flats[1]).try_normalize())
            .flatten()
    };
    let onto = |f: V3<T>| if f.dot(n) < T::ZERO { -f } else { f };
    match (face(fa), face(fb).map(|f| cso.b_vector(f)), side) {
        (Some(_), Some(_), _)
        | (Some(_), None, Some(Unique::A))
        | (None, Some(_), Some(Unique::B)) => {
            return false;
        }
        (None, Some(f), _) => {
            let (f, at) = (onto(f), |d: V3<T>| support(cso, d).a);
            return f.cross(n).length() > turn || (at(f) - at(n)).length() > limit;
        }
        (Some(f), None, _) => {
            let (f, at) = (onto(f), |d: V3<T>| support(cso, d).b);
            return f.cross(n).length() > turn || (at(f) - at(n)).length() > limit;
        }
        (None, None, _) => {}
    }
    let span = segments(cso, (fa, fb));
    let across = |v: V3<T>| v - n * n.dot(v);
    let speed = across(m).length();
    let error = [t_e, lower, (lower + upper) * T::HALF]
        .map(|t| {
            let spread = (t - lower).abs().max((upper - t).abs()) * speed;
            across_all::<T>(across(k + m * t), span).length() + spread
        })
        .into_iter()
        .fold(T::MAX, T::min);
    // A rim point moves along its tangent: the part of that seen across
    // the normal and the segments is the part measured.
    let seen = |f: &Feature<T>, tangent: V3<T>| {
        if f.radius > T::ZERO {
            across_all::<T>(across(tangent), span).length()
        } else {
            T::ONE
        }
    };
    let seen = match side {
        Some(Unique::A) => seen(fa, fa.tangent),
        Some(Unique::B) => seen(fb, cso.b_vector(fb.tangent)),
        _ => T::ONE,
    };
    error > limit * seen
}

/// An orthonormal basis (zero where missing) of the directions of the
/// support sets' segments (A's frame; a thin hull face is its longest
/// spread).
fn segments<T: Real>(cso: &Cso<'_, T>, (fa, fb): (&Feature<T>, &Feature<T>)) -> [V3<T>; 2] {
    let mut span = [V3::<T>::ZERO; 2];
    let directions = [
        (fa.count == 1).then_some(fa.flats[0]),
        (fb.count == 1).then(|| cso.b_vector(fb.flats[0])),
    ];
    for (i, s) in directions.into_iter().enumerate() {
        if let Some(s) = s.and_then(|s| across_all::<T>(s, span).try_normalize()) {
            span[i] = s;
        }
    }
    span
}

/// `v` less its parts along the orthonormal (or zero) `span`.
fn across_all<T: Real>(v: V3<T>, span: [V3<T>; 2]) -> V3<T> {
    span.iter().fold(v, |v, &s| v - s * s.dot(v))
}

/// Whether a normal fixed by curvature (the radii, a rim's or a curved
/// side's turn) can be off by more than the witness tolerance (1e-7 rad
/// in f64, 1e-3 in f32). Polished `spread` off the contact across it, the
/// normal turns by `spread` over the curvature radius left free. And a
/// curvature radius below [`SMALL`] of the size (the scale is the larger
/// shape's) fixes no normal the polish found to the tolerance (a closed
/// form's or the distance query's is exempt): the polish's probes and its
/// edge and Newton steps work to the size, and beside a shape 1e3 times
/// larger a hull's vertex on a sphere, a cone's rim on a cylinder's side,
/// a cylinder's rim on a capsule's were 1.3e-7 to 1.3e-5 rad off,
/// `Unique`. A face at `n` fixes the normal whatever either.
fn blurred<T: Real>(
    cso: &Cso<'_, T>,
    p: &Polished<T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    spread: T,
) -> bool {
    let n = p.n;
    let radii = cso.radius_a + cso.radius_b;
    if !cso.curved() && radii == T::ZERO {
        return false;
    }
    let turn = normal_tol::<T>();
    if fa.count == 2 || fb.count == 2 {
        return false;
    }
    // The supports' summed curvature radius along a unit `w` across `n`
    // (A's frame): the radii in every direction, a rim's or a curved
    // side's turn along its tangent.
    let across = |v: V3<T>| v - n * n.dot(v);
    let (ta, tb) = (across(fa.tangent), across(cso.b_vector(fb.tangent)));
    let rho_along =
        |w: V3<T>| radii + fa.radius * ta.dot(w) * ta.dot(w) + fb.radius * tb.dot(w) * tb.dot(w);
    // A segment's direction fixes the normal's turn about it (the normal is
    // perpendicular to it): only the turn across it is left to curvature;
    // two crossing segments fix the normal.
    let segment = |f: &Feature<T>, v: V3<T>| {
        if f.count == 1 {
            across(v).try_normalize()
        } else {
            None
        }
    };
    let rho = match (
        segment(fa, fa.flats[0]),
        segment(fb, cso.b_vector(fb.flats[0])),
    ) {
        (Some(f), Some(g)) if f.cross(g).length() > turn => return false,
        (Some(f), _) | (None, Some(f)) => rho_along(n.cross(f)),
        (None, None) => {
            // The least eigenvalue of the 2 × 2 turn across `n`.
            let u = across(if n.x().abs() < T::from_f64(0.6) {
                V3::<T>::X
            } else {
                V3::<T>::Y
            })
            .try_normalize()
            .unwrap_or(V3::<T>::Z);
            let w = n.cross(u);
            let (p, q) = (rho_along(u), rho_along(w));
            let r = fa.radius * ta.dot(u) * ta.dot(w) + fb.radius * tb.dot(u) * tb.dot(w);
            let half = (p - q) * T::HALF;
            (p + q) * T::HALF - (half * half + r * r).sqrt()
        }
    };
    // The curvature that fixes the normal: the radii, a curved side's
    // across its segment, the smaller of two rims.
    let side = |f: &Feature<T>| if f.count == 1 { f.radius } else { T::ZERO };
    let rims = if fa.count == 0 && fb.count == 0 && fa.radius > T::ZERO && fb.radius > T::ZERO {
        fa.radius.min(fb.radius)
    } else {
        T::ZERO
    };
    let small = radii + side(fa) + side(fb) + rims;
    (p.from == NormalFrom::Probes && small > T::ZERO && small < T::from_f64(SMALL) * cso.scale)
        || (rho > T::ZERO && spread > turn * rho)
}

/// The normal of a face of A or B (A's frame, from A towards B) within
/// the witness tolerance of the polished normal `n` (f64): the contact's
/// normal is that face's, exactly. The polish stops 1e-8 to 2.5e-8 rad
/// off it, which a rim on the face slides by its turn (1e-8 to 1.2e-7 of
/// the size off, `Unique`).
pub(super) fn face_at<T: Real>(cso: &Cso<'_, T>, n: V3<T>) -> Option<V3<T>> {
    // Polytope cores without radii: the polish's face is exact already.
    if T::PRECISION != rec::Precision::F64
        || !(cso.curved() || cso.radius_a + cso.radius_b > T::ZERO)
    {
        return None;
    }
    let turn = T::from_f64(1e-7);
    let eta = normal_eta(cso);
    let oriented = |f: V3<T>| {
        let f = f.try_normalize()?;
        let f = if f.dot(n) < T::ZERO { -f } else { f };
        (f.cross(n).length() <= turn).then_some(f)
    };
    let fa = feature(cso.shape_a(), n, eta);
    if fa.count == 2
        && !fa.thin
        && let Some(f) = oriented(fa.flats[0].cross(fa.flats[1]))
    {
        return Some(f);
    }
    let fb = feature(cso.shape_b(), cso.b_direction(-n), eta);
    if fb.count == 2 && !fb.thin {
        return oriented(cso.b_vector(fb.flats[0].cross(fb.flats[1])));
    }
    None
}

/// Whether a point of one shape (A's or B's at the contact, [`Blur::at`])
/// touches the other's face at unit normal `n` (A's frame) so near that
/// face's boundary that the face's normal is not the contact's to the
/// precision (an f32 cone's apex on a plate's narrow face 7e-8 wide took
/// a broad face's normal, 1.57 rad off, `Unique`; in f64 a needle's apex
/// on a hull's edge took a side face's, 2.1 rad off the constructed one):
/// a vertex within the touching tolerance, where any normal of the
/// boundary's cone touches; a curved point (a rim's turn, a radius)
/// within A's slide over the bracket and the rounding, where tilting the
/// normal by its tolerance moves the point across the boundary by less
/// ([`rate_along`]; f64, a needle's rim 2.3e-7 in radius at a hull cap's
/// edge took the cap's normal, 7.9e-5 rad off the constructed one,
/// `Unique`).
fn at_face_boundary<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    f: &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    point_on_face(cso, n, f, blur.at).is_some_and(|on| {
        let margin = if on.rate == T::ZERO {
            blur.touch
        } else {
            blur.slide + T::from_f64(16.0) * T::EPSILON * cso.scale
        };
        on.inside < T::MAX && margin - on.inside >= on.rate * normal_tol::<T>()
    })
}

/// A point of one shape (a vertex, a rim's or a rounded one) against the
/// other's face at unit normal `n` (A's frame): how far it lies inside the
/// face across its nearest boundary and how fast it crosses that boundary
/// as the normal tilts towards it ([`rate_along`]).
struct OnFace<T: Real> {
    /// How far inside (negative past the boundary; `T::MAX` where the
    /// face's region cannot say).
    inside: T,
    /// Lengths per radian of tilt.
    rate: T,
    /// Whether the point is curved: a rim's turn or a radius.
    curved: bool,
}

/// [`OnFace`] of the point of one side against the face of the other,
/// the points `(q_a, q_b)` A's and B's (A's frame); `None` unless one
/// support set is a face and the other a point.
fn point_on_face<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    (fa, fb): &(Feature<T>, Feature<T>),
    (q_a, q_b): (V3<T>, V3<T>),
) -> Option<OnFace<T>> {
    let eta = normal_eta(cso);
    let on = |(inside, way): (T, V3<T>), f: &Feature<T>, tangent: V3<T>, radius: T| OnFace {
        inside,
        rate: rate_along(f, tangent, radius, way),
        curved: f.radius + radius > T::ZERO,
    };
    if fb.count == 2 && fa.count == 0 {
        let at = inside_at(
            cso.shape_b(),
            fb,
            (cso.b_direction(-n), eta),
            cso.b_local_point(q_a),
        );
        Some(on(at, fa, cso.b_direction(fa.tangent), cso.radius_a))
    } else if fa.count == 2 && fb.count == 0 {
        let at = inside_at(cso.shape_a(), fa, (n, eta), q_b);
        Some(on(at, fb, cso.b_vector(fb.tangent), cso.radius_b))
    } else {
        None
    }
}

/// The contact points of [`Blur::at`] with A at the bracket's lower end.
fn lower_end<T: Real>(blur: &Blur<T>) -> (V3<T>, V3<T>) {
    let (_, _, m, [t_e, lower, _]) = blur.path;
    let back = m * (lower - t_e);
    (blur.at.0 + back, blur.at.1 - back)
}

/// Whether a curved point of one shape (A's or B's support point, A at
/// the bracket's lower end) lies off the other's face at unit normal `n`
/// (A's frame) by more than the witness tolerance, or than the normal's
/// tolerance times the point's rate across the boundary it is past
/// ([`rate_along`]): the contact is then on the face's rounded-over edge
/// in `K`, whose normal is not the face's (a cylinder's rim 2e-3 in
/// radius on a box's edge, its normal 1.3e-4 rad off the face's, took the
/// face's normal, `Unique`, f64; a cone's rim 1.3e-4 rad from a hull's
/// edge, 7.1e-11 past it, took the cap's normal 2e-2 rad off).
fn off_face<T: Real>(
    cso: &Cso<'_, T>,
    n: V3<T>,
    f: &(Feature<T>, Feature<T>),
    blur: &Blur<T>,
) -> bool {
    // The point's rate across the boundary it is past: a rim along the
    // boundary is off the face however little it moves.
    let point_tol = witness_tol::<T>() * cso.scale;
    point_on_face(cso, n, f, lower_end(blur))
        .is_some_and(|on| on.curved && -on.inside > point_tol.min(on.rate * normal_tol::<T>()))
}

/// [`inside`], a hull's face included: its points within `eta` of the
/// support along local direction `d` (the feature's), taken again (a
/// rounded point beyond a hull face's edge took the face's normal, 1.2e-5
/// rad off, `Unique`, f64). Where `d` is a face's own normal to rounding,
/// that face alone: within the set's height the faces nearly level with
/// it merge into one region (f32, a point onto a hull's face beside one
/// 1.25e-3 rad from it took the neighbour's normal, 1.3e-3 rad off, its
/// point 7e-3 past the neighbour's edge but inside the merged region,
/// `Unique`).
fn inside_at<T: Real>(
    shape: &Shape<T>,
    f: &Feature<T>,
    (d, eta): (V3<T>, T),
    q: V3<T>,
) -> (T, V3<T>) {
    match (&shape.geom, f.region) {
        (Geom::Hull(hull), Region::HullFace(..) | Region::Unknown) if f.count == 2 => {
            let level = T::from_f64(64.0) * T::EPSILON * shape.scale();
            inside_hull_face(hull.points(), d, level.min(eta), q)
                .or_else(|| inside_hull_face(hull.points(), d, eta, q))
                .unwrap_or((T::MAX, V3::<T>::ZERO))
        }
        _ => inside(f, q),
    }
}

/// How far local point `q` lies inside face `f`'s region, across its
/// boundary (negative outside; `T::MAX` where the region cannot say), and
/// the unit direction out across the nearest boundary (zero where none).
fn inside<T: Real>(f: &Feature<T>, q: V3<T>) -> (T, V3<T>) {
    match f.region {
        Region::Rect(c, u, v) => {
            let (ul, vl) = (u.length(), v.length());
            if ul <= T::ZERO || vl <= T::ZERO {
                return (T::ZERO, V3::<T>::ZERO);
            }
            let d = q - c;
            let (x, y) = (d.dot(u) / ul, d.dot(v) / vl);
            let (gx, gy) = (ul - x.abs(), vl - y.abs());
            let sign = |t: T| if t < T::ZERO { -T::ONE } else { T::ONE };
            let (ox, oy) = (u * (sign(x) / ul), v * (sign(y) / vl));
            let way = if gx < T::ZERO && gy < T::ZERO {
                (ox * -gx + oy * -gy).try_normalize().unwrap_or(ox)
            } else if gx < gy {
                ox
            } else {
                oy
            };
            (gx.min(gy), way)
        }
        Region::Disc(c, axis, r) => {
            let d = q - c;
            let radial = d - axis * d.dot(axis);
            (
                r - radial.length(),
                radial.try_normalize().unwrap_or(V3::<T>::ZERO),
            )
        }
        _ => (T::MAX, V3::<T>::ZERO),
    }
}

/// How fast a curved point of one shape (support feature `f`, its
/// tangent mapped into the other shape's frame as `tangent`, the shape's
/// radius `radius`) moves along unit direction `way` as the normal tilts
/// towards it, in lengths per radian: a radius at its full rate, a rim
/// point by its turn times its tangent's part along `way`, twice (the
/// tilt's part along the tangent moves it, and the move's part along
/// `way` counts). A rim nearly along a face's edge hardly moves across it:
/// its curvature fixes no normal there (f64, a cone's rim 1.3e-4 rad
/// from a hull's edge kept the cap's normal, 2e-2 rad off, `Unique`).
fn rate_along<T: Real>(f: &Feature<T>, tangent: V3<T>, radius: T, way: V3<T>) -> T {
    let c = tangent.dot(way);
    f.radius * c * c + radius
}

/// The least curvature radius (of the size) that fixes a unique normal
/// to the witness tolerance beside a larger shape (see [`blurred`]).
const SMALL: f64 = 1e-2;

/// Roundings of the size over the normal's tolerance: the least turn
/// times squared sine a rim needs against an edge ([`rim_loose`]).
const LOOSE: f64 = 16.0;

/// The least turning radius (of the size) a curved support or the radii
/// need to fix the contact normal (see `contact_witness`): the core
/// points' error over it turns the normal. In f64 1e-6; in f32, whose
/// rounding (6e-8 of the size) over its normal's tolerance (1e-3 rad) is
/// 6e-5 already, 1e-4 (a capsule 8.4e-6 in radius, 1e-5 of the size, on a
/// hull's edge kept a normal 1e-2 rad off, `Unique`).
pub(super) fn curved<T: Real>() -> T {
    match T::PRECISION {
        rec::Precision::F32 => T::from_f64(1e-4),
        rec::Precision::F64 => T::from_f64(1e-6),
    }
}

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
