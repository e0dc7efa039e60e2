//! `neuron-tool`: the command-line face of the Neuron HAL crates.
//!
//! The binary is a thin `main` over this library, so the pieces are testable and
//! benchmarkable on their own:
//!
//! * [`cli`]: the clap grammar (subcommand and flag spellings are an interface).
//! * [`cmd`]: one module per subcommand.
//! * [`batch`]: the million-line `desc build --batch` path.
//! * [`summary`]: what `copy` prints (the copy itself is `ndl-copy`'s).
//! * [`abi_diff`]: `ioctl diff`, two driver releases' ABIs compared.
//! * [`arch_select`]: the one place a run-time arch becomes a type.
//! * [`error`]: [`ToolError`](error::ToolError), one sentence per failure.
//! * [`quote`]: how a message shows user input (short, escaped).
//! * [`dump`]: a ring dump, read within the largest ring's bound.
//! * [`memory_bound`]: the sizes the built-in model may be asked for.
//! * `fuzzing` (feature `test-utils`): the fuzz targets' bodies and invariants.

pub mod abi_diff;
pub mod arch_select;
pub mod bar_reader;
pub mod batch;
pub mod cli;
pub mod cmd;
pub mod device_target;
pub mod dump;
pub mod error;
#[cfg(feature = "test-utils")]
pub mod fuzzing;
pub mod hex;
pub mod memory_bound;
pub mod pattern;
pub mod queue_demo;
pub mod queue_json;
pub mod queue_verdict;
pub mod queue_view;
pub mod quote;
pub mod reg_fields;
pub mod serve_faults;
pub mod size;
pub mod summary;
pub mod unit_regs;
pub mod usage;
