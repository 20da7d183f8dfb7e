//! Intersect and penetration cases: GJK against MPR, EPA's certificate and
//! minimality, MPR against EPA, one invariance, f32 against f64.

use super::{Judge, converged_bracket, f32_vs_f64, nums, run, touching, transform, with};
use crate::fuzz::generate::Rng;
use crate::fuzz::geom;
use cspace::Status;
use cspace::model::{Algorithm, Answer, Outcome, Precision, Query, QueryKind};

/// Judges an intersect case (GJK and MPR).
pub(super) fn intersect(j: &mut Judge<'_>, rng: &mut Rng) {
    let q = j.q;
    let (Some(g), Some(m)) = (j.answer(q, Algorithm::Gjk), j.answer(q, Algorithm::Mpr)) else {
        return;
    };
    let (gi, mi) = (nums(&g).intersecting, nums(&m).intersecting);
    if gi != mi && !touching(j, q) {
        // The one that disagrees with the distance query is wrong.
        let mut dq = q.clone();
        dq.query = QueryKind::Distance;
        let truth = run(&dq, Algorithm::Gjk).map_or(gi, |a| nums(&a).intersecting);
        let (bad, good) = if truth == gi {
            (Algorithm::Mpr, Algorithm::Gjk)
        } else {
            (Algorithm::Gjk, Algorithm::Mpr)
        };
        j.check(
            "gjk-vs-mpr",
            1.0,
            0.0,
            with(q, bad),
            Some(with(q, good)),
            Some(("intersecting".to_owned(), serde_json::json!(truth), 0.0)),
            || format!("gjk says intersecting = {gi}, mpr {mi}; gjk distance says {truth}"),
            false,
        );
    }
    let (name, t, _) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Mpr) {
        let oi = nums(&other).intersecting;
        if oi != mi && !touching(j, q) && !touching(j, &t) {
            j.check(
                name,
                1.0,
                0.0,
                with(q, Algorithm::Mpr),
                Some(with(&t, Algorithm::Mpr)),
                Some(("intersecting".to_owned(), serde_json::json!(oi), 0.0)),
                || format!("mpr intersecting = {mi}, after `{name}` {oi}"),
                false,
            );
        }
    }
    if q.precision == Precision::F32 {
        let mut wide = q.clone();
        wide.precision = Precision::F64;
        if let Some(w) = j.answer(&wide, Algorithm::Mpr) {
            let wi = nums(&w).intersecting;
            if wi != mi && !touching(j, q) {
                j.check(
                    "f32-vs-f64",
                    1.0,
                    0.0,
                    with(q, Algorithm::Mpr),
                    Some(with(&wide, Algorithm::Mpr)),
                    Some(("intersecting".to_owned(), serde_json::json!(wi), 0.0)),
                    || format!("mpr intersecting: f32 {mi}, f64 {wi}"),
                    false,
                );
            }
        }
    }
}

/// The face normals of a box declaration and of B's, and their cross
/// products: the separating axes of two boxes.
fn box_axes(q: &Query) -> Vec<[f64; 3]> {
    use cspace_recorder::ShapeGeom;
    let axes = |d: &cspace_recorder::ShapeDecl| -> Vec<[f64; 3]> {
        if matches!(d.geom, ShapeGeom::Box { .. }) {
            let r = d.rotation;
            let n = (r.iter().map(|c| c * c).sum::<f64>()).sqrt();
            let r = r.map(|c| c / n);
            vec![
                geom::rotate(r, [1.0, 0.0, 0.0]),
                geom::rotate(r, [0.0, 1.0, 0.0]),
                geom::rotate(r, [0.0, 0.0, 1.0]),
            ]
        } else {
            Vec::new()
        }
    };
    let (a, b) = (axes(&q.a), axes(&q.b));
    let mut out: Vec<[f64; 3]> = a.iter().chain(&b).copied().collect();
    for u in &a {
        for v in &b {
            let c = geom::cross(*u, *v);
            if geom::norm(c) > 1e-6 {
                out.push(geom::normalize(c));
            }
        }
    }
    out
}

/// The check that a penetration answer's contact points lie on their
/// shapes (to the depth's tolerance: each is the other moved by `depth ·
/// normal`).
fn on_shape(j: &mut Judge<'_>, (ans, alg): (&Answer, Algorithm)) {
    let a = nums(ans);
    if !a.intersecting {
        return;
    }
    let q = j.q;
    let outside = j.pair.outside(a.point_a, a.point_b, a.normal);
    let name = if alg == Algorithm::Epa {
        "epa-on-shape"
    } else {
        "mpr-on-shape"
    };
    j.check(
        name,
        outside,
        j.depth_tol(a.value),
        with(q, alg),
        None,
        None,
        || {
            format!(
                "{alg:?} depth {:e}: a contact point lies {outside:e} outside its shape",
                a.value
            )
        },
        ans.status == Status::MaxIterations
            || (ans.status != Status::Converged && q.precision == Precision::F32),
    );
}

/// Judges a penetration case (EPA and MPR).
pub(super) fn penetration(j: &mut Judge<'_>, rng: &mut Rng) {
    let q = j.q;
    let (Some(e), Some(m)) = (j.answer(q, Algorithm::Epa), j.answer(q, Algorithm::Mpr)) else {
        return;
    };
    let (en, mn) = (nums(&e), nums(&m));
    let depth = en.value;
    let tol = j.depth_tol(depth);
    converged_bracket(j, &e, Algorithm::Epa, tol, None);
    converged_bracket(j, &m, Algorithm::Mpr, j.depth_tol(mn.value), None);
    let subject = with(q, Algorithm::Epa);
    let limit = e.status == Status::MaxIterations;
    if en.intersecting {
        // Certificate: EPA's normal separates after moving B by depth · normal …
        let overlap = -j.pair.gap(geom::normalize(en.normal));
        j.check(
            "epa-separates",
            overlap - depth,
            tol,
            subject.clone(),
            Some(with(q, Algorithm::Mpr)),
            Some(("depth".to_owned(), serde_json::json!(overlap), tol)),
            || format!("epa depth {depth:e}, but the overlap along its normal is {overlap:e}"),
            false,
        );
        // … and no axis tried separates with less (EPA's depth is the least).
        let mut axes = box_axes(q);
        axes.push(geom::normalize(mn.normal));
        for _ in 0..8 {
            axes.push(rng.dir());
        }
        let least = axes
            .iter()
            .map(|&u| -j.pair.gap(u))
            .fold(f64::INFINITY, f64::min);
        j.check(
            "epa-minimal",
            depth - least,
            tol,
            subject.clone(),
            Some(with(q, Algorithm::Mpr)),
            Some(("depth".to_owned(), serde_json::json!(least), tol)),
            || format!("epa depth {depth:e}, but an axis overlaps only {least:e}"),
            limit,
        );
    }
    on_shape(j, (&e, Algorithm::Epa));
    on_shape(j, (&m, Algorithm::Mpr));
    if en.intersecting != mn.intersecting && !touching(j, q) {
        j.check(
            "mpr-vs-epa",
            1.0,
            0.0,
            with(q, Algorithm::Mpr),
            Some(subject.clone()),
            Some((
                "intersecting".to_owned(),
                serde_json::json!(en.intersecting),
                0.0,
            )),
            || {
                format!(
                    "epa intersecting = {}, mpr {}",
                    en.intersecting, mn.intersecting
                )
            },
            false,
        );
    } else if en.intersecting {
        normals_within(j, (&e, &m), (en.normal, mn.normal));
        let md = mn.value;
        j.check(
            "mpr-vs-epa",
            depth - md,
            tol,
            with(q, Algorithm::Mpr),
            Some(subject.clone()),
            Some(("depth".to_owned(), serde_json::json!(depth), tol)),
            || format!("mpr depth {md:e} is below epa's {depth:e}"),
            limit,
        );
    }
    let (name, t, k) = transform(q, rng, j.size);
    if let Some(other) = j.answer(&t, Algorithm::Epa) {
        let od = nums(&other).value;
        let tol = j.depth_tol(depth) + j.tol.pos * geom::reach(&t) / k;
        j.check(
            name,
            (od / k - depth).abs(),
            tol,
            subject.clone(),
            Some(with(&t, Algorithm::Epa)),
            Some(("depth".to_owned(), serde_json::json!(od / k), tol)),
            || format!("epa depth {depth:e}, after `{name}` {od:e} (÷{k})"),
            limit || other.status == Status::MaxIterations,
        );
    }
    f32_vs_f64(j, &e, Algorithm::Epa, "depth");
}

/// EPA's and MPR's normals each lie within their `normal_within` of every
/// direction of least depth, so within the sum of the two of each other
/// (`normal-within`; the bounds are certificates, not estimates).
fn normals_within(j: &mut Judge<'_>, (e, m): (&Answer, &Answer), (en, mn): ([f64; 3], [f64; 3])) {
    let within = |a: &Answer| match a.outcome {
        Outcome::Penetration { normal_within, .. } => normal_within,
        _ => None,
    };
    let (Some(we), Some(wm)) = (within(e), within(m)) else {
        return;
    };
    let (en, mn) = (geom::normalize(en), geom::normalize(mn));
    let off = geom::norm(geom::cross(en, mn)).atan2(geom::dot(en, mn));
    // The normals' own rounding in their precision.
    let round = match j.q.precision {
        Precision::F64 => 8.0 * f64::EPSILON,
        Precision::F32 => 8.0 * f64::from(f32::EPSILON),
    };
    j.check(
        "normal-within",
        off - we - wm,
        round,
        with(j.q, Algorithm::Mpr),
        Some(with(j.q, Algorithm::Epa)),
        None,
        || {
            format!(
                "epa's and mpr's normals are {off:e} rad apart, claimed within {we:e} and {wm:e}"
            )
        },
        false,
    );
}
