//! The decoder allocates by the bytes present, not by the lengths a frame
//! claims: a 20-byte frame declaring a simplex of 2^40 vertices fails with a
//! reason, having allocated next to nothing. Measured with a counting
//! allocator (this test binary's global allocator).

use cspace_recorder::{DecodeError, decode, stream};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, remembering the largest single allocation.
struct Counting;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to `System` unchanged; only records sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: as for `realloc` of `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn a_claimed_vector_length_costs_only_the_bytes_present() {
    // Simplex (variant 8), site 0, vertex count 2^40 as a u64 varint, then padding.
    let mut payload = vec![8u8, 0, 0xfd];
    payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
    payload.resize(20, 0);
    let mut bytes = stream::header().to_vec();
    bytes.push(payload.len() as u8);
    bytes.extend_from_slice(&payload);
    LARGEST.store(0, Ordering::Relaxed);
    let d = decode(&bytes);
    let largest = LARGEST.load(Ordering::Relaxed);
    let Some(DecodeError::Corrupt { offset: 8, reason }) = &d.error else {
        panic!("expected a corrupt event at byte 8: {:?}", d.error);
    };
    assert!(
        !reason.trim().is_empty() && !reason.trim_end().ends_with(':'),
        "{reason:?}"
    );
    assert!(
        largest < 4096,
        "the decoder allocated {largest} bytes for a 20-byte frame"
    );
}
