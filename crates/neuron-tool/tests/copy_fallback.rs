//! `copy` on a node that cannot be mapped (a FUSE-served one answers a shared mmap with
//! ENODEV, mmap(2) "does not support memory mapping"; `ndl-fuse` crate docs) falls back to
//! the ioctl-only delivery by itself and says so (issue 20 item 4); an explicit
//! `--delivery` still wins. On the built-in model (mappable) nothing falls back.

mod golden_check;
mod served;

use golden_check::{output, run};
use khal::Generation;
use ndl_emu::EmulatedKernel;

#[test]
fn a_served_node_falls_back_to_copy_descriptors_and_says_so() {
    for g in [Generation::V2, Generation::V3, Generation::V4] {
        let kernel = EmulatedKernel::new(g, 1).unwrap();
        let Some(served) = served::serve(kernel) else {
            return;
        };
        let (server, _dir) = (served.server, served.dir);
        let node = server.node(0).display().to_string();
        let text = output(&["copy", "--size", "64KiB", "--device", &node]);
        assert!(text.contains("driver path (copy-descriptors)"), "{text}");
        let why = "delivery fell back to copy-descriptors: the node cannot be mmap'd (No such \
                   device";
        assert!(text.contains(why), "{text}");
        assert!(
            text.contains("so descriptors went through DMA_COPY_DESCRIPTORS"),
            "{text}"
        );
        assert!(text.contains("every byte verified"), "{text}");
        let json = output(&["copy", "--size", "4KiB", "--json", "--device", &node]);
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(v["delivery"], "copy-descriptors");
        assert!(v["delivery_fallback"].is_string(), "{json}");
        // Asked for by name, mmap is tried and its refusal is the error.
        let args = [
            "copy",
            "--size",
            "4KiB",
            "--delivery",
            "mmap",
            "--device",
            &node,
        ];
        let e = run(&args).unwrap_err().to_string();
        assert!(e.contains("mmap") && e.contains("No such device"), "{e}");
        server.stop().unwrap();
    }
}

#[test]
fn the_model_maps_and_does_not_fall_back() {
    let text = output(&["copy", "--size", "64KiB", "--arch", "sunda"]);
    assert!(text.contains("driver path (mmap)"), "{text}");
    assert!(!text.contains("fell back"), "{text}");
    let json = output(&["copy", "--size", "4KiB", "--json"]);
    assert!(!json.contains("delivery_fallback"), "{json}");
}
