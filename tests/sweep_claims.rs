//! Sweeps that claimed more than they had, each against the constructed
//! truth (A placed touching B at a point where the normal is unique, then
//! moved back along the motion: `exact_common`): a `Converged` miss of a
//! real contact, and `Unique` normals or points beyond the witness
//! tolerance (1e-7 rad and 1e-8 × size in f64, 1e-3 rad in f32).

mod exact_common;
mod gjk_common;

use cspace::sweep::{self, Sweep};
use cspace::{Placed, Pose, Shape, Status, Vector, Witness};
use gjk_common::angle;
use glam::{DQuat, DVec3, Vec3A};

type Method<T> = fn(&Placed<'_, T>, <T as cspace::Real>::V, &Placed<'_, T>) -> Sweep<T>;

/// A constructed case: A at `start` moving by `motion` onto B at `pose_b`;
/// the truth `(toi, normal, point)` (the point where it is known).
struct Case {
    a: Shape<f64>,
    start: Pose<f64>,
    b: Shape<f64>,
    pose_b: Pose<f64>,
    motion: DVec3,
    truth: (f64, DVec3, Option<DVec3>),
}

/// The three sweep methods, named.
fn methods<T: cspace::Real>() -> [(&'static str, Method<T>); 3] {
    [
        ("ray cast", sweep::ray_cast),
        ("conservative advancement", sweep::conservative_advancement),
        ("swept MPR", sweep::swept_mpr),
    ]
}

/// A case rounded to f32, and the f64 ray cast's answer on that rounded
/// input: the truth for what an f32 query is given.
struct Rounded {
    a: Shape<f32>,
    b: Shape<f32>,
    start: Pose<f32>,
    pose_b: Pose<f32>,
    motion: Vec3A,
    truth: Sweep<f64>,
}

impl Rounded {
    fn new(c: &Case) -> Self {
        let (a, b) = (c.a.to_precision::<f32>(), c.b.to_precision::<f32>());
        let (start, pose_b) = (
            gjk_common::pose_f32(&c.start),
            gjk_common::pose_f32(&c.pose_b),
        );
        let motion = Vec3A::from(c.motion.as_vec3());
        let widen = gjk_common::pose_f64;
        let (aw, bw) = (a.to_precision::<f64>(), b.to_precision::<f64>());
        let truth = sweep::ray_cast(
            &Placed::new(&aw, widen(&start)),
            gjk_common::wide::<f32>(motion),
            &Placed::new(&bw, widen(&pose_b)),
        );
        Rounded {
            a,
            b,
            start,
            pose_b,
            motion,
            truth,
        }
    }

    /// Each f32 method's answer.
    fn sweeps(&self) -> impl Iterator<Item = (&'static str, Sweep<f32>)> + '_ {
        methods::<f32>().into_iter().map(|(method, f)| {
            let s = f(
                &Placed::new(&self.a, self.start),
                self.motion,
                &Placed::new(&self.b, self.pose_b),
            );
            (method, s)
        })
    }
}

fn pose(p: [f64; 3], q: [f64; 4]) -> Pose<f64> {
    Pose::new(DVec3::from(p), DQuat::from_array(q))
}

/// Every f64 method hits, a `Converged` bracket holds the time of impact
/// (to the distance tolerance over the closing speed), and a `Unique` contact has its normal within 1e-7 rad and its points
/// within 1e-8 of the size.
fn check_f64(name: &str, c: &Case) {
    let methods = methods::<f64>();
    let (toi, normal, point) = c.truth;
    let scale = c.a.scale().max(c.b.scale());
    for (method, f) in methods {
        let s = f(
            &Placed::new(&c.a, c.start),
            c.motion,
            &Placed::new(&c.b, c.pose_b),
        );
        assert!(s.hit, "{name}, {method}: a miss, {s:?}");
        // The construction's own rounding: GJK's distance tolerance over
        // the closing speed, as in `sweep_exact`.
        let slack = 4.0 * 3.7e-11 * scale / c.motion.dot(normal);
        assert!(
            s.status != Status::Converged
                || (s.toi_lower <= toi + slack && toi <= s.toi_upper + slack),
            "{name}, {method}: `Converged` [{}, {}] without {toi}",
            s.toi_lower,
            s.toi_upper
        );
        if s.witness == Some(Witness::Unique) {
            let off = angle(s.normal, normal);
            let points = point.map_or(0.0, |p| {
                (s.point_a - p).length().max((s.point_b - p).length()) / scale
            });
            assert!(
                off <= 1e-7 && points <= 1e-8,
                "{name}, {method}: `Unique` with the normal {off:e} rad and the points {points:e} of the size off"
            );
        }
    }
}

/// A needle's apex onto a plate's narrow face (the plate 3.7e-8 thick):
/// conservative advancement and the ray cast (finishing by advancement)
/// stepped on a stalled GJK's distance (2.7e-9) along a plane that did not
/// separate (−9.9e-8), past the whole contact: a `Converged` miss.
#[test]
fn an_apex_onto_a_plates_narrow_face_is_no_miss() {
    check_f64(
        "apex onto a plate",
        &Case {
            a: Shape::cone(1.958_593_134_008_620_2, 0.256_093_104_830_887_76),
            start: pose(
                [
                    1.295_126_868_863_300_9,
                    3.388_257_142_722_762,
                    -2.595_646_673_774_264_3,
                ],
                [
                    0.452_775_938_878_549_33,
                    0.008_519_104_608_011_25,
                    0.561_179_243_256_656,
                    -0.692_819_768_025_720_2,
                ],
            ),
            b: Shape::cuboid(DVec3::new(
                1.271_731_237_205_696_1,
                1.200_040_158_455_595,
                1.860_630_678_200_930_5e-8,
            )),
            pose_b: pose(
                [
                    3.806_991_096_407_868,
                    1.066_689_523_424_225_7,
                    -3.405_441_693_202_736,
                ],
                [
                    0.953_174_667_077_890_2,
                    0.206_560_184_477_753_3,
                    -0.156_777_871_594_666_77,
                    -0.155_600_910_047_839_57,
                ],
            ),
            motion: DVec3::new(
                2.216_833_346_024_285_5,
                -2.215_667_952_124_747_3,
                1.614_440_099_121_684_3,
            ),
            truth: (
                0.444_943_125_813_346_94,
                DVec3::new(
                    0.344_986_311_151_272_5,
                    -0.866_242_493_961_601_7,
                    -0.361_397_823_420_980_65,
                ),
                None,
            ),
        },
    );
}

/// Curvature 1e-3 of the size beside a shape 1e3 times larger: a cone's
/// rim (54 high) on a cylinder's side (radius 0.0136), a cylinder's rim
/// (744 high) on a capsule's side (radius 0.197). The normals were 3e-6 to
/// 1.2e-5 rad off, `Unique`; now `Approximate` (the polish's probes work
/// to the larger size).
#[test]
fn a_large_cones_rim_on_a_small_cylinder_does_not_claim_its_normal() {
    check_f64(
        "cone rim on a small cylinder",
        &Case {
            a: Shape::cone(53.740_585_785_632, 14.801_503_992_142_154),
            start: pose(
                [
                    -86.989_441_068_066_33,
                    38.303_090_177_278_24,
                    -64.866_951_413_541_19,
                ],
                [
                    0.383_207_013_021_779_84,
                    -0.741_406_739_550_117_7,
                    0.097_091_198_224_847_71,
                    0.542_256_148_833_605,
                ],
            ),
            b: Shape::cylinder(0.060_415_013_457_563_38, 0.013_586_655_883_254_18),
            pose_b: pose(
                [
                    20.030_844_398_496_356,
                    -30.153_035_628_104_256,
                    -65.190_613_316_027_5,
                ],
                [
                    -0.448_880_111_884_917_94,
                    -0.546_357_582_055_103,
                    0.000_223_235_390_800_054_22,
                    0.707_106_772_595_939_2,
                ],
            ),
            motion: DVec3::new(
                96.129_881_811_943_56,
                -25.797_598_901_379_356,
                20.220_305_296_028_42,
            ),
            truth: (
                0.850_489_198_290_941_8,
                DVec3::new(
                    0.557_719_895_350_180_7,
                    -0.774_748_269_839_434_7,
                    -0.297_848_345_154_688_17,
                ),
                Some(DVec3::new(
                    20.037_594_845_755_87,
                    -30.125_058_738_336_257,
                    -65.205_129_201_011_19,
                )),
            ),
        },
    );
}

/// See `a_large_cones_rim_on_a_small_cylinder_does_not_claim_its_normal`.
#[test]
fn a_large_cylinders_rim_on_a_small_capsule_does_not_claim_its_normal() {
    check_f64(
        "cylinder rim on a small capsule",
        &Case {
            a: Shape::cylinder(372.169_167_628_142_2, 315.683_041_179_949_44),
            start: pose(
                [
                    -185.046_302_596_373_9,
                    284.922_518_559_630_13,
                    -514.506_965_553_523_7,
                ],
                [
                    -0.083_790_811_260_290_52,
                    0.977_159_968_475_979_1,
                    0.106_513_829_509_822_17,
                    0.163_683_536_372_839_36,
                ],
            ),
            b: Shape::capsule(0.302_936_924_286_679_9, 0.197_050_774_941_782_7),
            pose_b: pose(
                [
                    -516.512_471_424_745_7,
                    451.781_028_316_938_4,
                    38.536_710_836_038_56,
                ],
                [
                    -0.130_688_056_502_859_75,
                    0.713_829_189_753_573_8,
                    -0.217_758_066_324_919_9,
                    0.652_648_407_868_810_8,
                ],
            ),
            motion: DVec3::new(
                -476.190_654_246_992_9,
                -253.212_876_254_797_12,
                338.352_052_406_273_6,
            ),
            truth: (
                0.519_925_453_373_1,
                DVec3::new(
                    -0.154_534_805_305_406_7,
                    0.491_187_412_740_211_27,
                    0.857_236_209_871_466_6,
                ),
                Some(DVec3::new(
                    -516.490_823_439_222_7,
                    451.605_726_663_992_5,
                    38.411_191_823_758_03,
                )),
            ),
        },
    );
}

/// A cone's rim on a plate's narrow face (3.9e-8 thick): the polish
/// stopped 4.8e-9 rad off the face's normal and the rim point slid 2.4e-8
/// of the size, `Unique`; a normal within the tolerance of a face's is now
/// that face's.
#[test]
fn a_rim_on_a_plates_narrow_face_takes_the_faces_normal_exactly() {
    check_f64(
        "rim on a plate's narrow face",
        &Case {
            a: Shape::cone(1.402_576_393_585_049_5, 1.418_817_066_417_475),
            start: pose(
                [
                    0.978_040_249_351_697_3,
                    -0.563_970_474_679_567_5,
                    1.350_939_118_394_670_4,
                ],
                [
                    -0.599_757_115_950_093_4,
                    0.305_834_654_901_406_4,
                    0.739_343_007_978_248_5,
                    0.011_335_002_524_898_255,
                ],
            ),
            b: Shape::cuboid(DVec3::new(
                1.341_210_944_870_735_2,
                1.368_913_735_039_249,
                3.886_264_794_927_875_6e-8,
            )),
            pose_b: pose(
                [
                    1.353_464_269_686_425,
                    3.216_000_948_543_717_5,
                    0.225_214_382_788_549_1,
                ],
                [
                    -0.282_448_740_122_811_2,
                    -0.109_607_913_984_953_04,
                    -0.935_224_740_225_676_6,
                    -0.183_203_437_917_304_76,
                ],
            ),
            motion: DVec3::new(
                -0.360_419_906_381_343_6,
                1.961_054_646_658_010_8,
                -2.179_016_812_818_675,
            ),
            truth: (
                0.370_370_924_629_012_2,
                DVec3::new(
                    0.280_755_540_844_245_7,
                    0.908_845_211_054_294_8,
                    -0.308_507_226_218_332_65,
                ),
                Some(DVec3::new(
                    0.670_360_109_947_860_2,
                    2.128_184_897_461_698,
                    0.836_130_538_611_829_8,
                )),
            ),
        },
    );
}

/// A disc's rim (3.3e-4 thick) on a capsule's side: the polish settled
/// after a turn of ~6e-8 rad taking the error for its square, 1.25e-7 rad
/// off, `Unique`; it now stops below a tenth of that.
#[test]
fn a_discs_rim_on_a_capsules_side_keeps_its_normal() {
    check_f64(
        "disc rim on a capsule",
        &Case {
            a: Shape::cylinder(0.000_334_648_671_047_148, 1.595_373_643_936_405_5),
            start: pose(
                [
                    1.809_688_192_483_585_7,
                    2.899_766_000_021_423_4,
                    -1.548_948_987_898_279,
                ],
                [
                    0.128_774_878_321_695_3,
                    -0.906_536_998_035_974_8,
                    0.373_253_050_910_107_74,
                    -0.149_297_896_473_634_64,
                ],
            ),
            b: Shape::capsule(1.386_124_038_755_272, 1.432_861_355_509_460_5),
            pose_b: pose(
                [
                    4.759_576_888_697_468,
                    0.053_431_759_895_214_65,
                    -2.802_071_793_581_673,
                ],
                [
                    -0.215_535_278_958_564_53,
                    -0.697_169_060_387_855_8,
                    -0.332_879_251_911_184_7,
                    0.597_236_351_170_516_7,
                ],
            ),
            motion: DVec3::new(
                2.388_468_586_448_176_3,
                -3.487_439_526_313_756,
                1.249_252_618_055_286,
            ),
            truth: (
                0.399_048_168_970_299_7,
                DVec3::new(
                    0.651_323_428_168_468_1,
                    -0.488_204_240_017_626_25,
                    -0.580_891_049_980_705_3,
                ),
                Some(DVec3::new(
                    3.801_944_472_849_857_7,
                    0.729_026_967_704_626_4,
                    -1.976_952_380_015_015_3,
                )),
            ),
        },
    );
}

/// In f32, a needle's apex (radius 3.7e-4) on a plate's narrow face 6.9e-8
/// wide: swept MPR took a broad face's normal, 1.57 rad off, `Unique`. f32
/// cannot place the apex on so narrow a face: a vertex within the touching
/// tolerance of a face's boundary fixes no normal.
#[test]
fn an_f32_apex_on_a_plates_narrow_face_does_not_claim_a_broad_faces_normal() {
    let a = Shape::<f64>::cone(0.679_484_216_469_150_6, 0.000_374_889_182_483_041_53)
        .to_precision::<f32>();
    let start = gjk_common::pose_f32(&pose(
        [
            -0.319_257_856_918_235_05,
            -0.643_828_784_176_286_9,
            0.753_928_747_514_528_7,
        ],
        [
            -0.217_591_401_102_371_46,
            0.482_930_256_071_225_86,
            0.365_879_227_841_058_7,
            -0.765_222_020_443_555_7,
        ],
    ));
    let b = Shape::<f64>::cuboid(DVec3::new(
        1.159_729_186_055_335_8,
        0.805_700_602_661_331_6,
        3.448_552_359_657_203e-8,
    ))
    .to_precision::<f32>();
    let pose_b = gjk_common::pose_f32(&pose(
        [
            0.048_410_448_898_498_42,
            2.060_164_735_961_606,
            0.573_055_195_663_527_5,
        ],
        [
            -0.051_182_304_840_981_206,
            0.709_750_809_513_830_4,
            0.078_047_655_464_617_57,
            -0.698_242_596_482_127_9,
        ],
    ));
    let motion = DVec3::new(
        0.149_879_202_887_754_3,
        2.111_079_460_205_006_3,
        -1.877_528_637_075_578_6,
    );
    let motion = Vec3A::from(motion.as_vec3());
    let normal = DVec3::new(
        0.036_339_030_614_574_115,
        0.982_577_870_295_282_4,
        0.182_264_104_145_550_7,
    );
    let methods = methods::<f32>();
    for (method, f) in methods {
        let s = f(&Placed::new(&a, start), motion, &Placed::new(&b, pose_b));
        let off = angle(s.normal.as_dvec3(), normal);
        assert!(
            s.witness != Some(Witness::Unique) || off <= 1e-3,
            "{method}: `Unique` with the normal {off:e} rad off: {s:?}"
        );
    }
}

/// A `Unique` f32 contact's points are placed within how far A moves over
/// the bracket (`(toi_upper − toi_lower) · |motion|`), which must then be
/// within half the witness tolerance (1e-4 of the size; the normal's
/// error takes the other half): along grazing motions a `Converged` f32
/// bracket (closing by 1e-4 of the size) slides A further (a hull's vertex
/// on a cylinder's side, the bracket 9e-5 wide: points 1.2e-4 of the size
/// off, `Unique`; before, 4 % of the ray casts below), and a slide just
/// under the tolerance left no room for the normal's error (a cone's rim
/// on a cylinder's side: 9.7e-5 of slide, the points 1.3e-4 off).
#[test]
fn an_f32_contact_is_unique_only_where_the_bracket_places_it() {
    let mut rng = gjk_common::Rng::new(5);
    let methods = methods::<f32>();
    let mut unique = 0;
    for i in 0..2000 {
        let k = 10f64.powf(rng.range(-3.0, 3.0));
        let family = exact_common::FAMILIES[i % exact_common::FAMILIES.len()];
        let (a, ma, pa) = exact_common::unique_support(&mut rng, family);
        let (b, mb, qb) = exact_common::smooth_or_face(&mut rng);
        let pose_a = rng.pose(3.0 * k);
        let twist = rng.range(0.0, std::f64::consts::TAU);
        let touch = exact_common::place(
            format!("{family} ×{k:e}"),
            (a.scaled(k), ma, pa * k),
            (b.scaled(k), mb, qb * k),
            pose_a,
            twist,
            0.0,
        );
        let c = exact_common::moved_back(&mut rng, touch);
        let (a32, b32) = (
            c.touch.a.to_precision::<f32>(),
            c.touch.b.to_precision::<f32>(),
        );
        let start = gjk_common::pose_f32(&c.start);
        let pose_b = gjk_common::pose_f32(&c.touch.pose_b);
        let motion = Vec3A::from(c.motion.as_vec3());
        for (method, f) in methods {
            let s = f(
                &Placed::new(&a32, start),
                motion,
                &Placed::new(&b32, pose_b),
            );
            if s.witness == Some(Witness::Unique) {
                let slide = f64::from((s.toi_upper - s.toi_lower) * motion.length());
                assert!(
                    slide <= 0.5e-4 * c.touch.scale,
                    "{}, {method}: `Unique` with A sliding {:e} of the size over the bracket: {s:?}",
                    c.touch.name,
                    slide / c.touch.scale
                );
                unique += 1;
            }
        }
    }
    assert!(unique > 4000, "only {unique} of 6000 casts were unique");
}

/// A sphere 4e-3 of the size onto a box's edge: its normal is the closed
/// form's (a point core), exact whatever the sphere's size, so the contact
/// stays `Unique` (the rule for curvature under 1e-2 of the size is for
/// normals the probing polish found).
#[test]
fn a_small_sphere_on_a_large_boxs_edge_keeps_its_unique_contact() {
    let r = 0.004;
    let toi = (1.0 - r / std::f64::consts::SQRT_2) / 2.0;
    let c = Case {
        a: Shape::sphere(r),
        start: pose([2.0, 2.0, 0.3], [0.0, 0.0, 0.0, 1.0]),
        b: Shape::cuboid(DVec3::ONE),
        pose_b: pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        motion: DVec3::new(-2.0, -2.0, 0.0),
        truth: (
            toi,
            DVec3::new(-1.0, -1.0, 0.0).normalize(),
            Some(DVec3::new(1.0, 1.0, 0.3)),
        ),
    };
    check_f64("small sphere on an edge", &c);
    let s = sweep::ray_cast(
        &Placed::new(&c.a, c.start),
        c.motion,
        &Placed::new(&c.b, c.pose_b),
    );
    assert_eq!(s.witness, Some(Witness::Unique), "{s:?}");
}

/// Every f32 method's `Converged` bracket holds the time of impact the f64
/// ray cast finds on the same (rounded) input, to the rounding it states.
fn check_f32_brackets(name: &str, c: &Case) {
    let r = Rounded::new(c);
    let truth = &r.truth;
    assert_eq!(truth.status, Status::Converged, "{name}: f64 {truth:?}");
    for (method, s) in r.sweeps() {
        assert!(s.hit, "{name}, {method}: {s:?}");
        if s.status == Status::Converged {
            let (lower, upper) = (f64::from(s.toi_lower), f64::from(s.toi_upper));
            assert!(
                lower <= truth.toi_upper && truth.toi_lower <= upper,
                "{name}, {method}: `Converged` on [{lower}, {upper}], the time of impact {}: {s:?}",
                truth.toi
            );
        }
    }
}

/// In f32, a small cylinder's rim onto a large box's edge (525 long): the
/// fan's triangles around the edge's end are slivers 1 050 long and 1e-2
/// wide, and the path's crossing 0.4 beyond a sliver's tip passed the
/// inside test (within rounding of both long edges' lines), proving a
/// contact with the shapes 0.044 apart: `Converged`, 13 bracket widths
/// early. A crossing outside a triangle must now lie within rounding of
/// the triangle itself, and a shape's point proven inside the other is
/// preferred to a crossing beside a triangle.
#[test]
fn an_f32_crossing_beyond_a_slivers_tip_proves_no_contact() {
    check_f32_brackets(
        "small cylinder on a large box's edge",
        &Case {
            a: Shape::cuboid(DVec3::new(
                525.237_507_430_149_5,
                55.553_985_306_335_406,
                421.769_540_876_784_2,
            )),
            start: pose(
                [
                    230.974_958_148_609_52,
                    -196.188_890_630_737_6,
                    1_144.520_310_144_322_8,
                ],
                [
                    0.718_745_374_348_196_9,
                    0.528_602_414_862_095_8,
                    0.448_043_264_076_987_3,
                    0.056_936_871_799_127_244,
                ],
            ),
            b: Shape::cylinder(0.111_362_877_856_396_36, 0.457_024_070_069_769_7),
            pose_b: pose(
                [
                    1_072.294_219_919_049_5,
                    -47.819_189_584_145_33,
                    -61.863_811_972_220_03,
                ],
                [
                    0.476_717_603_561_865_27,
                    -0.669_869_981_679_965_3,
                    0.378_528_864_201_977_7,
                    0.425_124_020_803_666_4,
                ],
            ),
            motion: DVec3::new(
                845.896_933_114_193_8,
                697.110_461_937_623_4,
                -1_095.858_498_044_640_3,
            ),
            truth: (0.621_409_980_072_587_6, DVec3::ZERO, None),
        },
    );
}

/// In f32, a needle (radius 9e-7) onto a plate's face: its fan collapses
/// and the path passed the segments within 64 roundings of the
/// coordinates, while the needle is 15 roundings wide; along the grazing
/// motion the contact came 4.5e-6 of the time later (twice the bracket).
/// Crossings are now accepted within the rounding the bracket is widened
/// by, and a shape's point proven inside the other is preferred to a
/// crossing only within rounding of `K`.
#[test]
fn an_f32_needles_crossing_within_rounding_proves_no_earlier_contact() {
    check_f32_brackets(
        "needle on a plate",
        &Case {
            a: Shape::cylinder(0.723_796_016_145_963_6, 9.014_821_241_310_501e-7),
            start: pose(
                [
                    -1.951_851_485_704_277_2,
                    -1.591_387_107_066_194,
                    -0.159_755_202_213_145_2,
                ],
                [
                    -0.375_708_471_643_702_8,
                    0.278_262_528_253_283_2,
                    -0.883_119_850_685_425_8,
                    0.038_890_516_014_847_804,
                ],
            ),
            b: Shape::cuboid(DVec3::new(
                1.664_018_425_627_048_7,
                0.958_644_982_915_629_8,
                2.232_583_756_433_107_6e-5,
            )),
            pose_b: pose(
                [
                    -1.409_110_777_561_173_3,
                    -2.444_450_973_384_547,
                    -3.021_970_760_298_448,
                ],
                [
                    0.888_300_606_495_710_3,
                    0.177_932_556_076_083_02,
                    0.074_656_915_148_849_26,
                    -0.416_759_382_285_930_24,
                ],
            ),
            motion: DVec3::new(
                1.355_172_215_939_441,
                0.941_267_511_987_418_8,
                -3.989_636_177_035_604,
            ),
            truth: (0.428_655_392_890_030_2, DVec3::ZERO, None),
        },
    );
}

/// Every f32 method's `Unique` contact points lie within 1e-4 of the size
/// (`size`) of the f64 ray cast's on the same (rounded) input.
fn check_f32_points(name: &str, c: &Case, size: f64) {
    let r = Rounded::new(c);
    let truth = &r.truth;
    assert_eq!(
        truth.witness,
        Some(Witness::Unique),
        "{name}: f64 {truth:?}"
    );
    for (method, s) in r.sweeps() {
        if s.witness != Some(Witness::Unique) {
            continue;
        }
        for (point, exact) in [(s.point_a, truth.point_a), (s.point_b, truth.point_b)] {
            let off = (gjk_common::wide::<f32>(point) - exact).length();
            assert!(
                off <= 1e-4 * size,
                "{name}, {method}: a point {:e} of the size off: {s:?}",
                off / size
            );
        }
    }
}

/// An f32 box's corner onto a capsule (radius 1.09): the cores' distance
/// normal was read 1.7e-4 rad before the contact's (the settling stopped
/// on a turn under the normal's tolerance, 1e-3 rad), and B's point,
/// pushed out by the radius along it, landed 1.5e-4 of the size off,
/// `Unique` (ray cast). The settling now also waits for the points.
#[test]
fn an_f32_corner_on_a_capsule_places_the_capsules_point() {
    check_f32_points(
        "corner on a capsule",
        &Case {
            a: Shape::cuboid(DVec3::new(
                0.371_767_318_397_241,
                1.242_709_941_580_544,
                0.771_024_286_974_302,
            )),
            start: pose(
                [
                    0.317_770_703_785_709_15,
                    1.086_177_736_962_288_3,
                    -2.309_233_448_552_655,
                ],
                [
                    -0.458_589_104_194_524_87,
                    0.471_406_030_944_126_75,
                    -0.639_569_253_419_227_7,
                    0.398_024_569_071_232,
                ],
            ),
            b: Shape::capsule(0.572_895_504_837_162_3, 1.089_420_430_478_158_5),
            pose_b: pose(
                [
                    -0.650_559_285_302_172_1,
                    0.233_646_292_029_450_53,
                    2.353_538_035_153_200_7,
                ],
                [
                    0.168_962_227_620_500_78,
                    0.064_246_748_734_706_4,
                    0.745_188_515_970_001_2,
                    -0.641_886_435_891_088_6,
                ],
            ),
            motion: DVec3::new(
                -1.741_825_809_066_395_6,
                0.338_891_834_776_947_3,
                3.025_619_077_686_072_5,
            ),
            truth: (0.885_144_586_734_158_5, DVec3::ZERO, None),
        },
        1.662_315_935_315_320_7,
    );
}

/// An f32 capsule 8e-4 thick swept across a triangle 2.5e-3 wide and 3.3
/// long (fuzz seed 70, case 13828, `thin` family): within f32's set
/// height the triangle is a face, narrower than that height, so taken as
/// its long edge; the capsule's axis crosses it there, and conservative
/// advancement placed both points on that edge, 9.8e-4 of the size from
/// the contact on the edge beside it (the normal right to 1.4e-8 rad),
/// `Unique`. A thin face wider than the points' tolerance places no
/// `Unique` point against a segment now.
#[test]
fn an_f32_capsule_across_a_sliver_does_not_claim_the_slivers_long_edge() {
    check_f32_points(
        "capsule across a sliver",
        &Case {
            a: Shape::capsule(1.471_182_703_971_862_8, 0.000_807_063_770_480_454),
            start: pose(
                [
                    -0.154_719_024_896_621_7,
                    0.082_704_156_637_191_77,
                    0.762_548_327_445_983_9,
                ],
                [
                    0.107_829_034_328_460_7,
                    -0.569_631_278_514_862_1,
                    -0.489_141_255_617_141_7,
                    0.651_639_401_912_689_2,
                ],
            ),
            b: Shape::hull(vec![
                DVec3::new(0.0, -1.626_399_755_477_905_3, 0.0),
                DVec3::new(0.0, 1.626_399_755_477_905_3, 0.0),
                DVec3::new(0.002_513_528_801_500_797_3, 0.0, 0.0),
            ]),
            pose_b: pose(
                [
                    -0.823_447_823_524_475_1,
                    0.623_637_855_052_948,
                    -0.469_859_808_683_395_4,
                ],
                [
                    0.397_448_509_931_564_33,
                    -0.799_406_230_449_676_5,
                    0.302_880_078_554_153_44,
                    -0.333_538_621_664_047_24,
                ],
            ),
            motion: DVec3::new(
                -0.285_606_652_498_245_24,
                0.801_908_850_669_860_8,
                -1.212_255_120_277_404_8,
            ),
            truth: (0.181_158_352_630_760_05, DVec3::ZERO, None),
        },
        1.626_399_755_477_905_3,
    );
}

/// An f32 cone's rim onto a cylinder's side, both ~300 in size: near the
/// top the support plane's gap is flat to second order, and its rounding
/// hid every better normal below ~1e-4 rad; the polish stopped there, and
/// the rim point slid 5.9e-4 of the size (conservative advancement,
/// `Unique`). Within the gap's rounding a step is now kept where the
/// gradient (the tangential part of `x − k`) shrinks. The ray cast's
/// bracket let A slide 9.7e-5 of the size, under the witness tolerance
/// but leaving no room for the normal's error (points 1.3e-4 off): a
/// `Unique` contact's slide is now held to half the tolerance.
#[test]
fn an_f32_rim_on_a_cylinders_side_polishes_below_the_gaps_rounding() {
    check_f32_points(
        "cone rim on a cylinder",
        &Case {
            a: Shape::cone(281.957_320_840_308_57, 215.085_196_658_248_72),
            start: pose(
                [
                    313.285_203_048_017_2,
                    -121.362_999_124_212_11,
                    -149.978_959_155_389,
                ],
                [
                    -0.564_977_600_739_167_9,
                    -0.368_279_014_931_196_9,
                    -0.206_476_024_551_343_17,
                    0.708_899_519_755_651_7,
                ],
            ),
            b: Shape::cylinder(56.123_491_360_322_66, 276.103_920_676_821_93),
            pose_b: pose(
                [
                    -258.718_276_385_643_43,
                    43.409_358_307_747_48,
                    214.523_271_293_758_1,
                ],
                [
                    -0.191_870_191_463_489_63,
                    0.481_140_675_819_807_85,
                    0.463_519_465_637_068_3,
                    -0.718_915_283_378_333_1,
                ],
            ),
            motion: DVec3::new(
                -102.409_101_669_566_64,
                108.052_320_016_226_77,
                6.262_383_162_635_47,
            ),
            truth: (0.847_676_178_384_848_4, DVec3::ZERO, None),
        },
        281.957_320_840_308_57,
    );
}

/// A capsule's side (2 237 thick) onto a small cylinder's side (5.2 long):
/// the polish's two probe pairs both jumped along the cylinder's side, and
/// the capsule's smooth motion (0.45) set them 0.11 rad apart, which read
/// as a face: swept MPR's normal stayed 2.7e-6 rad off and conservative
/// advancement's points 1.5e-8 of the size, both `Unique`. Jumps whose
/// parts across each other are within the supports' smooth motion are
/// one edge.
#[test]
fn a_large_capsules_side_on_a_small_cylinders_side_is_one_edge() {
    check_f64(
        "large capsule on a small cylinder's side",
        &Case {
            a: Shape::capsule(1_133.796_294_805_864, 2_236.749_060_804_425_4),
            start: pose(
                [
                    -4_496.798_053_364_947,
                    -3_057.935_860_313_226,
                    -1_217.933_027_192_479_8,
                ],
                [
                    0.396_647_256_815_790_8,
                    0.135_215_088_099_718_44,
                    -0.375_797_151_912_452_7,
                    -0.826_537_557_661_587_7,
                ],
            ),
            b: Shape::cylinder(2.583_170_480_082_407, 2.730_518_728_146_617_7),
            pose_b: pose(
                [
                    2_810.053_380_497_174_7,
                    -6_689.677_786_910_227,
                    -1_311.840_088_752_020_8,
                ],
                [
                    0.392_257_307_705_465_5,
                    -0.471_305_220_832_965_5,
                    0.767_172_895_742_287_6,
                    0.188_285_266_034_494_14,
                ],
            ),
            motion: DVec3::new(
                9_230.800_265_381_835,
                -2_148.602_215_270_878_3,
                -1_977.519_658_063_201_6,
            ),
            truth: (
                0.600_048_234_936_948_3,
                DVec3::new(
                    0.528_921_153_616_298_7,
                    -0.842_244_474_615_694_6,
                    0.104_243_264_705_861_2,
                ),
                Some(DVec3::new(
                    2_807.912_125_178_238,
                    -6_687.891_119_242_635,
                    -1_312.733_695_873_077_5,
                )),
            ),
        },
    );
}

/// Every method answers `Converged` and `witness` with its bracket holding
/// `toi` and its points within `tol` of the size (`size`) of the ray
/// cast's (precision `T`; the regressions a review of the stricter
/// crossings found).
fn check_kept<T: cspace::Real>(
    name: &str,
    (a, start): (&Shape<T>, Pose<T>),
    (b, pose_b): (&Shape<T>, Pose<T>),
    motion: T::V,
    (toi, size, tol): (f64, f64, f64),
    witness: Witness,
) {
    let methods = methods::<T>();
    let reference = sweep::ray_cast(&Placed::new(a, start), motion, &Placed::new(b, pose_b));
    for (method, f) in methods {
        let s = f(&Placed::new(a, start), motion, &Placed::new(b, pose_b));
        let (lower, upper) = (s.toi_lower.to_f64(), s.toi_upper.to_f64());
        let slack = 1e-6 * (upper - lower).abs().max(1e-12);
        assert!(
            s.status == Status::Converged && lower - slack <= toi && toi <= upper + slack,
            "{name}, {method}: not `Converged` on the time of impact {toi}: {s:?}"
        );
        assert_eq!(s.witness, Some(witness), "{name}, {method}: {s:?}");
        for (p, q) in [
            (s.point_a, reference.point_a),
            (s.point_b, reference.point_b),
        ] {
            let off = DVec3::from_array(p.to_f64()).distance(DVec3::from_array(q.to_f64()));
            assert!(
                off <= tol * size,
                "{name}, {method}: a point {:e} of the size off the ray cast's: {s:?}",
                off / size
            );
        }
    }
}

/// An f32 box's corner onto a sphere: the crossing proving the contact
/// passed within rounding of `K`, and the sphere's point (the unique side
/// by its closed form) entered the box only 1.2e-4 of the time later,
/// beside the corner it touches (the normal's error): the bracket went
/// wide, `Degenerate`. The corner's point into the sphere proves it on time.
#[test]
fn an_f32_corner_on_a_sphere_keeps_its_converged_bracket() {
    let a = Shape::<f64>::cuboid(DVec3::new(
        1.230_180_926_362_604_2,
        1.481_667_884_883_214_3,
        1.649_858_377_446_590_5,
    ))
    .to_precision::<f32>();
    let b = Shape::<f64>::sphere(1.649_770_652_115_290_4).to_precision::<f32>();
    let start = gjk_common::pose_f32(&pose(
        [
            2.383_505_513_477_824_2,
            1.307_979_809_274_33,
            2.474_770_554_879_845,
        ],
        [
            -0.111_548_517_947_917_59,
            -0.639_732_713_615_128_6,
            -0.322_795_828_175_767_5,
            0.688_550_533_066_794_8,
        ],
    ));
    let pose_b = gjk_common::pose_f32(&pose(
        [
            -2.362_930_646_906_725,
            -0.406_932_250_004_226_06,
            3.969_626_746_233_724_5,
        ],
        [
            -0.325_449_050_246_325_53,
            -0.400_616_516_351_025_3,
            0.856_172_643_314_148_1,
            0.023_616_252_052_302_93,
        ],
    ));
    let motion = Vec3A::from(
        DVec3::new(
            -1.454_810_518_317_889_2,
            -0.438_445_061_211_471_03,
            -0.132_159_199_067_972_52,
        )
        .as_vec3(),
    );
    check_kept(
        "corner on a sphere",
        (&a, start),
        (&b, pose_b),
        motion,
        (0.804_592_638_12, 3.3, 1e-4),
        Witness::Unique,
    );
}

/// The hull of `an_f64_edge_on_a_hull_vertex_keeps_its_converged_bracket`.
const EDGE_HULL: [[f64; 3]; 12] = [
    [
        -1.098_608_298_384_730_5,
        1.113_870_899_737_609_9,
        0.057_188_884_471_921_61,
    ],
    [
        0.462_060_082_171_166_2,
        -0.666_815_776_161_176_2,
        -0.780_072_450_355_190_5,
    ],
    [
        0.621_213_229_578_952_5,
        0.098_970_825_210_808_09,
        0.506_406_319_074_507,
    ],
    [
        0.078_750_220_263_215_08,
        0.378_839_128_789_662,
        0.460_871_377_538_494_4,
    ],
    [
        0.015_454_977_779_537_582,
        -0.347_362_946_137_197_15,
        -0.103_424_828_768_604_15,
    ],
    [
        1.270_241_891_858_411_5,
        -0.825_322_124_780_690_1,
        -1.123_154_142_312_756_2,
    ],
    [
        0.769_434_032_296_576_5,
        -0.764_028_566_142_717_2,
        0.911_325_391_981_390_6,
    ],
    [
        0.029_535_636_408_345_462,
        0.268_758_973_812_382_3,
        -0.656_913_624_934_901_9,
    ],
    [
        1.037_966_440_881_493,
        0.003_391_791_626_835_946,
        0.938_507_897_140_701_8,
    ],
    [
        -0.142_521_573_525_757_92,
        0.185_179_850_506_485_22,
        -0.059_917_612_986_149_41,
    ],
    [
        0.092_717_111_377_593_82,
        -0.187_940_389_682_418_72,
        0.673_324_253_339_957,
    ],
    [
        0.170_265_419_616_701_64,
        0.015_322_136_712_176_911,
        0.203_851_525_562_414_07,
    ],
];

/// A box's edge onto a hull's vertex along a shallow path (f64): the path
/// meets an edge of `K` within rounding, and with the crossings' slack at
/// 4 ε (f32's) the line's ill-conditioned solve missed it; the hull's
/// vertex has no projection to prove it by. Conservative advancement and
/// swept MPR went `Degenerate`, A's point 1.36 off. f64 keeps 64 ε. The
/// hull's vertex touches the box's edge: any normal between the box's two
/// faces touches, so the contact is `Approximate` (it claimed a face's
/// normal, `Unique`, before a vertex at a face's boundary counted in f64).
#[test]
fn an_f64_edge_on_a_hull_vertex_keeps_its_converged_bracket() {
    let a = Shape::cuboid(DVec3::new(
        0.577_884_861_182_310_6,
        0.872_608_591_988_225_2,
        0.382_183_280_534_375_6,
    ));
    let b = Shape::hull(EDGE_HULL.iter().map(|&p| DVec3::from(p)).collect());
    check_kept(
        "edge on a hull vertex",
        (
            &a,
            pose(
                [
                    1.298_212_509_190_675_3,
                    -1.551_455_788_070_248_2,
                    1.223_092_822_422_872_5,
                ],
                [
                    -0.008_476_650_941_501_478,
                    -0.944_210_575_984_356_8,
                    -0.327_021_193_952_383_2,
                    0.038_100_830_621_695_67,
                ],
            ),
        ),
        (
            &b,
            pose(
                [
                    2.680_355_036_544_957_8,
                    -0.476_798_496_576_385_5,
                    3.098_367_407_557_868,
                ],
                [
                    0.079_573_932_288_795_22,
                    -0.181_651_538_785_552_65,
                    0.802_209_748_051_211_3,
                    -0.563_143_168_198_417_7,
                ],
            ),
        ),
        DVec3::new(
            1.205_916_298_590_247_2,
            -0.376_822_617_457_222,
            0.725_068_490_545_992_8,
        ),
        (0.296_079_006_255_361_15, 1.75, 1e-8),
        Witness::Approximate,
    );
}

/// A box's vertex onto a small thin box's face (2.7e-3 by 1.4e-4 of the
/// size, f64): the polish's two probe pairs jump along the face's
/// diagonals, whose parts across each other the edge test allowed as a
/// curve's motion when it counted that as a quarter of the jump
/// threshold; the polish then did not settle, `Approximate`. A polytope
/// pair moves no smoothly across its jumps: a face.
#[test]
fn an_f64_vertex_on_a_small_thin_face_keeps_its_unique_contact() {
    let a = Shape::cuboid(DVec3::new(
        1.222_085_874_282_865,
        0.468_820_639_677_916_54,
        0.976_791_931_343_313_1,
    ));
    let b = Shape::cuboid(DVec3::new(
        0.001_374_601_336_685_721_2,
        7.085_016_549_280_61e-5,
        0.001_374_601_336_685_721_2,
    ));
    check_kept(
        "vertex on a thin face",
        (
            &a,
            pose(
                [
                    2.900_665_508_374_969_7,
                    1.757_459_650_424_657_1,
                    3.037_593_633_815_379,
                ],
                [
                    0.633_086_536_790_398_2,
                    -0.076_000_988_762_802_02,
                    0.144_133_096_438_090_27,
                    -0.756_737_033_025_993_9,
                ],
            ),
        ),
        (
            &b,
            pose(
                [
                    1.563_503_888_492_528_7,
                    3.690_651_922_819_131_7,
                    1.716_384_277_036_703_7,
                ],
                [
                    -0.437_492_898_614_655_8,
                    0.121_979_164_563_559_87,
                    -0.820_809_012_084_438_5,
                    -0.346_400_942_197_125_1,
                ],
            ),
        ),
        DVec3::new(
            -0.667_166_522_063_307_2,
            0.709_594_547_033_497_3,
            -1.215_554_123_149_395_4,
        ),
        (0.790_082_039_081_060_2, 1.25, 1e-8),
        Witness::Unique,
    );
}

/// An f32 capsule (181 thick) onto a capsule 0.6 thick whose segment is
/// parallel to the contact plane: the rounded shapes' normal came from a
/// GJK stopped at f32's gap tolerance (0.01 between its bounds at a
/// distance of 182), 6.8e-3 rad off, and the contact point slid 1.2 along
/// the small capsule, `Unique`. It now runs as the distance query's
/// witnesses do.
#[test]
fn an_f32_capsule_on_a_small_level_capsule_places_its_contact() {
    check_f32_points(
        "capsule on a small level capsule",
        &Case {
            a: Shape::capsule(835.033_579_226_365_3, 181.232_974_439_790_15),
            start: pose(
                [
                    1_180.724_542_910_848_9,
                    -542.601_060_628_480_9,
                    -437.380_630_974_897_94,
                ],
                [
                    0.691_482_483_640_037_1,
                    -0.087_858_724_893_078_21,
                    -0.688_227_998_832_031_6,
                    -0.201_184_097_042_548_25,
                ],
            ),
            b: Shape::capsule(0.763_652_964_687_938_2, 0.604_033_828_551_365_1),
            pose_b: pose(
                [
                    1_053.070_058_339_619_2,
                    -1_833.578_205_732_651_2,
                    -155.625_567_645_273_32,
                ],
                [
                    -0.245_801_114_896_318_2,
                    -0.636_681_439_241_608_8,
                    0.462_448_634_370_866_8,
                    -0.566_003_372_258_989_2,
                ],
            ),
            motion: DVec3::new(
                160.751_420_412_760_04,
                -657.548_435_660_800_8,
                413.267_855_909_603_44,
            ),
            truth: (0.685_992_053_910_985, DVec3::ZERO, None),
        },
        1_016.266_553_666_155_5,
    );
}

/// An f32 box grazed by a sphere (a review's case): the crossing held the
/// contact within rounding of `K`, the sphere's point (the unique side)
/// gave no proof, and the box's point entered the sphere late; taken over
/// the crossing it widened the bracket 1.8 times and the contact became
/// `Approximate`. A point's proof from the other side replaces such a
/// crossing only where it is tight.
#[test]
fn an_f32_grazing_sphere_on_a_box_keeps_its_crossing() {
    let c = Case {
        a: Shape::cuboid(DVec3::new(
            1.290_697_744_015_393_7,
            0.744_670_246_273_396_5,
            0.548_664_489_191_391_3,
        )),
        start: pose(
            [
                -1.480_606_314_664_781_4,
                -0.893_069_212_036_295_1,
                -2.100_522_804_209_721_3,
            ],
            [
                0.504_920_030_340_362_3,
                -0.747_404_037_591_648_9,
                -0.248_324_900_027_297_68,
                -0.353_238_887_410_802_1,
            ],
        ),
        b: Shape::sphere(1.509_757_887_780_860_8),
        pose_b: pose(
            [
                0.704_342_029_446_858_8,
                0.894_048_433_653_600_1,
                -0.753_648_431_708_146_7,
            ],
            [
                0.822_491_755_852_408,
                0.245_752_352_487_019_02,
                0.417_345_684_258_762_2,
                -0.298_220_845_402_370_5,
            ],
        ),
        motion: DVec3::new(
            0.832_178_332_031_081_7,
            -0.338_851_031_382_079_95,
            -0.311_088_381_314_853,
        ),
        truth: (0.212_785_33, DVec3::ZERO, None),
    };
    check_f32_brackets("grazing sphere on a box", &c);
    let r = Rounded::new(&c);
    let (_, s) = r.sweeps().next().expect("three methods");
    assert!(
        s.status == Status::Converged && s.witness == Some(Witness::Unique),
        "ray cast: {s:?}"
    );
}

/// Two f32 spheres along a grazing motion (a review's case): the closed
/// form placed A's point at the bracket's lower end, 1.4e-4 of the size
/// from the contact, and claimed `Unique` without the slide rule every
/// other sweep keeps. It keeps it now.
#[test]
fn an_f32_grazing_sphere_pair_does_not_claim_its_points() {
    check_f32_points(
        "grazing spheres",
        &Case {
            a: Shape::sphere(0.764_776_518_479_306_9),
            start: pose(
                [
                    3.327_858_282_306_313_4,
                    0.469_228_661_775_970_67,
                    -2.104_104_323_869_978,
                ],
                [0.0, 0.0, 0.0, 1.0],
            ),
            b: Shape::sphere(1.698_506_160_931_101_4),
            pose_b: pose(
                [
                    3.476_915_663_352_398_8,
                    2.302_260_417_248_763_5,
                    0.153_206_730_804_366_98,
                ],
                [0.0, 0.0, 0.0, 1.0],
            ),
            motion: DVec3::new(
                -1.788_485_363_584_656,
                2.840_552_985_500_179,
                0.123_604_910_907_878_26,
            ),
            truth: (0.442_723, DVec3::ZERO, None),
        },
        1.698_506_160_931_101_4,
    );
}

/// An f32 cylinder's rim (radius 65) onto a box face 0.3 wide: the polish
/// stopped 2.7e-3 rad off the face's normal (f32's rounding of the larger
/// shape's size is most of the small face), and the rim point, turning
/// 1 200 sizes a radian, slid 1.1e-3 of the size (conservative
/// advancement, `Unique`). A face fixes the normal at its own: the rim
/// point's move from there to the polished normal is known exactly, and
/// past the tolerance the contact is `Approximate`.
#[test]
fn an_f32_large_rim_on_a_small_box_face_does_not_claim_a_moved_point() {
    check_f32_points(
        "large rim on a small box face",
        &Case {
            a: Shape::cylinder(15.202_758_818_948_864, 64.664_929_271_277_42),
            start: pose(
                [
                    -75.836_790_668_993_36,
                    110.223_259_152_952_8,
                    6.105_294_576_562_350_5,
                ],
                [
                    0.083_625_222_770_253_25,
                    -0.446_515_428_734_866_77,
                    0.722_402_324_054_232,
                    0.521_311_496_343_009_9,
                ],
            ),
            b: Shape::cuboid(DVec3::new(
                0.136_410_961_125_944_72,
                0.090_703_433_865_460_79,
                0.080_836_585_383_069_41,
            )),
            pose_b: pose(
                [
                    -111.871_932_506_372_4,
                    69.723_092_661_491_96,
                    94.703_979_041_222_14,
                ],
                [
                    -0.792_811_657_508_731,
                    0.131_243_756_910_292_58,
                    0.551_314_794_418_507_7,
                    0.224_224_774_379_659_9,
                ],
            ),
            motion: DVec3::new(
                -15.979_553_707_484_468,
                -47.853_396_353_970_21,
                33.166_799_874_672_17,
            ),
            truth: (0.793_483_235_202_310_2, DVec3::ZERO, None),
        },
        64.664_929_271_277_42,
    );
}

/// An f32 nearly flat cone's rim (0.68 wide, 2.2e-3 high) onto a
/// cylinder's side: the normal 6.9e-5 rad off, within f32's tolerance, but
/// the rim point turns ~150 sizes a radian and slid 3.5e-4 of the size
/// (conservative advancement, `Unique`). `K`'s support point at the normal
/// off the path point across the normal bounds how far the normal's error
/// moved the points: more than the tolerance left by the slide, and the
/// contact is `Approximate`.
#[test]
fn an_f32_flat_cones_rim_on_a_cylinder_does_not_claim_a_moved_point() {
    check_f32_points(
        "flat cone's rim on a cylinder",
        &Case {
            a: Shape::cone(0.002_240_344_147_078_496_5, 0.679_893_021_512_834_7),
            start: pose(
                [
                    0.357_945_002_133_622_1,
                    -0.292_374_495_196_040_1,
                    0.216_475_183_380_606_5,
                ],
                [
                    -0.543_784_260_537_665_8,
                    -0.779_191_938_246_410_1,
                    -0.310_806_659_394_240_57,
                    0.023_618_252_253_274_002,
                ],
            ),
            b: Shape::cylinder(0.342_898_620_071_959_5, 1.219_493_544_464_505_9),
            pose_b: pose(
                [
                    -2.350_565_820_912_008,
                    1.304_214_110_343_274,
                    -0.842_393_871_863_255_5,
                ],
                [
                    -0.366_702_497_401_238_84,
                    -0.298_268_018_754_322_4,
                    0.005_797_163_432_389_507,
                    0.881_210_451_756_107_9,
                ],
            ),
            motion: DVec3::new(
                -2.538_306_521_874_11,
                1.778_603_943_468_263,
                -0.793_312_081_549_664_9,
            ),
            truth: (0.582_155_552_211_375_3, DVec3::ZERO, None),
        },
        1.219_493_544_464_505_9,
    );
}

/// An f32 cone's rim onto a capsule, both ~0.04: the normal 1.2e-3 rad
/// off and the points 6.7e-4 of the size (ray cast, `Unique`): the rim's
/// and the capsule's radius turn with the normal (see the flat cone's
/// rim above).
#[test]
fn an_f32_cones_rim_on_a_capsule_does_not_claim_a_moved_point() {
    check_f32_points(
        "cone's rim on a capsule",
        &Case {
            a: Shape::cone(0.032_771_590_046_688_93, 0.009_980_250_995_449_377),
            start: pose(
                [
                    0.086_849_117_839_620_71,
                    0.011_557_912_493_222_46,
                    -0.009_335_047_850_621_33,
                ],
                [
                    -0.057_964_770_732_354_51,
                    0.578_258_526_349_398,
                    -0.808_551_360_752_121_9,
                    0.092_205_526_320_607_37,
                ],
            ),
            b: Shape::capsule(0.020_739_670_900_769_697, 0.012_986_371_675_538_016),
            pose_b: pose(
                [
                    -0.003_903_127_882_887_683_3,
                    0.055_117_480_442_367_14,
                    0.030_800_063_005_162_92,
                ],
                [
                    -0.311_384_432_150_257_13,
                    0.410_948_962_277_738_14,
                    -0.060_829_936_896_486_775,
                    0.854_669_763_472_700_4,
                ],
            ),
            motion: DVec3::new(
                -0.085_794_775_566_215_69,
                0.033_385_896_593_606_655,
                -0.004_975_653_068_424_297_5,
            ),
            truth: (0.890_640_201_764_832_7, DVec3::ZERO, None),
        },
        0.033_726_042_576_307_715,
    );
}

/// A cone 2.5e-4 high and 1.245 wide (a disc 2.7e-6 rad from level with
/// the contact plane) onto a cylinder's side, f64: its rim point turns
/// 4.5e5 a radian, and a normal 5.8e-11 rad off about the cylinder's axis,
/// which the rim's tangent is nearly parallel to, moved it 6.8e-8 of the
/// size along the side (conservative advancement, `Unique`). Along the
/// side the support point is any of it, so the move is seen only through
/// the rim tangent's part across the side.
#[test]
fn a_flat_cones_rim_along_a_cylinders_side_does_not_claim_its_point() {
    check_f64(
        "flat cone's rim along a cylinder's side",
        &Case {
            a: Shape::cone(0.000_190_347_909_168_868_72, 1.245_028_386_425_652),
            start: pose(
                [
                    -0.094_200_481_956_127_62,
                    0.839_031_872_409_375_6,
                    -3.031_245_275_677_525_6,
                ],
                [
                    -0.757_418_144_114_828_4,
                    -0.369_184_666_233_235_37,
                    0.127_895_759_144_230_76,
                    0.523_128_198_414_905_3,
                ],
            ),
            b: Shape::cylinder(0.760_848_650_949_567_1, 0.233_118_103_453_164_4),
            pose_b: pose(
                [
                    1.781_431_019_608_188_6,
                    1.121_019_180_093_187,
                    -1.075_471_580_196_609_3,
                ],
                [
                    -0.119_608_813_984_108_41,
                    -0.266_809_099_500_269_93,
                    0.202_934_584_804_517_45,
                    0.934_518_159_444_421_1,
                ],
            ),
            motion: DVec3::new(
                1.881_484_103_091_597,
                -0.144_636_826_473_321_66,
                2.834_142_857_044_414_5,
            ),
            truth: (
                0.446_961_711_973_754_67,
                DVec3::new(
                    -0.425_440_248_038_635_2,
                    0.180_080_285_256_267_9,
                    0.886_888_767_665_283_7,
                ),
                Some(DVec3::new(
                    1.803_992_541_512_405_6,
                    1.294_953_050_978_968_6,
                    -1.362_814_925_105_361_4,
                )),
            ),
        },
    );
}

/// A small cylinder (1.5e-3 wide) whose side is level with the contact
/// plane to ~1e-7 rad, onto a larger cylinder's side, and the same onto a
/// capsule (f64, a review's cases): a normal made exactly perpendicular to
/// the support sets' segments (tried, not kept) left the point at either
/// end of the small side, 1.4e-3 and 2.6e-4 of the size off, `Unique`.
/// The rim's move along the other's segment is seen only through its
/// tangent's part across it: the contact is `Approximate`, or exact.
#[test]
fn a_small_level_cylinders_side_on_a_side_claims_no_end() {
    check_f64(
        "small level cylinder on a cylinder's side",
        &Case {
            a: Shape::cylinder(0.001_207_001_906_813_688, 0.001_495_268_167_354_195),
            start: pose(
                [
                    0.204_219_375_955_904_67,
                    -1.598_862_386_673_245_9,
                    -2.473_912_174_385_025,
                ],
                [
                    -0.320_465_354_453_972,
                    0.508_127_075_006_889_3,
                    -0.038_121_308_309_153_61,
                    0.798_533_404_493_782_9,
                ],
            ),
            b: Shape::cylinder(1.672_938_888_800_097_8, 0.236_721_457_500_426_92),
            pose_b: pose(
                [
                    -0.692_789_507_280_967_8,
                    -2.130_807_842_419_006,
                    -1.343_308_496_682_427_6,
                ],
                [
                    -0.179_446_348_768_418_2,
                    -0.296_355_897_201_464_4,
                    0.392_203_657_112_344_06,
                    -0.852_143_462_954_038_8,
                ],
            ),
            motion: DVec3::new(
                -1.592_312_235_173_197_3,
                -1.261_494_431_600_082,
                1.746_482_931_029_927_5,
            ),
            truth: (
                0.534_239_963_036_573_8,
                DVec3::new(
                    -0.417_219_019_808_021_7,
                    0.420_661_534_803_163_1,
                    0.805_588_084_971_147_8,
                ),
                Some(DVec3::new(
                    -0.646_761_703_612_578_2,
                    -2.273_129_703_703_54,
                    -1.539_002_118_158_515_8,
                )),
            ),
        },
    );
}

/// The same onto a capsule (see above).
#[test]
fn a_small_level_cylinders_side_on_a_capsule_claims_no_end() {
    check_f64(
        "small level cylinder on a capsule",
        &Case {
            a: Shape::cylinder(0.000_338_451_587_243_940_35, 0.000_463_681_118_498_943_2),
            start: pose(
                [
                    -0.597_169_204_981_796_9,
                    -3.619_514_896_583_789_6,
                    2.842_500_383_729_566_6,
                ],
                [
                    0.786_331_848_416_660_7,
                    -0.331_463_513_552_502_14,
                    0.461_931_657_327_083_36,
                    -0.241_729_822_959_687_23,
                ],
            ),
            b: Shape::capsule(1.808_956_870_359_629, 0.756_276_173_581_331_9),
            pose_b: pose(
                [
                    -1.897_959_606_454_651_6,
                    -3.386_067_584_201_597_5,
                    4.019_472_787_221_547,
                ],
                [
                    -0.287_686_654_932_162_67,
                    -0.309_361_989_226_551_1,
                    0.867_639_222_841_198_8,
                    -0.262_171_179_162_116_8,
                ],
            ),
            motion: DVec3::new(
                -3.992_719_101_267_505_6,
                0.438_822_431_130_784_1,
                1.981_781_306_683_209_3,
            ),
            truth: (
                0.122_912_067_633_018_39,
                DVec3::new(
                    -0.239_788_198_080_525_6,
                    -0.643_975_257_367_201_4,
                    0.726_496_722_607_983_6,
                ),
                Some(DVec3::new(
                    -1.087_932_907_018_537_3,
                    -3.565_652_395_589_193_4,
                    3.086_654_393_180_864_5,
                )),
            ),
        },
    );
}

/// A small cylinder's rim (radius 2e-3) onto a box's edge, its normal
/// 1.3e-4 rad off the box face's (f64, a review's case): in `K` the edge
/// is rounded over by the rim's curvature, and conservative advancement's
/// polish settled on the face's normal, `Unique`, 1.3e-4 rad off. The rim
/// point at that normal lies off the face by more than the normal's
/// tolerance times its curvature radius: the contact is on the rounded
/// edge, and the face's normal is not the contact's.
#[test]
fn a_small_rim_on_a_boxs_edge_does_not_take_the_faces_normal() {
    check_f64(
        "small rim on a box's edge",
        &Case {
            a: Shape::cylinder(0.010_312_762_818_837_515, 0.002_000_546_134_751_170_5),
            start: pose(
                [
                    -0.469_662_653_284_421_36,
                    1.041_043_971_566_366_9,
                    -1.122_742_015_799_147_5,
                ],
                [
                    -0.868_842_546_675_379_6,
                    -0.072_060_062_335_860_46,
                    0.485_943_558_961_975_83,
                    0.061_472_221_418_793_445,
                ],
            ),
            b: Shape::cuboid(DVec3::new(
                0.225_021_074_817_617_16,
                1.010_238_604_297_746_5,
                0.878_300_544_425_788_8,
            )),
            pose_b: pose(
                [
                    -0.661_970_964_766_130_5,
                    2.211_279_198_728_946_4,
                    0.499_754_251_569_265_23,
                ],
                [
                    -0.933_978_507_717_482_6,
                    0.307_713_855_521_490_1,
                    0.154_537_146_955_729_57,
                    -0.095_470_416_636_290_52,
                ],
            ),
            motion: DVec3::new(
                -1.284_830_754_279_318,
                0.240_928_459_925_127_04,
                1.687_795_531_004_041,
            ),
            truth: (
                0.656_221_887_664_508_7,
                DVec3::new(
                    -0.762_788_861_604_183_8,
                    0.604_408_385_261_936_1,
                    0.229_877_481_362_687_18,
                ),
                Some(DVec3::new(
                    -1.315_441_379_432_950_7,
                    1.209_089_134_471_489_6,
                    -0.013_051_137_453_246_913,
                )),
            ),
        },
    );
}

const HEDGE_HULL: [[f64; 3]; 36] = [
    [
        1.477_039_267_444_533_8,
        1.633_293_877_436_727_4,
        1.079_409_207_030_490_8,
    ],
    [
        0.920_250_939_606_268_5,
        1.633_293_877_436_727_4,
        1.581_109_560_387_596_6,
    ],
    [
        0.899_256_200_481_65,
        1.633_293_877_436_727_4,
        1.593_143_910_539_969,
    ],
    [
        0.591_390_322_963_997_7,
        1.633_293_877_436_727_4,
        1.731_192_282_705_713,
    ],
    [
        -0.538_495_522_866_728_3,
        1.633_293_877_436_727_4,
        1.748_368_326_654_245_8,
    ],
    [
        -0.891_943_669_332_641_4,
        1.633_293_877_436_727_4,
        1.597_249_424_646_226_8,
    ],
    [
        -1.573_526_156_700_357_8,
        1.633_293_877_436_727_4,
        0.933_158_436_695_012_2,
    ],
    [
        -1.401_581_073_615_089_5,
        1.633_293_877_436_727_4,
        -1.175_729_445_016_689,
    ],
    [
        -0.391_742_986_762_062_3,
        1.633_293_877_436_727_4,
        -1.786_982_558_985_402_3,
    ],
    [
        -0.210_382_462_081_487_95,
        1.633_293_877_436_727_4,
        -1.817_280_510_390_129_5,
    ],
    [
        0.306_194_361_777_799_8,
        1.633_293_877_436_727_4,
        -1.803_611_445_575_45,
    ],
    [
        0.368_608_756_967_465_9,
        1.633_293_877_436_727_4,
        -1.791_897_546_759_350_3,
    ],
    [
        0.409_808_448_937_733_7,
        1.633_293_877_436_727_4,
        -1.782_926_321_802_033_3,
    ],
    [
        0.862_112_649_765_583_3,
        1.633_293_877_436_727_4,
        -1.613_546_098_786_596,
    ],
    [
        0.879_807_269_325_435_6,
        1.633_293_877_436_727_4,
        -1.603_966_459_324_321,
    ],
    [
        1.139_730_931_332_645_8,
        1.633_293_877_436_727_4,
        -1.431_007_560_412_906_4,
    ],
    [
        1.624_218_176_815_476_9,
        1.633_293_877_436_727_4,
        -0.841_834_038_215_067_2,
    ],
    [
        1.642_397_508_987_073_5,
        1.633_293_877_436_727_4,
        -0.805_791_323_028_694_7,
    ],
    [
        1.349_048_091_605_962_6,
        -1.633_293_877_436_727_4,
        0.985_874_216_686_031_1,
    ],
    [
        0.840_507_629_849_488_8,
        -1.633_293_877_436_727_4,
        1.444_100_290_408_107_5,
    ],
    [
        0.821_332_166_221_61,
        -1.633_293_877_436_727_4,
        1.455_091_817_488_402_4,
    ],
    [
        0.540_144_059_926_812_1,
        -1.633_293_877_436_727_4,
        1.581_177_763_288_418_5,
    ],
    [
        -0.491_832_799_217_705_9,
        -1.633_293_877_436_727_4,
        1.596_865_436_474_113_5,
    ],
    [
        -0.814_653_294_231_668_2,
        -1.633_293_877_436_727_4,
        1.458_841_572_889_077_1,
    ],
    [
        -1.437_174_018_034_965_5,
        -1.633_293_877_436_727_4,
        0.852_296_642_300_8,
    ],
    [
        -1.280_128_642_661_476_4,
        -1.633_293_877_436_727_4,
        -1.073_847_932_823_671,
    ],
    [
        -0.357_796_939_011_457_7,
        -1.633_293_877_436_727_4,
        -1.632_133_595_949_184_7,
    ],
    [
        -0.192_152_006_540_376_56,
        -1.633_293_877_436_727_4,
        -1.659_806_112_464_492_7,
    ],
    [
        0.279_661_433_870_686_37,
        -1.633_293_877_436_727_4,
        -1.647_321_525_081_663_3,
    ],
    [
        0.336_667_379_870_372_76,
        -1.633_293_877_436_727_4,
        -1.636_622_680_987_65,
    ],
    [
        0.374_296_958_888_542_25,
        -1.633_293_877_436_727_4,
        -1.628_428_847_435_089_6,
    ],
    [
        0.787_407_248_101_001_7,
        -1.633_293_877_436_727_4,
        -1.473_726_077_067_917_3,
    ],
    [
        0.803_568_560_311_889_5,
        -1.633_293_877_436_727_4,
        -1.464_976_550_484_772,
    ],
    [
        1.040_968_829_839_407_7,
        -1.633_293_877_436_727_4,
        -1.307_005_210_354_862_8,
    ],
    [
        1.483_473_378_182_829_8,
        -1.633_293_877_436_727_4,
        -0.768_885_856_818_037_8,
    ],
    [
        1.500_077_400_779_462_8,
        -1.633_293_877_436_727_4,
        -0.735_966_382_562_896_6,
    ],
];

/// A small cone's rim onto a hull's face (18 points) just past its edge (a
/// review's case, f64): the polish took the face's normal, 3.4e-4 rad off
/// the contact's, `Unique`: the check that a curved point lies on the face
/// at the normal (`off_face`) could not see a hull's face. It now takes
/// the face's points again.
#[test]
fn a_curved_point_just_past_a_hull_faces_edge_does_not_take_its_normal() {
    check_f64(
        "a curved point past a hull face's edge",
        &Case {
            a: Shape::cone(0.004_004_208_163_899_18, 0.001_960_779_690_429_375_3),
            start: pose(
                [
                    0.244_069_022_535_835_4,
                    -1.488_172_061_553_442_2,
                    0.815_755_557_249_115,
                ],
                [
                    0.798_178_805_740_867,
                    -0.146_172_394_751_918,
                    -0.584_388_186_376_612_5,
                    -0.005_888_353_082_676_071_5,
                ],
            ),
            b: Shape::hull(HEDGE_HULL.iter().map(|&p| DVec3::from(p)).collect()),
            pose_b: pose(
                [
                    1.092_424_466_180_309,
                    0.576_000_759_942_341_7,
                    2.510_107_277_422_960_7,
                ],
                [
                    -0.794_808_531_348_244_9,
                    -0.033_157_100_909_131_59,
                    0.563_589_105_768_910_4,
                    0.222_592_284_264_185_12,
                ],
            ),
            motion: DVec3::new(
                1.119_906_762_675_351_8,
                1.366_114_617_172_130_6,
                -0.444_659_730_969_925_2,
            ),
            truth: (
                0.821_756_369_399_931_4,
                DVec3::new(
                    0.198_099_252_608_231_25,
                    0.898_595_358_167_943_2,
                    0.391_513_816_352_738_96,
                ),
                Some(DVec3::new(
                    1.165_303_968_653_013_6,
                    -0.361_395_498_170_294_6,
                    0.451_639_810_850_130_05,
                )),
            ),
        },
    );
}

const APEX_HULL: [[f64; 3]; 10] = [
    [
        1.459_670_848_112_749,
        0.524_198_235_136_067_9,
        0.059_996_414_114_988_72,
    ],
    [
        -1.321_058_597_617_252_6,
        0.524_198_235_136_067_9,
        0.623_732_904_533_973_3,
    ],
    [
        0.305_203_461_495_832_1,
        0.524_198_235_136_067_9,
        -1.428_667_001_658_472_8,
    ],
    [
        1.397_804_675_300_709_6,
        0.524_198_235_136_067_9,
        -0.424_712_425_347_230_5,
    ],
    [
        1.460_430_472_563_396_5,
        0.524_198_235_136_067_9,
        -0.037_167_046_494_218_93,
    ],
    [
        0.744_932_555_732_624_8,
        -0.524_198_235_136_067_9,
        0.030_618_739_943_499_403,
    ],
    [
        -0.674_192_787_139_613_3,
        -0.524_198_235_136_067_9,
        0.318_317_617_475_043_34,
    ],
    [
        0.155_758_399_151_760_26,
        -0.524_198_235_136_067_9,
        -0.729_109_964_902_242_2,
    ],
    [
        0.713_359_597_838_826_6,
        -0.524_198_235_136_067_9,
        -0.216_748_942_321_053_9,
    ],
    [
        0.745_320_224_626_711_2,
        -0.524_198_235_136_067_9,
        -0.018_967_935_798_518_59,
    ],
];

/// A needle's apex (its base 3.7e-9 across) swept onto a hull's edge (a
/// review's case, f64): any normal between the two faces' touches there,
/// the constructed one among them; swept MPR took a side face's, 2.1 rad
/// from it, and called it the contact's, `Unique`. A vertex at a face's
/// boundary within the touching tolerance is `Approximate` in f64 too.
#[test]
fn a_needles_apex_on_a_hull_edge_does_not_claim_a_faces_normal() {
    check_f64(
        "a needle's apex on a hull's edge",
        &Case {
            a: Shape::cone(0.329_020_260_987_061_7, 3.663_038_046_403_089e-09),
            start: pose(
                [
                    2.196_166_613_865_101_7,
                    0.571_326_522_212_345_5,
                    2.613_427_744_163_949_7,
                ],
                [
                    0.431_507_366_268_776_4,
                    -0.576_324_716_240_586_3,
                    0.605_158_332_715_448,
                    -0.339_756_687_426_533,
                ],
            ),
            b: Shape::hull(APEX_HULL.iter().map(|&p| DVec3::from(p)).collect()),
            pose_b: pose(
                [
                    2.264_271_043_082_043_6,
                    -1.311_571_745_797_852_6,
                    0.960_736_243_906_440_1,
                ],
                [
                    -0.458_305_933_489_509_6,
                    -0.888_784_513_177_328_1,
                    -0.003_682_767_583_058_302_6,
                    0.002_048_825_853_583_051_2,
                ],
            ),
            motion: DVec3::new(
                -0.741_126_028_613_186_2,
                -1.425_980_503_564_998_4,
                -2.496_270_456_200_755_4,
            ),
            truth: (
                0.329_518_104_142_757_2,
                DVec3::new(
                    -0.814_651_375_478_890_1,
                    -0.579_931_664_881_231_8,
                    -0.004_732_916_483_027_927,
                ),
                Some(DVec3::new(
                    1.923_602_619_614_241_7,
                    0.066_948_794_827_250_04,
                    1.464_884_469_150_159_7,
                )),
            ),
        },
    );
}

/// A box's edge swept onto a capsule's axis 2.8e-4 rad from parallel (a
/// review's case, f64): the cores' distance says its points slide along
/// the edges (`Approximate`), and the rounded contact gave up its normal
/// for the polish's, whose points were 1.1e-2 of the size off. The
/// distance's normal holds there and its points are the best there are:
/// every method within 1e-8 of the size of the contact, `Approximate`.
#[test]
fn a_box_edge_along_a_capsules_axis_keeps_the_distances_points() {
    let a = Shape::<f64>::cuboid(DVec3::new(
        0.388_866_751_072_300_84,
        0.574_612_593_380_895_5,
        0.166_908_648_906_970_66,
    ));
    let start = pose(
        [
            3.191_252_449_635_159_7,
            44.761_423_227_468_626,
            0.693_370_562_951_691,
        ],
        [
            -0.079_541_376_437_599_29,
            0.830_710_196_736_25,
            0.215_738_132_088_692_08,
            0.507_001_772_024_235_5,
        ],
    );
    let motion = DVec3::new(
        -1.966_323_978_581_035_6,
        -0.414_149_340_836_224_3,
        0.450_190_660_400_395_4,
    );
    let b = Shape::capsule(0.432_952_992_197_146_4, 0.437_162_326_449_055_8);
    let pose_b = pose(
        [
            1.289_555_423_035_979,
            45.493_276_349_199_625,
            0.555_599_319_368_772_8,
        ],
        [
            0.094_832_268_972_829_43,
            0.501_350_804_235_448_2,
            -0.520_954_610_658_600_4,
            0.684_295_627_260_236_4,
        ],
    );
    let contact = DVec3::new(
        1.263_602_571_099_886,
        45.017_424_490_430_34,
        0.839_425_272_060_981_2,
    );
    let size = a.scale().max(b.scale());
    for (method, f) in methods::<f64>() {
        let s = f(&Placed::new(&a, start), motion, &Placed::new(&b, pose_b));
        let off = (s.point_a - contact)
            .length()
            .max((s.point_b - contact).length())
            / size;
        assert!(
            off <= 1e-8,
            "{method}: the contact {off:e} of the size off: {s:?}"
        );
        assert_ne!(s.witness, Some(Witness::Unique), "{method}: {s:?}");
    }
}

/// A box's corner swept straight onto a cube's edge, through a point
/// along it (a review's construction, f64): any normal between the cube's
/// two faces touches there, so no method may claim one; the crossing of
/// the box's edge at that corner with the cube's edge gave one, `Unique`.
#[test]
fn a_corner_onto_an_edge_claims_no_normal() {
    let cube: Vec<DVec3> = (0..8)
        .map(|i| {
            let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
            DVec3::new(s(1), s(2), s(4))
        })
        .collect();
    let b = Shape::hull(cube);
    let a = Shape::<f64>::cuboid(DVec3::new(0.5, 0.4, 0.3));
    let up = DVec3::new(0.0, 1.0, 1.0).normalize();
    let mut unique = 0;
    for k in 0..40 {
        let turn = DQuat::from_axis_angle(
            DVec3::new(1.0, 2.0 + f64::from(k), 3.0).normalize(),
            0.3 + 0.07 * f64::from(k),
        );
        let corner = a.support(turn.inverse() * -up);
        let on_edge = DVec3::new(-0.8 + 0.04 * f64::from(k), 1.0, 1.0);
        let start = Pose::new(on_edge - turn * corner + up, turn);
        for (method, f) in methods::<f64>() {
            let s = f(
                &Placed::new(&a, start),
                -up * 2.0,
                &Placed::new(&b, Pose::new(DVec3::ZERO, DQuat::IDENTITY)),
            );
            assert!(s.hit && (s.toi - 0.5).abs() < 1e-9, "{k} {method}: {s:?}");
            unique += usize::from(s.witness == Some(Witness::Unique));
        }
    }
    assert_eq!(unique, 0, "`Unique` on a vertex-edge contact");
}

/// A cylinder's rim swept onto a 65-sided prism's cap at its edge (a
/// review's construction, f64; the rim 1e-5 rad into the edge's normal
/// cone): the check that the rim's point lies on the cap read a cap of
/// more than 64 points as "inside", and the ray cast kept the cap's
/// normal, 1e-5 rad off, `Unique`.
#[test]
fn a_rim_past_a_large_caps_edge_does_not_take_its_normal() {
    let prism: Vec<DVec3> = (0..65)
        .flat_map(|i| {
            let t = std::f64::consts::TAU * f64::from(i) / 65.0;
            [0.5, -0.5].map(|y| DVec3::new(t.cos(), y, t.sin()))
        })
        .collect();
    let b = Shape::hull(prism);
    let a = Shape::<f64>::cylinder(0.4, 0.8);
    let start = pose(
        [
            1.433_077_798_313_499,
            -2.984_253_412_527_801_5,
            -0.316_095_254_640_824_05,
        ],
        [
            -0.345_805_290_341_829_8,
            -0.903_334_324_101_445_2,
            0.177_455_415_135_562_32,
            -0.181_425_951_040_233,
        ],
    );
    let pose_b = pose(
        [
            1.263_990_358_939_556_5,
            -1.022_956_349_308_212_6,
            -0.357_211_419_881_210_5,
        ],
        [
            -0.965_014_902_023_158_3,
            -0.083_042_381_027_980_4,
            0.226_632_219_883_933_62,
            -0.102_411_126_040_670_87,
        ],
    );
    let motion = DVec3::new(
        2.205_698_961_763_854,
        1.506_413_560_093_209_1,
        -0.665_046_888_198_029,
    );
    let normal = DVec3::new(
        -0.206_702_213_453_884,
        0.965_230_824_844_169_8,
        -0.160_011_404_980_735_02,
    );
    for (method, f) in methods::<f64>() {
        let s = f(&Placed::new(&a, start), motion, &Placed::new(&b, pose_b));
        assert!(s.hit, "{method}: {s:?}");
        let off = angle(s.normal, normal);
        assert!(
            s.witness != Some(Witness::Unique) || off <= 1e-7,
            "{method}: `Unique` {off:e} rad off: {s:?}"
        );
    }
}

/// A box with a 1.8e-3 margin swept onto a box's edge 4.1e-4 rad from
/// parallel (a review's case, f64, checked at 50 digits): the contact
/// slides along the edges as the cores' closest points do at a time in
/// the bracket; every method was 1.1e-5 of the size off, `Unique`, when
/// the sweep took the distance's slide rule (4 units).
#[test]
fn a_margined_box_edge_along_a_box_edge_does_not_claim_its_points() {
    let a = Shape::<f64>::cuboid(DVec3::new(
        1.160_650_029_716_404_9,
        0.514_839_376_923_787_5,
        1.129_891_605_504_743,
    ))
    .with_margin(0.001_756_197_164_493_361_8);
    let start = pose(
        [
            0.445_742_865_159_742_8,
            0.317_453_863_520_828_8,
            -1.909_237_964_364_818_7,
        ],
        [
            -0.968_210_565_028_798_8,
            0.177_490_551_903_645_52,
            -0.021_389_636_793_570_237,
            -0.174_951_105_139_100_67,
        ],
    );
    let b = Shape::<f64>::cuboid(DVec3::new(
        0.284_132_982_627_897_9,
        1.798_818_381_383_630_5,
        1.007_173_433_088_564_4,
    ));
    let pose_b = pose(
        [
            -0.678_188_032_849_755_2,
            -3.636_532_558_014_981_7,
            0.577_853_831_281_037_8,
        ],
        [
            0.179_241_189_434_909_83,
            0.967_895_196_187_179_1,
            -0.174_897_792_012_736_53,
            0.021_499_943_181_568_806,
        ],
    );
    let motion = DVec3::new(
        -2.236_599_477_641_106_7,
        -1.863_379_535_925_747_2,
        2.361_348_574_264_517_7,
    );
    let contact = DVec3::new(
        -0.301_288_577_089_629_3,
        -1.887_342_575_989_295_7,
        0.168_534_983_718_049_06,
    );
    let size = a.scale().max(b.scale());
    for (method, f) in methods::<f64>() {
        let s = f(&Placed::new(&a, start), motion, &Placed::new(&b, pose_b));
        let off = (s.point_a - contact).length() / size;
        assert!(
            s.witness != Some(Witness::Unique) || off <= 1e-8,
            "{method}: `Unique` {off:e} of the size off: {s:?}"
        );
    }
}

/// The hull of [`a_rim_along_a_hull_caps_edge_does_not_take_the_caps_normal`]:
/// an irregular nonagon's prism, its top 0.575 above its centre.
const CAP_EDGE_HULL: [[f64; 3]; 18] = [
    [
        1.480_209_551_258_021,
        0.574_662_451_964_526_3,
        0.972_321_676_386_182,
    ],
    [
        0.888_660_579_646_633_3,
        0.574_662_451_964_526_3,
        1.531_898_212_084_607_2,
    ],
    [
        -0.746_619_704_256_441_6,
        0.574_662_451_964_526_3,
        1.605_923_029_046_513_9,
    ],
    [
        -1.141_748_539_957_850_4,
        0.574_662_451_964_526_3,
        1.353_824_224_007_689_6,
    ],
    [
        -1.502_600_732_041_968_8,
        0.574_662_451_964_526_3,
        0.937_347_746_608_934_2,
    ],
    [
        -1.669_223_864_028_15,
        0.574_662_451_964_526_3,
        0.591_710_613_192_663_8,
    ],
    [
        -1.570_331_137_695_447_4,
        0.574_662_451_964_526_3,
        -0.818_834_461_896_926_1,
    ],
    [
        -1.094_111_924_673_657_3,
        0.574_662_451_964_526_3,
        -1.392_605_060_414_765_3,
    ],
    [
        1.304_235_057_678_205_6,
        0.574_662_451_964_526_3,
        -1.198_082_080_797_903_6,
    ],
    [
        1.113_114_976_099_159_2,
        -0.574_662_451_964_526_3,
        0.731_184_188_516_723_5,
    ],
    [
        0.668_271_191_084_348_8,
        -0.574_662_451_964_526_3,
        1.151_984_758_024_079_4,
    ],
    [
        -0.561_456_702_905_508_3,
        -0.574_662_451_964_526_3,
        1.207_651_290_031_839_7,
    ],
    [
        -0.858_592_891_585_049_5,
        -0.574_662_451_964_526_3,
        1.018_073_432_554_211_3,
    ],
    [
        -1.129_953_104_620_876_4,
        -0.574_662_451_964_526_3,
        0.704_883_854_908_547_1,
    ],
    [
        -1.255_253_406_473_904_7,
        -0.574_662_451_964_526_3,
        0.444_965_339_199_301_3,
    ],
    [
        -1.180_886_250_408_298,
        -0.574_662_451_964_526_3,
        -0.615_762_073_490_826_5,
    ],
    [
        -0.822_770_240_772_91,
        -0.574_662_451_964_526_3,
        -1.047_236_553_244_575_5,
    ],
    [
        0.980_782_466_794_189,
        -0.574_662_451_964_526_3,
        -0.900_955_615_101_097_2,
    ],
];

/// A flat cone's rim swept onto a hull's cap edge, the rim's tangent
/// 1.3e-4 rad from the edge (a review harness's case, f64): the contact
/// normal, across both, is 2e-2 rad off the cap's, where the valley of
/// the distance over the normal is flat (its curvature the rim's turn
/// times 1.7e-8). Every method stopped at the cap's normal with the rim's
/// point 7.1e-11 past the edge, which the old test (past by more than the
/// tolerance times the rim's whole turn) let through: 2e-2 rad off,
/// `Unique`. Its rate across the edge is the turn times the tangent's
/// part across, squared.
#[test]
fn a_rim_along_a_hull_caps_edge_does_not_take_the_caps_normal() {
    let top = 0.574_662_451_964_526_3;
    let hull: Vec<DVec3> = CAP_EDGE_HULL.iter().map(|&p| DVec3::from(p)).collect();
    assert!(hull.iter().all(|p| p.y.abs() == top));
    let c = Case {
        a: Shape::cone(0.054_035_043_244_363_25, 0.177_795_522_648_247_33),
        start: pose(
            [
                1.018_127_931_342_864_4,
                -1.622_655_581_441_745,
                2.866_334_597_996_733,
            ],
            [
                -0.312_722_428_874_043_17,
                0.943_154_782_108_647,
                -0.018_946_999_827_350_79,
                -0.110_926_780_635_930_73,
            ],
        ),
        b: Shape::hull(hull),
        pose_b: pose(
            [
                2.694_431_931_276_564_6,
                0.333_977_675_735_385_84,
                1.985_807_960_014_826_2,
            ],
            [
                0.535_285_707_534_654_5,
                -0.551_051_153_438_21,
                0.522_901_005_116_404,
                0.369_305_261_879_379_56,
            ],
        ),
        motion: DVec3::new(
            3.593_214_833_860_471_5,
            0.828_029_735_898_251_9,
            -3.374_914_174_825_325_7,
        ),
        truth: (
            0.318_724_326_106_900_4,
            DVec3::new(
                0.973_046_049_615_955,
                0.139_517_049_311_463_94,
                0.183_620_201_171_350_67,
            ),
            Some(DVec3::new(
                2.335_602_538_322_22,
                -1.300_254_737_463_228_3,
                1.828_709_249_138_689_8,
            )),
        ),
    };
    check_f64("a flat cone's rim along a hull cap's edge", &c);
}

/// A rim of radius `10^radius` (a range of exponents, B's sizes 0.2 … 2)
/// of a cone (even `kind`) or a cylinder at `rng`'s choice of a box's top
/// edge, the contact normal tilted off the top face about the edge by
/// `10^beta` rad: the sweep case, moved back from touching.
fn rim_at_a_box_edge(
    rng: &mut gjk_common::Rng,
    kind: u32,
    radius: (f64, f64),
    beta: (f64, f64),
) -> exact_common::SweepCase {
    let (hh, r) = (
        rng.range(0.2, 2.0),
        10f64.powf(rng.range(radius.0, radius.1)),
    );
    // Between the base's normal and the side's: the rim point's cone.
    let (a, side) = if kind.is_multiple_of(2) {
        (Shape::cone(hh, r), DVec3::new(2.0 * hh, r, 0.0).normalize())
    } else {
        (Shape::cylinder(hh, r), DVec3::X)
    };
    let mix = rng.range(0.1, 0.9);
    let m = (side * mix + DVec3::NEG_Y * (1.0 - mix)).normalize();
    let phi = rng.range(0.0, std::f64::consts::TAU);
    let ma = DVec3::new(m.x * phi.cos(), m.y, m.x * phi.sin());
    let pa = DVec3::new(r * phi.cos(), -hh, r * phi.sin());
    let h = DVec3::new(
        rng.range(0.2, 2.0),
        rng.range(0.2, 2.0),
        rng.range(0.2, 2.0),
    );
    let beta = 10f64.powf(rng.range(beta.0, beta.1));
    let mb = DVec3::new(beta.sin(), beta.cos(), 0.0);
    let qb = DVec3::new(h.x, h.y, rng.range(-0.8, 0.8) * h.z);
    let twist = rng.range(0.0, std::f64::consts::TAU);
    let touch = exact_common::place(
        "a rim at a box's edge".into(),
        (a, ma, pa),
        (Shape::cuboid(h), mb, qb),
        rng.pose(3.0),
        twist,
        0.0,
    );
    exact_common::moved_back(rng, touch)
}

/// [`check_f64`] on `n` cases of [`rim_at_a_box_edge`].
fn check_rims_at_a_box_edge(seed: u64, n: u32, radius: (f64, f64), beta: (f64, f64)) {
    let mut rng = gjk_common::Rng::new(seed);
    for i in 0..n {
        let s = rim_at_a_box_edge(&mut rng, i, radius, beta);
        let t = &s.touch;
        let c = Case {
            a: t.a.clone(),
            start: s.start,
            b: t.b.clone(),
            pose_b: t.pose_b,
            motion: s.motion,
            truth: (s.toi, t.normal, Some(t.point_a)),
        };
        check_f64(&format!("case {i}"), &c);
    }
}

/// Needles' rims at a box's edge, the normal tilted off its top face
/// (f64, 400 cases): where the rim turns too little to move across the
/// edge by the point's uncertainty, the top face's normal is no answer
/// (a needle's rim 2.3e-7 in radius at a hull cap's edge took the cap's
/// normal, 7.9e-5 rad off, `Unique`). Every `Unique` answer within 1e-7
/// rad and 1e-8 of the size.
#[test]
fn a_needles_rim_at_a_box_edge_does_not_take_the_faces_normal() {
    check_rims_at_a_box_edge(77, 400, (-7.0, -5.0), (-5.0, -1.5));
}

/// Small rims (1e-3 … 1e-2) at a box's edge, the normal 1e-5 … 1e-3 rad
/// off the top face, within a few of the polish's probe angles (f64, 600
/// cases): the probes read the face beside the edge, the polish stalled
/// up to 4.4e-5 rad off, and one distance backed off from the contact
/// along that normal still turned it by the error times the back-off
/// over the rim's radius (3.8e-6 rad off, `Unique`). It is backed off
/// again until the turns left, at the last two's rate, are below the
/// tolerance (one turn alone does not tell: 7.1e-8 rad where the error
/// was 5.7e-7).
#[test]
fn a_small_rim_beside_a_box_faces_normal_is_backed_off_to_its_own() {
    check_rims_at_a_box_edge(78, 600, (-3.0, -2.0), (-5.0, -3.0));
}

/// A cone's rim swept onto a box's face 1e-7 … 1e-1 of the size from an
/// edge, its tangent along the edge (a review harness's case, f32): turning
/// the normal about the tangent moves neither the rim's point nor the
/// edge's, so the distance over that turn is flat to the point's inset
/// from the edge, below f32's tolerance. The ray cast took a normal at the
/// box's corner, 0.76 rad off the face's, `Unique`; a rim leaves that turn
/// to the other shape, which a vertex or an edge along the tangent does
/// not fix (`witness::rim_loose`). Conservative advancement took the
/// cone's side's normal against the box's corner, 0.81 rad off, `Unique`.
#[test]
fn an_f32_rim_along_a_box_edge_does_not_claim_a_normal_about_it() {
    let c = Case {
        a: Shape::cone(0.816_146_751_581_775_1, 0.633_270_223_823_746),
        start: pose(
            [
                -0.440_711_978_229_643_25,
                0.744_837_738_044_697_3,
                -0.564_971_694_625_543_1,
            ],
            [
                0.414_162_331_629_459_2,
                0.281_324_750_872_619_3,
                0.776_993_248_497_112,
                -0.381_585_428_699_280_47,
            ],
        ),
        b: Shape::cuboid(DVec3::new(
            1.179_727_843_414_554,
            1.559_301_899_292_225,
            0.837_609_539_002_448_3,
        )),
        pose_b: pose(
            [
                -1.306_205_325_838_961,
                -1.044_897_983_597_828_3,
                -3.030_535_784_313_100_2,
            ],
            [
                -0.153_710_895_967_557_44,
                -0.562_238_938_769_79,
                -0.189_029_465_837_404_46,
                0.790_270_964_440_106_9,
            ],
        ),
        motion: DVec3::new(
            0.234_286_400_092_160_62,
            -0.825_569_501_907_906_7,
            -0.597_546_115_992_943_6,
        ),
        truth: (
            0.671_894_184_772_390_5,
            DVec3::new(
                -0.296_310_473_552_491_96,
                0.125_924_494_497_541_56,
                -0.946_753_993_891_040_8,
            ),
            Some(DVec3::new(
                -0.916_909_650_261_130_7,
                0.562_262_188_044_314_8,
                -1.692_536_369_685_274_2,
            )),
        ),
    };
    check_f64("a cone's rim along a box's edge", &c);
    // Conservative advancement's normal is the cone's side's against the
    // box's corner, 1.5e-5 from the rim, within f32's touching tolerance:
    // the rim's end of the side fixes no normal (`witness::at_side_end`).
    check_f32_unique_normals(&c);
}

/// Every f32 method's `Unique` normal on the rounded case is within 1e-3
/// rad of the constructed one.
fn check_f32_unique_normals(c: &Case) {
    for (method, s) in Rounded::new(c).sweeps() {
        let off = angle(gjk_common::wide::<f32>(s.normal), c.truth.1);
        assert!(
            s.witness != Some(Witness::Unique) || off <= 1e-3,
            "{method}: `Unique` {off:e} rad off: {s:?}"
        );
    }
}

/// The hull of [`an_f32_capsule_end_of_a_tiny_radius_at_a_hull_edge_claims_no_normal`].
const TINY_CAPSULE_HULL: [[f64; 3]; 12] = [
    [
        0.107_712_405_312_576_67,
        0.643_654_466_673_681_3,
        0.670_993_994_035_636_2,
    ],
    [
        0.069_280_937_360_983_95,
        0.643_654_466_673_681_3,
        0.676_043_677_589_325_3,
    ],
    [
        -0.025_246_307_416_771_12,
        0.643_654_466_673_681_3,
        0.679_115_252_554_332,
    ],
    [
        -0.677_116_787_082_325_1,
        0.643_654_466_673_681_3,
        0.057_859_821_477_649_245,
    ],
    [
        -0.605_263_034_022_106_7,
        0.643_654_466_673_681_3,
        -0.309_017_090_039_483_7,
    ],
    [
        0.658_425_360_698_842_9,
        0.643_654_466_673_681_3,
        -0.168_258_570_892_287_24,
    ],
    [
        0.063_726_228_288_245_56,
        -0.643_654_466_673_681_3,
        0.396_982_281_844_595_6,
    ],
    [
        0.040_988_898_330_489_7,
        -0.643_654_466_673_681_3,
        0.399_969_841_968_166_8,
    ],
    [
        -0.014_936_552_063_873_848,
        -0.643_654_466_673_681_3,
        0.401_787_087_501_366_5,
    ],
    [
        -0.400_604_729_104_246_8,
        -0.643_654_466_673_681_3,
        0.034_231_787_708_219_41,
    ],
    [
        -0.358_093_667_749_756_2,
        -0.643_654_466_673_681_3,
        -0.182_824_750_479_563_79,
    ],
    [
        0.389_546_261_871_154_15,
        -0.643_654_466_673_681_3,
        -0.099_547_346_185_610_36,
    ],
];

/// A capsule 1.3e-6 in radius swept onto a hull's cap edge (a review
/// harness's case, f32): its segment's end meets the edge, where the end's
/// rounding turns the normal by the points' error (3e-7) over the radius.
/// The ray cast and advancement kept the crossing's normal 0.34 rad off,
/// `Unique` (`witness::at_edge_end`, now with radii).
#[test]
fn an_f32_capsule_end_of_a_tiny_radius_at_a_hull_edge_claims_no_normal() {
    let c = Case {
        a: Shape::capsule(0.509_385_486_840_875_5, 1.322_998_506_501_244_6e-6),
        start: pose(
            [
                0.354_585_586_706_169_2,
                -0.487_234_017_298_518_8,
                -0.514_571_037_159_327_7,
            ],
            [
                -0.061_403_722_581_971_99,
                -0.532_616_501_574_040_7,
                0.630_762_031_945_960_4,
                -0.560_971_036_827_668_4,
            ],
        ),
        b: Shape::hull(TINY_CAPSULE_HULL.iter().map(|&p| DVec3::from(p)).collect()),
        pose_b: pose(
            [
                -0.015_800_987_920_421_894,
                0.736_096_947_074_432_2,
                -0.116_305_824_656_838_59,
            ],
            [
                0.970_192_459_706_845_6,
                -0.084_774_781_795_656_31,
                0.226_921_474_094_297_17,
                -0.006_817_044_399_966_256,
            ],
        ),
        motion: DVec3::new(
            -0.614_129_733_189_004_2,
            0.595_602_892_054_806_2,
            0.443_420_555_063_458_23,
        ),
        truth: (
            0.736_786_409_944_786_2,
            DVec3::new(
                0.161_390_799_976_720_65,
                0.985_535_262_816_412_2,
                0.051_703_534_001_647_86,
            ),
            Some(DVec3::new(
                0.295_903_030_580_267_07,
                0.051_814_724_004_002_47,
                -0.495_032_895_939_224_3,
            )),
        ),
    };
    check_f64("a tiny capsule's end at a hull's edge", &c);
    check_f32_unique_normals(&c);
}

/// An f32 capsule, its axis level with a cone 1.5e-5 high (nearly a disc),
/// moved onto the cone's side 0.387 from its axis: the ray cast and swept
/// MPR polished the normal onto the axis exactly, where the cone's feature
/// was its apex alone, and answered the apex, `Unique`, 0.387 from the
/// contact. A cone flatter than the tolerance is a disc under its apex.
#[test]
fn an_f32_capsule_on_a_nearly_flat_cone_does_not_claim_its_apex() {
    let c = Case {
        a: Shape::capsule(0.313_424_65, 0.918_196_86),
        start: pose(
            [-0.396_003_28, -1.442_838_5, -1.878_274_4],
            [0.5, -0.5, -0.5, 0.5],
        ),
        b: Shape::cone(7.332_029_3e-6, 1.116_208_7),
        pose_b: pose(
            [1.223_340_2, 0.140_007_64, 0.272_360_27],
            [-0.5, 0.5, 0.5, 0.5],
        ),
        motion: DVec3::new(1.805_830_2, 3.118_743, 4.456_434),
        truth: (0.0, DVec3::ZERO, None),
    };
    check_f32_points("a capsule on a flat cone", &c, c.a.scale().max(c.b.scale()));
}

/// A hull plate 1.8e-6 thick, 1e4 from the origin, swept onto a box's edge:
/// the plate's diagonal edge (across its thickness) crosses the box's
/// bottom edge, a unique contact. Swept MPR's crossing came from a fan of
/// supports around the normal, whose triangles mixed the plate's faces
/// nearly level with the edge (3e-6 rad): its points lay 1.6e-4 along the
/// box's edge, `Unique`. Crossing edges now place their contact at their
/// common perpendicular. The truth: where the moving edge meets the box's.
#[test]
fn a_thin_plates_edge_on_a_boxs_edge_places_its_contact_exactly() {
    let plate = [
        [-0.773_394_7, -8.949_367e-7, 0.128_409_62],
        [-0.126_411_8, -8.949_367e-7, -0.844_859_5],
        [-0.244_798_36, 8.949_367e-7, -0.015_596_867],
        [0.178_166_63, 8.949_367e-7, -0.364_515_24],
        [-0.471_672, -8.949_367e-7, 0.677_794],
        [-0.256_861_27, 8.949_367e-7, 0.158_607_96],
        [0.033_712_387, 8.949_367e-7, -0.746_484_5],
        [-0.347_288_85, 8.949_367e-7, 0.106_377_48],
        [-0.553_464, -8.949_367e-7, -0.721_438_4],
        [-0.335_267_2, 8.949_367e-7, -0.385_654_93],
        [-0.311_214_15, -8.949_367e-7, 0.743_189_1],
    ]
    .map(DVec3::from);
    let half = DVec3::new(1.828_660_7, 0.079_602_86, 0.537_752_33);
    let start = pose([-5547.745, 1340.5275, 11821.5], [0.5, -0.5, -0.5, 0.5]);
    let pose_b = pose([-5548.552, 1340.7953, 11824.586], [-0.5, -0.5, -0.5, 0.5]);
    let motion = DVec3::new(-1.688_977_8, 2.441_028_4, 5.806_216_7);
    // The plate's edge (its two highest points along the contact normal)
    // and the box's bottom edge along y at its largest x, in the world.
    let (p, q) = (
        start.transform_point(plate[5]),
        start.transform_point(plate[10]),
    );
    let corner = pose_b.transform_point(DVec3::new(0.0, 0.0, 0.0));
    let box_min = DVec3::new(corner.x + half.y, corner.y, corner.z - half.x);
    assert_eq!(
        (pose_b.rotation * DVec3::X, pose_b.rotation * DVec3::Y),
        (DVec3::Z, DVec3::X),
        "the box's x half extent lies along the world's z, its y along x"
    );
    let (u, v) = (q - p, DVec3::Y);
    let normal = u.cross(v).normalize();
    let normal = if normal.z > 0.0 { normal } else { -normal };
    let toi = (box_min - p).dot(normal) / motion.dot(normal);
    // Where the moved edge meets the box's line: along u, across v.
    let moved = p + motion * toi;
    let s = (box_min - moved).cross(v).dot(u.cross(v)) / u.cross(v).length_squared();
    let point = moved + u * s;
    assert!(
        (0.0..=1.0).contains(&s),
        "the contact lies on the plate's edge"
    );
    check_f64(
        "thin plate's edge on a box's edge",
        &Case {
            a: Shape::hull(plate.to_vec()),
            start,
            b: Shape::cuboid(half),
            pose_b,
            motion,
            truth: (toi, normal, Some(point)),
        },
    );
}

/// Every f32 method's `Unique` contact has its normal within 1e-3 rad and
/// its points within 1e-4 of the size of the f64 ray cast's on the same
/// (rounded) input, which must be `Unique` itself; and at least `claims`
/// f32 methods claim it.
fn check_f32_claims(name: &str, c: &Case, claims: usize) {
    let r = Rounded::new(c);
    let truth = &r.truth;
    assert_eq!(
        truth.witness,
        Some(Witness::Unique),
        "{name}: f64 {truth:?}"
    );
    let size = c.a.scale().max(c.b.scale());
    let mut claimed = 0;
    for (method, s) in r.sweeps() {
        if s.witness != Some(Witness::Unique) {
            continue;
        }
        claimed += 1;
        let off = angle(gjk_common::wide::<f32>(s.normal), truth.normal);
        let points = [(s.point_a, truth.point_a), (s.point_b, truth.point_b)]
            .map(|(p, exact)| (gjk_common::wide::<f32>(p) - exact).length() / size);
        assert!(
            off <= 1e-3 && points.iter().all(|&p| p <= 1e-4),
            "{name}, {method}: `Unique` with the normal {off:e} rad and the points {points:?} of the size off: {s:?}"
        );
    }
    assert!(
        claimed >= claims,
        "{name}: {claimed} f32 methods claim the contact, not {claims}"
    );
}

/// Two f32 cylinders, a rim onto the other's rim (fuzz seed 71, case
/// 133082, `touching` family): the polish's narrow probes read a jump and
/// proposed steps that lowered the gap; wide ones took a step and then
/// settled, their own step below rounding, 6.2e-4 rad off with the points
/// 5.8e-4 of the size (ray cast, `Unique`). Wide probes' step is not
/// Newton's, and a polish that stops on it has not settled.
#[test]
fn an_f32_rim_on_a_rim_does_not_settle_on_wide_probes() {
    check_f32_claims(
        "rim on a rim",
        &Case {
            a: Shape::cylinder(0.482_375_770_807_266_24, 0.975_868_105_888_366_7),
            start: pose(
                [
                    0.667_816_162_109_375,
                    -0.424_279_212_951_660_16,
                    -0.790_584_564_208_984_4,
                ],
                [
                    -0.404_944_688_081_741_33,
                    0.082_936_234_772_205_35,
                    0.908_003_389_835_357_7,
                    0.068_346_336_483_955_38,
                ],
            ),
            b: Shape::cylinder(0.816_774_189_472_198_5, 0.924_447_596_073_150_6),
            pose_b: pose(
                [
                    -1.088_335_514_068_603_5,
                    -0.656_274_199_485_778_8,
                    -2.269_874_572_753_906_2,
                ],
                [
                    -0.655_955_016_613_006_6,
                    -0.472_961_366_176_605_2,
                    0.527_145_087_718_963_6,
                    -0.261_052_906_513_214_1,
                ],
            ),
            motion: DVec3::new(
                -1.072_080_373_764_038,
                -0.205_916_821_956_634_52,
                -1.405_871_629_714_965_8,
            ),
            truth: (0.040_249_687_876_329_65, DVec3::ZERO, None),
        },
        2,
    );
}

/// An f32 point onto a hull near a vertex (fuzz seed 71, case 85466, a
/// hull of 1 516 points in the `big-hull` family, six of them kept): the
/// polish settled on a normal in the vertex's cone 1.35e-3 rad from the
/// face the point touches beside it, and three points of the hull within
/// 1e3 ε of the size of its plane passed for that normal's own face:
/// `Unique` (ray cast). A face is now level to 64 ε.
#[test]
fn an_f32_point_by_a_hulls_vertex_does_not_take_a_normal_in_its_cone() {
    check_f32_claims(
        "point by a hull's vertex",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(
                    -0.001_781_039_638_444_781_3,
                    0.349_573_671_817_779_54,
                    0.217_896_386_981_010_44,
                ),
                DVec3::new(
                    -0.052_537_843_585_014_34,
                    0.333_757_430_315_017_7,
                    0.267_831_623_554_229_74,
                ),
                DVec3::new(
                    -0.193_845_540_285_110_47,
                    0.363_028_913_736_343_4,
                    0.085_216_529_667_377_47,
                ),
                DVec3::new(
                    -0.223_211_541_771_888_73,
                    0.360_124_647_617_340_1,
                    0.086_813_062_429_428_1,
                ),
                DVec3::new(
                    -0.447_854_936_122_894_3,
                    0.332_793_205_976_486_2,
                    -0.017_006_941_139_698_03,
                ),
                DVec3::new(
                    -0.504_475_414_752_960_2,
                    0.217_325_598_001_480_1,
                    0.192_751_958_966_255_2,
                ),
            ]),
            start: pose(
                [
                    0.547_883_570_194_244_4,
                    0.444_246_649_742_126_46,
                    -0.852_472_245_693_206_8,
                ],
                [
                    0.505_986_571_311_950_7,
                    0.085_427_246_987_819_67,
                    0.850_404_381_752_014_2,
                    -0.116_155_847_907_066_35,
                ],
            ),
            b: Shape::new(cspace::Geom::Point),
            pose_b: pose(
                [
                    0.914_634_108_543_396,
                    0.015_599_523_670_971_394,
                    -0.838_311_254_978_179_9,
                ],
                [
                    -0.489_488_482_475_280_76,
                    -0.308_089_673_519_134_5,
                    0.389_202_386_140_823_36,
                    0.716_940_224_170_684_8,
                ],
            ),
            motion: DVec3::new(
                0.340_611_904_859_542_85,
                -0.511_109_530_925_750_7,
                0.080_153_085_291_385_65,
            ),
            truth: (0.270_411_820_935_871_3, DVec3::ZERO, None),
        },
        2,
    );
}

/// An f32 point onto a box's face near its edge (fuzz seed 74, case
/// 100421, `scale` family): the polish stopped in the edge's cone, 1.9e-3
/// rad from the face's normal; the face, within f32's turn of 3e-3 of
/// it, was taken for the normal's own: `Unique` with that normal (ray
/// cast). A face fixes the reported normal only within the normal's
/// tolerance (1e-3 rad in f32).
#[test]
fn an_f32_point_by_a_boxs_edge_does_not_take_a_normal_in_its_cone() {
    check_f32_claims(
        "point by a box's edge",
        &Case {
            a: Shape::cuboid(DVec3::new(
                0.996_342_778_205_871_6,
                0.596_831_023_693_084_7,
                0.383_717_358_112_335_2,
            )),
            start: pose(
                [
                    -0.693_534_314_632_415_8,
                    0.491_434_514_522_552_5,
                    -0.616_946_876_049_041_7,
                ],
                [
                    -0.589_601_397_514_343_3,
                    0.123_177_491_128_444_67,
                    0.155_312_031_507_492_07,
                    -0.782_991_528_511_047_4,
                ],
            ),
            b: Shape::new(cspace::Geom::Point),
            pose_b: pose(
                [
                    -1.614_443_659_782_409_7,
                    0.707_570_612_430_572_5,
                    0.235_945_075_750_350_95,
                ],
                [
                    0.396_028_906_106_948_85,
                    -0.626_956_582_069_397,
                    0.411_073_416_471_481_3,
                    0.530_193_507_671_356_2,
                ],
            ),
            motion: DVec3::new(
                -1.284_010_410_308_838,
                0.863_404_214_382_171_6,
                1.497_820_258_140_564,
            ),
            truth: (0.122_729_584_458_866_73, DVec3::ZERO, None),
        },
        2,
    );
}

/// An f32 capsule's axis across a hull's edge at 0.14 rad (a scratch
/// hunt, seed 3): the rounded shapes' normal was right to 1e-7 rad, but
/// their closest points were read where the normal settled, 2e-5 in time
/// before the reported toi, and along edges crossing at that angle the
/// path's move slid them 1.6e-4 of the size (ray cast, `Unique`). The
/// crossing edges' feet, placed at the reported toi, are taken first now,
/// and claimed only where the bracket cannot slide them past the
/// tolerance (the ray cast's cannot say: `Approximate`).
#[test]
fn an_f32_capsule_across_a_hulls_edge_places_its_points_at_the_toi() {
    check_f32_claims(
        "capsule across a hull's edge",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(-0.112_309_87, 0.467_142_16, -0.080_438_91),
                DVec3::new(0.127_009_9, -0.700_565_93, 0.077_996_634),
                DVec3::new(-1.28834, -0.099_198_17, 1.108_919_1),
                DVec3::new(-0.094_505_586, -0.287_939_7, 0.026_606_252),
                DVec3::new(-0.335_779_16, 0.544_154_3, 0.075_653_36),
                DVec3::new(0.009_530_189, -0.898_812_23, 0.168_225_36),
                DVec3::new(-0.832_954, -0.112_110_53, 0.289_615_7),
                DVec3::new(-0.203_134_5, -0.262_115_78, 0.477_726_85),
            ]),
            start: pose(
                [1.282_658_9, -1.253_703_7, 0.225_098_71],
                [-0.138_831_2, 0.795_164_76, 0.208_080_95, 0.552_395_9],
            ),
            b: Shape::capsule(1.489_384_5, 0.575_555_2),
            pose_b: pose(
                [-1.545_917_9, 0.143_229_62, -1.484_797_1],
                [-0.208_804_18, -0.008_639_271, -0.180_404_13, -0.961_135],
            ),
            motion: DVec3::new(-2.894_526_7, 0.675_699_1, -1.816_213_5),
            truth: (0.833_350_459_218_537_2, DVec3::ZERO, None),
        },
        1,
    );
}

/// An f32 capsule's axis 0.1 rad across a hull's edge (a review): the
/// reported toi, the bracket's lower end, 8.7e-6 before the contact, and
/// the edges' feet there 2.2e-4 of the size along them from the contact,
/// `Unique` for every method. The bracket's slide over the sine of the
/// edges' angle must stay within half the points' tolerance.
#[test]
fn an_f32_capsule_across_a_hulls_edge_does_not_claim_feet_the_bracket_slides() {
    check_f32_claims(
        "capsule 0.1 rad across a hull's edge",
        &Case {
            a: Shape::capsule(0.593_377_741_825_532_5, 0.009_106_425_257_971_413),
            start: pose(
                [
                    -2.334_404_015_843_642_5,
                    -4.375_242_960_783_439_5,
                    -4.592_517_077_479_446,
                ],
                [
                    -0.119_932_283_413_587_76,
                    0.0,
                    -0.764_970_673_066_238_8,
                    0.632_800_218_666_040_2,
                ],
            ),
            b: Shape::hull(vec![
                DVec3::new(
                    -0.717_773_167_793_308_2,
                    0.787_905_220_496_495_7,
                    1.367_755_109_466_726,
                ),
                DVec3::new(
                    0.469_845_577_655_280_9,
                    1.660_222_491_117_693,
                    -0.172_201_653_612_107_35,
                ),
                DVec3::new(
                    0.548_486_832_993_513_5,
                    -0.990_746_380_472_958,
                    1.313_137_768_847_765,
                ),
                DVec3::new(
                    -0.017_199_160_114_520_835,
                    -0.103_387_967_498_048_42,
                    1.730_827_002_744_637_5,
                ),
                DVec3::new(
                    0.431_153_630_173_497_3,
                    1.584_419_814_882_342_3,
                    0.557_196_010_178_130_5,
                ),
            ]),
            pose_b: pose(
                [
                    -1.752_265_486_097_420_5,
                    -1.760_580_580_510_445_5,
                    -1.890_552_544_789_988_2,
                ],
                [
                    -0.637_849_109_922_940_1,
                    0.736_687_659_815_645_3,
                    -0.123_897_548_208_313_8,
                    0.187_321_121_056_409_05,
                ],
            ),
            motion: DVec3::new(
                0.663_939_312_658_645_7,
                3.289_275_536_857_73,
                3.005_907_178_033_200_3,
            ),
            truth: (0.677_439_034_159_528_4, DVec3::ZERO, None),
        },
        0,
    );
}

/// An f32 point onto a box's face 5.9e-3 from its edge (a review): the ray
/// cast's normal 2.2e-3 rad off the face's is not claimed, and the contact,
/// a point, is `Approximate`, not `NotUnique`.
#[test]
fn an_f32_point_by_a_boxs_edge_is_approximate_not_not_unique() {
    let c = Case {
        a: Shape::new(cspace::Geom::Point),
        start: pose(
            [
                -3.008_613_240_466_577,
                1.913_791_044_553_742,
                0.975_426_933_774_556_2,
            ],
            [
                -0.262_664_409_581_683_8,
                0.385_119_986_085_837_53,
                -0.168_973_001_194_360_87,
                0.868_411_267_271_285_6,
            ],
        ),
        b: Shape::cuboid(DVec3::new(
            0.736_886_339_252_196_3,
            0.918_576_372_668_999_2,
            0.259_955_800_896_789_4,
        )),
        pose_b: pose(
            [
                1.612_368_453_257_416,
                1.798_416_388_311_17,
                -0.063_237_163_611_926_66,
            ],
            [
                0.554_340_489_260_337_2,
                -0.556_285_472_193_899,
                -0.471_648_001_630_044_83,
                -0.401_000_321_634_541_75,
            ],
        ),
        motion: DVec3::new(
            6.795_707_819_710_72,
            0.402_807_891_997_221_45,
            -0.562_016_155_652_685_9,
        ),
        truth: (0.549_823_129_807_638_6, DVec3::ZERO, None),
    };
    check_f32_claims("point 5.9e-3 from a box's edge", &c, 2);
    for (method, s) in Rounded::new(&c).sweeps() {
        assert_ne!(s.witness, Some(Witness::NotUnique), "{method}: {s:?}");
    }
}

/// The hull of [`an_f32_point_beside_a_nearly_level_face_does_not_take_its_normal`].
const NEARLY_LEVEL_FACES: [[f64; 3]; 13] = [
    [
        0.263_295_203_447_341_9,
        -0.437_475_174_665_451_05,
        0.258_916_199_207_305_9,
    ],
    [
        0.080_667_547_881_603_24,
        0.385_622_173_547_744_75,
        0.144_500_240_683_555_6,
    ],
    [
        -0.258_259_207_010_269_17,
        -0.460_608_392_953_872_7,
        0.205_885_410_308_837_9,
    ],
    [
        0.386_296_570_301_055_9,
        -0.128_345_519_304_275_5,
        -0.071_106_195_449_829_1,
    ],
    [
        0.115_166_641_771_793_37,
        -0.288_216_650_485_992_43,
        0.024_093_585_088_849_068,
    ],
    [
        -0.302_049_309_015_274_05,
        -0.393_273_085_355_758_67,
        0.079_455_956_816_673_28,
    ],
    [
        0.140_714_883_804_321_3,
        0.349_083_006_381_988_5,
        -0.363_396_346_569_061_3,
    ],
    [
        0.822_802_901_268_005_4,
        -0.110_477_961_599_826_81,
        -0.121_179_834_008_216_86,
    ],
    [
        -0.012_138_303_369_283_676,
        -0.325_991_511_344_909_67,
        -0.367_683_023_214_340_2,
    ],
    [
        0.219_166_085_124_015_8,
        0.152_971_565_723_419_2,
        -0.295_902_013_778_686_5,
    ],
    [
        0.046_434_208_750_724_79,
        -0.276_918_053_627_014_16,
        0.372_944_742_441_177_37,
    ],
    [
        0.006_092_244_293_540_716,
        0.468_055_278_062_820_43,
        0.312_365_114_688_873_3,
    ],
    [
        0.645_150_721_073_150_6,
        0.311_721_831_560_134_9,
        -0.103_545_591_235_160_83,
    ],
];

/// An f32 point onto a hull's face beside a face 1.25e-3 rad from it
/// (fuzz seed 71, case 194968, `touching` family): the polish settled on
/// the neighbour's normal, and within f32's set height the two faces were
/// one region, the point 7e-3 inside it though past the neighbour's edge:
/// `Unique`, 1.3e-3 rad off. A face whose own normal the polished one is
/// is now taken alone.
#[test]
fn an_f32_point_beside_a_nearly_level_face_does_not_take_its_normal() {
    check_f32_claims(
        "point beside a nearly level face",
        &Case {
            a: Shape::new(cspace::Geom::Point),
            start: pose(
                [
                    -0.947_757_244_110_107_4,
                    -0.248_987_674_713_134_77,
                    -0.053_147_148_340_940_475,
                ],
                [
                    -0.721_245_467_662_811_3,
                    0.467_915_028_333_663_94,
                    -0.466_771_095_991_134_64,
                    0.207_328_870_892_524_72,
                ],
            ),
            b: Shape::hull(
                NEARLY_LEVEL_FACES
                    .iter()
                    .map(|&p| DVec3::from_array(p))
                    .collect(),
            ),
            pose_b: pose(
                [
                    -1.437_222_242_355_346_7,
                    -0.594_040_215_015_411_4,
                    0.080_957_911_908_626_56,
                ],
                [
                    0.007_455_454_207_956_791,
                    -0.463_910_549_879_074_1,
                    -0.463_636_726_140_975_95,
                    -0.754_832_684_993_743_9,
                ],
            ),
            motion: DVec3::new(
                -0.288_064_092_397_689_8,
                -0.287_125_706_672_668_46,
                0.188_213_452_696_800_23,
            ),
            truth: (0.618_564_028_469_077_7, DVec3::ZERO, None),
        },
        1,
    );
}

/// An f32 hull's vertex halfway up a cone's side: the polish's probes read
/// the side by its ends (the apex standing still, the rim turning at its
/// full radius), settled 9.3e-3 rad off and claimed the normal
/// (conservative advancement, `Unique`). The side's own normal where the
/// vertex touches it is now taken in closed form.
#[test]
fn an_f32_vertex_on_a_cones_side_takes_the_sides_normal() {
    check_f32_claims(
        "vertex on a cone's side",
        &Case {
            a: Shape::cone(1.367_823_8, 1.382_660_5),
            start: pose(
                [0.641_816_85, -1.584_242_6, -4.574_966_4],
                [0.0, 0.0, 0.0, 1.0],
            ),
            b: Shape::hull(vec![
                DVec3::new(-0.713_333_2, 0.050_975_62, 0.076_742_79),
                DVec3::new(-0.145_479_08, -0.005_824_493_7, -0.440_384_75),
                DVec3::new(-0.873_466_13, -0.283_406_85, 0.806_227_15),
                DVec3::new(-0.054_015_808, 0.792_330_7, -0.126_238_55),
                DVec3::new(0.087_368_48, 0.258_527_96, 0.240_381_36),
                DVec3::new(0.222_436, -0.641_348, 0.861_286_34),
                DVec3::new(-0.872_778_83, 0.436_017_16, 0.450_599_16),
                DVec3::new(-0.007_316_884_6, 0.140_837_68, 0.589_946_6),
                DVec3::new(0.106_523_916, -0.758_473_9, 0.300_145_98),
                DVec3::new(0.183_563_29, 0.792_124_03, -0.936_321_26),
                DVec3::new(0.461_997_96, -0.481_328_6, 0.858_965_3),
                DVec3::new(0.386_235_48, 1.203_754_1, -0.323_451_34),
                DVec3::new(-0.146_102_59, -0.726_399_5, 0.003_487_150_2),
            ]),
            pose_b: pose(
                [0.077_765_06, 1.921_348_5, -1.283_239_7],
                [0.676_758_1, -0.360_312_3, 0.428_795_28, -0.477_815_96],
            ),
            motion: DVec3::new(-1.752_488_5, 4.395_396_7, 3.572_961_6),
            truth: (0.0, DVec3::ZERO, None),
        },
        1,
    );
}

/// An f32 cylinder's rim onto a capsule's end, its centre 2.7e-3 past the
/// rim: swept MPR polished the side's normal (perpendicular to the side)
/// and claimed it, 5e-3 rad from the end's (`Unique`). A normal
/// perpendicular to a segment whose partner lies past its end is not
/// claimed.
#[test]
fn an_f32_capsule_past_a_cylinders_rim_does_not_claim_the_sides_normal() {
    check_f32_claims(
        "capsule past a cylinder's rim",
        &Case {
            a: Shape::cylinder(1.014_139_2, 0.553_298_95),
            start: pose(
                [-0.379_366_93, -0.436_610_64, 0.727_369_3],
                [0.5, -0.5, 0.5, 0.5],
            ),
            b: Shape::capsule(0.324_461_76, 0.542_820_33),
            pose_b: pose(
                [0.813_636_5, -1.660_985_2, 1.935_710_9],
                [-0.960_662_7, -0.055_565_547, -0.261_610_6, -0.074_829_58],
            ),
            motion: DVec3::new(0.898_381_95, -1.979_157, 1.243_272_4),
            truth: (0.0, DVec3::ZERO, None),
        },
        1,
    );
}

/// An f32 hull's vertex on a cone's side 5.3e-5 from its rim:
/// conservative advancement polished the normal at the bracket's lower
/// end, beside the rim, where it is perpendicular to a hull edge, 6.8e-2
/// rad off, and claimed it (`Unique`). The side's normal where the vertex
/// touches is taken where the vertex lies on the side, and a normal
/// perpendicular to an edge whose partner sits at its end is not claimed.
#[test]
fn an_f32_vertex_beside_a_cones_rim_claims_no_edges_normal() {
    check_f32_claims(
        "vertex beside a cone's rim",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(-0.091_577_41, 0.041_349_53, -0.264_999_27),
                DVec3::new(-0.046_981_573, -0.215_335_73, -0.515_286_3),
                DVec3::new(0.763_222_6, -0.201_095_4, -0.402_974_67),
                DVec3::new(-0.699_663_9, 0.469_717_74, -0.449_576_97),
                DVec3::new(0.575_749_04, -0.194_623_53, 0.693_786_26),
                DVec3::new(0.566_116_8, -0.622_059_94, -0.459_074_08),
            ]),
            start: pose(
                [0.521_818_34, 0.500_255_64, 1.325_797_9],
                [0.0, 0.0, 0.0, 1.0],
            ),
            b: Shape::cone(0.495_865_23, 1.115_602),
            pose_b: pose(
                [-1.443_485_7, -0.167_621_1, 0.907_265_37],
                [-0.5, -0.5, 0.5, 0.5],
            ),
            motion: DVec3::new(-3.101_549_6, -0.552_948_95, -1.321_900_5),
            truth: (0.0, DVec3::ZERO, None),
        },
        1,
    );
}

/// An f32 hull's vertex onto a thin hull's face near its edge: the ray
/// cast's polish settled on the plane of three of the hull's points, with
/// a fourth 4.3e-4 above it (no face of the hull), 5.8e-2 rad from the face
/// the contact is on, and claimed it (`Unique`). A hull's face must be one
/// to rounding for its normal to be claimed.
#[test]
fn an_f32_vertex_on_a_thin_hull_claims_no_plane_that_is_not_a_face() {
    check_f32_claims(
        "vertex on a thin hull",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(-0.023_312_818, 0.027_087_132, 0.269_398_42),
                DVec3::new(-0.304_060_8, 0.229_086_92, 0.137_314_45),
                DVec3::new(0.011_724_146, 0.591_414_5, -0.014_856_077),
                DVec3::new(-0.781_081_7, 0.264_399_26, -0.016_895_896),
                DVec3::new(-0.001_143_285_7, 0.098_704_07, 0.038_294_554),
                DVec3::new(0.012_240_141, -0.015_948_107, 0.013_061_106),
                DVec3::new(-0.037_301_652, -0.042_251_915, 0.018_690_39),
                DVec3::new(0.014_115_116, 0.047_832_76, 0.022_687_085),
                DVec3::new(-0.035_400_707, 0.530_101, -0.013_870_445),
                DVec3::new(-0.087_264_724, 0.001_058_569_1, -0.018_508_572),
                DVec3::new(-0.024_280_842, -0.341_215_46, 0.034_488_436),
                DVec3::new(-0.042_144_05, -0.024_098_199, -0.304_715_4),
                DVec3::new(-0.007_746_678_3, -1.279_969_7, -0.022_283_997),
                DVec3::new(-0.308_182_9, -0.041_277_643, 0.943_083_05),
            ]),
            start: pose(
                [-3.816_846_1, -0.272_634_03, -1.720_631_8],
                [-0.618_624_57, -0.578_530_9, -0.149_257_56, 0.510_223_27],
            ),
            b: Shape::hull(vec![
                DVec3::new(-0.039_923_415, 0.052_265_36, -0.031_976_774),
                DVec3::new(0.016_641_608, -0.035_643_995, -0.018_219_605),
                DVec3::new(-0.043_541_834, -0.470_239, 1.287_847_8),
                DVec3::new(0.663_767_6, -0.609_909_3, 0.008_747_489),
                DVec3::new(0.046_934_687, 0.027_398_37, -0.028_907_795),
                DVec3::new(-0.016_091_399, -0.040_793_143, -0.130_985_42),
                DVec3::new(0.216_783_63, 0.014_642_567, -0.048_135_81),
                DVec3::new(-0.017_251_482, 0.028_293_4, 0.089_250_06),
                DVec3::new(0.047_362_387, 0.008_120_577, 0.042_448_14),
                DVec3::new(0.012_067_208, -0.466_970_95, 0.041_381_504),
            ]),
            pose_b: pose(
                [-0.461_649_57, -1.299_484_3, -0.029_402_766],
                [0.493_808, 0.305_568_16, 0.597_255_7, -0.553_233_56],
            ),
            motion: DVec3::new(4.630_979_5, -1.592_106_3, 2.258_047),
            truth: (0.0, DVec3::ZERO, None),
        },
        0,
    );
}

/// An f32 hull's edge across a needle (a capsule 1.5e-6 thick), 0.03 of
/// the edge from its end: swept MPR's normal, 1.9e-4 rad off, made the
/// end's vertex the hull's support, and the contact points landed on it,
/// 2.4e-2 of the size off (`Unique`). In f32 neither the needle's radius
/// (1e-6 of the size) nor two crossing edges fix the normal, so no method
/// claims the contact.
#[test]
fn an_f32_edge_across_a_needle_claims_no_contact() {
    check_f32_claims(
        "edge across a needle",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(0.029_588_243, 0.010_722_806, -0.021_691_94),
                DVec3::new(0.203_283_27, -0.032_236_94, -0.029_290_074),
                DVec3::new(1.274_467_8, 0.029_159_136, 0.046_540_823),
                DVec3::new(-0.174_582_62, 0.033_659_667, -0.005_863_704_3),
                DVec3::new(0.218_310_61, 0.014_527_152, 0.137_894_39),
                DVec3::new(-0.124_064_66, 0.036_869_27, -0.712_043_5),
            ]),
            start: pose(
                [-2.714_841, -2.580_823_7, 2.457_822],
                [0.708_655_54, 0.536_503_9, 0.457_516_82, 0.025_480_13],
            ),
            b: Shape::capsule(1.256_636_6, 1.453_376_6e-06),
            pose_b: pose(
                [-1.621_023, -1.327_663_3, 0.190_449_1],
                [-0.5, -0.5, 0.5, 0.5],
            ),
            motion: DVec3::new(1.703_044_7, 1.724_908_8, -2.408_042_4),
            truth: (0.0, DVec3::ZERO, None),
        },
        0,
    );
}

/// A sphere 5.4e-6 in radius onto the side of a cylinder 1.5e-3 high (a
/// disc): under the polish's probes the whole side stayed within their
/// jump threshold, so it was taken for the unique point, and the contact
/// snapped to its rim, 9e-4 of the size from the sphere, `Unique` in f64
/// (every method). A side is no point: every `Unique` contact point lies
/// on its shape.
#[test]
fn a_tiny_sphere_on_a_discs_side_keeps_its_contact_on_the_sphere() {
    let disc = Shape::cylinder(0.000_750_164_1, 1.111_641_6);
    let start = pose(
        [-0.432_530_9, -1.849_787_8, 4.447_786],
        [0.235_253_66, 0.607_557_5, -0.627_094_8, 0.426_944_58],
    );
    let sphere = Shape::sphere(5.417_410_6e-6);
    let centre = DVec3::new(-1.486_020_6, 0.928_818_2, 0.679_561_44);
    let motion = DVec3::new(-0.614_932_8, 3.404_405_4, -4.165_286);
    for (method, f) in methods::<f64>() {
        let s = f(
            &Placed::new(&disc, start),
            motion,
            &Placed::new(&sphere, Pose::new(centre, DQuat::IDENTITY)),
        );
        assert!(s.hit, "{method}: {s:?}");
        if s.witness == Some(Witness::Unique) {
            let off = ((s.point_b - centre).length() - 5.417_410_6e-6).abs();
            assert!(
                off <= 1e-8 * 1.111_641_6,
                "{method}: B's `Unique` point {off:e} off the sphere: {s:?}"
            );
        }
        // Claimed or not, B's point is the sphere's.
        assert!(
            (s.point_b - centre).length() <= 5.417_410_6e-6 + 1e-8 * 1.111_641_6,
            "{method}: B's point {:e} from the sphere's centre: {s:?}",
            (s.point_b - centre).length()
        );
    }
}

/// An f32 hull's edge across a capsule 1e-3 long and 8.4e-6 in radius (1e-5
/// of the size): its radius was taken to fix the normal, which f32's
/// rounding over that radius does not; the ray cast kept a normal 1e-2 rad
/// off (`Unique`). In f32 radii fix a normal from 1e-4 of the size.
#[test]
fn an_f32_edge_across_a_tiny_capsule_claims_no_normal_its_radius_cannot_fix() {
    check_f32_claims(
        "edge across a tiny capsule",
        &Case {
            a: Shape::hull(vec![
                DVec3::new(0.043_158_6, -0.003_260_152_2, -0.775_366_4),
                DVec3::new(-0.316_533_83, 0.287_754_8, 0.108_483_516),
                DVec3::new(0.005_630_942_5, 0.020_433_608, -0.011_990_672),
                DVec3::new(-0.013_336_814, -0.072_737_694, -0.011_846_734),
                DVec3::new(-0.013_419_174, -0.016_739_553, -0.023_679_733),
                DVec3::new(0.020_763_792, -0.321_692_1, -0.467_284_95),
                DVec3::new(-0.108_323_38, -0.030_177_636, -0.033_272_836),
                DVec3::new(-0.347_482_3, -0.510_398_27, 0.013_051_443),
                DVec3::new(0.421_476_96, 0.041_809_253, 0.621_327_94),
                DVec3::new(0.743_067_3, -0.893_246_2, -0.007_943_409_5),
                DVec3::new(0.342_358_74, 0.174_454_75, 0.111_296_475),
                DVec3::new(0.044_730_637, 0.127_383_41, 0.362_327_37),
            ]),
            start: pose(
                [-0.094_580_7, -1.059_173_5, -4.334_535],
                [-0.524_598_9, -0.487_315_92, 0.201_055_75, -0.668_502_6],
            ),
            b: Shape::capsule(0.000_481_656_99, 8.417_051e-06),
            pose_b: pose(
                [-0.333_803_83, 1.500_315_8, -1.731_219_9],
                [0.031_602_163, 0.516_270_46, 0.028_405_571, -0.855_370_8],
            ),
            motion: DVec3::new(-0.128_000_53, 3.631_252, 3.128_769_4),
            truth: (0.0, DVec3::ZERO, None),
        },
        0,
    );
}

/// A box 1e5 away swept onto a hull's face (its plane `0.6 x + 0.8 y = 5`):
/// the polished normal carries the supports' rounding at that offset
/// (1.9e-12 rad), which tilted the face's points apart by more than a
/// face's rounding, and the contact read `not_unique` (a review). A
/// hull's face is judged level to that rounding too.
#[test]
fn a_far_box_on_a_hulls_face_keeps_its_unique_contact() {
    let hull = Shape::hull(vec![
        DVec3::new(3.0, 4.0, 1.0),
        DVec3::new(3.0, 4.0, -1.0),
        DVec3::new(4.2, 3.1, 0.0),
        DVec3::new(1.8, 4.9, 0.0),
        DVec3::ZERO,
    ]);
    let cube = Shape::cuboid(DVec3::splat(0.5));
    let pose_b = pose(
        [60_003.0, 80_004.0, 0.1],
        [0.2, 0.3, 0.4, 0.842_614_977_317_635_8],
    );
    let face = DVec3::new(0.6, 0.8, 0.0);
    let s = sweep::ray_cast(
        &Placed::new(&hull, Pose::IDENTITY),
        DVec3::new(60_000.0, 80_000.0, 0.0),
        &Placed::new(&cube, pose_b),
    );
    assert_eq!(s.witness, Some(Witness::Unique), "{s:?}");
    assert!(angle(s.normal, face) <= 1e-7, "{s:?}");
}

/// A capsule's end (radius 0.3) swept onto a cone's side halfway up, at
/// six azimuths: the side's normal where the end's centre touches it is
/// taken in closed form with the radius (`vertex_on_side` compares the
/// cores' points, not the inflated ones, which differ by the radius times
/// the turn). Every method claims it, within 1e-7 rad in f64 and 1e-3 in
/// f32 of the exact side normal.
#[test]
fn a_capsules_end_on_a_cones_side_claims_the_sides_normal() {
    let cone = Shape::cone(1.0, 1.0);
    let capsule = Shape::capsule(0.5, 0.3);
    let slope = 0.5_f64.atan();
    for phi in [0.3_f64, 1.1, 2.0, 2.9, 4.0, 5.2] {
        let n = DVec3::new(
            slope.cos() * phi.cos(),
            slope.sin(),
            slope.cos() * phi.sin(),
        );
        let touch = DVec3::new(0.5 * phi.cos(), 0.0, 0.5 * phi.sin()) + n * 0.3;
        let tangent = DVec3::new(-phi.sin(), 0.0, phi.cos());
        let axis = (n + tangent * 0.4).normalize();
        let centre = touch + axis * 0.5;
        let motion = -n * 2.0 + tangent * 0.3;
        let start = Pose::new(
            centre - motion * 0.5,
            DQuat::from_rotation_arc(DVec3::Y, axis),
        );
        for (method, f) in methods::<f64>() {
            let s = f(
                &Placed::new(&capsule, start),
                motion,
                &Placed::new(&cone, Pose::IDENTITY),
            );
            assert_eq!(s.witness, Some(Witness::Unique), "{phi}, {method}: {s:?}");
            assert!(angle(s.normal, -n) <= 1e-7, "{phi}, {method}: {s:?}");
        }
        let (c32, s32) = (capsule.to_precision::<f32>(), gjk_common::pose_f32(&start));
        let cone32 = cone.to_precision::<f32>();
        for (method, f) in methods::<f32>() {
            let s = f(
                &Placed::new(&c32, s32),
                Vec3A::from(motion.as_vec3()),
                &Placed::new(&cone32, Pose::IDENTITY),
            );
            assert_eq!(
                s.witness,
                Some(Witness::Unique),
                "{phi}, f32 {method}: {s:?}"
            );
            assert!(
                angle(gjk_common::wide::<f32>(s.normal), -n) <= 1e-3,
                "{phi}, f32 {method}: {s:?}"
            );
        }
    }
}
