//! The instances JS objects stand for (`PlannerState`, `Session`, …), by handle. A JS
//! object holds its handle; the JS layer frees it when the object is collected or
//! `free()` is called. A handle of a freed instance is refused, never reused for another
//! object while the old one could still use it (handles only grow).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::thread::LocalKey;

use crate::error::{Error, Result};

pub struct Slab<T> {
    items: BTreeMap<u32, T>,
    next: u32,
}

impl<T> Slab<T> {
    pub const fn new() -> Self {
        Slab { items: BTreeMap::new(), next: 1 }
    }
}

/// A table of instances in a thread-local.
pub type Table<T> = LocalKey<RefCell<Slab<T>>>;

/// Keeps `item`; its handle.
pub fn insert<T>(table: &'static Table<T>, item: T) -> Result<u32> {
    table.with(|slab| {
        let mut slab = slab.borrow_mut();
        let handle = slab.next;
        slab.next = handle.checked_add(1).ok_or_else(|| Error::internal("out of handles"))?;
        slab.items.insert(handle, item);
        Ok(handle)
    })
}

/// Runs `work` on the instance of `handle`.
pub fn with<T, R>(table: &'static Table<T>, handle: u32, work: impl FnOnce(&mut T) -> Result<R>) -> Result<R> {
    // Taken out for the call: an instance is never borrowed twice, even if `work` fails.
    let mut item = table
        .with(|slab| slab.borrow_mut().items.remove(&handle))
        .ok_or_else(|| Error::invalid_state("this call", "the object was freed: make a new one"))?;
    let result = work(&mut item);
    table.with(|slab| slab.borrow_mut().items.insert(handle, item));
    result
}

/// Drops the instance of `handle` (nothing when it is already gone).
pub fn remove<T>(table: &'static Table<T>, handle: u32) {
    // Dropped after the borrow ends.
    let removed = table.with(|slab| slab.borrow_mut().items.remove(&handle));
    drop(removed);
}
