//! Links every no_std crate without `std`. Built by `cargo xtask nostd`.
#![no_std]

use mmio::Mmio;

// Reference one item of each crate so that each is really linked.
pub use iofic as _iofic;
pub use khal as _khal;
pub use khal_cayman as _khal_cayman;
pub use khal_mariana as _khal_mariana;
pub use khal_sunda as _khal_sunda;
pub use ndl_abi as _ndl_abi;
pub use udma_desc as _udma_desc;

/// Exercises the MMIO trait through the recording fake, so its code is instantiated.
#[unsafe(no_mangle)]
pub extern "C" fn nostd_check_probe() -> u32 {
    let regs: mmio::FakeRegs<4, 4> = mmio::FakeRegs::new();
    regs.write32(0, 7);
    regs.read32(0)
}

/// Walks the default release's routing, so the ABI tables are instantiated.
#[unsafe(no_mangle)]
pub extern "C" fn nostd_check_route(code: u32) -> u32 {
    ndl_abi::kernel::route(code, false).map_or(0, |r| u32::from(r.nr))
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
