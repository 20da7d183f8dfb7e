//! `recorder/c/cspace_record.h`, the C and C++ writer: built with the system
//! compiler (`$CC`/`$CXX`), its streams must be the Rust recorder's bytes,
//! decode whatever the input, survive a crash, stream live, and vanish when
//! compiled out. A missing compiler fails these tests naming what to install.

mod c_build;

use c_build::{Build, Lang, build, run, run_ok, scratch};
use cspace_recorder::{
    Answer, Certificate, CsoVertex, Event, Rgba, Scalar, ShapeDecl, ShapeGeom, Site, Space,
    Vec3Data, decode, emit, record, stream,
};
use std::path::Path;
use std::time::{Duration, Instant};

const SAME_EVENTS: &str = include_str!("c/same_events.c");

/// Copies `tests/c/NAME` into `dir` (so `__FILE__` is the bare name) and builds it.
fn build_test_program(name: &str, dir: &Path, lang: Lang, record: bool) -> std::path::PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(name);
    std::fs::copy(&src, dir.join(name)).expect("copy the C source");
    let flags: &[&str] = if record {
        &["-O1", "-DCSPACE_RECORD"]
    } else {
        &["-O1"]
    };
    let out = format!(
        "{}{}",
        name.trim_end_matches(".c"),
        if lang == Lang::Cxx17 { "-cpp" } else { "" }
    );
    build(&Build {
        lang,
        sources: &[name],
        cwd: dir,
        flags,
        out: &out,
    })
}

/// The line of `same_events.c` carrying `/* @MARKER */`, as `__LINE__` gives it
/// (a `#line N` directive makes the next line N).
fn line_of(marker: &str) -> u32 {
    let needle = format!("/* @{marker} */");
    let mut line = 1u32;
    for text in SAME_EVENTS.lines() {
        if text.contains(&needle) {
            return line;
        }
        line = match text.trim().strip_prefix("#line ") {
            Some(n) => n.trim().parse().expect("#line number"),
            None => line + 1,
        };
    }
    panic!("no {needle} in same_events.c");
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// A call site of `same_events.c`, as the C writer records it.
fn site(marker: &str, label: &str) -> &'static Site {
    Box::leak(Box::new(Site::new(
        "same_events.c",
        line_of(marker),
        leak(label),
    )))
}

#[allow(clippy::unnecessary_box_returns)] // `Event::Shapes` holds boxes
fn decl(geom: ShapeGeom) -> Box<ShapeDecl> {
    Box::new(ShapeDecl::new(geom))
}

/// The events `same_events.c` records, emitted through the Rust recorder.
#[allow(clippy::too_many_lines)]
fn same_events_from_rust() -> Vec<u8> {
    let d = f64::from_bits;
    let f = f32::from_bits;
    let p = Vec3Data::F64([1.0, -0.0, d(1)]);
    let pf = Vec3Data::F32([0.1, f(0x7fc0_0001), f(0xff80_0000)]);
    let a = Vec3Data::F64([-1.0, 2.0, -3.0]);
    let b = Vec3Data::F64([d(0x7ff8_0000_0000_0123), 0.5, 1e-310]);
    let af = Vec3Data::F32([1.0, 2.0, 3.0]);
    let bf = Vec3Data::F32([-0.0, 1e-40, 3.4e38]);
    let hull = vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let vd: Vec<CsoVertex> = (0..4)
        .map(|i| {
            let i = f64::from(i);
            let av = [i, i + 0.25, i + 0.5];
            let bv = [-i * 0.5 + 0.0, -i * 0.5 + 1.0, -i * 0.5 + 2.0];
            CsoVertex {
                w: Vec3Data::F64([av[0] - bv[0], av[1] - bv[1], av[2] - bv[2]]),
                a: Vec3Data::F64(av),
                b: Vec3Data::F64(bv),
            }
        })
        .collect();
    let vf: Vec<CsoVertex> = (0u8..4)
        .map(|i| {
            let i = f32::from(i);
            let av = [i * 0.1, i * 0.1 + 1.0, i * 0.1 + 2.0];
            let bv = [1.0 / 3.0f32, 1.0 / 4.0, 1.0 / 5.0];
            CsoVertex {
                w: Vec3Data::F32([av[0] - bv[0], av[1] - bv[1], av[2] - bv[2]]),
                a: Vec3Data::F32(av),
                b: Vec3Data::F32(bv),
            }
        })
        .collect();
    let s = |m: &str, l: &str| site(m, l);
    let (shapes1, shapes2, shapes3, shapes4, shapes5) = (
        s("shapes1", "shapes"),
        s("shapes2", "shapes"),
        s("shapes3", "shapes"),
        s("shapes4", "shapes"),
        s("shapes5", "shapes"),
    );
    let (outer, iteration, w, wf, dir, dirf) = (
        s("outer", "outer"),
        s("iteration", "iteration"),
        s("w", "w"),
        s("wf", "wf"),
        s("dir", "dir"),
        s("dirf", "dirf"),
    );
    let (face, facef, simplex, simplexf, upper, upperf) = (
        s("face", "face"),
        s("facef", "facef"),
        s("simplex", "simplex"),
        s("simplexf", "simplexf"),
        s("upper", "upper"),
        s("upperf", "upperf"),
    );
    let (text, step, popnamed, empty, long, utf8, huge, bighull, pop, far) = (
        s("text", "iteration %d: %.17g"),
        s("step", "step"),
        s("popnamed", "iteration"),
        s("empty", "empty"),
        s("long", "long: %s"),
        s("utf8", "utf8: \u{e9} \u{2211} \u{1f600}"),
        s("huge", "%s"),
        s("bighull", "shapes"),
        s("pop", ""),
        s("far", "far"),
    );
    let answers: Vec<(&'static Site, Answer)> = vec![
        (
            s("distance", "answer"),
            Answer::Distance {
                distance: Scalar::F64(0.5),
                point_a: a,
                point_b: b,
                normal: p,
            },
        ),
        (
            s("distancef", "answer"),
            Answer::Distance {
                distance: Scalar::F32(0.25),
                point_a: af,
                point_b: bf,
                normal: pf,
            },
        ),
        (
            s("penetration", "answer"),
            Answer::Penetration {
                depth: Scalar::F64(d(0x7ff8_0000_0000_0123)),
                normal: p,
                point_a: a,
                point_b: b,
            },
        ),
        (
            s("penetrationf", "answer"),
            Answer::Penetration {
                depth: Scalar::F32(f(0x7fc0_0001)),
                normal: pf,
                point_a: af,
                point_b: bf,
            },
        ),
        (
            // hit 7 in C: any nonzero int is true
            s("sweep", "answer"),
            Answer::Sweep {
                hit: true,
                toi: Scalar::F64(0.75),
                normal: p,
                point: a,
                position_a: b,
            },
        ),
        (
            s("sweepf", "answer"),
            Answer::Sweep {
                hit: false,
                toi: Scalar::F32(1.0),
                normal: bf,
                point: af,
                position_a: pf,
            },
        ),
        (
            s("intersect", "answer"),
            Answer::Intersect {
                intersecting: false,
                axis: Some(b),
            },
        ),
        (
            s("intersectnull", "answer"),
            Answer::Intersect {
                intersecting: true,
                axis: None,
            },
        ),
        (
            s("intersectf", "answer"),
            Answer::Intersect {
                intersecting: false,
                axis: Some(af),
            },
        ),
        (
            s("intersectfnull", "answer"),
            Answer::Intersect {
                intersecting: true,
                axis: None,
            },
        ),
    ];
    let many: Vec<&'static Site> = (0..300).map(|_| s("many", "many")).collect();
    let ((), recording) = record(|| {
        emit(shapes1, |site| Event::Shapes {
            site,
            a: Box::new(ShapeDecl {
                geom: ShapeGeom::Box {
                    half_extents: [1.0, 2.0, 3.0],
                },
                margin: 0.05,
                position: [1.5, -2.25, 1e300],
                rotation: [0.0, 0.6, 0.0, 0.8],
            }),
            b: decl(ShapeGeom::Sphere { radius: 0.5 }),
            motion: None,
        });
        let hull_f: Vec<f32> = (0u8..6).map(|i| f32::from(i) * 0.3 - 1.0).collect();
        emit(shapes2, |site| Event::Shapes {
            site,
            a: decl(ShapeGeom::Hull {
                points: hull.clone(),
            }),
            b: decl(ShapeGeom::Hull {
                points: hull_f
                    .chunks(3)
                    .map(|c| [c[0], c[1], c[2]].map(f64::from))
                    .collect(),
            }),
            motion: Some([4.0, 5.0, 6.0]),
        });
        emit(shapes3, |site| Event::Shapes {
            site,
            a: decl(ShapeGeom::Capsule {
                half_height: 1.0,
                radius: 0.5,
            }),
            b: decl(ShapeGeom::Cylinder {
                half_height: 2.0,
                radius: 0.25,
            }),
            motion: None,
        });
        emit(shapes4, |site| Event::Shapes {
            site,
            a: decl(ShapeGeom::Cone {
                half_height: 1.0,
                radius: 2.0,
            }),
            b: decl(ShapeGeom::Point),
            motion: None,
        });
        emit(shapes5, |site| Event::Shapes {
            site,
            a: decl(ShapeGeom::Mesh {
                vertices: hull.clone(),
                triangles: vec![[0, 1, 2], [300, 70000, 5_000_000]],
            }),
            b: decl(ShapeGeom::Hull { points: vec![] }),
            motion: None,
        });
        emit(outer, |site| Event::Push { site });
        for i in 0..3usize {
            emit(iteration, |site| Event::Push { site });
            emit(w, |site| Event::Point {
                site,
                space: Space::Config,
                color: Some(Rgba::RED),
                p,
            });
            emit(wf, |site| Event::Point {
                site,
                space: Space::Object,
                color: None,
                p: pf,
            });
            emit(dir, |site| Event::Line {
                site,
                space: Space::Config,
                color: Some(Rgba([1, 2, 3, 4])),
                a,
                b,
            });
            emit(dirf, |site| Event::Line {
                site,
                space: Space::Object,
                color: Some(Rgba::BLUE),
                a: af,
                b: bf,
            });
            emit(face, |site| Event::Triangle {
                site,
                space: Space::Config,
                color: None,
                v: [a, b, p],
            });
            emit(facef, |site| Event::Triangle {
                site,
                space: Space::Object,
                color: Some(Rgba::PURPLE),
                v: [af, bf, pf],
            });
            emit(simplex, |site| Event::Simplex {
                site,
                vertices: vd[..=i].to_vec(),
            });
            emit(simplexf, |site| Event::Simplex {
                site,
                vertices: vf[..4 - i].to_vec(),
            });
            emit(upper, |site| Event::Value {
                site,
                value: Scalar::F64(1.0 / (i as f64 + 1.0)),
            });
            emit(upperf, |site| Event::Value {
                site,
                value: Scalar::F32(i as f32 * 0.1),
            });
            emit(text, |site| Event::Text {
                site,
                text: format!("iteration {i}: 0.33333333333333331"),
            });
            emit(step, |site| Event::Pause { site });
            emit(popnamed, |site| Event::Pop { site });
        }
        emit(empty, |site| Event::Simplex {
            site,
            vertices: vec![],
        });
        emit(long, |site| Event::Text {
            site,
            text: format!("long: {}", "x".repeat(300)),
        });
        emit(utf8, |site| Event::Text {
            site,
            text: "utf8: \u{e9} \u{2211} \u{1f600}".into(),
        });
        emit(huge, |site| Event::Text {
            site,
            text: "y".repeat(17 << 20),
        });
        emit(bighull, |site| Event::Shapes {
            site,
            a: decl(ShapeGeom::Hull {
                points: (0..700_000u32)
                    .map(|i| [3 * i, 3 * i + 1, 3 * i + 2].map(f64::from))
                    .collect(),
            }),
            b: decl(ShapeGeom::Sphere { radius: 1.0 }),
            motion: None,
        });
        for (at, answer) in answers {
            emit(at, |site| Event::Answer {
                site,
                answer: Box::new(answer),
            });
        }
        for (at, certificate) in certificates() {
            emit(at, |site| Event::Certificate {
                site,
                certificate: Box::new(certificate),
            });
        }
        emit(pop, |site| Event::Pop { site });
        for m in &many {
            emit(m, |site| Event::Pause { site });
        }
        emit(far, |site| Event::Pause { site });
    });
    recording.bytes
}

/// The certificates `same_events.c` records after its answers: with every
/// field, in f32 with a status cut from bad UTF-8, and with none (a NULL
/// status, an iteration count past `u32`).
fn certificates() -> Vec<(&'static Site, Certificate)> {
    vec![
        (
            site("certificate", "certificate"),
            Certificate {
                status: "converged".into(),
                iterations: 12,
                bounds: Some([Scalar::F64(0.25), Scalar::F64(0.250_000_000_1)]),
                witness: Some("unique".into()),
                normal_within: Some(Scalar::F64(3e-9)),
            },
        ),
        (
            site("certificatef", "certificate"),
            Certificate {
                status: "degenerate".into(),
                iterations: 300,
                bounds: Some([Scalar::F32(0.5), Scalar::F32(0.625)]),
                witness: Some("\u{fffd} bad".into()),
                normal_within: Some(Scalar::F32(std::f32::consts::PI)),
            },
        ),
        (
            site("certificatenull", "certificate"),
            Certificate {
                status: String::new(),
                iterations: u32::MAX,
                bounds: None,
                witness: None,
                normal_within: None,
            },
        ),
    ]
}

/// Index of the first differing byte and the events around it, for a readable failure.
fn first_difference(c: &[u8], rust: &[u8]) -> String {
    let at = c
        .iter()
        .zip(rust)
        .position(|(x, y)| x != y)
        .unwrap_or(c.len().min(rust.len()));
    let dc = decode(c);
    let dr = decode(rust);
    let event_at = |d: &cspace_recorder::Decoded| {
        d.events
            .iter()
            .rev()
            .find(|l| l.offset as usize <= at)
            .map(|l| {
                format!("{:?}", l.event)
                    .chars()
                    .take(300)
                    .collect::<String>()
            })
    };
    format!(
        "streams differ at byte {at} (C {} bytes, Rust {} bytes)\nC event:    {:?}\nRust event: {:?}\nC decode error: {:?}",
        c.len(),
        rust.len(),
        event_at(&dc),
        event_at(&dr),
        dc.error
    )
}

/// `f32` or `f64` as the answer's first number is; `none` for an intersect without axis.
fn answer_precision(answer: &Answer) -> &'static str {
    let v = match answer {
        Answer::Distance { point_a: v, .. }
        | Answer::Penetration { normal: v, .. }
        | Answer::Sweep { normal: v, .. }
        | Answer::Intersect { axis: Some(v), .. } => v,
        Answer::Intersect { axis: None, .. } => return "none",
    };
    match v {
        Vec3Data::F32(_) => "f32",
        Vec3Data::F64(_) => "f64",
    }
}

#[test]
fn the_c_writer_produces_the_rust_recorders_bytes() {
    let dir = scratch("same-events");
    for lang in [Lang::C99, Lang::Cxx17] {
        let exe = build_test_program("same_events.c", &dir, lang, true);
        let out = dir.join("same.cspace");
        run_ok(&exe, &[out.to_str().expect("utf-8 path")]);
        let c = std::fs::read(&out).expect("the C program wrote its recording");
        let rust = same_events_from_rust();
        assert!(c == rust, "{lang:?}: {}", first_difference(&c, &rust));
        // What the comparison covers: every event kind, the two notes, 300+ sites.
        let decoded = decode(&c);
        assert_eq!(decoded.error, None);
        let kinds: std::collections::BTreeSet<_> =
            decoded.events.iter().map(|l| l.event.kind()).collect();
        assert_eq!(kinds.len(), cspace_recorder::EventKind::ALL.len());
        assert!(decoded.sites.len() > 300);
        assert!(decoded.sites.values().any(|s| s.line == 70000));
        // Every answer kind in both precisions, an intersect with and without an axis.
        let answers: Vec<String> = decoded
            .events
            .iter()
            .filter_map(|l| match &l.event {
                Event::Answer { answer, .. } => {
                    Some(format!("{} {}", answer.kind(), answer_precision(answer)))
                }
                _ => None,
            })
            .collect();
        for kind in ["distance", "penetration", "sweep", "intersect"] {
            for precision in ["f32", "f64"] {
                let want = format!("{kind} {precision}");
                assert!(answers.contains(&want), "{want} in {answers:?}");
            }
        }
        assert!(answers.iter().any(|a| a == "intersect none"));
    }
}

fn labels(decoded: &cspace_recorder::Decoded) -> Vec<(String, Event)> {
    decoded
        .events
        .iter()
        .filter(|l| !matches!(l.event, Event::Site(_)))
        .map(|l| (decoded.label(l.event.site()).to_owned(), l.event.clone()))
        .collect()
}

#[test]
fn bad_input_has_its_documented_result_and_never_corrupts_the_stream() {
    let dir = scratch("bad-input");
    let exe = build_test_program("bad_input.c", &dir, Lang::C99, true);
    let stdout = run_ok(&exe, &["bad.cspace", "nested.cspace"]);
    assert_eq!(
        stdout,
        "end without begin: 4\nbegin in a missing folder: 2\nits end: 2\nbegin: 0\n\
         nested begin: 0\nnested end: 0\nnested save: 0\nend: 0\nrecording after end: 0\n"
    );
    let bytes = std::fs::read(dir.join("bad.cspace")).expect("recording");
    let decoded = decode(&bytes);
    assert_eq!(decoded.error, None, "every file the header writes decodes");
    let events = labels(&decoded);
    let r = '\u{fffd}';
    let empty_hull = || ShapeGeom::Hull { points: vec![] };
    assert!(matches!(&events[0], (l, Event::Pop { .. }) if l.is_empty()));
    assert!(matches!(&events[1], (l, Event::Push { .. }) if l.is_empty()));
    assert!(matches!(&events[2], (l, Event::Pause { .. }) if *l == format!("bad {r} label {r}")));
    assert!(
        matches!(&events[3], (_, Event::Text { text, .. }) if *text == format!("invalid {r}{r} utf8 {r}{r}")),
        "{:?}",
        events[3]
    );
    assert!(
        matches!(&events[4], (_, Event::Shapes { a, b, .. }) if a.geom == empty_hull() && b.geom == empty_hull())
    );
    let Event::Text { text, .. } = &events[5].1 else {
        panic!("a hull of 2 000 000 points becomes a note: {:?}", events[5]);
    };
    assert!(
        text.starts_with("shapes event left out: its frame of 48000")
            && text.ends_with("bytes exceeds the stream's limit of 16777216 bytes"),
        "{text}"
    );
    assert!(
        matches!(&events[6], (l, Event::Text { text, .. }) if l == "null point" && text == "point event left out: a vector argument is NULL")
    );
    assert!(
        matches!(&events[7], (_, Event::Text { text, .. }) if text == "simplex event left out: a vector argument is NULL")
    );
    for e in &events[8..10] {
        assert!(
            matches!(e, (l, Event::Text { text, .. }) if l == "answer" && text == "answer event left out: a vector argument is NULL"),
            "{e:?}"
        );
    }
    let values: Vec<(String, f64)> = events[10..]
        .iter()
        .map(|(l, e)| match e {
            Event::Value { value, .. } => (l.clone(), value.to_f64()),
            other => panic!("only values remain, got {other:?}"),
        })
        .collect();
    assert_eq!(
        values,
        [("before nested".into(), 1.0), ("after nested".into(), 3.0)]
    );
    let nested = decode(&std::fs::read(dir.join("nested.cspace")).expect("nested recording"));
    assert_eq!(nested.error, None);
    let nested = labels(&nested);
    assert!(
        matches!(&nested[..], [(l1, Event::Value { .. }), (l2, Event::Pause { .. })] if l1 == "inside nested" && l2 == "nested pause"),
        "{nested:?}"
    );
}

#[test]
fn random_macro_sequences_always_decode_and_re_encode_to_the_same_bytes() {
    let dir = scratch("fuzz");
    let exe = build_test_program("fuzz_writer.c", &dir, Lang::C99, true);
    let seeds: u64 = std::env::var("CSPACE_FUZZ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    for seed in 0..seeds {
        let out = format!("fuzz-{seed}.cspace");
        let stdout = run_ok(&exe, &[&out, &seed.to_string(), "3000"]);
        let mut counts = stdout.split_whitespace().map(str::parse::<usize>);
        let (Some(Ok(expected)), Some(Ok(nested))) = (counts.next(), counts.next()) else {
            panic!("fuzz_writer printed {stdout:?}");
        };
        let bytes = std::fs::read(dir.join(&out)).expect("recording");
        let decoded = decode(&bytes);
        assert_eq!(decoded.error, None, "seed {seed}");
        assert_eq!(decoded.valid_len, bytes.len() as u64, "seed {seed}");
        let events: Vec<Event> = decoded.events.iter().map(|l| l.event.clone()).collect();
        let recorded = events
            .iter()
            .filter(|e| !matches!(e, Event::Site(_)))
            .count();
        assert_eq!(recorded, expected, "seed {seed}: one event per macro call");
        // The encoding is canonical: Rust's writer makes the same bytes from the events.
        assert!(
            stream::encode_stream(&events) == bytes,
            "seed {seed}: {}",
            first_difference(&bytes, &stream::encode_stream(&events))
        );
        for n in 0..nested {
            let nested_bytes =
                std::fs::read(dir.join(format!("{out}.{n}"))).expect("nested recording");
            let d = decode(&nested_bytes);
            assert_eq!(d.error, None, "seed {seed} nested {n}");
            assert_eq!(d.events.len(), 4, "two sites, a value and a pause");
        }
    }
}

/// The writer under `AddressSanitizer` and `UndefinedBehaviorSanitizer`: random
/// macro sequences, bad input and the byte-identity program touch no memory
/// they should not (a stream can decode and still hide an overflow).
#[test]
fn the_writer_is_clean_under_address_and_undefined_behaviour_sanitizers() {
    let dir = scratch("sanitized");
    for name in ["fuzz_writer.c", "bad_input.c", "same_events.c"] {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/c")
            .join(name);
        std::fs::copy(&src, dir.join(name)).expect("copy the C source");
    }
    let sanitize = [
        "-g",
        "-O1",
        "-DCSPACE_RECORD",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
    ];
    let asan = |name: &str, out: &str| {
        build(&Build {
            lang: Lang::C99,
            sources: &[name],
            cwd: &dir,
            flags: &sanitize,
            out,
        })
    };
    let fuzz = asan("fuzz_writer.c", "fuzz-asan");
    for seed in 0..3 {
        run_ok(
            &fuzz,
            &[&format!("f{seed}.cspace"), &seed.to_string(), "3000"],
        );
    }
    run_ok(&asan("bad_input.c", "bad-asan"), &["b.cspace", "n.cspace"]);
    run_ok(&asan("same_events.c", "same-asan"), &["s.cspace"]);
    assert_eq!(
        decode(&std::fs::read(dir.join("s.cspace")).expect("recording")).error,
        None
    );
}

#[test]
fn a_process_killed_mid_query_leaves_every_complete_event() {
    let dir = scratch("crash");
    let exe = build_test_program("crash.c", &dir, Lang::C99, true);
    let out = run(&exe, &["crash.cspace", "1000"], &[]);
    assert!(!out.status.success(), "the program aborts");
    let bytes = std::fs::read(dir.join("crash.cspace")).expect("the file sink wrote as it went");
    let decoded = decode(&bytes);
    assert_eq!(
        decoded.error, None,
        "frames are written whole, one at a time"
    );
    assert_eq!(
        decoded.events.len(),
        2 + 2000,
        "two sites, 1000 values and 1000 texts"
    );
}

#[test]
fn compiled_out_macros_type_check_and_evaluate_nothing() {
    let dir = scratch("compiled-out");
    for lang in [Lang::C99, Lang::Cxx17] {
        let exe = build_test_program("compiled_out.c", &dir, lang, false);
        assert_eq!(run_ok(&exe, &[]), "evaluated 0\n", "{lang:?}");
    }
}

#[test]
fn a_live_receiver_gets_the_same_bytes_as_the_memory_recording() {
    use cspace_recorder::live::{Message, Server, ServerOptions};
    let dir = scratch("live");
    let exe = build_test_program("live.c", &dir, Lang::C99, true);
    let saved = dir.join("received");
    std::fs::create_dir_all(&saved).expect("folder");
    let server =
        Server::bind_with("127.0.0.1:0", ServerOptions::save_to(&saved)).expect("bind loopback");
    let addr = server.addr().to_string();
    let out = run(&exe, &["memory.cspace"], &[("CSPACE_LIVE", addr.as_str())]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "end: 0, dropped: 0\n");
    let deadline = Instant::now() + Duration::from_secs(10);
    let file = loop {
        assert!(Instant::now() < deadline, "no finished stream within 10 s");
        match server.next_timeout(Duration::from_millis(50)) {
            Some(Message::Finished { summary, .. }) => {
                break summary.saved.expect("a saved stream");
            }
            Some(Message::Failed { error, .. }) => panic!("the live stream failed: {error}"),
            _ => {}
        }
    };
    let memory = std::fs::read(dir.join("memory.cspace")).expect("memory copy");
    let live = std::fs::read(file).expect("received copy");
    assert!(memory.len() > 100 && live == memory);

    // Nobody listening: the program neither hangs nor fails, and counts the drop.
    drop(server);
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = closed.local_addr().expect("address").to_string();
    drop(closed);
    let start = Instant::now();
    let out = run(&exe, &["memory.cspace"], &[("CSPACE_LIVE", addr.as_str())]);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "end: 0, dropped: 1\n");
}

/// Everything a recording of the example's GJK must hold; returns the scope labels.
fn check_c_gjk_recording(bytes: &[u8]) -> Vec<String> {
    let decoded = decode(bytes);
    assert_eq!(decoded.error, None);
    let events = labels(&decoded);
    let shapes = events
        .iter()
        .filter(|(_, e)| matches!(e, Event::Shapes { .. }))
        .count();
    assert_eq!(shapes, 1, "the query declares its shapes once");
    let (mut depth, mut scopes, mut pauses, mut simplices) = (0i32, Vec::new(), 0, 0);
    for (label, e) in &events {
        match e {
            Event::Push { .. } => {
                depth += 1;
                scopes.push(label.clone());
            }
            Event::Pop { .. } => depth -= 1,
            Event::Pause { .. } => pauses += 1,
            Event::Simplex { vertices, .. } => {
                simplices += 1;
                assert!((1..=4).contains(&vertices.len()));
                for v in vertices {
                    let (Vec3Data::F32(w), Vec3Data::F32(a), Vec3Data::F32(b)) = (v.w, v.a, v.b)
                    else {
                        panic!("the example computes in f32: {v:?}");
                    };
                    let diff = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
                    assert_eq!(w.map(f32::to_bits), diff.map(f32::to_bits), "w = a - b");
                }
            }
            _ => {}
        }
        assert!(depth >= 0, "no pop without its push");
    }
    assert_eq!(depth, 0, "scopes balance");
    assert!(
        pauses >= 4 && simplices >= 2,
        "{pauses} pauses, {simplices} simplices"
    );
    let distance = events.iter().find_map(|(l, e)| match e {
        Event::Value { value, .. } if l == "distance" => Some(*value),
        _ => None,
    });
    // The failing case: 0.001 apart 10 km out, where f32 steps by 2^-10.
    assert_eq!(distance, Some(Scalar::F32(0.000_976_562_5)));
    // The answer, once, at the end: the same distance, the closest points the
    // line joins, and a unit normal from A to B.
    let closest = events.iter().find_map(|(l, e)| match e {
        Event::Line { a, b, .. } if l == "closest points" => Some((*a, *b)),
        _ => None,
    });
    let answers: Vec<_> = events
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| matches!(e, Event::Answer { .. }))
        .collect();
    let [(at, (label, Event::Answer { answer, .. }))] = answers[..] else {
        panic!("one answer: {answers:?}");
    };
    assert_eq!(label, "answer");
    // Then its certificate (the loop's bounds), then only the closing scope.
    let Some((_, Event::Certificate { certificate: c, .. })) = events.get(at + 1) else {
        panic!(
            "the certificate follows the answer: {:?}",
            events.get(at + 1)
        );
    };
    assert!(
        events[at + 2..]
            .iter()
            .all(|(_, e)| matches!(e, Event::Pop { .. })),
        "only the closing scope follows the certificate"
    );
    let Answer::Distance {
        distance: answered,
        point_a,
        point_b,
        normal: Vec3Data::F32(normal),
    } = **answer
    else {
        panic!("a distance answer in f32: {answer:?}");
    };
    assert_eq!(Some(answered), distance);
    assert_eq!(closest, Some((point_a, point_b)));
    assert_eq!((c.status.as_str(), c.witness.as_ref()), ("converged", None));
    let Some([lower, upper]) = c.bounds else {
        panic!("the loop's bounds: {c:?}");
    };
    assert_eq!(upper, answered);
    assert!(lower.to_f64() <= upper.to_f64(), "{c}");
    let len = normal.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((len - 1.0).abs() < 1e-5, "{normal:?}");
    scopes
}

#[test]
fn the_c_gjk_example_builds_as_c99_and_cxx17_and_records_its_failing_case() {
    let dir = scratch("c-gjk");
    for lang in [Lang::C99, Lang::Cxx17] {
        let exe = c_build::build_c_gjk(lang, &dir, true);
        let out = run(&exe, &["failing.cspace"], &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "one check fails: {stdout}");
        assert!(
            stdout.contains("ok    corner to corner     distance 13 after")
                && stdout
                    .contains("FAIL  far from the origin  distance 0.0009765625, expected 0.001")
                && stdout.contains("recording: failing.cspace"),
            "{stdout}"
        );
        let bytes =
            std::fs::read(dir.join("failing.cspace")).expect("the failing case's recording");
        std::fs::remove_file(dir.join("failing.cspace")).expect("remove");
        let scopes = check_c_gjk_recording(&bytes);
        assert!(scopes.iter().filter(|s| *s == "iteration").count() >= 2);
        // C++: the RAII scope around the query opens first and closes last.
        assert_eq!(
            scopes[0] == "query",
            lang == Lang::Cxx17,
            "{lang:?}: {scopes:?}"
        );

        // Compiled out: the same answers, no recording, a clear word why.
        let exe = c_build::build_c_gjk(lang, &dir, false);
        let out = run(&exe, &["off.cspace"], &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains("recording not saved: recording is compiled out"),
            "{stdout}"
        );
        assert!(!dir.join("off.cspace").exists());
    }
}

#[test]
fn with_live_block_a_c_program_waits_at_each_pause_for_the_viewers_step() {
    use cspace_recorder::live::{Message, Server, ServerOptions};
    let dir = scratch("live-block");
    let exe = build_test_program("live.c", &dir, Lang::C99, true);
    let server = Server::bind_with("127.0.0.1:0", ServerOptions::events()).expect("bind loopback");
    let addr = server.addr().to_string();
    let mut child = std::process::Command::new(&exe)
        .arg("memory.cspace")
        .current_dir(&dir)
        .env("CSPACE_LIVE", &addr)
        .env("CSPACE_LIVE_BLOCK", "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the C program");
    let (mut id, mut pauses, mut stepped) = (None, 0usize, 0usize);
    let deadline = Instant::now() + Duration::from_secs(20);
    let finished = loop {
        assert!(Instant::now() < deadline, "no end within 20 s");
        match server.next_timeout(Duration::from_millis(50)) {
            Some(Message::Connected { id: i, .. }) => id = Some(i),
            Some(Message::Events { events, .. }) => {
                pauses += events
                    .iter()
                    .filter(|l| matches!(l.event, Event::Pause { .. }))
                    .count();
            }
            Some(Message::Finished { summary, .. }) => break summary,
            Some(Message::Failed { error, .. }) => panic!("the live stream failed: {error}"),
            _ => {}
        }
        if pauses > stepped {
            // The program is blocked at this pause: nothing more comes, and it runs on.
            std::thread::sleep(Duration::from_millis(300));
            assert!(
                child.try_wait().expect("child status").is_none(),
                "the program waits for the step at pause {pauses}"
            );
            while let Some(m) = server.try_next() {
                if let Message::Events { events, .. } = m {
                    assert!(
                        !events
                            .iter()
                            .any(|l| matches!(l.event, Event::Pause { .. })),
                        "nothing past pause {pauses} before its step"
                    );
                }
            }
            assert!(server.step(id.expect("connected")));
            stepped += 1;
        }
    };
    let out = child.wait_with_output().expect("the program ends");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "end: 0, dropped: 0\n");
    assert_eq!((finished.pauses, stepped), (5, 5));
}

#[test]
fn threads_record_separately_and_a_thread_not_recording_records_nothing() {
    let dir = scratch("threads");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/threads.c");
    std::fs::copy(&src, dir.join("threads.c")).expect("copy");
    let exe = build(&Build {
        lang: Lang::C99,
        sources: &["threads.c"],
        cwd: &dir,
        flags: &["-O1", "-DCSPACE_RECORD", "-pthread"],
        out: "threads",
    });
    assert_eq!(run_ok(&exe, &["."]), "recording on main: 0\n");
    for id in 0..4u8 {
        let bytes = std::fs::read(dir.join(format!("thread-{id}.cspace"))).expect("recording");
        let decoded = decode(&bytes);
        assert_eq!(decoded.error, None);
        let events = labels(&decoded);
        let values: Vec<f64> = events
            .iter()
            .filter_map(|(_, e)| match e {
                Event::Value { value, .. } => Some(value.to_f64()),
                _ => None,
            })
            .collect();
        assert_eq!(values.len(), 5000, "thread {id}");
        assert!(values.iter().all(|&v| v == f64::from(id)), "thread {id}");
        assert_eq!(events.len(), 5000 + 50, "values and pauses only");
        assert_eq!(decoded.sites.len(), 2, "each site once per stream");
    }
}
