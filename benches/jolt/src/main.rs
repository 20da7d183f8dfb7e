//! cspace (f32 and f64) against Jolt Physics 5.0.0 (float) on the scenes of
//! `benches/versus_parry.rs`, in one binary.
//!
//! `cargo run --release --manifest-path benches/jolt/Cargo.toml` prints, per
//! query kind and shape family, then per shape pair, the time per query of
//! cspace's method (f32, f64) and of Jolt's GJK / EPA as its convex collide
//! path calls them (see `shim.cpp`), with the ratios cspace / Jolt (below 1
//! cspace is faster); then, per set, how far the answers agree. Shapes and
//! poses are built before timing; each figure is the best of several
//! interleaved passes over the set. Cones are left out: Jolt 5.0 has no cone
//! shape (the mixed family is timed without its cone scenes).
//!
//! Flags: `--quick` (3 passes instead of 15), `--only QUERY [SET]`
//! (`distance`, `intersect`, `penetration`; a family such as `hull16` or a
//! pair such as `box-capsule`), `--all` (cspace's other intersect method, GJK,
//! on the pairs too), `--default-radius` (Jolt's shapes with its default
//! convex radius 0.05 and hull tolerance 1e-3 instead of exact shapes).

use cspace::{Pose, Real, Shape, epa, gjk, mpr};
use std::hint::black_box;

#[path = "../../versus_parry/scenes.rs"]
#[allow(dead_code)] // shared with versus_parry, which uses all of it
mod scenes;
use scenes::{
    FAMILIES, PAIR_KINDS, PAIR_SCENES, Scene, Spec, cspace_pair, gap_of, overlapping, race, scenes,
    scenes_of, short,
};

mod jolt;

/// The query kinds compared, with `versus_parry`'s index of each (its seeds).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Query {
    Distance,
    Intersect,
    Penetration,
}

impl Query {
    const ALL: [Self; 3] = [Self::Distance, Self::Intersect, Self::Penetration];

    fn name(self) -> &'static str {
        match self {
            Self::Distance => "distance",
            Self::Intersect => "intersect",
            Self::Penetration => "penetration",
        }
    }

    /// The index of the query in `versus_parry`'s `QUERIES` (seeds depend on it).
    fn index(self) -> u64 {
        match self {
            Self::Distance => 0,
            Self::Intersect => 1,
            Self::Penetration => 2,
        }
    }

    /// The centre distance of the query's scenes (`versus_parry`'s).
    fn gap(self) -> (f64, f64) {
        gap_of(self.name())
    }

    fn jolt(self) -> jolt::Kind {
        match self {
            Self::Distance => jolt::Kind::Distance,
            Self::Intersect => jolt::Kind::Intersect,
            Self::Penetration => jolt::Kind::Penetration,
        }
    }

    /// What Jolt's two timed variants are (the first is its collide path's).
    fn jolt_variants(self) -> (&'static str, &'static str) {
        match self {
            Self::Distance => (
                "GJKClosestPoint::GetClosestPoints on the cores (ExcludeConvexRadius) minus the convex radii",
                "GetClosestPoints on the whole shapes (IncludeConvexRadius)",
            ),
            Self::Intersect => (
                "GJKClosestPoint::Intersects on the whole shapes (IncludeConvexRadius)",
                "EPAPenetrationDepth::GetPenetrationDepthStepGJK on the cores, != NotColliding",
            ),
            Self::Penetration => (
                "sCollideConvexVsConvex's steps: StepGJK on the cores, StepEPA (IncludeConvexRadius) when Indeterminate",
                "EPAPenetrationDepth::GetPenetrationDepth with the four support objects made up front",
            ),
        }
    }
}

/// Run options.
struct Options {
    passes: usize,
    only: Option<(String, Option<String>)>,
    all: bool,
    default_radius: bool,
}

impl Options {
    /// Whether `query` on `set` is selected by `--only`.
    fn selected(&self, query: Query, set: &str) -> bool {
        match &self.only {
            None => true,
            Some((q, s)) => q == query.name() && s.as_ref().is_none_or(|s| s == set),
        }
    }
}

/// Two shapes in their poses, in precision `T`.
type Prepared<T> = (Shape<T>, Pose<T>, Shape<T>, Pose<T>);

/// The scenes built for cspace.
fn prepared<T: Real>(sc: &[Scene]) -> Vec<Prepared<T>> {
    sc.iter().map(cspace_pair).collect()
}

/// Shapes A and B of a prepared scene in their poses.
fn placed<T: Real>(c: &Prepared<T>) -> (cspace::Placed<'_, T>, cspace::Placed<'_, T>) {
    (
        cspace::Placed::new(&c.0, c.1),
        cspace::Placed::new(&c.2, c.3),
    )
}

/// A timed pass of one cspace method over the prepared scenes.
fn each<'x, T: Real, R>(
    cs: &'x [Prepared<T>],
    f: impl Fn(&cspace::Placed<'_, T>, &cspace::Placed<'_, T>) -> R + 'x,
) -> Box<dyn FnMut() + 'x> {
    Box::new(move || {
        for c in cs {
            let (a, b) = placed(c);
            black_box(f(&a, &b));
        }
    })
}

/// A named cspace method under test: a timed pass over a scene set.
type Method<'x> = (&'static str, Box<dyn FnMut() + 'x>);

/// cspace's methods for `query`, the default first (`Algorithm::default_for`).
fn methods<T: Real>(query: Query, cs: &[Prepared<T>]) -> Vec<Method<'_>> {
    match query {
        Query::Distance => vec![("gjk", each(cs, |a, b| gjk::distance(a, b)))],
        Query::Intersect => vec![
            ("mpr", each(cs, |a, b| mpr::intersect(a, b))),
            ("gjk", each(cs, |a, b| gjk::intersect(a, b))),
        ],
        Query::Penetration => vec![("epa", each(cs, |a, b| epa::penetration(a, b)))],
    }
}

/// Whether a spec is a cone (Jolt 5.0 has none).
fn is_cone(s: &Spec) -> bool {
    matches!(s, Spec::Cone(..))
}

/// The scenes of `query`: penetration keeps the pairs that overlap (checked
/// with cspace's f64 GJK), as `versus_parry` does.
fn for_query(query: Query, sc: Vec<Scene>) -> Vec<Scene> {
    if query == Query::Penetration {
        overlapping(sc)
    } else {
        sc
    }
}

/// One timed set's figures.
struct Timed {
    /// cspace's method names, and their f32 / f64 times.
    cspace: Vec<(&'static str, f64, f64)>,
    /// Jolt's two variants.
    jolt: (f64, f64),
}

/// Times cspace (f32, f64: the default method, or all with `all`) and Jolt's
/// two variants on `sc`, interleaved.
fn timed(query: Query, sc: &[Scene], js: &jolt::Scenes, passes: usize, all: bool) -> Timed {
    let (c32, c64) = (prepared::<f32>(sc), prepared::<f64>(sc));
    let mut m32 = methods(query, &c32);
    let mut m64 = methods(query, &c64);
    if !all {
        m32.truncate(1);
        m64.truncate(1);
    }
    let n = sc.len();
    let (mut out0, mut out1) = (vec![0.0_f32; n], vec![0.0_f32; n]);
    let mut jolt0 = || js.run(query.jolt(), 0, &mut out0, None);
    let mut jolt1 = || js.run(query.jolt(), 1, &mut out1, None);
    let mut fs: Vec<&mut dyn FnMut()> = vec![&mut jolt0, &mut jolt1];
    for (a, b) in m32.iter_mut().zip(m64.iter_mut()) {
        fs.push(&mut *a.1);
        fs.push(&mut *b.1);
    }
    let t = race(passes, n, &mut fs);
    drop(fs);
    Timed {
        cspace: m32
            .iter()
            .enumerate()
            .map(|(i, m)| (m.0, t[2 + 2 * i], t[3 + 2 * i]))
            .collect(),
        jolt: (t[0], t[1]),
    }
}

/// The table's rows for one set.
fn rows(query: Query, set: &str, t: &Timed, out: &mut Vec<String>) {
    for (name, f32_ns, f64_ns) in &t.cspace {
        out.push(format!(
            "{:<12} {:<16} {:<4} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>8.2} {:>8.2}",
            query.name(),
            set,
            name,
            f32_ns,
            f64_ns,
            t.jolt.0,
            t.jolt.1,
            f32_ns / t.jolt.0,
            f64_ns / t.jolt.0,
        ));
    }
}

/// The largest of `xs` (0 if none; NaN is skipped).
fn max(xs: impl IntoIterator<Item = f64>) -> f64 {
    xs.into_iter().filter(|x| !x.is_nan()).fold(0.0, f64::max)
}

/// One scene set, as both engines see it, with Jolt's answers (one run of
/// each variant, outside the timing) for the agreement notes.
struct Checked<'x> {
    query: Query,
    set: &'x str,
    sc: &'x [Scene],
    c32: Vec<Prepared<f32>>,
    c64: Vec<Prepared<f64>>,
    /// The sum of the two shapes' bounding radii, per scene.
    sizes: Vec<f64>,
    /// Jolt's answers, variants 0 and 1.
    j0: Vec<f32>,
    j1: Vec<f32>,
    /// Jolt's world normals (variant 0, penetration).
    normals: Vec<f32>,
}

impl<'x> Checked<'x> {
    fn new(query: Query, set: &'x str, sc: &'x [Scene], js: &jolt::Scenes) -> Self {
        let n = sc.len();
        let (mut j0, mut j1) = (vec![0.0_f32; n], vec![0.0_f32; n]);
        let mut normals = vec![0.0_f32; 3 * n];
        js.run(query.jolt(), 0, &mut j0, Some(&mut normals));
        js.run(query.jolt(), 1, &mut j1, None);
        Self {
            query,
            set,
            sc,
            c32: prepared(sc),
            c64: prepared(sc),
            sizes: sc.iter().map(|s| s.a.size() + s.b.size()).collect(),
            j0,
            j1,
            normals,
        }
    }

    fn n(&self) -> usize {
        self.sc.len()
    }

    /// The note's start: query and set.
    fn head(&self) -> String {
        format!("{:<12} {:<16}", self.query.name(), self.set)
    }

    /// How far the engines' answers agree, as a note line.
    fn note(&self) -> String {
        match self.query {
            Query::Distance => self.distance(),
            Query::Intersect => self.intersect(),
            Query::Penetration => self.penetration(),
        }
    }

    /// Distance: each answer's worst error against cspace f64, of the sizes
    /// and of the distance; Jolt's answers below cspace's certified lower
    /// bound (beyond float rounding, 1e-5 of the sizes) are wrong.
    fn distance(&self) -> String {
        let n = self.n();
        let r64: Vec<gjk::Distance<f64>> = self
            .c64
            .iter()
            .map(|c| {
                let (a, b) = placed(c);
                gjk::distance(&a, &b)
            })
            .collect();
        let d32: Vec<f64> = self
            .c32
            .iter()
            .map(|c| {
                let (a, b) = placed(c);
                f64::from(gjk::distance(&a, &b).distance)
            })
            .collect();
        let d64 = |i: usize| r64[i].distance;
        let err = |d: &dyn Fn(usize) -> f64| {
            let size = max((0..n).map(|i| (d(i) - d64(i)).abs() / self.sizes[i]));
            let rel = max((0..n).map(|i| (d(i) - d64(i)).abs() / d64(i)));
            let failed = (0..n).filter(|&i| d(i).is_nan()).count();
            (size, rel, failed)
        };
        let (js0, jr0, jf0) = err(&|i| f64::from(self.j0[i]));
        let (js1, jr1, jf1) = err(&|i| f64::from(self.j1[i]));
        let (cs, cr, _) = err(&|i| d32[i]);
        let below = |d: &[f32]| {
            (0..n)
                .filter(|&i| f64::from(d[i]) < r64[i].lower_bound - 1e-5 * self.sizes[i])
                .count()
        };
        let failed = if jf0 + jf1 > 0 {
            format!(" ({jf0} / {jf1} scenes without a distance)")
        } else {
            String::new()
        };
        format!(
            "{} |error| vs cspace f64, max of size / of distance: jolt {js0:.1e} / {jr0:.1e}, jolt-alt {js1:.1e} / {jr1:.1e}, cspace f32 {cs:.1e} / {cr:.1e}; below cspace's certified lower bound: jolt {}, jolt-alt {}{failed}",
            self.head(),
            below(&self.j0),
            below(&self.j1)
        )
    }

    /// Intersect: disagreements with cspace f64's default (MPR), and how near
    /// touching the disagreeing scenes are (cspace f64's distance apart or
    /// depth overlapping, of the sizes).
    fn intersect(&self) -> String {
        let n = self.n();
        let with = |f: &dyn Fn(&cspace::Placed<'_, f64>, &cspace::Placed<'_, f64>) -> bool| {
            self.c64
                .iter()
                .map(|c| {
                    let (a, b) = placed(c);
                    f(&a, &b)
                })
                .collect::<Vec<bool>>()
        };
        let r64 = with(&|a, b| mpr::intersect(a, b).intersecting);
        let g64 = with(&|a, b| gjk::intersect(a, b).intersecting);
        let r32: Vec<bool> = self
            .c32
            .iter()
            .map(|c| {
                let (a, b) = placed(c);
                mpr::intersect(&a, &b).intersecting
            })
            .collect();
        let margin = |i: usize| {
            let (a, b) = placed(&self.c64[i]);
            let d = gjk::distance(&a, &b);
            let m = if d.intersecting {
                epa::penetration(&a, &b).depth
            } else {
                d.distance
            };
            m / self.sizes[i]
        };
        let overlapping = r64.iter().filter(|&&x| x).count();
        let nearest = (0..n).map(margin).fold(f64::INFINITY, f64::min);
        let mut parts = vec![format!(
            "{overlapping} of {n} overlap (cspace f64 mpr), the nearest to touching {nearest:.1e} of the sizes from it"
        )];
        let others: [(&str, Vec<bool>); 4] = [
            ("jolt", self.j0.iter().map(|&x| x != 0.0).collect()),
            ("jolt-alt", self.j1.iter().map(|&x| x != 0.0).collect()),
            ("cspace f32 mpr", r32),
            ("cspace f64 gjk", g64),
        ];
        for (name, r) in &others {
            let off: Vec<usize> = (0..n).filter(|&i| r[i] != r64[i]).collect();
            if off.is_empty() {
                parts.push(format!("{name} agrees"));
            } else {
                let said = off.iter().filter(|&&i| r[i]).count();
                parts.push(format!(
                    "{name} differs on {} ({said} it calls overlapping; within {:.1e} of the sizes of touching)",
                    off.len(),
                    max(off.iter().map(|&i| margin(i)))
                ));
            }
        }
        format!("{} {}", self.head(), parts.join("; "))
    }

    /// Penetration: each depth's worst error against cspace f64's EPA, of the
    /// sizes and of the depth; Jolt's answers outside cspace's certified
    /// bounds (by more than 0.1 % and 1e-5 of the sizes: float rounding) are
    /// wrong, not merely less accurate. `JOLT_DEBUG=1` prints those below.
    fn penetration(&self) -> String {
        let n = self.n();
        let p64: Vec<epa::Penetration<f64>> = self
            .c64
            .iter()
            .map(|c| {
                let (a, b) = placed(c);
                epa::penetration(&a, &b)
            })
            .collect();
        let p32: Vec<f64> = self
            .c32
            .iter()
            .map(|c| {
                let (a, b) = placed(c);
                f64::from(epa::penetration(&a, &b).depth)
            })
            .collect();
        let depth = |i: usize| p64[i].depth;
        let err = |d: &dyn Fn(usize) -> f64| {
            let size = max((0..n).map(|i| (d(i) - depth(i)).abs() / self.sizes[i]));
            // Of the depth, where it is not tiny (1e-3 of the sizes).
            let rel = max((0..n)
                .filter(|&i| depth(i) > 1e-3 * self.sizes[i])
                .map(|i| (d(i) - depth(i)).abs() / depth(i)));
            let none = (0..n).filter(|&i| d(i).is_nan()).count();
            (size, rel, none)
        };
        let (js0, jr0, jn0) = err(&|i| f64::from(self.j0[i]));
        let (js1, jr1, jn1) = err(&|i| f64::from(self.j1[i]));
        let (cs, cr, _) = err(&|i| p32[i]);
        // Jolt's normal against cspace's, where the depths agree to 1 %
        // (elsewhere the two found different directions of escape).
        let angle = max((0..n)
            .filter(|&i| (f64::from(self.j0[i]) - depth(i)).abs() <= 0.01 * depth(i))
            .map(|i| {
                let nj =
                    glam::DVec3::from_array([0, 1, 2].map(|k| f64::from(self.normals[3 * i + k])));
                nj.dot(p64[i].normal).clamp(-1.0, 1.0).acos()
            }));
        let slack = |i: usize| 1e-3 * depth(i) + 1e-5 * self.sizes[i];
        let outside = |d: &[f32]| {
            let below: Vec<usize> = (0..n)
                .filter(|&i| f64::from(d[i]) < p64[i].lower_bound - slack(i))
                .collect();
            let above = (0..n)
                .filter(|&i| f64::from(d[i]) > p64[i].upper_bound + slack(i))
                .count();
            (below, above)
        };
        let (below0, above0) = outside(&self.j0);
        let (below1, above1) = outside(&self.j1);
        if std::env::var_os("JOLT_DEBUG").is_some() {
            for &i in &below0 {
                let s = &self.sc[i];
                eprintln!(
                    "{} scene {i}: A {:?} at {:?}, B {:?} at {:?}: cspace f64 depth {} in [{}, {}], normal {:?}; Jolt {} normal {:?}",
                    self.set,
                    s.a,
                    s.pa,
                    s.b,
                    s.pb,
                    depth(i),
                    p64[i].lower_bound,
                    p64[i].upper_bound,
                    p64[i].normal,
                    self.j0[i],
                    &self.normals[3 * i..3 * i + 3]
                );
            }
        }
        format!(
            "{} {n} overlapping scenes; |depth error| vs cspace f64 epa, max of size / of depth: jolt {js0:.1e} / {jr0:.1e} ({jn0} none found, {} below / {above0} above cspace's certified bounds), jolt-alt {js1:.1e} / {jr1:.1e} ({jn1} none, {} below / {above1} above), cspace f32 {cs:.1e} / {cr:.1e}; normal angle (depths within 1 %) up to {angle:.1e} rad",
            self.head(),
            below0.len(),
            below1.len()
        )
    }
}

/// Times and checks one scene set, adding its rows and notes.
fn measure(
    query: Query,
    set: &str,
    sc: &[Scene],
    opts: &Options,
    all: bool,
    table: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> jolt::Scenes {
    let js = jolt::Scenes::new(sc, opts.default_radius);
    if let Some(lost) = js.hull_points_lost() {
        notes.push(format!(
            "{:<12} {set:<16} Jolt's hulls dropped {lost} of the input points",
            query.name()
        ));
    }
    let t = timed(query, sc, &js, opts.passes, all);
    rows(query, set, &t, table);
    notes.push(Checked::new(query, set, sc, &js).note());
    js
}

/// All sets of one query kind: the families, then the pairs. Returns the
/// Jolt set-up time on the mixed family's distance scenes, if measured.
fn run_query(query: Query, opts: &Options, notes: &mut Vec<String>) -> Option<f64> {
    let qi = query.index();
    let mut table = Vec::new();
    let mut setup_ns = None;
    for (fi, family) in FAMILIES.iter().enumerate() {
        if !opts.selected(query, family) {
            continue;
        }
        let mut sc = scenes(family, query.gap(), 7 + 100 * qi + fi as u64);
        let total = sc.len();
        sc.retain(|s| !is_cone(&s.a) && !is_cone(&s.b));
        let set = if sc.len() < total {
            let set = format!("{family}*");
            notes.push(format!(
                "{:<12} {set:<16} {} of {total} scenes kept: those with a cone are left out",
                query.name(),
                sc.len()
            ));
            set
        } else {
            (*family).to_string()
        };
        let sc = for_query(query, sc);
        let js = measure(query, &set, &sc, opts, true, &mut table, notes);
        if query == Query::Distance && *family == "mixed" {
            setup_ns = Some(js.setup_ns(opts.passes));
        }
    }
    for (i, ka) in PAIR_KINDS.iter().enumerate() {
        for (j, kb) in PAIR_KINDS.iter().enumerate().skip(i) {
            let pair = format!("{}-{}", short(ka), short(kb));
            if !opts.selected(query, &pair) || *ka == "cones" || *kb == "cones" {
                continue;
            }
            let seed = 5000 + 100 * qi + 10 * i as u64 + j as u64;
            let sc = for_query(query, scenes_of(ka, kb, query.gap(), seed, PAIR_SCENES));
            if sc.is_empty() {
                table.push(format!("{:<12} {pair:<16} no scene overlaps", query.name()));
                continue;
            }
            measure(query, &pair, &sc, opts, opts.all, &mut table, notes);
        }
    }
    for r in table {
        println!("{r}");
    }
    setup_ns
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let opts = Options {
        passes: if flag("--quick") { 3 } else { 15 },
        only: args.iter().position(|a| a == "--only").map(|i| {
            (
                args.get(i + 1).cloned().unwrap_or_default(),
                args.get(i + 2).filter(|f| !f.starts_with("--")).cloned(),
            )
        }),
        all: flag("--all"),
        default_radius: flag("--default-radius"),
    };
    jolt::init();
    println!(
        "cspace (recorder macros {}) vs Jolt Physics 5.0.0 ({}); best of {} passes; Jolt shapes: {}",
        if cfg!(feature = "record") {
            "compiled in"
        } else {
            "compiled out"
        },
        jolt::BUILD_FLAGS,
        opts.passes,
        if opts.default_radius {
            "Jolt's default convex radius 0.05 (boxes, cylinders, hulls) and hull tolerance 1e-3"
        } else {
            "convex radius 0 (exact), hull tolerance 0"
        }
    );
    for q in Query::ALL {
        let (v0, v1) = q.jolt_variants();
        println!("  {:<11} jolt: {v0}\n  {:<11} jolt-alt: {v1}", q.name(), "");
    }
    println!(
        "\n{:<12} {:<16} {:<4} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "query", "set", "cs", "f32 ns", "f64 ns", "jolt ns", "j-alt ns", "f32/jolt", "f64/jolt"
    );
    let mut notes = Vec::new();
    let mut setup_ns = None;
    for query in Query::ALL {
        setup_ns = run_query(query, &opts, &mut notes).or(setup_ns);
    }
    println!(
        "\nskipped: the cone pairs (box-cone, hull16-cone, cyl-cone, capsule-cone, cone-cone, cone-sphere): Jolt 5.0 has no cone shape (TaperedCylinderShape came in 5.1)"
    );
    if let Some(ns) = setup_ns {
        println!(
            "Jolt's per-query set-up alone (transforms, two GetSupportFunction), mixed* distance scenes: {ns:.1} ns (inside every Jolt figure above)"
        );
    }
    println!("\nagreement (one run each, outside the timing):");
    for n in notes {
        println!("{n}");
    }
}
