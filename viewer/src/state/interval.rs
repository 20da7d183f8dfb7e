//! A static index of half-open intervals `[start, end)` whose starts arrive in
//! ascending order, answering "which intervals contain `c`?" without a replay.
//!
//! [`finish`](IntervalIndex::finish) buckets the intervals by the binary
//! logarithm of their length (never-ending ones in a bucket of their own), each
//! bucket sorted by start. An interval of length in `[2^j, 2^(j+1))` can only
//! contain `c` if it starts in `(c − 2^(j+1), c]`, so a query binary-searches
//! that window in each of the ≤ 34 buckets and scans it: about `O(log² n + k)`
//! for `k` results, however the long-lived intervals are scattered. The
//! intervals can be split into groups (the visible set's lists), each with its
//! own buckets, so a list is filled without sorting hits into lists; a
//! group's never-ending intervals (top-level drawables, which pile up) are
//! one contiguous copy.

/// Bucket of the intervals that never end.
const OPEN_BUCKET: usize = 33;

/// One group's intervals, bucketed by length class.
#[derive(Clone, Debug, Default)]
struct Group {
    /// Per length class below [`OPEN_BUCKET`]: (start, end, payload, aux), sorted by start.
    buckets: Vec<Vec<(u32, u32, u32, u32)>>,
    /// Starts of the never-ending intervals, ascending.
    open_starts: Vec<u32>,
    /// Their payloads, in the same order.
    open: Vec<u32>,
    /// Their second payloads, in the same order.
    open_aux: Vec<u32>,
}

impl Group {
    /// How many open (never-ending) intervals contain `c`: a prefix of them.
    fn open_at(&self, c: u32) -> usize {
        self.open_starts.partition_point(|&s| s <= c)
    }

    /// Calls `window(slice)` with the candidate window of each finite bucket
    /// in turn.
    fn windows(&self, c: u32, mut window: impl FnMut(&[(u32, u32, u32, u32)])) {
        for (b, bucket) in self.buckets.iter().enumerate() {
            if bucket.is_empty() {
                continue;
            }
            let hi = bucket.partition_point(|x| x.0 <= c);
            // Starts at or before c − 2^(b+1) ended before c.
            let reach = 1u64 << (b + 1);
            let lo = match u64::from(c).checked_sub(reach) {
                Some(min) => bucket[..hi].partition_point(|x| u64::from(x.0) <= min),
                None => 0,
            };
            window(&bucket[lo..hi]);
        }
    }
}

/// Intervals `[start, end)` added in ascending start order.
#[derive(Clone, Debug, Default)]
pub struct IntervalIndex {
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Filled by [`finish`](Self::finish) or [`finish_grouped`](Self::finish_grouped).
    groups: Vec<Group>,
}

impl IntervalIndex {
    /// An empty index.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of intervals.
    #[must_use]
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether there are no intervals.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Appends an interval and returns its id. Starts must not decrease; a
    /// smaller start is raised to the previous one so the order holds.
    pub fn push(&mut self, start: u32, end: u32) -> usize {
        let start = self.starts.last().map_or(start, |&s| s.max(start));
        self.starts.push(start);
        self.ends.push(end);
        self.starts.len() - 1
    }

    /// The interval with this id.
    #[must_use]
    pub fn get(&self, id: usize) -> Option<(u32, u32)> {
        Some((*self.starts.get(id)?, *self.ends.get(id)?))
    }

    /// Shortens interval `id` so it ends no later than `end`.
    pub fn clip_end(&mut self, id: usize, end: u32) {
        if let Some(e) = self.ends.get_mut(id) {
            *e = (*e).min(end);
        }
    }

    /// Builds the buckets with one group whose payloads are the ids; call
    /// after the last [`push`](Self::push) or [`clip_end`](Self::clip_end)
    /// and before [`query`](Self::query).
    pub fn finish(&mut self) {
        self.finish_grouped(1, |id| (0, id as u32, 0));
    }

    /// Builds the buckets, splitting the intervals into `groups` groups:
    /// `key(id)` gives the group of interval `id`, the payload its queries
    /// report and a second one [`extend_group_aux`](Self::extend_group_aux)
    /// reports too (so one group's hits come out without looking anything up).
    pub fn finish_grouped(&mut self, groups: usize, key: impl Fn(usize) -> (usize, u32, u32)) {
        let mut out: Vec<Group> = (0..groups)
            .map(|_| Group {
                buckets: vec![Vec::new(); OPEN_BUCKET],
                ..Group::default()
            })
            .collect();
        for (id, (&s, &e)) in self.starts.iter().zip(&self.ends).enumerate() {
            if e <= s {
                continue; // empty: never visible
            }
            let (g, payload, aux) = key(id);
            let Some(group) = out.get_mut(g) else {
                continue;
            };
            if e == u32::MAX {
                group.open_starts.push(s);
                group.open.push(payload);
                group.open_aux.push(aux);
            } else {
                group.buckets[(e - s).ilog2() as usize].push((s, e, payload, aux));
            }
        }
        self.groups = out;
    }

    /// Calls `f(payload)` for every interval containing `c`, group by group
    /// (in no particular order within a group).
    pub fn query(&self, c: u32, mut f: impl FnMut(u32)) {
        for g in 0..self.groups.len() {
            self.query_group(g, c, &mut f);
        }
    }

    /// Calls `f(payload)` for every interval of group `g` containing `c`, in
    /// the order [`extend_group`](Self::extend_group) appends them.
    pub fn query_group(&self, g: usize, c: u32, mut f: impl FnMut(u32)) {
        let Some(group) = self.groups.get(g) else {
            return;
        };
        group.open[..group.open_at(c)]
            .iter()
            .copied()
            .for_each(&mut f);
        group.windows(c, |window| {
            for &(_, e, p, _) in window {
                if e > c {
                    f(p);
                }
            }
        });
    }

    /// Appends the payloads of group `g`'s intervals containing `c` to `out`:
    /// first the never-ending ones, by start (one contiguous copy, and the
    /// same prefix at every later `c`: a step keeps most of the list), then
    /// the others.
    pub fn extend_group(&self, g: usize, c: u32, out: &mut Vec<u32>) {
        let Some(group) = self.groups.get(g) else {
            return;
        };
        out.extend_from_slice(&group.open[..group.open_at(c)]);
        group.windows(c, |window| {
            out.extend(window.iter().filter(|x| x.1 > c).map(|x| x.2));
        });
    }

    /// [`extend_group`](Self::extend_group), appending the second payloads
    /// to `aux` in the same order.
    pub fn extend_group_aux(&self, g: usize, c: u32, out: &mut Vec<u32>, aux: &mut Vec<u32>) {
        let Some(group) = self.groups.get(g) else {
            return;
        };
        let open = group.open_at(c);
        out.extend_from_slice(&group.open[..open]);
        aux.extend_from_slice(&group.open_aux[..open]);
        group.windows(c, |window| {
            for &(_, e, p, a) in window {
                if e > c {
                    out.push(p);
                    aux.push(a);
                }
            }
        });
    }

    /// The ids of every interval containing `c`, ascending (after [`finish`](Self::finish)).
    #[must_use]
    pub fn at(&self, c: u32) -> Vec<usize> {
        let mut out = Vec::new();
        self.query(c, |id| out.push(id as usize));
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(iv: &[(u32, u32)], c: u32) -> Vec<usize> {
        iv.iter()
            .enumerate()
            .filter(|(_, (s, e))| *s <= c && c < *e)
            .map(|(i, _)| i)
            .collect()
    }

    #[test]
    fn matches_brute_force() {
        // A deterministic pseudo-random mix of short, long and open intervals.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut iv = Vec::new();
        let mut start = 0u32;
        for _ in 0..20_000 {
            start += (next() % 3) as u32;
            let len = match next() % 10 {
                0 => u32::MAX - start,
                1..=3 => (next() % 10_000) as u32,
                _ => (next() % 20) as u32,
            };
            iv.push((start, start.saturating_add(len)));
        }
        let mut index = IntervalIndex::new();
        for &(s, e) in &iv {
            index.push(s, e);
        }
        index.finish();
        let mut grouped = index.clone();
        grouped.finish_grouped(3, |id| (id % 3, id as u32 * 2, id as u32 + 7));
        for c in (0..start + 5).step_by(97).chain([0, 1, start, start + 1]) {
            let all = brute(&iv, c);
            assert_eq!(index.at(c), all, "at {c}");
            for g in 0..3 {
                let mut got = Vec::new();
                grouped.extend_group(g, c, &mut got);
                let mut each = Vec::new();
                grouped.query_group(g, c, |p| each.push(p));
                assert_eq!(got, each, "group {g} at {c}");
                let (mut again, mut aux) = (Vec::new(), Vec::new());
                grouped.extend_group_aux(g, c, &mut again, &mut aux);
                assert_eq!(again, got, "group {g} at {c}");
                assert!(again.iter().zip(&aux).all(|(p, a)| p / 2 + 7 == *a));
                assert_eq!(aux.len(), again.len());
                got.sort_unstable();
                let want: Vec<u32> = all
                    .iter()
                    .filter(|&&id| id % 3 == g)
                    .map(|&id| id as u32 * 2)
                    .collect();
                assert_eq!(got, want, "group {g} at {c}");
            }
        }
    }

    #[test]
    fn clip_and_empty() {
        let mut index = IntervalIndex::new();
        assert!(index.at(3).is_empty());
        index.push(1, 10);
        index.push(2, u32::MAX);
        index.clip_end(1, 5);
        index.finish();
        assert_eq!(index.at(0), Vec::<usize>::new());
        assert_eq!(index.at(1), vec![0]);
        assert_eq!(index.at(4), vec![0, 1]);
        assert_eq!(index.at(5), vec![0]);
        assert_eq!(index.at(10), Vec::<usize>::new());
        assert_eq!(index.get(1), Some((2, 5)));
        assert_eq!(index.len(), 2);
    }
}
