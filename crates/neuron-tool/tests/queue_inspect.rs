//! `neuron-tool queue inspect`: golden logs of each fault users hit (issue 20 item 3), on the
//! built-in model of V2, V3 and V4 and through a FUSE-served node inspected by another
//! process, and no register write from the inspector.
//!
//! What each golden shows is the model's behaviour under the reference's rules: a bus error
//! on a data read latches M2S DATA_AXI_RESP and aborts TX (bring-up arms the abort;
//! `reference/iofic.tsv`), a stale ring id latches M2S PREFETCH_RING_ID (ring ids checked:
//! `m2s.err_log_mask` PREF_RING_ID clear), a held queue latches nothing, and DMA_QUEUE_INIT
//! refuses a ring over 2^24 - 16 descriptors with EINVAL (`reference/dma-path.md` step 2).

mod golden_check;
mod served;

use std::process::Command;

use golden_check::{check, run_both};
use khal::{Arch, Generation};
use ndl_copy::Delivery;
use ndl_emu::EmulatedKernel;
use ndl_std::Ndl;
use neuron_tool::cli::{ArchName, FaultName, QueueInspectArgs, fault_name};
use neuron_tool::cmd::queue_inspect::inspect_on;
use neuron_tool::device_target::Target;
use neuron_tool::error::ToolError;
use neuron_tool::queue_demo::{DemoPlan, arm, demo_on, with_demo};

/// `queue inspect` of queue 3 of engine 4 (a core engine with host connectivity on every
/// generation) on the model of `arch`, into `fault`: its golden, and how it ends.
fn model_log(arch: &str, fault: Option<&str>) -> (String, Result<(), ToolError>) {
    let mut args = vec![
        "queue", "inspect", "--arch", arch, "--engine", "4", "--queue", "3",
    ];
    if let Some(f) = fault {
        args.extend(["--fault", f]);
    }
    run_both(&args)
}

#[test]
fn each_fault_has_its_golden_log_on_cayman() {
    for fault in ["bus-error", "ring-id", "timeout", "queue-init-limit"] {
        let (log, end) = model_log("cayman", Some(fault));
        check(&format!("queue-inspect-cayman-{fault}.txt"), &log);
        let Err(ToolError::QueueWrong(why)) = end else {
            panic!("{fault}: {end:?}");
        };
        assert!(
            log.ends_with(&format!("{}\n", why.split_once(": ").unwrap().1)),
            "{why}"
        );
    }
    let (log, end) = model_log("cayman", None);
    check("queue-inspect-cayman-clean.txt", &log);
    assert!(end.is_ok(), "{end:?}");
}

#[test]
fn the_faults_name_the_cause_the_queue_and_the_limit() {
    let (log, _) = model_log("cayman", Some("bus-error"));
    assert!(
        log.contains("engine state (DMA_ENG_GET_STATE): TX ABORT, RX NORMAL"),
        "{log}"
    );
    assert!(
        log.contains("cause DATA_AXI_RESP (0x00000100 in secondary group A)"),
        "{log}"
    );
    // The injected source (the first byte past the model's HBM 0, neuron_emu::Injection)
    // is inside HBM 0's window (khal-cayman hbm_bases[0] = 0, 24 GiB) but in no chunk the
    // demonstration allocated: the sentence says so, from DUMP_MEM_CHUNKS.
    assert!(
        log.contains(
            "its buffer 0x1000000..0x1001000 lies in HBM 0 but in none of the 2 chunk(s) the \
             driver has allocated there (DUMP_MEM_CHUNKS)"
        ),
        "{log}"
    );
    // A healthy queue's descriptors all lie in allocated chunks or in host memory.
    let (log, _) = model_log("cayman", None);
    assert!(!log.contains("DUMP_MEM_CHUNKS"), "{log}");
    let (log, _) = model_log("cayman", Some("ring-id"));
    assert!(
        log.contains("the engine faults: TX slot 0: ring id 0, expected 1"),
        "{log}"
    );
    assert!(log.contains("cause PREFETCH_RING_ID"), "{log}");
    let (log, _) = model_log("cayman", Some("queue-init-limit"));
    assert!(
        log.contains("DMA_QUEUE_INIT of engine 4 queue 3 was refused (EINVAL)")
            && log.contains("exceeds the driver's limit of 16777200 descriptors"),
        "{log}"
    );
    let (log, _) = model_log("cayman", Some("timeout"));
    assert!(
        log.contains("4 TX descriptor(s) are posted (slots 0..4) and not taken"),
        "{log}"
    );
}

#[test]
fn v2_and_v4_have_their_golden_logs() {
    for arch in ["sunda", "mariana"] {
        for fault in ["bus-error", "ring-id", "timeout", "queue-init-limit"] {
            let (log, end) = model_log(arch, Some(fault));
            check(&format!("queue-inspect-{arch}-{fault}.txt"), &log);
            assert!(matches!(end, Err(ToolError::QueueWrong(_))), "{end:?}");
        }
    }
}

#[test]
fn json_carries_the_verdict() {
    let (log, _) = run_both(&[
        "queue", "inspect", "--engine", "4", "--queue", "3", "--fault", "ring-id", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&log).unwrap();
    assert_eq!(v["wrong"], true);
    assert_eq!(v["engine_state"]["tx"], "ABORT");
    assert_eq!(v["rings"][0]["descriptors"][0]["engine"], "fault");
    assert!(v["verdict"].as_str().unwrap().contains("PREFETCH_RING_ID"));
}

fn args(arch: ArchName) -> QueueInspectArgs {
    QueueInspectArgs {
        device: None,
        arch,
        engine: 4,
        queue: 3,
        fault: None,
        slots: 16,
        json: false,
    }
}

#[test]
fn inspecting_writes_no_register() {
    let kernel = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let dev = kernel.device(0).unwrap();
    let target = Target::Emulated(kernel.clone());
    let fault = Some(FaultName::BusError);
    let writes = with_demo::<khal_cayman::Cayman, _>(&kernel, 4, 3, fault, |demo| {
        let before = dev.register_writes();
        let mut out = Vec::new();
        let end = inspect_on(&target, &args(ArchName::Cayman), Some(demo), &mut out);
        assert!(matches!(end, Err(ToolError::QueueWrong(_))), "{end:?}");
        Ok((before, dev.register_writes()))
    })
    .unwrap();
    assert_eq!(writes.0, writes.1, "{:?}", dev.recent_register_writes());
}

/// Serves one device of `A`'s generation with `fault` armed on queue 3 of engine 4 (or,
/// for the queue-init limit, asked for), runs the demonstration through the node (descriptors by DMA_COPY_DESCRIPTORS: a served
/// node cannot be mapped), and has another process (the tool) inspect the queue while this
/// one still holds it.
fn served<A: Arch>(arch: &str, fault: FaultName) {
    let kernel = EmulatedKernel::new(A::GENERATION, 1).unwrap();
    arm(&kernel, 4, 3, Some(fault)).unwrap();
    let model = kernel.device(0).unwrap();
    let Some(served) = served::serve(kernel) else {
        return;
    };
    let (server, dir) = (served.server, served.dir);
    let node = server.node(0).display().to_string();
    let ndl = Ndl::new().with_root(dir.path());
    let plan = DemoPlan {
        engine: 4,
        queue: 3,
        fault: Some(fault),
        delivery: Delivery::CopyDescriptors,
    };
    let (out, writes) = demo_on::<_, A, _>(&ndl, &plan, |_| {
        let before = model.register_writes();
        let out = Command::new(assert_cmd::cargo::cargo_bin("neuron-tool"))
            .args([
                "queue", "inspect", "--engine", "4", "--queue", "3", "--device", &node,
            ])
            .output()
            .unwrap();
        Ok((out, model.register_writes() - before))
    })
    .unwrap();
    // Through the node too, the inspector wrote no register (the model's write log).
    assert_eq!(writes, 0, "{:?}", model.recent_register_writes());
    ndl.close_all();
    server.stop().unwrap();
    let log = String::from_utf8(out.stdout)
        .unwrap()
        .replace(&node, "DIR/neuron0");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    if fault == FaultName::QueueInitLimit {
        // The refusal went to the process that asked; the inspector finds no queue.
        assert!(
            err.contains("DMA_QUEUE_GET_STATE refused it (EINVAL)"),
            "{err}"
        );
    } else {
        // The verdict through the node is the model's: the same cause at the same slot.
        let (_, model_end) = model_log(arch, Some(fault_name(fault)));
        let Err(ToolError::QueueWrong(said)) = model_end else {
            panic!("{model_end:?}");
        };
        assert_eq!(err.trim_end(), format!("error: {said}"));
    }
    check(
        &format!("queue-inspect-served-{arch}-{}.txt", fault_name(fault)),
        &log,
    );
}

/// The four faults issue 20 names, each with its golden log per generation.
const FAULTS: [FaultName; 4] = [
    FaultName::BusError,
    FaultName::RingId,
    FaultName::Timeout,
    FaultName::QueueInitLimit,
];

#[test]
fn another_process_inspects_a_served_queue_v2() {
    for fault in FAULTS {
        served::<khal_sunda::Sunda>("sunda", fault);
    }
}

#[test]
fn another_process_inspects_a_served_queue_v3() {
    for fault in FAULTS {
        served::<khal_cayman::Cayman>("cayman", fault);
    }
}

#[test]
fn another_process_inspects_a_served_queue_v4() {
    for fault in FAULTS {
        served::<khal_mariana::Mariana>("mariana", fault);
    }
}

#[test]
fn bad_requests_are_one_sentence() {
    let (_, end) = run_both(&["queue", "inspect", "--engine", "4", "--queue", "16"]);
    assert!(end.unwrap_err().to_string().starts_with("--queue: "));
    let (_, end) = run_both(&[
        "queue", "inspect", "--engine", "4", "--queue", "3", "--slots", "0",
    ]);
    assert_eq!(
        end.unwrap_err().to_string(),
        "--slots 0 is outside 1..=65536"
    );
    let (_, end) = run_both(&["queue", "inspect", "--engine", "999", "--queue", "3"]);
    assert!(
        end.unwrap_err()
            .to_string()
            .starts_with("--engine 999: CAYMAN has DMA engines")
    );
}

#[test]
fn a_copy_on_an_aborted_engine_points_at_the_inspector() {
    use clap::Parser;
    use neuron_tool::cli::{Cli, Command as Cmd};
    use neuron_tool::cmd::copy::{copy_on, plan};
    let kernel = EmulatedKernel::new(Generation::V3, 1).unwrap();
    let fault = Some(FaultName::BusError);
    let e = with_demo::<khal_cayman::Cayman, _>(&kernel, 4, 3, fault, |_| {
        // The bus error aborted TX of engine 4; another queue of it refuses to start.
        let cli = Cli::try_parse_from([
            "neuron-tool",
            "copy",
            "--size",
            "4KiB",
            "--engine",
            "4",
            "--queue",
            "2",
        ])
        .unwrap();
        let Cmd::Copy(a) = cli.command else {
            unreachable!()
        };
        let ndl = Ndl::with_kernel(kernel.clone());
        Ok(copy_on(&ndl, 0, "the model", &plan(&a)?, &a).unwrap_err())
    })
    .unwrap();
    let e = e.to_string();
    assert!(e.contains("abort") || e.contains("ABORT"), "{e}");
    assert!(
        e.contains("`neuron-tool queue inspect` on the engine and queue"),
        "{e}"
    );
}

/// dma-path.md step 1: the driver's own host-copy queue (V3: queues 0 and 1 of the H2T
/// engine, 128 for core 0) makes DMA_QUEUE_INIT fail with EALREADY; the refusal names the
/// queue, its rings and the driver's limits instead of a bare errno.
#[test]
fn a_refused_queue_init_names_the_queue_and_the_limits() {
    let (_, end) = run_both(&["copy", "--size", "4KiB", "--engine", "128", "--queue", "0"]);
    let e = end.unwrap_err().to_string();
    assert!(
        e.contains("DMA_QUEUE_INIT refused engine 128 queue 0 with rings of 4096 descriptors"),
        "{e}"
    );
    assert!(e.contains("(os error 114)"), "EALREADY: {e}");
    assert!(e.contains("32..=16777200 descriptors per ring"), "{e}");
}
