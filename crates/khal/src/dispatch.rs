//! The one dispatch point: a run-time [`Generation`] to a call of code monomorphised for
//! that generation's [`Arch`] type.
//!
//! `khal` cannot name the arch types (their crates depend on it), so the dispatch is generic
//! over an [`ArchSet`]: a tuple of arch types chosen by the crate that owns the binary. A
//! runtime that supports one generation uses `(Cayman,)` and links nothing else; the
//! emulator, `ndl-std` and `neuron-tool` use `(Sunda, Cayman, Mariana)`:
//!
//! ```
//! use khal::{Arch, ArchVisitor, Generation, dispatch};
//! use khal_cayman::Cayman;
//! use khal_mariana::Mariana;
//! use khal_sunda::Sunda;
//!
//! /// Written once; the compiler makes one copy per arch with the constant folded in.
//! struct HbmBytes;
//! impl ArchVisitor for HbmBytes {
//!     type Output = u64;
//!     fn visit<A: Arch>(self) -> u64 {
//!         A::SCALARS.hbm_active_size * u64::from(A::SCALARS.dram_channels)
//!     }
//! }
//!
//! type Supported = (Sunda, Cayman, Mariana);
//! assert_eq!(dispatch::<Supported, _>(Generation::V4, HbmBytes), Ok(4 * (36 << 30)));
//! // A trn2-only runtime links only Cayman:
//! assert!(dispatch::<(Cayman,), _>(Generation::V2, HbmBytes).is_err());
//! ```

use core::fmt;

use crate::{Arch, ArchLatch, Generation};

/// Code to run for "the" arch, written once, generic over it.
pub trait ArchVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with `A` = the arch type of the dispatched generation.
    fn visit<A: Arch>(self) -> Self::Output;
}

/// The dispatched generation is not in the set the binary was built with (or nothing is
/// latched yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DispatchError {
    /// No arch of the set has this generation.
    Unsupported(Generation),
    /// The latch holds no generation yet.
    Unbound,
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DispatchError::Unsupported(g) => write!(f, "{g} is not supported by this build"),
            DispatchError::Unbound => f.write_str("no device generation latched yet"),
        }
    }
}

impl core::error::Error for DispatchError {}

/// A set of arch types a binary supports: tuples `(A,)`, `(A, B)`, `(A, B, C)`.
pub trait ArchSet {
    /// The generations in the set, in order.
    const GENERATIONS: &'static [Generation];
    /// Calls `v.visit::<A>()` for the member `A` whose generation is `g`.
    fn dispatch<V: ArchVisitor>(g: Generation, v: V) -> Result<V::Output, DispatchError>;
}

const fn distinct(gs: &[Generation]) -> bool {
    let mut rest = gs;
    while let Some((g, tail)) = rest.split_first() {
        let mut others = tail;
        while let Some((o, t)) = others.split_first() {
            if *g as u8 == *o as u8 {
                return false;
            }
            others = t;
        }
        rest = tail;
    }
    true
}

macro_rules! arch_set_tuple {
    ($($a:ident),+) => {
        impl<$($a: Arch),+> ArchSet for ($($a,)+) {
            const GENERATIONS: &'static [Generation] = {
                const fn check(gs: &'static [Generation]) -> &'static [Generation] {
                    assert!(distinct(gs), "an ArchSet lists one generation twice");
                    gs
                }
                check(&[$($a::GENERATION),+])
            };
            #[inline]
            fn dispatch<V: ArchVisitor>(g: Generation, v: V) -> Result<V::Output, DispatchError> {
                let _ = Self::GENERATIONS; // forces the distinctness check
                $(if g == $a::GENERATION {
                    return Ok(v.visit::<$a>());
                })+
                Err(DispatchError::Unsupported(g))
            }
        }
    };
}

arch_set_tuple!(A);
arch_set_tuple!(A, B);
arch_set_tuple!(A, B, C);

/// THE dispatch point: runs `v` monomorphised for the arch of generation `g` in set `S`.
#[inline]
pub fn dispatch<S: ArchSet, V: ArchVisitor>(
    g: Generation,
    v: V,
) -> Result<V::Output, DispatchError> {
    S::dispatch(g, v)
}

/// [`dispatch`] on the generation held by `latch`.
pub fn dispatch_latched<S: ArchSet, V: ArchVisitor>(
    latch: &ArchLatch,
    v: V,
) -> Result<V::Output, DispatchError> {
    let g = latch.get().ok_or(DispatchError::Unbound)?;
    S::dispatch(g, v)
}
