//! The decode-only Wasm build's allocator: a bump pointer over linear memory that starts over whenever nothing is
//! allocated any more. An instance decodes one file (`stream_api.rs`): the input windows, the tree and the models
//! come and go, and the output is the one allocation left when it returns. Allocation is a few instructions,
//! freeing is a counter (plus giving back the top block), and the module carries no general-purpose allocator
//! (dlmalloc was about 7 KB of it). The full build (encoder, long-lived Worker instances) keeps Rust's default
//! allocator.
//!
//! Single-threaded by construction: wasm32-unknown-unknown without the atomics feature has one thread.

use alloc::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::{memory_grow, memory_size};
use core::cell::UnsafeCell;

const PAGE_BYTES: usize = 65_536;
/// Memory grows by at least this much at a time (1 MiB), so a growing tree does not call `memory.grow` per page.
const MIN_GROW_PAGES: usize = 16;

/// Heap bounds and the number of live allocations.
struct State {
    /// Where the heap starts: the end of the memory the module was instantiated with (data and stack lie below).
    base: usize,
    top: usize,
    end: usize,
    live: usize,
}

/// The allocator; see the module documentation.
pub struct BumpAllocator(UnsafeCell<State>);

// SAFETY: this target has a single thread, so the state is never accessed concurrently.
unsafe impl Sync for BumpAllocator {}

impl BumpAllocator {
    /// An allocator that takes its heap from the end of memory on first use.
    pub const fn new() -> BumpAllocator {
        BumpAllocator(UnsafeCell::new(State {
            base: 0,
            top: 0,
            end: 0,
            live: 0,
        }))
    }
}

impl State {
    /// Makes room up to `new_top` (growing memory if needed); false when memory cannot grow.
    fn reserve(&mut self, new_top: usize) -> bool {
        if new_top <= self.end {
            return true;
        }
        let pages = (new_top - self.end)
            .div_ceil(PAGE_BYTES)
            .max(MIN_GROW_PAGES);
        if memory_grow(0, pages) == usize::MAX {
            return false;
        }
        self.end += pages * PAGE_BYTES;
        true
    }
}

unsafe impl GlobalAlloc for BumpAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: single-threaded (see the `Sync` impl), and no reference to the state outlives this call.
        let state = unsafe { &mut *self.0.get() };
        if state.end == 0 {
            state.base = memory_size(0) * PAGE_BYTES;
            state.top = state.base;
            state.end = state.base;
        }
        let start = (state.top + layout.align() - 1) & !(layout.align() - 1);
        let Some(new_top) = start.checked_add(layout.size()) else {
            return core::ptr::null_mut();
        };
        if !state.reserve(new_top) {
            return core::ptr::null_mut();
        }
        state.top = new_top;
        state.live += 1;
        start as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as in `alloc`.
        let state = unsafe { &mut *self.0.get() };
        state.live -= 1;
        if state.live == 0 {
            state.top = state.base;
        } else if ptr as usize + layout.size() == state.top {
            state.top = ptr as usize;
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let state = unsafe { &mut *self.0.get() };
        let start = ptr as usize;
        // The top block (a growing output buffer or list) grows or shrinks in place.
        if start + layout.size() == state.top {
            let Some(new_top) = start.checked_add(new_size) else {
                return core::ptr::null_mut();
            };
            if !state.reserve(new_top) {
                return core::ptr::null_mut();
            }
            state.top = new_top;
            return ptr;
        }
        if new_size <= layout.size() {
            return ptr;
        }
        // SAFETY: the caller guarantees `layout.align()` is a valid alignment and `new_size` fits `isize`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: a fresh block, then the old one's bytes copied and the old one freed, as `GlobalAlloc` requires.
        unsafe {
            let new_ptr = self.alloc(new_layout);
            if !new_ptr.is_null() {
                core::ptr::copy_nonoverlapping(ptr, new_ptr, layout.size());
                self.dealloc(ptr, layout);
            }
            new_ptr
        }
    }
}
