//! Every catalog command, sent through both lanes of the emulated driver, gets the driver's
//! answer: routed by the fd's access mode (free-access fds reach only the misc chain, else
//! EINVAL), gated by the attach check for the requests `ioctl-commands.tsv` lists, answered
//! by a handler (never ENOSYS), and for the commands that need hardware the model lacks,
//! with the errno [`refusal`] pins (from `ioctl-commands.tsv` where it states one, else
//! labelled the model's choice). Also: the ioctl entry a FUSE front end
//! uses, with its own `UserMemory` and a caller pid.

use std::cell::RefCell;
use std::path::Path;

use khal::Generation;
use ndl_abi::{CATALOG, COMPATIBLE_VERSION, Command, SEMAPHORE_READ, SEMAPHORE_WRITE};
use ndl_abi::{CompatibleVersion, Semaphore};
use ndl_emu::hardware_only::HARDWARE_ONLY;
use ndl_emu::{EmulatedKernel, InProcessMemory, UserMemory};
use ndl_std::{AccessMode, ENOTSUPP, Errno};
use zerocopy::{FromBytes, IntoBytes};

const COMMANDS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/ioctl-commands.tsv"
));

/// `(name, lane, attach-checked)` from the table: `device+attach` rows, plus the misc row
/// whose note says the attach check runs first.
fn table() -> Vec<(String, String, bool)> {
    COMMANDS
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let attach = c[9] == "device+attach" || c[11].contains("attach check runs first");
            (c[0].to_string(), c[9].to_string(), attach)
        })
        .collect()
}

const OWNER: u32 = 4242;
const STRANGER: u32 = 4343;

/// One kernel, with an fd of each access mode opened by `OWNER`.
struct Lanes {
    k: EmulatedKernel,
    fds: [(AccessMode, i32); 3],
}

impl Lanes {
    fn new() -> Self {
        let k = EmulatedKernel::new(Generation::V3, 2).unwrap();
        let modes = [
            AccessMode::ReadOnly,
            AccessMode::ReadWrite,
            AccessMode::WriteOnly,
        ];
        let fds = modes.map(|m| (m, k.open_as(Path::new("/dev/neuron0"), m, OWNER).unwrap()));
        Self { k, fds }
    }

    /// Sends `cmd` with a zeroed 16 KiB argument buffer on `fd`, as process `caller`.
    fn send(&self, cmd: &Command, fd: i32, caller: u32) -> Result<i32, Errno> {
        let mut buf = vec![0u64; 2048];
        let addr = buf.as_mut_ptr() as u64;
        // SAFETY: `addr` is `buf`, 16 KiB (more than any argument struct), alive and not
        // otherwise borrowed during the call; pointer fields inside it are zero (EFAULT).
        let mem = unsafe { InProcessMemory::new() };
        let r = self.k.ioctl_from(fd, cmd.code(), addr, &mem, caller);
        drop(buf);
        r
    }
}

/// The errno a command the model cannot serve must answer, pinned here independently of the
/// model's table: THROTTLING_NOTIFICATIONS is the driver's own answer without the firmware
/// feature (`ioctl-commands.tsv`: "firmware API version below 7 gives -ENOTSUPP", checked
/// below); POST_METRIC (ENOTSUPP) and READ_HW_COUNTERS (EINVAL) are the model's choice, for
/// which the reference states no errno.
fn refusal(name: &str) -> Option<Errno> {
    match name {
        "NEURON_IOCTL_THROTTLING_NOTIFICATIONS" => {
            let row = COMMANDS
                .lines()
                .find(|l| l.starts_with("NEURON_IOCTL_THROTTLING_NOTIFICATIONS\t"))
                .expect("the row");
            assert!(row.contains("firmware API version below 7 gives -ENOTSUPP"));
            Some(ENOTSUPP)
        }
        "NEURON_IOCTL_POST_METRIC" => Some(ENOTSUPP),
        "NEURON_IOCTL_READ_HW_COUNTERS" => Some(Errno::INVAL),
        _ => None,
    }
}

#[test]
fn every_command_through_both_lanes_gets_the_drivers_answer() {
    let table = table();
    assert_eq!(table.len(), CATALOG.len());
    let lanes = Lanes::new();
    for (cmd, (name, lane, attach)) in CATALOG.iter().zip(&table) {
        assert_eq!(cmd.name(), name);
        let refused = refusal(name);
        for (mode, fd) in lanes.fds {
            let r = lanes.send(cmd, fd, OWNER);
            assert_ne!(r, Err(Errno::NOSYS), "{name} {mode:?}");
            if mode == AccessMode::WriteOnly && lane != "misc" {
                // Free-access fds reach only the misc handler, which does not know it.
                assert_eq!(r, Err(Errno::INVAL), "{name} on the free-access lane");
                continue;
            }
            if let Some(errno) = refused {
                assert_eq!(r, Err(errno), "{name}: the pinned refusal");
            }
            if mode == AccessMode::WriteOnly {
                continue;
            }
            // The attach gate, by pid: a process that did not open the fd.
            let other = lanes.send(cmd, fd, STRANGER);
            if *attach {
                assert_eq!(other, Err(Errno::ACCESS), "{name}: attach-checked");
            } else {
                // Not gated: the handler answers (its state may differ by process).
                assert_ne!(other, Err(Errno::ACCESS), "{name}: not attach-checked");
                assert_ne!(other, Err(Errno::NOSYS), "{name}");
            }
        }
    }
}

#[test]
fn the_hardware_only_table_names_each_command_once_with_its_pinned_errno() {
    for (i, h) in HARDWARE_ONLY.iter().enumerate() {
        assert!(CATALOG.contains(&h.command));
        assert_eq!(
            Some(h.errno),
            refusal(h.command.name()),
            "{}",
            h.command.name()
        );
        assert!(
            HARDWARE_ONLY[..i]
                .iter()
                .all(|o| o.command.code() != h.command.code())
        );
    }
}

/// Another process's memory, as a FUSE front end would reach it: a byte array at a base
/// address in that process's address space.
struct Remote {
    base: u64,
    bytes: RefCell<Vec<u8>>,
}

impl Remote {
    fn range(&self, addr: u64, len: usize) -> Result<std::ops::Range<usize>, Errno> {
        let start = addr.checked_sub(self.base).ok_or(Errno::FAULT)? as usize;
        let end = start.checked_add(len).ok_or(Errno::FAULT)?;
        if end > self.bytes.borrow().len() {
            return Err(Errno::FAULT);
        }
        Ok(start..end)
    }
}

impl UserMemory for Remote {
    fn read(&self, addr: u64, dst: &mut [u8]) -> Result<(), Errno> {
        let r = self.range(addr, dst.len())?;
        dst.copy_from_slice(&self.bytes.borrow()[r]);
        Ok(())
    }
    fn write(&self, addr: u64, src: &[u8]) -> Result<(), Errno> {
        let r = self.range(addr, src.len())?;
        self.bytes.borrow_mut()[r].copy_from_slice(src);
        Ok(())
    }
}

#[test]
fn a_front_end_serves_another_process_through_its_own_user_memory() {
    let k = EmulatedKernel::new(Generation::V2, 1).unwrap();
    let remote = Remote {
        base: 0x7f00_0000_0000,
        bytes: RefCell::new(vec![0; 64]),
    };
    // Free-access open by process 77, then COMPATIBLE_VERSION into its memory.
    let fd = k
        .open_as(Path::new("/dev/neuron0"), AccessMode::WriteOnly, 77)
        .unwrap();
    let at = remote.base + 8;
    k.ioctl_from(fd, COMPATIBLE_VERSION.code(), at, &remote, 77)
        .unwrap();
    let v = CompatibleVersion::read_from_bytes(&remote.bytes.borrow()[8..16]).unwrap();
    // arch-scalars.tsv: V2 min 5, max 7.
    assert_eq!((v.min, v.max), (5, 7));
    // An address outside that process's memory is EFAULT, not a wild access.
    assert_eq!(
        k.ioctl_from(fd, COMPATIBLE_VERSION.code(), 0x1000, &remote, 77),
        Err(Errno::FAULT)
    );
    // Privileged open by process 78: semaphores round-trip through its memory.
    let dev = k
        .open_as(Path::new("/dev/neuron0"), AccessMode::ReadWrite, 78)
        .unwrap();
    let sem = Semaphore {
        nc_id: 1,
        semaphore_index: 3,
        value: 99,
    };
    remote.write(remote.base, sem.as_bytes()).unwrap();
    k.ioctl_from(dev, SEMAPHORE_WRITE.code(), remote.base, &remote, 78)
        .unwrap();
    remote.write(remote.base + 8, &0u32.to_ne_bytes()).unwrap();
    k.ioctl_from(dev, SEMAPHORE_READ.code(), remote.base, &remote, 78)
        .unwrap();
    let back = Semaphore::read_from_bytes(&remote.bytes.borrow()[..12]).unwrap();
    assert_eq!(back.value, 99);
    k.release(dev);
    k.release(fd);
    assert_eq!(k.open_fds(), 0);
}

#[test]
fn a_batch_array_wrapping_the_address_space_is_efault() {
    use ndl_abi::MEM_BUF_ZEROCOPY64_BATCHES;
    use ndl_abi::{MemBufCopy64zcBatches, MemcpyBatch, UserPtr};
    use zerocopy::FromZeros;
    // A failed user copy is EFAULT (the driver's copy_from_user); element i of a user array
    // lives at `ptr + i * size`, which for the second batch here lies past 2^64.
    let ndl = ndl_std::Ndl::with_kernel(EmulatedKernel::new(Generation::V3, 1).unwrap());
    // The handle stays open: the chunk lives as long as its process's files.
    let h = ndl.open_device(0).unwrap();
    let chunk = h.mem_alloc(4096, 0, ndl_std::MemLocation::Host, 0).unwrap();
    let k = ndl.kernel();
    // The argument (32 bytes), then one 40-byte batch ending at the top of the address space.
    let remote = Remote {
        base: u64::MAX - 71,
        bytes: RefCell::new(vec![0; 72]),
    };
    let mut arg = MemBufCopy64zcBatches::new_zeroed();
    arg.batches_ptr = UserPtr::from_addr(remote.base + 32);
    arg.num_batches = 2;
    arg.is_copy_to_device = 1;
    let mut batch = MemcpyBatch::new_zeroed();
    batch.mem_handle = chunk.0;
    remote.write(remote.base, arg.as_bytes()).unwrap();
    remote.write(remote.base + 32, batch.as_bytes()).unwrap();
    let fd = k
        .open_as(Path::new("/dev/neuron0"), AccessMode::ReadWrite, 79)
        .unwrap();
    let code = MEM_BUF_ZEROCOPY64_BATCHES.code();
    assert_eq!(
        k.ioctl_from(fd, code, remote.base, &remote, 79),
        Err(Errno::FAULT)
    );
    // The same array with one batch is served.
    arg.num_batches = 1;
    remote.write(remote.base, arg.as_bytes()).unwrap();
    assert_eq!(k.ioctl_from(fd, code, remote.base, &remote, 79), Ok(0));
    k.release(fd);
}
