//! Counts heap allocations and frees, per thread, so a test can prove that a hot
//! path never touches the heap: an audio thread must neither allocate nor free
//! (a free can take the allocator's lock as an allocation can). The one place in the workspace with `unsafe` code: a
//! `GlobalAlloc` can only be implemented unsafely.
//!
//! ```
//! #[global_allocator]
//! static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;
//!
//! fn main() {
//!     let mut buffer = Vec::with_capacity(64);
//!     let count = alloc_counter::allocations_during(|| buffer.extend_from_slice(b"fits"));
//!     assert_eq!(count, 0, "the hot path reuses its buffer");
//!     assert_eq!(alloc_counter::allocations_during(|| drop(vec![1u8; 1024])), 1);
//!     let data = vec![1u8; 1024];
//!     assert_eq!(alloc_counter::frees_during(|| drop(data)), 1);
//! }
//! ```
#![deny(missing_docs)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static FREES: Cell<u64> = const { Cell::new(0) };
    /// Bytes allocated minus bytes freed on this thread (a block freed on another
    /// thread than its own makes it drift; the peak measures one thread's work).
    static LIVE_BYTES: Cell<i64> = const { Cell::new(0) };
    static PEAK_BYTES: Cell<i64> = const { Cell::new(0) };
}

/// The system allocator, counting every allocation and reallocation made on each
/// thread, and every free. Install it with `#[global_allocator]` in a test or benchmark binary.
///
/// ```
/// #[global_allocator]
/// static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;
///
/// fn main() {
///     let before = alloc_counter::thread_allocations();
///     let boxed = Box::new(7u64);
///     assert_eq!(alloc_counter::thread_allocations() - before, 1);
///     assert_eq!(alloc_counter::allocations_during(|| assert_eq!(*boxed, 7)), 0);
/// }
/// ```
pub struct CountingAllocator;

fn count() {
    ALLOCATIONS.with(|count| count.set(count.get() + 1));
}

fn grow(bytes: i64) {
    let live = LIVE_BYTES.with(|live| {
        live.set(live.get() + bytes);
        live.get()
    });
    PEAK_BYTES.with(|peak| peak.set(peak.get().max(live)));
}

// SAFETY: every call is forwarded unchanged to the system allocator, so its
// contract holds; the counter is a const-initialized thread-local `Cell` without a
// destructor, so counting never allocates or re-enters the allocator.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        grow(layout.size() as i64);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, forwarded as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        FREES.with(|count| count.set(count.get() + 1));
        grow(-(layout.size() as i64));
        // SAFETY: `ptr` was allocated by `System` (through this allocator) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        grow(new_size as i64 - layout.size() as i64);
        // SAFETY: as for `dealloc`, and the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made on this thread so far (0 unless [`CountingAllocator`] is the
/// global allocator).
///
/// ```
/// let before = alloc_counter::thread_allocations();
/// assert!(alloc_counter::thread_allocations() >= before);
/// ```
pub fn thread_allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations `f` made on this thread.
///
/// ```
/// assert_eq!(alloc_counter::allocations_during(|| { let _ = 2 + 2; }), 0);
/// ```
pub fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = thread_allocations();
    f();
    thread_allocations() - before
}

/// Frees made on this thread so far (0 unless [`CountingAllocator`] is the
/// global allocator). A reallocation counts as an allocation, not a free.
///
/// ```
/// let before = alloc_counter::thread_frees();
/// assert!(alloc_counter::thread_frees() >= before);
/// ```
pub fn thread_frees() -> u64 {
    FREES.with(Cell::get)
}

/// Frees `f` made on this thread.
///
/// ```
/// assert_eq!(alloc_counter::frees_during(|| { let _ = 2 + 2; }), 0);
/// ```
pub fn frees_during(f: impl FnOnce()) -> u64 {
    let before = thread_frees();
    f();
    thread_frees() - before
}

/// Allocations and frees `f` made on this thread, in that order.
///
/// ```
/// #[global_allocator]
/// static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;
///
/// fn main() {
///     let kept = vec![0u8; 16];
///     assert_eq!(alloc_counter::heap_calls_during(|| drop(vec![0u8; 8])), (1, 1));
///     assert_eq!(alloc_counter::heap_calls_during(|| drop(kept)), (0, 1));
/// }
/// ```
pub fn heap_calls_during(f: impl FnOnce()) -> (u64, u64) {
    let (allocations, frees) = (thread_allocations(), thread_frees());
    f();
    (thread_allocations() - allocations, thread_frees() - frees)
}

/// The heap bytes this thread holds now: allocated on it and not freed on it
/// (0 unless [`CountingAllocator`] is the global allocator). The difference
/// across a call is what the call kept.
///
/// ```
/// #[global_allocator]
/// static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;
///
/// fn main() {
///     let before = alloc_counter::thread_live_bytes();
///     let kept = vec![0u8; 1000];
///     assert_eq!(alloc_counter::thread_live_bytes() - before, 1000);
///     drop(kept);
///     assert_eq!(alloc_counter::thread_live_bytes(), before);
/// }
/// ```
pub fn thread_live_bytes() -> i64 {
    LIVE_BYTES.with(Cell::get)
}

/// The most heap memory, in bytes, that `f` held at once on this thread beyond
/// what was held when it started (0 unless [`CountingAllocator`] is the global
/// allocator): what a loader needs while it decodes, say.
///
/// ```
/// #[global_allocator]
/// static GLOBAL: alloc_counter::CountingAllocator = alloc_counter::CountingAllocator;
///
/// fn main() {
///     let peak = alloc_counter::peak_bytes_during(|| {
///         let a = vec![0u8; 1000];
///         drop(a);
///         drop(vec![0u8; 600]);
///     });
///     assert_eq!(peak, 1000);
/// }
/// ```
pub fn peak_bytes_during(f: impl FnOnce()) -> usize {
    let before = LIVE_BYTES.with(Cell::get);
    let outer_peak = PEAK_BYTES.with(|peak| peak.replace(before));
    f();
    let peak = PEAK_BYTES.with(Cell::get);
    PEAK_BYTES.with(|cell| cell.set(outer_peak.max(peak)));
    (peak - before).max(0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static GLOBAL: CountingAllocator = CountingAllocator;

    #[test]
    fn counts_allocations_and_reallocations_apart_from_frees() {
        assert_eq!(
            allocations_during(|| drop(std::hint::black_box(Vec::<u8>::with_capacity(8)))),
            1
        );
        let mut grown = Vec::<u64>::with_capacity(1);
        let count = allocations_during(|| grown.extend(0..100));
        assert!(count >= 1, "growing a Vec reallocates");
        assert_eq!(allocations_during(|| drop(grown.clone())), 1);
        assert_eq!(heap_calls_during(|| drop(grown)), (0, 1));
        let boxed = Box::new(7u64);
        assert_eq!(frees_during(|| assert_eq!(*boxed, 7)), 0);
        assert_eq!(frees_during(|| drop(boxed)), 1);
        assert_eq!(
            allocations_during(|| {
                std::hint::black_box(1 + 1);
            }),
            0
        );
    }
}
