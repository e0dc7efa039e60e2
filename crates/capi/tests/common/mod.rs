//! Shared by the tests: where the crate and its built libraries are, and the C compiler.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// What a program linked against `libneuron_hal.a` needs besides it (Rust's std on
/// x86_64 Linux glibc, `rustc --print native-static-libs`).
pub const STATIC_LIBS: [&str; 7] = [
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// The crate's directory.
pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory with `libneuron_hal.{a,so}` of this build: the test binary's own `deps/`.
///
/// Not the profile directory above it: `cargo test --test NAME` rebuilds the staticlib and
/// cdylib in `deps/` but copies them up only on a full build, so the copies there can be
/// stale, and a C test linked against them would check code that no longer exists.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    assert!(
        deps.join("libneuron_hal.a").is_file() && deps.join("libneuron_hal.so").is_file(),
        "no libneuron_hal.{{a,so}} beside the test binary in {}",
        deps.display()
    );
    assert_test_build(&deps);
    deps
}

/// The libraries in `deps/` have no hash in their names, so a plain `cargo build` of the
/// crate (without the `emulator` feature the tests turn on) overwrites the ones the tests
/// built, and cargo, whose own record of the test build is still fresh, does not write
/// them again. Says so instead of letting a C test fail on a missing symbol.
fn assert_test_build(deps: &std::path::Path) {
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(deps.join("libneuron_hal.so"))
        .output()
        .expect("run nm");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(" ndl_use_emulated_kernel\n"),
        "{}/libneuron_hal.so was last written by a build without the tests' `emulator` \
         feature (e.g. `cargo build`); rebuild it for the tests: touch crates/capi/src/lib.rs \
         and run the tests again",
        deps.display()
    );
}

/// The system C and C++ compilers ($CC / $CXX, else gcc / g++).
pub struct Cc {
    c: String,
    cxx: String,
}

impl Cc {
    pub fn find() -> Self {
        Self {
            c: std::env::var("CC").unwrap_or_else(|_| "gcc".into()),
            cxx: std::env::var("CXX").unwrap_or_else(|_| "g++".into()),
        }
    }

    pub fn command(&self, cpp: bool) -> Command {
        Command::new(if cpp { &self.cxx } else { &self.c })
    }

    /// Compiles `sources` (paths below `tests/c/` or absolute) with `-O2 -std=c11 -Wall
    /// -Wextra -Werror`, `NEURON_HAL_ARCH=arch` if given, linked against the shared
    /// library (or the static one), into `exe`; panics with the compiler's output on error.
    pub fn build(
        &self,
        exe: &std::path::Path,
        sources: &[PathBuf],
        arch: Option<u8>,
        static_link: bool,
    ) {
        let mut c = self.command(false);
        c.args(["-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(crate_dir().join("include"))
            .arg("-I")
            .arg(crate_dir().join("tests/c"));
        if let Some(a) = arch {
            c.arg(format!("-DNEURON_HAL_ARCH={a}"));
        }
        c.args(sources).arg("-o").arg(exe);
        if static_link {
            link_static(&mut c);
        } else {
            link_shared(&mut c);
        }
        let out = c.output().expect("run the C compiler");
        assert!(
            out.status.success(),
            "{c:?}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Builds `tests/c/<source>` for `arch` against the shared library in a fresh
    /// directory, runs it with `args` and returns its stdout ([`run_c`]).
    pub fn run(&self, source: &str, arch: u8, args: &[String]) -> String {
        let tmp = tempfile::tempdir().unwrap();
        let exe = tmp.path().join(source.trim_end_matches(".c"));
        self.build(&exe, &[c_source(source)], Some(arch), false);
        run_c(&exe, args, &format!("{source} for V{arch}"))
    }
}

/// A C source of `tests/c/`.
pub fn c_source(name: &str) -> PathBuf {
    crate_dir().join("tests/c").join(name)
}

/// Links against `libneuron_hal.so` of this build, found at run time through DT_RPATH.
///
/// Not DT_RUNPATH (the linker's default): the loader searches LD_LIBRARY_PATH before
/// RUNPATH, and cargo runs tests with LD_LIBRARY_PATH naming `target/<profile>/` too, whose
/// uplifted copy of the library may be another build's (a plain `cargo build`), so the
/// program would run code other than the one this test built. RPATH comes first.
pub fn link_shared(c: &mut Command) {
    let dir = lib_dir();
    c.arg("-L").arg(&dir).arg("-lneuron_hal");
    c.arg(format!("-Wl,--disable-new-dtags,-rpath,{}", dir.display()));
}

/// Links against `libneuron_hal.a` of this build.
pub fn link_static(c: &mut Command) {
    c.arg(lib_dir().join("libneuron_hal.a")).args(STATIC_LIBS);
}

/// Runs the C test program `exe` with `args`; asserts that it exited 0 (naming `what`, its
/// status, what it printed and its stderr) and returns its stdout.
pub fn run_c<I, S>(exe: &std::path::Path, args: I, what: &str) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(exe).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what}: {:?}\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The register the C programs read the UDMA revision from (`m2s_feature.dma_version`), the
/// offset they are given on their command line.
pub fn revision_offset() -> usize {
    khal::regs::unit::M2S_BASE + <khal::regs::m2s::DmaVersion as mmio::Register>::OFFSET
}

/// A recording register block's accesses as `R|W offset value` lines (hex), the form the C
/// programs print theirs in; asserts that the recorder lost none.
pub fn trace_text<const R: usize, const T: usize>(regs: &mmio::FakeRegs<R, T>) -> String {
    assert_eq!(regs.lost(), 0);
    regs.trace()
        .iter()
        .map(|a| match *a {
            mmio::Access::Read { offset, value } => format!("R {offset:x} {value:x}\n"),
            mmio::Access::Write { offset, value } => format!("W {offset:x} {value:x}\n"),
        })
        .collect()
}
