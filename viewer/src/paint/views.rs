//! The central area: the configuration-space and object-space views side by
//! side (or the two recordings' configuration spaces), with their "Frame
//! all" row. Drags orbit, pan and zoom the cameras and clicks select points;
//! in the sandbox a modified drag in object space is reported as an
//! [`Edit`] for the app to apply.

use super::{BACKGROUND, build_frame};
use crate::state::pair::Pair;
use crate::state::sandbox::{Edit, Grab, Side};
use crate::state::scene::Pick;
use crate::state::session::{Session, View};
use egui::{Align2, Color32, FontId, Sense, Vec2, vec2};

/// Draws the two 3D views side by side (with their Frame all / Link views
/// row). `pair` is the comparison, if any (its hidden recording can be drawn
/// on the right); `sandbox` says whether modified drags move the sandbox's
/// shapes. Returns that move, if the user dragged one.
pub fn views(
    ui: &mut egui::Ui,
    session: &mut Session,
    mut pair: Option<&mut Pair>,
    sandbox: bool,
) -> Option<Edit> {
    let full = ui.available_size();
    ui.horizontal(|ui| {
        if ui.button("Frame all").clicked() {
            session.frame_all(View::Config);
            session.frame_all(View::Object);
        }
        ui.checkbox(&mut session.linked, "Link views");
        if let Some(p) = pair.as_deref_mut() {
            ui.checkbox(&mut p.side_by_side, "Side by side").on_hover_text(
                "the other recording's configuration space on the right, same camera",
            );
        }
        ui.weak("(?)").on_hover_text(
            "drag: orbit · right/middle or shift drag: pan · scroll: zoom · double-click: frame all · click: select (two for ULPs) · sandbox (object space): Ctrl+drag moves B, Alt+drag moves A, Ctrl+Shift+drag moves a sweep's motion",
        );
    });
    let avail = vec2(full.x, ui.available_height());
    let w = (avail.x - ui.spacing().item_spacing.x) / 2.0;
    let mut hovered = None;
    let mut edit = None;
    let size = vec2(w.max(10.0), avail.y.max(10.0));
    let side_by_side = pair.as_ref().is_some_and(|p| p.side_by_side);
    let shown_name = pair.as_ref().map(|p| p.names[p.showing as usize].clone());
    ui.horizontal(|ui| {
        let config = view_ui(
            ui,
            session,
            View::Config,
            size,
            shown_name.as_deref(),
            false,
        );
        hovered = hovered.or(config.0);
        match pair {
            Some(p) if side_by_side => other_view(ui, session, p, size),
            Some(p) => {
                // The other pane is not drawn: nothing there is hovered.
                p.hidden.selection.hovered = None;
                let (h, e) = view_ui(ui, session, View::Object, size, None, sandbox);
                if h.is_some() {
                    hovered = h;
                }
                edit = e;
            }
            None => {
                let (h, e) = view_ui(ui, session, View::Object, size, None, sandbox);
                if h.is_some() {
                    hovered = h;
                }
                edit = e;
            }
        }
    });
    session.selection.hovered = hovered;
    edit
}

/// Paints a view's background and title.
fn backdrop(painter: &egui::Painter, rect: egui::Rect, title: String) {
    painter.rect_filled(rect, 4.0, BACKGROUND);
    painter.text(
        rect.left_top() + vec2(8.0, 6.0),
        Align2::LEFT_TOP,
        title,
        FontId::proportional(14.0),
        Color32::GRAY,
    );
}

/// Paints a built frame's shapes and labels.
fn paint_frame(painter: &egui::Painter, frame: super::Frame) -> Vec<(Pick, egui::Pos2)> {
    painter.extend(frame.shapes);
    for (pos, text, color) in frame.labels {
        painter.text(
            pos,
            Align2::LEFT_TOP,
            text,
            FontId::proportional(11.0),
            color,
        );
    }
    frame.picks
}

/// Draws the configuration space of the recording not shown, through the
/// shown configuration-space camera (orbit the left view to turn both).
/// Its points hover and select like the shown view's (into the other
/// recording's selection; the inspector compares them with the shown one).
fn other_view(ui: &mut egui::Ui, session: &Session, pair: &mut Pair, size: Vec2) {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    let config = View::Config as usize;
    pair.hidden.cameras[config] = session.cameras[config];
    let painter = ui.painter_at(rect);
    let other = 1 - pair.showing as usize;
    backdrop(
        &painter,
        rect,
        format!("configuration space  A − B · {}", pair.names[other]),
    );
    let picks = paint_frame(&painter, build_frame(&mut pair.hidden, View::Config, rect));
    let hover = nearest_pick(&picks, response.hover_pos());
    pair.hidden.selection.hovered = hover;
    if response.clicked()
        && let Some(p) = hover
    {
        pair.hidden.selection.click(p);
    }
    if let Some(p) = hover {
        response.on_hover_text(format!(
            "{}: {}",
            pair.names[other],
            p.name(&pair.hidden.trace)
        ));
    }
}

/// The pick within 10 points of the mouse, nearest first.
fn nearest_pick(picks: &[(Pick, egui::Pos2)], mouse: Option<egui::Pos2>) -> Option<Pick> {
    let m = mouse?;
    picks
        .iter()
        .map(|(p, pos)| (*p, pos.distance(m)))
        .filter(|(_, d)| *d < 10.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(p, _)| p)
}

/// What a modified primary drag in object space moves in the sandbox:
/// Ctrl+drag moves B, Alt+drag moves A, Ctrl+Shift+drag the tip of a
/// sweep's motion.
fn grab(view: View, mods: egui::Modifiers) -> Option<Grab> {
    match (view, mods.command, mods.shift, mods.alt) {
        (View::Object, true, true, _) => Some(Grab::Motion),
        (View::Object, true, false, _) => Some(Grab::Body(Side::B)),
        (View::Object, false, false, true) => Some(Grab::Body(Side::A)),
        _ => None,
    }
}

/// Draws one 3D view (`shown_name`: the shown recording of a comparison, in
/// the configuration-space title); returns the pick under the mouse and the
/// sandbox move a drag asked for (only when `sandbox`).
fn view_ui(
    ui: &mut egui::Ui,
    session: &mut Session,
    view: View,
    size: Vec2,
    shown_name: Option<&str>,
    sandbox: bool,
) -> (Option<Pick>, Option<Edit>) {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    let aspect = f64::from(rect.width() / rect.height().max(1.0));
    if (session.aspect[view as usize] - aspect).abs() > 1e-3 {
        // First layout (or a resize): frame again for the real shape of the view.
        let first = session.aspect[view as usize] == 0.7;
        session.aspect[view as usize] = aspect;
        if first {
            session.frame_all(view);
        }
    }
    let height = rect.height();
    let mut edit = None;
    let grab = grab(view, ui.input(|i| i.modifiers)).filter(|_| sandbox);
    if let Some(target) = grab
        && response.dragged_by(egui::PointerButton::Primary)
    {
        // A still pointer moves nothing (and asks for no re-run).
        let d = response.drag_delta();
        if d != Vec2::ZERO {
            let delta = session.cameras[view as usize]
                .drag_delta(d.x, d.y, height)
                .to_array();
            edit = Some(Edit::Move(target, delta));
        }
    } else if response.dragged_by(egui::PointerButton::Primary) && !ui.input(|i| i.modifiers.shift)
    {
        let d = response.drag_delta();
        session.orbit(view, d.x, d.y);
    } else if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
        || response.dragged_by(egui::PointerButton::Primary)
    {
        let d = response.drag_delta();
        session.pan(view, d.x, d.y, height);
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            session.zoom(view, (scroll * 0.003).exp());
        }
    }
    if response.double_clicked() {
        session.frame_all(view);
    }
    let painter = ui.painter_at(rect);
    let title = match (view, shown_name) {
        (View::Config, Some(name)) => format!("configuration space  A − B · {name}"),
        (View::Config, None) => "configuration space  A − B".to_owned(),
        (View::Object, _) => "object space  A, B".to_owned(),
    };
    backdrop(&painter, rect, title);
    let picks = paint_frame(&painter, build_frame(session, view, rect));
    let hover = nearest_pick(&picks, response.hover_pos());
    if response.clicked()
        && let Some(p) = hover
    {
        session.selection.click(p);
    }
    if let Some(p) = hover {
        response.on_hover_text(p.name(&session.trace));
    }
    (hover, edit)
}
