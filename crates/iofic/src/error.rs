//! What can be wrong with a request to this crate.

use core::fmt;

/// A rejected request, with the offending value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// A level was asked to hold `requested` groups; a level window holds 1..=`max`.
    GroupCount {
        /// Groups asked for.
        requested: usize,
        /// The most a level window holds ([`crate::layout::MAX_GROUPS`]).
        max: usize,
    },
    /// Group `index` does not exist in a level of `groups` groups.
    GroupIndex {
        /// Index asked for.
        index: usize,
        /// Groups the level has.
        groups: usize,
    },
    /// A UDMA revision the summary table does not know.
    UnknownUdmaRevision {
        /// The revision given.
        rev: u8,
        /// The newest revision the table knows ([`crate::MAX_UDMA_REV`]).
        newest_known: u8,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::GroupCount { requested, max } => {
                write!(f, "a level holds 1..={max} groups, {requested} requested")
            }
            Error::GroupIndex { index, groups } => {
                write!(
                    f,
                    "group {index} does not exist in a level of {groups} groups"
                )
            }
            Error::UnknownUdmaRevision { rev, newest_known } => {
                write!(
                    f,
                    "UDMA revision {rev} is unknown (newest known: {newest_known})"
                )
            }
        }
    }
}

impl core::error::Error for Error {}
