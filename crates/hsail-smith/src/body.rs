//! Code-block bodies: random instructions of every shape (ALU templates,
//! cvt, cmp, memory, atomics, signals, images, branches, calls, special
//! operations) written as HSAIL text, valid for the module's profile and
//! machine model.

use std::fmt::Write;

use crate::rng::Rng;
use crate::templates::{FTZ, Opnd, PACK1, PACK2, PACK2SAT, ROUND, TEMPLATES, Template, WS};
use crate::types::{bits, immediate, is_float, packed_parts, reg_kind};

/// Module-wide choices every emitter must respect.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Env {
    pub(crate) large: bool,
    pub(crate) base: bool,
    pub(crate) images: bool,
    pub(crate) comments: bool,
}

impl Env {
    /// Type of a flat / global address (`u64` in the large model).
    pub(crate) fn addr_ty(&self) -> &'static str {
        if self.large { "u64" } else { "u32" }
    }

    /// Address type of a segment (PRM Table 2-3).
    pub(crate) fn seg_addr_ty(&self, seg: &str) -> &'static str {
        match seg {
            "group" | "private" | "spill" | "arg" => "u32",
            _ => self.addr_ty(),
        }
    }
}

/// A variable visible in the current code block.
#[derive(Debug, Clone)]
pub(crate) struct Var {
    pub(crate) name: String,
    pub(crate) seg: &'static str,
    /// Size in bytes (addresses with constant offsets must stay inside).
    pub(crate) size: u64,
}

/// A function that can be called from later code blocks.
#[derive(Debug, Clone)]
pub(crate) struct FuncSig {
    pub(crate) name: String,
    pub(crate) signature: String,
    pub(crate) out: Option<&'static str>,
    pub(crate) ins: Vec<&'static str>,
}

pub(crate) const ORDERS: &[&str] = &["rlx", "scacq", "screl", "scar"];
const SCOPES: &[&str] = &["wave", "wg", "agent", "system"];
const WIDTHS: &[&str] = &[
    "",
    "",
    "_width(1)",
    "_width(2)",
    "_width(64)",
    "_width(1024)",
    "_width(WAVESIZE)",
    "_width(all)",
];
const FROUND: &[&str] = &["up", "down", "zero", "near"];
const IROUND: &[&str] = &[
    "upi",
    "downi",
    "zeroi",
    "neari",
    "upi_sat",
    "downi_sat",
    "zeroi_sat",
    "neari_sat",
    "supi",
    "sdowni",
    "szeroi",
    "sneari",
    "supi_sat",
    "sdowni_sat",
    "szeroi_sat",
    "sneari_sat",
];
const CVT_TYPES: &[&str] = &[
    "b1", "u8", "s8", "u16", "s16", "f16", "u32", "s32", "f32", "u64", "s64", "f64",
];
const CMP_INT_OPS: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge"];
const CMP_F_OPS: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
    "seq", "sne", "slt", "sle", "sgt", "sge", "sequ", "sneu", "sltu", "sleu", "sgtu", "sgeu",
    "snum", "snan",
];
const CMP_SRC: &[&str] = &[
    "b1", "b32", "b64", "u32", "s32", "u64", "s64", "f16", "f32", "f64",
];
const CMP_DST: &[&str] = &[
    "b1", "b1", "b1", "u32", "s32", "f32", "u64", "s64", "f64", "f16",
];
const CMP_PACKED: &[&str] = &[
    "s8x4", "u8x4", "s8x8", "u8x8", "s8x16", "u8x16", "s16x2", "u16x2", "s16x4", "u16x4", "s16x8",
    "u16x8", "s32x2", "u32x2", "s32x4", "u32x4", "s64x2", "u64x2", "f16x2", "f16x4", "f16x8",
    "f32x2", "f32x4", "f64x2",
];
const MEM_TYPES: &[&str] = &[
    "u8", "s8", "u16", "s16", "f16", "u32", "s32", "f32", "u64", "s64", "f64", "b128",
];
const GEOMS: &[(&str, u32)] = &[
    ("1d", 1),
    ("2d", 2),
    ("3d", 3),
    ("1da", 2),
    ("2da", 3),
    ("1db", 1),
    ("2ddepth", 2),
    ("2dadepth", 3),
];

/// Writes one code block's instructions.
pub(crate) struct Block<'a> {
    pub(crate) rng: &'a mut Rng,
    pub(crate) env: Env,
    pub(crate) out: &'a mut String,
    /// Variables in scope (module and code block).
    pub(crate) vars: Vec<Var>,
    /// Functions defined before this block.
    pub(crate) funcs: &'a [FuncSig],
    /// Kernel formal arguments (name, type); empty in functions.
    pub(crate) kernargs: Vec<(String, &'static str)>,
    pub(crate) is_kernel: bool,
    pub(crate) labels: Vec<String>,
    placed: usize,
    /// Instructions written so far.
    pub(crate) emitted: usize,
}

impl<'a> Block<'a> {
    pub(crate) fn new(
        rng: &'a mut Rng,
        env: Env,
        out: &'a mut String,
        funcs: &'a [FuncSig],
        prefix: &str,
        n_labels: usize,
    ) -> Self {
        let labels = (0..n_labels).map(|i| format!("@{prefix}_L{i}")).collect();
        Self {
            rng,
            env,
            out,
            vars: Vec::new(),
            funcs,
            kernargs: Vec::new(),
            is_kernel: false,
            labels,
            placed: 0,
            emitted: 0,
        }
    }

    fn line(&mut self, text: &str) {
        self.out.push('\t');
        self.out.push_str(text);
        self.out.push('\n');
        self.emitted += 1;
    }

    fn reg(&mut self, ty: &str) -> String {
        let kind = reg_kind(ty);
        let n = match kind {
            'c' => self.rng.below(8),
            's' => self.rng.below(64),
            'd' => self.rng.below(32),
            _ => self.rng.below(8),
        };
        format!("${kind}{n}")
    }

    fn src(&mut self, ty: &str, wavesize: bool) -> String {
        let int_like = matches!(ty, "u32" | "s32" | "u64" | "s64" | "b32" | "b64");
        if wavesize && int_like && self.rng.chance(1, 20) {
            return "WAVESIZE".to_owned();
        }
        if self.rng.chance(1, 4) {
            immediate(self.rng, ty, self.env.base)
        } else {
            self.reg(ty)
        }
    }

    fn width(&mut self) -> &'static str {
        self.rng.pick(WIDTHS)
    }

    /// Writes `n` (or slightly more) instructions, with the block's labels
    /// spread among them, a comment now and then, and no final `ret`.
    pub(crate) fn body(&mut self, n: usize) {
        while self.emitted < n {
            if self.placed < self.labels.len() && self.rng.chance(1, 12) {
                self.place_label();
            }
            if self.env.comments && self.rng.chance(1, 30) {
                self.annotation();
            }
            self.instruction();
        }
        while self.placed < self.labels.len() {
            self.place_label();
        }
    }

    fn place_label(&mut self) {
        if let Some(l) = self.labels.get(self.placed) {
            let _ = writeln!(self.out, "{l}:");
        }
        self.placed += 1;
    }

    fn annotation(&mut self) {
        let n = self.rng.next_u64() % 1000;
        match self.rng.below(4) {
            0 => {
                let _ = writeln!(self.out, "\t/* block comment {n} */");
            }
            1 => {
                let _ = writeln!(self.out, "\tpragma \"smith\", {n};");
            }
            2 => {
                let _ = writeln!(self.out, "\tloc {} {} \"smith.c\";", n + 1, n % 80 + 1);
            }
            _ => {
                let _ = writeln!(self.out, "\t// comment {n}");
            }
        }
    }

    fn instruction(&mut self) {
        let roll = self.rng.below(100);
        match roll {
            0..=39 => self.alu(),
            40..=46 => self.cvt(),
            47..=53 => self.cmp(),
            54..=65 => self.ld_st(),
            66..=70 => self.atomic(),
            71..=76 if !self.labels.is_empty() => self.branch(),
            77..=80 if !self.funcs.is_empty() => self.call(),
            81..=82 => self.signal(),
            83..=85 if self.env.images => self.image(),
            _ => self.special(),
        }
    }

    // ---------------------------------------------------------------- ALU

    fn alu(&mut self) {
        let i = self.rng.below(TEMPLATES.len());
        let Some(t) = TEMPLATES.get(i).copied() else {
            return;
        };
        self.alu_template(&t);
    }

    fn alu_template(&mut self, t: &Template) {
        let base = self.env.base;
        let types: Vec<&'static str> = t
            .types
            .iter()
            .copied()
            .filter(|ty| !(base && ty.contains("f64")))
            .collect();
        if types.is_empty() {
            return self.special();
        }
        let ty = self.rng.pick(&types);
        let (t0, t1) = ty.split_once('_').unwrap_or((ty, ty));
        let mut name = t.opcode.to_owned();
        if t.mods & FTZ != 0 && (base || self.rng.chance(1, 2)) {
            name.push_str("_ftz");
        }
        if t.mods & ROUND != 0 && !base && self.rng.chance(1, 2) {
            name.push('_');
            name.push_str(self.rng.pick(FROUND));
        }
        if t.mods & PACK1 != 0 {
            name.push_str(self.rng.pick(&["_p", "_s"]));
        }
        if t.mods & (PACK2 | PACK2SAT) != 0 {
            name.push_str(self.rng.pick(&["_pp", "_ps", "_sp", "_ss"]));
            if t.mods & PACK2SAT != 0 && self.rng.chance(1, 2) {
                name.push_str("_sat");
            }
        }
        name.push('_');
        name.push_str(ty);
        let opnd_ty = |o: Opnd| match o {
            Opnd::T1 => t1,
            Opnd::U32 => "u32",
            Opnd::B1 => "b1",
            _ => t0,
        };
        let dst = self.reg(opnd_ty(t.dst));
        let mut ops = vec![dst];
        for &o in t.srcs {
            let s = match o {
                Opnd::Const(n) => self.rng.below(n as usize).to_string(),
                Opnd::SameSizeU => {
                    let u = match bits(t0) {
                        32 => "u32",
                        64 => "u64",
                        _ => "b128",
                    };
                    self.reg(u)
                }
                _ => self.src(opnd_ty(o), t.mods & WS != 0),
            };
            ops.push(s);
        }
        self.line(&format!("{name} {};", ops.join(", ")));
    }

    // ---------------------------------------------------------------- cvt, cmp

    fn cvt(&mut self) {
        let types: Vec<&'static str> = CVT_TYPES
            .iter()
            .copied()
            .filter(|t| !(self.env.base && *t == "f64"))
            .collect();
        let (d, s) = loop {
            let d = self.rng.pick(&types);
            let s = self.rng.pick(&types);
            let same_int =
                !is_float(d) && !is_float(s) && d != "b1" && s != "b1" && bits(d) == bits(s);
            if d != s && !same_int {
                break (d, s);
            }
        };
        let mut name = "cvt".to_owned();
        if is_float(s) && (self.env.base || self.rng.chance(1, 2)) {
            name.push_str("_ftz");
        }
        let round: &[&str] = match (is_float(d), is_float(s)) {
            (true, true) if bits(d) < bits(s) && !self.env.base => FROUND,
            (false, true) if d != "b1" && self.env.base => {
                &["zeroi", "zeroi_sat", "szeroi", "szeroi_sat"]
            }
            (false, true) if d != "b1" => IROUND,
            (true, false) if s != "b1" && !self.env.base => FROUND,
            _ => &[],
        };
        if !round.is_empty() && self.rng.chance(2, 3) {
            name.push('_');
            name.push_str(self.rng.pick(round));
        }
        let dst = self.reg(d);
        let src = self.src(s, false);
        self.line(&format!("{name}_{d}_{s} {dst}, {src};"));
    }

    fn cmp(&mut self) {
        if self.rng.chance(1, 6) {
            return self.cmp_packed();
        }
        let base = self.env.base;
        let s = loop {
            let s = self.rng.pick(CMP_SRC);
            if !(base && s == "f64") {
                break s;
            }
        };
        let d = loop {
            let d = self.rng.pick(CMP_DST);
            if !(base && d == "f64") {
                break d;
            }
        };
        let ops = if is_float(s) {
            CMP_F_OPS
        } else if s.starts_with('b') {
            &["eq", "ne"][..]
        } else {
            CMP_INT_OPS
        };
        let op = self.rng.pick(ops);
        let ftz = if is_float(s) && (base || self.rng.chance(1, 2)) {
            "_ftz"
        } else {
            ""
        };
        let dst = self.reg(d);
        let a = self.src(s, true);
        let b = self.src(s, true);
        self.line(&format!("cmp_{op}{ftz}_{d}_{s} {dst}, {a}, {b};"));
    }

    fn cmp_packed(&mut self) {
        let t = loop {
            let t = self.rng.pick(CMP_PACKED);
            if !(self.env.base && t == "f64x2") {
                break t;
            }
        };
        let Some((elem, count)) = packed_parts(t) else {
            return;
        };
        let d = format!("u{}x{count}", bits(elem));
        let op = self
            .rng
            .pick(if is_float(t) { CMP_F_OPS } else { CMP_INT_OPS });
        let ftz = if is_float(t) && (self.env.base || self.rng.chance(1, 2)) {
            "_ftz"
        } else {
            ""
        };
        let dst = self.reg(&d);
        let a = self.src(t, false);
        let b = self.src(t, false);
        self.line(&format!("cmp_{op}{ftz}_pp_{d}_{t} {dst}, {a}, {b};"));
    }

    // ---------------------------------------------------------------- memory

    /// An address in `seg` ("" = flat) for an access of `access` bytes: a
    /// variable of that segment large enough for it when one is in scope,
    /// otherwise a register (plus offset). `None` when the segment needs a
    /// variable (spill) and none fits.
    fn address(&mut self, seg: &str, access: u64) -> Option<String> {
        let candidates: Vec<(String, u64)> = self
            .vars
            .iter()
            .filter(|v| v.seg == seg && v.size >= access)
            .map(|v| (v.name.clone(), v.size))
            .collect();
        let aty = self.env.seg_addr_ty(seg);
        let var_only = matches!(seg, "spill" | "arg");
        if !candidates.is_empty() && (var_only || self.rng.chance(4, 5)) {
            let i = self.rng.below(candidates.len());
            let (v, size) = candidates.get(i).cloned().unwrap_or_default();
            let off = self.rng.range(0, (size - access) / 4) * 4;
            return Some(match self.rng.below(4) {
                0 => format!("[{v}]"),
                1 => format!("[{v}][{off}]"),
                2 => format!("[{v}][{}]", self.reg(aty)),
                _ => format!("[{v}][{}+{off}]", self.reg(aty)),
            });
        }
        if var_only {
            return None;
        }
        let off = self.rng.below(16) * 4;
        Some(match self.rng.below(3) {
            0 => format!("[{}]", self.reg(aty)),
            1 => format!("[{}+{off}]", self.reg(aty)),
            _ => format!("[{}]", off * 16),
        })
    }

    /// `n` different registers for a value of `ty` (vector destinations).
    fn distinct_regs(&mut self, ty: &str, n: usize) -> Vec<String> {
        let mut regs: Vec<String> = Vec::with_capacity(n);
        while regs.len() < n {
            let r = self.reg(ty);
            if !regs.contains(&r) {
                regs.push(r);
            }
        }
        regs
    }

    fn mem_type(&mut self) -> &'static str {
        loop {
            let t = self.rng.pick(MEM_TYPES);
            if !(self.env.base && t == "f64") {
                return t;
            }
        }
    }

    fn ld_st(&mut self) {
        if self.is_kernel && !self.kernargs.is_empty() && self.rng.chance(1, 6) {
            let i = self.rng.below(self.kernargs.len());
            if let Some((name, ty)) = self.kernargs.get(i).cloned() {
                let r = self.reg(ty);
                return self.line(&format!("ld_kernarg_{ty} {r}, [{name}];"));
            }
        }
        if self.env.images && self.rng.chance(1, 20) {
            let (ty, var) = self.rng.pick(&[("roimg", "&img"), ("samp", "&smp")]);
            let r = self.reg(ty);
            return self.line(&format!("ld_global_{ty} {r}, [{var}];"));
        }
        let store = self.rng.chance(2, 5);
        let segs: &[&str] = if store {
            &["", "global", "group", "private", "spill"]
        } else {
            &["", "global", "group", "private", "spill", "readonly"]
        };
        let mut seg = self.rng.pick(segs);
        if !self.is_kernel && seg == "group" {
            seg = "global";
        }
        let ty = self.mem_type();
        let vec = if ty != "b128" && self.rng.chance(1, 4) {
            self.rng.range(2, 4) as usize
        } else {
            1
        };
        let mut name = if store { "st" } else { "ld" }.to_owned();
        if vec > 1 {
            let _ = write!(name, "_v{vec}");
        }
        if !seg.is_empty() {
            name.push('_');
            name.push_str(seg);
        }
        if self.rng.chance(1, 5) {
            let _ = write!(name, "_align({})", 1u32 << self.rng.below(9));
        }
        if !store && (seg.is_empty() || seg == "global") && self.rng.chance(1, 6) {
            name.push_str("_const");
        }
        if self.rng.chance(1, 6) {
            let _ = write!(name, "_equiv({})", self.rng.below(256));
        }
        if !store && self.rng.chance(1, 6) {
            name.push_str(self.width());
        }
        let _ = write!(name, "_{ty}");
        let access = u64::from(bits(ty) / 8) * vec as u64;
        let Some(addr) = self.address(seg, access) else {
            return self.special();
        };
        let regs = if store {
            (0..vec).map(|_| self.src(ty, false)).collect()
        } else {
            self.distinct_regs(ty, vec)
        };
        let data = if vec == 1 {
            regs.concat()
        } else {
            format!("({})", regs.join(", "))
        };
        self.line(&format!("{name} {data}, {addr};"));
    }

    fn atomic(&mut self) {
        let noret = self.rng.chance(1, 3);
        let ops: &[&str] = if noret {
            &[
                "st", "and", "or", "xor", "add", "sub", "wrapinc", "wrapdec", "max", "min",
            ]
        } else {
            &[
                "ld", "and", "or", "xor", "exch", "add", "sub", "wrapinc", "wrapdec", "max", "min",
                "cas",
            ]
        };
        let op = self.rng.pick(ops);
        let mut seg = self.rng.pick(&["", "global", "group"]);
        if !self.is_kernel && seg == "group" {
            seg = "global";
        }
        let order = match op {
            "ld" => self.rng.pick(&["rlx", "scacq"]),
            "st" => self.rng.pick(&["rlx", "screl"]),
            _ => self.rng.pick(ORDERS),
        };
        let scope = if seg == "group" {
            self.rng.pick(&["wave", "wg"])
        } else {
            self.rng.pick(SCOPES)
        };
        // PRM 6.6/6.7 (Length): 64-bit atomics are not allowed in the small
        // machine model (HSAILasm accepts them; the PRM wins).
        let ty = match (op, self.env.large) {
            ("and" | "or" | "xor" | "exch" | "ld" | "st" | "cas", true) => {
                self.rng.pick(&["b32", "b64"])
            }
            ("and" | "or" | "xor" | "exch" | "ld" | "st" | "cas", false) => "b32",
            ("wrapinc" | "wrapdec", true) => self.rng.pick(&["u32", "u64"]),
            ("wrapinc" | "wrapdec", false) => "u32",
            (_, true) => self.rng.pick(&["s32", "u32", "s64", "u64"]),
            (_, false) => self.rng.pick(&["s32", "u32"]),
        };
        let mut name = if noret { "atomicnoret" } else { "atomic" }.to_owned();
        let _ = write!(name, "_{op}");
        if !seg.is_empty() {
            let _ = write!(name, "_{seg}");
        }
        let _ = write!(name, "_{order}_{scope}");
        if self.rng.chance(1, 6) {
            let _ = write!(name, "_equiv({})", self.rng.below(256));
        }
        let _ = write!(name, "_{ty}");
        let Some(addr) = self.address(seg, u64::from(bits(ty) / 8)) else {
            return self.special();
        };
        let nsrc = match op {
            "ld" => 0,
            "cas" => 2,
            _ => 1,
        };
        let mut ops = Vec::new();
        if !noret {
            ops.push(self.reg(ty));
        }
        ops.push(addr);
        for _ in 0..nsrc {
            ops.push(self.src(ty, false));
        }
        self.line(&format!("{name} {};", ops.join(", ")));
    }

    fn signal(&mut self) {
        let (sigt, ln) = if self.env.large {
            ("sig64", "64")
        } else {
            ("sig32", "32")
        };
        let handle = self.reg("sig64");
        let roll = self.rng.below(3);
        if roll == 0 {
            let op = self.rng.pick(&["st", "and", "or", "xor", "add", "sub"]);
            let order = if op == "st" {
                self.rng.pick(&["rlx", "screl"])
            } else {
                self.rng.pick(ORDERS)
            };
            let ty = if matches!(op, "add" | "sub") {
                format!("{}{ln}", self.rng.pick(&["s", "u"]))
            } else {
                format!("b{ln}")
            };
            let v = self.src(&ty, false);
            return self.line(&format!(
                "signalnoret_{op}_{order}_{ty}_{sigt} {handle}, {v};"
            ));
        }
        if roll == 1 {
            let wop = self.rng.pick(&["eq", "ne", "lt", "gte"]);
            let order = self.rng.pick(&["rlx", "scacq"]);
            let ty = format!("s{ln}");
            let d = self.reg(&ty);
            let v = self.src(&ty, false);
            if self.rng.chance(1, 2) {
                return self.line(&format!(
                    "signal_wait_{wop}_{order}_{ty}_{sigt} {d}, {handle}, {v};"
                ));
            }
            let t = self.src("u64", false);
            return self.line(&format!(
                "signal_waittimeout_{wop}_{order}_{ty}_{sigt} {d}, {handle}, {v}, {t};"
            ));
        }
        let op = self
            .rng
            .pick(&["ld", "and", "or", "xor", "exch", "add", "sub", "cas"]);
        let order = if op == "ld" {
            self.rng.pick(&["rlx", "scacq"])
        } else {
            self.rng.pick(ORDERS)
        };
        let ty = if matches!(op, "add" | "sub") {
            format!("{}{ln}", self.rng.pick(&["s", "u"]))
        } else {
            format!("b{ln}")
        };
        let d = self.reg(&ty);
        let mut ops = vec![d, handle];
        let nsrc = match op {
            "ld" => 0,
            "cas" => 2,
            _ => 1,
        };
        for _ in 0..nsrc {
            ops.push(self.src(&ty, false));
        }
        self.line(&format!(
            "signal_{op}_{order}_{ty}_{sigt} {};",
            ops.join(", ")
        ));
    }

    // ---------------------------------------------------------------- images

    fn coords(&mut self, n: u32, ty: &str) -> String {
        let cs: Vec<String> = (0..n).map(|_| self.reg(ty)).collect();
        if n == 1 {
            cs.concat()
        } else {
            format!("({})", cs.join(", "))
        }
    }

    /// The channel type of an image value: f32 for depth images.
    fn image_value_type(&mut self, depth: bool) -> &'static str {
        if depth {
            "f32"
        } else {
            self.rng.pick(&["u32", "s32", "f32"])
        }
    }

    fn image(&mut self) {
        let (geom, n) = self.rng.pick(GEOMS);
        let depth = geom.ends_with("depth");
        // Depth images hold one f32 channel; the others four of any type.
        let v = if depth { "" } else { "v4_" };
        let img = self.reg("roimg");
        match self.rng.below(6) {
            0 if geom != "1db" => {
                let dt = self.image_value_type(depth);
                let ct = self.rng.pick(&["s32", "f32"]);
                let dst = self.image_data(depth, dt, false);
                let smp = self.reg("samp");
                let c = self.coords(n, ct);
                self.line(&format!(
                    "rdimage_{v}{geom}_{dt}_roimg_{ct} {dst}, {img}, {smp}, {c};"
                ));
            }
            1 => {
                let dt = self.image_value_type(depth);
                let it = self.rng.pick(&["roimg", "rwimg"]);
                let dst = self.image_data(depth, dt, false);
                let c = self.coords(n, "u32");
                self.line(&format!(
                    "ldimage_{v}{geom}_{dt}_{it}_u32 {dst}, {img}, {c};"
                ));
            }
            2 => {
                let st = self.image_value_type(depth);
                let it = self.rng.pick(&["woimg", "rwimg"]);
                let src = self.image_data(depth, st, true);
                let c = self.coords(n, "u32");
                self.line(&format!(
                    "stimage_{v}{geom}_{st}_{it}_u32 {src}, {img}, {c};"
                ));
            }
            3 => {
                let mut props = vec!["width", "channelorder", "channeltype"];
                if matches!(geom, "2d" | "3d" | "2da" | "2ddepth" | "2dadepth") {
                    props.push("height");
                }
                if geom == "3d" {
                    props.push("depth");
                }
                if matches!(geom, "1da" | "2da" | "2dadepth") {
                    props.push("array");
                }
                let p = self.rng.pick(&props);
                let it = self.rng.pick(&["roimg", "woimg", "rwimg"]);
                let d = self.reg("u32");
                self.line(&format!("queryimage_{geom}_{p}_u32_{it} {d}, {img};"));
            }
            4 => {
                let p = self.rng.pick(&["addressing", "coord", "filter"]);
                let d = self.reg("u32");
                let s = self.reg("samp");
                self.line(&format!("querysampler_{p}_u32 {d}, {s};"));
            }
            _ => self.line("imagefence;"),
        }
    }

    fn image_data(&mut self, depth: bool, ty: &str, source: bool) -> String {
        if depth {
            return self.reg(ty);
        }
        let v: Vec<String> = if source {
            (0..4).map(|_| self.src(ty, false)).collect()
        } else {
            self.distinct_regs(ty, 4)
        };
        format!("({})", v.join(", "))
    }

    // ---------------------------------------------------------------- control flow

    fn label(&mut self) -> String {
        let i = self.rng.below(self.labels.len());
        self.labels.get(i).cloned().unwrap_or_default()
    }

    fn branch(&mut self) {
        match self.rng.below(4) {
            0 => {
                let l = self.label();
                self.line(&format!("br {l};"));
            }
            1 | 2 => {
                let w = self.width();
                let c = self.src("b1", false);
                let l = self.label();
                self.line(&format!("cbr{w}_b1 {c}, {l};"));
            }
            _ => {
                let w = self.width();
                let ty = self.rng.pick(&["u32", "u64"]);
                let s = self.src(ty, false);
                let n = self.rng.range(1, 5);
                let ls: Vec<String> = (0..n).map(|_| self.label()).collect();
                self.line(&format!("sbr{w}_{ty} {s} [{}];", ls.join(", ")));
            }
        }
    }

    fn call(&mut self) {
        let i = self.rng.below(self.funcs.len());
        let Some(f) = self.funcs.get(i).cloned() else {
            return;
        };
        let _ = writeln!(self.out, "\t{{");
        if let Some(o) = f.out {
            let _ = writeln!(self.out, "\t\targ_{o} %co;");
        }
        for (k, ty) in f.ins.iter().enumerate() {
            let _ = writeln!(self.out, "\t\targ_{ty} %ci{k};");
        }
        for (k, ty) in f.ins.iter().enumerate() {
            let v = self.src(ty, false);
            self.line(&format!("\tst_arg_{ty} {v}, [%ci{k}];"));
        }
        let outs = if f.out.is_some() { "%co" } else { "" };
        let ins: Vec<String> = (0..f.ins.len()).map(|k| format!("%ci{k}")).collect();
        let ins = ins.join(", ");
        // scall over every function with the same formal arguments.
        let same: Vec<String> = self
            .funcs
            .iter()
            .filter(|g| g.out == f.out && g.ins == f.ins)
            .map(|g| g.name.clone())
            .collect();
        match self.rng.below(5) {
            0 => {
                let w = self.width();
                let ty = self.rng.pick(&["u32", "u64"]);
                let s = self.src(ty, false);
                self.line(&format!(
                    "\tscall{w}_{ty} {s} ({outs}) ({ins}) [{}];",
                    same.join(", ")
                ));
            }
            1 if !self.env.base => {
                let w = self.width();
                let ty = self.env.addr_ty();
                let r = self.reg(ty);
                self.line(&format!(
                    "\ticall{w}_{ty} {r} ({outs}) ({ins}) {};",
                    f.signature
                ));
            }
            _ => self.line(&format!("\tcall {} ({outs}) ({ins});", f.name)),
        }
        if let Some(o) = f.out {
            let r = self.reg(o);
            self.line(&format!("\tld_arg_{o} {r}, [%co];"));
        }
        let _ = writeln!(self.out, "\t}}");
    }

    // ---------------------------------------------------------------- special

    fn special(&mut self) {
        let large = self.env.large;
        let a = self.env.addr_ty();
        match self.rng.below(24) {
            0 => {
                let op = self.rng.pick(&[
                    "workitemabsid",
                    "workitemid",
                    "workgroupid",
                    "workgroupsize",
                    "currentworkgroupsize",
                    "gridgroups",
                    "gridsize",
                ]);
                let ty = if matches!(op, "workitemabsid" | "gridsize") {
                    self.rng.pick(&["u32", "u64"])
                } else {
                    "u32"
                };
                let d = self.reg(ty);
                let dim = self.rng.below(3);
                self.line(&format!("{op}_{ty} {d}, {dim};"));
            }
            1 => {
                let (op, ty) = self.rng.pick(&[
                    ("dim", "u32"),
                    ("workitemflatid", "u32"),
                    ("workitemflatabsid", "u32"),
                    ("workitemflatabsid", "u64"),
                    ("currentworkitemflatid", "u32"),
                    ("packetid", "u64"),
                    ("clock", "u64"),
                    ("cuid", "u32"),
                    ("laneid", "u32"),
                    ("maxcuid", "u32"),
                    ("maxwaveid", "u32"),
                    ("waveid", "u32"),
                    ("groupbaseptr", "u32"),
                    ("getdetectexcept", "u32"),
                ]);
                let d = self.reg(ty);
                self.line(&format!("{op}_{ty} {d};"));
            }
            2 => {
                let sig = if large { "sig64" } else { "sig32" };
                let d = self.reg("sig64");
                self.line(&format!("packetcompletionsig_{sig} {d};"));
            }
            3 if self.is_kernel => {
                let d = self.reg(a);
                self.line(&format!("kernargbaseptr_{a} {d};"));
            }
            4 => {
                let seg = self.rng.pick(&["", "group", "private", "kernarg"]);
                let ty = self.env.seg_addr_ty(seg);
                let d = self.reg(ty);
                let seg = if seg.is_empty() {
                    String::new()
                } else {
                    format!("_{seg}")
                };
                self.line(&format!("nullptr{seg}_{ty} {d};"));
            }
            5 => {
                let op = self.rng.pick(&["cleardetectexcept", "setdetectexcept"]);
                let v = self.rng.below(32);
                self.line(&format!("{op}_u32 {v};"));
            }
            6 => {
                let s = self.src("u32", false);
                self.line(&format!("debugtrap_u32 {s};"));
            }
            7 => self.line("nop;"),
            8 => {
                let w = self.width();
                self.line(&format!("barrier{w};"));
            }
            9 => self.line("wavebarrier;"),
            10 => {
                let o = self.rng.pick(&["scacq", "screl", "scar"]);
                let s = self.rng.pick(SCOPES);
                self.line(&format!("memfence_{o}_{s};"));
            }
            11 if self.is_kernel => {
                let op = self.rng.pick(&[
                    "initfbar",
                    "joinfbar",
                    "waitfbar",
                    "arrivefbar",
                    "leavefbar",
                    "releasefbar",
                    "ldf",
                ]);
                let w = if matches!(op, "joinfbar" | "waitfbar" | "arrivefbar" | "leavefbar") {
                    self.rng
                        .pick(&["", "_width(64)", "_width(WAVESIZE)", "_width(all)"])
                } else {
                    ""
                };
                if op == "ldf" {
                    let d = self.reg("u32");
                    self.line(&format!("ldf_u32 {d}, %fb;"));
                } else if self.rng.chance(1, 2) {
                    self.line(&format!("{op}{w} %fb;"));
                } else {
                    let r = self.reg("u32");
                    self.line(&format!("{op}{w} {r};"));
                }
            }
            12 => {
                let w = self.width();
                let d = self.reg("u32");
                let s = self.src("b1", false);
                self.line(&format!("activelanecount{w}_u32_b1 {d}, {s};"));
            }
            13 => {
                let w = self.width();
                let d = self.reg("u32");
                self.line(&format!("activelaneid{w}_u32 {d};"));
            }
            14 => {
                let w = self.width();
                let ds = self.distinct_regs("b64", 4);
                let s = self.src("b1", false);
                self.line(&format!(
                    "activelanemask_v4{w}_b64_b1 ({}), {s};",
                    ds.join(", ")
                ));
            }
            15 => {
                let w = self.width();
                let ty = self.rng.pick(&["b1", "b32", "b64", "b128"]);
                let d = self.reg(ty);
                let s = self.src(ty, false);
                let l = self.src("u32", false);
                let id = self.src(ty, false);
                let u = self.src("b1", false);
                self.line(&format!(
                    "activelanepermute{w}_{ty} {d}, {s}, {l}, {id}, {u};"
                ));
            }
            16 => {
                let seg = self.rng.pick(&["global", "group", "private"]);
                let nn = self.rng.pick(&["", "_nonull"]);
                let d = self.reg("b1");
                let s = self.src(a, false);
                self.line(&format!("segmentp_{seg}{nn}_b1_{a} {d}, {s};"));
            }
            17 => {
                let seg = self.rng.pick(&["group", "private"]);
                let nn = self.rng.pick(&["", "_nonull"]);
                if self.rng.chance(1, 2) {
                    let d = self.reg("u32");
                    let s = self.src(a, false);
                    self.line(&format!("ftos_{seg}{nn}_u32_{a} {d}, {s};"));
                } else {
                    let d = self.reg(a);
                    let s = self.src("u32", false);
                    self.line(&format!("stof_{seg}{nn}_{a}_u32 {d}, {s};"));
                }
            }
            18 => {
                let vars: Vec<Var> = self
                    .vars
                    .iter()
                    .filter(|v| matches!(v.seg, "global" | "group" | "private" | "readonly"))
                    .cloned()
                    .collect();
                if vars.is_empty() {
                    return self.line("nop;");
                }
                let i = self.rng.below(vars.len());
                if let Some(v) = vars.get(i) {
                    let ty = self.env.seg_addr_ty(v.seg);
                    let d = self.reg(ty);
                    let seg = v.seg;
                    let name = v.name.clone();
                    self.line(&format!("lda_{seg}_{ty} {d}, [{name}];"));
                }
            }
            19 => match self.rng.below(6) {
                0 => {
                    let d = self.reg("b64");
                    let (x, y) = (self.src("b32", false), self.src("b32", false));
                    self.line(&format!("combine_v2_b64_b32 {d}, ({x}, {y});"));
                }
                1 => {
                    let d = self.reg("b128");
                    let s: Vec<String> = (0..4).map(|_| self.src("b32", false)).collect();
                    self.line(&format!("combine_v4_b128_b32 {d}, ({});", s.join(", ")));
                }
                2 => {
                    let d = self.reg("b128");
                    let (x, y) = (self.src("b64", false), self.src("b64", false));
                    self.line(&format!("combine_v2_b128_b64 {d}, ({x}, {y});"));
                }
                3 => {
                    let d = self.distinct_regs("b32", 2).join(", ");
                    let s = self.src("b64", false);
                    self.line(&format!("expand_v2_b32_b64 ({d}), {s};"));
                }
                4 => {
                    let d = self.distinct_regs("b32", 4);
                    let s = self.src("b128", false);
                    self.line(&format!("expand_v4_b32_b128 ({}), {s};", d.join(", ")));
                }
                _ => {
                    let d = self.distinct_regs("b64", 2).join(", ");
                    let s = self.src("b128", false);
                    self.line(&format!("expand_v2_b64_b128 ({d}), {s};"));
                }
            },
            20 => {
                let al = self.rng.pick(&["", "_align(4)", "_align(16)"]);
                let d = self.reg("u32");
                let s = self.src("u32", false);
                self.line(&format!("alloca{al}_u32 {d}, {s};"));
            }
            21 => {
                let seg = self.rng.pick(&["", "_global"]);
                let r = self.reg(a);
                match self.rng.below(6) {
                    0 => {
                        let o = self.rng.pick(ORDERS);
                        let d = self.reg("u64");
                        let s = self.src("u64", false);
                        self.line(&format!("addqueuewriteindex{seg}_{o}_u64 {d}, [{r}], {s};"));
                    }
                    1 => {
                        let o = self.rng.pick(ORDERS);
                        let d = self.reg("u64");
                        let (x, y) = (self.src("u64", false), self.src("u64", false));
                        self.line(&format!(
                            "casqueuewriteindex{seg}_{o}_u64 {d}, [{r}], {x}, {y};"
                        ));
                    }
                    2 | 3 => {
                        let op = if self.rng.chance(1, 2) {
                            "ldqueuereadindex"
                        } else {
                            "ldqueuewriteindex"
                        };
                        let o = self.rng.pick(&["rlx", "scacq"]);
                        let d = self.reg("u64");
                        self.line(&format!("{op}{seg}_{o}_u64 {d}, [{r}];"));
                    }
                    _ => {
                        let op = if self.rng.chance(1, 2) {
                            "stqueuereadindex"
                        } else {
                            "stqueuewriteindex"
                        };
                        let o = self.rng.pick(&["rlx", "screl"]);
                        let s = self.src("u64", false);
                        self.line(&format!("{op}{seg}_{o}_u64 [{r}], {s};"));
                    }
                }
            }
            _ => self.alu(),
        }
    }
}
