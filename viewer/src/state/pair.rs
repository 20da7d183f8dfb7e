//! Two recordings looked at together: a fixture's stored and re-run
//! recordings, or any two files to diff. The app shows one of them (its
//! [`Session`]); the other waits here, kept at the same step (lockstep by
//! pause), and their first divergence is computed once when the pair opens.

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
    /// The shown cursor the hidden session was last synchronised to.
    synced: Option<u32>,
}

/// The first divergence between two streams (exact comparison: 0 ULPs).
#[must_use]
pub fn divergence(a: &[u8], b: &[u8]) -> Option<Divergence> {
    let (a, b) = (cspace_recorder::decode(a), cspace_recorder::decode(b));
    diff::first_divergence(&diff::Aligned::new(&a), &diff::Aligned::new(&b), 0)
}

/// The event of `trace` that is the `index`-th compared event (site
/// definitions excluded, as [`Divergence::index`] counts), or `None` past the end.
#[must_use]
pub fn event_of_index(trace: &Trace, index: usize) -> Option<u32> {
    trace
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Entry::Site))
        .nth(index)
        .and_then(|(i, _)| u32::try_from(i).ok())
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
            divergence: divergence(a, b),
            side_by_side: false,
            synced: None,
        };
        pair.follow(&shown);
        (shown, pair)
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
            let command =
                event_of_index(&s.trace, index).map_or(Command::Last, Command::JumpToEvent);
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
        let e = event_of_index(&t, 0).expect("has events");
        assert!(!matches!(t.entries[e as usize], Entry::Site));
        assert_eq!(event_of_index(&t, 10_000), None);
    }
}
