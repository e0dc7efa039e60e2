//! One test per generation from one generic function: the test double every crate that
//! tests against the model shares (`test-utils` only, not public API).

/// The three arch types the tests run on (V2, V3, V4), named for [`for_each_arch!`].
pub use khal_cayman::Cayman;
pub use khal_mariana::Mariana;
pub use khal_sunda::Sunda;

/// For each generic `fn name<A: Arch>()`, a module `name` with one `#[test]` per
/// generation: `v2_sunda`, `v3_cayman` and `v4_mariana`.
#[macro_export]
macro_rules! for_each_arch {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            #[test]
            fn v2_sunda() {
                super::$name::<$crate::per_arch_tests::Sunda>();
            }
            #[test]
            fn v3_cayman() {
                super::$name::<$crate::per_arch_tests::Cayman>();
            }
            #[test]
            fn v4_mariana() {
                super::$name::<$crate::per_arch_tests::Mariana>();
            }
        }
    )+};
}
