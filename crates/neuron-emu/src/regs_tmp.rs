//! TEMPORARY register offsets and bit positions, until `khal` and `iofic` publish theirs.
//!
//! Every value is from `reference/udma-registers.tsv`, `udma-bitfields.tsv` and `iofic.tsv`.
//! This file is deleted when the model switches to the khal/iofic constants.
#![allow(dead_code)]

// ---- unit layout (offsets from the unit base) ----
pub const M2S_BASE: usize = 0x0_0000;
pub const S2M_BASE: usize = 0x2_0000;
pub const GEN_BASE: usize = 0x3_8000;
pub const UNIT_SIZE: usize = 0x3_c800;
pub const QUEUE_BASE: usize = 0x1000; // from the direction base
pub const QUEUE_STRIDE: usize = 0x1000;
pub const QUEUES: usize = 16;

// ---- engine registers (offset inside the direction block) ----
pub const STATE: usize = 0x200;
pub const CHANGE_STATE: usize = 0x204;
pub const ERR_LOG_MASK: usize = 0x20c;
pub const M2S_CFG_LEN: usize = 0x254;
pub const M2S_STREAM_CFG: usize = 0x258;
pub const S2M_STREAM_CFG: usize = 0x250;
pub const M2S_DESC_PREF_CFG_2: usize = 0x304;

// ---- queue registers (offset inside one queue block) ----
pub const Q_CFG: usize = 0x20;
pub const Q_STATUS: usize = 0x24;
pub const Q_DRBP_LOW: usize = 0x28;
pub const Q_DRBP_HIGH: usize = 0x2c;
pub const Q_DRL: usize = 0x30;
pub const Q_DRHP: usize = 0x34;
pub const Q_DRTP_INC: usize = 0x38;
pub const Q_DRTP: usize = 0x3c;
pub const Q_DCP: usize = 0x40;
pub const Q_TX_RLIMIT_MASK: usize = 0x74;
pub const Q_TX_COMP_CFG: usize = 0xa0;
pub const Q_TX_SW_CTRL: usize = 0xb0;
pub const Q_RX_COMP_CFG: usize = 0x54;
pub const Q_RX_SW_CTRL: usize = 0x64;

// ---- register bits ----
pub const Q_CFG_EN_PREF: u32 = 1 << 16;
pub const Q_CFG_EN_SCHEDULING: u32 = 1 << 17;
pub const Q_CFG_RESET_VALUE: u32 = 0x0300_0000;
pub const Q_RLIMIT_MASK_RESET_VALUE: u32 = 0x7;
pub const Q_SW_CTRL_RST_Q: u32 = 1 << 8;
pub const PTR_OFFSET_MASK: u32 = 0x00ff_ffff;
pub const PTR_RING_ID_SHIFT: u32 = 30;
pub const DRBP_LOW_ADDR_MASK: u32 = 0xffff_ffc0;
pub const CHANGE_STATE_NORMAL: u32 = 1 << 0;
pub const CHANGE_STATE_DIS: u32 = 1 << 1;
pub const CHANGE_STATE_ABORT: u32 = 1 << 2;
pub const STATE_SHIFTS: [u32; 4] = [0, 4, 8, 12];
pub const STATE_FIELD_NORMAL: u32 = 1;
pub const STATE_FIELD_ABORT: u32 = 2;
pub const CFG_LEN_MAX_PKT_MASK: u32 = 0x000f_ffff;
pub const CFG_LEN_ENCODE_64K: u32 = 1 << 24;
pub const STREAM_CFG_DISABLE: u32 = 1 << 0;
pub const DESC_PREF_CFG_2_MAX_DESC_MASK: u32 = 0xff;
pub const M2S_ERR_LOG_PREF_RING_ID: u32 = 1 << 17;
pub const S2M_ERR_LOG_PREF_RING_ID: u32 = 1 << 11;

// ---- descriptor words ----
pub const DESC_LEN_MASK: u32 = 0xffff;
pub const DESC_RING_ID_SHIFT: u32 = 24;
pub const DESC_META: u32 = 1 << 23;
pub const DESC_FIRST: u32 = 1 << 26;
pub const DESC_LAST: u32 = 1 << 27;
pub const DESC_INT_EN: u32 = 1 << 28;
pub const DESC_STRONG_ORDER: u32 = 1 << 29;
pub const DESC_DMB: u32 = 1 << 30;
pub const DESC_CONCAT: u32 = 1 << 31;
pub const META_CTRL_WRITE_BARRIER: u32 = 1 << 26;

// ---- IOFIC ----
pub const IOFIC_PRIMARY: usize = 0x0; // from gen
pub const IOFIC_SECONDARY: usize = 0x2000; // from gen
pub const IOFIC_AXI_ERR_FIRST: usize = 0x2d00; // from gen; 7 single-group controllers
pub const IOFIC_AXI_ERR_STRIDE: usize = 0x100;
pub const IOFIC_AXI_ERR_COUNT: usize = 7;
pub const GROUP_STRIDE: usize = 0x40;
pub const INT_CAUSE: usize = 0x00;
pub const INT_CAUSE_SET: usize = 0x08;
pub const INT_MASK: usize = 0x10;
pub const INT_MASK_CLEAR: usize = 0x18;
pub const INT_STATUS: usize = 0x20;
pub const INT_CONTROL: usize = 0x28;
pub const INT_ABORT_MASK: usize = 0x30;
pub const CONTROL_CLEAR_ON_READ: u32 = 1 << 0;
pub const CONTROL_AUTO_MASK: u32 = 1 << 1;
pub const PRIMARY_D_SECONDARY_SUMMARY: [u32; 4] = [1 << 8, 1 << 9, 1 << 10, 1 << 11];
pub const PRIMARY_A_GROUP_SUMMARY: [u32; 3] = [1 << 0, 1 << 1, 1 << 2]; // B, C, D

// secondary A (M2S) causes
pub const M2S_DATA_AXI_RESP: u32 = 1 << 8;
pub const M2S_PREFETCH_AXI_RESP: u32 = 1 << 11;
pub const M2S_PKT_LEN: u32 = 1 << 13;
pub const M2S_PREFETCH_MAX_DESC: u32 = 1 << 14;
pub const M2S_PREFETCH_FIRST: u32 = 1 << 15;
pub const M2S_PREFETCH_LAST: u32 = 1 << 16;
pub const M2S_PREFETCH_RING_ID: u32 = 1 << 17;
// secondary B (S2M) causes
pub const S2M_DATA_AXI_RESP: u32 = 1 << 1;
pub const S2M_PREFETCH_AXI_RESP: u32 = 1 << 9;
pub const S2M_PREFETCH_RING_ID: u32 = 1 << 11;
pub const S2M_PKT_LEN: u32 = 1 << 24;
