//! Shapes of very different sizes against the exact oracle
//! (`exact_common`): every distance whose witness says `Unique` has its
//! closest points within 1e-8 × size (f64) / 1e-4 (f32, plus its world
//! coordinates' rounding) of the true ones, with one shape 1e-3 to 1e-4
//! times the other's size, either way round; and f32 penetration brackets
//! that hold the depth there.

#![allow(clippy::cast_lossless)]

mod exact_common;
mod gjk_common;

use cspace::{Placed, Pose, Shape, Status, Witness, epa, gjk};
use exact_common::FAMILIES;
use gjk_common::Rng;
use glam::{DQuat, DVec3, Quat, Vec3A};

/// The f32 answer's error (of the size) against the f64 answer on the same
/// rounded input, beyond the rounding of its own world coordinates; `None`
/// unless both say `Unique`.
fn f32_error(a: &Shape<f32>, pa: Pose<f32>, b: &Shape<f32>, pb: Pose<f32>) -> Option<f64> {
    let r = gjk::distance(&Placed::new(a, pa), &Placed::new(b, pb));
    let wide = gjk_common::pose_f64;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let t = gjk::distance(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    if r.witness != Witness::Unique || t.witness != Witness::Unique {
        return None;
    }
    let (ra, rb) = (r.point_a.as_dvec3(), r.point_b.as_dvec3());
    let round = f64::from(f32::EPSILON) * ra.abs().max_element().max(rb.abs().max_element());
    let off = (ra - t.point_a).length().max((rb - t.point_b).length()) - round;
    Some(off / a64.scale().max(b64.scale()))
}

/// A box's corner by a box 1e-3 its size, whose short edge (1e-3 long) is
/// 3.7e-3 rad from perpendicular to the normal: its far end is 5.4e-6
/// farther from the corner than its near end, within f32's rounding of the
/// separating axis test's check. f32 took the far end, `Unique`, 1e-3
/// (8e-4 of the size) off; each point must be its box's closest point to
/// the other.
#[test]
fn a_tiny_boxs_corner_is_the_near_end_of_its_short_edge_in_f32() {
    let a = Shape::<f32>::cuboid(Vec3A::new(0.391_949_5, 0.339_823_7, 1.285_136_7));
    let b = Shape::<f32>::cuboid(Vec3A::new(
        0.001_340_634_3,
        0.000_740_329_85,
        0.000_512_445_4,
    ));
    let pa = Pose::<f32>::new(
        Vec3A::new(-1.723_496_6, 1.074_318_4, -0.224_601_18),
        Quat::from_xyzw(0.430_806_28, 0.020_473_115, 0.392_828_08, -0.812_202_5),
    );
    let pb = Pose::<f32>::new(
        Vec3A::new(-2.808_86, 0.089_115_776, -1.080_799_6),
        Quat::from_xyzw(0.159_367_59, -0.769_372_76, -0.551_337, 0.280_526_43),
    );
    let off = f32_error(&a, pa, &b, pb).expect("both unique");
    assert!(off <= 1e-4, "f32 points {off:e} of the size off");
}

/// An f32 cone's apex (the cone 3.5e4 across) by a box 78 across: the
/// support sets' closest points put the box's point on a face's plane that
/// the box poked 3.9 through, 0.12 rad off the normal and 29 from the
/// closest point, `Unique`. The sets were certified against the rounding
/// of a face the larger shape's size (9.8 here); each set's own extent
/// sets it now, and the points must be as close as the lower bound.
#[test]
fn a_cones_apex_by_a_much_smaller_box_does_not_claim_a_far_point_in_f32() {
    let a = Shape::<f64>::cone(35_405.346_588_241_184, 32_290.280_447_991_95);
    let pa = Pose::<f64>::new(
        DVec3::new(
            -46_178.278_204_551_19,
            28_655.811_487_661_034,
            -48_708.657_234_562_044,
        ),
        DQuat::from_xyzw(
            -0.778_670_183_161_162_5,
            -0.612_355_361_368_427_8,
            -0.084_233_858_345_102_68,
            -0.107_695_470_505_498_96,
        ),
    );
    let b = Shape::<f64>::cuboid(DVec3::new(
        20.052_006_041_298_146,
        39.059_551_257_556_63,
        19.627_610_932_846_64,
    ));
    let pb = Pose::<f64>::new(
        DVec3::new(
            -12_834.680_432_928_979,
            20_786.609_377_832_323,
            -39_044.087_554_674_89,
        ),
        DQuat::from_xyzw(
            0.484_803_480_741_350_05,
            0.859_655_663_348_442_9,
            0.054_031_770_319_908_8,
            0.151_783_705_746_423_25,
        ),
    );
    let (a, b) = (a.to_precision::<f32>(), b.to_precision::<f32>());
    let (pa, pb) = (gjk_common::pose_f32(&pa), gjk_common::pose_f32(&pb));
    let d = gjk::distance(&Placed::new(&a, pa), &Placed::new(&b, pb));
    assert_eq!(d.status, Status::Converged, "{d:?}");
    if let Some(off) = f32_error(&a, pa, &b, pb) {
        assert!(off <= 1e-4, "f32 points {off:e} of the size off: {d:?}");
    }
}

/// The f32 answer agrees with f64's on the same rounded input where both
/// say `Unique`: the normal within 1e-3 rad, the points within 1e-4 of the
/// size (plus their coordinates' rounding).
fn f32_agrees(a: &Shape<f32>, pa: Pose<f32>, b: &Shape<f32>, pb: Pose<f32>) {
    let r = gjk::distance(&Placed::new(a, pa), &Placed::new(b, pb));
    let wide = gjk_common::pose_f64;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let t = gjk::distance(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    if r.witness == Witness::Unique && t.witness == Witness::Unique {
        let off = r.normal.as_dvec3().angle_between(t.normal);
        assert!(off <= 1e-3, "f32 normal {off:e} rad off: {r:?}");
    }
    if let Some(off) = f32_error(a, pa, b, pb) {
        assert!(off <= 1e-4, "f32 points {off:e} of the size off: {r:?}");
    }
}

/// Two f32 boxes' nearly parallel edges 1.6e-4 apart (a review's case):
/// the support sets' points, GJK's, took their direction for the normal,
/// which their rounding turns by up to a thousand roundings; a rise of
/// 0.014 passed as that rounding, and the answer said `Unique` 0.44 rad
/// off. A set's rise now tilts it by the rise over its extent, within the
/// normal's tolerance.
#[test]
fn f32_nearly_parallel_box_edges_do_not_take_a_noisy_normal() {
    let a = Shape::<f32>::cuboid(Vec3A::new(1.339_150_3, 4.212_729, 1.912_013_5));
    let b = Shape::<f32>::cuboid(Vec3A::new(2.213_054_4, 0.829_924_9, 3.967_475));
    let pa = Pose::<f32>::new(
        Vec3A::new(-3.829_975_8, 4.700_262_5, -1.502_189_2),
        Quat::from_xyzw(0.508_447_9, 0.467_730_8, 0.026_469_389, -0.722_501_2),
    );
    let pb = Pose::<f32>::new(
        Vec3A::new(2.831_640_5, 4.519_882, -5.887_531),
        Quat::from_xyzw(0.641_821_7, -0.332_761_8, 0.640_221_5, 0.259_713_26),
    );
    f32_agrees(&a, pa, &b, pb);
}

/// An f32 cone's apex (the cone 7 800 across) 757 from a capsule 1 000
/// times smaller (a harness's case): GJK stopped on its gap tolerance with
/// a normal 9.7e-3 rad off, at which the capsule's segment rose by more
/// than its set's height tolerance, so the support sets took one end for
/// it: `Unique`, 6.9e-3 rad and the capsule's point 2.1 off. The sets are
/// now as wide as GJK's normal can tilt each shape.
#[test]
#[allow(clippy::unreadable_literal)]
fn f32_cones_apex_by_a_small_capsule_takes_the_capsules_segment() {
    let a = Shape::<f64>::cone(3922.4653309371674, 3216.0405279540323);
    let b = Shape::<f64>::capsule(3.687608352512955, 3.0827959525208284);
    let pa = Pose::new(
        DVec3::new(-285.6578030476308, -4701.111648303095, 759.3464715286852),
        DQuat::from_xyzw(
            0.6109992721331683,
            0.0013014448726381513,
            0.7412720445954875,
            0.2778379952332072,
        ),
    );
    let pb = Pose::new(
        DVec3::new(-2520.0147444034187, -7984.939292532232, 2530.75356457564),
        DQuat::from_xyzw(
            -0.9771310007813788,
            -0.02015536149998233,
            -0.20629107420187492,
            -0.04746326389348728,
        ),
    );
    let narrow = |p: &Pose<f64>| Pose::new(p.position.as_vec3a(), p.rotation.as_quat());
    let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
    f32_agrees(&a32, narrow(&pa), &b32, narrow(&pb));
    let r = gjk::distance(
        &Placed::new(&a32, narrow(&pa)),
        &Placed::new(&b32, narrow(&pb)),
    );
    assert_eq!(r.witness, Witness::Unique, "{r:?}");
}

/// An f32 needle's apex (radius 1.6e-8) by a plate's narrow face 1.4e-7
/// thick (a review's case, the same mechanism): `Unique` 8.1e-3 rad off.
#[test]
fn f32_needles_apex_by_a_plates_narrow_face_does_not_take_a_noisy_normal() {
    let a = Shape::<f64>::cone(0.570_976_448_621_987_7, 1.620_264_293_281_621_4e-8);
    let pa = Pose::<f64>::new(
        DVec3::new(
            0.285_773_566_731_240_6,
            0.005_350_195_831_270_292_5,
            -0.338_051_085_390_656_26,
        ),
        DQuat::from_xyzw(
            0.293_170_632_057_588_7,
            0.623_442_547_501_405_8,
            0.689_287_004_073_551_7,
            0.224_173_585_596_561_73,
        ),
    );
    let b = Shape::<f64>::cuboid(DVec3::new(
        0.613_668_137_656_309_6,
        0.233_274_831_807_040_42,
        6.833_787_552_930_742e-8,
    ));
    let pb = Pose::<f64>::new(
        DVec3::new(
            0.381_467_406_110_605_37,
            -0.419_059_715_692_446_3,
            0.291_859_523_793_194_13,
        ),
        DQuat::from_xyzw(
            0.320_698_536_167_041_9,
            -0.399_253_721_954_394_24,
            0.337_170_476_636_552_64,
            -0.789_977_837_721_135,
        ),
    );
    let (a, b) = (a.to_precision::<f32>(), b.to_precision::<f32>());
    f32_agrees(&a, gjk_common::pose_f32(&pa), &b, gjk_common::pose_f32(&pb));
}

/// Random constructed pairs, B (or A) scaled by 1e-3 … 1e-4: f64 within
/// 1e-8 of the size of the construction, f32 within 1e-4 of f64's answer
/// on the same input. Before the boxes' mutual projection
/// (`sat::mutually_closest`), f32 box pairs claimed `Unique` with points up
/// to 2.8e-3 of the size off in 138 of 80 000 such queries.
#[test]
fn unique_points_hold_between_very_different_sizes() {
    let mut rng = Rng::new(7);
    let (mut checked, mut worst64, mut worst32) = (0, 0.0f64, 0.0f64);
    for (ka, kb) in [
        (1.0, 1e-3),
        (1.0, 3e-4),
        (1.0, 1e-4),
        (1e-3, 1.0),
        (1e-4, 1.0),
    ] {
        for family in FAMILIES {
            for _ in 0..1500 {
                let (a, ma, pa) = exact_common::unique_support(&mut rng, family);
                let b = exact_common::any_shape(&mut rng);
                let mb = rng.unit();
                let qb = b.support(mb);
                let pose_a = rng.pose(3.0);
                let twist = rng.range(0.0, std::f64::consts::TAU);
                let d = 10f64.powf(rng.range(-3.0, 0.0));
                let c = exact_common::place(
                    format!("{family} ×{ka:e} vs {} ×{kb:e}", exact_common::kind(&b)),
                    (a.scaled(ka), ma, pa * ka),
                    (b.scaled(kb), mb, qb * kb),
                    pose_a,
                    twist,
                    d,
                );
                let r = gjk::distance(&Placed::new(&c.a, c.pose_a), &Placed::new(&c.b, c.pose_b));
                if r.witness == Witness::Unique {
                    let off = (r.point_a - c.point_a)
                        .length()
                        .max((r.point_b - c.point_b).length())
                        / c.scale;
                    assert!(
                        off <= 1e-8,
                        "{}: f64 points {off:e} of the size off",
                        c.name
                    );
                    worst64 = worst64.max(off);
                }
                let (a32, b32) = (c.a.to_precision::<f32>(), c.b.to_precision::<f32>());
                let (pa32, pb32) = (
                    gjk_common::pose_f32(&c.pose_a),
                    gjk_common::pose_f32(&c.pose_b),
                );
                if let Some(off) = f32_error(&a32, pa32, &b32, pb32) {
                    assert!(
                        off <= 1e-4,
                        "{}: f32 points {off:e} of the size off: {a32:?} at {pa32:?}, {b32:?} at {pb32:?}",
                        c.name
                    );
                    worst32 = worst32.max(off);
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} f32 unique answers; worst f64 {worst64:e}, f32 {worst32:e} of the size");
    assert!(checked > 40_000, "only {checked} f32 answers were unique");
}

/// How far the f64 depth on the same rounded input (itself `Converged`)
/// lies outside f32's penetration bracket, beyond the f32 rounding of the
/// coordinates (≤ 0: inside), and whether f32 said `Converged`; `None`
/// unless f64 converged.
fn f32_bracket_miss(
    a: &Shape<f32>,
    pa: Pose<f32>,
    b: &Shape<f32>,
    pb: Pose<f32>,
) -> Option<(f64, bool)> {
    let r = epa::penetration(&Placed::new(a, pa), &Placed::new(b, pb));
    let wide = gjk_common::pose_f64;
    let (a64, b64) = (a.to_precision::<f64>(), b.to_precision::<f64>());
    let t = epa::penetration(&Placed::new(&a64, wide(&pa)), &Placed::new(&b64, wide(&pb)));
    if t.status != Status::Converged {
        return None;
    }
    let reach = a64.scale() + b64.scale() + (pb.position - pa.position).length() as f64;
    let slack = 4.0 * f64::from(f32::EPSILON) * reach;
    let above = t.lower_bound - (f64::from(r.upper_bound) + slack);
    let below = f64::from(r.lower_bound) - slack - t.upper_bound;
    Some((above.max(below), r.status == Status::Converged))
}

/// Four f32 penetrations whose `Converged` bracket missed the depth (now
/// it holds it, converged or not):
/// capsules whose segments pass 5.5e-6 apart (GJK called the cores
/// overlapping within its tolerance and EPA's flat polytope read a core
/// depth of 0: `[r, r]`, 5.5e-6 above the depth); a capsule 1e-3 long in
/// one 2 long, its segment 3.1e-5 from the other's (GJK's simplex put it
/// 1.2e-5 away); a rounded box 1e-3 across on a capsule's segment, where
/// EPA's sliver faces (two edges 2 long, 4e-3 apart) read the depth 4.7e-6
/// too deep; a cylinder 1.6e-4 across 1e-5 from a capsule's segment, which
/// GJK's sliver tetrahedron claimed to enclose (`[r, r]`, 1e-5 above).
#[test]
fn f32_penetration_brackets_hold_by_touching_cores_and_slivers() {
    let q = |x: f32, y: f32, z: f32, w: f32| Quat::from_xyzw(x, y, z, w);
    let v = Vec3A::new;
    let cases = [
        (
            Shape::<f32>::capsule(1.025_277_3, 0.502_923_4),
            q(-0.274_957, -0.035_870_06, -0.157_234_04, -0.947_834_1),
            Shape::<f32>::capsule(0.313_950_03, 0.877_204_7),
            v(-4.286_390_7e-5, -5.078_858_5e-5, -0.000_101_260_98),
            q(0.537_008_4, -0.753_394_5, 0.076_135_33, -0.371_782_33),
        ),
        (
            Shape::<f32>::capsule(0.000_228_029_54, 0.001_429_222_4),
            q(-0.369_737_83, -0.654_574_3, -0.260_369_96, 0.605_833_2),
            Shape::<f32>::capsule(0.900_197_2, 0.378_724_3),
            v(-7.694_15e-5, -7.040_523_6e-5, -4.765_886_5e-5),
            q(0.572_469_3, 0.760_534_76, 0.207_400_11, 0.225_501_5),
        ),
        (
            Shape::<f32>::cuboid(v(0.000_659_448, 0.000_963_122_1, 0.001_921_394_3))
                .with_margin(0.0001),
            q(0.619_777_56, -0.128_116_43, -0.014_092_417, -0.774_121_05),
            Shape::<f32>::capsule(1.073_695_2, 0.240_154_27),
            v(-0.000_744_052_76, -4.812_129_2e-5, 0.001_287_751_1),
            q(0.215_589_87, 0.145_686_86, 0.084_286_876, 0.961_869_06),
        ),
        (
            Shape::<f32>::cylinder(7.602_513e-5, 8.202_826e-5),
            q(0.178_057_07, -0.778_601_65, -0.432_953_18, -0.417_883_6),
            Shape::<f32>::capsule(1.207_952_3, 0.600_747_1),
            v(-1.875_507_8e-5, 3.962_301_3e-5, -8.174_671e-5),
            q(-0.122_253_99, -0.217_640_65, 0.953_553_56, 0.168_588_64),
        ),
    ];
    for (a, qa, b, at, qb) in cases {
        let (miss, _) = f32_bracket_miss(&a, Pose::new(Vec3A::ZERO, qa), &b, Pose::new(at, qb))
            .expect("f64 converges");
        assert!(
            miss <= 0.0,
            "the depth is {miss:e} outside f32's bracket: {a:?} by {b:?}"
        );
    }
}

/// Random deep overlaps, one shape 1e-3 … 1e-4 of the other's size either
/// way round: f32's bracket holds the depth, and most converge (before the
/// fixes above, 116 of 80 000 `Converged` ones did not, by up to 2.6e-5 of
/// the size).
#[test]
fn f32_penetration_brackets_hold_between_very_different_sizes() {
    let mut rng = Rng::new(11);
    let mut checked = 0;
    for (ka, kb) in [(1.0, 1e-3), (1e-3, 1.0), (1.0, 1e-4), (1e-4, 1.0)] {
        for _ in 0..4000 {
            let a = exact_common::any_shape(&mut rng).scaled(ka);
            let b = exact_common::any_shape(&mut rng).scaled(kb);
            let pa = rng.pose(0.0);
            let mut pb = rng.pose(0.0);
            pb.position = pa.position + rng.unit() * rng.range(0.0, 1.0) * a.scale().min(b.scale());
            let (a32, b32) = (a.to_precision::<f32>(), b.to_precision::<f32>());
            let (pa32, pb32) = (gjk_common::pose_f32(&pa), gjk_common::pose_f32(&pb));
            if let Some((miss, converged)) = f32_bracket_miss(&a32, pa32, &b32, pb32) {
                assert!(
                    miss <= 0.0,
                    "the depth is {miss:e} outside f32's bracket: {a32:?} at {pa32:?} by {b32:?} at {pb32:?}"
                );
                checked += usize::from(converged);
            }
        }
    }
    assert!(checked > 12_000, "only {checked} brackets converged");
}

/// What an f32 rounded box pair's penetration says, against its true depth:
/// the bracket holds it (to rounding), and `Converged` exactly where the
/// bracket is within the tolerance (2.4e-5 of the larger size).
fn f32_pair_holds(a: &Shape<f32>, qa: Quat, b: &Shape<f32>, (at, qb): (Vec3A, Quat), truth: f64) {
    let p = epa::penetration(
        &Placed::new(a, Pose::new(Vec3A::ZERO, qa)),
        &Placed::new(b, Pose::new(at, qb)),
    );
    let scale = f64::from(a.scale().max(b.scale()));
    let slack = 4.0 * f64::from(f32::EPSILON) * (scale + f64::from(at.length()));
    let (lower, upper) = (f64::from(p.lower_bound), f64::from(p.upper_bound));
    assert!(
        lower - slack <= truth && truth <= upper + slack,
        "[{lower}, {upper}] without {truth}: {p:?}"
    );
    let tight = upper - lower <= 2.4e-5 * scale;
    assert_eq!(p.status == Status::Converged, tight, "{p:?}");
}

/// Two f32 brackets whose status did not say what they hold: a rounded box
/// 1.3e-4 across on a rounded plate, whose EPA bracket the separating axes
/// then closed (`Degenerate`, though within the tolerance); a rounded box
/// 6e-5 across beside a plate 8.4e-5 thick whose cores GJK found 2.7e-4
/// apart (`Converged` on a bracket six times the tolerance).
#[test]
fn f32_penetration_is_converged_exactly_where_its_bracket_is_tight() {
    f32_pair_holds(
        &Shape::<f32>::cuboid(Vec3A::new(0.016_817_98, 0.381_794_24, 0.985_854_5))
            .with_margin(0.040_385_716),
        Quat::from_xyzw(-0.624_399_84, 0.289_174_14, -0.259_405_05, -0.677_651_94),
        &Shape::<f32>::cuboid(Vec3A::new(6.384_377e-5, 2.950_468_8e-5, 1.959_287e-5))
            .with_margin(9.612_076_5e-8),
        (
            Vec3A::new(-0.280_899_52, 0.077_041_4, 0.251_408_25),
            Quat::from_xyzw(0.264_616_37, -0.390_527_4, -0.827_475_7, -0.304_549_6),
        ),
        0.040_385_777_3,
    );
    f32_pair_holds(
        &Shape::<f32>::cuboid(Vec3A::new(0.288_367_54, 4.193_58e-5, 0.134_369_33))
            .with_margin(0.001_961_287_8),
        Quat::from_xyzw(0.0, 0.0, 0.382_683_43, 0.923_879_5),
        &Shape::<f32>::cuboid(Vec3A::new(2.485_034_8e-7, 2.899_032_2e-5, 2.355_023e-5))
            .with_margin(1.097_391_76e-7),
        (
            Vec3A::new(0.044_941_768, 0.044_860_616, -0.134_668_7),
            Quat::from_xyzw(0.395_178_97, -0.450_779_3, 0.425_718_3, -0.677_787_24),
        ),
        0.001_693_624_4,
    );
}
