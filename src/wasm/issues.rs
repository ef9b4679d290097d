//! Validation issues for the JS layer to build (`issues()` in `src/wasm/js/engine.ts`),
//! written as every structured result is (see [`Out`]). On the invalid path this is an
//! order of magnitude faster than `JSON.parse` of the same issues, and the messages are
//! still written here.
//!
//! An issue is its kind (the order of [`Issue`]'s variants), its path (a count, then per
//! segment 0 and a string, or 1 and an index), its own fields, then its message.

use super::io::Out;
use crate::error::issue::{Issue, Origin, PathSegment};

impl Out<'_> {
    /// A count, then each issue.
    pub fn issues(&mut self, issues: &[Issue]) {
        self.numbers.push(issues.len() as u32);
        for issue in issues {
            self.issue(issue);
        }
    }

    fn issue(&mut self, issue: &Issue) {
        let kind = match issue {
            Issue::InvalidType(_) => 0,
            Issue::TooSmall(_) => 1,
            Issue::TooBig(_) => 2,
            Issue::InvalidValue(_) => 3,
            Issue::UnrecognizedKeys(_) => 4,
            Issue::InvalidUnion(_) => 5,
            Issue::InvalidFormat(_) => 6,
            Issue::InvalidJson(_) => 7,
            Issue::Custom(_) => 8,
        };
        self.numbers.push(kind);
        self.path(issue.path());
        match issue {
            Issue::InvalidType(i) => self.numbers.push(i.expected as u32),
            Issue::TooSmall(i) => self.size(i.origin, i.minimum, i.inclusive),
            Issue::TooBig(i) => self.size(i.origin, i.maximum, i.inclusive),
            Issue::InvalidValue(i) => self.strings(&i.values),
            Issue::UnrecognizedKeys(i) => self.strings(&i.keys),
            Issue::InvalidUnion(i) => {
                self.numbers.push(i.errors.len() as u32);
                for alternative in &i.errors {
                    self.issues(alternative);
                }
            }
            Issue::InvalidFormat(i) => self.numbers.push(i.origin as u32),
            Issue::InvalidJson(i) => self.numbers.push(i.position),
            Issue::Custom(_) => {}
        }
        self.string(issue.message());
    }

    fn path(&mut self, path: &[PathSegment]) {
        self.numbers.push(path.len() as u32);
        for segment in path {
            match segment {
                PathSegment::Key(key) => {
                    self.numbers.push(0);
                    self.string(key);
                }
                PathSegment::Index(index) => self.numbers.extend([1, *index, 0]),
            }
        }
    }

    pub(super) fn size(&mut self, origin: Origin, limit: f64, inclusive: bool) {
        self.number(origin as u32);
        self.float(limit);
        self.flag(inclusive);
    }
}
