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
//!   [`TxLenCtrl`], [`RxLenCtrl`], [`MetaCtrl`], [`CompCtrlMeta`].
//! * [`RingDump`]: a raw ring dump read back as descriptors.
//!
//! ```
//! use udma_desc::{Descriptor, MetaCtrl, RingId, TxDesc, TxLenCtrl, Direction};
//!
//! // A 64 KiB single-descriptor copy source on the first ring pass, with a DMB barrier.
//! let tx = TxDesc {
//!     len_ctrl: TxLenCtrl::COPY_FLAGS
//!         .with_len(udma_desc::encode_size(65_536)?)
//!         .with_ring_id(RingId::INITIAL)
//!         .with_dmb(true),
//!     meta_ctrl: MetaCtrl::new(),
//!     buf_ptr: 0x1000,
//! };
//! let d = Descriptor::from(tx);
//! // The worked example of the vendor notes: len_ctrl bytes 0000004d, meta bytes 03000801.
//! assert_eq!(d.to_le_bytes()[..8], [0x00, 0x00, 0x00, 0x4d, 0x03, 0x00, 0x08, 0x01]);
//! assert_eq!(d.decode(Direction::Tx).to_string().split(' ').nth(1), Some("len=65536"));
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

pub mod caps;
mod comp_ctrl_meta;
mod descriptor;
mod direction;
mod doorbell;
mod error;
mod field_spec;
mod meta_ctrl;
mod queue_id;
mod ring_dump;
mod ring_id;
mod rx_len_ctrl;
mod size;
mod tx_len_ctrl;
mod u3;

pub use comp_ctrl_meta::CompCtrlMeta;
pub use descriptor::{CompletionDesc, DESC_BYTES, Decoded, Descriptor, RxDesc, TxDesc, TxMetaDesc};
pub use direction::Direction;
pub use doorbell::Doorbell;
pub use error::Error;
pub use field_spec::FieldSpec;
pub use meta_ctrl::{MetaCtrl, SSMAE_OP_COPY};
pub use queue_id::{InvalidQueueId, QUEUES_PER_ENGINE, QueueId};
pub use ring_dump::RingDump;
pub use ring_id::RingId;
pub use rx_len_ctrl::RxLenCtrl;
pub use size::{MAX_TRANSFER_BYTES, decode_len, encode_size};
pub use tx_len_ctrl::TxLenCtrl;
pub use u3::U3;
