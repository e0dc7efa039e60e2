//! `neuron-tool arch --device-id ID` (or `--arch NAME`): generation, capabilities and
//! scalars, all read from the arch type's associated items.

use std::io::Write;

use iofic::caps::IoficCaps;
use khal::{Arch, Generation};
use udma_desc::caps::PacketCaps;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::ArchArgs;
use crate::error::{Result, ToolError};

/// Numbers at or above this print in hex (offsets, sizes, masks); smaller ones are counts.
const HEX_FROM: u64 = 0x1_0000;

/// Rewrites the pretty `Debug` of the scalars (every field by name, always in sync with
/// `khal::Scalars`) as `name  value` lines, large numbers in hex.
fn scalar_lines(debug: &str) -> Vec<String> {
    let num = |v: &str| match v.parse::<u64>() {
        Ok(n) if n >= HEX_FROM => format!("{n:#x}"),
        _ => v.to_string(),
    };
    let mut lines = Vec::new();
    for raw in debug.lines().skip(1) {
        let t = raw.trim().trim_end_matches(',');
        if t == "}" || t.is_empty() {
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let pad = " ".repeat(indent.saturating_sub(4));
        match t.split_once(": ") {
            Some((name, value)) => lines.push(format!("{pad}{name:<34} {}", num(value))),
            None => lines.push(format!("{pad}{}", num(t))),
        }
    }
    lines
}

struct Facts<'a, W> {
    out: &'a mut W,
    device_id: Option<u16>,
}

impl<W: Write> ArchVisitor for Facts<'_, W> {
    type Output = std::io::Result<()>;
    fn visit<A: Arch>(self) -> Self::Output {
        let out = self.out;
        let yes = |b: bool| if b { "yes" } else { "no" };
        if let Some(id) = self.device_id {
            let p = A::PRODUCTS.iter().find(|p| p.pci_device_id == id);
            match p {
                Some(p) => writeln!(
                    out,
                    "device id {id:#06x}: {} ({}, {} instances)",
                    p.product, p.device_name, p.instance_suffix
                )?,
                None => writeln!(out, "device id {id:#06x}")?,
            }
        }
        writeln!(
            out,
            "generation {} (driver arch value {})",
            A::GENERATION,
            A::GENERATION.number()
        )?;
        writeln!(out, "UDMA revision {}", A::UDMA_REVISION)?;
        writeln!(out, "products:")?;
        for p in A::PRODUCTS {
            writeln!(
                out,
                "  {:#06x}  {:<5} {:<10} sysfs nd/nc type suffix {}/{}",
                p.pci_device_id, p.product, p.device_name, p.nd_type_suffix, p.nc_type_suffix
            )?;
        }
        writeln!(out, "capabilities:")?;
        writeln!(
            out,
            "  {:<34} {}",
            "max TX descriptors per packet",
            <A as PacketCaps>::MAX_TX_DESCS_PER_PACKET
        )?;
        writeln!(
            out,
            "  {:<34} {}",
            "strong-ordered writes (SOW)",
            yes(<A as PacketCaps>::HAS_STRONG_ORDER)
        )?;
        writeln!(
            out,
            "  {:<34} {}",
            "notification mask",
            yes(<A as PacketCaps>::HAS_NOTIFICATION_MASK)
        )?;
        writeln!(out, "interrupt policy (IOFIC):")?;
        for (name, v) in [
            ("M2S_PRIMARY_D_UNMASK", <A as IoficCaps>::M2S_PRIMARY_D_UNMASK),
            ("S2M_PRIMARY_D_UNMASK", <A as IoficCaps>::S2M_PRIMARY_D_UNMASK),
            ("M2S_ERROR_MASK", <A as IoficCaps>::M2S_ERROR_MASK),
            ("S2M_ERROR_MASK", <A as IoficCaps>::S2M_ERROR_MASK),
            ("M2S_PARITY_MASK", <A as IoficCaps>::M2S_PARITY_MASK),
            ("S2M_PARITY_MASK", <A as IoficCaps>::S2M_PARITY_MASK),
        ] {
            writeln!(out, "  {name:<34} {v:#010x}")?;
        }
        writeln!(out, "scalars:")?;
        for l in scalar_lines(&format!("{:#?}", A::SCALARS)) {
            writeln!(out, "  {l}")?;
        }
        Ok(())
    }
}

/// `arch --device-id ID | --arch NAME`.
pub fn run(args: &ArchArgs, out: &mut impl Write) -> Result<()> {
    let (g, device_id) = match (args.device_id, args.arch) {
        (Some(id), _) => {
            let id16 = u16::try_from(id).map_err(|_| {
                ToolError::BadArgument(format!(
                    "device id {id:#x} is not a 16-bit PCI device id"
                ))
            })?;
            (Generation::from_pci_device_id(id16)?, Some(id16))
        }
        (None, Some(name)) => (name.generation(), None),
        (None, None) => {
            return Err(ToolError::BadArgument(
                "give --device-id ID or --arch NAME".into(),
            ));
        }
    };
    dispatch(g, Facts { out, device_id })??;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::scalar_lines;

    #[test]
    fn debug_is_flattened_with_big_numbers_in_hex() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct S {
            count: u8,
            base: u64,
            list: &'static [u64],
            opt: Option<u8>,
        }
        let s = S {
            count: 8,
            base: 0x4000_0000_0000,
            list: &[0, 0x40_0000_0000],
            opt: None,
        };
        let lines = scalar_lines(&format!("{s:#?}"));
        assert!(lines[0].starts_with("count") && lines[0].ends_with(" 8"));
        assert!(lines[1].ends_with("0x400000000000"), "{lines:?}");
        assert!(lines.iter().any(|l| l.trim() == "0x4000000000"), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("opt") && l.ends_with("None")));
    }
}
