//! Compare two recordings event by event and find where they first diverge.
//!
//! Recordings are aligned by event order, ignoring site definitions (so a
//! change that only moves code to other lines is not a divergence: events are
//! matched by kind and label, not by line). Floats are compared in ULPs; when
//! one recording is f32 and the other f64 (the same query in both precisions)
//! the f64 value is rounded to f32 and compared in f32 ULPs, so the report
//! shows the step where f32 leaves f64. Texts are compared only when both
//! recordings have the same precision, since they print numbers.

use crate::{Answer, Certificate, Decoded, Event, Located, Precision, Scalar, ShapeDecl, Vec3Data};
use std::fmt;

/// A recording aligned for comparison: its events without site definitions, each with its label.
#[derive(Debug, Clone)]
pub struct Aligned<'a> {
    events: Vec<(&'a Located, &'a str)>,
    precision: Option<Precision>,
}

impl<'a> Aligned<'a> {
    /// Prepares a decoded recording for comparison.
    #[must_use]
    pub fn new(decoded: &'a Decoded) -> Self {
        let mut out = Vec::with_capacity(decoded.events.len());
        let mut precision = None;
        for l in &decoded.events {
            if matches!(l.event, Event::Site(_)) {
                continue;
            }
            if precision.is_none() {
                precision = event_precision(&l.event);
            }
            out.push((l, decoded.label(l.event.site())));
        }
        Self {
            events: out,
            precision,
        }
    }

    /// Events compared (site definitions excluded).
    #[must_use]
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether there is nothing to compare.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

fn event_precision(e: &Event) -> Option<Precision> {
    match e {
        Event::Point { p, .. } => Some(p.precision()),
        Event::Line { a, .. } => Some(a.precision()),
        Event::Triangle { v, .. } => Some(v[0].precision()),
        Event::Simplex { vertices, .. } => vertices.first().map(|v| v.w.precision()),
        Event::Value { value, .. } => Some(match value {
            Scalar::F32(_) => Precision::F32,
            Scalar::F64(_) => Precision::F64,
        }),
        _ => None,
    }
}

/// What differs at the first divergence.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// The events are of different kinds.
    Kind {
        /// Kind in A.
        a: &'static str,
        /// Kind in B.
        b: &'static str,
    },
    /// Same kind, different labels (different call sites).
    Label {
        /// Label in A.
        a: String,
        /// Label in B.
        b: String,
    },
    /// One recording ends before the other.
    Count {
        /// Events in A.
        a: usize,
        /// Events in B.
        b: usize,
    },
    /// A list inside the event (simplex vertices, hull points) has a different length.
    Length {
        /// Which list.
        field: String,
        /// Length in A.
        a: usize,
        /// Length in B.
        b: usize,
    },
    /// A float differs by more than the tolerance.
    Value {
        /// Which value, e.g. `p.y` or `vertices[2].w.x`.
        field: String,
        /// Value in A (widened to f64).
        a: f64,
        /// Value in B (widened to f64).
        b: f64,
        /// Distance in units in the last place (of the coarser precision).
        ulps: u64,
    },
    /// Texts differ.
    Text {
        /// Text in A.
        a: String,
        /// Text in B.
        b: String,
    },
}

/// The first place two recordings differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// Pause steps completed in A before the divergent event (the viewer's step).
    pub step: usize,
    /// Index of the event among A's compared events (site definitions excluded).
    pub index: usize,
    /// Byte offset of the event in A, if A has it.
    pub offset_a: Option<u64>,
    /// Byte offset of the event in B, if B has it.
    pub offset_b: Option<u64>,
    /// The label of A's event (or B's when A ended).
    pub label: String,
    /// What differs.
    pub difference: Difference,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = |o: Option<u64>| o.map_or_else(|| "end".to_owned(), |o| format!("byte {o}"));
        write!(
            f,
            "first divergence at step {} (event {}, A {}, B {}) {:?}: ",
            self.step,
            self.index,
            at(self.offset_a),
            at(self.offset_b),
            self.label
        )?;
        match &self.difference {
            Difference::Kind { a, b } => write!(f, "event kind {a} vs {b}"),
            Difference::Label { a, b } => write!(f, "label {a:?} vs {b:?}"),
            Difference::Count { a, b } => write!(f, "A has {a} events, B has {b}"),
            Difference::Length { field, a, b } => write!(f, "{field} has {a} entries vs {b}"),
            Difference::Value { field, a, b, ulps } => {
                let ulps = if *ulps == u64::MAX {
                    "NaN vs number".to_owned()
                } else {
                    format!("{ulps} ulps")
                };
                write!(
                    f,
                    "{field} = {a:?} vs {b:?} ({ulps}, |Δ| = {:e})",
                    (a - b).abs()
                )
            }
            Difference::Text { a, b } => write!(f, "text {a:?} vs {b:?}"),
        }
    }
}

/// The signed number of representable values from `a` to `b` (`b − a`): in
/// f32 units when both are f32, else in f64 units (f32 widened exactly); 0 for
/// +0 against −0, `None` when either is NaN. The one ULP distance of the
/// project: `cspace diff`, the viewer's inspector and pairs use it.
#[must_use]
pub fn ulp_difference(a: Scalar, b: Scalar) -> Option<i128> {
    // Bits mapped to integers that order like the floats (−0 = +0).
    fn key64(x: f64) -> i128 {
        let bits = x.to_bits().cast_signed();
        i128::from(if bits < 0 { i64::MIN - bits } else { bits })
    }
    fn key32(x: f32) -> i128 {
        let bits = x.to_bits().cast_signed();
        i128::from(if bits < 0 { i32::MIN - bits } else { bits })
    }
    match (a, b) {
        (Scalar::F32(x), Scalar::F32(y)) if !x.is_nan() && !y.is_nan() => Some(key32(y) - key32(x)),
        _ => {
            let (x, y) = (a.to_f64(), b.to_f64());
            (!x.is_nan() && !y.is_nan()).then(|| key64(y) - key64(x))
        }
    }
}

/// Distance between two values in units in the last place: `u64::MAX` when
/// exactly one is NaN, 0 for two NaNs and for +0 vs −0.
fn ulps(a: Scalar, b: Scalar) -> u64 {
    match ulp_difference(a, b) {
        Some(d) => d.unsigned_abs().min(u128::from(u64::MAX)) as u64,
        None if a.to_f64().is_nan() && b.to_f64().is_nan() => 0,
        None => u64::MAX,
    }
}

/// Distance between two f64 values in units in the last place (see [`ulp_difference`]).
#[must_use]
pub fn ulps_f64(a: f64, b: f64) -> u64 {
    ulps(Scalar::F64(a), Scalar::F64(b))
}

/// Distance between two f32 values in f32 units in the last place.
#[must_use]
pub fn ulps_f32(a: f32, b: f32) -> u64 {
    ulps(Scalar::F32(a), Scalar::F32(b))
}

struct Cmp {
    max_ulps: u64,
    coarse_f32: bool,
}

impl Cmp {
    fn scalar(&self, field: &str, a: Scalar, b: Scalar) -> Option<Difference> {
        let ulps = match (a, b) {
            (Scalar::F64(x), Scalar::F64(y)) if !self.coarse_f32 => ulps_f64(x, y),
            _ => ulps_f32(a.to_f64() as f32, b.to_f64() as f32),
        };
        (ulps > self.max_ulps).then(|| Difference::Value {
            field: field.to_owned(),
            a: a.to_f64(),
            b: b.to_f64(),
            ulps,
        })
    }

    fn float(&self, field: &str, a: f64, b: f64) -> Option<Difference> {
        self.scalar(field, Scalar::F64(a), Scalar::F64(b))
    }

    fn vec(&self, field: &str, a: Vec3Data, b: Vec3Data) -> Option<Difference> {
        let (a, b) = (to_scalars(a), to_scalars(b));
        ["x", "y", "z"]
            .iter()
            .enumerate()
            .find_map(|(i, c)| self.scalar(&format!("{field}.{c}"), a[i], b[i]))
    }

    fn f64s(&self, field: &str, a: &[f64], b: &[f64]) -> Option<Difference> {
        if a.len() != b.len() {
            return Some(Difference::Length {
                field: field.to_owned(),
                a: a.len(),
                b: b.len(),
            });
        }
        a.iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| self.float(&format!("{field}[{i}]"), *x, *y))
    }

    fn decl(&self, field: &str, a: &ShapeDecl, b: &ShapeDecl) -> Option<Difference> {
        let (ga, gb) = (a.geom.numbers(), b.geom.numbers());
        if a.geom.kind() != b.geom.kind() {
            return Some(Difference::Text {
                a: format!("{field}: {:?}", a.geom),
                b: format!("{field}: {:?}", b.geom),
            });
        }
        self.f64s(&format!("{field}.geom"), &ga, &gb)
            .or_else(|| self.float(&format!("{field}.margin"), a.margin, b.margin))
            .or_else(|| self.f64s(&format!("{field}.position"), &a.position, &b.position))
            .or_else(|| self.f64s(&format!("{field}.rotation"), &a.rotation, &b.rotation))
    }
}

fn to_scalars(v: Vec3Data) -> [Scalar; 3] {
    match v {
        Vec3Data::F32(v) => v.map(Scalar::F32),
        Vec3Data::F64(v) => v.map(Scalar::F64),
    }
}

fn compare_events(cmp: &Cmp, a: &Event, b: &Event, texts: bool) -> Option<Difference> {
    match (a, b) {
        (Event::Point { p: pa, .. }, Event::Point { p: pb, .. }) => cmp.vec("p", *pa, *pb),
        (Event::Line { a: a0, b: a1, .. }, Event::Line { a: b0, b: b1, .. }) => {
            cmp.vec("a", *a0, *b0).or_else(|| cmp.vec("b", *a1, *b1))
        }
        (Event::Triangle { v: va, .. }, Event::Triangle { v: vb, .. }) => {
            (0..3).find_map(|i| cmp.vec(&format!("v[{i}]"), va[i], vb[i]))
        }
        (Event::Simplex { vertices: va, .. }, Event::Simplex { vertices: vb, .. }) => {
            if va.len() != vb.len() {
                return Some(Difference::Length {
                    field: "vertices".into(),
                    a: va.len(),
                    b: vb.len(),
                });
            }
            va.iter().zip(vb).enumerate().find_map(|(i, (x, y))| {
                cmp.vec(&format!("vertices[{i}].w"), x.w, y.w)
                    .or_else(|| cmp.vec(&format!("vertices[{i}].a"), x.a, y.a))
                    .or_else(|| cmp.vec(&format!("vertices[{i}].b"), x.b, y.b))
            })
        }
        (Event::Value { value: x, .. }, Event::Value { value: y, .. }) => {
            cmp.scalar("value", *x, *y)
        }
        (Event::Text { text: x, .. }, Event::Text { text: y, .. }) => {
            (texts && x != y).then(|| Difference::Text {
                a: x.clone(),
                b: y.clone(),
            })
        }
        (
            Event::Shapes {
                a: aa,
                b: ab,
                motion: am,
                ..
            },
            Event::Shapes {
                a: ba,
                b: bb,
                motion: bm,
                ..
            },
        ) => cmp
            .decl("a", aa, ba)
            .or_else(|| cmp.decl("b", ab, bb))
            .or_else(|| match (am, bm) {
                (Some(x), Some(y)) => cmp.f64s("motion", x, y),
                (None, None) => None,
                _ => Some(Difference::Length {
                    field: "motion".into(),
                    a: usize::from(am.is_some()),
                    b: usize::from(bm.is_some()),
                }),
            }),
        (Event::Answer { answer: x, .. }, Event::Answer { answer: y, .. }) => {
            compare_answers(cmp, x, y)
        }
        (Event::Certificate { certificate: x, .. }, Event::Certificate { certificate: y, .. }) => {
            compare_certificates(cmp, x, y)
        }
        _ => None,
    }
}

fn compare_certificates(cmp: &Cmp, x: &Certificate, y: &Certificate) -> Option<Difference> {
    let text = |field: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        let (a, b) = (format!("{field}: {a:?}"), format!("{field}: {b:?}"));
        (a != b).then_some(Difference::Text { a, b })
    };
    let present = |field: &str, a: bool, b: bool| {
        (a != b).then(|| Difference::Length {
            field: field.into(),
            a: usize::from(a),
            b: usize::from(b),
        })
    };
    text("status", &x.status, &y.status)
        .or_else(|| text("iterations", &x.iterations, &y.iterations))
        .or_else(|| match (&x.bounds, &y.bounds) {
            (Some([l0, u0]), Some([l1, u1])) => cmp
                .scalar("bounds.lower", *l0, *l1)
                .or_else(|| cmp.scalar("bounds.upper", *u0, *u1)),
            (a, b) => present("bounds", a.is_some(), b.is_some()),
        })
        .or_else(|| text("witness", &x.witness, &y.witness))
        .or_else(|| match (&x.normal_within, &y.normal_within) {
            (Some(a), Some(b)) => cmp.scalar("normal_within", *a, *b),
            (a, b) => present("normal_within", a.is_some(), b.is_some()),
        })
}

fn compare_answers(cmp: &Cmp, x: &Answer, y: &Answer) -> Option<Difference> {
    let flag = |field: &str, a: bool, b: bool| {
        (a != b).then(|| Difference::Text {
            a: format!("{field}: {a}"),
            b: format!("{field}: {b}"),
        })
    };
    match (x, y) {
        (
            Answer::Distance {
                distance: d0,
                point_a: a0,
                point_b: b0,
                normal: n0,
            },
            Answer::Distance {
                distance: d1,
                point_a: a1,
                point_b: b1,
                normal: n1,
            },
        ) => cmp
            .scalar("distance", *d0, *d1)
            .or_else(|| cmp.vec("point_a", *a0, *a1))
            .or_else(|| cmp.vec("point_b", *b0, *b1))
            .or_else(|| cmp.vec("normal", *n0, *n1)),
        (
            Answer::Penetration {
                depth: d0,
                normal: n0,
                point_a: a0,
                point_b: b0,
            },
            Answer::Penetration {
                depth: d1,
                normal: n1,
                point_a: a1,
                point_b: b1,
            },
        ) => cmp
            .scalar("depth", *d0, *d1)
            .or_else(|| cmp.vec("normal", *n0, *n1))
            .or_else(|| cmp.vec("point_a", *a0, *a1))
            .or_else(|| cmp.vec("point_b", *b0, *b1)),
        (
            Answer::Sweep {
                hit: h0,
                toi: t0,
                normal: n0,
                point: p0,
                position_a: q0,
            },
            Answer::Sweep {
                hit: h1,
                toi: t1,
                normal: n1,
                point: p1,
                position_a: q1,
            },
        ) => flag("hit", *h0, *h1)
            .or_else(|| cmp.scalar("toi", *t0, *t1))
            .or_else(|| cmp.vec("normal", *n0, *n1))
            .or_else(|| cmp.vec("point", *p0, *p1))
            .or_else(|| cmp.vec("position_a", *q0, *q1)),
        (
            Answer::Intersect {
                intersecting: i0,
                axis: x0,
            },
            Answer::Intersect {
                intersecting: i1,
                axis: x1,
            },
        ) => flag("intersecting", *i0, *i1).or_else(|| match (x0, x1) {
            (Some(a), Some(b)) => cmp.vec("axis", *a, *b),
            (None, None) => None,
            _ => Some(Difference::Length {
                field: "axis".into(),
                a: usize::from(x0.is_some()),
                b: usize::from(x1.is_some()),
            }),
        }),
        _ => Some(Difference::Text {
            a: format!("answer: {}", x.kind()),
            b: format!("answer: {}", y.kind()),
        }),
    }
}

/// Finds the first divergence between two recordings, or `None` when every
/// event matches in kind and label and every float is within `max_ulps`.
#[must_use]
pub fn first_divergence(a: &Aligned<'_>, b: &Aligned<'_>, max_ulps: u64) -> Option<Divergence> {
    let mixed = a.precision.is_some() && b.precision.is_some() && a.precision != b.precision;
    let cmp = Cmp {
        max_ulps,
        coarse_f32: mixed,
    };
    let mut step = 0;
    for index in 0..a.len().max(b.len()) {
        let (ea, eb) = (a.events.get(index), b.events.get(index));
        let (Some(&(la, label_a)), Some(&(lb, label_b))) = (ea, eb) else {
            return Some(Divergence {
                step,
                index,
                offset_a: ea.map(|e| e.0.offset),
                offset_b: eb.map(|e| e.0.offset),
                label: ea.or(eb).map_or(String::new(), |e| e.1.to_owned()),
                difference: Difference::Count {
                    a: a.len(),
                    b: b.len(),
                },
            });
        };
        let diverge = |difference| Divergence {
            step,
            index,
            offset_a: Some(la.offset),
            offset_b: Some(lb.offset),
            label: label_a.to_owned(),
            difference,
        };
        if la.event.kind() != lb.event.kind() {
            return Some(diverge(Difference::Kind {
                a: la.event.kind().name(),
                b: lb.event.kind().name(),
            }));
        }
        if label_a != label_b {
            return Some(diverge(Difference::Label {
                a: label_a.to_owned(),
                b: label_b.to_owned(),
            }));
        }
        if let Some(d) = compare_events(&cmp, &la.event, &lb.event, !mixed) {
            return Some(diverge(d));
        }
        if matches!(la.event, Event::Pause { .. }) {
            step += 1;
        }
    }
    None
}

// The recordings compared here need the macros compiled in.
#[cfg(all(test, feature = "enabled"))]
mod tests {
    use super::*;
    use crate as rec;

    fn record(nudge: u64) -> Decoded {
        let ((), r) = rec::record(|| {
            rec::push!("iteration");
            rec::point!(cso "w", [1.0f64, 2.0, 3.0]);
            rec::pause!("after add");
            rec::value!("upper", f64::from_bits(0.1f64.to_bits() + nudge));
            rec::pause!("after reduce");
            rec::pop!();
        });
        rec::decode(&r.bytes)
    }

    #[test]
    fn identical_recordings_do_not_diverge() {
        let (a, b) = (record(0), record(0));
        assert_eq!(
            first_divergence(&Aligned::new(&a), &Aligned::new(&b), 0),
            None
        );
    }

    #[test]
    fn one_ulp_is_found_at_its_step_and_tolerated_when_asked() {
        let (a, b) = (record(0), record(1));
        let d = first_divergence(&Aligned::new(&a), &Aligned::new(&b), 0).expect("they differ");
        assert_eq!(d.step, 1, "after the first pause");
        assert_eq!(d.index, 3);
        assert!(
            matches!(d.difference, Difference::Value { ulps: 1, ref field, .. } if field == "value"),
            "{d}"
        );
        assert!(
            d.to_string().contains("1 ulps") && d.to_string().contains("\"upper\""),
            "{d}"
        );
        assert_eq!(
            first_divergence(&Aligned::new(&a), &Aligned::new(&b), 1),
            None
        );
    }

    #[test]
    fn a_shorter_recording_diverges_by_count() {
        let a = record(0);
        let b = Decoded::from_events(a.events[..a.events.len() - 1].iter().cloned());
        let d = first_divergence(&Aligned::new(&a), &Aligned::new(&b), 0).expect("count differs");
        assert!(matches!(d.difference, Difference::Count { .. }));
        assert_eq!(d.offset_b, None);
    }

    #[test]
    fn ulps_cross_zero_and_handle_nan() {
        assert_eq!(ulps_f64(0.0, -0.0), 0);
        assert_eq!(ulps_f64(f64::from_bits(1), -f64::from_bits(1)), 2);
        assert_eq!(ulps_f64(1.0, 1.0 + f64::EPSILON), 1);
        assert_eq!(ulps_f64(f64::NAN, 1.0), u64::MAX);
        assert_eq!(ulps_f32(1.0, 1.0 + f32::EPSILON), 1);
    }

    fn certified(status: &str, upper: f64, witness: Option<&str>) -> Decoded {
        let ((), r) = rec::record(|| {
            rec::certificate!(crate::Certificate {
                status: status.into(),
                iterations: 7,
                bounds: Some([Scalar::F64(1.0), Scalar::F64(upper)]),
                witness: witness.map(Into::into),
                normal_within: None,
            });
        });
        rec::decode(&r.bytes)
    }

    #[test]
    fn certificates_differ_by_status_bound_or_witness() {
        let diverge = |a: &Decoded, b: &Decoded| {
            first_divergence(&Aligned::new(a), &Aligned::new(b), 0).map(|d| d.to_string())
        };
        let base = certified("converged", 1.5, Some("unique"));
        assert_eq!(
            diverge(&base, &certified("converged", 1.5, Some("unique"))),
            None
        );
        let status = diverge(&base, &certified("degenerate", 1.5, Some("unique")));
        assert!(
            status.as_deref().is_some_and(|d| d.contains("degenerate")),
            "{status:?}"
        );
        let upper = diverge(&base, &certified("converged", 1.75, Some("unique")));
        assert!(
            upper.as_deref().is_some_and(|d| d.contains("bounds.upper")),
            "{upper:?}"
        );
        let witness = diverge(&base, &certified("converged", 1.5, None));
        assert!(
            witness.as_deref().is_some_and(|d| d.contains("witness")),
            "{witness:?}"
        );
    }

    #[test]
    fn f32_against_f64_compares_in_f32_ulps() {
        let ((), a) = rec::record(|| rec::value!("d", 0.1f32));
        let ((), b) = rec::record(|| rec::value!("d", 0.1f64));
        let (a, b) = (rec::decode(&a.bytes), rec::decode(&b.bytes));
        assert_eq!(
            first_divergence(&Aligned::new(&a), &Aligned::new(&b), 0),
            None,
            "0.1f64 rounds to 0.1f32"
        );
    }
}
