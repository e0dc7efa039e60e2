//! The 16-byte UDMA descriptor of AWS Neuron devices: typed words, builders and rings.
//!
//! Every DMA the Neuron driver stack issues is a pair of 16-byte descriptors: a TX
//! (memory-to-stream) descriptor naming the source and an RX (stream-to-memory) one naming
//! the destination, each in a ring the engine walks. This crate is the byte-level heart of
//! that: `#![no_std]`, no allocation, no panics on any input, byte-identical to the vendor
//! driver (proven by its golden vectors, see `tests/`).
//!
//! * [`Descriptor`]: the 16 little-endian bytes, with typed views [`TxDesc`],
//!   [`TxMetaDesc`], [`RxDesc`], [`CompletionDesc`] and the `bitfield-struct` words
//!   [`TxLenCtrl`], [`RxLenCtrl`], [`MetaCtrl`], [`CompCtrlMeta`]; [`RingDump`] reads a
//!   raw ring dump back.
//! * Builders: [`tx_descriptor`], [`rx_descriptor`], [`build_copy_pair`] (sizes
//!   `1..=65536`; 0 is refused where the kernel would silently move 64 KiB).
//! * Rings: [`Ring`] is the index state (next slot, 2-bit ring id, completion index with
//!   lock-free acks); [`DescStore`] is where the descriptors live (plain memory here, a
//!   volatile window or the device model elsewhere); [`DescRing`] joins the two and does
//!   bulk reserve/write; [`RingPair`] is a queue's TX and RX rings with
//!   [`copy_prepare_one`](RingPair::copy_prepare_one) (inlined into the caller: no call
//!   is left in a loop of them), [`copy_prepare_batch`](RingPair::copy_prepare_batch),
//!   [`crc_prepare_one`](RingPair::crc_prepare_one),
//!   [`packet_prepare`](RingPair::packet_prepare) and
//!   [`copy_start`](RingPair::copy_start) over a [`Doorbell`].
//! * Arch limits come in at compile time through [`caps::PacketCaps`].
//!
//! Every refusal is an [`Error`] that names the bad value, and leaves rings untouched.
//!
//! Packets follow seed 004 §1 (`build_cme_packet`, `build_packet`; pinned by
//! `tests/seed_004_packet.rs`). What neither the seed nor the reference states, and so is
//! not encoded here:
//!
//! * the bit positions (and width) of the V4 notification mask in the TX meta word: a
//!   request for one is refused ([`Error::NotificationMaskEncodingUnknown`]);
//! * words 1-3 of the CME meta descriptor (written 0) and the range of the CME index (kept
//!   to `0..=3`, see [`CME_INDEX_MAX`]);
//! * which barrier bits `build_packet`'s callers put in its `flags`: the loop gives the same
//!   `flags` and `meta` to every TX data descriptor, so a packet's barrier goes on each.
//!
//! ```
//! use std::cell::RefCell;
//! use udma_desc::caps::{PacketCaps, Supported, Unsupported};
//! use udma_desc::{Barrier, CopyRequest, DescRing, Descriptor, Direction, Doorbell, QueueId, RingPair};
//!
//! struct Cayman; // what khal-cayman provides
//! impl PacketCaps for Cayman {
//!     const MAX_TX_DESCS_PER_PACKET: u32 = 0x41;
//!     type NotificationMasks = Unsupported;
//!     type StrongOrdering = Supported;
//! }
//!
//! struct Log(RefCell<Vec<(&'static str, u32)>>); // khal rings MMIO registers instead
//! impl Doorbell for Log {
//!     fn ring_rx(&self, _: QueueId, n: u32) { self.0.borrow_mut().push(("rx", n)) }
//!     fn ring_tx(&self, _: QueueId, n: u32) { self.0.borrow_mut().push(("tx", n)) }
//! }
//!
//! let (mut tx, mut rx) = ([Descriptor::ZERO; 64], [Descriptor::ZERO; 64]);
//! let mut pair = RingPair::new(
//!     QueueId::new(0)?,
//!     DescRing::new(Direction::Tx, &mut tx[..])?,
//!     DescRing::new(Direction::Rx, &mut rx[..])?,
//! );
//! // The worked example of the vendor notes: 64 KiB with DMB on ring pass 1.
//! let req = CopyRequest::new(0x1000, 0x2000, 65_536).with_barrier(Barrier::Dmb);
//! let slots = pair.copy_prepare_one::<Cayman>(&req)?;
//! let d = pair.tx().load(slots.tx.index)?;
//! assert_eq!(d.to_le_bytes()[..8], [0x00, 0x00, 0x00, 0x4d, 0x03, 0x00, 0x08, 0x01]);
//! println!("{}", d.decode(Direction::Tx));
//!
//! // A size of 0 is refused and takes no slot.
//! assert_eq!(pair.copy_prepare_one::<Cayman>(&CopyRequest::new(0, 0, 0)), Err(udma_desc::Error::ZeroSize));
//! assert_eq!(pair.tx().ring().next_index(), 1);
//!
//! let db = Log(RefCell::new(Vec::new()));
//! pair.copy_start(&db, 1, 1)?; // RX first, then TX
//! assert_eq!(*db.0.borrow(), [("rx", 1), ("tx", 1)]);
//! pair.ack(1)?; // once the copy is known done
//! # Ok::<(), udma_desc::Error>(())
//! ```
#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::cast_possible_truncation
    )
)]

mod barrier;
mod builder;
pub mod caps;
mod comp_ctrl_meta;
mod copy_run;
mod copy_source;
mod crc;
mod desc_ring;
mod desc_store;
mod descriptor;
mod direction;
mod doorbell;
mod error;
mod field_spec;
mod meta_ctrl;
mod packet;
mod queue_id;
mod ring;
mod ring_dump;
mod ring_id;
mod ring_pair;
mod rx_len_ctrl;
mod size;
mod tx_len_ctrl;
mod u3;

pub use barrier::Barrier;
pub use builder::{CopyPair, CopyRequest, build_copy_pair, rx_descriptor, tx_descriptor};
pub use comp_ctrl_meta::CompCtrlMeta;
pub use copy_source::CopySource;
pub use crc::{CRC_RESULT_BYTES, CrcRequest, CrcSlots};
pub use desc_ring::DescRing;
pub use desc_store::DescStore;
pub use descriptor::{CompletionDesc, DESC_BYTES, Decoded, Descriptor, RxDesc, TxDesc, TxMetaDesc};
pub use direction::Direction;
pub use doorbell::{Doorbell, start_refuses_rx_count};
pub use error::Error;
pub use field_spec::FieldSpec;
pub use meta_ctrl::{MetaCtrl, SSMAE_OP_COPY};
pub use packet::{
    CME_INDEX_MAX, CME_META_FLAGS, CopyBlock, MAX_PACKET_BYTES, PacketOptions, PacketSlots,
    Segment, SgBlock, cme_descriptor,
};
pub use queue_id::{InvalidQueueId, QUEUES_PER_ENGINE, QueueId};
pub use ring::{
    RING_MAX_SIZE, RING_MIN_SIZE, RING_RESERVE, RING_SIZE_MULTIPLE, Reservation, Ring, Slot,
};
pub use ring_dump::RingDump;
pub use ring_id::RingId;
pub use ring_pair::{CopyBatch, CopySlots, RingPair};
pub use rx_len_ctrl::RxLenCtrl;
pub use size::{MAX_TRANSFER_BYTES, decode_len, encode_size};
pub use tx_len_ctrl::TxLenCtrl;
pub use u3::U3;
