//! The generation-independent entry points: version, last error, the one run-time
//! generation lookup, the revision read and the IOFIC group primitives.

use core::ffi::{c_char, c_int};

use iofic::{Control, Group};
use khal::{Arch, ArchVisitor, Generation};
use mmio::MmioExt;

use crate::engine::out_ptr;
use crate::failure::{Failure, guard, last_error};
use crate::regs::CRegs;
use crate::types::neuron_hal_regs;

/// The library version as `major << 16 | minor << 8 | patch`, from the crate's version.
pub(crate) const VERSION: u32 = {
    const fn parse(s: &str) -> u32 {
        let b = s.as_bytes();
        let mut i = 0;
        let mut v = 0u32;
        while i < b.len() {
            v = v * 10 + (b[i] - b'0') as u32;
            i += 1;
        }
        v
    }
    parse(env!("CARGO_PKG_VERSION_MAJOR")) << 16
        | parse(env!("CARGO_PKG_VERSION_MINOR")) << 8
        | parse(env!("CARGO_PKG_VERSION_PATCH"))
};

const VERSION_STRING: &core::ffi::CStr =
    match core::ffi::CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes())
    {
        Ok(s) => s,
        Err(_) => c"",
    };

/// The library's version, `major << 16 | minor << 8 | patch`: compare it with
/// `NEURON_HAL_VERSION` to detect a header/library mismatch.
///
/// # Safety
/// None. Thread safety: any thread.
#[unsafe(no_mangle)]
pub extern "C" fn neuron_hal_version() -> u32 {
    VERSION
}

/// The library's version as a static NUL-terminated string, e.g. "0.1.0".
///
/// # Safety
/// None; the string is static. Thread safety: any thread.
#[unsafe(no_mangle)]
pub extern "C" fn neuron_hal_version_string() -> *const c_char {
    VERSION_STRING.as_ptr()
}

/// The calling thread's last error as one sentence naming the function, what was wrong
/// and with which value (e.g. "al_udma_m2m_copy_prepare_one_v3: transfer size 0 (must be
/// 1..=65536)"); "" before the first failure. Successful calls leave it unchanged.
///
/// # Safety
/// The pointer is owned by the library and valid until the next failing call on this
/// thread (or the thread's exit); copy it to keep it. Thread safety: per thread.
#[unsafe(no_mangle)]
pub extern "C" fn neuron_hal_last_error() -> *const c_char {
    last_error()
}

struct GenerationNumber;
impl ArchVisitor for GenerationNumber {
    type Output = u8;
    fn visit<A: Arch>(self) -> u8 {
        A::GENERATION.number()
    }
}

/// The generation (2 = V2 SUNDA trn1/inf2, 3 = V3 CAYMAN trn2, 4 = V4 MARIANA trn3) of the
/// Neuron device with PCI device id `device_id` (vendor 0x1d0f): the one run-time mapping
/// (`khal::Generation::from_pci_device_id` through `khal::dispatch` over this library's
/// three generations). The caller then calls that generation's `_vN` functions.
///
/// Returns 2, 3 or 4, or -ENODEV (an id no generation has).
///
/// # Safety
/// None. Thread safety: any thread.
#[unsafe(no_mangle)]
pub extern "C" fn neuron_hal_generation_from_pci_device_id(device_id: u16) -> c_int {
    guard("neuron_hal_generation_from_pci_device_id", || {
        let g = Generation::from_pci_device_id(device_id).map_err(|_| Failure::Arg {
            errno: libc::ENODEV,
            what: "PCI device id of no Neuron generation",
            value: device_id.into(),
        })?;
        let n = khal::dispatch::<crate::Supported, _>(g, GenerationNumber).map_err(|_| {
            Failure::Arg {
                errno: libc::ENODEV,
                what: "generation not in this build",
                value: g.number().into(),
            }
        })?;
        Ok(c_int::from(n))
    })
}

/// Reads the UDMA revision word (`m2s_feature.dma_version`, the whole word: which bits
/// hold the revision is in no source) of the unit whose register block `regs` is
/// (seed 004 §2 `al_udma_revision_get(regs_base)`; the value is returned through `rev`,
/// this project's signature). One register read.
///
/// Returns 0, -EINVAL (NULL or misaligned `regs` or `rev`, a NULL callback).
///
/// # Safety
/// `regs` is NULL or readable, its callbacks callable; `rev` NULL or writable.
/// Thread safety: any thread (as safe as the callbacks).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_udma_revision_get(
    regs: *const neuron_hal_regs,
    rev: *mut u32,
) -> c_int {
    guard("al_udma_revision_get", || {
        // SAFETY: forwarded from this function's contract.
        let r = unsafe { CRegs::from_ptr(regs) }?;
        let rev = out_ptr(rev, "rev is NULL")?;
        let v = r
            .window(khal::regs::unit::M2S_BASE)
            .read::<khal::regs::m2s::DmaVersion>();
        // SAFETY: checked non-NULL and aligned; writable by the caller's contract.
        unsafe { rev.write(v) };
        Ok(0)
    })
}

/// Group `group` of the interrupt-controller level whose base is offset 0 of `regs`.
///
/// # Safety
/// As the callers'.
unsafe fn group(
    regs: *const neuron_hal_regs,
    group: c_int,
) -> Result<Group<mmio::Window<CRegs>>, Failure> {
    // SAFETY: forwarded.
    let r = unsafe { CRegs::from_ptr(regs) }?;
    let g = usize::try_from(group)
        .ok()
        .filter(|&g| g < iofic::layout::MAX_GROUPS)
        .ok_or(Failure::invalid(
            "IOFIC group outside the level (0..16)",
            group as u64,
        ))?;
    Ok(Group::new(mmio::Window::new(
        r,
        g * iofic::layout::GROUP_STRIDE,
    )))
}

/// The four IOFIC group primitives of seed 004 §4, over a level whose base is offset 0
/// of `regs` (the seed's `regs_base`); `group` is 0..16 (the level's 0x40-byte windows).
/// Bits are "the causes you mean": the register-level inversions are the library's.
///
/// `al_iofic_config`: writes `flags` to the group's control register (+0x28), e.g. 0x28 =
/// SET_ON_POSEDGE | MASK_MSI_X.
///
/// Returns 0, -EINVAL (NULL or misaligned `regs`, a NULL callback, `group` out of range).
///
/// # Safety
/// `regs` NULL or readable with callable callbacks. Thread safety: any thread (the
/// register block is the caller's to serialise).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_iofic_config(
    regs: *const neuron_hal_regs,
    group: c_int,
    flags: u32,
) -> c_int {
    guard("al_iofic_config", || {
        // SAFETY: forwarded from this function's contract.
        unsafe { self::group(regs, group) }?.configure(Control::from_bits(flags));
        Ok(0)
    })
}

/// `al_iofic_unmask`: unmasks `bits` (writes `~bits` to mask-clear, +0x18, as seed 004 §4).
/// Returns and safety as `al_iofic_config`.
///
/// # Safety
/// As `al_iofic_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_iofic_unmask(
    regs: *const neuron_hal_regs,
    group: c_int,
    bits: u32,
) -> c_int {
    guard("al_iofic_unmask", || {
        // SAFETY: forwarded from this function's contract.
        unsafe { self::group(regs, group) }?.unmask(bits);
        Ok(0)
    })
}

/// `al_iofic_mask`: masks `bits` (read-modify-write of the mask register, +0x10).
/// Returns and safety as `al_iofic_config`.
///
/// # Safety
/// As `al_iofic_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_iofic_mask(
    regs: *const neuron_hal_regs,
    group: c_int,
    bits: u32,
) -> c_int {
    guard("al_iofic_mask", || {
        // SAFETY: forwarded from this function's contract.
        unsafe { self::group(regs, group) }?.mask(bits);
        Ok(0)
    })
}

/// `al_iofic_clear_cause`: clears `bits` (writes `~bits` to the write-0-to-clear cause
/// register, +0x00, as seed 004 §4). Returns and safety as `al_iofic_config`.
///
/// # Safety
/// As `al_iofic_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_iofic_clear_cause(
    regs: *const neuron_hal_regs,
    group: c_int,
    bits: u32,
) -> c_int {
    guard("al_iofic_clear_cause", || {
        // SAFETY: forwarded from this function's contract.
        unsafe { self::group(regs, group) }?.clear(bits);
        Ok(0)
    })
}

/// `al_iofic_read_cause`: the group's latched causes (+0x00) into `*cause`.
/// Returns -EINVAL also for a NULL or misaligned `cause`; otherwise as `al_iofic_config`.
///
/// # Safety
/// As `al_iofic_config`; `cause` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn al_iofic_read_cause(
    regs: *const neuron_hal_regs,
    group: c_int,
    cause: *mut u32,
) -> c_int {
    guard("al_iofic_read_cause", || {
        let cause = out_ptr(cause, "cause is NULL")?;
        // SAFETY: forwarded from this function's contract.
        let v = unsafe { self::group(regs, group) }?.cause();
        // SAFETY: checked non-NULL and aligned; writable by the caller's contract.
        unsafe { cause.write(v) };
        Ok(0)
    })
}
