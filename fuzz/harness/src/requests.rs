//! The request numbers a program picks from: every command of every driver release
//! `ndl-abi` carries (2.24.7.0 .. 2.30.2.0), so the emulated kernel, which answers as
//! 2.26.5.0, also meets the requests of older and newer runtimes.

use std::sync::OnceLock;

use ndl_abi::Release;

/// Every distinct request number of every release's catalog, ascending.
pub fn catalog() -> &'static [u32] {
    static CODES: OnceLock<Vec<u32>> = OnceLock::new();
    CODES.get_or_init(|| {
        let mut codes: Vec<u32> = Release::ALL
            .iter()
            .flat_map(|r| r.abi().catalog.iter().map(|c| c.code()))
            .collect();
        codes.sort_unstable();
        codes.dedup();
        codes
    })
}

/// Catalog entry `index` (taken modulo the catalog's length).
pub fn nth(index: u16) -> u32 {
    let codes = catalog();
    codes[usize::from(index) % codes.len()]
}

/// The catalog index of `code`, if it is a catalog request.
pub fn index_of(code: u32) -> Option<u16> {
    catalog()
        .binary_search(&code)
        .ok()
        .and_then(|i| u16::try_from(i).ok())
}

/// Whether a successful `code` may leave a chunk of device lifespan behind, which the
/// driver keeps after the process that asked for it has gone: the notification-queue rings
/// of the NOTIFICATIONS_INIT family (`reference/mmap-README.md`, "Chunks with device
/// lifespan (notification-queue rings, datastores, ...)"). Datastores are released with
/// their process (dma-path.md section 9), so they are not in this family.
pub fn keeps_device_lifespan_chunk(code: u32) -> bool {
    Release::ALL.iter().any(|r| {
        r.abi()
            .lookup(code)
            .is_some_and(|c| c.short_name().starts_with("NOTIFICATIONS_INIT"))
    })
}

/// `code` with its `_IOC_SIZE` field replaced by `size` (14 bits): the nr-matched families
/// pick their layout by size, so this reaches the size checks of each family.
pub fn resized(code: u32, size: u16) -> u32 {
    const SIZE_SHIFT: u32 = 16;
    const SIZE_MASK: u32 = (1 << 14) - 1;
    (code & !(SIZE_MASK << SIZE_SHIFT)) | ((u32::from(size) & SIZE_MASK) << SIZE_SHIFT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_spans_every_release() {
        for r in Release::ALL {
            for c in r.abi().catalog {
                assert!(index_of(c.code()).is_some(), "{r} {}", c.name());
            }
        }
        // 2.30.2.0 widened MEM_COPY64 to 56 bytes; 2.26.5.0 has the 40-byte one: both here.
        assert!(index_of(0x8038_4E17).is_some() && index_of(0x8028_4E17).is_some());
        assert_eq!(nth(index_of(0x8028_4E17).unwrap()), 0x8028_4E17);
    }

    #[test]
    fn notification_inits_are_the_device_lifespan_family() {
        let n = |name: &str| ndl_abi::find(name).unwrap().code();
        assert!(keeps_device_lifespan_chunk(n("NOTIFICATIONS_INIT_V2")));
        assert!(keeps_device_lifespan_chunk(n("NOTIFICATIONS_INIT_V1")));
        assert!(!keeps_device_lifespan_chunk(n("ACQUIRE_NEURON_DS")));
        assert!(!keeps_device_lifespan_chunk(n("MEM_ALLOC")));
    }

    #[test]
    fn resizing_keeps_direction_type_and_number() {
        // MEM_COPY64 (2.26.5.0): dir 2 (read), type 'N', nr 0x17, size 40.
        let c = resized(0x8028_4E17, 56);
        assert_eq!(c, 0x8038_4E17);
        assert_eq!(ndl_abi::size_of_code(c), 56);
        assert_eq!(ndl_abi::nr_of(c), 0x17);
    }
}
