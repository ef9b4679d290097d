//! Ids for a dialect's todos: the agent's own where it gives them, else derived from the
//! text, so that the same text keeps the same id across updates.

use std::collections::{BTreeMap, BTreeSet};

/// The longest id planloop gives (a todo's id schema).
pub(super) const ID_MAX: usize = 40;

/// Lowercase ASCII words of `text` joined by `_`, at most [`ID_MAX`] characters (empty
/// when it has no ASCII letter or digit). The slug of a slug is itself.
pub(super) fn slug(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('_') {
            slug.push('_');
        }
        if slug.len() >= ID_MAX {
            break;
        }
    }
    slug.truncate(slug.trim_end_matches('_').len());
    slug
}

/// A stable id from text: lowercase ASCII words joined by `_`, at most 40 characters,
/// `todo_N` when the text has no ASCII letters or digits, and a suffix when taken.
pub(super) fn unique_id(text: &str, index: usize, taken: &mut Taken) -> String {
    let slug = slug(text);
    let base = if slug.is_empty() { format!("todo_{}", index + 1) } else { slug };
    let mut id = base.clone();
    // Suffixes go on from the last one this base was given, so that a list of many
    // equal texts is not quadratic.
    let next = taken.suffixes.entry(base.clone()).or_insert(2);
    while taken.ids.contains(&id) {
        let suffix = format!("_{next}");
        id = format!("{}{suffix}", &base[..base.len().min(ID_MAX - suffix.len())]);
        *next += 1;
    }
    taken.ids.insert(id.clone());
    id
}

/// The ids given so far in one list, and the next suffix of each base.
#[derive(Default)]
pub(super) struct Taken {
    ids: BTreeSet<String>,
    suffixes: BTreeMap<String, usize>,
}
