//! Per generation, a C program brings an engine and a queue up over a C-side recording
//! register block; its trace must be khal's own trace of the same steps over the recording
//! fake, access for access (the C ABI adds, drops and reorders nothing), and carries the
//! seed's values.

mod common;

use khal::Arch;
use khal::udma::{EngineParams, RingConfig, Udma};
use mmio::FakeRegs;
use udma_desc::{Direction, Doorbell, QueueId};

use common::{Cc, revision_offset, trace_text};

/// khal's trace of what `tests/c/bringup.c` asks for.
fn rust_trace<A: Arch>() -> String {
    let regs: FakeRegs<1024, 4096> = FakeRegs::new();
    regs.preset(revision_offset(), 4);
    let params = EngineParams {
        queue_count: 16,
        ..EngineParams::for_arch::<A>()
    };
    let udma = Udma::<A, _>::init_hal(&regs, params).unwrap();
    let q = QueueId::new(3).unwrap();
    udma.init_queue(
        q,
        RingConfig {
            bus_addr: 0x10000,
            size: 64,
        },
        RingConfig {
            bus_addr: 0x20000,
            size: 64,
        },
    )
    .unwrap();
    udma.copy_start(q, 1, 1).unwrap();
    udma.pause_queue(Direction::Rx, q).unwrap();
    udma.enable_queue(Direction::Rx, q).unwrap();
    udma.ring_rx(q, 1);
    trace_text(&regs)
}

fn c_trace(cc: &Cc, arch: u8) -> String {
    cc.run("bringup.c", arch, &[revision_offset().to_string()])
}

fn check<A: Arch>(cc: &Cc) {
    let arch = A::GENERATION.number();
    let c = c_trace(cc, arch);
    assert_eq!(
        c,
        rust_trace::<A>(),
        "V{arch}: the C trace differs from khal's"
    );
    let lines: Vec<&str> = c.lines().collect();
    // Seed 004 §2 al_udma_init: the revision is read before anything is written ...
    assert_eq!(lines[0], format!("R {:x} 4", revision_offset()));
    // ... every queue enabled with cfg |= 0x30000 (a zero shadow: 0x00030000), M2S then
    // S2M, 32 writes ...
    let enables = lines
        .iter()
        .filter(|l| l.starts_with('W') && l.ends_with(" 30000"))
        .count();
    assert_eq!(enables, 32);
    // ... "[m2s+pkt]=0xF4240 (1e6 clk)" at "pkt/clk = +0x3a300".
    assert!(lines.contains(&"W 3a300 f4240"));
    // The doorbells of copy_start: RX then TX, one descriptor each, at each ring's
    // tail-pointer increment of queue 3 (`A::queue_reg_offset(.., QueueReg::DrtpInc)`, the
    // arch's queue register map); the trace ends with al_udma_desc_action_add's RX doorbell.
    let tail = |dir| {
        A::queue_reg_offset(dir, QueueId::new(3).unwrap(), khal::regs::QueueReg::DrtpInc).unwrap()
    };
    let rx = format!("W {:x} 1", tail(Direction::Rx));
    let tx = format!("W {:x} 1", tail(Direction::Tx));
    let pos = |s: &str| lines.iter().position(|l| *l == s).unwrap();
    assert!(pos(&rx) < pos(&tx));
    assert_eq!(lines.last().unwrap(), &rx.as_str());
}

#[test]
fn bring_up_from_c_matches_khal_trace_on_every_generation() {
    let cc = Cc::find();
    check::<khal_sunda::Sunda>(&cc);
    check::<khal_cayman::Cayman>(&cc);
    check::<khal_mariana::Mariana>(&cc);
}
