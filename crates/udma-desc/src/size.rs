//! Transfer sizes and the 16-bit length field.

use crate::Error;

/// Largest transfer one descriptor describes: 64 KiB.
///
/// The length field is 16 bits wide and the engine is initialised with `m2s.cfg_len`
/// ENCODE_64K, so a length of 0 means 65,536 bytes.
pub const MAX_TRANSFER_BYTES: u32 = 65_536;

/// Encodes a transfer size into the 16-bit length field: `1..=65535` as is, 65,536 as 0.
///
/// Size 0 is refused ([`Error::ZeroSize`]): the kernel driver would encode it as a 64 KiB
/// transfer, which is never what a caller asking for 0 bytes meant.
///
/// ```
/// use udma_desc::{encode_size, Error};
/// assert_eq!(encode_size(4096), Ok(4096));
/// assert_eq!(encode_size(65_536), Ok(0));
/// assert_eq!(encode_size(0), Err(Error::ZeroSize));
/// assert_eq!(encode_size(65_537), Err(Error::SizeTooLarge { size: 65_537 }));
/// ```
#[inline]
pub const fn encode_size(size: u32) -> Result<u16, Error> {
    if !size_in_range(size) {
        return Err(size_error(size));
    }
    Ok(len_field(size))
}

/// Whether `size` is in `1..=65536`: one compare, as `size - 1` wraps for 0, so 0 and
/// sizes over 65,536 both land past the limit. The batch path ORs `size - 1` over a run
/// and compares once: the OR passes the limit exactly when one of them does.
#[inline]
pub(crate) const fn size_in_range(size: u32) -> bool {
    size.wrapping_sub(1) < MAX_TRANSFER_BYTES
}

/// The length field of a size in `1..=65536` (checked by [`size_in_range`]).
#[inline]
pub(crate) const fn len_field(size: u32) -> u16 {
    // 65,536 & 0xffff == 0 is exactly the 64K-as-zero encoding; smaller sizes fit 16 bits.
    #[allow(clippy::cast_possible_truncation)]
    let len = (size & 0xffff) as u16;
    len
}

/// The error of a size outside `1..=65536`, built out of line.
#[cold]
const fn size_error(size: u32) -> Error {
    if size == 0 {
        Error::ZeroSize
    } else {
        Error::SizeTooLarge { size }
    }
}

/// Decodes a length field into bytes: 0 means 65,536.
///
/// ```
/// assert_eq!(udma_desc::decode_len(0), 65_536);
/// assert_eq!(udma_desc::decode_len(17), 17);
/// ```
#[inline]
pub const fn decode_len(len: u16) -> u32 {
    if len == 0 {
        MAX_TRANSFER_BYTES
    } else {
        len as u32
    }
}
