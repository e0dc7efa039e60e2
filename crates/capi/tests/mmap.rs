//! The NDL's mmap pairing from C, per generation, over the emulated driver in the C process
//! (`ndl_use_emulated_kernel`; a FUSE-served node cannot be mapped shared at all, which
//! `driver_copy.rs` checks). `tests/c/mmap.c` maps its own host and device chunks and checks
//! their bytes both ways, maps every special resource of the arch's table
//! (`tests/data/mmap-special.tsv`, a copy of `reference/mmap-special.tsv`), and makes the
//! refused calls; this test holds each line it prints to the reference's rules
//! (`reference/mmap-README.md`).

mod common;

use khal::Generation;

use common::{Cc, c_source, run_c};

const TABLE: &str = include_str!("data/mmap-special.tsv");

/// One `dm_mmap_special` entry: (block, block_id, resource, size, read-only).
struct Special {
    triple: [u32; 3],
    size: u64,
    read_only: bool,
}

/// The entries of `arch` ("v2", ...), in table order.
fn specials(arch: &str) -> Vec<Special> {
    let mut lines = TABLE.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (a, b, i, r, s, ro) = (
        col("arch"),
        col("block_enum"),
        col("block_id"),
        col("resource_enum"),
        col("size"),
        col("readonly"),
    );
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f[a] == arch)
        .map(|f| Special {
            triple: [f[b], f[i], f[r]].map(|v| v.parse().unwrap()),
            size: u64::from_str_radix(f[s].trim_start_matches("0x"), 16).unwrap(),
            read_only: match f[ro] {
                "yes" => true,
                "no" => false,
                other => panic!("readonly column {other:?}"),
            },
        })
        .collect()
}

fn run(cc: &Cc, g: Generation, table: &[Special]) -> String {
    let arch = g.number();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("mmap");
    cc.build(&exe, &[c_source("mmap.c")], Some(arch), arch == 4);
    let args = table.iter().flat_map(|s| s.triple.map(|v| v.to_string()));
    run_c(&exe, args, &format!("V{arch}"))
}

#[test]
fn own_chunks_and_special_resources_map_from_c_as_the_driver_allows() {
    let cc = Cc::find();
    for g in Generation::ALL {
        let table = specials(&format!("v{}", g.number()));
        // mmap-README.md: v2 16 entries, v3 52, v4 52.
        assert_eq!(table.len(), if g == Generation::V2 { 16 } else { 52 });
        let out = run(&cc, g, &table);
        let mut lines = out.lines();
        // The caller's own chunks: mapped whole (the chunk's size), read-write, the same bytes
        // as MEM_BUF_COPY sees both ways.
        assert_eq!(
            lines.next(),
            Some("chunk host size 12288 rc 0 len 12288 same 1 written 1")
        );
        assert_eq!(
            lines.next(),
            Some("chunk device size 65536 rc 0 len 65536 same 1 written 1")
        );
        // Every special resource: exactly the entry's size; readable; writable unless the
        // entry is RESOURCE_ALL (read-only: -EACCES).
        for s in &table {
            let [b, i, r] = s.triple;
            let write = if s.read_only { -libc::EACCES } else { 0 };
            assert_eq!(
                lines.next().unwrap(),
                format!(
                    "resource {b} {i} {r} rc 0 size {:#x} read 0 write {write}",
                    s.size
                ),
                "V{}",
                g.number()
            );
        }
        // No entry for the triple: RESOURCE_MMAP_INFO's -EINVAL, named in the sentence.
        let refused = lines.next().unwrap();
        assert!(
            refused.starts_with("refused resource rc -22 err ndl_mmap_resource: ")
                && refused.contains("RESOURCE_MMAP_INFO"),
            "{refused}"
        );
        let refused = lines.next().unwrap();
        assert!(
            refused.starts_with("refused chunk rc -")
                && refused.contains("err ndl_mmap_mem: ")
                && refused.contains("MEM_GET_EXTENDED_INFO"),
            "{refused}"
        );
        assert_eq!(lines.next(), None);
    }
}
