#!/usr/bin/env python3
"""Generate the cross-product part of the HSAIL corpus (tests/corpus/gen/**).

Every instruction form that the HSA PRM 1.0 tables (ch. 5-11) allow is
written as one line, grouped by area into files of moderate size.  The
candidate lines come from the PRM, not from HSAILasm: this script then
assembles each file with HSAILasm and moves every line HSAILasm rejects
into tests/corpus/REJECTED.txt (with HSAILasm's message), so the corpus
only holds accepted input and the rejections become validator work.

Usage:  python3 tests/corpus/gen_corpus.py   (needs HSAILasm on PATH)

Output is deterministic: no randomness, fixed iteration order.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "gen")
MAX_LINES = 520

FULL_LARGE = "module &m:1:0:$full:$large:$default;"
FULL_SMALL = "module &m:1:0:$full:$small:$near;"
BASE_LARGE = "module &m:1:0:$base:$large:$default;"
BASE_SMALL = "module &m:1:0:$base:$small:$near;"
IMAGE = '\nextension "IMAGE";'


ROUND_F = ["", "up", "down", "zero", "near"]
INT_LEN = ["32", "64"]
PACKED_INT = ["8x4", "8x8", "8x16", "16x2", "16x4", "16x8", "32x2", "32x4", "64x2"]
PACKED_F = ["f16x2", "f16x4", "f16x8", "f32x2", "f32x4", "f64x2"]
SEGMENTS_ALL = ["", "global", "group", "private", "kernarg", "readonly", "spill", "arg"]
ORDERS = ["rlx", "scacq", "screl", "scar"]
SCOPES = ["wi", "wave", "wg", "agent", "system"]
WIDTHS = ["", "width(1)", "width(2)", "width(64)", "width(WAVESIZE)", "width(all)"]
GEOMS = ["1d", "2d", "3d", "1da", "2da", "1db", "2ddepth", "2dadepth"]


def bits(t):
    """Bit size of a type name such as u32, f16x2, b128, roimg."""
    if t in ("roimg", "woimg", "rwimg", "samp", "sig32", "sig64"):
        return 64  # opaque handles are 64 bits in both machine models (PRM 6.8.1)
    m = re.fullmatch(r"[a-z]+(\d+)x(\d+)", t)
    if m:
        return int(m.group(1)) * int(m.group(2))
    m = re.fullmatch(r"[a-z]+(\d+)", t)
    return int(m.group(1))


class Regs:
    """Hands out register names, cycling so lines use different numbers."""

    def __init__(self):
        self.n = {"c": 0, "s": 0, "d": 0, "q": 0}
        self.lim = {"c": 8, "s": 40, "d": 40, "q": 16}

    def kind(self, t):
        b = bits(t)
        if b == 1:
            return "c"
        if b <= 32:
            return "s"
        return "d" if b == 64 else "q"

    def get(self, t):
        k = self.kind(t)
        i = self.n[k]
        self.n[k] = (i + 1) % self.lim[k]
        return "$%s%d" % (k, i)


INT_IMMS = ["1", "42", "0x2a", "017", "0", "0x7fffffff", "255"]
SINT_IMMS = ["-7", "1", "0x10", "-0x1", "077", "-1"]
F16_IMMS = ["1.5h", "0H3c00", "-2.0H", "0x1.8p1h", "1e2h"]
F32_IMMS = ["1.5f", "0F3fc00000", "-0.25f", "0x1.8p-1f", "3.0e10f", "1.0E-3F"]
F64_IMMS = ["2.5", "0D4004000000000000", "-1.0e-3", "0x1.0p3", "1.0d", "6.5E2D"]


def packed_imm(t, k):
    m = re.fullmatch(r"([suf])(\d+)x(\d+)", t)
    base, n = m.group(1) + m.group(2), int(m.group(3))
    elems = [scalar_imm(base, k + i) for i in range(n)]
    return "%s(%s)" % (t, ",".join(elems))


def scalar_imm(t, k):
    if "x" in t:
        return packed_imm(t, k)
    if t == "b1":
        return str(k % 2)
    if t == "f16":
        return F16_IMMS[k % len(F16_IMMS)]
    if t == "f32":
        return F32_IMMS[k % len(F32_IMMS)]
    if t == "f64":
        return F64_IMMS[k % len(F64_IMMS)]
    if t.startswith("s"):
        return SINT_IMMS[k % len(SINT_IMMS)]
    if t == "b128":
        return "u32x4(%d,%d,%d,%d)" % (k, k + 1, k + 2, k + 3)
    return INT_IMMS[k % len(INT_IMMS)]


class Gen:
    """Builds operand lists; every call advances a counter so that the
    choice of register versus immediate, and which immediate, varies."""

    def __init__(self):
        self.k = 0
        self.regs = Regs()

    def dst(self, t):
        return self.regs.get(t)

    def src(self, t, imm_ok=True):
        self.k += 1
        if imm_ok and self.k % 3 == 0:
            return scalar_imm(t, self.k // 3)
        return self.regs.get(t)

    def reg(self, t):
        return self.regs.get(t)


def join(*parts):
    return "_".join(p for p in parts if p)


# --------------------------------------------------------------------------
# Instruction tables (PRM chapter 5)


def arith_int(g):
    out = []
    sec = "5.2 integer arithmetic"
    for op, types in [("abs", "s"), ("add", "su"), ("borrow", "su"), ("carry", "su"),
                      ("div", "su"), ("max", "su"), ("min", "su"), ("mul", "su"),
                      ("mulhi", "su"), ("neg", "s"), ("rem", "su"), ("sub", "su")]:
        for ty in types:
            for ln in INT_LEN:
                t = ty + ln
                n = 1 if op in ("abs", "neg") else 2
                out.append((sec, "%s_%s %s, %s;" % (op, t, g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    sec = "5.3 integer mad"
    for ty in "su":
        for ln in INT_LEN:
            t = ty + ln
            out.append((sec, "mad_%s %s, %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t), g.src(t))))
    sec = "5.4 24-bit integer"
    for op, n in [("mad24", 3), ("mad24hi", 3), ("mul24", 2), ("mul24hi", 2)]:
        for ty in "su":
            t = ty + "32"
            out.append((sec, "%s_%s %s, %s;" % (op, t, g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    sec = "5.5 shift"
    for op in ("shl", "shr"):
        for ty in "su":
            for ln in INT_LEN + PACKED_INT:
                t = ty + ln
                out.append((sec, "%s_%s %s, %s, %s;" % (op, t, g.dst(t), g.src(t), g.src("u32"))))
    return out


def arith_packed_int(g):
    out = []
    sec = "5.2 packed integer arithmetic"
    sat = ["pp", "pp_sat", "ps", "ps_sat", "sp", "sp_sat", "ss", "ss_sat"]
    nosat = ["pp", "ps", "sp", "ss"]
    for op, ctrls, types, n in [("abs", ["p", "s"], "s", 1), ("neg", ["p", "s"], "s", 1),
                                ("add", sat, "su", 2), ("sub", sat, "su", 2), ("mul", sat, "su", 2),
                                ("max", nosat, "su", 2), ("min", nosat, "su", 2), ("mulhi", nosat, "su", 2)]:
        for c in ctrls:
            for ty in types:
                for ln in PACKED_INT:
                    t = ty + ln
                    out.append((sec, "%s_%s_%s %s, %s;" % (op, c, t, g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    return out


def bit_ops(g):
    out = []
    sec = "5.6 individual bit"
    for op, n in [("and", 2), ("or", 2), ("xor", 2), ("not", 1)]:
        for ln in ["1", "32", "64"]:
            t = "b" + ln
            out.append((sec, "%s_%s %s, %s;" % (op, t, g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    for ln in INT_LEN:
        out.append((sec, "popcount_u32_b%s %s, %s;" % (ln, g.dst("u32"), g.src("b" + ln))))
    sec = "5.7 bit string"
    for ty in "su":
        for ln in INT_LEN:
            t = ty + ln
            out.append((sec, "bitextract_%s %s, %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src("u32"), g.src("u32"))))
            out.append((sec, "bitinsert_%s %s, %s, %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t), g.src("u32"), g.src("u32"))))
            out.append((sec, "firstbit_u32_%s %s, %s;" % (t, g.dst("u32"), g.src(t))))
            out.append((sec, "lastbit_u32_%s %s, %s;" % (t, g.dst("u32"), g.src(t))))
    for ln in INT_LEN:
        t = "b" + ln
        out.append((sec, "bitmask_%s %s, %s, %s;" % (t, g.dst(t), g.src("u32"), g.src("u32"))))
        out.append((sec, "bitrev_%s %s, %s;" % (t, g.dst(t), g.src(t))))
        out.append((sec, "bitselect_%s %s, %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t), g.src(t))))
    return out


def copy_ops(g, model):
    out = []
    sec = "5.8 copy"
    out.append((sec, "combine_v2_b64_b32 %s, (%s, %s);" % (g.dst("b64"), g.src("b32"), g.src("b32"))))
    out.append((sec, "combine_v4_b128_b32 %s, (%s, %s, %s, %s);" % (g.dst("b128"), g.src("b32"), g.src("b32"), g.src("b32"), g.src("b32"))))
    out.append((sec, "combine_v2_b128_b64 %s, (%s, %s);" % (g.dst("b128"), g.src("b64"), g.src("b64"))))
    out.append((sec, "expand_v2_b32_b64 (%s, %s), %s;" % (g.dst("b32"), g.dst("b32"), g.src("b64"))))
    out.append((sec, "expand_v4_b32_b128 (%s, %s, %s, %s), %s;" % (g.dst("b32"), g.dst("b32"), g.dst("b32"), g.dst("b32"), g.src("b128"))))
    out.append((sec, "expand_v2_b64_b128 (%s, %s), %s;" % (g.dst("b64"), g.dst("b64"), g.src("b128"))))
    flat = "u64" if model == "large" else "u32"
    for seg, var in [("global", "%glob"), ("group", "%grp"), ("private", "%priv"),
                     ("kernarg", "%karg"), ("readonly", "&ro")]:
        t = "u32" if seg in ("group", "private", "spill") or model == "small" else "u64"
        if seg == "":
            t = flat
        out.append((sec, "lda_%s %s, [%s];" % (join(seg, t), g.dst(t), var)))
        out.append((sec, "lda_%s %s, [%s][%s+8];" % (join(seg, t), g.dst(t), var, g.reg(t))))
    for t in ["b1", "b32", "b64", "b128", "u32", "u64", "s32", "s64", "f16", "f32", "f64"]:
        out.append((sec, "mov_%s %s, %s;" % (t, g.dst(t), g.src(t))))
        out.append((sec, "mov_%s %s, %s;" % (t, g.dst(t), scalar_imm(t, g.k))))
    for t in ["roimg", "woimg", "rwimg", "samp"]:
        out.append((sec, "mov_%s %s, %s;" % (t, g.dst(t), g.reg(t))))
    sig = "sig64" if model == "large" else "sig32"
    out.append((sec, "mov_%s %s, %s;" % (sig, g.dst(sig), g.reg(sig))))
    out.append((sec, "mov_b32 %s, WAVESIZE;" % g.dst("b32")))
    out.append((sec, "mov_u64 %s, WAVESIZE;" % g.dst("u64")))
    return out


PACKED_ALL = ["s8x4", "u8x4", "s8x8", "u8x8", "s8x16", "u8x16", "s16x2", "u16x2", "s16x4", "u16x4",
              "s16x8", "u16x8", "s32x2", "u32x2", "s32x4", "u32x4", "s64x2", "u64x2"] + PACKED_F


def packed_ops(g):
    out = []
    sec = "5.9 packed data"
    for ty in "suf":
        for ln in ["8x4", "8x8", "16x2", "16x4", "32x2"]:
            if ty == "f" and ln.startswith("8"):
                continue
            t = ty + ln
            out.append((sec, "shuffle_%s %s, %s, %s, %d;" % (t, g.dst(t), g.src(t), g.src(t), (g.k * 7) % 16)))
            out.append((sec, "unpacklo_%s %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t))))
            out.append((sec, "unpackhi_%s %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t))))
    for dty in "suf":
        for dln in PACKED_INT:
            if dty == "f" and dln.startswith("8"):
                continue
            d = dty + dln
            elem = dty + dln.split("x")[0]
            nel = int(dln.split("x")[1])
            eb = int(dln.split("x")[0])
            for s in [dty + str(eb if dty == "f" or eb == 64 else 32)]:
                out.append((sec, "pack_%s_%s %s, %s, %s, %d;" % (d, s, g.dst(d), g.src(d), g.src(s), g.k % nel)))
                out.append((sec, "unpack_%s_%s %s, %s, %d;" % (s, d, g.dst(s), g.src(d), g.k % nel)))
            del elem
    sec = "5.10 cmov"
    for ln in ["1", "32", "64"]:
        t = "b" + ln
        out.append((sec, "cmov_%s %s, %s, %s, %s;" % (t, g.dst(t), g.src("b1"), g.src(t), g.src(t))))
    for t in PACKED_ALL:
        u = "u" + str(bits(t))
        out.append((sec, "cmov_%s %s, %s, %s, %s;" % (t, g.dst(t), g.reg(u if bits(t) < 128 else "b128"), g.src(t), g.src(t))))
    return out


def arith_float(g, base=False):
    out = []
    lens = ["f16", "f32"] if base else ["f16", "f32", "f64"]
    ftzs = ["ftz"] if base else ["", "ftz"]
    rnds = [""] if base else ROUND_F
    sec = "5.11 float arithmetic"
    for op, n, rounding in [("add", 2, True), ("ceil", 1, False), ("div", 2, True), ("floor", 1, False),
                            ("fma", 3, True), ("fract", 1, True), ("max", 2, False), ("min", 2, False),
                            ("mul", 2, True), ("rint", 1, False), ("sqrt", 1, True), ("sub", 2, True),
                            ("trunc", 1, False)]:
        for t in lens:
            for f in ftzs:
                for r in (rnds if rounding else [""]):
                    out.append((sec, "%s %s, %s;" % (join(op, f, r, t), g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    sec = "5.12 float mad"
    for t in lens:
        for f in ftzs:
            for r in rnds:
                out.append((sec, "%s %s, %s, %s, %s;" % (join("mad", f, r, t), g.dst(t), g.src(t), g.src(t), g.src(t))))
    return out


def arith_float_packed(g, base=False):
    out = []
    types = [t for t in PACKED_F if not (base and t == "f64x2")]
    ftzs = ["ftz"] if base else ["", "ftz"]
    rnds = [""] if base else ROUND_F
    sec = "5.11 packed float arithmetic"
    for op, n, rounding in [("add", 2, True), ("ceil", 1, False), ("div", 2, True), ("floor", 1, False),
                            ("fract", 1, True), ("max", 2, False), ("min", 2, False),
                            ("mul", 2, True), ("rint", 1, False), ("sqrt", 1, True), ("sub", 2, True),
                            ("trunc", 1, False)]:
        ctrls = ["p", "s"] if n == 1 else ["pp", "ps", "sp", "ss"]
        for t in types:
            for f in ftzs:
                for r in (rnds if rounding else [""]):
                    for c in ctrls:
                        if (r or f) and c not in ("pp", "p") and t not in ("f32x2", "f16x2"):
                            continue  # keep the file moderate: all controls on two types
                        out.append((sec, "%s %s, %s;" % (join(op, f, r, c, t), g.dst(t), ", ".join(g.src(t) for _ in range(n)))))
    return out


def float_bit(g, base=False):
    out = []
    lens = ["f16", "f32"] if base else ["f16", "f32", "f64"]
    sec = "5.13 float bit"
    for t in lens:
        out.append((sec, "abs_%s %s, %s;" % (t, g.dst(t), g.src(t))))
        out.append((sec, "neg_%s %s, %s;" % (t, g.dst(t), g.src(t))))
        out.append((sec, "copysign_%s %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t))))
        out.append((sec, "class_b1_%s %s, %s, %s;" % (t, g.dst("b1"), g.src(t), g.src("u32"))))
    for t in PACKED_F:
        if base and t == "f64x2":
            continue
        for c in ["p", "s"]:
            out.append((sec, "abs_%s_%s %s, %s;" % (c, t, g.dst(t), g.src(t))))
            out.append((sec, "neg_%s_%s %s, %s;" % (c, t, g.dst(t), g.src(t))))
        for c in ["pp", "ps", "sp", "ss"]:
            out.append((sec, "copysign_%s_%s %s, %s, %s;" % (c, t, g.dst(t), g.src(t), g.src(t))))
    sec = "5.14 native float"
    for op in ["ncos", "nexp2", "nlog2", "nsin"]:
        out.append((sec, "%s_f32 %s, %s;" % (op, g.dst("f32"), g.src("f32"))))
    for t in lens:
        out.append((sec, "nfma_%s %s, %s, %s, %s;" % (t, g.dst(t), g.src(t), g.src(t), g.src(t))))
        for op in ["nrcp", "nrsqrt", "nsqrt"]:
            out.append((sec, "%s_%s %s, %s;" % (op, t, g.dst(t), g.src(t))))
    return out


def multimedia(g):
    sec = "5.15 multimedia"
    out = []
    out.append((sec, "bitalign_b32 %s, %s, %s, %s;" % (g.dst("b32"), g.src("b32"), g.src("b32"), g.src("b32"))))
    out.append((sec, "bytealign_b32 %s, %s, %s, %s;" % (g.dst("b32"), g.src("b32"), g.src("b32"), g.src("b32"))))
    out.append((sec, "lerp_u8x4 %s, %s, %s, %s;" % (g.dst("u8x4"), g.src("u8x4"), g.src("u8x4"), g.src("u8x4"))))
    out.append((sec, "packcvt_u8x4_f32 %s, %s, %s, %s, %s;" % (g.dst("u8x4"), g.src("f32"), g.src("f32"), g.src("f32"), g.src("f32"))))
    for i in range(4):
        out.append((sec, "unpackcvt_f32_u8x4 %s, %s, %d;" % (g.dst("f32"), g.src("u8x4"), i)))
    out.append((sec, "sad_u32_u32 %s, %s, %s, %s;" % (g.dst("u32"), g.src("u32"), g.src("u32"), g.src("u32"))))
    out.append((sec, "sad_u32_u16x2 %s, %s, %s, %s;" % (g.dst("u32"), g.src("u16x2"), g.src("u16x2"), g.src("u32"))))
    out.append((sec, "sad_u32_u8x4 %s, %s, %s, %s;" % (g.dst("u32"), g.src("u8x4"), g.src("u8x4"), g.src("u32"))))
    out.append((sec, "sadhi_u16x2_u8x4 %s, %s, %s, %s;" % (g.dst("u16x2"), g.src("u8x4"), g.src("u8x4"), g.src("u16x2"))))
    return out


def segment_ops(g, model):
    out = []
    flat = "u64" if model == "large" else "u32"
    sec = "5.16 segmentp"
    for seg in ["global", "group", "private"]:
        for nn in ["", "nonull"]:
            out.append((sec, "segmentp_%s %s, %s;" % (join(seg, nn, "b1", flat), g.dst("b1"), g.src(flat))))
    sec = "5.17 segment conversion"
    for seg in ["group", "private"]:
        st = "u32"
        for nn in ["", "nonull"]:
            out.append((sec, "ftos_%s %s, %s;" % (join(seg, nn, st, flat), g.dst(st), g.src(flat))))
            out.append((sec, "stof_%s %s, %s;" % (join(seg, nn, flat, st), g.dst(flat), g.src(st))))
    return out


CMP_INT_OPS = ["eq", "ne", "lt", "le", "gt", "ge"]
CMP_F_OPS = CMP_INT_OPS + ["equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
                           "seq", "sne", "slt", "sle", "sgt", "sge", "sequ", "sneu",
                           "sltu", "sleu", "sgtu", "sgeu", "snum", "snan"]
CMP_DESTS = ["b1", "u32", "s32", "f32", "u64", "s64", "f64", "f16"]


def cmp_ops(g, which, base=False):
    out = []
    sec = "5.18 cmp"
    if which == "int":
        srcs = ["b1", "b32", "b64", "u32", "s32", "u64", "s64"]
    else:
        srcs = ["f16", "f32"] + ([] if base else ["f64"])
    dests = [d for d in CMP_DESTS if not (base and d == "f64")]
    for s in srcs:
        ops = CMP_F_OPS if s.startswith("f") else (["eq", "ne"] if s.startswith("b") else CMP_INT_OPS)
        ftzs = ["ftz"] if base and s.startswith("f") else (["", "ftz"] if s.startswith("f") else [""])
        for op in ops:
            for f in ftzs:
                for d in dests:
                    # every op with every dest on the first source type and
                    # b1 dest; the full dest list for eq and lt elsewhere
                    if d != "b1" and op not in ("eq", "lt", "sgeu", "nan") and s not in ("f32", "u32"):
                        continue
                    if f and d not in ("b1", "f32"):
                        continue
                    out.append((sec, "cmp_%s %s, %s, %s;" % (join(op, f, d, s), g.dst(d), g.src(s), g.src(s))))
    return out


def cmp_packed(g):
    out = []
    sec = "5.18 packed cmp"
    for t in PACKED_ALL:
        ops = CMP_F_OPS if t.startswith("f") else CMP_INT_OPS
        d = "u" + re.fullmatch(r"[suf](\d+x\d+)", t).group(1)
        for op in ops:
            for f in (["", "ftz"] if t.startswith("f") else [""]):
                if f and op not in ("eq", "snan"):
                    continue
                out.append((sec, "cmp_%s %s, %s, %s;" % (join(op, f, "pp", d, t), g.dst(d), g.src(t), g.src(t))))
    return out


CVT_TYPES = ["b1", "u8", "s8", "u16", "s16", "f16", "u32", "s32", "f32", "u64", "s64", "f64"]
INT_ROUNDS = ["upi", "downi", "zeroi", "neari"]
INT_ROUNDS_ALL = (INT_ROUNDS + [r + "_sat" for r in INT_ROUNDS] + ["s" + r for r in INT_ROUNDS]
                  + ["s" + r + "_sat" for r in INT_ROUNDS])


def cvt_roundings(d, s, base):
    """Rounding modifiers Table 5-30 allows for cvt from s to d."""
    df, sf = d.startswith("f"), s.startswith("f")
    if sf and df:
        if bits(d) < bits(s):
            return [""] if base else ROUND_F
        return [""]
    if sf and d == "b1":
        return [""]
    if sf:
        if base:
            return ["", "zeroi", "zeroi_sat", "szeroi", "szeroi_sat"]
        return [""] + INT_ROUNDS_ALL
    if df and s != "b1":
        return [""] if base else ROUND_F
    return [""]


def cvt_ops(g, part, base=False):
    out = []
    sec = "5.19 cvt"
    types = [t for t in CVT_TYPES if not (base and t == "f64")]
    for d in types:
        for s in types:
            if d == s or (d[0] in "su" and s[0] in "su" and bits(d) == bits(s)):
                continue  # Table 5-27: no conversion between same-size integers
            fl = s.startswith("f") or d.startswith("f")
            if part == "int" and fl:
                continue
            if part == "float" and not fl:
                continue
            for r in cvt_roundings(d, s, base):
                ftzs = [""]
                if s.startswith("f"):
                    ftzs = ["ftz"] if base else ["", "ftz"]
                for f in ftzs:
                    if f and r not in ("", "neari_sat", "near", "szeroi"):
                        continue
                    out.append((sec, "cvt_%s %s, %s;" % (join(f, r, d, s), g.dst(d), g.src(s))))
    return out


# --------------------------------------------------------------------------
# Memory (PRM chapter 6)

SEG_VARS = {"": None, "global": "%glob", "group": "%grp", "private": "%priv", "kernarg": "%karg",
            "readonly": "&ro", "spill": "%spl", "arg": None}

MEM_TYPES = ["u8", "s8", "u16", "s16", "f16", "u32", "s32", "f32", "u64", "s64", "f64", "b128", "roimg", "woimg", "rwimg", "samp", "sig32", "sig64"]


def addr(seg, g, model, k):
    """An address expression for the segment, with a few forms."""
    var = SEG_VARS.get(seg)
    segsize = "u32" if seg in ("group", "private", "spill", "arg") or model == "small" else "u64"
    if var is None:
        r = g.reg(segsize)
        return ["[%s]" % r, "[%s+8]" % r, "[%s-4]" % r, "[0x100]"][k % 4]
    r = g.reg(segsize)
    return ["[%s]" % var, "[%s][%s]" % (var, r), "[%s][%s+16]" % (var, r), "[%s][4]" % var][k % 4]


OPAQUE = ("roimg", "woimg", "rwimg", "samp", "sig32", "sig64")


def ld_st(g, model, which):
    out = []
    sec = "6.3 ld" if which == "ld" else "6.4 st"
    segs = ["", "global", "group", "private", "kernarg", "readonly", "spill"] if which == "ld" else ["", "global", "group", "private", "spill"]
    k = 0
    for seg in segs:
        for t in MEM_TYPES:
            if t in ("sig32", "sig64") and (model == "large") != (t == "sig64"):
                continue
            k += 1
            if t in OPAQUE and seg not in ("", "global", "readonly", "kernarg"):
                continue
            if t in OPAQUE and which == "st":
                continue  # PRM 6.4: opaque types are stored only to arg (see func/ files)
            vecs = [""]
            if bits(t) in (32, 64) and t not in ("roimg", "woimg", "rwimg", "samp", "sig32", "sig64") or bits(t) in (8, 16):
                vecs = ["", "v2", "v3", "v4"] if t in ("u32", "f32", "u8", "f64", "s16") else [""]
            for v in vecs:
                rt = t
                if bits(t) < 32:
                    rt = t[0] + "32" if t[0] != "b" else "b32"
                if t == "f16":
                    rt = "f32" if which == "st" else "f32"
                n = int(v[1]) if v else 1
                regs = [g.reg(rt) for _ in range(n)]
                ops = regs[0] if n == 1 else "(%s)" % ", ".join(regs)
                a = addr(seg, g, model, k)
                if t in OPAQUE:
                    a = addr("", g, model, k)
                out.append((sec, "%s %s, %s;" % (join(which, v, seg, t), ops, a)))
    # modifiers: align, const, equiv, width
    for seg in ["", "global"] + (["readonly", "group"] if which == "ld" else ["group"]):
        for al in ["align(1)", "align(2)", "align(4)", "align(8)", "align(16)", "align(32)", "align(64)", "align(128)", "align(256)"]:
            out.append((sec, "%s %s, %s;" % (join(which, seg, al, "u32"), g.reg("u32"), addr(seg, g, model, 1))))
        for eq in ["equiv(0)", "equiv(1)", "equiv(255)"]:
            out.append((sec, "%s %s, %s;" % (join(which, seg, eq, "u64"), g.reg("u64"), addr(seg, g, model, 2))))
        if which == "ld":
            if seg in ("", "global"):
                out.append((sec, "%s %s, %s;" % (join(which, seg, "const", "u32"), g.reg("u32"), addr(seg, g, model, 3))))
                out.append((sec, "%s %s, %s;" % (join(which, seg, "align(8)", "const", "equiv(2)", "f64"), g.reg("f64"), addr(seg, g, model, 3))))
            for w in WIDTHS:
                out.append((sec, "%s %s, %s;" % (join(which, seg, w, "s32"), g.reg("s32"), addr(seg, g, model, 0))))
            out.append((sec, "%s (%s, %s, %s, %s), %s;" % (join(which, "v4", seg, "align(16)", "equiv(3)", "width(all)", "f32"), g.reg("f32"), g.reg("f32"), g.reg("f32"), g.reg("f32"), addr(seg, g, model, 0))))
    if which == "st":
        # immediate sources
        out.append((sec, "st_global_u32 42, [%glob];"))
        out.append((sec, "st_global_f32 1.5f, [%glob];"))
        out.append((sec, "st_global_f64 0D3ff8000000000000, [%glob][8];"))
        out.append((sec, "st_v2_global_u32 (1, %s), [%%glob];" % g.reg("u32")))
        out.append((sec, "st_global_b128 u32x4(1,2,3,4), [%glob];"))
        out.append((sec, "st_global_u8 255, [%glob];"))
    return out


ATOMIC_OPS = ["ld", "and", "or", "xor", "exch", "add", "sub", "wrapinc", "wrapdec", "max", "min", "cas"]
NORET_OPS = ["st", "and", "or", "xor", "add", "sub", "wrapinc", "wrapdec", "max", "min"]


def atomic_types(op, model):
    # PRM 6.6/6.7 (Length): 64 is not allowed for the small machine model
    # (HSAILasm accepts it; tests/corpus-invalid has that case).
    if op in ("and", "or", "xor", "exch", "ld", "st", "cas"):
        types = ["b32", "b64"]
    elif op in ("wrapinc", "wrapdec"):
        types = ["u32", "u64"]
    else:
        types = ["s32", "u32", "s64", "u64"]
    if model == "small":
        types = [t for t in types if t.endswith("32")]
    return types


def atomic_orders(op, noret):
    if op == "ld":
        return ["rlx", "scacq"]
    if op == "st":
        return ["rlx", "screl"]
    return ORDERS


def atomics(g, model, noret, seg_filter=None, thin=False):
    out = []
    sec = "6.7 atomicnoret" if noret else "6.6 atomic"
    ops = NORET_OPS if noret else ATOMIC_OPS
    segs = ["", "global", "group"]
    for op in ops:
        for seg in segs:
            if seg_filter is not None and seg != seg_filter:
                continue
            for order in atomic_orders(op, noret):
                scopes = [sc for sc in SCOPES[1:] if not (seg == "group" and sc in ("agent", "system"))]  # no "wi" (PRM 6.6.1)
                if thin:
                    scopes = [scopes[len(out) % len(scopes)]]
                for scope in scopes:
                    types = atomic_types(op, model)
                    if scope != "wg" or thin:
                        # every type with scope wg, one (rotating) type otherwise
                        types = [types[len(out) % len(types)]]
                    for t in types:
                        a = addr(seg, g, model, len(out))
                        srcs = {"ld": 0, "cas": 2}.get(op, 1)
                        if noret:
                            s = ", ".join(g.src(t) for _ in range(srcs))
                            out.append((sec, "%s %s, %s;" % (join("atomicnoret", op, seg, order, scope, t), a, s)))
                        else:
                            s = "".join(", " + g.src(t) for _ in range(srcs))
                            out.append((sec, "%s %s, %s%s;" % (join("atomic", op, seg, order, scope, t), g.dst(t), a, s)))
    # equivalence classes
    for eq in ["equiv(1)", "equiv(7)", "equiv(255)"]:
        if noret:
            out.append((sec, "%s %s, %s;" % (join("atomicnoret", "add", "global", "rlx", "agent", eq, "u32"), addr("global", g, model, 0), g.src("u32"))))
        else:
            out.append((sec, "%s %s, %s, %s;" % (join("atomic", "add", "global", "rlx", "agent", eq, "u32"), g.dst("u32"), addr("global", g, model, 0), g.src("u32"))))
    return out


SIG_OPS = ["ld", "and", "or", "xor", "exch", "add", "sub", "cas"]
SIG_NORET = ["st", "and", "or", "xor", "add", "sub"]
WAIT_OPS = ["eq", "ne", "lt", "gte"]


def signals(g, model):
    out = []
    sec = "6.8 signal"
    sigt = "sig64" if model == "large" else "sig32"
    ln = "64" if model == "large" else "32"
    for op in SIG_OPS:
        orders = {"ld": ["rlx", "scacq"]}.get(op, ORDERS)
        for order in orders:
            for ty in (["b"] if op in ("and", "or", "xor", "exch", "ld", "cas") else ["s", "u"]):
                t = ty + ln
                srcs = {"ld": 0, "cas": 2}.get(op, 1)
                s = "".join(", " + g.src(t) for _ in range(srcs))
                out.append((sec, "%s %s, %s%s;" % (join("signal", op, order, t, sigt), g.dst(t), g.reg(sigt), s)))
    for op in SIG_NORET:
        orders = {"st": ["rlx", "screl"]}.get(op, ORDERS)
        for order in orders:
            for ty in (["b"] if op in ("and", "or", "xor", "st", "exch") else ["s", "u"]):
                t = ty + ln
                out.append((sec, "%s %s, %s;" % (join("signalnoret", op, order, t, sigt), g.reg(sigt), g.src(t))))
    for w in WAIT_OPS:
        for order in ["rlx", "scacq"]:
            t = "s" + ln
            out.append((sec, "%s %s, %s, %s;" % (join("signal", "wait", w, order, t, sigt), g.dst(t), g.reg(sigt), g.src(t))))
            out.append((sec, "%s %s, %s, %s, %s;" % (join("signal", "waittimeout", w, order, t, sigt), g.dst(t), g.reg(sigt), g.src(t), g.src("u64"))))
    return out


def memfence(g):
    out = []
    sec = "6.9 memfence"
    for order in ["scacq", "screl", "scar"]:
        for scope in ["wave", "wg", "agent", "system"]:
            out.append((sec, "memfence_%s_%s;" % (order, scope)))
    out.append(("7.6 imagefence", "imagefence;"))
    return out


# --------------------------------------------------------------------------
# Images (PRM chapter 7)

GEOM_COORDS = {"1d": 1, "2d": 2, "3d": 3, "1da": 2, "2da": 3, "1db": 1, "2ddepth": 2, "2dadepth": 3}


def coords(g, geom, ct):
    n = GEOM_COORDS[geom]
    regs = [g.reg(ct) for _ in range(n)]
    return regs[0] if n == 1 else "(%s)" % ", ".join(regs)


def images(g, which):
    out = []
    if which == "rd":
        sec = "7.2 rdimage"
        for geom in GEOMS:
            if geom == "1db":
                continue
            depth = geom.endswith("depth")
            for dt in ["u32", "s32", "f32"]:
                for it in ["roimg"]:
                    for ct in ["s32", "f32"]:
                        if depth and dt != "f32":
                            continue
                        v = "" if depth else "v4"
                        dst = g.reg(dt) if depth else "(%s)" % ", ".join(g.reg(dt) for _ in range(4))
                        out.append((sec, "%s %s, %s, %s, %s;" % (join("rdimage", v, geom, dt, it, ct), dst, g.reg(it), g.reg("samp"), coords(g, geom, ct))))
        out.append((sec, "rdimage_v4_2d_equiv(3)_f32_roimg_f32 (%s, %s, %s, %s), %s, %s, (%s, %s);" % (
            g.reg("f32"), g.reg("f32"), g.reg("f32"), g.reg("f32"), g.reg("roimg"), g.reg("samp"), g.reg("f32"), g.reg("f32"))))
    elif which == "ld":
        sec = "7.3 ldimage"
        for geom in GEOMS:
            depth = geom.endswith("depth")
            for dt in ["u32", "s32", "f32"]:
                for it in ["roimg", "rwimg"]:
                    if depth and dt != "f32":
                        continue
                    v = "" if depth else "v4"
                    dst = g.reg(dt) if depth else "(%s)" % ", ".join(g.reg(dt) for _ in range(4))
                    out.append((sec, "%s %s, %s, %s;" % (join("ldimage", v, geom, dt, it, "u32"), dst, g.reg(it), coords(g, geom, "u32"))))
        out.append((sec, "ldimage_v4_1d_equiv(9)_u32_rwimg_u32 (%s, %s, %s, %s), %s, %s;" % (
            g.reg("u32"), g.reg("u32"), g.reg("u32"), g.reg("u32"), g.reg("rwimg"), g.reg("u32"))))
    elif which == "st":
        sec = "7.4 stimage"
        for geom in GEOMS:
            depth = geom.endswith("depth")
            for st in ["u32", "s32", "f32"]:
                for it in ["woimg", "rwimg"]:
                    if depth and st != "f32":
                        continue
                    v = "" if depth else "v4"
                    src = g.reg(st) if depth else "(%s)" % ", ".join(g.src(st) for _ in range(4))
                    out.append((sec, "%s %s, %s, %s;" % (join("stimage", v, geom, st, it, "u32"), src, g.reg(it), coords(g, geom, "u32"))))
        out.append((sec, "stimage_v4_2d_equiv(1)_f32_woimg_u32 (%s, %s, %s, %s), %s, (%s, %s);" % (
            g.reg("f32"), g.reg("f32"), g.reg("f32"), g.reg("f32"), g.reg("woimg"), g.reg("u32"), g.reg("u32"))))
    else:
        sec = "7.5 queryimage/querysampler"
        props = {"1d": ["width"], "2d": ["width", "height"], "3d": ["width", "height", "depth"],
                 "1da": ["width", "array"], "2da": ["width", "height", "array"], "1db": ["width"],
                 "2ddepth": ["width", "height"], "2dadepth": ["width", "height", "array"]}
        for geom in GEOMS:
            for p in props[geom] + ["channelorder", "channeltype"]:
                for it in ["roimg", "woimg", "rwimg"]:
                    out.append((sec, "queryimage_%s_%s_u32_%s %s, %s;" % (geom, p, it, g.dst("u32"), g.reg(it))))
        for p in ["addressing", "coord", "filter"]:
            out.append((sec, "querysampler_%s_u32 %s, %s;" % (p, g.dst("u32"), g.reg("samp"))))
    return out


# --------------------------------------------------------------------------
# Chapters 9-11


def sync_ops(g):
    out = []
    sec = "9.1 barrier"
    for w in WIDTHS:
        out.append((sec, "%s;" % join("barrier", w)))
    out.append((sec, "wavebarrier;"))
    sec = "9.2 fbarrier"
    out.append((sec, "initfbar %fb;"))
    for op in ["joinfbar", "waitfbar", "arrivefbar", "leavefbar"]:
        for w in ["", "width(64)", "width(WAVESIZE)", "width(all)"]:
            out.append((sec, "%s %%fb;" % join(op, w)))
    out.append((sec, "ldf_u32 %s, %%fb;" % g.dst("u32")))
    out.append((sec, "initfbar %s;" % g.reg("u32")))
    out.append((sec, "joinfbar %s;" % g.reg("u32")))
    out.append((sec, "waitfbar %s;" % g.reg("u32")))
    out.append((sec, "arrivefbar %s;" % g.reg("u32")))
    out.append((sec, "leavefbar %s;" % g.reg("u32")))
    out.append((sec, "releasefbar %s;" % g.reg("u32")))
    out.append((sec, "releasefbar %fb;"))
    sec = "9.4 cross-lane"
    for w in WIDTHS:
        out.append((sec, "%s %s, %s;" % (join("activelanecount", w, "u32", "b1"), g.dst("u32"), g.src("b1"))))
        out.append((sec, "%s %s;" % (join("activelaneid", w, "u32"), g.dst("u32"))))
        out.append((sec, "%s (%s, %s, %s, %s), %s;" % (join("activelanemask", "v4", w, "b64", "b1"), g.dst("b64"), g.dst("b64"), g.dst("b64"), g.dst("b64"), g.src("b1"))))
        for ln in ["1", "32", "64", "128"]:
            t = "b" + ln
            out.append((sec, "%s %s, %s, %s, %s, %s;" % (join("activelanepermute", w, t), g.dst(t), g.src(t), g.src("u32"), g.src(t), g.src("b1"))))
    return out


def special_ops(g, model):
    out = []
    sec = "11.1 dispatch packet"
    for d in range(3):
        out.append((sec, "currentworkgroupsize_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "gridgroups_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "gridsize_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "gridsize_u64 %s, %d;" % (g.dst("u64"), d)))
        out.append((sec, "workgroupid_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "workgroupsize_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "workitemabsid_u32 %s, %d;" % (g.dst("u32"), d)))
        out.append((sec, "workitemabsid_u64 %s, %d;" % (g.dst("u64"), d)))
        out.append((sec, "workitemid_u32 %s, %d;" % (g.dst("u32"), d)))
    out.append((sec, "currentworkitemflatid_u32 %s;" % g.dst("u32")))
    out.append((sec, "dim_u32 %s;" % g.dst("u32")))
    sig = "sig64" if model == "large" else "sig32"
    out.append((sec, "packetcompletionsig_%s %s;" % (sig, g.dst(sig))))
    out.append((sec, "packetid_u64 %s;" % g.dst("u64")))
    out.append((sec, "workitemflatabsid_u32 %s;" % g.dst("u32")))
    out.append((sec, "workitemflatabsid_u64 %s;" % g.dst("u64")))
    out.append((sec, "workitemflatid_u32 %s;" % g.dst("u32")))
    sec = "11.2 exceptions"
    for op in ["cleardetectexcept", "setdetectexcept"]:
        for v in ["0", "1", "31", "0x1f"]:
            out.append((sec, "%s_u32 %s;" % (op, v)))
    out.append((sec, "getdetectexcept_u32 %s;" % g.dst("u32")))
    sec = "11.3 queue"
    qsz = "u64" if model == "large" else "u32"
    for seg in ["", "global"]:
        for order in ORDERS:
            out.append((sec, "%s %s, %s, %s;" % (join("addqueuewriteindex", seg, order, "u64"), g.dst("u64"), "[%s]" % g.reg(qsz), g.src("u64"))))
            out.append((sec, "%s %s, %s, %s, %s;" % (join("casqueuewriteindex", seg, order, "u64"), g.dst("u64"), "[%s]" % g.reg(qsz), g.src("u64"), g.src("u64"))))
        for order in ["rlx", "scacq"]:
            out.append((sec, "%s %s, %s;" % (join("ldqueuereadindex", seg, order, "u64"), g.dst("u64"), "[%s]" % g.reg(qsz))))
            out.append((sec, "%s %s, %s;" % (join("ldqueuewriteindex", seg, order, "u64"), g.dst("u64"), "[%s]" % g.reg(qsz))))
        for order in ["rlx", "screl"]:
            out.append((sec, "%s %s, %s;" % (join("stqueuereadindex", seg, order, "u64"), "[%s]" % g.reg(qsz), g.src("u64"))))
            out.append((sec, "%s %s, %s;" % (join("stqueuewriteindex", seg, order, "u64"), "[%s]" % g.reg(qsz), g.src("u64"))))
    sec = "11.4 misc"
    out.append((sec, "clock_u64 %s;" % g.dst("u64")))
    out.append((sec, "cuid_u32 %s;" % g.dst("u32")))
    out.append((sec, "debugtrap_u32 %s;" % g.src("u32")))
    out.append((sec, "debugtrap_u32 0;"))
    out.append((sec, "groupbaseptr_u32 %s;" % g.dst("u32")))
    kb = "u64" if model == "large" else "u32"
    out.append((sec, "kernargbaseptr_%s %s;" % (kb, g.dst(kb))))
    out.append((sec, "laneid_u32 %s;" % g.dst("u32")))
    out.append((sec, "maxcuid_u32 %s;" % g.dst("u32")))
    out.append((sec, "maxwaveid_u32 %s;" % g.dst("u32")))
    out.append((sec, "nop;"))
    for seg in ["", "group", "private", "kernarg"]:
        st = "u32" if seg in ("group", "private") or model == "small" else "u64"
        out.append((sec, "nullptr_%s %s;" % (join(seg, st), g.dst(st))))
    out.append((sec, "waveid_u32 %s;" % g.dst("u32")))
    sec = "10.10 alloca"
    for al in ["", "align(1)", "align(4)", "align(16)", "align(256)"]:
        out.append((sec, "%s %s, %s;" % (join("alloca", al, "u32"), g.dst("u32"), g.src("u32"))))
    return out


def constants(g):
    """Every immediate form of PRM 4.8 and Table 4-1, one per line."""
    sec = "4.8 constants"
    out = []
    ints = ["0", "7", "42", "4294967295", "18446744073709551615", "9223372036854775807", "0x2a", "0X2A",
            "0xffffffffffffffff", "0xDeadBeef", "017", "0777", "-1", "-0x80000000", "-9223372036854775808", "-017", "+5", "+0x10"]
    for v in ints:
        out.append((sec, "mov_b64 %s, %s;" % (g.dst("b64"), v)))
    for v in ints[:8] + ints[10:]:
        out.append((sec, "add_s32 %s, %s, %s;" % (g.dst("s32"), g.reg("s32"), v)))
        out.append((sec, "add_u64 %s, %s, %s;" % (g.dst("u64"), g.reg("u64"), v)))
    f32 = ["1.5f", "1.5F", "0.5f", ".5f", "5.f", "1e3f", "1E-3F", "1.0e+10f", "0x1.8p1f", "0X1P-2F", "0xAp0f",
           "0F3fc00000", "0f3FC00000", "-1.5f", "-0F3fc00000", "0F7f800000", "0Fff800000", "0F7fc00000", "0F00000001", "+1.5f", "+0F3fc00000"]
    for v in f32:
        out.append((sec, "add_f32 %s, %s, %s;" % (g.dst("f32"), g.reg("f32"), v)))
    f64 = ["1.5", "1.5d", "1.5D", ".25", "3.", "1e300", "2.5E-300", "0x1.8p1", "0x1.8p1d", "0D3ff8000000000000",
           "0d3FF8000000000000", "-2.0", "0D7ff0000000000000", "0D0000000000000001"]
    for v in f64:
        out.append((sec, "add_f64 %s, %s, %s;" % (g.dst("f64"), g.reg("f64"), v)))
    f16 = ["1.5h", "1.5H", ".5h", "1e2h", "0x1.8p1h", "0H3e00", "0h3E00", "-2.0h", "0H7c00", "0H0001"]
    for v in f16:
        out.append((sec, "add_f16 %s, %s, %s;" % (g.dst("f16"), g.reg("f16"), v)))
    # typed constants
    for t, v in [("u32", "u32(7)"), ("s32", "s32(-7)"), ("u64", "u64(0xffffffffffffffff)"), ("s64", "s64(-1)"),
                 ("f32", "f32(1.5f)"), ("f64", "f64(1.5)"), ("f16", "f16(1.5h)"), ("f32", "f32(0F3fc00000)")]:
        op = "add" if t[0] != "f" else "mul"
        out.append((sec, "%s_%s %s, %s, %s;" % (op, t, g.dst(t), g.reg(t), v)))
    # length-only rule for bit types (Table 4-1)
    for t, v in [("b32", "3.7f"), ("b64", "3.7"), ("b64", "3.7d"), ("b32", "0F40000000"), ("b32", "u8x4(1,2,3,4)"),
                 ("b64", "f32x2(1.0f,2.0f)"), ("b128", "u64x2(1,2)"), ("b128", "f64x2(1.0,2.0)"), ("b32", "s16x2(-1,1)"),
                 ("b32", "u32(5)"), ("b64", "s64(-5)")]:
        out.append((sec, "mov_%s %s, %s;" % (t, g.dst(t), v)))
    # packed constants for every packed type
    for t in PACKED_ALL:
        out.append((sec, "mov_%s %s, %s;" % ("b%d" % bits(t), g.dst(t), packed_imm(t, g.k))))
        g.k += 1
    # PRM 4.14.2 examples: integer constants for packed types
    out.append((sec, "add_pp_u8x4 %s, %s, 0x1000100;" % (g.dst("u8x4"), g.reg("u8x4"))))
    out.append((sec, "add_pp_s16x2 %s, %s, 0xffe90038;" % (g.dst("s16x2"), g.reg("s16x2"))))
    out.append((sec, "add_pp_f32x2 %s, %s, 0x3f80000040000000;" % (g.dst("f32x2"), g.reg("f32x2"))))
    # WAVESIZE as an immediate
    out.append((sec, "add_u32 %s, %s, WAVESIZE;" % (g.dst("u32"), g.reg("u32"))))
    out.append((sec, "mul_u64 %s, WAVESIZE, %s;" % (g.dst("u64"), g.reg("u64"))))
    out.append((sec, "cmp_lt_b1_u32 %s, %s, WAVESIZE;" % (g.dst("b1"), g.reg("u32"))))
    # b1 immediates
    out.append((sec, "mov_b1 %s, 0;" % g.dst("b1")))
    out.append((sec, "mov_b1 %s, 1;" % g.dst("b1")))
    out.append((sec, "and_b1 %s, %s, 1;" % (g.dst("b1"), g.reg("b1"))))
    # signal typed constant
    out.append((sec, "mov_sig64 %s, sig64(0);" % g.dst("sig64")))
    return out


# --------------------------------------------------------------------------
# Files

KERNEL_DECLS = """\
\tglobal_u64 %glob[64];
\tgroup_u64 %grp[64];
\tprivate_u64 %priv[64];
\tspill_u64 %spl[64];
\tfbarrier %fb;"""

MODULE_DECLS = "readonly_u64 &ro[64];"


def kernel_text(name, lines, args=True):
    body = []
    last = None
    for sec, line in lines:
        if sec != last:
            body.append("\t// PRM %s" % sec)
            last = sec
        body.append("\t" + line)
    karg = "(kernarg_u64 %karg)" if args else "()"
    return "kernel &%s%s\n{\n%s\n%s\n\tret;\n};\n" % (name, karg, KERNEL_DECLS, "\n".join(body))


def file_text(header, title, kernels):
    parts = ["// %s" % title, "// Generated by tests/corpus/gen_corpus.py; do not edit by hand.", header, MODULE_DECLS, ""]
    for name, lines in kernels:
        parts.append(kernel_text(name, lines))
    return "\n".join(parts)


def hsailasm(text):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "t.hsail")
        with open(src, "w") as f:
            f.write(text)
        p = subprocess.run(["HSAILasm", src, "-o", os.path.join(d, "t.brig")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return p.returncode, p.stdout


def filter_lines(header, lines, rejected):
    """Assemble; drop each line HSAILasm rejects (one error per run)."""
    lines = list(lines)
    while True:
        text = file_text(header, "", [("k", lines)])
        rc, msg = hsailasm(text)
        if rc == 0 and not msg.strip():
            return lines
        m = re.search(r"input\((\d+),(\d+)\): (.*)", msg)
        if not m:
            raise SystemExit("HSAILasm failed without a location:\n" + msg)
        lineno = int(m.group(1))
        src_line = text.splitlines()[lineno - 1].strip()
        idx = next((i for i, (_, l) in enumerate(lines) if l == src_line), None)
        if idx is None:
            raise SystemExit("HSAILasm rejected a fixed line %r: %s" % (src_line, m.group(3)))
        sec, l = lines.pop(idx)
        rejected.append((header, sec, l, m.group(3).strip()))


def chunks(lines, n):
    for i in range(0, len(lines), n):
        yield lines[i:i + n]


def main():
    if subprocess.run(["which", "HSAILasm"], stdout=subprocess.DEVNULL).returncode != 0:
        raise SystemExit("HSAILasm not on PATH")
    groups = []  # (relative path stem, header, title, lines)

    def add(stem, header, title, fn):
        groups.append((stem, header, title, fn(Gen())))

    add("inst/constants", FULL_LARGE, "Every immediate form: integer, float, typed, packed, WAVESIZE (PRM 4.8, 4.14.2)", constants)
    add("inst/arith_int", FULL_LARGE, "Integer arithmetic, mad, 24-bit, shifts (PRM 5.2-5.5)", arith_int)
    add("inst/arith_packed_int", FULL_LARGE, "Packed integer arithmetic with all controls (PRM 5.2)", arith_packed_int)
    add("inst/bit", FULL_LARGE, "Individual bit and bit string instructions (PRM 5.6, 5.7)", bit_ops)
    add("inst/copy_large", FULL_LARGE + IMAGE, "combine/expand/lda/mov, large model (PRM 5.8)", lambda g: copy_ops(g, "large"))
    add("inst/copy_small", FULL_SMALL + IMAGE, "combine/expand/lda/mov, small model (PRM 5.8)", lambda g: copy_ops(g, "small"))
    add("inst/packed", FULL_LARGE, "shuffle/unpacklo/unpackhi/pack/unpack/cmov (PRM 5.9, 5.10)", packed_ops)
    add("inst/arith_float", FULL_LARGE, "Float arithmetic with ftz and rounding (PRM 5.11, 5.12)", arith_float)
    add("inst/arith_float_packed", FULL_LARGE, "Packed float arithmetic (PRM 5.11)", arith_float_packed)
    add("inst/float_bit", FULL_LARGE, "Float bit and native float instructions (PRM 5.13, 5.14)", float_bit)
    add("inst/multimedia", FULL_LARGE, "Multimedia instructions (PRM 5.15)", multimedia)
    add("inst/segment_large", FULL_LARGE, "segmentp/ftos/stof, large model (PRM 5.16, 5.17)", lambda g: segment_ops(g, "large"))
    add("inst/segment_small", FULL_SMALL, "segmentp/ftos/stof, small model (PRM 5.16, 5.17)", lambda g: segment_ops(g, "small"))
    add("inst/cmp_int", FULL_LARGE, "cmp on bit and integer sources (PRM 5.18)", lambda g: cmp_ops(g, "int"))
    add("inst/cmp_float", FULL_LARGE, "cmp on float sources, every op (PRM 5.18)", lambda g: cmp_ops(g, "float"))
    add("inst/cmp_packed", FULL_LARGE, "packed cmp (PRM 5.18)", cmp_packed)
    add("inst/cvt_int", FULL_LARGE, "cvt between bit/integer types (PRM 5.19)", lambda g: cvt_ops(g, "int"))
    add("inst/cvt_float", FULL_LARGE, "cvt involving float types, every rounding (PRM 5.19)", lambda g: cvt_ops(g, "float"))
    add("base/arith_float", BASE_LARGE, "Base profile: float arithmetic (ftz required, no rounding) (PRM 16.2.1)", lambda g: arith_float(g, True) + arith_float_packed(g, True) + float_bit(g, True))
    add("base/cmp_cvt", BASE_SMALL, "Base profile, small model: cmp and cvt (PRM 16.2.1)", lambda g: cmp_ops(g, "float", True) + cvt_ops(g, "float", True))
    add("base/mem_special", BASE_LARGE, "Base profile: ld/st (no f64), signals, sync and special instructions (PRM 16.2.1)",
        lambda g: [l for l in ld_st(g, "large", "ld") + ld_st(g, "large", "st") if "f64" not in l[1] and "img" not in l[1] and "samp" not in l[1] and "_v" not in l[1]]
        + signals(g, "large") + sync_ops(g) + special_ops(g, "large"))
    add("mem/ld_large", FULL_LARGE + IMAGE, "ld in every segment, type, vector and modifier (PRM 6.3)", lambda g: ld_st(g, "large", "ld"))
    add("mem/st_large", FULL_LARGE + IMAGE, "st in every segment, type, vector and modifier (PRM 6.4)", lambda g: ld_st(g, "large", "st"))
    add("mem/ld_st_small", FULL_SMALL + IMAGE, "ld/st, small model (PRM 6.3, 6.4)", lambda g: ld_st(g, "small", "ld") + ld_st(g, "small", "st"))
    add("mem/atomic", FULL_LARGE, "atomic, every op/segment/order/scope/type (PRM 6.6)", lambda g: atomics(g, "large", False))
    add("mem/atomicnoret", FULL_LARGE, "atomicnoret, every op/segment/order/scope/type (PRM 6.7)", lambda g: atomics(g, "large", True))
    add("mem/atomic_small", FULL_SMALL, "atomic and atomicnoret, small model, global segment (PRM 6.6, 6.7)", lambda g: atomics(g, "small", False, "global", True) + atomics(g, "small", True, "global", True))
    add("mem/signal_large", FULL_LARGE, "signal/signalnoret, large model (PRM 6.8)", lambda g: signals(g, "large"))
    add("mem/signal_small", FULL_SMALL, "signal/signalnoret, small model (PRM 6.8)", lambda g: signals(g, "small"))
    add("mem/memfence", FULL_LARGE + IMAGE, "memfence and imagefence (PRM 6.9, 7.6)", memfence)
    add("image/rdimage", FULL_LARGE + IMAGE, "rdimage, every geometry and type (PRM 7.2)", lambda g: images(g, "rd"))
    add("image/ldimage", FULL_LARGE + IMAGE, "ldimage, every geometry and type (PRM 7.3)", lambda g: images(g, "ld"))
    add("image/stimage", FULL_LARGE + IMAGE, "stimage, every geometry and type (PRM 7.4)", lambda g: images(g, "st"))
    add("image/query", FULL_LARGE + IMAGE, "queryimage/querysampler (PRM 7.5)", lambda g: images(g, "query"))
    add("sync/sync", FULL_LARGE, "barriers, fbarriers, cross-lane (PRM 9)", sync_ops)
    add("special/special_large", FULL_LARGE, "dispatch packet, exceptions, queue, misc, alloca (PRM 10.10, 11)", lambda g: special_ops(g, "large"))
    add("special/special_small", FULL_SMALL, "dispatch packet, exceptions, queue, misc, alloca, small model (PRM 10.10, 11)", lambda g: special_ops(g, "small"))

    shutil.rmtree(OUT, ignore_errors=True)
    rejected = []
    written = []
    for stem, header, title, lines in groups:
        kept = filter_lines(header, lines, rejected)
        parts = list(chunks(kept, MAX_LINES))
        for i, part in enumerate(parts):
            name = stem if len(parts) == 1 else "%s_%d" % (stem, i + 1)
            path = os.path.join(OUT, name + ".hsail")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            text = file_text(header, title, [("k", part)])
            with open(path, "w") as f:
                f.write(text)
            written.append((os.path.relpath(path, HERE), len(part)))
    with open(os.path.join(HERE, "REJECTED.txt"), "w") as f:
        f.write("# Candidate lines built from the PRM tables that HSAILasm rejects.\n")
        f.write("# Generated by gen_corpus.py: header | PRM section | line | HSAILasm message\n")
        for header, sec, line, msg in rejected:
            f.write("%s | %s | %s | %s\n" % (header.replace("\n", " "), sec, line, msg))
    for path, n in written:
        print("%-40s %5d instructions" % (path, n))
    print("rejected: %d" % len(rejected))


if __name__ == "__main__":
    sys.exit(main())
