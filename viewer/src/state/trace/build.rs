//! Fills a [`Trace`]'s tables from its events in one pass: scopes, visible
//! intervals, series, log rows.

use super::{
    AnswerRec, CertificateRec, Entry, ItemClass, ItemKind, LogRow, NONE, Prim, Series, ShapesRec,
    SimplexRec, Trace,
};
use cspace_recorder::{DecodeError, Event, Rgba, Space};
use std::collections::HashMap;

/// Site ids below this are looked up in a table, others in a map (streams
/// number their sites densely from 0; a hostile one may not).
const DENSE_SITES: u32 = 1 << 16;

/// Something per call site id, without hashing the ids streams really use.
struct BySite<T> {
    dense: Vec<Option<T>>,
    sparse: HashMap<u32, T>,
}

impl<T> Default for BySite<T> {
    fn default() -> Self {
        Self {
            dense: Vec::new(),
            sparse: HashMap::new(),
        }
    }
}

impl<T: Copy> BySite<T> {
    fn get(&self, site: u32) -> Option<T> {
        if site < DENSE_SITES {
            self.dense.get(site as usize).copied().flatten()
        } else {
            self.sparse.get(&site).copied()
        }
    }

    fn set(&mut self, site: u32, value: Option<T>) {
        if site < DENSE_SITES {
            let k = site as usize;
            if k >= self.dense.len() {
                self.dense.resize_with(k + 1, || None);
            }
            self.dense[k] = value;
        } else if let Some(v) = value {
            self.sparse.insert(site, v);
        } else {
            self.sparse.remove(&site);
        }
    }
}

/// Builds a [`Trace`] one event at a time.
#[derive(Default)]
pub(super) struct Builder {
    pub(super) trace: Trace,
    /// Open scopes: push event, where its items start in `born`, its log row.
    scopes: Vec<(u32, usize, usize)>,
    /// Items born inside open scopes, innermost last.
    born: Vec<usize>,
    /// The live simplex item of each site label, by label slot.
    last_simplex: Vec<Option<usize>>,
    /// The slot of each simplex site label.
    label_slot: HashMap<String, usize>,
    /// The label slot of each simplex site (forgotten when the site is redefined).
    site_slot: BySite<usize>,
    last_shapes: Option<usize>,
    /// The answer shown until the next answer or the next query's shapes.
    last_answer: Option<usize>,
    /// That answer's index in `Trace::answers`, while a certificate may
    /// still attach to it.
    open_answer: Option<usize>,
    series_of_site: BySite<u32>,
    /// The class of each item, for the visible-interval index's groups.
    item_class: Vec<ItemClass>,
}

impl Builder {
    fn add_item(&mut self, i: u32, kind: ItemKind, class: ItemClass, scoped: bool) {
        let id = self.trace.visible.push(i + 1, NONE);
        self.trace.items.push((i, kind));
        self.item_class.push(class);
        if scoped && !self.scopes.is_empty() {
            self.born.push(id);
        }
        // A new query's shapes end the last one's answer; a new answer replaces it.
        if let ItemKind::Shapes(_) | ItemKind::Answer(_) = kind
            && let Some(prev) = self.last_answer.take()
        {
            self.trace.visible.clip_end(prev, i + 1);
        }
        if let ItemKind::Answer(_) = kind {
            self.last_answer = Some(id);
        }
        if let ItemKind::Simplex(_) | ItemKind::Shapes(_) = kind {
            let prev = match kind {
                ItemKind::Simplex(s) => {
                    let site = self.trace.simplices[s as usize].site;
                    let slot = if let Some(slot) = self.site_slot.get(site) {
                        slot
                    } else {
                        let label = &self.trace.site(site).label;
                        let next = self.last_simplex.len();
                        let slot = *self.label_slot.entry(label.clone()).or_insert(next);
                        if slot == next {
                            self.last_simplex.push(None);
                        }
                        self.site_slot.set(site, Some(slot));
                        slot
                    };
                    self.last_simplex[slot].replace(id)
                }
                _ => self.last_shapes.replace(id),
            };
            if let Some(prev) = prev {
                self.trace.visible.clip_end(prev, i + 1);
            }
        }
    }

    #[allow(clippy::too_many_lines)] // one arm per event kind
    pub(super) fn event(&mut self, offset: u64, event: Event) {
        let t = &mut self.trace;
        let Ok(i) = u32::try_from(t.entries.len()) else {
            return;
        };
        if i == NONE {
            return;
        }
        // Offsets are kept modulo 2^32, with the events where the rest changes.
        let (low, high) = (offset as u32, (offset >> 32) as u32);
        if t.offset_highs.last().map_or(0, |h| h.1) != high {
            t.offset_highs.push((i, high));
        }
        let parent = self.scopes.last().map_or(NONE, |s| s.0);
        let depth = u16::try_from(self.scopes.len()).unwrap_or(u16::MAX);
        let u32len = |n: usize| u32::try_from(n).unwrap_or(NONE);
        let row = LogRow {
            event: i,
            depth,
            end: u32len(t.log.len() + 1),
        };
        let entry = match event {
            Event::Site(def) => {
                self.site_slot.set(def.id, None);
                t.sites.insert(def.id, def);
                t.site_events.push(i);
                Entry::Site
            }
            Event::Push { site } => {
                self.scopes.push((i, self.born.len(), t.log.len()));
                t.log.push(row);
                Entry::Push { site, pop: NONE }
            }
            Event::Pop { site } => {
                if let Some((push, start, log_row)) = self.scopes.pop() {
                    for id in self.born.drain(start..) {
                        t.visible.clip_end(id, i + 1);
                    }
                    t.log[log_row].end = u32len(t.log.len());
                    if let Some(Entry::Push { pop, .. }) = t.entries.get_mut(push as usize) {
                        *pop = i;
                    }
                    Entry::Pop { site, push }
                } else {
                    Entry::Pop { site, push: NONE }
                }
            }
            Event::Pause { site } => {
                t.pauses.push(i);
                t.log.push(row);
                Entry::Pause { site }
            }
            Event::Text { site, text } => {
                t.log.push(row);
                t.text_bytes.push_str(&text);
                t.text_ends.push(t.text_bytes.len());
                Entry::Text {
                    site,
                    text: u32len(t.text_ends.len() - 1),
                }
            }
            Event::Point {
                site,
                space,
                color,
                p,
            } => self.drawable(i, site, space, color, &Prim::Point(p)),
            Event::Line {
                site,
                space,
                color,
                a,
                b,
            } => self.drawable(i, site, space, color, &Prim::Line(a, b)),
            Event::Triangle {
                site,
                space,
                color,
                v,
            } => self.drawable(i, site, space, color, &Prim::Triangle(v)),
            Event::Simplex { site, vertices } => {
                let k = u32len(t.simplices.len());
                t.simplices.push(SimplexRec { site, vertices });
                self.add_item(i, ItemKind::Simplex(k), ItemClass::Simplex, true);
                Entry::Simplex(k)
            }
            Event::Value { site, value } => {
                let next = u32len(t.series.len());
                let series = self.series_of_site.get(site).unwrap_or(next);
                if series == next {
                    self.series_of_site.set(site, Some(next));
                    let name = t
                        .sites
                        .get(&site)
                        .map_or_else(|| format!("site {site}"), |s| s.label.clone());
                    t.series.push(Series {
                        name,
                        ..Series::default()
                    });
                }
                let s = &mut t.series[series as usize];
                s.points.push([t.pauses.len() as f64, value.to_f64()]);
                s.events.push(i);
                t.values.push(value);
                Entry::Value {
                    site,
                    value: u32len(t.values.len() - 1),
                }
            }
            Event::Shapes { site, a, b, motion } => {
                t.log.push(row);
                self.open_answer = None;
                let k = u32len(t.shapes.len());
                t.shapes.push(ShapesRec {
                    site,
                    a: *a,
                    b: *b,
                    motion,
                });
                self.add_item(i, ItemKind::Shapes(k), ItemClass::Shapes, false);
                Entry::Shapes(k)
            }
            Event::Answer { site, answer } => {
                t.log.push(row);
                let k = u32len(t.answers.len());
                t.answers.push(AnswerRec {
                    site,
                    answer: *answer,
                    certificate: None,
                });
                self.open_answer = Some(k as usize);
                // Outlives its scope: it is what the query found.
                self.add_item(i, ItemKind::Answer(k), ItemClass::Answer, false);
                Entry::Answer(k)
            }
            Event::Certificate { site, certificate } => {
                t.log.push(row);
                let k = u32len(t.certificates.len());
                t.certificates.push(CertificateRec {
                    site,
                    certificate: *certificate,
                });
                // It belongs to the answer before it (the first certificate
                // after an answer; a second one is only logged).
                if let Some(a) = self.open_answer.take() {
                    t.answers[a].certificate = Some(k);
                }
                Entry::Certificate(k)
            }
        };
        let t = &mut self.trace;
        t.entries.push(entry);
        t.offsets.push(low);
        t.parent.push(parent);
    }

    fn drawable(
        &mut self,
        i: u32,
        site: u32,
        space: Space,
        color: Option<Rgba>,
        prim: &Prim,
    ) -> Entry {
        let Some(k) = self.trace.drawables.push(site, space, color, prim) else {
            return Entry::Draw(NONE);
        };
        let class = match space {
            Space::Config => ItemClass::Config,
            Space::Object => ItemClass::Object,
        };
        self.add_item(i, ItemKind::Draw(k), class, true);
        Entry::Draw(k)
    }

    pub(super) fn finish(mut self, valid_len: u64, error: Option<DecodeError>) -> Trace {
        // Unclosed scopes run to the end of the log.
        let rows = u32::try_from(self.trace.log.len()).unwrap_or(NONE);
        for &(_, _, log_row) in &self.scopes {
            self.trace.log[log_row].end = rows;
        }
        let (items, classes) = (&self.trace.items, &self.item_class);
        self.trace
            .visible
            .finish_grouped(ItemClass::ALL.len(), |id| {
                let (event, kind) = items[id];
                let k = match kind {
                    ItemKind::Draw(k)
                    | ItemKind::Simplex(k)
                    | ItemKind::Shapes(k)
                    | ItemKind::Answer(k) => k,
                };
                (classes[id] as usize, event, k)
            });
        self.trace.valid_len = valid_len;
        self.trace.error = error;
        self.trace
    }
}
