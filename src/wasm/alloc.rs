//! The modules' allocator: talc, with the small blocks freed kept for reuse by size.
//!
//! A decision allocates and frees about fifty small blocks (keys, strings, the trail's
//! lines, the output), and the general allocator's binning and coalescing of each was a
//! tenth of its time. Keeping freed blocks of up to [`LARGEST`] bytes on one free list per
//! 8-byte size class makes most allocations a pop and most frees a push. Measured,
//! interleaved in one process: a decision 10–14 % faster; talc, dlmalloc and rlsf alone
//! all gave the same time as one another, so none of them does this part. What the lists
//! hold is capped at [`KEPT_MAX`] bytes; past that, freed blocks go back to talc, so a
//! burst of one size cannot keep memory from the others for long.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::ptr;

/// The largest block kept; larger ones go to the inner allocator directly.
const LARGEST: usize = 256;
/// Blocks are kept in classes of 8 bytes (8, 16, …, 256), aligned to 8.
const STEP: usize = 8;
const CLASSES: usize = LARGEST / STEP;
/// The most bytes the free lists hold in all.
const KEPT_MAX: usize = 256 * 1024;

/// `inner`, with a free list per size class in front of it.
pub struct SizeClasses<A> {
    inner: A,
    state: UnsafeCell<Lists>,
}

struct Lists {
    /// Each class's first free block; a free block's first word points to the next.
    heads: [*mut u8; CLASSES],
    /// The bytes all the lists hold.
    kept: usize,
}

// A module without threads (the only place a `SizeClasses` is the global allocator)
// never calls it from two threads.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
unsafe impl<A: Sync> Sync for SizeClasses<A> {}

impl<A> SizeClasses<A> {
    pub const fn new(inner: A) -> Self {
        SizeClasses { inner, state: UnsafeCell::new(Lists { heads: [ptr::null_mut(); CLASSES], kept: 0 }) }
    }
}

/// The class of a layout the lists serve, or `None` for one they leave to the inner
/// allocator (larger than [`LARGEST`], or aligned to more than a class's blocks are).
fn class(layout: Layout) -> Option<usize> {
    (layout.size() <= LARGEST && layout.align() <= STEP).then(|| layout.size().max(1).div_ceil(STEP) - 1)
}

/// The layout of a class's blocks, as the inner allocator sees them.
fn block(class: usize) -> Layout {
    // SAFETY: a class's size (8..=256) is a multiple of its alignment, a power of two.
    unsafe { Layout::from_size_align_unchecked((class + 1) * STEP, STEP) }
}

// Not inlined: built for speed, every allocation site would take a copy of each (the
// primitives module 23 KB larger), for no time measured.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SizeClasses<A> {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class(layout) else {
            return self.inner.alloc(layout);
        };
        let lists = &mut *self.state.get();
        let head = lists.heads[class];
        if head.is_null() {
            return self.inner.alloc(block(class));
        }
        lists.heads[class] = head.cast::<*mut u8>().read();
        lists.kept -= block(class).size();
        head
    }

    #[inline(never)]
    unsafe fn dealloc(&self, block_ptr: *mut u8, layout: Layout) {
        let Some(class) = class(layout) else {
            return self.inner.dealloc(block_ptr, layout);
        };
        let lists = &mut *self.state.get();
        let size = block(class).size();
        if lists.kept + size > KEPT_MAX {
            return self.inner.dealloc(block_ptr, block(class));
        }
        block_ptr.cast::<*mut u8>().write(lists.heads[class]);
        lists.heads[class] = block_ptr;
        lists.kept += size;
    }

    unsafe fn realloc(&self, old: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class(layout), class(new_layout)) {
            // The block already holds the new size.
            (Some(from), Some(to)) if from == to => old,
            (None, None) => self.inner.realloc(old, layout, new_size),
            _ => {
                let new = self.alloc(new_layout);
                if !new.is_null() {
                    ptr::copy_nonoverlapping(old, new, layout.size().min(new_size));
                    self.dealloc(old, layout);
                }
                new
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use std::alloc::System;
    use std::cell::Cell;

    /// The system allocator, counting what is allocated from it and given back.
    struct Counted {
        live: Cell<isize>,
        bytes: Cell<isize>,
    }

    unsafe impl GlobalAlloc for Counted {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            self.live.set(self.live.get() + 1);
            self.bytes.set(self.bytes.get() + layout.size() as isize);
            System.alloc(layout)
        }
        unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
            self.live.set(self.live.get() - 1);
            self.bytes.set(self.bytes.get() - layout.size() as isize);
            System.dealloc(block, layout)
        }
    }

    fn counted() -> SizeClasses<Counted> {
        SizeClasses::new(Counted { live: Cell::new(0), bytes: Cell::new(0) })
    }

    /// A live block: where, its layout, and the byte it was filled with.
    struct Live {
        at: *mut u8,
        layout: Layout,
        fill: u8,
    }

    fn intact(block: &Live) -> bool {
        (0..block.layout.size()).all(|i| unsafe { block.at.add(i).read() } == block.fill)
    }

    #[test]
    fn blocks_never_overlap_and_keep_their_bytes_through_reallocation_and_reuse() {
        let heap = counted();
        let mut rng = Rng::seeded(11);
        let mut live: Vec<Live> = Vec::new();
        for step in 0..40_000u32 {
            let fill = (step % 251) as u8;
            match rng.below(4) {
                0 | 1 => {
                    // Mostly small, some past LARGEST, now and then aligned to more than 8.
                    let largest = if rng.below(8) == 0 { 1024 } else { 300 };
                    let size = 1 + rng.below(largest);
                    let align = [1, 2, 4, 8, 8, 8, 16, 64][rng.below(8)];
                    let layout = Layout::from_size_align(size, align).unwrap();
                    let at = unsafe { heap.alloc(layout) };
                    assert!(!at.is_null() && at as usize % align == 0, "{layout:?}");
                    unsafe { ptr::write_bytes(at, fill, size) };
                    live.push(Live { at, layout, fill });
                }
                2 if !live.is_empty() => {
                    let index = rng.below(live.len());
                    let block = live.swap_remove(index);
                    assert!(intact(&block), "a freed block was overwritten while live");
                    unsafe { heap.dealloc(block.at, block.layout) };
                }
                _ if !live.is_empty() => {
                    let index = rng.below(live.len());
                    let block = &mut live[index];
                    assert!(intact(block));
                    let new_size = 1 + rng.below(600);
                    let kept = block.layout.size().min(new_size);
                    let at = unsafe { heap.realloc(block.at, block.layout, new_size) };
                    assert!(!at.is_null() && at as usize % block.layout.align() == 0);
                    assert!((0..kept).all(|i| unsafe { at.add(i).read() } == block.fill), "realloc lost bytes");
                    unsafe { ptr::write_bytes(at, block.fill, new_size) };
                    block.at = at;
                    block.layout = Layout::from_size_align(new_size, block.layout.align()).unwrap();
                }
                _ => {}
            }
        }
        assert!(live.iter().all(intact));
        for block in live {
            unsafe { heap.dealloc(block.at, block.layout) };
        }
    }

    #[test]
    fn a_freed_small_block_is_reused_for_its_class_without_asking_the_inner_allocator() {
        let heap = counted();
        let small = Layout::from_size_align(20, 4).unwrap();
        let first = unsafe { heap.alloc(small) };
        unsafe { heap.dealloc(first, small) };
        // 17..=24 bytes share a class.
        let again = unsafe { heap.alloc(Layout::from_size_align(24, 8).unwrap()) };
        assert_eq!(again, first);
        assert_eq!(heap.inner.live.get(), 1);
        // Growing within the class keeps the block; past it, the block moves.
        assert_eq!(unsafe { heap.realloc(again, Layout::from_size_align(24, 8).unwrap(), 17) }, again);
        let moved = unsafe { heap.realloc(again, Layout::from_size_align(17, 8).unwrap(), 100) };
        assert_ne!(moved, again);
        unsafe { heap.dealloc(moved, Layout::from_size_align(100, 8).unwrap()) };
    }

    #[test]
    fn large_and_overaligned_blocks_go_straight_back_to_the_inner_allocator() {
        let heap = counted();
        for layout in [Layout::from_size_align(LARGEST + 1, 8).unwrap(), Layout::from_size_align(32, 16).unwrap()] {
            let at = unsafe { heap.alloc(layout) };
            assert_eq!(heap.inner.live.get(), 1);
            unsafe { heap.dealloc(at, layout) };
            assert_eq!(heap.inner.live.get(), 0, "{layout:?} was kept");
        }
    }

    #[test]
    fn the_lists_hold_at_most_kept_max_bytes_and_give_the_rest_back() {
        let heap = counted();
        let layout = Layout::from_size_align(LARGEST, 8).unwrap();
        let count = 2 * KEPT_MAX / LARGEST;
        let blocks: Vec<*mut u8> = (0..count).map(|_| unsafe { heap.alloc(layout) }).collect();
        for block in blocks {
            unsafe { heap.dealloc(block, layout) };
        }
        assert_eq!(heap.inner.bytes.get() as usize, KEPT_MAX);
        assert_eq!(unsafe { &*heap.state.get() }.kept, KEPT_MAX);
    }
}
