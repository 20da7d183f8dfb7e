//! Decoding stream bytes into a [`Trace`]: on the calling thread for small
//! streams, on a second thread for large ones while this one indexes.

use super::Trace;
use super::build::Builder;
use cspace_recorder::{DecodeError, Decoded, StreamDecoder, stream::Located};
use std::sync::mpsc;

/// Streams smaller than this are decoded and indexed on one thread.
const PARALLEL_BYTES: usize = 1 << 20;
/// Events per batch passed from the decoding thread to the indexing one.
const BATCH: usize = 4096;
/// Batches in flight between them.
const BATCHES: usize = 8;

/// Decodes `bytes`, handing `flush` each full batch of events (it leaves the
/// batch empty or replaces it) and the last partial one; returns the valid
/// length and why decoding stopped early, if it did.
fn decode(bytes: &[u8], mut flush: impl FnMut(&mut Vec<Located>)) -> (u64, Option<DecodeError>) {
    let mut decoder = StreamDecoder::new();
    let mut batch = Vec::with_capacity(BATCH);
    // Fed in chunks so the decoder's buffer stays small and cache-warm.
    let mut chunks = bytes.chunks(1 << 20);
    let error = loop {
        match decoder.next_event() {
            Ok(Some(located)) => {
                batch.push(located);
                if batch.len() == BATCH {
                    flush(&mut batch);
                    batch.clear();
                }
            }
            Ok(None) => match chunks.next() {
                Some(chunk) => decoder.feed(chunk),
                None => break decoder.finish().err(),
            },
            Err(e) => break Some(e),
        }
    };
    flush(&mut batch);
    (decoder.offset(), error)
}

impl Trace {
    /// Decodes and indexes stream bytes; a damaged stream keeps its valid prefix
    /// and reports the problem in [`Trace::error`].
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self::from_bytes_on(bytes, bytes.len() >= PARALLEL_BYTES)
    }

    /// [`Trace::from_bytes`], decoding on a second thread or not.
    fn from_bytes_on(bytes: &[u8], parallel: bool) -> Self {
        let mut builder = Builder::default();
        // Frames average well over 16 bytes: reserving avoids regrowing the big tables.
        let guess = bytes.len() / 16;
        builder.trace.entries.reserve(guess);
        builder.trace.offsets.reserve(guess);
        builder.trace.parent.reserve(guess);
        if !parallel {
            let (valid_len, error) = decode(bytes, |batch| {
                for located in batch.drain(..) {
                    builder.event(located.offset, located.event);
                }
            });
            return builder.finish(valid_len, error);
        }
        // Decoding and indexing take about as long as each other: decode on
        // one thread, index on this one, batches passing through a bounded
        // channel (and the emptied batches coming back for reuse).
        let (full_tx, full_rx) = mpsc::sync_channel::<Vec<Located>>(BATCHES);
        let (empty_tx, empty_rx) = mpsc::channel::<Vec<Located>>();
        let (valid_len, error) = std::thread::scope(|scope| {
            let decoding = scope.spawn(move || {
                decode(bytes, |batch| {
                    let fresh = empty_rx
                        .try_recv()
                        .unwrap_or_else(|_| Vec::with_capacity(BATCH));
                    // An error here means the indexer is gone: nothing to do.
                    let _ = full_tx.send(std::mem::replace(batch, fresh));
                })
            });
            for mut batch in full_rx {
                for located in batch.drain(..) {
                    builder.event(located.offset, located.event);
                }
                let _ = empty_tx.send(batch);
            }
            decoding
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        builder.finish(valid_len, error)
    }

    /// Indexes an already decoded stream.
    #[must_use]
    pub fn from_decoded(decoded: Decoded) -> Self {
        let mut builder = Builder::default();
        for located in decoded.events {
            builder.event(located.offset, located.event);
        }
        builder.finish(decoded.valid_len, decoded.error)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{kinds, sample};
    use super::*;
    use cspace_recorder as rec;

    #[test]
    fn damaged_streams_keep_their_prefix() {
        let bytes = sample();
        let full = Trace::from_bytes(&bytes);
        let cut = Trace::from_bytes(&bytes[..bytes.len() - 1]);
        assert!(cut.error.as_ref().is_some_and(DecodeError::is_truncation));
        assert_eq!(cut.len(), full.len() - 1);
        let mut corrupt = bytes.clone();
        let off = full.offset(10).expect("event 10") as usize;
        corrupt[off..].fill(0xff);
        let c = Trace::from_bytes(&corrupt);
        assert_eq!(c.len(), 10);
        assert_eq!(c.error.as_ref().map(DecodeError::offset), Some(off as u64));
        let garbage = Trace::from_bytes(b"not a recording at all");
        assert!(garbage.is_empty() && garbage.error.is_some());
        let empty = Trace::from_bytes(&[]);
        assert!(empty.is_empty());
        let same = Trace::from_decoded(cspace_recorder::decode(&bytes));
        assert_eq!(same.len(), full.len());
    }

    #[test]
    fn decoding_on_a_second_thread_indexes_the_same() {
        let mut bytes = sample();
        for _ in 0..1000 {
            let again = sample();
            bytes.extend_from_slice(&again[rec::stream::header().len()..]);
        }
        for len in [bytes.len(), bytes.len() - 3, 7, 0] {
            let one = Trace::from_bytes_on(&bytes[..len], false);
            let two = Trace::from_bytes_on(&bytes[..len], true);
            assert_eq!(one.entries, two.entries);
            assert_eq!(one.offsets, two.offsets);
            assert_eq!(one.parent, two.parent);
            assert_eq!(one.log, two.log);
            assert_eq!(one.drawables, two.drawables);
            assert_eq!(one.simplices, two.simplices);
            assert_eq!(one.text_bytes, two.text_bytes);
            assert_eq!(one.text_ends, two.text_ends);
            assert_eq!(one.values, two.values);
            assert_eq!(one.offset_highs, two.offset_highs);
            assert_eq!((one.valid_len, &one.error), (two.valid_len, &two.error));
            for c in (0..=one.len()).step_by(7) {
                assert_eq!(kinds(&one, c), kinds(&two, c), "at {c}");
            }
        }
        assert!(Trace::from_bytes_on(&bytes, true).steps() == 3003);
    }

    #[test]
    fn offsets_past_4_gib_keep_their_upper_half() {
        let offsets = [8, 9, (5 << 32) | 7, (5 << 32) + 20, 6 << 32, u64::MAX];
        let t = Trace::from_decoded(Decoded::from_events(offsets.map(|offset| Located {
            offset,
            event: rec::Event::Pause { site: 0 },
        })));
        for (i, &o) in offsets.iter().enumerate() {
            assert_eq!(t.offset(i as u32), Some(o));
        }
        assert_eq!(t.offset(offsets.len() as u32), None);
    }
}
