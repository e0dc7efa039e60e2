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

/// The directory with `libneuron_hal.{a,so}` of this build (the test binary sits in its
/// `deps/`).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let up = deps.parent().unwrap().to_path_buf();
    if up.join("libneuron_hal.so").is_file() {
        up
    } else {
        deps.to_path_buf()
    }
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
}

/// A C source of `tests/c/`.
pub fn c_source(name: &str) -> PathBuf {
    crate_dir().join("tests/c").join(name)
}

/// Links against `libneuron_hal.so` of this build (found at run time through rpath).
pub fn link_shared(c: &mut Command) {
    let dir = lib_dir();
    c.arg("-L").arg(&dir).arg("-lneuron_hal");
    c.arg(format!("-Wl,-rpath,{}", dir.display()));
}

/// Links against `libneuron_hal.a` of this build.
pub fn link_static(c: &mut Command) {
    c.arg(lib_dir().join("libneuron_hal.a")).args(STATIC_LIBS);
}
