//! Every command of the default release (2.26.5.0) and every command 2.27.4.0 (the seeds'
//! release) adds has a wrapper on the gateway the seed assigns. (The seed's wrapper shape
//! itself, §1-§3, is pinned in `seed_000_ndl.rs`; the return conventions are the ABI crate's
//! and tested there against every release's handler notes.)

use ndl_abi::Release;
use ndl_abi::routing::Lane;
use ndl_std::{Gateway, WRAPPERS, wrappers_of};

#[test]
fn every_catalog_command_has_a_wrapper_on_the_gateway_of_its_lane() {
    let seeds = Release::parse("2.27.4.0").unwrap().abi();
    assert_eq!(Release::DEFAULT.abi().catalog.len(), 101);
    assert_eq!(seeds.catalog.len(), 104);
    // Every 2.26.5.0 command is a 2.27.4.0 command with the same number (abi/README.md: "No
    // command of an earlier release was removed in any step").
    for cmd in Release::DEFAULT.abi().catalog {
        assert_eq!(seeds.find(cmd.name()).map(|c| c.code()), Some(cmd.code()));
    }
    for (cmd, routing) in seeds.catalog.iter().zip(seeds.routing) {
        let ws: Vec<_> = wrappers_of(cmd).collect();
        assert!(!ws.is_empty(), "{} has no wrapper", cmd.name());
        for w in ws {
            match routing.lane {
                Lane::Misc => assert_eq!(w.gateway, Gateway::Misc, "{}", w.name),
                Lane::Device | Lane::DeviceAttach => assert_ne!(w.gateway, Gateway::Misc),
            }
        }
    }
    for w in WRAPPERS {
        // Named after the command it sends (without a compat or direction suffix).
        let stem = w.name.trim_end_matches("_cm");
        let stem = stem
            .strip_suffix("_to")
            .or_else(|| stem.strip_suffix("_from"))
            .unwrap_or(stem);
        let first = w.commands[0].short_name().to_lowercase();
        assert!(first.starts_with(stem), "{} vs {first}", w.name);
        // Fallbacks are the same nr family (a size overload), older member last.
        for c in &w.commands[1..] {
            assert_eq!(c.nr(), w.commands[0].nr(), "{}", w.name);
            assert!(c.size() < w.commands[0].size(), "{}", w.name);
        }
        // The seed's handle-cached path: copy, memset and buffer copy commands only.
        let copy_like = w.commands.iter().all(|c| {
            let n = c.short_name();
            n.starts_with("MEM_COPY") || n.starts_with("MEM_BUF_") || n.starts_with("MEMSET")
        });
        assert_eq!(w.gateway == Gateway::DeviceHandle, copy_like, "{}", w.name);
    }
}
