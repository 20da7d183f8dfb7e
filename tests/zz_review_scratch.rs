#![allow(clippy::all, dead_code)]
mod exact_common;
mod gjk_common;

use cspace::{Placed, Pose, Shape, epa, gjk, mpr, signed};
use exact_common::{Case, FAMILIES};
use gjk_common::Rng;
use glam::{DQuat, DVec3};

const TOUCH: f64 = 1e-12;

fn at(seed: u64, family: &str, rel: f64) -> Case {
    let scale = exact_common::case(&mut Rng::new(seed), family, 0.0).scale;
    exact_common::case(&mut Rng::new(seed), family, rel * scale)
}

fn verdicts(c: &Case) -> [(&'static str, bool); 6] {
    let (a, b) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
    [
        ("gjk intersect", gjk::intersect(&a, &b).intersecting),
        ("mpr intersect", mpr::intersect(&a, &b).intersecting),
        ("distance", gjk::distance(&a, &b).intersecting),
        ("epa penetration", epa::penetration(&a, &b).intersecting),
        ("mpr penetration", mpr::penetration(&a, &b).intersecting),
        ("signed distance", signed::signed_distance(&a, &b).intersecting),
    ]
}

#[test]
fn scratch_agree_wide() {
    let mut dis = 0;
    let mut n = 0;
    for (f, family) in FAMILIES.iter().enumerate() {
        for k in 0..400u64 {
            for rel in [1.1, 2.0, 5.0, 10.0, 20.0, 36.0] {
                let c = at(50_000 + 1000 * f as u64 + k, family, rel * TOUCH);
                n += 1;
                let v = verdicts(&c);
                if v.iter().any(|(_, i)| *i != v[0].1) {
                    dis += 1;
                    if dis < 15 {
                        eprintln!("DISAGREE seed {} {} rel {rel}: {v:?}", 50_000 + 1000 * f as u64 + k, c.name);
                    }
                }
            }
        }
    }
    eprintln!("disagreements {dis} of {n}");
}

#[test]
fn scratch_with_tolerance_zero_equals_distance() {
    let a = Shape::cuboid(DVec3::splat(0.5));
    let pa = Placed::new(&a, Pose::new(DVec3::ZERO, DQuat::IDENTITY));
    let pb = Placed::new(&a, Pose::new(DVec3::new(1.0 + 1e-11, 0.2, 0.1), DQuat::IDENTITY));
    let d = gjk::distance(&pa, &pb);
    let l = gjk::distance_with_tolerance(&pa, &pb, 0.0);
    eprintln!("distance {:?}\nwith_tol0 {:?}", d, l);
    let s = Shape::sphere(0.5);
    let sa = Placed::new(&s, Pose::new(DVec3::ZERO, DQuat::IDENTITY));
    let sb = Placed::new(&s, Pose::new(DVec3::new(1.0 + 1e-11, 0.0, 0.0), DQuat::IDENTITY));
    eprintln!("spheres: distance {} with_tol0 {}", gjk::distance(&sa, &sb).intersecting, gjk::distance_with_tolerance(&sa, &sb, 0.0).intersecting);
}

#[test]
fn scratch_dig() {
    use cspace_recorder as rec;
    for (seed, family) in [(53261u64, "cylinder rim"), (55005, "cone apex")] {
        let c = at(seed, family, 2.0 * TOUCH);
        let (a, b) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
        let (d, r) = rec::record(|| gjk::distance(&a, &b));
        eprintln!("{}: true {:e} scale {}\n distance {:?}", c.name, c.distance, c.scale, d);
        for e in r.events() { if let rec::Event::Text { text, .. } = e { eprintln!("   D: {text}"); } }
        let (i, r) = rec::record(|| gjk::intersect(&a, &b));
        eprintln!(" intersect {:?}", i);
        for e in r.events() { if let rec::Event::Text { text, .. } = e { eprintln!("   I: {text}"); } }
        let (p, r) = rec::record(|| epa::penetration(&a, &b));
        eprintln!(" epa {:?}", p);
        for e in r.events() { if let rec::Event::Text { text, .. } = e { eprintln!("   E: {text}"); } }
    }
}

#[test]
fn scratch_signed() {
    for (seed, family) in [(53261u64, "cylinder rim"), (55005, "cone apex")] {
        let c = at(seed, family, 2.0 * TOUCH);
        let (a, b) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
        let s = signed::signed_distance(&a, &b);
        eprintln!("{} true {:e}: signed {:?}", c.name, c.distance, s);
        let w = gjk::distance_with_tolerance(&a, &b, 1e-9);
        eprintln!("  with_tol 1e-9 {:?}", w);
    }
}

#[test]
fn scratch_warm_vs_cold() {
    use cspace_recorder as rec;
    let (mut tried, mut differ, mut used) = (0, 0, 0);
    for (f, family) in FAMILIES.iter().enumerate() {
        for k in 0..400u64 {
            for rel in [1.1, 2.0, 5.0, 10.0, 20.0, 36.0] {
                let c = at(50_000 + 1000 * f as u64 + k, family, rel * TOUCH);
                let kind = |s| matches!(exact_common::kind(s), "cylinder" | "cone");
                if !(kind(&c.a) || kind(&c.b)) { continue; }
                let (a, b) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
                let cold = gjk::distance(&a, &b);
                let i = gjk::intersect(&a, &b).intersecting;
                // prime: B a little farther along the normal, two frames
                let mut cache = gjk::SimplexCache::default();
                for s in [3e-2, 1e-2, 3e-3] {
                    let pb = Pose::new(c.pose_b.position + c.normal * s * c.scale, c.pose_b.rotation);
                    let _ = gjk::distance_warm(&a, &Placed::new(&c.b, pb), &mut cache);
                }
                let (w, r) = rec::record(|| gjk::distance_warm(&a, &b, &mut cache));
                let from_n = r.events().iter().any(|e| matches!(e, rec::Event::Text { text, .. } if text.contains("warm start from the last normal")));
                tried += 1;
                used += from_n as u32;
                if w.intersecting != cold.intersecting || w.intersecting != i {
                    differ += 1;
                    if differ < 8 {
                        eprintln!("{} rel {rel}: warm {} (from normal {from_n}) cold {} intersect {i}; warm lb {:e} true {:e}", c.name, w.intersecting, cold.intersecting, w.lower_bound, c.distance);
                    }
                }
                if w.iterations > 1 && (w.lower_bound > c.distance + 1e-14 * c.scale || w.upper_bound < c.distance - 1e-14 * c.scale) {
                    eprintln!("BOUNDS {} rel {rel}: {:?} true {:e}", c.name, w, c.distance);
                }
            }
        }
    }
    eprintln!("warm differs {differ} of {tried}, from normal used {used}");
}

#[test]
fn scratch_degenerate() {
    let cyl = Shape::cylinder(0.5, 0.7);
    let cone = Shape::cone(0.6, 0.4);
    let zero = Shape::cylinder(0.0, 0.0);
    let bx = Shape::cuboid(DVec3::splat(0.5));
    let poses = [
        DVec3::new(f64::NAN, 0.0, 0.0),
        DVec3::new(f64::INFINITY, 0.0, 0.0),
        DVec3::new(1e300, 0.0, 0.0),
        DVec3::ZERO,
        DVec3::new(2.0, 0.3, 0.1),
        DVec3::new(1e-300, 0.0, 0.0),
    ];
    for (na, sa) in [("cyl", &cyl), ("zero", &zero), ("box", &bx)] {
        for (nb, sb) in [("cone", &cone), ("zero", &zero), ("box", &bx)] {
            for p in poses {
                let a = Placed::new(sa, Pose::new(DVec3::ZERO, DQuat::IDENTITY));
                let b = Placed::new(sb, Pose::new(p, DQuat::from_rotation_x(0.3)));
                let d = gjk::distance(&a, &b);
                let i = gjk::intersect(&a, &b);
                let e = epa::penetration(&a, &b);
                let s = signed::signed_distance(&a, &b);
                let mut cache = gjk::SimplexCache::default();
                let w = gjk::distance_warm(&a, &b, &mut cache);
                let t = gjk::distance_with_tolerance(&a, &b, 1e-6);
                eprintln!("{na}-{nb} {p:?}: d {} {:e} {:?} | i {} | e {} | s {} {:e} | w {} | t {} {:?}", d.intersecting, d.distance, d.status, i.intersecting, e.intersecting, s.intersecting, s.distance, w.intersecting, t.intersecting, t.status);
            }
        }
    }
    // warm with cached normal then NaN frame, then normal frame
    let a = Placed::new(&cyl, Pose::new(DVec3::ZERO, DQuat::from_rotation_z(0.4)));
    let mut cache = gjk::SimplexCache::default();
    for f in 0..6 {
        let p = if f == 3 { DVec3::new(f64::NAN, 1.0, 0.0) } else { DVec3::new(1.3 + 0.01 * f as f64, 0.9, 0.2) };
        let b = Placed::new(&cone, Pose::new(p, DQuat::from_rotation_x(0.7)));
        let w = gjk::distance_warm(&a, &b, &mut cache);
        let c = gjk::distance(&a, &b);
        eprintln!("warm frame {f}: {:e} ({} it) cold {:e} ({} it)", w.distance, w.iterations, c.distance, c.iterations);
    }
}
