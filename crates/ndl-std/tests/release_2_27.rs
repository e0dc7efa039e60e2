//! The commands driver 2.27.4.0 adds (the release the seeds' NDL was written against):
//! GET_PERFORMANCE_PROFILE, AVAILABLE_PERF_PROFILES and GET_ASYNC_H2T_DMA_COMPL_QUEUES, and
//! the mapped H2T completion queue. A scripted kernel checks what the wrappers send against the
//! handler notes of `abi/2.27.4.0/ioctl-commands.tsv` and answers at the offsets of
//! `abi/2.27.4.0/ioctl-structs.tsv`, so the wrappers' encoding and decoding are pinned to the
//! tables (the emulated kernel does not serve these commands yet).

use core::ffi::{c_int, c_void};
use std::path::Path;
use std::sync::Mutex;

use mmio::Mmio;
use ndl_abi::v2_27_4_0::{
    AVAILABLE_PERF_PROFILES, AvailablePerfProfiles, GET_ASYNC_H2T_DMA_COMPL_QUEUES,
    GET_PERFORMANCE_PROFILE, GetAsyncH2tDmaComplQueues,
};
use ndl_abi::{PowerProfile, Release};
use ndl_std::{
    AccessMode, ComplQueueRegion, Errno, Error, Kernel, MappedRegion, Ndl, PerfProfiles, RawFd,
};
use zerocopy::{FromBytes, Immutable, IntoBytes};

/// Bytes of a completion-queue region in the script: header + 4 entries of 24 bytes.
const QUEUE_BYTES: usize = 16 + 4 * 24;

/// A memory-backed mapping.
#[derive(Debug)]
struct Mem(Mutex<Vec<u8>>);

impl Mmio for Mem {
    fn read32(&self, offset: usize) -> u32 {
        let m = self.0.lock().unwrap();
        u32::from_le_bytes(m[offset..offset + 4].try_into().unwrap())
    }
    fn write32(&self, offset: usize, value: u32) {
        self.0.lock().unwrap()[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    }
}

impl MappedRegion for Mem {
    fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }
    fn addr(&self) -> u64 {
        0x7000_0000
    }
    fn read_bytes(&self, offset: usize, dst: &mut [u8]) -> Result<(), Errno> {
        let m = self.0.lock().unwrap();
        let src = m.get(offset..offset + dst.len()).ok_or(Errno::FAULT)?;
        dst.copy_from_slice(src);
        Ok(())
    }
    fn write_bytes(&self, offset: usize, src: &[u8]) -> Result<(), Errno> {
        let mut m = self.0.lock().unwrap();
        m.get_mut(offset..offset + src.len())
            .ok_or(Errno::FAULT)?
            .copy_from_slice(src);
        Ok(())
    }
}

/// Answers the three 2.27.4.0 commands as their handler notes say, and maps one completion
/// queue region per queue id (cookie `0x1000 * (qid + 1)`).
#[derive(Debug, Default)]
struct Script {
    /// `(request, argument bytes as sent)`.
    calls: Mutex<Vec<(u32, Vec<u8>)>>,
}

/// Reads the caller's argument of type `T` at `arg`, lets `answer` change it, writes it back.
///
/// # Safety
/// `arg` is a valid, writable `T` (the `Kernel::ioctl` contract for the request).
unsafe fn answer<T: FromBytes + IntoBytes + Immutable>(
    calls: &Mutex<Vec<(u32, Vec<u8>)>>,
    code: u32,
    arg: *mut c_void,
    answer: impl FnOnce(&mut T) -> Result<c_int, Errno>,
) -> Result<c_int, Errno> {
    // SAFETY: forwarded from this function's contract.
    let bytes = unsafe { std::slice::from_raw_parts_mut(arg.cast::<u8>(), size_of::<T>()) };
    calls.lock().unwrap().push((code, bytes.to_vec()));
    let mut value = T::read_from_bytes(bytes).unwrap();
    let r = answer(&mut value)?;
    bytes.copy_from_slice(value.as_bytes());
    Ok(r)
}

impl Kernel for Script {
    type Region = Mem;
    fn open(&self, _path: &Path, _mode: AccessMode) -> Result<RawFd, Errno> {
        Ok(7)
    }
    unsafe fn close(&self, _fd: RawFd) {}
    unsafe fn ioctl<const REQ: u32>(&self, _fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        let calls = &self.calls;
        // SAFETY: the `Kernel::ioctl` contract: `arg` is the request's argument struct.
        unsafe {
            if REQ == GET_PERFORMANCE_PROFILE.code() {
                // "sz must be 8 (else -ENXIO) and ctrl must be 1 = get (else -ENOTSUPP); the
                // arch reports the current profile into profile and the struct is written back".
                answer::<PowerProfile>(calls, REQ, arg, |p| {
                    if p.sz != 8 {
                        return Err(Errno::NXIO);
                    }
                    if p.ctrl != 1 {
                        return Err(ndl_std::ENOTSUPP);
                    }
                    p.profile = 3;
                    Ok(0)
                })
            } else if REQ == AVAILABLE_PERF_PROFILES.code() {
                answer::<AvailablePerfProfiles>(calls, REQ, arg, |p| {
                    p.num_profiles = 2;
                    p.bitmap[0] = 0b101;
                    p.bitmap[31] = 0x80;
                    Ok(0)
                })
            } else if REQ == GET_ASYNC_H2T_DMA_COMPL_QUEUES.code() {
                answer::<GetAsyncH2tDmaComplQueues>(calls, REQ, arg, |q| {
                    let bits = q.qid_bitmap;
                    for (qid, info) in q.compl_queue_info.iter_mut().enumerate() {
                        if bits & (1 << qid) != 0 {
                            info.mmap_offset = 0x1000 * (qid as u64 + 1);
                            info.mmap_size = QUEUE_BYTES as u32;
                        }
                    }
                    Ok(0)
                })
            } else {
                Err(Errno::INVAL)
            }
        }
    }
    unsafe fn mmap(&self, _fd: RawFd, len: usize, offset: u64) -> Result<Mem, Errno> {
        if offset % 0x1000 != 0 || len != QUEUE_BYTES {
            return Err(Errno::INVAL);
        }
        let mut bytes = vec![0u8; len];
        // Header: capacity 4, head 1, tail 3 (offsets 0, 4, 8 of neuron_h2d_dma_compl_queue).
        for (i, w) in [4u32, 1, 3].iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        // Entry 2 at 16 + 2 * 24: sequence_num, compl_ret, context at 0, 8, 16 of the entry.
        let at = 16 + 2 * 24;
        bytes[at..at + 8].copy_from_slice(&7u64.to_le_bytes());
        bytes[at + 8..at + 16].copy_from_slice(&(-5i64).to_le_bytes());
        bytes[at + 16..at + 24].copy_from_slice(&0xdead_u64.to_le_bytes());
        Ok(Mem(Mutex::new(bytes)))
    }
    fn munmap(&self, _region: Mem) -> Result<(), Errno> {
        Ok(())
    }
}

fn sent(ndl: &Ndl<Script>) -> Vec<(u32, Vec<u8>)> {
    ndl.kernel().calls.lock().unwrap().clone()
}

#[test]
fn the_request_numbers_are_the_release_notes() {
    // abi/README.md, 2.26.5.0 -> 2.27.4.0: GET_PERFORMANCE_PROFILE (132, 0xC0084E84, reuses
    // power_profile), AVAILABLE_PERF_PROFILES (134, 0xC0244E86), GET_ASYNC_H2T_DMA_COMPL_QUEUES
    // (135, 0xC1084E87), all device lane.
    assert_eq!(GET_PERFORMANCE_PROFILE.code(), 0xC008_4E84);
    assert_eq!(AVAILABLE_PERF_PROFILES.code(), 0xC024_4E86);
    assert_eq!(GET_ASYNC_H2T_DMA_COMPL_QUEUES.code(), 0xC108_4E87);
    // None of them is a 2.26.5.0 command: that driver answers them as unknown (-EINVAL).
    for code in [0xC008_4E84, 0xC024_4E86, 0xC108_4E87] {
        assert_eq!(Release::DEFAULT.abi().route(code, false), None);
    }
}

#[test]
fn get_performance_profile_sends_sz_8_and_ctrl_get() {
    let ndl = Ndl::with_kernel(Script::default());
    assert_eq!(ndl.device(0).unwrap().get_performance_profile(), Ok(3));
    let calls = sent(&ndl);
    let (code, bytes) = &calls[0];
    assert_eq!(*code, GET_PERFORMANCE_PROFILE.code());
    let p = PowerProfile::read_from_bytes(bytes).unwrap();
    assert_eq!((p.sz, p.ctrl, p.profile), (8, 1, 0));
}

#[test]
fn available_perf_profiles_returns_the_count_and_the_raw_bitmap() {
    let ndl = Ndl::with_kernel(Script::default());
    let got = ndl.device(0).unwrap().available_perf_profiles(9).unwrap();
    let mut bitmap = [0u8; 32];
    bitmap[0] = 0b101;
    bitmap[31] = 0x80;
    assert_eq!(got, PerfProfiles { count: 2, bitmap });
    let p = AvailablePerfProfiles::read_from_bytes(&sent(&ndl)[0].1).unwrap();
    assert_eq!(p.requested_feature, 9);
}

#[test]
fn compl_queues_are_listed_per_set_bit_and_read_through_the_mapping() {
    let ndl = Ndl::with_kernel(Script::default());
    let dev = ndl.open_device(0).unwrap();
    let regions = dev.get_async_h2t_dma_compl_queues(1, 0b1000_0010).unwrap();
    assert_eq!(
        regions,
        [
            ComplQueueRegion {
                qid: 1,
                mmap_offset: 0x2000,
                mmap_size: QUEUE_BYTES as u32
            },
            ComplQueueRegion {
                qid: 7,
                mmap_offset: 0x8000,
                mmap_size: QUEUE_BYTES as u32
            },
        ]
    );
    let q = GetAsyncH2tDmaComplQueues::read_from_bytes(&sent(&ndl)[0].1).unwrap();
    assert_eq!((q.nc_id, q.qid_bitmap), (1, 0b1000_0010));

    let queue = dev.map_compl_queue(regions[0]).unwrap();
    assert_eq!(queue.qid(), 1);
    let h = queue.header().unwrap();
    assert_eq!((h.capacity, h.head, h.tail), (4, 1, 3));
    let e = queue.entry(2).unwrap();
    assert_eq!((e.sequence_num, e.compl_ret, e.context), (7, -5, 0xdead));
    assert!(matches!(queue.entry(4), Err(Error::OutOfRange { .. })));
}

#[test]
fn queue_ids_beyond_the_sixteen_entries_are_refused_before_the_call() {
    let ndl = Ndl::with_kernel(Script::default());
    let dev = ndl.device(0).unwrap();
    // compl_queue_info[16]: one entry per queue id below 16.
    let err = dev.get_async_h2t_dma_compl_queues(0, 1 << 16).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { .. }), "{err}");
    assert!(sent(&ndl).is_empty());
}
