//! The penetration contract and certificate: `point_a − point_b = depth ·
//! normal` (to rounding) for EPA and MPR, in f32 and f64; the true depth of
//! constructed cases lies within `[lower_bound, upper_bound]`, and a
//! `Converged` answer's bounds meet EPA's stated tolerance.

#![allow(clippy::cast_lossless)]

mod exact_common;
mod gjk_common;

use cspace::epa::{self, Penetration};
use cspace::{Placed, Pose, Real, Rotation, Shape, Status, V3, Vector, mpr};
use gjk_common::{Rng, distance_lower_bound};
use glam::{DQuat, DVec3};

/// EPA's stated relative tolerance on the gap between its bounds.
fn rel<T: Real>() -> f64 {
    if std::mem::size_of::<T>() == 4 {
        2.4e-5
    } else {
        1e-8
    }
}

/// A few ULPs of coordinates of magnitude `m`.
fn ulps<T: Real>(m: f64) -> f64 {
    let eps = if std::mem::size_of::<T>() == 4 {
        f64::from(f32::EPSILON)
    } else {
        f64::EPSILON
    };
    8.0 * eps * m.max(1.0)
}

/// `point_a − point_b = depth · normal` to a few ULPs of the points.
fn contract<T: Real>(p: &Penetration<T>, what: &str) {
    assert!(p.intersecting, "{what}: {p:?}");
    let (pa, pb, n) = (p.point_a.to_f64(), p.point_b.to_f64(), p.normal.to_f64());
    let d = p.depth.to_f64();
    let m = pa.iter().chain(pb.iter()).fold(d, |m, x| m.max(x.abs()));
    for i in 0..3 {
        let e = pa[i] - pb[i] - d * n[i];
        assert!(
            e.abs() <= ulps::<T>(m),
            "{what}: error {e:e} on axis {i}: {p:?}"
        );
    }
}

/// The certificate: `truth` within the bounds, and `Converged` bounds
/// within the stated tolerance.
fn certificate<T: Real>(p: &Penetration<T>, truth: f64, scale: f64, what: &str) {
    let (lo, hi) = (p.lower_bound.to_f64(), p.upper_bound.to_f64());
    let slack = ulps::<T>(scale) * 4.0;
    assert!(
        lo <= truth + slack && truth <= hi + slack,
        "{what}: true depth {truth:e} outside [{lo:e}, {hi:e}]"
    );
    // The upper bound is the depth, except where GJK called the shapes
    // apart without proving it: there the depth along the normal.
    let unproven_apart = !p.intersecting && p.depth.to_f64() == 0.0;
    assert!(
        (hi - p.depth.to_f64()).abs() <= slack || (unproven_apart && hi >= 0.0),
        "{what}: upper {hi:e} vs depth {:e}",
        p.depth.to_f64()
    );
    if p.status == Status::Converged {
        assert!(
            hi - lo <= rel::<T>() * scale + slack,
            "{what}: converged with gap {:e}",
            hi - lo
        );
    }
}

fn box_hull(h: DVec3) -> Shape<f64> {
    let mut pts = Vec::new();
    for i in 0..8 {
        let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
        pts.push(DVec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z));
    }
    Shape::hull(pts)
}

fn placed<T: Real>(s: &Shape<T>, pos: DVec3, rot: DQuat) -> Placed<'_, T> {
    let q = rot.to_array().map(T::from_f64);
    Placed::new(
        s,
        Pose::new(V3::<T>::from_f64(pos.to_array()), T::Q::from_xyzw(q)),
    )
}

fn deep_sphere_in_box<T: Real>() {
    // 1:100: a unit sphere deep inside a box of half extent 100.
    let bx = Shape::<f64>::cuboid(DVec3::splat(100.0)).to_precision::<T>();
    let sp = Shape::<f64>::sphere(1.0).to_precision::<T>();
    let c = DVec3::new(30.0, -20.0, 10.0);
    let truth = 100.0 - 30.0 + 1.0;
    let (a, b) = (
        placed(&bx, DVec3::ZERO, DQuat::IDENTITY),
        placed(&sp, c, DQuat::IDENTITY),
    );
    for (name, p) in [
        ("epa", epa::penetration(&a, &b)),
        ("mpr", mpr::penetration(&a, &b)),
    ] {
        let what = format!("{name} box–sphere {}", std::any::type_name::<T>());
        contract(&p, &what);
        let n = p.normal.to_f64();
        if name == "epa" {
            certificate(&p, truth, 100.0, &what);
            assert!((n[0] - 1.0).abs() < 1e-5, "{what}: {p:?}");
        }
    }
    let p = epa::penetration(&b, &a);
    contract(&p, "epa sphere–box");
    certificate(&p, truth, 100.0, "epa sphere–box");
}

#[test]
fn deep_sphere_in_box_keeps_the_contract_f64() {
    deep_sphere_in_box::<f64>();
}

#[test]
fn deep_sphere_in_box_keeps_the_contract_f32() {
    deep_sphere_in_box::<f32>();
}

/// Boxes (a `Box` and a hull of the same box) turned alike: the CSO is a box
/// and the true depth is the least overlap over its axes.
fn box_hull_pairs<T: Real>(seed: u64) {
    let mut rng = Rng::new(seed);
    let mut converged = 0;
    for i in 0..150 {
        let ha = rng.vec_in(0.3, 2.0);
        let hb = rng.vec_in(0.3, 2.0);
        let rot = rng.rotation();
        let base = DVec3::new(
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
        );
        let sum = ha + hb;
        let c = DVec3::new(
            rng.range(-0.9, 0.9) * sum.x,
            rng.range(-0.9, 0.9) * sum.y,
            rng.range(-0.9, 0.9) * sum.z,
        );
        let truth = (sum - c.abs()).min_element();
        let scale = ha.max_element().max(hb.max_element());
        let shapes = [
            (Shape::cuboid(ha), box_hull(hb)),
            (box_hull(ha), box_hull(hb)),
            (box_hull(ha), Shape::cuboid(hb)),
        ];
        for (k, (sa, sb)) in shapes.iter().enumerate() {
            let (sa, sb) = (sa.to_precision::<T>(), sb.to_precision::<T>());
            let a = placed(&sa, base, rot);
            let b = placed(&sb, base + rot * c, rot);
            let what = format!("{} pair {i}.{k}", std::any::type_name::<T>());
            let p = epa::penetration(&a, &b);
            contract(&p, &what);
            certificate(&p, truth, scale + base.abs().max_element(), &what);
            converged += u32::from(p.status == Status::Converged);
            let m = mpr::penetration(&a, &b);
            contract(&m, &format!("mpr {what}"));
            assert!(
                m.depth.to_f64() >= truth - ulps::<T>(8.0) * 16.0,
                "mpr {what}: below the true depth"
            );
        }
    }
    assert!(converged >= 400, "only {converged} of 450 converged");
}

#[test]
fn box_hull_pairs_f64() {
    box_hull_pairs::<f64>(0xb0c5);
}

#[test]
fn box_hull_pairs_f32() {
    box_hull_pairs::<f32>(0xb0c6);
}

/// The angle between two unit vectors, accurate near 0 (unlike `acos`).
fn angle(u: DVec3, v: DVec3) -> f64 {
    u.cross(v).length().atan2(u.dot(v))
}

/// A point deep inside `family` (`box`, `cylinder`, `cone`) of random size,
/// in A's frame, with the exact depth of a point core there and the unit
/// normal: the least distance to a face, the side or the cap (a cone's side
/// is a line in the half-plane of the point's azimuth).
fn inside(rng: &mut Rng, family: &str) -> (Shape<f64>, DVec3, f64, DVec3) {
    let (hh, rad) = (rng.range(0.5, 2.0), rng.range(0.5, 2.0));
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let (c, s) = (phi.cos(), phi.sin());
    match family {
        "box" => {
            let h = DVec3::new(rng.range(0.5, 2.0), hh, rad);
            let p = DVec3::new(
                rng.range(-0.9, 0.9),
                rng.range(-0.9, 0.9),
                rng.range(-0.9, 0.9),
            ) * h;
            let gaps = h - p.abs();
            let i = (0..3).fold(0, |i, k| if gaps[k] < gaps[i] { k } else { i });
            let mut n = DVec3::ZERO;
            n[i] = p[i].signum();
            (Shape::cuboid(h), p, gaps[i], n)
        }
        "cylinder" => {
            let rho = rad * rng.range(0.05, 0.95);
            let y = hh * rng.range(-0.95, 0.95);
            let (side, cap) = (rad - rho, hh - y.abs());
            let n = if side <= cap {
                DVec3::new(c, 0.0, s)
            } else {
                DVec3::Y * y.signum()
            };
            (
                Shape::cylinder(hh, rad),
                DVec3::new(rho * c, y, rho * s),
                side.min(cap),
                n,
            )
        }
        _ => {
            let y = hh * rng.range(-0.95, 0.8);
            let rho = rad * (hh - y) / (2.0 * hh) * rng.range(0.05, 0.95);
            let l = (4.0 * hh * hh + rad * rad).sqrt();
            let side = (hh * rad - 2.0 * hh * rho - rad * y) / l;
            let base = y + hh;
            let n = if side <= base {
                DVec3::new(2.0 * hh * c, rad, 2.0 * hh * s) / l
            } else {
                -DVec3::Y
            };
            (
                Shape::cone(hh, rad),
                DVec3::new(rho * c, y, rho * s),
                side.min(base),
                n,
            )
        }
    }
}

/// A point or a small sphere deep inside a box, a cylinder or a cone, all
/// turned and placed at random: EPA and MPR give the exact depth (to 1e-9 of
/// the size), keep the contract and a certificate holding it, converge, and
/// their normals are within 1e-7 rad of the exact one (on a cylinder's or
/// cone's side only after the polish: EPA's polytope alone is ~1e-4 off).
#[test]
fn point_core_deep_inside_box_cylinder_cone_exact() {
    let mut rng = Rng::new(0xdee9);
    for family in ["box", "cylinder", "cone"] {
        for i in 0..300 {
            let (sa, c, depth, nl) = inside(&mut rng, family);
            let r = if i % 2 == 0 {
                0.0
            } else {
                rng.range(0.01, 0.2)
            };
            let sb = if r == 0.0 {
                Shape::new(cspace::Geom::Point)
            } else {
                Shape::sphere(r)
            };
            let rot = rng.rotation();
            let pos = rng.unit() * rng.range(0.0, 5.0);
            let a = placed(&sa, pos, rot);
            let b = placed(&sb, pos + rot * c, rng.rotation());
            let (truth, normal) = (depth + r, rot * nl);
            for (k, p) in [epa::penetration(&a, &b), mpr::penetration(&a, &b)]
                .iter()
                .enumerate()
            {
                let what = format!("{family} case {i} method {k}");
                contract(p, &what);
                certificate(p, truth, sa.scale(), &what);
                assert_eq!(p.status, Status::Converged, "{what}: {p:?}");
                assert!(
                    (p.depth - truth).abs() <= 1e-9 * sa.scale(),
                    "{what}: depth {} vs {truth}",
                    p.depth
                );
                let e = angle(p.normal, normal);
                assert!(e <= 1e-7, "{what}: normal off by {e:e} rad: {p:?}");
            }
        }
    }
}

/// Two boxes as hulls turned alike, overlapping by a known least amount
/// along one of their face normals (cases where another axis overlaps less
/// than 1.1 times as much are skipped: the normal is then not unique): EPA
/// and MPR find that face normal to 1e-7 rad and the depth exactly.
#[test]
fn box_hulls_known_axis_normal_exact() {
    let mut rng = Rng::new(0xa815);
    for i in 0..200_usize {
        let ((ha, hb, c), (n, truth), unique) = known_axis_boxes(&mut rng, i);
        if !unique {
            continue; // no unique normal
        }
        let rot = rng.rotation();
        let base = rng.unit() * rng.range(0.0, 5.0);
        let (sa, sb) = (box_hull(ha), box_hull(hb));
        let a = placed(&sa, base, rot);
        let b = placed(&sb, base + rot * c, rot);
        let normal = rot * n;
        for (k, p) in [epa::penetration(&a, &b), mpr::penetration(&a, &b)]
            .iter()
            .enumerate()
        {
            let what = format!("pair {i} method {k}");
            contract(p, &what);
            assert!(
                (p.depth - truth).abs() <= 1e-9 * truth,
                "{what}: {p:?} vs {truth}"
            );
            let e = angle(p.normal, normal);
            assert!(e <= 1e-7, "{what}: normal off by {e:e} rad");
            assert_eq!(p.status, Status::Converged, "{what}");
        }
    }
}

/// How far `p` lies outside `s` seen along `dirs` (0 inside): the largest
/// `p · u − h(u)` over the directions, `h` the placed shape's support height.
fn outside(s: &Placed<'_, f64>, p: DVec3, dirs: &[DVec3]) -> f64 {
    dirs.iter()
        .map(|&u| p.dot(u) - s.support(u).dot(u))
        .fold(0.0, f64::max)
}

/// A placed shape: the shape, its position and rotation.
type Body = (Shape<f64>, DVec3, DQuat);

/// Pairs the fuzzer found with a contact point off its shape (0.07 to 0.92
/// of the size): a cone's base over a small cylinder (the support point of
/// the base is any rim point), boxes with nearly parallel faces (EPA's best
/// face below the support plane; the separating-axis fallback; MPR's
/// support corners).
#[allow(clippy::too_many_lines, reason = "four cases' inputs, written out")]
fn fuzzed_contacts() -> Vec<(&'static str, Body, Body)> {
    let q = |x: f64, y: f64, z: f64, w: f64| DQuat::from_xyzw(x, y, z, w).normalize();
    vec![
        (
            "cone base over a small cylinder",
            (
                Shape::cone(0.312_303_114_098_408_55, 0.393_734_265_814_347_84),
                DVec3::new(
                    0.487_209_776_697_163_5,
                    -0.520_136_757_696_759_6,
                    -0.803_182_301_819_255_4,
                ),
                q(
                    -0.424_772_360_501_003_3,
                    -0.438_297_921_927_845_34,
                    -0.791_849_971_621_267_7,
                    -0.020_904_445_257_784_794,
                ),
            ),
            (
                Shape::cylinder(0.000_684_432_182_517_618_5, 0.000_529_133_801_795_644_4),
                DVec3::new(
                    0.528_910_117_118_196_1,
                    -0.314_438_925_848_173_96,
                    -0.834_195_763_127_632_9,
                ),
                q(
                    0.332_635_279_260_176_6,
                    -0.235_620_039_455_942_9,
                    -0.526_415_580_906_755_2,
                    0.746_139_131_916_352_3,
                ),
            ),
        ),
        (
            "boxes, nearly parallel faces (EPA)",
            (
                Shape::cuboid(DVec3::new(
                    1.731_972_853_447_162_1,
                    1.652_169_442_585_875_7,
                    0.385_253_119_905_355_5,
                )),
                DVec3::new(
                    -0.488_440_727_677_802_9,
                    -0.936_725_787_391_400_3,
                    0.923_973_504_840_918_6,
                ),
                q(
                    -0.882_681_538_163_450_3,
                    0.199_824_709_070_951_73,
                    -0.413_271_723_846_196_8,
                    -0.100_746_563_709_675_72,
                ),
            ),
            (
                Shape::cuboid(DVec3::new(
                    1.699_253_556_080_253_7,
                    0.670_577_271_474_477_5,
                    0.053_718_715_016_393_89,
                )),
                DVec3::new(
                    -0.385_026_533_170_984_6,
                    -1.253_512_046_620_050_4,
                    1.466_116_729_021_929_2,
                ),
                q(
                    -0.882_681_491_726_156_2,
                    0.199_824_714_112_493_45,
                    -0.413_271_692_856_870_76,
                    -0.100_747_087_685_769_79,
                ),
            ),
        ),
        (
            "boxes, nearly parallel faces (separating axes after a degenerate EPA)",
            (
                Shape::cuboid(DVec3::new(
                    1.474_744_793_634_126_2,
                    1.293_439_183_042_921,
                    0.455_450_485_441_391_8,
                )),
                DVec3::new(
                    0.035_943_013_107_498_256,
                    0.210_421_354_071_025_14,
                    0.608_718_129_074_712_1,
                ),
                q(
                    -0.653_007_063_830_558_5,
                    -0.632_370_161_574_376_3,
                    0.252_682_848_933_740_8,
                    -0.331_422_888_757_729_3,
                ),
            ),
            (
                Shape::cuboid(DVec3::new(
                    1.045_207_100_895_128_7,
                    1.501_651_324_203_712_8,
                    0.491_894_911_065_601_6,
                )),
                DVec3::new(
                    0.965_788_066_347_899_4,
                    -0.216_537_124_018_135_35,
                    0.622_802_473_170_367,
                ),
                q(
                    -0.653_007_051_462_400_3,
                    -0.632_370_163_537_975_6,
                    0.252_682_855_219_332_15,
                    -0.331_422_904_587_993_1,
                ),
            ),
        ),
        (
            "boxes, nearly parallel faces (MPR's support corners)",
            (
                Shape::cuboid(DVec3::new(
                    0.958_295_066_256_347_4,
                    1.115_108_487_243_527_5,
                    0.349_817_337_741_095_4,
                )),
                DVec3::new(
                    -0.479_958_533_268_973_75,
                    -0.092_571_477_953_596_44,
                    0.108_395_585_340_514_74,
                ),
                q(
                    0.440_249_468_106_291,
                    0.196_861_455_653_249_94,
                    0.297_677_435_058_399_9,
                    0.823_901_764_634_148_3,
                ),
            ),
            (
                Shape::cuboid(DVec3::new(
                    0.992_252_239_164_195_8,
                    1.708_959_737_608_099,
                    0.464_917_157_199_001_2,
                )),
                DVec3::new(
                    -0.171_875_911_222_357_37,
                    -0.075_498_899_247_190_72,
                    1.000_641_715_078_715_7,
                ),
                q(
                    0.440_249_374_943_993_6,
                    0.196_861_437_190_231_5,
                    0.297_677_347_241_874_9,
                    0.823_901_850_554_943,
                ),
            ),
        ),
    ]
}

/// Each contact point of those pairs lies on its shape, to the depth's
/// tolerance, seen along the normal, the axes and 200 directions, and on
/// its supporting plane.
#[test]
fn contact_points_lie_on_their_shapes_on_faces_and_rims() {
    let mut rng = Rng::new(7);
    let mut dirs: Vec<DVec3> = (0..200).map(|_| rng.unit()).collect();
    dirs.extend([
        DVec3::X,
        DVec3::NEG_X,
        DVec3::Y,
        DVec3::NEG_Y,
        DVec3::Z,
        DVec3::NEG_Z,
    ]);
    for (name, (sa, pa, ra), (sb, pb, rb)) in &fuzzed_contacts() {
        let (a, b) = (placed(sa, *pa, *ra), placed(sb, *pb, *rb));
        let size = sa.scale() + sb.scale();
        for (method, p) in [
            ("epa", epa::penetration(&a, &b)),
            ("mpr", mpr::penetration(&a, &b)),
        ] {
            let what = format!("{method}, {name}");
            contract(&p, &what);
            let n = p.normal;
            let mut seen = dirs.clone();
            seen.push(n);
            seen.push(-n);
            let (oa, ob) = (outside(&a, p.point_a, &seen), outside(&b, p.point_b, &seen));
            let tol = rel::<f64>() * size * 4.0;
            assert!(
                oa <= tol && ob <= tol,
                "{what}: outside by {oa:e} (A), {ob:e} (B): {p:?}"
            );
            // On the supporting planes: the deepest points along the normal.
            let ha = a.support(n).dot(n) - p.point_a.dot(n);
            let hb = b.support(-n).dot(-n) + p.point_b.dot(n);
            assert!(
                ha.abs() <= tol && hb.abs() <= tol,
                "{what}: off the planes by {ha:e}, {hb:e}"
            );
        }
    }
}

/// f32 EPA against f64 EPA on the same inputs (shapes and poses of f32
/// values): random overlaps of curved, box, capsule and hull pairs. A
/// `Converged` f32 answer's bounds hold the f64 depth (good to 1e-8 of the
/// size) to the input's rounding; its normal is within 1e-3 rad of the f64
/// one except where the depth is flat in the normal (here 13 of 3 893; of
/// 19 546 such overlaps 85, worst 1.7e-2 rad, with depths within 1.4e-5 of
/// the size: f32's stated depth tolerance, 2.4e-5, leaves the normal
/// ~√(2.4e-5) free where the depth's curvature is small).
#[test]
fn f32_penetration_is_bracketed_by_its_bounds() {
    use glam::Vec3A;
    let r32 = |v: DVec3| v.as_vec3().as_dvec3();
    let q32 = |q: DQuat| {
        let f = q.as_quat();
        DQuat::from_xyzw(f.x.into(), f.y.into(), f.z.into(), f.w.into())
    };
    let mut rng = Rng::new(5);
    let (mut compared, mut loose, mut worst_out) = (0u32, 0u32, 0.0f64);
    for _ in 0..4000 {
        let size = |rng: &mut Rng| f64::from(rng.range(0.2, 2.0) as f32);
        let shape = |rng: &mut Rng| match rng.below(5) {
            0 => Shape::cylinder(size(rng), size(rng)),
            1 => Shape::cone(size(rng), size(rng)),
            2 => Shape::cuboid(DVec3::new(size(rng), size(rng), size(rng))),
            3 => Shape::capsule(size(rng), size(rng)),
            _ => Shape::hull((0..12).map(|_| r32(rng.unit() * 1.5)).collect()),
        };
        let (sa, sb) = (shape(&mut rng), shape(&mut rng));
        let (qa, qb) = (q32(rng.rotation()), q32(rng.rotation()));
        let pa = r32(rng.unit() * 4.0);
        let pb = pa + r32(rng.unit() * rng.range(0.0, 1.5));
        let wide = epa::penetration(
            &Placed::new(&sa, Pose::new(pa, qa)),
            &Placed::new(&sb, Pose::new(pb, qb)),
        );
        if !(wide.intersecting && wide.status == Status::Converged && wide.depth > 1e-3) {
            continue;
        }
        let (fa, fb) = (sa.to_precision::<f32>(), sb.to_precision::<f32>());
        let pose = |p: DVec3, q: DQuat| Pose::<f32>::new(Vec3A::from(p.as_vec3()), q.as_quat());
        let narrow = epa::penetration(
            &Placed::new(&fa, pose(pa, qa)),
            &Placed::new(&fb, pose(pb, qb)),
        );
        if narrow.status != Status::Converged {
            continue;
        }
        compared += 1;
        let reach = pa.length() + pb.length() + sa.scale().max(sb.scale());
        let (lo, hi) = (f64::from(narrow.lower_bound), f64::from(narrow.upper_bound));
        let out =
            (lo - wide.depth).max(wide.depth - hi).max(0.0) / (f64::from(f32::EPSILON) * reach);
        worst_out = worst_out.max(out);
        assert!(
            out <= 4.0,
            "f32 bounds [{lo}, {hi}] miss {} by {out} roundings",
            wide.depth
        );
        let n = narrow.normal.as_dvec3();
        loose += u32::from(n.cross(wide.normal).length().atan2(n.dot(wide.normal)) > 1e-3);
    }
    println!(
        "f32 EPA: {compared} compared, bounds miss the f64 depth by ≤ {worst_out:.2} roundings, {loose} normals over 1e-3 rad"
    );
    assert!(
        compared > 3000 && loose * 100 <= compared,
        "{compared} {loose}"
    );
}

/// A review's case: a cone's rim 9.3e-10 into a box's face. GJK ended on a
/// simplex whose plane passes within 1.5e-8 of the origin, and EPA took
/// that plane's support depth as both bounds: `lower_bound` 1.5e-8, 16 times
/// the overlap along the face's normal, which bounds the depth from above.
/// A flat start bounds the depth from above only.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_flat_gjk_simplex_bounds_the_depth_from_above_only() {
    let a = Shape::<f64>::cone(0.9277156741203256, 0.7841625873887825);
    let pa = Pose::<f64>::new(
        DVec3::new(1.4844967987522288, 1.6305670715475653, -1.2206364317787066),
        DQuat::from_xyzw(
            -0.8831561322123962,
            0.07623837564806199,
            0.46083069672718185,
            0.04310481606648848,
        ),
    );
    let b = Shape::cuboid(DVec3::new(
        0.419467553184168,
        0.5790367981271741,
        1.9968373805088453,
    ));
    let pb = Pose::<f64>::new(
        DVec3::new(
            -0.053482223276444474,
            4.338447543487398,
            -0.3593571032824031,
        ),
        DQuat::from_xyzw(
            -0.1884766764992994,
            0.6131495901450189,
            0.7325987960959455,
            -0.22764693382416917,
        ),
    );
    // The box face's normal, and the overlap of the shapes along it.
    let n = DVec3::new(-0.5553188209352222, 0.8125730281290553, 0.17704824504154812);
    let (pa, pb) = (Placed::new(&a, pa), Placed::new(&b, pb));
    let overlap = -distance_lower_bound(&pa, &pb, n);
    assert!(overlap > 0.0 && overlap < 1e-9, "{overlap:e}");
    let p = epa::penetration(&pa, &pb);
    assert!(p.intersecting, "{p:?}");
    assert!(
        p.lower_bound <= overlap,
        "lower bound above {overlap:e}: {p:?}"
    );
    assert!(p.upper_bound >= p.lower_bound, "{p:?}");
    let s = cspace::signed::signed_distance(&pa, &pb);
    assert!(
        s.upper_bound >= -overlap,
        "upper bound below {:e}: {s:?}",
        -overlap
    );
}

/// A review's case: two unit boxes 1e-13 apart, touching within the
/// tolerance, read a depth of −1e-13 with bounds `[−1e-13, −1e-13]`, and
/// the signed distance +1e-13 while intersecting. Touching from just apart
/// is depth 0; the signed distance is 0 with bounds that hold the gap.
#[test]
fn boxes_touching_from_just_apart_have_depth_zero() {
    let b = Shape::<f64>::cuboid(DVec3::ONE);
    let gap = 1e-13;
    let pa = Placed::new(&b, Pose::IDENTITY);
    let pb = Placed::new(&b, Pose::from_position(DVec3::new(2.0 + gap, 0.0, 0.0)));
    for p in [epa::penetration(&pa, &pb), mpr::penetration(&pa, &pb)] {
        assert!(p.intersecting, "{p:?}");
        assert!(p.depth >= 0.0 && p.lower_bound >= 0.0, "{p:?}");
        assert!(p.lower_bound <= 0.0 && p.upper_bound >= p.depth, "{p:?}");
        contract(&p, "boxes touching from just apart");
    }
    for depth in [cspace::signed::Depth::Epa, cspace::signed::Depth::Mpr] {
        let s = cspace::signed::signed_distance_with(&pa, &pb, depth);
        assert!(s.intersecting && s.distance <= 0.0, "{s:?}");
        // The true signed distance is the gap (2 + 1e-13 rounds to 2.0000000000000999).
        assert!(s.lower_bound <= 0.0 && s.upper_bound >= 0.99e-13, "{s:?}");
    }
}

/// A cylinder's rim pressed into the narrow face of a hull plate on turned
/// axes (`exact_common::turned_plate`, 1e-9 to 1e-5 thick) by up to an
/// eighth of the face's width (sideways across the plate then costs more:
/// the depth and normal are the face's). GJK's simplex lies in the face,
/// flat, and EPA took its normal: 440 of 2 000 `Converged` answers (MPR's
/// 323, by the same path) had normals 1e-5 to 6e-4 rad off. The flat
/// start's normal is polished on the supports now. A `Converged` answer has
/// its normal within 1e-7 rad and its depth within 1e-8 of the size, and
/// the bounds hold the depth.
#[test]
fn a_rim_pressed_into_a_plates_narrow_face_takes_its_normal() {
    let mut rng = Rng::new(1);
    let mut converged = [0; 2];
    for i in 0..1000 {
        let (c, depth) = pressed_into_a_plate(&mut rng, "cylinder rim", i % 2 == 1);
        let (pa, pb) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
        for (k, p) in [epa::penetration(&pa, &pb), mpr::penetration(&pa, &pb)]
            .into_iter()
            .enumerate()
        {
            let what = format!("{} case {i}, {}", c.name, ["epa", "mpr"][k]);
            contract(&p, &what);
            if p.status != Status::Converged {
                continue;
            }
            converged[k] += 1;
            let off = angle(p.normal, c.normal);
            assert!(
                p.intersecting && off <= 1e-7,
                "{what}: normal {off:e}: {p:?}"
            );
            assert!((p.depth - depth).abs() <= 1e-8 * c.scale, "{what}: {p:?}");
            if k == 0 {
                certificate(&p, depth, c.scale, &what);
            }
        }
    }
    println!(
        "converged: epa {}, mpr {} of 1 000",
        converged[0], converged[1]
    );
    assert!(converged[0] >= 500 && converged[1] >= 800, "{converged:?}");
}

/// A cone's apex, a box's corner or a hull's vertex pressed 1e-12 to 1e-9
/// into the narrow face of a plate 1e-9 to 4e-9 thick (cases of 400 so
/// built): any face that shallow meets EPA's tolerance, and EPA took the
/// plate pushed sideways, its normal 0.14 to 1.57 rad off the face's,
/// `Converged` (a face that narrow makes the polytope's faces slivers whose
/// rounding breaks it). MPR's re-casts from inside and the support sets'
/// own faces (the plate, whole within the tolerance under the support
/// plane) find the face's normal, shallower, and are taken; the signed
/// distance takes the same answer. (BENCHMARKS.md: 2 000 of each family
/// over three seeds.)
#[test]
fn a_vertex_pressed_into_a_thin_plate_takes_the_faces_normal() {
    let cases = [
        ("cone apex", 37),
        ("box", 25),
        ("box", 114),
        ("box", 245),
        ("hull", 77),
        ("hull", 135),
        ("hull", 258),
    ];
    for (family, index) in cases {
        let (c, depth) = nth_pressed((1, index), family, |i| (i / 2) % 2 == 1);
        let p = takes_the_faces_normal(&c, depth);
        assert!((p.depth - depth).abs() <= 1e-12 * c.scale, "{p:?}");
        // The signed distance takes the same answer.
        let (pa, pb) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
        let s = cspace::signed::signed_distance(&pa, &pb);
        let off = angle(s.normal, c.normal);
        assert!(s.status == Status::Converged && off <= 1e-7, "{s:?}");
    }
}

/// The same vertices, 400 of each family: no `Converged` normal is past
/// 1e-7 rad (4 box corners and 12 hull vertices were, up to 1.31 rad).
/// And GJK stalled on the plate's slivers and called the shapes apart with
/// its bounds straddling touching, and the penetration said depth 0 with
/// the bracket `[0, 0]` (11 box corners and hull vertices up to 5.3e-10
/// deep, `Degenerate` or `Converged`). The bracket holds the true depth now
/// in every case, whatever the status; the depth along GJK's normal is its
/// upper bound where GJK did not prove the shapes apart.
#[test]
fn a_vertex_pressed_into_a_thin_plate_keeps_the_depth_in_its_bracket() {
    for family in ["box", "hull", "cone apex"] {
        let mut rng = Rng::new(1);
        let mut off_normal = 0;
        for i in 0..400 {
            let (c, depth) = pressed_into_a_plate(&mut rng, family, (i / 2) % 2 == 1);
            let (pa, pb) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
            let p = epa::penetration(&pa, &pb);
            if p.status == Status::Converged && angle(p.normal, c.normal) > 1e-7 {
                off_normal += 1;
            }
            let what = format!("{} case {i}", c.name);
            let slack = 1e-12 * c.scale;
            assert!(
                p.lower_bound <= depth + slack && depth <= p.upper_bound + slack,
                "{what}: true depth {depth:e} outside [{:e}, {:e}], {:?}",
                p.lower_bound,
                p.upper_bound,
                p.status
            );
            if p.intersecting {
                contract(&p, &what);
            }
        }
        assert_eq!(off_normal, 0, "{family}: `Converged` normals past 1e-7 rad");
    }
}

/// A `family` shape (A) pressed into the narrow face of a hull plate on
/// turned axes (`exact_common::turned_plate`, 1e-9 to 1e-5 thick, with
/// `mid` two points mid-way along its long edges) by up to an eighth of
/// the face's width, a quarter of it from the face's edges: sideways across
/// the plate then costs more, so the depth and normal are the face's. The
/// case and the depth.
fn pressed_into_a_plate(rng: &mut Rng, family: &str, mid: bool) -> (exact_common::Case, f64) {
    let c = exact_common::at_a_plates_narrow_face(rng, family, mid, 0.75, |rng, h| {
        -0.75 * h * 10f64.powf(rng.range(-3.0, 0.0))
    });
    let depth = -c.distance;
    (c, depth)
}

/// How far `p` (world) lies outside box `h` placed at `pose`.
fn outside_box(p: glam::Vec3A, h: glam::Vec3A, pose: Pose<f32>) -> f32 {
    let local = pose.rotation.inverse() * (p - pose.position);
    (local.abs() - h).max(glam::Vec3A::ZERO).length()
}

/// Fuzz seed 62, case 342 688 (the `parallel` family): two f32 boxes with
/// the same rotation to an ulp, their faces a hair apart. EPA's flat start
/// read −2.5e-5 along its normal (depth 0); the support sets' faces
/// (`shallow`) found a face's normal and took the two support points as
/// the contact, vertices of each box's face, whose midpoint lay 0.068
/// outside both boxes. The contact is a combination of support points on
/// both faces now (`contact::pair`).
#[test]
fn parallel_f32_boxes_a_hair_apart_keep_their_contact_points_on_them() {
    let v = |x: u32, y: u32, z: u32| {
        glam::Vec3A::new(f32::from_bits(x), f32::from_bits(y), f32::from_bits(z))
    };
    // Quaternions as the fixture stores them, `[x, y, z, w]`.
    let q = |x: u32, y: u32, z: u32, w: u32| {
        glam::Quat::from_xyzw(
            f32::from_bits(x),
            f32::from_bits(y),
            f32::from_bits(z),
            f32::from_bits(w),
        )
    };
    let ha = v(0x3fcb_0a3d, 0x3ff2_95ea, 0x3f62_dd48);
    let hb = v(0x3f16_1954, 0x3fba_4ae0, 0x3e77_e564);
    let pose_a = Pose::new(
        v(0x3f34_3233, 0xbf05_3cef, 0x3e79_1926),
        q(0x3f40_0dca, 0x3b4f_46c9, 0x3ed3_d85e, 0xbf04_06d8),
    );
    let pose_b = Pose::new(
        v(0x3fd0_80c7, 0x3eb7_2a9d, 0x3f9e_4bdc),
        q(0x3f40_0dca, 0x3b4f_46c0, 0x3ed3_d85f, 0xbf04_06d8),
    );
    let (a, b) = (Shape::<f32>::cuboid(ha), Shape::<f32>::cuboid(hb));
    let (pa, pb) = (Placed::new(&a, pose_a), Placed::new(&b, pose_b));
    for p in [epa::penetration(&pa, &pb), mpr::penetration(&pa, &pb)] {
        let off = outside_box(p.point_a, ha, pose_a).max(outside_box(p.point_b, hb, pose_b));
        assert!(
            off <= 1e-4,
            "a contact point {off:e} outside its box: {p:?}"
        );
    }
}

/// A hull's vertex pressed 6.7e-8 and 9.1e-8 into the narrow face of a
/// plate 2.4e-7 thick (cases 1 352 and 668 of 2 000 built with seeds 11
/// and 12): the plate is wider than EPA's tolerance, but a face of EPA's
/// polytope within the tolerance of the least depth tilts by up to
/// tolerance / width, and EPA stopped there, `Converged` with the normal
/// 7.1e-3 and 2.2e-3 rad off. On polytope cores EPA goes on (at most 16
/// expansions) until its nearest face is a face of the CSO to rounding.
#[test]
fn a_vertex_pressed_into_a_plate_wider_than_the_tolerance_takes_the_faces_normal() {
    for (seed, index) in [(11, 1352), (12, 668)] {
        let (c, depth) = nth_pressed((seed, index), "hull", |i| i % 2 == 1);
        takes_the_faces_normal(&c, depth);
    }
}

/// Case `index` of [`pressed_into_a_plate`]'s sequence from `seed`, the
/// plate with mid-edge points where `mid(i)` says, and its depth.
fn nth_pressed(
    (seed, index): (u64, usize),
    family: &str,
    mid: fn(usize) -> bool,
) -> (exact_common::Case, f64) {
    let mut rng = Rng::new(seed);
    for i in 0..index {
        pressed_into_a_plate(&mut rng, family, mid(i));
    }
    pressed_into_a_plate(&mut rng, family, mid(index))
}

/// EPA's answer on `c`: `Converged`, the face's normal to 1e-7 rad and the
/// true `depth` in its bracket.
fn takes_the_faces_normal(c: &exact_common::Case, depth: f64) -> Penetration<f64> {
    let (pa, pb) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
    let p = epa::penetration(&pa, &pb);
    let off = angle(p.normal, c.normal);
    assert!(
        p.status == Status::Converged && off <= 1e-7,
        "{}: normal {off:e}: {p:?}",
        c.name
    );
    certificate(&p, depth, c.scale, &c.name);
    p
}

/// How often `normal_within` certifies the normal, over cases whose exact
/// normal is known; every claim checked against it.
#[derive(Debug, Default)]
struct Claims {
    cases: usize,
    /// `normal_within` at most the normal tolerance.
    certified: usize,
    /// `normal_within` is π: no bound.
    unbounded: usize,
}

impl Claims {
    /// Checks `p`'s claim against the exact normal `exact`, known to
    /// `slack` (the rounding of an f32 case's input): the normal is within
    /// `normal_within` of it. `tol` is the normal tolerance.
    fn check<T: Real>(
        &mut self,
        p: &Penetration<T>,
        exact: DVec3,
        (slack, tol): (f64, f64),
        what: &str,
    ) {
        let off = angle(DVec3::from_array(p.normal.to_f64()), exact);
        let within = p.normal_within.to_f64();
        assert!(
            off <= within + slack,
            "{what}: the normal is {off:e} rad off, claimed within {within:e}: {p:?}"
        );
        self.cases += 1;
        self.certified += usize::from(within <= tol);
        self.unbounded += usize::from(within >= std::f64::consts::PI);
    }
}

/// Two boxes (half extents `ha`, `hb`) turned alike, B's centre at `c`
/// in their frame, overlapping least along a known face normal: along axis
/// `i % 3` (sign by `i`'s parity) by 5–40 % of the summed extents, the
/// others by 60–95 % of theirs, so the least may be another axis: the
/// least's local unit normal and depth, and whether every other axis
/// overlaps at least 1.1 times as much (else the normal is not unique).
fn known_axis_boxes(rng: &mut Rng, i: usize) -> ((DVec3, DVec3, DVec3), (DVec3, f64), bool) {
    let ha = rng.vec_in(0.3, 2.0);
    let hb = rng.vec_in(0.3, 2.0);
    let sum = ha + hb;
    let axis = i % 3;
    let sign = if i.is_multiple_of(2) { 1.0 } else { -1.0 };
    let mut c = DVec3::ZERO;
    for k in 0..3 {
        let keep = if k == axis {
            rng.range(0.05, 0.4)
        } else {
            rng.range(0.6, 0.95)
        };
        c[k] = sum[k]
            * (1.0 - keep)
            * if k == axis {
                sign
            } else {
                rng.range(-1.0, 1.0).signum()
            };
    }
    let overlaps = sum - c.abs();
    let truth = overlaps.min_element();
    let axis = (0..3).fold(0, |i, k| if overlaps[k] < overlaps[i] { k } else { i });
    let unique = (0..3).all(|k| k == axis || overlaps[k] >= 1.1 * truth);
    let mut n = DVec3::ZERO;
    n[axis] = c[axis].signum();
    ((ha, hb, c), (n, truth), unique)
}

/// Every penetration answer's `normal_within` bounds its normal's angle
/// from the exact one, on cases whose least-depth direction is unique and
/// known: two boxes along a known axis (as hulls, EPA; as boxes, the
/// separating axis test), a point or small sphere deep inside a box,
/// cylinder or cone (closed forms), and a box corner, hull vertex, cone
/// apex or cylinder rim pressed into a plate's narrow face (EPA and the
/// support sets' faces), in f64 and f32; with how often it certifies the
/// normal tolerance (1e-7 rad in f64, 1e-3 in f32), asserted on the
/// families where the certificate reaches it.
#[test]
fn normal_within_bounds_the_exact_normal() {
    let mut rng = Rng::new(0xa1);
    let mut boxes = [
        Claims::default(),
        Claims::default(),
        Claims::default(),
        Claims::default(),
    ];
    for i in 0..400 {
        let ((ha, hb, c), (n, _), unique) = known_axis_boxes(&mut rng, i);
        if !unique {
            continue;
        }
        let (rot, base) = (rng.rotation(), rng.unit() * rng.range(0.0, 5.0));
        let n = rot * n;
        let pairs = [
            (box_hull(ha), box_hull(hb)),
            (Shape::cuboid(ha), Shape::cuboid(hb)),
        ];
        for (k, (sa, sb)) in pairs.iter().enumerate() {
            let what = format!("boxes {i} as {}", ["hulls", "boxes"][k]);
            let p = epa::penetration(&placed(sa, base, rot), &placed(sb, base + rot * c, rot));
            boxes[k].check(&p, n, (1e-15, 1e-7), &what);
            let (sa, sb) = (sa.to_precision::<f32>(), sb.to_precision::<f32>());
            let p = epa::penetration(&placed(&sa, base, rot), &placed(&sb, base + rot * c, rot));
            boxes[2 + k].check(&p, n, (1e-6, 1e-3), &format!("{what} f32"));
        }
    }
    let mut points = [Claims::default(), Claims::default()];
    for family in ["box", "cylinder", "cone"] {
        for i in 0..300 {
            let (sa, c, _, nl) = inside(&mut rng, family);
            let sb = if i % 2 == 0 {
                Shape::new(cspace::Geom::Point)
            } else {
                Shape::sphere(rng.range(0.01, 0.2))
            };
            let (rot, pos) = (rng.rotation(), rng.unit() * rng.range(0.0, 5.0));
            let what = format!("{family} point {i}");
            let (a, b) = (
                placed(&sa, pos, rot),
                placed(&sb, pos + rot * c, rng.rotation()),
            );
            points[0].check(&epa::penetration(&a, &b), rot * nl, (1e-15, 1e-7), &what);
            let (sa, sb) = (sa.to_precision::<f32>(), sb.to_precision::<f32>());
            let (a, b) = (placed(&sa, pos, rot), placed(&sb, pos + rot * c, rot));
            points[1].check(
                &epa::penetration(&a, &b),
                rot * nl,
                (1e-6, 1e-3),
                &format!("{what} f32"),
            );
        }
    }
    let near_cores = spheres_just_off_cores(&mut rng);
    let on_box = cylinders_on_a_box(&mut rng);
    println!("a cylinder on a box (rim, side): {on_box:?}");
    let plates = pressed_claims(&mut rng);
    println!("boxes (hulls, boxes, hulls f32, boxes f32): {boxes:#?}");
    println!("points in cores (f64, f32): {points:#?}");
    println!("spheres just off cores (f64, f32): {near_cores:#?}");
    println!("pressed into plates: {plates:#?}");
    // The separating axis test and the closed forms know their candidates;
    // EPA on a face of the CSO bounds it by rounding over the face's width.
    for (k, c) in boxes.iter().chain(&points[..1]).enumerate() {
        assert!(c.certified == c.cases, "{k}: {c:?}");
    }
    // In f32 a point within ~1e-5 of a cylinder's or cone's axis has a
    // radial direction rounded by more than 1e-3.
    assert!(
        points[1].certified * 100 >= points[1].cases * 99,
        "{points:?}"
    );
    // A sphere's centre within rounding of a core leaves its direction
    // open: in f64 one case of 800 (t ≥ 1e-6 of the size).
    assert!(
        near_cores[0].certified * 100 >= near_cores[0].cases * 99,
        "{near_cores:?}"
    );
    // A plate's narrow face is as wide as the plate is thick (1e-9 to
    // 1e-5): the disc under it bounds the normal by rounding over that
    // width, 1e-7 rad or better in about half the cases.
    for (family, c) in &plates[..3] {
        assert!(
            c.unbounded * 50 <= c.cases && c.certified * 3 >= c.cases,
            "{family}: {c:?}"
        );
    }
    // A rim on a face: the face under it, where the support sets hold it.
    let (family, rim) = &plates[3];
    assert!(
        rim.unbounded * 20 <= rim.cases && rim.certified * 3 >= rim.cases,
        "{family}: {rim:?}"
    );
    assert!(on_box.certified * 100 >= on_box.cases * 95, "{on_box:?}");
}

/// A shape of f32-exact sizes for [`f32_claims_hold_in_f64`]: a box,
/// cone, cylinder, capsule, sphere or 12-point hull, 0.3–2 across.
fn f32_exact_shape(rng: &mut Rng) -> Shape<f64> {
    let kind = rng.below(6);
    let mut size = || f64::from(rng.range(0.3, 2.0) as f32);
    match kind {
        0 => Shape::cuboid(DVec3::new(size(), size(), size())),
        1 => Shape::cone(size(), size()),
        2 => Shape::cylinder(size(), size()),
        3 => Shape::capsule(size(), size()),
        4 => Shape::sphere(size()),
        _ => {
            let points = (0..12)
                .map(|_| DVec3::new(size(), size(), size()) - 1.2)
                .collect();
            Shape::hull(points)
        }
    }
}

/// f32 penetration normals' claims judged by f64 on the same input (widened
/// exactly: f32 sizes and positions, rotations whose quaternion components
/// are 0, ±½ or ±1, exact in both): shapes overlapping 1e-8…1e-4 of their
/// size, where f32's rounding may read overlapping cores apart. Wherever
/// f64 bounds its own normal to 1e-6 rad, the f32 normal is within the sum
/// of the two bounds (the cone and box case below is one such claim this
/// sampling does not reach).
#[test]
fn f32_claims_hold_in_f64() {
    let mut rng = Rng::new(0xf32);
    let turns: Vec<DQuat> = (0..16)
        .map(|i: u32| {
            let c = [0, 1, 2, 3].map(|k| if i >> k & 1 == 1 { 0.5 } else { -0.5 });
            DQuat::from_xyzw(c[0], c[1], c[2], c[3])
        })
        .chain([DQuat::IDENTITY, DQuat::from_xyzw(1.0, 0.0, 0.0, 0.0)])
        .collect();
    let (mut judged, mut certified) = (0, 0);
    for i in 0..3000 {
        let (a, b) = (f32_exact_shape(&mut rng), f32_exact_shape(&mut rng));
        let qa = turns[rng.below(turns.len() as u64) as usize];
        let qb = turns[rng.below(turns.len() as u64) as usize];
        let pa = Pose::new(DVec3::ZERO, qa);
        let u = rng.unit();
        let target = -10f64.powf(rng.range(-8.0, -4.0));
        // B along `u` until f64's signed distance reads `target`.
        let mut t = 4.0;
        for _ in 0..8 {
            let s = cspace::signed::signed_distance(
                &Placed::new(&a, pa),
                &Placed::new(&b, Pose::new(u * t, qb)),
            );
            let slope = u.dot(s.normal);
            if slope.abs() < 0.1 {
                break;
            }
            t -= (s.distance - target) / slope;
        }
        let pb = Pose::new((u * t).as_vec3().as_dvec3(), qb);
        let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
        let p32 = epa::penetration(
            &Placed::new(&a32, gjk_common::pose_f32(&pa)),
            &Placed::new(&b32, gjk_common::pose_f32(&pb)),
        );
        let p64 = epa::penetration(&Placed::new(&a, pa), &Placed::new(&b, pb));
        if !(p32.intersecting && p64.intersecting && p64.normal_within <= 1e-6) {
            continue;
        }
        judged += 1;
        certified += usize::from(p32.normal_within <= 1e-3);
        let off = angle(DVec3::from_array(p32.normal.to_f64()), p64.normal);
        let within = f64::from(p32.normal_within) + p64.normal_within;
        assert!(
            off <= within + 1e-6,
            "case {i}: f32's normal is {off:e} rad off f64's, claimed within {within:e}:\n{a:?} {pa:?}\n{b:?} {pb:?}\n{p32:?}\n{p64:?}"
        );
    }
    println!("f32 claims judged {judged}, certified 1e-3 rad {certified}");
    assert!(judged >= 1000, "{judged}");
}

/// An f32 cone and box overlapping by rounding (6.4e-7 along a normal
/// f64 certifies, on the same input widened): f32 GJK reads the cores
/// apart, and the distance witness's normal, 0.81 rad from the least
/// depth's, claimed 1e-3 rad. Cores not proven apart prove nothing about
/// the least depth's direction: the claim must hold against f64's, in both
/// penetration methods and the signed distance.
#[test]
fn an_f32_cone_read_apart_from_a_box_claims_no_normal_it_lacks() {
    let a = Shape::<f32>::cone(1.551_702_1, 1.376_722_9);
    let b = Shape::<f32>::cuboid(glam::Vec3A::new(1.185_141_7, 0.285_257_04, 1.997_949_7));
    let pa = Pose::new(
        glam::Vec3A::new(-2.943_722, 2.676_751_4, 2.816_849_7),
        glam::Quat::from_xyzw(-0.083_204_94, -0.274_886_07, 0.418_208_36, 0.861_751_9),
    );
    let pb = Pose::new(
        glam::Vec3A::new(-1.194_042_3, 0.708_246_3, 5.481_559_3),
        glam::Quat::from_xyzw(0.857_085_8, -0.365_558_56, -0.177_467_24, 0.316_664_13),
    );
    let wide = gjk_common::pose_f64;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let p64 = epa::penetration(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    assert!(p64.intersecting && p64.normal_within <= 1e-6, "{p64:?}");
    f32_normals_hold(
        (&Placed::new(&a, pa), &Placed::new(&b, pb)),
        (p64.normal, p64.normal_within),
    );
}

/// An f32 hull with a margin grazing a small box (f64, on the same input
/// widened: apart by 2.7e-6, the normal `Unique`): f32 GJK stopped at its
/// gap tolerance on the polytope cores, and the penetration claimed their
/// `Unique` normal within 1e-3 rad, 7.4e-3 rad off (the distance query ran
/// on to rounding and was right). Both penetration methods and the signed
/// distance now hold their claim against f64's normal.
#[test]
fn an_f32_hull_with_a_margin_on_a_small_box_claims_its_normal_rightly() {
    use glam::{Quat, Vec3A};
    let points = [
        [-3.747_191, -0.628_181_46, -1.290_185_9],
        [-0.937_253, 0.726_666_45, -0.985_075],
        [-6.914_142_6, -2.925_831_3, 5.066_508_3],
        [2.801_135, -1.139_548_3, -5.298_443_3],
        [-0.081_006_05, -2.179_559_2, 2.580_101],
        [5.675_643, 6.737_081_5, 1.947_579_4],
    ];
    let a = Shape::<f32>::hull(points.iter().map(|&p| Vec3A::from_array(p)).collect())
        .with_margin(0.347_730_1);
    let b = Shape::<f32>::cuboid(Vec3A::new(0.041_799_445, 0.001_695_738_4, 0.023_223_568));
    let pa = Pose::new(
        Vec3A::new(0.351_919_53, -0.824_617_1, -0.657_537_16),
        Quat::from_xyzw(0.5, -0.5, -0.5, 0.5),
    );
    let pb = Pose::new(
        Vec3A::new(3.625_408, -4.783_251, 0.255_113_27),
        Quat::from_xyzw(-0.5, -0.5, -0.5, 0.5),
    );
    let wide = gjk_common::pose_f64;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let d64 = cspace::gjk::distance(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    assert!(
        d64.distance > 0.0 && d64.witness == cspace::Witness::Unique,
        "{d64:?}"
    );
    f32_normals_hold(
        (&Placed::new(&a, pa), &Placed::new(&b, pb)),
        (d64.normal, 1e-7),
    );
}

/// The f32 answers' normal claims (EPA's, MPR's, the signed distance's) of
/// `x` and `y` hold against `truth`, known to within `known` radians.
fn f32_normals_hold((x, y): (&Placed<'_, f32>, &Placed<'_, f32>), (truth, known): (DVec3, f64)) {
    let (p, m) = (epa::penetration(x, y), mpr::penetration(x, y));
    let s = cspace::signed::signed_distance(x, y);
    for (normal, within, what) in [
        (p.normal, p.normal_within, "epa"),
        (m.normal, m.normal_within, "mpr"),
        (s.normal, s.normal_within, "signed distance"),
    ] {
        let off = angle(DVec3::from_array(normal.to_f64()), truth);
        assert!(
            off <= f64::from(within) + known,
            "{what}: {off:e} rad off the truth, claimed within {within:e}"
        );
    }
}

/// Shallow overlaps (1e-9…1e-3 deep) of every family of constructed
/// cases, judged where the answer's lower bound proves the constructed
/// normal the least: every claim holds, and all but curved features on
/// curved ones (a rim on a rim) certify 1e-7 rad. MPR's re-cast from
/// inside, shallower by rounding only, replaced EPA's normal and its bound
/// grew past the tolerance by the angle between them: 84–97 % of these
/// families certified before (seed `0x5eed`).
#[test]
fn shallow_overlaps_certify_their_normals() {
    let mut rng = Rng::new(0x5eed);
    for family in exact_common::FAMILIES {
        let mut claims = Claims::default();
        for i in 0..400 {
            let depth = 10f64.powf(rng.range(-9.0, -3.0));
            let c = exact_common::case(&mut rng, family, -depth);
            let p = epa::penetration(&Placed::new(&c.a, c.pose_a), &Placed::new(&c.b, c.pose_b));
            if depth > p.lower_bound + 1e-15 * c.scale {
                continue;
            }
            let what = format!("{family} {i}: {}", c.name);
            claims.check(&p, c.normal, (0.0, 1e-7), &what);
        }
        println!("{family}: {claims:?}");
        assert!(claims.cases >= 150, "{family}: {claims:?}");
        if family.ends_with("rim") {
            assert!(
                claims.certified * 10 >= claims.cases * 8,
                "{family}: {claims:?}"
            );
        } else {
            assert!(claims.certified == claims.cases, "{family}: {claims:?}");
        }
    }
}

/// Where two directions of least depth tie, no answer claims its normal:
/// a box centred in a box (the separating axis test, and EPA on the same
/// boxes as hulls), a sphere at a box's centre and on a cylinder's axis
/// nearer its side than its caps (closed forms). A box pushed off centre
/// along one axis has one least direction, and says so; the signed
/// distance carries the penetration's bound.
#[test]
fn ties_claim_no_bound_on_the_normal() {
    let rot = DQuat::from_rotation_arc(DVec3::X, DVec3::new(1.0, 2.0, 3.0).normalize());
    let at = DVec3::new(0.3, -1.2, 2.0);
    let (big, small) = (DVec3::splat(1.0), DVec3::splat(0.5));
    let hull_pair = (box_hull(big), box_hull(small));
    let box_pair = (Shape::cuboid(big), Shape::cuboid(small));
    for (name, (sa, sb)) in [("hulls", &hull_pair), ("boxes", &box_pair)] {
        let p = epa::penetration(&placed(sa, at, rot), &placed(sb, at, rot));
        assert!(
            p.normal_within >= std::f64::consts::FRAC_PI_2,
            "{name} centred: {p:?}"
        );
        // Off centre along x: the +x face is nearest by 0.1.
        let off = at + rot * DVec3::new(0.1, 0.0, 0.0);
        let p = epa::penetration(&placed(sa, at, rot), &placed(sb, off, rot));
        assert!(
            angle(p.normal, rot * DVec3::X) <= p.normal_within,
            "{name}: {p:?}"
        );
        assert!(p.normal_within <= 1e-7, "{name} off centre: {p:?}");
    }
    let sphere = Shape::sphere(0.2);
    let cylinder = Shape::cylinder(2.0, 1.0);
    for (name, core, centre) in [
        ("box centre", &box_pair.0, at),
        (
            "cylinder axis",
            &cylinder,
            at + rot * DVec3::new(0.0, 0.5, 0.0),
        ),
    ] {
        let (a, b) = (placed(core, at, rot), placed(&sphere, centre, rot));
        let p = epa::penetration(&a, &b);
        assert!(p.normal_within >= std::f64::consts::PI, "{name}: {p:?}");
        let s = cspace::signed::signed_distance(&a, &b);
        assert_eq!(s.normal_within, p.normal_within, "{name}: {s:?}");
    }
}

/// A sphere whose centre is `t` outside a core along `u` from the core's
/// support point in `u` (which `u` then is the outward normal of):
/// overlapping by the radius less `t`, the normal `u`. The claims in f64
/// and f32.
fn spheres_just_off_cores(rng: &mut Rng) -> [Claims; 2] {
    let mut near_cores = [Claims::default(), Claims::default()];
    for family in ["box", "capsule", "cylinder", "cone"] {
        for i in 0..200 {
            let core = match family {
                "box" => Shape::cuboid(rng.vec_in(0.2, 2.0)),
                "capsule" => Shape::capsule(rng.range(0.2, 2.0), rng.range(0.2, 2.0)),
                "cylinder" => Shape::cylinder(rng.range(0.2, 2.0), rng.range(0.2, 2.0)),
                _ => Shape::cone(rng.range(0.2, 2.0), rng.range(0.2, 2.0)),
            };
            let u = rng.unit();
            let t = 10f64.powf(rng.range(-6.0, 0.0));
            let sb = Shape::sphere(t * rng.range(1.1, 2.0));
            let (rot, pos) = (rng.rotation(), rng.unit() * rng.range(0.0, 5.0));
            let centre = pos + rot * (core.core_support(u) + u * t);
            let what = format!("sphere {t:e} off a {family}, case {i}");
            let (a, b) = (placed(&core, pos, rot), placed(&sb, centre, rot));
            near_cores[0].check(&epa::penetration(&a, &b), rot * u, (1e-15, 1e-7), &what);
            let (core, sb) = (core.to_precision::<f32>(), sb.to_precision::<f32>());
            let (a, b) = (placed(&core, pos, rot), placed(&sb, centre, rot));
            near_cores[1].check(
                &epa::penetration(&a, &b),
                rot * u,
                (1e-6, 1e-3),
                &format!("{what} f32"),
            );
        }
    }
    near_cores
}

/// A cylinder lying on its side (odd cases) or standing on its rim,
/// tilted by 1 rad (even), pressed 1e-7…1e-2 into a box's top face well
/// inside it: the face's normal. EPA's polytope bounds a curved minimum
/// only as √(gap / depth); the box's face under the side or rim does.
fn cylinders_on_a_box(rng: &mut Rng) -> Claims {
    let mut on_box = Claims::default();
    for i in 0..200 {
        let depth = 10f64.powf(rng.range(-7.0, -2.0));
        let (r, h) = (rng.range(0.1, 0.5), rng.range(0.2, 0.8));
        let top = rng.range(0.2, 1.0);
        let (sa, sb) = (
            Shape::cuboid(DVec3::new(2.0, top, 2.0)),
            Shape::cylinder(h, r),
        );
        let (rot, pos) = (rng.rotation(), rng.unit() * rng.range(0.0, 5.0));
        let spin = DQuat::from_rotation_y(rng.range(0.0, std::f64::consts::TAU));
        // The axis turned from +Y by `tilt` about Z: its lowest point is
        // h·cos(tilt) + r·sin(tilt) below the centre.
        let tilt = if i % 2 == 0 {
            1.0_f64
        } else {
            std::f64::consts::FRAC_PI_2
        };
        let below = h * tilt.cos() + r * tilt.sin();
        let centre = DVec3::new(
            rng.range(-0.5, 0.5),
            top + below - depth,
            rng.range(-0.5, 0.5),
        );
        let b = placed(
            &sb,
            pos + rot * centre,
            rot * spin * DQuat::from_rotation_z(tilt),
        );
        let p = epa::penetration(&placed(&sa, pos, rot), &b);
        on_box.check(
            &p,
            rot * DVec3::Y,
            (1e-15, 1e-7),
            &format!("cylinder on a box {i}"),
        );
    }
    on_box
}

/// A box corner, a hull vertex, a cone's apex and a cylinder's rim pressed
/// into a plate's narrow face ([`pressed_into_a_plate`]): the claims of
/// each family.
fn pressed_claims(rng: &mut Rng) -> Vec<(&'static str, Claims)> {
    let mut plates = Vec::new();
    for family in ["box", "hull", "cone apex", "cylinder rim"] {
        let mut claims = Claims::default();
        for i in 0..300 {
            let (c, _) = pressed_into_a_plate(rng, family, i % 2 == 1);
            let (pa, pb) = (Placed::new(&c.a, c.pose_a), Placed::new(&c.b, c.pose_b));
            let p = epa::penetration(&pa, &pb);
            claims.check(&p, c.normal, (1e-15, 1e-7), &format!("{} case {i}", c.name));
        }
        plates.push((family, claims));
    }
    plates
}
