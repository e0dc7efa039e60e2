//! `include/neuron_hal.h` is what cbindgen generates from this crate, and it compiles.
//!
//! * The checked-in header must equal a fresh generation (set `NEURON_HAL_BLESS=1` to
//!   rewrite it and `neuron_hal.pc` instead of failing).
//! * It compiles as C11 and as C++17 with every warning an error, with and without
//!   `NEURON_HAL_ARCH`, and an unknown arch is a compile error.
//! * The shared library exports exactly the header's functions, and has no constructor
//!   of its own.
//! * The README's C example is `examples/readme.c`, and it compiles and runs.

mod common;

use std::path::{Path, PathBuf};

use common::{Cc, crate_dir, lib_dir};

/// The generations: suffix, number, name.
const ARCHS: [(&str, u8, &str); 3] = [
    ("v2", 2, "V2 (SUNDA: trn1, inf2)"),
    ("v3", 3, "V3 (CAYMAN: trn2)"),
    ("v4", 4, "V4 (MARIANA: trn3)"),
];

/// The per-arch function names, in `src/per_arch.rs` order.
fn per_arch_names(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("#[unsafe(export_name = c_name!(\""))
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

/// `src/per_arch.rs` as cbindgen should see it for `suffix`: literal `#[no_mangle]`
/// functions named `<name>_<suffix>`; docs in full for the first generation, one line
/// pointing there for the others.
fn per_arch_source(src: &str, suffix: &str, what: &str, first: bool) -> String {
    let mut out = String::new();
    let mut docs: Vec<&str> = Vec::new();
    let mut pending: Option<String> = None;
    for line in src.lines() {
        let t = line.trim_start();
        if t.starts_with("///") {
            docs.push(line);
            continue;
        }
        if let Some(rest) = t.strip_prefix("#[unsafe(export_name = c_name!(\"") {
            let name = rest.split('"').next().unwrap().to_string();
            if first {
                for d in docs.drain(..) {
                    out.push_str(d);
                    out.push('\n');
                }
            } else {
                docs.clear();
                out.push_str(&format!(
                    "/// `{name}` for {what}: the contract of `{name}_{}`.\n",
                    ARCHS[0].0
                ));
            }
            out.push_str("#[unsafe(no_mangle)]\n");
            pending = Some(name);
            continue;
        }
        for d in docs.drain(..) {
            out.push_str(d);
            out.push('\n');
        }
        if let Some(name) = pending.take() {
            let from = format!("fn {name}(");
            assert!(line.contains(&from), "{line}");
            out.push_str(&line.replace(&from, &format!("fn {name}_{suffix}(")));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The version macros, from the crate's version.
fn version_macros() -> String {
    let (ma, mi, pa) = (
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    );
    format!(
        "\n/** Library version of this header (Cargo version {v}); compare with neuron_hal_version(). */\n\
         #define NEURON_HAL_VERSION_MAJOR {ma}\n\
         #define NEURON_HAL_VERSION_MINOR {mi}\n\
         #define NEURON_HAL_VERSION_PATCH {pa}\n\
         #define NEURON_HAL_VERSION_STRING \"{v}\"\n\
         #define NEURON_HAL_VERSION ((NEURON_HAL_VERSION_MAJOR << 16) | (NEURON_HAL_VERSION_MINOR << 8) | NEURON_HAL_VERSION_PATCH)\n\
         \n\
         /** Alignment of a ring slot (struct al_udma_desc). */\n\
         #if defined(__GNUC__) || defined(__clang__)\n\
         #define NEURON_HAL_ALIGNED(n) __attribute__((aligned(n)))\n\
         #elif defined(__cplusplus)\n\
         #define NEURON_HAL_ALIGNED(n) alignas(n)\n\
         #else\n\
         #error \"neuron_hal.h needs a compiler that can align a struct (GCC, Clang or C++11)\"\n\
         #endif\n",
        v = env!("CARGO_PKG_VERSION"),
    )
}

/// The `NEURON_HAL_ARCH` mapping: plain names to the chosen generation's symbols.
fn arch_mapping(names: &[String]) -> String {
    let mut s = String::from(
        "\n/*\n * Compile-time generation: define NEURON_HAL_ARCH to 2 (V2, SUNDA), 3 (V3, CAYMAN) or 4\n \
         * (V4, MARIANA) before including this header, and the plain names below call that\n \
         * generation's symbols (monomorphised code, no run-time dispatch). Without it, call the\n \
         * _v2/_v3/_v4 names directly (e.g. after neuron_hal_generation_from_pci_device_id).\n */\n\
         #if defined(NEURON_HAL_ARCH)\n\
         #if NEURON_HAL_ARCH != 2 && NEURON_HAL_ARCH != 3 && NEURON_HAL_ARCH != 4\n\
         #error \"NEURON_HAL_ARCH must be 2, 3 or 4\"\n\
         #endif\n\
         #define NEURON_HAL_SYM__(name, arch) name##_v##arch\n\
         #define NEURON_HAL_SYM_(name, arch) NEURON_HAL_SYM__(name, arch)\n\
         #define NEURON_HAL_SYM(name) NEURON_HAL_SYM_(name, NEURON_HAL_ARCH)\n",
    );
    for n in names {
        s.push_str(&format!("#define {n} NEURON_HAL_SYM({n})\n"));
    }
    s.push_str("#endif /* NEURON_HAL_ARCH */\n");
    s
}

/// The header as cbindgen generates it now.
fn generate() -> String {
    let dir = crate_dir();
    let src = std::fs::read_to_string(dir.join("src/per_arch.rs")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let mut config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).unwrap();
    config.header = Some(
        "/* neuron_hal.h: the C ABI of the neuron HAL (crate neuron-hal-capi).\n \
         * Generated by cbindgen from crates/capi; do not edit. Regenerate with\n \
         *   NEURON_HAL_BLESS=1 cargo test -p neuron-hal-capi --test header\n \
         * SPDX-License-Identifier: MIT OR Apache-2.0 */"
            .into(),
    );
    config.after_includes = Some(version_macros());
    config.trailer = Some(arch_mapping(&per_arch_names(&src)));
    let mut b = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"));
    for (i, (suffix, _, what)) in ARCHS.iter().enumerate() {
        let p = tmp.path().join(format!("per_arch_{suffix}.rs"));
        std::fs::write(&p, per_arch_source(&src, suffix, what, i == 0)).unwrap();
        b = b.with_src(p);
    }
    let mut out = Vec::new();
    b.generate().unwrap().write(&mut out);
    String::from_utf8(out).unwrap()
}

/// The pkg-config file, from the crate's version.
fn pkg_config() -> String {
    format!(
        "# pkg-config file of libneuron_hal (crate neuron-hal-capi); set prefix on install.\n\
         prefix=/usr/local\n\
         libdir=${{prefix}}/lib\n\
         includedir=${{prefix}}/include\n\
         \n\
         Name: neuron_hal\n\
         Description: {}\n\
         Version: {}\n\
         Libs: -L${{libdir}} -lneuron_hal\n\
         Libs.private: {}\n\
         Cflags: -I${{includedir}}\n",
        env!("CARGO_PKG_DESCRIPTION"),
        env!("CARGO_PKG_VERSION"),
        common::STATIC_LIBS.join(" "),
    )
}

fn check_or_bless(path: &Path, fresh: &str) {
    let bless = std::env::var_os("NEURON_HAL_BLESS").is_some();
    let old = std::fs::read_to_string(path).unwrap_or_default();
    if old == fresh {
        return;
    }
    if bless {
        std::fs::write(path, fresh).unwrap();
        println!("rewrote {}", path.display());
    } else {
        panic!(
            "{} is not what the crate generates; run NEURON_HAL_BLESS=1 cargo test -p \
             neuron-hal-capi --test header and commit the result",
            path.display()
        );
    }
}

#[test]
fn header_and_pkg_config_are_what_the_crate_generates() {
    let dir = crate_dir();
    check_or_bless(&dir.join("include/neuron_hal.h"), &generate());
    check_or_bless(&dir.join("neuron_hal.pc"), &pkg_config());
}

/// Every per-arch function is declared for each generation and mapped once.
#[test]
fn header_declares_three_symbol_sets_and_one_mapping() {
    let src = std::fs::read_to_string(crate_dir().join("src/per_arch.rs")).unwrap();
    let names = per_arch_names(&src);
    assert_eq!(names.len(), 19, "{names:?}");
    let h = std::fs::read_to_string(crate_dir().join("include/neuron_hal.h")).unwrap();
    for n in &names {
        for (suffix, _, _) in ARCHS {
            assert_eq!(
                h.matches(&format!(" {n}_{suffix}(")).count(),
                1,
                "{n}_{suffix}"
            );
        }
        assert_eq!(
            h.matches(&format!("#define {n} NEURON_HAL_SYM({n})"))
                .count(),
            1
        );
    }
}

fn compile_header_program(cc: &Cc, arch: Option<u8>, cpp: bool) -> std::process::Output {
    let tmp = tempfile::tempdir().unwrap();
    let ext = if cpp { "cpp" } else { "c" };
    let src = tmp.path().join(format!("t.{ext}"));
    // Uses one symbol of each kind so that an unused-declaration warning would show.
    std::fs::write(
        &src,
        "#include <neuron_hal.h>\n\
         int main(void) {\n\
         struct al_udma_desc d[2];\n\
         #if defined(NEURON_HAL_ARCH)\n\
         int rc = al_udma_m2m_build_copy_descriptor(&d[1], &d[0], 1, 1, 0x1000, 0x2000, 64, AL_UDMA_BARRIER_NONE, 0);\n\
         #else\n\
         int rc = al_udma_m2m_build_copy_descriptor_v3(&d[1], &d[0], 1, 1, 0x1000, 0x2000, 64, AL_UDMA_BARRIER_NONE, 0);\n\
         #endif\n\
         return rc != 0 || neuron_hal_version() != NEURON_HAL_VERSION || d[0].words[0] != 0x0d000040u;\n\
         }\n",
    )
    .unwrap();
    let exe = tmp.path().join("t");
    let mut c = cc.command(cpp);
    c.args(["-Wall", "-Wextra", "-Werror"])
        .arg(if cpp { "-std=c++17" } else { "-std=c11" })
        .arg("-I")
        .arg(crate_dir().join("include"));
    if let Some(a) = arch {
        c.arg(format!("-DNEURON_HAL_ARCH={a}"));
    }
    c.arg(&src).arg("-o").arg(&exe);
    common::link_shared(&mut c);
    let out = c.output().unwrap();
    if out.status.success() {
        let run = std::process::Command::new(&exe).output().unwrap();
        assert!(run.status.success(), "{src:?} ran with {:?}", run.status);
    }
    out
}

#[test]
fn header_compiles_as_c11_and_cpp17_for_every_arch() {
    let cc = Cc::find();
    for cpp in [false, true] {
        for arch in [None, Some(2), Some(3), Some(4)] {
            let out = compile_header_program(&cc, arch, cpp);
            assert!(
                out.status.success(),
                "cpp={cpp} arch={arch:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let out = compile_header_program(&cc, Some(5), false);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("NEURON_HAL_ARCH must be 2, 3 or 4"));
}

/// The header's function names, from its prototypes.
fn header_functions() -> Vec<String> {
    let h = std::fs::read_to_string(crate_dir().join("include/neuron_hal.h")).unwrap();
    let mut names = Vec::new();
    for line in h.lines() {
        let l = line.trim();
        if l.starts_with("#") || l.starts_with("*") || l.starts_with("/*") || !l.contains('(') {
            continue;
        }
        let before = l.split('(').next().unwrap();
        if let Some(name) = before.split_whitespace().last() {
            let name = name.trim_start_matches('*');
            if name.starts_with("al_")
                || name.starts_with("ndl_")
                || name.starts_with("neuron_hal_")
            {
                names.push(name.to_string());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_shared_library_exports_exactly_the_header_functions() {
    let so = lib_dir().join("libneuron_hal.so");
    let out = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut exported: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(String::from))
        .collect();
    exported.sort();
    let declared = header_functions();
    assert_eq!(exported, declared);
    // 19 per generation, 22 common (ndl_use_emulated_kernel included: the tests' libraries
    // are built with the `emulator` feature).
    assert_eq!(declared.len(), 3 * 19 + 22);
}

/// `ndl_use_emulated_kernel` exists only in a library built with the `emulator` feature, so
/// the header declares it only under `NEURON_HAL_EMULATOR`.
#[test]
fn the_emulator_entry_is_declared_only_under_its_macro() {
    let h = std::fs::read_to_string(crate_dir().join("include/neuron_hal.h")).unwrap();
    let decl = h.find("int ndl_use_emulated_kernel(").unwrap();
    let open = h[..decl].rfind("#if defined(NEURON_HAL_EMULATOR)").unwrap();
    let close = decl + h[decl..].find("#endif").unwrap();
    assert!(
        !h[open..decl].contains("#endif"),
        "opened and closed before"
    );
    assert!(!h[decl..close].contains("#if"), "closed by its own #endif");
    assert_eq!(h.matches("#if defined(NEURON_HAL_EMULATOR)").count(), 1);
}

#[test]
fn no_constructor_of_the_library_s_own() {
    // The only .init_array entries are the C runtime's `frame_dummy` and std's capture of
    // argv (glibc passes it to constructors); nothing of this crate runs at load time.
    let so = lib_dir().join("libneuron_hal.so");
    let out = std::process::Command::new("readelf")
        .args(["-W", "-S"])
        .arg(&so)
        .output()
        .unwrap();
    let sections = String::from_utf8_lossy(&out.stdout);
    let init = sections
        .lines()
        .find(|l| l.contains(".init_array"))
        .expect(".init_array");
    let size = init.split_whitespace().nth(5).expect("size column");
    assert_eq!(u64::from_str_radix(size, 16).unwrap(), 16, "{init}");
    let syms = std::process::Command::new("nm").arg(&so).output().unwrap();
    let syms = String::from_utf8_lossy(&syms.stdout);
    assert!(syms.contains("__frame_dummy_init_array_entry"));
    assert!(syms.contains("ARGV_INIT_ARRAY"));
    assert!(!sections.contains(".ctors"));
}

#[test]
fn readme_example_is_the_compiled_one() {
    let example = crate_dir().join("examples/readme.c");
    let text = std::fs::read_to_string(&example).unwrap();
    let readme: PathBuf = crate_dir()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("README.md");
    match std::fs::read_to_string(&readme) {
        Ok(r) => {
            let section = r
                .split("## Using it from C")
                .nth(1)
                .expect("README section");
            let block = section
                .split("```c\n")
                .nth(1)
                .unwrap()
                .split("```")
                .next()
                .unwrap();
            assert_eq!(
                block, text,
                "README's example differs from examples/readme.c"
            );
        }
        Err(_) => println!("SKIP README comparison: no README.md above the crate (packaged)"),
    }
    assert!(
        text.lines().count() <= 14,
        "the README example should stay about ten lines"
    );
    let cc = Cc::find();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("readme");
    let mut c = cc.command(false);
    c.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(&example)
        .arg("-o")
        .arg(&exe);
    common::link_shared(&mut c);
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = std::process::Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    // The worked example of the vendor notes: 64 KiB, ring pass 1 (TX word 0 0x0d000000).
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "rc 0, TX word 0 0d000000, RX word 0 01000000\n"
    );
}
