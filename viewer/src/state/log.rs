//! The log / scope tree as the log panel shows it: which scopes are
//! collapsed, the search filter, the rows that remain, and what each row
//! says beyond its event (the values a pause ends, the outcome of a scope,
//! the query a group of rows belongs to).
//!
//! A recording with several queries (two or more top-level `Shapes`
//! events) is grouped: each top-level `Shapes` row heads the rows up to the
//! next one, and folds like a scope.

use crate::state::trace::{DESCRIBE_MAX_CHARS, Entry, LogRow, Prim, Trace, clip};
use cspace_recorder::Space;
use std::collections::HashSet;

/// How far back a pause's summary looks for values (events).
const SUMMARY_LOOKBACK: usize = 256;
/// The most values a pause's summary lists.
const SUMMARY_PARTS: usize = 6;

/// One row as shown: which log row, at which depth, and whether it folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShownRow {
    /// Index into [`Trace::log`].
    pub row: usize,
    /// Indentation (one more than the recorded depth inside a query group).
    pub depth: u16,
    /// Whether the row heads a scope or query group with rows under it.
    pub folds: bool,
    /// Whether those rows are hidden.
    pub collapsed: bool,
}

/// The log panel's state over one recording.
#[derive(Clone, Debug, Default)]
pub struct LogView {
    /// The search text, as typed (edited in place by the panel).
    pub filter: String,
    /// Events of the collapsed scope and group rows.
    collapsed: HashSet<u32>,
    /// The rows shown, in log order.
    rows: Vec<ShownRow>,
    /// For each log row heading a query group, the first row after the
    /// group; 0 for other rows; empty for a recording of one query.
    group_end: Vec<u32>,
    /// The first group head, if the recording is grouped.
    first_head: Option<usize>,
    /// Whether the rows were built for the current trace, collapse and filter.
    built: bool,
}

impl LogView {
    /// The rows shown (call [`LogView::update`] first after a change).
    #[must_use]
    pub fn rows(&self) -> &[ShownRow] {
        &self.rows
    }

    /// Forgets the rows: the trace changed.
    pub fn invalidate(&mut self) {
        self.built = false;
    }

    /// Collapses an open row, opens a collapsed one.
    pub fn toggle(&mut self, event: u32) {
        if !self.collapsed.remove(&event) {
            self.collapsed.insert(event);
        }
        self.built = false;
    }

    /// Sets the search text.
    pub fn set_filter(&mut self, filter: &str) {
        filter.clone_into(&mut self.filter);
        self.built = false;
    }

    /// Collapses every scope and group, or opens them all.
    pub fn fold_all(&mut self, trace: &Trace, collapse: bool) {
        self.collapsed.clear();
        if collapse {
            self.update(trace);
            for (r, row) in trace.log.iter().enumerate() {
                if self.folds(trace, r) {
                    self.collapsed.insert(row.event);
                }
            }
        }
        self.built = false;
    }

    /// Whether event `event`'s row is collapsed.
    #[must_use]
    pub fn is_collapsed(&self, event: u32) -> bool {
        self.collapsed.contains(&event)
    }

    /// Rebuilds the shown rows if the trace, the collapsed set or the filter changed.
    pub fn update(&mut self, trace: &Trace) {
        if self.built {
            return;
        }
        self.built = true;
        self.group_end = groups(trace);
        self.first_head = self.group_end.iter().position(|&e| e != 0);
        self.rows.clear();
        let needle = self.filter.trim().to_lowercase();
        let mut r = 0;
        while r < trace.log.len() {
            let folds = self.folds(trace, r);
            let collapsed = folds && self.collapsed.contains(&trace.log[r].event);
            let shown = ShownRow {
                row: r,
                depth: self.depth(trace, r),
                folds,
                collapsed,
            };
            if needle.is_empty() {
                self.rows.push(shown);
                r = if collapsed { self.end(trace, r) } else { r + 1 };
            } else {
                // A search shows every match, collapsed or not.
                if self.line(trace, r).to_lowercase().contains(&needle) {
                    self.rows.push(ShownRow {
                        collapsed: false,
                        ..shown
                    });
                }
                r += 1;
            }
        }
    }

    /// The index in [`LogView::rows`] to highlight at cursor `c`: the row
    /// current there, or the collapsed row hiding it (the last shown row at
    /// or before it).
    #[must_use]
    pub fn shown_at(&self, trace: &Trace, c: u32) -> Option<usize> {
        let current = trace.log_row_at(c)?;
        self.rows
            .partition_point(|s| s.row <= current)
            .checked_sub(1)
    }

    /// Everything row `r` says: the event, then its summary (a pause's
    /// values, a scope's outcome, a group's query).
    #[must_use]
    pub fn line(&self, trace: &Trace, r: usize) -> String {
        let Some(row) = trace.log.get(r) else {
            return String::new();
        };
        let head = trace.describe(row.event);
        let extra = match trace.entries.get(row.event as usize) {
            Some(Entry::Pause { .. }) => pause_summary(trace, row.event),
            Some(Entry::Push { .. }) => scope_outcome(trace, r),
            Some(Entry::Shapes(_)) if self.heads_group(r) => {
                let end = self.group_end[r] as usize;
                group_outcome(trace, r, end)
            }
            _ => None,
        };
        match extra {
            Some(extra) => format!("{head} — {extra}"),
            None => head,
        }
    }

    /// Whether row `r` heads a scope or group with rows under it.
    fn folds(&self, trace: &Trace, r: usize) -> bool {
        self.end(trace, r) > r + 1
    }

    /// The first row after row `r`'s subtree (its scope, or its query group).
    fn end(&self, trace: &Trace, r: usize) -> usize {
        if self.heads_group(r) {
            return self.group_end[r] as usize;
        }
        trace.log.get(r).map_or(r + 1, |row| row.end as usize)
    }

    /// Whether row `r` is a top-level `Shapes` row of a grouped recording.
    fn heads_group(&self, r: usize) -> bool {
        self.group_end.get(r).is_some_and(|&e| e != 0)
    }

    /// Row `r`'s indentation: grouped rows sit one level under their head.
    fn depth(&self, trace: &Trace, r: usize) -> u16 {
        let depth = trace.log[r].depth;
        match self.first_head {
            Some(h) if r > h && !self.heads_group(r) => depth.saturating_add(1),
            _ => depth,
        }
    }
}

/// For a recording with two or more top-level `Shapes` rows: for each such
/// row, the first row of the next group (or the end); 0 for every other
/// row. Empty for a recording of one query.
fn groups(trace: &Trace) -> Vec<u32> {
    let heads: Vec<usize> = trace
        .log
        .iter()
        .enumerate()
        .filter(|(_, row)| is_top_shapes(trace, row))
        .map(|(r, _)| r)
        .collect();
    if heads.len() < 2 {
        return Vec::new();
    }
    let mut end = vec![0u32; trace.log.len()];
    for (k, &h) in heads.iter().enumerate() {
        let next = heads.get(k + 1).copied().unwrap_or(trace.log.len());
        end[h] = u32::try_from(next).unwrap_or(u32::MAX);
    }
    end
}

fn is_top_shapes(trace: &Trace, row: &LogRow) -> bool {
    row.depth == 0
        && matches!(
            trace.entries.get(row.event as usize),
            Some(Entry::Shapes(_))
        )
}

/// A number in 7 significant digits (the inspector has all 17).
#[must_use]
pub fn short(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    if !(1e-3..1e5).contains(&a) {
        return format!("{v:.6e}");
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "log10 of [1e-3, 1e5) is in [-3, 5)"
    )]
    let magnitude = a.log10().floor() as i32;
    let decimals = usize::try_from(6 - magnitude).unwrap_or(0);
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    }
}

/// What a pause ends: the values, simplex sizes and configuration-space
/// points' distances from the origin recorded since the previous pause or
/// scope boundary, in that order, as "upper bound = 1.565248, 3 vertices,
/// |closest v| = 0.4876" (the nearest six; earlier ones become "…").
#[must_use]
pub fn pause_summary(trace: &Trace, pause: u32) -> Option<String> {
    let start = pause as usize;
    let mut parts = Vec::new();
    let mut i = start;
    while i > 0 && start - i < SUMMARY_LOOKBACK && parts.len() <= SUMMARY_PARTS {
        i -= 1;
        let part = match trace.entries[i] {
            Entry::Pause { .. } | Entry::Push { .. } | Entry::Pop { .. } => break,
            Entry::Value { .. } => trace.value(i as u32).map(|value| {
                let label = trace.site_of(i as u32).map_or("", |s| s.label.as_str());
                (0, format!("{label} = {}", short(value.to_f64())))
            }),
            Entry::Simplex(k) => trace
                .simplices
                .get(k as usize)
                .map(|s| (1, format!("{} vertices", s.vertices.len()))),
            Entry::Draw(k) => trace.drawables.get(k as usize).and_then(|d| match d.prim {
                Prim::Point(p) if d.space == Space::Config => {
                    let label = trace.site(d.site).label.as_str();
                    // `hypot` keeps a length near f64::MAX from overflowing.
                    let [x, y, z] = p.to_f64();
                    Some((2, format!("|{label}| = {}", short(x.hypot(y).hypot(z)))))
                }
                _ => None,
            }),
            _ => None,
        };
        parts.extend(part);
    }
    if parts.is_empty() {
        return None;
    }
    // The parts nearest the pause matter most: earlier ones become "…".
    let more = parts.len() > SUMMARY_PARTS;
    parts.truncate(SUMMARY_PARTS);
    parts.reverse();
    // Values first, then simplices, then points (stable: in event order within each).
    parts.sort_by_key(|p| p.0);
    let mut text: Vec<String> = parts.into_iter().map(|p| p.1).collect();
    if more {
        text.insert(0, "…".to_owned());
    }
    Some(clip(&text.join(", "), DESCRIBE_MAX_CHARS))
}

/// How scope row `r` ended: the text right after the scope at its own
/// depth (GJK's "terminated: … after 5 iterations" follows its last
/// iteration), else the last text directly inside it.
#[must_use]
pub fn scope_outcome(trace: &Trace, r: usize) -> Option<String> {
    let row = trace.log.get(r)?;
    let end = row.end as usize;
    if let Some(next) = trace.log.get(end)
        && next.depth == row.depth
        && trace.text(next.event).is_some()
    {
        return Some(trace.describe(next.event));
    }
    trace.log[r + 1..end.min(trace.log.len())]
        .iter()
        .rev()
        .find(|x| x.depth == row.depth + 1 && trace.text(x.event).is_some())
        .map(|x| trace.describe(x.event))
}

/// What query group `r..end` found: its last top-level text.
fn group_outcome(trace: &Trace, r: usize, end: usize) -> Option<String> {
    trace.log[r + 1..end.min(trace.log.len())]
        .iter()
        .rev()
        .find(|x| x.depth == 0 && trace.text(x.event).is_some())
        .map(|x| trace.describe(x.event))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::trace::tests::sphere;
    use cspace_recorder as rec;

    /// `queries` GJK-like queries: shapes, two iteration scopes with values
    /// and a simplex, then a termination text after the last scope.
    fn recording(queries: u32) -> Trace {
        let ((), r) = rec::record(|| {
            for q in 0..queries {
                rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 3.0 + f64::from(q)));
                for i in 0..2 {
                    rec::push!("iteration");
                    rec::value!("upper bound", 1.5 - f64::from(i));
                    rec::simplex!(
                        "after reduce",
                        [([1.0f64, 0., 0.], [1.5, 0., 0.], [0.5, 0., 0.])]
                    );
                    rec::point!(cso "closest v", [0.0f64, 3.0, 4.0]);
                    rec::pause!("after reduce");
                    rec::pop!();
                }
                rec::text!("terminated: converged after 2 iterations");
                rec::text!("distance {q}");
            }
        });
        Trace::from_bytes(&r.bytes)
    }

    fn lines(view: &LogView, t: &Trace) -> Vec<String> {
        view.rows()
            .iter()
            .map(|s| {
                let indent = " ".repeat(usize::from(s.depth) * 2);
                let fold = match (s.folds, s.collapsed) {
                    (false, _) => " ",
                    (true, false) => "-",
                    (true, true) => "+",
                };
                format!("{indent}{fold}{}", view.line(t, s.row))
            })
            .collect()
    }

    #[test]
    fn pauses_carry_their_values_and_scopes_their_outcome() {
        let t = recording(1);
        let mut view = LogView::default();
        view.update(&t);
        let l = lines(&view, &t);
        assert_eq!(
            l,
            [
                " shapes sphere vs sphere",
                "-scope iteration",
                "   pause after reduce — upper bound = 1.5, 1 vertices, |closest v| = 5",
                "-scope iteration — terminated: converged after 2 iterations",
                "   pause after reduce — upper bound = 0.5, 1 vertices, |closest v| = 5",
                " terminated: converged after 2 iterations",
                " distance 0",
            ],
            "{l:#?}"
        );
    }

    #[test]
    fn collapsing_hides_the_scope_and_keeps_the_cursor_on_its_row() {
        let t = recording(1);
        let mut view = LogView::default();
        view.update(&t);
        let first_scope = t.log[1].event;
        view.toggle(first_scope);
        view.update(&t);
        let l = lines(&view, &t);
        assert_eq!(l.len(), 6, "{l:#?}");
        assert!(l[1].starts_with("+scope iteration"), "{l:#?}");
        assert!(view.is_collapsed(first_scope));
        // The cursor inside the collapsed scope highlights the scope's row.
        let pause = t.pauses[0];
        assert_eq!(view.shown_at(&t, pause + 1), Some(1));
        // The next scope's pause is its own row again.
        assert_eq!(
            view.rows()[view.shown_at(&t, t.pauses[1] + 1).unwrap()].row,
            4
        );
        view.toggle(first_scope);
        view.update(&t);
        assert_eq!(view.rows().len(), 7);
        view.fold_all(&t, true);
        view.update(&t);
        assert_eq!(lines(&view, &t).len(), 5);
        view.fold_all(&t, false);
        view.update(&t);
        assert_eq!(view.rows().len(), 7);
    }

    #[test]
    fn several_queries_are_grouped_and_fold_as_one() {
        let t = recording(3);
        let mut view = LogView::default();
        view.update(&t);
        let l = lines(&view, &t);
        assert_eq!(l.len(), 21, "{l:#?}");
        assert_eq!(l[0], "-shapes sphere vs sphere — distance 0");
        assert_eq!(l[1], "  -scope iteration");
        assert_eq!(l[7], "-shapes sphere vs sphere — distance 1");
        view.toggle(t.log[7].event);
        view.update(&t);
        let l = lines(&view, &t);
        assert_eq!(l.len(), 15, "{l:#?}");
        assert_eq!(l[7], "+shapes sphere vs sphere — distance 1");
        assert_eq!(l[8], "-shapes sphere vs sphere — distance 2");
    }

    #[test]
    fn the_filter_shows_every_match_even_when_collapsed() {
        let t = recording(3);
        let mut view = LogView::default();
        view.fold_all(&t, true);
        view.set_filter("DISTANCE 2");
        view.update(&t);
        let l = lines(&view, &t);
        // The row itself and its group's head (whose summary says it).
        assert_eq!(l.len(), 2, "{l:#?}");
        assert!(l[1].contains("distance 2"));
        view.set_filter("upper bound = 0.5");
        view.update(&t);
        assert_eq!(view.rows().len(), 3);
        view.set_filter("no such text");
        view.update(&t);
        assert!(view.rows().is_empty());
        assert_eq!(view.shown_at(&t, t.len()), None);
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(1.565_247_584_249_852_8), "1.565248");
        assert_eq!(short(0.5), "0.5");
        assert_eq!(short(1234.5678), "1234.568");
        assert_eq!(short(9.719_104_897_057_136e-11), "9.719105e-11");
        assert_eq!(short(-2.328_688_945_766_648_6), "-2.328689");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(f64::NAN), "NaN");
        assert_eq!(short(5.0), "5");
    }

    #[test]
    fn hostile_logs_stay_short() {
        let ((), r) = rec::record(|| {
            for i in 0..10_000 {
                rec::value!("v", f64::from(i));
            }
            rec::pause!("p");
        });
        let t = Trace::from_bytes(&r.bytes);
        let s = pause_summary(&t, t.pauses[0]).expect("values");
        assert_eq!(
            s,
            "…, v = 9994, v = 9995, v = 9996, v = 9997, v = 9998, v = 9999"
        );
    }
}
