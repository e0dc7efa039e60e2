//! One module per subcommand; [`run`] sends a parsed command line to it.

pub mod arch;
pub mod bench;
pub mod compat;
pub mod copy;
pub mod desc;
pub mod ioctl;
pub mod queue_inspect;
pub mod regs;
pub mod regs_read;
pub mod ring;
pub mod serve;
pub mod trace;

use std::io::{Read, Write};

use crate::cli::{BenchCommand, Command, DescCommand, QueueCommand, RegsCommand, RingCommand};
use crate::error::Result;

/// Runs `cmd`, reading `input` (only `desc build --batch` does) and writing to `out`.
pub fn run(cmd: &Command, input: impl Read, out: &mut impl Write) -> Result<()> {
    match cmd {
        Command::Copy(a) => copy::run(a, out),
        Command::Desc(DescCommand::Build(a)) => desc::build(a, input, out),
        Command::Desc(DescCommand::Decode(a)) => desc::decode(a, out),
        Command::Ring(RingCommand::Decode(a)) => ring::decode(a, out),
        Command::Ioctl(c) => ioctl::run(c, out),
        Command::Compat(a) => compat::run(a, out),
        Command::Regs(a) => match &a.action {
            Some(RegsCommand::Read(r)) => regs_read::read(r, out),
            Some(RegsCommand::Dump(d)) => regs_read::dump(d, out),
            None => regs::run(a, out),
        },
        Command::Queue(QueueCommand::Inspect(a)) => queue_inspect::run(a, out),
        Command::Arch(a) => arch::run(a, out),
        Command::Bench(BenchCommand::Build { arch, pairs }) => bench::build(*arch, *pairs, out),
        Command::Serve(a) => serve::run(a, out),
        Command::Trace(c) => trace::run(c, out),
    }
}
