//! The `register!` declaration macro (nova-core style, on top of `mmio::Register`).

/// One zero-sized register marker and its `mmio::Register` impl (shared by `register!` and
/// `seed_register!`).
macro_rules! marker {
    ($(#[$meta:meta])* $vis:vis $name:ident : $value:ty = $tname:literal @ $off:literal) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;

        impl mmio::Register for $name {
            const OFFSET: usize = $off;
            const NAME: &'static str = $tname;
            type Value = $value;
        }
    };
}

/// The inherent `ABS` constant of a marker (shared by `register!` and `seed_register!`).
macro_rules! abs_const {
    ($name:ident = $base:path, $off:literal) => {
        impl $name {
            /// Offset of this register from the start of the UDMA unit.
            pub const ABS: usize = $base + $off;
        }
    };
}

/// Declares zero-sized register markers and checks them against the reference table.
///
/// ```text
/// register! { "m2s" in crate::regs::unit::M2S_BASE;
///     /// doc
///     pub ChangeState: ChangeStateCmd = "m2s.change_state" @ 0x0204;
/// }
/// ```
/// For each entry: a `pub struct` marker, an `mmio::Register` impl (offset inside the block,
/// table name, value type), an inherent `ABS` constant (offset from the unit base), and two
/// `const` assertions that the table row `(block, name)` has exactly that offset and absolute
/// offset. Omit `in BASE` for blocks whose rows have no single absolute offset.
macro_rules! register {
    ($block:literal in $base:path; $(
        $(#[$meta:meta])*
        $vis:vis $name:ident : $value:ty = $tname:literal @ $off:literal;
    )*) => {
        register! { $block; $($(#[$meta])* $vis $name: $value = $tname @ $off;)* }
        $(
            abs_const! { $name = $base, $off }

            const _: () = assert!(
                $crate::table::abs_is($block, $tname, $base + $off),
                concat!("abs offset of ", $block, " ", $tname, " disagrees with udma-registers.tsv")
            );
        )*
    };
    ($block:literal; $(
        $(#[$meta:meta])*
        $vis:vis $name:ident : $value:ty = $tname:literal @ $off:literal;
    )*) => {$(
        marker! { $(#[$meta])* $vis $name: $value = $tname @ $off }

        const _: () = assert!(
            $crate::table::offset_is($block, $tname, $off),
            concat!("offset of ", $block, " ", $tname, " disagrees with udma-registers.tsv")
        );
    )*};
}

/// Declares zero-sized register markers for registers a **seed** names with an offset that
/// the reference table (driver 2.26.5.0) does not list.
///
/// ```text
/// seed_register! { "s2m";
///     /// doc, citing the seed file, section and function
///     pub NoDescCfgReg: NoDescCfg = "s2m.no_desc_cfg" @ 0x0344;
/// }
/// ```
/// Same marker shape as `register!`, plus a `const` assertion that no row of the block in
/// `udma-registers.tsv` sits at that offset (a seed fact must not silently shadow a
/// reference register). The name is this crate's, since neither source names the register.
/// With `in BASE` (as `register!`), an inherent `ABS` constant too.
macro_rules! seed_register {
    ($block:literal in $base:path; $(
        $(#[$meta:meta])*
        $vis:vis $name:ident : $value:ty = $tname:literal @ $off:literal;
    )*) => {
        seed_register! { $block; $($(#[$meta])* $vis $name: $value = $tname @ $off;)* }
        $(abs_const! { $name = $base, $off })*
    };
    ($block:literal; $(
        $(#[$meta:meta])*
        $vis:vis $name:ident : $value:ty = $tname:literal @ $off:literal;
    )*) => {$(
        marker! { $(#[$meta])* $vis $name: $value = $tname @ $off }

        const _: () = assert!(
            $crate::table::no_row_at($block, $off),
            concat!("seed register ", $tname, " collides with a udma-registers.tsv row")
        );
    )*};
}
