//! Scalar ALU and program control (SOP1, SOP2, SOPK, SOPC, SOPP) on the
//! emulator, on gfx900 and gfx90a: snippets run with `testing::run_asm`,
//! final SGPRs and SCC compared with values computed here in plain Rust.
//!
//! The table tests batch cases into one kernel per chunk: each case loads
//! its inputs into `s[10:13]`, sets SCC, fills the destination with a
//! marker, runs the instruction and captures SCC with `s_cselect_b32`
//! (itself checked against the final SCC by `cselect_and_final_scc`).

use std::sync::Arc;

use amdgpu_emu::testing::{AsmKernel, kernel_source, run_asm};
use amdgpu_emu::{Device, Image, Launch, Memory, Wave, initial_mode};
use amdgpu_object::TargetId;
use amdgpu_object::abi::WaveValues;
use amdgpu_object::asm::{Options, assemble};

const TARGETS: [&str; 2] = ["gfx900", "gfx90a"];

/// Marker the destination holds before each case.
const MARK: u32 = 0x5a5a_5a5a;

fn run_on(mcpu: &str, body: &str) -> Vec<Wave> {
    let mem = Arc::new(Memory::new());
    run_asm(&AsmKernel::new(mcpu), body, &mem, &[])
        .unwrap_or_else(|e| panic!("{mcpu}: {e}\n--- snippet:\n{body}"))
}

fn run1(mcpu: &str, body: &str) -> Wave {
    run_on(mcpu, body).remove(0)
}

fn run_err(mcpu: &str, body: &str) -> String {
    let mem = Arc::new(Memory::new());
    match run_asm(&AsmKernel::new(mcpu), body, &mem, &[]) {
        Ok(_) => panic!("{mcpu}: expected a fault from\n{body}"),
        Err(e) => e,
    }
}

/// Like `testing::run_asm`, with a watchdog of `watchdog` instructions.
fn run_asm_watchdog(k: &AsmKernel, body: &str, watchdog: u64) -> Result<Vec<Wave>, String> {
    let memory = Arc::new(Memory::new());
    let source = kernel_source(k, body);
    let target = TargetId::parse(&k.mcpu).map_err(|e| e.to_string())?;
    let asm = assemble(
        &source,
        &Options {
            target,
            file_name: "snippet.s".into(),
        },
    )
    .map_err(|e| e.to_string())?;
    let elf = asm.link("").map_err(|e| e.to_string())?;
    let image = Image::load(&memory, &elf).map_err(|e| e.to_string())?;
    let kernel = image.kernel("k").ok_or("no kernel")?;
    let ka = memory.allocate(8, 64).ok_or("out of memory")?;
    let launch = Launch {
        name: "k".into(),
        program: &image.program,
        entry: kernel.entry,
        layout: kernel.layout.clone(),
        mode: initial_mode(kernel.descriptor.rsrc1()),
        vgprs: 256,
        agprs: 256,
        grid: k.group,
        group: k.group,
        group_segment_size: k.lds,
        private_segment_size: k.private,
        values: WaveValues {
            kernarg_segment_ptr: ka,
            ..Default::default()
        },
    };
    let mut device = Device::new(memory.clone(), 1);
    device.watchdog = watchdog;
    device
        .run_first_workgroup(&launch)
        .map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// Inputs

const A32: [u64; 8] = [
    0,
    1,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1234_5678,
    0xdead_beef,
    0xffff_fffe,
];

const B32: [u64; 13] = [
    0,
    1,
    31,
    32,
    33,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x000c_0004,
    0x0020_0008,
    0x0040_001c,
    0x0005_003f,
    0x0001_0000,
];

const A64: [u64; 8] = [
    0,
    1,
    u64::MAX,
    0x8000_0000_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x0000_0001_0000_0000,
    0x1234_5678_9abc_def0,
    0x0000_0000_ffff_ffff,
];

const B64: [u64; 12] = [
    0,
    1,
    31,
    32,
    63,
    64,
    u64::MAX,
    0x0000_0001_0000_0000,
    0x0020_0008,
    0x0040_0010,
    0x0008_003c,
    0xf0f0_0000_0f0f_0000,
];

/// Every (a, b) pair, with SCC alternating.
fn pairs(a: &[u64], b: &[u64]) -> Vec<(u64, u64, bool)> {
    let mut v = Vec::new();
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            v.push((x, y, (i + j) % 2 == 1));
        }
    }
    v
}

// ---------------------------------------------------------------------------
// Table runner

/// One instruction's reference: (a, b, old D, SCC in) → (D, SCC out or
/// unchanged).
type Ref = fn(u64, u64, u64, bool) -> (u64, Option<bool>);

#[derive(Clone, Copy)]
enum Shape {
    /// `op D, S0, S1`.
    Sop2,
    /// `op D, S0`.
    Sop1,
    /// `op S0, S1` (SCC only).
    Sopc,
}

struct Spec {
    mnemonic: &'static str,
    shape: Shape,
    /// Widths in dwords of D, S0, S1.
    widths: [u8; 3],
    reference: Ref,
}

fn reg(base: u32, width: u8) -> String {
    if width == 2 {
        format!("s[{}:{}]", base, base + 1)
    } else {
        format!("s{base}")
    }
}

fn set64(lines: &mut String, r: u32, v: u64) {
    lines.push_str(&format!(
        "  s_mov_b32 s{r}, {:#x}\n  s_mov_b32 s{}, {:#x}\n",
        v as u32,
        r + 1,
        (v >> 32) as u32
    ));
}

fn set_scc(lines: &mut String, scc: bool) {
    lines.push_str(if scc {
        "  s_cmp_eq_u32 0, 0\n"
    } else {
        "  s_cmp_eq_u32 0, 1\n"
    });
}

fn check(spec: &Spec, cases: &[(u64, u64, bool)]) {
    let [wd, w0, w1] = spec.widths;
    let mask = |w: u8| if w == 2 { u64::MAX } else { 0xffff_ffff };
    for mcpu in TARGETS {
        for chunk in cases.chunks(19) {
            let mut body = String::new();
            for (k, &(a, b, scc)) in chunk.iter().enumerate() {
                let base = 20 + 4 * k as u32;
                set64(&mut body, 10, a);
                set64(&mut body, 12, b);
                set64(&mut body, base, u64::from(MARK) * 0x1_0000_0001);
                set_scc(&mut body, scc);
                let inst = match spec.shape {
                    Shape::Sop2 => format!(
                        "{} {}, {}, {}",
                        spec.mnemonic,
                        reg(base, wd),
                        reg(10, w0),
                        reg(12, w1)
                    ),
                    Shape::Sop1 => format!("{} {}, {}", spec.mnemonic, reg(base, wd), reg(10, w0)),
                    Shape::Sopc => format!("{} {}, {}", spec.mnemonic, reg(10, w0), reg(12, w1)),
                };
                body.push_str(&format!("  {inst}\n  s_cselect_b32 s{}, 1, 0\n", base + 2));
            }
            let w = run1(mcpu, &body);
            for (k, &(a, b, scc)) in chunk.iter().enumerate() {
                let base = 20 + 4 * k;
                let old = (u64::from(MARK) * 0x1_0000_0001) & mask(wd);
                let (d, scc_out) = (spec.reference)(a & mask(w0), b & mask(w1), old, scc);
                let what = format!(
                    "{mcpu}: {} with S0 = {a:#x}, S1 = {b:#x}, SCC = {}",
                    spec.mnemonic,
                    u8::from(scc)
                );
                match spec.shape {
                    Shape::Sopc => {
                        assert_eq!(w.s[base], MARK, "{what}: wrote a register");
                    }
                    _ => {
                        assert_eq!(w.s[base], d as u32, "{what}: D[31:0]");
                        let hi = if wd == 2 { (d >> 32) as u32 } else { MARK };
                        assert_eq!(w.s[base + 1], hi, "{what}: D[63:32]");
                    }
                }
                let expect_scc = scc_out.unwrap_or(scc);
                assert_eq!(w.s[base + 2], u32::from(expect_scc), "{what}: SCC");
            }
        }
    }
}

fn nz(v: u64) -> (u64, Option<bool>) {
    (v, Some(v != 0))
}

fn i32s(v: u64) -> i64 {
    i64::from(v as u32 as i32)
}

// ---------------------------------------------------------------------------
// SOP2

#[test]
fn sop2_arithmetic() {
    let specs: [Spec; 14] = [
        Spec {
            mnemonic: "s_add_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                let s = a + b;
                (s & 0xffff_ffff, Some(s > 0xffff_ffff))
            },
        },
        Spec {
            mnemonic: "s_sub_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| (a.wrapping_sub(b) & 0xffff_ffff, Some(b > a)),
        },
        Spec {
            mnemonic: "s_add_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                let s = i32s(a) + i32s(b);
                (s as u64 & 0xffff_ffff, Some(s != i64::from(s as i32)))
            },
        },
        Spec {
            mnemonic: "s_sub_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                let s = i32s(a) - i32s(b);
                (s as u64 & 0xffff_ffff, Some(s != i64::from(s as i32)))
            },
        },
        Spec {
            mnemonic: "s_addc_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, c| {
                let s = a + b + u64::from(c);
                (s & 0xffff_ffff, Some(s >> 32 != 0))
            },
        },
        Spec {
            mnemonic: "s_subb_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, c| {
                let s = a as i64 - b as i64 - i64::from(c);
                (s as u64 & 0xffff_ffff, Some(s < 0))
            },
        },
        Spec {
            mnemonic: "s_min_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                (
                    if i32s(a) < i32s(b) { a } else { b },
                    Some(i32s(a) < i32s(b)),
                )
            },
        },
        Spec {
            mnemonic: "s_min_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| (a.min(b), Some(a < b)),
        },
        Spec {
            mnemonic: "s_max_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                (
                    if i32s(a) > i32s(b) { a } else { b },
                    Some(i32s(a) > i32s(b)),
                )
            },
        },
        Spec {
            mnemonic: "s_max_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| (a.max(b), Some(a > b)),
        },
        Spec {
            mnemonic: "s_mul_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| ((a * b) & 0xffff_ffff, None),
        },
        Spec {
            mnemonic: "s_mul_hi_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| ((a * b) >> 32, None),
        },
        Spec {
            mnemonic: "s_mul_hi_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| (((i32s(a) * i32s(b)) >> 32) as u64 & 0xffff_ffff, None),
        },
        Spec {
            mnemonic: "s_absdiff_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                // The difference wraps to 32 bits before the absolute value.
                let diff = i64::from((i32s(a) - i32s(b)) as i32);
                nz(diff.unsigned_abs() & 0xffff_ffff)
            },
        },
    ];
    for s in &specs {
        check(s, &pairs(&A32, &B32));
    }
}

#[test]
fn sop2_shift_add_and_pack() {
    fn lshl_add(a: u64, b: u64, n: u32) -> (u64, Option<bool>) {
        let s = (a << n) + b;
        (s & 0xffff_ffff, Some(s >= 1 << 32))
    }
    let specs: [Spec; 7] = [
        Spec {
            mnemonic: "s_lshl1_add_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| lshl_add(a, b, 1),
        },
        Spec {
            mnemonic: "s_lshl2_add_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| lshl_add(a, b, 2),
        },
        Spec {
            mnemonic: "s_lshl3_add_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| lshl_add(a, b, 3),
        },
        Spec {
            mnemonic: "s_lshl4_add_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| lshl_add(a, b, 4),
        },
        Spec {
            mnemonic: "s_pack_ll_b32_b16",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| ((a & 0xffff) | (b & 0xffff) << 16, None),
        },
        Spec {
            mnemonic: "s_pack_lh_b32_b16",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| ((a & 0xffff) | (b >> 16) << 16, None),
        },
        Spec {
            mnemonic: "s_pack_hh_b32_b16",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| ((a >> 16) | (b >> 16) << 16, None),
        },
    ];
    for s in &specs {
        check(s, &pairs(&A32, &B32));
    }
}

/// Bitwise SOP2 in both widths.
#[test]
fn sop2_logic() {
    macro_rules! logic {
        ($name:literal, $f:expr) => {
            [
                Spec {
                    mnemonic: concat!($name, "_b32"),
                    shape: Shape::Sop2,
                    widths: [1, 1, 1],
                    reference: |a, b, _, _| nz(($f)(a, b) & 0xffff_ffff),
                },
                Spec {
                    mnemonic: concat!($name, "_b64"),
                    shape: Shape::Sop2,
                    widths: [2, 2, 2],
                    reference: |a, b, _, _| nz(($f)(a, b)),
                },
            ]
        };
    }
    let specs = [
        logic!("s_and", |a: u64, b: u64| a & b),
        logic!("s_or", |a: u64, b: u64| a | b),
        logic!("s_xor", |a: u64, b: u64| a ^ b),
        logic!("s_andn2", |a: u64, b: u64| a & !b),
        logic!("s_orn2", |a: u64, b: u64| a | !b),
        logic!("s_nand", |a: u64, b: u64| !(a & b)),
        logic!("s_nor", |a: u64, b: u64| !(a | b)),
        logic!("s_xnor", |a: u64, b: u64| !(a ^ b)),
    ];
    for [s32, s64] in &specs {
        check(s32, &pairs(&A32, &B32[..8]));
        check(s64, &pairs(&A64, &B64));
    }
}

#[test]
fn sop2_shifts_masks_and_select() {
    let specs: [Spec; 10] = [
        Spec {
            mnemonic: "s_lshl_b32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| nz((a << (b % 32)) & 0xffff_ffff),
        },
        Spec {
            mnemonic: "s_lshr_b32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| nz(a >> (b % 32)),
        },
        Spec {
            mnemonic: "s_ashr_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| nz((i32s(a) >> (b % 32)) as u64 & 0xffff_ffff),
        },
        Spec {
            mnemonic: "s_lshl_b64",
            shape: Shape::Sop2,
            widths: [2, 2, 1],
            reference: |a, b, _, _| nz(a << (b % 64)),
        },
        Spec {
            mnemonic: "s_lshr_b64",
            shape: Shape::Sop2,
            widths: [2, 2, 1],
            reference: |a, b, _, _| nz(a >> (b % 64)),
        },
        Spec {
            mnemonic: "s_ashr_i64",
            shape: Shape::Sop2,
            widths: [2, 2, 1],
            reference: |a, b, _, _| nz(((a as i64) >> (b % 64)) as u64),
        },
        Spec {
            mnemonic: "s_bfm_b32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| {
                let ones = (1u64 << (a % 32)) - 1;
                ((ones << (b % 32)) & 0xffff_ffff, None)
            },
        },
        Spec {
            mnemonic: "s_bfm_b64",
            shape: Shape::Sop2,
            widths: [2, 1, 1],
            reference: |a, b, _, _| {
                let ones = (1u128 << (a % 64)) - 1;
                ((ones << (b % 64)) as u64, None)
            },
        },
        Spec {
            mnemonic: "s_cselect_b32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, c| (if c { a } else { b }, None),
        },
        Spec {
            mnemonic: "s_cselect_b64",
            shape: Shape::Sop2,
            widths: [2, 2, 2],
            reference: |a, b, _, c| (if c { a } else { b }, None),
        },
    ];
    for s in &specs {
        if s.widths[1] == 2 {
            check(s, &pairs(&A64, &B64));
        } else {
            check(s, &pairs(&A32, &B32));
        }
    }
}

/// Reference bit-field extract: bit by bit.
fn bfe_ref(x: u64, s1: u64, bits: u32, signed: bool) -> u64 {
    let off = (s1 as u32) % bits;
    let width = (s1 as u32 >> 16) & 0x7f;
    let bit = |i: u32| -> u64 {
        if i < bits {
            x >> i & 1
        } else if signed {
            x >> (bits - 1) & 1
        } else {
            0
        }
    };
    let mut v = 0u64;
    let mut top = 0;
    for i in 0..bits.min(width) {
        top = bit(off + i);
        v |= top << i;
    }
    if signed && width > 0 && top == 1 {
        for i in width.min(bits)..bits {
            v |= 1 << i;
        }
    }
    v
}

#[test]
fn sop2_bit_field_extract() {
    let specs: [Spec; 4] = [
        Spec {
            mnemonic: "s_bfe_u32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| nz(bfe_ref(a, b, 32, false)),
        },
        Spec {
            mnemonic: "s_bfe_i32",
            shape: Shape::Sop2,
            widths: [1, 1, 1],
            reference: |a, b, _, _| nz(bfe_ref(a, b, 32, true)),
        },
        Spec {
            mnemonic: "s_bfe_u64",
            shape: Shape::Sop2,
            widths: [2, 2, 1],
            reference: |a, b, _, _| nz(bfe_ref(a, b, 64, false)),
        },
        Spec {
            mnemonic: "s_bfe_i64",
            shape: Shape::Sop2,
            widths: [2, 2, 1],
            reference: |a, b, _, _| nz(bfe_ref(a, b, 64, true)),
        },
    ];
    let fields32 = [
        0x0008_0000u64,
        0x0008_0004,
        0x0001_001f,
        0x0010_0010,
        0x0020_0000,
        0x0020_0004,
        0x0040_0008,
        0x0000_0005,
        0x0007_0019,
        0x007f_0001,
    ];
    let fields64 = [
        0x0008_0000u64,
        0x0001_003f,
        0x0020_0010,
        0x0020_0020,
        0x0040_0000,
        0x0040_0004,
        0x007f_0008,
        0x0000_0005,
        0x000c_0038,
        0x0021_001f,
    ];
    for s in &specs {
        if s.widths[1] == 2 {
            check(s, &pairs(&A64, &fields64));
        } else {
            check(s, &pairs(&A32, &fields32));
        }
    }
}

// ---------------------------------------------------------------------------
// SOP1

fn count_ones(v: u64, bits: u32) -> u64 {
    (0..bits).filter(|i| v >> i & 1 == 1).count() as u64
}

fn first(v: u64, bits: u32, want: u64) -> u64 {
    (0..bits)
        .find(|i| v >> i & 1 == want)
        .map_or(0xffff_ffff, u64::from)
}

fn from_msb(v: u64, bits: u32, want: u64) -> u64 {
    (0..bits)
        .find(|i| v >> (bits - 1 - i) & 1 == want)
        .map_or(0xffff_ffff, u64::from)
}

fn flbit_signed(v: u64, bits: u32) -> u64 {
    let sign = v >> (bits - 1) & 1;
    (1..bits)
        .find(|i| v >> (bits - 1 - i) & 1 != sign)
        .map_or(0xffff_ffff, u64::from)
}

fn quads(v: u64, n: u32, whole: bool) -> u64 {
    let mut out = 0;
    for q in 0..n {
        if v >> (4 * q) & 0xf != 0 {
            out |= if whole { 0xf << (4 * q) } else { 1 << q };
        }
    }
    out
}

#[test]
fn sop1_moves_and_bits() {
    let specs: Vec<Spec> = vec![
        Spec {
            mnemonic: "s_mov_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| (a, None),
        },
        Spec {
            mnemonic: "s_mov_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, _, _| (a, None),
        },
        Spec {
            mnemonic: "s_cmov_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, old, c| (if c { a } else { old }, None),
        },
        Spec {
            mnemonic: "s_cmov_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, old, c| (if c { a } else { old }, None),
        },
        Spec {
            mnemonic: "s_not_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(!a & 0xffff_ffff),
        },
        Spec {
            mnemonic: "s_not_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, _, _| nz(!a),
        },
        Spec {
            mnemonic: "s_wqm_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(quads(a, 8, true)),
        },
        Spec {
            mnemonic: "s_wqm_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, _, _| nz(quads(a, 16, true)),
        },
        Spec {
            mnemonic: "s_quadmask_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(quads(a, 8, false)),
        },
        Spec {
            mnemonic: "s_quadmask_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, _, _| nz(quads(a, 16, false)),
        },
        Spec {
            mnemonic: "s_brev_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| ((0..32).fold(0, |v, i| v | (a >> i & 1) << (31 - i)), None),
        },
        Spec {
            mnemonic: "s_brev_b64",
            shape: Shape::Sop1,
            widths: [2, 2, 0],
            reference: |a, _, _, _| ((0..64).fold(0, |v, i| v | (a >> i & 1) << (63 - i)), None),
        },
        Spec {
            mnemonic: "s_bcnt0_i32_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(32 - count_ones(a, 32)),
        },
        Spec {
            mnemonic: "s_bcnt0_i32_b64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| nz(64 - count_ones(a, 64)),
        },
        Spec {
            mnemonic: "s_bcnt1_i32_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(count_ones(a, 32)),
        },
        Spec {
            mnemonic: "s_bcnt1_i32_b64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| nz(count_ones(a, 64)),
        },
        Spec {
            mnemonic: "s_ff0_i32_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| (first(a, 32, 0), None),
        },
        Spec {
            mnemonic: "s_ff0_i32_b64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| (first(a, 64, 0), None),
        },
        Spec {
            mnemonic: "s_ff1_i32_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| (first(a, 32, 1), None),
        },
        Spec {
            mnemonic: "s_ff1_i32_b64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| (first(a, 64, 1), None),
        },
        Spec {
            mnemonic: "s_flbit_i32_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| (from_msb(a, 32, 1), None),
        },
        Spec {
            mnemonic: "s_flbit_i32_b64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| (from_msb(a, 64, 1), None),
        },
        Spec {
            mnemonic: "s_flbit_i32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| (flbit_signed(a, 32), None),
        },
        Spec {
            mnemonic: "s_flbit_i32_i64",
            shape: Shape::Sop1,
            widths: [1, 2, 0],
            reference: |a, _, _, _| (flbit_signed(a, 64), None),
        },
        Spec {
            mnemonic: "s_sext_i32_i8",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| {
                let v = if a & 0x80 != 0 {
                    a | 0xffff_ff00
                } else {
                    a & 0xff
                };
                (v & 0xffff_ffff, None)
            },
        },
        Spec {
            mnemonic: "s_sext_i32_i16",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| {
                let v = if a & 0x8000 != 0 {
                    a | 0xffff_0000
                } else {
                    a & 0xffff
                };
                (v & 0xffff_ffff, None)
            },
        },
        Spec {
            mnemonic: "s_abs_i32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, _, _| nz(i32s(a).unsigned_abs() & 0xffff_ffff),
        },
        Spec {
            mnemonic: "s_bitset0_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, old, _| (old & !(1 << (a % 32)), None),
        },
        Spec {
            mnemonic: "s_bitset1_b32",
            shape: Shape::Sop1,
            widths: [1, 1, 0],
            reference: |a, _, old, _| (old | 1 << (a % 32), None),
        },
        Spec {
            mnemonic: "s_bitset0_b64",
            shape: Shape::Sop1,
            widths: [2, 1, 0],
            reference: |a, _, old, _| (old & !(1 << (a % 64)), None),
        },
        Spec {
            mnemonic: "s_bitset1_b64",
            shape: Shape::Sop1,
            widths: [2, 1, 0],
            reference: |a, _, old, _| (old | 1 << (a % 64), None),
        },
        Spec {
            mnemonic: "s_bitreplicate_b64_b32",
            shape: Shape::Sop1,
            widths: [2, 1, 0],
            reference: |a, _, _, _| {
                (
                    (0..32).fold(0, |v, i| v | ((a >> i & 1) * (3 << (2 * i)))),
                    None,
                )
            },
        },
    ];
    let a32: Vec<u64> = A32
        .iter()
        .chain(&[
            0x80,
            0x7f,
            0x8000,
            0x7fff,
            0x10,
            0x0f0f_0000,
            0xffff_0000,
            0x0000_ffff,
            33,
            63,
            0x1f,
        ])
        .copied()
        .collect();
    let a64: Vec<u64> = A64
        .iter()
        .chain(&[
            0x0000_0000_8000_0000,
            0xffff_ffff_0000_0000,
            0x0f00_0000_0000_00f0,
            0x8000_0000_0000_0001,
            0xfff0_0000_0000_0000,
        ])
        .copied()
        .collect();
    for s in &specs {
        let a: &[u64] = if s.widths[1] == 2 { &a64 } else { &a32 };
        let cases: Vec<_> = a
            .iter()
            .enumerate()
            .flat_map(|(i, &x)| [(x, 0, i % 2 == 0), (x, 0, i % 2 == 1)])
            .collect();
        check(s, &cases);
    }
}

// ---------------------------------------------------------------------------
// SOPC

#[test]
fn sopc_compares() {
    macro_rules! cmp {
        ($name:literal, $w:expr, $f:expr) => {
            Spec {
                mnemonic: $name,
                shape: Shape::Sopc,
                widths: [0, $w, $w],
                reference: |a, b, _, _| (0, Some(($f)(a, b))),
            }
        };
    }
    let specs = [
        cmp!("s_cmp_eq_i32", 1, |a, b| a == b),
        cmp!("s_cmp_lg_i32", 1, |a, b| a != b),
        cmp!("s_cmp_gt_i32", 1, |a, b| i32s(a) > i32s(b)),
        cmp!("s_cmp_ge_i32", 1, |a, b| i32s(a) >= i32s(b)),
        cmp!("s_cmp_lt_i32", 1, |a, b| i32s(a) < i32s(b)),
        cmp!("s_cmp_le_i32", 1, |a, b| i32s(a) <= i32s(b)),
        cmp!("s_cmp_eq_u32", 1, |a, b| a == b),
        cmp!("s_cmp_lg_u32", 1, |a, b| a != b),
        cmp!("s_cmp_gt_u32", 1, |a: u64, b: u64| a > b),
        cmp!("s_cmp_ge_u32", 1, |a: u64, b: u64| a >= b),
        cmp!("s_cmp_lt_u32", 1, |a: u64, b: u64| a < b),
        cmp!("s_cmp_le_u32", 1, |a: u64, b: u64| a <= b),
        cmp!("s_cmp_eq_u64", 2, |a, b| a == b),
        cmp!("s_cmp_lg_u64", 2, |a, b| a != b),
    ];
    let same32: Vec<u64> = A32.to_vec();
    for s in &specs {
        if s.widths[1] == 2 {
            let mut c = pairs(&A64, &A64);
            c.retain(|(a, b, _)| a == b || (a ^ b).count_ones() % 3 == 0 || *a == 0);
            check(s, &c);
        } else {
            check(s, &pairs(&same32, &same32));
        }
    }
    let bitcmp = [
        Spec {
            mnemonic: "s_bitcmp0_b32",
            shape: Shape::Sopc,
            widths: [0, 1, 1],
            reference: |a, b, _, _| (0, Some(a >> (b % 32) & 1 == 0)),
        },
        Spec {
            mnemonic: "s_bitcmp1_b32",
            shape: Shape::Sopc,
            widths: [0, 1, 1],
            reference: |a, b, _, _| (0, Some(a >> (b % 32) & 1 == 1)),
        },
        Spec {
            mnemonic: "s_bitcmp0_b64",
            shape: Shape::Sopc,
            widths: [0, 2, 1],
            reference: |a, b, _, _| (0, Some(a >> (b % 64) & 1 == 0)),
        },
        Spec {
            mnemonic: "s_bitcmp1_b64",
            shape: Shape::Sopc,
            widths: [0, 2, 1],
            reference: |a, b, _, _| (0, Some(a >> (b % 64) & 1 == 1)),
        },
    ];
    for s in &bitcmp {
        if s.widths[1] == 2 {
            check(s, &pairs(&A64, &[0, 1, 31, 32, 33, 63, 64, 95]));
        } else {
            check(s, &pairs(&A32, &[0, 1, 4, 31, 32, 35]));
        }
    }
}

// ---------------------------------------------------------------------------
// SOPK

#[test]
fn sopk_immediates() {
    type KRef = fn(u32, u16, bool) -> (u32, Option<bool>);
    let specs: [(&str, bool, KRef); 16] = [
        ("s_movk_i32", true, |_, k, _| {
            (i32::from(k as i16) as u32, None)
        }),
        ("s_cmovk_i32", true, |d, k, c| {
            (if c { i32::from(k as i16) as u32 } else { d }, None)
        }),
        ("s_addk_i32", true, |d, k, _| {
            let s = i64::from(d as i32) + i64::from(k as i16);
            (s as u32, Some(s != i64::from(s as i32)))
        }),
        ("s_mulk_i32", true, |d, k, _| {
            ((i64::from(d as i32) * i64::from(k as i16)) as u32, None)
        }),
        ("s_cmpk_eq_i32", false, |d, k, _| {
            (d, Some(d as i32 == i32::from(k as i16)))
        }),
        ("s_cmpk_lg_i32", false, |d, k, _| {
            (d, Some(d as i32 != i32::from(k as i16)))
        }),
        ("s_cmpk_gt_i32", false, |d, k, _| {
            (d, Some(d as i32 > i32::from(k as i16)))
        }),
        ("s_cmpk_ge_i32", false, |d, k, _| {
            (d, Some(d as i32 >= i32::from(k as i16)))
        }),
        ("s_cmpk_lt_i32", false, |d, k, _| {
            (d, Some((d as i32) < i32::from(k as i16)))
        }),
        ("s_cmpk_le_i32", false, |d, k, _| {
            (d, Some(d as i32 <= i32::from(k as i16)))
        }),
        ("s_cmpk_eq_u32", false, |d, k, _| {
            (d, Some(d == u32::from(k)))
        }),
        ("s_cmpk_lg_u32", false, |d, k, _| {
            (d, Some(d != u32::from(k)))
        }),
        ("s_cmpk_gt_u32", false, |d, k, _| {
            (d, Some(d > u32::from(k)))
        }),
        ("s_cmpk_ge_u32", false, |d, k, _| {
            (d, Some(d >= u32::from(k)))
        }),
        ("s_cmpk_lt_u32", false, |d, k, _| {
            (d, Some(d < u32::from(k)))
        }),
        ("s_cmpk_le_u32", false, |d, k, _| {
            (d, Some(d <= u32::from(k)))
        }),
    ];
    let ds = [
        0u32,
        1,
        0x7fff,
        0x8000,
        0xffff,
        0xffff_8000,
        0xffff_ffff,
        0x7fff_ffff,
        0x8000_0000,
        0x7fff_8000,
    ];
    let ks = [0u16, 1, 0x7fff, 0x8000, 0xffff, 0x1234, 0x8001];
    for mcpu in TARGETS {
        for (name, _, reference) in &specs {
            let cases: Vec<(u32, u16, bool)> = ds
                .iter()
                .enumerate()
                .flat_map(|(i, &d)| {
                    ks.iter()
                        .enumerate()
                        .map(move |(j, &k)| (d, k, (i + j) % 2 == 0))
                })
                .collect();
            for chunk in cases.chunks(19) {
                let mut body = String::new();
                for (n, &(d, k, scc)) in chunk.iter().enumerate() {
                    let base = 20 + 4 * n;
                    body.push_str(&format!("  s_mov_b32 s{base}, {d:#x}\n"));
                    set_scc(&mut body, scc);
                    body.push_str(&format!(
                        "  {name} s{base}, {k:#x}\n  s_cselect_b32 s{}, 1, 0\n",
                        base + 2
                    ));
                }
                let w = run1(mcpu, &body);
                for (n, &(d, k, scc)) in chunk.iter().enumerate() {
                    let base = 20 + 4 * n;
                    let (v, s) = reference(d, k, scc);
                    let what = format!("{mcpu}: {name} with D = {d:#x}, simm16 = {k:#x}");
                    assert_eq!(w.s[base], v, "{what}: D");
                    assert_eq!(w.s[base + 2], u32::from(s.unwrap_or(scc)), "{what}: SCC");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// EXEC-writing SOP1

#[test]
fn saveexec_and_wrexec() {
    type ERef = fn(u64, u64) -> u64;
    // (mnemonic, new EXEC from (S0, old EXEC), D is the new EXEC).
    let specs: [(&str, ERef, bool); 12] = [
        ("s_and_saveexec_b64", |s, e| s & e, false),
        ("s_or_saveexec_b64", |s, e| s | e, false),
        ("s_xor_saveexec_b64", |s, e| s ^ e, false),
        ("s_andn2_saveexec_b64", |s, e| s & !e, false),
        ("s_orn2_saveexec_b64", |s, e| s | !e, false),
        ("s_nand_saveexec_b64", |s, e| !(s & e), false),
        ("s_nor_saveexec_b64", |s, e| !(s | e), false),
        ("s_xnor_saveexec_b64", |s, e| !(s ^ e), false),
        ("s_andn1_saveexec_b64", |s, e| !s & e, false),
        ("s_orn1_saveexec_b64", |s, e| !s | e, false),
        ("s_andn1_wrexec_b64", |s, e| !s & e, true),
        ("s_andn2_wrexec_b64", |s, e| s & !e, true),
    ];
    let values = [
        0u64,
        u64::MAX,
        0xffff_ffff,
        0x0f0f_0f0f_0f0f_0f0f,
        0x8000_0000_0000_0001,
        0xffff_0000_ffff_0000,
    ];
    for mcpu in TARGETS {
        for (name, f, wrexec) in &specs {
            let cases = pairs(&values, &values);
            for chunk in cases.chunks(10) {
                let mut body = String::new();
                for (n, &(s0, e, scc)) in chunk.iter().enumerate() {
                    let base = 20 + 8 * n as u32;
                    set64(&mut body, 10, s0);
                    set64(&mut body, 14, e);
                    set_scc(&mut body, scc);
                    body.push_str(&format!(
                        "  s_mov_b64 exec, s[14:15]\n  {name} s[{base}:{}], s[10:11]\n  s_cselect_b32 s{}, 1, 0\n  s_mov_b64 s[{}:{}], exec\n",
                        base + 1,
                        base + 2,
                        base + 4,
                        base + 5
                    ));
                }
                body.push_str("  s_mov_b64 exec, -1\n");
                let w = run1(mcpu, &body);
                for (n, &(s0, e, _)) in chunk.iter().enumerate() {
                    let base = 20 + 8 * n;
                    let new = f(s0, e);
                    let what = format!("{mcpu}: {name} with S0 = {s0:#x}, EXEC = {e:#x}");
                    assert_eq!(w.s64(base + 4), new, "{what}: EXEC");
                    assert_eq!(w.s64(base), if *wrexec { new } else { e }, "{what}: D");
                    assert_eq!(w.s[base + 2], u32::from(new != 0), "{what}: SCC");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Operand forms

#[test]
fn constants_literals_and_special_registers() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_add_u32 s10, -1, 1
  s_cselect_b32 s11, 1, 0
  s_add_u32 s12, 0x12345678, 64
  s_mov_b64 s[14:15], -2
  s_mov_b64 s[16:17], 0x80000000
  s_mov_b32 m0, 0x1234
  s_mov_b32 s18, m0
  s_mov_b64 vcc, 5
  s_and_b64 s[20:21], vcc, exec
  s_mov_b32 s22, scc
  s_mov_b32 s23, src_execz
  s_mov_b32 s24, src_vccz
  s_mov_b32 s25, 0.5
  s_mov_b32 s26, src_shared_base",
        );
        assert_eq!((w.s[10], w.s[11]), (0, 1), "{mcpu}: -1 + 1 carries");
        assert_eq!(w.s[12], 0x1234_5678 + 64);
        assert_eq!(
            w.s64(14),
            (-2i64) as u64,
            "{mcpu}: 64-bit inline constants sign-extend"
        );
        assert_eq!(w.s64(16), 0x8000_0000);
        assert_eq!(w.s[18], 0x1234);
        assert_eq!(w.s64(20), 5);
        assert_eq!(w.s[22], 1, "{mcpu}: scc reads as the SCC of s_and_b64");
        assert_eq!((w.s[23], w.s[24]), (0, 0));
        assert_eq!(w.s[25], 0x3f00_0000);
        assert_eq!(w.s[26], 1 << 16);
    }
}

#[test]
fn cselect_and_final_scc() {
    for mcpu in TARGETS {
        for (cmp, scc) in [("s_cmp_eq_u32 3, 3", true), ("s_cmp_eq_u32 3, 4", false)] {
            let w = run1(
                mcpu,
                &format!(
                    "  s_mov_b32 s10, 7\n  {cmp}\n  s_cselect_b32 s11, s10, 9\n  s_cselect_b64 s[12:13], -1, 0"
                ),
            );
            assert_eq!(w.scc, scc, "{mcpu}: {cmp}");
            assert_eq!(w.s[11], if scc { 7 } else { 9 });
            assert_eq!(w.s64(12), if scc { u64::MAX } else { 0 });
        }
    }
}

#[test]
fn movrels_and_movreld_index_by_m0() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s10, 10
  s_mov_b32 s11, 11
  s_mov_b32 s12, 12
  s_mov_b32 s13, 13
  s_mov_b32 s14, 14
  s_mov_b32 s15, 15
  s_mov_b32 m0, 2
  s_movrels_b32 s20, s10
  s_movrels_b64 s[22:23], s[10:11]
  s_mov_b32 s30, 0x77
  s_movreld_b32 s40, s30
  s_mov_b64 s[32:33], 0x1234
  s_movreld_b64 s[44:45], s[32:33]
  s_mov_b32 m0, 200
  s_mov_b32 s24, 5
  s_movrels_b32 s24, s10
  s_movreld_b32 s10, s30",
        );
        assert_eq!(w.s[20], 12, "{mcpu}");
        assert_eq!(w.s64(22), 12 | 13 << 32);
        assert_eq!(w.s[42], 0x77);
        assert_eq!(w.s[40], 0);
        assert_eq!(w.s64(46), 0x1234);
        assert_eq!(w.s[24], 0, "an index past s101 reads 0");
        assert_eq!(w.s[10], 10, "a write past s101 is dropped");
    }
}

// ---------------------------------------------------------------------------
// Program control

#[test]
fn count_down_loop() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s10, 10
  s_mov_b32 s11, 0
.Lloop:
  s_add_u32 s11, s11, 3
  s_sub_u32 s10, s10, 1
  s_cmp_lg_u32 s10, 0
  s_cbranch_scc1 .Lloop
  s_mov_b32 s12, 0
.Lloop2:
  s_add_u32 s12, s12, 1
  s_cmpk_lt_u32 s12, 5
  s_cbranch_scc0 .Ldone
  s_branch .Lloop2
.Ldone:",
        );
        assert_eq!((w.s[10], w.s[11], w.s[12]), (0, 30, 5), "{mcpu}");
        assert!(!w.scc);
    }
}

#[test]
fn conditional_branches_on_exec_and_vcc() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b64 s[40:41], exec
  s_mov_b64 exec, 0
  s_mov_b32 s10, 1
  s_cbranch_execz .La
  s_mov_b32 s10, 2
.La:
  s_mov_b32 s11, 1
  s_cbranch_execnz .Lb
  s_mov_b32 s11, 2
.Lb:
  s_mov_b64 exec, s[40:41]
  s_mov_b32 s12, 1
  s_cbranch_execz .Lc
  s_mov_b32 s12, 2
.Lc:
  s_mov_b32 s13, 1
  s_cbranch_execnz .Ld
  s_mov_b32 s13, 2
.Ld:
  s_mov_b64 vcc, 0
  s_mov_b32 s14, 1
  s_cbranch_vccz .Le
  s_mov_b32 s14, 2
.Le:
  s_mov_b32 s15, 1
  s_cbranch_vccnz .Lf
  s_mov_b32 s15, 2
.Lf:
  s_mov_b32 vcc_hi, 1
  s_mov_b32 s16, 1
  s_cbranch_vccnz .Lg
  s_mov_b32 s16, 2
.Lg:
  s_mov_b32 s17, 1
  s_cbranch_cdbgsys .Lh
  s_cbranch_cdbguser .Lh
  s_cbranch_cdbgsys_or_user .Lh
  s_cbranch_cdbgsys_and_user .Lh
  s_mov_b32 s17, 2
.Lh:",
        );
        let got = &w.s[10..18];
        assert_eq!(got, &[1, 2, 2, 1, 1, 2, 1, 2], "{mcpu}");
    }
}

#[test]
fn backward_and_forward_branch_offsets() {
    // The branch target is the next instruction + simm16 * 4; raw offsets
    // in both directions.
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s10, 0
  s_branch 1
  s_mov_b32 s10, 1
  s_add_u32 s11, s10, 5
  s_cmp_eq_u32 s10, 0
  s_mov_b32 s10, 3
  s_cbranch_scc1 65532",
        );
        // s_cbranch_scc1 -4 goes back to `s_add_u32`, once.
        assert_eq!((w.s[10], w.s[11]), (3, 8), "{mcpu}");
    }
}

#[test]
fn getpc_setpc_swappc_and_call() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s20, 1
  s_getpc_b64 s[32:33]
  s_mov_b64 s[34:35], s[32:33]
  s_add_u32 s32, s32, 24
  s_addc_u32 s33, s33, 0
  s_swappc_b64 s[30:31], s[32:33]
  s_add_u32 s20, s20, 10
  s_branch .Lafter
  s_mul_i32 s20, s20, 7
  s_setpc_b64 s[30:31]
.Lafter:
  s_call_b64 s[36:37], .Lfunc
  s_add_u32 s21, s20, 0
  s_branch .Lend
.Lfunc:
  s_add_u32 s20, s20, 100
  s_setpc_b64 s[36:37]
.Lend:
  s_getpc_b64 s[40:41]
  s_getpc_b64 s[42:43]",
        );
        // 1 * 7 + 10 = 17, then + 100 in the called function.
        assert_eq!(w.s[20], 117, "{mcpu}");
        assert_eq!(w.s[21], 117);
        // The return address is the instruction after s_swappc_b64: 16
        // bytes past the one after s_getpc_b64.
        assert_eq!(w.s64(30), w.s64(34) + 16);
        assert_eq!(
            w.s64(42),
            w.s64(40) + 4,
            "getpc returns the next instruction"
        );
        // s_call_b64 sits 32 bytes past the s_mov_b64; it returns to the
        // instruction after it.
        assert_eq!(w.s64(36), w.s64(34) + 36);
    }
}

#[test]
fn endpgm_stops_the_wave() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s10, 1\n  s_endpgm\n  s_mov_b32 s10, 2\n  s_trap 2",
        );
        assert_eq!(w.s[10], 1);
        assert!(w.ended);
    }
}

#[test]
fn no_op_instructions() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 s10, 5
  s_cmp_eq_u32 0, 0
  s_nop 7
  s_waitcnt vmcnt(0) lgkmcnt(0)
  s_sleep 2
  s_setprio 3
  s_sethalt 0
  s_setkill 0
  s_wakeup
  s_ttracedata
  s_icache_inv
  s_incperflevel 1
  s_decperflevel 1
  s_sendmsg 1
  s_sendmsghalt 1
  s_barrier
  s_mov_b32 s11, 6",
        );
        assert_eq!((w.s[10], w.s[11]), (5, 6), "{mcpu}");
        assert!(w.scc, "no-ops keep SCC");
        assert!(!w.at_barrier);
    }
}

#[test]
fn barrier_with_several_waves() {
    for mcpu in TARGETS {
        let mem = Arc::new(Memory::new());
        let mut k = AsmKernel::new(mcpu);
        k.group = [192, 1, 1];
        let waves = run_asm(
            &k,
            "  s_mov_b32 s10, 1\n  s_barrier\n  s_mov_b32 s11, 2\n  s_barrier\n  s_getreg_b32 s12, hwreg(HW_REG_HW_ID)",
            &mem,
            &[],
        )
        .unwrap();
        assert_eq!(waves.len(), 3);
        for (i, w) in waves.iter().enumerate() {
            assert_eq!((w.s[10], w.s[11]), (1, 2), "{mcpu} wave {i}");
            assert!(w.ended && !w.at_barrier);
            // SIMD_ID (bits 5:4) = wave index mod 4, WAVE_ID (3:0) = index / 4.
            assert_eq!(w.s[12], (i as u32 % 4) << 4 | (i as u32 / 4));
        }
    }
}

#[test]
fn trap_names_pc_and_instruction() {
    for mcpu in TARGETS {
        let e = run_err(mcpu, "  s_mov_b32 s10, 1\n  s_trap 2");
        assert!(e.contains("s_trap 2") && e.contains("pc 0x"), "{mcpu}: {e}");
    }
}

#[test]
fn unsupported_control_is_a_named_fault() {
    for mcpu in TARGETS {
        let e = run_err(mcpu, "  s_cbranch_join s10");
        assert!(
            e.contains("s_cbranch_join") && e.contains("pc 0x"),
            "{mcpu}: {e}"
        );
        let e = run_err(mcpu, "  s_sethalt 1");
        assert!(e.contains("s_sethalt"), "{mcpu}: {e}");
        let e = run_err(mcpu, "  s_mov_b32 s10, 4\n  s_setvskip s10, 2");
        assert!(e.contains("s_setvskip"), "{mcpu}: {e}");
        // Clearing VSKIP is allowed.
        run1(mcpu, "  s_setvskip 0, 0");
    }
}

#[test]
fn watchdog_stops_a_runaway_loop() {
    for mcpu in TARGETS {
        let e = run_asm_watchdog(&AsmKernel::new(mcpu), ".Ll:\n  s_branch .Ll", 1000).unwrap_err();
        assert!(e.contains("watchdog") && e.contains("1000"), "{mcpu}: {e}");
    }
}

// ---------------------------------------------------------------------------
// Hardware registers

#[test]
fn getreg_and_setreg_of_mode() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_getreg_b32 s10, hwreg(HW_REG_MODE)
  s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xff
  s_getreg_b32 s11, hwreg(HW_REG_MODE)
  s_mov_b32 s20, 0
  s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s20
  s_getreg_b32 s12, hwreg(HW_REG_MODE)
  s_getreg_b32 s13, hwreg(HW_REG_MODE, 8, 2)
  s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 7), 0x15
  s_getreg_b32 s14, hwreg(HW_REG_TRAPSTS)
  s_setreg_imm32_b32 hwreg(HW_REG_HW_ID), 0x12345678",
        );
        let mode0 = w.s[10];
        // llvm-mc's defaults: round to nearest even, f16/f64 denormals kept,
        // DX10 clamp and IEEE on (f32 denormals as the kernel descriptor says).
        assert_eq!(mode0 & !0x30, 0x3c0, "{mcpu}: initial MODE {mode0:#x}");
        assert_eq!(w.s[11], mode0 | 0xf, "only the 4-bit field is written");
        assert_eq!(w.s[12], (mode0 | 0xf) & !0xf0);
        assert_eq!(w.s[13], 3);
        assert_eq!(w.mode, w.s[12]);
        assert_eq!(w.s[14], 0x15);
        assert_eq!(w.trapsts, 0x15);
    }
}

#[test]
fn getreg_of_status_and_fixed_registers() {
    for mcpu in TARGETS {
        let mem = Arc::new(Memory::new());
        let mut k = AsmKernel::new(mcpu);
        k.lds = 1024;
        let w = run_asm(
            &k,
            "  s_cmp_eq_u32 0, 0
  s_mov_b64 vcc, 0
  s_getreg_b32 s10, hwreg(HW_REG_STATUS)
  s_mov_b64 s[30:31], exec
  s_mov_b64 exec, 0
  s_mov_b64 vcc, 1
  s_cmp_eq_u32 0, 1
  s_getreg_b32 s11, hwreg(HW_REG_STATUS)
  s_mov_b64 exec, s[30:31]
  s_getreg_b32 s12, hwreg(HW_REG_SH_MEM_BASES)
  s_getreg_b32 s13, hwreg(HW_REG_SH_MEM_BASES, 16, 16)
  s_lshl_b32 s13, s13, 16
  s_mov_b32 s14, src_shared_base
  s_getreg_b32 s15, hwreg(HW_REG_LDS_ALLOC, 12, 9)
  s_getreg_b32 s16, hwreg(HW_REG_GPR_ALLOC)
  s_getreg_b32 s17, hwreg(HW_REG_IB_STS)
  s_getreg_b32 s18, hwreg(HW_REG_HW_ID)
  s_getreg_b32 s19, hwreg(16)",
            &mem,
            &[],
        )
        .unwrap()
        .remove(0);
        assert_eq!(
            w.s[10] & 0x601,
            0x401,
            "{mcpu}: SCC = 1, VCCZ = 1, EXECZ = 0"
        );
        assert_eq!(
            w.s[11] & 0x601,
            0x200,
            "{mcpu}: SCC = 0, VCCZ = 0, EXECZ = 1"
        );
        assert_eq!(w.s[12], 0x0001_0002);
        assert_eq!(w.s[13], w.s[14], "shared aperture base as LLVM computes it");
        assert_eq!(w.s[15], 4, "1 KiB of LDS in 64-dword granules");
        assert_eq!(w.s[16] >> 8 & 0x3f, 63);
        assert_eq!(w.s[17], 0);
        assert_eq!(w.s[18], 0, "wave 0");
        assert_eq!(w.s[19], 0);
    }
}

#[test]
fn gpr_index_mode_state() {
    for mcpu in TARGETS {
        let w = run1(
            mcpu,
            "  s_mov_b32 m0, 0xabcd0000
  s_mov_b32 s10, 0x1ff
  s_set_gpr_idx_on s10, gpr_idx(SRC0,DST)
  s_getreg_b32 s20, hwreg(HW_REG_MODE)
  s_mov_b32 s21, m0
  s_set_gpr_idx_mode gpr_idx(SRC1)
  s_mov_b32 s22, m0
  s_mov_b32 s11, 0x305
  s_set_gpr_idx_idx s11
  s_mov_b32 s23, m0
  s_set_gpr_idx_off
  s_getreg_b32 s24, hwreg(HW_REG_MODE)",
        );
        assert_eq!(w.s[20] >> 27 & 1, 1, "{mcpu}: GPR_IDX_EN set");
        assert_eq!(w.s[21], 0xabcd_90ff);
        assert_eq!(w.s[22], 0xabcd_20ff);
        assert_eq!(w.s[23], 0xabcd_2005);
        assert_eq!(w.s[24] >> 27 & 1, 0, "GPR_IDX_EN cleared");
        assert_eq!(w.m0(), 0xabcd_2005);
    }
}
