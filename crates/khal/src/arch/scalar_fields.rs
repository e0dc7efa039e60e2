//! A structured listing of [`Scalars`](super::Scalars): every field as a (name, value) pair,
//! so that tools print and tests compare by name instead of parsing `Debug` text.
//!
//! The struct and its listing are one declaration: [`scalars!`] takes the field list once,
//! each field with how it prints, and generates the struct, `FIELD_COUNT` and `fields()`.

use core::fmt;

use super::VersionWindow;

/// One scalar's value, with how it prints (addresses, sizes and masks in hex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarValue {
    /// A count, id or time, printed in decimal.
    Dec(u64),
    /// An address, size, stride or mask, printed in hex.
    Hex(u64),
    /// A flag.
    Bool(bool),
    /// An optional count (`-` when absent).
    OptDec(Option<u64>),
    /// A list of addresses.
    HexList(&'static [u64]),
    /// A list of 16-bit ids.
    DecList16(&'static [u16]),
    /// A list of 8-bit ids.
    DecList8(&'static [u8]),
    /// The five mailbox words.
    HexWords([u64; 5]),
    /// A version window.
    Window(VersionWindow),
    /// Neighbour engine pairs (`-` when absent).
    EnginePairs(Option<[[u16; 2]; 2]>),
}

/// One named scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScalarField {
    /// The [`Scalars`](super::Scalars) field name.
    pub name: &'static str,
    /// Its value.
    pub value: ScalarValue,
}

fn list<T: fmt::Display + fmt::LowerHex>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    hex: bool,
) -> fmt::Result {
    f.write_str("[")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        if hex {
            write!(f, "{x:#x}")?;
        } else {
            write!(f, "{x}")?;
        }
    }
    f.write_str("]")
}

impl fmt::Display for ScalarValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScalarValue::Dec(v) => write!(f, "{v}"),
            ScalarValue::Hex(v) => write!(f, "{v:#x}"),
            ScalarValue::Bool(b) => write!(f, "{b}"),
            ScalarValue::OptDec(Some(v)) => write!(f, "{v}"),
            ScalarValue::OptDec(None) | ScalarValue::EnginePairs(None) => f.write_str("-"),
            ScalarValue::HexList(l) => list(f, l, true),
            ScalarValue::DecList16(l) => list(f, l, false),
            ScalarValue::DecList8(l) => list(f, l, false),
            ScalarValue::HexWords(w) => list(f, &w, true),
            ScalarValue::Window(w) => write!(f, "{}..={}", w.min, w.max),
            ScalarValue::EnginePairs(Some([[a, b], [c, d]])) => {
                write!(f, "[[{a}, {b}], [{c}, {d}]]")
            }
        }
    }
}

/// Declares the scalars struct and its listing from one field list.
///
/// ```text
/// scalars! {
///     /// doc
///     #[derive(...)]
///     pub struct Scalars {
///         /// doc
///         pub field: Type => Kind,   // Kind: a ScalarValue variant (how the value prints)
///     }
/// }
/// ```
/// Generates the struct as written, `Scalars::FIELD_COUNT` and `Scalars::fields()` (every
/// field in declaration order as a [`ScalarField`]).
macro_rules! scalars {
    (
        $(#[$m:meta])*
        pub struct $S:ident {
            $( $(#[$fm:meta])* pub $f:ident : $t:ty => $kind:ident, )*
        }
    ) => {
        $(#[$m])*
        pub struct $S {
            $( $(#[$fm])* pub $f: $t, )*
        }

        impl $S {
            /// Number of fields.
            pub const FIELD_COUNT: usize = [$(stringify!($f)),*].len();

            /// Every field, in declaration order.
            #[allow(clippy::cast_lossless, clippy::unnecessary_cast)]
            pub const fn fields(&self) -> [$crate::ScalarField; Self::FIELD_COUNT] {
                [$(
                    $crate::ScalarField {
                        name: stringify!($f),
                        value: scalar_value!($kind, self.$f),
                    },
                )*]
            }

            /// The field called `name`.
            pub fn field(&self, name: &str) -> Option<$crate::ScalarValue> {
                self.fields()
                    .into_iter()
                    .find(|f| f.name == name)
                    .map(|f| f.value)
            }
        }
    };
}

/// A field's [`ScalarValue`] for its print kind (integers widen to `u64`).
macro_rules! scalar_value {
    (Dec, $v:expr) => {
        $crate::ScalarValue::Dec($v as u64)
    };
    (Hex, $v:expr) => {
        $crate::ScalarValue::Hex($v as u64)
    };
    (OptDec, $v:expr) => {
        $crate::ScalarValue::OptDec(match $v {
            Some(x) => Some(x as u64),
            None => None,
        })
    };
    ($kind:ident, $v:expr) => {
        $crate::ScalarValue::$kind($v)
    };
}
