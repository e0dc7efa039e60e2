//! A device memory larger than the host will map is refused when the kernel is built, as
//! a typed error answering ENOMEM, not as an allocation abort (issue 25 item 5: `serve
//! --memory 1000GiB`, `copy --size 20GiB`).

use khal::Generation;
use ndl_emu::{BuildError, DeviceConfig, EmulatedKernel};
use ndl_std::Errno;
use neuron_emu::MapError;

#[test]
fn a_host_memory_of_32_tib_is_enomem() {
    // 32 TiB of host memory (the most that fits below the V3 HBM channels): Linux refuses
    // an anonymous mapping larger than RAM and swap under its default overcommit rule
    // (vm.overcommit_memory 0) and under strict accounting (2), with ENOMEM; only "always
    // overcommit" (1) would map it.
    let rule = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    assert_ne!(
        rule.trim(),
        "1",
        "this host overcommits always: a 32 TiB map succeeds"
    );
    let mut config = DeviceConfig::numbered(Generation::V3, 0);
    config.memory.host_bytes = 1 << 45;
    let e = EmulatedKernel::with_devices(vec![config]).err().unwrap();
    assert!(
        matches!(
            &e,
            BuildError::Memory {
                index: 0,
                source: MapError::NoMemory { size, errno: 12, .. },
            } if *size == 1 << 45
        ),
        "{e:?}"
    );
    assert_eq!(e.errno(), Some(Errno::NOMEM));
    assert!(e.to_string().contains("no memory"), "{e}");
}

#[test]
fn an_impossible_map_has_no_errno() {
    let mut config = DeviceConfig::numbered(Generation::V3, 0);
    config.memory.host_bytes = u64::MAX;
    let e = EmulatedKernel::with_devices(vec![config]).err().unwrap();
    assert!(matches!(e, BuildError::Memory { .. }), "{e:?}");
    assert_eq!(e.errno(), None);
}
