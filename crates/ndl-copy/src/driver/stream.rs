//! The copy's data between the caller and its chunks, in pieces of at most
//! [`STREAM_BYTES`]: the source is filled piece by piece, and the destination is read back
//! and checked piece by piece, so no buffer of the copy's size is made here.

use super::DataMove;
use crate::CopyError;
use crate::mem::DeviceMem;
use crate::source::{STREAM_BYTES, Source, verify_piece};
use ndl_std::{DeviceHandle, Kernel, Mapping, MemHandle};

/// How one chunk's bytes are reached: MEM_BUF_COPY, or a mapping of the whole chunk.
pub(super) enum Port<'r, 'a, K: Kernel> {
    BufCopy {
        dev: &'r DeviceHandle<'a, K>,
        mem: MemHandle,
    },
    Mapped(Mapping<'a, K>),
}

impl<'r, 'a, K: Kernel> Port<'r, 'a, K> {
    pub(super) fn open(
        dev: &'r DeviceHandle<'a, K>,
        chunk: &DeviceMem<'r, 'a, K>,
        how: DataMove,
    ) -> Result<Self, CopyError> {
        Ok(match how {
            DataMove::BufCopy => Self::BufCopy {
                dev,
                mem: chunk.mem(),
            },
            DataMove::Mapping => Self::Mapped(chunk.map()?),
        })
    }

    fn write(&self, at: u64, bytes: &[u8]) -> Result<(), CopyError> {
        match self {
            Self::BufCopy { dev, mem } => dev.mem_buf_copy_to(*mem, at, bytes)?,
            Self::Mapped(m) => m.write_bytes(offset(at)?, bytes)?,
        }
        Ok(())
    }

    fn read(&self, at: u64, out: &mut [u8]) -> Result<(), CopyError> {
        match self {
            Self::BufCopy { dev, mem } => dev.mem_buf_copy_from(*mem, at, out)?,
            Self::Mapped(m) => m.read_bytes(offset(at)?, out)?,
        }
        Ok(())
    }
}

/// A chunk offset as a mapping offset.
fn offset(at: u64) -> Result<usize, CopyError> {
    usize::try_from(at).map_err(|_| CopyError::TooLarge { bytes: at })
}

/// `(offset, length)` of each piece of `len` bytes, in order.
fn pieces(len: u64) -> impl Iterator<Item = (u64, usize)> {
    let step = STREAM_BYTES as u64;
    (0..len.div_ceil(step)).map(move |i| {
        let at = i * step;
        // At most `STREAM_BYTES`, so it fits.
        let n = usize::try_from((len - at).min(step)).unwrap_or(STREAM_BYTES);
        (at, n)
    })
}

/// A piece buffer: one piece, or the whole copy when it is smaller.
fn piece_buffer(len: u64) -> Vec<u8> {
    vec![0u8; usize::try_from(len).map_or(STREAM_BYTES, |l| l.min(STREAM_BYTES))]
}

impl<K: Kernel> Port<'_, '_, K> {
    /// Writes all of `source` to the start of the chunk: a slice in one piece, anything else
    /// in bounded pieces through one buffer.
    pub(super) fn fill<D: Source + ?Sized>(&self, source: &D) -> Result<(), CopyError> {
        if let Some(all) = source.as_slice() {
            return self.write(0, all);
        }
        let mut buf = piece_buffer(source.len());
        for (at, n) in pieces(source.len()) {
            let piece = buf.get_mut(..n).ok_or(CopyError::TooLarge { bytes: at })?;
            source.fill(at, piece);
            self.write(at, piece)?;
        }
        Ok(())
    }

    /// Reads the chunk back piece by piece and compares each piece with `source`; the first
    /// differing byte is the error.
    pub(super) fn verify<D: Source + ?Sized>(&self, source: &D) -> Result<(), CopyError> {
        let all = source.as_slice();
        let mut found = piece_buffer(source.len());
        let mut expected = if all.is_some() {
            Vec::new()
        } else {
            piece_buffer(source.len())
        };
        for (at, n) in pieces(source.len()) {
            let back = found
                .get_mut(..n)
                .ok_or(CopyError::TooLarge { bytes: at })?;
            self.read(at, back)?;
            let want = match all {
                Some(all) => offset(at).ok().and_then(|s| all.get(s..s.checked_add(n)?)),
                None => expected.get_mut(..n).map(|e| {
                    source.fill(at, e);
                    &*e
                }),
            }
            .ok_or(CopyError::TooLarge { bytes: at })?;
            verify_piece(at, want, back)?;
        }
        Ok(())
    }
}
