//! Finalizer memory instructions end to end: each `tests/finalize/mem_*`,
//! `private_*`, `atomic_*` and `global_*` kernel runs on the emulator
//! (gfx90a and gfx900) with the inputs its `// test:` and `// arg:` header
//! describes, and every buffer afterwards must equal what a Rust
//! reference written from the PRM computes from the same inputs.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::{Run, random_bytes};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// One kernel argument of the header.
#[derive(Debug, Clone)]
enum Arg {
    /// A global buffer: its initial bytes.
    Buf(Vec<u8>),
    /// A scalar: `--arg` spelling.
    Scalar(String),
}

/// A kernel file's header, with its buffers filled.
#[derive(Debug, Clone)]
struct Test {
    file: PathBuf,
    kernel: String,
    grid: String,
    group: String,
    args: Vec<Arg>,
}

fn fill(kind: &str, n: usize, seed: u64) -> Vec<u8> {
    match kind {
        "zero" => vec![0; n],
        "random" => random_bytes(n, seed),
        "iota32" => (0..n / 4).flat_map(|i| (i as u32).to_le_bytes()).collect(),
        other => panic!("fill `{other}` is not used by these tests"),
    }
}

/// Reads the header of `tests/finalize/<name>`.
fn test(name: &str) -> Test {
    let file = oracles::workspace_root().join("tests/finalize").join(name);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut t = Test {
        file,
        kernel: String::new(),
        grid: String::new(),
        group: String::new(),
        args: Vec::new(),
    };
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["//", "test:", rest @ ..] => {
                for kv in rest {
                    let (k, v) = kv.split_once('=').unwrap();
                    match k {
                        "kernel" => t.kernel = v.to_string(),
                        "grid" => t.grid = v.to_string(),
                        "group" => t.group = v.to_string(),
                        _ => panic!("{name}: unknown test key {k}"),
                    }
                }
            }
            ["//", "arg:", "buf", size, kind] => {
                let seed = t.args.len() as u64;
                t.args
                    .push(Arg::Buf(fill(kind, size.parse().unwrap(), seed)));
            }
            ["//", "arg:", ty, v] => {
                let kind = match *ty {
                    "s32" => "i32",
                    "s64" => "i64",
                    k => k,
                };
                t.args.push(Arg::Scalar(format!("{kind}={v}")));
            }
            _ => {}
        }
    }
    assert!(!t.kernel.is_empty(), "{name}: no `// test:` header");
    t
}

/// Runs `t` on `mcpu`; returns every buffer argument's final bytes.
fn run(t: &Test, mcpu: &str) -> Vec<Vec<u8>> {
    let r = Run::new(&t.file, &t.kernel)
        .mcpu(mcpu)
        .grid(&t.grid)
        .group(&t.group)
        .threads(2);
    let r = t.args.iter().fold(r, |r, a| match a {
        Arg::Buf(bytes) => r.arg_buf(bytes),
        Arg::Scalar(s) => r.arg(s),
    });
    r.run()
        .into_iter()
        .zip(&t.args)
        .filter(|(_, a)| matches!(a, Arg::Buf(_)))
        .map(|(b, _)| b)
        .collect()
}

/// The initial buffers of `t`, in argument order.
fn buffers(t: &Test) -> Vec<Vec<u8>> {
    t.args
        .iter()
        .filter_map(|a| match a {
            Arg::Buf(b) => Some(b.clone()),
            Arg::Scalar(_) => None,
        })
        .collect()
}

/// Runs `name` on both targets and compares every buffer with what
/// `reference` makes of the initial ones.
fn check(name: &str, reference: impl Fn(&mut [Vec<u8>])) {
    let t = test(name);
    let mut want = buffers(&t);
    reference(&mut want);
    for mcpu in TARGETS {
        let got = run(&t, mcpu);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            if let Some(at) = oracles::first_difference(g, w) {
                let show = |b: &[u8]| {
                    format!(
                        "{:02x?}",
                        &b[at & !15..(at & !15) + 16.min(b.len() - (at & !15))]
                    )
                };
                panic!(
                    "{name} on {mcpu}: buffer {i} differs at byte {at}:\n got  {}\n want {}",
                    show(g),
                    show(w)
                );
            }
        }
    }
}

/// Little-endian reads and writes on a byte buffer.
trait Bytes {
    fn rd(&self, at: usize, n: usize) -> u64;
    fn wr(&mut self, at: usize, n: usize, v: u64);
}

impl Bytes for [u8] {
    fn rd(&self, at: usize, n: usize) -> u64 {
        (0..n).fold(0, |v, i| v | u64::from(self[at + i]) << (8 * i))
    }
    fn wr(&mut self, at: usize, n: usize, v: u64) {
        for i in 0..n {
            self[at + i] = (v >> (8 * i)) as u8;
        }
    }
}

/// Sign-extends the low `bits` of `v` to 32 bits.
fn sext32(v: u64, bits: u32) -> u64 {
    u64::from((((v as u32) << (32 - bits)) as i32 >> (32 - bits)) as u32)
}

#[test]
fn global_loads_and_stores() {
    check("mem_global.hsail", |b| {
        let (input, out) = (b[0].clone(), &mut b[1]);
        for i in 0..64usize {
            let a = 3 * i;
            let o = 160 * i;
            let ld = |off: usize, n: usize| input.rd(a + off, n);
            let words = [
                ld(0, 1),
                sext32(ld(1, 1), 8),
                ld(2, 2),
                sext32(ld(5, 2), 16),
                ld(7, 4),
                ld(13, 4),
                ld(17, 4),
                ld(21, 2), // f16, stored back as 16 bits
                ld(21, 2),
                ld(25, 4),
            ];
            for (k, &w) in words.iter().enumerate() {
                out.wr(o + 4 * k, 4, w);
            }
            out.wr(o + 28, 4, ld(21, 2));
            for (k, off) in [29, 37, 45].into_iter().enumerate() {
                out.wr(o + 40 + 8 * k, 8, ld(off, 8));
            }
            out.wr(o + 64, 8, ld(45, 8));
            out.wr(o + 72, 4, ld(61, 2));
            out.wr(o + 76, 4, ld(63, 2));
            for k in 0..3 {
                out.wr(o + 80 + 4 * k, 4, sext32(ld(66 + k, 1), 8));
            }
            for k in 0..4 {
                out.wr(o + 92 + 4 * k, 4, ld(69 + 4 * k, 4));
            }
            out.wr(o + 108, 8, ld(85, 8));
            out.wr(o + 116, 8, ld(93, 8));
            let w5 = ld(7, 4);
            out.wr(o + 124, 1, w5);
            out.wr(o + 125, 2, w5);
            out.wr(o + 127, 1, 77);
            for k in 0..2 {
                out.wr(o + 144 + 8 * k, 8, ld(53 + 8 * k, 8));
            }
        }
        out.wr(12284, 4, 64);
    });
}

#[test]
fn private_and_spill_variables() {
    check("private_basic.hsail", |b| {
        let (input, out) = (b[0].clone(), &mut b[1]);
        for i in 0..128u64 {
            let a = input.rd(8 * i as usize, 4);
            let bb = input.rd(8 * i as usize + 4, 4);
            let arr = |k: u64| (a + k * bb) & 0xffff_ffff;
            let mut bytes = [0u8; 12];
            bytes.wr(1, 4, a);
            bytes.wr(5, 2, bb);
            bytes.wr(7, 1, i);
            bytes.wr(8, 4, bb);
            let words = [
                arr(15 - i % 16),
                arr(i % 7),
                arr(15),
                bytes.rd(3, 4),
                sext32(bytes.rd(4, 2), 16),
                sext32(bytes.rd(2, 1), 8),
                bytes.rd(9, 2),
                bb,
            ];
            let o = 64 * i as usize;
            for (k, &w) in words.iter().enumerate() {
                out.wr(o + 4 * k, 4, w);
            }
            out.wr(o + 32, 8, a | bb << 32);
            out.wr(o + 40, 4, i);
            out.wr(o + 44, 4, arr(15 - i % 16));
            out.wr(o + 48, 4, (a + bb) & 0xffff_ffff);
        }
    });
}

#[test]
fn group_loads_and_stores() {
    check("mem_group.hsail", |b| {
        let (input, out) = (b[0].clone(), &mut b[1]);
        for wg in 0..2usize {
            let item = |l: usize| &input[16 * (128 * wg + l)..16 * (128 * wg + l + 1)];
            let mut g = vec![0u8; 2048];
            for l in 0..128 {
                let v = item(l);
                g.wr(16 * l, 1, v.rd(12, 1));
                g.wr(16 * l + 1, 4, v.rd(0, 4));
                g.wr(16 * l + 5, 8, v.rd(5, 8));
                g.wr(16 * l + 13, 2, v.rd(4, 2));
                g.wr(16 * l + 15, 1, v.rd(8, 1));
            }
            let w = (128 * wg + 5) as u64 + item(5).rd(4, 4);
            for l in 0..128 {
                let p = l ^ 65;
                let o = 48 * (128 * wg + l);
                let r = 16 * p;
                out.wr(o, 4, g.rd(r + 1, 4));
                out.wr(o + 4, 4, sext32(g.rd(r + 13, 2), 16));
                out.wr(o + 8, 4, sext32(g.rd(r + 15, 1), 8));
                out.wr(o + 12, 4, g.rd(r, 1));
                out.wr(o + 16, 8, g.rd(r + 5, 8));
                out.wr(o + 24, 2, g.rd(r + 3, 2));
                out.wr(o + 26, 2, g.rd(r + 5, 2));
                out.wr(o + 28, 4, w & 0xffff_ffff);
                out[o + 32..o + 48].copy_from_slice(item(p));
            }
        }
    });
}

#[test]
fn kernarg_loads_at_any_offset() {
    check("mem_kernarg.hsail", |b| {
        // The kernarg segment: %out at 0, %a at 8, %b at 16, %c at 24.
        let mut k = [0u8; 28];
        k.wr(8, 4, 2_864_434_397);
        k.wr(16, 8, 1_311_768_467_463_790_320);
        k.wr(24, 4, (-98765i32) as u32 as u64);
        let out = &mut b[0];
        let words = [
            k.rd(9, 1),
            sext32(k.rd(11, 1), 8),
            k.rd(9, 2),
            sext32(k.rd(10, 2), 16),
            k.rd(18, 4),
            k.rd(17, 4),
            k.rd(24, 4),
            sext32(k.rd(27, 1), 8),
        ];
        for (i, &w) in words.iter().enumerate() {
            out.wr(4 * i, 4, w);
        }
        out.wr(32, 8, k.rd(16, 8));
        let more = [
            k.rd(16, 4),
            k.rd(20, 4),
            k.rd(23, 2),
            k.rd(20, 4),
            k.rd(19, 2),
        ];
        for (i, &w) in more.iter().enumerate() {
            out.wr(40 + 4 * i, 4, w);
        }
    });
}

#[test]
fn flat_addresses_of_every_segment() {
    check("mem_flat.hsail", |b| {
        let (input, out) = (b[0].clone(), &mut b[1]);
        let s3 = |i: usize| input.rd(16 * i + 1, 2);
        for i in 0..128usize {
            let s4 = input.rd(16 * i + 3, 2);
            let s5 = sext32(input.rd(16 * i + 7, 1), 8);
            let o = 64 * i;
            for (k, w) in [s3(i), s4, s5, s3(i ^ 1), 0, s5, s4, s4]
                .into_iter()
                .enumerate()
            {
                out.wr(o + 4 * k, 4, w);
            }
            // segmentp: pointer k in segment s; a null pointer is in all.
            for k in 0..4 {
                for s in 0..3 {
                    out[o + 32 + 3 * k + s] = u8::from(k == s || k == 3);
                }
            }
            out.wr(o + 48, 8, input.rd(16 * i + 8, 8));
        }
    });
}

/// `n` applications of HSAIL `wrapinc` (`dec == false`) or `wrapdec`
/// with limit `l` to `x`.
fn wrap(mut x: u64, l: u64, n: usize, dec: bool) -> u64 {
    for _ in 0..n {
        x = match dec {
            false if x >= l => 0,
            false => x + 1,
            true if x == 0 || x > l => l,
            true => x - 1,
        };
    }
    x
}

/// The eleven 32-bit counters at `c[0..44]` after work-items `0..n`
/// applied add, sub, and, or, xor, min/max (s32, u32), wrapinc and wrapdec
/// as the atomic kernels do.
fn counters32(c: &mut [u8], n: u64) {
    let u = |v: u64| v & 0xffff_ffff;
    let s = |v: u64| v as u32 as i32 as i64;
    let sum: u64 = (0..n).sum();
    let x = (0..n).fold(0, |a, i| a ^ u(i * 2_654_435_761));
    let top = 3 * (n - 1);
    let ops: [&dyn Fn(u64) -> u64; 11] = [
        &|v| u(v + sum),
        &|v| u(v.wrapping_sub(sum)),
        &|v| v & 0xff80_0000,
        &|v| v | 0x1fff_ffff,
        &|v| v ^ x,
        &|v| u(s(v).min(-100) as u64),
        &|v| u(s(v).max(n as i64 - 101) as u64),
        &|_| 0,
        &|v| v.max(top),
        &|v| wrap(v, 100, n as usize, false),
        &|v| wrap(v, 1000, n as usize, true),
    ];
    for (k, f) in ops.iter().enumerate() {
        let v = f(c.rd(4 * k, 4));
        c.wr(4 * k, 4, v);
    }
}

/// `i << 35 | i`, the 64-bit operand of work-item `i`.
fn d3(i: u64) -> u64 {
    i << 35 | i
}

/// The eleven 64-bit counters at `c[0..88]`, as [`counters32`].
fn counters64(c: &mut [u8], n: u64) {
    let sum = (0..n).fold(0u64, |a, i| a.wrapping_add(d3(i)));
    let x = (0..n).fold(0, |a, i| a ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let k = 4_294_967_297i64;
    let ops: [&dyn Fn(u64) -> u64; 11] = [
        &|v| v.wrapping_add(sum),
        &|v| v.wrapping_sub(sum),
        &|v| (v as i64).min(-100 * k) as u64,
        &|v| (v as i64).max((n as i64 - 101) * k) as u64,
        &|_| 0,
        &|v| v.max(d3(n - 1)),
        &|v| v | ((1 << 61) - 1),
        &|v| v & !((1 << 61) - 1),
        &|v| v ^ x,
        &|v| wrap(v, 77, n as usize, false),
        &|v| wrap(v, 5_000_000_000, n as usize, true),
    ];
    for (i, f) in ops.iter().enumerate() {
        let v = f(c.rd(8 * i, 8));
        c.wr(8 * i, 8, v);
    }
}

/// Bitmaps of `bits` set bits each, `stride` bytes apart, from `at`.
fn bitmaps(z: &mut [u8], at: usize, count: usize, stride: usize, bits: usize) {
    for b in 0..count {
        for i in 0..bits {
            z[at + b * stride + i / 8] |= 1 << (i % 8);
        }
    }
}

#[test]
fn global_atomics() {
    check("atomic_global.hsail", |b| {
        let n = 256u64;
        let c = &mut b[0];
        counters32(c, n);
        let v = c.rd(44, 4) + 3 * n;
        c.wr(44, 4, v & 0xffff_ffff);
        counters64(&mut c[48..], n);
        let v = c.rd(136, 8).max(d3(n - 1));
        c.wr(136, 8, v);

        let z = &mut b[1];
        for (at, v) in [
            (0, n),
            (4, n),
            (16, (n as u32).wrapping_neg().into()),
            (20, n),
            (24, n),
        ] {
            z.wr(at, 4, v);
        }
        z.wr(8, 8, n);
        z.wr(32, 8, n * 4_294_967_297);
        bitmaps(z, 1024, 7, 32, 256);
        bitmaps(z, 1248, 2, 48, 257);
        for i in 0..n {
            let at = 2048 + 8 * i as usize;
            z.wr(at, 4, 7 * i);
            z.wr(at + 4, 4, 7 * i + 1);
            z.wr(2048 + at, 8, (7 * i + 1) << 32);
        }
    });
}

#[test]
fn group_atomics() {
    check("atomic_group.hsail", |b| {
        let n = 128u64;
        let input = b[0].clone();
        let out = &mut b[1];
        for wg in 0..2 {
            let o = &mut out[1024 * wg..];
            let init = &input[256 * wg..];
            o[..48].copy_from_slice(&init[..48]);
            counters32(o, n);
            for (k, v) in [
                (11, 4660),
                (12, n),
                (13, n),
                (14, u64::from((n as u32).wrapping_neg())),
                (15, n),
                (17, n),
            ] {
                o.wr(4 * k, 4, v);
            }
            let g64 = &mut o[96..];
            g64[..96].copy_from_slice(&init[80..176]);
            counters64(g64, n);
            for (k, v) in [
                (11, 0x0123_4567_89ab_cdef),
                (12, d3(n - 1)),
                (13, n),
                (15, n),
            ] {
                g64.wr(8 * k, 8, v);
            }
            bitmaps(o, 224, 7, 32, 128);
            bitmaps(o, 224 + 256, 2, 32, 129);
        }
    });
}

#[test]
fn module_and_kernel_scope_global_variables() {
    check("global_vars.hsail", |b| {
        let out = &mut b[0];
        let table = [1u64, 2, 3, 5, 8, 13, 21, 34];
        for i in 0..128usize {
            let sum = table[i % 4] + table[i % 4 + 1] + 7 + 0x1234 + 0x3fc0_0000 + 99;
            out.wr(8 * i, 4, sum);
            out.wr(8 * i + 4, 4, 3 * (i as u64 ^ 1));
        }
        bitmaps(out, 1024, 1, 16, 128);
        out.wr(1040, 8, 0x1122_3344_5566_7788);
    });
}

/// `llvm-readelf-19 -lS` of `co` without the sections that are not loaded
/// (their contents name the linker).
fn loaded_layout(co: &std::path::Path) -> String {
    oracles::run(Command::new("llvm-readelf-19").arg("-lS").arg(co))
        .lines()
        .filter(|l| {
            ![
                ".comment",
                ".symtab",
                ".strtab",
                ".shstrtab",
                "section header",
            ]
            .iter()
            .any(|n| l.contains(n))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn global_data_is_laid_out_as_lld_does() {
    if !oracles::llvm_available() {
        eprintln!("SKIPPED: llvm-mc-19/ld.lld-19 not installed");
        return;
    }
    let dir = oracles::Scratch::new("finalize-mem-lld");
    let (s, ours, obj, lld) = (
        dir.path("k.s"),
        dir.path("ours.co"),
        dir.path("k.o"),
        dir.path("lld.co"),
    );
    let file = test("global_vars.hsail").file;
    for mcpu in TARGETS {
        let hsakit = |args: &[&std::ffi::OsStr]| {
            oracles::run(Command::new(env!("CARGO_BIN_EXE_hsakit")).args(args))
        };
        hsakit(&[
            "finalize".as_ref(),
            file.as_os_str(),
            "--mcpu".as_ref(),
            mcpu.as_ref(),
            "-S".as_ref(),
            "-o".as_ref(),
            s.as_os_str(),
        ]);
        hsakit(&[
            "as".as_ref(),
            s.as_os_str(),
            "--mcpu".as_ref(),
            mcpu.as_ref(),
            "-o".as_ref(),
            ours.as_os_str(),
        ]);
        oracles::run(
            Command::new("llvm-mc-19")
                .args([
                    "-triple=amdgcn-amd-amdhsa",
                    &format!("-mcpu={mcpu}"),
                    "-filetype=obj",
                ])
                .arg(&s)
                .arg("-o")
                .arg(&obj),
        );
        oracles::run(
            Command::new("ld.lld-19")
                .arg("-shared")
                .arg(&obj)
                .arg("-o")
                .arg(&lld),
        );
        assert_eq!(loaded_layout(&ours), loaded_layout(&lld), "{mcpu}");
    }
}

#[test]
fn aggregate_initializers() {
    check("global_aggregate.hsail", |b| {
        // PRM 4.10: the constants' bytes in order, align(n) pads with zeros.
        let mut mixed = vec![7, 0x34, 0x12, 0, 0, 0, 0, 0];
        mixed.extend_from_slice(&0x1122_3344_5566_7788u64.to_le_bytes());
        let mut floats = 1.5f32.to_le_bytes().to_vec();
        floats.extend_from_slice(&[9, 0, 0, 0]);
        floats.extend_from_slice(&(-2.0f32).to_le_bytes());
        for i in 0..64 {
            b[0][4 * i] = mixed[i % 16];
            b[0][4 * i + 1] = floats[i % 12];
        }
    });
}

#[test]
fn segment_conversions_round_trip() {
    check("mem_segcvt.hsail", |b| {
        for i in 0..128usize {
            // ftos(stof(a)) - a (three times), then four null rules that
            // hold (1), then the work-item id in its work-group.
            for (k, w) in [0, 0, 0, 1, 1, 1, 1, i as u64 % 64].into_iter().enumerate() {
                b[0].wr(32 * i + 4 * k, 4, w);
            }
        }
    });
}

/// PRM 11.3: the queue index instructions act on the read and write
/// indices where the runtime's queue keeps them; work-item 0's sequence
/// (store 5, add 3, cas 8 → 20, a failing cas 8 → 99, load, store and
/// load the read index) returns the old values, then 64 work-items add 1.
#[test]
fn queue_index_instructions() {
    use hsa_runtime::queue::{QUEUE_READ_DISPATCH_ID, QUEUE_WRITE_DISPATCH_ID};
    let (write, read) = (
        QUEUE_WRITE_DISPATCH_ID as usize,
        QUEUE_READ_DISPATCH_ID as usize,
    );
    check("queue_index.hsail", |b| {
        b[0].wr(write, 8, 20 + 64);
        b[0].wr(read, 8, 7);
        for (i, v) in [5, 8, 20, 20, 7].into_iter().enumerate() {
            b[1].wr(8 * i, 8, v);
        }
    });
}

/// Signal instructions on a buffer standing in for an `amd_signal_t`
/// (value at byte 8): work-item 0's atomics return the old values (the
/// PRM 6.8.2 definition: the corresponding atomic), a waittimeout that
/// cannot succeed returns the current value, 128 work-items add 1, and
/// 48 waiting work-items see the 42 or 43 that wave 1 stores in the even
/// or odd work-items' signal.
#[test]
fn signal_instructions() {
    check("signal_ops.hsail", |b| {
        type Op = fn(u64) -> u64;
        let steps: [Op; 8] = [
            |v| v + 10,
            |v| v - 3,
            |v| v & 14,
            |v| v | 49,
            |v| v ^ 255,
            |_| 1 << 32,
            |v| if v == 1 << 32 { 7 } else { v },
            |v| if v == 8 { 99 } else { v },
        ];
        let mut value = 5;
        let mut seen = Vec::new();
        for f in steps {
            seen.push(value);
            value = f(value);
        }
        seen.extend([value, value]);
        for (i, v) in seen.into_iter().enumerate() {
            b[1].wr(8 * i, 8, v);
        }
        b[0].wr(8, 8, value + 128);
        b[0].wr(24, 8, 42);
        b[0].wr(40, 8, 43);
        for i in 0..48 {
            b[1].wr(80 + 8 * i, 8, 42 + (i as u64 & 1));
        }
    });
}

#[test]
fn unsupported_memory_forms_are_located_errors() {
    let dir = oracles::Scratch::new("finalize-mem-err");
    let cases = [(
        "module &M:1:0:$full:$large:$default;\nglobal_u64 &huge[4000000000];\nkernel &k()\n{\n    ret;\n};\n",
        "bad.hsail:2:1",
        "bytes",
    )];
    for (src, at, what) in cases {
        let file = dir.path("bad.hsail");
        std::fs::write(&file, src).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hsakit"))
            .arg("finalize")
            .arg(&file)
            .args(["--mcpu", "gfx90a", "-o"])
            .arg(dir.path("bad.co"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{src}");
        assert!(err.contains(at) && err.contains(what), "{err}");
    }
}
