//! How a command's return value reads.
//!
//! The reference (`ioctl-README.md`, "Return values") says handlers answer 0 on success and a
//! negative errno on failure, that many return the *positive* count of bytes that failed to
//! copy instead of -EFAULT, and that MEM_GET_EXTENDED_INFO answers a bad handle with +EINVAL.
//! No handler returns data in the return value (every result travels in the argument struct or
//! behind a pointer in it), so a non-zero return is always a failure; the convention only
//! decides *which* failure. Each command's convention is a row of the project's
//! `tables/project/command-facts.tsv`, read from the handler notes and tested against them for
//! every release.

/// How a command's return value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Returns {
    /// 0 on success, -errno on failure; a positive value is the count of bytes a
    /// `copy_to_user`/`copy_from_user` left uncopied (a failure).
    Status,
    /// The handler always returns 0 once dispatch reached it (deprecated no-ops and
    /// bookkeeping-only commands); only the gates (attach, copy-in) can fail it.
    Zero,
    /// As [`Returns::Status`], except that a positive value is an errno (MEM_GET_EXTENDED_INFO
    /// answers a bad handle with +EINVAL).
    PositiveErrno,
    /// The handler refuses every call with this (positive) errno (stubs and unsupported
    /// commands), as user space sees it.
    Refused(i32),
}
