//! `neuron-tool ioctl list | decode | diff`, from `ndl-abi`'s per-release catalogs.

use std::io::Write;

use ndl_abi::kernel::Match;
use ndl_abi::{Release, TYPE};

use crate::abi_diff::{AbiDiff, list_line};
use crate::cli::IoctlCommand;
use crate::error::{Result, ToolError};

/// The release named `name`, or the default one (2.26.5.0).
pub fn release(name: Option<&str>) -> Result<Release> {
    match name {
        None => Ok(Release::DEFAULT),
        Some(n) => Release::parse(n).map_err(|_| {
            let known: Vec<&str> = Release::ALL.iter().map(|r| r.as_str()).collect();
            ToolError::BadArgument(format!(
                "unknown driver release '{n}' (known: {})",
                known.join(", ")
            ))
        }),
    }
}

/// `ioctl list [--driver R] | decode REQ [--driver R] | diff R1 R2`.
pub fn run(cmd: &IoctlCommand, out: &mut impl Write) -> Result<()> {
    match cmd {
        IoctlCommand::List { driver } => {
            let abi = release(driver.as_deref())?.abi();
            for (c, r) in abi.catalog.iter().zip(abi.routing) {
                writeln!(out, "{}", list_line(c, r))?;
            }
        }
        IoctlCommand::Decode { request, driver } => {
            decode(release(driver.as_deref())?, *request, out)?;
        }
        IoctlCommand::Diff { from, to } => {
            let (a, b) = (release(Some(from))?, release(Some(to))?);
            write!(out, "{}", AbiDiff::between(a, b))?;
        }
    }
    Ok(())
}

/// `ioctl decode REQ`: the request's fields, then its name or why it has none, in `release`.
pub fn decode(release: Release, code: u32, out: &mut impl Write) -> Result<()> {
    let d = release.abi().decode(code);
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
        _ => writeln!(
            out,
            "no Neuron command of driver {release} has this number or nr"
        )?,
    }
    Ok(())
}
