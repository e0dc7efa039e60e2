//! Seed 000 (NDL: the ioctl/mmap shim), pinned section by section: §1 the three gateways and
//! their open modes, §2 the 64-slot per-device fd table and the -errno convention, §3 the
//! wrapper shape — /64 size overloads, the `_cm` fallback on EINVAL, the handle rewrite, the
//! 0x28 batch stride, and lengths checked before the call. Wrappers are driven through a
//! recording kernel that keeps every request and argument struct the shim sends.

use core::ffi::{c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ndl_abi::{Command, MemBufCopy64zcBatches, MemcpyBatch, Release, TensorBatchOp};
use ndl_std::{
    AccessMode, BatchTo, Errno, Error, Family, Kernel, MemHandle, Ndl, OpTo, RawFd, RealRegion,
};

/// What the recording kernel saw: `(fd, request, argument bytes)`.
type Call = (RawFd, u32, Vec<u8>);

/// A kernel that records opens and ioctls and answers from a script.
#[derive(Debug)]
struct Recorder {
    opens: Mutex<Vec<(PathBuf, AccessMode)>>,
    calls: Mutex<Vec<Call>>,
    /// Requests answered EINVAL (a driver that does not know them).
    unknown: Vec<u32>,
    /// Called with each request and argument address (for reading pointed-to arrays).
    inspect: fn(u32, *mut c_void),
}

impl Recorder {
    fn new(unknown: Vec<u32>) -> Self {
        Self {
            opens: Mutex::new(Vec::new()),
            calls: Mutex::new(Vec::new()),
            unknown,
            inspect: |_, _| {},
        }
    }
    fn codes(&self) -> Vec<u32> {
        self.calls.lock().unwrap().iter().map(|c| c.1).collect()
    }
}

impl Kernel for Recorder {
    type Region = RealRegion;
    fn open(&self, path: &Path, mode: AccessMode) -> Result<RawFd, Errno> {
        let mut opens = self.opens.lock().unwrap();
        opens.push((path.to_path_buf(), mode));
        Ok(100 + opens.len() as RawFd)
    }
    unsafe fn close(&self, _fd: RawFd) {}
    unsafe fn ioctl<const REQ: u32>(&self, fd: RawFd, arg: *mut c_void) -> Result<c_int, Errno> {
        // The argument size of the request, in whichever release defines it.
        let len = Release::ALL
            .iter()
            .find_map(|r| r.abi().lookup(REQ))
            .and_then(Command::arg_size)
            .unwrap_or(0);
        let bytes = if arg.is_null() {
            Vec::new()
        } else {
            // SAFETY: the `Kernel::ioctl` contract: `arg` is valid for the struct's size.
            unsafe { std::slice::from_raw_parts(arg.cast::<u8>(), len) }.to_vec()
        };
        (self.inspect)(REQ, arg);
        self.calls.lock().unwrap().push((fd, REQ, bytes));
        if self.unknown.contains(&REQ) {
            return Err(Errno::INVAL);
        }
        Ok(0)
    }
    unsafe fn mmap(&self, _fd: RawFd, _len: usize, _offset: u64) -> Result<RealRegion, Errno> {
        Err(Errno::NODEV)
    }
    fn munmap(&self, _region: RealRegion) -> Result<(), Errno> {
        Err(Errno::INVAL)
    }
}

#[test]
fn seed_s1_gateways_open_read_only_write_only_and_read_write() {
    let ndl = Ndl::with_kernel(Recorder::new(vec![])).with_root("/tmp/devs");
    ndl.device(3).unwrap().host_device_id().unwrap();
    ndl.device(3).unwrap().device_bdf().unwrap();
    ndl.misc().compatible_version().unwrap();
    let h = ndl.open_device(3).unwrap();
    h.memset(MemHandle(7), 0, 0, 4).unwrap();
    let opens = ndl.kernel().opens.lock().unwrap().clone();
    let node = PathBuf::from("/tmp/devs/neuron3");
    let misc = PathBuf::from("/tmp/devs/neuron0");
    // The per-device fd is opened once and cached; misc is write-only (the free-access
    // lane); the handle's own fd is read-write.
    assert_eq!(
        opens,
        [
            (node.clone(), AccessMode::ReadOnly),
            (misc, AccessMode::WriteOnly),
            (node, AccessMode::ReadWrite)
        ]
    );
    let fds: Vec<RawFd> = ndl
        .kernel()
        .calls
        .lock()
        .unwrap()
        .iter()
        .map(|c| c.0)
        .collect();
    assert_eq!(fds, [101, 101, 102, 103]);
}

#[test]
fn seed_s2_device_index_above_63_is_a_typed_error() {
    let ndl = Ndl::with_kernel(Recorder::new(vec![]));
    assert!(ndl.device(63).is_ok());
    assert_eq!(
        ndl.device(64).err().unwrap(),
        Error::DeviceIndex { index: 64 }
    );
    assert_eq!(
        ndl.open_device(64).err().unwrap(),
        Error::DeviceIndex { index: 64 }
    );
    assert!(ndl.kernel().opens.lock().unwrap().is_empty());
}

#[test]
fn seed_s3_size_overloads_send_the_64_bit_sibling_first() {
    use ndl_abi::{MEM_BUF_COPY64, MEM_COPY64, MEMSET64};
    let ndl = Ndl::with_kernel(Recorder::new(vec![]));
    let h = ndl.open_device(0).unwrap();
    h.mem_copy(MemHandle(1), 0, MemHandle(2), 0, 1 << 33)
        .unwrap();
    h.memset(MemHandle(1), 0, 0, 8).unwrap();
    h.mem_buf_copy_to(MemHandle(1), 0, b"abc").unwrap();
    assert_eq!(
        ndl.kernel().codes(),
        [MEM_COPY64.code(), MEMSET64.code(), MEM_BUF_COPY64.code()]
    );
    // Same nr, different _IOC_SIZE (the seed's "/64 sibling gets a distinct cmd").
    assert_eq!(MEM_COPY64.code() & 0xFF, ndl_abi::MEM_COPY.code() & 0xFF);
    assert_ne!(MEM_COPY64.code(), ndl_abi::MEM_COPY.code());
}

#[test]
fn seed_s3_cm_fallback_on_einval_latches_the_legacy_form() {
    use ndl_abi::{MEM_COPY, MEM_COPY64};
    let ndl = Ndl::with_kernel(Recorder::new(vec![MEM_COPY64.code()]));
    let h = ndl.open_device(0).unwrap();
    h.mem_copy(MemHandle(1), 4, MemHandle(2), 8, 16).unwrap();
    h.mem_copy(MemHandle(1), 4, MemHandle(2), 8, 16).unwrap();
    // First call: 64-bit form refused with EINVAL, legacy form taken and latched; second
    // call goes straight to the legacy form.
    assert_eq!(
        ndl.kernel().codes(),
        [MEM_COPY64.code(), MEM_COPY.code(), MEM_COPY.code()]
    );
    assert!(ndl.compat().is_legacy(Family::MemCopy));
    // A size the legacy form cannot carry is a typed error naming it, not a truncation.
    assert!(matches!(
        h.mem_copy(MemHandle(1), 0, MemHandle(2), 0, 1 << 32)
            .unwrap_err(),
        Error::OutOfRange {
            cmd: "NEURON_IOCTL_MEM_COPY",
            what: "size",
            ..
        }
    ));
}

/// The batch entries the recorder found behind `batches_ptr`, read at the 0x28 stride.
static BATCHES: Mutex<Vec<(MemcpyBatch, Vec<TensorBatchOp>)>> = Mutex::new(Vec::new());

fn read_batches(req: u32, arg: *mut c_void) {
    if req != ndl_abi::MEM_BUF_ZEROCOPY64_BATCHES.code() {
        return;
    }
    // SAFETY: the `Kernel::ioctl` contract: `arg` is the batch header and its pointers name
    // `num_batches` entries and, from each, `num_ops` ops, all alive during the call.
    unsafe {
        let head = arg.cast::<MemBufCopy64zcBatches>().read();
        let base = head.batches_ptr.addr() as usize as *const u8;
        let mut out = BATCHES.lock().unwrap();
        for i in 0..head.num_batches as usize {
            let e = base.add(i * 0x28).cast::<MemcpyBatch>().read_unaligned();
            let ops = (0..e.num_ops as usize)
                .map(|j| {
                    (e.ops_ptr.addr() as usize as *const TensorBatchOp)
                        .add(j)
                        .read()
                })
                .collect();
            out.push((e, ops));
        }
    }
}

#[test]
fn seed_s3_handle_rewrite_and_0x28_batch_stride() {
    assert_eq!(size_of::<MemcpyBatch>(), 0x28);
    let mut rec = Recorder::new(vec![]);
    rec.inspect = read_batches;
    let ndl = Ndl::with_kernel(rec);
    let h = ndl.open_device(0).unwrap();
    let (a, b) = (b"first".as_slice(), b"second piece".as_slice());
    let batches = [
        BatchTo {
            mem: MemHandle(0xAAAA),
            mem_offset: 64,
            ops: &[OpTo { offset: 0, data: a }, OpTo { offset: 8, data: b }],
            bar4_wr_threshold: 0,
            flags: 0,
        },
        BatchTo {
            mem: MemHandle(0xBBBB),
            mem_offset: 0,
            ops: &[OpTo { offset: 4, data: a }],
            bar4_wr_threshold: 32,
            flags: 1,
        },
    ];
    h.mem_buf_zerocopy64_batches_to(9, -1, &batches).unwrap();
    let got = BATCHES.lock().unwrap().clone();
    assert_eq!(got.len(), 2);
    // Each entry carries the kernel's own handle id (the seed's `((u64*)handle)[1]`
    // rewrite: the id the driver issued, not a user-space address).
    assert_eq!(
        (got[0].0.mem_handle, got[0].0.mem_handle_offset),
        (0xAAAA, 64)
    );
    assert_eq!(
        (got[1].0.mem_handle, got[1].0.bar4_wr_threshold),
        (0xBBBB, 32)
    );
    assert_eq!(got[0].1.len(), 2);
    assert_eq!((got[0].1[1].offset, got[0].1[1].size), (8, b.len() as u64));
    assert_eq!(got[0].1[1].buffer.addr(), b.as_ptr() as u64);
}

#[test]
fn seed_s3_slices_are_checked_before_the_call() {
    let ndl = Ndl::with_kernel(Recorder::new(vec![]));
    let dev = ndl.device(0).unwrap();
    let mut data = [0u32; 2];
    assert!(matches!(
        dev.bar_read(0, &[0x1000, 0x1004, 0x1008], &mut data)
            .unwrap_err(),
        Error::OutOfRange {
            cmd: "NEURON_IOCTL_BAR_READ",
            ..
        }
    ));
    assert!(dev.read_hw_counters(&[1], &mut data).is_err());
    let h = ndl.open_device(0).unwrap();
    assert!(
        h.mem_copy_async_wait(MemHandle(1), MemHandle(2), 3)
            .is_err()
    );
    assert!(
        ndl.kernel().codes().is_empty(),
        "nothing reached the kernel"
    );
    dev.bar_read(0, &[0x1000, 0x1004], &mut data).unwrap();
    assert_eq!(ndl.kernel().codes(), [ndl_abi::BAR_READ.code()]);
}

#[test]
fn errors_name_the_command_and_convert_to_io_errors() {
    let ndl = Ndl::with_kernel(Recorder::new(vec![ndl_abi::METRICS_CTRL.code()]));
    let e = ndl.device(0).unwrap().metrics_ctrl(1).unwrap_err();
    assert_eq!(
        e,
        Error::Ioctl {
            cmd: "NEURON_IOCTL_METRICS_CTRL",
            errno: Errno::INVAL
        }
    );
    assert_eq!(e.os_error().unwrap().raw_os_error(), Some(22));
    let io: std::io::Error = e.into();
    assert_eq!(io.kind(), std::io::ErrorKind::InvalidInput);
    assert!(io.to_string().contains("NEURON_IOCTL_METRICS_CTRL"), "{io}");
}
