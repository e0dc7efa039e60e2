//! The rustix backend against a temp directory of ordinary files standing in for device
//! nodes: open modes, fd caching, errno normalisation, mmap pairing, teardown.

use std::fs;
use std::os::fd::RawFd;
use std::sync::Mutex;

use mmio::Mmio;
use ndl_std::{Errno, Error, Ndl};

/// Tests here check fd numbers of this process; run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn nodes(count: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..count {
        fs::write(dir.path().join(format!("neuron{i}")), vec![0u8; 8192]).unwrap();
    }
    dir
}

/// The access mode (`flags & O_ACCMODE`) of one of our fds, from /proc.
fn access_mode(fd: RawFd) -> u32 {
    let info = fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).unwrap();
    let flags = info
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .unwrap()
        .trim();
    u32::from_str_radix(flags, 8).unwrap() & 3
}

/// The file an fd of ours points at, or `None` when the fd is closed.
fn target(fd: RawFd) -> Option<std::path::PathBuf> {
    fs::read_link(format!("/proc/self/fd/{fd}")).ok()
}

/// Whether `fd` still names a node below `dir`. A closed fd number may be reused at once by
/// another test of this binary, so "closed" means "no longer one of ours", not "unused".
fn still_ours(fd: RawFd, dir: &std::path::Path) -> bool {
    target(fd).is_some_and(|p| p.starts_with(dir))
}

#[test]
fn gateways_open_with_the_mode_their_lane_needs() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = nodes(2);
    let ndl = Ndl::new().with_root(dir.path());
    let dev = ndl.device(1).unwrap();
    let fd = dev.pin().unwrap().fd();
    assert_eq!(access_mode(fd), 0, "per-device fds are O_RDONLY");
    assert_eq!(target(fd).unwrap(), dir.path().join("neuron1"));
    let misc = ndl.misc().pin().unwrap().fd();
    assert_eq!(access_mode(misc), 1, "the misc fd is exactly O_WRONLY");
    assert_eq!(target(misc).unwrap(), dir.path().join("neuron0"));
    let handle = ndl.open_device(1).unwrap();
    assert_eq!(access_mode(handle.fd()), 2, "device handles are O_RDWR");
    let hfd = handle.fd();
    drop(handle);
    assert!(
        !still_ours(hfd, dir.path()),
        "a handle closes its fd on drop"
    );
}

#[test]
fn per_device_fds_are_cached_and_closed_by_close_all() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = nodes(3);
    let ndl = Ndl::new().with_root(dir.path());
    assert_eq!(ndl.cached_fd(2), None, "opened lazily");
    let a = ndl.device(2).unwrap().pin().unwrap().fd();
    let b = ndl.device(2).unwrap().pin().unwrap().fd();
    assert_eq!(a, b, "second use reuses the cached fd");
    assert_eq!(ndl.cached_fd(2), Some(a));
    let other = ndl.device(0).unwrap().pin().unwrap().fd();
    assert_ne!(other, a);
    let misc = ndl.misc().pin().unwrap().fd();
    assert_eq!(ndl.misc().pin().unwrap().fd(), misc);
    ndl.close_all();
    for fd in [a, other, misc] {
        assert!(!still_ours(fd, dir.path()), "fd {fd} closed at teardown");
    }
    assert_eq!((ndl.cached_fd(2), ndl.cached_misc_fd()), (None, None));
    // Later calls reopen lazily.
    let c = ndl.device(2).unwrap().pin().unwrap().fd();
    assert_eq!(target(c).unwrap(), dir.path().join("neuron2"));
    drop(ndl);
    assert!(
        !still_ours(c, dir.path()),
        "dropping the context tears down too"
    );
}

#[test]
fn errors_are_typed_and_name_the_command() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = nodes(1);
    let ndl = Ndl::new().with_root(dir.path());
    // A regular file has no ioctls: ENOTTY, attributed to the command.
    let err = ndl.device(0).unwrap().device_info().unwrap_err();
    assert_eq!(
        err,
        Error::Ioctl {
            cmd: "NEURON_IOCTL_DEVICE_INFO",
            errno: Errno::NOTTY
        }
    );
    assert_eq!(
        err.to_string(),
        "NEURON_IOCTL_DEVICE_INFO failed: Inappropriate ioctl for device (os error 25)"
    );
    let err = ndl.misc().compatible_version().unwrap_err();
    assert_eq!(
        err,
        Error::Ioctl {
            cmd: "NEURON_IOCTL_COMPATIBLE_VERSION",
            errno: Errno::NOTTY
        }
    );
    // The compat fallback does not latch on ENOTTY.
    let h = ndl.open_device(0).unwrap();
    let err = h.memset(ndl_std::MemHandle(1), 0, 0, 8).unwrap_err();
    assert_eq!(
        err,
        Error::Ioctl {
            cmd: "NEURON_IOCTL_MEMSET64",
            errno: Errno::NOTTY
        }
    );
    assert!(!ndl.compat().is_legacy(ndl_std::Family::Memset));
    // A missing node.
    let err = ndl.device(5).unwrap().host_device_id().unwrap_err();
    assert_eq!(
        err,
        Error::Open {
            path: dir.path().join("neuron5"),
            errno: Errno::NOENT
        }
    );
    assert_eq!(err.errno(), Some(Errno::NOENT));
    // Index > 63 never reaches the kernel.
    assert_eq!(
        ndl.device(64).unwrap_err(),
        Error::DeviceIndex { index: 64 }
    );
    assert_eq!(ndl.device(64).unwrap_err().errno(), Some(Errno::INVAL));
    assert!(matches!(
        ndl.open_device(99),
        Err(Error::DeviceIndex { index: 99 })
    ));
    assert!(ndl.device(63).is_ok());
}

#[test]
fn mapping_is_volatile_access_to_a_shared_mapping_and_unmaps_on_drop() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = nodes(1);
    let path = dir.path().join("neuron0");
    let mut bytes = vec![0u8; 8192];
    bytes[4096..4100].copy_from_slice(&0xCAFE_F00Du32.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let ndl = Ndl::new().with_root(dir.path());
    let h = ndl.open_device(0).unwrap();
    let map = h.map(4096, 4096).unwrap();
    assert_eq!(map.len(), 4096);
    assert_eq!(map.read32(0), 0xCAFE_F00D);
    map.write32(8, 0x1234_5678);
    map.write_bytes(100, b"neuron").unwrap();
    let mut back = [0u8; 6];
    map.read_bytes(100, &mut back).unwrap();
    assert_eq!(&back, b"neuron");
    assert!(map.read_bytes(4095, &mut back).is_err(), "bounds-checked");
    assert_eq!(map.read32(4096), mmio::BUS_ERROR_READ, "outside the window");
    let base = map.addr();
    drop(map);
    let maps = fs::read_to_string("/proc/self/maps").unwrap();
    assert!(
        !maps.lines().any(|l| l.starts_with(&format!("{base:x}-"))),
        "unmapped on drop"
    );
    let file = fs::read(&path).unwrap();
    assert_eq!(
        &file[4104..4108],
        &0x1234_5678u32.to_le_bytes(),
        "MAP_SHARED wrote through"
    );
    assert_eq!(&file[4196..4202], b"neuron");
    // Explicit unmap reports the kernel's answer.
    let map = h.map(0, 4096).unwrap();
    let base = map.addr();
    map.unmap().unwrap();
    let maps = fs::read_to_string("/proc/self/maps").unwrap();
    assert!(!maps.lines().any(|l| l.starts_with(&format!("{base:x}-"))));
    // A cookie the kernel rejects (not page aligned) is a typed mmap error.
    let err = h.map(100, 4096).unwrap_err();
    assert_eq!(
        err,
        Error::Mmap {
            offset: 100,
            len: 4096,
            errno: Errno::INVAL
        }
    );
}

#[test]
fn the_process_wide_instance_is_created_once_with_its_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("neuron2"), b"").unwrap();
    let ndl = ndl_std::Ndl::init_global(dir.path()).unwrap();
    assert!(std::ptr::eq(ndl, ndl_std::Ndl::global()));
    assert_eq!(ndl.device_path(2), dir.path().join("neuron2"));
    // A plain file answers ENOTTY, through the cached read-only fd.
    let err = ndl.device(2).unwrap().host_device_id().unwrap_err();
    assert_eq!(err.errno(), Some(ndl_std::Errno::NOTTY));
    assert!(ndl.cached_fd(2).is_some());
    assert!(matches!(
        ndl_std::Ndl::init_global("/elsewhere").err().unwrap(),
        ndl_std::Error::GlobalRoot { .. }
    ));
    ndl.close_all();
    assert_eq!(ndl.cached_fd(2), None);
}
