//! What a field's C type (ndl-abi's `FieldLayout::c_type`, the header's spelling) means to a
//! decoder: an integer and its signedness, a struct, a pointer and its pointee. Sizes come
//! from the layout (`FieldLayout::size`), never from here, except an array element's, which is
//! the C size of the element type (`linux/types.h`, LP64).

use ndl_abi::{Abi, StructLayout};

/// The kind of one C type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CType<'a> {
    /// An unsigned integer (`__uN`, `size_t`, `long unsigned int`, an enum, a typedef of one).
    Unsigned,
    /// A signed integer (`__sN`, `pid_t`, `int`, `long`).
    Signed,
    /// A struct, by tag (a typedef resolved; `(anonymous)` for a nested anonymous struct).
    Struct(&'a str),
    /// A pointer; the pointee's spelling.
    Pointer(&'a str),
    /// Implicit padding spelled out by ndl-abi (`-`).
    Padding,
}

fn strip_qualifiers(mut t: &str) -> &str {
    loop {
        let s = t.trim();
        if let Some(rest) = s
            .strip_prefix("const ")
            .or_else(|| s.strip_prefix("volatile "))
        {
            t = rest;
        } else {
            return s;
        }
    }
}

/// Classifies a C type spelling; `abi` resolves typedef names (`X_t` is `struct X` when the
/// release lays out a struct `X`, as `neuron_memcpy_batch_t` and `nrt_tensor_batch_op_t` are,
/// ioctl-README.md "Files"; other typedefs are integers).
pub fn classify<'a>(abi: &Abi, c_type: &'a str) -> CType<'a> {
    let t = strip_qualifiers(c_type);
    if t == "-" {
        return CType::Padding;
    }
    if let Some(pointee) = t.strip_suffix('*') {
        return CType::Pointer(strip_qualifiers(pointee));
    }
    if let Some(tag) = t.strip_prefix("struct ") {
        return CType::Struct(tag.trim());
    }
    if t.starts_with("__s") || matches!(t, "pid_t" | "int" | "long" | "long int" | "char") {
        return CType::Signed;
    }
    match t.strip_suffix("_t") {
        Some(tag) if abi.struct_layout(tag).is_some() => CType::Struct(tag),
        _ => CType::Unsigned,
    }
}

/// The C size of a scalar type, for array elements (`linux/types.h`; LP64 for `long`,
/// `size_t` and pointers). `None` for a type whose size this does not know: the array is
/// then shown as bytes.
pub fn scalar_size(c_type: &str) -> Option<usize> {
    let t = strip_qualifiers(c_type);
    if t.ends_with('*') {
        return Some(8);
    }
    if t.starts_with("enum ") {
        return Some(4);
    }
    Some(match t {
        "__u8" | "__s8" | "char" | "unsigned char" => 1,
        "__u16" | "__s16" => 2,
        "__u32" | "__s32" | "pid_t" | "int" | "unsigned int" => 4,
        "__u64" | "__s64" | "size_t" | "long" | "long int" | "long unsigned int" => 8,
        _ => return None,
    })
}

/// The layout of the struct a field of `owner` names by `tag` (`(anonymous)` resolves to
/// the nested struct ndl-abi names `OWNER.FIELD`).
pub fn struct_of(
    abi: &'static Abi,
    owner: &StructLayout,
    field: &str,
    tag: &str,
) -> Option<&'static StructLayout> {
    if tag == "(anonymous)" {
        let mut name = String::with_capacity(owner.c_name.len() + field.len() + 1);
        name.push_str(owner.c_name);
        name.push('.');
        name.push_str(field);
        abi.struct_layout(&name)
    } else {
        abi.struct_layout(tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_the_tables() {
        let abi = ndl_abi::Release::parse("2.30.2.0").unwrap().abi();
        let classify = |t| classify(abi, t);
        assert_eq!(classify("__u64"), CType::Unsigned);
        assert_eq!(classify("__s32"), CType::Signed);
        assert_eq!(classify("pid_t"), CType::Signed);
        assert_eq!(classify("volatile long unsigned int"), CType::Unsigned);
        assert_eq!(classify("enum neuron_dma_queue_type"), CType::Unsigned);
        assert_eq!(classify("nrt_tensor_batch_size_t"), CType::Unsigned);
        assert_eq!(classify("-"), CType::Padding);
        assert_eq!(
            classify("struct neuron_ioctl_dma_queue_init"),
            CType::Struct("neuron_ioctl_dma_queue_init")
        );
        assert_eq!(classify("void *"), CType::Pointer("void"));
        assert_eq!(
            classify("const nrt_tensor_batch_op_t *"),
            CType::Pointer("nrt_tensor_batch_op_t")
        );
        assert_eq!(
            classify("nrt_tensor_batch_op_t"),
            CType::Struct("nrt_tensor_batch_op")
        );
        assert_eq!(
            classify("neuron_memcpy_batch_t"),
            CType::Struct("neuron_memcpy_batch")
        );
        assert_eq!(scalar_size("__u8"), Some(1));
        assert_eq!(scalar_size("long unsigned int"), Some(8));
        assert_eq!(scalar_size("struct neuron_uuid"), None);
    }

    #[test]
    fn every_field_of_every_release_resolves() {
        // Every struct-typed field names a struct the same release lays out, and every array
        // of scalars has a known element size that divides the array: nothing decodes by guess.
        for release in ndl_abi::Release::ALL {
            let abi = release.abi();
            for s in abi.structs {
                for f in s.fields {
                    match classify(abi, f.c_type) {
                        CType::Struct(tag) => {
                            let inner = struct_of(abi, s, f.name, tag)
                                .unwrap_or_else(|| panic!("{release} {}.{}", s.c_name, f.name));
                            if f.size != 0 {
                                assert_eq!(f.size % inner.size, 0, "{}.{}", s.c_name, f.name);
                            }
                        }
                        CType::Unsigned | CType::Signed => {
                            let elem = scalar_size(f.c_type).unwrap_or(f.size);
                            assert!(
                                elem > 0 && f.size % elem == 0,
                                "{release} {}.{}: {} of {}",
                                s.c_name,
                                f.name,
                                f.size,
                                f.c_type
                            );
                        }
                        CType::Pointer(_) => assert_eq!(f.size, 8, "{}.{}", s.c_name, f.name),
                        CType::Padding => assert!(f.is_padding()),
                    }
                }
            }
        }
    }
}
