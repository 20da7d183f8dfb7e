//! The central area: the configuration-space and object-space views side by
//! side (or the two recordings' configuration spaces), with their camera
//! row (frame all, origin, simplex, selection, orthographic). Drags orbit
//! and pan, the wheel zooms toward the cursor, a double-click (or F over a
//! point) centres on it, clicks select points; each view shows a scale bar
//! and places its labels without overlaps. In the sandbox a modified drag in
//! object space is reported as an [`Edit`] for the app to apply.

use super::frame::MAX_AVOIDED_DOTS;
use super::gpu::ViewPaint;
use super::{BACKGROUND, Label, build_frame};
use crate::state::camera::scale_bar;
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
        if ui
            .button("Frame all")
            .on_hover_text("both views: everything drawn (double-click empty space)")
            .clicked()
        {
            session.frame_all(View::Config);
            session.frame_all(View::Object);
        }
        if ui
            .button("Origin")
            .on_hover_text("centre configuration space on the origin, keeping the zoom (O)")
            .clicked()
        {
            session.focus(View::Config, [0.0; 3]);
        }
        if ui
            .button("Simplex")
            .on_hover_text("frame the current simplex with the origin, and its support points (S)")
            .clicked()
        {
            session.frame_simplex();
        }
        let selected = session
            .selection
            .first
            .and_then(|p| p.value(&session.trace).map(|v| (p, v)));
        if ui
            .add_enabled(selected.is_some(), egui::Button::new("Selection"))
            .on_hover_text("centre the view of the first selected point on it (F over a point)")
            .clicked()
            && let Some((pick, v)) = selected
        {
            session.focus(view_of(session, pick), v.to_f64());
        }
        let mut ortho = session.cameras[0].ortho;
        if ui
            .checkbox(&mut ortho, "Ortho")
            .on_hover_text("orthographic projection: parallel lines stay parallel, one scale everywhere")
            .changed()
        {
            session.set_ortho(ortho);
        }
        ui.checkbox(&mut session.linked, "Link views");
        if let Some(p) = pair.as_deref_mut() {
            ui.checkbox(&mut p.side_by_side, "Side by side").on_hover_text(
                "the other recording's configuration space on the right, same camera",
            );
        }
        ui.weak("(?)").on_hover_text(
            "drag: orbit · right/middle or shift drag: pan · scroll: zoom toward the cursor · double-click a point or F: centre on it · double-click empty space: frame all · O: origin · S: simplex · click: select (two for ULPs) · sandbox (object space): Ctrl+drag moves B, Alt+drag moves A, Ctrl+Shift+drag moves a sweep's motion",
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

/// Paints a built frame: its geometry through the GPU (view `key` has its
/// own target), its labels (placed without overlaps, inside `rect`) and a
/// scale bar for `per_pixel`; returns the picks.
fn paint_frame(
    painter: &egui::Painter,
    (rect, key): (egui::Rect, egui::Id),
    frame: super::Frame,
    per_pixel: f64,
) -> Vec<(Pick, egui::Pos2)> {
    painter.add(eframe::egui_wgpu::Callback::new_paint_callback(
        rect,
        ViewPaint {
            key: key.value(),
            geometry: std::sync::Arc::new(frame.geometry),
            size: [rect.width(), rect.height()],
        },
    ));
    for (pos, galley, color) in place_labels(painter, rect, frame.labels, &frame.dots) {
        painter.galley(pos, galley, color);
    }
    if let Some((length, px)) = scale_bar(per_pixel, (rect.width() * 0.25).min(160.0)) {
        let y = rect.bottom() - 12.0;
        let x0 = rect.left() + 12.0;
        let stroke = egui::Stroke::new(1.5, Color32::from_gray(200));
        painter.line_segment([egui::pos2(x0, y), egui::pos2(x0 + px, y)], stroke);
        for x in [x0, x0 + px] {
            painter.line_segment([egui::pos2(x, y - 4.0), egui::pos2(x, y + 1.0)], stroke);
        }
        painter.text(
            egui::pos2(x0 + px + 6.0, y),
            Align2::LEFT_CENTER,
            format!("{length:e}"),
            FontId::proportional(11.0),
            Color32::from_gray(200),
        );
    }
    frame.picks
}

/// Where each label goes: by priority, beside its point (right-above,
/// right-below, left-above, left-below, then farther out), inside `rect`,
/// not over a label already placed and, where there is room, not over a
/// drawn point (`dots`) other than its own; a label with no free place is
/// left out (its point still names itself on hover).
fn place_labels(
    painter: &egui::Painter,
    rect: egui::Rect,
    mut labels: Vec<Label>,
    dots: &[egui::Pos2],
) -> Vec<(egui::Pos2, std::sync::Arc<egui::Galley>, Color32)> {
    let dots = if dots.len() <= MAX_AVOIDED_DOTS {
        dots
    } else {
        &[]
    };
    labels.sort_by_key(|l| l.priority);
    let mut placed: Vec<egui::Rect> = Vec::new();
    let mut named: Vec<(egui::Pos2, String)> = Vec::new();
    let mut out = Vec::new();
    for l in labels {
        // The same name at the same place (two simplices sharing a vertex) once.
        if named
            .iter()
            .any(|(p, t)| *t == l.text && p.distance(l.anchor) < 4.0)
        {
            continue;
        }
        named.push((l.anchor, l.text.clone()));
        let galley = painter.layout_no_wrap(l.text, FontId::proportional(11.0), l.color);
        let size = galley.size();
        let candidates = [
            l.anchor + vec2(6.0, -size.y - 2.0),
            l.anchor + vec2(6.0, 2.0),
            l.anchor + vec2(-size.x - 6.0, -size.y - 2.0),
            l.anchor + vec2(-size.x - 6.0, 2.0),
            l.anchor + vec2(-size.x / 2.0, -size.y - 8.0),
            l.anchor + vec2(-size.x / 2.0, 8.0),
            l.anchor + vec2(12.0, -size.y / 2.0),
            l.anchor + vec2(-size.x - 12.0, -size.y / 2.0),
        ];
        let fits =
            |r: &egui::Rect| rect.contains_rect(*r) && !placed.iter().any(|o| o.intersects(*r));
        // A point's disc is up to 7 points across; its own anchor is not in the way.
        let clear = |r: &egui::Rect| {
            !dots
                .iter()
                .any(|d| d.distance(l.anchor) > 0.5 && r.expand(6.0).contains(*d))
        };
        let rects = candidates.map(|p| egui::Rect::from_min_size(p, size));
        let free = rects
            .iter()
            .find(|r| fits(r) && clear(r))
            .or_else(|| rects[..4].iter().find(|r| fits(r)))
            .copied();
        if let Some(r) = free {
            placed.push(r.expand(1.0));
            out.push((r.min, galley, l.color));
        }
    }
    out
}

/// Which view a pick's point belongs to.
fn view_of(session: &Session, pick: Pick) -> View {
    use crate::state::trace::Entry;
    match session.trace.entries.get(pick.event as usize) {
        Some(Entry::Simplex(_)) if pick.vertex.is_multiple_of(3) => View::Config,
        Some(Entry::Simplex(_)) => View::Object,
        Some(Entry::Draw(k)) => match session.trace.drawables.get(*k as usize).map(|d| d.space) {
            Some(cspace_recorder::Space::Config) => View::Config,
            _ => View::Object,
        },
        _ => View::Config,
    }
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
    let per_pixel = pair.hidden.cameras[config].per_pixel(rect.height());
    let picks = paint_frame(
        &painter,
        (rect, response.id),
        build_frame(
            &mut pair.hidden,
            View::Config,
            rect,
            ui.ctx().pixels_per_point(),
        ),
        per_pixel,
    );
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
            let at = response
                .hover_pos()
                .map_or(Vec2::ZERO, |p| p - rect.center());
            session.zoom_at(view, (scroll * 0.003).exp(), (at.x, at.y), height);
        }
    }
    let painter = ui.painter_at(rect);
    let title = match (view, shown_name) {
        (View::Config, Some(name)) => format!("configuration space  A − B · {name}"),
        (View::Config, None) => "configuration space  A − B".to_owned(),
        (View::Object, _) => "object space  A, B".to_owned(),
    };
    backdrop(&painter, rect, title);
    let per_pixel = session.cameras[view as usize].per_pixel(height);
    let picks = paint_frame(
        &painter,
        (rect, response.id),
        build_frame(session, view, rect, ui.ctx().pixels_per_point()),
        per_pixel,
    );
    let hover = nearest_pick(&picks, response.hover_pos());
    let keys = response.hovered() && !ui.ctx().egui_wants_keyboard_input();
    let focus_key = keys && ui.input(|i| i.key_pressed(egui::Key::F));
    if response.double_clicked() || focus_key {
        // Centre on the point under the mouse; a double-click on nothing frames all.
        match hover.and_then(|p| p.value(&session.trace)) {
            Some(v) => session.focus(view, v.to_f64()),
            None if response.double_clicked() => session.frame_all(view),
            None => {}
        }
    }
    if keys && ui.input(|i| i.key_pressed(egui::Key::O)) {
        session.focus(View::Config, [0.0; 3]);
    }
    if keys && ui.input(|i| i.key_pressed(egui::Key::S)) {
        session.frame_simplex();
    }
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
