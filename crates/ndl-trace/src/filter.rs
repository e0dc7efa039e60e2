//! The event filters of `trace decode|stats|export`: by process, command and device. Each
//! given list keeps the events that match one of its entries; an empty list keeps all.

use ndl_abi::Abi;

use crate::event::{Call, Event};

/// Which events to keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Process ids.
    pub pids: Vec<u32>,
    /// Commands: catalog names (with or without `NEURON_IOCTL_`, any case) or the calls
    /// `open`, `close`, `mmap`, `munmap`.
    pub commands: Vec<String>,
    /// Device indices (`neuronN`).
    pub devices: Vec<u32>,
}

/// The calls a command filter may name besides the catalog's commands.
pub const CALLS: [&str; 4] = ["open", "close", "mmap", "munmap"];

fn short(name: &str) -> String {
    let upper = name.trim().to_ascii_uppercase();
    upper
        .strip_prefix("NEURON_IOCTL_")
        .map_or(upper.clone(), str::to_owned)
}

impl Filter {
    /// The command names of the filter that neither `abi`'s catalog nor [`CALLS`] knows.
    pub fn unknown_commands(&self, abi: &Abi) -> Vec<String> {
        self.commands
            .iter()
            .filter(|c| {
                !CALLS.contains(&c.to_ascii_lowercase().as_str()) && abi.find(&short(c)).is_none()
            })
            .cloned()
            .collect()
    }

    /// True when `e` passes.
    pub fn keeps(&self, abi: &Abi, e: &Event<'_>) -> bool {
        if !self.pids.is_empty() && !self.pids.contains(&e.common.pid) {
            return false;
        }
        if !self.devices.is_empty() && !e.common.device.is_some_and(|d| self.devices.contains(&d)) {
            return false;
        }
        if self.commands.is_empty() {
            return true;
        }
        match &e.call {
            Call::Ioctl(io) => {
                let Some(cmd) = abi.lookup(io.request) else {
                    return false;
                };
                self.commands.iter().any(|c| short(c) == cmd.short_name())
            }
            call => self
                .commands
                .iter()
                .any(|c| c.eq_ignore_ascii_case(call.name())),
        }
    }
}
