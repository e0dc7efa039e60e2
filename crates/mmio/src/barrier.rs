//! The DMA write barrier: descriptors in memory, then the doorbell.
//!
//! A device that reads descriptors from memory by DMA must see them complete before it sees
//! the register write (the doorbell) that tells it they are there. Volatile MMIO writes do not
//! give that on their own: `write_volatile` keeps the volatile accesses in program order in
//! the compiler's output, but ordinary stores (the descriptors) may be moved across it by the
//! compiler, and the CPU may make them visible to the device after the doorbell. The barrier
//! below is what goes between the two.

/// Makes every store before it (to ordinary memory: DMA descriptors and buffers, of any
/// memory type) visible to a device before any store after it (an MMIO doorbell write), and
/// keeps the compiler from moving stores across it.
///
/// It has the strength of Linux's `wmb()`, per target:
///
/// * **x86_64**: `sfence`. Stores to write-back and uncached memory are already observed in
///   program order (Intel SDM vol. 3A, "Memory Ordering in P6 and More Recent Processor
///   Families": "writes to memory are not reordered with other writes"), which is why Linux's
///   `dma_wmb()` and `writel()` are only a compiler barrier there. The exceptions that section
///   lists are non-temporal stores and write-combining memory ("Methods of Caching
///   Available": WC writes wait in write-combining buffers), which only a fence orders; the
///   descriptors may sit in device memory mapped through BAR4, whose page protection the
///   driver leaves as `mmap` made it (`reference/mmap-README.md`), so the fence is kept.
///   `sfence` orders stores only, so it is lighter than the `mfence` of a full fence.
/// * **aarch64**: `dsb st`, Linux's `wmb()`. Linux's `writel()` uses `dmb oshst`
///   (`dma_wmb()`) for descriptors in coherent cacheable memory; `dsb st` also waits for the
///   stores to complete, which covers non-cacheable (write-combining) descriptor memory too.
/// * **other targets**: a sequentially consistent [`fence`](core::sync::atomic::fence),
///   which Rust lowers to the target's full barrier; no claim is made about what a device on
///   such a target needs.
///
/// What it does **not** do: it does not make the doorbell write itself complete (PCIe MMIO
/// writes are posted; a read from the device is what waits for them), it does not order
/// loads, it does no cache maintenance (a device that does not snoop the CPU caches needs
/// the descriptors flushed first), and it is not a synchronisation between CPU threads.
///
/// [`Mmio::write_barrier`](crate::Mmio::write_barrier) calls it; code rings doorbells through
/// that method so that a recording fake can show where the barrier went.
#[inline]
pub fn dma_write_barrier() {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: `sfence` only orders stores; it touches no memory, stack or flags. The asm
    // block is not `nomem`, so the compiler also keeps memory accesses on their side of it.
    unsafe {
        core::arch::asm!("sfence", options(nostack, preserves_flags));
    }
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    // SAFETY: `dsb st` only waits for earlier stores; it touches no memory, stack or flags.
    // Not `nomem`, so it is also a compiler barrier for memory accesses.
    unsafe {
        core::arch::asm!("dsb st", options(nostack, preserves_flags));
    }
    #[cfg(any(not(any(target_arch = "x86_64", target_arch = "aarch64")), miri))]
    core::sync::atomic::fence(core::sync::atomic::Ordering::SeqCst);
}
