//! The finalizer's integer, bit and compare lowering end to end: each
//! `tests/finalize/int_*.hsail` and `cmp_*.hsail` kernel finalized for
//! gfx90a and gfx900, run on the emulator through `hsakit run` with
//! edge-case inputs, and every result checked against a reference written
//! here from the PRM (chapter 5). These kernels also carry `// test:`
//! headers for the gccbrig differential test; this file covers what
//! gccbrig cannot (`int_mulhi.hsail`: gccbrig-11 crashes on it) and the
//! edge values a random fill never reaches (zero divisors, `-2^(n-1) / -1`,
//! NaN and subnormal operands).
//!
//! Kernel layout (shared by all these kernels): work-item `i` reads four
//! u64 inputs A, B, C, D at `in[32i..]` (`a`, `b`, `c`, `e` are their low
//! dwords) and writes result `k` to `out[256i + 8k]`, 32-bit results in the
//! low half of the slot.

mod common;
use common::Run;

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];
const SLOTS: usize = 32;

/// One work-item's inputs.
#[derive(Clone, Copy, Debug)]
struct In([u64; 4]);

impl In {
    fn a(&self) -> u32 {
        self.0[0] as u32
    }
    fn b(&self) -> u32 {
        self.0[1] as u32
    }
    fn c(&self) -> u32 {
        self.0[2] as u32
    }
    fn e(&self) -> u32 {
        self.0[3] as u32
    }
    fn a64(&self) -> u64 {
        self.0[0]
    }
    fn b64(&self) -> u64 {
        self.0[1]
    }
    fn c64(&self) -> u64 {
        self.0[2]
    }
    fn sa(&self) -> i32 {
        self.a() as i32
    }
    fn sb(&self) -> i32 {
        self.b() as i32
    }
}

/// A reference for one result slot: name and value.
type Ref = (&'static str, fn(&In) -> u64);

/// Runs `file`'s kernel `&name` on `inputs` for `mcpu`; the slots of each
/// work-item.
fn run(file: &str, name: &str, inputs: &[In], mcpu: &str) -> Vec<[u64; SLOTS]> {
    let bytes: Vec<u8> = inputs
        .iter()
        .flat_map(|x| x.0.iter().flat_map(|v| v.to_le_bytes()))
        .collect();
    let path = oracles::workspace_root().join("tests/finalize").join(file);
    let n = inputs.len();
    Run::new(path, name)
        .mcpu(mcpu)
        .threads(2)
        .grid(n)
        .group(64)
        .arg_buf(&bytes)
        .arg_zeros(n * SLOTS * 8)
        .run()[1]
        .chunks(SLOTS * 8)
        .map(|item| {
            let mut s = [0u64; SLOTS];
            for (k, v) in item.chunks(8).enumerate() {
                s[k] = u64::from_le_bytes(v.try_into().unwrap());
            }
            s
        })
        .collect()
}

/// Runs the kernel on both targets and compares every slot with `refs`
/// (slots beyond `refs` must stay 0).
fn check(file: &str, name: &str, inputs: &[In], refs: &[Ref]) {
    assert!(refs.len() <= SLOTS);
    for mcpu in TARGETS {
        let got = run(file, name, inputs, mcpu);
        assert_eq!(got.len(), inputs.len(), "{file} on {mcpu}: output size");
        let mut bad = Vec::new();
        for (x, g) in inputs.iter().zip(&got) {
            for (k, &v) in g.iter().enumerate() {
                let (what, want) = refs.get(k).map_or(("unused slot", 0), |(n, f)| (*n, f(x)));
                if v != want && bad.len() < 20 {
                    bad.push(format!(
                        "  slot {k} ({what}) inputs {:x?}: got {v:#x}, want {want:#x}",
                        x.0
                    ));
                }
            }
        }
        assert!(bad.is_empty(), "{file} on {mcpu}:\n{}", bad.join("\n"));
    }
}

use oracles::mutate::Rng;

/// A value of random magnitude (random bits shifted right, sometimes
/// negated).
fn varied(rng: &mut Rng) -> u64 {
    let v = rng.next_u64() >> (rng.next_u64() % 64);
    if rng.next_u64() & 1 == 0 {
        v
    } else {
        v.wrapping_neg()
    }
}

/// 64-bit values whose low dwords are also the 32-bit edge cases.
const EDGES: [u64; 16] = [
    0,
    1,
    2,
    7,
    31,
    32,
    63,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x1_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    u64::MAX,
    0xffff_ffff_8000_0000,
    0xffff_ffff_ffff_fffe,
];

/// Every pair of [`EDGES`] as (A, B), then random values of varied size.
fn int_inputs() -> Vec<In> {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut v = Vec::new();
    for i in 0..256 {
        let c = EDGES[(i * 7 + 3) % 16];
        v.push(In([EDGES[i / 16], EDGES[i % 16], c, rng.next_u64()]));
    }
    for _ in 0..256 {
        v.push(In([
            varied(&mut rng),
            varied(&mut rng),
            varied(&mut rng),
            rng.next_u64(),
        ]));
    }
    v
}

/// Every pair of `specials` as the low bits of (A, B); `fill` in the rest.
fn float_inputs(specials: &[u64; 16], fill: u64) -> Vec<In> {
    (0..256)
        .map(|i| In([specials[i / 16] | fill, specials[i % 16] | fill, 0, 0]))
        .collect()
}

// ---------------------------------------------------------------- 5.2 ---

/// `div` or `rem` on `bits`-bit operands (C99 truncation; `-2^(n-1) /
/// -1` wraps and its remainder is 0, as the PRM says). Division by zero,
/// undefined in the PRM, is this finalizer's choice: the remainder is the
/// dividend, the quotient all ones for unsigned operands and, for signed
/// ones, the all-ones quotient of the magnitudes given the dividend's sign
/// reversed (-1 for a dividend >= 0, 1 below 0).
fn divrem(bits: u32, signed: bool, rem: bool, a: u64, b: u64) -> u64 {
    let value = |v: u64| {
        let v = i128::from(v & ones(bits));
        if signed && v >> (bits - 1) == 1 {
            v - (1i128 << bits)
        } else {
            v
        }
    };
    let (a, b) = (value(a), value(b));
    let r = match (b, rem) {
        (0, true) => a,
        (0, false) if signed && a < 0 => 1,
        (0, false) => -1,
        (_, true) => a % b,
        (_, false) => a / b,
    };
    r as u64 & ones(bits)
}

fn udiv32(a: u32, b: u32) -> u32 {
    divrem(32, false, false, u(a), u(b)) as u32
}

fn urem32(a: u32, b: u32) -> u32 {
    divrem(32, false, true, u(a), u(b)) as u32
}

fn sdiv32(a: i32, b: i32) -> u32 {
    divrem(32, true, false, a as u64, b as u64) as u32
}

fn srem32(a: i32, b: i32) -> u32 {
    divrem(32, true, true, a as u64, b as u64) as u32
}

fn udiv64(a: u64, b: u64) -> u64 {
    divrem(64, false, false, a, b)
}

fn urem64(a: u64, b: u64) -> u64 {
    divrem(64, false, true, a, b)
}

fn sdiv64(a: i64, b: i64) -> u64 {
    divrem(64, true, false, a as u64, b as u64)
}

fn srem64(a: i64, b: i64) -> u64 {
    divrem(64, true, true, a as u64, b as u64)
}

fn u(v: u32) -> u64 {
    u64::from(v)
}

fn bit(v: bool) -> u64 {
    u64::from(v)
}

#[test]
fn int_ops32() {
    let refs: &[Ref] = &[
        ("add_u32", |x| u(x.a().wrapping_add(x.b()))),
        ("sub_s32", |x| u(x.a().wrapping_sub(x.b()))),
        ("mul_u32", |x| u(x.a().wrapping_mul(x.b()))),
        ("mad_u32", |x| {
            u(x.a().wrapping_mul(x.b()).wrapping_add(x.c()))
        }),
        ("div_u32", |x| u(udiv32(x.a(), x.b()))),
        ("rem_u32", |x| u(urem32(x.a(), x.b()))),
        ("div_s32", |x| u(sdiv32(x.sa(), x.sb()))),
        ("rem_s32", |x| u(srem32(x.sa(), x.sb()))),
        ("min_u32", |x| u(x.a().min(x.b()))),
        ("max_u32", |x| u(x.a().max(x.b()))),
        ("min_s32", |x| u(x.sa().min(x.sb()) as u32)),
        ("max_s32", |x| u(x.sa().max(x.sb()) as u32)),
        ("neg_s32", |x| u(x.sa().wrapping_neg() as u32)),
        ("abs_s32", |x| u(x.sa().wrapping_abs() as u32)),
        ("carry_u32", |x| bit(x.a().checked_add(x.b()).is_none())),
        ("borrow_s32", |x| bit(x.a() < x.b())),
        ("shl_u32", |x| u(x.a() << (x.b() & 31))),
        ("shr_u32", |x| u(x.a() >> (x.b() & 31))),
        ("shr_s32", |x| u((x.sa() >> (x.b() & 31)) as u32)),
        ("div_u32 7", |x| u(x.a() / 7)),
        ("rem_s32 -1000003", |x| u(srem32(x.sa(), -1_000_003))),
        ("div_s32 -123456789", |x| u(sdiv32(-123_456_789, x.sb()))),
        ("mul_s32 1000003", |x| u(x.a().wrapping_mul(1_000_003))),
        ("mad_s32 -3 100000", |x| {
            u(x.sa().wrapping_mul(-3).wrapping_add(100_000) as u32)
        }),
        ("shl_s32 33", |x| u(x.a() << 1)),
        ("shr_u32 0x80000000", |x| u(0x8000_0000u32 >> (x.b() & 31))),
        ("not_b32", |x| u(!x.a())),
        ("rem_u32 0x10000", |x| u(x.a() % 0x10000)),
        ("borrow_u32 5", |x| bit(5 < x.a())),
        ("carry_s32 0xfffffff0", |x| {
            bit(x.a().checked_add(0xffff_fff0).is_none())
        }),
        ("abs_s32 -2^31", |_| 0x8000_0000),
        ("mov_b32", |x| u(x.b())),
    ];
    check("int_ops32.hsail", "&int_ops32", &int_inputs(), refs);
}

/// References for `int_ops64.hsail`.
const OPS64: &[Ref] = &[
    ("add_u64", |x| x.a64().wrapping_add(x.b64())),
    ("sub_s64", |x| x.a64().wrapping_sub(x.b64())),
    ("mul_u64", |x| x.a64().wrapping_mul(x.b64())),
    ("mad_u64", |x| {
        x.a64().wrapping_mul(x.b64()).wrapping_add(x.c64())
    }),
    ("div_u64", |x| udiv64(x.a64(), x.b64())),
    ("rem_u64", |x| urem64(x.a64(), x.b64())),
    ("div_s64", |x| sdiv64(x.a64() as i64, x.b64() as i64)),
    ("rem_s64", |x| srem64(x.a64() as i64, x.b64() as i64)),
    ("min_u64", |x| x.a64().min(x.b64())),
    ("max_u64", |x| x.a64().max(x.b64())),
    ("min_s64", |x| (x.a64() as i64).min(x.b64() as i64) as u64),
    ("max_s64", |x| (x.a64() as i64).max(x.b64() as i64) as u64),
    ("neg_s64", |x| x.a64().wrapping_neg()),
    ("abs_s64", |x| (x.a64() as i64).wrapping_abs() as u64),
    ("carry_u64", |x| bit(x.a64().checked_add(x.b64()).is_none())),
    ("borrow_s64", |x| bit(x.a64() < x.b64())),
    ("shl_u64", |x| x.a64() << (x.b() & 63)),
    ("shr_u64", |x| x.a64() >> (x.b() & 63)),
    ("shr_s64", |x| ((x.a64() as i64) >> (x.b() & 63)) as u64),
    ("div_u64 7", |x| x.a64() / 7),
    ("rem_s64 -1000003", |x| srem64(x.a64() as i64, -1_000_003)),
    ("div_s64 -123456789012345", |x| {
        sdiv64(-123_456_789_012_345, x.b64() as i64)
    }),
    ("mul_s64 0x233412349456", |x| {
        x.a64().wrapping_mul(0x2334_1234_9456)
    }),
    ("mad_s64 -3 0x233412349456", |x| {
        (x.a64() as i64)
            .wrapping_mul(-3)
            .wrapping_add(0x2334_1234_9456) as u64
    }),
    ("shl_s64 65", |x| x.a64() << 1),
    ("shr_s64 0x8000000000000000", |x| {
        (i64::MIN >> (x.b() & 63)) as u64
    }),
    ("not_b64", |x| !x.a64()),
    ("div_u64 by u32", |x| udiv64(x.a64(), u(x.c()))),
    ("rem_s64 by u32", |x| {
        srem64(x.a64() as i64, i64::from(x.c()))
    }),
    ("div_u64 by B>>17", |x| udiv64(x.a64(), x.b64() >> 17)),
    ("borrow_u64 5", |x| bit(5 < x.a64())),
    ("mov_b64", |x| x.b64()),
];

#[test]
fn int_ops64() {
    check("int_ops64.hsail", "&int_ops64", &int_inputs(), OPS64);
}

// ------------------------------------------------------------ 5.6, 5.7 ---

/// All ones in the low `len` bits.
fn ones(len: u32) -> u64 {
    if len == 64 { u64::MAX } else { (1 << len) - 1 }
}

/// `bitextract` pseudocode of §5.7 on a `len`-bit operand.
fn bitextract(len: u32, signed: bool, src: u64, off: u32, width: u32) -> u64 {
    let (off, width) = (off & (len - 1), width & (len - 1));
    if width == 0 {
        return 0;
    }
    let top = (src << (64 - len)) << (len - width - off);
    let v = if signed {
        ((top as i64) >> (64 - width)) as u64
    } else {
        top >> (64 - width)
    };
    v & ones(len)
}

/// `bitinsert` pseudocode of §5.7.
fn bitinsert(len: u32, src0: u64, src1: u64, off: u32, width: u32) -> u64 {
    let (off, width) = (off & (len - 1), width & (len - 1));
    let mask = (1u64 << width) - 1;
    ((src0 & !(mask << off)) | ((src1 & mask) << off)) & ones(len)
}

/// `bitmask` pseudocode of §5.7.
fn bitmask(len: u32, off: u32, width: u32) -> u64 {
    let (off, width) = (off & (len - 1), width & (len - 1));
    (((1u64 << width) - 1) << off) & ones(len)
}

/// `popcount` pseudocode of §5.6.
fn popcount(mut a: u64) -> u64 {
    let mut d = 0;
    while a != 0 {
        d += a & 1;
        a >>= 1;
    }
    d
}

/// `firstbit_u` pseudocode of §5.7 on a `len`-bit value (-1 as u32).
fn firstbit_u(len: u32, a: u64) -> u64 {
    if a == 0 {
        return u(u32::MAX);
    }
    let mut pos = 0;
    let mut a = a << (64 - len);
    while (a as i64) > 0 {
        a <<= 1;
        pos += 1;
    }
    pos
}

/// `firstbit_s`: negative values complemented first.
fn firstbit_s(len: u32, a: u64) -> u64 {
    let negative = (a >> (len - 1)) & 1 == 1;
    firstbit_u(len, if negative { !a & ones(len) } else { a })
}

/// `lastbit` pseudocode of §5.7 (-1 as u32).
fn lastbit(a: u64) -> u64 {
    if a == 0 {
        return u(u32::MAX);
    }
    let (mut a, mut pos) = (a, 0);
    while a & 1 != 1 {
        a >>= 1;
        pos += 1;
    }
    pos
}

/// `bitrev` on `len` bits.
fn bitrev(len: u32, a: u64) -> u64 {
    (0..len).fold(0, |d, i| d | (((a >> i) & 1) << (len - 1 - i)))
}

/// The kernels' in-range offset and width from `e`: offset `e & (len-1)`,
/// width `min((e >> 8) & (len-1), len - offset)`.
fn field(len: u32, e: u32) -> (u32, u32) {
    let off = e & (len - 1);
    (off, ((e >> 8) & (len - 1)).min(len - off))
}

#[test]
fn int_bits32() {
    let refs: &[Ref] = &[
        ("and_b32", |x| u(x.a() & x.b())),
        ("or_b32", |x| u(x.a() | x.b())),
        ("xor_b32", |x| u(x.a() ^ x.b())),
        ("not_b32", |x| u(!x.a())),
        ("popcount_u32_b32", |x| popcount(u(x.a()))),
        ("firstbit_u32_u32", |x| firstbit_u(32, u(x.a()))),
        ("firstbit_u32_s32", |x| firstbit_s(32, u(x.a()))),
        ("lastbit_u32_u32", |x| lastbit(u(x.a()))),
        ("lastbit_u32_s32", |x| lastbit(u(x.a()))),
        ("bitrev_b32", |x| bitrev(32, u(x.a()))),
        ("bitselect_b32", |x| u((x.b() & x.a()) | (x.c() & !x.a()))),
        ("bitmask_b32", |x| {
            let (o, w) = field(32, x.e());
            bitmask(32, o, w)
        }),
        ("bitextract_u32", |x| {
            let (o, w) = field(32, x.e());
            bitextract(32, false, u(x.c()), o, w)
        }),
        ("bitextract_s32", |x| {
            let (o, w) = field(32, x.e());
            bitextract(32, true, u(x.c()), o, w)
        }),
        ("bitinsert_u32", |x| {
            let (o, w) = field(32, x.e());
            bitinsert(32, u(x.a()), u(x.b()), o, w)
        }),
        ("bitinsert_s32", |x| {
            let (o, w) = field(32, x.e());
            bitinsert(32, u(x.b()), u(x.a()), o, w)
        }),
        ("bitextract_u32 width 0", |_| 0),
        ("bitextract_s32 4 28", |x| {
            bitextract(32, true, u(x.a()), 4, 28)
        }),
        ("bitinsert_u32 0x12345 8 12", |x| {
            bitinsert(32, u(x.a()), 0x12345, 8, 12)
        }),
        ("bitmask_b32 5 0", |_| 0),
        ("bitselect_b32 0xff00ff00", |x| {
            u((x.a() & 0xff00_ff00) | (x.b() & 0x00ff_00ff))
        }),
        ("popcount 0xffff0f00 (PRM table)", |_| 20),
        ("firstbit 0x01ffffff (PRM)", |_| 7),
        ("bitrev 0x12345678 (PRM)", |_| 0x1e6a_2c48),
    ];
    check("int_bits32.hsail", "&int_bits32", &int_inputs(), refs);
}

#[test]
fn int_bits64() {
    let refs: &[Ref] = &[
        ("and_b64", |x| x.a64() & x.b64()),
        ("or_b64", |x| x.a64() | x.b64()),
        ("xor_b64", |x| x.a64() ^ x.b64()),
        ("not_b64", |x| !x.a64()),
        ("popcount_u32_b64", |x| popcount(x.a64())),
        ("firstbit_u32_u64", |x| firstbit_u(64, x.a64())),
        ("firstbit_u32_s64", |x| firstbit_s(64, x.a64())),
        ("lastbit_u32_u64", |x| lastbit(x.a64())),
        ("lastbit_u32_s64", |x| lastbit(x.a64())),
        ("bitrev_b64", |x| bitrev(64, x.a64())),
        ("bitselect_b64", |x| {
            (x.b64() & x.a64()) | (x.c64() & !x.a64())
        }),
        ("bitmask_b64", |x| {
            let (o, w) = field(64, x.e());
            bitmask(64, o, w)
        }),
        ("bitextract_u64", |x| {
            let (o, w) = field(64, x.e());
            bitextract(64, false, x.c64(), o, w)
        }),
        ("bitextract_s64", |x| {
            let (o, w) = field(64, x.e());
            bitextract(64, true, x.c64(), o, w)
        }),
        ("bitinsert_u64", |x| {
            let (o, w) = field(64, x.e());
            bitinsert(64, x.a64(), x.b64(), o, w)
        }),
        ("bitinsert_s64", |x| {
            let (o, w) = field(64, x.e());
            bitinsert(64, x.b64(), x.a64(), o, w)
        }),
        ("bitextract_u64 width 0", |_| 0),
        ("bitextract_s64 20 44", |x| {
            bitextract(64, true, x.a64(), 20, 44)
        }),
        ("bitinsert_u64 0x12345 30 12", |x| {
            bitinsert(64, x.a64(), 0x12345, 30, 12)
        }),
        ("bitmask_b64 40 24", |_| bitmask(64, 40, 24)),
        ("bitselect_b64 const", |x| {
            (x.a64() & 0xff00_ff00_ff00_ff00) | (x.b64() & 0x00ff_00ff_00ff_00ff)
        }),
        ("popcount const", |_| 52),
        ("firstbit_u32_s64 -2", |_| 63),
        ("bitrev_b64 0x234", |_| bitrev(64, 0x234)),
        ("lastbit 2^32", |_| 32),
        ("firstbit_u32_u64 A>>40", |x| firstbit_u(64, x.a64() >> 40)),
        ("lastbit_u32_u64 A<<40", |x| lastbit(x.a64() << 40)),
        ("firstbit_u32_s64 A>>s40", |x| {
            firstbit_s(64, ((x.a64() as i64) >> 40) as u64)
        }),
    ];
    check("int_bits64.hsail", "&int_bits64", &int_inputs(), refs);
}

// ---------------------------------------------------------------- 5.4 ---

/// The 24-bit sources the kernels make: low 24 bits, unsigned and signed.
fn u24(v: u32) -> u64 {
    u(v & 0xff_ffff)
}

fn s24(v: u32) -> i64 {
    i64::from(((v << 8) as i32) >> 8)
}

#[test]
fn int_24() {
    let refs: &[Ref] = &[
        ("mul24_u32", |x| u((u24(x.a()) * u24(x.b())) as u32)),
        ("mul24_s32", |x| u((s24(x.a()) * s24(x.b())) as u32)),
        ("mad24_u32", |x| {
            u(((u24(x.a()) * u24(x.b())) as u32).wrapping_add(x.c()))
        }),
        ("mad24_s32", |x| {
            u(((s24(x.a()) * s24(x.b())) as u32).wrapping_add(x.c()))
        }),
        ("mul24_s32 -12", |x| u((s24(x.a()) * -12) as u32)),
        ("mad24_u32 12 2", |x| u((u24(x.a()) * 12 + 2) as u32)),
        ("mad24_s32 -12 23", |x| u((s24(x.a()) * -12 + 23) as u32)),
        ("mul24_u32 0xffffff", |x| u((0xff_ffff * u24(x.b())) as u32)),
    ];
    check("int_24.hsail", "&int_24", &int_inputs(), refs);
}

/// `mulhi_u64` / `mulhi_s64`: the high half of the 128-bit product.
fn mulhi_u64(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

fn mulhi_s64(a: u64, b: u64) -> u64 {
    ((i128::from(a as i64) * i128::from(b as i64)) >> 64) as u64
}

/// `mul24hi`: bits 47..32 of the 48-bit product, extended by type.
fn mul24hi_u(a: u32, b: u32) -> u32 {
    ((u24(a) * u24(b)) >> 32) as u32
}

fn mul24hi_s(a: u32, b: i64) -> u32 {
    ((s24(a) * b) >> 32) as u32
}

#[test]
fn int_mulhi() {
    let refs: &[Ref] = &[
        ("mulhi_u32", |x| (u(x.a()) * u(x.b())) >> 32),
        ("mulhi_s32", |x| {
            u(((i64::from(x.sa()) * i64::from(x.sb())) >> 32) as u32)
        }),
        ("mulhi_u64", |x| mulhi_u64(x.a64(), x.b64())),
        ("mulhi_s64", |x| mulhi_s64(x.a64(), x.b64())),
        ("mul24hi_u32", |x| u(mul24hi_u(x.a(), x.b()))),
        ("mul24hi_s32", |x| u(mul24hi_s(x.a(), s24(x.b())))),
        ("mad24hi_u32", |x| {
            u(mul24hi_u(x.a(), x.b()).wrapping_add(x.c()))
        }),
        ("mad24hi_s32", |x| {
            u(mul24hi_s(x.a(), s24(x.b())).wrapping_add(x.c()))
        }),
        ("mulhi_u64 const", |x| mulhi_u64(x.a64(), 0x2334_1234_9456)),
        ("mulhi_s64 -7", |x| mulhi_s64(x.a64(), -7i64 as u64)),
        ("mulhi_s32 -7", |x| {
            u(((i64::from(x.sa()) * -7) >> 32) as u32)
        }),
        ("mad24hi_s32 -12 23", |x| {
            u(mul24hi_s(x.a(), -12).wrapping_add(23))
        }),
        ("mulhi_u64 A*A", |x| mulhi_u64(x.a64(), x.a64())),
        ("mulhi_s64 B*B", |x| mulhi_s64(x.b64(), x.b64())),
    ];
    check("int_mulhi.hsail", "&int_mulhi", &int_inputs(), refs);
}

// --------------------------------------------------- 5.6, 5.8, 5.10 (b1) ---

/// The kernel's control registers: `$c0 = a <u b`, `$c1` = bit 0 of B,
/// `$c2` = bit 0 of C.
fn conds(x: &In) -> (bool, bool, bool) {
    (x.a() < x.b(), x.b() & 1 == 1, x.c() & 1 == 1)
}

#[test]
fn int_b1() {
    let refs: &[Ref] = &[
        ("cmov_b32", |x| u(if conds(x).0 { x.a() } else { x.b() })),
        ("and_b1", |x| bit(conds(x).0 & conds(x).1)),
        ("or_b1", |x| bit(conds(x).0 | conds(x).1)),
        ("xor_b1", |x| bit(conds(x).1 ^ conds(x).2)),
        ("not_b1", |x| bit(!conds(x).0)),
        ("mov_b1", |x| bit(conds(x).2)),
        ("cmov_b1", |x| {
            let (c0, c1, c2) = conds(x);
            bit(if c0 { c1 } else { c2 })
        }),
        ("cmov_b64", |x| if conds(x).1 { x.a64() } else { x.b64() }),
        ("combine_v2_b64_b32", |x| (u(x.b()) << 32) | u(x.a())),
        ("expand dest0", |x| x.c64() & 0xffff_ffff),
        ("expand dest1", |x| x.c64() >> 32),
        ("cmp_eq_b1_b1", |x| bit(conds(x).0 == conds(x).1)),
        ("cmp_ne_u32_b1", |x| {
            if conds(x).1 != conds(x).2 {
                u(u32::MAX)
            } else {
                0
            }
        }),
        ("cmp_eq_b1_b1 1", |x| bit(conds(x).2)),
        ("and_b1 1", |x| bit(conds(x).0)),
        ("mov_b1 1", |_| 1),
        ("cmov_b32 literals", |x| {
            if conds(x).0 {
                0x1234_5678
            } else {
                u(-5i32 as u32)
            }
        }),
        ("combine constants", |x| (u(x.c()) << 32) | 0x89ab_cdef),
        ("cmov_b64 constant", |x| {
            if conds(x).2 {
                0x0123_4567_89ab_cdef
            } else {
                x.b64()
            }
        }),
        ("xor_b1 1", |x| bit(!conds(x).1)),
    ];
    check("int_b1.hsail", "&int_b1", &int_inputs(), refs);
}

// --------------------------------------------------------------- 5.18 ---

/// The value `cmp` writes for `v` into a destination of type `t` (Table
/// 5-25; `b1` results are stored as 1/0 by the kernels' `cmov`).
fn dest(t: &str, v: bool) -> u64 {
    if !v {
        return 0;
    }
    match t {
        "b1" => 1,
        "u32" | "s32" => 0xffff_ffff,
        "u64" | "s64" => u64::MAX,
        "f16" => 0x3c00,
        "f32" => 0x3f80_0000,
        "f64" => 0x3ff0_0000_0000_0000,
        _ => unreachable!("{t}"),
    }
}

/// Destination types of `cmp_int.hsail`'s first 24 slots, by slot % 7.
const INT_DESTS: [&str; 7] = ["b1", "u32", "s32", "u64", "s64", "f32", "f64"];

/// Integer relation `op` (eq … ge).
fn int_rel(op: usize, o: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    [
        o == Equal,
        o != Equal,
        o == Less,
        o != Greater,
        o == Greater,
        o != Less,
    ][op]
}

#[test]
fn cmp_int() {
    let inputs = int_inputs();
    for mcpu in TARGETS {
        let got = run("cmp_int.hsail", "&cmp_int", &inputs, mcpu);
        for (x, g) in inputs.iter().zip(&got) {
            let orders = [
                x.a().cmp(&x.b()),
                x.sa().cmp(&x.sb()),
                x.a64().cmp(&x.b64()),
                (x.a64() as i64).cmp(&(x.b64() as i64)),
            ];
            let mut want = [0u64; SLOTS];
            for slot in 0..24 {
                let v = int_rel(slot % 6, orders[slot / 6]);
                want[slot] = dest(INT_DESTS[slot % 7], v);
            }
            want[24] = dest("b1", x.sa() < -5);
            want[25] = dest("u32", x.a64() >= 0x8000_0000_0000_0000);
            want[26] = dest("u64", true);
            want[27] = dest("f64", -1 > x.b64() as i64);
            assert_eq!(g, &want, "cmp_int on {mcpu}, inputs {:x?}", x.0);
        }
    }
}

/// The IEEE relation of two values: 0 less, 1 equal, 2 greater, 3
/// unordered.
fn relation(a: f64, b: f64) -> usize {
    match a.partial_cmp(&b) {
        Some(std::cmp::Ordering::Less) => 0,
        Some(std::cmp::Ordering::Equal) => 1,
        Some(std::cmp::Ordering::Greater) => 2,
        None => 3,
    }
}

/// The float comparisons in the kernels' order with their true relations
/// (Table 5-26) as bit sets of [`relation`].
const FLOAT_OPS: [u8; 14] = [
    0b0010, // eq
    0b0101, // ne
    0b0001, // lt
    0b0011, // le
    0b0100, // gt
    0b0110, // ge
    0b1010, // equ
    0b1101, // neu
    0b1001, // ltu
    0b1011, // leu
    0b1100, // gtu
    0b1110, // geu
    0b0111, // num
    0b1000, // nan
];

/// A float format: its specials and decoding of the low bits of a slot.
struct Format {
    name: &'static str,
    specials: [u64; 16],
    /// Set in the bits above the format in each input (the PRM: f16
    /// compares ignore the upper 16 bits).
    fill: u64,
    decode: fn(u64) -> f64,
    subnormal: fn(u64) -> bool,
}

fn f16_to_f64(h: u64) -> f64 {
    let h = h as u16;
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let man = f64::from(h & 0x3ff);
    sign * match exp {
        0 => man * 2f64.powi(-24),
        31 if man == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + man / 1024.0) * 2f64.powi(exp - 15),
    }
}

const F32: Format = Format {
    name: "f32",
    specials: [
        0,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x3fc0_0000,
        0x0000_0001,
        0x807f_ffff,
        0x0080_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7fa0_0000,
        0xffc0_0001,
        0x7f7f_ffff,
        0x0040_0000,
        0x4000_0000,
    ],
    fill: 0,
    decode: |v| f64::from(f32::from_bits(v as u32)),
    subnormal: |v| (v as u32) & 0x7f80_0000 == 0 && (v as u32) & 0x007f_ffff != 0,
};

const F64: Format = Format {
    name: "f64",
    specials: [
        0,
        0x8000_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x3ff8_0000_0000_0000,
        1,
        0x800f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff4_0000_0000_0000,
        0xfff8_0000_0000_0001,
        0x7fef_ffff_ffff_ffff,
        0x0008_0000_0000_0000,
        0x4000_0000_0000_0000,
    ],
    fill: 0,
    decode: f64::from_bits,
    subnormal: |v| v & 0x7ff0_0000_0000_0000 == 0 && v & 0x000f_ffff_ffff_ffff != 0,
};

const F16: Format = Format {
    name: "f16",
    specials: [
        0, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0x0001, 0x83ff, 0x0400, 0x7c00, 0xfc00, 0x7e00, 0x7d00,
        0xfe01, 0x7bff, 0x0200, 0x4000,
    ],
    fill: 0xdead_0000,
    decode: f16_to_f64,
    subnormal: |v| v & 0x7c00 == 0 && v & 0x03ff != 0,
};

/// Whether float comparison `op` (index into [`FLOAT_OPS`]) holds.
fn float_cmp(f: &Format, op: usize, a: u64, b: u64, ftz: bool) -> bool {
    let value = |v: u64| {
        if ftz && (f.subnormal)(v) {
            0.0
        } else {
            (f.decode)(v)
        }
    };
    FLOAT_OPS[op] >> relation(value(a), value(b)) & 1 == 1
}

/// `cmp_<t>.hsail`: slots 0–13 every quiet comparison to `b1`, 14–27 the
/// signaling forms to u32/s64/f32/f64 in turn, 28 `lt` to f16 (f16
/// sources) or f32.
fn check_float_cmp(f: &Format) {
    let inputs = float_inputs(&f.specials, f.fill);
    let file = format!("cmp_{}.hsail", f.name);
    for mcpu in TARGETS {
        let got = run(&file, &format!("&cmp_{}", f.name), &inputs, mcpu);
        for (x, g) in inputs.iter().zip(&got) {
            let (a, b) = (x.0[0], x.0[1]);
            let mut want = [0u64; SLOTS];
            for op in 0..14 {
                want[op] = dest("b1", float_cmp(f, op, a, b, false));
                let t = ["u32", "s64", "f32", "f64"][op % 4];
                want[14 + op] = dest(t, float_cmp(f, op, a, b, false));
            }
            let t = if f.name == "f16" { "f16" } else { "f32" };
            want[28] = dest(t, float_cmp(f, 2, a, b, false));
            assert_eq!(g, &want, "{file} on {mcpu}, inputs {a:#x} {b:#x}");
        }
        let file = format!("cmp_{}_ftz.hsail", f.name);
        let got = run(&file, &format!("&cmp_{}_ftz", f.name), &inputs, mcpu);
        for (x, g) in inputs.iter().zip(&got) {
            let (a, b) = (x.0[0], x.0[1]);
            let mut want = [0u64; SLOTS];
            let fd = if f.name == "f16" { "f16" } else { "f32" };
            for op in 0..14 {
                let t = ["b1", "u32", "s64", fd][op % 4];
                want[op] = dest(t, float_cmp(f, op, a, b, true));
            }
            assert_eq!(g, &want, "{file} on {mcpu}, inputs {a:#x} {b:#x}");
        }
    }
}

#[test]
fn cmp_f32() {
    check_float_cmp(&F32);
}

#[test]
fn cmp_f64() {
    check_float_cmp(&F64);
}

#[test]
fn cmp_f16() {
    check_float_cmp(&F16);
}

/// Dividends and divisors around powers of two and of every size, for the
/// 64-bit division's reciprocal estimate and corrections.
fn division_inputs() -> Vec<In> {
    let mut rng = Rng::new(0x0123_4567_89ab_cdef);
    let mut v = Vec::new();
    for k in 0..64u32 {
        for delta in [0u64, 1, 2, 3, u64::MAX, u64::MAX - 1] {
            let d = (1u64 << k).wrapping_add(delta);
            let n = rng.next_u64();
            let small = rng.next_u64() >> (rng.next_u64() % 64);
            v.push(In([n, d, small, 0]));
            v.push(In([
                u64::MAX - (rng.next_u64() % 4),
                d,
                d.wrapping_mul(3),
                0,
            ]));
            v.push(In([d.wrapping_mul(small), small, d, 0]));
        }
    }
    for _ in 0..1024 {
        v.push(In([
            varied(&mut rng),
            varied(&mut rng),
            varied(&mut rng),
            0,
        ]));
    }
    v
}

#[test]
fn int_ops64_division_stress() {
    check("int_ops64.hsail", "&int_ops64", &division_inputs(), OPS64);
}

// -------------------------------------------------------- packed (4.14) ---

/// Element `i` of a packed value (`w`-bit elements), extended by type.
fn lane(v: u64, i: u32, w: u32, signed: bool) -> i128 {
    let raw = i128::from((v >> (i * w)) & ones(w));
    if signed && raw >> (w - 1) == 1 {
        raw - (1 << w)
    } else {
        raw
    }
}

/// A packed operation per §4.14: `ctl` is the packing control (`pp`,
/// `ps`, `sp`, `ss`, `p`, `s`); `ss`/`s` write element 0 only and keep the
/// rest of `old`; `sat` clamps to the element range, otherwise results
/// wrap.
#[allow(clippy::too_many_arguments)]
fn packed(
    (w, n, signed): (u32, u32, bool),
    ctl: &str,
    sat: bool,
    a: u64,
    b: u64,
    old: u64,
    f: impl Fn(i128, i128) -> i128,
) -> u64 {
    let (sa, sb) = match ctl {
        "ps" => (false, true),
        "sp" => (true, false),
        "ss" | "s" => (true, true),
        _ => (false, false),
    };
    let low_only = sa && sb;
    let (min, max) = if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let mut out = if low_only { old } else { 0 };
    for i in 0..if low_only { 1 } else { n } {
        let x = lane(a, if sa { 0 } else { i }, w, signed);
        let y = lane(b, if sb { 0 } else { i }, w, signed);
        let mut r = f(x, y);
        if sat {
            r = r.clamp(min, max);
        }
        out = (out & !(ones(w) << (i * w))) | ((r as u64 & ones(w)) << (i * w));
    }
    out & ones(w * n)
}

/// `cmov` on packed types: element of `c` nonzero → element of `a`.
fn packed_cmov((w, n): (u32, u32), c: u64, a: u64, b: u64) -> u64 {
    (0..n).fold(0, |out, i| {
        let m = ones(w) << (i * w);
        out | if c & m != 0 { a & m } else { b & m }
    })
}

/// Packed shifts: every element by `amount` modulo the element width.
fn packed_shift((w, n, signed): (u32, u32, bool), left: bool, a: u64, amount: u32) -> u64 {
    let k = amount & (w - 1);
    packed((w, n, signed), "pp", false, a, 0, 0, |x, _| {
        if left { x << k } else { x >> k }
    })
}

const U8X4: (u32, u32, bool) = (8, 4, false);
const S8X4: (u32, u32, bool) = (8, 4, true);
const U16X2: (u32, u32, bool) = (16, 2, false);
const S16X2: (u32, u32, bool) = (16, 2, true);
const U8X8: (u32, u32, bool) = (8, 8, false);
const S8X8: (u32, u32, bool) = (8, 8, true);
const U16X4: (u32, u32, bool) = (16, 4, false);
const S16X4: (u32, u32, bool) = (16, 4, true);
const U32X2: (u32, u32, bool) = (32, 2, false);
const S32X2: (u32, u32, bool) = (32, 2, true);

fn add(x: i128, y: i128) -> i128 {
    x + y
}
fn sub(x: i128, y: i128) -> i128 {
    x - y
}
fn mul(x: i128, y: i128) -> i128 {
    x * y
}

/// `mulhi` on `w`-bit elements: the high half of the 2w-bit product.
fn mulhi(w: u32) -> impl Fn(i128, i128) -> i128 {
    move |x, y| (x * y) >> w
}

#[test]
fn pk_ops32() {
    let refs: &[Ref] = &[
        ("add_pp_u8x4", |x| {
            packed(U8X4, "pp", false, x.a64(), x.b64(), 0, add)
        }),
        ("add_pp_sat_u8x4", |x| {
            packed(U8X4, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("add_pp_sat_s8x4", |x| {
            packed(S8X4, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_pp_sat_u8x4", |x| {
            packed(U8X4, "pp", true, x.a64(), x.b64(), 0, sub)
        }),
        ("sub_ps_sat_s8x4", |x| {
            packed(S8X4, "ps", true, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_u8x4", |x| {
            packed(U8X4, "pp", false, x.a64(), x.b64(), 0, mul)
        }),
        ("mul_pp_sat_s8x4", |x| {
            packed(S8X4, "pp", true, x.a64(), x.b64(), 0, mul)
        }),
        ("mulhi_pp_u8x4", |x| {
            packed(U8X4, "pp", false, x.a64(), x.b64(), 0, mulhi(8))
        }),
        ("mulhi_pp_s8x4", |x| {
            packed(S8X4, "pp", false, x.a64(), x.b64(), 0, mulhi(8))
        }),
        ("min_pp_s8x4", |x| {
            packed(S8X4, "pp", false, x.a64(), x.b64(), 0, i128::min)
        }),
        ("max_ss_u8x4", |x| {
            packed(U8X4, "ss", false, x.a64(), x.b64(), u(x.c()), i128::max)
        }),
        ("abs_p_s8x4", |x| {
            packed(S8X4, "p", false, x.a64(), 0, 0, |v, _| v.abs())
        }),
        ("neg_s_s8x4", |x| {
            packed(S8X4, "s", false, x.a64(), 0, u(x.c()), |v, _| -v)
        }),
        ("shl_u8x4", |x| packed_shift(U8X4, true, x.a64(), x.b())),
        ("shr_s8x4", |x| packed_shift(S8X4, false, x.a64(), x.b())),
        ("shr_u8x4", |x| packed_shift(U8X4, false, x.a64(), x.b())),
        ("cmov_u8x4", |x| {
            packed_cmov((8, 4), u(x.c()), u(x.a()), u(x.b()))
        }),
        ("add_pp_u16x2", |x| {
            packed(U16X2, "pp", false, x.a64(), x.b64(), 0, add)
        }),
        ("add_pp_sat_s16x2", |x| {
            packed(S16X2, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_sp_sat_u16x2", |x| {
            packed(U16X2, "sp", true, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_sat_u16x2", |x| {
            packed(U16X2, "pp", true, x.a64(), x.b64(), 0, mul)
        }),
        ("mulhi_pp_s16x2", |x| {
            packed(S16X2, "pp", false, x.a64(), x.b64(), 0, mulhi(16))
        }),
        ("mulhi_pp_u16x2", |x| {
            packed(U16X2, "pp", false, x.a64(), x.b64(), 0, mulhi(16))
        }),
        ("max_ps_s16x2", |x| {
            packed(S16X2, "ps", false, x.a64(), x.b64(), 0, i128::max)
        }),
        ("min_ss_u16x2", |x| {
            packed(U16X2, "ss", false, x.a64(), x.b64(), u(x.c()), i128::min)
        }),
        ("abs_s_s16x2", |x| {
            packed(S16X2, "s", false, x.a64(), 0, u(x.c()), |v, _| v.abs())
        }),
        ("neg_p_s16x2", |x| {
            packed(S16X2, "p", false, x.a64(), 0, 0, |v, _| -v)
        }),
        ("shl_s16x2", |x| packed_shift(S16X2, true, x.a64(), x.b())),
        ("shr_s16x2", |x| packed_shift(S16X2, false, x.a64(), x.b())),
        ("cmov_s16x2", |x| {
            packed_cmov((16, 2), u(x.c()), u(x.a()), u(x.b()))
        }),
        ("add_ps_u8x4 u8x4(1,2,3,4)", |x| {
            // Elements are listed from the most significant: element 0 is 4.
            packed(U8X4, "ps", false, x.a64(), 0x0102_0304, 0, add)
        }),
        ("mul_pp_sat_u16x2 u16x2(65535,2)", |x| {
            packed(U16X2, "pp", true, x.a64(), 0xffff_0002, 0, mul)
        }),
    ];
    check("pk_ops32.hsail", "&pk_ops32", &int_inputs(), refs);
}

#[test]
fn pk_ops64() {
    let refs: &[Ref] = &[
        ("add_pp_u8x8", |x| {
            packed(U8X8, "pp", false, x.a64(), x.b64(), 0, add)
        }),
        ("add_pp_sat_s8x8", |x| {
            packed(S8X8, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_pp_sat_u16x4", |x| {
            packed(U16X4, "pp", true, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_s16x4", |x| {
            packed(S16X4, "pp", false, x.a64(), x.b64(), 0, mul)
        }),
        ("mulhi_pp_u16x4", |x| {
            packed(U16X4, "pp", false, x.a64(), x.b64(), 0, mulhi(16))
        }),
        ("min_pp_u32x2", |x| {
            packed(U32X2, "pp", false, x.a64(), x.b64(), 0, i128::min)
        }),
        ("max_pp_s32x2", |x| {
            packed(S32X2, "pp", false, x.a64(), x.b64(), 0, i128::max)
        }),
        ("add_pp_u32x2", |x| {
            packed(U32X2, "pp", false, x.a64(), x.b64(), 0, add)
        }),
        ("sub_ps_s32x2", |x| {
            packed(S32X2, "ps", false, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_u32x2", |x| {
            packed(U32X2, "pp", false, x.a64(), x.b64(), 0, mul)
        }),
        ("mulhi_pp_s32x2", |x| {
            packed(S32X2, "pp", false, x.a64(), x.b64(), 0, mulhi(32))
        }),
        ("mulhi_pp_u32x2", |x| {
            packed(U32X2, "pp", false, x.a64(), x.b64(), 0, mulhi(32))
        }),
        ("add_pp_sat_u32x2", |x| {
            packed(U32X2, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_pp_sat_u32x2", |x| {
            packed(U32X2, "pp", true, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_sat_u32x2", |x| {
            packed(U32X2, "pp", true, x.a64(), x.b64(), 0, mul)
        }),
        ("abs_p_s32x2", |x| {
            packed(S32X2, "p", false, x.a64(), 0, 0, |v, _| v.abs())
        }),
        ("neg_s_s32x2", |x| {
            packed(S32X2, "s", false, x.a64(), 0, x.c64(), |v, _| -v)
        }),
        ("shl_u32x2", |x| packed_shift(U32X2, true, x.a64(), x.b())),
        ("shr_s32x2", |x| packed_shift(S32X2, false, x.a64(), x.b())),
        ("shr_u16x4", |x| packed_shift(U16X4, false, x.a64(), x.b())),
        ("cmov_u32x2", |x| {
            packed_cmov((32, 2), x.c64(), x.a64(), x.b64())
        }),
        ("cmov_s8x8", |x| {
            packed_cmov((8, 8), x.c64(), x.a64(), x.b64())
        }),
        ("abs_p_s16x4", |x| {
            packed(S16X4, "p", false, x.a64(), 0, 0, |v, _| v.abs())
        }),
        ("neg_p_s8x8", |x| {
            packed(S8X8, "p", false, x.a64(), 0, 0, |v, _| -v)
        }),
        ("max_sp_u8x8", |x| {
            packed(U8X8, "sp", false, x.a64(), x.b64(), 0, i128::max)
        }),
        ("min_ss_s16x4", |x| {
            packed(S16X4, "ss", false, x.a64(), x.b64(), x.c64(), i128::min)
        }),
        ("mulhi_pp_s8x8", |x| {
            packed(S8X8, "pp", false, x.a64(), x.b64(), 0, mulhi(8))
        }),
        ("sub_pp_sat_s16x4", |x| {
            packed(S16X4, "pp", true, x.a64(), x.b64(), 0, sub)
        }),
    ];
    check("pk_ops64.hsail", "&pk_ops64", &int_inputs(), refs);
}

#[test]
fn pk_sat_s32() {
    let refs: &[Ref] = &[
        ("add_pp_sat_s32x2", |x| {
            packed(S32X2, "pp", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_pp_sat_s32x2", |x| {
            packed(S32X2, "pp", true, x.a64(), x.b64(), 0, sub)
        }),
        ("mul_pp_sat_s32x2", |x| {
            packed(S32X2, "pp", true, x.a64(), x.b64(), 0, mul)
        }),
        ("add_ps_sat_s32x2", |x| {
            packed(S32X2, "ps", true, x.a64(), x.b64(), 0, add)
        }),
        ("sub_ss_sat_s32x2", |x| {
            packed(S32X2, "ss", true, x.a64(), x.b64(), x.c64(), sub)
        }),
        ("mul_sp_sat_s32x2", |x| {
            packed(S32X2, "sp", true, x.a64(), x.b64(), 0, mul)
        }),
    ];
    check("pk_sat_s32.hsail", "&pk_sat_s32", &int_inputs(), refs);
}

/// Packed `cmp` of `w`-bit elements: relation bit set `rel` (as in
/// [`FLOAT_OPS`]) per element, all ones or 0.
fn packed_cmp(w: u32, n: u32, a: u64, b: u64, holds: impl Fn(u64, u64) -> bool) -> u64 {
    (0..n).fold(0, |out, i| {
        let (x, y) = ((a >> (i * w)) & ones(w), (b >> (i * w)) & ones(w));
        out | if holds(x, y) { ones(w) << (i * w) } else { 0 }
    })
}

/// Integer relation `op` (eq … ge, as [`int_rel`]) of two elements.
fn int_holds(op: usize, w: u32, signed: bool) -> impl Fn(u64, u64) -> bool {
    move |x, y| int_rel(op, lane(x, 0, w, signed).cmp(&lane(y, 0, w, signed)))
}

/// Float relation `op` (index into [`FLOAT_OPS`]) of two elements.
fn float_holds(op: usize, f: &'static Format, ftz: bool) -> impl Fn(u64, u64) -> bool {
    move |x, y| float_cmp(f, op, x, y, ftz)
}

/// References for `cmp_packed.hsail`.
const CMP_PACKED: &[Ref] = &[
    ("cmp_eq_pp_u8x4_u8x4", |x| {
        packed_cmp(8, 4, x.a64(), x.b64(), int_holds(0, 8, false))
    }),
    ("cmp_lt_pp_u8x4_s8x4", |x| {
        packed_cmp(8, 4, x.a64(), x.b64(), int_holds(2, 8, true))
    }),
    ("cmp_ge_pp_u16x2_u16x2", |x| {
        packed_cmp(16, 2, x.a64(), x.b64(), int_holds(5, 16, false))
    }),
    ("cmp_gt_pp_u16x2_s16x2", |x| {
        packed_cmp(16, 2, x.a64(), x.b64(), int_holds(4, 16, true))
    }),
    ("cmp_ne_pp_u32x2_u32x2", |x| {
        packed_cmp(32, 2, x.a64(), x.b64(), int_holds(1, 32, false))
    }),
    ("cmp_le_pp_u32x2_s32x2", |x| {
        packed_cmp(32, 2, x.a64(), x.b64(), int_holds(3, 32, true))
    }),
    ("cmp_lt_pp_u8x8_s8x8", |x| {
        packed_cmp(8, 8, x.a64(), x.b64(), int_holds(2, 8, true))
    }),
    ("cmp_ge_pp_u16x4_u16x4", |x| {
        packed_cmp(16, 4, x.a64(), x.b64(), int_holds(5, 16, false))
    }),
    ("cmp_eq_pp_u16x2_f16x2", |x| {
        packed_cmp(16, 2, x.a64(), x.b64(), float_holds(0, &F16, false))
    }),
    ("cmp_ltu_pp_u16x2_f16x2", |x| {
        packed_cmp(16, 2, x.a64(), x.b64(), float_holds(8, &F16, false))
    }),
    ("cmp_lt_ftz_pp_u16x2_f16x2", |x| {
        packed_cmp(16, 2, x.a64(), x.b64(), float_holds(2, &F16, true))
    }),
    ("cmp_nan_pp_u32x2_f32x2", |x| {
        packed_cmp(32, 2, x.a64(), x.b64(), float_holds(13, &F32, false))
    }),
    ("cmp_geu_ftz_pp_u32x2_f32x2", |x| {
        packed_cmp(32, 2, x.a64(), x.b64(), float_holds(11, &F32, true))
    }),
    ("cmp_sne_pp_u32x2_f32x2", |x| {
        packed_cmp(32, 2, x.a64(), x.b64(), float_holds(1, &F32, false))
    }),
    ("cmp_gt_pp_u16x4_f16x4", |x| {
        packed_cmp(16, 4, x.a64(), x.b64(), float_holds(4, &F16, false))
    }),
];

/// Every pair of `f`'s specials in every element of A and B (elements of
/// `w` bits; other element positions rotate through the specials).
fn packed_float_inputs(f: &Format, w: u32) -> Vec<In> {
    let n = 64 / w;
    let s = |k: usize| f.specials[k % 16] & ones(w);
    (0..256)
        .map(|i| {
            let (a, b) = (0..n).fold((0, 0), |(a, b), e| {
                let k = i + 37 * e as usize;
                (a | s(k / 16 + e as usize) << (e * w), b | s(k) << (e * w))
            });
            In([a, b, 0, 0])
        })
        .collect()
}

#[test]
fn cmp_packed() {
    let file = "cmp_packed.hsail";
    check(file, "&cmp_packed", &int_inputs(), CMP_PACKED);
    check(
        file,
        "&cmp_packed",
        &packed_float_inputs(&F16, 16),
        CMP_PACKED,
    );
    check(
        file,
        "&cmp_packed",
        &packed_float_inputs(&F32, 32),
        CMP_PACKED,
    );
}

// ---------------------------------------------------------------- 5.9 ---

/// `shuffle`: destination element `i` is element `sel` field `i` of `a`
/// for the lower half, of `b` for the upper half.
fn shuffle((w, n): (u32, u32), a: u64, b: u64, sel: u64) -> u64 {
    let bits = n.trailing_zeros();
    (0..n).fold(0, |out, i| {
        let index = (sel >> (i * bits)) as u32 & (n - 1);
        let src = if i < n / 2 { a } else { b };
        out | ((src >> (index * w)) & ones(w)) << (i * w)
    })
}

/// `unpacklo`/`unpackhi`: the lower or upper halves of `a` and `b`
/// interleaved, `a` first.
fn interleave((w, n): (u32, u32), hi: bool, a: u64, b: u64) -> u64 {
    let base = if hi { n / 2 } else { 0 };
    (0..n).fold(0, |out, i| {
        let src = if i % 2 == 0 { a } else { b };
        out | ((src >> ((base + i / 2) * w)) & ones(w)) << (i * w)
    })
}

/// `pack`: element `index mod n` of `base` replaced by the low bits of `v`.
fn pack_ref((w, n): (u32, u32), base: u64, v: u64, index: u32) -> u64 {
    let at = (index & (n - 1)) * w;
    ((base & !(ones(w) << at)) | ((v & ones(w)) << at)) & ones(w * n)
}

/// `unpack` to a 32-bit register: element `index mod n`, extended.
fn unpack_ref((w, n, signed): (u32, u32, bool), v: u64, index: u32) -> u64 {
    u(lane(v, index & (n - 1), w, signed) as u32)
}

#[test]
fn pk_data() {
    let refs: &[Ref] = &[
        ("shuffle_u8x4 0x1b", |x| {
            shuffle((8, 4), x.a64(), x.b64(), 0x1b)
        }),
        ("shuffle_s8x4 0x93", |x| {
            shuffle((8, 4), x.a64(), x.b64(), 0x93)
        }),
        ("shuffle_u8x8", |x| {
            shuffle((8, 8), x.a64(), x.b64(), 0xfa_c688)
        }),
        ("shuffle_u16x2", |x| shuffle((16, 2), x.a64(), x.b64(), 2)),
        ("shuffle_u16x4", |x| {
            shuffle((16, 4), x.a64(), x.b64(), 0xb1)
        }),
        ("shuffle_f32x2", |x| shuffle((32, 2), x.a64(), x.b64(), 1)),
        ("unpacklo_u8x4", |x| {
            interleave((8, 4), false, x.a64(), x.b64())
        }),
        ("unpackhi_u8x4", |x| {
            interleave((8, 4), true, x.a64(), x.b64())
        }),
        ("unpacklo_s16x4", |x| {
            interleave((16, 4), false, x.a64(), x.b64())
        }),
        ("unpackhi_u8x8", |x| {
            interleave((8, 8), true, x.a64(), x.b64())
        }),
        ("unpackhi_f16x2", |x| {
            interleave((16, 2), true, x.a64(), x.b64())
        }),
        ("unpacklo_u32x2", |x| {
            interleave((32, 2), false, x.a64(), x.b64())
        }),
        ("pack_u8x4_u32", |x| {
            pack_ref((8, 4), u(x.a()), u(x.b()), x.c())
        }),
        ("pack_s16x4_s32", |x| {
            pack_ref((16, 4), x.a64(), u(x.b()), x.c())
        }),
        ("pack_u32x2_u32", |x| {
            pack_ref((32, 2), x.a64(), u(x.b()), x.c())
        }),
        ("pack_u8x8_u32", |x| {
            pack_ref((8, 8), x.a64(), u(x.b()), x.c())
        }),
        ("pack_f16x2_f16", |x| {
            pack_ref((16, 2), u(x.a()), u(x.b()), 1)
        }),
        ("pack_f32x2_f32", |x| {
            pack_ref((32, 2), x.a64(), u(x.b()), 0)
        }),
        ("unpack_u32_u8x4", |x| unpack_ref(U8X4, x.a64(), x.c())),
        ("unpack_s32_s8x4", |x| unpack_ref(S8X4, x.a64(), x.c())),
        ("unpack_s32_s16x4", |x| unpack_ref(S16X4, x.a64(), x.c())),
        ("unpack_u32_u16x4", |x| unpack_ref(U16X4, x.a64(), x.c())),
        ("unpack_s32_s32x2", |x| unpack_ref(S32X2, x.a64(), x.c())),
        ("unpack_u32_u8x8", |x| unpack_ref(U8X8, x.a64(), x.c())),
        ("unpack_f16_f16x2", |x| unpack_ref(U16X2, x.a64(), 1)),
        ("unpack_f32_f32x2", |x| unpack_ref(U32X2, x.a64(), x.c())),
        ("unpack_s32_s8x8 5", |x| unpack_ref(S8X8, x.a64(), 5)),
        ("pack_s8x4_s32 -3 7", |x| {
            pack_ref((8, 4), u(x.a()), 0xfd, 7)
        }),
    ];
    check("pk_data.hsail", "&pk_data", &int_inputs(), refs);
}
