//! `neuron-tool regs read` and `regs dump`: golden output on the built-in model of V2, V3
//! and V4, the same text through a FUSE-served node, and no register write on the way.
//!
//! The goldens hold the model's registers after the driver's bring-up (the model's
//! power-on values and `khal`'s bring-up writes), at the offsets of
//! `reference/udma-registers.tsv` and `reference/iofic.tsv`; the unit tests of
//! `unit_regs` and `reg_fields` pin the offsets and field positions to those tables.

mod golden_check;
mod served;

use golden_check::{check, output, run};
use khal::Generation;
use ndl_emu::EmulatedKernel;
use neuron_tool::cli::{ArchName, RegsReadArgs};
use neuron_tool::cmd::copy::MODEL_NAME;
use neuron_tool::cmd::regs_read::{dump_on, read_on};
use neuron_tool::device_target::Target;

const ARCHS: [(&str, Generation); 3] = [
    ("sunda", Generation::V2),
    ("cayman", Generation::V3),
    ("mariana", Generation::V4),
];

/// One queue's blocks of engine 4 (a core engine on every generation).
fn queue_args(arch: &str) -> Vec<String> {
    [
        "regs", "read", "--arch", arch, "--engine", "4", "--queue", "3",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn one_queue_of_one_engine_on_each_generation() {
    for (arch, _) in ARCHS {
        let args = queue_args(arch);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        check(
            &format!("regs-read-{arch}-engine4-queue3.txt"),
            &output(&args),
        );
    }
}

#[test]
fn every_block_of_one_engine() {
    let text = output(&["regs", "read", "--arch", "cayman", "--engine", "0"]);
    check("regs-read-cayman-engine0.txt", &text);
    // Reading the per-queue AXI error status would clear it (udma-registers.tsv): left out.
    assert!(text.contains("gen.axi_queue[0].error_status"));
    assert!(text.contains("(not read: reading it clears it)"));
}

#[test]
fn one_register_as_json() {
    let text = output(&[
        "regs",
        "read",
        "--engine",
        "130",
        "--register",
        "m2s.state",
        "--json",
    ]);
    check("regs-read-cayman-engine130-m2s-state.json", &text);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["engines"][0]["registers"][0]["fields"][0]["name"],
        "comp_ctrl"
    );
}

#[test]
fn a_served_node_reads_what_the_model_holds() {
    for (arch, g) in ARCHS {
        let kernel = EmulatedKernel::new(g, 1).unwrap();
        let Some(served) = served::serve(kernel) else {
            return;
        };
        let (server, _dir) = (served.server, served.dir);
        let node = server.node(0).display().to_string();
        // The node reports its generation (DEVICE_INFO): no --arch beside --device.
        let mut args: Vec<String> = queue_args(arch)
            .into_iter()
            .filter(|a| a != "--arch" && a != arch)
            .collect();
        args.extend(["--device".into(), node.clone()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = output(&args).replace(&node, MODEL_NAME);
        check(&format!("regs-read-{arch}-engine4-queue3.txt"), &text);
        server.stop().unwrap();
    }
}

#[test]
fn reading_and_dumping_write_no_register() {
    let kernel = EmulatedKernel::new(Generation::V2, 1).unwrap();
    let dev = kernel.device(0).unwrap();
    let before = dev.register_writes();
    let target = Target::Emulated(kernel.clone());
    let mut dump = Vec::new();
    dump_on(&target, false, &mut dump).unwrap();
    let args = RegsReadArgs {
        device: None,
        arch: ArchName::Sunda,
        engine: 33,
        block: None,
        queue: None,
        register: None,
        json: false,
    };
    let mut one = Vec::new();
    read_on(&target, &args, &mut one).unwrap();
    assert_eq!(
        dev.register_writes(),
        before,
        "{:?}",
        dev.recent_register_writes()
    );
    // The dump holds every engine as `read` prints it (V2: engines 0..33).
    let (dump, one) = (
        String::from_utf8(dump).unwrap(),
        String::from_utf8(one).unwrap(),
    );
    assert!(dump.contains(&one), "engine 33 as read is in the dump");
    assert!(dump.ends_with("34 engines, 761 registers each, 306 BAR_READ calls\n"));
}

#[test]
fn bad_requests_are_one_sentence() {
    let e = run(&["regs", "read", "--arch", "sunda", "--engine", "34"]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--engine 34: SUNDA has DMA engines 0..33 (core engines, then the host-transfer engines)"
    );
    let e = run(&["regs", "read", "--engine", "1", "--register", "tdrhpx"]).unwrap_err();
    assert!(e.to_string().contains("no register called 'tdrhpx'"), "{e}");
    let e = run(&["regs", "read", "--engine", "1", "--queue", "16"]).unwrap_err();
    assert!(e.to_string().starts_with("--queue: "), "{e}");
}

#[test]
fn a_served_node_dumps_what_the_model_dumps() {
    // V2 and V4 (V3's unit is V4's but for the overrides; its reads have goldens above).
    for (arch, g) in [ARCHS[0], ARCHS[2]] {
        let model = Target::Emulated(EmulatedKernel::new(g, 1).unwrap());
        let mut expected = Vec::new();
        dump_on(&model, true, &mut expected).unwrap();
        let kernel = EmulatedKernel::new(g, 1).unwrap();
        let Some(served) = served::serve(kernel) else {
            return;
        };
        let (server, _dir) = (served.server, served.dir);
        let node = server.node(0);
        let mut served = Vec::new();
        dump_on(&Target::Node(&node), true, &mut served).unwrap();
        server.stop().unwrap();
        let served = String::from_utf8(served).unwrap();
        let name = serde_json::to_string(&node.display().to_string()).unwrap();
        let model_name = serde_json::to_string(MODEL_NAME).unwrap();
        assert_eq!(
            served.replace(&name, &model_name),
            String::from_utf8(expected).unwrap(),
            "{arch}"
        );
        let v: serde_json::Value = serde_json::from_str(&served).unwrap();
        let engines = v["engines"].as_array().unwrap();
        // arch-scalars.tsv: V2 has 32 core and 2 H2T engines, V3/V4 128 and 4.
        let want = if g == Generation::V2 { 34 } else { 132 };
        assert_eq!(engines.len(), want, "{arch}");
        assert_eq!(
            engines[want - 1]["registers"].as_array().unwrap().len(),
            761
        );
    }
}
