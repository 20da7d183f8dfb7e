//! How often MPR's penetration search ends in the global minimum, against
//! EPA, on random deep overlaps; and EPA's and MPR's worst normal angle and
//! depth error on constructed exact cases (a point or sphere deep inside a
//! box, cylinder or cone; aligned boxes as hulls).
//!
//! `cargo bench --bench penetration_minimum [-- N]` (N deep overlaps per
//! family, default 10 000). Prints one table per part; the figures are
//! counts and errors, so the build profile does not change them (only the
//! per-query times, printed for orientation).

use cspace::{Placed, Pose, Shape, Status, epa, mpr};
use glam::{DQuat, DVec3};
use std::time::Instant;

/// `SplitMix64`: deterministic scenes.
struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn f(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn unit(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
    fn rotation(&mut self) -> DQuat {
        DQuat::from_axis_angle(self.unit(), self.range(0.0, std::f64::consts::TAU))
    }
}

/// A bounding radius of a shape.
fn reach(s: &Shape<f64>) -> f64 {
    [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        -DVec3::X,
        -DVec3::Y,
        -DVec3::Z,
    ]
    .iter()
    .map(|&d| s.support(d).length())
    .fold(0.0, f64::max)
        * 1.2
}

fn shape(rng: &mut Rng, family: &str) -> Shape<f64> {
    let kind = match family {
        "boxes" => 0,
        "hulls" => 1,
        "round" => 2 + rng.next_u64() % 2,
        "cylinders/cones" => 4 + rng.next_u64() % 2,
        _ => rng.next_u64() % 6,
    };
    let mut r = |lo: f64, hi: f64| rng.range(lo, hi);
    match kind {
        0 => Shape::cuboid(DVec3::new(r(0.2, 1.5), r(0.2, 1.5), r(0.2, 1.5))),
        1 => {
            let pts = (0..16)
                .map(|_| DVec3::new(r(-1.0, 1.0), r(-1.0, 1.0), r(-1.0, 1.0)))
                .collect();
            Shape::hull(pts)
        }
        2 => Shape::sphere(r(0.2, 1.2)),
        3 => Shape::capsule(r(0.1, 1.2), r(0.1, 0.8)),
        4 => Shape::cylinder(r(0.2, 1.2), r(0.2, 1.2)),
        _ => Shape::cone(r(0.2, 1.2), r(0.2, 1.2)),
    }
}

#[derive(Default)]
struct Stage {
    global: u32,
    certified: u32,
    certified_wrong: u32,
    evaluations: u64,
    nanos: u128,
}

fn random_part(n: u32) {
    println!(
        "MPR penetration against EPA on {n} random deep overlaps per family (depth ≥ 10 % of the smaller shape)"
    );
    println!(
        "| family | stage | global minimum | certified (`Converged`) | certified but not global | evaluations | ns/query |"
    );
    println!("|---|---|---|---|---|---|---|");
    for family in ["boxes", "hulls", "round", "cylinders/cones", "mixed"] {
        let mut rng = Rng(0x5eed ^ family.len() as u64);
        let mut stages: [Stage; 3] = Default::default();
        let (mut epa_conv, mut epa_nanos, mut worst_gap) = (0u32, 0u128, 0.0f64);
        let mut kept = 0;
        while kept < n {
            let (sa, sb) = (shape(&mut rng, family), shape(&mut rng, family));
            let (ra, rb) = (reach(&sa), reach(&sb));
            let pa = Pose::new(DVec3::ZERO, rng.rotation());
            let off = rng.unit() * rng.range(0.0, 0.6) * (ra + rb) * 0.5;
            let pb = Pose::new(off, rng.rotation());
            let (a, b) = (Placed::new(&sa, pa), Placed::new(&sb, pb));
            let t = Instant::now();
            let e = epa::penetration(&a, &b);
            let te = t.elapsed().as_nanos();
            let small = sa.scale().min(sb.scale()).max(0.2);
            if !e.intersecting || e.depth < 0.1 * small {
                continue;
            }
            kept += 1;
            epa_nanos += te;
            let scale = sa.scale().max(sb.scale());
            epa_conv += u32::from(e.status == Status::Converged);
            worst_gap = worst_gap.max((e.upper_bound - e.lower_bound) / scale);
            for (k, search) in [
                mpr::Search::Recast,
                mpr::Search::Edges,
                mpr::Search::Certified,
            ]
            .into_iter()
            .enumerate()
            {
                let t = Instant::now();
                let m = mpr::penetration_with(&a, &b, search);
                let s = &mut stages[k];
                s.nanos += t.elapsed().as_nanos();
                s.evaluations += u64::from(m.iterations);
                // Both depths are support-plane depths (upper bounds): MPR's
                // is the global minimum when it is not above EPA's.
                let global = m.depth <= e.depth + 1e-6 * scale;
                s.global += u32::from(global);
                if m.status == Status::Converged {
                    s.certified += 1;
                    s.certified_wrong += u32::from(!global);
                }
            }
        }
        for (k, name) in ["re-cast", "+ edges", "+ certificate"].iter().enumerate() {
            let s = &stages[k];
            let pct = |x: u32| 100.0 * f64::from(x) / f64::from(n);
            println!(
                "| {family} | {name} | {:.2} % | {:.2} % | {} | {:.1} | {:.0} |",
                pct(s.global),
                pct(s.certified),
                s.certified_wrong,
                s.evaluations as f64 / f64::from(n),
                s.nanos as f64 / f64::from(n)
            );
        }
        println!(
            "| {family} | epa | (reference) | {:.2} % | worst gap {worst_gap:.1e} of the scale | — | {:.0} |",
            100.0 * f64::from(epa_conv) / f64::from(n),
            epa_nanos as f64 / f64::from(n)
        );
    }
}

/// A shape A, a point `c` deep inside it (A's frame), the exact depth of a
/// point core there and the normal (A's frame).
type Exact = (Shape<f64>, DVec3, f64, DVec3);

fn exact_case(rng: &mut Rng, family: &str) -> Exact {
    let (a, c, depth, n) = match family {
        "box" => {
            let h = DVec3::new(
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
            );
            let c = DVec3::new(
                rng.range(-0.9, 0.9),
                rng.range(-0.9, 0.9),
                rng.range(-0.9, 0.9),
            ) * h;
            let gaps = h - c.abs();
            let i = if gaps.x <= gaps.y && gaps.x <= gaps.z {
                0
            } else if gaps.y <= gaps.z {
                1
            } else {
                2
            };
            let mut n = DVec3::ZERO;
            n[i] = c[i].signum();
            (Shape::cuboid(h), c, gaps[i], n)
        }
        "cylinder" => {
            let (hh, rad) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
            let rho = rad * rng.range(0.05, 0.95);
            let phi = rng.range(0.0, std::f64::consts::TAU);
            let y = hh * rng.range(-0.95, 0.95);
            let c = DVec3::new(rho * phi.cos(), y, rho * phi.sin());
            let (side, cap) = (rad - rho, hh - y.abs());
            if side <= cap {
                (
                    Shape::cylinder(hh, rad),
                    c,
                    side,
                    DVec3::new(phi.cos(), 0.0, phi.sin()),
                )
            } else {
                (Shape::cylinder(hh, rad), c, cap, DVec3::Y * y.signum())
            }
        }
        _ => {
            let (hh, rad) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
            let y = hh * rng.range(-0.95, 0.8);
            // The cone's radius at height y, and a point inside.
            let at = rad * (hh - y) / (2.0 * hh);
            let rho = at * rng.range(0.05, 0.95);
            let phi = rng.range(0.0, std::f64::consts::TAU);
            let c = DVec3::new(rho * phi.cos(), y, rho * phi.sin());
            let l = (4.0 * hh * hh + rad * rad).sqrt();
            let side = (hh * rad - 2.0 * hh * rho - rad * y) / l;
            let base = y + hh;
            if side <= base {
                let n = DVec3::new(2.0 * hh * phi.cos() / l, rad / l, 2.0 * hh * phi.sin() / l);
                (Shape::cone(hh, rad), c, side, n)
            } else {
                (Shape::cone(hh, rad), c, base, -DVec3::Y)
            }
        }
    };
    (a, c, depth, n)
}

fn exact_part(n: u32) {
    println!();
    println!(
        "Exact cases ({n} per family, f64): a point or a sphere (r ≤ 0.2) at a random point deep inside A, A turned and placed at random"
    );
    println!(
        "| A | method | worst normal angle (rad) | normals over 1e-7 rad | worst depth error (of the size) | contract error | not `Converged` |"
    );
    println!("|---|---|---|---|---|---|---|");
    for family in ["box", "cylinder", "cone"] {
        let mut rng = Rng(0xe8ac7 ^ family.len() as u64);
        let mut worst = [[0.0f64; 3]; 2];
        let mut not_conv = [0u32; 2];
        let mut over = [0u32; 2];
        let mut done = 0;
        while done < n {
            let r = if rng.f() < 0.5 {
                0.0
            } else {
                rng.range(0.01, 0.2)
            };
            let (sa, c, depth, nl) = exact_case(&mut rng, family);
            let depth = depth + r;
            let sb = if r == 0.0 {
                Shape::new(cspace::Geom::Point)
            } else {
                Shape::sphere(r)
            };
            let rot = rng.rotation();
            let pos = rng.unit() * rng.range(0.0, 5.0);
            let a = Placed::new(&sa, Pose::new(pos, rot));
            let b = Placed::new(&sb, Pose::new(pos + rot * c, rng.rotation()));
            let normal = rot * nl;
            done += 1;
            for (k, p) in [epa::penetration(&a, &b), mpr::penetration(&a, &b)]
                .iter()
                .enumerate()
            {
                let angle = p.normal.cross(normal).length().atan2(p.normal.dot(normal));
                let derr = (p.depth - depth).abs() / sa.scale();
                let contract = (p.point_a - p.point_b - p.normal * p.depth).length();
                worst[k][0] = worst[k][0].max(angle);
                worst[k][1] = worst[k][1].max(derr);
                worst[k][2] = worst[k][2].max(contract);
                not_conv[k] += u32::from(p.status != Status::Converged);
                over[k] += u32::from(angle > 1e-7);
            }
        }
        for (k, name) in ["epa", "mpr"].iter().enumerate() {
            println!(
                "| {family} | {name} | {:.1e} | {:.2} % | {:.1e} | {:.1e} | {} |",
                worst[k][0],
                100.0 * f64::from(over[k]) / f64::from(n),
                worst[k][1],
                worst[k][2],
                not_conv[k]
            );
        }
    }
}

fn main() {
    let n = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u32>().ok())
        .unwrap_or(10_000);
    exact_part(n);
    random_part(n);
}
