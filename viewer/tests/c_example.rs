//! The C example's recording (`examples/c-gjk`, built with the system C
//! compiler) opened in the viewer's state layer: steps, scopes and the simplex
//! are there to see.

#[path = "../../recorder/tests/c_build/mod.rs"]
mod c_build;

use cspace_viewer::state::timeline::Timeline;
use cspace_viewer::state::trace::{Entry, ItemClass, NONE, Trace};

#[test]
fn the_c_gjk_recording_opens_with_steps_scopes_and_simplices() {
    let dir = c_build::scratch("viewer-c-gjk");
    let exe = c_build::build_c_gjk(c_build::Lang::C99, &dir, true);
    let out = c_build::run(&exe, &["c-gjk.cspace"], &[]);
    assert_eq!(out.status.code(), Some(1), "the example's failing check");
    let bytes = std::fs::read(dir.join("c-gjk.cspace")).expect("the example wrote its recording");
    let trace = Trace::from_bytes(&bytes);
    assert_eq!(trace.error, None);
    assert!(trace.steps() >= 5, "{} steps", trace.steps());

    // Scopes: every iteration push has its pop, and the log shows them nested.
    let scopes: Vec<u32> = (0..trace.len())
        .filter(|&i| matches!(trace.entries[i as usize], Entry::Push { .. }))
        .collect();
    assert!(scopes.len() >= 2);
    for &i in &scopes {
        let Entry::Push { pop, .. } = trace.entries[i as usize] else {
            unreachable!()
        };
        assert_ne!(pop, NONE, "scope {} is closed", trace.describe(i));
        assert_eq!(trace.describe(i), "scope iteration");
    }
    assert!(trace.log.iter().any(|row| row.depth == 1));

    // Stepping to each pause: the shapes are always there, and at the
    // "closest point" steps the reduced simplex is visible with its vertices.
    let mut timeline = Timeline::new();
    let mut with_simplex = 0;
    for step in 1..=trace.steps() {
        let cursor = trace.cursor_of_step(step);
        let (mut simplices, mut shapes) = (0, 0);
        trace.visible_classes(cursor, |_, class| match class {
            ItemClass::Simplex => simplices += 1,
            ItemClass::Shapes => shapes += 1,
            _ => {}
        });
        assert_eq!(shapes, 1, "step {step}");
        if simplices > 0 {
            with_simplex += 1;
        }
        timeline.apply(&trace, cspace_viewer::state::timeline::Command::NextStep);
        assert_eq!(timeline.cursor(), cursor, "stepping lands on step {step}");
    }
    assert!(with_simplex >= 3, "{with_simplex} steps show a simplex");
    let simplex = &trace.simplices[trace.simplices.len() - 1];
    assert!(!simplex.vertices.is_empty() && simplex.vertices.len() <= 4);

    // The query's answer (format version 2), in f32.
    let decoded = cspace_recorder::decode(&bytes);
    let answer = decoded.events.iter().find_map(|l| match &l.event {
        cspace_recorder::Event::Answer { answer, .. } => Some(answer),
        _ => None,
    });
    let Some(answer) = answer else {
        panic!("the recording holds the query's answer");
    };
    assert!(
        matches!(
            **answer,
            cspace_recorder::Answer::Distance {
                distance: cspace_recorder::Scalar::F32(_),
                ..
            }
        ),
        "{answer:?}"
    );
    // Then its certificate (format version 3): the loop's bounds around that
    // distance, and the viewer attaches it to the answer.
    let cspace_recorder::Answer::Distance { distance, .. } = **answer else {
        unreachable!("matched above");
    };
    let certificate = decoded.events.iter().find_map(|l| match &l.event {
        cspace_recorder::Event::Certificate { certificate, .. } => Some(certificate),
        _ => None,
    });
    let Some(c) = certificate else {
        panic!("the recording holds the answer's certificate");
    };
    assert_eq!(c.status, "converged");
    let Some([lo, hi]) = c.bounds else {
        panic!("bounds: {c:?}");
    };
    assert_eq!(hi, distance);
    assert!(
        lo.to_f64() <= hi.to_f64() && hi.to_f64() - lo.to_f64() <= 1e-3 * hi.to_f64(),
        "{c}"
    );
    assert_eq!(trace.answers.last().and_then(|a| a.certificate), Some(0));
}
