//! Ids for a dialect's todos: the agent's own where it gives them, else derived from the
//! text, so that the same text keeps the same id across updates.

use crate::text::part;

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
    // equal texts does not try them all again.
    let next = match place(&taken.suffixes, &base, |(b, _)| b) {
        Ok(at) => at,
        Err(at) => {
            taken.suffixes.insert(at, (base.clone(), 2));
            at
        }
    };
    // Searched once per try: the try that is free also says where it goes.
    let free = loop {
        match place(&taken.ids, &id, |given| given) {
            Err(free) => break free,
            Ok(_) => {
                let suffix = format!("_{}", taken.suffixes[next].1);
                id = format!("{}{suffix}", part(&base, ..base.len().min(ID_MAX - suffix.len())));
                taken.suffixes[next].1 += 1;
            }
        }
    };
    taken.ids.insert(free, id.clone());
    id
}

/// The ids given so far in one list, and the next suffix of each base, each in key
/// order: a list has at most [`super::MAX_TODOS`] items, and sorted vectors cost the
/// module far less than B-trees (5 KB).
#[derive(Default)]
pub(super) struct Taken {
    ids: Vec<String>,
    suffixes: Vec<(String, usize)>,
}

/// Where `key` is in `sorted` (by `key_of`), or where it would go.
fn place<T>(sorted: &[T], key: &str, key_of: impl Fn(&T) -> &String) -> Result<usize, usize> {
    sorted.binary_search_by(|item| key_of(item).as_str().cmp(key))
}
