//! Two recordings looked at together: a fixture's stored and re-run
//! recordings, or any two files to diff. The app shows one of them (its
//! [`Session`]); the other waits here, kept at the same step (lockstep by
//! pause), and their first divergence is computed once when the pair opens.

use crate::state::inspect::{describe_ulps, describe_vec};
use crate::state::scene::Pick;
use crate::state::session::Session;
use crate::state::timeline::Command;
use crate::state::trace::{Entry, Trace};
use cspace_recorder::diff::{self, Divergence};

/// One of the two recordings of a [`Pair`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The first (the stored recording, or `A` of a diff).
    A = 0,
    /// The second (the re-run recording, or `B` of a diff).
    B = 1,
}

/// The recording not shown, which one is shown, and where the two diverge.
#[derive(Debug)]
pub struct Pair {
    /// The session of the recording not shown, kept at the shown one's step.
    pub hidden: Session,
    /// Which recording the app's session holds.
    pub showing: Which,
    /// Tab names of A and B.
    pub names: [String; 2],
    /// Where A and B first differ; `None` when they agree event for event.
    pub divergence: Option<Divergence>,
    /// Whether the hidden recording's configuration space is drawn beside the
    /// shown one's (instead of the object-space view).
    pub side_by_side: bool,
    /// Values this many ULPs apart or fewer count as equal (as `cspace diff
    /// --ulps`; f32 against f64 is counted in f32 ULPs).
    pub ulps: u64,
    /// The two streams, A then B, to compare again at another threshold.
    bytes: [Vec<u8>; 2],
    /// The shown cursor the hidden session was last synchronised to.
    synced: Option<u32>,
}

/// The first divergence between two streams beyond `ulps` ULPs.
#[must_use]
pub fn divergence(a: &[u8], b: &[u8], ulps: u64) -> Option<Divergence> {
    let (a, b) = (cspace_recorder::decode(a), cspace_recorder::decode(b));
    diff::first_divergence(&diff::Aligned::new(&a), &diff::Aligned::new(&b), ulps)
}

impl Pair {
    /// Opens recordings `a` and `b` (stream bytes) named `names`; returns the
    /// session to show (A, at its first step) and the pair holding B.
    #[must_use]
    pub fn open(a: &[u8], b: &[u8], names: [String; 2]) -> (Session, Self) {
        let shown = Session::new(Trace::from_bytes(a), names[0].clone());
        let hidden = Session::new(Trace::from_bytes(b), names[1].clone());
        let mut pair = Self {
            hidden,
            showing: Which::A,
            names,
            divergence: divergence(a, b, 0),
            side_by_side: false,
            ulps: 0,
            bytes: [a.to_vec(), b.to_vec()],
            synced: None,
        };
        pair.follow(&shown);
        (shown, pair)
    }

    /// A and B's names up to their first colon or space ("A" of "A:
    /// f64.cspace", "Stored" of "Stored recording"), short enough for a
    /// plot's legend.
    #[must_use]
    pub fn short_names(&self) -> [&str; 2] {
        [0, 1].map(|i| {
            let n = self.names[i].as_str();
            n.split([':', ' '])
                .next()
                .filter(|h| !h.is_empty())
                .unwrap_or(n)
        })
    }

    /// Compares again, counting values `ulps` ULPs apart or fewer as equal.
    pub fn set_ulps(&mut self, ulps: u64) {
        if ulps != self.ulps {
            self.ulps = ulps;
            self.divergence = divergence(&self.bytes[0], &self.bytes[1], ulps);
        }
    }

    /// The same point in the other recording: the vertex of the event at the
    /// same compared position, if that event is of the same kind.
    #[must_use]
    pub fn counterpart(from: &Trace, to: &Trace, pick: Pick) -> Option<Pick> {
        let event = to.event_of_compared(from.compared_index(pick.event))?;
        let same_kind = matches!(
            (
                from.entries.get(pick.event as usize)?,
                to.entries.get(event as usize)?
            ),
            (Entry::Draw(_), Entry::Draw(_)) | (Entry::Simplex(_), Entry::Simplex(_))
        );
        let other = Pick { event, ..pick };
        (same_kind && other.value(to).is_some()).then_some(other)
    }

    /// The inspector's lines for a comparison: for each point hovered or
    /// selected in either recording, the same point in the other one and
    /// their difference in ULPs (other − this).
    #[must_use]
    pub fn compare_lines(&self, shown: &Session) -> Vec<String> {
        let names = [
            &self.names[self.showing as usize],
            &self.names[1 - self.showing as usize],
        ];
        let mut lines = Vec::new();
        for (this, other, [this_name, other_name]) in [
            (shown, &self.hidden, names),
            (&self.hidden, shown, [names[1], names[0]]),
        ] {
            let sel = this.selection;
            for (title, pick) in [
                ("hovered", sel.hovered),
                ("a", sel.first),
                ("b", sel.second),
            ] {
                let Some(pick) = pick else { continue };
                let Some(v) = pick.value(&this.trace) else {
                    continue;
                };
                if !std::ptr::eq(this, shown) {
                    // Points picked in the other pane: their own values first.
                    lines.push(format!("{this_name} {title}: {}", pick.name(&this.trace)));
                    lines.extend(describe_vec(v).into_iter().map(|l| format!("  {l}")));
                }
                match Self::counterpart(&this.trace, &other.trace, pick) {
                    Some(o) => {
                        let w = o.value(&other.trace).unwrap_or(v);
                        lines.push(format!(
                            "{this_name} {title} in {other_name}: {}",
                            o.name(&other.trace)
                        ));
                        lines.extend(describe_vec(w).into_iter().map(|l| format!("  {l}")));
                        lines.push(format!(
                            "  {}",
                            describe_ulps(v, w).replace("b − a", &format!("{other_name} − {this_name}"))
                        ));
                    }
                    None => lines.push(format!(
                        "{this_name} {title}: {other_name} has no such point (the recordings differ in shape here)"
                    )),
                }
            }
        }
        lines
    }

    /// Moves the hidden session to the shown one's step if the shown cursor
    /// moved since the last call (lockstep by pause).
    pub fn follow(&mut self, shown: &Session) {
        let c = shown.timeline.cursor();
        if self.synced != Some(c) {
            self.synced = Some(c);
            let step = shown.trace.step_at(c);
            self.hidden.command(Command::SeekStep(step));
        }
    }

    /// Shows `which` (swapping it into `shown`); the cursor stays where it was.
    pub fn show(&mut self, which: Which, shown: &mut Session) {
        if which != self.showing {
            std::mem::swap(shown, &mut self.hidden);
            self.showing = which;
            self.synced = Some(shown.timeline.cursor());
        }
    }

    /// The sessions of A and B, given the shown one.
    pub fn sessions<'a>(&'a mut self, shown: &'a mut Session) -> [&'a mut Session; 2] {
        match self.showing {
            Which::A => [shown, &mut self.hidden],
            Which::B => [&mut self.hidden, shown],
        }
    }

    /// Puts both recordings just after their divergent event (the end of a
    /// recording that has no such event). Returns whether there is a divergence.
    pub fn jump_to_divergence(&mut self, shown: &mut Session) -> bool {
        let Some(index) = self.divergence.as_ref().map(|d| d.index) else {
            return false;
        };
        for s in self.sessions(shown) {
            let command = s
                .trace
                .event_of_compared(index)
                .map_or(Command::Last, Command::JumpToEvent);
            s.command(command);
        }
        self.synced = Some(shown.timeline.cursor());
        true
    }

    /// One line for the pair bar: the divergence, or that there is none.
    #[must_use]
    pub fn summary(&self) -> String {
        self.divergence.as_ref().map_or_else(
            || "the two recordings are identical event for event".to_owned(),
            ToString::to_string,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder as rec;

    /// Three steps; the point of step `differ_at` is moved by one ULP in x.
    fn bytes(differ_at: Option<u32>) -> Vec<u8> {
        let ((), r) = rec::record(|| {
            for i in 0..3u32 {
                let x = f64::from(i) + 1.0;
                let x = if Some(i) == differ_at {
                    f64::from_bits(x.to_bits() + 1)
                } else {
                    x
                };
                rec::point!("p", [x, 0.0, 0.0]);
                rec::pause!("step");
            }
        });
        r.bytes
    }

    #[test]
    fn identical_recordings_have_no_divergence() {
        let b = bytes(None);
        let (mut shown, mut pair) = Pair::open(&b, &b, ["a".into(), "b".into()]);
        assert!(pair.divergence.is_none());
        assert!(pair.summary().contains("identical"));
        assert!(!pair.jump_to_divergence(&mut shown));
    }

    #[test]
    fn lockstep_toggle_and_jump() {
        let (mut shown, mut pair) =
            Pair::open(&bytes(None), &bytes(Some(1)), ["old".into(), "new".into()]);
        let d = pair.divergence.clone().expect("one ULP apart");
        assert_eq!(d.step, 1);
        assert!(pair.summary().contains("1 ulps"), "{}", pair.summary());
        // Lockstep: moving the shown session moves the hidden one by step.
        shown.command(Command::SeekStep(2));
        pair.follow(&shown);
        assert_eq!(pair.hidden.trace.step_at(pair.hidden.timeline.cursor()), 2);
        // Toggling swaps sessions and keeps the step.
        pair.show(Which::B, &mut shown);
        assert_eq!(shown.title, "new");
        assert_eq!(shown.trace.step_at(shown.timeline.cursor()), 2);
        pair.show(Which::B, &mut shown);
        assert_eq!(pair.showing, Which::B);
        // Jump: both sit just after the differing point.
        assert!(pair.jump_to_divergence(&mut shown));
        for s in pair.sessions(&mut shown) {
            let e = s.timeline.current_event().expect("after an event");
            assert!(s.trace.describe(e).contains('p'), "{}", s.trace.describe(e));
            assert_eq!(s.trace.step_at(s.timeline.cursor()), 1);
        }
        pair.show(Which::A, &mut shown);
        assert_eq!(shown.title, "old");
    }

    #[test]
    fn index_maps_past_site_definitions() {
        let t = Trace::from_bytes(&bytes(None));
        let e = t.event_of_compared(0).expect("has events");
        assert!(!matches!(t.entries[e as usize], Entry::Site));
        assert_eq!(t.event_of_compared(10_000), None);
        // Both ways agree with a plain count for every event.
        let mut index = 0;
        for (i, entry) in t.entries.iter().enumerate() {
            if matches!(entry, Entry::Site) {
                continue;
            }
            let i = u32::try_from(i).expect("small");
            assert_eq!(t.event_of_compared(index), Some(i));
            assert_eq!(t.compared_index(i), index);
            index += 1;
        }
        assert_eq!(t.event_of_compared(index), None);
    }

    #[test]
    fn a_threshold_skips_small_differences() {
        // Step 1's point is one ULP off: 0 ULPs sees it, 1 ULP does not.
        let (_, mut pair) = Pair::open(&bytes(None), &bytes(Some(1)), ["a".into(), "b".into()]);
        assert_eq!(pair.divergence.as_ref().map(|d| d.step), Some(1));
        pair.set_ulps(1);
        assert!(pair.divergence.is_none(), "{}", pair.summary());
        pair.set_ulps(0);
        assert!(pair.divergence.is_some());
    }

    #[test]
    fn the_same_point_in_both_recordings_in_ulps() {
        let (mut shown, mut pair) =
            Pair::open(&bytes(None), &bytes(Some(1)), ["old".into(), "new".into()]);
        // The point of step 1 (the second point event), hovered in A.
        let point = shown
            .trace
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Entry::Draw(_)))
            .nth(1)
            .map(|(i, _)| u32::try_from(i).expect("small"))
            .expect("three points");
        shown.selection.hovered = Some(Pick {
            event: point,
            vertex: 0,
        });
        let lines = pair.compare_lines(&shown);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("ULPs new − old: x +1, y +0, z +0")),
            "{lines:#?}"
        );
        // Selected in B's pane: B's values, then A's, and the ULPs the other way.
        shown.selection.hovered = None;
        pair.hidden.selection.first = Some(Pick {
            event: point,
            vertex: 0,
        });
        let lines = pair.compare_lines(&shown);
        assert!(lines[0].starts_with("new a: p vertex 0"), "{lines:#?}");
        assert!(
            lines.iter().any(|l| l.contains("ULPs old − new: x -1")),
            "{lines:#?}"
        );
        // A pick past the other's end has no counterpart.
        let short = Trace::from_bytes(&bytes(None)[..40]);
        assert!(
            Pair::counterpart(
                &shown.trace,
                &short,
                Pick {
                    event: point,
                    vertex: 0
                }
            )
            .is_none()
        );
    }
}
