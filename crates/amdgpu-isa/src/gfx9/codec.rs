//! The GFX9 codec: field layouts per encoding family, and the encoder,
//! decoder, printer and line parser written against the instruction table.
//!
//! Field layouts (GFX9 ISA; checked against the oracle vectors):
//! SOP2 `10 op:7 sdst:7 ssrc1:8 ssrc0:8`; SOP1 `101111101 sdst:7 op:8
//! ssrc0:8`; SOPK `1011 op:5 sdst:7 simm16`; SOPC `101111110 op:7 ssrc1:8
//! ssrc0:8`; SOPP `101111111 op:7 simm16`; SMEM `110000 op:8 imm glc nv soe
//! . sdata:7 sbase:6 | soffset:7 . offset:21`; VOP1 `0111111 vdst:8 op:8
//! src0:9`; VOP2 `0 op:6 vdst:8 vsrc1:8 src0:9`; VOPC `0111110 op:8
//! vsrc1:8 src0:9`; VOP3 `110100 op:10 clamp op_sel:4 abs:3 vdst:8 |
//! neg:3 omod:2 src2:9 src1:9 src0:9` (VOP3b: `clamp sdst:7 vdst:8`); DS
//! `110110 op:8 gds offset1:8 offset0:8 | vdst:8 data1:8 data0:8 addr:8`
//! (gfx90a+: acc at bit 25); FLAT `110111 op:7 slc glc seg:2 lds
//! offset:13 | vdst:8 acc . saddr:7 data:8 addr:8` (gfx942: sc0 = glc,
//! nt = slc, sc1 at bit 25).

use super::operand::{apply_fp_modifiers, parse_int, parse_reg, parse_src};
use super::table::INSTRUCTIONS;
use super::{Error, Family, Inst, InstDef, Modifiers, Operand, Result, SrcType, Target};
use std::collections::HashMap;
use std::sync::OnceLock;

fn role(r: &str) -> &str {
    // The part before the first `:` (a byte scan: roles are short and hot).
    r.as_bytes()
        .iter()
        .position(|&c| c == b':')
        .map_or(r, |p| &r[..p])
}

fn is_opt(r: &str) -> bool {
    // One of the `:`-separated parts is `opt` (without splitting: hot).
    r == "opt" || r.starts_with("opt:") || r.ends_with(":opt") || r.contains(":opt:")
}

/// Encoding family and opcode field of the instruction whose first dword
/// is `w` (no table lookup; DPP/SDWA told apart by VOP1/VOP2/VOPC src0).
pub fn classify(w: u32) -> (Family, u16) {
    let top9 = w >> 23;
    let t6 = w >> 26;
    if top9 == 0x17D {
        (Family::Sop1, ((w >> 8) & 0xFF) as u16)
    } else if top9 == 0x17E {
        (Family::Sopc, ((w >> 16) & 0x7F) as u16)
    } else if top9 == 0x17F {
        (Family::Sopp, ((w >> 16) & 0x7F) as u16)
    } else if w >> 28 == 0xB {
        (Family::Sopk, ((w >> 23) & 0x1F) as u16)
    } else if w >> 30 == 0b10 {
        (Family::Sop2, ((w >> 23) & 0x7F) as u16)
    } else if t6 == 0x30 {
        (Family::Smem, ((w >> 18) & 0xFF) as u16)
    } else if top9 == 0x1A7 {
        (Family::Vop3p, ((w >> 16) & 0x7F) as u16)
    } else if t6 == 0x34 {
        (Family::Vop3, ((w >> 16) & 0x3FF) as u16)
    } else if t6 == 0x35 {
        (Family::Vintrp, ((w >> 16) & 3) as u16)
    } else if t6 == 0x36 {
        (Family::Ds, ((w >> 17) & 0xFF) as u16)
    } else if t6 == 0x37 {
        let fam = match (w >> 14) & 3 {
            1 => Family::Scratch,
            2 => Family::Global,
            _ => Family::Flat,
        };
        (fam, ((w >> 18) & 0x7F) as u16)
    } else if t6 == 0x38 {
        (Family::Mubuf, ((w >> 18) & 0x7F) as u16)
    } else if t6 == 0x3A {
        (Family::Mtbuf, ((w >> 15) & 0xF) as u16)
    } else if t6 == 0x3C {
        (Family::Mimg, (((w >> 18) & 0x7F) | ((w & 1) << 7)) as u16)
    } else if t6 == 0x31 {
        (Family::Exp, 0)
    } else if w >> 31 == 0 {
        let src0 = w & 0x1FF;
        let sub = |plain, dpp, sdwa| match src0 {
            0xF9 => sdwa,
            0xFA => dpp,
            _ => plain,
        };
        if w >> 25 == 0x3F {
            (
                sub(Family::Vop1, Family::Vop1Dpp, Family::Vop1Sdwa),
                ((w >> 9) & 0xFF) as u16,
            )
        } else if w >> 25 == 0x3E {
            (
                sub(Family::Vopc, Family::VopcDpp, Family::VopcSdwa),
                ((w >> 17) & 0xFF) as u16,
            )
        } else {
            (
                sub(Family::Vop2, Family::Vop2Dpp, Family::Vop2Sdwa),
                ((w >> 25) & 0x3F) as u16,
            )
        }
    } else {
        (Family::Unknown, 0)
    }
}

/// Where a VOP3 operand lives: the vdst field (a VGPR, or an SGPR for
/// compares), the VOP3b sdst field, or source field k (src0..src2), whose
/// neg/abs bit is also k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Vdst,
    Sdst,
    Src(u8),
}

fn is_interp(def: &InstDef) -> bool {
    def.mnemonic.starts_with("v_interp_")
}

/// The VOP3 field of each role of `def` (same order as `def.operands`).
fn vop3_slots(def: &InstDef) -> Vec<Slot> {
    let mut k = 0;
    def.operands
        .iter()
        .enumerate()
        .map(|(i, r)| match (i, role(r)) {
            (0, "vdst" | "sdst") => Slot::Vdst,
            (1, "sdst" | "vcc") => Slot::Sdst,
            // Interpolation: attr in src0, the VGPR or param in src1, vsrc2 in src2.
            (_, "attr") => Slot::Src(0),
            (_, "vsrc" | "vsrc0" | "param") if is_interp(def) => Slot::Src(1),
            (_, "vsrc2") if is_interp(def) => Slot::Src(2),
            _ => {
                k += 1;
                Slot::Src(k - 1)
            }
        })
        .collect()
}

/// Bit k set when source slot k takes neg/abs (`:m` in the inventory).
fn mod_mask(def: &InstDef) -> u8 {
    def.operands
        .iter()
        .zip(vop3_slots(def))
        .fold(0, |acc, (r, slot)| match slot {
            Slot::Src(k) if r.split(':').any(|p| p == "m") => acc | 1 << k,
            _ => acc,
        })
}

fn is_mai(def: &InstDef) -> bool {
    def.mnemonic.starts_with("v_mfma") || def.mnemonic.starts_with("v_smfmac")
}

/// fma_mix/mad_mix: op_sel_hi defaults to 0 and neg_lo/neg_hi are the
/// sources' neg/abs.
fn is_mix(def: &InstDef) -> bool {
    def.mnemonic.contains("_mix")
}

/// Number of VOP3P sources (`src*`/`vsrc*` roles).
fn vop3p_nsrc(def: &InstDef) -> usize {
    def.operands
        .iter()
        .filter(|r| role(r).contains("src"))
        .count()
}

fn print_bits(out: &mut String, name: &str, v: u8, n: usize) {
    let bits: Vec<String> = (0..n).map(|k| (v >> k & 1).to_string()).collect();
    out.push_str(&format!(" {name}:[{}]", bits.join(",")));
}

impl Modifiers {
    /// The modifiers an instruction has when the assembly line gives none:
    /// MTBUF format 1 (BUF_DATA_FORMAT_8), DPP row/bank masks 0xf, SDWA
    /// selects DWORD and dst_unused UNUSED_PRESERVE, VOP3P op_sel_hi all
    /// ones (zero for the mix instructions), DS two-address offsets 0.
    pub fn defaults_for(def: &InstDef) -> Modifiers {
        let mut m = Modifiers {
            format: 1,
            row_mask: 0xF,
            bank_mask: 0xF,
            dst_sel: 6,
            dst_unused: 2,
            src_sel: [6, 6],
            ..Modifiers::default()
        };
        if is_sdwa(def.family) && !def.modifiers.contains(&"dst_unused") {
            m.dst_unused = 0;
        }
        if def.family == Family::Vop3p && !is_mix(def) && !is_mai(def) {
            m.op_sel_hi = 7;
        }
        if is_ds2(def) {
            m.offset01 = Some((0, 0));
        }
        m
    }
}

/// The order in which LLVM prints (and llvm-mc requires) modifiers.
const MODIFIER_ORDER: [&str; 45] = [
    "",
    "format",
    "idxen",
    "offen",
    "offset",
    "offset0",
    "offset1",
    "dmask",
    "unorm",
    "op_sel",
    "op_sel_hi",
    "neg_lo",
    "neg_hi",
    "high",
    "glc",
    "sc0",
    "slc",
    "nt",
    "scc",
    "sc1",
    "a16",
    "lds",
    "gds",
    "tfe",
    "lwe",
    "da",
    "d16",
    "clamp",
    "mul",
    "div",
    "dst_sel",
    "dst_unused",
    "src0_sel",
    "src1_sel",
    "dpp_ctrl",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "cbsz",
    "abid",
    "blgp",
    "neg",
    "done",
    "compr",
    "vm",
];
/// DPP control keywords (ranked as `dpp_ctrl`).
const DPP_CTRL_WORDS: [&str; 12] = [
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "wave_shl",
    "wave_rol",
    "wave_shr",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_bcast",
    "row_newbcast",
];
const DPP_CTRL_RANK: usize = 34;

/// Whether the instruction's sources are floating point (the last type
/// token of the mnemonic).
fn float_src(def: &InstDef) -> bool {
    // v_cndmask_b32 takes float source modifiers.
    if def.mnemonic.starts_with("v_cndmask_b32") {
        return true;
    }
    let base = def
        .mnemonic
        .trim_end_matches("_sdwa")
        .trim_end_matches("_dpp");
    base.split('_')
        .rfind(|t| {
            t.starts_with("ubyte")
                || (t.len() >= 2
                    && matches!(t.as_bytes()[0], b'f' | b'i' | b'u' | b'b')
                    && t[1..].bytes().all(|b| b.is_ascii_digit()))
        })
        .is_some_and(|t| t.starts_with('f'))
}

fn is_dpp(f: Family) -> bool {
    matches!(f, Family::Vop1Dpp | Family::Vop2Dpp | Family::VopcDpp)
}

fn is_sdwa(f: Family) -> bool {
    matches!(f, Family::Vop1Sdwa | Family::Vop2Sdwa | Family::VopcSdwa)
}

/// Index of a DPP/SDWA source role: 0 for the first source, 1 for the
/// second (the vsrc1 field), None for other roles.
fn dpp_sdwa_src(def: &InstDef, i: usize) -> Option<u8> {
    let r = role(def.operands[i]);
    if !r.contains("src") {
        return None;
    }
    Some(
        def.operands[..i]
            .iter()
            .filter(|x| role(x).contains("src"))
            .count() as u8,
    )
}

const SDWA_SEL: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const SDWA_UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

/// Whether a DPP control value is valid on `target`.
fn dpp_ctrl_valid(c: u16, target: Target) -> bool {
    matches!(c, 0x000..=0x0FF | 0x101..=0x10F | 0x111..=0x11F | 0x121..=0x12F)
        || matches!(c, 0x130 | 0x134 | 0x138 | 0x13C | 0x140..=0x143)
        || (matches!(target, Target::Gfx90a | Target::Gfx942) && (0x150..=0x15F).contains(&c))
}

/// A DPP control as llvm-objdump-19 prints it on `target`: its modifier,
/// or LLVM's comment for a value that is not one (row_newbcast before
/// gfx90a, after an extra space, and GFX10's row_xmask get their own).
fn print_dpp_ctrl(c: u16, target: Target) -> String {
    if !dpp_ctrl_valid(c, target) {
        return match c {
            0x150..=0x15F => {
                " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */"
            }
            0x160..=0x16F => "/* row_xmask is not supported on ASICs earlier than GFX10 */",
            _ => "/* Invalid dpp_ctrl value */",
        }
        .into();
    }
    match c {
        0x000..=0x0FF => {
            let l: Vec<String> = (0..4).map(|k| (c >> (2 * k) & 3).to_string()).collect();
            format!("quad_perm:[{}]", l.join(","))
        }
        0x101..=0x10F => format!("row_shl:{}", c & 0xF),
        0x111..=0x11F => format!("row_shr:{}", c & 0xF),
        0x121..=0x12F => format!("row_ror:{}", c & 0xF),
        0x130 => "wave_shl:1".into(),
        0x134 => "wave_rol:1".into(),
        0x138 => "wave_shr:1".into(),
        0x13C => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 => "row_bcast:15".into(),
        0x143 => "row_bcast:31".into(),
        _ => format!("row_newbcast:{}", c & 0xF),
    }
}

/// Parses one DPP control modifier (`quad_perm:[..]`, `row_shl:n`, …).
fn parse_dpp_ctrl(k: &str, v: &str, col: usize, target: Target) -> Result<Option<u16>> {
    let bad = || syntax(format!("invalid DPP control `{k}:{v}`"), col);
    let n = || parse_int(v).ok_or_else(bad);
    let c = match k {
        "quad_perm" => {
            let bits = v
                .strip_prefix('[')
                .and_then(|x| x.strip_suffix(']'))
                .ok_or_else(bad)?
                .split(',')
                .map(|x| parse_int(x.trim()).filter(|l| (0..4).contains(l)))
                .collect::<Option<Vec<_>>>()
                .filter(|l| l.len() == 4)
                .ok_or_else(bad)?;
            bits.iter()
                .enumerate()
                .fold(0, |a, (i, l)| a | (*l as u16) << (2 * i))
        }
        "row_shl" | "row_shr" | "row_ror" => {
            let x = n()?;
            if !(1..=15).contains(&x) {
                return Err(bad());
            }
            let base = match k {
                "row_shl" => 0x100,
                "row_shr" => 0x110,
                _ => 0x120,
            };
            base | x as u16
        }
        "wave_shl" | "wave_rol" | "wave_shr" | "wave_ror" if n()? == 1 => match k {
            "wave_shl" => 0x130,
            "wave_rol" => 0x134,
            "wave_shr" => 0x138,
            _ => 0x13C,
        },
        "row_mirror" if v.is_empty() => 0x140,
        "row_half_mirror" if v.is_empty() => 0x141,
        "row_bcast" => match n()? {
            15 => 0x142,
            31 => 0x143,
            _ => return Err(bad()),
        },
        "row_newbcast" if matches!(target, Target::Gfx90a | Target::Gfx942) => {
            let x = n()?;
            if !(0..=15).contains(&x) {
                return Err(bad());
            }
            0x150 | x as u16
        }
        _ => return Ok(None),
    };
    Ok(Some(c))
}

/// Data width in dwords of a MIMG instruction: one per dmask bit (four
/// for gather4, at least one), packed in pairs with d16, plus one for tfe.
fn mimg_data_width(def: &InstDef, m: &Modifiers) -> u8 {
    let mut n = (m.dmask.count_ones() as u8).max(1);
    if def.mnemonic.starts_with("image_gather4") {
        n = 4;
    }
    if m.d16 && !def.mnemonic.starts_with("image_atomic") {
        n = n.div_ceil(2);
    }
    n += u8::from(m.tfe);
    // gather4 has no 3-dword form (d16 + tfe): LLVM keeps its 4-dword one.
    if def.mnemonic.starts_with("image_gather4") && n == 3 {
        n = 4;
    }
    n
}

const EXP_TARGETS: [(u32, &str); 2] = [(8, "mrtz"), (9, "null")];

fn print_exp_target(t: u32) -> String {
    match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        9 => "null".into(),
        12..=15 => format!("pos{}", t - 12),
        32..=63 => format!("param{}", t - 32),
        _ => format!("invalid_target_{t}"),
    }
}

fn parse_exp_target(t: &str, col: usize) -> Result<u32> {
    let bad = || syntax(format!("unknown export target `{t}`"), col);
    let num = |p: &str| p.parse::<u32>().map_err(|_| bad());
    let v = if let Some(n) = t.strip_prefix("mrt").filter(|n| *n != "z") {
        num(n).ok().filter(|n| *n <= 7).ok_or_else(bad)?
    } else if let Some(n) = t.strip_prefix("pos") {
        num(n).ok().filter(|n| *n <= 3).ok_or_else(bad)? + 12
    } else if let Some(n) = t.strip_prefix("param") {
        num(n).ok().filter(|n| *n <= 31).ok_or_else(bad)? + 32
    } else {
        EXP_TARGETS
            .iter()
            .find(|(_, n)| *n == t)
            .map(|(v, _)| *v)
            .ok_or_else(bad)?
    };
    Ok(v)
}

const CHANNELS: [char; 4] = ['x', 'y', 'z', 'w'];
const PARAMS: [&str; 3] = ["p10", "p20", "p0"];

fn print_attr(v: i64) -> String {
    format!("attr{}.{}", v & 0x3F, CHANNELS[((v >> 6) & 3) as usize])
}

fn parse_attr(text: &str, col: usize) -> Result<i64> {
    let bad = || syntax(format!("expected attrN.[xyzw], found `{text}`"), col);
    let (n, c) = text
        .strip_prefix("attr")
        .and_then(|t| t.split_once('.'))
        .ok_or_else(bad)?;
    let n: i64 = n
        .parse()
        .ok()
        .filter(|n| (0..64).contains(n))
        .ok_or_else(bad)?;
    let c = CHANNELS
        .iter()
        .position(|ch| c.len() == 1 && c.starts_with(*ch))
        .ok_or_else(bad)?;
    Ok(n | (c as i64) << 6)
}

/// Register width of the operand at role index `i` (from the table's base
/// form), defaulting to 1.
fn width(def: &InstDef, i: usize) -> u8 {
    // Atomics without a returned value leave their optional operands out
    // of `widths`: operand `i`'s index there counts the present ones.
    let atomic = def.operands.iter().any(|r| is_opt(r)) && def.mnemonic.contains("atomic");
    let absent = |k: usize| atomic && is_opt(def.operands[k]);
    let pos =
        (i < def.operands.len() && !absent(i)).then(|| (0..i).filter(|&k| !absent(k)).count());
    let w = match pos {
        Some(p) => def.widths.get(p).copied().unwrap_or(0),
        None => {
            // Returning atomic's vdst: as wide as the data (half for cmpswap).
            let d = def
                .operands
                .iter()
                .position(|r| role(r) == "vdata")
                .map_or(1, |k| width(def, k));
            if def.mnemonic.contains("cmpswap") {
                d / 2
            } else {
                d
            }
        }
    };
    w.max(1)
}

fn word(bytes: &[u8], at: usize, offset: usize) -> Result<u32> {
    match bytes.get(at..at + 4) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(Error::Truncated {
            need: at + 4,
            have: bytes.len(),
            offset,
        }),
    }
}

fn is_ds2(def: &InstDef) -> bool {
    def.modifiers.contains(&"offset0")
}

/// Per target: (family, opcode) → the row the decoder picks (among aliases
/// sharing an encoding, the one whose mnemonic is the printed name).
fn decode_index(target: Target) -> &'static HashMap<(Family, u16), &'static InstDef> {
    static INDEX: [OnceLock<HashMap<(Family, u16), &'static InstDef>>; Target::COUNT] =
        [const { OnceLock::new() }; Target::COUNT];
    INDEX[target.index()].get_or_init(|| {
        let mut map: HashMap<(Family, u16), &'static InstDef> = HashMap::new();
        for d in INSTRUCTIONS {
            if let Some(op) = d.opcode(target) {
                let canonical =
                    |d: &InstDef| d.mnemonic == d.name || d.name.starts_with(d.mnemonic);
                map.entry((d.family, op))
                    .and_modify(|cur| {
                        if !canonical(cur) && canonical(d) {
                            *cur = d;
                        }
                    })
                    .or_insert(d);
            }
        }
        map
    })
}

/// A memory instruction's data or destination register `n`: AGPR `a[n]`
/// when the instruction's `acc` bit is set, else VGPR `v[n]`.
fn data_register(acc: bool, n: u32, width: u8) -> Operand {
    if acc {
        Operand::Agpr {
            num: n as u8,
            width,
        }
    } else {
        Operand::Src {
            code: (256 + n) as u16,
            width,
        }
    }
}

/// Decodes one instruction at the start of `bytes`; returns it and its
/// length in bytes. Errors name the byte offset (relative to `bytes`).
pub fn decode(bytes: &[u8], target: Target) -> Result<(Inst, usize)> {
    let w0 = word(bytes, 0, 0)?;
    let (family, opcode) = classify(w0);
    let first = decode_as(bytes, target, family, opcode);
    // An operand-less VOP1 (v_nop, v_clrexcp) ignores its src0 field: when
    // src0 names SDWA or DPP but the second word is not a valid one,
    // llvm-objdump-19 decodes the 4-byte form.
    if first.is_err() && matches!(family, Family::Vop1Dpp | Family::Vop1Sdwa) {
        let plain = decode_as(bytes, target, Family::Vop1, opcode);
        if plain.as_ref().is_ok_and(|(i, _)| i.def.operands.is_empty()) {
            return plain;
        }
    }
    first
}

/// [`decode`] with the family and opcode already classified.
fn decode_as(bytes: &[u8], target: Target, family: Family, opcode: u16) -> Result<(Inst, usize)> {
    let w0 = word(bytes, 0, 0)?;
    let def = decode_index(target)
        .get(&(family, opcode))
        .copied()
        .ok_or(Error::UnknownOpcode {
            family,
            opcode,
            target: target.name(),
            offset: 0,
        })?;
    if !family.is_supported() {
        return Err(Error::Unsupported {
            family,
            name: def.name,
            offset: 0,
        });
    }
    let mut mods = Modifiers::default();
    let mut ops = Vec::new();
    let mut len = 4;
    let src = |code: u32, w: u8| Operand::Src {
        code: code as u16,
        width: w,
    };
    let literal = |len: &mut usize| -> Result<Operand> {
        let v = word(bytes, 4, 0)?;
        *len = 8;
        Ok(Operand::Literal(v))
    };
    match family {
        Family::Sop1 | Family::Sop2 | Family::Sopc => {
            for (i, r) in def.operands.iter().enumerate() {
                if role(r) == "imask" {
                    ops.push(Operand::Imm(i64::from((w0 >> 8) & 0xFF)));
                    continue;
                }
                let field = match (family, role(r)) {
                    (_, "sdst") => (w0 >> 16) & 0x7F,
                    (Family::Sop2 | Family::Sopc, "ssrc1") => (w0 >> 8) & 0xFF,
                    _ => w0 & 0xFF,
                };
                ops.push(if field == 255 {
                    literal(&mut len)?
                } else {
                    src(field, width(def, i))
                });
            }
        }
        Family::Sopk => {
            for (i, r) in def.operands.iter().enumerate() {
                ops.push(match role(r) {
                    "sdst" | "ssrc" => src((w0 >> 16) & 0x7F, width(def, i)),
                    "simm32" => literal(&mut len)?,
                    _ => Operand::Imm(i64::from(w0 & 0xFFFF)),
                });
            }
        }
        Family::Sopp => {
            let imm = w0 & 0xFFFF;
            if def.operands.iter().all(|r| r.is_empty()) {
                // Only s_endpgm has an optional immediate; the others must be zero.
                if imm != 0 && def.mnemonic != "s_endpgm" {
                    return Err(invalid(
                        def,
                        "nonzero immediate on an instruction without operands",
                        0,
                    ));
                }
                if imm != 0 {
                    ops.push(Operand::Imm(i64::from(imm)));
                }
            } else {
                ops.push(Operand::Imm(i64::from(imm)));
            }
        }
        Family::Smem => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let imm = w0 >> 17 & 1 == 1;
            let soe = w0 >> 14 & 1 == 1;
            // LLVM ignores cache bits the instruction does not take.
            mods.glc = w0 >> 16 & 1 == 1 && def.modifiers.contains(&"glc");
            for (i, r) in def.operands.iter().enumerate() {
                ops.push(match role(r) {
                    "sdata" | "sdst" => src((w0 >> 6) & 0x7F, width(def, i)),
                    "probe" => Operand::Imm(i64::from((w0 >> 6) & 0x7F)),
                    "sbase" => {
                        // A 128-bit base is 4-aligned: LLVM drops the low bit.
                        let w = width(def, i);
                        let base = (w0 & 0x3F) << 1;
                        src(
                            if w == 4 && base <= 101 {
                                base & !3
                            } else {
                                base
                            },
                            w,
                        )
                    }
                    _ => {
                        let off = (((w1 & 0x1F_FFFF) << 11) as i32) >> 11;
                        if soe && !imm {
                            src(w1 >> 25, 1)
                        } else if soe {
                            mods.offset = off;
                            mods.soe = true;
                            src(w1 >> 25, 1)
                        } else if imm {
                            Operand::Imm(i64::from(off))
                        } else {
                            src(w1 & 0x7F, 1)
                        }
                    }
                });
            }
        }
        Family::Vop1 | Family::Vop2 | Family::Vopc => {
            // Without operands the vdst field must be zero; src0 is ignored
            // (llvm-objdump-19 prints `v_nop` for any src0).
            if def.operands.iter().all(|r| r.is_empty()) && w0 & 0x01FE_0000 != 0 {
                return Err(invalid(
                    def,
                    "operand fields of an instruction without operands",
                    0,
                ));
            }
            if def.mnemonic == "v_accvgpr_mov_b32" {
                // VOP1 with AGPRs in both the vdst and the src0 VGPR space.
                if w0 & 0x100 == 0 {
                    return Err(invalid(def, "v_accvgpr_mov_b32 source must be an AGPR", 0));
                }
                ops.push(Operand::Agpr {
                    num: ((w0 >> 17) & 0xFF) as u8,
                    width: 1,
                });
                ops.push(Operand::Agpr {
                    num: (w0 & 0xFF) as u8,
                    width: 1,
                });
            }
            for (i, r) in def.operands.iter().enumerate() {
                if def.mnemonic == "v_accvgpr_mov_b32" {
                    break;
                }
                ops.push(match role(r) {
                    "vdst" => src(256 + ((w0 >> 17) & 0xFF), width(def, i)),
                    "sdst" => src((w0 >> 17) & 0xFF, width(def, i)),
                    "vcc" => src(106, 2),
                    "vsrc1" | "vsrc2" => src(256 + ((w0 >> 9) & 0xFF), width(def, i)),
                    "simm32" => literal(&mut len)?,
                    _ => {
                        let c = w0 & 0x1FF;
                        if c == 255 {
                            literal(&mut len)?
                        } else {
                            src(c, width(def, i))
                        }
                    }
                });
            }
        }
        Family::Vop3 => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let vop3b = def.operands.len() > 1 && matches!(role(def.operands[1]), "sdst" | "vcc");
            mods.clamp = w0 >> 15 & 1 == 1;
            if !vop3b {
                mods.op_sel = ((w0 >> 11) & 0xF) as u8;
                mods.abs = ((w0 >> 8) & 7) as u8;
            }
            mods.neg = (w1 >> 29) as u8;
            mods.omod = ((w1 >> 27) & 3) as u8;
            for (i, (r, slot)) in def.operands.iter().zip(vop3_slots(def)).enumerate() {
                let w = width(def, i);
                ops.push(match (slot, role(r)) {
                    (Slot::Vdst, "vdst") => src(256 + (w0 & 0xFF), w),
                    (Slot::Vdst, _) => src(w0 & 0xFF, w),
                    (Slot::Sdst, _) => src((w0 >> 8) & 0x7F, w),
                    (Slot::Src(k), name) => {
                        let c = (w1 >> (9 * k)) & 0x1FF;
                        if name == "attr" {
                            mods.high = c >> 8 & 1 == 1;
                            ops.push(Operand::Imm(i64::from(c & 0xFF)));
                            continue;
                        }
                        if name == "param" {
                            ops.push(Operand::Imm(i64::from(c)));
                            continue;
                        }
                        if c == 255 {
                            return Err(Error::Invalid {
                                name: def.name,
                                reason: "VOP3 has no literal on GFX9",
                                offset: 4,
                            });
                        }
                        src(c, w)
                    }
                });
            }
        }
        Family::Vop1Dpp
        | Family::Vop2Dpp
        | Family::Vop1Sdwa
        | Family::Vop2Sdwa
        | Family::VopcSdwa => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let dpp = is_dpp(family);
            if def.operands.is_empty() && w0 & 0x01FE_0000 != 0 {
                return Err(invalid(
                    def,
                    "vdst field of an instruction without operands",
                    2,
                ));
            }
            // Operand-less DPP/SDWA (v_nop): the source fields must be zero;
            // SDWA's selects and unused bits are ignored.
            let unused = if dpp { 0x00F0_00FF } else { !0x4040_1F00 };
            if def.operands.is_empty() && w1 & unused != 0 {
                return Err(invalid(
                    def,
                    "source fields of an instruction without operands",
                    4,
                ));
            }
            let (s0, s1) = if dpp {
                // An invalid control still decodes (printed as a comment).
                mods.dpp_ctrl = ((w1 >> 8) & 0x1FF) as u16;
                mods.bound_ctrl = w1 >> 19 & 1 == 1;
                mods.neg = ((w1 >> 20) & 1 | ((w1 >> 22) & 1) << 1) as u8;
                mods.abs = ((w1 >> 21) & 1 | ((w1 >> 23) & 1) << 1) as u8;
                mods.bank_mask = ((w1 >> 24) & 0xF) as u8;
                mods.row_mask = (w1 >> 28) as u8;
                (false, false)
            } else {
                if def.operands.is_empty() {
                    // v_nop_sdwa: nothing to print.
                    mods.dst_sel = 6;
                    mods.dst_unused = 0;
                } else if family != Family::VopcSdwa {
                    if def.modifiers.contains(&"dst_sel") {
                        mods.dst_sel = ((w1 >> 8) & 7) as u8;
                        mods.dst_unused = ((w1 >> 11) & 3) as u8;
                    } else {
                        mods.dst_sel = 6;
                    }
                    mods.clamp = w1 >> 13 & 1 == 1;
                    mods.omod = ((w1 >> 14) & 3) as u8;
                    // dst_unused 3 has no name; LLVM prints it as UNUSED_PAD.
                    if mods.dst_sel > 6 {
                        return Err(invalid(def, "invalid SDWA dst_sel/dst_unused", 5));
                    }
                }
                mods.src_sel = [((w1 >> 16) & 7) as u8, ((w1 >> 24) & 7) as u8];
                mods.sext = ((w1 >> 19) & 1 | ((w1 >> 27) & 1) << 1) as u8;
                mods.neg = ((w1 >> 20) & 1 | ((w1 >> 28) & 1) << 1) as u8;
                mods.abs = ((w1 >> 21) & 1 | ((w1 >> 29) & 1) << 1) as u8;
                if mods.src_sel.iter().any(|s| *s > 6) {
                    return Err(invalid(def, "invalid SDWA src_sel", 6));
                }
                (w1 >> 23 & 1 == 1, w1 >> 31 & 1 == 1)
            };
            // Float sources (`:m`) take neg/abs. In DPP, an i16/i32 source of
            // an instruction with float modifiers (v_ldexp_f16's exponent)
            // reads the neg bit as sext and ignores abs; neg/abs on other
            // sources make the encoding invalid. SDWA ignores them.
            let kinds: Vec<(u8, bool, bool)> = def
                .operands
                .iter()
                .enumerate()
                .filter_map(|(i, r)| {
                    let k = dpp_sdwa_src(def, i)?;
                    let fp = r.split(':').any(|p| p == "m");
                    let int = r
                        .split(':')
                        .any(|p| matches!(p, "i16" | "i32" | "u16" | "u32"));
                    Some((k, fp, int))
                })
                .collect();
            let any_fp = kinds.iter().any(|(_, fp, _)| *fp);
            for (k, fp, int) in kinds {
                if fp {
                    continue;
                }
                let (n, a) = (mods.neg >> k & 1, mods.abs >> k & 1);
                mods.neg &= !(1 << k);
                mods.abs &= !(1 << k);
                if dpp && int && any_fp {
                    mods.sext |= n << k;
                } else if dpp && (n | a) != 0 && !def.mnemonic.contains("dot") {
                    return Err(invalid(def, "neg/abs on a DPP source without modifiers", 6));
                }
            }
            // 64-bit DPP (gfx90a+) only has row_newbcast.
            if dpp
                && !(0x150..=0x15F).contains(&mods.dpp_ctrl)
                && def.operands.iter().enumerate().any(|(i, r)| {
                    matches!(
                        role(r),
                        "vdst" | "vsrc" | "vsrc0" | "vsrc1" | "src" | "src0" | "src1"
                    ) && width(def, i) == 2
                })
            {
                return Err(invalid(def, "DP ALU dpp only supports row_newbcast", 5));
            }
            for (i, r) in def.operands.iter().enumerate() {
                let w = width(def, i);
                let op = match (role(r), dpp_sdwa_src(def, i)) {
                    ("vdst", _) => src(256 + ((w0 >> 17) & 0xFF), w),
                    ("vcc", _) => src(106, 2),
                    ("sdst", _) => {
                        if w1 >> 15 & 1 == 1 {
                            src((w1 >> 8) & 0x7F, 2)
                        } else {
                            src(106, 2)
                        }
                    }
                    (_, Some(0)) => src(if s0 { w1 & 0xFF } else { 256 + (w1 & 0xFF) }, w),
                    (_, Some(_)) => {
                        let f = (w0 >> 9) & 0xFF;
                        src(if s1 { f } else { 256 + f }, w)
                    }
                    _ => return Err(invalid(def, "unexpected DPP/SDWA operand", 0)),
                };
                ops.push(op);
            }
        }
        Family::Vop3p => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let mai = is_mai(def);
            // gfx908: MFMA destinations and accumulators are always AGPRs
            // (LLVM ignores bit 15 there).
            let acc_cd = mai && (target == Target::Gfx908 || w0 >> 15 & 1 == 1);
            if mai {
                mods.cbsz = ((w0 >> 8) & 7) as u8;
                mods.abid = ((w0 >> 11) & 0xF) as u8;
                mods.blgp = (w1 >> 29) as u8;
            } else {
                mods.clamp = w0 >> 15 & 1 == 1;
                mods.op_sel = ((w0 >> 11) & 7) as u8;
                mods.op_sel_hi = (((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2) as u8;
                mods.abs = ((w0 >> 8) & 7) as u8;
                mods.neg = (w1 >> 29) as u8;
            }
            let mut k = 0;
            for (i, r) in def.operands.iter().enumerate() {
                let w = width(def, i);
                let reg = |n: u32, agpr: bool| {
                    if agpr {
                        Operand::Agpr {
                            num: n as u8,
                            width: w,
                        }
                    } else {
                        src(256 + n, w)
                    }
                };
                let name = role(r);
                if name == "vdst" {
                    let agpr = acc_cd || def.mnemonic.starts_with("v_accvgpr_write");
                    ops.push(reg(w0 & 0xFF, agpr));
                    continue;
                }
                let c = (w1 >> (9 * k)) & 0x1FF;
                if c == 255 {
                    return Err(invalid(def, "VOP3P has no literal on GFX9", 4));
                }
                let agpr = match (mai, k) {
                    (true, 0 | 1) => w1 >> (27 + k) & 1 == 1,
                    (true, _) => acc_cd && name != "vsrc2",
                    _ => def.mnemonic.starts_with("v_accvgpr_read"),
                };
                k += 1;
                if mai && c < 128 {
                    return Err(invalid(def, "MFMA sources cannot be SGPRs", 4));
                }
                ops.push(if c >= 256 {
                    reg(c - 256, agpr)
                } else {
                    src(c, w)
                });
            }
        }
        Family::Vintrp => {
            for (i, r) in def.operands.iter().enumerate() {
                ops.push(match role(r) {
                    "vdst" => src(256 + ((w0 >> 18) & 0xFF), width(def, i)),
                    "attr" => Operand::Imm(i64::from((w0 >> 10) & 0x3F | ((w0 >> 8) & 3) << 6)),
                    "param" => Operand::Imm(i64::from(w0 & 0xFF)),
                    _ => src(256 + (w0 & 0xFF), width(def, i)),
                });
            }
        }
        Family::Ds => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            // LLVM ignores the gds bit where it does not accept `gds`
            // (gfx90a/gfx942 for most returning ops).
            mods.gds = w0 >> 16 & 1 == 1 && def.accepts("gds", target);
            let off0 = (w0 & 0xFF) as u8;
            let off1 = ((w0 >> 8) & 0xFF) as u8;
            if is_ds2(def) {
                mods.offset01 = Some((off0, off1));
            } else {
                mods.offset = (w0 & 0xFFFF) as i32;
            }
            let acc = target.has_agprs() && w0 >> 25 & 1 == 1;
            let vreg = |n: u32, w: u8| data_register(acc, n, w);
            // Register fields the instruction has no operand for must be
            // zero (llvm-objdump-19 decodes nothing otherwise).
            let mut used = 0u32;
            for (i, r) in def.operands.iter().enumerate() {
                let w = width(def, i);
                let shift = match role(r) {
                    "vdst" => 24,
                    "vaddr" => 0,
                    "vdata" if def.mnemonic.starts_with("ds_gws") => 0,
                    "vdata1" => 16,
                    "" => continue,
                    _ => 8,
                };
                used |= 0xFF << shift;
                let n = (w1 >> shift) & 0xFF;
                ops.push(if shift == 0 && role(r) == "vaddr" {
                    src(256 + n, w)
                } else {
                    vreg(n, w)
                });
            }
            if w1 & !used != 0 {
                return Err(invalid(def, "register field of an absent DS operand", 4));
            }
        }
        Family::Mimg => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            mods.dmask = ((w0 >> 8) & 0xF) as u8;
            mods.unorm = w0 >> 12 & 1 == 1;
            mods.glc = w0 >> 13 & 1 == 1;
            mods.da = w0 >> 14 & 1 == 1;
            mods.a16 = w0 >> 15 & 1 == 1;
            let acc = target.has_agprs() && w0 >> 16 & 1 == 1;
            mods.tfe = !target.has_agprs() && w0 >> 16 & 1 == 1;
            mods.lwe = w0 >> 17 & 1 == 1;
            mods.slc = w0 >> 25 & 1 == 1;
            mods.sc1 = target == Target::Gfx90a && w0 >> 7 & 1 == 1;
            mods.d16 = w1 >> 31 & 1 == 1;
            if !def.operands.iter().any(|r| role(r) == "ssamp") && (w1 >> 21) & 0x1F != 0 {
                return Err(invalid(
                    def,
                    "sampler field set on an instruction without a sampler",
                    6,
                ));
            }
            let mut data = mimg_data_width(def, &mods);
            if ((w1 >> 8) & 0xFF) + u32::from(data) > 256 {
                // No such register tuple: LLVM keeps the decoder's default form.
                data = def.widths.first().copied().unwrap_or(1).max(1);
            }
            for (i, r) in def.operands.iter().enumerate() {
                ops.push(match role(r) {
                    "vdst" | "vdata" => {
                        let n = (w1 >> 8) & 0xFF;
                        if acc {
                            Operand::Agpr {
                                num: n as u8,
                                width: data,
                            }
                        } else {
                            src(256 + n, data)
                        }
                    }
                    "vaddr" => src(256 + (w1 & 0xFF), width(def, i)),
                    "srsrc" => src(((w1 >> 16) & 0x1F) << 2, width(def, i)),
                    _ => src(((w1 >> 21) & 0x1F) << 2, 4),
                });
            }
        }
        Family::Exp => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let en = w0 & 0xF;
            let tgt = (w0 >> 4) & 0x3F;
            mods.compr = w0 >> 10 & 1 == 1;
            mods.done = w0 >> 11 & 1 == 1;
            mods.vm = w0 >> 12 & 1 == 1;
            ops.push(Operand::Imm(i64::from(tgt)));
            for k in 0..4u32 {
                // compr: the pairs are (vsrc0, vsrc0) and (vsrc1, vsrc1).
                let field = if mods.compr { k / 2 } else { k };
                let on = en >> k & 1 == 1;
                ops.push(if on {
                    src(256 + ((w1 >> (8 * field)) & 0xFF), 1)
                } else {
                    Operand::Off
                });
            }
        }
        Family::Mubuf | Family::Mtbuf => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            let mubuf = family == Family::Mubuf;
            if def.operands.iter().all(|r| r.is_empty()) {
                // buffer_wbinvl1 and friends: LLVM ignores every other field
                // (but gfx942's buffer_wbl2/buffer_inv keep sc0 and sc1).
                let mut mods = Modifiers::default();
                if flag_beyond_inventory(def, "sc0", target) {
                    mods.glc = w0 >> 14 & 1 == 1;
                    mods.sc1 = w0 >> 15 & 1 == 1;
                }
                return Ok((
                    Inst {
                        target,
                        def,
                        operands: Vec::new(),
                        mods,
                    },
                    len,
                ));
            }
            mods.offset = (w0 & 0xFFF) as i32;
            mods.offen = w0 >> 12 & 1 == 1;
            mods.idxen = w0 >> 13 & 1 == 1;
            mods.glc = w0 >> 14 & 1 == 1;
            if mubuf {
                mods.lds = w0 >> 16 & 1 == 1 && def.modifiers.contains(&"lds");
                mods.slc = w0 >> 17 & 1 == 1;
                mods.sc1 = matches!(target, Target::Gfx90a | Target::Gfx942) && w0 >> 15 & 1 == 1;
            } else {
                mods.format = ((w0 >> 19) & 0x7F) as u8;
                mods.slc = w1 >> 22 & 1 == 1;
                mods.sc1 = matches!(target, Target::Gfx90a | Target::Gfx942) && w1 >> 21 & 1 == 1;
            }
            let acc = target.has_agprs() && w1 >> 23 & 1 == 1;
            // tfe (gfx900/gfx906) returns one more dword: the data tuple grows.
            mods.tfe = !target.has_agprs() && w1 >> 23 & 1 == 1;
            let vreg = |n: u32, w: u8| data_register(acc, n, w);
            for (i, r) in def.operands.iter().enumerate() {
                let w = width(def, i);
                match role(r) {
                    "vdst" if is_opt(r) && mods.lds => {}
                    "vdst" | "vdata" => ops.push(vreg((w1 >> 8) & 0xFF, w + u8::from(mods.tfe))),
                    "vaddr" => ops.push(match (mods.idxen, mods.offen) {
                        (false, false) => Operand::Off,
                        (true, true) => src(256 + (w1 & 0xFF), 2),
                        _ => src(256 + (w1 & 0xFF), 1),
                    }),
                    "srsrc" => ops.push(src(((w1 >> 16) & 0x1F) << 2, 4)),
                    _ => {
                        let c = w1 >> 24;
                        if c == 255 {
                            return Err(invalid(def, "soffset cannot be a literal", 7));
                        }
                        ops.push(src(c, 1));
                    }
                }
            }
        }
        Family::Flat | Family::Global | Family::Scratch => {
            let w1 = word(bytes, 4, 0)?;
            len = 8;
            mods.glc = w0 >> 16 & 1 == 1;
            mods.slc = w0 >> 17 & 1 == 1;
            // gfx942 scratch: bit 13 is SVE (vaddr present), not lds.
            let svs = target == Target::Gfx942 && family == Family::Scratch;
            let sve = svs && w0 >> 13 & 1 == 1;
            mods.lds = !svs && w0 >> 13 & 1 == 1 && def.modifiers.contains(&"lds");
            // Bit 25: gfx90a `scc`, gfx942 `sc1`; ignored before.
            mods.sc1 = matches!(target, Target::Gfx90a | Target::Gfx942) && w0 >> 25 & 1 == 1;
            let raw = w0 & 0x1FFF;
            // FLAT takes a 12-bit unsigned offset in assembly, but
            // llvm-objdump-19 prints the whole 13-bit field unsigned.
            mods.offset = if family == Family::Flat {
                raw as i32
            } else {
                ((raw << 19) as i32) >> 19
            };
            let acc = target.has_agprs() && w1 >> 23 & 1 == 1;
            let saddr = (w1 >> 16) & 0x7F;
            let vreg = |n: u32, w: u8| data_register(acc, n, w);
            for (i, r) in def.operands.iter().enumerate() {
                let mut w = width(def, i);
                match role(r) {
                    "vdst" => {
                        if is_opt(r) && (mods.lds || (def.mnemonic.contains("atomic") && !mods.glc))
                        {
                            continue;
                        }
                        ops.push(vreg(w1 >> 24, w));
                    }
                    "vaddr" => {
                        if family == Family::Global {
                            w = if saddr == 0x7F { 2 } else { 1 };
                        }
                        let no_vaddr = if svs { !sve } else { saddr != 0x7F };
                        if family == Family::Scratch && no_vaddr {
                            ops.push(Operand::Off);
                        } else {
                            ops.push(src(256 + (w1 & 0xFF), w));
                        }
                    }
                    "saddr" => ops.push(if saddr == 0x7F {
                        Operand::Off
                    } else {
                        src(saddr, w)
                    }),
                    _ => ops.push(vreg((w1 >> 8) & 0xFF, w)),
                }
            }
        }
        _ => unreachable!("unsupported families return above"),
    }
    if def.family == Family::Vop3 {
        let has = |m: &str| def.modifiers.contains(&m);
        let srcs_with_mods = mod_mask(def);
        let stray = (mods.abs | mods.neg) & !srcs_with_mods;
        if stray != 0 {
            if has("op_sel") {
                // VOP3 op_sel instructions without source modifiers: LLVM
                // ignores neg/abs bits.
                mods.neg &= srcs_with_mods;
                mods.abs &= srcs_with_mods;
            } else if def.mnemonic.starts_with("v_div_scale") && mods.abs == 0 {
                // VOP3b float: neg exists although the inventory lists none.
            } else {
                return Err(invalid(def, "neg/abs on a source without modifiers", 0));
            }
        }
        // v_div_scale (VOP3b) takes clamp and omod although the inventory
        // lists neither; clamp is accepted on every VOP3.
        if mods.omod != 0 && !has("omod") && !def.mnemonic.starts_with("v_div_scale") {
            return Err(invalid(def, "omod on an instruction without it", 4));
        }
        if !has("op_sel") {
            // LLVM ignores op_sel bits of instructions without op_sel.
            mods.op_sel = 0;
        }
    }
    for (r, op) in def
        .operands
        .iter()
        .filter(|r| !r.is_empty())
        .zip(ops.iter_mut())
    {
        align_scalar_tuple(op);
        check_operand(def, role(r), op)?;
    }
    Ok((
        Inst {
            target,
            def,
            operands: ops,
            mods,
        },
        len,
    ))
}

fn hwreg_name(id: u32, target: Target) -> Option<&'static str> {
    Some(match id {
        16 => "HW_REG_TBA_LO",
        17 => "HW_REG_TBA_HI",
        18 => "HW_REG_TMA_LO",
        19 => "HW_REG_TMA_HI",
        20 if target == Target::Gfx942 => "HW_REG_XCC_ID",
        21 if target == Target::Gfx942 => "HW_REG_SQ_PERF_SNAPSHOT_DATA",
        22 if target == Target::Gfx942 => "HW_REG_SQ_PERF_SNAPSHOT_DATA1",
        23 if target == Target::Gfx942 => "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
        24 if target == Target::Gfx942 => "HW_REG_SQ_PERF_SNAPSHOT_PC_HI",
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        4 => "HW_REG_HW_ID",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        _ => return None,
    })
}

fn invalid(def: &InstDef, reason: &'static str, offset: usize) -> Error {
    Error::Invalid {
        name: def.name,
        reason,
        offset,
    }
}

/// Rejects operands LLVM would not print as such (invalid source codes,
/// misaligned or out-of-range tuples, constants in destinations). LLVM's
/// disassembler prints some of these with a warning (misaligned SGPR tuples
/// round down) or as `null`; we refuse them.
/// LLVM's disassembler rounds a misaligned SGPR or TTMP tuple down to its
/// alignment (2 for pairs, 4 for wider) and prints a warning; so do we.
fn align_scalar_tuple(op: &mut Operand) {
    if let Operand::Src { code, width } = op {
        let a = u16::from((*width).min(4));
        if *width >= 2 && *code <= 101 {
            *code -= *code % a;
        } else if *width >= 2 && (108..=123).contains(code) {
            *code -= (*code - 108) % a;
        }
    }
}

/// Instructions whose scalar source must be a register (LLVM marks a
/// constant there `/*Invalid immediate*/`).
fn src_must_be_register(def: &InstDef) -> bool {
    def.mnemonic.starts_with("s_movrels")
        || def.mnemonic.starts_with("v_readfirstlane")
        || def.mnemonic == "s_cbranch_join"
        || def.mnemonic == "s_setpc_b64"
        || def.mnemonic == "s_rfe_b64"
}

fn check_operand(def: &InstDef, role: &str, op: &Operand) -> Result<()> {
    let dst = matches!(role, "vdst" | "sdst" | "vcc")
        || (role == "sdata" && def.mnemonic.contains("load"));
    let bad = |reason| Err(invalid(def, reason, 0));
    match *op {
        Operand::Src { code, .. }
            if (role.starts_with("vsrc") || def.mnemonic == "v_readfirstlane_b32")
                && role.contains("src")
                && code < 256
                // v_readfirstlane_b32 also reads lds_direct.
                && !(code == 254 && def.mnemonic == "v_readfirstlane_b32")
                // MFMA A/B take special sources (src_execz, ...) but no numbers.
                && !(is_mai(def) && matches!(code, 235..=239 | 251..=254)) =>
        {
            return bad("operand must be a VGPR");
        }
        Operand::Literal(_) if role.starts_with("vsrc") => return bad("operand must be a VGPR"),
        Operand::Src {
            code: 128..=208 | 240..=248 | 255,
            ..
        }
        | Operand::Literal(_)
            if src_must_be_register(def) && role.contains("src") =>
        {
            return bad("source must be a register");
        }
        Operand::Src { code: 254, width } if width > 1 => {
            return bad("lds_direct is a 32-bit source");
        }
        // LLVM decodes lds_direct in any VALU source field; the assembler
        // takes it only as src0 (see `validate`).
        Operand::Src { code: 254, .. }
            if !(matches!(
                def.family,
                Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p
            ) && role.contains("src")
                && !is_mai(def)) =>
        {
            return bad("lds_direct is only a VALU source");
        }
        Operand::Src {
            code: 124 | 126 | 127,
            ..
        } if def.family == Family::Smem && matches!(role, "sdata" | "sdst") => {
            return bad("SMEM data cannot be m0 or exec");
        }
        Operand::Src { code, width } => {
            let w = u16::from(width.max(1));
            let last = code + w - 1;
            let ok = match code {
                // LLVM prints a tuple starting at or below s101 even when it
                // runs past it (s[100:103]).
                0..=101 => code % w.min(4) == 0,
                125 => true,
                102 | 104 | 106 | 126 => w <= 2,
                103 | 105 | 107 | 124 | 127 => w == 1,
                108..=123 => last <= 123 && (code - 108) % w.min(4) == 0,
                128..=208 | 235..=248 | 251..=254 => !dst,
                256..=511 => last <= 511,
                _ => false,
            };
            if !ok {
                return Err(invalid(
                    def,
                    "invalid or misaligned register/source code",
                    0,
                ));
            }
        }
        Operand::Agpr { num, width } if u16::from(num) + u16::from(width.max(1)) - 1 > 255 => {
            return Err(invalid(def, "AGPR tuple beyond a255", 4));
        }
        _ => {}
    }
    Ok(())
}

/// LLVM prints 16-bit immediates in decimal when they are inline integers
/// (0..=64), else in hex.
fn dec_or_hex(v: i64) -> String {
    if (0..=64).contains(&v) {
        v.to_string()
    } else {
        format!("{v:#x}")
    }
}

const MSG_NAMES: [(u32, &str); 12] = [
    (1, "MSG_INTERRUPT"),
    (2, "MSG_GS"),
    (3, "MSG_GS_DONE"),
    (4, "MSG_SAVEWAVE"),
    (5, "MSG_STALL_WAVE_GEN"),
    (6, "MSG_HALT_WAVES"),
    (7, "MSG_ORDERED_PS_DONE"),
    (8, "MSG_EARLY_PRIM_DEALLOC"),
    (9, "MSG_GS_ALLOC_REQ"),
    (10, "MSG_GET_DOORBELL"),
    (15, "MSG_SYSMSG"),
    (0, ""),
];
const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
const SYSMSG_OPS: [&str; 5] = [
    "",
    "SYSMSG_OP_ECC_ERR_INTERRUPT",
    "SYSMSG_OP_REG_RD",
    "SYSMSG_OP_HOST_TRAP_ACK",
    "SYSMSG_OP_TTRACE_PC",
];

/// Whether (id, op, stream) is a valid GFX9 message (llvm-mc-19: the
/// system message `SYSMSG_OP_HOST_TRAP_ACK`, op 3, is "not supported on
/// this GPU" and llvm-objdump-19 prints it as `sendmsg(15, 3, 0)`).
fn msg_valid(id: u32, op: u32, stream: u32) -> bool {
    match id {
        2 => (1..=3).contains(&op),
        3 => op <= 3 && (op != 0 || stream == 0),
        15 => matches!(op, 1 | 2 | 4) && stream == 0,
        1 | 4..=10 => op == 0 && stream == 0,
        _ => false,
    }
}

fn print_sendmsg(v: u32) -> String {
    let (id, op, stream) = (v & 0xF, (v >> 4) & 7, (v >> 8) & 3);
    if msg_valid(id, op, stream) {
        let name = MSG_NAMES
            .iter()
            .find(|(k, _)| *k == id)
            .map_or("", |(_, n)| n);
        match id {
            2 | 3 if op != 0 => format!("sendmsg({name}, {}, {stream})", GS_OPS[op as usize]),
            2 | 3 => format!("sendmsg({name}, {})", GS_OPS[op as usize]),
            15 => format!("sendmsg({name}, {})", SYSMSG_OPS[op as usize]),
            _ => format!("sendmsg({name})"),
        }
    } else if id | op << 4 | stream << 8 == v {
        format!("sendmsg({id}, {op}, {stream})")
    } else {
        v.to_string()
    }
}

fn parse_sendmsg(text: &str, col: usize) -> Result<i64> {
    if let Some(v) = parse_int(text) {
        return Ok(v);
    }
    let inner = text
        .strip_prefix("sendmsg(")
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| syntax("expected sendmsg(...)", col))?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let field = |k: usize, names: &[&str]| -> Result<u32> {
        match parts.get(k) {
            None => Ok(0),
            Some(p) => parse_int(p)
                .map(|v| v as u32)
                .or_else(|| {
                    names
                        .iter()
                        .position(|n| !n.is_empty() && n == p)
                        .map(|i| i as u32)
                })
                .ok_or_else(|| syntax(format!("unknown sendmsg field `{p}`"), col)),
        }
    };
    let id = match parse_int(parts[0]) {
        Some(v) => v as u32,
        None => MSG_NAMES
            .iter()
            .find(|(_, n)| !n.is_empty() && *n == parts[0])
            .map(|(k, _)| *k)
            .ok_or_else(|| syntax(format!("unknown message `{}`", parts[0]), col))?,
    };
    let op = field(1, if id == 15 { &SYSMSG_OPS } else { &GS_OPS })?;
    let stream = field(2, &[])?;
    if id > 15 || op > 7 || stream > 3 {
        return Err(syntax("sendmsg field out of range", col));
    }
    if parse_int(parts[0]).is_none() && !msg_valid(id, op, stream) {
        return Err(syntax("invalid message operation or stream", col));
    }
    Ok(i64::from(id | op << 4 | stream << 8))
}

fn signed_hex(v: i64) -> String {
    if v < 0 {
        format!("-{:#x}", -v)
    } else {
        format!("{v:#x}")
    }
}

const GPR_IDX: [&str; 4] = ["SRC0", "SRC1", "SRC2", "DST"];

fn print_gpr_idx(v: u32) -> String {
    if v > 15 {
        return format!("{v:#x}");
    }
    let names: Vec<&str> = (0..4)
        .filter(|k| v >> k & 1 == 1)
        .map(|k| GPR_IDX[k])
        .collect();
    format!("gpr_idx({})", names.join(","))
}

fn parse_gpr_idx(text: &str, col: usize) -> Result<i64> {
    if let Some(v) = parse_int(text) {
        if !(0..16).contains(&v) {
            return Err(syntax(
                "invalid immediate: only 4-bit values are legal",
                col,
            ));
        }
        return Ok(v);
    }
    let inner = text
        .strip_prefix("gpr_idx(")
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(|| syntax("expected gpr_idx(...)", col))?;
    let mut v = 0;
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let k = GPR_IDX
            .iter()
            .position(|n| *n == part)
            .ok_or_else(|| syntax(format!("unknown gpr_idx mode `{part}`"), col))?;
        if v >> k & 1 == 1 {
            return Err(syntax("duplicate VGPR index mode", col));
        }
        v |= 1 << k;
    }
    Ok(v)
}

const DFMT: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];
const NFMT: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

/// ` format:[BUF_DATA_FORMAT_x,BUF_NUM_FORMAT_y]`, leaving out the default
/// data format (8) and numeric format (UNORM).
fn print_format(f: u8) -> String {
    let (d, n) = (usize::from(f & 0xF), usize::from(f >> 4));
    let mut parts = Vec::new();
    if d != 1 {
        parts.push(format!("BUF_DATA_FORMAT_{}", DFMT[d]));
    }
    if n != 0 {
        parts.push(format!("BUF_NUM_FORMAT_{}", NFMT[n]));
    }
    format!(" format:[{}]", parts.join(","))
}

fn parse_bit_list(text: &str, col: usize) -> Result<Vec<u8>> {
    let inner = text
        .strip_prefix('[')
        .and_then(|x| x.strip_suffix(']'))
        .ok_or_else(|| syntax("expected [b,b,...]", col))?;
    if inner.split(',').count() > MAX_BITS {
        return Err(syntax("expected a closing square bracket", col));
    }
    inner
        .split(',')
        .map(|b| match b.trim() {
            "0" => Ok(0),
            "1" => Ok(1),
            _ => Err(syntax("bits must be 0 or 1", col)),
        })
        .collect()
}

/// Cache-policy flags that llvm-mc also takes negated (`noglc`, `nosc0`).
const CPOL_FLAGS: [&str; 6] = ["glc", "slc", "sc0", "sc1", "nt", "scc"];

/// llvm-mc reads at most four entries of `op_sel:[...]` and the like.
const MAX_BITS: usize = 4;

/// The immediate offset range of non-buffer SMEM (21-bit signed).
const SMEM_OFFSET: std::ops::RangeInclusive<i64> = -0x10_0000..=0xF_FFFF;

/// Cache-policy flags llvm-mc takes where the inventory does not list them
/// (checked with llvm-mc-19): gfx90a's `scc` on every memory instruction,
/// gfx942's `sc0`/`sc1` on buffer_wbl2/buffer_inv, `tfe` on any image
/// instruction before gfx90a.
fn flag_beyond_inventory(def: &InstDef, k: &str, target: Target) -> bool {
    let memory = matches!(
        def.family,
        Family::Flat | Family::Global | Family::Scratch | Family::Mubuf | Family::Mtbuf
    );
    match (k, target) {
        ("scc", Target::Gfx90a) => memory,
        ("sc0" | "sc1", Target::Gfx942) => matches!(def.mnemonic, "buffer_wbl2" | "buffer_inv"),
        ("tfe", _) => def.family == Family::Mimg && !target.has_agprs(),
        _ => false,
    }
}

/// Modifier keywords of VALU instructions that only some take, and the
/// inventory modifier that allows each.
const GATED_MODIFIERS: [(&str, &str); 6] = [
    ("clamp", "clamp"),
    ("mul", "omod"),
    ("div", "omod"),
    ("high", "high"),
    ("neg", "neg"),
    ("blgp", "blgp"),
];

/// Whether a VALU instruction takes modifier keyword `k` (per the
/// inventory: VOPC e64 has no omod, the fp8 conversions no clamp, ...).
fn modifier_allowed(def: &InstDef, k: &str) -> bool {
    // The inventory omits modifiers LLVM takes on other VOP3, VOP3P and
    // SDWA rows (omod of float-to-int conversions, clamp of v_pk_*_f32):
    // only these families are gated (checked with llvm-mc-19).
    let mn = def.mnemonic;
    let valu = (def.family == Family::Vop3
        && (mn.starts_with("v_cmp") || mn.starts_with("v_interp") || mn.contains("fp8")))
        || is_mai(def);
    match GATED_MODIFIERS.iter().find(|(word, _)| *word == k) {
        Some((_, m)) if valu => def.modifiers.contains(m),
        _ => true,
    }
}

fn small(v: i64, max: u8, col: usize) -> Result<u8> {
    u8::try_from(v)
        .ok()
        .filter(|v| *v <= max)
        .ok_or_else(|| syntax(format!("value must be 0..={max}"), col))
}

fn parse_format(text: &str, col: usize) -> Result<u8> {
    if let Some(v) = parse_int(text) {
        return u8::try_from(v)
            .ok()
            .filter(|v| *v < 128)
            .ok_or_else(|| syntax("format out of range", col));
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| syntax("expected format:[...]", col))?;
    let (mut d, mut n) = (1u8, 0u8);
    for part in inner.split(',').map(str::trim) {
        if let Some(x) = part.strip_prefix("BUF_DATA_FORMAT_") {
            d = DFMT
                .iter()
                .position(|f| *f == x)
                .ok_or_else(|| syntax(format!("unknown `{part}`"), col))? as u8;
        } else if let Some(x) = part.strip_prefix("BUF_NUM_FORMAT_") {
            n = NFMT
                .iter()
                .position(|f| *f == x)
                .ok_or_else(|| syntax(format!("unknown `{part}`"), col))? as u8;
        } else {
            return Err(syntax(format!("unknown format `{part}`"), col));
        }
    }
    Ok(d | n << 4)
}

/// MTBUF's legacy `dfmt:N` (index 0, N < 16) or `nfmt:N` (index 1, N < 8):
/// None if `t` is neither, an inner None if N is out of range.
fn legacy_format_field(t: &str) -> Option<(usize, Option<u8>)> {
    let (k, v) = t.split_once(':')?;
    let (index, limit) = match k {
        "dfmt" => (0, 16),
        "nfmt" => (1, 8),
        _ => return None,
    };
    let v = parse_int(v).filter(|v| (0..limit).contains(v));
    Some((index, v.map(|v| v as u8)))
}

/// Cache-policy bits as LLVM spells them per target: gfx942 `sc0 nt sc1`,
/// gfx90a `glc slc scc`, earlier `glc slc`.
fn print_cpol(out: &mut String, m: &Modifiers, target: Target) {
    let names = if target == Target::Gfx942 {
        ["sc0", "nt", "sc1"]
    } else {
        ["glc", "slc", "scc"]
    };
    for (on, name) in [m.glc, m.slc, m.sc1].into_iter().zip(names) {
        if on {
            out.push(' ');
            out.push_str(name);
        }
    }
}

/// LLVM's `swizzle(...)` spelling of a ds_swizzle_b32 offset.
fn print_swizzle(v: u32) -> String {
    if v & 0xFF00 == 0x8000 {
        let l: Vec<String> = (0..4).map(|k| (v >> (2 * k) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", l.join(","));
    }
    if v & 0x8000 != 0 {
        return v.to_string();
    }
    let (and, or, xor) = (v & 0x1F, (v >> 5) & 0x1F, (v >> 10) & 0x1F);
    if and == 0x1F && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 0x1F && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1F - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    let mask: String = (0..5)
        .rev()
        .map(|b| match (and >> b & 1, or >> b & 1, xor >> b & 1) {
            (0, 0, _) => '0',
            (0, _, _) => '1',
            (_, _, 1) => 'i',
            _ => 'p',
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{mask}\")")
}

fn parse_swizzle(text: &str, col: usize) -> Result<i64> {
    let bad = || syntax(format!("bad swizzle `{text}`"), col);
    let inner = text
        .strip_prefix("swizzle(")
        .and_then(|t| t.strip_suffix(')'))
        .ok_or_else(bad)?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let num = |k: usize| parts.get(k).and_then(|p| parse_int(p)).ok_or_else(bad);
    let v = match parts[0] {
        "QUAD_PERM" if parts.len() == 5 => {
            let mut v = 0x8000;
            for k in 0..4 {
                let l = num(k + 1)?;
                if !(0..4).contains(&l) {
                    return Err(bad());
                }
                v |= l << (2 * k);
            }
            v
        }
        "SWAP" if parts.len() == 2 => {
            let n = num(1)?;
            if !(1..=16).contains(&n) || n.count_ones() != 1 {
                return Err(bad());
            }
            0x1F | n << 10
        }
        "REVERSE" if parts.len() == 2 => {
            let n = num(1)?;
            if !(2..=32).contains(&n) || n.count_ones() != 1 {
                return Err(bad());
            }
            0x1F | (n - 1) << 10
        }
        "BROADCAST" if parts.len() == 3 => {
            let (g, l) = (num(1)?, num(2)?);
            if !(2..=32).contains(&g) || g.count_ones() != 1 || !(0..g).contains(&l) {
                return Err(bad());
            }
            (32 - g) | l << 5
        }
        "BITMASK_PERM" if parts.len() == 2 => {
            let m = parts[1]
                .strip_prefix('"')
                .and_then(|p| p.strip_suffix('"'))
                .ok_or_else(bad)?;
            if m.len() != 5 {
                return Err(bad());
            }
            let (mut and, mut or, mut xor) = (0, 0, 0);
            for (i, ch) in m.chars().enumerate() {
                let bit = 1 << (4 - i);
                match ch {
                    '0' => {}
                    '1' => or |= bit,
                    'p' => and |= bit,
                    'i' => {
                        and |= bit;
                        xor |= bit;
                    }
                    _ => return Err(bad()),
                }
            }
            and | or << 5 | xor << 10
        }
        _ => return Err(bad()),
    };
    Ok(v)
}

fn print_hwreg(v: u32, target: Target) -> String {
    let id = v & 0x3F;
    let off = (v >> 6) & 0x1F;
    let size = ((v >> 11) & 0x1F) + 1;
    let name = hwreg_name(id, target).map_or(id.to_string(), str::to_string);
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

fn print_waitcnt(v: u32) -> String {
    let vm = (v & 0xF) | ((v >> 14 & 3) << 4);
    let exp = (v >> 4) & 7;
    let lgkm = (v >> 8) & 0xF;
    let mut parts = Vec::new();
    if vm != 63 {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 15 {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    if parts.is_empty() {
        "vmcnt(63) expcnt(7) lgkmcnt(15)".to_string()
    } else {
        parts.join(" ")
    }
}

/// The type of operand `i`: the instruction's, except that a 32-bit
/// operand of a 16-bit integer instruction (`v_sad_u16`'s sources,
/// `v_mad_u32_u16`'s src2) takes f32 constants.
fn operand_type(def: &InstDef, i: usize) -> SrcType {
    let ty = def.src_type();
    let wide = def.operands.get(i).is_some_and(|r| {
        r.split(':')
            .skip(1)
            .any(|p| matches!(p, "u32" | "i32" | "b32" | "u16x2" | "i16x2"))
    });
    if ty == SrcType::I16 && wide {
        SrcType::B32
    } else {
        ty
    }
}

/// LLVM's text for the instruction, as llvm-objdump-19 prints it (without
/// address, bytes, or branch-target comments).
pub fn print(inst: &Inst) -> String {
    let def = inst.def;
    let mut out = def.name.to_string();
    let m = &inst.mods;
    let mut texts = Vec::new();
    let slots = if def.family == Family::Vop3 || (def.family == Family::Vop3p && is_mix(def)) {
        vop3_slots(def)
    } else {
        Vec::new()
    };
    let nsrc = slots.iter().filter(|s| matches!(s, Slot::Src(_))).count();
    for (i, op) in inst.operands.iter().enumerate() {
        let r = def.operands.get(i).map_or("", |r| role(r));
        let slot = slots.get(i).copied();
        let mut t =
            match (def.family, r, op) {
                (Family::Sopk, "hwreg", Operand::Imm(v)) => print_hwreg(*v as u32, inst.target),
                (Family::Sopk, "imm16" | "simm16", Operand::Imm(v)) => format!("{v:#x}"),
                (Family::Sopk, "simm32", Operand::Literal(v)) => dec_or_hex(i64::from(*v)),
                // madak/madmk's K and packed 16-bit sources are printed whole.
                (_, "simm32", Operand::Literal(v)) => format!("{v:#x}"),
                (_, _, Operand::Literal(v))
                    if def.mnemonic.starts_with("v_pk_") || def.operands[i].contains("x2") =>
                {
                    format!("{v:#x}")
                }
                (Family::Sopp, "waitcnt", Operand::Imm(v)) => print_waitcnt(*v as u32),
                (Family::Sopp, "imm16", Operand::Imm(v))
                | (Family::Smem, "probe", Operand::Imm(v)) => dec_or_hex(*v),
                (Family::Sopp, "msg", Operand::Imm(v)) => print_sendmsg(*v as u32),
                (Family::Smem, _, Operand::Imm(v)) => signed_hex(*v),
                (Family::Sopc, "imask", Operand::Imm(v))
                | (Family::Sopp, "imask", Operand::Imm(v)) => print_gpr_idx(*v as u32),
                (Family::Sopp, "", Operand::Imm(v)) => v.to_string(),
                (Family::Exp, "tgt", Operand::Imm(v)) => print_exp_target(*v as u32),
                (Family::Vop3 | Family::Vintrp, "attr", Operand::Imm(v)) => print_attr(*v),
                (Family::Vop3 | Family::Vintrp, "param", Operand::Imm(v)) => PARAMS
                    .get(*v as usize)
                    .map_or_else(|| format!("invalid_param_{v}"), |p| p.to_string()),
                _ => op.print(operand_type(def, i)),
            };
        let dpp_sdwa = (is_dpp(def.family) || is_sdwa(def.family))
            .then(|| def.operands.get(i).and_then(|_| dpp_sdwa_src(def, i)))
            .flatten();
        if let Some(k) = dpp_sdwa {
            if m.sext >> k & 1 == 1 {
                t = format!("sext({t})");
            }
            if m.abs >> k & 1 == 1 {
                t = format!("|{t}|");
            }
            if m.neg >> k & 1 == 1 {
                let numeric = matches!(op, Operand::Src { code: 128..=208 | 240..=248, .. });
                t = if numeric && m.abs >> k & 1 == 0 {
                    format!("neg({t})")
                } else {
                    format!("-{t}")
                };
            }
        }
        if let (Some(Slot::Src(k)), Operand::Src { .. }) = (slot, op) {
            if m.abs >> k & 1 == 1 {
                t = format!("|{t}|");
            }
            if m.neg >> k & 1 == 1 {
                // LLVM spells a negated numeric constant `neg(C)` (`-|C|` with abs).
                let numeric = matches!(op, Operand::Src { code: 128..=208 | 240..=248, .. });
                t = if numeric && m.abs >> k & 1 == 0 {
                    format!("neg({t})")
                } else {
                    format!("-{t}")
                };
            }
        }
        texts.push(t);
    }
    if def.family == Family::Exp && !texts.is_empty() {
        // `exp mrt0 v1, v2, v3, v4`: no comma after the target.
        out.push(' ');
        out.push_str(&texts[0]);
        out.push(' ');
        out.push_str(&texts[1..].join(", "));
    } else if !texts.is_empty() {
        out.push(' ');
        out.push_str(&texts.join(", "));
    }
    match def.family {
        Family::Smem => {
            if m.offset != 0 || m.soe {
                out.push_str(&format!(" offset:{}", signed_hex(i64::from(m.offset))));
            }
            if m.glc {
                out.push_str(" glc");
            }
        }
        Family::Vop3 => {
            if m.high {
                out.push_str(" high");
            }
            if m.op_sel != 0 && def.mnemonic.starts_with("v_cvt_sr_") {
                print_bits(&mut out, "op_sel", m.op_sel, 4);
            } else if m.op_sel != 0 {
                let mut bits: Vec<String> =
                    (0..nsrc).map(|k| (m.op_sel >> k & 1).to_string()).collect();
                bits.push((m.op_sel >> 3 & 1).to_string());
                out.push_str(&format!(" op_sel:[{}]", bits.join(",")));
            }
            if m.clamp {
                out.push_str(" clamp");
            }
            match m.omod {
                1 => out.push_str(" mul:2"),
                2 => out.push_str(" mul:4"),
                3 => out.push_str(" div:2"),
                _ => {}
            }
        }
        Family::Ds => {
            if let Some((a, b)) = m.offset01 {
                if a != 0 {
                    out.push_str(&format!(" offset0:{a}"));
                }
                if b != 0 {
                    out.push_str(&format!(" offset1:{b}"));
                }
            } else if m.offset != 0 && def.mnemonic == "ds_swizzle_b32" {
                out.push_str(&format!(" offset:{}", print_swizzle(m.offset as u32)));
            } else if m.offset != 0 {
                out.push_str(&format!(" offset:{}", m.offset));
            }
            if m.gds {
                out.push_str(" gds");
            }
        }
        Family::Vop1Dpp | Family::Vop2Dpp | Family::VopcDpp => {
            out.push(' ');
            out.push_str(&print_dpp_ctrl(m.dpp_ctrl, inst.target));
            out.push_str(&format!(
                " row_mask:{:#x} bank_mask:{:#x}",
                m.row_mask, m.bank_mask
            ));
            if m.bound_ctrl {
                out.push_str(" bound_ctrl:1");
            }
        }
        Family::Vop1Sdwa | Family::Vop2Sdwa | Family::VopcSdwa => {
            if m.clamp {
                out.push_str(" clamp");
            }
            match m.omod {
                1 => out.push_str(" mul:2"),
                2 => out.push_str(" mul:4"),
                3 => out.push_str(" div:2"),
                _ => {}
            }
            // gfx942's fp8 conversions have no dst_sel/dst_unused.
            if def.family != Family::VopcSdwa && def.modifiers.contains(&"dst_sel") {
                out.push_str(&format!(
                    " dst_sel:{} dst_unused:{}",
                    SDWA_SEL[usize::from(m.dst_sel)],
                    SDWA_UNUSED[usize::from(m.dst_unused % 3)]
                ));
            }
            if !def.operands.is_empty() {
                out.push_str(&format!(
                    " src0_sel:{}",
                    SDWA_SEL[usize::from(m.src_sel[0])]
                ));
            }
            if def.family != Family::Vop1Sdwa {
                out.push_str(&format!(
                    " src1_sel:{}",
                    SDWA_SEL[usize::from(m.src_sel[1])]
                ));
            }
        }
        Family::Vop3p if is_mai(def) => {
            if m.cbsz != 0 {
                out.push_str(&format!(" cbsz:{}", m.cbsz));
            }
            if m.abid != 0 {
                out.push_str(&format!(" abid:{}", m.abid));
            }
            if m.blgp != 0 {
                if def.mnemonic.starts_with("v_mfma_f64") && inst.target == Target::Gfx942 {
                    print_bits(&mut out, "neg", m.blgp, 3);
                } else {
                    out.push_str(&format!(" blgp:{}", m.blgp));
                }
            }
        }
        Family::Vop3p => {
            let n = vop3p_nsrc(def);
            let mask = (1u8 << n) - 1;
            if m.op_sel & mask != 0 {
                print_bits(&mut out, "op_sel", m.op_sel, n);
            }
            let default_hi = if is_mix(def) { 0 } else { mask };
            // LLVM prints op_sel_hi whenever it differs from the default, even
            // where the inventory does not list it (dot4/dot8).
            if !def.modifiers.is_empty() && m.op_sel_hi & mask != default_hi {
                print_bits(&mut out, "op_sel_hi", m.op_sel_hi, n);
            }
            if !is_mix(def) {
                if m.neg & mask != 0 {
                    print_bits(&mut out, "neg_lo", m.neg, n);
                }
                if m.abs & mask != 0 {
                    print_bits(&mut out, "neg_hi", m.abs, n);
                }
            }
            if m.clamp {
                out.push_str(" clamp");
            }
        }
        Family::Mimg => {
            if m.dmask != 0 {
                out.push_str(&format!(" dmask:{:#x}", m.dmask));
            }
            for (on, name) in [
                (m.unorm, "unorm"),
                (m.glc, "glc"),
                (m.slc, "slc"),
                (m.sc1, "scc"),
                (m.a16, "a16"),
            ] {
                if on {
                    out.push(' ');
                    out.push_str(name);
                }
            }
            for (on, name) in [(m.tfe, "tfe"), (m.lwe, "lwe"), (m.da, "da"), (m.d16, "d16")] {
                if on {
                    out.push(' ');
                    out.push_str(name);
                }
            }
        }
        Family::Exp => {
            for (on, name) in [(m.done, "done"), (m.compr, "compr"), (m.vm, "vm")] {
                if on {
                    out.push(' ');
                    out.push_str(name);
                }
            }
        }
        Family::Mubuf | Family::Mtbuf => {
            if def.family == Family::Mtbuf && m.format != 1 {
                out.push_str(&print_format(m.format));
            }
            if m.idxen {
                out.push_str(" idxen");
            }
            if m.offen {
                out.push_str(" offen");
            }
            if m.offset != 0 {
                out.push_str(&format!(" offset:{}", m.offset));
            }
            // buffer_store_lds_dword prints `lds` before the cache bits.
            let lds_first = def.mnemonic.contains("_lds_");
            if m.lds && lds_first {
                out.push_str(" lds");
            }
            print_cpol(&mut out, m, inst.target);
            if m.lds && !lds_first {
                out.push_str(" lds");
            }
            if m.tfe {
                out.push_str(" tfe");
            }
        }
        Family::Flat | Family::Global | Family::Scratch => {
            if m.offset != 0 {
                out.push_str(&format!(" offset:{}", m.offset));
            }
            print_cpol(&mut out, m, inst.target);
            if m.lds {
                out.push_str(" lds");
            }
        }
        _ => {}
    }
    out
}

fn syntax(message: impl Into<String>, column: usize) -> Error {
    Error::Syntax {
        message: message.into(),
        column,
    }
}

/// Splits at top-level commas; returns (column, text) pieces.
fn split_top(text: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &text[start..]));
    out.into_iter()
        .map(|(s, t)| {
            let lead = t.len() - t.trim_start().len();
            (base + s + lead, t.trim())
        })
        .collect()
}

/// Splits at top-level whitespace.
fn split_ws(text: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if ch.is_whitespace() && depth == 0 {
            if let Some(s) = start.take() {
                out.push((base + s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((base + s, &text[s..]));
    }
    out
}

/// A hardware register by number or `HW_REG_*` name.
fn hwreg_id(text: &str, col: usize, target: Target) -> Result<u32> {
    match parse_int(text) {
        Some(v) => u32::try_from(v).map_err(|_| syntax("hwreg field out of range", col)),
        None => (0..64)
            .find(|&i| hwreg_name(i, target) == Some(text))
            .ok_or_else(|| syntax(format!("unknown hardware register `{text}`"), col)),
    }
}

/// `hwreg(ID[, OFFSET, SIZE])`, `{id: N, offset: N, size: N}` (fields
/// optional, any order) or a 16-bit number.
fn parse_hwreg(text: &str, col: usize, target: Target) -> Result<u32> {
    if let Some(v) = parse_int(text) {
        if !(-0x8000..=0xFFFF).contains(&v) {
            return Err(syntax(
                "invalid immediate: only 16-bit values are legal",
                col,
            ));
        }
        return Ok(v as u32 & 0xFFFF);
    }
    let field = |t: &str, what| {
        parse_int(t)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| syntax(format!("bad hwreg {what}"), col))
    };
    let (id, off, size) =
        if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            let (mut id, mut off, mut size) = (0, 0, 32);
            let mut seen = Vec::new();
            for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let (k, v) = part
                    .split_once(':')
                    .ok_or_else(|| syntax("expected `field: value`", col))?;
                if seen.contains(&k.trim()) {
                    return Err(syntax("duplicate field", col));
                }
                seen.push(k.trim());
                match k.trim() {
                    // (Numbers only: llvm-mc-19 takes no HW_REG_* name here.)
                    "id" => id = field(v.trim(), "id")?,
                    "offset" => off = field(v.trim(), "offset")?,
                    "size" => size = field(v.trim(), "size")?,
                    _ => return Err(syntax(format!("unknown hwreg field `{k}`"), col)),
                }
            }
            (id, off, size)
        } else {
            let inner = text
                .strip_prefix("hwreg(")
                .and_then(|t| t.strip_suffix(')'))
                .ok_or_else(|| syntax("expected hwreg(...)", col))?;
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            let id = hwreg_id(parts[0], col, target)?;
            match parts[..] {
                [_] => (id, 0, 32),
                [_, o, sz] => (id, field(o, "offset")?, field(sz, "size")?),
                _ => return Err(syntax("hwreg takes 1 or 3 arguments", col)),
            }
        };
    if id > 63 || off > 31 || !(1..=32).contains(&size) {
        return Err(syntax("hwreg field out of range", col));
    }
    Ok(id | off << 6 | (size - 1) << 11)
}

fn parse_waitcnt(text: &str, col: usize) -> Result<u32> {
    if let Some(v) = parse_int(text) {
        return Ok(v as u32 & 0xFFFF);
    }
    let (mut vm, mut exp, mut lgkm) = (63u32, 7u32, 15u32);
    for part in text.split(|c: char| c.is_whitespace() || c == '&' || c == ',') {
        if part.is_empty() {
            continue;
        }
        let (name, val) = part
            .strip_suffix(')')
            .and_then(|p| p.split_once('('))
            .ok_or_else(|| syntax(format!("bad waitcnt `{part}`"), col))?;
        let v = parse_int(val).ok_or_else(|| syntax("bad count", col))? as u32;
        match name {
            "vmcnt" if v <= 63 => vm = v,
            "expcnt" if v <= 7 => exp = v,
            "lgkmcnt" if v <= 15 => lgkm = v,
            _ => return Err(syntax(format!("bad waitcnt `{part}`"), col)),
        }
    }
    Ok((vm & 0xF) | (vm >> 4) << 14 | exp << 4 | lgkm << 8)
}

/// Parses one assembler line in llvm-mc syntax (LLVM mnemonics and printed
/// names both accepted). Errors carry the 1-based column.
pub fn parse_line(line: &str, target: Target) -> Result<Inst> {
    let first = parse_line_as(line, target, None);
    if first.is_err() {
        // llvm-mc matches a VOP1/VOP2/VOPC line it cannot encode as e32
        // against the e64, SDWA and DPP forms, in that order.
        let mn = line.split_whitespace().next().unwrap_or("");
        let base = mn.strip_suffix("_e32").unwrap_or(mn);
        let forms = if base.len() < mn.len() {
            &["_e64"][..]
        } else {
            &["_e64", "_sdwa", "_dpp"][..]
        };
        for form in forms {
            if let Some(Ok(inst)) = InstDef::find(&format!("{base}{form}"), target)
                .map(|def| parse_line_as(line, target, Some(def)))
            {
                return Ok(inst);
            }
        }
    }
    first
}

/// Looks a mnemonic up, also with llvm-mc's forced-encoding suffixes on
/// instructions that have a single encoding: `_e32` on any non-VOP3 one
/// (`s_mov_b64_e32`), `_e64` on a VOP3/VOP3P one (`v_fma_f32_e64`).
fn find_forced(mn: &str, target: Target) -> Option<&'static InstDef> {
    InstDef::find(mn, target).or_else(|| {
        let (base, vop3) = match mn.strip_suffix("_e32") {
            Some(b) => (b, false),
            None => (mn.strip_suffix("_e64")?, true),
        };
        InstDef::find(base, target)
            .filter(|d| matches!(d.family, Family::Vop3 | Family::Vop3p) == vop3)
    })
}

fn parse_line_as(line: &str, target: Target, over: Option<&'static InstDef>) -> Result<Inst> {
    let code = line
        .split("//")
        .next()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("");
    let lead = code.len() - code.trim_start().len();
    let code = code.trim();
    if code.is_empty() {
        return Err(syntax("empty line", 1));
    }
    let mn_end = code.find(char::is_whitespace).unwrap_or(code.len());
    let mn = &code[..mn_end];
    let def = over.or_else(|| find_forced(mn, target)).ok_or_else(|| {
        syntax(
            format!("unknown instruction `{mn}` for {}", target.name()),
            lead + 1,
        )
    })?;
    if !def.family.is_supported() {
        return Err(syntax(
            format!("{:?} instructions not supported yet", def.family),
            lead + 1,
        ));
    }
    let rest = &code[mn_end..];
    let base = lead + mn_end;
    let roles: Vec<&str> = def
        .operands
        .iter()
        .copied()
        .filter(|r| !r.is_empty())
        .collect();
    // Operand texts and modifier texts.
    let mut opnds: Vec<(usize, &str)> = Vec::new();
    let mut modtexts: Vec<(usize, &str)> = Vec::new();
    let mut endpgm_imm = None;
    if roles.iter().any(|r| role(r) == "waitcnt") {
        let t = rest.trim();
        opnds.push((base + rest.find(t).unwrap_or(0), t));
    } else if def.family == Family::Exp && !rest.trim().is_empty() {
        // `exp TGT src0, src1, src2, src3 [mods]` (a comma after TGT is accepted).
        let lead = rest.len() - rest.trim_start().len();
        let body = rest.trim_start();
        let end = body.find([' ', '\t', ',']).unwrap_or(body.len());
        opnds.push((base + lead, &body[..end]));
        let tail = body[end..].trim_start_matches([' ', '\t']);
        let tail = tail.strip_prefix(',').unwrap_or(tail);
        let tail_base = base + rest.len() - tail.len();
        let pieces = split_top(tail, tail_base);
        let n = pieces.len();
        for (k, (c, t)) in pieces.into_iter().enumerate() {
            if k + 1 == n {
                let ws = split_ws(t, c);
                if let Some((first, more)) = ws.split_first() {
                    opnds.push(*first);
                    modtexts.extend_from_slice(more);
                }
            } else {
                opnds.push((c, t));
            }
        }
    } else if !roles.is_empty() && !rest.trim().is_empty() {
        let pieces = split_top(rest, base);
        let n = pieces.len();
        for (k, (c, t)) in pieces.into_iter().enumerate() {
            if k + 1 == n {
                let ws = split_ws(t, c);
                if let Some((first, more)) = ws.split_first() {
                    // `-|v1|` etc. never contain spaces; modifiers follow.
                    opnds.push(*first);
                    modtexts.extend_from_slice(more);
                }
            } else {
                opnds.push((c, t));
            }
        }
    } else {
        modtexts = split_ws(rest, base);
        if let [(c, t)] = modtexts[..]
            && def.family == Family::Sopp
            && let Some(v) = parse_int(t)
        {
            endpgm_imm = Some((c + 1, v));
            modtexts.clear();
        }
    }
    // VOPC e32 may leave its vcc destination implicit (`v_cmp_lt_f32 v1, v2`).
    if def.family == Family::Vopc
        && roles.first().is_some_and(|r| role(r) == "vcc")
        && opnds.len() + 1 == roles.len()
    {
        let at = opnds.first().map_or(base, |o| o.0);
        opnds.insert(0, (at, "vcc"));
    }
    let mut mods = Modifiers::defaults_for(def);
    // MTBUF's legacy `dfmt:N, nfmt:M` may stand among the operands.
    let mut legacy_format: [Option<u8>; 2] = [None, None];
    if def.family == Family::Mtbuf {
        let mut bad = None;
        opnds.retain(|&(c, t)| match legacy_format_field(t) {
            Some((k, v)) => {
                match v {
                    Some(v) => legacy_format[k] = Some(v),
                    None => bad = Some(c + 1),
                }
                false
            }
            None => true,
        });
        if let Some(col) = bad {
            return Err(syntax("invalid dfmt/nfmt value", col));
        }
    }
    mods.op_sel_hi = 0;
    let gfx942 = target == Target::Gfx942;
    let mut op_sel_hi_given = false;
    let mut dpp_ctrl_given = false;
    let mut op_sel_list: Option<Vec<u8>> = None;
    let mut seen_mods: Vec<&str> = Vec::new();
    let mut last_rank = 0;
    for &(c, t) in &modtexts {
        let col = c + 1;
        let (k, v) = t.split_once(':').unwrap_or((t, ""));
        // `inst_offset:N` is llvm-mc's old spelling of `offset:N`.
        let k = if k == "inst_offset" { "offset" } else { k };
        // `noglc`, `nosc0`, ...: the flag explicitly off.
        if let Some(flag) = k.strip_prefix("no")
            && CPOL_FLAGS.contains(&flag)
            && (def.accepts(flag, target) || def.modifiers.contains(&flag))
        {
            // llvm-mc-19: "duplicate cache policy modifier".
            if seen_mods.contains(&flag) {
                return Err(syntax("duplicate cache policy modifier", col));
            }
            seen_mods.push(flag);
            continue;
        }
        // llvm-mc takes modifiers only in the order LLVM prints them.
        let rank = MODIFIER_ORDER
            .iter()
            .position(|m| *m == k)
            .or_else(|| DPP_CTRL_WORDS.contains(&k).then_some(DPP_CTRL_RANK))
            .unwrap_or(0);
        if rank < last_rank {
            return Err(syntax(format!("modifier `{k}` out of order"), col));
        }
        last_rank = rank;
        if seen_mods.contains(&k) {
            return Err(syntax(format!("modifier `{k}` given twice"), col));
        }
        seen_mods.push(k);
        // Cache-policy and similar flags only where LLVM takes them (the
        // inventory's modifiers, or what the oracle printed on this target;
        // gfx908 has no inventory of its own, so only the latter there).
        const FLAGS: [&str; 9] = ["glc", "slc", "sc0", "sc1", "nt", "scc", "lds", "gds", "tfe"];
        if FLAGS.contains(&k)
            && !def.accepts(k, target)
            && (target == Target::Gfx908 || !def.modifiers.contains(&k))
            && !flag_beyond_inventory(def, k, target)
        {
            return Err(syntax(
                format!("`{k}` is not supported by {}", def.mnemonic),
                col,
            ));
        }
        if !modifier_allowed(def, k) {
            return Err(syntax("not a valid operand.", col));
        }
        let num = || parse_int(v).ok_or_else(|| syntax(format!("bad value in `{t}`"), col));
        match (k, def.family) {
            ("clamp", Family::Vop3) => mods.clamp = true,
            ("high", Family::Vop3) if is_interp(def) => mods.high = true,
            ("clamp", Family::Vop3p) if !is_mai(def) => mods.clamp = true,
            ("clamp", f) if is_sdwa(f) => mods.clamp = true,
            ("mul", f) if is_sdwa(f) && v == "2" => mods.omod = 1,
            ("mul", f) if is_sdwa(f) && v == "4" => mods.omod = 2,
            ("div", f) if is_sdwa(f) && v == "2" => mods.omod = 3,
            ("dst_sel" | "src0_sel" | "src1_sel", f) if is_sdwa(f) => {
                let x = SDWA_SEL
                    .iter()
                    .position(|n| *n == v)
                    .ok_or_else(|| syntax(format!("unknown SDWA select `{v}`"), col))?
                    as u8;
                match k {
                    "dst_sel" => mods.dst_sel = x,
                    "src0_sel" => mods.src_sel[0] = x,
                    _ => mods.src_sel[1] = x,
                }
            }
            ("dst_unused", f) if is_sdwa(f) => {
                mods.dst_unused = SDWA_UNUSED
                    .iter()
                    .position(|n| *n == v)
                    .ok_or_else(|| syntax(format!("unknown dst_unused `{v}`"), col))?
                    as u8;
            }
            ("row_mask", f) if is_dpp(f) => mods.row_mask = small(num()?, 15, col)?,
            ("bank_mask", f) if is_dpp(f) => mods.bank_mask = small(num()?, 15, col)?,
            // LLVM takes bound_ctrl:0 (legacy spelling) and bound_ctrl:1 alike.
            ("bound_ctrl", f) if is_dpp(f) && matches!(v, "0" | "1") => mods.bound_ctrl = true,
            (_, f) if is_dpp(f) && parse_dpp_ctrl(k, v, col, target)?.is_some() => {
                mods.dpp_ctrl = parse_dpp_ctrl(k, v, col, target)?.unwrap_or(0);
                dpp_ctrl_given = true;
            }
            ("op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi", Family::Vop3p) if !is_mai(def) => {
                let bits = parse_bit_list(v, col)?;
                let n = vop3p_nsrc(def);
                let mut x = 0u8;
                for (k, b) in bits.iter().take(n).enumerate() {
                    x |= b << k;
                }
                match k {
                    "op_sel" => mods.op_sel = x,
                    "op_sel_hi" => {
                        // Bits past the sources keep their default (1, 0 for mix).
                        let keep = if is_mix(def) {
                            0
                        } else {
                            7 & !((1u8 << n) - 1)
                        };
                        mods.op_sel_hi = x | keep;
                        op_sel_hi_given = true;
                    }
                    "neg_lo" => mods.neg = x,
                    _ => mods.abs = x,
                }
            }
            ("cbsz", Family::Vop3p) if is_mai(def) => mods.cbsz = small(num()?, 7, col)?,
            ("abid", Family::Vop3p) if is_mai(def) => mods.abid = small(num()?, 15, col)?,
            ("blgp", Family::Vop3p) if is_mai(def) => mods.blgp = small(num()?, 7, col)?,
            ("neg", Family::Vop3p) if is_mai(def) => {
                let bits = parse_bit_list(v, col)?;
                mods.blgp = bits
                    .iter()
                    .take(3)
                    .enumerate()
                    .fold(0, |x, (k, b)| x | b << k);
            }
            ("mul", Family::Vop3) if v == "2" => mods.omod = 1,
            ("mul", Family::Vop3) if v == "4" => mods.omod = 2,
            ("div", Family::Vop3) if v == "2" => mods.omod = 3,
            ("op_sel", Family::Vop3) => op_sel_list = Some(parse_bit_list(v, col)?),
            ("glc", Family::Smem) => mods.glc = true,
            ("glc", _) if !gfx942 => mods.glc = true,
            ("slc", _) if !gfx942 => mods.slc = true,
            ("sc0", _) if gfx942 => mods.glc = true,
            ("nt", _) if gfx942 => mods.slc = true,
            ("sc1", _) if gfx942 => mods.sc1 = true,
            // llvm-mc takes scc on gfx90a's float atomics but leaves the
            // bit out of their encoding (checked with llvm-mc-19).
            ("scc", _) if target == Target::Gfx90a => {
                let mn = def.mnemonic;
                mods.sc1 = !(mn.contains("atomic")
                    && (mn.contains("_f16") || mn.contains("_f32") || mn.contains("_f64")))
            }
            ("gds", Family::Ds) => mods.gds = true,
            ("lds", _) => mods.lds = true,
            ("offen", Family::Mubuf | Family::Mtbuf) => mods.offen = true,
            ("idxen", Family::Mubuf | Family::Mtbuf) => mods.idxen = true,
            ("tfe", Family::Mubuf | Family::Mtbuf | Family::Mimg) if !target.has_agprs() => {
                mods.tfe = true
            }
            ("dmask", Family::Mimg) => mods.dmask = small(num()?, 15, col)?,
            ("unorm", Family::Mimg) => mods.unorm = true,
            ("a16", Family::Mimg) => mods.a16 = true,
            ("lwe", Family::Mimg) => mods.lwe = true,
            ("da", Family::Mimg) => mods.da = true,
            ("d16", Family::Mimg) => mods.d16 = true,
            ("done", Family::Exp) => mods.done = true,
            ("compr", Family::Exp) => mods.compr = true,
            ("vm", Family::Exp) => mods.vm = true,
            ("format", Family::Mtbuf) => mods.format = parse_format(v, col)?,
            ("dfmt" | "nfmt", Family::Mtbuf) => {
                let (k, v) = legacy_format_field(t)
                    .and_then(|(k, v)| Some((k, v?)))
                    .ok_or_else(|| syntax("invalid dfmt/nfmt value", col))?;
                legacy_format[k] = Some(v);
            }
            ("nv", Family::Smem) => mods.nv = true,
            ("offset", Family::Ds)
                if v.starts_with("swizzle(") && def.mnemonic == "ds_swizzle_b32" =>
            {
                mods.offset = parse_swizzle(v, col)? as i32;
            }
            ("offset", _) => {
                let v = num()?;
                let ok = match def.family {
                    Family::Smem => SMEM_OFFSET.contains(&v),
                    Family::Ds => (0..=0xFFFF).contains(&v),
                    Family::Flat | Family::Mubuf | Family::Mtbuf => (0..=4095).contains(&v),
                    _ => (-4096..=4095).contains(&v),
                };
                if !ok {
                    return Err(syntax("offset out of range", col));
                }
                mods.offset = v as i32;
                mods.soe = def.family == Family::Smem;
            }
            ("offset0", Family::Ds) | ("offset1", Family::Ds) => {
                let v = num()?;
                if !(0..=255).contains(&v) {
                    return Err(syntax("offset out of range", col));
                }
                let (a, b) = mods.offset01.unwrap_or((0, 0));
                mods.offset01 = Some(if k == "offset0" {
                    (v as u8, b)
                } else {
                    (a, v as u8)
                });
            }
            _ => return Err(syntax(format!("unexpected modifier `{t}`"), col)),
        }
    }

    if legacy_format.iter().any(Option::is_some) {
        mods.format = legacy_format[0].unwrap_or(1) | legacy_format[1].unwrap_or(0) << 4;
    }
    if is_dpp(def.family) && !dpp_ctrl_given {
        return Err(syntax(
            "missing DPP control (quad_perm, row_shl, …)",
            base + rest.len() + 1,
        ));
    }
    if def.family == Family::Vop3p && !op_sel_hi_given && !is_mix(def) && !is_mai(def) {
        mods.op_sel_hi = 7;
    }

    // Bind operand texts to roles (optional roles only when counts say so).
    let required = roles.iter().filter(|r| !is_opt(r)).count();
    let with_opt = opnds.len() > required;
    // A load's data operand is optional only with `lds` (an atomic's: no
    // return); llvm-mc-19: "too few operands for instruction".
    let data_opt = roles
        .iter()
        .any(|r| is_opt(r) && matches!(role(r), "vdst" | "vdata"));
    if data_opt && !with_opt && !mods.lds && !def.mnemonic.contains("atomic") {
        return Err(syntax("too few operands for instruction", lead + 1));
    }
    let ty = def.src_type();
    let mut operands = Vec::new();
    let mut it = opnds.iter();
    let slots = if def.family == Family::Vop3 || (def.family == Family::Vop3p && is_mix(def)) {
        vop3_slots(def)
    } else {
        Vec::new()
    };
    let nsrc = slots.iter().filter(|s| matches!(s, Slot::Src(_))).count();
    let mut op_cols: Vec<usize> = Vec::new();
    for (i, r) in def.operands.iter().enumerate() {
        if r.is_empty() || (is_opt(r) && !with_opt) {
            continue;
        }
        let Some(&(c, t)) = it.next() else {
            // llvm-mc-19 takes an SMEM line without its offset as offset 0.
            if def.family == Family::Smem && role(r) == "soffset" {
                operands.push(Operand::Imm(0));
                continue;
            }
            return Err(syntax(
                format!("missing operand `{}`", role(r)),
                base + rest.len() + 1,
            ));
        };
        let col = c + 1;
        let name = role(r);
        let w = if def.family == Family::Mimg && matches!(name, "vdst" | "vdata") {
            mimg_data_width(def, &mods)
        } else {
            width(def, i) + u8::from(mods.tfe && matches!(name, "vdst" | "vdata"))
        };
        let op = match name {
            "hwreg" => Operand::Imm(i64::from(parse_hwreg(t, col, target)?)),
            "attr" => Operand::Imm(parse_attr(t, col)?),
            "tgt" if def.family == Family::Exp => {
                Operand::Imm(i64::from(parse_exp_target(t, col)?))
            }
            "param" => {
                Operand::Imm(
                    PARAMS.iter().position(|p| *p == t).ok_or_else(|| {
                        syntax(format!("expected p10, p20 or p0, found `{t}`"), col)
                    })? as i64,
                )
            }
            "msg" => Operand::Imm(parse_sendmsg(t, col)?),
            "waitcnt" => Operand::Imm(i64::from(parse_waitcnt(t, col)?)),
            "imask" => Operand::Imm(parse_gpr_idx(t, col)?),
            "label" | "imm16" | "simm16" => {
                let v = parse_int(t)
                    .ok_or_else(|| syntax(format!("expected an integer, found `{t}`"), col))?;
                if !(-32768..=65535).contains(&v) {
                    return Err(syntax("immediate out of 16-bit range", col));
                }
                // llvm-mc-19: the unsigned compares take a u16 (`s_cmpk_le_u32
                // s2, -1` is an invalid operand), the others an s16 or u16.
                if v < 0 && def.mnemonic.starts_with("s_cmpk_") && def.mnemonic.ends_with("_u32") {
                    return Err(syntax("invalid operand for instruction", col));
                }
                Operand::Imm(v & 0xFFFF)
            }
            "simm32" => {
                let v =
                    parse_src(t, ty, 1).ok_or_else(|| syntax(format!("bad literal `{t}`"), col))?;
                match v {
                    Operand::Literal(_) => v,
                    Operand::Src {
                        code: c @ 128..=208,
                        ..
                    } => Operand::Literal(if c <= 192 {
                        u32::from(c - 128)
                    } else {
                        (-(i32::from(c) - 192)) as u32
                    }),
                    _ => return Err(syntax("expected a 32-bit constant", col)),
                }
            }
            "soffset" | "probe" if def.family == Family::Smem => match parse_reg(t) {
                Some(r) => r,
                None => Operand::Imm(
                    parse_int(t).ok_or_else(|| syntax(format!("bad offset `{t}`"), col))?,
                ),
            },
            _ => {
                let mut s = t;
                let (mut neg, mut abs) = (false, false);
                if let Some(x) = s
                    .strip_prefix('-')
                    .filter(|x| x.starts_with(['|', 'v', 's', 'a', 't', 'e', 'm', 'f', 'x', 'n']))
                {
                    neg = true;
                    s = x;
                }
                if let Some(x) = s.strip_prefix("neg(").and_then(|x| x.strip_suffix(')')) {
                    neg = true;
                    s = x;
                }
                if let Some(x) = s.strip_prefix('|').and_then(|x| x.strip_suffix('|')) {
                    abs = true;
                    s = x;
                } else if let Some(x) = s.strip_prefix("abs(").and_then(|x| x.strip_suffix(')')) {
                    abs = true;
                    s = x;
                }
                let mut sext = false;
                if let Some(x) = s.strip_prefix("sext(").and_then(|x| x.strip_suffix(')')) {
                    sext = true;
                    s = x;
                }
                let dpp_sdwa = (is_dpp(def.family) || is_sdwa(def.family))
                    .then(|| dpp_sdwa_src(def, i))
                    .flatten();
                let int_role = r
                    .split(':')
                    .any(|p| matches!(p, "i16" | "i32" | "u16" | "u32" | "b32" | "b16"));
                if sext
                    && (!(is_sdwa(def.family) || is_dpp(def.family))
                        || dpp_sdwa.is_none()
                        || (is_sdwa(def.family) && float_src(def) && !int_role))
                {
                    return Err(syntax("sext is only allowed on SDWA sources", col));
                }
                if s == "off" {
                    Operand::Off
                } else {
                    let v = parse_src(s, operand_type(def, i), w)
                        .ok_or_else(|| syntax(format!("invalid operand `{t}`"), col))?;
                    // SDWA integer sources take sext, not neg/abs.
                    let int_typed = r
                        .split(':')
                        .any(|p| matches!(p, "i16" | "i32" | "u16" | "u32" | "b32" | "b16"));
                    let fp = (r.split(':').any(|p| p == "m")
                        && !(is_sdwa(def.family) && (!float_src(def) || int_typed)))
                        || def.mnemonic.starts_with("v_div_scale");
                    // e32 float forms apply the modifiers to a constant itself.
                    let e32 = matches!(def.family, Family::Vop1 | Family::Vop2 | Family::Vopc);
                    let folded = (neg || abs)
                        .then_some(())
                        .filter(|_| e32 && float_src(def))
                        .and_then(|_| apply_fp_modifiers(&v, operand_type(def, i), w, neg, abs));
                    let (v, neg, abs) = match folded {
                        Some(c) => (c, false, false),
                        None => (v, neg, abs),
                    };
                    if (neg || abs) && !fp {
                        return Err(syntax("not a valid operand.", col));
                    }
                    match (slots.get(i), dpp_sdwa) {
                        (Some(Slot::Src(k)), _) => {
                            mods.neg |= u8::from(neg) << k;
                            mods.abs |= u8::from(abs) << k;
                        }
                        (_, Some(k)) => {
                            mods.neg |= u8::from(neg) << k;
                            mods.abs |= u8::from(abs) << k;
                            mods.sext |= u8::from(sext) << k;
                        }
                        _ if neg || abs => {
                            return Err(syntax("source modifiers not allowed here", col));
                        }
                        _ => {}
                    }
                    match v {
                        Operand::Src { code: 125, .. } => Operand::Src {
                            code: 125,
                            width: w,
                        },
                        Operand::Src { code, width } if !(128..256).contains(&code) => {
                            // Registers keep their written width; check it
                            // (a global vaddr is 64-bit exactly when saddr is off).
                            // A global vaddr is 64-bit exactly when saddr is off; a
                            // MIMG address size is not encoded.
                            let free = (name == "vaddr"
                                && matches!(
                                    def.family,
                                    Family::Global | Family::Mubuf | Family::Mtbuf | Family::Mimg
                                ))
                                || (name == "srsrc" && def.family == Family::Mimg);
                            if width != w && !free {
                                return Err(syntax(
                                    format!("expected a {w}-dword register, found `{t}`"),
                                    col,
                                ));
                            }
                            v
                        }
                        Operand::Src { code, .. } => Operand::Src { code, width: w },
                        _ => v,
                    }
                }
            }
        };
        // An implicit carry (e32, DPP, SDWA) is VCC; other registers need
        // the VOP3 form (llvm-mc-19 then matches `_e64`).
        if name == "vcc"
            && !matches!(def.family, Family::Vop3 | Family::Vop3p)
            && !matches!(op, Operand::Src { code: 106, .. })
        {
            return Err(syntax("invalid operand for instruction", col));
        }
        operands.push(op);
        op_cols.push(col);
    }
    if let Some(&(c, t)) = it.next() {
        return Err(syntax(format!("unexpected operand `{t}`"), c + 1));
    }
    if let Some((col, v)) = endpgm_imm {
        if def.mnemonic != "s_endpgm" || !(0..=0xFFFF).contains(&v) {
            return Err(syntax("unexpected immediate", col));
        }
        // `s_endpgm 0` is plain `s_endpgm`.
        if v != 0 {
            operands.push(Operand::Imm(v));
        }
    }
    if let Some(bits) = op_sel_list {
        let mut v = 0u8;
        for (k, b) in bits.iter().enumerate() {
            if *b > 1 {
                return Err(syntax("op_sel bits must be 0 or 1", base + 1));
            }
            // Entries are src0..src(n-1) then dst; extra entries are ignored,
            // except v_cvt_sr_* whose four entries map to the four bits.
            let pos = if def.mnemonic.starts_with("v_cvt_sr_") || k < nsrc {
                k
            } else if k == nsrc {
                3
            } else {
                continue;
            };
            if pos < 4 {
                v |= b << pos;
            }
        }
        mods.op_sel = v;
    }
    // gfx940+ dot instructions take no op_sel bits and no op_sel_hi at all
    // (llvm-mc-19: "invalid op_sel operand", even for op_sel_hi:[1,1,1]).
    if target == Target::Gfx942
        && def.family == Family::Vop3p
        && def.mnemonic.starts_with("v_dot")
        && (mods.op_sel != 0 || op_sel_hi_given)
    {
        return Err(syntax("invalid op_sel operand", lead + 1));
    }
    let inst = Inst {
        target,
        def,
        operands,
        mods,
    };
    validate(&inst, &op_cols, lead + 1)?;
    Ok(inst)
}

/// The assembler's semantic checks (what llvm-mc rejects after matching):
/// constant bus, operand sizes, modifiers a target lacks. `cols` are the
/// operands' columns, `mn_col` the mnemonic's.
fn validate(inst: &Inst, cols: &[usize], mn_col: usize) -> Result<()> {
    let def = inst.def;
    let m = &inst.mods;
    let t = inst.target;
    let col = |i: usize| cols.get(i).copied().unwrap_or(mn_col);
    let err = |msg: &str, c: usize| Err(syntax(msg, c));
    // Present roles, aligned with the operands.
    let all: Vec<&str> = def
        .operands
        .iter()
        .copied()
        .filter(|r| !r.is_empty())
        .collect();
    let roles: Vec<&str> = if inst.operands.len() < all.len() {
        all.iter().copied().filter(|r| !is_opt(r)).collect()
    } else {
        all
    };
    // Constant bus: one scalar value (SGPR, literal, special register) per
    // VALU instruction on GFX9; v_writelane_b32 may read two.
    let valu = matches!(
        def.family,
        Family::Vop1
            | Family::Vop2
            | Family::Vopc
            | Family::Vop3
            | Family::Vop3p
            | Family::Vop1Sdwa
            | Family::Vop2Sdwa
            | Family::VopcSdwa
    );
    if valu {
        // (code, width or literal value): vcc_lo and vcc are different values.
        let mut scalars: Vec<(u16, u32)> = Vec::new();
        let mut seen_src = false;
        for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
            let name = role(r);
            let is_src = name.contains("src") || name == "simm32" || (seen_src && name == "vcc");
            seen_src |= name.contains("src");
            let is_dst = !is_src && (name.contains("dst") || name == "vcc");
            if is_dst || !is_src {
                continue;
            }
            let v = match o {
                Operand::Src { code, width } if *code < 128 => Some((*code, u32::from(*width))),
                // Special sources are one value whatever the operand's width.
                Operand::Src { code, .. }
                    if (235..=239).contains(code) || (251..=253).contains(code) =>
                {
                    Some((*code, 0))
                }
                Operand::Src { .. } if name == "vcc" => Some((106, 2)),
                Operand::Literal(v) => Some((255, *v)),
                _ => None,
            };
            // v_writelane_b32 may also read m0 as its lane select.
            let v = v.filter(|v| !(def.mnemonic == "v_writelane_b32" && v.0 == 124));
            if let Some(v) = v
                && !scalars.contains(&v)
            {
                scalars.push(v);
                if scalars.len() > 1 {
                    return err(
                        "invalid operand (violates constant bus restrictions)",
                        col(i),
                    );
                }
            }
        }
        if def.mnemonic.starts_with("v_div_fmas") && !scalars.is_empty() && scalars[0].0 != 106 {
            return err(
                "invalid operand (violates constant bus restrictions)",
                mn_col,
            );
        }
    }
    match def.family {
        Family::Global => {
            let saddr_off = roles
                .iter()
                .zip(&inst.operands)
                .any(|(r, o)| role(r) == "saddr" && *o == Operand::Off);
            for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
                if role(r) == "vaddr"
                    && let Operand::Src { width, .. } = o
                    && (*width == 2) != saddr_off
                {
                    return err("invalid operand for instruction", col(i));
                }
            }
        }
        Family::Scratch if t != Target::Gfx942 => {
            let both = roles
                .iter()
                .zip(&inst.operands)
                .filter(|(r, o)| matches!(role(r), "vaddr" | "saddr") && **o != Operand::Off);
            if both.count() != 1 {
                return err("operands are not valid for this GPU or mode", mn_col);
            }
        }
        Family::Ds => {
            if m.gds && !def.accepts("gds", t) {
                return err("gds modifier is not supported on this GPU", mn_col);
            }
            if (def.mnemonic.starts_with("ds_gws") || def.mnemonic == "ds_ordered_count") && !m.gds
            {
                return err("too few operands for instruction", mn_col);
            }
        }
        Family::Mimg => {
            if def.mnemonic.starts_with("image_atomic") && ![1, 3, 0xF].contains(&m.dmask) {
                return err("invalid atomic image dmask", mn_col);
            }
            for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
                let w = match o {
                    Operand::Src { width, .. } | Operand::Agpr { width, .. } => *width,
                    _ => 0,
                };
                if matches!(role(r), "vdst" | "vdata") && w != mimg_data_width(def, m) {
                    return err("image data size does not match dmask, d16 and tfe", col(i));
                }
            }
        }
        Family::Smem => {
            let buffer = def.mnemonic.contains("_buffer");
            let imm = roles.iter().zip(&inst.operands).find_map(|(r, o)| match o {
                Operand::Imm(v) if role(r) == "soffset" => Some(*v),
                _ => None,
            });
            let offs = [imm, (m.offset != 0).then_some(i64::from(m.offset))];
            for v in offs.into_iter().flatten() {
                if buffer && !(0..=0xF_FFFF).contains(&v) {
                    return err("expected a 20-bit unsigned offset", mn_col);
                }
            }
        }
        Family::Vop1Dpp | Family::Vop2Dpp => {
            let wide = inst.operands.iter().any(|o| {
                matches!(
                    o,
                    Operand::Src {
                        code: 256..,
                        width: 2..
                    }
                )
            });
            if wide && !(0x150..=0x15F).contains(&m.dpp_ctrl) {
                return err("DP ALU dpp only supports row_newbcast", mn_col);
            }
        }
        // VOP3B has no abs field: llvm-mc rejects |src0| and |src2| but drops |src1|.
        Family::Vop3 if def.mnemonic.starts_with("v_div_scale") && m.abs & 0b101 != 0 => {
            return err("ABS not allowed in VOP3B instructions", mn_col);
        }
        _ => {}
    }
    for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
        if let Err(Error::Invalid { reason, .. }) = check_operand(def, role(r), o) {
            return err(reason, col(i));
        }
    }
    // Register-class rules of single instructions.
    let mn = def.mnemonic;
    for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
        let name = role(r);
        let agpr = matches!(o, Operand::Agpr { .. });
        let vgpr = matches!(o, Operand::Src { code: 256.., .. });
        let sreg_only = matches!(o, Operand::Src { code: 0..=127, .. });
        let bad = match mn {
            "v_accvgpr_write_b32" => name == "vdst" && !agpr,
            "v_accvgpr_read_b32" => name == "vdst" && !vgpr || name.contains("src") && !agpr,
            "v_writelane_b32" => name == "src0" && vgpr,
            "v_readlane_b32" => {
                name == "src0" && !vgpr && !matches!(o, Operand::Src { code: 254, .. })
            }
            // The assembler takes only SGPRs here (the disassembler is laxer).
            // The assembler takes SGPRs and src_scc/execz/vccz here, no
            // numbers and no src_shared_base etc. (the disassembler is laxer).
            "s_cbranch_join" | "s_movrels_b32" | "s_movrels_b64" => {
                name.contains("src")
                    && matches!(
                        o,
                        Operand::Literal(_)
                            | Operand::Src {
                                code: 128..=248,
                                ..
                            }
                    )
            }
            "s_cbranch_g_fork" => {
                name.contains("src")
                    && matches!(
                        o,
                        Operand::Literal(_)
                            | Operand::Src {
                                code: 235..=239,
                                ..
                            }
                    )
            }
            "v_accvgpr_mov_b32" => !agpr,
            _ => false,
        } || {
            // Scalar roles take no VGPR; a carry-in/mask takes a register.
            (name.starts_with("ssrc") && vgpr)
                || (name == "ssrc2" && def.family == Family::Vop3 && !sreg_only)
                // VOP3P operands are VGPRs, except MFMA's and v_accvgpr_*'s.
                || (def.family == Family::Vop3p && agpr && !is_mai(def) && !mn.starts_with("v_accvgpr"))
        };
        if bad {
            return err("invalid operand for instruction", col(i));
        }
        // A 16-bit operand's literal must fit in 16 bits.
        if let Operand::Literal(v) = o
            && matches!(def.src_type(), SrcType::F16 | SrcType::I16)
            && def.family != Family::Sopk
            && !mn.contains("_pk_")
            && !mn.contains("dot")
            && *v > 0xFFFF
            && *v < 0xFFFF_8000
        {
            return err("invalid operand for instruction", col(i));
        }
    }
    if is_mai(def) {
        let kind = |name: &str| {
            roles.iter().zip(&inst.operands).find_map(|(r, o)| {
                (role(r) == name).then_some(match o {
                    Operand::Agpr { .. } => Some(true),
                    Operand::Src { code: 256.., .. } => Some(false),
                    _ => None,
                })?
            })
        };
        if let (Some(d), Some(c)) = (kind("vdst"), kind("src2"))
            && d != c
        {
            return err("invalid operand for instruction", mn_col);
        }
        // gfx908 has no VGPR form of MFMA.
        if t == Target::Gfx908 && (kind("vdst") == Some(false) || kind("src2") == Some(false)) {
            return err("operands are not valid for this GPU or mode", mn_col);
        }
    }
    // MUBUF/MTBUF: vaddr exactly when offen/idxen (two VGPRs for both).
    if matches!(def.family, Family::Mubuf | Family::Mtbuf) {
        for (i, (r, o)) in roles.iter().zip(&inst.operands).enumerate() {
            if role(r) != "vaddr" {
                continue;
            }
            let want = usize::from(m.offen) + usize::from(m.idxen);
            let have = match o {
                Operand::Off => 0,
                Operand::Src { width, .. } => usize::from(*width),
                _ => 9,
            };
            if want != have && !(want == 1 && have == 1) {
                return err("invalid operand for instruction", col(i));
            }
        }
        if def.mnemonic.contains("_lds_") && !m.lds {
            return err("too few operands for instruction", mn_col);
        }
    }
    // Loads to LDS have no vdst.
    if m.lds
        && roles.iter().any(|r| role(r) == "vdst")
        && matches!(
            def.family,
            Family::Flat | Family::Global | Family::Scratch | Family::Mubuf
        )
    {
        return err("invalid operand for instruction", col(0));
    }
    // Returning atomics only: glc (sc0) needs the vdst of FLAT atomics.
    if matches!(def.family, Family::Flat | Family::Global | Family::Scratch)
        && def.mnemonic.contains("atomic")
        && m.glc
        && inst.operands.len() < def.operands.len()
    {
        let name = if t == Target::Gfx942 { "sc0" } else { "glc" };
        return err(&format!("instruction must not use {name}"), mn_col);
    }
    // gfx908 has AGPRs only in MAI instructions.
    if !t.has_agprs()
        && matches!(
            def.family,
            Family::Ds
                | Family::Flat
                | Family::Global
                | Family::Scratch
                | Family::Mubuf
                | Family::Mtbuf
                | Family::Mimg
        )
        && inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Agpr { .. }))
    {
        return err(
            "invalid register class: agpr loads and stores not supported on this GPU",
            mn_col,
        );
    }
    // Data operands of a memory instruction are all VGPRs or all AGPRs.
    if matches!(
        def.family,
        Family::Ds
            | Family::Flat
            | Family::Global
            | Family::Scratch
            | Family::Mubuf
            | Family::Mtbuf
    ) {
        let kinds: Vec<bool> = roles
            .iter()
            .zip(&inst.operands)
            .filter(|(r, _)| matches!(role(r), "vdst" | "vdata" | "vdata0" | "vdata1"))
            .filter_map(|(_, o)| match o {
                Operand::Agpr { .. } => Some(true),
                Operand::Src { code: 256.., .. } => Some(false),
                _ => None,
            })
            .collect();
        if kinds.windows(2).any(|w| w[0] != w[1]) {
            return err(
                "invalid register class: data and dst should be all VGPR or AGPR",
                mn_col,
            );
        }
    }
    if let Some((reason, at)) = validate_mai(inst, &roles)
        .or_else(|| validate_alignment(inst))
        .or_else(|| validate_memory(inst, &roles))
    {
        return err(reason, at.map_or(mn_col, col));
    }
    if let Some(reason) = lds_direct_misuse(inst, &roles) {
        return err(reason, mn_col);
    }
    // lds_direct is gone on gfx90a and gfx942.
    if t.has_agprs()
        && inst
            .operands
            .iter()
            .any(|o| matches!(o, Operand::Src { code: 254, .. }))
    {
        return err("lds_direct is not supported on this GPU", mn_col);
    }
    Ok(())
}

/// A failed check: the message and the operand it is about (None: the
/// mnemonic).
type Failure = Option<(&'static str, Option<usize>)>;

/// The operand with role `name`, and its index.
fn operand_of<'a>(inst: &'a Inst, roles: &[&str], name: &str) -> Option<(usize, &'a Operand)> {
    roles
        .iter()
        .zip(&inst.operands)
        .enumerate()
        .find(|(_, (r, _))| role(r) == name)
        .map(|(i, (_, o))| (i, o))
}

/// First register and width of a VGPR or AGPR operand (AGPRs numbered
/// from 256 like VGPRs' codes, to keep the two apart).
fn vector_range(o: &Operand) -> Option<(u16, u16)> {
    match *o {
        Operand::Src {
            code: c @ 256..,
            width,
        } => Some((c, u16::from(width.max(1)))),
        Operand::Agpr { num, width } => Some((1024 + u16::from(num), u16::from(width.max(1)))),
        _ => None,
    }
}

/// MAI rules: on gfx908 the accumulator takes no inline constant and
/// v_accvgpr_write reads a VGPR or an inline constant; an accumulator wider
/// than 128 bits overlaps the destination fully or not at all.
fn validate_mai(inst: &Inst, roles: &[&str]) -> Failure {
    let def = inst.def;
    if def.mnemonic == "v_accvgpr_write_b32"
        && inst.target == Target::Gfx908
        && let Some((i, o)) = operand_of(inst, roles, "src0")
            .or_else(|| operand_of(inst, roles, "src"))
            .or_else(|| operand_of(inst, roles, "vsrc"))
        && !matches!(o, Operand::Src { code: 128..=248 | 256.., .. })
    {
        return Some((
            "source operand must be either a VGPR or an inline constant",
            Some(i),
        ));
    }
    if !is_mai(def) {
        return None;
    }
    let src2 = operand_of(inst, roles, "src2");
    if inst.target == Target::Gfx908
        && let Some((
            i,
            Operand::Src {
                code: 128..=255, ..
            }
            | Operand::Literal(_),
        )) = src2
    {
        return Some(("inline constants are not allowed for this operand", Some(i)));
    }
    let dst = operand_of(inst, roles, "vdst").and_then(|(_, o)| vector_range(o));
    let acc = src2.and_then(|(_, o)| vector_range(o));
    if let (Some((d, dw)), Some((c, cw))) = (dst, acc)
        && (d, dw) != (c, cw)
        && dw > 4
        && d < c + cw
        && c < d + dw
    {
        return Some((
            "source 2 operand must not partially overlap with dst",
            src2.map(|x| x.0),
        ));
    }
    None
}

/// gfx90a and gfx942 keep VGPR and AGPR tuples 64-bit aligned (and the data
/// register of ds_gws_* even).
fn validate_alignment(inst: &Inst) -> Failure {
    if !inst.target.has_agprs() {
        return None;
    }
    let gws = inst.def.mnemonic.starts_with("ds_gws");
    for (i, o) in inst.operands.iter().enumerate() {
        let Some((first, width)) = vector_range(o) else {
            continue;
        };
        if first % 2 == 1 && (width > 1 || gws) {
            return Some(if gws {
                ("vgpr must be even aligned", Some(i))
            } else {
                (
                    "invalid register class: vgpr tuples must be 64 bit aligned",
                    None,
                )
            });
        }
    }
    None
}

/// Memory rules: a returning FLAT atomic needs glc (sc0), a scratch saddr
/// is not exec_hi, an image gather has one dmask bit, and non-buffer SMEM
/// offsets are 21-bit signed.
fn validate_memory(inst: &Inst, roles: &[&str]) -> Failure {
    let def = inst.def;
    let m = &inst.mods;
    let flat = matches!(def.family, Family::Flat | Family::Global | Family::Scratch);
    if flat
        && def.mnemonic.contains("atomic")
        && !m.glc
        && operand_of(inst, roles, "vdst").is_some()
    {
        return Some(if inst.target == Target::Gfx942 {
            ("instruction must use sc0", None)
        } else {
            ("instruction must use glc", None)
        });
    }
    if def.family == Family::Scratch
        && let Some((i, Operand::Src { code: 127, .. })) = operand_of(inst, roles, "saddr")
    {
        return Some(("invalid operand for instruction", Some(i)));
    }
    if def.family == Family::Mimg && def.mnemonic.contains("_pck") && m.d16 {
        return Some(("invalid operand for instruction", None));
    }
    if def.mnemonic.starts_with("image_gather4") && m.dmask.count_ones() != 1 {
        return Some(("invalid image_gather dmask: only one bit must be set", None));
    }
    if def.family == Family::Smem && !def.mnemonic.contains("_buffer") {
        let imm = operand_of(inst, roles, "soffset").and_then(|(_, o)| match o {
            Operand::Imm(v) => Some(*v),
            _ => None,
        });
        if imm.is_some_and(|v| !SMEM_OFFSET.contains(&v)) {
            return Some(("expected a 21-bit signed offset", None));
        }
    }
    None
}

/// Operations whose first source is the second operand of the operation
/// (`v_subrev_*`, `v_lshlrev_*`, ...): llvm-mc refuses lds_direct there.
const REV_OPS: [&str; 5] = ["subrev", "subbrev", "lshlrev", "lshrrev", "ashrrev"];

/// llvm-mc's lds_direct rules for the assembler: src0 only, never in SDWA
/// or in reversed operations.
fn lds_direct_misuse(inst: &Inst, roles: &[&str]) -> Option<&'static str> {
    let at = roles
        .iter()
        .zip(&inst.operands)
        .position(|(_, o)| matches!(o, Operand::Src { code: 254, .. }))?;
    let mn = inst.def.mnemonic;
    if !matches!(role(roles[at]), "src0" | "src") {
        Some("lds_direct may be used as src0 only")
    } else if REV_OPS.iter().any(|r| mn.contains(&format!("_{r}_"))) || is_sdwa(inst.def.family) {
        Some("lds_direct cannot be used with this instruction")
    } else {
        None
    }
}

fn src_code(op: &Operand, name: &'static str) -> Result<(u32, Option<u32>)> {
    match *op {
        Operand::Src { code, .. } => Ok((u32::from(code), None)),
        Operand::Literal(v) => Ok((255, Some(v))),
        _ => Err(Error::Invalid {
            name,
            reason: "operand kind does not fit this field",
            offset: 0,
        }),
    }
}

fn vgpr_num(op: &Operand, name: &'static str) -> Result<(u32, bool)> {
    match *op {
        Operand::Src {
            code: c @ 256.., ..
        } => Ok((u32::from(c) - 256, false)),
        Operand::Agpr { num, .. } => Ok((u32::from(num), true)),
        _ => Err(Error::Invalid {
            name,
            reason: "expected a VGPR",
            offset: 0,
        }),
    }
}

fn sgpr_code(op: &Operand, name: &'static str) -> Result<u32> {
    match *op {
        Operand::Src {
            code: c @ 0..=127, ..
        } => Ok(u32::from(c)),
        _ => Err(Error::Invalid {
            name,
            reason: "expected a scalar register",
            offset: 0,
        }),
    }
}

/// Encodes `inst` for `target`.
pub fn encode(inst: &Inst, target: Target) -> Result<Vec<u8>> {
    let def = inst.def;
    let name = def.name;
    let op = u32::from(def.opcode(target).ok_or(Error::Invalid {
        name,
        reason: "instruction does not exist on this target",
        offset: 0,
    })?);
    if !def.family.is_supported() {
        return Err(Error::Unsupported {
            family: def.family,
            name,
            offset: 0,
        });
    }
    let m = &inst.mods;
    let mut lit: Option<u32> = None;
    let mut words = Vec::new();
    let mut setlit = |l: Option<u32>| -> Result<()> {
        if let Some(v) = l {
            if lit.is_some_and(|x| x != v) {
                return Err(Error::Invalid {
                    name,
                    reason: "only one literal allowed",
                    offset: 0,
                });
            }
            lit = Some(v);
        }
        Ok(())
    };
    let roles: Vec<&str> = {
        // Roles of the operands actually present.
        let n = inst.operands.len();
        let all: Vec<&str> = def
            .operands
            .iter()
            .copied()
            .filter(|r| !r.is_empty())
            .collect();
        if n < all.len() {
            all.iter().copied().filter(|r| !is_opt(r)).collect()
        } else {
            all
        }
    };
    let ops = &inst.operands;
    match def.family {
        Family::Sop1 | Family::Sop2 | Family::Sopc => {
            let mut w = match def.family {
                Family::Sop1 => 0xBE80_0000 | op << 8,
                Family::Sop2 => 0x8000_0000 | op << 23,
                _ => 0xBF00_0000 | op << 16,
            };
            for (r, o) in roles.iter().zip(ops) {
                if let Operand::Imm(v) = o {
                    w |= (*v as u32 & 0xFF) << 8;
                    continue;
                }
                let (c, l) = src_code(o, name)?;
                setlit(l)?;
                w |= match (def.family, role(r)) {
                    (_, "sdst") => c << 16,
                    (Family::Sop2 | Family::Sopc, "ssrc1") => c << 8,
                    _ => c,
                };
            }
            words.push(w);
        }
        Family::Sopk => {
            let mut w = 0xB000_0000 | op << 23;
            for (r, o) in roles.iter().zip(ops) {
                match (role(r), o) {
                    ("sdst" | "ssrc", _) => w |= sgpr_code(o, name)? << 16,
                    ("simm32", Operand::Literal(v)) => setlit(Some(*v))?,
                    (_, Operand::Imm(v)) => w |= (*v as u32) & 0xFFFF,
                    _ => {
                        return Err(Error::Invalid {
                            name,
                            reason: "bad SOPK operand",
                            offset: 0,
                        });
                    }
                }
            }
            words.push(w);
        }
        Family::Sopp => {
            let mut w = 0xBF80_0000 | op << 16;
            if let Some(Operand::Imm(v)) = ops.first() {
                w |= (*v as u32) & 0xFFFF;
            }
            words.push(w);
        }
        Family::Smem => {
            let mut w0 = 0xC000_0000 | op << 18 | u32::from(m.glc) << 16 | u32::from(m.nv) << 15;
            let mut w1 = 0;
            for (r, o) in roles.iter().zip(ops) {
                match role(r) {
                    "sdata" | "sdst" => w0 |= sgpr_code(o, name)? << 6,
                    "probe" => {
                        if let Operand::Imm(v) = o {
                            w0 |= (*v as u32 & 0x7F) << 6;
                        }
                    }
                    "sbase" => w0 |= sgpr_code(o, name)? >> 1,
                    _ => match o {
                        Operand::Imm(v) => {
                            w0 |= 1 << 17;
                            w1 |= (*v as u32) & 0x1F_FFFF;
                        }
                        _ => {
                            let c = sgpr_code(o, name)?;
                            if m.offset != 0 || m.soe {
                                w0 |= 1 << 17 | 1 << 14;
                                w1 |= c << 25 | (m.offset as u32 & 0x1F_FFFF);
                            } else {
                                w1 |= c;
                            }
                        }
                    },
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Vop1 | Family::Vop2 | Family::Vopc => {
            let mut w = match def.family {
                Family::Vop1 => 0x7E00_0000 | op << 9,
                Family::Vop2 => op << 25,
                _ => 0x7C00_0000 | op << 17,
            };
            for (r, o) in roles.iter().zip(ops) {
                match role(r) {
                    "vdst" => w |= vgpr_num(o, name)?.0 << 17,
                    _ if def.mnemonic == "v_accvgpr_mov_b32" => w |= 256 | vgpr_num(o, name)?.0,
                    "sdst" => w |= sgpr_code(o, name)? << 17,
                    "vcc" => {}
                    "vsrc1" | "vsrc2" => w |= vgpr_num(o, name)?.0 << 9,
                    "simm32" => {
                        let (_, l) = src_code(o, name)?;
                        setlit(l.or(Some(0)))?;
                    }
                    _ => {
                        let (c, l) = src_code(o, name)?;
                        setlit(l)?;
                        w |= c;
                    }
                }
            }
            words.push(w);
        }
        Family::Vop3 => {
            let mut w0 = 0xD000_0000 | op << 16 | u32::from(m.clamp) << 15;
            let mut w1 = u32::from(m.neg) << 29 | u32::from(m.omod) << 27;
            let vop3b = roles.len() > 1 && matches!(role(roles[1]), "sdst" | "vcc");
            if !vop3b {
                w0 |= u32::from(m.op_sel) << 11 | u32::from(m.abs) << 8;
            }
            for ((r, o), slot) in roles.iter().zip(ops).zip(vop3_slots(def)) {
                match (slot, role(r), o) {
                    (Slot::Vdst, "vdst", _) => w0 |= vgpr_num(o, name)?.0,
                    (Slot::Vdst, _, _) => w0 |= sgpr_code(o, name)?,
                    (Slot::Sdst, _, _) => w0 |= sgpr_code(o, name)? << 8,
                    (Slot::Src(k), "attr", Operand::Imm(v)) => {
                        w1 |= ((*v as u32 & 0xFF) | u32::from(m.high) << 8) << (9 * k);
                    }
                    (Slot::Src(k), "param", Operand::Imm(v)) => w1 |= (*v as u32 & 3) << (9 * k),
                    (Slot::Src(k), _, _) => {
                        let (c, l) = src_code(o, name)?;
                        if l.is_some() {
                            return Err(Error::Invalid {
                                name,
                                reason: "VOP3 has no literal on GFX9",
                                offset: 0,
                            });
                        }
                        w1 |= c << (9 * k);
                    }
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Vop1Dpp
        | Family::Vop2Dpp
        | Family::Vop1Sdwa
        | Family::Vop2Sdwa
        | Family::VopcSdwa => {
            let dpp = is_dpp(def.family);
            let mut w0 = match def.family {
                Family::Vop1Dpp | Family::Vop1Sdwa => 0x7E00_0000 | op << 9,
                Family::Vop2Dpp | Family::Vop2Sdwa => op << 25,
                _ => 0x7C00_0000 | op << 17,
            } | if dpp { 0xFA } else { 0xF9 };
            let bit = |v: u8, k: u32| u32::from(v >> k & 1);
            let mut w1 = if !dpp && def.operands.is_empty() {
                // v_nop_sdwa: llvm-mc-19 writes a zero SDWA word.
                0
            } else if dpp {
                // DPP has no sext bit: an integer source's sext is its neg bit.
                let neg = m.neg | m.sext;
                u32::from(m.dpp_ctrl & 0x1FF) << 8
                    | u32::from(m.bound_ctrl) << 19
                    | bit(neg, 0) << 20
                    | bit(m.abs, 0) << 21
                    | bit(neg, 1) << 22
                    | bit(m.abs, 1) << 23
                    | u32::from(m.bank_mask & 0xF) << 24
                    | u32::from(m.row_mask & 0xF) << 28
            } else {
                let mut w1 = u32::from(m.src_sel[0]) << 16
                    | bit(m.sext, 0) << 19
                    | bit(m.neg, 0) << 20
                    | bit(m.abs, 0) << 21;
                if def.family != Family::Vop1Sdwa {
                    w1 |= u32::from(m.src_sel[1]) << 24
                        | bit(m.sext, 1) << 27
                        | bit(m.neg, 1) << 28
                        | bit(m.abs, 1) << 29;
                }
                if def.family != Family::VopcSdwa {
                    w1 |= u32::from(m.dst_sel) << 8
                        | u32::from(m.dst_unused) << 11
                        | u32::from(m.clamp) << 13
                        | u32::from(m.omod) << 14;
                }
                w1
            };
            for (i, o) in ops.iter().enumerate() {
                match (role(def.operands[i]), dpp_sdwa_src(def, i), o) {
                    ("vdst", _, _) => w0 |= vgpr_num(o, name)?.0 << 17,
                    ("vcc", _, _) => {}
                    ("sdst", _, _) => {
                        let c = sgpr_code(o, name)?;
                        if c != 106 {
                            w1 |= 1 << 15 | c << 8;
                        }
                    }
                    (
                        _,
                        Some(k),
                        Operand::Src {
                            code: c @ 256.., ..
                        },
                    ) => {
                        let n = u32::from(*c) - 256;
                        if k == 0 {
                            w1 |= n;
                        } else {
                            w0 |= n << 9;
                        }
                    }
                    (_, Some(k), Operand::Src { code, .. }) if !dpp && *code < 255 => {
                        if k == 0 {
                            w1 |= u32::from(*code) | 1 << 23;
                        } else {
                            w0 |= u32::from(*code) << 9;
                            w1 |= 1 << 31;
                        }
                    }
                    _ => {
                        return Err(invalid(
                            def,
                            "DPP/SDWA operand must be a VGPR (SDWA: or scalar)",
                            0,
                        ));
                    }
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Vop3p => {
            let mai = is_mai(def);
            let mut w0 = 0xD380_0000 | op << 16;
            let mut w1 = 0;
            if mai {
                w0 |= u32::from(m.cbsz & 7) << 8 | u32::from(m.abid & 0xF) << 11;
                w1 |= u32::from(m.blgp & 7) << 29;
            } else {
                w0 |= u32::from(m.clamp) << 15
                    | u32::from(m.op_sel & 7) << 11
                    | u32::from(m.abs & 7) << 8
                    | u32::from(m.op_sel_hi >> 2 & 1) << 14;
                w1 |= u32::from(m.neg & 7) << 29 | u32::from(m.op_sel_hi & 3) << 27;
            }
            let mut k = 0;
            for (r, o) in roles.iter().zip(ops) {
                let agpr = matches!(o, Operand::Agpr { .. });
                if role(r) == "vdst" {
                    w0 |= vgpr_num(o, name)?.0;
                    if mai && agpr && target != Target::Gfx908 {
                        w0 |= 1 << 15;
                    }
                    continue;
                }
                let c = match o {
                    Operand::Agpr { num, .. } => 256 + u32::from(*num),
                    _ => {
                        let (c, l) = src_code(o, name)?;
                        if l.is_some() {
                            return Err(invalid(def, "VOP3P has no literal on GFX9", 0));
                        }
                        c
                    }
                };
                if mai && agpr && k < 2 {
                    w1 |= 1 << (27 + k);
                }
                w1 |= c << (9 * k);
                k += 1;
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Vintrp => {
            let mut w = 0xD400_0000 | op << 16;
            for (r, o) in roles.iter().zip(ops) {
                match (role(r), o) {
                    ("vdst", _) => w |= vgpr_num(o, name)?.0 << 18,
                    ("attr", Operand::Imm(v)) => {
                        let v = *v as u32;
                        w |= (v & 0x3F) << 10 | ((v >> 6) & 3) << 8;
                    }
                    ("param", Operand::Imm(v)) => w |= *v as u32 & 0xFF,
                    _ => w |= vgpr_num(o, name)?.0,
                }
            }
            words.push(w);
        }
        Family::Ds => {
            let mut w0 = 0xD800_0000 | op << 17 | u32::from(m.gds) << 16;
            match m.offset01 {
                Some((a, b)) => w0 |= u32::from(a) | u32::from(b) << 8,
                None => w0 |= m.offset as u32 & 0xFFFF,
            }
            let mut w1 = 0;
            let mut acc = false;
            for (r, o) in roles.iter().zip(ops) {
                let (n, a) = vgpr_num(o, name)?;
                match role(r) {
                    "vdst" => {
                        w1 |= n << 24;
                        acc |= a;
                    }
                    "vaddr" => w1 |= n,
                    "vdata" if def.mnemonic.starts_with("ds_gws") => {
                        w1 |= n;
                        acc |= a;
                    }
                    "vdata1" => {
                        w1 |= n << 16;
                        acc |= a;
                    }
                    _ => {
                        w1 |= n << 8;
                        acc |= a;
                    }
                }
            }
            if acc {
                w0 |= 1 << 25;
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Mimg => {
            let mut w0 = 0xF000_0000
                | (op & 0x7F) << 18
                | op >> 7 & 1
                | u32::from(m.dmask & 0xF) << 8
                | u32::from(m.unorm) << 12
                | u32::from(m.glc) << 13
                | u32::from(m.da) << 14
                | u32::from(m.a16) << 15
                | u32::from(m.tfe) << 16
                | u32::from(m.lwe) << 17
                | u32::from(m.slc) << 25
                | u32::from(m.sc1) << 7;
            let mut w1 = u32::from(m.d16) << 31;
            for (r, o) in roles.iter().zip(ops) {
                match role(r) {
                    "vdst" | "vdata" => {
                        let (n, a) = vgpr_num(o, name)?;
                        w1 |= n << 8;
                        w0 |= u32::from(a) << 16;
                    }
                    "vaddr" => w1 |= vgpr_num(o, name)?.0,
                    "srsrc" => w1 |= (sgpr_code(o, name)? >> 2) << 16,
                    _ => w1 |= (sgpr_code(o, name)? >> 2) << 21,
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Exp => {
            let mut w0 = 0xC400_0000
                | u32::from(m.compr) << 10
                | u32::from(m.done) << 11
                | u32::from(m.vm) << 12;
            let mut w1 = 0;
            for (k, o) in ops.iter().enumerate() {
                match (k, o) {
                    (0, Operand::Imm(t)) => w0 |= (*t as u32 & 0x3F) << 4,
                    (_, Operand::Off) => {}
                    (k, _) => {
                        let n = vgpr_num(o, name)?.0;
                        let k = k as u32 - 1;
                        if m.compr {
                            // Pairs: operands 0/1 -> vsrc0, 2/3 -> vsrc1; the
                            // first enabled operand of a pair gives the VGPR.
                            if k.is_multiple_of(2) || w0 >> (k - 1) & 1 == 0 {
                                w1 &= !(0xFF << (8 * (k / 2)));
                                w1 |= n << (8 * (k / 2));
                            }
                            w0 |= 1 << k;
                        } else {
                            w1 |= n << (8 * k);
                            w0 |= 1 << k;
                        }
                    }
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Mubuf | Family::Mtbuf => {
            let mut w0 = u32::from(m.idxen) << 13
                | u32::from(m.offen) << 12
                | u32::from(m.glc) << 14
                | (m.offset as u32 & 0xFFF);
            let mut w1 = 0;
            if def.family == Family::Mubuf {
                w0 |= 0xE000_0000 | op << 18 | u32::from(m.slc) << 17 | u32::from(m.lds) << 16;
                w0 |= u32::from(m.sc1) << 15;
            } else {
                w0 |= 0xE800_0000 | u32::from(m.format) << 19 | op << 15;
                w1 |= u32::from(m.slc) << 22 | u32::from(m.sc1) << 21;
            }
            w1 |= u32::from(m.tfe) << 23;
            for (r, o) in roles.iter().zip(ops) {
                match role(r) {
                    "vdst" | "vdata" => {
                        let (n, a) = vgpr_num(o, name)?;
                        w1 |= n << 8 | u32::from(a) << 23;
                    }
                    "vaddr" => {
                        if *o != Operand::Off {
                            w1 |= vgpr_num(o, name)?.0;
                        }
                    }
                    "srsrc" => w1 |= (sgpr_code(o, name)? >> 2) << 16,
                    _ => {
                        let (c, l) = src_code(o, name)?;
                        if l.is_some() {
                            return Err(invalid(def, "soffset cannot be a literal", 0));
                        }
                        w1 |= c << 24;
                    }
                }
            }
            words.push(w0);
            words.push(w1);
        }
        Family::Flat | Family::Global | Family::Scratch => {
            let seg = match def.family {
                Family::Flat => 0,
                Family::Scratch => 1,
                _ => 2,
            };
            let mut w0 = 0xDC00_0000
                | op << 18
                | u32::from(m.slc) << 17
                | u32::from(m.glc) << 16
                | seg << 14
                | u32::from(m.lds) << 13
                | (m.offset as u32 & 0x1FFF);
            if m.sc1 {
                w0 |= 1 << 25;
            }
            if target == Target::Gfx942
                && def.family == Family::Scratch
                && roles
                    .iter()
                    .zip(ops)
                    .any(|(r, o)| role(r) == "vaddr" && *o != Operand::Off)
            {
                w0 |= 1 << 13;
            }
            let mut w1 = 0;
            let mut acc = false;
            for (r, o) in roles.iter().zip(ops) {
                match role(r) {
                    "vdst" => {
                        let (n, a) = vgpr_num(o, name)?;
                        w1 |= n << 24;
                        acc |= a;
                    }
                    "vaddr" => {
                        if *o != Operand::Off {
                            w1 |= vgpr_num(o, name)?.0;
                        }
                    }
                    "saddr" => {
                        w1 |= match o {
                            Operand::Off => 0x7F,
                            _ => sgpr_code(o, name)?,
                        } << 16
                    }
                    _ => {
                        let (n, a) = vgpr_num(o, name)?;
                        w1 |= n << 8;
                        acc |= a;
                    }
                }
            }
            if acc {
                w1 |= 1 << 23;
            }
            words.push(w0);
            words.push(w1);
        }
        _ => {
            return Err(Error::Unsupported {
                family: def.family,
                name,
                offset: 0,
            });
        }
    }
    if let Some(v) = lit {
        words.push(v);
    }
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}
