//! `neuron-tool desc build` and `neuron-tool desc decode`.

use std::io::{Read, Write};

use khal::Arch;
use udma_desc::{
    Barrier, CopyRequest, Decoded, Descriptor, Direction, FieldSpec, MetaCtrl, RingId, RxLenCtrl,
    TxLenCtrl, build_copy_pair, decode_len,
};

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::{BarrierName, DescBuildArgs, DescDecodeArgs};
use crate::error::{Result, ToolError};
use crate::hex::{DESC_HEX_LEN, encode_desc, parse_desc};

impl BarrierName {
    /// The descriptor-level barrier.
    pub const fn barrier(self) -> Barrier {
        match self {
            BarrierName::None => Barrier::None,
            BarrierName::Dmb => Barrier::Dmb,
            BarrierName::WriteBarrier => Barrier::WriteBarrier,
            BarrierName::Sow => Barrier::Sow,
        }
    }
}

fn ring_id(name: &str, v: Option<u32>) -> Result<RingId> {
    let v = v.ok_or_else(|| ToolError::BadArgument(format!("--{name} is required")))?;
    u8::try_from(v)
        .ok()
        .and_then(|b| RingId::new(b).ok())
        .ok_or_else(|| ToolError::BadArgument(format!("--{name} {v} is not a ring id (0..3)")))
}

/// `desc build`: one pair from flags, or `--batch` from stdin.
pub fn build(args: &DescBuildArgs, input: impl Read, out: &mut impl Write) -> Result<()> {
    struct Batch<'a, R, W>(R, &'a mut W);
    impl<R: Read, W: Write> ArchVisitor for Batch<'_, R, W> {
        type Output = Result<crate::batch::BatchStats, crate::batch::BatchError>;
        fn visit<A: Arch>(self) -> Self::Output {
            crate::batch::run::<A, _, _>(self.0, self.1)
        }
    }
    struct One(RingId, RingId, CopyRequest);
    impl ArchVisitor for One {
        type Output = Result<udma_desc::CopyPair, udma_desc::Error>;
        fn visit<A: Arch>(self) -> Self::Output {
            build_copy_pair::<A>(self.0, self.1, &self.2)
        }
    }

    let g = args.arch.generation();
    if args.batch {
        let stats = dispatch(g, Batch(input, out))??;
        return match stats.first_err {
            None => Ok(()),
            Some((first_line, first_reason)) => Err(ToolError::BatchRefused {
                failed: stats.err,
                lines: stats.lines,
                first_line,
                first_reason,
            }),
        };
    }
    let tx = ring_id("tx-ring", args.tx_ring)?;
    let rx = ring_id("rx-ring", args.rx_ring)?;
    let size = args.size.unwrap_or_default();
    let size = u32::try_from(size)
        .map_err(|_| ToolError::BadArgument(format!("transfer size {size} above 65536")))?;
    let req = CopyRequest::new(
        args.src.unwrap_or_default(),
        args.dst.unwrap_or_default(),
        size,
    )
    .with_barrier(args.barrier.barrier())
    .with_dst_interrupt(args.int);
    let pair = dispatch(g, One(tx, rx, req))??;
    let (mut txh, mut rxh) = ([0u8; DESC_HEX_LEN], [0u8; DESC_HEX_LEN]);
    encode_desc(&pair.tx, &mut txh);
    encode_desc(&pair.rx, &mut rxh);
    out.write_all(b"tx=")?;
    out.write_all(&txh)?;
    out.write_all(b" rx=")?;
    out.write_all(&rxh)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// `desc decode`: every field of every word by its reference-table name.
pub fn decode(args: &DescDecodeArgs, out: &mut impl Write) -> Result<()> {
    let d = parse_desc(&args.hex).map_err(|why| ToolError::BadHex {
        text: args.hex.clone(),
        why,
    })?;
    let dir = if args.rx {
        Direction::Rx
    } else {
        Direction::Tx
    };
    write_decoded(d, dir, out)
}

/// Bit range of a field, `15:0` or `26`.
fn bits(f: &FieldSpec) -> String {
    if f.width == 1 {
        format!("{}", f.lsb)
    } else {
        format!("{}:{}", f.lsb + f.width - 1, f.lsb)
    }
}

/// One word: its value, then every field, then any set bit no field covers.
fn write_word(
    out: &mut impl Write,
    index: usize,
    name: &str,
    word: u32,
    fields: &[FieldSpec],
) -> Result<()> {
    writeln!(out, "word {index}  {name} = {word:#010x}")?;
    let mut covered = 0u32;
    for f in fields {
        let v = (word & f.mask()) >> f.lsb;
        covered |= f.mask();
        let note = match (f.name, u16::try_from(v)) {
            ("LEN", Ok(len)) => format!("  ({} bytes)", decode_len(len)),
            _ => String::new(),
        };
        writeln!(out, "  {:<34} {:>5}  {v:#x}{note}", f.name, bits(f))?;
    }
    let reserved = word & !covered;
    if reserved != 0 {
        writeln!(out, "  reserved bits set: {reserved:#010x}")?;
    }
    Ok(())
}

/// Prints descriptor `d` read as direction `dir`.
pub fn write_decoded(d: Descriptor, dir: Direction, out: &mut impl Write) -> Result<()> {
    let [w0, w1, w2, w3] = d.words();
    match d.decode(dir) {
        Decoded::Tx(tx) => {
            writeln!(out, "TX (M2S) data descriptor {d}")?;
            write_word(out, 0, "len_ctrl", w0, &TxLenCtrl::FIELDS)?;
            write_word(out, 1, "meta_ctrl", w1, &MetaCtrl::FIELDS)?;
            writeln!(
                out,
                "words 2-3  buf_ptr = {:#018x}  (source address)",
                tx.buf_ptr
            )?;
        }
        Decoded::TxMeta(m) => {
            writeln!(
                out,
                "TX (M2S) meta descriptor {d}  (META set: no data; bits 25:24 hold CME index {})",
                m.cme_index()
            )?;
            write_word(out, 0, "len_ctrl", w0, &TxLenCtrl::FIELDS)?;
            write_word(out, 1, "meta_ctrl", w1, &MetaCtrl::FIELDS)?;
            writeln!(out, "word 2  meta1 = {w2:#010x}")?;
            writeln!(out, "word 3  meta2 = {w3:#010x}")?;
        }
        Decoded::Rx(rx) => {
            writeln!(out, "RX (S2M) descriptor {d}")?;
            write_word(out, 0, "len_ctrl", w0, &RxLenCtrl::FIELDS)?;
            writeln!(out, "word 1  buf2_ptr_lo = {:#010x}", rx.buf2_ptr_lo)?;
            writeln!(
                out,
                "words 2-3  buf1_ptr = {:#018x}  (destination address)",
                rx.buf1_ptr
            )?;
        }
    }
    Ok(())
}
