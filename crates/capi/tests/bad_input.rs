//! Bad input from C, per generation: NULL and foreign handles, sizes 0 and 65537, bad
//! queue ids and ring geometry, full rings, a wrong generation, calls after destroy,
//! re-entry while in use; each returns its -errno, writes nothing, and the process
//! survives to print its summary.

mod common;

use common::{Cc, c_source, revision_offset, run_c};

#[test]
fn every_bad_call_returns_its_errno_and_the_process_survives() {
    let cc = Cc::find();
    let tmp = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    for arch in [2u8, 3, 4] {
        let exe = tmp.path().join(format!("bad_v{arch}"));
        cc.build(&exe, &[c_source("bad_input.c")], Some(arch), false);
        let revision = revision_offset();
        let stdout = run_c(
            &exe,
            [empty.path().as_os_str(), revision.to_string().as_ref()],
            &format!("v{arch}"),
        );
        assert!(stdout.starts_with("survived "), "{stdout}");
    }
}

/// The one run-time generation lookup, for every product id khal knows (and none else).
#[test]
fn pci_device_ids_map_to_their_generation() {
    use khal::pci_id;
    for (id, g) in [
        (pci_id::TRN1, 2),
        (pci_id::INF2, 2),
        (pci_id::TRN2, 3),
        (pci_id::TRN3, 4),
        (pci_id::TRN3_B, 4),
    ] {
        assert_eq!(
            neuron_hal::neuron_hal_generation_from_pci_device_id(id),
            g,
            "{id:#x}"
        );
    }
    assert_eq!(
        neuron_hal::neuron_hal_generation_from_pci_device_id(0),
        -libc::ENODEV
    );
}
