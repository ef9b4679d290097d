//! The instances JS objects stand for (`PlannerState`, `Session`, …), by handle. A JS
//! object holds its handle; the JS layer frees it when the object is collected or
//! `free()` is called. A slot is reused after its instance is freed, with a new
//! generation in the handle, so an old handle is refused rather than reaching another
//! object.

use std::cell::RefCell;
use std::thread::LocalKey;

use crate::error::{Error, Result};

/// Handles are the slot's index in the low bits and its generation above them.
const INDEX_BITS: u32 = 20;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;

pub struct Slab<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

/// An instance is boxed, so that taking it out for a call and putting it back moves a
/// pointer rather than the whole instance (a `Session` is hundreds of bytes).
struct Slot<T> {
    generation: u32,
    item: Option<Box<T>>,
}

impl<T> Slab<T> {
    pub const fn new() -> Self {
        Slab { slots: Vec::new(), free: Vec::new() }
    }
}

/// A table of instances in a thread-local.
pub type Table<T> = LocalKey<RefCell<Slab<T>>>;

/// Keeps `item`; its handle.
pub fn insert<T>(table: &'static Table<T>, item: T) -> Result<u32> {
    table.with(|slab| {
        let mut slab = slab.borrow_mut();
        let index = match slab.free.pop() {
            Some(index) => index,
            None if slab.slots.len() <= INDEX_MASK as usize => {
                slab.slots.push(Slot { generation: 0, item: None });
                slab.slots.len() as u32 - 1
            }
            None => return Err(Error::internal("more than a million live objects")),
        };
        let slot = &mut slab.slots[index as usize];
        slot.generation = (slot.generation + 1) & (u32::MAX >> INDEX_BITS);
        slot.item = Some(Box::new(item));
        Ok(slot.generation << INDEX_BITS | index)
    })
}

/// Runs `work` on the instance of `handle`.
pub fn with<T, R>(table: &'static Table<T>, handle: u32, work: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
    // Taken out for the call: an instance is never borrowed twice, even if `work` fails.
    let mut item = take(table, handle)?;
    let result = work(&mut item);
    put_back(table, handle, item);
    result
}

// Taking out and putting back are apart from `with`, which is made once per operation
// (for each closure): kept out of line, they are in the module once per table.
#[inline(never)]
fn take<T>(table: &'static Table<T>, handle: u32) -> Result<Box<T>> {
    table
        .with(|slab| slab.borrow_mut().slot(handle).and_then(|slot| slot.item.take()))
        .ok_or_else(|| Error::invalid_state("this call", "the object was freed: make a new one"))
}

#[inline(never)]
fn put_back<T>(table: &'static Table<T>, handle: u32, item: Box<T>) {
    table.with(|slab| {
        if let Some(slot) = slab.borrow_mut().slot(handle) {
            slot.item = Some(item);
        }
    });
}

/// Drops the instance of `handle` (nothing when it is already gone).
pub fn remove<T>(table: &'static Table<T>, handle: u32) {
    let removed = table.with(|slab| {
        let mut slab = slab.borrow_mut();
        let item = slab.slot(handle).and_then(|slot| slot.item.take());
        if item.is_some() {
            slab.free.push(handle & INDEX_MASK);
        }
        item
    });
    // Dropped after the borrow ends.
    drop(removed);
}

impl<T> Slab<T> {
    /// The slot `handle` names, if its generation is current.
    fn slot(&mut self, handle: u32) -> Option<&mut Slot<T>> {
        let slot = self.slots.get_mut((handle & INDEX_MASK) as usize)?;
        (slot.generation == handle >> INDEX_BITS).then_some(slot)
    }
}
