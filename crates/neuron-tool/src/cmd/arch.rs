//! `neuron-tool arch --device-id ID` (or `--arch NAME`): generation, capabilities and
//! scalars, all read from the arch type's associated items.

use std::io::Write;

use iofic::caps::IoficCaps;
use khal::{Arch, Generation};
use udma_desc::caps::PacketCaps;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::ArchArgs;
use crate::error::{Result, ToolError};

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
            (
                "M2S_PRIMARY_D_UNMASK",
                <A::Revision as IoficCaps>::M2S_PRIMARY_D_UNMASK,
            ),
            (
                "S2M_PRIMARY_D_UNMASK",
                <A::Revision as IoficCaps>::S2M_PRIMARY_D_UNMASK,
            ),
            ("M2S_ERROR_MASK", <A::Revision as IoficCaps>::M2S_ERROR_MASK),
            ("S2M_ERROR_MASK", <A::Revision as IoficCaps>::S2M_ERROR_MASK),
            (
                "M2S_PARITY_MASK",
                <A::Revision as IoficCaps>::M2S_PARITY_MASK,
            ),
            (
                "S2M_PARITY_MASK",
                <A::Revision as IoficCaps>::S2M_PARITY_MASK,
            ),
        ] {
            writeln!(out, "  {name:<34} {v:#010x}")?;
        }
        writeln!(out, "scalars:")?;
        for f in A::SCALARS.fields() {
            writeln!(out, "  {:<34} {}", f.name, f.value)?;
        }
        Ok(())
    }
}

/// `arch --device-id ID | --arch NAME`.
pub fn run(args: &ArchArgs, out: &mut impl Write) -> Result<()> {
    let (g, device_id) = match (args.device_id, args.arch) {
        (Some(id), _) => {
            let id16 = u16::try_from(id).map_err(|_| {
                ToolError::BadArgument(format!("device id {id:#x} is not a 16-bit PCI device id"))
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
    use super::run;
    use crate::cli::ArchArgs;

    #[test]
    fn scalars_print_from_the_structured_listing() {
        let mut out = Vec::new();
        let args = ArchArgs {
            device_id: Some(0x7564),
            arch: None,
        };
        run(&args, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = |name: &str| {
            text.lines()
                .find(|l| l.split_whitespace().next() == Some(name))
                .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        };
        // arch-scalars.tsv / address-map.tsv values, printed by the listing's rules.
        assert_eq!(line("hbm_active_size").as_deref(), Some("0x900000000"));
        assert_eq!(line("semaphore_count").as_deref(), Some("256"));
        assert_eq!(line("hal_data_fifo_depth").as_deref(), Some("4088"));
        assert_eq!(
            line("npe_neighbor_eng_ids").as_deref(),
            Some("[[40, 72], [8, 104]]")
        );
        assert_eq!(line("compatible_version").as_deref(), Some("10..=11"));
        let scalar_lines = text
            .lines()
            .skip_while(|l| *l != "scalars:")
            .skip(1)
            .count();
        assert_eq!(scalar_lines, khal::Scalars::FIELD_COUNT);
    }
}
