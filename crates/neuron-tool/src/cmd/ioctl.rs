//! `neuron-tool ioctl list` and `neuron-tool ioctl decode`, from `ndl-std`'s catalog.

use std::io::Write;

use ndl_std::ioctl_codes::{self, Match, TYPE};

use crate::cli::IoctlCommand;
use crate::error::Result;

/// `ioctl list | decode REQ`.
pub fn run(cmd: &IoctlCommand, out: &mut impl Write) -> Result<()> {
    match *cmd {
        IoctlCommand::List => {
            // `NAME 0xXXXXXXXX DIR NR SIZE LANE`: the catalog's own Display.
            for c in ioctl_codes::catalog() {
                writeln!(out, "{c}")?;
            }
        }
        IoctlCommand::Decode { request } => decode(request, out)?,
    }
    Ok(())
}

/// `ioctl decode REQ`: the request's fields, then its name or why it has none.
pub fn decode(code: u32, out: &mut impl Write) -> Result<()> {
    let d = ioctl_codes::decode(code);
    let ty = d.ty();
    let ty_text = if ty.is_ascii_graphic() {
        format!("'{}'", char::from(ty))
    } else {
        format!("{ty:#04x}")
    };
    let lane = d
        .lane()
        .map_or("none (the driver answers -EINVAL)", |l| l.as_str());
    writeln!(
        out,
        "{code:#010X} dir {} nr {} size {} type {ty_text} lane {lane}",
        d.dir(),
        d.nr(),
        d.size()
    )?;
    if ty != TYPE {
        writeln!(out, "not a Neuron request: the type byte is not 'N'")?;
        return Ok(());
    }
    let names: Vec<&str> = d.names().collect();
    match (d.exact(), d.route()) {
        (Some(c), _) => writeln!(out, "name: {}", c.name())?,
        (None, Some(r)) if r.by == Match::Nr && !names.is_empty() => writeln!(
            out,
            "no command has exactly this number; nr {} routes it to the handler of {} (which refuses this size)",
            r.nr,
            names.join(", ")
        )?,
        _ => writeln!(out, "no Neuron command has this number or nr")?,
    }
    Ok(())
}
