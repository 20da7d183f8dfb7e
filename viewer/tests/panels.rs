//! Panel tests: each panel drawn alone with `egui_kittest` over state built
//! in the test, clicked and typed into by label, its returned action and
//! state checked (no window, no renderer).

use cspace_recorder as rec;
use cspace_viewer::panels::Action;
use cspace_viewer::panels::inspector::Inspector;
use cspace_viewer::panels::log::Log;
use cspace_viewer::panels::pair_bar::PairBar;
use cspace_viewer::panels::plots::Plots;
use cspace_viewer::state::pair::Pair;
use cspace_viewer::state::scene::Pick;
use cspace_viewer::state::session::Session;
use cspace_viewer::state::trace::{Entry, Trace};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

fn sphere(r: f64, x: f64) -> rec::ShapeDecl {
    rec::ShapeDecl::new(rec::ShapeGeom::Sphere { radius: r })
        .at([x, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
}

/// Two GJK-like queries: shapes, two iteration scopes with a bound, a
/// simplex and a closest point, then the termination text. `nudge` moves
/// the second query's first closest point by one ULP in x.
fn two_queries(nudge: bool) -> Vec<u8> {
    let ((), r) = rec::record(|| {
        for q in 0..2 {
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 3.0 + f64::from(q)));
            for i in 0..2 {
                rec::push!("gjk iteration");
                rec::value!("upper bound", 1.5 - f64::from(i));
                rec::simplex!(
                    "after reduce",
                    [([1.0f64, 0., 0.], [1.5, 0., 0.], [0.5, 0., 0.])]
                );
                let x = if nudge && q == 1 && i == 0 {
                    f64::from_bits(3.0f64.to_bits() + 1)
                } else {
                    3.0
                };
                rec::point!(cso "closest v", [x, 0.0, 4.0]);
                rec::pause!("after reduce");
                rec::pop!();
            }
            rec::text!("gjk terminated: converged after 2 iterations");
            rec::text!("distance {q}");
        }
    });
    r.bytes
}

/// The log panel over `session` in a harness; the last action it returned.
fn log_harness(session: Session) -> Harness<'static, (Session, Option<u32>, Option<Action>)> {
    Harness::builder()
        .with_size(egui::vec2(700.0, 520.0))
        .build_ui_state(
            |ui, (session, scrolled, action): &mut (Session, Option<u32>, Option<Action>)| {
                let got = Log {
                    trace: &session.trace,
                    timeline: &session.timeline,
                    view: &mut session.log,
                    scrolled_to: scrolled,
                }
                .ui(ui);
                if got.is_some() {
                    *action = got;
                }
            },
            (session, None, None),
        )
}

#[test]
fn log_rows_carry_values_fold_and_filter() {
    let mut session = Session::new(Trace::from_bytes(&two_queries(false)), "two");
    session.command(cspace_viewer::state::timeline::Command::First);
    let mut h = log_harness(session);
    h.run();
    // Grouped per query; each pause says its values, the last scope its outcome.
    assert_eq!(
        h.query_all_by_label("shapes sphere vs sphere — distance 0")
            .count(),
        1
    );
    assert_eq!(
        h.query_all_by_label_contains(
            "pause after reduce — upper bound = 1.5, 1 vertices, |closest v| = 5"
        )
        .count(),
        2
    );
    assert_eq!(
        h.query_all_by_label("scope gjk iteration — gjk terminated: converged after 2 iterations")
            .count(),
        2
    );
    let rows = h.state().0.log.rows().len();
    assert_eq!(rows, 14);

    // Collapse the first query's first iteration: its pause goes.
    h.get_all_by_label("collapse scope gjk iteration")
        .next()
        .expect("a fold toggle per scope")
        .click();
    h.run();
    assert_eq!(h.state().0.log.rows().len(), rows - 1);
    let _ = h.get_by_label("open scope gjk iteration");
    // Collapse the whole second query: its six rows under the head go.
    h.get_all_by_label_contains("collapse shapes sphere vs sphere")
        .nth(1)
        .expect("a fold toggle per query")
        .click();
    h.run();
    assert_eq!(h.state().0.log.rows().len(), rows - 1 - 6);

    // A search shows every match, folded or not, and how many.
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("upper bound = 0.5");
    h.run();
    let _ = h.get_by_label("2 of 14");
    assert_eq!(h.state().0.log.rows().len(), 2);
    h.get_by_label("clear").click();
    h.run();
    assert_eq!(h.state().0.log.rows().len(), rows - 1 - 6);
    h.get_by_label("unfold").click();
    h.run();
    assert_eq!(h.state().0.log.rows().len(), rows);

    // A click on a row jumps there.
    h.get_by_label("distance 1").click();
    h.run();
    let (session, _, action) = h.state();
    let Some(Action::Command(cspace_viewer::state::timeline::Command::JumpToEvent(e))) = action
    else {
        panic!("a jump: {action:?}");
    };
    assert_eq!(session.trace.text(*e), Some("distance 1"));
}

/// The pair bar and inspector of a comparison of `a` and `b`, drawn
/// together; the last action the bar returned is applied like the app does.
struct Compare {
    shown: Session,
    pair: Pair,
    last: Option<Action>,
}

fn compare_harness(a: &[u8], b: &[u8]) -> Harness<'static, Compare> {
    let (shown, pair) = Pair::open(a, b, ["f64".into(), "f32".into()]);
    Harness::builder()
        .with_size(egui::vec2(1000.0, 700.0))
        .build_ui_state(
            |ui, c: &mut Compare| {
                if let Some(Action::SetUlps(n)) = c.last.take() {
                    c.pair.set_ulps(n);
                }
                c.last = PairBar { pair: &c.pair }.ui(ui);
                Inspector {
                    session: &c.shown,
                    pair: Some(&c.pair),
                }
                .ui(ui);
                Plots {
                    session: &c.shown,
                    other: Some((&c.pair.hidden, ["f64", "f32"])),
                }
                .ui(ui);
            },
            Compare {
                shown,
                pair,
                last: None,
            },
        )
}

#[test]
fn a_ulp_threshold_finds_the_first_meaningful_divergence() {
    let mut h = compare_harness(&two_queries(false), &two_queries(true));
    h.run();
    let _ = h.get_by_label_contains("first divergence at step 2");
    // Type 1 into the threshold: the one-ULP difference no longer counts.
    let field = h.get_by_role(egui::accesskit::Role::SpinButton);
    field.click();
    h.run();
    h.key_press(Key::Backspace);
    h.run();
    h.get_by_role(egui::accesskit::Role::SpinButton)
        .type_text("1");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert_eq!(h.state().pair.ulps, 1);
    let _ = h.get_by_label_contains("identical event for event");
}

#[test]
fn a_point_of_either_recording_shows_its_twin_in_ulps() {
    let mut h = compare_harness(&two_queries(false), &two_queries(true));
    h.run();
    // Pick the nudged closest point in B's pane (the hidden recording).
    let c = h.state_mut();
    let point = c
        .pair
        .hidden
        .trace
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Entry::Draw(_)))
        .nth(2)
        .map(|(i, _)| u32::try_from(i).unwrap())
        .unwrap();
    c.pair.hidden.selection.first = Some(Pick {
        event: point,
        vertex: 0,
    });
    h.run();
    let _ = h.get_by_label_contains("f32 a in f64: closest v vertex 0");
    let _ = h.get_by_label_contains("ULPs f64 − f32: x -1, y +0, z +0");
    // Both series share each plot, named by recording (the legend).
    assert!(h.query_all_by_label_contains("f32: upper bound").count() >= 1);
    assert!(h.query_all_by_label_contains("f64: upper bound").count() >= 1);
}

/// The inspector over `session` alone.
fn inspector_harness(session: Session) -> Harness<'static, Session> {
    Harness::builder()
        .with_size(egui::vec2(700.0, 900.0))
        .build_ui_state(
            |ui, session: &mut Session| {
                let _ = Inspector {
                    session,
                    pair: None,
                }
                .ui(ui);
            },
            session,
        )
}

/// At a query's end the inspector shows the answer and, under it, what
/// the query proved: the status, the interval with its gap, the normal's
/// bound, the evaluations — the numbers the caller got.
#[test]
fn the_inspector_shows_the_answers_certificate() {
    use cspace::{Placed, Pose, Shape, epa};
    use glam::{DQuat, DVec3};
    let bx = Shape::cuboid(DVec3::new(1.0, 1.0, 1.0));
    let small = Shape::cuboid(DVec3::new(0.5, 0.5, 0.5));
    let a = Placed::new(&bx, Pose::new(DVec3::ZERO, DQuat::IDENTITY));
    let b = Placed::new(
        &small,
        Pose::new(DVec3::new(1.2, 0.0, 0.0), DQuat::IDENTITY),
    );
    let (p, r) = rec::record(|| epa::penetration(&a, &b));
    let mut session = Session::new(Trace::from_bytes(&r.bytes), "epa");
    session.command(cspace_viewer::state::timeline::Command::Last);
    let mut h = inspector_harness(session);
    h.run();
    let _ = h.get_by_label("answer (penetration)");
    let _ = h.get_by_label(&format!("certificate: {}", p.status.name()));
    let upper = cspace_viewer::state::inspect::sig17(p.upper_bound);
    let _ = h.get_by_label_contains(&format!("upper = {upper}"));
    let _ = h.get_by_label_contains("  gap = ");
    let _ = h.get_by_label_contains(&format!("normal within {:.3e} rad", p.normal_within));
    let _ = h.get_by_label(&format!("  {} support evaluations", p.iterations));
    assert!(p.normal_within < 1e-7, "one least direction: {p:?}");
}
