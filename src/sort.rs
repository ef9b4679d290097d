//! One small sort for the few places planloop orders things (repeated keys, offsets,
//! snapshot ids).
//!
//! The standard library's sorts are fast but large: each call site instantiates its own
//! quicksort, small-sort networks and merges, 26 KB of the primitives' 289 KB module for
//! three call sites (measured with `twiggy`). The lists sorted here are an object's keys
//! or a handful of offsets, so a heapsort (a few hundred bytes a site, n log n whatever
//! the input, no allocation) costs nothing that shows.

/// Sorts `items` so that no item is `less` than one before it. Not stable: a caller that
/// needs ties in their first order compares positions too.
pub fn sort_by<T>(items: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    let len = items.len();
    for root in (0..len / 2).rev() {
        sift_down(items, root, len, &mut less);
    }
    for end in (1..len).rev() {
        items.swap(0, end);
        sift_down(items, 0, end, &mut less);
    }
}

/// Which of `items` equal one before them (`true` at each repeat, `false` at each
/// first): found by sorting their places, n log n, where a set of those seen brought a
/// B-tree (5 KB of the session module) for the two lists that need it.
pub fn repeats<T: Ord>(items: &[T]) -> Vec<bool> {
    first_equals(items).iter().map(Option::is_some).collect()
}

/// For each of `items`, the place of the first item before it that it equals (`None` at
/// each first), found the way [`repeats`] finds them.
pub fn first_equals<T: Ord>(items: &[T]) -> Vec<Option<usize>> {
    let order = places_by(items.len(), |i| &items[i]);
    let mut first = vec![None; items.len()];
    let mut head = 0;
    for (k, &place) in order.iter().enumerate() {
        // Equal items sit together, the first of them (the lowest place) first.
        if k > 0 && items[order[k - 1]] == items[place] {
            first[place] = Some(head);
        } else {
            head = place;
        }
    }
    first
}

/// The places `0..len` in the order of their `key`, equal keys in place order: so equal
/// keys sit together, the first of them first.
pub fn places_by<K: Ord>(len: usize, key: impl Fn(usize) -> K) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    sort_by(&mut order, |&a, &b| (key(a), a) < (key(b), b));
    order
}

/// Moves `items[root]` down the heap `items[..end]` until its children are not greater.
fn sift_down<T>(items: &mut [T], mut root: usize, end: usize, less: &mut impl FnMut(&T, &T) -> bool) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(&items[child], &items[child + 1]) {
            child += 1;
        }
        if !less(&items[root], &items[child]) {
            return;
        }
        items.swap(root, child);
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_sort_does() {
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        for len in (0..40).chain([100, 1000, 4097]) {
            let mut items: Vec<u32> = (0..len).map(|_| rng.below(50) as u32).collect();
            let mut expected = items.clone();
            expected.sort();
            sort_by(&mut items, |a, b| a < b);
            assert_eq!(items, expected, "{len} items");
        }
    }

    #[test]
    fn repeats_are_the_items_an_earlier_one_equals() {
        let mut rng = crate::test_rng::Rng(0x2545_F491_4F6C_DD1D);
        for len in 0..200 {
            let items: Vec<u32> = (0..len).map(|_| rng.below(12) as u32).collect();
            let expected: Vec<bool> = (0..items.len()).map(|i| items[..i].contains(&items[i])).collect();
            assert_eq!(repeats(&items), expected, "{items:?}");
        }
        assert_eq!(repeats(&["b", "a", "b", "a", "c"]), [false, false, true, true, false]);
    }

    #[test]
    fn each_repeat_names_the_first_item_it_equals() {
        let mut rng = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        for len in 0..200 {
            let items: Vec<u32> = (0..len).map(|_| rng.below(12) as u32).collect();
            let expected: Vec<Option<usize>> =
                (0..items.len()).map(|i| items[..i].iter().position(|x| *x == items[i])).collect();
            assert_eq!(first_equals(&items), expected, "{items:?}");
        }
    }

    #[test]
    fn ties_keep_their_order_when_positions_are_compared() {
        let mut pairs: Vec<(&str, usize)> = ["b", "a", "b", "a", "c", "a"].into_iter().zip(0..).collect();
        sort_by(&mut pairs, |a, b| a < b);
        assert_eq!(pairs, [("a", 1), ("a", 3), ("a", 5), ("b", 0), ("b", 2), ("c", 4)]);
    }
}
