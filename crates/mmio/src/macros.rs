//! `register!`: registers, their typed fields, their names and their blocks, declared once.

/// Declares register blocks and the registers in them.
///
/// One declaration per fact, in the style of nova-core's `register!`: each register's offset,
/// its value type (or, inline, its typed fields) and its name; each block's name and place.
/// The block lists itself ([`RegisterBlock::REGISTERS`](crate::RegisterBlock)), so a register
/// map is produced by the declarations, never kept beside them.
///
/// ```text
/// register! {
///     /// doc
///     pub block NAME = "table name" [@ BASE [[COUNT x STRIDE]]] [: INCLUDED, ...] {
///         /// doc
///         pub Reg: ValueType = "name" @ OFFSET [, aliases { "block" => "name", .. }] [, source "…"];
///         /// doc
///         pub Reg: /** value doc */ struct Value { bitfield-struct fields } = "name" @ OFFSET;
///         /// doc
///         pub Win: [KIND; COUNT x STRIDE] = "name" @ OFFSET;
///     }
/// }
/// ```
///
/// * **Block**: a zero-sized type implementing [`RegisterBlock`](crate::RegisterBlock) and
///   `Contains<Self>`. With `@ BASE` it is [`Placed`](crate::Placed) at `BASE` in the window
///   that holds it; with `[COUNT x STRIDE]` it is an array addressed by index
///   (`Block::base(i)`, `Block::locate(offset)`) and also gets `ROWS_IN_PARENT`: its
///   registers as the window above lists them (`"name[0].reg"` at `BASE + offset`). `BASE`,
///   `COUNT` and `STRIDE` are single tokens: a literal, a constant, or a parenthesised
///   expression. Each block after `:` is included: its registers are present here too
///   (`Contains`), listed under their alias for this block's name.
/// * **Register**: a zero-sized marker implementing [`Register`](crate::Register) with
///   `Block` = the block. In a single placed block it also gets `ABS`, its offset from the
///   start of the window holding the block. The inline form declares the value type with
///   `bitfield-struct` (`#[bitfield(u32)]`, plus `PartialEq, Eq, Hash`). `source` names where
///   the fact comes from when it is not the block's reference ([`RegisterInfo::source`]).
/// * **Window**: a sub-block of kind `KIND` (declared elsewhere) starting at `OFFSET`: a
///   zero-sized type that is `Placed` there and `Contains<KIND>`; it is listed as one row.
///
/// [`RegisterInfo::source`]: crate::RegisterInfo::source
///
/// ```
/// use mmio::{FakeRegs, MmioExt, Placed, Register, RegisterBlock};
///
/// mmio::register! {
///     /// Registers every queue block has.
///     pub block Rings = "rings" {
///         /// Tail increment (the doorbell).
///         pub TailInc: u32 = "tail_inc" @ 0x38, aliases { "txq" => "t_tail_inc" };
///     }
///     /// TX queue `q`'s block: 16 of them, 0x1000 apart, from 0x1000.
///     pub block TxQueue = "txq" @ 0x1000 [16 x 0x1000]: Rings {
///         /// Queue software control.
///         pub SwCtrl: struct SwCtrlWord {
///             #[bits(8)]
///             __: u8,
///             /// Reset the queue's pointers.
///             pub rst_q: bool,
///             #[bits(23)]
///             __: u32,
///         } = "q_sw_ctrl" @ 0xb0;
///     }
/// }
///
/// assert_eq!(TxQueue::base(3), Some(0x4000));
/// assert_eq!(TxQueue::locate(0x4038), Some((3, 0x38)));
/// let names: Vec<_> = TxQueue::REGISTERS.iter().map(|r| (r.name, r.offset)).collect();
/// assert_eq!(names, [("q_sw_ctrl", 0xb0), ("t_tail_inc", 0x38)]);
///
/// let regs: FakeRegs<4, 4> = FakeRegs::new();
/// let q3 = regs.block::<TxQueue>(3).unwrap();
/// q3.write::<TailInc>(2); // a register of an included block
/// q3.write::<SwCtrl>(SwCtrlWord::new().with_rst_q(true));
/// assert_eq!(regs.writes(), [(0x4038, 2), (0x40b0, 0x100)]);
/// assert!(regs.block::<TxQueue>(16).is_none());
/// ```
#[macro_export]
macro_rules! register {
    () => {};
    (
        $(#[$bm:meta])*
        $bvis:vis block $B:ident = $bname:literal
            $(@ $base:tt $([$count:tt x $stride:tt])?)?
            $(: $($inc:path),+ )?
        { $($body:tt)* }
        $($rest:tt)*
    ) => {
        $(#[$bm])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $bvis struct $B;

        impl $crate::Contains<$B> for $B {}
        $($(impl $crate::Contains<$inc> for $B {})+)?

        $(
            impl $crate::Placed for $B {
                const BASE: usize = $base;
                const COUNT: usize = $crate::__register_or!($($count)?, 1);
                const STRIDE: usize = $crate::__register_or!($($stride)?, 0);
            }

            impl $B {
                /// Offset of block `index` from the start of the window that holds it
                /// (`None` past the last block).
                pub const fn base(index: usize) -> Option<usize> {
                    $crate::block_base::<Self>(index)
                }

                /// `(index, offset inside the block)` of an offset from the start of the
                /// window that holds the blocks (`None` outside them).
                pub const fn locate(offset: usize) -> Option<(usize, usize)> {
                    $crate::locate::<Self>(offset)
                }
            }
        )?

        $crate::__register_entries! {
            [$B $bname ($($base $($count)?)?) ($($($inc),+)?)] [] [] $($body)*
        }

        $crate::register! { $($rest)* }
    };
}

/// `$a` if given, else `$b` (internal to [`register!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __register_or {
    (, $b:expr) => {
        $b
    };
    ($a:tt, $b:expr) => {
        $a
    };
}

/// The entries of one block (internal to [`register!`]): a muncher that emits each marker
/// and collects the block's rows (`[own rows]`) and, for an array, its rows as the window
/// above lists them (`[parent rows]`).
#[doc(hidden)]
#[macro_export]
macro_rules! __register_entries {
    // Done: the block's list.
    ([$B:ident $bname:literal $place:tt ($($inc:path),*)] [$($rows:expr,)*] [$($prows:expr,)*]) => {
        impl $crate::RegisterBlock for $B {
            const NAME: &'static str = $bname;
            const REGISTERS: &'static [$crate::RegisterInfo] = {
                const PARTS: &[&[$crate::RegisterInfo]] = &[
                    &[$($rows,)*],
                    $(<$inc as $crate::RegisterBlock>::REGISTERS,)*
                ];
                const N: usize = $crate::count_rows(PARTS);
                const ALL: [$crate::RegisterInfo; N] = $crate::join_rows::<N>(PARTS, $bname);
                &ALL
            };
        }
        $crate::__register_parent_rows! { $B $place [$($prows,)*] }
    };

    // A register whose value type is declared inline.
    (
        $ctx:tt [$($rows:tt)*] [$($prows:tt)*]
        $(#[$m:meta])*
        $vis:vis $R:ident : $(#[$vm:meta])* struct $V:ident { $($fields:tt)* }
            = $name:literal @ $off:expr
            $(, aliases { $($ab:literal => $an:literal),* $(,)? })?
            $(, source $src:literal)? ;
        $($rest:tt)*
    ) => {
        #[$crate::__bitfield(u32)]
        #[derive(PartialEq, Eq, Hash)]
        $(#[$vm])*
        $vis struct $V { $($fields)* }

        $crate::__register_entries! {
            $ctx [$($rows)*] [$($prows)*]
            $(#[$m])*
            $vis $R: $V = $name @ $off
                $(, aliases { $($ab => $an),* })?
                $(, source $src)? ;
            $($rest)*
        }
    };

    // A window: the start of a sub-block of another kind.
    (
        [$B:ident $bname:literal $place:tt $incs:tt] [$($rows:tt)*] [$($prows:tt)*]
        $(#[$m:meta])*
        $vis:vis $W:ident : [$K:path; $count:tt x $stride:tt] = $name:literal @ $off:expr ;
        $($rest:tt)*
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $W;

        impl $crate::RegisterBlock for $W {
            const NAME: &'static str = $name;
            const REGISTERS: &'static [$crate::RegisterInfo] =
                <$K as $crate::RegisterBlock>::REGISTERS;
        }
        impl $crate::Contains<$W> for $W {}
        impl $crate::Contains<$K> for $W {}
        impl $crate::Placed for $W {
            const BASE: usize = $off;
            const COUNT: usize = $count;
            const STRIDE: usize = $stride;
        }
        impl $W {
            /// Offset of window `index` from the start of the block that holds it.
            pub const fn base(index: usize) -> Option<usize> {
                $crate::block_base::<Self>(index)
            }
        }

        $crate::__register_entries! {
            [$B $bname $place $incs]
            [$($rows)* $crate::RegisterInfo::register($name, $off)
                .with_window(<$K as $crate::RegisterBlock>::NAME),]
            [$($prows)*]
            $($rest)*
        }
    };

    // A register.
    (
        [$B:ident $bname:literal $place:tt $incs:tt] [$($rows:tt)*] [$($prows:tt)*]
        $(#[$m:meta])*
        $vis:vis $R:ident : $V:ty = $name:literal @ $off:expr
            $(, aliases { $($ab:literal => $an:literal),* $(,)? })?
            $(, source $src:literal)? ;
        $($rest:tt)*
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        $vis struct $R;

        impl $crate::Register for $R {
            const OFFSET: usize = $off;
            const NAME: &'static str = $name;
            type Value = $V;
            type Block = $B;
        }
        $crate::__register_abs! { $B $place $R $off }

        $crate::__register_entries! {
            [$B $bname $place $incs]
            [$($rows)* $crate::RegisterInfo::register($name, $off)
                $(.with_aliases(&[$(($ab, $an)),*]))?
                $(.with_source($src))?,]
            [$($prows)* $crate::RegisterInfo::register(
                concat!($bname, "[0].", $name),
                $crate::__register_parent_offset!($place, $off),
            ),]
            $($rest)*
        }
    };
}

/// `ABS` for a register of a single placed block (internal to [`register!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __register_abs {
    ($B:ident ($base:tt) $R:ident $off:expr) => {
        impl $R {
            /// Offset from the start of the window that holds this register's block (for a
            /// block placed in a unit: from the unit base).
            pub const ABS: usize = <$B as $crate::Placed>::BASE + $off;
        }
    };
    ($B:ident $place:tt $R:ident $off:expr) => {};
}

/// A row's offset in the window above an array block (internal to [`register!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __register_parent_offset {
    (($base:tt $count:tt), $off:expr) => {
        $base + $off
    };
    ($place:tt, $off:expr) => {
        $off
    };
}

/// `ROWS_IN_PARENT` of an array block (internal to [`register!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __register_parent_rows {
    ($B:ident ($base:tt $count:tt) [$($prows:expr,)*]) => {
        impl $B {
            /// The block's registers as the window above lists them: block 0's, named
            /// `"block[0].register"`, at their offset from the start of that window.
            pub const ROWS_IN_PARENT: &'static [$crate::RegisterInfo] = &[$($prows,)*];
        }
    };
    ($B:ident $place:tt [$($prows:expr,)*]) => {};
}

#[cfg(test)]
mod tests {
    use self::decl::*;
    use crate::{FakeRegs, MmioExt, Placed, Register, RegisterBlock, RegisterInfo};

    mod decl {
        #![allow(dead_code)]
        crate::register! {
            /// A group window kind.
            pub block Group = "grp" {
                /// Cause.
                pub Cause: u32 = "cause" @ 0x0;
            }
            /// A single block placed at 0x2000.
            pub block Engine = "eng" @ 0x2000 {
                /// State.
                pub State: u32 = "eng.state" @ 0x200;
                /// A register only a secondary source names.
                pub Extra: u32 = "eng.extra" @ 0x344, source "seed";
                /// Two group windows 0x40 apart.
                pub Groups: [Group; 2 x 0x40] = "groups" @ 0x1000;
            }
            /// An array inside `Engine`.
            pub block Sel = "sel" @ 0x400 [4 x 0x40] {
                /// TX selector.
                pub TxSel: u32 = "tx_sel" @ 0x0;
                /// RX selector.
                pub RxSel: u32 = "rx_sel" @ 0x4;
            }
        }
    }

    #[test]
    fn single_blocks_have_abs_and_list_windows_and_sources() {
        assert_eq!((State::ABS, <State as Register>::OFFSET), (0x2200, 0x200));
        assert_eq!(Engine::REGISTERS.len(), 3);
        assert_eq!(
            Engine::REGISTERS[1],
            RegisterInfo::register("eng.extra", 0x344).with_source("seed")
        );
        assert_eq!(
            Engine::REGISTERS[2],
            RegisterInfo::register("groups", 0x1000).with_window("grp")
        );
        assert_eq!(
            (Groups::BASE, Groups::COUNT, Groups::STRIDE),
            (0x1000, 2, 0x40)
        );
        assert_eq!(Groups::REGISTERS, Group::REGISTERS);
        assert_eq!((Engine::COUNT, Engine::STRIDE), (1, 0));
        assert_eq!(
            Engine::locate(0x2000),
            None,
            "a single block has no declared size"
        );
    }

    #[test]
    fn arrays_locate_and_list_their_rows_in_the_parent() {
        assert_eq!(Sel::base(3), Some(0x4c0));
        assert_eq!(Sel::base(4), None);
        assert_eq!(Sel::locate(0x3ff), None);
        assert_eq!(Sel::locate(0x4c4), Some((3, 4)));
        assert_eq!(Sel::locate(0x500), None);
        let [tx, rx] = Sel::ROWS_IN_PARENT else {
            panic!("two rows: {:?}", Sel::ROWS_IN_PARENT);
        };
        assert_eq!((tx.name, tx.offset), ("sel[0].tx_sel", 0x400));
        assert_eq!((rx.name, rx.offset), ("sel[0].rx_sel", 0x404));
    }

    #[test]
    fn windows_give_typed_access_to_their_kind() {
        let regs: FakeRegs<4, 4> = FakeRegs::new();
        let engine = regs.block::<Engine>(0).unwrap();
        engine.window(Groups::base(1).unwrap()).write::<Cause>(5);
        let g = engine.block::<Groups>(1).unwrap();
        assert_eq!(g.read::<Cause>(), 5);
        assert_eq!(g.modify::<Cause>(|v| v | 2), 7);
        assert_eq!(regs.peek(0x3040), 7);
        assert!(engine.block::<Groups>(2).is_none());
    }

    #[test]
    fn names_compare_in_const_fns() {
        assert!(crate::str_eq("m2s_q", "m2s_q"));
        assert!(!crate::str_eq("m2s_q", "s2m_q"));
        assert!(!crate::str_eq("m2s", "m2s_q"));
        const R: RegisterInfo =
            RegisterInfo::register("drl", 0x30).with_aliases(&[("m2s_q", "tdrl")]);
        assert_eq!((R.name_in("m2s_q"), R.name_in("s2m_q")), ("tdrl", "drl"));
    }
}
