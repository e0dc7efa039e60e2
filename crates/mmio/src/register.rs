//! Typed registers: an offset and a value type, known at compile time.

/// A register at a fixed byte offset inside its block, with a typed value.
///
/// Implemented by zero-sized marker types (one per register), in the style of nova-core's
/// `register!`: the value type is usually a `bitfield-struct` word, which converts to and
/// from `u32` losslessly.
pub trait Register {
    /// Byte offset inside the block that holds the register.
    const OFFSET: usize;
    /// Name as in the reference tables (for register maps and traces).
    const NAME: &'static str;
    /// The typed value.
    type Value: Copy + From<u32> + Into<u32>;
}
