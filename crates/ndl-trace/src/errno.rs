//! errno names: the Linux numbers as the `libc` crate defines them, plus the kernel-internal
//! ENOTSUPP that a Neuron ioctl passes to user space (ndl-abi's `errno::ENOTSUPP`).

macro_rules! names {
    ($($name:ident),* $(,)?) => {
        /// Every errno this decoder names.
        pub const NAMES: &[(i32, &str)] = &[$((libc::$name, stringify!($name)),)* (ndl_abi::errno::ENOTSUPP, "ENOTSUPP")];
    };
}

names![
    EPERM,
    ENOENT,
    ESRCH,
    EINTR,
    EIO,
    ENXIO,
    E2BIG,
    ENOEXEC,
    EBADF,
    ECHILD,
    EAGAIN,
    ENOMEM,
    EACCES,
    EFAULT,
    ENOTBLK,
    EBUSY,
    EEXIST,
    EXDEV,
    ENODEV,
    ENOTDIR,
    EISDIR,
    EINVAL,
    ENFILE,
    EMFILE,
    ENOTTY,
    ETXTBSY,
    EFBIG,
    ENOSPC,
    ESPIPE,
    EROFS,
    EMLINK,
    EPIPE,
    EDOM,
    ERANGE,
    EDEADLK,
    ENAMETOOLONG,
    ENOLCK,
    ENOSYS,
    ENOTEMPTY,
    ELOOP,
    ENOMSG,
    EIDRM,
    ENODATA,
    ETIME,
    ENOLINK,
    EPROTO,
    EBADMSG,
    EOVERFLOW,
    EILSEQ,
    EUSERS,
    ENOTSOCK,
    EMSGSIZE,
    EOPNOTSUPP,
    EADDRINUSE,
    ENETDOWN,
    ENETUNREACH,
    ECONNRESET,
    ENOBUFS,
    EISCONN,
    ENOTCONN,
    ETIMEDOUT,
    ECONNREFUSED,
    EHOSTUNREACH,
    EALREADY,
    EINPROGRESS,
    ESTALE,
    EDQUOT,
    ECANCELED,
    EOWNERDEAD,
    ENOTRECOVERABLE,
    ERFKILL,
    EHWPOISON,
];

/// The name of errno `n` (`EINVAL`), or `None` for a number this table lacks.
pub fn name(n: i32) -> Option<&'static str> {
    NAMES.iter().find(|(v, _)| *v == n).map(|(_, s)| *s)
}

/// The errno named `name` (for filters and tests).
pub fn value(name: &str) -> Option<i32> {
    NAMES.iter().find(|(_, s)| *s == name).map(|(v, _)| *v)
}

/// The C library's message for errno `n` (`Invalid argument`).
pub fn message(n: i32) -> String {
    let text = std::io::Error::from_raw_os_error(n).to_string();
    match text.rfind(" (os error ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_linux_numbers() {
        // asm-generic/errno-base.h: EPERM 1, ENOENT 2, EFAULT 14, EINVAL 22, ENOTTY 25.
        assert_eq!(name(1), Some("EPERM"));
        assert_eq!(name(2), Some("ENOENT"));
        assert_eq!(name(14), Some("EFAULT"));
        assert_eq!(name(22), Some("EINVAL"));
        assert_eq!(name(25), Some("ENOTTY"));
        assert_eq!(name(524), Some("ENOTSUPP"));
        assert_eq!(value("ENODEV"), Some(19));
        assert_eq!(message(22), "Invalid argument");
        // One name per number.
        for (i, (n, _)) in NAMES.iter().enumerate() {
            assert!(NAMES[..i].iter().all(|(m, _)| m != n), "{n} twice");
        }
    }
}
