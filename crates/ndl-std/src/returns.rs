//! Reading a handler's return value under its command's convention
//! ([`ndl_abi::Returns`], one per command of the ABI crate).

use crate::error::{Error, Result};
use crate::kernel::Errno;
use ndl_abi::Returns;

/// errno the driver's `-ENOTSUPP` reaches user space as (kernel-internal value 524; Linux
/// passes it through unchanged from an ioctl).
pub const ENOTSUPP: Errno = Errno::from_raw_os_error(ndl_abi::errno::ENOTSUPP);

/// Turns a raw ioctl result into the shim's answer under convention `conv`: `Ok(())` for
/// success, otherwise a typed error naming `cmd`.
pub(crate) fn check(
    cmd: &'static str,
    conv: Returns,
    ret: core::result::Result<i32, Errno>,
) -> Result<()> {
    match (ret, conv) {
        (Ok(0), _) => Ok(()),
        (Ok(ret), Returns::PositiveErrno) => Err(Error::Ioctl {
            cmd,
            errno: Errno::from_raw_os_error(ret),
        }),
        (Ok(ret), _) => Err(Error::Positive { cmd, ret }),
        (Err(errno), _) => Err(Error::Ioctl { cmd, errno }),
    }
}
