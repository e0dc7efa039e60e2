//! The tool's one arch choice: a run-time generation (from `--arch` or a PCI device id) to a
//! call of code monomorphised for that generation's [`khal::Arch`] type.
//!
//! Every subcommand that depends on the arch is written once as an [`ArchVisitor`] (generic
//! over `A: Arch`) and reaches it through [`dispatch`]; nothing else in the tool matches on
//! an arch.
//!
//! TEMPORARY: `khal`'s own dispatch point (`khal::dispatch::<(Sunda, Cayman, Mariana), _>`)
//! is not on `main` yet, so the generation-to-type mapping lives here, in this one function.
//! The trait has the same shape as khal's `ArchVisitor`, so switching is a one-file change.

use khal::{Arch, Generation};
use khal_cayman::Cayman;
use khal_mariana::Mariana;
use khal_sunda::Sunda;

use crate::cli::ArchName;
use crate::error::Result;

/// Code to run for "the" arch, written once, generic over it.
pub trait ArchVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with `A` = the arch type of the dispatched generation.
    fn visit<A: Arch>(self) -> Self::Output;
}

/// Runs `v` monomorphised for the arch of generation `g`.
///
/// Returns a `Result` like khal's dispatch does (a build may leave generations out).
pub fn dispatch<V: ArchVisitor>(g: Generation, v: V) -> Result<V::Output> {
    Ok(match g {
        Generation::V2 => v.visit::<Sunda>(),
        Generation::V3 => v.visit::<Cayman>(),
        Generation::V4 => v.visit::<Mariana>(),
    })
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
