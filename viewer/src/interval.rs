//! A static index of half-open intervals `[start, end)` whose starts arrive in
//! ascending order, answering "which intervals contain `c`?" without a replay.
//!
//! Intervals are stored in start order; two levels of block maxima of the ends
//! (blocks of 64 and of 4096) let a query skip every block whose intervals all
//! ended at or before `c`. A query costs `O(n / 4096 + k · 64)` in the worst
//! case for `k` results, a few microseconds for millions of intervals.

/// Entries per small block.
const SMALL: usize = 64;
/// Entries per large block.
const LARGE: usize = 4096;

/// Intervals `[start, end)` added in ascending start order.
#[derive(Clone, Debug, Default)]
pub struct IntervalIndex {
    starts: Vec<u32>,
    ends: Vec<u32>,
    small_max: Vec<u32>,
    large_max: Vec<u32>,
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

    /// Builds the block maxima; call after the last [`push`](Self::push) or
    /// [`clip_end`](Self::clip_end) and before [`query`](Self::query).
    pub fn finish(&mut self) {
        self.small_max = self
            .ends
            .chunks(SMALL)
            .map(|c| c.iter().copied().max().unwrap_or(0))
            .collect();
        self.large_max = self
            .small_max
            .chunks(LARGE / SMALL)
            .map(|c| c.iter().copied().max().unwrap_or(0))
            .collect();
    }

    /// Calls `f(id)` for every interval containing `c`, in ascending id order.
    pub fn query(&self, c: u32, mut f: impl FnMut(usize)) {
        let k = self.starts.partition_point(|&s| s <= c);
        let per_large = LARGE / SMALL;
        for (lb, &lmax) in self.large_max.iter().enumerate() {
            if lb * LARGE >= k {
                break;
            }
            if lmax <= c {
                continue;
            }
            let sb_end = ((lb + 1) * per_large).min(self.small_max.len());
            for sb in lb * per_large..sb_end {
                let lo = sb * SMALL;
                if lo >= k {
                    break;
                }
                if self.small_max[sb] <= c {
                    continue;
                }
                let hi = (lo + SMALL).min(k);
                for id in lo..hi {
                    if self.ends[id] > c {
                        f(id);
                    }
                }
            }
        }
    }

    /// The ids of every interval containing `c`.
    #[must_use]
    pub fn at(&self, c: u32) -> Vec<usize> {
        let mut out = Vec::new();
        self.query(c, |id| out.push(id));
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
