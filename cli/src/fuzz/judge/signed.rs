//! Signed-distance cases.
//!
//! The signed distance is `max` over unit `u` of `gap(u) = min B·u − max A·u`
//! (the distance when apart, `−depth` when overlapping), so it is the sign of
//! intersect, the distance query apart and minus EPA's depth overlapping; its
//! normal separates at its value; and moving B by `t` along its normal moves
//! it by at most `|t|`, by exactly `t` when `t > 0` (away from A): through
//! contact too.

use super::{Judge, converged_bracket, f32_vs_f64, nums, touching, transform, with};
use crate::fuzz::generate::Rng;
use crate::fuzz::geom;
use cspace::Status;
use cspace::model::{Algorithm, Answer, Precision, Query, QueryKind};

/// The tolerance of a signed distance `v`: the distance's when apart, the
/// depth's when overlapping.
fn tol(j: &Judge<'_>, v: f64) -> f64 {
    if v > 0.0 {
        j.dist_tol(v)
    } else {
        j.depth_tol(v)
    }
}

/// `q` as a query of `kind` (its algorithm the kind's default).
fn as_kind(q: &Query, kind: QueryKind) -> Query {
    let mut k = q.clone();
    k.query = kind;
    k.algorithm = None;
    k
}

/// A replay check on the subject's `distance`: `v` within `t`.
fn pin(v: f64, t: f64) -> (String, serde_json::Value, f64) {
    ("distance".to_owned(), serde_json::json!(v), t)
}

/// Judges a signed-distance case (cspace's default, EPA overlapping).
pub(super) fn signed(j: &mut Judge<'_>, rng: &mut Rng) {
    if let Some(ans) = j.answer(j.q, Algorithm::Epa) {
        judge_answer(j, rng, &ans);
    }
}

/// The checks of `ans`, the signed distance of the judge's query.
#[allow(clippy::too_many_lines, reason = "one check after the other")]
fn judge_answer(j: &mut Judge<'_>, rng: &mut Rng, ans: &Answer) {
    let q = j.q;
    let s = nums(ans);
    let d = s.value;
    let tol_d = tol(j, d);
    let stall = (d > 0.0).then(|| j.stall_tol(d));
    converged_bracket(j, ans, Algorithm::Epa, tol_d, stall);
    let subject = with(q, Algorithm::Epa);
    // Documented limits: GJK's stall bound apart, EPA's iteration bound
    // overlapping, f32 runs that did not converge.
    let stalled = |j: &Judge<'_>, e: f64| d > 0.0 && e <= j.stall_tol(d);
    let limit = ans.status == Status::MaxIterations
        || (ans.status != Status::Converged && q.precision == Precision::F32);

    // The sign is intersect's (MPR, which leaves near-touching to GJK).
    let iq = as_kind(q, QueryKind::Intersect);
    if let Some(i) = j.answer(&iq, Algorithm::Mpr) {
        let ii = nums(&i).intersecting;
        if (d <= 0.0) != ii && !touching(j, q) {
            j.check(
                "signed-sign",
                1.0,
                0.0,
                subject.clone(),
                Some(with(&iq, Algorithm::Mpr)),
                Some(("intersecting".to_owned(), serde_json::json!(ii), 0.0)),
                || format!("signed distance {d:e}, but intersect says intersecting = {ii}"),
                false,
            );
        }
    }

    // Apart it is the distance query's answer; overlapping minus EPA's depth.
    if d > 0.0 {
        let dq = as_kind(q, QueryKind::Distance);
        if let Some(dist) = j.answer(&dq, Algorithm::Gjk) {
            let o = nums(&dist);
            let (error, other) = if o.intersecting {
                (d, 0.0)
            } else {
                ((d - o.value).abs(), o.value)
            };
            j.check(
                "signed-vs-distance",
                error,
                tol_d,
                subject.clone(),
                Some(with(&dq, Algorithm::Gjk)),
                Some(pin(other, tol_d)),
                || format!("signed distance {d:e}, distance query {other:e}"),
                limit || stalled(j, error),
            );
        }
    } else {
        let pq = as_kind(q, QueryKind::Penetration);
        if let Some(p) = j.answer(&pq, Algorithm::Epa) {
            let depth = nums(&p).value;
            j.check(
                "signed-vs-depth",
                (d + depth).abs(),
                tol_d,
                subject.clone(),
                Some(with(&pq, Algorithm::Epa)),
                Some(pin(-depth, tol_d)),
                || format!("signed distance {d:e}, epa depth {depth:e}"),
                limit || p.status == Status::MaxIterations,
            );
        }
    }

    // The witnesses: `point_b − point_a = distance · normal`, a unit normal …
    let off = geom::norm(geom::sub(
        geom::sub(s.point_b, s.point_a),
        geom::scale(s.normal, d),
    ));
    let unit = geom::norm(s.normal) - 1.0;
    let error = off.max(unit.abs() * (j.size + d.abs()));
    j.check(
        "signed-witness",
        error,
        tol_d,
        subject.clone(),
        None,
        None,
        || {
            format!(
                "signed distance {d:e}: |point_b − point_a − distance·normal| = {off:e}, \
                 |normal| − 1 = {unit:e}"
            )
        },
        limit,
    );

    // … each in its shape (seen along the axes and the normal).
    let outside = j.pair.outside(s.point_a, s.point_b, s.normal);
    j.check(
        "signed-on-shape",
        outside,
        tol_d,
        subject.clone(),
        None,
        None,
        || format!("signed distance {d:e}: a witness lies {outside:e} outside its shape"),
        limit || stalled(j, outside),
    );

    // … and the normal separates at the value: `gap(normal) ≥ distance`
    // (the normal is the certificate's direction, as in `gjk-bracket`).
    let n = geom::normalize(s.normal);
    let gap = j.pair.gap(n);
    let error = d - gap;
    j.check(
        "signed-separates",
        error,
        tol_d,
        subject.clone(),
        Some(geom::swapped(&subject)),
        Some(pin(gap, tol_d)),
        || format!("signed distance {d:e}, but the gap along its normal is {gap:e}"),
        limit || stalled(j, error),
    );

    continuity(j, rng, ans, n);

    let (name, t, k) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Epa) {
        let od = nums(&other).value;
        let e = (od / k - d).abs();
        let tol = tol_d + j.tol.pos * geom::reach(&t) / k;
        j.check(
            name,
            e,
            tol,
            subject.clone(),
            Some(with(&t, Algorithm::Epa)),
            Some(pin(od / k, tol)),
            || format!("signed distance {d:e}, after `{name}` {od:e} (÷{k})"),
            limit
                || other.status == Status::MaxIterations
                || (d > 0.0 && e <= j.stall_tol(d) + tol),
        );
    }
    f32_vs_f64(j, ans, Algorithm::Epa, "distance");
}

/// Moves B along the answer's normal `n` through contact, to `−ε` on the
/// other side (`ε` log-uniform in 1e-12…1e-3 of the size; a `touching` case
/// starts within that of contact): by `t = −d ∓ ε`. The value may move by at
/// most `|t|`, and moving away from A (`t > 0`) raises it by exactly `t`.
fn continuity(j: &mut Judge<'_>, rng: &mut Rng, ans: &Answer, n: [f64; 3]) {
    let q = j.q;
    let d = nums(ans).value;
    let eps = rng.log_range(1e-12, 1e-3) * j.size;
    let side = if d > 0.0 || (d == 0.0 && rng.chance(0.5)) {
        1.0
    } else {
        -1.0
    };
    let t = -d - side * eps;
    let mut moved = q.clone();
    moved.b.position = geom::add(q.b.position, geom::scale(n, t));
    let Some(m) = j.answer(&moved, Algorithm::Epa) else {
        return;
    };
    let dm = nums(&m).value;
    let tol = tol(j, d) + tol(j, dm) + j.tol.pos * geom::reach(&moved);
    // Lipschitz: |dm − d| ≤ |t|; moving away: dm ≥ d + t.
    let lipschitz = (dm - d).abs() - t.abs();
    let rises = d + t - dm;
    let error = lipschitz.max(rises);
    let limit = [ans.status, m.status].iter().any(|s| {
        *s == Status::MaxIterations || (*s != Status::Converged && q.precision == Precision::F32)
    }) || ((d > 0.0 || dm > 0.0) && error <= j.stall_tol(d.abs().max(dm.abs())));
    let (value, slack) = if rises > lipschitz {
        (dm - t, tol)
    } else {
        (dm, t.abs() + tol)
    };
    j.check(
        "signed-continuity",
        error,
        tol,
        with(q, Algorithm::Epa),
        Some(with(&moved, Algorithm::Epa)),
        Some(pin(value, slack)),
        || format!("signed distance {d:e}; with B moved by {t:e} along the normal, {dm:e}"),
        limit,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace::model::Outcome;
    use cspace_recorder::{ShapeDecl, ShapeGeom};

    /// A signed-distance query between two shapes at x = 0 and x = `x`.
    fn query(a: ShapeGeom, b: ShapeGeom, x: f64) -> Query {
        Query {
            id: None,
            query: QueryKind::SignedDistance,
            precision: Precision::F64,
            algorithm: None,
            a: ShapeDecl::new(a),
            b: ShapeDecl::new(b).at([x, 0.0, 0.0], ShapeDecl::IDENTITY),
            translation: None,
        }
    }

    fn unit_box() -> ShapeGeom {
        ShapeGeom::Box {
            half_extents: [1.0, 1.0, 1.0],
        }
    }

    /// The checks that fail when `doctor` changes cspace's answer to `q`.
    fn failing(q: &Query, doctor: impl Fn(&mut Outcome)) -> Vec<&'static str> {
        let mut j = Judge::new(q);
        let mut ans = crate::fuzz::judge::run(q, Algorithm::Epa).expect("answers");
        doctor(&mut ans.outcome);
        judge_answer(&mut j, &mut Rng::for_case(1, 2), &ans);
        let mut checks: Vec<_> = j
            .verdict
            .findings
            .iter()
            .filter(|f| !f.limit)
            .map(|f| f.check)
            .collect();
        checks.dedup();
        checks
    }

    fn value(o: &mut Outcome) -> (&mut f64, &mut [f64; 3], &mut [f64; 3], &mut bool) {
        match o {
            Outcome::SignedDistance {
                distance,
                point_b,
                normal,
                intersecting,
                ..
            } => (distance, point_b, normal, intersecting),
            other => panic!("not a signed distance: {other:?}"),
        }
    }

    #[test]
    fn cspace_answers_pass_apart_touching_and_overlapping() {
        for x in [3.5, 2.0 + 1e-9, 2.0, 2.0 - 1e-9, 1.25] {
            let q = query(unit_box(), ShapeGeom::Sphere { radius: 1.0 }, x);
            assert_eq!(failing(&q, |_| {}), Vec::<&str>::new(), "x = {x}");
        }
    }

    #[test]
    fn a_wrong_value_fails_against_the_distance_and_through_contact() {
        // Apart by 0.5: 0.501 is off the distance query (beyond GJK's stall
        // bound too) and moves B through contact too far.
        let q = query(unit_box(), ShapeGeom::Sphere { radius: 1.0 }, 2.5);
        let checks = failing(&q, |o| *value(o).0 += 1e-3);
        assert!(checks.contains(&"signed-vs-distance"), "{checks:?}");
        assert!(checks.contains(&"signed-continuity"), "{checks:?}");
    }

    #[test]
    fn a_wrong_depth_fails_against_epa() {
        // Two boxes overlapping by 0.5: −0.5 (the penetration query answers).
        let q = query(unit_box(), unit_box(), 1.5);
        let checks = failing(&q, |o| *value(o).0 *= 0.9);
        assert!(checks.contains(&"signed-vs-depth"), "{checks:?}");
    }

    #[test]
    fn a_converged_answer_on_a_loose_bracket_fails() {
        // The bracket an overlap's signed distance had before it took its
        // depth's: `[−0.5, 0]`, called converged.
        let q = query(unit_box(), unit_box(), 1.5);
        let checks = failing(&q, |o| {
            if let Outcome::SignedDistance { bounds, .. } = o {
                bounds[1] = 0.0;
            }
        });
        assert_eq!(checks, ["converged-bracket"]);
    }

    #[test]
    fn a_flipped_sign_fails_against_intersect() {
        let q = query(unit_box(), unit_box(), 1.5);
        let checks = failing(&q, |o| {
            let (d, _, _, i) = value(o);
            *d = -*d;
            *i = false;
        });
        assert!(checks.contains(&"signed-sign"), "{checks:?}");
    }

    #[test]
    fn witnesses_off_the_contract_fail() {
        let q = query(unit_box(), ShapeGeom::Sphere { radius: 1.0 }, 3.0);
        let checks = failing(&q, |o| value(o).1[1] += 1e-3);
        assert_eq!(checks, ["signed-witness"]);
    }

    #[test]
    fn a_normal_that_does_not_separate_fails() {
        // Turned by 0.1 rad: the gap along it is below the distance.
        let q = query(unit_box(), ShapeGeom::Sphere { radius: 1.0 }, 3.0);
        let checks = failing(&q, |o| {
            let (d, b, n, _) = value(o);
            *n = [0.1f64.cos(), 0.1f64.sin(), 0.0];
            *b = [1.0 + *d * n[0], *d * n[1], 0.0];
        });
        assert!(checks.contains(&"signed-separates"), "{checks:?}");
    }
}
