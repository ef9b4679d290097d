//! Finds a string among a known number of others in constant time: an open-addressing
//! table of FNV fingerprints, which compares a key only with those in its slot. Prompt
//! composition looks up a value for every placeholder and checks every component name
//! against the others; in the module, a tree map's byte-wise compares cost more than
//! the rest of that work (measured), and a look back is quadratic.

use crate::text::fingerprint::fnv1a;

pub struct Index<'a> {
    keys: Vec<&'a str>,
    /// Each slot holds a position in `keys`, or `EMPTY`.
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;
/// Up to this many keys, [`Index::get`] compares `key` with each.
const FEW: usize = 8;

impl<'a> Index<'a> {
    /// An index with room for `capacity` keys (more are never added).
    pub fn with_capacity(capacity: usize) -> Self {
        Index { keys: Vec::with_capacity(capacity), slots: vec![EMPTY; (2 * capacity).next_power_of_two()] }
    }

    /// Adds `key`: its position, or `Err` with the position of the same key added before.
    /// Refused (`Err` of `usize::MAX`) past the capacity given.
    pub fn insert(&mut self, key: &'a str) -> Result<usize, usize> {
        if 2 * (self.keys.len() + 1) > self.slots.len() {
            return Err(usize::MAX);
        }
        let slot = self.slot(key);
        match self.slots[slot] {
            EMPTY => {
                self.slots[slot] = self.keys.len() as u32;
                self.keys.push(key);
                Ok(self.keys.len() - 1)
            }
            earlier => Err(earlier as usize),
        }
    }

    /// The position `key` was added at.
    pub fn get(&self, key: &str) -> Option<usize> {
        // A few keys are looked through faster than a fingerprint is made: a prompt's
        // values are usually a handful (measured: composePrompt 4 % faster with 4).
        if self.keys.len() <= FEW {
            for (at, known) in self.keys.iter().enumerate() {
                if same(known.as_bytes(), key.as_bytes()) {
                    return Some(at);
                }
            }
            return None;
        }
        match self.slots[self.slot(key)] {
            EMPTY => None,
            found => Some(found as usize),
        }
    }

    /// The slot that holds `key`, or the empty one where it would go.
    fn slot(&self, key: &str) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = fnv1a(key.as_bytes()) as usize & mask;
        while self.slots[at] != EMPTY && self.keys[self.slots[at] as usize] != key {
            at = (at + 1) & mask;
        }
        at
    }
}

/// `a == b`, compared in an inlined loop: in the session module, built for size, a
/// slice comparison is a call, and a placeholder's key is a few bytes (measured:
/// `composePrompt` 3 % faster, its 150 placeholders each looked up among 4 values).
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_key_where_it_was_added_and_refuses_repeats() {
        let names: Vec<String> = (0..300u32).map(|i| format!("n{}", i * 7919 % 97)).collect();
        let mut index = Index::with_capacity(names.len());
        let mut first = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let before = names[..i].iter().position(|n| n == name);
            match index.insert(name) {
                Ok(at) => {
                    assert_eq!(before, None, "{name}");
                    assert_eq!(at, first.len());
                    first.push(name.as_str());
                }
                Err(at) => assert_eq!(Some(first[at]), before.map(|b| names[b].as_str())),
            }
        }
        for (at, name) in first.iter().enumerate() {
            assert_eq!(index.get(name), Some(at));
        }
        assert_eq!(index.get("missing"), None);
        assert_eq!(Index::with_capacity(0).get("x"), None);
    }

    #[test]
    fn a_few_keys_are_found_as_many_are() {
        // Either side of `FEW`: keys of one length, so that only their bytes tell them apart.
        for count in 0..=FEW + 2 {
            let keys: Vec<String> = (0..count).map(|i| format!("k{i:02}")).collect();
            let mut index = Index::with_capacity(count);
            keys.iter().for_each(|key| assert!(index.insert(key).is_ok()));
            for (at, key) in keys.iter().enumerate() {
                assert_eq!(index.get(key), Some(at), "{count} keys");
            }
            assert_eq!(index.get("k99"), None, "{count} keys");
            assert_eq!(index.get("k0"), None, "{count} keys");
        }
    }

    #[test]
    fn refuses_keys_past_its_capacity() {
        let mut index = Index::with_capacity(1);
        assert_eq!(index.insert("a"), Ok(0));
        assert_eq!(index.insert("b"), Err(usize::MAX));
    }
}
