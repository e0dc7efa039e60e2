//! The tool's one arch choice: a run-time generation (from `--arch` or a PCI device id) to a
//! call of code monomorphised for that generation's [`khal::Arch`] type.
//!
//! Every subcommand that depends on the arch is written once as a [`khal::ArchVisitor`]
//! (generic over `A: Arch`) and reaches it through [`dispatch`], which is `khal`'s single
//! dispatch point over the set of arch types this binary links. Nothing else in the tool
//! matches on an arch.

use khal::Generation;
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;

pub use khal::ArchVisitor;

use crate::cli::ArchName;
use crate::error::{Result, ToolError};

/// The arch types this binary supports: all three generations.
pub type Supported = (Sunda, Cayman, Mariana);

/// Runs `v` monomorphised for the arch of generation `g` (through `khal::dispatch`).
pub fn dispatch<V: ArchVisitor>(g: Generation, v: V) -> Result<V::Output> {
    khal::dispatch::<Supported, V>(g, v).map_err(|e| ToolError::BadArgument(e.to_string()))
}

impl ArchName {
    /// The generation this code name stands for.
    pub const fn generation(self) -> Generation {
        match self {
            ArchName::Sunda => Generation::V2,
            ArchName::Cayman => Generation::V3,
            ArchName::Mariana => Generation::V4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use khal::Arch;

    struct Name;
    impl ArchVisitor for Name {
        type Output = (Generation, &'static str);
        fn visit<A: Arch>(self) -> Self::Output {
            (A::GENERATION, A::CODE_NAME)
        }
    }

    #[test]
    fn every_name_reaches_its_own_arch_type() {
        for (name, code) in [
            (ArchName::Sunda, "SUNDA"),
            (ArchName::Cayman, "CAYMAN"),
            (ArchName::Mariana, "MARIANA"),
        ] {
            let (g, c) = dispatch(name.generation(), Name).unwrap();
            assert_eq!((g, c), (name.generation(), code));
        }
    }
}
