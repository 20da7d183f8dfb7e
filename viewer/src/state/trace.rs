//! A decoded recording, indexed once at load so any cursor position can be
//! shown without replaying the stream.
//!
//! Cursor positions run from 0 to [`Trace::len`]: the state at cursor `c` is
//! what events `0..c` produce. Every drawable gets its visible interval
//! `[born, dies)` in cursor positions at load: it is born just after its event,
//! dies just after the `Pop` that closes its scope, a `Simplex` dies when a
//! site with the same label records the next one (the "after add" and "after
//! reduce" call sites of one label replace each other), and `Shapes` stay
//! until the next `Shapes`.
//!
//! This file holds the tables and what they answer; `trace/build.rs` fills
//! them one event at a time, `trace/load.rs` decodes bytes into it (on a
//! second thread for large streams).

mod build;
mod drawables;
mod load;

use crate::state::interval::IntervalIndex;
use cspace_recorder::{
    Answer, Certificate, CsoVertex, DecodeError, Rgba, Scalar, ShapeDecl, SiteDef, Space, Vec3Data,
};
pub use drawables::Drawables;
use std::collections::HashMap;

/// "No such event": an unclosed scope's pop, a top-level event's parent.
pub const NONE: u32 = u32::MAX;

/// The longest line [`Trace::describe`] returns, in characters.
pub const DESCRIBE_MAX_CHARS: usize = 200;

/// `s` cut to its first line and at most `max` characters, saying how many
/// characters were left out.
#[must_use]
pub fn clip(s: &str, max: usize) -> String {
    let first = s.lines().next().unwrap_or("");
    let kept: String = first.chars().take(max).collect();
    if kept.len() == s.len() {
        return kept;
    }
    let left = s.chars().count() - kept.chars().count();
    format!("{kept} … ({left} more characters)")
}

/// The geometry of a point, line or triangle drawable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Prim {
    /// A point.
    Point(Vec3Data),
    /// A segment.
    Line(Vec3Data, Vec3Data),
    /// A triangle.
    Triangle([Vec3Data; 3]),
}

impl Prim {
    /// The vertices, widened to f64.
    #[must_use]
    pub fn vertices(&self) -> Vec<Vec3Data> {
        match *self {
            Self::Point(p) => vec![p],
            Self::Line(a, b) => vec![a, b],
            Self::Triangle(v) => v.to_vec(),
        }
    }
}

/// A recorded point, line or triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drawable {
    /// Call site (its label names the drawable).
    pub site: u32,
    /// Which view it belongs to.
    pub space: Space,
    /// Its colour, or `None` for the viewer's default.
    pub color: Option<Rgba>,
    /// The geometry.
    pub prim: Prim,
}

/// A recorded simplex.
#[derive(Clone, Debug, PartialEq)]
pub struct SimplexRec {
    /// Call site.
    pub site: u32,
    /// Its vertices with the support points behind them.
    pub vertices: Vec<CsoVertex>,
}

/// A recorded pair of shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapesRec {
    /// Call site.
    pub site: u32,
    /// Shape A.
    pub a: ShapeDecl,
    /// Shape B.
    pub b: ShapeDecl,
    /// A's translation over a sweep.
    pub motion: Option<[f64; 3]>,
}

/// A recorded answer.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerRec {
    /// Call site.
    pub site: u32,
    /// What the query answered.
    pub answer: Answer,
    /// How far it is proven: index into [`Trace::certificates`], from the
    /// certificate event that followed it (before the next query's shapes).
    pub certificate: Option<u32>,
}

/// A recorded certificate.
#[derive(Clone, Debug, PartialEq)]
pub struct CertificateRec {
    /// Call site.
    pub site: u32,
    /// How far the answer before it is proven.
    pub certificate: Certificate,
}

/// One event in compact form; bulky payloads live in side tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Entry {
    /// A call-site definition.
    Site,
    /// A scope opens; `pop` is the event that closes it ([`NONE`] if none does).
    Push {
        /// Call site.
        site: u32,
        /// The matching pop.
        pop: u32,
    },
    /// A scope closes; `push` opened it ([`NONE`] for a stray pop).
    Pop {
        /// Call site.
        site: u32,
        /// The matching push.
        push: u32,
    },
    /// A step.
    Pause {
        /// Call site.
        site: u32,
    },
    /// A log line (its text is [`Trace::text`]).
    Text {
        /// Call site.
        site: u32,
        /// Index of the text.
        text: u32,
    },
    /// A point, line or triangle (index into [`Trace::drawables`]; [`NONE`]
    /// past the 4 billion vertices the tables can index).
    Draw(u32),
    /// A simplex (index into [`Trace::simplices`]).
    Simplex(u32),
    /// A sample of a value series (its value is [`Trace::value`]; the
    /// series is the site's in [`Trace::series`]).
    Value {
        /// Call site.
        site: u32,
        /// Index of the sample among all values.
        value: u32,
    },
    /// The query's shapes (index into [`Trace::shapes`]).
    Shapes(u32),
    /// What the query answered (index into [`Trace::answers`]).
    Answer(u32),
    /// How far the answer is proven (index into [`Trace::certificates`]).
    Certificate(u32),
}

/// One named series of `value!` samples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    /// The series name (the site label).
    pub name: String,
    /// Samples as (step, value): the step is the number of pauses before the sample.
    pub points: Vec<[f64; 2]>,
    /// Event index of each sample.
    pub events: Vec<u32>,
}

/// A row of the log / scope tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// The event the row shows (a push, pause, text or shapes).
    pub event: u32,
    /// Nesting depth.
    pub depth: u16,
    /// The index of the first row after this one's subtree: past the scope's
    /// last row for a push, the next row for any other.
    pub end: u32,
}

/// What a visible item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// Index into [`Trace::drawables`].
    Draw(u32),
    /// Index into [`Trace::simplices`].
    Simplex(u32),
    /// Index into [`Trace::shapes`].
    Shapes(u32),
    /// Index into [`Trace::answers`].
    Answer(u32),
}

/// Which list of the visible set an item goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ItemClass {
    /// A configuration-space point, line or triangle.
    Config,
    /// An object-space point, line or triangle.
    Object,
    /// A simplex.
    Simplex,
    /// A shapes declaration.
    Shapes,
    /// A query's answer.
    Answer,
}

impl ItemClass {
    /// Every class, in the order of their groups in the visible-interval index.
    pub const ALL: [Self; 5] = [
        Self::Config,
        Self::Object,
        Self::Simplex,
        Self::Shapes,
        Self::Answer,
    ];
}

/// A loaded recording with its indexes.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    sites: HashMap<u32, SiteDef>,
    /// Every event, compactly.
    pub entries: Vec<Entry>,
    /// Byte offset of each event in the stream, modulo 2^32 ([`Trace::offset`]).
    offsets: Vec<u32>,
    /// (first event, offset / 2^32) wherever the upper half of the offsets changes.
    offset_highs: Vec<(u32, u32)>,
    /// Innermost enclosing push of each event ([`NONE`] at top level; a pop's is its push).
    pub parent: Vec<u32>,
    /// Log texts, one after the other.
    text_bytes: String,
    /// Where each text ends in `text_bytes`.
    text_ends: Vec<usize>,
    /// Points, lines and triangles.
    pub drawables: Drawables,
    /// Simplices.
    pub simplices: Vec<SimplexRec>,
    /// Shape pairs.
    pub shapes: Vec<ShapesRec>,
    /// Query answers.
    pub answers: Vec<AnswerRec>,
    /// Their certificates.
    pub certificates: Vec<CertificateRec>,
    /// Value series in order of first appearance.
    pub series: Vec<Series>,
    /// Every value sample, in event order.
    values: Vec<Scalar>,
    /// Event indices of the pauses.
    pub pauses: Vec<u32>,
    /// The log / scope tree rows.
    pub log: Vec<LogRow>,
    /// Event indices of the site definitions (which diffs do not count).
    pub site_events: Vec<u32>,
    items: Vec<(u32, ItemKind)>,
    /// Grouped by [`ItemClass`], reporting events.
    visible: IntervalIndex,
    /// Why decoding stopped early, if it did.
    pub error: Option<DecodeError>,
    /// Bytes the valid prefix covers.
    pub valid_len: u64,
}

/// The site returned for an id the stream never defined.
static UNKNOWN_SITE: std::sync::LazyLock<SiteDef> = std::sync::LazyLock::new(|| SiteDef {
    id: NONE,
    file: "?".into(),
    line: 0,
    label: String::new(),
});

impl Trace {
    /// Number of events; cursor positions run from 0 to this.
    #[must_use]
    pub fn len(&self) -> u32 {
        u32::try_from(self.entries.len()).unwrap_or(NONE)
    }

    /// Whether the recording has no events.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The call site with this id (a placeholder for undefined ids).
    #[must_use]
    pub fn site(&self, id: u32) -> &SiteDef {
        self.sites.get(&id).unwrap_or(&UNKNOWN_SITE)
    }

    /// The call site of event `i`.
    #[must_use]
    pub fn site_of(&self, i: u32) -> Option<&SiteDef> {
        let site = match *self.entries.get(i as usize)? {
            Entry::Site => return None,
            Entry::Push { site, .. }
            | Entry::Pop { site, .. }
            | Entry::Pause { site }
            | Entry::Text { site, .. }
            | Entry::Value { site, .. } => site,
            Entry::Answer(k) => self.answers.get(k as usize)?.site,
            Entry::Certificate(k) => self.certificates.get(k as usize)?.site,
            Entry::Draw(k) => self.drawables.get(k as usize)?.site,
            Entry::Simplex(k) => self.simplices.get(k as usize)?.site,
            Entry::Shapes(k) => self.shapes.get(k as usize)?.site,
        };
        Some(self.site(site))
    }

    /// Number of steps (pauses).
    #[must_use]
    pub fn steps(&self) -> u32 {
        u32::try_from(self.pauses.len()).unwrap_or(NONE)
    }

    /// The step at cursor `c`: how many pauses events `0..c` contain.
    #[must_use]
    pub fn step_at(&self, c: u32) -> u32 {
        u32::try_from(self.pauses.partition_point(|&p| p < c)).unwrap_or(NONE)
    }

    /// The cursor position of step `s`: just after its pause (0 for step 0).
    #[must_use]
    pub fn cursor_of_step(&self, s: u32) -> u32 {
        match s {
            0 => 0,
            s => self
                .pauses
                .get(s as usize - 1)
                .map_or(self.len(), |&p| p + 1),
        }
    }

    /// Calls `f(event, kind)` for every item visible at cursor `c` (in no particular order).
    pub fn visible(&self, c: u32, mut f: impl FnMut(u32, ItemKind)) {
        self.visible.query(c, |event| {
            let id = self.items.partition_point(|&(e, _)| e < event);
            if let Some(&(event, kind)) = self.items.get(id) {
                f(event, kind);
            }
        });
    }

    /// Calls `f(event, class)` for every item visible at cursor `c` (class by
    /// class, in no particular order within one).
    pub fn visible_classes(&self, c: u32, mut f: impl FnMut(u32, ItemClass)) {
        for class in ItemClass::ALL {
            self.visible
                .query_group(class as usize, c, |event| f(event, class));
        }
    }

    /// Calls `f(event)` for every item of `class` visible at cursor `c`, in
    /// the order [`Trace::visible_into`] appends them.
    pub fn visible_of(&self, c: u32, class: ItemClass, f: impl FnMut(u32)) {
        self.visible.query_group(class as usize, c, f);
    }

    /// Appends the events of the items of `class` visible at cursor `c` to `out`.
    pub fn visible_into(&self, c: u32, class: ItemClass, out: &mut Vec<u32>) {
        self.visible.extend_group(class as usize, c, out);
    }

    /// [`Trace::visible_into`], also appending each item's index in its table
    /// ([`Trace::drawables`] for the drawables' classes) to `index`.
    pub fn visible_indexed(
        &self,
        c: u32,
        class: ItemClass,
        out: &mut Vec<u32>,
        index: &mut Vec<u32>,
    ) {
        self.visible.extend_group_aux(class as usize, c, out, index);
    }

    /// The visible interval `[born, dies)` of the item recorded by event `i`.
    #[must_use]
    pub fn interval_of(&self, i: u32) -> Option<(u32, u32)> {
        let id = self.items.partition_point(|&(e, _)| e < i);
        match self.items.get(id) {
            Some(&(e, _)) if e == i => self.visible.get(id),
            _ => None,
        }
    }

    /// The index of the log row current at cursor `c` (the last row before it).
    #[must_use]
    pub fn log_row_at(&self, c: u32) -> Option<usize> {
        self.log.partition_point(|r| r.event < c).checked_sub(1)
    }

    /// A one-line description of event `i` for the log and the inspector, at
    /// most [`DESCRIBE_MAX_CHARS`] characters: the first line of a long or
    /// multi-line text, then how much more there is ([`Trace::text`] has it
    /// whole). Hostile recordings hold megabytes of text or labels; drawing
    /// them whole each frame would exhaust memory and the GPU's buffers.
    #[must_use]
    pub fn describe(&self, i: u32) -> String {
        clip(&self.describe_whole(i), DESCRIBE_MAX_CHARS)
    }

    /// The whole text of text event `i` (`None` for other events).
    #[must_use]
    pub fn text(&self, i: u32) -> Option<&str> {
        match *self.entries.get(i as usize)? {
            Entry::Text { text, .. } => {
                let k = text as usize;
                let end = *self.text_ends.get(k)?;
                let start = k.checked_sub(1).map_or(0, |j| self.text_ends[j]);
                self.text_bytes.get(start..end)
            }
            _ => None,
        }
    }

    /// The sample value event `i` recorded (`None` for other events).
    #[must_use]
    pub fn value(&self, i: u32) -> Option<Scalar> {
        match *self.entries.get(i as usize)? {
            Entry::Value { value, .. } => self.values.get(value as usize).copied(),
            _ => None,
        }
    }

    /// The byte offset of event `i`'s frame in the stream.
    #[must_use]
    pub fn offset(&self, i: u32) -> Option<u64> {
        let low = *self.offsets.get(i as usize)?;
        let k = self.offset_highs.partition_point(|&(e, _)| e <= i);
        let high = k.checked_sub(1).map_or(0, |k| self.offset_highs[k].1);
        Some(u64::from(high) << 32 | u64::from(low))
    }

    /// Whether [`Trace::describe`] shortened event `i`.
    #[must_use]
    pub fn is_clipped(&self, i: u32) -> bool {
        self.text(i)
            .is_some_and(|t| t.contains('\n') || t.chars().nth(DESCRIBE_MAX_CHARS).is_some())
    }

    fn describe_whole(&self, i: u32) -> String {
        let Some(entry) = self.entries.get(i as usize) else {
            return String::new();
        };
        let label = self.site_of(i).map_or("", |s| s.label.as_str());
        match *entry {
            Entry::Site => "site definition".into(),
            Entry::Push { .. } => format!("scope {label}"),
            Entry::Pop { .. } => format!("end {label}"),
            Entry::Pause { .. } => format!("pause {label}"),
            Entry::Text { .. } => self.text(i).unwrap_or_default().to_owned(),
            Entry::Draw(k) => {
                let kind = match self.drawables.get(k as usize).map(|d| d.prim) {
                    Some(Prim::Point(_)) => "point",
                    Some(Prim::Line(..)) => "line",
                    _ => "triangle",
                };
                format!("{kind} {label}")
            }
            Entry::Simplex(k) => format!(
                "simplex {label} ({} vertices)",
                self.simplices
                    .get(k as usize)
                    .map_or(0, |s| s.vertices.len())
            ),
            Entry::Value { value, .. } => format!(
                "{label} = {}",
                self.values
                    .get(value as usize)
                    .map_or(f64::NAN, |v| v.to_f64())
            ),
            Entry::Shapes(k) => self.shapes.get(k as usize).map_or_else(
                || "shapes".into(),
                |s| {
                    let swept = if s.motion.is_some() { ", A swept" } else { "" };
                    format!("shapes {} vs {}{swept}", s.a.geom.kind(), s.b.geom.kind())
                },
            ),
            Entry::Answer(k) => self
                .answers
                .get(k as usize)
                .map_or_else(|| "answer".into(), |a| format!("answer: {}", a.answer)),
            Entry::Certificate(k) => self.certificates.get(k as usize).map_or_else(
                || "certificate".into(),
                |c| format!("certificate: {}", c.certificate),
            ),
        }
    }

    /// The position of event `i` among the events a diff compares (site
    /// definitions excluded, as [`cspace_recorder::diff::Divergence::index`] counts).
    #[must_use]
    pub fn compared_index(&self, i: u32) -> usize {
        i as usize - self.site_events.partition_point(|&s| s < i)
    }

    /// The event that is the `index`-th compared event, or `None` past the end.
    #[must_use]
    pub fn event_of_compared(&self, index: usize) -> Option<u32> {
        // The answer is index + (site definitions before it): search for the
        // smallest number of sites k with index + k < next site event.
        let (mut lo, mut hi) = (0usize, self.site_events.len());
        while lo < hi {
            let k = usize::midpoint(lo, hi);
            if (self.site_events[k] as usize) <= index + k {
                lo = k + 1;
            } else {
                hi = k;
            }
        }
        let e = u32::try_from(index + lo).ok()?;
        (e < self.len()).then_some(e)
    }
}

#[cfg(test)]
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use cspace_recorder as rec;
    use cspace_recorder::Event;

    pub(crate) fn sphere(r: f64, x: f64) -> ShapeDecl {
        ShapeDecl {
            geom: rec::ShapeGeom::Sphere { radius: r },
            margin: 0.0,
            position: [x, 0.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }
    }

    pub(crate) fn sample() -> Vec<u8> {
        let ((), recording) = rec::record(|| {
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 3.0));
            rec::point!("top", [0.0f64, 0.0, 0.0]);
            for i in 0..3 {
                rec::push!("iteration");
                rec::point!(cso "w", [f64::from(i), 0.0, 0.0], rec::Rgba::RED);
                rec::simplex!(
                    "simplex",
                    [([f64::from(i), 0., 0.], [1.5, 0., 0.], [0.5, 0., 0.])]
                );
                rec::value!("upper", f64::from(3 - i));
                rec::text!("iteration {}", i);
                rec::pause!("after add");
                rec::pop!();
            }
        });
        recording.bytes
    }

    pub(crate) fn kinds(t: &Trace, c: u32) -> Vec<(u32, ItemKind)> {
        let mut v = Vec::new();
        t.visible(c, |e, k| v.push((e, k)));
        v.sort_by_key(|x| x.0);
        v
    }

    #[test]
    fn scopes_simplices_and_shapes() {
        let t = Trace::from_bytes(&sample());
        assert!(t.error.is_none());
        assert_eq!(t.steps(), 3);
        assert_eq!(t.series.len(), 1);
        assert_eq!(t.series[0].name, "upper");
        assert_eq!(t.series[0].points, vec![[0.0, 3.0], [1.0, 2.0], [2.0, 1.0]]);
        let p0 = t.pauses[0];
        let at = kinds(&t, p0 + 1);
        // shapes, top point, the iteration's point and simplex.
        assert_eq!(at.len(), 4, "{at:?}");
        // After the first pop only the shapes and the top-level point remain.
        let Entry::Push { pop, .. } = t.entries[t.parent[p0 as usize] as usize] else {
            panic!("pause not in a push");
        };
        assert_eq!(kinds(&t, pop + 1).len(), 2);
        // At the end too.
        assert_eq!(kinds(&t, t.len()).len(), 2);
        assert!(kinds(&t, 0).is_empty());
        assert_eq!(t.step_at(0), 0);
        assert_eq!(t.step_at(p0 + 1), 1);
        assert_eq!(t.cursor_of_step(1), p0 + 1);
        assert_eq!(t.cursor_of_step(99), t.len());
        assert_eq!(t.site_of(p0).map(|s| s.label.as_str()), Some("after add"));
        assert!(t.describe(p0).contains("after add"));
        assert!(t.log_row_at(0).is_none());
    }

    fn certified(status: &str) -> rec::Certificate {
        rec::Certificate {
            status: status.into(),
            iterations: 3,
            bounds: Some([Scalar::F64(0.5), Scalar::F64(0.5)]),
            witness: None,
            normal_within: None,
        }
    }

    /// A certificate belongs to the answer before it: the first one after
    /// that answer, and not past the next query's shapes.
    #[test]
    fn certificates_attach_to_the_answer_before_them() {
        let answer = || {
            rec::answer!(rec::Answer::Intersect {
                intersecting: true,
                axis: None,
            });
        };
        let ((), r) = rec::record(|| {
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 1.0));
            answer();
            rec::certificate!(certified("converged"));
            rec::certificate!(certified("a second one"));
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 1.0));
            answer();
            rec::shapes!(sphere(1.0, 0.0), sphere(0.5, 1.0));
            rec::certificate!(certified("after new shapes"));
        });
        let t = Trace::from_bytes(&r.bytes);
        assert!(t.error.is_none());
        assert_eq!(t.certificates.len(), 3);
        let attached: Vec<Option<&str>> = t
            .answers
            .iter()
            .map(|a| {
                a.certificate
                    .map(|c| t.certificates[c as usize].certificate.status.as_str())
            })
            .collect();
        assert_eq!(attached, [Some("converged"), None]);
        let row = (0..t.len())
            .find(|&e| matches!(t.entries[e as usize], Entry::Certificate(0)))
            .expect("a certificate entry");
        assert_eq!(
            t.describe(row),
            "certificate: converged | in [0.5, 0.5] (gap 0) | 3 support evaluations"
        );
        assert_eq!(
            t.site_of(row).map(|s| s.label.as_str()),
            Some("certificate")
        );
    }

    #[test]
    fn simplex_replaced_by_same_site() {
        let ((), recording) = rec::record(|| {
            rec::simplex!("s", [([1.0f64, 0., 0.], [1., 0., 0.], [0., 0., 0.])]);
            rec::simplex!("s", [([2.0f64, 0., 0.], [2., 0., 0.], [0., 0., 0.])]);
            rec::simplex!("other", [([3.0f64, 0., 0.], [3., 0., 0.], [0., 0., 0.])]);
        });
        let t = Trace::from_bytes(&recording.bytes);
        let simplices: Vec<u32> = kinds(&t, t.len())
            .into_iter()
            .filter_map(|(_, k)| match k {
                ItemKind::Simplex(s) => Some(s),
                _ => None,
            })
            .collect();
        assert_eq!(simplices, vec![1, 2]);
    }

    #[test]
    fn stray_pops_and_undefined_sites_do_not_panic() {
        let events = vec![
            Event::Pop { site: 7 },
            Event::Push { site: 99 },
            Event::Value {
                site: 5,
                value: Scalar::F32(1.5),
            },
        ];
        let bytes = rec::stream::encode_stream(&events);
        let t = Trace::from_bytes(&bytes);
        assert_eq!(t.len(), 3);
        assert_eq!(t.site(99).file, "?");
        assert_eq!(t.series[0].name, "site 5");
        assert_eq!(
            t.entries[1],
            Entry::Push {
                site: 99,
                pop: NONE
            }
        );
        for i in 0..4 {
            let _ = t.describe(i);
        }
    }

    #[test]
    fn long_texts_and_labels_are_clipped_to_one_short_line() {
        let huge = "x".repeat(4 << 20);
        let ((), r) = cspace_recorder::record(|| {
            cspace_recorder::text!("{huge}");
            cspace_recorder::text!("two\nlines");
            cspace_recorder::text!("short");
        });
        let t = Trace::from_decoded(cspace_recorder::decode(&r.bytes));
        let texts: Vec<u32> = (0..t.len()).filter(|&i| t.text(i).is_some()).collect();
        assert_eq!(texts.len(), 3);
        let d = t.describe(texts[0]);
        assert!(d.chars().count() < DESCRIBE_MAX_CHARS + 40, "{}", d.len());
        assert!(
            d.ends_with(&format!(
                "({} more characters)",
                (4 << 20) - DESCRIBE_MAX_CHARS
            )),
            "{d}"
        );
        assert!(t.is_clipped(texts[0]) && t.is_clipped(texts[1]) && !t.is_clipped(texts[2]));
        assert_eq!(t.text(texts[0]).map(str::len), Some(4 << 20));
        assert_eq!(t.describe(texts[1]), "two … (6 more characters)");
        assert_eq!(t.describe(texts[2]), "short");
    }
}
