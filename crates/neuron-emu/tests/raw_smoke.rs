//! Temporary smoke test with raw offsets; replaced by khal/udma-desc based tests.
use mmio::Mmio;
use neuron_emu::*;

const HOST: u64 = 0x1000_0000_0000;
const UNIT: usize = 0x30000000;

fn dev() -> Device {
    Device::new(DeviceConfig {
        unit_bases: vec![UNIT, UNIT + 0x40000],
        regions: vec![
            RegionSpec::new("hbm0", RegionKind::Device { channel: 0 }, 0, 1 << 24),
            RegionSpec::new("host", RegionKind::Host, HOST, 1 << 24),
        ],
        mode: ExecMode::Manual,
    })
    .unwrap()
}

fn bring_up(d: &Device, unit: usize) {
    let b = UNIT + unit * 0x40000;
    d.write32(b + 0x254, 0x010f_ffff);
    d.write32(b + 0x38000 + 0x2000 + 0x30, !0x0fff_ffff);
    d.write32(b + 0x38000 + 0x2000 + 0x18, !0x0fff_ffff);
    d.write32(b + 0x38000 + 0x2040 + 0x30, !0xffff_ef07);
    d.write32(b + 0x38000 + 0x2040 + 0x18, !0xffff_ef07);
    d.write32(b + 0x204, 1);
    d.write32(b + 0x20204, 1);
}

fn queue(d: &Device, unit: usize, q: usize, tx_ring: u64, rx_ring: u64, len: u32) {
    let b = UNIT + unit * 0x40000;
    for (dir, ring, swc) in [(0x1000, tx_ring, 0xb0), (0x21000, rx_ring, 0x64)] {
        let qb = b + dir + q * 0x1000 - if dir == 0x21000 { 0x1000 } else { 0 };
        let qb = if dir == 0x21000 {
            b + 0x21000 + q * 0x1000
        } else {
            qb
        };
        d.write32(qb + 0x20, 0x0300_0000);
        d.write32(qb + swc, 0x100);
        d.write32(qb + 0x28, ring as u32);
        d.write32(qb + 0x2c, (ring >> 32) as u32);
        d.write32(qb + 0x30, len);
        d.write32(qb + 0x20, 0x0303_0000);
    }
}

fn desc(len_ctrl: u32, w1: u32, addr: u64) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&len_ctrl.to_le_bytes());
    b[4..8].copy_from_slice(&w1.to_le_bytes());
    b[8..16].copy_from_slice(&addr.to_le_bytes());
    b
}

#[test]
fn single_copy_and_laps() {
    let d = dev();
    bring_up(&d, 0);
    let tx_ring = HOST;
    let rx_ring = HOST + 0x1000;
    queue(&d, 0, 2, tx_ring, rx_ring, 32);
    let src = HOST + 0x10000;
    let dst = 0x20000u64;
    let data: Vec<u8> = (0..256 * 100).map(|i| (i * 7 + 3) as u8).collect();
    d.write_mem(src, &data).unwrap();
    for i in 0..100u64 {
        let slot = i % 32;
        let rid = ((1 + i / 32) & 3) as u32;
        let len = 256u32;
        d.write_mem(
            tx_ring + slot * 16,
            &desc(0x0c00_0000 | rid << 24 | len, 0x0108_0003, src + i * 256),
        )
        .unwrap();
        d.write_mem(
            rx_ring + slot * 16,
            &desc(rid << 24 | len, 0, dst + i * 256),
        )
        .unwrap();
        d.write32(UNIT + 0x21000 + 2 * 0x1000 + 0x38, 1);
        d.write32(UNIT + 0x1000 + 2 * 0x1000 + 0x38, 1);
        let rep = d.run_until_idle();
        assert_eq!(rep.packets, 1, "copy {i}: {:?}", d.take_faults());
    }
    assert_eq!(d.read_mem_vec(dst, data.len()).unwrap(), data);
    assert_eq!(
        d.read32(UNIT + 0x1000 + 2 * 0x1000 + 0x34),
        (100 % 32) | (((1 + 100 / 32) & 3) << 30)
    );
}

#[test]
fn wrong_ring_id_aborts() {
    let d = dev();
    bring_up(&d, 0);
    queue(&d, 0, 0, HOST, HOST + 0x1000, 32);
    d.write_mem(HOST, &desc(0x0c00_0000 | 2 << 24 | 16, 0, HOST + 0x8000))
        .unwrap();
    d.write_mem(HOST + 0x1000, &desc(1 << 24 | 16, 0, HOST + 0x9000))
        .unwrap();
    d.write32(UNIT + 0x21038, 1);
    d.write32(UNIT + 0x1038, 1);
    let rep = d.run_until_idle();
    assert_eq!(rep.faults, 1);
    assert_eq!(d.iofic_cause(0, Level::Secondary, GROUP_A), Some(1 << 17));
    assert_eq!(
        d.engine_state(0, Direction::M2s),
        Some(EngineState::Aborted)
    );
    assert_eq!(d.read32(UNIT + 0x200), 0x2222);
}
