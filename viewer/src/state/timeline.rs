//! The cursor over a [`Trace`] and every way to move it: steps (pauses),
//! single events, scopes, first/last, seeking and playback.

use crate::state::trace::{Entry, NONE, Trace};

/// A way to move the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// To position 0 (nothing applied).
    First,
    /// To the end (every event applied).
    Last,
    /// Just after the next pause (the main step).
    NextStep,
    /// Just after the previous pause.
    PrevStep,
    /// One event forward.
    NextEvent,
    /// One event back.
    PrevEvent,
    /// One event forward; over a whole push…pop scope if the next event opens one.
    StepOver,
    /// One event forward, entering scopes.
    StepInto,
    /// Just after the pop that closes the innermost scope open at the cursor.
    StepOut,
    /// To a cursor position (clamped).
    Seek(u32),
    /// Just after the event with this index (to see its effect).
    JumpToEvent(u32),
    /// To a step number (clamped).
    SeekStep(u32),
    /// Start or stop playback.
    TogglePlay,
}

/// Cursor and playback state.
#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    cursor: u32,
    playing: bool,
    /// Playback speed in steps per second.
    pub speed: f64,
    elapsed: f64,
}

impl Default for Timeline {
    fn default() -> Self {
        Self {
            cursor: 0,
            playing: false,
            speed: 2.0,
            elapsed: 0.0,
        }
    }
}

impl Timeline {
    /// A timeline at position 0, paused.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The cursor position: events `0..cursor` are applied.
    #[must_use]
    pub fn cursor(&self) -> u32 {
        self.cursor
    }

    /// Whether playback is running.
    #[must_use]
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// The last applied event, if any.
    #[must_use]
    pub fn current_event(&self) -> Option<u32> {
        self.cursor.checked_sub(1)
    }

    /// "step i of N" for the status bar.
    #[must_use]
    pub fn status(&self, trace: &Trace) -> String {
        format!(
            "step {} of {} · event {} of {}",
            trace.step_at(self.cursor),
            trace.steps(),
            self.cursor,
            trace.len()
        )
    }

    /// Moves the cursor; returns whether it moved.
    pub fn apply(&mut self, trace: &Trace, command: Command) -> bool {
        let n = trace.len();
        let c = self.cursor.min(n);
        let is_site = |i: u32| matches!(trace.entries.get(i as usize), Some(Entry::Site));
        let next = match command {
            Command::First => 0,
            Command::Last => n,
            Command::NextStep => {
                let k = trace.pauses.partition_point(|&p| p < c);
                trace.pauses.get(k).map_or(n, |&p| p + 1)
            }
            Command::PrevStep => {
                let k = trace.pauses.partition_point(|&p| p + 1 < c);
                k.checked_sub(1).map_or(0, |k| trace.pauses[k] + 1)
            }
            // Site definitions are the stream's bookkeeping, not steps of the
            // algorithm: event stepping passes over them.
            Command::NextEvent | Command::StepInto => {
                let mut t = (c + 1).min(n);
                while t < n && is_site(t - 1) {
                    t += 1;
                }
                t
            }
            Command::PrevEvent => {
                let mut t = c.saturating_sub(1);
                while t > 0 && is_site(t - 1) {
                    t -= 1;
                }
                t
            }
            Command::StepOver => match trace.entries.get(c as usize) {
                Some(&Entry::Push { pop, .. }) => {
                    if pop == NONE {
                        n
                    } else {
                        pop + 1
                    }
                }
                Some(_) => c + 1,
                None => n,
            },
            Command::StepOut => {
                let parent = trace.parent.get(c as usize).copied().unwrap_or(NONE);
                match trace.entries.get(parent as usize) {
                    Some(&Entry::Push { pop, .. }) if pop != NONE => pop + 1,
                    _ => n,
                }
            }
            Command::Seek(p) => p.min(n),
            Command::JumpToEvent(e) => e.saturating_add(1).min(n),
            Command::SeekStep(s) => trace.cursor_of_step(s).min(n),
            Command::TogglePlay => {
                self.playing = !self.playing;
                self.elapsed = 0.0;
                if self.playing && c >= n { 0 } else { c }
            }
        };
        if !matches!(command, Command::TogglePlay) {
            // Any manual move keeps playing, but restarts the step clock.
            self.elapsed = 0.0;
        }
        let moved = next != self.cursor;
        self.cursor = next;
        moved
    }

    /// Advances playback by `dt` seconds; returns whether the cursor moved.
    /// Playback stops at the end.
    pub fn tick(&mut self, trace: &Trace, dt: f64) -> bool {
        if !self.playing {
            return false;
        }
        self.elapsed += dt.max(0.0);
        let period = 1.0 / self.speed.clamp(0.01, 1000.0);
        let mut moved = false;
        while self.elapsed >= period {
            self.elapsed -= period;
            let before = self.cursor;
            let k = trace.pauses.partition_point(|&p| p < before);
            self.cursor = trace.pauses.get(k).map_or(trace.len(), |&p| p + 1);
            moved |= self.cursor != before;
            if self.cursor >= trace.len() {
                self.playing = false;
                self.elapsed = 0.0;
                break;
            }
        }
        moved
    }

    /// Keeps the cursor at the same step after the trace was reloaded.
    pub fn reloaded(&mut self, old: &Trace, new: &Trace) {
        let step = old.step_at(self.cursor);
        let into_step = self.cursor - old.cursor_of_step(step).min(self.cursor);
        let base = new.cursor_of_step(step);
        self.cursor = base.saturating_add(into_step).min(new.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cspace_recorder as rec;

    /// Events: 0 push outer, 1 point, 2 push inner, 3 pause a, 4 pop, 5 pause b,
    /// 6 pop, 7 text, 8 pause c (site definitions precede first uses).
    fn trace() -> Trace {
        let ((), recording) = rec::record(|| {
            rec::push!("outer");
            rec::point!("p", [0.0f64, 0., 0.]);
            rec::push!("inner");
            rec::pause!("a");
            rec::pop!();
            rec::pause!("b");
            rec::pop!();
            rec::text!("t");
            rec::pause!("c");
        });
        Trace::from_bytes(&recording.bytes)
    }

    fn index_of(t: &Trace, what: &str) -> u32 {
        (0..t.len())
            .find(|&i| t.describe(i) == what)
            .unwrap_or_else(|| panic!("{what} not found"))
    }

    #[test]
    fn steps_and_events() {
        let t = trace();
        let mut tl = Timeline::new();
        let [a, b, c] = ["pause a", "pause b", "pause c"].map(|s| index_of(&t, s));
        assert!(tl.apply(&t, Command::NextStep));
        assert_eq!(tl.cursor(), a + 1);
        assert_eq!(t.step_at(tl.cursor()), 1);
        tl.apply(&t, Command::NextStep);
        assert_eq!(tl.cursor(), b + 1);
        tl.apply(&t, Command::NextStep);
        assert_eq!(tl.cursor(), c + 1);
        assert_eq!(
            tl.status(&t),
            format!("step 3 of 3 · event {} of {}", c + 1, t.len())
        );
        assert_eq!(tl.cursor(), t.len(), "the last pause is the last event");
        assert!(!tl.apply(&t, Command::NextStep));
        tl.apply(&t, Command::PrevStep);
        assert_eq!(tl.cursor(), b + 1);
        tl.apply(&t, Command::PrevStep);
        tl.apply(&t, Command::PrevStep);
        assert_eq!(tl.cursor(), 0);
        assert!(!tl.apply(&t, Command::PrevStep));
        assert!(!tl.apply(&t, Command::PrevEvent));
        // Event 0 defines a call site: stepping by event passes over it.
        assert_eq!(t.entries[0], Entry::Site);
        tl.apply(&t, Command::NextEvent);
        assert_eq!(tl.cursor(), 2);
        assert_eq!(tl.current_event(), Some(1));
        assert_ne!(t.entries[1], Entry::Site);
        tl.apply(&t, Command::PrevEvent);
        assert_eq!(tl.cursor(), 0, "back over the site definition too");
        tl.apply(&t, Command::Last);
        assert_eq!(tl.cursor(), t.len());
        assert!(!tl.apply(&t, Command::NextEvent));
        tl.apply(&t, Command::First);
        assert_eq!(tl.cursor(), 0);
        tl.apply(&t, Command::Seek(10_000));
        assert_eq!(tl.cursor(), t.len());
        tl.apply(&t, Command::SeekStep(2));
        assert_eq!(tl.cursor(), b + 1);
        tl.apply(&t, Command::JumpToEvent(a));
        assert_eq!(tl.cursor(), a + 1);
    }

    #[test]
    fn scopes() {
        let t = trace();
        let outer = index_of(&t, "scope outer");
        let inner = index_of(&t, "scope inner");
        let pops: Vec<u32> = (0..t.len())
            .filter(|&i| matches!(t.entries[i as usize], Entry::Pop { .. }))
            .collect();
        let mut tl = Timeline::new();
        tl.apply(&t, Command::Seek(outer));
        tl.apply(&t, Command::StepOver);
        assert_eq!(tl.cursor(), pops[1] + 1, "over the outer scope");
        tl.apply(&t, Command::Seek(outer));
        tl.apply(&t, Command::StepInto);
        assert_eq!(tl.cursor(), outer + 1);
        tl.apply(&t, Command::Seek(inner + 1));
        tl.apply(&t, Command::StepOut);
        assert_eq!(tl.cursor(), pops[0] + 1, "out of inner");
        tl.apply(&t, Command::StepOut);
        assert_eq!(tl.cursor(), pops[1] + 1, "out of outer");
        tl.apply(&t, Command::StepOut);
        assert_eq!(tl.cursor(), t.len(), "out of the top level is the end");
        // Stepping over a non-push is one event.
        tl.apply(&t, Command::Seek(inner + 1));
        tl.apply(&t, Command::StepOver);
        assert_eq!(tl.cursor(), inner + 2);
    }

    #[test]
    fn playback() {
        let t = trace();
        let mut tl = Timeline::new();
        assert!(!tl.tick(&t, 1.0));
        tl.speed = 2.0;
        tl.apply(&t, Command::TogglePlay);
        assert!(tl.playing());
        assert!(!tl.tick(&t, 0.25));
        assert!(tl.tick(&t, 0.25));
        assert_eq!(t.step_at(tl.cursor()), 1);
        assert!(tl.tick(&t, 10.0));
        assert_eq!(tl.cursor(), t.len());
        assert!(!tl.playing(), "stops at the end");
        tl.apply(&t, Command::TogglePlay);
        assert_eq!(tl.cursor(), 0, "playing from the end restarts");
    }

    #[test]
    fn reload_keeps_the_step() {
        let t = trace();
        let mut tl = Timeline::new();
        tl.apply(&t, Command::SeekStep(2));
        let empty = Trace::default();
        tl.reloaded(&t, &t);
        assert_eq!(t.step_at(tl.cursor()), 2);
        tl.reloaded(&t, &empty);
        assert_eq!(tl.cursor(), 0);
    }
}
