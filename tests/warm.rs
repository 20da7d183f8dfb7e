//! GJK's warm start (`gjk::distance_warm` with a `SimplexCache`): coherent
//! frames agree with cold queries, keep the cold classification of their
//! witnesses and their bounds, survive jumps, turns and a cache shared
//! between pairs, in f32 and f64.

#![allow(clippy::too_many_lines, clippy::cast_lossless)]

mod gjk_common;

use cspace::gjk::{self, SimplexCache};
use cspace::{Placed, Pose, Shape, Witness};
use gjk_common::{Rng, pl, random_case};
use glam::{DQuat, DVec3};

type S = Shape<f64>;

#[test]
fn warm_start_coherent_frames() {
    let a = S::hull(
        (0..16)
            .map(|i| {
                let t = f64::from(i) * 0.7;
                DVec3::new(t.cos(), (t * 1.3).sin(), (t * 0.4).cos())
            })
            .collect(),
    );
    let b = S::cuboid(DVec3::new(0.5, 0.3, 0.8));
    let mut cache = SimplexCache::default();
    let (mut cold_iters, mut warm_iters, mut one) = (0, 0, 0);
    let frames = 200;
    for f in 0..frames {
        let t = f64::from(f) * 0.01;
        let pb = Pose::new(
            DVec3::new(3.0 + t.sin(), 0.2 * t, 0.1),
            DQuat::from_rotation_y(t * 0.5),
        );
        let (pa, pb) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
        let cold = gjk::distance(&pa, &pb);
        let warm = gjk::distance_warm(&pa, &pb, &mut cache);
        assert!(
            (cold.distance - warm.distance).abs() < 1e-12,
            "{cold:?} {warm:?}"
        );
        cold_iters += cold.iterations;
        warm_iters += warm.iterations;
        one += u32::from(warm.iterations == 1);
    }
    eprintln!("cold {cold_iters} warm {warm_iters} one-iteration frames {one}/{frames}");
    assert!(warm_iters * 2 < cold_iters);
    assert!(one * 2 > frames);
}

/// B's pose at frame `f` of a coherent motion from `start` and `spin`:
/// 0.002 of drift and 0.01 rad of turn per frame.
fn drift(start: DVec3, spin: DQuat, f: u32) -> Pose<f64> {
    let t = f64::from(f);
    Pose::new(
        start + DVec3::new(0.002, -0.001, 0.0015) * t,
        DQuat::from_rotation_y(0.01 * t) * spin,
    )
}

/// Boxes moving coherently (f64, margins on some): the warm query (the
/// separating axis test from the last normal, else the whole test, else
/// warm GJK) gives the cold answer: the same verdict and witness
/// classification, the distance within GJK's tolerance, the same points and
/// normal where they are unique; most frames need no GJK iteration.
#[test]
fn warm_start_on_boxes_agrees_with_cold() {
    let mut rng = Rng::new(2718);
    let (mut frames, mut by_axes) = (0, 0);
    for k in 0..40 {
        let margin = if k % 3 == 0 { rng.range(0.0, 0.2) } else { 0.0 };
        let a = S::cuboid(rng.unit().abs() + DVec3::splat(0.1)).with_margin(margin);
        let b = S::cuboid(rng.unit().abs() + DVec3::splat(0.1));
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * rng.range(2.5, 4.0);
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cold = gjk::distance(&a, &b);
            let warm = gjk::distance_warm(&a, &b, &mut cache);
            let scale = a.shape.scale().max(b.shape.scale());
            let label = format!("pair {k} frame {f}: {cold:?} {warm:?}");
            assert_eq!(cold.intersecting, warm.intersecting, "{label}");
            assert!(
                (cold.distance - warm.distance).abs() <= 2.0 * 3.7e-11 * scale,
                "{label}"
            );
            assert_eq!(cold.witness, warm.witness, "{label}");
            if cold.witness == Witness::Unique {
                assert!((cold.normal - warm.normal).length() <= 1e-9, "{label}");
                assert!(
                    (cold.point_a - warm.point_a).length() <= 1e-9 * scale,
                    "{label}"
                );
                assert!(
                    (cold.point_b - warm.point_b).length() <= 1e-9 * scale,
                    "{label}"
                );
            }
            frames += 1;
            by_axes += u32::from(warm.iterations == 0);
        }
    }
    eprintln!("{by_axes} of {frames} warm frames answered by the separating axis test");
    assert!(by_axes * 5 > frames * 4, "{by_axes} of {frames}");
}

/// Hulls moving coherently (f64): the warm query classifies every frame as
/// the cold query does: random 16-point hulls, boxes and slabs given as
/// hulls (faces of four points), with B's face turning through parallel to
/// A's (`NotUnique` at that frame, a vertex or edge on either side of it).
/// (It guarded a kept support set that skipped the hull's scan; see
/// BENCHMARKS.md, tenth session.)
#[test]
fn warm_start_on_hulls_keeps_the_cold_classification() {
    let mut rng = Rng::new(4242);
    let corners = |h: DVec3| {
        (0..8)
            .map(|i| {
                let s = |bit: u32| if i & (1 << bit) == 0 { -1.0 } else { 1.0 };
                DVec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
            })
            .collect::<Vec<_>>()
    };
    let (mut frames, mut classes) = (0, [0u32; 3]);
    for k in 0..60 {
        let shape = |rng: &mut Rng, kind: u32| match kind {
            0 => S::hull((0..16).map(|_| rng.unit()).collect()),
            1 => S::hull(corners(rng.unit().abs() + DVec3::splat(0.2))),
            _ => S::hull(corners(DVec3::new(1.0, 0.01, 0.7))),
        };
        let (a, b) = (shape(&mut rng, k % 3), shape(&mut rng, (k / 3) % 3));
        // B beside A along x, its rotation about y through A's frame at
        // frame 15 (the boxes' faces parallel there), or a random spin.
        let (start, spin) = if k % 2 == 0 {
            (DVec3::new(3.0, 0.1, -0.05), DQuat::from_rotation_y(-0.15))
        } else {
            (
                rng.unit() * rng.range(2.5, 4.0),
                DQuat::from_scaled_axis(rng.unit() * 3.0),
            )
        };
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (a, b) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
            let cold = gjk::distance(&a, &b);
            let warm = gjk::distance_warm(&a, &b, &mut cache);
            let label = format!("pair {k} frame {f}: {cold:?} {warm:?}");
            assert_eq!(cold.intersecting, warm.intersecting, "{label}");
            assert!((cold.distance - warm.distance).abs() <= 1e-10, "{label}");
            assert_eq!(cold.witness, warm.witness, "{label}");
            if cold.witness == Witness::Unique {
                assert!((cold.normal - warm.normal).length() <= 1e-9, "{label}");
                assert!((cold.point_a - warm.point_a).length() <= 1e-9, "{label}");
                assert!((cold.point_b - warm.point_b).length() <= 1e-9, "{label}");
            }
            frames += 1;
            classes[match cold.witness {
                Witness::Unique => 0,
                Witness::NotUnique => 1,
                Witness::Approximate => 2,
            }] += 1;
        }
    }
    eprintln!("{frames} frames: unique, not unique, other {classes:?}");
    // Both verdicts occur, so both were compared.
    assert!(classes[0] > 100 && classes[1] > 20, "{classes:?}");
}

/// A hull face 40 ulps off a line (a sliver): whether it counts as a thin
/// face or an edge depends on which of its points is highest, which flips
/// as B rocks by ±1e-3 rad; warm and cold classify each frame alike (a
/// review: a kept support set's flats from the frame that filled it said
/// `NotUnique` on every other frame where the cold query said `Unique`).
#[test]
fn a_sliver_face_is_classified_alike_warm_and_cold() {
    let w = 40.0 * f64::EPSILON;
    let a = S::hull(vec![
        DVec3::new(0.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(0.5, 0.0, w),
        DVec3::new(0.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(0.5, -1.0, 1.0),
    ]);
    let b = S::hull(vec![
        DVec3::new(-0.3, 0.0, 0.0),
        DVec3::new(0.3, 0.0, 0.0),
        DVec3::new(0.0, 0.3, 0.1),
        DVec3::new(0.0, 0.3, -0.1),
    ]);
    let mut cache = SimplexCache::default();
    for f in 0..20 {
        let alpha = if f % 2 == 0 { 1e-3 } else { -1e-3 };
        let rotation = DQuat::from_rotation_y(0.5) * DQuat::from_rotation_z(alpha);
        let pb = Pose::new(DVec3::new(0.5, 0.2, 0.0), rotation);
        let (pa, pb) = (Placed::new(&a, Pose::IDENTITY), Placed::new(&b, pb));
        let cold = gjk::distance(&pa, &pb);
        let warm = gjk::distance_warm(&pa, &pb, &mut cache);
        assert_eq!(cold.witness, warm.witness, "frame {f}: {cold:?} {warm:?}");
    }
}

/// Curved pairs moving coherently (f64): the warm start from the last normal
/// (the witness polish instead of GJK's slow rim iterations) is taken, and
/// every warm answer agrees with the cold one within the distance's stated
/// accuracy, with the same unique closest points to 1e-8 of the size.
#[test]
fn warm_start_from_the_last_normal_on_curved_pairs() {
    use cspace_recorder as rec;
    let mut rng = Rng::new(1818);
    let (mut from_normal, mut frames) = (0, 0);
    for k in 0..40 {
        let a = if k % 2 == 0 {
            S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        } else {
            S::cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        };
        let b = S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5));
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * 4.0;
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        let mut cache = SimplexCache::default();
        for f in 0..30 {
            let pb = drift(start, spin, f);
            let (x, y) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let cold = gjk::distance(&x, &y);
            let (warm, recording) = rec::record(|| gjk::distance_warm(&x, &y, &mut cache));
            frames += 1;
            let text = recording.events().iter().any(|e| {
                matches!(e, rec::Event::Text { text, .. } if text.contains("warm start from the last normal"))
            });
            from_normal += u32::from(text);
            let scale = a.scale().max(b.scale());
            let stated = 3.7e-11 * (2.0 * (cold.distance.powi(2) + scale * scale)).sqrt();
            assert!(
                (warm.distance - cold.distance).abs() <= stated
                    && warm.lower_bound <= cold.upper_bound + 1e-15
                    && cold.lower_bound <= warm.upper_bound + 1e-15,
                "frame {f}: {warm:?} vs {cold:?}"
            );
            if warm.witness == cspace::Witness::Unique && cold.witness == cspace::Witness::Unique {
                assert!(
                    (warm.point_a - cold.point_a).length() <= 1e-8 * scale
                        && (warm.point_b - cold.point_b).length() <= 1e-8 * scale
                        && warm.normal.angle_between(cold.normal) <= 1e-7,
                    "frame {f}: {warm:?} vs {cold:?}"
                );
            }
        }
    }
    eprintln!("{from_normal} of {frames} warm frames started from the last normal");
    assert!(from_normal * 4 > frames, "{from_normal} of {frames}");
}

/// The warm and cold answers of a coherent motion of B (`poses`) against A,
/// compared: the same verdict, the distances within `rel` of the size,
/// their bounds overlapping, and unique points within `point` of the size
/// and normals within `normal` rad. The failures, and the warm frames that
/// polished from the kept normals.
fn warm_against_cold<T: cspace::Real>(
    (a, pa): (&Shape<T>, Pose<T>),
    (b, poses): (&Shape<T>, &[Pose<T>]),
    (rel, point, normal): (f64, f64, f64),
) -> (Vec<String>, u32) {
    use cspace_recorder as rec;
    let wide = gjk_common::wide::<T>;
    let mut cache = SimplexCache::default();
    let (mut failures, mut polished) = (Vec::new(), 0);
    let scale = a.scale().max(b.scale()).to_f64();
    for (f, pb) in poses.iter().enumerate() {
        let (x, y) = (Placed::new(a, pa), Placed::new(b, *pb));
        let cold = gjk::distance(&x, &y);
        let (warm, recording) = rec::record(|| gjk::distance_warm(&x, &y, &mut cache));
        polished += u32::from(recording.events().iter().any(|e| {
            matches!(e, rec::Event::Text { text, .. } if text.contains("warm start from the last normal"))
        }));
        let d = |v: T| v.to_f64();
        let stated = 2.0 * rel * (d(cold.distance) + scale);
        let mut ok = cold.intersecting == warm.intersecting
            && (d(warm.distance) - d(cold.distance)).abs() <= stated
            && d(warm.lower_bound) <= d(cold.upper_bound) + stated
            && d(cold.lower_bound) <= d(warm.upper_bound) + stated;
        if warm.witness == Witness::Unique && cold.witness == Witness::Unique {
            ok &= (wide(warm.point_a) - wide(cold.point_a)).length() <= point * scale
                && (wide(warm.point_b) - wide(cold.point_b)).length() <= point * scale
                && wide(warm.normal).angle_between(wide(cold.normal)) <= normal;
        }
        if !ok {
            failures.push(format!("frame {f}: warm {warm:?} cold {cold:?}"));
        }
    }
    (failures, polished)
}

/// Every core against a cylinder or a cone, moving coherently (turning by
/// 0.01 to 0.1 rad a frame), in f64 and f32: the warm query (the polish from the extrapolated last two normals,
/// without GJK, else warm GJK) gives the cold answer to the stated
/// accuracy: unique points within twice the witness tolerance (f64 1e-8
/// of the size, f32 1e-4) and normals within twice theirs (1e-7, 1e-3 rad).
#[test]
fn warm_start_on_curved_pairs_agrees_with_cold_in_f32_and_f64() {
    let mut rng = Rng::new(2611);
    let (mut failures, mut polished, mut frames) = (Vec::new(), [0, 0], 0);
    for k in 0..60 {
        let mut size = || rng.range(0.3, 1.5);
        let a = match k % 5 {
            0 => S::cylinder(size(), size()),
            1 => S::cone(size(), size()),
            2 => S::cuboid(DVec3::new(size(), size(), size())),
            3 => S::capsule(size(), size()),
            _ => S::hull((0..12).map(|_| rng.unit() * rng.range(0.5, 1.2)).collect()),
        };
        let b = if k % 2 == 0 {
            S::cylinder(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        } else {
            S::cone(rng.range(0.3, 1.5), rng.range(0.3, 1.5))
        };
        let pa = Pose::new(DVec3::ZERO, DQuat::from_scaled_axis(rng.unit() * 3.0));
        let start = rng.unit() * 4.5;
        let spin = DQuat::from_scaled_axis(rng.unit() * 3.0);
        // 0.01 rad a frame, or 3 or 10 times that (the extrapolation's
        // support sets then span 4 × the turn).
        let rate = [1.0, 3.0, 10.0][k % 3];
        let poses: Vec<Pose<f64>> = (0..30)
            .map(|f| {
                let p = drift(start, spin, f);
                let extra = DQuat::from_rotation_y(0.01 * (rate - 1.0) * f64::from(f));
                Pose::new(p.position, extra * p.rotation)
            })
            .collect();
        let (f64_failures, n) = warm_against_cold((&a, pa), (&b, &poses), (3.7e-11, 2e-8, 2e-7));
        polished[0] += n;
        failures.extend(
            f64_failures
                .into_iter()
                .map(|f| format!("f64 pair {k} {f}")),
        );
        let pose = gjk_common::pose_f32;
        let poses32: Vec<Pose<f32>> = poses.iter().map(pose).collect();
        let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
        let (f32_failures, n) =
            warm_against_cold((&a32, pose(&pa)), (&b32, &poses32), (2.4e-5, 2e-4, 2e-3));
        polished[1] += n;
        failures.extend(
            f32_failures
                .into_iter()
                .map(|f| format!("f32 pair {k} {f}")),
        );
        frames += poses.len();
    }
    eprintln!(
        "warm frames polished from the kept normals: f64 {} f32 {} of {frames}",
        polished[0], polished[1]
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    for n in polished {
        assert!(n as usize * 2 > frames, "{polished:?} of {frames}");
    }
}

/// The angle between two directions, in rad.
fn angle_of(a: DVec3, b: DVec3) -> f64 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Fails unless `d`, where it says `Unique`, has its normal within
/// `normal_tol` rad of `normal` and (given) its point on A within
/// `point_tol` × `scale` of `point_a`.
fn assert_unique_within<T: cspace::Real>(
    d: &gjk::Distance<T>,
    (point_a, normal, scale): (Option<DVec3>, DVec3, f64),
    (point_tol, normal_tol): (f64, f64),
) {
    let wide = gjk_common::wide::<T>;
    let en = angle_of(wide(d.normal), normal);
    let ep = point_a.map_or(0.0, |p| (wide(d.point_a) - p).length() / scale);
    assert!(
        d.witness != Witness::Unique || (ep <= point_tol && en <= normal_tol),
        "{d:?}: point {ep:e} of the size, normal {en:e} rad off"
    );
}

/// A cone against a hull spinning by 0.03 rad a frame, the third warm
/// query (the first from the last two normals' extrapolation), at a known
/// distance (constructed: 0.4934715258726942 on every frame). Its polish,
/// judged on support sets taken within 4 × the turn (0.3 of the size),
/// took a hull's non-planar "face" for the answer: distance and upper
/// bound 4.9e-6 below the exact one, the normal 2.7e-3 rad off, `Unique`
/// (found by a review). The answer is judged at the default tolerance now.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn warm_start_after_a_large_turn_keeps_the_upper_bound() {
    let a = S::cone(1.4344789814119614, 1.0798419735983846);
    let b = S::hull(vec![
        DVec3::new(-0.7755559592897904, 1.1368926751266357, -0.9917981163028372),
        DVec3::new(1.6344463241515739, 0.2438896901344338, 0.3267171815056508),
        DVec3::new(-1.4969540386214037, 0.42907255382268045, 0.5348946295467907),
        DVec3::new(-1.0382716754980188, 0.6171643801923316, -1.1716277006683047),
        DVec3::new(
            0.09959585634028216,
            0.2105760786315096,
            -0.29696813959302454,
        ),
        DVec3::new(-0.16305082512986102, 1.0892816504588219, 0.8134414451241303),
        DVec3::new(-1.095817120466988, 0.5810299451530836, -1.1314001646505143),
        DVec3::new(
            -0.19367289116579206,
            -0.3933723388784532,
            0.14833931916772944,
        ),
        DVec3::new(-0.6623952313387983, 0.8225825943058038, -0.6451316774173513),
        DVec3::new(
            0.7392793943543745,
            -0.3237624670518676,
            -0.06743288443271443,
        ),
    ]);
    let pose_a = Pose::new(
        DVec3::new(1.2512116589887903, -2.5889898465870935, -2.6006670082270538),
        DQuat::from_xyzw(
            0.5425248751407054,
            -0.28048110344275207,
            0.6519500673671089,
            0.44939761918052085,
        ),
    );
    let poses_b = [
        (
            DVec3::new(3.803296171065642, -3.4205205729046915, -1.79458504043591),
            [
                -0.4018294619887262,
                -0.4847640405578104,
                0.7049561739346476,
                -0.326456277763714,
            ],
        ),
        (
            DVec3::new(3.82262547763891, -3.3657529407833806, -1.731350458621717),
            [
                -0.3876613760302378,
                -0.4779130078028875,
                0.7140755436614831,
                -0.333787256275157,
            ],
        ),
        (
            DVec3::new(3.8403246353317133, -3.3049449364251537, -1.6674448351497038),
            [
                -0.37272512888378795,
                -0.4694015947325738,
                0.7241025960117028,
                -0.34119430184308946,
            ],
        ),
    ];
    let exact = 0.4934715258726942;
    let normal = DVec3::new(0.4157286306989522, -0.8268987562014002, 0.3786926888781344);
    let mut cache = SimplexCache::default();
    let x = Placed::new(&a, pose_a);
    for (f, (p, [qx, qy, qz, qw])) in poses_b.into_iter().enumerate() {
        let y = Placed::new(&b, Pose::new(p, DQuat::from_xyzw(qx, qy, qz, qw)));
        let w = gjk::distance_warm(&x, &y, &mut cache);
        let label = format!("frame {f}: {w:?}");
        assert!(
            w.upper_bound >= exact - 1e-12 && w.lower_bound <= exact + 1e-12,
            "{label}"
        );
        assert!((w.distance - exact).abs() <= 1e-9, "{label}");
        if f == 2 && w.witness == Witness::Unique {
            assert!(angle_of(w.normal, normal) <= 1e-7, "{label}");
        }
    }
}

/// The f32 counterpart: a cylinder against a box turning by 0.01 rad a
/// frame; the third warm answer said `Unique` with its normal 2.6e-3 rad
/// and a point 4.3e-4 of the size off (f32's contract: 1e-3, 1e-4).
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn warm_start_in_f32_keeps_unique_witnesses_within_the_contract() {
    let pose = gjk_common::pose_f32;
    let a = S::cylinder(1.6237758961758437, 0.22021716939303196).to_precision::<f32>();
    let b = S::cuboid(DVec3::new(
        0.3904211867055475,
        1.1003372281564805,
        1.2982837818117612,
    ))
    .to_precision::<f32>();
    let pose_a = pose(&Pose::new(
        DVec3::new(
            0.39474180832435035,
            -0.1314520511935946,
            -2.9644087154706664,
        ),
        DQuat::from_xyzw(
            0.055917885952119266,
            -0.631407913703808,
            -0.5754554756638259,
            0.5167670965448267,
        ),
    ));
    let poses_b = [
        (
            DVec3::new(1.4928988329853072, 1.4646269022954832, 0.09077600383606965),
            [
                0.5783602004431976,
                0.010164263481470065,
                0.1753793709875799,
                -0.796641853358951,
            ],
        ),
        (
            DVec3::new(1.4498029254418996, 1.4610439007454192, 0.1041161608366874),
            [
                0.5783029384405418,
                0.019162213857681826,
                0.1792447280841153,
                -0.7956568659951092,
            ],
        ),
        (
            DVec3::new(1.4050188058996866, 1.4525276154952884, 0.11913970622831238),
            [
                0.5773541570191034,
                0.02843027876341106,
                0.1840682080764422,
                -0.7949671637229571,
            ],
        ),
    ];
    let normal = DVec3::new(0.40357554154744957, 0.4112608592425293, 0.817307339939988);
    let point_a = DVec3::new(1.0748409289533667, 0.5310433358123005, -1.6288530966315657);
    let scale = 1.6237758961758437f64.max(1.2982837818117612);
    let mut cache = SimplexCache::<f32>::default();
    let x = Placed::new(&a, pose_a);
    let mut last = None;
    for (p, [qx, qy, qz, qw]) in poses_b {
        let y = Placed::new(&b, pose(&Pose::new(p, DQuat::from_xyzw(qx, qy, qz, qw))));
        last = Some(gjk::distance_warm(&x, &y, &mut cache));
    }
    let w = last.expect("three frames");
    assert_unique_within(&w, (Some(point_a), normal, scale), (1e-4, 1e-3));
}

/// A hull whose top quad is creased by 1.2e-9 (inside the support sets'
/// default height tolerance) against a cylinder, at a known distance: the
/// witness on that "face" was placed on its plane, above the crease and
/// outside the hull, so the upper bound came out 2.7e-11 below the exact
/// distance, cold and warm (a review). Witnesses on a hull's face are now
/// moved onto a triangle of its points.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_creased_hull_face_keeps_the_upper_bound() {
    let w = 1.1456130802779056;
    let a = S::cylinder(1.901167040415076, 0.9116808096618962);
    let b = S::hull(vec![
        DVec3::new(-w, 0.0, -w),
        DVec3::new(w, 0.0, -w),
        DVec3::new(w, 0.0, w),
        DVec3::new(-w, -1.1527236279393897e-9, w),
        DVec3::new(0.1, -1.0, 0.2),
    ]);
    let pa = Pose::new(
        DVec3::new(-1.1994962726126799, -1.7935580478054023, 0.7792913263708487),
        DQuat::from_xyzw(
            -0.7297851163426236,
            0.664444242149365,
            0.15438787267219364,
            -0.045737488027810365,
        ),
    );
    let pb = Pose::new(
        DVec3::new(0.6663287401854512, -2.960905934426305, 0.913455947112013),
        DQuat::from_xyzw(
            0.4379879305132816,
            -0.6232786253928573,
            -0.3996718615879417,
            -0.5098555980941192,
        ),
    );
    let exact = 0.010796826091061905;
    let normal = DVec3::new(
        0.9535269024084516,
        -0.2968579521040367,
        -0.05159266087284795,
    );
    let x = Placed::new(&a, pa);
    let cold = gjk::distance(&x, &Placed::new(&b, pb));
    assert!(cold.upper_bound >= exact - 1e-13, "{cold:?}");
    let mut cache = SimplexCache::default();
    for s in [2.0, 1.0, 0.0] {
        let y = Placed::new(
            &b,
            Pose::new(pb.position + normal * (1e-3 * s), pb.rotation),
        );
        let warm = gjk::distance_warm(&x, &y, &mut cache);
        assert!(warm.upper_bound >= exact + 1e-3 * s - 1e-13, "{warm:?}");
    }
}

/// A thin plate's short edge, nearly perpendicular to the normal, against
/// a vertex or a segment: GJK's gap cannot tell its two ends apart (the
/// distance moves by the edge's length squared over twice the distance),
/// and it stopped on the wrong end, `Unique` (f32: the point 3.1e-4 of the
/// size and the normal 3.2e-3 rad off; f64: 2.8e-6 and 9.8e-6 rad; a
/// review). A lone vertex of GJK's simplex on a side whose support set is
/// an edge or face now goes to the polish, which places the witness or
/// says the answer is approximate.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_short_edge_against_a_vertex_is_placed_or_flagged() {
    let pose = gjk_common::pose_f32;
    let a = S::cuboid(DVec3::new(
        0.576561778569364,
        1.961478200205605,
        0.00032391588946134836,
    ))
    .to_precision::<f32>();
    let b = S::cuboid(DVec3::new(
        1.287831124427714,
        1.9139463207403309,
        1.9974857518716291,
    ))
    .with_margin(0.1)
    .to_precision::<f32>();
    let pa = Pose::new(
        DVec3::new(-2.8453015678527063, 0.3293939346391239, 0.6788868387104792),
        DQuat::from_xyzw(
            0.5387756921777914,
            0.004795207902692585,
            0.2836405621896807,
            -0.7932501440152617,
        ),
    );
    let pb = Pose::new(
        DVec3::new(-4.800351398873621, 1.7258938985304684, -3.276114597091498),
        DQuat::from_xyzw(
            0.7679878777392826,
            0.47849443298138183,
            -0.39913936483519113,
            0.14807249808893924,
        ),
    );
    let exact_a = DVec3::new(-2.436177096504508, 1.093258751780644, -1.1728550513454217);
    let exact_n = DVec3::new(-0.3875278250571099, 0.510214647393995, -0.7677911163794015);
    let scale = 2.0974857518716292;
    let r = gjk::distance(&Placed::new(&a, pose(&pa)), &Placed::new(&b, pose(&pb)));
    assert_unique_within(&r, (Some(exact_a), exact_n, scale), (1e-4, 1e-3));

    let a = S::cuboid(DVec3::new(
        1.9097586609376294,
        1.9073444070537646,
        3.3643971497917938e-6,
    ));
    let b = S::capsule(1.7056687131099606, 0.6885996513516509);
    let pa = Pose::new(
        DVec3::new(0.019861022633943737, 2.588105518670849, -1.414427114920926),
        DQuat::from_xyzw(
            -0.7849357676593237,
            0.5322242493221189,
            0.20011282496948465,
            0.2461057625601394,
        ),
    );
    let pb = Pose::new(
        DVec3::new(-4.179791687917547, 4.3515003932946605, 0.2047503528370982),
        DQuat::from_xyzw(
            -0.8590501040866184,
            -0.2538075124460546,
            -0.2502182210848864,
            0.3674309555982329,
        ),
    );
    let exact_a = DVec3::new(-2.436518850246311, 3.399911766161151, -0.644810738535013);
    let exact_n = DVec3::new(
        -0.9941476009632622,
        -0.10694161610734632,
        -0.015298308512361969,
    );
    let scale = 2.3942683644616114;
    let r = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
    assert_unique_within(&r, (Some(exact_a), exact_n, scale), (1e-8, 1e-7));
}

/// A box's vertex near a hull's edge, in f32: the polish placed the points
/// right but kept the edge's perpendicular as the normal, 1.2e-3 rad off
/// the direction between them, `Unique` (a third review). On polytopes a
/// settled polish's normal is now the points' direction.
#[test]
#[allow(clippy::unreadable_literal)] // the review's values, bit for bit
fn a_polished_polytope_answer_takes_its_normal_from_its_points() {
    let pose = gjk_common::pose_f32;
    let a = S::cuboid(DVec3::new(
        1.3579707133549102,
        0.2640855402487615,
        0.08606985266693121,
    ))
    .to_precision::<f32>();
    let b = S::hull(vec![
        DVec3::new(0.863358891428522, 0.11807286785748393, 1.453730897701268),
        DVec3::new(
            -0.02773170823622086,
            1.5341210745815024,
            0.16756850316464073,
        ),
        DVec3::new(
            0.48666858822794296,
            -0.1124846506671595,
            -0.04595819112225064,
        ),
        DVec3::new(-0.8757714043412747, -0.8450267500645339, 0.6260076139960737),
        DVec3::new(-0.312248278588556, 0.5279096759221651, -0.8732789321550258),
        DVec3::new(
            -0.1896865237223369,
            -0.15529124253438634,
            -0.0917744876386753,
        ),
        DVec3::new(
            -0.3523762704921803,
            -0.4226311065934828,
            -0.7721399407446429,
        ),
        DVec3::new(1.1677271833809144, 0.9268327378865907, -0.5222119981680143),
        DVec3::new(
            -1.6883851679704283,
            -0.5110065304956859,
            -0.9329237085599674,
        ),
        DVec3::new(-0.6891204925675133, 0.3548791776227862, 0.1742502915299137),
    ])
    .to_precision::<f32>();
    let pa = Pose::new(
        DVec3::new(1.1479345082190173, -1.4376337746968009, 1.4818514935731555),
        DQuat::from_xyzw(
            -0.05715228160042313,
            -0.9621288141310411,
            0.17749275740276418,
            -0.19884185373362906,
        ),
    );
    let pb = Pose::new(
        DVec3::new(4.029212199693325, -0.6336748713345832, 2.965586322466268),
        DQuat::from_xyzw(
            0.8095784617552702,
            0.2834598759795224,
            0.5095080221785719,
            0.06807927957406881,
        ),
    );
    let exact = DVec3::new(0.8641666313985393, 0.4767121727510978, 0.1611258437626584);
    let r = gjk::distance(&Placed::new(&a, pose(&pa)), &Placed::new(&b, pose(&pb)));
    assert!(
        (f64::from(r.distance) - 0.017941469354423763).abs() <= 1e-4,
        "{r:?}"
    );
    assert_unique_within(&r, (None, exact, 1.0), (0.0, 1e-3));
}

/// A cache belongs to one pair of shapes; any pose jump keeps the answer exact.
#[test]
fn warm_start_survives_jumps() {
    let mut rng = Rng::new(43);
    for _ in 0..100 {
        let (a, b, _, _) = random_case(&mut rng);
        let mut cache = SimplexCache::default();
        for _ in 0..20 {
            let (pa, pb) = (rng.pose(1.0), rng.pose(3.0));
            let (a, b) = (Placed::new(&a, pa), Placed::new(&b, pb));
            let w = gjk::distance_warm(&a, &b, &mut cache);
            let c = gjk::distance(&a, &b);
            assert!(
                (w.distance - c.distance).abs() <= 1e-9 * a.shape.scale().max(b.shape.scale()),
                "{w:?} {c:?}"
            );
        }
    }
}

/// A cache handed pairs of different shapes in turn (a caller's mistake:
/// a cache belongs to one pair) starts each query cold instead of placing
/// the other pair's points on these shapes. Before the pair's fingerprint
/// was kept, a cone against a hull said 1.387 (lower = upper bound, with
/// points 1.475 apart) where the distance is 1.475 (a review: 241 of 4 000
/// alternating frames wrong).
#[test]
fn a_cache_shared_between_pairs_starts_cold() {
    let mut rng = Rng::new(5150);
    let mut wrong = 0;
    for _ in 0..200 {
        let (a1, b1, _, _) = random_case(&mut rng);
        let (a2, b2, _, _) = random_case(&mut rng);
        let p1 = (rng.pose(2.0), rng.pose(4.0));
        let p2 = (rng.pose(2.0), rng.pose(4.0));
        let mut cache = SimplexCache::default();
        for f in 0..10 {
            let (a, b, (pa, pb)) = if f % 2 == 0 {
                (&a1, &b1, p1)
            } else {
                (&a2, &b2, p2)
            };
            let (x, y) = (Placed::new(a, pa), Placed::new(b, pb));
            let w = gjk::distance_warm(&x, &y, &mut cache);
            let c = gjk::distance(&x, &y);
            let s = a.scale().max(b.scale());
            let off = (w.distance - c.distance).abs() > 1e-9 * s
                || w.upper_bound < c.lower_bound - 1e-9 * s
                || w.lower_bound > c.upper_bound + 1e-9 * s;
            wrong += u32::from(off);
        }
    }
    assert_eq!(
        wrong, 0,
        "{wrong} of 2000 shared-cache frames disagree with cold"
    );

    // A second review: a box whose first half extent equals the tag a
    // capsule's parameters were mixed after, and a hull rebuilt with other
    // middle points (same count, extent, first and last point), were taken
    // for the cache's pair (0.690 where the distance is 2.491).
    let b = S::hull(vec![
        DVec3::new(0.5, 0.1, 0.2),
        DVec3::new(-0.4, 0.6, 0.1),
        DVec3::new(0.1, -0.5, 0.7),
        DVec3::new(0.0, 0.2, -0.6),
        DVec3::new(-0.3, -0.3, -0.3),
    ]);
    let pb = Pose::new(DVec3::new(3.0, 1.5, 0.2), DQuat::IDENTITY);
    let hull_with = |y: f64| {
        S::hull(vec![
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, y, 0.0),
            DVec3::new(0.0, -y, 0.5),
            DVec3::new(-1.0, 0.0, 0.0),
        ])
    };
    let pairs = [
        (S::cuboid(DVec3::new(2.0, 0.5, 0.3)), S::capsule(0.5, 0.3)),
        (S::cuboid(DVec3::new(0.5, 0.5, 0.3)), S::cylinder(0.5, 0.3)),
        (hull_with(0.9), hull_with(0.1)),
    ];
    for (first, second) in &pairs {
        let mut cache = SimplexCache::default();
        let _ = gjk::distance_warm(&pl(first, DVec3::ZERO), &Placed::new(&b, pb), &mut cache);
        let (x, y) = (pl(second, DVec3::ZERO), Placed::new(&b, pb));
        let w = gjk::distance_warm(&x, &y, &mut cache);
        let c = gjk::distance(&x, &y);
        assert!((w.distance - c.distance).abs() <= 1e-12, "{w:?} {c:?}");
    }
}

/// An f32 box by a rounded box 2e-3 across, their edges within 1e-2 of
/// parallel (the separating axis test leaves them to GJK): a fresh cache's
/// warm GJK stopped at the gap tolerance where the cold query runs on to
/// near rounding, and its `Unique` point was 1.4e-3 off (2.4e-3 of the
/// size). Warm and cold now run GJK alike.
#[test]
fn an_f32_warm_box_pair_runs_gjk_as_far_as_the_cold_one() {
    use glam::{Quat, Vec3A};
    let a = Shape::<f32>::cuboid(Vec3A::new(0.183_481_25, 0.143_095, 0.255_247_7));
    let pa = Pose::<f32>::new(
        Vec3A::ZERO,
        Quat::from_xyzw(-0.128_817_17, -0.589_519_6, -0.417_874_9, -0.679_156_36),
    );
    let b = Shape::<f32>::cuboid(Vec3A::new(0.000_847_867, 0.000_735_097_04, 0.001_733_173_6))
        .with_margin(0.000_316_107_33);
    let pb = Pose::<f32>::new(
        Vec3A::new(0.179_944_01, 0.063_406_23, 0.270_613_6),
        Quat::from_xyzw(-0.488_077_52, -0.720_620_6, -0.015_120_889, -0.492_196_8),
    );
    let truth = DVec3::new(0.179_061_48, 0.060_995_06, 0.269_396_03);
    let warm = gjk::distance_warm(
        &Placed::new(&a, pa),
        &Placed::new(&b, pb),
        &mut SimplexCache::default(),
    );
    let off = (warm.point_a.as_dvec3() - truth).length() / 0.255_247_7;
    assert!(
        warm.witness != Witness::Unique || off <= 1e-4,
        "warm f32 `Unique` point {off:e} of the size off: {warm:?}"
    );
}
