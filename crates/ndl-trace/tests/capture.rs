//! What a recorder keeps of an ioctl, by ndl-abi's layouts and `tables/user-buffers.tsv`:
//! which buffers, which way, how much, nested pointers and flexible arrays included, and how
//! decode then names them. Memory is a fake process whose arguments are ndl-abi structs.

use std::collections::BTreeMap;

use ndl_abi::{
    DEVICE_GET_ALL_APPS_INFO, DMA_QUEUE_GET_STATE, DmaQueueGetState, DmaQueueState,
    GET_LOGICAL_TO_PHYSICAL_NC_MAP, GetAppsInfo, GetLogicalToPhysicalNcMap, MEM_BUF_COPY64,
    MEM_BUF_ZEROCOPY64_BATCHES, MemBufCopy64, MemBufCopy64zcBatches, MemcpyBatch, NcMap,
    NcMapEntry, Release, TensorBatchOp, UserPtr,
};
use ndl_trace::capture::{Capture, Memory};
use ndl_trace::text::Style;
use ndl_trace::{Buffer, Call, Common, Event, Header, MAX_BUFFERS, Recorder};
use zerocopy::{FromZeros, IntoBytes};

/// A process: byte regions at addresses; reads outside them fail.
#[derive(Default, Clone)]
struct Process(BTreeMap<u64, Vec<u8>>);

impl Process {
    fn put(&mut self, addr: u64, bytes: &[u8]) {
        self.0.insert(addr, bytes.to_vec());
    }
}

impl Memory for Process {
    fn read(&self, addr: u64, dst: &mut [u8]) -> bool {
        let Some((start, b)) = self.0.range(..=addr).next_back() else {
            return false;
        };
        let off = (addr - start) as usize;
        match b.get(off..off + dst.len()) {
            Some(s) => {
                dst.copy_from_slice(s);
                true
            }
            None => false,
        }
    }
}

fn abi() -> &'static ndl_abi::Abi {
    Release::DEFAULT.abi()
}

fn event(c: &Capture) -> Event<'_> {
    c.event(Common {
        pid: 1,
        tid: 1,
        device: Some(0),
        fd: 3,
        ..Common::default()
    })
}

fn buffers<'a>(e: &'a Event<'a>) -> &'a [Buffer<'a>] {
    match &e.call {
        Call::Ioctl(io) => &io.buffers,
        _ => unreachable!(),
    }
}

fn decoded(e: &Event<'_>) -> String {
    let header = Header {
        recorder: Recorder::Library,
        generation: None,
        release: Release::DEFAULT,
        cap: 4096,
        pid: 1,
        start_wall_ns: 0,
        start_mono_ns: 0,
        device_dir: "/dev".into(),
    };
    let mut s = String::new();
    Style {
        header: &header,
        abi: abi(),
    }
    .call(&mut s, e);
    s
}

#[test]
fn mem_buf_copy_keeps_the_buffer_the_way_copy_to_mem_handle_says() {
    let data: Vec<u8> = (0..10_000u32).map(|i| i as u8).collect();
    for (to_device, reads) in [(1u32, true), (0, false)] {
        let mut arg = MemBufCopy64::new_zeroed();
        arg.mem_handle = 0x1000;
        arg.buffer = UserPtr::from_addr(0x20_000);
        arg.size = data.len() as u64;
        arg.copy_to_mem_handle = to_device;
        let mut p = Process::default();
        p.put(0x10_000, arg.as_bytes());
        p.put(0x20_000, &data);
        let mut c = Capture::before(abi(), MEM_BUF_COPY64.code(), 0x10_000, &p, 4096);
        c.after(&p);
        let e = event(&c);
        let [b] = buffers(&e) else { panic!() };
        assert_eq!((b.label, b.addr, b.len), ("buffer", 0x20_000, 10_000));
        // At most the cap is kept; the direction decides which side.
        assert_eq!(b.captured(), 4096);
        assert_eq!(b.before.is_some(), reads);
        assert_eq!(b.after.is_some(), !reads);
        assert_eq!(b.before.or(b.after).unwrap(), &data[..4096]);
    }
}

#[test]
fn queue_state_pointees_are_outputs_decoded_by_name() {
    let mut arg = DmaQueueGetState::new_zeroed();
    arg.eng_id = 2;
    arg.qid = 5;
    arg.tx = UserPtr::from_addr(0x3000);
    arg.rx = UserPtr::from_addr(0x4000);
    let mut p = Process::default();
    p.put(0x1000, arg.as_bytes());
    p.put(0x3000, DmaQueueState::new_zeroed().as_bytes());
    p.put(0x4000, DmaQueueState::new_zeroed().as_bytes());
    let mut c = Capture::before(abi(), DMA_QUEUE_GET_STATE.code(), 0x1000, &p, 4096);
    // The driver writes both records (handler note: "two 48-byte neuron_dma_queue_state").
    let mut tx = DmaQueueState::new_zeroed();
    tx.head_pointer = 7;
    tx.base_addr = 0x4001_0000_0000;
    p.put(0x3000, tx.as_bytes());
    c.after(&p);
    let e = event(&c);
    let bufs = buffers(&e);
    assert_eq!(bufs.len(), 2);
    for (b, label, addr) in [(&bufs[0], "tx", 0x3000), (&bufs[1], "rx", 0x4000)] {
        assert_eq!((b.label, b.addr, b.len), (label, addr, 48));
        assert!(b.before.is_none() && b.after.is_some());
    }
    let text = decoded(&e);
    assert!(
        text.starts_with("ioctl DMA_QUEUE_GET_STATE {eng_id=2 qid=5 tx=0x3000->{hw_status=0 sw_status=0 base_addr=0x400100000000 length=0 head_pointer=7 "),
        "{text}"
    );
    assert!(text.contains(" rx=0x4000->{hw_status=0 "), "{text}");
}

#[test]
fn batched_zero_copy_follows_three_levels_of_pointers() {
    let mut p = Process::default();
    let mut arg = MemBufCopy64zcBatches::new_zeroed();
    arg.batches_ptr = UserPtr::from_addr(0x10_000);
    arg.num_batches = 2;
    arg.is_copy_to_device = 1;
    p.put(0x1000, arg.as_bytes());
    let mut batches = Vec::new();
    for b in 0..2u64 {
        let mut batch = MemcpyBatch::new_zeroed();
        batch.mem_handle = 0x1000 + b;
        batch.ops_ptr = UserPtr::from_addr(0x20_000 + b * 0x1000);
        batch.num_ops = 2;
        batches.extend_from_slice(batch.as_bytes());
        let mut ops = Vec::new();
        for o in 0..2u64 {
            let mut op = TensorBatchOp::new_zeroed();
            op.size = 16 + o;
            op.buffer = UserPtr::from_addr(0x40_000 + b * 0x1000 + o * 0x100);
            ops.extend_from_slice(op.as_bytes());
            p.put(
                op.buffer.addr(),
                &vec![b as u8 * 16 + o as u8; 16 + o as usize],
            );
        }
        p.put(batch.ops_ptr.addr(), &ops);
    }
    p.put(0x10_000, &batches);
    let mut c = Capture::before(abi(), MEM_BUF_ZEROCOPY64_BATCHES.code(), 0x1000, &p, 4096);
    c.after(&p);
    let e = event(&c);
    let labels: Vec<(&str, u64)> = buffers(&e).iter().map(|b| (b.label, b.len)).collect();
    assert_eq!(
        labels,
        [
            ("batches_ptr", 80),
            ("batches_ptr[0].ops_ptr", 48),
            ("batches_ptr[0].ops_ptr[0].buffer", 16),
            ("batches_ptr[0].ops_ptr[1].buffer", 17),
            ("batches_ptr[1].ops_ptr", 48),
            ("batches_ptr[1].ops_ptr[0].buffer", 16),
            ("batches_ptr[1].ops_ptr[1].buffer", 17),
        ]
    );
    // is_copy_to_device of the argument: the op buffers are read (inputs), never written.
    let last = buffers(&e).last().unwrap();
    assert_eq!(last.before, Some(&[0x11u8; 17][..]));
    assert!(last.after.is_none());
    let text = decoded(&e);
    assert!(
        text.contains("ops_ptr=0x21000->[{offset=0 size=16 buffer=0x41000-><16 bytes 10101010"),
        "{text}"
    );
}

#[test]
fn flexible_arrays_follow_their_struct() {
    // GET_ALL_APPS_INFO: `capacity` entries of 152 bytes after the 16-byte header.
    let mut arg = GetAppsInfo::new_zeroed();
    arg.capacity = 3;
    let mut p = Process::default();
    let mut whole = arg.as_bytes().to_vec();
    whole.extend_from_slice(&[0u8; 3 * 152]);
    p.put(0x1000, &whole);
    let mut c = Capture::before(abi(), DEVICE_GET_ALL_APPS_INFO.code(), 0x1000, &p, 4096);
    c.after(&p);
    let e = event(&c);
    let [b] = buffers(&e) else { panic!() };
    assert_eq!((b.label, b.addr, b.len), ("app_data", 0x1010, 456));
    assert!(b.before.is_none() && b.after.is_some());

    // GET_LOGICAL_TO_PHYSICAL_NC_MAP: the map header through `map`, then max_map_entries
    // entries after it (the count is the parent's).
    let mut arg = GetLogicalToPhysicalNcMap::new_zeroed();
    arg.map = UserPtr::from_addr(0x8000);
    arg.max_map_entries = 4;
    let mut p = Process::default();
    p.put(0x1000, arg.as_bytes());
    let mut map = NcMap::new_zeroed().as_bytes().to_vec();
    for i in 0..4u32 {
        let mut entry = NcMapEntry::new_zeroed();
        entry.device_nc_idx = i;
        map.extend_from_slice(entry.as_bytes());
    }
    p.put(0x8000, &map);
    let mut c = Capture::before(
        abi(),
        GET_LOGICAL_TO_PHYSICAL_NC_MAP.code(),
        0x1000,
        &p,
        4096,
    );
    c.after(&p);
    let e = event(&c);
    let labels: Vec<(&str, u64, u64)> = buffers(&e)
        .iter()
        .map(|b| (b.label, b.addr, b.len))
        .collect();
    assert_eq!(
        labels,
        [("map", 0x8000, 4), ("map[0].mappings", 0x8004, 32)]
    );
}

#[test]
fn bad_pointers_are_recorded_not_followed_blindly() {
    let mut arg = MemBufCopy64::new_zeroed();
    arg.buffer = UserPtr::from_addr(0xdead_0000);
    arg.size = 64;
    arg.copy_to_mem_handle = 1;
    let mut p = Process::default();
    p.put(0x1000, arg.as_bytes());
    let c = Capture::before(abi(), MEM_BUF_COPY64.code(), 0x1000, &p, 4096);
    let e = event(&c);
    let [b] = buffers(&e) else { panic!() };
    assert!(b.fault_before && b.before.is_none());
    assert!(
        decoded(&e).contains("buffer=0xdead0000->!unreadable"),
        "{}",
        decoded(&e)
    );
    // NULL names nothing.
    arg.buffer = UserPtr::null();
    p.put(0x1000, arg.as_bytes());
    let c = Capture::before(abi(), MEM_BUF_COPY64.code(), 0x1000, &p, 4096);
    assert!(buffers(&event(&c)).is_empty());
    // An argument that cannot be read keeps nothing and plans nothing.
    let c = Capture::before(abi(), MEM_BUF_COPY64.code(), 0x9_0000, &p, 4096);
    let e = event(&c);
    let Call::Ioctl(io) = &e.call else { panic!() };
    assert!(io.before.is_none() && io.buffers.is_empty());
}

#[test]
fn a_caller_cannot_make_the_recorder_keep_more_than_its_bounds() {
    // 1000 batches of 1000 ops: the recorder stops at MAX_BUFFERS buffers and the cap.
    let mut arg = MemBufCopy64zcBatches::new_zeroed();
    arg.batches_ptr = UserPtr::from_addr(0x10_000);
    arg.num_batches = 1000;
    arg.is_copy_to_device = 1;
    let mut batch = MemcpyBatch::new_zeroed();
    batch.ops_ptr = UserPtr::from_addr(0x100_000);
    batch.num_ops = 1000;
    let mut op = TensorBatchOp::new_zeroed();
    op.size = u64::MAX;
    op.buffer = UserPtr::from_addr(0x900_000);
    let mut p = Process::default();
    p.put(0x1000, arg.as_bytes());
    p.put(0x10_000, &batch.as_bytes().repeat(1000));
    p.put(0x100_000, &op.as_bytes().repeat(1000));
    p.put(0x900_000, &[7u8; 256]);
    let c = Capture::before(abi(), MEM_BUF_ZEROCOPY64_BATCHES.code(), 0x1000, &p, 256);
    let e = event(&c);
    let bufs = buffers(&e);
    assert_eq!(bufs.len(), MAX_BUFFERS);
    assert!(bufs.iter().all(|b| b.captured() <= 256));
    // The op buffer's length saturates instead of wrapping.
    assert!(bufs.iter().any(|b| b.len == u64::MAX));
    let mut bytes = Vec::new();
    ndl_trace::encode_event(&e, &mut bytes).unwrap();
    assert!(bytes.len() < MAX_BUFFERS * 600);
}

#[test]
fn a_request_outside_the_catalog_keeps_its_encoded_size() {
    // _IOWR('N', 200, 24 bytes): no catalog entry, so 24 bytes are kept and nothing followed.
    let code = ndl_abi::ioc(ndl_abi::Dir::ReadWrite, b'N', 200, 24);
    let mut p = Process::default();
    p.put(0x1000, &[0xAB; 24]);
    let c = Capture::before(abi(), code, 0x1000, &p, 4096);
    let e = event(&c);
    let Call::Ioctl(io) = &e.call else { panic!() };
    assert_eq!(io.before.map(<[u8]>::len), Some(24));
    assert!(io.buffers.is_empty());
    assert!(
        decoded(&e).starts_with("ioctl 0xc0184ec8 <24 bytes abab"),
        "{}",
        decoded(&e)
    );
}
