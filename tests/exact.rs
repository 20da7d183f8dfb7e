//! GJK distance against constructed exact cases (`exact_common`): distance,
//! closest points and normal known by construction, per shape family, and
//! the honest-status regression (a cylinder rim nearly touching a box edge).

#![allow(clippy::cast_lossless)]

mod exact_common;
mod gjk_common;

use cspace::gjk;
use cspace::{Placed, Status};
use exact_common::{Case, FAMILIES};
use gjk_common::Rng;
use glam::DVec3;

/// The stated accuracy of a `Converged` distance: GJK's stopping gap on the
/// cores, `rel · √(2 (core distance² + scale²))`, plus rounding of the
/// construction; a reported touch (distance 0) may also hide up to the
/// touching tolerance `rel · scale`.
fn stated(c: &Case, touching: bool) -> f64 {
    let rel = 3.7e-11;
    let core = c.distance + c.a.radius() + c.b.radius();
    let touch = if touching { rel * c.scale } else { 0.0 };
    rel * (2.0 * (core * core + c.scale * c.scale)).sqrt() + touch + 1e-15 * c.scale
}

fn run(c: &Case) -> gjk::Distance<f64> {
    gjk::distance(&Placed::new(&c.a, c.pose_a), &Placed::new(&c.b, c.pose_b))
}

/// The certificate holds: the true distance is within the bounds (to
/// rounding), and a `Converged` answer's bounds meet the stated accuracy.
fn check_bounds(c: &Case, r: &gjk::Distance<f64>) {
    let slack = 1e-13 * c.scale;
    assert!(
        r.lower_bound <= c.distance + slack && c.distance <= r.upper_bound + slack,
        "{}: {:e} outside [{:e}, {:e}]",
        c.name,
        c.distance,
        r.lower_bound,
        r.upper_bound
    );
    if r.status == Status::Converged && !r.intersecting {
        let gap = r.upper_bound - r.lower_bound;
        assert!(gap <= stated(c, false), "{}: gap {gap:e}", c.name);
    }
}

/// Worst errors over a family, relative to the scale.
#[derive(Default, Debug)]
struct Worst {
    distance: f64,
    point: f64,
    normal: f64,
    degenerate: u32,
}

fn measure(rng: &mut Rng, family: &str, n: u32, d: impl Fn(&mut Rng) -> f64) -> Worst {
    let mut w = Worst::default();
    for _ in 0..n {
        let dist = d(rng);
        let c = exact_common::case(rng, family, dist);
        let r = run(&c);
        let err = (r.distance - c.distance).abs();
        check_bounds(&c, &r);
        if r.status == Status::Converged {
            let s = stated(&c, r.intersecting);
            assert!(err <= s, "{}: {err:e} > {s:e}, {r:?}", c.name);
        } else {
            w.degenerate += 1;
        }
        w.distance = w.distance.max(err / c.scale);
        let pa = (r.point_a - c.point_a).length() / c.scale;
        let pb = (r.point_b - c.point_b).length() / c.scale;
        w.point = w.point.max(pa).max(pb);
        if !r.intersecting {
            w.normal = w.normal.max(r.normal.angle_between(c.normal));
        }
    }
    w
}

/// Prints the worst errors per family (the numbers BENCHMARKS.md quotes)
/// and holds each family to what it reaches.
#[test]
fn constructed_cases_per_family() {
    let mut rng = Rng::new(7);
    for family in FAMILIES {
        let apart = measure(&mut rng, family, 2000, |r| 10f64.powf(r.range(-6.0, 0.0)));
        let near = measure(&mut rng, family, 2000, |r| 10f64.powf(r.range(-10.0, -7.0)));
        println!("{family:>12}: apart {apart:?}\n{:>12}  near  {near:?}", "");
        // Distances to 3e-10 of the scale, every stall honest; points to
        // 1e-5 over all answers, including those whose witness says it is
        // approximate (`exact_witness.rs` holds the unique ones to 1e-8).
        for w in [&apart, &near] {
            assert!(w.distance <= 3e-10, "{family}: {w:?}");
            assert!(w.point <= 1e-5, "{family}: {w:?}");
            assert!(w.degenerate <= 10, "{family}: {w:?}");
        }
    }
}

/// Issue 18: a cylinder whose rim nearly touches a box edge returned
/// 3.25e-8 for a true 3.3e-11, `Converged`. The cause: the closest point of
/// GJK's sliver triangle (two points a few 1e-5 apart on the rim, one on the
/// other end of the edge) was the weighted sum of its corners, whose weights
/// carry `ε / 1e-5` of rounding; at a distance of 1e-11 that turned the
/// search direction by 1e-3 rad, and the stall that followed was accepted
/// at the square root of the tolerance. Now the direction is the sliver's
/// plane normal and a stall converges only at the tolerance itself.
#[test]
fn cylinder_rim_near_box_edge_is_right_or_says_so() {
    let mut rng = Rng::new(1);
    let mut degenerate = 0;
    let n = 20_000;
    for _ in 0..n {
        let a = exact_common::unique_support(&mut rng, "cylinder rim");
        let h = DVec3::new(
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
            rng.range(0.2, 2.0),
        );
        let t = rng.range(-0.9, 0.9);
        let b = exact_common::box_edge(&mut rng, h, t);
        let pose_a = rng.pose(3.0);
        let twist = rng.range(0.0, std::f64::consts::TAU);
        let d = 3.3e-11 * 10f64.powf(rng.range(0.0, 3.0));
        let c = exact_common::place("rim–edge".into(), a, b, pose_a, twist, d);
        let r = run(&c);
        let err = (r.distance - c.distance).abs();
        assert!(err <= 1e-9 * c.scale, "{err:e} {r:?}");
        check_bounds(&c, &r);
        if r.status == Status::Converged {
            let s = stated(&c, r.intersecting);
            assert!(err <= s, "{err:e} > {s:e}, {r:?}");
        } else {
            degenerate += 1;
        }
    }
    println!("rim–edge: {degenerate} of {n} not converged");
    assert!(degenerate * 100 <= n, "{degenerate} of {n} not converged");
}
