//! A static index of half-open intervals `[start, end)` whose starts arrive in
//! ascending order, answering "which intervals contain `c`?" without a replay.
//!
//! [`finish`](IntervalIndex::finish) buckets the intervals by the binary
//! logarithm of their length (never-ending ones in a bucket of their own), each
//! bucket sorted by start. An interval of length in `[2^j, 2^(j+1))` can only
//! contain `c` if it starts in `(c − 2^(j+1), c]`, so a query binary-searches
//! that window in each of the ≤ 34 buckets and scans it: about `O(log² n + k)`
//! for `k` results, however the long-lived intervals are scattered.

/// Bucket of the intervals that never end.
const OPEN_BUCKET: usize = 33;

/// Intervals `[start, end)` added in ascending start order.
#[derive(Clone, Debug, Default)]
pub struct IntervalIndex {
    starts: Vec<u32>,
    ends: Vec<u32>,
    /// Per length class: (start, end, id), sorted by start.
    buckets: Vec<Vec<(u32, u32, u32)>>,
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

    /// Builds the buckets; call after the last [`push`](Self::push) or
    /// [`clip_end`](Self::clip_end) and before [`query`](Self::query).
    pub fn finish(&mut self) {
        let mut buckets: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); OPEN_BUCKET + 1];
        for (id, (&s, &e)) in self.starts.iter().zip(&self.ends).enumerate() {
            if e <= s {
                continue; // empty: never visible
            }
            let b = if e == u32::MAX {
                OPEN_BUCKET
            } else {
                (e - s).ilog2() as usize
            };
            buckets[b].push((s, e, id as u32));
        }
        self.buckets = buckets;
    }

    /// Calls `f(id)` for every interval containing `c` (in no particular order).
    pub fn query(&self, c: u32, mut f: impl FnMut(usize)) {
        for (b, bucket) in self.buckets.iter().enumerate() {
            let hi = bucket.partition_point(|x| x.0 <= c);
            let lo = if b == OPEN_BUCKET {
                0
            } else {
                // Starts at or before c − 2^(b+1) ended before c.
                let reach = 1u64 << (b + 1);
                match u64::from(c).checked_sub(reach) {
                    Some(min) => bucket[..hi].partition_point(|x| u64::from(x.0) <= min),
                    None => 0,
                }
            };
            for &(_, e, id) in &bucket[lo..hi] {
                if e > c {
                    f(id as usize);
                }
            }
        }
    }

    /// The ids of every interval containing `c`, ascending.
    #[must_use]
    pub fn at(&self, c: u32) -> Vec<usize> {
        let mut out = Vec::new();
        self.query(c, |id| out.push(id));
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
        for c in (0..start + 5).step_by(97).chain([0, 1, start, start + 1]) {
            assert_eq!(index.at(c), brute(&iv, c), "at {c}");
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
