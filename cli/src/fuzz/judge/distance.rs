//! Distance cases: GJK's bracket and witnesses, one invariance, f32 against f64.

use super::{Judge, Nums, Tolerance, converged_bracket, f32_vs_f64, nums, transform, with};
use crate::fuzz::generate::Rng;
use crate::fuzz::geom;
use cspace::model::{Algorithm, Answer, Outcome, Precision};
use cspace::{Status, Witness};

/// Judges a distance case (GJK).
pub(super) fn distance(j: &mut Judge<'_>, rng: &mut Rng) {
    if let Some(ans) = j.answer(j.q, Algorithm::Gjk) {
        judge_answer(j, rng, &ans);
    }
}

/// The checks of `ans`, the GJK distance of the judge's query.
fn judge_answer(j: &mut Judge<'_>, rng: &mut Rng, ans: &Answer) {
    let q = j.q;
    let n = nums(ans);
    let d = n.value;
    let tol = j.dist_tol(d);
    let subject = with(q, Algorithm::Gjk);
    let expect = |v: f64, t: f64| Some(("distance".to_owned(), serde_json::json!(v), t));
    let limit = ans.status != Status::Converged && q.precision == Precision::F32;
    let stall = j.stall_tol(d);
    converged_bracket(j, ans, Algorithm::Gjk, tol, Some(stall));
    if n.intersecting {
        // No axis may separate intersecting shapes by more than the tolerance.
        let centre = geom::normalize(geom::sub(q.b.position, q.a.position));
        let gap = j.pair.gap(centre);
        j.check(
            "gjk-bracket",
            gap,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            expect(gap, tol),
            || {
                format!(
                    "gjk says intersecting, but the axis between the centres separates by {gap:e}"
                )
            },
            limit || gap <= stall,
        );
    } else {
        let witness = geom::norm(geom::sub(n.point_b, n.point_a));
        // The answer's normal is its certificate's direction: the separation
        // along it is the lower bound, within the distance's tolerance. An
        // engine's answer without a normal is judged along its points'
        // direction, known to their rounding over their distance.
        let lower = j.pair.gap(n.normal);
        let given = matches!(
            ans.outcome,
            Outcome::Distance {
                normal: Some(_),
                ..
            }
        );
        let angle = if given {
            0.0
        } else {
            (j.tol.pos * j.reach / witness.max(f64::MIN_POSITIVE)).min(2.0)
        };
        let error = (witness - d).abs().max(d - lower - angle * j.size.max(d));
        j.check(
            "gjk-bracket",
            error,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            expect(lower, tol),
            || {
                format!(
                    "gjk distance {d:e} is not bracketed: witnesses {witness:e} apart, \
                     separation along the normal {lower:e}"
                )
            },
            limit || error <= stall,
        );
        if given {
            pair(j, ans, &n, limit);
        }
        // The witnesses lie in their shapes (seen from the axes and the normal).
        let outside = j.pair.outside(n.point_a, n.point_b, n.normal);
        j.check(
            "gjk-witness",
            outside,
            tol,
            subject.clone(),
            Some(geom::swapped(&subject)),
            None,
            || format!("a gjk witness point lies {outside:e} outside its shape"),
            limit || outside <= stall,
        );
    }
    let (name, t, k) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Gjk) {
        let e = (nums(&other).value / k - d).abs();
        let tol = j.dist_tol(d) + Tolerance::of(q.precision).pos * geom::reach(&t) / k;
        let dt = nums(&other).value;
        j.check(
            name,
            e,
            tol,
            subject.clone(),
            Some(with(&t, Algorithm::Gjk)),
            expect(dt / k, tol),
            || format!("gjk distance {d:e}, after `{name}` {dt:e} (÷{k})"),
            e <= stall + tol,
        );
    }
    f32_vs_f64(j, ans, Algorithm::Gjk, "distance");
}

/// The witnesses of an apart answer `n` are `distance · normal` apart:
/// slid along a face while keeping their distance they are not a closest
/// pair. GJK's stall bound excuses only an `approximate` witness (good to
/// about the square root of its gap); `limit`: the f32 answer did not
/// converge.
fn pair(j: &mut Judge<'_>, ans: &Answer, n: &Nums, limit: bool) {
    let d = n.value;
    let off = geom::norm(geom::sub(
        geom::sub(n.point_b, n.point_a),
        geom::scale(n.normal, d),
    ));
    let approximate = matches!(
        ans.outcome,
        Outcome::Distance {
            witness: Some(Witness::Approximate),
            ..
        }
    );
    let tol = j.dist_tol(d);
    let subject = with(j.q, Algorithm::Gjk);
    j.check(
        "gjk-pair",
        off,
        tol,
        subject.clone(),
        Some(geom::swapped(&subject)),
        None,
        || format!("gjk witnesses {off:e} off distance × normal (distance {d:e})"),
        limit || (approximate && off <= j.stall_tol(d)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace::model::{Query, QueryKind};
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    /// Fuzz seed 77 (f32), case 34486 shrunk: a box 164 long and 3.5e-3
    /// thick, a thin capsule crossing its long edge 3.6e-3 away. Its
    /// answer's points differ by 5e-5 across the edge (ε × the box's length),
    /// so their difference points 1.4e-2 rad off the normal.
    fn long_box_and_capsule() -> Query {
        let bits = |b: &[u32]| {
            b.iter()
                .map(|&x| f64::from(f32::from_bits(x)))
                .collect::<Vec<_>>()
        };
        let [hx, hy, hz] = bits(&[0x42a4_3319, 0x3ae6_01a7, 0x3afe_8ebc])[..] else {
            unreachable!()
        };
        let pa = bits(&[0x3f67_2d5e, 0xbf43_8e5c, 0xbf56_bbcb]);
        let pb = bits(&[0x3f66_6666, 0xbf45_1eb8, 0xbf59_999a]);
        let r = bits(&[0xbebf_3a12, 0x3f17_308f, 0x3f19_3906, 0x3ec8_95a9]);
        let [hh, radius] = bits(&[0x4073_3333, 0x3a22_877f])[..] else {
            unreachable!()
        };
        Query {
            id: None,
            query: QueryKind::Distance,
            precision: Precision::F32,
            algorithm: None,
            a: ShapeDecl::new(ShapeGeom::Box {
                half_extents: [hx, hy, hz],
            })
            .at([pa[0], pa[1], pa[2]], ShapeDecl::IDENTITY),
            b: ShapeDecl::new(ShapeGeom::Capsule {
                half_height: hh,
                radius,
            })
            .at([pb[0], pb[1], pb[2]], [r[0], r[1], r[2], r[3]]),
            translation: None,
        }
    }

    /// The bracket checks that fail when `doctor` changes cspace's answer to `q`.
    fn failing(q: &Query, doctor: impl Fn(&mut Outcome)) -> Vec<&'static str> {
        let mut j = Judge::new(q);
        let mut ans = crate::fuzz::judge::run(q, Algorithm::Gjk).expect("answers");
        doctor(&mut ans.outcome);
        judge_answer(&mut j, &mut Rng::for_case(1, 2), &ans);
        j.verdict
            .findings
            .iter()
            .filter(|f| !f.limit && f.check.starts_with("gjk-"))
            .map(|f| f.check)
            .collect()
    }

    fn normal(o: &mut Outcome) -> &mut [f64; 3] {
        match o {
            Outcome::Distance {
                normal: Some(n), ..
            } => n,
            other => panic!("not a distance with a normal: {other:?}"),
        }
    }

    #[test]
    fn a_long_f32_box_a_hair_away_is_bracketed_along_its_normal() {
        let q = long_box_and_capsule();
        assert_eq!(failing(&q, |_| {}), Vec::<&str>::new());
        let mut swapped = geom::swapped(&q);
        swapped.algorithm = None;
        assert_eq!(failing(&swapped, |_| {}), Vec::<&str>::new());
    }

    /// A box's vertex 0.01 above a unit box's face (f64): the answer's
    /// point on B slid along the face, `distance` apart still to 1e-11,
    /// is not a closest pair (a review: the bracket alone passed it).
    #[test]
    fn witnesses_slid_along_a_face_fail_the_bracket() {
        let q = Query {
            id: None,
            query: QueryKind::Distance,
            precision: Precision::F64,
            algorithm: None,
            a: ShapeDecl::new(ShapeGeom::Box {
                half_extents: [1.0, 1.0, 1.0],
            }),
            b: ShapeDecl::new(ShapeGeom::Box {
                half_extents: [0.5, 0.5, 0.5],
            })
            .at([0.0, 1.0 + 0.01 + 0.5 * 3f64.sqrt(), 0.0], {
                // A vertex of B straight down: (1, 1, 1) turned onto −y.
                let axis = geom::normalize([1.0, 0.0, -1.0]);
                let angle = std::f64::consts::PI - (1.0 / 3f64.sqrt()).acos();
                geom::axis_angle(axis, angle)
            }),
            translation: None,
        };
        assert_eq!(failing(&q, |_| {}), Vec::<&str>::new());
        let checks = failing(&q, |o| {
            if let Outcome::Distance { point_a, .. } = o {
                // 6e-6 along the face: `distance` changes by 1.8e-9.
                point_a[0] += 6e-6;
            }
        });
        assert_eq!(checks, vec!["gjk-pair"]);
    }

    #[test]
    fn a_normal_turned_off_the_certificate_fails_the_bracket() {
        // Turned by 1e-2 rad about the box's short axis: the separation along
        // it drops by ~0.8, past the f32 tolerance (2e-4 of the size, 0.03).
        let q = long_box_and_capsule();
        let checks = failing(&q, |o| {
            let n = normal(o);
            *n = geom::normalize(geom::add(*n, [1e-2, 0.0, 0.0]));
        });
        assert_eq!(checks, vec!["gjk-bracket"]);
    }
}
