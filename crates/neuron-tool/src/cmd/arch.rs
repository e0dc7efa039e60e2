//! `neuron-tool arch --device-id ID` (or `--arch NAME`): generation, capabilities and
//! scalars, all read from the arch type's associated items.

use std::io::Write;

use iofic::caps::IoficCaps;
use khal::{Arch, Generation};
use udma_desc::caps::PacketCaps;

use crate::arch_select::{ArchVisitor, dispatch};
use crate::cli::ArchArgs;
use crate::error::{Result, ToolError};

/// Scalars whose names hold one of these words (split at `_`) are addresses, sizes or bit
/// masks and print in hex; the rest (counts, milliseconds, ids) in decimal.
const HEX_WORDS: [&str; 9] = [
    "offset", "offsets", "base", "bases", "size", "stride", "mask", "map", "carveout",
];

/// Rewrites every decimal number of `value` in hex.
fn hex_numbers(value: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let mut prev_word = false;
    let flush = |digits: &mut String, out: &mut String| {
        if let Ok(n) = digits.parse::<u64>() {
            out.push_str(&format!("{n:#x}"));
        } else {
            out.push_str(digits);
        }
        digits.clear();
    };
    for c in value.chars() {
        if c.is_ascii_digit() && (!prev_word || !digits.is_empty()) {
            digits.push(c);
            continue;
        }
        flush(&mut digits, &mut out);
        prev_word = c.is_ascii_alphanumeric() || c == '_';
        out.push(c);
    }
    flush(&mut digits, &mut out);
    out
}

/// Splits the one-line `Debug` of a struct (every field by name, so always in sync with
/// `khal::Scalars`) into `(name, value)` pairs, values with address-like names in hex.
fn scalar_fields(debug: &str) -> Vec<(String, String)> {
    let body = debug
        .split_once('{')
        .map_or(debug, |(_, b)| b)
        .trim()
        .trim_end_matches('}')
        .trim();
    let mut fields = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let mut push = |part: &str| {
        if let Some((name, value)) = part.trim().split_once(": ") {
            let hexy = name.split('_').any(|w| HEX_WORDS.contains(&w));
            let value = if hexy {
                hex_numbers(value)
            } else {
                value.to_string()
            };
            fields.push((name.to_string(), value));
        }
    };
    for (i, c) in body.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                push(body.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    push(body.get(start..).unwrap_or_default());
    fields
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
            (
                "M2S_PRIMARY_D_UNMASK",
                <A as IoficCaps>::M2S_PRIMARY_D_UNMASK,
            ),
            (
                "S2M_PRIMARY_D_UNMASK",
                <A as IoficCaps>::S2M_PRIMARY_D_UNMASK,
            ),
            ("M2S_ERROR_MASK", <A as IoficCaps>::M2S_ERROR_MASK),
            ("S2M_ERROR_MASK", <A as IoficCaps>::S2M_ERROR_MASK),
            ("M2S_PARITY_MASK", <A as IoficCaps>::M2S_PARITY_MASK),
            ("S2M_PARITY_MASK", <A as IoficCaps>::S2M_PARITY_MASK),
        ] {
            writeln!(out, "  {name:<34} {v:#010x}")?;
        }
        writeln!(out, "scalars:")?;
        for (name, value) in scalar_fields(&format!("{:?}", A::SCALARS)) {
            writeln!(out, "  {name:<34} {value}")?;
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
    use super::scalar_fields;

    #[test]
    fn fields_split_at_top_level_with_address_like_values_in_hex() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct S {
            semaphore_count: u16,
            pci_host_base: u64,
            hbm_bases: &'static [u64],
            window: (u8, u8),
            dev_nc_map: u32,
            opt: Option<u8>,
        }
        let s = S {
            semaphore_count: 256,
            pci_host_base: 0x4000_0000_0000,
            hbm_bases: &[0, 0x40_0000_0000],
            window: (10, 11),
            dev_nc_map: 0xff,
            opt: None,
        };
        let f = scalar_fields(&format!("{s:?}"));
        let get = |n: &str| f.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
        assert_eq!(f.len(), 6, "{f:?}");
        assert_eq!(get("semaphore_count"), Some("256"));
        assert_eq!(get("pci_host_base"), Some("0x400000000000"));
        assert_eq!(get("hbm_bases"), Some("[0x0, 0x4000000000]"));
        assert_eq!(get("window"), Some("(10, 11)"));
        assert_eq!(get("dev_nc_map"), Some("0xff"));
        assert_eq!(get("opt"), Some("None"));
    }
}
