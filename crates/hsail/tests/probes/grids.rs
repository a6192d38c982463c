//! Exhaustive probe grids: every combination of opcode, type(s), modifier
//! and machine model for the instruction families the validator audit
//! covered (PRM ch. 5-11), each as a one-instruction kernel.
//!
//! * `alu-one-type`: every ch. 5 one-type opcode × 23 types × modifiers,
//!   full and base profile.
//! * `cvt`, `cmp`: every type pair × roundings / compare ops, ftz, packing.
//! * `two-type`: the other two-type opcodes over every type pair.
//! * `segment`: nullptr and lda × segments × types × models.
//! * `mem-modifiers`: ~40 templates of ch. 6-11 with one of 41 modifiers
//!   inserted at every position of the mnemonic.
//! * `mem-types`: the same templates with each type replaced by each of
//!   25 types.
//! * `image-channels`: every channel order × channel type, with the verdict
//!   of PRM Table 7-4 written out here independently.

use std::collections::HashSet;

use super::{Header, Probe};

/// The types of the one-type grid.
const ALU_TYPES: &str = "b1 b8 b32 b64 b128 u8 u16 u32 u64 s8 s32 s64 f16 f32 f64 u8x4 s8x4 u16x4 s32x2 u64x2 f16x2 f32x4 f64x2";

/// The types of the two-type grids.
const PAIR_TYPES: &str = "b1 b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64 \
                          u8x4 s8x4 u16x2 u16x4 s32x2 u32x2 u64x2 f16x2 f32x2 f32x4 f64x2";

/// One-type opcodes by operand pattern: `T` a register of the type, `U` a
/// u32 register, `I` the constant 0, `K` a condition (b1, or the type when
/// packed).
const ALU_OPS: &[(&str, &str)] = &[
    (
        "TT",
        "abs neg ceil floor rint trunc sqrt fract not bitrev mov ncos nexp2 nlog2 nrcp nrsqrt nsin nsqrt",
    ),
    (
        "TTT",
        "add sub mul div rem max min mulhi borrow carry and or xor copysign unpacklo unpackhi mul24 mul24hi",
    ),
    (
        "TTTT",
        "mad fma mad24 mad24hi bitselect nfma bitalign bytealign lerp",
    ),
    ("TTU", "shl shr"),
    ("TKTT", "cmov"),
    ("TTTI", "shuffle"),
];

/// Modifiers tried on scalar and on packed types.
const SCALAR_MODS: &[&str] = &["", "ftz", "up", "zeroi", "ftz_up", "pp"];
const PACKED_MODS: &[&str] = &[
    "", "pp", "p", "ps", "pp_sat", "p_sat", "ftz_pp", "up_pp", "s_sat",
];

/// cvt roundings and cmp operations tried.
const CVT_MODS: &[&str] = &[
    "",
    "ftz",
    "up",
    "zeroi",
    "ftz_neari_sat",
    "szeroi_sat",
    "ftz_zeroi",
];
const CMP_MODS: &[&str] = &[
    "eq",
    "lt",
    "equ",
    "ftz_eq",
    "eq_pp",
    "lt_ftz_pp",
    "snan",
    "eq_ps",
];

/// Two-type opcodes by operand pattern: `D` destination type register,
/// `S` source type register, `U` u32 register, `0` the constant 0, `V` a
/// 2-vector of source registers, `W` a 2-vector of destination registers.
const TWO_TYPE_OPS: &[(&str, &str)] = &[
    ("popcount", "DS"),
    ("firstbit", "DS"),
    ("lastbit", "DS"),
    ("class", "DSU"),
    ("pack", "DDSU"),
    ("unpack", "DSU"),
    ("sad", "DSSU"),
    ("sadhi", "DSSD"),
    ("packcvt", "DSSSS"),
    ("unpackcvt", "DS0"),
    ("combine_v2", "DV"),
    ("expand_v2", "WS"),
    ("segmentp_global", "DS"),
    ("ftos_group", "DS"),
    ("stof_private", "DS"),
];

/// The three machine models / profiles of the grids.
const MODELS: [Header; 3] = [Header::FullLarge, Header::BaseLarge, Header::FullSmall];

/// Bits of a type name (`u32` 32, `u8x4` 32).
fn bits(t: &str) -> u32 {
    let digits = &t[1..];
    match digits.split_once('x') {
        Some((a, b)) => a.parse::<u32>().unwrap_or(0) * b.parse::<u32>().unwrap_or(0),
        None => digits.parse().unwrap_or(0),
    }
}

/// Register `n` of the class holding type `t`.
fn reg(t: &str, n: u32) -> String {
    let class = match bits(t) {
        1 => "$c",
        64 => "$d",
        128 => "$q",
        _ => "$s",
    };
    format!("{class}{n}")
}

/// A kernel holding `statement`.
fn kernel(statement: &str) -> String {
    format!("kernel &k()\n{{\n\t{statement}\n}};\n")
}

/// `parts` joined by `_`, empty parts left out.
fn mnemonic(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join("_")
}

/// Collects probes, dropping repeated ids (two insertions that spell the
/// same mnemonic).
#[derive(Default)]
struct Grid {
    probes: Vec<Probe>,
    seen: HashSet<String>,
}

impl Grid {
    /// Adds `statement` in a kernel under `header`, named after it.
    fn statement(&mut self, grid: &str, header: Header, statement: &str) {
        let mnemonic = statement.split_whitespace().next().unwrap_or_default();
        let id = format!("{grid}/{}/{mnemonic}", header.short());
        self.push(Probe::new(id, header, kernel(statement)));
    }

    fn push(&mut self, probe: Probe) {
        if self.seen.insert(probe.id.clone()) {
            self.probes.push(probe);
        }
    }
}

/// Every grid probe, in a fixed order.
pub fn all() -> Vec<Probe> {
    let mut g = Grid::default();
    alu_one_type(&mut g);
    cvt_cmp(&mut g);
    two_type(&mut g);
    segment(&mut g);
    mem_modifiers(&mut g);
    mem_types(&mut g);
    image_channels(&mut g);
    g.probes
}

fn alu_one_type(g: &mut Grid) {
    for &(pattern, ops) in ALU_OPS {
        for op in ops.split_whitespace() {
            for t in ALU_TYPES.split_whitespace() {
                let packed = t.contains('x');
                let operands: Vec<String> = pattern
                    .chars()
                    .zip(1..)
                    .map(|(c, i)| match c {
                        'T' => reg(t, i),
                        'U' => "$s9".to_string(),
                        'I' => "0".to_string(),
                        _ if packed => reg(t, 9),
                        _ => "$c9".to_string(),
                    })
                    .collect();
                for m in if packed { PACKED_MODS } else { SCALAR_MODS } {
                    let line = format!("{} {};", mnemonic(&[op, m, t]), operands.join(", "));
                    for header in &MODELS[..2] {
                        g.statement("alu-one-type", *header, &line);
                    }
                }
            }
        }
    }
}

fn cvt_cmp(g: &mut Grid) {
    for d in PAIR_TYPES.split_whitespace() {
        for s in PAIR_TYPES.split_whitespace() {
            let (rd, rs, rs3) = (reg(d, 1), reg(s, 2), reg(s, 3));
            for r in CVT_MODS {
                let line = format!("{} {rd}, {rs};", mnemonic(&["cvt", r, d, s]));
                for header in &MODELS[..2] {
                    g.statement("cvt", *header, &line);
                }
            }
            for m in CMP_MODS {
                let line = format!("cmp_{m}_{d}_{s} {rd}, {rs}, {rs3};");
                for header in &MODELS[..2] {
                    g.statement("cmp", *header, &line);
                }
            }
        }
    }
}

fn two_type(g: &mut Grid) {
    for d in PAIR_TYPES.split_whitespace() {
        for s in PAIR_TYPES.split_whitespace() {
            for &(op, pattern) in TWO_TYPE_OPS {
                let operands: Vec<String> = pattern
                    .chars()
                    .map(|c| match c {
                        'D' => reg(d, 1),
                        'S' => reg(s, 2),
                        'U' => "$s9".to_string(),
                        '0' => "0".to_string(),
                        'V' => format!("({}, {})", reg(s, 2), reg(s, 3)),
                        _ => format!("({}, {})", reg(d, 1), reg(d, 4)),
                    })
                    .collect();
                let line = format!("{op}_{d}_{s} {};", operands.join(", "));
                let segment_op = ["segmentp", "ftos", "stof"]
                    .iter()
                    .any(|p| op.starts_with(p));
                let models = if segment_op {
                    &MODELS[..]
                } else {
                    &MODELS[..1]
                };
                for header in models {
                    g.statement("two-type", *header, &line);
                }
            }
        }
    }
}

fn segment(g: &mut Grid) {
    let segments = [
        "", "global", "group", "private", "kernarg", "readonly", "spill", "arg", "flat",
    ];
    for op in ["nullptr", "lda"] {
        for seg in segments {
            for t in ["u32", "u64", "s32", "b64", "u16"] {
                let address = if op == "lda" { ", [0]" } else { "" };
                let line = format!("{} {}{address};", mnemonic(&[op, seg, t]), reg(t, 1));
                for header in MODELS {
                    g.statement("segment", header, &line);
                }
            }
        }
    }
}

/// Templates of ch. 6-11 instructions: mnemonic and operands.
const MEM_TEMPLATES: &[(&str, &str)] = &[
    ("ld_global_u32", "$s0, [$d1]"),
    ("ld_v2_global_u32", "($s0, $s1), [$d1]"),
    ("st_global_u32", "$s0, [$d1]"),
    ("atomic_add_global_rlx_system_u32", "$s0, [$d1], 1"),
    ("atomicnoret_add_global_rlx_system_u32", "[$d1], 1"),
    ("atomic_ld_global_rlx_system_b32", "$s0, [$d1]"),
    ("signal_add_rlx_s64_sig64", "$d0, $d1, 1"),
    ("signalnoret_st_rlx_b64_sig64", "$d1, 1"),
    ("signal_wait_eq_rlx_s64_sig64", "$d0, $d1, 1"),
    ("memfence_scar_system", ""),
    (
        "rdimage_v4_2d_f32_roimg_f32",
        "($s0, $s1, $s2, $s3), $d0, $d1, ($s4, $s5)",
    ),
    (
        "ldimage_v4_2d_f32_roimg_u32",
        "($s0, $s1, $s2, $s3), $d0, ($s4, $s5)",
    ),
    (
        "stimage_v4_2d_f32_woimg_u32",
        "($s0, $s1, $s2, $s3), $d0, ($s4, $s5)",
    ),
    ("queryimage_2d_width_u32_roimg", "$s0, $d0"),
    ("querysampler_coord_u32", "$s0, $d0"),
    ("imagefence", ""),
    ("cbr_b1", "$c0, @l"),
    ("sbr_u32", "$s0 [@l]"),
    ("br", "@l"),
    ("barrier", ""),
    ("wavebarrier", ""),
    ("joinfbar", "&fb"),
    ("initfbar", "&fb"),
    ("ldf_u32", "$s0, &fb"),
    ("activelaneid_u32", "$s0"),
    ("activelanecount_u32_b1", "$s0, $c0"),
    ("activelanemask_v4_b64_b1", "($d0, $d1, $d2, $d3), $c0"),
    ("activelanepermute_b32", "$s0, $s1, $s2, $s3, $c0"),
    ("alloca_u32", "$s0, 4"),
    ("ret", ""),
    ("workitemid_u32", "$s0, 0"),
    ("clock_u64", "$d0"),
    ("kernargbaseptr_u64", "$d0"),
    ("ldqueuereadindex_global_rlx_u64", "$d0, [$d1]"),
    ("cleardetectexcept_u32", "1"),
    ("packetcompletionsig_sig64", "$d0"),
    ("debugtrap_u32", "1"),
    ("nop", ""),
];

/// Modifiers (and stray types) inserted into the templates.
const MEM_MODS: &str = "ftz near upi pp sat v2 v4 global group private kernarg readonly arg \
    align(4) const equiv(2) width(all) width(4) rlx scacq screl scar wi wave wg agent system \
    1d 2d width nonull u32 b32 s64 f32 roimg sig64 eq add b1 u64";

/// The types substituted into the templates.
const MEM_TYPES: &str = "b1 b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64 \
    u8x4 f32x2 roimg woimg rwimg samp sig32 sig64";

/// An instance of `template` in a kernel with the IMAGE extension, an
/// fbarrier `&fb` and (for branches) a label `@l`.
fn mem_probe(grid: &str, template: &str, mnemonic: &str, operands: &str) -> Probe {
    let mut statement = mnemonic.to_string();
    if !operands.is_empty() {
        statement.push(' ');
        statement.push_str(operands);
    }
    statement.push(';');
    if matches!(template, "cbr_b1" | "sbr_u32" | "br") {
        statement.push_str("\n@l:\n\tret;");
    }
    let body = format!(
        "extension \"IMAGE\";\nfbarrier &fb;\n{}",
        kernel(&statement)
    );
    let id = format!("{grid}/{template}/{mnemonic}");
    Probe::new(id, Header::FullLarge, body)
}

fn mem_modifiers(g: &mut Grid) {
    for &(mn, operands) in MEM_TEMPLATES {
        let parts: Vec<&str> = mn.split('_').collect();
        for m in MEM_MODS.split_whitespace() {
            for pos in 1..=parts.len() {
                let mut q = parts.clone();
                q.insert(pos, m);
                g.push(mem_probe("mem-modifiers", mn, &q.join("_"), operands));
            }
        }
    }
}

fn mem_types(g: &mut Grid) {
    let types: Vec<&str> = MEM_TYPES.split_whitespace().collect();
    for &(mn, operands) in MEM_TEMPLATES {
        let parts: Vec<&str> = mn.split('_').collect();
        for (i, part) in parts.iter().enumerate() {
            if !types.contains(part) {
                continue;
            }
            for t in types.iter().filter(|t| *t != part) {
                let mut q = parts.clone();
                q[i] = t;
                g.push(mem_probe("mem-types", mn, &q.join("_"), operands));
            }
        }
    }
}

/// Every channel type of PRM 7.1.4.
const CHANNEL_TYPES: &str = "snorm_int8 snorm_int16 unorm_int8 unorm_int16 unorm_int24 \
    unorm_short_555 unorm_short_565 unorm_int_101010 signed_int8 signed_int16 signed_int32 \
    unsigned_int8 unsigned_int16 unsigned_int32 half_float float";

/// PRM Table 7-4, by channel order: the legal channel types.
const CHANNEL_TABLE: &[(&str, &str)] = &[
    (
        "r rx a rg rgx ra rgba",
        "unorm_int8 snorm_int8 unsigned_int8 signed_int8 unorm_int16 snorm_int16 unsigned_int16 signed_int16 half_float unsigned_int32 signed_int32 float",
    ),
    (
        "rgb rgbx",
        "unorm_short_565 unorm_short_555 unorm_int_101010",
    ),
    (
        "bgra argb abgr",
        "unorm_int8 snorm_int8 unsigned_int8 signed_int8",
    ),
    ("srgb srgbx srgba sbgra", "unorm_int8"),
    (
        "intensity luminance",
        "unorm_int8 snorm_int8 unorm_int16 snorm_int16 half_float float",
    ),
    ("depth", "unorm_int16 unorm_int24 float"),
    ("depth_stencil", "unorm_int24 float"),
];

fn image_channels(g: &mut Grid) {
    for &(orders, legal) in CHANNEL_TABLE {
        for order in orders.split_whitespace() {
            let geometry = if order.starts_with("depth") {
                "geometry = 2ddepth, width = 2, height = 2"
            } else {
                "geometry = 1d, width = 2"
            };
            for t in CHANNEL_TYPES.split_whitespace() {
                let body = format!(
                    "extension \"IMAGE\";\nalloc(agent) global_roimg &i = roimg({geometry}, \
                     channel_type = {t}, channel_order = {order});\n{}",
                    kernel("nop;")
                );
                let mut probe = Probe::new(
                    format!("image-channels/{order}/{t}"),
                    Header::FullLarge,
                    body,
                );
                probe.prm_valid = Some(legal.split_whitespace().any(|l| l == t));
                g.push(probe);
            }
        }
    }
}
